/* Segment crossing edge cases, point-to-segment distance, and the grid index
 * against brute force on random segments (short and long, many cell sizes). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> // after the headers it needs

#include <math.h>
#include <stdlib.h>

#include "geom/segment.h"
#include "model/rng.h"
#include "testlib.h"

#define P(x, y) ((cb_point){(x), (y)})
#define Q(x, y)                                                                                              \
  { (x), (y) }

static void crossing_cases(void **state) {
  (void)state;
  struct {
    cb_point a, b, c, d;
    bool want;
    const char *what;
  } cases[] = {
      {Q(0, 0), Q(10, 10), Q(0, 10), Q(10, 0), true, "an X"},
      {Q(0, 0), Q(10, 0), Q(0, 5), Q(10, 5), false, "parallel"},
      {Q(0, 0), Q(10, 0), Q(11, -5), Q(11, 5), false, "apart, the line would cross"},
      {Q(0, 0), Q(10, 0), Q(10, 0), Q(10, 10), false, "a shared endpoint, at an angle"},
      {Q(0, 0), Q(10, 0), Q(0, 0), Q(-5, 7), false, "a shared start, at an angle"},
      {Q(0, 0), Q(10, 0), Q(10, 0), Q(20, 0), false, "end to end along a line"},
      {Q(0, 0), Q(10, 0), Q(0, 0), Q(5, 0), true, "a shared endpoint, running along each other"},
      {Q(0, 0), Q(10, 0), Q(10, 0), Q(3, 0), true, "a shared end, folding back over"},
      {Q(0, 0), Q(10, 0), Q(0, 0), Q(10, 0), true, "the same segment"},
      {Q(0, 0), Q(10, 0), Q(10, 0), Q(0, 0), true, "the same segment reversed"},
      {Q(0, 0), Q(10, 0), Q(2, 0), Q(8, 0), true, "collinear, one inside the other"},
      {Q(0, 0), Q(10, 0), Q(5, 0), Q(15, 0), true, "collinear, overlapping"},
      {Q(0, 0), Q(10, 0), Q(11, 0), Q(15, 0), false, "collinear, apart"},
      {Q(0, 0), Q(10, 0), Q(5, 0), Q(5, 5), true, "a T: an end on the other's middle"},
      {Q(5, -5), Q(5, 0), Q(0, 0), Q(10, 0), true, "a T from below"},
      {Q(0, 0), Q(10, 0), Q(5, 0.001), Q(5, 5), false, "a T that stops just short"},
      {Q(0, 0), Q(4, 4), Q(1, 1), Q(3, 3), true, "diagonal, collinear inside"},
      {Q(0, 0), Q(4, 4), Q(5, 5), Q(6, 6), false, "diagonal, collinear apart"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    bool got = cb_segments_cross(cases[i].a, cases[i].b, cases[i].c, cases[i].d);
    bool swapped = cb_segments_cross(cases[i].c, cases[i].d, cases[i].a, cases[i].b);
    bool reversed = cb_segments_cross(cases[i].b, cases[i].a, cases[i].d, cases[i].c);
    if (got != cases[i].want || swapped != cases[i].want || reversed != cases[i].want)
      fail_msg("%s: got %d/%d/%d, want %d", cases[i].what, got, swapped, reversed, cases[i].want);
  }
}

static void point_distance(void **state) {
  (void)state;
  assert_true(cb_point_segment_dist2(P(5, 3), P(0, 0), P(10, 0)) == 9);
  assert_true(cb_point_segment_dist2(P(-3, 4), P(0, 0), P(10, 0)) == 25);  /* past the start */
  assert_true(cb_point_segment_dist2(P(13, -4), P(0, 0), P(10, 0)) == 25); /* past the end */
  assert_true(cb_point_segment_dist2(P(3, 4), P(0, 0), P(0, 0)) == 25);    /* a point-segment */
  assert_true(fabs(cb_point_segment_dist2(P(0, 10), P(0, 0), P(10, 10)) - 50) < 1e-9);
}

/* brute force: the rules written out */
static bool brute_crosses(const cb_point *p, const int *sa, const int *sb, int ns, int a, int b) {
  for (int i = 0; i < ns; i++)
    if (cb_segments_cross(p[a], p[b], p[sa[i]], p[sb[i]])) return true;
  return false;
}

static bool brute_near(const cb_point *p, int n, int a, int b, double r) {
  for (int i = 0; i < n; i++)
    if (i != a && i != b && cb_point_segment_dist2(p[i], p[a], p[b]) < r * r) return true;
  return false;
}

