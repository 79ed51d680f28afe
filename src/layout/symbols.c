#include "symbols.h"

#include <math.h>
#include <string.h>

#include "page/flow.h"

static const double MIN_TEXT = CB_SYMBOL_MIN_TEXT;

static const char *const names[CB_SYM_COUNT] = {"main start",
                                                "start",
                                                "entrance",
                                                "goal",
                                                "boss",
                                                "encounter",
                                                "treasure",
                                                "key",
                                                "way to the surface",
                                                "stairs to another level",
                                                "unreachable",
                                                "path",
                                                "door",
                                                "opening",
                                                "secret",
                                                "locked (key)",
                                                "soft-locked",
                                                "trapped",
                                                "obstructed",
                                                "one-way",
                                                "concealed",
                                                "stairs",
                                                "ladder",
                                                "passes under",
                                                "passes over",
                                                "dead end",
                                                "portal"};

#define GREEN                                                                                                \
  { 0.10, 0.45, 0.20 }
#define CRIMSON                                                                                              \
  { 0.65, 0.08, 0.10 }
#define RED                                                                                                  \
  { 0.80, 0.18, 0.10 }
#define GOLD                                                                                                 \
  { 0.66, 0.46, 0.02 }
#define BLUE                                                                                                 \
  { 0.12, 0.32, 0.68 }
#define ORANGE                                                                                               \
  { 0.85, 0.45, 0.05 }
#define TEAL                                                                                                 \
  { 0.05, 0.42, 0.45 }
#define SEPIA                                                                                                \
  { 0.22, 0.16, 0.10 }
const cb_rgb cb_palette_colour[CB_SYM_COUNT] = {
    [CB_SYM_MAIN_START] = GREEN,
    [CB_SYM_START] = GREEN,
    [CB_SYM_ENTRANCE] = GREEN,
    [CB_SYM_GOAL] = CRIMSON,
    [CB_SYM_BOSS] = CRIMSON,
    [CB_SYM_ENCOUNTER] = RED,
    [CB_SYM_TREASURE] = GOLD,
    [CB_SYM_KEY] = GOLD,
    [CB_SYM_SURFACE_EXIT] = BLUE,
    [CB_SYM_STAIRS_AWAY] = TEAL,
    [CB_SYM_UNREACHABLE] = {0.5, 0.5, 0.5},
    [CB_SYM_PATH] = SEPIA,
    [CB_SYM_DOOR] = SEPIA,
    [CB_SYM_OPEN] = SEPIA,
    [CB_SYM_SECRET] = BLUE,
    [CB_SYM_LOCKED] = GOLD,
    [CB_SYM_SOFT_LOCKED] = ORANGE,
    [CB_SYM_TRAPPED] = RED,
    [CB_SYM_OBSTRUCTED] = ORANGE,
    [CB_SYM_ONE_WAY] = {0.45, 0.20, 0.55},
    [CB_SYM_CONCEALED] = BLUE,
    [CB_SYM_STAIRS] = TEAL,
    [CB_SYM_LADDER] = TEAL,
    [CB_SYM_UNDER] = TEAL,
    [CB_SYM_OVER] = TEAL,
    [CB_SYM_DEAD_END] = SEPIA,
    [CB_SYM_PORTAL] = {0.45, 0.20, 0.55},
};
const cb_rgb cb_palette_room = {1.0, 0.965, 0.88};

cb_rgb cb_symbol_color(const cb_symbols *st, cb_symbol s) {
  if (!st->accent || (unsigned)s >= CB_SYM_COUNT) return st->ink;
  cb_rgb c = st->accent[s];
  /* symbols the palette leaves out (all zero) keep the ink */
  return c.r == 0 && c.g == 0 && c.b == 0 ? st->ink : c;
}

cb_rgb cb_symbol_room_fill(const cb_symbols *st) { return st->accent ? st->room : st->paper; }

/* st with its ink turned to s's colour: every stroke of s below uses it. */
static cb_symbols tinted(const cb_symbols *st, cb_symbol s) {
  cb_symbols t = *st;
  t.ink = cb_symbol_color(st, s);
  return t;
}

const char *cb_symbol_name(cb_symbol s) { return (unsigned)s < CB_SYM_COUNT ? names[s] : "?"; }

int cb_symbol_is_badge(cb_symbol s) { return s < CB_SYM_PATH; }

static const char *badge_text(cb_symbol s, const char *text) {
  switch (s) {
  case CB_SYM_MAIN_START: return "M";
  case CB_SYM_START: return "St";
  case CB_SYM_ENTRANCE: return "E";
  case CB_SYM_GOAL: return text ? text : "G"; /* "G B": the boss holds it (map.h) */
  case CB_SYM_BOSS: return "B";
  case CB_SYM_ENCOUNTER: return "?";
  case CB_SYM_TREASURE: return "$";
  case CB_SYM_KEY: return text ? text : "K";
  case CB_SYM_SURFACE_EXIT: return "\xe2\x86\x91"; /* an up arrow, drawn as a path below */
  case CB_SYM_STAIRS_AWAY:
  case CB_SYM_LOCKED: return text ? text : "";
  case CB_SYM_UNREACHABLE: return "\xc3\x97";
  default: return "";
  }
}

