/* preconnect's procedure in JSON: rooms (rectangles), doors (model.md: room,
 * facing, roll, destination, length_roll, crossings; more fields for the
 * rest of each door's story) and corridors (the polylines as drawn). */
#include <stdio.h>
#include <string.h>

#include "io/json_fields.h"
#include "proc.h"

static cb_status check_room(cb_json_reader *r, json_t *entry, const char *where, void *item, void *ctx);
static const cb_json_field room_fields[] = {
    CB_JF_INT_OF(cb_pc_room, room, "room", 1, 1000000000, CB_JF_REQUIRED, 1),
    CB_JF_COORD_OF(cb_pc_room, x, "x", -CB_JSON_MAX_COORD, CB_JSON_MAX_COORD, CB_JF_REQUIRED),
    CB_JF_COORD_OF(cb_pc_room, y, "y", -CB_JSON_MAX_COORD, CB_JSON_MAX_COORD, CB_JF_REQUIRED),
    CB_JF_COORD_OF(cb_pc_room, w, "w", 1, 100000, CB_JF_REQUIRED),
    CB_JF_COORD_OF(cb_pc_room, h, "h", 1, 100000, CB_JF_REQUIRED),
};
static const cb_json_list rooms = {"rooms", CB_JSON_MAX_ROOMS,  1,         room_fields,
                                   5,       sizeof(cb_pc_room), check_room};

static json_t *point(cb_pc_point p) { return json_pack("[oo]", cb_jv_coord(p.x), cb_jv_coord(p.y)); }

static json_t *points(const cb_pc_point *v, int n) {
  json_t *a = json_array();
  for (int i = 0; a && i < n; i++)
    json_array_append_new(a, point(v[i]));
  return a;
}

static json_t *ints(const int *v, int n) {
  json_t *a = json_array();
  for (int i = 0; a && i < n; i++)
    json_array_append_new(a, json_integer(v[i]));
  return a;
}

static json_t *door_json(const cb_pc_door *dr) {
  json_t *cs = json_array();
  for (int k = 0; cs && k < dr->ncrossings; k++) {
    const cb_pc_crossing *c = &dr->crossings[k];
    json_array_append_new(cs, json_pack("{s:i,s:s,s:i,s:i,s:o,s:o,s:s}", "roll", c->roll, "result",
                                        cb_crossing_result_name(c->result), "room", c->room, "door", c->door,
                                        "enter", point(c->enter), "leave", point(c->leave), "mark",
                                        c->ladder ? "ladder" : "stairs"));
  }
  json_t *o =
      json_pack("{s:i,s:s,s:o,s:o,s:o,s:o,s:i,s:i,s:o,s:o,s:o,s:b,s:b,s:b,s:b,s:i,s:i}", "room", dr->room,
                "facing", cb_facing_name(dr->facing), "at", point(dr->at), "roll",
                dr->nrolls ? json_integer(dr->rolls[0]) : json_null(), "rolls", ints(dr->rolls, dr->nrolls),
                "via", ints(dr->via, dr->nrolls), "destination", dr->destination, "to", dr->to, "length_roll",
                dr->length_roll ? json_integer(dr->length_roll) : json_null(), "check_roll",
                dr->check_roll ? json_integer(dr->check_roll) : json_null(), "crossings", cs, "extra",
                dr->extra, "postponed", dr->postponed, "reread", dr->reread, "new_room", dr->new_room,
                "order", dr->order, "passage", dr->passage);
  return o;
}

/* The doors and their corridors, as jansson arrays. */
static cb_status build_doors(const cb_preconnect_proc *p, json_t **doors, json_t **cor) {
  *doors = json_array(), *cor = json_array();
  if (!*doors || !*cor) {
    json_decref(*doors);
    json_decref(*cor);
    *doors = *cor = NULL;
    return CB_EINTERNAL;
  }
  for (int i = 0; i < p->ndoors; i++) {
    const cb_pc_door *dr = &p->doors[i];
    json_array_append_new(*doors, door_json(dr));
    json_t *c = json_pack("{s:i,s:o}", "door", i + 1, "points", points(dr->points, dr->npoints));
    if (c && dr->nside) json_object_set_new(c, "side", points(dr->side, dr->nside));
    json_array_append_new(*cor, c);
  }
  return CB_OK;
}

/* ---- reading ---- */

