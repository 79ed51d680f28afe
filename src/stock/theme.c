#include "theme.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/datadir.h"
#include "model/dungeon.h"

/* Each kind: its name, fields after the kind, and the rows a theme needs. */
static const struct {
  const char *name;
  int fields, at_least;
} kinds[CB_THEME_KIND_COUNT] = {
    {"theme", 2, 1}, {"title-a", 1, 12},  {"title-b", 1, 12},  {"hook", 2, 6},      {"goal", 1, 6},
    {"boss", 3, 4},  {"room", 1, 45},     {"dressing", 1, 45}, {"monster", 6, 20},  {"doing", 1, 45},
    {"trap", 3, 15}, {"hazard", 3, 8},    {"special", 1, 20},  {"treasure", 2, 25}, {"magic", 1, 12},
    {"lock", 2, 8},  {"soft-lock", 2, 8}, {"secret", 2, 8},    {"entrance", 1, 6},
};

/* The longest a field may be (bytes), so that every word the theme gives a
 * dungeon is one its JSON file reads back (model/dungeon.h): names for a
 * theme's, a room's and a monster's name, lines for the rest; a key object
 * leaves room for its key's name ("K12: ") in the treasure it becomes. */
static size_t field_limit(cb_theme_kind k, int f) {
  switch (k) {
  case CB_THEME_THEME: return f == 1 ? CB_TEXT_NAME : CB_TEXT_LINE;
  case CB_THEME_TITLE_A:
  case CB_THEME_TITLE_B:
  case CB_THEME_ROOM: return CB_TEXT_NAME;
  case CB_THEME_BOSS: return f == 1 ? CB_TEXT_NAME : f == 2 ? CB_TEXT_HD : CB_TEXT_LINE;
  case CB_THEME_MONSTER: return f == 3 || f == 4 ? CB_TEXT_NAME : CB_TEXT_HD;
  case CB_THEME_LOCK: return f == 2 ? CB_TEXT_LINE - 16 : CB_TEXT_LINE;
  default: return CB_TEXT_LINE;
  }
}

/* Monsters per depth a theme needs, so that a depth never runs dry. */
enum { PER_DEPTH = 5, MAX_DEPTH = 10 };

static const char *const shipped[] = {"crypt",         "caverns",     "ruined-temple", "mine",
                                      "wizards-tower", "bandit-lair", "drowned-shrine"};

const char *const *cb_theme_shipped(int *n) {
  *n = (int)(sizeof shipped / sizeof *shipped);
  return shipped;
}

static int whole(const char **s, int lo, int hi, int *out) {
  if (!isdigit((unsigned char)**s)) return 0;
  long v = 0;
  while (isdigit((unsigned char)**s)) {
    v = v * 10 + (**s - '0');
    if (v > hi) return 0;
    (*s)++;
  }
  if (v < lo) return 0;
  *out = (int)v;
  return 1;
}

int cb_dice_parse(const char *s, cb_dice *out) {
  cb_dice d = {1, 0, 0};
  if (*s != 'd' && !whole(&s, 1, 100, &d.n)) return 0;
  if (*s == 'd') {
    s++;
    if (!whole(&s, 2, 100, &d.sides)) return 0;
    if (*s == '+') {
      s++;
      if (!whole(&s, 1, 100, &d.plus)) return 0;
    }
  }
  if (*s) return 0;
  *out = d;
  return 1;
}

/* Hit Dice: "1/2", "1/4", or N, N+K, N-K with N 1..30. */
static int hit_dice(const char *s) {
  if (!strcmp(s, "1/2") || !strcmp(s, "1/4")) return 1;
  int v;
  if (!whole(&s, 1, 30, &v)) return 0;
  if (*s == '+' || *s == '-') {
    s++;
    if (!whole(&s, 1, 9, &v)) return 0;
  }
  return *s == '\0';
}

