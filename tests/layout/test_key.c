/* The room key's words, read from the page model: the long form names every
 * way with its kind and length, the compact form (the one-page sheet's last
 * step) names each kind of way once for all of a room's ways of that kind,
 * and both name every way exactly once. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> // after the headers it needs

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tests/layout/fake_measure.h"
#include "base/alloc.h"
#include "base/text.h"
#include "layout/key.h"
#include "testlib.h"

#define NBSP "\xc2\xa0"

/* Room 1 with ways to 2 (plain, 30 ft), 3 (obstructed, 60 ft), 4 (plain),
 * 5 (obstructed, 120 ft), 6 (secret and obstructed, 0 ft: adjoining), in that order. */
static cb_dungeon *five_ways(void) {
  cb_dungeon *d = cb_dungeon_new("test", 1);
  assert_non_null(d);
  for (int i = 0; i < 6; i++)
    assert_non_null(cb_dungeon_add_room(d, 0, i * 100, 0));
  static const struct {
    int to;
    unsigned flags;
    double ft;
  } ways[] = {{2, 0, 30},
              {3, CB_FLAG_OBSTRUCTED, 60},
              {4, 0, CB_NO_VALUE},
              {5, CB_FLAG_OBSTRUCTED, 120},
              {6, CB_FLAG_SECRET | CB_FLAG_OBSTRUCTED, 0}};
  for (size_t i = 0; i < sizeof ways / sizeof *ways; i++) {
    cb_passage *ps =
        cb_dungeon_add_passage(d, d->rooms[0].id, d->rooms[ways[i].to - 1].id, CB_PASSAGE_TUNNEL);
    assert_non_null(ps);
    ps->flags = ways[i].flags;
    ps->length_ft = ways[i].ft;
  }
  return d;
}

/* cb_key_fill from entry 0, which must succeed: the entry after the last that fit. */
static int fill0(cb_page *p, const cb_key_style *ks, const cb_dungeon *d, int *word, double w, double h,
                 int cols, double gutter) {
  cb_error err = {0};
  int next = 0;
  assert_int_equal(cb_key_fill(p, ks, d, &next, word, 0, 0, w, h, cols, gutter, &err), CB_OK);
  return next;
}

/* A page holding room 1's entry alone, in one column w wide: the column is
 * cut to the entry's own lines (measured first), so room 2's does not fit. */
static cb_page *first_entry(const cb_dungeon *d, bool compact, double w) {
  cb_key_memo *memo = cb_key_memo_new(d);
  assert_non_null(memo);
  cb_key_style ks = {&fake_measure, 8, 10, 3, {0, 0, 0}, NULL, NULL, memo, false, 0, compact};
  int lines = 0;
  cb_error err = {0};
  assert_int_equal(cb_key_lines(&ks, d, 0, w, &lines, &err), CB_OK);
  assert_true(lines > 0);
  cb_page *p = cb_page_new(w + 100, lines * 10 + 100);
  assert_non_null(p);
  assert_int_equal(fill0(p, &ks, d, NULL, w, lines * 10 + 0.5, 1, 0), 1);
  cb_key_memo_free(memo);
  return p;
}

/* Room 1's entry as one string: its text items on the page, in order, each
 * run of words as drawn (a run ends with its space where another follows). */
static void entry_text(const cb_dungeon *d, bool compact, char *out, size_t cap) {
  cb_page *p = first_entry(d, compact, 1900); /* one line */
  out[0] = '\0';
  for (int i = 0; i < p->nitems; i++)
    if (p->items[i].kind == CB_ITEM_TEXT) strncat(out, p->items[i].text, cap - strlen(out) - 1);
  cb_page_free(p);
}

static void the_long_form_names_each_way_with_its_kind(void **state) {
  (void)state;
  cb_dungeon *d = five_ways();
  char text[2048];
  entry_text(d, false, text, sizeof text);
  /* a length and its unit never parted: a no-break space */
  assert_non_null(strstr(text,
                         "Leads to 2" NBSP "(30" NBSP "ft); 3" NBSP "(obstructed, 60" NBSP "ft); 4; 5" NBSP
                         "(obstructed, 120" NBSP "ft); 6" NBSP "(secret, obstructed, adjoining)."));
  cb_dungeon_free(d);
}

static void the_compact_form_names_each_kind_once(void **state) {
  (void)state;
  cb_dungeon *d = five_ways();
  char text[2048];
  entry_text(d, true, text, sizeof text);
  assert_non_null(strstr(text, "Leads to 2" NBSP "(30" NBSP "ft), 4; obstructed 3" NBSP "(60" NBSP
                               "ft), 5" NBSP "(120" NBSP "ft); secret, obstructed 6" NBSP "(adjoining)."));
  cb_dungeon_free(d);
}

/* A kind of way before a plain one: the plain ways still come first, so
 * that none reads as one of the kind named before it. */
