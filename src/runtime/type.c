/*
 * type.c -- agent types (what a kind of agent can do) and the runtime's memory helpers.
 *
 * Invariants:
 *  - A type copies everything it is given (bindings, effect, condition and variable lists,
 *    sensors, the name) into blocks it owns, so the caller's descriptions may be freed.
 *  - costs[a] is the cost the type plans action a with (domain cost * scale), or -1 when the
 *    type does not have the action; it is passed to the core as goap_request.costs.
 *  - Validation happens before anything is kept: a failed create leaks nothing.
 *  - An HTN type (htn != NULL) has every goal disabled and no disabled action; its htn_watch
 *    variables live in the vars pool like the bindings' watch lists.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runtime.h"

void *goap__rt_alloc(const goap_allocator *a, size_t n) {
  if (n == 0) n = 1;
  void *p = a->fn(a->ctx, NULL, 0, n);
  if (p) memset(p, 0, n);
  return p;
}

char *goap__rt_strdup(const goap_allocator *a, const char *s, size_t *size) {
  size_t n = strlen(s) + 1;
  char *p = (char *)goap__rt_alloc(a, n);
  if (p) memcpy(p, s, n);
  *size = n;
  return p;
}

/* ---- creation ----------------------------------------------------------------------------- */

static int check_vars(const goap_domain *d, const int32_t *v, int n) {
  if (n < 0 || (n > 0 && !v)) return 0;
  for (int i = 0; i < n; ++i)
    if (v[i] < 0 || v[i] >= goap_domain_var_count(d)) return 0;
  return 1;
}

static int check_effects(const goap_domain *d, const goap_effect *e, int n) {
  if (n < 0 || (n > 0 && !e)) return 0;
  for (int i = 0; i < n; ++i) {
    goap_var_info vi;
    if (goap_domain_var_info(d, e[i].var, &vi) != GOAP_OK) return 0;
    if (e[i].op == GOAP_SET) {
      if (e[i].value < vi.lo || e[i].value > vi.hi) return 0;
    } else if ((e[i].op != GOAP_ADD && e[i].op != GOAP_ADD_CLAMP) || vi.type != GOAP_INT)
      return 0;
  }
  return 1;
}

static int check_conds(const goap_domain *d, const goap_cond *c, int n) {
  if (n < 0 || (n > 0 && !c)) return 0;
  for (int i = 0; i < n; ++i) {
    goap_var_info vi;
    if (goap_domain_var_info(d, c[i].var, &vi) != GOAP_OK) return 0;
    if ((unsigned)c[i].op > (unsigned)GOAP_GE) return 0;
    if (vi.type != GOAP_INT && c[i].op != GOAP_EQ && c[i].op != GOAP_NE) return 0;
  }
  return 1;
}

