#include "arena.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

typedef struct chunk {
  struct chunk *next;
  size_t size, used;
  max_align_t data[];
} chunk;

struct cb_arena {
  chunk *head;
  size_t total;
};

enum { CHUNK_MIN = 64 * 1024 };

cb_arena *cb_arena_new(void) { return cb_calloc(1, sizeof(cb_arena)); }

void cb_arena_free(cb_arena *a) {
  if (!a) return;
  for (chunk *c = a->head, *next; c; c = next) {
    next = c->next;
    free(c);
  }
  free(a);
}

void *cb_arena_alloc(cb_arena *a, size_t n, size_t size) {
  if (!a || (size && n > SIZE_MAX / size)) return NULL;
  size_t bytes = n * size;
  const size_t align = sizeof(max_align_t);
  if (bytes > SIZE_MAX - align) return NULL;
  bytes = (bytes + align - 1) / align * align;
  if (bytes == 0) bytes = align;
  chunk *c = a->head;
  if (!c || c->size - c->used < bytes) {
    size_t cap = bytes > CHUNK_MIN ? bytes : CHUNK_MIN;
    if (c && c->size * 2 > cap && c->size < 16u * 1024 * 1024) cap = c->size * 2;
    if (cap > SIZE_MAX - sizeof(chunk)) return NULL;
    chunk *nc = cb_malloc(sizeof(chunk) + cap);
    if (!nc) return NULL;
    nc->size = cap;
    nc->used = 0;
    /* A big one-off block goes behind the current chunk so its free space is kept. */
    if (c && bytes > CHUNK_MIN && c->size - c->used > CHUNK_MIN / 4) {
      nc->next = c->next;
      c->next = nc;
    } else {
      nc->next = c;
      a->head = nc;
    }
    c = nc;
  }
  void *p = (char *)c->data + c->used;
  c->used += bytes;
  a->total += bytes;
  memset(p, 0, bytes);
  return p;
}

char *cb_arena_strndup(cb_arena *a, const char *s, size_t len) {
  char *p = cb_arena_alloc(a, len + 1, 1);
  if (!p) return NULL;
  memcpy(p, s, len);
  p[len] = '\0';
  return p;
}

char *cb_arena_strdup(cb_arena *a, const char *s) { return s ? cb_arena_strndup(a, s, strlen(s)) : NULL; }

char *cb_arena_printf(cb_arena *a, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0) return NULL;
  char *p = cb_arena_alloc(a, (size_t)n + 1, 1);
  if (!p) return NULL;
  va_start(ap, fmt);
  vsnprintf(p, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return p;
}

size_t cb_arena_used(const cb_arena *a) { return a ? a->total : 0; }
