/* The dungeon model every generator fills and every later stage reads
 * (../shared/spec/model.md). Ownership: a cb_dungeon owns an arena; every
 * room, passage, string and procedure artefact reachable from it lives in
 * that arena and is freed by cb_dungeon_free. Rooms are kept in ascending id
 * order and passages in ascending id order. */
#ifndef CB_DUNGEON_H
#define CB_DUNGEON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"

/* The longest words a dungeon holds, in bytes: what the JSON reader accepts,
 * so the theme reader and the writers keep to them (what we write, we read).
 * A name: a title, a theme's, a room's, a monster's, a level's; a line: a
 * dressing, a doing, a hook line, a trap's part, a special, a treasure; a
 * text: a passage's note or a room's text; a monster's Hit Dice. */
enum { CB_TEXT_NAME = 200, CB_TEXT_LINE = 1000, CB_TEXT_NOTE = 4096, CB_TEXT_HD = 16 };
/* The longest value an option recorded in the JSON may have: a table's path
 * (the command line takes none longer, e.g. --theme 4,000 bytes). */
enum { CB_TEXT_OPTION = 4096 };

typedef enum {
  CB_TAG_ENTRANCE = 1u << 0,
  CB_TAG_START = 1u << 1,
  CB_TAG_MAIN_START = 1u << 2,
  CB_TAG_GOAL = 1u << 3,
  CB_TAG_BOSS = 1u << 4,
  CB_TAG_ENCOUNTER = 1u << 5,
  CB_TAG_TREASURE = 1u << 6,
  CB_TAG_KEY = 1u << 7,
  CB_TAG_SURFACE_EXIT = 1u << 8,
  CB_TAG_UNREACHABLE = 1u << 9
} cb_tag;
enum { CB_TAG_COUNT = 10 };

typedef enum {
  CB_PASSAGE_DOOR,
  CB_PASSAGE_OPEN,
  CB_PASSAGE_CORRIDOR,
  CB_PASSAGE_TUNNEL,
  CB_PASSAGE_STAIRS,
  CB_PASSAGE_LADDER,
  CB_PASSAGE_PORTAL
} cb_passage_kind;
enum { CB_PASSAGE_KIND_COUNT = 7 };

typedef enum {
  CB_FLAG_SECRET = 1u << 0,
  CB_FLAG_LOCKED = 1u << 1,
  CB_FLAG_SOFT_LOCKED = 1u << 2,
  CB_FLAG_TRAPPED = 1u << 3,
  CB_FLAG_OBSTRUCTED = 1u << 4,
  CB_FLAG_ONE_WAY = 1u << 5,
  CB_FLAG_CONCEALED = 1u << 6,
  CB_FLAG_UNDER = 1u << 7,
  CB_FLAG_OVER = 1u << 8,
  CB_FLAG_DEAD_END = 1u << 9
} cb_passage_flag;
enum { CB_FLAG_COUNT = 10 };

/* No value: rooms without a die or card, passages without a length. */
#define CB_NO_VALUE (-1)

/* What stocking puts in a room (spec/stocking.md); strings in the arena. */
typedef struct cb_monster {
  const char *name; /* plural when count > 1 */
  int count;
  const char *hd;          /* Hit Dice as written: "2", "1+1", "1/2" */
  const char *doing;       /* what they are doing, or NULL */
  const char *doing_short; /* the sheet's form of doing, or NULL: doing */
  int kind;                /* index into the dungeon's roster, -1: none (crawlbook/2) */
} cb_monster;
/* A kind of monster met in the dungeon, its stat line at the dungeon's depth. */
typedef struct cb_roster_entry {
  const char *name, *plural;
  int ac;         /* descending; ascending is 19 - ac */
  const char *hd; /* "3+1", "1/2" */
  const char *attacks, *damage, *move, *about;
  int morale; /* 2..12 */
} cb_roster_entry;
typedef struct cb_trap {
  const char *trigger, *effect, *tell;
  const char *trigger_short, *effect_short; /* the sheet's forms, or NULL */
} cb_trap;
typedef struct cb_treasure {
  const char *what;
  int value; /* gp; 0: no price (a key, a magic item) */
} cb_treasure;
typedef struct cb_contents {
  const char *name, *dressing;                /* NULL when absent */
  const char *dressing_short, *special_short; /* the sheet's forms, or NULL: the long ones */
  int nmonsters, ntreasure;
  cb_monster *monsters;
  cb_trap *trap;       /* NULL: none */
  const char *special; /* NULL: none */
  cb_treasure *treasure;
} cb_contents;

