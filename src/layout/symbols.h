/* One symbol set for the map and its legend: the marks for room tags and the
 * ways passages are drawn, as vector paths and short labels. */
#ifndef CB_SYMBOLS_H
#define CB_SYMBOLS_H

#include "page.h"

typedef enum {
  CB_SYM_MAIN_START,
  CB_SYM_START,
  CB_SYM_GOAL,
  CB_SYM_ENCOUNTER,
  CB_SYM_TREASURE,
  CB_SYM_KEY,
  CB_SYM_PATH,
  CB_SYM_SECRET,
  CB_SYM_LOCKED,
  CB_SYM_SOFT_LOCKED,
  CB_SYM_TRAPPED,
  CB_SYM_ONE_WAY,
  CB_SYM_COUNT
} cb_symbol;

typedef struct cb_symbols {
  const cb_measure *m;
  double badge;     /* a tag mark's height, points */
  double line;      /* a passage's line width */
  double label;     /* label text size */
  cb_rgb ink, paper;
} cb_symbols;

/* What the legend calls each symbol. */
const char *cb_symbol_name(cb_symbol s);

/* Width of the tag mark for s with its text (e.g. "K1"). */
double cb_symbol_badge_width(const cb_symbols *st, cb_symbol s, const char *text);
/* Draws the tag mark for s centred at (cx, cy); text is the key id for
 * CB_SYM_KEY, NULL otherwise. */
void cb_symbol_badge(cb_page *p, const cb_symbols *st, cb_symbol s, const char *text, double cx, double cy);
/* Draws a passage from (x1, y1) to (x2, y2) the way `s` says; label is the
 * key id of a lock (or NULL). */
void cb_symbol_passage(cb_page *p, const cb_symbols *st, cb_symbol s, const char *label, double x1, double y1,
                       double x2, double y2);

#endif
