/* A binary min-heap of fixed-size items, ordered by the caller's less(). */
#ifndef CB_HEAP_H
#define CB_HEAP_H

#include <stddef.h>

/* Nonzero when a comes before b; ctx is the heap's, so keys may live outside
 * the items (and may change between calls: they are read at each compare). */
typedef int (*cb_heap_less)(const void *a, const void *b, void *ctx);

typedef struct cb_heap {
  unsigned char *items;
  size_t size, n, cap; /* bytes an item, items held, items room is kept for */
  cb_heap_less less;
  void *ctx;
} cb_heap;

cb_heap cb_heap_make(size_t size, cb_heap_less less, void *ctx);
/* Room for cap items, so that pushes up to it cannot fail; -1 when out of memory. */
int cb_heap_reserve(cb_heap *h, size_t cap);
/* Adds a copy of *item (which must not lie in the heap); -1 when out of memory. */
int cb_heap_push(cb_heap *h, const void *item);
/* Moves the first item to *out; the heap must not be empty. Equal items come
 * out in no promised order, but always the same one for the same pushes. */
void cb_heap_pop(cb_heap *h, void *out);
void cb_heap_free(cb_heap *h);

#endif
