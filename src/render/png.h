/* PNG through libpng with fast settings: cairo's own PNG writer spends most
 * of a page's time in its encoder. */
#ifndef CB_PNG_H
#define CB_PNG_H

#include "backend.h"

/* Writes a cairo RGB24 image (w x h, `stride` bytes a row) as an 8-bit RGB
 * PNG with its resolution recorded. */
cb_status cb_png_write(const unsigned char *data, int w, int h, int stride, double dpi, cb_sink sink,
                       cb_error *err);

#endif
