#include "place.h"

#include <math.h>
#include <stdlib.h>

#include "base/alloc.h"

typedef struct seg {
  double x0, y0, x1, y1, hw;
} seg;
typedef struct circ {
  double cx, cy, r;
} circ;

/* Obstacles are also listed in a bucket grid over the bounds, in every cell
 * their bounding box covers, so that a query looks only at what is near it
 * (placement asks thousands of times a map). Ids: index * 3 + kind. */
enum { KIND_CIRC, KIND_BOX, KIND_SEG, KINDS };
static const double CELL = 16; /* points */
enum { MAX_CELLS_SIDE = 256 };

typedef struct node {
  int next, id;
} node;

struct cb_place {
  cb_box bounds;
  seg *segs;
  circ *circs;
  cb_box *boxes;
  size_t nsegs, ncircs, nboxes, cap_segs, cap_circs, cap_boxes;
  int cols, rows;
  int *head; /* per cell, its first node, -1 when none */
  node *nodes;
  size_t nnodes, cap_nodes;
  unsigned *seen; /* per id, the query that last counted it */
  size_t cap_seen;
  unsigned query;
};

/* Costs of one overlap: leaving the map is worst, covering a room or another
 * label next, crossing a line least (a label may sit on a line if it must). */
static const double COST_OUTSIDE = 1000, COST_ROOM = 120, COST_BOX = 100, COST_LINE = 30;

static int cells_along(double len) {
  double n = ceil(len / CELL);
  return n >= 1 && n <= MAX_CELLS_SIDE ? (int)n : n > MAX_CELLS_SIDE ? MAX_CELLS_SIDE : 1;
}

cb_place *cb_place_new(cb_box bounds) {
  cb_place *pl = cb_calloc(1, sizeof *pl);
  if (!pl) return NULL;
  pl->bounds = bounds;
  pl->cols = cells_along(bounds.x1 - bounds.x0);
  pl->rows = cells_along(bounds.y1 - bounds.y0);
  pl->head = cb_malloc((size_t)pl->cols * (size_t)pl->rows * sizeof *pl->head);
  if (!pl->head) {
    free(pl);
    return NULL;
  }
  for (int i = 0; i < pl->cols * pl->rows; i++)
    pl->head[i] = -1;
  return pl;
}

void cb_place_free(cb_place *pl) {
  if (!pl) return;
  free(pl->segs);
  free(pl->circs);
  free(pl->boxes);
  free(pl->head);
  free(pl->nodes);
  free(pl->seen);
  free(pl);
}

/* The cell column (or row) of coordinate v, clamped: what lies outside the
 * bounds is kept in the border cells. */
static int cell_of(double v, double origin, int n) {
  double c = floor((v - origin) / CELL);
  return c >= 0 ? (c < n ? (int)c : n - 1) : 0; /* NaN goes to 0 */
}

/* The cells b covers: columns [c0, c1], rows [r0, r1]. A NaN edge makes the
 * overlap tests pass along its axis, so that axis is covered whole. */
static void cells(const cb_place *pl, cb_box b, int *c0, int *r0, int *c1, int *r1) {
  *c0 = cell_of(b.x0, pl->bounds.x0, pl->cols), *c1 = cell_of(b.x1, pl->bounds.x0, pl->cols);
  *r0 = cell_of(b.y0, pl->bounds.y0, pl->rows), *r1 = cell_of(b.y1, pl->bounds.y0, pl->rows);
  if (isnan(b.x0) || isnan(b.x1)) *c0 = 0, *c1 = pl->cols - 1;
  if (isnan(b.y0) || isnan(b.y1)) *r0 = 0, *r1 = pl->rows - 1;
  if (*c1 < *c0) *c1 = *c0;
  if (*r1 < *r0) *r1 = *r0;
}

