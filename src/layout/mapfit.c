#include "mapfit.h"

#include <math.h>
#include <stdlib.h>

#include "base/alloc.h"
#include "levels.h"
#include "map.h"

/* The height of the frame around the map's drawing w wide, at its own shape;
 * 0 when it fills any box (several levels, a graph laid out to the box). */
static double map_natural(const cb_dungeon *d, const cb_symbols *st, const cb_map_drawing *dr, double w) {
  if (d->nlevels > 1) return 0;
  double h = dr->draw ? (dr->height ? dr->height(d, st, 0, w - 8) : 0) : cb_map_height(d, st, 0, w - 8);
  return h > 0 ? h + 8 : 0;
}

/* The map frame the sheet would like: the drawing's own shape (no empty
 * bands), at most 72% of the height left; a drawing that fills any box gets
 * what a map of its width usually takes. */
double cb_mapfit_want(const cb_dungeon *d, const cb_symbols *st, const cb_map_drawing *dr, double w,
                      double avail) {
  double cap = avail * 0.72, natural = map_natural(d, st, dr, w);
  if (d->nlevels > 1) natural = cb_levels_fit(d, st, dr, w, cap).h; /* the panels at their biggest */
  if (natural > 0) return fmin(cap, natural);
  return fmin(cap, fmax(avail * 0.56, fmin(avail - 120, w * 0.78)));
}

/* The widest frame, on a grid of sixteenths of a point between lo and hi,
 * whose map at its own shape is at most h high: the same at whatever width
 * the search starts from. */
static double grid_width(const cb_dungeon *d, const cb_symbols *st, const cb_map_drawing *dr, double lo,
                         double hi, double h) {
  long a = (long)ceil(lo * 16), b = (long)floor(hi * 16);
  while (b - a > 1) {
    long mid = a + (b - a) / 2;
    if (map_natural(d, st, dr, mid / 16.0) > h)
      b = mid;
    else
      a = mid;
  }
  return fmin(a / 16.0, hi); /* a frame under 60 points: hi itself */
}

/* cb_mapfit_frame_w, found to half a point, or (`grid`) by grid_width */
static double frame_width(const cb_dungeon *d, const cb_symbols *st, const cb_map_drawing *dr, double w,
                          double *h0, bool grid) {
  cb_levels_plan pl = d->nlevels > 1 ? cb_levels_fit(d, st, dr, w, *h0) : (cb_levels_plan){0, 0, 0, 0};
  if (pl.cols) {
    *h0 = fmin(*h0, pl.h);
    return fmin(w, pl.w);
  }
  double h = *h0;
  if (!(map_natural(d, st, dr, w) > h + 0.5)) return w;
  double lo = fmin(w, 60), hi = w;
  if (grid) return grid_width(d, st, dr, lo, hi, h);
  for (int it = 0; it < 24 && hi - lo > 0.5; it++) {
    double mid = (lo + hi) / 2;
    if (map_natural(d, st, dr, mid) > h)
      hi = mid;
    else
      lo = mid;
  }
  return lo;
}

/* The frame's width for a map at most *h high: narrower than w when the
 * drawing, held to that height, no longer fills the width (no empty bands);
 * levels' panels also give back the height they do not need. */
double cb_mapfit_frame_w(const cb_dungeon *d, const cb_symbols *st, const cb_map_drawing *dr, double w,
                         double *h0) {
  return frame_width(d, st, dr, w, h0, false);
}

typedef struct text_box {
  double x0, y0, x1, y1;
} text_box;

static int by_left(const void *a, const void *b) {
  double xa = ((const text_box *)a)->x0, xb = ((const text_box *)b)->x0;
  return (xa > xb) - (xa < xb);
}

/* How many pairs of the words a reader finds rooms by (their numbers and
 * their marks' letters) overlap, and how often the map says it is cramped,
 * when it is drawn in the frame fw x h, into *out. */
