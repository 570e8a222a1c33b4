/*
 * test_inspect.c -- goap/inspect.h: what an agent is thinking.
 *
 *  - the soldier and the door: the plan with each step's cost and the conditions it relies on,
 *    the door_stuck fact learnt when open_door fails, the replans with their reasons and search
 *    statistics (which add up to the agent's own statistics);
 *  - the ranking of goals and why each is not pursued: cooldown after a failed search, an
 *    invalid goal with the condition that fails, an achieved goal, a NaN priority;
 *  - the village: the ranked goals of a villager and its ten-step plan;
 *  - the replan ring (N from the agent desc), capacities, NULL arguments, HTN agents.
 */
#include <goap/file.h>
#include <goap/inspect.h>

#include "test.h"

static goap_file *load(const char *path) {
  goap_file *f = NULL;
  return goap_file_load(path, NULL, &f, NULL) == GOAP_OK ? f : NULL;
}

/* ---- the soldier and the door ----------------------------------------------------------------- */

typedef struct door_host {
  int fresh;                     /* the running action started on this update */
  int open_door;                 /* its id: it fails */
} door_host;

static void door_start(goap_agent *a, int action, void *user) {
  (void)a;
  (void)action;
  ((door_host *)user)->fresh = 1;
}

/* every action takes two updates; open_door then fails (the player holds the door) */
static goap_action_state door_tick(goap_agent *a, int action, double dt, void *user) {
  door_host *h = (door_host *)user;
  (void)a;
  (void)dt;
  if (h->fresh) {
    h->fresh = 0;
    return GOAP_ACTION_RUNNING;
  }
  return action == h->open_door ? GOAP_ACTION_FAILURE : GOAP_ACTION_SUCCESS;
}

