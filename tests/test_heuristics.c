/*
 * test_heuristics.c -- hff and LM-cut on small hand-built tasks whose values are worked out by
 * hand in the comments, through the internal evaluation functions (the library is linked
 * statically into the tests), and the planning results they lead to through the public API.
 * Random-domain admissibility and dominance live in test_property.c.
 */
#include <goap/goap.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/planner.h"
#include "alloc_hook.h"
#include "test.h"

typedef struct task {
  goap_builder *b;
  goap_domain *d;
  goap_planner *p;
} task;

static int var_bool(task *t, const char *name, int def) {
  goap_var_desc v;
  memset(&v, 0, sizeof v);
  v.name = name;
  v.type = GOAP_BOOL;
  v.has_default = 1;
  v.default_value = def;
  int id = -1;
  goap_builder_add_var(t->b, &v, &id);
  return id;
}

static int var_int(task *t, const char *name, int lo, int hi, int def) {
  goap_var_desc v;
  memset(&v, 0, sizeof v);
  v.name = name;
  v.type = GOAP_INT;
  v.lo = lo;
  v.hi = hi;
  v.has_default = 1;
  v.default_value = def;
  int id = -1;
  goap_builder_add_var(t->b, &v, &id);
  return id;
}

static int var_enum(task *t, const char *name, int n) {
  static const char *const names[] = {"a", "b", "c", "d"};
  goap_var_desc v;
  memset(&v, 0, sizeof v);
  v.name = name;
  v.type = GOAP_ENUM;
  v.values = names;
  v.value_count = n;
  int id = -1;
  goap_builder_add_var(t->b, &v, &id);
  return id;
}

static void act(task *t, const char *name, double cost, const goap_cond *pre, int npre,
                const goap_effect *eff, int neff) {
  goap_action_desc a;
  memset(&a, 0, sizeof a);
  a.name = name;
  a.cost = cost;
  a.pre = pre;
  a.pre_count = npre;
  a.eff = eff;
  a.eff_count = neff;
  if (goap_builder_add_action(t->b, &a, NULL) != GOAP_OK)
    fprintf(stderr, "add_action %s: %s\n", name, goap_builder_error(t->b)->message);
}

static int finish(task *t) {
  if (goap_builder_build(t->b, &t->d) != GOAP_OK) return 0;
  goap_planner_create(t->d, NULL, &t->p);
  return t->p != NULL;
}

static void task_free(task *t) {
  goap_planner_destroy(t->p);
  goap_domain_destroy(t->d);
  goap_builder_destroy(t->b);
}

typedef struct hvals {
  double hmax, hadd, hff, lmcut;
} hvals;

/* Heuristic values of the start state for goal `want` (after a begin that compiles it). */
static hvals values(task *t, const goap_cond *want, int n) {
  goap_request r;
  memset(&r, 0, sizeof r);
  r.want = want;
  r.want_count = n;
  r.heuristic = GOAP_H_LMCUT;
  hvals v = {-1, -1, -1, -1};
  if (goap_plan_begin(t->p, &r) != GOAP_IN_PROGRESS) return v;
  goap_word s[4];
  goap_state_init(t->d, s);
  v.hmax = goap__relax_eval(t->p, s, 0);
  v.hadd = goap__relax_eval(t->p, s, 1);
  v.hff = goap__relax_eval_ff(t->p, s);
  v.lmcut = goap__lmcut_eval(t->p, s);
  return v;
}

static double plan_cost(task *t, const goap_cond *want, int n, goap_search s, goap_heuristic h,
                        goap_stats *stats) {
  goap_request r;
  memset(&r, 0, sizeof r);
  r.want = want;
  r.want_count = n;
  r.search = s;
  r.heuristic = h;
  int32_t plan[64];
  goap_result res;
  memset(&res, 0, sizeof res);
  res.plan = plan;
  res.plan_capacity = 64;
  goap_status st = goap_plan(t->p, &r, &res);
  if (stats) *stats = res.stats;
  if (st != GOAP_OK) return -1.0;
  double c = -1.0;
  if (goap_plan_validate(t->d, NULL, want, n, plan, res.plan_length, &c, NULL) != GOAP_OK)
    return -2.0;
  return c;
}

