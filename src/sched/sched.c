/*
 * sched.c -- the many-agent scheduler: request slots, a FIFO of queued requests, a FIFO of
 * finished ones, and worker threads that plan with their own planners.
 *
 * Invariants:
 *  - One mutex (mu) guards every slot's state and cancelled flag, the free stack, the queued
 *    and finished rings, the counters and the frame budget. A slot's data (request copy,
 *    plan, result) belongs to whoever its state says: the game thread while FREE (during
 *    submit), the worker while RUNNING, the game thread while DONE/COLLECTED. Ownership
 *    changes only under mu, which orders the data writes before the reads.
 *  - No search runs with mu held: a worker takes a batch of requests and a grant of
 *    expansions under mu, plans without it, and publishes the finished requests under mu.
 *  - Every slot index is in exactly one place: the free stack (FREE), the queued ring
 *    (QUEUED), one worker's batch (RUNNING), the finished ring (DONE) or the collected list
 *    (COLLECTED).
 *  - A worker's batch[0] may be a begun search in its planner `cur` (begun != 0); the other
 *    batch entries are not begun. A worker whose search outlasts a slice returns the rest of
 *    its batch to the front of the queued ring, in order, so short requests do not wait
 *    behind a long one.
 *  - All allocation goes through the user's allocator; after creation it is called under a
 *    second mutex (alloc_mu) that is never held while taking mu.
 *  - A ticket is (generation << 32 | slot index + 1); a slot's generation changes each time
 *    it is freed, so old tickets no longer match.
 */
#define _POSIX_C_SOURCE 200809L
#include <goap/sched.h>

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/base.h"

enum { SLOT_FREE = 0, SLOT_QUEUED, SLOT_RUNNING, SLOT_DONE, SLOT_COLLECTED };
enum { ROUND_WORKED = 0, ROUND_IDLE, ROUND_PAUSED };

#define BATCH_MAX 32
#define MAX_THREADS 64
#define MAX_QUEUE (1u << 20)
#define UNLIMITED UINT64_MAX
#define MAX_MS 1e9 /* longer budgets (11 days) are clamped to this */

typedef struct slot {
  uint32_t gen;
  uint8_t state;
  uint8_t cancelled;
  uint8_t own_start, own_want, own_plan; /* buffer allocated on its own (grown) */
  const goap_domain *d;
  void *tag;
  goap_request req;                      /* start and want point into the buffers below */
  goap_word *start;
  goap_cond *want;
  int32_t *plan;
  uint32_t start_cap, want_cap, plan_cap;
  goap_result res;                       /* plan/plan_capacity unused; the rest is the result */
} slot;

typedef struct dom_planner {
  const goap_domain *d;
  goap_planner *p;
} dom_planner;

typedef struct worker {
  goap_sched *s;
  pthread_t thread;
  int started;
  dom_planner *planners;
  int nplanners, cap_planners;
  uint32_t batch[BATCH_MAX];
  uint32_t nbatch;
  int begun;                             /* batch[0] is a begun search in cur */
  goap_planner *cur;
} worker;

struct goap_sched {
  goap_allocator raw;                    /* the user's allocator */
  goap_allocator locked;                 /* the same, behind alloc_mu */
  pthread_mutex_t alloc_mu;
  pthread_mutex_t mu;
  pthread_cond_t work_cv;                /* workers wait here (no work, or budget spent) */
  pthread_cond_t idle_cv;                /* goap_sched_wait waits here (CLOCK_MONOTONIC) */
  int nthreads;                          /* 0: inline */
  worker *workers;                       /* nthreads of them, or 1 inline */
  int nworkers;
  int stop;
  int sleepers;                          /* workers waiting on work_cv */
  goap_planner_desc pdesc;
  uint32_t slice;
  /* slots */
  uint32_t cap;
  slot *slots;
  void *block;                           /* slots and their initial buffers, one allocation */
  size_t block_size;
  uint32_t *free_stack, nfree;
  uint32_t *queued, q_head, q_count;     /* ring of cap */
  uint32_t *done, d_head, d_count;       /* ring of cap */
  uint32_t *collected, ncollected;
  uint32_t running;
  /* budget */
  uint64_t budget_left;                  /* UNLIMITED: no expansion limit */
  uint64_t deadline_ns;                  /* 0: none */
  uint64_t expansions, completed;
};

