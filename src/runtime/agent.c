/*
 * agent.c -- one agent: sensors, goal selection, time-sliced planning, plan execution,
 * replanning triggers, plan repair and failure memory.
 * Goal selection and the searches' slicing are in agent_plan.c, HTN agents' planning in
 * agent_htn.c.
 *
 * Invariants:
 *  - mem is the agent's working memory; seen is mem as the agent last took notice of it (after
 *    the interrupt checks of an update, and after every effect the agent applies itself), so
 *    mem != seen on a watched variable means something outside the agent changed it: a
 *    sensor, the blackboard, the host, or a callback (even one running inside the update).
 *  - An action runs only after its preconditions were checked in mem on the update it starts
 *    (plan repair runs first); its effects are written when it succeeds, its on_fail effects
 *    when it fails or times out.
 *  - At most one action ticks per update; a search in progress holds the planner until it
 *    finishes or the plan is dropped.
 *  - Everything is allocated at creation except the planner, created at the agent's first
 *    search (an agent the plan cache always serves never needs one), the plan buffer and the
 *    planner's pools, which grow (doubling) when a plan or a search is larger than every one
 *    before: a warm agent updates without allocating. Every byte goes through a counting
 *    wrapper of the allocator.
 *  - A plan found by a search is cached under the state the search started from (memory may
 *    have changed while a sliced search ran).
 *  - Replays (replay.c): with a recorder (rec), every input is recorded where it enters the
 *    agent (a host call, a callback's result, a blackboard read, a reservation's answer) and
 *    every decision where it is reported; with a replayer (rp), no host callback is called:
 *    the recorded results stand in for them, in the same order.
 *  - HTN agents (t->htn): goal is always -1 and no goal is ever a candidate. plan[0..plan_len)
 *    is the running plan up to its next `pause` (paused = 1: hp holds the continuation, resumed
 *    from memory when the last step is done); mtr[0..mtr_len) is its method traversal record
 *    from the root. A search for a better plan (a watched variable changed) runs on hp_try into
 *    try_plan / try_mtr, bounded by the running MTR, so the running plan and its continuation
 *    survive when nothing better is found; adopting the new plan swaps the buffers and the
 *    planners, so a warm HTN agent does not allocate either.
 */
#include <math.h>
#include <string.h>
#include <time.h>

#include "agent_impl.h"

typedef enum { PHASE_IDLE = 0, PHASE_SELECT, PHASE_EXECUTE } phase;
_Static_assert(PHASE_SELECT == GOAP__AGENT_SELECT && PHASE_EXECUTE == GOAP__AGENT_EXECUTE,
               "agent_impl.h's phase values");

/* ---- memory -------------------------------------------------------------------------------- */

static void *count_fn(void *ctx, void *ptr, size_t old_size, size_t new_size) {
  goap_agent *a = (goap_agent *)ctx;
  void *r = a->user.fn(a->user.ctx, ptr, old_size, new_size);
  if (new_size == 0) a->bytes -= old_size;
  else if (r) a->bytes += new_size - old_size;
  return r;
}

/* ---- small helpers ------------------------------------------------------------------------- */

/* When a timer of `interval` seconds that fired now fires next: interval from now, or, with a
 * world's jitter, on the agent's own phase (jitter * interval past a multiple of interval), so
 * that agents started on one frame do not all fire on the same frames. */
static double next_tick(const goap_agent *a, double interval) {
  if (a->jitter < 0 || !(interval > 0)) return a->time + interval;
  double off = a->jitter * interval;
  double next = off + (floor((a->time - off) / interval) + 1.0) * interval;
  if (next <= a->time + 1e-9) next += interval;
  return next;
}

uint64_t goap__agent_mem_hash(const goap_agent *a) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < a->W; ++i) {
    h ^= a->mem[i];
    h *= 1099511628211ull;
    h ^= h >> 29;
  }
  return h;
}

static void emit(goap_agent *a, goap_agent_event *ev) {
  ev->time = a->time;
  if (a->rec && GOAP__IS_DECISION(ev->kind)) goap__rec_event(a, ev);
  if (a->rp && (GOAP__IS_DECISION(ev->kind) ? !goap__rp_event(a, ev) : goap__rp_diverged(a)))
    return; /* replaying: the log disagrees (a decision is checked, the others follow) */
  if (a->on_event) a->on_event(a, ev, a->event_user);
}

static void ev_init(goap_agent_event *ev, goap_agent_event_kind k) {
  memset(ev, 0, sizeof *ev);
  ev->kind = k;
  ev->goal = -1;
  ev->action = -1;
  ev->var = -1;
}

static double goal_priority(goap_agent *a, int g) {
  const goap__rt_goal *r = &a->t->goal[g];
  double pr;
  if (g == a->order_goal) pr = a->order_prio;
  else if (!r->priority) pr = goap_domain_goal_priority(a->d, g);
  else if (!a->rp || !goap__rp_input(a, GOAP__R_PRIO, g, NULL, &pr)) {
    pr = a->rp ? goap_domain_goal_priority(a->d, g) : r->priority(a, g, r->user);
    if (a->rec) goap__rec_input(a, GOAP__R_PRIO, g, 0, pr);
  }
  a->gprio[g] = pr;
  return pr;
}

static int goal_valid(const goap_agent *a, int g) {
  const goap__rt_goal *r = &a->t->goal[g];
  if (r->disabled) return 0;
  return goap_state_satisfies(a->d, a->mem, a->t->conds + r->valid, (int)r->valid_count);
}

static int goal_met(const goap_agent *a, int g) {
  int n = 0;
  const goap_cond *w = goap_domain_goal_want(a->d, g, &n);
  return goap_state_satisfies(a->d, a->mem, w, n);
}

/* Was any of vars[0..n) changed from outside since the last update? */
static int watched_changed(const goap_agent *a, const int32_t *vars, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i)
    if (goap_state_get(a->d, a->mem, vars[i]) != goap_state_get(a->d, a->seen, vars[i]))
      return 1;
  return 0;
}

/* Writes effects to memory (and shared variables to the blackboard), reporting each change.
 * Effects that would leave a range are skipped (the world did what it did; memory keeps a
 * legal value). */
