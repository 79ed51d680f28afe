/* Wrapping text made of spans (runs in one font) into lines. */
#ifndef CB_TEXT_H
#define CB_TEXT_H

#include "page.h"

typedef struct cb_span {
  cb_font font;
  const char *text;
  /* Non-NULL: not text but an inline object (a symbol) object_w wide, which
   * the flow's draw function puts on the line; text is then ignored. */
  const void *object;
  double object_w;
} cb_span;

typedef struct cb_flow {
  const cb_measure *m;
  double size;    /* points */
  double leading; /* baseline to baseline */
  double width;   /* line width */
  cb_rgb color;
  /* Draws an inline object with its left end at x on the baseline y. */
  void (*draw)(void *ctx, cb_page *p, const void *object, double x, double y);
  void *ctx;
  /* Optional, so that one text can run on elsewhere (at another width, too):
   * the flow starts at word first_word (words and inline objects counted
   * from 0), only its first `limit` lines are drawn (0: all), and *stop_word
   * gets the word the next line would start with (the word count when none). */
  int first_word, limit;
  int *stop_word;
} cb_flow;

/* Lays the spans out in lines no wider than f->width (a word longer than a
 * line is broken into pieces that fit, after a hyphen where it can be, else
 * between two characters) and, when p is not NULL, draws them (the
 * first f->limit of them) with the first baseline at (x, y); *lines (NULL:
 * not wanted) gets the number of lines from f->first_word on. Out of memory
 * is CB_EINTERNAL with its message in err (NULL when drawing: the page is
 * marked, p->oom, as every drawing on it is), *lines untouched. */
cb_status cb_text_flow(cb_page *p, const cb_flow *f, const cb_span *spans, int nspans, double x, double y,
                       int *lines, cb_error *err);

/* Width of one line of text. */
double cb_text_width(const cb_measure *m, cb_font font, double size, const char *utf8);

#endif