/* ---- small helpers ------------------------------------------------------------------------ */

static void *raw_realloc(const goap_allocator *a, void *p, size_t old_size, size_t new_size) {
  if (a->fn) return a->fn(a->ctx, p, old_size, new_size);
  return goap_libc_realloc(NULL, p, old_size, new_size);
}

static void *locked_realloc(void *ctx, void *p, size_t old_size, size_t new_size) {
  goap_sched *s = (goap_sched *)ctx;
  pthread_mutex_lock(&s->alloc_mu);
  void *r = raw_realloc(&s->raw, p, old_size, new_size);
  pthread_mutex_unlock(&s->alloc_mu);
  return r;
}

static void *s_alloc(goap_sched *s, size_t n) {
  return locked_realloc(s, NULL, 0, n ? n : 1);
}

static void s_free(goap_sched *s, void *p, size_t n) {
  if (p) locked_realloc(s, p, n ? n : 1, 0);
}

static size_t align16(size_t n) { return (n + 15u) & ~(size_t)15u; }

/* ---- slots (mu held) ---------------------------------------------------------------------- */

static void slot_free(goap_sched *s, uint32_t i) {
  slot *sl = &s->slots[i];
  sl->state = SLOT_FREE;
  sl->cancelled = 0;
  sl->gen = sl->gen + 1u ? sl->gen + 1u : 1u;
  s->free_stack[s->nfree++] = i;
}

static goap_sched_ticket ticket_of(const goap_sched *s, uint32_t i) {
  return ((uint64_t)s->slots[i].gen << 32) | (uint64_t)(i + 1u);
}

/* The slot a ticket names if it is still live, else NULL. */
static slot *slot_of(goap_sched *s, goap_sched_ticket t, uint32_t *index) {
  uint64_t low = t & 0xffffffffu;
  if (low == 0 || low > s->cap) return NULL;
  uint32_t i = (uint32_t)(low - 1u);
  slot *sl = &s->slots[i];
  if (sl->gen != (uint32_t)(t >> 32) || sl->state == SLOT_FREE || sl->cancelled) return NULL;
  *index = i;
  return sl;
}

static void ring_push(uint32_t *ring, uint32_t cap, uint32_t head, uint32_t *count,
                      uint32_t v) {
  ring[(head + *count) % cap] = v;
  ++*count;
}

static uint32_t ring_pop(uint32_t *ring, uint32_t cap, uint32_t *head, uint32_t *count) {
  uint32_t v = ring[*head];
  *head = (*head + 1u) % cap;
  --*count;
  return v;
}

/* Removes v from a ring, keeping the order of the others. Returns 1 if it was there. */
static int ring_remove(uint32_t *ring, uint32_t cap, uint32_t head, uint32_t *count,
                       uint32_t v) {
  for (uint32_t k = 0; k < *count; ++k) {
    if (ring[(head + k) % cap] != v) continue;
    for (uint32_t j = k; j + 1 < *count; ++j) ring[(head + j) % cap] = ring[(head + j + 1) % cap];
    --*count;
    return 1;
  }
  return 0;
}

/* ---- planning (mu not held) ------------------------------------------------------------- */