TEST(soldier_door_plan_failures_and_replans) {
  goap_file *f = load(GOAP_EXAMPLES_DIR "/soldier.goap");
  REQUIRE(f != NULL);
  const goap_domain *d = goap_file_domain(f);
  int na = goap_domain_action_count(d), ng = goap_domain_goal_count(d);
  goap_action_binding ab[16];
  goap_goal_binding gb[4];
  REQUIRE(na <= 16 && ng <= 4 && goap_file_bindings(f, ab, na, gb, ng) == GOAP_OK);
  door_host h = {0, goap_domain_find_action(d, "open_door")};
  for (int i = 0; i < na; ++i) {
    ab[i].start = door_start;
    ab[i].tick = door_tick;
    ab[i].user = &h;
  }
  goap_agent_type_desc td;
  memset(&td, 0, sizeof td);
  td.actions = ab;
  td.action_count = na;
  td.goals = gb;
  td.goal_count = ng;
  goap_agent_type *t = NULL;
  REQUIRE(goap_agent_type_create(d, &td, &t, NULL) == GOAP_OK);
  goap_agent_desc ad;
  memset(&ad, 0, sizeof ad);
  ad.type = t;
  goap_agent *a = NULL;
  REQUIRE(goap_agent_create(&ad, &a, NULL) == GOAP_OK);
  int kill = goap_domain_find_goal(d, "kill_enemy");
  int get_ammo = goap_domain_find_action(d, "get_ammo");
  int load_mag = goap_domain_find_action(d, "load_magazine");
  int kick = goap_domain_find_action(d, "kick_door");
  int shoot = goap_domain_find_action(d, "shoot");

  /* before the first update: the start replan is open, the goal a candidate */
  goap_replan_info rp[8];
  CHECK_EQ_INT(goap_agent_inspect_replans(a, rp, 8), 1);
  CHECK_EQ_INT(rp[0].reason, GOAP_REPLAN_START);
  CHECK_EQ_INT(rp[0].status, GOAP_IN_PROGRESS);
  goap_goal_info gi[4];
  CHECK_EQ_INT(goap_agent_inspect_goals(a, gi, 4), 1);
  CHECK_EQ_INT(gi[0].goal, kill);
  CHECK_EQ_INT(gi[0].state, GOAP_GOAL_CANDIDATE);
  CHECK(gi[0].priority == 10);
  CHECK(gi[0].failed_at == -1);
  goap_plan_info pi;
  CHECK_EQ_INT(goap_agent_inspect_plan(a, &pi, NULL, 0, NULL, 0), GOAP_OK);
  CHECK_EQ_INT(pi.goal, -1);
  CHECK_EQ_INT(pi.length, 0);

  /* t = 0: get_ammo, load_magazine, open_door, shoot; get_ammo runs */
  CHECK_EQ_INT(goap_agent_update(a, 0), GOAP_OK);
  CHECK_EQ_INT(goap_agent_inspect_plan(a, &pi, NULL, 0, NULL, 0), GOAP_BUFFER_TOO_SMALL);
  CHECK_EQ_INT(pi.length, 4);
  CHECK_EQ_INT(pi.cond_count, 2); /* !armory_empty (get_ammo), !door_stuck (open_door) */
  goap_plan_step_info st[8];
  goap_cond conds[8];
  CHECK_EQ_INT(goap_agent_inspect_plan(a, &pi, st, 8, conds, 1), GOAP_BUFFER_TOO_SMALL);
  REQUIRE(goap_agent_inspect_plan(a, &pi, st, 8, conds, 8) == GOAP_OK);
  CHECK_EQ_INT(pi.goal, kill);
  CHECK(pi.cost == 4 && pi.priority == 10);
  CHECK_EQ_INT(pi.step, 0);
  CHECK_EQ_INT(pi.running, 1);
  CHECK_EQ_INT(st[0].action, get_ammo);
  CHECK_EQ_INT(st[0].state, GOAP_STEP_RUNNING);
  CHECK_EQ_INT(st[1].action, load_mag);
  CHECK_EQ_INT(st[1].state, GOAP_STEP_PENDING);
  CHECK_EQ_INT(st[2].action, h.open_door);
  CHECK_EQ_INT(st[3].action, shoot);
  CHECK(st[0].cost == 1 && st[1].cost == 1 && st[2].cost == 1 && st[3].cost == 1);
  /* what each step still needs from memory: get_ammo !armory_empty; load_magazine has_ammo
   * comes from get_ammo; open_door !door_stuck; shoot's in_b and loaded come from the plan */
  CHECK_EQ_INT(st[0].relies_count, 1);
  CHECK_EQ_INT(st[0].relies_first, 0);
  CHECK_EQ_INT(conds[0].var, goap_domain_find_var(d, "armory_empty"));
  CHECK_EQ_INT(st[1].relies_count, 0);
  CHECK_EQ_INT(st[2].relies_count, 1);
  CHECK_EQ_INT(st[2].relies_first, 1);
  CHECK_EQ_INT(conds[1].var, goap_domain_find_var(d, "door_stuck"));
  CHECK_EQ_INT(st[3].relies_count, 0);
  for (int i = 0; i < 4; ++i) CHECK_EQ_INT(st[i].relies_hold, 1);
  CHECK_EQ_INT(goap_agent_inspect_replans(a, rp, 8), 1);
  CHECK_EQ_INT(rp[0].status, GOAP_OK);
  CHECK_EQ_INT(rp[0].goal, kill);
  CHECK_EQ_INT(rp[0].goals_tried, 1);
  CHECK_EQ_INT(rp[0].plan_length, 4);
  CHECK(rp[0].cost == 4 && rp[0].time == 0);
  CHECK_EQ_INT(rp[0].cached, 0);
  CHECK(rp[0].expanded > 0 && rp[0].generated >= rp[0].expanded);
  CHECK_EQ_INT(rp[0].expanded, goap_agent_get_stats(a).expanded);
  CHECK(rp[0].search_us >= 0);
  CHECK_EQ_INT(goap_agent_inspect_goals(a, gi, 4), 1);
  CHECK_EQ_INT(gi[0].state, GOAP_GOAL_CURRENT);
  goap_failure_info fi[4];
  CHECK_EQ_INT(goap_agent_inspect_failures(a, fi, 4), 0);

  /* get_ammo (t 0-1), load_magazine (2-3), open_door starts at 4 and fails at 5 */
  for (int i = 0; i < 4; ++i) CHECK_EQ_INT(goap_agent_update(a, 1), GOAP_OK);
  REQUIRE(goap_agent_inspect_plan(a, &pi, st, 8, conds, 8) == GOAP_OK);
  CHECK_EQ_INT(pi.step, 2);
  CHECK_EQ_INT(st[0].state, GOAP_STEP_DONE);
  CHECK_EQ_INT(st[0].relies_count, 0);
  CHECK_EQ_INT(st[2].state, GOAP_STEP_RUNNING);
  CHECK(pi.action_time == 0);
  CHECK_EQ_INT(pi.cond_count, 2); /* !door_stuck; shoot's loaded now comes from memory */
  CHECK_EQ_INT(st[3].relies_count, 1);
  CHECK_EQ_INT(conds[st[3].relies_first].var, goap_domain_find_var(d, "loaded"));
  CHECK_EQ_INT(goap_agent_update(a, 1), GOAP_OK); /* t 5: open_door FAILED */
  CHECK_EQ_INT(goap_agent_get(a, goap_domain_find_var(d, "door_stuck")), 1);
  CHECK_EQ_INT(goap_agent_inspect_failures(a, fi, 4), 1);
  CHECK_EQ_INT(fi[0].goal, -1);
  CHECK_EQ_INT(fi[0].action, h.open_door);
  CHECK_EQ_INT(fi[0].var, goap_domain_find_var(d, "door_stuck"));
  CHECK_EQ_INT(fi[0].value, 1);
  CHECK_EQ_INT(fi[0].timeout, 0);
  CHECK(fi[0].learnt == 5);
  CHECK(isinf(fi[0].expires) && fi[0].expires > 0);
  CHECK_EQ_INT(goap_agent_inspect_replans(a, rp, 8), 2);
  CHECK_EQ_INT(rp[1].reason, GOAP_REPLAN_ACTION_FAILED);
  CHECK_EQ_INT(rp[1].status, GOAP_IN_PROGRESS);
  CHECK(rp[1].time == 5);
  /* t 6: kick_door, shoot (the magazine is loaded already): cost 4 */
  CHECK_EQ_INT(goap_agent_update(a, 1), GOAP_OK);
  CHECK_EQ_INT(goap_agent_inspect_replans(a, rp, 8), 2);
  CHECK_EQ_INT(rp[1].status, GOAP_OK);
  CHECK_EQ_INT(rp[1].goal, kill);
  CHECK_EQ_INT(rp[1].plan_length, 2);
  CHECK(rp[1].cost == 4);
  CHECK_EQ_INT(rp[0].expanded + rp[1].expanded, goap_agent_get_stats(a).expanded);
  REQUIRE(goap_agent_inspect_plan(a, &pi, st, 8, conds, 8) == GOAP_OK);
  CHECK_EQ_INT(pi.length, 2);
  CHECK_EQ_INT(st[0].action, kick);
  CHECK(st[0].cost == 3);
  CHECK_EQ_INT(st[0].relies_count, 1); /* !kick_failed */
  CHECK_EQ_INT(conds[0].var, goap_domain_find_var(d, "kick_failed"));
  CHECK_EQ_INT(st[1].relies_count, 1); /* shoot: loaded, from memory; in_b from the kick */
  CHECK_EQ_INT(conds[1].var, goap_domain_find_var(d, "loaded"));
  CHECK_EQ_INT(st[1].relies_hold, 1);
  /* the host takes the magazine out: shoot no longer holds, and inspection says so */
  goap_agent_set(a, goap_domain_find_var(d, "loaded"), 0);
  REQUIRE(goap_agent_inspect_plan(a, &pi, st, 8, conds, 8) == GOAP_OK);
  CHECK_EQ_INT(st[1].relies_hold, 0);
  CHECK_EQ_INT(st[0].relies_hold, 1);
  /* the host forgets door_stuck: the fact is no longer reported */
  goap_agent_set(a, goap_domain_find_var(d, "door_stuck"), 0);
  CHECK_EQ_INT(goap_agent_inspect_failures(a, fi, 4), 0);
  goap_agent_destroy(a);
  goap_agent_type_destroy(t);
  goap_file_destroy(f);
}

