/* The model's checks: structure errors on dungeons built wrong on purpose,
 * and the party's walk through locks (nested), secret and one-way passages. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> // after the headers it needs

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/check.h"
#include "testlib.h"

/* n rooms on level 1, no passages */
static cb_dungeon *rooms(int n) {
  cb_dungeon *d = cb_dungeon_new("test", 0);
  cb_dungeon_add_level(d, 1, "L1");
  for (int i = 0; i < n; i++)
    cb_dungeon_add_room(d, 1, i * 10, 0);
  return d;
}

static cb_passage *link(cb_dungeon *d, int a, int b, unsigned flags, const char *lock) {
  cb_passage *p = cb_dungeon_add_passage(d, a, b, CB_PASSAGE_CORRIDOR);
  p->flags = flags;
  p->lock = lock ? cb_arena_strdup(d->arena, lock) : NULL;
  return p;
}

static void expect_error(cb_dungeon *d, const char *where, const char *what) {
  cb_error err = {0};
  assert_int_equal(cb_check_structure(d, &err), CB_EINPUT);
  if (!strstr(err.msg, where) || !strstr(err.msg, what))
    fail_msg("message '%s' lacks '%s' / '%s'", err.msg, where, what);
  cb_dungeon_free(d);
}

static void a_good_dungeon_passes(void **state) {
  (void)state;
  cb_dungeon *d = rooms(4);
  link(d, 1, 2, 0, NULL);
  link(d, 2, 3, CB_FLAG_LOCKED, "K1");
  link(d, 3, 0, CB_FLAG_ONE_WAY, NULL); /* a way out */
  cb_dungeon_add_key(d, cb_dungeon_room(d, 4), "K1");
  cb_error err = {0};
  assert_int_equal(cb_check_structure(d, &err), CB_OK);
  cb_dungeon_free(d);
}

static void structure_errors(void **state) {
  (void)state;
  cb_dungeon *d = rooms(2);
  cb_dungeon_add_level(d, 1, "again");
  expect_error(d, "levels[1]", "appears twice");

  d = cb_dungeon_new("test", 0);
  cb_dungeon_add_level(d, 1, "L");
  cb_dungeon_add_room_id(d, 0, 1, 0, 0);
  expect_error(d, "rooms[0]", ">= 1");

  d = rooms(2);
  cb_dungeon_add_room_id(d, 2, 1, 0, 0); /* duplicate id */
  expect_error(d, "rooms[2]", "not unique");

  d = rooms(0);
  cb_dungeon_add_room_id(d, 5, 1, 0, 0);
  cb_dungeon_add_room_id(d, 3, 1, 0, 0); /* out of order */
  expect_error(d, "rooms[1]", "room id 3");

  d = rooms(1);
  cb_dungeon_add_room_id(d, 2, 7, 0, 0);
  expect_error(d, "rooms[1]", "level 7");

  d = rooms(3);
  cb_dungeon_add_key(d, cb_dungeon_room(d, 1), "K1");
  cb_dungeon_add_key(d, cb_dungeon_room(d, 3), "K1");
  expect_error(d, "rooms[2]", "K1");

  d = rooms(3);
  cb_dungeon_add_key(d, cb_dungeon_room(d, 2), "K4");
  cb_dungeon_add_key(d, cb_dungeon_room(d, 2), "K4"); /* twice in one room */
  expect_error(d, "rooms[1]", "K4");

  d = rooms(2);
  link(d, 1, 2, 0, NULL)->id = 5;
  expect_error(d, "passages[0]", "id 5");

  d = rooms(2);
  link(d, 1, 2, 0, NULL);
  link(d, 9, 2, 0, NULL);
  expect_error(d, "passages[1]", "'from' names room 9");

  d = rooms(2);
  link(d, 1, 3, 0, NULL);
  expect_error(d, "passages[0]", "'to' names room 3");

  d = rooms(2);
  link(d, 1, 2, CB_FLAG_LOCKED, NULL);
  expect_error(d, "passages[0]", "'lock'");

  d = rooms(2);
  cb_dungeon_add_key(d, cb_dungeon_room(d, 1), "K1");
  link(d, 1, 2, CB_FLAG_SECRET, "K1");
  expect_error(d, "passages[0]", "without the flag 'locked'");

  d = rooms(2);
  link(d, 1, 2, CB_FLAG_LOCKED, "K2");
  expect_error(d, "passages[0]", "K2");
}

static int walk(const cb_dungeon *d, int start_id, bool *reached) {
  cb_graph g;
  assert_int_equal(cb_graph_build(d, &g), 0);
  int shut = cb_check_walk(d, &g, start_id - 1, reached);
  cb_graph_free(&g);
  return shut;
}

