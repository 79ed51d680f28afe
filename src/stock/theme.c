#include "theme.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/arena.h"
#include "base/datadir.h"
#include "model/dungeon.h"

/* The blocks a row opens or belongs to. */
typedef enum { TOP, MONSTER, SITUATION, ROOM } block;

typedef enum {
  R_FORMAT,
  R_THEME,
  R_TITLE_A,
  R_TITLE_B,
  R_MAGIC,
  R_ENTRANCE,
  R_LOCK,
  R_SOFT_LOCK,
  R_SECRET,
  R_GOAL,
  R_DOOR_TRAP,
  R_MONSTER,
  R_DOING,
  R_SITUATION,
  R_BOSS,
  R_FACTION,
  R_RIVAL,
  R_BEASTS,
  R_HOOK,
  R_ROOM,
  R_DRESSING,
  R_TRAP,
  R_HAZARD,
  R_SPECIAL,
  R_TREASURE,
  R_COUNT
} row_kind;

/* Each kind: its name, its fields after the kind, the block it opens (a
 * header) or belongs to. */
static const struct {
  const char *name;
  int fields;
  block in;
  bool header;
} kinds[R_COUNT] = {
    [R_FORMAT] = {"format", 1, TOP, false},       [R_THEME] = {"theme", 2, TOP, false},
    [R_TITLE_A] = {"title-a", 1, TOP, false},     [R_TITLE_B] = {"title-b", 1, TOP, false},
    [R_MAGIC] = {"magic", 1, TOP, false},         [R_ENTRANCE] = {"entrance", 1, TOP, false},
    [R_LOCK] = {"lock", 2, TOP, false},           [R_SOFT_LOCK] = {"soft-lock", 2, TOP, false},
    [R_SECRET] = {"secret", 2, TOP, false},       [R_GOAL] = {"goal", 2, TOP, false},
    [R_DOOR_TRAP] = {"door-trap", 3, TOP, false}, [R_MONSTER] = {"monster", 11, MONSTER, true},
    [R_DOING] = {"doing", 1, MONSTER, false},     [R_SITUATION] = {"situation", 1, SITUATION, true},
    [R_BOSS] = {"boss", 1, SITUATION, false},     [R_FACTION] = {"faction", 1, SITUATION, false},
    [R_RIVAL] = {"rival", 2, SITUATION, false},   [R_BEASTS] = {"beasts", 1, SITUATION, false},
    [R_HOOK] = {"hook", 2, SITUATION, false},     [R_ROOM] = {"room", 3, ROOM, true},
    [R_DRESSING] = {"dressing", 1, ROOM, false},  [R_TRAP] = {"trap", 3, ROOM, false},
    [R_HAZARD] = {"hazard", 3, ROOM, false},      [R_SPECIAL] = {"special", 1, ROOM, false},
    [R_TREASURE] = {"treasure", 1, ROOM, false},
};

/* The longest field f of a row of kind k may be (bytes), so that every word
 * the theme gives a dungeon is one its JSON file reads back (model/dungeon.h):
 * names for names, stats and titles (a title-a and a title-b make one
 * title), lines for the rest; a key object leaves room for "K12: ". */
static size_t field_limit(row_kind k, int f) {
  switch (k) {
  case R_TITLE_A:
  case R_TITLE_B: return (CB_TEXT_NAME - 8) / 2;
  case R_THEME:
  case R_GOAL: return f == 1 ? CB_TEXT_NAME : CB_TEXT_LINE;
  case R_MONSTER:
    return f == 5 ? CB_TEXT_HD : f <= 3 || f == 6 || f == 7 || f == 9 ? CB_TEXT_NAME : CB_TEXT_LINE;
  case R_LOCK: return f == 2 ? CB_TEXT_LINE - 16 : CB_TEXT_LINE;
  default: return CB_TEXT_LINE;
  }
}

static const char *const block_names[] = {"the theme", "a monster", "a situation", "a room"};

