#include "symbols.h"

#include <math.h>
#include <string.h>

#include "text.h"

static const char *const names[CB_SYM_COUNT] = {
    "main start", "start", "goal", "encounter", "treasure", "key", "path", "secret path",
    "hard-locked (key)", "soft-locked", "trapped", "one-way"};

const char *cb_symbol_name(cb_symbol s) { return (unsigned)s < CB_SYM_COUNT ? names[s] : "?"; }

static const char *badge_text(cb_symbol s, const char *text) {
  switch (s) {
  case CB_SYM_MAIN_START: return "M";
  case CB_SYM_START: return "St";
  case CB_SYM_GOAL: return "G";
  case CB_SYM_ENCOUNTER: return "?";
  case CB_SYM_TREASURE: return "$";
  case CB_SYM_KEY: return text ? text : "K";
  default: return "";
  }
}

/* Black marks (white letters) for what a party looks for, white ones for the rest. */
static int badge_dark(cb_symbol s) { return s == CB_SYM_MAIN_START || s == CB_SYM_GOAL || s == CB_SYM_KEY; }

double cb_symbol_badge_width(const cb_symbols *st, cb_symbol s, const char *text) {
  double tw = cb_text_width(st->m, CB_FONT_BOLD, st->badge * 0.78, badge_text(s, text));
  double w = tw + st->badge * 0.55;
  return w < st->badge ? st->badge : w;
}

static void rounded_rect(cb_page *p, double x, double y, double w, double h, double r) {
  const double k = 0.5522847498 * r;
  cb_page_move(p, x + r, y);
  cb_page_line(p, x + w - r, y);
  cb_page_curve(p, x + w - r + k, y, x + w, y + r - k, x + w, y + r);
  cb_page_line(p, x + w, y + h - r);
  cb_page_curve(p, x + w, y + h - r + k, x + w - r + k, y + h, x + w - r, y + h);
  cb_page_line(p, x + r, y + h);
  cb_page_curve(p, x + r - k, y + h, x, y + h - r + k, x, y + h - r);
  cb_page_line(p, x, y + r);
  cb_page_curve(p, x, y + r - k, x + r - k, y, x + r, y);
  cb_page_close(p);
}

void cb_symbol_badge(cb_page *p, const cb_symbols *st, cb_symbol s, const char *text, double cx, double cy) {
  const char *t = badge_text(s, text);
  double h = st->badge, w = cb_symbol_badge_width(st, s, text), size = h * 0.78;
  int dark = badge_dark(s);
  cb_ink ink = {.fill = true, .stroke = true, .fill_color = dark ? st->ink : st->paper, .stroke_color = st->ink,
                .width = st->line * 0.8, .cap = CB_CAP_ROUND};
  if (s == CB_SYM_ENCOUNTER || s == CB_SYM_TREASURE) cb_page_circle(p, cx, cy, h / 2);
  else rounded_rect(p, cx - w / 2, cy - h / 2, w, h, s == CB_SYM_KEY ? h * 0.5 : h * 0.18);
  cb_page_ink(p, &ink);
  double tw = cb_text_width(st->m, CB_FONT_BOLD, size, t);
  cb_page_text(p, CB_FONT_BOLD, size, cx - tw / 2, cy + size * 0.34, dark ? st->paper : st->ink, t);
}

/* A short mark across the middle of the passage, perpendicular to it. */
static void cross_bar(cb_page *p, const cb_symbols *st, double mx, double my, double ux, double uy, double half) {
  cb_page_move(p, mx - uy * half, my + ux * half);
  cb_page_line(p, mx + uy * half, my - ux * half);
  cb_ink ink = cb_ink_stroke(st->ink, st->line * 2.2);
  ink.cap = CB_CAP_BUTT;
  cb_page_ink(p, &ink);
}

static void padlock(cb_page *p, const cb_symbols *st, double cx, double cy) {
  double s = st->badge * 0.9, bw = s * 0.8, bh = s * 0.6;
  cb_ink shackle = cb_ink_stroke(st->ink, st->line * 1.3);
  double r = bw * 0.32, top = cy - bh / 2;
  cb_page_move(p, cx - r, top + 0.5);
  cb_page_line(p, cx - r, top - r * 0.6);
  cb_page_curve(p, cx - r, top - r * 1.9, cx + r, top - r * 1.9, cx + r, top - r * 0.6);
  cb_page_line(p, cx + r, top + 0.5);
  cb_page_ink(p, &shackle);
  cb_page_rect(p, cx - bw / 2, top, bw, bh);
  cb_ink body = cb_ink_fill(st->ink);
  cb_page_ink(p, &body);
  cb_page_circle(p, cx, top + bh * 0.45, bh * 0.13);
  cb_ink hole = cb_ink_fill(st->paper);
  cb_page_ink(p, &hole);
}