static void write_effects(goap_agent *a, const goap_effect *e, int n) {
  for (int i = 0; i < n; ++i) {
    int slot = -1;
    if (a->bb) { /* a shared variable: apply to the blackboard's value (counters add up) */
      for (int k = 0; k < a->t->nshared; ++k)
        if (a->t->shared[k] == e[i].var) slot = a->bb_slot[k];
      if (slot >= 0 && a->rp) { /* replaying: the value read when recording */
        int var;
        int32_t v;
        while (goap__rp_bb(a, &var, &v)) goap_state_set(a->d, a->mem, var, v);
      } else if (slot >= 0) {
        int32_t v = goap__bb_read(a->bb, slot);
        if (a->rec && v != goap_state_get(a->d, a->mem, e[i].var))
          goap__rec_input(a, GOAP__R_BB, e[i].var, v, 0);
        goap_state_set(a->d, a->mem, e[i].var, v);
      }
    }
    int32_t old = goap_state_get(a->d, a->mem, e[i].var);
    if (goap_state_assign(a->d, a->mem, &e[i], 1) != GOAP_OK) continue;
    int32_t now = goap_state_get(a->d, a->mem, e[i].var);
    goap_state_set(a->d, a->seen, e[i].var, now); /* the agent's own write is not external */
    if (now == old) continue;
    if (slot >= 0) goap__bb_write(a->bb, slot, now);
    goap_agent_event ev;
    ev_init(&ev, GOAP_EVENT_MEMORY);
    ev.var = e[i].var;
    ev.old_value = old;
    ev.value = now;
    ev.action = a->plan_len > a->step ? a->plan[a->step] : -1;
    emit(a, &ev);
  }
}

/* Failure memory: the on_fail effects of act, remembered for inspection. */
static void learn(goap_agent *a, int act, const goap__rt_action *r, int timeout) {
  const goap_effect *e = a->t->effs + r->on_fail;
  write_effects(a, e, (int)r->on_fail_count);
  for (uint32_t i = 0; i < r->on_fail_count; ++i)
    goap__fact_learnt(a, act, e[i].var, goap_state_get(a->d, a->mem, e[i].var), timeout);
}

/* The host's callbacks, or their recorded results when replaying (replay.c). */
static void call_stop(goap_agent *a, int act) {
  const goap__rt_action *r = &a->t->act[act];
  if (!r->stop) return;
  if (a->rp) {
    if (!goap__rp_act(a, GOAP__R_STOP, act, NULL))
      goap__rp_input(a, GOAP__R_STOP, act, NULL, NULL);
    return;
  }
  r->stop(a, act, r->user);
  if (a->rec) goap__rec_input(a, GOAP__R_STOP, act, 0, 0);
}

static int call_check(goap_agent *a, int act) {
  const goap__rt_action *r = &a->t->act[act];
  int32_t ok = 1;
  if (a->rp) {
    if (!goap__rp_act(a, GOAP__R_CHECK, act, &ok))
      goap__rp_input(a, GOAP__R_CHECK, act, &ok, NULL);
  } else ok = r->check(a, act, r->check_user) != 0;
  if (a->rec) goap__rec_input(a, GOAP__R_CHECK, act, ok, 0);
  return ok != 0;
}

/* ---- reservations ---------------------------------------------------------------------------- */

static void release_step(goap_agent *a, int step) {
  size_t k = 0;
  for (size_t i = 0; i < a->nhold; ++i) {
    if (a->hold_step[i] == step) {
      goap__bb_release(a->bb, a->hold_res[i], a);
      continue;
    }
    a->hold_res[k] = a->hold_res[i];
    a->hold_step[k++] = a->hold_step[i];
  }
  a->nhold = k;
}

static void release_all(goap_agent *a) {
  for (size_t i = 0; i < a->nhold; ++i) goap__bb_release(a->bb, a->hold_res[i], a);
  a->nhold = 0;
}

/* Takes every reservation of plan[0..len). Returns -1 when all were granted, the refused
 * action otherwise (nothing is then held), or -2 when out of memory. */
static int reserve_plan(goap_agent *a, const int32_t *plan, int len) {
  const goap_agent_type *t = a->t;
  if (!a->bb || t->nres_names == 0) return -1;
  for (int j = 0; j < len; ++j) {
    const goap__rt_action *r = &t->act[plan[j]];
    for (uint32_t k = 0; k < r->reserve_count; ++k) {
      if (!goap__grow_zero(&a->alloc, (void **)&a->hold_res, &a->chold, a->nhold + 1,
                         sizeof *a->hold_res) ||
          !goap__grow_zero(&a->alloc, (void **)&a->hold_step, &a->chold_step, a->nhold + 1,
                         sizeof *a->hold_step)) {
        release_all(a);
        return -2;
      }
      int res = a->res_id[r->reserve + k];
      int granted = goap__bb_acquire(a->bb, res, a);
      if (granted < 0) {
        release_all(a);
        return -2;
      }
      int32_t logged = granted;
      if (a->rp && goap__rp_input(a, GOAP__R_RESERVE, 0, &logged, NULL) && logged != granted) {
        if (granted) goap__bb_release(a->bb, res, a); /* the log's answer wins */
        granted = logged;
      }
      if (a->rec) goap__rec_input(a, GOAP__R_RESERVE, 0, granted, 0);
      if (!granted) {
        release_all(a);
        a->st.reservations_denied++;
        goap_agent_event ev;
        ev_init(&ev, GOAP_EVENT_RESERVATION_DENIED);
        ev.action = plan[j];
        ev.resource = goap__bb_resource_name(a->bb, res);
        emit(a, &ev);
        return plan[j];
      }
      a->hold_res[a->nhold] = res;
      a->hold_step[a->nhold++] = j;
    }
  }
  return -1;
}

static void unblock(goap_agent *a) {
  if (!a->blocked) return;
  memcpy(a->costs, a->t->costs, (size_t)a->t->na * sizeof *a->costs);
  a->blocked = 0;
}

/* ---- plan state ---------------------------------------------------------------------------- */

static void end_action(goap_agent *a, int act) {
  const goap__rt_action *r = &a->t->act[act];
  if (r->on_end_count) write_effects(a, a->t->effs + r->on_end, (int)r->on_end_count);
  if (a->nhold) release_step(a, a->step);
}

