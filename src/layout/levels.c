#include "levels.h"

#include <math.h>
#include <stdio.h>

#include "map.h"
#include "parts.h"

static const cb_rgb INK = CB_INK_BLACK, GREY = CB_QUIET_GREY;
/* A level's map: the generator's own drawing where it has one. A map only
 * fills its box, so pages made to be counted skip it. */
void cb_level_map(cb_page *p, const cb_symbols *st, const cb_dungeon *d, const cb_map_drawing *dr,
                  const cb_sheet_options *o, int level, double x, double y, double w, double h,
                  cb_symbol_set *used) {
  if (o->count_only) return;
  if (dr->draw)
    dr->draw(p, st, d, level, x, y, w, h, used);
  else
    cb_map_draw(p, st, d, level, x, y, w, h, used);
}

static const double CAPTION_H = CB_LEGEND_SIZE + 10, PANEL_PAD = 4;

/* The height of level i's drawing pw wide at its own shape, 0 when it fills any box. */
static double level_natural(const cb_dungeon *d, const cb_symbols *st, const cb_map_drawing *dr, int i,
                            double pw) {
  int id = d->levels[i].id;
  if (!dr->draw) return cb_map_height(d, st, id, pw);
  return dr->height ? dr->height(d, st, id, pw) : 0;
}

/* The panels' height in cols columns, each row as tall as its tallest map
 * needs; 0 when a level has no shape of its own. */
static double levels_height(const cb_dungeon *d, const cb_symbols *st, const cb_map_drawing *dr, int cols,
                            double pw) {
  double total = 0;
  for (int r0 = 0; r0 < d->nlevels; r0 += cols) {
    double row = 0;
    for (int i = r0; i < d->nlevels && i < r0 + cols; i++) {
      double h = level_natural(d, st, dr, i, pw);
      if (!(h > 0)) return 0;
      row = fmax(row, h);
    }
    total += CAPTION_H + row + PANEL_PAD;
  }
  return total;
}

/* Would n panels in c columns leave a quarter of the grid or more empty
 * (three levels in two by two)? booklet.md: no empty quarter. */
static bool leaves_empty(int n, int c) {
  int cells = c * ((n + c - 1) / c);
  return (cells - n) * 4 >= cells;
}

/* The arrangement (stacked, side by side or a grid) that draws the levels
 * biggest in a box w x h, each panel shaped like its map (no empty bands). */
cb_levels_plan cb_levels_fit(const cb_dungeon *d, const cb_symbols *st, const cb_map_drawing *dr, double w,
                             double h) {
  cb_levels_plan best = {0, 0, 0, 0};
  for (int c = 1; c <= d->nlevels; c++) {
    if (leaves_empty(d->nlevels, c)) continue;
    double lo = 0, hi = w / c - 8, full = hi > 0 ? levels_height(d, st, dr, c, hi) : -1;
    if (full == 0) return (cb_levels_plan){0, 0, 0, 0};
    if (full < 0) break;
    if (full > h)
      for (int it = 0; it < 30 && hi - lo > 0.25; it++) {
        double mid = (lo + hi) / 2;
        if (levels_height(d, st, dr, c, mid) > h)
          hi = mid;
        else
          lo = mid;
      }
    else
      lo = hi;
    if (lo > best.pw + 0.5) best = (cb_levels_plan){c, lo, c * (lo + 8), levels_height(d, st, dr, c, lo)};
  }
  return best;
}

/* One level's panel: its caption, a rule from the panels before it, its map. */
static void draw_panel(cb_page *p, const cb_symbols *st, const cb_dungeon *d, const cb_map_drawing *dr,
                       const cb_sheet_options *o, int i, bool left_rule, bool top_rule, double cx, double cy,
                       double cw, double ch, cb_symbol_set *used) {
  const cb_level *l = &d->levels[i];
  char cap[240];
  snprintf(cap, sizeof cap, "%s", l->name && l->name[0] ? l->name : "Level");
  cb_page_text(p, CB_FONT_BOLD, CB_LEGEND_SIZE + 1, cx + 6, cy + CB_LEGEND_SIZE + 5, INK, cap);
  cb_ink sep = cb_ink_stroke(GREY, 0.4);
  if (left_rule) {
    cb_page_move(p, cx, cy + 4);
    cb_page_line(p, cx, cy + ch - 4);
    cb_page_ink(p, &sep);
  }
  if (top_rule) {
    cb_page_move(p, cx + 4, cy);
    cb_page_line(p, cx + cw - 4, cy);
    cb_page_ink(p, &sep);
  }
  cb_level_map(p, st, d, dr, o, l->id, cx + 4, cy + CAPTION_H, cw - 8, ch - CAPTION_H - PANEL_PAD, used);
}

/* The map box holds every level in panels. Levels with a shape of their own
 * get plan_levels' arrangement, each row as tall as its maps (the box's slack
 * shared out); others a grid of equal panels with as many columns as give
 * them the longest shorter side. */
void cb_levels_draw(cb_page *p, const cb_symbols *st, const cb_dungeon *d, const cb_map_drawing *dr,
                    const cb_sheet_options *o, double x, double y, double w, double h, cb_symbol_set *used) {
  int n = d->nlevels > 0 ? d->nlevels : 1;
  if (n == 1) {
    cb_level_map(p, st, d, dr, o, 0, x + 4, y + 4, w - 8, h - 8, used);
    return;
  }
  cb_levels_plan pl = cb_levels_fit(d, st, dr, w, h);
  int cols = pl.cols ? pl.cols : 1, rows = (n + cols - 1) / cols;
  for (int c = 2; !pl.cols && c <= n; c++) {
    int r = (n + c - 1) / c;
    if (leaves_empty(n, c)) continue;
    if (fmin(w / c, h / r) > fmin(w / cols, h / rows)) cols = c, rows = r;
  }
  double cw = w / cols, slack = pl.cols ? fmax(0, h - pl.h) / rows : 0, cy = y;
  for (int r0 = 0; r0 < n; r0 += cols) {
    double ch = h / rows;
    if (pl.cols) {
      double row = 0;
      for (int i = r0; i < n && i < r0 + cols; i++)
        row = fmax(row, level_natural(d, st, dr, i, pl.pw));
      ch = CAPTION_H + row + PANEL_PAD + slack;
    }
    for (int i = r0; i < n && i < r0 + cols; i++)
      draw_panel(p, st, d, dr, o, i, i > r0, r0 > 0, x + (i - r0) * cw, cy, cw, ch, used);
    cy += ch;
  }
}
