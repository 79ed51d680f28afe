/* leximorph's procedure and sketch in JSON.
 * procedure: "sectors" [{col, row, roll, letter, rotation}], "junctions"
 * [{x, y, roll, result, text, room}], "walls" [{x, y, side, roll, result,
 * text, tunnel, rooms}]; result is the effect's name (cb_*_effect_name) and
 * text the table's words. sketch: cols, rows, sector_ft, tunnels [{points:
 * [[x, y], ...], join}], and the sectors, junctions and walls again as the
 * drawing needs them (letter and rotation; position and result), which must
 * agree with the procedure's when both are given; and "doors" [{x, y, way:
 * [ux, uy], roll, result, text, secret, room, stub: [[x, y] x3]}], every
 * door's d20 (result a cb_door_effect_name; stub for passages only). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "io/json_util.h"
#include "proc.h"

enum { MAX_SECTORS = 144, MAX_POINTS = 100000 };

static json_t *sector_json(const cb_sketch_sector *s, int with_roll) {
  json_t *o = json_pack("{s:i,s:i}", "col", s->col, "row", s->row);
  if (!o) return NULL;
  if (with_roll) json_object_set_new(o, "roll", json_integer(s->roll));
  json_object_set_new(o, "letter", json_string(s->letter));
  json_object_set_new(o, "rotation", json_integer(s->rotation));
  return o;
}

static json_t *junction_json(const cb_sketch_junction *j, int with_roll) {
  json_t *o = json_pack("{s:o,s:o}", "x", cb_jv_coord(j->x), "y", cb_jv_coord(j->y));
  if (!o) return NULL;
  if (with_roll) json_object_set_new(o, "roll", json_integer(j->roll));
  json_object_set_new(o, "result", json_string(cb_junction_effect_name(j->effect)));
  if (with_roll) json_object_set_new(o, "text", json_string(j->result ? j->result : ""));
  if (j->room) json_object_set_new(o, "room", json_integer(j->room));
  return o;
}

static json_t *wall_json(const cb_sketch_wall *w, int with_roll) {
  json_t *o = json_pack("{s:o,s:o,s:s}", "x", cb_jv_coord(w->x), "y", cb_jv_coord(w->y), "side",
                        w->right ? "right" : "left");
  if (!o) return NULL;
  if (with_roll) json_object_set_new(o, "roll", json_integer(w->roll));
  json_object_set_new(o, "result", json_string(cb_wall_effect_name(w->effect)));
  if (with_roll) json_object_set_new(o, "text", json_string(w->result ? w->result : ""));
  json_object_set_new(o, "tunnel", json_integer(w->tunnel + 1));
  if (w->rooms[0] || w->rooms[1]) {
    /* 0 where that door of a pair opens on a passage */
    json_t *rooms = json_array();
    for (int k = 0; rooms && k < (w->rooms[1] ? 2 : 1); k++)
      json_array_append_new(rooms, json_integer(w->rooms[k]));
    json_object_set_new(o, "rooms", rooms);
  }
  return o;
}

static json_t *door_json(const cb_sketch_door *dr) {
  json_t *o =
      json_pack("{s:o,s:o,s:[f,f],s:i,s:s,s:s,s:b}", "x", cb_jv_coord(dr->x), "y", cb_jv_coord(dr->y), "way",
                round(dr->ux * 1e4) / 1e4, round(dr->uy * 1e4) / 1e4, "roll", dr->roll, "result",
                cb_door_effect_name(dr->effect), "text", dr->result ? dr->result : "", "secret", dr->secret);
  if (!o) return NULL;
  if (dr->room) {
    json_object_set_new(o, "room", json_integer(dr->room));
    return o;
  }
  json_t *stub = json_array();
  for (int i = 0; stub && i < CB_STUB_POINTS; i++)
    json_array_append_new(stub, json_pack("[o,o]", cb_jv_coord(dr->stub[i].x), cb_jv_coord(dr->stub[i].y)));
  json_object_set_new(o, "stub", stub);
  return o;
}

