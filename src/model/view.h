/* The players' handout: what the party may see of a dungeon. */
#ifndef CB_PLAYER_H
#define CB_PLAYER_H

#include "dungeon.h"

/* A new dungeon (the caller frees it) with the rooms the party can find from
 * the ways in without a secret (same ids, positions and levels; numbered 1..n
 * in id order, so that no gap betrays a hidden room), without secret or
 * concealed passages, traps, locks, keys, room contents, and every tag but
 * entrance, start, main start and a way to the surface none of whose room's
 * ways out is secret. Locked doors are plain doors (so the view is for
 * drawing only). The view shares d's procedure artefacts: free it before d.
 * NULL on OOM. */
cb_dungeon *cb_player_view(const cb_dungeon *d);

#endif
