/* cards (Cardtography, seed 000): the generator's one extra entry point, for
 * replaying a worked example with the dice (and cards) given instead of
 * rolled, through the same steps as cb_gen_cards. */
#ifndef CB_GEN_CARDS_H
#define CB_GEN_CARDS_H

#include "proc/proc.h"

/* When the card at (col, row) of `level` is turned face up, its exits are
 * these dice instead of three rolled ones; `card` (e.g. "9S"), when not NULL,
 * is put in that cell when the level is dealt. */
typedef struct cb_cards_script {
  int level, col, row;
  const char *card;
  int dice[3];
} cb_cards_script;

/* Like cb_generator_run(&cb_gen_cards, ...) with n scripted turns (borrowed). */
cb_status cb_cards_generate_scripted(const cb_gen_options *o, const cb_cards_script *script, int n,
                                     cb_dungeon **out, cb_error *err);

/* A dial position's neighbour on the square grid: 1..6 = N, NE, SE, S, SW, NW
 * (row 1 at the top). */
void cb_cards_neighbour(int col, int row, int pos, int *ncol, int *nrow);

#endif