/* The theme-wide lists and the rows that fill them. */
static const row_kind list_rows[CB_LIST_COUNT] = {R_TITLE_A, R_TITLE_B,   R_MAGIC, R_ENTRANCE,
                                                  R_LOCK,    R_SOFT_LOCK, R_SECRET};
static const int list_at_least[CB_LIST_COUNT] = {3, 3, 4, 2, 2, 2, 2};

enum { MAX_FIELDS = 12, MIN_NAMES = 12 };

#define FORMAT_LINE "theme 2"

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

/* Hit Dice: "1/2", or N, N+K with N 1..30; hd 0 for 1/2. */
static int hit_dice(const char *s, int *hd, int *plus) {
  *plus = 0;
  if (!strcmp(s, "1/2")) return *hd = 0, 1;
  if (!whole(&s, 1, 30, hd)) return 0;
  if (*s == '+') {
    s++;
    if (!whole(&s, 1, 9, plus)) return 0;
  }
  return *s == '\0';
}

int cb_theme_names(const cb_theme *t) {
  int n = 0;
  for (int i = 0; i < t->nrooms; i++)
    n += t->rooms[i].nnames;
  return n;
}

/* ---- the reader's state ---- */

typedef struct reader {
  cb_theme *t;
  cb_arena *a;
  cb_error *err;
  const cb_table_row *row; /* the row in hand, for messages */
} reader;

static cb_status fail(reader *r, const char *msg, const char *arg) {
  return cb_table_fail(&r->t->table, r->row, r->err, msg, arg);
}

static void *grab(reader *r, int n, size_t size) {
  return cb_arena_alloc(r->a, (size_t)(n > 0 ? n : 1), size);
}

static char *trim(char *s) {
  while (*s == ' ' || *s == '\t')
    s++;
  size_t n = strlen(s);
  while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
    s[--n] = '\0';
  return s;
}

/* A field the sheet prints: "long ~ short", or short already. */
static cb_status text(reader *r, char *field, cb_text *out) {
  char *tilde = strstr(field, " ~ ");
  if (tilde) {
    *tilde = '\0';
    out->text = trim(field), out->brief = trim(tilde + 3);
    if (!out->text[0] || !out->brief[0])
      return fail(r, "'%s': a text and its short form, both written", field);
    if (strlen(out->brief) > CB_THEME_SHORT)
      return fail(r, "the short form '%s' is longer than 72 characters", out->brief);
    return CB_OK;
  }
  out->text = out->brief = field;
  if (strlen(field) > CB_THEME_SHORT)
    return fail(r, "'%.40s...' is longer than 72 characters: give it a short form, as 'long ~ short'", field);
  return CB_OK;
}

/* A field only the booklet prints: any length, no short form. */
static cb_text plain(char *field) { return (cb_text){field, field}; }

static int monster_id(const cb_theme *t, const char *id) {
  for (int i = 0; i < t->nmonsters; i++)
    if (t->monsters[i].id && !strcmp(t->monsters[i].id, id)) return i;
  return -1;
}

/* A list of monster ids "ghoul, skeleton" into indices. */
static cb_status id_list(reader *r, char *field, int **out, int *n) {
  int cap = 1;
  for (const char *p = field; *p; p++)
    cap += *p == ',';
  *out = grab(r, cap, sizeof **out);
  if (!*out) return cb_error_oom(r->err);
  *n = 0;
  for (char *tok = field; tok;) {
    char *comma = strchr(tok, ',');
    if (comma) *comma = '\0';
    char *id = trim(tok);
    int m = monster_id(r->t, id);
    if (m < 0) return fail(r, "'%s' is no monster of this theme (monster rows come before their use)", id);
    (*out)[(*n)++] = m;
    tok = comma ? comma + 1 : NULL;
  }
  return CB_OK;
}

/* ---- monsters ---- */