/* Black marks (white letters) for what a party looks for, white ones for the rest. */
static int badge_dark(cb_symbol s) {
  return s == CB_SYM_MAIN_START || s == CB_SYM_GOAL || s == CB_SYM_KEY || s == CB_SYM_BOSS ||
         s == CB_SYM_ENTRANCE;
}

/* Marks whose symbol is a drawing, not letters. */
static int badge_drawn(cb_symbol s) { return s == CB_SYM_SURFACE_EXIT || s == CB_SYM_UNREACHABLE; }

static double stairs_icon_w(const cb_symbols *st) { return st->badge * 0.8; }

/* A badge's letters: in proportion to the badge, never under the 7 pt a
 * photocopy still reads (the boss's B a little smaller, as it sits in a shield). */
static double badge_text_size(const cb_symbols *st, cb_symbol s) {
  return fmax(MIN_TEXT, st->badge * 0.78 * (s == CB_SYM_BOSS ? 0.9 : 1));
}

/* Locked stairs' text "L2 K1": the level into level[], the key after it
 * (NULL when the stairs are not locked). */
static const char *stairs_lock(const char *text, char *level, size_t cap) {
  const char *sp = text ? strchr(text, ' ') : NULL;
  size_t n = sp ? (size_t)(sp - text) : 0;
  if (!sp || n >= cap) return NULL;
  memcpy(level, text, n);
  level[n] = 0;
  return sp + 1;
}

double cb_symbol_badge_width(const cb_symbols *st, cb_symbol s, const char *text) {
  if (badge_drawn(s)) return st->badge;
  char level[32];
  const char *key = s == CB_SYM_STAIRS_AWAY ? stairs_lock(text, level, sizeof level) : NULL;
  if (key) /* the stairs' part, then the padlock's */
    return cb_symbol_badge_width(st, CB_SYM_STAIRS_AWAY, level) +
           cb_symbol_badge_width(st, CB_SYM_LOCKED, key) - st->badge * 0.4;
  double tw = cb_text_width(st->m, CB_FONT_BOLD, badge_text_size(st, CB_SYM_COUNT), badge_text(s, text));
  if (s == CB_SYM_STAIRS_AWAY || s == CB_SYM_LOCKED)
    tw += stairs_icon_w(st) + (text && *text ? st->badge * 0.15 : 0);
  double w = tw + st->badge * 0.55;
  return w < st->badge ? st->badge : w;
}

/* Three steps going down to the right, in a box of side s with its top left at x, y. */
static void steps(cb_page *p, const cb_symbols *st, double x, double y, double s, cb_rgb color) {
  cb_page_move(p, x, y);
  for (int i = 0; i < 3; i++) {
    cb_page_line(p, x + s * (i + 1) / 3, y + s * i / 3);
    cb_page_line(p, x + s * (i + 1) / 3, y + s * (i + 1) / 3);
  }
  cb_ink ink = cb_ink_stroke(color, st->line * 0.9);
  cb_page_ink(p, &ink);
}

static void padlock(cb_page *p, const cb_symbols *st, double cx, double cy);
static void badge_inside(cb_page *p, const cb_symbols *st, cb_symbol s, const char *text, double cx,
                         double cy, cb_rgb fg);

