/* The orthogonal router: straight when it can, round a block when it must,
 * a crossing paid once, no way out of a box, and over random blocks a route
 * that never enters one, runs in axis-aligned legs from the start to a goal
 * and costs what its legs, bends and crossings add up to. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> // after the headers it needs

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "base/alloc.h"
#include "geom/ortho.h"
#include "model/rng.h"
#include "testlib.h"

static const double BEND = 15, CROSS = 1000;

static cb_ortho_problem problem(cb_point from, int dir, const cb_ortho_goal *goals, int ngoals) {
  return (cb_ortho_problem){.from = from,
                            .dir = dir,
                            .goals = goals,
                            .ngoals = ngoals,
                            .bend = BEND,
                            .cross = CROSS,
                            .along = INFINITY,
                            .margin = 60,
                            .max_lines = 400};
}

/* Does the route enter the open block b anywhere (sampled every half unit)? */
static bool enters(const cb_point *v, int n, cb_ortho_block b) {
  for (int i = 1; i < n; i++) {
    double len = fabs(v[i].x - v[i - 1].x) + fabs(v[i].y - v[i - 1].y);
    for (int k = 0; k <= (int)(len * 2); k++) {
      double t = len > 0 ? k / (len * 2) : 0;
      double x = v[i - 1].x + (v[i].x - v[i - 1].x) * t, y = v[i - 1].y + (v[i].y - v[i - 1].y) * t;
      if (x > b.x0 + 1e-9 && x < b.x1 - 1e-9 && y > b.y0 + 1e-9 && y < b.y1 - 1e-9) return true;
    }
  }
  return false;
}

static double length(const cb_point *v, int n) {
  double l = 0;
  for (int i = 1; i < n; i++)
    l += fabs(v[i].x - v[i - 1].x) + fabs(v[i].y - v[i - 1].y);
  return l;
}

static void straight(void **state) {
  (void)state;
  cb_ortho_goal g = {{100, 0}, CB_ORTHO_E, 0};
  cb_ortho_problem pr = problem((cb_point){0, 0}, CB_ORTHO_E, &g, 1);
  cb_point v[16];
  int goal = -1;
  double cost = 0;
  assert_int_equal(cb_ortho_route(&pr, v, 16, &goal, &cost), 2);
  assert_int_equal(goal, 0);
  assert_float_equal(cost, 100, 1e-9);
  assert_float_equal(v[1].x, 100, 1e-9);
}

static void round_a_block(void **state) {
  (void)state;
  cb_ortho_goal g = {{100, 0}, CB_ORTHO_E, 0};
  cb_ortho_block b = {40, -20, 60, 30};
  cb_ortho_problem pr = problem((cb_point){0, 0}, CB_ORTHO_E, &g, 1);
  pr.blocks = &b, pr.nblocks = 1;
  cb_point v[16];
  int goal = -1;
  double cost = 0;
  int n = cb_ortho_route(&pr, v, 16, &goal, &cost);
  /* round the near side (y = -20) with four bends */
  assert_true(n == 5 || n == 6);
  assert_false(enters(v, n, b));
  assert_float_equal(v[n - 3].y, -20, 1e-9);
  assert_float_equal(cost, 100 + 2 * 20 + 4 * BEND, 1e-9);
  /* with pad and hug, the route keeps off the block's edge where it can */
  pr.pad = 5, pr.hug = 1;
  n = cb_ortho_route(&pr, v, 16, &goal, &cost);
  assert_true(n == 5 || n == 6);
  assert_false(enters(v, n, b));
  assert_float_equal(v[n - 3].y, -25, 1e-9);
}

static void cheapest_goal_and_bends(void **state) {
  (void)state;
  /* the near goal must be entered going north (a bend), the far one straight: bends decide */
  cb_ortho_goal g[2] = {{{50, 0}, CB_ORTHO_N, 0}, {{60, 0}, CB_ORTHO_E, 0}};
  cb_ortho_problem pr = problem((cb_point){0, 0}, CB_ORTHO_E, g, 2);
  cb_point v[16];
  int goal = -1;
  double cost = 0;
  assert_true(cb_ortho_route(&pr, v, 16, &goal, &cost) > 0);
  assert_int_equal(goal, 1);
  /* a goal's own cost counts */
  g[1].cost = 100;
  assert_true(cb_ortho_route(&pr, v, 16, &goal, &cost) > 0);
  assert_int_equal(goal, 0);
  assert_float_equal(cost, 50 + BEND, 1e-9);
  /* no reversal: a goal behind, entered going west, needs a loop round */
  cb_ortho_goal back = {{-50, 0}, CB_ORTHO_W, 0};
  pr = problem((cb_point){0, 0}, CB_ORTHO_E, &back, 1);
  pr.margin = 20;
  int n = cb_ortho_route(&pr, v, 16, &goal, &cost);
  assert_true(n >= 4);
  assert_true(v[1].x >= 0); /* it turns, it never goes straight back */
}

