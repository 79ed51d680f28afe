/* The options every dungeon records in its "options" (the JSON's, which the
 * footer's command repeats), whichever procedure made it; a procedure's own
 * options are its rows (proc/option.h). This table is their one home: the
 * command line's rows take their name, kind and recording from it
 * (CB_OPTION_RECORDED, cli/common.c), the JSON reader knows them by it, and
 * the stage that holds the value records it under its row.
 *
 * Adding one: its row here (and its name in CB_RECORDED_OPTIONS), its row
 * in cli/common.c (range, field, help), and the line that records its value
 * (cb_dungeon_record).
 *
 * A row: X(ID, name, kind, when): the long option and JSON key; TEXT or
 * NUMBER; ALWAYS (whatever was given, the default filled in) or IF_SET. */
#ifndef CB_RECORDED_H
#define CB_RECORDED_H

#include <stdbool.h>

#include "dungeon.h"

/* the job records it when --title is given (run/job.c) */
#define CB_RECORDED_ROW_TITLE(X) X(TITLE, "title", TEXT, IF_SET)
/* stocking records these (spec/stocking.md): the theme it used, the depth
 * it stocked at, and --locks when given */
#define CB_RECORDED_ROW_THEME(X) X(THEME, "theme", TEXT, ALWAYS)
#define CB_RECORDED_ROW_DEPTH(X) X(DEPTH, "depth", NUMBER, ALWAYS)
#define CB_RECORDED_ROW_LOCKS(X) X(LOCKS, "locks", NUMBER, IF_SET)

#define CB_RECORDED_OPTIONS(X)                                                                               \
  CB_RECORDED_ROW_TITLE(X) CB_RECORDED_ROW_THEME(X) CB_RECORDED_ROW_DEPTH(X) CB_RECORDED_ROW_LOCKS(X)

#define CB_RECORDED_ID_(id, name, kind, when) CB_RECORDED_##id,
typedef enum cb_recorded { CB_RECORDED_OPTIONS(CB_RECORDED_ID_) CB_RECORDED_COUNT } cb_recorded;
#undef CB_RECORDED_ID_

typedef struct cb_recorded_option {
  const char *name; /* the long option, without "--", and the JSON key */
  bool number;      /* recorded as a number; else as text */
} cb_recorded_option;

extern const cb_recorded_option cb_recorded_options[CB_RECORDED_COUNT];

/* Whether key is one of the rows' names. */
bool cb_recorded_is(const char *key);

/* Records value under row `which` in d's options (a number written in
 * decimal when the row's kind is NUMBER); nothing when value is NULL. 0, or
 * -1 when out of memory (d->oom is set). */
int cb_dungeon_record(cb_dungeon *d, cb_recorded which, const char *value);

/* The value d records under row `which`, or NULL. */
const char *cb_dungeon_recorded(const cb_dungeon *d, cb_recorded which);

#endif
