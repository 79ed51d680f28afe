/* cards (Cardtography, seed 000) procedure artefacts (model.md "procedure"):
 * the grid with its mask, every dealt card (kept or removed), the entrance,
 * and every turn of 3d6 with what each die decided. All arena-allocated with
 * the dungeon. Columns and rows count from 1; row 1 is the top row. */
#ifndef CB_PROC_CARDS_H
#define CB_PROC_CARDS_H

#include "model/dungeon.h"
#include "proc/proc.h"

/* What one die of a turn decided. */
typedef enum {
  CB_DIE_DOOR,         /* a door into a face-down card */
  CB_DIE_ENTRY,        /* the door the card was entered by (or the way out) */
  CB_DIE_OUT,          /* out of the dungeon: ignored */
  CB_DIE_SURFACE,      /* a doubled die out of the dungeon: a hidden passage to the surface */
  CB_DIE_EXISTING,     /* a door already there */
  CB_DIE_REDISCOVERED, /* into an explored card without a door to this one (per --rediscovered) */
  CB_DIE_IGNORED       /* a repeated value (doubles, triples), or a rediscovered door under 'ignore' */
} cb_die_result;
enum { CB_DIE_RESULT_COUNT = 7 };

/* Variation 4: what a door made by a doubled die is (d4), or none. */
typedef enum {
  CB_OBSTACLE_NONE,
  CB_OBSTACLE_TRAPPED,
  CB_OBSTACLE_LOCKED,
  CB_OBSTACLE_JAMMED,
  CB_OBSTACLE_OBSTRUCTED
} cb_obstacle;
enum { CB_OBSTACLE_COUNT = 5 };

typedef struct cb_card_cell {
  int col, row, level;
  const char *card; /* "9S", "JK" */
  int room;         /* the room it became, 0 when removed */
} cb_card_cell;

typedef struct cb_card_turn {
  int room, col, row, level;
  int dice[3];
  cb_die_result results[3];
  cb_obstacle obstacles[3]; /* per die, CB_OBSTACLE_NONE unless variation 4 made one */
  int lengths[3];           /* the length die per door made (--lengths), 0 when none */
  int nrerolls;
  int (*rerolls)[3]; /* earlier rolls of this turn thrown again (dull-dungeon repair) */
} cb_card_turn;

typedef struct cb_card_stairs {
  int from, to; /* room ids: the matching card above, the stair foot below */
} cb_card_stairs;

typedef struct cb_cards_proc {
  int w, h;          /* grid size in cells */
  const char **mask; /* h rows of w characters: '#' a cell, '.' none */
  double cell_ft;    /* a cell's width and height in feet */
  int entrance_col, entrance_row;
  int deals; /* how many deals it took (1 unless dull deals were dealt again) */
  int ncells, nturns, nstairs;
  cb_card_cell *cells;
  cb_card_turn *turns;
  cb_card_stairs *stairs;
} cb_cards_proc;

/* Its room rules for stocking (cb_dungeon.room_rules), the card's word:
 * diamonds easy or moderate, hearts tough (more of them), a high value a
 * tougher kind; black cards no monster; face cards a trap (red) or a wonder
 * (black). */
void cb_cards_room_rules(const cb_room *r, cb_room_word *w);

const char *cb_die_result_name(cb_die_result r);
int cb_die_result_parse(const char *name);
const char *cb_obstacle_name(cb_obstacle o); /* NULL for none */
int cb_obstacle_parse(const char *name);

/* The artefacts of a dungeon cards made or read, or NULL (d->procedure). */
static inline cb_cards_proc *cb_cards_of(const cb_dungeon *d) { return d->procedure; }

/* cards's own options, from its rows (options.c); zero is the default. */
/* decks shuffled together (2,000 decks deal a 100,000-card sprawl) */
enum { CB_CARDS_MAX_DECKS = 2000 };
/* How a die into an explored, unconnected card is read. */
typedef enum {
  CB_REDISCOVERED_DOOR,
  CB_REDISCOVERED_IGNORE,
  CB_REDISCOVERED_ONE_WAY,
  CB_REDISCOVERED_CONCEALED
} cb_rediscovered;
/* Strings are borrowed. */
typedef struct cb_cards_options {
  cb_option_size grid;  /* 0: 5x5 */
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
/* o's own options for cards: the record o points to, or the defaults. */
static inline const cb_cards_options *cb_cards_options_of(const cb_gen_options *o) {
  static const cb_cards_options defaults;
  return o->own ? (const cb_cards_options *)o->own : &defaults;
}

/* Its row in the registry (generate.c) and its artefacts in JSON (json.c). */
extern const cb_generator cb_gen_cards;
/* Its options (options.c). */
extern const cb_option_set cb_cards_option_specs;
extern const struct cb_proc_io cb_proc_io_cards;

#endif
