/*
 * test_replay.c -- goap/replay.h: recording the inputs of agents and replaying them.
 *
 *  - a host with random outcomes (seeded): action ticks, procedural checks, dynamic priorities,
 *    a sensor, memory writes, orders and replans between updates, varying dt; the replay, whose
 *    callbacks must never be called, gives the byte-identical timeline and final memories;
 *  - file simulations (the soldier, the squad with its blackboard and reservations) with random
 *    procedural failures, recorded and replayed through goap_file_simulate;
 *  - a changed action cost: the exact first divergence (frame, agent, expected, got);
 *  - every truncation and every bit flip of a log: a clear error, never a crash;
 *  - argument errors, a failing sink, and allocation through the hook.
 */
#include <goap/file.h>
#include <goap/sim.h>
#include <goap/replay.h>

#include <stdarg.h>
#include <stdint.h>

#include "test.h"
#include "test_text.h"

/* ---- helpers ------------------------------------------------------------------------------ */

/* One line per event: time, agent (the host pointer: a name), kind and every field. */
static void log_event(goap_agent *a, const goap_agent_event *ev, void *user) {
  text *t = (text *)user;
  const char *who = (const char *)goap_agent_host(a);
  put(t, "%.6f %s k%d g%d a%d r%d p%.3f c%.3f to%d st%d v%d:%d->%d cached%d skip%d [",
      ev->time, who ? who : "-", (int)ev->kind, ev->goal, ev->action, (int)ev->reason,
      ev->priority, ev->cost, ev->timeout, (int)ev->status, ev->var, (int)ev->old_value,
      (int)ev->value, ev->cached, ev->skipped);
  for (int i = 0; i < ev->plan_length; ++i) put(t, " %d", ev->plan[i]);
  put(t, " ]\n");
}

static void log_world(int var, int32_t old_value, int32_t value, double time, void *user) {
  put((text *)user, "%.6f world %d %d->%d\n", time, var, (int)old_value, (int)value);
}

static uint64_t rng_next(uint64_t *s) { /* xorshift64* */
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 2685821657736338717ull;
}
static double rng_unit(uint64_t *s) { return (double)(rng_next(s) >> 11) / 9007199254740992.0; }

/* ---- a host with random outcomes ---------------------------------------------------------- */

typedef struct host_ctx {
  uint64_t rng;
  int live;                      /* 0: replaying -- no callback may run */
  int calls_in_replay;
  int failures, checks_refused, sensed;
} host_ctx;

static void h_start(goap_agent *a, int action, void *user) {
  host_ctx *h = (host_ctx *)user;
  (void)action;
  if (!h->live) {
    h->calls_in_replay++;
    return;
  }
  /* a start callback that writes memory (recorded inside the callback) */
  if (rng_unit(&h->rng) < 0.1) goap_agent_set(a, 1 /* has_ammo */, 1);
}

static goap_action_state h_tick(goap_agent *a, int action, double dt, void *user) {
  host_ctx *h = (host_ctx *)user;
  (void)a;
  (void)action;
  (void)dt;
  if (!h->live) {
    h->calls_in_replay++;
    return GOAP_ACTION_SUCCESS;
  }
  double u = rng_unit(&h->rng);
  if (u < 0.4) return GOAP_ACTION_RUNNING;
  if (u < 0.55) {
    h->failures++;
    return GOAP_ACTION_FAILURE;
  }
  return GOAP_ACTION_SUCCESS;
}

static void h_stop(goap_agent *a, int action, void *user) {
  host_ctx *h = (host_ctx *)user;
  (void)a;
  (void)action;
  if (!h->live) h->calls_in_replay++;
}

static int h_check(goap_agent *a, int action, void *user) {
  host_ctx *h = (host_ctx *)user;
  (void)a;
  (void)action;
  if (!h->live) {
    h->calls_in_replay++;
    return 1;
  }
  int ok = rng_unit(&h->rng) < 0.8;
  h->checks_refused += !ok;
  return ok;
}

static double h_priority(goap_agent *a, int goal, void *user) {
  host_ctx *h = (host_ctx *)user;
  (void)a;
  (void)goal;
  if (!h->live) {
    h->calls_in_replay++;
    return 0;
  }
  return 10 + (double)(rng_next(&h->rng) % 4) * 0.5;
}

static void h_sensor(goap_agent *a, void *user) {
  host_ctx *h = (host_ctx *)user;
  if (!h->live) {
    h->calls_in_replay++;
    return;
  }
  if (rng_unit(&h->rng) < 0.05) {
    h->sensed++;
    goap_agent_set(a, 2 /* loaded */, 0);
  }
}

#define NAGENTS 3
static const char *const names[NAGENTS] = {"ann", "bob", "cat"};

typedef struct world {
  goap_agent_type *type;
  goap_agent *agents[NAGENTS];
} world;

