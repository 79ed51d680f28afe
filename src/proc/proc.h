/* The generators: one procedure each, behind one interface. A generator reads
 * its options, rolls every die from one seeded stream, and returns a new
 * dungeon (the caller frees it with cb_dungeon_free). */
#ifndef CB_GENERATOR_H
#define CB_GENERATOR_H

#include <stdbool.h>
#include <stdint.h>

#include "base/error.h"
#include "model/dungeon.h"
#include "model/title.h"
#include "proc/option.h"

/* The options every procedure has. A procedure's own options are a record
 * of its own (src/proc/<name>/proc.h), filled by its option rows; the
 * common record points to it. */
typedef struct cb_gen_options {
  uint64_t seed;
  int rooms;         /* 0: the generator's default */
  int levels;        /* 0: the generator's default */
  bool faithful;     /* the seed's procedure exactly, without our repairs */
  const char *title; /* NULL: the generator names the dungeon */
  /* the procedure's own options record (its cb_option_set's size), borrowed;
   * NULL: all its defaults */
  const void *own;
} cb_gen_options;

/* A procedure's steps on d, a new dungeon of its name and the seed, titled
 * (cb_generator_frame makes it, and frees it when a step fails); ctx is
 * what the caller of the frame passed (NULL from cb_generator_run).
 * CB_EINPUT with a message, or d->oom set. */
typedef cb_status (*cb_generator_steps)(const cb_gen_options *opts, const void *ctx, cb_dungeon *d,
                                        cb_error *err);

typedef struct cb_generator {
  const char *name;
  const char *title_noun; /* the title drawn from the seed names it: "The Ashen <noun> of ..." */
  /* --rooms from 1 to max_rooms, checked for every procedure alike
   * (cb_generator_check); 0 when it takes no --rooms, rooms_note saying why */
  int max_rooms;
  const char *rooms_note;
  /* Checks its own options before anything is rolled; CB_EINPUT with a message. */
  cb_status (*validate)(const cb_gen_options *opts, cb_error *err);
  cb_generator_steps steps;
  const char *what;                     /* the sheet's subtitle: "A Cardtography dungeon" */
  const struct cb_proc_io *io;          /* its artefacts in JSON (io/json_util.h) */
  const struct cb_layout_hooks *layout; /* what it draws beyond the generic sheet, or NULL */
  const cb_option_set *options;         /* its own options, and the common ones it records */
  /* Its room rules for stocking: what its mark on room r says beyond r's
   * tags, into *w (zeroed first); NULL: nothing more. The frame hands it to
   * every dungeon the procedure makes (cb_dungeon.room_rules). */
  void (*room_rules)(const cb_room *r, cb_room_word *w);
} cb_generator;

/* The rooms range g's row states, the same check for every procedure;
 * CB_EINPUT with a message. */
cb_status cb_generator_check_rooms(const cb_generator *g, const cb_gen_options *opts, cb_error *err);
/* The checks every procedure's options get before anything is rolled: the
 * rooms range its row states, then its own validate; CB_EINPUT with a
 * message. */
cb_status cb_generator_check(const cb_generator *g, const cb_gen_options *opts, cb_error *err);

/* The frame every procedure runs in: the options checked
 * (cb_generator_check), a new dungeon of g's name and the seed, titled with
 * opts->title or one drawn from the seed, steps(opts, ctx, d) run on it.
 * On success *out is the dungeon (the caller frees it with
 * cb_dungeon_free); on failure *out is NULL and the status is returned. */
cb_status cb_generator_frame(const cb_generator *g, const cb_gen_options *opts, cb_generator_steps steps,
                             const void *ctx, cb_dungeon **out, cb_error *err);
/* g's own steps in the frame: a new dungeon made from opts. */
cb_status cb_generator_run(const cb_generator *g, const cb_gen_options *opts, cb_dungeon **out,
                           cb_error *err);

#endif
