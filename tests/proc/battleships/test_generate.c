/* battleships: every rule of generators.md that can be checked from the
 * output, over 10,000 seeds with the options varied by seed; the procedure
 * JSON read back; every option validated. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h> // after the headers it needs

#include "io/json.h"
#include "model/check.h"
#include "proc/battleships/proc.h"
#include "registry/registry.h"
#include "testlib.h"

/* The options as these tests give them: the common ones and battleships'
 * own in one value. */
typedef struct opts {
  uint64_t seed;
  int rooms, levels;
  bool faithful;
  int grid, extra;
  bool extra_set;
  int extra_stairs;
  bool secret_rows, matching_stairs;
  int nfleet, fleet[CB_MAX_FLEET];
} opts;

/* o as the procedure reads it: the common record pointing to its own. */
static cb_gen_options split(const opts *o, cb_battleships_options *own) {
  *own = (cb_battleships_options){.grid = {o->grid, o->grid},
                                  .extra = o->extra,
                                  .extra_set = o->extra_set,
                                  .extra_stairs = o->extra_stairs,
                                  .secret_rows = o->secret_rows,
                                  .matching_stairs = o->matching_stairs,
                                  .nfleet = o->nfleet};
  memcpy(own->fleet, o->fleet, sizeof own->fleet);
  return (cb_gen_options){
      .seed = o->seed, .rooms = o->rooms, .levels = o->levels, .faithful = o->faithful, .own = own};
}

static cb_status generate(const opts *o, cb_dungeon **d, cb_error *err) {
  cb_battleships_options own;
  cb_gen_options g = split(o, &own);
  return cb_generator_run(&cb_gen_battleships, &g, d, err);
}

static cb_status validate(const opts *o, cb_error *err) {
  cb_battleships_options own;
  cb_gen_options g = split(o, &own);
  return cb_generator_check(&cb_gen_battleships, &g, err);
}

/* The options seed s is tried with: levels 1..4, grids 4..15, every flag. */
static opts options_for(uint64_t s) {
  opts o = {0};
  o.seed = s;
  o.levels = 1 + (int)(s % 4);
  o.grid = s % 3 == 0 ? 10 : 4 + (int)(s / 3 % 12);
  o.secret_rows = s % 5 == 1;
  o.matching_stairs = o.levels > 1 && s % 7 == 2;
  o.faithful = s % 11 == 3;
  o.extra_stairs = o.levels > 1 && o.grid >= 8 && s % 13 == 4 ? 1 : 0;
  if (s % 17 == 5) o.extra = (int)(s % 6), o.extra_set = true;
  if (o.grid < 6 && !o.extra_set) o.extra = 1, o.extra_set = true;
  return o;
}

/* The fleet as generators.md resolves it (the README's rule, computed again). */
static int expected_fleet(int n, int *fleet) {
  static const int classic[] = {5, 4, 3, 3, 2};
  int budget = (int)lround(0.17 * n * n), total = 0, count = 0;
  for (int i = 0;; i++) {
    int len = (int)lround(classic[i % 5] * n / 10.0);
    if (len < 1) len = 1;
    if (count > 0 && total + len > budget) break;
    fleet[count++] = len;
    total += len;
  }
  return count;
}

static char mark(const cb_battleships_proc *p, int g, int r, int c) { return p->grids[g].rows[r - 1][c - 1]; }

