/* cards' procedure in JSON (model.md): grid {w, h, mask}, cell_ft, cells,
 * entrance, turns (dice and per-die results, plus obstacles, lengths and
 * re-rolled dice), stairs and deals. */
#include <stdio.h>
#include <string.h>

#include "io/json_util.h"
#include "proc.h"

enum { MAX_SIDE = 4096 };

static void int3(cb_jw *w, const int v[3]) {
  cb_jw_raw(w, "[", 1);
  for (int k = 0; k < 3; k++)
    cb_jw_next(w, k), cb_jw_int(w, v[k]);
  cb_jw_raw(w, "]", 1);
}

/* Streamed: a 100,000-card sprawl as a jansson tree cost a second and
 * hundreds of megabytes. */
static void write_proc(cb_jw *w, const cb_dungeon *d) {
  const cb_cards_proc *p = cb_cards_of(d);
  cb_jw_raw(w, "{", 1);
  if (!p) { /* a hand-made dungeon has no procedure */
    cb_jw_raw(w, "}", 1);
    return;
  }
  cb_jw_key(w, "grid", 1), cb_jw_raw(w, "{", 1);
  cb_jw_key(w, "w", 1), cb_jw_int(w, p->w);
  cb_jw_key(w, "h", 0), cb_jw_int(w, p->h);
  cb_jw_key(w, "mask", 0), cb_jw_raw(w, "[", 1);
  for (int r = 0; r < p->h; r++)
    cb_jw_next(w, r), cb_jw_str(w, p->mask[r]);
  cb_jw_put(w, "]}");
  cb_jw_key(w, "cell_ft", 0), cb_jw_real(w, p->cell_ft);
  cb_jw_key(w, "cells", 0), cb_jw_raw(w, "[", 1);
  for (int i = 0; i < p->ncells; i++) {
    cb_jw_next(w, i), cb_jw_raw(w, "{", 1);
    cb_jw_key(w, "col", 1), cb_jw_int(w, p->cells[i].col);
    cb_jw_key(w, "row", 0), cb_jw_int(w, p->cells[i].row);
    cb_jw_key(w, "card", 0), cb_jw_str(w, p->cells[i].card);
    cb_jw_key(w, "level", 0), cb_jw_int(w, p->cells[i].level);
    cb_jw_key(w, "room", 0), cb_jw_int(w, p->cells[i].room);
    cb_jw_raw(w, "}", 1);
  }
  cb_jw_raw(w, "]", 1);
  cb_jw_key(w, "entrance", 0), cb_jw_raw(w, "{", 1);
  cb_jw_key(w, "col", 1), cb_jw_int(w, p->entrance_col);
  cb_jw_key(w, "row", 0), cb_jw_int(w, p->entrance_row);
  cb_jw_raw(w, "}", 1);
  cb_jw_key(w, "turns", 0), cb_jw_raw(w, "[", 1);
  for (int i = 0; i < p->nturns; i++) {
    const cb_card_turn *t = &p->turns[i];
    cb_jw_next(w, i), cb_jw_raw(w, "{", 1);
    cb_jw_key(w, "room", 1), cb_jw_int(w, t->room);
    cb_jw_key(w, "level", 0), cb_jw_int(w, t->level);
    cb_jw_key(w, "col", 0), cb_jw_int(w, t->col);
    cb_jw_key(w, "row", 0), cb_jw_int(w, t->row);
    cb_jw_key(w, "dice", 0), int3(w, t->dice);
    cb_jw_key(w, "results", 0), cb_jw_raw(w, "[", 1);
    int any_ob = 0, any_len = 0;
    for (int k = 0; k < 3; k++) {
      cb_jw_next(w, k), cb_jw_str(w, cb_die_result_name(t->results[k]));
      any_ob |= cb_obstacle_name(t->obstacles[k]) != NULL;
      any_len |= t->lengths[k] != 0;
    }
    cb_jw_raw(w, "]", 1);
    if (any_ob) {
      cb_jw_key(w, "obstacles", 0), cb_jw_raw(w, "[", 1);
      for (int k = 0; k < 3; k++) {
        const char *on = cb_obstacle_name(t->obstacles[k]);
        cb_jw_next(w, k);
        if (on)
          cb_jw_str(w, on);
        else
          cb_jw_put(w, "null");
      }
      cb_jw_raw(w, "]", 1);
    }
    if (any_len) {
      cb_jw_key(w, "lengths", 0), cb_jw_raw(w, "[", 1);
      for (int k = 0; k < 3; k++) {
        cb_jw_next(w, k);
        if (t->lengths[k])
          cb_jw_int(w, t->lengths[k]);
        else
          cb_jw_put(w, "null");
      }
      cb_jw_raw(w, "]", 1);
    }
    if (t->nrerolls) {
      cb_jw_key(w, "rerolled", 0), cb_jw_raw(w, "[", 1);
      for (int k = 0; k < t->nrerolls; k++)
        cb_jw_next(w, k), int3(w, t->rerolls[k]);
      cb_jw_raw(w, "]", 1);
    }
    cb_jw_raw(w, "}", 1);
  }
  cb_jw_raw(w, "]", 1);
  cb_jw_key(w, "stairs", 0), cb_jw_raw(w, "[", 1);
  for (int i = 0; i < p->nstairs; i++) {
    cb_jw_next(w, i), cb_jw_raw(w, "{", 1);
    cb_jw_key(w, "from", 1), cb_jw_int(w, p->stairs[i].from);
    cb_jw_key(w, "to", 0), cb_jw_int(w, p->stairs[i].to);
    cb_jw_raw(w, "}", 1);
  }
  cb_jw_raw(w, "]", 1);
  cb_jw_key(w, "deals", 0), cb_jw_int(w, p->deals);
  cb_jw_raw(w, "}", 1);
}

