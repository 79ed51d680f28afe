/* preconnect: pre-connecting random non-linear dungeons, SubMethod I (seed
 * 002, generators.md). Rooms are drawn one after another on a plane (feet,
 * y southwards); every door rolls d10 for where its corridor leads before the
 * corridor is drawn, and the corridor is then shaped to fit. Geometry: rooms
 * are rectangles of 10-ft squares; corridors are polylines of axis-aligned
 * legs from a door on one wall to a door on another; every coordinate is a
 * multiple of 2.5 ft, so it survives JSON exactly. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "geom/boxgrid.h"
#include "geom/ortho.h"
#include "layout.h"
#include "model/rng.h"
#include "proc.h"
#include "proc/proc.h"

enum {
  MAX_DOORS = 4,
  DEFAULT_ROOMS = 12,
  MAX_ROOMS = 500,
  MAX_EXTRA_DOORS = 100000,
  MAX_SHAPES_TRIED = 200,
  MAX_CORNERS = 16 /* points in a corridor to a drawn room */
};
static const double SQUARE_FT = 10; /* the map's squares */
static const double STUB_FT = 10;   /* a corridor leaves a wall straight for this long before turning */
static const double GAP_FT = 7.5;   /* rooms keep at least this far apart (a new room may touch its parent) */
static const double CLEAR_FT = 10;  /* rooms keep a square from corridors */
static const double EDGE_FT = 5;    /* doors keep this far from a wall's corners and from each other */
static const double APART_FT = 10;  /* ... and a square from each other where the wall has room */
static const double SNAP_FT = 2.5;  /* every door lies on this grid */
static const double STAIRS_FT = 5;  /* stairs this far before and after a crossed corridor */
static const double NEW_DOOR_FT = 600; /* a corridor takes a new door into a room only to cross less */
/* a corridor closer than this beside another, parallel, is crowded: parallel corridors keep a grid
 * square apart (booklet.md "The map") */
static const double NEAR_FT = 10;
/* a door opens onto this much room before anything stands in front of it */
static const double WALL_FT = 7.5;
/* a routed corridor keeps this far off every room's walls: 5 ft rather than 7.5 leaves 5 ft more of
 * a channel between two rooms for corridors to keep a square apart in, and spares the router its
 * searches that found nothing at 7.5 ft */
static const double TIGHT_FT = 5;
/* what a corridor's shape costs, in feet: each room it crosses, each corridor, each turn, each foot
 * crowded (a corridor crosses another by the d10 rather than run 7.5 ft beside it; refused outright,
 * corridors crossed more than issue 12's 8 a map) */
static const double ROOM_CROSSING = 100000, CORRIDOR_CROSSING = 150, RUN_ALONG = 500, TURN = 15, CROWDED = 20;
/* a routed corridor (round rooms, to a room already drawn or a spot beyond a rolled end) pays more a
 * foot crowded: it moves a square over for a turn or two, where a corridor shaped to its roll would
 * cross more (CROWDED 30 there took issue 12's crossings a map from 7.7 to 7.9; the router's alone,
 * to 7.8; 40 since routes keep 5 ft off walls, 7.83 over 4,000 maps; 60 with corridors spread once
 * all are drawn, 7.82, and 17% fewer feet of corridor abreast) */
static const double CROWDED_ROUTED = 60;
static const double EPS = 1e-6;

static const int DX[CB_FACING_COUNT] = {0, 1, 0, -1}, DY[CB_FACING_COUNT] = {-1, 0, 1, 0};
static const char *const FACING_WORD[CB_FACING_COUNT] = {"north", "east", "south", "west"};

/* The check every 60 ft of corridor (d6): what happens, then 20 ft more. */
typedef enum { CHECK_LEFT, CHECK_RIGHT, CHECK_SIDE_LEFT, CHECK_SIDE_RIGHT, CHECK_STRAIGHT } check_result;
static const struct {
  check_result result;
  const char *words;
} CHECK_TABLE[6] = {{CHECK_LEFT, "the corridor turns left"},
                    {CHECK_RIGHT, "the corridor turns right"},
                    {CHECK_SIDE_LEFT, "a side passage opens on the left (a blind 20 ft)"},
                    {CHECK_SIDE_RIGHT, "a side passage opens on the right (a blind 20 ft)"},
                    {CHECK_STRAIGHT, "the corridor runs straight on"},
                    {CHECK_STRAIGHT, "the corridor runs straight on"}};
static const double CHECK_AT_FT = 60, AFTER_CHECK_FT = 20, SIDE_FT = 20;

typedef cb_pc_point pt;

static inline double lo2(double a, double b) { return a < b ? a : b; }
static inline double hi2(double a, double b) { return a > b ? a : b; }

/* Working state. Doors are indices into p->doors (the array moves as it grows). */
typedef struct pc {
  cb_dungeon *d;
  cb_rng rng;
  const cb_gen_options *o;
  cb_preconnect_proc *p;
  int n; /* rooms wanted */
  size_t cap_rooms, cap_doors;
  int drawn; /* corridors drawn so far */
  struct pending {
    int cur;   /* the current room when it was postponed */
    int kind;  /* 0 not postponed, 1 a distant room to find, 2 a number to re-read */
  } * pending; /* per door */
  size_t cap_pending;
  struct box {
    double x0, y0, x1, y1;
  } * box; /* per door: its corridor's bounding box (side passage included) */
  size_t cap_box;
  struct route *cand; /* scratch: the corridor shapes tried */
  size_t cap_cand;
  cb_ortho_block *blocks; /* scratch: the rooms, for the router */
  size_t cap_blocks;
  cb_point *segs; /* scratch: the corridors drawn, for the router */
  size_t cap_segs;
  cb_ortho_work *router; /* the router's room, kept from one corridor to the next */
  /* where things are, so that a test reads what is near and not the whole map: rooms by
   * index, corridors (side passage included) by door once drawn, doors by the spot before them */
  cb_boxgrid *rooms_at, *corridors_at, *spots_at;
  int *near; /* scratch: what nearby() found */
  size_t cap_near;
  bool big;              /* too many rooms for a line per step in the log */
  const char *side_lost; /* why the corridor being drawn lost its side passage, or NULL */
  pt side_shift;         /* how far the shape being fitted moves the door's side passage */
  bool shrink;           /* a new room that fits nowhere as rolled may be drawn smaller (fit_shape) */
} pc;

static double snap(double v) { return round(v / SNAP_FT) * SNAP_FT; }

static cb_pc_room *rect_of(pc *s, int room) { return &s->p->rooms[room - 1]; }

static pt centre(const cb_pc_room *r) { return (pt){r->x + r->w / 2, r->y + r->h / 2}; }

/* The point `off` feet along wall f of r (from its top or left end). */
static pt wall_point(const cb_pc_room *r, cb_facing f, double off) {
  switch (f) {
  case CB_FACING_N: return (pt){r->x + off, r->y};
  case CB_FACING_S: return (pt){r->x + off, r->y + r->h};
  case CB_FACING_W: return (pt){r->x, r->y + off};
  default: return (pt){r->x + r->w, r->y + off};
  }
}

static double wall_len(const cb_pc_room *r, cb_facing f) {
  return f == CB_FACING_N || f == CB_FACING_S ? r->w : r->h;
}

static double wall_off(const cb_pc_room *r, cb_facing f, pt q) {
  return f == CB_FACING_N || f == CB_FACING_S ? q.x - r->x : q.y - r->y;
}

static int on_wall(const cb_pc_room *r, cb_facing f, pt q) {
  pt a = wall_point(r, f, 0), b = wall_point(r, f, wall_len(r, f));
  return fabs(a.x - q.x) < EPS && fabs(b.x - q.x) < EPS   ? (q.y > a.y - EPS && q.y < b.y + EPS)
         : fabs(a.y - q.y) < EPS && fabs(b.y - q.y) < EPS ? (q.x > a.x - EPS && q.x < b.x + EPS)
                                                          : 0;
}

/* ---- geometry of the drawn map ---- */

static const double CELL_FT = 80; /* the cells of the grids that say where things are */

/* Files id under box [x0, x1] x [y0, y1] in g, s->near kept long enough
 * to list every id filed, so that nearby() needs no memory. -1 on OOM. */
static int file_at(pc *s, cb_boxgrid *g, int id, double x0, double y0, double x1, double y1) {
  if (cb_grow(&s->near, &s->cap_near, (size_t)id + 1, sizeof *s->near)) return -1;
  return cb_boxgrid_add(g, id, x0, y0, x1, y1);
}

/* The ids filed in g near box [x0, x1] x [y0, y1] (a foot more each way, so
 * that whatever the tests let in within EPS is among them), ascending, in
 * s->near; returns the count. (Should the grid fail, every id below `all`:
 * a slower scan, the same answer.) */
static int nearby(pc *s, cb_boxgrid *g, double x0, double y0, double x1, double y1, int all) {
  int n = cb_boxgrid_find(g, x0 - 1, y0 - 1, x1 + 1, y1 + 1, &s->near, &s->cap_near);
  if (n >= 0) return n;
  for (int i = 0; i < all && (size_t)i < s->cap_near; i++)
    s->near[i] = i;
  return all < (int)s->cap_near ? all : (int)s->cap_near;
}

static double poly_len(const pt *v, int n) {
  double l = 0;
  for (int i = 1; i < n; i++)
    l += fabs(v[i].x - v[i - 1].x) + fabs(v[i].y - v[i - 1].y);
  return l;
}

static pt point_at(const pt *v, int n, double s) {
  for (int i = 1; i < n; i++) {
    double l = fabs(v[i].x - v[i - 1].x) + fabs(v[i].y - v[i - 1].y);
    if (s <= l + EPS || i == n - 1) {
      double t = l > 0 ? fmin(1, fmax(0, s / l)) : 0;
      return (pt){snap(v[i - 1].x + (v[i].x - v[i - 1].x) * t), snap(v[i - 1].y + (v[i].y - v[i - 1].y) * t)};
    }
    s -= l;
  }
  return v[n - 1];
}

/* Drops repeated points and the middle of straight runs (a run that doubles
 * back becomes one leg). Returns the new count. */
static int simplify(pt *v, int n) {
  int k = 0;
  for (int i = 0; i < n; i++) {
    if (k > 0 && fabs(v[i].x - v[k - 1].x) < EPS && fabs(v[i].y - v[k - 1].y) < EPS) continue;
    if (k >= 2) {
      pt a = v[k - 2], b = v[k - 1];
      if ((fabs(a.x - b.x) < EPS && fabs(b.x - v[i].x) < EPS) ||
          (fabs(a.y - b.y) < EPS && fabs(b.y - v[i].y) < EPS)) {
        v[k - 1] = v[i];
        if (fabs(v[k - 1].x - v[k - 2].x) < EPS && fabs(v[k - 1].y - v[k - 2].y) < EPS) k--;
        continue;
      }
    }
    v[k++] = v[i];
  }
  return k;
}

typedef struct hit {
  double s0, s1;  /* along the corridor, feet */
  int room, door; /* what is crossed: a room, or the corridor of door index `door` */
} hit;

typedef struct hits {
  hit *h;
  int n;
  size_t cap;
} hits;

static int add_hit(hits *hs, hit h) {
  if (cb_grow(&hs->h, &hs->cap, (size_t)hs->n + 1, sizeof *hs->h)) return -1;
  hs->h[hs->n++] = h;
  return 0;
}

/* Where segment a-b runs inside the open rectangle r: [t0, t1] of 0..1. */
static int clip(pt a, pt b, const cb_pc_room *r, double *t0, double *t1) {
  double lo = 0, hi = 1, d[2] = {b.x - a.x, b.y - a.y}, p0[2] = {a.x, a.y};
  double mn[2] = {r->x + EPS, r->y + EPS}, mx[2] = {r->x + r->w - EPS, r->y + r->h - EPS};
  for (int k = 0; k < 2; k++) {
    if (fabs(d[k]) < EPS) {
      if (p0[k] <= mn[k] || p0[k] >= mx[k]) return 0;
      continue;
    }
    double u = (mn[k] - p0[k]) / d[k], w = (mx[k] - p0[k]) / d[k];
    if (u > w) {
      double t = u;
      u = w;
      w = t;
    }
    lo = hi2(lo, u);
    hi = lo2(hi, w);
  }
  if (hi - lo <= EPS) return 0;
  *t0 = lo;
  *t1 = hi;
  return 1;
}

static double seg_len(pt a, pt b) { return fabs(b.x - a.x) + fabs(b.y - a.y); }

/* Crossings of segment a-b (starting s along our corridor) with segment c-e of another. */
static int cross_segments(pt a, pt b, double s, double total, pt c, pt e, hits *hs, int door) {
  int ah = fabs(a.y - b.y) < EPS, ch = fabs(c.y - e.y) < EPS;
  if (ah != ch) {
    pt h0 = ah ? a : c, h1 = ah ? b : e, v0 = ah ? c : a, v1 = ah ? e : b;
    double x = v0.x, y = h0.y;
    double hx0 = lo2(h0.x, h1.x), hx1 = hi2(h0.x, h1.x), vy0 = lo2(v0.y, v1.y), vy1 = hi2(v0.y, v1.y);
    /* strictly inside the other's leg; anywhere on ours but its very ends */
    int ours_ok = ah ? (x > hx0 - EPS && x < hx1 + EPS && y > vy0 + EPS && y < vy1 - EPS)
                     : (x > hx0 + EPS && x < hx1 - EPS && y > vy0 - EPS && y < vy1 + EPS);
    if (!ours_ok) return 0;
    double at = s + fabs(x - a.x) + fabs(y - a.y);
    if (at < EPS || at > total - EPS) return 0;
    for (int i = 0; i < hs->n; i++)
      if (hs->h[i].door == door && hs->h[i].room == 0 && fabs(hs->h[i].s0 - at) < EPS) return 0;
    return add_hit(hs, (hit){at, at, 0, door});
  }
  /* parallel: a crossing only where they run along the same line */
  if (ah ? fabs(a.y - c.y) > EPS : fabs(a.x - c.x) > EPS) return 0;
  double a0 = ah ? a.x : a.y, a1 = ah ? b.x : b.y, c0 = ah ? c.x : c.y, c1 = ah ? e.x : e.y;
  double lo = hi2(lo2(a0, a1), lo2(c0, c1)), hi = lo2(hi2(a0, a1), hi2(c0, c1));
  if (hi - lo <= EPS) return 0;
  double u0 = s + fabs(lo - a0), u1 = s + fabs(hi - a0);
  if (u0 > u1) {
    double t = u0;
    u0 = u1;
    u1 = t;
  }
  return add_hit(hs, (hit){u0, u1, 0, door});
}

static int hit_cmp(const void *pa, const void *pb) {
  const hit *a = pa, *b = pb;
  if (fabs(a->s0 - b->s0) > EPS) return a->s0 < b->s0 ? -1 : 1;
  if (a->room != b->room) return a->room < b->room ? -1 : 1;
  return (a->door > b->door) - (a->door < b->door);
}

static int same_pt(pt a, pt b) { return fabs(a.x - b.x) < EPS && fabs(a.y - b.y) < EPS; }

/* Two corridors through one door run together over its stub: that is no
 * crossing. Drops such hits of corridor o from hs (those from `from` on). */
static void drop_shared_door(hits *hs, int from, const pt *v, int n, double total, const cb_pc_door *o) {
  pt oend = o->points[o->npoints - 1];
  bool at_end = same_pt(v[n - 1], o->at) || same_pt(v[n - 1], oend);
  bool at_start = same_pt(v[0], oend) || same_pt(v[0], o->at);
  if (!at_end && !at_start) return;
  int k = from;
  for (int i = from; i < hs->n; i++) {
    const hit *h = &hs->h[i];
    if ((at_end && h->s0 > total - STUB_FT - EPS) || (at_start && h->s1 < STUB_FT + EPS)) continue;
    hs->h[k++] = *h;
  }
  hs->n = k;
}

/* Every room and drawn corridor the polyline must cross, in order along it.
 * `self` is the door whose corridor this is (left out). Stops early, the
 * hits unsorted, once there are more than `limit`. -1 on OOM. */