static void stop_running(goap_agent *a) {
  if (!a->running) return;
  int act = a->plan[a->step];
  a->running = 0;
  call_stop(a, act);
  end_action(a, act);
  goap_agent_event ev;
  ev_init(&ev, GOAP_EVENT_ACTION_STOP);
  ev.action = act;
  ev.goal = a->goal;
  emit(a, &ev);
}

/* Drops the plan (and any search) and asks for a new one. */
static void need_plan(goap_agent *a, goap_replan_reason why) {
  /* the goal's plan ended (done, failed, no longer applies): its cooldown starts */
  if (a->goal >= 0 && (why == GOAP_REPLAN_PLAN_DONE || why == GOAP_REPLAN_ACTION_FAILED ||
                       why == GOAP_REPLAN_TIMEOUT || why == GOAP_REPLAN_PRECONDITIONS))
    a->end_time[a->goal] = a->time;
  stop_running(a);
  if (a->nhold) release_all(a);
  unblock(a);
  a->plan_len = a->step = 0;
  a->goal = -1;
  a->searching = 0;
  a->ph = PHASE_SELECT;
  a->ncand = a->icand = 0;
  a->mtr_len = 0;
  a->paused = 0;
  a->reason = why;
  a->st.replans[why]++;
  a->idle_reported = 0;
  goap__hist_open(a, why);
  goap_agent_event ev;
  ev_init(&ev, GOAP_EVENT_REPLAN);
  ev.reason = why;
  emit(a, &ev);
}

static int ensure_plan_cap(goap_agent *a, size_t n) {
  return goap__grow_zero(&a->alloc, (void **)&a->plan, &a->plan_cap, n ? n : 1, sizeof *a->plan);
}

/* Plan repair: walks the rest of the plan from memory, dropping steps whose effects already
 * hold. Returns 1 and compacts the plan when what is left runs and reaches the goal. */
static int repair(goap_agent *a) {
  const goap_domain *d = a->d;
  memcpy(a->tmp, a->mem, a->W * sizeof *a->tmp);
  int out = a->step, skipped = 0;
  double cost = 0;
  for (int j = a->step; j < a->plan_len; ++j) {
    int act = a->plan[j];
    int ne = 0;
    const goap_effect *e = goap_domain_action_eff(d, act, &ne);
    int done = 1;
    for (int k = 0; k < ne && done; ++k) {
      if (e[k].op != GOAP_SET) done = e[k].value == 0;
      else done = goap_state_get(d, a->tmp, e[k].var) == e[k].value;
    }
    if (done) {
      skipped++;
      if (a->nhold) release_step(a, j);
      continue;
    }
    if (goap_action_apply(d, a->tmp, act) != GOAP_OK) return 0;
    for (size_t k = 0; k < a->nhold && out != j; ++k)
      if (a->hold_step[k] == j) a->hold_step[k] = out;
    a->plan[out++] = act;
    cost += a->t->costs[act];
  }
  int nw = 0;
  const goap_cond *w = goap_domain_goal_want(d, a->goal, &nw);
  if (!goap_state_satisfies(d, a->tmp, w, nw)) return 0;
  if (skipped) {
    a->plan_len = out;
    a->plan_cost = cost;
    a->st.repairs++;
    goap_agent_event ev;
    ev_init(&ev, GOAP_EVENT_REPAIR);
    ev.goal = a->goal;
    ev.skipped = skipped;
    ev.plan = a->plan + a->step;
    ev.plan_length = a->plan_len - a->step;
    ev.cost = cost;
    emit(a, &ev);
  }
  return 1;
}

/* ---- goal selection and planning ----------------------------------------------------------- */

/* Recording or replaying: the domain's check and dynamic_cost callbacks are asked here, once
 * per action and search (the planner asks only about the actions it reaches), so that their
 * answers are inputs of the log; the search then runs with GOAP_REQUEST_NO_CALLBACKS on
 * a->dcosts. */
static void domain_callbacks(goap_agent *a, const double *base) {
  for (int i = 0; i < a->t->na; ++i) {
    goap_check_fn check;
    goap_cost_fn cost;
    void *user;
    double c = base[i];
    if (c >= 0 && goap_domain_action_callbacks(a->d, i, &check, &cost, &user)) {
      int32_t ok = 1;
      if (check) {
        if (a->rp) goap__rp_input(a, GOAP__R_DCHECK, i, &ok, NULL);
        else ok = check(a, i, user) != 0;
        if (a->rec) goap__rec_input(a, GOAP__R_DCHECK, i, ok, 0);
      }
      if (ok && cost) {
        if (a->rp) goap__rp_input(a, GOAP__R_DCOST, i, NULL, &c);
        else c = cost(a, i, user);
        if (a->rec) goap__rec_input(a, GOAP__R_DCOST, i, 0, c);
      }
      if (!ok || !(c >= 0) || !isfinite(c)) c = -1;
    }
    a->dcosts[i] = c;
  }
}

/* Begins the search for goal g from search_start on `on` (NULL: the agent's own planner,
 * created now if needed); a->cur is the planner it runs on. */
static goap_status begin_search(goap_agent *a, int g, goap_planner *on) {
  const goap_agent_type *t = a->t;
  a->searches++;
  if (!on && a->in_world && a->lease) { /* a planner of the world's lane, leased to it */
    on = a->lease(a->lease_ctx, a);
    if (!on) return GOAP_OUT_OF_MEMORY;
    a->shared = on;
  }
  if (!on) {
    if (!a->planner) {
      goap_planner_desc pd;
      memset(&pd, 0, sizeof pd);
      pd.allocator = a->alloc;
      pd.initial_nodes = t->initial_nodes;
      pd.max_nodes = t->max_nodes;
      /* an agent plans for its domain's goals only: that many goal-cache slots suffice */
      int ng = goap_domain_goal_count(a->d);
      pd.goal_cache = (uint32_t)(ng < 1 ? 1 : ng < 16 ? ng : 16);
      goap_status pst = goap_planner_create(a->d, &pd, &a->planner);
      if (pst != GOAP_OK) return pst;
    }
    on = a->planner;
  }
  int nw = 0;
  goap_request r;
  memset(&r, 0, sizeof r);
  r.start = a->search_start;
  r.want = goap_domain_goal_want(a->d, g, &nw);
  r.want_count = nw;
  r.search = t->search;
  r.heuristic = t->heuristic;
  r.max_nodes = t->max_nodes;
  r.host = a;
  r.costs = a->blocked ? a->costs : t->costs;
  if (a->dcosts && (a->rec || a->rp)) {
    domain_callbacks(a, r.costs);
    r.costs = a->dcosts;
    r.flags |= GOAP_REQUEST_NO_CALLBACKS;
  }
  if (a->hist_cap) r.flags |= GOAP_REQUEST_TIMED; /* the replan history's search_us */
  a->cur = on;
  a->search_base = a->st.expanded;
  return goap_plan_begin(on, &r);
}

