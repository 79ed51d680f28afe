/* The cover of a batch: a title and a table of contents, two lines per
 * dungeon: its title, theme, rooms and the page it starts on, then its hook. */
#ifndef CB_COVER_H
#define CB_COVER_H

#include <stdint.h>

#include "sheet.h"

typedef struct cb_toc_entry {
  const char *title;
  const char *theme, *hook; /* the dungeon's own theme and hook's first sentence, or NULL */
  uint64_t seed;
  int rooms;
  int page; /* 1-based page in the whole document */
} cb_toc_entry;

/* How many pages the cover needs for n entries. */
int cb_cover_pages(int n, const cb_sheet_options *o);

/* Appends the cover pages to doc: `title` above, `about` below it (e.g. "20
 * NAME dungeons, seeds 1 to 20"), the entries, and `command` (how to make
 * the batch again) in every footer. CB_EINTERNAL on OOM. */
cb_status cb_cover_layout(const cb_toc_entry *e, int n, const char *title, const char *about,
                          const char *command, const cb_measure *m, const cb_sheet_options *o,
                          cb_document *doc, cb_error *err);

#endif