static void expect_reached(const bool *reached, int n, const char *want) {
  for (int i = 0; i < n; i++)
    if (reached[i] != (want[i] == '1'))
      fail_msg("room %d reached %d, want %c (%s)", i + 1, reached[i], want[i], want);
}

static void walk_simple_lock(void **state) {
  (void)state;
  bool reached[8];
  cb_dungeon *d = rooms(4);
  link(d, 1, 2, 0, NULL);
  link(d, 2, 3, CB_FLAG_LOCKED, "K1");
  link(d, 3, 4, 0, NULL);
  cb_dungeon_add_key(d, cb_dungeon_room(d, 4), "K1"); /* behind its own lock */
  assert_int_equal(walk(d, 1, reached), 1);
  expect_reached(reached, 4, "1100");
  cb_dungeon_remove_key(cb_dungeon_room(d, 4), "K1");
  cb_dungeon_add_key(d, cb_dungeon_room(d, 2), "K1");
  assert_int_equal(walk(d, 1, reached), 0);
  expect_reached(reached, 4, "1111");
  cb_dungeon_free(d);
}

static void walk_nested_locks(void **state) {
  (void)state;
  bool reached[8];
  /* hub 1; each spoke's key lies behind the spoke before it, and the
   * passages come in the order that makes one flood fill not enough */
  cb_dungeon *d = rooms(5);
  link(d, 1, 5, CB_FLAG_LOCKED, "K4");
  link(d, 1, 4, CB_FLAG_LOCKED, "K3");
  link(d, 1, 3, CB_FLAG_LOCKED, "K2");
  link(d, 1, 2, 0, NULL);
  cb_dungeon_add_key(d, cb_dungeon_room(d, 2), "K2");
  cb_dungeon_add_key(d, cb_dungeon_room(d, 3), "K3");
  cb_dungeon_add_key(d, cb_dungeon_room(d, 4), "K4");
  assert_int_equal(walk(d, 1, reached), 0);
  expect_reached(reached, 5, "11111");
  /* break the chain in the middle: K3 moves behind the lock it opens */
  cb_dungeon_remove_key(cb_dungeon_room(d, 3), "K3");
  cb_dungeon_add_key(d, cb_dungeon_room(d, 4), "K3");
  assert_int_equal(walk(d, 1, reached), 2); /* K3's and K4's locks stay shut */
  expect_reached(reached, 5, "11100");
  /* a lock inside a locked area, with the key further in */
  cb_dungeon *e = rooms(4);
  link(e, 1, 2, CB_FLAG_LOCKED, "A");
  link(e, 2, 3, CB_FLAG_LOCKED, "B");
  link(e, 3, 4, 0, NULL);
  cb_dungeon_add_key(e, cb_dungeon_room(e, 1), "A");
  cb_dungeon_add_key(e, cb_dungeon_room(e, 3), "B");
  assert_int_equal(walk(e, 1, reached), 1);
  expect_reached(reached, 4, "1100");
  cb_dungeon_free(d);
  cb_dungeon_free(e);
}

static void walk_one_way_and_secret(void **state) {
  (void)state;
  bool reached[8];
  cb_dungeon *d = rooms(4);
  link(d, 1, 2, CB_FLAG_ONE_WAY, NULL); /* only 1 -> 2 */
  link(d, 2, 3, CB_FLAG_SECRET, NULL);  /* secret passages count as found */
  link(d, 4, 3, CB_FLAG_ONE_WAY, NULL); /* only 4 -> 3 */
  link(d, 3, 0, 0, NULL);               /* a way out leads to no room */
  assert_int_equal(walk(d, 1, reached), 0);
  expect_reached(reached, 4, "1110");
  assert_int_equal(walk(d, 2, reached), 0);
  expect_reached(reached, 4, "0110");
  assert_int_equal(walk(d, 4, reached), 0);
  expect_reached(reached, 4, "0111");
  /* the key lies past a one-way passage with no way back: it still counts */
  cb_dungeon *e = rooms(3);
  link(e, 1, 2, CB_FLAG_ONE_WAY, NULL);
  link(e, 1, 3, CB_FLAG_LOCKED, "K1");
  cb_dungeon_add_key(e, cb_dungeon_room(e, 2), "K1");
  assert_int_equal(walk(e, 1, reached), 0);
  expect_reached(reached, 3, "111");
  /* the key lies behind a one-way passage that points the other way */
  cb_dungeon *f = rooms(3);
  link(f, 2, 1, CB_FLAG_ONE_WAY, NULL);
  link(f, 1, 3, CB_FLAG_LOCKED, "K1");
  cb_dungeon_add_key(f, cb_dungeon_room(f, 2), "K1");
  assert_int_equal(walk(f, 1, reached), 1);
  expect_reached(reached, 3, "100");
  /* a start out of range reaches nothing */
  assert_int_equal(walk(f, 9, reached), 0);
  expect_reached(reached, 3, "000");
  cb_dungeon_free(d);
  cb_dungeon_free(e);
  cb_dungeon_free(f);
}