static int find_hits_upto(pc *s, const pt *v, int n, int self, hits *hs, int limit) {
  hs->n = 0;
  double total = poly_len(v, n);
  double minx = INFINITY, miny = INFINITY, maxx = -INFINITY, maxy = -INFINITY;
  for (int i = 0; i < n; i++)
    minx = lo2(minx, v[i].x), maxx = hi2(maxx, v[i].x), miny = lo2(miny, v[i].y), maxy = hi2(maxy, v[i].y);
  int nr = nearby(s, s->rooms_at, minx, miny, maxx, maxy, s->p->nrooms);
  for (int q = 0; q < nr; q++) {
    const cb_pc_room *rr = &s->p->rooms[s->near[q]];
    if (rr->x > maxx || rr->x + rr->w < minx || rr->y > maxy || rr->y + rr->h < miny) continue;
    double s0 = 0;
    int open = 0;
    hit cur = {0, 0, rr->room, -1};
    for (int i = 1; i < n; i++) {
      double t0, t1, l = seg_len(v[i - 1], v[i]);
      if (clip(v[i - 1], v[i], rr, &t0, &t1)) {
        double u0 = s0 + t0 * l, u1 = s0 + t1 * l;
        if (open && u0 - cur.s1 < EPS) {
          cur.s1 = u1;
        } else {
          if (open && add_hit(hs, cur)) return -1;
          cur.s0 = u0, cur.s1 = u1, open = 1;
        }
      }
      s0 += l;
    }
    if (open && add_hit(hs, cur)) return -1;
  }
  int nc = nearby(s, s->corridors_at, minx, miny, maxx, maxy, s->p->ndoors);
  for (int q = 0; q < nc; q++) {
    int j = s->near[q];
    const struct box *b = &s->box[j];
    if (b->x1 < minx - EPS || b->x0 > maxx + EPS || b->y1 < miny - EPS || b->y0 > maxy + EPS) continue;
    const cb_pc_door *o = &s->p->doors[j];
    if (j == self || o->npoints < 2) continue;
    int before = hs->n;
    for (int part = 0; part < 2; part++) {
      const pt *w = part ? o->side : o->points;
      int m = part ? o->nside : o->npoints;
      /* the shared stub is the corridor's own; its side passage is crossed wherever it is met */
      if (part == 1) drop_shared_door(hs, before, v, n, total, o);
      for (int k = 1; k < m; k++) {
        pt c = w[k - 1], e = w[k];
        if (hi2(c.x, e.x) < minx - EPS || lo2(c.x, e.x) > maxx + EPS || hi2(c.y, e.y) < miny - EPS ||
            lo2(c.y, e.y) > maxy + EPS)
          continue;
        double sa = 0;
        for (int i = 1; i < n; i++) {
          if (cross_segments(v[i - 1], v[i], sa, total, c, e, hs, j)) return -1;
          sa += seg_len(v[i - 1], v[i]);
        }
      }
    }
    if (hs->n > limit) return 0;
  }
  if (hs->n > 1) qsort(hs->h, (size_t)hs->n, sizeof *hs->h, hit_cmp);
  return 0;
}

static int find_hits(pc *s, const pt *v, int n, int self, hits *hs) {
  return find_hits_upto(s, v, n, self, hs, INT_MAX);
}

/* How far polyline v (n points) runs close beside polyline w (m points):
 * parallel, within NEAR_FT but not on one line, in feet. */
static double beside(const pt *w, int m, const pt *v, int n) {
  double sum = 0;
  for (int k = 1; k < m; k++) {
    pt c = w[k - 1], e = w[k];
    int ch = fabs(c.y - e.y) < EPS;
    for (int i = 1; i < n; i++) {
      pt a = v[i - 1], z = v[i];
      int ah = fabs(a.y - z.y) < EPS;
      if (ah != ch) continue;
      double gap = ah ? fabs(a.y - c.y) : fabs(a.x - c.x);
      if (gap < EPS || gap >= NEAR_FT - EPS) continue;
      double a0 = ah ? lo2(a.x, z.x) : lo2(a.y, z.y), a1 = ah ? hi2(a.x, z.x) : hi2(a.y, z.y);
      double c0 = ah ? lo2(c.x, e.x) : lo2(c.y, e.y), c1 = ah ? hi2(c.x, e.x) : hi2(c.y, e.y);
      double over = lo2(a1, c1) - hi2(a0, c0);
      if (over > 0) sum += over;
    }
  }
  return sum;
}

/* How much of the polyline runs close beside another corridor or its side
 * passage (within NEAR_FT, parallel), in feet: a corridor squeezed against
 * another reads badly on the map. */
static double crowding(pc *s, const pt *v, int n, int self) {
  double minx = INFINITY, miny = INFINITY, maxx = -INFINITY, maxy = -INFINITY, sum = 0;
  for (int i = 0; i < n; i++)
    minx = lo2(minx, v[i].x), maxx = hi2(maxx, v[i].x), miny = lo2(miny, v[i].y), maxy = hi2(maxy, v[i].y);
  minx -= NEAR_FT, miny -= NEAR_FT, maxx += NEAR_FT, maxy += NEAR_FT;
  int nc = nearby(s, s->corridors_at, minx, miny, maxx, maxy, s->p->ndoors);
  for (int q = 0; q < nc; q++) {
    int j = s->near[q];
    const struct box *b = &s->box[j];
    if (b->x1 < minx || b->x0 > maxx || b->y1 < miny || b->y0 > maxy) continue;
    const cb_pc_door *o = &s->p->doors[j];
    if (j == self || o->npoints < 2) continue;
    sum += beside(o->points, o->npoints, v, n) + beside(o->side, o->nside, v, n);
  }
  return sum;
}

/* Does rectangle r (grown by `grow`) overlap the open rectangle q? */
static int rects_overlap(const cb_pc_room *r, double grow, const cb_pc_room *q) {
  return r->x - grow < q->x + q->w - EPS && q->x + EPS < r->x + r->w + grow &&
         r->y - grow < q->y + q->h - EPS && q->y + EPS < r->y + r->h + grow;
}

/* Is (x, y) strictly inside r grown by `grow`? */
static int inside_grown(const cb_pc_room *r, double grow, pt q) {
  return q.x > r->x - grow + EPS && q.x < r->x + r->w + grow - EPS && q.y > r->y - grow + EPS &&
         q.y < r->y + r->h + grow - EPS;
}

/* Would a door at q in a wall facing f open into a room (a room within
 * `keep` of that wall there), leaving its corridor no way out? */
static int covered_by(pc *s, pt q, cb_facing f, double keep) {
  pt out = {q.x + DX[f] * keep, q.y + DY[f] * keep};
  int nr = nearby(s, s->rooms_at, out.x - keep, out.y - keep, out.x + keep, out.y + keep, s->p->nrooms);
  for (int i = 0; i < nr; i++)
    if (inside_grown(&s->p->rooms[s->near[i]], keep, out)) return 1;
  return 0;
}

static int door_covered(pc *s, pt q, cb_facing f) { return covered_by(s, q, f, WALL_FT); }

/* May a new room stand at r? Not on a room (but touching its parent), not
 * on a corridor, not in front of a door whose corridor is still to come. */
static int room_fits(pc *s, const cb_pc_room *r, int parent, int self) {
  double t0, t1;
  const cb_pc_door *me = &s->p->doors[self];
  cb_pc_room near = {0, r->x - CLEAR_FT, r->y - CLEAR_FT, r->w + 2 * CLEAR_FT, r->h + 2 * CLEAR_FT};
  pt side[2] = {{me->side[0].x + s->side_shift.x, me->side[0].y + s->side_shift.y},
                {me->side[1].x + s->side_shift.x, me->side[1].y + s->side_shift.y}};
  if (me->nside == 2 && clip(side[0], side[1], &near, &t0, &t1)) return 0;
  int nr = nearby(s, s->rooms_at, r->x - GAP_FT, r->y - GAP_FT, r->x + r->w + GAP_FT, r->y + r->h + GAP_FT,
                  s->p->nrooms);
  for (int i = 0; i < nr; i++) {
    const cb_pc_room *q = &s->p->rooms[s->near[i]];
    if (rects_overlap(q, q->room == parent ? 0 : GAP_FT, r)) return 0;
  }
  int ns = nearby(s, s->spots_at, r->x - WALL_FT, r->y - WALL_FT, r->x + r->w + WALL_FT,
                  r->y + r->h + WALL_FT, s->p->ndoors);
  for (int q = 0; q < ns; q++) {
    int j = s->near[q];
    const cb_pc_door *o = &s->p->doors[j];
    pt out = {o->at.x + DX[o->facing] * WALL_FT, o->at.y + DY[o->facing] * WALL_FT};
    if (j != self && o->npoints == 0 && inside_grown(r, WALL_FT, out)) return 0;
  }
  cb_pc_room grown = {0, r->x - CLEAR_FT, r->y - CLEAR_FT, r->w + 2 * CLEAR_FT, r->h + 2 * CLEAR_FT};
  int nc = nearby(s, s->corridors_at, grown.x, grown.y, grown.x + grown.w, grown.y + grown.h, s->p->ndoors);
  for (int q = 0; q < nc; q++) {
    int j = s->near[q];
    const struct box *b = &s->box[j];
    if (b->x1 <= grown.x || b->x0 >= grown.x + grown.w || b->y1 <= grown.y || b->y0 >= grown.y + grown.h)
      continue;
    const cb_pc_door *o = &s->p->doors[j];
    if (o->npoints < 2) continue;
    for (int part = 0; part < 2; part++) {
      const pt *w = part ? o->side : o->points;
      int m = part ? o->nside : o->npoints;
      for (int k = 1; k < m; k++)
        if (clip(w[k - 1], w[k], &grown, &t0, &t1)) return 0;
    }
  }
  return 1;
}

/* How close the nearest door or corridor end on room r's wall f comes to `off` feet along it. */
static double wall_gap(pc *s, int room, cb_facing f, double off) {
  const cb_pc_room *r = rect_of(s, room);
  double gap = INFINITY;
  for (int j = 0; j < s->p->ndoors; j++) {
    const cb_pc_door *o = &s->p->doors[j];
    if (o->room == room && o->facing == f) gap = fmin(gap, fabs(wall_off(r, f, o->at) - off));
    if (o->npoints >= 2 && o->to == room) {
      pt q = o->points[o->npoints - 1];
      if (on_wall(r, f, q)) gap = fmin(gap, fabs(wall_off(r, f, q) - off));
    }
  }
  return gap;
}

/* The spot on wall f nearest to `want` feet along it that keeps APART_FT
 * from every other door, else EDGE_FT; on a crowded wall, the spot farthest
 * from them. */
static double free_spot(pc *s, int room, cb_facing f, double want) {
  const cb_pc_room *r = rect_of(s, room);
  double len = wall_len(r, f), best = snap(fmin(len - EDGE_FT, fmax(EDGE_FT, want)));
  double roomiest = best, here = wall_gap(s, room, f, best), most = here;
  bool open = !door_covered(s, wall_point(r, f, best), f);
  for (int pass = 0; pass < 2; pass++) {
    double apart = pass ? EDGE_FT : APART_FT;
    if (here >= apart - EPS && open) return best;
    for (double step = SNAP_FT; step < len; step += SNAP_FT)
      for (int sign = -1; sign <= 1; sign += 2) {
        double off = best + sign * step;
        if (off < SNAP_FT - EPS || off > len - SNAP_FT + EPS) continue;
        double gap = wall_gap(s, room, f, off);
        if (gap >= apart - EPS && off >= EDGE_FT - EPS && off <= len - EDGE_FT + EPS &&
            !door_covered(s, wall_point(r, f, off), f))
          return off;
        if (gap > most + EPS) most = gap, roomiest = off;
      }
  }
  return roomiest;
}

/* The doors in room r's wall f as the map shows them, each spot once: its
 * own doors and the ends of corridors that reach it there. Fills off[]
 * (feet along the wall, up to max) and returns the count. */
static int wall_doors(pc *s, int room, cb_facing f, double *off, int max) {
  const cb_pc_room *r = rect_of(s, room);
  int n = 0;
  for (int j = 0; j < s->p->ndoors; j++) {
    const cb_pc_door *o = &s->p->doors[j];
    for (int k = 0; k < 2; k++) {
      pt q = k == 0 ? o->at : o->npoints >= 2 ? o->points[o->npoints - 1] : o->at;
      bool blind = k == 1 && o->passage && (s->d->passages[o->passage - 1].flags & CB_FLAG_DEAD_END);
      if (k == 0 ? o->room != room || o->facing != f
                 : blind || o->to != room || o->npoints < 2 || !on_wall(r, f, q))
        continue;
      double w = wall_off(r, f, q);
      int seen = 0;
      for (int i = 0; i < n && !seen; i++)
        seen = fabs(off[i] - w) < EPS;
      if (!seen && n < max) off[n++] = w;
    }
  }
  return n;
}

/* How many doors room r has (the d4 caps it at four). */
static int doors_of(pc *s, int room) {
  double off[MAX_DOORS * 4];
  int n = 0;
  for (int f = 0; f < CB_FACING_COUNT; f++)
    n += wall_doors(s, room, (cb_facing)f, off, MAX_DOORS * 4);
  return n;
}

/* ---- the model ---- */

static cb_pc_door *new_door(pc *s, int room, cb_facing f, pt at, cb_error *err) {
  cb_preconnect_proc *p = s->p;
  if (cb_arena_grow(s->d->arena, &p->doors, &s->cap_doors, (size_t)p->ndoors + 1, sizeof *p->doors) ||
      cb_grow(&s->pending, &s->cap_pending, (size_t)p->ndoors + 1, sizeof *s->pending)) {
    cb_error_oom(err);
    return NULL;
  }
  if (cb_grow(&s->box, &s->cap_box, (size_t)p->ndoors + 1, sizeof *s->box)) {
    cb_error_oom(err);
    return NULL;
  }
  s->pending[p->ndoors] = (struct pending){0, 0};
  s->box[p->ndoors] = (struct box){INFINITY, INFINITY, -INFINITY, -INFINITY};
  pt out = {at.x + DX[f] * WALL_FT, at.y + DY[f] * WALL_FT};
  if (file_at(s, s->spots_at, p->ndoors, out.x, out.y, out.x, out.y)) {
    cb_error_oom(err);
    return NULL;
  }
  cb_pc_door *dr = &p->doors[p->ndoors++];
  memset(dr, 0, sizeof *dr);
  dr->room = room;
  dr->facing = f;
  dr->at = at;
  return dr;
}

static int push_roll(pc *s, cb_pc_door *dr, int roll, int via) {
  int *r = cb_arena_alloc(s->d->arena, (size_t)dr->nrolls + 1, sizeof *r);
  int *v = cb_arena_alloc(s->d->arena, (size_t)dr->nrolls + 1, sizeof *v);
  if (!r || !v) return -1;
  if (dr->nrolls) {
    memcpy(r, dr->rolls, (size_t)dr->nrolls * sizeof *r);
    memcpy(v, dr->via, (size_t)dr->nrolls * sizeof *v);
  }
  r[dr->nrolls] = roll;
  v[dr->nrolls] = via;
  dr->rolls = r;
  dr->via = v;
  dr->nrolls++;
  return 0;
}

/* Draw a room: its size (d4 + 1 squares a side) and d4 doors; the door it
 * is entered by is one of them, every other faces d4 (1 N, 2 E, 3 S, 4 W). */
typedef struct rolled_room {
  double w, h;
  int total;  /* the d4 */
  int ndoors; /* doors still to resolve: the d4, less the entry */
  cb_facing facing[4];
} rolled_room;

static void roll_room(pc *s, rolled_room *rr, bool entered) {
  rr->w = (cb_d4(&s->rng) + 1) * SQUARE_FT;
  rr->h = (cb_d4(&s->rng) + 1) * SQUARE_FT;
  rr->total = cb_d4(&s->rng);
  rr->ndoors = rr->total - (entered ? 1 : 0);
  for (int i = 0; i < rr->ndoors; i++)
    rr->facing[i] = (cb_facing)(cb_d4(&s->rng) - 1);
}

/* Where door `slot` of t goes on a wall `len` long: spread evenly, or a
 * square apart about the wall's middle where spreading them evenly would
 * set them closer and the wall has room for that. */
static double slot_offset(double len, int slot, int t) {
  if (len / (t + 1) >= APART_FT - EPS || (t - 1) * APART_FT > len - 2 * EDGE_FT + EPS)
    return snap(len * (slot + 1) / (t + 1));
  return snap(len / 2 + APART_FT * (slot - (t - 1) / 2.0));
}

/* How far along wall `entry` the door it is entered by lies: its doors on
 * that wall are spread (slot_offset) with the entry in the middle slot. */
static double entry_offset(const rolled_room *rr, cb_facing entry) {
  int t = 1;
  for (int i = 0; i < rr->ndoors; i++)
    t += rr->facing[i] == entry;
  double len = entry == CB_FACING_N || entry == CB_FACING_S ? rr->w : rr->h;
  return slot_offset(len, t / 2, t);
}

/* The spot nearest `want` on wall f of r at least EDGE_FT from the corners
 * and `apart` from the spots taken, and with `s`, where the door does not
 * open into a room touching that wall; -1 when there is none. */
static double spot_apart(pc *s, const cb_pc_room *r, cb_facing f, double want, const double *taken, int nt,
                         double apart) {
  double len = wall_len(r, f);
  for (double step = 0; step <= len; step += SNAP_FT)
    for (int sign = 1; sign >= -1; sign -= 2) {
      double off = want + sign * step;
      int ok = off >= EDGE_FT - EPS && off <= len - EDGE_FT + EPS;
      for (int i = 0; ok && i < nt; i++)
        ok = fabs(taken[i] - off) >= apart - EPS;
      if (ok && (!s || !door_covered(s, wall_point(r, f, off), f))) return off;
    }
  return -1;
}

