#include "json_util.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

cb_status cb_jr_fail(cb_json_reader *r, const char *where, const char *fmt, ...) {
  if (r->st != CB_OK) return r->st;
  char msg[384];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  r->st = cb_error_set(r->err, CB_EINPUT, "%s: %s%s%s", r->name, where, *where ? ": " : "", msg);
  return r->st;
}

cb_status cb_jr_oom(cb_json_reader *r) {
  if (r->st == CB_OK) r->st = cb_error_set(r->err, CB_EINTERNAL, "out of memory");
  return r->st;
}

json_t *cb_jr_field(cb_json_reader *r, json_t *obj, const char *where, const char *key, json_type type,
                    int required) {
  if (r->st != CB_OK) return NULL;
  json_t *v = json_object_get(obj, key);
  if (!v) {
    if (required) cb_jr_fail(r, where, "missing field '%s'", key);
    return NULL;
  }
  if (json_typeof(v) == type || (type == JSON_REAL && json_is_integer(v)) ||
      (type == JSON_TRUE && json_is_boolean(v)))
    return v;
  static const char *const names[] = {"an object", "an array", "a string", "a whole number", "a number",
                                      "true or false", "true or false", "null"};
  cb_jr_fail(r, where, "'%s' must be %s", key, names[type]);
  return NULL;
}

int cb_jr_int(cb_json_reader *r, json_t *obj, const char *where, const char *key, long lo, long hi, int required,
              int dflt) {
  json_t *v = cb_jr_field(r, obj, where, key, JSON_INTEGER, required);
  if (!v) return dflt;
  json_int_t x = json_integer_value(v);
  if (x < lo || x > hi) {
    cb_jr_fail(r, where, "'%s' is %lld; it must be %ld to %ld", key, (long long)x, lo, hi);
    return dflt;
  }
  return (int)x;
}

double cb_jr_num(cb_json_reader *r, json_t *obj, const char *where, const char *key, double lo, double hi,
                 int required, double dflt) {
  json_t *v = cb_jr_field(r, obj, where, key, JSON_REAL, required);
  if (!v) return dflt;
  double x = json_number_value(v);
  if (!(x >= lo && x <= hi)) {
    cb_jr_fail(r, where, "'%s' is %g; it must be %g to %g", key, x, lo, hi);
    return dflt;
  }
  return x;
}

const char *cb_jr_str(cb_json_reader *r, json_t *obj, const char *where, const char *key, size_t maxlen,
                      int required) {
  json_t *v = cb_jr_field(r, obj, where, key, JSON_STRING, required);
  if (!v) return NULL;
  size_t len = json_string_length(v);
  const char *s = json_string_value(v);
  if (len > maxlen || memchr(s, '\0', len)) {
    cb_jr_fail(r, where, "'%s' is longer than %zu bytes or holds a NUL", key, maxlen);
    return NULL;
  }
  const char *copy = cb_arena_strndup(r->d->arena, s, len);
  if (!copy) cb_jr_oom(r);
  return copy;
}

unsigned cb_jr_bits(cb_json_reader *r, json_t *obj, const char *where, const char *key, int (*parse)(const char *)) {
  json_t *a = cb_jr_field(r, obj, where, key, JSON_ARRAY, 0);
  unsigned bits = 0;
  size_t i;
  json_t *v;
  json_array_foreach(a, i, v) {
    int bit = json_is_string(v) ? parse(json_string_value(v)) : -1;
    if (bit < 0) {
      cb_jr_fail(r, where, "'%s'[%zu] is not one of the names model.md lists", key, i);
      return 0;
    }
    bits |= (unsigned)bit;
  }
  return bits;
}

json_t *cb_jr_array(cb_json_reader *r, json_t *obj, const char *where, const char *key, size_t max, int required) {
  json_t *a = cb_jr_field(r, obj, where, key, JSON_ARRAY, required);
  if (a && json_array_size(a) > max) {
    cb_jr_fail(r, where, "'%s' has more than %zu entries", key, max);
    return NULL;
  }
  return a;
}

cb_pair *cb_jr_pairs(cb_json_reader *r, json_t *obj, const char *where, const char *key, int required, int *n) {
  *n = 0;
  json_t *a = cb_jr_array(r, obj, where, key, 4 * (size_t)CB_JSON_MAX_ITEMS, required);
  if (!a) return NULL;
  size_t count = json_array_size(a), i;
  cb_pair *out = cb_arena_alloc(r->d->arena, count + 1, sizeof *out);
  if (!out) {
    cb_jr_oom(r);
    return NULL;
  }
  json_t *v;
  json_array_foreach(a, i, v) {
    json_t *x = json_array_get(v, 0), *y = json_array_get(v, 1);
    int ok = json_is_array(v) && json_array_size(v) == 2 && json_is_integer(x) && json_is_integer(y) &&
             json_integer_value(x) > 0 && json_integer_value(x) <= 1000000000 && json_integer_value(y) > 0 &&
             json_integer_value(y) <= 1000000000;
    if (ok) out[i] = (cb_pair){(int)json_integer_value(x), (int)json_integer_value(y)};
    if (!ok || !cb_dungeon_room(r->d, out[i].a) || !cb_dungeon_room(r->d, out[i].b)) {
      cb_jr_fail(r, where, "'%s'[%zu] must be a pair of room ids", key, i);
      return NULL;
    }
  }
  *n = (int)count;
  return out;
}

json_t *cb_jw_coord(double v) { return json_real(round(v * 100) / 100); }

json_t *cb_jw_pairs(const cb_pair *p, int n) {
  json_t *a = json_array();
  for (int i = 0; a && i < n; i++) {
    json_t *pair = json_array();
    if (!pair || json_array_append_new(pair, json_integer(p[i].a)) || json_array_append_new(pair, json_integer(p[i].b)) ||
        json_array_append_new(a, pair)) {
      json_decref(a);
      return NULL;
    }
  }
  return a;
}
