/* libharu's faults come back as words, not hex codes (issue 15, item 20):
 * a text of a size libharu refuses (its limit is 600 pt) names the fault. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> // after the headers it needs

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/datadir.h"
#include "page/page.h"
#include "render/backend.h"
#include "testlib.h"

static void a_fault_is_named_in_words(void **state) {
  (void)state;
  char fonts[4096];
  const char *data = cb_datadir();
  assert_non_null(data);
  snprintf(fonts, sizeof fonts, "%s/fonts", data);
  cb_render_options ro = {CB_FORMAT_PDF, 150, fonts};
  cb_backend *b = NULL;
  cb_error err = {0};
  assert_int_equal(cb_backend_create(&cb_backend_haru, &ro, &b, &err), CB_OK);
  cb_document doc = {.title = "t"};
  cb_page *p = cb_page_new(200, 200);
  assert_non_null(p);
  cb_page_text(p, CB_FONT_REGULAR, 1000, 10, 100, (cb_rgb){0, 0, 0}, "huge");
  assert_int_equal(cb_document_add(&doc, p), 0);
  cb_test_buf buf = {0};
  cb_status st = cb_backend_render(b, &doc, (cb_sink){&buf, cb_test_buf_write}, &err);
  assert_int_equal(st, CB_EINTERNAL);
  assert_non_null(strstr(err.msg, "libharu: page invalid font size"));
  cb_document_free(&doc);
  cb_backend_destroy(b);
  free(buf.data);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(a_fault_is_named_in_words)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