/* Goal {g1, g2}; a: -> g1 (3), b: -> g2 (4), c: -> g1, g2 (5).
 * hmax = 4. LM-cut: round 1 the goal's pcf is g2 (4 > 3), cut {b, c}, m = 4 (c keeps 1);
 * round 2 hmax(g1) = 1 through c, cut {a, c}, m = 1; round 3 hmax(goal) = 0. LM-cut = 5, the
 * optimum (c alone). hadd = 3 + 4 = 7; hff's relaxed plan {a, b} costs 7. */
TEST(lmcut_two_goals_shared_achiever) {
  task t;
  memset(&t, 0, sizeof t);
  REQUIRE(goap_builder_create(NULL, &t.b) == GOAP_OK);
  int g1 = var_bool(&t, "g1", 0), g2 = var_bool(&t, "g2", 0);
  goap_effect e1 = {g1, GOAP_SET, 1}, e2 = {g2, GOAP_SET, 1}, e12[2] = {{g1, GOAP_SET, 1},
                                                                        {g2, GOAP_SET, 1}};
  act(&t, "a", 3, NULL, 0, &e1, 1);
  act(&t, "b", 4, NULL, 0, &e2, 1);
  act(&t, "c", 5, NULL, 0, e12, 2);
  REQUIRE(finish(&t));
  goap_cond want[2] = {{g1, GOAP_EQ, 1}, {g2, GOAP_EQ, 1}};
  hvals v = values(&t, want, 2);
  CHECK_NEAR(v.hmax, 4.0, 1e-12);
  CHECK_NEAR(v.lmcut, 5.0, 1e-12);
  CHECK_NEAR(v.hadd, 7.0, 1e-12);
  CHECK_NEAR(v.hff, 7.0, 1e-12);
  CHECK_NEAR(plan_cost(&t, want, 2, GOAP_SEARCH_ASTAR, GOAP_H_LMCUT, NULL), 5.0, 1e-12);
  CHECK(plan_cost(&t, want, 2, GOAP_SEARCH_GREEDY, GOAP_H_FF, NULL) >= 5.0);
  task_free(&t);
}

/* Independent goals g1..g3, one action each (cost 1), and a chain p -> q -> r costing
 * 1 + 2 + 3: LM-cut counts every landmark, hmax only the largest. */
