/* Imposition: finished pages placed on the sheets that are printed, so that
 * the printed stack folds into the booklet or the zine. */
#ifndef CB_IMPOSE_H
#define CB_IMPOSE_H

#include "page/page.h"

/* Saddle stitch: the pages of `in` (padded with blank pages to a multiple of
 * four) two up on sheets twice as wide, front and back of each sheet in
 * folding order (sheet 1 front: last page | page 1; back: page 2 | last - 1).
 * Appends the sheets to out (which owns them). CB_EINTERNAL on OOM. */
cb_status cb_impose_saddle(const cb_document *in, cb_document *out, cb_error *err);

/* The one-slit mini zine: eight panel pages on one sheet sheet_w x sheet_h,
 * the top row upside down (panels 5 4 3 2), the bottom row 6 7 8 1, with fold
 * lines and the cut along the middle drawn faint between the panels. */
cb_status cb_impose_zine8(const cb_document *panels, double sheet_w, double sheet_h, cb_document *out,
                          cb_error *err);

#endif
