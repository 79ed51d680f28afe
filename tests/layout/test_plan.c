/* The sheet's plan: a procedure's own drawings (for the map everywhere, and
 * for the game master's sheet) and a drawing's own legend are taken from
 * what its hooks offer, whichever procedure offers them; and out of memory
 * anywhere in the planning is an error, never a quietly different sheet. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> // after the headers it needs

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tests/layout/fake_measure.h"
#include "base/alloc.h"
#include "layout/hooks.h"
#include "layout/sheet.h"
#include "proc/dropdice/proc.h"
#include "testlib.h"

static const double A4_W = 595.2756, A4_H = 841.8898, MARGIN = 10 * CB_PT_PER_MM;

static cb_dungeon *dropdice(int rooms, uint64_t seed) {
  cb_gen_options o = {0};
  o.seed = seed;
  o.rooms = rooms;
  cb_dungeon *d = NULL;
  cb_error err = {0};
  assert_int_equal(cb_generator_run(&cb_gen_dropdice, &o, &d, &err), CB_OK);
  return d;
}

static void word_in_box(cb_page *p, const char *word, double x, double y, double w, double h) {
  cb_page_rect(p, x, y, w, h);
  cb_ink ink = cb_ink_stroke((cb_rgb)CB_INK_BLACK, 0.5);
  cb_page_ink(p, &ink);
  cb_page_text(p, CB_FONT_REGULAR, 8, x + 2, y + 10, (cb_rgb)CB_INK_BLACK, word);
}

static void map_drawing(cb_page *p, const cb_symbols *st, const cb_dungeon *d, int level, double x, double y,
                        double w, double h, cb_symbol_set *used) {
  (void)st, (void)d, (void)level, (void)used;
  word_in_box(p, "MAP-DRAWING", x, y, w, h);
}

static void sheet_drawing(cb_page *p, const cb_symbols *st, const cb_dungeon *d, int level, double x,
                          double y, double w, double h, cb_symbol_set *used) {
  (void)st, (void)d, (void)level, (void)used;
  word_in_box(p, "SHEET-DRAWING", x, y, w, h);
}

/* A drawing three times as tall as it is wide. */
static double tall(const cb_dungeon *d, const cb_symbols *st, int level, double w) {
  (void)d, (void)st, (void)level;
  return 3 * w;
}

static double own_legend(cb_page *p, const cb_symbols *st, const cb_dungeon *d, cb_symbol_set used,
                         double map_w, double map_h, double x, double y, double w) {
  (void)st, (void)d, (void)used, (void)map_w, (void)map_h;
  if (p) cb_page_text(p, CB_FONT_REGULAR, 8, x, y + 8, (cb_rgb)CB_INK_BLACK, "OWN-LEGEND");
  (void)w;
  return 20;
}

static cb_status lay_out(const cb_dungeon *d, const cb_layout_hooks *hooks, bool player, double page_w,
                         double page_h, cb_document *doc, cb_error *err) {
  cb_sheet_options so = {.page_w = page_w, .page_h = page_h, .margin = MARGIN, .version = "9.9.9"};
  so.hooks = hooks;
  so.player = player;
  return cb_sheet_layout(d, &fake_measure, &so, doc, err);
}

/* The first text item on page 0 that is `text`, or NULL. */
static const cb_item *text_item(const cb_document *doc, const char *text) {
  for (int i = 0; i < doc->pages[0]->nitems; i++) {
    const cb_item *it = &doc->pages[0]->items[i];
    if (it->kind == CB_ITEM_TEXT && strcmp(it->text, text) == 0) return it;
  }
  return NULL;
}

static void a_sheet_drawing_stands_in_on_the_game_masters_sheet(void **state) {
  (void)state;
  cb_dungeon *d = dropdice(12, 7);
  const cb_layout_hooks hooks = {.map = {map_drawing, NULL, NULL},
                                 .sheet = {sheet_drawing, NULL, own_legend}};
  cb_error err = {0};
  cb_document gm = {0}, players = {0};
  assert_int_equal(lay_out(d, &hooks, false, A4_W, A4_H, &gm, &err), CB_OK);
  assert_int_equal(lay_out(d, &hooks, true, A4_W, A4_H, &players, &err), CB_OK);
  assert_non_null(text_item(&gm, "SHEET-DRAWING"));
  assert_non_null(text_item(&gm, "OWN-LEGEND"));
  assert_null(text_item(&gm, "MAP-DRAWING"));
  assert_null(text_item(&gm, "Legend")); /* the drawing's own legend, not the generic one */
  /* the players' handout shows the map drawing with the generic legend */
  assert_non_null(text_item(&players, "MAP-DRAWING"));
  assert_non_null(text_item(&players, "Legend"));
  assert_null(text_item(&players, "SHEET-DRAWING"));
  assert_null(text_item(&players, "OWN-LEGEND"));
  cb_document_free(&gm);
  cb_document_free(&players);
  cb_dungeon_free(d);
}