static int valid_card(const char *c) {
  static const char *const ranks[] = {"A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"};
  if (strcmp(c, "JK") == 0) return 1;
  size_t n = strlen(c);
  if (n < 2 || !strchr("SHDC", c[n - 1]) || !c[n - 1]) return 0;
  for (size_t i = 0; i < sizeof ranks / sizeof *ranks; i++)
    if (strlen(ranks[i]) == n - 1 && strncmp(ranks[i], c, n - 1) == 0) return 1;
  return 0;
}

static int card_rank(const char *c) {
  static const char *const ranks[] = {"JK", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"};
  if (strcmp(c, "JK") == 0) return 0;
  for (int i = 1; i < 14; i++)
    if (strlen(ranks[i]) == strlen(c) - 1 && strncmp(ranks[i], c, strlen(c) - 1) == 0) return i;
  return -1;
}

static int read_int3(cb_json_reader *r, json_t *a, const char *where, const char *key, int lo, int hi,
                     int out[3]) {
  if (!json_is_array(a) || json_array_size(a) != 3) {
    cb_jr_fail(r, where, "'%s' must be an array of three dice", key);
    return -1;
  }
  for (int k = 0; k < 3; k++) {
    json_t *v = json_array_get(a, (size_t)k);
    if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi) {
      cb_jr_fail(r, where, "'%s' must hold whole numbers from %d to %d", key, lo, hi);
      return -1;
    }
    out[k] = (int)json_integer_value(v);
  }
  return 0;
}

static int room_ok(cb_json_reader *r, int id) { return id == 0 || cb_dungeon_room(r->d, id) != NULL; }

