/* Delaunay edges: small cases by hand, collinear points, and random point
 * sets against a brute-force test written here: an edge ab is Delaunay when
 * some circle through a and b holds no point strictly inside. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> // after the headers it needs

#include <math.h>
#include <stdlib.h>

#include "geom/delaunay.h"
#include "model/rng.h"
#include "testlib.h"

static cb_edge *run(const cb_point *p, int n, int *ne) {
  cb_edge *e = NULL;
  cb_error err = {0};
  if (cb_delaunay(p, n, &e, ne, &err) != CB_OK) fail_msg("cb_delaunay: %s", err.msg);
  for (int i = 0; i < *ne; i++) {
    assert_true(e[i].a >= 0 && e[i].a < e[i].b && e[i].b < n);
    if (i) assert_true(e[i - 1].a < e[i].a || (e[i - 1].a == e[i].a && e[i - 1].b < e[i].b));
  }
  return e;
}

static int has(const cb_edge *e, int ne, int a, int b) {
  for (int i = 0; i < ne; i++)
    if (e[i].a == (a < b ? a : b) && e[i].b == (a < b ? b : a)) return 1;
  return 0;
}

static void small_cases(void **state) {
  (void)state;
  int ne;
  cb_edge *e = run(NULL, 0, &ne);
  assert_int_equal(ne, 0);
  free(e);
  cb_point one[] = {{5, 5}};
  e = run(one, 1, &ne);
  assert_int_equal(ne, 0);
  free(e);
  cb_point two[] = {{5, 5}, {0, 1}};
  e = run(two, 2, &ne);
  assert_int_equal(ne, 1);
  assert_true(has(e, ne, 0, 1));
  free(e);
  cb_point tri[] = {{0, 0}, {10, 0}, {3, 8}};
  e = run(tri, 3, &ne);
  assert_int_equal(ne, 3);
  free(e);
  /* a square: its four sides and one diagonal */
  cb_point sq[] = {{0, 0}, {10, 0}, {10, 10}, {0, 10}};
  e = run(sq, 4, &ne);
  assert_int_equal(ne, 5);
  for (int i = 0; i < 4; i++)
    assert_true(has(e, ne, i, (i + 1) % 4));
  assert_true(has(e, ne, 0, 2) != has(e, ne, 1, 3));
  free(e);
  /* a square with its centre: the centre joins all four corners */
  cb_point sqc[] = {{0, 0}, {10, 0}, {10, 10}, {0, 10}, {5, 5}};
  e = run(sqc, 5, &ne);
  assert_int_equal(ne, 8);
  for (int i = 0; i < 4; i++)
    assert_true(has(e, ne, i, 4));
  assert_false(has(e, ne, 0, 2));
  assert_false(has(e, ne, 1, 3));
  free(e);
  /* a long thin triangle next to a point that breaks the wrong diagonal */
  cb_point kite[] = {{0, 0}, {10, -1}, {20, 0}, {10, 1}};
  e = run(kite, 4, &ne);
  assert_int_equal(ne, 5);
  assert_true(has(e, ne, 1, 3));
  assert_false(has(e, ne, 0, 2));
  free(e);
}

static void collinear_points_make_a_path(void **state) {
  (void)state;
  int ne;
  /* shuffled along a slanted line: each point joins its neighbours on it */
  cb_point line[] = {{3, 6}, {0, 0}, {4, 8}, {1, 2}, {2, 4}};
  cb_edge *e = run(line, 5, &ne);
  assert_int_equal(ne, 4);
  assert_true(has(e, ne, 1, 3) && has(e, ne, 3, 4) && has(e, ne, 4, 0) && has(e, ne, 0, 2));
  free(e);
  cb_point vertical[] = {{7, 30}, {7, 10}, {7, 20}};
  e = run(vertical, 3, &ne);
  assert_int_equal(ne, 2);
  assert_true(has(e, ne, 1, 2) && has(e, ne, 0, 2));
  assert_false(has(e, ne, 0, 1));
  free(e);
  cb_point horizontal[40];
  for (int i = 0; i < 40; i++)
    horizontal[i] = (cb_point){(i * 17) % 40, -3};
  e = run(horizontal, 40, &ne);
  assert_int_equal(ne, 39);
  for (int i = 0; i < ne; i++)
    assert_true(fabs(horizontal[e[i].a].x - horizontal[e[i].b].x) == 1);
  free(e);
}

/* The range of circle centres on ab's bisector that leave every point out:
 * returns the slack (>= 0: such a circle exists; > 0: with room to spare). */