static void check_dungeon(const opts *o, const cb_dungeon *d) {
  const cb_battleships_proc *p = cb_battleships_of(d);
  int n = o->grid, L = o->levels, E = o->extra_stairs;
  assert_non_null(p);
  assert_int_equal(p->n, n);
  assert_int_equal(p->ngrids, L);
  assert_int_equal(d->nlevels, L);
  assert_int_equal(d->nrooms, n * L);
  cb_error err = {0};
  assert_int_equal(cb_check_structure(d, &err), CB_OK);

  /* rooms: unique ids, numbered across the levels (booklet.md: no "room 4" twice on a page) */
  for (int i = 0; i < d->nrooms; i++) {
    assert_int_equal(d->rooms[i].id, i + 1);
    assert_int_equal(d->rooms[i].level, i / n + 1);
    assert_int_equal(d->rooms[i].number, i + 1);
  }

  int fleet[256], nf = expected_fleet(n, fleet);
  for (int g = 0; g < L; g++) {
    /* the diagonal: 1;1 free or a ship, every other R, X or a ship */
    char c11 = mark(p, g, 1, 1);
    assert_true(c11 == '.' || c11 == '#');
    for (int k = 2; k <= n; k++) {
      char m = mark(p, g, k, k);
      assert_true(m == 'R' || m == 'X' || m == '#');
    }
    /* every row and column holds a white peg (W, G or +) */
    for (int k = 1; k <= n; k++) {
      int row = 0, col = 0;
      for (int j = 1; j <= n; j++) {
        row += cb_bs_is_peg(mark(p, g, k, j));
        col += cb_bs_is_peg(mark(p, g, j, k));
      }
      assert_true(row > 0);
      assert_true(col > 0);
    }
    /* an X per stairs end on this grid; G only where a row lacked a W */
    int xs = 0, plus = 0;
    for (int k = 1; k <= n; k++)
      xs += mark(p, g, k, k) == 'X';
    int want = (g > 0 ? 1 + E : 0) + (g < L - 1 ? 1 + E : 0);
    assert_int_equal(xs, want);
    for (int r = 1; r <= n; r++) {
      int gs = 0, ws = 0;
      for (int c = 1; c <= n; c++) {
        gs += mark(p, g, r, c) == 'G';
        ws += mark(p, g, r, c) == 'W';
        plus += mark(p, g, r, c) == '+';
      }
      assert_true(gs <= 1);
    }
    if (o->faithful) assert_int_equal(plus, 0);
    /* ships: the fleet in order, straight, on '#' cells, and nothing else is '#' */
    int nships = 0, cells = 0, marks = 0;
    for (int s = 0; s < p->nships; s++) {
      const cb_bs_ship *sh = &p->ships[s];
      if (sh->level != g + 1) continue;
      assert_true(nships < nf);
      assert_int_equal(sh->ncells, fleet[nships]);
      for (int k = 0; k < sh->ncells; k++) {
        assert_int_equal(mark(p, g, sh->cells[k][0], sh->cells[k][1]), '#');
        if (k > 0) {
          int dr = sh->cells[k][0] - sh->cells[k - 1][0], dc = sh->cells[k][1] - sh->cells[k - 1][1];
          assert_true((dr == 1 && dc == 0) || (dr == 0 && dc == 1));
          assert_true(dr == sh->cells[1][0] - sh->cells[0][0]);
        }
      }
      nships++;
      cells += sh->ncells;
    }
    assert_int_equal(nships, nf);
    for (int r = 1; r <= n; r++)
      for (int c = 1; c <= n; c++)
        marks += mark(p, g, r, c) == '#';
    assert_int_equal(marks, cells);
  }

  /* stairs: 1 + E between each pair of levels, X at both ends, matching when asked */
  assert_int_equal(p->nstairs, (L - 1) * (1 + E));
  for (int s = 0; s < p->nstairs; s++) {
    const cb_bs_stairs *st = &p->stairs[s];
    assert_int_equal(st->to_level, st->from_level + 1);
    assert_int_equal(mark(p, st->from_level - 1, st->from_room, st->from_room), 'X');
    assert_int_equal(mark(p, st->to_level - 1, st->to_room, st->to_room), 'X');
  }

  /* passages: exactly the pegs read both ways, one per pair, then the stairs */
  int next = 0;
  for (int g = 0; g < L; g++)
    for (int a = 1; a <= n; a++)
      for (int b = a + 1; b <= n; b++) {
        char ab = mark(p, g, a, b), ba = mark(p, g, b, a);
        if (!cb_bs_is_peg(ab) && !cb_bs_is_peg(ba)) continue;
        assert_true(next < d->npassages);
        const cb_passage *ps = &d->passages[next++];
        assert_int_equal(ps->from, g * n + a);
        assert_int_equal(ps->to, g * n + b);
        assert_int_not_equal(ps->kind, CB_PASSAGE_STAIRS);
        bool secret = o->secret_rows && (!cb_bs_is_peg(ab) || ab == 'G') && (!cb_bs_is_peg(ba) || ba == 'G');
        assert_int_equal((ps->flags & CB_FLAG_SECRET) != 0, secret);
      }
  for (int s = 0; s < p->nstairs; s++) {
    const cb_passage *ps = &d->passages[next++];
    assert_int_equal(ps->kind, CB_PASSAGE_STAIRS);
    assert_int_equal(ps->from, (p->stairs[s].from_level - 1) * n + p->stairs[s].from_room);
    assert_int_equal(ps->to, (p->stairs[s].to_level - 1) * n + p->stairs[s].to_room);
  }
  assert_int_equal(next, d->npassages);

  /* start and boss; every room reachable unless --faithful (then tagged) */
  assert_true(d->rooms[0].tags & CB_TAG_MAIN_START);
  int bosses = 0;
  for (int i = 0; i < d->nrooms; i++)
    bosses += (d->rooms[i].tags & CB_TAG_BOSS) != 0;
  assert_int_equal(bosses, 1);
  if (L > 1) assert_true(d->rooms[(L - 1) * n].tags & CB_TAG_BOSS);
  cb_graph gr;
  bool reached[2000];
  assert_true(d->nrooms <= 2000);
  assert_int_equal(cb_graph_build(d, &gr), 0);
  assert_int_equal(cb_check_walk(d, &gr, 0, reached), 0);
  cb_graph_free(&gr);
  for (int i = 0; i < d->nrooms; i++) {
    if (!o->faithful) assert_true(reached[i]);
    assert_int_equal((d->rooms[i].tags & CB_TAG_UNREACHABLE) != 0, !reached[i]);
  }
}

