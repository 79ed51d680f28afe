#include "heap.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"

#define AT(h, i) ((h)->items + (i) * (h)->size)

cb_heap cb_heap_make(size_t size, cb_heap_less less, void *ctx) {
  return (cb_heap){.size = size, .less = less, .ctx = ctx};
}

int cb_heap_reserve(cb_heap *h, size_t cap) { return cb_grow(&h->items, &h->cap, cap, h->size); }

int cb_heap_push(cb_heap *h, const void *item) {
  if (cb_grow(&h->items, &h->cap, h->n + 1, h->size)) return -1;
  size_t i = h->n++;
  while (i > 0 && h->less(item, AT(h, (i - 1) / 2), h->ctx)) {
    memcpy(AT(h, i), AT(h, (i - 1) / 2), h->size);
    i = (i - 1) / 2;
  }
  memcpy(AT(h, i), item, h->size);
  return 0;
}

void cb_heap_pop(cb_heap *h, void *out) {
  memcpy(out, AT(h, 0), h->size);
  /* the last item stays in its slot while it sifts down the hole: nothing below n is written there */
  const unsigned char *last = AT(h, --h->n);
  size_t i = 0;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= h->n) break;
    if (c + 1 < h->n && h->less(AT(h, c + 1), AT(h, c), h->ctx)) c++;
    if (!h->less(AT(h, c), last, h->ctx)) break;
    memcpy(AT(h, i), AT(h, c), h->size);
    i = c;
  }
  if (h->n > 0) memcpy(AT(h, i), last, h->size);
}

void cb_heap_free(cb_heap *h) {
  free(h->items);
  *h = (cb_heap){0};
}