static cb_status monster_row(reader *r, char **f, cb_theme_monster *m) {
  long ac, morale;
  cb_status st;
  if (monster_id(r->t, f[1]) >= 0) return fail(r, "monster '%s' is written twice", f[1]);
  m->id = f[1], m->singular = f[2], m->plural = f[3];
  if (!cb_table_int(f[4], -5, 9, &ac)) return fail(r, "Armour Class '%s' is not -5..9 (descending)", f[4]);
  if (!hit_dice(f[5], &m->hd, &m->hd_plus)) return fail(r, "Hit Dice '%s' is not like 1, 1+1 or 1/2", f[5]);
  m->attacks = f[6], m->damage = f[7], m->move = f[9];
  for (char *p = f[7]; p;) {
    char *slash = strchr(p, '/'), keep = 0;
    if (slash) keep = *slash, *slash = '\0';
    cb_dice d;
    int ok = cb_dice_parse(p, &d);
    if (slash) *slash = keep;
    if (!ok || !d.sides) return fail(r, "damage '%s' is not dice such as 1d6 or 1d4/1d4/1d8", f[7]);
    p = slash ? slash + 1 : NULL;
  }
  if (!cb_table_int(f[8], 2, 12, &morale)) return fail(r, "morale '%s' is not 2..12", f[8]);
  if (!cb_dice_parse(f[10], &m->count))
    return fail(r, "number appearing '%s' is not dice such as 2d4, 1d6+1 or 3", f[10]);
  if ((st = text(r, f[11], &m->about)) != CB_OK) return st;
  m->ac = (int)ac, m->morale = (int)morale, m->line = r->row->line;
  return CB_OK;
}

/* ---- situations ---- */

static const char *const slots[] = {"{boss}", "{goal}", "{power}", "{rival}"};

/* Every {slot} of a hook is one stocking fills; {rival} only with a rival. */
static cb_status check_slots(reader *r, const char *s, bool rival) {
  for (const char *p = strchr(s, '{'); p; p = strchr(p + 1, '{')) {
    size_t k = 0;
    while (k < 4 && strncmp(p, slots[k], strlen(slots[k])) != 0)
      k++;
    if (k == 4) return fail(r, "'%.20s' is no slot: a hook may use {boss}, {goal}, {power} and {rival}", p);
    if (k == 3 && !rival) return fail(r, "%s: this situation has no rival row", slots[k]);
  }
  return CB_OK;
}

static cb_status situation_row(reader *r, char **f, row_kind k, cb_theme_situation *s) {
  cb_status st = CB_OK;
  switch (k) {
  case R_BOSS:
    if ((s->boss = monster_id(r->t, f[1])) < 0) return fail(r, "'%s' is no monster of this theme", f[1]);
    if (r->t->monsters[s->boss].hd > 4 ||
        (r->t->monsters[s->boss].hd == 4 && r->t->monsters[s->boss].hd_plus))
      return fail(r, "the boss '%s' has more than 4 Hit Dice at depth 1 (depth + 3)", f[1]);
    return CB_OK;
  case R_FACTION: return id_list(r, f[1], &s->faction, &s->nfaction);
  case R_BEASTS: return id_list(r, f[1], &s->beasts, &s->nbeasts);
  case R_RIVAL:
    if ((st = text(r, f[1], &s->rival_power)) != CB_OK) return st;
    return id_list(r, f[2], &s->rival, &s->nrival);
  default: /* R_HOOK */
    for (int i = 0; i < 2 && st == CB_OK; i++)
      if ((st = text(r, f[i + 1], &s->hooks[s->nhooks][i])) == CB_OK)
        st = check_slots(r, s->hooks[s->nhooks][i].text, s->rival_power.text != NULL);
    s->nhooks++;
    return st;
  }
}

/* ---- rooms ---- */

