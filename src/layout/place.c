#include "place.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "base/alloc.h"
#include "geom/boxgrid.h"

typedef struct seg {
  double x0, y0, x1, y1, hw;
} seg;
typedef struct circ {
  double cx, cy, r;
} circ;

/* Obstacles are also filed in the spatial grid (geom/boxgrid.h) by their
 * bounding boxes, so that a query looks only at what is near it (placement
 * asks thousands of times a map). Ids: index * 3 + kind. */
enum { KIND_CIRC, KIND_BOX, KIND_SEG, KINDS };
static const double CELL = 16; /* points */

struct cb_place {
  cb_box bounds;
  seg *segs;
  circ *circs;
  cb_box *boxes;
  size_t nsegs, ncircs, nboxes, cap_segs, cap_circs, cap_boxes;
  cb_boxgrid *grid;
  int *near; /* the ids a query lists */
  size_t cap_near;
  cb_error err; /* the first failure to add an obstacle */
};

/* Costs of one overlap: leaving the map is worst, covering a room or another
 * label next, crossing a line least (a label may sit on a line if it must). */
static const double COST_OUTSIDE = 1000, COST_ROOM = 120, COST_BOX = 100, COST_LINE = 30;

cb_place *cb_place_new(cb_box bounds) {
  cb_place *pl = cb_calloc(1, sizeof *pl);
  if (!pl) return NULL;
  pl->bounds = bounds;
  pl->grid = cb_boxgrid_new(CELL);
  if (!pl->grid) {
    free(pl);
    return NULL;
  }
  return pl;
}

void cb_place_free(cb_place *pl) {
  if (!pl) return;
  free(pl->segs);
  free(pl->circs);
  free(pl->boxes);
  cb_boxgrid_free(pl->grid);
  free(pl->near);
  free(pl);
}

/* A NaN edge makes the overlap tests pass along its axis: the grid lists
 * such an obstacle to every query, and such a query meets every obstacle. */
static cb_status index_obstacle(cb_place *pl, cb_box extent, int id) {
  if (cb_grow(&pl->near, &pl->cap_near, (size_t)id + 1, sizeof *pl->near) ||
      cb_boxgrid_add(pl->grid, id, extent.x0, extent.y0, extent.x1, extent.y1))
    return cb_error_oom(&pl->err);
  return CB_OK;
}

/* Room for one more obstacle in *a (n of them, cap): CB_OK, or out of memory. */
static cb_status more(cb_place *pl, void *a, size_t *cap, size_t n, size_t size) {
  return cb_grow(a, cap, n + 1, size) ? cb_error_oom(&pl->err) : CB_OK;
}

const cb_error *cb_place_error(const cb_place *pl) { return &pl->err; }

cb_status cb_place_segment(cb_place *pl, double x0, double y0, double x1, double y1, double half_width) {
  if (more(pl, &pl->segs, &pl->cap_segs, pl->nsegs, sizeof *pl->segs)) return pl->err.status;
  /* (a NaN coordinate stays NaN here, where fmin would drop it) */
  cb_box extent = cb_box_grow(
      (cb_box){x0 < x1 ? x0 : x1, y0 < y1 ? y0 : y1, x0 < x1 ? x1 : x0, y0 < y1 ? y1 : y0}, half_width);
  if (isnan(x0) || isnan(x1)) extent.x0 = extent.x1 = NAN;
  if (isnan(y0) || isnan(y1)) extent.y0 = extent.y1 = NAN;
  if (index_obstacle(pl, extent, (int)pl->nsegs * KINDS + KIND_SEG)) return pl->err.status;
  pl->segs[pl->nsegs++] = (seg){x0, y0, x1, y1, half_width};
  return CB_OK;
}

cb_status cb_place_circle(cb_place *pl, double cx, double cy, double r) {
  if (more(pl, &pl->circs, &pl->cap_circs, pl->ncircs, sizeof *pl->circs) ||
      index_obstacle(pl, (cb_box){cx - r, cy - r, cx + r, cy + r}, (int)pl->ncircs * KINDS + KIND_CIRC))
    return pl->err.status;
  pl->circs[pl->ncircs++] = (circ){cx, cy, r};
  return CB_OK;
}

