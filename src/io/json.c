#include "json.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/bom.h"
#include "json_fields.h"
#include "json_stock.h"
#include "model/check.h"
#include "model/recorded.h"

/* ---- the fields of levels, rooms and passages ---- */

static const char *tag_name(int bit) { return cb_tag_name((cb_tag)bit); }
static const char *flag_name(int bit) { return cb_flag_name((cb_passage_flag)bit); }
static const char *kind_name(int kind) { return cb_passage_kind_name((cb_passage_kind)kind); }
static bool number_is_id(const void *rec) {
  return ((const cb_room *)rec)->number == ((const cb_room *)rec)->id;
}
static bool no_value(const void *rec) { return ((const cb_room *)rec)->value == CB_NO_VALUE; }
static bool no_length(const void *rec) { return !(((const cb_passage *)rec)->length_ft >= 0); }
static bool short_is_note(const void *rec) {
  const cb_passage *p = rec;
  return !(p->note && p->note_short && strcmp(p->note, p->note_short) != 0);
}

static const cb_json_field level_fields[] = {
    CB_JF_INT_OF(cb_level, id, "id", 1, 1000000, CB_JF_REQUIRED, 1),
    CB_JF_STR_OF(cb_level, name, "name", CB_TEXT_NAME, 0),
};
/* a room's fields before its keys (number: 0 read when absent, then its id) */
static const cb_json_field room_head[] = {
    CB_JF_INT_OF(cb_room, id, "id", 1, 1000000000, CB_JF_REQUIRED, 1),
    CB_JF_INT_OF(cb_room, level, "level", 1, 1000000, CB_JF_REQUIRED, 1),
    {.key = "number",
     .kind = CB_JF_INT,
     .offset = offsetof(cb_room, number),
     .lo = 1,
     .hi = 1000000000,
     .omit = number_is_id},
    CB_JF_COORD_OF(cb_room, x, "x", -CB_JSON_MAX_COORD, CB_JSON_MAX_COORD, CB_JF_REQUIRED),
    CB_JF_COORD_OF(cb_room, y, "y", -CB_JSON_MAX_COORD, CB_JSON_MAX_COORD, CB_JF_REQUIRED),
    {.key = "tags",
     .kind = CB_JF_BITS,
     .offset = offsetof(cb_room, tags),
     .hi = CB_TAG_COUNT,
     .name = tag_name,
     .parse = cb_tag_parse},
};
/* and after its keys, before its contents */
static const cb_json_field room_tail[] = {
    {.key = "value",
     .kind = CB_JF_INT,
     .offset = offsetof(cb_room, value),
     .hi = 1000000,
     .dflt = CB_NO_VALUE,
     .omit = no_value},
    CB_JF_STR_OF(cb_room, card, "card", 8, CB_JF_OMIT_NULL),
    CB_JF_STR_OF(cb_room, text, "text", CB_JSON_MAX_TEXT, CB_JF_OMIT_NULL),
};
static const cb_json_field passage_fields[] = {
    CB_JF_INT_OF(cb_passage, id, "id", 1, CB_JSON_MAX_ITEMS, CB_JF_REQUIRED, 1),
    CB_JF_INT_OF(cb_passage, from, "from", 1, 1000000000, CB_JF_REQUIRED, 1),
    CB_JF_INT_OF(cb_passage, to, "to", 0, 1000000000, CB_JF_REQUIRED, 1),
    CB_JF_NAME_OF(cb_passage, kind, "kind", 16, kind_name, cb_passage_kind_parse),
    {.key = "flags",
     .kind = CB_JF_BITS,
     .offset = offsetof(cb_passage, flags),
     .hi = CB_FLAG_COUNT,
     .name = flag_name,
     .parse = cb_flag_parse},
    CB_JF_STR_OF(cb_passage, lock, "lock", 32, CB_JF_OMIT_NULL),
    {.key = "length_ft",
     .kind = CB_JF_COORD,
     .offset = offsetof(cb_passage, length_ft),
     .hi = CB_JSON_MAX_COORD,
     .dflt = CB_NO_VALUE,
     .omit = no_length},
    {.key = "note",
     .kind = CB_JF_STR,
     .offset = offsetof(cb_passage, note),
     .flags = CB_JF_OMIT_NULL,
     .hi = CB_JSON_MAX_TEXT,
     .since = 2},
    {.key = "note_short",
     .kind = CB_JF_STR,
     .offset = offsetof(cb_passage, note_short),
     .hi = CB_JSON_MAX_TEXT,
     .omit = short_is_note,
     .since = 3},
};
enum { NROOM_HEAD = 6, NROOM_TAIL = 3, NPASSAGE = 9 };
_Static_assert(sizeof(cb_passage_kind) == sizeof(int), "a name field is read and written as an int");

