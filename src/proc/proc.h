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

typedef struct cb_generator {
  const char *name;
  /* --rooms from 1 to max_rooms, checked for every procedure alike
   * (cb_generator_check); 0 when it takes no --rooms, rooms_note saying why */
  int max_rooms;
  const char *rooms_note;
  /* Checks its own options before anything is rolled; CB_EINPUT with a message. */
  cb_status (*validate)(const cb_gen_options *opts, cb_error *err);
  cb_status (*generate)(const cb_gen_options *opts, cb_dungeon **out, cb_error *err);
  const char *what;                     /* the sheet's subtitle: "A Cardtography dungeon" */
  const struct cb_proc_io *io;          /* its artefacts in JSON (io/json_util.h) */
  const struct cb_layout_hooks *layout; /* what it draws beyond the generic sheet, or NULL */
  const cb_option_set *options;         /* its own options, and the common ones it records */
} cb_generator;

/* The rooms range g's row states, the same check for every procedure;
 * CB_EINPUT with a message. */
cb_status cb_generator_check_rooms(const cb_generator *g, const cb_gen_options *opts, cb_error *err);
/* The checks every procedure's options get before anything is rolled: the
 * rooms range its row states, then its own validate; CB_EINPUT with a
 * message. */
cb_status cb_generator_check(const cb_generator *g, const cb_gen_options *opts, cb_error *err);

#endif