static void every_rule_over_seeds(void **state) {
  (void)state;
  int seeds = cb_test_seeds(10000);
  for (int s = 0; s < seeds; s++) {
    opts o = options_for((uint64_t)s);
    cb_dungeon *d = NULL;
    cb_error err = {0};
    cb_status st = generate(&o, &d, &err);
    if (st != CB_OK) fail_msg("seed %d: %s", s, err.msg);
    check_dungeon(&o, d);
    cb_dungeon_free(d);
  }
}

/* The seed's example: two 10 x 10 grids, the classic fleet. */
static void defaults(void **state) {
  (void)state;
  opts o = {0};
  o.seed = 3;
  cb_dungeon *d = NULL;
  cb_error err = {0};
  assert_int_equal(generate(&o, &d, &err), CB_OK);
  const cb_battleships_proc *p = cb_battleships_of(d);
  assert_int_equal(p->n, 10);
  assert_int_equal(p->ngrids, 2);
  assert_int_equal(p->nships, 10);
  assert_int_equal(p->ships[0].ncells, 5);
  assert_int_equal(p->ships[4].ncells, 2);
  o.grid = 10;
  o.levels = 2;
  check_dungeon(&o, d);
  cb_dungeon_free(d);
}

typedef struct buf {
  char *data;
  size_t len;
} buf;

static cb_status to_buf(void *closure, const unsigned char *data, size_t len) {
  buf *b = closure;
  char *grown = realloc(b->data, b->len + len + 1);
  if (!grown) return CB_EINTERNAL;
  memcpy(grown + b->len, data, len);
  b->data = grown;
  b->len += len;
  b->data[b->len] = '\0';
  return CB_OK;
}

static buf json_of(const cb_dungeon *d) {
  buf b = {0};
  cb_error err = {0};
  assert_int_equal(cb_json_write(d, cb_proc_json(), (cb_sink){&b, to_buf}, &err), CB_OK);
  return b;
}

/* The JSON of the dungeon of seed `seed` at the default options. */
static buf seed_json(uint64_t seed) {
  opts o = {0};
  o.seed = seed;
  cb_dungeon *d = NULL;
  cb_error err = {0};
  assert_int_equal(generate(&o, &d, &err), CB_OK);
  buf a = json_of(d);
  cb_dungeon_free(d);
  return a;
}

/* Written, read back, written again: the same bytes, the same rules hold. */
static void json_round_trip(void **state) {
  (void)state;
  for (uint64_t s = 0; s < 300; s++) {
    opts o = options_for(s);
    cb_dungeon *d = NULL, *back = NULL;
    cb_error err = {0};
    assert_int_equal(generate(&o, &d, &err), CB_OK);
    buf a = json_of(d);
    if (cb_json_parse(a.data, a.len, "t.json", cb_proc_json(), &back, &err) != CB_OK)
      fail_msg("seed %d: %s", (int)s, err.msg);
    check_dungeon(&o, back);
    buf b = json_of(back);
    assert_int_equal(a.len, b.len);
    assert_memory_equal(a.data, b.data, a.len);
    free(a.data);
    free(b.data);
    cb_dungeon_free(d);
    cb_dungeon_free(back);
  }
}

