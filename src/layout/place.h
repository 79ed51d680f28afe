/* Label placement: the things already on a map (rooms, lines, marks) as
 * obstacles, and the cost of putting a new box among them, so that tags and
 * edge labels go where they overlap nothing. */
#ifndef CB_PLACE_H
#define CB_PLACE_H

#include "base/error.h"

typedef struct cb_box {
  double x0, y0, x1, y1;
} cb_box;

typedef struct cb_place cb_place;

/* An empty obstacle set inside `bounds` (boxes reaching outside cost a lot);
 * NULL on OOM. Free with cb_place_free. */
cb_place *cb_place_new(cb_box bounds);
void cb_place_free(cb_place *pl);

/* Obstacles; each returns CB_OK, or CB_EINTERNAL when out of memory (the
 * obstacle is not added; cb_place_error says why). */
cb_status cb_place_segment(cb_place *pl, double x0, double y0, double x1, double y1, double half_width);
cb_status cb_place_circle(cb_place *pl, double cx, double cy, double r);
cb_status cb_place_box(cb_place *pl, cb_box b);
/* The first failure to add an obstacle (status CB_OK and no message: none). */
const cb_error *cb_place_error(const cb_place *pl);

/* What putting b here costs: 0 when it touches nothing and stays inside. */
double cb_place_cost(cb_place *pl, cb_box b); /* not const: queries stamp what they count */
/* The same, leaving out the circles centred at (cx, cy): a box on its own room's rim. */
double cb_place_cost_beside(cb_place *pl, cb_box b, double cx, double cy);
/* cb_place_cost with each room (circle) or label (box) it covers costing
 * `cover`: where covering one must be rarer than the usual price says. */
double cb_place_cost_covering(cb_place *pl, cb_box b, double cover);

/* Helpers. */
cb_box cb_box_centered(double cx, double cy, double w, double h);
cb_box cb_box_grow(cb_box b, double by);

#endif