/* A wall for a door that has no spot a square from the others on wall f,
 * or opens into a room there: the first wall round from f with a spot a
 * square from its doors, else f or the first wall round with a spot
 * EDGE_FT from them, else f wherever (*g and *off filled). */
static void other_wall(pc *s, const cb_pc_room *r, cb_facing f, double (*taken)[MAX_DOORS + 1], const int *nt,
                       cb_facing *g, double *off) {
  *off = -1;
  for (int pass = 0; pass < 2 && *off < 0; pass++)
    for (int k = 1 - pass; k < CB_FACING_COUNT && *off < 0; k++) {
      *g = (cb_facing)((f + k) % CB_FACING_COUNT);
      *off = spot_apart(s, r, *g, wall_len(r, *g) / 2, taken[*g], nt[*g], pass ? EDGE_FT : APART_FT);
    }
  if (*off >= 0) return;
  *g = f;
  *off = spot_apart(NULL, r, f, wall_len(r, f) / 2, taken[f], nt[f], EDGE_FT);
  if (*off < 0) *off = snap(wall_len(r, f) / 2);
}

/* The rolled room's doors, spread on their walls (slot_offset, the entry's
 * slot left free), a square apart. A door with no spot a square from the
 * others on its wall, or that would open into the room it touches (its
 * parent, when no corridor joins them), goes to the first wall round from
 * it with room for it, logged. */
static cb_status place_doors(pc *s, const rolled_room *rr, int id, int entry, double entry_off,
                             cb_error *err) {
  const cb_pc_room *r = rect_of(s, id);
  double taken[CB_FACING_COUNT][MAX_DOORS + 1];
  int nt[CB_FACING_COUNT] = {0}, moved[MAX_DOORS], nmoved = 0;
  if (entry >= 0) taken[entry][nt[entry]++] = entry_off;
  for (int f = 0; f < CB_FACING_COUNT; f++) {
    int t = f == entry;
    for (int i = 0; i < rr->ndoors; i++)
      t += rr->facing[i] == (cb_facing)f;
    int slot = 0, entry_slot = f == entry ? t / 2 : -1;
    for (int i = 0; i < rr->ndoors; i++) {
      if (rr->facing[i] != (cb_facing)f) continue;
      if (slot == entry_slot) slot++;
      double want = slot_offset(wall_len(r, (cb_facing)f), slot++, t);
      double off = spot_apart(s, r, (cb_facing)f, want, taken[f], nt[f], APART_FT);
      if (off < 0) {
        moved[nmoved++] = f;
        continue;
      }
      taken[f][nt[f]++] = off;
      if (!new_door(s, id, (cb_facing)f, wall_point(r, (cb_facing)f, off), err)) return err->status;
    }
  }
  for (int i = 0; i < nmoved; i++) {
    cb_facing f = (cb_facing)moved[i], g = f;
    bool crowded = spot_apart(NULL, r, f, wall_len(r, f) / 2, taken[f], nt[f], APART_FT) < 0;
    double off;
    other_wall(s, r, f, taken, nt, &g, &off);
    taken[g][nt[g]++] = off;
    if (!new_door(s, id, g, wall_point(r, g, off), err)) return err->status;
    if (!s->big && g != f)
      cb_dungeon_log(s->d, "Room %d: its %s door %s, so it faces %s instead.", id, FACING_WORD[f],
                     crowded ? "has no room on its wall a square from the other doors"
                             : "would open into the room it touches",
                     FACING_WORD[g]);
  }
  return CB_OK;
}

/* Puts the rolled room at x, y as the next room, with its doors. */
static cb_status place_room(pc *s, const rolled_room *rr, double x, double y, int entry, double entry_off,
                            cb_error *err) {
  cb_preconnect_proc *p = s->p;
  if (cb_arena_grow(s->d->arena, &p->rooms, &s->cap_rooms, (size_t)p->nrooms + 1, sizeof *p->rooms))
    return cb_error_oom(err);
  int id = p->nrooms + 1;
  p->rooms[p->nrooms++] = (cb_pc_room){id, x, y, rr->w, rr->h};
  if (file_at(s, s->rooms_at, id - 1, x, y, x + rr->w, y + rr->h)) return cb_error_oom(err);
  const cb_pc_room *r = &p->rooms[id - 1];
  pt c = centre(r);
  cb_room *room = cb_dungeon_add_room(s->d, 1, c.x, c.y);
  if (!room) return cb_error_oom(err);
  if (id == 1) room->tags |= CB_TAG_ENTRANCE;
  char doors[160] = "";
  size_t n = 0;
  if (entry >= 0)
    n += (size_t)snprintf(doors, sizeof doors, "the one it is entered by (%s)%s", FACING_WORD[entry],
                          rr->ndoors ? "; the others face " : ", no other");
  for (int i = 0; i < rr->ndoors; i++)
    n += (size_t)snprintf(doors + n, sizeof doors - n, "%s%s",
                          i ? (i + 1 == rr->ndoors ? " and " : ", ") : "", FACING_WORD[rr->facing[i]]);
  if (!s->big)
    cb_dungeon_log(s->d, "Room %d: %.0f by %.0f ft; rolled %d door%s: %s.", id, rr->w, rr->h, rr->total,
                   rr->total == 1 ? "" : "s", doors);
  return place_doors(s, rr, id, entry, entry_off, err);
}

/* ---- corridors ---- */

static int door_index(pc *s, const cb_pc_door *dr) { return (int)(dr - s->p->doors); }

/* The nearest drawn room whose centre lies ahead of `from` facing f (not `skip`); 0 when none. */
static int nearest_that_way(pc *s, pt from, cb_facing f, int skip) {
  int best = 0;
  double bd = INFINITY;
  for (int i = 0; i < s->p->nrooms; i++) {
    const cb_pc_room *r = &s->p->rooms[i];
    if (r->room == skip) continue;
    pt c = centre(r);
    double along = (c.x - from.x) * DX[f] + (c.y - from.y) * DY[f];
    if (along <= EPS) continue;
    double dist = hypot(c.x - from.x, c.y - from.y);
    if (dist < bd - EPS) bd = dist, best = r->room;
  }
  return best;
}

typedef struct route {
  pt v[MAX_CORNERS];
  int n;
  double cost, extra; /* extra: what a new door in the target costs, in feet */
  int order;
} route;

/* Cheapest first; equal shapes keep the order they were made in. */
static int route_cmp(const void *pa, const void *pb) {
  const route *a = pa, *b = pb;
  if (a->cost != b->cost) return a->cost < b->cost ? -1 : 1;
  return (a->order > b->order) - (a->order < b->order);
}

enum { SHAPES_PER_SPOT = 2 + 2 * 12 + 8 };

/* The shapes from door P (stub end P1) into room t at spot Q on wall f:
 * one turn either way; a jog (out, across, in) with its middle leg at
 * several places; and detours out past the rooms at either end. */
static int shapes_to_spot(const cb_pc_room *src, const cb_pc_room *t, cb_facing from, pt P, cb_facing f,
                          double off, route *cand) {
  int horiz = DX[from] != 0, nc = 0;
  pt P1 = {P.x + DX[from] * STUB_FT, P.y + DY[from] * STUB_FT};
  pt Q = wall_point(t, f, off), Q1 = {Q.x + DX[f] * STUB_FT, Q.y + DY[f] * STUB_FT};
  pt el[2] = {horiz ? (pt){Q1.x, P1.y} : (pt){P1.x, Q1.y}, horiz ? (pt){P1.x, Q1.y} : (pt){Q1.x, P1.y}};
  for (int k = 0; k < 2; k++)
    cand[nc++] = (route){{P, P1, el[k], Q1, Q}, 5, 0};
  /* jogs: the middle leg across the way, at 10-ft steps from either end */
  for (int k = 0; k < 12; k++) {
    double step = (k / 2 + 1) * SQUARE_FT * (k % 2 ? -1 : 1);
    double m = horiz ? P1.x + step : P1.y + step, m2 = horiz ? Q1.y + step : Q1.x + step;
    pt a = horiz ? (pt){m, P1.y} : (pt){P1.x, m}, b = horiz ? (pt){m, Q1.y} : (pt){Q1.x, m};
    cand[nc++] = (route){{P, P1, a, b, Q1, Q}, 6, 0};
    pt c = horiz ? (pt){P1.x, m2} : (pt){m2, P1.y}, e = horiz ? (pt){Q1.x, m2} : (pt){m2, Q1.y};
    cand[nc++] = (route){{P, P1, c, e, Q1, Q}, 6, 0};
  }
  double lo = horiz ? fmin(src->y, t->y) : fmin(src->x, t->x),
         hi = horiz ? fmax(src->y + src->h, t->y + t->h) : fmax(src->x + src->w, t->x + t->w);
  for (int k = 0; k < 8; k++) {
    double side = k % 2 ? hi + (k / 2 + 1) * STUB_FT : lo - (k / 2 + 1) * STUB_FT;
    pt a = horiz ? (pt){P1.x, side} : (pt){side, P1.y};
    pt b = horiz ? (pt){Q1.x, side} : (pt){side, Q1.y};
    cand[nc++] = (route){{P, P1, a, b, Q1, Q}, 6, 0};
  }
  return nc;
}

/* A way into a room: the spot on its wall `wall`, and what a new door there
 * costs (in feet). */
typedef struct way_in {
  pt at;
  cb_facing wall;
  double extra;
} way_in;

/* The router's view of the map (geom/ortho.h): every room, and `also` (a
 * room about to be placed) when given, a block grown by `keep`; every
 * corridor and side passage drawn so far a segment to cross at a price.
 * 0, or -1 on OOM. */
static int router_map(pc *s, const cb_pc_room *also, double keep, cb_ortho_problem *pr) {
  size_t nseg = 0;
  for (int j = 0; j < s->p->ndoors; j++)
    nseg += (size_t)(s->p->doors[j].npoints + s->p->doors[j].nside);
  if (cb_grow(&s->blocks, &s->cap_blocks, (size_t)s->p->nrooms + 1, sizeof *s->blocks) ||
      cb_grow(&s->segs, &s->cap_segs, 2 * nseg + 1, sizeof *s->segs))
    return -1;
  int nb = 0;
  for (int i = 0; i <= s->p->nrooms; i++) {
    const cb_pc_room *r = i < s->p->nrooms ? &s->p->rooms[i] : also;
    if (r)
      s->blocks[nb++] = (cb_ortho_block){r->x - keep, r->y - keep, r->x + r->w + keep, r->y + r->h + keep};
  }
  int n = 0;
  for (int j = 0; j < s->p->ndoors; j++)
    for (int part = 0; part < 2; part++) {
      const cb_pc_door *o = &s->p->doors[j];
      const pt *w = part ? o->side : o->points;
      int m = part ? o->nside : o->npoints;
      for (int k = 1; k < m; k++) {
        s->segs[2 * n] = (cb_point){w[k - 1].x, w[k - 1].y};
        s->segs[2 * n + 1] = (cb_point){w[k].x, w[k].y};
        n++;
      }
    }
  *pr = (cb_ortho_problem){.blocks = s->blocks,
                           .nblocks = nb,
                           .segs = s->segs,
                           .nsegs = n,
                           .bend = TURN,
                           .cross = CORRIDOR_CROSSING,
                           .along = RUN_ALONG, /* a corridor run along another: only to get out */
                           .near = NEAR_FT,
                           .crowd = CROWDED_ROUTED,
                           .pad = keep,
                           .hug = 1,          /* a foot along a wall at TIGHT_FT costs a foot more */
                           .max_lines = 400}; /* a window of some 100 rooms a way */
  return 0;
}

/* The router's corridor keeping `keep` off the walls, its corners in c (at
 * most MAX_CORNERS - 2): the count, 0 when there is none, -1 on OOM. */
static int route_keeping(pc *s, const cb_pc_door *dr, const cb_pc_room *also, const way_in *in, int nin,
                         double keep, cb_point *c, int *goal) {
  cb_ortho_problem pr;
  cb_ortho_goal goals[4 * (MAX_DOORS * 4 + 1)];
  if (covered_by(s, dr->at, dr->facing, keep)) return 0;
  if (router_map(s, also, keep, &pr)) return -1;
  for (int i = 0; i < nin; i++)
    goals[i] = (cb_ortho_goal){{in[i].at.x + DX[in[i].wall] * keep, in[i].at.y + DY[in[i].wall] * keep},
                               (int)(in[i].wall + 2) % 4,
                               in[i].extra};
  pr.from = (cb_point){dr->at.x + DX[dr->facing] * keep, dr->at.y + DY[dr->facing] * keep};
  pr.dir = (int)dr->facing;
  pr.goals = goals;
  pr.ngoals = nin;
  int n = 0;
  double cost;
  /* near first; far round only when nothing near will do */
  for (int k = 0; k < 2 && n == 0; k++) {
    pr.margin = k ? 240 : 60;
    n = cb_ortho_route_in(s->router, &pr, c, MAX_CORNERS - 2, goal, &cost);
  }
  return n;
}

/* The router's corridor from door dr to one of the ways in: out TIGHT_FT
 * from its wall, round every room (and `also`) as far off them, in as far
 * to the spot; the fewest corridors crossed, then the shortest with the
 * fewest turns. Fills v (door to spot, at most MAX_CORNERS) and *goal;
 * returns the point count, 0 when there is no such corridor, -1 on OOM. */
static int route_door(pc *s, const cb_pc_door *dr, const cb_pc_room *also, const way_in *in, int nin, pt *v,
                      int *goal) {
  cb_point c[MAX_CORNERS - 2];
  int n = route_keeping(s, dr, also, in, nin, TIGHT_FT, c, goal);
  if (n <= 0) return n;
  int m = 0;
  v[m++] = dr->at;
  for (int i = 0; i < n; i++)
    v[m++] = (pt){c[i].x, c[i].y};
  v[m++] = in[*goal].at;
  return simplify(v, m);
}

/* Prices shape r exactly (crossings, crowding) and keeps it in *best when
 * cheaper. -1 on OOM. */
static int try_shape(pc *s, int di, int target, bool join, route r, route *best, hits *hs) {
  const cb_pc_door *dr = &s->p->doors[di];
  /* a shape with as many crossings as would make it dearer than the best is no use */
  int limit = best->cost < INFINITY ? (int)fmin(INT_MAX, (best->cost - r.cost) / CORRIDOR_CROSSING) : INT_MAX;
  if (find_hits_upto(s, r.v, r.n, di, hs, limit)) return -1;
  if (hs->n > limit) return 0;
  r.cost += CROWDED * crowding(s, r.v, r.n, di);
  double total = poly_len(r.v, r.n);
  for (int h = 0; h < hs->n; h++) {
    r.cost += hs->h[h].room ? ROOM_CROSSING : CORRIDOR_CROSSING;
    if (hs->h[h].room == dr->room || hs->h[h].room == target) r.cost += ROOM_CROSSING;
    /* by a door it shares, the corridor runs along the other's stub: nothing may cross it there */
    if (join && r.extra == 0 && hs->h[h].s1 > total - STUB_FT - EPS) r.cost += 10 * RUN_ALONG;
  }
  if (r.cost < best->cost) *best = r;
  return 0;
}

/* Shapes a corridor from the door to room `target` (its own room: a loop):
 * as straight as it can, one or two turns when it starts the wrong way, a
 * detour round the rooms in the way (the router's, or one of the simple
 * shapes); no room crossed where any shape avoids it, then the fewest
 * corridors crossed, then the shortest, then the fewest turns. The d4 gave
 * the target its doors, so the corridor comes in by one of them (any that
 * crosses least); a new door only into a room with no other (a loop in a
 * one-door room). */