goap_status goap__agent_begin_search(goap_agent *a, int g) { return begin_search(a, g, NULL); }

/* ---- execution ----------------------------------------------------------------------------- */

/* The goal holds: report it, end an order for it, stop what runs and choose again. */
static void goal_done(goap_agent *a) {
  stop_running(a);
  goap_agent_event ev;
  ev_init(&ev, GOAP_EVENT_GOAL_DONE);
  ev.goal = a->goal;
  emit(a, &ev);
  if (a->goal == a->order_goal) a->order_goal = -1;
  need_plan(a, GOAP_REPLAN_PLAN_DONE);
}

static void action_failed(goap_agent *a, int act, int timeout) {
  const goap__rt_action *r = &a->t->act[act];
  a->running = 0;
  a->st.actions_failed++;
  end_action(a, act);
  goap_agent_event ev;
  ev_init(&ev, GOAP_EVENT_ACTION_FAILURE);
  ev.action = act;
  ev.goal = a->goal;
  ev.timeout = timeout;
  emit(a, &ev);
  if (timeout) call_stop(a, act);
  learn(a, act, r, timeout);
  need_plan(a, timeout ? GOAP_REPLAN_TIMEOUT : GOAP_REPLAN_ACTION_FAILED);
}

/* ---- HTN agents ------------------------------------------------------------------------------ */

static goap_htn_planner *htn_planner_create(goap_agent *a) {
  const goap_agent_type *t = a->t;
  goap_htn_planner_desc pd;
  memset(&pd, 0, sizeof pd);
  pd.allocator = a->alloc;
  pd.initial_steps = 64;
  pd.goap.initial_nodes = t->initial_nodes;
  pd.goap.max_nodes = t->max_nodes;
  goap_htn_planner *p;
  return goap_htn_planner_create(t->htn, &pd, &p) == GOAP_OK ? p : NULL;
}

goap_htn_planner *goap__agent_htn_planner(goap_agent *a) {
  if (!a->hp) a->hp = htn_planner_create(a);
  return a->hp;
}

static goap_status execute(goap_agent *a, double dt) {
  if (!a->running && a->t->htn) {
    int go = goap__agent_htn_next(a);
    if (go < 0) return GOAP_OUT_OF_MEMORY;
    if (!go) return GOAP_OK;
  }
  if (!a->running) {
    if (a->t->htn) {
      /* htn_next checked the step */
    } else if (a->step >= a->plan_len || !repair(a)) {
      if (a->step >= a->plan_len) {
        if (goal_met(a, a->goal)) goal_done(a);
        else need_plan(a, GOAP_REPLAN_PLAN_DONE);
      } else {
        need_plan(a, GOAP_REPLAN_PRECONDITIONS);
      }
      return GOAP_OK;
    } else if (a->step >= a->plan_len) { /* repair found everything done */
      goal_done(a);
      return GOAP_OK;
    }
    int act = a->plan[a->step];
    const goap__rt_action *r = &a->t->act[act];
    a->running = 1;
    a->action_time = 0;
    a->st.actions_started++;
    goap_agent_event ev;
    ev_init(&ev, GOAP_EVENT_ACTION_START);
    ev.action = act;
    ev.goal = a->goal;
    emit(a, &ev);
    if (r->on_start_count) write_effects(a, a->t->effs + r->on_start, (int)r->on_start_count);
    if (r->start && a->rp) {
      if (!goap__rp_act(a, GOAP__R_START, act, NULL))
        goap__rp_input(a, GOAP__R_START, act, NULL, NULL);
    } else if (r->start) {
      r->start(a, act, r->user);
      if (a->rec) goap__rec_input(a, GOAP__R_START, act, 0, 0);
    }
    if (!a->running) return GOAP_OK; /* the start callback dropped the plan */
  } else {
    a->action_time += dt;
  }
  int act = a->plan[a->step];
  const goap__rt_action *r = &a->t->act[act];
  goap_action_state s = GOAP_ACTION_SUCCESS;
  if (r->tick && a->rp) {
    int32_t v = GOAP_ACTION_RUNNING;
    if (!goap__rp_tick(a, &v)) goap__rp_input(a, GOAP__R_TICK, act, &v, NULL);
    s = (goap_action_state)v;
  } else if (r->tick) {
    s = r->tick(a, act, dt, r->user);
    if (a->rec) goap__rec_input(a, GOAP__R_TICK, act, (int32_t)s, 0);
  }
  if (!a->running || a->plan_len <= a->step || a->plan[a->step] != act) return GOAP_OK;
  if (s == GOAP_ACTION_SUCCESS) {
    a->running = 0;
    a->st.actions_succeeded++;
    goap_agent_event ev;
    ev_init(&ev, GOAP_EVENT_ACTION_SUCCESS);
    ev.action = act;
    ev.goal = a->goal;
    emit(a, &ev);
    int ne = 0;
    const goap_effect *e = goap_domain_action_eff(a->d, act, &ne);
    write_effects(a, e, ne);
    end_action(a, act);
    a->step++;
  } else if (s == GOAP_ACTION_FAILURE) {
    action_failed(a, act, 0);
  } else if (r->timeout > 0 && a->action_time >= r->timeout) {
    action_failed(a, act, 1);
  }
  return GOAP_OK;
}

/* ---- for agent_plan.c and agent_htn.c (agent_impl.h) ---------------------------------------- */

