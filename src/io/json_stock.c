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
    {.key = "trigger_short",
     .kind = CB_JF_STR,
     .offset = offsetof(cb_trap, trigger_short),
     .hi = MAX_LINE,
     .omit = trigger_same},
    CB_JF_STR_OF(cb_trap, effect, "effect", MAX_LINE, CB_JF_REQUIRED),
    {.key = "effect_short",
     .kind = CB_JF_STR,
     .offset = offsetof(cb_trap, effect_short),
     .hi = MAX_LINE,
     .omit = effect_same},
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

static void put_monster(cb_jw *w, const cb_dungeon *d, const cb_monster *m) {
  cb_jw_raw(w, "{", 1);
  cb_jw_key(w, "name", 1), cb_jw_str(w, m->name);
  if (m->kind >= 0 && m->kind < d->nroster) cb_jw_key(w, "kind", 0), cb_jw_str(w, d->roster[m->kind].name);
  cb_jw_key(w, "count", 0), cb_jw_int(w, m->count);
  cb_jw_key(w, "hd", 0), cb_jw_str(w, m->hd);
  if (m->doing) cb_jw_key(w, "doing", 0), cb_jw_str(w, m->doing);
  put_short(w, "doing_short", m->doing, m->doing_short);
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
    cb_jw_key(w, "name", 1), cb_jw_str(w, e->name);
    cb_jw_key(w, "plural", 0), cb_jw_str(w, e->plural);
    cb_jw_key(w, "ac", 0), cb_jw_int(w, e->ac);
    cb_jw_key(w, "ac_ascending", 0), cb_jw_int(w, 19 - e->ac);
    cb_jw_key(w, "hd", 0), cb_jw_str(w, e->hd);
    cb_jw_key(w, "attacks", 0), cb_jw_str(w, e->attacks);
    cb_jw_key(w, "damage", 0), cb_jw_str(w, e->damage);
    cb_jw_key(w, "morale", 0), cb_jw_int(w, e->morale);
    cb_jw_key(w, "move", 0), cb_jw_str(w, e->move);
    cb_jw_key(w, "about", 0), cb_jw_str(w, e->about);
    cb_jw_raw(w, "}", 1);
  }
  cb_jw_put(w, d->nroster ? "\n ]" : "]");
}

static void put_named(cb_jw *w, const char *key, int room, const char *name) {
  if (!name) return;
  cb_jw_put(w, ",\n \"");
  cb_jw_put(w, key);
  cb_jw_put(w, "\": {");
  cb_jw_key(w, "room", 1), cb_jw_int(w, room);
  cb_jw_key(w, "name", 0), cb_jw_str(w, name);
  cb_jw_raw(w, "}", 1);
}

