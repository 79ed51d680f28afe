/* preconnect's procedure in JSON: rooms (rectangles), doors (model.md: room,
 * facing, roll, destination, length_roll, crossings; more fields for the
 * rest of each door's story) and corridors (the polylines as drawn). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
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

static int room_known(cb_json_reader *r, int id) { return cb_dungeon_room(r->d, id) != NULL; }

/* The bounds the tables number: the doors' count, the passages' (vars). */
enum { DOORS = 1, PASSAGES = 2 };

static const char *result_name(int k) { return cb_crossing_result_name((cb_crossing_result)k); }
static const char *facing_name(int k) { return cb_facing_name((cb_facing)k); }
static const char *mark_name(int ladder) { return ladder ? "ladder" : "stairs"; }
static int mark_parse(const char *s) {
  return strcmp(s, "ladder") == 0 ? 1 : strcmp(s, "stairs") == 0 ? 0 : -1;
}

static cb_status check_crossing(cb_json_reader *r, json_t *entry, const char *where, void *item, void *ctx);
static const cb_json_field crossing_fields[] = {
    CB_JF_INT_OF(cb_pc_crossing, roll, "roll", 1, 10, CB_JF_REQUIRED, 1),
    CB_JF_CHOICE_OF(cb_pc_crossing, result, "result", 16, CB_JF_REQUIRED, result_name,
                    cb_crossing_result_parse, "under, secret, over or dead-end"),
    CB_JF_INT_OF(cb_pc_crossing, room, "room", 0, 1000000000, CB_JF_REQUIRED, 0),
    CB_JF_VAR_OF(cb_pc_crossing, door, "door", 0, DOORS, CB_JF_REQUIRED, 0),
    CB_JF_POINT_OF(cb_pc_crossing, enter, "enter", CB_JF_REQUIRED),
    CB_JF_POINT_OF(cb_pc_crossing, leave, "leave", CB_JF_REQUIRED),
    CB_JF_CHOICE_OF(cb_pc_crossing, ladder, "mark", 16, CB_JF_IN_BOOL, mark_name, mark_parse,
                    "stairs or ladder"),
};
static const cb_json_list crossings = {"crossings",   10000, 1, crossing_fields, 7, sizeof(cb_pc_crossing),
                                       check_crossing};

/* A door as JSON holds its first roll apart ("roll": null for an extra door). */
typedef struct door_rec {
  cb_pc_door door;
  int roll, nvia;
} door_rec;

static cb_status check_door(cb_json_reader *r, json_t *entry, const char *where, void *item, void *ctx);
static const cb_json_field door_fields[] = {
    CB_JF_INT_OF(door_rec, door.room, "room", 1, 1000000000, CB_JF_REQUIRED, 1),
    CB_JF_CHOICE_OF(door_rec, door.facing, "facing", 4, CB_JF_REQUIRED, facing_name, cb_facing_parse,
                    "N, E, S or W"),
    CB_JF_POINT_OF(door_rec, door.at, "at", 0),
    CB_JF_INT_OF(door_rec, roll, "roll", 1, 10, CB_JF_REQUIRED | CB_JF_ZERO_NULL, 1),
    CB_JF_INTS_OF(door_rec, door.rolls, door.nrolls, "rolls", 1, 10, 64),
    CB_JF_INTS_OF(door_rec, door.via, nvia, "via", 0, 1000000000, 64),
    CB_JF_INT_OF(door_rec, door.destination, "destination", -100, 1000000000, CB_JF_REQUIRED, 0),
    CB_JF_INT_OF(door_rec, door.to, "to", 0, 1000000000, 0, 0),
    CB_JF_INT_OF(door_rec, door.length_roll, "length_roll", 1, 10, CB_JF_ZERO_NULL, 0),
    CB_JF_INT_OF(door_rec, door.check_roll, "check_roll", 1, 6, CB_JF_ZERO_NULL, 0),
    CB_JF_LIST_OF(door_rec, door.crossings, door.ncrossings, &crossings),
    CB_JF_BOOL_OF(door_rec, door.extra, "extra"),
    CB_JF_BOOL_OF(door_rec, door.postponed, "postponed"),
    CB_JF_BOOL_OF(door_rec, door.reread, "reread"),
    CB_JF_BOOL_OF(door_rec, door.new_room, "new_room"),
    CB_JF_VAR_OF(door_rec, door.order, "order", 0, DOORS, 0, 0),
    CB_JF_VAR_OF(door_rec, door.passage, "passage", 0, PASSAGES, 0, 0),
};
static const cb_json_list doors = {"doors", CB_JSON_MAX_ITEMS, 1,         door_fields,
                                   17,      sizeof(door_rec),  check_door};