static int make_world(const goap_file *f, host_ctx *h, text *timeline, world *w) {
  const goap_domain *d = goap_file_domain(f);
  int na = goap_domain_action_count(d), ng = goap_domain_goal_count(d);
  goap_action_binding ab[16];
  goap_goal_binding gb[4];
  if (na > 16 || ng > 4 || goap_file_bindings(f, ab, na, gb, ng) != GOAP_OK) return 0;
  for (int i = 0; i < na; ++i) {
    ab[i].start = h_start;
    ab[i].tick = h_tick;
    ab[i].stop = h_stop;
    ab[i].user = h;
  }
  int punch = goap_domain_find_action(d, "punch");
  ab[punch].check = h_check;
  ab[punch].check_user = h;
  gb[0].priority = h_priority;
  gb[0].user = h;
  goap_sensor_desc sensor = {h_sensor, h, 0.3};
  goap_agent_type_desc td;
  memset(&td, 0, sizeof td);
  td.actions = ab;
  td.action_count = na;
  td.goals = gb;
  td.goal_count = ng;
  td.sensors = &sensor;
  td.sensor_count = 1;
  if (goap_agent_type_create(d, &td, &w->type, NULL) != GOAP_OK) return 0;
  for (int k = 0; k < NAGENTS; ++k) {
    goap_agent_desc ad;
    memset(&ad, 0, sizeof ad);
    ad.type = w->type;
    ad.host = (void *)(uintptr_t)names[k];
    ad.on_event = log_event;
    ad.event_user = timeline;
    if (goap_agent_create(&ad, &w->agents[k], NULL) != GOAP_OK) return 0;
  }
  return 1;
}

static void free_world(world *w) {
  for (int k = 0; k < NAGENTS; ++k) goap_agent_destroy(w->agents[k]);
  goap_agent_type_destroy(w->type);
}

static void put_final(text *t, const world *w) {
  for (int k = 0; k < NAGENTS; ++k) {
    goap_agent_stats s = goap_agent_get_stats(w->agents[k]);
    put(t, "final %s mem %llx updates %llu plans %llu failed %llu time %.6f\n", names[k],
        (unsigned long long)goap_agent_memory(w->agents[k])[0], (unsigned long long)s.updates,
        (unsigned long long)s.plans, (unsigned long long)s.actions_failed,
        goap_agent_time(w->agents[k]));
  }
}

/* Records 300 frames of the random host into log; returns the timeline. */
static int run_live(const goap_file *f, uint64_t seed, text *timeline, text *log,
                    host_ctx *h) {
  const goap_domain *d = goap_file_domain(f);
  memset(h, 0, sizeof *h);
  h->rng = seed;
  h->live = 1;
  world w;
  memset(&w, 0, sizeof w);
  int ok = make_world(f, h, timeline, &w);
  goap_recorder *rec = NULL;
  goap_recorder_desc rd;
  memset(&rd, 0, sizeof rd);
  rd.domain = d;
  rd.sink = sink;
  rd.sink_user = log;
  rd.label = "random host";
  rd.chunk_size = 256; /* many chunks */
  if (ok) ok = goap_recorder_create(&rd, &rec) == GOAP_OK;
  for (int k = 0; k < NAGENTS && ok; ++k) ok = goap_recorder_attach(rec, w.agents[k]) == GOAP_OK;
  int target = goap_domain_find_var(d, "target_dead");
  for (int fr = 0; fr < 300 && ok; ++fr) {
    double dt = rng_unit(&h->rng) < 0.5 ? 0.1 : 0.05;
    for (int k = 0; k < NAGENTS; ++k) {
      goap_agent *a = w.agents[k];
      if (goap_agent_get(a, target) && rng_unit(&h->rng) < 0.3) { /* a new target */
        goap_agent_set(a, target, 0);
        goap_agent_set(a, goap_domain_find_var(d, "in_b"), 0);
      }
      double u = rng_unit(&h->rng);
      if (u < 0.01) goap_agent_replan(a);
      else if (u < 0.02) goap_agent_order(a, 0, 30);
      else if (u < 0.03) goap_agent_clear_order(a);
      else if (u < 0.035) goap_agent_reset(a);
      goap_status st = goap_agent_update(a, dt);
      if (st == GOAP_OUT_OF_MEMORY || st == GOAP_INVALID_ARGUMENT) ok = 0;
    }
    goap_recorder_frame(rec);
  }
  if (ok) ok = goap_recorder_finish(rec) == GOAP_OK;
  goap_recorder_destroy(rec);
  put_final(timeline, &w);
  free_world(&w);
  return ok;
}

