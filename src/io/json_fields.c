#include "json_fields.h"

#include <math.h>
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

static const char *key_of(const cb_json_field *f) { return f->kind == CB_JF_LIST ? f->list->key : f->key; }
static int count_of(const void *rec, const cb_json_field *f) {
  return *(const int *)((const char *)rec + f->count);
}
/* The count of an array without one: FIXED, all; TRIM, the entries up to the last non-zero one. */
static int trimmed(const void *m, const cb_json_field *f) {
  int n = f->max;
  if (f->kind == CB_JF_POINTS) return n; /* CB_JF_FIXED */
  while (n > 0 && !((const int *)m)[n - 1])
    n--;
  return n;
}
static int name_value(const void *m, const cb_json_field *f) {
  return f->flags & CB_JF_IN_BOOL ? *(const bool *)m : *(const int *)m;
}

static void put_point(cb_jw *w, const double *p) {
  cb_jw_raw(w, "[", 1), cb_jw_coord(w, p[0]), cb_jw_raw(w, ",", 1), cb_jw_coord(w, p[1]),
      cb_jw_raw(w, "]", 1);
}

/* [[x, y], ...] or [n, ...]: the count's entries of the member's array. */
static void put_array(cb_jw *w, const cb_json_field *f, const void *m, int n) {
  const void *a = f->flags & (CB_JF_INLINE | CB_JF_TRIM | CB_JF_FIXED) ? m : *(const void *const *)m;
  cb_jw_raw(w, "[", 1);
  for (int i = 0; i < n; i++) {
    cb_jw_next(w, i);
    if (f->kind == CB_JF_POINTS)
      put_point(w, (const double *)a + 2 * i);
    else
      cb_jw_int(w, ((const int *)a)[i]);
  }
  cb_jw_raw(w, "]", 1);
}

static void put_dir(cb_jw *w, const double *u) {
  cb_jw_raw(w, "[", 1), cb_jw_real(w, round(u[0] * 1e4) / 1e4), cb_jw_raw(w, ",", 1),
      cb_jw_real(w, round(u[1] * 1e4) / 1e4), cb_jw_raw(w, "]", 1);
}

static void put_pair(cb_jw *w, int a, int b) {
  cb_jw_raw(w, "[", 1), cb_jw_int(w, a), cb_jw_raw(w, ",", 1), cb_jw_int(w, b), cb_jw_raw(w, "]", 1);
}

static void put_pairs(cb_jw *w, const int (*a)[2], int n) {
  cb_jw_raw(w, "[", 1);
  for (int i = 0; i < n; i++)
    cb_jw_next(w, i), put_pair(w, a[i][0], a[i][1]);
  cb_jw_raw(w, "]", 1);
}

static void put_strs(cb_jw *w, const char *const *a, int n) {
  cb_jw_raw(w, "[", 1);
  for (int i = 0; i < n; i++)
    cb_jw_next(w, i), cb_jw_str(w, a[i]);
  cb_jw_raw(w, "]", 1);
}

/* Whether rec's field i is left out. */
static bool left_out(const cb_json_field *f, const void *rec, const void *m) {
  if (f->flags & CB_JF_OMIT_NULL) {
    if (f->kind == CB_JF_STR && !*(const char *const *)m) return true;
    if (f->kind == CB_JF_POINTS && !count_of(rec, f)) return true;
    if (f->kind == CB_JF_INT && !*(const int *)m) return true;
  }
  if ((f->flags & CB_JF_TRIM) && !trimmed(m, f)) return true;
  return f->omit && f->omit(rec);
}