void cb_json_write_stock(cb_jw *w, const cb_dungeon *d) {
  if (!d->theme) return;
  cb_jw_put(w, ",\n \"theme\": ");
  cb_jw_str(w, d->theme);
  cb_jw_put(w, ",\n \"depth\": ");
  cb_jw_int(w, d->depth);
  cb_jw_put(w, ",\n \"hook\": [");
  for (int i = 0; i < 2 && d->hook[i]; i++)
    cb_jw_next(w, i), cb_jw_str(w, d->hook[i]);
  cb_jw_put(w, "]");
  if (d->hook_short[0] && d->hook_short[1] &&
      (strcmp(d->hook[0], d->hook_short[0]) != 0 ||
       (d->hook[1] && strcmp(d->hook[1], d->hook_short[1]) != 0))) {
    cb_jw_put(w, ",\n \"hook_short\": [");
    for (int i = 0; i < 2; i++)
      cb_jw_next(w, i), cb_jw_str(w, d->hook_short[i]);
    cb_jw_put(w, "]");
  }
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

/* The roster entry a monster names ("kind"), -1 for none. */
static int roster_entry(cb_json_reader *r, json_t *v, const char *at) {
  const char *kind = cb_jr_str(r, v, at, "kind", 200, 0);
  if (!kind) return -1;
  for (int i = 0; i < r->d->nroster; i++)
    if (!strcmp(r->d->roster[i].name, kind)) return i;
  cb_jr_fail(r, at, "'kind' \"%.60s\" is no roster entry", kind);
  return -1;
}

/* A list of monsters at obj[key]; *n gets their count. */
static cb_monster *read_monsters(cb_json_reader *r, json_t *obj, const char *where, const char *key,
                                 size_t max, int *n) {
  json_t *a = cb_jr_array(r, obj, where, key, max, 0);
  *n = 0;
  if (!a || !json_array_size(a)) return NULL;
  cb_monster *m = cb_arena_alloc(r->d->arena, json_array_size(a), sizeof *m);
  if (!m) return cb_jr_oom(r), NULL;
  size_t i;
  json_t *v;
  json_array_foreach(a, i, v) {
    char at[96];
    snprintf(at, sizeof at, "%s.%s[%zu]", where, key, i);
    if (!json_is_object(v)) return cb_jr_fail(r, at, "must be an object"), NULL;
    m[i].name = cb_jr_str(r, v, at, "name", CB_TEXT_NAME, 1);
    m[i].count = cb_jr_int(r, v, at, "count", 1, 10000, 1, 1);
    m[i].hd = cb_jr_str(r, v, at, "hd", CB_TEXT_HD, 1);
    m[i].doing = cb_jr_str(r, v, at, "doing", MAX_LINE, 0);
    m[i].doing_short = cb_jr_str(r, v, at, "doing_short", MAX_LINE, 0);
    m[i].kind = roster_entry(r, v, at);
    if (r->st) return NULL;
  }
  *n = (int)json_array_size(a);
  return m;
}

static cb_status read_roster(cb_json_reader *r, json_t *root) {
  json_t *a = cb_jr_array(r, root, "", "roster", MAX_MONSTERS * 4, 0);
  if (!a || !json_array_size(a)) return r->st;
  cb_roster_entry *e = cb_arena_alloc(r->d->arena, json_array_size(a), sizeof *e);
  if (!e) return cb_jr_oom(r);
  size_t i;
  json_t *v;
  json_array_foreach(a, i, v) {
    char at[32];
    snprintf(at, sizeof at, "roster[%zu]", i);
    if (!json_is_object(v)) return cb_jr_fail(r, at, "must be an object");
    e[i].name = cb_jr_str(r, v, at, "name", CB_TEXT_NAME, 1);
    e[i].plural = cb_jr_str(r, v, at, "plural", CB_TEXT_NAME, 1);
    e[i].ac = cb_jr_int(r, v, at, "ac", -20, 20, 1, 9);
    e[i].hd = cb_jr_str(r, v, at, "hd", CB_TEXT_HD, 1);
    e[i].attacks = cb_jr_str(r, v, at, "attacks", CB_TEXT_NAME, 1);
    e[i].damage = cb_jr_str(r, v, at, "damage", CB_TEXT_NAME, 1);
    e[i].morale = cb_jr_int(r, v, at, "morale", 2, 12, 1, 7);
    e[i].move = cb_jr_str(r, v, at, "move", CB_TEXT_NAME, 1);
    e[i].about = cb_jr_str(r, v, at, "about", MAX_LINE, 1);
    if (r->st) return r->st;
  }
  r->d->roster = e, r->d->nroster = (int)json_array_size(a);
  return r->st;
}

/* "boss" and "goal": {"room": id, "name": ...}; the room is checked once rooms are read. */
static const char *read_named(cb_json_reader *r, json_t *root, const char *key, int *room) {
  json_t *o = cb_jr_field(r, root, "", key, JSON_OBJECT, 0);
  if (!o) return NULL;
  *room = cb_jr_int(r, o, key, "room", 0, 1000000000, 1, 0);
  return cb_jr_str(r, o, key, "name", CB_TEXT_NAME, 1);
}

static cb_status read_hook_short(cb_json_reader *r, json_t *root) {
  json_t *hook = cb_jr_array(r, root, "", "hook_short", 2, 0);
  size_t i;
  json_t *v;
  json_array_foreach(hook, i, v) {
    if (!json_is_string(v) || json_string_length(v) > MAX_LINE ||
        strlen(json_string_value(v)) != json_string_length(v))
      return cb_jr_fail(r, "hook_short", "line %zu must be a string of at most %d bytes", i, MAX_LINE);
    if (!(r->d->hook_short[i] = cb_arena_strdup(r->d->arena, json_string_value(v)))) return cb_jr_oom(r);
  }
  return r->st;
}

cb_status cb_json_read_stock(cb_json_reader *r, json_t *root) {
  cb_dungeon *d = r->d;
  if (r->version >= 3) {
    if (read_roster(r, root) || read_hook_short(r, root)) return r->st;
    d->boss_name = read_named(r, root, "boss", &d->boss_room);
    d->goal_name = read_named(r, root, "goal", &d->goal_room);
    if (r->st) return r->st;
  }
  d->theme = cb_jr_str(r, root, "", "theme", CB_TEXT_NAME, 0);
  d->depth = cb_jr_int(r, root, "", "depth", 1, 10, 0, 1);
  json_t *hook = cb_jr_array(r, root, "", "hook", 2, 0);
  size_t i;
  json_t *v;
  json_array_foreach(hook, i, v) {
    if (!json_is_string(v) || json_string_length(v) > MAX_LINE ||
        strlen(json_string_value(v)) != json_string_length(v))
      return cb_jr_fail(r, "hook", "line %zu must be a string of at most %d bytes", i, MAX_LINE);
    if (!(d->hook[i] = cb_arena_strdup(d->arena, json_string_value(v)))) return cb_jr_oom(r);
  }
  d->wandering = read_monsters(r, root, "", "wandering", 6, &d->nwandering);
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
  out->monsters = read_monsters(r, c, where, "monsters", MAX_MONSTERS, &out->nmonsters);
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
