/* battleships' procedure in JSON: grid (n), grids (rows of marks), ships,
 * stairs. Reading checks the grids against the spec's rules and against the
 * dungeon's rooms and passages, so a hand-edited file cannot disagree with
 * its own grids. */
#include <string.h>

#include "io/json_util.h"
#include "proc.h"

static json_t *build_proc(const cb_dungeon *d) {
  const cb_battleships_proc *p = cb_battleships_of(d);
  if (!p) return json_object(); /* a hand-made dungeon has no procedure */
  json_t *o = json_object(), *grids = json_array(), *ships = json_array(), *stairs = json_array();
  if (!o || !grids || !ships || !stairs) {
    json_decref(o);
    json_decref(grids);
    json_decref(ships);
    json_decref(stairs);
    return NULL;
  }
  json_object_set_new(o, "grid", json_integer(p->n));
  for (int g = 0; g < p->ngrids; g++) {
    json_t *rows = json_array();
    for (int r = 0; rows && r < p->n; r++)
      json_array_append_new(rows, json_string(p->grids[g].rows[r]));
    json_array_append_new(grids, json_pack("{s:i,s:o}", "level", p->grids[g].level, "rows", rows));
  }
  json_object_set_new(o, "grids", grids);
  for (int i = 0; i < p->nships; i++) {
    json_t *cells = json_array();
    for (int k = 0; cells && k < p->ships[i].ncells; k++)
      json_array_append_new(cells, json_pack("[i,i]", p->ships[i].cells[k][0], p->ships[i].cells[k][1]));
    json_array_append_new(ships, json_pack("{s:i,s:o}", "level", p->ships[i].level, "cells", cells));
  }
  json_object_set_new(o, "ships", ships);
  for (int i = 0; i < p->nstairs; i++) {
    const cb_bs_stairs *s = &p->stairs[i];
    json_array_append_new(stairs, json_pack("{s:[i,i],s:[i,i]}", "from", s->from_level, s->from_room, "to",
                                            s->to_level, s->to_room));
  }
  json_object_set_new(o, "stairs", stairs);
  return o;
}

/* [level, room] with both in range. */
static int level_room(cb_json_reader *r, json_t *v, const char *where, const char *key, int nlevels, int n,
                      int out[2]) {
  json_t *a = cb_jr_field(r, v, where, key, JSON_ARRAY, 1);
  if (!a) return -1;
  json_t *l = json_array_get(a, 0), *k = json_array_get(a, 1);
  if (json_array_size(a) != 2 || !json_is_integer(l) || !json_is_integer(k) || json_integer_value(l) < 1 ||
      json_integer_value(l) > nlevels || json_integer_value(k) < 1 || json_integer_value(k) > n) {
    cb_jr_fail(r, where, "'%s' must be [level, room] with a level 1 to %d and a room 1 to %d", key, nlevels,
               n);
    return -1;
  }
  out[0] = (int)json_integer_value(l);
  out[1] = (int)json_integer_value(k);
  return 0;
}

static cb_status read_grids(cb_json_reader *r, json_t *o, cb_battleships_proc *p) {
  cb_dungeon *d = r->d;
  json_t *grids = cb_jr_array(r, o, "procedure", "grids", 1000, 1);
  if (!grids) return r->st;
  if ((int)json_array_size(grids) != d->nlevels)
    return cb_jr_fail(r, "procedure.grids", "holds %zu grids for %d levels", json_array_size(grids),
                      d->nlevels);
  p->ngrids = d->nlevels;
  p->grids = cb_arena_alloc(d->arena, (size_t)p->ngrids, sizeof *p->grids);
  if (!p->grids) return cb_jr_oom(r);
  size_t i;
  json_t *v;
  json_array_foreach(grids, i, v) {
    char where[64];
    snprintf(where, sizeof where, "procedure.grids[%zu]", i);
    if (!json_is_object(v)) return cb_jr_fail(r, where, "must be an object");
    p->grids[i].level = cb_jr_int(r, v, where, "level", (long)i + 1, (long)i + 1, 1, 1);
    json_t *rows = cb_jr_array(r, v, where, "rows", (size_t)p->n, 1);
    if (r->st) return r->st;
    if ((int)json_array_size(rows) != p->n) return cb_jr_fail(r, where, "'rows' must hold %d rows", p->n);
    p->grids[i].rows = cb_arena_alloc(d->arena, (size_t)p->n, sizeof *p->grids[i].rows);
    if (!p->grids[i].rows) return cb_jr_oom(r);
    for (int row = 0; row < p->n; row++) {
      json_t *s = json_array_get(rows, (size_t)row);
      const char *t = json_is_string(s) ? json_string_value(s) : NULL;
      if (!t || json_string_length(s) != (size_t)p->n || strlen(t) != (size_t)p->n)
        return cb_jr_fail(r, where, "row %d must be a string of %d marks", row + 1, p->n);
      for (int c = 0; c < p->n; c++) {
        char m = t[c];
        if (!strchr(".#RWGX+", m) || m == '\0')
          return cb_jr_fail(r, where, "row %d, column %d: '%c' is not one of . # R W G X +", row + 1, c + 1,
                            m);
        if (row == c && row > 0 && m != CB_BS_RED && m != CB_BS_STAIRS && m != CB_BS_SHIP)
          return cb_jr_fail(r, where, "%d;%d is on the diagonal: only R, X or # go there", row + 1, c + 1);
        if (row == 0 && c == 0 && m != CB_BS_FREE && m != CB_BS_SHIP)
          return cb_jr_fail(r, where, "1;1 takes no peg");
        if (row != c && (m == CB_BS_RED || m == CB_BS_STAIRS))
          return cb_jr_fail(r, where, "%d;%d: red pegs and stairs are on the diagonal only", row + 1, c + 1);
      }
      p->grids[i].rows[row] = cb_arena_strdup(d->arena, t);
      if (!p->grids[i].rows[row]) return cb_jr_oom(r);
    }
  }
  return r->st;
}

