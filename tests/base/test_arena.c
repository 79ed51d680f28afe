/* The arena: zeroed, aligned memory that survives until the arena is freed,
 * big blocks, overflow refused, strings copied. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> // after the headers it needs

#include <string.h>

#include "base/arena.h"
#include "testlib.h"

static void zeroed_aligned_and_kept(void **state) {
  (void)state;
  cb_arena *a = cb_arena_new();
  assert_non_null(a);
  unsigned char *blocks[2000];
  size_t sizes[2000];
  for (int i = 0; i < 2000; i++) {
    sizes[i] = (size_t)(i * 37 % 301) + 1;
    blocks[i] = cb_arena_alloc(a, sizes[i], 1);
    assert_non_null(blocks[i]);
    assert_int_equal((uintptr_t)blocks[i] % _Alignof(max_align_t), 0);
    for (size_t k = 0; k < sizes[i]; k++)
      assert_int_equal(blocks[i][k], 0);
    memset(blocks[i], i & 0xff, sizes[i]);
  }
  /* nothing handed out overlaps: every block still holds its own byte */
  for (int i = 0; i < 2000; i++)
    for (size_t k = 0; k < sizes[i]; k++)
      assert_int_equal(blocks[i][k], (unsigned char)(i & 0xff));
  assert_true(cb_arena_used(a) >= 2000);
  cb_arena_free(a);
}

static void big_blocks_keep_the_current_chunk(void **state) {
  (void)state;
  cb_arena *a = cb_arena_new();
  char *small = cb_arena_alloc(a, 100, 1);
  char *big = cb_arena_alloc(a, 1 << 20, 1); /* larger than a chunk */
  char *small2 = cb_arena_alloc(a, 100, 1);
  assert_non_null(small);
  assert_non_null(big);
  assert_non_null(small2);
  memset(big, 0x5a, 1 << 20);
  memset(small, 1, 100);
  memset(small2, 2, 100);
  assert_int_equal(big[0], 0x5a);
  assert_int_equal(big[(1 << 20) - 1], 0x5a);
  assert_int_equal(small[99], 1);
  cb_arena_free(a);
}

static void overflow_and_null_refused(void **state) {
  (void)state;
  cb_arena *a = cb_arena_new();
  assert_null(cb_arena_alloc(a, SIZE_MAX / 2, 4));
  assert_null(cb_arena_alloc(a, SIZE_MAX, 1));
  assert_null(cb_arena_alloc(NULL, 1, 1));
  assert_non_null(cb_arena_alloc(a, 0, 8)); /* zero bytes still give a valid pointer */
  cb_arena_free(a);
  cb_arena_free(NULL);
  assert_int_equal(cb_arena_used(NULL), 0);
}

static void strings(void **state) {
  (void)state;
  cb_arena *a = cb_arena_new();
  char src[] = "room 12";
  char *s = cb_arena_strdup(a, src);
  src[0] = 'X';
  assert_string_equal(s, "room 12");
  assert_string_equal(cb_arena_strndup(a, "abcdef", 3), "abc");
  assert_null(cb_arena_strdup(a, NULL));
  assert_string_equal(cb_arena_printf(a, "%s-%d-%.2f", "K", 7, 1.5), "K-7-1.50");
  char longer[3000];
  memset(longer, 'x', sizeof longer - 1);
  longer[sizeof longer - 1] = '\0';
  char *p = cb_arena_printf(a, "%s!", longer);
  assert_int_equal(strlen(p), sizeof longer);
  assert_int_equal(p[sizeof longer - 1], '!');
  cb_arena_free(a);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(zeroed_aligned_and_kept),
      cmocka_unit_test(big_blocks_keep_the_current_chunk),
      cmocka_unit_test(overflow_and_null_refused),
      cmocka_unit_test(strings),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