/* A corridor names its door, whose polyline (and side passage) it is. */
typedef struct corridor_rec {
  int door;
  int npoints, nside;
  cb_pc_point *points;
  cb_pc_point side[2];
} corridor_rec;

static cb_status check_corridor(cb_json_reader *r, json_t *entry, const char *where, void *item, void *ctx);
static const cb_json_field corridor_fields[] = {
    CB_JF_VAR_OF(corridor_rec, door, "door", 1, DOORS, CB_JF_REQUIRED, 1),
    CB_JF_POINTS_OF(corridor_rec, points, npoints, "points", 1, 10000, CB_JF_REQUIRED | CB_JF_LEGS),
    CB_JF_POINTS_OF(corridor_rec, side, nside, "side", 2, 2, CB_JF_LEGS | CB_JF_INLINE | CB_JF_OMIT_NULL),
};
static const cb_json_list corridors = {"corridors",          CB_JSON_MAX_ITEMS, 0, corridor_fields, 3,
                                       sizeof(corridor_rec), check_corridor};

/* ---- reading ---- */

static cb_status check_crossing(cb_json_reader *r, json_t *entry, const char *where, void *item, void *ctx) {
  (void)entry, (void)ctx;
  const cb_pc_crossing *c = item;
  if (c->result != cb_crossing_result_of(c->roll))
    return cb_jr_fail(r, where, "roll %d reads '%s' on the crossing table, not '%s'", c->roll,
                      cb_crossing_result_name(cb_crossing_result_of(c->roll)),
                      cb_crossing_result_name(c->result));
  if ((c->room == 0) == (c->door == 0)) return cb_jr_fail(r, where, "give either 'room' or 'door', not both");
  if (c->room && !room_known(r, c->room)) return cb_jr_fail(r, where, "'room' names no room");
  return CB_OK;
}

/* The destination rolls: "rolls" and "via" as read, or the one roll. */
static cb_status check_rolls(cb_json_reader *r, json_t *entry, const char *w, door_rec *rec) {
  cb_pc_door *dr = &rec->door;
  if (json_object_get(entry, "rolls")) {
    if (!json_object_get(entry, "via")) return cb_jr_fail(r, w, "missing field 'via'");
    if (rec->nvia != dr->nrolls) return cb_jr_fail(r, w, "'via' must hold one entry per roll");
    if (rec->roll ? dr->nrolls < 1 || dr->rolls[0] != rec->roll : dr->nrolls != 0)
      return cb_jr_fail(r, w, "'rolls' must start with 'roll'");
    for (int i = 0; i < rec->nvia; i++)
      if (dr->via[i] && !room_known(r, dr->via[i])) return cb_jr_fail(r, w, "'via' names no room");
    return CB_OK;
  }
  dr->rolls = dr->via = NULL, dr->nrolls = 0;
  if (!rec->roll) return CB_OK;
  dr->rolls = cb_arena_alloc(r->d->arena, 1, sizeof *dr->rolls);
  dr->via = cb_arena_alloc(r->d->arena, 1, sizeof *dr->via);
  if (!dr->rolls || !dr->via) return cb_jr_oom(r);
  dr->rolls[0] = rec->roll;
  dr->nrolls = 1;
  return CB_OK;
}

static cb_status check_door(cb_json_reader *r, json_t *entry, const char *w, void *item, void *ctx) {
  (void)ctx;
  door_rec *rec = item;
  const cb_pc_door *dr = &rec->door;
  if (!rec->roll && !dr->extra) /* only the extra door has no destination roll */
    return cb_jr_fail(r, w, "'roll' must be a whole number");
  if (!room_known(r, dr->room)) return cb_jr_fail(r, w, "'room' names no room");
  if (dr->passage && r->d->passages[dr->passage - 1].from != dr->room)
    return cb_jr_fail(r, w, "passage %d does not leave room %d", dr->passage, dr->room);
  if (dr->to && !room_known(r, dr->to)) return cb_jr_fail(r, w, "'to' names no room");
  return check_rolls(r, entry, w, rec);
}