static json_t *lists(json_t *o, const cb_sketch_sector *s, int ns, const cb_sketch_junction *j, int nj,
                     const cb_sketch_wall *w, int nw, int with_roll) {
  json_t *sa = json_array(), *ja = json_array(), *wa = json_array();
  if (!o || !sa || !ja || !wa) {
    json_decref(o), json_decref(sa), json_decref(ja), json_decref(wa);
    return NULL;
  }
  for (int i = 0; i < ns; i++)
    json_array_append_new(sa, sector_json(&s[i], with_roll));
  for (int i = 0; i < nj; i++)
    json_array_append_new(ja, junction_json(&j[i], with_roll));
  for (int i = 0; i < nw; i++)
    json_array_append_new(wa, wall_json(&w[i], with_roll));
  json_object_set_new(o, "sectors", sa);
  json_object_set_new(o, "junctions", ja);
  json_object_set_new(o, "walls", wa);
  return o;
}

static json_t *build_proc(const cb_dungeon *d) {
  const cb_leximorph_proc *p = cb_leximorph_of(d);
  if (!p || p->nsectors < 0) return json_object();
  return lists(json_object(), p->sectors, p->nsectors, p->junctions, p->njunctions, p->walls, p->nwalls, 1);
}

static json_t *build_sketch(const cb_dungeon *d) {
  const cb_sketch *s = cb_leximorph_sketch(d);
  json_t *o =
      json_pack("{s:i,s:i,s:o}", "cols", s->cols, "rows", s->rows, "sector_ft", cb_jv_coord(s->sector_ft));
  json_t *tunnels = json_array();
  if (!o || !tunnels) {
    json_decref(o), json_decref(tunnels);
    return NULL;
  }
  for (int t = 0; t < s->ntunnels; t++) {
    json_t *pts = json_array();
    for (int i = 0; pts && i < s->tunnels[t].npoints; i++)
      json_array_append_new(pts, json_pack("[o,o]", cb_jv_coord(s->tunnels[t].points[i].x),
                                           cb_jv_coord(s->tunnels[t].points[i].y)));
    json_array_append_new(tunnels, json_pack("{s:o,s:b}", "points", pts, "join", s->tunnels[t].join));
  }
  json_object_set_new(o, "tunnels", tunnels);
  json_t *doors = json_array();
  for (int i = 0; doors && i < s->ndoors; i++)
    json_array_append_new(doors, door_json(&s->doors[i]));
  json_object_set_new(o, "doors", doors);
  return lists(o, s->sectors, s->nsectors, s->junctions, s->njunctions, s->walls, s->nwalls, 0);
}

static int room_ok(cb_json_reader *r, int id) { return id == 0 || cb_dungeon_room(r->d, id) != NULL; }

/* Reads the three lists into the arrays given (allocating them when *n is
 * -1) or, when they exist, checks that they agree. */