TEST(random_host_replays_exactly) {
  goap_file *f = NULL;
  REQUIRE(goap_file_load(GOAP_EXAMPLES_DIR "/soldier.goap", NULL, &f, NULL) == GOAP_OK);
  text live = {0}, log = {0}, other = {0}, other_log = {0}, again = {0};
  host_ctx h, h2, h3;
  REQUIRE(run_live(f, 0x9e3779b97f4a7c15ull, &live, &log, &h));
  /* the run is random enough to mean something */
  CHECK(h.failures > 10);
  CHECK(h.checks_refused > 5);
  CHECK(h.sensed > 2);
  CHECK(strstr(live.s, " k0 g-1 a-1 r10 ") != NULL); /* a requested replan */
  CHECK(strstr(live.s, " k0 g-1 a-1 r11 ") != NULL); /* an order */
  /* another seed gives another timeline; the same seed the same one */
  REQUIRE(run_live(f, 12345, &other, &other_log, &h2));
  CHECK(strcmp(live.s, other.s) != 0);
  text again_log = {0};
  REQUIRE(run_live(f, 0x9e3779b97f4a7c15ull, &again, &again_log, &h3));
  CHECK_STR(again.s, live.s);
  CHECK(again_log.n == log.n && memcmp(again_log.s, log.s, log.n) == 0);

  /* the replay: same agents, callbacks that must not run */
  host_ctx rh;
  memset(&rh, 0, sizeof rh);
  rh.live = 0;
  text replayed = {0};
  world w;
  memset(&w, 0, sizeof w);
  REQUIRE(make_world(f, &rh, &replayed, &w));
  goap_replayer_desc rd;
  memset(&rd, 0, sizeof rd);
  rd.domain = goap_file_domain(f);
  rd.log = log.s;
  rd.size = log.n;
  goap_replayer *rp = NULL;
  goap_error err;
  err.status = GOAP_PARSE_ERROR; /* success must clear it */
  snprintf(err.message, sizeof err.message, "x");
  REQUIRE(goap_replayer_create(&rd, &rp, &err) == GOAP_OK);
  CHECK_EQ_INT(err.status, GOAP_OK);
  CHECK_STR(err.message, "");
  CHECK_STR(goap_replayer_label(rp), "random host");
  CHECK_EQ_INT(goap_replayer_domain_changed(rp), 0);
  CHECK_EQ_INT(goap_replayer_agent_count(rp), NAGENTS);
  CHECK_EQ_INT(goap_replayer_step(rp), GOAP_INVALID_OPERATION); /* agents missing */
  for (int k = 0; k < NAGENTS; ++k) REQUIRE(goap_replayer_attach(rp, w.agents[k]) == GOAP_OK);
  goap_agent *extra = NULL;
  {
    goap_agent_desc ad;
    memset(&ad, 0, sizeof ad);
    ad.type = w.type;
    REQUIRE(goap_agent_create(&ad, &extra, NULL) == GOAP_OK);
    CHECK_EQ_INT(goap_replayer_attach(rp, extra), GOAP_INVALID_ARGUMENT); /* one too many */
    goap_agent_destroy(extra);
  }
  CHECK_EQ_INT(goap_replayer_step(rp), GOAP_IN_PROGRESS);
  CHECK_EQ_INT(goap_replayer_frame(rp), 1);
  CHECK_EQ_INT(goap_replayer_run(rp), GOAP_OK);
  CHECK_EQ_INT(goap_replayer_frame(rp), 300);
  CHECK_EQ_INT(goap_replayer_divergence(rp, NULL), 0);
  CHECK_EQ_INT(rh.calls_in_replay, 0);
  put_final(&replayed, &w);
  CHECK(replayed.n == live.n);
  CHECK_STR(replayed.s, live.s);
  goap_replayer_destroy(rp);
  free_world(&w);
  free(live.s);
  free(log.s);
  free(other.s);
  free(other_log.s);
  free(again.s);
  free(again_log.s);
  free(replayed.s);
  goap_file_destroy(f);
}

/* ---- compactness: an update of a running action is two bytes ------------------------------ */

static goap_action_state always_running(goap_agent *a, int action, double dt, void *user) {
  (void)a;
  (void)action;
  (void)dt;
  (void)user;
  return GOAP_ACTION_RUNNING;
}

static size_t steady_log_size(const goap_file *f, int updates) {
  const goap_domain *d = goap_file_domain(f);
  goap_action_binding ab[16];
  goap_goal_binding gb[4];
  int na = goap_domain_action_count(d), ng = goap_domain_goal_count(d);
  if (goap_file_bindings(f, ab, na, gb, ng) != GOAP_OK) return 0;
  for (int i = 0; i < na; ++i) ab[i].tick = always_running;
  goap_agent_type_desc td;
  memset(&td, 0, sizeof td);
  td.actions = ab;
  td.action_count = na;
  goap_agent_type *t = NULL;
  if (goap_agent_type_create(d, &td, &t, NULL) != GOAP_OK) return 0;
  goap_agent_desc ad;
  memset(&ad, 0, sizeof ad);
  ad.type = t;
  goap_agent *a = NULL;
  goap_agent_create(&ad, &a, NULL);
  text log = {0};
  goap_recorder_desc rd;
  memset(&rd, 0, sizeof rd);
  rd.domain = d;
  rd.sink = sink;
  rd.sink_user = &log;
  rd.chunk_size = 1 << 20;
  goap_recorder *rec = NULL;
  goap_recorder_create(&rd, &rec);
  goap_recorder_attach(rec, a);
  for (int i = 0; i < updates; ++i) goap_agent_update(a, 1.0 / 60);
  goap_recorder_finish(rec);
  goap_recorder_destroy(rec);
  goap_agent_destroy(a);
  goap_agent_type_destroy(t);
  free(log.s);
  return log.n;
}

TEST(steady_updates_take_two_bytes) {
  goap_file *f = NULL;
  REQUIRE(goap_file_load(GOAP_EXAMPLES_DIR "/soldier.goap", NULL, &f, NULL) == GOAP_OK);
  size_t a = steady_log_size(f, 1000), b = steady_log_size(f, 1100);
  CHECK(a > 0);
  CHECK_EQ_INT(b - a, 200); /* UPDATE_SAME and TICK_RUNNING per update */
  goap_file_destroy(f);
}

/* ---- the domain's own callbacks: procedural checks and dynamic costs ---------------------- */

typedef struct dyn_ctx {
  uint64_t rng;
  int live, calls;
} dyn_ctx;

static int dyn_check(void *host, int action, void *user) {
  dyn_ctx *c = (dyn_ctx *)user;
  (void)host;
  (void)action;
  c->calls++;
  return c->live ? rng_unit(&c->rng) < 0.7 : 1;
}

static double dyn_cost(void *host, int action, void *user) {
  dyn_ctx *c = (dyn_ctx *)user;
  (void)host;
  c->calls++;
  return c->live ? 1.0 + (double)(rng_next(&c->rng) % 8) * 0.25 + action : 1;
}

