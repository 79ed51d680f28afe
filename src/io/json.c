#include "json.h"

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../gen/generator.h"
#include "../model/check.h"
#include "../util/alloc.h"

enum { MAX_ROOMS = 100000, MAX_PASSAGES = 1000000, MAX_TEXT = 4096, MAX_KEY = 32, MAX_LOG = 2000000 };
static const double MAX_COORD = 1e8;
static const char *const generator_names[] = {"cards", "leximorph", "preconnect", "battleships", "dropdice"};

/* ---- writing ---- */

static json_t *flags_array(unsigned bits, const char *(*name)(unsigned), int count) {
  json_t *a = json_array();
  for (int i = 0; a && i < count; i++)
    if (bits & (1u << i)) json_array_append_new(a, json_string(name(1u << i)));
  return a;
}
static const char *tag_name_u(unsigned t) { return cb_tag_name((cb_tag)t); }
static const char *flag_name_u(unsigned f) { return cb_flag_name((cb_passage_flag)f); }

static json_t *coord(double v) { return json_real(round(v * 100) / 100); }

static json_t *pairs(const cb_pair *p, int n) {
  json_t *a = json_array();
  for (int i = 0; a && i < n; i++) json_array_append_new(a, json_pack("[ii]", p[i].a, p[i].b));
  return a;
}

static json_t *seed_value(uint64_t seed) {
  if (seed <= 9007199254740991ULL) return json_integer((json_int_t)seed);
  char buf[32];
  snprintf(buf, sizeof buf, "%" PRIu64, seed);
  return json_string(buf);
}

static json_t *dropdice_proc(const cb_dropdice_proc *p) {
  json_t *o = json_object(), *dice = json_array(), *rw = json_array();
  if (!o || !dice || !rw) {
    json_decref(o);
    json_decref(dice);
    json_decref(rw);
    return NULL;
  }
  json_object_set_new(o, "die_ft", json_real(p->die_ft));
  json_object_set_new(o, "area_w", coord(p->area_w));
  json_object_set_new(o, "area_h", coord(p->area_h));
  for (int i = 0; i < p->ndice; i++)
    json_array_append_new(dice, json_pack("{s:i,s:o,s:o,s:i}", "room", p->dice[i].room, "x", coord(p->dice[i].x), "y",
                                          coord(p->dice[i].y), "value", p->dice[i].value));
  json_object_set_new(o, "dice", dice);
  json_object_set_new(o, "delaunay", pairs(p->delaunay, p->ndelaunay));
  json_object_set_new(o, "tree", pairs(p->tree, p->ntree));
  json_object_set_new(o, "extra", pairs(p->extra, p->nextra));
  for (int i = 0; i < p->nrewrites; i++)
    json_array_append_new(rw, json_pack("{s:i,s:s}", "passage", p->rewrites[i].passage, "rule",
                                        cb_rewrite_rule_name(p->rewrites[i].rule)));
  json_object_set_new(o, "rewrites", rw);
  return o;
}

static json_t *option_value(const cb_option *o) {
  if (!o->number) return json_string(o->value);
  char *end;
  errno = 0;
  long long v = strtoll(o->value, &end, 10);
  if (*end == '\0' && errno == 0) return json_integer(v);
  double f = strtod(o->value, &end);
  return *end == '\0' && isfinite(f) ? json_real(f) : json_string(o->value);
}

