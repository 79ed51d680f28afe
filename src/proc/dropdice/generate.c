/* dropdice: Jaquaysed drop-dice point-crawl (seed 004, generators.md).
 * Rooms are dice on a tray; paths follow the Delaunay mesh; the rooms' die
 * values decide encounters, goals, starts and how each path is rewritten. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/heap.h"
#include "base/table.h"
#include "geom/boxgrid.h"
#include "geom/delaunay.h"
#include "geom/segment.h"
#include "model/bfs.h"
#include "model/check.h"
#include "model/rng.h"
#include "proc.h"
#include "proc/proc.h"

enum { DEFAULT_ROOMS = 10, MAX_ROOMS = 100000 };
static const double DIE_FT = 10.0;      /* a die's width on the tray, in map feet */
static const double TRAY_PER_DIE = 5.0; /* tray area per die, in square die widths */
static const double TRAY_ASPECT = 1.35; /* the map area's width / height */

/* Working state; room indices run 0..n-1 and room ids are index + 1. */
typedef struct dd {
  cb_dungeon *d;
  cb_rng rng;
  const cb_gen_options *o;
  int n;
  cb_point *pt;
  int *value;
  cb_edge *del;
  int ndel;
  unsigned char *in_tree; /* per Delaunay edge */
  cb_seggrid *grid;
  int *deg;
  cb_pair *paths; /* room indices, tree first then extra, in the order drawn */
  int npaths, ntree;
  size_t cap_paths;
} dd;

static double dist(const dd *s, int a, int b) {
  return hypot(s->pt[a].x - s->pt[b].x, s->pt[a].y - s->pt[b].y);
}

static int id(int index) { return index + 1; }

/* A path may be drawn when it crosses no path and passes through no third room. */
static int path_is_clear(dd *s, int a, int b) {
  return !cb_seggrid_crosses(s->grid, a, b) && !cb_seggrid_near_point(s->grid, a, b, DIE_FT / 2);
}

static cb_status draw_path(dd *s, int a, int b, cb_error *err) {
  if (cb_grow(&s->paths, &s->cap_paths, (size_t)s->npaths + 1, sizeof *s->paths) ||
      cb_seggrid_add(s->grid, a, b))
    return cb_error_oom(err);
  s->paths[s->npaths++] = (cb_pair){a, b};
  s->deg[a]++;
  s->deg[b]++;
  return CB_OK;
}

/* Room placement: roll the dice onto the tray; no two closer than a die's width. */
static cb_status drop_dice(dd *s, cb_error *err) {
  double area = s->n * TRAY_PER_DIE * DIE_FT * DIE_FT;
  double h = sqrt(area / TRAY_ASPECT), w = h * TRAY_ASPECT;
  w = round(w * 100) / 100;
  h = round(h * 100) / 100;
  /* the spatial grid with die-sized cells finds the neighbours of a throw */
  cb_boxgrid *grid = cb_boxgrid_new(DIE_FT);
  int *near = NULL, rethrows = 0, ok = grid != NULL;
  size_t cap = 0;
  for (int i = 0; ok && i < s->n; i++) {
    double x = 0, y = 0;
    for (int n = 1, k = 0; ok && k < n; rethrows++) {
      x = round(cb_rng_unit(&s->rng) * w * 100) / 100;
      y = round(cb_rng_unit(&s->rng) * h * 100) / 100;
      n = cb_boxgrid_find(grid, x - DIE_FT, y - DIE_FT, x + DIE_FT, y + DIE_FT, &near, &cap);
      k = 0;
      while (k < n && hypot(s->pt[near[k]].x - x, s->pt[near[k]].y - y) >= DIE_FT)
        k++;
      ok = n >= 0;
    }
    rethrows--; /* the throw that landed */
    s->pt[i] = (cb_point){x, y};
    s->value[i] = cb_d6(&s->rng);
    ok = ok && cb_boxgrid_add(grid, i, x, y, x, y) == 0;
  }
  cb_boxgrid_free(grid);
  free(near);
  if (!ok) return cb_error_oom(err);

  cb_dungeon *d = s->d;
  cb_dropdice_proc *p = cb_dropdice_of(d);
  p->die_ft = DIE_FT;
  d->room_ft = DIE_FT; /* rooms are drawn as the dice they are */
  p->area_w = w;
  p->area_h = h;
  p->ndice = s->n;
  p->dice = cb_arena_alloc(d->arena, (size_t)s->n, sizeof *p->dice);
  if (!p->dice) return cb_error_oom(err);
  cb_dungeon_log(d,
                 "Dropped %d %s on a %.0f by %.0f ft tray; a die is %.0f ft wide, and %d %s "
                 "landed too close to another and %s rolled again.",
                 s->n, s->n == 1 ? "die" : "dice", w, h, DIE_FT, rethrows, rethrows == 1 ? "die" : "dice",
                 rethrows == 1 ? "was" : "were");
  for (int i = 0; i < s->n; i++) {
    cb_room *r = cb_dungeon_add_room(d, 1, s->pt[i].x, s->pt[i].y);
    if (!r) return cb_error_oom(err);
    r->value = s->value[i];
    p->dice[i] = (cb_die){id(i), s->pt[i].x, s->pt[i].y, s->value[i]};
    if (s->n <= CB_LOG_DETAIL_ROOMS) cb_dungeon_log(d, "Room %d: the die shows %d.", id(i), s->value[i]);
  }
  return d->oom ? cb_error_oom(err) : CB_OK;
}