static goap_planner *planner_for(goap_sched *s, worker *w, const goap_domain *d) {
  for (int i = 0; i < w->nplanners; ++i)
    if (w->planners[i].d == d) return w->planners[i].p;
  if (w->nplanners == w->cap_planners) {
    int ncap = w->cap_planners ? w->cap_planners * 2 : 4;
    dom_planner *np = (dom_planner *)locked_realloc(
        s, w->planners, (size_t)w->cap_planners * sizeof *np, (size_t)ncap * sizeof *np);
    if (!np) return NULL;
    w->planners = np;
    w->cap_planners = ncap;
  }
  goap_planner_desc pd = s->pdesc;
  pd.allocator = s->locked;
  goap_planner *p;
  if (goap_planner_create(d, &pd, &p) != GOAP_OK) return NULL;
  w->planners[w->nplanners].d = d;
  w->planners[w->nplanners].p = p;
  w->nplanners++;
  return p;
}

static void set_failure(slot *sl, goap_status st) {
  memset(&sl->res, 0, sizeof sl->res);
  sl->res.status = st;
}

/* Writes the finished search's result into the slot, growing its plan buffer if needed. */
static void finish_into(goap_sched *s, goap_planner *p, slot *sl) {
  goap_result *r = &sl->res;
  memset(r, 0, sizeof *r);
  r->plan = sl->plan;
  r->plan_capacity = (int)sl->plan_cap;
  goap_plan_finish(p, r);
  if (r->plan_length > r->plan_capacity) {
    size_t need = (size_t)r->plan_length;
    int32_t *np = (int32_t *)s_alloc(s, need * sizeof *np);
    if (!np) {
      set_failure(sl, GOAP_OUT_OF_MEMORY);
      return;
    }
    if (sl->own_plan) s_free(s, sl->plan, sl->plan_cap * sizeof *sl->plan);
    sl->plan = np;
    sl->plan_cap = (uint32_t)need;
    sl->own_plan = 1;
    memset(r, 0, sizeof *r);
    r->plan = sl->plan;
    r->plan_capacity = (int)sl->plan_cap;
    goap_plan_finish(p, r);
  }
  r->plan = NULL;
  r->plan_capacity = 0;
}

/* Plans the worker's batch in order with at most `grant` expansions. Returns how many batch
 * entries finished (a prefix of the batch); *used receives the expansions spent. */
static uint32_t process(goap_sched *s, worker *w, uint64_t grant, uint64_t *used) {
  uint32_t pos = 0;
  uint64_t u = 0;
  while (pos < w->nbatch) {
    slot *sl = &s->slots[w->batch[pos]];
    if (!w->begun) {
      goap_planner *p = planner_for(s, w, sl->d);
      if (!p) {
        set_failure(sl, GOAP_OUT_OF_MEMORY);
        ++pos;
        continue;
      }
      w->cur = p;
      if (goap_plan_begin(p, &sl->req) != GOAP_IN_PROGRESS) {
        finish_into(s, p, sl);
        ++pos;
        continue;
      }
      w->begun = 1;
    }
    if (u >= grant) break;
    uint64_t left = grant - u;
    uint32_t done = 0;
    goap_status st = goap_plan_step(w->cur, left > UINT32_MAX ? UINT32_MAX : (uint32_t)left,
                                    &done);
    u += done;
    if (st == GOAP_IN_PROGRESS) break;
    finish_into(s, w->cur, sl);
    w->begun = 0;
    ++pos;
  }
  *used = u;
  return pos;
}

/* Drops the cancelled entries of a worker's batch (mu held). */
static void drop_cancelled(goap_sched *s, worker *w) {
  uint32_t k = 0;
  for (uint32_t i = 0; i < w->nbatch; ++i) {
    uint32_t idx = w->batch[i];
    if (s->slots[idx].cancelled) {
      if (i == 0) w->begun = 0;
      slot_free(s, idx);
      s->running--;
    } else {
      w->batch[k++] = idx;
    }
  }
  w->nbatch = k;
}