void cb_symbol_badge(cb_page *p, const cb_symbols *st0, cb_symbol s, const char *text, double cx, double cy) {
  cb_symbols tint = tinted(st0, s);
  const cb_symbols *st = &tint;
  double h = st->badge, w = cb_symbol_badge_width(st, s, text);
  int dark = badge_dark(s);
  cb_rgb fg = dark ? st->paper : st->ink;
  cb_ink ink = {.fill = true,
                .stroke = true,
                .fill_color = dark ? st->ink : st->paper,
                .stroke_color = st->ink,
                .width = st->line * 0.8,
                .cap = CB_CAP_ROUND};
  if (s == CB_SYM_ENCOUNTER || s == CB_SYM_TREASURE || s == CB_SYM_SURFACE_EXIT || s == CB_SYM_UNREACHABLE)
    cb_page_circle(p, cx, cy, h / 2);
  else if (s == CB_SYM_BOSS) {
    /* a crowned shield shape: pointed bottom */
    cb_page_move(p, cx - w / 2, cy - h / 2);
    cb_page_line(p, cx + w / 2, cy - h / 2);
    cb_page_line(p, cx + w / 2, cy + h * 0.1);
    cb_page_line(p, cx, cy + h * 0.62);
    cb_page_line(p, cx - w / 2, cy + h * 0.1);
    cb_page_close(p);
  } else
    cb_page_rounded_rect(p, cx - w / 2, cy - h / 2, w, h, s == CB_SYM_KEY ? h * 0.5 : h * 0.18);
  cb_page_ink(p, &ink);
  if (s == CB_SYM_SURFACE_EXIT) {
    /* an arrow up and out */
    double a = h * 0.28;
    cb_page_move(p, cx, cy + a);
    cb_page_line(p, cx, cy - a);
    cb_page_move(p, cx - a * 0.7, cy - a * 0.2);
    cb_page_line(p, cx, cy - a);
    cb_page_line(p, cx + a * 0.7, cy - a * 0.2);
    cb_ink arrow = cb_ink_stroke(fg, st->line * 1.1);
    cb_page_ink(p, &arrow);
    return;
  }
  if (s == CB_SYM_UNREACHABLE) {
    double a = h * 0.22;
    cb_page_move(p, cx - a, cy - a);
    cb_page_line(p, cx + a, cy + a);
    cb_page_move(p, cx - a, cy + a);
    cb_page_line(p, cx + a, cy - a);
    cb_ink cross = cb_ink_stroke(fg, st->line * 1.1);
    cb_page_ink(p, &cross);
    return;
  }
  char level[32];
  const char *key = s == CB_SYM_STAIRS_AWAY ? stairs_lock(text, level, sizeof level) : NULL;
  if (key) {
    /* inside the one outline: the steps and the level, then the padlock and the key */
    double w1 = cb_symbol_badge_width(st, CB_SYM_STAIRS_AWAY, level) - st->badge * 0.2,
           w2 = cb_symbol_badge_width(st, CB_SYM_LOCKED, key) - st->badge * 0.2, x0 = cx - (w1 + w2) / 2;
    badge_inside(p, st, CB_SYM_STAIRS_AWAY, level, x0 + w1 / 2, cy, fg);
    badge_inside(p, st, CB_SYM_LOCKED, key, x0 + w1 + w2 / 2, cy, fg);
    return;
  }
  badge_inside(p, st, s, text, cx, cy, fg);
}

/* What a badge holds (letters, and the steps or padlock before them), centred at (cx, cy). */
static void badge_inside(cb_page *p, const cb_symbols *st, cb_symbol s, const char *text, double cx,
                         double cy, cb_rgb fg) {
  const char *t = badge_text(s, text);
  double size = badge_text_size(st, CB_SYM_COUNT);
  double tw = cb_text_width(st->m, CB_FONT_BOLD, size, t), x = cx - tw / 2;
  if (s == CB_SYM_STAIRS_AWAY || s == CB_SYM_LOCKED) {
    double iw = stairs_icon_w(st), gap = t[0] ? st->badge * 0.15 : 0, total = iw + gap + tw;
    if (s == CB_SYM_STAIRS_AWAY)
      steps(p, st, cx - total / 2, cy - iw / 2, iw, fg);
    else {
      cb_symbols small = *st;
      small.badge = st->badge * 0.72;
      padlock(p, &small, cx - total / 2 + iw / 2, cy + iw * 0.12);
    }
    x = cx - total / 2 + iw + gap;
    if (!t[0]) return;
  }
  cb_page_text(p, CB_FONT_BOLD, badge_text_size(st, s), x, cy + size * (s == CB_SYM_BOSS ? 0.22 : 0.34), fg,
               t);
}

void cb_symbol_stroke(cb_page *p, cb_rgb color, double width, cb_cap cap) {
  cb_ink ink = cb_ink_stroke(color, width);
  ink.cap = cap;
  cb_page_ink(p, &ink);
}

/* A short mark across the passage at (mx, my), perpendicular to it. */
/* The obstructed mark: an X of half-width a about (x, y). */
static void obstructed(cb_page *p, const cb_symbols *st, double x, double y, double a) {
  cb_page_move(p, x - a, y - a);
  cb_page_line(p, x + a, y + a);
  cb_page_move(p, x - a, y + a);
  cb_page_line(p, x + a, y - a);
  cb_symbol_stroke(p, st->ink, st->line * 1.6, CB_CAP_BUTT);
}

static void cross_bar(cb_page *p, double mx, double my, double ux, double uy, double half, cb_rgb c,
                      double w) {
  cb_page_move(p, mx - uy * half, my + ux * half);
  cb_page_line(p, mx + uy * half, my - ux * half);
  cb_symbol_stroke(p, c, w, CB_CAP_BUTT);
}

/* A padlock's body, bw wide and bh high, and its shackle's radius r. */
static void padlock_size(const cb_symbols *st, double *bw, double *bh, double *r) {
  double s = st->badge * 0.9;
  *bw = s * 0.8, *bh = s * 0.6, *r = *bw * 0.32;
}

