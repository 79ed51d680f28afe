/* The leximorph tunnel sketch page: the tunnel network as a game master
 * draws it on graph paper, the sector grid with each sector's letter and
 * rolls, every junction and wall result as a mark, the rooms numbered as on
 * the map and in the key, a scale bar in feet and a legend. */
#ifndef CB_LAYOUT_SKETCH_H
#define CB_LAYOUT_SKETCH_H

#include "../model/dungeon.h"
#include "sheet.h"
#include "symbols.h"

/* Appends the sketch page to doc (a layout hook's extra_pages); nothing when
 * the dungeon has no sketch. The page goes after the document's last page
 * and takes its size. CB_EINTERNAL on OOM. */
cb_status cb_sketch_pages(const cb_dungeon *d, const cb_symbols *st, const cb_frame *frame, cb_document *doc,
                          cb_error *err);

#endif
