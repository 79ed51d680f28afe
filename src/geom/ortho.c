#include "ortho.h"

#include <limits.h>
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

/* Open states by their estimated total, ties to the one nearer the goal
 * (the deeper one): on a grid of even steps ties are many, and going on
 * from the deepest reaches the goal without opening all of them. Then by
 * state, so that the order, and so the route among equals, is the heap's
 * whatever its shape. */
typedef struct item {
  double key, h;
  int state;
} item;

typedef struct heap {
  item *a;
  size_t n, cap;
} heap;

/* Every array a route needs, kept from one route to the next: they only
 * grow, and a state's entries count only while seen[state] holds this
 * round's number, so no route clears them state by state. */
struct cb_ortho_work {
  double *xs, *ys, *hcost, *vcost; /* the grid */
  size_t cap_xs, cap_ys, cap_hcost, cap_vcost;
  double *dist, *h; /* per state: the cost so far; to_goal, NAN until asked */
  int *prev;        /* per state: the state before it, -1 none */
  unsigned *seen;
  size_t cap_dist, cap_h, cap_prev, cap_seen;
  int *goal_at, *xing, *queue; /* per node: the first goal there (-1 none); count_crossings and its rounds */
  size_t cap_goal_at, cap_xing, cap_queue;
  heap open;
  unsigned round;
};

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
static int make_lines(const cb_ortho_problem *pr, cb_ortho_work *w, grid *g) {
  double x0 = pr->from.x, y0 = pr->from.y, x1 = x0, y1 = y0;
  for (int i = 0; i < pr->ngoals; i++) {
    x0 = fmin(x0, pr->goals[i].at.x), x1 = fmax(x1, pr->goals[i].at.x);
    y0 = fmin(y0, pr->goals[i].at.y), y1 = fmax(y1, pr->goals[i].at.y);
  }
  x0 -= pr->margin, y0 -= pr->margin, x1 += pr->margin, y1 += pr->margin;
  g->x0 = x0, g->y0 = y0, g->x1 = x1, g->y1 = y1;
  size_t cap = 3 + (size_t)pr->ngoals + 4 * (size_t)pr->nblocks + 2 * (size_t)pr->nsegs;
  if (cb_grow(&w->xs, &w->cap_xs, cap, sizeof *w->xs) || cb_grow(&w->ys, &w->cap_ys, cap, sizeof *w->ys))
    return -1;
  g->xs = w->xs, g->ys = w->ys;
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
  /* a route may run beside a segment `near` off it, where it is no longer crowded */
  for (int i = 0; i < pr->nsegs && pr->near > 0; i++) {
    cb_point a = pr->segs[2 * i], b = pr->segs[2 * i + 1];
    bool upright = fabs(a.x - b.x) < EPS;
    if (upright == (fabs(a.y - b.y) < EPS)) continue; /* a point, or not axis-aligned */
    for (int side = -1; side <= 1; side += 2) {
      double c = (upright ? a.x : a.y) + side * pr->near;
      if (upright && c > x0 - EPS && c < x1 + EPS) g->xs[nx++] = c;
      if (!upright && c > y0 - EPS && c < y1 + EPS) g->ys[ny++] = c;
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

static int make_grid(const cb_ortho_problem *pr, cb_ortho_work *w, grid *g) {
  if (make_lines(pr, w, g)) return -1;
  if (g->nx > pr->max_lines || g->ny > pr->max_lines || g->nx < 2 || g->ny < 2) return 0;
  size_t nh = (size_t)g->ny * (size_t)(g->nx - 1), nv = (size_t)g->nx * (size_t)(g->ny - 1);
  if (cb_grow(&w->hcost, &w->cap_hcost, nh, sizeof *w->hcost) ||
      cb_grow(&w->vcost, &w->cap_vcost, nv, sizeof *w->vcost))
    return -1;
  memset(w->hcost, 0, nh * sizeof *w->hcost);
  memset(w->vcost, 0, nv * sizeof *w->vcost);
  g->h = (family){g->ys, g->xs, g->ny, g->nx, w->hcost};
  g->v = (family){g->xs, g->ys, g->nx, g->ny, w->vcost};
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

static bool before(const item *a, const item *b) {
  if (a->key != b->key) return a->key < b->key;
  if (a->h != b->h) return a->h < b->h;
  return a->state < b->state;
}

/* A heap of four children a node: half the depth of a binary one. */
static int heap_push(heap *h, item it) {
  if (h->n == h->cap && cb_grow(&h->a, &h->cap, h->n + 1, sizeof *h->a)) return -1;
  size_t i = h->n++;
  while (i > 0 && before(&it, &h->a[(i - 1) / 4])) {
    h->a[i] = h->a[(i - 1) / 4];
    i = (i - 1) / 4;
  }
  h->a[i] = it;
  return 0;
}

static item heap_pop(heap *h) {
  item top = h->a[0], last = h->a[--h->n];
  size_t i = 0;
  for (;;) {
    size_t c = 4 * i + 1, end = c + 4 < h->n ? c + 4 : h->n;
    if (c >= h->n) break;
    for (size_t k = c + 1; k < end; k++)
      if (before(&h->a[k], &h->a[c])) c = k;
    if (!before(&h->a[c], &last)) break;
    h->a[i] = h->a[c];
    i = c;
  }
  if (h->n) h->a[i] = last;
  return top;
}

typedef struct search {
  const cb_ortho_problem *pr;
  const grid *g;
  cb_ortho_work *w;
  int nstates; /* node states; goal k's end state is nstates + k */
} search;

/* Makes state st this round's (no cost yet, no way in, no heuristic) unless it is already. */
static void visit(search *s, int st) {
  cb_ortho_work *w = s->w;
  if (w->seen[st] == w->round) return;
  w->seen[st] = w->round;
  w->dist[st] = INFINITY;
  w->prev[st] = -1;
  w->h[st] = NAN;
}

/* The cost of the edge leaving node (i, j) in direction d, beyond its length and bends. */
static inline double edge_cost(const grid *g, int i, int j, int d) {
  if (d == CB_ORTHO_E) return g->h.cost[j * (g->nx - 1) + i];
  if (d == CB_ORTHO_W) return g->h.cost[j * (g->nx - 1) + i - 1];
  if (d == CB_ORTHO_S) return g->v.cost[i * (g->ny - 1) + j];
  return g->v.cost[i * (g->ny - 1) + j - 1];
}

/* The fewest bends a route in the open plane makes from moving `dir` to
 * arriving at a point (dx, dy) away moving `goal_dir`, by the goal's way
 * relative to `dir` (0 ahead, 1 right, 2 back, 3 left), then the signs of
 * its distance ahead and to the right (-1, 0, 1 each): found by trying every
 * sequence of up to six legs (tests/geom/test_ortho.c does it again). */
static const unsigned char BENDS[4][3][3] = {
    {{4, 4, 4}, {2, 0, 2}, {2, 0, 2}},
    {{3, 3, 3}, {3, 1, 1}, {3, 1, 1}},
    {{2, 4, 2}, {2, 4, 2}, {2, 4, 2}},
    {{3, 3, 3}, {1, 1, 3}, {1, 1, 3}},
};

static int sign(double v) { return (v > EPS) - (v < -EPS); }

static inline int min_bends(int dir, int goal_dir, double dx, double dy) {
  int right = (dir + 1) % 4;
  return BENDS[(goal_dir - dir + 4) % 4][1 + sign(dx * DX[dir] + dy * DY[dir])]
              [1 + sign(dx * DX[right] + dy * DY[right])];
}

int cb_ortho_min_bends(int dir, int goal_dir, double dx, double dy) {
  return min_bends(dir, goal_dir, dx, dy);
}

/* The heuristic, worked out once a state: the least any way to a goal
 * costs in the open plane (its length, its bends and the goal's own cost),
 * and the fewest crossings any way to a goal must pay. */
static double to_goal(search *s, int st) {
  visit(s, st);
  double *h = &s->w->h[st];
  if (!isnan(*h)) return *h;
  int node = st / 4, d = st % 4;
  double x = s->g->xs[node % s->g->nx], y = s->g->ys[node / s->g->nx], best = INFINITY;
  for (int k = 0; k < s->pr->ngoals; k++) {
    const cb_ortho_goal *gl = &s->pr->goals[k];
    double dx = gl->at.x - x, dy = gl->at.y - y, c = fabs(dx) + fabs(dy) + gl->cost;
    if (c >= best) continue; /* bends only add */
    c += s->pr->bend * min_bends(d, gl->dir, dx, dy);
    if (c < best) best = c;
  }
  int xing = s->w->xing[node];
  if (xing > 0) best += xing * s->pr->cross;
  return *h = best;
}

/* An edge's price in crossings, at most one, for the count below; -1 when blocked. */
static int edge_crossings(const search *s, double extra) {
  if (extra == INFINITY) return -1;
  return s->pr->cross > 0 && s->pr->cross < INFINITY && extra > s->pr->cross - EPS;
}

/* xing[node]: the fewest crossings on any way from the node to a goal's
 * node, the grid's edges priced 0 or 1 (edge_crossings), by a breadth-first
 * search that keeps the 0 edges in its current round. An edge that costs a
 * crossing's price or more pays at least that much, so the count times the
 * price never overstates a route's cost: the heuristic stays admissible and
 * consistent, and a route behind a corridor no longer searches the whole
 * window before crossing it. INT_MAX: no way at all. */
static void count_crossings(search *s) {
  const grid *g = s->g;
  int nodes = g->nx * g->ny, *xing = s->w->xing, nn = 0, nx = 0;
  int *now = s->w->queue, *next = s->w->queue + 4 * (size_t)nodes + 1;
  for (int i = 0; i < nodes; i++) {
    xing[i] = s->w->goal_at[i] >= 0 ? 0 : INT_MAX;
    if (!xing[i]) now[nn++] = i;
  }
  for (int level = 0; nn > 0; level++) {
    for (int q = 0; q < nn; q++) {
      int node = now[q], i = node % g->nx, j = node / g->nx;
      if (xing[node] != level) continue;
      for (int d = 0; d < 4; d++) {
        int ni = i + DX[d], nj = j + DY[d];
        if (ni < 0 || nj < 0 || ni >= g->nx || nj >= g->ny) continue;
        int w = edge_crossings(s, edge_cost(g, i, j, d)), to = nj * g->nx + ni;
        if (w < 0 || xing[to] <= level + w) continue;
        xing[to] = level + w;
        if (w)
          next[nx++] = to;
        else
          now[nn++] = to;
      }
    }
    int *t = now;
    now = next, next = t, nn = nx, nx = 0;
  }
}

static int relax(search *s, int from, int to, double cost, double h) {
  cb_ortho_work *w = s->w;
  visit(s, to);
  if (cost >= w->dist[to]) return 0;
  w->dist[to] = cost;
  w->prev[to] = from;
  return heap_push(&w->open, (item){cost + h, h, to});
}

/* From state st: on to the neighbours (straight or turning, never back), and into a goal here. */
static int expand(search *s, int st) {
  const grid *g = s->g;
  int node = st / 4, d = st % 4, i = node % g->nx, j = node / g->nx;
  double here = s->w->dist[st];
  for (int k = s->w->goal_at[node]; k >= 0 && k < s->pr->ngoals; k++) {
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
    if (relax(s, st, to, here + len + extra + (turn ? s->pr->bend : 0), to_goal(s, to))) return -1;
  }
  return 0;
}

/* The corners of the route ending in state `end`, start first, into out. */
static int corners(const search *s, int end, cb_point *out, int max) {
  const int *prev = s->w->prev;
  int n = 0, st = prev[end];
  int last_dir = -1;
  while (st >= 0) {
    int node = st / 4, d = st % 4;
    cb_point p = {s->g->xs[node % s->g->nx], s->g->ys[node / s->g->nx]};
    /* keep a point where the way changes (walking backwards: the way we left it) */
    if (n == 0 || d != last_dir || prev[st] < 0) {
      if (n >= max) return 0;
      out[n++] = p;
    }
    last_dir = d;
    st = prev[st];
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
  cb_ortho_work *w = s->w;
  int start = lower(g->ys, g->ny, s->pr->from.y) * g->nx + lower(g->xs, g->nx, s->pr->from.x);
  for (int k = s->pr->ngoals - 1; k >= 0; k--) {
    int node = lower(g->ys, g->ny, s->pr->goals[k].at.y) * g->nx + lower(g->xs, g->nx, s->pr->goals[k].at.x);
    if (node != start) w->goal_at[node] = k;
  }
  count_crossings(s);
  if (w->xing[start] == INT_MAX) return 0;
  if (relax(s, -1, start * 4 + s->pr->dir, 0, to_goal(s, start * 4 + s->pr->dir))) return -1;
  while (w->open.n) {
    item it = heap_pop(&w->open);
    if (it.state >= s->nstates) {
      *goal = it.state - s->nstates;
      *cost = w->dist[it.state];
      return corners(s, it.state, out, max);
    }
    if (it.key > w->dist[it.state] + to_goal(s, it.state) + EPS) continue; /* stale */
    if (expand(s, it.state)) return -1;
  }
  return 0;
}

/* Room in w for a search of `states` states on `nodes` nodes, each state
 * unseen in the new round. -1 on OOM. */
static int make_room(cb_ortho_work *w, size_t states, size_t nodes) {
  size_t had = w->cap_seen;
  if (cb_grow(&w->dist, &w->cap_dist, states, sizeof *w->dist) ||
      cb_grow(&w->h, &w->cap_h, states, sizeof *w->h) ||
      cb_grow(&w->prev, &w->cap_prev, states, sizeof *w->prev) ||
      cb_grow(&w->seen, &w->cap_seen, states, sizeof *w->seen) ||
      cb_grow(&w->goal_at, &w->cap_goal_at, nodes, sizeof *w->goal_at) ||
      cb_grow(&w->xing, &w->cap_xing, nodes, sizeof *w->xing) ||
      cb_grow(&w->queue, &w->cap_queue, 8 * nodes + 2, sizeof *w->queue))
    return -1;
  if (w->cap_seen > had) memset(w->seen + had, 0, (w->cap_seen - had) * sizeof *w->seen);
  if (++w->round == 0) { /* the count went round: forget every old round */
    memset(w->seen, 0, w->cap_seen * sizeof *w->seen);
    w->round = 1;
  }
  memset(w->goal_at, 0xff, nodes * sizeof *w->goal_at);
  w->open.n = 0;
  return 0;
}

cb_ortho_work *cb_ortho_work_new(void) { return cb_calloc(1, sizeof(cb_ortho_work)); }

void cb_ortho_work_free(cb_ortho_work *w) {
  if (!w) return;
  free(w->xs);
  free(w->ys);
  free(w->hcost);
  free(w->vcost);
  free(w->dist);
  free(w->h);
  free(w->prev);
  free(w->seen);
  free(w->goal_at);
  free(w->xing);
  free(w->queue);
  free(w->open.a);
  free(w);
}

int cb_ortho_route_in(cb_ortho_work *w, const cb_ortho_problem *pr, cb_point *out, int max, int *goal,
                      double *cost) {
  grid g = {0};
  int n = pr->ngoals > 0 ? make_grid(pr, w, &g) : 0;
  if (n <= 0) return n;
  search s = {pr, &g, w, g.nx * g.ny * 4};
  if (make_room(w, (size_t)s.nstates + (size_t)pr->ngoals, (size_t)g.nx * (size_t)g.ny)) return -1;
  return run(&s, out, max, goal, cost);
}

int cb_ortho_route(const cb_ortho_problem *pr, cb_point *out, int max, int *goal, double *cost) {
  cb_ortho_work *w = cb_ortho_work_new();
  int n = w ? cb_ortho_route_in(w, pr, out, max, goal, cost) : -1;
  cb_ortho_work_free(w);
  return n;
}
