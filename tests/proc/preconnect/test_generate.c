/* preconnect (seed 002): the rules of generators.md checked from the output
 * over many seeds: destinations follow the d10 table from the recorded
 * rolls, every crossing the drawn map shows has a recorded d10 with the
 * matching stairs or ladders, rooms run 1..N and never overlap; plus
 * options, determinism and the JSON round trip. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> // after the headers it needs

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/json.h"
#include "proc/preconnect/proc.h"
#include "registry/registry.h"
#include "testlib.h"

static const double EPS = 1e-6;
static unsigned long long ctx_seed; /* the seed being checked, for messages */

static cb_dungeon *make(uint64_t seed, int rooms, bool ladders, bool faithful) {
  cb_preconnect_options own = {.ladders = ladders};
  cb_gen_options o = {.seed = seed, .rooms = rooms, .faithful = faithful, .own = &own};
  cb_dungeon *d = NULL;
  cb_error err = {0};
  ctx_seed = (unsigned long long)seed;
  cb_status st = cb_generator_run(&cb_gen_preconnect, &o, &d, &err);
  if (st != CB_OK) fail_msg("seed %llu: %s", (unsigned long long)seed, err.msg);
  return d;
}

/* Does segment a-b run through the open interior of r? */
static int seg_in_room(cb_pc_point a, cb_pc_point b, const cb_pc_room *r) {
  double x0 = fmin(a.x, b.x), x1 = fmax(a.x, b.x), y0 = fmin(a.y, b.y), y1 = fmax(a.y, b.y);
  return x1 > r->x + EPS && x0 < r->x + r->w - EPS && y1 > r->y + EPS && y0 < r->y + r->h - EPS &&
         (x1 - x0 > EPS || (x0 > r->x + EPS && x0 < r->x + r->w - EPS)) &&
         (y1 - y0 > EPS || (y0 > r->y + EPS && y0 < r->y + r->h - EPS));
}

/* Do legs a-b and c-e cross at a point strictly inside c-e and not at the ends of the corridor a-b belongs
 * to? */
static int legs_cross(cb_pc_point a, cb_pc_point b, cb_pc_point c, cb_pc_point e, cb_pc_point first,
                      cb_pc_point last) {
  int ah = fabs(a.y - b.y) < EPS, ch = fabs(c.y - e.y) < EPS;
  if (ah == ch) return 0;
  cb_pc_point h0 = ah ? a : c, h1 = ah ? b : e, v0 = ah ? c : a, v1 = ah ? e : b;
  double x = v0.x, y = h0.y;
  int in_h = x > fmin(h0.x, h1.x) - EPS && x < fmax(h0.x, h1.x) + EPS;
  int in_v = y > fmin(v0.y, v1.y) - EPS && y < fmax(v0.y, v1.y) + EPS;
  int strict_other = ah ? (y > fmin(c.y, e.y) + EPS && y < fmax(c.y, e.y) - EPS)
                        : (x > fmin(c.x, e.x) + EPS && x < fmax(c.x, e.x) - EPS);
  if (!in_h || !in_v || !strict_other) return 0;
  if ((fabs(x - first.x) < EPS && fabs(y - first.y) < EPS) ||
      (fabs(x - last.x) < EPS && fabs(y - last.y) < EPS))
    return 0;
  return 1;
}

static int same_point(cb_pc_point a, cb_pc_point b) { return fabs(a.x - b.x) < EPS && fabs(a.y - b.y) < EPS; }

/* Two corridors through one door run together over its 10-ft stub and meet
 * there: a join, not a crossing. The doors they share (up to 4). */
static int shared_doors(const cb_pc_door *a, const cb_pc_door *b, cb_pc_point *q) {
  cb_pc_point ends[2][2] = {{a->points[0], a->points[a->npoints - 1]}, {b->at, b->points[b->npoints - 1]}};
  int n = 0;
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++)
      if (same_point(ends[0][i], ends[1][j])) q[n++] = ends[0][i];
  return n;
}

static int legs_cross_apart(cb_pc_point a, cb_pc_point b, cb_pc_point c, cb_pc_point e, cb_pc_point first,
                            cb_pc_point last, int nshared, const cb_pc_point *q) {
  if (!legs_cross(a, b, c, e, first, last)) return 0;
  int ah = fabs(a.y - b.y) < EPS;
  double x = ah ? c.x : a.x, y = ah ? a.y : c.y;
  for (int i = 0; i < nshared; i++)
    if (fabs(x - q[i].x) + fabs(y - q[i].y) < 10 + EPS) return 0;
  return 1;
}