static const char *validate(const goap_domain *d, const goap_agent_type_desc *x,
                            size_t *neff, size_t *ncond, size_t *nvar, size_t *nres) {
  int na = goap_domain_action_count(d), ng = goap_domain_goal_count(d);
  if (x->actions ? x->action_count != na : x->action_count != 0)
    return "actions: give one binding per domain action (action_count), or none";
  if (x->goals ? x->goal_count != ng : x->goal_count != 0)
    return "goals: give one binding per domain goal (goal_count), or none";
  if (x->sensor_count < 0 || (x->sensor_count > 0 && !x->sensors))
    return "sensors: bad sensor_count";
  for (int i = 0; i < x->sensor_count; ++i)
    if (!x->sensors[i].fn || !(x->sensors[i].interval >= 0) || !isfinite(x->sensors[i].interval))
      return "sensors: each needs a function and a finite interval >= 0";
  if ((unsigned)x->search > (unsigned)GOAP_SEARCH_GREEDY) return "search: unknown search";
  if (strcmp(goap_heuristic_name(x->heuristic), "unknown") == 0)
    return "heuristic: unknown heuristic";
  if (!isfinite(x->switch_margin) || !(x->goal_check_interval >= 0) ||
      !isfinite(x->goal_check_interval) || !(x->failed_goal_cooldown >= 0) ||
      !isfinite(x->failed_goal_cooldown) || !(x->planning_ms_per_update >= 0) ||
      !isfinite(x->planning_ms_per_update))
    return "timing: margins, intervals and budgets must be finite and >= 0";
  *neff = *ncond = *nvar = *nres = 0;
  if (x->htn) {
    if (goap_htn_domain_goap(x->htn) != d)
      return "htn: the HTN domain must be built over the type's goap_domain";
    if (x->htn_root < 0 || x->htn_root >= goap_htn_domain_task_count(x->htn))
      return "htn_root: not a task of the HTN domain";
    if (x->goals || x->goal_count)
      return "htn: an HTN agent type decomposes its root task and has no goal bindings";
    if (!check_vars(d, x->htn_watch, x->htn_watch_count))
      return "htn_watch lists a bad variable";
    for (int i = 0; x->actions && i < na; ++i)
      if (x->actions[i].disabled)
        return "htn: an HTN agent type cannot disable actions (its methods choose them)";
    *nvar += (size_t)x->htn_watch_count;
  } else if (x->htn_root || x->htn_watch || x->htn_watch_count) {
    return "htn_root / htn_watch: given without an HTN domain (htn)";
  }
  for (int i = 0; x->actions && i < na; ++i) {
    const goap_action_binding *b = &x->actions[i];
    if (!(b->cost_scale >= 0) || !isfinite(b->cost_scale))
      return "action binding: cost_scale must be finite and >= 0";
    if (!(b->timeout >= 0) || !isfinite(b->timeout))
      return "action binding: timeout must be finite and >= 0";
    if (!check_effects(d, b->on_fail, b->on_fail_count))
      return "action binding: on_fail has a bad variable, operator or value";
    if (!check_vars(d, b->watch, b->watch_count))
      return "action binding: watch lists a bad variable";
    if (!check_effects(d, b->on_start, b->on_start_count))
      return "action binding: on_start has a bad variable, operator or value";
    if (!check_effects(d, b->on_end, b->on_end_count))
      return "action binding: on_end has a bad variable, operator or value";
    if (b->reserve_count < 0 || (b->reserve_count > 0 && !b->reserve))
      return "action binding: bad reserve_count";
    for (int k = 0; k < b->reserve_count; ++k)
      if (!b->reserve[k] || !b->reserve[k][0])
        return "action binding: a reserved resource needs a name";
    *neff += (size_t)b->on_fail_count + (size_t)b->on_start_count + (size_t)b->on_end_count;
    *nvar += (size_t)b->watch_count;
    *nres += (size_t)b->reserve_count;
  }
  for (int i = 0; x->goals && i < ng; ++i) {
    const goap_goal_binding *b = &x->goals[i];
    if (!check_conds(d, b->valid, b->valid_count))
      return "goal binding: valid has a bad variable or operator";
    if (!check_vars(d, b->watch, b->watch_count)) return "goal binding: watch lists a bad variable";
    if (!(b->cooldown >= 0) || !isfinite(b->cooldown))
      return "goal binding: cooldown must be a finite number of seconds >= 0";
    *ncond += (size_t)b->valid_count;
    *nvar += (size_t)b->watch_count;
  }
  return NULL;
}

void goap_agent_type_destroy(goap_agent_type *t) {
  if (!t) return;
  goap_allocator a = t->alloc;
  goap__rt_free(&a, t->name, t->name_size);
  goap__rt_free(&a, t->costs, (size_t)t->na * sizeof *t->costs);
  goap__rt_free(&a, t->act, (size_t)t->na * sizeof *t->act);
  goap__rt_free(&a, t->goal, (size_t)t->ng * sizeof *t->goal);
  goap__rt_free(&a, t->effs, t->neffs * sizeof *t->effs);
  goap__rt_free(&a, t->conds, t->nconds * sizeof *t->conds);
  goap__rt_free(&a, t->vars, t->nvars_pool * sizeof *t->vars);
  goap__rt_free(&a, t->sensors, (size_t)t->nsensors * sizeof *t->sensors);
  if (t->res_names) {
    for (size_t i = 0; i < t->nres_names; ++i)
      if (t->res_names[i]) goap__rt_free(&a, t->res_names[i], strlen(t->res_names[i]) + 1);
    goap__rt_free(&a, t->res_names, t->nres_names * sizeof *t->res_names);
  }
  goap__rt_free(&a, t->shared, (size_t)t->nv * sizeof *t->shared);
  goap__rt_free(&a, t, sizeof *t);
}