/* The edited text (freed here), refused as input with a message that says `says`. */
static void json_refused(char *text, const char *says, size_t edit) {
  cb_dungeon *back = NULL;
  cb_error err = {0};
  assert_int_equal(cb_json_parse(text, strlen(text), "t.json", cb_proc_json(), &back, &err), CB_EINPUT);
  if (!strstr(err.msg, says)) fail_msg("edit %zu: '%s'", edit, err.msg);
  assert_null(back);
  free(text);
}

/* Edits to one seed's JSON the reader must refuse, with what it says. */
static void json_rejects(void **state) {
  (void)state;
  buf a = seed_json(1);
  static const struct {
    char at, with;
    const char *says;
  } edits[] = {{'R', 'W', "diagonal"}, {'W', 'Q', "not one of"}, {'W', '.', "passage"}, {'#', '.', "ship"}};
  for (size_t e = 0; e < sizeof edits / sizeof *edits; e++) {
    char *text = strdup(a.data), *hit = NULL;
    /* the edit goes into the procedure's grids, not the log */
    char *grids = strstr(text, "\"grids\"");
    assert_non_null(grids);
    hit = strchr(grids + 8, edits[e].at);
    assert_non_null(hit);
    *hit = edits[e].with;
    json_refused(text, edits[e].says, e);
  }
  free(a.data);
}

/* text with the first `from` after `anchor` made `to` (a copy to free). */
static char *edited(const char *text, const char *anchor, const char *from, const char *to) {
  const char *at = strstr(text, anchor), *hit = at ? strstr(at, from) : NULL;
  assert_non_null(hit);
  size_t head = (size_t)(hit - text), len = strlen(text) - strlen(from) + strlen(to) + 1;
  char *out = malloc(len);
  assert_non_null(out);
  snprintf(out, len, "%.*s%s%s", (int)head, text, to, hit + strlen(from));
  return out;
}

/* Edits to the ships and stairs the reader must refuse, with what it says. */
static void json_rejects_ships_and_stairs(void **state) {
  (void)state;
  buf a = seed_json(1);
  static const struct {
    const char *anchor, *from, *to, *says;
  } edits[] = {
      {"\"ships\"", "\"cells\":[[", "\"cells\":[[0,", "procedure.ships[0]: 'cells'[0] must be [row, column]"},
      {"\"ships\"", "\"cells\":[", "\"cells\":[],\"x\":[", "a ship needs at least one cell"},
      {"\"ships\"", "\"level\":", "\"level\":99,\"x\":", "'level' is 99"},
      {"\"stairs\"", "\"from\":[", "\"from\":[9",
       "procedure.stairs[0]: 'from' must be [level, room] with a level"},
      {"\"stairs\"", "\"to\":", "\"x\":", "procedure.stairs[0]: missing field 'to'"},
      {"\"stairs\":[", "[", "[{\"from\":[1,1],\"to\":[2,1]},", "both ends must be an X"},
      {"\"grids\"", "\"rows\":[", "\"rows\":[\"..\",", "'rows' has more than"},
      {"\"grids\"", "\"level\":1", "\"level\":2", "procedure.grids[0]: 'level' is 2; it must be 1 to 1"},
  };
  for (size_t e = 0; e < sizeof edits / sizeof *edits; e++) {
    json_refused(edited(a.data, edits[e].anchor, edits[e].from, edits[e].to), edits[e].says, e);
  }
  free(a.data);
}

static void refuses(opts o, const char *says) {
  cb_error err = {0};
  cb_dungeon *d = NULL;
  assert_int_equal(validate(&o, &err), CB_EINPUT);
  if (!strstr(err.msg, says)) fail_msg("'%s' lacks '%s'", err.msg, says);
  err = (cb_error){0};
  assert_int_equal(generate(&o, &d, &err), CB_EINPUT);
  assert_null(d);
}

