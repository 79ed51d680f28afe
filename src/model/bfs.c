#include "bfs.h"

#include <stdlib.h>

#include "base/alloc.h"

int cb_bfs_init(cb_bfs *b, int n) {
  *b = (cb_bfs){n, cb_malloc(((size_t)n + 1) * sizeof *b->hops),
                cb_malloc(((size_t)n + 1) * sizeof *b->queue), 0, 0};
  if (!b->hops || !b->queue) return -1;
  for (int i = 0; i < n; i++)
    b->hops[i] = -1;
  return 0;
}

void cb_bfs_free(cb_bfs *b) {
  free(b->hops);
  free(b->queue);
  b->hops = b->queue = NULL;
}

bool cb_bfs_reach(cb_bfs *b, int u, int v) {
  if (b->hops[v] >= 0) return false;
  b->hops[v] = u < 0 ? 0 : b->hops[u] + 1;
  b->queue[b->tail++] = v;
  return true;
}

void cb_bfs_clear(cb_bfs *b) {
  for (int i = 0; i < b->tail; i++)
    b->hops[b->queue[i]] = -1;
  b->head = b->tail = 0;
}

int cb_bfs_next(cb_bfs *b) { return b->head < b->tail ? b->queue[b->head++] : -1; }
