/*
 * test_planner.c -- the core through the C API: state packing, conditions, effects, and every
 * planner configuration on the lecture's soldier and Alma's kitchen.
 */
#include <goap/goap.h>

#include "test.h"

/* ---- the soldier and the door, built through the API ---------------------------------------- */

enum { IN_B, HAS_AMMO, LOADED, TARGET_DEAD, DOOR_STUCK, KICK_FAILED, ARMORY_EMPTY, NVARS };
static const char *const var_names[NVARS] = {"in_b",        "has_ammo",    "loaded",
                                             "target_dead", "door_stuck",  "kick_failed",
                                             "armory_empty"};

#define C(v, op, x) {v, op, x}
#define E(v, x) {v, GOAP_SET, x}

static goap_domain *soldier(void) {
  goap_builder *b = NULL;
  if (goap_builder_create(NULL, &b) != GOAP_OK) return NULL;
  for (int i = 0; i < NVARS; ++i) {
    goap_var_desc v = {0};
    v.name = var_names[i];
    v.type = GOAP_BOOL;
    if (goap_builder_add_var(b, &v, NULL) != GOAP_OK) return NULL;
  }
  static const goap_cond pre_ammo[] = {C(ARMORY_EMPTY, GOAP_EQ, 0)};
  static const goap_effect eff_ammo[] = {E(HAS_AMMO, 1)};
  static const goap_cond pre_load[] = {C(HAS_AMMO, GOAP_EQ, 1)};
  static const goap_effect eff_load[] = {E(LOADED, 1), E(HAS_AMMO, 0)};
  static const goap_cond pre_door[] = {C(DOOR_STUCK, GOAP_EQ, 0)};
  static const goap_cond pre_kick[] = {C(KICK_FAILED, GOAP_EQ, 0)};
  static const goap_effect eff_in_b[] = {E(IN_B, 1)};
  static const goap_cond pre_shoot[] = {C(IN_B, GOAP_EQ, 1), C(LOADED, GOAP_EQ, 1)};
  static const goap_cond pre_punch[] = {C(IN_B, GOAP_EQ, 1)};
  static const goap_effect eff_dead[] = {E(TARGET_DEAD, 1)};
  const goap_action_desc acts[] = {
      {"get_ammo", 1, pre_ammo, 1, eff_ammo, 1, NULL, NULL, NULL},
      {"load_magazine", 1, pre_load, 1, eff_load, 2, NULL, NULL, NULL},
      {"open_door", 1, pre_door, 1, eff_in_b, 1, NULL, NULL, NULL},
      {"kick_door", 3, pre_kick, 1, eff_in_b, 1, NULL, NULL, NULL},
      {"jump_window", 5, NULL, 0, eff_in_b, 1, NULL, NULL, NULL},
      {"shoot", 1, pre_shoot, 2, eff_dead, 1, NULL, NULL, NULL},
      {"punch", 6, pre_punch, 1, eff_dead, 1, NULL, NULL, NULL},
  };
  for (size_t i = 0; i < sizeof acts / sizeof acts[0]; ++i)
    if (goap_builder_add_action(b, &acts[i], NULL) != GOAP_OK) return NULL;
  static const goap_cond want[] = {C(TARGET_DEAD, GOAP_EQ, 1)};
  goap_goal_desc g = {"kill_enemy", 10, want, 1};
  if (goap_builder_add_goal(b, &g, NULL) != GOAP_OK) return NULL;
  goap_domain *d = NULL;
  goap_builder_build(b, &d);
  goap_builder_destroy(b);
  return d;
}

static const goap_search searches[] = {GOAP_SEARCH_ASTAR, GOAP_SEARCH_BACKWARD,
                                       GOAP_SEARCH_WASTAR, GOAP_SEARCH_GREEDY};
static const goap_heuristic heuristics[] = {GOAP_H_DEFAULT, GOAP_H_ZERO, GOAP_H_GOAL_COUNT,
                                            GOAP_H_GOAL_COUNT_ADMISSIBLE, GOAP_H_MAX,
                                            GOAP_H_ADD, GOAP_H_FF, GOAP_H_LMCUT};

typedef struct scenario {
  const char *name;
  int given[NVARS];
  double cost;
  const char *plan[5];
} scenario;

static const scenario soldier_scenarios[] = {
    {"default", {0}, 4, {"get_ammo", "load_magazine", "open_door", "shoot"}},
    {"door_stuck", {[DOOR_STUCK] = 1}, 6, {"get_ammo", "load_magazine", "kick_door", "shoot"}},
    {"door_and_kick", {[DOOR_STUCK] = 1, [KICK_FAILED] = 1}, 8,
     {"get_ammo", "load_magazine", "jump_window", "shoot"}},
    {"armory_empty", {[ARMORY_EMPTY] = 1}, 7, {"open_door", "punch"}},
    {"ready", {[LOADED] = 1, [IN_B] = 1}, 1, {"shoot"}},
};

