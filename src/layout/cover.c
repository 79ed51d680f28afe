#include "cover.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "page/flow.h"
#include "symbols.h"

static const cb_rgb INK = CB_INK_BLACK, GREY = CB_QUIET_GREY;
static const double TITLE = 26, ABOUT = 11, LINE = 10, LEADING = 14.5, FOOT = 8, HEAD = 130;

/* an entry: its line, and its hook's below it */
static const double ENTRY = LEADING + LINE * 1.3;

static double foot_h(void) { return FOOT * 1.25 * 3 + FOOT; }

static int lines_on(int page, const cb_sheet_options *o) {
  double h = o->page_h - 2 * o->margin - foot_h() - (page == 0 ? HEAD : LINE * 3);
  int n = (int)(h / ENTRY);
  return n > 1 ? n : 1;
}

/* A text cut, with an ellipsis, to width w. */
static void shorten(const cb_measure *m, cb_font font, double size, char *text, double w) {
  size_t len = strlen(text);
  while (len > 4 && cb_text_width(m, font, size, text) > w) {
    len--;
    while (len > 0 && (text[len] & 0xC0) == 0x80)
      len--;
    memcpy(text + len, "\xe2\x80\xa6", 4);
  }
}

int cb_cover_pages(int n, const cb_sheet_options *o) {
  int pages = 1;
  for (int left = n - lines_on(0, o); left > 0; left -= lines_on(pages++, o)) {
  }
  return pages;
}

cb_status cb_cover_layout(const cb_toc_entry *e, int n, const char *title, const char *about,
                          const char *command, const cb_measure *m, const cb_sheet_options *o,
                          cb_document *doc, cb_error *err) {
  int pages = cb_cover_pages(n, o), k = 0;
  double x = o->margin, w = o->page_w - 2 * o->margin;
  for (int pg = 0; pg < pages; pg++) {
    cb_page *p = cb_page_new(o->page_w, o->page_h);
    if (!p || cb_document_add(doc, p)) {
      cb_page_free(p);
      return cb_error_oom(err);
    }
    double y = o->margin;
    if (pg == 0) {
      p->label = cb_arena_strdup(p->arena, "Contents");
      if (!p->label) p->oom = true;
      y += TITLE;
      cb_page_text(p, CB_FONT_BOLD, TITLE, x, y, INK, title);
      y += ABOUT * 2;
      cb_page_text(p, CB_FONT_ITALIC, ABOUT, x, y, GREY, about);
      y += HEAD - TITLE - ABOUT * 2 - LINE * 2;
      cb_page_text(p, CB_FONT_BOLD, LINE + 2, x, y, INK, "Contents");
      y += LEADING * 1.2;
    } else {
      y += LINE * 1.5;
      cb_page_text(p, CB_FONT_BOLD, LINE + 2, x, y, INK, "Contents (continued)");
      y += LEADING * 1.4;
    }
    for (int i = 0; i < lines_on(pg, o) && k < n; i++, k++, y += ENTRY) {
      char num[16], right[160], left[300];
      snprintf(num, sizeof num, "%d", k + 1);
      snprintf(left, sizeof left, "%s", e[k].title ? e[k].title : "Dungeon");
      snprintf(right, sizeof right, "%s%sseed %" PRIu64 " \xc2\xb7 %d rooms \xc2\xb7 page %d",
               e[k].theme ? e[k].theme : "", e[k].theme ? " \xc2\xb7 " : "", e[k].seed, e[k].rooms,
               e[k].page);
      double nw = cb_text_width(m, CB_FONT_BOLD, LINE, "0000") + 4,
             rw = cb_text_width(m, CB_FONT_REGULAR, LINE - 1, right);
      cb_page_text(p, CB_FONT_BOLD, LINE, x, y, INK, num);
      /* shorten a title that would run into its page number */
      shorten(m, CB_FONT_REGULAR, LINE, left, w - nw - rw - 16);
      if (e[k].hook) {
        char hook[600];
        snprintf(hook, sizeof hook, "%s", e[k].hook);
        shorten(m, CB_FONT_ITALIC, LINE - 1, hook, w - nw);
        cb_page_text(p, CB_FONT_ITALIC, LINE - 1, x + nw, y + LINE * 1.3, GREY, hook);
      }
      double lw = cb_text_width(m, CB_FONT_REGULAR, LINE, left);
      cb_page_text(p, CB_FONT_REGULAR, LINE, x + nw, y, INK, left);
      cb_page_text(p, CB_FONT_REGULAR, LINE - 1, x + w - rw, y, GREY, right);
      /* dot leaders */
      cb_page_move(p, x + nw + lw + 6, y - 1);
      cb_page_line(p, x + w - rw - 6, y - 1);
      cb_ink dots = cb_ink_stroke(GREY, 0.6);
      dots.dash[0] = 0.01, dots.dash[1] = 3, dots.ndash = 2;
      cb_page_ink(p, &dots);
    }
    /* footer: the batch's page and how to make it again */
    char line[64];
    snprintf(line, sizeof line, "contents, page %d of %d", pg + 1, o->page_total > 0 ? o->page_total : pages);
    double base = o->page_h - o->margin - FOOT * 1.25 * 2 - FOOT * 0.45;
    cb_page_move(p, x, base - FOOT * 1.1);
    cb_page_line(p, x + w, base - FOOT * 1.1);
    cb_ink rule = cb_ink_stroke(GREY, 0.4);
    cb_page_ink(p, &rule);
    cb_page_text(p, CB_FONT_REGULAR, FOOT, x, base, GREY, title);
    cb_page_text(p, CB_FONT_REGULAR, FOOT, x + w - cb_text_width(m, CB_FONT_REGULAR, FOOT, line), base, GREY,
                 line);
    cb_span spans[] = {{CB_FONT_ITALIC, "To make it again: ", NULL, 0}, {CB_FONT_REGULAR, command, NULL, 0}};
    cb_flow f = {m, FOOT, FOOT * 1.25, w, GREY, NULL, NULL};
    /* a long command gets smaller type, never cut, in the two lines kept for it */
    for (int i = 0, lines = 0; i < 8; i++) {
      cb_status st = cb_text_flow(NULL, &f, spans, 2, 0, 0, &lines, err);
      if (st != CB_OK) return st;
      if (lines <= 2) break;
      f.size *= 0.85, f.leading = f.size * 1.25;
    }
    cb_text_flow(p, &f, spans, 2, x, base + f.leading, NULL, NULL);
    if (p->oom) return cb_error_oom(err);
  }
  return CB_OK;
}