/* One round of a worker (mu held on entry and exit). */
static int worker_round(goap_sched *s, worker *w, int ignore_budget) {
  drop_cancelled(s, w);
  int limited = !ignore_budget && s->budget_left != UNLIMITED;
  /* a spent budget: take no new work (and keep what this worker holds) */
  if (limited && s->budget_left == 0) return w->nbatch || s->q_count ? ROUND_PAUSED : ROUND_IDLE;
  if (!ignore_budget && s->deadline_ns && goap__now_ns() >= s->deadline_ns)
    return w->nbatch || s->q_count ? ROUND_PAUSED : ROUND_IDLE;
  if (w->nbatch == 0) {
    if (s->q_count == 0) return ROUND_IDLE;
    uint32_t n = s->q_count / (uint32_t)s->nworkers + 1u;
    if (n > BATCH_MAX) n = BATCH_MAX;
    if (n > s->q_count) n = s->q_count;
    for (uint32_t i = 0; i < n; ++i) {
      uint32_t idx = ring_pop(s->queued, s->cap, &s->q_head, &s->q_count);
      s->slots[idx].state = SLOT_RUNNING;
      w->batch[i] = idx;
    }
    w->nbatch = n;
    w->begun = 0;
    s->running += n;
    /* more work than this batch: pass the wake-up on to a sleeping worker */
    if (s->q_count && s->sleepers) pthread_cond_signal(&s->work_cv);
  }
  uint64_t grant = s->slice;
  if (limited) {
    if (grant > s->budget_left) grant = s->budget_left;
    s->budget_left -= grant;
  }
  pthread_mutex_unlock(&s->mu);
  uint64_t used = 0;
  uint32_t fin = process(s, w, grant, &used);
  pthread_mutex_lock(&s->mu);
  if (limited) s->budget_left += grant - used;
  s->expansions += used;
  for (uint32_t i = 0; i < fin; ++i) {
    uint32_t idx = w->batch[i];
    slot *sl = &s->slots[idx];
    s->running--;
    if (sl->cancelled) {
      slot_free(s, idx);
    } else {
      sl->state = SLOT_DONE;
      ring_push(s->done, s->cap, s->d_head, &s->d_count, idx);
      s->completed++;
    }
  }
  if (fin) {
    memmove(w->batch, w->batch + fin, (w->nbatch - fin) * sizeof w->batch[0]);
    w->nbatch -= fin;
  }
  /* a long search holds this worker: give the requests queued behind it back to the front of
   * the queue (in order), so that other workers, or later rounds, take them */
  if (w->begun && w->nbatch > 1) {
    for (uint32_t i = w->nbatch; i-- > 1;) {
      uint32_t idx = w->batch[i];
      s->q_head = (s->q_head + s->cap - 1u) % s->cap;
      s->queued[s->q_head] = idx;
      s->q_count++;
      s->slots[idx].state = SLOT_QUEUED;
      s->running--;
    }
    w->nbatch = 1;
    if (s->sleepers) pthread_cond_signal(&s->work_cv);
  }
  if (s->q_count == 0 && s->running == 0) pthread_cond_broadcast(&s->idle_cv);
  return ROUND_WORKED;
}

static void *worker_main(void *arg) {
  worker *w = (worker *)arg;
  goap_sched *s = w->s;
  pthread_mutex_lock(&s->mu);
  while (!s->stop) {
    if (worker_round(s, w, 0) != ROUND_WORKED && !s->stop) {
      s->sleepers++;
      pthread_cond_wait(&s->work_cv, &s->mu);
      s->sleepers--;
    }
  }
  pthread_mutex_unlock(&s->mu);
  return NULL;
}

/* ---- creation and destruction --------------------------------------------------------------- */

static void free_worker(goap_sched *s, worker *w) {
  for (int i = 0; i < w->nplanners; ++i) goap_planner_destroy(w->planners[i].p);
  s_free(s, w->planners, (size_t)w->cap_planners * sizeof *w->planners);
  w->planners = NULL;
  w->nplanners = w->cap_planners = 0;
}