/* The Delaunay mesh the paths are drawn from (qhull). */
static cb_status triangulate(dd *s, cb_error *err) {
  cb_status st = cb_delaunay(s->pt, s->n, &s->del, &s->ndel, err);
  if (st != CB_OK) return st;
  cb_dropdice_proc *p = cb_dropdice_of(s->d);
  p->ndelaunay = s->ndel;
  p->delaunay = cb_arena_alloc(s->d->arena, (size_t)s->ndel, sizeof *p->delaunay);
  s->in_tree = cb_calloc((size_t)s->ndel + 1, 1);
  if (!p->delaunay || !s->in_tree) return cb_error_oom(err);
  for (int i = 0; i < s->ndel; i++)
    p->delaunay[i] = (cb_pair){id(s->del[i].a), id(s->del[i].b)};
  cb_dungeon_log(s->d, "Triangulated the rooms: %d Delaunay edges to draw paths along.", s->ndel);
  return CB_OK;
}

typedef struct heap_item {
  double len;
  int edge, to;
} heap_item;

static int heap_less(const void *va, const void *vb, void *ctx) {
  (void)ctx;
  const heap_item *a = va, *b = vb;
  return a->len < b->len || (a->len == b->len && a->edge < b->edge);
}

/* No clean Delaunay edge leaves the visited rooms (never seen in practice):
 * take the closest clean pair of any rooms, or the closest pair at all. */
static int fallback_pair(dd *s, const unsigned char *visited, int *pa, int *pb) {
  double best = INFINITY, best_any = INFINITY;
  int ba = -1, bb = -1, aa = -1, ab = -1;
  for (int a = 0; a < s->n; a++) {
    if (!visited[a]) continue;
    for (int b = 0; b < s->n; b++) {
      if (visited[b]) continue;
      double l = dist(s, a, b);
      if (l < best_any) best_any = l, aa = a, ab = b;
      if (l < best && path_is_clear(s, a, b)) best = l, ba = a, bb = b;
    }
  }
  *pa = ba >= 0 ? ba : aa;
  *pb = ba >= 0 ? bb : ab;
  return ba >= 0;
}

/* Initial paths pass: from a random first room, keep joining the closest
 * unvisited room to a visited one, unless the path would cross a path or
 * pass through a third room. */
