/* leximorph's procedure artefacts (model.md "procedure"): the rolls of the
 * sectors, junctions and walls. They are the same arrays as the sketch's
 * (sketch.h), arena-allocated in the dungeon. */
#ifndef CB_PROC_LEXIMORPH_H
#define CB_PROC_LEXIMORPH_H

#include "model/dungeon.h"
#include "proc/proc.h"

#include "sketch.h"

typedef struct cb_leximorph_proc {
  int nsectors, njunctions, nwalls, ndoors;
  cb_sketch_sector *sectors;
  cb_sketch_junction *junctions;
  cb_sketch_wall *walls;
  cb_sketch_door *doors; /* every door's d20 */
  cb_sketch *sketch;     /* the tunnel sketch, or NULL */
} cb_leximorph_proc;

/* The artefacts of a dungeon leximorph made or read, or NULL (d->procedure). */
static inline cb_leximorph_proc *cb_leximorph_of(const cb_dungeon *d) { return d->procedure; }
/* The tunnel sketch, NULL when there is none or in the players' view (it
 * marks secret doors and traps). */
static inline const cb_sketch *cb_leximorph_sketch(const cb_dungeon *d) {
  const cb_leximorph_proc *p = d->procedure;
  return p && !d->players ? p->sketch : NULL;
}

/* leximorph's own options, from its rows (options.c); zero is the default. */
typedef struct cb_leximorph_options {
  int sector_cols, sector_rows;                    /* 0: 2x2 */
  int sector_ft;                                   /* 0: 240 */
  bool no_rotate;                                  /* the letters stay upright (no d4) */
  const char *letters, *junctions, *walls, *doors; /* tables (name in templates/ or a path); NULL: ours */
} cb_leximorph_options;
/* o's own options for leximorph: the record o points to, or the defaults. */
static inline const cb_leximorph_options *cb_leximorph_options_of(const cb_gen_options *o) {
  static const cb_leximorph_options defaults;
  return o->own ? (const cb_leximorph_options *)o->own : &defaults;
}

/* Its row in the registry (generate.c) and its artefacts in JSON (json.c). */
extern const cb_generator cb_gen_leximorph;
/* Its options (options.c). */
extern const cb_option_set cb_leximorph_option_specs;
extern const struct cb_proc_io cb_proc_io_leximorph;

#endif
