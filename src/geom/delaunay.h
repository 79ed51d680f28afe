/* Delaunay triangulation of points in the plane, through Debian's qhull. */
#ifndef CB_DELAUNAY_H
#define CB_DELAUNAY_H

#include "base/error.h"

typedef struct cb_point {
  double x, y;
} cb_point;

typedef struct cb_edge {
  int a, b; /* point indices, a < b */
} cb_edge;

/* The edges of the Delaunay triangulation of n points, sorted by (a, b) and
 * without repeats, in *edges (malloc-owned: the caller frees it) and their
 * count in *nedges. One or two points give no or one edge; collinear points
 * give the path along the line. CB_EINTERNAL when qhull or malloc fails. */
cb_status cb_delaunay(const cb_point *pts, int n, cb_edge **edges, int *nedges, cb_error *err);

#endif