static goap_action_state one_tick(goap_agent *a, int action, double dt, void *user) {
  (void)a;
  (void)action;
  (void)dt;
  (void)user;
  return GOAP_ACTION_SUCCESS;
}

/* at a fork, walk (dynamic cost) or take the cart (a procedural check), then arrive */
static goap_domain *fork_domain(dyn_ctx *c) {
  goap_builder *b = NULL;
  goap_builder_create(NULL, &b);
  goap_var_desc v = {0};
  v.type = GOAP_BOOL;
  v.name = "across";
  goap_builder_add_var(b, &v, NULL);
  v.name = "home";
  goap_builder_add_var(b, &v, NULL);
  goap_effect across = {0, GOAP_SET, 1}, home = {1, GOAP_SET, 1};
  goap_cond at_across = {0, GOAP_EQ, 1};
  goap_action_desc ad = {0};
  ad.name = "walk";
  ad.cost = 3;
  ad.eff = &across;
  ad.eff_count = 1;
  ad.dynamic_cost = dyn_cost;
  ad.user = c;
  goap_builder_add_action(b, &ad, NULL);
  memset(&ad, 0, sizeof ad);
  ad.name = "cart";
  ad.cost = 2;
  ad.eff = &across;
  ad.eff_count = 1;
  ad.check = dyn_check;
  ad.user = c;
  goap_builder_add_action(b, &ad, NULL);
  memset(&ad, 0, sizeof ad);
  ad.name = "arrive";
  ad.cost = 1;
  ad.pre = &at_across;
  ad.pre_count = 1;
  ad.eff = &home;
  ad.eff_count = 1;
  goap_builder_add_action(b, &ad, NULL);
  goap_goal_desc gd = {0};
  gd.name = "go_home";
  gd.priority = 1;
  goap_cond want_home = {1, GOAP_EQ, 1};
  gd.want = &want_home;
  gd.want_count = 1;
  goap_builder_add_goal(b, &gd, NULL);
  goap_domain *d = NULL;
  goap_builder_build(b, &d);
  goap_builder_destroy(b);
  return d;
}

static int fork_run(goap_domain *d, text *timeline, text *log, goap_replayer *rp) {
  goap_action_binding ab[3];
  memset(ab, 0, sizeof ab);
  for (int i = 0; i < 3; ++i) ab[i].tick = one_tick;
  goap_agent_type_desc td;
  memset(&td, 0, sizeof td);
  td.actions = ab;
  td.action_count = 3;
  goap_agent_type *t = NULL;
  if (goap_agent_type_create(d, &td, &t, NULL) != GOAP_OK) return 0;
  goap_agent_desc ad;
  memset(&ad, 0, sizeof ad);
  ad.type = t;
  ad.host = (void *)(uintptr_t)"walker";
  ad.on_event = log_event;
  ad.event_user = timeline;
  goap_agent *a = NULL;
  goap_agent_create(&ad, &a, NULL);
  goap_recorder *rec = NULL;
  int ok = a != NULL;
  if (ok && !rp) {
    goap_recorder_desc rd;
    memset(&rd, 0, sizeof rd);
    rd.domain = d;
    rd.sink = sink;
    rd.sink_user = log;
    ok = goap_recorder_create(&rd, &rec) == GOAP_OK && goap_recorder_attach(rec, a) == GOAP_OK;
    for (int fr = 0; fr < 60 && ok; ++fr) { /* home, then back at the fork: plan again */
      if (goap_agent_get(a, 1)) {
        goap_agent_set(a, 0, 0);
        goap_agent_set(a, 1, 0);
      }
      goap_agent_update(a, 0.1);
      goap_recorder_frame(rec);
    }
    ok = ok && goap_recorder_finish(rec) == GOAP_OK;
  } else if (ok) {
    ok = goap_replayer_attach(rp, a) == GOAP_OK && goap_replayer_run(rp) == GOAP_OK;
  }
  goap_recorder_destroy(rec);
  goap_agent_destroy(a);
  goap_agent_type_destroy(t);
  return ok;
}

TEST(domain_callbacks_replay_exactly) {
  dyn_ctx c = {0x1234567, 1, 0};
  goap_domain *d = fork_domain(&c);
  REQUIRE(d != NULL);
  text live = {0}, log = {0}, replayed = {0};
  REQUIRE(fork_run(d, &live, &log, NULL));
  CHECK(c.calls > 20);
  /* the random answers changed the plans: both ways across were taken */
  REQUIRE(live.s != NULL);
  CHECK(strstr(live.s, "[ 0 2 ]") != NULL); /* walk, arrive */
  CHECK(strstr(live.s, "[ 1 2 ]") != NULL); /* cart, arrive */
  c.live = 0;
  c.calls = 0;
  goap_replayer_desc pd;
  memset(&pd, 0, sizeof pd);
  pd.domain = d;
  pd.log = log.s;
  pd.size = log.n;
  goap_replayer *rp = NULL;
  REQUIRE(goap_replayer_create(&pd, &rp, NULL) == GOAP_OK);
  REQUIRE(fork_run(d, &replayed, NULL, rp));
  CHECK_EQ_INT(c.calls, 0); /* the planner did not ask the callbacks: the log answered */
  CHECK_STR(replayed.s, live.s);
  goap_replayer_destroy(rp);
  /* the flag needs the costs */
  goap_planner *p = NULL;
  REQUIRE(goap_planner_create(d, NULL, &p) == GOAP_OK);
  goap_request rq;
  memset(&rq, 0, sizeof rq);
  rq.flags = GOAP_REQUEST_NO_CALLBACKS;
  goap_result res;
  memset(&res, 0, sizeof res);
  CHECK_EQ_INT(goap_plan(p, &rq, &res), GOAP_INVALID_ARGUMENT);
  goap_check_fn ck = NULL;
  goap_cost_fn co = NULL;
  void *user = NULL;
  CHECK_EQ_INT(goap_domain_action_callbacks(d, 1, &ck, &co, &user), 1);
  CHECK(ck == dyn_check && co == NULL && user == &c);
  CHECK_EQ_INT(goap_domain_action_callbacks(d, 2, &ck, &co, &user), 0);
  CHECK(ck == NULL && co == NULL && user == NULL);
  CHECK_EQ_INT(goap_domain_action_callbacks(d, 9, NULL, NULL, NULL), 0);
  goap_planner_destroy(p);
  goap_domain_destroy(d);
  free(live.s);
  free(log.s);
  free(replayed.s);
}

