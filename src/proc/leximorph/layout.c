#include "layout.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout/map.h"
#include "marks.h"
#include "page/flow.h"
#include "proc.h"
#include "sketch.h"

static const cb_rgb GRID = {0.80, 0.87, 0.94}, SECTOR = {0.50, 0.58, 0.68}, LABEL = {0.42, 0.42, 0.42},
                    LETTER = {0.62, 0.66, 0.72};
static const double TITLE_SIZE = 15, NOTE_SIZE = 8.2, LEGEND_SIZE = 8;
static const double CAPTION_SIZE = 7; /* a sector's words: the least we print */
static const double TUNNEL_FT = 10, ROOM_FT = 15, SQUARE_FT = 10;

/* A mark's box on the page (centre, half sides) and what covering it costs. */
typedef struct spot {
  double x, y, hw, hh, weight;
} spot;
/* The weights: a room or its badge, a word (T, S), a sign (a door leaf,
 * debris, a junction's dot), a line's mark (a wall's hatch, a side passage);
 * a sector's caption weighs 2 ft of tunnel as 10 (label_hits) */
static const double FIRM = 1000, WORD = 600, SIGN = 20, LINE = 5;
/* What a room's row or a padlock may cover and stay where it is: a little of a junction's dot or a
 * wall's hatch (10 points square of a sign's weight); more is a cover of a room or another mark. */
#define HEAVY (10 * SIGN)

/* A door's mark: `where` along its corridor (0..1), or, where the corridor
 * has no room for it, beside the corridor's foot at (x, y) on the tunnel wall. */
typedef struct door_place {
  double where, x, y;
} door_place;

/* Where place_marks put the marks, so that none covers another or a room;
 * NULL arrays leave every mark where it was rolled. */
typedef struct placed {
  spot *spots;       /* every mark placed so far, rooms first */
  int nspots, boxes; /* boxes: the first room's box among the spots */
  int *near, nnear;  /* while one mark is placed: the spots it could touch (gather) */
  bool local;
  struct near_segment *segs; /* while a caption is placed: the segments of tunnels and passages */
  int nsegs;                 /* it could touch, and their samples (gather_segments) */
  double *samples;
  size_t nsamples, cap_samples;
  double *junction;  /* 2 per junction: its mark's centre, page points */
  door_place *wall;  /* 2 per wall: its door's mark on the corridor to each room */
  door_place *jdoor; /* per junction: its door's mark on the corridor to its room */
  double *stub;      /* 2 per door: where its mark sits, on its stub or beside it, page points */
  double *row; /* per room: where each of its row's marks sits (CB_MAP_MAX_MARKS centres; NAN: not placed) */
  struct tunnel_lock *locks; /* the padlocks of locked ways on their tunnels (tunnel_locks) */
  int nlocks;
  long budget; /* box comparisons left: a sketch of thousands of marks heaped together
                  (a hand-made JSON) leaves the rest where they were rolled, in time */
} placed;
/* Far more than a sheet of a hundred rooms needs (some 10^5). */
static const long PLACING_BUDGET = 20000000;

typedef struct view {
  double s, ox, oy; /* points per foot, page position of (0, 0) */
  double tw, room;  /* tunnel width and room side, points */
  double *at;       /* each room box's centre (x, y pairs, page points); NULL: at its junction */
  double frame[4];  /* the map's frame (x0, y0, x1, y1), marks kept inside; x0 > x1: none */
  placed pl;
} view;

/* The sketch's paper colours, in grey of the same lightness under the ink style. */
static cb_rgb shade(const cb_symbols *st, cb_rgb c) {
  if (st->accent) return c;
  double y = 0.2126 * c.r + 0.7152 * c.g + 0.0722 * c.b;
  return (cb_rgb){y, y, y};
}

static double px(const view *v, double x) { return v->ox + x * v->s; }
static double py(const view *v, double y) { return v->oy + y * v->s; }

/* Where room i's box is drawn (settle_rooms). */
static double rx_of(const view *v, const cb_dungeon *d, const cb_room *r) {
  return v->at ? v->at[2 * (r - d->rooms)] : px(v, r->x);
}
static double ry_of(const view *v, const cb_dungeon *d, const cb_room *r) {
  return v->at ? v->at[2 * (r - d->rooms) + 1] : py(v, r->y);
}

/* A room's box by its x, for qsort (which has no context). */
typedef struct box_x {
  double x;
  int room;
} box_x;

static int by_x(const void *a, const void *b) {
  double xa = ((const box_x *)a)->x, xb = ((const box_x *)b)->x;
  return (xa > xb) - (xa < xb);
}

/* order sorted by the boxes' x in at, as qsort leaves it (key: n of scratch). */
static void sort_by_x(int *order, box_x *key, const double *at, int n) {
  for (int k = 0; k < n; k++)
    key[k] = (box_x){at[2 * order[k]], order[k]};
  qsort(key, (size_t)n, sizeof *key, by_x);
  for (int k = 0; k < n; k++)
    order[k] = key[k].room;
}

/* Two room boxes that would overlap at this scale (rooms a few feet apart,
 * or a small sketch) are pushed apart along the axis they overlap least on,
 * a little each round, so every number reads: a settled sketch moves a box
 * by a fraction of its side; the door still runs to where the box sits. */
static void settle_rooms(const cb_dungeon *d, view *v) {
  int n = d->nrooms;
  double *at = n > 0 ? malloc(sizeof *at * 2 * (size_t)n) : NULL;
  int *order = n > 0 ? malloc(sizeof *order * (size_t)n) : NULL;
  box_x *key = n > 0 ? malloc(sizeof *key * (size_t)n) : NULL;
  if (!at || !order || !key) {
    free(at), free(order), free(key);
    return; /* out of memory: the boxes stay on their junctions */
  }
  for (int i = 0; i < n; i++)
    at[2 * i] = px(v, d->rooms[i].x), at[2 * i + 1] = py(v, d->rooms[i].y), order[i] = i;
  double side = v->room + 1.5;
  for (int round = 0; round < 60; round++) {
    sort_by_x(order, key, at, n);
    bool moved = false;
    for (int a = 0; a < n; a++)
      for (int b = a + 1; b < n && at[2 * order[b]] - at[2 * order[a]] < side; b++) {
        int i = order[a], j = order[b];
        double dx = at[2 * j] - at[2 * i], dy = at[2 * j + 1] - at[2 * i + 1];
        double ox = side - fabs(dx), oy = side - fabs(dy);
        if (ox <= 0 || oy <= 0) continue;
        int axis = ox < oy ? 0 : 1;
        double push = fmin(ox, oy) / 2 + 0.05, dir = (axis ? dy : dx) < 0 ? -1 : 1;
        if ((axis ? dy : dx) == 0) dir = i < j ? 1 : -1;
        at[2 * i + axis] -= dir * push, at[2 * j + axis] += dir * push;
        moved = true;
      }
    if (!moved) break;
  }
  free(order);
  free(key);
  v->at = at;
}

static const char *short_turn(int rotation) {
  static const char *const w[] = {"", "upright", "turned 90\xc2\xb0 clockwise", "upside down",
                                  "turned 90\xc2\xb0 counter-clockwise"};
  return rotation >= 1 && rotation <= 4 ? w[rotation] : "";
}

/* A stretch of tunnel near a caption's places: its bounds on the page and
 * its samples (every 2 ft) that lie near them: from samples[2 * first] to
 * samples[2 * end]. */
typedef struct near_segment {
  double x0, y0, x1, y1;
  size_t first, end;
} near_segment;

/* How much of the tunnels and the passages beyond doors (a tunnel over a
 * word hides it: each sample 10) and of the placed marks (by their weight)
 * lies inside the box: of those gathered near it (gather_segments). The
 * count stops early at `enough`. */
static int label_hits(view *v, double x0, double y0, double x1, double y1, int enough) {
  const placed *pl = &v->pl;
  int hits = 0;
  v->pl.budget -= v->pl.nspots; /* charged as every placed mark: the places tried at 5 x 5 stay as many */
  /* the rooms and their badges, and the marks along the tunnels (a secret door's S, a trap's T) */
  for (int k = 0; k < pl->nnear && hits < enough; k++) {
    const spot *o = &pl->spots[pl->near[k]];
    double rx = o->hw + 2, ry = o->hh + 2;
    if (o->x + rx >= x0 && o->x - rx <= x1 && o->y + ry >= y0 && o->y - ry <= y1) hits += (int)o->weight;
  }
  for (int k = 0; k < pl->nsegs && hits < enough; k++) {
    const near_segment *g = &pl->segs[k];
    if (g->x1 < x0 || g->x0 > x1 || g->y1 < y0 || g->y0 > y1) continue; /* the segment misses the box */
    for (size_t i = g->first; i < g->end; i++) {
      double x = pl->samples[2 * i], y = pl->samples[2 * i + 1];
      hits += (x >= x0 && x <= x1 && y >= y0 && y <= y1) * 10;
    }
  }
  return hits;
}

/* Segment a-b if it reaches the box, with its samples inside the box; false on running out of memory. */
static bool gather_segment(placed *pl, const view *v, const cb_sketch_point *a, const cb_sketch_point *b,
                           const double box[4]) {
  double ax = a->x, ay = a->y, bx = b->x, by = b->y;
  near_segment g = {fmin(px(v, ax), px(v, bx)),
                    fmin(py(v, ay), py(v, by)),
                    fmax(px(v, ax), px(v, bx)),
                    fmax(py(v, ay), py(v, by)),
                    pl->nsamples,
                    pl->nsamples};
  if (g.x1 < box[0] || g.x0 > box[2] || g.y1 < box[1] || g.y0 > box[3]) return true;
  int n = (int)fmin(200, hypot(bx - ax, by - ay) / 2) + 1; /* a hand-made sketch may hold long strokes */
  if (pl->nsamples + (size_t)n + 1 > pl->cap_samples) {
    size_t cap = 2 * (pl->nsamples + (size_t)n + 1);
    double *more = realloc(pl->samples, sizeof *more * 2 * cap);
    if (!more) return false;
    pl->samples = more, pl->cap_samples = cap;
  }
  for (int k = 0; k <= n; k++) {
    double x = px(v, ax + (bx - ax) * k / n), y = py(v, ay + (by - ay) * k / n);
    if (x >= box[0] && x <= box[2] && y >= box[1] && y <= box[3])
      pl->samples[2 * g.end] = x, pl->samples[2 * g.end + 1] = y, g.end++;
  }
  pl->nsamples = g.end;
  pl->segs[pl->nsegs++] = g;
  return true;
}

/* The placed marks and the stretches of the tunnels and of the passages
 * beyond doors that could touch a box within `box` (x0, y0, x1, y1): what a
 * caption's places are compared with (label_hits), each place a few
 * hundred boxes and samples instead of every mark and tunnel of the sketch. */
static void gather_segments(const cb_sketch *sk, view *v, const double box[4]) {
  placed *pl = &v->pl;
  pl->nnear = pl->nsegs = 0, pl->nsamples = 0;
  if (!pl->spots) return; /* out of memory: the captions stay in their corners */
  for (int i = 0; i < pl->nspots; i++) {
    const spot *o = &pl->spots[i];
    double rx = o->hw + 2, ry = o->hh + 2;
    if (o->x + rx >= box[0] && o->x - rx <= box[2] && o->y + ry >= box[1] && o->y - ry <= box[3])
      pl->near[pl->nnear++] = i;
  }
  pl->local = true;
  bool ok = true;
  for (int t = 0; t < sk->ntunnels; t++)
    for (int i = 0; ok && i + 1 < sk->tunnels[t].npoints; i++)
      ok = gather_segment(pl, v, &sk->tunnels[t].points[i], &sk->tunnels[t].points[i + 1], box);
  for (int i = 0; i < sk->ndoors; i++)
    for (int k = 0; ok && k + 1 < CB_STUB_POINTS && !sk->doors[i].room; k++)
      ok = gather_segment(pl, v, &sk->doors[i].stub[k], &sk->doors[i].stub[k + 1], box);
  if (!ok) pl->nsegs = 0; /* out of memory: the captions see the marks alone */
}

