/* dropdice (seed 004) artefacts: the dice as they fell, the mesh, the tree
 * and the extra paths, and each rewrite's rule (model.md "procedure").
 * Arena-allocated with the dungeon (d->procedure). */
#ifndef CB_PROC_DROPDICE_H
#define CB_PROC_DROPDICE_H

#include "model/dungeon.h"
#include "proc/proc.h"

typedef struct cb_die {
  int room;
  double x, y;
  int value;
} cb_die;
typedef enum {
  CB_REWRITE_START_START,
  CB_REWRITE_GOAL_GOAL,
  CB_REWRITE_START_GOAL_SECRET,
  CB_REWRITE_START_GOAL_LOCKED,
  CB_REWRITE_ODD,
  CB_REWRITE_EVEN,
  CB_REWRITE_ZERO
} cb_rewrite_rule;
enum { CB_REWRITE_RULE_COUNT = 7 };
typedef struct cb_rewrite {
  int passage;
  cb_rewrite_rule rule;
} cb_rewrite;
typedef struct cb_dropdice_proc {
  double die_ft;         /* a die's width: the minimum spacing */
  double area_w, area_h; /* the tray, in feet */
  int ndice, ndelaunay, ntree, nextra, nrewrites;
  cb_die *dice;
  cb_pair *delaunay, *tree, *extra; /* room ids; tree and extra in the order added */
  cb_rewrite *rewrites;
} cb_dropdice_proc;

const char *cb_rewrite_rule_name(cb_rewrite_rule rule);
int cb_rewrite_rule_parse(const char *name);

/* The artefacts of a dungeon dropdice made or read, or NULL (d->procedure). */
static inline cb_dropdice_proc *cb_dropdice_of(const cb_dungeon *d) { return d->procedure; }

/* dropdice's own options, from its rows (options.c); zero is the default. */
typedef enum { CB_EXTRA_BY_TREE, CB_EXTRA_BY_LENGTH } cb_extra_by;
typedef struct cb_dropdice_options {
  cb_extra_by extra_by; /* how extra paths are ranked */
  const char *content;  /* its content table (NULL: templates/dropdice-contents.txt) */
} cb_dropdice_options;
/* o's own options for dropdice: the record o points to, or the defaults. */
static inline const cb_dropdice_options *cb_dropdice_options_of(const cb_gen_options *o) {
  static const cb_dropdice_options defaults;
  return o->own ? (const cb_dropdice_options *)o->own : &defaults;
}

/* Its row in the registry (generate.c) and its artefacts in JSON (json.c). */
extern const cb_generator cb_gen_dropdice;
/* Its options (options.c). */
extern const cb_option_set cb_dropdice_option_specs;
extern const struct cb_proc_io cb_proc_io_dropdice;

#endif