static int read_point(cb_json_reader *r, json_t *v, const char *where, cb_pc_point *out) {
  if (!json_is_array(v) || json_array_size(v) != 2 || !json_is_number(json_array_get(v, 0)) ||
      !json_is_number(json_array_get(v, 1)))
    return cb_jr_fail(r, where, "a point must be [x, y] in feet"), -1;
  double x = json_number_value(json_array_get(v, 0)), y = json_number_value(json_array_get(v, 1));
  if (!(x >= -CB_JSON_MAX_COORD && x <= CB_JSON_MAX_COORD && y >= -CB_JSON_MAX_COORD &&
        y <= CB_JSON_MAX_COORD))
    return cb_jr_fail(r, where, "a point lies outside +-%g ft", CB_JSON_MAX_COORD), -1;
  *out = (cb_pc_point){x, y};
  return 0;
}

static int read_points(cb_json_reader *r, json_t *o, const char *where, const char *key, size_t lo, size_t hi,
                       cb_pc_point **out, int *n) {
  json_t *a = cb_jr_array(r, o, where, key, hi, 1);
  if (!a) return -1;
  if (json_array_size(a) < lo) return cb_jr_fail(r, where, "'%s' needs at least %zu points", key, lo), -1;
  *out = cb_arena_alloc(r->d->arena, json_array_size(a) + 1, sizeof **out);
  if (!*out) return cb_jr_oom(r), -1;
  size_t i;
  json_t *v;
  json_array_foreach(a, i, v) {
    if (read_point(r, v, where, &(*out)[i])) return -1;
    if (i > 0 && (*out)[i].x != (*out)[i - 1].x && (*out)[i].y != (*out)[i - 1].y)
      return cb_jr_fail(r, where, "'%s': legs must run north-south or east-west", key), -1;
  }
  *n = (int)json_array_size(a);
  return 0;
}

static int read_ints(cb_json_reader *r, json_t *o, const char *where, const char *key, long lo, long hi,
                     int **out, int *n) {
  json_t *a = cb_jr_array(r, o, where, key, 64, 1);
  if (!a) return -1;
  *out = cb_arena_alloc(r->d->arena, json_array_size(a) + 1, sizeof **out);
  if (!*out) return cb_jr_oom(r), -1;
  size_t i;
  json_t *v;
  json_array_foreach(a, i, v) {
    if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
      return cb_jr_fail(r, where, "'%s' must hold whole numbers from %ld to %ld", key, lo, hi), -1;
    (*out)[i] = (int)json_integer_value(v);
  }
  *n = (int)json_array_size(a);
  return 0;
}

static int room_known(cb_json_reader *r, int id) { return cb_dungeon_room(r->d, id) != NULL; }

/* A rectangle names a room, and no other rectangle before it does (ctx:
 * where the first one read lies, which the first call sets). */
static cb_status check_room(cb_json_reader *r, json_t *entry, const char *where, void *item, void *ctx) {
  (void)entry;
  const cb_pc_room *pr = item, **first = ctx;
  if (!*first) *first = pr;
  if (!room_known(r, pr->room)) return cb_jr_fail(r, where, "'room' names no room");
  for (const cb_pc_room *q = *first; q < pr; q++)
    if (q->room == pr->room) return cb_jr_fail(r, where, "room %d is drawn twice", pr->room);
  return CB_OK;
}

