#include "boxgrid.h"

#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

/* A cell of the plane, in a table addressed by a hash of its place. */
typedef struct cell {
  long cx, cy;
  int *ids;
  size_t n, cap;
  int used;
} cell;

struct cb_boxgrid {
  double size;
  cell *cells;
  size_t ncells, cap; /* cap: 0 or a power of two */
  unsigned *seen;     /* per id: the search that last listed it */
  size_t cap_seen;
  unsigned search;
  int *everywhere; /* ids of boxes too wide (or not finite) to file by cell: every search lists them */
  size_t neverywhere, cap_everywhere;
};

/* A box over more cells than this is listed by every search instead. */
static const double MAX_CELLS_A_BOX = 65536;
/* Cells are counted within +-2^40 a side: farther places share the border cells. */
static const double FAR = 1099511627776.0;

cb_boxgrid *cb_boxgrid_new(double side) {
  cb_boxgrid *g = cb_calloc(1, sizeof *g);
  if (g) g->size = side;
  return g;
}

void cb_boxgrid_free(cb_boxgrid *g) {
  if (!g) return;
  for (size_t i = 0; i < g->cap; i++)
    free(g->cells[i].ids);
  free(g->cells);
  free(g->seen);
  free(g->everywhere);
  free(g);
}

/* The slot of cell (cx, cy) in a table of cap slots: its own, or the empty one where it would go. */
static cell *probe(cell *cells, size_t cap, long cx, long cy) {
  uint64_t h = (uint64_t)cx * 0x9E3779B97F4A7C15u ^ (uint64_t)cy * 0xC2B2AE3D27D4EB4Fu;
  for (size_t i = (size_t)(h ^ (h >> 31)) & (cap - 1);; i = (i + 1) & (cap - 1))
    if (!cells[i].used || (cells[i].cx == cx && cells[i].cy == cy)) return &cells[i];
}

/* Room for one more cell, the table at most half full. -1 on OOM. */
static int make_room(cb_boxgrid *g) {
  if (2 * (g->ncells + 1) <= g->cap) return 0;
  size_t cap = g->cap ? 2 * g->cap : 64;
  cell *cells = cb_calloc(cap, sizeof *cells);
  if (!cells) return -1;
  for (size_t i = 0; i < g->cap; i++)
    if (g->cells[i].used) *probe(cells, cap, g->cells[i].cx, g->cells[i].cy) = g->cells[i];
  free(g->cells);
  g->cells = cells, g->cap = cap;
  return 0;
}

static long at(const cb_boxgrid *g, double v) {
  double c = floor(v / g->size);
  return (long)(c < -FAR ? -FAR : c > FAR ? FAR : c);
}

static bool finite_box(double x0, double y0, double x1, double y1) {
  return isfinite(x0) && isfinite(y0) && isfinite(x1) && isfinite(y1);
}

/* The cells box [x0, x1] x [y0, y1] touches (negative when it touches none). */
static double cells_of(const cb_boxgrid *g, double x0, double y0, double x1, double y1) {
  long cx0 = at(g, x0), cx1 = at(g, x1), cy0 = at(g, y0), cy1 = at(g, y1);
  if (cx1 < cx0 || cy1 < cy0) return -1;
  return ((double)cx1 - (double)cx0 + 1) * ((double)cy1 - (double)cy0 + 1);
}