static cb_status shape_corridor(pc *s, cb_pc_door *dr, int target, route *best, hits *hs, cb_error *err) {
  int di = door_index(s, dr);
  const cb_pc_room *src = rect_of(s, dr->room), *t = rect_of(s, target);
  pt P = dr->at, P1 = {P.x + DX[dr->facing] * STUB_FT, P.y + DY[dr->facing] * STUB_FT};
  best->n = 0;
  best->cost = INFINITY;
  if (cb_grow(&s->cand, &s->cap_cand, SHAPES_PER_SPOT * 4 * (MAX_DOORS * 4 + 1), sizeof *s->cand))
    return cb_error_oom(err);
  route *cand = s->cand;
  way_in in[4 * (MAX_DOORS * 4 + 1)];
  int nc = 0, nin = 0;
  int ndoors = doors_of(s, target);
  bool join = ndoors > (target == dr->room ? 1 : 0), may_add = ndoors < MAX_DOORS;
  for (int f = 0; f < CB_FACING_COUNT; f++) {
    double have[MAX_DOORS * 4 + 1];
    int nh = join ? wall_doors(s, target, (cb_facing)f, have, MAX_DOORS * 4) : 0, first_new = nh;
    if (may_add && !(target == dr->room && f == (int)dr->facing)) {
      double want = f == CB_FACING_N || f == CB_FACING_S ? P1.x - t->x : P1.y - t->y;
      have[nh++] = free_spot(s, target, (cb_facing)f, want);
    }
    for (int i = 0; i < nh; i++) {
      if (same_pt(wall_point(t, (cb_facing)f, have[i]), P)) continue;
      double extra = i >= first_new && join ? NEW_DOOR_FT : 0;
      in[nin++] = (way_in){wall_point(t, (cb_facing)f, have[i]), (cb_facing)f, extra};
      int k = shapes_to_spot(src, t, dr->facing, P, (cb_facing)f, have[i], cand + nc);
      for (int j = nc; j < nc + k; j++)
        cand[j].extra = extra;
      nc += k;
    }
  }
  for (int i = 0; i < nc; i++) {
    cand[i].order = i;
    cand[i].n = simplify(cand[i].v, cand[i].n);
    cand[i].cost = poly_len(cand[i].v, cand[i].n) + TURN * (cand[i].n - 2) + cand[i].extra;
    /* the first leg must leave the wall outwards */
    pt a = cand[i].v[0], b = cand[i].n > 1 ? cand[i].v[1] : a;
    if ((b.x - a.x) * DX[dr->facing] + (b.y - a.y) * DY[dr->facing] <= EPS) cand[i].cost = INFINITY;
  }
  route routed = {.order = -1};
  int goal = 0;
  routed.n = route_door(s, dr, NULL, in, nin, routed.v, &goal);
  if (routed.n > 0) {
    routed.extra = in[goal].extra;
    routed.cost = poly_len(routed.v, routed.n) + TURN * (routed.n - 2) + routed.extra;
  }
  if (routed.n < 0 || (routed.n > 0 && try_shape(s, di, target, join, routed, best, hs)))
    return cb_error_oom(err);
  /* cheapest shapes first; crossings cost 1000 ft each, a room far more */
  qsort(cand, (size_t)nc, sizeof *cand, route_cmp);
  for (int k = 0; k < nc && k < MAX_SHAPES_TRIED; k++) {
    if (cand[k].cost == INFINITY || cand[k].cost >= best->cost) break;
    if (try_shape(s, di, target, join, cand[k], best, hs)) return cb_error_oom(err);
  }
  if (best->n == 0) return cb_error_set(err, CB_EINTERNAL, "no corridor shape from room %d", dr->room);
  return CB_OK;
}

static const char *room_or_corridor(pc *s, const hit *h, char *buf, size_t cap) {
  if (h->room)
    snprintf(buf, cap, "room %d", h->room);
  else {
    const cb_pc_door *o = &s->p->doors[h->door];
    if (o->to && o->to != o->room)
      snprintf(buf, cap, "the corridor from room %d to room %d", o->room, o->to);
    else
      snprintf(buf, cap, "the corridor from room %d", o->room);
  }
  return buf;
}

/* Is q a door another corridor (not door di's) starts or ends at? */
static int shares_door(pc *s, int di, pt q) {
  for (int j = 0; j < s->p->ndoors; j++) {
    const cb_pc_door *o = &s->p->doors[j];
    if (j != di && (same_pt(o->at, q) || (o->npoints >= 2 && same_pt(o->points[o->npoints - 1], q))))
      return 1;
  }
  return 0;
}

/* Would a secret door where the corridor meets h be a fifth door in a
 * room's wall? (It meets a room, or a corridor where that runs along one.) */
static int secret_door_too_many(pc *s, const pt *v, int n, const hit *h) {
  pt q = point_at(v, n, h->s0);
  for (int r = 1; r <= s->p->nrooms; r++) {
    const cb_pc_room *rr = rect_of(s, r);
    if (r != h->room && !(on_wall(rr, CB_FACING_N, q) || on_wall(rr, CB_FACING_S, q) ||
                          on_wall(rr, CB_FACING_E, q) || on_wall(rr, CB_FACING_W, q)))
      continue;
    if (doors_of(s, r) >= MAX_DOORS) return 1;
  }
  return 0;
}

/* A corridor cut at `cut` keeps the crossings it reaches (the last, where
 * it ends, always): one it no longer reaches is gone, and the stairs after
 * one it ends just past stop at its end. The new count. */
static int reached_crossings(cb_pc_crossing *c, int nc, const hits *hs, double cut, const pt *v, int n) {
  int kept = 0;
  for (int i = 0; i < nc; i++) {
    const hit *h = &hs->h[i];
    if (i < nc - 1 && h->s0 > cut - EPS) continue;
    if (i < nc - 1) c[i].leave = point_at(v, n, fmin(cut, h->s1 + (h->room ? SNAP_FT : STAIRS_FT)));
    c[kept++] = c[i];
  }
  return kept;
}

/* Crossings: every room or corridor in the way rolls d10: 1-4 under it,
 * 5 a secret door into it, 6-9 over it, 0 a dead end. Fills the door's
 * crossings, cuts the corridor where it ends; returns the room a secret door
 * reaches (or 0), and *dead when it ends blind. */
static cb_status roll_crossings(pc *s, int di, pt *v, int *n, const hits *hs, int *secret_to, int *dead,
                                cb_error *err) {
  *secret_to = 0;
  *dead = 0;
  if (hs->n == 0) return CB_OK;
  cb_pc_crossing *c = cb_arena_alloc(s->d->arena, (size_t)hs->n, sizeof *c);
  if (!c) return cb_error_oom(err);
  int nc = 0;
  double total = poly_len(v, *n), cut = -1;
  for (int i = 0; i < hs->n && cut < 0; i++) {
    const hit *h = &hs->h[i];
    int roll = cb_d10(&s->rng);
    cb_crossing_result res = cb_crossing_result_of(roll);
    double margin = h->room ? SNAP_FT : STAIRS_FT;
    c[nc] = (cb_pc_crossing){roll,
                             res,
                             h->room,
                             h->room ? 0 : h->door + 1,
                             point_at(v, *n, fmax(0, h->s0 - margin)),
                             point_at(v, *n, fmin(total, h->s1 + margin)),
                             cb_preconnect_options_of(s->o)->ladders && roll % 2 == 1 &&
                                 (res == CB_CROSS_UNDER || res == CB_CROSS_OVER)};
    char what[96];
    room_or_corridor(s, h, what, sizeof what);
    const cb_pc_door *me = &s->p->doors[di];
    const char *mark = c[nc].ladder ? "ladders" : "stairs";
    if (res == CB_CROSS_UNDER || res == CB_CROSS_OVER) {
      if (!s->big)
        cb_dungeon_log(s->d,
                       "Room %d, %s door: the corridor must cross %s: rolled %d -> it runs %s it, %s "
                       "before and after.",
                       me->room, FACING_WORD[me->facing], what, roll % 10,
                       res == CB_CROSS_UNDER ? "under" : "over", mark);
    } else if (res == CB_CROSS_SECRET && !secret_door_too_many(s, v, *n, h)) {
      *secret_to =
          h->room ? h->room : (s->p->doors[h->door].to ? s->p->doors[h->door].to : s->p->doors[h->door].room);
      cut = h->s0;
      c[nc].enter = c[nc].leave = point_at(v, *n, cut);
      if (!s->big)
        cb_dungeon_log(s->d,
                       "Room %d, %s door: the corridor must cross %s: rolled 5 -> a secret door into it; "
                       "the corridor ends there%s.",
                       me->room, FACING_WORD[me->facing], what,
                       h->room ? "" : " and joins that corridor's way");
    } else {
      *dead = 1;
      cut = fmax(fmin(STUB_FT / 2, h->s0), h->s0 - STUB_FT / 2);
      c[nc].enter = c[nc].leave = point_at(v, *n, cut);
      if (!s->big && res == CB_CROSS_SECRET)
        cb_dungeon_log(s->d,
                       "Room %d, %s door: the corridor must cross %s: rolled 5 -> a secret door into it, but "
                       "the room there has its four doors already: the corridor ends blind before it.",
                       me->room, FACING_WORD[me->facing], what);
      else if (!s->big)
        cb_dungeon_log(s->d,
                       "Room %d, %s door: the corridor must cross %s: rolled 0 -> a dead end, no connection.",
                       me->room, FACING_WORD[me->facing], what);
    }
    nc++;
  }
  if (cut >= 0 && shares_door(s, di, v[*n - 1]) && cut > total - STUB_FT - EPS) {
    /* it would end on the stub it shares with another corridor: end it before that joins */
    cut = fmax(0, total - STUB_FT - SNAP_FT);
    c[nc - 1].enter = c[nc - 1].leave = point_at(v, *n, cut);
  }
  if (cut >= 0) nc = reached_crossings(c, nc, hs, cut, v, *n);
  if (cut >= 0) {
    /* keep the corridor up to `cut` */
    pt out[MAX_CORNERS];
    int m = 0;
    double sa = 0;
    out[m++] = v[0];
    for (int i = 1; i < *n; i++) {
      double l = seg_len(v[i - 1], v[i]);
      if (sa + l < cut - EPS)
        out[m++] = v[i];
      else {
        out[m++] = point_at(v, *n, cut);
        break;
      }
      sa += l;
    }
    if (m < 2) out[m++] = v[0];
    memcpy(v, out, (size_t)m * sizeof *v);
    *n = m;
  }
  cb_pc_door *dr = &s->p->doors[di];
  dr->crossings = c;
  dr->ncrossings = nc;
  return CB_OK;
}

/* Records the corridor as drawn and its passage. */
static cb_status finish_corridor(pc *s, int di, const pt *v, int n, int to, unsigned flags, cb_error *err) {
  cb_pc_door *dr = &s->p->doors[di];
  dr->points = cb_arena_alloc(s->d->arena, (size_t)n, sizeof *dr->points);
  if (!dr->points) return cb_error_oom(err);
  memcpy(dr->points, v, (size_t)n * sizeof *v);
  dr->npoints = n;
  struct box *b = &s->box[di];
  for (int k = 0; k < n + dr->nside; k++) {
    pt q = k < n ? v[k] : dr->side[k - n];
    b->x0 = lo2(b->x0, q.x), b->y0 = lo2(b->y0, q.y), b->x1 = hi2(b->x1, q.x), b->y1 = hi2(b->y1, q.y);
  }
  if (n > 0 && file_at(s, s->corridors_at, di, b->x0, b->y0, b->x1, b->y1)) return cb_error_oom(err);
  dr->to = to;
  dr->order = ++s->drawn;
  for (int i = 0; i < dr->ncrossings; i++) {
    if (dr->crossings[i].result == CB_CROSS_UNDER) flags |= CB_FLAG_UNDER;
    if (dr->crossings[i].result == CB_CROSS_OVER) flags |= CB_FLAG_OVER;
  }
  double len = poly_len(v, n);
  cb_passage *ps =
      cb_dungeon_add_passage(s->d, dr->room, to, len > 0 ? CB_PASSAGE_CORRIDOR : CB_PASSAGE_DOOR);
  if (!ps) return cb_error_oom(err);
  ps->flags = flags;
  ps->length_ft = len;
  dr->passage = ps->id;
  return CB_OK;
}

/* "straight", "with 1 turn", "with 3 turns": a corridor of n points. */
static const char *turns_words(int n) {
  static const char *const WORDS[MAX_CORNERS - 1] = {
      "straight",      "with 1 turn",   "with 2 turns",  "with 3 turns",  "with 4 turns",
      "with 5 turns",  "with 6 turns",  "with 7 turns",  "with 8 turns",  "with 9 turns",
      "with 10 turns", "with 11 turns", "with 12 turns", "with 13 turns", "with 14 turns"};
  return WORDS[n <= 2 ? 0 : n - 2 < MAX_CORNERS - 1 ? n - 2 : MAX_CORNERS - 2];
}

/* ---- easing a corridor off its neighbours ---- */

enum { EASE_PASSES = 3 };
static const double EASE_FT[] = {2.5, 5, 7.5, 10}; /* how far a leg may move over, either way */

/* Does leg k of v (k from 0) keep TIGHT_FT off every room, the room it
 * leaves (its first leg) and the one it enters (its last) only not entered,
 * `also` (a room about to be placed) as the others? */
static bool leg_clear(pc *s, const pt *v, int n, int k, int home, int target, const cb_pc_room *also) {
  pt a = v[k], b = v[k + 1];
  double t0, t1, g = TIGHT_FT;
  int nr = nearby(s, s->rooms_at, lo2(a.x, b.x) - g, lo2(a.y, b.y) - g, hi2(a.x, b.x) + g, hi2(a.y, b.y) + g,
                  s->p->nrooms);
  for (int i = 0; i <= nr; i++) {
    const cb_pc_room *r = i < nr ? &s->p->rooms[s->near[i]] : also;
    if (!r) continue;
    bool own = (k == 0 && r->room == home) || (k == n - 2 && (r->room == target || r == also));
    cb_pc_room grown = {0, r->x - (own ? 0 : g), r->y - (own ? 0 : g), r->w + (own ? 0 : 2 * g),
                        r->h + (own ? 0 : 2 * g)};
    if (clip(a, b, &grown, &t0, &t1)) return false;
  }
  return true;
}

/* The corridor v with its leg k (between two corners) moved `d` feet across
 * its way, into w: 0 when that would shorten a leg it joins below 5 ft (or
 * below what it was), reverse it, or (with keep_len) change the length. */
static int moved_leg(const pt *v, int n, int k, double d, bool keep_len, pt *w) {
  memcpy(w, v, (size_t)n * sizeof *v);
  bool level = fabs(v[k].y - v[k + 1].y) < EPS;
  for (int i = k; i <= k + 1; i++)
    (level ? &w[i].y : &w[i].x)[0] += d;
  for (int i = k - 1; i <= k + 1; i += 2) {
    double was = seg_len(v[i], v[i + 1]), now = seg_len(w[i], w[i + 1]);
    bool same_way =
        (w[i + 1].x - w[i].x) * (v[i + 1].x - v[i].x) + (w[i + 1].y - w[i].y) * (v[i + 1].y - v[i].y) > 0;
    if (!same_way || now < fmin(was, TIGHT_FT) - EPS) return 0;
  }
  return !keep_len || fabs(poly_len(w, n) - poly_len(v, n)) < EPS;
}

/* Would corridor w cross no room and no more corridors than `most`, and
 * run along none? */
static int crosses_no_more(pc *s, int di, const pt *w, int n, int most, hits *hs) {
  if (find_hits_upto(s, w, n, di, hs, most)) return -1;
  if (hs->n > most) return 0;
  for (int i = 0; i < hs->n; i++)
    if (hs->h[i].room || hs->h[i].s1 - hs->h[i].s0 > EPS) return 0;
  return 1;
}

/* Up to EASE_PASSES times, the one move of a leg between corners of v that
 * most lessens *crowd (ease_corridor says which). -1 on OOM. */
static int ease_legs(pc *s, int di, pt *v, int n, double crowd, int most, int target, const cb_pc_room *also,
                     bool keep_len, hits *hs) {
  int home = s->p->doors[di].room;
  for (int pass = 0; pass < EASE_PASSES && crowd > EPS; pass++) {
    pt best[MAX_CORNERS], w[MAX_CORNERS];
    double least = crowd;
    for (int k = 1; k + 2 < n; k++)
      for (int j = 0; j < 2 * (int)(sizeof EASE_FT / sizeof *EASE_FT); j++) {
        double d = EASE_FT[j / 2] * (j % 2 ? -1 : 1);
        if (!moved_leg(v, n, k, d, keep_len, w)) continue;
        double c = crowding(s, w, n, di);
        if (c > least - EPS) continue;
        bool clear = leg_clear(s, w, n, k - 1, home, target, also) &&
                     leg_clear(s, w, n, k, home, target, also) &&
                     leg_clear(s, w, n, k + 1, home, target, also);
        int ok = clear ? crosses_no_more(s, di, w, n, most, hs) : 0;
        if (ok < 0) return -1;
        if (ok) least = c, memcpy(best, w, (size_t)n * sizeof *w);
      }
    if (least > crowd - EPS) break;
    memcpy(v, best, (size_t)n * sizeof *v);
    crowd = least;
  }
  return 0;
}

/* A corridor running within a square of another moves its legs between
 * corners a step over (up to a square) where that runs less crowded,
 * crosses no more corridors and no room, keeps TIGHT_FT off the rooms (and
 * `also`), and, with keep_len, keeps its length: the router and the shapes
 * stand on a coarser grid than the corridors they pass. -1 on OOM. */
static int ease_corridor(pc *s, int di, pt *v, int n, int target, const cb_pc_room *also, bool keep_len,
                         hits *hs) {
  double crowd = crowding(s, v, n, di);
  if (crowd < EPS || n < 4) return 0;
  if (find_hits(s, v, n, di, hs)) return -1;
  for (int i = 0; i < hs->n; i++)
    if (hs->h[i].room) return 0;
  return ease_legs(s, di, v, n, crowd, hs->n, target, also, keep_len, hs);
}

