/* battleships' layout hooks (hooks.c): the point-crawl map placed by the
 * graph layout, and the grid pages after the room key. */
#ifndef CB_LAYOUT_BATTLESHIPS_H
#define CB_LAYOUT_BATTLESHIPS_H

#include "layout/hooks.h"

/* Draws level `level` (0: all) with the rooms where cb_graph_layout puts
 * them (the dungeon's own x/y are only a nominal ring per level). */
void cb_battleships_map(cb_page *p, const cb_symbols *st, const cb_dungeon *d, int level, double x, double y,
                        double w, double h, cb_symbol_set *used);

/* Appends pages with each level's grid as the seed draws it, a legend of
 * its marks and the stairs in words. */
cb_status cb_battleships_pages(const cb_dungeon *d, const cb_symbols *st, const cb_frame *frame,
                               cb_document *doc, cb_error *err);

/* Its layout hooks, for its row in the registry. */
extern const cb_layout_hooks cb_battleships_layout;

#endif