/* ---- why goals are not pursued ----------------------------------------------------------------- */

static const char *const ranks_text =
    "domain ranks\n"
    "var key: bool\n"
    "var open: bool\n"
    "var fed: bool\n"
    "var door_ok: bool\n"
    "var never: bool\n"
    "action get_key\n  cost 1\n  eff key\n"
    "action open_it\n  cost 2\n  pre key\n  eff open\n"
    "action eat\n  cost 1\n  eff fed\n"
    "goal unreachable\n  priority 9\n  want never\n"
    "goal guarded\n  priority 8\n  want fed\n"
    "goal done_already\n  priority 7\n  want !never\n"
    "goal open_door\n  priority 5\n  want open\n"
    "goal eat_later\n  priority 4\n  want fed\n"
    "goal nan_goal\n  priority 3\n  want key\n";

/* actions that take forever: memory stays as the plan found it */
static goap_action_state running(goap_agent *a, int action, double dt, void *user) {
  (void)a;
  (void)action;
  (void)dt;
  (void)user;
  return GOAP_ACTION_RUNNING;
}

static double nan_priority(goap_agent *a, int goal, void *user) {
  (void)a;
  (void)goal;
  (void)user;
  return NAN;
}

TEST(goal_ranking_and_reasons) {
  goap_file *f = NULL;
  REQUIRE(goap_file_parse("ranks.goap", ranks_text, strlen(ranks_text), NULL, &f, NULL) ==
          GOAP_OK);
  const goap_domain *d = goap_file_domain(f);
  goap_goal_binding gb[6];
  memset(gb, 0, sizeof gb);
  goap_cond door_ok = {goap_domain_find_var(d, "door_ok"), GOAP_EQ, 1};
  gb[1].valid = &door_ok;
  gb[1].valid_count = 1;
  gb[5].priority = nan_priority;
  goap_action_binding ab[3];
  memset(ab, 0, sizeof ab);
  for (int i = 0; i < 3; ++i) ab[i].tick = running;
  goap_agent_type_desc td;
  memset(&td, 0, sizeof td);
  td.actions = ab;
  td.action_count = 3;
  td.goals = gb;
  td.goal_count = 6;
  goap_agent_type *t = NULL;
  REQUIRE(goap_agent_type_create(d, &td, &t, NULL) == GOAP_OK);
  goap_agent_desc ad;
  memset(&ad, 0, sizeof ad);
  ad.type = t;
  goap_agent *a = NULL;
  REQUIRE(goap_agent_create(&ad, &a, NULL) == GOAP_OK);
  goap_status us = goap_agent_update(a, 0);
  CHECK_EQ_INT(us, GOAP_OK);
  goap_goal_info gi[8];
  CHECK_EQ_INT(goap_agent_inspect_goals(a, gi, 8), 6);
  static const char *const want_names[] = {"unreachable", "guarded",  "done_already",
                                           "open_door",   "eat_later", "nan_goal"};
  static const goap_goal_state want_states[] = {GOAP_GOAL_COOLDOWN, GOAP_GOAL_INVALID,
                                                GOAP_GOAL_ACHIEVED, GOAP_GOAL_CURRENT,
                                                GOAP_GOAL_CANDIDATE, GOAP_GOAL_NO_PRIORITY};
  for (int i = 0; i < 6; ++i) {
    CHECK_STR(goap_domain_goal_name(d, gi[i].goal), want_names[i]);
    CHECK_EQ_INT(gi[i].state, want_states[i]);
  }
  CHECK_STR(goap_goal_state_name(gi[0].state), "cooldown");
  CHECK_STR(goap_goal_state_name(gi[5].state), "no_priority");
  CHECK_STR(goap_goal_state_name((goap_goal_state)99), "unknown");
  CHECK(gi[0].priority == 9 && gi[3].priority == 5 && isnan(gi[5].priority));
  CHECK(gi[0].failed_at == 0);
  CHECK_EQ_INT(gi[0].fail_status, GOAP_NO_PLAN);
  CHECK(gi[0].retry_at == 2.0); /* the default failed_goal_cooldown */
  CHECK_EQ_INT(gi[1].failed_cond.var, door_ok.var);
  CHECK_EQ_INT(gi[1].failed_cond.op, GOAP_EQ);
  CHECK_EQ_INT(gi[1].failed_cond.value, 1);
  CHECK_EQ_INT(gi[2].failed_cond.var, -1);
  /* a capacity of 2: the two best */
  goap_goal_info top[2];
  CHECK_EQ_INT(goap_agent_inspect_goals(a, top, 2), 6);
  CHECK_EQ_INT(top[0].goal, gi[0].goal);
  CHECK_EQ_INT(top[1].goal, gi[1].goal);
  CHECK_EQ_INT(goap_agent_inspect_goals(a, NULL, 0), 6);
  /* the failure memory: the goal in its cooldown */
  goap_failure_info fi[4];
  CHECK_EQ_INT(goap_agent_inspect_failures(a, fi, 4), 1);
  CHECK_EQ_INT(fi[0].goal, gi[0].goal);
  CHECK_EQ_INT(fi[0].status, GOAP_NO_PLAN);
  CHECK(fi[0].learnt == 0 && fi[0].expires == 2.0);
  goap_replan_info rp[4];
  CHECK_EQ_INT(goap_agent_inspect_replans(a, rp, 4), 1);
  CHECK_EQ_INT(rp[0].goals_tried, 2); /* unreachable, then open_door */
  CHECK_EQ_INT(rp[0].goal, gi[3].goal);
  CHECK_EQ_INT(rp[0].plan_length, 2);
  CHECK(rp[0].cost == 3);
  /* an order: the goal is marked and ranked with the order's priority */
  CHECK_EQ_INT(goap_agent_order(a, gi[4].goal, 20), GOAP_OK);
  CHECK_EQ_INT(goap_agent_inspect_goals(a, gi, 8), 6);
  CHECK_STR(goap_domain_goal_name(d, gi[0].goal), "eat_later");
  CHECK_EQ_INT(gi[0].ordered, 1);
  CHECK(gi[0].priority == 20);
  /* memory changes: the cooldown no longer holds (the goal is tried again) */
  goap_agent_set(a, goap_domain_find_var(d, "fed"), 1);
  CHECK_EQ_INT(goap_agent_inspect_failures(a, fi, 4), 0);
  goap_agent_destroy(a);
  goap_agent_type_destroy(t);
  goap_file_destroy(f);
}

