/* battleships: the BattleDungeon grid-crawl (seed 003, generators.md).
 * Each level is an N x N Battleships grid read as an adjacency matrix: a
 * white peg in row r, column c (r != c) is a passage between rooms r and c
 * of that level. Ships only stir chaos into where the pegs can go; red pegs
 * fill the diagonal; a removed red peg (k,k) is stairs to the next level.
 *
 * Encoding of the working grids: bs.cells holds L grids of n x n marks
 * (proc_battleships.h: . # R W G X +), grid l (0-based) row r column c
 * (0-based) at cells[(l * n + r) * n + c]. Room number k is row/column k-1;
 * room ids run level by level: id = l * n + k.
 *
 * The rooms' x/y are only nominal: a ring per level, levels left to right.
 * The booklet places them with the graph layout (layout/graph.c), which
 * generation never calls. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/units.h"
#include "layout.h"
#include "model/bfs.h"
#include "model/rng.h"
#include "proc.h"
#include "proc/proc.h"

enum {
  DEFAULT_GRID = 10,
  MIN_GRID = 2,
  MAX_GRID = 100,
  DEFAULT_LEVELS = 2,
  MAX_LEVELS = 1000,
  DEFAULT_EXTRA = 3,
  MAX_ROOMS = 100000,
  MAX_DEALS = 1000,
  LOGGED_DEALS = 3
};
/* The classic fleet (carrier, battleship, cruiser, submarine, destroyer) on
 * the classic 10 x 10 grid: 17 ship cells in 100. */
static const int CLASSIC_FLEET[] = {5, 4, 3, 3, 2};
static const double SHIP_SHARE = 0.17;
static const double ROOM_RING_FT = 6.0; /* nominal map: rooms on a circle, this far apart per room */

typedef struct bs {
  cb_dungeon *d;
  cb_rng rng;
  const cb_gen_options *o;
  const cb_battleships_options *own;
  int n, nlevels, extra;
  int fleet[CB_MAX_FLEET * 4], nfleet, fleet_cells;
  char *cells;
  int *pick; /* scratch: candidate cells */
  cb_battleships_proc *proc;
  size_t cap_ships, cap_stairs;
} bs;

static char *cell(const bs *s, int l, int r, int c) { return &s->cells[((size_t)l * s->n + r) * s->n + c]; }
static int room_id(const bs *s, int l, int k) { return l * s->n + k + 1; }

/* The fleet for an n x n grid: the given lengths, or the classic lengths
 * scaled by n/10 (rounded, at least 1) repeated ship by ship while the ships
 * cover at most 17% of the grid, as the classic 17 of 100 do (at least one ship). */
static int make_fleet(const cb_battleships_options *o, int n, int *fleet) {
  if (o->nfleet > 0) {
    memcpy(fleet, o->fleet, (size_t)o->nfleet * sizeof *fleet);
    return o->nfleet;
  }
  int budget = (int)lround(SHIP_SHARE * n * n), total = 0, count = 0, nclassic = 5;
  for (int i = 0; count < CB_MAX_FLEET * 4; i++) {
    int len = (int)lround(CLASSIC_FLEET[i % nclassic] * n / 10.0);
    if (len < 1) len = 1;
    if (count > 0 && total + len > budget) break;
    fleet[count++] = len;
    total += len;
  }
  return count;
}

/* How many stairs (removed red pegs) grid l needs. */
static int stairs_needed(const cb_battleships_options *o, int nlevels, int l) {
  int per_link = 1 + o->extra_stairs;
  return (l > 0 ? per_link : 0) + (l < nlevels - 1 ? per_link : 0);
}