static void graph_and_start_room(void **state) {
  (void)state;
  cb_dungeon *d = rooms(4);
  link(d, 1, 2, 0, NULL);
  link(d, 2, 3, CB_FLAG_ONE_WAY, NULL);
  link(d, 3, 0, 0, NULL);
  cb_graph g;
  assert_int_equal(cb_graph_build(d, &g), 0);
  assert_int_equal(g.n, 4);
  assert_int_equal(g.start[1] - g.start[0], 1); /* room 1: to 2 */
  assert_int_equal(g.start[2] - g.start[1], 2); /* room 2: to 1 and 3 */
  assert_int_equal(g.start[3] - g.start[2], 0); /* room 3: the one-way leads in, the way out is left out */
  assert_int_equal(g.start[4] - g.start[3], 0);
  cb_graph_free(&g);
  assert_int_equal(cb_check_start_room(d), 0); /* no tags: the first room */
  d->rooms[3].tags |= CB_TAG_START;
  assert_int_equal(cb_check_start_room(d), 3);
  d->rooms[2].tags |= CB_TAG_ENTRANCE;
  assert_int_equal(cb_check_start_room(d), 2);
  d->rooms[1].tags |= CB_TAG_MAIN_START;
  assert_int_equal(cb_check_start_room(d), 1);
  cb_dungeon_free(d);
  cb_dungeon *e = rooms(0);
  assert_int_equal(cb_check_start_room(e), -1);
  cb_dungeon_free(e);
}

/* Two rooms of a level printing the same number are refused (issue 25, 15). */
static void numbers_repeat(void **state) {
  (void)state;
  cb_dungeon *d = rooms(3);
  cb_dungeon_room(d, 3)->number = 1;
  expect_error(d, "rooms[2]", "room 3 is numbered 1 on level 1, as room 1 is");
  d = rooms(3);
  cb_dungeon_add_level(d, 2, "L2");
  cb_room *r = cb_dungeon_add_room(d, 2, 0, 0);
  r->number = 1; /* another level numbers its own */
  cb_error err = {0};
  assert_int_equal(cb_check_structure(d, &err), CB_OK);
  cb_dungeon_free(d);
}

typedef struct notes {
  int n;
  char last[200];
} notes;

static void note(void *ctx, const char *msg) {
  notes *ns = ctx;
  ns->n++;
  snprintf(ns->last, sizeof ns->last, "%s", msg);
}

/* The key walk on read: a lock whose key lies behind it, a key object of a
 * key no room holds (issue 25, 15). */
static void play_notes(void **state) {
  (void)state;
  cb_dungeon *d = rooms(3);
  link(d, 1, 2, 0, NULL);
  link(d, 2, 3, CB_FLAG_LOCKED, "K1");
  cb_dungeon_add_key(d, cb_dungeon_room(d, 3), "K1"); /* behind its own lock */
  notes ns = {0};
  assert_int_equal(cb_check_play(d, note, &ns), 1);
  assert_string_equal(ns.last, "lock K1 (passage 2, 2-3) never opens: its key, in room 3, lies behind it");
  cb_dungeon_free(d);

  d = rooms(2);
  link(d, 1, 2, 0, NULL);
  cb_room *r = cb_dungeon_room(d, 2);
  r->contents = cb_arena_alloc(d->arena, 1, sizeof *r->contents);
  r->contents->treasure = cb_arena_alloc(d->arena, 2, sizeof *r->contents->treasure);
  r->contents->treasure[0] = (cb_treasure){"Coins: 40 gp", 40};
  r->contents->treasure[1] = (cb_treasure){"K9: a key-shaped hole", 0};
  r->contents->ntreasure = 2;
  ns = (notes){0};
  assert_int_equal(cb_check_play(d, note, &ns), 1);
  assert_string_equal(ns.last, "room 2 holds the object of key K9, but no room holds that key");
  cb_dungeon_add_key(d, cb_dungeon_room(d, 1), "K9");
  ns = (notes){0};
  assert_int_equal(cb_check_play(d, note, &ns), 0);
  cb_dungeon_free(d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(a_good_dungeon_passes),   cmocka_unit_test(structure_errors),
      cmocka_unit_test(walk_simple_lock),        cmocka_unit_test(walk_nested_locks),
      cmocka_unit_test(walk_one_way_and_secret), cmocka_unit_test(graph_and_start_room),
      cmocka_unit_test(numbers_repeat),          cmocka_unit_test(play_notes),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
