/*
 * agent_plan.c -- goal selection of a GOAP agent: the candidate goals (valid, unmet, not
 * cooling down, best first), the plan cache, time-sliced searches within the update's budget,
 * the reservations of a plan found, and adopting it. Split from agent.c, which owns the
 * agent's state, creates its planner (goap__agent_begin_search_on) and calls
 * goap__agent_select_goal from its update.
 *
 * Invariants:
 *  - A search in progress (a->searching) holds a->cur until it finishes or the plan is dropped;
 *    a planner of goap_agent_desc.planner serves only searches that end within the update (one
 *    that would span updates starts again on the agent's own planner; a world keeps the
 *    planner it leased).
 *  - A plan found by a search is cached under the state the search started from (search_start:
 *    memory may have changed while a sliced search ran); with an action blocked for this
 *    selection the cache is neither read nor written.
 *  - A plan is adopted only with all its reservations held; an action refused one is disabled
 *    (costs = -1) for the rest of the selection and the same goal is planned again.
 *  - budget_ms is measured on a monotonic clock (goap__agent_set_clock: tests inject one); a
 *    world's budget counts expansions only, so a world's run is deterministic.
 */
#include <math.h>
#include <string.h>

#include "agent_impl.h"

/* ---- goal selection and planning ----------------------------------------------------------- */

static int cooling(const goap_agent *a, int g, uint64_t h) {
  double cd = a->t->goal[g].cooldown; /* the goal's own cooldown, after its plan ended */
  if (cd > 0 && g != a->order_goal && a->end_time[g] >= 0 &&
      a->time + 1e-6 < a->end_time[g] + cd) /* (time is a sum of dt: allow rounding) */
    return 1;
  return a->fail_time[g] >= 0 && a->time < a->fail_time[g] + a->t->cooldown &&
         a->fail_hash[g] == h;
}

/* Procedural preconditions: actions whose check says no are left out of this round. */
static void apply_checks(goap_agent *a) {
  const goap_agent_type *t = a->t;
  if (!t->has_checks) return;
  for (int i = 0; i < t->na; ++i) {
    const goap__rt_action *r = &t->act[i];
    if (!r->check || a->costs[i] < 0) continue;
    if (!goap__agent_call_check(a, i)) {
      a->costs[i] = -1;
      a->blocked++;
    }
  }
}

/* Valid, unmet, not cooling goals, best first (priority, then id). */
static void build_candidates(goap_agent *a) {
  goap__agent_unblock(a);
  apply_checks(a);
  uint64_t h = goap__agent_mem_hash(a);
  a->ncand = a->icand = 0;
  if (a->order_goal >= 0 && goap__agent_goal_met(a, a->order_goal))
    a->order_goal = -1; /* done already */
  for (int g = 0; g < a->t->ng; ++g) {
    if (!goap__agent_goal_valid(a, g) || goap__agent_goal_met(a, g) || cooling(a, g, h)) continue;
    double pr = goap__agent_goal_priority(a, g);
    if (!(pr == pr)) continue; /* NaN: not a candidate */
    int k = a->ncand++;
    while (k > 0 && a->cand_prio[k - 1] < pr) {
      a->cand[k] = a->cand[k - 1];
      a->cand_prio[k] = a->cand_prio[k - 1];
      --k;
    }
    a->cand[k] = g;
    a->cand_prio[k] = pr;
  }
}

/* The best candidate's priority (or -inf), for the periodic better-goal check. */
double goap__agent_best_other(goap_agent *a, int *which) {
  uint64_t h = goap__agent_mem_hash(a);
  double best = -INFINITY;
  *which = -1;
  for (int g = 0; g < a->t->ng; ++g) {
    if (g == a->goal || !goap__agent_goal_valid(a, g) || goap__agent_goal_met(a, g) ||
        cooling(a, g, h))
      continue;
    double pr = goap__agent_goal_priority(a, g);
    if (pr > best) {
      best = pr;
      *which = g;
    }
  }
  return best;
}

static void adopt(goap_agent *a, int g, double prio, const int32_t *plan, int len, double cost,
                  int cached) {
  if (plan) memcpy(a->plan, plan, (size_t)len * sizeof *plan);
  a->plan_len = len;
  a->step = 0;
  a->plan_cost = cost;
  a->goal = g;
  a->goal_prio = prio;
  a->running = 0;
  a->ph = GOAP__AGENT_EXECUTE;
  a->searching = 0;
  a->idle_reported = 0;
  a->next_goal_check = goap__agent_next_tick(a, a->t->check_interval);
  a->fail_time[g] = -1;
  a->st.plans++;
  if (cached) a->st.cache_hits++;
  goap__hist_close(a, GOAP_OK, g, cost, len);
  goap_agent_event ev;
  goap__agent_ev_init(&ev, GOAP_EVENT_GOAL);
  ev.goal = g;
  ev.priority = prio;
  ev.reason = a->reason;
  goap__agent_emit(a, &ev);
  goap__agent_ev_init(&ev, GOAP_EVENT_PLAN);
  ev.goal = g;
  ev.priority = prio;
  ev.plan = a->plan;
  ev.plan_length = len;
  ev.cost = cost;
  ev.cached = cached;
  ev.reason = a->reason;
  goap__agent_emit(a, &ev);
}

static void goal_failed(goap_agent *a, int g, goap_status why) {
  a->fail_time[g] = a->time;
  a->end_time[g] = a->time;
  a->fail_hash[g] = goap__agent_mem_hash(a);
  a->fail_st[g] = why;
  a->st.plan_failures++;
  goap_agent_event ev;
  goap__agent_ev_init(&ev, GOAP_EVENT_PLAN_FAILED);
  ev.goal = g;
  ev.status = why;
  goap__agent_emit(a, &ev);
}

