#include "json_fields.h"

#include <stdio.h>
#include <string.h>

#include "base/alloc.h"

static const void *member(const void *rec, const cb_json_field *f) { return (const char *)rec + f->offset; }
static void *member_w(void *rec, const cb_json_field *f) { return (char *)rec + f->offset; }

/* ["name", ...] of the bits set, lowest first. */
static void put_bits(cb_jw *w, const cb_json_field *f, unsigned bits) {
  cb_jw_raw(w, "[", 1);
  for (int i = 0, first = 1; i < (int)f->hi; i++) {
    if (!(bits & (1u << i))) continue;
    if (!first) cb_jw_raw(w, ",", 1);
    cb_jw_str(w, f->name((int)(1u << i)));
    first = 0;
  }
  cb_jw_raw(w, "]", 1);
}

void cb_jw_fields(cb_jw *w, const cb_json_field *f, int nf, const void *rec, int first) {
  for (int i = 0; i < nf; i++) {
    const void *m = member(rec, &f[i]);
    const char *s = f[i].kind == CB_JF_STR ? *(const char *const *)m : NULL;
    if (f[i].kind == CB_JF_STR && !s && (f[i].flags & CB_JF_OMIT_NULL)) continue;
    if (f[i].omit && f[i].omit(rec)) continue;
    cb_jw_key(w, f[i].key, first);
    first = 0;
    switch (f[i].kind) {
    case CB_JF_INT: cb_jw_int(w, *(const int *)m); break;
    case CB_JF_REAL: cb_jw_real(w, *(const double *)m); break;
    case CB_JF_COORD: cb_jw_coord(w, *(const double *)m); break;
    case CB_JF_STR: cb_jw_str(w, s ? s : ""); break;
    case CB_JF_NAME: cb_jw_str(w, f[i].name(*(const int *)m)); break;
    case CB_JF_BITS: put_bits(w, &f[i], *(const unsigned *)m); break;
    }
  }
}

void cb_jw_list(cb_jw *w, const cb_json_list *l, const void *items, int n) {
  cb_jw_raw(w, "[", 1);
  for (int i = 0; i < n; i++) {
    cb_jw_next(w, i), cb_jw_raw(w, "{", 1);
    cb_jw_fields(w, l->fields, l->nfields, (const char *)items + (size_t)i * l->size, 1);
    cb_jw_raw(w, "}", 1);
  }
  cb_jw_raw(w, "]", 1);
}

/* A name read as a string, then parsed. */
static void read_name(cb_json_reader *r, json_t *obj, const char *where, const cb_json_field *f, int *out) {
  const char *s = cb_jr_str(r, obj, where, f->key, (size_t)f->hi, f->flags & CB_JF_REQUIRED);
  if (r->st || !s) return;
  int v = f->parse(s);
  if (v < 0)
    cb_jr_fail(r, where, "unknown %s '%s'", f->key, s);
  else
    *out = v;
}

cb_status cb_jr_fields(cb_json_reader *r, json_t *obj, const char *where, const cb_json_field *f, int nf,
                       const long *vars, void *rec) {
  for (int i = 0; i < nf && !r->st; i++) {
    void *m = member_w(rec, &f[i]);
    if (r->version < f[i].since) continue;
    int req = (f[i].flags & CB_JF_REQUIRED) != 0;
    long hi = f[i].hi_var > 0 ? vars[f[i].hi_var - 1] : (long)f[i].hi;
    switch (f[i].kind) {
    case CB_JF_INT:
      *(int *)m = cb_jr_int(r, obj, where, f[i].key, (long)f[i].lo, hi, req, (int)f[i].dflt);
      break;
    case CB_JF_REAL:
    case CB_JF_COORD:
      *(double *)m = cb_jr_num(r, obj, where, f[i].key, f[i].lo, f[i].hi, req, f[i].dflt);
      break;
    case CB_JF_STR: *(const char **)m = cb_jr_str(r, obj, where, f[i].key, (size_t)f[i].hi, req); break;
    case CB_JF_NAME: read_name(r, obj, where, &f[i], (int *)m); break;
    case CB_JF_BITS: *(unsigned *)m = cb_jr_bits(r, obj, where, f[i].key, f[i].parse); break;
    }
  }
  return r->st;
}

void *cb_jr_list(cb_json_reader *r, json_t *obj, const char *where, const cb_json_list *l, const long *vars,
                 void *ctx, int *n) {
  *n = 0;
  json_t *a = cb_jr_array(r, obj, where, l->key, l->max, l->required);
  if (r->st) return NULL;
  size_t count = json_array_size(a), i;
  char *items = cb_arena_alloc(r->d->arena, count + 1, l->size);
  if (!items) {
    cb_jr_oom(r);
    return NULL;
  }
  json_t *v;
  json_array_foreach(a, i, v) {
    char at[96];
    snprintf(at, sizeof at, "%s%s%s[%zu]", where, *where ? "." : "", l->key, i);
    if (!json_is_object(v)) {
      cb_jr_fail(r, at, "must be an object");
      return NULL;
    }
    void *item = items + i * l->size;
    if (cb_jr_fields(r, v, at, l->fields, l->nfields, vars, item) ||
        (l->check && l->check(r, v, at, item, ctx)))
      return NULL;
  }
  *n = (int)count;
  return items;
}