static cb_status monster_row(cb_theme *t, const cb_table_row *row, cb_theme_monster *m, cb_error *err) {
  long lo, hi;
  if (!cb_table_int(row->fields[1], 1, MAX_DEPTH, &lo) || !cb_table_int(row->fields[2], 1, MAX_DEPTH, &hi) ||
      hi < lo)
    return cb_table_fail(&t->table, row, err,
                         "monster depths must be two numbers 1..10, the first not above the second");
  if (!cb_dice_parse(row->fields[5], &m->count))
    return cb_table_fail(&t->table, row, err, "number appearing '%s' is not dice such as 2d4, 1d6+1 or 3",
                         row->fields[5]);
  if (!hit_dice(row->fields[6]))
    return cb_table_fail(&t->table, row, err, "Hit Dice '%s' is not like 1, 1+1, 2-1 or 1/2", row->fields[6]);
  m->lo = (int)lo, m->hi = (int)hi;
  m->plural = row->fields[3], m->singular = row->fields[4], m->hd = row->fields[6];
  return CB_OK;
}

/* Checks each row's kind and fields, and counts the rows of each kind. */
static cb_status sort_rows(cb_theme *t, cb_error *err) {
  for (int i = 0; i < t->table.nrows; i++) {
    const cb_table_row *row = &t->table.rows[i];
    int k = 0;
    while (k < CB_THEME_KIND_COUNT && strcmp(kinds[k].name, row->fields[0]) != 0)
      k++;
    if (k == CB_THEME_KIND_COUNT)
      return cb_table_fail(&t->table, row, err, "'%s' is not a kind of row", row->fields[0]);
    if (row->nfields != kinds[k].fields + 1)
      return cb_table_fail(&t->table, row, err, "a %s row takes %d field%s after its kind, this one has %d",
                           kinds[k].name, kinds[k].fields, kinds[k].fields == 1 ? "" : "s", row->nfields - 1);
    for (int f = 1; f < row->nfields; f++) {
      size_t len = strlen(row->fields[f]), most = field_limit((cb_theme_kind)k, f);
      if (!len) return cb_table_fail(&t->table, row, err, "field %d is empty", f + 1);
      if (len > most)
        return cb_table_fail(
            &t->table, row, err,
            "field %d is %zu bytes; a %s row's holds at most %zu (what a JSON file reads back)", f + 1, len,
            kinds[k].name, most);
    }
    t->n[k]++;
  }
  for (int k = 0; k < CB_THEME_KIND_COUNT; k++) {
    t->rows[k] = cb_calloc((size_t)t->n[k] + 1, sizeof *t->rows[k]);
    if (!t->rows[k]) return cb_error_oom(err);
    t->n[k] = 0;
  }
  for (int i = 0; i < t->table.nrows; i++) {
    const cb_table_row *row = &t->table.rows[i];
    int k = 0;
    while (strcmp(kinds[k].name, row->fields[0]) != 0)
      k++;
    t->rows[k][t->n[k]++] = row;
  }
  return CB_OK;
}

/* The row of kind k with the longest fields (from..to), and their length. */
static size_t longest(const cb_theme *t, cb_theme_kind k, int from, int to, const cb_table_row **row) {
  size_t most = 0;
  for (int i = 0; i < t->n[k]; i++) {
    size_t len = 0;
    for (int f = from; f <= to; f++)
      len += strlen(t->rows[k][i]->fields[f]);
    if (len >= most) most = len, *row = most ? t->rows[k][i] : *row;
  }
  return most;
}

/* Words the stocker puts together: a title ("The a b") and a passage's note
 * (a lock, a soft lock, a secret way and a trap at most, with their
 * punctuation) must still be ones a JSON file reads back. */
static cb_status check_joined(cb_theme *t, cb_error *err) {
  const cb_table_row *a = NULL, *b = NULL, *rows[4] = {NULL};
  size_t title = longest(t, CB_THEME_TITLE_A, 1, 1, &a) + longest(t, CB_THEME_TITLE_B, 1, 1, &b) + 5;
  if (title > CB_TEXT_NAME)
    return cb_table_fail(&t->table, strlen(a->fields[1]) >= strlen(b->fields[1]) ? a : b, err,
                         "the longest title-a and title-b rows make a title of %zu bytes; a title holds "
                         "at most %d (what a JSON file reads back)",
                         title, CB_TEXT_NAME);
  static const struct {
    cb_theme_kind k;
    int to, glue;
  } parts[4] = {
      {CB_THEME_LOCK, 2, 14}, {CB_THEME_SOFT_LOCK, 2, 4}, {CB_THEME_SECRET, 2, 4}, {CB_THEME_TRAP, 3, 21}};
  size_t note = 0, most = 0;
  int at = 0;
  for (int i = 0; i < 4; i++) {
    size_t len = longest(t, parts[i].k, 1, parts[i].to, &rows[i]) + (size_t)parts[i].glue;
    note += len;
    if (len > most) most = len, at = i;
  }
  if (note > CB_TEXT_NOTE)
    return cb_table_fail(&t->table, rows[at], err,
                         "this row, with the longest lock, soft-lock, secret and trap rows, makes a "
                         "passage's note of %zu bytes; a note holds at most %d (what a JSON file reads back)",
                         note, CB_TEXT_NOTE);
  return CB_OK;
}