/* Where in sector s its caption (size: width, height below its top line,
 * height above it) covers the least tunnel and no mark: a corner, else the
 * clearest of a 13 x 13 grid of places; `inset` from the sector's sides.
 * Returns what it covers there (label_hits). */
static int caption_at(const cb_sketch *sk, view *v, const cb_sketch_sector *s, const double size[3],
                      double inset, double *best_x, double *best_y) {
  double w = size[0], h = size[1], lift = size[2], side = sk->sector_ft * v->s;
  double x0 = px(v, (s->col - 1) * sk->sector_ft), y0 = py(v, (s->row - 1) * sk->sector_ft);
  double left = x0 + inset, right = fmax(left, x0 + side - w - inset), top = y0 + lift,
         bottom = fmax(top, y0 + side - h - 2);
  int best = -1;
  *best_x = left, *best_y = top;
  /* every place's box lies in this one (a point wider for rounding) */
  gather_segments(sk, v,
                  (double[4]){left - v->tw / 2 - 1, top - lift - v->tw / 2 - 1, right + w + v->tw / 2 + 1,
                              bottom + h + v->tw / 2 + 1});
  for (int c = 0; c < 4 + 169 && best != 0 && (c == 0 || v->pl.budget > 0); c++) {
    double fx = c < 4 ? c % 2 : (c - 4) % 13 / 12.0, fy = c < 4 ? c / 2 : (c - 4) / 13 / 12.0;
    double x = left + (right - left) * fx, y = top + (bottom - top) * fy;
    int hits = label_hits(v, x - v->tw / 2, y - lift - v->tw / 2, x + w + v->tw / 2, y + h + v->tw / 2,
                          best < 0 ? INT_MAX : best);
    if (best < 0 || hits < best) best = hits, *best_x = x, *best_y = y;
  }
  return best;
}

static void put(placed *pl, spot c);

/* Graph paper and the sector grid. */
static void paper(cb_page *p, const cb_symbols *st, const cb_sketch *sk, const view *v) {
  double W = sk->cols * sk->sector_ft, H = sk->rows * sk->sector_ft;
  int nx = (int)floor(W / SQUARE_FT + 1e-9), ny = (int)floor(H / SQUARE_FT + 1e-9);
  if (SQUARE_FT * v->s >= 3) {
    for (int i = 0; i <= nx; i++)
      cb_page_move(p, px(v, i * SQUARE_FT), py(v, 0)), cb_page_line(p, px(v, i * SQUARE_FT), py(v, H));
    for (int j = 0; j <= ny; j++)
      cb_page_move(p, px(v, 0), py(v, j * SQUARE_FT)), cb_page_line(p, px(v, W), py(v, j * SQUARE_FT));
    cb_ink g = cb_ink_stroke(shade(st, GRID), 0.3);
    cb_page_ink(p, &g);
  }
  for (int c = 1; c < sk->cols; c++)
    cb_page_move(p, px(v, c * sk->sector_ft), py(v, 0)), cb_page_line(p, px(v, c * sk->sector_ft), py(v, H));
  for (int r = 1; r < sk->rows; r++)
    cb_page_move(p, px(v, 0), py(v, r * sk->sector_ft)), cb_page_line(p, px(v, W), py(v, r * sk->sector_ft));
  cb_ink sec = cb_ink_stroke(shade(st, SECTOR), 0.7);
  sec.dash[0] = 4, sec.dash[1] = 3, sec.ndash = 2;
  cb_page_ink(p, &sec);
  cb_page_rect(p, px(v, 0), py(v, 0), W * v->s, H * v->s);
  cb_ink border = cb_ink_stroke(shade(st, SECTOR), 0.8);
  cb_page_ink(p, &border);
}

/* Sector s's caption in form 0: "sector c,r" above "d10 2, d4 3: upside
 * down" (the words let go on a small sketch), 1: without the words, 2: the
 * rolls alone on one line, 3: the letter alone (where the tunnels leave no
 * room for more: the procedure log keeps the rolls). Returns its width;
 * lines[0] is "" for one line, both for the letter alone. */
static double caption_form(const cb_symbols *st, const cb_sketch_sector *s, int form, double side, double lw,
                           char lines[2][96]) {
  const double small = CAPTION_SIZE;
  if (form == 3) {
    lines[0][0] = lines[1][0] = '\0';
    return lw - small * 0.5;
  }
  if (form < 2)
    snprintf(lines[0], 96, "sector %d,%d", s->col, s->row);
  else
    lines[0][0] = '\0';
  /* the rolls as "d10 2, d4 1:" so that no word on the map is a bare number but a room's */
  if (!s->roll)
    snprintf(lines[1], 96, "%s", short_turn(s->rotation));
  else if (form == 0)
    snprintf(lines[1], 96, "d10 %d, d4 %d: %s", s->roll, s->rotation, short_turn(s->rotation));
  else
    snprintf(lines[1], 96, "d10 %d, d4 %d", s->roll, s->rotation);
  double w = lw + fmax(cb_text_width(st->m, CB_FONT_ITALIC, small, lines[0]),
                       cb_text_width(st->m, CB_FONT_ITALIC, small, lines[1]));
  /* a small sketch keeps the rolls and lets the words go: the caption stays in its sector */
  return form == 0 && s->roll && w > side * 0.6 ? caption_form(st, s, 1, side, lw, lines) : w;
}

/* Sector s's letter and rolls where they cover the least: the first form
 * (caption_form) that covers no tunnel, word or room, else the one that
 * covers least. The caption then joins the placed marks, so the next keeps clear. */
static void caption(cb_page *p, const cb_symbols *st, const cb_sketch *sk, view *v,
                    const cb_sketch_sector *s) {
  double side = sk->sector_ft * v->s, big = fmax(9, fmin(22, side * 0.11)), small = CAPTION_SIZE;
  char lines[2][96] = {"", ""};
  double x = 0, y = 0, w = 0, lift = 0, size = big, lw = 0;
  int best = -1;
  /* form 4: the letter alone at the least size we print, where at its own it lies on a tunnel (a
   * tunnel's sample weighs 10) */
  for (int form = 0; form < 5 && (best < 0 || best >= (form < 4 ? 1 : 10)); form++) {
    char l[2][96];
    double b = form < 4 ? big : small, blw = cb_text_width(st->m, CB_FONT_BOLD, b, s->letter) + small * 0.5;
    double fw = caption_form(st, s, form < 4 ? form : 3, side, blw, l), fx, fy;
    /* from its top (a first line stands above a small letter) down to the letter's foot */
    double flift = l[0][0] ? fmax(0, small * 1.9 - b * 0.95) : 0;
    int hits = caption_at(sk, v, s, (double[3]){fw, b * 1.15, flift}, small * 0.6, &fx, &fy);
    if (best < 0 || hits < best) {
      best = hits, x = fx, y = fy, w = fw, lift = flift, size = b, lw = blw;
      memcpy(lines, l, sizeof l);
    }
  }
  double h = size * 1.15;
  if (v->pl.spots) put(&v->pl, (spot){x + w / 2, y + (h - lift) / 2, w / 2, (h + lift) / 2, FIRM});
  cb_page_text(p, CB_FONT_BOLD, size, x, y + size * 0.95, shade(st, LETTER), s->letter);
  if (lines[0][0])
    cb_page_text(p, CB_FONT_ITALIC, small, x + lw, y + size * 0.95 - small * 1.15, LABEL, lines[0]);
  if (lines[1][0]) cb_page_text(p, CB_FONT_ITALIC, small, x + lw, y + size * 0.95, LABEL, lines[1]);
}

static void tunnels(cb_page *p, const cb_symbols *st, const cb_sketch *sk, const view *v, int pass) {
  for (int t = 0; t < sk->ntunnels; t++) {
    const cb_sketch_tunnel *tu = &sk->tunnels[t];
    double buf[512];
    int n = tu->npoints;
    for (int start = 0; start < n - 1; start += 255) {
      int m = n - start > 256 ? 256 : n - start;
      for (int i = 0; i < m; i++)
        buf[2 * i] = px(v, tu->points[start + i].x), buf[2 * i + 1] = py(v, tu->points[start + i].y);
      cb_symbol_tunnel(p, st, buf, m, v->tw, pass, 0);
    }
  }
}

/* How near tunnel t passes to (x, y), in feet, and where: the segment from
 * point *seg and the fraction *f along it. */
static double nearest(const cb_sketch_tunnel *t, double x, double y, int *seg, double *f) {
  double best = INFINITY;
  *seg = 0, *f = 0;
  for (int i = 0; i + 1 < t->npoints; i++) {
    double ax = t->points[i].x, ay = t->points[i].y, dx = t->points[i + 1].x - ax,
           dy = t->points[i + 1].y - ay;
    double l2 = dx * dx + dy * dy;
    if (l2 <= 0) continue;
    double g = ((x - ax) * dx + (y - ay) * dy) / l2;
    g = g < 0 ? 0 : g > 1 ? 1 : g;
    double d = hypot(ax + dx * g - x, ay + dy * g - y);
    if (d < best - 1e-9) best = d, *seg = i, *f = g;
  }
  return best;
}

/* The direction of tunnel t where it passes nearest to (x, y). */
static void direction_at(const cb_sketch_tunnel *t, double x, double y, double *ux, double *uy) {
  int i;
  double f;
  *ux = 1, *uy = 0;
  if (nearest(t, x, y, &i, &f) == INFINITY) return;
  double dx = t->points[i + 1].x - t->points[i].x, dy = t->points[i + 1].y - t->points[i].y,
         l = hypot(dx, dy);
  *ux = dx / l, *uy = dy / l;
}

/* The point `feet` along tunnel t (back for a negative distance) from the
 * fraction f of its segment from point i (where it passes nearest to a
 * point: nearest); its end where the tunnel ends first. */
static cb_sketch_point walk(const cb_sketch_tunnel *t, int i, double f, double feet) {
  int dir = feet < 0 ? -1 : 1;
  const cb_sketch_point *q = t->points;
  double len = hypot(q[i + 1].x - q[i].x, q[i + 1].y - q[i].y), left = fabs(feet);
  double at = dir > 0 ? len * (1 - f) : len * f; /* to go to the segment's end that way */
  while (left > at && i + dir >= 0 && i + dir + 1 < t->npoints) {
    left -= at, i += dir;
    at = len = hypot(q[i + 1].x - q[i].x, q[i + 1].y - q[i].y);
    f = dir > 0 ? 0 : 1;
  }
  double g = len > 0 ? f + dir * fmin(left, at) / len : f;
  return (cb_sketch_point){q[i].x + (q[i + 1].x - q[i].x) * g, q[i].y + (q[i + 1].y - q[i].y) * g};
}

static const cb_room *room_of(const cb_dungeon *d, int id) { return id ? cb_dungeon_room(d, id) : NULL; }

/* The corridor from the tunnel wall at (wx, wy) to the edge of room r's box
 * (xy: from, to); false when the box covers the wall. */
static bool corridor(const view *v, const cb_dungeon *d, double wx, double wy, const cb_room *r,
                     double xy[4]) {
  double rx = rx_of(v, d, r), ry = ry_of(v, d, r), dx = rx - wx, dy = ry - wy, l = hypot(dx, dy);
  if (l <= v->room / 2 + 1) return false;
  double ux = dx / l, uy = dy / l;
  /* the room's edge along the way: a square's side */
  double edge = v->room / 2 / fmax(fabs(ux), fabs(uy));
  xy[0] = wx, xy[1] = wy, xy[2] = rx - ux * edge, xy[3] = ry - uy * edge;
  return true;
}

/* A wall result's place: its point on the centre line (x, y), the tunnel's
 * direction (u) and the normal towards its wall (n), page points. */
