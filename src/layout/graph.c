#include "graph.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "model/rng.h"

enum { ITERATIONS = 300, MAX_SWAP_ROOMS = 40, SWAP_PASSES = 6, SPREAD_PASSES = 80, RELOCATE_PASSES = 4 };
static const double MIN_GAP = 0.8;   /* rooms at least this far apart (edge length ~1) */
static const double LINE_GAP = 0.38; /* and this far from lines that do not end at them */
static const double MAX_STRETCH = 1.6;
static const uint64_t LAYOUT_STREAM = 0x67726170680000ull; /* "graph": cosmetic, never the dungeon's dice */

/* The level as a plain graph: rooms 0..n-1 (local), edges as index pairs. */
typedef struct gl {
  int n, m;
  int *id; /* room ids */
  int *ea, *eb;
  double *x, *y;
} gl;

static void gl_free(gl *g) {
  free(g->id);
  free(g->ea);
  free(g->eb);
  free(g->x);
  free(g->y);
}

/* The last few levels laid out, before they are fitted to a box: a sheet
 * tries its map at several sizes, and the layout's search, not the box's
 * shape, is what costs. Keyed by the seed and the level's rooms and passages
 * themselves (a players' view of the same dungeon has other ones). Owned by
 * whoever lays out the sheets (one per thread). */
enum { SHAPES = 8 };
struct cb_graph_cache {
  struct shape {
    uint64_t seed;
    gl g; /* the level's graph, its x and y the laid-out places */
  } shape[SHAPES];
  int next;
};

cb_graph_cache *cb_graph_cache_new(void) { return cb_calloc(1, sizeof(cb_graph_cache)); }

void cb_graph_cache_free(cb_graph_cache *c) {
  if (!c) return;
  for (int i = 0; i < SHAPES; i++)
    gl_free(&c->shape[i].g);
  free(c);
}

static bool same_graph(const gl *a, const gl *b) {
  return a->n == b->n && a->m == b->m && !memcmp(a->id, b->id, (size_t)a->n * sizeof *a->id) &&
         !memcmp(a->ea, b->ea, (size_t)a->m * sizeof *a->ea) &&
         !memcmp(a->eb, b->eb, (size_t)a->m * sizeof *a->eb);
}

static const struct shape *shape_find(const cb_graph_cache *c, const gl *g, uint64_t seed) {
  for (int i = 0; c && i < SHAPES; i++)
    if (c->shape[i].g.id && c->shape[i].seed == seed && same_graph(&c->shape[i].g, g)) return &c->shape[i];
  return NULL;
}

/* Keeps a copy of g with the places x, y (nothing when out of memory). */
static void shape_keep(cb_graph_cache *cache, const gl *g, uint64_t seed, const double *x, const double *y) {
  if (!cache) return;
  gl c = {g->n,
          g->m,
          cb_malloc(((size_t)g->n + 1) * sizeof *c.id),
          cb_malloc(((size_t)g->m + 1) * sizeof *c.ea),
          cb_malloc(((size_t)g->m + 1) * sizeof *c.eb),
          cb_malloc(((size_t)g->n + 1) * sizeof *c.x),
          cb_malloc(((size_t)g->n + 1) * sizeof *c.y)};
  if (!c.id || !c.ea || !c.eb || !c.x || !c.y) {
    gl_free(&c);
    return;
  }
  memcpy(c.id, g->id, (size_t)g->n * sizeof *c.id);
  memcpy(c.ea, g->ea, (size_t)g->m * sizeof *c.ea);
  memcpy(c.eb, g->eb, (size_t)g->m * sizeof *c.eb);
  memcpy(c.x, x, (size_t)g->n * sizeof *c.x);
  memcpy(c.y, y, (size_t)g->n * sizeof *c.y);
  struct shape *slot = &cache->shape[cache->next++ % SHAPES];
  gl_free(&slot->g);
  *slot = (struct shape){seed, c};
}

static int edge_cmp(const void *pa, const void *pb) {
  const int *a = pa, *b = pb;
  if (a[0] != b[0]) return a[0] < b[0] ? -1 : 1;
  return (a[1] > b[1]) - (a[1] < b[1]);
}

static int local_index(const gl *g, int id) {
  int lo = 0, hi = g->n - 1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    if (g->id[mid] == id) return mid;
    if (g->id[mid] < id)
      lo = mid + 1;
    else
      hi = mid - 1;
  }
  return -1;
}

