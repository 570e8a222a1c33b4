/*
 * bench_replay.c -- goap_bench_replay: what recording costs a crowd of villagers, and how fast
 * the recording replays (goap/replay.h).
 *
 * The crowd: N villagers (default 1,000) on examples/village.goap, agent i starting from the
 * memory of scenario i % 5 (house, house_and_roof, well, stall, iron_tools; the festival's
 * greedy search is 30-50 ms, which would swamp the frames) and pursuing that scenario's goal
 * (five agent types: the builder, the roofer, the well digger, the stall keeper, the smith),
 * greedy search with hff, one shared planner and one shared plan cache. An action runs 1 to 4 frames
 * (by its id) and then succeeds, or fails with probability 0.05 (a per-agent seeded
 * generator); an agent that has nothing left to do is put back in its start state by the host
 * (goap_agent_set on each variable that differs). So most frames tick running actions, and
 * some agents replan (from the cache, mostly) every frame.
 *
 * Three runs of W warm-up + F timed frames (defaults 50 + 200), each on a fresh crowd:
 *  - live: the loop calling goap_agent_update on every agent;
 *  - recorded: the same loop with a goap_recorder attached to every agent (into a memory
 *    sink), a frame mark per frame;
 *  - replay: a fresh crowd attached to a goap_replayer of the recorded log, one
 *    goap_replayer_step per frame (the callbacks are not called: their results are read).
 * Times are the thread's CPU time per frame (the host is shared); reported: the median frame
 * and the sum over the F timed frames, the best of --reps alternations (default 3). The
 * recorded and replayed runs must decide exactly as the live one (their event counts are
 * compared; the replay must not diverge), else the exit status is 1. --only MODE runs one
 * mode (replay: after an untimed recording), e.g. under callgrind, whose instruction counts of
 * frame() and goap_replayer_step() do not depend on the load of a shared host.
 */
#define _POSIX_C_SOURCE 200809L

#include <goap/agent.h>
#include <goap/file.h>
#include <goap/replay.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"

#ifndef GOAP_EXAMPLES_DIR
#define GOAP_EXAMPLES_DIR "examples"
#endif

typedef struct villager {
  struct crowd *c;
  int scenario;
  int remaining;                 /* frames the running action still takes */
  uint64_t rng;
} villager;

typedef struct crowd {
  const goap_file *f;
  const goap_domain *d;
  goap_agent_type *types[5];
  goap_plan_cache *cache;
  goap_planner *planner;
  goap_agent **agents;
  villager *v;
  int n;
  uint64_t events;               /* every event of every agent */
  int live;                      /* 0: replaying (no callback may run) */
  int misuse;                    /* callbacks run during a replay */
} crowd;

static const char *const scenarios[] = {"house", "house_and_roof", "well", "stall",
                                        "iron_tools"};
#define NSCEN 5
static goap_word starts[NSCEN][16];

static uint64_t rng_next(uint64_t *s) {
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 2685821657736338717ull;
}

static void on_start(goap_agent *a, int action, void *user) {
  villager *v = (villager *)goap_agent_host(a);
  (void)user;
  if (!v->c->live) {
    v->c->misuse++;
    return;
  }
  v->remaining = 1 + action % 4;
}

static goap_action_state on_tick(goap_agent *a, int action, double dt, void *user) {
  villager *v = (villager *)goap_agent_host(a);
  (void)action;
  (void)dt;
  (void)user;
  if (!v->c->live) {
    v->c->misuse++;
    return GOAP_ACTION_RUNNING;
  }
  if (--v->remaining > 0) return GOAP_ACTION_RUNNING;
  return rng_next(&v->rng) % 20 == 0 ? GOAP_ACTION_FAILURE : GOAP_ACTION_SUCCESS;
}

static void on_event(goap_agent *a, const goap_agent_event *ev, void *user) {
  (void)a;
  (void)ev;
  ((crowd *)user)->events++;
}

