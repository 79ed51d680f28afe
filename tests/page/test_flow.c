/* Text wrapping with a fake measurer: no line wider than asked (unless it is
 * one word longer than a line), every word kept in order, lines a leading
 * apart. */
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
#include "model/rng.h"
#include "page/flow.h"
#include "testlib.h"

/* cb_text_flow's line count, the flow asserted to succeed. */
static int flowed(cb_page *p, const cb_flow *f, const cb_span *spans, int nspans, double x, double y) {
  int lines = -1;
  cb_error err = {0};
  if (cb_text_flow(p, f, spans, nspans, x, y, &lines, &err) != CB_OK) fail_msg("%s", err.msg);
  return lines;
}

static void strip_spaces(const char *in, char *out) {
  for (; *in; in++)
    if (*in != ' ') *out++ = *in;
  *out = '\0';
}

/* Checks the lines drawn on p from item `first` on. */
static void check_lines(const cb_page *p, int first, const cb_flow *f, double x0, double y0, int lines,
                        const cb_span *spans, int nspans) {
  static char drawn[20000], want[20000], tmp[20000];
  drawn[0] = want[0] = '\0';
  int line_seen = -1;
  double line_right[4096] = {0};
  int line_items[4096] = {0};
  char *line_text[4096] = {0};
  for (int i = first; i < p->nitems; i++) {
    const cb_item *it = &p->items[i];
    assert_int_equal(it->kind, CB_ITEM_TEXT);
    double k = (it->y - y0) / f->leading;
    int line = (int)lround(k);
    assert_true(fabs(k - line) < 1e-9);
    assert_true(line >= 0 && line < lines && line < 4096);
    assert_true(line >= line_seen); /* lines come top to bottom */
    line_seen = line;
    assert_true(it->x >= x0 - 1e-9);
    double right = it->x + fake_width(NULL, it->font, it->size, it->text) - x0;
    if (right > line_right[line]) line_right[line] = right;
    line_items[line]++;
    line_text[line] = (char *)it->text;
    strcat(drawn, it->text);
  }
  for (int l = 0; l < lines; l++) {
    assert_true(line_items[l] > 0); /* no empty lines */
    if (line_right[l] > f->width + 1e-9) {
      /* only a single word too long for any line may stick out */
      if (line_items[l] != 1 || strchr(line_text[l], ' '))
        fail_msg("line %d is %.2f wide, more than %.2f", l, line_right[l], f->width);
    }
  }
  for (int s = 0; s < nspans; s++)
    strcat(want, spans[s].text);
  strip_spaces(drawn, tmp);
  strcpy(drawn, tmp);
  strip_spaces(want, tmp);
  assert_string_equal(drawn, tmp);
}

static void random_texts_fit(void **state) {
  (void)state;
  cb_rng rng;
  cb_rng_seed(&rng, 11, 1);
  static char store[64][600];
  for (int round_ = 0; round_ < 800; round_++) {
    int nspans = 1 + (int)cb_rng_below(&rng, 6);
    cb_span spans[8];
    for (int s = 0; s < nspans; s++) {
      int n = 0, words = (int)cb_rng_below(&rng, 25);
      if (cb_rng_below(&rng, 3) == 0) store[s][n++] = ' ';
      for (int w = 0; w < words && n < 500; w++) {
        int len = 1 + (int)cb_rng_below(&rng, cb_rng_below(&rng, 10) == 0 ? 40 : 9);
        for (int c = 0; c < len; c++)
          store[s][n++] = (char)('a' + cb_rng_below(&rng, 26));
        if (w + 1 < words || cb_rng_below(&rng, 2)) store[s][n++] = ' ';
        if (cb_rng_below(&rng, 8) == 0) store[s][n++] = ' '; /* doubled spaces */
      }
      store[s][n] = '\0';
      spans[s] = (cb_span){(cb_font)cb_rng_below(&rng, 4), store[s]};
    }
    cb_flow f = {&fake_measure, 6 + cb_rng_unit(&rng) * 6, 0, 20 + cb_rng_unit(&rng) * 250, {0, 0, 0}};
    f.leading = f.size * 1.2;
    cb_page *p = cb_page_new(600, 800);
    double x0 = 30 + round_ % 7, y0 = 40;
    int counted = flowed(NULL, &f, spans, nspans, 0, 0);
    int lines = flowed(p, &f, spans, nspans, x0, y0);
    assert_int_equal(counted, lines);
    check_lines(p, 0, &f, x0, y0, lines, spans, nspans);
    cb_page_free(p);
  }
}

