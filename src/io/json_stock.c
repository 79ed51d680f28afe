#include "json_stock.h"

#include <stdio.h>
#include <string.h>

#include "json_fields.h"

enum { MAX_MONSTERS = 64, MAX_TREASURE = 64, MAX_LINE = CB_TEXT_LINE };

/* A short form is written where it differs from the long one. */
static bool same(const char *text, const char *brief) { return !(text && brief && strcmp(text, brief) != 0); }
static bool trigger_same(const void *t) {
  return same(((const cb_trap *)t)->trigger, ((const cb_trap *)t)->trigger_short);
}
static bool effect_same(const void *t) {
  return same(((const cb_trap *)t)->effect, ((const cb_trap *)t)->effect_short);
}

static const cb_json_field trap_fields[] = {
    CB_JF_STR_OF(cb_trap, trigger, "trigger", MAX_LINE, CB_JF_REQUIRED),
    CB_JF_SHORT_OF(cb_trap, trigger_short, "trigger_short", MAX_LINE, trigger_same),
    CB_JF_STR_OF(cb_trap, effect, "effect", MAX_LINE, CB_JF_REQUIRED),
    CB_JF_SHORT_OF(cb_trap, effect_short, "effect_short", MAX_LINE, effect_same),
    CB_JF_STR_OF(cb_trap, tell, "tell", MAX_LINE, CB_JF_REQUIRED),
};
static const cb_json_field treasure_fields[] = {
    CB_JF_STR_OF(cb_treasure, what, "what", MAX_LINE, CB_JF_REQUIRED),
    CB_JF_INT_OF(cb_treasure, value, "value", 0, 100000000, 0, 0),
};
static const cb_json_list treasure = {"treasure", MAX_TREASURE,        0,   treasure_fields,
                                      2,          sizeof(cb_treasure), NULL};

/* "key_short": the sheet's form, written where it differs from the long one. */
static void put_short(cb_jw *w, const char *key, const char *text, const char *brief) {
  if (text && brief && strcmp(text, brief) != 0) cb_jw_key(w, key, 0), cb_jw_str(w, brief);
}

static bool doing_same(const void *m) {
  return same(((const cb_monster *)m)->doing, ((const cb_monster *)m)->doing_short);
}

/* A monster's fields; its roster "kind" (by name) follows the first. */
static const cb_json_field monster_fields[] = {
    CB_JF_STR_OF(cb_monster, name, "name", CB_TEXT_NAME, CB_JF_REQUIRED),
    CB_JF_INT_OF(cb_monster, count, "count", 1, 10000, CB_JF_REQUIRED, 1),
    CB_JF_STR_OF(cb_monster, hd, "hd", CB_TEXT_HD, CB_JF_REQUIRED),
    CB_JF_STR_OF(cb_monster, doing, "doing", MAX_LINE, CB_JF_OMIT_NULL),
    CB_JF_SHORT_OF(cb_monster, doing_short, "doing_short", MAX_LINE, doing_same),
};
enum { NMONSTER = sizeof monster_fields / sizeof *monster_fields };
static cb_status read_kind(cb_json_reader *r, json_t *entry, const char *where, void *item, void *ctx);
static const cb_json_list wandering = {"wandering",        6,        0, monster_fields, NMONSTER,
                                       sizeof(cb_monster), read_kind};
static const cb_json_list monsters = {"monsters", MAX_MONSTERS,       0,        monster_fields,
                                      NMONSTER,   sizeof(cb_monster), read_kind};

/* A roster entry's fields; "ac_ascending" (19 - ac, not read back) follows "ac". */
static const cb_json_field roster_fields[] = {
    CB_JF_STR_OF(cb_roster_entry, name, "name", CB_TEXT_NAME, CB_JF_REQUIRED),
    CB_JF_STR_OF(cb_roster_entry, plural, "plural", CB_TEXT_NAME, CB_JF_REQUIRED),
    CB_JF_INT_OF(cb_roster_entry, ac, "ac", -20, 20, CB_JF_REQUIRED, 9),
    CB_JF_STR_OF(cb_roster_entry, hd, "hd", CB_TEXT_HD, CB_JF_REQUIRED),
    CB_JF_STR_OF(cb_roster_entry, attacks, "attacks", CB_TEXT_NAME, CB_JF_REQUIRED),
    CB_JF_STR_OF(cb_roster_entry, damage, "damage", CB_TEXT_NAME, CB_JF_REQUIRED),
    CB_JF_INT_OF(cb_roster_entry, morale, "morale", 2, 12, CB_JF_REQUIRED, 7),
    CB_JF_STR_OF(cb_roster_entry, move, "move", CB_TEXT_NAME, CB_JF_REQUIRED),
    CB_JF_STR_OF(cb_roster_entry, about, "about", MAX_LINE, CB_JF_REQUIRED),
};
enum { NROSTER = sizeof roster_fields / sizeof *roster_fields, ROSTER_TO_AC = 3 };
static const cb_json_list roster = {"roster", MAX_MONSTERS * 4,        0,   roster_fields,
                                    NROSTER,  sizeof(cb_roster_entry), NULL};

