#include "layout.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "geom/boxgrid.h"
#include "layout/map.h"
#include "page/flow.h"
#include "proc.h"

static const cb_rgb GRID = {0.80, 0.86, 0.92};
static const double MARGIN_PT = 14, MAX_SCALE = 4, NUMBER_SIZE = 10, MIN_NUMBER = 8;
static const double CORRIDOR_FT = 5; /* drawn width of a corridor */
static const double INSET = 2.5;     /* a badge inside a room keeps this far in from its wall's line */
static const double EPS = 1e-6;
static const double LEAD_ACROSS = 100; /* a leader across another room's corridor, as 100 of its own */
static const double NEAR_CAP = 8;      /* how far past a search's spots the corridors it tests are gathered */
enum { MAX_PIECE = 40 };               /* points in a stretch of corridor: its corners, and two more */
enum { MAX_RING = 300 };               /* spots a ring of a badge's far search tries at most */
static const char *const FACING_WORD[CB_FACING_COUNT] = {"north", "east", "south", "west"};

/* Plane (feet) to page (points). A map much taller than its box is turned a
 * quarter clockwise (north to the right), and a north arrow says so. */
typedef struct view {
  double scale, ox, oy, minx, miny; /* minx, miny: of the turned plane */
  double cw;                        /* a corridor's drawn width, points */
  bool turned;
} view;

static void turn(const view *v, double x, double y, double *tx, double *ty) {
  *tx = v->turned ? -y : x;
  *ty = v->turned ? x : y;
}

static void to_page(const view *v, double x, double y, double *px, double *py) {
  double tx, ty;
  turn(v, x, y, &tx, &ty);
  *px = v->ox + (tx - v->minx) * v->scale;
  *py = v->oy + (ty - v->miny) * v->scale;
}

static void page_move(cb_page *p, const view *v, double x, double y) {
  double px, py;
  to_page(v, x, y, &px, &py);
  cb_page_move(p, px, py);
}

static void page_line(cb_page *p, const view *v, double x, double y) {
  double px, py;
  to_page(v, x, y, &px, &py);
  cb_page_line(p, px, py);
}

static void polyline(cb_page *p, const view *v, const cb_pc_point *pts, int n) {
  page_move(p, v, pts[0].x, pts[0].y);
  for (int i = 1; i < n; i++)
    page_line(p, v, pts[i].x, pts[i].y);
}

static double seg_len(cb_pc_point a, cb_pc_point b) { return fabs(b.x - a.x) + fabs(b.y - a.y); }

/* How far along the polyline q lies (the first leg holding it); -1 if on none. */
static double along(const cb_pc_point *pts, int n, cb_pc_point q) {
  double s = 0;
  for (int i = 1; i < n; i++) {
    cb_pc_point a = pts[i - 1], b = pts[i];
    if (q.x > fmin(a.x, b.x) - EPS && q.x < fmax(a.x, b.x) + EPS && q.y > fmin(a.y, b.y) - EPS &&
        q.y < fmax(a.y, b.y) + EPS)
      return s + seg_len(a, q);
    s += seg_len(a, b);
  }
  return -1;
}

/* The stretch s0..s1 of the polyline into out (at most n + 2 points). */
static int stretch(const cb_pc_point *pts, int n, double s0, double s1, cb_pc_point *out) {
  int m = 0;
  double s = 0;
  for (int i = 1; i < n; i++) {
    cb_pc_point a = pts[i - 1], b = pts[i];
    double l = seg_len(a, b);
    if (l > 0 && s + l > s0 - EPS && s < s1 + EPS) {
      double t0 = fmax(0, (s0 - s) / l), t1 = fmin(1, (s1 - s) / l);
      cb_pc_point p0 = {a.x + (b.x - a.x) * t0, a.y + (b.y - a.y) * t0};
      cb_pc_point p1 = {a.x + (b.x - a.x) * t1, a.y + (b.y - a.y) * t1};
      if (m == 0) out[m++] = p0;
      out[m++] = p1;
    }
    s += l;
  }
  return m;
}

/* The point s along the polyline (its end past the last leg). */
static cb_pc_point point_at(const cb_pc_point *pts, int n, double s) {
  for (int i = 1; i < n; i++) {
    double l = seg_len(pts[i - 1], pts[i]);
    if (s <= l + EPS && l > EPS) {
      double t = fmax(0, s / l);
      return (cb_pc_point){pts[i - 1].x + (pts[i].x - pts[i - 1].x) * t,
                           pts[i - 1].y + (pts[i].y - pts[i - 1].y) * t};
    }
    s -= l;
  }
  return pts[n - 1];
}

/* The unit direction of the leg at s (towards the corridor's end). */
static void direction_at(const cb_pc_point *pts, int n, double s, double *ux, double *uy) {
  *ux = 1, *uy = 0;
  for (int i = 1; i < n; i++) {
    double l = seg_len(pts[i - 1], pts[i]);
    if (l <= EPS) continue;
    *ux = (pts[i].x - pts[i - 1].x) / l;
    *uy = (pts[i].y - pts[i - 1].y) / l;
    if (s <= l + EPS) return;
    s -= l;
  }
}

static void band(cb_page *p, const cb_symbols *st, const view *v, const cb_pc_point *pts, int n, int pass) {
  if (n < 2 || seg_len(pts[0], pts[n - 1]) + seg_len(pts[0], pts[1]) <= EPS) return;
  polyline(p, v, pts, n);
  cb_ink ink = cb_ink_stroke(pass ? st->paper : st->ink, pass ? v->cw : v->cw + 2 * st->line);
  ink.cap = CB_CAP_BUTT;
  cb_page_ink(p, &ink);
}

static void mark(cb_page *p, const cb_symbols *st, const view *v, cb_symbol s, cb_pc_point at, double ux,
                 double uy, cb_symbol_set *used) {
  double px, py, tx, ty;
  to_page(v, at.x, at.y, &px, &py);
  turn(v, ux, uy, &tx, &ty);
  cb_symbol_mark(p, st, s, px, py, tx, ty, v->cw);
  *used |= CB_SYMBOL_BIT(s);
}

static void grid(cb_page *p, const view *v, double minx, double miny, double maxx, double maxy) {
  if (v->scale * 10 < 3) return;
  for (double gx = floor(minx / 10) * 10; gx <= maxx + EPS; gx += 10) {
    page_move(p, v, gx, miny);
    page_line(p, v, gx, maxy);
  }
  for (double gy = floor(miny / 10) * 10; gy <= maxy + EPS; gy += 10) {
    page_move(p, v, minx, gy);
    page_line(p, v, maxx, gy);
  }
  cb_ink ink = cb_ink_stroke(GRID, 0.3);
  cb_page_ink(p, &ink);
}

/* The piece of the corridor crossing c runs under that is drawn again
 * across ours, into piece (MAX_PIECE points); how many points (0: none). */
static int under_piece(const cb_preconnect_proc *pp, const cb_pc_crossing *c, cb_pc_point *piece) {
  if (c->door < 1 || c->door > pp->ndoors) return 0;
  const cb_pc_door *o = &pp->doors[c->door - 1];
  cb_pc_point mid = {(c->enter.x + c->leave.x) / 2, (c->enter.y + c->leave.y) / 2};
  for (int part = 0; part < 2; part++) {
    const cb_pc_point *w = part ? o->side : o->points;
    int k = part ? o->nside : o->npoints;
    double s = along(w, k, mid);
    if (s < 0 || k + 2 > MAX_PIECE) continue;
    double reach = CORRIDOR_FT * 1.4;
    return stretch(w, k, fmax(0, s - reach), s + reach, piece);
  }
  return 0;
}

/* Under: the crossed corridor drawn again across ours, ours dashed through. */
static void draw_under(cb_page *p, const cb_symbols *st, const view *v, const cb_preconnect_proc *pp,
                       const cb_pc_crossing *c, const cb_pc_point *seg, int m) {
  cb_pc_point piece[MAX_PIECE];
  int pm = under_piece(pp, c, piece);
  for (int pass = 0; pass < 2 && pm >= 2; pass++)
    band(p, st, v, piece, pm, pass);
  if (m < 2) return;
  polyline(p, v, seg, m);
  cb_ink dash = cb_ink_stroke(st->ink, st->line * 0.9);
  dash.dash[0] = st->line * 2.2;
  dash.dash[1] = st->line * 1.8;
  dash.ndash = 2;
  cb_page_ink(p, &dash);
}

/* The passage of door dr, NULL when none. */
static const cb_passage *door_passage(const cb_dungeon *d, const cb_pc_door *dr) {
  return dr->passage >= 1 ? cb_dungeon_passage(d, dr->passage) : NULL;
}

/* Is door dr's corridor on the map? In the players' view only when its passage is. */
static bool door_shown(const cb_dungeon *d, const cb_pc_door *dr) {
  return !d->players || !dr->passage || door_passage(d, dr);
}

/* Is the room with this id on the map? In the players' view only when the view has it. */
static bool room_shown(const cb_dungeon *d, int id) { return !d->players || cb_dungeon_room(d, id); }

/* Is what crossing c crosses on the map? Where it is not, the corridor runs on
 * unmarked (stairs over nothing would tell of a hidden room or corridor). */
static bool crossed_shown(const cb_dungeon *d, const cb_preconnect_proc *pp, const cb_pc_crossing *c) {
  if (c->room) return room_shown(d, c->room);
  return c->door < 1 || c->door > pp->ndoors || door_shown(d, &pp->doors[c->door - 1]);
}

/* How far a word of width tw and size `size` centred at (x, y) keeps from
 * the nearest secret door's disc (negative: the disc covers it). */
static double clearance(const cb_symbols *st, const view *v, const cb_dungeon *d,
                        const cb_preconnect_proc *pp, double x, double y, double tw, double size) {
  double rad = st->badge * 0.62 + 1, least = INFINITY;
  for (int i = 0; i < pp->ndoors; i++) {
    const cb_pc_door *dr = &pp->doors[i];
    const cb_passage *ps = door_passage(d, dr);
    if (dr->npoints < 2 || !ps || !(ps->flags & CB_FLAG_SECRET)) continue;
    double px, py, ux, uy, total = 0;
    for (int k = 1; k < dr->npoints; k++)
      total += seg_len(dr->points[k - 1], dr->points[k]);
    direction_at(dr->points, dr->npoints, total, &ux, &uy);
    double back = fmin(total, (st->badge * 0.45) / v->scale);
    to_page(v, dr->points[dr->npoints - 1].x - ux * back, dr->points[dr->npoints - 1].y - uy * back, &px,
            &py);
    double dx = fmax(0, fabs(px - x) - tw / 2), dy = fmax(0, fabs(py - y) - size * 0.6);
    least = fmin(least, hypot(dx, dy) - rad);
  }
  return least;
}

/* fmax without its call, for the searches' inner loops (no NaN reaches them) */
static inline double bigger(double a, double b) { return a > b ? a : b; }

/* The least of `least` and how far apart two boxes are that lie gx apart
 * across and gy up and down (less than 0 by as much as they overlap): the
 * distance is worked out only where it could be the less. */
static inline double nearer(double least, double gx, double gy) {
  double most = gx > gy ? gx : gy;
  if (most <= 0 || most >= least) return most < least ? most : least;
  double d = hypot(gx > 0 ? gx : 0, gy > 0 ? gy : 0);
  return d < least ? d : least;
}

/* Does q lie on room r's wall? */
static bool on_wall_of(const cb_pc_room *r, cb_pc_point q) {
  bool in_x = q.x > r->x - EPS && q.x<r->x + r->w + EPS, in_y = q.y> r->y - EPS && q.y < r->y + r->h + EPS;
  return (in_x && (fabs(q.y - r->y) < EPS || fabs(q.y - r->y - r->h) < EPS)) ||
         (in_y && (fabs(q.x - r->x) < EPS || fabs(q.x - r->x - r->w) < EPS));
}

static cb_pc_point from_page(const view *v, double px, double py);

/* A corridor leg's drawn band on the page: its ends' extremes and how far
 * the band reaches past them (half its width, but for an end on room r's
 * wall: it stops there, nothing of it enters the room). */
typedef struct leg_band {
  double minx, maxx, miny, maxy, ex0, ex1, ey0, ey1;
  bool own; /* a corridor of the room asked about */
} leg_band;

static void band_of(const view *v, const cb_pc_room *r, const cb_pc_point *w, int n, int k, double edge,
                    leg_band *b) {
  double ax, ay, bx, by;
  to_page(v, w[k - 1].x, w[k - 1].y, &ax, &ay);
  to_page(v, w[k].x, w[k].y, &bx, &by);
  bool across_x = fabs(ay - by) > fabs(ax - bx); /* an upright leg is as wide as the band in x */
  double lo = k > 1 || !on_wall_of(r, w[0]) ? edge : 0, hi = k + 1 < n || !on_wall_of(r, w[n - 1]) ? edge : 0;
  b->minx = fmin(ax, bx), b->maxx = fmax(ax, bx), b->miny = fmin(ay, by), b->maxy = fmax(ay, by);
  b->ex0 = across_x ? edge : (ax < bx ? lo : hi), b->ex1 = across_x ? edge : (ax < bx ? hi : lo);
  b->ey0 = across_x ? (ay < by ? lo : hi) : edge, b->ey1 = across_x ? (ay < by ? hi : lo) : edge;
}

/* How far a box 2hw by 2hh about (x, y) keeps from band b, as nearer() takes it. */
static inline double band_gap(const leg_band *b, double least, double x, double y, double hw, double hh) {
  double gx = bigger(b->minx - b->ex0 - (x + hw), (x - hw) - b->maxx - b->ex1);
  double gy = bigger(b->miny - b->ey0 - (y + hh), (y - hh) - b->maxy - b->ey1);
  return nearer(least, gx, gy);
}

/* How far a box 2hw by 2hh about (x, y) keeps from the nearest corridor's
 * drawn band (its ink outside included), in points, cap at most; less than
 * 0 by as much as they overlap. The corridors of room `skip` are left out
 * (0: none). */