static void check_destination(const cb_dungeon *d, const cb_preconnect_proc *p, const cb_pc_door *dr, int n) {
  if (dr->extra) {
    /* the extra door leads straight on to a new room: no destination roll */
    assert_int_equal(dr->nrolls, 0);
    assert_int_equal(dr->destination, 0);
    assert_true(dr->length_roll >= 1);
    const cb_passage *ps = &d->passages[dr->passage - 1];
    assert_true(dr->new_room || (ps->flags & (CB_FLAG_SECRET | CB_FLAG_DEAD_END)));
    return;
  }
  assert_true(dr->nrolls >= 1);
  for (int i = 0; i < dr->nrolls; i++)
    assert_in_range(dr->rolls[i], 1, 10);
  int want = 0;
  if (dr->room <= 5) {
    /* the first five rooms: the raw number */
    assert_int_equal(dr->nrolls, 1);
    want = dr->rolls[0];
  } else {
    int cur = dr->room;
    for (int i = 0; i < dr->nrolls; i++) {
      if (dr->rolls[i] == 10) {
        /* a distant room: the via, or nothing that way (a dead end at the end) */
        if (i + 1 < dr->nrolls) {
          assert_true(dr->via[i] >= 1 && dr->via[i] <= d->nrooms);
          cur = dr->via[i];
        }
        continue;
      }
      assert_int_equal(i, dr->nrolls - 1);
      want = cur - 5 + dr->rolls[i];
    }
  }
  assert_int_equal(dr->destination, want);
  const cb_passage *ps = &d->passages[dr->passage - 1];
  assert_int_equal(ps->from, dr->room);
  assert_int_equal(ps->to, dr->to);
  int cut = (ps->flags & (CB_FLAG_SECRET | CB_FLAG_DEAD_END)) != 0;
  if (dr->rolls[dr->nrolls - 1] == 10 && dr->room > 5) {
    /* nothing lay that way even at the end */
    assert_true(dr->postponed);
    assert_true(ps->flags & (CB_FLAG_DEAD_END | CB_FLAG_SECRET));
    return;
  }
  if (dr->reread) assert_true(want < 1 || want > n);
  if (dr->new_room) {
    assert_false(cut);
    assert_true(want > 0);
    return;
  }
  if (!cut && !dr->reread && !dr->postponed) assert_int_equal(dr->to, want);
  if (!cut && dr->reread) assert_true(dr->to >= 1 && dr->to <= p->nrooms);
}

/* How far along corridor v (n points) point q lies; -1 when it is not on it. */
static double along(const cb_pc_point *v, int n, cb_pc_point q) {
  double s = 0;
  for (int k = 1; k < n; k++) {
    cb_pc_point a = v[k - 1], b = v[k];
    if (q.x > fmin(a.x, b.x) - EPS && q.x < fmax(a.x, b.x) + EPS && q.y > fmin(a.y, b.y) - EPS &&
        q.y < fmax(a.y, b.y) + EPS)
      return s + fabs(q.x - a.x) + fabs(q.y - a.y);
    s += fabs(b.x - a.x) + fabs(b.y - a.y);
  }
  return -1;
}

/* Does corridor w run across corridor v between `from` and `to` feet along v? */
static bool crosses_between(const cb_pc_point *v, int n, const cb_pc_point *w, int m, double from,
                            double to) {
  for (int k = 1; k < n; k++)
    for (int j = 1; j < m; j++) {
      cb_pc_point a = v[k - 1], b = v[k], c = w[j - 1], e = w[j];
      bool level = fabs(a.y - b.y) < EPS, other_level = fabs(c.y - e.y) < EPS;
      cb_pc_point x = level ? (cb_pc_point){c.x, a.y} : (cb_pc_point){a.x, c.y};
      if (level == other_level) /* along it: where they run on one line, if they do */
        x = level ? (cb_pc_point){fmax(fmin(a.x, b.x), fmin(c.x, e.x)), c.y}
                  : (cb_pc_point){c.x, fmax(fmin(a.y, b.y), fmin(c.y, e.y))};
      bool on_v = x.x > fmin(a.x, b.x) - EPS && x.x < fmax(a.x, b.x) + EPS && x.y > fmin(a.y, b.y) - EPS &&
                  x.y < fmax(a.y, b.y) + EPS;
      bool on_w = x.x > fmin(c.x, e.x) - EPS && x.x < fmax(c.x, e.x) + EPS && x.y > fmin(c.y, e.y) - EPS &&
                  x.y < fmax(c.y, e.y) + EPS;
      double t = on_v && on_w ? along(v, n, x) : -1;
      if (t > from - EPS && t < to + EPS) return true;
    }
  return false;
}

/* Stairs stand before and after the corridor they pass under or over:
 * both on this corridor, the crossed one running across between them. */
