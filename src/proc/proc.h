/* The generators: one procedure each, behind one interface. A generator reads
 * its options, rolls every die from one seeded stream, and returns a new
 * dungeon (the caller frees it with cb_dungeon_free). */
#ifndef CB_GENERATOR_H
#define CB_GENERATOR_H

#include <stdbool.h>
#include <stdint.h>

#include "base/error.h"
#include "model/dungeon.h"
#include "model/title.h"
#include "proc/option.h"

enum { CB_MAX_FLEET = 64 };
/* cards: decks shuffled together (2,000 decks deal a 100,000-card sprawl) */
enum { CB_CARDS_MAX_DECKS = 2000 };

typedef enum { CB_EXTRA_BY_TREE, CB_EXTRA_BY_LENGTH } cb_extra_by;

/* cards (Cardtography): how a die into an explored, unconnected card is read. */
typedef enum {
  CB_REDISCOVERED_DOOR,
  CB_REDISCOVERED_IGNORE,
  CB_REDISCOVERED_ONE_WAY,
  CB_REDISCOVERED_CONCEALED
} cb_rediscovered;
/* cards options; zero means the default. Strings are borrowed. */
typedef struct cb_cards_options {
  int grid_w, grid_h;   /* 0: 5x5 */
  const char *shape;    /* "rect" (NULL), "oval" or a mask file */
  const char *entrance; /* "bottom" (NULL), "top", "centre" or "C,R" */
  int decks;            /* 0: 1 */
  bool jokers;
  bool sprawl; /* deal as needed on an unbounded grid, up to --rooms */
  cb_rediscovered rediscovered;
  bool plain_doubles;  /* --no-doubles-obstructed: variation 4 off */
  int min_rooms;       /* 0: 5 (1 keeps every deal) */
  const char *content; /* content table (NULL: templates/cards-contents.txt) */
  bool lengths;        /* roll a connection length per door */
  int length_unit;     /* feet per pip, 0: 10 */
} cb_cards_options;

/* Options of every generator; each reads the ones it knows. */
typedef struct cb_gen_options {
  uint64_t seed;
  int rooms;            /* 0: the generator's default */
  int levels;           /* 0: the generator's default */
  bool faithful;        /* the seed's procedure exactly, without our repairs */
  cb_extra_by extra_by; /* dropdice: how extra paths are ranked */
  bool ladders;         /* preconnect: odd crossing rolls put ladders, not stairs */
  const char *title;    /* NULL: the generator names the dungeon */
  /* battleships */
  int grid;  /* rooms per level, the grid is grid x grid; 0: default 10 */
  int extra; /* extra white pegs per grid, with extra_set; else 3 */
  bool extra_set;
  int extra_stairs; /* more level links per pair of levels */
  bool secret_rows, matching_stairs;
  int nfleet;              /* 0: the classic fleet, scaled */
  int fleet[CB_MAX_FLEET]; /* ship lengths */
  cb_cards_options cards;
  /* leximorph */
  int sector_cols, sector_rows;                    /* 0: 2x2 */
  int sector_ft;                                   /* 0: 240 */
  bool no_rotate;                                  /* the letters stay upright (no d4) */
  const char *letters, *junctions, *walls, *doors; /* tables (name in templates/ or a path); NULL: ours */
} cb_gen_options;

typedef struct cb_generator {
  const char *name;
  const char *summary; /* one line for --help */
  int default_rooms, max_rooms;
  /* Checks the options before anything is rolled; CB_EINPUT with a message. */
  cb_status (*validate)(const cb_gen_options *opts, cb_error *err);
  cb_status (*generate)(const cb_gen_options *opts, cb_dungeon **out, cb_error *err);
  const char *what;                     /* the sheet's subtitle: "A Cardtography dungeon" */
  const struct cb_proc_io *io;          /* its artefacts in JSON (io/json_util.h) */
  const struct cb_layout_hooks *layout; /* what it draws beyond the generic sheet, or NULL */
  const cb_option_set *options;         /* its own options, and the common ones it records */
} cb_generator;

#endif