/* The corridor goes to its door (ctx: the doors). */
static cb_status check_corridor(cb_json_reader *r, json_t *entry, const char *where, void *item, void *ctx) {
  (void)entry;
  const corridor_rec *c = item;
  cb_pc_door *dr = &((cb_preconnect_proc *)ctx)->doors[c->door - 1];
  if (dr->points) return cb_jr_fail(r, where, "door %d has two corridors", c->door);
  dr->points = c->points, dr->npoints = c->npoints, dr->nside = c->nside;
  dr->side[0] = c->side[0], dr->side[1] = c->side[1];
  return CB_OK;
}

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

/* Every room has its rectangle. */
static cb_status every_room_drawn(cb_json_reader *r, const cb_preconnect_proc *p) {
  for (int k = 0; k < r->d->nrooms; k++) {
    int found = 0;
    for (int j = 0; j < p->nrooms && !found; j++)
      found = p->rooms[j].room == r->d->rooms[k].id;
    if (!found)
      return cb_jr_fail(r, "procedure.rooms",
                        "room %d has no rectangle (drop the procedure to draw a point-crawl)",
                        r->d->rooms[k].id);
  }
  return CB_OK;
}

static cb_status read_proc(cb_json_reader *r, json_t *o) {
  const char *w = "procedure";
  cb_preconnect_proc *p = cb_arena_alloc(r->d->arena, 1, sizeof *p);
  if (!p) return cb_jr_oom(r);
  r->d->procedure = p;
  cb_jr_array(r, o, w, "rooms", CB_JSON_MAX_ROOMS, 1);
  json_t *all = cb_jr_array(r, o, w, "doors", CB_JSON_MAX_ITEMS, 1);
  cb_jr_array(r, o, w, "corridors", CB_JSON_MAX_ITEMS, 0);
  if (r->st) return r->st;
  const cb_pc_room *first = NULL;
  if (!(p->rooms = cb_jr_list(r, o, w, &rooms, NULL, &first, &p->nrooms)) || every_room_drawn(r, p))
    return r->st;
  const long vars[] = {[DOORS - 1] = (long)json_array_size(all), [PASSAGES - 1] = r->d->npassages};
  int n = 0, nc = 0;
  door_rec *read = cb_jr_list(r, o, w, &doors, vars, NULL, &n);
  if (r->st) return r->st;
  if (!(p->doors = cb_arena_alloc(r->d->arena, (size_t)n + 1, sizeof *p->doors))) return cb_jr_oom(r);
  for (int i = 0; i < n; i++)
    p->doors[i] = read[i].door;
  p->ndoors = n;
  cb_jr_list(r, o, w, &corridors, vars, p, &nc);
  return r->st;
}

/* ---- writing ---- */

static void write_doors(cb_jw *w, const cb_preconnect_proc *p) {
  door_rec *all = cb_calloc((size_t)p->ndoors + 1, sizeof *all);
  corridor_rec *cor = cb_calloc((size_t)p->ndoors + 1, sizeof *cor);
  if (!all || !cor) {
    cb_jw_value(w, NULL); /* out of memory */
  } else {
    for (int i = 0; i < p->ndoors; i++) {
      const cb_pc_door *dr = &p->doors[i];
      all[i] = (door_rec){*dr, dr->nrolls ? dr->rolls[0] : 0, dr->nrolls};
      cor[i] = (corridor_rec){i + 1, dr->npoints, dr->nside, dr->points, {dr->side[0], dr->side[1]}};
    }
    cb_jw_key(w, "doors", 0), cb_jw_list(w, &doors, all, p->ndoors);
    cb_jw_key(w, "corridors", 0), cb_jw_list(w, &corridors, cor, p->ndoors);
  }
  free(all);
  free(cor);
}

static void write_proc(cb_jw *w, const cb_dungeon *d) {
  const cb_preconnect_proc *p = cb_preconnect_of(d);
  cb_jw_raw(w, "{", 1);
  if (p) { /* a hand-made dungeon has no procedure */
    cb_jw_key(w, "rooms", 1), cb_jw_list(w, &rooms, p->rooms, p->nrooms);
    write_doors(w, p);
  }
  cb_jw_raw(w, "}", 1);
}

const cb_proc_io cb_proc_io_preconnect = {
    .generator = "preconnect",
    .write = write_proc,
    .read = read_proc,
};
