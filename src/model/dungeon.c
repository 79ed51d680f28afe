#include "dungeon.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/hash.h"
#include "base/text.h"

static const char *const tag_names[CB_TAG_COUNT] = {"entrance",     "start",      "main-start", "goal",
                                                    "boss",         "encounter",  "treasure",   "key",
                                                    "surface-exit", "unreachable"};
static const char *const kind_names[CB_PASSAGE_KIND_COUNT] = {"door",   "open",   "corridor", "tunnel",
                                                              "stairs", "ladder", "portal"};
static const char *const flag_names[CB_FLAG_COUNT] = {"secret",     "locked",  "soft-locked", "trapped",
                                                      "obstructed", "one-way", "concealed",   "under",
                                                      "over",       "dead-end"};

static int bit_index(unsigned bit) {
  for (int i = 0; i < 32; i++)
    if (bit == (1u << i)) return i;
  return -1;
}

int cb_name_find(const char *const *names, int n, const char *name) {
  for (int i = 0; name && i < n; i++)
    if (strcmp(names[i], name) == 0) return i;
  return -1;
}

const char *cb_tag_name(cb_tag tag) {
  int i = bit_index(tag);
  return i >= 0 && i < CB_TAG_COUNT ? tag_names[i] : "?";
}
int cb_tag_parse(const char *name) {
  int i = cb_name_find(tag_names, CB_TAG_COUNT, name);
  return i < 0 ? -1 : (int)(1u << i);
}
const char *cb_passage_kind_name(cb_passage_kind kind) {
  return (unsigned)kind < CB_PASSAGE_KIND_COUNT ? kind_names[kind] : "?";
}
int cb_passage_kind_parse(const char *name) { return cb_name_find(kind_names, CB_PASSAGE_KIND_COUNT, name); }
const char *cb_flag_name(cb_passage_flag flag) {
  int i = bit_index(flag);
  return i >= 0 && i < CB_FLAG_COUNT ? flag_names[i] : "?";
}
int cb_flag_parse(const char *name) {
  int i = cb_name_find(flag_names, CB_FLAG_COUNT, name);
  return i < 0 ? -1 : (int)(1u << i);
}
int cb_arena_grow(cb_arena *a, void *items, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap) return 0;
  size_t n = *cap ? *cap * 2 : 16;
  while (n < need)
    n *= 2;
  void **pp = items;
  void *p = cb_arena_alloc(a, n, elem);
  if (!p) return -1;
  if (*pp && *cap) memcpy(p, *pp, *cap * elem);
  *pp = p;
  *cap = n;
  return 0;
}

cb_dungeon *cb_dungeon_new(const char *generator, uint64_t seed) {
  cb_dungeon *d = cb_calloc(1, sizeof *d);
  if (!d) return NULL;
  d->arena = cb_arena_new();
  if (!d->arena) {
    free(d);
    return NULL;
  }
  d->generator = cb_arena_strdup(d->arena, generator ? generator : "");
  d->seed = seed;
  if (!d->generator) {
    cb_dungeon_free(d);
    return NULL;
  }
  return d;
}

void cb_dungeon_free(cb_dungeon *d) {
  if (!d) return;
  cb_arena_free(d->arena);
  free(d);
}

static void *oom(cb_dungeon *d) {
  d->oom = true;
  return NULL;
}

cb_level *cb_dungeon_add_level(cb_dungeon *d, int id, const char *name) {
  if (cb_arena_grow(d->arena, &d->levels, &d->cap_levels, (size_t)d->nlevels + 1, sizeof *d->levels))
    return oom(d);
  cb_level *l = &d->levels[d->nlevels];
  l->id = id;
  l->name = cb_arena_strdup(d->arena, name ? name : "");
  if (!l->name) return oom(d);
  d->nlevels++;
  return l;
}

cb_room *cb_dungeon_add_room_id(cb_dungeon *d, int id, int level, double x, double y) {
  if (cb_arena_grow(d->arena, &d->rooms, &d->cap_rooms, (size_t)d->nrooms + 1, sizeof *d->rooms))
    return oom(d);
  cb_room *r = &d->rooms[d->nrooms++];
  memset(r, 0, sizeof *r);
  r->id = id;
  r->number = id;
  r->level = level;
  r->x = x;
  r->y = y;
  r->value = CB_NO_VALUE;
  return r;
}

cb_room *cb_dungeon_add_room(cb_dungeon *d, int level, double x, double y) {
  return cb_dungeon_add_room_id(d, d->nrooms + 1, level, x, y);
}

