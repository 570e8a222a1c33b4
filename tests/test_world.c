/*
 * test_world.c -- goap_world: the frame budget shared by priority and waiting, sliced searches
 * that keep their planner, timer phase jitter, identical results with one and two threads, and
 * no allocation per frame once warm.
 */
#define _POSIX_C_SOURCE 200809L

#include <goap/agent.h>
#include <goap/file.h>
#include <goap/replay.h>
#include <goap/save.h>
#include <goap/sched.h>
#include <goap/world.h>

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "alloc_hook.h"
#include "test.h"

static goap_file *parse(const char *text) {
  goap_file *f = NULL;
  goap_error diag;
  if (goap_file_parse("test.goap", text, strlen(text), NULL, &f, &diag) != GOAP_OK) {
    char buf[1024];
    goap_error_format(&diag, buf, sizeof buf);
    fprintf(stderr, "%s\n", buf);
    return NULL;
  }
  return f;
}

/* Eight independent chores; planned with h = 0 (Dijkstra) a plan costs a few hundred
 * expansions, so budgets matter. */
static const char *const chores =
    "var a: bool\nvar b: bool\nvar c: bool\nvar d: bool\n"
    "var e: bool\nvar f: bool\nvar g: bool\nvar h: bool\n"
    "action do_a\n  eff a\naction do_b\n  eff b\naction do_c\n  eff c\naction do_d\n  eff d\n"
    "action do_e\n  eff e\naction do_f\n  eff f\naction do_g\n  eff g\naction do_h\n  eff h\n"
    "goal chores\n  priority 1\n  want a, b, c, d, e, f, g, h\n";

/* Per agent, touched only from its lane: a random generator, how long the action runs, the
 * number of sensor calls, a hash of its timeline. */
typedef struct npc {
  uint32_t rng;
  int remaining;
  uint64_t hash;
  int sensed;
  int *sensor_frame_count;       /* shared counter (single-threaded tests only) */
} npc;

static uint32_t next_rand(uint32_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 17;
  *s ^= *s << 5;
  return *s;
}

static goap_action_state tick(goap_agent *agent, int action, double dt, void *user) {
  (void)action;
  (void)dt;
  (void)user;
  npc *n = (npc *)goap_agent_host(agent);
  if (n->remaining == 0) n->remaining = 1 + (int)(next_rand(&n->rng) % 3);
  if (--n->remaining > 0) return GOAP_ACTION_RUNNING;
  return next_rand(&n->rng) % 10 == 0 ? GOAP_ACTION_FAILURE : GOAP_ACTION_SUCCESS;
}

static void sensor(goap_agent *agent, void *user) {
  (void)user;
  npc *n = (npc *)goap_agent_host(agent);
  n->sensed++;
  if (n->sensor_frame_count) (*n->sensor_frame_count)++;
}

static void mix(uint64_t *h, uint64_t v) {
  *h ^= v + 0x9e3779b97f4a7c15ull + (*h << 6) + (*h >> 2);
}

static void on_event(goap_agent *agent, const goap_agent_event *ev, void *user) {
  (void)user;
  npc *n = (npc *)goap_agent_host(agent);
  mix(&n->hash, (uint64_t)ev->kind);
  mix(&n->hash, (uint64_t)(int64_t)ev->goal);
  mix(&n->hash, (uint64_t)(int64_t)ev->action);
  mix(&n->hash, (uint64_t)(ev->time * 1000.0 + 0.5));
  for (int i = 0; i < ev->plan_length; ++i) mix(&n->hash, (uint64_t)ev->plan[i]);
}

static goap_agent_type *chore_type(const goap_domain *d, uint32_t budget, double sensor_every,
                                   goap_allocator alloc) {
  goap_action_binding b[8];
  memset(b, 0, sizeof b);
  for (int i = 0; i < 8; ++i) b[i].tick = tick;
  goap_sensor_desc sd = {sensor, NULL, sensor_every};
  goap_agent_type_desc td;
  memset(&td, 0, sizeof td);
  td.allocator = alloc;
  td.actions = b;
  td.action_count = 8;
  td.heuristic = GOAP_H_ZERO;
  td.expansions_per_update = budget;
  td.sensors = &sd;
  td.sensor_count = sensor_every > 0 ? 1 : 0;
  goap_agent_type *t = NULL;
  return goap_agent_type_create(d, &td, &t, NULL) == GOAP_OK ? t : NULL;
}

static goap_agent *make(goap_agent_type *t, npc *n, goap_blackboard *bb, goap_plan_cache *c) {
  goap_agent_desc ad;
  memset(&ad, 0, sizeof ad);
  ad.type = t;
  ad.host = n;
  ad.blackboard = bb;
  ad.cache = c;
  ad.on_event = on_event;
  goap_agent *a = NULL;
  return goap_agent_create(&ad, &a, NULL) == GOAP_OK ? a : NULL;
}

