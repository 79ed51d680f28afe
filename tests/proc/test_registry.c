/* The generator registry and what generators share: every generator is found
 * by its name, and the titles drawn from seeds do not repeat within a batch
 * of up to 1,600 consecutive seeds, wherever it starts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> // after the headers it needs

#include <stdlib.h>
#include <string.h>

#include "registry/registry.h"

static void every_generator_by_name(void **state) {
  (void)state;
  int n = 0;
  const cb_generator *const *list = cb_generator_list(&n);
  assert_int_equal(n, 5);
  for (int i = 0; i < n; i++)
    assert_ptr_equal(cb_generator_find(list[i]->name), list[i]);
  assert_null(cb_generator_find("dropdic"));
  assert_null(cb_generator_find(NULL));
}

/* One rooms check for every procedure, read from its row: past its largest
 * (or any number, for a procedure whose rooms come otherwise) is refused
 * with a message naming --rooms and the procedure's reason. */
static void one_rooms_check(void **state) {
  (void)state;
  int n = 0;
  const cb_generator *const *list = cb_generator_list(&n);
  for (int i = 0; i < n; i++) {
    const cb_generator *g = list[i];
    cb_error err = {0};
    cb_gen_options o = {.rooms = g->max_rooms + 1};
    assert_int_equal(cb_generator_check_rooms(g, &o, &err), CB_EINPUT);
    assert_non_null(strstr(err.msg, "--rooms"));
    if (g->max_rooms == 0) {
      assert_non_null(g->rooms_note);
      assert_non_null(strstr(err.msg, g->rooms_note));
      continue;
    }
    assert_non_null(strstr(err.msg, g->name));
    o.rooms = g->max_rooms;
    assert_int_equal(cb_generator_check_rooms(g, &o, &err), CB_OK);
    o.rooms = -1;
    assert_int_equal(cb_generator_check_rooms(g, &o, &err), CB_EINPUT);
  }
}

static cb_status refusing_steps(const cb_gen_options *o, const void *ctx, cb_dungeon *d, cb_error *err) {
  (void)o, (void)ctx, (void)d;
  return cb_error_set(err, CB_EINPUT, "no");
}

static cb_status starved_steps(const cb_gen_options *o, const void *ctx, cb_dungeon *d, cb_error *err) {
  (void)o, (void)ctx, (void)err;
  d->oom = true;
  return CB_OK;
}

static cb_status kept_steps(const cb_gen_options *o, const void *ctx, cb_dungeon *d, cb_error *err) {
  (void)o, (void)err;
  *(const cb_dungeon **)(uintptr_t)ctx = d;
  return CB_OK;
}

/* The frame every procedure runs in: a dungeon of the row's name and seed,
 * titled, handed out on success and freed (never handed out) on failure. */
static void the_frame(void **state) {
  (void)state;
  cb_generator g = {.name = "test", .title_noun = "Halls", .max_rooms = 5};
  cb_gen_options o = {.seed = 9};
  cb_dungeon *d = (cb_dungeon *)&g;
  cb_error err = {0};
  assert_int_equal(cb_generator_frame(&g, &o, refusing_steps, NULL, &d, &err), CB_EINPUT);
  assert_null(d);
  err = (cb_error){0};
  assert_int_equal(cb_generator_frame(&g, &o, starved_steps, NULL, &d, &err), CB_EINTERNAL);
  assert_null(d);
  o.rooms = 6; /* refused before any step */
  err = (cb_error){0};
  assert_int_equal(cb_generator_frame(&g, &o, kept_steps, NULL, &d, &err), CB_EINPUT);
  o.rooms = 0;
  const cb_dungeon *seen = NULL;
  assert_int_equal(cb_generator_frame(&g, &o, kept_steps, &seen, &d, &err), CB_OK);
  assert_ptr_equal(d, seen);
  assert_string_equal(d->generator, "test");
  assert_true(d->seed == 9);
  assert_non_null(strstr(d->title, " Halls of "));
  cb_dungeon_free(d);
  o.title = "Mine";
  assert_int_equal(cb_generator_frame(&g, &o, kept_steps, &seen, &d, &err), CB_OK);
  assert_string_equal(d->title, "Mine");
  cb_dungeon_free(d);
}

static void every_trap(const cb_room *r, cb_room_word *w) { (void)r, w->trap = true; }

/* Stocking's hint, the room rules, is the row's: the frame hands it to each
 * dungeon it makes (a row without hands none). */
static void room_rules_come_from_the_row(void **state) {
  (void)state;
  cb_generator g = {.name = "test", .title_noun = "Halls", .max_rooms = 5, .room_rules = every_trap};
  cb_gen_options o = {.seed = 9};
  cb_dungeon *d = NULL;
  cb_error err = {0};
  const cb_dungeon *seen = NULL;
  assert_int_equal(cb_generator_frame(&g, &o, kept_steps, &seen, &d, &err), CB_OK);
  assert_true(d->room_rules == every_trap);
  cb_dungeon_free(d);
  g.room_rules = NULL;
  assert_int_equal(cb_generator_frame(&g, &o, kept_steps, &seen, &d, &err), CB_OK);
  assert_null(d->room_rules);
  cb_dungeon_free(d);
  int n, with = 0;
  const cb_generator *const *list = cb_generator_list(&n);
  for (int i = 0; i < n; i++) {
    assert_int_equal(cb_generator_run(list[i], &o, &d, &err), CB_OK);
    assert_true(d->room_rules == list[i]->room_rules);
    with += list[i]->room_rules != NULL;
    cb_dungeon_free(d);
  }
  assert_true(with > 0);
}

static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void titles_do_not_repeat_in_a_batch(void **state) {
  (void)state;
  enum { N = 1600 };
  const uint64_t starts[] = {0, 1, 777,
                             18446744073709551615ull - (N - 1)}; /* batches never wrap (options.c) */
  for (size_t s = 0; s < sizeof starts / sizeof *starts; s++) {
    cb_dungeon *d[N];
    const char *t[N];
    for (int i = 0; i < N; i++) {
      d[i] = cb_dungeon_new("dropdice", starts[s] + (uint64_t)i);
      assert_non_null(d[i]);
      t[i] = cb_gen_title(d[i], "Dice Pits");
      assert_non_null(t[i]);
      assert_non_null(strstr(t[i], " Dice Pits of "));
    }
    qsort(t, N, sizeof *t, cmp);
    for (int i = 1; i < N; i++)
      if (strcmp(t[i - 1], t[i]) == 0)
        fail_msg("seeds from %llu: '%s' twice", (unsigned long long)starts[s], t[i]);
    for (int i = 0; i < N; i++)
      cb_dungeon_free(d[i]);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_generator_by_name),
      cmocka_unit_test(one_rooms_check),
      cmocka_unit_test(the_frame),
      cmocka_unit_test(room_rules_come_from_the_row),
      cmocka_unit_test(titles_do_not_repeat_in_a_batch),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