static double corridor_clearance(const cb_symbols *st, const view *v, const cb_preconnect_proc *pp,
                                 const cb_pc_room *r, double x, double y, double hw, double hh, double cap,
                                 int skip) {
  double least = cap, edge = v->cw / 2 + st->line;
  for (int i = 0; i < pp->ndoors; i++)
    for (int part = 0; part < 2; part++) {
      const cb_pc_door *dr = &pp->doors[i];
      if (skip && (dr->room == skip || dr->to == skip)) break;
      const cb_pc_point *w = part ? dr->side : dr->points;
      int n = part ? dr->nside : dr->npoints;
      for (int k = 1; k < n; k++) {
        double ax, ay, bx, by;
        to_page(v, w[k - 1].x, w[k - 1].y, &ax, &ay);
        to_page(v, w[k].x, w[k].y, &bx, &by);
        /* no nearer than its box grown by the band's whole edge: far enough, it cannot lower least */
        double lo_x = fmax(fmin(ax, bx) - edge - (x + hw), (x - hw) - fmax(ax, bx) - edge),
               lo_y = fmax(fmin(ay, by) - edge - (y + hh), (y - hh) - fmax(ay, by) - edge);
        if (lo_x >= least || lo_y >= least) continue;
        leg_band b;
        band_of(v, r, w, n, k, edge, &b);
        least = band_gap(&b, least, x, y, hw, hh);
      }
    }
  return least;
}

/* The bands of every corridor that may reach the box x0..x1, y0..y1, into
 * out (malloc-owned, NULL when none or out of memory); returns how many. */
static int bands_near(const cb_symbols *st, const view *v, const cb_preconnect_proc *pp, const cb_pc_room *r,
                      const double box[4], leg_band **out) {
  double edge = v->cw / 2 + st->line, far = (edge + 3) / v->scale;
  int n = 0, cap = 0;
  *out = NULL;
  /* the box in the plan's feet, a little wider, to pass by the legs far from it before their bands */
  cb_pc_point c0 = from_page(v, box[0], box[1]), c1 = from_page(v, box[2], box[3]);
  double fx0 = fmin(c0.x, c1.x) - far, fx1 = fmax(c0.x, c1.x) + far, fy0 = fmin(c0.y, c1.y) - far,
         fy1 = fmax(c0.y, c1.y) + far;
  for (int i = 0; i < pp->ndoors; i++)
    for (int part = 0; part < 2; part++) {
      const cb_pc_door *dr = &pp->doors[i];
      const cb_pc_point *w = part ? dr->side : dr->points;
      int np = part ? dr->nside : dr->npoints;
      for (int k = 1; k < np; k++) {
        if (fmin(w[k - 1].x, w[k].x) > fx1 || fmax(w[k - 1].x, w[k].x) < fx0 ||
            fmin(w[k - 1].y, w[k].y) > fy1 || fmax(w[k - 1].y, w[k].y) < fy0)
          continue;
        leg_band b;
        band_of(v, r, w, np, k, edge, &b);
        if (b.minx - edge > box[2] + 1 || b.maxx + edge < box[0] - 1 || b.miny - edge > box[3] + 1 ||
            b.maxy + edge < box[1] - 1)
          continue;
        if (n == cap) {
          leg_band *grown = realloc(*out, (size_t)(cap = cap ? 2 * cap : 16) * sizeof *grown);
          if (!grown) return n;
          *out = grown;
        }
        b.own = dr->room == r->room || dr->to == r->room;
        (*out)[n++] = b;
      }
    }
  return n;
}

/* corridor_clearance over bands b (n of them, from bands_near for a box
 * reaching `cap` past the box asked of): the same, for the corridors that
 * can come near; own: the corridors of the room asked about left out. */
static double bands_clearance(const leg_band *b, int n, bool own, double x, double y, double hw, double hh,
                              double cap) {
  for (int k = 0; k < n; k++)
    if (!own || !b[k].own) cap = band_gap(&b[k], cap, x, y, hw, hh);
  return cap;
}

/* The least of `least` and how far (x, y) keeps from room r's box (0 inside it), in points. */
static inline double room_nearer(double least, const view *v, const cb_pc_room *r, double x, double y) {
  double ax, ay, bx, by;
  to_page(v, r->x, r->y, &ax, &ay);
  to_page(v, r->x + r->w, r->y + r->h, &bx, &by);
  double dx = fmax(0, fmax(fmin(ax, bx) - x, x - fmax(ax, bx)));
  double dy = fmax(0, fmax(fmin(ay, by) - y, y - fmax(ay, by)));
  return nearer(least, dx, dy);
}

/* A room's number: its text, type size and width. */
static double number_of(const cb_symbols *st, const cb_dungeon *d, const view *v, const cb_pc_room *r,
                        char num[16], double *tw) {
  const cb_room *room = cb_dungeon_room(d, r->room);
  snprintf(num, 16, "%d", room ? room->number : r->room);
  double size = fmax(MIN_NUMBER, fmin(NUMBER_SIZE, fmin(r->w, r->h) * v->scale * 0.55));
  *tw = cb_text_width(st->m, CB_FONT_BOLD, size, num);
  return size;
}

/* A room on the page grown to hold its number (a small room's number runs
 * over its walls): its middle and half sizes. */
typedef struct room_reach {
  double cx, cy, rx, ry;
} room_reach;

static room_reach reach_of(const cb_symbols *st, const cb_dungeon *d, const view *v, const cb_pc_room *r) {
  char num[16];
  double tw, size = number_of(st, d, v, r, num, &tw);
  room_reach rr = {.rx = fmax(r->w * v->scale, tw + 2) / 2, .ry = fmax(r->h * v->scale, size + 2) / 2};
  to_page(v, r->x + r->w / 2, r->y + r->h / 2, &rr.cx, &rr.cy);
  return rr;
}

/* The least of `least` and how far a box 2hw by 2hh about (x, y) lies from room rr; 0 when they meet. */
static inline double reach_nearer(double least, const room_reach *rr, double x, double y, double hw,
                                  double hh) {
  return nearer(least, fmax(0, fabs(x - rr->cx) - (rr->rx + hw)), fmax(0, fabs(y - rr->cy) - (rr->ry + hh)));
}

/* How far a box 2hw by 2hh about (x, y) lies from the nearest room, grown
 * to hold its number; 0 when they meet. */
static double rooms_clearance(const cb_symbols *st, const cb_dungeon *d, const cb_preconnect_proc *pp,
                              const view *v, double x, double y, double hw, double hh) {
  double least = INFINITY;
  for (int i = 0; i < pp->nrooms; i++) {
    room_reach rr = reach_of(st, d, v, &pp->rooms[i]);
    least = reach_nearer(least, &rr, x, y, hw, hh);
  }
  return least;
}

/* Does a badge 2hw by 2hh about (x, y) fit inside the room box, `in` points
 * in, clear of the number's box `num` (x0, y0, x1, y1)? */
static bool fits_inside(double x0, double y0, double x1, double y1, const double num[4], double x, double y,
                        double hw, double hh, double in) {
  if (x - hw < x0 + in - EPS || x + hw > x1 - in + EPS || y - hh < y0 + in - EPS || y + hh > y1 - in + EPS)
    return false;
  return x + hw < num[0] || x - hw > num[2] || y + hh < num[1] || y - hh > num[3];
}

/* How far a box 2hw by 2hh about (x, y) keeps from the marks already
 * placed (boxes x0, y0, x1, y1), less than 0 when it overlaps one. */
static double marks_clearance(const double (*taken)[4], int ntaken, double x, double y, double hw,
                              double hh) {
  double least = INFINITY;
  for (int i = 0; i < ntaken; i++) {
    double gx = fmax(taken[i][0] - (x + hw), (x - hw) - taken[i][2]);
    double gy = fmax(taken[i][1] - (y + hh), (y - hh) - taken[i][3]);
    least = nearer(least, gx, gy);
  }
  return least;
}

/* Do boxes a and b stand on one spot (their middles within a tenth of a point)? */
static bool same_spot(const double a[4], const double b[4]) {
  return fabs(a[0] + a[2] - b[0] - b[2]) < 0.2 && fabs(a[1] + a[3] - b[1] - b[3]) < 0.2;
}

/* What mark_spot knows of the badge it places: its room, the room's box on
 * the page, the badge's half sizes, the number's box and the marks placed. */
typedef struct spot_ask {
  const cb_symbols *st;
  const view *v;
  const cb_preconnect_proc *pp;
  const cb_pc_room *r;
  double x0, y0, x1, y1, hw, hh;
  const double *num;
  const double (*taken)[4];
  int ntaken;
  int skip; /* whose corridors the badge may lie over (its own room's, when nothing else is clear) */
  const double (*doors)[4]; /* the boxes of the doors' and crossings' marks (their words first), which
                             * the fallbacks keep off */
  int ndoors, nwords;
  const cb_dungeon *d;
  double frame[4];          /* the map's box, which a badge stays inside */
  bool cramped;             /* led from afar where the spot by its room lay over words (mark_spot) */
  bool row;                 /* a row of badges, not one */
  struct room_index *rooms; /* the rooms filed by their boxes on the page, or NULL: read every one */
} spot_ask;

/* The rooms' boxes on the page filed in a grid (by their index in the plan), so that the rooms near a
 * spot are found without reading every room: a map of 200 rooms asks for some 10^5 spots. */
typedef struct room_index {
  cb_boxgrid *g;
  double (*box)[4]; /* each room's box on the page, by its index in the plan */
  int *ids;
  size_t cap;
} room_index;

/* How far the nearest room other than badge a's own lies from (x, y) (room_nearer), of those nearer than
 * `within`; INFINITY when none is. */
static double other_room(const spot_ask *a, double x, double y, double within) {
  double other = INFINITY;
  int n = a->pp->nrooms;
  const int *ids = NULL;
  if (a->rooms && a->rooms->g && isfinite(within)) {
    n = cb_boxgrid_find(a->rooms->g, x - within, y - within, x + within, y + within, &a->rooms->ids,
                        &a->rooms->cap);
    if (n < 0)
      n = a->pp->nrooms; /* out of memory: read them all */
    else
      ids = a->rooms->ids;
  }
  for (int k = 0; k < n; k++) {
    int i = ids ? ids[k] : k;
    const cb_pc_room *r = &a->pp->rooms[i];
    if (r->room == a->r->room) continue;
    if (!a->rooms || !a->rooms->box) {
      other = room_nearer(other, a->v, r, x, y);
      continue;
    }
    const double *e = a->rooms->box[i];
    other = nearer(other, fmax(0, fmax(e[0] - x, x - e[2])), fmax(0, fmax(e[1] - y, y - e[3])));
  }
  return other;
}

/* Sets the room's box on the page (x0, y0, x1, y1) of badge a. */
static void room_box(spot_ask *a) {
  double ax, ay, bx, by;
  to_page(a->v, a->r->x, a->r->y, &ax, &ay);
  to_page(a->v, a->r->x + a->r->w, a->r->y + a->r->h, &bx, &by);
  a->x0 = fmin(ax, bx), a->y0 = fmin(ay, by), a->x1 = fmax(ax, bx), a->y1 = fmax(ay, by);
}

/* How far a badge at (x, y) keeps from the marks placed, and the doors' marks the spot is told of. */
static double marks_gap_of(const spot_ask *a, double x, double y) {
  return fmin(marks_clearance(a->taken, a->ntaken, x, y, a->hw, a->hh),
              marks_clearance(a->doors, a->ndoors, x, y, a->hw, a->hh));
}

/* How good a spot outside the room is: less than -1000 where it lies
 * nearer another room than its own (its distance from its own taken `more`
 * points longer) or on one; else at most 0, less by as much as it overlaps a
 * corridor's band or another mark. */
static double outside_score(const spot_ask *a, double x, double y, double more) {
  double own = room_nearer(INFINITY, a->v, a->r, x, y) + more;
  /* a room no nearer than this leaves `near` below at 0 or more, whatever it is */
  double other = other_room(a, x, y, fmax(own, fmax(a->hw, a->hh)) + 2);
  /* nearer its own room and off the others above all; then clear of the corridors */
  double near = fmin(other - own - 1, other - fmax(a->hw, a->hh) - 1);
  if (near < 0) return near - 1000;
  return fmin(0, fmin(corridor_clearance(a->st, a->v, a->pp, a->r, x, y, a->hw, a->hh, 0, a->skip),
                      marks_gap_of(a, x, y) - 1));
}

/* A spot inside the room `in` points in along its walls that misses the
 * number and keeps `apart` from the marks placed and the doors' marks the
 * spot is told of (a door's reaches in over the wall), and off the
 * corridors (one may run along under a wall): along the top wall
 * from its left corner first, then the bottom's, the left's and the
 * right's, so that a room's badges stand in a row along one wall; into
 * (ex, ey). */
static bool inside_wall(const spot_ask *a, double in, double apart, double *ex, double *ey) {
  for (int wall = 0; wall < 4; wall++) {
    bool across = wall < 2; /* the top and bottom walls run across */
    double from = across ? a->x0 + a->hw + in : a->y0 + a->hh + in,
           to = across ? a->x1 - a->hw - in : a->y1 - a->hh - in;
    for (double s = from; s <= to + EPS; s += 1) {
      double x = across      ? s
                 : wall == 2 ? a->x0 + a->hw + in
                             : a->x1 - a->hw - in,
             y = !across     ? s
                 : wall == 0 ? a->y0 + a->hh + in
                             : a->y1 - a->hh - in;
      if (fits_inside(a->x0, a->y0, a->x1, a->y1, a->num, x, y, a->hw, a->hh, in) &&
          marks_gap_of(a, x, y) >= apart &&
          corridor_clearance(a->st, a->v, a->pp, a->r, x, y, a->hw, a->hh, 0, 0) >= 0) {
        *ex = x, *ey = y;
        return true;
      }
    }
  }
  return false;
}

/* A spot inside a room too narrow for a corner 2.5 pt in: just clear of
 * its wall's ink, across the room's middle above or below the number (or
 * beside it), clear of the marks placed, into (ex, ey). */
static bool inside_tight(const spot_ask *a, double *ex, double *ey) {
  double in = a->st->line * 0.7 + 0.5, cx = (a->x0 + a->x1) / 2, cy = (a->y0 + a->y1) / 2;
  const double xs[4] = {cx, cx, (a->x0 + in + a->num[0]) / 2, (a->num[2] + a->x1 - in) / 2},
               ys[4] = {(a->y0 + in + a->num[1]) / 2, (a->num[3] + a->y1 - in) / 2, cy, cy};
  for (int k = 0; k < 4; k++)
    if (fits_inside(a->x0, a->y0, a->x1, a->y1, a->num, xs[k], ys[k], a->hw, a->hh, in) &&
        marks_gap_of(a, xs[k], ys[k]) >= 0) {
      *ex = xs[k], *ey = ys[k];
      return true;
    }
  return inside_wall(a, in, 0, ex, ey);
}