double goap__agent_next_tick(const goap_agent *a, double interval) {
  return next_tick(a, interval);
}
void goap__agent_emit(goap_agent *a, goap_agent_event *ev) { emit(a, ev); }
void goap__agent_ev_init(goap_agent_event *ev, goap_agent_event_kind k) { ev_init(ev, k); }
double goap__agent_goal_priority(goap_agent *a, int g) { return goal_priority(a, g); }
int goap__agent_goal_valid(const goap_agent *a, int g) { return goal_valid(a, g); }
int goap__agent_goal_met(const goap_agent *a, int g) { return goal_met(a, g); }
void goap__agent_learn(goap_agent *a, int act, const goap__rt_action *r, int timeout) {
  learn(a, act, r, timeout);
}
int goap__agent_call_check(goap_agent *a, int act) { return call_check(a, act); }
int goap__agent_reserve_plan(goap_agent *a, const int32_t *plan, int len) {
  return reserve_plan(a, plan, len);
}
void goap__agent_unblock(goap_agent *a) { unblock(a); }
void goap__agent_need_plan(goap_agent *a, goap_replan_reason why) { need_plan(a, why); }
int goap__agent_ensure_plan_cap(goap_agent *a, size_t n) { return ensure_plan_cap(a, n); }
void goap__agent_goal_done(goap_agent *a) { goal_done(a); }
goap_status goap__agent_begin_search_on(goap_agent *a, int g, goap_planner *on) {
  return begin_search(a, g, on);
}
goap_htn_planner *goap__agent_htn_planner_create(goap_agent *a) { return htn_planner_create(a); }

/* ---- public API ----------------------------------------------------------------------------- */

static void free_agent(goap_agent *a) {
  goap_allocator al = a->alloc;
  const goap_agent_type *t = a->t;
  goap_planner_destroy(a->planner);
  goap_htn_planner_destroy(a->hp);
  goap_htn_planner_destroy(a->hp_try);
  goap__rt_free(&al, a->mtr, a->mtr_cap * sizeof *a->mtr);
  goap__rt_free(&al, a->try_mtr, a->try_mtr_cap * sizeof *a->try_mtr);
  goap__rt_free(&al, a->try_plan, a->try_plan_cap * sizeof *a->try_plan);
  goap__rt_free(&al, a->mem, a->W * sizeof(goap_word));
  goap__rt_free(&al, a->seen, a->W * sizeof(goap_word));
  goap__rt_free(&al, a->tmp, a->W * sizeof(goap_word));
  goap__rt_free(&al, a->search_start, a->W * sizeof(goap_word));
  goap__rt_free(&al, a->bb_slot, (size_t)t->nshared * sizeof *a->bb_slot);
  goap__rt_free(&al, a->res_id, t->nres_names * sizeof *a->res_id);
  goap__rt_free(&al, a->costs, (size_t)t->na * sizeof *a->costs);
  goap__rt_free(&al, a->hold_res, a->chold * sizeof *a->hold_res);
  goap__rt_free(&al, a->hold_step, a->chold_step * sizeof *a->hold_step);
  goap__rt_free(&al, a->plan, a->plan_cap * sizeof *a->plan);
  goap__rt_free(&al, a->cand, (size_t)t->ng * sizeof *a->cand);
  goap__rt_free(&al, a->cand_prio, (size_t)t->ng * sizeof *a->cand_prio);
  goap__rt_free(&al, a->fail_time, (size_t)t->ng * sizeof *a->fail_time);
  goap__rt_free(&al, a->end_time, (size_t)t->ng * sizeof *a->end_time);
  goap__rt_free(&al, a->fail_hash, (size_t)t->ng * sizeof *a->fail_hash);
  goap__rt_free(&al, a->sensor_next, (size_t)t->nsensors * sizeof *a->sensor_next);
  goap__rt_free(&al, a->gprio, (size_t)t->ng * sizeof *a->gprio);
  goap__rt_free(&al, a->fail_st, (size_t)t->ng * sizeof *a->fail_st);
  goap__rt_free(&al, a->hist, (size_t)a->hist_cap * sizeof *a->hist);
  goap__rt_free(&al, a->facts, (size_t)a->hist_cap * sizeof *a->facts);
  goap__rt_free(&al, a->dcosts, (size_t)t->na * sizeof *a->dcosts);
  goap_allocator user = a->user;
  goap__rt_free(&user, a, sizeof *a);
}

