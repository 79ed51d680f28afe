/* A bump allocator for per-dungeon and per-page data: everything allocated
 * from an arena is freed at once by cb_arena_free. */
#ifndef CB_ARENA_H
#define CB_ARENA_H

#include <stddef.h>

typedef struct cb_arena cb_arena;

/* Creates an empty arena; NULL when out of memory. Free it with cb_arena_free. */
cb_arena *cb_arena_new(void);
void cb_arena_free(cb_arena *a);

/* Zeroed memory aligned for any type, owned by the arena; NULL when out of
 * memory or when n * size overflows. */
void *cb_arena_alloc(cb_arena *a, size_t n, size_t size);
/* A copy of s (or of its first len bytes, NUL added) owned by the arena. */
char *cb_arena_strdup(cb_arena *a, const char *s);
char *cb_arena_strndup(cb_arena *a, const char *s, size_t len);
/* printf into arena memory. */
char *cb_arena_printf(cb_arena *a, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Bytes handed out so far (for tests and the benchmark). */
size_t cb_arena_used(const cb_arena *a);

#endif
