#include "parts.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/text.h"

static const cb_rgb INK = CB_INK_BLACK, GREY = CB_QUIET_GREY;

void cb_sheet_command(const cb_dungeon *d, uint64_t last, char *buf, size_t cap) {
  /* every word quoted where it needs it: names and values may come from a JSON file */
  size_t n = (size_t)snprintf(buf, cap, "crawlbook --generator ");
  n = cb_shell_word(buf, cap, n, d->generator);
  if (last > d->seed)
    n += (size_t)snprintf(buf + n, n < cap ? cap - n : 0, " --seeds %" PRIu64 "..%" PRIu64, d->seed, last);
  else
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
double cb_part_fit_size(const cb_measure *m, cb_font font, double size, const char *text, double w) {
  for (int i = 0; i < 4; i++) {
    double tw = cb_text_width(m, font, size, text);
    if (!(tw > w) || w <= 0) break;
    size *= w / tw * 0.999;
  }
  return size;
}

/* The "To make it again" flow: footer-sized, smaller when one word of the
 * command (a long --title) would not fit on a line, since it cannot break. */
cb_flow cb_part_footer_flow(const cb_measure *m, const char *cmd, double w) {
  double size = CB_FOOT_SIZE;
  char small[1024];
  for (const char *s = cmd; *s;) {
    size_t n = strcspn(s, " ");
    char *word = n < sizeof small ? small : cb_malloc(n + 1); /* a word of any length is measured */
    if (n && word) {
      memcpy(word, s, n);
      word[n] = '\0';
      size = fmin(size, cb_part_fit_size(m, CB_FONT_REGULAR, CB_FOOT_SIZE, word, w));
    }
    if (word != small) free(word);
    s += n + (s[n] == ' ');
  }
  return (cb_flow){m, size, size * 1.25, w, GREY, NULL, NULL};
}

char *cb_sheet_command_new(const cb_dungeon *d, uint64_t last, const char *page_args) {
  /* never cut: a buffer that may have been filled is tried again twice the size */
  for (size_t cap = 1024;; cap *= 2) {
    char *cmd = cb_malloc(cap);
    if (!cmd) return NULL;
    cb_sheet_command(d, last, cmd, cap);
    size_t n = strlen(cmd);
    if (page_args && *page_args && n + 1 < cap) n += (size_t)snprintf(cmd + n, cap - n, " %s", page_args);
    if (n + 1 < cap) return cmd;
    free(cmd);
  }
}

/* The footer's command: the dungeon's and the page's options; NULL when out of memory. */
char *cb_part_command(const cb_dungeon *d, const cb_sheet_options *o) {
  return cb_sheet_command_new(d, d->seed, o->page_args);
}

/* The footer of the dungeon's page-th of pages. Numbers count within the
 * whole document (a batch's dungeon goes on from the pages before it); on
 * facing pages the number sits on the outer edge, left on even pages. */
void cb_part_footer(cb_page *p, const cb_measure *m, const cb_dungeon *d, const cb_sheet_options *o, int page,
                    int pages, bool facing) {
  if (o->count_only) return; /* it sits in the space kept for it */
  char line[1024], *cmd = cb_part_command(d, o);
  if (!cmd) {
    p->oom = true;
    return;
  }
  double x = o->margin, w = p->w - 2 * o->margin;
  int number = o->page_first > 0 ? o->page_first + page - 1 : page;
  snprintf(line, sizeof line, "page %d of %d", number, o->page_total > 0 ? o->page_total : pages);
  bool verso = facing && number % 2 == 0;
  double pw = cb_text_width(m, CB_FONT_REGULAR, CB_FOOT_SIZE, line);
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
  cb_flow f = cb_part_footer_flow(m, cmd, w);
  int lines = 0;
  if (!o->player && cb_text_flow(NULL, &f, spans, 2, 0, 0, &lines, NULL) != CB_OK) p->oom = true;
  /* the last line's descenders stay inside the margin too */
  double base = p->h - o->margin - (lines > 0 ? lines : 1) * f.leading - f.size * 0.45;
  cb_page_move(p, x, base - CB_FOOT_SIZE * 1.1);
  cb_page_line(p, x + w, base - CB_FOOT_SIZE * 1.1);
  cb_ink rule = cb_ink_stroke(GREY, 0.4);
  cb_page_ink(p, &rule);
  double hs = cb_part_fit_size(m, CB_FONT_REGULAR, CB_FOOT_SIZE, head, w - pw - CB_FOOT_SIZE);
  double hw = cb_text_width(m, CB_FONT_REGULAR, hs, head);
  cb_page_text(p, CB_FONT_REGULAR, hs, verso ? x + w - hw : x, base, GREY, head);
  cb_page_text(p, CB_FONT_REGULAR, CB_FOOT_SIZE, verso ? x : x + w - pw, base, GREY, line);
  if (!o->player) cb_text_flow(p, &f, spans, 2, x, base + f.leading, NULL, NULL);
  free(head);
  free(cmd);
}

cb_status cb_part_footer_height(const cb_measure *m, const cb_dungeon *d, const cb_sheet_options *o, double w,
                                double *h, cb_error *err) {
  char *cmd = cb_part_command(d, o);
  if (!cmd) return cb_error_oom(err);
  cb_span spans[] = {{CB_FONT_ITALIC, "To make it again: ", NULL, 0}, {CB_FONT_REGULAR, cmd, NULL, 0}};
  cb_flow f = cb_part_footer_flow(m, cmd, w);
  int lines = 0;
  cb_status st = o->player ? CB_OK : cb_text_flow(NULL, &f, spans, 2, 0, 0, &lines, err);
  free(cmd);
  if (st == CB_OK) *h = (lines + 1) * f.leading + CB_FOOT_SIZE * 1.6 + f.size * 0.45;
  return st;
}

/* The legend: only the symbols the map used, in a row that wraps. Returns its height. */
double cb_part_legend(cb_page *p, const cb_symbols *st, cb_symbol_set used, double x, double y, double w) {
  double cx = x, row = 0, rowh = st->badge * 1.5, sample = 26;
  cb_page_text(p, CB_FONT_BOLD, CB_LEGEND_SIZE, x, y + rowh * 0.5 + CB_LEGEND_SIZE * 0.34, INK, "Legend");
  cx += cb_text_width(st->m, CB_FONT_BOLD, CB_LEGEND_SIZE, "Legend") + 10;
  for (int s = 0; s < CB_SYM_COUNT; s++) {
    if (!(used & CB_SYMBOL_BIT(s))) continue;
    const char *name = cb_symbol_name((cb_symbol)s);
    int is_badge = cb_symbol_is_badge((cb_symbol)s);
    const char *sample_text = s == CB_SYM_KEY ? "K1" : s == CB_SYM_STAIRS_AWAY ? "L2" : NULL;
    double sw = is_badge ? cb_symbol_badge_width(st, (cb_symbol)s, sample_text) : sample;
    double item = sw + 4 + cb_text_width(st->m, CB_FONT_REGULAR, CB_LEGEND_SIZE, name) + 12;
    if (cx + item > x + w && cx > x + 60) {
      row++;
      cx = x + cb_text_width(st->m, CB_FONT_BOLD, CB_LEGEND_SIZE, "Legend") + 10;
    }
    double cy = y + row * rowh + rowh / 2;
    if (is_badge)
      cb_symbol_badge(p, st, (cb_symbol)s, sample_text, cx + sw / 2, cy);
    else
      cb_symbol_passage(p, st, (cb_symbol)s, cx, cy, cx + sw, cy);
    cb_page_text(p, CB_FONT_REGULAR, CB_LEGEND_SIZE, cx + sw + 4, cy + CB_LEGEND_SIZE * 0.34, INK, name);
    cx += item;
  }
  return (row + 1) * rowh;
}

cb_page *cb_part_new_page(cb_document *doc, const cb_sheet_options *o, const char *label) {
  cb_page *p = cb_page_new(o->page_w, o->page_h);
  if (!p || cb_document_add(doc, p)) {
    cb_page_free(p);
    return NULL;
  }
  if (label && !(p->label = cb_arena_strdup(p->arena, label))) p->oom = true;
  return p;
}

/* One page of the log from entry *i on, in two columns at most `column`
 * high; hs[] the entries' heights. */
static void appendix_page(cb_page *p, const cb_dungeon *d, const cb_flow *fl, const cb_frame *f,
                          const double *hs, double column, int *i, bool first) {
  const double gutter = 14;
  cb_page_text(p, CB_FONT_BOLD, 11, f->x, f->y + 11, INK,
               first ? "The procedure, step by step" : "The procedure (continued)");
  double y0 = f->y + 11 * 1.5 + fl->size, cy = 0;
  for (int col = 0, placed = 0; *i < d->nlog && col < 2;) {
    if (placed && cy + hs[*i] > column) {
      col++, cy = 0, placed = 0;
      continue;
    }
    cb_span line[] = {{CB_FONT_REGULAR, d->log[*i], NULL, 0}};
    cb_text_flow(p, fl, line, 1, f->x + col * (fl->width + gutter), y0 + cy, NULL, NULL);
    cy += hs[*i];
    placed = 1;
    (*i)++;
  }
}

/* The log's pages at columns at most h high: how many, and in *last how far
 * the last page's first column runs. */
static int log_pages(const double *hs, int n, double h, double *last) {
  int pages = 0;
  for (int i = 0; i < n; pages++) {
    *last = 0;
    for (int col = 0; i < n && col < 2; col++)
      for (double cy = 0; i < n && (cy == 0 || cy + hs[i] <= h); i++) {
        cy += hs[i];
        if (col == 0) *last = cy;
      }
  }
  return pages;
}

cb_status cb_part_third_full(cb_part_run run, void *ctx, double full, double *limit, cb_error *err) {
  int pages = 0;
  double last = 0;
  *limit = full;
  cb_status st = run(ctx, full, &pages, &last, err);
  for (double h = full - full * 0.02; st == CB_OK && pages > 1 && last < full / 3 && h > full / 2;
       h -= full * 0.02) {
    int n = 0;
    double l = 0;
    if ((st = run(ctx, h, &n, &l, err)) != CB_OK || n != pages) break;
    *limit = h, last = l;
  }
  return st;
}

/* The log's entries' heights, for log_run. */
typedef struct log_heights {
  const double *hs;
  int n;
} log_heights;

static cb_status log_run(void *ctx, double h, int *pages, double *last, cb_error *err) {
  (void)err;
  const log_heights *lh = ctx;
  *pages = log_pages(lh->hs, lh->n, h, last);
  return CB_OK;
}

cb_status cb_part_appendix(const cb_dungeon *d, const cb_measure *m, const cb_sheet_options *o,
                           const cb_frame *f, cb_document *doc, cb_error *err) {
  const double size = 8, gutter = 14;
  cb_flow fl = {m, size, size * 1.22, (f->w - gutter) / 2, INK, NULL, NULL};
  double *hs = d->nlog > 0 ? malloc((size_t)d->nlog * sizeof *hs) : NULL;
  if (d->nlog > 0 && !hs) return cb_error_oom(err);
  for (int i = 0; i < d->nlog; i++) {
    cb_span line[] = {{CB_FONT_REGULAR, d->log[i], NULL, 0}};
    int n = 0;
    cb_status st = cb_text_flow(NULL, &fl, line, 1, 0, 0, &n, err);
    if (st != CB_OK) {
      free(hs);
      return st;
    }
    hs[i] = n * fl.leading + 2;
  }
  double column = 0;
  cb_status st =
      cb_part_third_full(log_run, &(log_heights){hs, d->nlog}, f->h - (11 * 1.5 + size), &column, err);
  for (int i = 0, pages = 0; st == CB_OK && i < d->nlog; pages++) {
    cb_page *p = cb_part_new_page(doc, o, pages == 0 ? "Procedure" : NULL);
    if (!p) st = cb_error_oom(err);
    if (p) appendix_page(p, d, &fl, f, hs, column, &i, pages == 0);
  }
  free(hs);
  return st;
}

/* The procedure's hooks, a row of none when it draws only the generic sheet. */
const cb_layout_hooks *cb_part_hooks(const cb_sheet_options *o) {
  static const cb_layout_hooks none = {.extra_pages = NULL};
  return o->hooks ? o->hooks : &none;
}

const char *cb_part_describe(const cb_dungeon *d, const cb_sheet_options *o, char *buf, size_t cap) {
  const char *what = o->what ? o->what : "A dungeon";
  snprintf(buf, cap, "%s of %d room%s \xc2\xb7 seed %" PRIu64, what, d->nrooms, d->nrooms == 1 ? "" : "s",
           d->seed);
  return buf;
}