static void put_field(cb_jw *w, const cb_json_field *f, const void *rec, const void *m) {
  switch (f->kind) {
  case CB_JF_INT:
    if ((f->flags & CB_JF_ZERO_NULL) && !*(const int *)m)
      cb_jw_put(w, "null");
    else
      cb_jw_int(w, *(const int *)m + (f->flags & CB_JF_FROM1 ? 1 : 0));
    break;
  case CB_JF_REAL: cb_jw_real(w, *(const double *)m); break;
  case CB_JF_COORD: cb_jw_coord(w, *(const double *)m); break;
  case CB_JF_STR: cb_jw_str(w, *(const char *const *)m ? *(const char *const *)m : ""); break;
  case CB_JF_NAME: cb_jw_str(w, f->name(name_value(m, f))); break;
  case CB_JF_BITS: put_bits(w, f, *(const unsigned *)m); break;
  case CB_JF_BOOL: cb_jw_put(w, *(const bool *)m ? "true" : "false"); break;
  case CB_JF_POINT: put_point(w, m); break;
  case CB_JF_POINTS:
  case CB_JF_INTS:
    put_array(w, f, m, f->flags & (CB_JF_TRIM | CB_JF_FIXED) ? trimmed(m, f) : count_of(rec, f));
    break;
  case CB_JF_LIST: cb_jw_list(w, f->list, *(const void *const *)m, count_of(rec, f)); break;
  case CB_JF_PAIR: put_pair(w, *(const int *)m, count_of(rec, f)); break;
  case CB_JF_PAIRS: put_pairs(w, *(const int(*const *)[2])m, count_of(rec, f)); break;
  case CB_JF_MARKS: put_strs(w, *(const char *const *const *)m, count_of(rec, f)); break;
  case CB_JF_DIR: put_dir(w, m); break;
  }
}

/* Whether field f is not in the form (brief: the short one). */
static bool skipped(const cb_json_field *f, bool brief) { return brief && (f->flags & CB_JF_LONG); }

static void put_fields(cb_jw *w, const cb_json_field *f, int nf, const void *rec, int first, bool brief) {
  for (int i = 0; i < nf; i++) {
    const void *m = member(rec, &f[i]);
    if (skipped(&f[i], brief) || left_out(&f[i], rec, m)) continue;
    cb_jw_key(w, key_of(&f[i]), first);
    first = 0;
    put_field(w, &f[i], rec, m);
  }
}

void cb_jw_fields(cb_jw *w, const cb_json_field *f, int nf, const void *rec, int first) {
  put_fields(w, f, nf, rec, first, false);
}

static bool same_field(const cb_json_field *f, const void *a, const void *b) {
  const double *x = a, *y = b;
  switch (f->kind) {
  case CB_JF_INT: return *(const int *)a == *(const int *)b;
  case CB_JF_NAME: return name_value(a, f) == name_value(b, f);
  case CB_JF_BOOL: return *(const bool *)a == *(const bool *)b;
  case CB_JF_REAL:
  case CB_JF_COORD: return x[0] == y[0];
  case CB_JF_POINT:
  case CB_JF_DIR: return x[0] == y[0] && x[1] == y[1];
  case CB_JF_STR: {
    const char *s = *(const char *const *)a, *t = *(const char *const *)b;
    return s == t || (s && t && strcmp(s, t) == 0);
  }
  case CB_JF_INTS:
  case CB_JF_POINTS:
    if (f->flags & CB_JF_TRIM) return memcmp(a, b, (size_t)f->max * sizeof(int)) == 0;
    for (int i = 0; (f->flags & CB_JF_FIXED) && i < 2 * f->max; i++)
      if (x[i] != y[i]) return false;
    return true;
  default: return true;
  }
}

bool cb_jf_same(const cb_json_field *f, int nf, const void *a, const void *b, bool brief) {
  for (int i = 0; i < nf; i++)
    if (!skipped(&f[i], brief) && !same_field(&f[i], member(a, &f[i]), member(b, &f[i]))) return false;
  return true;
}

void cb_jw_list(cb_jw *w, const cb_json_list *l, const void *items, int n) {
  cb_jw_raw(w, "[", 1);
  for (int i = 0; i < n; i++) {
    cb_jw_next(w, i), cb_jw_raw(w, "{", 1);
    put_fields(w, l->fields, l->nfields, (const char *)items + (size_t)i * l->size, 1, l->brief);
    cb_jw_raw(w, "}", 1);
  }
  cb_jw_raw(w, "]", 1);
}

/* A name read as a string, then parsed. */
static void read_name(cb_json_reader *r, json_t *obj, const char *where, const cb_json_field *f, void *out) {
  const char *s = cb_jr_str(r, obj, where, f->key, (size_t)f->hi, f->flags & CB_JF_REQUIRED);
  if (r->st || !s) return;
  int v = f->parse(s);
  if (v < 0)
    cb_jr_fail(r, where, "unknown %s '%s'%s%s%s", f->key, s, f->choices ? " (" : "",
               f->choices ? f->choices : "", f->choices ? ")" : "");
  else if (f->flags & CB_JF_IN_BOOL)
    *(bool *)out = v != 0;
  else
    *(int *)out = v;
}

