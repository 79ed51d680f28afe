#include "ortho.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

static const double EPS = 1e-6;
static const int DX[4] = {0, 1, 0, -1}, DY[4] = {-1, 0, 1, 0};

/* Edges lying on one family of lines (horizontal edges lie on the y lines
 * and step along the x lines): cost[line * (nstep - 1) + step] is what the
 * edge costs beyond its length, INFINITY when blocked. */
typedef struct family {
  const double *line, *step;
  int nline, nstep;
  double *cost;
} family;

typedef struct grid {
  double x0, y0, x1, y1; /* the window */
  double *xs, *ys;
  int nx, ny;
  family h, v;
} grid;

static int cmp_double(const void *pa, const void *pb) {
  double a = *(const double *)pa, b = *(const double *)pb;
  return (a > b) - (a < b);
}

/* First index whose value is at least v (less a hair). */
static int lower(const double *a, int n, double v) {
  int lo = 0, hi = n;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (a[mid] < v - EPS)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* Sorts the n values in a, keeps those inside [lo, hi] once each; returns the count. */
static int tidy_lines(double *a, int n, double lo, double hi) {
  qsort(a, (size_t)n, sizeof *a, cmp_double);
  int k = 0;
  for (int i = 0; i < n; i++)
    if (a[i] > lo - EPS && a[i] < hi + EPS && (k == 0 || a[i] - a[k - 1] > EPS)) a[k++] = a[i];
  return k;
}

/* The lines of the grid: the window's edges, the start, the goals, and each
 * block's edges with lines `pad` outside them. 0, or -1 on OOM. */
static int make_lines(const cb_ortho_problem *pr, grid *g) {
  double x0 = pr->from.x, y0 = pr->from.y, x1 = x0, y1 = y0;
  for (int i = 0; i < pr->ngoals; i++) {
    x0 = fmin(x0, pr->goals[i].at.x), x1 = fmax(x1, pr->goals[i].at.x);
    y0 = fmin(y0, pr->goals[i].at.y), y1 = fmax(y1, pr->goals[i].at.y);
  }
  x0 -= pr->margin, y0 -= pr->margin, x1 += pr->margin, y1 += pr->margin;
  g->x0 = x0, g->y0 = y0, g->x1 = x1, g->y1 = y1;
  size_t cap = 3 + (size_t)pr->ngoals + 4 * (size_t)pr->nblocks;
  g->xs = cb_malloc(cap * sizeof *g->xs);
  g->ys = cb_malloc(cap * sizeof *g->ys);
  if (!g->xs || !g->ys) return -1;
  int nx = 0, ny = 0;
  g->xs[nx++] = x0, g->ys[ny++] = y0;
  g->xs[nx++] = x1, g->ys[ny++] = y1;
  g->xs[nx++] = pr->from.x, g->ys[ny++] = pr->from.y;
  for (int i = 0; i < pr->ngoals; i++)
    g->xs[nx++] = pr->goals[i].at.x, g->ys[ny++] = pr->goals[i].at.y;
  /* only lines inside the window count: leave the rest out before sorting */
  for (int i = 0; i < pr->nblocks; i++) {
    const cb_ortho_block *b = &pr->blocks[i];
    double xv[4] = {b->x0, b->x1, b->x0 - pr->pad, b->x1 + pr->pad};
    double yv[4] = {b->y0, b->y1, b->y0 - pr->pad, b->y1 + pr->pad};
    for (int k = 0; k < 4; k++) {
      if (xv[k] > x0 - EPS && xv[k] < x1 + EPS) g->xs[nx++] = xv[k];
      if (yv[k] > y0 - EPS && yv[k] < y1 + EPS) g->ys[ny++] = yv[k];
    }
  }
  g->nx = tidy_lines(g->xs, nx, x0, x1);
  g->ny = tidy_lines(g->ys, ny, y0, y1);
  return 0;
}

static void add_cost(family *f, int line, int step, double c) {
  double *e = &f->cost[line * (f->nstep - 1) + step];
  *e = c == INFINITY ? INFINITY : *e + c;
}

/* A block: edges on lines strictly inside (l0, l1) whose steps lie in
 * [s0, s1] are blocked; edges along its sides cost `hug` a unit. */
static void mark_block(family *f, double l0, double l1, double s0, double s1, double hug) {
  for (int line = lower(f->line, f->nline, l0); line < f->nline && f->line[line] < l1 + EPS; line++) {
    bool side = f->line[line] < l0 + EPS || f->line[line] > l1 - EPS;
    if (side && hug <= 0) continue;
    for (int st = lower(f->step, f->nstep, s0); st + 1 < f->nstep && f->step[st + 1] < s1 + EPS; st++)
      add_cost(f, line, st, side ? hug * (f->step[st + 1] - f->step[st]) : INFINITY);
  }
}

/* A segment on line c from s0 to s1 of family `along`: the edges of family
 * `across` it cuts pay `cross` (a half-open step, so that a route through a
 * node pays once); edges on its line pay `along` a unit they run on it,
 * edges on lines closer than `near` pay `crowd` a unit they run beside it. */
static void mark_segment(const cb_ortho_problem *pr, family *along, family *across, double c, double s0,
                         double s1) {
  int cut = lower(across->step, across->nstep, c);
  if (cut >= 1 && cut < across->nstep)
    for (int line = lower(across->line, across->nline, s0);
         line < across->nline && across->line[line] < s1 + EPS; line++)
      add_cost(across, line, cut - 1, pr->cross);
  double reach = fmax(pr->near, 2 * EPS);
  for (int line = lower(along->line, along->nline, c - reach);
       line < along->nline && along->line[line] < c + reach - EPS; line++) {
    double gap = fabs(along->line[line] - c);
    if (gap > EPS && (pr->crowd <= 0 || gap > pr->near - EPS)) continue;
    if (gap <= EPS && pr->along <= 0) continue;
    int first = lower(along->step, along->nstep, s0) - 1;
    for (int st = first < 0 ? 0 : first; st + 1 < along->nstep; st++) {
      if (along->step[st] > s1 - EPS) break;
      double over = fmin(s1, along->step[st + 1]) - fmax(s0, along->step[st]);
      if (over > EPS) add_cost(along, line, st, (gap <= EPS ? pr->along : pr->crowd) * over);
    }
  }
}

/* Does the box [x0, x1] x [y0, y1] lie more than `slack` outside the window?
 * Then it marks no edge of the grid. */
static bool far_off(const grid *g, double x0, double y0, double x1, double y1, double slack) {
  return x1 < g->x0 - slack || x0 > g->x1 + slack || y1 < g->y0 - slack || y0 > g->y1 + slack;
}

static int make_grid(const cb_ortho_problem *pr, grid *g) {
  if (make_lines(pr, g)) return -1;
  if (g->nx > pr->max_lines || g->ny > pr->max_lines || g->nx < 2 || g->ny < 2) return 0;
  g->h = (family){g->ys, g->xs, g->ny, g->nx, cb_calloc((size_t)g->ny * (size_t)(g->nx - 1), sizeof(double))};
  g->v = (family){g->xs, g->ys, g->nx, g->ny, cb_calloc((size_t)g->nx * (size_t)(g->ny - 1), sizeof(double))};
  if (!g->h.cost || !g->v.cost) return -1;
  for (int i = 0; i < pr->nblocks; i++) {
    const cb_ortho_block *b = &pr->blocks[i];
    if (far_off(g, b->x0, b->y0, b->x1, b->y1, 1)) continue;
    mark_block(&g->h, b->y0, b->y1, b->x0, b->x1, pr->hug);
    mark_block(&g->v, b->x0, b->x1, b->y0, b->y1, pr->hug);
  }
  for (int i = 0; i < pr->nsegs; i++) {
    cb_point a = pr->segs[2 * i], b = pr->segs[2 * i + 1];
    if (fabs(a.x - b.x) < EPS && fabs(a.y - b.y) < EPS) continue;
    if (far_off(g, fmin(a.x, b.x), fmin(a.y, b.y), fmax(a.x, b.x), fmax(a.y, b.y), fmax(pr->near, 0) + 1))
      continue;
    if (fabs(a.x - b.x) < EPS)
      mark_segment(pr, &g->v, &g->h, a.x, fmin(a.y, b.y), fmax(a.y, b.y));
    else if (fabs(a.y - b.y) < EPS)
      mark_segment(pr, &g->h, &g->v, a.y, fmin(a.x, b.x), fmax(a.x, b.x));
  }
  return 1;
}

/* ---- the search: states are (node, the way it was entered) ---- */

typedef struct item {
  double key;
  int state;
} item;

typedef struct heap {
  item *a;
  size_t n, cap;
} heap;

static int heap_push(heap *h, double key, int state) {
  if (cb_grow(&h->a, &h->cap, h->n + 1, sizeof *h->a)) return -1;
  size_t i = h->n++;
  while (i > 0 && h->a[(i - 1) / 2].key > key) {
    h->a[i] = h->a[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  h->a[i] = (item){key, state};
  return 0;
}

static item heap_pop(heap *h) {
  item top = h->a[0], last = h->a[--h->n];
  size_t i = 0;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= h->n) break;
    if (c + 1 < h->n && h->a[c + 1].key < h->a[c].key) c++;
    if (h->a[c].key >= last.key) break;
    h->a[i] = h->a[c];
    i = c;
  }
  if (h->n) h->a[i] = last;
  return top;
}

typedef struct search {
  const cb_ortho_problem *pr;
  const grid *g;
  double *dist;
  int *prev;
  int *goal_at; /* per node: the first goal there, -1 if none */
  double *h;    /* per node: to_goal, -1 until asked */
  int nstates;  /* node states; goal k's end state is nstates + k */
  heap open;
} search;

/* The heuristic: the distance to the nearest goal, worked out once a node. */
static double to_goal(search *s, int node) {
  if (s->h[node] >= 0) return s->h[node];
  double x = s->g->xs[node % s->g->nx], y = s->g->ys[node / s->g->nx], best = INFINITY;
  for (int k = 0; k < s->pr->ngoals; k++)
    best = fmin(best, fabs(x - s->pr->goals[k].at.x) + fabs(y - s->pr->goals[k].at.y));
  return s->h[node] = best;
}

static int relax(search *s, int from, int to, double cost, double h) {
  if (cost >= s->dist[to]) return 0;
  s->dist[to] = cost;
  s->prev[to] = from;
  return heap_push(&s->open, cost + h, to);
}

/* The cost of the edge leaving node (i, j) in direction d, beyond its length and bends. */
static double edge_cost(const grid *g, int i, int j, int d) {
  if (d == CB_ORTHO_E) return g->h.cost[j * (g->nx - 1) + i];
  if (d == CB_ORTHO_W) return g->h.cost[j * (g->nx - 1) + i - 1];
  if (d == CB_ORTHO_S) return g->v.cost[i * (g->ny - 1) + j];
  return g->v.cost[i * (g->ny - 1) + j - 1];
}

/* From state st: on to the neighbours (straight or turning, never back), and into a goal here. */
static int expand(search *s, int st) {
  const grid *g = s->g;
  int node = st / 4, d = st % 4, i = node % g->nx, j = node / g->nx;
  double here = s->dist[st];
  for (int k = s->goal_at[node]; k >= 0 && k < s->pr->ngoals; k++) {
    const cb_ortho_goal *gl = &s->pr->goals[k];
    if (fabs(gl->at.x - g->xs[i]) > EPS || fabs(gl->at.y - g->ys[j]) > EPS) continue;
    if (gl->dir == (d + 2) % 4) continue;
    double c = here + (gl->dir == d ? 0 : s->pr->bend) + gl->cost;
    if (relax(s, st, s->nstates + k, c, 0)) return -1;
  }
  for (int turn = -1; turn <= 1; turn++) {
    int nd = (d + 4 + turn) % 4, ni = i + DX[nd], nj = j + DY[nd];
    if (ni < 0 || nj < 0 || ni >= g->nx || nj >= g->ny) continue;
    double extra = edge_cost(g, i, j, nd);
    if (extra == INFINITY) continue;
    double len = fabs(g->xs[ni] - g->xs[i]) + fabs(g->ys[nj] - g->ys[j]);
    int to = (nj * g->nx + ni) * 4 + nd;
    if (relax(s, st, to, here + len + extra + (turn ? s->pr->bend : 0), to_goal(s, to / 4))) return -1;
  }
  return 0;
}

/* The corners of the route ending in state `end`, start first, into out. */
static int corners(const search *s, int end, cb_point *out, int max) {
  int n = 0, st = s->prev[end];
  int last_dir = -1;
  while (st >= 0) {
    int node = st / 4, d = st % 4;
    cb_point p = {s->g->xs[node % s->g->nx], s->g->ys[node / s->g->nx]};
    /* keep a point where the way changes (walking backwards: the way we left it) */
    if (n == 0 || d != last_dir || s->prev[st] < 0) {
      if (n >= max) return 0;
      out[n++] = p;
    }
    last_dir = d;
    st = s->prev[st];
  }
  for (int a = 0, b = n - 1; a < b; a++, b--) {
    cb_point t = out[a];
    out[a] = out[b];
    out[b] = t;
  }
  return n;
}

static int run(search *s, cb_point *out, int max, int *goal, double *cost) {
  const grid *g = s->g;
  int start = lower(g->ys, g->ny, s->pr->from.y) * g->nx + lower(g->xs, g->nx, s->pr->from.x);
  for (int k = s->pr->ngoals - 1; k >= 0; k--) {
    int node = lower(g->ys, g->ny, s->pr->goals[k].at.y) * g->nx + lower(g->xs, g->nx, s->pr->goals[k].at.x);
    if (node != start) s->goal_at[node] = k;
  }
  if (relax(s, -1, start * 4 + s->pr->dir, 0, to_goal(s, start))) return -1;
  while (s->open.n) {
    item it = heap_pop(&s->open);
    if (it.state >= s->nstates) {
      *goal = it.state - s->nstates;
      *cost = s->dist[it.state];
      return corners(s, it.state, out, max);
    }
    if (it.key > s->dist[it.state] + to_goal(s, it.state / 4) + EPS) continue; /* stale */
    if (expand(s, it.state)) return -1;
  }
  return 0;
}

int cb_ortho_route(const cb_ortho_problem *pr, cb_point *out, int max, int *goal, double *cost) {
  grid g = {0};
  search s = {pr, &g, NULL, NULL, NULL, NULL, 0, {0}};
  int n = pr->ngoals > 0 ? make_grid(pr, &g) : 0;
  if (n > 0) {
    s.nstates = g.nx * g.ny * 4;
    size_t total = (size_t)s.nstates + (size_t)pr->ngoals;
    s.dist = cb_malloc(total * sizeof *s.dist);
    s.prev = cb_malloc(total * sizeof *s.prev);
    size_t nodes = (size_t)g.nx * (size_t)g.ny;
    s.goal_at = cb_malloc(nodes * sizeof *s.goal_at);
    s.h = cb_malloc(nodes * sizeof *s.h);
    if (!s.dist || !s.prev || !s.goal_at || !s.h) {
      n = -1;
    } else {
      for (size_t i = 0; i < total; i++)
        s.dist[i] = INFINITY, s.prev[i] = -1;
      for (size_t i = 0; i < nodes; i++)
        s.h[i] = -1;
      memset(s.goal_at, 0xff, nodes * sizeof *s.goal_at);
      n = run(&s, out, max, goal, cost);
    }
  }
  free(g.xs);
  free(g.ys);
  free(g.h.cost);
  free(g.v.cost);
  free(s.dist);
  free(s.prev);
  free(s.goal_at);
  free(s.h);
  free(s.open.a);
  return n;
}
