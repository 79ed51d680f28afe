/* The one-page sheet (sheet.h). The fits weigh the key's steps against the
 * map's size (its part in mapfit.c); small planners each make one
 * arrangement as a plan of boxes, or decline it; draw_plan draws the plan
 * the first one made; the key then runs on onto pages of their own. */
#include "sheet.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/alloc.h"
#include "graph.h"
#include "key.h"
#include "levels.h"
#include "map.h"
#include "mapfit.h"
#include "parts.h"

static const cb_rgb INK = CB_INK_BLACK, PAPER = CB_PAPER_WHITE, GREY = CB_QUIET_GREY;
static const double TITLE_SIZE = 20;

static const double NOTES_LINE = CB_BODY_SIZE * 2.1; /* a ruled line to write on */

/* The handout's key: each room's number and two ruled lines to write on, in
 * three columns, from `from` down to y + h (on a page of its own, `fresh`, at
 * least one room however small the page). Returns the index of the first
 * room that did not fit. */
static int notes_fill(cb_page *p, const cb_measure *m, const cb_dungeon *d, int from, double x, double y,
                      double w, double h, bool fresh) {
  const int cols = 3;
  const double gutter = 14, line = NOTES_LINE;
  double cw = (w - gutter * (cols - 1)) / cols;
  /* two lines a room when all the rooms left fit so, else one */
  int nlines = cols * (int)(h / (line * 2 + 3)) >= d->nrooms - from ? 2 : 1;
  double entry = line * nlines + 3;
  int per_col = (int)(h / entry), i = from;
  if (per_col < 1) per_col = fresh ? 1 : 0;
  cb_ink rule = cb_ink_stroke(GREY, 0.4);
  for (int col = 0; col < cols && i < d->nrooms && per_col; col++)
    for (int k = 0; k < per_col && i < d->nrooms; k++, i++) {
      double ex = x + col * (cw + gutter), ey = y + k * entry;
      char num[16];
      snprintf(num, sizeof num, "%d", d->rooms[i].number);
      cb_page_text(p, CB_FONT_BOLD, CB_BODY_SIZE, ex, ey + line - 3, INK, num);
      double indent = cb_text_width(m, CB_FONT_BOLD, CB_BODY_SIZE, "000") + 4;
      for (int r = 1; r <= nlines; r++) {
        cb_page_move(p, ex + indent, ey + r * line);
        cb_page_line(p, ex + cw, ey + r * line);
        cb_page_ink(p, &rule);
      }
    }
  return i;
}

/* The drawing the one-page sheet shows: the procedure's sheet drawing
 * where it offers one (not on the players' handout), else its map's. */
static const cb_map_drawing *sheet_drawing(const cb_layout_hooks *h, const cb_sheet_options *o) {
  return h->sheet.draw && !o->player ? &h->sheet : &h->map;
}

/* The legend under the map: the drawing's own where it offers one, else the generic one. */
static double sheet_legend(cb_page *p, const cb_symbols *st, const cb_dungeon *d, const cb_map_drawing *dr,
                           cb_symbol_set used, double map_w, double map_h, double x, double y, double w) {
  if (dr->legend) return dr->legend(p, st, d, used, map_w, map_h, x, y, w);
  return cb_part_legend(p, st, used, x, y, w);
}

enum { KEY_STEPS = 5 };
static const double GUTTER = 14;
/* The key's settings, tried in turn until the whole key fits under the map:
 * two columns, then three, then type stepping down to 8 pt (booklet.md), then
 * the compact form (the booklet keeps every word). */
static const struct {
  int cols;
  double size;
  bool compact;
} KEY_STEP[KEY_STEPS] = {
    {2, CB_BODY_SIZE, false}, {3, CB_BODY_SIZE, false}, {3, 8.3, false}, {3, 8.0, false}, {3, 8.0, true}};

typedef struct sheet_fit {
  double map_h; /* the map frame's height */
  int cols;     /* the key's columns */
  double size;  /* its type size */
  bool spills;  /* it runs onto more pages */
  bool compact; /* its compact form */
} sheet_fit;

static cb_key_style key_style_at(const cb_key_style *ks, double size, bool compact) {
  cb_key_style k = *ks;
  /* the compact form also sets its lines closer, as a dense printed key does */
  k.size = size, k.leading = size * (compact ? 1.22 : 1.32), k.gap = size * (compact ? 0.25 : 0.45);
  k.compact = compact;
  return k;
}

/* cb_key_height with the cb_fitter's error. */
static cb_status key_height(const cb_fitter *f, const cb_key_style *k, int from, double w, double h, int cols,
                            double gutter, double *out) {
  return cb_key_height(k, f->d, from, w, h, cols, gutter, out, f->err);
}

/* cb_key_fill measuring only (no page), into *next; word as there. */
static cb_status key_count(const cb_fitter *f, const cb_key_style *k, int from, int *word, double w, double h,
                           int cols, int *next) {
  *next = from;
  return cb_key_fill(NULL, k, f->d, next, word, 0, 0, w, h, cols, GUTTER, f->err);
}

/* The key's part on the page after the sheet (under its heading) at step
 * i with a map map_h high: its height into *rest, INFINITY when it needs
 * more than that page. */