static double empty_circle_slack(const cb_point *p, int n, int a, int b) {
  double mx = (p[a].x + p[b].x) / 2, my = (p[a].y + p[b].y) / 2;
  double dx = p[b].x - p[a].x, dy = p[b].y - p[a].y, len = hypot(dx, dy);
  double nx = -dy / len, ny = dx / len;
  double lo = -INFINITY, hi = INFINITY;
  double ka = (mx - p[a].x) * (mx - p[a].x) + (my - p[a].y) * (my - p[a].y);
  for (int i = 0; i < n; i++) {
    if (i == a || i == b) continue;
    double s = nx * (p[i].x - p[a].x) + ny * (p[i].y - p[a].y);
    double k = (mx - p[i].x) * (mx - p[i].x) + (my - p[i].y) * (my - p[i].y) - ka;
    if (s > 0)
      hi = fmin(hi, k / (2 * s));
    else if (s < 0)
      lo = fmax(lo, k / (2 * s));
    else if (k < 0)
      return -INFINITY; /* a point on the segment itself */
  }
  return hi - lo;
}

static int hull_size(const cb_point *p, int n) {
  int h = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      if (i == j) continue;
      int left = 0, right = 0;
      for (int k = 0; k < n; k++) {
        double o = (p[j].x - p[i].x) * (p[k].y - p[i].y) - (p[j].y - p[i].y) * (p[k].x - p[i].x);
        left += o > 0;
        right += o < 0;
      }
      if (right == 0 && left > 0) {
        h++; /* i starts a hull edge (counter-clockwise) */
        break;
      }
    }
  return h;
}

static int cross(cb_point a, cb_point b, cb_point c, cb_point d) {
  double o1 = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
  double o2 = (b.x - a.x) * (d.y - a.y) - (b.y - a.y) * (d.x - a.x);
  double o3 = (d.x - c.x) * (a.y - c.y) - (d.y - c.y) * (a.x - c.x);
  double o4 = (d.x - c.x) * (b.y - c.y) - (d.y - c.y) * (b.x - c.x);
  return ((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0));
}

static void random_sets_against_brute_force(void **state) {
  (void)state;
  cb_rng rng;
  cb_rng_seed(&rng, 2024, 7);
  int sets = cb_test_seeds(10000) / 25;
  for (int s = 0; s < sets; s++) {
    int n = 4 + (int)cb_rng_below(&rng, 45);
    int quantized = s % 2; /* dropdice's 1/100 ft grid: cocircular points happen */
    cb_point p[64];
    for (int i = 0; i < n; i++) {
      double x = cb_rng_unit(&rng) * 100, y = cb_rng_unit(&rng) * 70;
      if (quantized) x = round(x * 100) / 100, y = round(y * 100) / 100;
      p[i] = (cb_point){x, y};
    }
    int ne;
    cb_edge *e = run(p, n, &ne);
    for (int i = 0; i < ne; i++)
      if (empty_circle_slack(p, n, e[i].a, e[i].b) < -1e-6)
        fail_msg("set %d: edge %d-%d has no empty circle", s, e[i].a, e[i].b);
    for (int i = 0; i < ne; i++)
      for (int j = i + 1; j < ne; j++)
        if (cross(p[e[i].a], p[e[i].b], p[e[j].a], p[e[j].b]))
          fail_msg("set %d: edges %d and %d cross", s, i, j);
    /* a full triangulation: 3n - 3 - h edges (h hull points, none collinear here) */
    if (!quantized) assert_int_equal(ne, 3 * n - 3 - hull_size(p, n));
    /* every edge with a clearly empty circle is there */
    for (int a = 0; a < n; a++)
      for (int b = a + 1; b < n; b++)
        if (empty_circle_slack(p, n, a, b) > 1e-6 && !has(e, ne, a, b))
          fail_msg("set %d: Delaunay edge %d-%d is missing", s, a, b);
    free(e);
  }
}

static void many_points_stay_fast_and_planar(void **state) {
  (void)state;
  cb_rng rng;
  cb_rng_seed(&rng, 5, 5);
  enum { N = 3000 };
  cb_point *p = malloc(N * sizeof *p);
  for (int i = 0; i < N; i++)
    p[i] = (cb_point){round(cb_rng_unit(&rng) * 60000) / 100, round(cb_rng_unit(&rng) * 40000) / 100};
  int ne;
  cb_edge *e = run(p, N, &ne);
  assert_true(ne >= 2 * N && ne <= 3 * N - 3);
  /* a sample of edges against the brute-force empty-circle test */
  for (int i = 0; i < ne; i += 97)
    if (empty_circle_slack(p, N, e[i].a, e[i].b) < -1e-6)
      fail_msg("edge %d-%d has no empty circle", e[i].a, e[i].b);
  free(e);
  free(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(small_cases),
      cmocka_unit_test(collinear_points_make_a_path),
      cmocka_unit_test(random_sets_against_brute_force),
      cmocka_unit_test(many_points_stay_fast_and_planar),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