char *cb_json_dump(const cb_dungeon *d, cb_error *err) {
  json_t *root = json_object(), *opts = json_object(), *levels = json_array(), *rooms = json_array(),
         *passages = json_array(), *log = json_array(), *proc = json_object();
  char *text = NULL;
  if (!root || !opts || !levels || !rooms || !passages || !log || !proc) goto done;
  json_object_set_new(root, "format", json_string(CB_JSON_FORMAT));
  json_object_set_new(root, "generator", json_string(d->generator));
  json_object_set_new(root, "seed", seed_value(d->seed));
  for (int i = 0; i < d->noptions; i++) json_object_set_new(opts, d->options[i].name, option_value(&d->options[i]));
  json_object_set(root, "options", opts);
  json_object_set_new(root, "title", json_string(d->title ? d->title : ""));
  for (int i = 0; i < d->nlevels; i++)
    json_array_append_new(levels, json_pack("{s:i,s:s}", "id", d->levels[i].id, "name", d->levels[i].name));
  json_object_set(root, "levels", levels);
  for (int i = 0; i < d->nrooms; i++) {
    const cb_room *r = &d->rooms[i];
    json_t *o = json_object(), *keys = json_array();
    if (!o || !keys) {
      json_decref(o);
      json_decref(keys);
      goto done;
    }
    json_object_set_new(o, "id", json_integer(r->id));
    json_object_set_new(o, "level", json_integer(r->level));
    if (r->number != r->id) json_object_set_new(o, "number", json_integer(r->number));
    json_object_set_new(o, "x", coord(r->x));
    json_object_set_new(o, "y", coord(r->y));
    json_object_set_new(o, "tags", flags_array(r->tags, tag_name_u, CB_TAG_COUNT));
    for (int k = 0; k < r->nkeys; k++) json_array_append_new(keys, json_string(r->keys[k]));
    json_object_set_new(o, "keys", keys);
    if (r->value != CB_NO_VALUE) json_object_set_new(o, "value", json_integer(r->value));
    if (r->card) json_object_set_new(o, "card", json_string(r->card));
    if (r->text) json_object_set_new(o, "text", json_string(r->text));
    json_array_append_new(rooms, o);
  }
  json_object_set(root, "rooms", rooms);
  for (int i = 0; i < d->npassages; i++) {
    const cb_passage *p = &d->passages[i];
    json_t *o = json_pack("{s:i,s:i,s:i,s:s,s:o}", "id", p->id, "from", p->from, "to", p->to, "kind",
                          cb_passage_kind_name(p->kind), "flags", flags_array(p->flags, flag_name_u, CB_FLAG_COUNT));
    if (!o) goto done;
    if (p->lock) json_object_set_new(o, "lock", json_string(p->lock));
    if (p->length_ft >= 0) json_object_set_new(o, "length_ft", coord(p->length_ft));
    json_array_append_new(passages, o);
  }
  json_object_set(root, "passages", passages);
  if (d->procedure.dropdice) {
    json_t *dp = dropdice_proc(d->procedure.dropdice);
    if (!dp) goto done;
    json_object_set_new(proc, "dropdice", dp);
  }
  json_object_set(root, "procedure", proc);
  for (int i = 0; i < d->nlog; i++) json_array_append_new(log, json_string(d->log[i]));
  json_object_set(root, "log", log);
  text = json_dumps(root, JSON_INDENT(1) | JSON_REAL_PRECISION(12) | JSON_ENSURE_ASCII);
done:
  json_decref(opts);
  json_decref(levels);
  json_decref(rooms);
  json_decref(passages);
  json_decref(log);
  json_decref(proc);
  json_decref(root);
  if (!text) {
    cb_error_set(err, CB_EINTERNAL, "out of memory writing JSON");
    return NULL;
  }
  size_t n = strlen(text);
  char *withnl = cb_realloc(text, n + 2);
  if (!withnl) {
    free(text);
    cb_error_set(err, CB_EINTERNAL, "out of memory writing JSON");
    return NULL;
  }
  withnl[n] = '\n';
  withnl[n + 1] = '\0';
  return withnl;
}

/* ---- reading ---- */

typedef struct reader {
  const char *name;
  cb_error *err;
  cb_dungeon *d;
} reader;

static cb_status bad(reader *r, const char *where, const char *fmt, const char *detail) {
  char msg[256];
  snprintf(msg, sizeof msg, fmt, detail);
  return cb_error_set(r->err, CB_EINPUT, "%s: %s%s%s", r->name, where, *where ? ": " : "", msg);
}

static json_t *field(reader *r, json_t *obj, const char *where, const char *key, json_type type, int required,
                     cb_status *st) {
  json_t *v = json_object_get(obj, key);
  if (!v) {
    if (required) *st = bad(r, where, "missing field '%s'", key);
    return NULL;
  }
  int ok = json_typeof(v) == type || (type == JSON_REAL && json_is_integer(v));
  if (!ok) {
    static const char *const names[] = {"an object", "an array", "a string", "an integer", "a number",
                                        "true or false", "true or false", "null"};
    char msg[128];
    snprintf(msg, sizeof msg, "'%s' must be %s", key, names[type]);
    *st = bad(r, where, "%s", msg);
    return NULL;
  }
  return v;
}

static int get_int(reader *r, json_t *obj, const char *where, const char *key, int lo, int hi, int required,
                   int dflt, cb_status *st) {
  json_t *v = field(r, obj, where, key, JSON_INTEGER, required, st);
  if (!v) return dflt;
  json_int_t x = json_integer_value(v);
  if (x < lo || x > hi) {
    char msg[128];
    snprintf(msg, sizeof msg, "'%s' is %lld; it must be %d to %d", key, (long long)x, lo, hi);
    *st = bad(r, where, "%s", msg);
    return dflt;
  }
  return (int)x;
}