/* An int, or (ZERO_NULL) null read as 0. */
static int read_int(cb_json_reader *r, json_t *obj, const char *where, const cb_json_field *f, long hi) {
  json_t *v = json_object_get(obj, f->key);
  if ((f->flags & CB_JF_ZERO_NULL) && json_is_null(v)) return 0;
  if (!v && (f->flags & CB_JF_ZERO_NULL)) {
    if (f->flags & CB_JF_REQUIRED) cb_jr_fail(r, where, "missing field '%s'", f->key);
    return 0;
  }
  int x = cb_jr_int(r, obj, where, f->key, (long)f->lo, hi, f->flags & CB_JF_REQUIRED, (int)f->dflt);
  return f->flags & CB_JF_FROM1 ? x - 1 : x;
}

/* [ux, uy], each -1..1. */
static void read_dir(cb_json_reader *r, json_t *obj, const char *where, const cb_json_field *f, double *out) {
  json_t *a = cb_jr_array(r, obj, where, f->key, 2, f->flags & CB_JF_REQUIRED);
  if (!a) return;
  json_t *x = json_array_get(a, 0), *y = json_array_get(a, 1);
  if (json_array_size(a) != 2 || !json_is_number(x) || !json_is_number(y)) {
    cb_jr_fail(r, where, "'%s' must be [ux, uy]", f->key);
    return;
  }
  out[0] = json_number_value(x), out[1] = json_number_value(y);
  if (!(fabs(out[0]) <= 1 && fabs(out[1]) <= 1)) cb_jr_fail(r, where, "'%s' must be a direction", f->key);
}

static void read_bool(cb_json_reader *r, json_t *obj, const char *where, const cb_json_field *f, bool *out) {
  json_t *v = cb_jr_field(r, obj, where, f->key, JSON_TRUE, f->flags & CB_JF_REQUIRED);
  *out = v && json_is_true(v);
}

/* [x, y] in feet, each within +-lim (the message names no key: the place does). */
static int read_point(cb_json_reader *r, json_t *v, const char *where, double lim, double *out) {
  if (!json_is_array(v) || json_array_size(v) != 2 || !json_is_number(json_array_get(v, 0)) ||
      !json_is_number(json_array_get(v, 1)))
    return cb_jr_fail(r, where, "a point must be [x, y] in feet"), -1;
  double x = json_number_value(json_array_get(v, 0)), y = json_number_value(json_array_get(v, 1));
  if (!(x >= -lim && x <= lim && y >= -lim && y <= lim))
    return cb_jr_fail(r, where, "a point lies outside +-%g ft", CB_JSON_MAX_COORD), -1;
  out[0] = x, out[1] = y;
  return 0;
}

/* Entry i of an array of points or ints into a[i]. */
static int read_entry(cb_json_reader *r, json_t *v, const char *where, const cb_json_field *f, void *a,
                      size_t i) {
  if (f->kind == CB_JF_INTS) {
    if (!json_is_integer(v) || json_integer_value(v) < f->lo || json_integer_value(v) > f->hi)
      return (f->choices ? cb_jr_fail(r, where, "'%s' must %s", f->key, f->choices)
                         : cb_jr_fail(r, where, "'%s' must hold whole numbers from %ld to %ld", f->key,
                                      (long)f->lo, (long)f->hi)),
             -1;
    ((int *)a)[i] = (int)json_integer_value(v);
    return 0;
  }
  double *p = (double *)a + 2 * i;
  if (read_point(r, v, where, f->flags & CB_JF_UNBOUNDED ? HUGE_VAL : CB_JSON_MAX_COORD, p)) return -1;
  if ((f->flags & CB_JF_LEGS) && i > 0 && p[0] != p[-2] && p[1] != p[-1])
    return cb_jr_fail(r, where, "'%s': legs must run north-south or east-west", f->key), -1;
  return 0;
}