static cb_status read_crossings(cb_json_reader *r, json_t *o, const char *where, cb_pc_door *dr, int ndoors) {
  json_t *a = cb_jr_array(r, o, where, "crossings", 10000, 1);
  if (!a) return r->st;
  dr->crossings = cb_arena_alloc(r->d->arena, json_array_size(a) + 1, sizeof *dr->crossings);
  if (!dr->crossings) return cb_jr_oom(r);
  size_t i;
  json_t *v;
  json_array_foreach(a, i, v) {
    char w[96];
    snprintf(w, sizeof w, "%s.crossings[%zu]", where, i);
    if (!json_is_object(v)) return cb_jr_fail(r, w, "must be an object");
    cb_pc_crossing *c = &dr->crossings[i];
    c->roll = cb_jr_int(r, v, w, "roll", 1, 10, 1, 1);
    const char *res = cb_jr_str(r, v, w, "result", 16, 1);
    c->room = cb_jr_int(r, v, w, "room", 0, 1000000000, 1, 0);
    c->door = cb_jr_int(r, v, w, "door", 0, ndoors, 1, 0);
    const char *mark = cb_jr_str(r, v, w, "mark", 16, 0);
    if (r->st) return r->st;
    int k = cb_crossing_result_parse(res);
    if (k < 0) return cb_jr_fail(r, w, "unknown result '%s' (under, secret, over or dead-end)", res);
    c->result = (cb_crossing_result)k;
    if (c->result != cb_crossing_result_of(c->roll))
      return cb_jr_fail(r, w, "roll %d reads '%s' on the crossing table, not '%s'", c->roll,
                        cb_crossing_result_name(cb_crossing_result_of(c->roll)), res);
    if ((c->room == 0) == (c->door == 0)) return cb_jr_fail(r, w, "give either 'room' or 'door', not both");
    if (c->room && !room_known(r, c->room)) return cb_jr_fail(r, w, "'room' names no room");
    if (mark && strcmp(mark, "stairs") != 0 && strcmp(mark, "ladder") != 0)
      return cb_jr_fail(r, w, "'mark' must be 'stairs' or 'ladder'");
    c->ladder = mark && strcmp(mark, "ladder") == 0;
    if (read_point(r, json_object_get(v, "enter"), w, &c->enter) ||
        read_point(r, json_object_get(v, "leave"), w, &c->leave))
      return r->st;
  }
  dr->ncrossings = (int)json_array_size(a);
  return r->st;
}

static int read_flag(cb_json_reader *r, json_t *o, const char *where, const char *key) {
  json_t *v = json_object_get(o, key);
  if (!v) return 0;
  if (!json_is_boolean(v)) return cb_jr_fail(r, where, "'%s' must be true or false", key), 0;
  return json_is_true(v);
}

static cb_status read_door(cb_json_reader *r, json_t *v, const char *w, cb_pc_door *dr, int ndoors) {
  if (!json_is_object(v)) return cb_jr_fail(r, w, "must be an object");
  dr->room = cb_jr_int(r, v, w, "room", 1, 1000000000, 1, 1);
  const char *facing = cb_jr_str(r, v, w, "facing", 4, 1);
  json_t *rv = json_object_get(v, "roll");
  bool extra = read_flag(r, v, w, "extra");
  /* the extra door has no destination roll */
  int roll = extra && rv && json_is_null(rv) ? 0 : cb_jr_int(r, v, w, "roll", 1, 10, 1, 1);
  dr->destination = cb_jr_int(r, v, w, "destination", -100, 1000000000, 1, 0);
  dr->to = cb_jr_int(r, v, w, "to", 0, 1000000000, 0, 0);
  json_t *lr = json_object_get(v, "length_roll"), *cr = json_object_get(v, "check_roll");
  dr->length_roll = lr && !json_is_null(lr) ? cb_jr_int(r, v, w, "length_roll", 1, 10, 1, 1) : 0;
  dr->check_roll = cr && !json_is_null(cr) ? cb_jr_int(r, v, w, "check_roll", 1, 6, 1, 1) : 0;
  dr->order = cb_jr_int(r, v, w, "order", 0, ndoors, 0, 0);
  dr->passage = cb_jr_int(r, v, w, "passage", 0, r->d->npassages, 0, 0);
  dr->extra = read_flag(r, v, w, "extra");
  dr->postponed = read_flag(r, v, w, "postponed");
  dr->reread = read_flag(r, v, w, "reread");
  dr->new_room = read_flag(r, v, w, "new_room");
  if (r->st) return r->st;
  int f = cb_facing_parse(facing);
  if (f < 0) return cb_jr_fail(r, w, "'facing' must be N, E, S or W");
  dr->facing = (cb_facing)f;
  if (!room_known(r, dr->room)) return cb_jr_fail(r, w, "'room' names no room");
  if (dr->passage && r->d->passages[dr->passage - 1].from != dr->room)
    return cb_jr_fail(r, w, "passage %d does not leave room %d", dr->passage, dr->room);
  if (dr->to && !room_known(r, dr->to)) return cb_jr_fail(r, w, "'to' names no room");
  if (json_object_get(v, "at") && read_point(r, json_object_get(v, "at"), w, &dr->at)) return r->st;
  if (json_object_get(v, "rolls")) {
    int nv = 0;
    if (read_ints(r, v, w, "rolls", 1, 10, &dr->rolls, &dr->nrolls) ||
        read_ints(r, v, w, "via", 0, 1000000000, &dr->via, &nv))
      return r->st;
    if (nv != dr->nrolls) return cb_jr_fail(r, w, "'via' must hold one entry per roll");
    if (roll ? dr->nrolls < 1 || dr->rolls[0] != roll : dr->nrolls != 0)
      return cb_jr_fail(r, w, "'rolls' must start with 'roll'");
    for (int i = 0; i < nv; i++)
      if (dr->via[i] && !room_known(r, dr->via[i])) return cb_jr_fail(r, w, "'via' names no room");
  } else if (roll) {
    dr->rolls = cb_arena_alloc(r->d->arena, 1, sizeof *dr->rolls);
    dr->via = cb_arena_alloc(r->d->arena, 1, sizeof *dr->via);
    if (!dr->rolls || !dr->via) return cb_jr_oom(r);
    dr->rolls[0] = roll;
    dr->nrolls = 1;
  }
  return read_crossings(r, v, w, dr, ndoors);
}

