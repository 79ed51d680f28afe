#include "sheet.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/text.h"
#include "graph.h"
#include "hooks.h"
#include "impose.h"
#include "key.h"
#include "map.h"
#include "page/flow.h"
#include "symbols.h"
#include "template.h"

static const cb_rgb INK = CB_INK_BLACK, PAPER = CB_PAPER_WHITE, GREY = CB_QUIET_GREY;
static const double TITLE_SIZE = 20, SUB_SIZE = 10, BODY_SIZE = 8.6, LEGEND_SIZE = 8.2, FOOT_SIZE = 8;

void cb_sheet_command(const cb_dungeon *d, char *buf, size_t cap) {
  /* every word quoted where it needs it: names and values may come from a JSON file */
  size_t n = (size_t)snprintf(buf, cap, "crawlbook --generator ");
  n = cb_shell_word(buf, cap, n, d->generator);
  n += (size_t)snprintf(buf + n, n < cap ? cap - n : 0, " --seed %" PRIu64, d->seed);
  for (int i = 0; i < d->noptions && n < cap; i++) {
    char name[80];
    snprintf(name, sizeof name, "--%s", d->options[i].name);
    n += (size_t)snprintf(buf + n, cap - n, " ");
    n = cb_shell_word(buf, cap, n, name);
    if (d->options[i].flag || n >= cap) continue;
    n += (size_t)snprintf(buf + n, cap - n, " ");
    n = cb_shell_word(buf, cap, n, d->options[i].value);
  }
}

/* The size at which text fits in width w (size itself when it already does). */
static double fit_size(const cb_measure *m, cb_font font, double size, const char *text, double w) {
  for (int i = 0; i < 4; i++) {
    double tw = cb_text_width(m, font, size, text);
    if (!(tw > w) || w <= 0) break;
    size *= w / tw * 0.999;
  }
  return size;
}

/* The "To make it again" flow: footer-sized, smaller when one word of the
 * command (a long --title) would not fit on a line, since it cannot break. */
static cb_flow footer_flow(const cb_measure *m, const char *cmd, double w) {
  double size = FOOT_SIZE;
  char small[1024];
  for (const char *s = cmd; *s;) {
    size_t n = strcspn(s, " ");
    char *word = n < sizeof small ? small : cb_malloc(n + 1); /* a word of any length is measured */
    if (n && word) {
      memcpy(word, s, n);
      word[n] = '\0';
      size = fmin(size, fit_size(m, CB_FONT_REGULAR, FOOT_SIZE, word, w));
    }
    if (word != small) free(word);
    s += n + (s[n] == ' ');
  }
  return (cb_flow){m, size, size * 1.25, w, GREY, NULL, NULL};
}

char *cb_sheet_command_new(const cb_dungeon *d, const char *page_args) {
  /* never cut: a buffer that may have been filled is tried again twice the size */
  for (size_t cap = 1024;; cap *= 2) {
    char *cmd = cb_malloc(cap);
    if (!cmd) return NULL;
    cb_sheet_command(d, cmd, cap);
    size_t n = strlen(cmd);
    if (page_args && *page_args && n + 1 < cap) n += (size_t)snprintf(cmd + n, cap - n, " %s", page_args);
    if (n + 1 < cap) return cmd;
    free(cmd);
  }
}

/* The footer's command: the dungeon's and the page's options; NULL when out of memory. */
static char *command_line(const cb_dungeon *d, const cb_sheet_options *o) {
  return cb_sheet_command_new(d, o->page_args);
}

/* The footer of the dungeon's page-th of pages. Numbers count within the
 * whole document (a batch's dungeon goes on from the pages before it); on
 * facing pages the number sits on the outer edge, left on even pages. */
static void footer(cb_page *p, const cb_measure *m, const cb_dungeon *d, const cb_sheet_options *o, int page,
                   int pages, bool facing) {
  if (o->count_only) return; /* it sits in the space kept for it */
  char line[1024], *cmd = command_line(d, o);
  if (!cmd) {
    p->oom = true;
    return;
  }
  double x = o->margin, w = p->w - 2 * o->margin;
  int number = o->page_first > 0 ? o->page_first + page - 1 : page;
  snprintf(line, sizeof line, "page %d of %d", number, o->page_total > 0 ? o->page_total : pages);
  bool verso = facing && number % 2 == 0;
  double pw = cb_text_width(m, CB_FONT_REGULAR, FOOT_SIZE, line);
  char *head = NULL; /* as long as the title */
  size_t cap = 0, n = 0;
  /* the players' map names no seed and no command: they would rebuild the game master's sheet */
  if (o->player
          ? cb_text_appendf(&head, &cap, &n, "%s \xc2\xb7 the players' map", d->title ? d->title : "")
          : cb_text_appendf(&head, &cap, &n, "%s \xc2\xb7 crawlbook %s \xc2\xb7 %s \xc2\xb7 seed %" PRIu64,
                            d->title ? d->title : "", o->version, d->generator, d->seed)) {
    free(cmd);
    p->oom = true;
    return;
  }
  cb_span spans[] = {{CB_FONT_ITALIC, "To make it again: ", NULL, 0}, {CB_FONT_REGULAR, cmd, NULL, 0}};
  cb_flow f = footer_flow(m, cmd, w);
  int lines = o->player ? 0 : cb_text_flow(NULL, &f, spans, 2, 0, 0);
  /* the last line's descenders stay inside the margin too */
  double base = p->h - o->margin - (lines > 0 ? lines : 1) * f.leading - f.size * 0.45;
  cb_page_move(p, x, base - FOOT_SIZE * 1.1);
  cb_page_line(p, x + w, base - FOOT_SIZE * 1.1);
  cb_ink rule = cb_ink_stroke(GREY, 0.4);
  cb_page_ink(p, &rule);
  double hs = fit_size(m, CB_FONT_REGULAR, FOOT_SIZE, head, w - pw - FOOT_SIZE);
  double hw = cb_text_width(m, CB_FONT_REGULAR, hs, head);
  cb_page_text(p, CB_FONT_REGULAR, hs, verso ? x + w - hw : x, base, GREY, head);
  cb_page_text(p, CB_FONT_REGULAR, FOOT_SIZE, verso ? x : x + w - pw, base, GREY, line);
  if (!o->player) cb_text_flow(p, &f, spans, 2, x, base + f.leading);
  free(head);
  free(cmd);
}

static double footer_height(const cb_measure *m, const cb_dungeon *d, const cb_sheet_options *o, double w) {
  char *cmd = command_line(d, o);
  if (!cmd) return -1;
  cb_span spans[] = {{CB_FONT_ITALIC, "To make it again: ", NULL, 0}, {CB_FONT_REGULAR, cmd, NULL, 0}};
  cb_flow f = footer_flow(m, cmd, w);
  int lines = o->player ? 0 : cb_text_flow(NULL, &f, spans, 2, 0, 0);
  free(cmd);
  return lines < 0 ? -1 : (lines + 1) * f.leading + FOOT_SIZE * 1.6 + f.size * 0.45;
}

/* The legend: only the symbols the map used, in a row that wraps. Returns its height. */
static double legend(cb_page *p, const cb_symbols *st, cb_symbol_set used, double x, double y, double w) {
  double cx = x, row = 0, rowh = st->badge * 1.5, sample = 26;
  cb_page_text(p, CB_FONT_BOLD, LEGEND_SIZE, x, y + rowh * 0.5 + LEGEND_SIZE * 0.34, INK, "Legend");
  cx += cb_text_width(st->m, CB_FONT_BOLD, LEGEND_SIZE, "Legend") + 10;
  for (int s = 0; s < CB_SYM_COUNT; s++) {
    if (!(used & CB_SYMBOL_BIT(s))) continue;
    const char *name = cb_symbol_name((cb_symbol)s);
    int is_badge = cb_symbol_is_badge((cb_symbol)s);
    const char *sample_text = s == CB_SYM_KEY ? "K1" : s == CB_SYM_STAIRS_AWAY ? "L2" : NULL;
    double sw = is_badge ? cb_symbol_badge_width(st, (cb_symbol)s, sample_text) : sample;
    double item = sw + 4 + cb_text_width(st->m, CB_FONT_REGULAR, LEGEND_SIZE, name) + 12;
    if (cx + item > x + w && cx > x + 60) {
      row++;
      cx = x + cb_text_width(st->m, CB_FONT_BOLD, LEGEND_SIZE, "Legend") + 10;
    }
    double cy = y + row * rowh + rowh / 2;
    if (is_badge)
      cb_symbol_badge(p, st, (cb_symbol)s, sample_text, cx + sw / 2, cy);
    else
      cb_symbol_passage(p, st, (cb_symbol)s, cx, cy, cx + sw, cy);
    cb_page_text(p, CB_FONT_REGULAR, LEGEND_SIZE, cx + sw + 4, cy + LEGEND_SIZE * 0.34, INK, name);
    cx += item;
  }
  return (row + 1) * rowh;
}

