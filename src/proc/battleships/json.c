/* battleships' procedure in JSON: grid (n), grids (rows of marks), ships,
 * stairs. Reading checks the grids against the spec's rules and against the
 * dungeon's rooms and passages, so a hand-edited file cannot disagree with
 * its own grids. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

#include "io/json_fields.h"
#include "proc.h"

/* The bounds the tables number: the levels, the grid's n (vars). */
enum { LEVELS = 1, N = 2 };

/* The grid's size, n x n. */
static const cb_json_field size_field[] = {
    CB_JF_INT_OF(cb_battleships_proc, n, "grid", 2, 100, CB_JF_REQUIRED, 10)};

/* A grid as JSON: its level and its n rows of marks. */
typedef struct grid_rec {
  cb_bs_grid grid;
  int nrows;
} grid_rec;

static cb_status check_grid(cb_json_reader *r, json_t *entry, const char *where, void *item, void *ctx);
static const cb_json_field grid_fields[] = {
    /* any whole number here: check_grid names the one level it must be */
    CB_JF_INT_OF(grid_rec, grid.level, "level", INT_MIN, INT_MAX, CB_JF_REQUIRED, 1),
    CB_JF_MARKS_OF(grid_rec, grid.rows, nrows, "rows", "row", "column", N, ". # R W G X +"),
};
static const cb_json_list grids = {"grids", 1000, 1, grid_fields, 2, sizeof(grid_rec), check_grid};

static cb_status check_ship(cb_json_reader *r, json_t *entry, const char *where, void *item, void *ctx);
static const cb_json_field ship_fields[] = {
    CB_JF_VAR_OF(cb_bs_ship, level, "level", 1, LEVELS, CB_JF_REQUIRED, 1),
    CB_JF_PAIRS_OF(cb_bs_ship, cells, ncells, "cells", "row", "column", 1, N, 1, N, N, CB_JF_REQUIRED),
};
static const cb_json_list ships = {"ships", CB_JSON_MAX_ITEMS,  1,         ship_fields,
                                   2,       sizeof(cb_bs_ship), check_ship};

static cb_status check_stairs(cb_json_reader *r, json_t *entry, const char *where, void *item, void *ctx);
static const cb_json_field stairs_fields[] = {
    CB_JF_PAIR_OF(cb_bs_stairs, from_level, from_room, "from", "level", "room", 1, LEVELS, 1, N,
                  CB_JF_REQUIRED),
    CB_JF_PAIR_OF(cb_bs_stairs, to_level, to_room, "to", "level", "room", 1, LEVELS, 1, N, CB_JF_REQUIRED),
};
static const cb_json_list stairs = {"stairs", CB_JSON_MAX_ITEMS,    1,           stairs_fields,
                                    2,        sizeof(cb_bs_stairs), check_stairs};

/* ---- writing ---- */

static void write_grids(cb_jw *w, const cb_battleships_proc *p) {
  grid_rec *all = cb_calloc((size_t)p->ngrids + 1, sizeof *all);
  if (!all) {
    cb_jw_value(w, NULL); /* out of memory */
    return;
  }
  for (int g = 0; g < p->ngrids; g++)
    all[g] = (grid_rec){p->grids[g], p->n};
  cb_jw_list(w, &grids, all, p->ngrids);
  free(all);
}

static void write_proc(cb_jw *w, const cb_dungeon *d) {
  const cb_battleships_proc *p = cb_battleships_of(d);
  cb_jw_raw(w, "{", 1);
  if (p) { /* a hand-made dungeon has no procedure */
    cb_jw_fields(w, size_field, 1, p, 1);
    cb_jw_key(w, "grids", 0), write_grids(w, p);
    cb_jw_key(w, "ships", 0), cb_jw_list(w, &ships, p->ships, p->nships);
    cb_jw_key(w, "stairs", 0), cb_jw_list(w, &stairs, p->stairs, p->nstairs);
  }
  cb_jw_raw(w, "}", 1);
}

/* ---- reading ---- */

/* Grid i is level i + 1's; a red peg or an X only on the diagonal, and
 * 1;1 free or a ship's (ctx: the grids read so far, counted). */
static cb_status check_grid(cb_json_reader *r, json_t *entry, const char *where, void *item, void *ctx) {
  (void)entry;
  const cb_bs_grid *g = item;
  int i = ++*(int *)ctx, n = ((const grid_rec *)item)->nrows;
  if (g->level != i) return cb_jr_fail(r, where, "'level' is %d; it must be %d to %d", g->level, i, i);
  for (int row = 0; row < n; row++)
    for (int c = 0; c < n; c++) {
      char m = g->rows[row][c];
      if (row == c && row > 0 && m != CB_BS_RED && m != CB_BS_STAIRS && m != CB_BS_SHIP)
        return cb_jr_fail(r, where, "%d;%d is on the diagonal: only R, X or # go there", row + 1, c + 1);
      if (row == 0 && c == 0 && m != CB_BS_FREE && m != CB_BS_SHIP)
        return cb_jr_fail(r, where, "1;1 takes no peg");
      if (row != c && (m == CB_BS_RED || m == CB_BS_STAIRS))
        return cb_jr_fail(r, where, "%d;%d: red pegs and stairs are on the diagonal only", row + 1, c + 1);
    }
  return CB_OK;
}

