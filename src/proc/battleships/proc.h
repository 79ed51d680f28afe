/* battleships (seed 003) artefacts: each level's grid as the game master
 * pegs it, the ships under the pegs and the stairs between levels
 * (model.md "procedure"). Arena-allocated with the dungeon. */
#ifndef CB_PROC_BATTLESHIPS_H
#define CB_PROC_BATTLESHIPS_H

#include "model/dungeon.h"
#include "proc/proc.h"

/* The marks of a grid cell, as model.md spells them. */
#define CB_BS_FREE '.'
#define CB_BS_SHIP '#'
#define CB_BS_RED 'R'    /* red peg on the diagonal: a room does not join itself */
#define CB_BS_WHITE 'W'  /* white peg: a passage (column pegs and extra pegs) */
#define CB_BS_ROW 'G'    /* white peg added for a row without one (secret with --secret-rows) */
#define CB_BS_STAIRS 'X' /* removed red peg: stairs to another level */
#define CB_BS_REPAIR '+' /* peg we added so that every room can be reached */

/* True for the marks that make a passage (W, G, +). */
static inline int cb_bs_is_peg(char c) { return c == CB_BS_WHITE || c == CB_BS_ROW || c == CB_BS_REPAIR; }

typedef struct cb_bs_grid {
  int level;
  const char **rows; /* n strings of n marks; row r, column c is rows[r-1][c-1] */
} cb_bs_grid;

typedef struct cb_bs_ship {
  int level;
  int ncells;
  int (*cells)[2]; /* [row, column], 1-based, bow to stern */
} cb_bs_ship;

typedef struct cb_bs_stairs {
  int from_level, from_room; /* room = its number within the level (the grid's k) */
  int to_level, to_room;
} cb_bs_stairs;

typedef struct cb_battleships_proc {
  int n; /* rooms per level: the grid is n x n */
  int ngrids, nships, nstairs;
  cb_bs_grid *grids; /* one per level, in level order */
  cb_bs_ship *ships; /* by level, in the order placed */
  cb_bs_stairs *stairs;
} cb_battleships_proc;

/* The artefacts of a dungeon battleships made or read, or NULL (d->procedure). */
static inline cb_battleships_proc *cb_battleships_of(const cb_dungeon *d) { return d->procedure; }

/* battleships's own options, from its rows (options.c); zero is the default. */
enum { CB_MAX_FLEET = 64 };
typedef struct cb_battleships_options {
  cb_option_size grid; /* rooms per level, the grid is w x w (h must match); 0: default 10 */
  int extra;           /* extra white pegs per grid, with extra_set; else 3 */
  bool extra_set;
  int extra_stairs; /* more level links per pair of levels */
  bool secret_rows, matching_stairs;
  int nfleet;              /* 0: the classic fleet, scaled */
  int fleet[CB_MAX_FLEET]; /* ship lengths */
} cb_battleships_options;
/* o's own options for battleships: the record o points to, or the defaults. */
static inline const cb_battleships_options *cb_battleships_options_of(const cb_gen_options *o) {
  static const cb_battleships_options defaults;
  return o->own ? (const cb_battleships_options *)o->own : &defaults;
}

/* Its row in the registry (generate.c) and its artefacts in JSON (json.c). */
extern const cb_generator cb_gen_battleships;
/* Its options (options.c). */
extern const cb_option_set cb_battleships_option_specs;
extern const struct cb_proc_io cb_proc_io_battleships;

#endif
