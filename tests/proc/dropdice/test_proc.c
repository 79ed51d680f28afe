/* dropdice's rewrite rules as model.md spells them, both ways. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> // after the headers it needs

#include "proc/dropdice/proc.h"

static void rule_names_round_trip(void **state) {
  (void)state;
  for (int i = 0; i < CB_REWRITE_RULE_COUNT; i++) {
    const char *n = cb_rewrite_rule_name((cb_rewrite_rule)i);
    assert_string_not_equal(n, "?");
    assert_int_equal(cb_rewrite_rule_parse(n), i);
  }
  assert_int_equal(cb_rewrite_rule_parse("start-goal-locked"), CB_REWRITE_START_GOAL_LOCKED);
  assert_int_equal(cb_rewrite_rule_parse("start"), -1);
  assert_int_equal(cb_rewrite_rule_parse(NULL), -1);
  assert_string_equal(cb_rewrite_rule_name((cb_rewrite_rule)-1), "?");
  assert_string_equal(cb_rewrite_rule_name((cb_rewrite_rule)CB_REWRITE_RULE_COUNT), "?");
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(rule_names_round_trip)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
