/*
 * portfolio.c -- the deterministic portfolio of portfolio.h: runners side by side (threads) or
 * interleaved (serial), the winner decided by counted work, never by timing.
 *
 * Invariants:
 *  - A runner's work is a weighted sum of its search's counters so far (goap_plan_progress,
 *    read after each slice); its search is deterministic and a sliced search is the same
 *    search, so the work at which it ends (status OK or NO_PLAN: "definitive") depends on the
 *    task alone, not on the slices.
 *  - The winner is the definitive runner with the least final work, ties to the lower index.
 *    A runner is stopped (lost) only once its work reached bound_for(): the least final work
 *    of a finished definitive runner (plus one when that runner has a higher index), so a
 *    runner that could still win is never stopped, whatever the order in which the threads
 *    ran. A slice may cross that bound: the runner then loses, since its final work can only
 *    be larger.
 *  - In threads mode every shared field (status, work, lost) is written and read under the
 *    mutex; a runner's planner is touched only by its own thread, and the runners share only
 *    the read-only domain and symmetry. The calling thread runs runner 0.
 *  - The deadline is the only timing input: a runner still searching at the deadline stops
 *    (status GOAP_IN_PROGRESS, reported as GOAP_TIME_LIMIT).
 */
#define _POSIX_C_SOURCE 200809L
#include "portfolio.h"

#include <pthread.h>
#include <string.h>
#include <time.h>

double cli_portfolio_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

typedef struct pf_shared {
  cli_portfolio_runner *r;
  int n;
  double deadline_ms;
  uint64_t serial_until; /* run_serial: only runners with less work than this (0: no cap) */
  int threaded;
  pthread_mutex_t mu;
} pf_shared;

typedef struct pf_arg {
  pf_shared *f;
  int i;
} pf_arg;

static int definitive(goap_status s) { return s == GOAP_OK || s == GOAP_NO_PLAN; }

/* The work at which runner i can no longer win: UINT64_MAX while no runner has finished. */
static uint64_t bound_for(const pf_shared *f, int i) {
  uint64_t b = UINT64_MAX;
  for (int j = 0; j < f->n; j++) {
    if (j == i || !definitive(f->r[j].status)) continue;
    uint64_t t = f->r[j].work + (i < j ? 1u : 0u);
    if (t < b) b = t;
  }
  return b;
}

static void lock(pf_shared *f) {
  if (f->threaded) pthread_mutex_lock(&f->mu);
}
static void unlock(pf_shared *f) {
  if (f->threaded) pthread_mutex_unlock(&f->mu);
}

static int past_deadline(const pf_shared *f) {
  return f->deadline_ms > 0 && cli_portfolio_now_ms() >= f->deadline_ms;
}

/* Decides (under the lock) whether runner i goes on; if so, how many expansions its next slice
 * may take (>= 1). 0: it is done, lost or out of time. */
static uint32_t next_slice(pf_shared *f, int i) {
  cli_portfolio_runner *r = &f->r[i];
  if (r->status != GOAP_IN_PROGRESS || r->lost) return 0;
  uint64_t b = bound_for(f, i);
  if (r->work >= b) {
    r->lost = 1;
    return 0;
  }
  return r->slice ? r->slice : 1;
}

/* Runs one slice of runner i outside the lock; records the result under it. */
static void run_slice(pf_shared *f, int i, uint32_t exp) {
  cli_portfolio_runner *r = &f->r[i];
  uint32_t done = 0;
  struct timespec c0, c1;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
  goap_status st = goap_plan_step(r->planner, exp, &done);
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
  goap_stats s;
  memset(&s, 0, sizeof s);
  goap_plan_progress(r->planner, &s);
  uint64_t scale = r->scale ? r->scale : 1u;
  uint64_t work = scale * (r->w_expanded * s.expanded + r->w_generated * s.generated +
                           r->w_evaluated * s.evaluated);
  lock(f);
  r->expanded = s.expanded;
  r->work = work;
  r->status = st;
  r->cpu_ms += (double)(c1.tv_sec - c0.tv_sec) * 1e3 + (double)(c1.tv_nsec - c0.tv_nsec) / 1e6;
  unlock(f);
  if (r->delay_us) {
    struct timespec ts = {(time_t)(r->delay_us / 1000000u), (long)(r->delay_us % 1000000u) * 1000L};
    nanosleep(&ts, NULL);
  }
}

static void *runner_main(void *arg) {
  pf_arg *a = arg;
  pf_shared *f = a->f;
  for (;;) {
    if (past_deadline(f)) break;
    lock(f);
    uint32_t exp = next_slice(f, a->i);
    unlock(f);
    if (!exp) break;
    run_slice(f, a->i, exp);
  }
  return NULL;
}