static cb_status read_lists(cb_json_reader *r, json_t *o, const char *w, int with_roll,
                            cb_sketch_sector **sec, int *nsec, cb_sketch_junction **jun, int *njun,
                            cb_sketch_wall **wal, int *nwal) {
  cb_arena *a = r->d->arena;
  char where[96];
  json_t *sa = cb_jr_array(r, o, w, "sectors", MAX_SECTORS, 1);
  json_t *ja = cb_jr_array(r, o, w, "junctions", CB_JSON_MAX_ITEMS, 1);
  json_t *wa = cb_jr_array(r, o, w, "walls", CB_JSON_MAX_ITEMS, 1);
  if (r->st) return r->st;
  int fill = *nsec < 0;
  if (fill) {
    *nsec = (int)json_array_size(sa), *njun = (int)json_array_size(ja), *nwal = (int)json_array_size(wa);
    *sec = cb_arena_alloc(a, (size_t)*nsec + 1, sizeof **sec);
    *jun = cb_arena_alloc(a, (size_t)*njun + 1, sizeof **jun);
    *wal = cb_arena_alloc(a, (size_t)*nwal + 1, sizeof **wal);
    if (!*sec || !*jun || !*wal) return cb_jr_oom(r);
  } else if ((int)json_array_size(sa) != *nsec || (int)json_array_size(ja) != *njun ||
             (int)json_array_size(wa) != *nwal) {
    return cb_jr_fail(r, w, "its sectors, junctions and walls must be those of the procedure");
  }
  size_t i;
  json_t *v;
  json_array_foreach(sa, i, v) {
    snprintf(where, sizeof where, "%s.sectors[%zu]", w, i);
    if (!json_is_object(v)) return cb_jr_fail(r, where, "must be an object");
    cb_sketch_sector s = {0};
    s.col = cb_jr_int(r, v, where, "col", 1, 12, 1, 1);
    s.row = cb_jr_int(r, v, where, "row", 1, 12, 1, 1);
    s.roll = with_roll ? cb_jr_int(r, v, where, "roll", 1, 10, 1, 1) : 0;
    s.letter = cb_jr_str(r, v, where, "letter", 15, 1);
    s.rotation = cb_jr_int(r, v, where, "rotation", 1, 4, 1, 1);
    if (r->st) return r->st;
    if (fill)
      (*sec)[i] = s;
    else if ((*sec)[i].col != s.col || (*sec)[i].row != s.row || strcmp((*sec)[i].letter, s.letter) ||
             (*sec)[i].rotation != s.rotation)
      return cb_jr_fail(r, where, "does not agree with the procedure's sector");
  }
  json_array_foreach(ja, i, v) {
    snprintf(where, sizeof where, "%s.junctions[%zu]", w, i);
    if (!json_is_object(v)) return cb_jr_fail(r, where, "must be an object");
    cb_sketch_junction j = {0};
    j.x = cb_jr_num(r, v, where, "x", 0, CB_JSON_MAX_COORD, 1, 0);
    j.y = cb_jr_num(r, v, where, "y", 0, CB_JSON_MAX_COORD, 1, 0);
    j.roll = with_roll ? cb_jr_int(r, v, where, "roll", 1, 6, 1, 1) : 0;
    const char *res = cb_jr_str(r, v, where, "result", 32, 1);
    j.result = with_roll ? cb_jr_str(r, v, where, "text", 127, 0) : NULL;
    j.room = cb_jr_int(r, v, where, "room", 1, 1000000000, 0, 0);
    if (r->st) return r->st;
    int e = cb_junction_effect_parse(res);
    if (e < 0) return cb_jr_fail(r, where, "unknown result '%s'", res);
    j.effect = (cb_junction_effect)e;
    if (!room_ok(r, j.room)) return cb_jr_fail(r, where, "'room' names no room");
    if (fill)
      (*jun)[i] = j;
    else if ((*jun)[i].x != j.x || (*jun)[i].y != j.y || (*jun)[i].effect != j.effect ||
             (*jun)[i].room != j.room)
      return cb_jr_fail(r, where, "does not agree with the procedure's junction");
  }
  json_array_foreach(wa, i, v) {
    snprintf(where, sizeof where, "%s.walls[%zu]", w, i);
    if (!json_is_object(v)) return cb_jr_fail(r, where, "must be an object");
    cb_sketch_wall x = {0};
    x.x = cb_jr_num(r, v, where, "x", 0, CB_JSON_MAX_COORD, 1, 0);
    x.y = cb_jr_num(r, v, where, "y", 0, CB_JSON_MAX_COORD, 1, 0);
    const char *side = cb_jr_str(r, v, where, "side", 8, 1);
    x.roll = with_roll ? cb_jr_int(r, v, where, "roll", 1, 8, 1, 1) : 0;
    const char *res = cb_jr_str(r, v, where, "result", 32, 1);
    x.result = with_roll ? cb_jr_str(r, v, where, "text", 127, 0) : NULL;
    x.tunnel = cb_jr_int(r, v, where, "tunnel", 1, CB_JSON_MAX_ITEMS, 1, 1) - 1;
    json_t *rooms = cb_jr_array(r, v, where, "rooms", 2, 0);
    if (r->st) return r->st;
    if (strcmp(side, "left") && strcmp(side, "right"))
      return cb_jr_fail(r, where, "'side' must be left or right");
    x.right = strcmp(side, "right") == 0;
    int e = cb_wall_effect_parse(res);
    if (e < 0) return cb_jr_fail(r, where, "unknown result '%s'", res);
    x.effect = (cb_wall_effect)e;
    size_t k;
    json_t *rv;
    json_array_foreach(rooms, k, rv) {
      if (!json_is_integer(rv) || json_integer_value(rv) < 0 || json_integer_value(rv) > 1000000000 ||
          !room_ok(r, (int)json_integer_value(rv)))
        return cb_jr_fail(r, where, "'rooms' must name rooms (0 for a door onto a passage)");
      x.rooms[k] = (int)json_integer_value(rv);
    }
    if (fill)
      (*wal)[i] = x;
    else if ((*wal)[i].x != x.x || (*wal)[i].y != x.y || (*wal)[i].effect != x.effect ||
             (*wal)[i].right != x.right || (*wal)[i].tunnel != x.tunnel || (*wal)[i].rooms[0] != x.rooms[0] ||
             (*wal)[i].rooms[1] != x.rooms[1])
      return cb_jr_fail(r, where, "does not agree with the procedure's wall");
  }
  return r->st;
}

