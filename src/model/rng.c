#include "rng.h"

void cb_rng_seed(cb_rng *r, uint64_t seed, uint64_t stream) {
  r->state = 0;
  r->inc = (stream << 1u) | 1u;
  cb_rng_next(r);
  r->state += seed;
  cb_rng_next(r);
}

uint32_t cb_rng_next(cb_rng *r) {
  uint64_t old = r->state;
  r->state = old * 6364136223846793005ULL + r->inc;
  uint32_t xorshifted = (uint32_t)(((old >> 18u) ^ old) >> 27u);
  uint32_t rot = (uint32_t)(old >> 59u);
  return (xorshifted >> rot) | (xorshifted << ((-rot) & 31u));
}

uint32_t cb_rng_below(cb_rng *r, uint32_t n) {
  if (n <= 1) return 0;
  uint32_t threshold = (uint32_t)(-n) % n;
  for (;;) {
    uint32_t x = cb_rng_next(r);
    if (x >= threshold) return x % n;
  }
}

int cb_rng_die(cb_rng *r, int n) { return n < 1 ? 1 : (int)cb_rng_below(r, (uint32_t)n) + 1; }

double cb_rng_unit(cb_rng *r) {
  uint64_t hi = cb_rng_next(r) >> 5, lo = cb_rng_next(r) >> 6;
  return (double)(hi * 67108864.0 + lo) / 9007199254740992.0;
}

void cb_rng_shuffle(cb_rng *r, int *items, int n) {
  for (int i = n - 1; i > 0; i--) {
    int j = (int)cb_rng_below(r, (uint32_t)i + 1);
    int t = items[i];
    items[i] = items[j];
    items[j] = t;
  }
}
