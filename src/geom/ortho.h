/* Orthogonal routing around rectangles: the cheapest path of axis-aligned
 * legs from a start to one of several goals that never enters a blocked
 * rectangle, paying for its length, its bends, every segment it crosses and
 * every unit it runs close beside one. The search runs on the grid of lines
 * through the inputs' coordinates (a Hanan grid), so a route's points are
 * sums of the inputs and the pads given (and lines `near` either side of
 * each segment, where a route runs beside it uncrowded): inputs on a
 * 2.5-ft grid give points on it. */
#ifndef CB_ORTHO_H
#define CB_ORTHO_H

#include "delaunay.h"

/* Directions: 0 north (y decreasing), 1 east, 2 south, 3 west. */
enum { CB_ORTHO_N, CB_ORTHO_E, CB_ORTHO_S, CB_ORTHO_W };

/* A rectangle the route may run along but never enter. */
typedef struct cb_ortho_block {
  double x0, y0, x1, y1;
} cb_ortho_block;

/* A way to end: at `at`, moving in direction `dir` (a bend before it is
 * paid for, a reversal is refused), for `cost` more. */
typedef struct cb_ortho_goal {
  cb_point at;
  int dir;
  double cost;
} cb_ortho_goal;

typedef struct cb_ortho_problem {
  cb_point from;
  int dir; /* the way the route is moving at `from` */
  const cb_ortho_goal *goals;
  int ngoals;
  const cb_ortho_block *blocks;
  int nblocks;
  const cb_point *segs; /* axis-aligned segments, two points each: segs[2k], segs[2k + 1] */
  int nsegs;
  double bend;   /* cost of a turn */
  double cross;  /* cost of crossing a segment */
  double along;  /* cost a unit of running along one (INFINITY: refused) */
  double near;   /* a parallel segment closer than this is crowding ... */
  double crowd;  /* ... at this cost per unit run beside it (INFINITY: refused) */
  double pad;    /* grid lines also run this far outside each block ... */
  double hug;    /* ... and running along a block's edge costs this per unit */
  double margin; /* how far beyond the start's and goals' bounding box the route may stray */
  int max_lines; /* no route (0) when the grid would need more lines a way than this */
} cb_ortho_problem;

/* Room a caller may keep for a run of routes, so that each route does not
 * allocate and clear its own arrays (they only grow). The caller owns it:
 * NULL on OOM; free with cb_ortho_work_free (NULL is fine). */
typedef struct cb_ortho_work cb_ortho_work;
cb_ortho_work *cb_ortho_work_new(void);
void cb_ortho_work_free(cb_ortho_work *w);

/* The fewest bends a route in the open plane makes from moving `dir` to
 * arriving moving `goal_dir` at a point (dx, dy) from where it is (the turn
 * into goal_dir at the end counted; it never reverses). */
int cb_ortho_min_bends(int dir, int goal_dir, double dx, double dy);

/* The cheapest route: its corners from `from` to the goal reached (both
 * included) in out (room for max points), the goal's index in *goal and
 * the cost in *cost. Returns the number of points; 0 when there is no
 * route or it needs more than max points; -1 when out of memory. */
int cb_ortho_route(const cb_ortho_problem *pr, cb_point *out, int max, int *goal, double *cost);
/* The same, in w's room. */
int cb_ortho_route_in(cb_ortho_work *w, const cb_ortho_problem *pr, cb_point *out, int max, int *goal,
                      double *cost);

#endif