static void free_all(goap_sched *s) {
  int nw = s->nworkers;
  if (s->workers) {
    for (int i = 0; i < nw; ++i) free_worker(s, &s->workers[i]);
    s_free(s, s->workers, (size_t)nw * sizeof *s->workers);
  }
  if (s->slots) {
    for (uint32_t i = 0; i < s->cap; ++i) {
      slot *sl = &s->slots[i];
      if (sl->own_start) s_free(s, sl->start, sl->start_cap * sizeof *sl->start);
      if (sl->own_want) s_free(s, sl->want, sl->want_cap * sizeof *sl->want);
      if (sl->own_plan) s_free(s, sl->plan, sl->plan_cap * sizeof *sl->plan);
    }
  }
  s_free(s, s->block, s->block_size);
  pthread_cond_destroy(&s->idle_cv);
  pthread_cond_destroy(&s->work_cv);
  pthread_mutex_destroy(&s->mu);
  pthread_mutex_destroy(&s->alloc_mu);
  goap_allocator raw = s->raw;
  raw_realloc(&raw, s, sizeof *s, 0);
}

static int default_threads(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  if (n < 2) return 1;
  if (n > 9) return 8;
  return (int)n - 1;
}

goap_status goap_sched_create(const goap_sched_desc *desc, goap_sched **out) {
  if (!out) return GOAP_INVALID_ARGUMENT;
  *out = NULL;
  goap_sched_desc dd;
  memset(&dd, 0, sizeof dd);
  if (desc) dd = *desc;
  if (dd.threads < GOAP_SCHED_INLINE || dd.threads > MAX_THREADS ||
      dd.queue_capacity > MAX_QUEUE)
    return GOAP_INVALID_ARGUMENT;
  int nthreads = dd.threads == 0 ? default_threads() : dd.threads < 0 ? 0 : dd.threads;
  uint32_t cap = dd.queue_capacity ? dd.queue_capacity : 1024u;
  uint32_t hw = dd.state_words_hint ? dd.state_words_hint : 4u;
  uint32_t hc = dd.want_hint ? dd.want_hint : 8u;
  uint32_t hp = dd.plan_hint ? dd.plan_hint : 32u;
  if (hw > 4096u || hc > 4096u || hp > 65536u) return GOAP_INVALID_ARGUMENT;

  goap_sched *s = (goap_sched *)raw_realloc(&dd.allocator, NULL, 0, sizeof *s);
  if (!s) return GOAP_OUT_OF_MEMORY;
  memset(s, 0, sizeof *s);
  s->raw = dd.allocator;
  s->locked.fn = locked_realloc;
  s->locked.ctx = s;
  if (pthread_mutex_init(&s->alloc_mu, NULL) != 0) {
    raw_realloc(&dd.allocator, s, sizeof *s, 0);
    return GOAP_OUT_OF_MEMORY;
  }
  pthread_condattr_t ca;
  int ok = pthread_mutex_init(&s->mu, NULL) == 0;
  ok = ok && pthread_cond_init(&s->work_cv, NULL) == 0;
  ok = ok && pthread_condattr_init(&ca) == 0;
  if (ok) {
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    ok = pthread_cond_init(&s->idle_cv, &ca) == 0;
    pthread_condattr_destroy(&ca);
  }
  if (!ok) { /* cannot happen with the default attributes on POSIX systems we know */
    pthread_mutex_destroy(&s->alloc_mu);
    raw_realloc(&dd.allocator, s, sizeof *s, 0);
    return GOAP_OUT_OF_MEMORY;
  }
  s->nthreads = nthreads;
  s->pdesc = dd.planner;
  s->slice = dd.slice_expansions ? dd.slice_expansions : 256u;
  s->cap = cap;
  s->budget_left = UNLIMITED;

  /* One block: slots, index arrays, and every slot's initial buffers. */
  size_t o_slots = 0;
  size_t o_idx = align16(o_slots + (size_t)cap * sizeof(slot));
  size_t o_words = align16(o_idx + 4u * (size_t)cap * sizeof(uint32_t));
  size_t o_want = align16(o_words + (size_t)cap * hw * sizeof(goap_word));
  size_t o_plan = align16(o_want + (size_t)cap * hc * sizeof(goap_cond));
  size_t total = align16(o_plan + (size_t)cap * hp * sizeof(int32_t));
  s->block = s_alloc(s, total);
  if (!s->block) {
    free_all(s);
    return GOAP_OUT_OF_MEMORY;
  }
  s->block_size = total;
  memset(s->block, 0, total);
  char *base = (char *)s->block;
  s->slots = (slot *)(void *)(base + o_slots);
  uint32_t *idx = (uint32_t *)(void *)(base + o_idx);
  s->free_stack = idx;
  s->queued = idx + cap;
  s->done = idx + 2u * cap;
  s->collected = idx + 3u * cap;
  for (uint32_t i = 0; i < cap; ++i) {
    slot *sl = &s->slots[i];
    sl->gen = 1;
    sl->start = (goap_word *)(void *)(base + o_words) + (size_t)i * hw;
    sl->want = (goap_cond *)(void *)(base + o_want) + (size_t)i * hc;
    sl->plan = (int32_t *)(void *)(base + o_plan) + (size_t)i * hp;
    sl->start_cap = hw;
    sl->want_cap = hc;
    sl->plan_cap = hp;
    s->free_stack[i] = cap - 1u - i; /* slot 0 is handed out first */
  }
  s->nfree = cap;

  int nw = nthreads ? nthreads : 1;
  s->workers = (worker *)s_alloc(s, (size_t)nw * sizeof *s->workers);
  if (!s->workers) {
    free_all(s);
    return GOAP_OUT_OF_MEMORY;
  }
  memset(s->workers, 0, (size_t)nw * sizeof *s->workers);
  s->nworkers = nw;
  for (int i = 0; i < nw; ++i) s->workers[i].s = s;
  for (int i = 0; i < nthreads; ++i) {
    if (pthread_create(&s->workers[i].thread, NULL, worker_main, &s->workers[i]) != 0) {
      pthread_mutex_lock(&s->mu);
      s->stop = 1;
      pthread_cond_broadcast(&s->work_cv);
      pthread_mutex_unlock(&s->mu);
      for (int k = 0; k < i; ++k) pthread_join(s->workers[k].thread, NULL);
      free_all(s);
      return GOAP_INVALID_OPERATION;
    }
    s->workers[i].started = 1;
  }
  *out = s;
  return GOAP_OK;
}

