/* Internal to src/io and the procedures' json.c: an artefact's JSON form
 * stated once, as a table of its fields, that one writer and one reader
 * walk. The table's order is the order written (and read: when an entry
 * has two bad fields, the first in the table is named). */
#ifndef CB_JSON_FIELDS_H
#define CB_JSON_FIELDS_H

#include <stdbool.h>
#include <stddef.h>

#include "json_util.h"

typedef enum cb_jf_kind {
  CB_JF_INT,    /* int */
  CB_JF_REAL,   /* double, written as jansson writes a real */
  CB_JF_COORD,  /* double, written rounded to 1/100 ft */
  CB_JF_STR,    /* const char *, copied into the dungeon's arena when read; hi: the longest */
  CB_JF_NAME,   /* an enum (int) written by its name, read back by parse; hi: the longest name */
  CB_JF_BITS,   /* unsigned bits written as a list of the names of those set (name(1 << i), i < hi) */
  CB_JF_BOOL,   /* bool, written true or false; absent: false */
  CB_JF_POINT,  /* double[2], [x, y] in feet (each rounded as a COORD), within +-CB_JSON_MAX_COORD */
  CB_JF_POINTS, /* double (*)[2] (CB_JF_INLINE: double[max][2]) with its int count: [[x, y], ...] of min..max
                 */
  CB_JF_INTS,   /* int * with its int count: [n, ...] of at most max, each lo..hi */
  CB_JF_LIST,   /* a pointer to records with its int count: the nested list `list` */
  CB_JF_PAIR,   /* two ints, the member and the one at `count`: [a, b], a lo..hi and b lo2..hi2 */
  CB_JF_PAIRS,  /* int (*)[2] with its int count: [[a, b], ...] of at most max, each as a PAIR */
  CB_JF_MARKS,  /* const char ** with its int count: a square, max strings of max marks, each of choices */
  CB_JF_DIR     /* double[2], a way [ux, uy] each -1..1, written as reals to 1/10000 */
} cb_jf_kind;

enum {
  CB_JF_REQUIRED = 1,  /* reading: a missing field is an error */
  CB_JF_OMIT_NULL = 2, /* writing: a NULL string, or an empty list of points, is left out */
  CB_JF_ZERO_NULL = 4, /* CB_JF_INT: 0 is written null, and null reads as 0 (REQUIRED: present, maybe null) */
  CB_JF_IN_BOOL = 8,   /* CB_JF_NAME: the member is a bool (name(0) and name(1)), not an int */
  CB_JF_LEGS = 16,     /* CB_JF_POINTS: each leg runs north-south or east-west */
  CB_JF_INLINE = 32,   /* CB_JF_POINTS: the member is the array itself, not a pointer */
  CB_JF_LONG = 64,     /* only in a list's long form (not written or read where the list is brief) */
  CB_JF_FROM1 = 128,   /* CB_JF_INT: held from 0, numbered from 1 in JSON */
  CB_JF_TRIM = 256,    /* CB_JF_INTS: int[max] itself, no count: written up to its last non-zero entry,
                          left out when all are zero, and read into the array, the rest zero */
  CB_JF_FIXED = 512,   /* CB_JF_POINTS: double[max][2] itself, no count: always max points */
  CB_JF_UNBOUNDED =
      1024, /* CB_JF_POINTS: not held within +-CB_JSON_MAX_COORD (the list's check bounds them) */
  CB_JF_AS_WRITTEN = 2048 /* reading: read only where omit, given the fields before it, says it is written */
};
struct cb_json_list;

typedef struct cb_json_field {
  const char *key;
  cb_jf_kind kind;
  size_t offset; /* of the member in the record */
  unsigned flags;
  double lo, hi;                 /* reading: the bounds of a number */
  int hi_var;                    /* > 0: the upper bound is vars[hi_var - 1], which the reader is given */
  double dflt;                   /* reading: the value when absent */
  const char *(*name)(int);      /* CB_JF_NAME: the value's name */
  int (*parse)(const char *);    /* CB_JF_NAME: the name's value, -1 unknown ("unknown KEY 'name'");
                                    CB_JF_BITS: a name's bit */
  bool (*omit)(const void *rec); /* writing: true when the field is left out (NULL: never) */
  int since;    /* reading: read only from this version of the format on (0: always); before it, left zero */
  size_t count; /* POINTS, INTS, LIST: the offset of the int count of entries */
  int min, max; /* POINTS, INTS: the entries allowed */
  const struct cb_json_list *list; /* LIST: the entries' own list, and their key */
  const char *choices;  /* NAME: the names allowed, for the message ("N, E, S or W"); INTS: what the
                           entries must do ("'KEY' must CHOICES"; NULL: be whole numbers from lo to hi) */
  const char *part[2];  /* PAIR(S): what a and b are ("level", "room"); MARKS: a string, a mark ("row") */
  double lo2, hi2;      /* PAIR(S): the bounds of b */
  int hi_var2, max_var; /* > 0: hi2 (PAIR(S)), max (PAIRS) is vars[...- 1] */
} cb_json_field;