/* An array of points or ints into arena memory (or the member itself). */
static void read_array(cb_json_reader *r, json_t *obj, const char *where, const cb_json_field *f, void *m,
                       int *n) {
  json_t *a = cb_jr_array(r, obj, where, f->key, (size_t)f->max, f->flags & CB_JF_REQUIRED);
  if (!a) return;
  size_t count = json_array_size(a), size = f->kind == CB_JF_INTS ? sizeof(int) : 2 * sizeof(double), i;
  if (count < (size_t)f->min) {
    cb_jr_fail(r, where, "'%s' needs %s%d points", f->key, f->flags & CB_JF_FIXED ? "" : "at least ", f->min);
    return;
  }
  void *out =
      f->flags & (CB_JF_INLINE | CB_JF_TRIM | CB_JF_FIXED) ? m : cb_arena_alloc(r->d->arena, count + 1, size);
  if (!out) {
    cb_jr_oom(r);
    return;
  }
  json_t *v;
  json_array_foreach(a, i, v) {
    if (read_entry(r, v, where, f, out, i)) return;
  }
  if (f->flags & (CB_JF_TRIM | CB_JF_FIXED)) return;
  if (!(f->flags & CB_JF_INLINE)) *(void **)m = out;
  *n = (int)count;
}

/* The bound numbered var (vars), or the fixed one. */
static long bound(const long *vars, int var, double fixed) { return var > 0 ? vars[var - 1] : (long)fixed; }

/* v as [a, b] into out ("LABEL must be [a, b] with ..." when it is not). */
static int read_pair(cb_json_reader *r, json_t *v, const char *where, const char *label,
                     const cb_json_field *f, const long *vars, int out[2]) {
  json_t *a = json_array_get(v, 0), *b = json_array_get(v, 1);
  long hi = bound(vars, f->hi_var, f->hi), hi2 = bound(vars, f->hi_var2, f->hi2);
  if (json_array_size(v) != 2 || !json_is_integer(a) || !json_is_integer(b) ||
      json_integer_value(a) < f->lo || json_integer_value(a) > hi || json_integer_value(b) < f->lo2 ||
      json_integer_value(b) > hi2)
    return cb_jr_fail(r, where, "%s must be [%s, %s] with a %s %ld to %ld and a %s %ld to %ld", label,
                      f->part[0], f->part[1], f->part[0], (long)f->lo, hi, f->part[1], (long)f->lo2, hi2),
           -1;
  out[0] = (int)json_integer_value(a), out[1] = (int)json_integer_value(b);
  return 0;
}

/* [a, b] into the member and the int at f->count. */
static void read_one_pair(cb_json_reader *r, json_t *obj, const char *where, const cb_json_field *f,
                          const long *vars, void *rec) {
  json_t *v = cb_jr_field(r, obj, where, f->key, JSON_ARRAY, f->flags & CB_JF_REQUIRED);
  char label[64];
  int p[2];
  snprintf(label, sizeof label, "'%s'", f->key);
  if (!v || read_pair(r, v, where, label, f, vars, p)) return;
  *(int *)member_w(rec, f) = p[0], *(int *)((char *)rec + f->count) = p[1];
}

/* [[a, b], ...] into arena memory. */
static void read_pairs(cb_json_reader *r, json_t *obj, const char *where, const cb_json_field *f,
                       const long *vars, void *rec) {
  size_t max = (size_t)bound(vars, f->max_var, f->max), i;
  json_t *a = cb_jr_array(r, obj, where, f->key, max, f->flags & CB_JF_REQUIRED), *v;
  if (!a) return;
  int(*out)[2] = cb_arena_alloc(r->d->arena, json_array_size(a) + 1, sizeof *out);
  if (!out) {
    cb_jr_oom(r);
    return;
  }
  json_array_foreach(a, i, v) {
    char label[64];
    snprintf(label, sizeof label, "'%s'[%zu]", f->key, i);
    if (read_pair(r, v, where, label, f, vars, out[i])) return;
  }
  *(int(**)[2])member_w(rec, f) = out, *(int *)((char *)rec + f->count) = (int)json_array_size(a);
}