static int index_obstacle(cb_place *pl, cb_box extent, int id) {
  if (cb_grow(&pl->seen, &pl->cap_seen, (size_t)id + 1, sizeof *pl->seen)) return -1;
  pl->seen[id] = 0;
  int c0, r0, c1, r1;
  cells(pl, extent, &c0, &r0, &c1, &r1);
  size_t need = pl->nnodes + (size_t)(c1 - c0 + 1) * (size_t)(r1 - r0 + 1);
  if (cb_grow(&pl->nodes, &pl->cap_nodes, need, sizeof *pl->nodes)) return -1;
  for (int r = r0; r <= r1; r++)
    for (int c = c0; c <= c1; c++) {
      int cell = r * pl->cols + c;
      pl->nodes[pl->nnodes] = (node){pl->head[cell], id};
      pl->head[cell] = (int)pl->nnodes++;
    }
  return 0;
}

int cb_place_segment(cb_place *pl, double x0, double y0, double x1, double y1, double half_width) {
  if (cb_grow(&pl->segs, &pl->cap_segs, pl->nsegs + 1, sizeof *pl->segs)) return -1;
  /* (a NaN coordinate stays NaN here, where fmin would drop it) */
  cb_box extent = cb_box_grow(
      (cb_box){x0 < x1 ? x0 : x1, y0 < y1 ? y0 : y1, x0 < x1 ? x1 : x0, y0 < y1 ? y1 : y0}, half_width);
  if (isnan(x0) || isnan(x1)) extent.x0 = extent.x1 = NAN;
  if (isnan(y0) || isnan(y1)) extent.y0 = extent.y1 = NAN;
  if (index_obstacle(pl, extent, (int)pl->nsegs * KINDS + KIND_SEG)) return -1;
  pl->segs[pl->nsegs++] = (seg){x0, y0, x1, y1, half_width};
  return 0;
}

int cb_place_circle(cb_place *pl, double cx, double cy, double r) {
  if (cb_grow(&pl->circs, &pl->cap_circs, pl->ncircs + 1, sizeof *pl->circs)) return -1;
  if (index_obstacle(pl, (cb_box){cx - r, cy - r, cx + r, cy + r}, (int)pl->ncircs * KINDS + KIND_CIRC))
    return -1;
  pl->circs[pl->ncircs++] = (circ){cx, cy, r};
  return 0;
}

int cb_place_box(cb_place *pl, cb_box b) {
  if (cb_grow(&pl->boxes, &pl->cap_boxes, pl->nboxes + 1, sizeof *pl->boxes)) return -1;
  if (index_obstacle(pl, b, (int)pl->nboxes * KINDS + KIND_BOX)) return -1;
  pl->boxes[pl->nboxes++] = b;
  return 0;
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

double cb_place_cost(cb_place *pl, cb_box b) {
  double cost = 0;
  if (b.x0 < pl->bounds.x0 || b.y0 < pl->bounds.y0 || b.x1 > pl->bounds.x1 || b.y1 > pl->bounds.y1)
    cost += COST_OUTSIDE;
  if (++pl->query == 0) { /* wrapped: forget every stamp */
    for (size_t i = 0; i < pl->cap_seen; i++)
      pl->seen[i] = 0;
    pl->query = 1;
  }
  int c0, r0, c1, r1;
  cells(pl, b, &c0, &r0, &c1, &r1);
  for (int r = r0; r <= r1; r++)
    for (int c = c0; c <= c1; c++)
      for (int k = pl->head[r * pl->cols + c]; k >= 0; k = pl->nodes[k].next) {
        int id = pl->nodes[k].id;
        if (pl->seen[id] == pl->query) continue;
        pl->seen[id] = pl->query;
        int i = id / KINDS;
        switch (id % KINDS) {
        case KIND_CIRC: cost += circle_meets(pl->circs[i], b) ? COST_ROOM : 0; break;
        case KIND_BOX: cost += boxes_meet(pl->boxes[i], b) ? COST_BOX : 0; break;
        default: cost += segment_meets(pl->segs[i], b) ? COST_LINE : 0; break;
        }
      }
  return cost;
}
