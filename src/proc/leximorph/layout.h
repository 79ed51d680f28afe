/* The leximorph tunnel sketch page: the tunnel network as a game master
 * draws it on graph paper, the sector grid with each sector's letter and
 * rolls, every junction and wall result as a mark, the rooms numbered as on
 * the map and in the key, a scale bar in feet and a legend. */
#ifndef CB_LAYOUT_SKETCH_H
#define CB_LAYOUT_SKETCH_H

#include "layout/hooks.h"
#include "layout/sheet.h"
#include "layout/symbols.h"
#include "model/dungeon.h"

/* Appends the sketch page to doc (a layout hook's extra_pages); nothing when
 * the dungeon has no sketch. The page goes after the document's last page
 * and takes its size. CB_EINTERNAL on OOM. */
cb_status cb_sketch_pages(const cb_dungeon *d, const cb_symbols *st, const cb_frame *frame, cb_document *doc,
                          cb_error *err);

/* The sketch as the one-page sheet's map (it carries the room numbers): the
 * height it takes w points wide, drawing it fitted into a box (a layout hook's
 * map), and its legend for the symbols used, below a map box of map_w x map_h
 * (its marks' sizes follow the map's scale); the legend's height, and with p
 * NULL only that. */
double cb_sketch_height(const cb_dungeon *d, const cb_symbols *st, int level, double w);
void cb_sketch_map(cb_page *p, const cb_symbols *st, const cb_dungeon *d, int level, double x, double y,
                   double w, double h, cb_symbol_set *used);
double cb_sketch_legend(cb_page *p, const cb_symbols *st, const cb_dungeon *d, cb_symbol_set used,
                        double map_w, double map_h, double x, double y, double w);

/* Its layout hooks, for its row in the registry. */
extern const cb_layout_hooks cb_leximorph_layout;

#endif