static void crossings(void **state) {
  (void)state;
  cb_ortho_goal g = {{100, 0}, CB_ORTHO_E, 0};
  /* a wall of segment that cannot be gone round within the window: crossed once, paid once */
  cb_point wall[2] = {{50, -1000}, {50, 1000}};
  cb_ortho_problem pr = problem((cb_point){0, 0}, CB_ORTHO_E, &g, 1);
  pr.segs = wall, pr.nsegs = 1;
  cb_point v[16];
  int goal = -1;
  double cost = 0;
  assert_int_equal(cb_ortho_route(&pr, v, 16, &goal, &cost), 2);
  assert_float_equal(cost, 100 + CROSS, 1e-9);
  /* a short one is gone round when that is cheaper */
  cb_point shortw[2] = {{50, -10}, {50, 10}};
  pr.segs = shortw;
  assert_true(cb_ortho_route(&pr, v, 16, &goal, &cost) > 2);
  assert_true(cost < CROSS);
  /* running along a segment is refused when `along` is infinite, paid for when not */
  cb_point on[2] = {{20, 0}, {80, 0}};
  pr.segs = on;
  assert_true(cb_ortho_route(&pr, v, 16, &goal, &cost) > 2);
  pr.along = 0.5;
  pr.bend = 1000;
  assert_int_equal(cb_ortho_route(&pr, v, 16, &goal, &cost), 2);
  assert_float_equal(cost, 100 + 60 * 0.5, 1e-9);
}

/* A route kept `near` off a segment runs beside it that far off, on a line
 * through no input and no block (issue 22: parallel corridors a grid
 * square apart), not out at the window's edge. */
static void beside(void **state) {
  (void)state;
  cb_ortho_goal g = {{100, 0}, CB_ORTHO_E, 0};
  cb_point on[2] = {{20, 0}, {80, 0}};
  cb_ortho_problem pr = problem((cb_point){0, 0}, CB_ORTHO_E, &g, 1);
  pr.segs = on, pr.nsegs = 1, pr.near = 10, pr.crowd = INFINITY;
  cb_point v[16];
  int goal = -1;
  double cost = 0;
  int n = cb_ortho_route(&pr, v, 16, &goal, &cost);
  assert_int_equal(n, 4);
  assert_float_equal(cost, 100 + 2 * 10 + 4 * BEND, 1e-9);
  assert_float_equal(fabs(v[1].y), 10, 1e-9);
  assert_float_equal(fabs(v[2].y), 10, 1e-9);
}

static void boxed_in(void **state) {
  (void)state;
  cb_ortho_goal g = {{100, 0}, CB_ORTHO_E, 0};
  cb_ortho_block ring[4] = {{-20, -20, 20, -10}, {-20, 10, 20, 20}, {-20, -20, -10, 20}, {10, -20, 20, 20}};
  cb_ortho_problem pr = problem((cb_point){0, 0}, CB_ORTHO_E, &g, 1);
  pr.blocks = ring, pr.nblocks = 4;
  cb_point v[16];
  int goal = -1;
  double cost = 0;
  assert_int_equal(cb_ortho_route(&pr, v, 16, &goal, &cost), 0);
  /* too many corners for the room given: none either */
  cb_ortho_block b = {40, -20, 60, 30};
  pr.blocks = &b, pr.nblocks = 1;
  assert_int_equal(cb_ortho_route(&pr, v, 3, &goal, &cost), 0);
  /* no goals, or a grid over the line cap: none */
  pr.ngoals = 0;
  assert_int_equal(cb_ortho_route(&pr, v, 16, &goal, &cost), 0);
  pr.ngoals = 1, pr.max_lines = 3;
  assert_int_equal(cb_ortho_route(&pr, v, 16, &goal, &cost), 0);
}