static cb_status room_row(reader *r, char **f, cb_theme_room *rm) {
  int n = 1;
  for (const char *p = f[1]; (p = strstr(p, " / ")); p += 3)
    n++;
  if (!(rm->names = grab(r, n, sizeof *rm->names))) return cb_error_oom(r->err);
  for (char *tok = f[1]; tok;) {
    char *slash = strstr(tok, " / ");
    if (slash) *slash = '\0';
    rm->names[rm->nnames++] = trim(tok);
    if (!rm->names[rm->nnames - 1][0]) return fail(r, "'%s': an empty room name", f[1]);
    if (strlen(rm->names[rm->nnames - 1]) > CB_TEXT_NAME)
      return fail(r, "'%.40s...': a room name holds at most 200 bytes (what a JSON file reads back)",
                  rm->names[rm->nnames - 1]);
    tok = slash ? slash + 3 : NULL;
  }
  for (char *w = f[2], *end; *w; w = end) {
    while (*w == ' ' || *w == ',')
      w++;
    end = w + strcspn(w, " ,");
    if (*end) *end++ = '\0';
    if (!*w) break;
    unsigned bit = !strcmp(w, "faction")  ? CB_WHO_FACTION
                   : !strcmp(w, "rival")  ? CB_WHO_RIVAL
                   : !strcmp(w, "beasts") ? CB_WHO_BEASTS
                                          : 0;
    if (!bit) return fail(r, "'%s': who may be found here is faction, rival or beasts", w);
    rm->who |= bit;
  }
  if (!rm->who) return fail(r, "%s: name who may be found here (faction, rival, beasts)", f[2]);
  if (!strcmp(f[3], "any") || !strcmp(f[3], "entrance") || !strcmp(f[3], "goal"))
    rm->role = f[3][0] == 'a' ? CB_ROLE_ANY : f[3][0] == 'e' ? CB_ROLE_ENTRANCE : CB_ROLE_GOAL;
  else
    return fail(r, "'%s': a room serves as any, entrance or goal", f[3]);
  rm->line = r->row->line;
  return CB_OK;
}

static cb_status trap_row(reader *r, char **f, cb_theme_trap *tr, bool hazard) {
  cb_status st = text(r, f[1], &tr->trigger);
  if (st == CB_OK) st = text(r, f[2], &tr->effect);
  tr->tell = f[3], tr->hazard = hazard;
  return st;
}

static cb_status room_part(reader *r, char **f, row_kind k, cb_theme_room *rm) {
  switch (k) {
  case R_DRESSING: return text(r, f[1], &rm->dressing[rm->ndressing++]);
  case R_TRAP:
  case R_HAZARD: return trap_row(r, f, &rm->traps[rm->ntraps++], k == R_HAZARD);
  case R_SPECIAL: return text(r, f[1], &rm->specials[rm->nspecials++]);
  default: /* R_TREASURE */ rm->treasure[rm->ntreasure++] = f[1]; return CB_OK;
  }
}

/* ---- the whole file ---- */

static row_kind kind_of(const char *name) {
  int k = 0;
  while (k < R_COUNT && strcmp(kinds[k].name, name) != 0)
    k++;
  return (row_kind)k;
}

/* The rows of each kind in the block that starts at row i (a header). */
static void count_block(const cb_table *tb, int i, int *n) {
  memset(n, 0, R_COUNT * sizeof *n);
  for (int j = i + 1; j < tb->nrows; j++) {
    row_kind k = kind_of(tb->rows[j].fields[0]);
    if (k == R_COUNT || kinds[k].header || kinds[k].in == TOP) break;
    n[k]++;
  }
}

/* Room for a block's rows, counted ahead, so that each list is one array. */
static cb_status open_block(reader *r, int i, row_kind k) {
  cb_theme *t = r->t;
  int n[R_COUNT];
  count_block(&t->table, i, n);
  bool ok = true;
  if (k == R_MONSTER) {
    ok = (t->monsters[t->nmonsters].doing = grab(r, n[R_DOING], sizeof(cb_text))) != NULL;
  } else if (k == R_SITUATION) {
    cb_theme_situation *s = &t->situations[t->nsituations];
    s->boss = -1, s->line = r->row->line;
    ok = (s->hooks = grab(r, n[R_HOOK], sizeof *s->hooks)) != NULL;
  } else {
    cb_theme_room *rm = &t->rooms[t->nrooms];
    ok = (rm->dressing = grab(r, n[R_DRESSING], sizeof *rm->dressing)) &&
         (rm->traps = grab(r, n[R_TRAP] + n[R_HAZARD], sizeof *rm->traps)) &&
         (rm->specials = grab(r, n[R_SPECIAL], sizeof *rm->specials)) &&
         (rm->treasure = grab(r, n[R_TREASURE], sizeof *rm->treasure));
  }
  return ok ? CB_OK : cb_error_oom(r->err);
}

