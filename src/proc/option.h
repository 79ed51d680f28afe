/* Option specs: one row per command-line option, read by every place that
 * needs it. getopt's table, --help (and so the man page), the range checks
 * and their messages, the "not an option of X" check and the options a
 * procedure records in its dungeon (the JSON "options" object, which the
 * footer's command repeats) all come from these rows.
 *
 * Each procedure publishes its rows (src/proc/<name>/options.c) through its
 * registry row; the options every procedure shares (seed, rooms, output...)
 * are one table in src/cli/. A row's `field` is an offsetof into the struct
 * its table fills: a procedure's rows fill its own options record (declared
 * in its folder), except the CB_OPTF_COMMON rows, which name a field of
 * cb_gen_options (proc/proc.h). */
#ifndef CB_OPTION_H
#define CB_OPTION_H

#include <stdbool.h>
#include <stddef.h>

#include "base/error.h"
#include "model/dungeon.h"

typedef enum cb_option_kind {
  CB_OPT_FLAG,   /* no value: stores `set` in a bool */
  CB_OPT_NUMBER, /* a whole number from lo to hi, into an int */
  CB_OPT_WORD,   /* one of words[], its index into an int (an enum) */
  CB_OPT_TEXT,   /* UTF-8 text of at most hi bytes (hi 0: any bytes, unchecked), into a const char * */
  CB_OPT_FILE,   /* a file or table name: TEXT that may not be empty (`expect` says what to give) */
  CB_OPT_CUSTOM, /* parse() reads it and format() writes it back */
} cb_option_kind;

/* How a procedure records an option in its dungeon, under the option's name
 * (the JSON key is always the long name). */
typedef enum cb_option_record {
  CB_REC_NONE,   /* not recorded */
  CB_REC_ALWAYS, /* always: the number, the word, the text or else `dflt`; a flag when it holds `set` */
  CB_REC_IF_SET, /* only when it holds a value: a number not 0, text not NULL, a flag holding `set` */
} cb_option_record;

enum {
  /* a common option that describes a dungeon, so that render refuses it
   * (every procedure's own option is one) */
  CB_OPTF_GENERATOR = 1 << 0,
  /* a common option only some procedures take: those that name it in their
   * rows (with CB_OPTF_COMMON) */
  CB_OPTF_SCOPED = 1 << 1,
  /* in a procedure's rows: a common option, parsed and described by the
   * common table; the row says how the procedure records it */
  CB_OPTF_COMMON = 1 << 2,
  /* --help: the list of procedures follows this row's text */
  CB_OPTF_HELP_PROCEDURES = 1 << 3,
  /* --help: the rows of the procedures without a heading follow this row */
  CB_OPTF_HELP_OWN_OPTIONS = 1 << 4,
};

typedef struct cb_option_spec cb_option_spec;
struct cb_option_spec {
  const char *name; /* the long name, without "--"; also the key it is recorded under */
  char letter;      /* the short option, or 0 */
  const char *arg;  /* what --help calls the value ("N", "WxH", "FILE"); NULL for a flag */
  cb_option_kind kind;
  unsigned flags;            /* CB_OPTF_* */
  unsigned long long lo, hi; /* NUMBER: the range; TEXT and FILE: hi is the longest in bytes */
  const char *const *words;  /* WORD: the words, NULL-terminated */
  bool set;                  /* FLAG: the value it stores */
  size_t field;              /* offsetof the value in the table's struct */
  size_t seen;               /* offsetof a bool set when the option is given; 0: none */
  const char *expect;        /* the message's "expected ..." where the usual one does not fit;
                              * for NUMBER a format taking lo and hi (%llu) */
  /* CUSTOM, or any kind whose value needs more than the usual reading:
   * reads arg into opts; CB_EINPUT with a message naming the option. */
  cb_status (*parse)(const cb_option_spec *s, const char *arg, void *opts, cb_error *err);
  /* CUSTOM: the value as recorded, into buf; 0 when it is not recorded,
   * 1 for text, 2 for a number. */
  int (*format)(const cb_option_spec *s, const void *opts, char *buf, size_t cap);
  /* Called once the procedure is known, after every option is read
   * (e.g. a grid that must be square); CB_EINPUT with a message. */
  cb_status (*check)(const void *opts, cb_error *err);
  const char *help; /* --help's text, lines after the first indented; NULL: not listed */
  cb_option_record record;
  const char *dflt;  /* ALWAYS: the text recorded when the value is NULL */
  const char *table; /* FILE: the key naming it in a template's tables group, or NULL */
};