/* ---- the village -------------------------------------------------------------------------------- */

TEST(village_goals_and_plan) {
  goap_file *f = load(GOAP_EXAMPLES_DIR "/village.goap");
  REQUIRE(f != NULL);
  const goap_domain *d = goap_file_domain(f);
  int ng = goap_domain_goal_count(d);
  REQUIRE(ng == 6);
  /* the festival needs the chapel, the shelter four saws: both invalid in the house scenario */
  goap_goal_binding gb[6];
  memset(gb, 0, sizeof gb);
  goap_cond chapel = {goap_domain_find_var(d, "chapel"), GOAP_EQ, 1};
  goap_cond saws = {goap_domain_find_var(d, "saw"), GOAP_GE, 4};
  gb[goap_domain_find_goal(d, "hold_festival")].valid = &chapel;
  gb[goap_domain_find_goal(d, "hold_festival")].valid_count = 1;
  gb[goap_domain_find_goal(d, "shelter")].valid = &saws;
  gb[goap_domain_find_goal(d, "shelter")].valid_count = 1;
  int na = goap_domain_action_count(d);
  goap_action_binding *ab = (goap_action_binding *)calloc((size_t)na, sizeof *ab);
  REQUIRE(ab != NULL);
  for (int i = 0; i < na; ++i) ab[i].tick = running;
  goap_agent_type_desc td;
  memset(&td, 0, sizeof td);
  td.actions = ab;
  td.action_count = na;
  td.goals = gb;
  td.goal_count = ng;
  td.search = GOAP_SEARCH_GREEDY;
  td.heuristic = GOAP_H_FF;
  goap_agent_type *t = NULL;
  goap_status tst = goap_agent_type_create(d, &td, &t, NULL);
  free(ab);
  REQUIRE(tst == GOAP_OK);
  const goap_scenario *sc = goap_file_scenario(f, goap_file_find_scenario(f, "house"));
  REQUIRE(sc != NULL);
  goap_word mem[16];
  REQUIRE(goap_domain_state_words(d) <= 16);
  goap_state_init(d, mem);
  goap_state_assign(d, mem, sc->given, sc->given_count);
  goap_agent_desc ad;
  memset(&ad, 0, sizeof ad);
  ad.type = t;
  ad.memory = mem;
  ad.replan_history = 2;
  goap_agent *a = NULL;
  REQUIRE(goap_agent_create(&ad, &a, NULL) == GOAP_OK);
  goap_status us = GOAP_IN_PROGRESS;
  for (int i = 0; i < 100 && us == GOAP_IN_PROGRESS; ++i) us = goap_agent_update(a, 0.1);
  CHECK_EQ_INT(us, GOAP_OK);
  goap_goal_info gi[6];
  CHECK_EQ_INT(goap_agent_inspect_goals(a, gi, 6), 6);
  static const char *const want_names[] = {"hold_festival", "shelter",   "build_house",
                                           "dig_well",      "open_stall", "iron_tools"};
  static const goap_goal_state want_states[] = {GOAP_GOAL_INVALID,   GOAP_GOAL_INVALID,
                                                GOAP_GOAL_CURRENT,   GOAP_GOAL_CANDIDATE,
                                                GOAP_GOAL_CANDIDATE, GOAP_GOAL_CANDIDATE};
  static const double want_prio[] = {8, 6, 5, 4, 3, 2};
  for (int i = 0; i < 6; ++i) {
    CHECK_STR(goap_domain_goal_name(d, gi[i].goal), want_names[i]);
    CHECK_EQ_INT(gi[i].state, want_states[i]);
    CHECK(gi[i].priority == want_prio[i]);
  }
  CHECK_EQ_INT(gi[0].failed_cond.var, chapel.var);
  CHECK_EQ_INT(gi[1].failed_cond.var, saws.var);
  CHECK_EQ_INT(gi[1].failed_cond.op, GOAP_GE);
  /* the plan: ten steps ending with build_house, costs adding up to the plan's (18) */
  goap_plan_info pi;
  goap_plan_step_info st[32];
  goap_cond conds[64];
  REQUIRE(goap_agent_inspect_plan(a, &pi, st, 32, conds, 64) == GOAP_OK);
  CHECK_EQ_INT(pi.length, 10);
  CHECK(pi.cost == 18);
  CHECK_STR(goap_domain_action_name(d, st[9].action), "build_house");
  double sum = 0;
  int plan_len = 0;
  const int32_t *plan = goap_agent_plan(a, &plan_len, NULL);
  CHECK_EQ_INT(plan_len, 10);
  for (int i = 0; i < pi.length; ++i) {
    sum += st[i].cost;
    CHECK_EQ_INT(st[i].action, plan[i]);
    CHECK(st[i].cost == goap_domain_action_cost(d, st[i].action));
    CHECK_EQ_INT(st[i].state, i == 0 ? GOAP_STEP_RUNNING : GOAP_STEP_PENDING);
    /* every condition a step relies on is one of its preconditions, and holds now (the
     * plan was made from this memory and nothing before the step provides it) */
    int np = 0;
    const goap_cond *pre = goap_domain_action_pre(d, st[i].action, &np);
    for (int k = 0; k < st[i].relies_count; ++k) {
      const goap_cond *c = &conds[st[i].relies_first + k];
      int found = 0;
      for (int j = 0; j < np; ++j)
        found |= pre[j].var == c->var && pre[j].op == c->op && pre[j].value == c->value;
      CHECK(found);
      CHECK(goap_state_satisfies(d, goap_agent_memory(a), c, 1));
    }
    CHECK_EQ_INT(st[i].relies_hold, 1);
  }
  CHECK(sum == 18);
  CHECK(st[0].relies_count > 0);
  /* three replans with a history of two: the last two, oldest first */
  goap_agent_replan(a);
  goap_agent_reset(a);
  goap_replan_info rp[4];
  CHECK_EQ_INT(goap_agent_inspect_replans(a, rp, 4), 2);
  CHECK_EQ_INT(rp[0].reason, GOAP_REPLAN_REQUESTED);
  CHECK_EQ_INT(rp[1].reason, GOAP_REPLAN_START);
  CHECK_EQ_INT(goap_agent_inspect_replans(a, rp, 1), 2);
  CHECK_EQ_INT(rp[0].reason, GOAP_REPLAN_START);
  goap_agent_destroy(a);
  goap_agent_type_destroy(t);
  goap_file_destroy(f);
}

