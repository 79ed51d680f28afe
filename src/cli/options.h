/* The command line: getopt_long, validation and --help, turning argv into a
 * cb_job; all built from the option specs (proc/option.h): the common table
 * (cli/common.c) and each procedure's. */
#ifndef CB_OPTIONS_H
#define CB_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "run/job.h"

typedef struct cb_cli {
  cb_job job;
  bool help, version, explain;
  bool seed_given;
  char page_args[1300]; /* the page options as given, for the footer */
  /* the chosen procedure's own options record, which job.gen.own points to
   * (filled by its rows once the procedure is known); and where each of a
   * procedure's options is read first, as it comes, to refuse a bad value at
   * once (read by the first procedure that takes it) */
  _Alignas(max_align_t) unsigned char own[CB_PROC_OPTIONS_MAX];
  _Alignas(max_align_t) unsigned char scratch[CB_PROC_OPTIONS_MAX];
  /* what the command line said, read once every option is */
  struct {
    const char *output, *format, *page_size, *style, *template_name;
    bool landscape, count, seeds, seed;
  } given;
} cb_cli;

/* Parses argv into cli (defaults filled in). `date_env` is the value of
 * SOURCE_DATE_EPOCH or NULL; `random_seed` is used when no --seed is given.
 * CB_EINPUT with a message naming the option on bad input. */
cb_status cb_cli_parse(int argc, char **argv, const char *date_env, uint64_t random_seed, cb_cli *cli,
                       cb_error *err);

/* A page size: a4, letter, a5, half-letter, or WxH with mm or in (e.g.
 * 148x210mm, 5.5x8.5in), in points; false when it is none of these or
 * outside 90 mm to 1200 mm a side. */
bool cb_cli_page_size(const char *s, double *w, double *h);

/* The keys a template's tables group may use: each procedure's table
 * options' (cb_option_spec.table), NULL-terminated in keys[0..cap). */
void cb_cli_table_keys(const char **keys, int cap);

/* Writes the --help text. */
void cb_cli_help(FILE *out);

#endif
