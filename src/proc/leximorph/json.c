/* leximorph's procedure and sketch in JSON.
 * procedure: "sectors" [{col, row, roll, letter, rotation}], "junctions"
 * [{x, y, roll, result, text, room}], "walls" [{x, y, side, roll, result,
 * text, tunnel, rooms}]; result is the effect's name (cb_*_effect_name) and
 * text the table's words. sketch: cols, rows, sector_ft, tunnels [{points:
 * [[x, y], ...], join}], and the sectors, junctions and walls again as the
 * drawing needs them (the short form: no roll, no text), which must agree
 * with the procedure's when both are given; and "doors" [{x, y, way:
 * [ux, uy], roll, result, text, secret, room, stub: [[x, y] x3]}], every
 * door's d20 (result a cb_door_effect_name; stub for passages only). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "io/json_fields.h"
#include "proc.h"

enum { MAX_SECTORS = 144, MAX_POINTS = 100000, MAX_ROOM = 1000000000 };

static const char *junction_name(int e) { return cb_junction_effect_name((cb_junction_effect)e); }
static const char *wall_name(int e) { return cb_wall_effect_name((cb_wall_effect)e); }
static const char *door_name(int e) { return cb_door_effect_name((cb_door_effect)e); }
static const char *side_name(int right) { return right ? "right" : "left"; }
static int side_parse(const char *s) { return strcmp(s, "right") == 0 ? 1 : strcmp(s, "left") == 0 ? 0 : -1; }

/* Each list's entries in the short form (the sketch's) or the long one (the procedure's). */
#define LISTS(name, key, max, fields, T, check)                                                              \
  static const cb_json_list name[2] = {                                                                      \
      {key, max, 1, fields, sizeof fields / sizeof *fields, sizeof(T), check, false},                        \
      {key, max, 1, fields, sizeof fields / sizeof *fields, sizeof(T), check, true}}

static cb_status check_sector(cb_json_reader *r, json_t *e, const char *where, void *item, void *ctx);
static const cb_json_field sector_fields[] = {
    CB_JF_INT_OF(cb_sketch_sector, col, "col", 1, 12, CB_JF_REQUIRED, 1),
    CB_JF_INT_OF(cb_sketch_sector, row, "row", 1, 12, CB_JF_REQUIRED, 1),
    CB_JF_INT_OF(cb_sketch_sector, roll, "roll", 1, 10, CB_JF_REQUIRED | CB_JF_LONG, 1),
    CB_JF_STR_OF(cb_sketch_sector, letter, "letter", 15, CB_JF_REQUIRED),
    CB_JF_INT_OF(cb_sketch_sector, rotation, "rotation", 1, 4, CB_JF_REQUIRED, 1),
};
LISTS(sectors, "sectors", MAX_SECTORS, sector_fields, cb_sketch_sector, check_sector);

static cb_status check_junction(cb_json_reader *r, json_t *e, const char *where, void *item, void *ctx);
static const cb_json_field junction_fields[] = {
    CB_JF_COORD_OF(cb_sketch_junction, x, "x", 0, CB_JSON_MAX_COORD, CB_JF_REQUIRED),
    CB_JF_COORD_OF(cb_sketch_junction, y, "y", 0, CB_JSON_MAX_COORD, CB_JF_REQUIRED),
    CB_JF_INT_OF(cb_sketch_junction, roll, "roll", 1, 6, CB_JF_REQUIRED | CB_JF_LONG, 1),
    CB_JF_NAME_OF(cb_sketch_junction, effect, "result", 32, junction_name, cb_junction_effect_parse),
    CB_JF_STR_OF(cb_sketch_junction, result, "text", 127, CB_JF_LONG),
    CB_JF_INT_OF(cb_sketch_junction, room, "room", 1, MAX_ROOM, CB_JF_OMIT_NULL, 0),
};
LISTS(junctions, "junctions", CB_JSON_MAX_ITEMS, junction_fields, cb_sketch_junction, check_junction);

