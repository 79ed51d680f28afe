/* Output files: written beside the target and renamed into place on commit;
 * abort leaves no file and keeps an existing target intact; a missing
 * directory, an unwritable one or a directory as target is CB_EINPUT. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> // after the headers it needs

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io/output.h"
#include "testlib.h"

static int entries(const char *dir) {
  DIR *d = opendir(dir);
  assert_non_null(d);
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)))
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) n++;
  closedir(d);
  return n;
}

static void put(cb_output *o, const char *s) {
  assert_int_equal(cb_output_write(o, (const unsigned char *)s, strlen(s)), CB_OK);
}

static void commit_renames_into_place(void **state) {
  (void)state;
  const char *tmp = cb_test_tmpdir();
  char dir[512], path[600];
  snprintf(dir, sizeof dir, "%s", tmp);
  snprintf(path, sizeof path, "%s/out.pdf", dir);
  cb_output *o = NULL;
  cb_error err = {0};
  assert_int_equal(cb_output_open(path, &o, &err), CB_OK);
  put(o, "hello ");
  /* nothing at the target yet; the bytes wait in a file beside it */
  struct stat sb;
  assert_int_not_equal(stat(path, &sb), 0);
  assert_int_equal(entries(dir), 1);
  put(o, "world");
  assert_int_equal(cb_output_commit(o, &err), CB_OK);
  size_t len;
  char *got = cb_test_read_file(path, &len);
  assert_non_null(got);
  assert_string_equal(got, "hello world");
  free(got);
  assert_int_equal(entries(dir), 1); /* no temporary file left */
  assert_int_equal(stat(path, &sb), 0);
  mode_t mask = umask(0);
  umask(mask);
  assert_int_equal(sb.st_mode & 0777, 0666 & ~mask);
  /* a second commit replaces it whole */
  assert_int_equal(cb_output_open(path, &o, &err), CB_OK);
  put(o, "second");
  assert_int_equal(cb_output_commit(o, &err), CB_OK);
  got = cb_test_read_file(path, &len);
  assert_string_equal(got, "second");
  free(got);
  assert_int_equal(entries(dir), 1);
  cb_test_rmdir(dir);
}

static void abort_leaves_nothing_and_keeps_the_target(void **state) {
  (void)state;
  char dir[512], path[600];
  snprintf(dir, sizeof dir, "%s", cb_test_tmpdir());
  snprintf(path, sizeof path, "%s/new.json", dir);
  cb_output *o = NULL;
  cb_error err = {0};
  assert_int_equal(cb_output_open(path, &o, &err), CB_OK);
  put(o, "partial");
  cb_output_abort(o);
  assert_int_equal(entries(dir), 0);
  /* an existing target stays byte-identical */
  FILE *f = fopen(path, "wb");
  fputs("the old dungeon\n", f);
  fclose(f);
  assert_int_equal(cb_output_open(path, &o, &err), CB_OK);
  put(o, "half of a new one");
  cb_output_abort(o);
  char *got = cb_test_read_file(path, NULL);
  assert_string_equal(got, "the old dungeon\n");
  free(got);
  assert_int_equal(entries(dir), 1);
  cb_output_abort(NULL);
  cb_test_rmdir(dir);
}

static void bad_targets_are_input_errors(void **state) {
  (void)state;
  char dir[512];
  snprintf(dir, sizeof dir, "%s", cb_test_tmpdir());
  const char *bad[4];
  char missing[700], sub[700];
  snprintf(missing, sizeof missing, "%s/no/such/dir/x.pdf", dir);
  snprintf(sub, sizeof sub, "%s/sub", dir);
  mkdir(sub, 0755);
  bad[0] = missing;
  bad[1] = sub;                     /* a directory as target */
  bad[2] = "/proc/crawlbook-x.pdf"; /* a directory nobody may write, root included */
  bad[3] = "";
  for (int i = 0; i < 4; i++) {
    cb_output *o = (cb_output *)dir; /* any non-NULL value: a failed open must clear it */
    cb_error err = {0};
    assert_int_equal(cb_output_open(bad[i], &o, &err), CB_EINPUT);
    assert_null(o);
    if (*bad[i] && !strstr(err.msg, bad[i])) fail_msg("'%s' does not name %s", err.msg, bad[i]);
  }
  /* nothing was created anywhere */
  assert_int_equal(entries(dir), 1);
  assert_int_equal(entries(sub), 0);
  cb_test_rmdir(dir);
}

static void standard_output(void **state) {
  (void)state;
  cb_output *o = NULL;
  cb_error err = {0};
  assert_int_equal(cb_output_open("-", &o, &err), CB_OK);
  assert_int_equal(cb_output_write(o, (const unsigned char *)"", 0), CB_OK);
  assert_int_equal(cb_output_commit(o, &err), CB_OK);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(commit_renames_into_place),
      cmocka_unit_test(abort_leaves_nothing_and_keeps_the_target),
      cmocka_unit_test(bad_targets_are_input_errors),
      cmocka_unit_test(standard_output),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
