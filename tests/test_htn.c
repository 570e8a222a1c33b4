/*
 * test_htn.c -- the HTN planner through its C API (goap/htn.h).
 *
 * Ports of GTPyhop's examples (simple travel, backtracking, the Sussman anomaly), Fluid-HTN
 * semantics (select = ordered methods, sequence = a method's subtasks, partial plans with
 * pause/resume, MTR replacement), backtracking across siblings, `achieve` subgoals re-planned
 * on backtracking, `set` (plan-time-only effects), budgets and their statuses, cycles, a
 * 5,000-step plan, builder validation, buffers, allocation-failure injection and zero
 * allocations per plan after warm-up.
 */
#include <goap/goap.h>
#include <goap/htn.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../bench/blocks_htn.h"
#include "alloc_hook.h"
#include "test.h"

/* ------------------------------------------------------------------------------------------
 * Helpers
 * ---------------------------------------------------------------------------------------- */
typedef struct fixture {
  goap_builder *b;
  goap_domain *d;
  goap_htn_builder *hb;
  goap_htn_domain *h;
  goap_htn_planner *p;
} fixture;

static void fx_free(fixture *f) {
  goap_htn_planner_destroy(f->p);
  goap_htn_domain_destroy(f->h);
  goap_htn_builder_destroy(f->hb);
  goap_domain_destroy(f->d);
  goap_builder_destroy(f->b);
  memset(f, 0, sizeof *f);
}

static int add_bool(goap_builder *b, const char *name, int def) {
  goap_var_desc v;
  int id = -1;
  memset(&v, 0, sizeof v);
  v.name = name;
  v.type = GOAP_BOOL;
  v.has_default = 1;
  v.default_value = def;
  if (goap_builder_add_var(b, &v, &id) != GOAP_OK) return -1;
  return id;
}

static int add_int(goap_builder *b, const char *name, int lo, int hi, int def) {
  goap_var_desc v;
  int id = -1;
  memset(&v, 0, sizeof v);
  v.name = name;
  v.type = GOAP_INT;
  v.lo = lo;
  v.hi = hi;
  v.has_default = 1;
  v.default_value = def;
  if (goap_builder_add_var(b, &v, &id) != GOAP_OK) return -1;
  return id;
}

static int add_action(goap_builder *b, const char *name, double cost, const goap_cond *pre,
                      int npre, const goap_effect *eff, int neff) {
  goap_action_desc a;
  int id = -1;
  memset(&a, 0, sizeof a);
  a.name = name;
  a.cost = cost;
  a.pre = pre;
  a.pre_count = npre;
  a.eff = eff;
  a.eff_count = neff;
  if (goap_builder_add_action(b, &a, &id) != GOAP_OK) {
    fprintf(stderr, "add_action %s: %s\n", name, goap_builder_error(b)->message);
    return -1;
  }
  return id;
}

static goap_htn_subtask S_ACT(int id) {
  goap_htn_subtask s;
  memset(&s, 0, sizeof s);
  s.kind = GOAP_HTN_ACTION;
  s.id = id;
  return s;
}
static goap_htn_subtask S_TASK(int id) {
  goap_htn_subtask s = S_ACT(id);
  s.kind = GOAP_HTN_TASK;
  return s;
}
static goap_htn_subtask S_PAUSE(void) {
  goap_htn_subtask s = S_ACT(-1);
  s.kind = GOAP_HTN_PAUSE;
  return s;
}
static goap_htn_subtask S_ACHIEVE(const goap_cond *c, int n) {
  goap_htn_subtask s = S_ACT(-1);
  s.kind = GOAP_HTN_ACHIEVE;
  s.conds = c;
  s.cond_count = n;
  return s;
}
static goap_htn_subtask S_SET(const goap_effect *e, int n) {
  goap_htn_subtask s = S_ACT(-1);
  s.kind = GOAP_HTN_SET;
  s.effs = e;
  s.eff_count = n;
  return s;
}

static int add_method(goap_htn_builder *hb, int task, const char *name, const goap_cond *when,
                      int nwhen, const goap_htn_subtask *subs, int nsubs) {
  goap_htn_method_desc m;
  int idx = -1;
  memset(&m, 0, sizeof m);
  m.name = name;
  m.when = when;
  m.when_count = nwhen;
  m.subtasks = subs;
  m.subtask_count = nsubs;
  if (goap_htn_builder_add_method(hb, task, &m, &idx) != GOAP_OK) {
    fprintf(stderr, "add_method %s: %s\n", name, goap_htn_builder_error(hb)->message);
    return -1;
  }
  return idx;
}

static int add_task(goap_htn_builder *hb, const char *name) {
  int id = -1;
  if (goap_htn_builder_add_task(hb, name, &id) != GOAP_OK) return -1;
  return id;
}

/* Plans and renders the plan as "a b c" (action names). */
static goap_status plan_text(const goap_htn_domain *h, goap_htn_planner *p,
                             const goap_htn_request *req, char *out, size_t cap,
                             goap_htn_result *res_out) {
  int32_t plan[256], mtr[256];
  goap_htn_result r;
  goap_status st;
  size_t len = 0;
  memset(&r, 0, sizeof r);
  r.plan = plan;
  r.plan_capacity = 256;
  r.mtr = mtr;
  r.mtr_capacity = 256;
  st = goap_htn_plan(p, req, &r);
  out[0] = '\0';
  for (int i = 0; (st == GOAP_OK || st == GOAP_PARTIAL) && i < r.plan_length; ++i) {
    const char *n = goap_domain_action_name(goap_htn_domain_goap(h), plan[i]);
    len += (size_t)snprintf(out + len, cap - len, "%s%s", i ? " " : "", n);
    if (len >= cap) break;
  }
  if (res_out) {
    *res_out = r;
    res_out->plan = NULL;
    res_out->mtr = NULL;
  }
  return st;
}

static goap_htn_request req_for(int task) {
  goap_htn_request q;
  memset(&q, 0, sizeof q);
  q.task = task;
  return q;
}

/* ------------------------------------------------------------------------------------------
 * GTPyhop: simple travel (call taxi, ride taxi, pay driver)
 * ---------------------------------------------------------------------------------------- */
