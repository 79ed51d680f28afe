/* The dungeon as a Graphviz graph (DOT), for other tools and for comparing
 * with Graphviz's own layout: rooms are nodes, passages edges. */
#ifndef CB_DOT_H
#define CB_DOT_H

#include "base/sink.h"
#include "model/dungeon.h"

/* Writes an undirected DOT graph: one node per room (its number, level and
 * position in feet as pos), one edge per passage with its kind and flags.
 * The sink's status when a write fails. */
cb_status cb_dot_write(const cb_dungeon *d, cb_sink sink, cb_error *err);

#endif