static cb_status count_clashes(const cb_fitter *f, double fw, double h, long *out) {
  const cb_symbols *st = f->st;
  cb_page *s = cb_page_new(fw + 1, h + 1);
  cb_sheet_options drawn = {.page_w = fw + 1, .page_h = h + 1};
  cb_symbol_set used = 0;
  if (s) cb_levels_draw(s, st, f->d, f->dr, &drawn, 0, 0, fw, h, &used);
  text_box *b = s && !s->oom ? cb_calloc((size_t)s->nitems + 1, sizeof *b) : NULL;
  long n = 0, clashes = 0;
  for (int i = 0; b && i < s->nitems; i++) {
    const cb_item *it = &s->items[i];
    bool read = it->role.kind == CB_ROLE_NUMBER || it->role.kind == CB_ROLE_ROOM_MARK ||
                it->role.kind == CB_ROLE_PASSAGE_MARK;
    if (it->kind != CB_ITEM_TEXT || !it->text[0] || !read) continue;
    double tw = cb_text_width(st->m, it->font, it->size, it->text);
    /* numbers and marks' letters: capitals and figures, on the baseline */
    b[n++] = (text_box){it->x, it->y - it->size * 0.7, it->x + tw, it->y};
  }
  if (b) qsort(b, (size_t)n, sizeof *b, by_left);
  for (long i = 0; b && i < n; i++)
    for (long j = i + 1; j < n && b[j].x0 < b[i].x1 - 1; j++)
      clashes += fmin(b[i].y1, b[j].y1) - fmax(b[i].y0, b[j].y0) > 1;
  if (b) *out = clashes + s->cramped;
  free(b);
  cb_page_free(s);
  return b ? CB_OK : cb_error_oom(f->err);
}

/* The clash counts found while laying out one dungeon's sheet: its fits ask
 * for the same frames again, and each count costs a drawing of the map; and
 * the plan they led to. One dungeon's: a layout takes it over from an
 * earlier one of the same dungeon made again (cb_sheet_options.again: a
 * batch counts its pages, then draws them, on the plan the count made). */
struct cb_sheet_memo {
  const cb_dungeon *d; /* the dungeon the counts are of */
  bool planned;
  cb_sheet_plan plan;
  int n, cap;
  struct clash_at {
    cb_map_drawing dr;               /* the counts are of its drawing (its draw and height) */
    double badge, line, label, w, h; /* asked for */
    double fw, fh;                   /* the frame drawn */
    long clashes;
  } * at;
};

cb_sheet_memo *cb_sheet_memo_new(void) { return cb_calloc(1, sizeof(cb_sheet_memo)); }

void cb_sheet_memo_take(cb_sheet_memo *m, const cb_dungeon *d) { m->d = d; }

bool cb_sheet_memo_plan(const cb_sheet_memo *m, const cb_dungeon *d, cb_sheet_plan *out) {
  if (!m || m->d != d || !m->planned) return false;
  *out = m->plan;
  return true;
}

void cb_sheet_memo_keep_plan(cb_sheet_memo *m, const cb_dungeon *d, const cb_sheet_plan *pl) {
  if (!m || m->d != d) return;
  m->plan = *pl, m->planned = true;
}

void cb_sheet_memo_free(cb_sheet_memo *m) {
  if (m) free(m->at);
  free(m);
}

/* Room for one more count: false when there is none to be had (out of
 * memory), and the count is then only not kept. */
static bool memo_room(cb_sheet_memo *m) {
  if (m->n < m->cap) return true;
  int cap = m->cap ? 2 * m->cap : 32;
  void *at = cb_realloc(m->at, (size_t)cap * sizeof *m->at);
  if (!at) return false;
  m->at = at, m->cap = cap;
  return true;
}

/* The count kept for the frame of k (NULL: none), matched as asked for (w x
 * h) or as drawn (fw x fh). */
static const struct clash_at *kept(const cb_sheet_memo *m, const struct clash_at *k, bool drawn) {
  for (int i = 0; m && i < m->n; i++) {
    const struct clash_at *a = &m->at[i];
    if (a->dr.draw != k->dr.draw || a->dr.height != k->dr.height || a->badge != k->badge ||
        a->line != k->line || a->label != k->label)
      continue;
    if (drawn ? a->fh == k->fh && a->fw == k->fw : a->w == k->w && a->h == k->h) return a;
  }
  return NULL;
}

/* count_clashes, each frame counted once (st->clashes NULL: every time). A
 * map held to a height is counted in its frame on the grid of grid_width
 * (the sheet's frame is found to half a point), so that every width asked
 * for at that height meets the one count. */