TEST(gtpyhop_simple_travel) {
  fixture f;
  char text[512];
  memset(&f, 0, sizeof f);
  REQUIRE(goap_builder_create(NULL, &f.b) == GOAP_OK);
  int at_park = add_bool(f.b, "at_park", 0);
  int park_near = add_bool(f.b, "park_near", 0); /* distance home-park <= 2: walk */
  int taxi_here = add_bool(f.b, "taxi_here", 0);
  int in_taxi = add_bool(f.b, "in_taxi", 0);
  int cash = add_int(f.b, "cash", 0, 100, 20);
  int owe = add_int(f.b, "owe", 0, 100, 0);
  goap_cond c_walk[] = {{park_near, GOAP_EQ, 1}};
  goap_effect e_walk[] = {{at_park, GOAP_SET, 1}};
  int walk = add_action(f.b, "walk", 1, c_walk, 1, e_walk, 1);
  goap_effect e_call[] = {{taxi_here, GOAP_SET, 1}};
  int call_taxi = add_action(f.b, "call_taxi", 1, NULL, 0, e_call, 1);
  goap_cond c_ride[] = {{taxi_here, GOAP_EQ, 1}};
  goap_effect e_ride[] = {{at_park, GOAP_SET, 1}, {in_taxi, GOAP_SET, 1}, {owe, GOAP_SET, 6}};
  int ride_taxi = add_action(f.b, "ride_taxi", 1, c_ride, 1, e_ride, 3);
  goap_cond c_pay[] = {{in_taxi, GOAP_EQ, 1}, {cash, GOAP_GE, 6}};
  goap_effect e_pay[] = {{cash, GOAP_ADD, -6}, {owe, GOAP_SET, 0}, {in_taxi, GOAP_SET, 0}};
  int pay_driver = add_action(f.b, "pay_driver", 1, c_pay, 2, e_pay, 3);
  REQUIRE(walk >= 0 && call_taxi >= 0 && ride_taxi >= 0 && pay_driver >= 0);
  REQUIRE(goap_builder_build(f.b, &f.d) == GOAP_OK);
  REQUIRE(goap_htn_builder_create(f.d, NULL, &f.hb) == GOAP_OK);
  int travel = add_task(f.hb, "travel");
  goap_cond w_none[] = {{at_park, GOAP_EQ, 1}};
  goap_cond w_foot[] = {{park_near, GOAP_EQ, 1}};
  goap_cond w_taxi[] = {{cash, GOAP_GE, 6}};
  goap_htn_subtask s_foot[] = {S_ACT(walk)};
  goap_htn_subtask s_taxi[] = {S_ACT(call_taxi), S_ACT(ride_taxi), S_ACT(pay_driver)};
  REQUIRE(add_method(f.hb, travel, "do_nothing", w_none, 1, NULL, 0) == 0);
  REQUIRE(add_method(f.hb, travel, "by_foot", w_foot, 1, s_foot, 1) == 1);
  REQUIRE(add_method(f.hb, travel, "by_taxi", w_taxi, 1, s_taxi, 3) == 2);
  REQUIRE(goap_htn_builder_build(f.hb, &f.h) == GOAP_OK);
  REQUIRE(goap_htn_planner_create(f.h, NULL, &f.p) == GOAP_OK);
  goap_htn_request q = req_for(travel);
  goap_htn_result r;
  CHECK_EQ_INT(plan_text(f.h, f.p, &q, text, sizeof text, &r), GOAP_OK);
  CHECK_STR(text, "call_taxi ride_taxi pay_driver");
  CHECK_NEAR(r.cost, 3.0, 1e-12);
  CHECK_EQ_INT(r.mtr_length, 1);
  /* walking distance: the second method */
  goap_word start[4];
  goap_state_init(f.d, start);
  goap_state_set(f.d, start, park_near, 1);
  q.start = start;
  CHECK_EQ_INT(plan_text(f.h, f.p, &q, text, sizeof text, NULL), GOAP_OK);
  CHECK_STR(text, "walk");
  /* already there: the empty plan */
  goap_state_set(f.d, start, at_park, 1);
  CHECK_EQ_INT(plan_text(f.h, f.p, &q, text, sizeof text, NULL), GOAP_OK);
  CHECK_STR(text, "");
  /* not enough cash: no method applies */
  goap_state_init(f.d, start);
  goap_state_set(f.d, start, cash, 5);
  CHECK_EQ_INT(plan_text(f.h, f.p, &q, text, sizeof text, &r), GOAP_NO_PLAN);
  CHECK_EQ_INT(r.stop, GOAP_HTN_STOP_NONE);
  fx_free(&f);
}

/* ------------------------------------------------------------------------------------------
 * GTPyhop: backtracking. flag starts at -1 (here: the value `unset`); putv v sets it, getv v
 * needs it. put_it's methods: m_err [putv 0, getv 1] (fails inside), m0 [putv 0, getv 0],
 * m1 [putv 1, getv 1]; need0 [getv 0]; need1 [getv 1]. The todo list [put_it, need1] fails
 * with m0 at need1 and must backtrack into put_it, an earlier sibling.
 * ---------------------------------------------------------------------------------------- */
typedef struct bt_dom {
  fixture f;
  int put_it, need0, need1, root01, root1, root0;
} bt_dom;

static int build_backtracking(bt_dom *t) {
  fixture *f = &t->f;
  goap_var_desc v;
  const char *vals[] = {"unset", "v0", "v1"};
  int flag = -1, putv[2], getv[2];
  memset(t, 0, sizeof *t);
  goap_builder_create(NULL, &f->b);
  memset(&v, 0, sizeof v);
  v.name = "flag";
  v.type = GOAP_ENUM;
  v.values = vals;
  v.value_count = 3;
  if (goap_builder_add_var(f->b, &v, &flag) != GOAP_OK) return -1;
  for (int k = 0; k < 2; ++k) {
    char name[16];
    goap_effect e = {flag, GOAP_SET, 1 + k};
    goap_cond c = {flag, GOAP_EQ, 1 + k};
    goap_effect same = {flag, GOAP_SET, 1 + k}; /* getv changes nothing (same value) */
    snprintf(name, sizeof name, "putv_%d", k);
    putv[k] = add_action(f->b, name, 1, NULL, 0, &e, 1);
    snprintf(name, sizeof name, "getv_%d", k);
    getv[k] = add_action(f->b, name, 1, &c, 1, &same, 1);
  }
  if (goap_builder_build(f->b, &f->d) != GOAP_OK) return -1;
  goap_htn_builder_create(f->d, NULL, &f->hb);
  t->put_it = add_task(f->hb, "put_it");
  t->need0 = add_task(f->hb, "need0");
  t->need1 = add_task(f->hb, "need1");
  t->root1 = add_task(f->hb, "put_it_need1");
  t->root0 = add_task(f->hb, "put_it_need0");
  t->root01 = add_task(f->hb, "put_it_need01");
  goap_htn_subtask m_err[] = {S_ACT(putv[0]), S_ACT(getv[1])};
  goap_htn_subtask m0[] = {S_ACT(putv[0]), S_ACT(getv[0])};
  goap_htn_subtask m1[] = {S_ACT(putv[1]), S_ACT(getv[1])};
  goap_htn_subtask n0[] = {S_ACT(getv[0])}, n1[] = {S_ACT(getv[1])};
  goap_htn_subtask r1[] = {S_TASK(t->put_it), S_TASK(t->need1)};
  goap_htn_subtask r0[] = {S_TASK(t->put_it), S_TASK(t->need0)};
  goap_htn_subtask r01[] = {S_TASK(t->put_it), S_TASK(t->need0), S_TASK(t->need1)};
  if (add_method(f->hb, t->put_it, "m_err", NULL, 0, m_err, 2) < 0 ||
      add_method(f->hb, t->put_it, "m0", NULL, 0, m0, 2) < 0 ||
      add_method(f->hb, t->put_it, "m1", NULL, 0, m1, 2) < 0 ||
      add_method(f->hb, t->need0, "m_need0", NULL, 0, n0, 1) < 0 ||
      add_method(f->hb, t->need1, "m_need1", NULL, 0, n1, 1) < 0 ||
      add_method(f->hb, t->root1, "todo", NULL, 0, r1, 2) < 0 ||
      add_method(f->hb, t->root0, "todo", NULL, 0, r0, 2) < 0 ||
      add_method(f->hb, t->root01, "todo", NULL, 0, r01, 3) < 0)
    return -1;
  if (goap_htn_builder_build(f->hb, &f->h) != GOAP_OK) return -1;
  goap_htn_planner_create(f->h, NULL, &f->p);
  return f->p ? 0 : -1;
}

TEST(gtpyhop_backtracking) {
  bt_dom t;
  char text[256];
  goap_htn_result r;
  REQUIRE(build_backtracking(&t) == 0);
  goap_htn_request q = req_for(t.root1);
  CHECK_EQ_INT(plan_text(t.f.h, t.f.p, &q, text, sizeof text, &r), GOAP_OK);
  CHECK_STR(text, "putv_1 getv_1 getv_1");
  CHECK(r.stats.backtracks >= 2);
  /* MTR: root todo (0), put_it m1 (2), need1 (0) */
  {
    int32_t plan[8], mtr[8];
    goap_htn_result rr;
    memset(&rr, 0, sizeof rr);
    rr.plan = plan;
    rr.plan_capacity = 8;
    rr.mtr = mtr;
    rr.mtr_capacity = 8;
    CHECK_EQ_INT(goap_htn_plan(t.f.p, &q, &rr), GOAP_OK);
    REQUIRE(rr.mtr_length == 3);
    CHECK_EQ_INT(mtr[0], 0);
    CHECK_EQ_INT(mtr[1], 2);
    CHECK_EQ_INT(mtr[2], 0);
  }
  q = req_for(t.root0);
  CHECK_EQ_INT(plan_text(t.f.h, t.f.p, &q, text, sizeof text, NULL), GOAP_OK);
  CHECK_STR(text, "putv_0 getv_0 getv_0");
  /* need0 then need1 cannot both hold: every method of put_it is tried, then no plan */
  q = req_for(t.root01);
  CHECK_EQ_INT(plan_text(t.f.h, t.f.p, &q, text, sizeof text, &r), GOAP_NO_PLAN);
  CHECK_EQ_INT(r.stop, GOAP_HTN_STOP_NONE);
  fx_free(&t.f);
}