static void check_stairs(const cb_preconnect_proc *p, const cb_pc_door *dr, const cb_pc_crossing *c) {
  double from = along(dr->points, dr->npoints, c->enter), to = along(dr->points, dr->npoints, c->leave);
  if (!(from >= 0 && to > from))
    fail_msg("door of room %d (%s): stairs at (%.1f, %.1f) %.1f and (%.1f, %.1f) %.1f, %d points from (%.1f, "
             "%.1f) to (%.1f, %.1f)",
             dr->room, cb_facing_name(dr->facing), c->enter.x, c->enter.y, from, c->leave.x, c->leave.y, to,
             dr->npoints, dr->points[0].x, dr->points[0].y, dr->points[dr->npoints - 1].x,
             dr->points[dr->npoints - 1].y);
  if (c->room) return;
  const cb_pc_door *o = &p->doors[c->door - 1];
  if (!crosses_between(dr->points, dr->npoints, o->points, o->npoints, from, to) &&
      !crosses_between(dr->points, dr->npoints, o->side, o->nside, from, to))
    fail_msg("seed %llu: room %d's %s corridor: no corridor of door %d between its stairs at (%.1f, %.1f) "
             "and (%.1f, "
             "%.1f)",
             ctx_seed, dr->room, cb_facing_name(dr->facing), c->door, c->enter.x, c->enter.y, c->leave.x,
             c->leave.y);
}

static void check_crossings(const cb_preconnect_proc *p, const cb_passage *ps, const cb_pc_door *dr,
                            bool ladders) {
  unsigned flags = 0;
  for (int k = 0; k < dr->ncrossings; k++) {
    const cb_pc_crossing *c = &dr->crossings[k];
    assert_in_range(c->roll, 1, 10);
    assert_int_equal(c->result, cb_crossing_result_of(c->roll));
    int updown = c->result == CB_CROSS_UNDER || c->result == CB_CROSS_OVER;
    assert_int_equal(c->ladder, ladders && updown && c->roll % 2 == 1);
    if (!updown) assert_int_equal(k, dr->ncrossings - 1); /* the corridor ends there */
    if (updown) {
      /* stairs (or ladders) just before and after: two marks, apart, both on the corridor */
      assert_true(fabs(c->enter.x - c->leave.x) + fabs(c->enter.y - c->leave.y) > EPS);
      check_stairs(p, dr, c);
      flags |= c->result == CB_CROSS_UNDER ? CB_FLAG_UNDER : CB_FLAG_OVER;
    }
    assert_true(c->room ? c->room >= 1 && c->room <= p->nrooms : c->door >= 1 && c->door <= p->ndoors);
  }
  assert_int_equal(ps->flags & (CB_FLAG_UNDER | CB_FLAG_OVER), flags);
}

/* Every room interior a corridor runs through and every earlier corridor it
 * crosses has a crossing record naming it. */
typedef struct box {
  double x0, y0, x1, y1;
} box;

static box box_of(const cb_pc_door *dr) {
  box b = {INFINITY, INFINITY, -INFINITY, -INFINITY};
  for (int k = 0; k < dr->npoints + dr->nside; k++) {
    cb_pc_point q = k < dr->npoints ? dr->points[k] : dr->side[k - dr->npoints];
    b.x0 = fmin(b.x0, q.x), b.y0 = fmin(b.y0, q.y), b.x1 = fmax(b.x1, q.x), b.y1 = fmax(b.y1, q.y);
  }
  return b;
}

static int boxes_meet(const box *a, const box *b) {
  return a->x0 <= b->x1 + EPS && b->x0 <= a->x1 + EPS && a->y0 <= b->y1 + EPS && b->y0 <= a->y1 + EPS;
}

static void check_geometry(const cb_preconnect_proc *p, const cb_pc_door *dr, int di, const box *boxes) {
  if (dr->npoints < 2) return;
  cb_pc_point first = dr->points[0], last = dr->points[dr->npoints - 1];
  for (int r = 0; r < p->nrooms; r++) {
    int through = 0;
    for (int i = 1; i < dr->npoints && !through; i++)
      through = seg_in_room(dr->points[i - 1], dr->points[i], &p->rooms[r]);
    if (!through) continue;
    int recorded = 0;
    for (int k = 0; k < dr->ncrossings; k++)
      recorded |= dr->crossings[k].room == p->rooms[r].room;
    if (!recorded)
      fail_msg("seed %llu: door %d runs through room %d without a crossing roll", ctx_seed, di + 1,
               p->rooms[r].room);
  }
  /* a side passage stops short of rooms */
  for (int r = 0; r < p->nrooms && dr->nside == 2; r++)
    if (seg_in_room(dr->side[0], dr->side[1], &p->rooms[r]))
      fail_msg("seed %llu: door %d's side passage runs into room %d", ctx_seed, di + 1, p->rooms[r].room);
  for (int j = 0; j < p->ndoors; j++) {
    const cb_pc_door *o = &p->doors[j];
    if (j == di || o->order >= dr->order || o->npoints < 2 || !boxes_meet(&boxes[di], &boxes[j])) continue;
    int crosses = 0;
    cb_pc_point q[4];
    int shared = shared_doors(dr, o, q);
    for (int part = 0; part < 2 && !crosses; part++) {
      const cb_pc_point *w = part ? o->side : o->points;
      int m = part ? o->nside : o->npoints;
      for (int a = 1; a < dr->npoints && !crosses; a++)
        for (int b = 1; b < m && !crosses; b++)
          crosses = legs_cross_apart(dr->points[a - 1], dr->points[a], w[b - 1], w[b], first, last,
                                     part ? 0 : shared, q);
    }
    if (!crosses) continue;
    int recorded = 0;
    for (int k = 0; k < dr->ncrossings; k++)
      recorded |= dr->crossings[k].door == j + 1;
    if (!recorded)
      fail_msg("seed %llu: door %d crosses the corridor of door %d without a crossing roll", ctx_seed, di + 1,
               j + 1);
  }
}