/* Random blocks on a 10-unit grid, start and goal outside them. */
static void random_blocks(void **state) {
  (void)state;
  cb_rng rng;
  cb_rng_seed(&rng, 13, 0);
  int seeds = cb_test_seeds(10000) / 10, found = 0;
  for (int s = 0; s < seeds; s++) {
    cb_ortho_block b[12];
    int nb = 1 + (int)cb_rng_below(&rng, 12);
    for (int i = 0; i < nb; i++) {
      double x = 10.0 * cb_rng_below(&rng, 20), y = 10.0 * cb_rng_below(&rng, 20);
      b[i] = (cb_ortho_block){x, y, x + 10.0 * (1 + cb_rng_below(&rng, 5)),
                              y + 10.0 * (1 + cb_rng_below(&rng, 5))};
    }
    cb_point from = {5.0 + 10 * cb_rng_below(&rng, 20), 5.0 + 10 * cb_rng_below(&rng, 20)};
    cb_ortho_goal g = {{5.0 + 10 * cb_rng_below(&rng, 20), 5.0 + 10 * cb_rng_below(&rng, 20)},
                       (int)cb_rng_below(&rng, 4),
                       0};
    bool clear = true;
    for (int i = 0; i < nb; i++) {
      cb_ortho_block in = b[i];
      clear = clear && !(from.x > in.x0 && from.x < in.x1 && from.y > in.y0 && from.y < in.y1) &&
              !(g.at.x > in.x0 && g.at.x < in.x1 && g.at.y > in.y0 && g.at.y < in.y1);
    }
    if (!clear || (from.x == g.at.x && from.y == g.at.y)) continue;
    cb_ortho_problem pr = problem(from, (int)cb_rng_below(&rng, 4), &g, 1);
    pr.blocks = b, pr.nblocks = nb, pr.pad = 5, pr.hug = 0.5;
    cb_point v[64];
    int goal = -1;
    double cost = 0;
    int n = cb_ortho_route(&pr, v, 64, &goal, &cost);
    assert_true(n >= 0);
    if (n == 0) continue;
    found++;
    assert_true(v[0].x == from.x && v[0].y == from.y);
    assert_true(v[n - 1].x == g.at.x && v[n - 1].y == g.at.y);
    for (int i = 1; i < n; i++)
      assert_true(v[i].x == v[i - 1].x || v[i].y == v[i - 1].y);
    for (int i = 0; i < nb; i++)
      assert_false(enters(v, n, b[i]));
    /* its legs and bends, the last bend into the goal included, at most: hugging adds the rest */
    double at_least = length(v, n) + BEND * (n - 2);
    assert_true(cost >= at_least - 1e-9);
    assert_true(cost <= at_least + 2 * BEND + 0.5 * length(v, n) + 1e-9);
  }
  assert_true(found > seeds / 2);
}

/* The fewest bends by brute force: every sequence of up to six legs that
 * never reverses, whose directions can add up to (dx, dy), ending in the
 * goal's way (the turn into it counted). */
static int brute_bends(int dir, int goal_dir, int sx, int sy) {
  int best = 99;
  for (int len = 0; len <= 6; len++) {
    int total = 1;
    for (int i = 0; i < len; i++)
      total *= 4;
    for (int code = 0; code < total; code++) {
      int c = dir, bends = 0, used = 0, seq = code, ok = 1;
      for (int i = 0; i < len && ok; i++, seq /= 4) {
        int nd = seq % 4;
        ok = nd != (c + 2) % 4;
        bends += nd != c, c = nd, used |= 1 << nd;
      }
      if (!ok || goal_dir == (c + 2) % 4) continue;
      bends += c != goal_dir;
      /* an axis is met when it needs no leg and has none or both ways, or has the way it needs */
      bool e = used & (1 << CB_ORTHO_E), w = used & (1 << CB_ORTHO_W);
      bool so = used & (1 << CB_ORTHO_S), no = used & (1 << CB_ORTHO_N);
      bool x_ok = sx > 0 ? e : sx < 0 ? w : e == w, y_ok = sy > 0 ? so : sy < 0 ? no : so == no;
      if (x_ok && y_ok && bends < best) best = bends;
    }
  }
  return best;
}