/* One grid for each level, in level order. */
static cb_status read_grids(cb_json_reader *r, json_t *o, const long *vars, cb_battleships_proc *p) {
  json_t *all = cb_jr_array(r, o, "procedure", "grids", 1000, 1);
  if (!all) return r->st;
  if ((int)json_array_size(all) != r->d->nlevels)
    return cb_jr_fail(r, "procedure.grids", "holds %zu grids for %d levels", json_array_size(all),
                      r->d->nlevels);
  int read = 0;
  grid_rec *recs = cb_jr_list(r, o, "procedure", &grids, vars, &read, &p->ngrids);
  if (r->st) return r->st;
  if (!(p->grids = cb_arena_alloc(r->d->arena, (size_t)p->ngrids + 1, sizeof *p->grids))) return cb_jr_oom(r);
  for (int g = 0; g < p->ngrids; g++)
    p->grids[g] = recs[g].grid;
  return CB_OK;
}

/* The cells run in a line, bow to stern, each a '#' on its level's grid (ctx: the procedure). */
static cb_status check_ship(cb_json_reader *r, json_t *entry, const char *where, void *item, void *ctx) {
  (void)entry;
  const cb_bs_ship *sh = item;
  const cb_battleships_proc *p = ctx;
  if (sh->ncells < 1) return cb_jr_fail(r, where, "a ship needs at least one cell");
  int want_down = sh->ncells > 1 && sh->cells[1][0] != sh->cells[0][0];
  for (int k = 0; k < sh->ncells; k++) {
    if (k > 0) {
      int dr = sh->cells[k][0] - sh->cells[k - 1][0], dc = sh->cells[k][1] - sh->cells[k - 1][1];
      if (!(want_down ? dr == 1 && dc == 0 : dr == 0 && dc == 1))
        return cb_jr_fail(r, where, "the cells must run in a line, across or down");
    }
    if (p->grids[sh->level - 1].rows[sh->cells[k][0] - 1][sh->cells[k][1] - 1] != CB_BS_SHIP)
      return cb_jr_fail(r, where, "cell %d;%d is not a ship cell ('#') on its grid", sh->cells[k][0],
                        sh->cells[k][1]);
  }
  return CB_OK;
}

/* Every '#' belongs to exactly one ship. */
static cb_status every_mark_shipped(cb_json_reader *r, const cb_battleships_proc *p) {
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

/* Stairs join a level to the next one down, an X at each end (ctx: the procedure). */
static cb_status check_stairs(cb_json_reader *r, json_t *entry, const char *where, void *item, void *ctx) {
  (void)entry;
  const cb_bs_stairs *s = item;
  const cb_battleships_proc *p = ctx;
  if (s->to_level != s->from_level + 1)
    return cb_jr_fail(r, where, "stairs join a level to the next one down");
  if (p->grids[s->from_level - 1].rows[s->from_room - 1][s->from_room - 1] != CB_BS_STAIRS ||
      p->grids[s->to_level - 1].rows[s->to_room - 1][s->to_room - 1] != CB_BS_STAIRS)
    return cb_jr_fail(r, where, "both ends must be an X on their grids");
  return CB_OK;
}

/* Each X on the grids is one end of one stairs. */
static cb_status every_x_climbed(cb_json_reader *r, const cb_battleships_proc *p) {
  long xs = 0;
  for (int g = 0; g < p->ngrids; g++)
    for (int k = 0; k < p->n; k++)
      xs += p->grids[g].rows[k][k] == CB_BS_STAIRS;
  if (xs != 2 * (long)p->nstairs)
    return cb_jr_fail(r, "procedure.stairs", "the grids hold %ld X marks for %d stairs (each needs two)", xs,
                      p->nstairs);
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
  if (cb_jr_fields(r, o, "procedure", size_field, 1, NULL, p)) return r->st;
  const long vars[] = {[LEVELS - 1] = r->d->nlevels, [N - 1] = p->n};
  if (read_grids(r, o, vars, p)) return r->st;
  p->ships = cb_jr_list(r, o, "procedure", &ships, vars, p, &p->nships);
  if (r->st || every_mark_shipped(r, p)) return r->st;
  p->stairs = cb_jr_list(r, o, "procedure", &stairs, vars, p, &p->nstairs);
  if (r->st || every_x_climbed(r, p)) return r->st;
  return check_dungeon(r, p);
}

const cb_proc_io cb_proc_io_battleships = {
    .generator = "battleships",
    .write = write_proc,
    .read = read_proc,
};