/* ---- file simulations with random procedural failures -------------------------------------- */

typedef struct sim_rand {
  uint64_t rng;
  int live, calls, refused;
} sim_rand;

static int sim_check(goap_agent *a, int action, void *user) {
  sim_rand *s = (sim_rand *)user;
  (void)a;
  (void)action;
  if (!s->live) {
    s->calls++;
    return 1;
  }
  int ok = rng_unit(&s->rng) < 0.75;
  s->refused += !ok;
  return ok;
}

static void sim_bind(const goap_file *f, int member, const char *name,
                     goap_action_binding *actions, int action_count, goap_goal_binding *goals,
                     int goal_count, void *user) {
  (void)f;
  (void)member;
  (void)name;
  (void)goals;
  (void)goal_count;
  for (int i = 0; i < action_count; ++i) {
    actions[i].check = sim_check;
    actions[i].check_user = user;
  }
}

static goap_status simulate(const goap_file *f, const char *name, sim_rand *r, text *timeline,
                            goap_recorder *rec, goap_replayer *rp, goap_sim_result *res) {
  goap_sim_options o;
  memset(&o, 0, sizeof o);
  o.bind = sim_bind;
  o.bind_user = r;
  o.on_event = log_event;
  o.event_user = timeline;
  o.on_world = log_world;
  o.world_user = timeline;
  o.recorder = rec;
  o.replayer = rp;
  return goap_file_simulate(f, goap_file_find_simulation(f, name), &o, res);
}

static void record_and_replay(int *test_failures_, const char *file, const char *sim,
                              uint64_t seed) {
  goap_file *f = NULL;
  REQUIRE(goap_file_load(file, NULL, &f, NULL) == GOAP_OK);
  sim_rand r = {seed, 1, 0, 0};
  text live = {0}, log = {0}, replayed = {0};
  goap_recorder_desc rd;
  memset(&rd, 0, sizeof rd);
  rd.domain = goap_file_domain(f);
  rd.sink = sink;
  rd.sink_user = &log;
  rd.label = sim;
  goap_recorder *rec = NULL;
  REQUIRE(goap_recorder_create(&rd, &rec) == GOAP_OK);
  goap_sim_result res, res2;
  REQUIRE(simulate(f, sim, &r, &live, rec, NULL, &res) == GOAP_OK);
  REQUIRE(goap_recorder_finish(rec) == GOAP_OK);
  CHECK_EQ_INT(goap_recorder_bytes(rec), log.n);
  goap_recorder_destroy(rec);
  CHECK(r.refused > 0); /* random answers changed the plans */

  sim_rand q = {0, 0, 0, 0};
  goap_replayer_desc pd;
  memset(&pd, 0, sizeof pd);
  pd.domain = goap_file_domain(f);
  pd.log = log.s;
  pd.size = log.n;
  goap_replayer *rp = NULL;
  REQUIRE(goap_replayer_create(&pd, &rp, NULL) == GOAP_OK);
  CHECK_STR(goap_replayer_label(rp), sim);
  REQUIRE(simulate(f, sim, &q, &replayed, NULL, rp, &res2) == GOAP_OK);
  CHECK_EQ_INT(q.calls, 0);
  CHECK_STR(replayed.s, live.s);
  CHECK(res2.time == res.time);
  CHECK_EQ_INT(res2.idle, res.idle);
  CHECK_EQ_INT(res2.replans, res.replans);
  CHECK_EQ_INT(res2.stats.actions_failed, res.stats.actions_failed);
  CHECK_EQ_INT(res2.stats.updates, res.stats.updates);
  CHECK_EQ_INT(res2.failed, res.failed);
  goap_replayer_destroy(rp);
  free(live.s);
  free(log.s);
  free(replayed.s);
  goap_file_destroy(f);
}

TEST(soldier_simulation_with_random_failures) {
  record_and_replay(test_failures_, GOAP_EXAMPLES_DIR "/soldier.goap", "both", 7);
  record_and_replay(test_failures_, GOAP_EXAMPLES_DIR "/soldier.goap", "nothing_blocked", 99);
}

/* five members, a blackboard (shared counters, reservations) and squad orders */
TEST(squad_simulation_with_random_failures) {
  record_and_replay(test_failures_, GOAP_EXAMPLES_DIR "/squad.goap", "flank", 3);
  record_and_replay(test_failures_, GOAP_EXAMPLES_DIR "/squad.goap", "assault_flanks", 4);
}

/* ---- a balance change: where the decisions first differ ------------------------------------ */

