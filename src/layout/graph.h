/* Graph layout for generators without geometry of their own (those whose
 * rooms are only "who joins whom"): positions for the
 * rooms of one level from the passages alone, so that rooms keep apart,
 * lines cross as little as the search finds, and no line runs through a
 * room. Deterministic: the only randomness is a stream seeded from the
 * dungeon's seed and the level, separate from the dungeon's dice.
 *
 * Our own force-directed code (Fruchterman-Reingold from several starts, the
 * start with the fewest crossings kept, then swaps of rooms that remove
 * crossings, then a pass that pushes rooms off each other and off lines).
 * Cost: O(starts * iterations * n^2) for n rooms on the level; a level of
 * 10 rooms takes well under a millisecond. It belongs to the layout stage:
 * generators never call it. */
#ifndef CB_GRAPH_LAYOUT_H
#define CB_GRAPH_LAYOUT_H

#include "base/error.h"
#include "model/dungeon.h"

typedef struct cb_graph_pos {
  int room;    /* room id */
  double x, y; /* feet; neighbours end up about CB_GRAPH_EDGE_FT apart */
} cb_graph_pos;

#define CB_GRAPH_EDGE_FT 30.0

/* The last few levels laid out, so that a sheet's trial drawings of a map at
 * several sizes do not search again (the search, not the box, is what
 * costs). Not shared between threads; free it with cb_graph_cache_free.
 * NULL when out of memory (cb_graph_layout then keeps nothing). */
typedef struct cb_graph_cache cb_graph_cache;
cb_graph_cache *cb_graph_cache_new(void);
void cb_graph_cache_free(cb_graph_cache *c);

/* Lays out the rooms of level `level` (0: every room) for a box `aspect`
 * times as wide as it is high (0: any shape). *out gets one entry per room
 * of the level, in room order (malloc-owned: the caller frees it), *count
 * their count; CB_EINTERNAL (err set, may be NULL; *out NULL, *count 0) when
 * out of memory. Passages to other levels and ways out are ignored. With a
 * cache (or NULL), a level laid out before is only fitted to the box: the
 * same places either way. */
cb_status cb_graph_layout(cb_graph_cache *cache, const cb_dungeon *d, int level, double aspect,
                          cb_graph_pos **out, int *count, cb_error *err);

/* *count: how many pairs of passages on the level cross at the given
 * positions (pos as cb_graph_layout returns; passages sharing a room never
 * count). CB_EINTERNAL (err set, may be NULL) when out of memory or when n is
 * not the level's number of rooms. */
cb_status cb_graph_crossings(const cb_dungeon *d, int level, const cb_graph_pos *pos, int n, int *count,
                             cb_error *err);

#endif
