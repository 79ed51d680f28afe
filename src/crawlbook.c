/* The front door: the command line (cli/) and the job it asks for (run/)
 * behind one opaque handle, so that main.c needs nothing else of ours. */
#include "crawlbook.h"

#include <cairo.h>
#include <stdlib.h>

#include "base/text.h"
#include "cli/options.h"
#include "io/output.h"
#include "render/backend.h"
#include "run/job.h"

#ifndef CB_VERSION
#define CB_VERSION "0.0.0"
#endif

struct cb_run {
  cb_cli cli;
  cb_ask ask;
  cb_error err;
  cb_dungeon *kept; /* with --explain: the dungeon, for its log */
};

const char *cb_version(void) { return CB_VERSION; }

void cb_help(FILE *out) { cb_cli_help(out); }

cb_run *cb_run_new(int argc, char **argv, const char *date_env, uint64_t random_seed) {
  cb_run *r = calloc(1, sizeof *r);
  if (!r) return NULL;
  if (cb_cli_parse(argc, argv, date_env, random_seed, &r->cli, &r->err) != CB_OK)
    r->ask = CB_ASK_REFUSED;
  else
    r->ask = r->cli.help ? CB_ASK_HELP : r->cli.version ? CB_ASK_VERSION : CB_ASK_RUN;
  return r;
}

void cb_run_free(cb_run *r) {
  if (!r) return;
  cb_dungeon_free(r->kept);
  free(r);
}

cb_ask cb_run_asks(const cb_run *r) { return r->ask; }

void cb_run_on_progress(cb_run *r, void (*fn)(void *ctx, int done, int total), void *ctx) {
  if (r->cli.job.count > 1) r->cli.job.progress = fn, r->cli.job.progress_ctx = ctx;
}

void cb_run_on_notice(cb_run *r, void (*fn)(void *ctx, const char *msg), void *ctx) {
  r->cli.job.notice = fn, r->cli.job.notice_ctx = ctx;
}

static int exit_status(cb_status st) {
  return st == CB_OK ? CB_EXIT_OK : st == CB_EINPUT ? CB_EXIT_BAD_INPUT : CB_EXIT_FAILURE;
}

int cb_run_go(cb_run *r) {
  if (r->ask == CB_ASK_REFUSED) return CB_EXIT_BAD_INPUT;
  if (r->ask != CB_ASK_RUN) return CB_EXIT_OK;
  return exit_status(cb_job_run(&r->cli.job, r->cli.explain ? &r->kept : NULL, &r->err));
}

const char *cb_run_message(const cb_run *r) { return r->err.msg; }

bool cb_run_drawn_seed(const cb_run *r, uint64_t *seed) {
  *seed = r->cli.job.gen.seed;
  return !r->cli.seed_given && !r->cli.job.input;
}

int cb_run_write_log(const cb_run *r, FILE *out) {
  char line[4 * 4096 + 1]; /* a log line escaped: at most four bytes a byte */
  if (!r->kept) return 0;  /* no --explain: nothing to write or flush */
  for (int i = 0; i < r->kept->nlog; i++)
    fprintf(out, "%s\n", cb_escape(line, sizeof line, r->kept->log[i]));
  return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}

bool cb_run_writes_stdout(const cb_run *r) {
  return r->ask == CB_ASK_RUN && r->cli.job.output && cb_output_is_stdout(r->cli.job.output);
}

void cb_process_begin(void) { cb_output_trap_signals(); }

void cb_process_end(void) {
  /* cairo's font caches (the run's fonts were freed with it); fontconfig's
   * FcFini() still asserts on caches pango keeps, so what fontconfig holds is
   * left to the leak suppressions */
  cairo_debug_reset_static_data();
}