/* Beyond a corner of the room, out on both sides (up to one badge), where
 * that is clear of everything and plainly nearer its own room (by a quarter
 * of the room's shorter side: a reader measures from the room's middle):
 * into (ex, ey). */
static bool outside_corner(const spot_ask *a, double *ex, double *ey) {
  double more = fmin(a->x1 - a->x0, a->y1 - a->y0) / 4;
  for (int k = 0; k < 4 * 3; k++) {
    double g = 1.5 + (k / 4) * a->hh, x = k % 2 ? a->x1 + a->hw + g : a->x0 - a->hw - g,
           y = k % 4 / 2 ? a->y1 + a->hh + g : a->y0 - a->hh - g;
    if (outside_score(a, x, y, more) >= 0) {
      *ex = x, *ey = y;
      return true;
    }
  }
  return false;
}

/* The best of the spots along the room's walls outside (by the middles
 * first; then half a badge at a time further out, up to three), the first
 * that is clear, into (ex, ey); returns its score (outside_score). */
static double along_walls(const spot_ask *a, double *ex, double *ey) {
  static const double ALONG[9] = {0.5, 0.25, 0.75, 0, 1, 0.375, 0.625, 0.125, 0.875};
  static const double OUT[7] = {0, 0.5, 1, 1.5, 2, 2.5, 3}; /* badges further out */
  double best = -INFINITY, hw = a->hw, hh = a->hh, bw = 2 * hw, bh = 2 * hh;
  for (int k = 0; k < 9 * 4 * 7 && best < 0; k++) {
    double t = ALONG[k / 4 % 9], g = 1.5 + OUT[k / 36] * bh, x, y;
    switch (k % 4) {
    case 0: x = a->x0 + hw + (a->x1 - a->x0 - bw) * t, y = a->y0 - hh - g; break;  /* above */
    case 1: x = a->x0 - hw - g, y = a->y0 + hh + (a->y1 - a->y0 - bh) * t; break;  /* left */
    case 2: x = a->x1 + hw + g, y = a->y0 + hh + (a->y1 - a->y0 - bh) * t; break;  /* right */
    default: x = a->x0 + hw + (a->x1 - a->x0 - bw) * t, y = a->y1 + hh + g; break; /* below */
    }
    double score = outside_score(a, x, y, 0);
    if (score > best) best = score, *ex = x, *ey = y;
  }
  return best;
}

/* Astride the room's wall (its middle on the wall, by the walls' middles
 * first), off the number, where that is clear of everything else: into (ex,
 * ey). For a room too small for a badge inside and boxed in by corridors. */
static bool astride(const spot_ask *a, double *ex, double *ey) {
  static const double ALONG[5] = {0.5, 0.25, 0.75, 0, 1};
  for (int k = 0; k < 5 * 4; k++) {
    double t = ALONG[k / 4], x = a->x0 + a->hw + (a->x1 - a->x0 - 2 * a->hw) * t,
           y = a->y0 + a->hh + (a->y1 - a->y0 - 2 * a->hh) * t;
    if (k % 4 == 0 || k % 4 == 3)
      y = k % 4 ? a->y1 : a->y0;
    else
      x = k % 4 == 1 ? a->x0 : a->x1;
    bool on_number = x + a->hw > a->num[0] - 1 && x - a->hw < a->num[2] + 1 && y + a->hh > a->num[1] - 1 &&
                     y - a->hh < a->num[3] + 1;
    if (!on_number && outside_score(a, x, y, 0) >= 0) {
      *ex = x, *ey = y;
      return true;
    }
  }
  return false;
}

/* Where a mark of room r that found no spot inside along its walls (a
 * badge, or a row of them, 2hw by 2hh) goes, clear of the marks `taken`
 * already: the first spot along its walls outside (along_walls) that lies
 * nearer this room than any other, off every room and clear of every
 * corridor's edge; failing those, a spot inside along a wall that misses
 * the number (box `num`) however near the marks, a spot beyond a corner of
 * the room, a spot inside a narrow room just clear of its walls, astride a
 * wall, then (when `own`) the same spots outside over none but its own
 * room's corridors (which leave from under it); the least bad when none is
 * (then false, unless it only touches a corridor, by half a point at
 * most). */
static bool near_spot(spot_ask a, bool own, double *ex, double *ey) {
  const int counts[2] = {a.ndoors, a.nwords}; /* every mark, then (the fallbacks) only the words */
  *ex = a.x0 + a.hw + 2.5, *ey = a.y0 + a.hh + 2.5;
  double best = along_walls(&a, ex, ey), x = *ex, y = *ey;
  if (best >= 0) return true;
  /* over its own room's corridors only where the best along the walls is more than a touch over */
  for (int k = 0; k < (own && best < -0.5 ? 4 : 2); k++) {
    a.ndoors = counts[k % 2], a.skip = k < 2 ? 0 : a.r->room;
    if (k < 2 && (inside_wall(&a, INSET, 0, ex, ey) || outside_corner(&a, ex, ey) ||
                  inside_tight(&a, ex, ey) || astride(&a, ex, ey)))
      return true;
    if (k >= 2 && (along_walls(&a, ex, ey) >= 0 || outside_corner(&a, ex, ey) || astride(&a, ex, ey)))
      return true;
  }
  *ex = x, *ey = y;
  return best >= -0.5;
}

/* Does a badge at (x, y) lie nearer another room than its own (a reader
 * would take it for the other's)? Its own room's corners are not counted
 * as near: a reader measures from its middle, out to the round of its
 * shorter side. A row of badges is read by the badges at its ends (the
 * reader sees two). */
static bool strays(const spot_ask *a, double x, double y) {
  double half = fmin(a->x1 - a->x0, a->y1 - a->y0) / 2, end = a->row ? a->hw - a->hh : 0;
  for (int k = 0; k < (a->row ? 2 : 1); k++) {
    double bx = x + (k ? end : -end),
           own = fmax(room_nearer(INFINITY, a->v, a->r, bx, y),
                      hypot(bx - (a->x0 + a->x1) / 2, y - (a->y0 + a->y1) / 2) - half),
           other = other_room(a, bx, y, own + 1);
    if (other < own - 0.5) return true;
  }
  return false;
}

/* Where a leader from the room to a badge at (x, y) starts: on the wall
 * facing it, in the middle third of that wall. */
static void leader_start(const spot_ask *a, double x, double y, double *sx, double *sy) {
  double w = a->x1 - a->x0, h = a->y1 - a->y0;
  double out_x = fmax(a->x0 - x, x - a->x1) / w, out_y = fmax(a->y0 - y, y - a->y1) / h;
  *sx = fmin(fmax(x, a->x0 + w / 3), a->x1 - w / 3), *sy = fmin(fmax(y, a->y0 + h / 3), a->y1 - h / 3);
  if (out_x > out_y)
    *sx = x < a->x0 ? a->x0 : a->x1;
  else
    *sy = y < a->y0 ? a->y0 : a->y1;
}

/* What lies near a badge's far search (far_spot): the corridor bands, the
 * rooms (their boxes on the page, and grown to hold their numbers) and the
 * marks a spot in the search's box, or its leader, may come near; each
 * filed in the cells of a grid over that box that it reaches (grown by a
 * point), so a spot is tested against its neighbours only, not the whole
 * map. Gathered once a search; malloc-owned (near_free). */
enum { NEAR_BAND, NEAR_GROWN, NEAR_ROOM, NEAR_MARK, NEAR_KINDS };
typedef struct near_set {
  leg_band *bands;
  double (*box)[4];  /* every item's box: a band's reach, a room's, a room grown, a mark's */
  int *ids;          /* a room's id, by item */
  int *start, *code; /* cell c holds items code[start[c] .. start[c + 1]) */
  int nbands, nitems, nx, ny;
  double x0, y0, cell;
} near_set;

static void near_free(near_set *ns) {
  free(ns->bands), free(ns->box), free(ns->ids), free(ns->start), free(ns->code);
  *ns = (near_set){0};
}

/* Does box e come within a point of box `box` (x0, y0, x1, y1)? */
static bool box_near(const double e[4], const double box[4]) {
  return e[0] <= box[2] + 1 && e[2] >= box[0] - 1 && e[1] <= box[3] + 1 && e[3] >= box[1] - 1;
}

/* Adds an item of kind `kind` with box e, when near `box`. */
static void near_add(near_set *ns, const double box[4], const double e[4], int kind, int id) {
  if (!box_near(e, box)) return;
  memcpy(ns->box[ns->nitems], e, sizeof ns->box[0]);
  ns->ids[ns->nitems] = id, ns->code[ns->nitems++] = kind;
}

/* The grid cell that x falls in along one axis of n cells from `at` (the first or last beyond them). */
static inline int cell_at(double at, double cell, int n, double x) {
  double f = (x - at) / cell;
  return f >= n - 1 ? n - 1 : f > 0 ? (int)f : 0;
}

/* The grid cells c0..c1 that x0..x1 spans along one axis of n cells from `at`. */
static inline void cells_of(double at, double cell, int n, double x0, double x1, int *c0, int *c1) {
  *c0 = cell_at(at, cell, n, x0), *c1 = cell_at(at, cell, n, x1);
}

/* Files every item of ns in the cells its box grown by a point reaches
 * (two passes: count, then place); false when out of memory. */
static bool near_file(near_set *ns) {
  int ncells = ns->nx * ns->ny, *kind = ns->code, total = 0;
  ns->start = calloc((size_t)ncells + 1, sizeof *ns->start);
  if (!ns->start) return false;
  for (int pass = 0; pass < 2; pass++) {
    for (int i = 0; i < ns->nitems; i++) {
      const double *e = ns->box[i];
      int cx0, cx1, cy0, cy1;
      cells_of(ns->x0, ns->cell, ns->nx, e[0] - 1, e[2] + 1, &cx0, &cx1);
      cells_of(ns->y0, ns->cell, ns->ny, e[1] - 1, e[3] + 1, &cy0, &cy1);
      for (int cy = cy0; cy <= cy1; cy++)
        for (int cx = cx0; cx <= cx1; cx++)
          if (pass == 0)
            ns->start[cy * ns->nx + cx + 1]++;
          else
            ns->code[ns->start[cy * ns->nx + cx]++] = i * NEAR_KINDS + kind[i];
    }
    if (pass == 0) {
      for (int c = 0; c < ncells; c++)
        ns->start[c + 1] += ns->start[c];
      total = ns->start[ncells];
      if (!(ns->code = malloc(sizeof *ns->code * (size_t)(total + 1)))) {
        ns->code = kind; /* near_free frees it */
        return false;
      }
    }
  }
  for (int c = ncells; c > 0; c--)
    ns->start[c] = ns->start[c - 1]; /* each cell's start, shifted back */
  ns->start[0] = 0;
  free(kind);
  return true;
}

/* Gathers into ns what lies near `box` for badge a; false when out of memory. */
static bool near_gather(const spot_ask *a, const double box[4], near_set *ns) {
  const cb_preconnect_proc *pp = a->pp;
  *ns = (near_set){0};
  ns->nbands = bands_near(a->st, a->v, pp, a->r, box, &ns->bands);
  size_t most = (size_t)(ns->nbands + 2 * pp->nrooms + a->ntaken + a->ndoors + 1);
  ns->box = malloc(sizeof *ns->box * most), ns->ids = malloc(sizeof *ns->ids * most);
  ns->code = malloc(sizeof *ns->code * most); /* each item's kind, till filed */
  if (!ns->box || !ns->ids || !ns->code) return false;
  for (int k = 0; k < ns->nbands; k++) {
    const leg_band *b = &ns->bands[k];
    double e[4] = {b->minx - b->ex0, b->miny - b->ey0, b->maxx + b->ex1, b->maxy + b->ey1};
    near_add(ns, (const double[4]){-INFINITY, -INFINITY, INFINITY, INFINITY}, e, NEAR_BAND, k);
  }
  for (int i = 0; i < pp->nrooms; i++) {
    const cb_pc_room *r = &pp->rooms[i];
    char num[16];
    double tw, size = number_of(a->st, a->d, a->v, r, num, &tw), cx, cy, ax, ay, bx, by;
    to_page(a->v, r->x + r->w / 2, r->y + r->h / 2, &cx, &cy);
    to_page(a->v, r->x, r->y, &ax, &ay);
    to_page(a->v, r->x + r->w, r->y + r->h, &bx, &by);
    double rx = fmax(r->w * a->v->scale, tw + 2) / 2, ry = fmax(r->h * a->v->scale, size + 2) / 2;
    near_add(ns, box, (const double[4]){cx - rx, cy - ry, cx + rx, cy + ry}, NEAR_GROWN, r->room);
    near_add(ns, box, (const double[4]){fmin(ax, bx), fmin(ay, by), fmax(ax, bx), fmax(ay, by)}, NEAR_ROOM,
             r->room);
  }
  for (int i = 0; i < a->ntaken; i++)
    near_add(ns, box, a->taken[i], NEAR_MARK, 0);
  for (int i = 0; i < a->ndoors; i++)
    near_add(ns, box, a->doors[i], NEAR_MARK, 0);
  ns->cell = fmax(8, 2 * fmax(a->hw, a->hh)), ns->x0 = box[0], ns->y0 = box[1];
  ns->nx = (int)fmin(256, ceil((box[2] - box[0]) / ns->cell) + 1);
  ns->ny = (int)fmin(256, ceil((box[3] - box[1]) / ns->cell) + 1);
  return near_file(ns);
}

/* Does a box 2hw by 2hh about (x, y) keep `need` (at most 1) from every item near it (ns) of kinds
 * 1 << NEAR_... in `kinds`? The first too near settles it. */
