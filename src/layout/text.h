/* Wrapping text made of spans (runs in one font) into lines. */
#ifndef CB_TEXT_H
#define CB_TEXT_H

#include "page.h"

typedef struct cb_span {
  cb_font font;
  const char *text;
} cb_span;

typedef struct cb_flow {
  const cb_measure *m;
  double size;    /* points */
  double leading; /* baseline to baseline */
  double width;   /* line width */
  cb_rgb color;
} cb_flow;

/* Lays the spans out in lines no wider than f->width (a word longer than a
 * line gets a line of its own) and, when p is not NULL, draws them with the
 * first baseline at (x, y). Returns the number of lines, -1 on OOM (which
 * also sets p->oom when p is given). */
int cb_text_flow(cb_page *p, const cb_flow *f, const cb_span *spans, int nspans, double x, double y);

/* Width of one line of text. */
double cb_text_width(const cb_measure *m, cb_font font, double size, const char *utf8);

#endif
