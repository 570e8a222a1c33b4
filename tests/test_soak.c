/*
 * test_soak.c -- a long randomized run of the agent runtime.
 *
 * 1,000 agents of four types over two domains -- the soldier of examples/soldier.goap (a
 * "soldier" with every action and a "brawler" that can only walk in and punch) and a small
 * camp domain written here (int variables, a sensor, a dynamic priority, goals with validity
 * conditions and watched variables; a "forager" with every action and a "rat" without the
 * fire, axe and fighting actions) -- are updated for 10,000 frames of 0.05 s while a seeded
 * random world makes actions fail, run for several frames or hang until their timeout, and
 * changes the agents' memory behind their backs (new enemies, lost ammunition, a door that
 * jams, threats that come and go, meals and snacks), asks for replans and resets agents.
 *
 * Checked on every event and update:
 *  - no action starts unless its preconditions hold in the agent's memory (checked in the start
 *    callback with goap_action_applicable on goap_agent_memory) and its type has it;
 *  - actions start and end in pairs (success, failure or stop), one at a time; an action fails
 *    only when the world made it fail, and times out only when it hung, after its timeout;
 *  - a success leaves the action's assignments in memory, a failure its on_fail facts;
 *  - every plan adopted (searched or from the cache) replays from memory to its goal, uses only
 *    the type's actions and costs what the type's costs add up to;
 *  - every goal reported done holds in memory; goap_agent_update never returns an error.
 * Checked at the end:
 *  - memory stays flat: after the warm-up (the first 1,000 frames) nothing allocates except an
 *    agent's first search, which creates its planner (an agent served only by the cache may
 *    search for the first time late; few do), each agent's memory_bytes stays what it was
 *    (after that first search), and the live bytes grow by exactly those first planners;
 *  - the books balance: the events, the callbacks and goap_agent_get_stats agree;
 *  - every replanning reason the world can cause occurred, in each domain (the stats, and for
 *    GOAP_REPLAN_IDLE, which no stats counter records, the reason of plans adopted after idling);
 *  - the agents achieved many goals (on average at least one per agent every 250 frames), and
 *    plan repair, the cache (with evictions) and goal fallback were used.
 *
 * Frames: 10,000 (one to two seconds in Release). Sanitizer builds (ASan: __SANITIZE_ADDRESS__ or
 * __has_feature(address_sanitizer)) and unoptimized builds run 4,000 (about 12 s under
 * ASan+UBSan) so that the test stays well under a minute there; the environment variable
 * GOAP_SOAK_FRAMES (1,000 or more) overrides both. The warm-up is min(1,000, frames / 4).
 */
#include <goap/agent.h>
#include <goap/file.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc_hook.h"
#include "test.h"
#include "test_rng.h"

#if defined(__SANITIZE_ADDRESS__)
#define SOAK_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SOAK_SANITIZED 1
#endif
#endif
#ifndef SOAK_SANITIZED
#define SOAK_SANITIZED 0
#endif

#if SOAK_SANITIZED || !defined(__OPTIMIZE__)
#define SOAK_DEFAULT_FRAMES 4000
#else
#define SOAK_DEFAULT_FRAMES 10000
#endif

#define AGENTS 1000
#define DT 0.05
#define TIMEOUT 0.5 /* every action's; a normal run lasts at most 3 extra frames (0.15 s) */
#define MAX_ACTIONS 16

enum { SOLDIER = 0, CAMP = 1, DOMAINS = 2 };
enum { FATE_OK = 0, FATE_FAIL, FATE_HANG };

/* ---- the camp domain ------------------------------------------------------------------------- */

#include "camp_domain.h"

/* ---- a seeded random number generator (splitmix64) ------------------------------------------ */

static uint64_t next_u64(uint64_t *s) {
  return splitmix64(s);
}

static uint32_t below(uint64_t *s, uint32_t n) { return (uint32_t)(next_u64(s) % n); }

/* true with probability per_100k / 100,000 */
static int chance(uint64_t *s, uint32_t per_100k) { return below(s, 100000) < per_100k; }

