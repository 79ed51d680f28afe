/* leximorph's tunnel sketch (seed 001, model.md "sketch"): the sectors with
 * their letters, the tunnels as polylines in feet, and every junction and
 * wall result where it was rolled. Everything is arena-allocated in the
 * dungeon (see dungeon.h); its procedure artefacts point into the same
 * sector, junction and wall arrays, so the rolls are kept once. */
#ifndef CB_SKETCH_H
#define CB_SKETCH_H

#include <stdbool.h>

/* What a junction or wall result does (the third column of the tables in
 * templates/leximorph-junctions.txt and leximorph-walls.txt). */
typedef enum {
  CB_JUNCTION_ORDINARY,
  CB_JUNCTION_TRAPPED,
  CB_JUNCTION_DISABLED_TRAP,
  CB_JUNCTION_OBSTACLE,
  CB_JUNCTION_DOOR,
  CB_JUNCTION_ROOM
} cb_junction_effect;
enum { CB_JUNCTION_EFFECT_COUNT = 6 };

typedef enum {
  CB_WALL_BLANK,
  CB_WALL_SECRET_DOOR,
  CB_WALL_BRANCH,
  CB_WALL_DIAGONALS,
  CB_WALL_BLOCKED,
  CB_WALL_DOOR,
  CB_WALL_DOORS,
  CB_WALL_STAIRS
} cb_wall_effect;
enum { CB_WALL_EFFECT_COUNT = 8 };

/* What lies beyond a door (the d20 table, templates/leximorph-doors.txt):
 * the passages are short blind stubs on the sketch; only rooms and chambers
 * become rooms of the point-crawl. */
typedef enum {
  CB_DOOR_PARALLEL,
  CB_DOOR_AHEAD,
  CB_DOOR_DIAGONAL,
  CB_DOOR_ROOM,
  CB_DOOR_CHAMBER
} cb_door_effect;
enum { CB_DOOR_EFFECT_COUNT = 5, CB_STUB_POINTS = 3 };

typedef struct cb_sketch_point {
  double x, y; /* feet; y grows downwards */
} cb_sketch_point;

typedef struct cb_sketch_sector {
  int col, row;       /* from 1; row 1 is the top row */
  int roll;           /* the d10 */
  const char *letter; /* as the letter table names it */
  int rotation;       /* the d4: 1 upright, 2 90 cw, 3 upside down, 4 90 ccw */
} cb_sketch_sector;

typedef struct cb_sketch_tunnel {
  int npoints; /* >= 2; first and last are junctions (equal for a loop) */
  cb_sketch_point *points;
  bool join; /* a short tunnel joining two letters (or a lost stroke) */
} cb_sketch_tunnel;

typedef struct cb_sketch_junction {
  double x, y;
  int roll; /* the d6 */
  cb_junction_effect effect;
  const char *result; /* the table's words */
  int room;           /* the room at it or behind its door, 0 when none */
} cb_sketch_junction;

typedef struct cb_sketch_wall {
  double x, y; /* on the tunnel's centre line */
  int tunnel;  /* index into tunnels, from 0 */
  bool right;  /* side, facing along the tunnel from its first point */
  int roll;    /* the d8 */
  cb_wall_effect effect;
  const char *result; /* the table's words */
  int rooms[2];       /* rooms behind its door(s), 0 when none */
} cb_sketch_wall;

typedef struct cb_sketch_door {
  double x, y;   /* the door, in the tunnel wall (or at its junction) */
  double ux, uy; /* the way through it, away from the tunnel */
  int roll;      /* the d20 */
  cb_door_effect effect;
  const char *result; /* the table's words */
  bool secret;
  int room;                             /* the room or chamber behind it, 0 for a passage */
  cb_sketch_point stub[CB_STUB_POINTS]; /* a passage: from the door to its blind end */
} cb_sketch_door;

typedef struct cb_sketch {
  int cols, rows;   /* sectors */
  double sector_ft; /* a sector's side */
  int nsectors, ntunnels, njunctions, nwalls, ndoors;
  cb_sketch_sector *sectors; /* row by row */
  cb_sketch_tunnel *tunnels;
  cb_sketch_junction *junctions;
  cb_sketch_wall *walls;
  cb_sketch_door *doors; /* every door's d20, in the order rolled */
} cb_sketch;

/* Names of the effects as the JSON spells them, and the reverse (-1). */
const char *cb_junction_effect_name(cb_junction_effect e);
int cb_junction_effect_parse(const char *name);
const char *cb_wall_effect_name(cb_wall_effect e);
int cb_wall_effect_parse(const char *name);
const char *cb_door_effect_name(cb_door_effect e);
int cb_door_effect_parse(const char *name);

#endif
