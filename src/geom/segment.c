#include "segment.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

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

double cb_point_segment_dist2(cb_point p, cb_point a, cb_point b) {
  double dx = b.x - a.x, dy = b.y - a.y, len2 = dx * dx + dy * dy;
  double t = len2 > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2 : 0;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  double qx = a.x + t * dx - p.x, qy = a.y + t * dy - p.y;
  return qx * qx + qy * qy;
}

typedef struct node {
  int next, seg;
} node;

struct cb_seggrid {
  cb_point *pts;
  int n, cols, rows;
  double x0, y0, cell;
  int *pt_start, *pt_items; /* points per cell, compressed rows */
  int *seg_head;            /* first node per cell, -1 if none */
  node *nodes;
  size_t nnodes, cap_nodes;
  int *seg_a, *seg_b;
  size_t nsegs, cap_a, cap_b;
  unsigned *stamp; /* per segment: last query that looked at it */
  size_t cap_stamp;
  unsigned query;
};

static int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

static void cell_range(const cb_seggrid *g, double x0, double y0, double x1, double y1, int *c0, int *r0,
                       int *c1, int *r1) {
  *c0 = clampi((int)floor((fmin(x0, x1) - g->x0) / g->cell), 0, g->cols - 1);
  *c1 = clampi((int)floor((fmax(x0, x1) - g->x0) / g->cell), 0, g->cols - 1);
  *r0 = clampi((int)floor((fmin(y0, y1) - g->y0) / g->cell), 0, g->rows - 1);
  *r1 = clampi((int)floor((fmax(y0, y1) - g->y0) / g->cell), 0, g->rows - 1);
}

cb_seggrid *cb_seggrid_new(const cb_point *pts, int n, double cell) {
  cb_seggrid *g = cb_calloc(1, sizeof *g);
  if (!g) return NULL;
  double minx = 0, miny = 0, maxx = 0, maxy = 0;
  for (int i = 0; i < n; i++) {
    if (i == 0 || pts[i].x < minx) minx = pts[i].x;
    if (i == 0 || pts[i].y < miny) miny = pts[i].y;
    if (i == 0 || pts[i].x > maxx) maxx = pts[i].x;
    if (i == 0 || pts[i].y > maxy) maxy = pts[i].y;
  }
  if (!(cell > 0)) cell = 1;
  /* keep the cell count near n so that memory stays linear */
  double w = maxx - minx, h = maxy - miny;
  while ((w / cell + 1) * (h / cell + 1) > 4.0 * (n + 16))
    cell *= 1.5;
  g->n = n;
  g->cell = cell;
  g->x0 = minx;
  g->y0 = miny;
  g->cols = (int)(w / cell) + 1;
  g->rows = (int)(h / cell) + 1;
  size_t cells = (size_t)g->cols * (size_t)g->rows;
  g->pts = cb_malloc((size_t)(n ? n : 1) * sizeof *g->pts);
  g->pt_start = cb_calloc(cells + 1, sizeof *g->pt_start);
  g->pt_items = cb_malloc((size_t)(n ? n : 1) * sizeof *g->pt_items);
  g->seg_head = cb_malloc(cells * sizeof *g->seg_head);
  if (!g->pts || !g->pt_start || !g->pt_items || !g->seg_head) {
    cb_seggrid_free(g);
    return NULL;
  }
  memcpy(g->pts, pts, (size_t)n * sizeof *pts);
  for (size_t c = 0; c < cells; c++)
    g->seg_head[c] = -1;
  for (int i = 0; i < n; i++) {
    int c0, r0, c1, r1;
    cell_range(g, pts[i].x, pts[i].y, pts[i].x, pts[i].y, &c0, &r0, &c1, &r1);
    g->pt_start[(size_t)r0 * g->cols + c0 + 1]++;
  }
  for (size_t c = 0; c < cells; c++)
    g->pt_start[c + 1] += g->pt_start[c];
  int *fill = cb_calloc(cells, sizeof *fill);
  if (!fill) {
    cb_seggrid_free(g);
    return NULL;
  }
  for (int i = 0; i < n; i++) {
    int c0, r0, c1, r1;
    cell_range(g, pts[i].x, pts[i].y, pts[i].x, pts[i].y, &c0, &r0, &c1, &r1);
    size_t c = (size_t)r0 * g->cols + c0;
    g->pt_items[g->pt_start[c] + fill[c]++] = i;
  }
  free(fill);
  return g;
}