static cb_status check_wall(cb_json_reader *r, json_t *e, const char *where, void *item, void *ctx);
static const char ROOMS_MUST[] = "name rooms (0 for a door onto a passage)"; /* a wall's rooms */
static const cb_json_field wall_fields[] = {
    CB_JF_COORD_OF(cb_sketch_wall, x, "x", 0, CB_JSON_MAX_COORD, CB_JF_REQUIRED),
    CB_JF_COORD_OF(cb_sketch_wall, y, "y", 0, CB_JSON_MAX_COORD, CB_JF_REQUIRED),
    CB_JF_CHOICE_OF(cb_sketch_wall, right, "side", 8, CB_JF_REQUIRED | CB_JF_IN_BOOL, side_name, side_parse,
                    "left or right"),
    CB_JF_INT_OF(cb_sketch_wall, roll, "roll", 1, 8, CB_JF_REQUIRED | CB_JF_LONG, 1),
    CB_JF_NAME_OF(cb_sketch_wall, effect, "result", 32, wall_name, cb_wall_effect_parse),
    CB_JF_STR_OF(cb_sketch_wall, result, "text", 127, CB_JF_LONG),
    CB_JF_INT_OF(cb_sketch_wall, tunnel, "tunnel", 1, CB_JSON_MAX_ITEMS, CB_JF_REQUIRED | CB_JF_FROM1, 1),
    CB_JF_TRIM_OF(cb_sketch_wall, rooms, "rooms", 0, MAX_ROOM, 2, ROOMS_MUST),
};
LISTS(walls, "walls", CB_JSON_MAX_ITEMS, wall_fields, cb_sketch_wall, check_wall);

/* The map's size, for the sketch's tunnels and doors; the points read so far. */
typedef struct map_ctx {
  double maxx, maxy;
  size_t points;
} map_ctx;

static cb_status check_tunnel(cb_json_reader *r, json_t *e, const char *where, void *item, void *ctx);
static const cb_json_field tunnel_fields[] = {
    CB_JF_POINTS_OF(cb_sketch_tunnel, points, npoints, "points", 2, MAX_POINTS,
                    CB_JF_REQUIRED | CB_JF_UNBOUNDED),
    CB_JF_BOOL_OF(cb_sketch_tunnel, join, "join"),
};
static const cb_json_list tunnels = {
    "tunnels", CB_JSON_MAX_ITEMS, 1, tunnel_fields, 2, sizeof(cb_sketch_tunnel), check_tunnel, false};

static bool has_room(const void *rec) { return ((const cb_sketch_door *)rec)->room != 0; }
static cb_status check_door(cb_json_reader *r, json_t *e, const char *where, void *item, void *ctx);
static const cb_json_field door_fields[] = {
    /* on the map: bounded by check_door */
    CB_JF_COORD_OF(cb_sketch_door, x, "x", -HUGE_VAL, HUGE_VAL, CB_JF_REQUIRED),
    CB_JF_COORD_OF(cb_sketch_door, y, "y", -HUGE_VAL, HUGE_VAL, CB_JF_REQUIRED),
    CB_JF_DIR_OF(cb_sketch_door, ux, "way"),
    CB_JF_INT_OF(cb_sketch_door, roll, "roll", 1, 20, CB_JF_REQUIRED, 1),
    CB_JF_NAME_OF(cb_sketch_door, effect, "result", 32, door_name, cb_door_effect_parse),
    CB_JF_STR_OF(cb_sketch_door, result, "text", 127, 0),
    CB_JF_BOOL_OF(cb_sketch_door, secret, "secret"),
    CB_JF_INT_OF(cb_sketch_door, room, "room", 1, MAX_ROOM, CB_JF_OMIT_NULL, 0),
    CB_JF_FIXED_OF(cb_sketch_door, stub, "stub", CB_STUB_POINTS, CB_JF_UNBOUNDED | CB_JF_AS_WRITTEN,
                   has_room),
};
static const cb_json_list doors = {"doors", CB_JSON_MAX_ITEMS,      0,          door_fields,
                                   9,       sizeof(cb_sketch_door), check_door, false};

