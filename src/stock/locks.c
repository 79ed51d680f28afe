/* Nested locks and keys on the way from the main entrance to the goal
 * (spec/stocking.md "Locks and keys"): the structure one seed (004) says
 * it cannot make. Lock i shuts a passage of the route that the goal cannot
 * be reached without; its key lies where the party gets with lock i still
 * shut but lock i-1 open, off the route where such a room exists. Where the
 * route has fewer such passages than locks asked (loops round them), the
 * locks chain from the goal outward, each a small set of passages (see
 * chain_locks). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "cut.h"
#include "model/bfs.h"
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
  int *via = cb_malloc((size_t)n * sizeof *via), *prev = cb_malloc((size_t)n * sizeof *prev);
  cb_bfs b;
  if (cb_bfs_init(&b, n) || !via || !prev) return free(via), free(prev), cb_bfs_free(&b), -1;
  cb_bfs_reach(&b, -1, w->start);
  for (int u; (u = cb_bfs_next(&b)) >= 0;)
    for (int k = w->g.start[u]; k < w->g.start[u + 1]; k++) {
      int v = w->g.room[k], pi = w->g.passage[k];
      if (!(w->d->passages[pi].flags & CB_FLAG_LOCKED) && cb_bfs_reach(&b, u, v)) via[v] = pi, prev[v] = u;
    }
  w->nroute = 0;
  if (b.hops[w->goal] >= 0) {
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
  free(prev);
  cb_bfs_free(&b);
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
    /* a key in a start would hand a party coming in there its lock */
    bool in_start = (w->d->rooms[r].tags & (CB_TAG_START | CB_TAG_MAIN_START | CB_TAG_ENTRANCE)) != 0;
    int score = (r != w->start) * 2 + !w->on_route[r] + !in_start * 4;
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

/* Nested locks on a map with too few single passages that cut the goal off:
 * a game master's chain built from the goal outward. Each lock shuts the
 * fewest passages (at most MAX_CUT) that close the inner key's room (at
 * first the goal) off from the entrance, all opened by one key; that key
 * lies in a room the party reaches with the locks shut so far, picked among
 * a few rooms at spread distances so that the locks split the rooms evenly. */
enum { MAX_CUT = 4, CANDIDATES = 4, RADII = 3 };

typedef struct chain {
  lockwork *w;
  cb_cutter c;
  int *lock_of;      /* per passage: the lock (0 the goal's, then outward) or -1 */
  int *order, *dist; /* rooms reached through open passages, by distance */
  int *cand;         /* the walk's rooms among them */
  int *cut;          /* the cut in hand */
  int key_in[CB_STOCK_MAX_LOCKS];
  int made, n;
} chain;

/* How far a cut of `size` passages leaving `far` of `all` rooms beyond it is
 * from the even split into `zones` (lower is better): a near side too small
 * for the locks still to come costs most, each further passage a little. A
 * lock with nothing but the entrance before it is no lock (its key would lie
 * at the door): never. */
static double cut_cost(int size, int far, int all, int zones) {
  double ideal = (double)all / zones;
  if (all - far < 2) return 1e9;
  return (far > ideal ? far - ideal : ideal - far) / all + 0.1 * (size - 1) + (all - far < zones ? 1 : 0);
}

/* Shuts passages cut[0..size) as lock `made`, whose inner room is t. */
static void shut(chain *ch, const int *cut, int size, int t) {
  for (int i = 0; i < size; i++)
    ch->lock_of[cut[i]] = ch->made, ch->c.cap[cut[i]] = 0;
  if (ch->made > 0) ch->key_in[ch->made - 1] = t;
  ch->made++;
}

/* Every way into room t, at most max of them; how many there are, more
 * than max when the procedure's locks lead in too (they stay its own). */
static int ways_into(const chain *ch, int t, int *cut, int max) {
  const cb_cutter *c = &ch->c;
  int k = 0;
  for (int j = c->start[t]; j < c->start[t + 1]; j++) {
    int i = c->adj[j];
    if (c->cap[i] == 0 || (c->from[i] == t && (ch->w->d->passages[i].flags & CB_FLAG_ONE_WAY))) continue;
    if (c->cap[i] != 1)
      k = max;
    else if (k < max)
      cut[k] = i;
    k++;
  }
  return k;
}

