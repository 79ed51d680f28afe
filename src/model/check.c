#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "bfs.h"

int cb_graph_build(const cb_dungeon *d, cb_graph *g) {
  memset(g, 0, sizeof *g);
  int n = d->nrooms;
  g->n = n;
  g->start = cb_calloc((size_t)n + 1, sizeof *g->start);
  size_t m = 2 * (size_t)d->npassages + 1;
  g->room = cb_malloc(m * sizeof *g->room);
  g->passage = cb_malloc(m * sizeof *g->passage);
  int *fill = cb_calloc((size_t)n + 1, sizeof *fill);
  if (!g->start || !g->room || !g->passage || !fill) goto fail;
  for (int pass = 0; pass < 2; pass++) {
    for (int i = 0; i < d->npassages; i++) {
      const cb_passage *p = &d->passages[i];
      const cb_room *a = cb_dungeon_room(d, p->from), *b = cb_dungeon_room(d, p->to);
      if (!a || !b) continue;
      int ia = (int)(a - d->rooms), ib = (int)(b - d->rooms);
      if (pass == 0) {
        g->start[ia + 1]++;
        if (!(p->flags & CB_FLAG_ONE_WAY)) g->start[ib + 1]++;
        continue;
      }
      int k = g->start[ia] + fill[ia]++;
      g->room[k] = ib;
      g->passage[k] = i;
      if (!(p->flags & CB_FLAG_ONE_WAY)) {
        k = g->start[ib] + fill[ib]++;
        g->room[k] = ia;
        g->passage[k] = i;
      }
    }
    if (pass == 0)
      for (int i = 0; i < n; i++)
        g->start[i + 1] += g->start[i];
  }
  free(fill);
  return 0;
fail:
  free(fill);
  cb_graph_free(g);
  return -1;
}

void cb_graph_free(cb_graph *g) {
  free(g->start);
  free(g->room);
  free(g->passage);
  memset(g, 0, sizeof *g);
}

/* Rooms and passages, given each lock's key room and the first room holding
 * a key twice (from cb_dungeon_lock_key_rooms: the checks stay linear). */
static cb_status check_rooms_and_passages(const cb_dungeon *d, const int *key_rooms, int dup_room,
                                          const char *dup_key, cb_error *err) {
  for (int i = 0; i < d->nrooms; i++) {
    const cb_room *r = &d->rooms[i];
    if (r->id < 1) return cb_error_set(err, CB_EINPUT, "rooms[%d]: id %d is not >= 1", i, r->id);
    if (i > 0 && r->id <= d->rooms[i - 1].id)
      return cb_error_set(err, CB_EINPUT, "rooms[%d]: room id %d is not unique", i, r->id);
    bool level_known = false;
    for (int l = 0; l < d->nlevels; l++)
      level_known |= d->levels[l].id == r->level;
    if (!level_known)
      return cb_error_set(err, CB_EINPUT, "rooms[%d]: room %d is on level %d, which is not in levels", i,
                          r->id, r->level);
    if (i == dup_room)
      return cb_error_set(err, CB_EINPUT, "rooms[%d]: key %s is in more than one place", i, dup_key);
  }
  for (int i = 0; i < d->npassages; i++) {
    const cb_passage *p = &d->passages[i];
    if (p->id != i + 1)
      return cb_error_set(err, CB_EINPUT, "passages[%d]: id %d, expected %d", i, p->id, i + 1);
    if (!cb_dungeon_room(d, p->from))
      return cb_error_set(err, CB_EINPUT, "passages[%d]: 'from' names room %d, which does not exist", i,
                          p->from);
    if (p->to != 0 && !cb_dungeon_room(d, p->to))
      return cb_error_set(err, CB_EINPUT, "passages[%d]: 'to' names room %d, which does not exist", i, p->to);
    bool locked = (p->flags & CB_FLAG_LOCKED) != 0;
    if (locked != (p->lock != NULL))
      return cb_error_set(err, CB_EINPUT,
                          locked ? "passages[%d]: flag 'locked' needs a 'lock' naming its key"
                                 : "passages[%d]: 'lock' given without the flag 'locked'",
                          i);
    if (p->lock && key_rooms[i] < 0)
      return cb_error_set(err, CB_EINPUT, "passages[%d]: lock %s has no key in any room", i, p->lock);
  }
  return CB_OK;
}

static int by_level_number(const void *pa, const void *pb) {
  const cb_room *a = *(const cb_room *const *)pa, *b = *(const cb_room *const *)pb;
  if (a->level != b->level) return (a->level > b->level) - (a->level < b->level);
  if (a->number != b->number) return (a->number > b->number) - (a->number < b->number);
  return (a->id > b->id) - (a->id < b->id);
}

/* No two rooms of a level print the same number. */
static cb_status check_numbers(const cb_dungeon *d, cb_error *err) {
  const cb_room **by = cb_malloc(((size_t)d->nrooms + 1) * sizeof *by);
  if (!by) return cb_error_oom(err);
  for (int i = 0; i < d->nrooms; i++)
    by[i] = &d->rooms[i];
  if (d->nrooms > 1) qsort(by, (size_t)d->nrooms, sizeof *by, by_level_number);
  cb_status st = CB_OK;
  for (int i = 1; i < d->nrooms && st == CB_OK; i++)
    if (by[i]->level == by[i - 1]->level && by[i]->number == by[i - 1]->number)
      st = cb_error_set(err, CB_EINPUT, "rooms[%d]: room %d is numbered %d on level %d, as room %d is",
                        (int)(by[i] - d->rooms), by[i]->id, by[i]->number, by[i]->level, by[i - 1]->id);
  free(by);
  return st;
}