/* A corridor to a drawn room (or back to its own): shaped to fit, then its crossings rolled. */
static cb_status corridor_to_room(pc *s, int di, int target, cb_error *err) {
  hits hs = {0};
  route r;
  cb_status st = shape_corridor(s, &s->p->doors[di], target, &r, &hs, err);
  if (st == CB_OK && ease_corridor(s, di, r.v, r.n, target, NULL, false, &hs)) st = cb_error_oom(err);
  if (st == CB_OK && find_hits(s, r.v, r.n, di, &hs)) st = cb_error_oom(err);
  cb_pc_door *dr = &s->p->doors[di];
  if (st == CB_OK && !s->big)
    cb_dungeon_log(s->d, "Room %d, %s door: %.0f ft of corridor, %s, to room %d%s.", dr->room,
                   FACING_WORD[dr->facing], poly_len(r.v, r.n), turns_words(r.n), target,
                   target == dr->room ? " (a loop back into the same room)" : "");
  int secret_to = 0, dead = 0;
  if (st == CB_OK) st = roll_crossings(s, di, r.v, &r.n, &hs, &secret_to, &dead, err);
  free(hs.h);
  if (st != CB_OK) return st;
  dr = &s->p->doors[di];
  int to = dead ? dr->room : secret_to ? secret_to : target;
  unsigned flags = dead ? CB_FLAG_DEAD_END : secret_to ? CB_FLAG_SECRET : 0;
  return finish_corridor(s, di, r.v, r.n, to, flags, err);
}

/* Corridor length (d10): 0 none, 1-6 that many times 10 ft, 7+ 60 ft and a
 * check (d6 on CHECK_TABLE), then 20 ft more. Fills v (door first), *dir
 * the way it ends, and the side passage of the door when the check finds one. */
static int roll_length(pc *s, cb_pc_door *dr, pt *v, cb_facing *dir) {
  int n = 0;
  cb_facing f = dr->facing;
  pt a = dr->at;
  v[n++] = a;
  dr->length_roll = cb_d10(&s->rng);
  int L = dr->length_roll;
  if (L == 10) {
    v[n++] = a;
  } else if (L <= 6) {
    v[n++] = (pt){a.x + DX[f] * L * SQUARE_FT, a.y + DY[f] * L * SQUARE_FT};
  } else {
    pt b = {a.x + DX[f] * CHECK_AT_FT, a.y + DY[f] * CHECK_AT_FT};
    v[n++] = b;
    dr->check_roll = cb_d6(&s->rng);
    check_result cr = CHECK_TABLE[dr->check_roll - 1].result;
    if (cr == CHECK_LEFT) f = (cb_facing)((f + 3) % 4);
    if (cr == CHECK_RIGHT) f = (cb_facing)((f + 1) % 4);
    if (cr == CHECK_SIDE_LEFT || cr == CHECK_SIDE_RIGHT) {
      cb_facing g = (cb_facing)((f + (cr == CHECK_SIDE_LEFT ? 3 : 1)) % 4);
      dr->side[0] = b;
      dr->side[1] = (pt){b.x + DX[g] * SIDE_FT, b.y + DY[g] * SIDE_FT};
      dr->nside = 2;
    }
    v[n++] = (pt){b.x + DX[f] * AFTER_CHECK_FT, b.y + DY[f] * AFTER_CHECK_FT};
  }
  *dir = f;
  return n;
}

static const char *length_words(const cb_pc_door *dr, char *buf, size_t cap) {
  int L = dr->length_roll;
  if (L == 10)
    snprintf(buf, cap, "length rolled 0: no corridor, the door opens straight into it");
  else if (L <= 6)
    snprintf(buf, cap, "length rolled %d: %d ft of corridor %s", L, L * 10, FACING_WORD[dr->facing]);
  else
    snprintf(buf, cap, "length rolled %d: 60 ft of corridor %s, then the check rolled %d: %s, and 20 ft more",
             L, FACING_WORD[dr->facing], dr->check_roll, CHECK_TABLE[dr->check_roll - 1].words);
  return buf;
}

/* What a corridor's crossings cost: a room far more than a corridor. */
static int hit_cost(pc *s, const pt *v, int n, int di, hits *hs) {
  if (find_hits(s, v, n, di, hs)) return -1;
  int k = 0;
  for (int i = 0; i < hs->n; i++)
    k += hs->h[i].room ? 100 : 1;
  return k;
}

/* Would room r stand on the corridor that leads to it? */
static int on_own_corridor(const cb_pc_room *r, const pt *v, int n) {
  double t0, t1;
  for (int i = 1; i < n; i++)
    if (clip(v[i - 1], v[i], r, &t0, &t1)) return 1;
  return 0;
}

/* Where the rolled room can stand at the end of corridor v (entered from
 * wall `entry`, the corridor arriving going `dir`): its door slid along that
 * wall from its own spot until the room is clear of every room and
 * corridor. 1 with *at and *off filled, 0 when no spot is clear. */
static int fit_room(pc *s, int di, const pt *v, int n, cb_facing dir, const rolled_room *rr, cb_pc_room *at,
                    double *off) {
  cb_facing entry = (cb_facing)((dir + 2) % 4);
  double pref = entry_offset(rr, entry), wall = entry == CB_FACING_N || entry == CB_FACING_S ? rr->w : rr->h;
  pt e = v[n - 1];
  *at = (cb_pc_room){0, 0, 0, rr->w, rr->h};
  for (double step = 0; step <= wall; step += 2 * SNAP_FT)
    for (int sign = 1; sign >= -1; sign -= 2) {
      *off = pref + sign * step;
      if (*off < EDGE_FT - EPS || *off > wall - EDGE_FT + EPS || (step == 0 && sign < 0)) continue;
      at->x = dir == CB_FACING_E ? e.x : dir == CB_FACING_W ? e.x - rr->w : e.x - *off;
      at->y = dir == CB_FACING_S ? e.y : dir == CB_FACING_N ? e.y - rr->h : e.y - *off;
      if (room_fits(s, at, s->p->doors[di].room, di) && !on_own_corridor(at, v, n)) return 1;
    }
  return 0;
}

/* The way a corridor runs at its end (`dflt` when it has no length). */
static cb_facing last_leg(const pt *v, int n, cb_facing dflt) {
  for (int i = n - 1; i >= 1; i--) {
    double dx = v[i].x - v[i - 1].x, dy = v[i].y - v[i - 1].y;
    if (fabs(dx) + fabs(dy) < EPS) continue;
    return fabs(dx) > EPS ? (dx > 0 ? CB_FACING_E : CB_FACING_W) : (dy > 0 ? CB_FACING_S : CB_FACING_N);
  }
  return dflt;
}

/* A way to draw the corridor to a new room: the rolled one, or it stepped aside. */
typedef struct shape {
  pt v[MAX_CORNERS];
  int n, cost, step, bend, fits;
  int longer;   /* feet more than rolled (a step aside that does not keep the length) */
  bool turned;  /* the new room stands turned a quarter round (its sides swapped) */
  bool smaller; /* the new room is drawn smaller than rolled (at's sides) */
  double slid;  /* the door moved this far along its wall (feet, right or down positive) */
  /* routed round the rooms to the room placed `ahead` ft on and `aside` ft right of the rolled end */
  int routed, ahead, aside;
  double crowd; /* feet run within a square beside another corridor */
  double lx, ly, off;
  cb_facing dir;
  cb_pc_room at;
} shape;

/* The rolled corridor stepped `step` squares aside (sign: right or left):
 * out 10 ft, sideways, then on its way; with `keep`, its first leg that
 * much shorter so that the corridor keeps its length, and with `late` the
 * step taken 10 ft before the first leg ends rather than 10 ft after the
 * door. 0 when it is too short to step. */
static int step_aside(const pt *v0, int n0, cb_facing facing, int step, int sign, int keep, shape *sh) {
  memset(sh, 0, sizeof *sh);
  if (step == 0) {
    memcpy(sh->v, v0, (size_t)n0 * sizeof *v0);
    sh->n = n0;
  } else {
    double back = keep ? step * SQUARE_FT : 0, first = n0 < 2 ? 0 : seg_len(v0[0], v0[1]);
    double at = keep == 2 ? first - back - SQUARE_FT : STUB_FT;
    if (n0 < 2 || first < STUB_FT + (keep ? back + SQUARE_FT : 0) - EPS ||
        (keep == 2 && at < STUB_FT + SQUARE_FT - EPS))
      return 0;
    cb_facing g = (cb_facing)((facing + (sign > 0 ? 1 : 3)) % 4);
    double ax = DX[g] * step * SQUARE_FT, ay = DY[g] * step * SQUARE_FT;
    sh->lx = ax - DX[facing] * back, sh->ly = ay - DY[facing] * back;
    sh->v[sh->n++] = v0[0];
    sh->v[sh->n++] = (pt){v0[0].x + DX[facing] * at, v0[0].y + DY[facing] * at};
    sh->v[sh->n++] = (pt){sh->v[1].x + ax, sh->v[1].y + ay};
    for (int i = 1; i < n0; i++)
      sh->v[sh->n++] = (pt){v0[i].x + sh->lx, v0[i].y + sh->ly};
  }
  sh->n = simplify(sh->v, sh->n);
  if (sh->n == 1) sh->v[sh->n++] = sh->v[0];
  sh->step = step * (int)SQUARE_FT;
  sh->longer = keep ? 0 : sh->step;
  return 1;
}

/* The rolled corridor with its last `back` squares bent left or right
 * (sign): the same length, ending another way. 0 when too short. */
static int bend_end(const pt *v0, int n0, int back, int sign, shape *sh) {
  if (n0 < 2) return 0;
  pt a = v0[n0 - 2], b = v0[n0 - 1];
  double len = seg_len(a, b), d = back * SQUARE_FT;
  if (len < d + SQUARE_FT - EPS) return 0;
  cb_facing f = last_leg(v0, n0, CB_FACING_N), g = (cb_facing)((f + (sign > 0 ? 1 : 3)) % 4);
  memset(sh, 0, sizeof *sh);
  memcpy(sh->v, v0, (size_t)n0 * sizeof *v0);
  pt k = {b.x - DX[f] * d, b.y - DY[f] * d};
  sh->v[n0 - 1] = k;
  sh->v[n0] = (pt){k.x + DX[g] * d, k.y + DY[g] * d};
  sh->n = n0 + 1;
  sh->bend = (int)d;
  return 1;
}

/* How far the shape strays from the roll, for choosing: feet added, then
 * turns (a bend or a jog), then the room turned. */
static int change_of(const shape *a) {
  return a->longer * 100 + a->smaller * 10 + (a->step || a->bend) * 2 + a->turned;
}

/* Is shape a a better corridor to a new room than b (b->n 0: none yet)?
 * Fewest rooms crossed, then the room fits, then the rolled length kept
 * (the least change), and only then the fewest corridors crossed. */
static bool better_shape(const shape *a, const shape *b) {
  if (b->n == 0) return true; /* none yet: b holds nothing to read */
  int ra = a->cost / 100, rb = b->cost / 100;
  if (ra != rb) return ra < rb;
  if (a->fits != b->fits) return a->fits > b->fits;
  if (change_of(a) != change_of(b)) return change_of(a) < change_of(b);
  if (fabs(a->crowd - b->crowd) > EPS) return a->crowd < b->crowd;
  return a->cost < b->cost;
}

/* The k-th way to draw the rolled corridor: as rolled, its end bent, a jog
 * that keeps its length (early, then late), stepped aside (longer). 0 when
 * there is no such shape. */
enum { SHAPE_KEPT = 1 + 12 + 12 + 12, SHAPE_WAYS = SHAPE_KEPT + 12 };
static int nth_shape(const pt *v0, int n0, cb_facing facing, int k, shape *sh) {
  if (k == 0) return step_aside(v0, n0, facing, 0, 1, 0, sh);
  int i = (k - 1) % 12, sign = i % 2 ? -1 : 1, size = i / 2 + 1;
  if (k <= 12) return bend_end(v0, n0, size, sign, sh);
  return step_aside(v0, n0, facing, size, sign, k <= 24 ? 1 : k <= 36 ? 2 : 0, sh);
}

/* The rolled room turned a quarter round: its sides swapped, its doors
 * facing as rolled. */
static rolled_room turned_room(const rolled_room *rr) {
  rolled_room t = *rr;
  t.w = rr->h, t.h = rr->w;
  return t;
}

/* Fits the new room at the end of shape sh: as rolled, else turned. */
static void fit_shape(pc *s, int di, const rolled_room *rr, shape *sh) {
  s->side_shift = (pt){sh->lx, sh->ly};
  sh->smaller = false;
  sh->fits = fit_room(s, di, sh->v, sh->n, sh->dir, rr, &sh->at, &sh->off);
  if (!sh->fits && rr->w != rr->h) {
    rolled_room t = turned_room(rr);
    sh->fits = sh->turned = fit_room(s, di, sh->v, sh->n, sh->dir, &t, &sh->at, &sh->off);
  }
  /* a game master draws a room a little smaller where it will not fit as rolled: a square off a side
   * at a time, down to the smallest the dice make (20 ft), either way round */
  for (int cut = 1; s->shrink && !sh->fits && cut <= 6; cut++)
    for (int dw = 0; dw <= cut && !sh->fits; dw++) {
      rolled_room t = *rr;
      t.w -= dw * SQUARE_FT, t.h -= (cut - dw) * SQUARE_FT;
      if (t.w < 2 * SQUARE_FT - EPS || t.h < 2 * SQUARE_FT - EPS) continue;
      sh->fits = sh->smaller = fit_room(s, di, sh->v, sh->n, sh->dir, &t, &sh->at, &sh->off);
      if (!sh->fits && t.w != t.h) {
        rolled_room u = turned_room(&t);
        sh->fits = sh->smaller = fit_room(s, di, sh->v, sh->n, sh->dir, &u, &sh->at, &sh->off);
      }
    }
  s->side_shift = (pt){0, 0};
}

/* Is the spot `off` feet along wall f of room `room` free for a door of door di's corridor: clear of
 * the wall's corners and of every other door and corridor's end on it by EDGE_FT, opening into no room? */
static bool spot_free(pc *s, int di, int room, cb_facing f, double off) {
  const cb_pc_room *r = rect_of(s, room);
  if (off < EDGE_FT - EPS || off > wall_len(r, f) - EDGE_FT + EPS) return false;
  for (int j = 0; j < s->p->ndoors; j++) {
    const cb_pc_door *o = &s->p->doors[j];
    pt q = o->npoints >= 2 ? o->points[o->npoints - 1] : o->at;
    if (j != di && o->room == room && o->facing == f && fabs(wall_off(r, f, o->at) - off) < EDGE_FT - EPS)
      return false;
    if (j != di && o->npoints >= 2 && o->to == room && on_wall(r, f, q) &&
        fabs(wall_off(r, f, q) - off) < EDGE_FT - EPS)
      return false;
  }
  return !door_covered(s, wall_point(r, f, off), f);
}

/* May door di move to `off` feet along its wall before its corridor is
 * drawn? Only a door no other corridor comes in by, where it keeps clear of
 * the wall's corners and other doors and does not open into a room. */
static bool door_may_slide(pc *s, int di, bool may, double off) {
  const cb_pc_door *dr = &s->p->doors[di];
  return may && spot_free(s, di, dr->room, dr->facing, off);
}

/* Tries the first `ways` shapes of the rolled corridor v0 (nth_shape),
 * from the door slid `slid` feet along its wall, keeping the best in
 * *best. -1 on OOM. */
static int try_shapes(pc *s, int di, const pt *v0, int n0, cb_facing dir, const rolled_room *rr, int ways,
                      double slid, shape *best, hits *hs) {
  cb_facing facing = s->p->doors[di].facing;
  pt t = {v0[0].x - s->p->doors[di].at.x, v0[0].y - s->p->doors[di].at.y};
  for (int k = 0; k < ways; k++) {
    shape sh;
    if (!nth_shape(v0, n0, facing, k, &sh)) continue;
    sh.slid = slid, sh.lx += t.x, sh.ly += t.y;
    if ((sh.cost = hit_cost(s, sh.v, sh.n, di, hs)) < 0) return -1;
    sh.crowd = crowding(s, sh.v, sh.n, di);
    sh.dir = last_leg(sh.v, sh.n, dir);
    fit_shape(s, di, rr, &sh);
    if (better_shape(&sh, best)) *best = sh;
    /* a corridor in the way is crossed by the d10, never stepped round */
    if (best->fits && best->cost < 100 && change_of(best) < 2) break;
  }
  return 0;
}

/* Picks the corridor to a new room: the rolled length where the room fits
 * and it crosses no room, the corridors in its way crossed by the d10;
 * the room turned, the corridor's end bent, a jog (a turn, logged) only
 * when a room is in its way or the new room would not fit, and stepped
 * aside (longer) only when nothing of the rolled length will do. -1 on
 * OOM. */