/* ---- types, agents, the world ---------------------------------------------------------------- */

typedef struct type_info {
  const char *name;
  int domain;
  const goap_domain *d;
  goap_agent_type *t;
  double cost[MAX_ACTIONS];          /* the cost the type plans with; < 0: not its action */
  goap_effect on_fail[MAX_ACTIONS];
  int has_on_fail[MAX_ACTIONS];
} type_info;

typedef struct soak_agent {
  goap_agent *a;
  const type_info *ti;
  int fate, extra;                   /* what the world decided for the running action */
  double started;                    /* agent time at its start */
  int running;                       /* the running action as told by the events, or -1 */
  int succeeded, failed;             /* the action that ended during this update, or -1 */
  int searched;                      /* has planned without the cache (has its planner) */
  size_t bytes_ref;                  /* memory_bytes at the warm-up */
} soak_agent;

typedef struct soak {
  uint64_t rng;
  /* violations: each must stay 0 */
  long pre_violations, foreign_action, pairing, fate, effects, on_fail, plans_bad, goals_bad,
      timing, status;
  /* what happened */
  long starts, stop_calls, stop_events, failures, timeouts;
  long goal_done[DOMAINS], plans[DOMAINS], cached[DOMAINS];
  long plan_reason[DOMAINS][GOAP_REPLAN_REASON_COUNT];
  long replan_events[DOMAINS][GOAP_REPLAN_REASON_COUNT];
} soak;

static void on_start(goap_agent *a, int action, void *user) {
  soak *s = (soak *)user;
  soak_agent *h = (soak_agent *)goap_agent_host(a);
  const type_info *ti = h->ti;
  s->starts++;
  if (!goap_action_applicable(ti->d, goap_agent_memory(a), action)) s->pre_violations++;
  if (ti->cost[action] < 0) s->foreign_action++;
  uint32_t r = below(&s->rng, 1000);
  h->fate = r < 50 ? FATE_FAIL : r < 70 ? FATE_HANG : FATE_OK; /* 5% fail, 2% hang */
  h->extra = (int)below(&s->rng, 4);                           /* 0..3 more frames */
  h->started = goap_agent_time(a);
}

static goap_action_state on_tick(goap_agent *a, int action, double dt, void *user) {
  (void)action;
  (void)dt;
  (void)user;
  soak_agent *h = (soak_agent *)goap_agent_host(a);
  if (h->fate == FATE_HANG) return GOAP_ACTION_RUNNING;
  if (h->extra > 0) {
    h->extra--;
    return GOAP_ACTION_RUNNING;
  }
  return h->fate == FATE_FAIL ? GOAP_ACTION_FAILURE : GOAP_ACTION_SUCCESS;
}

static void on_stop(goap_agent *a, int action, void *user) {
  (void)a;
  (void)action;
  ((soak *)user)->stop_calls++;
}

static double feed_priority(goap_agent *a, int goal, void *user) {
  (void)goal;
  (void)user;
  const goap_domain *d = goap_agent_type_domain(goap_agent_get_type(a));
  return 5.0 + (double)goap_agent_get(a, goap_domain_find_var(d, "hunger"));
}

/* The camp's only sensor: hunger grows by one every second. */
static void hunger_sensor(goap_agent *a, void *user) {
  (void)user;
  const goap_domain *d = goap_agent_type_domain(goap_agent_get_type(a));
  int v = goap_domain_find_var(d, "hunger");
  int32_t x = goap_agent_get(a, v);
  if (x < 10) goap_agent_set(a, v, x + 1);
}