static cb_status initial_paths(dd *s, cb_error *err) {
  cb_dungeon *d = s->d;
  int n = s->n;
  int *start = cb_calloc((size_t)n + 1, sizeof *start),
      *adj = cb_malloc(((size_t)s->ndel * 2 + 1) * sizeof *adj);
  unsigned char *visited = cb_calloc((size_t)n, 1);
  cb_heap heap = cb_heap_make(sizeof(heap_item), heap_less, NULL);
  int skipped = 0;
  cb_status st = CB_OK;
  if (!start || !adj || !visited) goto fail_oom;
  for (int e = 0; e < s->ndel; e++)
    start[s->del[e].a + 1]++, start[s->del[e].b + 1]++;
  for (int i = 0; i < n; i++)
    start[i + 1] += start[i];
  {
    int *fill = cb_calloc((size_t)n, sizeof *fill);
    if (!fill) goto fail_oom;
    for (int e = 0; e < s->ndel; e++) {
      adj[start[s->del[e].a] + fill[s->del[e].a]++] = e;
      adj[start[s->del[e].b] + fill[s->del[e].b]++] = e;
    }
    free(fill);
  }
  int first = (int)cb_rng_below(&s->rng, (uint32_t)n);
  cb_dungeon_log(d, "Initial paths: began at room %d, chosen at random, and marked it visited.", id(first));
  visited[first] = 1;
  int nvisited = 1, cur = first;
  while (nvisited < n) {
    for (int k = start[cur]; k < start[cur + 1]; k++) {
      int e = adj[k], other = s->del[e].a == cur ? s->del[e].b : s->del[e].a;
      if (!visited[other] && cb_heap_push(&heap, &(heap_item){dist(s, cur, other), e, other})) goto fail_oom;
    }
    int a = -1, b = -1;
    while (heap.n > 0) {
      heap_item it;
      cb_heap_pop(&heap, &it);
      if (visited[it.to]) continue;
      int from = s->del[it.edge].a == it.to ? s->del[it.edge].b : s->del[it.edge].a;
      if (!path_is_clear(s, from, it.to)) {
        skipped++; /* it crosses or passes a room now, and paths only ever get added */
        continue;
      }
      a = from;
      b = it.to;
      s->in_tree[it.edge] = 1;
      break;
    }
    if (a < 0) {
      int clean = fallback_pair(s, visited, &a, &b);
      cb_dungeon_log(d, "No clean path along the mesh reaches an unvisited room; %s %d-%d.",
                     clean ? "joined the closest clean pair off the mesh," : "forced the closest pair,",
                     id(a), id(b));
    }
    if ((st = draw_path(s, a, b, err)) != CB_OK) goto done;
    visited[b] = 1;
    nvisited++;
    cur = b;
    if (n <= CB_LOG_DETAIL_ROOMS)
      cb_dungeon_log(d, "Path %d-%d: room %d is the closest unvisited room (%.0f ft).", id(a), id(b), id(b),
                     dist(s, a, b));
  }
  s->ntree = s->npaths;
  cb_dungeon_log(d,
                 "All %d rooms visited with %d paths; %d closer paths were skipped because they "
                 "crossed a path or passed through a room.",
                 n, s->ntree, skipped);
  goto done;
fail_oom:
  st = cb_error_oom(err);
done:
  free(start);
  free(adj);
  free(visited);
  cb_heap_free(&heap);
  return st;
}

/* Initial rooms pass: even dead ends hold an encounter and treasure, the
 * highest dead end(s) are the goal(s), every other even room an encounter. */
static void initial_rooms_pass(dd *s) {
  cb_dungeon *d = s->d;
  int best = -1;
  for (int i = 0; i < s->n; i++)
    if (s->deg[i] == 1 && s->value[i] > best) best = s->value[i];
  int ngoals = 0;
  for (int i = 0; i < s->n; i++) {
    cb_room *r = &d->rooms[i];
    if (s->deg[i] == 1) {
      if (s->value[i] % 2 == 0) r->tags |= CB_TAG_ENCOUNTER | CB_TAG_TREASURE;
      if (s->value[i] == best) r->tags |= CB_TAG_GOAL, ngoals++;
    } else if (s->value[i] % 2 == 0) {
      r->tags |= CB_TAG_ENCOUNTER;
    }
  }
  if (best < 0) {
    cb_dungeon_log(d, "Initial rooms pass: no dead ends, so no goal.");
  } else {
    cb_dungeon_log(d,
                   "Initial rooms pass: even dead ends get an encounter and treasure; the highest "
                   "dead-end value is %d, so %d goal room%s.",
                   best, ngoals, ngoals == 1 ? "" : "s");
  }
  if (s->n > CB_LOG_DETAIL_ROOMS) return;
  for (int i = 0; i < s->n; i++) {
    unsigned t = d->rooms[i].tags;
    if (t & CB_TAG_GOAL)
      cb_dungeon_log(d, "Room %d (%d) is a dead end with the highest value: goal%s.", id(i), s->value[i],
                     t & CB_TAG_TREASURE ? ", with an encounter and treasure" : "");
    else if (t & CB_TAG_TREASURE)
      cb_dungeon_log(d, "Room %d (%d) is an even dead end: encounter and treasure.", id(i), s->value[i]);
    else if (t & CB_TAG_ENCOUNTER)
      cb_dungeon_log(d, "Room %d (%d) is even: encounter.", id(i), s->value[i]);
  }
}

typedef struct cand {
  int edge, hops;
  double len;
} cand;

static int cand_cmp(const void *pa, const void *pb) {
  const cand *a = pa, *b = pb;
  if (a->hops != b->hops) return a->hops > b->hops ? -1 : 1;
  if (a->len != b->len) return a->len > b->len ? -1 : 1;
  return (a->edge > b->edge) - (a->edge < b->edge);
}