static cb_status validate(const cb_gen_options *opts, cb_error *err) {
  const cb_battleships_options *o = cb_battleships_options_of(opts);
  int n = o->grid.w ? o->grid.w : DEFAULT_GRID, L = opts->levels ? opts->levels : DEFAULT_LEVELS;
  if (n < MIN_GRID || n > MAX_GRID)
    return cb_error_set(err, CB_EINPUT, "--grid %d: battleships needs a grid of %d to %d rooms a side", n,
                        MIN_GRID, MAX_GRID);
  if (L < 1 || L > MAX_LEVELS)
    return cb_error_set(err, CB_EINPUT, "--levels %d: battleships makes 1 to %d levels", L, MAX_LEVELS);
  if ((long)L * n > MAX_ROOMS)
    return cb_error_set(err, CB_EINPUT, "--levels %d --grid %d: %ld rooms, more than %d", L, n, (long)L * n,
                        MAX_ROOMS);
  if (o->extra_stairs > 0 && L < 2)
    return cb_error_set(err, CB_EINPUT,
                        "--extra-stairs %d: a single level has no stairs (give --levels 2 or more)",
                        o->extra_stairs);
  if (o->matching_stairs && L < 2)
    return cb_error_set(err, CB_EINPUT,
                        "--matching-stairs: a single level has no stairs (give --levels 2 or more)");
  int need = 0;
  for (int l = 0; l < L && l < 3; l++)
    if (stairs_needed(o, L, l) > need) need = stairs_needed(o, L, l);
  if (need > n - 1)
    return cb_error_set(err, CB_EINPUT,
                        "--extra-stairs %d: a grid needs %d red pegs for its stairs, and a %d x %d "
                        "grid has only %d",
                        o->extra_stairs, need, n, n, n - 1);
  int fleet[CB_MAX_FLEET * 4], nf = make_fleet(o, n, fleet), cells = 0;
  for (int i = 0; i < nf; i++) {
    if (fleet[i] > n)
      return cb_error_set(err, CB_EINPUT, "--fleet: a ship of %d does not fit a %d x %d grid", fleet[i], n,
                          n);
    cells += fleet[i];
  }
  /* every row keeps at least one free cell off the diagonal */
  if (cells > n * (n - 1))
    return cb_error_set(err, CB_EINPUT,
                        "--fleet: %d ship cells do not fit a %d x %d grid and leave every row a "
                        "free cell (at most %d)",
                        cells, n, n, n * (n - 1));
  int extra = o->extra_set ? o->extra : DEFAULT_EXTRA;
  int room_for = n * (n - 1) - cells - n > 0 ? n * (n - 1) - cells - n : 0;
  if (extra < 0 || extra > room_for)
    return cb_error_set(err, CB_EINPUT,
                        "--extra %d%s: a %d x %d grid has %d cells off the diagonal; less %d ship "
                        "cells and a white peg per column that leaves room for at most %d extra pegs",
                        extra, o->extra_set ? "" : " (the default)", n, n, n * (n - 1), cells, room_for);
  return CB_OK;
}

/* The ship at (r, c) going right (dir 0) or down (dir 1) fits on free water. */
static int ship_fits(const bs *s, int l, int r, int c, int dir, int len) {
  if ((dir ? r : c) + len > s->n) return 0;
  for (int i = 0; i < len; i++)
    if (*cell(s, l, dir ? r + i : r, dir ? c : c + i) != CB_BS_FREE) return 0;
  return 1;
}

/* One ship at random: a few throws, then a pick among every place it fits. */
static int drop_ship(bs *s, int l, int len, int *pr, int *pc, int *pdir) {
  for (int t = 0; t < 64; t++) {
    int dir = (int)cb_rng_below(&s->rng, 2), r = (int)cb_rng_below(&s->rng, (uint32_t)s->n),
        c = (int)cb_rng_below(&s->rng, (uint32_t)s->n);
    if (ship_fits(s, l, r, c, dir, len)) {
      *pr = r, *pc = c, *pdir = dir;
      return 1;
    }
  }
  int count = 0;
  for (int dir = 0; dir < 2; dir++)
    for (int r = 0; r < s->n; r++)
      for (int c = 0; c < s->n; c++)
        count += ship_fits(s, l, r, c, dir, len);
  if (count == 0) return 0;
  int k = (int)cb_rng_below(&s->rng, (uint32_t)count);
  for (int dir = 0; dir < 2; dir++)
    for (int r = 0; r < s->n; r++)
      for (int c = 0; c < s->n; c++)
        if (ship_fits(s, l, r, c, dir, len) && k-- == 0) {
          *pr = r, *pc = c, *pdir = dir;
          return 1;
        }
  return 0;
}

