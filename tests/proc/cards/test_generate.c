/* cards (Cardtography): the seed's worked example replayed with its dice,
 * option errors, and the rules checked over many seeds and option mixes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h> // after the headers it needs

#include "base/alloc.h"
#include "io/json.h"
#include "model/check.h"
#include "proc/cards/generate.h"
#include "proc/cards/proc.h"
#include "registry/registry.h"
#include "testlib.h"
/* cards' own options, which o.own points to (a writable record here) */
#define OWN(o) (*(cb_cards_options *)(o).own)

static int opposite(int p) { return (p + 2) % 6 + 1; }

static const cb_card_turn *turn_at(const cb_cards_proc *p, int level, int col, int row) {
  for (int i = 0; i < p->nturns; i++)
    if (p->turns[i].level == level && p->turns[i].col == col && p->turns[i].row == row) return &p->turns[i];
  return NULL;
}

static const cb_card_cell *cell_at(const cb_cards_proc *p, int level, int col, int row) {
  for (int i = 0; i < p->ncells; i++)
    if (p->cells[i].level == level && p->cells[i].col == col && p->cells[i].row == row) return &p->cells[i];
  return NULL;
}

static int room_col(const cb_dungeon *d, const cb_room *r) {
  return (int)(r->x / cb_cards_of(d)->cell_ft + 0.5 + 0.5);
}
static int room_row(const cb_dungeon *d, const cb_room *r) {
  return (int)(r->y / cb_cards_of(d)->cell_ft + 0.5 + 0.5);
}

/* The dial position from room a to room b on the same level, 0 if none. */
static int dial(const cb_dungeon *d, const cb_room *a, const cb_room *b) {
  for (int p = 1; p <= 6; p++) {
    int c, r;
    cb_cards_neighbour(room_col(d, a), room_row(d, a), p, &c, &r);
    if (c == room_col(d, b) && r == room_row(d, b)) return p;
  }
  return 0;
}

/* The seed's example: the entrance (9 of spades, bottom centre) rolls exits
 * at 4, 1 and 6; the card up and to the left (2 of diamonds) rolls 2, 3, 6
 * and its 3 is the door already there, so it gets doors at 2 and 6. The card
 * above the entrance is scripted to a dead end (4 4 4) so that nothing
 * reaches the 2 of diamonds' neighbours first. */
/* The card's word to stocking (its room rules): suit and value. */
static void room_rules(void **state) {
  (void)state;
  struct {
    const char *card;
    int value;
    cb_room_word want;
  } cases[] = {
      {"9S", 9, {.no_monster = true, .tough = true, .wonder = true}},
      {"5C", 5, {.no_monster = true}},
      {"JH", 11, {.more = 1, .tough = true, .trap = true}},
      {"2D", 2, {0}},
      {NULL, 0, {0}},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    cb_room r = {.card = cases[i].card, .value = cases[i].value};
    cb_room_word w = {0};
    cb_cards_room_rules(&r, &w);
    assert_memory_equal(&w, &cases[i].want, sizeof w);
  }
  cb_dungeon *d = NULL;
  cb_error err = {0};
  cb_gen_options o = {.seed = 1};
  assert_int_equal(cb_generator_run(&cb_gen_cards, &o, &d, &err), CB_OK);
  assert_true(d->room_rules == cb_cards_room_rules);
  cb_dungeon_free(d);
}