static void check_dungeon(const cb_dungeon *d, int n, bool ladders, bool faithful, bool geometry) {
  const cb_preconnect_proc *p = cb_preconnect_of(d);
  assert_non_null(p);
  /* rooms 1..N in drawing order, no gaps */
  if (!faithful) assert_int_equal(d->nrooms, n);
  assert_true(d->nrooms >= 1 && d->nrooms <= n);
  assert_int_equal(p->nrooms, d->nrooms);
  for (int i = 0; i < d->nrooms; i++) {
    assert_int_equal(d->rooms[i].id, i + 1);
    assert_int_equal(p->rooms[i].room, i + 1);
    assert_true(fabs(d->rooms[i].x - (p->rooms[i].x + p->rooms[i].w / 2)) < EPS);
    assert_true(fabs(d->rooms[i].y - (p->rooms[i].y + p->rooms[i].h / 2)) < EPS);
  }
  /* no two rooms overlap */
  for (int i = 0; i < p->nrooms; i++)
    for (int j = i + 1; j < p->nrooms; j++) {
      const cb_pc_room *a = &p->rooms[i], *b = &p->rooms[j];
      int overlap = a->x < b->x + b->w - EPS && b->x < a->x + a->w - EPS && a->y < b->y + b->h - EPS &&
                    b->y < a->y + a->h - EPS;
      if (overlap) fail_msg("rooms %d and %d overlap", a->room, b->room);
    }
  /* every door resolved, one passage each, in drawing order */
  assert_int_equal(d->npassages, p->ndoors);
  box *boxes = malloc(((size_t)p->ndoors + 1) * sizeof *boxes);
  assert_non_null(boxes);
  for (int i = 0; i < p->ndoors; i++)
    boxes[i] = box_of(&p->doors[i]);
  int new_rooms = 0;
  for (int i = 0; i < p->ndoors; i++) {
    const cb_pc_door *dr = &p->doors[i];
    assert_in_range(dr->passage, 1, d->npassages);
    assert_int_equal(dr->order, dr->passage);
    assert_true(dr->npoints >= 2);
    for (int k = 1; k < dr->npoints; k++)
      assert_true(fabs(dr->points[k].x - dr->points[k - 1].x) < EPS ||
                  fabs(dr->points[k].y - dr->points[k - 1].y) < EPS);
    check_destination(d, p, dr, n);
    check_crossings(p, &d->passages[dr->passage - 1], dr, ladders);
    if (geometry) check_geometry(p, dr, i, boxes);
    new_rooms += dr->new_room;
    if (dr->length_roll) assert_in_range(dr->length_roll, 1, 10);
    if (dr->check_roll) assert_true(dr->length_roll >= 7 && dr->length_roll <= 9);
    if (dr->extra) assert_false(faithful);
  }
  free(boxes);
  assert_int_equal(new_rooms, d->nrooms - 1); /* every room but the first was reached by a corridor */
  assert_true(d->nlog > 0);
}

/* ---- issue 12: doors, lengths, crossings ---- */

static const char *const WAY[] = {"north", "east", "south", "west"};

static int on_boundary(cb_pc_point q, const cb_pc_room *r) {
  int in_x = q.x > r->x - EPS && q.x<r->x + r->w + EPS, in_y = q.y> r->y - EPS && q.y < r->y + r->h + EPS;
  return ((fabs(q.x - r->x) < EPS || fabs(q.x - r->x - r->w) < EPS) && in_y) ||
         ((fabs(q.y - r->y) < EPS || fabs(q.y - r->y - r->h) < EPS) && in_x);
}

/* The doors in room r's walls as the map shows them: its own doors and the
 * corridor ends that reach it, each spot counted once. */