TEST(lmcut_independent_goals_and_chain) {
  task t;
  memset(&t, 0, sizeof t);
  REQUIRE(goap_builder_create(NULL, &t.b) == GOAP_OK);
  int g[3], p = 0, q = 0, r = 0;
  char name[8];
  for (int i = 0; i < 3; ++i) {
    snprintf(name, sizeof name, "g%d", i);
    g[i] = var_bool(&t, name, 0);
  }
  p = var_bool(&t, "p", 0);
  q = var_bool(&t, "q", 0);
  r = var_bool(&t, "r", 0);
  for (int i = 0; i < 3; ++i) {
    goap_effect e = {g[i], GOAP_SET, 1};
    snprintf(name, sizeof name, "make%d", i);
    act(&t, name, 1, NULL, 0, &e, 1);
  }
  goap_effect ep = {p, GOAP_SET, 1}, eq = {q, GOAP_SET, 1}, er = {r, GOAP_SET, 1};
  goap_cond cp = {p, GOAP_EQ, 1}, cq = {q, GOAP_EQ, 1};
  act(&t, "to_p", 1, NULL, 0, &ep, 1);
  act(&t, "to_q", 2, &cp, 1, &eq, 1);
  act(&t, "to_r", 3, &cq, 1, &er, 1);
  REQUIRE(finish(&t));
  goap_cond want3[3] = {{g[0], GOAP_EQ, 1}, {g[1], GOAP_EQ, 1}, {g[2], GOAP_EQ, 1}};
  hvals v = values(&t, want3, 3);
  CHECK_NEAR(v.hmax, 1.0, 1e-12);
  CHECK_NEAR(v.lmcut, 3.0, 1e-12);
  CHECK_NEAR(v.hff, 3.0, 1e-12);
  goap_cond wr = {r, GOAP_EQ, 1};
  v = values(&t, &wr, 1);
  CHECK_NEAR(v.hmax, 6.0, 1e-12);
  CHECK_NEAR(v.lmcut, 6.0, 1e-12);
  CHECK_NEAR(v.hff, 6.0, 1e-12);
  /* r and all g: 6 + 3 */
  goap_cond all[4] = {{g[0], GOAP_EQ, 1}, {g[1], GOAP_EQ, 1}, {g[2], GOAP_EQ, 1}, {r, GOAP_EQ, 1}};
  v = values(&t, all, 4);
  CHECK_NEAR(v.lmcut, 9.0, 1e-12);
  goap_stats sl, sm;
  CHECK_NEAR(plan_cost(&t, all, 4, GOAP_SEARCH_ASTAR, GOAP_H_LMCUT, &sl), 9.0, 1e-12);
  CHECK_NEAR(plan_cost(&t, all, 4, GOAP_SEARCH_ASTAR, GOAP_H_MAX, &sm), 9.0, 1e-12);
  CHECK(sl.expanded < sm.expanded); /* perfect here: only the plan's states are expanded */
  CHECK_EQ_INT((int)sl.expanded, 6);
  task_free(&t);
}

/* An enum goal `e != a` reached by e = b (2) or e = c (1): one condition fact with two
 * achievers, LM-cut = 1. A contradictory route: goal f (needs e == d, which nothing sets):
 * a dead end for every heuristic. */
TEST(lmcut_enum_conditions) {
  task t;
  memset(&t, 0, sizeof t);
  REQUIRE(goap_builder_create(NULL, &t.b) == GOAP_OK);
  int e = var_enum(&t, "e", 4), f = var_bool(&t, "f", 0);
  goap_effect eb = {e, GOAP_SET, 1}, ec = {e, GOAP_SET, 2}, ef = {f, GOAP_SET, 1};
  goap_cond ed = {e, GOAP_EQ, 3};
  act(&t, "to_b", 2, NULL, 0, &eb, 1);
  act(&t, "to_c", 1, NULL, 0, &ec, 1);
  act(&t, "to_f", 1, &ed, 1, &ef, 1);
  REQUIRE(finish(&t));
  goap_cond w = {e, GOAP_NE, 0};
  hvals v = values(&t, &w, 1);
  CHECK_NEAR(v.lmcut, 1.0, 1e-12);
  CHECK_NEAR(v.hmax, 1.0, 1e-12);
  CHECK_NEAR(v.hff, 1.0, 1e-12);
  goap_cond wf = {f, GOAP_EQ, 1};
  v = values(&t, &wf, 1);
  CHECK(v.lmcut >= GOAP__INF);
  CHECK(v.hmax >= GOAP__INF);
  CHECK(v.hff >= GOAP__INF);
  CHECK_NEAR(plan_cost(&t, &wf, 1, GOAP_SEARCH_ASTAR, GOAP_H_LMCUT, NULL), -1.0, 0.0);
  task_free(&t);
}

/* Ints. n in 0..9 starts at 0: inc (n += 1, cost 1), set5 (n = 5, cost 4); m in 0..9 starts
 * at 9: dec (m -= 2, cost 1).
 *  - n >= 3: UP with the start value 0 <= 9 makes it hold: LM-cut = 1 (the optimum: 3 incs);
 *  - n == 5: through VAL(5) (set5, 4) or UP (inc, 1): one cut {inc, set5} of cost 1;
 *  - m <= 1: DOWN (dec) with the start value 9 >= 0: 1 (the optimum: 4 decs);
 *  - both: two disjoint landmarks, 2 (hmax 1);
 *  - m == 4: DOWN with 9 >= 4 satisfies the relaxation (as the hull does), so LM-cut = 1,
 *    though 9, 7, 5, 3, 1 never meet 4: the search proves there is no plan. */