/* ---- writing ----
 * Everything is streamed through cb_jw (json_util.c): a 100,000-room dungeon
 * through jansson's tree cost seconds and hundreds of megabytes. */

static void put_seed(cb_jw *w, uint64_t seed) {
  char buf[32];
  snprintf(buf, sizeof buf, "%" PRIu64, seed);
  if (seed <= 9007199254740991ULL)
    cb_jw_put(w, buf);
  else
    cb_jw_str(w, buf);
}

static void put_option(cb_jw *w, const cb_option *o) {
  char *end;
  if (o->flag) {
    cb_jw_put(w, "true");
    return;
  }
  if (o->number) {
    errno = 0;
    long long v = strtoll(o->value, &end, 10);
    if (*end == '\0' && errno == 0) {
      cb_jw_int(w, v);
      return;
    }
    double f = strtod(o->value, &end);
    if (*end == '\0' && isfinite(f)) {
      cb_jw_real(w, f);
      return;
    }
  }
  cb_jw_str(w, o->value);
}

static void put_room(cb_jw *w, const cb_dungeon *d, const cb_room *r) {
  cb_jw_fields(w, room_head, NROOM_HEAD, r, 1);
  cb_jw_key(w, "keys", 0);
  cb_jw_raw(w, "[", 1);
  for (int k = 0; k < r->nkeys; k++) {
    cb_jw_next(w, k);
    cb_jw_str(w, r->keys[k]);
  }
  cb_jw_raw(w, "]", 1);
  cb_jw_fields(w, room_tail, NROOM_TAIL, r, 0);
  cb_json_write_contents(w, d, r);
}

/* "key": [ then one item per line, then ]. */
typedef void (*item_fn)(cb_jw *w, const cb_dungeon *d, int i);
static void room_item(cb_jw *w, const cb_dungeon *d, int i) {
  cb_jw_raw(w, "{", 1);
  put_room(w, d, &d->rooms[i]);
  cb_jw_raw(w, "}", 1);
}
static void passage_item(cb_jw *w, const cb_dungeon *d, int i) {
  cb_jw_raw(w, "{", 1);
  cb_jw_fields(w, passage_fields, NPASSAGE, &d->passages[i], 1);
  cb_jw_raw(w, "}", 1);
}
static void level_item(cb_jw *w, const cb_dungeon *d, int i) {
  cb_jw_raw(w, "{", 1);
  cb_jw_fields(w, level_fields, 2, &d->levels[i], 1);
  cb_jw_raw(w, "}", 1);
}
static void log_item(cb_jw *w, const cb_dungeon *d, int i) { cb_jw_str(w, d->log[i]); }

static void put_list(cb_jw *w, const cb_dungeon *d, const char *key, int n, item_fn item, const char *after) {
  cb_jw_put(w, " ");
  cb_jw_str(w, key);
  cb_jw_put(w, n ? ": [\n" : ": []");
  for (int i = 0; i < n && cb_jw_ok(w); i++) {
    cb_jw_put(w, "  ");
    item(w, d, i);
    cb_jw_put(w, i + 1 < n ? ",\n" : "\n ]");
  }
  cb_jw_put(w, after);
}

/* What render reads back, checked before a byte is written (the cost of the
 * whole is counted by writing it once to nowhere). */
cb_status cb_json_writable(const cb_dungeon *d, cb_error *err) {
  const struct {
    const char *what;
    int n, most;
  } counts[] = {{"rooms", d->nrooms, CB_JSON_MAX_ROOMS},
                {"passages", d->npassages, CB_JSON_MAX_ITEMS},
                {"levels", d->nlevels, CB_JSON_MAX_LEVELS},
                {"log lines", d->nlog, 2 * CB_JSON_MAX_ITEMS}};
  for (size_t i = 0; i < sizeof counts / sizeof *counts; i++)
    if (counts[i].n > counts[i].most)
      return cb_error_set(err, CB_EINPUT,
                          "this dungeon has %d %s; a JSON file holds at most %d (what render reads "
                          "back): make a smaller dungeon",
                          counts[i].n, counts[i].what, counts[i].most);
  return CB_OK;
}