goap_status goap_agent_create(const goap_agent_desc *desc, goap_agent **out, goap_error *err) {
  goap__err_clear(err);
  if (out) *out = NULL;
  if (!out || !desc || !desc->type)
    return goap__err_set(err, GOAP_INVALID_ARGUMENT, 0, "out, desc and desc->type are required");
  const goap_agent_type *t = desc->type;
  int reserves = 0; /* an action the type has (not disabled) reserves a resource */
  for (int i = 0; i < t->na && t->nres_names > 0 && !desc->blackboard; ++i)
    reserves |= t->costs[i] >= 0 && t->act[i].reserve_count > 0;
  if (reserves)
    return goap__err_set(err, GOAP_INVALID_ARGUMENT, 0,
                         "the agent type has actions that reserve resources "
                         "(goap_action_binding.reserve) but the agent has no blackboard to "
                         "reserve them on");
  goap_allocator user = desc->allocator.fn ? desc->allocator : t->alloc;
  goap_agent *a = (goap_agent *)goap__rt_alloc(&user, sizeof *a);
  if (!a) return goap__err_set(err, GOAP_OUT_OF_MEMORY, 0, "out of memory");
  a->user = user;
  a->alloc.fn = count_fn;
  a->alloc.ctx = a;
  a->bytes = sizeof *a;
  a->t = t;
  a->d = t->d;
  a->W = t->W;
  a->host = desc->host;
  a->cache = desc->cache;
  a->shared = a->desc_planner = desc->planner;
  a->jitter = -1;
  a->on_event = desc->on_event;
  a->event_user = desc->event_user;
  a->goal = -1;
  goap_allocator *al = &a->alloc;
  a->mem = (goap_word *)goap__rt_alloc(al, a->W * sizeof(goap_word));
  a->seen = (goap_word *)goap__rt_alloc(al, a->W * sizeof(goap_word));
  a->tmp = (goap_word *)goap__rt_alloc(al, a->W * sizeof(goap_word));
  a->search_start = (goap_word *)goap__rt_alloc(al, a->W * sizeof(goap_word));
  a->bb_slot = (int32_t *)goap__rt_alloc(al, (size_t)t->nshared * sizeof *a->bb_slot);
  a->cand = (int *)goap__rt_alloc(al, (size_t)t->ng * sizeof *a->cand);
  a->cand_prio = (double *)goap__rt_alloc(al, (size_t)t->ng * sizeof *a->cand_prio);
  a->fail_time = (double *)goap__rt_alloc(al, (size_t)t->ng * sizeof *a->fail_time);
  a->end_time = (double *)goap__rt_alloc(al, (size_t)t->ng * sizeof *a->end_time);
  a->fail_hash = (uint64_t *)goap__rt_alloc(al, (size_t)t->ng * sizeof *a->fail_hash);
  a->sensor_next = (double *)goap__rt_alloc(al, (size_t)t->nsensors * sizeof *a->sensor_next);
  a->res_id = (int32_t *)goap__rt_alloc(al, t->nres_names * sizeof *a->res_id);
  a->costs = (double *)goap__rt_alloc(al, (size_t)t->na * sizeof *a->costs);
  a->hist_cap = desc->replan_history > 0 ? desc->replan_history
                : desc->replan_history == 0 ? 8 : 0;
  a->gprio = (double *)goap__rt_alloc(al, (size_t)t->ng * sizeof *a->gprio);
  a->fail_st = (goap_status *)goap__rt_alloc(al, (size_t)t->ng * sizeof *a->fail_st);
  int dcb = 0;
  for (int i = 0; i < t->na && !dcb; ++i) dcb = goap_domain_action_callbacks(a->d, i, NULL, NULL, NULL);
  if (dcb) a->dcosts = (double *)goap__rt_alloc(al, (size_t)t->na * sizeof *a->dcosts);
  if (a->hist_cap) {
    a->hist = (goap_replan_info *)goap__rt_alloc(al, (size_t)a->hist_cap * sizeof *a->hist);
    a->facts = (goap_failure_info *)goap__rt_alloc(al, (size_t)a->hist_cap * sizeof *a->facts);
  }
  a->order_goal = -1;
  int ok = a->mem && a->seen && a->tmp && a->search_start && a->bb_slot && a->cand && a->cand_prio &&
           a->fail_time && a->end_time && a->fail_hash && a->sensor_next && a->res_id && a->costs &&
           a->gprio && a->fail_st && ((a->hist && a->facts) || !a->hist_cap) &&
           (a->dcosts || !dcb) &&
           ensure_plan_cap(a, 16);
  /* HTN: non-NULL MTR buffers (a NULL one would tell the planner the MTR is not wanted) */
  if (ok && t->htn)
    ok = goap__grow_zero(al, (void **)&a->mtr, &a->mtr_cap, 16, sizeof *a->mtr) &&
         goap__grow_zero(al, (void **)&a->try_mtr, &a->try_mtr_cap, 16, sizeof *a->try_mtr) &&
         goap__grow_zero(al, (void **)&a->try_plan, &a->try_plan_cap, 16, sizeof *a->try_plan);
  if (ok) {
    if (desc->memory) {
      /* keep only legal values: copy variable by variable */
      goap_state_init(a->d, a->mem);
      for (int v = 0; v < t->nv; ++v)
        goap_state_set(a->d, a->mem, v, goap_state_get(a->d, desc->memory, v));
    } else {
      goap_state_init(a->d, a->mem);
    }
    for (int g = 0; g < t->ng; ++g) {
      a->fail_time[g] = a->end_time[g] = -1;
      a->gprio[g] = goap_domain_goal_priority(a->d, g);
    }
    for (int k = 0; k < t->nshared; ++k) a->bb_slot[k] = -1;
    if (t->na) memcpy(a->costs, t->costs, (size_t)t->na * sizeof *a->costs);
  }
  if (ok && desc->blackboard) {
    /* map each shared variable to its slot by name; an existing slot's value wins */
    for (int k = 0; k < t->nshared && ok; ++k) {
      int v = t->shared[k];
      goap_var_info vi;
      goap_domain_var_info(a->d, v, &vi);
      int created = 0;
      int s = goap__bb_slot(desc->blackboard, vi.name, goap_state_get(a->d, a->mem, v), &created);
      if (s < 0) ok = 0;
      else {
        a->bb_slot[k] = s;
        if (!created) goap_state_set(a->d, a->mem, v, goap__bb_read(desc->blackboard, s));
      }
    }
    for (size_t k = 0; k < t->nres_names && ok; ++k) {
      a->res_id[k] = goap__bb_resource(desc->blackboard, t->res_names[k]);
      if (a->res_id[k] < 0) ok = 0;
    }
    if (ok) {
      a->bb = desc->blackboard;
      goap__bb_attach(a->bb, 1);
    }
  }
  if (!ok) {
    free_agent(a);
    return goap__err_set(err, GOAP_OUT_OF_MEMORY, 0, "out of memory");
  }
  memcpy(a->seen, a->mem, a->W * sizeof *a->seen);
  a->ph = PHASE_SELECT;
  a->reason = GOAP_REPLAN_START;
  a->st.replans[GOAP_REPLAN_START]++;
  goap__hist_open(a, GOAP_REPLAN_START);
  a->announce = 1;
  *out = a;
  return GOAP_OK;
}

void goap_agent_destroy(goap_agent *a) {
  if (!a) return;
  if (a->rec) goap__rec_forget(a); /* its end is not an input of the recording */
  if (a->rp) { /* replayed: there is no host action to stop */
    goap__rp_forget(a);
    a->running = 0;
  }
  stop_running(a);
  if (a->nhold) release_all(a);
  if (a->bb) goap__bb_attach(a->bb, -1);
  free_agent(a);
}