/* goap_agent_type_create with a static message in *error (never NULL). */
static goap_status type_create(const goap_domain *d, const goap_agent_type_desc *desc,
                               goap_agent_type **out, const char **error) {
  *error = "";
  if (!out) {
    *error = "out is NULL";
    return GOAP_INVALID_ARGUMENT;
  }
  *out = NULL;
  if (!d) {
    *error = "domain is NULL";
    return GOAP_INVALID_ARGUMENT;
  }
  goap_agent_type_desc x;
  memset(&x, 0, sizeof x);
  if (desc) x = *desc;
  size_t neff, ncond, nvar, nres;
  const char *bad = validate(d, &x, &neff, &ncond, &nvar, &nres);
  if (bad) {
    *error = bad;
    return GOAP_INVALID_ARGUMENT;
  }
  goap_allocator a = goap__rt_resolve(&x.allocator);
  goap_agent_type *t = (goap_agent_type *)goap__rt_alloc(&a, sizeof *t);
  if (!t) {
    *error = "out of memory";
    return GOAP_OUT_OF_MEMORY;
  }
  t->alloc = a;
  t->d = d;
  t->na = goap_domain_action_count(d);
  t->ng = goap_domain_goal_count(d);
  t->nv = goap_domain_var_count(d);
  t->W = goap_domain_state_words(d);
  t->neffs = neff;
  t->nconds = ncond;
  t->nvars_pool = nvar;
  t->nsensors = x.sensor_count;
  t->name = goap__rt_strdup(&a, x.name ? x.name : "agent", &t->name_size);
  t->costs = (double *)goap__rt_alloc(&a, (size_t)t->na * sizeof *t->costs);
  t->act = (goap__rt_action *)goap__rt_alloc(&a, (size_t)t->na * sizeof *t->act);
  t->goal = (goap__rt_goal *)goap__rt_alloc(&a, (size_t)t->ng * sizeof *t->goal);
  t->effs = (goap_effect *)goap__rt_alloc(&a, neff * sizeof *t->effs);
  t->conds = (goap_cond *)goap__rt_alloc(&a, ncond * sizeof *t->conds);
  t->vars = (int32_t *)goap__rt_alloc(&a, nvar * sizeof *t->vars);
  t->sensors = (goap_sensor_desc *)goap__rt_alloc(&a, (size_t)t->nsensors * sizeof *t->sensors);
  t->nres_names = nres;
  t->res_names = (char **)goap__rt_alloc(&a, nres * sizeof *t->res_names);
  t->shared = (int32_t *)goap__rt_alloc(&a, (size_t)t->nv * sizeof *t->shared);
  if (!t->name || !t->costs || !t->act || !t->goal || !t->effs || !t->conds || !t->vars ||
      !t->sensors || !t->shared || !t->res_names) {
    goap_agent_type_destroy(t);
    *error = "out of memory";
    return GOAP_OUT_OF_MEMORY;
  }
  size_t ke = 0, kc = 0, kv = 0, kr = 0;
  for (int i = 0; i < t->na; ++i) {
    double c = goap_domain_action_cost(d, i);
    goap__rt_action *r = &t->act[i];
    if (x.actions) {
      const goap_action_binding *b = &x.actions[i];
      if (b->disabled) c = -1;
      else if (b->cost_scale > 0) c *= b->cost_scale;
      r->start = b->start;
      r->tick = b->tick;
      r->stop = b->stop;
      r->user = b->user;
      r->timeout = b->timeout;
      r->on_fail = (uint32_t)ke;
      r->on_fail_count = (uint32_t)b->on_fail_count;
      for (int k = 0; k < b->on_fail_count; ++k) t->effs[ke++] = b->on_fail[k];
      r->watch = (uint32_t)kv;
      r->watch_count = (uint32_t)b->watch_count;
      for (int k = 0; k < b->watch_count; ++k) t->vars[kv++] = b->watch[k];
      r->on_start = (uint32_t)ke;
      r->on_start_count = (uint32_t)b->on_start_count;
      for (int k = 0; k < b->on_start_count; ++k) t->effs[ke++] = b->on_start[k];
      r->on_end = (uint32_t)ke;
      r->on_end_count = (uint32_t)b->on_end_count;
      for (int k = 0; k < b->on_end_count; ++k) t->effs[ke++] = b->on_end[k];
      r->check = b->check;
      r->check_user = b->check_user;
      if (b->check && !b->disabled) t->has_checks = 1;
      r->reserve = (uint32_t)kr;
      r->reserve_count = (uint32_t)b->reserve_count;
      for (int k = 0; k < b->reserve_count; ++k) {
        size_t sz;
        t->res_names[kr] = goap__rt_strdup(&a, b->reserve[k], &sz);
        if (!t->res_names[kr]) {
          goap_agent_type_destroy(t);
          *error = "out of memory";
          return GOAP_OUT_OF_MEMORY;
        }
        kr++;
      }
    }
    t->costs[i] = c;
  }
  for (int i = 0; i < t->ng; ++i) {
    goap__rt_goal *r = &t->goal[i];
    if (!x.goals) continue;
    const goap_goal_binding *b = &x.goals[i];
    r->disabled = b->disabled;
    r->priority = b->priority;
    r->user = b->user;
    r->cooldown = b->cooldown;
    r->valid = (uint32_t)kc;
    r->valid_count = (uint32_t)b->valid_count;
    for (int k = 0; k < b->valid_count; ++k) t->conds[kc++] = b->valid[k];
    r->watch = (uint32_t)kv;
    r->watch_count = (uint32_t)b->watch_count;
    for (int k = 0; k < b->watch_count; ++k) t->vars[kv++] = b->watch[k];
  }
  if (x.htn) {
    t->htn = x.htn;
    t->htn_root = x.htn_root;
    t->hwatch = (uint32_t)kv;
    t->hwatch_count = (uint32_t)x.htn_watch_count;
    for (int k = 0; k < x.htn_watch_count; ++k) t->vars[kv++] = x.htn_watch[k];
    for (int i = 0; i < t->ng; ++i) t->goal[i].disabled = 1;
  } else {
    t->htn_root = -1;
  }
  for (int i = 0; i < t->nsensors; ++i) t->sensors[i] = x.sensors[i];
  for (int v = 0; v < t->nv; ++v) {
    goap_var_info vi;
    goap_domain_var_info(d, v, &vi);
    if (vi.flags & GOAP_VAR_SHARED) t->shared[t->nshared++] = v;
  }
  t->margin = x.switch_margin == 0 ? 1.0 : (x.switch_margin < 0 ? 0.0 : x.switch_margin);
  t->check_interval = x.goal_check_interval > 0 ? x.goal_check_interval : 0.25;
  t->cooldown = x.failed_goal_cooldown > 0 ? x.failed_goal_cooldown : 2.0;
  t->search = x.search;
  t->heuristic = x.heuristic;
  t->max_nodes = x.max_nodes ? x.max_nodes : 65536u;
  t->budget = x.expansions_per_update ? x.expansions_per_update : 4096u;
  t->budget_ms = x.planning_ms_per_update;
  t->initial_nodes = x.planner_initial_nodes ? x.planner_initial_nodes : 256u;
  *out = t;
  t->fingerprint = goap__type_fingerprint(t);
  return GOAP_OK;
}

goap_status goap_agent_type_create(const goap_domain *d, const goap_agent_type_desc *desc,
                                   goap_agent_type **out, goap_error *err) {
  const char *msg;
  goap_status st = type_create(d, desc, out, &msg);
  if (st != GOAP_OK) return goap__err_set(err, st, 0, msg);
  goap__err_clear(err);
  return GOAP_OK;
}

const goap_domain *goap_agent_type_domain(const goap_agent_type *t) { return t ? t->d : NULL; }
const char *goap_agent_type_name(const goap_agent_type *t) { return t ? t->name : NULL; }
const double *goap_agent_type_costs(const goap_agent_type *t, int *count) {
  if (count) *count = t ? t->na : 0;
  return t ? t->costs : NULL;
}

const goap_htn_domain *goap_agent_type_htn(const goap_agent_type *t, int *root) {
  if (root) *root = t && t->htn ? t->htn_root : -1;
  return t ? t->htn : NULL;
}