/* Row i: n marks, each one of f->choices (a copy in the arena, or NULL). */
static const char *read_marks_row(cb_json_reader *r, json_t *s, const char *where, const cb_json_field *f,
                                  size_t i, size_t n) {
  const char *t = json_is_string(s) ? json_string_value(s) : NULL;
  if (!t || json_string_length(s) != n || strlen(t) != n)
    return cb_jr_fail(r, where, "%s %zu must be a string of %zu marks", f->part[0], i + 1, n), NULL;
  for (size_t c = 0; c < n; c++)
    if (t[c] == ' ' || !strchr(f->choices, t[c]))
      return cb_jr_fail(r, where, "%s %zu, %s %zu: '%c' is not one of %s", f->part[0], i + 1, f->part[1],
                        c + 1, t[c], f->choices),
             NULL;
  const char *copy = cb_arena_strdup(r->d->arena, t);
  if (!copy) cb_jr_oom(r);
  return copy;
}

/* A square of n strings of n marks into arena memory. */
static void read_marks(cb_json_reader *r, json_t *obj, const char *where, const cb_json_field *f,
                       const long *vars, void *rec) {
  size_t n = (size_t)bound(vars, f->max_var, f->max), i;
  json_t *a = cb_jr_array(r, obj, where, f->key, n, f->flags & CB_JF_REQUIRED), *v;
  if (!a) return;
  if (json_array_size(a) != n) {
    cb_jr_fail(r, where, "'%s' must hold %zu %ss", f->key, n, f->part[0]);
    return;
  }
  const char **out = cb_arena_alloc(r->d->arena, n + 1, sizeof *out);
  if (!out) {
    cb_jr_oom(r);
    return;
  }
  json_array_foreach(a, i, v) {
    if (!(out[i] = read_marks_row(r, v, where, f, i, n))) return;
  }
  *(const char ***)member_w(rec, f) = out, *(int *)((char *)rec + f->count) = (int)n;
}

static void read_field(cb_json_reader *r, json_t *obj, const char *where, const cb_json_field *f,
                       const long *vars, void *rec) {
  void *m = member_w(rec, f);
  int req = (f->flags & CB_JF_REQUIRED) != 0, *n = (int *)((char *)rec + f->count);
  long hi = bound(vars, f->hi_var, f->hi);
  switch (f->kind) {
  case CB_JF_INT: *(int *)m = read_int(r, obj, where, f, hi); break;
  case CB_JF_REAL:
  case CB_JF_COORD: *(double *)m = cb_jr_num(r, obj, where, f->key, f->lo, f->hi, req, f->dflt); break;
  case CB_JF_STR: *(const char **)m = cb_jr_str(r, obj, where, f->key, (size_t)f->hi, req); break;
  case CB_JF_NAME: read_name(r, obj, where, f, m); break;
  case CB_JF_BITS: *(unsigned *)m = cb_jr_bits(r, obj, where, f->key, f->parse); break;
  case CB_JF_BOOL: read_bool(r, obj, where, f, m); break;
  case CB_JF_POINT:
    if (req || json_object_get(obj, f->key))
      read_point(r, json_object_get(obj, f->key), where, CB_JSON_MAX_COORD, m);
    break;
  case CB_JF_POINTS:
  case CB_JF_INTS: read_array(r, obj, where, f, m, n); break;
  case CB_JF_LIST: *(void **)m = cb_jr_list(r, obj, where, f->list, vars, NULL, n); break;
  case CB_JF_PAIR: read_one_pair(r, obj, where, f, vars, rec); break;
  case CB_JF_PAIRS: read_pairs(r, obj, where, f, vars, rec); break;
  case CB_JF_MARKS: read_marks(r, obj, where, f, vars, rec); break;
  case CB_JF_DIR: read_dir(r, obj, where, f, m); break;
  }
}

static cb_status read_fields(cb_json_reader *r, json_t *obj, const char *where, const cb_json_field *f,
                             int nf, const long *vars, void *rec, bool brief) {
  for (int i = 0; i < nf && !r->st; i++)
    if (r->version >= f[i].since && !skipped(&f[i], brief) &&
        !((f[i].flags & CB_JF_AS_WRITTEN) && f[i].omit(rec)))
      read_field(r, obj, where, &f[i], vars, rec);
  return r->st;
}

cb_status cb_jr_fields(cb_json_reader *r, json_t *obj, const char *where, const cb_json_field *f, int nf,
                       const long *vars, void *rec) {
  return read_fields(r, obj, where, f, nf, vars, rec, false);
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
    if (read_fields(r, v, at, l->fields, l->nfields, vars, item, l->brief) ||
        (l->check && l->check(r, v, at, item, ctx)))
      return NULL;
  }
  *n = (int)count;
  return items;
}
