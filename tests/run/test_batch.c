/* A batch on several threads: items are taken in order whatever the number
 * of workers, no more than jobs + 1 are alive at once, the first failure in
 * item order is the batch's, items made after it are freed, and one job runs
 * on the calling thread. (Workers only record; cmocka asserts on the calling
 * thread alone.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> // after the headers it needs

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/batch.h"

typedef struct probe {
  int fail_at[2];      /* items whose making fails, or -1 */
  atomic_int alive;    /* items made or being made, not yet taken */
  atomic_int most;     /* the most alive at once */
  atomic_int off_main; /* items made on another thread than the caller's */
  pthread_t caller;
  int next, taken; /* the item the take expects next; items taken */
} probe;

static void make(void *ctx, int w, int i, cb_made *out) {
  probe *p = ctx;
  (void)w;
  int now = atomic_fetch_add(&p->alive, 1) + 1;
  for (int m = atomic_load(&p->most); now > m && !atomic_compare_exchange_weak(&p->most, &m, now);)
    ;
  if (!pthread_equal(pthread_self(), p->caller)) atomic_fetch_add(&p->off_main, 1);
  for (int k = 0; k < i % 5; k++)
    sched_yield();         /* items finish out of order */
  out->marks = malloc(32); /* freed with the item, taken or not (the leak checker watches) */
  snprintf(out->err.msg, sizeof out->err.msg, "item %d", i);
  out->st = i == p->fail_at[0] || i == p->fail_at[1] ? CB_EINPUT : CB_OK;
}

static cb_status take(void *ctx, int i, cb_made *m, cb_error *err) {
  probe *p = ctx;
  char want[32];
  snprintf(want, sizeof want, "item %d", i);
  assert_int_equal(i, p->next);
  assert_string_equal(m->err.msg, want);
  p->next++, p->taken++;
  cb_status st = m->st == CB_OK ? CB_OK : cb_error_set(err, m->st, "%s failed", m->err.msg);
  cb_made_free(m);
  atomic_fetch_sub(&p->alive, 1);
  return st;
}

static probe *run(int n, int jobs, int fail_a, int fail_b, cb_status *st, cb_error *err) {
  static probe p;
  memset(&p, 0, sizeof p);
  p.fail_at[0] = fail_a, p.fail_at[1] = fail_b;
  p.caller = pthread_self();
  cb_batch b = {n, jobs, make, take, &p};
  *st = cb_batch_run(&b, err);
  return &p;
}

static void in_order_and_bounded(void **state) {
  (void)state;
  int jobs[] = {1, 2, 3, 8};
  for (size_t k = 0; k < sizeof jobs / sizeof *jobs; k++) {
    cb_error err = {0};
    cb_status st;
    probe *p = run(200, jobs[k], -1, -1, &st, &err);
    assert_int_equal(st, CB_OK);
    assert_int_equal(p->taken, 200);
    assert_true(atomic_load(&p->most) <= jobs[k] + 1);
    if (jobs[k] == 1) assert_int_equal(atomic_load(&p->off_main), 0);
    if (jobs[k] > 1) assert_int_equal(atomic_load(&p->off_main), 200);
  }
}

static void first_failure_in_order_wins(void **state) {
  (void)state;
  for (int jobs = 1; jobs <= 4; jobs++) {
    cb_error err = {0};
    cb_status st;
    probe *p = run(60, jobs, 23, 11, &st, &err);
    assert_int_equal(st, CB_EINPUT);
    assert_string_equal(err.msg, "item 11 failed");
    assert_int_equal(p->taken, 12); /* nothing after the failure */
  }
}

static void fewer_items_than_jobs(void **state) {
  (void)state;
  cb_error err = {0};
  cb_status st;
  probe *p = run(2, 16, -1, -1, &st, &err);
  assert_int_equal(st, CB_OK);
  assert_int_equal(p->taken, 2);
}

static void cores(void **state) {
  (void)state;
  int n = cb_batch_cores();
  assert_true(n >= 1 && n <= CB_MAX_JOBS);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(in_order_and_bounded),
      cmocka_unit_test(first_failure_in_order_wins),
      cmocka_unit_test(fewer_items_than_jobs),
      cmocka_unit_test(cores),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