/* The expansions one fresh search for the chores takes. */
static uint64_t reference_expansions(const goap_domain *d) {
  goap_planner *p = NULL;
  goap_planner_create(d, NULL, &p);
  goap_word s[4] = {0, 0, 0, 0};
  goap_state_init(d, s);
  int nw = 0;
  goap_request r;
  memset(&r, 0, sizeof r);
  r.start = s;
  r.want = goap_domain_goal_want(d, 0, &nw);
  r.want_count = nw;
  r.heuristic = GOAP_H_ZERO;
  int32_t plan[16];
  goap_result res;
  memset(&res, 0, sizeof res);
  res.plan = plan;
  res.plan_capacity = 16;
  goap_plan(p, &r, &res);
  goap_planner_destroy(p);
  return res.stats.expanded;
}

TEST(arguments) {
  goap_world *w = (goap_world *)&w;
  goap_world_desc wd;
  memset(&wd, 0, sizeof wd);
  wd.lanes = -1;
  CHECK_EQ_INT(goap_world_create(&wd, &w), GOAP_INVALID_ARGUMENT);
  CHECK(w == NULL);
  CHECK_EQ_INT(goap_world_create(NULL, NULL), GOAP_INVALID_ARGUMENT);
  wd.lanes = 2;
  REQUIRE(goap_world_create(&wd, &w) == GOAP_OK);
  goap_file *f = parse(chores);
  REQUIRE(f != NULL);
  goap_allocator none = {NULL, NULL};
  goap_agent_type *t = chore_type(goap_file_domain(f), 64, 0, none);
  REQUIRE(t != NULL);
  goap_blackboard *bb = NULL;
  REQUIRE(goap_blackboard_create(NULL, &bb) == GOAP_OK);
  npc n1, n2, n3;
  memset(&n1, 0, sizeof n1);
  n2 = n3 = n1;
  goap_agent *a1 = make(t, &n1, bb, NULL), *a2 = make(t, &n2, bb, NULL);
  goap_agent *a3 = make(t, &n3, NULL, NULL);
  REQUIRE(a1 && a2 && a3);
  CHECK_EQ_INT(goap_world_add(w, a1, 2, 0), GOAP_INVALID_ARGUMENT); /* no lane 2 */
  CHECK_EQ_INT(goap_world_add(w, a1, 0, 0.0 / 0.0), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_world_add(w, NULL, 0, 0), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_world_add(w, a1, 0, 0), GOAP_OK);
  CHECK_EQ_INT(goap_world_add(w, a1, 0, 0), GOAP_DUPLICATE);
  CHECK_EQ_INT(goap_world_add(w, a2, 1, 0), GOAP_INVALID_ARGUMENT); /* its blackboard: lane 0 */
  CHECK_EQ_INT(goap_world_add(w, a2, 0, 0), GOAP_OK);
  CHECK_EQ_INT(goap_world_add(w, a3, 1, 0), GOAP_OK);
  CHECK_EQ_INT(goap_world_agent_count(w), 3);
  goap_world *other = NULL;
  REQUIRE(goap_world_create(NULL, &other) == GOAP_OK);
  CHECK_EQ_INT(goap_world_add(other, a3, 0, 0), GOAP_INVALID_OPERATION);
  CHECK_EQ_INT(goap_world_agent_count(other), 0);
  goap_world_destroy(other);
  CHECK_EQ_INT(goap_world_set_priority(w, a3, 5), GOAP_OK);
  CHECK_EQ_INT(goap_world_set_pacing(NULL, 150), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_world_set_pacing(w, 99), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_world_set_pacing(w, 10001), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_world_set_pacing(w, 100), GOAP_OK);
  CHECK_EQ_INT(goap_world_set_pacing(w, 0), GOAP_OK);
  CHECK_EQ_INT(goap_world_update(w, -1, 0), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_world_update(NULL, 0.1, 0), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_world_update(w, 0.1, 0), GOAP_OK);
  CHECK_EQ_INT(goap_world_remove(w, a2), GOAP_OK);
  CHECK_EQ_INT(goap_world_remove(w, a2), GOAP_NOT_FOUND);
  CHECK_EQ_INT(goap_world_set_priority(w, a2, 1), GOAP_NOT_FOUND);
  CHECK_EQ_INT(goap_world_agent_count(w), 2);
  CHECK_EQ_INT(goap_world_update(w, 0.1, 0), GOAP_OK);
  goap_world_destroy(w);
  /* released: updated on their own again */
  CHECK(goap_agent_update(a2, 0.1) != GOAP_INVALID_ARGUMENT);
  goap_agent_destroy(a1);
  goap_agent_destroy(a2);
  goap_agent_destroy(a3);
  goap_blackboard_destroy(bb);
  goap_agent_type_destroy(t);
  goap_file_destroy(f);
}

