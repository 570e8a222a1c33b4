/*
 * agent_htn.c -- HTN agents (an agent type with an HTN domain): planning the root task from
 * memory, continuing a plan after a `pause`, looking for a better plan when a watched variable
 * changed (the MTR rule), and checking each step before it starts. Split from agent.c, which
 * creates the HTN planners (goap__agent_htn_planner_create) and calls these from its update.
 *
 * Invariants:
 *  - goal is always -1: no goal is ever a candidate. plan[0..plan_len) is the running plan up
 *    to its next `pause` (paused = 1: hp holds the continuation, resumed from memory when the
 *    last step is done); mtr[0..mtr_len) is its method traversal record from the root.
 *  - A search for a better plan runs on hp_try into try_plan / try_mtr, bounded by the running
 *    MTR, so the running plan and its continuation survive when nothing better is found;
 *    adopting the new plan swaps the buffers and the planners, so a warm HTN agent does not
 *    allocate.
 *  - A plan or a continuation runs only with all its reservations held; a refusal drops it and
 *    the agent plans again from the root.
 */
#include <string.h>

#include "agent_impl.h"

/* ---- HTN agents ------------------------------------------------------------------------------ */

/* Decomposes the root task from memory (resume: continues the pause that ended the plan of
 * *pp) on *pp (created now if needed), bounded by the MTR bound[0..bound_len) when bound is
 * not NULL; the plan and MTR go to *plan / *mtr, grown as needed. Returns the planner's status
 * (GOAP_OK, GOAP_PARTIAL, a failure) or GOAP_OUT_OF_MEMORY. */
static goap_status htn_search(goap_agent *a, goap_htn_planner **pp, int resume,
                              const int32_t *bound, int bound_len, int32_t **plan, size_t *pcap,
                              int32_t **mtr, size_t *mcap, goap_htn_result *res) {
  const goap_agent_type *t = a->t;
  if (!*pp && !(*pp = goap__agent_htn_planner_create(a))) return GOAP_OUT_OF_MEMORY;
  goap_htn_request rq;
  memset(&rq, 0, sizeof rq);
  rq.start = a->mem;
  rq.task = t->htn_root;
  rq.max_steps = t->max_nodes;
  rq.max_ms = t->budget_ms;
  rq.mtr_bound = bound;
  rq.mtr_bound_length = bound ? bound_len : 0;
  rq.achieve_search = t->search;
  rq.achieve_heuristic = t->heuristic;
  rq.achieve_max_nodes = t->max_nodes;
  rq.host = a;
  memset(res, 0, sizeof *res);
  res->plan = *plan;
  res->plan_capacity = (int)(*pcap > 0x7fffffff ? 0x7fffffff : *pcap);
  res->mtr = *mtr;
  res->mtr_capacity = (int)(*mcap > 0x7fffffff ? 0x7fffffff : *mcap);
  goap_status st = resume ? goap_htn_resume(*pp, a->mem, &rq, res) : goap_htn_plan(*pp, &rq, res);
  a->st.expanded += res->stats.steps;
  if (st == GOAP_BUFFER_TOO_SMALL) {
    if (!goap__grow_zero(&a->alloc, (void **)plan, pcap, (size_t)res->plan_length + 1,
                       sizeof **plan) ||
        !goap__grow_zero(&a->alloc, (void **)mtr, mcap, (size_t)res->mtr_length + 1, sizeof **mtr))
      return GOAP_OUT_OF_MEMORY;
    res->plan = *plan;
    res->plan_capacity = (int)*pcap;
    res->mtr = *mtr;
    res->mtr_capacity = (int)*mcap;
    st = goap_htn_fetch(*pp, res);
  }
  return st;
}

static void htn_plan_failed(goap_agent *a, goap_status why) {
  a->st.plan_failures++;
  goap__hist_close(a, GOAP_NO_PLAN, -1, 0, 0);
  goap_agent_event ev;
  goap__agent_ev_init(&ev, GOAP_EVENT_PLAN_FAILED);
  ev.status = why;
  goap__agent_emit(a, &ev);
}

/* The plan in a->plan[0..len) runs from its first step; reason NONE reports a continuation
 * after a `pause` (not counted as a plan adopted). */
static void htn_adopt(goap_agent *a, const goap_htn_result *res, goap_replan_reason reason) {
  a->plan_len = res->plan_length;
  a->step = 0;
  a->plan_cost = res->cost;
  a->mtr_len = res->mtr_length;
  a->paused = res->paused;
  a->goal = -1;
  a->running = 0;
  a->ph = GOAP__AGENT_EXECUTE;
  a->searching = 0;
  a->idle_reported = 0;
  if (reason != GOAP_REPLAN_NONE) {
    a->st.plans++;
    goap__hist_close(a, GOAP_OK, -1, res->cost, res->plan_length);
  }
  goap_agent_event ev;
  goap__agent_ev_init(&ev, GOAP_EVENT_PLAN);
  ev.plan = a->plan;
  ev.plan_length = a->plan_len;
  ev.cost = a->plan_cost;
  ev.reason = reason;
  goap__agent_emit(a, &ev);
}

/* Plans the root task from memory. GOAP_OK: adopted; GOAP_NO_PLAN: no decomposition, nothing
 * to do (an empty plan) or a reservation refused: the agent idles and retries. */