cb_status cb_check_structure(const cb_dungeon *d, cb_error *err) {
  for (int i = 0; i < d->nlevels; i++)
    for (int j = 0; j < i; j++)
      if (d->levels[i].id == d->levels[j].id)
        return cb_error_set(err, CB_EINPUT, "levels[%d]: level id %d appears twice", i, d->levels[i].id);
  int dup_room;
  const char *dup_key;
  int *key_rooms = cb_dungeon_lock_key_rooms(d, &dup_room, &dup_key);
  if (!key_rooms) return cb_error_oom(err);
  cb_status st = check_rooms_and_passages(d, key_rooms, dup_room, dup_key, err);
  free(key_rooms);
  return st == CB_OK ? check_numbers(d, err) : st;
}

int cb_check_start_room(const cb_dungeon *d) {
  static const unsigned order[] = {CB_TAG_MAIN_START, CB_TAG_ENTRANCE, CB_TAG_START};
  for (size_t t = 0; t < sizeof order / sizeof *order; t++)
    for (int i = 0; i < d->nrooms; i++)
      if (d->rooms[i].tags & order[t]) return i;
  return d->nrooms ? 0 : -1;
}

int cb_check_walk(const cb_dungeon *d, const cb_graph *g, int start, bool *reached) {
  return cb_check_walk_blocked(d, g, start, NULL, reached);
}

int cb_check_walk_blocked(const cb_dungeon *d, const cb_graph *g, int start, const bool *blocked,
                          bool *reached) {
  int n = d->nrooms;
  memset(reached, 0, (size_t)n * sizeof *reached);
  if (start < 0 || start >= n) return 0;
  cb_bfs walk;
  int bad = cb_bfs_init(&walk, n);
  /* key_room[i]: room index holding the key of passage i's lock, or -1 */
  int *key_room = cb_dungeon_lock_key_rooms(d, NULL, NULL);
  if (bad || !key_room) {
    cb_bfs_free(&walk);
    free(key_room);
    return -1;
  }

  /* Walk until no new key opens a new door: each round is a flood fill. */
  bool grew = true;
  while (grew) {
    grew = false;
    cb_bfs_clear(&walk);
    for (int i = 0; i < n; i++)
      if (reached[i] || i == start) reached[i] = true, cb_bfs_reach(&walk, -1, i);
    for (int u; (u = cb_bfs_next(&walk)) >= 0;)
      for (int k = g->start[u]; k < g->start[u + 1]; k++) {
        int v = g->room[k], pi = g->passage[k];
        if (blocked && blocked[pi]) continue;
        if ((d->passages[pi].flags & CB_FLAG_LOCKED) && (key_room[pi] < 0 || !reached[key_room[pi]]))
          continue;
        if (cb_bfs_reach(&walk, u, v)) reached[v] = grew = true;
      }
  }
  int shut = 0;
  for (int i = 0; i < d->npassages; i++)
    if ((d->passages[i].flags & CB_FLAG_LOCKED) && (key_room[i] < 0 || !reached[key_room[i]])) shut++;
  cb_bfs_free(&walk);
  free(key_room);
  return shut;
}

/* A treasure naming a key ("K1: ...", or any lock's key by name): its key. */
static const char *named_key(const cb_dungeon *d, const char *what, char *key, size_t cap) {
  const char *colon = strstr(what, ": ");
  size_t n = colon ? (size_t)(colon - what) : 0;
  if (n == 0 || n >= cap) return NULL;
  memcpy(key, what, n);
  key[n] = '\0';
  bool looks = key[0] == 'K' && n > 1 && strspn(key + 1, "0123456789") == n - 1;
  for (int i = 0; i < d->npassages && !looks; i++)
    looks = d->passages[i].lock && strcmp(d->passages[i].lock, key) == 0;
  return looks ? key : NULL;
}

static int note_lost_objects(const cb_dungeon *d, cb_check_note note, void *ctx) {
  int n = 0;
  char key[40], msg[160];
  for (int i = 0; i < d->nrooms; i++) {
    const cb_contents *c = d->rooms[i].contents;
    for (int t = 0; c && t < c->ntreasure; t++) {
      if (!named_key(d, c->treasure[t].what, key, sizeof key) || cb_dungeon_key_room(d, key)) continue;
      snprintf(msg, sizeof msg, "room %d holds the object of key %s, but no room holds that key",
               d->rooms[i].id, key);
      note(ctx, msg), n++;
    }
  }
  return n;
}

int cb_check_play(const cb_dungeon *d, cb_check_note note, void *ctx) {
  cb_graph g;
  if (cb_graph_build(d, &g)) return -1;
  bool *reached = cb_calloc((size_t)d->nrooms + 1, sizeof *reached);
  int *key_room = cb_dungeon_lock_key_rooms(d, NULL, NULL);
  int shut = reached && key_room ? cb_check_walk(d, &g, cb_check_start_room(d), reached) : -1;
  int n = 0;
  char msg[160];
  for (int i = 0; shut > 0 && i < d->npassages; i++) {
    const cb_passage *p = &d->passages[i];
    if (!p->lock || key_room[i] < 0 || reached[key_room[i]]) continue;
    bool first = true; /* one note a key, at its first lock */
    for (int j = 0; j < i && first; j++)
      first = !(d->passages[j].lock && strcmp(d->passages[j].lock, p->lock) == 0);
    if (!first) continue;
    snprintf(msg, sizeof msg,
             "lock %.32s (passage %d, %d-%d) never opens: its key, in room %d, lies behind it", p->lock,
             p->id, p->from, p->to, d->rooms[key_room[i]].id);
    note(ctx, msg), n++;
  }
  free(reached);
  free(key_room);
  cb_graph_free(&g);
  return shut < 0 ? -1 : n + note_lost_objects(d, note, ctx);
}