/* Tree distance (hops, then feet) of every candidate, by lowest common
 * ancestors with binary lifting over the spanning tree: O(n log n). */
static cb_status tree_distances(dd *s, cand *c, int nc, cb_error *err) {
  int n = s->n, levels = 1;
  while ((1 << levels) < n)
    levels++;
  int *start = cb_calloc((size_t)n + 1, sizeof *start),
      *adj = cb_malloc(((size_t)s->ntree * 2 + 1) * sizeof *adj);
  cb_bfs walk;
  int bad = cb_bfs_init(&walk, n), *depth = walk.hops;
  int *fill = cb_calloc((size_t)n, sizeof *fill);
  double *feet = cb_malloc((size_t)n * sizeof *feet);
  int *up = cb_malloc((size_t)n * (levels + 1) * sizeof *up);
  cb_status st = CB_OK;
  if (!start || !adj || bad || !fill || !feet || !up) {
    st = cb_error_oom(err);
    goto done;
  }
  for (int t = 0; t < s->ntree; t++)
    start[s->paths[t].a + 1]++, start[s->paths[t].b + 1]++;
  for (int i = 0; i < n; i++)
    start[i + 1] += start[i];
  for (int t = 0; t < s->ntree; t++) {
    int a = s->paths[t].a, b = s->paths[t].b;
    adj[start[a] + fill[a]++] = b;
    adj[start[b] + fill[b]++] = a;
  }
  cb_bfs_reach(&walk, -1, 0);
  feet[0] = 0;
  up[0] = 0;
  for (int u; (u = cb_bfs_next(&walk)) >= 0;)
    for (int k = start[u]; k < start[u + 1]; k++)
      if (cb_bfs_reach(&walk, u, adj[k])) feet[adj[k]] = feet[u] + dist(s, u, adj[k]), up[adj[k]] = u;
  for (int j = 1; j <= levels; j++)
    for (int v = 0; v < n; v++)
      up[j * n + v] = up[(j - 1) * n + up[(j - 1) * n + v]];
  for (int i = 0; i < nc; i++) {
    int a = s->del[c[i].edge].a, b = s->del[c[i].edge].b, u = a, v = b;
    if (depth[u] < depth[v]) u = b, v = a;
    for (int j = levels; j >= 0; j--)
      if (depth[u] - (1 << j) >= depth[v]) u = up[j * n + u];
    if (u != v) {
      for (int j = levels; j >= 0; j--)
        if (up[j * n + u] != up[j * n + v]) u = up[j * n + u], v = up[j * n + v];
      u = up[u];
    }
    c[i].hops = depth[a] + depth[b] - 2 * depth[u];
    c[i].len = feet[a] + feet[b] - 2 * feet[u];
  }
done:
  free(start);
  free(adj);
  cb_bfs_free(&walk);
  free(fill);
  free(feet);
  free(up);
  return st;
}

/* Extra paths pass: floor(2N/3) more paths between the furthest rooms
 * (longest loops first), none crossing a path or passing a third room, none
 * to a room that already has 4 paths. */
static cb_status extra_paths(dd *s, cb_error *err) {
  cb_dungeon *d = s->d;
  int want = s->n * 2 / 3, nc = 0, added = 0, full = 0, blocked = 0;
  cand *c = cb_malloc(((size_t)s->ndel + 1) * sizeof *c);
  if (!c) return cb_error_oom(err);
  for (int e = 0; e < s->ndel; e++)
    if (!s->in_tree[e]) c[nc++] = (cand){e, 0, 0};
  int by_tree = cb_dropdice_options_of(s->o)->extra_by == CB_EXTRA_BY_TREE;
  if (by_tree) {
    cb_status st = tree_distances(s, c, nc, err);
    if (st != CB_OK) {
      free(c);
      return st;
    }
  } else {
    for (int i = 0; i < nc; i++)
      c[i].len = dist(s, s->del[c[i].edge].a, s->del[c[i].edge].b);
  }
  qsort(c, (size_t)nc, sizeof *c, cand_cmp);
  cb_dungeon_log(d,
                 "Extra paths: %d wanted (rooms x 2/3, rounded down), from %d unused mesh edges, "
                 "furthest apart %s first.",
                 want, nc, by_tree ? "along the paths" : "as the crow flies");
  cb_pair *extra = cb_arena_alloc(d->arena, (size_t)(want ? want : 1), sizeof *extra);
  if (!extra) {
    free(c);
    return cb_error_oom(err);
  }
  for (int i = 0; i < nc && added < want; i++) {
    int a = s->del[c[i].edge].a, b = s->del[c[i].edge].b;
    if (s->deg[a] >= 4 || s->deg[b] >= 4) {
      full++;
      continue;
    }
    if (!path_is_clear(s, a, b)) {
      blocked++;
      continue;
    }
    cb_status st = draw_path(s, a, b, err);
    if (st != CB_OK) {
      free(c);
      return st;
    }
    extra[added++] = (cb_pair){id(a), id(b)};
    if (s->n <= CB_LOG_DETAIL_ROOMS) {
      if (by_tree)
        cb_dungeon_log(d, "Extra path %d-%d: %d paths (%.0f ft) apart before.", id(a), id(b), c[i].hops,
                       c[i].len);
      else
        cb_dungeon_log(d, "Extra path %d-%d: %.0f ft long.", id(a), id(b), c[i].len);
    }
  }
  free(c);
  cb_dropdice_of(d)->extra = extra;
  cb_dropdice_of(d)->nextra = added;
  cb_dungeon_log(d,
                 "Added %d of %d extra paths; %d skipped for a room with 4 paths, %d for crossing a "
                 "path or passing through a room.",
                 added, want, full, blocked);
  return CB_OK;
}