/* ------------------------------------------------------------------------------------------
 * GTPyhop: the Sussman anomaly with the blocks_htn methods (blocks a=1, b=2, c=3)
 * ---------------------------------------------------------------------------------------- */
TEST(gtpyhop_sussman) {
  int init[4] = {0, 0, 0, 1};  /* c on a; a, b on the table */
  int goal[4] = {0, 2, 3, 0};  /* a on b, b on c, c on the table */
  bw_problem pr = {3, init, goal};
  bw_domain w;
  int32_t plan[32];
  goap_htn_result r;
  char text[256];
  size_t len = 0;
  REQUIRE(bw_build(&pr, &w) == 0);
  goap_htn_planner *p = NULL;
  REQUIRE(goap_htn_planner_create(w.h, NULL, &p) == GOAP_OK);
  goap_htn_request q = req_for(w.root);
  memset(&r, 0, sizeof r);
  r.plan = plan;
  r.plan_capacity = 32;
  CHECK_EQ_INT(goap_htn_plan(p, &q, &r), GOAP_OK);
  text[0] = '\0';
  for (int i = 0; i < r.plan_length; ++i) {
    char step[64];
    bw_action_text(w.d, plan[i], step, sizeof step);
    len += (size_t)snprintf(text + len, sizeof text - len, "%s%s", i ? ", " : "", step);
  }
  CHECK_STR(text, "unstack 3 1, putdown 3, pickup 2, stack 2 3, pickup 1, stack 1 2");
  /* the plan replays to the goal */
  {
    goap_cond want[3] = {{w.var_done[1], GOAP_EQ, 1}, {w.var_done[2], GOAP_EQ, 1},
                         {w.var_done[3], GOAP_EQ, 1}};
    CHECK_EQ_INT(goap_plan_validate(w.d, NULL, want, 3, plan, r.plan_length, NULL, NULL),
                 GOAP_OK);
  }
  goap_htn_planner_destroy(p);
  bw_domain_free(&w);
}

/* ------------------------------------------------------------------------------------------
 * Fluid-HTN semantics: select (ordered methods), sequence, partial plans, MTR replacement
 * ---------------------------------------------------------------------------------------- */
typedef struct troll {
  fixture f;
  int sees_enemy, has_trunk, tree_near, path_ok, at_bridge, enemy_down;
  int be_troll, attack;
  int a_find, a_uproot, a_go, a_slam, a_choose, a_go_bridge, a_check, a_wait;
} troll;

static int build_troll(troll *t, int with_pause) {
  fixture *f = &t->f;
  memset(t, 0, sizeof *t);
  goap_builder_create(NULL, &f->b);
  t->sees_enemy = add_bool(f->b, "sees_enemy", 1);
  t->has_trunk = add_bool(f->b, "has_trunk", 0);
  t->tree_near = add_bool(f->b, "tree_near", 1);
  t->path_ok = add_bool(f->b, "path_ok", 1);
  t->at_bridge = add_bool(f->b, "at_bridge", 0);
  t->enemy_down = add_bool(f->b, "enemy_down", 0);
  int near_enemy = add_bool(f->b, "near_enemy", 0);
  int bridge_chosen = add_bool(f->b, "bridge_chosen", 0);
  goap_cond c_tree = {t->tree_near, GOAP_EQ, 1};
  goap_effect e_find = {t->tree_near, GOAP_SET, 1};
  t->a_find = add_action(f->b, "find_tree", 1, &c_tree, 1, &e_find, 1);
  goap_effect e_uproot = {t->has_trunk, GOAP_SET, 1};
  t->a_uproot = add_action(f->b, "uproot_tree", 2, &c_tree, 1, &e_uproot, 1);
  goap_cond c_path = {t->path_ok, GOAP_EQ, 1};
  goap_effect e_go = {near_enemy, GOAP_SET, 1};
  t->a_go = add_action(f->b, "go_to_enemy", 1, &c_path, 1, &e_go, 1);
  goap_cond c_slam[] = {{t->has_trunk, GOAP_EQ, 1}, {near_enemy, GOAP_EQ, 1}};
  goap_effect e_slam = {t->enemy_down, GOAP_SET, 1};
  t->a_slam = add_action(f->b, "trunk_slam", 1, c_slam, 2, &e_slam, 1);
  goap_effect e_choose = {bridge_chosen, GOAP_SET, 1};
  t->a_choose = add_action(f->b, "choose_bridge", 1, NULL, 0, &e_choose, 1);
  goap_cond c_gob = {bridge_chosen, GOAP_EQ, 1};
  goap_effect e_gob = {t->at_bridge, GOAP_SET, 1};
  t->a_go_bridge = add_action(f->b, "go_to_bridge", 1, &c_gob, 1, &e_gob, 1);
  goap_cond c_check = {t->at_bridge, GOAP_EQ, 1};
  goap_effect e_check = {bridge_chosen, GOAP_SET, 0};
  t->a_check = add_action(f->b, "check_bridge", 1, &c_check, 1, &e_check, 1);
  goap_effect e_wait = {t->at_bridge, GOAP_SET, 1};
  t->a_wait = add_action(f->b, "wait", 1, NULL, 0, &e_wait, 1);
  if (goap_builder_build(f->b, &f->d) != GOAP_OK) return -1;
  goap_htn_builder_create(f->d, NULL, &f->hb);
  t->be_troll = add_task(f->hb, "be_troll");
  t->attack = add_task(f->hb, "attack_enemy");
  goap_cond w_sees = {t->sees_enemy, GOAP_EQ, 1};
  goap_cond w_trunk = {t->has_trunk, GOAP_EQ, 1};
  goap_cond w_notrunk = {t->has_trunk, GOAP_EQ, 0};
  goap_htn_subtask s_attack[] = {S_TASK(t->attack)};
  goap_htn_subtask s_patrol[] = {S_ACT(t->a_choose), S_ACT(t->a_go_bridge), S_PAUSE(),
                                 S_ACT(t->a_check)};
  goap_htn_subtask s_has[] = {S_ACT(t->a_go), S_ACT(t->a_slam)};
  goap_htn_subtask s_find[] = {S_ACT(t->a_find), S_ACT(t->a_uproot), S_ACT(t->a_go),
                               S_ACT(t->a_slam)};
  if (add_method(f->hb, t->be_troll, "attack", &w_sees, 1, s_attack, 1) < 0) return -1;
  if (with_pause) {
    if (add_method(f->hb, t->be_troll, "patrol", NULL, 0, s_patrol, 4) < 0) return -1;
  } else {
    goap_htn_subtask s_patrol2[] = {S_ACT(t->a_choose), S_ACT(t->a_go_bridge), S_ACT(t->a_check)};
    if (add_method(f->hb, t->be_troll, "patrol", NULL, 0, s_patrol2, 3) < 0) return -1;
  }
  if (add_method(f->hb, t->attack, "with_trunk", &w_trunk, 1, s_has, 2) < 0 ||
      add_method(f->hb, t->attack, "find_trunk", &w_notrunk, 1, s_find, 4) < 0)
    return -1;
  if (goap_htn_builder_build(f->hb, &f->h) != GOAP_OK) return -1;
  goap_htn_planner_create(f->h, NULL, &f->p);
  return f->p ? 0 : -1;
}