static cb_status top_row(reader *r, char **f, row_kind k) {
  cb_theme *t = r->t;
  cb_status st = CB_OK;
  if (k == R_THEME) {
    if (t->name) return fail(r, "%s: a theme has exactly one theme row", f[1]);
    t->name = f[1], t->about = f[2];
  } else if (k == R_GOAL) {
    cb_theme_goal *g = &t->goals[t->ngoals++];
    g->name = f[1];
    st = text(r, f[2], &g->about);
  } else if (k == R_DOOR_TRAP) {
    st = trap_row(r, f, &t->door_traps[t->ndoor_traps++], false);
  } else if (k == R_FORMAT) {
    if (r->row != &t->table.rows[0]) return fail(r, "%s: the format row comes first", f[1]);
  } else {
    int l = 0;
    while (list_rows[l] != k)
      l++;
    cb_text *row = t->list[l][t->nlist[l]++];
    /* a lock's key object and a secret's finding are booklet words */
    st = text(r, f[1], &row[0]);
    if (st == CB_OK && kinds[k].fields > 1)
      k == R_SOFT_LOCK ? (void)(st = text(r, f[2], &row[1])) : (void)(row[1] = plain(f[2]));
  }
  return st;
}

static cb_status one_row(reader *r, int i, block *in) {
  cb_theme *t = r->t;
  const cb_table_row *row = r->row = &t->table.rows[i];
  char **f = row->fields;
  row_kind k = kind_of(f[0]);
  if (k == R_COUNT) return fail(r, "'%s' is not a kind of row", f[0]);
  if (row->nfields != kinds[k].fields + 1)
    return cb_table_fail(&t->table, row, r->err, "a %s row takes %d field%s after its kind, this one has %d",
                         kinds[k].name, kinds[k].fields, kinds[k].fields == 1 ? "" : "s", row->nfields - 1);
  for (int j = 1; j < row->nfields; j++) {
    size_t len = strlen(f[j]), most = field_limit(k, j);
    if (!len) return cb_table_fail(&t->table, row, r->err, "field %d is empty", j + 1);
    if (len > most)
      return cb_table_fail(
          &t->table, row, r->err,
          "field %d is %zu bytes; a %s row's holds at most %zu (what a JSON file reads back)", j + 1, len,
          kinds[k].name, most);
  }
  if (kinds[k].header) {
    cb_status st = open_block(r, i, k);
    if (st != CB_OK) return st;
    *in = kinds[k].in;
    if (k == R_MONSTER) return monster_row(r, f, &t->monsters[t->nmonsters++]);
    if (k == R_SITUATION) return text(r, f[1], &t->situations[t->nsituations++].power);
    return room_row(r, f, &t->rooms[t->nrooms++]);
  }
  if (kinds[k].in == TOP) return *in = TOP, top_row(r, f, k);
  if (kinds[k].in != *in)
    return cb_table_fail(&t->table, row, r->err, "a %s row belongs to %s: put it after one, not after %s",
                         kinds[k].name, block_names[kinds[k].in], block_names[*in]);
  if (k == R_DOING) {
    cb_theme_monster *m = &t->monsters[t->nmonsters - 1];
    return text(r, f[1], &m->doing[m->ndoing++]);
  }
  if (kinds[k].in == SITUATION) return situation_row(r, f, k, &t->situations[t->nsituations - 1]);
  return room_part(r, f, k, &t->rooms[t->nrooms - 1]);
}

/* ---- what a whole theme needs ---- */

static cb_status whole_fail(reader *r, const char *what, int line) {
  if (line > 0) return cb_error_set(r->err, CB_EINPUT, "%s:%d: %s", r->t->table.path, line, what);
  return cb_error_set(r->err, CB_EINPUT, "%s: %s", r->t->table.path, what);
}

