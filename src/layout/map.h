/* The point-crawl map: rooms as numbered circles at their positions, passages
 * as lines marked by kind, tag marks beside each room. */
#ifndef CB_MAP_H
#define CB_MAP_H

#include "../model/dungeon.h"
#include "symbols.h"

/* Draws the map of level `level` (0: all) inside the box x, y, w, h (points)
 * and sets bit (1 << symbol) in *used for every symbol it drew. */
void cb_map_draw(cb_page *p, const cb_symbols *st, const cb_dungeon *d, int level, double x, double y, double w,
                 double h, cb_symbol_set *used);

/* The symbol a passage is drawn with (the strongest of its flags). */
cb_symbol cb_map_passage_symbol(const cb_passage *ps);

#endif
