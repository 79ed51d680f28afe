/* The room key: one entry per room in room-number order (tags, content line,
 * keys and the locks they open, every passage and where it leads), flowed
 * into columns. */
#ifndef CB_KEY_H
#define CB_KEY_H

#include <stdbool.h>

#include "model/dungeon.h"
#include "page/flow.h"

typedef struct cb_key_style {
  const cb_measure *m;
  double size, leading, gap; /* text size, baseline distance, space between entries (points) */
  cb_rgb ink;
  /* Optional: the symbols to show each room's marks with, after its number. */
  const struct cb_symbols *symbols;
  /* Optional: a generator's sentence added to each room's entry (layout/hooks.h). */
  void (*note)(const cb_dungeon *d, const cb_room *r, char *buf, size_t cap);
  /* Optional: each entry's spans and line counts, kept between fills (a
   * sheet tries several boxes before it draws); owned by the caller, made
   * by cb_key_memo_new for the dungeon the fills are of. */
  struct cb_key_memo *memo;
  /* A stocked room's long form (the booklet): traps' tells, passage notes,
   * the room's whole dressing; false: the one-page sheet's terse form. */
  bool full;
  /* Entries after the rooms: the hook and the d6 wandering-monster table of
   * a stocked dungeon (cb_key_extras); cb_key_fill's index runs on past
   * d->nrooms through them, so a caller that stops at d->nrooms prints them
   * only where they fit. */
  int extras;
  /* The sheet's tightest form, for a key that would not fit one page: a
   * stocked room's dressing and its monsters' doings give way. */
  bool compact;
  /* The extras come before the rooms (the booklet: hook, roster and
   * wandering table before the key). */
  bool extras_first;
} cb_key_style;

/* How many entries follow the rooms for d when it is stocked (the hook, the
 * roster one kind an entry, the wandering table), else 0. */
int cb_key_extras(const cb_dungeon *d);
/* The booklet's extras: the same entries, in their long form. */
int cb_key_extras_full(const cb_dungeon *d);

/* What the key learns of d's entries between fills; see key.c. */
typedef struct cb_key_memo cb_key_memo;
/* NULL when out of memory. */
cb_key_memo *cb_key_memo_new(const cb_dungeon *d);
void cb_key_memo_free(cb_key_memo *m);

/* The lines entry i (rooms first, then the extras) takes in a column w
 * wide, into *lines; CB_EINTERNAL with a message when out of memory. */
cb_status cb_key_lines(const cb_key_style *ks, const cb_dungeon *d, int i, double w, int *lines,
                       cb_error *err);
/* Flows the entries of rooms from index *next on into `cols` columns of the
 * box x, y, w, h; *next gets the index of the first room that did not fit
 * (d->nrooms when all did). CB_EINTERNAL (err set, *next unchanged) when out
 * of memory. An entry that fits a column is never split; one taller than a
 * whole column starts a column and runs on into the next (and onto the next
 * page, whatever its width): *word, when given, is the word of room *next's
 * entry to begin with, and gets the word the returned room resumes at. */
cb_status cb_key_fill(cb_page *p, const cb_key_style *ks, const cb_dungeon *d, int *next, int *word, double x,
                      double y, double w, double h, int cols, double gutter, cb_error *err);
/* The height of the shortest box, at most h high, that takes the entries of
 * rooms from index `from` on without splitting one, into *out; INFINITY when
 * they do not fit in h. CB_EINTERNAL when out of memory. */
cb_status cb_key_height(const cb_key_style *ks, const cb_dungeon *d, int from, double w, double h, int cols,
                        double gutter, double *out, cb_error *err);
/* The same as cb_key_fill, but when every entry left fits the box, the columns are balanced:
 * the box is cut to the shortest height that still takes them all without
 * splitting an entry. */
cb_status cb_key_fill_balanced(cb_page *p, const cb_key_style *ks, const cb_dungeon *d, int *next, int *word,
                               double x, double y, double w, double h, int cols, double gutter,
                               cb_error *err);

#endif