static cb_status check_situations(reader *r) {
  const cb_theme *t = r->t;
  for (int i = 0; i < t->nsituations; i++) {
    const cb_theme_situation *s = &t->situations[i];
    if (s->boss < 0) return whole_fail(r, "this situation has no boss row", s->line);
    if (!s->nfaction) return whole_fail(r, "this situation has no faction row", s->line);
    if (!s->nhooks) return whole_fail(r, "this situation has no hook row", s->line);
  }
  for (int i = 0; i < t->nmonsters; i++)
    if (!t->monsters[i].ndoing) return whole_fail(r, "this monster has no doing row", t->monsters[i].line);
  return CB_OK;
}

/* Ordinary monsters keep to 3 Hit Dice at depth 1. */
static cb_status check_depth_one(reader *r) {
  const cb_theme *t = r->t;
  for (int i = 0; i < t->nmonsters; i++) {
    const cb_theme_monster *m = &t->monsters[i];
    bool boss = false;
    for (int s = 0; s < t->nsituations; s++)
      boss |= t->situations[s].boss == i;
    if (!boss && (m->hd > 3 || (m->hd == 3 && m->hd_plus)))
      return whole_fail(r, "a monster other than a boss has at most 3 Hit Dice (as at depth 1)", m->line);
  }
  return CB_OK;
}

static cb_status check_rooms(reader *r) {
  const cb_theme *t = r->t;
  int roles[3] = {0};
  for (int i = 0; i < t->nrooms; i++) {
    const cb_theme_room *rm = &t->rooms[i];
    if (!rm->ndressing || !rm->ntraps || !rm->nspecials || !rm->ntreasure)
      return whole_fail(r, "a room needs a dressing, a trap or hazard, a special and a treasure row",
                        rm->line);
    roles[rm->role] += rm->nnames;
    for (int j = 0; j <= i; j++)
      for (int a = 0; a < t->rooms[j].nnames; a++)
        for (int b = j == i ? a + 1 : 0; b < rm->nnames; b++)
          if (!strcmp(t->rooms[j].names[a], rm->names[b]))
            return whole_fail(r, "a room name is written twice", rm->line);
  }
  if (!roles[CB_ROLE_ENTRANCE] || !roles[CB_ROLE_GOAL])
    return whole_fail(r, "a theme needs an entrance room and a goal room", 0);
  if (cb_theme_names(t) < MIN_NAMES) return whole_fail(r, "a theme needs at least 12 room names", 0);
  return CB_OK;
}

static cb_status check_whole(reader *r) {
  const cb_theme *t = r->t;
  char msg[160];
  if (!t->name) return whole_fail(r, "a theme needs its theme row", 0);
  if (!t->nsituations || t->ngoals < 2 || t->ndoor_traps < 2)
    return whole_fail(r, "a theme needs a situation, two goal rows and two door-trap rows", 0);
  for (int l = 0; l < CB_LIST_COUNT; l++)
    if (t->nlist[l] < list_at_least[l]) {
      snprintf(msg, sizeof msg, "%d %s row%s, a theme needs at least %d", t->nlist[l],
               kinds[list_rows[l]].name, t->nlist[l] == 1 ? "" : "s", list_at_least[l]);
      return whole_fail(r, msg, 0);
    }
  cb_status st = check_situations(r);
  if (st == CB_OK) st = check_depth_one(r);
  return st == CB_OK ? check_rooms(r) : st;
}

/* A theme of the format before situations and room kinds. */
static cb_status old_format(reader *r) {
  const cb_table *tb = &r->t->table;
  for (int i = 0; i < tb->nrows; i++)
    if (!strcmp(tb->rows[i].fields[0], "format")) return CB_OK;
  bool old = false;
  for (int i = 0; i < tb->nrows; i++)
    old |= (!strcmp(tb->rows[i].fields[0], "room") && tb->rows[i].nfields == 2) ||
           (!strcmp(tb->rows[i].fields[0], "monster") && tb->rows[i].nfields == 7);
  if (old)
    return cb_error_set(
        r->err, CB_EINPUT,
        "%s: a theme of the old format (loose room, dressing and monster rows): themes are now "
        "situations and room kinds, 'format | " FORMAT_LINE "' first; see templates/themes/README.md",
        tb->path);
  return cb_error_set(r->err, CB_EINPUT, "%s: a theme starts with the row 'format | " FORMAT_LINE "'",
                      tb->path);
}