typedef struct rank {
  int room, value, nsum;
} rank;

static int rank_cmp(const void *pa, const void *pb) {
  const rank *a = pa, *b = pb;
  if (a->value != b->value) return a->value < b->value ? -1 : 1;
  if (a->nsum != b->nsum) return a->nsum < b->nsum ? -1 : 1;
  return (a->room > b->room) - (a->room < b->room);
}

/* Final rooms pass: 1 + N/10 lowest odd rooms that are not goals start the
 * dungeon (tie: lowest neighbours' sum); the first of them is the main
 * start; odd dead ends that are not starts hold treasure. */
static cb_status final_rooms_pass(dd *s, cb_error *err) {
  cb_dungeon *d = s->d;
  int n = s->n, want = 1 + n / 10, nr = 0, nstarts = 0;
  rank *r = cb_malloc((size_t)n * sizeof *r);
  int *nsum = cb_calloc((size_t)n, sizeof *nsum);
  if (!r || !nsum) {
    free(r);
    free(nsum);
    return cb_error_oom(err);
  }
  for (int p = 0; p < s->npaths; p++) {
    nsum[s->paths[p].a] += s->value[s->paths[p].b];
    nsum[s->paths[p].b] += s->value[s->paths[p].a];
  }
  for (int i = 0; i < n; i++)
    r[nr++] = (rank){i, s->value[i], nsum[i]};
  qsort(r, (size_t)nr, sizeof *r, rank_cmp);
  /* odd non-goal rooms first, then (too few odd rooms) the lowest remaining */
  for (int pass = 0; pass < 2 && nstarts < want; pass++)
    for (int k = 0; k < nr && nstarts < want; k++) {
      cb_room *room = &d->rooms[r[k].room];
      if ((room->tags & (CB_TAG_GOAL | CB_TAG_START)) || (pass == 0 && r[k].value % 2 == 0)) continue;
      room->tags |= CB_TAG_START;
      if (nstarts == 0) room->tags |= CB_TAG_MAIN_START;
      nstarts++;
      if (pass == 1)
        cb_dungeon_log(d, "Too few odd rooms: room %d (%d) is a starting room instead.", room->id,
                       r[k].value);
    }
  if (nstarts == 0 && n > 0) {
    /* every room is a goal (two equal dead ends): the lowest gives up its goal */
    cb_room *room = &d->rooms[r[0].room];
    room->tags = (room->tags & ~CB_TAG_GOAL) | CB_TAG_START | CB_TAG_MAIN_START;
    nstarts = 1;
    cb_dungeon_log(d, "Every room is a goal; room %d (%d) becomes the main start instead.", room->id,
                   r[0].value);
  }
  for (int k = 0; k < nr && n <= CB_LOG_DETAIL_ROOMS; k++) {
    const cb_room *room = &d->rooms[r[k].room];
    if (room->tags & CB_TAG_START)
      cb_dungeon_log(d, "Room %d (%d, neighbours sum %d) is a %sstarting room.", room->id, r[k].value,
                     r[k].nsum, room->tags & CB_TAG_MAIN_START ? "main " : "");
  }
  if (n > CB_LOG_DETAIL_ROOMS)
    for (int i = 0; i < n; i++)
      if (d->rooms[i].tags & CB_TAG_MAIN_START)
        cb_dungeon_log(d, "%d starting rooms; the main start is room %d.", nstarts, id(i));
  int treasure = 0;
  for (int i = 0; i < n; i++) {
    cb_room *room = &d->rooms[i];
    if (s->deg[i] == 1 && s->value[i] % 2 == 1 && !(room->tags & CB_TAG_START) &&
        !(room->tags & CB_TAG_TREASURE)) {
      room->tags |= CB_TAG_TREASURE;
      treasure++;
      if (n <= CB_LOG_DETAIL_ROOMS)
        cb_dungeon_log(d, "Room %d (%d) is an odd dead end: treasure.", id(i), s->value[i]);
    }
  }
  if (n > CB_LOG_DETAIL_ROOMS) cb_dungeon_log(d, "%d odd dead ends hold treasure.", treasure);
  free(r);
  free(nsum);
  return CB_OK;
}