static void worked_example(void **state) {
  (void)state;
  cb_gen_options o = {.seed = 7, .faithful = true, .own = &(cb_cards_options){.shape = NULL}};
  const cb_cards_script script[] = {
      {1, 3, 5, "9S", {4, 1, 6}},
      {1, 2, 4, "2D", {2, 3, 6}},
      {1, 3, 4, NULL, {4, 4, 4}},
  };
  cb_dungeon *d = NULL;
  cb_error err = {0};
  assert_int_equal(cb_cards_generate_scripted(&o, script, 3, &d, &err), CB_OK);
  const cb_cards_proc *p = cb_cards_of(d);
  assert_int_equal(p->entrance_col, 3);
  assert_int_equal(p->entrance_row, 5);
  assert_string_equal(d->rooms[0].card, "9S");
  assert_true(d->rooms[0].tags & CB_TAG_ENTRANCE);
  const cb_card_turn *t = &p->turns[0];
  assert_int_equal(t->dice[0], 4);
  assert_int_equal(t->results[0], CB_DIE_ENTRY);
  assert_int_equal(t->results[1], CB_DIE_DOOR);
  assert_int_equal(t->results[2], CB_DIE_DOOR);
  t = turn_at(p, 1, 2, 4);
  assert_non_null(t);
  const cb_room *two = cb_dungeon_room(d, t->room);
  assert_string_equal(two->card, "2D");
  assert_int_equal(t->results[0], CB_DIE_DOOR);  /* 2: upper right, into (3, 3) */
  assert_int_equal(t->results[1], CB_DIE_ENTRY); /* 3: the entrance's door at 6, the way in */
  assert_int_equal(t->results[2], CB_DIE_DOOR);  /* 6: upper left, into (1, 3) */
  /* the entrance's door at 6 is the 2 of diamonds' door at 3 */
  int found = 0;
  for (int i = 0; i < d->npassages; i++) {
    const cb_passage *ps = &d->passages[i];
    if (ps->from == 1 && ps->to == two->id) {
      assert_int_equal(dial(d, &d->rooms[0], two), 6);
      assert_int_equal(dial(d, two, &d->rooms[0]), 3);
      found++;
    }
  }
  assert_int_equal(found, 1);
  assert_non_null(cb_dungeon_room(d, turn_at(p, 1, 3, 3)->room));
  assert_non_null(turn_at(p, 1, 1, 3));
  /* the log narrates it */
  int said = 0;
  for (int i = 0; i < d->nlog; i++)
    said += strstr(d->log[i], "(2 of diamonds)") && strstr(d->log[i], "rolled 2 3 6") &&
            strstr(d->log[i], "3 (lower right) is the door already there, the one we came in by");
  assert_int_equal(said, 1);
  cb_dungeon_free(d);
}

static void expect_error(cb_gen_options *o, const char *needle) {
  cb_error err = {0};
  assert_int_equal(cb_gen_cards.validate(o, &err), CB_EINPUT);
  if (!strstr(err.msg, needle)) fail_msg("'%s' does not mention '%s'", err.msg, needle);
  cb_dungeon *d = NULL;
  cb_error err2 = {0};
  assert_int_equal(cb_generator_run(&cb_gen_cards, o, &d, &err2), CB_EINPUT);
  assert_null(d);
}

static void option_errors(void **state) {
  (void)state;
  cb_gen_options o = {.seed = 1, .own = &(cb_cards_options){.shape = NULL}};
  OWN(o).grid.w = 8, OWN(o).grid.h = 8;
  expect_error(&o, "--grid 8x8");
  OWN(o).decks = 2;
  cb_error err = {0};
  assert_int_equal(cb_gen_cards.validate(&o, &err), CB_OK);
  o = (cb_gen_options){.own = &(cb_cards_options){.shape = NULL}};
  o.levels = 3; /* more cards than a deck: fresh decks come in */
  assert_int_equal(cb_gen_cards.validate(&o, &err), CB_OK);
  o.levels = 1000000;
  expect_error(&o, "--levels 1000000");
  o = (cb_gen_options){.own = &(cb_cards_options){.shape = NULL}};
  OWN(o).entrance = "9,9";
  expect_error(&o, "--entrance 9,9");
  OWN(o).entrance = "left";
  expect_error(&o, "--entrance 'left'");
  o = (cb_gen_options){.own = &(cb_cards_options){.shape = NULL}};
  o.rooms = 10;
  expect_error(&o, "--rooms");
  o = (cb_gen_options){.own = &(cb_cards_options){.shape = NULL}};
  OWN(o).min_rooms = 26;
  expect_error(&o, "--min-rooms 26");
  o = (cb_gen_options){.own = &(cb_cards_options){.shape = NULL}};
  OWN(o).shape = "no/such/mask.txt";
  expect_error(&o, "no/such/mask.txt");
  o = (cb_gen_options){.own = &(cb_cards_options){.shape = NULL}};
  OWN(o).content = "no/such/table.txt";
  expect_error(&o, "no/such/table.txt");
}

static void write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