static double get_num(reader *r, json_t *obj, const char *where, const char *key, double lo, double hi,
                      int required, double dflt, cb_status *st) {
  json_t *v = field(r, obj, where, key, JSON_REAL, required, st);
  if (!v) return dflt;
  double x = json_number_value(v);
  if (!(x >= lo && x <= hi)) {
    char msg[128];
    snprintf(msg, sizeof msg, "'%s' is %g; it must be %g to %g", key, x, lo, hi);
    *st = bad(r, where, "%s", msg);
    return dflt;
  }
  return x;
}

static const char *get_str(reader *r, json_t *obj, const char *where, const char *key, size_t maxlen,
                           int required, cb_status *st) {
  json_t *v = field(r, obj, where, key, JSON_STRING, required, st);
  if (!v) return NULL;
  size_t len = json_string_length(v);
  const char *s = json_string_value(v);
  if (len > maxlen || memchr(s, '\0', len)) {
    char msg[128];
    snprintf(msg, sizeof msg, "'%s' is longer than %zu bytes or holds a NUL", key, maxlen);
    *st = bad(r, where, "%s", msg);
    return NULL;
  }
  const char *copy = cb_arena_strndup(r->d->arena, s, len);
  if (!copy) *st = cb_error_set(r->err, CB_EINTERNAL, "out of memory");
  return copy;
}

/* A list of names from a fixed set, as bits. */
static unsigned get_bits(reader *r, json_t *obj, const char *where, const char *key, int (*parse)(const char *),
                         cb_status *st) {
  json_t *a = field(r, obj, where, key, JSON_ARRAY, 0, st);
  unsigned bits = 0;
  size_t i;
  json_t *v;
  json_array_foreach(a, i, v) {
    int bit = json_is_string(v) ? parse(json_string_value(v)) : -1;
    if (bit < 0) {
      char msg[160];
      snprintf(msg, sizeof msg, "'%s'[%zu] is not one of the names model.md lists", key, i);
      *st = bad(r, where, "%s", msg);
      return 0;
    }
    bits |= (unsigned)bit;
  }
  return bits;
}

static int room_cmp(const void *pa, const void *pb) {
  const cb_room *a = pa, *b = pb;
  return (a->id > b->id) - (a->id < b->id);
}

static cb_status read_pairs(reader *r, json_t *obj, const char *key, cb_pair **out, int *n, cb_status *st) {
  json_t *a = field(r, obj, "procedure.dropdice", key, JSON_ARRAY, 1, st);
  if (!a) return *st;
  size_t count = json_array_size(a);
  if (count > MAX_PASSAGES * 4ul) return *st = bad(r, "procedure.dropdice", "'%s' is too long", key);
  *out = cb_arena_alloc(r->d->arena, count + 1, sizeof **out);
  if (!*out) return *st = cb_error_set(r->err, CB_EINTERNAL, "out of memory");
  size_t i;
  json_t *v;
  json_array_foreach(a, i, v) {
    json_t *x = json_array_get(v, 0), *y = json_array_get(v, 1);
    if (!json_is_array(v) || json_array_size(v) != 2 || !json_is_integer(x) || !json_is_integer(y) ||
        !cb_dungeon_room(r->d, (int)json_integer_value(x)) || !cb_dungeon_room(r->d, (int)json_integer_value(y)) ||
        json_integer_value(x) > MAX_ROOMS || json_integer_value(y) > MAX_ROOMS) {
      char msg[128];
      snprintf(msg, sizeof msg, "'%s'[%zu] must be a pair of room ids", key, i);
      return *st = bad(r, "procedure.dropdice", "%s", msg);
    }
    (*out)[i] = (cb_pair){(int)json_integer_value(x), (int)json_integer_value(y)};
  }
  *n = (int)count;
  return *st;
}

