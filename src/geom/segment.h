/* Segment tests, and the segments and points near a segment found through
 * the spatial grid (boxgrid.h), so that "crosses no path, passes through no
 * room" stays fast. */
#ifndef CB_SEGMENT_H
#define CB_SEGMENT_H

#include <stdbool.h>

#include "delaunay.h"

/* True when segments ab and cd cross or overlap. Touching only at a shared
 * endpoint (two paths from the same room) is not a crossing. */
bool cb_segments_cross(cb_point a, cb_point b, cb_point c, cb_point d);
/* True when segment ab meets the upright box (x0, y0, x1, y1): an end
 * inside, or it crosses a side. */
bool cb_segment_meets_box(cb_point a, cb_point b, const double box[4]);
/* Squared distance from p to segment ab. */
double cb_point_segment_dist2(cb_point p, cb_point a, cb_point b);

/* Points fixed at creation; segments (pairs of point indices) added later. */
typedef struct cb_seggrid cb_seggrid;

/* A grid over pts[0..n-1] (copied) with cells of about `cell` units;
 * NULL on OOM. Free with cb_seggrid_free. */
cb_seggrid *cb_seggrid_new(const cb_point *pts, int n, double cell);
void cb_seggrid_free(cb_seggrid *g);
/* Adds segment a-b; 0 or -1 on OOM. */
int cb_seggrid_add(cb_seggrid *g, int a, int b);
/* True when segment a-b would cross an added segment. */
bool cb_seggrid_crosses(cb_seggrid *g, int a, int b);
/* True when a point other than a and b lies closer than r to segment a-b. */
bool cb_seggrid_near_point(cb_seggrid *g, int a, int b, double r);

#endif