static void plain_ways_come_first(void **state) {
  (void)state;
  cb_dungeon *d = cb_dungeon_new("test", 1);
  assert_non_null(d);
  for (int i = 0; i < 3; i++)
    assert_non_null(cb_dungeon_add_room(d, 0, i * 100, 0));
  cb_passage *trapped = cb_dungeon_add_passage(d, d->rooms[0].id, d->rooms[1].id, CB_PASSAGE_TUNNEL),
             *plain = cb_dungeon_add_passage(d, d->rooms[0].id, d->rooms[2].id, CB_PASSAGE_TUNNEL);
  assert_true(trapped && plain);
  trapped->flags = CB_FLAG_TRAPPED;
  trapped->length_ft = plain->length_ft = CB_NO_VALUE;
  char text[2048];
  entry_text(d, true, text, sizeof text);
  assert_non_null(strstr(text, "Leads to 3; trapped 2."));
  cb_dungeon_free(d);
}

/* A room of more ways than the entry's table of named ways (256) still names
 * every one once. */
static void a_room_of_many_ways_names_each_once(void **state) {
  (void)state;
  cb_dungeon *d = cb_dungeon_new("test", 1);
  assert_non_null(d);
  enum { WAYS = 300 };
  assert_non_null(cb_dungeon_add_room(d, 0, 0, 0));
  for (int i = 0; i < WAYS; i++) {
    assert_non_null(cb_dungeon_add_room(d, 0, 0, i + 1));
    cb_passage *ps = cb_dungeon_add_passage(d, d->rooms[0].id, d->rooms[i + 1].id, CB_PASSAGE_TUNNEL);
    assert_non_null(ps);
    ps->flags = i % 2 ? CB_FLAG_TRAPPED : 0;
    ps->length_ft = CB_NO_VALUE;
  }
  cb_page *p = first_entry(d, true, 500);
  int named[WAYS + 2] = {0};
  for (int i = 0; i < p->nitems; i++) {
    if (p->items[i].kind != CB_ITEM_TEXT) continue;
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", p->items[i].text);
    for (char *t = strtok(buf, " ,;:.()"); t; t = strtok(NULL, " ,;:.()")) {
      int n = atoi(t);
      if (n >= 2 && n <= WAYS + 1 && strspn(t, "0123456789") == strlen(t)) named[n]++;
    }
  }
  cb_page_free(p);
  /* the entry names rooms 2..301 (room 1's own number heads it) */
  for (int n = 2; n <= WAYS + 1; n++)
    if (named[n] != 1) fail_msg("room %d named %d times", n, named[n]);
  cb_dungeon_free(d);
}

/* Issue 25, item 2: the compact form groups a room's ways in one pass, every
 * way of a kind under its one label however many the room has (past the
 * 256th they were once named one by one, each with its kind, and grouping
 * took time quadratic in the ways). */
static void many_ways_of_a_kind_share_one_label(void **state) {
  (void)state;
  cb_dungeon *d = cb_dungeon_new("test", 1);
  assert_non_null(d);
  assert_non_null(cb_dungeon_add_room(d, 0, 0, 0));
  assert_non_null(cb_dungeon_add_room(d, 0, 0, 1));
  for (int i = 0; i < 600; i++) {
    cb_passage *ps = cb_dungeon_add_passage(d, d->rooms[0].id, d->rooms[1].id, CB_PASSAGE_TUNNEL);
    assert_non_null(ps);
    ps->flags = i % 2 ? CB_FLAG_TRAPPED : 0;
    ps->length_ft = CB_NO_VALUE;
  }
  cb_page *p = first_entry(d, true, 500);
  int labels = 0, ways = 0;
  for (int i = 0; i < p->nitems; i++)
    for (const char *t = p->items[i].kind == CB_ITEM_TEXT ? p->items[i].text : ""; *t; t++)
      labels += !strncmp(t, "trapped", 7), ways += *t == '2' && (t[1] == ',' || t[1] == '.' || t[1] == ';');
  cb_page_free(p);
  assert_int_equal(labels, 1);
  assert_int_equal(ways, 600);
  cb_dungeon_free(d);
}

/* Issue 25, item 14: a word wider than the column (a room named with one
 * 51-letter hyphenated word) is broken into pieces that fit, after its
 * hyphens where it has them, between characters where not; it once ran on
 * into the next column and off the page. */
static void an_over_wide_word_is_broken(void **state) {
  (void)state;
  cb_dungeon *d = five_ways();
  d->rooms[0].text = "Abcdefgh-ijklmnop-qrstuvwx-yzabcdef-ghijklmn-opqrstu and \xc3\xa9\xc3\xa9"
                     "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
                     "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
                     "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
                     "\xc3\xa9.";
  const double w = 80; /* 20 letters at 8 pt */
  cb_page *p = first_entry(d, false, w);
  char all[4096] = "";
  for (int i = 0; i < p->nitems; i++) {
    const cb_item *it = &p->items[i];
    if (it->kind != CB_ITEM_TEXT) continue;
    double iw = fake_width(NULL, it->font, it->size, it->text);
    const char *t = it->text + strlen(it->text);
    if (t > it->text && t[-1] == ' ') iw -= fake_width(NULL, it->font, it->size, " "); /* a run's space */
    if (it->x + iw > w + 1e-6) fail_msg("'%s' runs %.1f pt past the column", it->text, it->x + iw - w);
    assert_true(cb_utf8_valid(it->text));
    strncat(all, it->text, sizeof all - strlen(all) - 1);
  }
  cb_page_free(p);
  assert_non_null(strstr(all, "Abcdefgh-ijklmnop-"));   /* broken after a hyphen */
  assert_non_null(strstr(all, "ghijklmn-opqrstu and")); /* the rest on a line of its own */
  d->rooms[0].text = NULL;
  cb_dungeon_free(d);
}