static void on_event(goap_agent *a, const goap_agent_event *ev, void *user) {
  soak *s = (soak *)user;
  soak_agent *h = (soak_agent *)goap_agent_host(a);
  const type_info *ti = h->ti;
  const goap_domain *d = ti->d;
  int dom = ti->domain;
  switch (ev->kind) {
  case GOAP_EVENT_REPLAN: s->replan_events[dom][ev->reason]++; break;
  case GOAP_EVENT_PLAN: {
    s->plans[dom]++;
    if (ev->cached) s->cached[dom]++;
    s->plan_reason[dom][ev->reason]++;
    int nw = 0;
    const goap_cond *want = goap_domain_goal_want(d, ev->goal, &nw);
    if (goap_plan_validate(d, goap_agent_memory(a), want, nw, ev->plan, ev->plan_length, NULL,
                           NULL) != GOAP_OK)
      s->plans_bad++;
    double cost = 0;
    for (int i = 0; i < ev->plan_length; ++i) {
      if (ti->cost[ev->plan[i]] < 0) s->foreign_action++;
      cost += ti->cost[ev->plan[i]];
    }
    if (fabs(cost - ev->cost) > 1e-9) s->plans_bad++;
    break;
  }
  case GOAP_EVENT_ACTION_START:
    if (h->running != -1 || goap_agent_action(a) != ev->action) s->pairing++;
    h->running = ev->action;
    break;
  case GOAP_EVENT_ACTION_SUCCESS:
    if (h->running != ev->action) s->pairing++;
    if (h->fate != FATE_OK) s->fate++;
    h->running = -1;
    h->succeeded = ev->action;
    break;
  case GOAP_EVENT_ACTION_FAILURE:
    if (h->running != ev->action) s->pairing++;
    h->running = -1;
    h->failed = ev->action;
    if (ev->timeout) {
      s->timeouts++;
      if (h->fate != FATE_HANG) s->fate++;
      double ran = ev->time - h->started; /* the timeout counts from the start's update */
      if (ran < TIMEOUT - 1e-9 || ran > TIMEOUT + DT + 1e-9) s->timing++;
    } else {
      s->failures++;
      if (h->fate != FATE_FAIL) s->fate++;
    }
    break;
  case GOAP_EVENT_ACTION_STOP:
    if (h->running != ev->action) s->pairing++;
    h->running = -1;
    s->stop_events++;
    break;
  case GOAP_EVENT_GOAL_DONE: {
    s->goal_done[dom]++;
    int nw = 0;
    const goap_cond *want = goap_domain_goal_want(d, ev->goal, &nw);
    if (!goap_state_satisfies(d, goap_agent_memory(a), want, nw)) s->goals_bad++;
    break;
  }
  default: break;
  }
}

/* After an update: what an action that ended left in memory. */
static void check_outcome(soak *s, soak_agent *h) {
  const type_info *ti = h->ti;
  const goap_word *mem = goap_agent_memory(h->a);
  if (h->succeeded >= 0) {
    int ne = 0;
    const goap_effect *e = goap_domain_action_eff(ti->d, h->succeeded, &ne);
    for (int k = 0; k < ne; ++k)
      if (e[k].op == GOAP_SET && goap_state_get(ti->d, mem, e[k].var) != e[k].value) s->effects++;
  }
  if (h->failed >= 0 && ti->has_on_fail[h->failed]) {
    const goap_effect *e = &ti->on_fail[h->failed];
    if (goap_state_get(ti->d, mem, e->var) != e->value) s->on_fail++;
  }
}

static void set_var(goap_agent *a, const goap_domain *d, const char *name, int32_t v) {
  goap_agent_set(a, goap_domain_find_var(d, name), v);
}

static int32_t get_var(const goap_agent *a, const goap_domain *d, const char *name) {
  return goap_agent_get(a, goap_domain_find_var(d, name));
}

