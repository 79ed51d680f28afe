/* The graph layout: rooms apart, off lines, few crossings, deterministic,
 * whole at 100 rooms; over battleships dungeons (the generator without geometry). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h> // after the headers it needs

#include "base/alloc.h"
#include "layout/graph.h"
#include "proc/battleships/proc.h"
#include "registry/registry.h"
#include "testlib.h"

static cb_dungeon *make(uint64_t seed, int levels, int grid) {
  cb_battleships_options own = {.extra_set = grid < 4, .grid = {grid, grid}};
  cb_gen_options o = {.own = &own};
  o.seed = seed;
  o.levels = levels;
  cb_dungeon *d = NULL;
  cb_error err = {0};
  assert_int_equal(cb_generator_run(&cb_gen_battleships, &o, &d, &err), CB_OK);
  return d;
}

static double seg_dist(const cb_graph_pos *p, const cb_graph_pos *a, const cb_graph_pos *b) {
  double dx = b->x - a->x, dy = b->y - a->y, l2 = dx * dx + dy * dy;
  double t = l2 > 0 ? ((p->x - a->x) * dx + (p->y - a->y) * dy) / l2 : 0;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  return hypot(p->x - (a->x + t * dx), p->y - (a->y + t * dy));
}

static int index_of(const cb_graph_pos *pos, int n, int id) {
  for (int i = 0; i < n; i++)
    if (pos[i].room == id) return i;
  return -1;
}

/* The layout's count, which must come (the status CB_OK). */
static int lay(cb_graph_cache *c, const cb_dungeon *d, int level, double aspect, cb_graph_pos **out) {
  int n = -1;
  cb_error err = {0};
  assert_int_equal(cb_graph_layout(c, d, level, aspect, out, &n, &err), CB_OK);
  assert_string_equal(err.msg, "");
  return n;
}

/* Rooms keep apart and off the lines that do not end at them. */
static void test_rooms_apart_and_off_lines(void **state) {
  (void)state;
  int seeds = cb_test_seeds(10000) / 50, total_cross = 0, levels = 0, worst = 0;
  for (int s = 0; s < seeds; s++) {
    cb_dungeon *d = make((uint64_t)s, 2, 10);
    for (int l = 1; l <= 2; l++) {
      cb_graph_pos *pos = NULL;
      int n = lay(NULL, d, l, 0.62, &pos);
      assert_int_equal(n, 10);
      for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
          assert_true(hypot(pos[i].x - pos[j].x, pos[i].y - pos[j].y) > 0.5 * CB_GRAPH_EDGE_FT);
      for (int e = 0; e < d->npassages; e++) {
        int a = index_of(pos, n, d->passages[e].from), b = index_of(pos, n, d->passages[e].to);
        if (a < 0 || b < 0) continue;
        for (int p = 0; p < n; p++)
          if (p != a && p != b) assert_true(seg_dist(&pos[p], &pos[a], &pos[b]) > 0.2 * CB_GRAPH_EDGE_FT);
      }
      int c = -1;
      assert_int_equal(cb_graph_crossings(d, l, pos, n, &c, NULL), CB_OK);
      assert_true(c >= 0);
      total_cross += c;
      worst = c > worst ? c : worst;
      levels++;
      free(pos);
    }
    cb_dungeon_free(d);
  }
  printf("crossings: %.2f per level on average, %d at worst, over %d levels\n", (double)total_cross / levels,
         worst, levels);
}

/* Same dungeon, same positions. */
static void test_deterministic(void **state) {
  (void)state;
  cb_dungeon *d = make(42, 2, 10);
  cb_graph_pos *a = NULL, *b = NULL;
  int n = lay(NULL, d, 2, 1.0, &a);
  assert_int_equal(lay(NULL, d, 2, 1.0, &b), n);
  for (int i = 0; i < n; i++) {
    assert_int_equal(a[i].room, b[i].room);
    assert_true(a[i].x == b[i].x && a[i].y == b[i].y);
  }
  free(a);
  free(b);
  cb_dungeon_free(d);
}

/* The caller's cache: the places it gives back at any box's shape are those
 * of no cache, for every level of two dungeons it holds at once; two caches
 * keep their own levels; freeing one frees what it kept (the leak checker
 * watches). */