void goap_sched_destroy(goap_sched *s) {
  if (!s) return;
  pthread_mutex_lock(&s->mu);
  s->stop = 1;
  pthread_cond_broadcast(&s->work_cv);
  pthread_mutex_unlock(&s->mu);
  for (int i = 0; i < s->nthreads; ++i)
    if (s->workers[i].started) pthread_join(s->workers[i].thread, NULL);
  free_all(s);
}

/* ---- game-thread calls ------------------------------------------------------------------ */

/* Makes a slot's buffer hold at least n elements (mu held; allocation under alloc_mu). */
static int grow(goap_sched *s, void **buf, uint32_t *cap, uint8_t *own, size_t n, size_t elem) {
  if (n <= *cap) return 1;
  void *nb = s_alloc(s, n * elem);
  if (!nb) return 0;
  if (*own) s_free(s, *buf, (size_t)*cap * elem);
  *buf = nb;
  *cap = (uint32_t)n;
  *own = 1;
  return 1;
}

goap_status goap_sched_submit(goap_sched *s, const goap_domain *d, const goap_request *req,
                              void *tag, goap_sched_ticket *ticket) {
  if (ticket) *ticket = 0;
  if (!s || !d || !req || req->want_count < 0 || (req->want_count > 0 && !req->want))
    return GOAP_INVALID_ARGUMENT;
  size_t words = goap_domain_state_words(d);
  size_t nwant = (size_t)req->want_count;
  if (nwant > 1000000u || words > 1000000u) return GOAP_TOO_LARGE;
  pthread_mutex_lock(&s->mu);
  if (s->nfree == 0) {
    pthread_mutex_unlock(&s->mu);
    return GOAP_TOO_LARGE;
  }
  uint32_t i = s->free_stack[s->nfree - 1];
  slot *sl = &s->slots[i];
  void *bs = sl->start, *bw = sl->want;
  if ((req->start && !grow(s, &bs, &sl->start_cap, &sl->own_start, words, sizeof(goap_word))) ||
      !grow(s, &bw, &sl->want_cap, &sl->own_want, nwant, sizeof(goap_cond))) {
    sl->start = (goap_word *)bs;
    sl->want = (goap_cond *)bw;
    pthread_mutex_unlock(&s->mu);
    return GOAP_OUT_OF_MEMORY;
  }
  sl->start = (goap_word *)bs;
  sl->want = (goap_cond *)bw;
  s->nfree--;
  sl->d = d;
  sl->tag = tag;
  sl->req = *req;
  if (req->start) {
    memcpy(sl->start, req->start, words * sizeof(goap_word));
    sl->req.start = sl->start;
  }
  if (nwant) memcpy(sl->want, req->want, nwant * sizeof(goap_cond));
  sl->req.want = nwant ? sl->want : NULL;
  sl->state = SLOT_QUEUED;
  sl->cancelled = 0;
  ring_push(s->queued, s->cap, s->q_head, &s->q_count, i);
  if (ticket) *ticket = ticket_of(s, i);
  /* wake one sleeping worker when the queue was empty; it passes the wake-up on */
  if (s->q_count == 1 && s->sleepers) pthread_cond_signal(&s->work_cv);
  pthread_mutex_unlock(&s->mu);
  return GOAP_OK;
}

