/* The cards generator's map: playing cards on their grid (a layout hook). */
#ifndef CB_CARDS_MAP_H
#define CB_CARDS_MAP_H

#include "layout/hooks.h"
#include "layout/symbols.h"
#include "model/dungeon.h"

/* Draws level `level` (0: all) of a cards dungeon in the box; falls back to
 * the point-crawl map when the dungeon has no cards procedure. */
void cb_cards_map(cb_page *p, const cb_symbols *st, const cb_dungeon *d, int level, double x, double y,
                  double w, double h, cb_symbol_set *used);
/* The height (points) the grid of cards takes drawn w points wide. */
double cb_cards_map_height(const cb_dungeon *d, const cb_symbols *st, int level, double w);

/* A suit (S H D C; anything else: a joker's star) as a vector shape s
 * points high centred at (cx, cy): black suits filled, red ones outlined. */
void cb_cards_suit(cb_page *p, const cb_symbols *st, char suit, double cx, double cy, double s);

/* Its layout hooks, for its row in the registry. */
extern const cb_layout_hooks cb_cards_layout;

#endif
