/* A theme: the situation and the kinds of room stocking fills a dungeon with
 * (spec/stocking.md), read from a plain-text table in templates/themes/ that
 * users copy and edit. A theme is blocks: a monster with its doings, a
 * situation with its cast and hooks, a room kind with its names, dressing,
 * traps, specials and treasure; the format is in templates/themes/README.md.
 * Every string points into the theme's table: free the theme after the
 * dungeon has copied what it keeps. */
#ifndef CB_THEME_H
#define CB_THEME_H

#include <stdbool.h>

#include "base/error.h"
#include "base/table.h"

/* Dice as written in a table: n d sides + plus ("2d4", "1d6+1"); sides 0
 * for a plain number n. */
typedef struct cb_dice {
  int n, sides, plus;
} cb_dice;

/* A line in its long form (the booklet) and its short form (the sheet),
 * written "long ~ short"; brief == text when the line is short already. */
typedef struct cb_text {
  const char *text, *brief;
} cb_text;

/* The longest line that needs no short form. */
enum { CB_THEME_SHORT = 72 };

/* A kind of monster, its stat line as at depth 1. */
typedef struct cb_theme_monster {
  const char *id, *singular, *plural;
  int ac;          /* descending; ascending is 19 - ac */
  int hd, hd_plus; /* Hit Dice; hd 0 is 1/2 */
  const char *attacks, *damage, *move;
  int morale; /* 2..12 */
  cb_dice count;
  cb_text about;
  int ndoing;
  cb_text *doing;
  int line; /* for messages */
} cb_theme_monster;

/* A trap or a hazard of a room kind, or a trap on a passage. */
typedef struct cb_theme_trap {
  cb_text trigger, effect;
  const char *tell;
  bool hazard;
} cb_theme_trap;

/* Who may be found in a room kind. */
enum { CB_WHO_FACTION = 1, CB_WHO_RIVAL = 2, CB_WHO_BEASTS = 4 };
/* What a room kind may serve as. */
typedef enum { CB_ROLE_ANY, CB_ROLE_ENTRANCE, CB_ROLE_GOAL } cb_theme_role;

typedef struct cb_theme_room {
  int nnames, ndressing, ntraps, nspecials, ntreasure;
  const char **names;
  cb_text *dressing;
  cb_theme_trap *traps;
  cb_text *specials;
  const char **treasure; /* objects that fit the room; values by depth */
  unsigned who;          /* CB_WHO_* bits */
  cb_theme_role role;
  int line;
} cb_theme_room;

/* Who holds the place: the power (one faction, with a rival at odds or
 * none), its leader the boss, its members and the beasts or dead that fit,
 * and the hooks written from them. Indices are into the theme's monsters. */
typedef struct cb_theme_situation {
  cb_text power, rival_power; /* rival_power.text NULL: no rival */
  int boss;
  int nfaction, nrival, nbeasts, nhooks;
  int *faction, *rival, *beasts;
  cb_text (*hooks)[2];
  int line;
} cb_theme_situation;

typedef struct cb_theme_goal {
  const char *name; /* "the reliquary of Saint Ysolde": the hook names it */
  cb_text about;
} cb_theme_goal;

/* Theme-wide lists of simple rows. */
typedef enum {
  CB_LIST_TITLE_A,
  CB_LIST_TITLE_B,
  CB_LIST_MAGIC,
  CB_LIST_ENTRANCE,
  CB_LIST_LOCK,      /* the lock ~ short | the key object */
  CB_LIST_SOFT_LOCK, /* what holds the way ~ short | how it is passed ~ short */
  CB_LIST_SECRET,    /* how it is hidden ~ short | how it is found */
  CB_LIST_COUNT
} cb_theme_list;

typedef struct cb_theme {
  cb_table table;
  const char *name, *about;
  int nmonsters, nrooms, nsituations, ngoals, ndoor_traps;
  cb_theme_monster *monsters;
  cb_theme_room *rooms;
  cb_theme_situation *situations;
  cb_theme_goal *goals;
  cb_theme_trap *door_traps;
  int nlist[CB_LIST_COUNT];
  cb_text (*list[CB_LIST_COUNT])[2]; /* per row: its first and second field */
  void *mem;                         /* everything above, freed at once */
} cb_theme;

/* Reads a theme: `name` is a shipped theme ("crypt", in
 * templates/themes/) or a path (with a '/' or ending in ".txt").
 * CB_EINPUT with "file:line: ..." on a bad row, "file: ..." when the theme
 * lacks something whole, and a message saying so for a theme of the old
 * format. Free with cb_theme_free (also after a failure). */
cb_status cb_theme_read(const char *name, cb_theme *t, cb_error *err);
/* The same for text in memory (the fuzz harness); name is for messages. */
cb_status cb_theme_parse(const char *text, size_t len, const char *name, cb_theme *t, cb_error *err);
void cb_theme_free(cb_theme *t);

/* Themes read before, by name: a batch stocks every dungeon (and each twice:
 * its pages counted, then drawn) from the same few files. Owned by the
 * caller, one a thread; NULL when out of memory. */
typedef struct cb_theme_shelf cb_theme_shelf;
cb_theme_shelf *cb_theme_shelf_new(void);
void cb_theme_shelf_free(cb_theme_shelf *s);
/* The theme `name` into *t: the shelf's, read at its first asking (s NULL:
 * read into *own, which the caller frees with cb_theme_free either way). As
 * cb_theme_read; a theme that fails is not kept. */
cb_status cb_theme_shelf_get(cb_theme_shelf *s, const char *name, cb_theme *own, const cb_theme **t,
                             cb_error *err);

/* The shipped themes' names, in a fixed order; *n gets their count. */
const char *const *cb_theme_shipped(int *n);

/* Parses dice ("2d4", "1d6+1", "3"); 0 when the text is not dice. */
int cb_dice_parse(const char *s, cb_dice *out);

/* Every room name a theme can give, counted over its room kinds. */
int cb_theme_names(const cb_theme *t);

#endif