/* ---- arguments ---------------------------------------------------------------------------------- */

TEST(arguments_and_htn_agents) {
  goap_goal_info gi;
  goap_plan_info pi;
  goap_plan_step_info st;
  goap_cond c;
  goap_replan_info rp;
  goap_failure_info fi;
  CHECK_EQ_INT(goap_agent_inspect_goals(NULL, &gi, 1), -1);
  CHECK_EQ_INT(goap_agent_inspect_replans(NULL, &rp, 1), -1);
  CHECK_EQ_INT(goap_agent_inspect_failures(NULL, &fi, 1), -1);
  CHECK_EQ_INT(goap_agent_inspect_plan(NULL, &pi, &st, 1, &c, 1), GOAP_INVALID_ARGUMENT);
  goap_file *f = load(GOAP_EXAMPLES_DIR "/trunk_thumper.goap");
  REQUIRE(f != NULL);
  const goap_domain *d = goap_file_domain(f);
  int type = 0;
  const int32_t *w = NULL;
  int nw = 0;
  int root = goap_file_agent_type_htn(f, type, &w, &nw);
  REQUIRE(root >= 0);
  goap_agent_type_desc td;
  memset(&td, 0, sizeof td);
  td.htn = goap_file_htn(f);
  td.htn_root = root;
  goap_agent_type *t = NULL;
  REQUIRE(goap_agent_type_create(d, &td, &t, NULL) == GOAP_OK);
  goap_agent_desc ad;
  memset(&ad, 0, sizeof ad);
  ad.type = t;
  goap_agent *a = NULL;
  REQUIRE(goap_agent_create(&ad, &a, NULL) == GOAP_OK);
  CHECK_EQ_INT(goap_agent_inspect_goals(a, &gi, -1), -1);
  CHECK_EQ_INT(goap_agent_inspect_goals(a, NULL, 1), -1);
  CHECK_EQ_INT(goap_agent_inspect_plan(a, NULL, NULL, 0, NULL, 0), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_agent_inspect_plan(a, &pi, NULL, 1, NULL, 0), GOAP_INVALID_ARGUMENT);
  goap_agent_update(a, 0);
  CHECK_EQ_INT(goap_agent_inspect_goals(a, &gi, 1), 0); /* HTN agents have no goals */
  CHECK_EQ_INT(goap_agent_inspect_replans(a, &rp, 1), 1);
  CHECK_EQ_INT(rp.reason, GOAP_REPLAN_START);
  CHECK_EQ_INT(rp.status, GOAP_OK);
  CHECK_EQ_INT(rp.goal, -1);
  CHECK_EQ_INT(goap_agent_inspect_plan(a, &pi, NULL, 0, NULL, 0),
               pi.length ? GOAP_BUFFER_TOO_SMALL : GOAP_OK);
  CHECK_EQ_INT(pi.length, rp.plan_length);
  goap_agent_destroy(a);
  /* no history: nothing kept, and less memory */
  ad.replan_history = -1;
  REQUIRE(goap_agent_create(&ad, &a, NULL) == GOAP_OK);
  goap_agent_desc ad8 = ad;
  ad8.replan_history = 0;
  goap_agent *b = NULL;
  REQUIRE(goap_agent_create(&ad8, &b, NULL) == GOAP_OK);
  goap_agent_update(a, 0);
  goap_agent_update(b, 0);
  CHECK_EQ_INT(goap_agent_inspect_replans(a, &rp, 1), 0);
  CHECK_EQ_INT(goap_agent_inspect_replans(b, &rp, 1), 1);
  CHECK_EQ_INT(goap_agent_get_stats(b).memory_bytes - goap_agent_get_stats(a).memory_bytes,
               8 * (sizeof(goap_replan_info) + sizeof(goap_failure_info)));
  goap_agent_destroy(a);
  goap_agent_destroy(b);
  goap_agent_type_destroy(t);
  goap_file_destroy(f);
}

