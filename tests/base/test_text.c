/* util/text.c: UTF-8 checks, the terminal escape and shell words. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> // after the headers it needs

#include <stdio.h>
#include <string.h>

#include "base/text.h"
#include "testlib.h"

static void utf8_is_strict(void **state) {
  (void)state;
  assert_true(cb_utf8_valid("plain \xc3\xa9 \xe4\xb8\xad \xf0\x9f\x90\x89"));
  const char *bad[] = {"\xff", "\xc0\x80", "\xe0\x80\x80", "\xed\xa0\x80", "\xf4\x90\x80\x80",
                       "\xc3", "a\x80"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
    assert_false(cb_utf8_valid(bad[i]));
  assert_null(cb_text_bad("Caf\xc3\xa9 \xce\x9e"));
  const char *ctl = "ok\x1b[2J";
  assert_ptr_equal(cb_text_bad(ctl), ctl + 2);
  const char *c1 = "x\xc2\x9b";
  assert_ptr_equal(cb_text_bad(c1), c1 + 1);
}

static void escape_hides_controls_only(void **state) {
  (void)state;
  char out[64];
  assert_string_equal(cb_escape(out, sizeof out, "a\x1b]0;t\x07 \xc3\xa9\x7f\xc2\x9b\xff"),
                      "a\\x1b]0;t\\x07 \xc3\xa9\\x7f\\xc2\\x9b\\xff");
  /* idempotent: an escaped message escaped again is unchanged */
  char again[64];
  assert_string_equal(cb_escape(again, sizeof again, out), out);
  /* a cut falls between characters, never inside an escape */
  char small[6];
  assert_string_equal(cb_escape(small, sizeof small, "ab\x1b\x1b"), "ab");
  assert_string_equal(cb_escape(small, sizeof small, "\xe4\xb8\xad\xe4\xb8\xad"), "\xe4\xb8\xad");
}

static void shell_words_quote_what_needs_it(void **state) {
  (void)state;
  char buf[128];
  size_t n = cb_shell_word(buf, sizeof buf, 0, "--rooms");
  n += (size_t)snprintf(buf + n, sizeof buf - n, " ");
  n = cb_shell_word(buf, sizeof buf, n, "x;touch${IFS}F;#");
  n += (size_t)snprintf(buf + n, sizeof buf - n, " ");
  cb_shell_word(buf, sizeof buf, n, "it's");
  assert_string_equal(buf, "--rooms 'x;touch${IFS}F;#' 'it'\\''s'");
  assert_int_equal(cb_shell_word(buf, 4, 0, "abcdef"), 6); /* counts as snprintf does */
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(utf8_is_strict),
                                     cmocka_unit_test(escape_hides_controls_only),
                                     cmocka_unit_test(shell_words_quote_what_needs_it)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