static void test_cache_owned_by_caller(void **state) {
  (void)state;
  cb_dungeon *d[2] = {make(42, 3, 10), make(43, 3, 10)};
  cb_graph_cache *c[2] = {cb_graph_cache_new(), cb_graph_cache_new()};
  assert_non_null(c[0]);
  assert_non_null(c[1]);
  const double aspect[] = {1.0, 0.5, 2.0, 1.0};
  for (int round = 0; round < 4; round++)
    for (int k = 0; k < 2; k++)
      for (int l = 1; l <= 3; l++) {
        cb_graph_pos *plain = NULL, *kept = NULL;
        int n = lay(NULL, d[k], l, aspect[round], &plain);
        assert_true(n > 0);
        assert_int_equal(lay(c[round % 2], d[k], l, aspect[round], &kept), n);
        for (int i = 0; i < n; i++) {
          assert_int_equal(plain[i].room, kept[i].room);
          assert_true(plain[i].x == kept[i].x && plain[i].y == kept[i].y);
        }
        free(plain);
        free(kept);
      }
  cb_graph_cache_free(c[0]);
  cb_graph_cache_free(c[1]);
  cb_graph_cache_free(NULL);
  cb_dungeon_free(d[0]);
  cb_dungeon_free(d[1]);
}

/* A level of 10 and of 100 rooms is laid out whole (its speed is the
 * benchmark's: bench's graph layout row). */
static void test_large(void **state) {
  (void)state;
  cb_dungeon *d = make(7, 1, 10), *big = make(7, 1, 100);
  cb_graph_pos *pos = NULL;
  assert_int_equal(lay(NULL, d, 1, 1.0, &pos), 10);
  free(pos);
  assert_int_equal(lay(NULL, big, 1, 1.0, &pos), 100);
  for (int i = 0; i < 100; i++)
    assert_true(isfinite(pos[i].x) && isfinite(pos[i].y));
  free(pos);
  cb_dungeon_free(d);
  cb_dungeon_free(big);
}

/* No rooms, one room: nothing to do. */
static void test_tiny(void **state) {
  (void)state;
  cb_dungeon *d = make(3, 1, 2);
  cb_graph_pos *pos = NULL;
  assert_int_equal(lay(NULL, d, 1, 1.0, &pos), 2);
  assert_true(hypot(pos[0].x - pos[1].x, pos[0].y - pos[1].y) > 0);
  free(pos);
  assert_int_equal(lay(NULL, d, 5, 1.0, &pos), 0);
  free(pos);
  cb_dungeon_free(d);
}

/* Out of memory, at any allocation, comes back as a status with a message
 * (and no places); so does a count of positions that is not the level's. */
static void out_of_memory_is_a_status_with_a_message(void **state) {
  (void)state;
  cb_dungeon *d = make(42, 2, 10);
  cb_graph_cache *cache = cb_graph_cache_new();
  assert_non_null(cache);
  long failed = 0;
  for (long k = 0; k < 40; k++) {
    cb_error err = {0};
    cb_graph_pos *pos = NULL;
    int n = -1, c = -1;
    cb_alloc_fail_once(k);
    cb_status st = cb_graph_layout(k % 2 ? cache : NULL, d, 1, 1.0, &pos, &n, &err);
    if (st == CB_OK) st = cb_graph_crossings(d, 1, pos, n, &c, &err);
    cb_alloc_fail_once(-1);
    if (st == CB_OK) {
      assert_int_equal(n, 10), assert_true(c >= 0);
    } else {
      assert_int_equal(st, CB_EINTERNAL);
      assert_string_equal(err.msg, "out of memory");
      failed++;
    }
    free(pos);
  }
  assert_true(failed > 0);
  cb_error err = {0};
  cb_graph_pos *pos = NULL;
  int n = 0, c = -1;
  assert_int_equal(cb_graph_layout(NULL, d, 1, 1.0, &pos, &n, &err), CB_OK);
  assert_int_equal(cb_graph_crossings(d, 2, pos, n - 1, &c, &err), CB_EINTERNAL);
  assert_string_equal(err.msg, "9 positions for the 10 rooms of level 2");
  free(pos);
  cb_graph_cache_free(cache);
  cb_dungeon_free(d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_rooms_apart_and_off_lines),
      cmocka_unit_test(test_deterministic),
      cmocka_unit_test(out_of_memory_is_a_status_with_a_message),
      cmocka_unit_test(test_cache_owned_by_caller),
      cmocka_unit_test(test_large),
      cmocka_unit_test(test_tiny),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