#define CB_JF_INT_OF(T, m, key, lo, hi, flags, dflt)                                                         \
  { key, CB_JF_INT, offsetof(T, m), flags, lo, hi, 0, dflt, 0, 0 }
#define CB_JF_VAR_OF(T, m, key, lo, var, flags, dflt)                                                        \
  { key, CB_JF_INT, offsetof(T, m), flags, lo, 0, var, dflt, 0, 0 }
#define CB_JF_REAL_OF(T, m, key, lo, hi, flags, dflt)                                                        \
  { key, CB_JF_REAL, offsetof(T, m), flags, lo, hi, 0, dflt, 0, 0 }
#define CB_JF_COORD_OF(T, m, key, lo, hi, flags)                                                             \
  { key, CB_JF_COORD, offsetof(T, m), flags, lo, hi, 0, 0, 0, 0 }
#define CB_JF_STR_OF(T, m, key, longest, flags)                                                              \
  { key, CB_JF_STR, offsetof(T, m), flags, 0, longest, 0, 0, 0, 0 }
/* A string written only where omit says it is not the long form's twin (a "_short" form). */
#define CB_JF_SHORT_OF(T, m, k, longest, same)                                                               \
  { .key = k, .kind = CB_JF_STR, .offset = offsetof(T, m), .hi = longest, .omit = same }
#define CB_JF_NAME_OF(T, m, key, longest, name, parse)                                                       \
  { key, CB_JF_NAME, offsetof(T, m), CB_JF_REQUIRED, 0, longest, 0, 0, name, parse }

/* A name with the names allowed spelt out for the message. */
#define CB_JF_CHOICE_OF(T, m, k, longest, fl, nm, ps, ch)                                                    \
  {                                                                                                          \
    .key = k, .kind = CB_JF_NAME, .offset = offsetof(T, m), .flags = fl, .hi = longest, .name = nm,          \
    .parse = ps, .choices = ch                                                                               \
  }
#define CB_JF_BOOL_OF(T, m, k)                                                                               \
  { .key = k, .kind = CB_JF_BOOL, .offset = offsetof(T, m) }
#define CB_JF_POINT_OF(T, m, k, fl)                                                                          \
  { .key = k, .kind = CB_JF_POINT, .offset = offsetof(T, m), .flags = fl }
#define CB_JF_POINTS_OF(T, m, n, k, least, most, fl)                                                         \
  {                                                                                                          \
    .key = k, .kind = CB_JF_POINTS, .offset = offsetof(T, m), .flags = fl, .count = offsetof(T, n),          \
    .min = least, .max = most                                                                                \
  }
#define CB_JF_INTS_OF(T, m, n, k, low, high, most)                                                           \
  {                                                                                                          \
    .key = k, .kind = CB_JF_INTS, .offset = offsetof(T, m), .lo = low, .hi = high, .count = offsetof(T, n),  \
    .max = most                                                                                              \
  }
/* [a, b] into the members a and b, each from lo to the bound numbered (vars). */
#define CB_JF_PAIR_OF(T, a, b, k, na, nb, lo_a, var_a, lo_b, var_b, fl)                                      \
  {                                                                                                          \
    .key = k, .kind = CB_JF_PAIR, .offset = offsetof(T, a), .flags = fl, .lo = lo_a, .hi_var = var_a,        \
    .count = offsetof(T, b), .part = {na, nb}, .lo2 = lo_b, .hi_var2 = var_b                                 \
  }