static cb_status write_json(const cb_dungeon *d, const cb_json_procs *procs, cb_sink sink, cb_error *err) {
  cb_jw *w = cb_jw_new(sink);
  if (!w) return cb_error_set(err, CB_EINTERNAL, "out of memory writing JSON");
  cb_jw_put(w, "{\n \"format\": ");
  cb_jw_str(w, CB_JSON_FORMAT);
  cb_jw_put(w, ",\n \"generator\": ");
  cb_jw_str(w, d->generator);
  cb_jw_put(w, ",\n \"seed\": ");
  put_seed(w, d->seed);
  cb_jw_put(w, ",\n \"options\": {");
  for (int i = 0; i < d->noptions; i++)
    cb_jw_key(w, d->options[i].name, i == 0), put_option(w, &d->options[i]);
  cb_jw_put(w, "},\n \"title\": ");
  cb_jw_str(w, d->title ? d->title : "");
  cb_json_write_stock(w, d);
  cb_jw_put(w, ",\n");
  put_list(w, d, "levels", d->nlevels, level_item, ",\n");
  put_list(w, d, "rooms", d->nrooms, room_item, ",\n");
  put_list(w, d, "passages", d->npassages, passage_item, ",\n ");
  const cb_proc_io *io = procs->find(d->generator);
  for (int i = 0; io && i < io->nparts; i++)
    if (io->parts[i].has(d)) {
      cb_jw_str(w, io->parts[i].key);
      cb_jw_put(w, ": ");
      io->parts[i].write(w, d);
      cb_jw_put(w, ",\n ");
    }
  cb_jw_put(w, "\"procedure\": ");
  if (io && io->write)
    io->write(w, d);
  else
    cb_jw_put(w, "{}");
  cb_jw_put(w, ",\n");
  put_list(w, d, "log", d->nlog, log_item, "\n}\n");
  const char *why;
  cb_status st = cb_jw_finish(w, &why);
  if (st == CB_EINPUT)
    return cb_error_set(err, CB_EINPUT,
                        "this dungeon's JSON would hold %s, more than render reads back: make a "
                        "smaller dungeon",
                        why);
  if (st == CB_EINTERNAL) return cb_error_set(err, CB_EINTERNAL, "%s writing JSON", why);
  if (st != CB_OK) return cb_error_set(err, st, "could not write the JSON");
  return CB_OK;
}

static cb_status discard(void *closure, const unsigned char *data, size_t len) {
  (void)closure, (void)data, (void)len;
  return CB_OK;
}

cb_status cb_json_write(const cb_dungeon *d, const cb_json_procs *procs, cb_sink sink, cb_error *err) {
  if (cb_json_writable(d, err) != CB_OK) return err->status;
  /* counted first, as render will: a file past its limits is refused before
   * a byte goes out (standard output cannot take bytes back) */
  cb_status st = write_json(d, procs, (cb_sink){NULL, discard}, err);
  return st != CB_OK ? st : write_json(d, procs, sink, err);
}

/* ---- reading ---- */

static int room_cmp(const void *pa, const void *pb) {
  const cb_room *a = pa, *b = pb;
  return (a->id > b->id) - (a->id < b->id);
}