/* The sectors, junctions and walls, as the procedure and the sketch hold them. */
typedef struct lists_rec {
  int nsectors, njunctions, nwalls;
  cb_sketch_sector *sectors;
  cb_sketch_junction *junctions;
  cb_sketch_wall *walls;
} lists_rec;
static const cb_json_field list_fields[2][3] = {
    {CB_JF_LIST_OF(lists_rec, sectors, nsectors, &sectors[0]),
     CB_JF_LIST_OF(lists_rec, junctions, njunctions, &junctions[0]),
     CB_JF_LIST_OF(lists_rec, walls, nwalls, &walls[0])},
    {CB_JF_LIST_OF(lists_rec, sectors, nsectors, &sectors[1]),
     CB_JF_LIST_OF(lists_rec, junctions, njunctions, &junctions[1]),
     CB_JF_LIST_OF(lists_rec, walls, nwalls, &walls[1])}};

static const cb_json_field sketch_fields[] = {
    CB_JF_INT_OF(cb_sketch, cols, "cols", 1, 12, CB_JF_REQUIRED, 1),
    CB_JF_INT_OF(cb_sketch, rows, "rows", 1, 12, CB_JF_REQUIRED, 1),
    CB_JF_COORD_OF(cb_sketch, sector_ft, "sector_ft", 1, 100000, CB_JF_REQUIRED),
};

/* ---- writing ---- */

static void write_lists(cb_jw *w, lists_rec l, bool brief, int first) {
  cb_jw_fields(w, list_fields[brief], 3, &l, first);
}

static void write_proc(cb_jw *w, const cb_dungeon *d) {
  const cb_leximorph_proc *p = cb_leximorph_of(d);
  cb_jw_raw(w, "{", 1);
  if (p && p->nsectors >= 0)
    write_lists(w, (lists_rec){p->nsectors, p->njunctions, p->nwalls, p->sectors, p->junctions, p->walls},
                false, 1);
  cb_jw_raw(w, "}", 1);
}

static void write_sketch(cb_jw *w, const cb_dungeon *d) {
  const cb_sketch *s = cb_leximorph_sketch(d);
  cb_jw_raw(w, "{", 1);
  cb_jw_fields(w, sketch_fields, 3, s, 1);
  cb_jw_key(w, "tunnels", 0), cb_jw_list(w, &tunnels, s->tunnels, s->ntunnels);
  cb_jw_key(w, "doors", 0), cb_jw_list(w, &doors, s->doors, s->ndoors);
  write_lists(w, (lists_rec){s->nsectors, s->njunctions, s->nwalls, s->sectors, s->junctions, s->walls}, true,
              0);
  cb_jw_raw(w, "}", 1);
}

/* ---- reading ---- */

static int room_ok(cb_json_reader *r, int id) { return id == 0 || cb_dungeon_room(r->d, id) != NULL; }

/* Reading a list of the sketch's again: the procedure's entries it must
 * agree with (NULL: none, the sketch's are kept), and the next one's index. */
typedef struct agree_ctx {
  const cb_json_list *list;
  const void *theirs;
  const char *what;
  int next;
} agree_ctx;

static cb_status agree(cb_json_reader *r, const char *where, void *item, agree_ctx *a) {
  const cb_json_list *l = a->list;
  if (!a->theirs) return CB_OK;
  const void *theirs = (const char *)a->theirs + (size_t)a->next++ * l->size;
  if (!cb_jf_same(l->fields, l->nfields, theirs, item, true))
    return cb_jr_fail(r, where, "does not agree with the procedure's %s", a->what);
  return CB_OK;
}

static cb_status check_sector(cb_json_reader *r, json_t *e, const char *where, void *item, void *ctx) {
  (void)e;
  return agree(r, where, item, ctx);
}

static cb_status check_junction(cb_json_reader *r, json_t *e, const char *where, void *item, void *ctx) {
  (void)e;
  if (!room_ok(r, ((cb_sketch_junction *)item)->room)) return cb_jr_fail(r, where, "'room' names no room");
  return agree(r, where, item, ctx);
}