TEST(lmcut_int_conditions) {
  task t;
  memset(&t, 0, sizeof t);
  REQUIRE(goap_builder_create(NULL, &t.b) == GOAP_OK);
  int n = var_int(&t, "n", 0, 9, 0), m = var_int(&t, "m", 0, 9, 9);
  goap_effect inc = {n, GOAP_ADD, 1}, set5 = {n, GOAP_SET, 5}, dec = {m, GOAP_ADD, -2};
  act(&t, "inc", 1, NULL, 0, &inc, 1);
  act(&t, "set5", 4, NULL, 0, &set5, 1);
  act(&t, "dec", 1, NULL, 0, &dec, 1);
  REQUIRE(finish(&t));
  goap_cond w1 = {n, GOAP_GE, 3};
  hvals v = values(&t, &w1, 1);
  CHECK_NEAR(v.lmcut, 1.0, 1e-12);
  CHECK_NEAR(v.hmax, 1.0, 1e-12);
  CHECK_NEAR(plan_cost(&t, &w1, 1, GOAP_SEARCH_ASTAR, GOAP_H_LMCUT, NULL), 3.0, 1e-12);
  goap_cond w2 = {n, GOAP_EQ, 5};
  v = values(&t, &w2, 1);
  CHECK_NEAR(v.lmcut, 1.0, 1e-12);
  CHECK_NEAR(plan_cost(&t, &w2, 1, GOAP_SEARCH_ASTAR, GOAP_H_LMCUT, NULL), 4.0, 1e-12);
  goap_cond w3 = {m, GOAP_LE, 1};
  v = values(&t, &w3, 1);
  CHECK_NEAR(v.lmcut, 1.0, 1e-12);
  CHECK_NEAR(plan_cost(&t, &w3, 1, GOAP_SEARCH_ASTAR, GOAP_H_LMCUT, NULL), 4.0, 1e-12);
  /* both goals: independent landmarks add up */
  goap_cond w13[2] = {{n, GOAP_GE, 3}, {m, GOAP_LE, 1}};
  v = values(&t, w13, 2);
  CHECK_NEAR(v.lmcut, 2.0, 1e-12);
  CHECK_NEAR(v.hmax, 1.0, 1e-12);
  CHECK_NEAR(plan_cost(&t, w13, 2, GOAP_SEARCH_ASTAR, GOAP_H_LMCUT, NULL), 7.0, 1e-12);
  goap_cond w4 = {m, GOAP_EQ, 4};
  v = values(&t, &w4, 1);
  CHECK_NEAR(v.lmcut, 1.0, 1e-12);
  CHECK_NEAR(plan_cost(&t, &w4, 1, GOAP_SEARCH_ASTAR, GOAP_H_LMCUT, NULL), -1.0, 0.0);
  task_free(&t);
}

/* Names and the optimality table. */
TEST(names_and_optimality) {
  CHECK_EQ_INT(goap_heuristic_from_name("hff"), GOAP_H_FF);
  CHECK_EQ_INT(goap_heuristic_from_name("lmcut"), GOAP_H_LMCUT);
  CHECK_STR(goap_heuristic_name(GOAP_H_FF), "hff");
  CHECK_STR(goap_heuristic_name(GOAP_H_LMCUT), "lmcut");
  CHECK(goap_config_is_optimal(GOAP_SEARCH_ASTAR, GOAP_H_LMCUT));
  CHECK(goap_config_is_optimal(GOAP_SEARCH_BACKWARD, GOAP_H_LMCUT));
  CHECK(!goap_config_is_optimal(GOAP_SEARCH_ASTAR, GOAP_H_FF));
  CHECK(!goap_config_is_optimal(GOAP_SEARCH_GREEDY, GOAP_H_LMCUT));
}