/* [[a, b], ...] of at most vars[var_n - 1] pairs, each as CB_JF_PAIR_OF's. */
#define CB_JF_PAIRS_OF(T, m, n, k, na, nb, lo_a, var_a, lo_b, var_b, var_n, fl)                              \
  {                                                                                                          \
    .key = k, .kind = CB_JF_PAIRS, .offset = offsetof(T, m), .flags = fl, .lo = lo_a, .hi_var = var_a,       \
    .count = offsetof(T, n), .part = {na, nb}, .lo2 = lo_b, .hi_var2 = var_b, .max_var = var_n               \
  }
/* A square of marks: vars[var_n - 1] strings of as many marks, each one
 * of the characters in ch (spaces apart), named "row 3, column 4" in messages. */
#define CB_JF_MARKS_OF(T, m, n, k, row, col, var_n, ch)                                                      \
  {                                                                                                          \
    .key = k, .kind = CB_JF_MARKS, .offset = offsetof(T, m), .flags = CB_JF_REQUIRED,                        \
    .count = offsetof(T, n), .part = {row, col}, .max_var = var_n, .choices = ch                             \
  }
/* [a, ...] of int m[most], each lo..hi, up to its last non-zero entry; left out when all are zero.
 * A bad entry: "'KEY' must MUST". */
#define CB_JF_TRIM_OF(T, m, k, low, high, most, must)                                                        \
  {                                                                                                          \
    .key = k, .kind = CB_JF_INTS, .offset = offsetof(T, m), .flags = CB_JF_TRIM, .lo = low, .hi = high,      \
    .max = most, .choices = must                                                                             \
  }
/* [[x, y] x n]: double m[n][2] itself, always n points. */
#define CB_JF_FIXED_OF(T, m, k, n, fl, left_out)                                                             \
  {                                                                                                          \
    .key = k, .kind = CB_JF_POINTS, .offset = offsetof(T, m), .flags = CB_JF_FIXED | (fl), .min = n,         \
    .max = n, .omit = left_out                                                                               \
  }
/* [ux, uy]: double ux and the double after it. */
#define CB_JF_DIR_OF(T, m, k)                                                                                \
  { .key = k, .kind = CB_JF_DIR, .offset = offsetof(T, m), .flags = CB_JF_REQUIRED }
/* A nested list, under its own key (l->key). */
#define CB_JF_LIST_OF(T, m, n, l)                                                                            \
  { .kind = CB_JF_LIST, .offset = offsetof(T, m), .count = offsetof(T, n), .list = l }

/* A list of records: the array under `key` of at most `max` objects of
 * `size` bytes, each with the fields given, and a check of each entry
 * once its fields are read (may be NULL; ctx is what the reader is given). */
typedef struct cb_json_list {
  const char *key;
  size_t max;
  int required;
  const cb_json_field *fields;
  int nfields;
  size_t size;
  /* entry: the JSON object; may fill more of item */
  cb_status (*check)(cb_json_reader *r, json_t *entry, const char *where, void *item, void *ctx);
  bool brief; /* the short form: its CB_JF_LONG fields are neither written nor read */
} cb_json_list;

/* Writes rec's fields as "key":value pairs, a comma before each unless
 * first (and before none when every earlier one was left out). */
void cb_jw_fields(cb_jw *w, const cb_json_field *f, int nf, const void *rec, int first);
/* Whether a and b hold the same values in the fields (those of the short
 * form when brief); lists, arrays behind pointers and squares are left out
 * of the comparison (only arrays held in the record, TRIM and FIXED, are in). */
bool cb_jf_same(const cb_json_field *f, int nf, const void *a, const void *b, bool brief);
/* Writes [{...},...]: n records of the list's size from items. */
void cb_jw_list(cb_jw *w, const cb_json_list *l, const void *items, int n);

/* Reads obj's fields into rec ("where: ..." in messages); the bounds
 * numbered in the table come from vars (may be NULL when none is). r's
 * error is sticky: after the first, nothing more is read. Returns r->st. */
cb_status cb_jr_fields(cb_json_reader *r, json_t *obj, const char *where, const cb_json_field *f, int nf,
                       const long *vars, void *rec);
/* Reads the list obj[l->key] into arena memory (count + 1 records, zeroed),
 * entry i named "WHERE.KEY[i]" ("KEY[i]" with an empty where). Returns the
 * records (*n their count), or NULL with *n 0 when absent or on an error. */
void *cb_jr_list(cb_json_reader *r, json_t *obj, const char *where, const cb_json_list *l, const long *vars,
                 void *ctx, int *n);

#endif