/* A point [x, y] inside the map, or a failure. */
static int read_point(cb_json_reader *r, json_t *pv, const char *where, double maxx, double maxy,
                      cb_sketch_point *p) {
  json_t *x = json_array_get(pv, 0), *y = json_array_get(pv, 1);
  if (!json_is_array(pv) || json_array_size(pv) != 2 || !json_is_number(x) || !json_is_number(y) ||
      !(json_number_value(x) >= 0 && json_number_value(x) <= maxx) ||
      !(json_number_value(y) >= 0 && json_number_value(y) <= maxy)) {
    cb_jr_fail(r, where, "points must be [x, y] inside the %g by %g ft map", maxx, maxy);
    return 0;
  }
  *p = (cb_sketch_point){json_number_value(x), json_number_value(y)};
  return 1;
}

static cb_status read_door(cb_json_reader *r, json_t *v, const char *where, double maxx, double maxy,
                           cb_sketch_door *dr) {
  if (!json_is_object(v)) return cb_jr_fail(r, where, "must be an object");
  dr->x = cb_jr_num(r, v, where, "x", 0, maxx, 1, 0);
  dr->y = cb_jr_num(r, v, where, "y", 0, maxy, 1, 0);
  dr->roll = cb_jr_int(r, v, where, "roll", 1, 20, 1, 1);
  const char *res = cb_jr_str(r, v, where, "result", 32, 1);
  dr->result = cb_jr_str(r, v, where, "text", 127, 0);
  dr->room = cb_jr_int(r, v, where, "room", 1, 1000000000, 0, 0);
  json_t *way = cb_jr_array(r, v, where, "way", 2, 1), *sv = json_object_get(v, "secret");
  if (r->st) return r->st;
  if (json_array_size(way) != 2 || !json_is_number(json_array_get(way, 0)) ||
      !json_is_number(json_array_get(way, 1)))
    return cb_jr_fail(r, where, "'way' must be [ux, uy]");
  dr->ux = json_number_value(json_array_get(way, 0)), dr->uy = json_number_value(json_array_get(way, 1));
  if (!(fabs(dr->ux) <= 1 && fabs(dr->uy) <= 1)) return cb_jr_fail(r, where, "'way' must be a direction");
  if (sv && !json_is_boolean(sv)) return cb_jr_fail(r, where, "'secret' must be true or false");
  dr->secret = json_is_true(sv);
  int e = cb_door_effect_parse(res);
  if (e < 0) return cb_jr_fail(r, where, "unknown result '%s'", res);
  dr->effect = (cb_door_effect)e;
  if (!room_ok(r, dr->room)) return cb_jr_fail(r, where, "'room' names no room");
  if ((dr->room != 0) != (e == CB_DOOR_ROOM || e == CB_DOOR_CHAMBER))
    return cb_jr_fail(r, where, "a room or chamber names its room; a passage names none");
  if (dr->room) return CB_OK;
  json_t *stub = cb_jr_array(r, v, where, "stub", CB_STUB_POINTS, 1);
  if (r->st) return r->st;
  if (json_array_size(stub) != CB_STUB_POINTS)
    return cb_jr_fail(r, where, "'stub' needs %d points", CB_STUB_POINTS);
  for (int i = 0; i < CB_STUB_POINTS; i++)
    if (!read_point(r, json_array_get(stub, (size_t)i), where, maxx, maxy, &dr->stub[i])) return r->st;
  return CB_OK;
}