static cb_status spill_rest(const cb_fitter *f, double w, double room, double page, int i, double map_h,
                            double *rest) {
  cb_key_style k = key_style_at(f->ks, KEY_STEP[i].size, KEY_STEP[i].compact);
  int next = 0;
  cb_status s = key_count(f, &k, 0, NULL, w, room - map_h, KEY_STEP[i].cols, &next);
  return s != CB_OK ? s : key_height(f, &k, next, w, page - 11 * 1.5, KEY_STEP[i].cols, GUTTER, rest);
}

/* A key that runs on takes the first step that keeps it to one more page
 * (the first step when none does), the map grown (to `cap`) until that
 * page is at least a third full. */
static cb_status fit_spill(const cb_fitter *f, double w, double room, double page, double want, double cap,
                           sheet_fit *fit) {
  int step = 0;
  double rest = INFINITY; /* the next page's part at the map's height */
  for (int i = 0; i < KEY_STEPS && !isfinite(rest); i++) {
    cb_status s = spill_rest(f, w, room, page, i, want, &rest);
    if (s != CB_OK) return s;
    if (i == 0 || isfinite(rest)) step = i;
  }
  *fit = (sheet_fit){want, KEY_STEP[step].cols, KEY_STEP[step].size, true, KEY_STEP[step].compact};
  while (isfinite(rest) && rest < page / 3 && fit->map_h < cap) {
    double grown_h = fmin(cap, fit->map_h + room * 0.04), grown = 0;
    cb_status s = spill_rest(f, w, room, page, step, grown_h, &grown);
    if (s != CB_OK) return s;
    if (!isfinite(grown)) break; /* a bigger map pushes the key onto a third page */
    fit->map_h = grown_h, rest = grown;
  }
  return CB_OK;
}

/* How the sheet fits: the map at its wanted height while one of the key's
 * steps keeps the whole key on the sheet, else the biggest map, down to 45% of
 * the height left, that a step leaves. A key that still does not fit runs on at the first step; the
 * map then grows (to 72%) until the page it runs onto is at least a third full. */
static cb_status fit_sheet(const cb_fitter *f, double w, double room, double page, sheet_fit *out) {
  /* the map's legible floor (cb_mapfit_least) costs drawings: found only when the map must shrink */
  double want = cb_mapfit_want(f->d, f->st, f->dr, w, room), least = fmin(want, room * 0.30),
         cap = room * 0.72;
  /* the map keeps its size while a step of the key makes room (the first that
   * does); else it gives up what the step that leaves it most needs */
  sheet_fit best = {-INFINITY, 0, 0, false};
  for (int i = 0; i < KEY_STEPS; i++) {
    cb_key_style k = key_style_at(f->ks, KEY_STEP[i].size, KEY_STEP[i].compact);
    double kh = 0;
    cb_status s = key_height(f, &k, 0, w, room - least, KEY_STEP[i].cols, GUTTER, &kh);
    if (s != CB_OK) return s;
    if (!isfinite(kh)) continue;
    sheet_fit fit = {fmin(want, room - kh), KEY_STEP[i].cols, KEY_STEP[i].size, false, KEY_STEP[i].compact};
    if (fit.map_h >= want) {
      *out = fit;
      return CB_OK;
    }
    if (fit.map_h > best.map_h + 0.5) best = fit;
  }
  if (best.cols) {
    /* the biggest map from the one the key leaves down to the floor whose
     * words run into each other no more than the biggest's: found walking
     * down as far as any floor could be, then only known to be above the
     * floor (cb_mapfit_least stops once it knows), not the floor itself */
    long base = 0;
    double floor = 0, clean = 0;
    cb_status s = cb_mapfit_base(f, w, room, &base);
    if (s == CB_OK) s = cb_mapfit_clean(f, w, best.map_h, least, base, &clean);
    if (s == CB_OK && clean > 0) s = cb_mapfit_least(f, w, w, want, room, clean, &floor, &base);
    if (s != CB_OK) return s;
    best.map_h = clean > 0 && clean >= floor - 0.5 ? clean : 0;
  }
  if (!best.cols || best.map_h == 0) return fit_spill(f, w, room, page, want, cap, out);
  *out = best;
  return CB_OK;
}

static const double HEAD_H = 11 * 1.5; /* "Room key" and the space below it */

typedef struct beside_fit {
  double map_h, map_w; /* the map frame; map_h 0 when no size fits */
  double side_h;       /* the band of the map and its legend, the key's first columns beside it */
  int side_cols;       /* the key's columns beside the map */
  sheet_fit key;       /* the key's step, and its columns below the band */
} beside_fit;

/* The first step of the key that fits the sheet with its first columns
 * (side_cols of them, side_w wide) beside the map's band side_h high and the
 * rest below it; *step -1 when none does. */
static cb_status beside_step(const cb_fitter *f, double w, double room, double side_w, double side_h,
                             int side_cols, int *step) {
  *step = -1;
  for (int i = 0; i < KEY_STEPS; i++) {
    cb_key_style k = key_style_at(f->ks, KEY_STEP[i].size, KEY_STEP[i].compact);
    int total = f->d->nrooms + k.extras, next = 0, all = 0;
    cb_status s = key_count(f, &k, 0, NULL, side_w, side_h - HEAD_H, side_cols, &next);
    if (s == CB_OK && next < total)
      s = key_count(f, &k, next, NULL, w, room - side_h - 8, KEY_STEP[i].cols, &all);
    if (s != CB_OK) return s;
    if (next >= total || all >= total) {
      *step = i;
      return CB_OK;
    }
  }
  return CB_OK;
}