static cb_status read_dropdice(reader *r, json_t *o, cb_status *st) {
  const char *w = "procedure.dropdice";
  cb_dropdice_proc *p = cb_arena_alloc(r->d->arena, 1, sizeof *p);
  if (!p) return *st = cb_error_set(r->err, CB_EINTERNAL, "out of memory");
  r->d->procedure.dropdice = p;
  p->die_ft = get_num(r, o, w, "die_ft", 0.01, 1000, 1, 10, st);
  p->area_w = get_num(r, o, w, "area_w", 0, MAX_COORD, 0, 0, st);
  p->area_h = get_num(r, o, w, "area_h", 0, MAX_COORD, 0, 0, st);
  json_t *dice = field(r, o, w, "dice", JSON_ARRAY, 1, st);
  if (*st) return *st;
  size_t n = json_array_size(dice), i;
  if (n > MAX_ROOMS) return *st = bad(r, w, "'dice' has more than %s entries", "100000");
  p->dice = cb_arena_alloc(r->d->arena, n + 1, sizeof *p->dice);
  if (!p->dice) return *st = cb_error_set(r->err, CB_EINTERNAL, "out of memory");
  json_t *v;
  json_array_foreach(dice, i, v) {
    char where[64];
    snprintf(where, sizeof where, "%s.dice[%zu]", w, i);
    if (!json_is_object(v)) return *st = bad(r, where, "%s", "must be an object");
    p->dice[i].room = get_int(r, v, where, "room", 1, MAX_ROOMS, 1, 0, st);
    p->dice[i].x = get_num(r, v, where, "x", -MAX_COORD, MAX_COORD, 1, 0, st);
    p->dice[i].y = get_num(r, v, where, "y", -MAX_COORD, MAX_COORD, 1, 0, st);
    p->dice[i].value = get_int(r, v, where, "value", 1, 6, 1, 1, st);
    if (*st) return *st;
    if (!cb_dungeon_room(r->d, p->dice[i].room)) return *st = bad(r, where, "%s", "'room' names no room");
  }
  p->ndice = (int)n;
  if (read_pairs(r, o, "delaunay", &p->delaunay, &p->ndelaunay, st) ||
      read_pairs(r, o, "tree", &p->tree, &p->ntree, st) || read_pairs(r, o, "extra", &p->extra, &p->nextra, st))
    return *st;
  json_t *rw = field(r, o, w, "rewrites", JSON_ARRAY, 1, st);
  if (!rw) return *st;
  n = json_array_size(rw);
  if (n > MAX_PASSAGES) return *st = bad(r, w, "%s", "'rewrites' is too long");
  p->rewrites = cb_arena_alloc(r->d->arena, n + 1, sizeof *p->rewrites);
  if (!p->rewrites) return *st = cb_error_set(r->err, CB_EINTERNAL, "out of memory");
  json_array_foreach(rw, i, v) {
    char where[64];
    snprintf(where, sizeof where, "%s.rewrites[%zu]", w, i);
    if (!json_is_object(v)) return *st = bad(r, where, "%s", "must be an object");
    p->rewrites[i].passage = get_int(r, v, where, "passage", 1, r->d->npassages, 1, 1, st);
    const char *rule = get_str(r, v, where, "rule", 32, 1, st);
    if (*st) return *st;
    int k = cb_rewrite_rule_parse(rule);
    if (k < 0) return *st = bad(r, where, "unknown rule '%s'", rule);
    p->rewrites[i].rule = (cb_rewrite_rule)k;
  }
  p->nrewrites = (int)n;
  return *st;
}

static cb_status read_rooms(reader *r, json_t *root, cb_status *st) {
  json_t *rooms = field(r, root, "", "rooms", JSON_ARRAY, 1, st);
  if (!rooms) return *st;
  size_t n = json_array_size(rooms), i;
  if (n > MAX_ROOMS) return *st = bad(r, "rooms", "%s", "more than 100000 rooms");
  json_t *v;
  json_array_foreach(rooms, i, v) {
    char where[32];
    snprintf(where, sizeof where, "rooms[%zu]", i);
    if (!json_is_object(v)) return *st = bad(r, where, "%s", "must be an object");
    int id = get_int(r, v, where, "id", 1, 1000000000, 1, 1, st);
    int level = get_int(r, v, where, "level", 1, 1000000, 1, 1, st);
    double x = get_num(r, v, where, "x", -MAX_COORD, MAX_COORD, 1, 0, st);
    double y = get_num(r, v, where, "y", -MAX_COORD, MAX_COORD, 1, 0, st);
    if (*st) return *st;
    cb_room *room = cb_dungeon_add_room_id(r->d, id, level, x, y);
    if (!room) return *st = cb_error_set(r->err, CB_EINTERNAL, "out of memory");
    room->number = get_int(r, v, where, "number", 1, 1000000000, 0, id, st);
    room->tags = get_bits(r, v, where, "tags", cb_tag_parse, st);
    room->value = get_int(r, v, where, "value", 0, 1000000, 0, CB_NO_VALUE, st);
    room->card = get_str(r, v, where, "card", 8, 0, st);
    room->text = get_str(r, v, where, "text", MAX_TEXT, 0, st);
    json_t *keys = field(r, v, where, "keys", JSON_ARRAY, 0, st);
    size_t k;
    json_t *kv;
    json_array_foreach(keys, k, kv) {
      if (!json_is_string(kv) || json_string_length(kv) == 0 || json_string_length(kv) > MAX_KEY ||
          strlen(json_string_value(kv)) != json_string_length(kv))
        return *st = bad(r, where, "%s", "'keys' must hold key names of 1 to 32 bytes");
      if (cb_dungeon_add_key(r->d, room, json_string_value(kv))) return *st = cb_error_set(r->err, CB_EINTERNAL, "out of memory");
    }
    if (*st) return *st;
  }
  qsort(r->d->rooms, (size_t)r->d->nrooms, sizeof *r->d->rooms, room_cmp);
  return *st;
}

