/* The one-page dungeon sheet: title, map, legend, room key in two columns
 * and a footer with everything needed to regenerate it. A key too long for
 * the sheet continues on further pages. */
#ifndef CB_SHEET_H
#define CB_SHEET_H

#include "model/dungeon.h"
#include <stdbool.h>

#include "page/page.h"

/* The area of a page inside the margins and above the footer, points. */
typedef struct cb_frame {
  double x, y, w, h;
} cb_frame;

struct cb_layout_hooks;
typedef struct cb_sheet_options {
  double page_w, page_h; /* points */
  double margin;         /* points */
  const char *version;   /* crawlbook's version for the footer */
  bool player;           /* the players' handout: a notes grid instead of the key */
  const char *page_args; /* appended to the footer's command line, or NULL */
  bool colour;           /* the colour style (else black ink on white) */
  bool appendix;         /* the procedure's log as pages at the end */
  unsigned sections;     /* booklet: CB_SECTION_* bits (layout/template.h) */
  int pad_to;            /* booklet: page count padded to a multiple of this */
  bool count_only;       /* the pages are made only to be counted (a batch's contents): a booklet's maps
                          * stay empty; a sheet is planned whole, its plan kept in `again` */
  int page_first;        /* a batch: the number of the dungeon's first page in the document (0: 1) */
  int page_total;        /* a batch: the document's page count (0: the dungeon's own) */
  const struct cb_layout_hooks *hooks; /* what the procedure draws beyond the generic sheet, or NULL */
  const char *what;                    /* the subtitle's "A Cardtography dungeon"; NULL: "A dungeon" */
  bool in_booklet;                     /* the sheet is a booklet's handout: the booklet writes its footers */
  struct cb_graph_cache *graphs; /* levels laid out before, owned by the caller (one a thread), or NULL */
  /* cb_sheet_layout only: what an earlier layout of this very dungeon (made
   * again from the same seed and options: a batch counts its pages, then
   * draws them) found while fitting, and what this one finds; or NULL */
  struct cb_sheet_memo *again;
} cb_sheet_options;

/* What fitting a dungeon's sheet finds (how often the map's words run into
 * each other in each frame tried: each count is a drawing), for a second
 * layout of the same dungeon to reuse. Owned by the caller. */
typedef struct cb_sheet_memo cb_sheet_memo;
cb_sheet_memo *cb_sheet_memo_new(void); /* NULL when out of memory */
void cb_sheet_memo_free(cb_sheet_memo *m);

/* Lays out the dungeon into doc (which owns the new pages); text is measured
 * with m. CB_EINTERNAL on OOM. */
cb_status cb_sheet_layout(const cb_dungeon *d, const cb_measure *m, const cb_sheet_options *o,
                          cb_document *doc, cb_error *err);

/* The booklet: the sections o->sections names, in the order cover, maps
 * (one page per level), key, the generator's extras, appendix, players' map
 * (the one-page sheet of `players`, the players' view, when given, as
 * --player-map lays it out), then notes pages up to
 * a multiple of o->pad_to; page numbers and a bookmark per section. */
cb_status cb_booklet_layout(const cb_dungeon *d, const cb_dungeon *players, const cb_measure *m,
                            const cb_sheet_options *o, cb_document *doc, cb_error *err);

/* The one-sheet mini zine: eight panels (cover with a small map, the map, the
 * room key over five panels, a back cover with the legend and the command
 * that makes it again), imposed on one o->page_w x o->page_h sheet for the
 * one-slit fold. CB_EINPUT when the key needs more than five panels. */
cb_status cb_zine_layout(const cb_dungeon *d, const cb_measure *m, const cb_sheet_options *o,
                         cb_document *doc, cb_error *err);

/* The command line that regenerates the dungeon from its options, e.g.
 * "crawlbook --generator dropdice --seed 42 --rooms 10", or with a `last`
 * seed past d->seed the batch of seeds d->seed to last ("--seeds 1..20");
 * written into buf. The one place the command is built. */
void cb_sheet_command(const cb_dungeon *d, uint64_t last, char *buf, size_t cap);
/* The same, whole, with page_args (or NULL) appended: malloc-owned, NULL
 * when out of memory. Footers wrap it; nothing ever cuts it. */
char *cb_sheet_command_new(const cb_dungeon *d, uint64_t last, const char *page_args);

#endif