static void padlock(cb_page *p, const cb_symbols *st, double cx, double cy) {
  double bw, bh, r;
  padlock_size(st, &bw, &bh, &r);
  double top = cy - bh / 2;
  cb_page_move(p, cx - r, top + 0.5);
  cb_page_line(p, cx - r, top - r * 0.6);
  cb_page_curve(p, cx - r, top - r * 1.9, cx + r, top - r * 1.9, cx + r, top - r * 0.6);
  cb_page_line(p, cx + r, top + 0.5);
  cb_symbol_stroke(p, st->ink, st->line * 1.3, CB_CAP_ROUND);
  cb_page_rect(p, cx - bw / 2, top, bw, bh);
  cb_ink body = cb_ink_fill(st->ink);
  cb_page_ink(p, &body);
  cb_page_circle(p, cx, top + bh * 0.45, bh * 0.13);
  cb_ink hole = cb_ink_fill(st->paper);
  cb_page_ink(p, &hole);
}

/* A door leaf across a passage running (ux, uy): half thickness hw along it,
 * half length hl across it. */
static void door_leaf(cb_page *p, const cb_symbols *st, double x, double y, double ux, double uy, double hw,
                      double hl) {
  double nx = -uy, ny = ux;
  cb_page_move(p, x - ux * hw - nx * hl, y - uy * hw - ny * hl);
  cb_page_line(p, x + ux * hw - nx * hl, y + uy * hw - ny * hl);
  cb_page_line(p, x + ux * hw + nx * hl, y + uy * hw + ny * hl);
  cb_page_line(p, x - ux * hw + nx * hl, y - uy * hw + ny * hl);
  cb_page_close(p);
  cb_ink d = {
      .fill = true, .stroke = true, .fill_color = st->paper, .stroke_color = st->ink, .width = st->line};
  cb_page_ink(p, &d);
}

/* A small letter in a white disc at the middle of the passage. */
static double disc_size(const cb_symbols *st) { return fmax(MIN_TEXT, st->badge * 0.7); }
static double disc_radius(const cb_symbols *st) { return fmax(st->badge * 0.42, disc_size(st) * 0.6); }

static void disc_letter(cb_page *p, const cb_symbols *st, double mx, double my, const char *letter) {
  double size = disc_size(st), r = disc_radius(st);
  cb_page_circle(p, mx, my, r);
  cb_ink ink = {.fill = true,
                .stroke = true,
                .fill_color = st->paper,
                .stroke_color = st->ink,
                .width = st->line * 0.7};
  cb_page_ink(p, &ink);
  double tw = cb_text_width(st->m, CB_FONT_BOLD, size, letter);
  cb_page_text(p, CB_FONT_BOLD, size, mx - tw / 2, my + size * 0.35, st->ink, letter);
}

static double label_size(const cb_symbols *st) { return fmax(MIN_TEXT, st->label); }

void cb_symbol_label_size(const cb_symbols *st, const char *text, double *w, double *h) {
  *w = cb_text_width(st->m, CB_FONT_BOLD, label_size(st), text) + 2;
  *h = label_size(st) * 1.05;
}

void cb_symbol_label(cb_page *p, const cb_symbols *st, const char *text, double cx, double cy) {
  double w, h;
  cb_symbol_label_size(st, text, &w, &h);
  cb_page_rect(p, cx - w / 2, cy - h / 2, w, h);
  cb_ink bg = cb_ink_fill(st->paper);
  cb_page_ink(p, &bg);
  cb_page_text(p, CB_FONT_BOLD, label_size(st), cx - w / 2 + 1, cy + label_size(st) * 0.35, st->ink, text);
}

void cb_symbol_passage_mark(const cb_symbols *st, cb_symbol s, double *w, double *h) {
  double b = st->badge;
  switch (s) {
  case CB_SYM_PATH: *w = *h = 0; break;
  case CB_SYM_TRAPPED: *w = b * 1.7, *h = b * 0.8; break;
  case CB_SYM_UNDER:
  case CB_SYM_OVER:
  case CB_SYM_STAIRS:
  case CB_SYM_LADDER: *w = b * 1.9, *h = b; break;
  case CB_SYM_LOCKED: *w = b * 0.9, *h = b * 1.1; break;
  /* a disc's letter keeps to the smallest legible size, so on small marks it is the larger */
  case CB_SYM_SECRET:
  case CB_SYM_CONCEALED: *w = *h = fmax(b * 0.95, 2 * disc_radius(st)); break;
  default: *w = *h = b * 0.95; break;
  }
}

void cb_symbol_passage_mark_ink(const cb_symbols *st, cb_symbol s, double *ink) {
  double w, h, bw, bh, r;
  cb_symbol_passage_mark(st, s, &w, &h);
  ink[0] = -w / 2 - st->line / 2, ink[1] = -h / 2 - st->line / 2, ink[2] = -ink[0], ink[3] = -ink[1];
  if (s != CB_SYM_LOCKED) return;
  /* the padlock's body and its shackle above it, the shackle's curve at its height (see padlock) */
  padlock_size(st, &bw, &bh, &r);
  double half = fmax(bw / 2, r + st->line * 0.65);
  ink[0] = -half, ink[1] = -bh / 2 - r * 1.575 - st->line * 0.65, ink[2] = half, ink[3] = bh / 2;
}

