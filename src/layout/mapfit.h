/* The map's part of fitting a sheet: the frame it would like, its width at
 * a height, and how far it may shrink before its words run into each other
 * (each count a drawing, kept in the run's cb_sheet_memo). Private to layout. */
#ifndef CB_MAPFIT_H
#define CB_MAPFIT_H

#include "hooks.h"
#include "key.h"
#include "plan.h"

/* What the fits measure with; err gets what failed (only memory can). */
typedef struct cb_fitter {
  const cb_dungeon *d;
  const cb_symbols *st;
  const cb_map_drawing *dr;
  const cb_key_style *ks; /* the key at its first step */
  cb_error *err;
} cb_fitter;

/* The map frame the sheet would like w wide with `avail` left under the
 * title: the drawing's own shape (no empty bands), at most 72% of avail; a
 * drawing that fills any box gets what a map of its width usually takes. */
double cb_mapfit_want(const cb_dungeon *d, const cb_symbols *st, const cb_map_drawing *dr, double w,
                      double avail);
/* The frame's width for a map at most *h high: narrower than w when the
 * drawing, held to that height, no longer fills the width (no empty bands);
 * levels' panels also give back the height they do not need (*h lowered). */
double cb_mapfit_frame_w(const cb_dungeon *d, const cb_symbols *st, const cb_map_drawing *dr, double w,
                         double *h);
/* How often the words a reader finds rooms by (numbers, marks' letters) run
 * into each other, and the map says it is cramped, drawn in a frame h high (w
 * wide at most), into *out; each frame counted once a run (st->clashes). */
cb_status cb_mapfit_clashes(const cb_fitter *f, double w, double h, long *out);
/* How often the map's words run into each other on the biggest map the
 * sheet draws (full_w wide, at the size it wants with `room` left), into *base. */
cb_status cb_mapfit_base(const cb_fitter *f, double full_w, double room, long *base);
/* Whether the map h high in a frame w wide reads as well as that biggest
 * (its words run into each other no more often), into *reads. */
cb_status cb_mapfit_reads(const cb_fitter *f, double w, double h, double full_w, double room, bool *reads);
/* The least height the map, in a frame w wide, may shrink to from `want`,
 * into *least: a little under a third of the room, but never so small that
 * its words run into each other more than on the biggest map the sheet
 * draws (full_w wide, at the size it wants there; *base gets that count).
 * known > 0: only whether the least is under `known` (to half a point). */
cb_status cb_mapfit_least(const cb_fitter *f, double w, double full_w, double want, double room, double known,
                          double *least, long *base);
/* The biggest height, from h down to least, at which the map's words run
 * into each other no more than `base` times, into *out; 0 when none. */
cb_status cb_mapfit_clean(const cb_fitter *f, double w, double h, double least, long base, double *out);
/* The counts in m are of d from now on (an earlier layout's, of d made again). */
void cb_sheet_memo_take(cb_sheet_memo *m, const cb_dungeon *d);
/* The plan an earlier layout of d made, into *out: false when there is none
 * (m NULL, of another dungeon, or no plan kept). */
bool cb_sheet_memo_plan(const cb_sheet_memo *m, const cb_dungeon *d, cb_sheet_plan *out);
/* Keeps pl as d's plan, for a layout of d made again (m NULL: nothing). */
void cb_sheet_memo_keep_plan(cb_sheet_memo *m, const cb_dungeon *d, const cb_sheet_plan *pl);

#endif