static char *read_text(const char *path, size_t *n) {
  FILE *fp = fopen(path, "rb");
  if (!fp) return NULL;
  char *s = (char *)malloc(1 << 16);
  *n = s ? fread(s, 1, (1 << 16) - 1, fp) : 0;
  fclose(fp);
  if (s) s[*n] = 0;
  return s;
}

static goap_file *soldier_with(const char *from, const char *to) {
  size_t n = 0;
  char *s = read_text(GOAP_EXAMPLES_DIR "/soldier.goap", &n);
  if (!s) return NULL;
  char *at = strstr(s, from);
  goap_file *f = NULL;
  size_t nf = strlen(from), nt = strlen(to);
  char *t = (char *)malloc(n + nt + 1);
  if (at && t) {
    size_t pre = (size_t)(at - s);
    memcpy(t, s, pre);
    memcpy(t + pre, to, nt);
    memcpy(t + pre + nt, at + nf, n - pre - nf + 1);
    if (goap_file_parse("soldier_changed.goap", t, n - nf + nt, NULL, &f, NULL) != GOAP_OK)
      f = NULL;
  }
  free(t);
  free(s);
  return f;
}

TEST(changed_cost_diverges_at_the_first_different_plan) {
  goap_file *f = NULL;
  REQUIRE(goap_file_load(GOAP_EXAMPLES_DIR "/soldier.goap", NULL, &f, NULL) == GOAP_OK);
  goap_file *g = soldier_with("action kick_door\n  cost 3", "action kick_door\n  cost 7");
  REQUIRE(g != NULL);
  text live = {0}, log = {0}, replayed = {0};
  goap_recorder_desc rd;
  memset(&rd, 0, sizeof rd);
  rd.domain = goap_file_domain(f);
  rd.sink = sink;
  rd.sink_user = &log;
  rd.label = "both";
  goap_recorder *rec = NULL;
  REQUIRE(goap_recorder_create(&rd, &rec) == GOAP_OK);
  goap_sim_result res;
  goap_sim_options o;
  memset(&o, 0, sizeof o);
  o.on_event = log_event;
  o.event_user = &live;
  o.recorder = rec;
  REQUIRE(goap_file_simulate(f, goap_file_find_simulation(f, "both"), &o, &res) == GOAP_OK);
  REQUIRE(goap_recorder_finish(rec) == GOAP_OK);
  goap_recorder_destroy(rec);

  goap_replayer_desc pd;
  memset(&pd, 0, sizeof pd);
  pd.domain = goap_file_domain(g);
  pd.log = log.s;
  pd.size = log.n;
  goap_replayer *rp = NULL;
  REQUIRE(goap_replayer_create(&pd, &rp, NULL) == GOAP_OK);
  CHECK_EQ_INT(goap_replayer_domain_changed(rp), 1);
  memset(&o, 0, sizeof o);
  o.on_event = log_event;
  o.event_user = &replayed;
  o.replayer = rp;
  CHECK_EQ_INT(goap_file_simulate(g, goap_file_find_simulation(g, "both"), &o, &res),
               GOAP_CONFLICT);
  goap_replay_divergence dv;
  REQUIRE(goap_replayer_divergence(rp, &dv) == 1);
  CHECK_EQ_INT(dv.frame, 22);
  CHECK_EQ_INT(dv.agent, 0);
  CHECK_EQ_INT(dv.update, 23);
  CHECK_NEAR(dv.time, 2.2, 1e-9);
  CHECK(dv.host == NULL);
  CHECK_STR(dv.expected, "plan for kill_enemy (cost 9): kick_door, punch");
  CHECK_STR(dv.got, "plan for kill_enemy (cost 11): jump_window, punch");
  /* everything before the divergence was reported, and is the recorded run's */
  REQUIRE(replayed.s != NULL);
  CHECK(strncmp(live.s, replayed.s, replayed.n) == 0);
  CHECK(replayed.n < live.n);
  CHECK_EQ_INT(goap_replayer_run(rp), GOAP_CONFLICT); /* it stays stopped */
  goap_replayer_destroy(rp);

  /* a domain with other variables, actions or goals is refused */
  goap_file *h = soldier_with("var target_dead: bool\n", "var target_dead: bool\nvar x: bool\n");
  REQUIRE(h != NULL);
  pd.domain = goap_file_domain(h);
  goap_error err;
  CHECK_EQ_INT(goap_replayer_create(&pd, &rp, &err), GOAP_CONFLICT);
  CHECK_EQ_INT(err.status, GOAP_CONFLICT);
  CHECK_STR(err.message, "replay log: recorded over another domain (its variables, actions or "
                         "goals differ)");
  CHECK_EQ_INT(err.offset, 8);
  CHECK(err.line == 0 && err.col == 0 && err.file[0] == '\0');
  CHECK(rp == NULL);
  goap_file_destroy(h);
  free(live.s);
  free(log.s);
  free(replayed.s);
  goap_file_destroy(g);
  goap_file_destroy(f);
}

/* ---- damaged logs -------------------------------------------------------------------------- */

static text record_soldier(const goap_file *f) {
  text log = {0};
  goap_recorder_desc rd;
  memset(&rd, 0, sizeof rd);
  rd.domain = goap_file_domain(f);
  rd.sink = sink;
  rd.sink_user = &log;
  rd.label = "door_held";
  rd.chunk_size = 64;
  goap_recorder *rec = NULL;
  if (goap_recorder_create(&rd, &rec) != GOAP_OK) return log;
  goap_sim_options o;
  memset(&o, 0, sizeof o);
  o.recorder = rec;
  goap_sim_result res;
  goap_file_simulate(f, goap_file_find_simulation(f, "door_held"), &o, &res);
  goap_recorder_finish(rec);
  goap_recorder_destroy(rec);
  return log;
}

