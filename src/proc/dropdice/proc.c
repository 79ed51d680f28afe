#include "proc.h"

static const char *const rule_names[CB_REWRITE_RULE_COUNT] = {
    "start-start", "goal-goal", "start-goal-secret", "start-goal-locked", "odd", "even", "zero"};

const char *cb_rewrite_rule_name(cb_rewrite_rule rule) {
  return (unsigned)rule < CB_REWRITE_RULE_COUNT ? rule_names[rule] : "?";
}
int cb_rewrite_rule_parse(const char *name) { return cb_name_find(rule_names, CB_REWRITE_RULE_COUNT, name); }