static cb_status read_rooms(cb_json_reader *r, json_t *root) {
  json_t *rooms = cb_jr_array(r, root, "", "rooms", CB_JSON_MAX_ROOMS, 1);
  size_t i;
  json_t *v;
  json_array_foreach(rooms, i, v) {
    char where[32];
    snprintf(where, sizeof where, "rooms[%zu]", i);
    if (!json_is_object(v)) return cb_jr_fail(r, where, "must be an object");
    cb_room t = {0};
    if (cb_jr_fields(r, v, where, room_head, NROOM_HEAD, NULL, &t) ||
        cb_jr_fields(r, v, where, room_tail, NROOM_TAIL, NULL, &t))
      return r->st;
    cb_room *room = cb_dungeon_add_room_id(r->d, t.id, t.level, t.x, t.y);
    if (!room) return cb_jr_oom(r);
    room->number = t.number ? t.number : t.id;
    room->tags = t.tags, room->value = t.value, room->card = t.card, room->text = t.text;
    if (r->stocked && cb_json_read_contents(r, v, where, room)) return r->st;
    json_t *keys = cb_jr_array(r, v, where, "keys", 64, 0);
    size_t k;
    json_t *kv;
    json_array_foreach(keys, k, kv) {
      if (!json_is_string(kv) || json_string_length(kv) == 0 || json_string_length(kv) > 32 ||
          strlen(json_string_value(kv)) != json_string_length(kv))
        return cb_jr_fail(r, where, "'keys' must hold key names of 1 to 32 bytes");
      if (cb_dungeon_add_key(r->d, room, json_string_value(kv))) return cb_jr_oom(r);
    }
    if (r->st) return r->st;
  }
  if (r->d->nrooms) qsort(r->d->rooms, (size_t)r->d->nrooms, sizeof *r->d->rooms, room_cmp);
  return r->st;
}

/* Counts passage p as one of the ways of each room it touches: a room of
 * more ways than CB_JSON_MAX_WAYS is refused (its key would fill pages). */
static cb_status count_ways(cb_json_reader *r, int *ways, const char *where, const cb_passage *p) {
  const cb_room *a = cb_dungeon_room(r->d, p->from), *b = cb_dungeon_room(r->d, p->to);
  const cb_room *ends[2] = {a, b != a ? b : NULL};
  for (int k = 0; k < 2; k++)
    if (ends[k] && ++ways[ends[k] - r->d->rooms] > CB_JSON_MAX_WAYS)
      return cb_jr_fail(r, where, "room %d has more than %d ways (passages); a room may have at most %d",
                        ends[k]->number, CB_JSON_MAX_WAYS, CB_JSON_MAX_WAYS);
  return CB_OK;
}

static cb_status read_passage(cb_json_reader *r, json_t *v, size_t i, int *ways) {
  char where[32];
  snprintf(where, sizeof where, "passages[%zu]", i);
  if (!json_is_object(v)) return cb_jr_fail(r, where, "must be an object");
  cb_passage t = {0};
  if (cb_jr_fields(r, v, where, passage_fields, NPASSAGE, NULL, &t)) return r->st;
  cb_passage *p = cb_dungeon_add_passage(r->d, t.from, t.to, t.kind);
  if (!p) return cb_jr_oom(r);
  *p = t;
  return count_ways(r, ways, where, p);
}

static cb_status read_passages(cb_json_reader *r, json_t *root) {
  json_t *ps = cb_jr_array(r, root, "", "passages", CB_JSON_MAX_ITEMS, 1);
  size_t i;
  json_t *v;
  int *ways = cb_calloc((size_t)r->d->nrooms + 1, sizeof *ways);
  if (!ways) return cb_jr_oom(r);
  json_array_foreach(ps, i, v) {
    if (read_passage(r, v, i, ways)) break;
  }
  free(ways);
  return r->st;
}

static cb_status read_seed(cb_json_reader *r, json_t *seed, uint64_t *out) {
  if (json_is_integer(seed) && json_integer_value(seed) >= 0) {
    *out = (uint64_t)json_integer_value(seed);
    return CB_OK;
  }
  const char *s = json_string_value(seed);
  char *end;
  errno = 0;
  unsigned long long v = s ? strtoull(s, &end, 10) : 0;
  if (!s || *s < '0' || *s > '9' || *end || errno)
    return cb_jr_fail(r, "", "'seed' must be a number or a decimal string, 0 to 18446744073709551615");
  *out = v;
  return CB_OK;
}

/* The options a generator writes (and the footer's command repeats): its
 * own, as its option rows name them, and those every dungeon records
 * (model/recorded.h). Any other key is refused, so a file cannot put
 * words of its own into that command. */
static bool known_option(const cb_json_procs *procs, const char *generator, const char *key) {
  if (!*key || strlen(key) > 64) return false;
  return cb_recorded_is(key) || procs->records(generator, key);
}

