/* battleships' map in level panels and on pages of their own (booklet.md,
 * "The map": level panels share one scale and leave no empty quarter; issue
 * 22): the rooms take the space they are given. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> // after the headers it needs

#include <math.h>
#include <stdio.h>

#include "../tests/layout/fake_measure.h"
#include "layout/graph.h"
#include "proc/battleships/layout.h"
#include "registry/registry.h"
#include "stock/stock.h"
#include "testlib.h"

static const int SEEDS = 20;

typedef struct extent {
  double x0, y0, x1, y1;
} extent;

/* The box round the circles of level `level`'s rooms drawn on p. */
static extent rooms_drawn(const cb_page *p, const cb_dungeon *d, int level) {
  extent e = {INFINITY, INFINITY, -INFINITY, -INFINITY};
  for (int i = 0; i < p->nitems; i++) {
    const cb_item *it = &p->items[i];
    const cb_room *r = cb_dungeon_room(d, it->role.a);
    if (it->kind != CB_ITEM_PATH || it->role.kind != CB_ROLE_ROOM || !it->ink.fill || !r || r->level != level)
      continue;
    for (int k = it->op0; k < it->op0 + it->nops; k++)
      for (int j = 0; j < (p->ops[k].kind == CB_OP_CURVE ? 3 : p->ops[k].kind == CB_OP_CLOSE ? 0 : 1); j++) {
        e.x0 = fmin(e.x0, p->ops[k].x[j]), e.x1 = fmax(e.x1, p->ops[k].x[j]);
        e.y0 = fmin(e.y0, p->ops[k].y[j]), e.y1 = fmax(e.y1, p->ops[k].y[j]);
      }
  }
  return e;
}

static cb_dungeon *dungeon(int seed, int levels) {
  cb_gen_options o = {.seed = (uint64_t)seed, .levels = levels};
  cb_stock_options sto = {0};
  cb_dungeon *d = NULL;
  cb_error err = {0};
  if (cb_generator_run(cb_generator_find("battleships"), &o, &d, &err) != CB_OK ||
      cb_stock_run(d, &sto, &err) != CB_OK)
    fail_msg("battleships seed %d: %s", seed, err.msg);
  return d;
}

/* How much of a box w x h the rooms of d's levels take, each drawn in it
 * alone: the most of the width and the most of the height any level takes. */
static void taken(const cb_dungeon *d, const cb_symbols *st, double w, double h, double *wide, double *high) {
  *wide = *high = 0;
  for (int l = 0; l < d->nlevels; l++) {
    cb_page *p = cb_page_new(w + 20, h + 20);
    assert_non_null(p);
    cb_symbol_set used = 0;
    cb_battleships_map(p, st, d, d->levels[l].id, 10, 10, w, h, &used);
    extent e = rooms_drawn(p, d, d->levels[l].id);
    if (e.x0 < 10 - 1e-6 || e.y0 < 10 - 1e-6 || e.x1 > 10 + w + 1e-6 || e.y1 > 10 + h + 1e-6)
      fail_msg("seed %llu level %d: rooms outside the box", (unsigned long long)d->seed, d->levels[l].id);
    *wide = fmax(*wide, (e.x1 - e.x0) / w), *high = fmax(*high, (e.y1 - e.y0) / h);
    cb_page_free(p);
  }
}

/* The sheet's symbols at their usual sizes, measured by the fake metrics, laying graphs out through `graphs`.
 */
static cb_symbols symbols(cb_graph_cache *graphs) {
  return (cb_symbols){&fake_measure, 10.5, 1.0, 7.5, {0, 0, 0}, {1, 1, 1}, NULL, {1, 1, 1}, graphs, NULL};
}

/* In a panel as the sheet makes them (the hook's height for its width: 170
 * points, three levels abreast on A4), the widest level's rooms span 80% of
 * it at least (0.83 to 0.88 over these seeds; issue 22: 0.73 to 0.77 while the
 * panels kept the generic map's margin of a room and a half of badges round
 * the rooms). */
static void panels_use_their_width(void **state) {
  (void)state;
  cb_graph_cache *graphs = cb_graph_cache_new();
  cb_symbols st = symbols(graphs);
  double least = 1;
  for (int seed = 1; seed <= SEEDS; seed++) {
    cb_dungeon *d = dungeon(seed, 2 + seed % 2);
    double w = 170, h = 0, wide, high;
    for (int l = 0; l < d->nlevels; l++)
      h = fmax(h, cb_battleships_layout.map.height(d, &st, d->levels[l].id, w));
    taken(d, &st, w, h, &wide, &high);
    least = fmin(least, wide);
    if (wide < 0.8) fail_msg("seed %d: the widest level takes %.2f of its panel's width", seed, wide);
    cb_dungeon_free(d);
  }
  printf("battleships panels: the widest level takes %.2f of the width at least\n", least);
  cb_graph_cache_free(graphs);
}

/* On a page of its own (the booklet's, a box upright), a level is laid out
 * to the page's shape: some level's rooms take 85% of its height (0.95 to
 * 0.98 over these seeds; issue 22: 0.39 to 0.56 when laid out wide, as for a panel,
 * in a box upright). */
static void a_page_of_its_own_is_filled(void **state) {
  (void)state;
  cb_graph_cache *graphs = cb_graph_cache_new();
  cb_symbols st = symbols(graphs);
  double least = 1;
  for (int seed = 1; seed <= SEEDS; seed++) {
    cb_dungeon *d = dungeon(seed, 2 + seed % 2);
    double wide, high;
    taken(d, &st, 500, 680, &wide, &high);
    least = fmin(least, high);
    if (high < 0.85) fail_msg("seed %d: the tallest level takes %.2f of the page's height", seed, high);
    cb_dungeon_free(d);
  }
  printf("battleships pages: the tallest level takes %.2f of the height at least\n", least);
  cb_graph_cache_free(graphs);
}

int main(void) {
  struct CMUnitTest tests[] = {
      cmocka_unit_test(panels_use_their_width),
      cmocka_unit_test(a_page_of_its_own_is_filled),
  };
  return cb_test_run("test_layout", tests, sizeof tests / sizeof *tests, NULL, NULL);
}
