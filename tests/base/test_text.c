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

/* s unchained in the pieces given (split at '|'), put back together */
static const char *unchained(char *out, const char *s) {
  char buf[256];
  snprintf(buf, sizeof buf, "%s", s);
  cb_unchain u = {0};
  char *pieces[8];
  int n = 0;
  for (char *p = strtok(buf, "|"); p && n < 8; p = strtok(NULL, "|"))
    pieces[n++] = p;
  for (int i = 0; i < n; i++)
    cb_text_unchain(&u, pieces[i]);
  out[0] = '\0';
  for (int i = 0; i < n; i++)
    strcat(out, pieces[i]);
  return out;
}

static void colon_chains_are_unchained(void **state) {
  (void)state;
  char out[256];
  assert_string_equal(unchained(out, "Trap: threshold: pit, 1d6."), "Trap, threshold: pit, 1d6.");
  assert_string_equal(unchained(out, "Trap to 22, low arch: hornets: 1d4 for 3 rounds."),
                      "Trap to 22, low arch: hornets, 1d4 for 3 rounds.");
  assert_string_equal(unchained(out, "To 3: Jammed cart: a turn to shift."),
                      "To 3: Jammed cart, a turn to shift.");
  assert_string_equal(unchained(out, "Secret: Waxed shut: scrape it: melt it."),
                      "Secret, waxed shut: scrape it, melt it.");
  /* a name or a code after a one-word lead keeps its capital */
  assert_string_equal(unchained(out, "Trap: Snikt's bell: a wanderer."), "Trap, Snikt's bell: a wanderer.");
  assert_string_equal(unchained(out, "Lock: K1: the iron key."), "Lock, K1: the iron key.");
  /* one colon a sentence is left alone, and a sentence ends at . ; ! ? */
  const char *fine = "A board: NO LIGHTS. Exits: 7 (trapped); 8. 1: 5 kobolds; 2: 3 rats. Goal: a seam.";
  assert_string_equal(unchained(out, fine), fine);
  assert_string_equal(unchained(out, "Ratio 2.5: fine: yes."), "Ratio 2.5: fine, yes.");
  /* the state carries a sentence across pieces, a colon may end one */
  assert_string_equal(unchained(out, "Trap|: smoke: |save or blind."), "Trap, smoke: save or blind.");
  assert_string_equal(unchained(out, "Exits:| 4. |To 5:| Padlocked door (K1). Trap: wire: rock."),
                      "Exits: 4. To 5: Padlocked door (K1). Trap, wire: rock.");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(utf8_is_strict), cmocka_unit_test(escape_hides_controls_only),
      cmocka_unit_test(shell_words_quote_what_needs_it), cmocka_unit_test(colon_chains_are_unchained)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
