/* The dice: a fixed seed gives a fixed stream on every platform, dice stay
 * in range and are roughly fair. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> // after the headers it needs

#include "model/rng.h"
#include "testlib.h"

static void known_stream(void **state) {
  (void)state;
  /* pcg32 reference values for seed 42, stream 54 (O'Neill's pcg32-demo) */
  cb_rng r;
  cb_rng_seed(&r, 42, 54);
  const uint32_t want[] = {0xa15c02b7, 0x7b47f409, 0xba1d3330, 0x83d2f293, 0xbfa4784b, 0xcbed606e};
  for (size_t i = 0; i < sizeof want / sizeof *want; i++)
    assert_int_equal(cb_rng_next(&r), want[i]);
}

static void dice_in_range_and_fair(void **state) {
  (void)state;
  cb_rng r;
  cb_rng_seed(&r, 7, 0);
  for (int sides = 1; sides <= 20; sides++) {
    int count[21] = {0};
    const int rolls = 20000;
    for (int i = 0; i < rolls; i++) {
      int v = cb_rng_die(&r, sides);
      assert_true(v >= 1 && v <= sides);
      count[v]++;
    }
    for (int v = 1; v <= sides; v++) {
      double expect = (double)rolls / sides;
      assert_true(count[v] > expect * 0.85 && count[v] < expect * 1.15);
    }
  }
}

static void unit_interval(void **state) {
  (void)state;
  cb_rng r;
  cb_rng_seed(&r, 1, 2);
  double sum = 0;
  for (int i = 0; i < 100000; i++) {
    double u = cb_rng_unit(&r);
    assert_true(u >= 0 && u < 1);
    sum += u;
  }
  assert_true(sum / 100000 > 0.49 && sum / 100000 < 0.51);
}

static void streams_differ(void **state) {
  (void)state;
  cb_rng a, b;
  cb_rng_seed(&a, 99, 0);
  cb_rng_seed(&b, 99, 1);
  int same = 0;
  for (int i = 0; i < 64; i++)
    same += cb_rng_next(&a) == cb_rng_next(&b);
  assert_true(same < 4);
}

static void shuffle_is_permutation(void **state) {
  (void)state;
  cb_rng r;
  cb_rng_seed(&r, 3, 0);
  int items[52], seen[52] = {0};
  for (int i = 0; i < 52; i++)
    items[i] = i;
  cb_rng_shuffle(&r, items, 52);
  int moved = 0;
  for (int i = 0; i < 52; i++) {
    seen[items[i]]++;
    moved += items[i] != i;
  }
  for (int i = 0; i < 52; i++)
    assert_int_equal(seen[i], 1);
  assert_true(moved > 40);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(known_stream),           cmocka_unit_test(dice_in_range_and_fair),
      cmocka_unit_test(unit_interval),          cmocka_unit_test(streams_differ),
      cmocka_unit_test(shuffle_is_permutation),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
