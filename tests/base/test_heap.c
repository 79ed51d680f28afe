/* The heap: items come out in order, ties in a fixed order, keys read through
 * ctx, and a failed allocation leaves the heap as it was. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> // after the headers it needs

#include "base/alloc.h"
#include "base/heap.h"
#include "testlib.h"

static int int_less(const void *a, const void *b, void *ctx) {
  (void)ctx;
  return *(const int *)a < *(const int *)b;
}

static void pops_in_order(void **state) {
  (void)state;
  cb_heap h = cb_heap_make(sizeof(int), int_less, NULL);
  for (int i = 0; i < 1000; i++) {
    int v = (i * 7919) % 1009;
    assert_int_equal(cb_heap_push(&h, &v), 0);
  }
  int prev = -1;
  for (int i = 0; i < 1000; i++) {
    int v;
    cb_heap_pop(&h, &v);
    assert_true(v >= prev);
    prev = v;
  }
  assert_int_equal(h.n, 0);
  cb_heap_free(&h);
}

static int key_less(const void *a, const void *b, void *ctx) {
  const double *key = ctx;
  return key[*(const int *)a] < key[*(const int *)b];
}

static void keys_through_ctx(void **state) {
  (void)state;
  double key[5] = {3, 1, 4, 1.5, 0.5};
  cb_heap h = cb_heap_make(sizeof(int), key_less, key);
  assert_int_equal(cb_heap_reserve(&h, 5), 0);
  for (int i = 0; i < 5; i++)
    cb_heap_push(&h, &i);
  int want[5] = {4, 1, 3, 0, 2};
  for (int i = 0; i < 5; i++) {
    int v;
    cb_heap_pop(&h, &v);
    assert_int_equal(v, want[i]);
  }
  cb_heap_free(&h);
}

static void failed_push_keeps_the_heap(void **state) {
  (void)state;
  cb_heap h = cb_heap_make(sizeof(int), int_less, NULL);
  int v = 5;
  assert_int_equal(cb_heap_push(&h, &v), 0);
  for (int i = 0; i < 7; i++)
    assert_int_equal(cb_heap_push(&h, &v), 0); /* fills the first 8 */
  cb_alloc_fail_after(0);
  int low = 1;
  assert_int_equal(cb_heap_push(&h, &low), -1);
  cb_alloc_fail_after(-1);
  assert_int_equal(h.n, 8);
  cb_heap_pop(&h, &v);
  assert_int_equal(v, 5);
  cb_heap_free(&h);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(pops_in_order),
      cmocka_unit_test(keys_through_ctx),
      cmocka_unit_test(failed_push_keeps_the_heap),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