static bool near_keeps(const near_set *ns, unsigned kinds, double need, double x, double y, double hw,
                       double hh) {
  int cx0, cx1, cy0, cy1;
  cells_of(ns->x0, ns->cell, ns->nx, x - hw, x + hw, &cx0, &cx1);
  cells_of(ns->y0, ns->cell, ns->ny, y - hh, y + hh, &cy0, &cy1);
  for (int cy = cy0; cy <= cy1; cy++)
    for (int cx = cx0; cx <= cx1; cx++)
      for (int j = ns->start[cy * ns->nx + cx]; j < ns->start[cy * ns->nx + cx + 1]; j++) {
        int kind = ns->code[j] % NEAR_KINDS, i = ns->code[j] / NEAR_KINDS;
        if (!(kinds & (1u << kind))) continue;
        const double *e = ns->box[i];
        double gap = kind == NEAR_BAND ? band_gap(&ns->bands[ns->ids[i]], need, x, y, hw, hh)
                                       : nearer(need, bigger(e[0] - (x + hw), (x - hw) - e[2]),
                                                bigger(e[1] - (y + hh), (y - hh) - e[3]));
        if (gap < need) return false;
      }
  return true;
}

/* What a leader from the room to a badge at (x, y) costs: the corridors it
 * crosses (sampled every half point), one for each of its own room's and
 * LEAD_ACROSS for each of other rooms' (which would lead the eye down the
 * wrong way), INFINITY where it runs over another room (or the badge on its
 * own room). Only what lies near (ns) can meet it. It stops counting at
 * `enough` (a leader that costs as much is not taken). */
static double leader_cost(const spot_ask *a, const near_set *ns, double x, double y, double enough) {
  double sx, sy;
  leader_start(a, x, y, &sx, &sy);
  int steps = (int)(hypot(x - sx, y - sy) * 2) + 1;
  double crossed = 0;
  bool in = false, in_other = false;
  for (int i = 0; i <= steps && crossed < enough; i++) {
    double t = (double)i / steps, px = sx + (x - sx) * t, py = sy + (y - sy) * t;
    int c = cell_at(ns->y0, ns->cell, ns->ny, py) * ns->nx + cell_at(ns->x0, ns->cell, ns->nx, px);
    bool now = false, other = false;
    for (int j = ns->start[c]; j < ns->start[c + 1]; j++) {
      int kind = ns->code[j] % NEAR_KINDS, k = ns->code[j] / NEAR_KINDS;
      const double *e = ns->box[k];
      if (kind == NEAR_ROOM && i > 0 && ns->ids[k] != a->r->room &&
          nearer(1, bigger(0, bigger(e[0] - px, px - e[2])), bigger(0, bigger(e[1] - py, py - e[3]))) < 0.5)
        return INFINITY;
      if (kind == NEAR_BAND && !other && band_gap(&ns->bands[ns->ids[k]], 1, px, py, 0, 0) < 0)
        now = true, other |= !ns->bands[ns->ids[k]].own;
    }
    crossed += (now && !in) + (other && !in_other) * (LEAD_ACROSS - 1);
    in = now, in_other = other;
  }
  return crossed;
}

/* Is a badge at (x, y) clear of every corridor, mark, room and room number
 * near it (ns), inside the map's frame? */
static bool clear_of_all(const spot_ask *a, const near_set *ns, double x, double y) {
  if (x - a->hw < a->frame[0] || x + a->hw > a->frame[2] || y - a->hh < a->frame[1] ||
      y + a->hh > a->frame[3])
    return false;
  return near_keeps(ns, 1u << NEAR_GROWN | 1u << NEAR_MARK, 1, x, y, a->hw, a->hh) &&
         near_keeps(ns, 1u << NEAR_BAND, 0.5, x, y, a->hw, a->hh);
}

/* The spots of the ring g points out from badge a's room, `step` apart: the
 * one clear of everything (clear_of_all) whose leader costs least, when
 * that beats `best` (g and 8 pt for each corridor its leader crosses). */
static double ring_spots(const spot_ask *a, const near_set *ns, double g, double best, double *ex,
                         double *ey) {
  double x0 = a->x0 - g - a->hw, x1 = a->x1 + g + a->hw, y0 = a->y0 - g - a->hh, y1 = a->y1 + g + a->hh;
  double w = x1 - x0, h = y1 - y0, around = 2 * (w + h);
  /* 2 pt apart (6 beyond six badges), or wider round a big room: at most MAX_RING spots a ring */
  double step = fmax(g > 6 * a->st->badge ? 6 : 2, around / MAX_RING);
  for (double s = 0; s < around; s += step) {
    double x = s < w           ? x0 + s
               : s < w + h     ? x1
               : s < 2 * w + h ? x1 - (s - w - h)
                               : x0,
           y = s < w           ? y0
               : s < w + h     ? y0 + (s - w)
               : s < 2 * w + h ? y1
                               : y1 - (s - 2 * w - h);
    if (!clear_of_all(a, ns, x, y)) continue;
    double cost = g + 8 * leader_cost(a, ns, x, y, (best - g) / 8);
    if (cost < best) best = cost, *ex = x, *ey = y;
  }
  return best;
}

/* A badge with no clear spot by its room (or only one nearer another room)
 * goes to the nearest spot around it, out to six badges, clear of
 * everything, to be led to its room by a hairline: ring by ring, 2 pt
 * apart, the spot whose leader crosses fewest corridors (each as bad as 8
 * pt further out). The search is bounded: at most MAX_RING spots a ring,
 * each tested against what lies near it only, and its leader no further
 * than it could still beat the best. False when there is none. */
static bool far_spot(const spot_ask *a, double *ex, double *ey) {
  double best = INFINITY, reach = 6 * a->st->badge;
  double out = 2 * reach + 2 * fmax(a->hw, a->hh) + 2,
         box[4] = {a->x0 - out, a->y0 - out, a->x1 + out, a->y1 + out};
  near_set ns;
  if (!near_gather(a, box, &ns)) {
    near_free(&ns);
    return false;
  }
  /* out to twelve badges, in rings 6 pt apart, while every spot's leader crosses another room's corridor */
  for (double g = 3; (g <= reach || (g <= 2 * reach && best >= 8 * LEAD_ACROSS)) && g < best;
       g += (g > reach ? 6 : 2))
    best = ring_spots(a, &ns, g, best, ex, ey);
  near_free(&ns);
  return isfinite(best);
}

/* Would a badge at (x, y) lie over the words a reader finds rooms by: a
 * room's number (at its middle), a badge placed, a door's word? */
static bool over_words(const spot_ask *a, double x, double y) {
  if (marks_clearance(a->taken, a->ntaken, x, y, a->hw, a->hh) < 0 ||
      marks_clearance(a->doors, a->nwords, x, y, a->hw, a->hh) < 0)
    return true;
  for (int i = 0; i < a->pp->nrooms; i++) {
    const cb_pc_room *r = &a->pp->rooms[i];
    char num[16];
    double tw, size = number_of(a->st, a->d, a->v, r, num, &tw), cx, cy;
    to_page(a->v, r->x + r->w / 2, r->y + r->h / 2, &cx, &cy);
    if (fabs(x - cx) < a->hw + tw / 2 && fabs(y - cy) < a->hh + size / 2) return true;
  }
  return false;
}

/* Where a mark of room r goes (near_spot), or, where that is not clear or
 * lies nearer another room, the nearest clear spot further out (far_spot):
 * then true, and a hairline leads it to its room; a->cramped when the spot
 * it would have taken by its room lay over words (the sheet then counts
 * the map as cramped, as it counted the words running into each other).
 * Over its own room's corridors only where neither is clear (no label
 * overlaps a line). */
static bool mark_spot(spot_ask *a, double *ex, double *ey) {
  bool clear = near_spot(*a, false, ex, ey);
  if (clear && !strays(a, *ex, *ey)) return false;
  double nx = *ex, ny = *ey;
  if (!clear) near_spot(*a, true, &nx, &ny);
  if (!far_spot(a, ex, ey)) {
    *ex = nx, *ey = ny;
    return false;
  }
  a->cramped = !clear && over_words(a, nx, ny);
  return true;
}

/* The plan's extent in feet, rooms and corridors, with a 10-ft border. */
static void extent(const cb_preconnect_proc *pp, double *minx, double *miny, double *maxx, double *maxy) {
  *minx = *miny = INFINITY, *maxx = *maxy = -INFINITY;
#define GROW(px, py)                                                                                         \
  *minx = fmin(*minx, px), *maxx = fmax(*maxx, px), *miny = fmin(*miny, py), *maxy = fmax(*maxy, py)
  for (int i = 0; i < pp->nrooms; i++) {
    GROW(pp->rooms[i].x, pp->rooms[i].y);
    GROW(pp->rooms[i].x + pp->rooms[i].w, pp->rooms[i].y + pp->rooms[i].h);
  }
  for (int i = 0; i < pp->ndoors; i++) {
    for (int k = 0; k < pp->doors[i].npoints; k++)
      GROW(pp->doors[i].points[k].x, pp->doors[i].points[k].y);
    for (int k = 0; k < pp->doors[i].nside; k++)
      GROW(pp->doors[i].side[k].x, pp->doors[i].side[k].y);
  }
#undef GROW
  *minx -= 10, *miny -= 10, *maxx += 10, *maxy += 10;
}

double cb_corridors_height(const cb_dungeon *d, const cb_symbols *st, int level, double w) {
  const cb_preconnect_proc *pp = cb_preconnect_of(d);
  if (!pp || pp->nrooms == 0) return cb_map_height(d, st, level, w);
  double minx, miny, maxx, maxy;
  extent(pp, &minx, &miny, &maxx, &maxy);
  double scale = fmin(MAX_SCALE, (w - 2 * MARGIN_PT - st->badge * 2.5) / (maxx - minx));
  return (maxy - miny) * scale + 2 * MARGIN_PT;
}

/* The corridors, and passages no door drew. */
static void draw_corridors(cb_page *p, const cb_symbols *st, const cb_dungeon *d,
                           const cb_preconnect_proc *pp, const view *v, cb_symbol_set *used) {
  /* corridors: ink edges first, then paper inside, so crossings merge */
  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < pp->ndoors; i++) {
      const cb_pc_door *dr = &pp->doors[i];
      if (!door_shown(d, dr)) continue;
      cb_page_role(p, CB_ROLE_PASSAGE, dr->room, dr->to);
      band(p, st, v, dr->points, dr->npoints, pass);
      band(p, st, v, dr->side, dr->nside, pass);
    }
  cb_page_role(p, CB_ROLE_NONE, 0, 0);
  /* passages no door drew (added by hand to a saved dungeon): straight, centre to centre, under the rooms */
  for (int i = 0; i < d->npassages; i++) {
    int drawn = 0;
    for (int k = 0; k < pp->ndoors && !drawn; k++)
      drawn = pp->doors[k].passage == d->passages[i].id;
    const cb_room *a = cb_dungeon_room(d, d->passages[i].from), *b = cb_dungeon_room(d, d->passages[i].to);
    if (drawn || !a || !b || a == b) continue;
    double ax, ay, bx, by;
    to_page(v, a->x, a->y, &ax, &ay);
    to_page(v, b->x, b->y, &bx, &by);
    cb_symbol s = cb_map_passage_symbol(&d->passages[i]);
    cb_symbol_passage(p, st, s, ax, ay, bx, by);
    if (d->passages[i].lock)
      cb_symbol_label(p, st, d->passages[i].lock, (ax + bx) / 2, (ay + by) / 2 - st->badge);
    *used |= CB_SYMBOL_BIT(s);
  }
}

/* The rooms over the corridors. */
static void draw_rooms(cb_page *p, const cb_symbols *st, const cb_dungeon *d, const cb_preconnect_proc *pp,
                       const view *v) {
  cb_ink room_ink = {.fill = true,
                     .stroke = true,
                     .fill_color = cb_symbol_room_fill(st),
                     .stroke_color = st->ink,
                     .width = st->line * 1.4};
  for (int i = 0; i < pp->nrooms; i++) {
    const cb_pc_room *r = &pp->rooms[i];
    if (!room_shown(d, r->room)) continue;
    cb_page_role(p, CB_ROLE_ROOM, r->room, 0);
    page_move(p, v, r->x, r->y);
    page_line(p, v, r->x + r->w, r->y);
    page_line(p, v, r->x + r->w, r->y + r->h);
    page_line(p, v, r->x, r->y + r->h);
    cb_page_close(p);
    cb_page_ink(p, &room_ink);
  }
  cb_page_role(p, CB_ROLE_NONE, 0, 0);
}

/* The stretch of door dr's corridor between crossing c's stairs, into seg
 * (MAX_PIECE points, *m of them), and where the stairs stand along it;
 * false when the crossing is not drawn as stairs. */
static bool crossing_span(const cb_dungeon *d, const cb_preconnect_proc *pp, const cb_pc_door *dr,
                          const cb_pc_crossing *c, cb_pc_point *seg, int *m, double *s0, double *s1) {
  if (c->result != CB_CROSS_UNDER && c->result != CB_CROSS_OVER) return false;
  if (!door_shown(d, dr) || !crossed_shown(d, pp, c)) return false;
  *s0 = along(dr->points, dr->npoints, c->enter), *s1 = along(dr->points, dr->npoints, c->leave);
  if (*s0 < 0 || *s1 < *s0) return false;
  *m = dr->npoints + 2 <= MAX_PIECE ? stretch(dr->points, dr->npoints, *s0, *s1, seg) : 0;
  return true;
}

/* Crossings over the rooms and corridors. */
static void draw_crossings(cb_page *p, const cb_symbols *st, const cb_dungeon *d,
                           const cb_preconnect_proc *pp, const view *v, cb_symbol_set *used) {
  /* crossings on top: over runs the corridor across, under dashes it through */
  for (int i = 0; i < pp->ndoors; i++) {
    const cb_pc_door *dr = &pp->doors[i];
    for (int k = 0; k < dr->ncrossings; k++) {
      const cb_pc_crossing *c = &dr->crossings[k];
      cb_pc_point seg[MAX_PIECE];
      double s0, s1;
      int m;
      if (!crossing_span(d, pp, dr, c, seg, &m, &s0, &s1)) continue;
      if (c->result == CB_CROSS_OVER) {
        for (int pass = 0; pass < 2; pass++)
          band(p, st, v, seg, m, pass);
        *used |= CB_SYMBOL_BIT(CB_SYM_OVER);
      } else {
        draw_under(p, st, v, pp, c, seg, m);
        *used |= CB_SYMBOL_BIT(CB_SYM_UNDER);
      }
      cb_symbol stairs = c->ladder ? CB_SYM_LADDER : CB_SYM_STAIRS;
      double ux, uy;
      direction_at(dr->points, dr->npoints, s0, &ux, &uy);
      mark(p, st, v, stairs, c->enter, ux, uy, used);
      direction_at(dr->points, dr->npoints, s1, &ux, &uy);
      mark(p, st, v, stairs, c->leave, -ux, -uy, used);
    }
  }
}