static int choose_shape(pc *s, int di, const pt *v0, int n0, cb_facing dir, const rolled_room *rr,
                        shape *best, hits *hs) {
  const cb_pc_door *dr = &s->p->doors[di];
  cb_facing facing = dr->facing;
  const cb_pc_room *home = rect_of(s, dr->room);
  double len = wall_len(home, facing), at = wall_off(home, facing, dr->at);
  bool may_slide = !shares_door(s, di, dr->at);
  best->n = 0;
  /* the door where it was made, then slid along its wall a step at a time */
  for (double step = 0; step <= len; step += SNAP_FT * 2) {
    for (int sign = 1; sign >= -1; sign -= 2) {
      double off = at + sign * step;
      if ((step == 0 && sign < 0) || (step > 0 && !door_may_slide(s, di, may_slide, off))) continue;
      pt t = {wall_point(home, facing, off).x - dr->at.x, wall_point(home, facing, off).y - dr->at.y}, v[8];
      for (int i = 0; i < n0; i++)
        v[i] = (pt){v0[i].x + t.x, v0[i].y + t.y};
      if (try_shapes(s, di, v, n0, dir, rr, step == 0 ? SHAPE_WAYS : SHAPE_KEPT, off - at, best, hs))
        return -1;
      /* the first spot where a corridor of the rolled length reaches a room that fits, clear of
       * every corridor by a square (else the first spot where it fits) */
      if (best->fits && best->cost < 100 && best->longer == 0 && best->crowd < EPS) return 0;
    }
  }
  return 0;
}

/* The shape's last leg 10 ft longer. */
static void extend(shape *sh) {
  if (sh->n == 2 && same_pt(sh->v[0], sh->v[1]))
    sh->v[1] = (pt){sh->v[0].x + DX[sh->dir] * SQUARE_FT, sh->v[0].y + DY[sh->dir] * SQUARE_FT};
  else
    sh->v[sh->n - 1].x += DX[sh->dir] * SQUARE_FT, sh->v[sh->n - 1].y += DY[sh->dir] * SQUARE_FT;
}

enum { LONGEST_ADDED = 30 }; /* squares a corridor may grow to reach a spot clear of rooms */

/* Nothing fits at the rolled length and no corridor routed round the rooms
 * reaches a spot: the rolled corridor made the fewest squares longer, then
 * shaped as at its rolled length (bent, a jog, stepped aside), so that the
 * new room stands clear and the corridor crosses no room. Fills *best and
 * returns the feet added, 0 when there is none, -1 on OOM. */
static int lengthen_clear(pc *s, int di, const pt *v0, int n0, cb_facing dir, const rolled_room *rr,
                          shape *best, hits *hs) {
  shape longer;
  step_aside(v0, n0, s->p->doors[di].facing, 0, 1, 0, &longer);
  longer.dir = last_leg(longer.v, longer.n, dir);
  for (int a = 1; a <= LONGEST_ADDED; a++) {
    extend(&longer);
    for (int k = 0; k < SHAPE_WAYS; k++) {
      shape sh;
      if (!nth_shape(longer.v, longer.n, s->p->doors[di].facing, k, &sh)) continue;
      int cost = hit_cost(s, sh.v, sh.n, di, hs);
      if (cost < 0) return -1;
      if (cost >= 100) continue;
      sh.dir = last_leg(sh.v, sh.n, dir);
      fit_shape(s, di, rr, &sh);
      if (!sh.fits) continue;
      sh.cost = cost, *best = sh;
      return a * (int)SQUARE_FT + sh.longer;
    }
  }
  return 0;
}

enum { BEYOND_RINGS = 24, BEYOND_TRIES = 16 };

/* The corridor routed to the room placed `k` squares ahead of the rolled
 * end e and `m` to the right: 2 with *c filled and *score its price, 1 when
 * no corridor reaches it round the rooms or none could cost less than
 * `least`, 0 when it does not fit there, -1 on OOM. */
static int try_beyond(pc *s, int di, pt e, cb_facing dir, int k, int m, const rolled_room *rr, shape *c,
                      double *score, double least, hits *hs) {
  cb_facing right = (cb_facing)((dir + 1) % 4);
  pt end = {e.x + (DX[dir] * k + DX[right] * m) * SQUARE_FT, e.y + (DY[dir] * k + DY[right] * m) * SQUARE_FT};
  memset(c, 0, sizeof *c);
  if (!fit_room(s, di, &end, 1, dir, rr, &c->at, &c->off)) return 0;
  /* no corridor is shorter than the way straight there: a spot that cannot beat `least` needs no routing */
  pt at = s->p->doors[di].at;
  if (fabs(end.x - at.x) + fabs(end.y - at.y) + 2 * SQUARE_FT * (abs(k) + abs(m)) >= least) return 1;
  way_in in = {end, (cb_facing)((dir + 2) % 4), 0};
  int goal = 0;
  c->n = route_door(s, &s->p->doors[di], &c->at, &in, 1, c->v, &goal);
  if (c->n <= 0) return c->n < 0 ? -1 : 1;
  if ((c->cost = hit_cost(s, c->v, c->n, di, hs)) < 0) return -1;
  if (c->cost >= 100) return 1;
  c->fits = 1, c->routed = 1, c->dir = dir, c->ahead = k * (int)SQUARE_FT, c->aside = m * (int)SQUARE_FT;
  *score = poly_len(c->v, c->n) + TURN * (c->n - 2) + CORRIDOR_CROSSING * c->cost +
           CROWDED_ROUTED * crowding(s, c->v, c->n, di) + 2 * SQUARE_FT * (abs(k) + abs(m));
  return 2;
}

/* Nothing fits at the rolled length without crossing a room: the new room
 * stands at the nearest spot to the rolled end (10 ft at a time, ahead
 * first) where it fits and a corridor reaches it round every room (the
 * router); of the first few such spots, the cheapest. 1 with *best filled,
 * 0 when there is none, -1 on OOM. */
static int place_beyond(pc *s, int di, const pt *v0, int n0, cb_facing dir, const rolled_room *rr,
                        shape *best, hits *hs) {
  pt e = v0[n0 - 1];
  int first = -1, tries = 0;
  double least = INFINITY;
  if (door_covered(s, s->p->doors[di].at, s->p->doors[di].facing)) return 0;
  for (int ring = 0; ring <= BEYOND_RINGS && (first < 0 || ring <= first + 2) && tries < BEYOND_TRIES; ring++)
    for (int k = ring; k >= -ring; k--)
      for (int sign = 1; sign >= -1; sign -= 2) {
        int m = (ring - abs(k)) * sign;
        if ((m == 0 && sign < 0) || tries >= BEYOND_TRIES) continue;
        shape c;
        double score = 0;
        int got = try_beyond(s, di, e, dir, k, m, rr, &c, &score, least, hs);
        if (got < 0) return -1;
        tries += got > 0;
        if (got < 2) continue;
        if (first < 0) first = ring;
        if (score < least) least = score, *best = c;
      }
  return first >= 0;
}

/* The way the corridor runs `at` feet along it. */
static cb_facing leg_at(const pt *v, int n, double at) {
  for (int i = 1; i < n; i++) {
    double l = seg_len(v[i - 1], v[i]);
    if (l > EPS && (at < l - EPS || i == n - 1)) return last_leg(v + i - 1, 2, CB_FACING_N);
    at -= l;
  }
  return CB_FACING_N;
}

/* The side passage the check rolled is not drawn after all: why, for the
 * log once the corridor's own lines are written (side_lost). */
static void drop_side(pc *s, int di, const char *why) {
  s->p->doors[di].nside = 0;
  s->side_lost = why;
}

/* A routed corridor still opens its side passage 60 ft along it, on the
 * side the check rolled; none when the corridor is too short. */
static void regraft_side(pc *s, int di, const shape *sh) {
  cb_pc_door *me = &s->p->doors[di];
  if (me->nside != 2 || !sh->routed) return;
  double total = poly_len(sh->v, sh->n);
  if (total < CHECK_AT_FT + STUB_FT) {
    drop_side(s, di, "the corridor drawn is too short for its side passage");
    return;
  }
  cb_facing f = leg_at(sh->v, sh->n, CHECK_AT_FT);
  bool left = CHECK_TABLE[me->check_roll - 1].result == CHECK_SIDE_LEFT;
  cb_facing g = (cb_facing)((f + (left ? 3 : 1)) % 4);
  me->side[0] = point_at(sh->v, sh->n, CHECK_AT_FT);
  me->side[1] = (pt){me->side[0].x + DX[g] * SIDE_FT, me->side[0].y + DY[g] * SIDE_FT};
  /* it stops short of the new room too */
  double t0, t1;
  cb_pc_room near = {0, sh->at.x - CLEAR_FT, sh->at.y - CLEAR_FT, sh->at.w + 2 * CLEAR_FT,
                     sh->at.h + 2 * CLEAR_FT};
  if (clip(me->side[0], me->side[1], &near, &t0, &t1)) {
    double keep = floor(t0 * SIDE_FT / SNAP_FT) * SNAP_FT;
    me->side[1] = (pt){me->side[0].x + DX[g] * keep, me->side[0].y + DY[g] * keep};
    if (keep < CLEAR_FT) drop_side(s, di, "the side passage would open straight onto the new room");
  }
}

/* A side passage stops short of whatever it would run into. -1 on OOM. */
static int trim_side(pc *s, int di, const shape *sh, hits *hs) {
  cb_pc_door *me = &s->p->doors[di];
  for (int i = 0; i < me->nside; i++)
    me->side[i].x += sh->lx, me->side[i].y += sh->ly;
  regraft_side(s, di, sh);
  if (me->nside != 2) return 0;
  if (find_hits(s, me->side, 2, di, hs)) return -1;
  if (hs->n == 0) return 0;
  double keep = floor((hs->h[0].s0 - CLEAR_FT) / SNAP_FT) * SNAP_FT;
  cb_facing g = last_leg(me->side, 2, CB_FACING_N);
  if (keep < CLEAR_FT)
    drop_side(s, di, "the side passage would run straight into a room or corridor");
  else
    me->side[1] = (pt){me->side[0].x + DX[g] * keep, me->side[0].y + DY[g] * keep};
  return 0;
}

static void log_fit(pc *s, int di, const char *why, const shape *sh, const rolled_room *rr, int added) {
  if (s->big) return;
  cb_pc_door *dr = &s->p->doors[di];
  const char *way = FACING_WORD[dr->facing];
  char lw[160];
  length_words(dr, lw, sizeof lw);
  cb_dungeon_log(s->d, "Room %d, %s door: %s; %s.", dr->room, way, why, lw);
  if (sh->step && sh->longer)
    cb_dungeon_log(s->d, "Room %d, %s door: the corridor turns aside %d ft %s.", dr->room, way, sh->step,
                   sh->cost >= 100 ? "to cross fewer rooms"
                                   : "so that it crosses no room and the new room fits");
  else if (sh->step)
    cb_dungeon_log(
        s->d,
        "Room %d, %s door: the corridor jogs %d ft aside and keeps its length so that the new room "
        "fits.",
        dr->room, way, sh->step);
  if (sh->slid != 0)
    cb_dungeon_log(s->d, "Room %d, %s door: the door moves %.1f ft along its wall so that the new room fits.",
                   dr->room, way, fabs(sh->slid));
  if (sh->turned)
    cb_dungeon_log(s->d, "Room %d, %s door: the new room stands turned, %.0f by %.0f ft, so that it fits.",
                   dr->room, way, rr->w, rr->h);
  if (sh->bend)
    cb_dungeon_log(s->d,
                   "Room %d, %s door: the corridor turns %s for its last %d ft so that the new room fits.",
                   dr->room, way, FACING_WORD[sh->dir], sh->bend);
  if (sh->routed) {
    char where[96] = "at the end of the rolled length";
    int n = 0;
    if (sh->ahead)
      n = snprintf(where, sizeof where, "%d ft %s", abs(sh->ahead), sh->ahead > 0 ? "further on" : "nearer");
    if (sh->aside)
      snprintf(where + n, sizeof where - (size_t)n, "%s%d ft to the %s", n ? " and " : "", abs(sh->aside),
               sh->aside > 0 ? "right" : "left");
    cb_dungeon_log(
        s->d,
        "Room %d, %s door: there the corridor would cross a room or the new room would not fit, so "
        "the new room stands %s and the corridor is drawn to it clear of every room: %.0f ft, %s.",
        dr->room, way, where, poly_len(sh->v, sh->n), turns_words(sh->n));
  }
  double slid = fabs(sh->off - entry_offset(rr, (cb_facing)((sh->dir + 2) % 4)));
  if (slid > EPS)
    cb_dungeon_log(s->d, "Room %d, %s door: the new room slides %.1f ft along its wall to stand clear.",
                   dr->room, way, slid);
  if (added)
    cb_dungeon_log(
        s->d,
        "Room %d, %s door: nothing fits at the rolled length, so the corridor is lengthened by %d ft "
        "(%.0f ft in all) for the new room to stand clear.",
        dr->room, way, added, poly_len(sh->v, sh->n));
}

/* The corridor of door di ends blind (`why` it does), straight on for its
 * rolled length (0: 10 ft, 7+: 60 ft), short of any room in its way. */
static cb_status blind_corridor(pc *s, int di, const char *why, cb_error *err) {
  cb_pc_door *dr = &s->p->doors[di];
  int L = dr->length_roll == 10 ? 1 : dr->length_roll > 6 ? 6 : dr->length_roll;
  pt v[2] = {dr->at, {dr->at.x + DX[dr->facing] * L * SQUARE_FT, dr->at.y + DY[dr->facing] * L * SQUARE_FT}};
  int n = 2;
  hits hs = {0};
  int secret_to = 0, dead = 0;
  cb_status st = find_hits(s, v, n, di, &hs) ? cb_error_oom(err) : CB_OK;
  int in_way = 0;
  double short_of = 0;
  for (int i = 0; st == CB_OK && i < hs.n && !in_way; i++) {
    /* a room in its way: it stops short of it, as corridors keep off rooms */
    if (!hs.h[i].room) continue;
    double keep = fmax(WALL_FT, floor((hs.h[i].s0 - WALL_FT) / SNAP_FT) * SNAP_FT);
    v[1] = (pt){dr->at.x + DX[dr->facing] * keep, dr->at.y + DY[dr->facing] * keep};
    in_way = hs.h[i].room, short_of = hs.h[i].s0 - keep;
    st = find_hits(s, v, n, di, &hs) ? cb_error_oom(err) : CB_OK;
  }
  if (st == CB_OK) st = roll_crossings(s, di, v, &n, &hs, &secret_to, &dead, err);
  free(hs.h);
  if (st != CB_OK) return st;
  if (!s->big)
    cb_dungeon_log(s->d, "Room %d, %s door: %s: a dead end, length rolled %d: %.0f ft%s.", dr->room,
                   FACING_WORD[dr->facing], why, dr->length_roll % 10, poly_len(v, n),
                   in_way ? " (cut short)" : "");
  if (in_way && !s->big)
    cb_dungeon_log(s->d,
                   "Room %d, %s door: the dead end stops %.0f ft short of room %d, which stands in its way.",
                   dr->room, FACING_WORD[dr->facing], short_of, in_way);
  return finish_corridor(s, di, v, n, secret_to ? secret_to : dr->room,
                         secret_to ? CB_FLAG_SECRET : CB_FLAG_DEAD_END, err);
}

/* No shape of the rolled length lets the new room fit as rolled: the room drawn smaller (fit_shape)
 * where a corridor of the rolled length then reaches it clear of rooms and of other corridors, into
 * *sh. -1 on OOM. */
static int smaller_room(pc *s, int di, const pt *v0, int n0, cb_facing dir, const rolled_room *rr, shape *sh,
                        hits *hs) {
  if (sh->fits && sh->cost < 100 && sh->longer == 0) return 0;
  shape less;
  s->shrink = true;
  int rc = choose_shape(s, di, v0, n0, dir, rr, &less, hs);
  s->shrink = false;
  if (rc == 0 && less.fits && less.cost < 100 && less.longer == 0 && less.crowd < EPS) *sh = less;
  return rc;
}

/* A new room at the end of a corridor of the rolled length: the room slid
 * along its wall, or the corridor stepped aside, until it stands clear. */
