/* The dice: a seeded PCG32 generator (O'Neill's pcg32_random_r), our own
 * code so that a seed gives the same dungeon on every platform. */
#ifndef CB_RNG_H
#define CB_RNG_H

#include <stdint.h>

typedef struct cb_rng {
  uint64_t state, inc;
} cb_rng;

/* Seeds a stream; streams with the same seed and different `stream` values
 * are independent (the dungeon and the cosmetic jitter use different ones). */
void cb_rng_seed(cb_rng *r, uint64_t seed, uint64_t stream);
uint32_t cb_rng_next(cb_rng *r);
/* Uniform in 0 .. n-1 without modulo bias; n >= 1. */
uint32_t cb_rng_below(cb_rng *r, uint32_t n);
/* One die with n sides: 1..n. */
int cb_rng_die(cb_rng *r, int n);
static inline int cb_d4(cb_rng *r) { return cb_rng_die(r, 4); }
static inline int cb_d6(cb_rng *r) { return cb_rng_die(r, 6); }
static inline int cb_d8(cb_rng *r) { return cb_rng_die(r, 8); }
static inline int cb_d10(cb_rng *r) { return cb_rng_die(r, 10); }
/* Uniform double in [0, 1) with 53 random bits. */
double cb_rng_unit(cb_rng *r);
/* Fisher-Yates shuffle of n ints. */
void cb_rng_shuffle(cb_rng *r, int *items, int n);

#endif