typedef struct wall_frame {
  double x, y, ux, uy, nx, ny;
} wall_frame;

static wall_frame frame_of(const cb_sketch *sk, const view *v, const cb_sketch_wall *w) {
  wall_frame f;
  direction_at(&sk->tunnels[w->tunnel], w->x, w->y, &f.ux, &f.uy);
  f.nx = w->right ? -f.uy : f.uy, f.ny = w->right ? f.ux : -f.ux, f.x = px(v, w->x), f.y = py(v, w->y);
  return f;
}

/* The corridor through wall w's door to its room r: the door sits in the wall level with its room. */
static bool wall_corridor(const view *v, const cb_dungeon *d, const wall_frame *f, double tw,
                          const cb_room *r, double xy[4]) {
  double wx = f->x + f->nx * tw / 2, wy = f->y + f->ny * tw / 2;
  double along = (rx_of(v, d, r) - wx) * f->ux + (ry_of(v, d, r) - wy) * f->uy;
  return corridor(v, d, wx + f->ux * along, wy + f->uy * along, r, xy);
}

/* The corridor from junction J's wall to the room behind its door. */
static bool junction_corridor(const view *v, const cb_dungeon *d, const cb_sketch_junction *J,
                              const cb_room *r, double xy[4]) {
  double x = px(v, J->x), y = py(v, J->y), dx = rx_of(v, d, r) - x, dy = ry_of(v, d, r) - y,
         l = hypot(dx, dy);
  return l > 0 && corridor(v, d, x + dx / l * v->tw / 2, y + dy / l * v->tw / 2, r, xy);
}

/* A room's marks on the sketch: its tags and keys as every map shows them,
 * then a padlock with the key id for each locked way out of it whose padlock
 * is not on its tunnel (way: the room at its other end, 0 for the room's own
 * marks), in a row w wide; one padlock for ways the same key opens. */
typedef struct room_marks {
  int n;
  cb_map_mark m[CB_MAP_MAX_MARKS];
  int way[CB_MAP_MAX_MARKS];
  double w;
} room_marks;

static const double MARK_GAP = 1.5; /* points between two marks of a row */

static bool on_tunnel(const placed *pl, const cb_dungeon *d, const cb_room *r, int way);

static room_marks marks_of(const cb_symbols *st, const cb_dungeon *d, const cb_room *r, const placed *pl) {
  room_marks rm = {0};
  rm.n = cb_map_room_marks(NULL, d, r, rm.m);
  for (int i = 0; i < d->npassages && rm.n < CB_MAP_MAX_MARKS; i++) {
    const cb_passage *ps = &d->passages[i];
    if (!ps->lock || !(ps->flags & CB_FLAG_LOCKED) || (ps->from != r->id && ps->to != r->id)) continue;
    if (on_tunnel(pl, d, r, ps->from == r->id ? ps->to : ps->from)) continue;
    bool shown = false;
    for (int k = 0; k < rm.n && !shown; k++)
      shown = rm.m[k].sym == CB_SYM_LOCKED && strcmp(rm.m[k].text, ps->lock) == 0;
    if (shown) continue;
    rm.way[rm.n] = ps->from == r->id ? ps->to : ps->from;
    rm.m[rm.n++] = (cb_map_mark){CB_SYM_LOCKED, ps->lock};
  }
  for (int k = 0; k < rm.n; k++)
    rm.w += cb_symbol_badge_width(st, rm.m[k].sym, rm.m[k].text) + (k ? MARK_GAP : 0);
  return rm;
}

/* Where the middle of room r's row of marks, w wide, sits: at a corner of
 * its box (0, the lower right, when nothing is there), else beside the
 * middle of a side. */
static void badge_at(const cb_symbols *st, const view *v, double x, double y, int corner, double w,
                     double *bx, double *by) {
  static const int sx[] = {1, -1, 1, -1, 1, -1, 0, 0}, sy[] = {1, 1, -1, -1, 0, 0, 1, -1};
  double half = v->room / 2, one = cb_symbol_badge_width(st, CB_SYM_ENTRANCE, NULL);
  if (corner < 4)
    *bx = x + sx[corner] * (half + st->badge * 0.55 + (w - one) / 2), *by = y + sy[corner] * half;
  else
    *bx = x + sx[corner] * (half + w / 2 + 1), *by = y + sy[corner] * (half + st->badge / 2 + 1);
}

static cb_symbol junction_symbol(cb_junction_effect e) {
  switch (e) {
  case CB_JUNCTION_TRAPPED: return CB_SYM_SK_TRAP;
  case CB_JUNCTION_DISABLED_TRAP: return CB_SYM_SK_TRAP_OFF;
  case CB_JUNCTION_OBSTACLE: return CB_SYM_SK_OBSTACLE;
  case CB_JUNCTION_ROOM: return CB_SYM_SK_ROOM;
  default: return CB_SYM_SK_JUNCTION;
  }
}

static cb_symbol wall_symbol(cb_wall_effect e) {
  switch (e) {
  case CB_WALL_SECRET_DOOR: return CB_SYM_SECRET;
  case CB_WALL_BRANCH: return CB_SYM_SK_BRANCH;
  case CB_WALL_DIAGONALS: return CB_SYM_SK_DIAGONALS;
  case CB_WALL_BLOCKED: return CB_SYM_SK_BLOCKED;
  case CB_WALL_DOOR:
  case CB_WALL_DOORS: return CB_SYM_DOOR;
  case CB_WALL_STAIRS: return CB_SYM_STAIRS;
  default: return CB_SYM_SK_BLANK;
  }
}

/* ---- placing the marks: each where it was rolled, or the nearest place
 * along its tunnel (or its door's corridor) where it covers nothing ---- */

static const double MARK_TEXT = 7; /* a trap's T is never smaller (symbols.c) */
static const double GAP = 0.8;     /* points kept clear between two marks */

/* What spot c would cover of the marks placed so far, weighed; the count
 * stops once it reaches `enough` (no better than a place found before). */
static double cover(const placed *pl, spot c, double enough) {
  double cost = 0;
  for (int k = 0, n = pl->local ? pl->nnear : pl->nspots; k < n && cost < enough; k++) {
    const spot *o = &pl->spots[pl->local ? pl->near[k] : k];
    double ox = c.hw + o->hw + GAP - fabs(c.x - o->x), oy = c.hh + o->hh + GAP - fabs(c.y - o->y);
    if (ox > 0 && oy > 0)
      cost += o->weight * fmin(ox, 2 * fmin(c.hw, o->hw) + GAP) * fmin(oy, 2 * fmin(c.hh, o->hh) + GAP);
  }
  return cost;
}

/* The marks placed so far that a mark of c's size, tried within r of (x, y),
 * could touch: its search compares it with these alone, until put. */
static void gather(placed *pl, spot c, double x, double y, double r) {
  pl->nnear = 0;
  for (int i = 0; i < pl->nspots; i++) {
    const spot *o = &pl->spots[i];
    if (fabs(o->x - x) < r + c.hw + o->hw + GAP && fabs(o->y - y) < r + c.hh + o->hh + GAP)
      pl->near[pl->nnear++] = i;
  }
  pl->local = true;
}

static void put(placed *pl, spot c) {
  pl->spots[pl->nspots++] = c;
  pl->local = false;
}

/* The best of the places tried so far; `found` once one covers nothing; `over`: what it covers, without
 * the price of leaving its room (consider_out). */
typedef struct choice {
  double cost, x, y, aux;
  bool found;
  double over;
} choice;

static void consider(choice *ch, placed *pl, spot c, double aux) {
  if (ch->found) return;
  /* out of budget: the best place found so far, else this first one (where it was rolled) */
  if (pl->budget <= 0 && ch->cost < INFINITY) {
    ch->found = true;
    return;
  }
  double cost = cover(pl, c, ch->cost);
  pl->budget -= pl->local ? pl->nnear : pl->nspots;
  if (cost < ch->cost) ch->cost = cost, ch->over = cost, ch->x = c.x, ch->y = c.y, ch->aux = aux;
  ch->found = cost <= 0;
}

/* A sketch mark's box at (x, y). */
static spot mark_spot(const cb_symbols *st, const view *v, cb_symbol s, double x, double y) {
  double tw = v->tw;
  switch ((int)s) {
  case CB_SYM_SK_TRAP:
  case CB_SYM_SK_TRAP_OFF: {
    double size = fmax(MARK_TEXT, tw * 0.62), t = cb_text_width(st->m, CB_FONT_BOLD, size, "T");
    bool off = s == CB_SYM_SK_TRAP_OFF;
    return (spot){x, y, fmax(t / 2, off ? tw * 0.34 : 0), fmax(size * 0.45, off ? tw * 0.3 : 0), WORD};
  }
  case CB_SYM_SK_OBSTACLE: return (spot){x, y, tw * 0.45, tw * 0.45, SIGN};
  default: return (spot){x, y, tw * 0.2, tw * 0.2, SIGN};
  }
}

/* A line's mark (a wall's hatch, a side passage, stairs) from the wall out `out` tunnel widths. */
static spot wall_spot(const view *v, const wall_frame *f, double out, double half) {
  double a = v->tw * 0.5, b = v->tw * (0.5 + out), cx = f->x + f->nx * (a + b) / 2,
         cy = f->y + f->ny * (a + b) / 2;
  double len = (b - a) / 2, w = v->tw * half;
  return (spot){cx, cy, fabs(f->nx) * len + fabs(f->ux) * w, fabs(f->ny) * len + fabs(f->uy) * w, LINE};
}

/* The rooms, their entrance badges (on the freest corner or side), and the
 * marks that stay where they are: junctions' dots and the wall marks that
 * are drawn as lines. */
/* The paper beyond the map's frame, as four firm spots a frame deep round
 * it, so that a mark that would reach outside (a room's badges on a room by
 * the frame) takes another place. */
static void put_frame(placed *pl, const view *v) {
  const double *f = v->frame;
  if (f[0] > f[2]) return;
  double w = f[2] - f[0], h = f[3] - f[1], cx = (f[0] + f[2]) / 2, cy = (f[1] + f[3]) / 2;
  put(pl, (spot){f[0] - w / 2, cy, w / 2, h, FIRM});
  put(pl, (spot){f[2] + w / 2, cy, w / 2, h, FIRM});
  put(pl, (spot){cx, f[1] - h / 2, w, h / 2, FIRM});
  put(pl, (spot){cx, f[3] + h / 2, w, h / 2, FIRM});
}

static void place_fixed(placed *pl, const cb_symbols *st, const cb_dungeon *d, const cb_sketch *sk,
                        const view *v) {
  put_frame(pl, v);
  pl->boxes = pl->nspots;
  for (int i = 0; i < d->nrooms; i++) {
    double half = v->room / 2 + st->line;
    put(pl, (spot){rx_of(v, d, &d->rooms[i]), ry_of(v, d, &d->rooms[i]), half, half, FIRM});
  }
  for (int j = 0; j < sk->njunctions; j++)
    if (junction_symbol(sk->junctions[j].effect) == CB_SYM_SK_JUNCTION)
      put(pl, mark_spot(st, v, CB_SYM_SK_JUNCTION, px(v, sk->junctions[j].x), py(v, sk->junctions[j].y)));
  for (int i = 0; i < sk->nwalls; i++) {
    cb_symbol s = wall_symbol(sk->walls[i].effect);
    wall_frame f = frame_of(sk, v, &sk->walls[i]);
    if (s == CB_SYM_SK_BLANK) put(pl, wall_spot(v, &f, 0.25, 0.25));
    if (s == CB_SYM_SK_BRANCH || s == CB_SYM_SK_BLOCKED) put(pl, wall_spot(v, &f, 1.4, 0.45));
    if (s == CB_SYM_SK_DIAGONALS) put(pl, wall_spot(v, &f, 1.0, 1.3));
    if (s == CB_SYM_STAIRS) put(pl, wall_spot(v, &f, 1.8, st->badge * 0.5 / v->tw));
  }
}