/* The biggest map (from the size it wants down to `least`), with the first
 * step of the key that then fits the sheet, the key's first columns beside
 * the map and its legend, the rest below them; map_h 0 when none does. */
static cb_status fit_beside(const cb_fitter *f, double w, double room, double want, double least, long base,
                            beside_fit *out) {
  *out = (beside_fit){.map_h = 0};
  for (double mh = want; mh >= least - 0.5; mh = mh > least + 0.5 ? fmax(least, mh - room * 0.02) : 0) {
    double frame_h = mh, mw = cb_mapfit_frame_w(f->d, f->st, f->dr, w, &frame_h), side_w = w - mw - GUTTER;
    if (side_w < 150) continue; /* a column narrower than that reads as a list of words */
    long clashes = 0;
    cb_status s = cb_mapfit_clashes(f, w, mh, &clashes);
    if (s != CB_OK) return s;
    if (clashes > base) continue;
    double side_h = mh + 6 + f->dr->legend(NULL, f->st, f->d, ~(cb_symbol_set)0, mw, mh, 0, 0, mw);
    int side_cols = side_w > 330 ? 2 : 1, i = 0;
    if ((s = beside_step(f, w, room, side_w, side_h, side_cols, &i)) != CB_OK) return s;
    if (i < 0) continue;
    *out = (beside_fit){
        mh, mw, side_h, side_cols, {mh, KEY_STEP[i].cols, KEY_STEP[i].size, false, KEY_STEP[i].compact}};
    return CB_OK;
  }
  return CB_OK;
}

/* The key beside the map, for a key too long to go under it: three columns,
 * the first running down the page's left, the map and its legend over the
 * other two, which take the rest of the key below them. map_h 0: it does not
 * fit either. */
typedef struct side_fit {
  double map_h;
  double size;  /* the key's type size */
  bool compact; /* its compact form */
} side_fit;

/* The legend's height under a map mw wide and mh high, for the symbols the
 * map uses (drawn on a scratch page: the legend wraps them), into *h. */
static cb_status legend_under(const cb_fitter *f, const cb_sheet_options *o, double mw, double mh,
                              double *h) {
  cb_page *s = cb_page_new(o->page_w, o->page_h);
  if (!s) return cb_error_oom(f->err);
  cb_symbol_set used = 0;
  cb_levels_draw(s, f->st, f->d, f->dr, o, 0, 0, mw, mh, &used);
  *h = sheet_legend(s, f->st, f->d, f->dr, used, mw, mh, 0, 0, mw);
  bool oom = s->oom;
  cb_page_free(s);
  return oom ? cb_error_oom(f->err) : CB_OK;
}

/* The symbols a map of the dungeon may use: its rooms' marks, its passages'
 * kinds and stairs (more than a generator's own drawing may use). */
static cb_symbol_set dungeon_symbols(const cb_dungeon *d) {
  cb_symbol_set u = 0;
  cb_map_mark marks[CB_MAP_MAX_MARKS];
  for (int i = 0; i < d->nrooms; i++) {
    int n = cb_map_room_marks(NULL, d, &d->rooms[i], marks);
    for (int k = 0; k < n; k++)
      u |= CB_SYMBOL_BIT(marks[k].sym);
  }
  for (int i = 0; i < d->npassages; i++) {
    const cb_passage *ps = &d->passages[i];
    const cb_room *a = cb_dungeon_room(d, ps->from), *b = ps->to ? cb_dungeon_room(d, ps->to) : NULL;
    cb_symbol kinds[CB_PASSAGE_KINDS];
    for (int k = 0, n = cb_map_passage_symbols(ps, kinds); k < n; k++)
      u |= CB_SYMBOL_BIT(kinds[k]);
    if (a && b && a->level != b->level) u |= CB_SYMBOL_BIT(CB_SYM_STAIRS_AWAY);
  }
  return u;
}

/* What the portrait sheet keeps under its map, into *below: the legend (two
 * rows, more when the map's symbols take more; or the drawing's own with
 * every symbol) and the key's heading. */
static cb_status key_below(const cb_fitter *f, const cb_sheet_options *o, double w, double *below) {
  const cb_symbols *st = f->st;
  if (f->dr->legend) {
    *below = f->dr->legend(NULL, st, f->d, ~(cb_symbol_set)0, w, w, 0, 0, w) + 6 + 8 + HEAD_H;
    return CB_OK;
  }
  /* the map is drawn aside only when the dungeon's symbols may take more than two rows */
  cb_page *s = cb_page_new(o->page_w, o->page_h);
  if (!s) return cb_error_oom(f->err);
  double most = cb_part_legend(s, st, dungeon_symbols(f->d), 0, 0, w), lh = 0;
  cb_page_free(s);
  if (!(most > st->badge * 3 + 1e-6)) {
    *below = st->badge * 3 + 14 + HEAD_H;
    return CB_OK;
  }
  cb_status r = legend_under(f, o, w, w, &lh);
  *below = fmax(st->badge * 3, lh) + 14 + HEAD_H;
  return r;
}