static void bad_files(void **state) {
  (void)state;
  const char *dir = cb_test_tmpdir();
  assert_non_null(dir);
  char mask[512], table[512], want[600];
  snprintf(mask, sizeof mask, "%s/mask.txt", dir);
  snprintf(table, sizeof table, "%s/table.txt", dir);
  cb_gen_options o = {.seed = 1, .own = &(cb_cards_options){.shape = NULL}};
  OWN(o).shape = mask;
  write_file(mask, "; a comment\n###\n#x#\n###\n");
  snprintf(want, sizeof want, "%s:3:", mask);
  expect_error(&o, want);
  write_file(mask, "###\n##\n");
  snprintf(want, sizeof want, "%s:2:", mask);
  expect_error(&o, want);
  write_file(mask, "...\n...\n");
  expect_error(&o, "no '#'");
  write_file(mask, "#.#\n###\n.#.\n");
  cb_error err = {0};
  assert_int_equal(cb_gen_cards.validate(&o, &err), CB_OK);
  o = (cb_gen_options){.own = &(cb_cards_options){.shape = NULL}};
  OWN(o).content = table;
  write_file(table, "# header\n* | * | - | anything\nSX | 1 | - | bad suit\n");
  snprintf(want, sizeof want, "%s:3:", table);
  expect_error(&o, want);
  write_file(table, "S | * | monster | bad tag\n");
  snprintf(want, sizeof want, "%s:1:", table);
  expect_error(&o, want);
  write_file(table, "SC | * | - | black\n");
  expect_error(&o, "no row for");
  write_file(table, "* | * | treasure | gold everywhere\n");
  assert_int_equal(cb_gen_cards.validate(&o, &err), CB_OK);
  cb_dungeon *d = NULL;
  assert_int_equal(cb_generator_run(&cb_gen_cards, &o, &d, &err), CB_OK);
  for (int i = 0; i < d->nrooms; i++) {
    assert_string_equal(d->rooms[i].text, "gold everywhere");
    assert_true(d->rooms[i].tags & CB_TAG_TREASURE);
  }
  cb_dungeon_free(d);
  cb_test_rmdir(dir);
}

/* The options a property seed runs with: a mix, so that every rule and
 * option is met many times. */
static void mix_options(uint64_t seed, cb_gen_options *o) {
  static const char *const entrances[] = {NULL, "top", "centre", "2,2"};
  static const char *const shapes[] = {NULL, "oval", "mask-cross", "rect"};
  *(cb_cards_options *)o->own = (cb_cards_options){.shape = NULL};
  *o = (cb_gen_options){.own = o->own};
  o->seed = seed;
  int k = (int)(seed % 40);
  OWN(*o).rediscovered = (cb_rediscovered)(seed % 4);
  OWN(*o).jokers = seed % 3 == 0;
  OWN(*o).plain_doubles = seed % 11 == 5;
  OWN(*o).lengths = seed % 5 == 1;
  o->faithful = seed % 9 == 4;
  if (k < 24) return; /* the defaults, mostly */
  if (k < 28) {
    OWN(*o).entrance = entrances[k - 24];
    return;
  }
  if (k < 32) {
    OWN(*o).shape = shapes[k - 28];
    if (k == 31) OWN(*o).grid.w = 7, OWN(*o).grid.h = 4;
    return;
  }
  if (k < 36) {
    o->levels = 2 + (k - 32) % 2;
    OWN(*o).decks = 2;
    OWN(*o).grid.w = OWN(*o).grid.h = 4 + (k % 2);
    return;
  }
  OWN(*o).sprawl = true;
  o->rooms = 10 + k;
  OWN(*o).entrance = k == 38 ? "centre" : k == 39 ? "top" : NULL;
  if (k == 37) o->levels = 2, OWN(*o).decks = 2;
}

static int red(const char *card) {
  char s = card[strlen(card) - 1];
  return s == 'H' || s == 'D';
}

static int same_colour_value(const cb_room *a, const cb_room *b) {
  return a->value > 0 && a->value == b->value && red(a->card) == red(b->card);
}