TEST(select_sequence_and_the_troll) {
  troll t;
  char text[256];
  goap_word s[4];
  goap_htn_result r;
  REQUIRE(build_troll(&t, 0) == 0);
  goap_htn_request q = req_for(t.be_troll);
  q.start = s;
  /* default: no trunk, so uproot a tree first (the second method of attack_enemy) */
  goap_state_init(t.f.d, s);
  CHECK_EQ_INT(plan_text(t.f.h, t.f.p, &q, text, sizeof text, &r), GOAP_OK);
  CHECK_STR(text, "find_tree uproot_tree go_to_enemy trunk_slam");
  /* has a trunk: the first method */
  goap_state_set(t.f.d, s, t.has_trunk, 1);
  CHECK_EQ_INT(plan_text(t.f.h, t.f.p, &q, text, sizeof text, NULL), GOAP_OK);
  CHECK_STR(text, "go_to_enemy trunk_slam");
  /* no tree: the sequence fails inside, backtrack to patrol */
  goap_state_init(t.f.d, s);
  goap_state_set(t.f.d, s, t.tree_near, 0);
  CHECK_EQ_INT(plan_text(t.f.h, t.f.p, &q, text, sizeof text, &r), GOAP_OK);
  CHECK_STR(text, "choose_bridge go_to_bridge check_bridge");
  CHECK(r.stats.backtracks >= 1);
  /* no path: both attack methods fail, patrol */
  goap_state_init(t.f.d, s);
  goap_state_set(t.f.d, s, t.path_ok, 0);
  goap_state_set(t.f.d, s, t.has_trunk, 1);
  CHECK_EQ_INT(plan_text(t.f.h, t.f.p, &q, text, sizeof text, &r), GOAP_OK);
  CHECK_STR(text, "choose_bridge go_to_bridge check_bridge");
  /* not seeing the enemy: the attack method is never tried (no expansion of attack_enemy) */
  goap_state_init(t.f.d, s);
  goap_state_set(t.f.d, s, t.sees_enemy, 0);
  CHECK_EQ_INT(plan_text(t.f.h, t.f.p, &q, text, sizeof text, &r), GOAP_OK);
  CHECK_STR(text, "choose_bridge go_to_bridge check_bridge");
  CHECK_EQ_INT(r.stats.expansions, 1);
  CHECK_EQ_INT(r.stats.backtracks, 0);
  fx_free(&t.f);
}

TEST(partial_plan_pause_and_resume) {
  troll t;
  goap_word s[4];
  int32_t plan[16], mtr[16];
  goap_htn_result r;
  REQUIRE(build_troll(&t, 1) == 0);
  goap_htn_request q = req_for(t.be_troll);
  goap_state_init(t.f.d, s);
  goap_state_set(t.f.d, s, t.sees_enemy, 0);
  q.start = s;
  memset(&r, 0, sizeof r);
  r.plan = plan;
  r.plan_capacity = 16;
  r.mtr = mtr;
  r.mtr_capacity = 16;
  CHECK(!goap_htn_pending(t.f.p));
  CHECK_EQ_INT(goap_htn_resume(t.f.p, s, NULL, &r), GOAP_INVALID_OPERATION);
  CHECK_EQ_INT(goap_htn_plan(t.f.p, &q, &r), GOAP_PARTIAL);
  CHECK_EQ_INT(r.paused, 1);
  REQUIRE(r.plan_length == 2);
  CHECK_EQ_INT(plan[0], t.a_choose);
  CHECK_EQ_INT(plan[1], t.a_go_bridge);
  CHECK(goap_htn_pending(t.f.p));
  CHECK_EQ_INT(r.mtr_length, 1);
  CHECK_EQ_INT(mtr[0], 1);
  /* the agent ran the two actions: resume from the state it is in now */
  goap_action_apply(t.f.d, s, plan[0]);
  goap_action_apply(t.f.d, s, plan[1]);
  CHECK_EQ_INT(goap_htn_resume(t.f.p, s, NULL, &r), GOAP_OK);
  REQUIRE(r.plan_length == 1);
  CHECK_EQ_INT(plan[0], t.a_check);
  CHECK_EQ_INT(r.paused, 0);
  CHECK_EQ_INT(r.mtr_length, 1); /* the MTR continues the earlier one */
  CHECK(!goap_htn_pending(t.f.p));
  /* resuming from a state where the rest fails: no plan, continuation dropped */
  CHECK_EQ_INT(goap_htn_plan(t.f.p, &q, &r), GOAP_PARTIAL);
  goap_state_init(t.f.d, s); /* not at the bridge: check_bridge inapplicable */
  CHECK_EQ_INT(goap_htn_resume(t.f.p, s, NULL, &r), GOAP_NO_PLAN);
  CHECK(!goap_htn_pending(t.f.p));
  fx_free(&t.f);
}

TEST(mtr_replacement) {
  troll t;
  goap_word s[4];
  int32_t plan[16], running[16], mtr[16];
  int running_len;
  goap_htn_result r;
  REQUIRE(build_troll(&t, 0) == 0);
  goap_htn_request q = req_for(t.be_troll);
  goap_state_init(t.f.d, s);
  goap_state_set(t.f.d, s, t.sees_enemy, 0);
  q.start = s;
  memset(&r, 0, sizeof r);
  r.plan = plan;
  r.plan_capacity = 16;
  r.mtr = running;
  r.mtr_capacity = 16;
  /* the troll patrols: MTR [1] */
  CHECK_EQ_INT(goap_htn_plan(t.f.p, &q, &r), GOAP_OK);
  running_len = r.mtr_length;
  REQUIRE(running_len == 1);
  CHECK_EQ_INT(running[0], 1);
  /* nothing changed: replanning with the running MTR as bound finds nothing better */
  q.mtr_bound = running;
  q.mtr_bound_length = running_len;
  r.mtr = mtr;
  CHECK_EQ_INT(goap_htn_plan(t.f.p, &q, &r), GOAP_NO_PLAN);
  /* the enemy appears: the attack method (index 0) beats patrol (1) */
  goap_state_set(t.f.d, s, t.sees_enemy, 1);
  CHECK_EQ_INT(goap_htn_plan(t.f.p, &q, &r), GOAP_OK);
  REQUIRE(r.mtr_length == 2);
  CHECK_EQ_INT(mtr[0], 0);
  CHECK_EQ_INT(mtr[1], 1); /* attack_enemy: find_trunk */
  CHECK(goap_htn_mtr_compare(mtr, r.mtr_length, running, running_len) < 0);
  CHECK(goap_htn_mtr_compare(running, running_len, mtr, r.mtr_length) > 0);
  /* now attacking with find_trunk [0, 1]: a trunk appears, with_trunk [0, 0] is better */
  memcpy(running, mtr, sizeof mtr);
  running_len = r.mtr_length;
  q.mtr_bound_length = running_len;
  goap_state_set(t.f.d, s, t.has_trunk, 1);
  CHECK_EQ_INT(goap_htn_plan(t.f.p, &q, &r), GOAP_OK);
  CHECK_EQ_INT(mtr[1], 0);
  /* ... while the same state with the running bound [0, 0] gives nothing better */
  memcpy(running, mtr, sizeof mtr);
  CHECK_EQ_INT(goap_htn_plan(t.f.p, &q, &r), GOAP_NO_PLAN);
  /* compare: equal, prefix, empty */
  {
    int32_t a[] = {0, 1, 2}, b[] = {0, 1};
    CHECK_EQ_INT(goap_htn_mtr_compare(a, 3, a, 3), 0);
    CHECK_EQ_INT(goap_htn_mtr_compare(a, 3, b, 2), 0);
    CHECK_EQ_INT(goap_htn_mtr_compare(NULL, 0, b, 2), 0);
  }
  fx_free(&t.f);
}

/* ------------------------------------------------------------------------------------------
 * Backtracking across siblings (Fluid HTN would not): root = [choose, use]; choose's first
 * method succeeds but leaves a state in which `use` fails; the planner must go back into
 * choose's second method.
 * ---------------------------------------------------------------------------------------- */
