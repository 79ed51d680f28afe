#include "cut.h"

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

int cb_cutter_init(cb_cutter *c, const cb_dungeon *d) {
  memset(c, 0, sizeof *c);
  int n = d->nrooms, np = d->npassages;
  c->d = d, c->n = n, c->np = np;
  c->start = cb_calloc((size_t)n + 2, sizeof *c->start);
  c->adj = cb_malloc((2 * (size_t)np + 1) * sizeof *c->adj);
  c->from = cb_malloc(((size_t)np + 1) * sizeof *c->from);
  c->to = cb_malloc(((size_t)np + 1) * sizeof *c->to);
  c->cap = cb_malloc(((size_t)np + 1) * sizeof *c->cap);
  c->flow = cb_calloc((size_t)np + 1, sizeof *c->flow);
  c->via = cb_malloc(((size_t)n + 1) * sizeof *c->via);
  int bad = cb_bfs_init(&c->walk, n);
  c->side = cb_malloc((size_t)n + 1);
  if (!c->start || !c->adj || !c->from || !c->to || !c->cap || !c->flow || !c->via || bad || !c->side)
    return cb_cutter_free(c), -1;
  for (int i = 0; i < np; i++) {
    const cb_passage *p = &d->passages[i];
    const cb_room *a = cb_dungeon_room(d, p->from), *b = p->to ? cb_dungeon_room(d, p->to) : NULL;
    c->from[i] = c->to[i] = -1, c->cap[i] = 1;
    if (!a || !b || a == b) continue;
    c->from[i] = (int)(a - d->rooms), c->to[i] = (int)(b - d->rooms);
    c->start[c->from[i] + 2]++, c->start[c->to[i] + 2]++;
  }
  for (int i = 0; i < n; i++)
    c->start[i + 2] += c->start[i + 1];
  for (int i = 0; i < np; i++)
    if (c->from[i] >= 0) c->adj[c->start[c->from[i] + 1]++] = i, c->adj[c->start[c->to[i] + 1]++] = i;
  return 0;
}

void cb_cutter_free(cb_cutter *c) {
  free(c->start), free(c->adj), free(c->from), free(c->to), free(c->cap), free(c->flow);
  free(c->via), free(c->side), cb_bfs_free(&c->walk);
  memset(c, 0, sizeof *c);
}

static int other_end(const cb_cutter *c, int pi, int u) { return c->from[pi] == u ? c->to[pi] : c->from[pi]; }

/* What passage pi can still carry leaving room u. */
static int residual(const cb_cutter *c, int pi, int u) {
  if (c->from[pi] == u) return c->cap[pi] - c->flow[pi];
  return (c->d->passages[pi].flags & CB_FLAG_ONE_WAY ? 0 : c->cap[pi]) + c->flow[pi];
}

/* Marks with bit `mark` the rooms reached from the roots through residual
 * ways (backwards: the rooms that reach them); with t >= 0, stops at t and
 * keeps the way there in via. Returns whether t was reached. */
static bool search(cb_cutter *c, const int *roots, int nroots, int t, unsigned char mark, bool backwards) {
  cb_bfs_clear(&c->walk);
  for (int i = 0; i < nroots; i++)
    c->side[roots[i]] |= mark, c->via[roots[i]] = -1, cb_bfs_reach(&c->walk, -1, roots[i]);
  for (int u; (u = cb_bfs_next(&c->walk)) >= 0;)
    for (int k = c->start[u]; k < c->start[u + 1]; k++) {
      int pi = c->adj[k], v = other_end(c, pi, u);
      if (residual(c, pi, backwards ? v : u) <= 0 || !cb_bfs_reach(&c->walk, u, v)) continue;
      c->side[v] |= mark, c->via[v] = pi;
      if (v == t) return true;
    }
  return false;
}

/* The passages a party crosses from a room with `in` unset into one with it
 * set (inside: the bit is set); how many, at most max kept. */
static int crossing(const cb_cutter *c, unsigned char in, bool inside, int max, int *out) {
  int k = 0;
  for (int i = 0; i < c->np; i++) {
    if (c->from[i] < 0 || c->cap[i] <= 0) continue;
    bool a = (c->side[c->from[i]] & in) != 0, b = (c->side[c->to[i]] & in) != 0;
    if (!inside) a = !a, b = !b;
    bool one_way = c->d->passages[i].flags & CB_FLAG_ONE_WAY;
    if ((!a && b) || (!one_way && a && !b)) {
      if (k < max) out[k] = i;
      k++;
    }
  }
  return k;
}

int cb_cutter_cut(cb_cutter *c, const int *src, int nsrc, int t, const int *reached, int max, int *near_s,
                  int *far_s, int *near_t, int *far_t) {
  memset(c->flow, 0, (size_t)c->np * sizeof *c->flow);
  int f = 0;
  for (;; f++) {
    memset(c->side, 0, (size_t)c->n);
    if (!search(c, src, nsrc, t, 1, false)) break;
    if (f == max) return 0;
    for (int v = t; c->via[v] >= 0;) {
      int pi = c->via[v], u = other_end(c, pi, v);
      c->flow[pi] += c->from[pi] == u ? 1 : -1;
      v = u;
    }
  }
  if (f == 0) return 0;
  /* side bit 1: reached from the sources now; 2: reaches t */
  search(c, &t, 1, -1, 2, true);
  int all = 0, ins = 0, int_ = 0;
  for (int i = 0; i < c->n; i++)
    if (reached[i] >= 0) all++, ins += (c->side[i] & 1) != 0, int_ += (c->side[i] & 2) != 0;
  *far_s = all - ins, *far_t = int_;
  if (crossing(c, 1, false, max, near_s) != f || crossing(c, 2, true, max, near_t) != f) return 0;
  return f;
}

int cb_cutter_order(cb_cutter *c, int s, int *order, int *dist) {
  memset(c->flow, 0, (size_t)c->np * sizeof *c->flow);
  cb_bfs_clear(&c->walk);
  cb_bfs_reach(&c->walk, -1, s);
  for (int u; (u = cb_bfs_next(&c->walk)) >= 0;)
    for (int k = c->start[u]; k < c->start[u + 1]; k++)
      if (residual(c, c->adj[k], u) > 0) cb_bfs_reach(&c->walk, u, other_end(c, c->adj[k], u));
  memcpy(order, c->walk.queue, (size_t)c->walk.tail * sizeof *order);
  memcpy(dist, c->walk.hops, (size_t)c->n * sizeof *dist);
  return c->walk.tail;
}