/* "boss" and "goal": the room and the name. */
typedef struct named {
  int room;
  const char *name;
} named;
static const cb_json_field named_fields[] = {
    CB_JF_INT_OF(named, room, "room", 0, 1000000000, CB_JF_REQUIRED, 0),
    CB_JF_STR_OF(named, name, "name", CB_TEXT_NAME, CB_JF_REQUIRED),
};

static void put_monster(cb_jw *w, const cb_dungeon *d, const cb_monster *m) {
  cb_jw_raw(w, "{", 1);
  cb_jw_fields(w, monster_fields, 1, m, 1);
  if (m->kind >= 0 && m->kind < d->nroster) cb_jw_key(w, "kind", 0), cb_jw_str(w, d->roster[m->kind].name);
  cb_jw_fields(w, monster_fields + 1, NMONSTER - 1, m, 0);
  cb_jw_raw(w, "}", 1);
}

static void put_monsters(cb_jw *w, const cb_dungeon *d, const cb_monster *m, int n) {
  cb_jw_raw(w, "[", 1);
  for (int i = 0; i < n; i++)
    cb_jw_next(w, i), put_monster(w, d, &m[i]);
  cb_jw_raw(w, "]", 1);
}

static void put_roster(cb_jw *w, const cb_dungeon *d) {
  cb_jw_put(w, ",\n \"roster\": [");
  for (int i = 0; i < d->nroster; i++) {
    const cb_roster_entry *e = &d->roster[i];
    cb_jw_put(w, i ? ",\n  {" : "\n  {");
    cb_jw_fields(w, roster_fields, ROSTER_TO_AC, e, 1);
    cb_jw_key(w, "ac_ascending", 0), cb_jw_int(w, 19 - e->ac);
    cb_jw_fields(w, roster_fields + ROSTER_TO_AC, NROSTER - ROSTER_TO_AC, e, 0);
    cb_jw_raw(w, "}", 1);
  }
  cb_jw_put(w, d->nroster ? "\n ]" : "]");
}

static void put_named(cb_jw *w, const char *key, int room, const char *name) {
  if (!name) return;
  cb_jw_put(w, ",\n \"");
  cb_jw_put(w, key);
  cb_jw_put(w, "\": {");
  cb_jw_fields(w, named_fields, 2, &(named){room, name}, 1);
  cb_jw_raw(w, "}", 1);
}

/* ,\n "key": ["line", "line"] (the lines up to the first NULL). */
static void put_lines(cb_jw *w, const char *key, const char *const lines[2]) {
  cb_jw_put(w, ",\n \"");
  cb_jw_put(w, key);
  cb_jw_put(w, "\": [");
  for (int i = 0; i < 2 && lines[i]; i++)
    cb_jw_next(w, i), cb_jw_str(w, lines[i]);
  cb_jw_put(w, "]");
}

void cb_json_write_stock(cb_jw *w, const cb_dungeon *d) {
  if (!d->theme) return;
  cb_jw_put(w, ",\n \"theme\": ");
  cb_jw_str(w, d->theme);
  cb_jw_put(w, ",\n \"depth\": ");
  cb_jw_int(w, d->depth);
  put_lines(w, "hook", d->hook);
  if (d->hook_short[0] && d->hook_short[1] &&
      (strcmp(d->hook[0], d->hook_short[0]) != 0 ||
       (d->hook[1] && strcmp(d->hook[1], d->hook_short[1]) != 0)))
    put_lines(w, "hook_short", d->hook_short);
  if (d->nroster) put_roster(w, d);
  put_named(w, "boss", d->boss_room, d->boss_name);
  put_named(w, "goal", d->goal_room, d->goal_name);
  cb_jw_put(w, ",\n \"wandering\": ");
  put_monsters(w, d, d->wandering, d->nwandering);
}

void cb_json_write_contents(cb_jw *w, const cb_dungeon *d, const cb_room *room) {
  const cb_contents *c = room->contents;
  if (!c) return;
  cb_jw_key(w, "contents", 0);
  cb_jw_raw(w, "{", 1);
  cb_jw_key(w, "name", 1), cb_jw_str(w, c->name ? c->name : "");
  cb_jw_key(w, "dressing", 0), cb_jw_str(w, c->dressing ? c->dressing : "");
  put_short(w, "dressing_short", c->dressing, c->dressing_short);
  cb_jw_key(w, "monsters", 0), put_monsters(w, d, c->monsters, c->nmonsters);
  if (c->trap) {
    cb_jw_key(w, "trap", 0), cb_jw_raw(w, "{", 1);
    cb_jw_fields(w, trap_fields, 5, c->trap, 1);
    cb_jw_raw(w, "}", 1);
  }
  if (c->special) cb_jw_key(w, "special", 0), cb_jw_str(w, c->special);
  put_short(w, "special_short", c->special, c->special_short);
  cb_jw_key(w, "treasure", 0), cb_jw_list(w, &treasure, c->treasure, c->ntreasure);
  cb_jw_raw(w, "}", 1);
}

/* The roster entry a monster names ("kind"), -1 for none; read after its
 * fields (a list's check). */