static cb_status read_turn(cb_json_reader *r, json_t *v, const char *where, cb_card_turn *t) {
  if (!json_is_object(v)) return cb_jr_fail(r, where, "must be an object");
  t->room = cb_jr_int(r, v, where, "room", 1, 1000000000, 1, 1);
  t->level = cb_jr_int(r, v, where, "level", 1, 1000000, 0, 1);
  t->col = cb_jr_int(r, v, where, "col", 1, MAX_SIDE, 1, 1);
  t->row = cb_jr_int(r, v, where, "row", 1, MAX_SIDE, 1, 1);
  if (r->st) return r->st;
  if (!cb_dungeon_room(r->d, t->room)) return cb_jr_fail(r, where, "'room' names no room");
  json_t *dice = cb_jr_field(r, v, where, "dice", JSON_ARRAY, 1),
         *res = cb_jr_field(r, v, where, "results", JSON_ARRAY, 1);
  if (r->st || read_int3(r, dice, where, "dice", 1, 6, t->dice)) return r->st;
  if (json_array_size(res) != 3) return cb_jr_fail(r, where, "'results' must hold one result per die");
  for (int k = 0; k < 3; k++) {
    int x = cb_die_result_parse(json_string_value(json_array_get(res, (size_t)k)));
    if (x < 0)
      return cb_jr_fail(
          r, where, "results[%d]: expected door, entry, out, surface, existing, rediscovered or ignored", k);
    t->results[k] = (cb_die_result)x;
  }
  json_t *obs = cb_jr_field(r, v, where, "obstacles", JSON_ARRAY, 0),
         *len = cb_jr_field(r, v, where, "lengths", JSON_ARRAY, 0);
  if (r->st) return r->st;
  if (obs && json_array_size(obs) != 3)
    return cb_jr_fail(r, where, "'obstacles' must hold one entry per die");
  if (len && json_array_size(len) != 3) return cb_jr_fail(r, where, "'lengths' must hold one entry per die");
  for (int k = 0; k < 3 && obs; k++) {
    json_t *o = json_array_get(obs, (size_t)k);
    if (json_is_null(o)) continue;
    int x = cb_obstacle_parse(json_string_value(o));
    if (x < 0)
      return cb_jr_fail(r, where, "obstacles[%d]: expected null, trapped, locked, jammed or obstructed", k);
    t->obstacles[k] = (cb_obstacle)x;
  }
  for (int k = 0; k < 3 && len; k++) {
    json_t *o = json_array_get(len, (size_t)k);
    if (json_is_null(o)) continue;
    if (!json_is_integer(o) || json_integer_value(o) < 1 || json_integer_value(o) > 6)
      return cb_jr_fail(r, where, "lengths[%d]: expected null or a die from 1 to 6", k);
    t->lengths[k] = (int)json_integer_value(o);
  }
  json_t *rr = cb_jr_array(r, v, where, "rerolled", 1000, 0);
  if (r->st) return r->st;
  if (rr && json_array_size(rr)) {
    t->nrerolls = (int)json_array_size(rr);
    t->rerolls = cb_arena_alloc(r->d->arena, (size_t)t->nrerolls, sizeof *t->rerolls);
    if (!t->rerolls) return cb_jr_oom(r);
    for (int k = 0; k < t->nrerolls; k++)
      if (read_int3(r, json_array_get(rr, (size_t)k), where, "rerolled", 1, 6, t->rerolls[k])) return r->st;
  }
  return r->st;
}

