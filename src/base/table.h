/* Content tables in templates/: plain text a user edits without recompiling.
 * One row per line, fields separated by '|', spaces around fields trimmed;
 * blank lines and lines starting with '#' are skipped. Every error names
 * file:line. */
#ifndef CB_TABLE_H
#define CB_TABLE_H

#include <stddef.h>

#include "error.h"

typedef struct cb_table_row {
  int line; /* 1-based line in the file */
  int nfields;
  char **fields; /* trimmed, NUL-terminated */
} cb_table_row;

typedef struct cb_table {
  char *path; /* as given, for messages */
  int nrows;
  cb_table_row *rows;
  char *text; /* the file's bytes the fields point into */
} cb_table;

/* Reads path into t. Rows must have min_fields..max_fields fields (else
 * CB_EINPUT "path:line: expected ... fields"). Files over 1 MiB, lines over
 * 4096 bytes, NUL bytes and invalid UTF-8 are refused. Free with cb_table_free. */
cb_status cb_table_read(const char *path, int min_fields, int max_fields, cb_table *t, cb_error *err);
/* The same for text already in memory (len bytes); name is used in messages. */
cb_status cb_table_parse(const char *text, size_t len, const char *name, int min_fields, int max_fields,
                         cb_table *t, cb_error *err);
/* The whole text of path, checked as a table's is (at most 1 MiB, read no
 * further; no NUL byte; valid UTF-8), for a file of another form (a mask):
 * *text, NUL-terminated, is the caller's to free (NULL on error). */
cb_status cb_table_text(const char *path, char **text, cb_error *err);
void cb_table_free(cb_table *t);

/* Sets "path:line: message" for a row (CB_EINPUT) and returns CB_EINPUT. */
cb_status cb_table_fail(const cb_table *t, const cb_table_row *row, cb_error *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* A whole number in lo..hi from a field; false when it is not one. */
int cb_table_int(const char *field, long lo, long hi, long *out);
/* A finite number in lo..hi. */
int cb_table_num(const char *field, double lo, double hi, double *out);

/* The path of a table shipped in templates/ (name without ".txt"), or the
 * name itself when it contains a '/' or ends in ".txt"; in buf. */
const char *cb_table_path(const char *name, char *buf, size_t cap);

#endif
