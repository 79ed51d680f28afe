/* Stocking: what is in each room (spec/stocking.md). The stage after the
 * generator and before the checks: it reads the model and a theme and writes
 * contents, passage notes, the hook, the wandering-monster table, the goal
 * where the procedure made none, and lock-and-key pairs. It never changes
 * rooms, passages or the procedure's record beyond that (new locks flag
 * passages locked, the goal and key tags mark rooms), and it draws from its
 * own stream of the seed so that a theme never changes the map. */
#ifndef CB_STOCK_H
#define CB_STOCK_H

#include <stdbool.h>

#include "base/error.h"
#include "model/dungeon.h"
#include "theme.h"

enum { CB_STOCK_MAX_LOCKS = 8, CB_STOCK_MAX_DEPTH = 10 };

typedef struct cb_stock_options {
  const char *theme; /* a shipped theme's name or a file; NULL: the seed picks a shipped one */
  int depth;         /* 1..10; 0: 1 */
  int locks;         /* 0..8 lock-and-key pairs to add, with locks_set */
  bool locks_set;    /* false: the default (one where the procedure made none and there are >= 8 rooms) */
  bool faithful;     /* --faithful: no locks by default */
  struct cb_theme_shelf *themes; /* themes read before (a batch's, one a thread), or NULL */
} cb_stock_options;

/* Reads the theme and stocks d. CB_EINPUT for a bad theme (file:line). */
cb_status cb_stock_run(cb_dungeon *d, const cb_stock_options *o, cb_error *err);

/* Stocks d with a theme already read (tests and batches read it once). */
cb_status cb_stock(cb_dungeon *d, const cb_theme *t, const cb_stock_options *o, cb_error *err);

/* Adds up to n nested lock-and-key pairs on the way from the main entrance
 * to the goal (stock/locks.c): single passages of the route where there are
 * enough, else a chain of small sets of passages, each set one lock with one
 * key. Returns how many it placed (logged where fewer), -1 on OOM. Each key
 * lies on its lock's near side; key objects come from the theme's lock rows
 * as the caller notes them afterwards. */
int cb_stock_locks(cb_dungeon *d, int n);

#endif