/* Where a passage symbol sits on its line: the middle, the direction, and
 * the stretch (gap) some symbols draw over instead of the plain line. */
typedef struct passage_geom {
  double mx, my, ux, uy, b, gap, gx0, gy0, gx1, gy1;
} passage_geom;

/* The symbol's own mark over the drawn line. */
static void passage_mark(cb_page *p, const cb_symbols *st, cb_symbol s, const passage_geom *g) {
  double mx = g->mx, my = g->my, ux = g->ux, uy = g->uy, b = g->b, gap = g->gap;
  double gx0 = g->gx0, gy0 = g->gy0, gx1 = g->gx1, gy1 = g->gy1, nx = -uy, ny = ux;
  switch (s) {
  case CB_SYM_SECRET: disc_letter(p, st, mx, my, "S"); break;
  case CB_SYM_CONCEALED: disc_letter(p, st, mx, my, "C"); break;
  case CB_SYM_SOFT_LOCKED: cross_bar(p, mx, my, ux, uy, b * 0.45, st->ink, st->line * 2.2); break;
  case CB_SYM_DOOR: door_leaf(p, st, mx, my, ux, uy, b * 0.22, b * 0.4); break;
  case CB_SYM_OPEN:
    cross_bar(p, gx0, gy0, ux, uy, b * 0.3, st->ink, st->line);
    cross_bar(p, gx1, gy1, ux, uy, b * 0.3, st->ink, st->line);
    break;
  case CB_SYM_OBSTRUCTED: obstructed(p, st, mx, my, b * 0.32); break;
  case CB_SYM_LOCKED: padlock(p, st, mx, my); break;
  case CB_SYM_ONE_WAY: {
    double a = b * 0.5, bx = mx + ux * a / 2, by = my + uy * a / 2;
    cb_page_move(p, bx, by);
    cb_page_line(p, bx - ux * a - uy * a * 0.5, by - uy * a + ux * a * 0.5);
    cb_page_line(p, bx - ux * a + uy * a * 0.5, by - uy * a - ux * a * 0.5);
    cb_page_close(p);
    cb_ink f = cb_ink_fill(st->ink);
    cb_page_ink(p, &f);
    break;
  }
  case CB_SYM_STAIRS:
  case CB_SYM_LADDER: {
    /* stairs: rungs that widen; a ladder: two rails and even rungs */
    int rungs = 5;
    for (int i = 0; i <= rungs; i++) {
      double t = -gap / 2 + gap * i / rungs;
      double half = s == CB_SYM_STAIRS ? b * (0.2 + 0.28 * i / rungs) : b * 0.32;
      cross_bar(p, mx + ux * t, my + uy * t, ux, uy, half, st->ink, st->line * 0.9);
    }
    if (s == CB_SYM_LADDER)
      for (int side = -1; side <= 1; side += 2) {
        cb_page_move(p, gx0 + nx * b * 0.32 * side, gy0 + ny * b * 0.32 * side);
        cb_page_line(p, gx1 + nx * b * 0.32 * side, gy1 + ny * b * 0.32 * side);
        cb_symbol_stroke(p, st->ink, st->line * 0.9, CB_CAP_BUTT);
      }
    break;
  }
  case CB_SYM_OVER:
    /* a bridge: brackets on both sides */
    for (int side = -1; side <= 1; side += 2) {
      double o = b * 0.3 * side;
      cb_page_move(p, gx0 - ux * b * 0.25 + nx * o * 1.5, gy0 - uy * b * 0.25 + ny * o * 1.5);
      cb_page_line(p, gx0 + nx * o, gy0 + ny * o);
      cb_page_line(p, gx1 + nx * o, gy1 + ny * o);
      cb_page_line(p, gx1 + ux * b * 0.25 + nx * o * 1.5, gy1 + uy * b * 0.25 + ny * o * 1.5);
      cb_symbol_stroke(p, st->ink, st->line * 0.9, CB_CAP_ROUND);
    }
    cb_page_move(p, gx0, gy0);
    cb_page_line(p, gx1, gy1);
    cb_symbol_stroke(p, st->ink, st->line, CB_CAP_BUTT);
    break;
  case CB_SYM_PORTAL:
    cb_page_circle(p, mx, my, gap / 2);
    {
      cb_ink ring = {
          .fill = true, .stroke = true, .fill_color = st->paper, .stroke_color = st->ink, .width = st->line};
      cb_page_ink(p, &ring);
    }
    cb_page_circle(p, mx, my, gap / 5);
    {
      cb_ink dot = cb_ink_fill(st->ink);
      cb_page_ink(p, &dot);
    }
    break;
  default: break;
  }
}