/* What the world does to one agent before its update. Rates are per frame. */
static void world_step(soak *s, soak_agent *h) {
  goap_agent *a = h->a;
  const goap_domain *d = h->ti->d;
  uint64_t *r = &s->rng;
  if (chance(r, 50)) goap_agent_replan(a);
  if (chance(r, 20)) goap_agent_reset(a);
  if (h->ti->domain == SOLDIER) {
    static const char *const facts[] = {"in_b",       "has_ammo",    "loaded",
                                        "door_stuck", "kick_failed", "armory_empty"};
    if (get_var(a, d, "target_dead") && chance(r, 3000)) { /* a new enemy */
      set_var(a, d, "target_dead", 0);
      if (below(r, 2)) set_var(a, d, "in_b", 0);
    }
    if (chance(r, 1000)) set_var(a, d, facts[below(r, 6)], (int32_t)below(r, 2));
    if (chance(r, 500)) set_var(a, d, "in_b", 1);     /* carried in: repair skips the door */
    if (chance(r, 500)) set_var(a, d, "has_ammo", 1); /* handed a magazine */
  } else {
    if (get_var(a, d, "threat") ? chance(r, 1000) : chance(r, 200))
      set_var(a, d, "threat", !get_var(a, d, "threat"));
    if (get_var(a, d, "fire") && chance(r, 1000)) set_var(a, d, "fire", 0);
    /* someone fed it: a meal (feed is met) or a snack (feed is no longer valid, not met) */
    if (chance(r, 200)) set_var(a, d, "hunger", (int32_t)below(r, 5));
    if (chance(r, 300)) set_var(a, d, "food", (int32_t)below(r, 5));
    if (chance(r, 300)) set_var(a, d, "wood", (int32_t)below(r, 7));
    if (chance(r, 200)) set_var(a, d, "at_home", !get_var(a, d, "at_home"));
    if (chance(r, 100)) set_var(a, d, "axe_broken", (int32_t)below(r, 2));
  }
}

/* Builds a type: every action gets the callbacks and the timeout; `disabled` lists the actions
 * it lacks; on_fail facts and watches by name. */
static int make_type(type_info *ti, const char *name, int domain, const goap_domain *d,
                     const goap_allocator *al, soak *s, const char *const *disabled,
                     const char *const (*on_fail)[2], const char *const (*action_watch)[2],
                     const char *const (*goal_valid)[2], const char *const (*goal_watch)[2],
                     const char *scale_action, double scale) {
  memset(ti, 0, sizeof *ti);
  ti->name = name;
  ti->domain = domain;
  ti->d = d;
  int na = goap_domain_action_count(d), ng = goap_domain_goal_count(d);
  if (na > MAX_ACTIONS || ng > 8) return 0;
  goap_action_binding b[MAX_ACTIONS];
  goap_goal_binding g[8];
  int32_t avars[MAX_ACTIONS], gvars[8];
  goap_cond valid[8];
  memset(b, 0, sizeof b);
  memset(g, 0, sizeof g);
  for (int i = 0; i < na; ++i) {
    b[i].start = on_start;
    b[i].tick = on_tick;
    b[i].stop = on_stop;
    b[i].user = s;
    b[i].timeout = TIMEOUT;
  }
  for (int k = 0; disabled && disabled[k]; ++k)
    b[goap_domain_find_action(d, disabled[k])].disabled = 1;
  for (int k = 0; on_fail && on_fail[k][0]; ++k) {
    int act = goap_domain_find_action(d, on_fail[k][0]);
    ti->on_fail[act] = (goap_effect){goap_domain_find_var(d, on_fail[k][1]), GOAP_SET, 1};
    ti->has_on_fail[act] = 1;
    b[act].on_fail = &ti->on_fail[act];
    b[act].on_fail_count = 1;
  }
  for (int k = 0; action_watch && action_watch[k][0]; ++k) {
    int act = goap_domain_find_action(d, action_watch[k][0]);
    avars[act] = goap_domain_find_var(d, action_watch[k][1]);
    b[act].watch = &avars[act];
    b[act].watch_count = 1;
  }
  for (int k = 0; goal_valid && goal_valid[k][0]; ++k) { /* "goal", "var>=N" or "var" */
    int goal = goap_domain_find_goal(d, goal_valid[k][0]);
    char var[32];
    int n = 1;
    const char *ge = strstr(goal_valid[k][1], ">=");
    if (ge) {
      snprintf(var, sizeof var, "%.*s", (int)(ge - goal_valid[k][1]), goal_valid[k][1]);
      n = atoi(ge + 2);
      valid[goal] = (goap_cond){goap_domain_find_var(d, var), GOAP_GE, n};
    } else {
      valid[goal] = (goap_cond){goap_domain_find_var(d, goal_valid[k][1]), GOAP_EQ, 1};
    }
    g[goal].valid = &valid[goal];
    g[goal].valid_count = 1;
  }
  for (int k = 0; goal_watch && goal_watch[k][0]; ++k) {
    int goal = goap_domain_find_goal(d, goal_watch[k][0]);
    gvars[goal] = goap_domain_find_var(d, goal_watch[k][1]);
    g[goal].watch = &gvars[goal];
    g[goal].watch_count = 1;
  }
  if (scale_action) b[goap_domain_find_action(d, scale_action)].cost_scale = scale;
  goap_sensor_desc sensor = {hunger_sensor, NULL, 1.0};
  int feed = goap_domain_find_goal(d, "feed");
  if (feed >= 0) g[feed].priority = feed_priority;
  goap_agent_type_desc td;
  memset(&td, 0, sizeof td);
  td.allocator = *al;
  td.name = name;
  td.actions = b;
  td.action_count = na;
  td.goals = g;
  td.goal_count = ng;
  if (domain == CAMP) {
    td.sensors = &sensor;
    td.sensor_count = 1;
  }
  /* Searches finish within one update: a plan is then always for the memory it is adopted in
   * (the plan check above relies on it). The camp's largest search is far below this. */
  td.expansions_per_update = 1u << 20;
  for (int i = 0; i < na; ++i) {
    double c = goap_domain_action_cost(d, i);
    if (b[i].cost_scale > 0) c *= b[i].cost_scale;
    ti->cost[i] = b[i].disabled ? -1 : c;
  }
  goap_error err;
  if (goap_agent_type_create(d, &td, &ti->t, &err) != GOAP_OK) {
    fprintf(stderr, "type %s: %s\n", name, err.message);
    return 0;
  }
  return 1;
}