static cb_status read_doors(cb_json_reader *r, json_t *o, cb_sketch *s, double maxx, double maxy) {
  json_t *doors = cb_jr_array(r, o, "sketch", "doors", CB_JSON_MAX_ITEMS, 0);
  if (r->st) return r->st;
  s->ndoors = (int)json_array_size(doors);
  s->doors = cb_arena_alloc(r->d->arena, (size_t)s->ndoors + 1, sizeof *s->doors);
  if (!s->doors) return cb_jr_oom(r);
  size_t i;
  json_t *v;
  json_array_foreach(doors, i, v) {
    char where[64];
    snprintf(where, sizeof where, "sketch.doors[%zu]", i);
    if (read_door(r, v, where, maxx, maxy, &s->doors[i])) return r->st;
  }
  if (cb_leximorph_of(r->d))
    cb_leximorph_of(r->d)->ndoors = s->ndoors, cb_leximorph_of(r->d)->doors = s->doors;
  return CB_OK;
}

static cb_status read_proc(cb_json_reader *r, json_t *o) {
  cb_leximorph_proc *p = cb_arena_alloc(r->d->arena, 1, sizeof *p);
  if (!p) return cb_jr_oom(r);
  p->nsectors = -1;
  if (read_lists(r, o, "procedure", 1, &p->sectors, &p->nsectors, &p->junctions, &p->njunctions, &p->walls,
                 &p->nwalls))
    return r->st;
  r->d->procedure = p;
  return CB_OK;
}

