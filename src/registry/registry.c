#include "registry.h"

#include <stdio.h>
#include <string.h>

#include "base/text.h"
#include "io/json_util.h"
#include "proc/battleships/proc.h"
#include "proc/cards/proc.h"
#include "proc/dropdice/proc.h"
#include "proc/leximorph/proc.h"
#include "proc/preconnect/proc.h"

/* One procedure per line, in the order of their seeds. */
static const cb_generator *const rows[] = {
    &cb_gen_cards, &cb_gen_leximorph, &cb_gen_preconnect, &cb_gen_battleships, &cb_gen_dropdice,
};
enum { NROWS = sizeof rows / sizeof *rows };

const cb_generator *cb_generator_find(const char *name) {
  for (size_t i = 0; name && i < NROWS; i++)
    if (strcmp(rows[i]->name, name) == 0) return rows[i];
  return NULL;
}

const cb_generator *const *cb_generator_list(int *n) {
  *n = NROWS;
  return rows;
}

const char *cb_generator_names(char *buf, size_t cap, const char *last) {
  const char *names[NROWS];
  for (size_t i = 0; i < NROWS; i++)
    names[i] = rows[i]->name;
  return cb_text_join(buf, cap, names, NROWS, "", "", last);
}

void cb_proc_sheet(const cb_dungeon *d, cb_sheet_options *o) {
  const cb_generator *g = cb_generator_find(d->generator);
  o->hooks = g ? g->layout : NULL;
  o->what = g ? g->what : NULL;
}

static const cb_proc_io *json_find(const char *generator) {
  const cb_generator *g = cb_generator_find(generator);
  return g ? g->io : NULL;
}

static const char *json_names(char *buf, size_t cap) { return cb_generator_names(buf, cap, ", "); }

static bool json_records(const char *generator, const char *key) {
  const cb_generator *g = cb_generator_find(generator);
  return g && g->options && cb_option_find(g->options, key) != NULL;
}

const cb_json_procs *cb_proc_json(void) {
  static const cb_json_procs procs = {json_find, json_names, json_records};
  return &procs;
}