typedef struct cb_room {
  int id;           /* unique, >= 1: the number printed on the map and in the key */
  int level;        /* a cb_level id */
  int number;       /* number within its level where levels number their own; else id */
  double x, y;      /* map position in feet; y grows downwards (south) */
  unsigned tags;    /* cb_tag bits */
  int value;        /* die value, card rank, or CB_NO_VALUE */
  const char *card; /* "9S", "JK", or NULL */
  const char *text; /* the content line, or NULL */
  int nkeys;
  const char **keys;     /* key ids found here, e.g. "K1" */
  cb_contents *contents; /* stocking's contents, or NULL (crawlbook/1) */
} cb_room;

typedef struct cb_passage {
  int id;
  int from, to; /* room ids; to == 0 is a way out of the dungeon */
  cb_passage_kind kind;
  unsigned flags;         /* cb_passage_flag bits */
  const char *lock;       /* with CB_FLAG_LOCKED: the key that opens it */
  double length_ft;       /* CB_NO_VALUE when the procedure gives none */
  const char *note;       /* stocking: what the lock, trap or secret is, or NULL */
  const char *note_short; /* the sheet's form of note, or NULL: note */
} cb_passage;

typedef struct cb_level {
  int id;
  const char *name;
} cb_level;

/* An option that shaped the dungeon, as the user would type it. */
typedef struct cb_option {
  const char *name;  /* long option name without dashes, e.g. "rooms" */
  const char *value; /* its value as text */
  bool number;       /* value is a number in JSON */
  bool flag;         /* an option without a value (--faithful): true in JSON */
} cb_option;

/* A pair of room ids (edges of a mesh or a tree). */
typedef struct cb_pair {
  int a, b;
} cb_pair;

/* What a procedure's mark on a room (a card, say) tells stocking beyond the
 * room's tags (cb_dungeon.room_rules). */
typedef struct cb_room_word {
  int more;        /* more monsters in its encounter's group */
  bool tough;      /* a tougher kind of monster */
  bool no_monster; /* its encounter holds no monster */
  bool trap;       /* a trap */
  bool wonder;     /* a special */
} cb_room_word;

typedef struct cb_dungeon {
  cb_arena *arena;
  const char *generator;
  uint64_t seed;
  const char *title;
  int nlevels, nrooms, npassages, noptions, nlog;
  size_t cap_levels, cap_rooms, cap_passages, cap_options, cap_log;
  cb_level *levels;
  cb_room *rooms;
  cb_passage *passages;
  cb_option *options;
  const char **log;
  /* The generator's own artefacts (model.md "procedure"), or NULL: their type
   * is known only to the generator's folder (src/proc/<name>/proc.h), arena-owned. */
  void *procedure;
  double room_ft;   /* a room's size on the map in feet (a dropped die), 0: none */
  bool marks_rooms; /* the procedure marks what is in rooms (stocking: its word stands) */
  /* the procedure's room rules, from its registry row (cb_generator's
   * room_rules, handed over by the frame that made d); NULL: nothing more */
  void (*room_rules)(const cb_room *r, cb_room_word *w);
  bool players; /* the players' view (model/view.c): drawings that show secrets stay out */
  /* Stocking (spec/stocking.md); theme NULL: not stocked (crawlbook/1). */
  const char *theme; /* the theme's display name */
  int depth;         /* 1..10 */
  const char *hook[2];
  const char *hook_short[2]; /* the sheet's forms, or NULL: hook */
  int nroster;               /* the kinds of monster met (crawlbook/3) */
  cb_roster_entry *roster;
  const char *boss_name, *goal_name; /* NULL: none named */
  int boss_room, goal_room;          /* room ids, 0: none */
  int nwandering;                    /* 0 or 6 */
  cb_monster *wandering;             /* the d6 wandering-monster table */
  bool oom;                          /* an allocation failed: the dungeon is incomplete */
} cb_dungeon;

