/* preconnect's map: rooms as the rectangles the procedure drew, on squared
 * paper, and corridors as drawn (legs and turns, stairs or ladders where
 * they run under or over, secret doors, dead ends), with the shared symbols;
 * and the room key's note of every door's roll. */
#ifndef CB_CORRIDORS_H
#define CB_CORRIDORS_H

#include "layout/hooks.h"
#include "layout/symbols.h"
#include "model/dungeon.h"

/* The map hook (layout/hooks.h): draws the dungeon in the box x, y, w, h;
 * falls back to the point-crawl map when the dungeon has no preconnect
 * procedure (a hand-made JSON). */
void cb_corridors_draw(cb_page *p, const cb_symbols *st, const cb_dungeon *d, int level, double x, double y,
                       double w, double h, cb_symbol_set *used);
/* The height (points) the plan takes drawn w points wide, north up. */
double cb_corridors_height(const cb_dungeon *d, const cb_symbols *st, int level, double w);

/* The key note: every door of room r with its d10s and what they read,
 * "Doors (d10): north 8 -> 9, new room 7 (crossings: 3 under); east 0
 * (distant: room 3) then 4 -> 2". */
void cb_corridors_key_note(const cb_dungeon *d, const cb_room *r, char *buf, size_t cap);

/* Its layout hooks, for its row in the registry. */
extern const cb_layout_hooks cb_preconnect_layout;

#endif