/* Rows for the common options a procedure records (parsed and described by
 * the common table): how it records --faithful, and a number such as --rooms
 * or --levels (member: its cb_gen_options field). */
#define CB_OPTION_COMMON_FLAG(name_, member)                                                                 \
  {                                                                                                          \
    .name = name_, .flags = CB_OPTF_COMMON, .kind = CB_OPT_FLAG, .set = true,                                \
    .field = offsetof(cb_gen_options, member), .record = CB_REC_IF_SET                                       \
  }
#define CB_OPTION_COMMON_NUMBER(name_, member, record_)                                                      \
  {                                                                                                          \
    .name = name_, .flags = CB_OPTF_COMMON, .kind = CB_OPT_NUMBER,                                           \
    .field = offsetof(cb_gen_options, member), .record = record_                                             \
  }

/* The largest a procedure's own options record may be (each checks its own
 * at compile time): the command line keeps one in a buffer of this size. */
enum { CB_PROC_OPTIONS_MAX = 512 };

/* A procedure's options. */
typedef struct cb_option_set {
  size_t size; /* its own options record (at most CB_PROC_OPTIONS_MAX bytes): all zero is its defaults */
  const char *about;   /* its line in --help's list of procedures */
  int seed;            /* the seed it follows (seed 000...); the list runs by it, the default first */
  const char *heading; /* --help lists its rows under this heading, or NULL: with the common options */
  const cb_option_spec *specs;
  int n;
} cb_option_set;

/* Reads arg (NULL for a flag) into opts as the row says; CB_EINPUT with the
 * row's message. Text is borrowed, not copied. */
cb_status cb_option_parse(const cb_option_spec *s, const char *arg, void *opts, cb_error *err);

/* A whole decimal number from lo to hi: digits only, no sign, nothing after. */
bool cb_option_whole_number(const char *s, unsigned long long lo, unsigned long long hi,
                            unsigned long long *out);

/* A whole number in the row's range, with the row's message; for custom
 * parsers. */
cb_status cb_option_number(const cb_option_spec *s, const char *arg, unsigned long long *out, cb_error *err);

/* UTF-8 text of at most max bytes without control characters, or CB_EINPUT
 * naming --name. */
cb_status cb_option_text(const char *name, const char *arg, size_t max, cb_error *err);

/* Records in d, in the order of the rows, the options the rows say, read
 * from the options as the procedure used them (defaults filled in): the
 * CB_OPTF_COMMON rows from common (a cb_gen_options), the others from own
 * (its own record). 0, or -1 when out of memory (d->oom is set). */
int cb_option_record_all(cb_dungeon *d, const cb_option_set *set, const void *common, const void *own);

/* The row of set named name, or NULL. */
const cb_option_spec *cb_option_find(const cb_option_set *set, const char *name);

/* A size read as "N" (N x N) or "WxH", 1 to 100 a side (as --grid is given). */
typedef struct cb_option_size {
  int w, h;
} cb_option_size;

/* A row's parser for a cb_option_size at the row's field: N or WxH, 1 to 100
 * a side; CB_EINPUT naming the option. */
cb_status cb_option_parse_size(const cb_option_spec *s, const char *arg, void *opts, cb_error *err);

#endif