/* Where the middle of a row of marks w wide sits by a room's box at (x, y):
 * 0-7 as badge_at, 8-11 above or below the box flush with a side of it,
 * 12-15 beside it flush with its top or foot. */
static void row_at(const cb_symbols *st, const view *v, double x, double y, int k, double w, double *bx,
                   double *by) {
  static const int sx[] = {-1, 1, -1, 1}, sy[] = {-1, -1, 1, 1};
  double half = v->room / 2;
  if (k < 8)
    badge_at(st, v, x, y, k, w, bx, by);
  else if (k < 12)
    *bx = x + sx[k - 8] * (half - w / 2), *by = y + sy[k - 8] * (half + st->badge / 2 + 1);
  else
    *bx = x + sx[k - 12] * (half + w / 2 + 1), *by = y + sy[k - 12] * (half - st->badge / 2);
}

/* Is room i's box nearer (x, y) than any other room's, by a point? */
static bool nearest_own(const cb_dungeon *d, const view *v, int i, double x, double y) {
  double half = v->room / 2, dx = fmax(0, fabs(x - rx_of(v, d, &d->rooms[i])) - half),
         dy = fmax(0, fabs(y - ry_of(v, d, &d->rooms[i])) - half), own = hypot(dx, dy) + 1;
  for (int j = 0; j < d->nrooms; j++) {
    if (j == i) continue;
    double ox = fabs(x - rx_of(v, d, &d->rooms[j])) - half, oy = fabs(y - ry_of(v, d, &d->rooms[j])) - half;
    if (ox >= own || oy >= own) continue; /* farther on one axis alone */
    ox = fmax(0, ox), oy = fmax(0, oy);
    if (ox * ox + oy * oy < own * own) return false;
  }
  return true;
}

/* Spot c by room i, `ring` badges out beyond the first places: considered
 * at the cost of what it covers and, for a ring out, twice a heavy cover a
 * ring (a row leaves its room to keep off rooms and marks, not off a hatch),
 * where it is nearer room i than any other room. */
static void consider_out(choice *ch, placed *pl, const cb_dungeon *d, const view *v, int i, spot c,
                         int ring) {
  if (ring == 0) {
    consider(ch, pl, c, 16);
    return;
  }
  double penalty = ring * 2 * HEAVY;
  if (penalty >= ch->cost || pl->budget <= 0) return;
  double cost = cover(pl, c, ch->cost - penalty) + penalty;
  pl->budget -= pl->local ? pl->nnear : pl->nspots;
  if (cost < ch->cost && nearest_own(d, v, i, c.x, c.y))
    ch->cost = cost, ch->over = cost - penalty, ch->x = c.x, ch->y = c.y, ch->aux = 16;
}

/* The best of the 16 places by room i's box for a row of marks w wide; put there. */
static choice place_row(placed *pl, const cb_symbols *st, const cb_dungeon *d, const view *v, int i,
                        double w) {
  double x = rx_of(v, d, &d->rooms[i]), y = ry_of(v, d, &d->rooms[i]);
  spot c = {0, 0, w / 2, st->badge / 2, FIRM};
  choice ch = {INFINITY, x, y, 0, false};
  gather(pl, c, x, y, v->room + w + st->badge * 4 + 6);
  /* a row at a corner of its own box may lie a little over it, as it always has */
  for (int k = 0; k < pl->nnear; k++)
    if (pl->near[k] == pl->boxes + i) pl->near[k--] = pl->near[--pl->nnear];
  for (int k = 0; k < 16; k++) {
    row_at(st, v, x, y, k, w, &c.x, &c.y);
    consider(&ch, pl, c, k);
  }
  /* none clear: along the box's sides, a point at a time, then up to three badges further out
   * (consider_out) */
  double half = v->room / 2;
  for (int ring = 0; ring < 4 && ch.cost >= HEAVY; ring++) {
    double out = ring * (st->badge + 1);
    for (double t = -half - w / 2 + 2; t <= half + w / 2 - 2 && ch.cost >= HEAVY; t += 1)
      for (int sgn = -1; sgn <= 1; sgn += 2) {
        c.x = x + t, c.y = y + sgn * (half + st->badge / 2 + 1 + out);
        consider_out(&ch, pl, d, v, i, c, ring);
      }
    for (double t = -half - st->badge / 2 - out; t <= half + st->badge / 2 + out && ch.cost >= HEAVY; t += 1)
      for (int sgn = -1; sgn <= 1; sgn += 2) {
        c.x = x + sgn * (half + w / 2 + 1 + out), c.y = y + t;
        consider_out(&ch, pl, d, v, i, c, ring);
      }
  }
  c.x = ch.x, c.y = ch.y;
  put(pl, c);
  return ch;
}

/* How many of the 16 places by room i's box a row w wide has clear. */
static int row_freedom(placed *pl, const cb_symbols *st, const cb_dungeon *d, const view *v, int i,
                       double w) {
  double x = rx_of(v, d, &d->rooms[i]), y = ry_of(v, d, &d->rooms[i]);
  spot c = {0, 0, w / 2, st->badge / 2, FIRM};
  int n = 0;
  gather(pl, c, x, y, v->room + w + st->badge * 2 + 2);
  for (int k = 0; k < pl->nnear; k++)
    if (pl->near[k] == pl->boxes + i) pl->near[k--] = pl->near[--pl->nnear];
  for (int k = 0; k < 16; k++) {
    row_at(st, v, x, y, k, w, &c.x, &c.y);
    n += cover(pl, c, 1) <= 0;
  }
  pl->local = false;
  return n;
}

/* Room indices by the places their rows have clear, the fewest first (a
 * row with one place takes it before a freer row can). */
typedef struct freedom {
  int clear, room;
} freedom;

static int by_freedom(const void *a, const void *b) {
  const freedom *x = a, *y = b;
  return x->clear != y->clear ? x->clear - y->clear : x->room - y->room;
}

/* Room i's row of marks on the freest place by its box; where none is
 * clear, each mark where it is clearest, if that covers less. Returns what
 * the row covers (choice.over). */
static double place_room_row(placed *pl, const cb_symbols *st, const cb_dungeon *d, const view *v, int i) {
  room_marks rm = marks_of(st, d, &d->rooms[i], pl);
  double *at = &pl->row[2 * CB_MAP_MAX_MARKS * i];
  int before = pl->nspots;
  if (rm.n == 0) return 0;
  choice whole = place_row(pl, st, d, v, i, rm.w);
  double edge = whole.x - rm.w / 2;
  for (int k = 0; k < rm.n; k++) {
    double w = cb_symbol_badge_width(st, rm.m[k].sym, rm.m[k].text);
    at[2 * k] = edge + w / 2, at[2 * k + 1] = whole.y, edge += w + MARK_GAP;
  }
  if (whole.cost < HEAVY || rm.n < 2) return whole.over;
  /* apart: each mark by itself */
  pl->nspots = before;
  double cost = 0, over = 0, apart[2 * CB_MAP_MAX_MARKS];
  for (int k = 0; k < rm.n; k++) {
    choice one = place_row(pl, st, d, v, i, cb_symbol_badge_width(st, rm.m[k].sym, rm.m[k].text));
    cost += one.cost, over += one.over, apart[2 * k] = one.x, apart[2 * k + 1] = one.y;
  }
  if (cost < whole.cost) {
    memcpy(at, apart, sizeof(double) * 2 * (size_t)rm.n);
    return over;
  }
  pl->nspots = before;
  place_row(pl, st, d, v, i, rm.w);
  return whole.over;
}

/* The rows in `order` (place_room_row); each room's cover in over[room]. Returns the rows' cover in all. */
static double place_in_order(placed *pl, const cb_symbols *st, const cb_dungeon *d, const view *v,
                             const freedom *order, double *over) {
  double all = 0;
  for (int o = 0; o < d->nrooms; o++)
    all += over[order[o].room] = place_room_row(pl, st, d, v, order[o].room);
  return all;
}

/* Rows that clash take turns to go first, each once: so many turns at most. */
enum { ROW_TURNS = 6 };

/* Room i to the front of order, the rest after it as they were. */
static void to_front(freedom *order, int n, int i) {
  int at = 0;
  while (at < n && order[at].room != i)
    at++;
  if (at == n) return;
  freedom f = order[at];
  memmove(order + 1, order, sizeof *order * (size_t)at);
  order[0] = f;
}

/* The rows' places of the order that covered least: their spots (after the first `base`) and pl->row. */
typedef struct rows_kept {
  spot *spots;
  double *row;
  int nspots;
} rows_kept;

static void keep_rows(rows_kept *k, const placed *pl, int base, size_t nrow) {
  k->nspots = pl->nspots - base;
  memcpy(k->spots, pl->spots + base, sizeof *k->spots * (size_t)k->nspots);
  memcpy(k->row, pl->row, sizeof *k->row * nrow);
}

static void restore_rows(const rows_kept *k, placed *pl, int base, size_t nrow) {
  memcpy(pl->spots + base, k->spots, sizeof *k->spots * (size_t)k->nspots);
  memcpy(pl->row, k->row, sizeof *k->row * nrow);
  pl->nspots = base + k->nspots;
}

/* The row covering most, of those covering more than they may (HEAVY) that have not gone first; -1: none. */
static int worst_row(const double *over, const bool *moved, int n) {
  int worst = -1;
  for (int i = 0; i < n; i++)
    if (over[i] >= HEAVY && !moved[i] && (worst < 0 || over[i] > over[worst])) worst = i;
  return worst;
}

/* Each room's row of marks (place_room_row), the rows with the fewest clear
 * places first (a row with one place takes it before a freer row can); where
 * a row still covers another or a room, it goes first and the rest are
 * placed again round it, while that covers less (each row goes first once). */
static void place_rows(placed *pl, const cb_symbols *st, const cb_dungeon *d, const view *v) {
  size_t n = (size_t)d->nrooms + 1, nrow = 2 * CB_MAP_MAX_MARKS * (size_t)d->nrooms;
  freedom *order = malloc(sizeof *order * n);
  double *over = malloc(sizeof *over * n);
  bool *moved = calloc(n, sizeof *moved);
  rows_kept kept = {malloc(sizeof *kept.spots * CB_MAP_MAX_MARKS * n), malloc(sizeof *kept.row * (nrow + 1)),
                    0};
  bool ok = order && over && moved && kept.spots && kept.row;
  for (int i = 0; i < d->nrooms && ok; i++)
    order[i] = (freedom){row_freedom(pl, st, d, v, i, marks_of(st, d, &d->rooms[i], pl).w), i};
  if (ok) qsort(order, (size_t)d->nrooms, sizeof *order, by_freedom);
  int base = pl->nspots;
  double least = INFINITY;
  for (int turn = 0; turn <= ROW_TURNS && ok; turn++) {
    pl->nspots = base;
    double all = place_in_order(pl, st, d, v, order, over);
    if (all >= least) {
      restore_rows(&kept, pl, base, nrow);
      break;
    }
    least = all, keep_rows(&kept, pl, base, nrow);
    int worst = worst_row(over, moved, d->nrooms);
    if (worst < 0) break;
    moved[worst] = true;
    to_front(order, d->nrooms, worst);
  }
  if (!ok) /* out of memory: in the rooms' order */
    for (int i = 0; i < d->nrooms; i++)
      place_room_row(pl, st, d, v, i);
  free(order), free(over), free(moved), free(kept.spots), free(kept.row);
}