/* Why a deal of ships will not do: a row or column without a free cell off
 * the diagonal, or too few diagonal cells left for the stairs' red pegs. */
static int deal_problem(const bs *s, int l, char *why, size_t cap) {
  for (int k = 0; k < s->n; k++) {
    int row_free = 0, col_free = 0;
    for (int j = 0; j < s->n; j++) {
      if (j == k) continue;
      row_free += *cell(s, l, k, j) == CB_BS_FREE;
      col_free += *cell(s, l, j, k) == CB_BS_FREE;
    }
    if (!col_free) return snprintf(why, cap, "column %d has no free cell", k + 1), 1;
    if (!row_free) return snprintf(why, cap, "row %d has no free cell", k + 1), 1;
  }
  int red = 0, need = stairs_needed(s->own, s->nlevels, l);
  for (int k = 1; k < s->n; k++)
    red += *cell(s, l, k, k) == CB_BS_FREE;
  if (red < need)
    return snprintf(why, cap, "the ships cover the diagonal, leaving %d red peg%s for %d stairs", red,
                    red == 1 ? "" : "s", need),
           1;
  return 0;
}

static cb_status add_ship(bs *s, int l, int r, int c, int dir, int len, cb_error *err) {
  cb_battleships_proc *p = s->proc;
  if (cb_arena_grow(s->d->arena, &p->ships, &s->cap_ships, (size_t)p->nships + 1, sizeof *p->ships))
    return cb_error_oom(err);
  cb_bs_ship *sh = &p->ships[p->nships++];
  sh->level = l + 1;
  sh->ncells = len;
  sh->cells = cb_arena_alloc(s->d->arena, (size_t)len, sizeof *sh->cells);
  if (!sh->cells) return cb_error_oom(err);
  for (int i = 0; i < len; i++) {
    sh->cells[i][0] = (dir ? r + i : r) + 1;
    sh->cells[i][1] = (dir ? c : c + i) + 1;
  }
  return CB_OK;
}

/* Step 2: place the fleet at random, across or down, not overlapping; deal
 * again while a row or column has no free cell (or the stairs no red peg). */
static cb_status place_ships(bs *s, int l, cb_error *err) {
  int n = s->n, nships0 = s->proc->nships;
  int rs[CB_MAX_FLEET * 4], cs[CB_MAX_FLEET * 4], ds[CB_MAX_FLEET * 4];
  char why[128];
  for (int deal = 1;; deal++) {
    memset(cell(s, l, 0, 0), CB_BS_FREE, (size_t)n * n);
    int ok = 1;
    for (int i = 0; ok && i < s->nfleet; i++) {
      ok = drop_ship(s, l, s->fleet[i], &rs[i], &cs[i], &ds[i]);
      if (!ok) snprintf(why, sizeof why, "the ship of %d finds no water left", s->fleet[i]);
      for (int j = 0; ok && j < s->fleet[i]; j++)
        *cell(s, l, ds[i] ? rs[i] + j : rs[i], ds[i] ? cs[i] : cs[i] + j) = CB_BS_SHIP;
    }
    if (ok && !deal_problem(s, l, why, sizeof why)) {
      if (deal > 1 + LOGGED_DEALS)
        cb_dungeon_log(s->d,
                       "Level %d: the ships went down %d times before every row and column kept a free cell.",
                       l + 1, deal);
      break;
    }
    if (deal >= MAX_DEALS)
      return cb_error_set(err, CB_EINPUT,
                          "the fleet (%d ships, %d cells) does not fit a %d x %d grid: after %d "
                          "deals %s; use fewer or shorter ships (--fleet) or a larger --grid",
                          s->nfleet, s->fleet_cells, n, n, MAX_DEALS, why);
    if (deal <= LOGGED_DEALS) cb_dungeon_log(s->d, "Level %d: %s, so the ships go down again.", l + 1, why);
  }
  s->proc->nships = nships0;
  char line[512];
  int len = snprintf(line, sizeof line, "Level %d: the fleet goes down:", l + 1);
  for (int i = 0; i < s->nfleet; i++) {
    cb_status st = add_ship(s, l, rs[i], cs[i], ds[i], s->fleet[i], err);
    if (st != CB_OK) return st;
    if (len < (int)sizeof line && i < 12)
      len += snprintf(line + len, sizeof line - (size_t)len, "%s a %d %s from %d;%d", i ? "," : "",
                      s->fleet[i], ds[i] ? "down" : "across", rs[i] + 1, cs[i] + 1);
  }
  if (s->nfleet > 12)
    cb_dungeon_log(s->d, "%s and %d more ships.", line, s->nfleet - 12);
  else
    cb_dungeon_log(s->d, "%s.", line);
  return CB_OK;
}

