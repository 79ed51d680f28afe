/* One job from options to a written file, the stage the front door
 * (crawlbook.h) runs. Data flows one way: options -> generator (or a JSON
 * file) -> model -> stock -> checks -> layout -> backend -> output file.
 * Nothing here prints or exits; failures come back as a status with a
 * message. */
#ifndef CB_JOB_H
#define CB_JOB_H

#include <stdbool.h>

#include "base/error.h"
#include "layout/template.h"
#include "model/dungeon.h"
#include "proc/proc.h"
#include "render/backend.h"
#include "stock/stock.h"

/* A printed page stays legible up to about 60 rooms; past this the map is unreadable. */
#define CB_MAX_PAGE_ROOMS 200
/* The most dungeons one batch makes. */
#define CB_MAX_BATCH 10000

typedef struct cb_job {
  const char *generator;  /* generator name; ignored with input */
  cb_gen_options gen;     /* its options, seed included */
  cb_stock_options stock; /* theme, depth, locks (its faithful follows gen.faithful) */
  const char *input;      /* a crawlbook JSON file to lay out instead of generating, or NULL */
  const char *output;     /* path, "-" for standard output, NULL to write nothing */
  cb_format format;
  const char *backend;   /* "cairo" */
  double dpi;            /* PNG resolution */
  long long date;        /* document date, seconds since 1970 (SOURCE_DATE_EPOCH) */
  const char *author;    /* PDF metadata, or NULL */
  bool player_map;       /* lay out the players' handout instead of the game master's sheet */
  bool colour;           /* the colour style instead of black ink */
  bool appendix;         /* the procedure's log as pages at the end */
  bool impose_saddle;    /* pages 2-up on sheets in folding order for saddle stitching */
  cb_template tpl;       /* the page template (layout, margins, booklet sections); zero: the one-page sheet */
  double page_w, page_h; /* points; 0: A4 portrait */
  const char
      *page_args; /* how the page was asked for ("--page-size a5 --landscape"), for the footer; or NULL */
  int count;      /* dungeons, seeds gen.seed, gen.seed + 1, ...: one PDF with a contents cover, or
                     one file each when output is a pattern ("dungeon-%03d.pdf"); 0 or 1: one */
  int jobs;       /* a batch's dungeons made on this many threads at once (cb_batch_cores: one a core), drawn
                     in order, the same bytes whatever the number; 0 or 1: one at a time, on the calling
                     thread; at most CB_MAX_JOBS */
  void (*progress)(void *ctx, int done, int total); /* called after each dungeon of a batch, or NULL */
  void *progress_ctx;
  /* called with what a game master should know of a run that succeeded (a
   * one-page sheet that needed a second page), or NULL */
  void (*notice)(void *ctx, const char *msg);
  void *notice_ctx;
  struct cb_cairo_fonts *fonts; /* cb_job_run's own (callers leave it NULL): the fonts its documents share */
} cb_job;

/* Runs the job. On success, when keep is not NULL, *keep receives the dungeon
 * (the caller frees it with cb_dungeon_free), e.g. to print its log.
 * CB_EINPUT for bad input (nothing is written), CB_EINTERNAL otherwise. */
cb_status cb_job_run(const cb_job *job, cb_dungeon **keep, cb_error *err);

/* 1 when output is a name pattern with one %d or %0Nd, 0 when it has no
 * '%', -1 when it is a malformed pattern. */
int cb_job_pattern(const char *output);

#endif