/* Junction j's mark: at the junction, else along one of the tunnels through it. */
static void place_junction(placed *pl, const cb_symbols *st, const cb_sketch *sk, const view *v, int j) {
  const cb_sketch_junction *J = &sk->junctions[j];
  spot c = mark_spot(st, v, junction_symbol(J->effect), px(v, J->x), py(v, J->y));
  int through[8], seg[8], n = 0;
  double f[8];
  for (int t = 0; t < sk->ntunnels && n < 8; t++)
    if (nearest(&sk->tunnels[t], J->x, J->y, &seg[n], &f[n]) < 1) through[n++] = t;
  choice ch = {INFINITY, c.x, c.y, 0, false};
  double reach = 6 * fmax(c.hw, c.hh);
  gather(pl, c, c.x, c.y, reach);
  if (n == 0) consider(&ch, pl, c, 0); /* a junction off every tunnel (a hand-made sketch) */
  for (double dist = 0; dist <= reach && !ch.found; dist += 0.5)
    for (int i = 0; i < n; i++)
      for (int sign = -1; sign <= 1; sign += 2) {
        cb_sketch_point q = walk(&sk->tunnels[through[i]], seg[i], f[i], sign * dist / v->s);
        c.x = px(v, q.x), c.y = py(v, q.y);
        consider(&ch, pl, c, 0);
      }
  /* no room along its tunnels: beside the junction, on whichever side is clear (16 ways, pi / 8 apart) */
  for (double r = 2 * fmax(c.hw, c.hh); r <= reach && !ch.found; r += 1)
    for (int a = 0; a < 16; a++) {
      c.x = px(v, J->x) + r * cos(a * 0.39269908169872414),
      c.y = py(v, J->y) + r * sin(a * 0.39269908169872414);
      consider(&ch, pl, c, 0);
    }
  pl->junction[2 * j] = c.x = ch.x, pl->junction[2 * j + 1] = c.y = ch.y;
  put(pl, c);
}

/* A secret door's S beside its door at (x, y), along the tunnel wall (u), either way. */
static void beside(choice *ch, placed *pl, spot c, double x, double y, const double u[2]) {
  for (double dist = c.hw; dist <= 6 * c.hw && !ch->found; dist += 0.5)
    for (int sign = -1; sign <= 1; sign += 2) {
      c.x = x + u[0] * dist * sign, c.y = y + u[1] * dist * sign;
      consider(ch, pl, c, -1);
    }
}

/* A door's mark (a leaf, a secret door's S) on corridor xy: its middle, else
 * the nearest place along it that is clear; a secret door's S, where the
 * corridor has none, goes beside the corridor's foot along the tunnel wall
 * (u: the tunnel's direction) rather than over a room or another mark. */
static door_place place_on_corridor(placed *pl, const cb_symbols *st, cb_symbol s, const double xy[4],
                                    const double *u) {
  double w, h, l = hypot(xy[2] - xy[0], xy[3] - xy[1]);
  cb_symbol_passage_mark(st, s, &w, &h);
  spot c = {0, 0, fmax(w, h) / 2, fmax(w, h) / 2, s == CB_SYM_SECRET ? WORD : SIGN};
  choice ch = {INFINITY, 0, 0, 0.5, false};
  gather(pl, c, (xy[0] + xy[2]) / 2, (xy[1] + xy[3]) / 2, l / 2 + 6 * c.hw);
  for (double dist = 0; dist <= l / 2 && !ch.found; dist += 0.5)
    for (int sign = -1; sign <= 1; sign += 2) {
      double where = 0.5 + sign * dist / l;
      c.x = xy[0] + (xy[2] - xy[0]) * where, c.y = xy[1] + (xy[3] - xy[1]) * where;
      consider(&ch, pl, c, where);
    }
  if (u && s == CB_SYM_SECRET) beside(&ch, pl, c, xy[0], xy[1], u);
  c.x = ch.x, c.y = ch.y;
  put(pl, c);
  return (door_place){ch.aux, ch.x, ch.y};
}

/* A door stub's mark: by the tunnel, else further out along the stub; a
 * secret door's S, where the stub has no room, beside it along the wall. */
static void place_stub(placed *pl, const cb_symbols *st, const cb_sketch *sk, const view *v, int i) {
  const cb_sketch_door *dr = &sk->doors[i];
  double w, h, x = px(v, dr->stub[0].x), y = py(v, dr->stub[0].y);
  double l =
      hypot(dr->stub[CB_STUB_POINTS - 1].x - dr->stub[0].x, dr->stub[CB_STUB_POINTS - 1].y - dr->stub[0].y);
  cb_symbol_passage_mark(st, dr->secret ? CB_SYM_SECRET : CB_SYM_DOOR, &w, &h);
  spot c = {0, 0, fmax(w, h) / 2, fmax(w, h) / 2, dr->secret ? WORD : SIGN};
  choice ch = {INFINITY, x + dr->ux * v->tw * 0.35, y + dr->uy * v->tw * 0.35, 0, false};
  gather(pl, c, x, y, fmax(v->tw * 0.35, l * v->s) + 6 * c.hw);
  for (double out = v->tw * 0.35; out <= fmax(v->tw * 0.35, l * v->s - c.hw) && !ch.found; out += 0.5) {
    c.x = x + dr->ux * out, c.y = y + dr->uy * out;
    consider(&ch, pl, c, 0);
  }
  if (dr->secret) beside(&ch, pl, c, x, y, (double[2]){-dr->uy, dr->ux});
  pl->stub[2 * i] = c.x = ch.x, pl->stub[2 * i + 1] = c.y = ch.y;
  put(pl, c);
}

/* ---- a locked way's padlock on its tunnel, by the room, on the stretch
 * the way leaves by (as the other maps put it on the passage) ---- */

/* The tunnels as a graph: nodes where tunnels end and where rooms meet them,
 * edges the stretches of tunnel between (feet along tunnel `tunnel`). */
typedef struct way_node {
  double x, y;
  bool room; /* a room (not behind a secret door) meets the tunnels here: ways stop at it */
} way_node;

typedef struct way_edge {
  int a, b, tunnel;
  double from, to;
} way_edge;

typedef struct way_graph {
  way_node *nodes;
  way_edge *edges;
  int nnodes, nedges, *at; /* per room: its node, -1 where it meets no tunnel */
} way_graph;

/* A room's place on a tunnel (feet along it), before the graph is made. */
typedef struct room_place {
  int tunnel, room;
  double along;
  bool stops;
} room_place;

/* A locked way's padlock at one of its ends: room (index) and way (the room
 * at the other end, its id), on tunnel from `from` towards `to` (feet);
 * shown false where another padlock of its key stands for it. */
typedef struct tunnel_lock {
  int room, way, tunnel, shown_by; /* shown_by: the padlock that shows it (its index) */
  const char *key;
  double from, to, x, y;
  bool shown, placed; /* placed: on or beside its stretch; else in its room's row */
} tunnel_lock;

static double along_to(const cb_sketch_tunnel *t, int seg, double f) {
  double a = 0;
  for (int i = 0; i < seg; i++)
    a += hypot(t->points[i + 1].x - t->points[i].x, t->points[i + 1].y - t->points[i].y);
  return a + f * hypot(t->points[seg + 1].x - t->points[seg].x, t->points[seg + 1].y - t->points[seg].y);
}

static int end_node(way_graph *g, cb_sketch_point p) {
  for (int i = 0; i < g->nnodes; i++)
    if (fabs(g->nodes[i].x - p.x) < 0.01 && fabs(g->nodes[i].y - p.y) < 0.01) return i;
  g->nodes[g->nnodes] = (way_node){p.x, p.y, false};
  return g->nnodes++;
}

static int by_place(const void *a, const void *b) {
  const room_place *x = a, *y = b;
  if (x->tunnel != y->tunnel) return x->tunnel - y->tunnel;
  return (x->along > y->along) - (x->along < y->along);
}

/* Where each room meets the tunnels: at its junction, or where its door's wall check was rolled. */
static int room_places(const cb_dungeon *d, const cb_sketch *sk, room_place *rp) {
  int n = 0;
  for (int j = 0; j < sk->njunctions; j++) {
    const cb_sketch_junction *J = &sk->junctions[j];
    const cb_room *r = room_of(d, J->room);
    double best = INFINITY, f;
    int seg;
    for (int t = 0; t < sk->ntunnels && r; t++) {
      double dist = nearest(&sk->tunnels[t], J->x, J->y, &seg, &f);
      if (dist < best)
        best = dist, rp[n] = (room_place){t, (int)(r - d->rooms), along_to(&sk->tunnels[t], seg, f), true};
    }
    n += r && best < 1;
  }
  for (int i = 0; i < sk->nwalls; i++) {
    const cb_sketch_wall *w = &sk->walls[i];
    for (int k = 0; k < 2; k++) {
      const cb_room *r = room_of(d, w->rooms[k]);
      int seg;
      double f;
      if (!r || w->tunnel < 0 || w->tunnel >= sk->ntunnels ||
          nearest(&sk->tunnels[w->tunnel], w->x, w->y, &seg, &f) == INFINITY)
        continue;
      rp[n++] = (room_place){w->tunnel, (int)(r - d->rooms), along_to(&sk->tunnels[w->tunnel], seg, f),
                             w->effect != CB_WALL_SECRET_DOOR};
    }
  }
  qsort(rp, (size_t)n, sizeof *rp, by_place);
  return n;
}

static void way_graph_free(way_graph *g) {
  free(g->nodes), free(g->edges), free(g->at);
  *g = (way_graph){0};
}

/* The graph of sk's tunnels and d's rooms on them; false on running out of memory. */
static bool way_graph_of(const cb_dungeon *d, const cb_sketch *sk, way_graph *g) {
  size_t nr = (size_t)d->nrooms, np = 2 * (size_t)sk->nwalls + (size_t)sk->njunctions + 1;
  room_place *rp = malloc(sizeof *rp * np);
  g->nodes = malloc(sizeof *g->nodes * (2 * (size_t)sk->ntunnels + np));
  g->edges = malloc(sizeof *g->edges * ((size_t)sk->ntunnels + np));
  g->at = malloc(sizeof *g->at * (nr + 1));
  if (!rp || !g->nodes || !g->edges || !g->at) {
    free(rp), way_graph_free(g);
    return false;
  }
  for (size_t i = 0; i < nr; i++)
    g->at[i] = -1;
  int n = room_places(d, sk, rp), k = 0;
  for (int t = 0; t < sk->ntunnels; t++) {
    const cb_sketch_tunnel *tu = &sk->tunnels[t];
    double len = along_to(tu, tu->npoints - 2, 1), at = 0;
    int a = end_node(g, tu->points[0]), b = end_node(g, tu->points[tu->npoints - 1]), prev = a;
    for (; k < n && rp[k].tunnel == t; k++) {
      int node = rp[k].along < 1e-6 ? a : rp[k].along > len - 1e-6 ? b : -1;
      if (node < 0 && prev != a && rp[k].along - at < 1e-6) node = prev; /* a pair of doors */
      if (node < 0) {
        node = g->nnodes++;
        g->nodes[node] = (way_node){0, 0, false};
        g->edges[g->nedges++] = (way_edge){prev, node, t, at, rp[k].along};
        prev = node, at = rp[k].along;
      }
      g->nodes[node].room |= rp[k].stops;
      g->at[rp[k].room] = node;
    }
    g->edges[g->nedges++] = (way_edge){prev, b, t, at, len};
  }
  free(rp);
  return true;
}

/* The stretch of tunnel a way from node `from` to node `to` leaves by,
 * passing no other room (as the generator walks it): its edge, the side of
 * it `from` is on (0: a, 1: b); false where none is found (rooms side by
 * side, or out of memory). */