/* Runs the inline worker until no work is left, the budget is spent or the deadline passes
 * (mu held). */
static void run_inline(goap_sched *s, int ignore_budget, uint64_t deadline) {
  worker *w = &s->workers[0];
  for (;;) {
    if (deadline && goap__now_ns() >= deadline) break;
    if (worker_round(s, w, ignore_budget) != ROUND_WORKED) break;
  }
}

goap_status goap_sched_frame(goap_sched *s, const goap_sched_budget *budget) {
  if (!s) return GOAP_INVALID_ARGUMENT;
  double ms = budget ? budget->ms : 0.0;
  if (!(ms >= 0.0) || !isfinite(ms)) return GOAP_INVALID_ARGUMENT;
  pthread_mutex_lock(&s->mu);
  s->budget_left = budget && budget->expansions ? budget->expansions : UNLIMITED;
  if (ms > MAX_MS) ms = MAX_MS;
  s->deadline_ns = ms > 0.0 ? goap__now_ns() + (uint64_t)(ms * 1e6) + 1u : 0;
  if (s->nthreads == 0) run_inline(s, 0, 0);
  else if (s->sleepers) pthread_cond_broadcast(&s->work_cv);
  pthread_mutex_unlock(&s->mu);
  return GOAP_OK;
}

int goap_sched_collect(goap_sched *s, goap_sched_result *out, int cap) {
  if (!s || cap < 0 || (!out && cap > 0)) return -1;
  pthread_mutex_lock(&s->mu);
  for (uint32_t k = 0; k < s->ncollected; ++k) slot_free(s, s->collected[k]);
  s->ncollected = 0;
  int n = 0;
  while (n < cap && s->d_count > 0) {
    uint32_t i = ring_pop(s->done, s->cap, &s->d_head, &s->d_count);
    slot *sl = &s->slots[i];
    sl->state = SLOT_COLLECTED;
    s->collected[s->ncollected++] = i;
    goap_sched_result *r = &out[n++];
    r->ticket = ticket_of(s, i);
    r->tag = sl->tag;
    r->status = sl->res.status;
    r->cost = sl->res.cost;
    r->plan = sl->plan;
    r->plan_length = sl->res.plan_length;
    r->partial = sl->res.partial;
    r->stats = sl->res.stats;
  }
  pthread_mutex_unlock(&s->mu);
  return n;
}

