/* The theme reader: every shipped theme reads, with the names, cast and
 * short forms a dungeon needs; a bad one gets file:line; a theme of the old
 * format is told so. */
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
    /* 60 rooms without a name twice; two situations at least */
    if (cb_theme_names(&t) < 60) fail_msg("%s: %d room names, not 60", names[i], cb_theme_names(&t));
    assert_true(t.nsituations >= 2);
    for (int k = 0; k < t.nrooms; k++)
      for (int j = 0; j < t.rooms[k].ndressing; j++)
        assert_true(strlen(t.rooms[k].dressing[j].brief) <= CB_THEME_SHORT);
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
  expect_error(24, "dragon | Smaug", "my.txt:24: 'dragon' is not a kind");
  expect_error(24, "doing | a | b", "my.txt:24: a doing row takes 1 field");
  expect_error(24, "monster | x | x | xs | 12 | 1 | 1 bite | 1d4 | 7 | 90' | 1d6 | A thing.",
               "my.txt:24: Armour Class '12'");
  expect_error(24, "monster | x | x | xs | 7 | lots | 1 bite | 1d4 | 7 | 90' | 1d6 | A thing.",
               "my.txt:24: Hit Dice");
  expect_error(24, "monster | x | x | xs | 7 | 1 | 1 bite | 4 | 7 | 90' | 1d6 | A thing.",
               "my.txt:24: damage '4'");
  expect_error(24, "monster | x | x | xs | 7 | 1 | 1 bite | 1d4 | 13 | 90' | 1d6 | A thing.",
               "my.txt:24: morale");
  expect_error(24, "monster | x | x | xs | 7 | 1 | 1 bite | 1d4 | 7 | 90' | 2d | A thing.",
               "my.txt:24: number appearing");
  expect_error(23, "monster | skeleton | x | xs | 7 | 5 | 1 bite | 1d4 | 7 | 90' | 1 | A thing.",
               "my.txt:23: a monster other than a boss has at most 3 Hit Dice");
  expect_error(24, "dressing | Dust.",
               "my.txt:24: a dressing row belongs to a room: put it after one, not after a monster");
  expect_error(
      24, "doing | a line that runs on and on, far longer than any sheet could print beside a room number",
      "my.txt:24: 'a line that runs on and on");
  expect_error(24,
               "doing | x ~ a short form that runs on and on, longer than any sheet prints beside a number",
               "my.txt:24: the short form");
  expect_error(24, "theme | Again | twice", "my.txt:24: Again: a theme has exactly one theme row");
  expect_error(24, "faction | skeleton", "my.txt:24: a faction row belongs to a situation");
  expect_error(102, "room | Hall | everyone | any", "my.txt:102: 'everyone'");
  expect_error(102, "room | Hall | faction | cellar", "my.txt:102: 'cellar'");
  expect_error(102, "room | Ossuary | faction | any", "my.txt:");
  expect_error(1, "# no format row", "my.txt: a theme starts with the row 'format | theme 2'");
}

/* A theme written before situations and room kinds is told so. */
static void old_format_is_told(void **state) {
  (void)state;
  const char *text = "theme | T | t\nroom | Hall\nmonster | 1 | 3 | rats | rat | 3d6 | 1/2\n";
  cb_theme t;
  cb_error err = {0};
  assert_int_equal(cb_theme_parse(text, strlen(text), "old.txt", &t, &err), CB_EINPUT);
  if (!strstr(err.msg, "old.txt: a theme of the old format")) fail_msg("%s", err.msg);
  assert_non_null(strstr(err.msg, "templates/themes/README.md"));
  cb_theme_free(&t);
}

static void too_few_rows_are_refused(void **state) {
  (void)state;
  const char *text = "format | theme 2\ntheme | T | t\nroom | Hall | faction | any\ndressing | Dust.\n";
  cb_theme t;
  cb_error err = {0};
  assert_int_equal(cb_theme_parse(text, strlen(text), "tiny.txt", &t, &err), CB_EINPUT);
  assert_non_null(strstr(err.msg, "tiny.txt: "));
  assert_non_null(strstr(err.msg, "a theme needs"));
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

/* A batch's shelf reads each theme once: the second asking gets the theme
 * the first read, a theme that fails is refused each time and not kept, and
 * with no shelf each asking reads the file afresh. */
static void a_shelf_reads_a_theme_once(void **state) {
  (void)state;
  cb_theme_shelf *shelf = cb_theme_shelf_new();
  assert_non_null(shelf);
  cb_theme own;
  const cb_theme *first = NULL, *again = NULL, *other = NULL;
  cb_error err = {0};
  assert_int_equal(cb_theme_shelf_get(shelf, "crypt", &own, &first, &err), CB_OK);
  assert_ptr_not_equal(first, &own); /* kept on the shelf */
  cb_theme_free(&own);
  assert_int_equal(cb_theme_shelf_get(shelf, "caverns", &own, &other, &err), CB_OK);
  cb_theme_free(&own);
  assert_int_equal(cb_theme_shelf_get(shelf, "crypt", &own, &again, &err), CB_OK);
  cb_theme_free(&own);
  assert_ptr_equal(first, again);
  assert_ptr_not_equal(first, other);
  assert_string_equal(first->name, "Crypt");
  for (int k = 0; k < 2; k++) {
    cb_error bad = {0};
    assert_int_equal(cb_theme_shelf_get(shelf, "/nonexistent/theme.txt", &own, &other, &bad), CB_EINPUT);
    assert_non_null(strstr(bad.msg, "/nonexistent/theme.txt"));
    cb_theme_free(&own);
  }
  cb_theme_shelf_free(shelf);
  /* no shelf: read into own, which the caller frees */
  assert_int_equal(cb_theme_shelf_get(NULL, "crypt", &own, &first, &err), CB_OK);
  assert_ptr_equal(first, &own);
  assert_string_equal(own.name, "Crypt");
  cb_theme_free(&own);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(shipped_themes_read),
      cmocka_unit_test(bad_rows_name_their_line),
      cmocka_unit_test(too_few_rows_are_refused),
      cmocka_unit_test(old_format_is_told),
      cmocka_unit_test(dice_parse),
      cmocka_unit_test(a_shelf_reads_a_theme_once),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