TEST(damaged_logs_are_refused_clearly) {
  goap_file *f = NULL;
  REQUIRE(goap_file_load(GOAP_EXAMPLES_DIR "/soldier.goap", NULL, &f, NULL) == GOAP_OK);
  text log = record_soldier(f);
  REQUIRE(log.n > 100);
  goap_replayer_desc pd;
  memset(&pd, 0, sizeof pd);
  pd.domain = goap_file_domain(f);
  pd.log = log.s;
  goap_replayer *rp = NULL;
  goap_error err;
  /* every truncation */
  for (size_t n = 0; n < log.n; ++n) {
    pd.size = n;
    goap_status st = goap_replayer_create(&pd, &rp, &err);
    CHECK_EQ_INT(st, GOAP_PARSE_ERROR);
    CHECK_EQ_INT(err.status, GOAP_PARSE_ERROR);
    CHECK(rp == NULL && strncmp(err.message, "replay log: ", 12) == 0);
    CHECK(err.offset <= n);
  }
  pd.size = 5;
  CHECK_EQ_INT(goap_replayer_create(&pd, &rp, &err), GOAP_PARSE_ERROR);
  CHECK_STR(err.message, "replay log: not a libgoap replay log (bad magic)");
  pd.size = log.n - 1;
  CHECK_EQ_INT(goap_replayer_create(&pd, &rp, &err), GOAP_PARSE_ERROR);
  CHECK_STR(err.message, "replay log: truncated (a chunk ends past the end of the data)");
  CHECK(err.offset > 0 && err.offset < log.n - 1); /* where the last chunk starts */
  /* every bit flip */
  char *copy = (char *)malloc(log.n);
  REQUIRE(copy != NULL);
  pd.log = copy;
  pd.size = log.n;
  int refused = 0;
  for (size_t i = 0; i < log.n; ++i) {
    for (int b = 0; b < 8; ++b) {
      memcpy(copy, log.s, log.n);
      copy[i] = (char)(copy[i] ^ (1 << b));
      goap_status st = goap_replayer_create(&pd, &rp, &err);
      if (st == GOAP_OK) { /* must not happen: everything is checksummed */
        goap_replayer_destroy(rp);
        continue;
      }
      refused++;
      CHECK(st == GOAP_PARSE_ERROR || st == GOAP_CONFLICT);
      CHECK(err.status == st && err.message[0] != '\0' && err.offset <= log.n);
    }
  }
  CHECK_EQ_INT(refused, (long long)log.n * 8);
  /* the version byte: a clear message */
  memcpy(copy, log.s, log.n);
  copy[8] = 2;
  CHECK_EQ_INT(goap_replayer_create(&pd, &rp, &err), GOAP_PARSE_ERROR);
  CHECK_STR(err.message, "replay log: format version not supported (this library reads version 1)");
  CHECK_EQ_INT(err.offset, 8);
  /* a payload byte: the chunk's checksum */
  memcpy(copy, log.s, log.n);
  copy[log.n - 6] ^= 0x20;
  CHECK_EQ_INT(goap_replayer_create(&pd, &rp, &err), GOAP_PARSE_ERROR);
  CHECK_STR(err.message, "replay log: corrupted chunk (checksum mismatch)");
  /* data after the end: appended garbage is framed as a chunk and refused */
  char *longer = (char *)malloc(log.n + 8);
  REQUIRE(longer != NULL);
  memcpy(longer, log.s, log.n);
  memset(longer + log.n, 0, 8);
  pd.log = longer;
  pd.size = log.n + 8;
  CHECK_EQ_INT(goap_replayer_create(&pd, &rp, &err), GOAP_PARSE_ERROR);
  CHECK_EQ_INT(err.offset, log.n);
  /* goap_error_format: an unpositioned error with an offset */
  char shown[256];
  size_t len = goap_error_format(&err, shown, sizeof shown);
  char want[256];
  snprintf(want, sizeof want,
           "error: replay log: truncated (a chunk ends past the end of the data) (at byte %zu)\n",
           log.n);
  CHECK_STR(shown, want);
  CHECK_EQ_INT(len, strlen(want));
  free(longer);
  free(copy);
  free(log.s);
  goap_file_destroy(f);
}

/* ---- API errors, sinks and allocation ------------------------------------------------------ */

static int failing_sink(void *user, const void *data, size_t size) {
  int *budget = (int *)user;
  (void)data;
  (void)size;
  return (*budget)-- > 0 ? 0 : 1;
}

typedef struct counting {
  long live, calls, fail_at;
} counting;

static void *count_alloc(void *ctx, void *ptr, size_t old_size, size_t new_size) {
  counting *c = (counting *)ctx;
  if (new_size == 0) {
    if (ptr) c->live--;
    free(ptr);
    return NULL;
  }
  (void)old_size;
  if (c->fail_at >= 0 && c->calls++ == c->fail_at) return NULL;
  void *p = realloc(ptr, new_size);
  if (p && !ptr) c->live++;
  return p;
}