/* Step 3: red pegs on the diagonal except 1;1: no room joins itself. */
static void place_red_pegs(bs *s, int l) {
  int covered = 0;
  for (int k = 1; k < s->n; k++) {
    if (*cell(s, l, k, k) == CB_BS_FREE)
      *cell(s, l, k, k) = CB_BS_RED;
    else
      covered++;
  }
  if (covered)
    cb_dungeon_log(s->d, "Level %d: red pegs down the diagonal from 2;2 (%d diagonal cell%s under a ship).",
                   l + 1, covered, covered == 1 ? "" : "s");
  else
    cb_dungeon_log(s->d, "Level %d: red pegs down the diagonal from 2;2.", l + 1);
}

/* A random free cell off the diagonal in row r (c < 0) or column c (r < 0);
 * -1 when none. Returns the other index. */
static int free_cell_in_line(bs *s, int l, int r, int c) {
  int count = 0;
  for (int j = 0; j < s->n; j++) {
    int rr = r >= 0 ? r : j, cc = c >= 0 ? c : j;
    if (rr != cc && *cell(s, l, rr, cc) == CB_BS_FREE) s->pick[count++] = j;
  }
  return count ? s->pick[cb_rng_below(&s->rng, (uint32_t)count)] : -1;
}

/* Step 4: a white peg somewhere free in each column. */
static void place_column_pegs(bs *s, int l) {
  for (int c = 0; c < s->n; c++) {
    int r = free_cell_in_line(s, l, -1, c);
    if (r < 0) continue; /* deal_problem rules this out */
    *cell(s, l, r, c) = CB_BS_WHITE;
    if (s->n <= 30)
      cb_dungeon_log(s->d, "Level %d, column %d: a white peg at %d;%d, a passage from room %d to room %d.",
                     l + 1, c + 1, r + 1, c + 1, c + 1, r + 1);
  }
}

/* Step 5: each row still without a white peg gets one (the green dots;
 * secret passages with --secret-rows). */
static void place_row_pegs(bs *s, int l) {
  int added = 0;
  for (int r = 0; r < s->n; r++) {
    int has = 0;
    for (int c = 0; c < s->n && !has; c++)
      has = *cell(s, l, r, c) == CB_BS_WHITE;
    if (has) continue;
    int c = free_cell_in_line(s, l, r, -1);
    if (c < 0) continue; /* deal_problem rules this out */
    *cell(s, l, r, c) = CB_BS_ROW;
    added++;
    if (s->n <= 30)
      cb_dungeon_log(s->d, "Level %d, row %d has no white peg: %s from room %d to room %d (peg at %d;%d).",
                     l + 1, r + 1, s->own->secret_rows ? "a secret passage" : "a passage", r + 1, c + 1,
                     r + 1, c + 1);
  }
  if (added == 0 && s->n <= 30)
    cb_dungeon_log(s->d, "Level %d: every row already has a white peg.", l + 1);
  else if (s->n > 30)
    cb_dungeon_log(s->d, "Level %d: %d rows had no white peg and got one.", l + 1, added);
}