/* The best cut so far between the rooms near the entrance and a target. */
typedef struct choice {
  double cost;
  int t, n;
} choice;

/* The ways into t as one lock, when they are few (a min cut need not be). */
static void try_ways(chain *ch, int t, int all, choice *best) {
  int ways[MAX_CUT], n = ways_into(ch, t, ways, MAX_CUT);
  double cost = cut_cost(n, 1, all, ch->n - ch->made + 1);
  if (n > 0 && n <= MAX_CUT && cost < best->cost)
    *best = (choice){cost, t, n}, memcpy(ch->cut, ways, sizeof ways);
}

/* Tries the cuts between the rooms within `radius` of the entrance and t. */
static void try_cut(chain *ch, int radius, int t, int all, choice *best) {
  int nsrc = 0, near_s[MAX_CUT], near_t[MAX_CUT], fs, ft;
  while (nsrc < all && ch->dist[ch->order[nsrc]] <= radius)
    nsrc++;
  int f = cb_cutter_cut(&ch->c, ch->order, nsrc, t, ch->dist, MAX_CUT, near_s, &fs, near_t, &ft);
  if (f <= 0) return;
  int zones = ch->n - ch->made + 1;
  double cs = cut_cost(f, fs, all, zones), ct = cut_cost(f, ft, all, zones);
  if (cs < best->cost) *best = (choice){cs, t, f}, memcpy(ch->cut, near_s, sizeof near_s);
  if (ct < best->cost) *best = (choice){ct, t, f}, memcpy(ch->cut, near_t, sizeof near_t);
}

/* The next lock: its cut and inner room, the best of a few targets (the
 * goal first, then rooms the party reaches at spread distances) each cut
 * off from a few spreads of rooms round the entrance. Returns 1 when shut,
 * 0 when no cut fits, -1 on OOM. */
static int next_lock(chain *ch) {
  lockwork *w = ch->w;
  int tries[CANDIDATES], nt = 0, open = cb_cutter_order(&ch->c, w->start, ch->order, ch->dist), reached = 0;
  for (int i = 0; i < open; i++) /* the walk's rooms with the locks shut, start and goal aside */
    if (w->reach[ch->order[i]] && ch->order[i] != w->start && ch->order[i] != w->goal &&
        !(w->d->rooms[ch->order[i]].tags & (CB_TAG_START | CB_TAG_MAIN_START | CB_TAG_ENTRANCE)))
      ch->cand[reached++] = ch->order[i];
  if (ch->made == 0)
    tries[nt++] = w->goal;
  else
    for (int q = CANDIDATES; q >= 1 && reached > 0; q--) {
      int r = ch->cand[(int)((long long)(reached - 1) * q / CANDIDATES)];
      if (!nt || tries[nt - 1] != r) tries[nt++] = r;
    }
  choice best = {1e8, -1, 0};
  for (int i = 0; i < nt; i++) {
    try_ways(ch, tries[i], open, &best);
    for (int k = 0; k < RADII && ch->dist[tries[i]] > 0; k++)
      if (k == 0 || ch->dist[tries[i]] * k / RADII > ch->dist[tries[i]] * (k - 1) / RADII)
        try_cut(ch, ch->dist[tries[i]] * k / RADII, tries[i], open, &best);
  }
  if (best.t < 0 && ch->made == 0) { /* the goal's every way, as for one lock */
    best.n = ways_into(ch, w->goal, ch->cut, w->d->npassages), best.t = w->goal;
    if (best.n > w->d->npassages) return 0;
  }
  if (best.t < 0 || best.n == 0) return 0;
  /* the walk (keys of the procedure's locks honoured) has the last word */
  for (int i = 0; i < w->d->npassages; i++)
    w->blocked[i] = ch->lock_of[i] >= 0;
  for (int i = 0; i < best.n; i++)
    w->blocked[ch->cut[i]] = true;
  if (cb_check_walk_blocked(w->d, &w->g, w->start, w->blocked, w->reach) < 0) return -1;
  int near = 0;
  for (int i = 0; i < w->d->nrooms && near < 2; i++)
    near += w->reach[i];
  if (w->reach[best.t] || near < 2) return 0;
  shut(ch, ch->cut, best.n, best.t);
  return 1;
}