static cb_status check_wall(cb_json_reader *r, json_t *e, const char *where, void *item, void *ctx) {
  (void)e;
  const cb_sketch_wall *x = item;
  if (!room_ok(r, x->rooms[0]) || !room_ok(r, x->rooms[1]))
    return cb_jr_fail(r, where, "'rooms' must %s", ROOMS_MUST);
  return agree(r, where, item, ctx);
}

/* The points given lie inside the map. */
static cb_status inside(cb_json_reader *r, const char *where, const map_ctx *m, const cb_sketch_point *p,
                        int n) {
  for (int i = 0; i < n; i++)
    if (!(p[i].x >= 0 && p[i].x <= m->maxx && p[i].y >= 0 && p[i].y <= m->maxy))
      return cb_jr_fail(r, where, "points must be [x, y] inside the %g by %g ft map", m->maxx, m->maxy);
  return CB_OK;
}

static cb_status check_tunnel(cb_json_reader *r, json_t *e, const char *where, void *item, void *ctx) {
  (void)e;
  const cb_sketch_tunnel *t = item;
  map_ctx *m = ctx;
  m->points += (size_t)t->npoints;
  if (m->points > (size_t)CB_JSON_MAX_ITEMS) return cb_jr_fail(r, where, "needs 2 or more points");
  return inside(r, where, m, t->points, t->npoints);
}

static cb_status check_door(cb_json_reader *r, json_t *e, const char *where, void *item, void *ctx) {
  const cb_sketch_door *dr = item;
  const map_ctx *m = ctx;
  if (!(dr->x >= 0 && dr->x <= m->maxx && dr->y >= 0 &&
        dr->y <= m->maxy)) { /* read again within the map, for its message */
    cb_jr_num(r, e, where, "x", 0, m->maxx, 1, 0), cb_jr_num(r, e, where, "y", 0, m->maxy, 1, 0);
    return r->st;
  }
  if (!room_ok(r, dr->room)) return cb_jr_fail(r, where, "'room' names no room");
  if ((dr->room != 0) != (dr->effect == CB_DOOR_ROOM || dr->effect == CB_DOOR_CHAMBER))
    return cb_jr_fail(r, where, "a room or chamber names its room; a passage names none");
  if (dr->room) return CB_OK;
  if (!json_object_get(e, "stub")) return cb_jr_fail(r, where, "missing field 'stub'");
  return inside(r, where, m, dr->stub, CB_STUB_POINTS);
}

/* Reads the three lists into l (when it has none: l->nsectors -1) or
 * checks that they agree with l's. */
static cb_status read_lists(cb_json_reader *r, json_t *o, const char *w, bool brief, lists_rec *l) {
  json_t *sa = cb_jr_array(r, o, w, "sectors", MAX_SECTORS, 1);
  json_t *ja = cb_jr_array(r, o, w, "junctions", CB_JSON_MAX_ITEMS, 1);
  json_t *wa = cb_jr_array(r, o, w, "walls", CB_JSON_MAX_ITEMS, 1);
  if (r->st) return r->st;
  bool fill = l->nsectors < 0;
  if (!fill && ((int)json_array_size(sa) != l->nsectors || (int)json_array_size(ja) != l->njunctions ||
                (int)json_array_size(wa) != l->nwalls))
    return cb_jr_fail(r, w, "its sectors, junctions and walls must be those of the procedure");
  agree_ctx a[3] = {{&sectors[brief], fill ? NULL : l->sectors, "sector", 0},
                    {&junctions[brief], fill ? NULL : l->junctions, "junction", 0},
                    {&walls[brief], fill ? NULL : l->walls, "wall", 0}};
  lists_rec got;
  got.sectors = cb_jr_list(r, o, w, a[0].list, NULL, &a[0], &got.nsectors);
  got.junctions = cb_jr_list(r, o, w, a[1].list, NULL, &a[1], &got.njunctions);
  got.walls = cb_jr_list(r, o, w, a[2].list, NULL, &a[2], &got.nwalls);
  if (fill && !r->st) *l = got;
  return r->st;
}