/* Step 5, optional: K more white pegs at random free cells (jaquaying). */
static cb_status place_extra_pegs(bs *s, int l, cb_error *err) {
  int n = s->n, count = 0;
  for (int r = 0; r < n; r++)
    for (int c = 0; c < n; c++)
      if (r != c && *cell(s, l, r, c) == CB_BS_FREE) s->pick[count++] = r * n + c;
  if (count < s->extra)
    return cb_error_set(err, CB_EINPUT, "--extra %d: level %d's grid has only %d free cells left", s->extra,
                        l + 1, count);
  for (int i = 0; i < s->extra; i++) {
    int k = i + (int)cb_rng_below(&s->rng, (uint32_t)(count - i)), t = s->pick[k];
    s->pick[k] = s->pick[i];
    s->pick[i] = t;
    int r = t / n, c = t % n;
    *cell(s, l, r, c) = CB_BS_WHITE;
    if (n <= 30 || i < 5)
      cb_dungeon_log(s->d, "Level %d: an extra white peg at %d;%d joins rooms %d and %d.", l + 1, r + 1,
                     c + 1, r + 1, c + 1);
  }
  return CB_OK;
}

static int pick_red(bs *s, int l, int avoid_level, int *common) {
  int count = 0;
  for (int k = 1; k < s->n; k++)
    if (*cell(s, l, k, k) == CB_BS_RED && (avoid_level < 0 || *cell(s, avoid_level, k, k) == CB_BS_RED))
      s->pick[count++] = k;
  *common = count;
  return count ? s->pick[cb_rng_below(&s->rng, (uint32_t)count)] : -1;
}

/* Step 6: remove a red peg (k,k) from a grid and (k',k') from the next: the
 * stairs from room k down to room k' (k = k' with --matching-stairs). */
static cb_status place_stairs(bs *s, cb_error *err) {
  cb_battleships_proc *p = s->proc;
  for (int l = 0; l + 1 < s->nlevels; l++)
    for (int e = 0; e <= s->own->extra_stairs; e++) {
      int k = -1, k2 = -1, common = 0;
      if (s->own->matching_stairs) {
        k = k2 = pick_red(s, l, l + 1, &common);
        if (k < 0)
          cb_dungeon_log(s->d,
                         "No red peg is left at the same place on levels %d and %d, so these stairs do not "
                         "match.",
                         l + 1, l + 2);
      }
      if (k < 0) {
        k = pick_red(s, l, -1, &common);
        k2 = pick_red(s, l + 1, -1, &common);
      }
      if (k < 0 || k2 < 0)
        return cb_error_set(err, CB_EINTERNAL, "battleships: no red peg left for the stairs");
      *cell(s, l, k, k) = CB_BS_STAIRS;
      *cell(s, l + 1, k2, k2) = CB_BS_STAIRS;
      if (cb_arena_grow(s->d->arena, &p->stairs, &s->cap_stairs, (size_t)p->nstairs + 1, sizeof *p->stairs))
        return cb_error_oom(err);
      p->stairs[p->nstairs++] = (cb_bs_stairs){l + 1, k + 1, l + 2, k2 + 1};
      cb_dungeon_log(s->d,
                     "%s: the red peg at %d;%d of level %d comes out, and the one at %d;%d of level %d: "
                     "stairs from room %d down to room %d.",
                     e ? "More stairs" : "Stairs", k + 1, k + 1, l + 1, k2 + 1, k2 + 1, l + 2, k + 1, k2 + 1);
    }
  return CB_OK;
}

/* Rooms joined to room index `start` (level l = index / n, number
 * index % n + 1) by pegs or stairs are flooded into the walk `reached`. A
 * room has at most one stairs (each X is its own diagonal cell):
 * stairs_to[index] is the room index at the other end, or -1. */
static void flood(bs *s, int start, const int *stairs_to, cb_bfs *reached) {
  int n = s->n;
  cb_bfs_reach(reached, -1, start);
  for (int u; (u = cb_bfs_next(reached)) >= 0;) {
    int l = u / n, k = u % n;
    for (int j = 0; j < n; j++)
      if (j != k && (cb_bs_is_peg(*cell(s, l, k, j)) || cb_bs_is_peg(*cell(s, l, j, k))))
        cb_bfs_reach(reached, u, l * n + j);
    if (stairs_to[u] >= 0) cb_bfs_reach(reached, u, stairs_to[u]);
  }
}