static cb_status corridor_to_new_room(pc *s, int di, const char *why, cb_error *err) {
  pt v0[8];
  cb_facing dir;
  int n0 = roll_length(s, &s->p->doors[di], v0, &dir);
  rolled_room rr;
  roll_room(s, &rr, true);
  hits hs = {0};
  shape sh;
  int routed = 0;
  if (choose_shape(s, di, v0, n0, dir, &rr, &sh, &hs) || smaller_room(s, di, v0, n0, dir, &rr, &sh, &hs))
    routed = -1;
  /* no shape of the rolled length lets the room fit without crossing a room: route round them */
  shape beyond;
  if (routed == 0 && !(sh.fits && sh.cost < 100) &&
      (routed = place_beyond(s, di, v0, n0, dir, &rr, &beyond, &hs)) > 0)
    sh = beyond;
  int added = 0;
  /* nowhere to route to either: the least longer corridor clear of rooms */
  if (routed == 0 && !(sh.fits && sh.cost < 100) &&
      (added = lengthen_clear(s, di, v0, n0, dir, &rr, &sh, &hs)) < 0)
    routed = -1;
  if (routed == 0 && added == 0 && !(sh.fits && sh.cost < 100)) {
    /* boxed in by rooms: no new room fits that way */
    free(hs.h);
    s->p->doors[di].nside = 0; /* a dead end's log names no check */
    char why2[48];
    snprintf(why2, sizeof why2, "no new room fits %s", FACING_WORD[s->p->doors[di].facing]);
    return blind_corridor(s, di, why2, err);
  }
  /* a corridor of the rolled length keeps it, and its check where it was rolled */
  const cb_pc_door *me = &s->p->doors[di];
  if (routed >= 0 && (sh.routed || (me->nside == 0 && me->check_roll == 0)) &&
      ease_corridor(s, di, sh.v, sh.n, 0, &sh.at, !sh.routed, &hs))
    routed = -1;
  if (routed < 0 || trim_side(s, di, &sh, &hs)) {
    free(hs.h);
    return cb_error_oom(err);
  }
  if (sh.turned) rr = turned_room(&rr);
  rolled_room as_rolled = rr;
  if (sh.smaller) rr.w = sh.at.w, rr.h = sh.at.h;
  if (sh.slid != 0) s->p->doors[di].at = sh.v[0];
  log_fit(s, di, why, &sh, &rr, added);
  if (sh.smaller && !s->big)
    cb_dungeon_log(s->d,
                   "Room %d, %s door: the new room is drawn smaller, %.0f by %.0f ft (rolled %.0f by %.0f), "
                   "so that it fits at the corridor's rolled length.",
                   s->p->doors[di].room, FACING_WORD[s->p->doors[di].facing], rr.w, rr.h, as_rolled.w,
                   as_rolled.h);
  if (s->side_lost && !s->big)
    cb_dungeon_log(s->d, "Room %d, %s door: %s, so it is not drawn.", s->p->doors[di].room,
                   FACING_WORD[s->p->doors[di].facing], s->side_lost);
  s->side_lost = NULL;
  int secret_to = 0, dead = 0, n = sh.n;
  cb_status st = find_hits(s, sh.v, n, di, &hs) ? cb_error_oom(err) : CB_OK;
  if (st == CB_OK) st = roll_crossings(s, di, sh.v, &n, &hs, &secret_to, &dead, err);
  free(hs.h);
  if (st != CB_OK) return st;
  cb_pc_door *dr = &s->p->doors[di];
  if (dead || secret_to) {
    if (!s->big)
      cb_dungeon_log(s->d, "Room %d, %s door: the corridor ends before the new room; it is not drawn.",
                     dr->room, FACING_WORD[dr->facing]);
    return finish_corridor(s, di, sh.v, n, dead ? dr->room : secret_to,
                           dead ? CB_FLAG_DEAD_END : CB_FLAG_SECRET, err);
  }
  st = place_room(s, &rr, sh.at.x, sh.at.y, (int)((sh.dir + 2) % 4), sh.off, err);
  if (st != CB_OK) return st;
  dr = &s->p->doors[di];
  dr->new_room = true;
  return finish_corridor(s, di, sh.v, n, s->p->nrooms, 0, err);
}

/* A corridor with nowhere to go: d10 long as for a new room (0: 10 ft, 7+: 60 ft), ending blind. */
static cb_status dead_end(pc *s, int di, cb_error *err) {
  cb_pc_door *dr = &s->p->doors[di];
  dr->length_roll = cb_d10(&s->rng);
  char why[48];
  snprintf(why, sizeof why, "still no room lies %s", FACING_WORD[dr->facing]);
  return blind_corridor(s, di, why, err);
}

/* Roll for the destination: d10; in the first five rooms the raw room
 * number, after that current - 5 + roll, and a 0 the first room that way as
 * the new current (roll again), postponed when none lies that way yet. A
 * number out of 1..N is the nearest drawn room that way. `final` resumes a
 * postponed door once every room is drawn. */
static cb_status resolve_door(pc *s, int di, bool final, cb_error *err) {
  cb_pc_door *dr = &s->p->doors[di];
  const char *way = FACING_WORD[dr->facing];
  char head[64];
  snprintf(head, sizeof head, "Room %d, %s door%s", dr->room, way, dr->extra ? " (the extra door)" : "");
  int cur = final ? s->pending[di].cur : dr->room, kind = final ? s->pending[di].kind : 0;
  int dest = 0;
  if (!final) {
    if (push_roll(s, dr, cb_d10(&s->rng), 0)) return cb_error_oom(err);
  }
  for (;;) {
    dr = &s->p->doors[di];
    int roll = dr->rolls[dr->nrolls - 1];
    if (kind == 2) break; /* resuming a re-read */
    if (kind == 0 && dr->room <= 5 && dr->nrolls == 1) {
      dest = roll;
      if (!s->big)
        cb_dungeon_log(s->d, "%s: rolled %d -> room %d (one of the first five rooms: the raw number).", head,
                       roll % 10, dest);
      break;
    }
    if (kind == 1 || roll == 10) {
      pt from = cur == dr->room ? dr->at : centre(rect_of(s, cur));
      int next = nearest_that_way(s, from, dr->facing, cur);
      if (!next) {
        if (!final) {
          s->pending[di].cur = cur;
          s->pending[di].kind = 1;
          dr->postponed = true;
          if (!s->big)
            cb_dungeon_log(s->d,
                           "%s: rolled 0 -> a distant room %s, but nothing is drawn %s of %s yet: postponed.",
                           head, way, way, cur == dr->room ? "the door" : "that room");
          return CB_OK;
        }
        return dead_end(s, di, err);
      }
      int r2 = cb_d10(&s->rng);
      dr->via[dr->nrolls - 1] = next;
      if (push_roll(s, dr, r2, 0)) return cb_error_oom(err);
      if (!s->big)
        cb_dungeon_log(s->d,
                       "%s: %s -> the first room %s is room %d, the new current room; rolled again: %d.",
                       head, kind == 1 ? "the postponed distant room" : "rolled 0", way, next, r2 % 10);
      cur = next;
      kind = 0;
      if (r2 == 10) continue;
      dest = cur - 5 + r2;
      if (!s->big) cb_dungeon_log(s->d, "%s: %d - 5 + %d -> room %d.", head, cur, r2, dest);
      break;
    }
    dest = cur - 5 + roll;
    if (!s->big) {
      const char *what = roll == 5 && cur == dr->room ? " (back to the current room: a loop)" : "";
      cb_dungeon_log(s->d, "%s: rolled %d -> room %d%s.", head, roll, dest, what);
    }
    break;
  }
  dr = &s->p->doors[di];
  if (kind != 2) dr->destination = dest;
  dest = dr->destination;
  /* above N only once N rooms exist: until then any room not drawn yet is the next new room */
  if (dest < 1 || (dest > s->n && s->p->nrooms >= s->n)) {
    int near = nearest_that_way(s, dr->at, dr->facing, dr->room);
    dr->reread = true;
    if (!near) {
      if (!final) {
        s->pending[di].cur = cur;
        s->pending[di].kind = 2;
        dr->postponed = true;
        if (!s->big)
          cb_dungeon_log(s->d,
                         "%s: room %d is not in 1..%d; re-read as the nearest room %s, but none is drawn %s "
                         "yet: postponed.",
                         head, dest, s->n, way, way);
        return CB_OK;
      }
      return dead_end(s, di, err);
    }
    if (!s->big)
      cb_dungeon_log(s->d, "%s: room %d is not in 1..%d; re-read as the nearest drawn room %s: room %d.",
                     head, dest, s->n, way, near);
    return corridor_to_room(s, di, near, err);
  }
  if (dest <= s->p->nrooms) return corridor_to_room(s, di, dest, err);
  char why[128];
  if (dest > s->n)
    snprintf(why, sizeof why,
             "room %d is beyond the %d rooms, but only %d are drawn: a new room, drawn as room %d", dest,
             s->n, s->p->nrooms, s->p->nrooms + 1);
  else
    snprintf(why, sizeof why, "room %d is not drawn yet: a new room, drawn as room %d", dest,
             s->p->nrooms + 1);
  return corridor_to_new_room(s, di, why, err);
}

/* A door added at `at` (the extra door, or a fork) leads straight on to a
 * new room: no destination roll, its corridor length rolled as usual. */
static cb_status lead_on(pc *s, int room, cb_facing f, pt at, const char *what, cb_error *err) {
  cb_pc_door *dr = new_door(s, room, f, at, err);
  if (!dr) return err->status;
  dr->extra = true;
  char why[96];
  snprintf(why, sizeof why, "%s leads straight on to a new room, drawn as room %d", what, s->p->nrooms + 1);
  return corridor_to_new_room(s, door_index(s, dr), why, err);
}

/* Every room has its four doors and N rooms are not drawn: the most recent
 * room's door whose corridor ends blind (else its first door) forks, a
 * second corridor from that door leading straight on to a new room; the
 * wall keeps its four doors. *none when the map has no door at all. */
static cb_status fork_door(pc *s, bool *none, cb_error *err) {
  int room = s->p->nrooms, pick = -1;
  for (int j = 0; j < s->p->ndoors; j++) {
    const cb_pc_door *o = &s->p->doors[j];
    if (o->room != room) continue;
    bool blind = o->passage && (s->d->passages[o->passage - 1].flags & CB_FLAG_DEAD_END);
    if (pick < 0 || (blind && !(s->d->passages[s->p->doors[pick].passage - 1].flags & CB_FLAG_DEAD_END)))
      pick = j;
  }
  *none = pick < 0;
  if (*none) return CB_OK;
  cb_facing f = s->p->doors[pick].facing;
  if (!s->big)
    cb_dungeon_log(s->d,
                   "Every door is resolved but only %d of %d rooms are drawn, and every room has its four "
                   "doors: room %d's %s door forks, a second corridor leading from it.",
                   s->p->nrooms, s->n, room, FACING_WORD[f]);
  return lead_on(s, room, f, s->p->doors[pick].at, "the fork", err);
}

/* Every door is resolved before N rooms exist: the most recent room with
 * fewer than four doors gets one more, on a wall without one where it can
 * (the walls in turn from a d4), leading straight on to a new room (no
 * destination roll). *none when every room has its four doors. */
static cb_status extra_door(pc *s, bool *none, cb_error *err) {
  int room = s->p->nrooms;
  while (room >= 1 && doors_of(s, room) >= MAX_DOORS)
    room--;
  *none = false;
  if (room < 1) return fork_door(s, none, err);
  const cb_pc_room *r = rect_of(s, room);
  int roll = cb_d4(&s->rng);
  cb_facing f = (cb_facing)(roll - 1);
  double off = -1;
  /* a wall without a door first, then any; never where the door would open into a room touching it */
  for (int pass = 0; pass < 2 && off < 0; pass++)
    for (int i = 0; i < CB_FACING_COUNT && off < 0; i++) {
      double have[MAX_DOORS * 4];
      cb_facing g = (cb_facing)((roll - 1 + i) % CB_FACING_COUNT);
      if (pass == 0 && wall_doors(s, room, g, have, MAX_DOORS * 4) > 0) continue;
      double spot = free_spot(s, room, g, wall_len(r, g) / 2);
      if (!door_covered(s, wall_point(r, g, spot), g)) f = g, off = spot;
    }
  if (off < 0) off = free_spot(s, room, f, wall_len(r, f) / 2);
  double have[MAX_DOORS * 4];
  bool rolled_has = wall_doors(s, room, (cb_facing)(roll - 1), have, MAX_DOORS * 4) > 0,
       got_has = wall_doors(s, room, f, have, MAX_DOORS * 4) > 0;
  const char *why = (int)f == roll - 1       ? ""
                    : rolled_has && !got_has ? "; that wall has a door, so the next wall without one"
                    : rolled_has ? "; every wall without a door has a room against it, so the next "
                                   "wall with room for one more"
                                 : "; a room stands against that wall, so the next wall clear of one";
  if (!s->big)
    cb_dungeon_log(s->d,
                   "Every door is resolved but only %d of %d rooms are drawn: room %d, the most recent with "
                   "fewer than four doors, gets one more, facing %s (rolled %d%s).",
                   s->p->nrooms, s->n, room, FACING_WORD[f], roll, why);
  return lead_on(s, room, f, wall_point(rect_of(s, room), f, off), "the extra door", err);
}

/* ---- corridors spread apart once every one is drawn ---- */

/* Do two lists of crossings meet the same rooms and corridors in the same order? */
static bool same_hits(const hits *a, const hits *b) {
  if (a->n != b->n) return false;
  for (int i = 0; i < a->n; i++)
    if (a->h[i].room != b->h[i].room || a->h[i].door != b->h[i].door || a->h[i].s1 - a->h[i].s0 > EPS)
      return false;
  return true;
}

/* Does every leg of v run level or upright? */
static bool square_legs(const pt *v, int n) {
  for (int i = 1; i < n; i++)
    if (fabs(v[i].x - v[i - 1].x) > EPS && fabs(v[i].y - v[i - 1].y) > EPS) return false;
  return true;
}

/* May door di's corridor move its legs now that later corridors are drawn?
 * Not when it has a side passage, crosses a room, or another corridor ends
 * on it or before it (a secret door or a dead end there). */
static bool may_spread(pc *s, int di) {
  const cb_pc_door *dr = &s->p->doors[di];
  if (dr->npoints < 2 || dr->nside) return false;
  for (int j = 0; j < s->p->ndoors; j++)
    for (int k = 0; k < s->p->doors[j].ncrossings; k++) {
      const cb_pc_crossing *c = &s->p->doors[j].crossings[k];
      bool under_over = c->result == CB_CROSS_UNDER || c->result == CB_CROSS_OVER;
      if ((j == di && c->room) || (c->room == 0 && c->door == di + 1 && !under_over)) return false;
    }
  return true;
}

/* Door dj's crossings of the corridor of door `of` (every one when `of` is
 * -1) moved to where they now lie along dj's corridor: the k-th with that
 * corridor to its k-th hit. -1 on OOM. */
static int restair(pc *s, int dj, int of, hits *hs) {
  cb_pc_door *o = &s->p->doors[dj];
  if (find_hits(s, o->points, o->npoints, dj, hs)) return -1;
  double total = poly_len(o->points, o->npoints);
  for (int k = 0; k < o->ncrossings; k++) {
    cb_pc_crossing *c = &o->crossings[k];
    if (c->room || (of >= 0 && c->door != of + 1) ||
        (c->result != CB_CROSS_UNDER && c->result != CB_CROSS_OVER))
      continue;
    int nth = 0, seen = 0;
    for (int i = 0; i < k; i++)
      nth += o->crossings[i].room == 0 && o->crossings[i].door == c->door;
    for (int i = 0; i < hs->n; i++) {
      if (hs->h[i].room || hs->h[i].door != c->door - 1 || seen++ != nth) continue;
      c->enter = point_at(o->points, o->npoints, fmax(0, hs->h[i].s0 - STAIRS_FT));
      c->leave = point_at(o->points, o->npoints, fmin(total, hs->h[i].s1 + STAIRS_FT));
      break;
    }
  }
  return 0;
}

/* Door di's corridor takes shape w (n points; a leg moved `moved` feet, 0: another shape): its box, its
 * length, its stairs and the stairs of every corridor that crosses it. -1 on OOM. */
static int respread(pc *s, int di, const pt *w, int n, double moved, hits *hs) {
  cb_pc_door *dr = &s->p->doors[di];
  double was = poly_len(dr->points, dr->npoints);
  if (n > dr->npoints && !(dr->points = cb_arena_alloc(s->d->arena, (size_t)n, sizeof *dr->points)))
    return -1;
  memcpy(dr->points, w, (size_t)n * sizeof *w);
  dr->npoints = n, dr->at = w[0];
  struct box *b = &s->box[di];
  for (int k = 0; k < dr->npoints; k++)
    b->x0 = lo2(b->x0, w[k].x), b->y0 = lo2(b->y0, w[k].y), b->x1 = hi2(b->x1, w[k].x),
    b->y1 = hi2(b->y1, w[k].y);
  if (file_at(s, s->corridors_at, di, b->x0, b->y0, b->x1, b->y1) || restair(s, di, -1, hs)) return -1;
  for (int j = 0; j < s->p->ndoors; j++)
    for (int k = 0; k < s->p->doors[j].ncrossings; k++)
      if (j != di && s->p->doors[j].crossings[k].room == 0 && s->p->doors[j].crossings[k].door == di + 1) {
        if (restair(s, j, di, hs)) return -1;
        break;
      }
  double now = poly_len(w, dr->npoints);
  cb_passage *ps = cb_dungeon_passage(s->d, dr->passage);
  if (ps) ps->length_ft = now;
  if (!s->big && moved > 0)
    cb_dungeon_log(
        s->d,
        "Room %d, %s door: a leg of its corridor moves %.1f ft away from a corridor beside it%s%.0f ft.",
        dr->room, FACING_WORD[dr->facing], moved, fabs(now - was) < EPS ? "; still " : "; now ", now);
  else if (!s->big)
    cb_dungeon_log(s->d,
                   "Room %d, %s door: its corridor takes another way, %s, off a corridor drawn beside it "
                   "later, crossing the same corridors; now %.0f ft.",
                   dr->room, FACING_WORD[dr->facing], turns_words(n), now);
  return 0;
}