cb_status cb_mapfit_clashes(const cb_fitter *f, double w, double h, long *out) {
  const cb_symbols *st = f->st;
  cb_sheet_memo *cm = st->clashes && st->clashes->d == f->d ? st->clashes : NULL;
  struct clash_at key = {*f->dr, st->badge, st->line, st->label, w, h, 0, h, 0};
  const struct clash_at *a = kept(cm, &key, false);
  if (!a) {
    key.fw = frame_width(f->d, st, f->dr, w, &key.fh, true);
    a = kept(cm, &key, true);
  }
  if (a) {
    *out = a->clashes;
    return CB_OK;
  }
  cb_status s = count_clashes(f, key.fw, key.fh, &key.clashes);
  if (s != CB_OK) return s;
  /* a count the memo has no room for is only not kept */
  if (cm && memo_room(cm)) cm->at[cm->n++] = key;
  *out = key.clashes;
  return CB_OK;
}

/* Where a least search tries next between lo and hi: the point of the
 * middle half on the coarsest grid of whole powers of two points, so that
 * the searches of one sheet (at other widths, with other room) try the same
 * heights and meet the counts an earlier one made. */
static double ladder_mid(double lo, double hi) {
  double a = lo + (hi - lo) / 4, b = hi - (hi - lo) / 4;
  for (double step = 1024; step >= 1.0 / 64; step /= 2) {
    double at = ceil(a / step) * step;
    if (at <= b) return at;
  }
  return (lo + hi) / 2;
}

/* How often the words run into each other on the biggest map the sheet
 * draws: full_w wide, at the size it wants with `room` left. */
cb_status cb_mapfit_base(const cb_fitter *f, double full_w, double room, long *base) {
  return cb_mapfit_clashes(f, full_w, cb_mapfit_want(f->d, f->st, f->dr, full_w, room), base);
}

/* Whether the map h high in a frame w wide reads as well as the biggest (its
 * words run into each other no more often), into *reads. */
cb_status cb_mapfit_reads(const cb_fitter *f, double w, double h, double full_w, double room, bool *reads) {
  long base = 0, at = 0;
  cb_status s = cb_mapfit_base(f, full_w, room, &base);
  if (s == CB_OK) s = cb_mapfit_clashes(f, w, h, &at);
  *reads = s == CB_OK && at <= base;
  return s;
}

/* The least height the map, in a frame w wide, may shrink to (from the size
 * it wants), into *least: a little under a third of the room, but never so
 * small that its words run into each other more than they do on the biggest
 * map the sheet draws (full_w wide, at the size it wants there: *base gets
 * how many they do there). With `known` > 0 the search stops once it knows
 * whether the least is within half a point of `known` or under it (*least is
 * then only as near as that). */
cb_status cb_mapfit_least(const cb_fitter *f, double w, double full_w, double want, double room, double known,
                          double *least, long *base) {
  double lo = fmin(want, room * 0.30), hi = want;
  long at = 0;
  cb_status s = cb_mapfit_base(f, full_w, room, base);
  *least = lo;
  if (s != CB_OK || hi - lo < 1) return s;
  if ((s = cb_mapfit_clashes(f, w, lo, &at)) != CB_OK || at <= *base) return s;
  /* to two points (seven halvings of a sheet's range reached 0.5 to 2) */
  for (int it = 0; it < 24 && hi - lo > 2 && !(known > 0 && (hi <= known || lo >= known + 0.5)); it++) {
    double mid = ladder_mid(lo, hi);
    if ((s = cb_mapfit_clashes(f, w, mid, &at)) != CB_OK) return s;
    if (at <= *base)
      hi = mid;
    else
      lo = mid;
  }
  *least = hi;
  return CB_OK;
}

/* The biggest height, from h down to least, at which the map's words run
 * into each other no more than `base` times (the count is not monotonic in
 * the size: a mark can meet another at one size and miss it at the next),
 * into *out; 0 when none. */
cb_status cb_mapfit_clean(const cb_fitter *f, double w, double h, double least, long base, double *out) {
  *out = 0;
  for (double at = h; at >= least - 0.5; at -= fmax(1, h * 0.03)) {
    long c = 0;
    cb_status s = cb_mapfit_clashes(f, w, at, &c);
    if (s != CB_OK) return s;
    if (c <= base) {
      *out = at;
      return CB_OK;
    }
  }
  return CB_OK;
}