TEST(soldier_every_config) {
  goap_domain *d = soldier();
  REQUIRE(d != NULL);
  CHECK_EQ_INT(goap_domain_state_words(d), 1);
  goap_planner *p = NULL;
  REQUIRE(goap_planner_create(d, NULL, &p) == GOAP_OK);
  int32_t plan[16];
  for (size_t sc = 0; sc < sizeof soldier_scenarios / sizeof soldier_scenarios[0]; ++sc) {
    const scenario *s = &soldier_scenarios[sc];
    goap_word start[1];
    goap_state_init(d, start);
    for (int v = 0; v < NVARS; ++v) CHECK(goap_state_set(d, start, v, s->given[v]) == GOAP_OK);
    for (size_t si = 0; si < 4; ++si) {
      for (size_t hi = 0; hi < 6; ++hi) {
        goap_request req = {0};
        req.start = start;
        req.want = goap_domain_goal_want(d, 0, &req.want_count);
        req.search = searches[si];
        req.heuristic = heuristics[hi];
        goap_result res = {0};
        res.plan = plan;
        res.plan_capacity = 16;
        goap_status st = goap_plan(p, &req, &res);
        CHECK_EQ_INT(st, GOAP_OK);
        if (st != GOAP_OK) continue;
        double cost = 0;
        int bad = 0;
        CHECK_EQ_INT(goap_plan_validate(d, start, req.want, req.want_count, plan,
                                        res.plan_length, &cost, &bad),
                     GOAP_OK);
        CHECK_NEAR(cost, res.cost, 1e-9);
        if (goap_config_is_optimal(req.search, req.heuristic)) {
          if (fabs(res.cost - s->cost) > 1e-9)
            fprintf(stderr, "scenario %s %s/%s: cost %g\n", s->name, goap_search_name(req.search),
                    goap_heuristic_name(req.heuristic), res.cost);
          CHECK_NEAR(res.cost, s->cost, 1e-9);
          int n = 0;
          while (n < 5 && s->plan[n]) ++n;
          CHECK_EQ_INT(res.plan_length, n);
          /* optimal plans may order independent steps differently; the default is pinned */
          if (req.search == GOAP_SEARCH_ASTAR && req.heuristic == GOAP_H_DEFAULT)
            for (int k = 0; k < n && k < res.plan_length; ++k)
              CHECK_STR(goap_domain_action_name(d, plan[k]), s->plan[k]);
        }
      }
    }
  }
  goap_planner_destroy(p);
  goap_domain_destroy(d);
}

/* ---- packing ---------------------------------------------------------------------------------- */

TEST(packing_many_words) {
  goap_builder *b = NULL;
  REQUIRE(goap_builder_create(NULL, &b) == GOAP_OK);
  /* 100 bools, an enum of 70 values (7 bits), an int of 32 bits, an int -5..5 */
  char name[32];
  for (int i = 0; i < 100; ++i) {
    snprintf(name, sizeof name, "b%d", i);
    goap_var_desc v = {0};
    v.name = name;
    v.type = GOAP_BOOL;
    v.has_default = 1;
    v.default_value = i % 3 == 0;
    REQUIRE(goap_builder_add_var(b, &v, NULL) == GOAP_OK);
  }
  const char *values[70];
  char vnames[70][16];
  for (int i = 0; i < 70; ++i) {
    snprintf(vnames[i], sizeof vnames[i], "v%d", i);
    values[i] = vnames[i];
  }
  goap_var_desc e = {0};
  e.name = "big_enum";
  e.type = GOAP_ENUM;
  e.values = values;
  e.value_count = 70;
  e.has_default = 1;
  e.default_value = 69;
  int eid = -1, wid = -1, sid = -1;
  REQUIRE(goap_builder_add_var(b, &e, &eid) == GOAP_OK);
  goap_var_desc w = {0};
  w.name = "wide";
  w.type = GOAP_INT;
  w.lo = INT32_MIN;
  w.hi = INT32_MAX;
  REQUIRE(goap_builder_add_var(b, &w, &wid) == GOAP_OK);
  goap_var_desc sm = {0};
  sm.name = "small";
  sm.type = GOAP_INT;
  sm.lo = -5;
  sm.hi = 5;
  REQUIRE(goap_builder_add_var(b, &sm, &sid) == GOAP_OK);
  goap_domain *d = NULL;
  REQUIRE(goap_builder_build(b, &d) == GOAP_OK);
  goap_builder_destroy(b);
  /* 100 + 7 + 32 + 4 = 143 bits: three words at least, never straddling */
  size_t W = goap_domain_state_words(d);
  CHECK(W >= 3 && W <= 4);
  goap_word s[4];
  goap_state_init(d, s);
  for (int i = 0; i < 100; ++i) CHECK_EQ_INT(goap_state_get(d, s, i), i % 3 == 0);
  CHECK_EQ_INT(goap_state_get(d, s, eid), 69);
  CHECK_EQ_INT(goap_state_get(d, s, wid), INT32_MIN);
  CHECK_EQ_INT(goap_state_get(d, s, sid), -5);
  CHECK_EQ_INT(goap_state_set(d, s, wid, INT32_MAX), GOAP_OK);
  CHECK_EQ_INT(goap_state_set(d, s, sid, 6), GOAP_OUT_OF_RANGE);
  CHECK_EQ_INT(goap_state_set(d, s, sid, 5), GOAP_OK);
  CHECK_EQ_INT(goap_state_set(d, s, 63, 1), GOAP_OK);
  CHECK_EQ_INT(goap_state_set(d, s, 64, 1), GOAP_OK);
  CHECK_EQ_INT(goap_state_get(d, s, wid), INT32_MAX);
  CHECK_EQ_INT(goap_state_get(d, s, sid), 5);
  CHECK_EQ_INT(goap_state_get(d, s, eid), 69);
  for (int i = 0; i < 100; ++i)
    CHECK_EQ_INT(goap_state_get(d, s, i), (i % 3 == 0) || i == 63 || i == 64);
  for (int v = 0; v < goap_domain_var_count(d); ++v) {
    goap_var_info info;
    REQUIRE(goap_domain_var_info(d, v, &info) == GOAP_OK);
    CHECK(info.shift + info.bits <= 64);
    CHECK(info.word < (int)W);
  }
  goap_cond c1[] = {{wid, GOAP_GT, 0}, {sid, GOAP_GE, 5}, {eid, GOAP_EQ, 69}, {63, GOAP_EQ, 1}};
  CHECK(goap_state_satisfies(d, s, c1, 4));
  goap_cond c2[] = {{eid, GOAP_NE, 69}};
  CHECK(!goap_state_satisfies(d, s, c2, 1));
  goap_domain_destroy(d);
}

