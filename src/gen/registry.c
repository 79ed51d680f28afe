#include <string.h>

#include "../model/rng.h"
#include "generator.h"

/* One generator per line, in --help order. */
static const cb_generator *const generators[] = {
    &cb_gen_dropdice,
    &cb_gen_cards,
    &cb_gen_battleships,
    &cb_gen_leximorph,
    &cb_gen_preconnect,
};

const cb_generator *cb_generator_find(const char *name) {
  for (size_t i = 0; name && i < sizeof generators / sizeof *generators; i++)
    if (strcmp(generators[i]->name, name) == 0) return generators[i];
  return NULL;
}

const cb_generator *const *cb_generator_list(int *n) {
  *n = (int)(sizeof generators / sizeof *generators);
  return generators;
}

enum { CB_STREAM_TITLE = 0x7469746c };

const char *cb_gen_title(cb_dungeon *d, const char *noun) {
  static const char *const adjectives[] = {"Sunken", "Howling", "Forgotten", "Drowned", "Crooked",
                                           "Whispering", "Ashen",  "Hollow",    "Gilded",  "Shattered",
                                           "Weeping",   "Silent",  "Iron",      "Bone",    "Lantern"};
  static const char *const owners[] = {"the Mole King", "the Pale Abbot", "Seven Candles", "the Last Ogre",
                                       "the Moth Queen", "Old Barrow",    "the Red Friar", "the Toad Oracle",
                                       "the Lost Legion", "the Glass Witch", "Mother Grub", "the Dice God"};
  cb_rng r;
  cb_rng_seed(&r, d->seed, CB_STREAM_TITLE);
  const char *adj = adjectives[cb_rng_below(&r, sizeof adjectives / sizeof *adjectives)];
  const char *own = owners[cb_rng_below(&r, sizeof owners / sizeof *owners)];
  return cb_arena_printf(d->arena, "The %s %s of %s", adj, noun, own);
}
