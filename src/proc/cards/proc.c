#include "proc.h"

#include <string.h>

static const char *const results[CB_DIE_RESULT_COUNT] = {"door",     "entry",        "out",    "surface",
                                                         "existing", "rediscovered", "ignored"};
static const char *const obstacles[CB_OBSTACLE_COUNT] = {NULL, "trapped", "locked", "jammed", "obstructed"};

const char *cb_die_result_name(cb_die_result r) {
  return (unsigned)r < CB_DIE_RESULT_COUNT ? results[r] : "?";
}

int cb_die_result_parse(const char *name) {
  for (int i = 0; name && i < CB_DIE_RESULT_COUNT; i++)
    if (strcmp(results[i], name) == 0) return i;
  return -1;
}

void cb_cards_room_rules(const cb_room *r, cb_room_word *w) {
  size_t n = r->card ? strlen(r->card) : 0;
  if (!n) return;
  char suit = r->card[n - 1];
  bool black = suit == 'S' || suit == 'C';
  w->no_monster = black;
  w->more = suit == 'H';
  w->tough = r->value >= 7;
  w->trap = !black && r->value >= 11;
  w->wonder = black && r->value >= 8;
}

const char *cb_obstacle_name(cb_obstacle o) { return (unsigned)o < CB_OBSTACLE_COUNT ? obstacles[o] : NULL; }

int cb_obstacle_parse(const char *name) {
  for (int i = 1; name && i < CB_OBSTACLE_COUNT; i++)
    if (strcmp(obstacles[i], name) == 0) return i;
  return -1;
}