/* The middle stretch a symbol draws over instead of the plain line, on a
 * line len long with badges b high (0: it draws on the line). */
static double over_line(cb_symbol s, double b, double len) {
  switch (s) {
  case CB_SYM_TRAPPED: return fmin(b * 1.6, len * 0.5);
  case CB_SYM_UNDER:
  case CB_SYM_OVER:
  case CB_SYM_LADDER:
  case CB_SYM_STAIRS: return fmin(b * 1.8, len * 0.6);
  case CB_SYM_OPEN: return fmin(b * 0.6, len * 0.3);
  case CB_SYM_PORTAL: return fmin(b * 0.9, len * 0.4);
  default: return 0;
  }
}

void cb_symbol_passage(cb_page *p, const cb_symbols *st, cb_symbol s, double x1, double y1, double x2,
                       double y2) {
  cb_symbol_passage_at(p, st, s, x1, y1, x2, y2, 0.5);
}

void cb_symbol_passage_at(cb_page *p, const cb_symbols *st0, cb_symbol s, double x1, double y1, double x2,
                          double y2, double where) {
  cb_symbols tint = tinted(st0, s);
  const cb_symbols *st = &tint;
  double dx = x2 - x1, dy = y2 - y1, len = hypot(dx, dy);
  if (len < 1e-6) return;
  /* x1 * 0.5 + x2 * 0.5 is (x1 + x2) / 2 to the bit: the middle stays where it was */
  double ux = dx / len, uy = dy / len, mx = x1 * (1 - where) + x2 * where, my = y1 * (1 - where) + y2 * where,
         b = st->badge;
  cb_ink line = cb_ink_stroke(st->ink, st->line);
  if (s == CB_SYM_SECRET) {
    line.dash[0] = 0.01;
    line.dash[1] = st->line * 2.6;
    line.ndash = 2;
    line.width = st->line * 1.3;
  }
  double gap = over_line(s, b, len);
  double gx0 = mx - ux * gap / 2, gy0 = my - uy * gap / 2, gx1 = mx + ux * gap / 2, gy1 = my + uy * gap / 2;
  cb_page_move(p, x1, y1);
  if (s == CB_SYM_DEAD_END) {
    /* the passage stops short: a bar ends it two thirds of the way */
    double ex = x1 + dx * 0.66, ey = y1 + dy * 0.66;
    cb_page_line(p, ex, ey);
    cb_page_ink(p, &line);
    cross_bar(p, ex, ey, ux, uy, b * 0.45, st->ink, st->line * 2);
    return;
  }
  if (gap > 0) {
    cb_page_line(p, gx0, gy0);
    if (s == CB_SYM_TRAPPED) {
      int teeth = 4;
      double amp = b * 0.32;
      for (int i = 1; i <= teeth; i++) {
        double t = -gap / 2 + gap * (i - 0.5) / teeth, side = i % 2 ? 1 : -1;
        cb_page_line(p, mx + ux * t - uy * amp * side, my + uy * t + ux * amp * side);
      }
      cb_page_line(p, gx1, gy1);
    } else if (s == CB_SYM_UNDER) {
      cb_page_ink(p, &line);
      cb_ink dash = line;
      dash.dash[0] = st->line * 2;
      dash.dash[1] = st->line * 2;
      dash.ndash = 2;
      dash.cap = CB_CAP_BUTT;
      cb_page_move(p, gx0, gy0);
      cb_page_line(p, gx1, gy1);
      cb_page_ink(p, &dash);
      cb_page_move(p, gx1, gy1);
    } else {
      cb_page_ink(p, &line);
      cb_page_move(p, gx1, gy1);
    }
  }
  cb_page_line(p, x2, y2);
  cb_page_ink(p, &line);
  if (where >= 0 && where <= 1)
    passage_mark(p, st, s, &(passage_geom){mx, my, ux, uy, b, gap, gx0, gy0, gx1, gy1});
}

const double CB_PASSAGE_KIND_AT[CB_PASSAGE_KINDS] = {0.5, 0.28, 0.72, 0.16, 0.84};

/* the stretch cb_symbol_passage_kinds gives a kind that draws over the line, on a line len long */
static double kind_half(const cb_symbols *st, double len) { return fmin(st->badge * 1.6, len * 0.12); }

double cb_symbol_passage_stretch(const cb_symbols *st, cb_symbol s, int n, double len) {
  return over_line(s, st->badge, n > 1 ? 2 * kind_half(st, len) : len) / 2;
}