/* Lock `i` of the chain (0: the goal's) as the party meets it: K1 first. */
static int name_lock(chain *ch, int i) {
  cb_dungeon *d = ch->w->d;
  cb_room *r = &d->rooms[ch->key_in[i]];
  char key[16], ways[256];
  next_key(d, key, sizeof key);
  if (cb_dungeon_add_key(d, r, key)) return -1;
  size_t n = 0;
  int k = 0, count = 0;
  for (int p = 0; p < d->npassages; p++)
    count += ch->lock_of[p] == i;
  for (int p = 0; p < d->npassages; p++) {
    if (ch->lock_of[p] != i) continue;
    cb_passage *ps = &d->passages[p];
    ps->lock = r->keys[r->nkeys - 1], ps->flags |= CB_FLAG_LOCKED;
    k++;
    if (n < sizeof ways)
      n += (size_t)snprintf(ways + n, sizeof ways - n, "%s%d-%d",
                            k == 1       ? ""
                            : k == count ? " and "
                                         : ", ",
                            cb_dungeon_room(d, ps->from)->number, cb_dungeon_room(d, ps->to)->number);
  }
  return cb_dungeon_log(d, "Stocking: lock %s on the passage%s %s; its key in room %d.", key,
                        count > 1 ? "s" : "", ways, r->number);
}

/* The chain of up to n locks; none placed (0) when it would hold fewer than
 * at_least, so that the caller's single passages serve instead. */
static int chain_locks(lockwork *w, int n, int at_least) {
  chain ch = {.w = w, .n = n};
  int np = w->d->npassages, st = 0;
  ch.cut = cb_malloc(((size_t)np + MAX_CUT + 1) * sizeof *ch.cut);
  ch.lock_of = cb_malloc(((size_t)np + 1) * sizeof *ch.lock_of);
  ch.order = cb_malloc(((size_t)w->d->nrooms + 1) * sizeof *ch.order);
  ch.dist = cb_malloc(((size_t)w->d->nrooms + 1) * sizeof *ch.dist);
  ch.cand = cb_malloc(((size_t)w->d->nrooms + 1) * sizeof *ch.cand);
  if (!ch.cut || !ch.lock_of || !ch.order || !ch.dist || !ch.cand || cb_cutter_init(&ch.c, w->d)) st = -1;
  for (int i = 0; i < np && !st; i++) {
    ch.lock_of[i] = -1;
    if (ch.c.from[i] >= 0 && (w->d->passages[i].flags & CB_FLAG_LOCKED)) ch.c.cap[i] = CB_CUT_UNCUTTABLE;
  }
  if (!st) {
    memset(w->blocked, 0, (size_t)np * sizeof *w->blocked);
    st = cb_check_walk_blocked(w->d, &w->g, w->start, w->blocked, w->reach) < 0 ? -1 : 0;
  }
  if (!st && !w->reach[w->goal]) st = 1;
  while (!st && ch.made < n && (st = next_lock(&ch)) == 1)
    st = 0;
  if (st >= 0 && ch.made < at_least) ch.made = 0;
  if (st == 0 && ch.made < n && ch.made > 0 &&
      cb_dungeon_log(w->d,
                     "Stocking: the chain of locks stops at %d: no way of at most %d passages closes one "
                     "more room off from the entrance.",
                     ch.made, MAX_CUT))
    st = -1;
  if (st >= 0 && ch.made > 0) {
    /* the outermost key: where the party gets with every lock shut */
    for (int i = 0; i < np; i++)
      w->blocked[i] = ch.lock_of[i] >= 0;
    if (cb_check_walk_blocked(w->d, &w->g, w->start, w->blocked, w->reach) < 0) st = -1;
    memset(w->before, 0, (size_t)w->d->nrooms * sizeof *w->before);
    ch.key_in[ch.made - 1] = key_room(w, 0);
    for (int i = ch.made - 1; i >= 0 && st >= 0; i--)
      st = name_lock(&ch, i) ? -1 : 0;
  }
  cb_cutter_free(&ch.c);
  free(ch.cut), free(ch.lock_of), free(ch.order), free(ch.dist), free(ch.cand);
  return st < 0 ? -1 : ch.made;
}

