/* A measurer for layout tests: every code point is a fixed fraction of the
 * size wide (bold wider), so widths are known without fonts. */
#ifndef CB_FAKE_MEASURE_H
#define CB_FAKE_MEASURE_H

#include "page/page.h"

static double fake_width(void *ctx, cb_font font, double size, const char *utf8) {
  (void)ctx;
  double per = font == CB_FONT_BOLD || font == CB_FONT_BOLD_ITALIC ? 0.62 : 0.5;
  int n = 0;
  for (const unsigned char *s = (const unsigned char *)utf8; *s; s++)
    n += (*s & 0xC0) != 0x80;
  return n * per * size;
}

static const cb_measure fake_measure = {NULL, fake_width};

#endif