static int is_sg(const cb_room *r) { return (r->tags & (CB_TAG_START | CB_TAG_GOAL)) != 0; }

/* Where a key goes: the highest-valued room that is neither start nor goal
 * and holds no key (tie: lowest id). When moving a key (reached given), only
 * reached rooms count, and any reached room will do if none of those is. */
static int key_room(const dd *s, const bool *reached) {
  int best = -1;
  for (int pass = 0; pass < (reached ? 2 : 1) && best < 0; pass++)
    for (int i = 0; i < s->n; i++) {
      const cb_room *r = &s->d->rooms[i];
      if (reached && !reached[i]) continue;
      if (pass == 0 && (is_sg(r) || r->nkeys)) continue;
      if (best < 0 || s->value[i] > s->value[best]) best = i;
    }
  return best;
}

/* Path rewriting: start-start and goal-goal paths are secret; start-goal
 * paths secret or hard-locked; every other path by the values' difference. */
static cb_status rewrite_paths(dd *s, cb_error *err) {
  cb_dungeon *d = s->d;
  cb_dropdice_proc *proc = cb_dropdice_of(d);
  proc->ntree = s->ntree;
  proc->tree = cb_arena_alloc(d->arena, (size_t)s->ntree + 1, sizeof *proc->tree);
  proc->rewrites = cb_arena_alloc(d->arena, (size_t)s->npaths + 1, sizeof *proc->rewrites);
  if (!proc->tree || !proc->rewrites) return cb_error_oom(err);
  for (int t = 0; t < s->ntree; t++)
    proc->tree[t] = (cb_pair){id(s->paths[t].a), id(s->paths[t].b)};
  /* does goal g join a room that is neither start nor goal? */
  unsigned char *goal_open = cb_calloc((size_t)s->n, 1);
  if (!goal_open) return cb_error_oom(err);
  for (int p = 0; p < s->npaths; p++)
    for (int side = 0; side < 2; side++) {
      int g = side ? s->paths[p].b : s->paths[p].a, o = side ? s->paths[p].a : s->paths[p].b;
      if ((d->rooms[g].tags & CB_TAG_GOAL) && !is_sg(&d->rooms[o])) goal_open[g] = 1;
    }
  int nkeys = 0;
  for (int p = 0; p < s->npaths; p++) {
    int a = s->paths[p].a, b = s->paths[p].b;
    cb_room *ra = &d->rooms[a], *rb = &d->rooms[b];
    cb_passage *ps = cb_dungeon_add_passage(d, id(a), id(b), CB_PASSAGE_CORRIDOR);
    if (!ps) {
      free(goal_open);
      return cb_error_oom(err);
    }
    int sa = (ra->tags & CB_TAG_START) != 0, sb = (rb->tags & CB_TAG_START) != 0;
    int ga = (ra->tags & CB_TAG_GOAL) != 0, gb = (rb->tags & CB_TAG_GOAL) != 0;
    cb_rewrite_rule rule;
    const char *why;
    if (sa && sb) {
      rule = CB_REWRITE_START_START, why = "joins two starting rooms: secret";
    } else if (ga && gb) {
      rule = CB_REWRITE_GOAL_GOAL, why = "joins two goals: secret";
    } else if ((sa && gb) || (ga && sb)) {
      int g = ga ? a : b, k = goal_open[g] ? -1 : key_room(s, NULL);
      if (goal_open[g]) {
        rule = CB_REWRITE_START_GOAL_SECRET, why = "joins a start to a goal that has another way in: secret";
      } else if (k < 0) {
        rule = CB_REWRITE_START_GOAL_SECRET,
        why = "joins a start to a closed goal, but no room can hold a key: secret";
      } else {
        rule = CB_REWRITE_START_GOAL_LOCKED;
        char key[16];
        snprintf(key, sizeof key, "K%d", ++nkeys);
        ps->flags |= CB_FLAG_LOCKED;
        ps->lock = cb_arena_strdup(d->arena, key);
        if (!ps->lock || cb_dungeon_add_key(d, &d->rooms[k], key)) {
          free(goal_open);
          return cb_error_oom(err);
        }
        cb_dungeon_log(d,
                       "Path %d-%d joins a start to a goal with no other way in: hard-locked; its key %s "
                       "goes to room %d (%d), the highest room that is neither start nor goal.",
                       id(a), id(b), key, id(k), s->value[k]);
        why = NULL;
      }
    } else {
      int diff = abs(s->value[a] - s->value[b]);
      rule = diff == 0 ? CB_REWRITE_ZERO : diff % 2 ? CB_REWRITE_ODD : CB_REWRITE_EVEN;
      why = diff == 0  ? "values differ by 0: soft-locked"
            : diff % 2 ? "values differ by an odd number: normal"
                       : "values differ by an even number: trapped";
    }
    if (rule <= CB_REWRITE_START_GOAL_SECRET) ps->flags |= CB_FLAG_SECRET;
    if (rule == CB_REWRITE_EVEN) ps->flags |= CB_FLAG_TRAPPED;
    if (rule == CB_REWRITE_ZERO) ps->flags |= CB_FLAG_SOFT_LOCKED;
    proc->rewrites[proc->nrewrites++] = (cb_rewrite){ps->id, rule};
    if (why && s->n <= CB_LOG_DETAIL_ROOMS)
      cb_dungeon_log(d, "Path %d-%d (%d and %d) %s.", id(a), id(b), s->value[a], s->value[b], why);
  }
  free(goal_open);
  return d->oom ? cb_error_oom(err) : CB_OK;
}