static int goal_room(const cb_dungeon *d, int start) {
  for (int i = 0; i < d->nrooms; i++)
    if ((d->rooms[i].tags & CB_TAG_GOAL) && i != start) return i;
  return -1;
}

static int place_locks(cb_dungeon *d, int n);

/* The rooms behind lock `key` (every passage it shuts closed, the other
 * locks opened by keys found): those the main start no longer reaches. */
static int far_side(const cb_dungeon *d, const cb_graph *g, int start, const char *key, bool *blocked,
                    bool *far, bool *near) {
  for (int i = 0; i < d->npassages; i++)
    blocked[i] = d->passages[i].lock && !strcmp(d->passages[i].lock, key);
  if (cb_check_walk_blocked(d, g, start, blocked, near) < 0 || cb_check_walk(d, g, start, far) < 0) return -1;
  int n = 0;
  for (int r = 0; r < d->nrooms; r++)
    n += far[r] = far[r] && !near[r];
  return n;
}

/* A start behind a new lock would let a party that comes in there skip
 * it: its ways are locked too, with the outermost such lock's key (the
 * party opens them from inside once it holds that key). */
static int seal_one(cb_dungeon *d, int start, const char *key, const bool *far, bool *sealed) {
  for (int r = 0; r < d->nrooms; r++) {
    const cb_room *room = &d->rooms[r];
    if (r == start || !far[r] || !(room->tags & (CB_TAG_START | CB_TAG_MAIN_START | CB_TAG_ENTRANCE)))
      continue;
    int shut = 0;
    for (int i = 0; i < d->npassages; i++) {
      cb_passage *p = &d->passages[i];
      if ((p->from != room->id && p->to != room->id) || p->from == p->to || p->to == 0 ||
          (p->flags & CB_FLAG_LOCKED))
        continue;
      const cb_room *kr = cb_dungeon_key_room(d, key);
      p->lock = kr->keys[0];
      for (int k = 0; k < kr->nkeys; k++)
        if (!strcmp(kr->keys[k], key)) p->lock = kr->keys[k];
      p->flags |= CB_FLAG_LOCKED, shut++;
    }
    sealed[r] = true;
    if (shut && cb_dungeon_log(d, "Stocking: room %d, a start behind lock %s, has its ways locked by %s too.",
                               room->number, key, key))
      return -1;
  }
  return 0;
}

/* A new key lying in a sealed start would open the party's way out of it:
 * it moves to a room behind exactly the same new locks, not a start. */
static int move_keys(cb_dungeon *d, const cb_graph *g, int start, int s, const char **keys, int nk,
                     bool *blocked, bool *far, bool *near, bool *ok) {
  cb_room *room = &d->rooms[s];
  for (int r = 0; r < d->nrooms; r++)
    ok[r] =
        r != s && r != start && !(d->rooms[r].tags & (CB_TAG_START | CB_TAG_MAIN_START | CB_TAG_ENTRANCE));
  for (int j = 0; j < nk; j++) {
    if (far_side(d, g, start, keys[j], blocked, far, near) < 0) return -1;
    for (int r = 0; r < d->nrooms; r++)
      ok[r] = ok[r] && far[r] == far[s];
  }
  for (int k = room->nkeys - 1; k >= 0; k--) {
    int j = 0, to = 0;
    while (j < nk && strcmp(keys[j], room->keys[k]))
      j++;
    while (to < d->nrooms && !ok[to])
      to++;
    if (j == nk || to == d->nrooms) continue;
    char name[32];
    snprintf(name, sizeof name, "%s", room->keys[k]);
    cb_dungeon_remove_key(room, name);
    if (cb_dungeon_add_key(d, &d->rooms[to], name)) return -1;
    const char *moved = d->rooms[to].keys[d->rooms[to].nkeys - 1];
    for (int i = 0; i < d->npassages; i++)
      if (d->passages[i].lock && !strcmp(d->passages[i].lock, name)) d->passages[i].lock = moved;
    keys[j] = moved;
    if (cb_dungeon_log(d, "Stocking: key %s moves from room %d, a sealed start, to room %d.", name,
                       room->number, d->rooms[to].number))
      return -1;
  }
  return 0;
}

