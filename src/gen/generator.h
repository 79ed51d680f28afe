/* The generators: one procedure each, behind one interface. A generator reads
 * its options, rolls every die from one seeded stream, and returns a new
 * dungeon (the caller frees it with cb_dungeon_free). */
#ifndef CB_GENERATOR_H
#define CB_GENERATOR_H

#include <stdbool.h>
#include <stdint.h>

#include "../model/dungeon.h"
#include "../model/error.h"

typedef enum { CB_EXTRA_BY_TREE, CB_EXTRA_BY_LENGTH } cb_extra_by;

/* Options of every generator; each reads the ones it knows. */
typedef struct cb_gen_options {
  uint64_t seed;
  int rooms;            /* 0: the generator's default */
  int levels;           /* 0: the generator's default */
  bool faithful;        /* the seed's procedure exactly, without our repairs */
  cb_extra_by extra_by; /* dropdice: how extra paths are ranked */
  bool ladders;         /* preconnect: odd crossing rolls put ladders, not stairs */
  const char *title;    /* NULL: the generator names the dungeon */
} cb_gen_options;

typedef struct cb_generator {
  const char *name;
  const char *summary; /* one line for --help */
  int default_rooms, max_rooms;
  /* Checks the options before anything is rolled; CB_EINPUT with a message. */
  cb_status (*validate)(const cb_gen_options *opts, cb_error *err);
  cb_status (*generate)(const cb_gen_options *opts, cb_dungeon **out, cb_error *err);
} cb_generator;

/* The generator called `name`, or NULL. */
const cb_generator *cb_generator_find(const char *name);
/* All generators, in --help order; *n gets their count. */
const cb_generator *const *cb_generator_list(int *n);
/* True for a generator named in the specs whose procedure is not built yet. */
int cb_generator_planned(const char *name);

/* Each procedure's table entry. */
extern const cb_generator cb_gen_dropdice;
extern const cb_generator cb_gen_preconnect;

/* Shared by generators: a title from the seed (its own stream, so that it
 * never changes the dungeon). Returns a static or arena string. */
const char *cb_gen_title(cb_dungeon *d, const char *noun);

#endif