/* The map's height beside the key at step i (its first column down the
 * left, cw wide, the rest mw wide below the map and its legend), into *map_h;
 * *fits false when an entry would split across the gap or the key is too long still. */
static cb_status side_step(const cb_fitter *f, int i, double cw, double mw, double h, double below,
                           double least, double want, double *map_h, bool *fits) {
  cb_key_style k = key_style_at(f->ks, KEY_STEP[i].size, KEY_STEP[i].compact);
  int word = 0, next = 0;
  double rest = 0;
  *fits = false;
  cb_status s = key_count(f, &k, 0, &word, cw, h - HEAD_H, 1, &next);
  if (s == CB_OK && next < f->d->nrooms + k.extras)
    s = key_height(f, &k, next, mw, h - below - least, 2, GUTTER, &rest);
  if (s == CB_OK && !word && isfinite(rest)) *map_h = fmin(want, h - below - rest), *fits = true;
  return s;
}

/* The key's steps beside the map with its floor at `least`: the first that
 * keeps the map at its wanted height, else the one that leaves it biggest
 * (map_h 0: none fits). */
static cb_status side_steps(const cb_fitter *f, double cw, double mw, double h, double below, double least,
                            double want, side_fit *best) {
  cb_status s = CB_OK;
  *best = (side_fit){0, 0, false};
  for (int i = 1; s == CB_OK && i < KEY_STEPS; i++) {
    double map_h = 0;
    bool fits = false;
    if ((s = side_step(f, i, cw, mw, h, below, least, want, &map_h, &fits)) != CB_OK || !fits) continue;
    side_fit fit = {map_h, KEY_STEP[i].size, KEY_STEP[i].compact};
    if (fit.map_h >= want) {
      *best = fit;
      break;
    }
    if (fit.map_h > best->map_h + 0.5) *best = fit;
  }
  return s;
}

/* The biggest map, down to the floor the sheet's own fit keeps, that leaves
 * the whole key room beside and below it, at the first of the key's steps
 * that keeps the map at its wanted height. The floor is a third of the room
 * first (as fit_sheet keeps it): a map the key leaves there that reads as
 * well as the biggest is taken, and only one that does not costs the least
 * search's drawings. */
static cb_status fit_side(const cb_fitter *f, double legend_h, double w, double h, double room,
                          side_fit *best) {
  double cw = (w - 2 * GUTTER) / 3, mw = 2 * cw + GUTTER, below = legend_h + 14;
  long base = 0;
  double want = cb_mapfit_want(f->d, f->st, f->dr, mw, room), least = fmin(want, room * 0.30);
  bool reads = false;
  cb_status s = side_steps(f, cw, mw, h, below, least, want, best);
  if (s == CB_OK && best->map_h > 0) s = cb_mapfit_reads(f, mw, best->map_h, w, room, &reads);
  if (s != CB_OK || reads) return s;
  if ((s = cb_mapfit_least(f, mw, w, want, room, 0, &least, &base)) == CB_OK)
    s = side_steps(f, cw, mw, h, below, least, want, best);
  if (s == CB_OK && best->map_h > 0) s = cb_mapfit_clean(f, mw, best->map_h, least, base, &best->map_h);
  return s;
}

/* A wide page's key columns, each at least 150 points wide. */
static int wide_cols(double kw) { return kw > 480 ? 3 : kw > 330 ? 2 : 1; }

/* A wide page: the map's share of the width (60% down to 35%) and the key's
 * step; the biggest map whose key fits beside it at the first step that
 * fits, else 60% and the last step (the key runs on). */
typedef struct wide_fit {
  double share;
  int step;
} wide_fit;

static cb_status fit_wide(const cb_fitter *f, double w, double h, wide_fit *out) {
  for (double share = 0.6; share > 0.34; share -= 0.05) {
    double kw = w - w * share - 16;
    for (int i = 0; i < KEY_STEPS; i++) {
      cb_key_style k = key_style_at(f->ks, KEY_STEP[i].size, KEY_STEP[i].compact);
      double kh = 0;
      cb_status s = key_height(f, &k, 0, kw, h, wide_cols(kw), 12, &kh);
      if (s != CB_OK) return s;
      if (isfinite(kh)) {
        *out = (wide_fit){share, i};
        return CB_OK;
      }
    }
  }
  *out = (wide_fit){0.6, KEY_STEPS - 1}; /* the densest, to run on as little as it can */
  return CB_OK;
}

/* Whether the portrait sheet takes the side layout: only when its key, under
 * a map of the least height its fit keeps, would run onto another page; the
 * side layout's fit into *out (map_h 0: not taken). */
static cb_status try_side(const cb_fitter *f, const cb_sheet_options *o, double w, double h, double page,
                          double below, side_fit *out) {
  *out = (side_fit){0, 0, false};
  if (o->player || o->page_w > o->page_h * 1.05 || f->dr->legend) return CB_OK;
  sheet_fit fit;
  double lh = 0;
  cb_status s = fit_sheet(f, w, h - below, page, &fit);
  if (s != CB_OK || !fit.spills) return s;
  if ((s = legend_under(f, o, 2 * (w - 2 * GUTTER) / 3 + GUTTER, 2 * (w - 2 * GUTTER) / 3 + GUTTER, &lh)) !=
      CB_OK)
    return s;
  return fit_side(f, lh, w, h, h - below, out);
}