static void grid_matches_brute_force(void **state) {
  (void)state;
  cb_rng rng;
  cb_rng_seed(&rng, 99, 3);
  int rounds = cb_test_seeds(10000) / 100;
  for (int round_ = 0; round_ < rounds; round_++) {
    int n = 2 + (int)cb_rng_below(&rng, 150);
    double w = 20 + cb_rng_unit(&rng) * 300, h = 20 + cb_rng_unit(&rng) * 200;
    cb_point *p = malloc((size_t)n * sizeof *p);
    for (int i = 0; i < n; i++)
      p[i] = P(round(cb_rng_unit(&rng) * w * 100) / 100, round(cb_rng_unit(&rng) * h * 100) / 100);
    double cell = (round_ % 5 == 0) ? 0 : 1 + cb_rng_unit(&rng) * 40; /* 0: the grid picks */
    cb_seggrid *g = cb_seggrid_new(p, n, cell);
    assert_non_null(g);
    int cap = 2 * n, ns = 0;
    int *sa = malloc((size_t)cap * sizeof *sa), *sb = malloc((size_t)cap * sizeof *sb);
    for (int q = 0; q < 6 * n; q++) {
      int a = (int)cb_rng_below(&rng, (uint32_t)n), b = (int)cb_rng_below(&rng, (uint32_t)n);
      if (a == b) continue;
      bool c1 = cb_seggrid_crosses(g, a, b), c2 = brute_crosses(p, sa, sb, ns, a, b);
      if (c1 != c2)
        fail_msg("round %d: %d-%d crosses: grid %d, brute force %d (%d segments)", round_, a, b, c1, c2, ns);
      double r = cb_rng_unit(&rng) * 15;
      bool n1 = cb_seggrid_near_point(g, a, b, r), n2 = brute_near(p, n, a, b, r);
      if (n1 != n2)
        fail_msg("round %d: %d-%d near a point (r %.2f): grid %d, brute force %d", round_, a, b, r, n1, n2);
      /* add about half of the clear ones, and now and then a crossing one */
      if (ns < cap && ((!c1 && q % 2 == 0) || q % 11 == 0)) {
        assert_int_equal(cb_seggrid_add(g, a, b), 0);
        sa[ns] = a;
        sb[ns] = b;
        ns++;
      }
    }
    cb_seggrid_free(g);
    free(sa);
    free(sb);
    free(p);
  }
}

static void degenerate_grids(void **state) {
  (void)state;
  /* all points in one place, a line, one point */
  cb_point same[] = {P(5, 5), P(5, 5), P(5, 5)};
  cb_seggrid *g = cb_seggrid_new(same, 3, 10);
  assert_non_null(g);
  assert_false(cb_seggrid_crosses(g, 0, 1));
  assert_true(cb_seggrid_near_point(g, 0, 1, 1)); /* point 2 sits on it */
  cb_seggrid_free(g);
  cb_point line[] = {P(0, 0), P(100, 0), P(50, -10), P(50, 10), P(200, 0)};
  g = cb_seggrid_new(line, 5, 3);
  assert_int_equal(cb_seggrid_add(g, 0, 1), 0);
  assert_true(cb_seggrid_crosses(g, 2, 3));
  assert_false(cb_seggrid_crosses(g, 1, 4)); /* end to end */
  assert_true(cb_seggrid_crosses(g, 0, 4));  /* runs along it */
  assert_false(cb_seggrid_near_point(g, 2, 3, 5));
  assert_true(cb_seggrid_near_point(g, 0, 4, 0.5)); /* point 1 is on 0-4 */
  cb_seggrid_free(g);
  g = cb_seggrid_new(line, 1, -1);
  assert_non_null(g);
  cb_seggrid_free(g);
}

/* A segment meets a box with an end inside or across a side; one that
 * passes by a corner, or ends short of it, does not. */
static void segment_and_box(void **state) {
  (void)state;
  const double box[4] = {10, 10, 20, 20};
  assert_true(cb_segment_meets_box(P(15, 15), P(40, 40), box)); /* an end inside */
  assert_true(cb_segment_meets_box(P(0, 15), P(30, 15), box));  /* straight through */
  assert_true(cb_segment_meets_box(P(0, 25), P(25, 0), box));   /* across a corner */
  assert_true(cb_segment_meets_box(P(0, 10), P(30, 10), box));  /* along a side */
  assert_false(cb_segment_meets_box(P(0, 41), P(41, 0), box));  /* past the corner */
  assert_false(cb_segment_meets_box(P(0, 15), P(9, 15), box));  /* short of it */
  assert_false(cb_segment_meets_box(P(25, 0), P(25, 30), box)); /* beside it */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(segment_and_box),  cmocka_unit_test(crossing_cases),
      cmocka_unit_test(point_distance),   cmocka_unit_test(grid_matches_brute_force),
      cmocka_unit_test(degenerate_grids),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
