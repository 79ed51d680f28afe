/* The dungeons of a batch made on several threads and taken in order: each
 * worker makes one dungeon at a time (generated, stocked, laid out), and the
 * calling thread takes them in seed order (draws and writes them), so that
 * the output is the same bytes whatever the number of workers. */
#ifndef CB_BATCH_H
#define CB_BATCH_H

#include "base/error.h"
#include "model/dungeon.h"
#include "page/page.h"

/* The most workers a batch runs (--jobs). */
#define CB_MAX_JOBS 64

/* What a worker made of one dungeon of the batch: the dungeon and its pages
 * (either may be empty), or the error it met. */
typedef struct cb_made {
  cb_dungeon *d;
  cb_document doc;
  void *marks; /* what laying it out left in the worker's backend (cb_backend_take_marks), or NULL */
  cb_status st;
  cb_error err;
} cb_made;

/* Frees what m holds and empties it. */
void cb_made_free(cb_made *m);

typedef struct cb_batch {
  int n;    /* items 0..n-1 */
  int jobs; /* workers; 1: every item made on the calling thread, no thread started */
  /* Makes item i into *out on worker w (0..jobs-1): called on that worker's
   * thread, never on two threads with the same w at once. */
  void (*make)(void *ctx, int w, int i, cb_made *out);
  /* Takes item i, in order, on the calling thread, and frees what it holds
   * (cb_made_free). Anything but CB_OK stops the batch: no item after it is
   * taken. */
  cb_status (*take)(void *ctx, int i, cb_made *made, cb_error *err);
  void *ctx;
} cb_batch;

/* Runs the batch. Holds at most `jobs` items made and not yet taken, and
 * the one being taken. The first status that is not CB_OK, in item order,
 * with its message in err; CB_EINTERNAL when a thread cannot be started.
 * SIGINT, SIGTERM and SIGHUP are blocked in the workers, so that the calling
 * thread's handlers see them. */
cb_status cb_batch_run(const cb_batch *b, cb_error *err);

/* The processors this process may run on (at least 1, at most CB_MAX_JOBS). */
int cb_batch_cores(void);

#endif
