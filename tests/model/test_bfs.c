/* The one breadth-first walk (model/bfs.h): hops from one or more sources,
 * the order nodes are reached in, adding sources after a walk ends, and
 * clearing it for a new walk. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> // after the headers it needs

#include "model/bfs.h"

/* A path 0-1-2-3-4 and node 5 apart, a chord 0-3: neighbours by table. */
static const int NEXT[6][3] = {{1, 3, -1}, {0, 2, -1}, {1, 3, -1}, {2, 4, 0}, {3, -1, -1}, {-1, -1, -1}};

static void drain(cb_bfs *b) {
  for (int u; (u = cb_bfs_next(b)) >= 0;)
    for (int k = 0; k < 3 && NEXT[u][k] >= 0; k++)
      cb_bfs_reach(b, u, NEXT[u][k]);
}

static void hops_and_order(void **state) {
  (void)state;
  cb_bfs b;
  assert_int_equal(cb_bfs_init(&b, 6), 0);
  assert_true(cb_bfs_reach(&b, -1, 0));
  assert_false(cb_bfs_reach(&b, -1, 0)); /* once only */
  drain(&b);
  const int hops[6] = {0, 1, 2, 1, 2, -1}, order[5] = {0, 1, 3, 2, 4};
  for (int i = 0; i < 6; i++)
    assert_int_equal(b.hops[i], hops[i]);
  assert_int_equal(b.tail, 5);
  for (int i = 0; i < 5; i++)
    assert_int_equal(b.queue[i], order[i]);
  /* a source added after the walk ended: the walk goes on from it */
  assert_true(cb_bfs_reach(&b, -1, 5));
  drain(&b);
  assert_int_equal(b.hops[5], 0);
  assert_int_equal(b.tail, 6);
  cb_bfs_free(&b);
}

static void sources_and_clear(void **state) {
  (void)state;
  cb_bfs b;
  assert_int_equal(cb_bfs_init(&b, 6), 0);
  cb_bfs_reach(&b, -1, 4);
  cb_bfs_reach(&b, -1, 1);
  drain(&b);
  const int hops[6] = {1, 0, 1, 1, 0, -1};
  for (int i = 0; i < 6; i++)
    assert_int_equal(b.hops[i], hops[i]);
  cb_bfs_clear(&b);
  assert_int_equal(cb_bfs_next(&b), -1);
  for (int i = 0; i < 6; i++)
    assert_int_equal(b.hops[i], -1);
  cb_bfs_reach(&b, -1, 2);
  drain(&b);
  assert_int_equal(b.hops[0], 2);
  assert_int_equal(b.hops[4], 2);
  cb_bfs_free(&b);
  cb_bfs_free(&b); /* twice is fine */
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(hops_and_order), cmocka_unit_test(sources_and_clear)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
