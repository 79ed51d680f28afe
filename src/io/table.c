#include "table.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/alloc.h"
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
  while (*s == ' ' || *s == '\t') s++;
  size_t n = strlen(s);
  while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r')) s[--n] = '\0';
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
  for (int i = 0; i < t->nrows; i++) free(t->rows[i].fields);
  free(t->rows);
  free(t->text);
  free(t->path);
  memset(t, 0, sizeof *t);
}

cb_status cb_table_read(const char *path, int min_fields, int max_fields, cb_table *t, cb_error *err) {
  memset(t, 0, sizeof *t);
  size_t plen = strlen(path);
  t->path = cb_malloc(plen + 1);
  if (!t->path) return cb_error_set(err, CB_EINTERNAL, "out of memory");
  memcpy(t->path, path, plen + 1);
  FILE *f = fopen(path, "rb");
  if (!f) {
    cb_status st = cb_error_set(err, CB_EINPUT, "%s: %s", path, strerror(errno));
    cb_table_free(t);
    return st;
  }
  t->text = cb_malloc(MAX_FILE + 2);
  size_t n = t->text ? fread(t->text, 1, MAX_FILE + 1, f) : 0;
  int read_error = ferror(f);
  fclose(f);
  cb_status st = CB_OK;
  if (!t->text) st = cb_error_set(err, CB_EINTERNAL, "out of memory");
  else if (read_error) st = cb_table_fail(t, NULL, err, "cannot read it (is it a directory?)");
  else if (n > MAX_FILE) st = cb_table_fail(t, NULL, err, "larger than 1 MiB");
  else if (memchr(t->text, '\0', n)) st = cb_table_fail(t, NULL, err, "holds a NUL byte: not a text file");
  else if (!valid_utf8((unsigned char *)t->text, n)) st = cb_table_fail(t, NULL, err, "is not valid UTF-8");
  if (st != CB_OK) {
    cb_table_free(t);
    return st;
  }
  t->text[n] = '\0';
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
        st = cb_error_set(err, CB_EINTERNAL, "out of memory");
        break;
      }
      memcpy(row.fields, fields, (size_t)nf * sizeof *fields);
      t->rows[t->nrows++] = row;
    }
    if (!end) break;
    p = end + 1;
  }
  if (st != CB_OK) cb_table_free(t);
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
  if (strchr(name, '/') || (n > 4 && strcmp(name + n - 4, ".txt") == 0) || !dir) snprintf(buf, cap, "%s", name);
  else snprintf(buf, cap, "%s/templates/%s.txt", dir, name);
  return buf;
}
