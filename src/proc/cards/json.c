/* cards' procedure in JSON (model.md): grid {w, h, mask}, cell_ft, cells,
 * entrance, turns (dice and per-die results, plus obstacles, lengths and
 * re-rolled dice), stairs and deals. */
#include <stdio.h>
#include <string.h>

#include "io/json_fields.h"
#include "proc.h"

enum { MAX_SIDE = 4096 };
enum { W = 1, H }; /* the bounds cells and the entrance take from the grid: vars[W - 1], vars[H - 1] */

static const cb_json_field grid_fields[] = {
    CB_JF_INT_OF(cb_cards_proc, w, "w", 1, MAX_SIDE, CB_JF_REQUIRED, 1),
    CB_JF_INT_OF(cb_cards_proc, h, "h", 1, MAX_SIDE, CB_JF_REQUIRED, 1),
};
static const cb_json_field entrance_fields[] = {
    CB_JF_VAR_OF(cb_cards_proc, entrance_col, "col", 1, W, CB_JF_REQUIRED, 1),
    CB_JF_VAR_OF(cb_cards_proc, entrance_row, "row", 1, H, CB_JF_REQUIRED, 1),
};
static const cb_json_field cell_fields[] = {
    CB_JF_VAR_OF(cb_card_cell, col, "col", 1, W, CB_JF_REQUIRED, 1),
    CB_JF_VAR_OF(cb_card_cell, row, "row", 1, H, CB_JF_REQUIRED, 1),
    CB_JF_STR_OF(cb_card_cell, card, "card", 8, CB_JF_REQUIRED),
    CB_JF_INT_OF(cb_card_cell, level, "level", 1, 1000000, 0, 1),
    CB_JF_INT_OF(cb_card_cell, room, "room", 0, 1000000000, 0, 0),
};
/* a turn's first fields; its dice and what they made follow */
static const cb_json_field turn_fields[] = {
    CB_JF_INT_OF(cb_card_turn, room, "room", 1, 1000000000, CB_JF_REQUIRED, 1),
    CB_JF_INT_OF(cb_card_turn, level, "level", 1, 1000000, 0, 1),
    CB_JF_INT_OF(cb_card_turn, col, "col", 1, MAX_SIDE, CB_JF_REQUIRED, 1),
    CB_JF_INT_OF(cb_card_turn, row, "row", 1, MAX_SIDE, CB_JF_REQUIRED, 1),
};
static const cb_json_field stairs_fields[] = {
    CB_JF_INT_OF(cb_card_stairs, from, "from", 1, 1000000000, CB_JF_REQUIRED, 1),
    CB_JF_INT_OF(cb_card_stairs, to, "to", 1, 1000000000, CB_JF_REQUIRED, 1),
};
static cb_status check_cell(cb_json_reader *r, json_t *entry, const char *where, void *item, void *ctx);
static cb_status read_turn(cb_json_reader *r, json_t *entry, const char *where, void *item, void *ctx);
static cb_status check_stairs(cb_json_reader *r, json_t *entry, const char *where, void *item, void *ctx);
static const cb_json_list cells = {"cells", CB_JSON_MAX_ITEMS,    1,         cell_fields,
                                   5,       sizeof(cb_card_cell), check_cell};
static const cb_json_list turns = {"turns", CB_JSON_MAX_ITEMS,    1,        turn_fields,
                                   4,       sizeof(cb_card_turn), read_turn};
static const cb_json_list stairs = {"stairs", CB_JSON_MAX_ITEMS,      0,           stairs_fields,
                                    2,        sizeof(cb_card_stairs), check_stairs};

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
  cb_jw_fields(w, grid_fields, 2, p, 1);
  cb_jw_key(w, "mask", 0), cb_jw_raw(w, "[", 1);
  for (int r = 0; r < p->h; r++)
    cb_jw_next(w, r), cb_jw_str(w, p->mask[r]);
  cb_jw_put(w, "]}");
  cb_jw_key(w, "cell_ft", 0), cb_jw_real(w, p->cell_ft);
  cb_jw_key(w, "cells", 0), cb_jw_list(w, &cells, p->cells, p->ncells);
  cb_jw_key(w, "entrance", 0), cb_jw_raw(w, "{", 1);
  cb_jw_fields(w, entrance_fields, 2, p, 1);
  cb_jw_raw(w, "}", 1);
  cb_jw_key(w, "turns", 0), cb_jw_raw(w, "[", 1);
  for (int i = 0; i < p->nturns; i++) {
    const cb_card_turn *t = &p->turns[i];
    cb_jw_next(w, i), cb_jw_raw(w, "{", 1);
    cb_jw_fields(w, turn_fields, 4, t, 1);
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
  cb_jw_key(w, "stairs", 0), cb_jw_list(w, &stairs, p->stairs, p->nstairs);
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

static cb_status check_cell(cb_json_reader *r, json_t *entry, const char *where, void *item, void *ctx) {
  (void)entry, (void)ctx;
  const cb_card_cell *c = item;
  if (!valid_card(c->card))
    return cb_jr_fail(r, where, "card '%s': expected a rank (A 2..10 J Q K) and a suit (S H D C), or JK",
                      c->card);
  return room_ok(r, c->room) ? CB_OK : cb_jr_fail(r, where, "'room' names no room");
}

static cb_status check_stairs(cb_json_reader *r, json_t *entry, const char *where, void *item, void *ctx) {
  (void)entry, (void)ctx;
  const cb_card_stairs *st = item;
  if (!cb_dungeon_room(r->d, st->from) || !cb_dungeon_room(r->d, st->to))
    return cb_jr_fail(r, where, "names no room");
  return CB_OK;
}

/* The rest of a turn, once turn_fields are read: its dice and what they made. */
static cb_status read_turn(cb_json_reader *r, json_t *v, const char *where, void *item, void *ctx) {
  (void)ctx;
  cb_card_turn *t = item;
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
  json_t *mask = NULL;
  if (!cb_jr_fields(r, grid, "procedure.grid", grid_fields, 2, NULL, p))
    mask = cb_jr_array(r, grid, "procedure.grid", "mask", MAX_SIDE, 1);
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
  const long vars[] = {[W - 1] = p->w, [H - 1] = p->h};
  if (r->st || cb_jr_fields(r, ent, "procedure.entrance", entrance_fields, 2, vars, p)) return r->st;
  if (!(p->cells = cb_jr_list(r, o, w, &cells, vars, NULL, &p->ncells))) return r->st;
  if (!(p->turns = cb_jr_list(r, o, w, &turns, NULL, NULL, &p->nturns))) return r->st;
  p->stairs = cb_jr_list(r, o, w, &stairs, NULL, NULL, &p->nstairs);
  return r->st;
}

const cb_proc_io cb_proc_io_cards = {
    .generator = "cards",
    .write = write_proc,
    .read = read_proc,
};