goap_status goap_sched_cancel(goap_sched *s, goap_sched_ticket ticket) {
  if (!s) return GOAP_INVALID_ARGUMENT;
  pthread_mutex_lock(&s->mu);
  uint32_t i = 0;
  slot *sl = slot_of(s, ticket, &i);
  goap_status st = GOAP_OK;
  if (!sl || sl->state == SLOT_COLLECTED) {
    st = GOAP_NOT_FOUND;
  } else if (sl->state == SLOT_QUEUED) {
    ring_remove(s->queued, s->cap, s->q_head, &s->q_count, i);
    slot_free(s, i);
    if (s->q_count == 0 && s->running == 0) pthread_cond_broadcast(&s->idle_cv);
  } else if (sl->state == SLOT_DONE) {
    ring_remove(s->done, s->cap, s->d_head, &s->d_count, i);
    slot_free(s, i);
  } else { /* RUNNING: its worker frees it */
    sl->cancelled = 1;
  }
  pthread_mutex_unlock(&s->mu);
  return st;
}

goap_status goap_sched_ticket_status(goap_sched *s, goap_sched_ticket ticket) {
  if (!s) return GOAP_INVALID_ARGUMENT;
  pthread_mutex_lock(&s->mu);
  uint32_t i = 0;
  const slot *sl = slot_of(s, ticket, &i);
  goap_status st = !sl || sl->state == SLOT_COLLECTED ? GOAP_NOT_FOUND
                   : sl->state == SLOT_DONE           ? GOAP_OK
                                                      : GOAP_IN_PROGRESS;
  pthread_mutex_unlock(&s->mu);
  return st;
}

goap_status goap_sched_get_info(goap_sched *s, goap_sched_info *out) {
  if (!s || !out) return GOAP_INVALID_ARGUMENT;
  pthread_mutex_lock(&s->mu);
  out->threads = s->nthreads;
  out->capacity = s->cap;
  out->queued = s->q_count;
  out->running = s->running;
  out->finished = s->d_count;
  out->budget_left = s->budget_left;
  out->expansions = s->expansions;
  out->completed = s->completed;
  pthread_mutex_unlock(&s->mu);
  return GOAP_OK;
}

goap_status goap_sched_wait(goap_sched *s, double max_ms) {
  if (!s || !(max_ms >= 0.0) || !isfinite(max_ms)) return GOAP_INVALID_ARGUMENT;
  if (max_ms > MAX_MS) max_ms = MAX_MS;
  uint64_t deadline = max_ms > 0.0 ? goap__now_ns() + (uint64_t)(max_ms * 1e6) + 1u : 0;
  goap_status st = GOAP_OK;
  pthread_mutex_lock(&s->mu);
  if (s->nthreads == 0) {
    run_inline(s, 1, deadline);
    if (s->q_count || s->running) st = GOAP_TIME_LIMIT;
  } else {
    while (s->q_count || s->running) {
      if (!deadline) {
        pthread_cond_wait(&s->idle_cv, &s->mu);
        continue;
      }
      if (goap__now_ns() >= deadline) {
        st = GOAP_TIME_LIMIT;
        break;
      }
      struct timespec ts;
      ts.tv_sec = (time_t)(deadline / 1000000000u);
      ts.tv_nsec = (long)(deadline % 1000000000u);
      pthread_cond_timedwait(&s->idle_cv, &s->mu, &ts);
    }
  }
  pthread_mutex_unlock(&s->mu);
  return st;
}