static void run_serial(pf_shared *f) {
  for (;;) {
    if (past_deadline(f)) return;
    /* the runner with the least work so far (ties: the lower index) takes the next slice */
    int pick = -1;
    uint32_t pick_exp = 0;
    for (int i = 0; i < f->n; i++) {
      if (f->serial_until && f->r[i].work >= f->serial_until) continue;
      uint32_t exp = next_slice(f, i);
      if (exp && (pick < 0 || f->r[i].work < f->r[pick].work)) {
        pick = i;
        pick_exp = exp;
      }
    }
    if (pick < 0) return;
    run_slice(f, pick, pick_exp);
  }
}

int cli_portfolio_run(cli_portfolio_runner *runners, int n, cli_portfolio_mode mode,
                      double deadline_ms, uint64_t warmup) {
  if (n < 1) return -1;
  if (n > CLI_PORTFOLIO_MAX) n = CLI_PORTFOLIO_MAX;
  if (mode == CLI_PORTFOLIO_OFF) n = 1;
  pf_shared f;
  memset(&f, 0, sizeof f);
  f.r = runners;
  f.n = n;
  f.deadline_ms = deadline_ms;
  /* every runner's out fields are set before the first begin, so that a runner never begun
   * (runner 0 refused) reads GOAP_INVALID_OPERATION, not what the caller left there */
  for (int i = 0; i < n; i++) {
    cli_portfolio_runner *r = &runners[i];
    r->work = r->expanded = 0;
    r->lost = 0;
    r->cpu_ms = 0.0;
    r->status = GOAP_INVALID_OPERATION;
  }
  for (int i = 0; i < n; i++) {
    cli_portfolio_runner *r = &runners[i];
    r->status = goap_plan_begin(r->planner, &r->req);
    /* a request refused or settled by begin: the first runner's answer stands at once */
    if (i == 0 && r->status != GOAP_IN_PROGRESS && !definitive(r->status)) {
      r->status = cli_finish_plan(r->planner, r->status, &r->plan);
      return -1;
    }
  }
  int started[CLI_PORTFOLIO_MAX] = {0};
  pthread_t tid[CLI_PORTFOLIO_MAX];
  pf_arg args[CLI_PORTFOLIO_MAX];
  if (mode == CLI_PORTFOLIO_THREADS && n > 1) {
    /* the first `warmup` units of each runner run interleaved in this thread: most tasks end
     * there, without paying for a thread */
    if (warmup) {
      f.serial_until = warmup;
      run_serial(&f);
      f.serial_until = 0;
    }
  }
  int live = 0;
  for (int i = 0; i < n; i++) {
    if (next_slice(&f, i)) live++;
  }
  /* no mutex (pthread_mutex_init failed): the serial run below gives the same winner */
  if (mode == CLI_PORTFOLIO_THREADS && live > 1 && !past_deadline(&f) &&
      pthread_mutex_init(&f.mu, NULL) == 0) {
    f.threaded = 1;
    for (int i = 1; i < n; i++) {
      started[i] = 0;
      /* under the lock: the threads started before this one already write their fields */
      lock(&f);
      uint32_t go = next_slice(&f, i);
      unlock(&f);
      if (!go) continue; /* done or lost already: nothing to run */
      args[i].f = &f;
      args[i].i = i;
      started[i] = pthread_create(&tid[i], NULL, runner_main, &args[i]) == 0;
    }
    args[0].f = &f;
    args[0].i = 0;
    runner_main(&args[0]);
    for (int i = 1; i < n; i++) {
      if (started[i]) pthread_join(tid[i], NULL);
    }
    pthread_mutex_destroy(&f.mu);
    f.threaded = 0;
  }
  /* serial mode; in threads mode, what is left when a thread could not be started (the
   * winner is the same either way) */
  run_serial(&f);
  int win = -1;
  for (int i = 0; i < n; i++) {
    if (!definitive(runners[i].status)) continue;
    if (win < 0 || runners[i].work < runners[win].work) win = i;
  }
  for (int i = 0; i < n; i++) {
    if (runners[i].status == GOAP_IN_PROGRESS && !runners[i].lost)
      runners[i].status = GOAP_TIME_LIMIT;
    if (win >= 0 && i != win && definitive(runners[i].status)) runners[i].lost = 1;
  }
  if (win < 0) {
    cli_portfolio_runner *r = &runners[0];
    goap_status why = r->status;
    goap_status st = cli_finish_plan(r->planner, GOAP_IN_PROGRESS, &r->plan);
    if (st == GOAP_INVALID_OPERATION) {
      /* stopped in the middle of its search (time): no result from the planner */
      memset(&r->plan.result, 0, sizeof r->plan.result);
      goap_plan_progress(r->planner, &r->plan.result.stats); /* the counters so far */
    }
    r->plan.result.status = why;
    return -1;
  }
  runners[win].status = cli_finish_plan(runners[win].planner, GOAP_IN_PROGRESS, &runners[win].plan);
  return win;
}
