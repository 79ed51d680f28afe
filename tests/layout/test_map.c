/* The map's symbols for a passage: every kind the key names is drawn (a
 * secret locked way is dotted and padlocked, a locked stair keeps its
 * stairs), the one that changes play most on the middle. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> // after the headers it needs

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

/* Drawn: a secret locked way's line is dotted, and both marks are on the page. */
static void a_secret_locked_way_is_dotted_and_padlocked(void **state) {
  (void)state;
  cb_page *p = cb_page_new(200, 200);
  assert_non_null(p);
  cb_symbols st = {&fake_measure, 10.5, 1.0, 7.5, {0, 0, 0}, {1, 1, 1}, NULL, {1, 1, 1}};
  cb_symbol kinds[CB_PASSAGE_KINDS];
  int n = kinds_of(CB_PASSAGE_CORRIDOR, CB_FLAG_SECRET | CB_FLAG_LOCKED, kinds);
  cb_symbol_passage_kinds(p, &st, kinds, n, 10, 100, 190, 100);
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
      cmocka_unit_test(every_room_mark_is_there),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