TEST(api_errors_sinks_and_allocation) {
  goap_file *f = NULL;
  REQUIRE(goap_file_load(GOAP_EXAMPLES_DIR "/soldier.goap", NULL, &f, NULL) == GOAP_OK);
  const goap_domain *d = goap_file_domain(f);
  goap_recorder *rec = NULL;
  goap_recorder_desc rd;
  memset(&rd, 0, sizeof rd);
  CHECK_EQ_INT(goap_recorder_create(NULL, &rec), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_recorder_create(&rd, &rec), GOAP_INVALID_ARGUMENT); /* no domain, sink */
  rd.domain = d;
  CHECK_EQ_INT(goap_recorder_create(&rd, &rec), GOAP_INVALID_ARGUMENT);
  char label[300];
  memset(label, 'x', sizeof label - 1);
  label[299] = 0;
  text log = {0};
  rd.sink = sink;
  rd.sink_user = &log;
  rd.label = label;
  CHECK_EQ_INT(goap_recorder_create(&rd, &rec), GOAP_INVALID_ARGUMENT);
  rd.label = NULL;
  REQUIRE(goap_recorder_create(&rd, &rec) == GOAP_OK);
  CHECK_EQ_INT(goap_recorder_attach(rec, NULL), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_recorder_note(rec, NULL, 3), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_recorder_note(rec, label, 70000), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_recorder_note(rec, "abc", 3), GOAP_OK);
  goap_recorder_frame(NULL);
  CHECK_EQ_INT(goap_recorder_status(NULL), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_recorder_finish(rec), GOAP_OK);
  CHECK_EQ_INT(goap_recorder_note(rec, "abc", 3), GOAP_OK); /* ignored after the end */
  goap_recorder_destroy(rec);
  goap_recorder_destroy(NULL);
  /* a note comes back at its place; an empty label reads as "" */
  goap_replayer_desc pd;
  memset(&pd, 0, sizeof pd);
  pd.domain = d;
  pd.log = log.s;
  pd.size = log.n;
  goap_replayer *rp = NULL;
  CHECK_EQ_INT(goap_replayer_create(NULL, &rp, NULL), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_replayer_create(&pd, NULL, NULL), GOAP_INVALID_ARGUMENT);
  REQUIRE(goap_replayer_create(&pd, &rp, NULL) == GOAP_OK);
  CHECK_STR(goap_replayer_label(rp), "");
  CHECK_EQ_INT(goap_replayer_agent_count(rp), 0);
  CHECK_EQ_INT(goap_replayer_run(rp), GOAP_OK);
  goap_replayer_destroy(rp);
  free(log.s);

  /* a sink that fails on its third write */
  int budget = 2;
  rd.sink = failing_sink;
  rd.sink_user = &budget;
  rd.chunk_size = 16;
  REQUIRE(goap_recorder_create(&rd, &rec) == GOAP_OK);
  goap_sim_options o;
  memset(&o, 0, sizeof o);
  o.recorder = rec;
  goap_sim_result res;
  CHECK_EQ_INT(goap_file_simulate(f, 0, &o, &res), GOAP_OK); /* the simulation goes on */
  CHECK_EQ_INT(goap_recorder_status(rec), GOAP_IO_ERROR);
  CHECK_EQ_INT(goap_recorder_finish(rec), GOAP_IO_ERROR);
  goap_recorder_destroy(rec);
  /* both at once is refused */
  o.replayer = (goap_replayer *)&budget;
  CHECK_EQ_INT(goap_file_simulate(f, 0, &o, &res), GOAP_INVALID_ARGUMENT);

  /* allocation through the hook, failing at every call in turn: a clear status, no leak */
  text good = record_soldier(f);
  for (long k = 0;; ++k) {
    counting c = {0, 0, k};
    goap_recorder_desc r2;
    memset(&r2, 0, sizeof r2);
    r2.allocator.fn = count_alloc;
    r2.allocator.ctx = &c;
    r2.domain = d;
    text out = {0};
    r2.sink = sink;
    r2.sink_user = &out;
    r2.chunk_size = 32;
    goap_status st = goap_recorder_create(&r2, &rec);
    if (st == GOAP_OK) {
      memset(&o, 0, sizeof o);
      o.recorder = rec;
      goap_file_simulate(f, goap_file_find_simulation(f, "door_held"), &o, &res);
      st = goap_recorder_finish(rec);
      goap_recorder_destroy(rec);
    }
    pd.allocator.fn = count_alloc;
    pd.allocator.ctx = &c;
    pd.log = good.s;
    pd.size = good.n;
    goap_status st2 = goap_replayer_create(&pd, &rp, NULL);
    if (st2 == GOAP_OK) goap_replayer_destroy(rp);
    free(out.s);
    CHECK(st == GOAP_OK || st == GOAP_OUT_OF_MEMORY);
    CHECK(st2 == GOAP_OK || st2 == GOAP_OUT_OF_MEMORY);
    CHECK_EQ_INT(c.live, 0);
    if (st == GOAP_OK && st2 == GOAP_OK) break;
    if (k > 200) {
      CHECK(0);
      break;
    }
  }
  free(good.s);
  goap_file_destroy(f);
}

TEST_MAIN(TEST_ENTRY(random_host_replays_exactly), TEST_ENTRY(steady_updates_take_two_bytes),
          TEST_ENTRY(domain_callbacks_replay_exactly),
          TEST_ENTRY(soldier_simulation_with_random_failures),
          TEST_ENTRY(squad_simulation_with_random_failures),
          TEST_ENTRY(changed_cost_diverges_at_the_first_different_plan),
          TEST_ENTRY(damaged_logs_are_refused_clearly), TEST_ENTRY(api_errors_sinks_and_allocation))
