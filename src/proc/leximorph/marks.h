/* leximorph's own marks on its tunnel sketch, numbered after the shared
 * symbols (layout/symbols.h): doors, secret doors and stairs use those. */
#ifndef CB_PROC_LEXIMORPH_MARKS_H
#define CB_PROC_LEXIMORPH_MARKS_H

#include <stdbool.h>

#include "layout/symbols.h"

/* numbered after the shared symbols, of their type */
#define CB_SYM_SK_JUNCTION ((cb_symbol)(CB_SYM_COUNT + 0))
#define CB_SYM_SK_TRAP ((cb_symbol)(CB_SYM_COUNT + 1))
#define CB_SYM_SK_TRAP_OFF ((cb_symbol)(CB_SYM_COUNT + 2))
#define CB_SYM_SK_OBSTACLE ((cb_symbol)(CB_SYM_COUNT + 3))
#define CB_SYM_SK_ROOM ((cb_symbol)(CB_SYM_COUNT + 4))
#define CB_SYM_SK_BLANK ((cb_symbol)(CB_SYM_COUNT + 5))
#define CB_SYM_SK_BRANCH ((cb_symbol)(CB_SYM_COUNT + 6))
#define CB_SYM_SK_DIAGONALS ((cb_symbol)(CB_SYM_COUNT + 7))
#define CB_SYM_SK_BLOCKED ((cb_symbol)(CB_SYM_COUNT + 8))
#define CB_SKETCH_MARK_END ((int)CB_SYM_COUNT + 9)
_Static_assert(CB_SKETCH_MARK_END <= 64, "a cb_symbol_set holds every mark");

/* True for its own marks (CB_SYM_SK_*). */
bool cb_sketch_is_mark(cb_symbol s);
/* A mark's name in the legend: its own, or the shared symbol's. */
const char *cb_sketch_mark_name(cb_symbol s);

/* Draws sketch mark s at (x, y) on a tunnel's centre line; (ux, uy) is the
 * tunnel's direction there, (nx, ny) the unit normal towards the wall a wall
 * mark is on, tw the tunnel's width. For CB_SYM_SK_ROOM, text is the room's
 * number and tw the room's side. */
void cb_sketch_mark(cb_page *p, const cb_symbols *st, cb_symbol s, const char *text, double x, double y,
                    double ux, double uy, double nx, double ny, double tw);

#endif