static cb_status build(cb_theme *t, cb_error *err) {
  reader r = {t, cb_arena_new(), err, NULL};
  t->mem = r.a;
  if (!r.a) return cb_error_oom(err);
  cb_status st = old_format(&r);
  if (st != CB_OK) return st;
  r.row = &t->table.rows[0];
  if (strcmp(t->table.rows[0].fields[0], "format") || t->table.rows[0].nfields != 2 ||
      strcmp(t->table.rows[0].fields[1], FORMAT_LINE))
    return fail(&r, "%s: the first row is 'format | " FORMAT_LINE "'", t->table.rows[0].fields[0]);
  int n = t->table.nrows;
  t->monsters = grab(&r, n, sizeof *t->monsters), t->rooms = grab(&r, n, sizeof *t->rooms);
  t->situations = grab(&r, n, sizeof *t->situations), t->goals = grab(&r, n, sizeof *t->goals);
  t->door_traps = grab(&r, n, sizeof *t->door_traps);
  bool ok = t->monsters && t->rooms && t->situations && t->goals && t->door_traps;
  for (int l = 0; l < CB_LIST_COUNT && ok; l++)
    ok = (t->list[l] = grab(&r, n, sizeof *t->list[l])) != NULL;
  if (!ok) return cb_error_oom(err);
  block in = TOP;
  for (int i = 0; i < n && st == CB_OK; i++)
    st = one_row(&r, i, &in);
  return st == CB_OK ? check_whole(&r) : st;
}

cb_status cb_theme_parse(const char *text, size_t len, const char *name, cb_theme *t, cb_error *err) {
  memset(t, 0, sizeof *t);
  cb_status st = cb_table_parse(text, len, name, 1, MAX_FIELDS, &t->table, err);
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
  cb_status st = cb_table_read(path, 1, MAX_FIELDS, &t->table, err);
  return st == CB_OK ? build(t, err) : st;
}

void cb_theme_free(cb_theme *t) {
  cb_arena_free(t->mem);
  cb_table_free(&t->table);
  memset(t, 0, sizeof *t);
}

struct cb_theme_shelf {
  int n;
  size_t cap;
  struct kept_theme {
    char *name;
    cb_theme t;
  } * at;
};

cb_theme_shelf *cb_theme_shelf_new(void) { return cb_calloc(1, sizeof(cb_theme_shelf)); }

void cb_theme_shelf_free(cb_theme_shelf *s) {
  for (int i = 0; s && i < s->n; i++) {
    free(s->at[i].name);
    cb_theme_free(&s->at[i].t);
  }
  if (s) free(s->at);
  free(s);
}

cb_status cb_theme_shelf_get(cb_theme_shelf *s, const char *name, cb_theme *own, const cb_theme **t,
                             cb_error *err) {
  memset(own, 0, sizeof *own);
  *t = own;
  for (int i = 0; s && i < s->n; i++)
    if (strcmp(s->at[i].name, name) == 0) {
      *t = &s->at[i].t;
      return CB_OK;
    }
  cb_status st = cb_theme_read(name, own, err);
  /* kept when there is room for it; else only read for this once */
  if (st != CB_OK || !s || cb_grow(&s->at, &s->cap, (size_t)s->n + 1, sizeof *s->at)) return st;
  size_t len = strlen(name) + 1;
  char *copy = cb_malloc(len);
  if (!copy) return st;
  memcpy(copy, name, len);
  s->at[s->n] = (struct kept_theme){copy, *own};
  memset(own, 0, sizeof *own);
  *t = &s->at[s->n++].t;
  return CB_OK;
}