goap_status goap__agent_htn_select(goap_agent *a) {
  int from_idle = a->from_idle;
  a->from_idle = 0;
  goap_htn_result res;
  goap_status st = htn_search(a, &a->hp, 0, NULL, 0, &a->plan, &a->plan_cap, &a->mtr,
                              &a->mtr_cap, &res);
  if (st == GOAP_OUT_OF_MEMORY) return st;
  a->plan_len = a->mtr_len = 0;
  if (st != GOAP_OK && st != GOAP_PARTIAL) {
    if (!a->idle_reported) htn_plan_failed(a, st);
    else a->st.plan_failures++;
    return GOAP_NO_PLAN;
  }
  if (res.plan_length == 0 && !res.paused) return GOAP_NO_PLAN; /* nothing to do */
  int refused = goap__agent_reserve_plan(a, a->plan, res.plan_length);
  if (refused == -2) return GOAP_OUT_OF_MEMORY;
  if (refused >= 0) return GOAP_NO_PLAN;
  if (from_idle) {
    a->st.replans[GOAP_REPLAN_IDLE]++;
    goap__hist_open(a, GOAP_REPLAN_IDLE);
    goap_agent_event ev;
    goap__agent_ev_init(&ev, GOAP_EVENT_REPLAN);
    ev.reason = GOAP_REPLAN_IDLE;
    goap__agent_emit(a, &ev);
    a->reason = GOAP_REPLAN_IDLE;
  }
  htn_adopt(a, &res, a->reason);
  return GOAP_OK;
}

/* A watched variable changed: look for a plan of higher priority than the running one (the
 * MTR rule). Found: it replaces the running plan (its action is stopped). Otherwise the
 * running plan goes on untouched. */
goap_status goap__agent_htn_try_better(goap_agent *a) {
  goap_htn_result res;
  goap_status st = htn_search(a, &a->hp_try, 0, a->mtr, a->mtr_len, &a->try_plan,
                              &a->try_plan_cap, &a->try_mtr, &a->try_mtr_cap, &res);
  if (st == GOAP_OUT_OF_MEMORY) return st;
  if (st != GOAP_OK && st != GOAP_PARTIAL) return GOAP_OK; /* nothing better: keep */
  if (goap_htn_mtr_compare(a->try_mtr, res.mtr_length, a->mtr, a->mtr_len) >= 0) return GOAP_OK;
  goap__agent_need_plan(a, GOAP_REPLAN_WATCH);
  int32_t *p = a->plan;
  size_t c = a->plan_cap;
  a->plan = a->try_plan;
  a->plan_cap = a->try_plan_cap;
  a->try_plan = p;
  a->try_plan_cap = c;
  p = a->mtr;
  c = a->mtr_cap;
  a->mtr = a->try_mtr;
  a->mtr_cap = a->try_mtr_cap;
  a->try_mtr = p;
  a->try_mtr_cap = c;
  goap_htn_planner *hp = a->hp;
  a->hp = a->hp_try;
  a->hp_try = hp;
  int refused = goap__agent_reserve_plan(a, a->plan, res.plan_length);
  if (refused == -2) return GOAP_OUT_OF_MEMORY;
  if (refused >= 0) return GOAP_OK; /* plans again from the root on the next update */
  htn_adopt(a, &res, GOAP_REPLAN_WATCH);
  return GOAP_OK;
}

/* Before a step starts: resumes a paused plan when its actions are done, ends a finished
 * plan, and checks the next action's preconditions and procedural check. Returns 1 when
 * plan[step] may start now, 0 when not (the plan was dropped or continues on a later update),
 * -1 when out of memory. */
int goap__agent_htn_next(goap_agent *a) {
  if (a->step >= a->plan_len && a->paused) {
    goap_htn_result res;
    goap_status st = htn_search(a, &a->hp, 1, NULL, 0, &a->plan, &a->plan_cap, &a->mtr,
                                &a->mtr_cap, &res);
    if (st == GOAP_OUT_OF_MEMORY) return -1;
    if (st != GOAP_OK && st != GOAP_PARTIAL) {
      htn_plan_failed(a, st);
      goap__agent_need_plan(a, GOAP_REPLAN_PLAN_DONE);
      return 0;
    }
    int refused = goap__agent_reserve_plan(a, a->plan, res.plan_length);
    if (refused == -2) return -1;
    if (refused >= 0) {
      goap__agent_need_plan(a, GOAP_REPLAN_PLAN_DONE);
      return 0;
    }
    htn_adopt(a, &res, GOAP_REPLAN_NONE);
    if (a->plan_len == 0 && a->paused) return 0; /* paused again at once: next update */
  }
  if (a->step >= a->plan_len) { /* the root task is done */
    goap__agent_goal_done(a);
    return 0;
  }
  int act = a->plan[a->step];
  if (!goap_action_applicable(a->d, a->mem, act)) {
    goap__agent_need_plan(a, GOAP_REPLAN_PRECONDITIONS);
    return 0;
  }
  const goap__rt_action *r = &a->t->act[act];
  if (r->check && !goap__agent_call_check(a, act)) { /* a failure before it starts */
    a->st.actions_failed++;
    goap_agent_event ev;
    goap__agent_ev_init(&ev, GOAP_EVENT_ACTION_FAILURE);
    ev.action = act;
    goap__agent_emit(a, &ev);
    goap__agent_learn(a, act, r, 0);
    goap__agent_need_plan(a, GOAP_REPLAN_ACTION_FAILED);
    return 0;
  }
  return 1;
}