static bool leaves_by(const way_graph *g, int from, int to, int *edge, int *side) {
  double *dist = malloc(sizeof *dist * (size_t)g->nnodes);
  bool *done = calloc((size_t)g->nnodes, sizeof *done);
  if (!dist || !done || from == to) {
    free(dist), free(done);
    return false;
  }
  for (int i = 0; i < g->nnodes; i++)
    dist[i] = INFINITY;
  dist[to] = 0;
  for (;;) {
    int u = -1;
    for (int i = 0; i < g->nnodes; i++)
      if (!done[i] && isfinite(dist[i]) && (u < 0 || dist[i] < dist[u])) u = i;
    if (u < 0 || u == from) break;
    done[u] = true;
    if (u != to && g->nodes[u].room) continue; /* a way stops at the first room */
    for (int e = 0; e < g->nedges; e++) {
      const way_edge *w = &g->edges[e];
      int o = w->a == u ? w->b : w->b == u ? w->a : -1;
      if (o >= 0 && dist[u] + fabs(w->to - w->from) < dist[o]) dist[o] = dist[u] + fabs(w->to - w->from);
    }
  }
  double best = INFINITY;
  for (int e = 0; e < g->nedges; e++)
    for (int s = 0; s < 2; s++) {
      const way_edge *w = &g->edges[e];
      int here = s ? w->b : w->a, there = s ? w->a : w->b;
      double cost = fabs(w->to - w->from) + dist[there];
      if (here == from && (there != from || s == 0) && cost < best - 1e-9) best = cost, *edge = e, *side = s;
    }
  free(dist), free(done);
  return isfinite(best);
}

/* Does room r's way to room `way` show its padlock by its tunnel (not in the room's row)? */
static bool on_tunnel(const placed *pl, const cb_dungeon *d, const cb_room *r, int way) {
  for (int i = 0; pl && i < pl->nlocks; i++)
    if (pl->locks[i].room == r - d->rooms && pl->locks[i].way == way)
      return pl->locks[pl->locks[i].shown_by].placed;
  return false;
}

/* One end of a locked way: its padlock on the stretch it leaves room `here` by, one for a key's ways
 * that leave by the same stretch. */
static void lock_end(placed *pl, const cb_dungeon *d, const way_graph *g, const cb_passage *ps, int here,
                     int there) {
  const cb_room *a = cb_dungeon_room(d, here), *b = cb_dungeon_room(d, there);
  int e = 0, side = 0;
  if (!a || !b || g->at[a - d->rooms] < 0 || g->at[b - d->rooms] < 0 ||
      !leaves_by(g, g->at[a - d->rooms], g->at[b - d->rooms], &e, &side))
    return;
  const way_edge *w = &g->edges[e];
  tunnel_lock k = {(int)(a - d->rooms),    there, w->tunnel, pl->nlocks, ps->lock, side ? w->to : w->from,
                   side ? w->from : w->to, 0,     0,         true,       false};
  for (int i = 0; i < pl->nlocks && k.shown; i++) {
    const tunnel_lock *o = &pl->locks[i];
    bool same_key = o->shown && o->tunnel == k.tunnel && strcmp(o->key, k.key) == 0;
    /* one for the ways that leave by the same stretch, and one for a way that is one stretch long */
    if ((same_key && o->room == k.room && fabs(o->from - k.from) < 1e-6 && fabs(o->to - k.to) < 1e-6) ||
        (same_key && o->way == b->id && o->room == b - d->rooms && fabs(o->from - k.to) < 1e-6 &&
         fabs(o->to - k.from) < 1e-6))
      k.shown = false, k.shown_by = i;
  }
  pl->locks[pl->nlocks++] = k;
}

/* Every locked way's padlocks, at both its ends; false on running out of memory. */
static bool tunnel_locks(placed *pl, const cb_dungeon *d, const cb_sketch *sk) {
  way_graph g = {0};
  pl->locks = malloc(sizeof *pl->locks * (2 * (size_t)d->npassages + 1)), pl->nlocks = 0;
  if (!pl->locks || !way_graph_of(d, sk, &g)) return false;
  for (int i = 0; i < d->npassages; i++) {
    const cb_passage *ps = &d->passages[i];
    if (!ps->lock || !(ps->flags & CB_FLAG_LOCKED) || !ps->to || ps->from == ps->to) continue;
    lock_end(pl, d, &g, ps, ps->from, ps->to);
    lock_end(pl, d, &g, ps, ps->to, ps->from);
  }
  way_graph_free(&g);
  return true;
}

/* A point `along` feet along tunnel t. */
static cb_sketch_point point_along(const cb_sketch_tunnel *t, double along) {
  return walk(t, 0, 0, fmax(0, along));
}

/* Padlock k: on its stretch, the nearest place to its room (beyond the
 * foot of the room's door) that covers nothing; else beside the stretch;
 * else (a stretch shorter than a padlock, between rooms) in its room's row.
 * Covering a little of a line's mark or a junction's dot (10 points square
 * of a sign's weight) is no matter: the padlock reads over them. */
static void place_lock(placed *pl, const cb_symbols *st, const cb_dungeon *d, const cb_sketch *sk,
                       const view *v, tunnel_lock *k) {
  const cb_sketch_tunnel *t = &sk->tunnels[k->tunnel];
  const cb_room *r = &d->rooms[k->room];
  double dir = k->to > k->from ? 1 : -1, from = k->from, f;
  int seg;
  /* the door's foot sits level with the room's box: start beyond it */
  if (nearest(t, (rx_of(v, d, r) - v->ox) / v->s, (ry_of(v, d, r) - v->oy) / v->s, &seg, &f) < INFINITY) {
    double foot = along_to(t, seg, f);
    if ((foot - from) * dir > 0 && (k->to - foot) * dir > 0) from = foot;
  }
  spot c = {0, 0, cb_symbol_badge_width(st, CB_SYM_LOCKED, k->key) / 2, st->badge / 2, FIRM};
  double len = fabs(k->to - from) * v->s, start = fmin(c.hw + v->tw / 2, len / 2),
         end = fmax(start, len - c.hw);
  double out = v->tw / 2 + c.hh + 1; /* beside the stretch: its centre this far off the tunnel's */
  cb_sketch_point q = point_along(t, from + dir * start / v->s);
  choice ch = {INFINITY, px(v, q.x), py(v, q.y), 0, false};
  gather(pl, c, ch.x, ch.y, end - start + 2 * c.hw + out);
  for (int beside = 0; beside < 3 && !ch.found; beside++)
    for (double at = start; at <= end && !ch.found; at += 0.5) {
      q = point_along(t, from + dir * at / v->s);
      cb_sketch_point ahead = point_along(t, from + dir * (at + 0.5) / v->s);
      double ux = ahead.x - q.x, uy = ahead.y - q.y, l = hypot(ux, uy), side = beside == 2 ? -out : out;
      c.x = px(v, q.x), c.y = py(v, q.y);
      if (beside && l > 0) c.x += -uy / l * side, c.y += ux / l * side;
      if (beside == 0 || l > 0) consider(&ch, pl, c, 0);
    }
  /* it would cover more than a little of a dot or a wall's hatch: in its room's row */
  if (ch.cost >= HEAVY) return;
  k->placed = true, k->x = c.x = ch.x, k->y = c.y = ch.y;
  put(pl, c);
}

static void free_marks(view *v) {
  free(v->pl.spots), free(v->pl.junction), free(v->pl.wall), free(v->pl.stub), free(v->pl.row);
  free(v->pl.locks);
  free(v->pl.near), free(v->pl.segs), free(v->pl.samples);
  v->pl = (placed){0};
}

/* Every mark's place (placed), the fixed ones first; on running out of
 * memory the marks stay where they were rolled. */
static void place_marks(const cb_symbols *st, const cb_dungeon *d, const cb_sketch *sk, view *v) {
  placed *pl = &v->pl;
  size_t nj = (size_t)sk->njunctions, nw = (size_t)sk->nwalls, nr = (size_t)d->nrooms;
  /* a room's box and its row's marks, apart (place_room_row) */
  size_t ns = nr + CB_MAP_MAX_MARKS * nr + 2 * nj + 2 * nw + (size_t)sk->ndoors + (size_t)sk->nsectors +
              2 * (size_t)d->npassages + 5; /* 4: the frame */
  pl->spots = malloc(sizeof *pl->spots * ns), pl->junction = malloc(sizeof(double) * (2 * nj + 1));
  pl->wall = malloc(sizeof *pl->wall * (2 * nw + nj + 1)),
  pl->stub = malloc(sizeof(double) * (2 * (size_t)sk->ndoors + 1));
  pl->row = malloc(sizeof *pl->row * (2 * CB_MAP_MAX_MARKS * nr + 1)),
  pl->near = malloc(sizeof *pl->near * ns);
  size_t nsegs = (size_t)sk->ndoors * CB_STUB_POINTS + 1;
  for (int t = 0; t < sk->ntunnels; t++)
    nsegs += (size_t)sk->tunnels[t].npoints;
  pl->segs = malloc(sizeof *pl->segs * nsegs);
  if (!pl->spots || !pl->junction || !pl->wall || !pl->stub || !pl->row || !pl->near || !pl->segs) {
    free_marks(v);
    return;
  }
  pl->jdoor = pl->wall + 2 * nw, pl->budget = PLACING_BUDGET;
  for (size_t i = 0; i < 2 * CB_MAP_MAX_MARKS * nr; i++)
    pl->row[i] = NAN;
  if (!tunnel_locks(pl, d, sk)) pl->nlocks = 0; /* out of memory: the padlocks stay by their rooms */
  place_fixed(pl, st, d, sk, v);
  /* the padlocks by their rooms (those with no place there go in the rooms' rows), then the rows */
  for (int i = 0; i < pl->nlocks; i++)
    if (pl->locks[i].shown) place_lock(pl, st, d, sk, v, &pl->locks[i]);
  place_rows(pl, st, d, v);
  /* the least free first: doors' marks keep to their corridors, junctions' to their tunnels
   * (the sectors' captions come last, in paper, clear of them all) */
  for (int i = 0; i < sk->nwalls; i++) {
    const cb_sketch_wall *w = &sk->walls[i];
    cb_symbol s = wall_symbol(w->effect);
    wall_frame f = frame_of(sk, v, w);
    for (int k = 0; k < 2; k++) {
      const cb_room *r = room_of(d, w->rooms[k]);
      double xy[4];
      pl->wall[2 * i + k] = (door_place){0.5, 0, 0};
      if ((s == CB_SYM_SECRET || s == CB_SYM_DOOR) && r && wall_corridor(v, d, &f, v->tw, r, xy))
        pl->wall[2 * i + k] = place_on_corridor(pl, st, s, xy, (double[2]){f.ux, f.uy});
    }
  }
  for (int j = 0; j < sk->njunctions; j++) {
    const cb_sketch_junction *J = &sk->junctions[j];
    double xy[4];
    const cb_room *r = room_of(d, J->room);
    pl->jdoor[j] = (door_place){0.5, 0, 0};
    if (J->effect == CB_JUNCTION_DOOR && r && junction_corridor(v, d, J, r, xy))
      pl->jdoor[j] = place_on_corridor(pl, st, CB_SYM_DOOR, xy, NULL);
  }
  for (int i = 0; i < sk->ndoors; i++)
    if (!sk->doors[i].room) place_stub(pl, st, sk, v, i);
  for (int j = 0; j < sk->njunctions; j++) {
    cb_symbol s = junction_symbol(sk->junctions[j].effect);
    pl->junction[2 * j] = px(v, sk->junctions[j].x), pl->junction[2 * j + 1] = py(v, sk->junctions[j].y);
    if (s != CB_SYM_SK_ROOM && s != CB_SYM_SK_JUNCTION) place_junction(pl, st, sk, v, j);
  }
}

/* ---- drawing ---- */

/* A corridor to a room with its door (sym) where it was placed (NULL: in its middle). */
static void door_on(cb_page *p, const cb_symbols *st, const view *v, cb_symbol sym, const double xy[4],
                    const door_place *at) {
  double where = at ? at->where : 0.5;
  cb_symbol_passage_at(p, st, sym, xy[0], xy[1], xy[2], xy[3], where);
  if (where < 0) cb_symbol_mark(p, st, sym, at->x, at->y, 1, 0, v->tw);
}

