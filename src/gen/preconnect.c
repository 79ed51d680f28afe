/* preconnect: pre-connecting random non-linear dungeons, SubMethod I (seed
 * 002, generators.md). Rooms are drawn one after another on a plane (feet,
 * y southwards); every door rolls d10 for where its corridor leads before the
 * corridor is drawn, and the corridor is then shaped to fit. Geometry: rooms
 * are rectangles of 10-ft squares; corridors are polylines of axis-aligned
 * legs from a door on one wall to a door on another; every coordinate is a
 * multiple of 2.5 ft, so it survives JSON exactly. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/proc_preconnect.h"
#include "../model/rng.h"
#include "../util/alloc.h"
#include "generator.h"

enum { DEFAULT_ROOMS = 12, MAX_ROOMS = 500, MAX_EXTRA_DOORS = 100000, MAX_SHAPES_TRIED = 6 };
static const double SQUARE_FT = 10;  /* the map's squares */
static const double STUB_FT = 10;    /* a corridor leaves a wall straight for this long before turning */
static const double GAP_FT = 20;     /* rooms keep at least this far apart (a new room may touch its parent) */
static const double CLEAR_FT = 10;   /* rooms keep this far from corridors */
static const double EDGE_FT = 5;     /* doors keep this far from a wall's corners and from each other */
static const double SNAP_FT = 2.5;   /* every door lies on this grid */
static const double STAIRS_FT = 5;
static const double NEAR_FT = 10;   /* a corridor closer than this beside another is crowded */   /* stairs this far before and after a crossed corridor */
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
    int cur;  /* the current room when it was postponed */
    int kind; /* 0 not postponed, 1 a distant room to find, 2 a number to re-read */
  } *pending; /* per door */
  size_t cap_pending;
  struct box {
    double x0, y0, x1, y1;
  } *box; /* per door: its corridor's bounding box (side passage included) */
  size_t cap_box;
  bool big; /* too many rooms for a line per step in the log */
} pc;

static cb_status oom(cb_error *err) { return cb_error_set(err, CB_EINTERNAL, "out of memory"); }

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

static double wall_len(const cb_pc_room *r, cb_facing f) { return f == CB_FACING_N || f == CB_FACING_S ? r->w : r->h; }

static double wall_off(const cb_pc_room *r, cb_facing f, pt q) {
  return f == CB_FACING_N || f == CB_FACING_S ? q.x - r->x : q.y - r->y;
}

static int on_wall(const cb_pc_room *r, cb_facing f, pt q) {
  pt a = wall_point(r, f, 0), b = wall_point(r, f, wall_len(r, f));
  return fabs(a.x - q.x) < EPS && fabs(b.x - q.x) < EPS ? (q.y > a.y - EPS && q.y < b.y + EPS)
         : fabs(a.y - q.y) < EPS && fabs(b.y - q.y) < EPS ? (q.x > a.x - EPS && q.x < b.x + EPS)
                                                         : 0;
}

/* ---- geometry of the drawn map ---- */

