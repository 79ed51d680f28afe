/* crawlbook's command line: parse, run the job, map errors to exit codes. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "crawlbook.h"

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
 * library's warning would land inside it. A closed standard output is
 * opened read-only, so that what we would write there fails, as it would
 * have: `-o -` then exits non-zero instead of losing the document. */
static void open_std_fds(void) {
  for (int fd = 0; fd < 3; fd++) {
    if (fcntl(fd, F_GETFD) != -1) continue;
    int nul = open("/dev/null", fd < 2 ? O_RDONLY : O_WRONLY);
    if (nul != fd) _exit(1); /* open takes the lowest free descriptor: fd itself */
  }
}

/* 0 when everything printed reached standard output (not a full disk). */
static int stdout_flushed(void) {
  if (fflush(stdout) == 0 && !ferror(stdout)) return 0;
  fprintf(stderr, "crawlbook: cannot write to standard output: %s\n", strerror(errno));
  return 1;
}

/* The run itself: a progress bar on a terminal, notices after success, the
 * drawn seed, and with --explain the procedure's log (on standard error when
 * the document went to standard output: it would follow its last byte). */
static int make(cb_run *run) {
  if (isatty(STDERR_FILENO)) cb_run_on_progress(run, progress, NULL);
  notices ns = {.n = 0};
  cb_run_on_notice(run, notice, &ns);
  int status = cb_run_go(run);
  if (status != CB_EXIT_OK) {
    fprintf(stderr, "crawlbook: %s\n", cb_run_message(run));
    return status;
  }
  print_notices(&ns);
  uint64_t seed;
  if (cb_run_drawn_seed(run, &seed)) fprintf(stderr, "crawlbook: seed %" PRIu64 "\n", seed);
  bool to_stdout = cb_run_writes_stdout(run);
  if (cb_run_write_log(run, to_stdout ? stderr : stdout) != 0) {
    fprintf(stderr, "crawlbook: cannot write to standard %s\n", to_stdout ? "error" : "output");
    return CB_EXIT_FAILURE;
  }
  return CB_EXIT_OK;
}

int main(int argc, char **argv) {
  open_std_fds();
  cb_process_begin();
  cb_run *run = cb_run_new(argc, argv, getenv("SOURCE_DATE_EPOCH"), random_seed());
  if (!run) {
    fprintf(stderr, "crawlbook: out of memory\n");
    return CB_EXIT_FAILURE;
  }
  int status = CB_EXIT_OK;
  switch (cb_run_asks(run)) {
  case CB_ASK_REFUSED:
    fprintf(stderr, "crawlbook: %s\n", cb_run_message(run));
    status = CB_EXIT_BAD_INPUT;
    break;
  case CB_ASK_HELP: cb_help(stdout), status = stdout_flushed(); break;
  case CB_ASK_VERSION: printf("crawlbook %s\n", cb_version()), status = stdout_flushed(); break;
  case CB_ASK_RUN: status = make(run); break;
  }
  cb_run_free(run);
  cb_process_end();
  return status;
}