/* A room's box with its number, and its row of marks. */
static void room_box(cb_page *p, const cb_symbols *st, const view *v, const cb_dungeon *d, const cb_room *r,
                     cb_symbol_set *used) {
  char num[16];
  double x = rx_of(v, d, r), y = ry_of(v, d, r), bx, by;
  snprintf(num, sizeof num, "%d", r->number);
  cb_page_role(p, CB_ROLE_NUMBER, r->id, 0);
  cb_sketch_mark(p, st, CB_SYM_SK_ROOM, num, x, y, 1, 0, 0, -1, v->room);
  room_marks rm = marks_of(st, d, r, &v->pl);
  badge_at(st, v, x, y, 0, rm.w, &bx, &by);
  const double *row = v->pl.row ? &v->pl.row[2 * CB_MAP_MAX_MARKS * (r - d->rooms)] : NULL;
  double at = bx - rm.w / 2;
  for (int k = 0; k < rm.n; k++) {
    double w = cb_symbol_badge_width(st, rm.m[k].sym, rm.m[k].text);
    if (rm.way[k])
      cb_page_role(p, CB_ROLE_PASSAGE_MARK, r->id, rm.way[k]);
    else
      cb_page_role(p, CB_ROLE_ROOM_MARK, r->id, 0);
    bool at_row = row && !isnan(row[2 * k]);
    cb_symbol_badge(p, st, rm.m[k].sym, rm.m[k].text, at_row ? row[2 * k] : at + w / 2,
                    at_row ? row[2 * k + 1] : by);
    *used |= cb_map_mark_symbols(&rm.m[k]);
    at += w + MARK_GAP;
  }
  cb_page_role(p, CB_ROLE_NONE, 0, 0);
}

/* The passages found beyond doors (the d20): short stubs ending blind, their
 * floor opening through the tunnel wall, the door (or secret door) on it. */
static void door_stubs(cb_page *p, const cb_symbols *st, const cb_sketch *sk, const view *v,
                       cb_symbol_set *used) {
  for (int pass = 0; pass < 3; pass++)
    for (int i = 0; i < sk->ndoors; i++) {
      const cb_sketch_door *dr = &sk->doors[i];
      if (dr->room) continue;
      double xy[2 * CB_STUB_POINTS];
      for (int k = 0; k < CB_STUB_POINTS; k++)
        xy[2 * k] = px(v, dr->stub[k].x), xy[2 * k + 1] = py(v, dr->stub[k].y);
      double sw = v->tw * 0.8, x = xy[0], y = xy[1];
      if (pass == 1) xy[0] -= dr->ux * v->tw * 0.45, xy[1] -= dr->uy * v->tw * 0.45;
      if (pass < 2) {
        cb_symbol_tunnel(p, st, xy, CB_STUB_POINTS, sw, pass, 0);
        continue;
      }
      cb_symbol s = dr->secret ? CB_SYM_SECRET : CB_SYM_DOOR;
      double mx = v->pl.stub ? v->pl.stub[2 * i] : x + dr->ux * v->tw * 0.35;
      double my = v->pl.stub ? v->pl.stub[2 * i + 1] : y + dr->uy * v->tw * 0.35;
      cb_symbol_mark(p, st, s, mx, my, dr->ux, dr->uy, sw);
      *used |= CB_SYMBOL_BIT(s);
    }
}

/* The wall results: side passages first, their floors opening through the
 * tunnel walls; then the doors, secret doors and stairs. */
static void wall_marks(cb_page *p, const cb_symbols *st, const cb_dungeon *d, const cb_sketch *sk,
                       const view *v, cb_symbol_set *used) {
  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < sk->nwalls; i++) {
      const cb_sketch_wall *w = &sk->walls[i];
      cb_symbol s = wall_symbol(w->effect);
      int is_stub = s == CB_SYM_SK_BRANCH || s == CB_SYM_SK_DIAGONALS || s == CB_SYM_SK_BLOCKED;
      if (is_stub != (pass == 0)) continue;
      wall_frame f = frame_of(sk, v, w);
      *used |= CB_SYMBOL_BIT(s);
      if (cb_sketch_is_mark(s)) {
        cb_sketch_mark(p, st, s, NULL, f.x, f.y, f.ux, f.uy, f.nx, f.ny, v->tw);
        continue;
      }
      double wx = f.x + f.nx * v->tw / 2, wy = f.y + f.ny * v->tw / 2, xy[4];
      if (s == CB_SYM_STAIRS) {
        cb_symbol_passage(p, st, s, wx, wy, wx + f.nx * v->tw * 1.8, wy + f.ny * v->tw * 1.8);
        continue;
      }
      for (int k = 0; k < 2; k++) {
        const cb_room *r = room_of(d, w->rooms[k]);
        if (r && wall_corridor(v, d, &f, v->tw, r, xy))
          door_on(p, st, v, s, xy, v->pl.wall ? &v->pl.wall[2 * i + k] : NULL);
      }
    }
}

/* Every wall and junction result where it was placed, and the rooms. */
static void marks(cb_page *p, const cb_symbols *st, const cb_dungeon *d, const cb_sketch *sk, const view *v,
                  cb_symbol_set *used) {
  wall_marks(p, st, d, sk, v, used);
  door_stubs(p, st, sk, v, used);
  for (int j = 0; j < sk->njunctions; j++) {
    const cb_sketch_junction *J = &sk->junctions[j];
    cb_symbol s = junction_symbol(J->effect);
    double x = v->pl.junction ? v->pl.junction[2 * j] : px(v, J->x);
    double y = v->pl.junction ? v->pl.junction[2 * j + 1] : py(v, J->y), xy[4];
    *used |= CB_SYMBOL_BIT(s);
    const cb_room *r = room_of(d, J->room);
    if (J->effect == CB_JUNCTION_DOOR && r) {
      if (junction_corridor(v, d, J, r, xy))
        door_on(p, st, v, CB_SYM_DOOR, xy, v->pl.jdoor ? &v->pl.jdoor[j] : NULL);
      *used |= CB_SYMBOL_BIT(CB_SYM_DOOR);
    }
    if (s != CB_SYM_SK_ROOM) cb_sketch_mark(p, st, s, NULL, x, y, 1, 0, 0, -1, v->tw);
  }
  for (int i = 0; i < d->nrooms; i++) {
    room_box(p, st, v, d, &d->rooms[i], used);
    *used |= CB_SYMBOL_BIT(CB_SYM_SK_ROOM);
  }
  /* the padlocks on their tunnels, over them */
  for (int i = 0; i < v->pl.nlocks; i++) {
    const tunnel_lock *k = &v->pl.locks[i];
    if (!k->shown || !k->placed) continue;
    cb_page_role(p, CB_ROLE_PASSAGE_MARK, d->rooms[k->room].id, k->way);
    cb_symbol_badge(p, st, CB_SYM_LOCKED, k->key, k->x, k->y);
    *used |= CB_SYMBOL_BIT(CB_SYM_LOCKED);
  }
  cb_page_role(p, CB_ROLE_NONE, 0, 0);
}

/* A bar of 60-ft lengths, half black and half white, with its feet. */
static double scale_bar(cb_page *p, const cb_symbols *st, const view *v, double x, double y) {
  int steps = 2;
  while ((steps + 1) * 60 * v->s < 150 && steps < 8)
    steps++;
  double seg = 60 * v->s, h = 4;
  for (int i = 0; i < steps; i++) {
    cb_page_rect(p, x + i * seg, y, seg, h);
    cb_ink box = {.fill = true,
                  .stroke = true,
                  .fill_color = i % 2 ? st->paper : st->ink,
                  .stroke_color = st->ink,
                  .width = 0.6};
    cb_page_ink(p, &box);
  }
  for (int i = 0; i <= steps; i++) {
    char lab[16];
    snprintf(lab, sizeof lab, i == steps ? "%d ft" : "%d", i * 60);
    double w = cb_text_width(st->m, CB_FONT_REGULAR, 7, lab);
    cb_page_text(p, CB_FONT_REGULAR, 7, x + i * seg - (i == steps ? 7 : w / 2), y + h + 8, st->ink, lab);
  }
  const char *note = "one square is 10 ft";
  cb_page_text(p, CB_FONT_ITALIC, 7, x + steps * seg + 28, y + h + 1, LABEL, note);
  return h + 10;
}

/* The legend: one sample per mark the sketch used. Returns its height. */
static double legend(cb_page *p, const cb_symbols *st, cb_symbol_set used, const view *v, double x, double y,
                     double w, int draw) {
  static const cb_symbol order[] = {
      CB_SYM_SK_ROOM,      CB_SYM_MAIN_START, CB_SYM_START,       CB_SYM_ENTRANCE, CB_SYM_GOAL,
      CB_SYM_BOSS,         CB_SYM_ENCOUNTER,  CB_SYM_TREASURE,    CB_SYM_KEY,      CB_SYM_SURFACE_EXIT,
      CB_SYM_UNREACHABLE,  CB_SYM_LOCKED,     CB_SYM_SK_JUNCTION, CB_SYM_SK_TRAP,  CB_SYM_SK_TRAP_OFF,
      CB_SYM_SK_OBSTACLE,  CB_SYM_DOOR,       CB_SYM_SECRET,      CB_SYM_SK_BLANK, CB_SYM_SK_BRANCH,
      CB_SYM_SK_DIAGONALS, CB_SYM_SK_BLOCKED, CB_SYM_STAIRS};
  double rowh = v->tw * 2.6, cx = x, sample = v->tw * 3.2,
         head = cb_text_width(st->m, CB_FONT_BOLD, LEGEND_SIZE, "Legend") + 10;
  int row = 0;
  if (draw)
    cb_page_text(p, CB_FONT_BOLD, LEGEND_SIZE, x, y + rowh * 0.5 + LEGEND_SIZE * 0.34, st->ink, "Legend");
  cx += head;
  for (size_t i = 0; i < sizeof order / sizeof *order; i++) {
    cb_symbol s = order[i];
    if (!(used & CB_SYMBOL_BIT(s))) continue;
    const char *name = s == CB_SYM_SECRET   ? "secret door"
                       : s == CB_SYM_STAIRS ? "stairs down"
                                            : cb_sketch_mark_name(s);
    double item = sample + v->tw / 2 + 5 + cb_text_width(st->m, CB_FONT_REGULAR, LEGEND_SIZE, name) + 12;
    if (cx + item > x + w && cx > x + head) row++, cx = x + head;
    double cy = y + row * rowh + rowh * 0.62;
    if (draw) {
      double t[4] = {cx, cy, cx + sample, cy};
      int wall_mark = s == CB_SYM_SK_BLANK || s == CB_SYM_SK_BRANCH || s == CB_SYM_SK_DIAGONALS ||
                      s == CB_SYM_SK_BLOCKED || s == CB_SYM_DOOR || s == CB_SYM_SECRET || s == CB_SYM_STAIRS;
      if (s == CB_SYM_SK_ROOM) {
        cb_sketch_mark(p, st, s, "7", cx + sample / 2, cy, 1, 0, 0, -1, v->room);
      } else if (cb_symbol_is_badge(s) || s == CB_SYM_LOCKED) {
        /* a room's marks, and a locked way's padlock as the rooms beside it show it */
        cb_symbol_badge(p, st, s, s == CB_SYM_KEY || s == CB_SYM_LOCKED ? "K1" : NULL, cx + sample / 2, cy);
      } else {
        /* a stretch of tunnel, the mark on it (wall marks on its upper wall) */
        double mid = cx + sample / 2;
        if (wall_mark) t[1] = t[3] = cy + v->tw * 0.6;
        cb_symbol_tunnel(p, st, t, 2, v->tw, 0, 0);
        cb_symbol_tunnel(p, st, t, 2, v->tw, 1, 0);
        if (cb_sketch_is_mark(s))
          cb_sketch_mark(p, st, s, NULL, mid, t[1], 1, 0, 0, -1, v->tw);
        else
          cb_symbol_passage(p, st, s, mid, t[1] - v->tw / 2, mid, t[1] - v->tw / 2 - v->tw * 1.6);
      }
      cb_page_text(p, CB_FONT_REGULAR, LEGEND_SIZE, cx + sample + v->tw / 2 + 5, cy + LEGEND_SIZE * 0.34,
                   st->ink, name);
    }
    cx += item;
  }
  return (row + 1) * rowh;
}