static void check_dungeon(const cb_gen_options *o, const cb_dungeon *d) {
  cb_error err = {0};
  if (cb_check_structure(d, &err) != CB_OK) fail_msg("seed %llu: %s", (unsigned long long)o->seed, err.msg);
  const cb_cards_proc *p = cb_cards_of(d);
  assert_non_null(p);
  int levels = o->levels ? o->levels : 1;
  assert_true(d->nlevels >= 1 && d->nlevels <= levels);
  assert_int_equal(p->nturns, d->nrooms);
  /* every kept card is a room on its cell; every room was a turn */
  int kept = 0;
  for (int i = 0; i < p->ncells; i++) {
    const cb_card_cell *c = &p->cells[i];
    assert_true(c->col >= 1 && c->col <= p->w && c->row >= 1 && c->row <= p->h);
    assert_int_equal(p->mask[c->row - 1][c->col - 1], '#');
    if (!c->room) continue;
    kept++;
    const cb_room *r = cb_dungeon_room(d, c->room);
    assert_non_null(r);
    assert_string_equal(r->card, c->card);
    assert_int_equal(room_col(d, r), c->col);
    assert_int_equal(room_row(d, r), c->row);
    assert_int_equal(r->level, c->level);
  }
  assert_int_equal(kept, d->nrooms);
  /* the entrance */
  const cb_room *e = &d->rooms[0];
  assert_true(e->tags & CB_TAG_ENTRANCE);
  if (!OWN(*o).sprawl && !OWN(*o).entrance && !OWN(*o).shape) {
    int w = OWN(*o).grid.w ? OWN(*o).grid.w : 5, h = OWN(*o).grid.h ? OWN(*o).grid.h : 5;
    assert_int_equal(p->entrance_col, (w + 1) / 2);
    assert_int_equal(p->entrance_row, h);
  }
  /* doors: between dial neighbours only (no pure east/west), one per position */
  unsigned char *used = calloc((size_t)d->nrooms + 1, 1);
  int *made = calloc((size_t)d->nrooms + 1, sizeof *made);
  assert_non_null(used);
  assert_non_null(made);
  for (int i = 0; i < d->npassages; i++) {
    const cb_passage *ps = &d->passages[i];
    const cb_room *a = cb_dungeon_room(d, ps->from), *b = ps->to ? cb_dungeon_room(d, ps->to) : NULL;
    assert_non_null(a);
    if (ps->kind == CB_PASSAGE_STAIRS) {
      if (!b) {
        assert_int_equal(ps->from, 1);
        continue;
      }
      /* stairs only where colour and value match a card up earlier on its level; the last level has none down
       */
      assert_int_equal(b->level, a->level + 1);
      assert_true(a->level < levels);
      assert_true(a->id != 1);
      int match = 0;
      for (int j = 0; j < d->nrooms; j++)
        match |=
            d->rooms[j].level == a->level && d->rooms[j].id < a->id && same_colour_value(&d->rooms[j], a);
      assert_true(match);
      continue;
    }
    assert_int_equal(ps->kind, CB_PASSAGE_DOOR);
    if (!b) {
      if (ps->flags & CB_FLAG_SECRET)
        assert_true(a->tags & CB_TAG_SURFACE_EXIT);
      else
        assert_int_equal(ps->from, 1);
      continue;
    }
    assert_int_equal(a->level, b->level);
    int pos = dial(d, a, b);
    if (pos == 0)
      fail_msg("seed %llu: door %d-%d joins cards that are not dial neighbours", (unsigned long long)o->seed,
               a->id, b->id);
    assert_int_equal(dial(d, b, a), opposite(pos));
    assert_false(used[a->id] & (1u << pos));
    assert_false(used[b->id] & (1u << opposite(pos)));
    used[a->id] |= (unsigned char)(1u << pos);
    used[b->id] |= (unsigned char)(1u << opposite(pos));
    made[a->id]++;
    if (ps->flags & CB_FLAG_ONE_WAY) assert_int_equal(OWN(*o).rediscovered, CB_REDISCOVERED_ONE_WAY);
    if (ps->flags & CB_FLAG_CONCEALED) assert_int_equal(OWN(*o).rediscovered, CB_REDISCOVERED_CONCEALED);
    if (ps->flags & (CB_FLAG_TRAPPED | CB_FLAG_LOCKED | CB_FLAG_SOFT_LOCKED | CB_FLAG_OBSTRUCTED))
      assert_false(OWN(*o).plain_doubles);
  }
  /* turns: the dice, one result each, and at most three doors rolled per card */
  for (int i = 0; i < p->nturns; i++) {
    const cb_card_turn *t = &p->turns[i];
    const cb_room *r = cb_dungeon_room(d, t->room);
    assert_non_null(r);
    int doors = 0;
    for (int k = 0; k < 3; k++) {
      int v = t->dice[k], n = (t->dice[0] == v) + (t->dice[1] == v) + (t->dice[2] == v), repeat = 0;
      assert_true(v >= 1 && v <= 6);
      for (int j = 0; j < k; j++)
        repeat |= t->dice[j] == v;
      if (repeat) assert_int_equal(t->results[k], CB_DIE_IGNORED);
      if (t->results[k] == CB_DIE_SURFACE) assert_true(n >= 2);
      if (t->obstacles[k]) assert_true(n >= 2);
      if (t->results[k] == CB_DIE_DOOR || t->results[k] == CB_DIE_REDISCOVERED) {
        doors++;
        assert_true(used[r->id] & (1u << v));
        int c, rw;
        cb_cards_neighbour(t->col, t->row, v, &c, &rw);
        const cb_card_cell *cc = cell_at(p, t->level, c, rw);
        assert_non_null(cc);
        assert_true(cc->room > 0); /* no removed card has a door */
      }
      if (t->results[k] == CB_DIE_EXISTING) assert_true(used[r->id] & (1u << v));
      if (t->results[k] == CB_DIE_REDISCOVERED)
        assert_int_not_equal(OWN(*o).rediscovered, CB_REDISCOVERED_IGNORE);
    }
    assert_true(doors <= 3);
    assert_int_equal(doors, made[r->id]);
    if (t->nrerolls) { /* only a level's first card rolls again, and only when not faithful */
      assert_false(o->faithful);
      for (int j = 0; j < d->nrooms; j++)
        assert_false(d->rooms[j].level == r->level && d->rooms[j].id < r->id);
    }
  }
  /* removed cards touch no door: every door's neighbour cell is kept */
  for (int i = 0; i < p->ncells; i++) {
    const cb_card_cell *c = &p->cells[i];
    if (c->room) continue;
    for (int pos = 1; pos <= 6; pos++) {
      int nc, nr;
      cb_cards_neighbour(c->col, c->row, pos, &nc, &nr);
      const cb_card_cell *n = cell_at(p, c->level, nc, nr);
      if (n && n->room) assert_false(used[n->room] & (1u << opposite(pos)));
    }
  }
  /* every kept card is reachable from the entrance, keys included */
  cb_graph g;
  assert_int_equal(cb_graph_build(d, &g), 0);
  bool *reached = calloc((size_t)d->nrooms, sizeof *reached);
  assert_int_equal(cb_check_walk(d, &g, cb_check_start_room(d), reached), 0);
  for (int i = 0; i < d->nrooms; i++)
    if (!reached[i])
      fail_msg("seed %llu: room %d cannot be reached", (unsigned long long)o->seed, d->rooms[i].id);
  cb_graph_free(&g);
  free(reached);
  /* dull dungeons are dealt again unless faithful */
  if (!o->faithful && p->deals < 1000) {
    int min = OWN(*o).min_rooms ? OWN(*o).min_rooms : 5;
    for (int l = 1; l <= d->nlevels; l++) {
      int n = 0;
      for (int i = 0; i < d->nrooms; i++)
        n += d->rooms[i].level == l;
      assert_true(n >= min);
    }
    assert_int_equal(d->nlevels, levels);
  }
  /* with --faithful the jokers are as they fall: each is a boss; else one boss, never at the entrance */
  int bosses = 0;
  for (int i = 0; i < d->nrooms; i++) {
    if (o->faithful || !OWN(*o).jokers)
      assert_int_equal(strcmp(d->rooms[i].card, "JK") == 0, (d->rooms[i].tags & CB_TAG_BOSS) != 0);
    bosses += (d->rooms[i].tags & CB_TAG_BOSS) != 0;
    assert_int_equal(strcmp(d->rooms[i].card, "JK") == 0, d->rooms[i].value == 0);
    assert_non_null(d->rooms[i].text);
  }
  if (OWN(*o).jokers && !o->faithful && d->nrooms > 1) {
    assert_int_equal(bosses, 1);
    assert_false(d->rooms[0].tags & CB_TAG_BOSS);
  }
  free(used);
  free(made);
}