void cb_symbol_passage_kinds(cb_page *p, const cb_symbols *st, const cb_symbol *s, int n, double x1,
                             double y1, double x2, double y2) {
  if (n <= 1 || s[0] == CB_SYM_DEAD_END) {
    cb_symbol_passage(p, st, n ? s[0] : CB_SYM_PATH, x1, y1, x2, y2);
    return;
  }
  double dx = x2 - x1, dy = y2 - y1, len = hypot(dx, dy);
  if (len < 1e-6) return;
  double ux = dx / len, uy = dy / len;
  bool secret = false;
  for (int k = 0; k < n; k++)
    secret |= s[k] == CB_SYM_SECRET;
  /* the line, dotted when the way is secret; then each kind's mark in its place */
  cb_symbol_passage_at(p, st, secret ? CB_SYM_SECRET : CB_SYM_PATH, x1, y1, x2, y2, -1);
  for (int k = 0; k < n && k < CB_PASSAGE_KINDS; k++) {
    double t = CB_PASSAGE_KIND_AT[k], mx = x1 + dx * t, my = y1 + dy * t, half = kind_half(st, len);
    if (over_line(s[k], 1, 1) > 0) {
      /* its stretch cleared of the line first */
      cb_page_move(p, mx - ux * half, my - uy * half);
      cb_page_line(p, mx + ux * half, my + uy * half);
      cb_symbol_stroke(p, st->paper, st->line * 3, CB_CAP_BUTT);
      cb_symbol_passage_at(p, st, s[k], mx - ux * half, my - uy * half, mx + ux * half, my + uy * half, 0.5);
      continue;
    }
    cb_symbols tint = tinted(st, s[k]);
    passage_mark(p, &tint, s[k], &(passage_geom){mx, my, ux, uy, tint.badge, 0, mx, my, mx, my});
  }
}

void cb_symbol_tunnel(cb_page *p, const cb_symbols *st, const double *xy, int n, double tw, int pass,
                      int open_end) {
  if (n < 2) return;
  double wall = st->line * 1.1, ex = 0, ey = 0;
  if (pass == 1 && open_end) {
    /* the floor runs past the last point so that no wall closes the end */
    double dx = xy[2 * n - 2] - xy[2 * n - 4], dy = xy[2 * n - 1] - xy[2 * n - 3], l = hypot(dx, dy);
    if (l > 0) ex = dx / l * wall * 2, ey = dy / l * wall * 2;
  }
  cb_page_move(p, xy[0], xy[1]);
  for (int i = 1; i < n; i++)
    cb_page_line(p, xy[2 * i] + (i == n - 1 ? ex : 0), xy[2 * i + 1] + (i == n - 1 ? ey : 0));
  cb_ink ink = cb_ink_stroke(pass == 0 ? st->ink : st->paper, pass == 0 ? tw : tw - 2 * wall);
  ink.cap = open_end ? CB_CAP_BUTT : CB_CAP_ROUND;
  cb_page_ink(p, &ink);
}

/* A corridor door's leaf: half its thickness along the corridor, half its length across. */
static void door_size(const cb_symbols *st, double width, double *hw, double *hl) {
  *hw = fmax(st->line * 1.4, width * 0.22), *hl = (width / 2 + st->line) * 1.15;
}

/* The stretch of corridor stairs or a ladder take, and a trap's zigzag's length and height. */
static double stairs_length(const cb_symbols *st, double width) { return fmax(width * 1.2, st->badge * 0.6); }
static void zigzag_size(const cb_symbols *st, double width, double *len, double *amp) {
  *len = st->badge * 1.4, *amp = fmax((width / 2 + st->line) * 0.7, st->badge * 0.25);
}

/* How far cb_symbol_mark's mark reaches from its centre, its ink included:
 * along the passage and across it. */
static void mark_reach(const cb_symbols *st, cb_symbol s, double width, double *along, double *across) {
  double half = width / 2 + st->line, a = 0, b = 0;
  switch (s) {
  case CB_SYM_DOOR: door_size(st, width, &a, &b), a += st->line / 2, b += st->line / 2; break;
  case CB_SYM_SECRET:
  case CB_SYM_CONCEALED: a = b = disc_radius(st) + st->line; break;
  case CB_SYM_DEAD_END: a = st->line, b = half * 1.2; break;
  case CB_SYM_SOFT_LOCKED: a = st->line * 1.1, b = half * 1.2; break;
  case CB_SYM_OBSTRUCTED: a = b = fmax(half * 0.8, st->badge * 0.3) + st->line; break;
  case CB_SYM_TRAPPED: zigzag_size(st, width, &a, &b), a = a / 2 + st->line / 2, b += st->line / 2; break;
  case CB_SYM_STAIRS:
  case CB_SYM_LADDER: a = stairs_length(st, width) / 2 + st->line * 0.4, b = half + st->line * 0.4; break;
  default: break;
  }
  *along = a, *across = b;
}

