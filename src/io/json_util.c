#include "json_util.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

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
  if (r->st == CB_OK) r->st = cb_error_oom(r->err);
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
  static const char *const names[] = {"an object", "an array",      "a string",      "a whole number",
                                      "a number",  "true or false", "true or false", "null"};
  cb_jr_fail(r, where, "'%s' must be %s", key, names[type]);
  return NULL;
}

int cb_jr_int(cb_json_reader *r, json_t *obj, const char *where, const char *key, long lo, long hi,
              int required, int dflt) {
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
    cb_jr_fail(r, where, "'%s' is %.15g; it must be %.15g to %.15g", key, x, lo, hi);
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

unsigned cb_jr_bits(cb_json_reader *r, json_t *obj, const char *where, const char *key,
                    int (*parse)(const char *)) {
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

json_t *cb_jr_array(cb_json_reader *r, json_t *obj, const char *where, const char *key, size_t max,
                    int required) {
  json_t *a = cb_jr_field(r, obj, where, key, JSON_ARRAY, required);
  if (a && json_array_size(a) > max) {
    cb_jr_fail(r, where, "'%s' has more than %zu entries", key, max);
    return NULL;
  }
  return a;
}

cb_pair *cb_jr_pairs(cb_json_reader *r, json_t *obj, const char *where, const char *key, int required,
                     int *n) {
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

/* ---- cost ---- */

void cb_json_cost_add(cb_json_cost *c, const char *s, size_t n) {
  c->bytes += n;
  for (size_t i = 0; i < n; i++) {
    char ch = s[i];
    if (c->in_string) {
      if (c->escaped)
        c->escaped = 0;
      else if (ch == '\\')
        c->escaped = 1;
      else if (ch == '"')
        c->in_string = 0;
    } else if (ch == '"') {
      c->in_string = 1;
    } else if (ch == '{' || ch == '[') {
      c->containers++, c->values++;
    } else if (ch == ',') {
      c->values++;
    }
  }
}

_Static_assert(CB_JSON_MAX_MIB == 128 && CB_JSON_MAX_CONTAINERS == 3000000 && CB_JSON_MAX_VALUES == 8000000,
               "the phrases below say the limits");
const char *cb_json_cost_over(const cb_json_cost *c) {
  if (c->bytes > (size_t)CB_JSON_MAX_MIB << 20) return "more than 128 MiB";
  if (c->containers > CB_JSON_MAX_CONTAINERS) return "more than 3,000,000 objects and arrays";
  if (c->values > CB_JSON_MAX_VALUES) return "more than 8,000,000 values";
  return NULL;
}

/* ---- writing ---- */

struct cb_jw {
  cb_sink sink;
  cb_status st;
  const char *why; /* what failed, when it was not the sink */
  cb_json_cost cost;
  size_t n;
  char buf[1 << 16];
};

cb_jw *cb_jw_new(cb_sink sink) {
  cb_jw *w = cb_calloc(1, sizeof *w);
  if (w) w->sink = sink, w->st = CB_OK;
  return w;
}

/* Every byte passes here on its way out, and is counted as render will. */
static void emit(cb_jw *w, const char *s, size_t len) {
  if (w->st != CB_OK) return;
  cb_json_cost_add(&w->cost, s, len);
  const char *over = cb_json_cost_over(&w->cost);
  if (over)
    w->st = CB_EINPUT, w->why = over;
  else
    w->st = w->sink.write(w->sink.closure, (const unsigned char *)s, len);
}

static void flush(cb_jw *w) {
  if (w->n) emit(w, w->buf, w->n);
  w->n = 0;
}

cb_status cb_jw_finish(cb_jw *w, const char **why) {
  flush(w);
  cb_status st = w->st;
  if (why) *why = w->why ? w->why : st == CB_EINTERNAL ? "out of memory" : "could not write";
  free(w);
  return st;
}

bool cb_jw_ok(const cb_jw *w) { return w->st == CB_OK; }

void cb_jw_raw(cb_jw *w, const char *s, size_t len) {
  if (len > sizeof w->buf - w->n) {
    flush(w);
    if (len > sizeof w->buf) {
      emit(w, s, len);
      return;
    }
  }
  memcpy(w->buf + w->n, s, len);
  w->n += len;
}

void cb_jw_put(cb_jw *w, const char *s) { cb_jw_raw(w, s, strlen(s)); }

/* Quotes, backslashes and control characters escaped, UTF-8 kept (bytes
 * that are not UTF-8 become U+FFFD). */
void cb_jw_str(cb_jw *w, const char *s) {
  cb_jw_raw(w, "\"", 1);
  const unsigned char *p = (const unsigned char *)s;
  while (*p) {
    const unsigned char *run = p;
    while (*p >= 0x20 && *p != '"' && *p != '\\' && *p < 0x80)
      p++;
    cb_jw_raw(w, (const char *)run, (size_t)(p - run));
    if (!*p) break;
    if (*p >= 0x80) {
      int len = (*p >> 5) == 6 ? 2 : (*p >> 4) == 14 ? 3 : (*p >> 3) == 30 ? 4 : 0;
      int ok = len > 0;
      for (int k = 1; ok && k < len; k++)
        ok = (p[k] & 0xC0) == 0x80;
      if (ok)
        cb_jw_raw(w, (const char *)p, (size_t)len), p += len;
      else
        cb_jw_put(w, "\xef\xbf\xbd"), p++;
      continue;
    }
    char esc[8];
    switch (*p) {
    case '"': cb_jw_put(w, "\\\""); break;
    case '\\': cb_jw_put(w, "\\\\"); break;
    case '\n': cb_jw_put(w, "\\n"); break;
    case '\t': cb_jw_put(w, "\\t"); break;
    case '\r': cb_jw_put(w, "\\r"); break;
    case '\b': cb_jw_put(w, "\\b"); break;
    case '\f': cb_jw_put(w, "\\f"); break;
    default: snprintf(esc, sizeof esc, "\\u%04X", *p); cb_jw_put(w, esc); /* as jansson writes it */
    }
    p++;
  }
  cb_jw_raw(w, "\"", 1);
}

/* Digits of v (>= 0) written backwards from end; returns the first. */
static char *digits(char *end, unsigned long long v) {
  do
    *--end = (char)('0' + v % 10);
  while (v /= 10);
  return end;
}

void cb_jw_int(cb_jw *w, long long v) {
  char b[24], *end = b + sizeof b;
  char *p = digits(end, v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v);
  if (v < 0) *--p = '-';
  cb_jw_raw(w, p, (size_t)(end - p));
}

/* As jansson writes a real with JSON_REAL_PRECISION(12): %.12g, ".0" added to
 * whole numbers. JSON has no NaN or infinity: those fail the document. */
void cb_jw_real(cb_jw *w, double v) {
  if (!isfinite(v)) {
    if (w->st == CB_OK) w->st = CB_EINTERNAL, w->why = "a number that is not finite";
    return;
  }
  char b[40];
  snprintf(b, sizeof b, "%.12g", v);
  for (char *c = b; *c; c++)
    if (*c == ',') *c = '.';
  if (!strpbrk(b, ".eEni")) strcat(b, ".0");
  char *e = strchr(b, 'e');
  if (e) { /* jansson drops an exponent's '+' and leading zeros: 1e+300 -> 1e300 */
    char *from = ++e;
    if (*from == '-')
      e++, from++;
    else if (*from == '+')
      from++;
    while (*from == '0' && from[1])
      from++;
    memmove(e, from, strlen(from) + 1);
  }
  cb_jw_put(w, b);
}

/* Hundredths below 1e9 in size print exactly under %.12g (at most 11
 * significant digits, never in exponent form), so they are written as an
 * integer and a fraction without printf, which dominated big dungeons. */
void cb_jw_coord(cb_jw *w, double v) {
  double r = round(v * 100);
  if (!(fabs(r) < 1e11) || (r == 0 && signbit(r))) { /* the rare cases (and NaN) the slow way */
    cb_jw_real(w, r / 100);
    return;
  }
  long long c = (long long)r;
  unsigned long long m = c < 0 ? 0ULL - (unsigned long long)c : (unsigned long long)c;
  char b[40], *end = b + sizeof b, *p = end;
  unsigned frac = (unsigned)(m % 100);
  if (frac == 0)
    *--p = '0';
  else if (frac % 10 == 0)
    *--p = (char)('0' + frac / 10);
  else
    *--p = (char)('0' + frac % 10), *--p = (char)('0' + frac / 10);
  *--p = '.';
  p = digits(p, m / 100);
  if (c < 0) *--p = '-';
  cb_jw_raw(w, p, (size_t)(end - p));
}

void cb_jw_key(cb_jw *w, const char *key, int first) {
  if (!first) cb_jw_raw(w, ",", 1);
  cb_jw_str(w, key);
  cb_jw_raw(w, ":", 1);
}

void cb_jw_next(cb_jw *w, int i) {
  if (i > 0) cb_jw_raw(w, ",", 1);
}

void cb_jw_pairs(cb_jw *w, const cb_pair *p, int n) {
  cb_jw_raw(w, "[", 1);
  for (int i = 0; i < n; i++) {
    cb_jw_next(w, i), cb_jw_raw(w, "[", 1);
    cb_jw_int(w, p[i].a);
    cb_jw_raw(w, ",", 1);
    cb_jw_int(w, p[i].b);
    cb_jw_raw(w, "]", 1);
  }
  cb_jw_raw(w, "]", 1);
}

static int dump_cb(const char *buffer, size_t size, void *data) {
  cb_jw *w = data;
  cb_jw_raw(w, buffer, size);
  return w->st == CB_OK ? 0 : -1;
}

void cb_jw_value(cb_jw *w, json_t *v) {
  if (!v || json_dump_callback(v, dump_cb, w, JSON_COMPACT | JSON_REAL_PRECISION(12) | JSON_ENCODE_ANY) != 0)
    if (w->st == CB_OK) w->st = CB_EINTERNAL, w->why = v ? "jansson could not write a value" : NULL;
  json_decref(v);
}

json_t *cb_jv_coord(double v) { return json_real(round(v * 100) / 100); }