static void properties(void **state) {
  (void)state;
  int n = cb_test_seeds(10000);
  for (int s = 0; s < n; s++) {
    cb_gen_options o = {.own = &(cb_cards_options){.shape = NULL}};
    mix_options((uint64_t)s * 2654435761u + 1, &o);
    cb_error err = {0};
    cb_dungeon *d = NULL;
    if (cb_generator_run(&cb_gen_cards, &o, &d, &err) != CB_OK)
      fail_msg("seed %llu: %s", (unsigned long long)o.seed, err.msg);
    check_dungeon(&o, d);
    cb_dungeon_free(d);
  }
}

typedef struct buf {
  char *data;
  size_t len, cap;
} buf;

static cb_status buf_write(void *closure, const unsigned char *data, size_t len) {
  buf *b = closure;
  if (b->len + len + 1 > b->cap) {
    b->cap = (b->len + len + 1) * 2;
    b->data = realloc(b->data, b->cap);
    if (!b->data) return CB_EINTERNAL;
  }
  memcpy(b->data + b->len, data, len);
  b->len += len;
  b->data[b->len] = 0;
  return CB_OK;
}

/* JSON out, in and out again gives the same bytes; same seed, same bytes. */
static void json_round_trip(void **state) {
  (void)state;
  for (int s = 0; s < 200; s++) {
    cb_gen_options o = {.own = &(cb_cards_options){.shape = NULL}};
    mix_options((uint64_t)s * 7919 + 3, &o);
    cb_error err = {0};
    cb_dungeon *d = NULL, *d2 = NULL, *d3 = NULL;
    assert_int_equal(cb_generator_run(&cb_gen_cards, &o, &d, &err), CB_OK);
    assert_int_equal(cb_generator_run(&cb_gen_cards, &o, &d3, &err), CB_OK);
    buf a = {0}, b = {0}, c = {0};
    assert_int_equal(cb_json_write(d, cb_proc_json(), (cb_sink){&a, buf_write}, &err), CB_OK);
    assert_int_equal(cb_json_write(d3, cb_proc_json(), (cb_sink){&c, buf_write}, &err), CB_OK);
    assert_string_equal(a.data, c.data);
    if (cb_json_parse(a.data, a.len, "x.json", cb_proc_json(), &d2, &err) != CB_OK) fail_msg("%s", err.msg);
    assert_int_equal(cb_json_write(d2, cb_proc_json(), (cb_sink){&b, buf_write}, &err), CB_OK);
    assert_string_equal(a.data, b.data);
    free(a.data);
    free(b.data);
    free(c.data);
    cb_dungeon_free(d);
    cb_dungeon_free(d2);
    cb_dungeon_free(d3);
  }
}

