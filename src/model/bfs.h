/* Breadth-first search: the one walk behind every "fewest steps from here"
 * in the program. The caller names each node's neighbours (over a graph, a
 * grid of pegs or a tree, with its own rule for which ways are open); the
 * walk keeps the queue and the hops. */
#ifndef CB_BFS_H
#define CB_BFS_H

#include <stdbool.h>

typedef struct cb_bfs {
  int n;
  int *hops;  /* per node: steps from the nearest source, -1 while not reached */
  int *queue; /* the nodes in the order reached */
  int head, tail;
} cb_bfs;

/* A walk over nodes 0..n-1, none reached. 0, or -1 on OOM; free with
 * cb_bfs_free either way (malloc-owned). */
int cb_bfs_init(cb_bfs *b, int n);
void cb_bfs_free(cb_bfs *b);

/* Node v reached from node u, one step further (u = -1: v is a source, 0
 * hops). True when v was not reached before: it then waits its turn. */
bool cb_bfs_reach(cb_bfs *b, int u, int v);

/* Forgets every node reached, in time of their count: the walk starts anew. */
void cb_bfs_clear(cb_bfs *b);

/* The next node to expand, in the order reached; -1 when none waits. More
 * sources may be added after it returns -1, and the walk goes on from them. */
int cb_bfs_next(cb_bfs *b);

#endif