TEST(backtracking_across_siblings_and_depth) {
  fixture f;
  char text[256];
  goap_htn_result r;
  memset(&f, 0, sizeof f);
  REQUIRE(goap_builder_create(NULL, &f.b) == GOAP_OK);
  int red = add_bool(f.b, "red", 0), blue = add_bool(f.b, "blue", 0);
  int done = add_bool(f.b, "done", 0);
  goap_effect e_red = {red, GOAP_SET, 1}, e_blue = {blue, GOAP_SET, 1}, e_done = {done, GOAP_SET, 1};
  goap_cond c_blue = {blue, GOAP_EQ, 1};
  int paint_red = add_action(f.b, "paint_red", 1, NULL, 0, &e_red, 1);
  int paint_blue = add_action(f.b, "paint_blue", 1, NULL, 0, &e_blue, 1);
  int use_blue = add_action(f.b, "use_blue", 1, &c_blue, 1, &e_done, 1);
  REQUIRE(goap_builder_build(f.b, &f.d) == GOAP_OK);
  REQUIRE(goap_htn_builder_create(f.d, NULL, &f.hb) == GOAP_OK);
  int root = add_task(f.hb, "root"), choose = add_task(f.hb, "choose"),
      inner = add_task(f.hb, "inner"), use = add_task(f.hb, "use");
  goap_htn_subtask s_root[] = {S_TASK(choose), S_TASK(use)};
  goap_htn_subtask s_c1[] = {S_TASK(inner)}; /* nested: the choice is two levels down */
  goap_htn_subtask s_i1[] = {S_ACT(paint_red)}, s_i2[] = {S_ACT(paint_blue)};
  goap_htn_subtask s_use[] = {S_ACT(use_blue)};
  REQUIRE(add_method(f.hb, root, "seq", NULL, 0, s_root, 2) == 0);
  REQUIRE(add_method(f.hb, choose, "via_inner", NULL, 0, s_c1, 1) == 0);
  REQUIRE(add_method(f.hb, inner, "red", NULL, 0, s_i1, 1) == 0);
  REQUIRE(add_method(f.hb, inner, "blue", NULL, 0, s_i2, 1) == 1);
  REQUIRE(add_method(f.hb, use, "use", NULL, 0, s_use, 1) == 0);
  REQUIRE(goap_htn_builder_build(f.hb, &f.h) == GOAP_OK);
  REQUIRE(goap_htn_planner_create(f.h, NULL, &f.p) == GOAP_OK);
  goap_htn_request q = req_for(root);
  CHECK_EQ_INT(plan_text(f.h, f.p, &q, text, sizeof text, &r), GOAP_OK);
  CHECK_STR(text, "paint_blue use_blue");
  CHECK_EQ_INT(r.stats.backtracks, 1);
  /* the trace: root(0) > choose(1) > inner(2) > paint_blue(3); use(1) > use_blue(2) */
  {
    goap_htn_trace_entry e[16];
    int n = goap_htn_trace(f.p, e, 16);
    REQUIRE(n == 6);
    CHECK_EQ_INT(e[0].kind, GOAP_HTN_TASK);
    CHECK_EQ_INT(e[0].id, root);
    CHECK_EQ_INT(e[0].depth, 0);
    CHECK_EQ_INT(e[2].id, inner);
    CHECK_EQ_INT(e[2].method, 1);
    CHECK_EQ_INT(e[2].depth, 2);
    CHECK_EQ_INT(e[3].kind, GOAP_HTN_ACTION);
    CHECK_EQ_INT(e[3].id, paint_blue);
    CHECK_EQ_INT(e[3].depth, 3);
    CHECK_EQ_INT(e[4].id, use);
    CHECK_EQ_INT(e[4].depth, 1);
    CHECK_EQ_INT(e[5].kind, GOAP_HTN_ACTION);
    CHECK_EQ_INT(e[5].depth, 2);
    CHECK_EQ_INT(goap_htn_trace(f.p, NULL, 0), 6);
  }
  /* max_depth 1: choose needs depth 2 (root's seq stays open under it, waiting for use);
   * inner, in the tail position of choose's method, needs no more */
  q.max_depth = 1;
  CHECK_EQ_INT(plan_text(f.h, f.p, &q, text, sizeof text, &r), GOAP_TOO_LARGE);
  CHECK_EQ_INT(r.stop, GOAP_HTN_STOP_DEPTH);
  CHECK_STR(goap_htn_stop_name(r.stop), "depth_limit");
  q.max_depth = 2;
  CHECK_EQ_INT(plan_text(f.h, f.p, &q, text, sizeof text, &r), GOAP_OK);
  CHECK_EQ_INT(r.stats.max_depth, 2);
  fx_free(&f);
}

/* ------------------------------------------------------------------------------------------
 * achieve: solved by GOAP from the state reached, re-planned after backtracking; set
 * ---------------------------------------------------------------------------------------- */
TEST(achieve_replanned_on_backtracking) {
  fixture f;
  char text[256];
  goap_htn_result r;
  memset(&f, 0, sizeof f);
  REQUIRE(goap_builder_create(NULL, &f.b) == GOAP_OK);
  int has_key = add_bool(f.b, "has_key", 0), door_open = add_bool(f.b, "door_open", 0);
  int inside = add_bool(f.b, "inside", 0), loud = add_bool(f.b, "loud", 0);
  int alarm = add_bool(f.b, "alarm_armed", 1);
  goap_effect e_key = {has_key, GOAP_SET, 1};
  int get_key = add_action(f.b, "get_key", 3, NULL, 0, &e_key, 1);
  goap_cond c_unlock = {has_key, GOAP_EQ, 1};
  goap_effect e_open = {door_open, GOAP_SET, 1};
  int unlock = add_action(f.b, "unlock_door", 1, &c_unlock, 1, &e_open, 1);
  goap_effect e_kick[] = {{door_open, GOAP_SET, 1}, {loud, GOAP_SET, 1}};
  int kick = add_action(f.b, "kick_door", 1, NULL, 0, e_kick, 2);
  goap_cond c_enter = {door_open, GOAP_EQ, 1};
  goap_effect e_enter = {inside, GOAP_SET, 1};
  int enter = add_action(f.b, "enter", 1, &c_enter, 1, &e_enter, 1);
  goap_cond c_sneak[] = {{loud, GOAP_EQ, 0}, {inside, GOAP_EQ, 1}};
  goap_effect e_sneak = {alarm, GOAP_SET, 0};
  int sneak = add_action(f.b, "disarm_alarm", 1, c_sneak, 2, &e_sneak, 1);
  REQUIRE(get_key >= 0 && unlock >= 0 && kick >= 0 && enter >= 0 && sneak >= 0);
  REQUIRE(goap_builder_build(f.b, &f.d) == GOAP_OK);
  REQUIRE(goap_htn_builder_create(f.d, NULL, &f.hb) == GOAP_OK);
  int root = add_task(f.hb, "burgle"), prep = add_task(f.hb, "prepare");
  goap_cond want_inside = {inside, GOAP_EQ, 1};
  goap_effect quiet = {loud, GOAP_SET, 0};
  /* prepare: first pretend (plan-time only) that noise does not matter, then be careful */
  goap_htn_subtask s_rush[] = {S_SET(&quiet, 1)};
  goap_htn_subtask s_careful[] = {S_ACT(get_key)};
  goap_htn_subtask s_root[] = {S_TASK(prep), S_ACHIEVE(&want_inside, 1), S_ACT(sneak)};
  REQUIRE(add_method(f.hb, prep, "rush", NULL, 0, s_rush, 1) == 0);
  REQUIRE(add_method(f.hb, prep, "careful", NULL, 0, s_careful, 1) == 1);
  REQUIRE(add_method(f.hb, root, "go", NULL, 0, s_root, 3) == 0);
  REQUIRE(goap_htn_builder_build(f.hb, &f.h) == GOAP_OK);
  REQUIRE(goap_htn_planner_create(f.h, NULL, &f.p) == GOAP_OK);
  goap_htn_request q = req_for(root);
  /* rush: achieve inside = kick_door, enter (cheapest: 2), then disarm fails (loud): back to
   * prepare's second method; achieve is planned again from the new state: with the key,
   * unlock_door is as cheap as kicking and quiet */
  CHECK_EQ_INT(plan_text(f.h, f.p, &q, text, sizeof text, &r), GOAP_OK);
  CHECK(strcmp(text, "get_key unlock_door enter disarm_alarm") == 0 ||
        strcmp(text, "get_key kick_door enter disarm_alarm") == 0);
  CHECK_STR(text, "get_key unlock_door enter disarm_alarm");
  CHECK_EQ_INT(r.stats.achieves, 2);
  CHECK(r.stats.backtracks >= 1);
  /* the trace shows the achieve with its sub-plan's range */
  {
    goap_htn_trace_entry e[16];
    int n = goap_htn_trace(f.p, e, 16), found = 0;
    for (int i = 0; i < n; ++i)
      if (e[i].kind == GOAP_HTN_ACHIEVE) {
        CHECK_EQ_INT(e[i].plan_start, 1);
        CHECK_EQ_INT(e[i].plan_length, 2);
        found = 1;
      }
    CHECK(found);
  }
  fx_free(&f);
}