void cb_symbol_passage(cb_page *p, const cb_symbols *st, cb_symbol s, const char *label, double x1, double y1,
                       double x2, double y2) {
  double dx = x2 - x1, dy = y2 - y1, len = hypot(dx, dy);
  if (len < 1e-6) return;
  double ux = dx / len, uy = dy / len, mx = (x1 + x2) / 2, my = (y1 + y2) / 2;
  cb_ink line = cb_ink_stroke(st->ink, st->line);
  if (s == CB_SYM_SECRET) {
    line.dash[0] = 0.01;
    line.dash[1] = st->line * 2.6;
    line.ndash = 2;
    line.width = st->line * 1.3;
  }
  double gap = s == CB_SYM_TRAPPED ? fmin(st->badge * 1.6, len * 0.5) : 0;
  if (gap > 0) {
    /* a zigzag across the middle: the hazard */
    cb_page_move(p, x1, y1);
    cb_page_line(p, mx - ux * gap / 2, my - uy * gap / 2);
    int teeth = 4;
    double amp = st->badge * 0.32;
    for (int i = 1; i <= teeth; i++) {
      double t = -gap / 2 + gap * (i - 0.5) / teeth, side = i % 2 ? 1 : -1;
      cb_page_line(p, mx + ux * t - uy * amp * side, my + uy * t + ux * amp * side);
    }
    cb_page_line(p, mx + ux * gap / 2, my + uy * gap / 2);
    cb_page_line(p, x2, y2);
  } else {
    cb_page_move(p, x1, y1);
    cb_page_line(p, x2, y2);
  }
  cb_page_ink(p, &line);
  switch (s) {
  case CB_SYM_SECRET: {
    double r = st->badge * 0.42, size = st->badge * 0.7;
    cb_page_circle(p, mx, my, r);
    cb_ink ink = {.fill = true, .stroke = true, .fill_color = st->paper, .stroke_color = st->ink,
                  .width = st->line * 0.7};
    cb_page_ink(p, &ink);
    double tw = cb_text_width(st->m, CB_FONT_BOLD, size, "S");
    cb_page_text(p, CB_FONT_BOLD, size, mx - tw / 2, my + size * 0.35, st->ink, "S");
    break;
  }
  case CB_SYM_SOFT_LOCKED: cross_bar(p, st, mx, my, ux, uy, st->badge * 0.45); break;
  case CB_SYM_LOCKED: {
    padlock(p, st, mx, my);
    if (label) {
      /* the key id beside the lock, on the side away from the line's slope */
      double nx = -uy, ny = ux;
      if (ny > 0) nx = -nx, ny = -ny;
      double size = st->label, tw = cb_text_width(st->m, CB_FONT_BOLD, size, label);
      double off = st->badge * 0.9 + size * 0.3;
      double lx = mx + nx * off, ly = my + ny * off;
      cb_page_rect(p, lx - tw / 2 - 1, ly - size * 0.55, tw + 2, size * 1.05);
      cb_ink bg = cb_ink_fill(st->paper);
      cb_page_ink(p, &bg);
      cb_page_text(p, CB_FONT_BOLD, size, lx - tw / 2, ly + size * 0.33, st->ink, label);
    }
    break;
  }
  case CB_SYM_ONE_WAY: {
    double a = st->badge * 0.5, bx = mx + ux * a / 2, by = my + uy * a / 2;
    cb_page_move(p, bx, by);
    cb_page_line(p, bx - ux * a - uy * a * 0.5, by - uy * a + ux * a * 0.5);
    cb_page_line(p, bx - ux * a + uy * a * 0.5, by - uy * a - ux * a * 0.5);
    cb_page_close(p);
    cb_ink f = cb_ink_fill(st->ink);
    cb_page_ink(p, &f);
    break;
  }
  default: break;
  }
}
