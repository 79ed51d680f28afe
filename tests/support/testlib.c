#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../tests/support/testlib.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int cb_test_seeds(int dflt) {
  const char *s = getenv("CB_PROPERTY_SEEDS");
  int n = s ? atoi(s) : 0;
  return n > 0 ? n : dflt;
}

static size_t test_select(struct CMUnitTest *tests, size_t n) {
  const char *only = getenv("CB_TEST_ONLY"), *part = getenv("CB_TEST_PART");
  if (only) cmocka_set_test_filter(only);
  int k = 0, parts = 1;
  if (!part) return n;
  if (sscanf(part, "%d/%d", &k, &parts) != 2 || parts < 1 || k < 0 || k >= parts) {
    fprintf(stderr, "CB_TEST_PART=%s is not K/N with 0 <= K < N: running every test\n", part);
    return n;
  }
  size_t kept = 0;
  for (size_t i = (size_t)k; i < n; i += (size_t)parts)
    tests[kept++] = tests[i];
  return kept;
}

int cb_test_run(const char *group, struct CMUnitTest *tests, size_t n, CMFixtureFunction setup,
                CMFixtureFunction teardown) {
  return _cmocka_run_group_tests(group, tests, test_select(tests, n), setup, teardown);
}

const char *cb_test_source_path(const char *rel) {
  static char buf[PATH_MAX];
  const char *root = getenv("CB_SOURCE_DIR");
  snprintf(buf, sizeof buf, "%s/%s", root ? root : ".", rel);
  return buf;
}

const char *cb_test_tmpdir(void) {
  static char buf[PATH_MAX];
  const char *base = getenv("TMPDIR");
  snprintf(buf, sizeof buf, "%s/cbtest.XXXXXX", base && *base ? base : "/tmp");
  return mkdtemp(buf);
}

void cb_test_rmdir(const char *dir) {
  char cmd[PATH_MAX + 16];
  if (!dir || strncmp(dir, "/", 1) != 0 || strstr(dir, "cbtest.") == NULL) return;
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
}

char *cb_test_read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 65536, n = 0;
  char *buf = malloc(cap + 1);
  size_t got;
  while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
    n += got;
    if (n == cap) {
      char *nb = realloc(buf, cap * 2 + 1);
      if (!nb) {
        free(buf);
        buf = NULL;
        break;
      }
      buf = nb;
      cap *= 2;
    }
  }
  fclose(f);
  if (!buf) return NULL;
  buf[n] = '\0';
  if (len) *len = n;
  return buf;
}

cb_status cb_test_buf_write(void *closure, const unsigned char *data, size_t len) {
  cb_test_buf *b = closure;
  if (b->len + len + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + len + 1)
      cap *= 2;
    char *nd = realloc(b->data, cap);
    if (!nd) return CB_EINTERNAL;
    b->data = nd;
    b->cap = cap;
  }
  memcpy(b->data + b->len, data, len);
  b->len += len;
  b->data[b->len] = '\0';
  return CB_OK;
}

cb_backend *cb_test_cairo(void) {
  static char fonts[4096];
  snprintf(fonts, sizeof fonts, "%s", cb_test_source_path("fonts"));
  cb_render_options ro = {CB_FORMAT_PDF, 150, fonts};
  cb_error err = {0};
  cb_backend *b = NULL;
  return cb_backend_create(cb_backend_find("cairo"), &ro, &b, &err) == CB_OK ? b : NULL;
}

void cb_test_tally(char *first, size_t cap, int *count, const char *fmt, ...) {
  va_list ap;
  (*count)++;
  if (getenv("CB_MAP_VERBOSE")) {
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
  }
  if (first[0]) return;
  va_start(ap, fmt);
  vsnprintf(first, cap, fmt, ap);
  va_end(ap);
}
