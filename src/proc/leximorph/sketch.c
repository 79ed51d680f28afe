#include "sketch.h"

#include <string.h>

static const char *const junction_names[CB_JUNCTION_EFFECT_COUNT] = {"ordinary", "trapped", "disabled-trap",
                                                                     "obstacle", "door",    "room"};
static const char *const wall_names[CB_WALL_EFFECT_COUNT] = {"blank",   "secret-door", "branch", "diagonals",
                                                             "blocked", "door",        "doors",  "stairs"};
static const char *const door_names[CB_DOOR_EFFECT_COUNT] = {"parallel", "ahead", "diagonal", "room",
                                                             "chamber"};

static int lookup(const char *const *names, int n, const char *name) {
  for (int i = 0; name && i < n; i++)
    if (strcmp(names[i], name) == 0) return i;
  return -1;
}

const char *cb_junction_effect_name(cb_junction_effect e) {
  return (unsigned)e < CB_JUNCTION_EFFECT_COUNT ? junction_names[e] : "?";
}
int cb_junction_effect_parse(const char *name) {
  return lookup(junction_names, CB_JUNCTION_EFFECT_COUNT, name);
}
const char *cb_wall_effect_name(cb_wall_effect e) {
  return (unsigned)e < CB_WALL_EFFECT_COUNT ? wall_names[e] : "?";
}
int cb_wall_effect_parse(const char *name) { return lookup(wall_names, CB_WALL_EFFECT_COUNT, name); }
const char *cb_door_effect_name(cb_door_effect e) {
  return (unsigned)e < CB_DOOR_EFFECT_COUNT ? door_names[e] : "?";
}
int cb_door_effect_parse(const char *name) { return lookup(door_names, CB_DOOR_EFFECT_COUNT, name); }