static void json_rejects_bad_procedure(void **state) {
  (void)state;
  cb_gen_options o = {.seed = 5, .own = &(cb_cards_options){.shape = NULL}};
  cb_error err = {0};
  cb_dungeon *d = NULL, *d2 = NULL;
  assert_int_equal(cb_generator_run(&cb_gen_cards, &o, &d, &err), CB_OK);
  buf a = {0};
  assert_int_equal(cb_json_write(d, cb_proc_json(), (cb_sink){&a, buf_write}, &err), CB_OK);
  static const struct {
    const char *from, *to, *needle;
  } cases[] = {
      {"\"dice\":[", "\"dice\":[7,", "dice"},
      {"\"results\":[\"", "\"results\":[\"maybe\",\"", "results"},
      {"\"mask\":[\"", "\"mask\":[\"x", "mask"},
      {"\"card\":\"", "\"card\":\"Z", "card"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char *hit = strstr(a.data, cases[i].from);
    assert_non_null(hit);
    size_t pre = (size_t)(hit - a.data), fl = strlen(cases[i].from), tl = strlen(cases[i].to);
    char *bad = malloc(a.len + tl + 1);
    memcpy(bad, a.data, pre);
    memcpy(bad + pre, cases[i].to, tl);
    strcpy(bad + pre + tl, hit + fl);
    cb_error e = {0};
    assert_int_equal(cb_json_parse(bad, strlen(bad), "bad.json", cb_proc_json(), &d2, &e), CB_EINPUT);
    if (!strstr(e.msg, cases[i].needle)) fail_msg("'%s' does not mention '%s'", e.msg, cases[i].needle);
    assert_null(d2);
    free(bad);
  }
  free(a.data);
  cb_dungeon_free(d);
}

/* Out of memory anywhere: a clean CB_EINTERNAL, nothing leaked (ASan). */
static void out_of_memory(void **state) {
  (void)state;
  cb_gen_options o = {.seed = 3, .levels = 2, .own = &(cb_cards_options){.shape = NULL}};
  OWN(o).grid.w = OWN(o).grid.h = 4;
  OWN(o).jokers = true;
  OWN(o).lengths = true;
  int failed = 0, n;
  for (n = 0; n < 100000; n++) {
    cb_alloc_fail_after(n);
    cb_dungeon *d = NULL;
    cb_error err = {0};
    cb_status st = cb_generator_run(&cb_gen_cards, &o, &d, &err);
    cb_alloc_fail_after(-1);
    if (st == CB_OK) {
      cb_dungeon_free(d);
      break;
    }
    assert_int_equal(st, CB_EINTERNAL);
    assert_null(d);
    failed++;
  }
  assert_true(failed > 10);
  assert_true(n < 100000);
}

/* ---- issue 12: the boss, the sprawl's cap, fresh decks ---- */

/* Hops from the entrance (room 1) as the party walks (a one-way door only
 * from its side), relaxed until nothing changes; -1 unreached. */
static int *hops_from_entrance(const cb_dungeon *d) {
  cb_graph g;
  assert_int_equal(cb_graph_build(d, &g), 0);
  int *hops = malloc(((size_t)d->nrooms + 1) * sizeof *hops);
  assert_non_null(hops);
  for (int i = 0; i <= d->nrooms; i++)
    hops[i] = i == 1 ? 0 : -1;
  for (int changed = 1; changed;) {
    changed = 0;
    for (int a = 0; a < g.n; a++)
      for (int k = g.start[a]; k < g.start[a + 1] && hops[a + 1] >= 0; k++) {
        int b = g.room[k] + 1;
        if (hops[b] < 0 || hops[b] > hops[a + 1] + 1) hops[b] = hops[a + 1] + 1, changed = 1;
      }
  }
  cb_graph_free(&g);
  return hops;
}

typedef struct boss_counts {
  int maps, no_boss, bosses_many, boss_at_entrance, joker_at_entrance, not_farthest_joker, not_farthest_room;
} boss_counts;

static void count_boss(const cb_dungeon *d, boss_counts *c) {
  int *hops = hops_from_entrance(d), bosses = 0, boss = 0, jokers = 0, far_joker = -1, far_room = -1;
  for (int i = 0; i < d->nrooms; i++) {
    const cb_room *r = &d->rooms[i];
    if (r->tags & CB_TAG_BOSS) bosses++, boss = r->id;
    if (strcmp(r->card, "JK") == 0) jokers++, far_joker = far_joker > hops[r->id] ? far_joker : hops[r->id];
    far_room = far_room > hops[r->id] ? far_room : hops[r->id];
  }
  c->maps++;
  c->no_boss += bosses == 0;
  c->bosses_many += bosses > 1;
  c->boss_at_entrance += (d->rooms[0].tags & CB_TAG_BOSS) != 0;
  c->joker_at_entrance += strcmp(d->rooms[0].card, "JK") == 0;
  if (bosses == 1 && jokers)
    c->not_farthest_joker += strcmp(d->rooms[boss - 1].card, "JK") != 0 || hops[boss] != far_joker;
  if (bosses == 1 && !jokers) c->not_farthest_room += hops[boss] != far_room;
  free(hops);
}

/* With --jokers: exactly one boss, never at the entrance; of the jokers
 * reached the farthest is the boss; with none, the farthest room. */
static void issue12_one_boss(void **state) {
  (void)state;
  int n = cb_test_seeds(10000);
  boss_counts c = {0};
  for (int s = 0; s < n; s++) {
    cb_gen_options o = {.own = &(cb_cards_options){.shape = NULL}};
    mix_options((uint64_t)s * 2654435761u + 7, &o);
    OWN(o).jokers = true;
    o.faithful = false;
    if (s % 7 == 3) OWN(o).decks = 2;
    cb_error err = {0};
    cb_dungeon *d = NULL;
    if (cb_generator_run(&cb_gen_cards, &o, &d, &err) != CB_OK)
      fail_msg("seed %llu: %s", (unsigned long long)o.seed, err.msg);
    count_boss(d, &c);
    cb_dungeon_free(d);
  }
  if (c.no_boss || c.bosses_many || c.boss_at_entrance || c.joker_at_entrance || c.not_farthest_joker ||
      c.not_farthest_room)
    fail_msg(
        "of %d maps: %d without a boss, %d with more than one, %d with the boss at the entrance, %d with a "
        "joker at the entrance, %d whose boss is not the farthest joker, %d (no joker) not the farthest room",
        c.maps, c.no_boss, c.bosses_many, c.boss_at_entrance, c.joker_at_entrance, c.not_farthest_joker,
        c.not_farthest_room);
}

/* --sprawl: the card cap is a dead end; a doubled die makes a way to the
 * surface only across the entrance's own edge. */
static void issue12_sprawl_cap(void **state) {
  (void)state;
  static const char *const entrances[] = {NULL, "top", "centre"};
  int n = cb_test_seeds(10000), surface = 0, wrong = 0, capped = 0;
  for (int s = 0; s < n; s++) {
    cb_gen_options o = {.seed = (uint64_t)s + 90000, .own = &(cb_cards_options){.shape = NULL}};
    OWN(o).sprawl = true;
    o.rooms = 3 + s % 30;
    OWN(o).entrance = entrances[s % 3];
    if (s % 10 == 9) o.levels = 2;
    cb_error err = {0};
    cb_dungeon *d = NULL;
    if (cb_generator_run(&cb_gen_cards, &o, &d, &err) != CB_OK)
      fail_msg("seed %llu: %s", (unsigned long long)o.seed, err.msg);
    const cb_cards_proc *p = cb_cards_of(d);
    for (int i = 0; i < p->nturns; i++) {
      const cb_card_turn *t = &p->turns[i];
      for (int k = 0; k < 3; k++) {
        if (t->results[k] != CB_DIE_SURFACE) continue;
        int col, row;
        cb_cards_neighbour(t->col, t->row, t->dice[k], &col, &row);
        int across =
            t->level == 1 && ((s % 3 == 0 && row > p->entrance_row) || (s % 3 == 1 && row < p->entrance_row));
        surface++;
        wrong += !across;
      }
    }
    int kept = 0;
    for (int i = 0; i < d->nrooms; i++)
      kept += d->rooms[i].level == 1;
    capped += kept == o.rooms;
    cb_dungeon_free(d);
  }
  print_message("%d ways to the surface, %d of %d maps dealt the whole cap\n", surface, capped, n);
  if (wrong)
    fail_msg("%d of %d ways to the surface lead through the card cap, not across the entrance's edge", wrong,
             surface);
}

/* More levels than the decks hold: a fresh deck is shuffled in, logged. */
static void issue12_fresh_decks(void **state) {
  (void)state;
  int n = cb_test_seeds(10000), refused = 0, unlogged = 0, fresh = 0;
  for (int s = 0; s < n; s++) {
    cb_gen_options o = {
        .seed = (uint64_t)s + 7000, .levels = 3 + s % 2, .own = &(cb_cards_options){.shape = NULL}};
    if (s % 5 == 4) OWN(o).sprawl = true, o.rooms = 30;
    cb_error err = {0};
    cb_dungeon *d = NULL;
    if (cb_generator_run(&cb_gen_cards, &o, &d, &err) != CB_OK) {
      refused++;
      continue;
    }
    const cb_cards_proc *p = cb_cards_of(d);
    int logged = 0;
    for (int i = 0; i < d->nlog; i++)
      logged += strstr(d->log[i], "fresh deck") != NULL;
    fresh += logged > 0;
    unlogged += p->ncells > 52 && !logged;
    cb_dungeon_free(d);
  }
  if (refused || unlogged || !fresh)
    fail_msg(
        "of %d dungeons of 3-4 levels: %d refused, %d dealt more than a deck without a fresh one logged, %d "
        "shuffled one in",
        n, refused, unlogged, fresh);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(room_rules),
      cmocka_unit_test(worked_example),
      cmocka_unit_test(option_errors),
      cmocka_unit_test(bad_files),
      cmocka_unit_test(properties),
      cmocka_unit_test(json_round_trip),
      cmocka_unit_test(json_rejects_bad_procedure),
      cmocka_unit_test(out_of_memory),
      cmocka_unit_test(issue12_one_boss),
      cmocka_unit_test(issue12_sprawl_cap),
      cmocka_unit_test(issue12_fresh_decks),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
