/* preconnect (seed 002) artefacts: every door with its d10 rolls and what
 * they decided, the corridors as drawn (polylines in feet) with their
 * crossings, and the rooms' rectangles on the plane. Arena-allocated with
 * the dungeon that holds them (d->procedure). */
#ifndef CB_PROC_PRECONNECT_H
#define CB_PROC_PRECONNECT_H

#include "model/dungeon.h"
#include "proc/proc.h"

#include <stdbool.h>

typedef enum { CB_FACING_N, CB_FACING_E, CB_FACING_S, CB_FACING_W } cb_facing;
enum { CB_FACING_COUNT = 4 };

typedef enum { CB_CROSS_UNDER, CB_CROSS_SECRET, CB_CROSS_OVER, CB_CROSS_DEAD_END } cb_crossing_result;
enum { CB_CROSS_RESULT_COUNT = 4 };

typedef struct cb_pc_point {
  double x, y; /* feet; y grows southwards */
} cb_pc_point;

/* A room as drawn: its rectangle, left/top corner and size in feet. */
typedef struct cb_pc_room {
  int room;
  double x, y, w, h;
} cb_pc_room;

/* One crossing on a corridor, in the order met along it. */
typedef struct cb_pc_crossing {
  int roll; /* d10, 10 for a 0 */
  cb_crossing_result result;
  int room;                 /* the room crossed, or 0 when it is a corridor */
  int door;                 /* with room 0: the door (1-based) whose corridor is crossed */
  cb_pc_point enter, leave; /* where the crossed area begins and ends along this corridor: the stairs */
  bool ladder;              /* under/over with --ladders and an odd roll: ladders, not stairs */
} cb_pc_crossing;

/* One door and its corridor. */
typedef struct cb_pc_door {
  int room;
  cb_facing facing;
  cb_pc_point at;  /* on the room's wall */
  int nrolls;      /* the destination rolls: one, more after 0s (distant rooms) */
  int *rolls;      /* d10s, 10 for a 0 */
  int *via;        /* after rolls[i] == 10 (rooms after the fifth): the room taken as current */
  int destination; /* the table's room number (before re-reading), 0 when none was read */
  int to;          /* the room the corridor reaches (a dead end: its own room; 0 while unresolved) */
  int length_roll; /* d10 for a corridor to a new room or a dead end, 0 when not rolled */
  int check_roll;  /* d6 turn / side-passage check after 60 ft, 0 when not rolled */
  bool extra;      /* added to the newest room because every door was resolved before N rooms */
  bool postponed;  /* nothing lay in its direction at first: resolved at the end */
  bool reread;     /* the destination was out of 1..N: the nearest drawn room that way instead */
  bool new_room;   /* the corridor drew a new room (room `to`) */
  int order;       /* 1-based: when its corridor was drawn */
  int passage;     /* the passage id */
  int ncrossings;
  cb_pc_crossing *crossings;
  int npoints; /* the corridor as drawn, from the door; 2 equal points: no corridor */
  cb_pc_point *points;
  int nside; /* 0 or 2: a blind side passage found by the check roll */
  cb_pc_point side[2];
} cb_pc_door;

typedef struct cb_preconnect_proc {
  int nrooms, ndoors;
  cb_pc_room *rooms;
  cb_pc_door *doors; /* in the order the doors were made */
} cb_preconnect_proc;

/* Names as model.md spells them; -1 when unknown. */
const char *cb_facing_name(cb_facing f);
int cb_facing_parse(const char *name);
const char *cb_crossing_result_name(cb_crossing_result r);
int cb_crossing_result_parse(const char *name);
/* The crossing table: 1-4 under, 5 secret, 6-9 over, 10 (0) dead end. */
cb_crossing_result cb_crossing_result_of(int roll);

/* The artefacts of a dungeon preconnect made or read, or NULL (d->procedure). */
static inline cb_preconnect_proc *cb_preconnect_of(const cb_dungeon *d) { return d->procedure; }

/* preconnect's own options, from its rows (options.c); zero is the default. */
typedef struct cb_preconnect_options {
  bool ladders; /* odd crossing rolls put ladders, not stairs */
} cb_preconnect_options;
/* o's own options for preconnect: the record o points to, or the defaults. */
static inline const cb_preconnect_options *cb_preconnect_options_of(const cb_gen_options *o) {
  static const cb_preconnect_options defaults;
  return o->own ? (const cb_preconnect_options *)o->own : &defaults;
}

/* Its row in the registry (generate.c) and its artefacts in JSON (json.c). */
extern const cb_generator cb_gen_preconnect;
/* Its options (options.c). */
extern const cb_option_set cb_preconnect_option_specs;
extern const struct cb_proc_io cb_proc_io_preconnect;

#endif
