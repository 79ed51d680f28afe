/* Internal to src/stock: the stocker's state, shared by stock.c (rooms,
 * passages, the whole dungeon's words) and depth.c (the depth tables:
 * encounters, stat lines, treasure). */
#ifndef CB_STOCKER_H
#define CB_STOCKER_H

#include <stdbool.h>

#include "model/dungeon.h"
#include "model/rng.h"
#include "theme.h"

/* A list's rows dealt like a deck: no row comes twice before all have come. */
typedef struct cb_deck {
  int *order;
  int n, next;
} cb_deck;

typedef struct cb_stocker {
  cb_dungeon *d;
  const cb_theme *t;
  /* words: which names, texts and kinds (the same at every depth); numbers:
   * how many, how strong, how much (drawn again for each depth) */
  cb_rng words, numbers;
  int depth;
  bool marks; /* the procedure marks rooms (a card, a die): its word stands */
  const cb_theme_situation *sit;
  const cb_theme_goal *goal;
  cb_deck lists[CB_LIST_COUNT], door_traps;
  int *room_kind;                                /* per room of the dungeon: its theme room kind */
  int *names_used, *dress;                       /* per theme room kind: names dealt, dressing dealt */
  int *dress_at;                                 /* per theme room kind: its first dressing line */
  int *traps_used, *specials_used, *doings_used; /* per kind, per monster */
  int *roster_of;                                /* per theme monster: roster index, -1 */
  int round;                                     /* 0; 1 once every room name is used ("Second ...") */
} cb_stocker;

/* Deals the next row of a deck over n rows (words stream). */
int cb_stocker_deal(cb_stocker *s, cb_deck *dk);

/* The encounter level of a group at the stocker's depth plus `extra`
 * levels (numbers stream), and how many of kind m come at that level. */
int cb_stocker_count(cb_stocker *s, const cb_theme_monster *m, int extra);

/* Theme monster m's roster entry at the stocker's depth, added on first
 * use; its index, -1 on OOM. */
int cb_stocker_roster(cb_stocker *s, int m, bool boss);

/* Treasure of a room at the stocker's depth after the classic table:
 * `hoard` for the goal. 0, or -1 on OOM. */
int cb_stocker_treasure(cb_stocker *s, cb_contents *c, const cb_theme_room *kind, bool hoard);

/* Adds one treasure to c. */
int cb_stocker_add_treasure(cb_stocker *s, cb_contents *c, const char *what, int value);

#endif
