/* A string hash for open-addressed tables (FNV-1a): continue from h, or
 * start from CB_HASH_START. */
#ifndef CB_HASH_H
#define CB_HASH_H

#include <stdint.h>

#define CB_HASH_START 2166136261u

static inline uint32_t cb_hash_str(uint32_t h, const char *s) {
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 16777619u;
  return h;
}

#endif