/* The sketch's extent in feet: the sector grid, widened for rooms behind
 * doors in the map's edge. */
static void extent(const cb_dungeon *d, const cb_sketch *sk, double *x0, double *y0, double *w, double *h) {
  double W = sk->cols * sk->sector_ft, H = sk->rows * sk->sector_ft;
  *x0 = *y0 = 0;
  for (int i = 0; i < d->nrooms; i++) {
    *x0 = fmin(*x0, d->rooms[i].x - ROOM_FT), *y0 = fmin(*y0, d->rooms[i].y - ROOM_FT);
    W = fmax(W, d->rooms[i].x + ROOM_FT), H = fmax(H, d->rooms[i].y + ROOM_FT);
  }
  *w = W - *x0, *h = H - *y0;
}

/* The view at s points a foot, the map's origin at (ox, oy). */
static view at_scale(double s, double ox, double oy) {
  return (view){.s = s,
                .ox = ox,
                .oy = oy,
                .tw = fmax(4.5, fmin(13, TUNNEL_FT * s)),
                .room = fmax(11, fmin(18, ROOM_FT * s)),
                .frame = {1, 0, 0, 0}};
}

/* The sketch at v0; without the sectors' captions (which place themselves
 * last, inside their sectors) when `captions` is false, to measure it. */
static void draw(cb_page *p, const cb_symbols *st, const cb_dungeon *d, const cb_sketch *sk, const view *v0,
                 bool captions, cb_symbol_set *used) {
  view settled = *v0, *v = &settled;
  settle_rooms(d, v);
  place_marks(st, d, sk, v);
  paper(p, st, sk, v);
  for (int k = 0; k < sk->nsectors && captions; k++)
    caption(p, st, sk, v, &sk->sectors[k]);
  tunnels(p, st, sk, v, 0);
  tunnels(p, st, sk, v, 1);
  marks(p, st, d, sk, v, used);
  free_marks(v);
  free(settled.at);
}

static bool has_sketch(const cb_dungeon *d) {
  const cb_sketch *sk = cb_leximorph_sketch(d);
  return sk && sk->nsectors >= 1 && sk->sector_ft > 0;
}

/* The view that fits the sketch in the box, centred. */
static view box_view(const cb_dungeon *d, double x, double y, double w, double h) {
  double x0, y0, W, H;
  extent(d, cb_leximorph_sketch(d), &x0, &y0, &W, &H);
  double s = fmin(w / W, h / H);
  return at_scale(s, x + (w - W * s) / 2 - x0 * s, y + (h - H * s) / 2 - y0 * s);
}

double cb_sketch_height(const cb_dungeon *d, const cb_symbols *st, int level, double w) {
  (void)st, (void)level;
  if (!has_sketch(d)) return 0;
  double x0, y0, W, H;
  extent(d, cb_leximorph_sketch(d), &x0, &y0, &W, &H);
  return H * w / W;
}

/* The page box (x0, y0, x1, y1) of what p holds: paths with half their
 * stroke, texts as measured; b[0] > b[2] when it holds nothing. */
static void drawn_box(const cb_page *p, const cb_symbols *st, double b[4]) {
  b[0] = b[1] = INFINITY, b[2] = b[3] = -INFINITY;
  for (int i = 0; i < p->nitems; i++) {
    const cb_item *it = &p->items[i];
    if (it->kind == CB_ITEM_TEXT) {
      double tw = cb_text_width(st->m, it->font, it->size, it->text);
      b[0] = fmin(b[0], it->x), b[2] = fmax(b[2], it->x + tw);
      b[1] = fmin(b[1], it->y - it->size), b[3] = fmax(b[3], it->y + it->size * 0.3);
      continue;
    }
    double hw = it->ink.stroke ? it->ink.width / 2 : 0;
    for (int k = it->op0; k < it->op0 + it->nops; k++)
      for (int j = 0; j < (p->ops[k].kind == CB_OP_CURVE ? 3 : p->ops[k].kind == CB_OP_CLOSE ? 0 : 1); j++) {
        b[0] = fmin(b[0], p->ops[k].x[j] - hw), b[2] = fmax(b[2], p->ops[k].x[j] + hw);
        b[1] = fmin(b[1], p->ops[k].y[j] - hw), b[3] = fmax(b[3], p->ops[k].y[j] + hw);
      }
  }
}

/* The sketch at v on a scratch page as big as the box's page (in full, or
 * to measure it: draw) and the page box b of what it draws (drawn_box);
 * NULL on running out of memory. *fits: all of it lies inside the box x, y,
 * w, h, or nothing is drawn. */
static cb_page *on_scratch(const cb_symbols *st, const cb_dungeon *d, const view *v, bool full,
                           const double box[4], double b[4], bool *fits, cb_symbol_set *used) {
  double x = box[0], y = box[1], w = box[2], h = box[3];
  cb_page *scratch = cb_page_new(x + w + 1, y + h + 1);
  if (!scratch) return NULL;
  draw(scratch, st, d, cb_leximorph_sketch(d), v, full, used);
  if (scratch->oom) {
    cb_page_free(scratch);
    return NULL;
  }
  drawn_box(scratch, st, b);
  *fits =
      b[0] > b[2] || (b[0] >= x - 0.05 && b[1] >= y - 0.05 && b[2] <= x + w + 0.05 && b[3] <= y + h + 0.05);
  return scratch;
}

/* The sketch drawn so that everything it draws (labels, stubs, stairs,
 * marks, all of fixed size in points) keeps inside the box: it is drawn
 * aside, and the sketch's grid is fitted to the box less what stuck out
 * beyond the grid on each side (the most seen, a tenth more and half a
 * point: a smaller sketch crowds its marks outwards), up to four times. It
 * is measured without the captions (the slow part, inside their sectors);
 * once it fits, it is drawn in full, and that drawing, if it fits, is kept. */
static void framed_draw(cb_page *p, const cb_symbols *st, const cb_dungeon *d, const double box[4],
                        cb_symbol_set *used) {
  double x = box[0], y = box[1], w = box[2], h = box[3], over[4] = {0, 0, 0, 0}, b[4], x0, y0, W, H;
  extent(d, cb_leximorph_sketch(d), &x0, &y0, &W, &H);
  view v = box_view(d, x, y, w, h);
  memcpy(v.frame, (double[4]){x, y, x + w, y + h}, sizeof v.frame);
  cb_page *kept = NULL;
  cb_symbol_set kept_used = 0;
  bool full = false, fits;
  for (int fitted = 0; fitted < 4;) {
    kept = on_scratch(st, d, &v, full, box, b, &fits, &kept_used);
    if (!kept || (fits && full)) break;
    cb_page_free(kept), kept = NULL, kept_used = 0;
    if ((full = fits)) continue; /* the same view, in full */
    /* what sticks out beyond the grid's sides (left, top, right, bottom), in points */
    double grid[4] = {px(&v, x0), py(&v, y0), px(&v, x0 + W), py(&v, y0 + H)};
    double out[4] = {grid[0] - b[0], grid[1] - b[1], b[2] - grid[2], b[3] - grid[3]};
    for (int k = 0; k < 4; k++)
      over[k] = fmax(over[k], out[k] * 1.1 + 0.5);
    double iw = w - over[0] - over[2], ih = h - over[1] - over[3];
    if (iw < w / 2 || ih < h / 2) break;
    v = box_view(d, x + over[0], y + over[1], iw, ih), fitted++;
    memcpy(v.frame, (double[4]){x, y, x + w, y + h}, sizeof v.frame);
  }
  if (kept) {
    cb_page_place(p, kept, 0, 0, 1, false);
    *used |= kept_used;
    cb_page_free(kept);
  } else {
    draw(p, st, d, cb_leximorph_sketch(d), &v, true, used);
  }
}

void cb_sketch_map(cb_page *p, const cb_symbols *st, const cb_dungeon *d, int level, double x, double y,
                   double w, double h, cb_symbol_set *used) {
  (void)level;
  if (!has_sketch(d)) return;
  framed_draw(p, st, d, (double[4]){x, y, w, h}, used);
}

double cb_sketch_legend(cb_page *p, const cb_symbols *st, const cb_dungeon *d, cb_symbol_set used,
                        double map_w, double map_h, double x, double y, double w) {
  if (!has_sketch(d)) return 0;
  view v = box_view(d, 0, 0, map_w, map_h);
  /* the sheet's legend at the small sketch's size: a row of samples, not a band of big ones */
  v.tw = fmin(v.tw, 5.5), v.room = fmin(v.room, 12);
  double h = legend(p, st, used, &v, x, y, w, p != NULL);
  /* a scale bar at the map's own scale (the sheet draws it 4 pt inside its frame) */
  view drawn = box_view(d, 0, 0, map_w - 8, map_h - 8);
  if (p)
    scale_bar(p, st, &drawn, x + cb_text_width(st->m, CB_FONT_BOLD, LEGEND_SIZE, "Legend") + 10, y + h + 2);
  return h + 16;
}

cb_status cb_sketch_pages(const cb_dungeon *d, const cb_symbols *st, const cb_frame *f, cb_document *doc,
                          cb_error *err) {
  const cb_sketch *sk = cb_leximorph_sketch(d);
  if (!sk || sk->nsectors < 1 || sk->sector_ft <= 0) return CB_OK;
  if (doc->npages < 1) return CB_OK;
  cb_page *p = cb_page_new(doc->pages[doc->npages - 1]->w, doc->pages[doc->npages - 1]->h);
  if (!p || cb_document_add(doc, p)) {
    cb_page_free(p);
    return cb_error_oom(err);
  }
  p->label = "Tunnel sketch";
  double y = f->y + TITLE_SIZE;
  cb_page_text(p, CB_FONT_BOLD, TITLE_SIZE, f->x, y, st->ink, "Tunnel sketch");
  y += NOTE_SIZE * 1.7;
  cb_span note[] = {{CB_FONT_ITALIC,
                     "The tunnel template as rolled: a letter per sector (d10), turned by a d4; a "
                     "d6 at every junction, a d8 on both walls every 60 ft, a d20 beyond every door: "
                     "a room, or a passage drawn as a short stub that ends blind. Room numbers "
                     "match the map and the key.",
                     NULL, 0}};
  cb_flow fl = {st->m, NOTE_SIZE, NOTE_SIZE * 1.25, f->w, LABEL, NULL, NULL};
  int lines = 0; /* out of memory marks the page */
  cb_text_flow(p, &fl, note, 1, f->x, y, &lines, NULL);
  y += lines * fl.leading + 6;

  double x0, y0, W, H;
  extent(d, sk, &x0, &y0, &W, &H);
  view v = {1, 0, 0, 0, 0};
  /* fit the map, then leave room below it for the scale bar and legend */
  cb_symbol_set all = ~0ull;
  double avail_h = f->y + f->h - y, s = fmin(f->w / W, avail_h / H);
  for (int k = 0; k < 3; k++) {
    v = at_scale(s, 0, 0);
    double below = 26 + legend(p, st, all, &v, f->x, 0, f->w, 0);
    s = fmin(f->w / W, (avail_h - below) / H);
  }
  v = at_scale(s, f->x + (f->w - W * s) / 2 - x0 * s, y - y0 * s);
  cb_symbol_set used = 0;
  draw(p, st, d, sk, &v, true, &used);
  y += H * s + 8;
  y += scale_bar(p, st, &v, f->x, y) + 6;
  legend(p, st, used, &v, f->x, y, f->w, 1);
  return p->oom ? cb_error_oom(err) : CB_OK;
}

/* What leximorph draws beyond the generic sheet (its row in the registry). */
const cb_layout_hooks cb_leximorph_layout = {.sheet = {cb_sketch_map, cb_sketch_height, cb_sketch_legend},
                                             .extra_pages = cb_sketch_pages};