static int openings(const cb_dungeon *d, const cb_preconnect_proc *p, int room) {
  const cb_pc_room *r = &p->rooms[room - 1];
  cb_pc_point spot[64];
  int n = 0;
  for (int i = 0; i < p->ndoors; i++) {
    const cb_pc_door *dr = &p->doors[i];
    for (int k = 0; k < 2; k++) {
      cb_pc_point q = k == 0 ? dr->at : dr->points[dr->npoints - 1];
      int blind =
          k == 1 && (d->passages[dr->passage - 1].flags & CB_FLAG_DEAD_END); /* a dead end is no door */
      if (k == 0 ? dr->room != room : blind || dr->to != room || dr->npoints < 2 || !on_boundary(q, r))
        continue;
      int seen = 0;
      for (int j = 0; j < n && !seen; j++)
        seen = fabs(spot[j].x - q.x) < EPS && fabs(spot[j].y - q.y) < EPS;
      if (!seen && n < 64) spot[n++] = q;
    }
  }
  return n;
}

/* The corridor a length die asks for: 0 none, 1-6 tens of feet, 7+ 60 ft, the check, 20 ft more. */
static double rolled_ft(int roll) { return roll == 10 ? 0 : roll <= 6 ? roll * 10.0 : 80.0; }

static double corridor_ft(const cb_pc_door *dr) {
  double l = 0;
  for (int i = 1; i < dr->npoints; i++)
    l += fabs(dr->points[i].x - dr->points[i - 1].x) + fabs(dr->points[i].y - dr->points[i - 1].y);
  return l;
}

/* Does the log give a reason for door dr's corridor to differ from its roll? */
static int reason_logged(const cb_dungeon *d, const cb_pc_door *dr, const char *why) {
  char head[64];
  snprintf(head, sizeof head, "Room %d, %s door", dr->room, WAY[dr->facing]);
  for (int i = 0; i < d->nlog; i++)
    if (strncmp(d->log[i], head, strlen(head)) == 0 && strstr(d->log[i], why)) return 1;
  return 0;
}

typedef struct pc_counts {
  int rooms, crowded, most, new_rooms, as_rolled, turned, slid, lengthened, routed, silent, crossings, extras,
      extra_rolled, through_rooms;
} pc_counts;

static void count_map(const cb_dungeon *d, pc_counts *c) {
  const cb_preconnect_proc *p = cb_preconnect_of(d);
  for (int r = 1; r <= p->nrooms; r++) {
    int k = openings(d, p, r);
    c->rooms++;
    c->crowded += k > 4;
    if (k > c->most) c->most = k;
  }
  for (int i = 0; i < p->ndoors; i++) {
    const cb_pc_door *dr = &p->doors[i];
    c->crossings += dr->ncrossings;
    for (int k = 0; k < dr->ncrossings; k++)
      c->through_rooms += dr->crossings[k].room && (dr->crossings[k].result == CB_CROSS_UNDER ||
                                                    dr->crossings[k].result == CB_CROSS_OVER);
    c->extras += dr->extra;
    c->extra_rolled += dr->extra && dr->nrolls > 0;
    if (!dr->new_room) continue;
    c->new_rooms++;
    /* the check's side passage (3 left, 4 right) is drawn, or the log says why not */
    bool side = dr->check_roll == 3 || dr->check_roll == 4;
    if (side && dr->nside != 2 && !reason_logged(d, dr, "so it is not drawn"))
      fail_msg("room %d's %s door: the check's side passage is neither drawn nor said lost", dr->room,
               WAY[dr->facing]);
    double want = rolled_ft(dr->length_roll), got = corridor_ft(dr);
    if (fabs(got - want) < EPS)
      c->as_rolled++;
    else if (reason_logged(d, dr, "drawn to it clear of every room"))
      c->routed++;
    else if (reason_logged(d, dr, "lengthened"))
      c->lengthened++;
    else if (reason_logged(d, dr, "turns aside") || reason_logged(d, dr, "for its last"))
      c->turned++; /* not the check roll's "the corridor turns left", which keeps the length */
    else
      c->silent++;
    c->slid += reason_logged(d, dr, "slides");
  }
}

/* Issue 12 over the maps counted: no room has more than four doors (the
 * d4); the extra door leads straight on to a new room without a destination
 * roll; every corridor to a new room has its rolled length, or the log says
 * why (it turns aside or at its end; lengthened, or the room moved and its
 * corridor routed clear of the rooms, only where nothing else fits: under
 * 15%; measured 9.9% over 10,000 maps of 12 rooms and 13.8% over 400 of
 * 1-40, where lengthening alone was 6.1% and 8.0% before corridors had to
 * keep off rooms); no
 * corridor runs under or over a room (booklet.md: corridors are routed
 * round rooms); maps of 12 rooms average under 8 crossings (`maps` of
 * them, 0: not asked). */