/* ---- ints: ranges, ADD never clamps ----------------------------------------------------------- */

TEST(int_effects_stay_in_range) {
  goap_builder *b = NULL;
  REQUIRE(goap_builder_create(NULL, &b) == GOAP_OK);
  goap_var_desc ammo = {0};
  ammo.name = "ammo";
  ammo.type = GOAP_INT;
  ammo.lo = 0;
  ammo.hi = 5;
  ammo.has_default = 1;
  ammo.default_value = 4;
  REQUIRE(goap_builder_add_var(b, &ammo, NULL) == GOAP_OK);
  goap_effect plus2 = {0, GOAP_ADD, 2}, minus3 = {0, GOAP_ADD, -3};
  goap_action_desc a1 = {"pick", 1, NULL, 0, &plus2, 1, NULL, NULL, NULL};
  goap_action_desc a2 = {"fire", 1, NULL, 0, &minus3, 1, NULL, NULL, NULL};
  REQUIRE(goap_builder_add_action(b, &a1, NULL) == GOAP_OK);
  REQUIRE(goap_builder_add_action(b, &a2, NULL) == GOAP_OK);
  /* two effects on one variable */
  goap_effect two[] = {{0, GOAP_ADD, 1}, {0, GOAP_SET, 3}};
  goap_action_desc bad = {"bad", 1, NULL, 0, two, 2, NULL, NULL, NULL};
  CHECK_EQ_INT(goap_builder_add_action(b, &bad, NULL), GOAP_CONFLICT);
  int idx = -1;
  CHECK_EQ_INT(goap_builder_error_item(b, &idx), GOAP_ITEM_EFF);
  CHECK_EQ_INT(idx, 1);
  CHECK_STR(goap_builder_error(b)->message, "action 'bad': two effects on variable 'ammo'");
  goap_effect huge = {0, GOAP_ADD, 9};
  goap_action_desc bad2 = {"bad2", 1, NULL, 0, &huge, 1, NULL, NULL, NULL};
  CHECK_EQ_INT(goap_builder_add_action(b, &bad2, NULL), GOAP_OUT_OF_RANGE);
  goap_domain *d = NULL;
  REQUIRE(goap_builder_build(b, &d) == GOAP_OK);
  goap_builder_destroy(b);
  CHECK_EQ_INT(goap_domain_action_count(d), 2);
  goap_word s[1];
  goap_state_init(d, s);
  CHECK(!goap_action_applicable(d, s, 0)); /* 4 + 2 > 5 */
  CHECK(goap_action_applicable(d, s, 1));
  CHECK_EQ_INT(goap_action_apply(d, s, 0), GOAP_INVALID_OPERATION);
  CHECK_EQ_INT(goap_state_get(d, s, 0), 4);
  CHECK_EQ_INT(goap_action_apply(d, s, 1), GOAP_OK);
  CHECK_EQ_INT(goap_state_get(d, s, 0), 1);
  CHECK(!goap_action_applicable(d, s, 1));
  /* plan to exactly 5 from 4: fire (1), pick (3), pick (5) */
  goap_planner *p = NULL;
  REQUIRE(goap_planner_create(d, NULL, &p) == GOAP_OK);
  goap_cond want = {0, GOAP_EQ, 5};
  int32_t plan[8];
  for (size_t si = 0; si < 4; ++si) {
    for (size_t hi = 0; hi < 6; ++hi) {
      goap_request req = {0};
      req.want = &want;
      req.want_count = 1;
      req.search = searches[si];
      req.heuristic = heuristics[hi];
      goap_result res = {0};
      res.plan = plan;
      res.plan_capacity = 8;
      CHECK_EQ_INT(goap_plan(p, &req, &res), GOAP_OK);
      if (goap_config_is_optimal(req.search, req.heuristic)) CHECK_NEAR(res.cost, 3, 1e-12);
      CHECK_EQ_INT(goap_plan_validate(d, NULL, &want, 1, plan, res.plan_length, NULL, NULL),
                   GOAP_OK);
    }
  }
  /* unreachable: ammo == 5 with only -3 */
  goap_planner_destroy(p);
  goap_domain_destroy(d);
}

/* ---- conditions with != on enums, backward splitting ------------------------------------------ */