static int make_crowd(crowd *c, const goap_file *f, int n, int live) {
  memset(c, 0, sizeof *c);
  c->f = f;
  c->d = goap_file_domain(f);
  c->n = n;
  c->live = live;
  int na = goap_domain_action_count(c->d), ng = goap_domain_goal_count(c->d);
  goap_action_binding *ab = (goap_action_binding *)calloc((size_t)na, sizeof *ab);
  goap_goal_binding *gb = (goap_goal_binding *)calloc((size_t)ng, sizeof *gb);
  if (!ab || !gb || goap_file_bindings(f, ab, na, gb, ng) != GOAP_OK) return 0;
  for (int i = 0; i < na; ++i) {
    ab[i].start = on_start;
    ab[i].tick = on_tick;
  }
  goap_status st = GOAP_OK;
  for (int s = 0; s < NSCEN && st == GOAP_OK; ++s) {
    const goap_scenario *sc = goap_file_scenario(f, goap_file_find_scenario(f, scenarios[s]));
    for (int g = 0; g < ng; ++g) gb[g].disabled = g != sc->goal;
    goap_agent_type_desc td;
    memset(&td, 0, sizeof td);
    td.name = scenarios[s];
    td.actions = ab;
    td.action_count = na;
    td.goals = gb;
    td.goal_count = ng;
    td.search = GOAP_SEARCH_GREEDY;
    td.heuristic = GOAP_H_FF;
    st = goap_agent_type_create(c->d, &td, &c->types[s], NULL);
  }
  free(ab);
  free(gb);
  if (st != GOAP_OK) return 0;
  goap_plan_cache_create(NULL, 256, &c->cache);
  goap_planner_create(c->d, NULL, &c->planner);
  c->agents = (goap_agent **)calloc((size_t)n, sizeof *c->agents);
  c->v = (villager *)calloc((size_t)n, sizeof *c->v);
  if (!c->cache || !c->planner || !c->agents || !c->v) return 0;
  for (int i = 0; i < n; ++i) {
    villager *v = &c->v[i];
    v->c = c;
    v->scenario = i % NSCEN;
    uint64_t k = (uint64_t)i + 1u;
    v->rng = UINT64_C(0x9e3779b97f4a7c15) ^ (k * UINT64_C(0x2545f4914f6cdd1d));
    goap_agent_desc ad;
    memset(&ad, 0, sizeof ad);
    ad.type = c->types[v->scenario];
    ad.memory = starts[v->scenario];
    ad.host = v;
    ad.cache = c->cache;
    ad.planner = c->planner;
    ad.on_event = on_event;
    ad.event_user = c;
    if (goap_agent_create(&ad, &c->agents[i], NULL) != GOAP_OK) return 0;
  }
  return 1;
}

static void free_crowd(crowd *c) {
  for (int i = 0; c->agents && i < c->n; ++i) goap_agent_destroy(c->agents[i]);
  free(c->agents);
  free(c->v);
  goap_planner_destroy(c->planner);
  goap_plan_cache_destroy(c->cache);
  for (int s = 0; s < NSCEN; ++s) goap_agent_type_destroy(c->types[s]);
}

#if defined(__GNUC__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE
#endif

/* One frame of the host (noinline: callgrind attributes the live and recorded frames to it). */
static NOINLINE int frame(crowd *c, goap_recorder *rec) {
  int nv = goap_domain_var_count(c->d);
  for (int i = 0; i < c->n; ++i) {
    goap_agent *a = c->agents[i];
    goap_status st = goap_agent_update(a, 0.1);
    if (st == GOAP_OUT_OF_MEMORY || st == GOAP_INVALID_ARGUMENT) return 0;
    if (st == GOAP_NO_PLAN) { /* nothing left to do: a new day from the start state */
      const goap_word *start = starts[c->v[i].scenario];
      for (int var = 0; var < nv; ++var) {
        int32_t want = goap_state_get(c->d, start, var);
        if (goap_agent_get(a, var) != want) goap_agent_set(a, var, want);
      }
    }
  }
  if (rec) goap_recorder_frame(rec);
  return 1;
}

typedef struct sink_buf {
  unsigned char *p;
  size_t n, cap;
} sink_buf;

static int sink(void *user, const void *data, size_t size) {
  sink_buf *b = (sink_buf *)user;
  if (b->n + size > b->cap) {
    size_t cap = (b->n + size) * 2;
    unsigned char *q = (unsigned char *)realloc(b->p, cap);
    if (!q) return 1;
    b->p = q;
    b->cap = cap;
  }
  memcpy(b->p + b->n, data, size);
  b->n += size;
  return 0;
}

typedef struct run_result {
  double median_ms, total_ms;    /* CPU time of the timed frames */
  uint64_t events;
  size_t log_bytes;
  int ok;
} run_result;

static double cpu_ms(void) { return bench_clock_ns(CLOCK_THREAD_CPUTIME_ID) / 1e6; }

/* mode 0: live, 1: recorded (into *log), 2: replay of *log */
static run_result run(const goap_file *f, int n, int warm, int frames, int mode, sink_buf *log) {
  run_result r;
  memset(&r, 0, sizeof r);
  crowd c;
  double *t = (double *)calloc((size_t)frames, sizeof *t);
  if (!t || !make_crowd(&c, f, n, mode != 2)) {
    free(t);
    return r;
  }
  goap_recorder *rec = NULL;
  goap_replayer *rp = NULL;
  int ok = 1;
  if (mode == 1) {
    goap_recorder_desc rd;
    memset(&rd, 0, sizeof rd);
    rd.domain = c.d;
    rd.sink = sink;
    rd.sink_user = log;
    rd.chunk_size = 1 << 16;
    ok = goap_recorder_create(&rd, &rec) == GOAP_OK;
    for (int i = 0; i < n && ok; ++i) ok = goap_recorder_attach(rec, c.agents[i]) == GOAP_OK;
  } else if (mode == 2) {
    goap_replayer_desc pd;
    memset(&pd, 0, sizeof pd);
    pd.domain = c.d;
    pd.log = log->p;
    pd.size = log->n;
    ok = goap_replayer_create(&pd, &rp, NULL) == GOAP_OK;
    for (int i = 0; i < n && ok; ++i) ok = goap_replayer_attach(rp, c.agents[i]) == GOAP_OK;
  }
  for (int k = 0; k < warm + frames && ok; ++k) {
    double t0 = cpu_ms();
    if (mode == 2) ok = goap_replayer_step(rp) == GOAP_IN_PROGRESS;
    else ok = frame(&c, rec);
    double dt = cpu_ms() - t0;
    if (k >= warm) t[k - warm] = dt;
  }
  if (ok && mode == 1) ok = goap_recorder_finish(rec) == GOAP_OK;
  if (ok && mode == 2) ok = goap_replayer_run(rp) == GOAP_OK && c.misuse == 0;
  for (int k = 0; k < frames; ++k) r.total_ms += t[k];
  r.median_ms = bench_median(t, frames);
  r.events = c.events;
  r.log_bytes = log ? log->n : 0;
  r.ok = ok;
  goap_recorder_destroy(rec);
  goap_replayer_destroy(rp);
  free_crowd(&c);
  free(t);
  return r;
}