void cb_seggrid_free(cb_seggrid *g) {
  if (!g) return;
  free(g->pts);
  free(g->pt_start);
  free(g->pt_items);
  free(g->seg_head);
  free(g->nodes);
  free(g->seg_a);
  free(g->seg_b);
  free(g->stamp);
  free(g);
}

int cb_seggrid_add(cb_seggrid *g, int a, int b) {
  size_t s = g->nsegs;
  if (cb_grow(&g->seg_a, &g->cap_a, s + 1, sizeof *g->seg_a) ||
      cb_grow(&g->seg_b, &g->cap_b, s + 1, sizeof *g->seg_b) ||
      cb_grow(&g->stamp, &g->cap_stamp, s + 1, sizeof *g->stamp))
    return -1;
  g->seg_a[s] = a;
  g->seg_b[s] = b;
  g->stamp[s] = 0;
  int c0, r0, c1, r1;
  cell_range(g, g->pts[a].x, g->pts[a].y, g->pts[b].x, g->pts[b].y, &c0, &r0, &c1, &r1);
  size_t need = g->nnodes + (size_t)(c1 - c0 + 1) * (size_t)(r1 - r0 + 1);
  if (cb_grow(&g->nodes, &g->cap_nodes, need, sizeof *g->nodes)) return -1;
  for (int r = r0; r <= r1; r++)
    for (int c = c0; c <= c1; c++) {
      size_t cell = (size_t)r * g->cols + c;
      /* a long segment only needs the cells its line actually passes near */
      double cx0 = g->x0 + c * g->cell, cy0 = g->y0 + r * g->cell;
      cb_point mid = {cx0 + g->cell / 2, cy0 + g->cell / 2};
      if (cb_point_segment_dist2(mid, g->pts[a], g->pts[b]) > g->cell * g->cell) continue;
      g->nodes[g->nnodes] = (node){g->seg_head[cell], (int)s};
      g->seg_head[cell] = (int)g->nnodes++;
    }
  g->nsegs++;
  return 0;
}

bool cb_seggrid_crosses(cb_seggrid *g, int a, int b) {
  if (++g->query == 0) {
    memset(g->stamp, 0, g->nsegs * sizeof *g->stamp);
    g->query = 1;
  }
  int c0, r0, c1, r1;
  cb_point pa = g->pts[a], pb = g->pts[b];
  cell_range(g, pa.x, pa.y, pb.x, pb.y, &c0, &r0, &c1, &r1);
  for (int r = r0; r <= r1; r++)
    for (int c = c0; c <= c1; c++) {
      cb_point mid = {g->x0 + (c + 0.5) * g->cell, g->y0 + (r + 0.5) * g->cell};
      if (cb_point_segment_dist2(mid, pa, pb) > g->cell * g->cell) continue;
      for (int k = g->seg_head[(size_t)r * g->cols + c]; k >= 0; k = g->nodes[k].next) {
        int s = g->nodes[k].seg;
        if (g->stamp[s] == g->query) continue;
        g->stamp[s] = g->query;
        if (cb_segments_cross(pa, pb, g->pts[g->seg_a[s]], g->pts[g->seg_b[s]])) return true;
      }
    }
  return false;
}

bool cb_seggrid_near_point(const cb_seggrid *g, int a, int b, double r) {
  cb_point pa = g->pts[a], pb = g->pts[b];
  int c0, r0, c1, r1;
  cell_range(g, fmin(pa.x, pb.x) - r, fmin(pa.y, pb.y) - r, fmax(pa.x, pb.x) + r, fmax(pa.y, pb.y) + r, &c0,
             &r0, &c1, &r1);
  double reach = g->cell * 0.7072 + r; /* half the cell's diagonal plus r */
  for (int row = r0; row <= r1; row++)
    for (int c = c0; c <= c1; c++) {
      cb_point mid = {g->x0 + (c + 0.5) * g->cell, g->y0 + (row + 0.5) * g->cell};
      if (cb_point_segment_dist2(mid, pa, pb) > reach * reach) continue;
      size_t cell = (size_t)row * g->cols + c;
      for (int k = g->pt_start[cell]; k < g->pt_start[cell + 1]; k++) {
        int p = g->pt_items[k];
        if (p == a || p == b) continue;
        if (cb_point_segment_dist2(g->pts[p], pa, pb) < r * r) return true;
      }
    }
  return false;
}