/* ------------------------------------------------------------------------------------------
 * Budgets, cycles and long plans
 * ---------------------------------------------------------------------------------------- */
typedef struct counter_dom {
  fixture f;
  int count, n, left, twice, inc;
} counter_dom;

/* count: right recursion to n == N; left: left recursion [left, inc] | [inc] where inc is
 * only applicable below 3 (so long chains fail); twice: two recursive methods, exponential. */
static int build_counter(counter_dom *t, int N) {
  fixture *f = &t->f;
  memset(t, 0, sizeof *t);
  goap_builder_create(NULL, &f->b);
  t->n = add_int(f->b, "n", 0, N, 0);
  goap_cond c_inc = {t->n, GOAP_LT, N};
  goap_effect e_inc = {t->n, GOAP_ADD, 1};
  t->inc = add_action(f->b, "inc", 1, &c_inc, 1, &e_inc, 1);
  if (goap_builder_build(f->b, &f->d) != GOAP_OK) return -1;
  goap_htn_builder_create(f->d, NULL, &f->hb);
  t->count = add_task(f->hb, "count");
  t->left = add_task(f->hb, "left");
  t->twice = add_task(f->hb, "twice");
  goap_cond w_more = {t->n, GOAP_LT, N}, w_done = {t->n, GOAP_EQ, N};
  goap_htn_subtask s_step[] = {S_ACT(t->inc), S_TASK(t->count)};
  goap_htn_subtask s_left[] = {S_TASK(t->left), S_ACT(t->inc)};
  goap_htn_subtask s_base[] = {S_ACT(t->inc)};
  goap_htn_subtask s_tw[] = {S_TASK(t->twice), S_ACT(t->inc)};
  goap_cond never = {t->n, GOAP_GT, N - 1};
  if (add_method(f->hb, t->count, "step", &w_more, 1, s_step, 2) < 0 ||
      add_method(f->hb, t->count, "stop", &w_done, 1, NULL, 0) < 0 ||
      add_method(f->hb, t->left, "recurse", NULL, 0, s_left, 2) < 0 ||
      add_method(f->hb, t->left, "base", &never, 1, s_base, 1) < 0 ||
      add_method(f->hb, t->twice, "a", NULL, 0, s_tw, 2) < 0 ||
      add_method(f->hb, t->twice, "b", NULL, 0, s_tw, 2) < 0 ||
      add_method(f->hb, t->twice, "base", &never, 1, s_base, 1) < 0)
    return -1;
  if (goap_htn_builder_build(f->hb, &f->h) != GOAP_OK) return -1;
  goap_htn_planner_create(f->h, NULL, &f->p);
  return f->p ? 0 : -1;
}

TEST(plan_of_5000_steps) {
  counter_dom t;
  goap_htn_result r;
  int32_t *plan = calloc(6000, sizeof *plan);
  REQUIRE(plan);
  REQUIRE(build_counter(&t, 5000) == 0);
  goap_htn_request q = req_for(t.count);
  memset(&r, 0, sizeof r);
  r.plan = plan;
  r.plan_capacity = 6000;
  CHECK_EQ_INT(goap_htn_plan(t.f.p, &q, &r), GOAP_OK);
  CHECK_EQ_INT(r.plan_length, 5000);
  CHECK_NEAR(r.cost, 5000.0, 1e-9);
  CHECK_EQ_INT(r.stats.max_depth, 1); /* right recursion: tail position, constant depth */
  CHECK_EQ_INT(r.mtr_length, 5001); /* the size needed; no MTR buffer was given */
  {
    goap_cond want = {t.n, GOAP_EQ, 5000};
    CHECK_EQ_INT(goap_plan_validate(t.f.d, NULL, &want, 1, plan, r.plan_length, NULL, NULL),
                 GOAP_OK);
  }
  /* a buffer too small: the needed length, then fetch */
  r.plan_capacity = 10;
  CHECK_EQ_INT(goap_htn_plan(t.f.p, &q, &r), GOAP_BUFFER_TOO_SMALL);
  CHECK_EQ_INT(r.plan_length, 5000);
  r.plan_capacity = 6000;
  CHECK_EQ_INT(goap_htn_fetch(t.f.p, &r), GOAP_OK);
  CHECK_EQ_INT(plan[4999], t.inc);
  fx_free(&t.f);
  free(plan);
}

/* A cycle through tail positions (T = [U], U = [T] | [a]) keeps the depth constant: it is
 * found as a repeat of (task, rest of the agenda, state) and pruned, so U's second method is
 * reached; with no other method the answer is a cycle, at once. */
TEST(tail_cycle) {
  fixture f;
  char text[64];
  goap_htn_result r;
  memset(&f, 0, sizeof f);
  REQUIRE(goap_builder_create(NULL, &f.b) == GOAP_OK);
  int x = add_bool(f.b, "x", 0);
  goap_effect e = {x, GOAP_SET, 1};
  int a = add_action(f.b, "a", 1, NULL, 0, &e, 1);
  REQUIRE(goap_builder_build(f.b, &f.d) == GOAP_OK);
  REQUIRE(goap_htn_builder_create(f.d, NULL, &f.hb) == GOAP_OK);
  int t = add_task(f.hb, "t"), u = add_task(f.hb, "u"), v = add_task(f.hb, "v"),
      w = add_task(f.hb, "w");
  goap_htn_subtask to_u[] = {S_TASK(u)}, to_t[] = {S_TASK(t)}, do_a[] = {S_ACT(a)};
  goap_htn_subtask to_w[] = {S_TASK(w)}, to_v[] = {S_TASK(v)};
  REQUIRE(add_method(f.hb, t, "m", NULL, 0, to_u, 1) == 0);
  REQUIRE(add_method(f.hb, u, "back", NULL, 0, to_t, 1) == 0);
  REQUIRE(add_method(f.hb, u, "act", NULL, 0, do_a, 1) == 1);
  REQUIRE(add_method(f.hb, v, "m", NULL, 0, to_w, 1) == 0);
  REQUIRE(add_method(f.hb, w, "m", NULL, 0, to_v, 1) == 0);
  REQUIRE(goap_htn_builder_build(f.hb, &f.h) == GOAP_OK);
  REQUIRE(goap_htn_planner_create(f.h, NULL, &f.p) == GOAP_OK);
  goap_htn_request q = req_for(t);
  q.max_steps = 100000; /* without the check: a step limit instead of a plan */
  CHECK_EQ_INT(plan_text(f.h, f.p, &q, text, sizeof text, &r), GOAP_OK);
  CHECK_STR(text, "a");
  q = req_for(v);
  q.max_steps = 100000;
  CHECK_EQ_INT(plan_text(f.h, f.p, &q, text, sizeof text, &r), GOAP_CONFLICT);
  CHECK_EQ_INT(r.stop, GOAP_HTN_STOP_CYCLE);
  CHECK(r.stats.steps < 10);
  fx_free(&f);
}