void cb_symbol_mark_box(const cb_symbols *st, cb_symbol s, double x, double y, double ux, double uy,
                        double width, double box[4]) {
  if (s == CB_SYM_LOCKED) { /* upright whatever the passage's way */
    double bw, bh, r;
    padlock_size(st, &bw, &bh, &r);
    box[0] = x - bw / 2, box[2] = x + bw / 2;
    box[1] = y - bh / 2 - r * 1.575 - st->line * 0.65, box[3] = y + bh / 2;
    return;
  }
  double a, c;
  mark_reach(st, s, width, &a, &c);
  double hx = fabs(ux) * a + fabs(uy) * c, hy = fabs(uy) * a + fabs(ux) * c;
  box[0] = x - hx, box[1] = y - hy, box[2] = x + hx, box[3] = y + hy;
}

void cb_symbol_mark(cb_page *p, const cb_symbols *st0, cb_symbol s, double x, double y, double ux, double uy,
                    double width) {
  cb_symbols tint = tinted(st0, s);
  const cb_symbols *st = &tint;
  double nx = -uy, ny = ux, half = width / 2 + st->line, hw, hl;
  switch (s) {
  case CB_SYM_DOOR: door_size(st, width, &hw, &hl), door_leaf(p, st, x, y, ux, uy, hw, hl); break;
  case CB_SYM_SECRET: disc_letter(p, st, x, y, "S"); break;
  case CB_SYM_CONCEALED: disc_letter(p, st, x, y, "C"); break;
  case CB_SYM_DEAD_END: cross_bar(p, x, y, ux, uy, half * 1.2, st->ink, st->line * 2); break;
  case CB_SYM_SOFT_LOCKED: cross_bar(p, x, y, ux, uy, half * 1.2, st->ink, st->line * 2.2); break;
  case CB_SYM_LOCKED: padlock(p, st, x, y); break;
  case CB_SYM_OBSTRUCTED: obstructed(p, st, x, y, fmax(half * 0.8, st->badge * 0.3)); break;
  case CB_SYM_TRAPPED: {
    /* the zigzag of a trapped passage, along the corridor's middle */
    double len, amp;
    zigzag_size(st, width, &len, &amp);
    cb_page_move(p, x - ux * len / 2, y - uy * len / 2);
    for (int i = 1; i <= 4; i++) {
      double t = -len / 2 + len * (i - 0.5) / 4, side = i % 2 ? 1 : -1;
      cb_page_line(p, x + ux * t + nx * amp * side, y + uy * t + ny * amp * side);
    }
    cb_page_line(p, x + ux * len / 2, y + uy * len / 2);
    cb_symbol_stroke(p, st->ink, st->line, CB_CAP_ROUND);
    break;
  }
  case CB_SYM_STAIRS:
  case CB_SYM_LADDER: {
    /* three treads over a stretch as long as the corridor is wide, narrowing
     * the way it goes down; a ladder: rails and even rungs */
    double len = stairs_length(st, width);
    for (int i = 0; i <= 3; i++) {
      double t = -len / 2 + len * i / 3;
      double h = s == CB_SYM_STAIRS ? half * (1.0 - 0.18 * i) : half * 0.8;
      cross_bar(p, x + ux * t, y + uy * t, ux, uy, h, st->ink, st->line * 0.8);
    }
    if (s == CB_SYM_LADDER)
      for (int side = -1; side <= 1; side += 2) {
        cb_page_move(p, x - ux * len / 2 + nx * half * 0.8 * side, y - uy * len / 2 + ny * half * 0.8 * side);
        cb_page_line(p, x + ux * len / 2 + nx * half * 0.8 * side, y + uy * len / 2 + ny * half * 0.8 * side);
        cb_symbol_stroke(p, st->ink, st->line * 0.8, CB_CAP_BUTT);
      }
    break;
  }
  default: break;
  }
}

void cb_symbol_north(cb_page *p, const cb_symbols *st, double cx, double cy, double ux, double uy) {
  double len = st->badge * 1.6, half = st->badge * 0.35, nx = -uy, ny = ux;
  double tx = cx + ux * len / 2, ty = cy + uy * len / 2, bx = cx - ux * len / 2, by = cy - uy * len / 2;
  cb_page_move(p, tx, ty);
  cb_page_line(p, bx + nx * half, by + ny * half);
  cb_page_line(p, cx - ux * len * 0.2, cy - uy * len * 0.2);
  cb_page_line(p, bx - nx * half, by - ny * half);
  cb_page_close(p);
  cb_ink ink = {
      .fill = true, .stroke = true, .fill_color = st->ink, .stroke_color = st->ink, .width = st->line * 0.6};
  cb_page_ink(p, &ink);
  double size = st->badge * 0.8, w = cb_text_width(st->m, CB_FONT_BOLD, size, "N");
  double lx = tx + ux * size * 0.75, ly = ty + uy * size * 0.75;
  cb_page_text(p, CB_FONT_BOLD, size, lx - w / 2, ly + size * 0.35, st->ink, "N");
}
