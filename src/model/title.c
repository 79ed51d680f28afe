#include "title.h"

#include "base/arena.h"

/* A title from the seed: 40 x 40 pairs, and consecutive seeds (a batch)
 * never repeat one within 1,600: the pair is seed mod 1600 times a number
 * prime to 1600, so the order looks drawn but is a permutation. */
const char *cb_gen_title(cb_dungeon *d, const char *noun) {
  static const char *const adjectives[] = {
      "Sunken",    "Howling",   "Forgotten", "Drowned", "Crooked",   "Whispering", "Ashen",   "Hollow",
      "Gilded",    "Shattered", "Weeping",   "Silent",  "Iron",      "Bone",       "Lantern", "Rotten",
      "Frozen",    "Burning",   "Buried",    "Moonlit", "Screaming", "Salt",       "Gloomy",  "Tangled",
      "Crumbling", "Flooded",   "Starless",  "Haunted", "Copper",    "Painted",    "Singing", "Sleeping",
      "Bleeding",  "Mossy",     "Smoking",   "Thorned", "Umber",     "Velvet",     "Wormy",   "Yawning"};
  static const char *const owners[] = {"the Mole King",      "the Pale Abbot",
                                       "Seven Candles",      "the Last Ogre",
                                       "the Moth Queen",     "Old Barrow",
                                       "the Red Friar",      "the Toad Oracle",
                                       "the Lost Legion",    "the Glass Witch",
                                       "Mother Grub",        "the Dice God",
                                       "the Hanged Baron",   "the Blind Cartographer",
                                       "the Owl Bishop",     "the Rat Council",
                                       "Saint Ormund",       "the Brass Golem",
                                       "the Widow Hest",     "the Goblin Mint",
                                       "the Sleeping Wyrm",  "the Beggar Prince",
                                       "the Salt Hag",       "the Ninth Knight",
                                       "the Candle Thief",   "the Frog Duchess",
                                       "Grandfather Moss",   "the Silver Leech",
                                       "the Ember Court",    "the Drowned Choir",
                                       "the Worm Prophet",   "the Iron Abbess",
                                       "the Jackdaw Lord",   "the Fungus Magus",
                                       "the Twin Hermits",   "the Veiled Jester",
                                       "the Gnoll Khan",     "the Weeping Bell",
                                       "the Stone Shepherd", "the Eel Empress"};
  enum { A = sizeof adjectives / sizeof *adjectives, O = sizeof owners / sizeof *owners };
  _Static_assert(A * O == 1600, "the step below is prime to 1600");
  unsigned idx =
      (unsigned)((d->seed % (A * O)) * 1013u % (A * O)); /* 1013 is prime and does not divide 1600 */
  return cb_arena_printf(d->arena, "The %s %s of %s", adjectives[idx % A], noun, owners[idx / A]);
}
