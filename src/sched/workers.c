/*
 * workers.c -- goap_workers: a fixed pool of threads that runs a parallel-for (the lanes of a
 * goap_world, goap_world_desc.parallel).
 *
 * Invariants:
 *  - One job at a time: goap_workers_run publishes (job, ctx, count) under the mutex with a new
 *    generation number, takes indices itself like every worker, and returns once `done` reaches
 *    count; an index is taken by exactly one thread (next++ under the mutex).
 *  - Workers sleep on `wake` between jobs and never touch a job whose generation they have
 *    already finished; `stop` ends them.
 *  - Everything is allocated at creation; running a job allocates nothing.
 */
#define _POSIX_C_SOURCE 200809L
#include <goap/sched.h>

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"

#define WORKERS_MAX 64

struct goap_workers {
  goap_allocator alloc;
  pthread_mutex_t mu;
  pthread_cond_t wake, finished;
  pthread_t *th;
  int nth, cth;                  /* started; allocated */
  void (*job)(void *ctx, int index);
  void *ctx;
  int count, next, done;
  uint64_t gen;
  int stop;
};

static void *wk_alloc(const goap_allocator *a, size_t n) {
  void *p = a->fn(a->ctx, NULL, 0, n);
  if (p) memset(p, 0, n);
  return p;
}

/* Takes and runs indices of the current job until none is left; called with mu held, returns
 * with it held. */
static void take_indices(goap_workers *w) {
  while (w->next < w->count) {
    int i = w->next++;
    pthread_mutex_unlock(&w->mu);
    w->job(w->ctx, i);
    pthread_mutex_lock(&w->mu);
    if (++w->done == w->count) pthread_cond_broadcast(&w->finished);
  }
}

static void *worker_main(void *arg) {
  goap_workers *w = (goap_workers *)arg;
  uint64_t seen = 0;
  pthread_mutex_lock(&w->mu);
  for (;;) {
    while (!w->stop && w->gen == seen) pthread_cond_wait(&w->wake, &w->mu);
    if (w->stop) break;
    seen = w->gen;
    take_indices(w);
  }
  pthread_mutex_unlock(&w->mu);
  return NULL;
}

goap_status goap_workers_create(int threads, const goap_allocator *alloc, goap_workers **out) {
  if (out) *out = NULL;
  if (!out || threads < 0 || threads > WORKERS_MAX) return GOAP_INVALID_ARGUMENT;
  goap_allocator a = goap__resolve(alloc);
  goap_workers *w = (goap_workers *)wk_alloc(&a, sizeof *w);
  if (!w) return GOAP_OUT_OF_MEMORY;
  w->alloc = a;
  if (threads > 0) {
    w->th = (pthread_t *)wk_alloc(&a, (size_t)threads * sizeof *w->th);
    if (!w->th) {
      a.fn(a.ctx, w, sizeof *w, 0);
      return GOAP_OUT_OF_MEMORY;
    }
    w->cth = threads;
  }
  pthread_mutex_init(&w->mu, NULL);
  pthread_cond_init(&w->wake, NULL);
  pthread_cond_init(&w->finished, NULL);
  for (int i = 0; i < threads; ++i) {
    if (pthread_create(&w->th[i], NULL, worker_main, w) != 0) {
      goap_workers_destroy(w);
      return GOAP_INVALID_OPERATION;
    }
    w->nth++;
  }
  *out = w;
  return GOAP_OK;
}

void goap_workers_destroy(goap_workers *w) {
  if (!w) return;
  pthread_mutex_lock(&w->mu);
  w->stop = 1;
  pthread_cond_broadcast(&w->wake);
  pthread_mutex_unlock(&w->mu);
  for (int i = 0; i < w->nth; ++i) pthread_join(w->th[i], NULL);
  pthread_cond_destroy(&w->finished);
  pthread_cond_destroy(&w->wake);
  pthread_mutex_destroy(&w->mu);
  goap_allocator a = w->alloc;
  if (w->th) a.fn(a.ctx, w->th, (size_t)w->cth * sizeof *w->th, 0);
  a.fn(a.ctx, w, sizeof *w, 0);
}

int goap_workers_count(const goap_workers *w) { return w ? w->nth : 0; }

void goap_workers_run(void *workers, void (*job)(void *ctx, int index), void *ctx, int count) {
  goap_workers *w = (goap_workers *)workers;
  if (!job || count <= 0) return;
  if (!w || w->nth == 0) {
    for (int i = 0; i < count; ++i) job(ctx, i);
    return;
  }
  pthread_mutex_lock(&w->mu);
  w->job = job;
  w->ctx = ctx;
  w->count = count;
  w->next = w->done = 0;
  w->gen++;
  pthread_cond_broadcast(&w->wake);
  take_indices(w);
  while (w->done < w->count) pthread_cond_wait(&w->finished, &w->mu);
  w->count = 0; /* late workers find nothing to take */
  pthread_mutex_unlock(&w->mu);
}