/* A memory budget far too small for the search: GOAP_MEMORY_LIMIT with the best partial plan
 * (a valid plan start whose cost is reported), the budget never exceeded, and the planner
 * still usable for a request that fits. 20 independent flags, each set by its own action:
 * 2^20 states, goal all of them, blind and LM-cut searches. */
TEST(memory_limit_partial_plan) {
  task t;
  memset(&t, 0, sizeof t);
  REQUIRE(goap_builder_create(NULL, &t.b) == GOAP_OK);
  enum { N = 20 };
  goap_cond want[N];
  char name[16];
  for (int i = 0; i < N; ++i) {
    snprintf(name, sizeof name, "f%d", i);
    int v = var_bool(&t, name, 0);
    goap_effect e = {v, GOAP_SET, 1};
    snprintf(name, sizeof name, "set%d", i);
    act(&t, name, 1.0 + (i % 3), NULL, 0, &e, 1);
    want[i].var = v;
    want[i].op = GOAP_EQ;
    want[i].value = 1;
  }
  REQUIRE(goap_builder_build(t.b, &t.d) == GOAP_OK);
  {
    goap_planner *q = NULL;
    REQUIRE(goap_planner_create(t.d, NULL, &q) == GOAP_OK);
    CHECK(q->cap_nodes == 4194304u); /* the documented default without a budget */
    goap_planner_destroy(q);
  }
  static const goap_heuristic hs[] = {GOAP_H_ZERO, GOAP_H_LMCUT};
  for (int k = 0; k < 2; ++k) {
    test_alloc m;
    memset(&m, 0, sizeof m);
    goap_planner_desc pd;
    memset(&pd, 0, sizeof pd);
    pd.allocator = test_alloc_hook(&m);
    pd.max_memory = 256u * 1024u;
    goap_planner *p = NULL;
    REQUIRE(goap_planner_create(t.d, &pd, &p) == GOAP_OK);
    /* with a memory budget and no node cap, only the budget bounds the node pool */
    CHECK(p->cap_nodes == 0x7fffffffu);
    goap_request req;
    memset(&req, 0, sizeof req);
    req.want = want;
    req.want_count = N;
    req.heuristic = hs[k];
    int32_t plan[64];
    goap_result res;
    memset(&res, 0, sizeof res);
    res.plan = plan;
    res.plan_capacity = 64;
    if (k == 0) {
      CHECK_EQ_INT(goap_plan(p, &req, &res), GOAP_MEMORY_LIMIT);
      CHECK_EQ_INT(res.partial, 1);
      CHECK(res.plan_length > 0);
      CHECK(res.stats.nodes > 1000); /* it did search until the budget */
      double cost = -1.0;
      CHECK_EQ_INT(goap_plan_validate(t.d, NULL, NULL, 0, plan, res.plan_length, &cost, NULL),
                   GOAP_OK);
      CHECK_NEAR(cost, res.cost, 1e-9);
    } else {
      /* LM-cut is perfect here: the optimal plan within the same budget */
      CHECK_EQ_INT(goap_plan(p, &req, &res), GOAP_OK);
      CHECK_NEAR(res.cost, 39.0, 1e-9); /* costs 1 + i % 3: 7 * 1 + 7 * 2 + 6 * 3 */
    }
    CHECK(m.outstanding == p->memory); /* the accounting holds every byte, the planner too */
    CHECK(m.peak <= pd.max_memory);
    /* a small request afterwards fits */
    req.want_count = 2;
    CHECK_EQ_INT(goap_plan(p, &req, &res), GOAP_OK);
    CHECK_NEAR(res.cost, 3.0, 1e-9);
    goap_planner_destroy(p);
    CHECK_EQ_INT((int)m.outstanding, 0);
    CHECK_EQ_INT(m.bad_old_size, 0);
    CHECK_EQ_INT(m.unknown_ptr, 0);
  }
  task_free(&t);
}