static void min_bends(void **state) {
  (void)state;
  for (int d = 0; d < 4; d++)
    for (int gd = 0; gd < 4; gd++)
      for (int sx = -1; sx <= 1; sx++)
        for (int sy = -1; sy <= 1; sy++)
          assert_int_equal(cb_ortho_min_bends(d, gd, 30.0 * sx, 20.0 * sy), brute_bends(d, gd, sx, sy));
}

/* Routes in one kept room, big and small in turn, are the routes made afresh. */
static void kept_room(void **state) {
  (void)state;
  cb_rng rng;
  cb_rng_seed(&rng, 7, 0);
  cb_ortho_work *w = cb_ortho_work_new();
  assert_non_null(w);
  for (int t = 0; t < cb_test_seeds(400); t++) {
    cb_ortho_block b[8];
    cb_point segs[8];
    int nb = (int)cb_rng_below(&rng, 8), ns = (int)cb_rng_below(&rng, 4), span = t % 2 ? 40 : 8;
    for (int i = 0; i < nb; i++) {
      double x = 10.0 * cb_rng_below(&rng, span), y = 10.0 * cb_rng_below(&rng, span);
      b[i] = (cb_ortho_block){x, y, x + 10, y + 10};
    }
    for (int i = 0; i < ns; i++) {
      double x = 5.0 + 10 * cb_rng_below(&rng, span), y = 5.0 + 10 * cb_rng_below(&rng, span);
      segs[2 * i] = (cb_point){x, y};
      segs[2 * i + 1] = i % 2 ? (cb_point){x + 40, y} : (cb_point){x, y + 40};
    }
    cb_ortho_goal g[2] = {{{2.5 + 10 * cb_rng_below(&rng, span), 2.5}, CB_ORTHO_S, 0},
                          {{2.5, 2.5 + 10 * cb_rng_below(&rng, span)}, CB_ORTHO_E, 30}};
    cb_ortho_problem pr =
        problem((cb_point){2.5 + 10 * cb_rng_below(&rng, span), 2.5 + 10 * span}, CB_ORTHO_N, g, 2);
    pr.blocks = b, pr.nblocks = nb, pr.segs = segs, pr.nsegs = ns, pr.pad = 5, pr.hug = 1, pr.near = 10,
    pr.crowd = 2, pr.along = 500;
    cb_point v1[64], v2[64];
    int g1 = -1, g2 = -1;
    double c1 = 0, c2 = 0;
    int n1 = cb_ortho_route(&pr, v1, 64, &g1, &c1), n2 = cb_ortho_route_in(w, &pr, v2, 64, &g2, &c2);
    assert_int_equal(n1, n2);
    if (n1 <= 0) continue;
    assert_int_equal(g1, g2);
    assert_float_equal(c1, c2, 0);
    for (int i = 0; i < n1; i++)
      assert_true(v1[i].x == v2[i].x && v1[i].y == v2[i].y);
  }
  cb_ortho_work_free(w);
}

static void out_of_memory(void **state) {
  (void)state;
  cb_ortho_goal g = {{100, 0}, CB_ORTHO_E, 0};
  cb_ortho_block b = {40, -20, 60, 30};
  cb_ortho_problem pr = problem((cb_point){0, 0}, CB_ORTHO_E, &g, 1);
  pr.blocks = &b, pr.nblocks = 1;
  cb_point v[16];
  int goal = -1, failures = 0;
  double cost = 0;
  int want = cb_ortho_route(&pr, v, 16, &goal, &cost);
  assert_true(want > 0);
  for (long k = 0; k < 64; k++) {
    cb_alloc_fail_once(k);
    int n = cb_ortho_route(&pr, v, 16, &goal, &cost);
    cb_alloc_fail_once(-1);
    assert_true(n == -1 || n == want);
    failures += n == -1;
  }
  assert_true(failures > 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(straight),  cmocka_unit_test(round_a_block), cmocka_unit_test(cheapest_goal_and_bends),
      cmocka_unit_test(crossings), cmocka_unit_test(boxed_in),      cmocka_unit_test(random_blocks),
      cmocka_unit_test(min_bends), cmocka_unit_test(kept_room),     cmocka_unit_test(out_of_memory),
      cmocka_unit_test(beside),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