/* Beyond the seed: a room the party cannot reach from the start gets a peg
 * ('+') joining it to a reached room of its level; --faithful leaves it be. */
static cb_status connect_rooms(bs *s, cb_error *err) {
  int n = s->n, total = s->nlevels * n, added = 0, lost = 0;
  cb_bfs walk;
  int *stairs_to = cb_malloc((size_t)total * sizeof *stairs_to), *reached = NULL;
  if (cb_bfs_init(&walk, total) || !stairs_to) {
    cb_bfs_free(&walk);
    free(stairs_to);
    return cb_error_oom(err);
  }
  reached = walk.hops; /* >= 0: reached */
  for (int i = 0; i < total; i++)
    stairs_to[i] = -1;
  for (int i = 0; i < s->proc->nstairs; i++) {
    const cb_bs_stairs *st = &s->proc->stairs[i];
    int a = (st->from_level - 1) * n + st->from_room - 1, b = (st->to_level - 1) * n + st->to_room - 1;
    stairs_to[a] = b;
    stairs_to[b] = a;
  }
  flood(s, 0, stairs_to, &walk);
  for (int l = 0; l < s->nlevels; l++) {
    for (int progress = 1; progress && !s->o->faithful;) {
      progress = 0;
      for (int k = 0; k < n && !progress; k++) {
        if (reached[l * n + k] >= 0) continue;
        int count = 0;
        for (int j = 0; j < n; j++) {
          if (j == k || reached[l * n + j] < 0) continue;
          if (*cell(s, l, k, j) == CB_BS_FREE) s->pick[count++] = k * n + j;
          if (*cell(s, l, j, k) == CB_BS_FREE) s->pick[count++] = j * n + k;
        }
        if (!count) continue;
        int t = s->pick[cb_rng_below(&s->rng, (uint32_t)count)], r = t / n, c = t % n, other = r == k ? c : r;
        *cell(s, l, r, c) = CB_BS_REPAIR;
        cb_dungeon_log(
            s->d,
            "Room %d of level %d cannot be reached from the start: a peg at %d;%d (marked +) joins "
            "it to room %d.",
            k + 1, l + 1, r + 1, c + 1, other + 1);
        flood(s, l * n + k, stairs_to, &walk);
        added++;
        progress = 1;
      }
    }
    for (int k = 0; k < n; k++) {
      if (reached[l * n + k] >= 0) continue;
      lost++;
      s->d->rooms[l * n + k].tags |= CB_TAG_UNREACHABLE;
      if (n <= 30 || lost <= 10)
        cb_dungeon_log(s->d, "Room %d of level %d cannot be reached from the start%s.", k + 1, l + 1,
                       s->o->faithful ? " (faithful: left as the grid has it)"
                                      : ": every cell joining it is a ship");
    }
  }
  if (!s->o->faithful && added == 0 && lost == 0)
    cb_dungeon_log(s->d, "Every room can be reached from the start; no peg needed adding.");
  else if (lost)
    cb_dungeon_log(s->d, "%d room%s cannot be reached from the start; the key marks %s unreachable.", lost,
                   lost == 1 ? "" : "s", lost == 1 ? "it" : "them");
  cb_bfs_free(&walk);
  free(stairs_to);
  return CB_OK;
}

/* The passages are exactly the pegs read both ways: room r and room c of a
 * level are joined when (r,c) or (c,r) holds W, G or +. One passage per pair;
 * it is secret (--secret-rows) when all its pegs are row pegs. Then the stairs. */
static cb_status read_passages(bs *s, cb_error *err) {
  int n = s->n;
  for (int l = 0; l < s->nlevels; l++)
    for (int r = 0; r < n; r++)
      for (int c = r + 1; c < n; c++) {
        char a = *cell(s, l, r, c), b = *cell(s, l, c, r);
        if (!cb_bs_is_peg(a) && !cb_bs_is_peg(b)) continue;
        cb_passage *ps =
            cb_dungeon_add_passage(s->d, room_id(s, l, r), room_id(s, l, c), CB_PASSAGE_CORRIDOR);
        if (!ps) return cb_error_oom(err);
        if (s->own->secret_rows && (!cb_bs_is_peg(a) || a == CB_BS_ROW) &&
            (!cb_bs_is_peg(b) || b == CB_BS_ROW))
          ps->flags |= CB_FLAG_SECRET;
      }
  for (int i = 0; i < s->proc->nstairs; i++) {
    const cb_bs_stairs *st = &s->proc->stairs[i];
    if (!cb_dungeon_add_passage(s->d, room_id(s, st->from_level - 1, st->from_room - 1),
                                room_id(s, st->to_level - 1, st->to_room - 1), CB_PASSAGE_STAIRS))
      return cb_error_oom(err);
  }
  return CB_OK;
}

