/* The procedures: one row each (src/proc/<name>/), in the order of their
 * seeds (000 cards ... 004 dropdice). Every list of procedures in the
 * program (--help, JSON, layout, tests) is read from here. */
#ifndef CB_REGISTRY_H
#define CB_REGISTRY_H

#include <stddef.h>

#include "io/json.h"
#include "layout/sheet.h"
#include "proc/proc.h"

/* The procedure run when none is named. */
#define CB_DEFAULT_GENERATOR "dropdice"

/* The procedure called `name`, or NULL. */
const cb_generator *cb_generator_find(const char *name);
/* All procedures; *n gets their count. */
const cb_generator *const *cb_generator_list(int *n);
/* Their names for a message, "cards, leximorph, ... or dropdice" with `last`
 * (" or ", ", ") before the last; written into buf. */
const char *cb_generator_names(char *buf, size_t cap, const char *last);
/* Sets o's hooks and subtitle from the row of the procedure that made d
 * (none when no procedure of ours did). */
void cb_proc_sheet(const cb_dungeon *d, cb_sheet_options *o);
/* Their JSON readers and writers, for io/json.h. */
const cb_json_procs *cb_proc_json(void);

#endif
