/* A theme: the words stocking fills a dungeon with (spec/stocking.md), read
 * from a plain-text table in templates/themes/ that users copy and edit.
 * Every row's first field is its kind; the format is in
 * templates/themes/README.md. */
#ifndef CB_THEME_H
#define CB_THEME_H

#include "base/error.h"
#include "base/table.h"

typedef enum {
  CB_THEME_THEME,
  CB_THEME_TITLE_A,
  CB_THEME_TITLE_B,
  CB_THEME_HOOK,
  CB_THEME_GOAL,
  CB_THEME_BOSS,
  CB_THEME_ROOM,
  CB_THEME_DRESSING,
  CB_THEME_MONSTER,
  CB_THEME_DOING,
  CB_THEME_TRAP,
  CB_THEME_HAZARD,
  CB_THEME_SPECIAL,
  CB_THEME_TREASURE,
  CB_THEME_MAGIC,
  CB_THEME_LOCK,
  CB_THEME_SOFT_LOCK,
  CB_THEME_SECRET,
  CB_THEME_ENTRANCE
} cb_theme_kind;
enum { CB_THEME_KIND_COUNT = 19 };

/* Dice as written in a table: n d sides + plus ("2d4", "1d6+1"); sides 0
 * for a plain number n. */
typedef struct cb_dice {
  int n, sides, plus;
} cb_dice;

typedef struct cb_theme_monster {
  int lo, hi; /* depths 1..10 */
  const char *plural, *singular;
  cb_dice count;
  const char *hd;
} cb_theme_monster;

typedef struct cb_theme {
  cb_table table;
  const char *name, *about;
  /* per kind, its rows in file order (fields[0] is the kind) */
  int n[CB_THEME_KIND_COUNT];
  const cb_table_row **rows[CB_THEME_KIND_COUNT];
  cb_theme_monster *monsters; /* n[CB_THEME_MONSTER] of them */
  int *treasure_value;        /* n[CB_THEME_TREASURE]: gp at depth 1 */
} cb_theme;

/* Reads a theme: `name` is a shipped theme ("crypt", in
 * templates/themes/) or a path (with a '/' or ending in ".txt").
 * CB_EINPUT with "file:line: ..." on a bad row, "file: ..." when a kind has
 * too few rows. Free with cb_theme_free (also after a failure). */
cb_status cb_theme_read(const char *name, cb_theme *t, cb_error *err);
/* The same for text in memory (the fuzz harness); name is for messages. */
cb_status cb_theme_parse(const char *text, size_t len, const char *name, cb_theme *t, cb_error *err);
void cb_theme_free(cb_theme *t);

/* The shipped themes' names, in a fixed order; *n gets their count. */
const char *const *cb_theme_shipped(int *n);

/* Parses dice ("2d4", "1d6+1", "3"); 0 when the text is not dice. */
int cb_dice_parse(const char *s, cb_dice *out);

#endif