TEST(enum_not_equal_backward) {
  goap_builder *b = NULL;
  REQUIRE(goap_builder_create(NULL, &b) == GOAP_OK);
  const char *vals[] = {"a", "b", "c", "d", "e"};
  goap_var_desc v = {0};
  v.name = "pos";
  v.type = GOAP_ENUM;
  v.values = vals;
  v.value_count = 5;
  v.has_default = 1;
  v.default_value = 2;
  REQUIRE(goap_builder_add_var(b, &v, NULL) == GOAP_OK);
  goap_var_desc f = {0};
  f.name = "done";
  f.type = GOAP_BOOL;
  REQUIRE(goap_builder_add_var(b, &f, NULL) == GOAP_OK);
  /* to_x sets pos = x with cost x+1; finish needs pos != c */
  char names[5][16];
  for (int i = 0; i < 5; ++i) {
    snprintf(names[i], sizeof names[i], "to_%s", vals[i]);
    goap_effect e = {0, GOAP_SET, i};
    goap_action_desc a = {names[i], (double)(5 - i), NULL, 0, &e, 1, NULL, NULL, NULL};
    REQUIRE(goap_builder_add_action(b, &a, NULL) == GOAP_OK);
  }
  goap_cond pre = {0, GOAP_NE, 2};
  goap_effect done = {1, GOAP_SET, 1};
  goap_action_desc fin = {"finish", 1, &pre, 1, &done, 1, NULL, NULL, NULL};
  REQUIRE(goap_builder_add_action(b, &fin, NULL) == GOAP_OK);
  goap_domain *d = NULL;
  REQUIRE(goap_builder_build(b, &d) == GOAP_OK);
  goap_builder_destroy(b);
  goap_planner *p = NULL;
  REQUIRE(goap_planner_create(d, NULL, &p) == GOAP_OK);
  goap_cond want = {1, GOAP_EQ, 1};
  int32_t plan[8];
  for (size_t si = 0; si < 4; ++si) {
    for (size_t hi = 0; hi < 6; ++hi) {
      goap_request req = {0};
      req.want = &want;
      req.want_count = 1;
      req.search = searches[si];
      req.heuristic = heuristics[hi];
      goap_result res = {0};
      res.plan = plan;
      res.plan_capacity = 8;
      CHECK_EQ_INT(goap_plan(p, &req, &res), GOAP_OK);
      if (goap_config_is_optimal(req.search, req.heuristic)) {
        CHECK_NEAR(res.cost, 2, 1e-12); /* to_e (1) + finish (1) */
        CHECK_EQ_INT(res.plan_length, 2);
        CHECK_STR(goap_domain_action_name(d, plan[0]), "to_e");
      }
      CHECK_EQ_INT(goap_plan_validate(d, NULL, &want, 1, plan, res.plan_length, NULL, NULL),
                   GOAP_OK);
    }
  }
  goap_planner_destroy(p);
  goap_domain_destroy(d);
}

/* ---- budgets, statuses, sliced planning ------------------------------------------------------- */

TEST(limits_and_slices) {
  goap_domain *d = soldier();
  REQUIRE(d);
  goap_planner *p = NULL;
  REQUIRE(goap_planner_create(d, NULL, &p) == GOAP_OK);
  goap_request req = {0};
  req.want = goap_domain_goal_want(d, 0, &req.want_count);
  req.heuristic = GOAP_H_ZERO;
  req.max_nodes = 3;
  int32_t plan[16];
  goap_result res = {0};
  res.plan = plan;
  res.plan_capacity = 16;
  CHECK_EQ_INT(goap_plan(p, &req, &res), GOAP_NODE_LIMIT);
  CHECK_EQ_INT(res.partial, 1);
  CHECK(res.stats.nodes <= 3);
  CHECK(res.plan_length >= 1);
  /* a partial plan that does not fit keeps its status and says how long it is */
  int partial_len = res.plan_length;
  goap_result small = {0};
  CHECK_EQ_INT(goap_plan_finish(p, &small), GOAP_NODE_LIMIT);
  CHECK_EQ_INT(small.partial, 1);
  CHECK_EQ_INT(small.plan_length, partial_len);
  /* too small a buffer: the needed length is reported, and finish can be called again */
  req.max_nodes = 0;
  res.plan_capacity = 2;
  CHECK_EQ_INT(goap_plan(p, &req, &res), GOAP_BUFFER_TOO_SMALL);
  CHECK_EQ_INT(res.plan_length, 4);
  res.plan_capacity = 16;
  CHECK_EQ_INT(goap_plan_finish(p, &res), GOAP_OK);
  CHECK_EQ_INT(res.plan_length, 4);
  /* sliced: one expansion per step gives the same plan */
  int32_t plan2[16];
  goap_result r2 = {0};
  r2.plan = plan2;
  r2.plan_capacity = 16;
  CHECK_EQ_INT(goap_plan_begin(p, &req), GOAP_IN_PROGRESS);
  int steps = 0;
  goap_status st;
  uint32_t done = 0;
  /* goap_plan_progress: the counters so far, growing slice by slice, ending at finish's */
  goap_stats prog, prev;
  memset(&prev, 0, sizeof prev);
  CHECK_EQ_INT(goap_plan_progress(p, &prog), GOAP_OK);
  CHECK(prog.expanded == 0);
  while ((st = goap_plan_step(p, 1, &done)) == GOAP_IN_PROGRESS) {
    CHECK(done == 1);
    ++steps;
    CHECK_EQ_INT(goap_plan_progress(p, &prog), GOAP_OK);
    CHECK(prog.expanded == (uint64_t)steps);
    CHECK(prog.generated >= prev.generated && prog.nodes >= prev.nodes);
    prev = prog;
  }
  CHECK_EQ_INT(st, GOAP_OK);
  CHECK(steps > 1);
  CHECK_EQ_INT(goap_plan_finish(p, &r2), GOAP_OK);
  CHECK_EQ_INT(goap_plan_progress(p, &prog), GOAP_OK);
  CHECK(prog.expanded == r2.stats.expanded && prog.generated == r2.stats.generated);
  CHECK(prog.evaluated == r2.stats.evaluated && prog.nodes == r2.stats.nodes);
  CHECK(prog.expanded == res.stats.expanded && prog.generated == res.stats.generated);
  CHECK_EQ_INT(r2.plan_length, res.plan_length);
  for (int i = 0; i < r2.plan_length; ++i) CHECK_EQ_INT(plan2[i], plan[i]);
  /* out of sequence */
  goap_planner *q = NULL;
  REQUIRE(goap_planner_create(d, NULL, &q) == GOAP_OK);
  CHECK_EQ_INT(goap_plan_step(q, 1, NULL), GOAP_INVALID_OPERATION);
  CHECK_EQ_INT(goap_plan_finish(q, &r2), GOAP_INVALID_OPERATION);
  prog.expanded = 12345; /* written only on GOAP_OK */
  CHECK_EQ_INT(goap_plan_progress(q, &prog), GOAP_INVALID_OPERATION);
  CHECK(prog.expanded == 12345);
  CHECK_EQ_INT(goap_plan_progress(q, NULL), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_plan_progress(NULL, &prog), GOAP_INVALID_ARGUMENT);
  goap_planner_destroy(q);
  /* invalid requests */
  goap_cond badc = {99, GOAP_EQ, 1};
  goap_request bad = {0};
  bad.want = &badc;
  bad.want_count = 1;
  CHECK_EQ_INT(goap_plan(p, &bad, &res), GOAP_INVALID_ARGUMENT);
  bad.want_count = 0;
  bad.search = (goap_search)42;
  CHECK_EQ_INT(goap_plan(p, &bad, &res), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_plan(NULL, &bad, &res), GOAP_INVALID_ARGUMENT);
  /* a goal that contradicts itself has no plan */
  goap_cond contra[] = {{TARGET_DEAD, GOAP_EQ, 1}, {TARGET_DEAD, GOAP_EQ, 0}};
  goap_request cr = {0};
  cr.want = contra;
  cr.want_count = 2;
  CHECK_EQ_INT(goap_plan(p, &cr, &res), GOAP_NO_PLAN);
  cr.search = GOAP_SEARCH_BACKWARD;
  CHECK_EQ_INT(goap_plan(p, &cr, &res), GOAP_NO_PLAN);
  /* the empty goal is met at once */
  goap_request empty = {0};
  CHECK_EQ_INT(goap_plan(p, &empty, &res), GOAP_OK);
  CHECK_EQ_INT(res.plan_length, 0);
  goap_planner_destroy(p);
  goap_domain_destroy(d);
}