/* The least height the sheet leaves its map and key (under the title, over
 * the legend and the footer): less draws a map too small to read. A wide
 * page's key runs beside the map, which needs less height for its width. */
static const double SHEET_ROOM_FLOOR = 100, WIDE_MAP_FLOOR = 36;

/* CB_OK when the page leaves the map and the key enough height (`left`,
 * under the title and the legend, over the footer), else CB_EINPUT saying
 * what does not fit; CB_EINTERNAL on OOM. */
static cb_status sheet_room(const cb_fitter *f, const cb_sheet_options *o, double left, cb_error *err) {
  const cb_symbols *st = f->st;
  bool wide = o->page_w > o->page_h * 1.05;
  /* the booklet's handout runs its notes onto pages of their own: only its map needs room */
  bool handout = o->player && o->in_booklet && !wide;
  double need = wide || handout ? WIDE_MAP_FLOOR : SHEET_ROOM_FLOOR;
  if (wide)
    left -= st->badge * 3.2 + 14; /* the legend under the map */
  else if (o->player && !handout) {
    double below = 0;
    cb_status s = key_below(f, o, o->page_w - 2 * o->margin, &below);
    if (s != CB_OK) return s;
    left -= below;
  }
  if (left >= need) return CB_OK;
  const double mm = 25.4 / 72;
  return cb_error_set(err, CB_EINPUT,
                      "a %.0f x %.0f mm page is too small for the one-page sheet: its title, legend and "
                      "footer leave %.0f mm for the %s, which needs %.0f mm (--template booklet lays it "
                      "out over several pages, or give a bigger --page-size)",
                      o->page_w * mm, o->page_h * mm, floor(fmax(left, 0) * mm),
                      wide ? "map" : "map and the key", need * mm);
}

/* Small planners each make one arrangement (plan.h), or decline it;
 * draw_plan draws whichever was made. */

/* What the planners plan for: the page under the title. A planner reports
 * what failed through s->f.err. */
typedef struct sheet_space {
  cb_fitter f; /* the dungeon, its marks, its drawing, the key at its first step; the error */
  const cb_measure *m;
  const cb_sheet_options *o;
  double x, y, w;     /* the area's left, its top (under the title), its width */
  double top, bottom; /* the page's top margin; the footer's top */
  double below;       /* what the portrait sheet keeps under its map (key_below) */
  bool counting;      /* the pages are only counted: the key's words and the footers are not set (the
                       * map is, for the legend it decides) */
} sheet_space;

static bool is_wide(const cb_sheet_options *o) { return o->page_w > o->page_h * 1.05; }

/* The page the key's words go on: none while the pages are only counted. */
static cb_page *key_page(const sheet_space *s, cb_page *p) { return s->counting ? NULL : p; }

/* A drawing with a legend of its own (a box of fixed size) that the key
 * leaves small (fit_sheet gives it less than it wants) is drawn at the left,
 * its legend below it, and the key begins in the columns beside them: the
 * key takes the width a small map leaves empty. Declined when the map gets
 * its size the usual way, or would be no bigger. */
static cb_status plan_beside(const sheet_space *s, cb_sheet_plan *pl) {
  const cb_fitter *f = &s->f;
  if (!f->dr->legend || s->o->player || is_wide(s->o)) return CB_OK;
  double x = s->x, y = s->y, w = s->w;
  double below = f->dr->legend(NULL, f->st, f->d, ~(cb_symbol_set)0, w, w, 0, 0, w) + 6 + 8 + HEAD_H;
  double room = s->bottom - y - below, want = cb_mapfit_want(f->d, f->st, f->dr, w, room), least = 0;
  sheet_fit usual;
  beside_fit bf;
  long base = 0;
  cb_status st = fit_sheet(f, w, room, s->bottom - s->top, &usual);
  if (st != CB_OK || (!usual.spills && usual.map_h >= want - 0.5)) return st;
  if ((st = cb_mapfit_least(f, w, w, want, room, 0, &least, &base)) == CB_OK)
    st = fit_beside(f, w, s->bottom - y, want, least, base, &bf);
  if (st != CB_OK || bf.map_h <= 0 || (!usual.spills && bf.map_h <= usual.map_h + 0.5)) return st;
  double sx = x + bf.map_w + GUTTER, sw = w - bf.map_w - GUTTER, ky = y + (bf.side_h + 8);
  *pl = (cb_sheet_plan){true, x, y, bf.map_w, bf.map_h, x, y + bf.map_h + 6, bf.map_w, sx, y, false};
  pl->key[0] = (cb_key_box){sx, y + HEAD_H, sw, bf.side_h - HEAD_H, bf.side_cols, GUTTER, false, false};
  pl->key[1] = (cb_key_box){x, ky, w, s->bottom - ky, bf.key.cols, GUTTER, true, false};
  pl->nkey = 2, pl->size = bf.key.size, pl->compact = bf.key.compact, pl->cols = bf.key.cols;
  return CB_OK;
}

