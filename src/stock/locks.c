/* Nested locks and keys on the way from the main entrance to the goal
 * (spec/stocking.md "Locks and keys"): the structure the dropdice seed says
 * it cannot make. Lock i shuts a passage of the route that the goal cannot
 * be reached without; its key lies where the party gets with lock i still
 * shut but lock i-1 open, off the route where such a room exists. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "model/check.h"
#include "stock.h"

typedef struct lockwork {
  cb_dungeon *d;
  cb_graph g;
  int start, goal;
  int *route; /* passage indices, entrance to goal */
  int nroute;
  bool *on_route; /* per room */
  bool *blocked;  /* per passage */
  bool *reach, *before;
} lockwork;

/* The shortest way from the entrance to the goal through open passages. */
static int find_route(lockwork *w) {
  int n = w->d->nrooms;
  int *via = cb_malloc((size_t)n * sizeof *via), *queue = cb_malloc((size_t)n * sizeof *queue);
  int *prev = cb_malloc((size_t)n * sizeof *prev);
  if (!via || !queue || !prev) return free(via), free(queue), free(prev), -1;
  for (int i = 0; i < n; i++)
    via[i] = -2;
  int head = 0, tail = 0;
  via[w->start] = -1, queue[tail++] = w->start;
  while (head < tail) {
    int u = queue[head++];
    for (int k = w->g.start[u]; k < w->g.start[u + 1]; k++) {
      int v = w->g.room[k], pi = w->g.passage[k];
      if (via[v] != -2 || (w->d->passages[pi].flags & CB_FLAG_LOCKED)) continue;
      via[v] = pi, prev[v] = u, queue[tail++] = v;
    }
  }
  w->nroute = 0;
  if (via[w->goal] != -2) {
    for (int v = w->goal; v != w->start;) {
      w->route[w->nroute++] = via[v];
      w->on_route[v] = true;
      v = prev[v];
    }
    w->on_route[w->start] = true;
    for (int i = 0; i < w->nroute / 2; i++) {
      int t = w->route[i];
      w->route[i] = w->route[w->nroute - 1 - i], w->route[w->nroute - 1 - i] = t;
    }
  }
  free(via);
  free(queue);
  free(prev);
  return 0;
}

/* Rooms reached with the passages `from`.. of picks shut; -1 on OOM. */
static int reach_with(lockwork *w, const int *picks, int npicks, int from, bool *reached) {
  memset(w->blocked, 0, (size_t)w->d->npassages * sizeof *w->blocked);
  for (int i = from; i < npicks; i++)
    w->blocked[picks[i]] = true;
  return cb_check_walk_blocked(w->d, &w->g, w->start, w->blocked, reached) < 0 ? -1 : 0;
}

/* The most route passages tried (a walk each): a route of a huge JSON-only
 * dungeon is sampled evenly, so that one lock never costs minutes. */
enum { MAX_TRIES = 16 };

/* The route's passages whose shutting cuts the goal off, in route order. */
static int cut_passages(lockwork *w, int *cuts) {
  int n = 0, tries = w->nroute < MAX_TRIES ? w->nroute : MAX_TRIES;
  for (int k = 0; k < tries; k++) {
    int i = (int)((long long)k * w->nroute / tries);
    const cb_passage *p = &w->d->passages[w->route[i]];
    if (p->from == p->to || p->to == 0) continue;
    if (reach_with(w, &w->route[i], 1, 0, w->reach)) return -1;
    if (!w->reach[w->goal]) cuts[n++] = w->route[i];
  }
  return n;
}

/* The first free key name K1, K2, ... */
static void next_key(const cb_dungeon *d, char *buf, size_t cap) {
  for (int k = 1;; k++) {
    snprintf(buf, cap, "K%d", k);
    if (!cb_dungeon_key_room(d, buf)) return;
  }
}

/* Key i's room: reached with lock i shut but not with lock i-1 shut; off
 * the route and away from the entrance where it can be. */
static int key_room(lockwork *w, int i) {
  int best = -1, best_score = -1;
  for (int r = 0; r < w->d->nrooms; r++) {
    if (!w->reach[r] || (i > 0 && w->before[r])) continue;
    int score = (r != w->start) * 2 + !w->on_route[r];
    if (score > best_score) best = r, best_score = score;
  }
  return best;
}