static void known_breaks(void **state) {
  (void)state;
  /* regular text at size 10: 5 pt per character */
  cb_span s[] = {{CB_FONT_REGULAR, "aaaa bbbb cccc dddd"}};
  cb_flow f = {&fake_measure, 10, 12, 45, {0, 0, 0}}; /* 9 characters fit */
  cb_page *p = cb_page_new(600, 800);
  assert_int_equal(flowed(p, &f, s, 1, 0, 100), 2);
  assert_int_equal(p->nitems, 2);
  assert_string_equal(p->items[0].text, "aaaa bbbb");
  assert_string_equal(p->items[1].text, "cccc dddd");
  assert_true(p->items[1].y == 112);
  cb_page_free(p);
  /* exactly the width fits; a hair less does not */
  f.width = 95;
  assert_int_equal(flowed(NULL, &f, s, 1, 0, 0), 1);
  f.width = 94.99;
  assert_int_equal(flowed(NULL, &f, s, 1, 0, 0), 2);
  /* a word longer than a line is broken into pieces that fit (issue 25: it ran
   * into the next column), after a hyphen where it has one */
  cb_span longword[] = {{CB_FONT_REGULAR, "a bbbbbbbbbbbbbbbbbbbb c"}};
  f.width = 30;
  p = cb_page_new(600, 800);
  assert_int_equal(flowed(p, &f, longword, 1, 0, 0), 5);
  const char *pieces[] = {"a", "bbbbbb", "bbbbbb", "bbbbbb", "bb c"};
  for (int i = 0; i < 5; i++)
    assert_string_equal(p->items[i].text, pieces[i]);
  cb_page_free(p);
  cb_span hyphens[] = {{CB_FONT_REGULAR, "bbb-cc-dddddddd"}};
  p = cb_page_new(600, 800);
  assert_int_equal(flowed(p, &f, hyphens, 1, 0, 0), 4);
  const char *at_hyphens[] = {"bbb-", "cc-", "dddddd", "dd"};
  for (int i = 0; i < 4; i++)
    assert_string_equal(p->items[i].text, at_hyphens[i]);
  cb_page_free(p);
  /* nothing to draw */
  cb_span empty[] = {{CB_FONT_REGULAR, ""}, {CB_FONT_BOLD, "   "}};
  assert_int_equal(flowed(NULL, &f, empty, 2, 0, 0), 0);
  assert_int_equal(flowed(NULL, &f, empty, 0, 0, 0), 0);
  /* spans glued without a space are not split between them */
  cb_span glued[] = {{CB_FONT_BOLD, "12"}, {CB_FONT_REGULAR, "(4) x"}};
  f.width = 1000;
  p = cb_page_new(600, 800);
  assert_int_equal(flowed(p, &f, glued, 2, 10, 10), 1);
  assert_int_equal(p->nitems, 2);
  assert_true(p->items[1].x == 10 + fake_width(NULL, CB_FONT_BOLD, 10, "12"));
  cb_page_free(p);
}

/* Out of memory is a status with its message, measuring or drawing: the
 * count is left as it was, and a page drawn on is marked too. */
static void out_of_memory_is_a_status_with_a_message(void **state) {
  (void)state;
  cb_span s[] = {{CB_FONT_REGULAR, "a few words to flow over a narrow column, twice over"}};
  cb_flow f = {&fake_measure, 10, 12, 60, {0, 0, 0}};
  for (int draw = 0; draw < 2; draw++) {
    long failed = 0;
    for (long k = 0; k < 64; k++) {
      cb_page *p = draw ? cb_page_new(600, 800) : NULL;
      assert_true(!draw || p);
      cb_error err = {0};
      int lines = -7;
      cb_alloc_fail_once(k);
      cb_status st = cb_text_flow(p, &f, s, 1, 0, 0, &lines, &err);
      cb_alloc_fail_once(-1);
      if (st == CB_OK) {
        assert_true(lines > 1);
      } else {
        assert_int_equal(st, CB_EINTERNAL);
        assert_string_equal(err.msg, "out of memory");
        assert_int_equal(lines, -7);
        assert_true(!p || p->oom);
        failed++;
      }
      cb_page_free(p);
    }
    assert_true(failed > 0);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(random_texts_fit),
      cmocka_unit_test(known_breaks),
      cmocka_unit_test(out_of_memory_is_a_status_with_a_message),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