/* A wide page: the map on the left with its legend below, the key beside it. */
static cb_status plan_wide(const sheet_space *s, cb_sheet_plan *pl) {
  if (!is_wide(s->o)) return CB_OK;
  double x = s->x, y = s->y, w = s->w, bottom = s->bottom;
  wide_fit wf = {0.6, 0};
  cb_status st = s->o->player ? CB_OK : fit_wide(&s->f, w, bottom - y - HEAD_H, &wf);
  if (st != CB_OK) return st;
  double avail = bottom - y, map_w = w * wf.share, usual = s->f.st->badge * 3.2 + 14, map_h = avail - usual;
  /* the legend as it wraps under the map drawn that size: it may take more than the usual two rows
   * (and a drawing's own legend changes with its scale), so it is measured under the map it ends
   * under, twice at most */
  for (int i = 0; i < 2; i++) {
    double legend_h = 0;
    if ((st = legend_under(&s->f, s->o, map_w, map_h, &legend_h)) != CB_OK) return st;
    if (legend_h + 6 + 8 <= avail - map_h + 0.01) break;
    map_h = avail - (legend_h + 6 + 8);
  }
  double kx = x + map_w + 16, kw = w - map_w - 16, ky = y + 11 * 1.5;
  *pl = (cb_sheet_plan){true, x, y, map_w, map_h, x, y + map_h + 6, map_w, kx, y, false};
  pl->key[0] = (cb_key_box){kx, ky, kw, bottom - ky, wide_cols(kw), 12, true, false};
  pl->nkey = 1, pl->size = KEY_STEP[wf.step].size, pl->compact = KEY_STEP[wf.step].compact;
  pl->cols = wide_cols(w); /* a page the key runs onto takes the whole width */
  return CB_OK;
}

/* The key beside the map (fit_side): three columns, the first running down
 * the page's left, the map and its legend over the other two, which take the
 * rest of the key below them. */
static cb_status plan_side(const sheet_space *s, cb_sheet_plan *pl) {
  double x = s->x, y = s->y, w = s->w, bottom = s->bottom;
  side_fit side;
  cb_status st = try_side(&s->f, s->o, w, bottom - y, bottom - s->top, s->below, &side);
  if (st != CB_OK || side.map_h == 0) return st;
  double cw = (w - 2 * GUTTER) / 3, mw = 2 * cw + GUTTER, rx = x + cw + GUTTER, map_h = side.map_h;
  double map_w = cb_mapfit_frame_w(s->f.d, s->f.st, s->f.dr, mw, &map_h), map_x = rx + (mw - map_w) / 2;
  *pl = (cb_sheet_plan){true, map_x, y, map_w, map_h, rx, y + map_h + 6, mw, x, y, false};
  pl->key[0] = (cb_key_box){x, y + HEAD_H, cw, bottom - y - HEAD_H, 1, GUTTER, false, false};
  pl->key[1] = (cb_key_box){rx, 0, mw, 0, 2, GUTTER, true, true};
  pl->nkey = 2, pl->size = side.size, pl->compact = side.compact, pl->cols = 3;
  return CB_OK;
}

/* The usual sheet: the map over the legend, the key's heading and the key
 * across the page below them. */
static cb_status plan_under(const sheet_space *s, cb_sheet_plan *pl) {
  double x = s->x, y = s->y, w = s->w, bottom = s->bottom;
  const cb_fitter *f = &s->f;
  sheet_fit fit;
  cb_status st = CB_OK;
  if (s->o->player) /* the handout's notes run on as they must: the map takes the size it wants */
    fit = (sheet_fit){cb_mapfit_want(f->d, f->st, f->dr, w, bottom - y), 2, CB_BODY_SIZE, false};
  else if ((st = fit_sheet(f, w, bottom - y - s->below, bottom - s->top, &fit)) != CB_OK)
    return st;
  double map_h = fmax(fit.map_h, 0);
  double map_w = cb_mapfit_frame_w(f->d, f->st, f->dr, w, &map_h), map_x = x + (w - map_w) / 2;
  *pl = (cb_sheet_plan){true, map_x, y, map_w, map_h, x, y + (map_h + 6), w, x, 0, true};
  pl->key[0] = (cb_key_box){x, HEAD_H, w, 0, fit.cols, GUTTER, true, true};
  pl->nkey = 1, pl->size = fit.size, pl->compact = fit.compact, pl->cols = fit.cols;
  return CB_OK;
}

/* The first planner, in turn, whose arrangement suits the sheet makes the plan. */
static cb_status plan_sheet(const sheet_space *s, cb_sheet_plan *pl) {
  static cb_status (*const planners[])(const sheet_space *, cb_sheet_plan *) = {plan_beside, plan_wide,
                                                                                plan_side, plan_under};
  for (size_t i = 0; i < sizeof planners / sizeof *planners; i++) {
    *pl = (cb_sheet_plan){.made = false};
    cb_status st = planners[i](s, pl);
    if (st != CB_OK || pl->made) return st;
  }
  return cb_error_set(s->f.err, CB_EINTERNAL, "no arrangement of the sheet was made");
}

/* The height of key box k, which may start under the legend (at foot) and run to bottom. */
static double key_box_h(const cb_key_box *k, double foot, double bottom) {
  return k->under_legend ? bottom - (foot + k->y) : k->h;
}

/* Draws the plan: the map's frame and levels, the legend, the key's heading
 * and its boxes (the handout's notes instead). *next gets the entry the key
 * goes on from, as cb_key_fill gives it. */
