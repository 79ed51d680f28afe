/* The model's adders, look-ups, options, flags, keys and the names of tags,
 * kinds, flags and rewrite rules. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> // after the headers it needs

#include <stdio.h>
#include <string.h>

#include "base/text.h"
#include "model/dungeon.h"
#include "testlib.h"

static void adders_number_in_order(void **state) {
  (void)state;
  cb_dungeon *d = cb_dungeon_new("dropdice", 42);
  assert_non_null(d);
  assert_string_equal(d->generator, "dropdice");
  assert_true(d->seed == 42);
  assert_non_null(cb_dungeon_add_level(d, 1, "Level 1"));
  for (int i = 0; i < 1000; i++) {
    cb_room *r = cb_dungeon_add_room(d, 1, i * 1.5, -i);
    assert_non_null(r);
    assert_int_equal(r->id, i + 1);
    assert_int_equal(r->number, i + 1);
    assert_int_equal(r->value, CB_NO_VALUE);
    assert_int_equal(r->tags, 0);
    assert_null(r->text);
  }
  for (int i = 1; i < 1000; i++) {
    cb_passage *p = cb_dungeon_add_passage(d, i, i + 1, CB_PASSAGE_DOOR);
    assert_non_null(p);
    assert_int_equal(p->id, i);
    assert_true(p->length_ft < 0);
    assert_int_equal(p->flags, 0);
    assert_null(p->lock);
  }
  /* growth kept every earlier element */
  assert_int_equal(d->nrooms, 1000);
  assert_int_equal(d->npassages, 999);
  for (int i = 0; i < 1000; i++)
    assert_true(d->rooms[i].x == i * 1.5 && d->rooms[i].y == -i);
  for (int i = 0; i < 999; i++)
    assert_int_equal(d->passages[i].to, i + 2);
  assert_false(d->oom);
  cb_dungeon_free(d);
  cb_dungeon_free(NULL);
}

static void lookup_by_id(void **state) {
  (void)state;
  cb_dungeon *d = cb_dungeon_new("cards", 1);
  cb_dungeon_add_level(d, 1, "L");
  const int ids[] = {3, 7, 8, 20, 1000};
  for (size_t i = 0; i < 5; i++)
    cb_dungeon_add_room_id(d, ids[i], 1, 0, 0);
  for (size_t i = 0; i < 5; i++) {
    cb_room *r = cb_dungeon_room(d, ids[i]);
    assert_non_null(r);
    assert_int_equal(r->id, ids[i]);
  }
  const int absent[] = {0, -1, 1, 2, 4, 5, 9, 999, 1001};
  for (size_t i = 0; i < sizeof absent / sizeof *absent; i++)
    assert_null(cb_dungeon_room(d, absent[i]));
  cb_dungeon_free(d);
  cb_dungeon *e = cb_dungeon_new("x", 0);
  assert_null(cb_dungeon_room(e, 1));
  cb_dungeon_free(e);
}

static void options_and_flags(void **state) {
  (void)state;
  cb_dungeon *d = cb_dungeon_new("dropdice", 0);
  assert_int_equal(cb_dungeon_set_option(d, "rooms", "10", true), 0);
  assert_int_equal(cb_dungeon_set_option(d, "extra-by", "tree", false), 0);
  assert_int_equal(cb_dungeon_set_flag(d, "faithful"), 0);
  assert_int_equal(d->noptions, 3);
  /* setting again replaces in place, keeping the order */
  char v[8];
  snprintf(v, sizeof v, "%d", 14);
  assert_int_equal(cb_dungeon_set_option(d, "rooms", v, true), 0);
  v[0] = '9'; /* the model holds its own copy */
  assert_int_equal(d->noptions, 3);
  assert_string_equal(d->options[0].name, "rooms");
  assert_string_equal(d->options[0].value, "14");
  assert_true(d->options[0].number && !d->options[0].flag);
  assert_false(d->options[1].number);
  assert_true(d->options[2].flag);
  assert_string_equal(d->options[2].value, "true");
  /* a flag set as an option with a value stops being a flag */
  cb_dungeon_set_option(d, "faithful", "no", false);
  assert_false(d->options[2].flag);
  assert_int_equal(cb_dungeon_set_title(d, "The Dice Pits"), 0);
  assert_string_equal(d->title, "The Dice Pits");
  assert_int_equal(cb_dungeon_log(d, "Room %d: the die shows %d.", 3, 6), 0);
  assert_string_equal(d->log[0], "Room 3: the die shows 6.");
  cb_dungeon_free(d);
}