/* Rooms of the level and the passages between them, one edge per pair. */
static cb_status gl_build(const cb_dungeon *d, int level, gl *g, cb_error *err) {
  memset(g, 0, sizeof *g);
  for (int i = 0; i < d->nrooms; i++)
    g->n += !level || d->rooms[i].level == level;
  g->id = cb_malloc(((size_t)g->n + 1) * sizeof *g->id);
  g->x = cb_calloc((size_t)g->n + 1, sizeof *g->x);
  g->y = cb_calloc((size_t)g->n + 1, sizeof *g->y);
  int *pairs = cb_malloc(((size_t)d->npassages + 1) * 2 * sizeof *pairs);
  if (!g->id || !g->x || !g->y || !pairs) {
    free(pairs);
    return cb_error_oom(err);
  }
  int k = 0;
  for (int i = 0; i < d->nrooms; i++)
    if (!level || d->rooms[i].level == level) g->id[k++] = d->rooms[i].id;
  int m = 0;
  for (int i = 0; i < d->npassages; i++) {
    int a = local_index(g, d->passages[i].from), b = local_index(g, d->passages[i].to);
    if (a < 0 || b < 0 || a == b) continue;
    pairs[2 * m] = a < b ? a : b;
    pairs[2 * m + 1] = a < b ? b : a;
    m++;
  }
  qsort(pairs, (size_t)m, 2 * sizeof *pairs, edge_cmp);
  g->ea = cb_malloc(((size_t)m + 1) * sizeof *g->ea);
  g->eb = cb_malloc(((size_t)m + 1) * sizeof *g->eb);
  if (!g->ea || !g->eb) {
    free(pairs);
    return cb_error_oom(err);
  }
  for (int i = 0; i < m; i++) {
    if (g->m > 0 && g->ea[g->m - 1] == pairs[2 * i] && g->eb[g->m - 1] == pairs[2 * i + 1]) continue;
    g->ea[g->m] = pairs[2 * i];
    g->eb[g->m] = pairs[2 * i + 1];
    g->m++;
  }
  free(pairs);
  return CB_OK;
}

