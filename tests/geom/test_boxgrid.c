/* The grid of boxes: what it finds near a box holds every box that overlaps
 * it, each once and in order, wherever on the plane and however large the
 * boxes and the search; and it fails cleanly when memory runs out. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> // after the headers it needs

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "base/alloc.h"
#include "geom/boxgrid.h"
#include "model/rng.h"
#include "testlib.h"

typedef struct box {
  double x0, y0, x1, y1;
} box;

static bool overlap(box a, box b) { return a.x0 <= b.x1 && b.x0 <= a.x1 && a.y0 <= b.y1 && b.y0 <= a.y1; }

static box random_box(cb_rng *rng, double span, double most) {
  double x = cb_rng_below(rng, (uint32_t)(2 * span)) - span,
         y = cb_rng_below(rng, (uint32_t)(2 * span)) - span;
  return (box){x, y, x + cb_rng_below(rng, (uint32_t)most), y + cb_rng_below(rng, (uint32_t)most)};
}

static void finds_every_overlap(void **state) {
  (void)state;
  cb_rng rng;
  cb_rng_seed(&rng, 5, 0);
  for (int t = 0; t < cb_test_seeds(40); t++) {
    cb_boxgrid *g = cb_boxgrid_new(40);
    assert_non_null(g);
    box b[300];
    int n = 1 + (int)cb_rng_below(&rng, 300);
    for (int i = 0; i < n; i++) {
      b[i] = random_box(&rng, 1000, i % 10 ? 60 : 600);
      assert_int_equal(cb_boxgrid_add(g, i, b[i].x0, b[i].y0, b[i].x1, b[i].y1), 0);
    }
    int *ids = NULL;
    size_t cap = 0;
    for (int q = 0; q < 50; q++) {
      box s = random_box(&rng, 1200, q % 5 ? 100 : 3000);
      int k = cb_boxgrid_find(g, s.x0, s.y0, s.x1, s.y1, &ids, &cap);
      assert_true(k >= 0 && k <= n);
      for (int i = 1; i < k; i++)
        assert_true(ids[i - 1] < ids[i]);
      for (int i = 0, at = 0; i < n; i++) {
        while (at < k && ids[at] < i)
          at++;
        if (overlap(b[i], s)) assert_true(at < k && ids[at] == i);
      }
    }
    free(ids);
    cb_boxgrid_free(g);
  }
}

static void empty_and_out_of_memory(void **state) {
  (void)state;
  int *ids = NULL;
  size_t cap = 0;
  cb_boxgrid *g = cb_boxgrid_new(10);
  assert_int_equal(cb_boxgrid_find(g, 0, 0, 100, 100, &ids, &cap), 0);
  cb_boxgrid_free(g);
  cb_boxgrid_free(NULL);
  int failures = 0;
  for (long k = 0; k < 40; k++) {
    g = cb_boxgrid_new(10);
    if (!g) {
      failures++;
      continue;
    }
    cb_alloc_fail_once(k);
    int bad = 0;
    for (int i = 0; i < 20 && !bad; i++)
      bad = cb_boxgrid_add(g, i, 10.0 * i, 0, 10.0 * i + 35, 35) != 0;
    int found = bad ? 0 : cb_boxgrid_find(g, 0, 0, 300, 300, &ids, &cap);
    cb_alloc_fail_once(-1);
    failures += bad || found < 0;
    assert_true(bad || found == 20 || found < 0);
    cb_boxgrid_free(g);
  }
  assert_true(failures > 0);
  free(ids);
}

/* A box that is not finite or too wide to file cell by cell is listed by
 * every search; a search with a NaN edge lists every box; far places do not
 * overflow the cell numbers. */
static void far_wide_and_not_finite(void **state) {
  (void)state;
  int *ids = NULL;
  size_t cap = 0;
  cb_boxgrid *g = cb_boxgrid_new(1);
  assert_int_equal(cb_boxgrid_add(g, 0, 0, 0, 1, 1), 0);
  assert_int_equal(cb_boxgrid_add(g, 1, NAN, 5, NAN, 6), 0);
  assert_int_equal(cb_boxgrid_add(g, 2, -1e6, -1e6, 1e6, 1e6), 0); /* 4e12 cells */
  assert_int_equal(cb_boxgrid_add(g, 3, 1e300, 1e300, 1e300, 1e300), 0);
  assert_int_equal(cb_boxgrid_add(g, 4, -INFINITY, 0, 0, 0), 0);
  assert_int_equal(cb_boxgrid_add(g, 5, 500, 500, 501, 501), 0);
  assert_int_equal(cb_boxgrid_find(g, 100, 100, 101, 101, &ids, &cap), 3);
  assert_int_equal(ids[0], 1), assert_int_equal(ids[1], 2), assert_int_equal(ids[2], 4);
  assert_int_equal(cb_boxgrid_find(g, 9e299, 9e299, 2e300, 2e300, &ids, &cap), 4);
  assert_int_equal(ids[2], 3);
  assert_int_equal(cb_boxgrid_find(g, NAN, 0, 1, 1, &ids, &cap), 6);
  for (int i = 0; i < 6; i++)
    assert_int_equal(ids[i], i);
  cb_boxgrid_free(g);
  free(ids);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(finds_every_overlap),
      cmocka_unit_test(empty_and_out_of_memory),
      cmocka_unit_test(far_wide_and_not_finite),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