cb_passage *cb_dungeon_add_passage(cb_dungeon *d, int from, int to, cb_passage_kind kind) {
  if (cb_arena_grow(d->arena, &d->passages, &d->cap_passages, (size_t)d->npassages + 1, sizeof *d->passages))
    return oom(d);
  cb_passage *p = &d->passages[d->npassages];
  memset(p, 0, sizeof *p);
  p->id = ++d->npassages;
  p->from = from;
  p->to = to;
  p->kind = kind;
  p->length_ft = CB_NO_VALUE;
  return p;
}

int cb_dungeon_add_key(cb_dungeon *d, cb_room *room, const char *key) {
  const char **keys = cb_arena_alloc(d->arena, (size_t)room->nkeys + 1, sizeof *keys);
  const char *copy = cb_arena_strdup(d->arena, key);
  if (!keys || !copy) return oom(d), -1;
  if (room->nkeys) memcpy(keys, room->keys, (size_t)room->nkeys * sizeof *keys);
  keys[room->nkeys++] = copy;
  room->keys = keys;
  room->tags |= CB_TAG_KEY;
  return 0;
}

void cb_dungeon_remove_key(cb_room *room, const char *key) {
  int k = 0;
  for (int i = 0; i < room->nkeys; i++)
    if (strcmp(room->keys[i], key) != 0) room->keys[k++] = room->keys[i];
  room->nkeys = k;
  if (k == 0) room->tags &= ~CB_TAG_KEY;
}

int cb_dungeon_set_option(cb_dungeon *d, const char *name, const char *value, bool number) {
  for (int i = 0; i < d->noptions; i++) {
    if (strcmp(d->options[i].name, name) == 0) {
      const char *v = cb_arena_strdup(d->arena, value);
      if (!v) return oom(d), -1;
      d->options[i].value = v;
      d->options[i].number = number;
      d->options[i].flag = false;
      return 0;
    }
  }
  if (cb_arena_grow(d->arena, &d->options, &d->cap_options, (size_t)d->noptions + 1, sizeof *d->options))
    return oom(d), -1;
  cb_option *o = &d->options[d->noptions];
  o->name = cb_arena_strdup(d->arena, name);
  o->value = cb_arena_strdup(d->arena, value);
  o->number = number;
  if (!o->name || !o->value) return oom(d), -1;
  d->noptions++;
  return 0;
}

int cb_dungeon_set_flag(cb_dungeon *d, const char *name) {
  if (cb_dungeon_set_option(d, name, "true", false)) return -1;
  for (int i = 0; i < d->noptions; i++)
    if (strcmp(d->options[i].name, name) == 0) d->options[i].flag = true;
  return 0;
}

int cb_dungeon_set_title(cb_dungeon *d, const char *title) {
  const char *t = cb_arena_strdup(d->arena, title);
  if (!t) return oom(d), -1;
  d->title = t;
  return 0;
}

int cb_dungeon_log(cb_dungeon *d, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0) n = 0;
  char *line = cb_arena_alloc(d->arena, (size_t)n + 1, 1);
  if (!line || cb_arena_grow(d->arena, &d->log, &d->cap_log, (size_t)d->nlog + 1, sizeof *d->log))
    return oom(d), -1;
  va_start(ap, fmt);
  vsnprintf(line, (size_t)n + 1, fmt, ap);
  va_end(ap);
  cb_utf8_shorten(line, CB_TEXT_MAX);
  d->log[d->nlog++] = line;
  return 0;
}

cb_passage *cb_dungeon_passage(const cb_dungeon *d, int id) {
  if (id >= 1 && id <= d->npassages && d->passages[id - 1].id == id) return &d->passages[id - 1];
  int lo = 0, hi = d->npassages - 1;
  while (lo <= hi) {
    int mid = lo + (hi - lo) / 2;
    if (d->passages[mid].id == id) return &d->passages[mid];
    if (d->passages[mid].id < id)
      lo = mid + 1;
    else
      hi = mid - 1;
  }
  return NULL;
}

cb_room *cb_dungeon_room(const cb_dungeon *d, int id) {
  /* generators number rooms 1..n: then the id is the index */
  if (id >= 1 && id <= d->nrooms && d->rooms[id - 1].id == id) return &d->rooms[id - 1];
  int lo = 0, hi = d->nrooms - 1;
  while (lo <= hi) {
    int mid = lo + (hi - lo) / 2;
    if (d->rooms[mid].id == id) return &d->rooms[mid];
    if (d->rooms[mid].id < id)
      lo = mid + 1;
    else
      hi = mid - 1;
  }
  return NULL;
}

const cb_room *cb_dungeon_key_room(const cb_dungeon *d, const char *key) {
  for (int i = 0; i < d->nrooms; i++)
    for (int k = 0; k < d->rooms[i].nkeys; k++)
      if (strcmp(d->rooms[i].keys[k], key) == 0) return &d->rooms[i];
  return NULL;
}

