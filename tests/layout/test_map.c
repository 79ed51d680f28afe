/* The map's symbols for a passage: every kind the key names is drawn (a
 * secret locked way is dotted and padlocked, a locked stair keeps its
 * stairs), the one that changes play most on the middle. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> // after the headers it needs

#include <math.h>

#include "../tests/layout/fake_measure.h"
#include "layout/map.h"
#include "layout/symbols.h"
#include "model/dungeon.h"
#include "testlib.h"

static int kinds_of(cb_passage_kind kind, unsigned flags, cb_symbol *out) {
  cb_passage ps = {.id = 1, .from = 1, .to = 2, .kind = kind, .flags = flags};
  return cb_map_passage_symbols(&ps, out);
}

static void every_kind_is_drawn(void **state) {
  (void)state;
  cb_symbol s[CB_PASSAGE_KINDS];
  assert_int_equal(kinds_of(CB_PASSAGE_CORRIDOR, CB_FLAG_SECRET | CB_FLAG_LOCKED, s), 2);
  assert_int_equal(s[0], CB_SYM_LOCKED);
  assert_int_equal(s[1], CB_SYM_SECRET);
  assert_int_equal(kinds_of(CB_PASSAGE_CORRIDOR, CB_FLAG_LOCKED | CB_FLAG_TRAPPED, s), 2);
  assert_int_equal(s[1], CB_SYM_TRAPPED);
  /* a locked stair is still a stair; a locked door is the padlock alone */
  assert_int_equal(kinds_of(CB_PASSAGE_STAIRS, CB_FLAG_LOCKED, s), 2);
  assert_int_equal(s[1], CB_SYM_STAIRS);
  assert_int_equal(kinds_of(CB_PASSAGE_DOOR, CB_FLAG_LOCKED, s), 1);
  assert_int_equal(s[0], CB_SYM_LOCKED);
  assert_int_equal(kinds_of(CB_PASSAGE_DOOR, 0, s), 1);
  assert_int_equal(s[0], CB_SYM_DOOR);
  assert_int_equal(cb_map_passage_symbol(&(cb_passage){.kind = CB_PASSAGE_STAIRS, .flags = CB_FLAG_SECRET}),
                   CB_SYM_SECRET);
}

/* A corridor with `flags` drawn across a 200-point page, 10 to 190 at y 100;
 * how many marks it carries into *nkinds when asked. */
static cb_page *way_drawn(const cb_symbols *st, unsigned flags, int *nkinds) {
  cb_page *p = cb_page_new(200, 200);
  assert_non_null(p);
  cb_symbol kinds[CB_PASSAGE_KINDS];
  int n = kinds_of(CB_PASSAGE_CORRIDOR, flags, kinds);
  cb_symbol_passage_kinds(p, st, kinds, n, 10, 100, 190, 100);
  if (nkinds) *nkinds = n;
  return p;
}

/* Drawn: a secret locked way's line is dotted, and both marks are on the page. */
static void a_secret_locked_way_is_dotted_and_padlocked(void **state) {
  (void)state;
  cb_symbols st = {&fake_measure, 10.5, 1.0, 7.5, {0, 0, 0}, {1, 1, 1}, NULL, {1, 1, 1}};
  cb_page *p = way_drawn(&st, CB_FLAG_SECRET | CB_FLAG_LOCKED, NULL);
  int dotted = 0, s_letter = 0;
  for (int i = 0; i < p->nitems; i++) {
    const cb_item *it = &p->items[i];
    if (it->kind == CB_ITEM_PATH && it->ink.ndash > 0) dotted++;
    if (it->kind == CB_ITEM_TEXT && it->text[0] == 'S' && !it->text[1]) s_letter++;
  }
  assert_true(dotted >= 1);
  assert_int_equal(s_letter, 1);
  /* the padlock: more than the line and the S disc */
  assert_true(p->nitems >= 4);
  cb_page_free(p);
}

/* The box an item's ink covers: its path (a curve sampled along it, not by its control points), and
 * its stroke's half width round it. */
static void ink_box(const cb_page *p, const cb_item *it, double *b) {
  double h = it->ink.stroke ? it->ink.width / 2 : 0, lx = 0, ly = 0;
  b[0] = b[1] = 1e9, b[2] = b[3] = -1e9;
  for (int k = it->op0; k < it->op0 + it->nops; k++) {
    const cb_op *o = &p->ops[k];
    if (o->kind == CB_OP_CLOSE) continue;
    int j = o->kind == CB_OP_CURVE ? 2 : 0;
    for (int i = 0; i <= 64; i++) {
      double t = i / 64.0, u = 1 - t, x = o->x[j], y = o->y[j];
      if (o->kind == CB_OP_CURVE)
        x = u * u * u * lx + 3 * u * u * t * o->x[0] + 3 * u * t * t * o->x[1] + t * t * t * o->x[2],
        y = u * u * u * ly + 3 * u * u * t * o->y[0] + 3 * u * t * t * o->y[1] + t * t * t * o->y[2];
      b[0] = fmin(b[0], x - h), b[2] = fmax(b[2], x + h), b[1] = fmin(b[1], y - h), b[3] = fmax(b[3], y + h);
    }
    lx = o->x[j], ly = o->y[j];
  }
}

