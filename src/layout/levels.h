/* The map box: a level's drawing (the procedure's own where it offers one),
 * and several levels sharing the box in panels. Private to layout. */
#ifndef CB_LEVELS_H
#define CB_LEVELS_H

#include "hooks.h"

/* Several levels share the map box in panels, a caption above each: cols
 * columns of panels whose drawings are pw wide, taking w x h. cols 0: a
 * level's drawing fills any box (it has no shape of its own). */
typedef struct cb_levels_plan {
  int cols;
  double pw, w, h;
} cb_levels_plan;

/* Level `level`'s map (0: all) in the box: dr's drawing, the generic
 * point-crawl when dr->draw is NULL. A map only fills its box, so pages made
 * to be counted (o->count_only) skip it. */
void cb_level_map(cb_page *p, const cb_symbols *st, const cb_dungeon *d, const cb_map_drawing *dr,
                  const cb_sheet_options *o, int level, double x, double y, double w, double h,
                  cb_symbol_set *used);
/* The arrangement (stacked, side by side or a grid) that draws the levels
 * biggest in a box w x h, each panel shaped like its map (no empty bands). */
cb_levels_plan cb_levels_fit(const cb_dungeon *d, const cb_symbols *st, const cb_map_drawing *dr, double w,
                             double h);
/* Every level in the map box x, y, w, h, in panels when there are several. */
void cb_levels_draw(cb_page *p, const cb_symbols *st, const cb_dungeon *d, const cb_map_drawing *dr,
                    const cb_sheet_options *o, double x, double y, double w, double h, cb_symbol_set *used);

#endif
