/*
 * inspect.c -- what an agent is thinking (goap/inspect.h): its ranked goals, its plan and the
 * conditions it relies on, its last replans and its failure memory.
 *
 * Invariants:
 *  - The inspection functions only read the agent: no allocation, no host callback, no write
 *    (not even to the agent's scratch state), so several threads may inspect it at once.
 *  - hist is a ring of hist_cap entries (none when hist_cap is 0: nothing is kept): hist_len valid ones ending just before hist_next;
 *    the newest entry is open (hist_open) from the replan that began it until a plan is
 *    adopted or no goal can be planned. facts holds at most hist_cap facts, oldest first; a
 *    fact learnt again for the same variable replaces the older one.
 */
#include <math.h>
#include <string.h>

#include "agent_impl.h"

/* ---- bookkeeping called by agent.c ---------------------------------------------------------- */

static goap_replan_info *newest(goap_agent *a) {
  int i = a->hist_next - 1;
  if (i < 0) i += a->hist_cap;
  return &a->hist[i];
}

void goap__hist_open(goap_agent *a, goap_replan_reason reason) {
  if (!a->hist_cap) return; /* no history kept */
  goap_replan_info *h = &a->hist[a->hist_next];
  memset(h, 0, sizeof *h);
  h->time = a->time;
  h->reason = reason;
  h->status = GOAP_IN_PROGRESS;
  h->goal = -1;
  a->hist_next = (a->hist_next + 1) % a->hist_cap;
  if (a->hist_len < a->hist_cap) a->hist_len++;
  a->hist_open = 1;
}

void goap__hist_search(goap_agent *a, const goap_stats *st, int cached) {
  if (!a->hist_open) return;
  goap_replan_info *h = newest(a);
  h->goals_tried++;
  h->cached = cached;
  if (st) {
    h->expanded += st->expanded;
    h->generated += st->generated;
    h->search_us += st->time_us;
  }
}

void goap__hist_close(goap_agent *a, goap_status status, int goal, double cost, int length) {
  if (!a->hist_open) return;
  goap_replan_info *h = newest(a);
  h->status = status;
  h->goal = goal;
  h->cost = cost;
  h->plan_length = length;
  if (status != GOAP_OK) h->cached = 0;
  a->hist_open = 0;
}

void goap__fact_learnt(goap_agent *a, int act, int var, int32_t value, int timeout) {
  if (!a->hist_cap) return;
  int k = 0;
  while (k < a->nfacts && a->facts[k].var != var) ++k;
  if (k == a->nfacts && a->nfacts == a->hist_cap) k = 0; /* full: the oldest goes */
  if (k < a->nfacts) { /* drop entry k, keeping the order */
    memmove(a->facts + k, a->facts + k + 1, (size_t)(a->nfacts - k - 1) * sizeof *a->facts);
    a->nfacts--;
  }
  goap_failure_info *f = &a->facts[a->nfacts++];
  memset(f, 0, sizeof *f);
  f->goal = -1;
  f->action = act;
  f->var = var;
  f->value = value;
  f->timeout = timeout;
  f->status = GOAP_OK;
  f->learnt = a->time;
  f->expires = INFINITY;
}

/* ---- goals ------------------------------------------------------------------------------------ */

static const char *const state_names[] = {"current", "candidate",   "achieved",
                                          "invalid", "cooldown",    "no_priority"};

const char *goap_goal_state_name(goap_goal_state s) {
  if ((unsigned)s >= sizeof state_names / sizeof *state_names) return "unknown";
  return state_names[s];
}

static void goal_info(const goap_agent *a, int g, uint64_t h, goap_goal_info *o) {
  const goap__rt_goal *r = &a->t->goal[g];
  memset(o, 0, sizeof *o);
  o->goal = g;
  o->ordered = g == a->order_goal;
  o->priority = o->ordered ? a->order_prio : a->gprio[g];
  o->failed_at = a->fail_time[g];
  o->fail_status = a->fail_time[g] >= 0 ? a->fail_st[g] : GOAP_OK;
  o->failed_cond.var = -1;
  int nw = 0;
  const goap_cond *w = goap_domain_goal_want(a->d, g, &nw);
  const goap_cond *vc = a->t->conds + r->valid;
  int bad = -1;
  for (uint32_t i = 0; i < r->valid_count && bad < 0; ++i)
    if (!goap_state_satisfies(a->d, a->mem, &vc[i], 1)) bad = (int)i;
  if (a->ph == GOAP__AGENT_EXECUTE && a->goal == g) o->state = GOAP_GOAL_CURRENT;
  else if (bad >= 0) {
    o->state = GOAP_GOAL_INVALID;
    o->failed_cond = vc[bad];
  } else if (goap_state_satisfies(a->d, a->mem, w, nw)) {
    o->state = GOAP_GOAL_ACHIEVED;
  } else if (r->cooldown > 0 && !o->ordered && a->end_time[g] >= 0 &&
             a->time + 1e-6 < a->end_time[g] + r->cooldown) { /* the goal's own cooldown */
    o->state = GOAP_GOAL_COOLDOWN;
    o->retry_at = a->end_time[g] + r->cooldown;
  } else if (a->fail_time[g] >= 0 && a->time < a->fail_time[g] + a->t->cooldown &&
             a->fail_hash[g] == h) {
    o->state = GOAP_GOAL_COOLDOWN;
    o->retry_at = a->fail_time[g] + a->t->cooldown;
  } else if (!(o->priority == o->priority)) {
    o->state = GOAP_GOAL_NO_PRIORITY;
  } else {
    o->state = GOAP_GOAL_CANDIDATE;
  }
}

