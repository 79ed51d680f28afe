/* A dungeon's title drawn from its seed, shared by the generators. */
#ifndef CB_TITLE_H
#define CB_TITLE_H

#include "dungeon.h"

/* "The <adjective> <noun> of <owner>": its own use of the seed, so that it
 * never changes the dungeon. Returns an arena string (NULL on OOM). */
const char *cb_gen_title(cb_dungeon *d, const char *noun);

#endif