static const int DX[4] = {0, 1, 0, -1}, DY[4] = {-1, 0, 1, 0}; /* a facing's way out, N E S W */

/* Page boxes (x0, y0, x1, y1) of the marks on the plan that a bar's mark
 * and a key id keep clear of: doors, corridor ends, stairs and crossings,
 * then the bars and key ids as they are placed. */
typedef struct mark_boxes {
  double (*box)[4];
  int n, cap;
} mark_boxes;

static void add_box(mark_boxes *b, const double e[4]) {
  if (b->n < b->cap) memcpy(b->box[b->n++], e, sizeof *b->box);
}

/* The box mark s at `at` inks, its corridor running (ux, uy) there. */
static void mark_box(const cb_symbols *st, const view *v, cb_symbol s, cb_pc_point at, double ux, double uy,
                     double e[4]) {
  double px, py, tx, ty;
  to_page(v, at.x, at.y, &px, &py);
  turn(v, ux, uy, &tx, &ty);
  cb_symbol_mark_box(st, s, px, py, tx, ty, v->cw, e);
}

static void add_mark(mark_boxes *b, const cb_symbols *st, const view *v, cb_symbol s, cb_pc_point at,
                     double ux, double uy) {
  double e[4];
  mark_box(st, v, s, at, ux, uy, e);
  add_box(b, e);
}

/* The box of a stretch of corridor drawn again (a crossing), its band's ink included. */
static void add_stretch(mark_boxes *b, const cb_symbols *st, const view *v, const cb_pc_point *pts, int n) {
  double e[4] = {INFINITY, INFINITY, -INFINITY, -INFINITY}, g = v->cw / 2 + st->line;
  for (int i = 0; i < n; i++) {
    double px, py;
    to_page(v, pts[i].x, pts[i].y, &px, &py);
    e[0] = fmin(e[0], px - g), e[1] = fmin(e[1], py - g), e[2] = fmax(e[2], px + g),
    e[3] = fmax(e[3], py + g);
  }
  if (n > 0) add_box(b, e);
}

/* How far a box keeps from every box of b but number `skip` (and those on
 * its spot: two doors' leaves in one doorway), less than 0 when it overlaps
 * one. */
static double boxes_clearance(const mark_boxes *b, int skip, const double e[4]) {
  double least = INFINITY;
  bool skipping = skip >= 0 && skip < b->n;
  for (int i = 0; i < b->n; i++) {
    const double *o = b->box[i];
    double gx = o[0] - e[2] > e[0] - o[2] ? o[0] - e[2] : e[0] - o[2],
           gy = o[1] - e[3] > e[1] - o[3] ? o[1] - e[3] : e[1] - o[3];
    if ((gx > least || gy > least) || (skipping && same_spot(o, b->box[skip]))) continue;
    least = nearer(least, gx, gy);
  }
  return least;
}

static double corridor_length(const cb_pc_door *dr) {
  double total = 0;
  for (int k = 1; k < dr->npoints; k++)
    total += seg_len(dr->points[k - 1], dr->points[k]);
  return total;
}

/* How door dr's corridor ends (total feet long, passage ps): a door, a dead
 * end, or a secret door's disc on the corridor just short of the wall, not
 * over the room; where and which way. */
static cb_symbol corridor_end(const cb_symbols *st, const view *v, const cb_passage *ps, const cb_pc_door *dr,
                              double total, cb_pc_point *end, double *ux, double *uy) {
  direction_at(dr->points, dr->npoints, total, ux, uy);
  *end = dr->points[dr->npoints - 1];
  if (ps && (ps->flags & CB_FLAG_SECRET) && !(ps->flags & CB_FLAG_DEAD_END)) {
    double back = fmin(total, (st->badge * 0.45) / v->scale);
    *end = (cb_pc_point){end->x - *ux * back, end->y - *uy * back};
  }
  return !ps                            ? CB_SYM_DOOR
         : ps->flags & CB_FLAG_DEAD_END ? CB_SYM_DEAD_END
         : ps->flags & CB_FLAG_SECRET   ? CB_SYM_SECRET
                                        : CB_SYM_DOOR;
}

/* A crossing's stairs, the stretch between them and the crossed corridor drawn again. */
static void add_crossing(mark_boxes *b, const cb_symbols *st, const view *v, const cb_dungeon *d,
                         const cb_preconnect_proc *pp, const cb_pc_door *dr, const cb_pc_crossing *c) {
  cb_pc_point seg[MAX_PIECE], piece[MAX_PIECE];
  double s0, s1, ux, uy;
  int m;
  if (!crossing_span(d, pp, dr, c, seg, &m, &s0, &s1)) return;
  cb_symbol stairs = c->ladder ? CB_SYM_LADDER : CB_SYM_STAIRS;
  direction_at(dr->points, dr->npoints, s0, &ux, &uy);
  add_mark(b, st, v, stairs, c->enter, ux, uy);
  direction_at(dr->points, dr->npoints, s1, &ux, &uy);
  add_mark(b, st, v, stairs, c->leave, ux, uy);
  add_stretch(b, st, v, seg, m);
  if (c->result == CB_CROSS_UNDER) add_stretch(b, st, v, piece, under_piece(pp, c, piece));
}

/* Every door, corridor end, blind side passage's end and crossing the plan
 * shows, into b; leaf[2 i] and leaf[2 i + 1]: the numbers there of the
 * leaves of door i's corridor, at its door and at its far end (-1: none). */
static void plan_marks(const cb_symbols *st, const cb_dungeon *d, const cb_preconnect_proc *pp, const view *v,
                       mark_boxes *b, int *leaf) {
  for (int i = 0; i < pp->ndoors; i++) {
    const cb_pc_door *dr = &pp->doors[i];
    leaf[2 * i] = leaf[2 * i + 1] = -1;
    if (dr->npoints < 1 || !door_shown(d, dr)) continue;
    int f = (int)dr->facing % 4;
    leaf[2 * i] = b->n;
    add_mark(b, st, v, CB_SYM_DOOR, dr->points[0], DX[f], DY[f]);
    double total = corridor_length(dr), ux = 0, uy = 0;
    cb_pc_point end;
    if (total > EPS) {
      cb_symbol s = corridor_end(st, v, door_passage(d, dr), dr, total, &end, &ux, &uy);
      if (s == CB_SYM_DOOR) leaf[2 * i + 1] = b->n;
      add_mark(b, st, v, s, end, ux, uy);
    }
    double l = dr->nside == 2 ? seg_len(dr->side[0], dr->side[1]) : 0;
    if (l > EPS)
      add_mark(b, st, v, CB_SYM_DEAD_END, dr->side[1], (dr->side[1].x - dr->side[0].x) / l,
               (dr->side[1].y - dr->side[0].y) / l);
    for (int k = 0; k < dr->ncrossings; k++)
      add_crossing(b, st, v, d, pp, dr, &dr->crossings[k]);
  }
}

static double dist(cb_pc_point a, cb_pc_point b) { return hypot(a.x - b.x, a.y - b.y); }

/* How far q keeps from the nearest door, corridor end and crossing mark
 * (stairs or ladders before and after, the crossing between them, a secret
 * door or dead end where a corridor stops) of the plan, in feet. */
static double marks_gap(const cb_preconnect_proc *pp, cb_pc_point q) {
  double gap = INFINITY;
  for (int i = 0; i < pp->ndoors; i++) {
    const cb_pc_door *o = &pp->doors[i];
    gap = fmin(gap, dist(q, o->at));
    if (o->npoints >= 2) gap = fmin(gap, dist(q, o->points[o->npoints - 1]));
    for (int k = 0; k < o->ncrossings; k++) {
      const cb_pc_crossing *c = &o->crossings[k];
      cb_pc_point mid = {(c->enter.x + c->leave.x) / 2, (c->enter.y + c->leave.y) / 2};
      gap = fmin(gap, fmin(dist(q, mid), fmin(dist(q, c->enter), dist(q, c->leave))));
    }
  }
  return gap;
}

/* Where along door dr's corridor a bar's mark goes: the first spot from s0
 * (half the corridor at most), a step at a time up to 90% of its length,
 * that keeps `need` feet from every other mark (marks_gap), else the spot
 * farthest from them. */
static double clear_along(const cb_preconnect_proc *pp, const cb_pc_door *dr, double s0, double total,
                          double need, double step) {
  double first = fmin(s0, total * 0.5), best = first, most = -1;
  for (double s = first; s <= fmax(first, total * 0.9) + EPS; s += step) {
    double gap = marks_gap(pp, point_at(dr->points, dr->npoints, s));
    if (gap >= need - EPS) return s;
    if (gap > most + EPS) most = gap, best = s;
  }
  return best;
}

/* A bar's mark as placed on door dr's corridor: its symbol, the spot, the
 * way the corridor runs there, and a lock's key id's centre (page). */
typedef struct bar_spot {
  cb_symbol sym;
  cb_pc_point q;
  double s, ux, uy, idx, idy; /* s: feet along */
  bool led;                   /* set off its corridor: a hairline from (lx, ly) on the page leads it there */
  double lx, ly;
} bar_spot;

/* How far mark s at t feet along door dr's corridor keeps from the marks of b. */
static double clear_at(const cb_symbols *st, const view *v, const mark_boxes *b, const cb_pc_door *dr,
                       cb_symbol s, double t, bar_spot *out) {
  double e[4];
  out->q = point_at(dr->points, dr->npoints, t), out->led = false;
  direction_at(dr->points, dr->npoints, t, &out->ux, &out->uy);
  mark_box(st, v, s, out->q, out->ux, out->uy, e);
  return boxes_clearance(b, -1, e);
}

/* A padlock with no clear spot on its corridor (a secret corridor of 10 ft,
 * the secret door's disc over it end to end) beside it instead, hugging its
 * band at its middle or either end (or a quarter along), on the side clear
 * of the plan's marks, the rooms and the corridors: *out is moved there
 * when that is clearer than `most`. Returns the clearance kept. */
static double beside(const cb_symbols *st, const cb_dungeon *d, const cb_preconnect_proc *pp, const view *v,
                     const mark_boxes *b, const cb_pc_door *dr, double total, double most, bar_spot *out) {
  double w, h;
  cb_symbol_passage_mark(st, CB_SYM_LOCKED, &w, &h);
  const cb_pc_room *own = dr->room >= 1 && dr->room <= pp->nrooms ? &pp->rooms[dr->room - 1] : NULL;
  /* the middle and the ends, the clearest of them; then the quarters while none is clear */
  static const double along[] = {0.5, 0, 1, 0.25, 0.75};
  for (int k = 0; k < 5 && (k < 3 || most < 0); k++)
    for (int side = -1; side <= 1; side += 2) {
      double t = total * along[k], ux, uy, e[4], tx, ty;
      cb_pc_point q = point_at(dr->points, dr->npoints, t);
      direction_at(dr->points, dr->npoints, t, &ux, &uy);
      if (total <= EPS) ux = DX[dr->facing % 4], uy = DY[dr->facing % 4];
      turn(v, -uy * side, ux * side, &tx, &ty);
      double off = v->cw / 2 + st->line + (fabs(tx) * w + fabs(ty) * h) / 2 + 0.5;
      cb_pc_point at = {q.x - uy * side * off / v->scale, q.y + ux * side * off / v->scale};
      mark_box(st, v, CB_SYM_LOCKED, at, ux, uy, e);
      double hw = (e[2] - e[0]) / 2, hh = (e[3] - e[1]) / 2, cx = e[0] + hw, cy = e[1] + hh,
             room = rooms_clearance(st, d, pp, v, cx, cy, hw, hh), c = fmin(boxes_clearance(b, -1, e), room);
      if (own) c = fmin(c, corridor_clearance(st, v, pp, own, cx, cy, hw, hh, c, 0));
      if (room <= 0) c -= 100; /* in a room it reads as the room's */
      if (c > most + 0.25) most = c, out->q = at, out->s = t, out->ux = ux, out->uy = uy;
    }
  return most;
}

/* Page to plan (feet): to_page undone. */
static cb_pc_point from_page(const view *v, double px, double py) {
  double tx = (px - v->ox) / v->scale + v->minx, ty = (py - v->oy) / v->scale + v->miny;
  return v->turned ? (cb_pc_point){ty, -tx} : (cb_pc_point){tx, ty};
}

/* Does a hairline from (x0, y0) to (x1, y1) keep off every corridor's band
 * (those near it: `near`) and every mark of b but those over (ax, ay), the
 * mark it leads to (sampled every half point)? */
static bool hairline_clear(const leg_band *near, int nnear, const mark_boxes *b, double ax, double ay,
                           double x0, double y0, double x1, double y1) {
  int steps = (int)(hypot(x1 - x0, y1 - y0) * 2) + 1;
  for (int i = 0; i <= steps; i++) {
    double x = x0 + (x1 - x0) * i / steps, y = y0 + (y1 - y0) * i / steps;
    if (bands_clearance(near, nnear, false, x, y, 0, 0, 1) < 0) return false;
  }
  for (int k = 0; k < b->n; k++) {
    const double *o = b->box[k];
    bool at_anchor = ax >= o[0] && ax <= o[2] && ay >= o[1] && ay <= o[3];
    if (at_anchor || fmax(x0, x1) <= o[0] || fmin(x0, x1) >= o[2] || fmax(y0, y1) <= o[1] ||
        fmin(y0, y1) >= o[3])
      continue; /* no sample can lie inside it */
    for (int i = 0; i <= steps; i++) {
      double x = x0 + (x1 - x0) * i / steps, y = y0 + (y1 - y0) * i / steps;
      if (x > o[0] && x < o[2] && y > o[1] && y < o[3]) return false;
    }
  }
  return true;
}

/* A padlock that found no clear spot on its corridor nor beside it stands
 * against the mark at its corridor's far end (a secret door's disc over a
 * short corridor) or its middle instead: on a ring round it, half a point
 * out from that mark and then a point and a half at a time (up to 8), at
 * sixteen bearings, the clearest of the first ring that has a spot clear of
 * the plan's marks, the rooms and the corridors; off the first ring a
 * hairline leads it to the mark. As beside. */