/* ---- callbacks: once per request per action ---------------------------------------------------- */

typedef struct host {
  int checks[8], costs[8];
  int forbid;       /* action id to reject */
  double kick_cost; /* dynamic cost of kick_door */
} host;

static int check_cb(void *h, int action, void *user) {
  host *x = (host *)h;
  (void)user;
  x->checks[action]++;
  return action != x->forbid;
}

static double cost_cb(void *h, int action, void *user) {
  host *x = (host *)h;
  x->costs[action]++;
  return action == 3 ? x->kick_cost : *(const double *)user;
}

TEST(callbacks_once_per_request) {
  goap_builder *b = NULL;
  REQUIRE(goap_builder_create(NULL, &b) == GOAP_OK);
  for (int i = 0; i < NVARS; ++i) {
    goap_var_desc v = {0};
    v.name = var_names[i];
    v.type = GOAP_BOOL;
    REQUIRE(goap_builder_add_var(b, &v, NULL) == GOAP_OK);
  }
  static double one = 1, five = 5, six = 6;
  goap_cond pre_load = C(HAS_AMMO, GOAP_EQ, 1);
  goap_effect eff_load[] = {E(LOADED, 1), E(HAS_AMMO, 0)};
  goap_effect eff_ammo = E(HAS_AMMO, 1), eff_in_b = E(IN_B, 1), eff_dead = E(TARGET_DEAD, 1);
  goap_cond pre_shoot[] = {C(IN_B, GOAP_EQ, 1), C(LOADED, GOAP_EQ, 1)};
  goap_cond pre_punch = C(IN_B, GOAP_EQ, 1);
  goap_action_desc acts[] = {
      {"get_ammo", 1, NULL, 0, &eff_ammo, 1, check_cb, cost_cb, &one},
      {"load_magazine", 1, &pre_load, 1, eff_load, 2, check_cb, cost_cb, &one},
      {"open_door", 1, NULL, 0, &eff_in_b, 1, check_cb, cost_cb, &one},
      {"kick_door", 3, NULL, 0, &eff_in_b, 1, check_cb, cost_cb, NULL},
      {"jump_window", 5, NULL, 0, &eff_in_b, 1, check_cb, cost_cb, &five},
      {"shoot", 1, pre_shoot, 2, &eff_dead, 1, check_cb, cost_cb, &one},
      {"punch", 6, &pre_punch, 1, &eff_dead, 1, check_cb, cost_cb, &six},
  };
  for (size_t i = 0; i < 7; ++i) REQUIRE(goap_builder_add_action(b, &acts[i], NULL) == GOAP_OK);
  goap_domain *d = NULL;
  REQUIRE(goap_builder_build(b, &d) == GOAP_OK);
  goap_builder_destroy(b);
  goap_planner *p = NULL;
  REQUIRE(goap_planner_create(d, NULL, &p) == GOAP_OK);
  goap_cond want = C(TARGET_DEAD, GOAP_EQ, 1);
  int32_t plan[8];
  goap_result res = {0};
  res.plan = plan;
  res.plan_capacity = 8;
  host h = {{0}, {0}, 2 /* no door */, 0.5 /* a cheap kick */};
  goap_request req = {0};
  req.want = &want;
  req.want_count = 1;
  req.host = &h;
  REQUIRE(goap_plan(p, &req, &res) == GOAP_OK);
  CHECK_NEAR(res.cost, 3.5, 1e-12);
  int kicks = 0;
  for (int i = 0; i < res.plan_length; ++i) kicks += plan[i] == 3;
  CHECK_EQ_INT(kicks, 1);
  for (int a = 0; a < 7; ++a) {
    CHECK(h.checks[a] <= 1);
    CHECK(h.costs[a] <= 1);
  }
  CHECK_EQ_INT(h.checks[2], 1);
  CHECK_EQ_INT(h.costs[2], 0); /* rejected: its cost is never asked */
  /* a negative dynamic cost disables the action */
  h.kick_cost = -1;
  h.forbid = -1;
  REQUIRE(goap_plan(p, &req, &res) == GOAP_OK);
  CHECK_NEAR(res.cost, 4, 1e-12);
  goap_planner_destroy(p);
  goap_domain_destroy(d);
}