/* The frame budget bounds every frame; the higher priority plans first; among equals the
 * longest waiting goes first, so everyone is served; a search spread over frames keeps its
 * planner and spends exactly what one uninterrupted search spends (no restart). */
TEST(budget_priority_and_waiting) {
  goap_file *f = parse(chores);
  REQUIRE(f != NULL);
  const goap_domain *d = goap_file_domain(f);
  uint64_t ref = reference_expansions(d);
  CHECK(ref > 100); /* the budget below cannot cover one search in a frame */
  goap_allocator none = {NULL, NULL};
  goap_agent_type *t = chore_type(d, 4096, 0, none);
  REQUIRE(t != NULL);
  goap_world *w = NULL;
  REQUIRE(goap_world_create(NULL, &w) == GOAP_OK);
  enum { N = 6 };
  npc n[N];
  goap_agent *a[N];
  memset(n, 0, sizeof n);
  for (int i = 0; i < N; ++i) {
    n[i].rng = 1u + (uint32_t)i;
    a[i] = make(t, &n[i], NULL, NULL);
    REQUIRE(a[i] != NULL);
    CHECK_EQ_INT(goap_world_add(w, a[i], 0, i == 4 ? 10.0 : 0.0), GOAP_OK);
  }
  const uint64_t budget = 40;
  int first_plan[N], frames_over = 0;
  for (int i = 0; i < N; ++i) first_plan[i] = -1;
  int max_leased = 0;
  for (int frame = 0; frame < 200; ++frame) {
    CHECK_EQ_INT(goap_world_update(w, 0.1, budget), GOAP_OK);
    goap_world_stats st = goap_world_get_stats(w);
    if (st.expansions > budget) frames_over++;
    if (st.leased > max_leased) max_leased = st.leased;
    for (int i = 0; i < N; ++i)
      if (first_plan[i] < 0 && goap_agent_get_stats(a[i]).plans > 0) first_plan[i] = frame;
  }
  CHECK_EQ_INT(frames_over, 0);
  CHECK_EQ_INT(max_leased, 1); /* one search at a time holds a planner: it is never restarted */
  CHECK_EQ_INT(goap_world_get_stats(w).planners, 1);
  /* the priority agent first, then the others in the order added (they waited longest) */
  for (int i = 0; i < N; ++i) REQUIRE(first_plan[i] >= 0);
  CHECK(first_plan[4] < first_plan[0]);
  CHECK(first_plan[0] < first_plan[1] && first_plan[1] < first_plan[2] &&
        first_plan[2] < first_plan[3] && first_plan[3] < first_plan[5]);
  /* each first search spent exactly the uninterrupted search's expansions */
  CHECK_EQ_INT((int)goap_agent_get_stats(a[5]).expanded >= (int)ref, 1);
  goap_world_destroy(w);
  for (int i = 0; i < N; ++i) goap_agent_destroy(a[i]);
  /* one agent alone, through the world with a small budget: the same count as one search */
  REQUIRE(goap_world_create(NULL, &w) == GOAP_OK);
  npc one;
  memset(&one, 0, sizeof one);
  one.rng = 3;
  goap_agent *solo = make(t, &one, NULL, NULL);
  REQUIRE(solo != NULL);
  CHECK_EQ_INT(goap_world_add(w, solo, 0, 0), GOAP_OK);
  int frames = 0;
  while (goap_agent_goal(solo) != 0 && frames < 100) {
    CHECK_EQ_INT(goap_world_update(w, 0.1, 7), GOAP_OK);
    frames++;
  }
  CHECK_EQ_INT((int)goap_agent_get_stats(solo).expanded, (int)ref);
  CHECK(frames >= (int)(ref / 7));
  CHECK_EQ_INT((int)goap_agent_get_stats(solo).plans, 1);
  goap_world_destroy(w);
  goap_agent_destroy(solo);
  goap_agent_type_destroy(t);
  goap_file_destroy(f);
}

/* 60 agents created on one frame with a 0.25 s sensor at 60 frames per second: on their own
 * they all sense on the same frames; in a world, on their own phases. */