static double against(const cb_symbols *st, const cb_dungeon *d, const cb_preconnect_proc *pp, const view *v,
                      const mark_boxes *b, const cb_pc_door *dr, double total, double most, bar_spot *out) {
  const cb_pc_room *own = dr->room >= 1 && dr->room <= pp->nrooms ? &pp->rooms[dr->room - 1] : NULL;
  double ux, uy, e[4], page[2][2];
  cb_pc_point at[2];
  corridor_end(st, v, door_passage(d, dr), dr, total, &at[0], &ux, &uy);
  at[1] = point_at(dr->points, dr->npoints, total / 2);
  if (total <= EPS) ux = DX[dr->facing % 4], uy = DY[dr->facing % 4]; /* rooms touching at the door */
  mark_box(st, v, CB_SYM_LOCKED, at[0], ux, uy, e);
  double hw = (e[2] - e[0]) / 2, hh = (e[3] - e[1]) / 2, inner = fmax(st->badge * 0.62, v->cw / 2 + st->line);
  for (int k = 0; k < 2; k++)
    to_page(v, at[k].x, at[k].y, &page[k][0], &page[k][1]);
  /* the corridors within reach of the rings (and NEAR_CAP beyond), the rooms' reach once */
  double span = inner + 12 + 3 * fmax(hw, hh) + NEAR_CAP,
         box[4] = {fmin(page[0][0], page[1][0]) - span, fmin(page[0][1], page[1][1]) - span,
                   fmax(page[0][0], page[1][0]) + span, fmax(page[0][1], page[1][1]) + span};
  leg_band *near = NULL;
  int nnear = own ? bands_near(st, v, pp, own, box, &near) : 0;
  room_reach *reach = malloc(sizeof *reach * (size_t)(pp->nrooms + 1));
  if (!reach) {
    free(near);
    return most;
  }
  for (int i = 0; i < pp->nrooms; i++)
    reach[i] = reach_of(st, d, v, &pp->rooms[i]);
  for (int ring = 0; ring < 8 && most < 0.5; ring++)
    for (int k = 0; k < 2 * 16; k++) {
      double a = 2 * CB_PI * (k % 16) / 16, ca = cos(a), sa = sin(a), ax = page[k / 16][0],
             ay = page[k / 16][1];
      double out_to = inner + 0.5 + ring * 1.5 + fmin(hw / fmax(fabs(ca), 1e-9), hh / fmax(fabs(sa), 1e-9)),
             x = ax + ca * out_to, y = ay + sa * out_to, f[4] = {x - hw, y - hh, x + hw, y + hh},
             room = INFINITY;
      for (int i = 0; i < pp->nrooms; i++)
        room = reach_nearer(room, &reach[i], x, y, hw, hh);
      double c = fmin(boxes_clearance(b, -1, f), room);
      if (own)
        c = fmin(c, c <= NEAR_CAP ? bands_clearance(near, nnear, false, x, y, hw, hh, c)
                                  : corridor_clearance(st, v, pp, own, x, y, hw, hh, c, 0));
      if (room <= 0) c -= 100; /* in a room it reads as the room's */
      double lx = ax + ca * (inner + 0.5), ly = ay + sa * (inner + 0.5),
             gx = x - ca * (out_to - inner - 0.5 - ring * 1.5),
             gy = y - sa * (out_to - inner - 0.5 - ring * 1.5);
      if (c <= most + 0.25) continue;
      /* a leader across a corridor or another mark: only where nothing better is */
      if (ring > 0 && own && !hairline_clear(near, nnear, b, ax, ay, lx, ly, gx, gy)) c = fmin(c, 0.4);
      if (c <= most + 0.25) continue;
      most = c, out->q = from_page(v, x, y), out->s = total, out->ux = ux, out->uy = uy;
      out->led = ring > 0, out->lx = ax + ca * inner, out->ly = ay + sa * inner;
    }
  free(near), free(reach);
  return most;
}

/* A padlock in a doorway of door dr's corridor instead (its leaf not
 * drawn: leaf[end] the leaf's box among b, -1 for none), where that is
 * clearer than `most`: *taken is the doorway (1 or 2). Returns the
 * clearance kept. */
static double in_doorway(const cb_symbols *st, const view *v, const mark_boxes *b, const cb_pc_door *dr,
                         const int leaf[2], double total, double most, bar_spot *out, int *taken) {
  for (int end = 0; end < 2 && most < 0; end++) {
    cb_pc_point q = end ? dr->points[dr->npoints - 1] : dr->points[0];
    double e[4], c;
    mark_box(st, v, CB_SYM_LOCKED, q, 1, 0, e);
    if (leaf[end] < 0 || (c = boxes_clearance(b, leaf[end], e)) <= most + 0.25) continue;
    most = c, *taken = end + 1, out->q = q, out->s = end ? total : 0, out->led = false;
    if (!end) out->ux = DX[dr->facing % 4], out->uy = DY[dr->facing % 4];
  }
  return most;
}

/* Where bar s goes on door dr's corridor (total feet long): the spot
 * clear_along picks from `from` when its mark lies clear of every other
 * (b), else the spot nearest it, a point at a time either way, that keeps
 * a point clear; a padlock that has none goes in a doorway of its corridor
 * instead of the door's leaf (leaf: their numbers in b, -1 for none), where
 * that is clearer; else the least bad spot. Returns the doorway taken: 1 at
 * the door, 2 at the far end, 0 none. */
static int place_bar(const cb_symbols *st, const cb_dungeon *d, const view *v, const cb_preconnect_proc *pp,
                     const mark_boxes *b, const cb_pc_door *dr, const int leaf[2], cb_symbol s, double from,
                     double total, double step, bar_spot *out) {
  double want = clear_along(pp, dr, from, total, st->badge * 1.2 / v->scale, step / 4), pt = 1 / v->scale;
  double most = clear_at(st, v, b, dr, s, want, out);
  out->s = want;
  for (double k = pt; most < 0 && k <= total + EPS; k += pt)
    for (int side = -1; side <= 1; side += 2) {
      double t = want + side * k, c;
      bar_spot at;
      if (t < -EPS || t > total + EPS) continue;
      if ((c = clear_at(st, v, b, dr, s, fmin(total, fmax(0, t)), &at)) > most + 0.25 || c >= 1)
        most = c, *out = at, out->s = fmin(total, fmax(0, t));
      if (most >= 1) k = INFINITY;
    }
  int taken = 0;
  if (most < 0 && s == CB_SYM_LOCKED) most = beside(st, d, pp, v, b, dr, total, most, out);
  /* rooms touching at the door: the padlock takes the doorway's place where that is clear, before a
   * spot led to it */
  bool touching = total <= EPS && (leaf[0] >= 0 || leaf[1] >= 0);
  if (touching && most < 0 && s == CB_SYM_LOCKED)
    most = in_doorway(st, v, b, dr, leaf, total, most, out, &taken);
  if (most < 0 && s == CB_SYM_LOCKED) {
    double was = most;
    if ((most = against(st, d, pp, v, b, dr, total, most, out)) > was) taken = 0;
  }
  if (!touching && most < 0 && s == CB_SYM_LOCKED) in_doorway(st, v, b, dr, leaf, total, most, out, &taken);
  return taken;
}

/* A lock's key id beside its padlock (b's number `padlock`), on the side
 * clear of the rooms and their numbers (a small room's number runs over its
 * walls) and of the marks and key ids placed before, a little further out
 * when neither side is, then slid along the corridor either way; its box
 * added to b. */
static void place_id(const cb_symbols *st, const cb_dungeon *d, const cb_preconnect_proc *pp, const view *v,
                     mark_boxes *b, int padlock, const char *id, bar_spot *sp) {
  double lw, lh, px, py, tx, ty;
  cb_symbol_label_size(st, id, &lw, &lh);
  to_page(v, sp->q.x, sp->q.y, &px, &py);
  turn(v, -sp->uy, sp->ux, &tx, &ty);
  /* out past the band's edge, or the padlock's shackle, which rises above it, on either side */
  double band = v->cw / 2 + st->line, lock[4], reach[2];
  cb_symbol_mark_box(st, CB_SYM_LOCKED, px, py, sp->ux, sp->uy, v->cw, lock);
  for (int k = 0; k < 2; k++) {
    double sx = k ? -tx : tx, sy = k ? -ty : ty;
    reach[k] = fmax(band, fmax(sx * (sx > 0 ? lock[2] - px : lock[0] - px), 0) +
                              fmax(sy * (sy > 0 ? lock[3] - py : lock[1] - py), 0));
  }
  double label = (fabs(tx) * lw + fabs(ty) * lh) / 2 + 1;
  double best = -INFINITY, hw = lw / 2, hh = lh / 2, slide = (fabs(ty) * lw + fabs(tx) * lh) / 2 + 1;
  sp->idx = px + tx * (reach[0] + label), sp->idy = py + ty * (reach[0] + label);
  for (int t = 0; t < 24 && best < 1; t++) {
    double side = t % 2 ? -1 : 1, out = reach[t % 2] + label + (t % 8 / 2) * lh * 0.5,
           by = t < 8    ? 0
                : t < 16 ? slide
                         : -slide;
    double x = px + side * tx * out + ty * by, y = py + side * ty * out - tx * by,
           e[4] = {x - hw, y - hh, x + hw, y + hh};
    double marks = boxes_clearance(b, padlock, e),
           c = fmin(rooms_clearance(st, d, pp, v, x, y, hw, hh), marks);
    if (marks < 0.5) c -= 100; /* over a mark is worse than on a room's wall */
    if (c > best + 0.5) best = c, sp->idx = x, sp->idy = y;
  }
  double e[4] = {sp->idx - hw, sp->idy - hh, sp->idx + hw, sp->idy + hh};
  add_box(b, e);
}

/* What bars door dr's corridor (locked, soft-locked, trapped, obstructed),
 * total feet long: its marks along it from its door, a badge and a bit
 * apart, clear of the plan's other marks (b, where each is added), and a
 * lock's key id beside its padlock (booklet.md: every mark on every map).
 * Returns how many; *doorway: the doorway a padlock took (place_bar). */
static int place_bars(const cb_symbols *st, const cb_dungeon *d, const cb_preconnect_proc *pp,
                      const cb_passage *ps, const cb_pc_door *dr, const view *v, double total, mark_boxes *b,
                      const int leaf[2], bar_spot *spots, int *doorway) {
  static const unsigned FLAG[] = {CB_FLAG_LOCKED, CB_FLAG_SOFT_LOCKED, CB_FLAG_TRAPPED, CB_FLAG_OBSTRUCTED};
  static const cb_symbol SYM[] = {CB_SYM_LOCKED, CB_SYM_SOFT_LOCKED, CB_SYM_TRAPPED, CB_SYM_OBSTRUCTED};
  double step = st->badge * 1.7 / v->scale, at = st->badge * 1.3 / v->scale;
  int n = 0;
  *doorway = 0;
  for (int k = 0; k < 4; k++) {
    if (!(ps->flags & FLAG[k])) continue;
    bar_spot *sp = &spots[n++];
    sp->led = false;
    const int none[2] = {-1, -1};
    int took = place_bar(st, d, v, pp, b, dr, *doorway ? none : leaf, SYM[k], at, total, step, sp);
    *doorway = *doorway ? *doorway : took;
    sp->sym = SYM[k];
    if (total <= EPS)
      sp->ux = DX[dr->facing % 4], sp->uy = DY[dr->facing % 4]; /* rooms touching at the door */
    double e[4];
    mark_box(st, v, SYM[k], sp->q, sp->ux, sp->uy, e);
    int mine = b->n;
    add_box(b, e);
    at = sp->s + step;
    if (SYM[k] == CB_SYM_LOCKED && ps->lock) place_id(st, d, pp, v, b, mine, ps->lock, sp);
  }
  return n;
}

/* Paper over the upper edge of a corridor running across the page, under
 * a padlock at q: the edge would run through its shackle, which rises above
 * the band (the body covers the rest). */
static void clear_under(cb_page *p, const cb_symbols *st, const view *v, cb_pc_point q) {
  double px, py, e[4];
  to_page(v, q.x, q.y, &px, &py);
  cb_symbol_mark_box(st, CB_SYM_LOCKED, px, py, 1, 0, v->cw, e);
  double top = py - v->cw / 2 - st->line - 0.2;
  if (e[1] >= top) return; /* the shackle keeps inside the band */
  cb_page_rect(p, e[0], top, e[2] - e[0], st->line + 0.4);
  cb_ink paper = cb_ink_fill(st->paper);
  cb_page_ink(p, &paper);
}

static void draw_bars(cb_page *p, const cb_symbols *st, const view *v, const cb_pc_door *dr,
                      const cb_passage *ps, const bar_spot *spots, int n, cb_symbol_set *used) {
  cb_page_role(p, CB_ROLE_PASSAGE_MARK, dr->room, dr->to);
  for (int k = 0; k < n; k++) {
    if (spots[k].led) {
      double px, py;
      to_page(v, spots[k].q.x, spots[k].q.y, &px, &py);
      cb_page_move(p, spots[k].lx, spots[k].ly);
      cb_page_line(p, px, py);
      cb_ink ink = cb_ink_stroke(st->ink, 0.4);
      cb_page_ink(p, &ink);
    }
    if (spots[k].sym == CB_SYM_LOCKED && !spots[k].led && fabs(spots[k].ux) > fabs(spots[k].uy))
      clear_under(p, st, v, spots[k].q);
    mark(p, st, v, spots[k].sym, spots[k].q, spots[k].ux, spots[k].uy, used);
    if (spots[k].sym == CB_SYM_LOCKED && ps->lock)
      cb_symbol_label(p, st, ps->lock, spots[k].idx, spots[k].idy);
  }
  cb_page_role(p, CB_ROLE_NONE, 0, 0);
}

/* What draw_doors works out before it draws: the plan's marks, the leaves
 * of each door's corridor among them, its bars, and the leaves a padlock
 * stands in place of (gone, by their numbers in b). */
typedef struct door_plan {
  mark_boxes b;
  int *leaf; /* two a door: at its door and at its far end (-1: none) */
  bar_spot (*bars)[4];
  int *nbars;
  bool *gone;
} door_plan;

static void door_plan_free(door_plan *dp) {
  free(dp->b.box), free(dp->leaf), free(dp->bars), free(dp->nbars), free(dp->gone);
}

/* Places every door's bars; false when memory ran out. A leaf in the same
 * doorway as one a padlock took goes with it. */
