/* jansson running out of memory while it parses a crawlbook JSON file is an
 * internal failure (exit 1) that says "out of memory", never a parse error
 * at "-1:-1" (issue 15, item 15): every allocation of the parse (jansson's
 * go through cb_malloc) is failed in turn. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> // after the headers it needs

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "io/json.h"
#include "registry/registry.h"
#include "run/job.h"
#include "testlib.h"

static void out_of_memory_is_named(void **state) {
  (void)state;
  cb_test_buf buf = {0};
  cb_job job = {.generator = "dropdice", .format = CB_FORMAT_JSON};
  job.gen.seed = 7;
  job.gen.rooms = 12;
  cb_dungeon *d = NULL;
  cb_error err = {0};
  assert_int_equal(cb_job_run(&job, &d, &err), CB_OK);
  assert_int_equal(cb_json_write(d, cb_proc_json(), (cb_sink){&buf, cb_test_buf_write}, &err), CB_OK);
  cb_dungeon_free(d);
  int failed = 0;
  for (long n = 0;; n++) {
    cb_alloc_fail_once(n);
    cb_dungeon *back = NULL;
    cb_error e = {0};
    cb_status st = cb_json_parse(buf.data, buf.len, "t.json", cb_proc_json(), &back, &e);
    cb_alloc_fail_once(-1);
    cb_dungeon_free(back);
    if (st == CB_OK) break;
    failed++;
    if (st != CB_EINTERNAL || !strstr(e.msg, "out of memory"))
      print_message("allocation %ld: %s\n", n, e.msg);
    assert_int_equal(st, CB_EINTERNAL);
    assert_non_null(strstr(e.msg, "out of memory"));
  }
  assert_true(failed > 0);
  /* the parse's first allocation is jansson's own: a file refused before any
   * model is made still says that memory ran out */
  const char bad[] = "{\"format\": 5}";
  cb_error e = {0};
  cb_alloc_fail_once(0);
  cb_status st = cb_json_parse(bad, strlen(bad), "t.json", cb_proc_json(), &d, &e);
  cb_alloc_fail_once(-1);
  assert_int_equal(st, CB_EINTERNAL);
  assert_string_equal(e.msg, "t.json: out of memory");
  free(buf.data);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(out_of_memory_is_named)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