/* Issue 24: the memo a sheet keeps across its trial boxes (line counts at
 * several widths, each entry's spans built once) changes no fill: the same
 * rooms fit, and the same items are drawn, as with no memo at all. */
static void a_kept_memo_changes_no_fill(void **state) {
  (void)state;
  cb_dungeon *d = five_ways();
  cb_key_memo *memo = cb_key_memo_new(d);
  assert_non_null(memo);
  const double widths[] = {60, 200, 90, 60, 140, 200, 75, 90, 60};
  for (size_t i = 0; i < 2 * sizeof widths / sizeof *widths; i++) {
    bool compact = i % 3 == 0;
    double w = widths[i % (sizeof widths / sizeof *widths)], h = 20 + 15 * (double)(i % 5);
    cb_key_style bare = {&fake_measure, 8, 10, 3, {0, 0, 0}, NULL, NULL, NULL, false, 0, compact},
                 kept = bare;
    kept.memo = memo;
    cb_page *a = cb_page_new(400, 400), *b = cb_page_new(400, 400);
    assert_true(a && b);
    int wa = 0, wb = 0;
    assert_int_equal(fill0(NULL, &kept, d, NULL, w, h, 2, 4), fill0(NULL, &bare, d, NULL, w, h, 2, 4));
    assert_int_equal(fill0(a, &kept, d, &wa, w, h, 2, 4), fill0(b, &bare, d, &wb, w, h, 2, 4));
    assert_int_equal(wa, wb);
    assert_int_equal(a->nitems, b->nitems);
    for (int k = 0; k < a->nitems; k++)
      if (a->items[k].kind == CB_ITEM_TEXT) assert_string_equal(a->items[k].text, b->items[k].text);
    cb_page_free(a);
    cb_page_free(b);
  }
  cb_key_memo_free(memo);
  cb_dungeon_free(d);
}

/* Out of memory comes back through the house's channel: CB_EINTERNAL with
 * a message, the cursor left where it was; never a made-up index. Each of
 * a fill's allocations is made to fail in turn, plain and balanced. */
static void out_of_memory_is_a_status_with_a_message(void **state) {
  (void)state;
  cb_dungeon *d = five_ways();
  cb_key_style ks = {&fake_measure, 8, 10, 3, {0, 0, 0}, NULL, NULL, NULL, false, 0, false};
  for (int balanced = 0; balanced < 2; balanced++) {
    long failed = 0;
    for (long k = 0; k < 64; k++) {
      cb_error err = {0};
      int next = 0, word = 0;
      cb_alloc_fail_once(k);
      cb_status st = balanced ? cb_key_fill_balanced(NULL, &ks, d, &next, &word, 0, 0, 60, 400, 2, 4, &err)
                              : cb_key_fill(NULL, &ks, d, &next, &word, 0, 0, 60, 400, 2, 4, &err);
      cb_alloc_fail_once(-1);
      if (st == CB_OK) {
        assert_int_equal(next, d->nrooms);
        continue;
      }
      assert_int_equal(st, CB_EINTERNAL);
      assert_true(err.msg[0] != '\0');
      assert_int_equal(next, 0);
      failed++;
    }
    assert_true(failed > 0);
  }
  /* an entry's line count the same way */
  long failed = 0;
  for (long k = 0; k < 64; k++) {
    cb_error err = {0};
    int lines = -7;
    cb_alloc_fail_once(k);
    cb_status st = cb_key_lines(&ks, d, 0, 60, &lines, &err);
    cb_alloc_fail_once(-1);
    if (st == CB_OK) {
      assert_true(lines > 0);
      continue;
    }
    assert_int_equal(st, CB_EINTERNAL);
    assert_true(err.msg[0] != '\0');
    assert_int_equal(lines, -7); /* untouched */
    failed++;
  }
  assert_true(failed > 0);
  cb_dungeon_free(d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(the_long_form_names_each_way_with_its_kind),
      cmocka_unit_test(the_compact_form_names_each_kind_once),
      cmocka_unit_test(plain_ways_come_first),
      cmocka_unit_test(a_room_of_many_ways_names_each_once),
      cmocka_unit_test(many_ways_of_a_kind_share_one_label),
      cmocka_unit_test(an_over_wide_word_is_broken),
      cmocka_unit_test(a_kept_memo_changes_no_fill),
      cmocka_unit_test(out_of_memory_is_a_status_with_a_message),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