static bool plan_doors(const cb_symbols *st, const cb_dungeon *d, const cb_preconnect_proc *pp, const view *v,
                       door_plan *dp) {
  int cap = 1;
  size_t n = (size_t)pp->ndoors + 1;
  for (int i = 0; i < pp->ndoors; i++)
    cap += 8 + 4 * pp->doors[i].ncrossings;
  *dp = (door_plan){{cb_malloc(sizeof *dp->b.box * (size_t)cap), 0, cap},
                    cb_malloc(sizeof *dp->leaf * 2 * n),
                    cb_malloc(sizeof *dp->bars * n),
                    cb_calloc(n, sizeof *dp->nbars),
                    cb_calloc((size_t)cap, sizeof *dp->gone)};
  if (!dp->b.box || !dp->leaf || !dp->bars || !dp->nbars || !dp->gone) return false;
  plan_marks(st, d, pp, v, &dp->b, dp->leaf);
  for (int i = 0; i < pp->ndoors; i++) {
    const cb_pc_door *dr = &pp->doors[i];
    const cb_passage *ps = door_passage(d, dr);
    int doorway = 0;
    if (dr->npoints < 1 || !door_shown(d, dr) || !ps) continue;
    dp->nbars[i] = place_bars(st, d, pp, ps, dr, v, corridor_length(dr), &dp->b, &dp->leaf[2 * i],
                              dp->bars[i], &doorway);
    if (doorway) dp->gone[dp->leaf[2 * i + doorway - 1]] = true;
  }
  for (int k = 0; k < 2 * pp->ndoors; k++)
    for (int g = 0; g < dp->b.n && dp->leaf[k] >= 0; g++)
      if (dp->gone[g] && same_spot(dp->b.box[g], dp->b.box[dp->leaf[k]])) dp->gone[dp->leaf[k]] = true;
  return true;
}

/* Doors, what bars their corridors, secret doors and dead ends: doors
 * where corridors meet walls (a locked one's padlock in the doorway
 * instead where its corridor has no spot clear for it), secret doors and
 * dead ends where they stop. */
static void draw_doors(cb_page *p, const cb_symbols *st, const cb_dungeon *d, const cb_preconnect_proc *pp,
                       const view *v, cb_symbol_set *used) {
  door_plan dp;
  if (!plan_doors(st, d, pp, v, &dp)) {
    door_plan_free(&dp);
    p->oom = true;
    return;
  }
  for (int i = 0; i < pp->ndoors; i++) {
    const cb_pc_door *dr = &pp->doors[i];
    if (dr->npoints < 1 || !door_shown(d, dr)) continue;
    const cb_passage *ps = door_passage(d, dr);
    double total = corridor_length(dr), ux = 0, uy = 0;
    int f = (int)dr->facing % 4, at = dp.leaf[2 * i], end_leaf = dp.leaf[2 * i + 1];
    if (at < 0 || !dp.gone[at]) mark(p, st, v, CB_SYM_DOOR, dr->points[0], DX[f], DY[f], used);
    if (total <= EPS) continue;
    cb_pc_point end;
    cb_symbol s = corridor_end(st, v, ps, dr, total, &end, &ux, &uy);
    if (end_leaf < 0 || !dp.gone[end_leaf]) mark(p, st, v, s, end, ux, uy, used);
  }
  /* the padlocks and bars over every door: a door drawn later would hide a shackle beside it */
  for (int i = 0; i < pp->ndoors; i++) {
    const cb_pc_door *dr = &pp->doors[i];
    const cb_passage *ps = dr->npoints >= 1 && door_shown(d, dr) ? door_passage(d, dr) : NULL;
    if (ps) draw_bars(p, st, v, dr, ps, dp.bars[i], dp.nbars[i], used);
  }
  for (int i = 0; i < pp->ndoors; i++) {
    const cb_pc_door *dr = &pp->doors[i];
    if (dr->nside != 2 || !door_shown(d, dr)) continue;
    double l = seg_len(dr->side[0], dr->side[1]);
    if (l <= EPS) continue;
    mark(p, st, v, CB_SYM_DEAD_END, dr->side[1], (dr->side[1].x - dr->side[0].x) / l,
         (dr->side[1].y - dr->side[0].y) / l, used);
  }
  door_plan_free(&dp);
}

/* The box of item it on page p: a path's with its stroke, a word's as it
 * stands on its baseline; false when it draws nothing. */
static bool item_box(const cb_page *p, const cb_measure *m, const cb_item *it, double e[4]) {
  if (it->kind == CB_ITEM_TEXT) {
    e[0] = it->x, e[1] = it->y - it->size * 0.7, e[3] = it->y + it->size * 0.2;
    e[2] = it->x + cb_text_width(m, it->font, it->size, it->text);
    return true;
  }
  double h = it->ink.stroke ? it->ink.width / 2 : 0;
  e[0] = e[1] = INFINITY, e[2] = e[3] = -INFINITY;
  for (int k = it->op0; k < it->op0 + it->nops; k++)
    for (int j = 0; j < (p->ops[k].kind == CB_OP_CURVE ? 3 : p->ops[k].kind == CB_OP_CLOSE ? 0 : 1); j++) {
      e[0] = fmin(e[0], p->ops[k].x[j] - h), e[2] = fmax(e[2], p->ops[k].x[j] + h);
      e[1] = fmin(e[1], p->ops[k].y[j] - h), e[3] = fmax(e[3], p->ops[k].y[j] + h);
    }
  return e[0] <= e[2];
}

/* The boxes of what the page draws from item `from` on (the crossings',
 * doors' and corridors' marks), its words first (*words of them), into a
 * new array (*n of them); NULL when out of memory. */
static double (*drawn_boxes(const cb_page *p, const cb_measure *m, int from, int *n, int *words))[4] {
  double(*b)[4] = cb_malloc(sizeof *b * (size_t)(p->nitems - from + 1));
  *n = 0;
  for (int pass = 0; pass < 2 && b; pass++) {
    for (int i = from; i < p->nitems; i++)
      if ((p->items[i].kind == CB_ITEM_TEXT) == !pass && item_box(p, m, &p->items[i], b[*n])) (*n)++;
    if (!pass) *words = *n;
  }
  return b;
}

/* A hairline from the room's wall (a's box) to a badge at (x, y), drawn
 * under it. A badge led from more than three badges away, or from a spot
 * by its room over words (a->cramped), tells the sheet the map is cramped:
 * it is not shrunk to where more are (a shorter leader round a corridor
 * is not a map too small). */
static void lead(cb_page *p, const cb_symbols *st, const spot_ask *a, double x, double y) {
  double sx, sy;
  leader_start(a, x, y, &sx, &sy);
  if (a->cramped || hypot(x - sx, y - sy) > 3 * st->badge) p->cramped++;
  cb_page_move(p, sx, sy);
  cb_page_line(p, x, y);
  cb_ink ink = cb_ink_stroke(st->ink, 0.4);
  cb_page_ink(p, &ink);
}

/* How far room r's number (tw wide, `size` high) centred at (x, y) keeps
 * from the nearest secret door's disc and from the middle of other rooms'
 * corridors (a small room's number runs over its walls, where one may pass),
 * of those near it (`near`, from bands_near for room r); d NULL: from the
 * corridors only. */
static double number_clearance(const cb_symbols *st, const view *v, const cb_dungeon *d,
                               const cb_preconnect_proc *pp, const leg_band *near, int nnear, double x,
                               double y, double tw, double size) {
  double edge = v->cw / 2 + st->line,
         lines = bands_clearance(near, nnear, true, x, y, tw / 2, size * 0.35, 1) + edge;
  return d ? fmin(clearance(st, v, d, pp, x, y, tw, size), lines) : lines;
}

/* The badges placed so far, which the next keep clear of, and the words
 * and marks drawn on the plan (the doors' and crossings', words first). */
typedef struct placed {
  double (*taken)[4];
  int ntaken, cap;
  double (*doors)[4];
  int ndoors, nwords;
  room_index *rooms;
} placed;

/* What a spot for a badge w wide by room r asks, its number's box nb. */
static spot_ask ask_of(const cb_symbols *st, const cb_dungeon *d, const cb_preconnect_proc *pp, const view *v,
                       const cb_pc_room *r, const double nb[4], const double frame[4], const placed *pl,
                       double w) {
  spot_ask a = {.st = st,
                .v = v,
                .pp = pp,
                .r = r,
                .hw = w / 2,
                .hh = st->badge / 2,
                .num = nb,
                .taken = (const double(*)[4])pl->taken,
                .ntaken = pl->ntaken,
                .doors = (const double(*)[4])pl->doors,
                .ndoors = pl->ndoors,
                .nwords = pl->nwords,
                .d = d,
                .frame = {frame[0], frame[1], frame[2], frame[3]},
                .rooms = pl->rooms};
  room_box(&a);
  return a;
}

/* Mark m's badge at (x, y), w wide, filed as placed; drawn when p is given. */
static void draw_badge(cb_page *p, const cb_symbols *st, const cb_map_mark *m, double x, double y, double w,
                       placed *pl, cb_symbol_set *used) {
  if (p) {
    cb_symbol_badge(p, st, m->sym, m->text, x, y);
    *used |= cb_map_mark_symbols(m);
  }
  if (pl->ntaken == pl->cap) return;
  double *e = pl->taken[pl->ntaken++];
  e[0] = x - w / 2, e[1] = y - st->badge / 2, e[2] = x + w / 2, e[3] = y + st->badge / 2;
}

/* A room, its number's box and its marks, as marks_inside places them. */
typedef struct room_ask {
  const cb_pc_room *r;
  double nb[4];
  const cb_map_mark *m;
  int nm;
} room_ask;

/* Room ra's marks that find a spot inside the room along a wall
 * (inside_wall), filed as placed and drawn there when p is given (else
 * only counted: the placed are then as they were); how many. Those that
 * do not go into out (*nout of them, when out is given). */
static int marks_inside(cb_page *p, const cb_symbols *st, const cb_dungeon *d, const cb_preconnect_proc *pp,
                        const view *v, const room_ask *ra, const double frame[4], placed *pl,
                        cb_map_mark *out, int *nout, cb_symbol_set *used) {
  int n = 0, was = pl->ntaken;
  for (int k = 0; k < ra->nm; k++) {
    double bw = cb_symbol_badge_width(st, ra->m[k].sym, ra->m[k].text), ex, ey;
    spot_ask a = ask_of(st, d, pp, v, ra->r, ra->nb, frame, pl, bw);
    /* rooms are drawn over the corridors: none shows inside one */
    if (inside_wall(&a, INSET, 1, &ex, &ey))
      draw_badge(p, st, &ra->m[k], ex, ey, bw, pl, used), n++;
    else if (out)
      out[(*nout)++] = ra->m[k];
  }
  if (!p) pl->ntaken = was;
  return n;
}

static const double ROW_GAP = 0.6; /* between the badges of a row, which read as one mark ("? $") */

/* Does badge a find a spot by its room that needs no leader? */
static bool near_clear(spot_ask a) {
  double x, y;
  return near_spot(a, false, &x, &y) && !strays(&a, x, y);
}

/* How many of the marks from m[0] (n of them) go out of the room as one row
 * of badges (w wide) by room ra: an encounter and its treasure where the
 * encounter alone finds no spot by the room (one leader for both), else one. */
static int row_of(const cb_symbols *st, const cb_dungeon *d, const cb_preconnect_proc *pp, const view *v,
                  const room_ask *ra, const double frame[4], const placed *pl, const cb_map_mark *m, int n,
                  double *w) {
  *w = cb_symbol_badge_width(st, m[0].sym, m[0].text);
  if (n < 2 || m[0].sym != CB_SYM_ENCOUNTER || m[1].sym != CB_SYM_TREASURE ||
      near_clear(ask_of(st, d, pp, v, ra->r, ra->nb, frame, pl, *w)))
    return 1;
  *w += ROW_GAP + cb_symbol_badge_width(st, m[1].sym, m[1].text);
  return 2;
}

/* A room's marks that found no spot inside it (marks_inside), to go by it outside. */
typedef struct marks_out {
  room_ask ra;
  cb_map_mark m[CB_MAP_MAX_MARKS];
  int n;
  double area; /* the room's on the page: the least are placed first */
  int order;   /* the room's in the plan, between rooms of one area */
} marks_out;

/* Room mo's marks (its entrance, goal, keys, encounter, treasure ...) by
 * the room outside (mark_spot; row_of). */
static void marks_outside(cb_page *p, const cb_symbols *st, const cb_dungeon *d, const cb_preconnect_proc *pp,
                          const view *v, const marks_out *mo, const double frame[4], placed *pl,
                          cb_symbol_set *used) {
  const room_ask *ra = &mo->ra;
  cb_page_role(p, CB_ROLE_ROOM_MARK, ra->r->room, 0);
  for (int k = 0, n; k < mo->n; k += n) {
    double w, ex, ey;
    n = row_of(st, d, pp, v, ra, frame, pl, &mo->m[k], mo->n - k, &w);
    spot_ask a = ask_of(st, d, pp, v, ra->r, ra->nb, frame, pl, w);
    a.row = n > 1;
    if (mark_spot(&a, &ex, &ey)) lead(p, st, &a, ex, ey);
    double at = ex - w / 2;
    for (int j = k; j < k + n; j++) {
      double bw = cb_symbol_badge_width(st, mo->m[j].sym, mo->m[j].text);
      draw_badge(p, st, &mo->m[j], at + bw / 2, ey, bw, pl, used);
      at += bw + ROW_GAP;
    }
  }
}

static int by_area(const void *a, const void *b) {
  const marks_out *x = a, *y = b;
  if (x->area != y->area) return (x->area > y->area) - (x->area < y->area);
  return x->order - y->order;
}

/* Where room r's number (tw wide, `size` high) stands: the middle of the
 * room, or the spot nearest it that no secret door's disc covers (of
 * those near it, `near`), into (nx, ny); returns how far it keeps from
 * them (number_clearance). */