TEST(budgets_and_cycles) {
  counter_dom t;
  goap_htn_result r;
  char text[64];
  REQUIRE(build_counter(&t, 50) == 0);
  /* left recursion: every chain ends in a method that never applies; the depth limit cuts
   * the loop and the cut is reported as a cycle, not as "no plan" */
  goap_htn_request q = req_for(t.left);
  CHECK_EQ_INT(plan_text(t.f.h, t.f.p, &q, text, sizeof text, &r), GOAP_CONFLICT);
  CHECK_EQ_INT(r.stop, GOAP_HTN_STOP_CYCLE);
  CHECK_EQ_INT(r.stats.max_depth, GOAP_HTN_DEFAULT_MAX_DEPTH);
  CHECK_STR(goap_htn_stop_name(r.stop), "cycle");
  q.max_depth = 10;
  CHECK_EQ_INT(plan_text(t.f.h, t.f.p, &q, text, sizeof text, &r), GOAP_CONFLICT);
  CHECK_EQ_INT(r.stats.max_depth, 10);
  /* step budget */
  q = req_for(t.twice);
  q.max_steps = 1000;
  CHECK_EQ_INT(plan_text(t.f.h, t.f.p, &q, text, sizeof text, &r), GOAP_NODE_LIMIT);
  CHECK_EQ_INT(r.stop, GOAP_HTN_STOP_STEPS);
  CHECK_EQ_INT(r.stats.steps, 1000);
  CHECK_EQ_INT(r.plan_length, 0);
  /* time budget: two recursive methods at depth 1000 never end */
  q.max_steps = 0;
  q.max_ms = 5;
  CHECK_EQ_INT(plan_text(t.f.h, t.f.p, &q, text, sizeof text, &r), GOAP_TIME_LIMIT);
  CHECK_EQ_INT(r.stop, GOAP_HTN_STOP_TIME);
  /* bad requests */
  q = req_for(99);
  CHECK_EQ_INT(plan_text(t.f.h, t.f.p, &q, text, sizeof text, &r), GOAP_INVALID_ARGUMENT);
  q = req_for(t.count);
  q.max_ms = -1;
  CHECK_EQ_INT(plan_text(t.f.h, t.f.p, &q, text, sizeof text, &r), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_htn_plan(NULL, &q, &r), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_htn_plan(t.f.p, NULL, &r), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_htn_plan(t.f.p, &q, NULL), GOAP_INVALID_ARGUMENT);
  fx_free(&t.f);
}

/* ------------------------------------------------------------------------------------------
 * Builder validation
 * ---------------------------------------------------------------------------------------- */
TEST(builder_validation) {
  goap_builder *b = NULL;
  REQUIRE(goap_builder_create(NULL, &b) == GOAP_OK);
  goap_domain *d = NULL;
  int x = add_bool(b, "x", 0), k = add_int(b, "k", 0, 5, 0);
  goap_effect e = {x, GOAP_SET, 1};
  int act = add_action(b, "act", 1, NULL, 0, &e, 1);
  REQUIRE(goap_builder_build(b, &d) == GOAP_OK);
  goap_htn_builder *hb = NULL;
  REQUIRE(goap_htn_builder_create(d, NULL, &hb) == GOAP_OK);
  goap_htn_domain *h = NULL;
  int idx = -1, sub = -1;
  REQUIRE(hb);
  goap_htn_builder *none = hb; /* a failing create sets *out = NULL */
  CHECK_EQ_INT(goap_htn_builder_create(NULL, NULL, &none), GOAP_INVALID_ARGUMENT);
  CHECK(none == NULL);
  CHECK_EQ_INT(goap_htn_builder_create(d, NULL, NULL), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_htn_builder_error(hb)->status, GOAP_OK); /* nothing failed yet */
  CHECK(goap_htn_builder_error(NULL) == NULL);
  int t = add_task(hb, "t");
  CHECK_EQ_INT(goap_htn_builder_add_task(hb, "t", NULL), GOAP_DUPLICATE);
  CHECK(strstr(goap_htn_builder_error(hb)->message, "duplicate task 't'") != NULL);
  CHECK_EQ_INT(goap_htn_builder_error(hb)->status, GOAP_DUPLICATE);
  CHECK_EQ_INT(goap_htn_builder_add_task(hb, "9bad", NULL), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_htn_builder_error_item(hb, NULL, NULL), GOAP_HTN_ITEM_NAME);
  CHECK_EQ_INT(goap_htn_builder_add_task(hb, NULL, NULL), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_htn_builder_find_task(hb, "t"), t);
  CHECK_EQ_INT(goap_htn_builder_find_task(hb, "nope"), -1);
  int u = add_task(hb, "u");
  /* a build with a task without methods */
  {
    goap_htn_subtask s1[] = {S_ACT(act)};
    REQUIRE(add_method(hb, t, "m", NULL, 0, s1, 1) == 0);
    CHECK_EQ_INT(goap_htn_builder_build(hb, &h), GOAP_INVALID_OPERATION);
    CHECK(h == NULL);
    CHECK(strstr(goap_htn_builder_error(hb)->message, "task 'u' has no method") != NULL);
    CHECK_EQ_INT(goap_htn_builder_error_item(hb, &idx, NULL), GOAP_HTN_ITEM_TASK);
    CHECK_EQ_INT(idx, u);
  }
  /* bad methods: nothing added */
  {
    goap_htn_method_desc m;
    goap_cond bad_op = {x, GOAP_LT, 1}, bad_val = {k, GOAP_EQ, 9};
    goap_htn_subtask s_bad_act[] = {S_ACT(act), S_ACT(42)};
    goap_htn_subtask s_bad_task[] = {S_TASK(7)};
    goap_htn_subtask s_bad_ach[] = {S_ACT(act), S_ACHIEVE(&bad_val, 1)};
    goap_effect twice[] = {{x, GOAP_SET, 1}, {x, GOAP_SET, 0}};
    goap_effect add_bool_eff = {x, GOAP_ADD, 1};
    goap_htn_subtask s_bad_set[] = {S_SET(twice, 2)};
    goap_htn_subtask s_bad_set2[] = {S_SET(&add_bool_eff, 1)};
    goap_htn_subtask s_goal = S_ACT(0);
    s_goal.kind = GOAP_HTN_ACHIEVE_GOAL;
    CHECK(add_method(hb, t, "m", NULL, 0, NULL, 0) < 0);
    CHECK_EQ_INT(goap_htn_builder_error_item(hb, NULL, NULL), GOAP_HTN_ITEM_NAME);
    CHECK(add_method(hb, t, "w", &bad_op, 1, NULL, 0) < 0);
    CHECK_EQ_INT(goap_htn_builder_error_item(hb, &idx, NULL), GOAP_HTN_ITEM_WHEN);
    CHECK_EQ_INT(idx, 0);
    CHECK(add_method(hb, t, "w", &bad_val, 1, NULL, 0) < 0);
    CHECK(strstr(goap_htn_builder_error(hb)->message, "outside the range 0..5 of 'k'") != NULL);
    CHECK(add_method(hb, t, "w", NULL, 0, s_bad_act, 2) < 0);
    CHECK_EQ_INT(goap_htn_builder_error_item(hb, &idx, &sub), GOAP_HTN_ITEM_SUBTASK);
    CHECK_EQ_INT(idx, 1);
    CHECK(strstr(goap_htn_builder_error(hb)->message, "unknown action id 42") != NULL);
    CHECK(add_method(hb, t, "w", NULL, 0, s_bad_task, 1) < 0);
    CHECK(strstr(goap_htn_builder_error(hb)->message, "unknown task id 7") != NULL);
    CHECK(add_method(hb, t, "w", NULL, 0, s_bad_ach, 2) < 0);
    CHECK_EQ_INT(goap_htn_builder_error_item(hb, &idx, &sub), GOAP_HTN_ITEM_SUBTASK);
    CHECK_EQ_INT(idx, 1);
    CHECK_EQ_INT(sub, 0);
    CHECK(add_method(hb, t, "w", NULL, 0, s_bad_set, 1) < 0);
    CHECK(strstr(goap_htn_builder_error(hb)->message, "two effects on variable 'x'") != NULL);
    CHECK_EQ_INT(sub, 0);
    goap_htn_builder_error_item(hb, &idx, &sub);
    CHECK_EQ_INT(sub, 1);
    CHECK(add_method(hb, t, "w", NULL, 0, s_bad_set2, 1) < 0);
    CHECK(add_method(hb, t, "w", NULL, 0, &s_goal, 1) < 0);
    CHECK(strstr(goap_htn_builder_error(hb)->message, "unknown goal id 0") != NULL);
    CHECK_EQ_INT(goap_htn_builder_add_method(hb, 99, NULL, NULL), GOAP_INVALID_ARGUMENT);
    memset(&m, 0, sizeof m);
    m.name = "x";
    CHECK_EQ_INT(goap_htn_builder_add_method(hb, 99, &m, NULL), GOAP_INVALID_ARGUMENT);
    m.subtask_count = 2; /* NULL list with a count */
    CHECK_EQ_INT(goap_htn_builder_add_method(hb, t, &m, NULL), GOAP_INVALID_ARGUMENT);
  }
  /* now u gets a method and the build succeeds: the failed calls added nothing */
  {
    goap_htn_subtask s[] = {S_TASK(t), S_PAUSE(), S_TASK(t)};
    REQUIRE(add_method(hb, u, "m", NULL, 0, s, 3) == 0);
    CHECK_EQ_INT(goap_htn_builder_build(hb, &h), GOAP_OK);
    REQUIRE(h);
    CHECK_EQ_INT(goap_htn_domain_task_count(h), 2);
    CHECK_EQ_INT(goap_htn_domain_method_count(h, t), 1);
    CHECK_EQ_INT(goap_htn_domain_find_task(h, "u"), u);
    CHECK_STR(goap_htn_domain_task_name(h, u), "u");
    CHECK_STR(goap_htn_domain_method_name(h, u, 0), "m");
    CHECK(goap_htn_domain_method_name(h, u, 1) == NULL);
    int n = 0;
    const goap_htn_subtask *ss = goap_htn_domain_method_subtasks(h, u, 0, &n);
    CHECK_EQ_INT(n, 3);
    REQUIRE(ss);
    CHECK_EQ_INT(ss[1].kind, GOAP_HTN_PAUSE);
    CHECK(goap_htn_domain_goap(h) == d);
  }
  goap_htn_domain_destroy(h);
  goap_htn_builder_destroy(hb);
  goap_domain_destroy(d);
  goap_builder_destroy(b);
}