static cb_status check_counts(cb_theme *t, cb_error *err) {
  for (int k = 0; k < CB_THEME_KIND_COUNT; k++) {
    if (t->n[k] < kinds[k].at_least)
      return cb_error_set(err, CB_EINPUT, "%s: %d %s row%s, a theme needs at least %d", t->table.path,
                          t->n[k], kinds[k].name, t->n[k] == 1 ? "" : "s", kinds[k].at_least);
  }
  if (t->n[CB_THEME_THEME] > 1)
    return cb_table_fail(&t->table, t->rows[CB_THEME_THEME][1], err, "a theme has exactly one theme row");
  for (int depth = 1; depth <= MAX_DEPTH; depth++) {
    int n = 0;
    for (int i = 0; i < t->n[CB_THEME_MONSTER]; i++)
      n += t->monsters[i].lo <= depth && depth <= t->monsters[i].hi;
    if (n < PER_DEPTH)
      return cb_error_set(err, CB_EINPUT, "%s: %d monster row%s cover depth %d, a theme needs at least %d",
                          t->table.path, n, n == 1 ? "" : "s", depth, PER_DEPTH);
  }
  return CB_OK;
}

static cb_status build(cb_theme *t, cb_error *err) {
  cb_status st = sort_rows(t, err);
  if (st != CB_OK) return st;
  int nm = t->n[CB_THEME_MONSTER], nt = t->n[CB_THEME_TREASURE];
  t->monsters = cb_calloc((size_t)nm + 1, sizeof *t->monsters);
  t->treasure_value = cb_calloc((size_t)nt + 1, sizeof *t->treasure_value);
  if (!t->monsters || !t->treasure_value) return cb_error_oom(err);
  for (int i = 0; i < nm; i++)
    if ((st = monster_row(t, t->rows[CB_THEME_MONSTER][i], &t->monsters[i], err)) != CB_OK) return st;
  for (int i = 0; i < nt; i++) {
    const cb_table_row *row = t->rows[CB_THEME_TREASURE][i];
    long v;
    if (!cb_table_int(row->fields[2], 1, 100000, &v))
      return cb_table_fail(&t->table, row, err, "treasure value '%s' is not a whole number of gp, 1..100000",
                           row->fields[2]);
    t->treasure_value[i] = (int)v;
  }
  if ((st = check_counts(t, err)) != CB_OK) return st;
  if ((st = check_joined(t, err)) != CB_OK) return st;
  t->name = t->rows[CB_THEME_THEME][0]->fields[1];
  t->about = t->rows[CB_THEME_THEME][0]->fields[2];
  return CB_OK;
}

cb_status cb_theme_parse(const char *text, size_t len, const char *name, cb_theme *t, cb_error *err) {
  memset(t, 0, sizeof *t);
  cb_status st = cb_table_parse(text, len, name, 1, 7, &t->table, err);
  return st == CB_OK ? build(t, err) : st;
}

cb_status cb_theme_read(const char *name, cb_theme *t, cb_error *err) {
  memset(t, 0, sizeof *t);
  char path[4096];
  size_t n = strlen(name);
  const char *dir = cb_datadir();
  if (strchr(name, '/') || (n > 4 && strcmp(name + n - 4, ".txt") == 0) || !dir)
    snprintf(path, sizeof path, "%s", name);
  else
    snprintf(path, sizeof path, "%s/templates/themes/%s.txt", dir, name);
  cb_status st = cb_table_read(path, 1, 7, &t->table, err);
  return st == CB_OK ? build(t, err) : st;
}

void cb_theme_free(cb_theme *t) {
  for (int k = 0; k < CB_THEME_KIND_COUNT; k++)
    free(t->rows[k]);
  free(t->monsters);
  free(t->treasure_value);
  cb_table_free(&t->table);
  memset(t, 0, sizeof *t);
}