/* x ranks before y: by priority (NaN last), then by id. */
static int before(const goap_goal_info *x, const goap_goal_info *y) {
  int xn = !(x->priority == x->priority), yn = !(y->priority == y->priority);
  if (xn != yn) return yn;
  if (!xn && x->priority != y->priority) return x->priority > y->priority;
  return x->goal < y->goal;
}

int goap_agent_inspect_goals(const goap_agent *a, goap_goal_info *out, int capacity) {
  if (!a || capacity < 0 || (capacity > 0 && !out)) return -1;
  if (a->t->htn) return 0;
  uint64_t h = goap__agent_mem_hash(a);
  int count = 0, n = 0; /* n: entries in out, sorted */
  for (int g = 0; g < a->t->ng; ++g) {
    if (a->t->goal[g].disabled) continue;
    count++;
    if (capacity == 0) continue;
    goap_goal_info gi;
    goal_info(a, g, h, &gi);
    if (n == capacity && !before(&gi, &out[n - 1])) continue;
    int k = n < capacity ? n++ : n - 1;
    while (k > 0 && before(&gi, &out[k - 1])) {
      out[k] = out[k - 1];
      --k;
    }
    out[k] = gi;
  }
  return count;
}

/* ---- the plan --------------------------------------------------------------------------------- */

/* Is variable v written by an effect of plan[from..to)? */
static int provided(const goap_agent *a, int from, int to, int v) {
  for (int k = from; k < to; ++k) {
    int ne = 0;
    const goap_effect *e = goap_domain_action_eff(a->d, a->plan[k], &ne);
    for (int i = 0; i < ne; ++i)
      if (e[i].var == v) return 1;
  }
  return 0;
}

goap_status goap_agent_inspect_plan(const goap_agent *a, goap_plan_info *info,
                                    goap_plan_step_info *steps, int step_capacity,
                                    goap_cond *conds, int cond_capacity) {
  if (!a || !info || step_capacity < 0 || cond_capacity < 0 || (step_capacity && !steps) ||
      (cond_capacity && !conds))
    return GOAP_INVALID_ARGUMENT;
  memset(info, 0, sizeof *info);
  info->goal = -1;
  info->planning = a->ph == GOAP__AGENT_SELECT && a->searching;
  if (a->ph != GOAP__AGENT_EXECUTE) return GOAP_OK;
  info->goal = a->goal;
  info->priority = a->goal >= 0 ? a->goal_prio : 0;
  info->cost = a->plan_cost;
  info->length = a->plan_len;
  info->step = a->step;
  info->running = a->running;
  info->action_time = a->running ? a->action_time : 0;
  int need = 0;
  for (int j = a->step; j < a->plan_len; ++j) {
    int np = 0;
    const goap_cond *p = goap_domain_action_pre(a->d, a->plan[j], &np);
    for (int i = 0; i < np; ++i) need += !provided(a, a->step, j, p[i].var);
  }
  info->cond_count = need;
  if (step_capacity < a->plan_len || cond_capacity < need) return GOAP_BUFFER_TOO_SMALL;
  int nc = 0;
  for (int j = 0; j < a->plan_len; ++j) {
    goap_plan_step_info *s = &steps[j];
    memset(s, 0, sizeof *s);
    s->action = a->plan[j];
    s->cost = a->t->costs[a->plan[j]];
    s->state = j < a->step                 ? GOAP_STEP_DONE
               : j == a->step && a->running ? GOAP_STEP_RUNNING
                                            : GOAP_STEP_PENDING;
    s->relies_first = nc;
    s->relies_hold = 1;
    if (j < a->step) continue;
    int np = 0;
    const goap_cond *p = goap_domain_action_pre(a->d, a->plan[j], &np);
    for (int i = 0; i < np; ++i) {
      if (provided(a, a->step, j, p[i].var)) continue;
      conds[nc++] = p[i];
      s->relies_count++;
      if (!goap_state_satisfies(a->d, a->mem, &p[i], 1)) s->relies_hold = 0;
    }
  }
  return GOAP_OK;
}

/* ---- replans and failures ---------------------------------------------------------------------- */

int goap_agent_inspect_replans(const goap_agent *a, goap_replan_info *out, int capacity) {
  if (!a || capacity < 0 || (capacity > 0 && !out)) return -1;
  int n = a->hist_len < capacity ? a->hist_len : capacity;
  /* the newest n, oldest first */
  for (int i = 0; i < n; ++i) {
    int k = a->hist_next - n + i;
    while (k < 0) k += a->hist_cap;
    out[i] = a->hist[k % a->hist_cap];
  }
  return a->hist_len;
}

int goap_agent_inspect_failures(const goap_agent *a, goap_failure_info *out, int capacity) {
  if (!a || capacity < 0 || (capacity > 0 && !out)) return -1;
  int count = 0;
  for (int k = 0; k < a->nfacts; ++k) {
    const goap_failure_info *f = &a->facts[k];
    if (goap_state_get(a->d, a->mem, f->var) != f->value) continue; /* overwritten since */
    if (count < capacity) out[count] = *f;
    count++;
  }
  uint64_t h = goap__agent_mem_hash(a);
  for (int g = 0; g < a->t->ng; ++g) {
    if (a->fail_time[g] < 0) continue;
    double until = a->fail_time[g] + a->t->cooldown;
    if (a->time >= until || a->fail_hash[g] != h) continue; /* retried on the next choice */
    if (count < capacity) {
      goap_failure_info *o = &out[count];
      memset(o, 0, sizeof *o);
      o->goal = g;
      o->action = -1;
      o->var = -1;
      o->status = a->fail_st[g];
      o->learnt = a->fail_time[g];
      o->expires = until;
    }
    count++;
  }
  return count;
}