static cb_page *new_page(cb_document *doc, const cb_sheet_options *o, const char *label) {
  cb_page *p = cb_page_new(o->page_w, o->page_h);
  if (!p || cb_document_add(doc, p)) {
    cb_page_free(p);
    return NULL;
  }
  if (label && !(p->label = cb_arena_strdup(p->arena, label))) p->oom = true;
  return p;
}

/* The procedure, step by step: the log flowed in two columns over as many
 * pages as it takes. Returns the pages added, -1 on OOM. */
static int appendix_pages(const cb_dungeon *d, const cb_measure *m, const cb_sheet_options *o,
                          const cb_frame *f, cb_document *doc) {
  const double size = 8, gutter = 14;
  double cw = (f->w - gutter) / 2;
  cb_flow fl = {m, size, size * 1.22, cw, INK, NULL, NULL};
  int i = 0, pages = 0;
  while (i < d->nlog) {
    cb_page *p = new_page(doc, o, pages == 0 ? "Procedure" : NULL);
    if (!p) return -1;
    pages++;
    cb_page_text(p, CB_FONT_BOLD, 11, f->x, f->y + 11, INK,
                 pages == 1 ? "The procedure, step by step" : "The procedure (continued)");
    double y0 = f->y + 11 * 1.5 + size, cy = 0;
    int col = 0, placed = 0;
    while (i < d->nlog && col < 2) {
      cb_span line[] = {{CB_FONT_REGULAR, d->log[i], NULL, 0}};
      int n = cb_text_flow(NULL, &fl, line, 1, 0, 0);
      if (n < 0) return -1;
      double h = n * fl.leading + 2;
      if (placed && y0 + cy + h > f->y + f->h) {
        col++, cy = 0, placed = 0;
        continue;
      }
      cb_text_flow(p, &fl, line, 1, f->x + col * (cw + gutter), y0 + cy);
      cy += h;
      placed = 1;
      i++;
    }
  }
  return pages;
}

/* The handout's key: each room's number and two ruled lines to write on, in
 * three columns. Returns the index of the first room that did not fit. */
static int notes_fill(cb_page *p, const cb_measure *m, const cb_dungeon *d, int from, double x, double y,
                      double w, double h) {
  const int cols = 3;
  const double gutter = 14, line = BODY_SIZE * 2.1;
  double cw = (w - gutter * (cols - 1)) / cols;
  /* two lines a room when all the rooms left fit so, else one */
  int nlines = cols * (int)(h / (line * 2 + 3)) >= d->nrooms - from ? 2 : 1;
  double entry = line * nlines + 3;
  int per_col = (int)(h / entry), i = from;
  if (per_col < 1) per_col = 1;
  cb_ink rule = cb_ink_stroke(GREY, 0.4);
  for (int col = 0; col < cols && i < d->nrooms; col++)
    for (int k = 0; k < per_col && i < d->nrooms; k++, i++) {
      double ex = x + col * (cw + gutter), ey = y + k * entry;
      char num[16];
      snprintf(num, sizeof num, "%d", d->rooms[i].number);
      cb_page_text(p, CB_FONT_BOLD, BODY_SIZE, ex, ey + line - 3, INK, num);
      double indent = cb_text_width(m, CB_FONT_BOLD, BODY_SIZE, "000") + 4;
      for (int r = 1; r <= nlines; r++) {
        cb_page_move(p, ex + indent, ey + r * line);
        cb_page_line(p, ex + cw, ey + r * line);
        cb_page_ink(p, &rule);
      }
    }
  return i;
}

/* A level's map: the generator's own drawing where it has one. A map only
 * fills its box, so pages made to be counted skip it. */
static void draw_map(cb_page *p, const cb_symbols *st, const cb_dungeon *d, const cb_map_drawing *dr,
                     const cb_sheet_options *o, int level, double x, double y, double w, double h,
                     cb_symbol_set *used) {
  if (o->count_only) return;
  if (dr->draw)
    dr->draw(p, st, d, level, x, y, w, h, used);
  else
    cb_map_draw(p, st, d, level, x, y, w, h, used);
}

/* Several levels share the map box in panels, a caption above each: cols
 * columns of panels whose drawings are pw wide, taking w x h. cols 0: a
 * level's drawing fills any box (it has no shape of its own). */
typedef struct levels_plan {
  int cols;
  double pw, w, h;
} levels_plan;