static cb_status read_sketch(cb_json_reader *r, json_t *o) {
  cb_dungeon *d = r->d;
  cb_sketch *s = cb_arena_alloc(d->arena, 1, sizeof *s);
  if (!s) return cb_jr_oom(r);
  const char *w = "sketch";
  s->cols = cb_jr_int(r, o, w, "cols", 1, 12, 1, 1);
  s->rows = cb_jr_int(r, o, w, "rows", 1, 12, 1, 1);
  s->sector_ft = cb_jr_num(r, o, w, "sector_ft", 1, 100000, 1, 240);
  json_t *tunnels = cb_jr_array(r, o, w, "tunnels", CB_JSON_MAX_ITEMS, 1);
  if (r->st) return r->st;
  double maxx = s->cols * s->sector_ft, maxy = s->rows * s->sector_ft;
  s->ntunnels = (int)json_array_size(tunnels);
  s->tunnels = cb_arena_alloc(d->arena, (size_t)s->ntunnels + 1, sizeof *s->tunnels);
  if (!s->tunnels) return cb_jr_oom(r);
  size_t i, total = 0;
  json_t *v;
  json_array_foreach(tunnels, i, v) {
    char where[64];
    snprintf(where, sizeof where, "sketch.tunnels[%zu]", i);
    if (!json_is_object(v)) return cb_jr_fail(r, where, "must be an object");
    json_t *pts = cb_jr_array(r, v, where, "points", MAX_POINTS, 1);
    json_t *jv = json_object_get(v, "join");
    if (jv && !json_is_boolean(jv)) return cb_jr_fail(r, where, "'join' must be true or false");
    if (r->st) return r->st;
    cb_sketch_tunnel *t = &s->tunnels[i];
    t->join = json_is_true(jv);
    t->npoints = (int)json_array_size(pts);
    total += (size_t)t->npoints;
    if (t->npoints < 2 || total > (size_t)CB_JSON_MAX_ITEMS)
      return cb_jr_fail(r, where, "needs 2 or more points");
    t->points = cb_arena_alloc(d->arena, (size_t)t->npoints, sizeof *t->points);
    if (!t->points) return cb_jr_oom(r);
    size_t k;
    json_t *pv;
    json_array_foreach(pts, k, pv) if (!read_point(r, pv, where, maxx, maxy, &t->points[k])) return r->st;
  }
  if (read_doors(r, o, s, maxx, maxy)) return r->st;
  cb_leximorph_proc *p = cb_leximorph_of(d);
  if (p) {
    s->sectors = p->sectors, s->nsectors = p->nsectors;
    s->junctions = p->junctions, s->njunctions = p->njunctions;
    s->walls = p->walls, s->nwalls = p->nwalls;
  } else {
    s->nsectors = -1;
  }
  if (read_lists(r, o, w, 0, &s->sectors, &s->nsectors, &s->junctions, &s->njunctions, &s->walls, &s->nwalls))
    return r->st;
  if (s->nsectors != s->cols * s->rows) return cb_jr_fail(r, w, "'sectors' must hold cols x rows sectors");
  for (int k = 0; k < s->nsectors; k++)
    if (s->sectors[k].col != k % s->cols + 1 || s->sectors[k].row != k / s->cols + 1)
      return cb_jr_fail(r, w, "sector %d must be column %d, row %d (row by row from the top left)", k + 1,
                        k % s->cols + 1, k / s->cols + 1);
  for (int k = 0; k < s->njunctions; k++)
    if (s->junctions[k].x > maxx || s->junctions[k].y > maxy)
      return cb_jr_fail(r, w, "junction %d lies outside the map", k + 1);
  for (int k = 0; k < s->nwalls; k++) {
    if (s->walls[k].tunnel < 0 || s->walls[k].tunnel >= s->ntunnels)
      return cb_jr_fail(r, w, "wall %d names no tunnel", k + 1);
    if (s->walls[k].x > maxx || s->walls[k].y > maxy)
      return cb_jr_fail(r, w, "wall %d lies outside the map", k + 1);
  }
  if (!p) { /* a sketch without the procedure's lists: a holder for it alone */
    p = cb_arena_alloc(d->arena, 1, sizeof *p);
    if (!p) return cb_jr_oom(r);
    p->nsectors = -1;
    d->procedure = p;
  }
  p->sketch = s;
  return CB_OK;
}

static void write_proc(cb_jw *w, const cb_dungeon *d) { cb_jw_value(w, build_proc(d)); }
static void write_sketch(cb_jw *w, const cb_dungeon *d) { cb_jw_value(w, build_sketch(d)); }

static bool has_sketch(const cb_dungeon *d) { return cb_leximorph_sketch(d) != NULL; }

static const cb_proc_part parts[] = {{"sketch", has_sketch, write_sketch, read_sketch}};

const cb_proc_io cb_proc_io_leximorph = {
    .generator = "leximorph", .write = write_proc, .read = read_proc, .parts = parts, .nparts = 1};