/* Sensors, then the blackboard: the external inputs of this update. */
static void sense(goap_agent *a) {
  const goap_agent_type *t = a->t;
  for (int i = 0; i < t->nsensors; ++i) {
    if (a->time + 1e-12 < a->sensor_next[i]) continue;
    a->sensor_next[i] = next_tick(a, t->sensors[i].interval);
    if (a->rp) {
      goap__rp_input(a, GOAP__R_SENSOR, i, NULL, NULL);
      continue;
    }
    t->sensors[i].fn(a, t->sensors[i].user);
    if (a->rec) goap__rec_input(a, GOAP__R_SENSOR, i, 0, 0);
  }
  if (a->rp && a->bb) { /* the values read when recording */
    int var;
    int32_t v;
    while (goap__rp_bb(a, &var, &v)) goap_state_set(a->d, a->mem, var, v);
  } else if (a->bb && !a->rp) {
    for (int k = 0; k < t->nshared; ++k) {
      if (a->bb_slot[k] < 0) continue;
      int32_t v = goap__bb_read(a->bb, a->bb_slot[k]);
      if (a->rec && v != goap_state_get(a->d, a->mem, t->shared[k]))
        goap__rec_input(a, GOAP__R_BB, t->shared[k], v, 0);
      goap_state_set(a->d, a->mem, t->shared[k], v);
    }
  }
}

/* Triggers 4 and 5 (and goal validity) while a plan runs; for an HTN agent, 4 under the MTR
 * rule. */
static goap_status check_interrupts(goap_agent *a) {
  const goap_agent_type *t = a->t;
  if (a->ph != PHASE_EXECUTE) return GOAP_OK;
  if (t->htn) {
    int changed = watched_changed(a, t->vars + t->hwatch, t->hwatch_count);
    if (!changed && a->running) {
      const goap__rt_action *ar = &t->act[a->plan[a->step]];
      changed = watched_changed(a, t->vars + ar->watch, ar->watch_count);
    }
    return changed ? goap__agent_htn_try_better(a) : GOAP_OK;
  }
  const goap__rt_goal *gr = &t->goal[a->goal];
  int watch = watched_changed(a, t->vars + gr->watch, gr->watch_count);
  if (!watch && a->running) {
    const goap__rt_action *ar = &t->act[a->plan[a->step]];
    watch = watched_changed(a, t->vars + ar->watch, ar->watch_count);
  }
  if (watch) {
    need_plan(a, GOAP_REPLAN_WATCH);
    return GOAP_OK;
  }
  if (goal_met(a, a->goal)) { /* achieved by someone else: nothing left to do for it */
    goal_done(a);
    return GOAP_OK;
  }
  if (!goal_valid(a, a->goal)) {
    need_plan(a, GOAP_REPLAN_GOAL_INVALID);
    return GOAP_OK;
  }
  if (a->time + 1e-12 >= a->next_goal_check) {
    a->next_goal_check = next_tick(a, t->check_interval);
    a->goal_prio = goal_priority(a, a->goal);
    int which;
    double best = goap__agent_best_other(a, &which);
    if (which >= 0 && best > a->goal_prio + t->margin) need_plan(a, GOAP_REPLAN_BETTER_GOAL);
  }
  return GOAP_OK;
}

/* The first half of an update: time, sensors, the blackboard, the interrupt checks. */
static goap_status update_begin(goap_agent *a, double dt) {
  if (a->rec) goap__rec_update(a, dt);
  a->time += dt;
  a->st.updates++;
  if (a->announce) {
    a->announce = 0;
    goap_agent_event ev;
    ev_init(&ev, GOAP_EVENT_REPLAN);
    ev.reason = GOAP_REPLAN_START;
    emit(a, &ev);
  }
  sense(a);
  int changed = memcmp(a->mem, a->seen, a->W * sizeof *a->mem) != 0;
  if (check_interrupts(a) == GOAP_OUT_OF_MEMORY) return GOAP_OUT_OF_MEMORY;
  if (a->ph == PHASE_IDLE && (changed || a->time + 1e-12 >= a->next_idle_retry)) {
    a->ph = PHASE_SELECT;
    a->reason = GOAP_REPLAN_IDLE;
    a->ncand = a->icand = 0;
    a->from_idle = 1;
  }
  /* noticed: changes made from here on (callbacks during this update, the host after it)
   * are seen at the next update */
  memcpy(a->seen, a->mem, a->W * sizeof *a->seen);
  return GOAP_OK;
}

/* The second half: goal selection and planning within the budget, then the action's tick. */
static goap_status update_end(goap_agent *a, double dt) {
  goap_status st = GOAP_OK;
  if (a->ph == PHASE_SELECT) {
    st = a->t->htn ? goap__agent_htn_select(a) : goap__agent_select_goal(a);
    if (st == GOAP_NO_PLAN) {
      a->ph = PHASE_IDLE;
      a->next_idle_retry = next_tick(a, a->t->check_interval);
      if (!a->idle_reported) {
        a->idle_reported = 1;
        goap_agent_event ev;
        ev_init(&ev, GOAP_EVENT_IDLE);
        emit(a, &ev);
      }
    }
  }
  if (a->ph == PHASE_EXECUTE && execute(a, dt) == GOAP_OUT_OF_MEMORY) return GOAP_OUT_OF_MEMORY;
  if (st == GOAP_OK && a->ph == PHASE_SELECT && a->searching) st = GOAP_IN_PROGRESS;
  return st;
}

goap_status goap_agent_update(goap_agent *a, double dt) {
  if (!a || !(dt >= 0) || !isfinite(dt)) return GOAP_INVALID_ARGUMENT;
  goap_status st = update_begin(a, dt);
  return st != GOAP_OK ? st : update_end(a, dt);
}

/* ---- goap_world hooks (world.c) --------------------------------------------------------------- */

void goap__agent_world_join(goap_agent *a, double jitter) {
  a->in_world = 1;
  a->jitter = jitter;
  /* timers already set move onto the agent's phase */
  if (a->next_goal_check > a->time) a->next_goal_check = next_tick(a, a->t->check_interval);
  for (int i = 0; i < a->t->nsensors; ++i)
    if (a->sensor_next[i] > a->time) a->sensor_next[i] = next_tick(a, a->t->sensors[i].interval);
}

int goap__agent_in_world(const goap_agent *a) { return a->in_world; }

