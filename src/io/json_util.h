/* Internal to src/io: the pieces every JSON reader and writer shares, so
 * that each generator's procedure (io/json_<generator>.c) reads and writes
 * its artefacts the same way. */
#ifndef CB_JSON_UTIL_H
#define CB_JSON_UTIL_H

#include <jansson.h>
#include <stdbool.h>

#include "base/error.h"
#include "base/sink.h"
#include "json.h"
#include "model/dungeon.h"

enum {
  CB_JSON_MAX_ROOMS = 100000,
  CB_JSON_MAX_ITEMS = 1000000,
  CB_JSON_MAX_TEXT = CB_TEXT_NOTE,
  CB_JSON_MAX_WAYS = 10000, /* passages of one room */
  CB_JSON_MAX_LEVELS = 10000
};

/* What a JSON file may cost to read (the README's JSON section): jansson
 * holds every value as a tree, some 50 to 250 bytes each whatever its size
 * in the file, so the values are counted before it parses. The writer counts
 * what it writes the same way and refuses more, so that what crawlbook
 * writes it reads back. */
enum { CB_JSON_MAX_MIB = 128, CB_JSON_MAX_CONTAINERS = 3000000, CB_JSON_MAX_VALUES = 8000000 };
typedef struct cb_json_cost {
  size_t bytes, containers, values; /* values: containers and separators, at least one a value */
  int in_string, escaped;
} cb_json_cost;
void cb_json_cost_add(cb_json_cost *c, const char *s, size_t n);
/* The first limit c is over, as a phrase ("more than 3000000 objects and arrays"), or NULL. */
const char *cb_json_cost_over(const cb_json_cost *c);
#define CB_JSON_MAX_COORD 1e8

/* Reading: the file's name (for messages), the error, the dungeon filled. */
typedef struct cb_json_reader {
  const char *name;
  cb_error *err;
  cb_dungeon *d;
  cb_status st; /* sticky: the first error */
  bool stocked; /* crawlbook/2 and on: contents, notes and the stocking fields are read */
  int version;  /* 1, 2 or 3: the format's number */
  const cb_json_procs *procs;
} cb_json_reader;

/* Records "name: where: message" (the first error only); returns r->st. */
cb_status cb_jr_fail(cb_json_reader *r, const char *where, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
cb_status cb_jr_oom(cb_json_reader *r);
/* obj[key] when it has the type (JSON_REAL accepts integers too); NULL when
 * absent (an error if required) or of the wrong type (an error). */
json_t *cb_jr_field(cb_json_reader *r, json_t *obj, const char *where, const char *key, json_type type,
                    int required);
int cb_jr_int(cb_json_reader *r, json_t *obj, const char *where, const char *key, long lo, long hi,
              int required, int dflt);
double cb_jr_num(cb_json_reader *r, json_t *obj, const char *where, const char *key, double lo, double hi,
                 int required, double dflt);
/* A copy in the dungeon's arena; NULL when absent. */
const char *cb_jr_str(cb_json_reader *r, json_t *obj, const char *where, const char *key, size_t maxlen,
                      int required);
/* A list of names parsed by `parse` into bits. */
unsigned cb_jr_bits(cb_json_reader *r, json_t *obj, const char *where, const char *key,
                    int (*parse)(const char *));
/* An array of [a, b] room-id pairs into arena memory; *n gets the count. */
cb_pair *cb_jr_pairs(cb_json_reader *r, json_t *obj, const char *where, const char *key, int required,
                     int *n);
/* An array field of at most `max` entries (NULL when absent/bad). */
json_t *cb_jr_array(cb_json_reader *r, json_t *obj, const char *where, const char *key, size_t max,
                    int required);

/* Writing: a streaming writer into a sink. Numbers and separators match
 * jansson's compact output (JSON_REAL_PRECISION(12)), so a value written
 * field by field and one dumped from a jansson tree give the same bytes.
 * The first failure sticks; cb_jw_finish flushes, frees and returns it. */
typedef struct cb_jw cb_jw;
cb_jw *cb_jw_new(cb_sink sink);                     /* NULL when out of memory */
cb_status cb_jw_finish(cb_jw *w, const char **why); /* why: what failed (may be NULL) */
bool cb_jw_ok(const cb_jw *w);
void cb_jw_raw(cb_jw *w, const char *s, size_t len);
void cb_jw_put(cb_jw *w, const char *s); /* verbatim */
void cb_jw_str(cb_jw *w, const char *s); /* a JSON string, escaped */
void cb_jw_int(cb_jw *w, long long v);
void cb_jw_real(cb_jw *w, double v);                  /* NaN or infinity fails the document */
void cb_jw_coord(cb_jw *w, double v);                 /* rounded to 1/100 ft */
void cb_jw_key(cb_jw *w, const char *key, int first); /* [","] "key": */
void cb_jw_next(cb_jw *w, int i); /* the "," before item i of a list (none before the first) */
void cb_jw_pairs(cb_jw *w, const cb_pair *p, int n); /* [[a,b],...] */
void cb_jw_value(cb_jw *w, json_t *v);               /* a jansson value, consumed; NULL = out of memory */
/* A coordinate as a jansson value, for procedures built as jansson trees. */
json_t *cb_jv_coord(double v);

/* A top-level object of a procedure's own beside "procedure" (a sketch,
 * say): written before "procedure" when `has` says the dungeon holds one,
 * read (when the file has it) after the procedure. */
enum { CB_PROC_MAX_PARTS = 4 };
typedef struct cb_proc_part {
  const char *key;
  bool (*has)(const cb_dungeon *d);
  void (*write)(cb_jw *w, const cb_dungeon *d);
  cb_status (*read)(cb_json_reader *r, json_t *part);
} cb_proc_part;

/* A generator's procedure artefacts, written as the "procedure" object (and
 * its parts, if any) and read back with validation. */
typedef struct cb_proc_io {
  const char *generator;
  void (*write)(cb_jw *w, const cb_dungeon *d);            /* the "procedure" object */
  cb_status (*read)(cb_json_reader *r, json_t *procedure); /* fills d->procedure */
  const cb_proc_part *parts; /* nparts (at most CB_PROC_MAX_PARTS) of them, or none */
  int nparts;
} cb_proc_io;

#endif
