/* The theme reader: every shipped theme reads; a bad one gets file:line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h> // after the headers it needs

#include "stock/theme.h"
#include "testlib.h"

static void shipped_themes_read(void **state) {
  (void)state;
  int n;
  const char *const *names = cb_theme_shipped(&n);
  assert_true(n >= 6);
  for (int i = 0; i < n; i++) {
    cb_theme t;
    cb_error err = {0};
    if (cb_theme_read(names[i], &t, &err) != CB_OK) fail_msg("%s: %s", names[i], err.msg);
    assert_non_null(t.name);
    assert_true(t.n[CB_THEME_ROOM] >= 45);
    cb_theme_free(&t);
  }
}

/* The crypt with one line replaced (line numbers count from 1). */
static char *crypt_with(int line, const char *text, size_t *len) {
  size_t n;
  char *src = cb_test_read_file(cb_test_source_path("templates/themes/crypt.txt"), &n);
  assert_non_null(src);
  char *out = malloc(n + strlen(text) + 2);
  assert_non_null(out);
  size_t o = 0;
  int at = 1;
  for (size_t i = 0; i < n; i++) {
    if (at == line) {
      size_t e = i;
      while (e < n && src[e] != '\n')
        e++;
      o += (size_t)sprintf(out + o, "%s", text);
      i = e;
      if (i < n) out[o++] = '\n';
      at++;
      continue;
    }
    out[o++] = src[i];
    if (src[i] == '\n') at++;
  }
  free(src);
  *len = o;
  return out;
}

static void expect_error(int line, const char *row, const char *want) {
  size_t len;
  char *text = crypt_with(line, row, &len);
  cb_theme t;
  cb_error err = {0};
  assert_int_equal(cb_theme_parse(text, len, "my.txt", &t, &err), CB_EINPUT);
  if (!strstr(err.msg, want)) fail_msg("'%s' gave '%s', not '%s'", row, err.msg, want);
  cb_theme_free(&t);
  free(text);
}

static void bad_rows_name_their_line(void **state) {
  (void)state;
  expect_error(7, "dragon | Smaug", "my.txt:7: 'dragon' is not a kind");
  expect_error(7, "room | Hall | extra", "my.txt:7: a room row takes 1 field");
  expect_error(7, "monster | 0 | 2 | rats | rat | 2d4 | 1", "my.txt:7: monster depths");
  expect_error(7, "monster | 3 | 2 | rats | rat | 2d4 | 1", "my.txt:7: monster depths");
  expect_error(7, "monster | 1 | 2 | rats | rat | 2d | 1", "my.txt:7: number appearing");
  expect_error(7, "monster | 1 | 2 | rats | rat | 2d4 | lots", "my.txt:7: Hit Dice");
  expect_error(7, "treasure | a cup | priceless", "my.txt:7: treasure value");
  expect_error(7, "theme | Again | twice", "my.txt:7: a theme has exactly one theme row");
  expect_error(7, "hook | |", "my.txt:7:");
}

/* A row of `kind` with `fields`, each field n bytes (x...), after the kind. */
static void long_row(char *buf, const char *kind, int fields, size_t n) {
  size_t o = (size_t)sprintf(buf, "%s", kind);
  for (int f = 0; f < fields; f++) {
    o += (size_t)sprintf(buf + o, " | ");
    memset(buf + o, 'x', n);
    o += n;
  }
  buf[o] = '\0';
}

/* Words past what a dungeon's JSON file reads back are refused at their row
 * (issue 25, 8); at the limit they are taken. */
static void rows_past_the_json_limits(void **state) {
  (void)state;
  static char row[8192];
  long_row(row, "room", 1, 201);
  expect_error(7, row, "my.txt:7: field 2 is 201 bytes; a room row's holds at most 200");
  long_row(row, "dressing", 1, 1001);
  expect_error(7, row, "my.txt:7: field 2 is 1001 bytes");
  long_row(row, "hook", 2, 1001);
  expect_error(7, row, "my.txt:7: field 2 is 1001 bytes");
  long_row(row, "title-a", 1, 190);
  expect_error(6, row, "my.txt:6: the longest title-a and title-b rows make a title of");
  long_row(row, "trap", 3, 1000); /* and a secret row after it, over the comment of line 6 */
  size_t at = strlen(row);
  row[at] = '\n';
  long_row(row + at + 1, "secret", 2, 1000);
  expect_error(6, row, "my.txt:6: this row, with the longest lock, soft-lock, secret and trap rows");
  size_t len;
  long_row(row, "room", 1, 200);
  char *text = crypt_with(7, row, &len);
  cb_theme t;
  cb_error err = {0};
  assert_int_equal(cb_theme_parse(text, len, "my.txt", &t, &err), CB_OK);
  cb_theme_free(&t);
  free(text);
}

static void too_few_rows_are_refused(void **state) {
  (void)state;
  const char *text = "theme | T | t\nroom | Hall\n";
  cb_theme t;
  cb_error err = {0};
  assert_int_equal(cb_theme_parse(text, strlen(text), "tiny.txt", &t, &err), CB_EINPUT);
  assert_non_null(strstr(err.msg, "tiny.txt: "));
  assert_non_null(strstr(err.msg, "at least"));
  cb_theme_free(&t);
}

static void dice_parse(void **state) {
  (void)state;
  cb_dice d;
  assert_true(cb_dice_parse("2d4", &d) && d.n == 2 && d.sides == 4 && d.plus == 0);
  assert_true(cb_dice_parse("1d6+1", &d) && d.n == 1 && d.sides == 6 && d.plus == 1);
  assert_true(cb_dice_parse("3", &d) && d.n == 3 && d.sides == 0);
  assert_false(cb_dice_parse("", &d));
  assert_false(cb_dice_parse("d", &d));
  assert_false(cb_dice_parse("2d4+", &d));
  assert_false(cb_dice_parse("99999999999d6", &d));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(shipped_themes_read),
      cmocka_unit_test(bad_rows_name_their_line),
      cmocka_unit_test(too_few_rows_are_refused),
      cmocka_unit_test(rows_past_the_json_limits),
      cmocka_unit_test(dice_parse),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