static int max_sensors_per_frame(int world_mode, uint64_t seed, int no_jitter, uint64_t *sig) {
  goap_file *f = parse(chores);
  if (!f) return -1;
  goap_allocator none = {NULL, NULL};
  goap_agent_type *t = chore_type(goap_file_domain(f), 4096, 0.25, none);
  enum { N = 60 };
  npc n[N];
  goap_agent *a[N];
  int count = 0, max = 0;
  memset(n, 0, sizeof n);
  goap_world *w = NULL;
  goap_world_desc wd;
  memset(&wd, 0, sizeof wd);
  wd.seed = seed;
  wd.no_jitter = no_jitter;
  goap_world_create(&wd, &w);
  for (int i = 0; i < N; ++i) {
    n[i].rng = 1u + (uint32_t)i;
    n[i].sensor_frame_count = &count;
    a[i] = make(t, &n[i], NULL, NULL);
    if (world_mode) goap_world_add(w, a[i], 0, 0);
  }
  *sig = 0;
  for (int frame = 0; frame < 120; ++frame) {
    count = 0;
    if (world_mode) goap_world_update(w, 1.0 / 60, 0);
    else
      for (int i = 0; i < N; ++i) goap_agent_update(a[i], 1.0 / 60);
    if (frame > 0 && count > max) max = count; /* frame 0: everyone senses once */
    for (int i = 0; i < N; ++i) mix(sig, (uint64_t)n[i].sensed); /* who sensed when */
  }
  goap_world_destroy(w);
  for (int i = 0; i < N; ++i) goap_agent_destroy(a[i]);
  goap_agent_type_destroy(t);
  goap_file_destroy(f);
  return max;
}

TEST(timer_jitter) {
  uint64_t s0, s1, s2, s3, s4;
  CHECK_EQ_INT(max_sensors_per_frame(0, 0, 0, &s0), 60);
  CHECK_EQ_INT(max_sensors_per_frame(1, 1, 1, &s1), 60); /* no_jitter: as before */
  int spread = max_sensors_per_frame(1, 1, 0, &s2);
  /* 60 agents over 15 frames: the phases split them evenly, 4 a frame (independent random
   * phases put 6 to 12 on one frame with the seeds 1 to 19) */
  CHECK(spread > 0 && spread <= 5);
  for (uint64_t seed = 2; seed < 20; ++seed) {
    uint64_t s;
    CHECK(max_sensors_per_frame(1, seed, 0, &s) <= 5);
  }
  CHECK_EQ_INT(max_sensors_per_frame(1, 1, 0, &s3), spread);
  CHECK(s3 == s2); /* deterministic from the seed */
  max_sensors_per_frame(1, 2, 0, &s4);
  CHECK(s4 != s2); /* another seed, other phases */
}

/* Goal checks (every goal_check_interval, 0.25 s, while a plan runs): 60 agents busy with an
 * endless action. On their own all check on the same frames; in a world, on their phases. */
static int prio_calls;
static double count_prio(goap_agent *agent, int goal, void *user) {
  (void)agent;
  (void)goal;
  (void)user;
  prio_calls++;
  return 1.0;
}

static goap_action_state endless(goap_agent *agent, int action, double dt, void *user) {
  (void)agent;
  (void)action;
  (void)dt;
  (void)user;
  return GOAP_ACTION_RUNNING;
}

static int max_checks_per_frame(int world_mode) {
  goap_file *f = parse(chores);
  if (!f) return -1;
  const goap_domain *d = goap_file_domain(f);
  goap_action_binding b[8];
  memset(b, 0, sizeof b);
  for (int i = 0; i < 8; ++i) b[i].tick = endless;
  goap_goal_binding g;
  memset(&g, 0, sizeof g);
  g.priority = count_prio;
  goap_agent_type_desc td;
  memset(&td, 0, sizeof td);
  td.actions = b;
  td.action_count = 8;
  td.goals = &g;
  td.goal_count = 1;
  goap_agent_type *t = NULL;
  if (goap_agent_type_create(d, &td, &t, NULL) != GOAP_OK) return -1;
  enum { N = 60 };
  npc n[N];
  goap_agent *a[N];
  memset(n, 0, sizeof n);
  goap_world *w = NULL;
  goap_world_desc wd;
  memset(&wd, 0, sizeof wd);
  wd.seed = 7;
  goap_world_create(&wd, &w);
  for (int i = 0; i < N; ++i) {
    a[i] = make(t, &n[i], NULL, NULL);
    if (world_mode) goap_world_add(w, a[i], 0, 0);
  }
  int max = 0;
  for (int frame = 0; frame < 120; ++frame) {
    prio_calls = 0;
    if (world_mode) goap_world_update(w, 1.0 / 60, 0);
    else
      for (int i = 0; i < N; ++i) goap_agent_update(a[i], 1.0 / 60);
    if (frame > 0 && prio_calls > max) max = prio_calls; /* frame 0: everyone chooses */
  }
  goap_world_destroy(w);
  for (int i = 0; i < N; ++i) goap_agent_destroy(a[i]);
  goap_agent_type_destroy(t);
  goap_file_destroy(f);
  return max;
}

TEST(goal_check_jitter) {
  CHECK_EQ_INT(max_checks_per_frame(0), 60);
  int spread = max_checks_per_frame(1);
  CHECK(spread > 0 && spread <= 5); /* 60 agents over 15 frames: 4 a frame */
}