/* ------------------------------------------------------------------------------------------
 * Allocation: the shared counting allocator (alloc_hook.h) with failure injection
 * ---------------------------------------------------------------------------------------- */
/* Builds the backtracking domain's HTN part and plans, with allocator a; returns the status
 * of the first failing step or GOAP_OK. */
static goap_status htn_roundtrip(const goap_domain *d, const goap_allocator *a, int *plan_len) {
  goap_htn_builder *hb = NULL;
  goap_htn_builder_create(d, a, &hb);
  goap_htn_domain *h = NULL;
  goap_htn_planner *p = NULL;
  goap_htn_planner_desc pd;
  goap_status st = GOAP_OUT_OF_MEMORY;
  int32_t plan[16];
  goap_htn_result r;
  int t = -1, u = -1;
  goap_cond want = {0, GOAP_EQ, 2};
  goap_htn_subtask s_bad[] = {S_ACT(0), S_ACT(3)};     /* putv_0, getv_1 */
  goap_htn_subtask s_ok[] = {S_ACHIEVE(&want, 1), S_ACT(3), S_TASK(1)};
  goap_htn_subtask s_u[] = {S_ACT(3)};
  if (!hb) return GOAP_OUT_OF_MEMORY;
  if ((st = goap_htn_builder_add_task(hb, "t", &t)) != GOAP_OK) goto out;
  if ((st = goap_htn_builder_add_task(hb, "u", &u)) != GOAP_OK) goto out;
  {
    goap_htn_method_desc m;
    memset(&m, 0, sizeof m);
    m.name = "bad";
    m.subtasks = s_bad;
    m.subtask_count = 2;
    if ((st = goap_htn_builder_add_method(hb, t, &m, NULL)) != GOAP_OK) goto out;
    m.name = "ok";
    m.subtasks = s_ok;
    m.subtask_count = 3;
    if ((st = goap_htn_builder_add_method(hb, t, &m, NULL)) != GOAP_OK) goto out;
    m.name = "u";
    m.subtasks = s_u;
    m.subtask_count = 1;
    if ((st = goap_htn_builder_add_method(hb, u, &m, NULL)) != GOAP_OK) goto out;
  }
  if ((st = goap_htn_builder_build(hb, &h)) != GOAP_OK) goto out;
  memset(&pd, 0, sizeof pd);
  pd.allocator = *a;
  pd.initial_steps = 1; /* force growth during the first plan */
  if (goap_htn_planner_create(h, &pd, &p) != GOAP_OK) {
    st = GOAP_OUT_OF_MEMORY;
    goto out;
  }
  memset(&r, 0, sizeof r);
  r.plan = plan;
  r.plan_capacity = 16;
  goap_htn_request q = req_for(t);
  st = goap_htn_plan(p, &q, &r);
  *plan_len = r.plan_length;
out:
  goap_htn_planner_destroy(p);
  goap_htn_domain_destroy(h);
  goap_htn_builder_destroy(hb);
  return st;
}

TEST(allocation_failures_and_zero_allocations_after_warmup) {
  bt_dom t;
  test_alloc c;
  int len = 0;
  REQUIRE(build_backtracking(&t) == 0);
  memset(&c, 0, sizeof c);
  goap_allocator a = test_alloc_hook(&c);
  CHECK_EQ_INT(htn_roundtrip(t.f.d, &a, &len), GOAP_OK);
  CHECK_EQ_INT(len, 3); /* putv_1 getv_1 getv_1 */
  CHECK_EQ_INT(c.outstanding, 0);
  CHECK_EQ_INT(c.bad_old_size, 0);
  size_t total = c.calls;
  REQUIRE(total > 10);
  /* fail the Nth allocation and every later one: a clean failure, nothing leaks */
  for (size_t n = 1; n <= total; ++n) {
    memset(&c, 0, sizeof c);
    c.fail_at = n;
    c.fail_after = 1;
    len = -1;
    goap_status st = htn_roundtrip(t.f.d, &a, &len);
    CHECK(st == GOAP_OUT_OF_MEMORY);
    CHECK_EQ_INT(c.outstanding, 0);
    CHECK_EQ_INT(c.bad_old_size, 0);
    CHECK_EQ_INT(c.unknown_ptr, 0);
  }
  /* zero allocations per plan after warm-up */
  {
    goap_htn_planner_desc pd;
    goap_htn_result r;
    int32_t plan[16], mtr[16];
    memset(&c, 0, sizeof c);
    memset(&pd, 0, sizeof pd);
    pd.allocator = a;
    pd.initial_steps = 1;
    goap_htn_planner *p = NULL;
    REQUIRE(goap_htn_planner_create(t.f.h, &pd, &p) == GOAP_OK);
    memset(&r, 0, sizeof r);
    r.plan = plan;
    r.plan_capacity = 16;
    r.mtr = mtr;
    r.mtr_capacity = 16;
    goap_htn_request q = req_for(t.root1);
    CHECK_EQ_INT(goap_htn_plan(p, &q, &r), GOAP_OK);
    size_t warm = c.calls;
    for (int i = 0; i < 100; ++i) {
      q = req_for(i % 2 ? t.root1 : t.root0);
      CHECK_EQ_INT(goap_htn_plan(p, &q, &r), GOAP_OK);
      CHECK_EQ_INT(goap_htn_fetch(p, &r), GOAP_OK);
    }
    CHECK_EQ_INT(c.calls, warm);
    goap_htn_planner_destroy(p);
    CHECK_EQ_INT(c.outstanding, 0);
    CHECK_EQ_INT(c.bad_old_size, 0);
  }
  fx_free(&t.f);
}

TEST_MAIN(TEST_ENTRY(gtpyhop_simple_travel), TEST_ENTRY(gtpyhop_backtracking),
          TEST_ENTRY(gtpyhop_sussman), TEST_ENTRY(select_sequence_and_the_troll),
          TEST_ENTRY(partial_plan_pause_and_resume), TEST_ENTRY(mtr_replacement),
          TEST_ENTRY(backtracking_across_siblings_and_depth),
          TEST_ENTRY(achieve_replanned_on_backtracking), TEST_ENTRY(plan_of_5000_steps),
          TEST_ENTRY(budgets_and_cycles), TEST_ENTRY(tail_cycle), TEST_ENTRY(builder_validation),
          TEST_ENTRY(allocation_failures_and_zero_allocations_after_warmup))
