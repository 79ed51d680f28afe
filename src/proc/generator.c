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

cb_status cb_generator_frame(const cb_generator *g, const cb_gen_options *opts, cb_generator_steps steps,
                             const void *ctx, cb_dungeon **out, cb_error *err) {
  *out = NULL;
  if (cb_generator_check(g, opts, err) != CB_OK) return err->status;
  cb_dungeon *d = cb_dungeon_new(g->name, opts->seed);
  if (!d || cb_dungeon_set_title(d, opts->title ? opts->title : cb_gen_title(d, g->title_noun))) {
    cb_dungeon_free(d);
    return cb_error_oom(err);
  }
  d->room_rules = g->room_rules;
  cb_status st = steps(opts, ctx, d, err);
  if (st == CB_OK && d->oom) st = cb_error_oom(err);
  if (st != CB_OK) {
    cb_dungeon_free(d);
    return st;
  }
  *out = d;
  return CB_OK;
}

cb_status cb_generator_run(const cb_generator *g, const cb_gen_options *opts, cb_dungeon **out,
                           cb_error *err) {
  return cb_generator_frame(g, opts, g->steps, NULL, out, err);
}