/* A new empty dungeon; NULL when out of memory. Free with cb_dungeon_free. */
cb_dungeon *cb_dungeon_new(const char *generator, uint64_t seed);
void cb_dungeon_free(cb_dungeon *d);

/* The adders return the new element (inside the dungeon, valid until the
 * next add of the same kind) or NULL when out of memory, which also sets
 * d->oom. Strings are copied into the arena. */
cb_level *cb_dungeon_add_level(cb_dungeon *d, int id, const char *name);
/* Adds a room with the next id (nrooms + 1), number == id, no tags and value
 * CB_NO_VALUE. */
cb_room *cb_dungeon_add_room(cb_dungeon *d, int level, double x, double y);
/* Adds a room with a given id; ids must be added in ascending order. */
cb_room *cb_dungeon_add_room_id(cb_dungeon *d, int id, int level, double x, double y);
/* Adds a passage with the next id (npassages + 1), no flags, no length. */
cb_passage *cb_dungeon_add_passage(cb_dungeon *d, int from, int to, cb_passage_kind kind);
int cb_dungeon_add_key(cb_dungeon *d, cb_room *room, const char *key);
/* Takes key `key` out of the room (the key tag goes with the last key). */
void cb_dungeon_remove_key(cb_room *room, const char *key);
int cb_dungeon_set_option(cb_dungeon *d, const char *name, const char *value, bool number);
/* Records an option without a value, such as --faithful. */
int cb_dungeon_set_flag(cb_dungeon *d, const char *name);
int cb_dungeon_set_title(cb_dungeon *d, const char *title);
/* Calls fn(ctx, where, text) for each text of d a page may print (where
 * says which, e.g. "room 5's name"), in order, until fn returns non-zero;
 * returns that, else 0. */
typedef int (*cb_text_fn)(void *ctx, const char *where, const char *text);
int cb_dungeon_each_text(const cb_dungeon *d, cb_text_fn fn, void *ctx);
/* Generators log a line per room or step only up to this many rooms; above it, sums. */
#define CB_LOG_DETAIL_ROOMS 200
/* The longest text a dungeon keeps in a log line or a passage's note, in
 * bytes: what the JSON reader takes back. */
enum { CB_TEXT_MAX = CB_TEXT_NOTE };
/* Appends a line to the procedure log; a longer line than CB_TEXT_MAX is
 * cut between two characters and ends with an ellipsis. */
int cb_dungeon_log(cb_dungeon *d, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Room by id (binary search), NULL when absent. */
cb_room *cb_dungeon_room(const cb_dungeon *d, int id);
/* Passage by id (binary search), NULL when absent (a players' view keeps the
 * ids of the passages it shows). */
cb_passage *cb_dungeon_passage(const cb_dungeon *d, int id);
/* The room holding key `key`, NULL when none. */
const cb_room *cb_dungeon_key_room(const cb_dungeon *d, const char *key);
/* Per passage, the index of the room holding its lock's key (the first such
 * room, as cb_dungeon_key_room finds it), -1 for none or no lock: one pass
 * over the keys, for dungeons with thousands of locks. When dup_room is given
 * it gets the index of the first room holding a key an earlier room (or an
 * earlier slot of its own) holds too, *dup_key that key; -1 and NULL when
 * none. NULL on OOM; free() the result. */
int *cb_dungeon_lock_key_rooms(const cb_dungeon *d, int *dup_room, const char **dup_key);

/* Names as model.md spells them, and the reverse look-ups (-1 when unknown). */
const char *cb_tag_name(cb_tag tag);
int cb_tag_parse(const char *name); /* returns the cb_tag bit */
const char *cb_passage_kind_name(cb_passage_kind kind);
int cb_passage_kind_parse(const char *name);
const char *cb_flag_name(cb_passage_flag flag);
int cb_flag_parse(const char *name); /* returns the cb_passage_flag bit */
/* The index of name in names[0..n), -1 when absent: the parsers above. */
int cb_name_find(const char *const *names, int n, const char *name);

/* Grows an arena-backed array (see the cap_* fields); 0 or -1. */
int cb_arena_grow(cb_arena *a, void *items, size_t *cap, size_t need, size_t elem);

#endif
