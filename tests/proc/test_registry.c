/* The generator registry and what generators share: every generator is found
 * by its name, and the titles drawn from seeds do not repeat within a batch
 * of up to 1,600 consecutive seeds, wherever it starts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> // after the headers it needs

#include <stdlib.h>
#include <string.h>

#include "registry/registry.h"

static void every_generator_by_name(void **state) {
  (void)state;
  int n = 0;
  const cb_generator *const *list = cb_generator_list(&n);
  assert_int_equal(n, 5);
  for (int i = 0; i < n; i++)
    assert_ptr_equal(cb_generator_find(list[i]->name), list[i]);
  assert_null(cb_generator_find("dropdic"));
  assert_null(cb_generator_find(NULL));
}

static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void titles_do_not_repeat_in_a_batch(void **state) {
  (void)state;
  enum { N = 1600 };
  const uint64_t starts[] = {0, 1, 777,
                             18446744073709551615ull - (N - 1)}; /* batches never wrap (options.c) */
  for (size_t s = 0; s < sizeof starts / sizeof *starts; s++) {
    cb_dungeon *d[N];
    const char *t[N];
    for (int i = 0; i < N; i++) {
      d[i] = cb_dungeon_new("dropdice", starts[s] + (uint64_t)i);
      assert_non_null(d[i]);
      t[i] = cb_gen_title(d[i], "Dice Pits");
      assert_non_null(t[i]);
      assert_non_null(strstr(t[i], " Dice Pits of "));
    }
    qsort(t, N, sizeof *t, cmp);
    for (int i = 1; i < N; i++)
      if (strcmp(t[i - 1], t[i]) == 0)
        fail_msg("seeds from %llu: '%s' twice", (unsigned long long)starts[s], t[i]);
    for (int i = 0; i < N; i++)
      cb_dungeon_free(d[i]);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_generator_by_name),
      cmocka_unit_test(titles_do_not_repeat_in_a_batch),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
