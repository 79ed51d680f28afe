/* Helpers shared by the unit and property tests. Include after cmocka's
 * prerequisites: <stdarg.h> <stddef.h> <stdint.h> <setjmp.h> <cmocka.h>. */
#ifndef CB_TESTLIB_H
#define CB_TESTLIB_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "render/backend.h"

/* How many seeds a property test walks: $CB_PROPERTY_SEEDS or `dflt`
 * (the suite's promise is at least 10,000). */
int cb_test_seeds(int dflt);

/* Runs the group's tests (n of them, reordered in place) as
 * cmocka_run_group_tests does, those this run asks for alone:
 * $CB_TEST_ONLY=PATTERN those whose names match (cmocka's pattern);
 * $CB_TEST_PART=K/N every Nth from the Kth (0-based), which is how ctest runs
 * a long program as N parts at once (CB_TEST_PARTS_* in tests/CMakeLists.txt). */
int cb_test_run(const char *group, struct CMUnitTest *tests, size_t n, CMFixtureFunction setup,
                CMFixtureFunction teardown);

/* Counts a finding (*count): printed with $CB_MAP_VERBOSE, and the first one's words kept in `first`
 * (cap bytes) for the failure. */
void cb_test_tally(char *first, size_t cap, int *count, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Path of a file in the source tree (tests/catalog/...), in a static buffer. */
const char *cb_test_source_path(const char *rel);

/* A fresh temporary directory for this test (removed by the caller with
 * cb_test_rmdir); static buffer. */
const char *cb_test_tmpdir(void);
void cb_test_rmdir(const char *dir);

/* Reads a whole file; malloc-owned, NUL-terminated; NULL if unreadable. */
char *cb_test_read_file(const char *path, size_t *len);

/* A growing memory buffer usable as a cb_sink write (closure: cb_test_buf *);
 * data is NUL-terminated and malloc-owned (free it). */
typedef struct cb_test_buf {
  char *data;
  size_t len, cap;
} cb_test_buf;
cb_status cb_test_buf_write(void *buf, const unsigned char *data, size_t len);

/* The cairo backend with the fonts we ship, measuring text as crawlbook's
 * PDF does (at 150 dpi); NULL when it cannot be made. cb_backend_destroy it. */
cb_backend *cb_test_cairo(void);

#endif