static void keys_come_and_go(void **state) {
  (void)state;
  cb_dungeon *d = cb_dungeon_new("dropdice", 0);
  cb_dungeon_add_level(d, 1, "L");
  cb_dungeon_add_room(d, 1, 0, 0);
  cb_dungeon_add_room(d, 1, 0, 0);
  cb_room *r = cb_dungeon_room(d, 2);
  char k[4] = "K1";
  assert_int_equal(cb_dungeon_add_key(d, r, k), 0);
  k[1] = '2';
  assert_int_equal(cb_dungeon_add_key(d, r, k), 0);
  assert_int_equal(r->nkeys, 2);
  assert_string_equal(r->keys[0], "K1");
  assert_string_equal(r->keys[1], "K2");
  assert_true(r->tags & CB_TAG_KEY);
  assert_ptr_equal(cb_dungeon_key_room(d, "K2"), r);
  assert_null(cb_dungeon_key_room(d, "K3"));
  cb_dungeon_remove_key(r, "K1");
  assert_int_equal(r->nkeys, 1);
  assert_true(r->tags & CB_TAG_KEY);
  assert_null(cb_dungeon_key_room(d, "K1"));
  cb_dungeon_remove_key(r, "K9"); /* absent: nothing changes */
  assert_int_equal(r->nkeys, 1);
  cb_dungeon_remove_key(r, "K2");
  assert_int_equal(r->nkeys, 0);
  assert_false(r->tags & CB_TAG_KEY);
  cb_dungeon_free(d);
}

static void names_round_trip(void **state) {
  (void)state;
  for (int i = 0; i < CB_TAG_COUNT; i++) {
    const char *n = cb_tag_name((cb_tag)(1u << i));
    assert_string_not_equal(n, "?");
    assert_int_equal(cb_tag_parse(n), (int)(1u << i));
  }
  for (int i = 0; i < CB_FLAG_COUNT; i++) {
    const char *n = cb_flag_name((cb_passage_flag)(1u << i));
    assert_string_not_equal(n, "?");
    assert_int_equal(cb_flag_parse(n), (int)(1u << i));
  }
  for (int i = 0; i < CB_PASSAGE_KIND_COUNT; i++)
    assert_int_equal(cb_passage_kind_parse(cb_passage_kind_name((cb_passage_kind)i)), i);
  /* model.md's spellings */
  assert_int_equal(cb_tag_parse("main-start"), CB_TAG_MAIN_START);
  assert_int_equal(cb_tag_parse("surface-exit"), CB_TAG_SURFACE_EXIT);
  assert_int_equal(cb_flag_parse("soft-locked"), CB_FLAG_SOFT_LOCKED);
  assert_int_equal(cb_flag_parse("dead-end"), CB_FLAG_DEAD_END);
  /* unknown names and values */
  const char *bad[] = {"", "Goal", "goal ", "secret", "main_start", NULL};
  for (int i = 0; bad[i]; i++)
    assert_int_equal(cb_tag_parse(bad[i]), -1);
  assert_int_equal(cb_tag_parse(NULL), -1);
  assert_int_equal(cb_flag_parse("goal"), -1);
  assert_int_equal(cb_passage_kind_parse("hallway"), -1);
  assert_string_equal(cb_tag_name((cb_tag)3), "?");
  assert_string_equal(cb_tag_name((cb_tag)(1u << CB_TAG_COUNT)), "?");
  assert_string_equal(cb_flag_name((cb_passage_flag)0), "?");
  assert_string_equal(cb_passage_kind_name((cb_passage_kind)CB_PASSAGE_KIND_COUNT), "?");
}

/* Issue 25, item 7: a log line is kept whole up to what the JSON reader
 * takes back (4096 bytes, once 1023), and a longer one is cut between two
 * characters, the cut shown. */
static void log_lines_whole(void **state) {
  (void)state;
  cb_dungeon *d = cb_dungeon_new("dropdice", 1);
  assert_non_null(d);
  char line[CB_TEXT_MAX + 256];
  size_t n = 1022;
  memset(line, 'a', n);
  while (n + 2 < CB_TEXT_MAX) /* e acutes, the first across the old cut at 1023 */
    memcpy(line + n, "\xc3\xa9", 2), n += 2;
  line[n++] = 'z';
  line[n] = '\0';
  assert_int_equal(cb_dungeon_log(d, "%s", line), 0);
  assert_string_equal(d->log[0], line); /* 4095 bytes, whole */
  for (n = 0; n + 2 < sizeof line; n += 2)
    memcpy(line + n, "\xc3\xa9", 2);
  line[n] = '\0';
  assert_int_equal(cb_dungeon_log(d, "%s!", line), 0);
  n = strlen(d->log[1]);
  assert_true(n <= CB_TEXT_MAX && n > CB_TEXT_MAX - 6);
  assert_true(cb_utf8_valid(d->log[1]));
  assert_string_equal(d->log[1] + n - 3, "\xe2\x80\xa6");
  assert_memory_equal(d->log[1], line, n - 3);
  cb_dungeon_free(d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(adders_number_in_order), cmocka_unit_test(lookup_by_id),
      cmocka_unit_test(options_and_flags),      cmocka_unit_test(keys_come_and_go),
      cmocka_unit_test(names_round_trip),       cmocka_unit_test(log_lines_whole),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