static cb_status read_proc(cb_json_reader *r, json_t *o) {
  const char *w = "procedure";
  cb_preconnect_proc *p = cb_arena_alloc(r->d->arena, 1, sizeof *p);
  if (!p) return cb_jr_oom(r);
  r->d->procedure = p;
  cb_jr_array(r, o, w, "rooms", CB_JSON_MAX_ROOMS, 1);
  json_t *doors = cb_jr_array(r, o, w, "doors", CB_JSON_MAX_ITEMS, 1);
  json_t *cor = cb_jr_array(r, o, w, "corridors", CB_JSON_MAX_ITEMS, 0);
  if (r->st) return r->st;
  const cb_pc_room *first = NULL;
  if (!(p->rooms = cb_jr_list(r, o, w, &rooms, NULL, &first, &p->nrooms))) return r->st;
  for (int k = 0; k < r->d->nrooms; k++) {
    int found = 0;
    for (int j = 0; j < p->nrooms && !found; j++)
      found = p->rooms[j].room == r->d->rooms[k].id;
    if (!found)
      return cb_jr_fail(r, "procedure.rooms",
                        "room %d has no rectangle (drop the procedure to draw a point-crawl)",
                        r->d->rooms[k].id);
  }
  size_t n = json_array_size(doors), i;
  json_t *v;
  p->doors = cb_arena_alloc(r->d->arena, n + 1, sizeof *p->doors);
  if (!p->doors) return cb_jr_oom(r);
  json_array_foreach(doors, i, v) {
    char where[64];
    snprintf(where, sizeof where, "procedure.doors[%zu]", i);
    if (read_door(r, v, where, &p->doors[i], (int)n)) return r->st;
  }
  p->ndoors = (int)n;
  json_array_foreach(cor, i, v) {
    char where[64];
    snprintf(where, sizeof where, "procedure.corridors[%zu]", i);
    if (!json_is_object(v)) return cb_jr_fail(r, where, "must be an object");
    int door = cb_jr_int(r, v, where, "door", 1, p->ndoors, 1, 1);
    if (r->st) return r->st;
    cb_pc_door *dr = &p->doors[door - 1];
    if (dr->points) return cb_jr_fail(r, where, "door %d has two corridors", door);
    cb_pc_point *side = NULL;
    if (read_points(r, v, where, "points", 1, 10000, &dr->points, &dr->npoints)) return r->st;
    if (json_object_get(v, "side")) {
      if (read_points(r, v, where, "side", 2, 2, &side, &dr->nside)) return r->st;
      dr->side[0] = side[0];
      dr->side[1] = side[1];
    }
  }
  return r->st;
}

static void write_proc(cb_jw *w, const cb_dungeon *d) {
  const cb_preconnect_proc *p = cb_preconnect_of(d);
  json_t *doors = NULL, *cor = NULL;
  cb_jw_raw(w, "{", 1);
  if (p) { /* a hand-made dungeon has no procedure */
    build_doors(p, &doors, &cor);
    cb_jw_key(w, "rooms", 1), cb_jw_list(w, &rooms, p->rooms, p->nrooms);
    cb_jw_key(w, "doors", 0), cb_jw_value(w, doors);
    cb_jw_key(w, "corridors", 0), cb_jw_value(w, cor);
  }
  cb_jw_raw(w, "}", 1);
}

const cb_proc_io cb_proc_io_preconnect = {
    .generator = "preconnect",
    .write = write_proc,
    .read = read_proc,
};