/* Bits outside every field are ignored; a field holding a value outside its range is refused. */
TEST(start_state_hygiene) {
  goap_builder *b = NULL;
  REQUIRE(goap_builder_create(NULL, &b) == GOAP_OK);
  const char *vals[] = {"a", "b", "c"}; /* 3 values in a 2-bit field: value 3 is invalid */
  goap_var_desc e = {0};
  e.name = "pos";
  e.type = GOAP_ENUM;
  e.values = vals;
  e.value_count = 3;
  REQUIRE(goap_builder_add_var(b, &e, NULL) == GOAP_OK);
  goap_var_desc f = {0};
  f.name = "done";
  f.type = GOAP_BOOL;
  REQUIRE(goap_builder_add_var(b, &f, NULL) == GOAP_OK);
  goap_effect to_c = {0, GOAP_SET, 2}, fin = {1, GOAP_SET, 1};
  goap_cond at_c = {0, GOAP_EQ, 2};
  goap_action_desc go = {"go", 1, NULL, 0, &to_c, 1, NULL, NULL, NULL};
  goap_action_desc finish = {"finish", 1, &at_c, 1, &fin, 1, NULL, NULL, NULL};
  REQUIRE(goap_builder_add_action(b, &go, NULL) == GOAP_OK);
  REQUIRE(goap_builder_add_action(b, &finish, NULL) == GOAP_OK);
  goap_domain *d = NULL;
  REQUIRE(goap_builder_build(b, &d) == GOAP_OK);
  goap_builder_destroy(b);
  REQUIRE(goap_domain_state_words(d) == 1);
  goap_planner *p = NULL;
  REQUIRE(goap_planner_create(d, NULL, &p) == GOAP_OK);
  goap_cond want = {1, GOAP_EQ, 1};
  int32_t plan[4];
  goap_result res = {0};
  res.plan = plan;
  res.plan_capacity = 4;
  goap_word s[1];
  goap_state_init(d, s);
  s[0] |= 0xffff000000000000ull; /* garbage above the fields */
  goap_request req = {0};
  req.start = s;
  req.want = &want;
  req.want_count = 1;
  CHECK_EQ_INT(goap_plan(p, &req, &res), GOAP_OK);
  CHECK_NEAR(res.cost, 2, 1e-12);
  req.search = GOAP_SEARCH_BACKWARD;
  CHECK_EQ_INT(goap_plan(p, &req, &res), GOAP_OK);
  CHECK_NEAR(res.cost, 2, 1e-12);
  /* pos holding the encoded value 3 (no such enum value) */
  goap_var_info vi;
  REQUIRE(goap_domain_var_info(d, 0, &vi) == GOAP_OK);
  goap_state_init(d, s);
  s[0] |= (goap_word)3 << vi.shift;
  req.search = GOAP_SEARCH_ASTAR;
  CHECK_EQ_INT(goap_plan(p, &req, &res), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(res.status, GOAP_INVALID_ARGUMENT);
  goap_planner_destroy(p);
  goap_domain_destroy(d);
}

/* More than 1,024 active actions on a one-word state: the useful-action bitset would exceed
 * 16 words and twice the state, so forward search scans the actions at every expansion. The
 * chain s0 -> s1 -> ... -> s40 has 27 variants of every step with costs 1..27 (listed dearest
 * first); the optimum takes the cheapest variant of each step. */
TEST(many_actions_scan_path) {
  enum { STEPS = 40, VARIANTS = 27 };
  goap_builder *b = NULL;
  REQUIRE(goap_builder_create(NULL, &b) == GOAP_OK);
  char name[32];
  for (int i = 0; i <= STEPS; ++i) {
    snprintf(name, sizeof name, "s%d", i);
    goap_var_desc v = {0};
    v.name = name;
    v.type = GOAP_BOOL;
    v.has_default = 1;
    v.default_value = i == 0;
    REQUIRE(goap_builder_add_var(b, &v, NULL) == GOAP_OK);
  }
  for (int i = 1; i <= STEPS; ++i) {
    for (int k = 0; k < VARIANTS; ++k) {
      snprintf(name, sizeof name, "step%d_%d", i, k);
      goap_cond pre = {i - 1, GOAP_EQ, 1};
      goap_effect eff = {i, GOAP_SET, 1};
      goap_action_desc a = {name, (double)(VARIANTS - k), &pre, 1, &eff, 1, NULL, NULL, NULL};
      REQUIRE(goap_builder_add_action(b, &a, NULL) == GOAP_OK);
    }
  }
  goap_domain *d = NULL;
  REQUIRE(goap_builder_build(b, &d) == GOAP_OK);
  goap_builder_destroy(b);
  REQUIRE(goap_domain_state_words(d) == 1);
  REQUIRE(goap_domain_action_count(d) == STEPS * VARIANTS); /* 1,080 */
  goap_planner *p = NULL;
  REQUIRE(goap_planner_create(d, NULL, &p) == GOAP_OK);
  goap_cond want = {STEPS, GOAP_EQ, 1};
  int32_t plan[STEPS + 1];
  for (size_t si = 0; si < 2; ++si) {
    goap_request req = {0};
    req.want = &want;
    req.want_count = 1;
    req.search = si ? GOAP_SEARCH_BACKWARD : GOAP_SEARCH_ASTAR;
    goap_result res = {0};
    res.plan = plan;
    res.plan_capacity = STEPS + 1;
    REQUIRE(goap_plan(p, &req, &res) == GOAP_OK);
    CHECK_EQ_INT(res.stats.actions_considered, STEPS * VARIANTS);
    CHECK_NEAR(res.cost, STEPS, 1e-12);
    CHECK_EQ_INT(res.plan_length, STEPS);
    for (int i = 0; i < res.plan_length; ++i) {
      snprintf(name, sizeof name, "step%d_%d", i + 1, VARIANTS - 1);
      CHECK_STR(goap_domain_action_name(d, plan[i]), name);
    }
    CHECK_EQ_INT(goap_plan_validate(d, NULL, &want, 1, plan, res.plan_length, NULL, NULL),
                 GOAP_OK);
  }
  goap_planner_destroy(p);
  goap_domain_destroy(d);
}

/* goap_request.costs: per-request action sets and costs (what agent types and roles use).
 * Consecutive requests with different arrays must not reuse each other's action selection. */
TEST(request_costs) {
  goap_domain *d = soldier();
  REQUIRE(d != NULL);
  goap_planner *p = NULL;
  REQUIRE(goap_planner_create(d, NULL, &p) == GOAP_OK);
  static const goap_cond want[] = {C(TARGET_DEAD, GOAP_EQ, 1)};
  int32_t plan[8];
  for (int k = 0; k < 2; ++k) { /* twice: the second round reuses nothing stale */
    for (size_t si = 0; si < 3; ++si) { /* optimal configs: astar, backward, astar+lmcut */
      goap_search s = si == 2 ? GOAP_SEARCH_ASTAR : searches[si];
      /* a "rat" without shoot and with a cheap punch: open_door + punch(2) = 3 */
      double rat[7] = {1, 1, 1, 3, 5, -1, 2};
      goap_request r = {0};
      r.want = want;
      r.want_count = 1;
      r.search = s;
      if (si == 2) r.heuristic = GOAP_H_LMCUT;
      r.costs = rat;
      goap_result res = {0};
      res.plan = plan;
      res.plan_capacity = 8;
      CHECK_EQ_INT(goap_plan(p, &r, &res), GOAP_OK);
      CHECK_NEAR(res.cost, 3.0, 1e-9);
      CHECK_EQ_INT(res.plan_length, 2);
      CHECK_STR(goap_domain_action_name(d, plan[1]), "punch");
      /* the same request without costs: the domain's own plan (4) */
      r.costs = NULL;
      CHECK_EQ_INT(goap_plan(p, &r, &res), GOAP_OK);
      CHECK_NEAR(res.cost, 4.0, 1e-9);
      /* the door made dear through the array: kick instead (6) */
      double dear[7] = {1, 1, 10, 3, 5, 1, 6};
      r.costs = dear;
      CHECK_EQ_INT(goap_plan(p, &r, &res), GOAP_OK);
      CHECK_NEAR(res.cost, 6.0, 1e-9);
      /* the same pointer, changed contents: must be noticed */
      dear[3] = 20;
      CHECK_EQ_INT(goap_plan(p, &r, &res), GOAP_OK);
      CHECK_NEAR(res.cost, 8.0, 1e-9);
      /* nothing can kill: no plan */
      double none[7] = {1, 1, 1, 3, 5, -1, -1};
      r.costs = none;
      CHECK_EQ_INT(goap_plan(p, &r, &res), GOAP_NO_PLAN);
    }
  }
  goap_planner_destroy(p);
  goap_domain_destroy(d);
}

TEST(status_strings) {
  for (int s = 0; s < GOAP_STATUS_COUNT; ++s) {
    CHECK(goap_status_string((goap_status)s)[0] != 0);
    CHECK(strcmp(goap_status_string((goap_status)s), "unknown status") != 0);
  }
  CHECK_STR(goap_status_name(GOAP_NO_PLAN), "no_plan");
  CHECK_STR(goap_status_name(GOAP_NODE_LIMIT), "node_limit");
  CHECK_STR(goap_status_string((goap_status)999), "unknown status");
  CHECK_STR(goap_version(), GOAP_VERSION_STRING);
  CHECK_EQ_INT(goap_heuristic_from_name("hmax"), GOAP_H_MAX);
  CHECK_EQ_INT(goap_heuristic_from_name("nope"), -1);
}

/* Clock reads (goap.h): a request without a time budget reads no clock by default, so
 * stats.time_us is 0; GOAP_REQUEST_TIMED measures it (some of 100 timed plans count time: a
 * clock read takes nanoseconds), as a time budget does; GOAP_REQUEST_UNTIMED is the default's
 * behaviour; every form plans the same; UNTIMED is refused with a budget or with TIMED; sliced
 * planning follows the same rules. */
TEST(clock_reads) {
  goap_domain *d = soldier();
  REQUIRE(d != NULL);
  goap_planner *p = NULL;
  REQUIRE(goap_planner_create(d, NULL, &p) == GOAP_OK);
  goap_word start[1];
  goap_state_init(d, start);
  int32_t plan[16], plan2[16];
  goap_request req = {0};
  req.start = start;
  req.want = goap_domain_goal_want(d, 0, &req.want_count);
  goap_result timed = {0}, res = {0};
  timed.plan = plan2;
  timed.plan_capacity = 16;
  res.plan = plan;
  res.plan_capacity = 16;
  /* TIMED, then a time budget (that the plan easily meets): measured */
  const unsigned tflags[2] = {GOAP_REQUEST_TIMED, 0};
  const double tbudget[2] = {0.0, 60000.0};
  for (int k = 0; k < 2; ++k) {
    req.flags = tflags[k];
    req.max_ms = tbudget[k];
    double most = 0;
    for (int i = 0; i < 100; ++i) {
      CHECK_EQ_INT(goap_plan(p, &req, &timed), GOAP_OK);
      if (timed.stats.time_us > most) most = timed.stats.time_us;
    }
    CHECK(most > 0);
  }
  req.max_ms = 0;
  /* the default and UNTIMED: not measured, the same plan */
  const unsigned uflags[2] = {0, GOAP_REQUEST_UNTIMED};
  for (int k = 0; k < 2; ++k) {
    req.flags = uflags[k];
    for (int i = 0; i < 100; ++i) {
      CHECK_EQ_INT(goap_plan(p, &req, &res), GOAP_OK);
      CHECK(res.stats.time_us == 0.0);
    }
    CHECK_EQ_INT(res.plan_length, timed.plan_length);
    CHECK(memcmp(plan, plan2, sizeof plan[0] * (size_t)res.plan_length) == 0);
    CHECK_NEAR(res.cost, 4, 1e-9);
    CHECK_EQ_INT(res.stats.expanded, timed.stats.expanded);
    /* sliced */
    CHECK_EQ_INT(goap_plan_begin(p, &req), GOAP_IN_PROGRESS);
    goap_status st;
    do st = goap_plan_step(p, 1, NULL); while (st == GOAP_IN_PROGRESS);
    CHECK_EQ_INT(goap_plan_finish(p, &res), GOAP_OK);
    CHECK(res.stats.time_us == 0.0);
    CHECK_EQ_INT(res.plan_length, timed.plan_length);
  }
  /* sliced and TIMED: the steps' time is counted */
  req.flags = GOAP_REQUEST_TIMED;
  double most = 0;
  for (int i = 0; i < 100; ++i) {
    CHECK_EQ_INT(goap_plan_begin(p, &req), GOAP_IN_PROGRESS);
    goap_status st;
    do st = goap_plan_step(p, 1, NULL); while (st == GOAP_IN_PROGRESS);
    CHECK_EQ_INT(goap_plan_finish(p, &res), GOAP_OK);
    if (res.stats.time_us > most) most = res.stats.time_us;
  }
  CHECK(most > 0);
  /* UNTIMED refuses a time budget (which needs the clock) and TIMED */
  req.flags = GOAP_REQUEST_UNTIMED;
  req.max_ms = 5;
  CHECK_EQ_INT(goap_plan(p, &req, &res), GOAP_INVALID_ARGUMENT);
  req.max_ms = 0;
  req.flags = GOAP_REQUEST_UNTIMED | GOAP_REQUEST_TIMED;
  CHECK_EQ_INT(goap_plan(p, &req, &res), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_plan_begin(p, &req), GOAP_INVALID_ARGUMENT);
  /* a flag bit goap.h does not define is refused, not ignored (TIMED and STUBBORN were given
   * distinct bits: each is accepted alone) */
  req.flags = 0x80u;
  CHECK_EQ_INT(goap_plan(p, &req, &res), GOAP_INVALID_ARGUMENT);
  req.flags = 1u << 31;
  CHECK_EQ_INT(goap_plan_begin(p, &req), GOAP_INVALID_ARGUMENT);
  CHECK(GOAP_REQUEST_TIMED != GOAP_REQUEST_STUBBORN);
  req.flags = GOAP_REQUEST_STUBBORN;
  CHECK_EQ_INT(goap_plan(p, &req, &res), GOAP_OK);
  CHECK(res.stats.time_us == 0.0);
  req.flags = GOAP_REQUEST_TIMED | GOAP_REQUEST_STUBBORN;
  CHECK_EQ_INT(goap_plan(p, &req, &res), GOAP_OK);
  goap_planner_destroy(p);
  goap_domain_destroy(d);
}

TEST_MAIN(TEST_ENTRY(soldier_every_config), TEST_ENTRY(request_costs), TEST_ENTRY(packing_many_words),
          TEST_ENTRY(int_effects_stay_in_range), TEST_ENTRY(enum_not_equal_backward),
          TEST_ENTRY(limits_and_slices), TEST_ENTRY(callbacks_once_per_request),
          TEST_ENTRY(start_state_hygiene), TEST_ENTRY(many_actions_scan_path),
          TEST_ENTRY(status_strings), TEST_ENTRY(clock_reads))