static int seal_starts(cb_dungeon *d, const bool *was_locked) {
  int start = cb_check_start_room(d), np = d->npassages, nr = d->nrooms, st = 0;
  const char **keys = cb_calloc((size_t)np + 1, sizeof *keys);
  int *size = cb_calloc((size_t)np + 1, sizeof *size), nk = 0;
  bool *blocked = cb_calloc((size_t)np + 1, 1), *far = cb_calloc((size_t)nr + 1, 1),
       *near = cb_calloc((size_t)nr + 1, 1);
  bool *sealed = cb_calloc((size_t)nr + 1, 1), *ok = cb_calloc((size_t)nr + 1, 1);
  cb_graph g;
  bool built = false;
  if (!keys || !size || !blocked || !far || !near || !sealed || !ok || start < 0 ||
      (st = cb_graph_build(d, &g)) != 0)
    goto done;
  built = true;
  for (int i = 0; i < np; i++) {
    const char *k = d->passages[i].lock;
    if (!k || was_locked[i]) continue;
    int j = 0;
    while (j < nk && strcmp(keys[j], k))
      j++;
    if (j == nk) keys[nk++] = k;
  }
  for (int j = 0; j < nk && st >= 0; j++)
    st = size[j] = far_side(d, &g, start, keys[j], blocked, far, near);
  for (int done_n = 0; done_n < nk && st >= 0; done_n++) { /* the outermost (largest far side) first */
    int best = -1;
    for (int j = 0; j < nk; j++)
      if (size[j] >= 0 && (best < 0 || size[j] > size[best])) best = j;
    size[best] = -1;
    if (far_side(d, &g, start, keys[best], blocked, far, near) < 0 ||
        seal_one(d, start, keys[best], far, sealed))
      st = -1;
    cb_graph_free(&g);
    if (cb_graph_build(d, &g)) built = false, st = -1;
  }
  for (int r = 0; r < nr && st >= 0; r++)
    if (sealed[r] && d->rooms[r].nkeys) st = move_keys(d, &g, start, r, keys, nk, blocked, far, near, ok);
done:
  if (built) cb_graph_free(&g);
  free((void *)keys), free(size), free(blocked), free(far), free(near), free(sealed), free(ok);
  return st < 0 ? -1 : 0;
}

int cb_stock_locks(cb_dungeon *d, int n) {
  if (n <= 0 || d->nrooms < 2) return 0;
  bool *was_locked = cb_calloc((size_t)d->npassages + 1, 1);
  if (!was_locked) return -1;
  for (int i = 0; i < d->npassages; i++)
    was_locked[i] = (d->passages[i].flags & CB_FLAG_LOCKED) != 0;
  int placed = place_locks(d, n);
  if (placed > 0 && seal_starts(d, was_locked)) placed = -1;
  free(was_locked);
  return placed;
}

static int place_locks(cb_dungeon *d, int n) {
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
  if (n > CB_STOCK_MAX_LOCKS) n = CB_STOCK_MAX_LOCKS;
  if (m == 0 && n == 1) {
    placed = lock_the_goal(&w);
    goto done;
  }
  if (m < n) { /* too few single passages: a chain, else as many as there are */
    placed = chain_locks(&w, n, m > 1 ? m : 1);
    if (placed != 0) goto done;
    if (m == 0) {
      placed = lock_the_goal(&w);
      goto done;
    }
    n = m;
  }
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
