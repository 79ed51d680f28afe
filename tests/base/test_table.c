/* Content tables: pipe-separated rows, comments and blank lines skipped,
 * fields trimmed, and every error naming file:line (or the file). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> // after the headers it needs

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/table.h"
#include "testlib.h"

static char dir[512];

static const char *write_file(const char *name, const char *text, size_t len) {
  static char path[700];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  fwrite(text, 1, len, f);
  fclose(f);
  return path;
}

static int setup(void **state) {
  (void)state;
  snprintf(dir, sizeof dir, "%s", cb_test_tmpdir());
  return 0;
}

static int teardown(void **state) {
  (void)state;
  cb_test_rmdir(dir);
  return 0;
}

static void reads_rows(void **state) {
  (void)state;
  const char text[] = "# roll | result\n"
                      "\n"
                      "1 | Empty room\r\n"
                      "  2|  A \xe2\x80\x9c"
                      "fixed\xe2\x80\x9d encounter  |  extra\t\n"
                      "   # an indented comment\n"
                      "3 ||\n"
                      "4 | last line without newline";
  const char *path = write_file("ok.txt", text, sizeof text - 1);
  cb_table t;
  cb_error err = {0};
  assert_int_equal(cb_table_read(path, 2, 3, &t, &err), CB_OK);
  assert_int_equal(t.nrows, 4);
  assert_int_equal(t.rows[0].line, 3);
  assert_int_equal(t.rows[0].nfields, 2);
  assert_string_equal(t.rows[0].fields[1], "Empty room");
  assert_int_equal(t.rows[1].line, 4);
  assert_int_equal(t.rows[1].nfields, 3);
  assert_string_equal(t.rows[1].fields[0], "2");
  assert_string_equal(t.rows[1].fields[1], "A \xe2\x80\x9c"
                                           "fixed\xe2\x80\x9d encounter");
  assert_string_equal(t.rows[1].fields[2], "extra");
  assert_int_equal(t.rows[2].line, 6);
  assert_string_equal(t.rows[2].fields[1], "");
  assert_string_equal(t.rows[2].fields[2], "");
  assert_int_equal(t.rows[3].line, 7);
  assert_string_equal(t.rows[3].fields[1], "last line without newline");
  cb_table_free(&t);
  cb_table_free(NULL);
}

static void expect_error(const char *name, const char *text, size_t len, int min, int max,
                         const char *where) {
  const char *path = write_file(name, text, len);
  char want[800];
  snprintf(want, sizeof want, "%s%s", path, where);
  cb_table t;
  cb_error err = {0};
  assert_int_equal(cb_table_read(path, min, max, &t, &err), CB_EINPUT);
  if (strncmp(err.msg, want, strlen(want)) != 0) fail_msg("'%s' does not start with '%s'", err.msg, want);
  assert_int_equal(t.nrows, 0);
}

static void errors_name_file_and_line(void **state) {
  (void)state;
  const char few[] = "1 | a\n# c\n\n2\n";
  expect_error("few.txt", few, sizeof few - 1, 2, 2, ":4: expected 2 fields");
  const char many[] = "1 | a\n2 | b | c | d\n";
  expect_error("many.txt", many, sizeof many - 1, 1, 3, ":2: expected 1 to 3 fields");
  char *longline = malloc(6000);
  memset(longline, 'x', 5000);
  memcpy(longline, "ok | row\n", 9);
  longline[5000] = '\n';
  expect_error("long.txt", longline, 5001, 1, 2, ":2: line longer");
  free(longline);
  const char nul[] = "1 | a\n2 | b\0c\n";
  expect_error("nul.txt", nul, sizeof nul - 1, 1, 2, ": holds a NUL");
  const char latin1[] = "1 | caf\xe9\n";
  expect_error("latin1.txt", latin1, sizeof latin1 - 1, 1, 2, ": is not valid UTF-8");
  const char cut[] = "1 | \xe2\x80";
  expect_error("cut.txt", cut, sizeof cut - 1, 1, 2, ": is not valid UTF-8");
  size_t big = (1u << 20) + 10;
  char *huge = malloc(big);
  for (size_t i = 0; i < big; i++)
    huge[i] = i % 64 == 63 ? '\n' : 'a';
  expect_error("huge.txt", huge, big, 1, 2, ": larger than 1 MiB");
  free(huge);
  /* more fields than the reader keeps, with a generous maximum */
  char wide[1024] = "";
  for (int i = 0; i < 80; i++)
    strcat(wide, i ? "|f" : "f");
  strcat(wide, "\n");
  const char *path = write_file("wide.txt", wide, strlen(wide));
  cb_table t;
  cb_error err = {0};
  cb_status st = cb_table_read(path, 1, 1000, &t, &err);
  if (st == CB_OK) {
    assert_int_equal(t.rows[0].nfields, 80);
    for (int i = 0; i < 80; i++)
      assert_string_equal(t.rows[0].fields[i], "f");
    cb_table_free(&t);
  } else {
    char want[800];
    snprintf(want, sizeof want, "%s:1:", path);
    assert_int_equal(st, CB_EINPUT);
    assert_non_null(strstr(err.msg, want));
  }
}

