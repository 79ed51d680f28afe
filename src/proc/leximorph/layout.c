#include "layout.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "page/flow.h"
#include "proc.h"
#include "sketch.h"

static const cb_rgb GRID = {0.80, 0.87, 0.94}, SECTOR = {0.50, 0.58, 0.68}, LABEL = {0.42, 0.42, 0.42},
                    LETTER = {0.62, 0.66, 0.72};
static const double TITLE_SIZE = 15, NOTE_SIZE = 8.2, LEGEND_SIZE = 8;
static const double TUNNEL_FT = 10, ROOM_FT = 15, SQUARE_FT = 10;

typedef struct view {
  double s, ox, oy; /* points per foot, page position of (0, 0) */
  double tw, room;  /* tunnel width and room side, points */
  double *at;       /* each room box's centre (x, y pairs, page points); NULL: at its junction */
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

static const double *sort_key; /* qsort has no context; the layout runs on one thread */
static int by_x(const void *a, const void *b) {
  double xa = sort_key[2 * *(const int *)a], xb = sort_key[2 * *(const int *)b];
  return (xa > xb) - (xa < xb);
}

/* Two room boxes that would overlap at this scale (rooms a few feet apart,
 * or a small sketch) are pushed apart along the axis they overlap least on,
 * a little each round, so every number reads: a settled sketch moves a box
 * by a fraction of its side; the door still runs to where the box sits. */
static void settle_rooms(const cb_dungeon *d, view *v) {
  int n = d->nrooms;
  double *at = n > 0 ? malloc(sizeof *at * 2 * (size_t)n) : NULL;
  int *order = n > 0 ? malloc(sizeof *order * (size_t)n) : NULL;
  if (!at || !order) {
    free(at), free(order);
    return; /* out of memory: the boxes stay on their junctions */
  }
  for (int i = 0; i < n; i++)
    at[2 * i] = px(v, d->rooms[i].x), at[2 * i + 1] = py(v, d->rooms[i].y), order[i] = i;
  double side = v->room + 1.5;
  for (int round = 0; round < 60; round++) {
    sort_key = at;
    qsort(order, (size_t)n, sizeof *order, by_x);
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
  v->at = at;
}

static const char *short_turn(int rotation) {
  static const char *const w[] = {"", "upright", "turned 90\xc2\xb0 clockwise", "upside down",
                                  "turned 90\xc2\xb0 counter-clockwise"};
  return rotation >= 1 && rotation <= 4 ? w[rotation] : "";
}

/* How much of the tunnels (sampled every 2 ft) and of the rooms lies inside the box, in points. */
static int label_hits(const cb_dungeon *d, const cb_sketch *sk, const view *v, double x0, double y0,
                      double x1, double y1) {
  int hits = 0;
  for (int i = 0; i < d->nrooms; i++) {
    double x = rx_of(v, d, &d->rooms[i]), y = ry_of(v, d, &d->rooms[i]), r = v->room / 2 + 2;
    if (x + r >= x0 && x - r <= x1 && y + r >= y0 && y - r <= y1) hits += 100;
  }
  /* the marks along the tunnels (a secret door's S, a trap's T) weigh like rooms */
  for (int i = 0; i < sk->nwalls + sk->njunctions; i++) {
    double wx = i < sk->nwalls ? sk->walls[i].x : sk->junctions[i - sk->nwalls].x;
    double wy = i < sk->nwalls ? sk->walls[i].y : sk->junctions[i - sk->nwalls].y;
    double x = px(v, wx), y = py(v, wy), r = v->tw * 1.5;
    if (x + r >= x0 && x - r <= x1 && y + r >= y0 && y - r <= y1) hits += 50;
  }
  for (int t = 0; t < sk->ntunnels; t++) {
    const cb_sketch_tunnel *tu = &sk->tunnels[t];
    for (int i = 0; i + 1 < tu->npoints; i++) {
      double ax = tu->points[i].x, ay = tu->points[i].y, bx = tu->points[i + 1].x, by = tu->points[i + 1].y;
      if (fmax(px(v, ax), px(v, bx)) < x0 || fmin(px(v, ax), px(v, bx)) > x1 ||
          fmax(py(v, ay), py(v, by)) < y0 || fmin(py(v, ay), py(v, by)) > y1)
        continue;                                              /* the segment misses the box */
      int n = (int)fmin(200, hypot(bx - ax, by - ay) / 2) + 1; /* a hand-made sketch may hold long strokes */
      for (int k = 0; k <= n; k++) {
        double x = px(v, ax + (bx - ax) * k / n), y = py(v, ay + (by - ay) * k / n);
        hits += x >= x0 && x <= x1 && y >= y0 && y <= y1;
      }
    }
  }
  return hits;
}

/* Graph paper, the sector grid, and each sector's letter and rolls. */
static void paper(cb_page *p, const cb_symbols *st, const cb_dungeon *d, const cb_sketch *sk, const view *v) {
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
  double side = sk->sector_ft * v->s, big = fmax(9, fmin(22, side * 0.11)),
         small = 7; /* 7 pt: the least we print */
  for (int k = 0; k < sk->nsectors; k++) {
    const cb_sketch_sector *s = &sk->sectors[k];
    char line[2][96];
    snprintf(line[0], sizeof line[0], "sector %d,%d", s->col, s->row);
    /* the rolls as "d10 2, d4 1:" so that no word on the map is a bare number but a room's */
    if (s->roll)
      snprintf(line[1], sizeof line[1], "d10 %d, d4 %d: %s", s->roll, s->rotation, short_turn(s->rotation));
    else
      snprintf(line[1], sizeof line[1], "%s", short_turn(s->rotation));
    double lw = cb_text_width(st->m, CB_FONT_BOLD, big, s->letter) + small * 0.5;
    double w = lw + fmax(cb_text_width(st->m, CB_FONT_ITALIC, small, line[0]),
                         cb_text_width(st->m, CB_FONT_ITALIC, small, line[1]));
    if (s->roll && w > side * 0.6) {
      /* a small sketch keeps the rolls and lets the words go: the caption stays in its sector */
      snprintf(line[1], sizeof line[1], "d10 %d, d4 %d", s->roll, s->rotation);
      w = lw + fmax(cb_text_width(st->m, CB_FONT_ITALIC, small, line[0]),
                    cb_text_width(st->m, CB_FONT_ITALIC, small, line[1]));
    }
    double h = big * 1.15, x0 = px(v, (s->col - 1) * sk->sector_ft), y0 = py(v, (s->row - 1) * sk->sector_ft);
    /* where in the sector the label covers the least tunnel: a corner, else
     * (every corner covering something) the clearest of a 5 x 5 grid of places */
    double best_x = x0 + small * 0.6, best_y = y0, left = x0 + small * 0.6,
           right = fmax(left, x0 + side - w - small * 0.6), top = y0, bottom = fmax(y0, y0 + side - h - 2);
    int best = -1;
    for (int c = 0; c < 4 + 25 && best != 0; c++) {
      double fx = c < 4 ? c % 2 : (c - 4) % 5 / 4.0, fy = c < 4 ? c / 2 : (c - 4) / 5 / 4.0;
      double x = left + (right - left) * fx, y = top + (bottom - top) * fy;
      int hits = label_hits(d, sk, v, x - v->tw / 2, y - v->tw / 2, x + w + v->tw / 2, y + h + v->tw / 2);
      if (best < 0 || hits < best) best = hits, best_x = x, best_y = y;
    }
    cb_page_text(p, CB_FONT_BOLD, big, best_x, best_y + big * 0.95, shade(st, LETTER), s->letter);
    cb_page_text(p, CB_FONT_ITALIC, small, best_x + lw, best_y + big * 0.95 - small * 1.15, LABEL, line[0]);
    cb_page_text(p, CB_FONT_ITALIC, small, best_x + lw, best_y + big * 0.95, LABEL, line[1]);
  }
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

/* The direction of tunnel t where it passes nearest to (x, y). */
static void direction_at(const cb_sketch_tunnel *t, double x, double y, double *ux, double *uy) {
  double best = INFINITY;
  *ux = 1, *uy = 0;
  for (int i = 0; i + 1 < t->npoints; i++) {
    double ax = t->points[i].x, ay = t->points[i].y, dx = t->points[i + 1].x - ax,
           dy = t->points[i + 1].y - ay;
    double l2 = dx * dx + dy * dy;
    if (l2 <= 0) continue;
    double f = ((x - ax) * dx + (y - ay) * dy) / l2;
    f = f < 0 ? 0 : f > 1 ? 1 : f;
    double d = hypot(ax + dx * f - x, ay + dy * f - y);
    if (d < best - 1e-9) best = d, *ux = dx / sqrt(l2), *uy = dy / sqrt(l2);
  }
}

static const cb_room *room_of(const cb_dungeon *d, int id) { return id ? cb_dungeon_room(d, id) : NULL; }

/* A corridor from the tunnel wall at (wx, wy) to room r, with its door. */
static void door_to(cb_page *p, const cb_symbols *st, const view *v, const cb_dungeon *d, double wx,
                    double wy, const cb_room *r, cb_symbol sym) {
  double rx = rx_of(v, d, r), ry = ry_of(v, d, r), dx = rx - wx, dy = ry - wy, l = hypot(dx, dy);
  if (l <= v->room / 2 + 1) return;
  double ux = dx / l, uy = dy / l;
  /* the room's edge along the way: a square's side */
  double edge = v->room / 2 / fmax(fabs(ux), fabs(uy));
  cb_symbol_passage(p, st, sym, wx, wy, rx - ux * edge, ry - uy * edge);
}

static void room_box(cb_page *p, const cb_symbols *st, const view *v, const cb_dungeon *d, const cb_room *r) {
  char num[16];
  double x = rx_of(v, d, r), y = ry_of(v, d, r);
  snprintf(num, sizeof num, "%d", r->number);
  cb_page_role(p, CB_ROLE_NUMBER, r->id, 0);
  cb_symbol_sketch_mark(p, st, CB_SYM_SK_ROOM, num, x, y, 1, 0, 0, -1, v->room);
  cb_page_role(p, CB_ROLE_ROOM_MARK, r->id, 0);
  if (r->tags & CB_TAG_ENTRANCE)
    cb_symbol_badge(p, st, CB_SYM_ENTRANCE, NULL, x + v->room / 2 + st->badge * 0.55, y + v->room / 2);
  cb_page_role(p, CB_ROLE_NONE, 0, 0);
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
      double dx = dr->ux * v->tw * 0.35;
      cb_symbol_mark(p, st, s, x + dx, y + dr->uy * v->tw * 0.35, dr->ux, dr->uy, sw);
      *used |= CB_SYMBOL_BIT(s);
    }
}

/* Every wall and junction result where it was rolled, and the rooms. */
static void marks(cb_page *p, const cb_symbols *st, const cb_dungeon *d, const cb_sketch *sk, const view *v,
                  cb_symbol_set *used) {
  /* side passages first: their floors open through the tunnel walls */
  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < sk->nwalls; i++) {
      const cb_sketch_wall *w = &sk->walls[i];
      cb_symbol s = wall_symbol(w->effect);
      int is_stub = s == CB_SYM_SK_BRANCH || s == CB_SYM_SK_DIAGONALS || s == CB_SYM_SK_BLOCKED;
      if (is_stub != (pass == 0)) continue;
      double ux, uy;
      direction_at(&sk->tunnels[w->tunnel], w->x, w->y, &ux, &uy);
      double nx = w->right ? -uy : uy, ny = w->right ? ux : -ux, x = px(v, w->x), y = py(v, w->y);
      *used |= CB_SYMBOL_BIT(s);
      if (cb_symbol_is_sketch_mark(s)) {
        cb_symbol_sketch_mark(p, st, s, NULL, x, y, ux, uy, nx, ny, v->tw);
        continue;
      }
      double wx = x + nx * v->tw / 2, wy = y + ny * v->tw / 2;
      if (s == CB_SYM_STAIRS) {
        cb_symbol_passage(p, st, s, wx, wy, wx + nx * v->tw * 1.8, wy + ny * v->tw * 1.8);
        continue;
      }
      for (int k = 0; k < 2; k++) {
        const cb_room *r = room_of(d, w->rooms[k]);
        if (!r) continue;
        /* the door sits in the wall level with its room */
        double along = (rx_of(v, d, r) - wx) * ux + (ry_of(v, d, r) - wy) * uy;
        door_to(p, st, v, d, wx + ux * along, wy + uy * along, r, s);
      }
    }
  door_stubs(p, st, sk, v, used);
  for (int j = 0; j < sk->njunctions; j++) {
    const cb_sketch_junction *J = &sk->junctions[j];
    cb_symbol s = junction_symbol(J->effect);
    double x = px(v, J->x), y = py(v, J->y);
    *used |= CB_SYMBOL_BIT(s);
    const cb_room *r = room_of(d, J->room);
    if (J->effect == CB_JUNCTION_DOOR && r) {
      double dx = rx_of(v, d, r) - x, dy = ry_of(v, d, r) - y, l = hypot(dx, dy);
      if (l > 0) door_to(p, st, v, d, x + dx / l * v->tw / 2, y + dy / l * v->tw / 2, r, CB_SYM_DOOR);
      *used |= CB_SYMBOL_BIT(CB_SYM_DOOR);
    }
    if (s != CB_SYM_SK_ROOM) cb_symbol_sketch_mark(p, st, s, NULL, x, y, 1, 0, 0, -1, v->tw);
  }
  for (int i = 0; i < d->nrooms; i++) {
    room_box(p, st, v, d, &d->rooms[i]);
    *used |= CB_SYMBOL_BIT(CB_SYM_SK_ROOM) |
             (d->rooms[i].tags & CB_TAG_ENTRANCE ? CB_SYMBOL_BIT(CB_SYM_ENTRANCE) : 0);
  }
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
      CB_SYM_SK_ROOM,      CB_SYM_ENTRANCE,   CB_SYM_SK_JUNCTION, CB_SYM_SK_TRAP,  CB_SYM_SK_TRAP_OFF,
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
                                            : cb_symbol_name(s);
    double item = sample + v->tw / 2 + 5 + cb_text_width(st->m, CB_FONT_REGULAR, LEGEND_SIZE, name) + 12;
    if (cx + item > x + w && cx > x + head) row++, cx = x + head;
    double cy = y + row * rowh + rowh * 0.62;
    if (draw) {
      double t[4] = {cx, cy, cx + sample, cy};
      int wall_mark = s == CB_SYM_SK_BLANK || s == CB_SYM_SK_BRANCH || s == CB_SYM_SK_DIAGONALS ||
                      s == CB_SYM_SK_BLOCKED || s == CB_SYM_DOOR || s == CB_SYM_SECRET || s == CB_SYM_STAIRS;
      if (s == CB_SYM_SK_ROOM) {
        cb_symbol_sketch_mark(p, st, s, "7", cx + sample / 2, cy, 1, 0, 0, -1, v->room);
      } else if (s == CB_SYM_ENTRANCE) {
        cb_symbol_badge(p, st, s, NULL, cx + sample / 2, cy);
      } else {
        /* a stretch of tunnel, the mark on it (wall marks on its upper wall) */
        double mid = cx + sample / 2;
        if (wall_mark) t[1] = t[3] = cy + v->tw * 0.6;
        cb_symbol_tunnel(p, st, t, 2, v->tw, 0, 0);
        cb_symbol_tunnel(p, st, t, 2, v->tw, 1, 0);
        if (cb_symbol_is_sketch_mark(s))
          cb_symbol_sketch_mark(p, st, s, NULL, mid, t[1], 1, 0, 0, -1, v->tw);
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
                .room = fmax(11, fmin(18, ROOM_FT * s))};
}

static void draw(cb_page *p, const cb_symbols *st, const cb_dungeon *d, const cb_sketch *sk, const view *v0,
                 cb_symbol_set *used) {
  view settled = *v0, *v = &settled;
  settle_rooms(d, v);
  paper(p, st, d, sk, v);
  tunnels(p, st, sk, v, 0);
  tunnels(p, st, sk, v, 1);
  marks(p, st, d, sk, v, used);
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

void cb_sketch_map(cb_page *p, const cb_symbols *st, const cb_dungeon *d, int level, double x, double y,
                   double w, double h, cb_symbol_set *used) {
  (void)level;
  if (!has_sketch(d)) return;
  view v = box_view(d, x, y, w, h);
  draw(p, st, d, cb_leximorph_sketch(d), &v, used);
}

double cb_sketch_legend(cb_page *p, const cb_symbols *st, const cb_dungeon *d, cb_symbol_set used,
                        double map_w, double map_h, double x, double y, double w) {
  if (!has_sketch(d)) return 0;
  view v = box_view(d, 0, 0, map_w, map_h);
  /* the sheet's legend at the small sketch's size: a row of samples, not a band of big ones */
  v.tw = fmin(v.tw, 5.5), v.room = fmin(v.room, 12);
  return legend(p, st, used, &v, x, y, w, p != NULL);
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
  int lines = cb_text_flow(p, &fl, note, 1, f->x, y);
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
  draw(p, st, d, sk, &v, &used);
  y += H * s + 8;
  y += scale_bar(p, st, &v, f->x, y) + 6;
  legend(p, st, used, &v, f->x, y, f->w, 1);
  return p->oom ? cb_error_oom(err) : CB_OK;
}

/* What leximorph draws beyond the generic sheet (its row in the registry). */
const cb_layout_hooks cb_leximorph_layout = {.sheet_map = cb_sketch_map,
                                             .sheet_height = cb_sketch_height,
                                             .sheet_legend = cb_sketch_legend,
                                             .extra_pages = cb_sketch_pages};