static void check_issue12(const pc_counts *c, int maps) {
  double avg = maps ? (double)c->crossings / maps : 0;
  print_message("%d corridors to new rooms: %d as rolled, %d turned, %d lengthened, %d routed, %d silent (%d "
                "slid); %.2f crossings a map, %d under or over a room\n",
                c->new_rooms, c->as_rolled, c->turned, c->lengthened, c->routed, c->silent, c->slid, avg,
                c->through_rooms);
  if (c->crowded || c->extra_rolled)
    fail_msg("%d of %d rooms have more than four doors (most %d); %d of %d extra doors rolled a destination",
             c->crowded, c->rooms, c->most, c->extra_rolled, c->extras);
  if (c->silent || (c->lengthened + c->routed) * 100 > c->new_rooms * 15 || avg >= 8 || c->through_rooms)
    fail_msg("of %d corridors to new rooms %d differ from the roll with no reason logged, %d are lengthened "
             "and %d routed; %.2f crossings a map, %d under or over a room",
             c->new_rooms, c->silent, c->lengthened, c->routed, avg, c->through_rooms);
}

/* 4,000 seeds in the suite (its time); CB_PROPERTY_SEEDS=10000 for issue 12's full count */
enum { PC_SEEDS = 4000 };

static void property_default(void **state) {
  (void)state;
  pc_counts c = {0};
  int seeds = cb_test_seeds(PC_SEEDS);
  for (int s = 0; s < seeds; s++) {
    cb_dungeon *d = make((uint64_t)s, 0, s % 2 == 1, false);
    check_dungeon(d, 12, s % 2 == 1, false, true);
    count_map(d, &c);
    cb_dungeon_free(d);
  }
  check_issue12(&c, seeds);
}

static void property_sizes(void **state) {
  (void)state;
  pc_counts c = {0};
  int seeds = cb_test_seeds(PC_SEEDS) / 10;
  for (int s = 0; s < seeds; s++) {
    int n = 1 + s % 40;
    cb_dungeon *d = make((uint64_t)s * 7919u + 3, n, false, s % 5 == 0);
    check_dungeon(d, n, false, s % 5 == 0, true);
    count_map(d, &c);
    cb_dungeon_free(d);
  }
  check_issue12(&c, 0);
}

/* Issue 22 (generators.md, booklet.md "The map"): a corridor to a new room
 * keeps its rolled length; it turns only round a room and meets another
 * corridor by the d10 crossing rule, never by a detour. Over seeds 1-200 at
 * the default 12 rooms, at least 90% of the corridors to a new room are
 * exactly as long as their length die says: 1,565 of 2,200 (71.1%) before
 * this issue, 629 of them longer; 1,993 of 2,200 (90.6%) after, 203 longer
 * (the new room routed round rooms to a spot further on, or the corridor
 * stepped aside, where no shape of the rolled length lets it fit); 2,006
 * (91.2%), 193 longer, since routed corridors keep 5 ft off walls; 2,031
 * (92.3%), 169 longer, since a new room that fits nowhere at the rolled
 * length is drawn a square or more smaller where that fits. */
/* Of the corridors to new rooms on the maps of seeds first..last (`rooms` rooms, 0 the default), how many
 * keep their rolled length (into *kept) and how many run longer (into *longer); returns how many there are.
 */
static int rolled_kept(uint64_t first, uint64_t last, int rooms, int *kept, int *longer) {
  int all = 0;
  *kept = *longer = 0;
  for (uint64_t seed = first; seed <= last; seed++) {
    cb_dungeon *d = make(seed, rooms, false, false);
    const cb_preconnect_proc *p = cb_preconnect_of(d);
    for (int i = 0; i < p->ndoors; i++) {
      const cb_pc_door *dr = &p->doors[i];
      if (!dr->new_room) continue;
      double want = rolled_ft(dr->length_roll), got = corridor_ft(dr);
      all++;
      *kept += fabs(got - want) < EPS;
      *longer += got > want + EPS;
    }
    cb_dungeon_free(d);
  }
  return all;
}

static void property_rolled_length(void **state) {
  (void)state;
  int kept, longer, all = rolled_kept(1, 200, 0, &kept, &longer);
  print_message("seeds 1-200: %d corridors to new rooms, %d keep their rolled length (%.1f%%), %d longer\n",
                all, kept, 100.0 * kept / all, longer);
  if (kept * 10 < all * 9)
    fail_msg("only %d of %d corridors to new rooms keep their rolled length", kept, all);
  /* 20 rooms, seeds 1-100: 89.2% before a room could be drawn smaller, 91.2% since */
  all = rolled_kept(1, 100, 20, &kept, &longer);
  print_message("20 rooms, seeds 1-100: %d corridors to new rooms, %d keep their rolled length (%.1f%%)\n",
                all, kept, 100.0 * kept / all);
  if (kept * 10 < all * 9)
    fail_msg("at 20 rooms only %d of %d corridors to new rooms keep their rolled length", kept, all);
}

