/* What a procedure adds to the generic sheet: drawings of its own (cards on
 * their grid, corridors as drawn, a sketch with its own legend) and pages
 * after the key (the tunnel sketch, a grid per level). Each procedure defines
 * its own (src/proc/<name>/layout.c); layout never asks which procedure it
 * is, only what its hooks offer. */
#ifndef CB_HOOKS_H
#define CB_HOOKS_H

#include "model/dungeon.h"
#include "sheet.h"
#include "symbols.h"

/* A drawing of the map that a procedure offers instead of the generic point-crawl. */
typedef struct cb_map_drawing {
  /* Draws level `level` (0: all) in the box, setting the bits of the symbols it used. */
  void (*draw)(cb_page *p, const cb_symbols *st, const cb_dungeon *d, int level, double x, double y, double w,
               double h, cb_symbol_set *used);
  /* Optional: the height (points) the drawing takes w points wide at its own
   * shape, 0 when it fills any box (NULL: it fills any box). */
  double (*height)(const cb_dungeon *d, const cb_symbols *st, int level, double w);
  /* Optional: the drawing's own legend for the symbols used, below a map box
   * map_w x map_h; returns its height (with p NULL only measures: a box of
   * its own size, whatever the symbols). The sheet then keeps that box under
   * the map, and may begin the key beside a small map. NULL: the generic
   * legend, a wrapping row of the symbols used. */
  double (*legend)(cb_page *p, const cb_symbols *st, const cb_dungeon *d, cb_symbol_set used, double map_w,
                   double map_h, double x, double y, double w);
} cb_map_drawing;

typedef struct cb_layout_hooks {
  /* Optional (draw NULL: the generic point-crawl): the map everywhere. */
  cb_map_drawing map;
  /* Optional (draw NULL: map): the game master's one-page sheet draws this
   * instead (a drawing that carries the room numbers); not the players' handout. */
  cb_map_drawing sheet;
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