static cb_status read_ships(cb_json_reader *r, json_t *o, cb_battleships_proc *p) {
  cb_dungeon *d = r->d;
  json_t *ships = cb_jr_array(r, o, "procedure", "ships", CB_JSON_MAX_ITEMS, 1);
  if (!ships) return r->st;
  size_t i, nships = json_array_size(ships);
  p->ships = cb_arena_alloc(d->arena, nships + 1, sizeof *p->ships);
  if (!p->ships) return cb_jr_oom(r);
  json_t *v;
  json_array_foreach(ships, i, v) {
    char where[64];
    snprintf(where, sizeof where, "procedure.ships[%zu]", i);
    if (!json_is_object(v)) return cb_jr_fail(r, where, "must be an object");
    cb_bs_ship *sh = &p->ships[i];
    sh->level = cb_jr_int(r, v, where, "level", 1, d->nlevels, 1, 1);
    json_t *cells = cb_jr_array(r, v, where, "cells", (size_t)p->n, 1);
    if (r->st) return r->st;
    sh->ncells = (int)json_array_size(cells);
    if (sh->ncells < 1) return cb_jr_fail(r, where, "a ship needs at least one cell");
    sh->cells = cb_arena_alloc(d->arena, (size_t)sh->ncells, sizeof *sh->cells);
    if (!sh->cells) return cb_jr_oom(r);
    for (int k = 0; k < sh->ncells; k++) {
      json_t *c = json_array_get(cells, (size_t)k), *a = json_array_get(c, 0), *b = json_array_get(c, 1);
      if (json_array_size(c) != 2 || !json_is_integer(a) || !json_is_integer(b) ||
          json_integer_value(a) < 1 || json_integer_value(a) > p->n || json_integer_value(b) < 1 ||
          json_integer_value(b) > p->n)
        return cb_jr_fail(r, where, "cell %d must be [row, column] within the %d x %d grid", k + 1, p->n,
                          p->n);
      sh->cells[k][0] = (int)json_integer_value(a);
      sh->cells[k][1] = (int)json_integer_value(b);
      if (k > 0) {
        int dr = sh->cells[k][0] - sh->cells[k - 1][0], dc = sh->cells[k][1] - sh->cells[k - 1][1];
        int across = dr == 0 && dc == 1, down = dr == 1 && dc == 0;
        int want_down = sh->ncells > 1 && sh->cells[1][0] != sh->cells[0][0];
        if (!(want_down ? down : across))
          return cb_jr_fail(r, where, "the cells must run in a line, across or down");
      }
      const char *row = p->grids[sh->level - 1].rows[sh->cells[k][0] - 1];
      if (row[sh->cells[k][1] - 1] != CB_BS_SHIP)
        return cb_jr_fail(r, where, "cell %d;%d is not a ship cell ('#') on its grid", sh->cells[k][0],
                          sh->cells[k][1]);
    }
  }
  p->nships = (int)nships;
  /* every '#' belongs to exactly one ship */
  for (int g = 0; g < p->ngrids; g++) {
    long marks = 0, cells = 0;
    for (int row = 0; row < p->n; row++)
      for (int c = 0; c < p->n; c++)
        marks += p->grids[g].rows[row][c] == CB_BS_SHIP;
    for (int s = 0; s < p->nships; s++)
      if (p->ships[s].level == g + 1) cells += p->ships[s].ncells;
    if (marks != cells)
      return cb_jr_fail(r, "procedure.ships", "level %d's grid has %ld ship cells but its ships hold %ld",
                        g + 1, marks, cells);
  }
  return r->st;
}