int main(int argc, char **argv) {
  int n = 1000, warm = 50, frames = 200, reps = 3, only = -1;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--agents") == 0 && i + 1 < argc) n = atoi(argv[++i]);
    else if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc) frames = atoi(argv[++i]);
    else if (strcmp(argv[i], "--warmup") == 0 && i + 1 < argc) warm = atoi(argv[++i]);
    else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc) reps = atoi(argv[++i]);
    else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
      ++i;
      only = strcmp(argv[i], "live") == 0 ? 0 : strcmp(argv[i], "recorded") == 0 ? 1
             : strcmp(argv[i], "replay") == 0 ? 2 : 3;
      if (only == 3) return 2;
    }
    else {
      fprintf(stderr, "usage: goap_bench_replay [--agents N] [--frames F] [--warmup W] "
                      "[--reps R] [--only live|recorded|replay]\n");
      return 2;
    }
  }
  if (n < 1 || frames < 1 || warm < 0 || reps < 1) return 2;
  goap_file *f = NULL;
  if (goap_file_load(GOAP_EXAMPLES_DIR "/village.goap", NULL, &f, NULL) != GOAP_OK) {
    fprintf(stderr, "goap_bench_replay: cannot load the village\n");
    return 2;
  }
  const goap_domain *d = goap_file_domain(f);
  if (goap_domain_state_words(d) > 16) return 2;
  for (int s = 0; s < NSCEN; ++s) {
    const goap_scenario *sc = goap_file_scenario(f, goap_file_find_scenario(f, scenarios[s]));
    if (!sc) return 2;
    goap_state_init(d, starts[s]);
    goap_state_assign(d, starts[s], sc->given, sc->given_count);
  }
  run_result best[3];
  for (int m = 0; m < 3; ++m) best[m].total_ms = best[m].median_ms = 1e300;
  int ok = 1;
  uint64_t events[3] = {0, 0, 0};
  size_t bytes = 0;
  /* the sink: a buffer allocated and touched once (as a game would stream to a file from a
   * buffer it reuses; first touches of fresh pages cost this VM 7-16 us each) */
  sink_buf log = {NULL, 0, (size_t)64 << 20};
  log.p = (unsigned char *)malloc(log.cap);
  if (!log.p) return 2;
  memset(log.p, 0, log.cap);
  for (int rep = 0; rep < reps && ok; ++rep) {
    log.n = 0;
    for (int m = 0; m < 3 && ok; ++m) {
      if (only >= 0 && m != only && !(only == 2 && m == 1)) continue;
      run_result r = run(f, n, warm, frames, m, &log);
      ok = r.ok;
      events[m] = r.events;
      if (m == 1) bytes = r.log_bytes;
      if (r.total_ms < best[m].total_ms) best[m].total_ms = r.total_ms;
      if (r.median_ms < best[m].median_ms) best[m].median_ms = r.median_ms;
    }
    if (ok && only < 0 && (events[1] != events[0] || events[2] != events[0])) ok = 0;
  }
  if (!ok) {
    fprintf(stderr, "goap_bench_replay: a run failed or decided differently (events %llu / "
                    "%llu / %llu)\n",
            (unsigned long long)events[0], (unsigned long long)events[1],
            (unsigned long long)events[2]);
    goap_file_destroy(f);
    return 1;
  }
  printf("goap_bench_replay: %d villagers, %d warm-up + %d timed frames, best of %d; CPU ms\n",
         n, warm, frames, reps);
  printf("%-9s  %10s  %10s  %9s\n", "run", "median/fr", "total", "vs live");
  static const char *const names[] = {"live", "recorded", "replay"};
  for (int m = 0; m < 3; ++m)
    if (only < 0 || m == only)
      printf("%-9s  %10.3f  %10.1f  %+8.1f%%\n", names[m], best[m].median_ms, best[m].total_ms,
           100.0 * (best[m].total_ms - best[0].total_ms) / best[0].total_ms);
  printf("log: %zu bytes for %d frames (%.2f bytes per agent update), %llu events\n", bytes,
         warm + frames, (double)bytes / ((double)n * (warm + frames)),
         (unsigned long long)events[0]);
  free(log.p);
  goap_file_destroy(f);
  return 0;
}