static double orient(double ax, double ay, double bx, double by, double cx, double cy) {
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

static int segments_cross(const double *x, const double *y, int a, int b, int c, int e) {
  if (a == c || a == e || b == c || b == e) return 0;
  double d1 = orient(x[c], y[c], x[e], y[e], x[a], y[a]), d2 = orient(x[c], y[c], x[e], y[e], x[b], y[b]);
  double d3 = orient(x[a], y[a], x[b], y[b], x[c], y[c]), d4 = orient(x[a], y[a], x[b], y[b], x[e], y[e]);
  return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
}

static int crossings(const gl *g, const double *x, const double *y) {
  int c = 0;
  for (int i = 0; i < g->m; i++)
    for (int j = i + 1; j < g->m; j++)
      c += segments_cross(x, y, g->ea[i], g->eb[i], g->ea[j], g->eb[j]);
  return c;
}

/* Distance from room p to the line a-b, with the foot's place t along it. */
static double line_distance(const double *x, const double *y, int p, int a, int b, double *t_out, double *fx,
                            double *fy) {
  double dx = x[b] - x[a], dy = y[b] - y[a], l2 = dx * dx + dy * dy;
  double t = l2 > 0 ? ((x[p] - x[a]) * dx + (y[p] - y[a]) * dy) / l2 : 0;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  *fx = x[a] + t * dx;
  *fy = y[a] + t * dy;
  if (t_out) *t_out = t;
  return hypot(x[p] - *fx, y[p] - *fy);
}

/* How bad a layout is: crossings first, then rooms on lines, then crowding. */
static double badness(const gl *g, const double *x, const double *y) {
  double bad = 1000.0 * crossings(g, x, y);
  for (int e = 0; e < g->m; e++)
    for (int p = 0; p < g->n; p++) {
      if (p == g->ea[e] || p == g->eb[e]) continue;
      double fx, fy, dist = line_distance(x, y, p, g->ea[e], g->eb[e], NULL, &fx, &fy);
      if (dist < LINE_GAP) bad += 100.0 * (LINE_GAP - dist) / LINE_GAP + 20;
    }
  for (int i = 0; i < g->n; i++)
    for (int j = i + 1; j < g->n; j++) {
      double dist = hypot(x[i] - x[j], y[i] - y[j]);
      if (dist < MIN_GAP) bad += 50.0 * (MIN_GAP - dist) / MIN_GAP;
    }
  return bad;
}

static int find(int *up, int a) {
  while (up[a] != a)
    a = up[a] = up[up[a]];
  return a;
}

/* Parts of the level no passage joins (rooms lost under --faithful). */
static int components(const gl *g) {
  int *up = cb_malloc(((size_t)g->n + 1) * sizeof *up), parts = g->n;
  if (!up) return 1;
  for (int i = 0; i < g->n; i++)
    up[i] = i;
  for (int e = 0; e < g->m; e++) {
    int a = find(up, g->ea[e]), b = find(up, g->eb[e]);
    if (a != b) up[a] = b, parts--;
  }
  free(up);
  return parts;
}

/* Fruchterman-Reingold with a pull to the centre, stronger when parts of the
 * level are not joined, so that they stay near each other. */
static void spring(const gl *g, double *x, double *y, double *dx, double *dy, double gravity) {
  int n = g->n;
  double t0 = 0.12 * sqrt((double)n) + 0.2;
  for (int it = 0; it < ITERATIONS; it++) {
    for (int i = 0; i < n; i++)
      dx[i] = -gravity * x[i], dy[i] = -gravity * y[i];
    for (int i = 0; i < n; i++)
      for (int j = i + 1; j < n; j++) {
        double ux = x[i] - x[j], uy = y[i] - y[j], d2 = ux * ux + uy * uy;
        if (d2 < 1e-6) ux = 0.01 * (i - j), uy = 0.01, d2 = ux * ux + uy * uy;
        double f = 1.0 / d2;
        dx[i] += ux * f, dy[i] += uy * f;
        dx[j] -= ux * f, dy[j] -= uy * f;
      }
    for (int e = 0; e < g->m; e++) {
      int a = g->ea[e], b = g->eb[e];
      double ux = x[a] - x[b], uy = y[a] - y[b], f = sqrt(ux * ux + uy * uy);
      dx[a] -= ux * f, dy[a] -= uy * f;
      dx[b] += ux * f, dy[b] += uy * f;
    }
    double t = t0 * (1.0 - (double)it / ITERATIONS) + 0.002;
    for (int i = 0; i < n; i++) {
      double len = sqrt(dx[i] * dx[i] + dy[i] * dy[i]);
      if (len <= 0) continue;
      double step = len < t ? len : t;
      x[i] += dx[i] / len * step;
      y[i] += dy[i] / len * step;
    }
  }
}

/* Swapping two rooms' places often undoes a crossing the springs settled in. */
static void swap_rooms(const gl *g, double *x, double *y, double *bad) {
  for (int pass = 0; pass < SWAP_PASSES; pass++) {
    int better = 0;
    for (int i = 0; i < g->n; i++)
      for (int j = i + 1; j < g->n; j++) {
        double tx = x[i], ty = y[i];
        x[i] = x[j], y[i] = y[j], x[j] = tx, y[j] = ty;
        double b = badness(g, x, y);
        if (b < *bad - 1e-9) {
          *bad = b;
          better = 1;
        } else {
          x[j] = x[i], y[j] = y[i], x[i] = tx, y[i] = ty;
        }
      }
    if (!better) break;
  }
}

/* Moves single rooms to where they cause less trouble: around their
 * neighbours' middle or anywhere in the layout's box. */
static void relocate_rooms(const gl *g, double *x, double *y, double *bad, cb_rng *rng) {
  static const double dirs[8][2] = {{1, 0},  {0.7071, 0.7071},   {0, 1},  {-0.7071, 0.7071},
                                    {-1, 0}, {-0.7071, -0.7071}, {0, -1}, {0.7071, -0.7071}};
  for (int pass = 0; pass<RELOCATE_PASSES && * bad> 0; pass++) {
    int better = 0;
    double minx = INFINITY, maxx = -INFINITY, miny = INFINITY, maxy = -INFINITY;
    for (int i = 0; i < g->n; i++)
      minx = fmin(minx, x[i]), maxx = fmax(maxx, x[i]), miny = fmin(miny, y[i]), maxy = fmax(maxy, y[i]);
    for (int i = 0; i < g->n; i++) {
      double mx = 0, my = 0;
      int deg = 0;
      for (int e = 0; e < g->m; e++) {
        int o = g->ea[e] == i ? g->eb[e] : g->eb[e] == i ? g->ea[e] : -1;
        if (o >= 0) mx += x[o], my += y[o], deg++;
      }
      if (deg) mx /= deg, my /= deg;
      double ox = x[i], oy = y[i], bx = ox, by = oy;
      for (int c = 0; c < 32; c++) {
        if (c < 16 && deg) {
          double r = c < 8 ? 0.6 : 1.1;
          x[i] = mx + dirs[c % 8][0] * r, y[i] = my + dirs[c % 8][1] * r;
        } else {
          x[i] = minx + cb_rng_unit(rng) * (maxx - minx), y[i] = miny + cb_rng_unit(rng) * (maxy - miny);
        }
        double b = badness(g, x, y);
        if (b < *bad - 1e-9) *bad = b, bx = x[i], by = y[i], better = 1;
      }
      x[i] = bx, y[i] = by;
    }
    if (!better) break;
  }
}

/* Pushes rooms apart and off lines that do not end at them. */
static void spread(const gl *g, double *x, double *y) {
  for (int pass = 0; pass < SPREAD_PASSES; pass++) {
    int moved = 0;
    for (int i = 0; i < g->n; i++)
      for (int j = i + 1; j < g->n; j++) {
        double ux = x[i] - x[j], uy = y[i] - y[j], dist = hypot(ux, uy);
        if (dist >= MIN_GAP) continue;
        if (dist < 1e-9) ux = 1, uy = 0, dist = 1e-9;
        double push = (MIN_GAP - dist) / 2 + 1e-6, l = hypot(ux, uy);
        x[i] += ux / l * push, y[i] += uy / l * push;
        x[j] -= ux / l * push, y[j] -= uy / l * push;
        moved = 1;
      }
    for (int e = 0; e < g->m; e++)
      for (int p = 0; p < g->n; p++) {
        if (p == g->ea[e] || p == g->eb[e]) continue;
        double fx, fy, dist = line_distance(x, y, p, g->ea[e], g->eb[e], NULL, &fx, &fy);
        if (dist >= LINE_GAP) continue;
        double ux = x[p] - fx, uy = y[p] - fy, l = hypot(ux, uy);
        if (l < 1e-9) ux = -(y[g->eb[e]] - y[g->ea[e]]), uy = x[g->eb[e]] - x[g->ea[e]], l = hypot(ux, uy);
        if (l < 1e-9) continue;
        double push = LINE_GAP - dist + 1e-6;
        x[p] += ux / l * push * 0.6, y[p] += uy / l * push * 0.6;
        x[g->ea[e]] -= ux / l * push * 0.2, y[g->ea[e]] -= uy / l * push * 0.2;
        x[g->eb[e]] -= ux / l * push * 0.2, y[g->eb[e]] -= uy / l * push * 0.2;
        moved = 1;
      }
    if (!moved) break;
  }
}

/* Turns the layout so that its long axis runs along the box's long side, then
 * stretches (never squeezes, so nothing gets closer) towards the box's shape. */
static void fit_box(const gl *g, double *x, double *y, double aspect) {
  int n = g->n;
  double mx = 0, my = 0;
  for (int i = 0; i < n; i++)
    mx += x[i], my += y[i];
  mx /= n, my /= n;
  double sxx = 0, syy = 0, sxy = 0;
  for (int i = 0; i < n; i++) {
    x[i] -= mx, y[i] -= my;
    sxx += x[i] * x[i], syy += y[i] * y[i], sxy += x[i] * y[i];
  }
  if (aspect <= 0) return;
  double angle = 0.5 * atan2(2 * sxy, sxx - syy); /* the long axis */
  if (aspect < 1) angle -= 1.57079632679489661923;
  double c = cos(-angle), s = sin(-angle);
  double minx = INFINITY, maxx = -INFINITY, miny = INFINITY, maxy = -INFINITY;
  for (int i = 0; i < n; i++) {
    double rx = x[i] * c - y[i] * s, ry = x[i] * s + y[i] * c;
    x[i] = rx, y[i] = ry;
    minx = fmin(minx, rx), maxx = fmax(maxx, rx), miny = fmin(miny, ry), maxy = fmax(maxy, ry);
  }
  double w = maxx - minx, h = maxy - miny;
  if (w <= 0 || h <= 0) return;
  double sx = 1, sy = 1;
  if (w / h < aspect)
    sx = fmin(MAX_STRETCH, aspect * h / w);
  else
    sy = fmin(MAX_STRETCH, w / h / aspect);
  for (int i = 0; i < n; i++)
    x[i] *= sx, y[i] *= sy;
}

/* The level laid out at no particular shape: the springs from several
 * starts, the start with least badness kept, then swaps, moves and a spread;
 * places into x, y (n of them), dx, dy scratch. */
static void lay_out(gl *g, uint64_t seed, int level, double *bx, double *by, double *dx, double *dy) {
  int n = g->n;
  cb_rng rng;
  cb_rng_seed(&rng, seed, LAYOUT_STREAM + (uint64_t)level);
  int starts = n <= 16 ? 24 : n <= 40 ? 8 : n <= 120 ? 3 : 1;
  double best = INFINITY, side = sqrt((double)n) + 1, gravity = components(g) > 1 ? 0.3 : 0.06;
  for (int t = 0; t < starts && n > 1; t++) {
    for (int i = 0; i < n; i++) {
      g->x[i] = (cb_rng_unit(&rng) - 0.5) * side;
      g->y[i] = (cb_rng_unit(&rng) - 0.5) * side;
    }
    spring(g, g->x, g->y, dx, dy, gravity);
    double b = badness(g, g->x, g->y);
    if (b < best) {
      best = b;
      memcpy(bx, g->x, (size_t)n * sizeof *bx);
      memcpy(by, g->y, (size_t)n * sizeof *by);
    }
    if (best == 0) break;
  }
  if (n > 1) {
    if (n <= MAX_SWAP_ROOMS && best > 0) swap_rooms(g, bx, by, &best);
    if (n <= MAX_SWAP_ROOMS && best > 0) relocate_rooms(g, bx, by, &best, &rng);
    spread(g, bx, by);
  } else if (n == 1) {
    bx[0] = by[0] = 0;
  }
}

cb_status cb_graph_layout(cb_graph_cache *cache, const cb_dungeon *d, int level, double aspect,
                          cb_graph_pos **out, int *count, cb_error *err) {
  *out = NULL, *count = 0;
  gl g;
  cb_status st = gl_build(d, level, &g, err);
  if (st) {
    gl_free(&g);
    return st;
  }
  int n = g.n;
  double *bx = cb_malloc(((size_t)n + 1) * sizeof *bx), *by = cb_malloc(((size_t)n + 1) * sizeof *by);
  double *dx = cb_malloc(((size_t)n + 1) * sizeof *dx), *dy = cb_malloc(((size_t)n + 1) * sizeof *dy);
  cb_graph_pos *pos = cb_malloc(((size_t)n + 1) * sizeof *pos);
  if (!bx || !by || !dx || !dy || !pos) {
    st = cb_error_oom(err);
    goto done;
  }
  const struct shape *kept = shape_find(cache, &g, d->seed);
  if (kept) {
    memcpy(bx, kept->g.x, (size_t)n * sizeof *bx);
    memcpy(by, kept->g.y, (size_t)n * sizeof *by);
  } else {
    lay_out(&g, d->seed, level, bx, by, dx, dy);
    shape_keep(cache, &g, d->seed, bx, by);
  }
  if (n > 1) fit_box(&g, bx, by, aspect);
  for (int i = 0; i < n; i++)
    pos[i] = (cb_graph_pos){g.id[i], round(bx[i] * CB_GRAPH_EDGE_FT * 100) / 100,
                            round(by[i] * CB_GRAPH_EDGE_FT * 100) / 100};
  *out = pos, *count = n;
  pos = NULL;
done:
  free(pos);
  free(bx);
  free(by);
  free(dx);
  free(dy);
  gl_free(&g);
  return st;
}

cb_status cb_graph_crossings(const cb_dungeon *d, int level, const cb_graph_pos *pos, int n, int *count,
                             cb_error *err) {
  *count = 0;
  gl g;
  cb_status st = gl_build(d, level, &g, err);
  if (!st && g.n != n)
    st = cb_error_set(err, CB_EINTERNAL, "%d positions for the %d rooms of level %d", n, g.n, level);
  for (int i = 0; !st && i < n; i++)
    g.x[i] = pos[i].x, g.y[i] = pos[i].y;
  if (!st) *count = crossings(&g, g.x, g.y);
  gl_free(&g);
  return st;
}
