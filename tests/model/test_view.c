/* The players' map over 1,000 seeds of every generator: no secret, concealed,
 * trapped or locked passage, rooms numbered without gaps, and exactly the rooms the party can find from the
 * ways in without a secret (worked out here by a fixed-point sweep, not the view's own walk). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> // after the headers it needs

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "model/check.h"
#include "model/view.h"
#include <string.h>

#include "proc/battleships/proc.h"
#include "registry/registry.h"
#include "testlib.h"

static const unsigned UNSEEN = CB_FLAG_SECRET | CB_FLAG_CONCEALED;

/* known[i]: room i is found from a way in along passages without a secret */
static bool *findable(const cb_dungeon *d) {
  bool *known = calloc((size_t)d->nrooms + 1, sizeof *known);
  assert_non_null(known);
  int ways_in = 0;
  for (int i = 0; i < d->nrooms; i++)
    if (d->rooms[i].tags & (CB_TAG_ENTRANCE | CB_TAG_START | CB_TAG_MAIN_START)) known[i] = true, ways_in++;
  if (!ways_in && d->nrooms) known[cb_check_start_room(d)] = true;
  for (bool grew = true; grew;) {
    grew = false;
    for (int k = 0; k < d->npassages; k++) {
      const cb_passage *p = &d->passages[k];
      if ((p->flags & UNSEEN) || p->to == 0) continue;
      int a = (int)(cb_dungeon_room(d, p->from) - d->rooms), b = (int)(cb_dungeon_room(d, p->to) - d->rooms);
      if (known[a] && !known[b]) known[b] = grew = true;
      if (known[b] && !known[a] && !(p->flags & CB_FLAG_ONE_WAY)) known[a] = grew = true;
    }
  }
  return known;
}

static void check_view(const cb_dungeon *d, const cb_dungeon *v, const char *what) {
  bool *known = findable(d);
  int in_view = 0;
  for (int i = 0; i < d->nrooms; i++) {
    bool shown = cb_dungeon_room(v, d->rooms[i].id) != NULL;
    if (shown != known[i])
      fail_msg("%s: room %d is %s but %s", what, d->rooms[i].id, known[i] ? "findable" : "behind a secret",
               shown ? "shown" : "left out");
    in_view += shown;
  }
  assert_int_equal(in_view, v->nrooms);
  /* numbered 1..n with no gap where a hidden room was */
  for (int i = 0; i < v->nrooms; i++)
    if (v->rooms[i].number != i + 1)
      fail_msg("%s: room %d is numbered %d, not %d", what, v->rooms[i].id, v->rooms[i].number, i + 1);
  for (int k = 0; k < v->npassages; k++) {
    const cb_passage *p = &v->passages[k];
    if (p->flags & (UNSEEN | CB_FLAG_TRAPPED | CB_FLAG_LOCKED | CB_FLAG_SOFT_LOCKED) || p->lock)
      fail_msg("%s: passage %d-%d shows a secret, trap or lock", what, p->from, p->to);
    const cb_passage *same = cb_dungeon_passage(d, p->id);
    if (!same || same->from != p->from || same->to != p->to)
      fail_msg("%s: passage %d of the view is not the dungeon's passage %d", what, p->id, p->id);
  }
  free(known);
}

static void the_players_see_only_what_they_can_find(void **state) {
  (void)state;
  int n = 0, hidden = 0;
  const cb_generator *const *gens = cb_generator_list(&n);
  for (int g = 0; g < n; g++)
    for (int seed = 1; seed <= 1000; seed++) {
      cb_battleships_options bs = {.secret_rows = seed % 2 == 0};
      cb_gen_options o = {.seed = (uint64_t)seed, .own = strcmp(gens[g]->name, "battleships") ? NULL : &bs};
      cb_dungeon *d = NULL;
      cb_error err = {0};
      if (cb_generator_run(gens[g], &o, &d, &err) != CB_OK)
        fail_msg("%s seed %d: %s", gens[g]->name, seed, err.msg);
      cb_dungeon *v = cb_player_view(d);
      assert_non_null(v);
      char what[64];
      snprintf(what, sizeof what, "%s seed %d", gens[g]->name, seed);
      check_view(d, v, what);
      hidden += v->nrooms < d->nrooms;
      cb_dungeon_free(v);
      cb_dungeon_free(d);
    }
  /* the check has something to find: some dungeons keep rooms behind secrets */
  assert_true(hidden > 50);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(the_players_see_only_what_they_can_find)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