static const double CAPTION_H = LEGEND_SIZE + 10, PANEL_PAD = 4;

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
static levels_plan plan_levels(const cb_dungeon *d, const cb_symbols *st, const cb_map_drawing *dr, double w,
                               double h) {
  levels_plan best = {0, 0, 0, 0};
  for (int c = 1; c <= d->nlevels; c++) {
    if (leaves_empty(d->nlevels, c)) continue;
    double lo = 0, hi = w / c - 8, full = hi > 0 ? levels_height(d, st, dr, c, hi) : -1;
    if (full == 0) return (levels_plan){0, 0, 0, 0};
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
    if (lo > best.pw + 0.5) best = (levels_plan){c, lo, c * (lo + 8), levels_height(d, st, dr, c, lo)};
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
  cb_page_text(p, CB_FONT_BOLD, LEGEND_SIZE + 1, cx + 6, cy + LEGEND_SIZE + 5, INK, cap);
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
  draw_map(p, st, d, dr, o, l->id, cx + 4, cy + CAPTION_H, cw - 8, ch - CAPTION_H - PANEL_PAD, used);
}

/* The map box holds every level in panels. Levels with a shape of their own
 * get plan_levels' arrangement, each row as tall as its maps (the box's slack
 * shared out); others a grid of equal panels with as many columns as give
 * them the longest shorter side. */
static void draw_levels(cb_page *p, const cb_symbols *st, const cb_dungeon *d, const cb_map_drawing *dr,
                        const cb_sheet_options *o, double x, double y, double w, double h,
                        cb_symbol_set *used) {
  int n = d->nlevels > 0 ? d->nlevels : 1;
  if (n == 1) {
    draw_map(p, st, d, dr, o, 0, x + 4, y + 4, w - 8, h - 8, used);
    return;
  }
  levels_plan pl = plan_levels(d, st, dr, w, h);
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

/* The procedure's hooks, a row of none when it draws only the generic sheet. */
static const cb_layout_hooks *hooks_of(const cb_sheet_options *o) {
  static const cb_layout_hooks none = {.extra_pages = NULL};
  return o->hooks ? o->hooks : &none;
}

static const char *describe(const cb_dungeon *d, const cb_sheet_options *o, char *buf, size_t cap) {
  const char *what = o->what ? o->what : "A dungeon";
  snprintf(buf, cap, "%s of %d room%s \xc2\xb7 seed %" PRIu64, what, d->nrooms, d->nrooms == 1 ? "" : "s",
           d->seed);
  return buf;
}

/* The drawing the one-page sheet shows: the procedure's sheet drawing
 * where it offers one (not on the players' handout), else its map's. */
static const cb_map_drawing *sheet_drawing(const cb_layout_hooks *h, const cb_sheet_options *o) {
  return h->sheet.draw && !o->player ? &h->sheet : &h->map;
}

static double sheet_legend(cb_page *p, const cb_symbols *st, const cb_dungeon *d, const cb_map_drawing *dr,
                           cb_symbol_set used, double map_w, double map_h, double x, double y, double w) {
  if (dr->legend) return dr->legend(p, st, d, used, map_w, map_h, x, y, w);
  return legend(p, st, used, x, y, w);
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
    {2, BODY_SIZE, false}, {3, BODY_SIZE, false}, {3, 8.3, false}, {3, 8.0, false}, {3, 8.0, true}};

typedef struct sheet_fit {
  double map_h; /* the map frame's height */
  int cols;     /* the key's columns */
  double size;  /* its type size */
  bool spills;  /* it runs onto more pages */
  bool compact; /* its compact form */
  bool oom;     /* out of memory: nothing else holds */
} sheet_fit;
static const sheet_fit OOM_FIT = {.oom = true};

static cb_key_style key_style_at(const cb_key_style *ks, double size, bool compact) {
  cb_key_style k = *ks;
  /* the compact form also sets its lines closer, as a dense printed key does */
  k.size = size, k.leading = size * (compact ? 1.22 : 1.32), k.gap = size * (compact ? 0.25 : 0.45);
  k.compact = compact;
  return k;
}

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
static double map_want(const cb_dungeon *d, const cb_symbols *st, const cb_map_drawing *dr, double w,
                       double avail) {
  double cap = avail * 0.72, natural = map_natural(d, st, dr, w);
  if (d->nlevels > 1) natural = plan_levels(d, st, dr, w, cap).h; /* the panels at their biggest */
  if (natural > 0) return fmin(cap, natural);
  return fmin(cap, fmax(avail * 0.56, fmin(avail - 120, w * 0.78)));
}

/* The frame's width for a map at most *h high: narrower than w when the
 * drawing, held to that height, no longer fills the width (no empty bands);
 * levels' panels also give back the height they do not need. */
static double map_frame_w(const cb_dungeon *d, const cb_symbols *st, const cb_map_drawing *dr, double w,
                          double *h0) {
  levels_plan pl = d->nlevels > 1 ? plan_levels(d, st, dr, w, *h0) : (levels_plan){0, 0, 0, 0};
  if (pl.cols) {
    *h0 = fmin(*h0, pl.h);
    return fmin(w, pl.w);
  }
  double h = *h0;
  if (!(map_natural(d, st, dr, w) > h + 0.5)) return w;
  double lo = fmin(w, 60), hi = w;
  for (int it = 0; it < 24 && hi - lo > 0.5; it++) {
    double mid = (lo + hi) / 2;
    if (map_natural(d, st, dr, mid) > h)
      hi = mid;
    else
      lo = mid;
  }
  return lo;
}

typedef struct text_box {
  double x0, y0, x1, y1;
} text_box;

static int by_left(const void *a, const void *b) {
  double xa = ((const text_box *)a)->x0, xb = ((const text_box *)b)->x0;
  return (xa > xb) - (xa < xb);
}

/* How many pairs of the words a reader finds rooms by (their numbers and
 * their marks' letters) overlap, and how often the map says it is cramped, when it is drawn in a frame h high
 * (w wide at most); -1 on OOM. */
static long count_clashes(const cb_dungeon *d, const cb_symbols *st, const cb_map_drawing *dr, double w,
                          double h) {
  double fw = map_frame_w(d, st, dr, w, &h);
  cb_page *s = cb_page_new(fw + 1, h + 1);
  cb_sheet_options drawn = {.page_w = fw + 1, .page_h = h + 1};
  cb_symbol_set used = 0;
  if (s) draw_levels(s, st, d, dr, &drawn, 0, 0, fw, h, &used);
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
  long r = b ? clashes + s->cramped : -1;
  free(b);
  cb_page_free(s);
  return r;
}

/* The clash counts found while laying out one dungeon's sheets: the fits of
 * a sheet (and the sheets a batch's count tries, and its drawing after) ask
 * for the same frames again, and each count costs a drawing of the map. One
 * dungeon's: a layout takes it over from an earlier one of the same dungeon
 * made again (cb_sheet_options.again). */
struct cb_sheet_memo {
  const cb_dungeon *d; /* the dungeon the counts are of */
  int n, cap;
  struct clash_at {
    cb_map_drawing dr; /* the counts are of its drawing (its draw and height) */
    double badge, line, label, w, h;
    long clashes;
  } * at;
};

cb_sheet_memo *cb_sheet_memo_new(void) { return cb_calloc(1, sizeof(cb_sheet_memo)); }

void cb_sheet_memo_free(cb_sheet_memo *m) {
  if (m) free(m->at);
  free(m);
}

/* Room for one more count; 0, or -1 when out of memory (the count is then not kept). */
static int grow_memo(cb_sheet_memo *m) {
  int cap = m->cap ? 2 * m->cap : 32;
  void *at = cb_realloc(m->at, (size_t)cap * sizeof *m->at);
  if (!at) return -1;
  m->at = at, m->cap = cap;
  return 0;
}

/* count_clashes, each frame counted once (st->clashes NULL: every time). */
static long map_clashes(const cb_dungeon *d, const cb_symbols *st, const cb_map_drawing *dr, double w,
                        double h) {
  cb_sheet_memo *cm = st->clashes && st->clashes->d == d ? st->clashes : NULL;
  struct clash_at key = {*dr, st->badge, st->line, st->label, w, h, 0};
  for (int i = 0; cm && i < cm->n; i++) {
    const struct clash_at *a = &cm->at[i];
    if (a->dr.draw == dr->draw && a->dr.height == dr->height && a->badge == key.badge &&
        a->line == key.line && a->label == key.label && a->w == w && a->h == h)
      return a->clashes;
  }
  key.clashes = count_clashes(d, st, dr, w, h);
  if (cm && key.clashes >= 0 && (cm->n < cm->cap || !grow_memo(cm))) cm->at[cm->n++] = key;
  return key.clashes;
}

/* The least height the map, in a frame w wide, may shrink to (from the size
 * it wants): a little under a third of the room, but never so small that
 * its words run into each other more than they do on the biggest map the
 * sheet draws (full_w wide, at the size it wants there: *base_out gets
 * how many they do there); -1 on OOM. */
static double map_least(const cb_dungeon *d, const cb_symbols *st, const cb_map_drawing *dr, double w,
                        double full_w, double want, double room, long *base_out) {
  double lo = fmin(want, room * 0.30), hi = want;
  long base = map_clashes(d, st, dr, full_w, map_want(d, st, dr, full_w, room));
  *base_out = base;
  if (base < 0) return -1;
  if (hi - lo < 1) return lo;
  long at = map_clashes(d, st, dr, w, lo);
  if (at < 0) return -1;
  if (at <= base) return lo;
  for (int it = 0; it < 7; it++) {
    double mid = (lo + hi) / 2;
    long c = map_clashes(d, st, dr, w, mid);
    if (c < 0) return -1;
    if (c <= base)
      hi = mid;
    else
      lo = mid;
  }
  return hi;
}

/* The biggest height, from h down to least, at which the map's words run
 * into each other no more than `base` times (the count is not monotonic in
 * the size: a mark can meet another at one size and miss it at the next);
 * 0 when none, -1 on OOM. */
static double map_clean(const cb_dungeon *d, const cb_symbols *st, const cb_map_drawing *dr, double w,
                        double h, double least, long base) {
  for (double at = h; at >= least - 0.5; at -= fmax(1, h * 0.03)) {
    long c = map_clashes(d, st, dr, w, at);
    if (c < 0) return -1;
    if (c <= base) return at;
  }
  return 0;
}

/* The key's part on the page after the sheet (under its heading) at step
 * i with a map map_h high: its height, INFINITY when it needs more than
 * that page, -1 on OOM. */
static double spill_rest(const cb_key_style *ks, const cb_dungeon *d, double w, double room, double page,
                         int i, double map_h) {
  cb_key_style k = key_style_at(ks, KEY_STEP[i].size, KEY_STEP[i].compact);
  int next = cb_key_fill(NULL, &k, d, 0, NULL, 0, 0, w, room - map_h, KEY_STEP[i].cols, GUTTER);
  return next < 0 ? -1 : cb_key_height(&k, d, next, w, page - 11 * 1.5, KEY_STEP[i].cols, GUTTER);
}

/* A key that runs on takes the first step that keeps it to one more page
 * (the first step when none does), the map grown (to `cap`) until that
 * page is at least a third full. */
static sheet_fit fit_spill(const cb_key_style *ks, const cb_dungeon *d, double w, double room, double page,
                           double want, double cap) {
  int step = 0;
  double rest = INFINITY; /* the next page's part at the map's height */
  for (int i = 0; i < KEY_STEPS && !isfinite(rest); i++) {
    rest = spill_rest(ks, d, w, room, page, i, want);
    if (rest < 0) return OOM_FIT;
    if (i == 0 || isfinite(rest)) step = i;
  }
  sheet_fit fit = {want, KEY_STEP[step].cols, KEY_STEP[step].size, true, KEY_STEP[step].compact};
  while (rest >= 0 && isfinite(rest) && rest < page / 3 && fit.map_h < cap) {
    double grown_h = fmin(cap, fit.map_h + room * 0.04);
    double grown = spill_rest(ks, d, w, room, page, step, grown_h);
    if (!(grown >= 0 && isfinite(grown))) { /* OOM, or a bigger map pushes the key onto a third page */
      rest = grown;
      break;
    }
    fit.map_h = grown_h, rest = grown;
  }
  if (rest < 0) return OOM_FIT;
  return fit;
}

/* How the sheet fits: the map at its wanted height while one of the key's
 * steps keeps the whole key on the sheet, else the biggest map, down to 45% of
 * the height left, that a step leaves. A key that still does not fit runs on at the first step; the
 * map then grows (to 72%) until the page it runs onto is at least a third full. */
static sheet_fit fit_sheet(const cb_key_style *ks, const cb_dungeon *d, const cb_symbols *st,
                           const cb_map_drawing *dr, double w, double room, double page) {
  /* the map's legible floor (map_least) costs drawings: found only when the map must shrink */
  double want = map_want(d, st, dr, w, room), least = fmin(want, room * 0.30), cap = room * 0.72;
  /* the map keeps its size while a step of the key makes room (the first that
   * does); else it gives up what the step that leaves it most needs */
  sheet_fit best = {-INFINITY, 0, 0, false};
  for (int i = 0; i < KEY_STEPS; i++) {
    cb_key_style k = key_style_at(ks, KEY_STEP[i].size, KEY_STEP[i].compact);
    double kh = cb_key_height(&k, d, 0, w, room - least, KEY_STEP[i].cols, GUTTER);
    if (kh < 0) return OOM_FIT;
    if (!isfinite(kh)) continue;
    sheet_fit fit = {fmin(want, room - kh), KEY_STEP[i].cols, KEY_STEP[i].size, false, KEY_STEP[i].compact};
    if (fit.map_h >= want) return fit;
    if (fit.map_h > best.map_h + 0.5) best = fit;
  }
  if (best.cols) {
    long base = 0;
    double floor = map_least(d, st, dr, w, w, want, room, &base);
    best.map_h = floor < 0 ? -1 : map_clean(d, st, dr, w, best.map_h, floor, base);
    if (best.map_h < 0) return OOM_FIT;
  }
  if (best.cols && best.map_h != 0) return best;
  return fit_spill(ks, d, w, room, page, want, cap);
}

enum { NOT_BESIDE = -2 };
static const double HEAD_H = 11 * 1.5; /* "Room key" and the space below it */

typedef struct beside_fit {
  double map_h, map_w; /* the map frame; map_h 0 when no size fits */
  double side_h;       /* the band of the map and its legend, the key's first columns beside it */
  int side_cols;       /* the key's columns beside the map */
  sheet_fit key;       /* the key's step, and its columns below the band */
  bool oom;            /* out of memory: nothing else holds */
} beside_fit;

/* The biggest map (from the size it wants down to `least`), with the first
 * step of the key that then fits the sheet, the key's first columns beside
 * the map and its legend, the rest below them; map_h 0 when none does. */
static beside_fit fit_beside(const cb_key_style *ks, const cb_dungeon *d, const cb_symbols *st,
                             const cb_map_drawing *dr, double w, double room, double want, double least,
                             long base) {
  for (double mh = want; mh >= least - 0.5; mh = mh > least + 0.5 ? fmax(least, mh - room * 0.02) : 0) {
    double frame_h = mh, mw = map_frame_w(d, st, dr, w, &frame_h), side_w = w - mw - GUTTER;
    if (side_w < 150) continue; /* a column narrower than that reads as a list of words */
    long clashes = map_clashes(d, st, dr, w, mh);
    if (clashes < 0) return (beside_fit){.oom = true};
    if (clashes > base) continue;
    double side_h = mh + 6 + dr->legend(NULL, st, d, ~(cb_symbol_set)0, mw, mh, 0, 0, mw);
    int side_cols = side_w > 330 ? 2 : 1;
    for (int i = 0; i < KEY_STEPS; i++) {
      cb_key_style k = key_style_at(ks, KEY_STEP[i].size, KEY_STEP[i].compact);
      int next = cb_key_fill(NULL, &k, d, 0, NULL, 0, 0, side_w, side_h - HEAD_H, side_cols, GUTTER);
      int total = d->nrooms + k.extras, all = next < 0 || next >= total
                                                  ? next
                                                  : cb_key_fill(NULL, &k, d, next, NULL, 0, 0, w,
                                                                room - side_h - 8, KEY_STEP[i].cols, GUTTER);
      if (all < 0) return (beside_fit){.oom = true};
      if (all >= total)
        return (beside_fit){
            mh, mw, side_h, side_cols, {mh, KEY_STEP[i].cols, KEY_STEP[i].size, false, KEY_STEP[i].compact}};
    }
  }
  return (beside_fit){.map_h = 0};
}

/* A sheet map that the key leaves small (fit_sheet gives it less than it
 * wants) is drawn at the left, its legend below it, and the key begins in
 * the columns beside them: the key takes the width a small map leaves
 * empty. Returns the room the key goes on from, NOT_BESIDE when the sheet is
 * better laid out the usual way (the map gets its size, or is no smaller). */
static int sheet_beside(cb_page *p, const cb_symbols *st, const cb_dungeon *d, const cb_map_drawing *dr,
                        const cb_sheet_options *o, cb_key_style *ks, double x, double y, double w,
                        double bottom, double top, cb_symbol_set *used, int *word, int *cols) {
  if (!dr->legend || o->player || o->page_w > o->page_h * 1.05) return NOT_BESIDE;
  double below = dr->legend(NULL, st, d, ~(cb_symbol_set)0, w, w, 0, 0, w) + 6 + 8 + HEAD_H;
  double room = bottom - y - below, want = map_want(d, st, dr, w, room);
  sheet_fit usual = fit_sheet(ks, d, st, dr, w, room, bottom - top);
  if (usual.oom || (!usual.spills && usual.map_h >= want - 0.5)) return NOT_BESIDE;
  long base = 0;
  double least = map_least(d, st, dr, w, w, want, room, &base);
  if (least < 0) return -1;
  beside_fit bf = fit_beside(ks, d, st, dr, w, bottom - y, want, least, base);
  if (bf.oom) return -1;
  if (bf.map_h <= 0 || (!usual.spills && bf.map_h <= usual.map_h + 0.5)) return NOT_BESIDE;
  *ks = key_style_at(ks, bf.key.size, bf.key.compact);
  *cols = bf.key.cols;
  cb_page_rect(p, x, y, bf.map_w, bf.map_h);
  cb_ink frame_ink = cb_ink_stroke(GREY, 0.5);
  cb_page_ink(p, &frame_ink);
  draw_levels(p, st, d, dr, o, x, y, bf.map_w, bf.map_h, used);
  sheet_legend(p, st, d, dr, *used, bf.map_w, bf.map_h, x, y + bf.map_h + 6, bf.map_w);
  double sx = x + bf.map_w + GUTTER, sw = w - bf.map_w - GUTTER;
  cb_page_text(p, CB_FONT_BOLD, 11, sx, y + 11, INK, "Room key");
  int next = cb_key_fill(p, ks, d, 0, word, sx, y + HEAD_H, sw, bf.side_h - HEAD_H, bf.side_cols, GUTTER);
  y += bf.side_h + 8;
  if (next < 0) return -1;
  if (next < d->nrooms + ks->extras)
    next = cb_key_fill_balanced(p, ks, d, next, word, x, y, w, bottom - y, *cols, GUTTER);
  return next;
}

/* The key beside the map, for a key too long to go under it: three columns,
 * the first running down the page's left, the map and its legend over the
 * other two, which take the rest of the key below them. map_h 0: it does not
 * fit either; -1 on OOM. */
typedef struct side_fit {
  double map_h;
  double size;  /* the key's type size */
  bool compact; /* its compact form */
  bool oom;     /* out of memory: nothing else holds */
} side_fit;

/* The legend's height under a map mw wide, for the symbols the map uses
 * (drawn on a scratch page: the legend wraps them); -1 on OOM. */
static double side_legend_h(const cb_symbols *st, const cb_dungeon *d, const cb_map_drawing *dr,
                            const cb_sheet_options *o, cb_symbol_set assume, double mw) {
  cb_page *s = cb_page_new(o->page_w, o->page_h);
  if (!s) return -1;
  cb_symbol_set used = assume;
  draw_levels(s, st, d, dr, o, 0, 0, mw, mw, &used);
  double h = sheet_legend(s, st, d, dr, used, mw, mw, 0, 0, mw);
  h = s->oom ? -1 : h;
  cb_page_free(s);
  return h;
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

/* What the portrait sheet keeps under its map: the legend (two rows, more
 * when the map's symbols take more; or the sheet map's own with every
 * symbol) and the key's heading; -1 on OOM. */
static double key_below(const cb_symbols *st, const cb_dungeon *d, const cb_map_drawing *dr,
                        const cb_sheet_options *o, cb_symbol_set assume, double w) {
  if (dr->legend) return dr->legend(NULL, st, d, ~(cb_symbol_set)0, w, w, 0, 0, w) + 6 + 8 + HEAD_H;
  /* the map is drawn aside only when the dungeon's symbols may take more than two rows */
  cb_page *s = cb_page_new(o->page_w, o->page_h);
  double most = s ? legend(s, st, assume | dungeon_symbols(d), 0, 0, w) : -1;
  cb_page_free(s);
  if (!(most > st->badge * 3 + 1e-6)) return most < 0 ? -1 : st->badge * 3 + 14 + HEAD_H;
  double lh = side_legend_h(st, d, dr, o, assume, w);
  return lh < 0 ? -1 : fmax(st->badge * 3, lh) + 14 + HEAD_H;
}

/* The biggest map, down to the floor the sheet's own fit keeps, that leaves
 * the whole key room beside and below it, at the first of the key's steps
 * that keeps the map at its wanted height. */
static side_fit fit_side(const cb_key_style *ks, const cb_dungeon *d, const cb_symbols *st,
                         const cb_map_drawing *dr, double legend_h, double w, double h, double room) {
  double cw = (w - 2 * GUTTER) / 3, mw = 2 * cw + GUTTER, below = legend_h + 14;
  long base = 0;
  double want = map_want(d, st, dr, mw, room), least = map_least(d, st, dr, mw, w, want, room, &base);
  side_fit best = {0, 0, false};
  if (least < 0) return (side_fit){.oom = true};
  for (int i = 1; i < KEY_STEPS; i++) {
    cb_key_style k = key_style_at(ks, KEY_STEP[i].size, KEY_STEP[i].compact);
    int word = 0, next = cb_key_fill(NULL, &k, d, 0, &word, 0, 0, cw, h - HEAD_H, 1, GUTTER);
    double rest = next < 0 ? -1
                  : next >= d->nrooms + k.extras
                      ? 0
                      : cb_key_height(&k, d, next, mw, h - below - least, 2, GUTTER);
    if (rest < 0) return (side_fit){.oom = true};
    if (word || !isfinite(rest)) continue; /* an entry split across the gap, or too long still */
    side_fit f = {fmin(want, h - below - rest), k.size, k.compact};
    if (f.map_h >= want) {
      best = f;
      break;
    }
    if (f.map_h > best.map_h + 0.5) best = f;
  }
  if (best.map_h > 0) best.map_h = map_clean(d, st, dr, mw, best.map_h, least, base);
  if (best.map_h < 0) return (side_fit){.oom = true};
  return best;
}

/* The sheet's side layout (fit_side) below y: returns the first room the
 * key left over, as cb_key_fill does. The hook and the wandering table
 * join it where they fit. */
static int draw_side(cb_page *p, const cb_symbols *st, const cb_dungeon *d, const cb_map_drawing *dr,
                     const cb_sheet_options *o, cb_key_style *ks, double map_h, double x, double y, double w,
                     double bottom, int *word, cb_symbol_set *used) {
  double cw = (w - 2 * GUTTER) / 3, mw = 2 * cw + GUTTER, rx = x + cw + GUTTER;
  double map_w = map_frame_w(d, st, dr, mw, &map_h), map_x = rx + (mw - map_w) / 2;
  cb_page_rect(p, map_x, y, map_w, map_h);
  cb_ink frame_ink = cb_ink_stroke(GREY, 0.5);
  cb_page_ink(p, &frame_ink);
  draw_levels(p, st, d, dr, o, map_x, y, map_w, map_h, used);
  double ky = y + map_h + 6;
  ky += sheet_legend(p, st, d, dr, *used, map_w, map_h, rx, ky, mw) + 8;
  cb_page_text(p, CB_FONT_BOLD, 11, x, y + 11, INK, "Room key");
  int next = cb_key_fill(p, ks, d, 0, word, x, y + HEAD_H, cw, bottom - y - HEAD_H, 1, GUTTER);
  if (next >= 0 && next < d->nrooms + ks->extras)
    next = cb_key_fill_balanced(p, ks, d, next, word, rx, ky, mw, bottom - ky, 2, GUTTER);
  return next;
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

static wide_fit fit_wide(const cb_key_style *ks, const cb_dungeon *d, double w, double h) {
  for (double share = 0.6; share > 0.34; share -= 0.05) {
    double kw = w - w * share - 16;
    for (int i = 0; i < KEY_STEPS; i++) {
      cb_key_style k = key_style_at(ks, KEY_STEP[i].size, KEY_STEP[i].compact);
      if (isfinite(cb_key_height(&k, d, 0, kw, h, wide_cols(kw), 12))) return (wide_fit){share, i};
    }
  }
  return (wide_fit){0.6, KEY_STEPS - 1}; /* the densest, to run on as little as it can */
}

/* Whether the portrait sheet takes the side layout: only when its key, under
 * a map of the least height its fit keeps, would run onto another page. */
static side_fit try_side(const cb_key_style *ks, const cb_dungeon *d, const cb_symbols *st,
                         const cb_map_drawing *dr, const cb_sheet_options *o, cb_symbol_set assume, double w,
                         double h, double page, double below) {
  if (o->player || o->page_w > o->page_h * 1.05 || dr->legend || below < 0) return (side_fit){0, 0, false};
  sheet_fit fit = fit_sheet(ks, d, st, dr, w, h - below, page);
  if (fit.oom) return (side_fit){.oom = true};
  if (!fit.spills) return (side_fit){0, 0, false};
  double lh = side_legend_h(st, d, dr, o, assume, 2 * (w - 2 * GUTTER) / 3 + GUTTER);
  if (lh < 0) return (side_fit){.oom = true};
  return fit_side(ks, d, st, dr, lh, w, h, h - below);
}

/* The least height the sheet leaves its map and key (under the title, over
 * the legend and the footer): less draws a map too small to read. A wide
 * page's key runs beside the map, which needs less height for its width. */
static const double SHEET_ROOM_FLOOR = 100, WIDE_MAP_FLOOR = 36;

/* CB_OK when the page leaves the map and the key enough height (`left`,
 * under the title and the legend, over the footer), else CB_EINPUT saying
 * what does not fit; CB_EINTERNAL on OOM. */
static cb_status sheet_room(const cb_symbols *st, const cb_dungeon *d, const cb_map_drawing *dr,
                            const cb_sheet_options *o, cb_symbol_set used, double left, cb_error *err) {
  bool wide = o->page_w > o->page_h * 1.05;
  /* the booklet's handout runs its notes onto pages of their own: only its map needs room */
  bool handout = o->player && o->in_booklet && !wide;
  double need = wide || handout ? WIDE_MAP_FLOOR : SHEET_ROOM_FLOOR;
  if (wide)
    left -= st->badge * 3.2 + 14; /* the legend under the map */
  else if (o->player && !handout) {
    double below = key_below(st, d, dr, o, used, o->page_w - 2 * o->margin);
    if (below < 0) return cb_error_oom(err);
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

/* The key (or the handout's notes) from entry *next to `total`, on pages of
 * their own down to `bottom`, each with its heading; -1 when out of memory. */
static int run_on(cb_document *doc, const cb_measure *m, const cb_dungeon *d, const cb_sheet_options *o,
                  const cb_key_style *ks, int *next, int *word, int cols, int total, double bottom) {
  double x = o->margin, w = o->page_w - 2 * o->margin;
  while (*next >= 0 && *next < total) {
    cb_page *p = cb_page_new(o->page_w, o->page_h);
    if (!p || cb_document_add(doc, p)) {
      cb_page_free(p);
      return -1;
    }
    double ky = o->margin;
    cb_page_text(p, CB_FONT_BOLD, 11, x, ky + 11, INK,
                 o->player ? "Notes (continued)" : "Room key (continued)");
    ky += 11 * 1.5;
    *next = o->player ? notes_fill(p, m, d, *next, x, ky, w, bottom - ky)
                      : cb_key_fill_balanced(p, ks, d, *next, word, x, ky, w, bottom - ky, cols, GUTTER);
  }
  return *next < 0 ? -1 : 0;
}

/* The sheet; when the map is skipped (o->count_only), `assume` stands for the
 * symbols it would have used, the legend's size being all a map decides
 * beyond its own box. */
static cb_status sheet(const cb_dungeon *d, const cb_measure *m, const cb_sheet_options *o,
                       cb_symbol_set assume, cb_key_memo *memo, cb_sheet_memo *clashes, cb_document *doc,
                       cb_error *err) {
  double x = o->margin, w = o->page_w - 2 * o->margin, top = o->margin, fh = footer_height(m, d, o, w);
  if (fh < 0) return cb_error_oom(err);
  double bottom = o->page_h - o->margin - fh;
  cb_symbols st = {
      m,         10.5,   1.0, 7.5, INK, PAPER, o->colour ? cb_palette_colour : NULL, cb_palette_room,
      o->graphs, clashes};
  cb_symbols key_marks = st;
  key_marks.badge = BODY_SIZE * 1.1;
  key_marks.line = 0.8;
  /* the hook, the roster and the wandering table are always on the sheet (stocking.md) */
  cb_key_style ks = {m, BODY_SIZE, BODY_SIZE * 1.32, BODY_SIZE * 0.45, INK, &key_marks, NULL, memo};
  ks.extras = o->player ? 0 : cb_key_extras(d);
  int total = d->nrooms + ks.extras;
  int first = doc->npages;

  cb_page *p = cb_page_new(o->page_w, o->page_h);
  if (!p || cb_document_add(doc, p)) {
    cb_page_free(p);
    return cb_error_oom(err);
  }
  p->label = cb_arena_strdup(p->arena, d->title ? d->title : "Dungeon");
  if (!p->label) p->oom = true;
  double y = top + TITLE_SIZE;
  const char *title = d->title ? d->title : "Dungeon";
  cb_page_text(p, CB_FONT_BOLD, fit_size(m, CB_FONT_BOLD, TITLE_SIZE, title, w), x, y, INK, title);
  char sub[256];
  y += SUB_SIZE * 1.6;
  describe(d, o, sub, sizeof sub);
  if (o->player) snprintf(sub, sizeof sub, "The players' map: what the party knows");
  cb_page_text(p, CB_FONT_ITALIC, SUB_SIZE, x, y, GREY, sub);
  y += SUB_SIZE * 0.9;

  const cb_layout_hooks *hooks = hooks_of(o);
  const cb_map_drawing *dr = sheet_drawing(hooks, o);
  ks.note = hooks->key_note;
  cb_symbol_set used = o->count_only ? assume : 0;
  cb_ink frame_ink = cb_ink_stroke(GREY, 0.5);
  int word = 0, cols = 2; /* the key's word to go on from, its columns */
  /* the legend (two rows or as many as the map's symbols take, or the sheet
   * map's own with every symbol) and the key's heading */
  double below = o->page_w > o->page_h * 1.05 || o->player ? 0 : key_below(&st, d, dr, o, used, w);
  if (below < 0) return cb_error_oom(err);
  cb_status fits = sheet_room(&st, d, dr, o, used, bottom - y - below, err);
  if (fits != CB_OK) return fits;
  int next = sheet_beside(p, &st, d, dr, o, &ks, x, y, w, bottom, top, &used, &word, &cols);
  side_fit side;
  if (next != NOT_BESIDE) {
    /* the key began beside a small map (fit_beside) */
  } else if (o->page_w > o->page_h * 1.05) {
    /* a wide page: the map on the left with its legend below, the key beside it */
    wide_fit wf = o->player ? (wide_fit){0.6, 0} : fit_wide(&ks, d, w, bottom - y - HEAD_H);
    ks = key_style_at(&ks, KEY_STEP[wf.step].size, KEY_STEP[wf.step].compact);
    cols = wide_cols(w); /* a page the key runs onto takes the whole width */
    double avail = bottom - y, map_w = w * wf.share, map_h = avail - st.badge * 3.2 - 14;
    cb_page_rect(p, x, y, map_w, map_h);
    cb_page_ink(p, &frame_ink);
    draw_levels(p, &st, d, dr, o, x, y, map_w, map_h, &used);
    sheet_legend(p, &st, d, dr, used, map_w, map_h, x, y + map_h + 6, map_w);
    double kx = x + map_w + 16, kw = w - map_w - 16, ky = y;
    cb_page_text(p, CB_FONT_BOLD, 11, kx, ky + 11, INK, o->player ? "Notes" : "Room key");
    ky += 11 * 1.5;
    next = o->player ? notes_fill(p, m, d, 0, kx, ky, kw, bottom - ky)
                     : cb_key_fill_balanced(p, &ks, d, 0, &word, kx, ky, kw, bottom - ky, wide_cols(kw), 12);
  } else if ((side = try_side(&ks, d, &st, dr, o, used, w, bottom - y, bottom - top, below)).map_h != 0) {
    if (side.oom) return cb_error_oom(err);
    ks = key_style_at(&ks, side.size, side.compact);
    cols = 3;
    next = draw_side(p, &st, d, dr, o, &ks, side.map_h, x, y, w, bottom, &word, &used);
  } else {
    sheet_fit fit = o->player ? (sheet_fit){map_want(d, &st, dr, w, bottom - y), 2, BODY_SIZE, false}
                              : fit_sheet(&ks, d, &st, dr, w, bottom - y - below, bottom - top);
    if (fit.oom) return cb_error_oom(err);
    double map_h = fmax(fit.map_h, 0);
    ks = key_style_at(&ks, fit.size, fit.compact);
    cols = fit.cols;
    double map_w = map_frame_w(d, &st, dr, w, &map_h), map_x = x + (w - map_w) / 2;
    cb_page_rect(p, map_x, y, map_w, map_h);
    cb_page_ink(p, &frame_ink);
    draw_levels(p, &st, d, dr, o, map_x, y, map_w, map_h, &used);
    y += map_h + 6;
    y += sheet_legend(p, &st, d, dr, used, map_w, map_h, x, y, w) + 8;
    cb_page_text(p, CB_FONT_BOLD, 11, x, y + 11, INK, o->player ? "Notes" : "Room key");
    y += 11 * 1.5;
    next = o->player ? notes_fill(p, m, d, 0, x, y, w, bottom - y)
                     : cb_key_fill_balanced(p, &ks, d, 0, &word, x, y, w, bottom - y, cols, GUTTER);
  }
  if (o->player) total = d->nrooms;
  /* a key that runs on: crawlbook says so on standard error */
  doc->spilled = !o->in_booklet && next >= 0 && next < total;
  if (run_on(doc, m, d, o, &ks, &next, &word, cols, total, bottom) < 0) return cb_error_oom(err);
  doc->key_pages = doc->npages - first;
  cb_frame frame = {x, top, w, bottom - top};
  if (hooks->extra_pages && o->appendix) {
    cb_status st2 = hooks->extra_pages(d, &st, &frame, doc, err);
    if (st2 != CB_OK) return st2;
  }
  if (o->appendix && appendix_pages(d, m, o, &frame, doc) < 0) return cb_error_oom(err);
  int pages = o->in_booklet ? 0 : doc->npages - first;
  for (int i = 0; i < pages; i++)
    footer(doc->pages[first + i], m, d, o, i + 1, pages, false);
  for (int i = first; i < doc->npages; i++)
    if (doc->pages[i]->oom) return cb_error_oom(err);
  return CB_OK;
}

/* A page with a heading and, below it, the map box, its legend at the bottom. */
static void drop_pages(cb_document *doc, int from) {
  for (int i = from; i < doc->npages; i++)
    cb_page_free(doc->pages[i]);
  doc->npages = from;
}

/* Counting: with the fewest and with the most symbols in the legend; when
 * both give the same number of pages, so does the map; else it is drawn. */
static cb_status count_sheet(const cb_dungeon *d, const cb_measure *m, const cb_sheet_options *o,
                             cb_key_memo *memo, cb_sheet_memo *clashes, cb_document *doc, cb_error *err) {
  _Static_assert(CB_SYM_COUNT <= 64, "a symbol set is 64 bits");
  int first = doc->npages;
  cb_document most = {0};
  cb_status st = sheet(d, m, o, 0, memo, clashes, doc, err);
  if (st == CB_OK) st = sheet(d, m, o, ~(cb_symbol_set)0 >> (64 - CB_SYM_COUNT), memo, clashes, &most, err);
  int same = st == CB_OK && most.npages == doc->npages - first;
  cb_document_free(&most);
  if (st != CB_OK || same) return st;
  drop_pages(doc, first);
  cb_sheet_options drawn = *o;
  drawn.count_only = false;
  return sheet(d, m, &drawn, 0, memo, clashes, doc, err);
}

cb_status cb_sheet_layout(const cb_dungeon *d, const cb_measure *m, const cb_sheet_options *o,
                          cb_document *doc, cb_error *err) {
  /* the key's entries are measured once for all the boxes tried, and the
   * map's clashes counted once for each frame (NULL: at each) */
  cb_key_memo *memo = cb_calloc((size_t)d->nrooms + 1, sizeof *memo);
  cb_sheet_memo *clashes = o->again ? o->again : cb_sheet_memo_new();
  if (clashes) clashes->d = d; /* an earlier layout's counts are of this dungeon, made again */
  /* the trial drawings lay the same levels out again and again: a caller
   * without a graph cache gets one for this call (NULL on OOM: none) */
  cb_sheet_options with = *o;
  cb_graph_cache *own = o->graphs ? NULL : (with.graphs = cb_graph_cache_new());
  cb_status st = o->count_only ? count_sheet(d, m, &with, memo, clashes, doc, err)
                               : sheet(d, m, &with, 0, memo, clashes, doc, err);
  cb_graph_cache_free(own);
  if (clashes != o->again) cb_sheet_memo_free(clashes);
  free(memo);
  return st;
}

static void map_page(cb_page *p, const cb_symbols *st, const cb_dungeon *d, const cb_map_drawing *dr,
                     const cb_sheet_options *o, int level, const cb_frame *f, const char *heading,
                     double bottom_reserve) {
  cb_page_text(p, CB_FONT_BOLD, 13, f->x, f->y + 13, INK, heading);
  double y = f->y + 13 * 1.6, h = f->h - (y - f->y) - st->badge * 3.2 - 10 - bottom_reserve;
  cb_page_rect(p, f->x, y, f->w, h);
  cb_ink frame_ink = cb_ink_stroke(GREY, 0.5);
  cb_page_ink(p, &frame_ink);
  cb_symbol_set used = 0;
  draw_map(p, st, d, dr, o, level, f->x + 4, y + 4, f->w - 8, h - 8, &used);
  legend(p, st, used, f->x, y + h + 6, f->w);
}

/* The cover's few lines: the hook's first sentence, centred; its height. */
static double cover_hook(cb_page *p, const cb_measure *m, const cb_dungeon *d, double x, double y, double w) {
  if (!d->hook[0]) return 0;
  cb_flow f = {m, 11, 11 * 1.4, w, INK, NULL, NULL};
  cb_span s[] = {{CB_FONT_ITALIC, d->hook[0], NULL, 0}};
  int n = cb_text_flow(p, &f, s, 1, x, y);
  return n > 0 ? n * f.leading + SUB_SIZE * 2 : 0;
}

cb_status cb_booklet_layout(const cb_dungeon *d, const cb_dungeon *players, const cb_measure *m,
                            const cb_sheet_options *o, cb_document *doc, cb_error *err) {
  double x = o->margin, w = o->page_w - 2 * o->margin, top = o->margin, fh = footer_height(m, d, o, w);
  if (fh < 0) return cb_error_oom(err);
  cb_frame f = {x, top, w, o->page_h - o->margin - fh - top};
  cb_symbols st = {
      m, 10.5, 1.0, 7.5, INK, PAPER, o->colour ? cb_palette_colour : NULL, cb_palette_room, o->graphs};
  cb_symbols key_marks = st;
  key_marks.badge = BODY_SIZE * 1.1;
  key_marks.line = 0.8;
  const cb_layout_hooks *hooks = hooks_of(o);
  cb_key_style ks = {m, BODY_SIZE, BODY_SIZE * 1.32, BODY_SIZE * 0.45, INK, &key_marks, hooks->key_note};
  ks.full = true;
  ks.extras = cb_key_extras_full(d);
  ks.extras_first = true; /* the hook, roster and wandering table before the key */
  int first = doc->npages;
  const char *title = d->title ? d->title : "Dungeon";
  cb_page *p;
#define PAGE(label)                                                                                          \
  do {                                                                                                       \
    if (!(p = new_page(doc, o, label))) return cb_error_oom(err);                                            \
  } while (0)
  if (o->sections & CB_SECTION_COVER) {
    PAGE(title);
    double size = fit_size(m, CB_FONT_BOLD, 26, title, w), y = top + f.h * 0.12;
    cb_page_text(p, CB_FONT_BOLD, size, x + (w - cb_text_width(m, CB_FONT_BOLD, size, title)) / 2, y, INK,
                 title);
    char sub[256];
    describe(d, o, sub, sizeof sub);
    double sw = cb_text_width(m, CB_FONT_ITALIC, SUB_SIZE, sub);
    cb_page_text(p, CB_FONT_ITALIC, SUB_SIZE, x + (w - fmin(sw, w)) / 2, y + SUB_SIZE * 2.2, GREY, sub);
    /* the situation in a few lines, and nothing a player must not see: no map */
    double mh = cover_hook(p, m, d, x + w * 0.08, y + SUB_SIZE * 5, w * 0.84), my = y + SUB_SIZE * 4;
    const char *made = "A crawlbook dungeon";
    cb_page_text(p, CB_FONT_ITALIC, SUB_SIZE, x + (w - cb_text_width(m, CB_FONT_ITALIC, SUB_SIZE, made)) / 2,
                 my + mh + SUB_SIZE * 2.5, GREY, made);
  }
  if (o->sections & CB_SECTION_MAPS) {
    int n = d->nlevels > 1 ? d->nlevels : 1;
    for (int i = 0; i < n; i++) {
      char heading[240];
      snprintf(heading, sizeof heading, n > 1 ? "Map \xc2\xb7 %s" : "Map", n > 1 ? d->levels[i].name : "");
      PAGE(i == 0 ? "Map" : NULL);
      map_page(p, &st, d, &hooks->map, o, n > 1 ? d->levels[i].id : 0, &f, heading, 0);
    }
  }
  if (o->sections & CB_SECTION_KEY) {
    int next = 0, word = 0;
    for (int k = 0; next >= 0 && next < d->nrooms + ks.extras; k++) {
      PAGE(k == 0 ? "Room key" : NULL);
      cb_page_text(p, CB_FONT_BOLD, 13, x, top + 13, INK, k == 0 ? "Room key" : "Room key (continued)");
      double ky = top + 13 * 1.6;
      next = cb_key_fill_balanced(p, &ks, d, next, &word, x, ky, w, f.h - (ky - top), w > 330 ? 2 : 1, 12);
    }
    if (next < 0) return cb_error_oom(err);
  }
  if ((o->sections & CB_SECTION_EXTRAS) && hooks->extra_pages) {
    int before = doc->npages;
    cb_status s2 = hooks->extra_pages(d, &st, &f, doc, err);
    if (s2 != CB_OK) return s2;
    if (doc->npages > before && !doc->pages[before]->label &&
        !(doc->pages[before]->label = cb_arena_strdup(doc->pages[before]->arena, "More")))
      doc->pages[before]->oom = true;
  }
  if ((o->sections & CB_SECTION_APPENDIX) && appendix_pages(d, m, o, &f, doc) < 0) return cb_error_oom(err);
  int handout_from = doc->npages, handout_to = doc->npages;
  if ((o->sections & CB_SECTION_PLAYER_MAP) && players) {
    /* the handout, page for page as --player-map lays it out */
    cb_sheet_options sheet_o = *o;
    sheet_o.player = sheet_o.in_booklet = true, sheet_o.appendix = false;
    cb_status s2 = sheet(players, m, &sheet_o, 0, NULL, NULL, doc, err);
    if (s2 != CB_OK) return s2;
    p = doc->pages[handout_from];
    if (!(p->label = cb_arena_strdup(p->arena, "Players' map"))) p->oom = true;
    handout_to = doc->npages;
  }
  if (doc->npages == first)
    return cb_error_set(err, CB_EINPUT,
                        "the template's sections give this %s dungeon no pages: name cover, maps "
                        "or key too",
                        d->generator);
  while (o->pad_to > 1 && (doc->npages - first) % o->pad_to) {
    PAGE(NULL);
    cb_page_text(p, CB_FONT_BOLD, 11, x, top + 11, INK, "Notes");
    cb_ink rule = cb_ink_stroke(GREY, 0.35);
    for (double y = top + 11 * 1.5 + 18; y < top + f.h; y += 18) {
      cb_page_move(p, x, y);
      cb_page_line(p, x + w, y);
      cb_page_ink(p, &rule);
    }
  }
#undef PAGE
  int pages = doc->npages - first;
  cb_sheet_options handout = *o;
  handout.player = true;
  /* the cover carries no footer; a handout's names no seed or command */
  for (int i = (o->sections & CB_SECTION_COVER) ? 1 : 0; i < pages; i++) {
    bool is_handout = first + i >= handout_from && first + i < handout_to;
    footer(doc->pages[first + i], m, d, is_handout ? &handout : o, i + 1, pages, true);
  }
  for (int i = first; i < doc->npages; i++)
    if (doc->pages[i]->oom) return cb_error_oom(err);
  return CB_OK;
}

cb_status cb_zine_layout(const cb_dungeon *d, const cb_measure *m, const cb_sheet_options *o,
                         cb_document *doc, cb_error *err) {
  /* every panel keeps 6 mm from the sheet's edge (many printers print no
   * closer), and a little more for a line that runs to its measure */
  const double pw = o->page_w / 4, ph = o->page_h / 2, margin = 6.3 * CB_PT_PER_MM, body = 7.6;
  cb_sheet_options po = *o;
  po.page_w = pw, po.page_h = ph, po.margin = margin;
  double x = margin, w = pw - 2 * margin, top = margin, h = ph - 2 * margin;
  cb_symbols st = {m, 8.5, 0.8, 7, INK, PAPER, o->colour ? cb_palette_colour : NULL, cb_palette_room};
  cb_symbols key_marks = st;
  key_marks.badge = body * 1.1;
  key_marks.line = 0.7;
  const cb_layout_hooks *hooks = hooks_of(o);
  cb_key_style ks = {m, body, body * 1.28, body * 0.4, INK, &key_marks, hooks->key_note};
  ks.extras = cb_key_extras(d); /* the hook, roster and wandering table before any Notes panel */
  int total = d->nrooms + ks.extras;
  const char *title = d->title ? d->title : "Dungeon";
  cb_document panels = {0};
  cb_status st2 = CB_OK;
  cb_symbol_set used = 0;
  for (int i = 0; i < 8; i++)
    if (!new_page(&panels, &po, i == 0 ? title : NULL)) {
      cb_document_free(&panels);
      return cb_error_oom(err);
    }
  cb_page **P = panels.pages;
  int level = d->nlevels > 1 ? d->levels[0].id : 0;
  /* 1: the cover */
  double size = fit_size(m, CB_FONT_BOLD, 15, title, w);
  cb_flow tf = {m, size, size * 1.15, w, INK, NULL, NULL};
  cb_span ts[] = {{CB_FONT_BOLD, title, NULL, 0}};
  int tl = cb_text_flow(P[0], &tf, ts, 1, x, top + size);
  char sub[256];
  describe(d, o, sub, sizeof sub);
  cb_flow sf = {m, 7, 8.5, w, GREY, NULL, NULL};
  cb_span ss[] = {{CB_FONT_ITALIC, sub, NULL, 0}};
  double y = top + size * (1 + 1.15 * (tl - 1)) + 10;
  int sl = cb_text_flow(P[0], &sf, ss, 1, x, y);
  y += sl * 8.5 + 4;
  draw_map(P[0], &st, d, &hooks->map, o, level, x, y, w, top + h - y - 12, &used);
  cb_page_text(P[0], CB_FONT_ITALIC, 7, x, top + h - 5, GREY,
               "A crawlbook zine"); /* its descenders inside too */
  /* 2: the map */
  cb_page_text(P[1], CB_FONT_BOLD, 10, x, top + 10, INK, "Map");
  cb_page_rect(P[1], x, top + 15, w, h - 15);
  cb_ink frame_ink = cb_ink_stroke(GREY, 0.4);
  cb_page_ink(P[1], &frame_ink);
  draw_levels(P[1], &st, d, &hooks->map, o, x, top + 15, w, h - 15, &used);
  /* 3-7: the key */
  int next = 0, word = 0;
  for (int i = 2; i < 7; i++) {
    double ky = top;
    if (next >= 0 && next >= total) {
      /* a panel the key left free: lines for notes */
      cb_page_text(P[i], CB_FONT_BOLD, 10, x, top + 10, INK, "Notes");
      cb_ink rule = cb_ink_stroke(GREY, 0.3);
      for (double ly = top + 30; ly < top + h; ly += 14) {
        cb_page_move(P[i], x, ly);
        cb_page_line(P[i], x + w, ly);
        cb_page_ink(P[i], &rule);
      }
      continue;
    }
    if (i == 2) {
      cb_page_text(P[i], CB_FONT_BOLD, 10, x, top + 10, INK, "Room key");
      ky += 15;
    }
    if (next >= 0)
      next = cb_key_fill(P[i], &ks, d, next, &word, x, ky, w, top + h - ky - body * 0.3, 1,
                         0); /* descenders inside */
  }
  if (next < 0)
    st2 = cb_error_oom(err);
  else if (next < total)
    st2 = cb_error_set(err, CB_EINPUT,
                       "the room key of %d rooms does not fit the zine's five key panels (%s%d "
                       "is the first left over): use fewer rooms or --template booklet",
                       d->nrooms, next < d->nrooms ? "room " : "the hook, roster and wandering table; entry ",
                       next < d->nrooms ? d->rooms[next].number : next - d->nrooms + 1);
  /* 8: the back cover: the legend, and how to make it again */
  if (st2 == CB_OK) {
    cb_page_text(P[7], CB_FONT_BOLD, 10, x, top + 10, INK, "Legend");
    double ly = top + 18;
    for (int s = 0; s < CB_SYM_COUNT; s++) {
      if (!(used & CB_SYMBOL_BIT(s)) || ly > top + h * 0.62) continue;
      const char *sample = s == CB_SYM_KEY ? "K1" : s == CB_SYM_STAIRS_AWAY ? "L2" : NULL;
      if (cb_symbol_is_badge((cb_symbol)s))
        cb_symbol_badge(P[7], &st, (cb_symbol)s, sample, x + 10, ly);
      else
        cb_symbol_passage(P[7], &st, (cb_symbol)s, x, ly, x + 22, ly);
      cb_page_text(P[7], CB_FONT_REGULAR, 7, x + 27, ly + 2.4, INK, cb_symbol_name((cb_symbol)s));
      ly += st.badge * 1.35;
    }
    char *cmd = command_line(d, o);
    if (!cmd) P[7]->oom = true;
    cb_span cs[] = {{CB_FONT_ITALIC, "To make it again: ", NULL, 0},
                    {CB_FONT_REGULAR, cmd ? cmd : "", NULL, 0}};
    cb_flow cf = footer_flow(m, cmd ? cmd : "", w);
    cf.size = fmin(cf.size, 7), cf.leading = cf.size * 1.25;
    int cl = cb_text_flow(NULL, &cf, cs, 2, 0, 0);
    cb_text_flow(P[7], &cf, cs, 2, x, top + h - (cl - 1) * cf.leading - cf.size * 0.45);
    free(cmd);
    char credit[128];
    snprintf(credit, sizeof credit, "crawlbook %s \xc2\xb7 %s \xc2\xb7 seed %" PRIu64, o->version,
             d->generator, d->seed);
    cb_page_text(P[7], CB_FONT_REGULAR, 7, x, top + h - cl * cf.leading - 2, GREY, credit);
    for (int i = 0; i < 8; i++)
      if (P[i]->oom) st2 = cb_error_oom(err);
  }
  if (st2 == CB_OK) st2 = cb_impose_zine8(&panels, o->page_w, o->page_h, doc, err);
  cb_document_free(&panels);
  return st2;
}