static void a_map_drawing_brings_its_own_legend(void **state) {
  (void)state;
  cb_dungeon *d = dropdice(12, 8);
  const cb_layout_hooks hooks = {.map = {map_drawing, NULL, own_legend}};
  cb_error err = {0};
  cb_document gm = {0};
  assert_int_equal(lay_out(d, &hooks, false, A4_W, A4_H, &gm, &err), CB_OK);
  assert_non_null(text_item(&gm, "MAP-DRAWING"));
  assert_non_null(text_item(&gm, "OWN-LEGEND"));
  assert_null(text_item(&gm, "Legend"));
  cb_document_free(&gm);
  cb_dungeon_free(d);
}

/* Any drawing with a legend of its own and a shape the key leaves small: the
 * key begins in the columns beside the map (plan_beside), not under it. */
static void the_key_begins_beside_a_small_tall_map(void **state) {
  (void)state;
  cb_dungeon *d = dropdice(40, 9);
  const cb_layout_hooks hooks = {.map = {map_drawing, tall, own_legend}};
  cb_error err = {0};
  cb_document gm = {0};
  assert_int_equal(lay_out(d, &hooks, false, A4_W, A4_H, &gm, &err), CB_OK);
  const cb_item *map = text_item(&gm, "MAP-DRAWING"), *head = text_item(&gm, "Room key");
  assert_non_null(map);
  assert_non_null(head);
  if (!(head->x > MARGIN + 100 && head->y < map->y + 100))
    fail_msg("the key's heading at %.1f,%.1f is not beside the map (its drawing at %.1f,%.1f)", head->x,
             head->y, map->x, map->y);
  cb_document_free(&gm);
  cb_dungeon_free(d);
}

static bool same_doc(const cb_document *a, const cb_document *b) {
  if (a->npages != b->npages) return false;
  for (int pi = 0; pi < a->npages; pi++) {
    const cb_page *p = a->pages[pi], *q = b->pages[pi];
    if (p->nitems != q->nitems || p->nops != q->nops) return false;
    for (int i = 0; i < p->nitems; i++) {
      const cb_item *x = &p->items[i], *y = &q->items[i];
      if (x->kind != y->kind || x->x != y->x || x->y != y->y || (x->text && strcmp(x->text, y->text)))
        return false;
    }
  }
  return true;
}

/* One allocation made to fail at a time, the n-th of a layout's: the layout
 * says so (CB_EINTERNAL with a message), or it is the very sheet a healthy
 * run lays out (the caches it only could not keep). Never a different one. */
static void one_failure(const cb_dungeon *d, const cb_layout_hooks *hooks, double w, double h) {
  cb_error err = {0};
  cb_document healthy = {0};
  unsigned long before = cb_alloc_count();
  assert_int_equal(lay_out(d, hooks, false, w, h, &healthy, &err), CB_OK);
  long n = (long)(cb_alloc_count() - before), stride = n / 400 + 1, checked = 0;
  for (long k = 0; k < n; k += stride) {
    cb_document doc = {0};
    cb_error e = {0};
    cb_alloc_fail_once(k);
    cb_status st = lay_out(d, hooks, false, w, h, &doc, &e);
    cb_alloc_fail_once(-1);
    if (st == CB_OK && !same_doc(&doc, &healthy))
      fail_msg("allocation %ld of %ld failing changed the sheet instead of failing it", k, n);
    if (st != CB_OK && (st != CB_EINTERNAL || !e.msg[0]))
      fail_msg("allocation %ld of %ld failing: status %d '%s'", k, n, (int)st, e.msg);
    checked += st != CB_OK;
    cb_document_free(&doc);
  }
  assert_true(checked > 0);
  cb_document_free(&healthy);
}

static void out_of_memory_is_an_error_not_another_sheet(void **state) {
  (void)state;
  cb_dungeon *d = dropdice(30, 11);
  const cb_layout_hooks tall_own = {.map = {map_drawing, tall, own_legend}};
  one_failure(d, NULL, A4_W, A4_H);      /* the point-crawl, map over key or the key down the side */
  one_failure(d, NULL, A4_H, A4_W);      /* the wide page */
  one_failure(d, &tall_own, A4_W, A4_H); /* the key beside a small map */
  cb_dungeon_free(d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(a_sheet_drawing_stands_in_on_the_game_masters_sheet),
      cmocka_unit_test(a_map_drawing_brings_its_own_legend),
      cmocka_unit_test(the_key_begins_beside_a_small_tall_map),
      cmocka_unit_test(out_of_memory_is_an_error_not_another_sheet),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