/* The same crowd in two lanes, run by the caller alone and by two threads: every agent's
 * timeline is identical. */
typedef struct pool2 {
  goap_world_job_fn job;
  void *ctx;
  int count;
  int next;
  pthread_mutex_t mu;
} pool2;

static void *worker(void *arg) {
  pool2 *p = (pool2 *)arg;
  for (;;) {
    pthread_mutex_lock(&p->mu);
    int i = p->next++;
    pthread_mutex_unlock(&p->mu);
    if (i >= p->count) return NULL;
    p->job(p->ctx, i);
  }
}

/* Runs the lanes on two threads (the caller and one more), taking them from a shared index. */
static void two_threads(void *user, goap_world_job_fn job, void *ctx, int count) {
  (void)user;
  pool2 p;
  p.job = job;
  p.ctx = ctx;
  p.count = count;
  p.next = 0;
  pthread_mutex_init(&p.mu, NULL);
  pthread_t th;
  int started = pthread_create(&th, NULL, worker, &p) == 0;
  worker(&p);
  if (started) pthread_join(th, NULL);
  pthread_mutex_destroy(&p.mu);
}

enum { CROWD = 40, LANES = 4 };

static int run_crowd(int threaded, uint64_t *hashes, uint64_t *expanded) {
  goap_file *f = parse(chores);
  if (!f) return 0;
  const goap_domain *d = goap_file_domain(f);
  goap_allocator none = {NULL, NULL};
  goap_agent_type *t = chore_type(d, 4096, 0.3, none);
  goap_world_desc wd;
  memset(&wd, 0, sizeof wd);
  wd.lanes = LANES;
  wd.seed = 42;
  if (threaded == 1) wd.parallel = two_threads;
  goap_workers *pool = NULL;
  if (threaded == 2) { /* the library's pool: the caller and one worker */
    if (goap_workers_create(1, NULL, &pool) != GOAP_OK) return 0;
    wd.parallel = goap_workers_run;
    wd.parallel_user = pool;
  }
  goap_world *w = NULL;
  goap_world_create(&wd, &w);
  goap_world_set_pacing(w, 150); /* the allowance depends on the spending: the same too */
  goap_blackboard *bb[LANES];
  goap_plan_cache *cache[LANES];
  npc n[CROWD];
  goap_agent *a[CROWD];
  memset(n, 0, sizeof n);
  int ok = t && w;
  for (int k = 0; k < LANES; ++k) {
    bb[k] = NULL;
    cache[k] = NULL;
    ok = ok && goap_blackboard_create(NULL, &bb[k]) == GOAP_OK &&
         goap_plan_cache_create(NULL, 64, &cache[k]) == GOAP_OK;
  }
  for (int i = 0; i < CROWD && ok; ++i) {
    n[i].rng = 0x1234u + (uint32_t)i * 77u;
    a[i] = make(t, &n[i], bb[i % LANES], cache[i % LANES]);
    ok = a[i] && goap_world_add(w, a[i], i % LANES, (double)(i % 3)) == GOAP_OK;
  }
  for (int frame = 0; frame < 300 && ok; ++frame) {
    ok = goap_world_update(w, 0.05, 300) == GOAP_OK;
    /* the host's events: now and then an agent's chores are undone */
    for (int i = 0; i < CROWD && ok; ++i)
      if ((frame * 7 + i * 13) % 97 == 0)
        for (int v = 0; v < 8; ++v) goap_agent_set(a[i], v, 0);
  }
  for (int i = 0; i < CROWD && ok; ++i) {
    hashes[i] = n[i].hash;
    goap_agent_stats st = goap_agent_get_stats(a[i]);
    expanded[i] = st.expanded;
    if (st.plans == 0) hashes[i] = 0; /* never planned */
  }
  goap_world_destroy(w);
  for (int i = 0; i < CROWD; ++i) goap_agent_destroy(a[i]);
  for (int k = 0; k < LANES; ++k) {
    goap_blackboard_destroy(bb[k]);
    goap_plan_cache_destroy(cache[k]);
  }
  goap_agent_type_destroy(t);
  goap_file_destroy(f);
  if (pool) ok = ok && goap_workers_count(pool) == 1;
  goap_workers_destroy(pool);
  return ok;
}

/* Pacing: after quiet frames, a burst of searches (20 agents created at once) is spread: no
 * frame spends more than budget / 8 at first, where without pacing the first frame spends the
 * whole budget; everyone still gets a plan. Beginning a search is charged to the budget. */
