/* Fault injection: make our n-th allocation fail, for n across a whole run
 * (generate, check, lay out, render, write), and check that every run fails
 * cleanly: an error status with a message, no crash, no leak (ASan), no
 * partial output file, and an existing target left byte for byte. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> // after the headers it needs
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "run/job.h"
#include "testlib.h"

static const char ORIGINAL[] = "an existing file that a failed run must not touch\n";

static int count_files(const char *dir) {
  DIR *d = opendir(dir);
  int n = 0;
  struct dirent *e;
  while (d && (e = readdir(d)))
    if (e->d_name[0] != '.' || strlen(e->d_name) > 2) n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
  if (d) closedir(d);
  return n;
}

/* Runs the job with allocation n failing, for n over the run's allocations
 * (every one up to `dense`, then about `samples` spread over the rest). */
static void sweep(cb_format format, const char *ext, int rooms, unsigned long dense, unsigned long samples,
                  int once) {
  const char *dir = cb_test_tmpdir();
  assert_non_null(dir);
  char out[4096];
  snprintf(out, sizeof out, "%s/dungeon.%s", dir, ext);
  cb_job job = {.generator = "dropdice", .output = out, .format = format, .backend = "cairo", .dpi = 72};
  job.gen.seed = 42;
  job.gen.rooms = rooms;
  cb_error err = {0};
  unsigned long before = cb_alloc_count();
  assert_int_equal(cb_job_run(&job, NULL, &err), CB_OK);
  unsigned long total = cb_alloc_count() - before;
  size_t good_len;
  char *good = cb_test_read_file(out, &good_len);
  assert_non_null(good);
  unsigned long step = total > dense ? (total - dense) / samples + 1 : 1;
  int failures = 0;
  for (unsigned long n = 0; n < total; n += n < dense ? 1 : step) {
    FILE *f = fopen(out, "wb");
    assert_non_null(f);
    fputs(ORIGINAL, f);
    fclose(f);
    cb_error e = {0};
    if (once)
      cb_alloc_fail_once((long)n);
    else
      cb_alloc_fail_after((long)n);
    cb_status st = cb_job_run(&job, NULL, &e);
    cb_alloc_fail_after(-1);
    cb_alloc_fail_once(-1);
    size_t len;
    char *now = cb_test_read_file(out, &len);
    assert_non_null(now);
    if (st != CB_OK) {
      failures++;
      assert_int_equal(st, CB_EINTERNAL);
      assert_true(strlen(e.msg) > 0);
      assert_string_equal(now, ORIGINAL); /* untouched */
    } else {
      /* an allocation the run could do without: the output must be whole */
      if (len != good_len) print_message("allocation %lu failed silently\n", n);
      assert_int_equal(len, good_len);
      assert_memory_equal(now, good, len);
    }
    assert_int_equal(count_files(dir), 1); /* no temporary file left behind */
    free(now);
  }
  print_message("%s (%s): %lu allocations, %d runs failed cleanly\n", ext,
                once ? "one failure" : "all fail from n", total, failures);
  assert_true(failures > 0);
  free(good);
  cb_test_rmdir(dir);
}

static void json_run(void **state) {
  (void)state;
  sweep(CB_FORMAT_JSON, "json", 12, 400, 400, 0);
  sweep(CB_FORMAT_JSON, "json", 12, 400, 400, 1);
}

static void pdf_run(void **state) {
  (void)state;
  sweep(CB_FORMAT_PDF, "pdf", 8, 300, 200, 0);
  sweep(CB_FORMAT_PDF, "pdf", 8, 300, 200, 1);
}

static void png_run(void **state) {
  (void)state;
  sweep(CB_FORMAT_PNG, "png", 6, 300, 200, 1);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(json_run), cmocka_unit_test(pdf_run),
                                     cmocka_unit_test(png_run)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
