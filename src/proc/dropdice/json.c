/* dropdice's procedure in JSON: die_ft, dice, delaunay, tree, extra, rewrites. */
#include "io/json_fields.h"
#include "proc.h"

_Static_assert(sizeof(cb_rewrite_rule) == sizeof(int), "a name field is read and written as an int");
static const char *rule_name(int rule) { return cb_rewrite_rule_name((cb_rewrite_rule)rule); }

static cb_status check_die(cb_json_reader *r, json_t *entry, const char *where, void *item, void *ctx) {
  (void)entry;
  (void)ctx;
  const cb_die *die = item;
  return cb_dungeon_room(r->d, die->room) ? CB_OK : cb_jr_fail(r, where, "'room' names no room");
}

static const cb_json_field die_fields[] = {
    CB_JF_INT_OF(cb_die, room, "room", 1, 1000000000, CB_JF_REQUIRED, 0),
    CB_JF_COORD_OF(cb_die, x, "x", -CB_JSON_MAX_COORD, CB_JSON_MAX_COORD, CB_JF_REQUIRED),
    CB_JF_COORD_OF(cb_die, y, "y", -CB_JSON_MAX_COORD, CB_JSON_MAX_COORD, CB_JF_REQUIRED),
    CB_JF_INT_OF(cb_die, value, "value", 1, 6, CB_JF_REQUIRED, 1),
};
static const cb_json_list dice = {"dice", CB_JSON_MAX_ROOMS, 1, die_fields, 4, sizeof(cb_die), check_die};

enum { NPASSAGES = 1 }; /* the bound a rewrite's passage takes from the dungeon */
static const cb_json_field rewrite_fields[] = {
    CB_JF_VAR_OF(cb_rewrite, passage, "passage", 1, NPASSAGES, CB_JF_REQUIRED, 1),
    CB_JF_NAME_OF(cb_rewrite, rule, "rule", 32, rule_name, cb_rewrite_rule_parse),
};
static const cb_json_list rewrites = {"rewrites", CB_JSON_MAX_ITEMS,  1,   rewrite_fields,
                                      2,          sizeof(cb_rewrite), NULL};

/* Streamed: at 100,000 rooms a jansson tree of the dice and the mesh cost
 * half the run and a hundred megabytes. */
static void write_proc(cb_jw *w, const cb_dungeon *d) {
  const cb_dropdice_proc *p = cb_dropdice_of(d);
  cb_jw_raw(w, "{", 1);
  if (p) { /* a hand-made dungeon has no procedure */
    cb_jw_key(w, "die_ft", 1), cb_jw_real(w, p->die_ft);
    cb_jw_key(w, "area_w", 0), cb_jw_coord(w, p->area_w);
    cb_jw_key(w, "area_h", 0), cb_jw_coord(w, p->area_h);
    cb_jw_key(w, "dice", 0), cb_jw_list(w, &dice, p->dice, p->ndice);
    cb_jw_key(w, "delaunay", 0), cb_jw_pairs(w, p->delaunay, p->ndelaunay);
    cb_jw_key(w, "tree", 0), cb_jw_pairs(w, p->tree, p->ntree);
    cb_jw_key(w, "extra", 0), cb_jw_pairs(w, p->extra, p->nextra);
    cb_jw_key(w, "rewrites", 0), cb_jw_list(w, &rewrites, p->rewrites, p->nrewrites);
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
  if (!(p->dice = cb_jr_list(r, o, w, &dice, NULL, NULL, &p->ndice))) return r->st;
  p->delaunay = cb_jr_pairs(r, o, w, "delaunay", 1, &p->ndelaunay);
  p->tree = cb_jr_pairs(r, o, w, "tree", 1, &p->ntree);
  p->extra = cb_jr_pairs(r, o, w, "extra", 1, &p->nextra);
  if (r->st) return r->st;
  const long vars[] = {[NPASSAGES - 1] = r->d->npassages};
  p->rewrites = cb_jr_list(r, o, w, &rewrites, vars, NULL, &p->nrewrites);
  return r->st;
}

const cb_proc_io cb_proc_io_dropdice = {
    .generator = "dropdice",
    .write = write_proc,
    .read = read_proc,
};