/* The one move of a leg of door di's corridor that most lessens its
 * crowding, meeting the same rooms and corridors in the same order and
 * keeping TIGHT_FT off the rooms (its length too, when it leads to a new
 * room): into w and *moved (feet), 1 when there is one. -1 on OOM. */
static int best_spread(pc *s, int di, pt *w, double *moved, hits *hs, hits *was) {
  const cb_pc_door *dr = &s->p->doors[di];
  const pt *v = dr->points;
  int n = dr->npoints, found = 0;
  double least = crowding(s, v, n, di);
  if (least < EPS) return 0;
  if (find_hits(s, v, n, di, was)) return -1;
  pt t[MAX_CORNERS];
  for (int k = 1; k + 2 < n && n <= MAX_CORNERS; k++)
    for (int j = 0; j < 2 * (int)(sizeof EASE_FT / sizeof *EASE_FT); j++) {
      double d = EASE_FT[j / 2] * (j % 2 ? -1 : 1), c;
      if (!moved_leg(v, n, k, d, dr->new_room, t) || !square_legs(t, n) ||
          (c = crowding(s, t, n, di)) > least - EPS)
        continue;
      if (!leg_clear(s, t, n, k - 1, dr->room, dr->to, NULL) ||
          !leg_clear(s, t, n, k, dr->room, dr->to, NULL) ||
          !leg_clear(s, t, n, k + 1, dr->room, dr->to, NULL))
        continue;
      if (find_hits(s, t, n, di, hs)) return -1;
      if (!same_hits(hs, was)) continue;
      least = c, found = 1, *moved = fabs(d);
      memcpy(w, t, (size_t)n * sizeof *t);
    }
  return found;
}

/* The wall of room t that point q lies on, or -1. */
static int wall_of(const cb_pc_room *t, pt q) {
  for (int f = 0; f < CB_FACING_COUNT; f++)
    if (on_wall(t, (cb_facing)f, q)) return f;
  return -1;
}

/* Does every leg of v keep TIGHT_FT off the rooms (leg_clear)? */
static bool legs_clear(pc *s, const pt *v, int n, int home, int target) {
  for (int k = 0; k + 1 < n; k++)
    if (!leg_clear(s, v, n, k, home, target, NULL)) return false;
  return true;
}

/* What a shape of a corridor to a drawn room costs once every corridor is drawn: its length, its turns
 * and the feet it runs crowded, as the router prices them. */
static double reshape_cost(pc *s, int di, const pt *v, int n) {
  return poly_len(v, n) + TURN * (n - 2) + CROWDED_ROUTED * crowding(s, v, n, di);
}

/* The shapes of door di's corridor into the spot it ends at (shapes_to_spot), from the door where it
 * stands and slid up to a square along its wall (door_may_slide), and into the spot slid as far where
 * no other corridor comes in by it; and the router's way, from where they stand, with the corridor
 * itself left out of its view. Into s->cand: the count, -1 on OOM. */
static int shapes_again(pc *s, int di, const cb_pc_room *t, cb_facing f) {
  cb_pc_door *dr = &s->p->doors[di];
  const cb_pc_room *home = rect_of(s, dr->room);
  pt q = dr->points[dr->npoints - 1], at = dr->at;
  double off = wall_off(home, dr->facing, at), qoff = wall_off(t, f, q);
  bool may = !shares_door(s, di, at), may_in = !shares_door(s, di, q);
  int n = dr->npoints, nc = 0, goal = 0;
  if (cb_grow(&s->cand, &s->cap_cand, SHAPES_PER_SPOT * 17 + 1, sizeof *s->cand)) return -1;
  way_in in = {q, f, 0};
  dr->npoints = 0; /* the router would price the corridor's own path as a corridor beside it */
  s->cand[0].n = route_door(s, dr, NULL, &in, 1, s->cand[0].v, &goal);
  dr->npoints = n;
  if (s->cand[0].n < 0) return -1;
  nc += s->cand[0].n > 0;
  for (int k = 0; k < 17; k++) {
    /* the door where it is, then slid (k 1..8), then the spot in slid (k 9..16) */
    double slide = k == 0 ? 0 : EASE_FT[((k - 1) % 8) / 2] * (k % 2 ? 1 : -1);
    bool end = k > 8;
    if (k > 0 && !(end ? may_in && spot_free(s, di, dr->to, f, qoff + slide)
                       : door_may_slide(s, di, may, off + slide)))
      continue;
    pt from = end ? at : wall_point(home, dr->facing, off + slide);
    nc += shapes_to_spot(home, t, dr->facing, from, f, end ? qoff + slide : qoff, s->cand + nc);
  }
  return nc;
}

/* Does corridor dj meet each corridor its crossing records name (those with corridor `of` only, unless
 * dj is `of`) as many times as the records say? */
static bool records_match(const cb_pc_door *o, int dj, int of, const hits *hs) {
  for (int k = 0; k < o->ncrossings; k++) {
    int door = o->crossings[k].door - 1, recs = 0, met = 0;
    if (o->crossings[k].room || (dj != of && door != of)) continue;
    for (int i = 0; i < o->ncrossings; i++)
      recs += !o->crossings[i].room && o->crossings[i].door == door + 1;
    for (int i = 0; i < hs->n; i++)
      met += !hs->h[i].room && hs->h[i].door == door;
    if (recs != met) return false;
  }
  return true;
}

/* Do corridor dj's crossings that involve corridor `of` (every one when dj is `of`) stand as recorded
 * (records_match), with room for their stairs, STAIRS_FT either side, clear of the next? 1 yes, 0 no,
 * -1 on OOM. */
static int stairs_apart(pc *s, int dj, int of, hits *hs) {
  const cb_pc_door *o = &s->p->doors[dj];
  if (find_hits(s, o->points, o->npoints, dj, hs)) return -1;
  if (!records_match(o, dj, of, hs)) return 0;
  for (int i = 1; i < hs->n; i++) {
    const hit *a = &hs->h[i - 1], *b = &hs->h[i];
    bool ours = dj == of || (!a->room && a->door == of) || (!b->room && b->door == of);
    if (ours && b->s0 - a->s1 < 2 * STAIRS_FT - EPS) return 0;
  }
  return 1;
}

/* Would door di's corridor, taking shape w (n points), leave room for the stairs of its crossings and of
 * those of every corridor that crosses it? 1 yes, 0 no, -1 on OOM. */
static int stairs_fit(pc *s, int di, pt *w, int n, hits *hs) {
  cb_pc_door *dr = &s->p->doors[di];
  struct box *b = &s->box[di];
  for (int k = 0; k < n; k++)
    b->x0 = lo2(b->x0, w[k].x), b->y0 = lo2(b->y0, w[k].y), b->x1 = hi2(b->x1, w[k].x),
    b->y1 = hi2(b->y1, w[k].y);
  if (file_at(s, s->corridors_at, di, b->x0, b->y0, b->x1, b->y1)) return -1;
  pt *was = dr->points;
  int nwas = dr->npoints, ok = 1;
  dr->points = w, dr->npoints = n;
  for (int j = 0; j < s->p->ndoors && ok == 1; j++) {
    bool crosses = j == di;
    for (int k = 0; k < s->p->doors[j].ncrossings && !crosses; k++)
      crosses = s->p->doors[j].crossings[k].room == 0 && s->p->doors[j].crossings[k].door == di + 1;
    if (crosses) ok = stairs_apart(s, j, di, hs);
  }
  dr->points = was, dr->npoints = nwas;
  return ok;
}

/* Once every corridor is drawn, a corridor to a drawn room may take another of the shapes it was chosen
 * from (shapes_again: its door or the spot it comes in by may slide a little), meeting the same rooms
 * and corridors in the same order (every d10 stands, every pair of stairs has room), keeping TIGHT_FT
 * off rooms, cheaper by reshape_cost and less crowded. Into w and *nw; 1 when there is one, -1 on OOM. */
static int best_reshape(pc *s, int di, pt *w, int *nw, hits *hs, hits *was) {
  const cb_pc_door *dr = &s->p->doors[di];
  const cb_pc_room *t = dr->to > 0 ? rect_of(s, dr->to) : NULL;
  int n = dr->npoints, f = t && n >= 2 ? wall_of(t, dr->points[n - 1]) : -1;
  if (f < 0 || dr->new_room || dr->nside) return 0;
  double crowd = crowding(s, dr->points, n, di), least = reshape_cost(s, di, dr->points, n);
  if (crowd < EPS) return 0;
  int nc = shapes_again(s, di, t, (cb_facing)f), found = 0;
  if (nc < 0 || find_hits(s, dr->points, n, di, was)) return -1;
  for (int i = 0; i < nc; i++) {
    route *r = &s->cand[i];
    r->n = simplify(r->v, r->n);
    pt a = r->v[0], b = r->n > 1 ? r->v[1] : a;
    if (r->n < 2 || (b.x - a.x) * DX[dr->facing] + (b.y - a.y) * DY[dr->facing] <= EPS ||
        !square_legs(r->v, r->n))
      continue;
    double c = reshape_cost(s, di, r->v, r->n);
    if (c > least - EPS || crowding(s, r->v, r->n, di) > crowd - EPS ||
        !legs_clear(s, r->v, r->n, dr->room, dr->to))
      continue;
    if (find_hits(s, r->v, r->n, di, hs)) return -1;
    if (!same_hits(hs, was)) continue;
    int fit = stairs_fit(s, di, r->v, r->n, hs);
    if (fit < 0) return -1;
    if (!fit) continue;
    least = c, found = 1, *nw = r->n;
    memcpy(w, r->v, (size_t)r->n * sizeof *w);
  }
  return found;
}

/* Corridors drawn early never saw the ones drawn beside them later: once
 * every corridor is drawn, each moves a leg at a time (up to a square over)
 * where it runs less crowded, crossing the same rooms and corridors in the
 * same order, so that every d10 rolled still stands; the stairs move with
 * the crossings. */
static cb_status spread_corridors(pc *s, cb_error *err) {
  hits hs = {0}, was = {0};
  int rc = 0;
  for (int pass = 0; pass < EASE_PASSES && rc == 0; pass++)
    for (int di = 0; di < s->p->ndoors && rc == 0; di++) {
      pt w[MAX_CORNERS];
      double moved = 0;
      int n = s->p->doors[di].npoints;
      if (!may_spread(s, di)) continue;
      int got = best_reshape(s, di, w, &n, &hs, &was);
      if (got == 0) got = best_spread(s, di, w, &moved, &hs, &was);
      rc = got < 0 ? -1 : got ? respread(s, di, w, n, moved, &hs) : 0;
    }
  free(hs.h);
  free(was.h);
  return rc ? cb_error_oom(err) : CB_OK;
}

/* Draw the map: room 1, then every door in the order made; postponed
 * corridors at the end. */
static cb_status draw_map(pc *s, cb_error *err) {
  rolled_room rr;
  roll_room(s, &rr, false);
  cb_status st = place_room(s, &rr, 0, 0, -1, 0, err);
  if (st != CB_OK) return st;
  int next = 0, extras = 0, announced = 0;
  bool full = false;
  for (;;) {
    while (next < s->p->ndoors) {
      if ((st = resolve_door(s, next, false, err)) != CB_OK) return st;
      next++;
    }
    if (s->p->nrooms < s->n && !s->o->faithful && !full) {
      if (++extras > MAX_EXTRA_DOORS) return cb_error_set(err, CB_EINTERNAL, "the map stopped growing");
      if ((st = extra_door(s, &full, err)) != CB_OK) return st;
      if (full)
        cb_dungeon_log(s->d,
                       "Every room has its four doors with %d of %d rooms drawn: the map stays at %d rooms.",
                       s->p->nrooms, s->n, s->p->nrooms);
      else
        next++;
      continue;
    }
    if (s->p->nrooms < s->n && !announced)
      cb_dungeon_log(s->d,
                     "Every door is resolved with %d of %d rooms drawn; --faithful adds no doors, so the map "
                     "stays at %d rooms.",
                     s->p->nrooms, s->n, s->p->nrooms);
    int npost = 0;
    for (int i = 0; i < s->p->ndoors; i++)
      npost += s->p->doors[i].postponed && s->p->doors[i].npoints == 0;
    if (npost == 0) break;
    cb_dungeon_log(s->d, "%s now the %d postponed corridor%s.", announced ? "Again," : "All rooms are drawn;",
                   npost, npost == 1 ? "" : "s");
    announced = 1;
    /* a postponed corridor may still draw a new room (with --faithful), whose doors come next */
    for (int i = 0; i < s->p->ndoors; i++)
      if (s->p->doors[i].postponed && s->p->doors[i].npoints == 0 &&
          (st = resolve_door(s, i, true, err)) != CB_OK)
        return st;
  }
  if ((st = spread_corridors(s, err)) != CB_OK) return st;
  return s->d->oom ? cb_error_oom(err) : CB_OK;
}

static cb_status summarise(pc *s) {
  int loops = 0, dead = 0, secret = 0, under = 0, over = 0;
  for (int i = 0; i < s->d->npassages; i++) {
    const cb_passage *ps = &s->d->passages[i];
    loops += ps->from == ps->to && !(ps->flags & CB_FLAG_DEAD_END);
    dead += (ps->flags & CB_FLAG_DEAD_END) != 0;
    secret += (ps->flags & CB_FLAG_SECRET) != 0;
  }
  for (int i = 0; i < s->p->ndoors; i++)
    for (int k = 0; k < s->p->doors[i].ncrossings; k++) {
      under += s->p->doors[i].crossings[k].result == CB_CROSS_UNDER;
      over += s->p->doors[i].crossings[k].result == CB_CROSS_OVER;
    }
  cb_dungeon_log(s->d,
                 "The map: %d rooms, %d doors and corridors (%d loop%s, %d dead end%s, %d secret door%s), %d "
                 "crossing%s under and %d over.",
                 s->p->nrooms, s->p->ndoors, loops, loops == 1 ? "" : "s", dead, dead == 1 ? "" : "s", secret,
                 secret == 1 ? "" : "s", under, under == 1 ? "" : "s", over);
  return CB_OK;
}

static cb_status validate(const cb_gen_options *o, cb_error *err) {
  if (o->levels > 1)
    return cb_error_set(err, CB_EINPUT, "--levels %d: preconnect draws one level", o->levels);
  return CB_OK;
}

static cb_status steps(const cb_gen_options *o, const void *ctx, cb_dungeon *d, cb_error *err) {
  (void)ctx;
  cb_status st;
  pc s = {0};
  s.o = o;
  s.n = o->rooms ? o->rooms : DEFAULT_ROOMS;
  s.big = s.n > CB_LOG_DETAIL_ROOMS;
  cb_rng_seed(&s.rng, o->seed, 0);
  s.d = d;
  s.p = cb_arena_alloc(s.d->arena, 1, sizeof *s.p);
  s.router = cb_ortho_work_new();
  s.rooms_at = cb_boxgrid_new(CELL_FT), s.corridors_at = cb_boxgrid_new(CELL_FT),
  s.spots_at = cb_boxgrid_new(CELL_FT);
  if (!s.p || !s.router || !s.rooms_at || !s.corridors_at || !s.spots_at ||
      !cb_dungeon_add_level(s.d, 1, "Level 1"))
    goto fail_oom;
  s.d->procedure = s.p;
  cb_gen_options used = *o;
  used.rooms = s.n;
  cb_option_record_all(s.d, &cb_preconnect_option_specs, &used, cb_preconnect_options_of(o));
  cb_dungeon_log(
      s.d,
      "Pre-connecting %d rooms: each room is d4+1 by d4+1 squares of 10 ft with d4 doors; each door "
      "rolls d10 for where it leads before its corridor is drawn.",
      s.n);
  if ((st = draw_map(&s, err)) == CB_OK) summarise(&s);
  goto done;
fail_oom:
  st = cb_error_oom(err);
done:
  free(s.pending);
  free(s.box);
  free(s.cand);
  free(s.blocks);
  free(s.segs);
  cb_ortho_work_free(s.router);
  cb_boxgrid_free(s.rooms_at);
  cb_boxgrid_free(s.corridors_at);
  cb_boxgrid_free(s.spots_at);
  free(s.near);
  return st;
}

const cb_generator cb_gen_preconnect = {
    .name = "preconnect",
    .title_noun = "Halls",
    .max_rooms = MAX_ROOMS,
    .validate = validate,
    .steps = steps,
    .what = "A pre-connected dungeon",
    .io = &cb_proc_io_preconnect,
    .layout = &cb_preconnect_layout,
    .options = &cb_preconnect_option_specs,
};
