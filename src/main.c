/* crawlbook's command line: parse, run the job, map errors to exit codes. */
#include <cairo.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/text.h"
#include "cli/options.h"
#include "crawlbook.h"
#include "io/output.h"

/* A progress bar on standard error, only when it is a terminal. */
static void progress(void *ctx, int done, int total) {
  (void)ctx;
  int width = 40, filled = total > 0 ? done * width / total : width;
  fprintf(stderr, "\r[%.*s%*s] %d/%d", filled, "########################################", width - filled, "",
          done, total);
  if (done == total) fputc('\n', stderr);
  fflush(stderr);
}

/* Notices wait for the end of the run, so that a run that fails says one line. */
typedef struct notices {
  char line[8][256];
  int n, more;
} notices;

static void notice(void *ctx, const char *msg) {
  notices *ns = ctx;
  if (ns->n < 8)
    snprintf(ns->line[ns->n++], sizeof ns->line[0], "%s", msg);
  else
    ns->more++;
}

static void print_notices(const notices *ns) {
  for (int i = 0; i < ns->n; i++)
    fprintf(stderr, "crawlbook: note: %s\n", ns->line[i]);
  if (ns->more) fprintf(stderr, "crawlbook: note: and %d more like it\n", ns->more);
}

static uint64_t random_seed(void) {
  uint64_t seed = 0;
  FILE *f = fopen("/dev/urandom", "rb");
  if (!f || fread(&seed, sizeof seed, 1, f) != 1) seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
  if (f) fclose(f);
  return seed;
}

/* Standard input, output and error open, on /dev/null when they were
 * closed: otherwise our output file would get descriptor 2 and every
 * library's warning would land inside it. */
static void open_std_fds(void) {
  for (int fd = 0; fd < 3; fd++) {
    if (fcntl(fd, F_GETFD) != -1) continue;
    int nul = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
    if (nul != fd) _exit(1); /* open takes the lowest free descriptor: fd itself */
  }
}

/* 0 when everything printed reached standard output (not a full disk). */
static int stdout_flushed(void) {
  if (fflush(stdout) == 0 && !ferror(stdout)) return 0;
  fprintf(stderr, "crawlbook: cannot write to standard output: %s\n", strerror(errno));
  return 1;
}

int main(int argc, char **argv) {
  open_std_fds();
  cb_output_trap_signals();
  cb_cli cli;
  cb_error err = {0};
  if (cb_cli_parse(argc, argv, getenv("SOURCE_DATE_EPOCH"), random_seed(), &cli, &err) != CB_OK) {
    fprintf(stderr, "crawlbook: %s\n", err.msg);
    return 2;
  }
  if (cli.help || cli.version) {
    if (cli.help)
      cb_cli_help(stdout);
    else
      printf("crawlbook %s\n", cb_version());
    return stdout_flushed();
  }
  if (cli.job.count > 1 && isatty(STDERR_FILENO)) cli.job.progress = progress;
  notices ns = {.n = 0};
  cli.job.notice = notice, cli.job.notice_ctx = &ns;
  cb_dungeon *d = NULL;
  cb_status st = cb_job_run(&cli.job, cli.explain ? &d : NULL, &err);
  /* after the run, so that a refused run says one line only */
  if (st == CB_OK) print_notices(&ns);
  if (st == CB_OK && !cli.seed_given && !cli.job.input)
    fprintf(stderr, "crawlbook: seed %" PRIu64 "\n", cli.job.gen.seed);
  if (st == CB_OK && d) {
    char line[4 * 4096 + 1]; /* a log line escaped: at most four bytes a byte */
    for (int i = 0; i < d->nlog; i++)
      printf("%s\n", cb_escape(line, sizeof line, d->log[i]));
    if (fflush(stdout) != 0) st = cb_error_set(&err, CB_EINTERNAL, "cannot write to standard output");
  }
  cb_dungeon_free(d);
  /* cairo's font caches; fontconfig's FcFini() still asserts on caches
   * pango keeps, so what fontconfig holds is left to the leak suppressions */
  cb_cairo_release_fonts();
  cairo_debug_reset_static_data();
  if (st != CB_OK) {
    fprintf(stderr, "crawlbook: %s\n", err.msg);
    return st == CB_EINPUT ? 2 : 1;
  }
  return 0;
}