/* Start at room 1 of level 1; the boss waits in room 1 of the last level, or
 * with one level in the room farthest from the start (fewest passages
 * walked; ties: the lowest number). */
static cb_status mark_start_and_boss(bs *s, cb_error *err) {
  cb_dungeon *d = s->d;
  d->rooms[0].tags |= CB_TAG_START | CB_TAG_MAIN_START;
  d->rooms[0].text = "The way in: the party starts here.";
  int boss = (s->nlevels - 1) * s->n;
  if (s->nlevels == 1) {
    int n = s->n;
    cb_bfs walk;
    if (cb_bfs_init(&walk, n)) {
      cb_bfs_free(&walk);
      return cb_error_oom(err);
    }
    int *dist = walk.hops;
    cb_bfs_reach(&walk, -1, 0);
    boss = -1;
    for (int u; (u = cb_bfs_next(&walk)) >= 0;) {
      if (u != 0 && (boss < 0 || dist[u] > dist[boss] || (dist[u] == dist[boss] && u < boss))) boss = u;
      for (int v = 0; v < n; v++)
        if (v != u && (cb_bs_is_peg(*cell(s, 0, u, v)) || cb_bs_is_peg(*cell(s, 0, v, u))))
          cb_bfs_reach(&walk, u, v);
    }
    if (boss < 0) boss = n - 1; /* nothing reachable (--faithful): the last room */
    cb_dungeon_log(d, "One level: the boss waits in room %d, %d passage%s from the start.", boss + 1,
                   dist[boss], dist[boss] == 1 ? "" : "s");
    cb_bfs_free(&walk);
  } else {
    cb_dungeon_log(d, "The party starts in room 1 of level 1 (S); the boss waits in room 1 of level %d (B).",
                   s->nlevels);
  }
  d->rooms[boss].tags |= CB_TAG_BOSS;
  d->rooms[boss].text = "The boss: the adventure's goal waits here.";
  for (int i = 0; i < d->nrooms; i++)
    if ((d->rooms[i].tags & CB_TAG_UNREACHABLE) && !d->rooms[i].text)
      d->rooms[i].text = "No passage on the grid leads here from the start.";
  return CB_OK;
}

/* The grids into the procedure, one string per row. */
static cb_status record_grids(bs *s, cb_error *err) {
  cb_battleships_proc *p = s->proc;
  int n = s->n;
  p->ngrids = s->nlevels;
  p->grids = cb_arena_alloc(s->d->arena, (size_t)s->nlevels, sizeof *p->grids);
  if (!p->grids) return cb_error_oom(err);
  for (int l = 0; l < s->nlevels; l++) {
    p->grids[l].level = l + 1;
    p->grids[l].rows = cb_arena_alloc(s->d->arena, (size_t)n, sizeof *p->grids[l].rows);
    char *text = cb_arena_alloc(s->d->arena, (size_t)n * (n + 1), 1);
    if (!p->grids[l].rows || !text) return cb_error_oom(err);
    for (int r = 0; r < n; r++) {
      memcpy(text + r * (n + 1), cell(s, l, r, 0), (size_t)n);
      text[r * (n + 1) + n] = '\0';
      p->grids[l].rows[r] = text + r * (n + 1);
    }
  }
  return CB_OK;
}