static cb_status read_options(cb_json_reader *r, json_t *root) {
  json_t *opts = cb_jr_field(r, root, "", "options", JSON_OBJECT, 0);
  const char *key;
  json_t *v;
  json_object_foreach(opts, key, v) {
    if (!known_option(r->procs, r->d->generator, key))
      return cb_jr_fail(r, "options", "'%.64s%s' is not an option of %s", key, strlen(key) > 64 ? "..." : "",
                        r->d->generator);
    char buf[64];
    const char *text = NULL;
    if (json_is_string(v))
      text = json_string_value(v);
    else if (json_is_integer(v))
      snprintf(buf, sizeof buf, "%lld", (long long)json_integer_value(v)), text = buf;
    else if (json_is_real(v))
      snprintf(buf, sizeof buf, "%.12g", json_real_value(v)), text = buf;
    else if (json_is_boolean(v))
      text = json_is_true(v) ? "true" : "false";
    if (!text || strlen(text) > CB_TEXT_OPTION)
      return cb_jr_fail(r, "options",
                        "option '%.64s' must be a string of at most %d bytes, a number or a boolean", key,
                        CB_TEXT_OPTION);
    if (json_is_true(v) ? cb_dungeon_set_flag(r->d, key)
                        : cb_dungeon_set_option(r->d, key, text, json_is_number(v)))
      return cb_jr_oom(r);
  }
  return r->st;
}

static cb_status read_procedure(cb_json_reader *r, json_t *root, const cb_proc_io *io) {
  json_t *proc = cb_jr_field(r, root, "", "procedure", JSON_OBJECT, 0), *parts[CB_PROC_MAX_PARTS] = {0};
  for (int i = 0; io && i < io->nparts && i < CB_PROC_MAX_PARTS; i++)
    parts[i] = cb_jr_field(r, root, "", io->parts[i].key, JSON_OBJECT, 0);
  if (r->st) return r->st;
  /* an empty procedure is allowed: a hand-made dungeon has none */
  if (io && proc && json_object_size(proc) > 0 && io->read) io->read(r, proc);
  for (int i = 0; io && i < io->nparts && i < CB_PROC_MAX_PARTS && !r->st; i++)
    if (parts[i]) io->parts[i].read(r, parts[i]);
  return r->st;
}

static cb_status read_root(cb_json_reader *r, json_t *root) {
  if (!json_is_object(root)) return cb_jr_fail(r, "", "the top level must be an object");
  const char *format = json_string_value(json_object_get(root, "format"));
  /* crawlbook/1 has no stocking: its rooms render without contents */
  r->version = !format                                 ? 0
               : strcmp(format, CB_JSON_FORMAT) == 0   ? 3
               : strcmp(format, CB_JSON_FORMAT_2) == 0 ? 2
               : strcmp(format, CB_JSON_FORMAT_1) == 0 ? 1
                                                       : 0;
  if (!r->version)
    return cb_jr_fail(r, "",
                      "'format' must be \"" CB_JSON_FORMAT "\", \"" CB_JSON_FORMAT_2
                      "\" or \"" CB_JSON_FORMAT_1 "\"");
  r->stocked = r->version >= 2;
  const char *gen = json_string_value(json_object_get(root, "generator"));
  if (!gen || !r->procs->find(gen)) {
    char names[256];
    return cb_jr_fail(r, "", "'generator' must be one of %s", r->procs->names(names, sizeof names));
  }
  uint64_t seed = 0;
  if (read_seed(r, json_object_get(root, "seed"), &seed)) return r->st;
  r->d = cb_dungeon_new(gen, seed);
  if (!r->d) return cb_jr_oom(r);
  cb_dungeon *d = r->d;
  const char *title = cb_jr_str(r, root, "", "title", CB_TEXT_NAME, 0);
  if (title) d->title = title;
  if (read_options(r, root) || (r->stocked && cb_json_read_stock(r, root))) return r->st;
  json_t *levels = cb_jr_array(r, root, "", "levels", CB_JSON_MAX_LEVELS, 1);
  if (levels && json_array_size(levels) < 1)
    return cb_jr_fail(r, "", "'levels' must hold at least one level");
  size_t i;
  json_t *v;
  json_array_foreach(levels, i, v) {
    char where[32];
    snprintf(where, sizeof where, "levels[%zu]", i);
    if (!json_is_object(v)) return cb_jr_fail(r, where, "must be an object");
    cb_level t = {0};
    if (cb_jr_fields(r, v, where, level_fields, 2, NULL, &t)) return r->st;
    if (!cb_dungeon_add_level(d, t.id, t.name ? t.name : "")) return cb_jr_oom(r);
  }
  if (r->st || read_rooms(r, root) || read_passages(r, root)) return r->st;
  _Static_assert((int)CB_TEXT_MAX <= (int)CB_JSON_MAX_TEXT, "what the dungeon keeps is read back");
  if ((d->boss_name && !cb_dungeon_room(d, d->boss_room)) ||
      (d->goal_name && !cb_dungeon_room(d, d->goal_room)))
    return cb_jr_fail(r, d->boss_name && !cb_dungeon_room(d, d->boss_room) ? "boss" : "goal",
                      "'room' must be the id of a room");
  json_t *log = cb_jr_array(r, root, "", "log", 2 * (size_t)CB_JSON_MAX_ITEMS, 0); /* as cb_json_writable */
  json_array_foreach(log, i, v) {
    if (!json_is_string(v) || json_string_length(v) > CB_JSON_MAX_TEXT)
      return cb_jr_fail(r, "log", "line %zu must be a string of at most 4096 bytes", i);
    if (cb_dungeon_log(d, "%s", json_string_value(v))) return cb_jr_oom(r);
  }
  if (r->st) return r->st;
  cb_error check = {0};
  if (cb_check_structure(d, &check) != CB_OK)
    return r->st = cb_error_set(r->err, CB_EINPUT, "%s: %s", r->name, check.msg);
  return read_procedure(r, root, r->procs->find(gen));
}