static double number_spot(const cb_symbols *st, const cb_dungeon *d, const cb_preconnect_proc *pp,
                          const view *v, const cb_pc_room *r, const leg_band *near, int nnear, double tw,
                          double size, double *nx, double *ny) {
  double cx, cy, rw = r->w * v->scale, rh = r->h * v->scale, most = -INFINITY;
  to_page(v, r->x + r->w / 2, r->y + r->h / 2, &cx, &cy);
  *nx = cx, *ny = cy;
  for (int k = 0; k < 9 && most < 0; k++) {
    double ox = (k % 3 - 1) * (rw - tw) / 3, oy = (k / 3 - 1) * (rh - size) / 3;
    if (k == 0)
      ox = oy = 0;
    else if (k == 4)
      ox = -(rw - tw) / 3, oy = -(rh - size) / 3;
    double room_left = number_clearance(st, v, d, pp, near, nnear, cx + ox, cy + oy, tw, size);
    if (room_left > most) most = room_left, *nx = cx + ox, *ny = cy + oy;
  }
  return most;
}

/* The box a number tw wide, `size` high, centred at (nx, ny) keeps badges out of. */
static void number_box(double nx, double ny, double tw, double size, double nb[4]) {
  nb[0] = nx - tw / 2 - 1, nb[1] = ny - size / 2 - 1, nb[2] = nx + tw / 2 + 1, nb[3] = ny + size / 2 + 1;
}

/* The number's spot (nx, ny) moved off wall `wall` (top, bottom, left,
 * right) just far enough to leave a row of badges (the widest bw wide)
 * room inside along it, its box still in the room; false where it already
 * leaves that room, or the room is too small. */
static bool number_moved(const cb_symbols *st, const view *v, const cb_pc_room *r, int wall, double bw,
                         double tw, double size, double *nx, double *ny) {
  spot_ask a = {.v = v, .r = r};
  room_box(&a);
  bool across = wall < 2; /* a row along the top or bottom: the number moves up or down */
  double band = INSET + (across ? st->badge : bw) + 1, half = (across ? size : tw) / 2 + 1;
  double lo = across ? a.y0 : a.x0, hi = across ? a.y1 : a.x1, *at = across ? ny : nx;
  double to = wall % 2 ? hi - band - half : lo + band + half;
  if ((wall % 2 ? to >= *at : to <= *at) || to - half < lo + 1 || to + half > hi - 1) return false;
  *at = to;
  return true;
}

/* Room r's number where most of its marks find a spot inside (marks_inside):
 * its spot (nx, ny), kept clear by `most` (number_spot), or moved off a
 * wall to make room for them along it, where it keeps as clear, into nb. */
static void number_for_marks(const cb_symbols *st, const cb_dungeon *d, const cb_preconnect_proc *pp,
                             const view *v, room_ask *ra, const leg_band *near, int nnear, double tw,
                             double size, double most, const double frame[4], placed *pl, double *nx,
                             double *ny) {
  double bw = 0;
  for (int k = 0; k < ra->nm; k++)
    bw = fmax(bw, cb_symbol_badge_width(st, ra->m[k].sym, ra->m[k].text));
  number_box(*nx, *ny, tw, size, ra->nb);
  int best = marks_inside(NULL, st, d, pp, v, ra, frame, pl, NULL, NULL, NULL);
  double bx = *nx, by = *ny;
  for (int wall = 0; wall < 4 && best < ra->nm; wall++) {
    double x = *nx, y = *ny;
    if (!number_moved(st, v, ra->r, wall, bw, tw, size, &x, &y) ||
        number_clearance(st, v, d, pp, near, nnear, x, y, tw, size) < fmin(0, most))
      continue;
    number_box(x, y, tw, size, ra->nb);
    int n = marks_inside(NULL, st, d, pp, v, ra, frame, pl, NULL, NULL, NULL);
    if (n > best) best = n, bx = x, by = y;
  }
  *nx = bx, *ny = by;
  number_box(bx, by, tw, size, ra->nb);
}

/* Files the plan's rooms by their boxes on the page (cells some badges a side). -1 on OOM. */
static int index_rooms(room_index *ri, const cb_preconnect_proc *pp, const view *v, double badge) {
  if (!(ri->g = cb_boxgrid_new(fmax(4, badge))) ||
      !(ri->box = cb_malloc(sizeof *ri->box * ((size_t)pp->nrooms + 1))))
    return -1;
  for (int i = 0; i < pp->nrooms; i++) {
    double ax, ay, bx, by, *e = ri->box[i];
    to_page(v, pp->rooms[i].x, pp->rooms[i].y, &ax, &ay);
    to_page(v, pp->rooms[i].x + pp->rooms[i].w, pp->rooms[i].y + pp->rooms[i].h, &bx, &by);
    e[0] = fmin(ax, bx), e[1] = fmin(ay, by), e[2] = fmax(ax, bx), e[3] = fmax(ay, by);
    if (cb_boxgrid_add(ri->g, i, e[0], e[1], e[2], e[3])) return -1;
  }
  return 0;
}

/* Room numbers and their marks, last, the badges clear of the marks drawn
 * from item `from` on and inside the map's box `frame`: each number with
 * the marks that fit inside its room, then the rest by their rooms, the
 * smallest rooms' first (those boxed in by corridors have the fewest spots
 * by them). */
static void draw_numbers(cb_page *p, const cb_symbols *st, const cb_dungeon *d, const cb_preconnect_proc *pp,
                         const view *v, int from, const double frame[4], cb_symbol_set *used) {
  room_index rooms = {0};
  placed pl = {.cap = pp->nrooms * CB_MAP_MAX_MARKS + 1, .rooms = &rooms};
  pl.taken = cb_malloc(sizeof *pl.taken * (size_t)pl.cap);
  pl.doors = drawn_boxes(p, st->m, from, &pl.ndoors, &pl.nwords);
  marks_out *out = cb_calloc((size_t)pp->nrooms + 1, sizeof *out);
  if (!pl.taken || !pl.doors || !out || index_rooms(&rooms, pp, v, st->badge)) {
    free(pl.taken), free(pl.doors), free(out), cb_boxgrid_free(rooms.g), free(rooms.box);
    p->oom = true;
    return;
  }
  int nout = 0;
  for (int i = 0; i < pp->nrooms; i++) {
    const cb_pc_room *r = &pp->rooms[i];
    const cb_room *room = cb_dungeon_room(d, r->room);
    if (!room_shown(d, r->room)) continue;
    char num[16];
    double tw, size = number_of(st, d, v, r, num, &tw), ax, ay, bx, by, nx, ny;
    to_page(v, r->x, r->y, &ax, &ay);
    to_page(v, r->x + r->w, r->y + r->h, &bx, &by);
    /* the corridors that may come near the number, wherever in the room it stands */
    const double around[4] = {fmin(ax, bx) - tw - size - 2, fmin(ay, by) - tw - size - 2,
                              fmax(ax, bx) + tw + size + 2, fmax(ay, by) + tw + size + 2};
    leg_band *near = NULL;
    int nnear = bands_near(st, v, pp, r, around, &near);
    double most = number_spot(st, d, pp, v, r, near, nnear, tw, size, &nx, &ny);
    cb_map_mark marks[CB_MAP_MAX_MARKS];
    room_ask ra = {.r = r, .m = marks, .nm = room ? cb_map_room_marks(p, d, room, marks) : 0};
    number_for_marks(st, d, pp, v, &ra, near, nnear, tw, size, most, frame, &pl, &nx, &ny);
    /* a number over another room's corridor wherever it stands: too small a map */
    if (number_clearance(st, v, NULL, pp, near, nnear, nx, ny, tw, size) < 0) p->cramped++;
    free(near);
    cb_page_role(p, CB_ROLE_NUMBER, r->room, 0);
    cb_page_text(p, CB_FONT_BOLD, size, nx - tw / 2, ny + size * 0.34, st->ink, num);
    cb_page_role(p, CB_ROLE_ROOM_MARK, r->room, 0);
    marks_out *mo = &out[nout];
    marks_inside(p, st, d, pp, v, &ra, frame, &pl, mo->m, &mo->n, used);
    mo->ra = ra, mo->ra.m = NULL, mo->area = fabs(bx - ax) * fabs(by - ay), mo->order = i;
    nout += mo->n > 0;
  }
  qsort(out, (size_t)nout, sizeof *out, by_area);
  for (int i = 0; i < nout; i++)
    marks_outside(p, st, d, pp, v, &out[i], frame, &pl, used);
  free(pl.taken), free(pl.doors), free(out), cb_boxgrid_free(rooms.g), free(rooms.box), free(rooms.ids);
  cb_page_role(p, CB_ROLE_NONE, 0, 0);
}

/* A scale bar standing under the north arrow, in its column (cx its middle,
 * from y down at most `room` points): 10-ft lengths, black and white, the
 * feet it spans at its foot. */
static void scale_bar(cb_page *p, const cb_symbols *st, const view *v, double cx, double y, double room) {
  int feet = 100;
  while (feet > 20 && feet * v->scale > room - 12)
    feet /= 2;
  if (feet * v->scale < 8) return;
  double seg = 10 * v->scale, bw = 4;
  for (int i = 0; i * 10 < feet; i++) {
    cb_page_rect(p, cx - bw / 2, y + i * seg, bw, fmin(seg, (feet - i * 10) * v->scale));
    cb_ink box = {.fill = true,
                  .stroke = true,
                  .fill_color = i % 2 ? st->paper : st->ink,
                  .stroke_color = st->ink,
                  .width = 0.5};
    cb_page_ink(p, &box);
  }
  char lab[16];
  snprintf(lab, sizeof lab, "%d ft", feet);
  double tw = cb_text_width(st->m, CB_FONT_REGULAR, 7, lab);
  cb_page_text(p, CB_FONT_REGULAR, 7, cx - tw / 2, y + feet * v->scale + 8, st->ink, lab);
}

void cb_corridors_draw(cb_page *p, const cb_symbols *st, const cb_dungeon *d, int level, double x, double y,
                       double w, double h, cb_symbol_set *used) {
  const cb_preconnect_proc *pp = cb_preconnect_of(d);
  if (!pp || pp->nrooms == 0) {
    cb_map_draw(p, st, d, level, x, y, w, h, used);
    return;
  }
  double minx, miny, maxx, maxy;
  extent(pp, &minx, &miny, &maxx, &maxy);
  view v = {0};
  double arrow = st->badge * 2.5; /* the north arrow's column on the right */
  double pw = maxx - minx, ph = maxy - miny, aw = w - 2 * MARGIN_PT - arrow, ah = h - 2 * MARGIN_PT;
  /* north stays up: the key speaks of compass directions */
  v.turned = false;
  v.scale = fmin(MAX_SCALE, fmin(aw / pw, ah / ph));
  double turned_w = v.turned ? ph : pw, turned_h = v.turned ? pw : ph;
  v.minx = v.turned ? -maxy : minx, v.miny = v.turned ? minx : miny;
  v.ox = x + (w - arrow - turned_w * v.scale) / 2;
  v.oy = y + (h - turned_h * v.scale) / 2;
  v.cw = fmax(2.5, fmin(8, CORRIDOR_FT * v.scale));
  grid(p, &v, minx, miny, maxx, maxy);

  draw_corridors(p, st, d, pp, &v, used);
  draw_rooms(p, st, d, pp, &v);
  int from = p->nitems; /* the marks on the corridors, which badges keep off where they can */
  draw_crossings(p, st, d, pp, &v, used);
  draw_doors(p, st, d, pp, &v, used);
  cb_symbol_north(p, st, x + w - arrow / 2, y + MARGIN_PT + st->badge, v.turned ? 1 : 0,
                  -1 + (v.turned ? 1 : 0));
  double bar_y = y + MARGIN_PT + st->badge * 3.4;
  scale_bar(p, st, &v, x + w - arrow / 2, bar_y, y + h - MARGIN_PT - bar_y);

  const double frame[4] = {x + 2, y + 2, x + w - arrow, y + h - 2};
  draw_numbers(p, st, d, pp, &v, from, frame, used);
}

static size_t add(char *buf, size_t cap, size_t n, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static size_t add(char *buf, size_t cap, size_t n, const char *fmt, ...) {
  if (n >= cap) return n;
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(buf + n, cap - n, fmt, ap);
  va_end(ap);
  return k < 0 ? n : n + (size_t)k;
}

void cb_corridors_key_note(const cb_dungeon *d, const cb_room *r, char *buf, size_t cap) {
  const cb_preconnect_proc *pp = cb_preconnect_of(d);
  size_t n = 0;
  buf[0] = '\0';
  if (!pp) return;
  int count = 0;
  for (int i = 0; i < pp->ndoors; i++) {
    const cb_pc_door *dr = &pp->doors[i];
    if (dr->room != r->id || dr->nrolls < 1) continue;
    const cb_passage *ps = door_passage(d, dr);
    n = add(buf, cap, n, "%s%s %d", count ? "; " : "Doors (d10): ", FACING_WORD[dr->facing % 4],
            dr->rolls[0] % 10);
    for (int k = 0; k + 1 < dr->nrolls; k++)
      if (dr->via[k]) n = add(buf, cap, n, " (distant: room %d) then %d", dr->via[k], dr->rolls[k + 1] % 10);
    if (dr->destination) n = add(buf, cap, n, " \xe2\x86\x92 %d", dr->destination);
    if (dr->new_room)
      n = add(buf, cap, n, ", new room %d", dr->to);
    else if (ps && (ps->flags & CB_FLAG_DEAD_END))
      n = add(buf, cap, n, ", dead end");
    else if (ps && (ps->flags & CB_FLAG_SECRET))
      n = add(buf, cap, n, ", secret door into %d", dr->to);
    else if (dr->reread)
      n = add(buf, cap, n, ", read as %d", dr->to);
    else if (dr->to == dr->room)
      n = add(buf, cap, n, ", a loop");
    if (dr->postponed) n = add(buf, cap, n, ", postponed");
    if (dr->extra) n = add(buf, cap, n, ", added");
    for (int k = 0; k < dr->ncrossings; k++) {
      const cb_pc_crossing *c = &dr->crossings[k];
      n = add(buf, cap, n, "%s%d %s", k ? ", " : " (crossings: ", c->roll % 10,
              c->result == CB_CROSS_SECRET ? "secret" : cb_crossing_result_name(c->result));
      if (k + 1 == dr->ncrossings) n = add(buf, cap, n, ")");
    }
    count++;
  }
  if (count) add(buf, cap, n, ".");
}

/* What preconnect draws beyond the generic sheet (its row in the registry). */
const cb_layout_hooks cb_preconnect_layout = {.map = {cb_corridors_draw, cb_corridors_height},
                                              .key_note = cb_corridors_key_note};
