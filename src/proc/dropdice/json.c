/* dropdice's procedure in JSON: die_ft, dice, delaunay, tree, extra, rewrites. */
#include "io/json_util.h"
#include "proc.h"

/* Streamed: at 100,000 rooms a jansson tree of the dice and the mesh cost
 * half the run and a hundred megabytes. */
static void write_proc(cb_jw *w, const cb_dungeon *d) {
  const cb_dropdice_proc *p = cb_dropdice_of(d);
  cb_jw_raw(w, "{", 1);
  if (p) { /* a hand-made dungeon has no procedure */
    cb_jw_key(w, "die_ft", 1), cb_jw_real(w, p->die_ft);
    cb_jw_key(w, "area_w", 0), cb_jw_coord(w, p->area_w);
    cb_jw_key(w, "area_h", 0), cb_jw_coord(w, p->area_h);
    cb_jw_key(w, "dice", 0), cb_jw_raw(w, "[", 1);
    for (int i = 0; i < p->ndice; i++) {
      cb_jw_next(w, i), cb_jw_raw(w, "{", 1);
      cb_jw_key(w, "room", 1), cb_jw_int(w, p->dice[i].room);
      cb_jw_key(w, "x", 0), cb_jw_coord(w, p->dice[i].x);
      cb_jw_key(w, "y", 0), cb_jw_coord(w, p->dice[i].y);
      cb_jw_key(w, "value", 0), cb_jw_int(w, p->dice[i].value);
      cb_jw_raw(w, "}", 1);
    }
    cb_jw_raw(w, "]", 1);
    cb_jw_key(w, "delaunay", 0), cb_jw_pairs(w, p->delaunay, p->ndelaunay);
    cb_jw_key(w, "tree", 0), cb_jw_pairs(w, p->tree, p->ntree);
    cb_jw_key(w, "extra", 0), cb_jw_pairs(w, p->extra, p->nextra);
    cb_jw_key(w, "rewrites", 0), cb_jw_raw(w, "[", 1);
    for (int i = 0; i < p->nrewrites; i++) {
      cb_jw_next(w, i), cb_jw_raw(w, "{", 1);
      cb_jw_key(w, "passage", 1), cb_jw_int(w, p->rewrites[i].passage);
      cb_jw_key(w, "rule", 0), cb_jw_str(w, cb_rewrite_rule_name(p->rewrites[i].rule));
      cb_jw_raw(w, "}", 1);
    }
    cb_jw_raw(w, "]", 1);
  }
  cb_jw_raw(w, "}", 1);
}

static cb_status read_proc(cb_json_reader *r, json_t *o) {
  const char *w = "procedure";
  cb_dropdice_proc *p = cb_arena_alloc(r->d->arena, 1, sizeof *p);
  if (!p) return cb_jr_oom(r);
  r->d->procedure = p;
  p->die_ft = cb_jr_num(r, o, w, "die_ft", 0.01, 1000, 1, 10);
  r->d->room_ft = p->die_ft, r->d->marks_rooms = true;
  p->area_w = cb_jr_num(r, o, w, "area_w", 0, CB_JSON_MAX_COORD, 0, 0);
  p->area_h = cb_jr_num(r, o, w, "area_h", 0, CB_JSON_MAX_COORD, 0, 0);
  json_t *dice = cb_jr_array(r, o, w, "dice", CB_JSON_MAX_ROOMS, 1);
  if (!dice) return r->st;
  size_t n = json_array_size(dice), i;
  p->dice = cb_arena_alloc(r->d->arena, n + 1, sizeof *p->dice);
  if (!p->dice) return cb_jr_oom(r);
  json_t *v;
  json_array_foreach(dice, i, v) {
    char where[64];
    snprintf(where, sizeof where, "procedure.dice[%zu]", i);
    if (!json_is_object(v)) return cb_jr_fail(r, where, "must be an object");
    p->dice[i].room = cb_jr_int(r, v, where, "room", 1, 1000000000, 1, 0);
    p->dice[i].x = cb_jr_num(r, v, where, "x", -CB_JSON_MAX_COORD, CB_JSON_MAX_COORD, 1, 0);
    p->dice[i].y = cb_jr_num(r, v, where, "y", -CB_JSON_MAX_COORD, CB_JSON_MAX_COORD, 1, 0);
    p->dice[i].value = cb_jr_int(r, v, where, "value", 1, 6, 1, 1);
    if (r->st) return r->st;
    if (!cb_dungeon_room(r->d, p->dice[i].room)) return cb_jr_fail(r, where, "'room' names no room");
  }
  p->ndice = (int)n;
  p->delaunay = cb_jr_pairs(r, o, w, "delaunay", 1, &p->ndelaunay);
  p->tree = cb_jr_pairs(r, o, w, "tree", 1, &p->ntree);
  p->extra = cb_jr_pairs(r, o, w, "extra", 1, &p->nextra);
  json_t *rw = cb_jr_array(r, o, w, "rewrites", CB_JSON_MAX_ITEMS, 1);
  if (!rw) return r->st;
  n = json_array_size(rw);
  p->rewrites = cb_arena_alloc(r->d->arena, n + 1, sizeof *p->rewrites);
  if (!p->rewrites) return cb_jr_oom(r);
  json_array_foreach(rw, i, v) {
    char where[64];
    snprintf(where, sizeof where, "procedure.rewrites[%zu]", i);
    if (!json_is_object(v)) return cb_jr_fail(r, where, "must be an object");
    p->rewrites[i].passage = cb_jr_int(r, v, where, "passage", 1, r->d->npassages, 1, 1);
    const char *rule = cb_jr_str(r, v, where, "rule", 32, 1);
    if (r->st) return r->st;
    int k = cb_rewrite_rule_parse(rule);
    if (k < 0) return cb_jr_fail(r, where, "unknown rule '%s'", rule);
    p->rewrites[i].rule = (cb_rewrite_rule)k;
  }
  p->nrewrites = (int)n;
  return r->st;
}

const cb_proc_io cb_proc_io_dropdice = {
    .generator = "dropdice",
    .write = write_proc,
    .read = read_proc,
};
