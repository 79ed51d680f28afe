#include "segment.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "boxgrid.h"

static double orient(cb_point a, cb_point b, cb_point c) {
  return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
}

static bool same(cb_point a, cb_point b) { return a.x == b.x && a.y == b.y; }

static bool on_segment(cb_point a, cb_point b, cb_point p) {
  return fmin(a.x, b.x) <= p.x && p.x <= fmax(a.x, b.x) && fmin(a.y, b.y) <= p.y && p.y <= fmax(a.y, b.y);
}

bool cb_segments_cross(cb_point a, cb_point b, cb_point c, cb_point d) {
  double d1 = orient(c, d, a), d2 = orient(c, d, b), d3 = orient(a, b, c), d4 = orient(a, b, d);
  bool shared = same(a, c) || same(a, d) || same(b, c) || same(b, d);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)))
    return !shared;
  if (d1 == 0 && d2 == 0) {
    /* collinear: overlapping beyond a single shared endpoint is a crossing */
    if (!on_segment(a, b, c) && !on_segment(a, b, d) && !on_segment(c, d, a) && !on_segment(c, d, b))
      return false;
    if (!shared) return true;
    cb_point s = same(a, c) || same(a, d) ? a : b;
    cb_point o1 = same(s, a) ? b : a, o2 = same(s, c) ? d : c;
    return (o1.x - s.x) * (o2.x - s.x) + (o1.y - s.y) * (o2.y - s.y) > 0;
  }
  if (shared) return false;
  if (d1 == 0 && on_segment(c, d, a)) return true;
  if (d2 == 0 && on_segment(c, d, b)) return true;
  if (d3 == 0 && on_segment(a, b, c)) return true;
  if (d4 == 0 && on_segment(a, b, d)) return true;
  return false;
}

/* which side of line a-b point (x, y) lies on: -1, 0 or 1 */
static int side_of(cb_point a, cb_point b, double x, double y) {
  double z = orient(a, b, (cb_point){x, y});
  return (z > 0) - (z < 0);
}

bool cb_segment_meets_box(cb_point a, cb_point b, const double box[4]) {
  if (fmax(a.x, b.x) < box[0] || fmin(a.x, b.x) > box[2] || fmax(a.y, b.y) < box[1] ||
      fmin(a.y, b.y) > box[3])
    return false;
  if ((a.x >= box[0] && a.x <= box[2] && a.y >= box[1] && a.y <= box[3]) ||
      (b.x >= box[0] && b.x <= box[2] && b.y >= box[1] && b.y <= box[3]))
    return true;
  /* the line meets the box unless all four corners lie strictly on one side of it */
  int s0 = side_of(a, b, box[0], box[1]), s1 = side_of(a, b, box[2], box[1]),
      s2 = side_of(a, b, box[2], box[3]), s3 = side_of(a, b, box[0], box[3]);
  return !(s0 == s1 && s1 == s2 && s2 == s3 && s0 != 0);
}

double cb_point_segment_dist2(cb_point p, cb_point a, cb_point b) {
  double dx = b.x - a.x, dy = b.y - a.y, len2 = dx * dx + dy * dy;
  double t = len2 > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2 : 0;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  double qx = a.x + t * dx - p.x, qy = a.y + t * dy - p.y;
  return qx * qx + qy * qy;
}

/* Points and segments are filed by their boxes in two spatial grids. */
struct cb_seggrid {
  cb_point *pts;
  int n;
  cb_boxgrid *points, *segs;
  int *seg_a, *seg_b;
  size_t nsegs, cap_a, cap_b;
  int *near; /* what a search lists; room for every point and segment */
  size_t cap_near;
};

cb_seggrid *cb_seggrid_new(const cb_point *pts, int n, double cell) {
  cb_seggrid *g = cb_calloc(1, sizeof *g);
  if (!g) return NULL;
  if (!(cell > 0)) cell = 1;
  g->n = n;
  g->pts = cb_malloc((size_t)(n ? n : 1) * sizeof *g->pts);
  g->points = cb_boxgrid_new(cell), g->segs = cb_boxgrid_new(cell);
  if (!g->pts || !g->points || !g->segs || cb_grow(&g->near, &g->cap_near, (size_t)n + 1, sizeof *g->near)) {
    cb_seggrid_free(g);
    return NULL;
  }
  memcpy(g->pts, pts, (size_t)n * sizeof *pts);
  for (int i = 0; i < n; i++)
    if (cb_boxgrid_add(g->points, i, pts[i].x, pts[i].y, pts[i].x, pts[i].y)) {
      cb_seggrid_free(g);
      return NULL;
    }
  return g;
}

void cb_seggrid_free(cb_seggrid *g) {
  if (!g) return;
  free(g->pts);
  cb_boxgrid_free(g->points);
  cb_boxgrid_free(g->segs);
  free(g->seg_a);
  free(g->seg_b);
  free(g->near);
  free(g);
}

int cb_seggrid_add(cb_seggrid *g, int a, int b) {
  size_t s = g->nsegs;
  if (cb_grow(&g->seg_a, &g->cap_a, s + 1, sizeof *g->seg_a) ||
      cb_grow(&g->seg_b, &g->cap_b, s + 1, sizeof *g->seg_b) ||
      cb_grow(&g->near, &g->cap_near, s + 1, sizeof *g->near))
    return -1;
  cb_point pa = g->pts[a], pb = g->pts[b];
  if (cb_boxgrid_add(g->segs, (int)s, fmin(pa.x, pb.x), fmin(pa.y, pb.y), fmax(pa.x, pb.x), fmax(pa.y, pb.y)))
    return -1;
  g->seg_a[s] = a;
  g->seg_b[s] = b;
  g->nsegs++;
  return 0;
}

/* The ids filed in grid near the box of segment a-b grown by r; should the
 * grid run out of memory, every id below all (slower, the same answer). */
static int near(cb_seggrid *g, cb_boxgrid *grid, int a, int b, double r, int all) {
  cb_point pa = g->pts[a], pb = g->pts[b];
  int n = cb_boxgrid_find(grid, fmin(pa.x, pb.x) - r, fmin(pa.y, pb.y) - r, fmax(pa.x, pb.x) + r,
                          fmax(pa.y, pb.y) + r, &g->near, &g->cap_near);
  if (n < 0)
    for (n = 0; n < all; n++)
      g->near[n] = n;
  return n;
}

bool cb_seggrid_crosses(cb_seggrid *g, int a, int b) {
  int n = near(g, g->segs, a, b, 0, (int)g->nsegs);
  for (int k = 0; k < n; k++) {
    int s = g->near[k];
    if (cb_segments_cross(g->pts[a], g->pts[b], g->pts[g->seg_a[s]], g->pts[g->seg_b[s]])) return true;
  }
  return false;
}

bool cb_seggrid_near_point(cb_seggrid *g, int a, int b, double r) {
  int n = near(g, g->points, a, b, r, g->n);
  for (int k = 0; k < n; k++) {
    int p = g->near[k];
    if (p != a && p != b && cb_point_segment_dist2(g->pts[p], g->pts[a], g->pts[b]) < r * r) return true;
  }
  return false;
}