/* Where a locked and trapped way's marks ink (issue 22: key ids sat over a padlock's shackle, which
 * reaches above the square of its size, and a padlock on its trap's zigzag): the padlock within
 * cb_symbol_passage_mark_ink round the middle, the zigzag's teeth within cb_symbol_passage_stretch of
 * their place along the line. */
static void marks_ink_where_they_say(void **state) {
  (void)state;
  cb_symbols st = {&fake_measure, 10.5, 1.0, 7.5, {0, 0, 0}, {1, 1, 1}, NULL, {1, 1, 1}};
  int n = 0;
  cb_page *p = way_drawn(&st, CB_FLAG_LOCKED | CB_FLAG_TRAPPED, &n);
  double ink[4], w, h, trap = 10 + 180 * CB_PASSAGE_KIND_AT[1],
                       reach = cb_symbol_passage_stretch(&st, CB_SYM_TRAPPED, n, 180);
  cb_symbol_passage_mark_ink(&st, CB_SYM_LOCKED, ink);
  cb_symbol_passage_mark(&st, CB_SYM_LOCKED, &w, &h);
  assert_true(reach > 0 && reach < 180 * (CB_PASSAGE_KIND_AT[0] - CB_PASSAGE_KIND_AT[1]));
  double top = 100;
  int teeth = 0;
  for (int i = 1; i < p->nitems; i++) {
    const cb_item *it = &p->items[i];
    double b[4];
    ink_box(p, it, b);
    bool white = it->ink.stroke && !it->ink.fill && it->ink.stroke_color.r > 0.99;
    if (it->kind != CB_ITEM_PATH || white) continue;
    if (b[0] > 80) { /* the padlock's */
      assert_true(b[0] >= 100 + ink[0] - 1e-9 && b[2] <= 100 + ink[2] + 1e-9);
      assert_true(b[1] >= 100 + ink[1] - 1e-9 && b[3] <= 100 + ink[3] + 1e-9);
      top = fmin(top, b[1]);
    } else if (b[3] - b[1] > 1.5) { /* the zigzag: its teeth off the line */
      for (int k = it->op0; k < it->op0 + it->nops; k++)
        if (fabs(p->ops[k].y[0] - 100) > 0.1) {
          assert_true(fabs(p->ops[k].x[0] - trap) <= reach + 1e-9);
          teeth++;
        }
    }
  }
  /* the shackle reaches above the square of the padlock's size, which kept key ids off it before */
  assert_true(top < 100 - fmax(w, h) / 2);
  assert_int_equal(teeth, 4);
  cb_page_free(p);
}

/* A room's marks on the map (issue 22, every mark on every map): the boss
 * where the stocking put it, in the goal room with no boss tag (it had
 * none); a locked stair's padlock and key id at both its ends (only the end
 * it left from had it), the goal's badge reading "G B"; one mark for the
 * stairs out of the dungeon (none). */
static void every_room_mark_is_there(void **state) {
  (void)state;
  cb_dungeon *d = cb_dungeon_new("test", 1);
  cb_page *p = cb_page_new(100, 100);
  assert_non_null(d), assert_non_null(p);
  assert_non_null(cb_dungeon_add_level(d, 1, "One")), assert_non_null(cb_dungeon_add_level(d, 2, "Two"));
  cb_room *a = cb_dungeon_add_room(d, 1, 0, 0), *b = cb_dungeon_add_room(d, 2, 0, 0);
  assert_non_null(a), assert_non_null(b);
  a->tags |= CB_TAG_GOAL, d->boss_room = a->id;
  cb_passage *stairs = cb_dungeon_add_passage(d, a->id, b->id, CB_PASSAGE_STAIRS);
  assert_non_null(stairs);
  stairs->flags |= CB_FLAG_LOCKED, stairs->lock = "K1";
  assert_non_null(cb_dungeon_add_passage(d, b->id, 0, CB_PASSAGE_STAIRS));
  assert_non_null(cb_dungeon_add_passage(d, 0, b->id, CB_PASSAGE_LADDER));
  cb_map_mark m[CB_MAP_MAX_MARKS];
  assert_int_equal(cb_map_room_marks(p, d, a, m), 2);
  assert_int_equal(m[0].sym, CB_SYM_GOAL), assert_string_equal(m[0].text, "G B");
  assert_true(cb_map_mark_symbols(&m[0]) & CB_SYMBOL_BIT(CB_SYM_BOSS)); /* the legend explains the B */
  assert_int_equal(m[1].sym, CB_SYM_STAIRS_AWAY), assert_string_equal(m[1].text, "L2 K1");
  assert_int_equal(cb_map_room_marks(p, d, b, m), 2);
  assert_int_equal(m[0].sym, CB_SYM_STAIRS_AWAY), assert_string_equal(m[0].text, "L1 K1");
  assert_int_equal(m[1].sym, CB_SYM_STAIRS_AWAY), assert_null(m[1].text);
  /* without a page (the key's symbols) the ways are left out, the boss is not */
  assert_int_equal(cb_map_room_marks(NULL, d, a, m), 1);
  assert_string_equal(m[0].text, "G B");
  cb_page_free(p);
  cb_dungeon_free(d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_kind_is_drawn),
      cmocka_unit_test(a_secret_locked_way_is_dotted_and_padlocked),
      cmocka_unit_test(marks_ink_where_they_say),
      cmocka_unit_test(every_room_mark_is_there),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