static cb_status read_stairs(cb_json_reader *r, json_t *o, cb_battleships_proc *p) {
  cb_dungeon *d = r->d;
  json_t *stairs = cb_jr_array(r, o, "procedure", "stairs", CB_JSON_MAX_ITEMS, 1);
  if (!stairs) return r->st;
  size_t i, ns = json_array_size(stairs);
  p->stairs = cb_arena_alloc(d->arena, ns + 1, sizeof *p->stairs);
  if (!p->stairs) return cb_jr_oom(r);
  json_t *v;
  long xs = 0;
  json_array_foreach(stairs, i, v) {
    char where[64];
    snprintf(where, sizeof where, "procedure.stairs[%zu]", i);
    if (!json_is_object(v)) return cb_jr_fail(r, where, "must be an object");
    int a[2], b[2];
    if (level_room(r, v, where, "from", d->nlevels, p->n, a) ||
        level_room(r, v, where, "to", d->nlevels, p->n, b))
      return r->st;
    if (b[0] != a[0] + 1) return cb_jr_fail(r, where, "stairs join a level to the next one down");
    if (p->grids[a[0] - 1].rows[a[1] - 1][a[1] - 1] != CB_BS_STAIRS ||
        p->grids[b[0] - 1].rows[b[1] - 1][b[1] - 1] != CB_BS_STAIRS)
      return cb_jr_fail(r, where, "both ends must be an X on their grids");
    p->stairs[i] = (cb_bs_stairs){a[0], a[1], b[0], b[1]};
  }
  p->nstairs = (int)ns;
  for (int g = 0; g < p->ngrids; g++)
    for (int k = 0; k < p->n; k++)
      xs += p->grids[g].rows[k][k] == CB_BS_STAIRS;
  if (xs != 2 * (long)ns)
    return cb_jr_fail(r, "procedure.stairs", "the grids hold %ld X marks for %zu stairs (each needs two)", xs,
                      ns);
  return r->st;
}

/* Rooms are level by level, n to a level; the passages are exactly the pegs
 * read both ways, then the stairs. */
static cb_status check_dungeon(cb_json_reader *r, const cb_battleships_proc *p) {
  const cb_dungeon *d = r->d;
  int n = p->n;
  if ((long)d->nrooms != (long)d->nlevels * n)
    return cb_jr_fail(r, "procedure", "%d rooms, but %d levels of %d x %d grids make %d", d->nrooms,
                      d->nlevels, n, n, d->nlevels * n);
  for (int g = 0; g < d->nlevels; g++)
    if (d->levels[g].id != g + 1)
      return cb_jr_fail(r, "levels", "battleships levels are numbered 1, 2, 3, ...");
  for (int i = 0; i < d->nrooms; i++) {
    const cb_room *room = &d->rooms[i];
    /* numbered across the levels, or (files written before) within each */
    if (room->level != d->levels[i / n].id || (room->number != room->id && room->number != i % n + 1))
      return cb_jr_fail(r, "procedure", "room %d should be room %d of level %d", room->id, i % n + 1,
                        d->levels[i / n].id);
  }
  int next = 0;
  for (int g = 0; g < p->ngrids; g++)
    for (int a = 0; a < n; a++)
      for (int b = a + 1; b < n; b++) {
        if (!cb_bs_is_peg(p->grids[g].rows[a][b]) && !cb_bs_is_peg(p->grids[g].rows[b][a])) continue;
        const cb_passage *ps = next < d->npassages ? &d->passages[next] : NULL;
        int ida = d->rooms[g * n + a].id, idb = d->rooms[g * n + b].id;
        if (!ps || ps->kind == CB_PASSAGE_STAIRS ||
            !((ps->from == ida && ps->to == idb) || (ps->from == idb && ps->to == ida)))
          return cb_jr_fail(r, "passages",
                            "passage %d should join rooms %d and %d of level %d, as the pegs at %d;%d "
                            "and %d;%d say",
                            next + 1, a + 1, b + 1, g + 1, a + 1, b + 1, b + 1, a + 1);
        next++;
      }
  for (int s = 0; s < p->nstairs; s++, next++) {
    const cb_bs_stairs *st = &p->stairs[s];
    const cb_passage *ps = next < d->npassages ? &d->passages[next] : NULL;
    int ida = d->rooms[(st->from_level - 1) * n + st->from_room - 1].id,
        idb = d->rooms[(st->to_level - 1) * n + st->to_room - 1].id;
    if (!ps || ps->kind != CB_PASSAGE_STAIRS || ps->from != ida || ps->to != idb)
      return cb_jr_fail(r, "passages", "passage %d should be the stairs from room %d to room %d", next + 1,
                        ida, idb);
  }
  if (next != d->npassages)
    return cb_jr_fail(r, "passages", "%d passages, but the grids' pegs and stairs make %d", d->npassages,
                      next);
  return r->st;
}

static cb_status read_proc(cb_json_reader *r, json_t *o) {
  cb_battleships_proc *p = cb_arena_alloc(r->d->arena, 1, sizeof *p);
  if (!p) return cb_jr_oom(r);
  r->d->procedure = p;
  p->n = cb_jr_int(r, o, "procedure", "grid", 2, 100, 1, 10);
  if (r->st) return r->st;
  if (read_grids(r, o, p) || read_ships(r, o, p) || read_stairs(r, o, p)) return r->st;
  return check_dungeon(r, p);
}

static void write_proc(cb_jw *w, const cb_dungeon *d) { cb_jw_value(w, build_proc(d)); }

const cb_proc_io cb_proc_io_battleships = {
    .generator = "battleships",
    .write = write_proc,
    .read = read_proc,
};