static cb_status draw_plan(cb_page *p, const sheet_space *s, const cb_sheet_plan *pl, const cb_key_style *ks,
                           cb_symbol_set *used, int *next, int *word) {
  const cb_dungeon *d = s->f.d;
  const cb_sheet_options *o = s->o;
  cb_page_rect(p, pl->map_x, pl->map_y, pl->map_w, pl->map_h);
  cb_ink frame_ink = cb_ink_stroke(GREY, 0.5);
  cb_page_ink(p, &frame_ink);
  cb_levels_draw(p, s->f.st, d, s->f.dr, o, pl->map_x, pl->map_y, pl->map_w, pl->map_h, used);
  double foot = pl->legend_y + (sheet_legend(p, s->f.st, d, s->f.dr, *used, pl->map_w, pl->map_h,
                                             pl->legend_x, pl->legend_y, pl->legend_w) +
                                8);
  /* the handout's notes start on a page of their own when not a room's line fits under the map */
  if (!o->player || key_box_h(&pl->key[0], foot, s->bottom) >= NOTES_LINE + 3)
    cb_page_text(p, CB_FONT_BOLD, 11, pl->head_x, (pl->head_under_legend ? foot : pl->head_y) + 11, INK,
                 o->player ? "Notes" : "Room key");
  int total = o->player ? d->nrooms : d->nrooms + ks->extras;
  cb_status st = CB_OK;
  *next = 0;
  for (int i = 0; i < pl->nkey && st == CB_OK && (i == 0 || *next < total); i++) {
    const cb_key_box *k = &pl->key[i];
    double y = k->under_legend ? foot + k->y : k->y, h = key_box_h(k, foot, s->bottom);
    if (o->player)
      *next = notes_fill(p, s->m, d, *next, k->x, y, k->w, h, false);
    else if (k->balanced)
      st = cb_key_fill_balanced(key_page(s, p), ks, d, next, word, k->x, y, k->w, h, k->cols, k->gutter,
                                s->f.err);
    else
      st = cb_key_fill(key_page(s, p), ks, d, next, word, k->x, y, k->w, h, k->cols, k->gutter, s->f.err);
  }
  return st;
}

/* The key (or the handout's notes) from entry *next to `total`, on pages of
 * their own down to `bottom`, each with its heading. */
static cb_status run_on(cb_document *doc, const sheet_space *s, const cb_key_style *ks, int *next, int *word,
                        int cols, int total, cb_error *err) {
  const cb_sheet_options *o = s->o;
  double x = o->margin, w = o->page_w - 2 * o->margin, bottom = s->bottom;
  cb_status st = CB_OK;
  while (st == CB_OK && *next < total) {
    cb_page *p = cb_part_new_page(doc, o, NULL);
    if (!p) return cb_error_oom(err);
    double ky = o->margin;
    cb_page_text(p, CB_FONT_BOLD, 11, x, ky + 11, INK,
                 o->player ? (*next ? "Notes (continued)" : "Notes") : "Room key (continued)");
    ky += 11 * 1.5;
    if (o->player)
      *next = notes_fill(p, s->m, s->f.d, *next, x, ky, w, bottom - ky, true);
    else
      st = cb_key_fill_balanced(key_page(s, p), ks, s->f.d, next, word, x, ky, w, bottom - ky, cols, GUTTER,
                                err);
  }
  return st;
}

/* The sheet's title and subtitle from the top margin; returns the top of what goes under them. */
static double sheet_title(cb_page *p, const cb_measure *m, const cb_dungeon *d, const cb_sheet_options *o,
                          double x, double w) {
  double y = o->margin + TITLE_SIZE;
  const char *title = d->title ? d->title : "Dungeon";
  cb_page_text(p, CB_FONT_BOLD, cb_part_fit_size(m, CB_FONT_BOLD, TITLE_SIZE, title, w), x, y, INK, title);
  char sub[256];
  y += CB_SUB_SIZE * 1.6;
  cb_part_describe(d, o, sub, sizeof sub);
  if (o->player) snprintf(sub, sizeof sub, "The players' map: what the party knows");
  cb_page_text(p, CB_FONT_ITALIC, CB_SUB_SIZE, x, y, GREY, sub);
  return y + CB_SUB_SIZE * 0.9;
}

/* The sheet's first page from its title down: the plan made and drawn; the
 * key then runs on onto pages of their own. */
static cb_status sheet_key(cb_document *doc, cb_page *p, sheet_space *s, cb_key_style *ks, cb_error *err) {
  const cb_sheet_options *o = s->o;
  /* the legend (two rows or as many as the map's symbols take, or the
   * drawing's own with every symbol) and the key's heading */
  s->below = 0;
  cb_sheet_plan pl;
  cb_status st = CB_OK;
  /* a batch draws a dungeon on the plan its count made */
  if (!cb_sheet_memo_plan(s->f.st->clashes, s->f.d, &pl)) {
    st = is_wide(o) || o->player ? CB_OK : key_below(&s->f, o, s->w, &s->below);
    if (st == CB_OK) st = sheet_room(&s->f, o, s->bottom - s->y - s->below, err);
    if (st == CB_OK) st = plan_sheet(s, &pl);
    if (st != CB_OK) return st;
    cb_sheet_memo_keep_plan(s->f.st->clashes, s->f.d, &pl);
  }
  *ks = key_style_at(ks, pl.size, pl.compact);
  cb_symbol_set used = 0;
  int word = 0, next = 0;
  if ((st = draw_plan(p, s, &pl, ks, &used, &next, &word)) != CB_OK) return st;
  int total = o->player ? s->f.d->nrooms : s->f.d->nrooms + ks->extras;
  /* a key that runs on: crawlbook says so on standard error */
  doc->spilled = !o->in_booklet && next < total;
  return run_on(doc, s, ks, &next, &word, pl.cols, total, err);
}