static int paced_burst(uint32_t pace, uint64_t *first, uint64_t *max30, int *done_frame) {
  goap_file *f = parse(chores);
  if (!f) return 0;
  goap_allocator none = {NULL, NULL};
  goap_agent_type *t = chore_type(goap_file_domain(f), 4096, 0, none);
  goap_world *w = NULL;
  int ok = t && goap_world_create(NULL, &w) == GOAP_OK && goap_world_set_pacing(w, pace) == GOAP_OK;
  for (int frame = 0; frame < 300 && ok; ++frame) /* nothing to plan: the mean falls */
    ok = goap_world_update(w, 0.05, 400) == GOAP_OK && goap_world_get_stats(w).expansions == 0;
  enum { N = 20 };
  npc n[N];
  goap_agent *a[N];
  memset(n, 0, sizeof n);
  memset(a, 0, sizeof a);
  for (int i = 0; i < N && ok; ++i) {
    n[i].rng = 5u + (uint32_t)i;
    a[i] = make(t, &n[i], NULL, NULL);
    ok = a[i] && goap_world_add(w, a[i], 0, 0) == GOAP_OK;
  }
  *max30 = 0;
  *done_frame = -1;
  for (int frame = 0; frame < 1000 && ok && *done_frame < 0; ++frame) {
    ok = goap_world_update(w, 0.05, 400) == GOAP_OK;
    uint64_t e = goap_world_get_stats(w).expansions;
    if (frame == 0) *first = e;
    if (frame < 30 && e > *max30) *max30 = e;
    int all = 1;
    for (int i = 0; i < N; ++i) all &= goap_agent_get_stats(a[i]).plans > 0;
    if (all) *done_frame = frame;
  }
  goap_world_destroy(w);
  for (int i = 0; i < N; ++i) goap_agent_destroy(a[i]);
  goap_agent_type_destroy(t);
  goap_file_destroy(f);
  return ok;
}

TEST(pacing_spreads_a_burst) {
  uint64_t first = 0, max30 = 0;
  int done = -1;
  goap_file *f = parse(chores);
  REQUIRE(f != NULL);
  uint64_t ref = reference_expansions(goap_file_domain(f));
  goap_file_destroy(f);
  REQUIRE(ref + 2 * 8 < 400);
  REQUIRE(paced_burst(0, &first, &max30, &done));
  /* unpaced: the whole budget at once; beginning a search counts as 8 expansions: the first
   * search ends (ref expansions), the second takes the rest */
  CHECK_EQ_INT((int)first, 400 - 2 * 8);
  CHECK(done >= 0);
  int unpaced_done = done;
  REQUIRE(paced_burst(150, &first, &max30, &done));
  /* budget / 8 = 50 (the mean of the quiet frames is 0), one search begun */
  CHECK_EQ_INT((int)first, 50 - 8);
  CHECK(max30 <= 50); /* the mean rises slowly: for 30 frames at most 50 */
  CHECK(done > unpaced_done);   /* later, but everyone planned */
}

TEST(threads_give_identical_results) {
  uint64_t h1[CROWD], h2[CROWD], h3[CROWD], e1[CROWD], e2[CROWD], e3[CROWD];
  REQUIRE(run_crowd(0, h1, e1));
  REQUIRE(run_crowd(1, h2, e2));
  REQUIRE(run_crowd(2, h3, e3));
  int same = 0, same3 = 0, planned = 0;
  for (int i = 0; i < CROWD; ++i) {
    same += h1[i] == h2[i] && e1[i] == e2[i];
    same3 += h1[i] == h3[i] && e1[i] == e3[i];
    planned += h1[i] != 0;
  }
  CHECK_EQ_INT(same, CROWD);
  CHECK_EQ_INT(same3, CROWD);
  CHECK_EQ_INT(planned, CROWD);
}

/* goap_workers alone: every index once, on the caller and the workers; arguments. */
static void count_job(void *ctx, int i) {
  int *hits = (int *)ctx;
  __atomic_fetch_add(&hits[i], 1, __ATOMIC_RELAXED);
}

TEST(workers) {
  goap_workers *p = (goap_workers *)&p;
  CHECK_EQ_INT(goap_workers_create(-1, NULL, &p), GOAP_INVALID_ARGUMENT);
  CHECK(p == NULL);
  CHECK_EQ_INT(goap_workers_create(65, NULL, &p), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_workers_create(1, NULL, NULL), GOAP_INVALID_ARGUMENT);
  REQUIRE(goap_workers_create(3, NULL, &p) == GOAP_OK);
  CHECK_EQ_INT(goap_workers_count(p), 3);
  int hits[100];
  int bad = 0;
  for (int round = 0; round < 50; ++round) {
    memset(hits, 0, sizeof hits);
    goap_workers_run(p, count_job, hits, 1 + round % 100);
    for (int i = 0; i < 100; ++i) bad += hits[i] != (i < 1 + round % 100);
  }
  CHECK_EQ_INT(bad, 0);
  goap_workers_run(p, count_job, hits, 0); /* nothing */
  goap_workers_destroy(p);
  memset(hits, 0, sizeof hits);
  goap_workers_run(NULL, count_job, hits, 3); /* no pool: on the caller */
  CHECK(hits[0] == 1 && hits[2] == 1 && hits[3] == 0);
  goap_workers_destroy(NULL);
}

