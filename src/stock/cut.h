/* Small cuts for the locks (stock/locks.c): the fewest passages whose
 * shutting keeps a party that starts in one room from reaching another, by
 * unit max-flow over the passages (one-way passages honoured). A cut costs
 * at most max + 1 searches of the map, so a huge dungeon stays cheap. */
#ifndef CB_STOCK_CUT_H
#define CB_STOCK_CUT_H

#include "model/bfs.h"
#include "model/dungeon.h"

enum { CB_CUT_UNCUTTABLE = 1 << 20 };

typedef struct cb_cutter {
  const cb_dungeon *d;
  int n, np;
  int *start, *adj; /* every passage at both its ends (CSR of passage indices) */
  int *from, *to;   /* room indices per passage, -1 when not a room-to-room way */
  int *cap, *flow;  /* per passage; flow is from -> to */
  int *via;
  cb_bfs walk;
  unsigned char *side; /* 1: reached from s in the residual, 2: reaches t */
} cb_cutter;

/* Builds the cutter over d's passages (capacity 1 each; the caller marks
 * others shut with cap 0 or uncuttable); 0, or -1 on OOM. */
int cb_cutter_init(cb_cutter *c, const cb_dungeon *d);
void cb_cutter_free(cb_cutter *c);

/* A cut of at most max passages between the rooms src[0..nsrc) (the
 * entrance and rooms near it, which stay on the near side) and room t: the
 * cut nearest the sources into near_s and the one nearest t into near_t
 * (each up to max passage indices), with how many of the rooms the party
 * reaches (reached[i] >= 0: cb_cutter_order's dist) lie beyond each. Returns
 * the cut's size; 0 when t is not reached anyway or no cut of max passages
 * fits. */
int cb_cutter_cut(cb_cutter *c, const int *src, int nsrc, int t, const int *reached, int max, int *near_s,
                  int *far_s, int *near_t, int *far_t);

/* Rooms reached from s through passages not shut, in order of distance
 * (breadth first): fills order (n) and dist (n, -1 unreached); returns how
 * many. */
int cb_cutter_order(cb_cutter *c, int s, int *order, int *dist);

#endif