int cb_boxgrid_add(cb_boxgrid *g, int id, double x0, double y0, double x1, double y1) {
  size_t had = g->cap_seen;
  if (cb_grow(&g->seen, &g->cap_seen, (size_t)id + 1, sizeof *g->seen)) return -1;
  memset(g->seen + had, 0, (g->cap_seen - had) * sizeof *g->seen);
  if (!finite_box(x0, y0, x1, y1) || cells_of(g, x0, y0, x1, y1) > MAX_CELLS_A_BOX) {
    if (cb_grow(&g->everywhere, &g->cap_everywhere, g->neverywhere + 1, sizeof *g->everywhere)) return -1;
    g->everywhere[g->neverywhere++] = id;
    return 0;
  }
  for (long cy = at(g, y0); cy <= at(g, y1); cy++)
    for (long cx = at(g, x0); cx <= at(g, x1); cx++) {
      if (make_room(g)) return -1;
      cell *c = probe(g->cells, g->cap, cx, cy);
      if (cb_grow(&c->ids, &c->cap, c->n + 1, sizeof *c->ids)) return -1;
      if (!c->used) *c = (cell){cx, cy, c->ids, 0, c->cap, 1}, g->ncells++;
      c->ids[c->n++] = id;
    }
  return 0;
}

static int cmp_int(const void *pa, const void *pb) {
  int a = *(const int *)pa, b = *(const int *)pb;
  return (a > b) - (a < b);
}

/* Most lists are short: those by insertion, the odd long one by qsort. */
static void sort_ids(int *a, int n) {
  if (n > 32) {
    qsort(a, (size_t)n, sizeof *a, cmp_int);
    return;
  }
  for (int i = 1; i < n; i++) {
    int v = a[i], j = i;
    for (; j > 0 && a[j - 1] > v; j--)
      a[j] = a[j - 1];
    a[j] = v;
  }
}

/* Appends ids[0..count) not listed yet in this search. -1 on OOM. */
static int list_ids(cb_boxgrid *g, const int *from, size_t count, int **ids, size_t *cap, int *n) {
  for (size_t k = 0; k < count; k++) {
    int id = from[k];
    if (g->seen[id] == g->search) continue;
    g->seen[id] = g->search;
    if (cb_grow(ids, cap, (size_t)*n + 1, sizeof **ids)) return -1;
    (*ids)[(*n)++] = id;
  }
  return 0;
}

/* Lists the ids in the cells [cx0, cx1] x [cy0, cy1]: cell by cell, or, when
 * there are more of those than the grid has cells, by reading the cells
 * there are. -1 on OOM. */
static int list_cells(cb_boxgrid *g, long cx0, long cy0, long cx1, long cy1, int **ids, size_t *cap, int *n) {
  if (((double)cx1 - (double)cx0 + 1) * ((double)cy1 - (double)cy0 + 1) > (double)g->ncells) {
    for (size_t i = 0; i < g->cap; i++) {
      const cell *c = &g->cells[i];
      if (c->used && c->cx >= cx0 && c->cx <= cx1 && c->cy >= cy0 && c->cy <= cy1 &&
          list_ids(g, c->ids, c->n, ids, cap, n))
        return -1;
    }
    return 0;
  }
  for (long cy = cy0; cy <= cy1; cy++)
    for (long cx = cx0; cx <= cx1; cx++) {
      const cell *c = probe(g->cells, g->cap, cx, cy);
      if (c->used && list_ids(g, c->ids, c->n, ids, cap, n)) return -1;
    }
  return 0;
}

int cb_boxgrid_find(cb_boxgrid *g, double x0, double y0, double x1, double y1, int **ids, size_t *cap) {
  int n = 0;
  if (++g->search == 0) { /* the count went round: forget every old search */
    memset(g->seen, 0, g->cap_seen * sizeof *g->seen);
    g->search = 1;
  }
  if (list_ids(g, g->everywhere, g->neverywhere, ids, cap, &n)) return -1;
  /* a box with a NaN edge may meet anything: every cell is read */
  bool any = isnan(x0) || isnan(y0) || isnan(x1) || isnan(y1);
  long cx0 = any ? LONG_MIN : at(g, x0), cx1 = any ? LONG_MAX : at(g, x1), cy0 = any ? LONG_MIN : at(g, y0),
       cy1 = any ? LONG_MAX : at(g, y1);
  if (g->ncells && cx0 <= cx1 && cy0 <= cy1 && list_cells(g, cx0, cy0, cx1, cy1, ids, cap, &n)) return -1;
  sort_ids(*ids, n);
  return n;
}
