/* Checks of the model's promises: the structure model.md requires, and the
 * walk a party makes from a start, picking up keys and opening locks. */
#ifndef CB_CHECK_H
#define CB_CHECK_H

#include <stdbool.h>

#include "base/error.h"
#include "dungeon.h"

/* Room adjacency as compressed rows over room indices (not ids). Passages to
 * 0 (ways out) are left out; a one-way passage appears only at its `from`. */
typedef struct cb_graph {
  int n;
  int *start;   /* n + 1 offsets into room and passage */
  int *room;    /* neighbour room index */
  int *passage; /* index into d->passages */
} cb_graph;

/* Builds the graph (malloc-owned; free with cb_graph_free); 0 or -1 on OOM. */
int cb_graph_build(const cb_dungeon *d, cb_graph *g);
void cb_graph_free(cb_graph *g);

/* Structure: ids unique and ascending, levels known, passages between known
 * rooms, a lock exactly on locked passages, every lock's key in exactly one
 * room, key ids unique. CB_EINPUT with a message naming the element. */
cb_status cb_check_structure(const cb_dungeon *d, cb_error *err);

/* The party's walk from room index `start`: passages are open unless locked
 * and their key has not been picked up yet; secret passages count as found.
 * Fills reached[n] (caller-allocated, n = d->nrooms). Returns how many locked
 * passages stay shut because their key is never reached, -1 on OOM. */
int cb_check_walk(const cb_dungeon *d, const cb_graph *g, int start, bool *reached);

/* The same walk with the passages marked in blocked[d->npassages] (or
 * none, NULL) shut whatever key the party holds. */
int cb_check_walk_blocked(const cb_dungeon *d, const cb_graph *g, int start, const bool *blocked,
                          bool *reached);

/* What makes a well-formed dungeon unplayable, each said in a sentence to
 * note(ctx, msg): a lock that never opens (the walk from the start never
 * reaches its key: it lies behind it), and a key's object (a treasure "K1:
 * ..." or naming a lock's key) of a key no room holds. Returns how many, -1
 * on OOM. */
typedef void (*cb_check_note)(void *ctx, const char *msg);
int cb_check_play(const cb_dungeon *d, cb_check_note note, void *ctx);

/* Index of the room tagged main-start (or entrance, or start), -1 if none. */
int cb_check_start_room(const cb_dungeon *d);

#endif