void goap__agent_world_leave(goap_agent *a) {
  if (a->searching && a->cur != a->planner) { /* on the world's planner: start again */
    a->searching = 0;
    a->ncand = a->icand = 0;
  }
  a->in_world = 0;
  a->jitter = -1;
  a->shared = a->desc_planner;
}

goap_status goap__agent_world_begin(goap_agent *a, double dt, int *wants) {
  goap_status st = update_begin(a, dt);
  *wants = a->ph == PHASE_SELECT;
  return st;
}

goap_status goap__agent_world_end(goap_agent *a, double dt, uint32_t budget, goap_planner *held,
                                  goap_planner *(*lease)(void *ctx, goap_agent *a), void *ctx,
                                  uint64_t *used, uint32_t *begun) {
  uint64_t before = a->st.expanded;
  uint32_t searches = a->searches;
  a->world_budget = budget;
  a->shared = held;
  a->lease = lease;
  a->lease_ctx = ctx;
  goap_status st = update_end(a, dt);
  *used = a->st.expanded - before;
  *begun = a->searches - searches;
  return st;
}

int goap__agent_world_searching_on(const goap_agent *a, const goap_planner *p) {
  return p && a->ph == PHASE_SELECT && a->searching && a->cur == p;
}

goap_blackboard *goap__agent_world_blackboard(const goap_agent *a) { return a->bb; }
goap_plan_cache *goap__agent_world_cache(const goap_agent *a) { return a->cache; }

goap_status goap_agent_set(goap_agent *a, int var, int32_t value) {
  if (!a || var < 0 || var >= a->t->nv) return GOAP_INVALID_ARGUMENT;
  goap_status st = goap_state_set(a->d, a->mem, var, value);
  if (st != GOAP_OK) return st;
  if (a->rec) goap__rec_input(a, GOAP__R_SET, var, value, 0);
  if (a->bb) {
    for (int k = 0; k < a->t->nshared; ++k)
      if (a->t->shared[k] == var && a->bb_slot[k] >= 0) goap__bb_write(a->bb, a->bb_slot[k], value);
  }
  return GOAP_OK;
}

int32_t goap_agent_get(const goap_agent *a, int var) {
  if (!a) return INT32_MIN;
  return goap_state_get(a->d, a->mem, var);
}

const goap_word *goap_agent_memory(const goap_agent *a) { return a ? a->mem : NULL; }

void goap_agent_replan(goap_agent *a) {
  if (!a) return;
  if (a->rec) goap__rec_input(a, GOAP__R_REPLAN, 0, 0, 0);
  need_plan(a, GOAP_REPLAN_REQUESTED);
}

void goap_agent_reset(goap_agent *a) {
  if (!a) return;
  if (a->rec) goap__rec_input(a, GOAP__R_RESET, 0, 0, 0);
  need_plan(a, GOAP_REPLAN_START);
  for (int g = 0; g < a->t->ng; ++g) a->fail_time[g] = a->end_time[g] = -1;
  a->next_goal_check = a->time;
}

int goap_agent_goal(const goap_agent *a) {
  return a && a->ph == PHASE_EXECUTE ? a->goal : -1;
}

int goap_agent_action(const goap_agent *a) {
  return a && a->ph == PHASE_EXECUTE && a->running ? a->plan[a->step] : -1;
}

const int32_t *goap_agent_plan(const goap_agent *a, int *length, int *step) {
  int have = a && a->ph == PHASE_EXECUTE;
  if (length) *length = have ? a->plan_len : 0;
  if (step) *step = have ? a->step : 0;
  return have ? a->plan : NULL;
}

double goap_agent_plan_cost(const goap_agent *a) {
  return a && a->ph == PHASE_EXECUTE ? a->plan_cost : 0.0;
}

const int32_t *goap_agent_htn_mtr(const goap_agent *a, int *length) {
  int have = a && a->t->htn && a->ph == PHASE_EXECUTE;
  if (length) *length = have ? a->mtr_len : 0;
  return have ? a->mtr : NULL;
}

int goap_agent_is_planning(const goap_agent *a) {
  return a && a->ph == PHASE_SELECT && a->searching;
}

double goap_agent_time(const goap_agent *a) { return a ? a->time : 0.0; }
void *goap_agent_host(const goap_agent *a) { return a ? a->host : NULL; }
const goap_agent_type *goap_agent_get_type(const goap_agent *a) { return a ? a->t : NULL; }

goap_agent_stats goap_agent_get_stats(const goap_agent *a) {
  goap_agent_stats s;
  memset(&s, 0, sizeof s);
  if (!a) return s;
  s = a->st;
  s.memory_bytes = a->bytes;
  return s;
}

static const char *const reason_names[GOAP_REPLAN_REASON_COUNT] = {
    "none",  "start",       "plan_done", "action_failed", "timeout", "preconditions",
    "watch", "better_goal", "goal_invalid", "idle",      "requested",     "order"};

const char *goap_replan_reason_name(goap_replan_reason r) {
  if ((unsigned)r >= (unsigned)GOAP_REPLAN_REASON_COUNT) return "unknown";
  return reason_names[r];
}

goap_status goap_agent_order(goap_agent *a, int goal, double priority) {
  if (!a || goal < 0 || goal >= a->t->ng || a->t->goal[goal].disabled || !(priority == priority))
    return GOAP_INVALID_ARGUMENT;
  if (a->rec) goap__rec_input(a, GOAP__R_ORDER, goal, 0, priority);
  int same = a->order_goal == goal && a->order_prio == priority;
  a->order_goal = goal;
  a->order_prio = priority;
  if (!same && !(a->ph == PHASE_EXECUTE && a->goal == goal)) need_plan(a, GOAP_REPLAN_ORDER);
  return GOAP_OK;
}

void goap_agent_clear_order(goap_agent *a) {
  if (!a || a->order_goal < 0) return;
  if (a->rec) goap__rec_input(a, GOAP__R_CLEAR_ORDER, 0, 0, 0);
  int was = a->order_goal;
  a->order_goal = -1;
  if (a->ph == PHASE_EXECUTE && a->goal == was) need_plan(a, GOAP_REPLAN_ORDER);
}

int goap_agent_ordered_goal(const goap_agent *a) { return a ? a->order_goal : -1; }
