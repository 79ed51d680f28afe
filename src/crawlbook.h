/* crawlbook's front door and its one public header: a command line in; a
 * written file, --help, or the procedure's log out.
 *
 * Ownership, stated once: cb_run_new returns a handle the caller owns and
 * frees with cb_run_free, which frees everything the run made (the dungeon,
 * its pages, their strings). Strings returned by cb_run_* belong to the
 * handle and live as long as it. Nothing here exits or prints unless given
 * where: a failure comes back as an exit status with a message. */
#ifndef CRAWLBOOK_H
#define CRAWLBOOK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* One command line: its options, then the run and what it made. Opaque. */
typedef struct cb_run cb_run;

/* Exit statuses, as --help documents them. */
enum { CB_EXIT_OK = 0, CB_EXIT_FAILURE = 1, CB_EXIT_BAD_INPUT = 2 };

/* What a command line asks for. */
typedef enum { CB_ASK_REFUSED, CB_ASK_HELP, CB_ASK_VERSION, CB_ASK_RUN } cb_ask;

/* Reads argv. `date_env` is SOURCE_DATE_EPOCH's value or NULL; `random_seed`
 * is the seed when the command line gives none. NULL only when out of
 * memory; a refused command line is a handle asking CB_ASK_REFUSED. */
cb_run *cb_run_new(int argc, char **argv, const char *date_env, uint64_t random_seed);
void cb_run_free(cb_run *r);
cb_ask cb_run_asks(const cb_run *r);

/* Writes --help's text. */
void cb_help(FILE *out);
/* crawlbook's version, e.g. "0.1.0". */
const char *cb_version(void);

/* Optional, before cb_run_go: called after each dungeon of a batch (only
 * for batches), and with what a game master should know of a run that
 * succeeded (a one-page sheet that needed a second page). */
void cb_run_on_progress(cb_run *r, void (*fn)(void *ctx, int done, int total), void *ctx);
void cb_run_on_notice(cb_run *r, void (*fn)(void *ctx, const char *msg), void *ctx);

/* Makes and writes what the command line asks; returns the exit status. */
int cb_run_go(cb_run *r);
/* Why the command line was refused or the run failed ("" when neither). */
const char *cb_run_message(const cb_run *r);
/* True, with the seed, when the seed was drawn at random (not given, not
 * read from a file): the user should be told it to make the dungeon again. */
bool cb_run_drawn_seed(const cb_run *r, uint64_t *seed);
/* With --explain, after cb_run_go: the procedure's log into out, one line
 * per step, every byte from input escaped. 0, or -1 when out failed. */
int cb_run_write_log(const cb_run *r, FILE *out);
/* True when the document goes to standard output (-o -, /dev/stdout): the
 * log then belongs on standard error. */
bool cb_run_writes_stdout(const cb_run *r);

/* Once per process, first: SIGINT, SIGTERM and SIGHUP will remove a
 * half-written file. Last: the font caches are freed (for leak checkers). */
void cb_process_begin(void);
void cb_process_end(void);

#endif