cb_status cb_place_box(cb_place *pl, cb_box b) {
  if (more(pl, &pl->boxes, &pl->cap_boxes, pl->nboxes, sizeof *pl->boxes) ||
      index_obstacle(pl, b, (int)pl->nboxes * KINDS + KIND_BOX))
    return pl->err.status;
  pl->boxes[pl->nboxes++] = b;
  return CB_OK;
}

cb_box cb_box_centered(double cx, double cy, double w, double h) {
  return (cb_box){cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2};
}

cb_box cb_box_grow(cb_box b, double by) { return (cb_box){b.x0 - by, b.y0 - by, b.x1 + by, b.y1 + by}; }

static int boxes_meet(cb_box a, cb_box b) { return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1; }

static int circle_meets(circ c, cb_box b) {
  double nx = fmax(b.x0, fmin(c.cx, b.x1)), ny = fmax(b.y0, fmin(c.cy, b.y1));
  return (nx - c.cx) * (nx - c.cx) + (ny - c.cy) * (ny - c.cy) < c.r * c.r;
}

/* Liang-Barsky: does the segment enter the box? */
static int segment_meets(seg s, cb_box b) {
  b = cb_box_grow(b, s.hw);
  double t0 = 0, t1 = 1, dx = s.x1 - s.x0, dy = s.y1 - s.y0;
  const double p[4] = {-dx, dx, -dy, dy}, q[4] = {s.x0 - b.x0, b.x1 - s.x0, s.y0 - b.y0, b.y1 - s.y0};
  for (int i = 0; i < 4; i++) {
    if (p[i] == 0) {
      if (q[i] < 0) return 0;
      continue;
    }
    double t = q[i] / p[i];
    if (p[i] < 0) {
      if (t > t1) return 0;
      if (t > t0) t0 = t;
    } else {
      if (t < t0) return 0;
      if (t < t1) t1 = t;
    }
  }
  return 1;
}

/* What a box b meets: circles (those centred at (cx, cy) left out), boxes and lines, counted, and
 * whether it leaves the bounds. */
typedef struct meets {
  int rooms, boxes, lines;
  bool outside;
} meets;

static meets meets_beside(cb_place *pl, cb_box b, double cx, double cy);

double cb_place_cost(cb_place *pl, cb_box b) { return cb_place_cost_beside(pl, b, NAN, NAN); }

double cb_place_cost_beside(cb_place *pl, cb_box b, double cx, double cy) {
  meets m = meets_beside(pl, b, cx, cy);
  return (m.outside ? COST_OUTSIDE : 0) + COST_ROOM * m.rooms + COST_BOX * m.boxes + COST_LINE * m.lines;
}

double cb_place_cost_covering(cb_place *pl, cb_box b, double cover) {
  meets m = meets_beside(pl, b, NAN, NAN);
  return (m.outside ? COST_OUTSIDE : 0) + cover * (m.rooms + m.boxes) + COST_LINE * m.lines;
}

static meets meets_beside(cb_place *pl, cb_box b, double cx, double cy) {
  meets m = {0, 0, 0, false};
  m.outside = b.x0 < pl->bounds.x0 || b.y0 < pl->bounds.y0 || b.x1 > pl->bounds.x1 || b.y1 > pl->bounds.y1;
  int n = cb_boxgrid_find(pl->grid, b.x0, b.y0, b.x1, b.y1, &pl->near, &pl->cap_near);
  size_t all = pl->nsegs > pl->ncircs ? pl->nsegs : pl->ncircs;
  all = KINDS * (all > pl->nboxes ? all : pl->nboxes);
  if (n < 0) /* the grid ran out of memory: every obstacle, slower, the same sum */
    for (n = 0; (size_t)n < all && (size_t)n < pl->cap_near; n++)
      pl->near[n] = n;
  for (int k = 0; k < n; k++) {
    int id = pl->near[k], i = id / KINDS;
    switch (id % KINDS) {
    case KIND_CIRC:
      m.rooms += (size_t)i < pl->ncircs && !(pl->circs[i].cx == cx && pl->circs[i].cy == cy) &&
                 circle_meets(pl->circs[i], b);
      break;
    case KIND_BOX: m.boxes += (size_t)i < pl->nboxes && boxes_meet(pl->boxes[i], b); break;
    default: m.lines += (size_t)i < pl->nsegs && segment_meets(pl->segs[i], b); break;
    }
  }
  return m;
}