static cb_status read_proc(cb_json_reader *r, json_t *o) {
  cb_leximorph_proc *p = cb_arena_alloc(r->d->arena, 1, sizeof *p);
  if (!p) return cb_jr_oom(r);
  lists_rec l = {.nsectors = -1};
  if (read_lists(r, o, "procedure", false, &l)) return r->st;
  p->nsectors = l.nsectors, p->njunctions = l.njunctions, p->nwalls = l.nwalls;
  p->sectors = l.sectors, p->junctions = l.junctions, p->walls = l.walls;
  r->d->procedure = p;
  return CB_OK;
}

/* The sketch's lists as a whole: one sector per place, row by row; junctions
 * and walls on the map, each wall on a tunnel. */
static cb_status check_sketch(cb_json_reader *r, const cb_sketch *s, const map_ctx *m) {
  const char *w = "sketch";
  if (s->nsectors != s->cols * s->rows) return cb_jr_fail(r, w, "'sectors' must hold cols x rows sectors");
  for (int k = 0; k < s->nsectors; k++)
    if (s->sectors[k].col != k % s->cols + 1 || s->sectors[k].row != k / s->cols + 1)
      return cb_jr_fail(r, w, "sector %d must be column %d, row %d (row by row from the top left)", k + 1,
                        k % s->cols + 1, k / s->cols + 1);
  for (int k = 0; k < s->njunctions; k++)
    if (s->junctions[k].x > m->maxx || s->junctions[k].y > m->maxy)
      return cb_jr_fail(r, w, "junction %d lies outside the map", k + 1);
  for (int k = 0; k < s->nwalls; k++) {
    if (s->walls[k].tunnel < 0 || s->walls[k].tunnel >= s->ntunnels)
      return cb_jr_fail(r, w, "wall %d names no tunnel", k + 1);
    if (s->walls[k].x > m->maxx || s->walls[k].y > m->maxy)
      return cb_jr_fail(r, w, "wall %d lies outside the map", k + 1);
  }
  return CB_OK;
}

static cb_status read_sketch(cb_json_reader *r, json_t *o) {
  cb_dungeon *d = r->d;
  cb_sketch *s = cb_arena_alloc(d->arena, 1, sizeof *s);
  if (!s) return cb_jr_oom(r);
  if (cb_jr_fields(r, o, "sketch", sketch_fields, 3, NULL, s)) return r->st;
  map_ctx m = {s->cols * s->sector_ft, s->rows * s->sector_ft, 0};
  s->tunnels = cb_jr_list(r, o, "sketch", &tunnels, NULL, &m, &s->ntunnels);
  s->doors = cb_jr_list(r, o, "sketch", &doors, NULL, &m, &s->ndoors);
  if (r->st) return r->st;
  cb_leximorph_proc *p = cb_leximorph_of(d);
  if (p) p->ndoors = s->ndoors, p->doors = s->doors;
  lists_rec l = {.nsectors = -1};
  if (p) l = (lists_rec){p->nsectors, p->njunctions, p->nwalls, p->sectors, p->junctions, p->walls};
  if (read_lists(r, o, "sketch", true, &l)) return r->st;
  s->nsectors = l.nsectors, s->njunctions = l.njunctions, s->nwalls = l.nwalls;
  s->sectors = l.sectors, s->junctions = l.junctions, s->walls = l.walls;
  if (check_sketch(r, s, &m)) return r->st;
  if (!p) { /* a sketch without the procedure's lists: a holder for it alone */
    p = cb_arena_alloc(d->arena, 1, sizeof *p);
    if (!p) return cb_jr_oom(r);
    p->nsectors = -1;
    d->procedure = p;
  }
  p->sketch = s;
  return CB_OK;
}

static bool has_sketch(const cb_dungeon *d) { return cb_leximorph_sketch(d) != NULL; }

static const cb_proc_part parts[] = {{"sketch", has_sketch, write_sketch, read_sketch}};

const cb_proc_io cb_proc_io_leximorph = {
    .generator = "leximorph", .write = write_proc, .read = read_proc, .parts = parts, .nparts = 1};
