#include "alloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* per thread: a test that makes allocations fail counts its own thread's */
static _Thread_local long fail_after = -1, fail_once = -1;
static _Thread_local unsigned long count;

void cb_alloc_fail_after(long n) { fail_after = n; }
void cb_alloc_fail_once(long n) { fail_once = n; }
unsigned long cb_alloc_count(void) { return count; }

static int should_fail(void) {
  count++;
  if (fail_once >= 0 && fail_once-- == 0) return 1;
  if (fail_after < 0) return 0;
  if (fail_after == 0) return 1;
  fail_after--;
  return 0;
}

void *cb_malloc(size_t size) { return should_fail() ? NULL : malloc(size ? size : 1); }

void *cb_calloc(size_t n, size_t size) { return should_fail() ? NULL : calloc(n ? n : 1, size ? size : 1); }

void *cb_realloc(void *p, size_t size) { return should_fail() ? NULL : realloc(p, size ? size : 1); }

int cb_grow(void *items, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap) return 0;
  size_t n = *cap ? *cap : 8;
  while (n < need) {
    if (n > SIZE_MAX / 2) return -1;
    n *= 2;
  }
  if (n > SIZE_MAX / elem) return -1;
  void **pp = items;
  void *p = cb_realloc(*pp, n * elem);
  if (!p) return -1;
  *pp = p;
  *cap = n;
  return 0;
}
