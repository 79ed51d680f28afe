/* The players' handout: what the party may see of a dungeon. */
#ifndef CB_PLAYER_H
#define CB_PLAYER_H

#include "dungeon.h"

/* A new dungeon (the caller frees it) with the rooms the party can find from
 * the ways in without a secret (same ids, positions and levels), without secret or concealed passages, traps,
 * keys, the key ids of locks, room contents, and every tag but entrance, start, main start and way to the
 * surface. Locked doors stay locked, without their key's name (so the view is for drawing only: it fails
 * cb_check_structure). The view shares d's procedure artefacts: free it before d. NULL on OOM. */
cb_dungeon *cb_player_view(const cb_dungeon *d);

#endif