/* How many feet legs a-b and c-e run side by side closer than a grid square
 * (10 ft between their centre lines, and apart: not on one line), leaving
 * out the 10 ft before a door both corridors go through. */
static double abreast_ft(cb_pc_point a, cb_pc_point b, cb_pc_point c, cb_pc_point e, int nshared,
                         const cb_pc_point *q) {
  int ah = fabs(a.y - b.y) < EPS, ch = fabs(c.y - e.y) < EPS;
  if (ah != ch || (ah ? fabs(a.x - b.x) : fabs(a.y - b.y)) < EPS) return 0;
  double gap = ah ? fabs(a.y - c.y) : fabs(a.x - c.x);
  if (gap < EPS || gap > 10 - EPS) return 0;
  double lo = fmax(ah ? fmin(a.x, b.x) : fmin(a.y, b.y), ah ? fmin(c.x, e.x) : fmin(c.y, e.y));
  double hi = fmin(ah ? fmax(a.x, b.x) : fmax(a.y, b.y), ah ? fmax(c.x, e.x) : fmax(c.y, e.y));
  for (int i = 0; i < nshared && hi > lo; i++) {
    double at = ah ? q[i].x : q[i].y, across = ah ? q[i].y : q[i].x, line = ah ? a.y : a.x;
    if (fabs(across - line) > 10 + EPS) continue;
    if (at - 10 <= lo && at + 10 > lo) lo = at + 10;
    if (at + 10 >= hi && at - 10 < hi) hi = at - 10;
  }
  return hi > lo ? hi - lo : 0;
}

/* The feet of corridor a map runs abreast of another closer than a grid square. */
static double abreast_on_map(const cb_preconnect_proc *p) {
  double sum = 0;
  for (int i = 0; i < p->ndoors; i++)
    for (int j = i + 1; j < p->ndoors; j++) {
      const cb_pc_door *x = &p->doors[i], *y = &p->doors[j];
      cb_pc_point q[4];
      int ns = shared_doors(x, y, q);
      for (int a = 1; a < x->npoints; a++)
        for (int b = 1; b < y->npoints; b++)
          sum += abreast_ft(x->points[a - 1], x->points[a], y->points[b - 1], y->points[b], ns, q);
    }
  return sum;
}

/* Issue 22: parallel corridors keep a grid square apart (booklet.md "The
 * map"). Not yet held to 0: over seeds 1-200, the feet of corridor that run
 * beside another closer than 10 ft (centre to centre, the 10 ft before a
 * shared door left out) were 26,660 on 192 maps while corridors went round
 * each other, 16,655 on 191 since they cross by the d10, and 2,510 on 93
 * since doors on one wall stand a square apart, rooms keep a square from
 * corridors, routed corridors 7.5 ft from walls, and a corridor pays 20 ft
 * a foot it runs crowded (it crosses instead); 2,282.5 on 92 since a side
 * passage crowds a corridor too and a routed corridor pays 30 ft a foot;
 * 2,165 on 92 since the spots beyond a rolled end weigh it too; 1,880 on 86
 * since a corridor moves its legs up to a square over where it runs less
 * crowded; 1,525 on 75 since routed corridors keep 5 ft off walls (not 7.5)
 * and pay 40 ft a foot crowded; 1,265 on 63 since, once every corridor is
 * drawn, each moves its legs off the later ones beside it (crossing the same
 * corridors in the same order) and routed corridors pay 60 ft a foot
 * crowded; 1,152 on 56 since a corridor to a drawn room may then take another
 * of its shapes (its door or the spot it comes in by slid up to a square)
 * that crosses the same corridors and runs less crowded; 1,085 on 56 since a
 * new room that fits nowhere as rolled may be drawn smaller; a ceiling. */
static void property_abreast(void **state) {
  (void)state;
  double sum = 0;
  int maps = 0;
  for (uint64_t seed = 1; seed <= 200; seed++) {
    cb_dungeon *d = make(seed, 0, false, false);
    double ft = abreast_on_map(cb_preconnect_of(d));
    sum += ft, maps += ft > 0;
    cb_dungeon_free(d);
  }
  print_message("seeds 1-200: %.0f ft of corridor run abreast of another closer than 10 ft, on %d maps\n",
                sum, maps);
  if (sum > 1085 + EPS) fail_msg("%.1f ft of corridor abreast of another (ceiling 1,085)", sum);
}

