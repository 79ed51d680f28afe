#include "delaunay.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libqhull_r/libqhull_r.h>

#include "base/alloc.h"

static int edge_cmp(const void *pa, const void *pb) {
  const cb_edge *a = pa, *b = pb;
  if (a->a != b->a) return a->a < b->a ? -1 : 1;
  return (a->b > b->b) - (a->b < b->b);
}

static int order_cmp(const void *pa, const void *pb, void *ctx);

/* Collinear (or too few) points: join each point to the next along the line. */
static cb_status path_along_line(const cb_point *pts, int n, cb_edge **edges, int *nedges, cb_error *err) {
  int *order = cb_malloc((size_t)(n > 0 ? n : 1) * sizeof *order);
  cb_edge *e = cb_malloc((size_t)(n > 1 ? n - 1 : 1) * sizeof *e);
  if (!order || !e) {
    free(order);
    free(e);
    return cb_error_oom(err);
  }
  for (int i = 0; i < n; i++)
    order[i] = i;
  /* insertion sort by (x, y): n is small here or the points are on a line */
  for (int i = 1; i < n; i++) {
    int v = order[i], j = i;
    while (j > 0 && order_cmp(&order[j - 1], &v, (void *)pts) > 0) {
      order[j] = order[j - 1];
      j--;
    }
    order[j] = v;
  }
  for (int i = 0; i + 1 < n; i++) {
    int a = order[i], b = order[i + 1];
    e[i].a = a < b ? a : b;
    e[i].b = a < b ? b : a;
  }
  free(order);
  *nedges = n > 1 ? n - 1 : 0;
  qsort(e, (size_t)*nedges, sizeof *e, edge_cmp);
  *edges = e;
  return CB_OK;
}

static int order_cmp(const void *pa, const void *pb, void *ctx) {
  const cb_point *pts = ctx;
  const cb_point *a = &pts[*(const int *)pa], *b = &pts[*(const int *)pb];
  if (a->x != b->x) return a->x < b->x ? -1 : 1;
  return (a->y > b->y) - (a->y < b->y);
}

static int all_collinear(const cb_point *p, int n) {
  for (int i = 2; i < n; i++) {
    double cross = (p[1].x - p[0].x) * (p[i].y - p[0].y) - (p[1].y - p[0].y) * (p[i].x - p[0].x);
    if (cross != 0.0) return 0;
  }
  return 1;
}

static cb_status run_qhull(const cb_point *pts, int n, const char *flags, cb_edge **edges, int *nedges,
                           cb_error *err) {
  coordT *coords = cb_malloc((size_t)n * 2 * sizeof *coords);
  size_t cap = 0, count = 0;
  cb_edge *e = NULL;
  if (!coords) return cb_error_oom(err);
  for (int i = 0; i < n; i++) {
    coords[2 * i] = pts[i].x;
    coords[2 * i + 1] = pts[i].y;
  }
  qhT qh_qh;
  qhT *qh = &qh_qh;
  QHULL_LIB_CHECK
  FILE *quiet = fopen("/dev/null", "w"); /* qhull reports its errors here; we report our own */
  qh_zero(qh, quiet);
  char cmd[64];
  snprintf(cmd, sizeof cmd, "qhull d %s", flags);
  int code = qh_new_qhull(qh, 2, n, coords, False, cmd, NULL, quiet);
  cb_status st = CB_OK;
  if (code != 0) {
    st = cb_error_set(err, CB_EINTERNAL, "qhull could not triangulate %d points (code %d)", n, code);
  } else {
    facetT *facet;
    vertexT *vertex, **vertexp;
    FORALLfacets {
      if (facet->upperdelaunay) continue;
      int v[3], k = 0;
      FOREACHvertex_(facet->vertices) {
        if (k < 3) v[k] = qh_pointid(qh, vertex->point);
        k++;
      }
      if (k != 3) continue;
      if (cb_grow(&e, &cap, count + 3, sizeof *e)) {
        st = cb_error_oom(err);
        break;
      }
      for (int s = 0; s < 3; s++) {
        int a = v[s], b = v[(s + 1) % 3];
        if (a < 0 || b < 0 || a >= n || b >= n || a == b) continue;
        e[count].a = a < b ? a : b;
        e[count].b = a < b ? b : a;
        count++;
      }
    }
  }
  qh_freeqhull(qh, !qh_ALL);
  int curlong, totlong;
  qh_memfreeshort(qh, &curlong, &totlong);
  if (quiet) fclose(quiet);
  free(coords);
  if (st != CB_OK) {
    free(e);
    return st;
  }
  qsort(e, count, sizeof *e, edge_cmp);
  size_t u = 0;
  for (size_t i = 0; i < count; i++)
    if (u == 0 || edge_cmp(&e[u - 1], &e[i]) != 0) e[u++] = e[i];
  *edges = e;
  *nedges = (int)u;
  return CB_OK;
}

cb_status cb_delaunay(const cb_point *pts, int n, cb_edge **edges, int *nedges, cb_error *err) {
  *edges = NULL;
  *nedges = 0;
  if (n < 0) return cb_error_set(err, CB_EINTERNAL, "negative point count");
  if (n < 3 || all_collinear(pts, n)) return path_along_line(pts, n, edges, nedges, err);
  if (n == 3) {
    cb_edge *e = cb_malloc(3 * sizeof *e);
    if (!e) return cb_error_oom(err);
    e[0] = (cb_edge){0, 1};
    e[1] = (cb_edge){0, 2};
    e[2] = (cb_edge){1, 2};
    *edges = e;
    *nedges = 3;
    return CB_OK;
  }
  cb_error first = {0};
  if (run_qhull(pts, n, "Qt Qbb Qc Qz", edges, nedges, &first) == CB_OK) return CB_OK;
  /* Degenerate input (many cocircular points): joggle, which always triangulates. */
  return run_qhull(pts, n, "QJ Qbb", edges, nedges, err);
}
