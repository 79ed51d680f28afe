#include "recorded.h"

#include <string.h>

#define NUMBER_TEXT false
#define NUMBER_NUMBER true
#define ROW(id, name_, kind, when) [CB_RECORDED_##id] = {.name = name_, .number = NUMBER_##kind},
const cb_recorded_option cb_recorded_options[CB_RECORDED_COUNT] = {CB_RECORDED_OPTIONS(ROW)};
#undef ROW

bool cb_recorded_is(const char *key) {
  for (int i = 0; i < CB_RECORDED_COUNT; i++)
    if (strcmp(cb_recorded_options[i].name, key) == 0) return true;
  return false;
}

int cb_dungeon_record(cb_dungeon *d, cb_recorded which, const char *value) {
  const cb_recorded_option *row = &cb_recorded_options[which];
  return value ? cb_dungeon_set_option(d, row->name, value, row->number) : 0;
}

const char *cb_dungeon_recorded(const cb_dungeon *d, cb_recorded which) {
  for (int i = 0; i < d->noptions; i++)
    if (strcmp(d->options[i].name, cb_recorded_options[which].name) == 0) return d->options[i].value;
  return NULL;
}