static cb_status read_passages(reader *r, json_t *root, cb_status *st) {
  json_t *ps = field(r, root, "", "passages", JSON_ARRAY, 1, st);
  if (!ps) return *st;
  size_t n = json_array_size(ps), i;
  if (n > MAX_PASSAGES) return *st = bad(r, "passages", "%s", "more than 1000000 passages");
  json_t *v;
  json_array_foreach(ps, i, v) {
    char where[32];
    snprintf(where, sizeof where, "passages[%zu]", i);
    if (!json_is_object(v)) return *st = bad(r, where, "%s", "must be an object");
    int pid = get_int(r, v, where, "id", 1, MAX_PASSAGES, 1, 1, st);
    int from = get_int(r, v, where, "from", 1, 1000000000, 1, 1, st);
    int to = get_int(r, v, where, "to", 0, 1000000000, 1, 1, st);
    const char *kind = get_str(r, v, where, "kind", 16, 1, st);
    if (*st) return *st;
    int k = cb_passage_kind_parse(kind);
    if (k < 0) return *st = bad(r, where, "unknown kind '%s'", kind);
    cb_passage *p = cb_dungeon_add_passage(r->d, from, to, (cb_passage_kind)k);
    if (!p) return *st = cb_error_set(r->err, CB_EINTERNAL, "out of memory");
    p->id = pid;
    p->flags = get_bits(r, v, where, "flags", cb_flag_parse, st);
    p->lock = get_str(r, v, where, "lock", MAX_KEY, 0, st);
    p->length_ft = get_num(r, v, where, "length_ft", 0, MAX_COORD, 0, CB_NO_VALUE, st);
    if (*st) return *st;
  }
  return *st;
}

