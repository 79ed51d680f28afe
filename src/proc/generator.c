#include "proc.h"

cb_status cb_generator_check_rooms(const cb_generator *g, const cb_gen_options *opts, cb_error *err) {
  if (opts->rooms != 0 && g->max_rooms == 0)
    return cb_error_set(err, CB_EINPUT, "--rooms %d: %s", opts->rooms, g->rooms_note);
  if (opts->rooms != 0 && (opts->rooms < 1 || opts->rooms > g->max_rooms))
    return cb_error_set(err, CB_EINPUT, "--rooms %d: %s makes 1 to %d rooms", opts->rooms, g->name,
                        g->max_rooms);
  return CB_OK;
}

cb_status cb_generator_check(const cb_generator *g, const cb_gen_options *opts, cb_error *err) {
  if (cb_generator_check_rooms(g, opts, err) != CB_OK) return err->status;
  return g->validate ? g->validate(opts, err) : CB_OK;
}