static cb_status read_kind(cb_json_reader *r, json_t *entry, const char *where, void *item, void *ctx) {
  (void)ctx;
  cb_monster *m = item;
  const char *kind = cb_jr_str(r, entry, where, "kind", 200, 0);
  m->kind = -1;
  for (int i = 0; kind && i < r->d->nroster && m->kind < 0; i++)
    if (!strcmp(r->d->roster[i].name, kind)) m->kind = i;
  if (kind && m->kind < 0) cb_jr_fail(r, where, "'kind' \"%.60s\" is no roster entry", kind);
  return r->st;
}

/* A list of records, NULL when it is absent or empty. */
static void *read_list(cb_json_reader *r, json_t *obj, const char *where, const cb_json_list *l, int *n) {
  void *items = cb_jr_list(r, obj, where, l, NULL, NULL, n);
  return *n ? items : NULL;
}

/* "boss" and "goal": {"room": id, "name": ...}; the room is checked once rooms are read. */
static const char *read_named(cb_json_reader *r, json_t *root, const char *key, int *room) {
  json_t *o = cb_jr_field(r, root, "", key, JSON_OBJECT, 0);
  named v = {0};
  if (!o || cb_jr_fields(r, o, key, named_fields, 2, NULL, &v)) return NULL;
  *room = v.room;
  return v.name;
}

/* "key": up to two lines of text, into lines. */
static cb_status read_lines(cb_json_reader *r, json_t *root, const char *key, const char *lines[2]) {
  json_t *a = cb_jr_array(r, root, "", key, 2, 0);
  size_t i;
  json_t *v;
  json_array_foreach(a, i, v) {
    if (!json_is_string(v) || json_string_length(v) > MAX_LINE ||
        strlen(json_string_value(v)) != json_string_length(v))
      return cb_jr_fail(r, key, "line %zu must be a string of at most %d bytes", i, MAX_LINE);
    if (!(lines[i] = cb_arena_strdup(r->d->arena, json_string_value(v)))) return cb_jr_oom(r);
  }
  return r->st;
}

cb_status cb_json_read_stock(cb_json_reader *r, json_t *root) {
  cb_dungeon *d = r->d;
  if (r->version >= 3) {
    d->roster = read_list(r, root, "", &roster, &d->nroster);
    if (r->st || read_lines(r, root, "hook_short", d->hook_short)) return r->st;
    d->boss_name = read_named(r, root, "boss", &d->boss_room);
    d->goal_name = read_named(r, root, "goal", &d->goal_room);
    if (r->st) return r->st;
  }
  d->theme = cb_jr_str(r, root, "", "theme", CB_TEXT_NAME, 0);
  d->depth = cb_jr_int(r, root, "", "depth", 1, 10, 0, 1);
  if (read_lines(r, root, "hook", d->hook)) return r->st;
  d->wandering = read_list(r, root, "", &wandering, &d->nwandering);
  if (!r->st && d->nwandering && d->nwandering != 6)
    return cb_jr_fail(r, "wandering", "the d6 table holds six entries, not %d", d->nwandering);
  if (!r->st && (!d->theme) != (!d->hook[0])) return cb_jr_fail(r, "", "'theme' and 'hook' come together");
  return r->st;
}

cb_status cb_json_read_contents(cb_json_reader *r, json_t *v, const char *room_where, cb_room *room) {
  json_t *c = cb_jr_field(r, v, room_where, "contents", JSON_OBJECT, 0);
  if (!c) return r->st;
  char where[64];
  snprintf(where, sizeof where, "%s.contents", room_where);
  cb_contents *out = cb_arena_alloc(r->d->arena, 1, sizeof *out);
  if (!out) return cb_jr_oom(r);
  out->name = cb_jr_str(r, c, where, "name", CB_TEXT_NAME, 0);
  out->dressing = cb_jr_str(r, c, where, "dressing", MAX_LINE, 0);
  out->special = cb_jr_str(r, c, where, "special", MAX_LINE, 0);
  out->dressing_short = cb_jr_str(r, c, where, "dressing_short", MAX_LINE, 0);
  out->special_short = cb_jr_str(r, c, where, "special_short", MAX_LINE, 0);
  out->monsters = read_list(r, c, where, &monsters, &out->nmonsters);
  json_t *trap = cb_jr_field(r, c, where, "trap", JSON_OBJECT, 0);
  if (trap && !r->st) {
    char at[80];
    snprintf(at, sizeof at, "%s.trap", where);
    if (!(out->trap = cb_arena_alloc(r->d->arena, 1, sizeof *out->trap))) return cb_jr_oom(r);
    cb_jr_fields(r, trap, at, trap_fields, 5, NULL, out->trap);
  }
  if (r->st) return r->st;
  out->treasure = cb_jr_list(r, c, where, &treasure, NULL, NULL, &out->ntreasure);
  if (r->st) return r->st;
  if (out->name && !out->name[0]) out->name = NULL;
  if (out->dressing && !out->dressing[0]) out->dressing = NULL;
  room->contents = out;
  return r->st;
}