/* After the key: the procedure's extra pages and its log (with the
 * appendix), then the footers of the pages from `first` on. */
static cb_status sheet_end(cb_document *doc, int first, const sheet_space *s, cb_error *err) {
  const cb_sheet_options *o = s->o;
  const cb_layout_hooks *hooks = cb_part_hooks(o);
  cb_frame frame = {s->x, s->top, s->w, s->bottom - s->top};
  cb_status st = CB_OK;
  if (hooks->extra_pages && o->appendix) st = hooks->extra_pages(s->f.d, s->f.st, &frame, doc, err);
  if (st == CB_OK && o->appendix) st = cb_part_appendix(s->f.d, s->m, o, &frame, doc, err);
  if (st != CB_OK) return st;
  int pages = o->in_booklet || s->counting ? 0 : doc->npages - first;
  for (int i = 0; i < pages; i++)
    cb_part_footer(doc->pages[first + i], s->m, s->f.d, o, i + 1, pages, false);
  for (int i = first; i < doc->npages; i++)
    if (doc->pages[i]->oom) return cb_error_oom(err);
  return CB_OK;
}

/* The sheet, its map always drawn: the map decides the legend, and the
 * legend the room left for the key. */
static cb_status sheet(const cb_dungeon *d, const cb_measure *m, const cb_sheet_options *o, bool counting,
                       cb_key_memo *memo, cb_sheet_memo *clashes, cb_document *doc, cb_error *err) {
  double x = o->margin, w = o->page_w - 2 * o->margin, fh = 0;
  cb_status st = cb_part_footer_height(m, d, o, w, &fh, err);
  if (st != CB_OK) return st;
  cb_symbols marks = {
      m,         10.5,   1.0, 7.5, INK, PAPER, o->colour ? cb_palette_colour : NULL, cb_palette_room,
      o->graphs, clashes};
  cb_symbols key_marks = marks;
  key_marks.badge = CB_BODY_SIZE * 1.1;
  key_marks.line = 0.8;
  const cb_layout_hooks *hooks = cb_part_hooks(o);
  /* the hook, the roster and the wandering table are always on the sheet (stocking.md) */
  cb_key_style ks = {m,   CB_BODY_SIZE, CB_BODY_SIZE * 1.32, CB_BODY_SIZE * 0.45,
                     INK, &key_marks,   hooks->key_note,     memo};
  ks.extras = o->player ? 0 : cb_key_extras(d);
  int first = doc->npages;
  cb_page *p = cb_part_new_page(doc, o, d->title ? d->title : "Dungeon");
  if (!p) return cb_error_oom(err);
  double y = sheet_title(p, m, d, o, x, w);
  sheet_space s = {{d, &marks, sheet_drawing(hooks, o), &ks, err},
                   m,
                   o,
                   x,
                   y,
                   w,
                   o->margin,
                   o->page_h - o->margin - fh,
                   0,
                   counting};
  st = sheet_key(doc, p, &s, &ks, err);
  if (st != CB_OK) return st;
  doc->key_pages = doc->npages - first;
  return sheet_end(doc, first, &s, err);
}

cb_status cb_sheet_layout(const cb_dungeon *d, const cb_measure *m, const cb_sheet_options *o,
                          cb_document *doc, cb_error *err) {
  /* the key's entries are measured once for all the boxes tried, and the
   * map's clashes counted once for each frame (NULL: at each) */
  cb_key_memo *memo = cb_key_memo_new(d); /* NULL (out of memory): measured at each fill */
  cb_sheet_memo *clashes = o->again ? o->again : cb_sheet_memo_new();
  if (clashes)
    cb_sheet_memo_take(clashes, d); /* an earlier layout's counts are of this dungeon, made again */
  /* the trial drawings lay the same levels out again and again: a caller
   * without a graph cache gets one for this call (NULL on OOM: none) */
  cb_sheet_options with = *o;
  cb_graph_cache *own = o->graphs ? NULL : (with.graphs = cb_graph_cache_new());
  /* a batch's count plans the sheet whole, its map drawn (the map decides
   * the legend, the legend the key's room) but not the key's words, and
   * keeps its plan in o->again for the drawing: one search a dungeon */
  with.count_only = false;
  cb_status st = sheet(d, m, &with, o->count_only, memo, clashes, doc, err);
  cb_graph_cache_free(own);
  if (clashes != o->again) cb_sheet_memo_free(clashes);
  cb_key_memo_free(memo);
  return st;
}

cb_status cb_sheet_pages(const cb_dungeon *d, const cb_measure *m, const cb_sheet_options *o,
                         cb_document *doc, cb_error *err) {
  return sheet(d, m, o, false, NULL, NULL, doc, err);
}
