#include "proc.h"

#include <string.h>

static const char *const facing_names[CB_FACING_COUNT] = {"N", "E", "S", "W"};
static const char *const result_names[CB_CROSS_RESULT_COUNT] = {"under", "secret", "over", "dead-end"};

const char *cb_facing_name(cb_facing f) { return (unsigned)f < CB_FACING_COUNT ? facing_names[f] : "?"; }

int cb_facing_parse(const char *name) {
  for (int i = 0; name && i < CB_FACING_COUNT; i++)
    if (strcmp(facing_names[i], name) == 0) return i;
  return -1;
}

const char *cb_crossing_result_name(cb_crossing_result r) {
  return (unsigned)r < CB_CROSS_RESULT_COUNT ? result_names[r] : "?";
}

int cb_crossing_result_parse(const char *name) {
  for (int i = 0; name && i < CB_CROSS_RESULT_COUNT; i++)
    if (strcmp(result_names[i], name) == 0) return i;
  return -1;
}

cb_crossing_result cb_crossing_result_of(int roll) {
  if (roll >= 1 && roll <= 4) return CB_CROSS_UNDER;
  if (roll == 5) return CB_CROSS_SECRET;
  if (roll >= 6 && roll <= 9) return CB_CROSS_OVER;
  return CB_CROSS_DEAD_END;
}
