/* What a generator adds to the generic sheet: its own way of drawing the map
 * (cards on their grid, corridors as drawn) and pages after the key (the
 * tunnel sketch, a grid per level). Each procedure defines its own (src/proc/<name>/layout.c). */
#ifndef CB_HOOKS_H
#define CB_HOOKS_H

#include "model/dungeon.h"
#include "sheet.h"
#include "symbols.h"

typedef struct cb_layout_hooks {
  /* Optional: draws level `level` (0: all) in the box instead of the generic
   * point-crawl, setting the bits of the symbols it used. */
  void (*map)(cb_page *p, const cb_symbols *st, const cb_dungeon *d, int level, double x, double y, double w,
              double h, cb_symbol_set *used);
  /* Optional, with map: the height (points) its drawing takes w points wide
   * at its own shape, 0 when it fills any box; else the point-crawl's. */
  double (*height)(const cb_dungeon *d, const cb_symbols *st, int level, double w);
  /* Optional: what the one-page sheet draws instead of `map` (the leximorph
   * sketch, which carries the room numbers), its height as `height`, and its
   * legend for the symbols used below a map box map_w x map_h (returns its
   * height; with p NULL only measures). Not on the players' handout. */
  void (*sheet_map)(cb_page *p, const cb_symbols *st, const cb_dungeon *d, int level, double x, double y,
                    double w, double h, cb_symbol_set *used);
  double (*sheet_height)(const cb_dungeon *d, const cb_symbols *st, int level, double w);
  double (*sheet_legend)(cb_page *p, const cb_symbols *st, const cb_dungeon *d, cb_symbol_set used,
                         double map_w, double map_h, double x, double y, double w);
  /* Optional: appends pages after the room key (in the booklet, and on the
   * sheet only with the appendix); `frame` is the area inside
   * the margins and above the footer (which the sheet adds). */
  cb_status (*extra_pages)(const cb_dungeon *d, const cb_symbols *st, const cb_frame *frame, cb_document *doc,
                           cb_error *err);
  /* Optional: a sentence the room key adds to room r's entry (the rolls
   * behind its doors, say), written into buf; empty for none. */
  void (*key_note)(const cb_dungeon *d, const cb_room *r, char *buf, size_t cap);
} cb_layout_hooks;

#endif