static cb_status add_rooms(bs *s, cb_error *err) {
  double radius = ROOM_RING_FT * s->n / (2 * CB_PI), gap = 4 * ROOM_RING_FT;
  for (int l = 0; l < s->nlevels; l++) {
    char name[32];
    snprintf(name, sizeof name, "Level %d", l + 1);
    if (!cb_dungeon_add_level(s->d, l + 1, name)) return cb_error_oom(err);
    double cx = radius + l * (2 * radius + gap), cy = radius;
    for (int k = 0; k < s->n; k++) {
      double a = -CB_PI / 2 + 2 * CB_PI * k / s->n;
      cb_room *r = cb_dungeon_add_room(s->d, l + 1, round((cx + radius * cos(a)) * 100) / 100,
                                       round((cy + radius * sin(a)) * 100) / 100);
      if (!r) return cb_error_oom(err); /* numbered across the levels: no "room 4" twice on a page */
    }
  }
  return CB_OK;
}

static void record_options(bs *s) {
  cb_gen_options used = *s->o;
  cb_battleships_options own = *s->own;
  used.levels = s->nlevels;
  own.grid = (cb_option_size){s->n, s->n};
  own.extra = s->extra;
  cb_option_record_all(s->d, &cb_battleships_option_specs, &used, &own);
}

static cb_status steps(const cb_gen_options *o, const void *ctx, cb_dungeon *d, cb_error *err) {
  (void)ctx;
  cb_status st;
  bs s = {0};
  const cb_battleships_options *own = cb_battleships_options_of(o);
  s.o = o, s.own = own;
  s.n = own->grid.w ? own->grid.w : DEFAULT_GRID;
  s.nlevels = o->levels ? o->levels : DEFAULT_LEVELS;
  s.extra = own->extra_set ? own->extra : DEFAULT_EXTRA;
  s.nfleet = make_fleet(own, s.n, s.fleet);
  for (int i = 0; i < s.nfleet; i++)
    s.fleet_cells += s.fleet[i];
  cb_rng_seed(&s.rng, o->seed, 0);
  s.d = d;
  s.cells = cb_malloc((size_t)s.nlevels * s.n * s.n);
  s.pick = cb_malloc((size_t)s.n * s.n * sizeof *s.pick);
  if (!s.cells || !s.pick) goto fail_oom;
  s.proc = cb_arena_alloc(s.d->arena, 1, sizeof *s.proc);
  if (!s.proc) goto fail_oom;
  s.proc->n = s.n;
  s.d->procedure = s.proc;
  record_options(&s);
  if ((st = add_rooms(&s, err)) != CB_OK) goto done;
  cb_dungeon_log(
      s.d,
      "%d level%s, each a %d x %d grid: rooms 1 to %d, a peg at r;c (row r, column c) joining rooms r and c. "
      "The fleet: %d ship%s, %d cells.",
      s.nlevels, s.nlevels == 1 ? "" : "s", s.n, s.n, s.n, s.nfleet, s.nfleet == 1 ? "" : "s", s.fleet_cells);
  for (int l = 0; l < s.nlevels; l++) {
    if ((st = place_ships(&s, l, err)) != CB_OK) goto done;
    place_red_pegs(&s, l);
    place_column_pegs(&s, l);
    place_row_pegs(&s, l);
    if ((st = place_extra_pegs(&s, l, err)) != CB_OK) goto done;
  }
  if ((st = place_stairs(&s, err)) != CB_OK) goto done;
  if ((st = connect_rooms(&s, err)) != CB_OK) goto done;
  if ((st = read_passages(&s, err)) != CB_OK) goto done;
  if ((st = mark_start_and_boss(&s, err)) != CB_OK) goto done;
  st = record_grids(&s, err);
  goto done;
fail_oom:
  st = cb_error_oom(err);
done:
  free(s.cells);
  free(s.pick);
  return st;
}

const cb_generator cb_gen_battleships = {
    .name = "battleships",
    .title_noun = "Battle Halls",
    .max_rooms = 0,
    .rooms_note = "battleships has one room per grid row; use --grid N",
    .validate = validate,
    .steps = steps,
    .what = "A BattleDungeon grid-crawl",
    .io = &cb_proc_io_battleships,
    .layout = &cb_battleships_layout,
    .options = &cb_battleships_option_specs,
};