static void bad_options(void **state) {
  (void)state;
  cb_error err = {0};
  cb_gen_options o = {.rooms = 501};
  assert_int_equal(cb_generator_check(&cb_gen_preconnect, &o, &err), CB_EINPUT);
  assert_non_null(strstr(err.msg, "--rooms 501: preconnect makes 1 to 500 rooms"));
  cb_error err2 = {0};
  cb_gen_options o2 = {.levels = 2};
  assert_int_equal(cb_gen_preconnect.validate(&o2, &err2), CB_EINPUT);
  assert_non_null(strstr(err2.msg, "--levels"));
  cb_dungeon *d = NULL;
  cb_error err3 = {0};
  assert_int_equal(cb_generator_run(&cb_gen_preconnect, &o, &d, &err3), CB_EINPUT);
  assert_null(d);
}

typedef struct buf {
  char *data;
  size_t len, cap;
} buf;

static cb_status buf_write(void *closure, const unsigned char *data, size_t len) {
  buf *b = closure;
  if (b->len + len + 1 > b->cap) {
    b->cap = (b->len + len + 1) * 2;
    b->data = realloc(b->data, b->cap);
    assert_non_null(b->data);
  }
  memcpy(b->data + b->len, data, len);
  b->len += len;
  b->data[b->len] = '\0';
  return CB_OK;
}

static buf to_json(const cb_dungeon *d) {
  buf b = {0};
  cb_error err = {0};
  assert_int_equal(cb_json_write(d, cb_proc_json(), (cb_sink){&b, buf_write}, &err), CB_OK);
  return b;
}

static void deterministic_and_round_trip(void **state) {
  (void)state;
  for (uint64_t seed = 0; seed < 40; seed++) {
    cb_dungeon *a = make(seed, 0, seed % 2, false), *b = make(seed, 0, seed % 2, false);
    buf ja = to_json(a), jb = to_json(b);
    assert_string_equal(ja.data, jb.data);
    cb_dungeon *c = NULL;
    cb_error err = {0};
    if (cb_json_parse(ja.data, ja.len, "t.json", cb_proc_json(), &c, &err) != CB_OK) fail_msg("%s", err.msg);
    buf jc = to_json(c);
    assert_string_equal(ja.data, jc.data);
    check_dungeon(c, 12, seed % 2, false, true);
    free(ja.data);
    free(jb.data);
    free(jc.data);
    cb_dungeon_free(a);
    cb_dungeon_free(b);
    cb_dungeon_free(c);
  }
}

static void bad_json(void **state) {
  (void)state;
  cb_dungeon *a = make(5, 0, false, false);
  buf j = to_json(a);
  static const struct {
    const char *from, *to, *msg;
  } cases[] = {{"\"facing\":\"N\"", "\"facing\":\"Q\"", "facing"},
               {"\"result\":\"under\"", "\"result\":\"over\"", "crossing table"},
               {"\"roll\":", "\"roll\":11,\"x\":", "roll"},
               {"\"points\":[[", "\"points\":[[1,1],[", "legs"},
               {"\"to\":", "\"to\":999", "room"},
               /* the rooms' rectangles (one field list, io/json_fields) */
               {"{\"room\":2,\"x\":", "{\"room\":1,\"x\":", "procedure.rooms[1]: room 1 is drawn twice"},
               {"{\"room\":2,\"x\":", "{\"room\":999,\"x\":", "procedure.rooms[1]: 'room' names no room"},
               {"\"w\":", "\"w\":0,\"v\":", "procedure.rooms[0]: 'w' is 0; it must be 1 to 100000"}};
  int tried = 0;
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char *at = strstr(j.data, cases[i].from);
    if (!at) continue;
    tried++;
    size_t pre = (size_t)(at - j.data), fl = strlen(cases[i].from), tl = strlen(cases[i].to);
    char *t = malloc(j.len + tl + 1);
    memcpy(t, j.data, pre);
    memcpy(t + pre, cases[i].to, tl);
    strcpy(t + pre + tl, at + fl);
    cb_dungeon *d = NULL;
    cb_error err = {0};
    assert_int_equal(cb_json_parse(t, strlen(t), "bad.json", cb_proc_json(), &d, &err), CB_EINPUT);
    assert_null(d);
    if (!strstr(err.msg, cases[i].msg))
      fail_msg("case %zu: '%s' does not mention %s", i, err.msg, cases[i].msg);
    free(t);
  }
  assert_int_equal(tried, 8);
  free(j.data);
  cb_dungeon_free(a);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(property_default), cmocka_unit_test(property_sizes),
      cmocka_unit_test(bad_options),      cmocka_unit_test(property_rolled_length),
      cmocka_unit_test(property_abreast), cmocka_unit_test(deterministic_and_round_trip),
      cmocka_unit_test(bad_json),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