/* Beyond the seed: every key must be reachable from the main start without
 * its own lock; a key that is not moves to the highest reachable room. */
static cb_status check_keys(dd *s, cb_error *err) {
  cb_dungeon *d = s->d;
  cb_graph g;
  bool *reached = cb_malloc(((size_t)s->n + 1) * sizeof *reached);
  if (!reached || cb_graph_build(d, &g)) {
    free(reached);
    return cb_error_oom(err);
  }
  int start = cb_check_start_room(d), moved = 0, shut = 0, progress = !s->o->faithful;
  if (s->o->faithful && (shut = cb_check_walk(d, &g, start, reached)) > 0)
    cb_dungeon_log(d, "Key check (faithful, no repair): %d lock%s cannot be opened from room %d.", shut,
                   shut == 1 ? "" : "s", id(start));
  while (progress && (shut = cb_check_walk(d, &g, start, reached)) > 0) {
    progress = 0;
    /* move the key of the first shut lock; the next walk opens it */
    for (int p = 0; p < d->npassages && !progress; p++) {
      const cb_passage *ps = &d->passages[p];
      const cb_room *kr = ps->lock ? cb_dungeon_key_room(d, ps->lock) : NULL;
      cb_room *holder = kr ? &d->rooms[kr - d->rooms] : NULL;
      if (!holder || reached[holder - d->rooms]) continue;
      int k = key_room(s, reached);
      if (k < 0) break;
      cb_dungeon_remove_key(holder, ps->lock);
      if (cb_dungeon_add_key(d, &d->rooms[k], ps->lock)) break;
      cb_dungeon_log(d,
                     "Key check: %s in room %d cannot be reached from room %d without its own lock; "
                     "moved to room %d (%d).",
                     ps->lock, holder->id, id(start), id(k), s->value[k]);
      moved++;
      progress = 1;
    }
  }
  cb_graph_free(&g);
  free(reached);
  if (shut < 0 || d->oom) return cb_error_oom(err);
  if (moved == 0 && !s->o->faithful)
    cb_dungeon_log(d, "Key check: every key can be reached from room %d.", id(start));
  return CB_OK;
}

/* What the key says of each room, from the seed's notes on its marks: the
 * first row of the content table (templates/dropdice-contents.txt, or
 * --content FILE) whose tags the room has. */