/* With a plan cache, a warm world allocates nothing per frame. */
TEST(no_allocation_when_warm) {
  goap_file *f = parse(chores);
  REQUIRE(f != NULL);
  test_alloc ta;
  memset(&ta, 0, sizeof ta);
  goap_allocator al = test_alloc_hook(&ta);
  goap_agent_type *t = chore_type(goap_file_domain(f), 4096, 0.2, al);
  REQUIRE(t != NULL);
  goap_world_desc wd;
  memset(&wd, 0, sizeof wd);
  wd.allocator = al;
  wd.lanes = 2;
  goap_world *w = NULL;
  REQUIRE(goap_world_create(&wd, &w) == GOAP_OK);
  goap_plan_cache *cache[2] = {NULL, NULL};
  REQUIRE(goap_plan_cache_create(&al, 256, &cache[0]) == GOAP_OK);
  REQUIRE(goap_plan_cache_create(&al, 256, &cache[1]) == GOAP_OK);
  enum { N = 30 };
  npc n[N];
  goap_agent *a[N];
  memset(n, 0, sizeof n);
  for (int i = 0; i < N; ++i) {
    n[i].rng = 9u + (uint32_t)i;
    a[i] = make(t, &n[i], NULL, cache[i % 2]);
    REQUIRE(a[i] != NULL);
    REQUIRE(goap_world_add(w, a[i], i % 2, 0) == GOAP_OK);
  }
  size_t calls = 0;
  int replans = 0;
  /* warm: the caches have seen the start states (2^8 at most), the planners the searches */
  for (int frame = 0; frame < 2500; ++frame) {
    if (frame == 2000) calls = ta.calls;
    CHECK_EQ_INT(goap_world_update(w, 0.05, 500), GOAP_OK);
    for (int i = 0; i < N; ++i)
      if ((frame * 3 + i * 11) % 41 == 0) {
        for (int v = 0; v < 8; ++v) goap_agent_set(a[i], v, (frame + i + v) % 3 == 0);
        if (frame >= 2000) replans++;
      }
  }
  CHECK(replans > 100);
  CHECK_EQ_INT((int)(ta.calls - calls), 0);
  goap_world_destroy(w);
  for (int i = 0; i < N; ++i) goap_agent_destroy(a[i]);
  goap_plan_cache_destroy(cache[0]);
  goap_plan_cache_destroy(cache[1]);
  goap_agent_type_destroy(t);
  CHECK_EQ_INT((int)ta.outstanding, 0);
  CHECK_EQ_INT(ta.bad_old_size, 0);
  goap_file_destroy(f);
}

/* A log in memory for the recorder. */
typedef struct logbuf {
  uint8_t data[1 << 16];
  size_t n;
} logbuf;

static int log_sink(void *user, const void *data, size_t size) {
  logbuf *l = (logbuf *)user;
  if (l->n + size > sizeof l->data) return 1;
  memcpy(l->data + l->n, data, size);
  l->n += size;
  return 0;
}

static int same_snapshot(const goap_agent *a, const goap_agent *b) {
  static uint8_t sa[1 << 14], sb[1 << 14];
  size_t na = 0, nb = 0;
  return goap_agent_snapshot(a, sa, sizeof sa, &na) == GOAP_OK &&
         goap_agent_snapshot(b, sb, sizeof sb, &nb) == GOAP_OK && na == nb &&
         memcmp(sa, sb, na) == 0;
}

/* An agent driven by a world is recorded (its updates start in the world's first half), and
 * the log replays exactly (world without timer jitter, no common budget: see world.h). */
