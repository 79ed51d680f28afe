/* Placement costs: the bucket grid counts exactly what a plain scan counts.
 * The reference is the same obstacle set in a place whose bounds fit in one
 * cell (every obstacle in it: a scan), and the "outside" term is taken out
 * of both, the bounds being different. NaN coordinates included. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> // after the headers it needs

#include <math.h>
#include <stdlib.h>

#include "base/alloc.h"
#include "layout/place.h"

static uint64_t rs = 88172645463325252ULL;
static double rnd(double lo, double hi) {
  rs ^= rs << 13, rs ^= rs >> 7, rs ^= rs << 17;
  if (rs % 50 == 0) return NAN;
  return lo + (double)(rs >> 11) / 9007199254740992.0 * (hi - lo);
}

static double outside(cb_box bounds, cb_box b) {
  return b.x0 < bounds.x0 || b.y0 < bounds.y0 || b.x1 > bounds.x1 || b.y1 > bounds.y1 ? 1000 : 0;
}

static void grid_counts_what_a_scan_counts(void **state) {
  (void)state;
  for (int round = 0; round < 200; round++) {
    cb_box bounds = {20, 30, 20 + rnd(50, 600), 30 + rnd(50, 800)};
    if (isnan(bounds.x1) || isnan(bounds.y1)) continue;
    cb_box one = {0, 0, 1, 1};
    cb_place *grid = cb_place_new(bounds), *scan = cb_place_new(one);
    assert_non_null(grid);
    assert_non_null(scan);
    for (int i = 0; i < 60; i++) {
      double x = rnd(-50, 700), y = rnd(-50, 900);
      switch (i % 3) {
      case 0:
        assert_int_equal(cb_place_circle(grid, x, y, 8), 0);
        assert_int_equal(cb_place_circle(scan, x, y, 8), 0);
        break;
      case 1: {
        cb_box b = cb_box_centered(x, y, rnd(2, 40), 9);
        assert_int_equal(cb_place_box(grid, b), 0);
        assert_int_equal(cb_place_box(scan, b), 0);
        break;
      }
      default: {
        double x1 = rnd(-50, 700), y1 = rnd(-50, 900);
        assert_int_equal(cb_place_segment(grid, x, y, x1, y1, 0.6), 0);
        assert_int_equal(cb_place_segment(scan, x, y, x1, y1, 0.6), 0);
      }
      }
    }
    for (int q = 0; q < 300; q++) {
      cb_box b = cb_box_centered(rnd(-60, 720), rnd(-60, 920), rnd(1, 60), rnd(1, 20));
      double got = cb_place_cost(grid, b) - outside(bounds, b),
             want = cb_place_cost(scan, b) - outside(one, b);
      if (got != want)
        fail_msg("round %d: box %g,%g..%g,%g costs %g, a scan says %g", round, b.x0, b.y0, b.x1, b.y1, got,
                 want);
    }
    cb_place_free(grid);
    cb_place_free(scan);
  }
}

static void costs_by_hand(void **state) {
  (void)state;
  cb_place *pl = cb_place_new((cb_box){0, 0, 100, 100});
  cb_place_circle(pl, 50, 50, 10);
  cb_place_box(pl, (cb_box){80, 80, 90, 90});
  cb_place_segment(pl, 0, 10, 100, 10, 1);
  assert_true(cb_place_cost(pl, (cb_box){20, 30, 30, 40}) == 0);
  assert_true(cb_place_cost(pl, (cb_box){45, 45, 55, 55}) == 120);
  assert_true(cb_place_cost(pl, (cb_box){85, 85, 95, 95}) == 100);
  assert_true(cb_place_cost(pl, (cb_box){40, 5, 45, 12}) == 30);
  assert_true(cb_place_cost(pl, (cb_box){95, 95, 105, 105}) == 1000);
  cb_place_free(pl);
}

/* An obstacle that cannot be added for want of memory comes back as a
 * status, with a message the place keeps; the place stays usable. */
static void out_of_memory_is_a_status_with_a_message(void **state) {
  (void)state;
  long failed = 0;
  for (long k = 0; k < 64; k++) {
    cb_place *pl = cb_place_new((cb_box){0, 0, 200, 200});
    assert_non_null(pl);
    cb_status st = CB_OK;
    cb_alloc_fail_once(k);
    for (int i = 0; i < 40 && st == CB_OK; i++) {
      double at = i * 5;
      st = i % 3 == 0   ? cb_place_segment(pl, at, 0, at, 100, 1)
           : i % 3 == 1 ? cb_place_circle(pl, at, at, 4)
                        : cb_place_box(pl, (cb_box){at, 10, at + 4, 14});
    }
    cb_alloc_fail_once(-1);
    assert_int_equal(cb_place_error(pl)->status, st);
    if (st != CB_OK) {
      assert_int_equal(st, CB_EINTERNAL);
      assert_string_equal(cb_place_error(pl)->msg, "out of memory");
      failed++;
    } else {
      assert_string_equal(cb_place_error(pl)->msg, "");
    }
    assert_true(cb_place_cost(pl, (cb_box){190, 190, 195, 195}) == 0);
    cb_place_free(pl);
  }
  assert_true(failed > 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(grid_counts_what_a_scan_counts),
      cmocka_unit_test(costs_by_hand),
      cmocka_unit_test(out_of_memory_is_a_status_with_a_message),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