/* A goal's own `cooldown` (goap_goal_binding.cooldown): after its plan fails, inspection says
 * COOLDOWN with retry_at = the plan's end + the cooldown, and CANDIDATE again afterwards. */
static goap_action_state always_fail(goap_agent *a, int action, double dt, void *user) {
  (void)a;
  (void)action;
  (void)dt;
  (void)user;
  return GOAP_ACTION_FAILURE;
}

TEST(goal_own_cooldown) {
  static const char text[] = "var door_open: bool\nvar patrolled: bool\n"
                             "action open_door\n  eff door_open\n"
                             "action patrol\n  eff patrolled\n"
                             "goal get_in\n  priority 2\n  want door_open\n  cooldown 4\n"
                             "goal guard\n  priority 1\n  want patrolled\n";
  goap_file *f = NULL;
  REQUIRE(goap_file_parse("cd.goap", text, sizeof text - 1, NULL, &f, NULL) == GOAP_OK);
  const goap_domain *d = goap_file_domain(f);
  goap_action_binding ab[2];
  goap_goal_binding gb[2];
  REQUIRE(goap_file_bindings(f, ab, 2, gb, 2) == GOAP_OK);
  CHECK(gb[0].cooldown == 4.0);
  ab[0].tick = always_fail; /* open_door fails at once; patrol runs for ever */
  ab[1].tick = running;
  goap_agent_type_desc td;
  memset(&td, 0, sizeof td);
  td.actions = ab;
  td.action_count = 2;
  td.goals = gb;
  td.goal_count = 2;
  goap_agent_type *t = NULL;
  REQUIRE(goap_agent_type_create(d, &td, &t, NULL) == GOAP_OK);
  goap_agent_desc ad;
  memset(&ad, 0, sizeof ad);
  ad.type = t;
  goap_agent *a = NULL;
  REQUIRE(goap_agent_create(&ad, &a, NULL) == GOAP_OK);
  for (int i = 0; i < 3; ++i) CHECK_EQ_INT(goap_agent_update(a, 0.5), GOAP_OK);
  goap_goal_info gi[2];
  CHECK_EQ_INT(goap_agent_inspect_goals(a, gi, 2), 2);
  CHECK_STR(goap_domain_goal_name(d, gi[0].goal), "get_in");
  CHECK_EQ_INT(gi[0].state, GOAP_GOAL_COOLDOWN);
  CHECK(gi[0].retry_at > 0.4 && gi[0].retry_at < 4.6); /* its plan ended at 0 or 0.5 */
  CHECK_EQ_INT(gi[1].state, GOAP_GOAL_CURRENT);
  double until = gi[0].retry_at;
  while (goap_agent_time(a) < until + 0.01) CHECK_EQ_INT(goap_agent_update(a, 0.5), GOAP_OK);
  CHECK_EQ_INT(goap_agent_inspect_goals(a, gi, 2), 2);
  CHECK_STR(goap_domain_goal_name(d, gi[0].goal), "get_in");
  CHECK(gi[0].state != GOAP_GOAL_COOLDOWN);
  goap_agent_destroy(a);
  goap_agent_type_destroy(t);
  goap_file_destroy(f);
}

TEST_MAIN(TEST_ENTRY(soldier_door_plan_failures_and_replans), TEST_ENTRY(goal_ranking_and_reasons),
          TEST_ENTRY(village_goals_and_plan), TEST_ENTRY(arguments_and_htn_agents), TEST_ENTRY(goal_own_cooldown))