static int soak_frames(void) {
  const char *e = getenv("GOAP_SOAK_FRAMES");
  if (e && *e) {
    long n = strtol(e, NULL, 10);
    if (n >= 1000 && n <= 100000000) return (int)n;
  }
  return SOAK_DEFAULT_FRAMES;
}

static void print_reasons(const char *label, const long *r) {
  fprintf(stderr, "  %s:", label);
  for (int k = 1; k < GOAP_REPLAN_REASON_COUNT; ++k)
    fprintf(stderr, " %s=%ld", goap_replan_reason_name((goap_replan_reason)k), r[k]);
  fprintf(stderr, "\n");
}

TEST(soak) {
  int frames = soak_frames();
  int warm = frames / 4 < 1000 ? frames / 4 : 1000;
  goap_file *fs = NULL, *fc = NULL;
  goap_error diag;
  REQUIRE(goap_file_load(GOAP_EXAMPLES_DIR "/soldier.goap", NULL, &fs, &diag) == GOAP_OK);
  if (goap_file_parse("camp.goap", camp_text, strlen(camp_text), NULL, &fc, &diag) != GOAP_OK) {
    char buf[1024];
    goap_error_format(&diag, buf, sizeof buf);
    fprintf(stderr, "%s\n", buf);
    goap_file_destroy(fs);
    REQUIRE(0);
  }
  const goap_domain *ds = goap_file_domain(fs), *dc = goap_file_domain(fc);

  soak *s = (soak *)calloc(1, sizeof *s);
  REQUIRE(s != NULL);
  s->rng = 20261202u;
  test_alloc cnt = {0}; /* calls: allocations and resizes; outstanding: live bytes */
  goap_allocator al = test_alloc_hook(&cnt);

  /* the soldier domain */
  static const char *const brawler_lacks[] = {"get_ammo", "load_magazine", "shoot", "kick_door",
                                              NULL};
  static const char *const soldier_on_fail[][2] = {{"open_door", "door_stuck"},
                                                   {"kick_door", "kick_failed"},
                                                   {"get_ammo", "armory_empty"},
                                                   {NULL, NULL}};
  static const char *const soldier_watch[][2] = {
      {"shoot", "in_b"}, {"punch", "in_b"}, {NULL, NULL}};
  /* the camp */
  static const char *const rat_lacks[] = {"chop", "mend_axe", "light_fire", "fight", NULL};
  static const char *const camp_on_fail[][2] = {{"chop", "axe_broken"}, {NULL, NULL}};
  static const char *const camp_valid[][2] = {{"defend", "threat"}, {"feed", "hunger>=5"},
                                              {NULL, NULL}};
  static const char *const camp_watch[][2] = {{"feed", "threat"}, {"roam", "threat"},
                                              {NULL, NULL}};
  enum { T_SOLDIER, T_BRAWLER, T_FORAGER, T_RAT, NTYPES };
  type_info types[NTYPES];
  int ok = make_type(&types[T_SOLDIER], "soldier", SOLDIER, ds, &al, s, NULL, soldier_on_fail,
                     soldier_watch, NULL, NULL, NULL, 0) &&
           make_type(&types[T_BRAWLER], "brawler", SOLDIER, ds, &al, s, brawler_lacks,
                     soldier_on_fail, soldier_watch, NULL, NULL, "punch", 2.0) &&
           make_type(&types[T_FORAGER], "forager", CAMP, dc, &al, s, NULL, camp_on_fail, NULL,
                     camp_valid, camp_watch, NULL, 0) &&
           make_type(&types[T_RAT], "rat", CAMP, dc, &al, s, rat_lacks, camp_on_fail, NULL,
                     camp_valid, camp_watch, "forage", 1.5);
  REQUIRE(ok);

  /* one cache shared by every other agent of every type (capacity far below the number of
   * distinct situations, so it evicts all the time) */
  goap_plan_cache *cache = NULL;
  REQUIRE(goap_plan_cache_create(&al, 64, &cache) == GOAP_OK);

  soak_agent *ag = (soak_agent *)calloc(AGENTS, sizeof *ag);
  REQUIRE(ag != NULL);
  for (int i = 0; i < AGENTS; ++i) {
    /* 40% soldiers, 20% brawlers, 25% foragers, 15% rats */
    int k = i % 20;
    const type_info *ti = k < 8 ? &types[T_SOLDIER]
                          : k < 12 ? &types[T_BRAWLER]
                          : k < 17 ? &types[T_FORAGER]
                                   : &types[T_RAT];
    ag[i].ti = ti;
    ag[i].running = ag[i].succeeded = ag[i].failed = -1;
    goap_agent_desc ad;
    memset(&ad, 0, sizeof ad);
    ad.type = ti->t;
    ad.host = &ag[i];
    ad.cache = (i / 20) % 2 ? cache : NULL;
    ad.on_event = on_event;
    ad.event_user = s;
    REQUIRE(goap_agent_create(&ad, &ag[i].a, NULL) == GOAP_OK);
  }

  /* Memory after the warm-up. An agent creates its planner at its first search; an agent
   * served by the cache may search for the first time long after the warm-up. Those first
   * searches are the only updates allowed to allocate, and each agent's memory_bytes must
   * stay what it was at the warm-up (or right after that late first search). */
  size_t allocs_warm = 0, allocs_late_first = 0;
  long late_first = 0;
  size_t live_warm = 0, late_growth = 0;
  for (int f = 0; f < frames; ++f) {
    if (f == warm) {
      allocs_warm = cnt.calls;
      live_warm = cnt.outstanding;
      for (int i = 0; i < AGENTS; ++i) ag[i].bytes_ref = goap_agent_get_stats(ag[i].a).memory_bytes;
    }
    for (int i = 0; i < AGENTS; ++i) {
      soak_agent *h = &ag[i];
      world_step(s, h);
      h->succeeded = h->failed = -1;
      size_t before = cnt.calls;
      goap_status st = goap_agent_update(h->a, DT);
      if (st != GOAP_OK && st != GOAP_IN_PROGRESS && st != GOAP_NO_PLAN) s->status++;
      check_outcome(s, h);
      if (!h->searched) {
        goap_agent_stats as = goap_agent_get_stats(h->a);
        h->searched = as.plans - as.cache_hits + as.plan_failures > 0;
        if (h->searched && f >= warm) {
          late_first++;
          allocs_late_first += cnt.calls - before;
          late_growth += as.memory_bytes - h->bytes_ref;
          h->bytes_ref = as.memory_bytes;
        }
      }
    }
  }

  size_t bytes_changed = 0;
  for (int i = 0; i < AGENTS; ++i)
    bytes_changed += goap_agent_get_stats(ag[i].a).memory_bytes != ag[i].bytes_ref;
  size_t bytes_end = 0;
  goap_agent_stats sum[DOMAINS];
  memset(sum, 0, sizeof sum);
  long in_domain[DOMAINS] = {0, 0};
  for (int i = 0; i < AGENTS; ++i) {
    goap_agent_stats st = goap_agent_get_stats(ag[i].a);
    in_domain[ag[i].ti->domain]++;
    goap_agent_stats *t = &sum[ag[i].ti->domain];
    bytes_end += st.memory_bytes;
    t->updates += st.updates;
    t->plans += st.plans;
    t->plan_failures += st.plan_failures;
    for (int k = 0; k < GOAP_REPLAN_REASON_COUNT; ++k) t->replans[k] += st.replans[k];
    t->repairs += st.repairs;
    t->cache_hits += st.cache_hits;
    t->actions_started += st.actions_started;
    t->actions_succeeded += st.actions_succeeded;
    t->actions_failed += st.actions_failed;
  }
  goap_plan_cache_stats cs = goap_plan_cache_get_stats(cache);
  fprintf(stderr,
          "soak: %d agents, %d frames (warm-up %d): %zu allocations after the warm-up, %zu of "
          "them by %ld first searches (%zu bytes); live bytes %zu -> %zu; agents hold %zu "
          "bytes\n",
          AGENTS, frames, warm, cnt.calls - allocs_warm, allocs_late_first, late_first,
          late_growth, live_warm, cnt.outstanding, bytes_end);
  for (int dom = 0; dom < DOMAINS; ++dom) {
    fprintf(stderr,
            "  %s: goals done %ld, plans %ld (cached %ld, failed %lu), repairs %lu, actions "
            "%lu started %lu ok %lu failed\n",
            dom == SOLDIER ? "soldier" : "camp", s->goal_done[dom], s->plans[dom], s->cached[dom],
            (unsigned long)sum[dom].plan_failures, (unsigned long)sum[dom].repairs,
            (unsigned long)sum[dom].actions_started, (unsigned long)sum[dom].actions_succeeded,
            (unsigned long)sum[dom].actions_failed);
    long r[GOAP_REPLAN_REASON_COUNT];
    for (int k = 0; k < GOAP_REPLAN_REASON_COUNT; ++k) r[k] = (long)sum[dom].replans[k];
    print_reasons("replans (stats)", r);
    print_reasons("plans adopted after", s->plan_reason[dom]);
  }
  fprintf(stderr,
          "  failures %ld, timeouts %ld, stops %ld; cache hits %lu misses %lu evictions %lu\n",
          s->failures, s->timeouts, s->stop_events, (unsigned long)cs.hits,
          (unsigned long)cs.misses, (unsigned long)cs.evictions);

  /* memory stays flat after the warm-up */
  CHECK_EQ_INT(cnt.calls - allocs_warm - allocs_late_first, 0);
  CHECK_EQ_INT((long long)cnt.outstanding, (long long)(live_warm + late_growth));
  CHECK_EQ_INT((long long)bytes_changed, 0);
  CHECK(late_first <= AGENTS / 4); /* most agents searched during the warm-up */

  /* violations */
  CHECK_EQ_INT(s->pre_violations, 0);
  CHECK_EQ_INT(s->foreign_action, 0);
  CHECK_EQ_INT(s->pairing, 0);
  CHECK_EQ_INT(s->fate, 0);
  CHECK_EQ_INT(s->timing, 0);
  CHECK_EQ_INT(s->effects, 0);
  CHECK_EQ_INT(s->on_fail, 0);
  CHECK_EQ_INT(s->plans_bad, 0);
  CHECK_EQ_INT(s->goals_bad, 0);
  CHECK_EQ_INT(s->status, 0);

  /* the books balance: events and stats agree */
  uint64_t started = sum[0].actions_started + sum[1].actions_started;
  uint64_t ended = sum[0].actions_succeeded + sum[1].actions_succeeded + sum[0].actions_failed +
                   sum[1].actions_failed;
  long still_running = 0;
  for (int i = 0; i < AGENTS; ++i) still_running += ag[i].running >= 0;
  CHECK_EQ_INT((long long)started, s->starts);
  CHECK_EQ_INT((long long)(ended + (uint64_t)s->stop_events + (uint64_t)still_running),
               (long long)started);
  CHECK_EQ_INT((long long)(sum[0].actions_failed + sum[1].actions_failed),
               s->failures + s->timeouts);
  CHECK_EQ_INT(s->stop_calls, s->stop_events + s->timeouts); /* a timeout stops the action */
  for (int dom = 0; dom < DOMAINS; ++dom) {
    CHECK_EQ_INT((long long)sum[dom].plans, s->plans[dom]);
    for (int k = 0; k < GOAP_REPLAN_REASON_COUNT; ++k)
      CHECK_EQ_INT((long long)sum[dom].replans[k], s->replan_events[dom][k]);
  }

  /* every reason the world can cause occurred: all of them in the camp; in the soldier domain
   * (one goal, no validity condition) all but better_goal and goal_invalid */
  static const goap_replan_reason common[] = {
      GOAP_REPLAN_START,         GOAP_REPLAN_PLAN_DONE, GOAP_REPLAN_ACTION_FAILED,
      GOAP_REPLAN_TIMEOUT,       GOAP_REPLAN_PRECONDITIONS, GOAP_REPLAN_WATCH,
      GOAP_REPLAN_REQUESTED};
  for (int dom = 0; dom < DOMAINS; ++dom) {
    for (size_t k = 0; k < sizeof common / sizeof common[0]; ++k) {
      if (sum[dom].replans[common[k]] == 0)
        fprintf(stderr, "  domain %d: no replan for %s\n", dom, goap_replan_reason_name(common[k]));
      CHECK(sum[dom].replans[common[k]] > 0);
    }
    /* idling agents plan again when the world changes: no stats counter, the plan says why */
    CHECK(s->plan_reason[dom][GOAP_REPLAN_IDLE] > 0);
  }
  CHECK(sum[CAMP].replans[GOAP_REPLAN_BETTER_GOAL] > 0);
  CHECK(sum[CAMP].replans[GOAP_REPLAN_GOAL_INVALID] > 0);

  /* and the agents got things done */
  for (int dom = 0; dom < DOMAINS; ++dom) {
    CHECK(s->goal_done[dom] >= (long)frames * in_domain[dom] / 250);
    CHECK(sum[dom].repairs > 0);
    CHECK(s->cached[dom] > 0);
  }
  CHECK(sum[CAMP].plan_failures > 0); /* the rat cannot defend or keep warm: it falls back */
  CHECK(cs.evictions > 0);
  for (int i = 0; i < AGENTS; ++i) CHECK(goap_agent_get_stats(ag[i].a).actions_succeeded > 0);

  for (int i = 0; i < AGENTS; ++i) goap_agent_destroy(ag[i].a);
  goap_plan_cache_destroy(cache);
  for (int k = 0; k < NTYPES; ++k) goap_agent_type_destroy(types[k].t);
  CHECK_EQ_INT((long long)cnt.outstanding, 0);
  CHECK_EQ_INT(cnt.bad_old_size, 0);
  CHECK_EQ_INT(cnt.unknown_ptr, 0);
  free(ag);
  free(s);
  goap_file_destroy(fc);
  goap_file_destroy(fs);
}

TEST_MAIN(TEST_ENTRY(soak))