static void bad_options(void **state) {
  (void)state;
  opts o = {0};
  o.grid = 1;
  refuses(o, "--grid 1");
  o.grid = 101;
  refuses(o, "--grid 101");
  o = (opts){0};
  o.levels = 1001;
  refuses(o, "--levels");
  o = (opts){0};
  o.grid = 100;
  o.levels = 1001;
  refuses(o, "--levels");
  o = (opts){0};
  o.extra = 80, o.extra_set = true;
  refuses(o, "--extra 80");
  o = (opts){0};
  o.nfleet = 1, o.fleet[0] = 11;
  refuses(o, "a ship of 11");
  o = (opts){0};
  o.grid = 4, o.nfleet = 13, o.extra_set = true;
  for (int i = 0; i < 13; i++)
    o.fleet[i] = 1;
  refuses(o, "ship cells");
  o = (opts){0};
  o.levels = 1, o.extra_stairs = 1;
  refuses(o, "--extra-stairs");
  o = (opts){0};
  o.levels = 3, o.grid = 4, o.extra_stairs = 1, o.extra_set = true;
  refuses(o, "red pegs");
  o = (opts){0};
  o.rooms = 12;
  refuses(o, "--grid");
}

/* A fleet that passes the count but cannot leave every row a free cell:
 * the ships go down again, then a clear error. */
static void fleet_that_never_fits(void **state) {
  (void)state;
  opts o = {0};
  o.grid = 3, o.levels = 1, o.extra_set = true;
  o.nfleet = 2, o.fleet[0] = 3, o.fleet[1] = 3; /* two full lines: a row or column is always full */
  cb_error err = {0};
  cb_dungeon *d = NULL;
  assert_int_equal(validate(&o, &err), CB_OK);
  assert_int_equal(generate(&o, &d, &err), CB_EINPUT);
  assert_non_null(strstr(err.msg, "does not fit"));
  assert_null(d);
}

/* The log reads like a game master at the table. */
static void narrates(void **state) {
  (void)state;
  int rows = 0, stairs = 0, repairs = 0;
  for (uint64_t s = 0; s < 200; s++) {
    opts o = {0};
    o.seed = s;
    o.secret_rows = true;
    cb_dungeon *d = NULL;
    cb_error err = {0};
    assert_int_equal(generate(&o, &d, &err), CB_OK);
    for (int i = 0; i < d->nlog; i++) {
      rows += strstr(d->log[i], "has no white peg: a secret passage from room") != NULL;
      stairs += strstr(d->log[i], "stairs from room") != NULL;
      repairs += strstr(d->log[i], "cannot be reached from the start: a peg at") != NULL;
    }
    cb_dungeon_free(d);
  }
  assert_true(rows > 0);
  assert_int_equal(stairs, 200);
  assert_true(repairs > 0);
}

/* One level: the boss is in the room farthest from the start. */
static void single_level_boss(void **state) {
  (void)state;
  for (uint64_t s = 0; s < 200; s++) {
    opts o = {0};
    o.seed = s;
    o.levels = 1;
    cb_dungeon *d = NULL;
    cb_error err = {0};
    assert_int_equal(generate(&o, &d, &err), CB_OK);
    int n = d->nrooms, dist[16], queue[16], head = 0, tail = 0, boss = -1;
    for (int i = 0; i < n; i++)
      dist[i] = -1;
    dist[0] = 0;
    queue[tail++] = 0;
    while (head < tail) {
      int u = queue[head++];
      for (int k = 0; k < d->npassages; k++) {
        int a = d->passages[k].from - 1, b = d->passages[k].to - 1, v = a == u ? b : b == u ? a : -1;
        if (v >= 0 && dist[v] < 0) dist[v] = dist[u] + 1, queue[tail++] = v;
      }
    }
    for (int i = 0; i < n; i++)
      if (d->rooms[i].tags & CB_TAG_BOSS) boss = i;
    for (int i = 0; i < n; i++)
      assert_true(dist[i] <= dist[boss]);
    cb_dungeon_free(d);
  }
}

/* 1,000 levels of 10 rooms generate quickly (no layout in generation). */
static void many_levels(void **state) {
  (void)state;
  opts o = {0};
  o.seed = 9;
  o.levels = 1000;
  cb_dungeon *d = NULL;
  cb_error err = {0};
  assert_int_equal(generate(&o, &d, &err), CB_OK);
  assert_int_equal(d->nrooms, 10000);
  assert_int_equal(cb_battleships_of(d)->nstairs, 999);
  cb_dungeon_free(d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(defaults),
      cmocka_unit_test(every_rule_over_seeds),
      cmocka_unit_test(json_round_trip),
      cmocka_unit_test(json_rejects),
      cmocka_unit_test(json_rejects_ships_and_stairs),
      cmocka_unit_test(bad_options),
      cmocka_unit_test(fleet_that_never_fits),
      cmocka_unit_test(narrates),
      cmocka_unit_test(single_level_boss),
      cmocka_unit_test(many_levels),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