/* Zero allocations after warm-up on the successor-index path (240 actions on a one-word
 * state: the bitset would take 4 words) with the default heuristic, hff and LM-cut, over
 * requests with different goals; and the index gives the optimal cost. A chain of 40 flags,
 * 6 variants of each step costing 1..6. */
TEST(index_path_no_allocation_after_warmup) {
  task t;
  memset(&t, 0, sizeof t);
  REQUIRE(goap_builder_create(NULL, &t.b) == GOAP_OK);
  enum { STEPS = 40, VARIANTS = 6 };
  int f[STEPS + 1];
  char name[24];
  for (int i = 0; i <= STEPS; ++i) {
    snprintf(name, sizeof name, "s%d", i);
    f[i] = var_bool(&t, name, i == 0);
  }
  for (int i = 1; i <= STEPS; ++i)
    for (int k = 0; k < VARIANTS; ++k) {
      goap_cond pre = {f[i - 1], GOAP_EQ, 1};
      goap_effect eff = {f[i], GOAP_SET, 1};
      snprintf(name, sizeof name, "step%d_%d", i, k);
      act(&t, name, (double)(VARIANTS - k), &pre, 1, &eff, 1);
    }
  REQUIRE(goap_builder_build(t.b, &t.d) == GOAP_OK);
  REQUIRE(goap_domain_state_words(t.d) == 1);
  test_alloc m;
  memset(&m, 0, sizeof m);
  goap_planner_desc pd;
  memset(&pd, 0, sizeof pd);
  pd.allocator = test_alloc_hook(&m);
  goap_planner *p = NULL;
  REQUIRE(goap_planner_create(t.d, &pd, &p) == GOAP_OK);
  static const goap_heuristic hs[] = {GOAP_H_DEFAULT, GOAP_H_FF, GOAP_H_LMCUT};
  goap_cond wants[3] = {{f[STEPS], GOAP_EQ, 1}, {f[20], GOAP_EQ, 1}, {f[33], GOAP_EQ, 1}};
  int32_t plan[64];
  size_t after_warmup = 0;
  for (int round = 0; round < 3; ++round) {
    for (int hi = 0; hi < 3; ++hi) {
      for (int w = 0; w < 3; ++w) {
        goap_request req;
        memset(&req, 0, sizeof req);
        req.want = &wants[w];
        req.want_count = 1;
        req.heuristic = hs[hi];
        req.search = hs[hi] == GOAP_H_FF ? GOAP_SEARCH_GREEDY : GOAP_SEARCH_ASTAR;
        goap_result res;
        memset(&res, 0, sizeof res);
        res.plan = plan;
        res.plan_capacity = 64;
        CHECK_EQ_INT(goap_plan(p, &req, &res), GOAP_OK);
        if (hs[hi] != GOAP_H_FF) {
          double expect = w == 0 ? STEPS : w == 1 ? 20 : 33;
          CHECK_NEAR(res.cost, expect, 1e-9);
        }
        CHECK_EQ_INT(p->succ_mode, 2); /* FMODE_INDEX */
      }
    }
    if (round == 0) after_warmup = m.calls;
  }
  CHECK_EQ_INT((int)(m.calls - after_warmup), 0);
  goap_planner_destroy(p);
  task_free(&t);
}

TEST_MAIN(TEST_ENTRY(lmcut_two_goals_shared_achiever), TEST_ENTRY(lmcut_independent_goals_and_chain),
          TEST_ENTRY(lmcut_enum_conditions), TEST_ENTRY(lmcut_int_conditions),
          TEST_ENTRY(names_and_optimality), TEST_ENTRY(memory_limit_partial_plan),
          TEST_ENTRY(index_path_no_allocation_after_warmup))