static cb_status describe_rooms(dd *s, cb_error *err) {
  char buf[4096];
  const char *content = cb_dropdice_options_of(s->o)->content;
  const char *name = content ? content : "dropdice-contents";
  cb_table t;
  cb_status st = cb_table_read(cb_table_path(name, buf, sizeof buf), 2, 2, &t, err);
  if (st != CB_OK) return st;
  unsigned *want = cb_calloc((size_t)t.nrows + 1, sizeof *want);
  if (!want) {
    cb_table_free(&t);
    return cb_error_oom(err);
  }
  int fallback = 0;
  for (int k = 0; k < t.nrows && st == CB_OK; k++) {
    char tags[256];
    snprintf(tags, sizeof tags, "%s", t.rows[k].fields[0]);
    if (strcmp(tags, "-") == 0) {
      fallback = 1;
      continue;
    }
    for (char *at, *w = strtok_r(tags, " \t", &at); w && st == CB_OK; w = strtok_r(NULL, " \t", &at)) {
      int bit = cb_tag_parse(w);
      if (bit < 0)
        st = cb_table_fail(&t, &t.rows[k], err, "unknown tag '%s' (model.md lists the names)", w);
      else
        want[k] |= (unsigned)bit;
    }
    if (st == CB_OK && !*t.rows[k].fields[1])
      st = cb_table_fail(&t, &t.rows[k], err, "the room's line is empty");
  }
  if (st == CB_OK && !fallback) st = cb_table_fail(&t, NULL, err, "no \"-\" row for rooms without marks");
  for (int i = 0; i < s->n && st == CB_OK; i++) {
    cb_room *r = &s->d->rooms[i];
    for (int k = 0; k < t.nrows; k++)
      if ((r->tags & want[k]) == want[k]) {
        if (!(r->text = cb_arena_strdup(s->d->arena, t.rows[k].fields[1]))) st = cb_error_oom(err);
        break;
      }
  }
  free(want);
  cb_table_free(&t);
  return st;
}

static cb_status validate(const cb_gen_options *o, cb_error *err) {
  if (o->levels > 1) return cb_error_set(err, CB_EINPUT, "--levels %d: dropdice makes one level", o->levels);
  return CB_OK;
}

static cb_status record_options(cb_dungeon *d, const cb_gen_options *o, int n) {
  cb_gen_options used = *o;
  used.rooms = n;
  cb_option_record_all(d, &cb_dropdice_option_specs, &used, cb_dropdice_options_of(o));
  return CB_OK;
}

static cb_status steps(const cb_gen_options *o, const void *ctx, cb_dungeon *d, cb_error *err) {
  (void)ctx;
  cb_status st;
  dd s = {0};
  s.o = o;
  s.n = o->rooms ? o->rooms : DEFAULT_ROOMS;
  cb_rng_seed(&s.rng, o->seed, 0);
  s.d = d;
  s.pt = cb_malloc((size_t)s.n * sizeof *s.pt);
  s.value = cb_malloc((size_t)s.n * sizeof *s.value);
  s.deg = cb_calloc((size_t)s.n, sizeof *s.deg);
  if (!s.pt || !s.value || !s.deg) goto fail_oom;
  s.d->procedure = cb_arena_alloc(s.d->arena, 1, sizeof(cb_dropdice_proc));
  s.d->marks_rooms = true; /* the dice say what is in each room */
  if (!cb_dropdice_of(s.d) || !cb_dungeon_add_level(s.d, 1, "Level 1")) goto fail_oom;
  record_options(s.d, o, s.n);
  if ((st = drop_dice(&s, err)) != CB_OK) goto done;
  if ((st = triangulate(&s, err)) != CB_OK) goto done;
  s.grid = cb_seggrid_new(s.pt, s.n, DIE_FT * 1.5);
  if (!s.grid) goto fail_oom;
  if ((st = initial_paths(&s, err)) != CB_OK) goto done;
  initial_rooms_pass(&s);
  if ((st = extra_paths(&s, err)) != CB_OK) goto done;
  if ((st = final_rooms_pass(&s, err)) != CB_OK) goto done;
  if ((st = rewrite_paths(&s, err)) != CB_OK) goto done;
  if ((st = check_keys(&s, err)) != CB_OK) goto done;
  st = describe_rooms(&s, err);
  goto done;
fail_oom:
  st = cb_error_oom(err);
done:
  free(s.pt);
  free(s.value);
  free(s.deg);
  free(s.del);
  free(s.in_tree);
  free(s.paths);
  cb_seggrid_free(s.grid);
  return st;
}

const cb_generator cb_gen_dropdice = {
    .name = "dropdice",
    .title_noun = "Dice Pits",
    .max_rooms = MAX_ROOMS,
    .validate = validate,
    .steps = steps,
    .what = "A Jaquaysed drop-dice point-crawl",
    .io = &cb_proc_io_dropdice,
    .layout = NULL,
    .options = &cb_dropdice_option_specs,
};
