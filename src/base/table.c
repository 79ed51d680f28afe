#include "table.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "bom.h"
#include "datadir.h"

enum { MAX_FILE = 1 << 20, MAX_LINE = 4096, MAX_FIELDS = 64 };

static int valid_utf8(const unsigned char *s, size_t n) {
  for (size_t i = 0; i < n;) {
    unsigned c = s[i];
    int len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (!len || i + (size_t)len > n) return 0;
    for (int k = 1; k < len; k++)
      if ((s[i + k] & 0xC0) != 0x80) return 0;
    i += (size_t)len;
  }
  return 1;
}

static char *trim(char *s) {
  while (*s == ' ' || *s == '\t')
    s++;
  size_t n = strlen(s);
  while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
    s[--n] = '\0';
  return s;
}

cb_status cb_table_fail(const cb_table *t, const cb_table_row *row, cb_error *err, const char *fmt, ...) {
  char msg[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (row) return cb_error_set(err, CB_EINPUT, "%s:%d: %s", t->path, row->line, msg);
  return cb_error_set(err, CB_EINPUT, "%s: %s", t->path, msg);
}

void cb_table_free(cb_table *t) {
  if (!t) return;
  for (int i = 0; i < t->nrows; i++)
    free(t->rows[i].fields);
  free(t->rows);
  free(t->text);
  free(t->path);
  memset(t, 0, sizeof *t);
}

static cb_status parse_rows(cb_table *t, int min_fields, int max_fields, cb_error *err);

static cb_status start(cb_table *t, const char *name, cb_error *err) {
  memset(t, 0, sizeof *t);
  size_t plen = strlen(name);
  t->path = cb_malloc(plen + 1);
  if (!t->path) return cb_error_oom(err);
  memcpy(t->path, name, plen + 1);
  return CB_OK;
}

/* Checks the bytes in t->text (n of them): at most 1 MiB, no NUL, UTF-8, no byte-order mark. */
static cb_status check_text(cb_table *t, size_t n, cb_error *err) {
  if (n > MAX_FILE) return cb_table_fail(t, NULL, err, "larger than 1 MiB");
  if (memchr(t->text, '\0', n)) return cb_table_fail(t, NULL, err, "holds a NUL byte: not a text file");
  if (!valid_utf8((unsigned char *)t->text, n)) return cb_table_fail(t, NULL, err, "is not valid UTF-8");
  if (cb_starts_with_bom(t->text, n)) return cb_error_set(err, CB_EINPUT, "%s:1: %s", t->path, CB_BOM_MSG);
  t->text[n] = '\0';
  return CB_OK;
}

/* Checks the bytes in t->text (n of them) and splits them into rows. */
static cb_status finish(cb_table *t, size_t n, int min_fields, int max_fields, cb_error *err) {
  cb_status st = check_text(t, n, err);
  if (st == CB_OK) st = parse_rows(t, min_fields, max_fields, err);
  if (st != CB_OK) cb_table_free(t);
  return st;
}

cb_status cb_table_parse(const char *text, size_t len, const char *name, int min_fields, int max_fields,
                         cb_table *t, cb_error *err) {
  cb_status st = start(t, name, err);
  if (st != CB_OK) return st;
  size_t n = len > MAX_FILE ? MAX_FILE + 1 : len;
  t->text = cb_malloc(n + 2);
  if (!t->text) {
    cb_table_free(t);
    return cb_error_oom(err);
  }
  memcpy(t->text, text, n);
  return finish(t, n, min_fields, max_fields, err);
}

/* Reads path's bytes into t->text (*n of them), stopping past 1 MiB (an
 * endless stream is read no further); on error t is freed. */
static cb_status read_bytes(const char *path, cb_table *t, size_t *n, cb_error *err) {
  cb_status st = start(t, path, err);
  if (st != CB_OK) return st;
  FILE *f = fopen(path, "rb");
  if (!f) {
    st = cb_error_set(err, CB_EINPUT, "%s: %s", path, strerror(errno));
    cb_table_free(t);
    return st;
  }
  /* grow as the file is read: tables are small, and read once per dungeon */
  size_t tcap = 0;
  int nomem = 0;
  *n = 0;
  for (;;) {
    if (cb_grow(&t->text, &tcap, *n + 4096 + 2, 1)) {
      nomem = 1;
      break;
    }
    size_t want = tcap - *n - 1, got = fread(t->text + *n, 1, want, f);
    *n += got;
    if (got < want || *n > MAX_FILE) break;
  }
  int read_error = ferror(f);
  fclose(f);
  if (nomem || read_error) {
    st = nomem ? cb_error_oom(err) : cb_table_fail(t, NULL, err, "cannot read it (is it a directory?)");
    cb_table_free(t);
  }
  return st;
}

cb_status cb_table_read(const char *path, int min_fields, int max_fields, cb_table *t, cb_error *err) {
  size_t n;
  cb_status st = read_bytes(path, t, &n, err);
  return st != CB_OK ? st : finish(t, n, min_fields, max_fields, err);
}

cb_status cb_table_text(const char *path, char **text, cb_error *err) {
  cb_table t;
  size_t n;
  *text = NULL;
  cb_status st = read_bytes(path, &t, &n, err);
  if (st == CB_OK) st = check_text(&t, n, err);
  if (st == CB_OK) *text = t.text, t.text = NULL;
  cb_table_free(&t);
  return st;
}

static cb_status parse_rows(cb_table *t, int min_fields, int max_fields, cb_error *err) {
  cb_status st = CB_OK;
  size_t cap = 0;
  int line = 0;
  for (char *p = t->text; *p && st == CB_OK;) {
    char *end = strchr(p, '\n');
    if (end) *end = '\0';
    line++;
    cb_table_row row = {line, 0, NULL};
    if (strlen(p) > MAX_LINE) {
      st = cb_table_fail(t, &row, err, "line longer than %d bytes", MAX_LINE);
      break;
    }
    char *s = trim(p);
    if (*s && *s != '#') {
      char *fields[MAX_FIELDS];
      int nf = 0;
      for (char *q = s;; nf++) {
        char *bar = strchr(q, '|');
        if (bar) *bar = '\0';
        if (nf < MAX_FIELDS) fields[nf] = trim(q);
        if (!bar) {
          nf++;
          break;
        }
        q = bar + 1;
      }
      if (nf < min_fields || nf > max_fields || nf > MAX_FIELDS) {
        if (min_fields == max_fields)
          st = cb_table_fail(t, &row, err, "expected %d fields separated by '|', found %d", min_fields, nf);
        else
          st = cb_table_fail(t, &row, err, "expected %d to %d fields separated by '|', found %d", min_fields,
                             max_fields, nf);
        break;
      }
      row.nfields = nf;
      row.fields = cb_malloc((size_t)nf * sizeof *row.fields);
      if (!row.fields || cb_grow(&t->rows, &cap, (size_t)t->nrows + 1, sizeof *t->rows)) {
        free(row.fields);
        st = cb_error_oom(err);
        break;
      }
      memcpy(row.fields, fields, (size_t)nf * sizeof *fields);
      t->rows[t->nrows++] = row;
    }
    if (!end) break;
    p = end + 1;
  }
  return st;
}

int cb_table_int(const char *field, long lo, long hi, long *out) {
  if (!field || !*field) return 0;
  char *end;
  errno = 0;
  long v = strtol(field, &end, 10);
  if (errno || *end || v < lo || v > hi) return 0;
  *out = v;
  return 1;
}

int cb_table_num(const char *field, double lo, double hi, double *out) {
  if (!field || !*field) return 0;
  char *end;
  errno = 0;
  double v = strtod(field, &end);
  if (errno || *end || !isfinite(v) || v < lo || v > hi) return 0;
  *out = v;
  return 1;
}

const char *cb_table_path(const char *name, char *buf, size_t cap) {
  size_t n = strlen(name);
  const char *dir = cb_datadir();
  if (strchr(name, '/') || (n > 4 && strcmp(name + n - 4, ".txt") == 0) || !dir)
    snprintf(buf, cap, "%s", name);
  else
    snprintf(buf, cap, "%s/templates/%s.txt", dir, name);
  return buf;
}