int *cb_dungeon_lock_key_rooms(const cb_dungeon *d, int *dup_room, const char **dup_key) {
  size_t nkeys = 0, cap = 16;
  for (int i = 0; i < d->nrooms; i++)
    nkeys += (size_t)d->rooms[i].nkeys;
  while (cap < nkeys * 2)
    cap *= 2;
  struct slot {
    const char *key;
    int room;
  } *table = cb_calloc(cap, sizeof *table);
  int *out = cb_malloc(((size_t)d->npassages + 1) * sizeof *out);
  if (dup_room) *dup_room = -1, *dup_key = NULL;
  if (!table || !out) {
    free(table);
    free(out);
    return NULL;
  }
  for (int i = 0; i < d->nrooms; i++)
    for (int k = 0; k < d->rooms[i].nkeys; k++) {
      const char *key = d->rooms[i].keys[k];
      size_t h = cb_hash_str(CB_HASH_START, key) & (cap - 1);
      while (table[h].key && strcmp(table[h].key, key) != 0)
        h = (h + 1) & (cap - 1);
      if (!table[h].key)
        table[h] = (struct slot){key, i}; /* the first holder wins */
      else if (dup_room && *dup_room < 0)
        *dup_room = i, *dup_key = key;
    }
  for (int p = 0; p < d->npassages; p++) {
    const char *lock = d->passages[p].lock;
    out[p] = -1;
    if (!lock) continue;
    size_t h = cb_hash_str(CB_HASH_START, lock) & (cap - 1);
    while (table[h].key && strcmp(table[h].key, lock) != 0)
      h = (h + 1) & (cap - 1);
    if (table[h].key) out[p] = table[h].room;
  }
  free(table);
  return out;
}

/* A monster's words, where says whose. */
static int monster_texts(const cb_monster *m, const char *where, cb_text_fn fn, void *ctx) {
  char at[128]; /* where is at most 95 bytes */
  snprintf(at, sizeof at, "%.95s's name", where);
  int r = fn(ctx, at, m->name);
  snprintf(at, sizeof at, "%.95s's doing", where);
  return r ? r : m->doing ? fn(ctx, at, m->doing) : 0;
}

static int room_texts(const cb_room *room, cb_text_fn fn, void *ctx) {
  const cb_contents *c = room->contents;
  char at[96];
  const struct {
    const char *what, *text;
  } one[] = {{"text", room->text},
             {"name", c ? c->name : NULL},
             {"dressing", c ? c->dressing : NULL},
             {"special", c ? c->special : NULL},
             {"trap's trigger", c && c->trap ? c->trap->trigger : NULL},
             {"trap's effect", c && c->trap ? c->trap->effect : NULL},
             {"trap's tell", c && c->trap ? c->trap->tell : NULL}};
  int r = 0;
  for (size_t i = 0; !r && i < sizeof one / sizeof *one; i++)
    if (one[i].text)
      snprintf(at, sizeof at, "room %d's %s", room->id, one[i].what), r = fn(ctx, at, one[i].text);
  for (int i = 0; !r && c && i < c->nmonsters; i++)
    snprintf(at, sizeof at, "room %d's monster %d", room->id, i + 1),
        r = monster_texts(&c->monsters[i], at, fn, ctx);
  for (int i = 0; !r && c && i < c->ntreasure; i++)
    snprintf(at, sizeof at, "room %d's treasure %d", room->id, i + 1), r = fn(ctx, at, c->treasure[i].what);
  return r;
}

int cb_dungeon_each_text(const cb_dungeon *d, cb_text_fn fn, void *ctx) {
  char at[96];
  int r = d->title ? fn(ctx, "the title", d->title) : 0;
  for (int i = 0; !r && i < 2; i++)
    if (d->hook[i]) r = fn(ctx, "the hook", d->hook[i]);
  for (int i = 0; !r && i < d->nlevels; i++)
    if (d->levels[i].name)
      snprintf(at, sizeof at, "level %d's name", d->levels[i].id), r = fn(ctx, at, d->levels[i].name);
  for (int i = 0; !r && i < d->nrooms; i++)
    r = room_texts(&d->rooms[i], fn, ctx);
  for (int i = 0; !r && i < d->npassages; i++)
    if (d->passages[i].note)
      snprintf(at, sizeof at, "passage %d's note", d->passages[i].id), r = fn(ctx, at, d->passages[i].note);
  for (int i = 0; !r && i < d->nwandering; i++)
    snprintf(at, sizeof at, "wandering monster %d", i + 1), r = monster_texts(&d->wandering[i], at, fn, ctx);
  return r;
}