static double poly_len(const pt *v, int n) {
  double l = 0;
  for (int i = 1; i < n; i++) l += fabs(v[i].x - v[i - 1].x) + fabs(v[i].y - v[i - 1].y);
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
      if ((fabs(a.x - b.x) < EPS && fabs(b.x - v[i].x) < EPS) || (fabs(a.y - b.y) < EPS && fabs(b.y - v[i].y) < EPS)) {
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
  double s0, s1; /* along the corridor, feet */
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

/* Every room and drawn corridor the polyline must cross, in order along it.
 * `self` is the door whose corridor this is (left out). -1 on OOM. */
static int find_hits(pc *s, const pt *v, int n, int self, hits *hs) {
  hs->n = 0;
  double total = poly_len(v, n);
  double minx = INFINITY, miny = INFINITY, maxx = -INFINITY, maxy = -INFINITY;
  for (int i = 0; i < n; i++)
    minx = lo2(minx, v[i].x), maxx = hi2(maxx, v[i].x), miny = lo2(miny, v[i].y), maxy = hi2(maxy, v[i].y);
  for (int r = 0; r < s->p->nrooms; r++) {
    const cb_pc_room *rr = &s->p->rooms[r];
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
  for (int j = 0; j < s->p->ndoors; j++) {
    const cb_pc_door *o = &s->p->doors[j];
    const struct box *b = &s->box[j];
    if (j == self || o->npoints < 2 || b->x1 < minx - EPS || b->x0 > maxx + EPS || b->y1 < miny - EPS ||
        b->y0 > maxy + EPS)
      continue;
    for (int part = 0; part < 2; part++) {
      const pt *w = part ? o->side : o->points;
      int m = part ? o->nside : o->npoints;
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
  }
  if (hs->n > 1) qsort(hs->h, (size_t)hs->n, sizeof *hs->h, hit_cmp);
  return 0;
}

/* How much of the polyline runs close beside another corridor (within
 * NEAR_FT, parallel), in feet: a corridor squeezed against another reads
 * badly on the map. */
static double crowding(pc *s, const pt *v, int n, int self) {
  double minx = INFINITY, miny = INFINITY, maxx = -INFINITY, maxy = -INFINITY, sum = 0;
  for (int i = 0; i < n; i++)
    minx = lo2(minx, v[i].x), maxx = hi2(maxx, v[i].x), miny = lo2(miny, v[i].y), maxy = hi2(maxy, v[i].y);
  minx -= NEAR_FT, miny -= NEAR_FT, maxx += NEAR_FT, maxy += NEAR_FT;
  for (int j = 0; j < s->p->ndoors; j++) {
    const cb_pc_door *o = &s->p->doors[j];
    const struct box *b = &s->box[j];
    if (j == self || o->npoints < 2 || b->x1 < minx || b->x0 > maxx || b->y1 < miny || b->y0 > maxy) continue;
    for (int k = 1; k < o->npoints; k++) {
      pt c = o->points[k - 1], e = o->points[k];
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
  }
  return sum;
}

/* Does rectangle r (grown by `grow`) overlap the open rectangle q? */
static int rects_overlap(const cb_pc_room *r, double grow, const cb_pc_room *q) {
  return r->x - grow < q->x + q->w - EPS && q->x + EPS < r->x + r->w + grow && r->y - grow < q->y + q->h - EPS &&
         q->y + EPS < r->y + r->h + grow;
}

/* May a new room stand at r? Not on a room (but touching its parent), not on a corridor. */
static int room_fits(pc *s, const cb_pc_room *r, int parent, int self) {
  double t0, t1;
  const cb_pc_door *me = &s->p->doors[self];
  cb_pc_room near = {0, r->x - CLEAR_FT, r->y - CLEAR_FT, r->w + 2 * CLEAR_FT, r->h + 2 * CLEAR_FT};
  if (me->nside == 2 && clip(me->side[0], me->side[1], &near, &t0, &t1)) return 0;
  for (int i = 0; i < s->p->nrooms; i++) {
    const cb_pc_room *q = &s->p->rooms[i];
    if (rects_overlap(q, q->room == parent ? 0 : GAP_FT, r)) return 0;
  }
  cb_pc_room grown = {0, r->x - CLEAR_FT, r->y - CLEAR_FT, r->w + 2 * CLEAR_FT, r->h + 2 * CLEAR_FT};
  for (int j = 0; j < s->p->ndoors; j++) {
    const cb_pc_door *o = &s->p->doors[j];
    const struct box *b = &s->box[j];
    if (o->npoints < 2 || b->x1 <= grown.x || b->x0 >= grown.x + grown.w || b->y1 <= grown.y ||
        b->y0 >= grown.y + grown.h)
      continue;
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

/* The spot on wall f nearest to `want` feet along it that keeps EDGE_FT from
 * every other door; on a crowded wall, the spot farthest from them. */
static double free_spot(pc *s, int room, cb_facing f, double want) {
  const cb_pc_room *r = rect_of(s, room);
  double len = wall_len(r, f), best = snap(fmin(len - EDGE_FT, fmax(EDGE_FT, want)));
  double roomiest = best, most = wall_gap(s, room, f, best);
  if (most >= EDGE_FT - EPS) return best;
  for (double step = SNAP_FT; step < len; step += SNAP_FT)
    for (int sign = -1; sign <= 1; sign += 2) {
      double off = best + sign * step;
      if (off < SNAP_FT - EPS || off > len - SNAP_FT + EPS) continue;
      double gap = wall_gap(s, room, f, off);
      if (gap >= EDGE_FT - EPS && off >= EDGE_FT - EPS && off <= len - EDGE_FT + EPS) return off;
      if (gap > most + EPS) most = gap, roomiest = off;
    }
  return roomiest;
}

/* ---- the model ---- */

static cb_pc_door *new_door(pc *s, int room, cb_facing f, pt at, cb_error *err) {
  cb_preconnect_proc *p = s->p;
  if (cb_arena_grow(s->d->arena, &p->doors, &s->cap_doors, (size_t)p->ndoors + 1, sizeof *p->doors) ||
      cb_grow(&s->pending, &s->cap_pending, (size_t)p->ndoors + 1, sizeof *s->pending)) {
    oom(err);
    return NULL;
  }
  if (cb_grow(&s->box, &s->cap_box, (size_t)p->ndoors + 1, sizeof *s->box)) {
    oom(err);
    return NULL;
  }
  s->pending[p->ndoors] = (struct pending){0, 0};
  s->box[p->ndoors] = (struct box){INFINITY, INFINITY, -INFINITY, -INFINITY};
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
  for (int i = 0; i < rr->ndoors; i++) rr->facing[i] = (cb_facing)(cb_d4(&s->rng) - 1);
}

/* How far along wall `entry` the door it is entered by lies: its doors on
 * that wall are spread evenly with the entry in the middle slot. */
static double entry_offset(const rolled_room *rr, cb_facing entry) {
  int t = 1;
  for (int i = 0; i < rr->ndoors; i++) t += rr->facing[i] == entry;
  double len = entry == CB_FACING_N || entry == CB_FACING_S ? rr->w : rr->h;
  return snap(len * (t / 2 + 1) / (t + 1));
}

/* Puts the rolled room at x, y as the next room, with its doors spread
 * evenly on their walls (the entry's slot left free). */
/* The spot nearest `want` on a wall `len` long at least EDGE_FT from the
 * corners and from the spots taken. */
static double spot_clear_of(double want, double len, const double *taken, int nt) {
  for (double step = 0; step <= len; step += SNAP_FT)
    for (int sign = 1; sign >= -1; sign -= 2) {
      double off = want + sign * step;
      int ok = off >= EDGE_FT - EPS && off <= len - EDGE_FT + EPS;
      for (int i = 0; ok && i < nt; i++) ok = fabs(taken[i] - off) >= EDGE_FT - EPS;
      if (ok) return off;
    }
  return want;
}

static cb_status place_room(pc *s, const rolled_room *rr, double x, double y, int entry, double entry_off,
                            cb_error *err) {
  cb_preconnect_proc *p = s->p;
  if (cb_arena_grow(s->d->arena, &p->rooms, &s->cap_rooms, (size_t)p->nrooms + 1, sizeof *p->rooms)) return oom(err);
  int id = p->nrooms + 1;
  p->rooms[p->nrooms++] = (cb_pc_room){id, x, y, rr->w, rr->h};
  const cb_pc_room *r = &p->rooms[id - 1];
  pt c = centre(r);
  cb_room *room = cb_dungeon_add_room(s->d, 1, c.x, c.y);
  if (!room) return oom(err);
  if (id == 1) room->tags |= CB_TAG_ENTRANCE;
  for (int f = 0; f < CB_FACING_COUNT; f++) {
    int t = f == entry;
    for (int i = 0; i < rr->ndoors; i++) t += rr->facing[i] == (cb_facing)f;
    int slot = 0, entry_slot = f == entry ? t / 2 : -1, nt = 0;
    double taken[5];
    if (f == entry) taken[nt++] = entry_off;
    for (int i = 0; i < rr->ndoors; i++) {
      if (rr->facing[i] != (cb_facing)f) continue;
      if (slot == entry_slot) slot++;
      double len = wall_len(r, (cb_facing)f);
      double off = spot_clear_of(snap(len * (slot + 1) / (t + 1)), len, taken, nt);
      taken[nt++] = off;
      if (!new_door(s, id, (cb_facing)f, wall_point(r, (cb_facing)f, off), err)) return err->status;
      slot++;
    }
  }
  char doors[160] = "";
  size_t n = 0;
  if (entry >= 0)
    n += (size_t)snprintf(doors, sizeof doors, "the one it is entered by (%s)%s", FACING_WORD[entry],
                          rr->ndoors ? "; the others face " : ", no other");
  for (int i = 0; i < rr->ndoors; i++)
    n += (size_t)snprintf(doors + n, sizeof doors - n, "%s%s", i ? (i + 1 == rr->ndoors ? " and " : ", ") : "",
                          FACING_WORD[rr->facing[i]]);
  if (!s->big)
    cb_dungeon_log(s->d, "Room %d: %.0f by %.0f ft; rolled %d door%s: %s.", id, rr->w, rr->h, rr->total,
                   rr->total == 1 ? "" : "s", doors);
  return CB_OK;
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
  pt v[8];
  int n;
  double cost;
} route;

/* Shapes a corridor from the door to room `target` (its own room: a loop):
 * as straight as it can, one or two turns when it starts the wrong way, a
 * detour round a room in the way; the fewest crossings win, then the
 * shortest, then the fewest turns. */
static cb_status shape_corridor(pc *s, cb_pc_door *dr, int target, route *best, hits *hs, cb_error *err) {
  int di = door_index(s, dr);
  const cb_pc_room *src = rect_of(s, dr->room), *t = rect_of(s, target);
  pt P = dr->at, P1 = {P.x + DX[dr->facing] * STUB_FT, P.y + DY[dr->facing] * STUB_FT};
  int horiz = DX[dr->facing] != 0;
  best->n = 0;
  best->cost = INFINITY;
  route cand[64];
  int nc = 0;
  for (int f = 0; f < CB_FACING_COUNT; f++) {
    if (target == dr->room && f == (int)dr->facing) continue;
    double want = f == CB_FACING_N || f == CB_FACING_S ? P1.x - t->x : P1.y - t->y;
    double off = free_spot(s, target, (cb_facing)f, want);
    pt Q = wall_point(t, (cb_facing)f, off), Q1 = {Q.x + DX[f] * STUB_FT, Q.y + DY[f] * STUB_FT};
    pt el[2] = {horiz ? (pt){Q1.x, P1.y} : (pt){P1.x, Q1.y}, horiz ? (pt){P1.x, Q1.y} : (pt){Q1.x, P1.y}};
    for (int k = 0; k < 2; k++) cand[nc++] = (route){{P, P1, el[k], Q1, Q}, 5, 0};
    /* detours: out sideways past the rooms at either end, along, and back in */
    double side[4];
    if (horiz) {
      side[0] = fmin(src->y, t->y) - STUB_FT, side[1] = fmax(src->y + src->h, t->y + t->h) + STUB_FT;
      side[2] = src->y - STUB_FT, side[3] = src->y + src->h + STUB_FT;
    } else {
      side[0] = fmin(src->x, t->x) - STUB_FT, side[1] = fmax(src->x + src->w, t->x + t->w) + STUB_FT;
      side[2] = src->x - STUB_FT, side[3] = src->x + src->w + STUB_FT;
    }
    for (int k = 0; k < 4; k++) {
      pt a = horiz ? (pt){P1.x, side[k]} : (pt){side[k], P1.y};
      pt b = horiz ? (pt){Q1.x, side[k]} : (pt){side[k], Q1.y};
      cand[nc++] = (route){{P, P1, a, b, Q1, Q}, 6, 0};
    }
  }
  for (int i = 0; i < nc; i++) {
    cand[i].n = simplify(cand[i].v, cand[i].n);
    cand[i].cost = poly_len(cand[i].v, cand[i].n) + 15.0 * (cand[i].n - 2);
    /* the first leg must leave the wall outwards */
    pt a = cand[i].v[0], b = cand[i].n > 1 ? cand[i].v[1] : a;
    if ((b.x - a.x) * DX[dr->facing] + (b.y - a.y) * DY[dr->facing] <= EPS) cand[i].cost = INFINITY;
  }
  /* cheapest shapes first; crossings cost 1000 ft each, through its own ends far more */
  for (int round = 0; round < MAX_SHAPES_TRIED; round++) {
    int k = -1;
    for (int i = 0; i < nc; i++)
      if (cand[i].cost < INFINITY && (k < 0 || cand[i].cost < cand[k].cost)) k = i;
    if (k < 0 || cand[k].cost >= best->cost) break;
    route r = cand[k];
    cand[k].cost = INFINITY;
    if (find_hits(s, r.v, r.n, di, hs)) return oom(err);
    r.cost += 2 * crowding(s, r.v, r.n, di);
    for (int h = 0; h < hs->n; h++)
      r.cost += hs->h[h].room == dr->room || hs->h[h].room == target ? 100000 : 1000;
    if (r.cost < best->cost) *best = r;
  }
  if (best->n == 0) return cb_error_set(err, CB_EINTERNAL, "no corridor shape from room %d", dr->room);
  return CB_OK;
}

static const char *room_or_corridor(pc *s, const hit *h, char *buf, size_t cap) {
  if (h->room) snprintf(buf, cap, "room %d", h->room);
  else {
    const cb_pc_door *o = &s->p->doors[h->door];
    if (o->to && o->to != o->room) snprintf(buf, cap, "the corridor from room %d to room %d", o->room, o->to);
    else snprintf(buf, cap, "the corridor from room %d", o->room);
  }
  return buf;
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
  if (!c) return oom(err);
  int nc = 0;
  double total = poly_len(v, *n), cut = -1;
  for (int i = 0; i < hs->n && cut < 0; i++) {
    const hit *h = &hs->h[i];
    int roll = cb_d10(&s->rng);
    cb_crossing_result res = cb_crossing_result_of(roll);
    double margin = h->room ? SNAP_FT : STAIRS_FT;
    c[nc] = (cb_pc_crossing){roll, res, h->room, h->room ? 0 : h->door + 1,
                             point_at(v, *n, fmax(0, h->s0 - margin)), point_at(v, *n, fmin(total, h->s1 + margin)),
                             s->o->ladders && roll % 2 == 1 && (res == CB_CROSS_UNDER || res == CB_CROSS_OVER)};
    char what[96];
    room_or_corridor(s, h, what, sizeof what);
    const cb_pc_door *me = &s->p->doors[di];
    const char *mark = c[nc].ladder ? "ladders" : "stairs";
    if (res == CB_CROSS_UNDER || res == CB_CROSS_OVER) {
      if (!s->big)
        cb_dungeon_log(s->d, "Room %d, %s door: the corridor must cross %s: rolled %d -> it runs %s it, %s "
                             "before and after.",
                       me->room, FACING_WORD[me->facing], what, roll % 10, res == CB_CROSS_UNDER ? "under" : "over",
                       mark);
    } else if (res == CB_CROSS_SECRET) {
      *secret_to = h->room ? h->room : (s->p->doors[h->door].to ? s->p->doors[h->door].to : s->p->doors[h->door].room);
      cut = h->s0;
      c[nc].enter = c[nc].leave = point_at(v, *n, cut);
      if (!s->big)
        cb_dungeon_log(s->d, "Room %d, %s door: the corridor must cross %s: rolled 5 -> a secret door into it; "
                             "the corridor ends there%s.",
                       me->room, FACING_WORD[me->facing], what,
                       h->room ? "" : " and joins that corridor's way");
    } else {
      *dead = 1;
      cut = fmax(fmin(STUB_FT / 2, h->s0), h->s0 - STUB_FT / 2);
      c[nc].enter = c[nc].leave = point_at(v, *n, cut);
      if (!s->big)
        cb_dungeon_log(s->d, "Room %d, %s door: the corridor must cross %s: rolled 0 -> a dead end, no connection.",
                       me->room, FACING_WORD[me->facing], what);
    }
    nc++;
  }
  if (cut >= 0) {
    /* keep the corridor up to `cut` */
    pt out[8];
    int m = 0;
    double sa = 0;
    out[m++] = v[0];
    for (int i = 1; i < *n; i++) {
      double l = seg_len(v[i - 1], v[i]);
      if (sa + l < cut - EPS) out[m++] = v[i];
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
  if (!dr->points) return oom(err);
  memcpy(dr->points, v, (size_t)n * sizeof *v);
  dr->npoints = n;
  struct box *b = &s->box[di];
  for (int k = 0; k < n + dr->nside; k++) {
    pt q = k < n ? v[k] : dr->side[k - n];
    b->x0 = lo2(b->x0, q.x), b->y0 = lo2(b->y0, q.y), b->x1 = hi2(b->x1, q.x), b->y1 = hi2(b->y1, q.y);
  }
  dr->to = to;
  dr->order = ++s->drawn;
  for (int i = 0; i < dr->ncrossings; i++) {
    if (dr->crossings[i].result == CB_CROSS_UNDER) flags |= CB_FLAG_UNDER;
    if (dr->crossings[i].result == CB_CROSS_OVER) flags |= CB_FLAG_OVER;
  }
  double len = poly_len(v, n);
  cb_passage *ps = cb_dungeon_add_passage(s->d, dr->room, to, len > 0 ? CB_PASSAGE_CORRIDOR : CB_PASSAGE_DOOR);
  if (!ps) return oom(err);
  ps->flags = flags;
  ps->length_ft = len;
  dr->passage = ps->id;
  return CB_OK;
}

/* A corridor to a drawn room (or back to its own): shaped to fit, then its crossings rolled. */
static cb_status corridor_to_room(pc *s, int di, int target, cb_error *err) {
  hits hs = {0};
  route r;
  cb_status st = shape_corridor(s, &s->p->doors[di], target, &r, &hs, err);
  if (st == CB_OK && find_hits(s, r.v, r.n, di, &hs)) st = oom(err);
  cb_pc_door *dr = &s->p->doors[di];
  if (st == CB_OK && !s->big) {
    char turns[32];
    if (r.n <= 2) snprintf(turns, sizeof turns, "straight");
    else snprintf(turns, sizeof turns, "with %d turn%s", r.n - 2, r.n == 3 ? "" : "s");
    cb_dungeon_log(s->d, "Room %d, %s door: %.0f ft of corridor, %s, to room %d%s.", dr->room,
                   FACING_WORD[dr->facing], poly_len(r.v, r.n), turns, target,
                   target == dr->room ? " (a loop back into the same room)" : "");
  }
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
  if (L == 10) snprintf(buf, cap, "length rolled 0: no corridor, the door opens straight into it");
  else if (L <= 6) snprintf(buf, cap, "length rolled %d: %d ft of corridor %s", L, L * 10, FACING_WORD[dr->facing]);
  else
    snprintf(buf, cap, "length rolled %d: 60 ft of corridor %s, then the check rolled %d: %s, and 20 ft more", L,
             FACING_WORD[dr->facing], dr->check_roll, CHECK_TABLE[dr->check_roll - 1].words);
  return buf;
}

/* What a corridor's crossings cost: a room far more than a corridor. */
static int hit_cost(pc *s, const pt *v, int n, int di, hits *hs) {
  if (find_hits(s, v, n, di, hs)) return -1;
  int k = 0;
  for (int i = 0; i < hs->n; i++) k += hs->h[i].room ? 100 : 1;
  return k;
}

/* Stands the rolled room at the end of corridor v, entered from wall
 * `entry`: slid along that wall, then pushed 10 ft further at a time, until
 * it is clear of every room and corridor. Returns the pushes. */
static int stand_room(pc *s, int di, pt *v, int *n, cb_facing dir, const rolled_room *rr, cb_facing entry,
                      cb_pc_room *at, double *off) {
  double pref = entry_offset(rr, entry);
  double wall = entry == CB_FACING_N || entry == CB_FACING_S ? rr->w : rr->h;
  *at = (cb_pc_room){0, 0, 0, rr->w, rr->h};
  for (int pushed = 0;; pushed++) {
    pt e = v[*n - 1];
    int touching = *n == 2 && fabs(v[1].x - v[0].x) < EPS && fabs(v[1].y - v[0].y) < EPS;
    for (double step = 0; step <= wall; step += 2 * SNAP_FT)
      for (int sign = 1; sign >= -1; sign -= 2) {
        *off = pref + sign * step;
        if (*off < EDGE_FT - EPS || *off > wall - EDGE_FT + EPS || (step == 0 && sign < 0)) continue;
        at->x = dir == CB_FACING_E ? e.x : dir == CB_FACING_W ? e.x - rr->w : e.x - *off;
        at->y = dir == CB_FACING_S ? e.y : dir == CB_FACING_N ? e.y - rr->h : e.y - *off;
        if (room_fits(s, at, touching ? s->p->doors[di].room : 0, di)) return pushed;
      }
    if (touching) {
      v[1] = (pt){v[0].x + DX[dir] * SQUARE_FT, v[0].y + DY[dir] * SQUARE_FT}; /* a corridor appears */
    } else {
      v[*n - 1].x += DX[dir] * SQUARE_FT;
      v[*n - 1].y += DY[dir] * SQUARE_FT;
    }
  }
}

/* A new room at the end of the corridor, the corridor shaped to fit: if the
 * rolled corridor must cross rooms or corridors, it steps aside first, as a
 * game master draws it (out 10 ft, sideways 10 ft at a time, right then
 * left, up to 60 ft, and on its way), where that crosses less (a room counts
 * as 100 corridors); the room stands at its end, slid or pushed clear. */
static cb_status corridor_to_new_room(pc *s, int di, const char *why, cb_error *err) {
  pt v0[8], best[10];
  cb_facing dir;
  int n0 = roll_length(s, &s->p->doors[di], v0, &dir), nbest = 0, best_cost = -1, best_push = 0, best_step = 0;
  rolled_room rr;
  roll_room(s, &rr, true);
  cb_facing entry = (cb_facing)((dir + 2) % 4), facing = s->p->doors[di].facing;
  cb_pc_room best_at = {0};
  double best_off = 0;
  hits hs = {0};
  for (int k = 0; k <= 12 && best_cost != 0; k++) {
    int step = (k + 1) / 2, sign = k % 2 ? 1 : -1;
    double lx = 0, ly = 0;
    pt w[10];
    int m = 0;
    if (step == 0) {
      memcpy(w, v0, (size_t)n0 * sizeof *w);
      m = n0;
    } else {
      if (n0 < 2 || seg_len(v0[0], v0[1]) < STUB_FT - EPS) break;
      cb_facing g = (cb_facing)((facing + (sign > 0 ? 1 : 3)) % 4);
      lx = DX[g] * step * SQUARE_FT, ly = DY[g] * step * SQUARE_FT;
      w[m++] = v0[0];
      w[m++] = (pt){v0[0].x + DX[facing] * STUB_FT, v0[0].y + DY[facing] * STUB_FT};
      w[m++] = (pt){w[1].x + lx, w[1].y + ly};
      for (int i = 1; i < n0; i++) w[m++] = (pt){v0[i].x + lx, v0[i].y + ly};
    }
    m = simplify(w, m);
    if (m == 1) w[m++] = w[0];
    int cost = hit_cost(s, w, m, di, &hs);
    if (cost < 0) {
      free(hs.h);
      return oom(err);
    }
    if (best_cost < 0 || cost < best_cost) {
      best_cost = cost, best_step = step * (int)SQUARE_FT;
      memcpy(best, w, (size_t)m * sizeof *w);
      nbest = m;
      if (step) {
        cb_pc_door *dr = &s->p->doors[di];
        for (int i = 0; i < dr->nside; i++) dr->side[i] = (pt){v0[1].x + lx + (i ? dr->side[1].x - dr->side[0].x : 0), v0[1].y + ly + (i ? dr->side[1].y - dr->side[0].y : 0)};
      }
    }
  }
  /* a straight corridor with no length keeps two equal points: the room touches the door */
  if (nbest == 2 && seg_len(best[0], best[1]) < EPS) nbest = 2;
  cb_pc_door *me = &s->p->doors[di];
  if (me->nside == 2) {
    /* a side passage stops short of whatever it would run into */
    if (find_hits(s, me->side, 2, di, &hs)) {
      free(hs.h);
      return oom(err);
    }
    if (hs.n > 0) {
      double keep = floor((hs.h[0].s0 - CLEAR_FT) / SNAP_FT) * SNAP_FT;
      cb_facing g = me->side[1].x > me->side[0].x ? CB_FACING_E : me->side[1].x < me->side[0].x ? CB_FACING_W
                  : me->side[1].y > me->side[0].y ? CB_FACING_S : CB_FACING_N;
      if (keep < CLEAR_FT) me->nside = 0;
      else me->side[1] = (pt){me->side[0].x + DX[g] * keep, me->side[0].y + DY[g] * keep};
    }
  }
  best_push = stand_room(s, di, best, &nbest, dir, &rr, entry, &best_at, &best_off);
  nbest = simplify(best, nbest);
  if (nbest == 1) best[nbest++] = best[0];
  pt *v = best;
  int n = nbest;
  cb_pc_door *dr = &s->p->doors[di];
  if (!s->big) {
    char lw[160];
    length_words(dr, lw, sizeof lw);
    cb_dungeon_log(s->d, "Room %d, %s door: %s; %s.", dr->room, FACING_WORD[dr->facing], why, lw);
    if (best_step)
      cb_dungeon_log(s->d, "Room %d, %s door: the corridor steps %d ft aside to cross less.", dr->room,
                     FACING_WORD[dr->facing], best_step);
    if (best_push)
      cb_dungeon_log(s->d, "Room %d, %s door: a room would stand on the map there; the new room is pushed %d ft "
                           "further to stand clear (%.0f ft of corridor in all).",
                     dr->room, FACING_WORD[dr->facing], best_push * 10, poly_len(v, n));
  }
  int secret_to = 0, dead = 0;
  cb_status st = find_hits(s, v, n, di, &hs) ? oom(err) : CB_OK;
  if (st == CB_OK) st = roll_crossings(s, di, v, &n, &hs, &secret_to, &dead, err);
  free(hs.h);
  if (st != CB_OK) return st;
  dr = &s->p->doors[di];
  if (dead || secret_to) {
    if (!s->big)
      cb_dungeon_log(s->d, "Room %d, %s door: the corridor ends before the new room; it is not drawn.", dr->room,
                     FACING_WORD[dr->facing]);
    return finish_corridor(s, di, v, n, dead ? dr->room : secret_to, dead ? CB_FLAG_DEAD_END : CB_FLAG_SECRET, err);
  }
  st = place_room(s, &rr, best_at.x, best_at.y, (int)entry, best_off, err);
  if (st != CB_OK) return st;
  dr = &s->p->doors[di];
  dr->new_room = true;
  return finish_corridor(s, di, v, n, s->p->nrooms, 0, err);
}

/* A corridor with nowhere to go: d10 long as for a new room (0: 10 ft, 7+: 60 ft), ending blind. */
static cb_status dead_end(pc *s, int di, cb_error *err) {
  cb_pc_door *dr = &s->p->doors[di];
  dr->length_roll = cb_d10(&s->rng);
  int L = dr->length_roll == 10 ? 1 : dr->length_roll > 6 ? 6 : dr->length_roll;
  pt v[2] = {dr->at, {dr->at.x + DX[dr->facing] * L * SQUARE_FT, dr->at.y + DY[dr->facing] * L * SQUARE_FT}};
  int n = 2;
  hits hs = {0};
  int secret_to = 0, dead = 0;
  cb_status st = find_hits(s, v, n, di, &hs) ? oom(err) : CB_OK;
  if (st == CB_OK) st = roll_crossings(s, di, v, &n, &hs, &secret_to, &dead, err);
  free(hs.h);
  if (st != CB_OK) return st;
  if (!s->big)
    cb_dungeon_log(s->d, "Room %d, %s door: still no room lies %s: a dead end, length rolled %d: %.0f ft.",
                   dr->room, FACING_WORD[dr->facing], FACING_WORD[dr->facing], dr->length_roll % 10, poly_len(v, n));
  return finish_corridor(s, di, v, n, secret_to ? secret_to : dr->room, secret_to ? CB_FLAG_SECRET : CB_FLAG_DEAD_END,
                         err);
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
    if (push_roll(s, dr, cb_d10(&s->rng), 0)) return oom(err);
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
            cb_dungeon_log(s->d, "%s: rolled 0 -> a distant room %s, but nothing is drawn %s of %s yet: postponed.",
                           head, way, way, cur == dr->room ? "the door" : "that room");
          return CB_OK;
        }
        return dead_end(s, di, err);
      }
      int r2 = cb_d10(&s->rng);
      dr->via[dr->nrolls - 1] = next;
      if (push_roll(s, dr, r2, 0)) return oom(err);
      if (!s->big)
        cb_dungeon_log(s->d, "%s: %s -> the first room %s is room %d, the new current room; rolled again: %d.", head,
                       kind == 1 ? "the postponed distant room" : "rolled 0", way, next, r2 % 10);
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
          cb_dungeon_log(s->d, "%s: room %d is not in 1..%d; re-read as the nearest room %s, but none is drawn %s "
                               "yet: postponed.",
                         head, dest, s->n, way, way);
        return CB_OK;
      }
      return dead_end(s, di, err);
    }
    if (!s->big)
      cb_dungeon_log(s->d, "%s: room %d is not in 1..%d; re-read as the nearest drawn room %s: room %d.", head, dest,
                     s->n, way, near);
    return corridor_to_room(s, di, near, err);
  }
  if (dest <= s->p->nrooms) return corridor_to_room(s, di, dest, err);
  char why[128];
  if (dest > s->n)
    snprintf(why, sizeof why, "room %d is beyond the %d rooms, but only %d are drawn: a new room, drawn as room %d",
             dest, s->n, s->p->nrooms, s->p->nrooms + 1);
  else snprintf(why, sizeof why, "room %d is not drawn yet: a new room, drawn as room %d", dest, s->p->nrooms + 1);
  return corridor_to_new_room(s, di, why, err);
}

/* Every door is resolved before N rooms exist: the newest room gets one more door. */
static cb_status extra_door(pc *s, cb_error *err) {
  int room = s->p->nrooms;
  cb_facing f = (cb_facing)(cb_d4(&s->rng) - 1);
  const cb_pc_room *r = rect_of(s, room);
  double off = free_spot(s, room, f, wall_len(r, f) / 2);
  cb_pc_door *dr = new_door(s, room, f, wall_point(rect_of(s, room), f, off), err);
  if (!dr) return err->status;
  dr->extra = true;
  if (!s->big)
    cb_dungeon_log(s->d, "Every door is resolved but only %d of %d rooms are drawn: room %d, the newest, gets one more "
                         "door, facing %s (rolled %d).",
                   s->p->nrooms, s->n, room, FACING_WORD[f], (int)f + 1);
  return CB_OK;
}

/* Draw the map: room 1, then every door in the order made; postponed
 * corridors at the end. */
static cb_status draw_map(pc *s, cb_error *err) {
  rolled_room rr;
  roll_room(s, &rr, false);
  cb_status st = place_room(s, &rr, 0, 0, -1, 0, err);
  if (st != CB_OK) return st;
  int next = 0, extras = 0, announced = 0;
  for (;;) {
    while (next < s->p->ndoors) {
      if ((st = resolve_door(s, next, false, err)) != CB_OK) return st;
      next++;
    }
    if (s->p->nrooms < s->n && !s->o->faithful) {
      if (++extras > MAX_EXTRA_DOORS) return cb_error_set(err, CB_EINTERNAL, "the map stopped growing");
      if ((st = extra_door(s, err)) != CB_OK) return st;
      continue;
    }
    if (s->p->nrooms < s->n && !announced)
      cb_dungeon_log(s->d, "Every door is resolved with %d of %d rooms drawn; --faithful adds no doors, so the map "
                           "stays at %d rooms.",
                     s->p->nrooms, s->n, s->p->nrooms);
    int npost = 0;
    for (int i = 0; i < s->p->ndoors; i++) npost += s->p->doors[i].postponed && s->p->doors[i].npoints == 0;
    if (npost == 0) break;
    cb_dungeon_log(s->d, "%s now the %d postponed corridor%s.", announced ? "Again," : "All rooms are drawn;", npost,
                   npost == 1 ? "" : "s");
    announced = 1;
    /* a postponed corridor may still draw a new room (with --faithful), whose doors come next */
    for (int i = 0; i < s->p->ndoors; i++)
      if (s->p->doors[i].postponed && s->p->doors[i].npoints == 0 && (st = resolve_door(s, i, true, err)) != CB_OK)
        return st;
  }
  return s->d->oom ? oom(err) : CB_OK;
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
  cb_dungeon_log(s->d, "The map: %d rooms, %d doors and corridors (%d loops, %d dead ends, %d secret doors), %d "
                       "crossings under and %d over.",
                 s->p->nrooms, s->p->ndoors, loops, dead, secret, under, over);
  return CB_OK;
}

static cb_status validate(const cb_gen_options *o, cb_error *err) {
  if (o->rooms != 0 && (o->rooms < 1 || o->rooms > MAX_ROOMS))
    return cb_error_set(err, CB_EINPUT, "--rooms %d: preconnect draws 1 to %d rooms", o->rooms, MAX_ROOMS);
  if (o->levels > 1) return cb_error_set(err, CB_EINPUT, "--levels %d: preconnect draws one level", o->levels);
  return CB_OK;
}

static cb_status generate(const cb_gen_options *o, cb_dungeon **out, cb_error *err) {
  *out = NULL;
  cb_status st = validate(o, err);
  if (st != CB_OK) return st;
  pc s = {0};
  s.o = o;
  s.n = o->rooms ? o->rooms : DEFAULT_ROOMS;
  s.big = s.n > 200;
  cb_rng_seed(&s.rng, o->seed, 0);
  s.d = cb_dungeon_new("preconnect", o->seed);
  if (!s.d) return oom(err);
  s.p = cb_arena_alloc(s.d->arena, 1, sizeof *s.p);
  if (!s.p || !cb_dungeon_add_level(s.d, 1, "Level 1")) goto fail_oom;
  s.d->procedure.preconnect = s.p;
  char buf[32];
  snprintf(buf, sizeof buf, "%d", s.n);
  cb_dungeon_set_option(s.d, "rooms", buf, true);
  if (o->ladders) cb_dungeon_set_flag(s.d, "ladders");
  if (o->faithful) cb_dungeon_set_flag(s.d, "faithful");
  if (cb_dungeon_set_title(s.d, o->title ? o->title : cb_gen_title(s.d, "Halls"))) goto fail_oom;
  cb_dungeon_log(s.d, "Pre-connecting %d rooms: each room is d4+1 by d4+1 squares of 10 ft with d4 doors; each door "
                      "rolls d10 for where it leads before its corridor is drawn.",
                 s.n);
  if ((st = draw_map(&s, err)) != CB_OK) goto fail;
  summarise(&s);
  if (s.d->oom) goto fail_oom;
  *out = s.d;
  s.d = NULL;
  goto done;
fail_oom:
  st = oom(err);
fail:
  cb_dungeon_free(s.d);
done:
  free(s.pending);
  free(s.box);
  return st;
}

const cb_generator cb_gen_preconnect = {
    .name = "preconnect",
    .summary = "pre-connecting (SubMethod I): each door rolls where it leads, then the corridor is drawn to fit",
    .default_rooms = DEFAULT_ROOMS,
    .max_rooms = MAX_ROOMS,
    .validate = validate,
    .generate = generate,
};