TEST(world_agent_is_recorded) {
  goap_file *f = parse(chores);
  REQUIRE(f);
  const goap_domain *d = goap_file_domain(f);
  goap_agent_type *t = chore_type(d, 0, 0.3, (goap_allocator){0});
  REQUIRE(t);
  static logbuf lg;
  lg.n = 0;
  goap_recorder_desc rd;
  memset(&rd, 0, sizeof rd);
  rd.domain = d;
  rd.sink = log_sink;
  rd.sink_user = &lg;
  goap_recorder *rec = NULL;
  REQUIRE(goap_recorder_create(&rd, &rec) == GOAP_OK);
  npc n0 = {12345u, 0, 0, 0, NULL}, n1 = n0;
  goap_agent *a = make(t, &n0, NULL, NULL);
  REQUIRE(a);
  REQUIRE(goap_recorder_attach(rec, a) == GOAP_OK);
  goap_world_desc wd;
  memset(&wd, 0, sizeof wd);
  wd.no_jitter = 1;
  goap_world *w = NULL;
  REQUIRE(goap_world_create(&wd, &w) == GOAP_OK);
  REQUIRE(goap_world_add(w, a, 0, 1.0) == GOAP_OK);
  for (int i = 0; i < 40; ++i) {
    goap_recorder_frame(rec);
    REQUIRE(goap_world_update(w, 0.1, 0) == GOAP_OK);
  }
  CHECK_EQ_INT(goap_recorder_finish(rec), GOAP_OK);
  CHECK(goap_agent_get_stats(a).plans > 1); /* it planned, acted, replanned */
  goap_replayer_desc pd;
  memset(&pd, 0, sizeof pd);
  pd.domain = d;
  pd.log = lg.data;
  pd.size = lg.n;
  goap_replayer *rp = NULL;
  REQUIRE(goap_replayer_create(&pd, &rp, NULL) == GOAP_OK);
  goap_agent *b = make(t, &n1, NULL, NULL);
  REQUIRE(b);
  REQUIRE(goap_replayer_attach(rp, b) == GOAP_OK);
  CHECK_EQ_INT(goap_replayer_run(rp), GOAP_OK);
  CHECK(goap_agent_get_stats(b).updates == 40);
  CHECK(same_snapshot(a, b));
  CHECK(n1.hash == n0.hash); /* the same events */
  CHECK_EQ_INT(n1.sensed, 0); /* sensors were replayed, not called */
  goap_replayer_destroy(rp);
  goap_recorder_destroy(rec);
  goap_world_destroy(w);
  goap_agent_destroy(a);
  goap_agent_destroy(b);
  goap_agent_type_destroy(t);
  goap_file_destroy(f);
}

/* A saved agent of a world, restored and added again to a world like the first (same seed,
 * lane, priority, order), goes on exactly as the saved one does. */
TEST(restored_agent_goes_on_in_a_world) {
  goap_file *f = parse(chores);
  REQUIRE(f);
  const goap_domain *d = goap_file_domain(f);
  goap_agent_type *t = chore_type(d, 0, 0.3, (goap_allocator){0});
  REQUIRE(t);
  npc n0 = {777u, 0, 0, 0, NULL};
  goap_agent *a = make(t, &n0, NULL, NULL);
  REQUIRE(a);
  goap_world_desc wd;
  memset(&wd, 0, sizeof wd);
  wd.seed = 99; /* with timer jitter */
  goap_world *w0 = NULL, *w1 = NULL;
  REQUIRE(goap_world_create(&wd, &w0) == GOAP_OK);
  REQUIRE(goap_world_add(w0, a, 0, 1.0) == GOAP_OK);
  for (int i = 0; i < 7; ++i) REQUIRE(goap_world_update(w0, 0.1, 0) == GOAP_OK);
  uint64_t started = goap_agent_get_stats(a).actions_started;
  static uint8_t snap[1 << 14];
  size_t sn = 0;
  REQUIRE(goap_agent_snapshot(a, snap, sizeof snap, &sn) == GOAP_OK);
  npc n1 = n0; /* the host's state, saved by the game */
  goap_agent *b = make(t, &n1, NULL, NULL);
  REQUIRE(b);
  goap_error why;
  CHECK_EQ_INT(goap_agent_restore(b, snap, sn, &why), GOAP_OK);
  REQUIRE(goap_world_create(&wd, &w1) == GOAP_OK);
  REQUIRE(goap_world_add(w1, b, 0, 1.0) == GOAP_OK);
  int same = 1;
  for (int i = 0; i < 60; ++i) {
    REQUIRE(goap_world_update(w0, 0.1, 0) == GOAP_OK);
    REQUIRE(goap_world_update(w1, 0.1, 0) == GOAP_OK);
    same &= same_snapshot(a, b);
  }
  CHECK(same);
  CHECK(n1.hash == n0.hash);
  CHECK_EQ_INT(n1.sensed, n0.sensed);
  CHECK(goap_agent_get_stats(b).actions_started > started); /* it went on acting */
  goap_world_destroy(w0);
  goap_world_destroy(w1);
  goap_agent_destroy(a);
  goap_agent_destroy(b);
  goap_agent_type_destroy(t);
  goap_file_destroy(f);
}

TEST_MAIN(TEST_ENTRY(arguments), TEST_ENTRY(budget_priority_and_waiting), TEST_ENTRY(timer_jitter),
          TEST_ENTRY(goal_check_jitter), TEST_ENTRY(pacing_spreads_a_burst),
          TEST_ENTRY(threads_give_identical_results), TEST_ENTRY(workers),
          TEST_ENTRY(no_allocation_when_warm), TEST_ENTRY(world_agent_is_recorded),
          TEST_ENTRY(restored_agent_goes_on_in_a_world))