/* jansson allocates through cb_malloc, and a failure is remembered: its
 * own messages do not always say that memory ran out. jansson's allocator
 * takes no context, so the flag is the parsing thread's own: no hidden
 * state shared between threads (issue 23), should files be read on several. */
static _Thread_local int jansson_oom;
static void *jansson_alloc(size_t n) {
  void *p = cb_malloc(n);
  if (!p) jansson_oom = 1;
  return p;
}

cb_status cb_json_parse(const char *text, size_t len, const char *name, const cb_json_procs *procs,
                        cb_dungeon **out, cb_error *err) {
  *out = NULL;
  /* jansson's tree costs up to 80 times the text: count before it is built */
  cb_json_cost cost = {0};
  cb_json_cost_add(&cost, text, len);
  const char *over = cb_json_cost_over(&cost);
  if (over)
    return cb_error_set(err, CB_EINPUT, "%s: holds %s, more than a crawlbook JSON file may (see the README)",
                        name, over);
  json_error_t jerr;
  if (cb_starts_with_bom(text, len)) return cb_error_set(err, CB_EINPUT, "%s:1:1: %s", name, CB_BOM_MSG);
  json_set_alloc_funcs(jansson_alloc, free);
  jansson_oom = 0;
  json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
  if (!root && jansson_oom) /* jansson may call it a syntax error, or say nothing */
    return cb_error_set(err, CB_EINTERNAL, "%s: out of memory", name);
  if (!root && jerr.line < 0) return cb_error_set(err, CB_EINPUT, "%s: %s", name, jerr.text);
  if (!root) return cb_error_set(err, CB_EINPUT, "%s:%d:%d: %s", name, jerr.line, jerr.column, jerr.text);
  cb_json_reader r = {name, err, NULL, CB_OK, false, 0, procs};
  cb_status st = read_root(&r, root);
  json_decref(root);
  if (st != CB_OK) {
    cb_dungeon_free(r.d);
    return st;
  }
  *out = r.d;
  return CB_OK;
}

cb_status cb_json_read_file(const char *path, const cb_json_procs *procs, cb_dungeon **out, cb_error *err) {
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
      if (ferror(f))
        st = cb_error_set(err, CB_EINPUT, "%s: %s", path, errno ? strerror(errno) : "read error");
      break;
    }
    if (len > (size_t)CB_JSON_MAX_MIB << 20) {
      st = cb_error_set(err, CB_EINPUT, "%s: larger than %d MiB, more than a crawlbook JSON file may", path,
                        CB_JSON_MAX_MIB);
      break;
    }
  }
  fclose(f);
  if (st == CB_OK) st = cb_json_parse(buf ? buf : "", len, path, procs, out, err);
  free(buf);
  return st;
}