static int place(lockwork *w, const int *picks, int n) {
  int placed = 0;
  memset(w->before, 0, (size_t)w->d->nrooms * sizeof *w->before);
  int *rooms = cb_malloc((size_t)n * sizeof *rooms);
  if (!rooms) return -1;
  for (int i = 0; i < n; i++) {
    if (reach_with(w, picks, n, i, w->reach)) return free(rooms), -1;
    rooms[i] = key_room(w, i);
    memcpy(w->before, w->reach, (size_t)w->d->nrooms * sizeof *w->before);
  }
  for (int i = 0; i < n; i++) {
    if (rooms[i] < 0) continue;
    char key[16];
    next_key(w->d, key, sizeof key);
    cb_passage *p = &w->d->passages[picks[i]];
    if (cb_dungeon_add_key(w->d, &w->d->rooms[rooms[i]], key)) return free(rooms), -1;
    p->lock = w->d->rooms[rooms[i]].keys[w->d->rooms[rooms[i]].nkeys - 1];
    p->flags |= CB_FLAG_LOCKED;
    placed++;
    if (cb_dungeon_log(w->d, "Stocking: lock %s on the passage %d-%d; its key in room %d.", key,
                       cb_dungeon_room(w->d, p->from)->number, cb_dungeon_room(w->d, p->to)->number,
                       w->d->rooms[rooms[i]].number))
      return free(rooms), -1;
  }
  free(rooms);
  return placed;
}

/* No single passage cuts the goal off (loops run round every one): shut
 * every way into the goal instead, all with one key, which lies where the
 * party gets with them shut. Returns 1 when placed, 0 when not, -1 on OOM. */
static int lock_the_goal(lockwork *w) {
  cb_dungeon *d = w->d;
  int goal_id = d->rooms[w->goal].id, ways = 0;
  memset(w->blocked, 0, (size_t)d->npassages * sizeof *w->blocked);
  for (int k = 0; k < d->npassages; k++) {
    const cb_passage *p = &d->passages[k];
    bool in = p->to == goal_id || (p->from == goal_id && !(p->flags & CB_FLAG_ONE_WAY));
    if (in && p->from != p->to && p->to != 0 && !(p->flags & CB_FLAG_LOCKED)) w->blocked[k] = true, ways++;
  }
  if (!ways) return 0;
  if (cb_check_walk_blocked(d, &w->g, w->start, w->blocked, w->reach) < 0) return -1;
  memset(w->before, 0, (size_t)d->nrooms * sizeof *w->before);
  int r = w->reach[w->goal] ? -1 : key_room(w, 0);
  if (r < 0 || r == w->goal) return 0;
  char key[16];
  next_key(d, key, sizeof key);
  if (cb_dungeon_add_key(d, &d->rooms[r], key)) return -1;
  const char *name = d->rooms[r].keys[d->rooms[r].nkeys - 1];
  for (int k = 0; k < d->npassages; k++)
    if (w->blocked[k]) d->passages[k].lock = name, d->passages[k].flags |= CB_FLAG_LOCKED;
  return cb_dungeon_log(d,
                        "Stocking: lock %s on every way into room %d, the goal (no one passage cuts it off); "
                        "its key in room %d.",
                        key, d->rooms[w->goal].number, d->rooms[r].number)
             ? -1
             : 1;
}

static int goal_room(const cb_dungeon *d, int start) {
  for (int i = 0; i < d->nrooms; i++)
    if ((d->rooms[i].tags & CB_TAG_GOAL) && i != start) return i;
  return -1;
}

int cb_stock_locks(cb_dungeon *d, int n) {
  if (n <= 0 || d->nrooms < 2) return 0;
  lockwork w = {.d = d, .start = cb_check_start_room(d)};
  w.goal = goal_room(d, w.start);
  if (w.start < 0 || w.goal < 0) return 0;
  if (cb_graph_build(d, &w.g)) return -1;
  int nr = d->nrooms, np = d->npassages, placed = -1;
  w.route = cb_malloc(((size_t)nr + 1) * sizeof *w.route);
  int *cuts = cb_malloc(((size_t)nr + 1) * sizeof *cuts), picks[CB_STOCK_MAX_LOCKS];
  w.on_route = cb_calloc((size_t)nr, sizeof *w.on_route);
  w.blocked = cb_calloc((size_t)np + 1, sizeof *w.blocked);
  w.reach = cb_calloc((size_t)nr, sizeof *w.reach);
  w.before = cb_calloc((size_t)nr, sizeof *w.before);
  if (!w.route || !cuts || !w.on_route || !w.blocked || !w.reach || !w.before || find_route(&w)) goto done;
  int m = cut_passages(&w, cuts);
  if (m < 0) goto done;
  if (m == 0) {
    placed = lock_the_goal(&w);
    goto done;
  }
  if (n > CB_STOCK_MAX_LOCKS) n = CB_STOCK_MAX_LOCKS;
  if (m <= n) n = m;
  /* spread the locks along the route */
  for (int j = 0; j < n; j++)
    picks[j] = cuts[m == n ? j : (j + 1) * m / (n + 1)];
  placed = place(&w, picks, n);
done:
  cb_graph_free(&w.g);
  free(w.route);
  free(cuts);
  free(w.on_route);
  free(w.blocked);
  free(w.reach);
  free(w.before);
  return placed;
}
