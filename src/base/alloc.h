/* malloc and friends behind one door, so that tests can make the n-th
 * allocation fail (fault injection) and every caller's error path is tested. */
#ifndef CB_ALLOC_H
#define CB_ALLOC_H

#include <stddef.h>

void *cb_malloc(size_t size);
void *cb_calloc(size_t n, size_t size);
void *cb_realloc(void *p, size_t size);

/* Grows *items (of elem bytes each, *cap of them) so that it holds at least
 * need; returns 0 on success, -1 when out of memory (*items is kept). */
int cb_grow(void *items, size_t *cap, size_t need, size_t elem);

/* The three below count the calling thread's allocations only. */
/* Tests only: fail every allocation after the next n succeed; n < 0 turns
 * failure off. */
void cb_alloc_fail_after(long n);
/* Tests only: fail just the allocation after the next n (one failure in an
 * otherwise healthy run); n < 0 turns it off. */
void cb_alloc_fail_once(long n);
/* Tests only: allocations made through these functions so far. */
unsigned long cb_alloc_count(void);

#endif