static void missing_file_and_directory(void **state) {
  (void)state;
  cb_table t;
  cb_error err = {0};
  char path[700];
  snprintf(path, sizeof path, "%s/absent.txt", dir);
  assert_int_equal(cb_table_read(path, 1, 2, &t, &err), CB_EINPUT);
  assert_int_equal(strncmp(err.msg, path, strlen(path)), 0);
  cb_error e2 = {0};
  assert_int_equal(cb_table_read(dir, 1, 2, &t, &e2), CB_EINPUT);
  assert_int_equal(strncmp(e2.msg, dir, strlen(dir)), 0);
}

/* A file of another form (a mask) is read as tables are: whole, its '#'
 * lines kept; a NUL byte refused; an endless stream stopped past 1 MiB. */
static void whole_text_checked(void **state) {
  (void)state;
  char *text;
  cb_error err = {0};
  assert_int_equal(cb_table_text(write_file("mask.txt", "#.#\n###\n", 8), &text, &err), CB_OK);
  assert_string_equal(text, "#.#\n###\n");
  free(text);
  assert_int_equal(cb_table_text(write_file("nul.txt", "##\n##\0x\n", 8), &text, &err), CB_EINPUT);
  assert_null(text);
  assert_non_null(strstr(err.msg, "nul.txt: holds a NUL byte"));
  cb_error e2 = {0};
  assert_int_equal(cb_table_text("/dev/zero", &text, &e2), CB_EINPUT);
  assert_string_equal(e2.msg, "/dev/zero: larger than 1 MiB");
}

static void fail_names_the_row(void **state) {
  (void)state;
  const char text[] = "# header\n1 | x\n\n7 | y\n";
  const char *path = write_file("rows.txt", text, sizeof text - 1);
  cb_table t;
  cb_error err = {0};
  assert_int_equal(cb_table_read(path, 2, 2, &t, &err), CB_OK);
  assert_int_equal(cb_table_fail(&t, &t.rows[1], &err, "roll %s is not a d6", t.rows[1].fields[0]),
                   CB_EINPUT);
  char want[800];
  snprintf(want, sizeof want, "%s:4: roll 7 is not a d6", path);
  assert_string_equal(err.msg, want);
  cb_table_free(&t);
}

static void numbers(void **state) {
  (void)state;
  long v = 0;
  assert_true(cb_table_int("12", 1, 20, &v) && v == 12);
  assert_true(cb_table_int("-3", -5, 5, &v) && v == -3);
  const char *bad_ints[] = {"", "1.5", "12x", "x", "21", "0", "99999999999999999999999", " "};
  for (size_t i = 0; i < sizeof bad_ints / sizeof *bad_ints; i++)
    assert_false(cb_table_int(bad_ints[i], 1, 20, &v));
  assert_false(cb_table_int(NULL, 1, 20, &v));
  double d = 0;
  assert_true(cb_table_num("2.5", 0, 3, &d) && d == 2.5);
  const char *bad_nums[] = {"", "nan", "inf", "3.01", "1e999", "2,5", "-0.1"};
  for (size_t i = 0; i < sizeof bad_nums / sizeof *bad_nums; i++)
    assert_false(cb_table_num(bad_nums[i], 0, 3, &d));
}

static void table_paths(void **state) {
  (void)state;
  char buf[4096];
  assert_string_equal(cb_table_path("some/where.txt", buf, sizeof buf), "some/where.txt");
  assert_string_equal(cb_table_path("mine.txt", buf, sizeof buf), "mine.txt");
  const char *p = cb_table_path("rooms", buf, sizeof buf);
  const char *suffix = "/templates/rooms.txt";
  size_t n = strlen(p), k = strlen(suffix);
  /* the source tree holds fonts/, so the data directory is found */
  assert_true(n > k && strcmp(p + n - k, suffix) == 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(reads_rows),
      cmocka_unit_test(errors_name_file_and_line),
      cmocka_unit_test(missing_file_and_directory),
      cmocka_unit_test(fail_names_the_row),
      cmocka_unit_test(whole_text_checked),
      cmocka_unit_test(numbers),
      cmocka_unit_test(table_paths),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