static cb_status read_root(reader *r, json_t *root) {
  cb_status st = CB_OK;
  if (!json_is_object(root)) return bad(r, "", "%s", "the top level must be an object");
  const char *format = json_string_value(json_object_get(root, "format"));
  if (!format || strcmp(format, CB_JSON_FORMAT) != 0)
    return bad(r, "", "%s", "'format' must be \"" CB_JSON_FORMAT "\"");
  const char *gen = json_string_value(json_object_get(root, "generator"));
  int known = 0;
  for (size_t i = 0; gen && i < sizeof generator_names / sizeof *generator_names; i++)
    known |= strcmp(gen, generator_names[i]) == 0;
  if (!known) return bad(r, "", "%s", "'generator' must be one of cards, leximorph, preconnect, battleships, dropdice");
  json_t *seed = json_object_get(root, "seed");
  uint64_t seedv = 0;
  if (json_is_integer(seed) && json_integer_value(seed) >= 0) {
    seedv = (uint64_t)json_integer_value(seed);
  } else if (json_is_string(seed)) {
    const char *s = json_string_value(seed);
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (!*s || *s == '-' || *end || errno) return bad(r, "", "%s", "'seed' must be a decimal number 0 to 2^64-1");
    seedv = v;
  } else {
    return bad(r, "", "%s", "'seed' must be a number or a decimal string");
  }
  r->d = cb_dungeon_new(gen, seedv);
  if (!r->d) return cb_error_set(r->err, CB_EINTERNAL, "out of memory");
  cb_dungeon *d = r->d;
  const char *title = get_str(r, root, "", "title", 200, 0, &st);
  if (title) d->title = title;
  json_t *opts = field(r, root, "", "options", JSON_OBJECT, 0, &st);
  const char *key;
  json_t *v;
  json_object_foreach(opts, key, v) {
    char buf[64];
    const char *text = NULL;
    if (json_is_string(v)) text = json_string_value(v);
    else if (json_is_integer(v)) snprintf(buf, sizeof buf, "%lld", (long long)json_integer_value(v)), text = buf;
    else if (json_is_real(v)) snprintf(buf, sizeof buf, "%.12g", json_real_value(v)), text = buf;
    else if (json_is_boolean(v)) text = json_is_true(v) ? "true" : "false";
    if (!text || strlen(key) > 64 || strlen(text) > 256) return bad(r, "options", "option '%.64s' must be a short string, number or boolean", key);
    if (cb_dungeon_set_option(d, key, text, json_is_number(v))) return cb_error_set(r->err, CB_EINTERNAL, "out of memory");
  }
  json_t *levels = field(r, root, "", "levels", JSON_ARRAY, 1, &st);
  if (st) return st;
  if (json_array_size(levels) < 1 || json_array_size(levels) > 10000) return bad(r, "", "%s", "'levels' must hold 1 to 10000 levels");
  size_t i;
  json_array_foreach(levels, i, v) {
    char where[32];
    snprintf(where, sizeof where, "levels[%zu]", i);
    if (!json_is_object(v)) return bad(r, where, "%s", "must be an object");
    int lid = get_int(r, v, where, "id", 1, 1000000, 1, 1, &st);
    const char *name = get_str(r, v, where, "name", 200, 0, &st);
    if (st) return st;
    if (!cb_dungeon_add_level(d, lid, name ? name : "")) return cb_error_set(r->err, CB_EINTERNAL, "out of memory");
  }
  if (read_rooms(r, root, &st) || read_passages(r, root, &st)) return st;
  json_t *log = field(r, root, "", "log", JSON_ARRAY, 0, &st);
  if (json_array_size(log) > MAX_LOG) return bad(r, "", "%s", "'log' is too long");
  json_array_foreach(log, i, v) {
    if (!json_is_string(v) || json_string_length(v) > MAX_TEXT) return bad(r, "log", "%s", "every line must be a string of at most 4096 bytes");
    if (cb_dungeon_log(d, "%s", json_string_value(v))) return cb_error_set(r->err, CB_EINTERNAL, "out of memory");
  }
  if (st) return st;
  cb_error check = {0};
  if (cb_check_structure(d, &check) != CB_OK) return cb_error_set(r->err, CB_EINPUT, "%s: %s", r->name, check.msg);
  json_t *proc = field(r, root, "", "procedure", JSON_OBJECT, 0, &st);
  json_t *dp = proc ? field(r, proc, "procedure", "dropdice", JSON_OBJECT, 0, &st) : NULL;
  if (st) return st;
  if (dp) read_dropdice(r, dp, &st);
  return st;
}

cb_status cb_json_parse(const char *text, size_t len, const char *name, cb_dungeon **out, cb_error *err) {
  *out = NULL;
  json_error_t jerr;
  json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
  if (!root) return cb_error_set(err, CB_EINPUT, "%s:%d:%d: %s", name, jerr.line, jerr.column, jerr.text);
  reader r = {name, err, NULL};
  cb_status st = read_root(&r, root);
  json_decref(root);
  if (st != CB_OK) {
    cb_dungeon_free(r.d);
    return st;
  }
  *out = r.d;
  return CB_OK;
}

cb_status cb_json_read_file(const char *path, cb_dungeon **out, cb_error *err) {
  *out = NULL;
  FILE *f = fopen(path, "rb");
  if (!f) return cb_error_set(err, CB_EINPUT, "%s: %s", path, strerror(errno));
  size_t cap = 0, len = 0;
  char *buf = NULL;
  cb_status st = CB_OK;
  for (;;) {
    if (cb_grow(&buf, &cap, len + 65536, 1)) {
      st = cb_error_set(err, CB_EINTERNAL, "out of memory reading %s", path);
      break;
    }
    size_t got = fread(buf + len, 1, cap - len, f);
    len += got;
    if (got == 0) {
      if (ferror(f)) st = cb_error_set(err, CB_EINPUT, "%s: read error", path);
      break;
    }
    if (len > 512u * 1024 * 1024) {
      st = cb_error_set(err, CB_EINPUT, "%s: larger than 512 MiB", path);
      break;
    }
  }
  fclose(f);
  if (st == CB_OK) st = cb_json_parse(buf ? buf : "", len, path, out, err);
  free(buf);
  return st;
}