/* The time budget's clock: monotonic (a wall-clock jump must not end or stretch a budget). */
static uint64_t now_ns(const goap_agent *a) {
  return a->clock ? a->clock(a->clock_ctx) : goap__now_ns();
}

void goap__agent_set_clock(goap_agent *a, goap__clock_fn fn, void *ctx) {
  a->clock = fn;
  a->clock_ctx = ctx;
}

/* Runs goal selection within the budget. Returns GOAP_OK when a plan was adopted,
 * GOAP_IN_PROGRESS when the budget ran out, GOAP_NO_PLAN when no goal can be planned. */
goap_status goap__agent_select_goal(goap_agent *a) {
  const goap_agent_type *t = a->t;
  if (!a->searching && a->icand == 0 && a->ncand == 0) {
    build_candidates(a);
    if (a->from_idle && a->ncand > 0) { /* something to try again: a replan worth reporting */
      a->st.replans[GOAP_REPLAN_IDLE]++;
      goap__hist_open(a, GOAP_REPLAN_IDLE);
      goap_agent_event ev;
      goap__agent_ev_init(&ev, GOAP_EVENT_REPLAN);
      ev.reason = GOAP_REPLAN_IDLE;
      goap__agent_emit(a, &ev);
    }
    a->from_idle = 0;
  }
  uint32_t budget = a->in_world ? a->world_budget : t->budget;
  double budget_ms = a->in_world ? 0 : t->budget_ms; /* a world's budget is deterministic */
  uint64_t t0 = budget_ms > 0 ? now_ns(a) : 0;
  while (a->icand < a->ncand) {
    int g = a->cand[a->icand];
    double prio = a->cand_prio[a->icand];
    if (!a->searching) {
      if (a->cache && !a->blocked) {
        int len = 0;
        double cost = 0;
        const int32_t *p = goap__cache_find(a->cache, t, g, a->mem, a->W, &len, &cost);
        if (p) {
          goap__hist_search(a, NULL, 1);
          if (!goap__agent_ensure_plan_cap(a, (size_t)len)) return GOAP_OUT_OF_MEMORY;
          int refused = goap__agent_reserve_plan(a, p, len);
          if (refused == -2) return GOAP_OUT_OF_MEMORY;
          if (refused < 0) {
            adopt(a, g, prio, p, len, cost, 1);
            return GOAP_OK;
          }
          a->costs[refused] = -1; /* plan again without it */
          a->blocked++;
          continue;
        }
      }
      if (budget == 0) return GOAP_IN_PROGRESS; /* a world gave no budget this frame */
      memcpy(a->search_start, a->mem, a->W * sizeof *a->search_start);
      /* a shared planner serves searches that end within this update */
      goap_status st = goap__agent_begin_search_on(a, g, a->shared ? a->shared : NULL);
      if (st == GOAP_OUT_OF_MEMORY) return st;
      a->searching = 1;
      if (st != GOAP_IN_PROGRESS) goto finished;
    }
    for (;;) {
      if (budget == 0 ||
          (budget_ms > 0 && (double)goap__elapsed_ns(t0, now_ns(a)) / 1e6 >= budget_ms)) {
        if (a->cur == a->shared && a->shared && !a->in_world) {
          /* it will span updates: the shared planner is not ours to keep; the search starts
           * again on the agent's own planner (same request, same plan) */
          goap_status st = goap__agent_begin_search_on(a, g, NULL);
          if (st == GOAP_OUT_OF_MEMORY) return st;
          if (st != GOAP_IN_PROGRESS) goto finished;
        }
        return GOAP_IN_PROGRESS;
      }
      uint32_t chunk = budget, done = 0;
      if (budget_ms > 0 && chunk > 256) chunk = 256;
      goap_status st = goap_plan_step(a->cur, chunk, &done);
      a->st.expanded += done;
      budget = done >= budget ? 0 : budget - done;
      if (st != GOAP_IN_PROGRESS) break;
    }
  finished:;
    goap_result res;
    memset(&res, 0, sizeof res);
    res.plan = a->plan;
    res.plan_capacity = (int)(a->plan_cap > 0x7fffffff ? 0x7fffffff : a->plan_cap);
    goap_status st = goap_plan_finish(a->cur, &res);
    if (st == GOAP_BUFFER_TOO_SMALL) {
      if (!goap__agent_ensure_plan_cap(a, (size_t)res.plan_length)) return GOAP_OUT_OF_MEMORY;
      res.plan = a->plan;
      res.plan_capacity = (int)a->plan_cap;
      st = goap_plan_finish(a->cur, &res);
    }
    a->searching = 0;
    if (st == GOAP_OUT_OF_MEMORY) return st;
    goap__hist_search(a, &res.stats, 0);
    if (st == GOAP_OK) {
      int refused = goap__agent_reserve_plan(a, a->plan, res.plan_length);
      if (refused == -2) return GOAP_OUT_OF_MEMORY;
      if (refused >= 0) {
        a->costs[refused] = -1; /* plan again without it */
        a->blocked++;
        continue;
      }
      if (a->cache && !a->blocked)
        goap__cache_store(a->cache, t, g, a->search_start, a->W, a->plan, res.plan_length,
                          res.cost);
      adopt(a, g, prio, NULL, res.plan_length, res.cost, 0);
      return GOAP_OK;
    }
    goal_failed(a, g, st);
    a->icand++;
  }
  a->ncand = a->icand = 0;
  goap__hist_close(a, GOAP_NO_PLAN, -1, 0, 0);
  return GOAP_NO_PLAN;
}
