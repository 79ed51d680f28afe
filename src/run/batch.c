#define _GNU_SOURCE /* sched_getaffinity */
#include "batch.h"

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/alloc.h"

void cb_made_free(cb_made *m) {
  cb_document_free(&m->doc);
  cb_dungeon_free(m->d);
  free(m->marks);
  *m = (cb_made){0};
}

int cb_batch_cores(void) {
  cpu_set_t set;
  int n = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : (int)sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : n > CB_MAX_JOBS ? CB_MAX_JOBS : n;
}

/* Items i live in slot i % jobs from the time a worker claims them to the
 * time the calling thread takes them. */
typedef struct pool {
  const cb_batch *b;
  pthread_mutex_t mu;
  pthread_cond_t ready; /* an item is made */
  pthread_cond_t room;  /* an item is taken, or the batch stops */
  int next;             /* the next item to claim */
  int taken;            /* items taken so far */
  bool stop;
  struct slot {
    bool made;
    cb_made m;
  } * slot;
} pool;

typedef struct worker {
  pool *p;
  int w;
  pthread_t thread;
} worker;

/* The next item to make, or -1 when the batch is over or stopped. */
static int claim(pool *p) {
  pthread_mutex_lock(&p->mu);
  while (!p->stop && p->next < p->b->n && p->next - p->taken >= p->b->jobs)
    pthread_cond_wait(&p->room, &p->mu);
  int i = p->stop || p->next >= p->b->n ? -1 : p->next++;
  pthread_mutex_unlock(&p->mu);
  return i;
}

static void *work(void *arg) {
  worker *wk = arg;
  pool *p = wk->p;
  for (int i; (i = claim(p)) >= 0;) {
    cb_made m = {0};
    p->b->make(p->b->ctx, wk->w, i, &m);
    pthread_mutex_lock(&p->mu);
    p->slot[i % p->b->jobs] = (struct slot){true, m};
    pthread_cond_broadcast(&p->ready);
    pthread_mutex_unlock(&p->mu);
  }
  return NULL;
}

/* Item i once made, its slot emptied and counted as taken. */
static cb_made wait_for(pool *p, int i) {
  struct slot *s = &p->slot[i % p->b->jobs];
  pthread_mutex_lock(&p->mu);
  while (!s->made)
    pthread_cond_wait(&p->ready, &p->mu);
  cb_made m = s->m;
  *s = (struct slot){0};
  p->taken++;
  pthread_cond_broadcast(&p->room);
  pthread_mutex_unlock(&p->mu);
  return m;
}

/* Starts the workers with the signals the calling thread handles blocked;
 * how many started. */
static int start(pool *p, worker *wk, int jobs) {
  sigset_t block, old;
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  sigaddset(&block, SIGTERM);
  sigaddset(&block, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &block, &old);
  int started = 0;
  for (; started < jobs; started++) {
    wk[started] = (worker){p, started, 0};
    if (pthread_create(&wk[started].thread, NULL, work, &wk[started]) != 0) break;
  }
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  return started;
}

static cb_status run_inline(const cb_batch *b, cb_error *err) {
  cb_status st = CB_OK;
  for (int i = 0; i < b->n && st == CB_OK; i++) {
    cb_made m = {0};
    b->make(b->ctx, 0, i, &m);
    st = b->take(b->ctx, i, &m, err);
  }
  return st;
}

cb_status cb_batch_run(const cb_batch *b, cb_error *err) {
  int jobs = b->jobs < b->n ? b->jobs : b->n;
  if (jobs <= 1) return run_inline(b, err);
  pool p = {.b = b};
  worker *wk = cb_calloc((size_t)jobs, sizeof *wk);
  p.slot = cb_calloc((size_t)b->jobs, sizeof *p.slot);
  if (!wk || !p.slot) {
    free(wk);
    free(p.slot);
    return cb_error_oom(err);
  }
  pthread_mutex_init(&p.mu, NULL);
  pthread_cond_init(&p.ready, NULL);
  pthread_cond_init(&p.room, NULL);
  int started = start(&p, wk, jobs);
  cb_status st = started == jobs ? CB_OK : cb_error_set(err, CB_EINTERNAL, "cannot start a thread");
  for (int i = 0; i < b->n && st == CB_OK; i++) {
    cb_made m = wait_for(&p, i);
    st = b->take(b->ctx, i, &m, err);
  }
  pthread_mutex_lock(&p.mu);
  p.stop = true;
  pthread_cond_broadcast(&p.room);
  pthread_mutex_unlock(&p.mu);
  for (int k = 0; k < started; k++)
    pthread_join(wk[k].thread, NULL);
  for (int k = 0; k < b->jobs; k++)
    if (p.slot[k].made) cb_made_free(&p.slot[k].m);
  pthread_cond_destroy(&p.room);
  pthread_cond_destroy(&p.ready);
  pthread_mutex_destroy(&p.mu);
  free(p.slot);
  free(wk);
  return st;
}