static cb_status read_proc(cb_json_reader *r, json_t *o) {
  const char *w = "procedure";
  cb_arena *A = r->d->arena;
  cb_cards_proc *p = cb_arena_alloc(A, 1, sizeof *p);
  if (!p) return cb_jr_oom(r);
  r->d->procedure = p;
  r->d->marks_rooms = true;
  for (int i = 0; i < r->d->nrooms; i++) {
    const cb_room *room = &r->d->rooms[i];
    char where[64];
    snprintf(where, sizeof where, "rooms[%d]", i);
    if (!room->card || !valid_card(room->card))
      return cb_jr_fail(r, where, "card '%s': expected a rank (A 2..10 J Q K) and a suit (S H D C), or JK",
                        room->card ? room->card : "");
    if (room->value != card_rank(room->card))
      return cb_jr_fail(r, where, "value %d is not the rank of %s", room->value, room->card);
  }
  json_t *grid = cb_jr_field(r, o, w, "grid", JSON_OBJECT, 1);
  if (!grid) return r->st;
  p->w = cb_jr_int(r, grid, "procedure.grid", "w", 1, MAX_SIDE, 1, 1);
  p->h = cb_jr_int(r, grid, "procedure.grid", "h", 1, MAX_SIDE, 1, 1);
  json_t *mask = cb_jr_array(r, grid, "procedure.grid", "mask", MAX_SIDE, 1);
  if (r->st) return r->st;
  if ((int)json_array_size(mask) != p->h) return cb_jr_fail(r, "procedure.grid", "'mask' must hold h rows");
  p->mask = cb_arena_alloc(A, (size_t)p->h, sizeof *p->mask);
  if (!p->mask) return cb_jr_oom(r);
  for (int i = 0; i < p->h; i++) {
    const char *row = json_string_value(json_array_get(mask, (size_t)i));
    if (!row || (int)strlen(row) != p->w || strspn(row, "#.") != strlen(row))
      return cb_jr_fail(r, "procedure.grid", "mask[%d] must be w characters of '#' and '.'", i);
    if (!(p->mask[i] = cb_arena_strdup(A, row))) return cb_jr_oom(r);
  }
  p->cell_ft = cb_jr_num(r, o, w, "cell_ft", 1, 10000, 0, 30);
  p->deals = cb_jr_int(r, o, w, "deals", 1, 1000000, 0, 1);
  json_t *ent = cb_jr_field(r, o, w, "entrance", JSON_OBJECT, 1);
  if (r->st) return r->st;
  p->entrance_col = cb_jr_int(r, ent, "procedure.entrance", "col", 1, p->w, 1, 1);
  p->entrance_row = cb_jr_int(r, ent, "procedure.entrance", "row", 1, p->h, 1, 1);
  json_t *cells = cb_jr_array(r, o, w, "cells", CB_JSON_MAX_ITEMS, 1);
  if (!cells) return r->st;
  size_t n = json_array_size(cells), i;
  json_t *v;
  p->cells = cb_arena_alloc(A, n + 1, sizeof *p->cells);
  if (!p->cells) return cb_jr_oom(r);
  json_array_foreach(cells, i, v) {
    char where[64];
    snprintf(where, sizeof where, "procedure.cells[%zu]", i);
    if (!json_is_object(v)) return cb_jr_fail(r, where, "must be an object");
    cb_card_cell *c = &p->cells[i];
    c->col = cb_jr_int(r, v, where, "col", 1, p->w, 1, 1);
    c->row = cb_jr_int(r, v, where, "row", 1, p->h, 1, 1);
    c->level = cb_jr_int(r, v, where, "level", 1, 1000000, 0, 1);
    c->room = cb_jr_int(r, v, where, "room", 0, 1000000000, 0, 0);
    c->card = cb_jr_str(r, v, where, "card", 8, 1);
    if (r->st) return r->st;
    if (!valid_card(c->card))
      return cb_jr_fail(r, where, "card '%s': expected a rank (A 2..10 J Q K) and a suit (S H D C), or JK",
                        c->card);
    if (!room_ok(r, c->room)) return cb_jr_fail(r, where, "'room' names no room");
  }
  p->ncells = (int)n;
  json_t *turns = cb_jr_array(r, o, w, "turns", CB_JSON_MAX_ITEMS, 1);
  if (!turns) return r->st;
  n = json_array_size(turns);
  p->turns = cb_arena_alloc(A, n + 1, sizeof *p->turns);
  if (!p->turns) return cb_jr_oom(r);
  json_array_foreach(turns, i, v) {
    char where[64];
    snprintf(where, sizeof where, "procedure.turns[%zu]", i);
    if (read_turn(r, v, where, &p->turns[i])) return r->st;
  }
  p->nturns = (int)n;
  json_t *stairs = cb_jr_array(r, o, w, "stairs", CB_JSON_MAX_ITEMS, 0);
  if (r->st) return r->st;
  n = json_array_size(stairs);
  p->stairs = cb_arena_alloc(A, n + 1, sizeof *p->stairs);
  if (!p->stairs) return cb_jr_oom(r);
  json_array_foreach(stairs, i, v) {
    char where[64];
    snprintf(where, sizeof where, "procedure.stairs[%zu]", i);
    if (!json_is_object(v)) return cb_jr_fail(r, where, "must be an object");
    p->stairs[i].from = cb_jr_int(r, v, where, "from", 1, 1000000000, 1, 1);
    p->stairs[i].to = cb_jr_int(r, v, where, "to", 1, 1000000000, 1, 1);
    if (r->st) return r->st;
    if (!cb_dungeon_room(r->d, p->stairs[i].from) || !cb_dungeon_room(r->d, p->stairs[i].to))
      return cb_jr_fail(r, where, "names no room");
  }
  p->nstairs = (int)n;
  return r->st;
}

const cb_proc_io cb_proc_io_cards = {
    .generator = "cards",
    .write = write_proc,
    .read = read_proc,
};
