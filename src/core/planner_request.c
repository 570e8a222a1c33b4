/*
 * planner_request.c -- a request's set-up before the search (split from planner.c): the
 * action selection (callbacks, costs, relevance pruning), the goal's compiled form and the
 * goal cache's use, and the checks of the request; and goap_plan_validate.
 *
 * Invariants:
 *  - Action callbacks (check, dynamic cost) run at most once per action per request, here,
 *    and only for actions that survive relevance pruning.
 *  - A selection is made once per goal-cache key; a request whose key is cached reuses the
 *    slot's arrays without allocating.
 *  - Nothing here changes the search's pools; the search (planner.c) starts after prepare.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "goal_cache.h"

#define F_EVAL 1u
#define F_USABLE 2u
#define F_RELEVANT 4u
#define F_ACTIVE 8u
/* The request flags that change the action selection (the others only steer the search). */
#define SEL_FLAGS (GOAP_REQUEST_NO_PRUNING | GOAP_REQUEST_NO_CALLBACKS)
/* Every request flag of goap.h: any other bit is GOAP_INVALID_ARGUMENT. */
#define GOAP__REQUEST_KNOWN                                                                     \
  (GOAP_REQUEST_NO_PRUNING | GOAP_REQUEST_PREFERRED | GOAP_REQUEST_LAZY |                       \
   GOAP_REQUEST_NO_CALLBACKS | GOAP_REQUEST_UNTIMED | GOAP_REQUEST_STUBBORN | GOAP_REQUEST_TIMED)

/* ---- request set-up -------------------------------------------------------------------------- */

static double eval_cost(goap_planner *p, int a) {
  const goap__action *x = &p->d->actions[a];
  double c = p->req_costs ? p->sel_costs[a] : x->cost;
  if (x->dyn_cost && !(p->flags & GOAP_REQUEST_NO_CALLBACKS)) c = x->dyn_cost(p->host, a, x->user);
  return c;
}

/* Evaluates callbacks once; returns 1 if the action may be used. */
static int usable(goap_planner *p, int a) {
  if (p->aflag[a] & F_EVAL) return (p->aflag[a] & F_USABLE) != 0;
  p->aflag[a] |= F_EVAL;
  const goap__action *x = &p->d->actions[a];
  if (x->never || x->neff == 0) return 0;
  if (x->check && !(p->flags & GOAP_REQUEST_NO_CALLBACKS) && !x->check(p->host, a, x->user)) {
    ++p->cb_rejects;
    return 0;
  }
  double c = eval_cost(p, a);
  if (!(c >= 0.0) || !isfinite(c)) {
    if (x->dyn_cost) ++p->cb_rejects;
    return 0;
  }
  p->acost[a] = x->scost ? c + x->min_cost : c; /* a positional cost's lower bound */
  p->aflag[a] |= F_USABLE;
  return 1;
}

/* Does a request with these flags call some state cost of d? */
static inline int scost_req(const goap_domain *d, unsigned flags) {
  return d->has_scost && (!(flags & GOAP_REQUEST_NO_CALLBACKS) || (d->has_scost & 2));
}

/* Does effect e (on a bool/enum var) help relaxed condition c? Int vars: any effect helps. */
static int effect_helps(const goap_domain *d, const goap_effect *e, const goap__rcond *c) {
  const goap__var *v = &d->vars[e->var];
  if (v->type == GOAP_INT) return 1;
  uint64_t k = (uint64_t)((int64_t)e->value - (int64_t)v->lo);
  return k >= c->a && k <= c->b && !(c->has_ne && k == c->ne);
}

/* Small mode (the common game case): a one-word domain with at most 64 active actions that
 * are all plain masks. Their masks are copied in active order and, for each, the set of
 * active actions whose usefulness its effects can change is precomputed as a bit mask. */
static void setup_small(goap_planner *p) {
  p->small = 0;
  if (!p->quick || p->nactive < 1 || p->nactive > 64) return;
  for (int i = 0; i < p->nactive; ++i)
    if (!p->quick[p->active[i]].simple) return;
  const goap_domain *d = p->d;
  for (int i = 0; i < p->nactive; ++i) {
    int32_t a = p->active[i];
    const goap__action *x = &d->actions[a];
    p->small_q[i] = p->quick[a];
    uint64_t aff = 0;
    for (int e = 0; e < x->neff; ++e) {
      int32_t v = x->eff[e].var;
      for (uint32_t j = p->touch_off[v]; j < p->touch_off[v + 1]; ++j) {
        int32_t bi = p->act2idx[p->touch[j]];
        if (bi >= 0) aff |= (uint64_t)1 << bi;
      }
    }
    p->small_aff[i] = aff;
  }
  /* the nibble tables (goap_planner.small_nib) */
  for (int k = 0; k < p->small_nib; ++k) {
    uint64_t *T = p->small_tab + 32 * k;
    unsigned sh = p->small_nsh[k];
    for (unsigned v = 0; v < 16; ++v) {
      uint64_t app = 0, hold = 0;
      for (int i = 0; i < p->nactive; ++i) {
        const goap__quick *q = &p->small_q[i];
        unsigned pm = (unsigned)(q->pm >> sh) & 15u, pv = (unsigned)(q->pv >> sh) & 15u;
        unsigned em = (unsigned)(q->em >> sh) & 15u, ev = (unsigned)(q->ev >> sh) & 15u;
        app |= (uint64_t)((v & pm) == pv) << i;
        hold |= (uint64_t)((v & em) == ev) << i;
      }
      T[v] = app;
      T[16 + v] = hold;
    }
  }
  p->small = 1;
}

static void select_finish(goap_planner *p);

/* The relevance analysis and action selection of the current goal. keep_eval: the callbacks
 * already asked in this request (F_EVAL) are not asked again (see reselect_fast). */
static goap_status select_actions(goap_planner *p, int keep_eval) {
  const goap_domain *d = p->d;
  goap__relax *r = &p->rx;
  int A = d->nactions;
  if (keep_eval) {
    for (int a = 0; a < A; ++a) p->aflag[a] &= (uint8_t)(F_EVAL | F_USABLE);
  } else {
    memset(p->aflag, 0, (size_t)(A ? A : 1));
    p->cb_rejects = 0;
  }
  /* a state cost may read any variable: every writer can change a relevant step's price */
  if ((p->flags & GOAP_REQUEST_NO_PRUNING) || scost_req(d, p->flags)) {
    for (int a = 0; a < A; ++a)
      if (usable(p, a)) p->aflag[a] |= F_RELEVANT;
  } else {
    /* backward relevance: conditions enter a worklist; writers of their variable whose effect
     * can help become relevant, and their own conditions enter the worklist */
    size_t need = (size_t)r->ncond + (size_t)r->ngoal;
    goap_status st = goap__planner_grow(p, (void **)&p->queue, &p->cap_queue, need ? need : 1,
                                        sizeof *p->queue);
    if (st != GOAP_OK) return st;
    size_t qh = 0, qt = 0;
    for (int g = 0; g < r->ngoal; ++g) p->queue[qt++] = r->ncond + g;
    while (qh < qt) {
      int c = p->queue[qh++];
      const goap__rcond *rc = &r->cond[c];
      int32_t v = rc->var;
      for (uint32_t k = d->writers_off[v]; k < d->writers_off[v + 1]; ++k) {
        int32_t a = d->writers[k];
        if (p->aflag[a] & F_RELEVANT) continue;
        const goap__action *x = &d->actions[a];
        const goap_effect *e = NULL;
        for (int j = 0; j < x->neff; ++j)
          if (x->eff[j].var == v) e = &x->eff[j];
        if (!e || !effect_helps(d, e, rc)) continue;
        if (!usable(p, a)) continue;
        p->aflag[a] |= F_RELEVANT;
        for (uint32_t j = r->act_off[a]; j < r->act_off[a + 1]; ++j) p->queue[qt++] = (int32_t)j;
      }
    }
  }
  select_finish(p);
  return GOAP_OK;
}

/* From the relevant actions (F_RELEVANT) and their costs: the active list, the numbers of the
 * cheap heuristics and the small-mode tables. */
static void select_finish(goap_planner *p) {
  const goap_domain *d = p->d;
  goap__relax *r = &p->rx;
  int A = d->nactions;
  p->nactive = 0;
  p->cmin = GOAP__INF;
  p->max_eff_active = 0;
  for (int v = 0; v < d->nvars; ++v) p->var_best[v] = GOAP__INF;
  for (int a = 0; a < A; ++a) {
    p->act2idx[a] = -1;
    if (!(p->aflag[a] & F_RELEVANT)) continue;
    p->aflag[a] |= F_ACTIVE;
    p->act2idx[a] = p->nactive;
    p->active[p->nactive++] = a;
    double c = p->acost[a];
    if (c < p->cmin) p->cmin = c;
    const goap__action *x = &d->actions[a];
    if (x->neff > p->max_eff_active) p->max_eff_active = x->neff;
    for (int j = 0; j < x->neff; ++j)
      if (c < p->var_best[x->eff[j].var]) p->var_best[x->eff[j].var] = c;
  }
  if (p->cmin >= GOAP__INF) p->cmin = 0.0;
  /* goal-count scaling: the most goal conditions one action can achieve */
  p->max_achieve = 0;
  for (int g = 0; g < p->nwant; ++g) p->goal_best[g] = GOAP__INF;
  for (int i = 0; i < p->nactive; ++i) {
    int32_t a = p->active[i];
    const goap__action *x = &d->actions[a];
    int n = 0;
    for (int g = 0; g < p->nwant; ++g) {
      const goap__rcond *gc = &r->cond[r->ncond + g];
      for (int j = 0; j < x->neff; ++j) {
        if (x->eff[j].var != gc->var || !effect_helps(d, &x->eff[j], gc)) continue;
        ++n;
        if (p->acost[a] < p->goal_best[g]) p->goal_best[g] = p->acost[a];
        break;
      }
    }
    if (n > p->max_achieve) p->max_achieve = n;
  }
  p->gc_scale = p->max_achieve ? p->cmin / (double)p->max_achieve : 0.0;
  p->stats.actions_considered = p->nactive;
  setup_small(p);
}

/* A domain with callbacks, a goal whose last selection rejected no action through a callback:
 * that selection is the relevance closure, and it stands as long as every callback of its
 * actions still accepts. Asks them (once each, F_EVAL); returns 1 if all accept, *changed
 * when a dynamic cost differs from the last one. Returns 0 at the first refusal: the caller
 * then makes the selection again (select_actions with keep_eval), which asks no callback
 * twice. */
static int reselect_fast(goap_planner *p, int *changed) {
  const goap_domain *d = p->d;
  for (int a = 0; a < d->nactions; ++a) p->aflag[a] &= (uint8_t) ~(F_EVAL | F_USABLE);
  p->cb_rejects = 0;
  *changed = 0;
  for (int i = 0; i < p->nactive; ++i) {
    int32_t a = p->active[i];
    const goap__action *x = &d->actions[a];
    if (!x->check && !x->dyn_cost) continue;
    double old = p->acost[a];
    if (!usable(p, a)) return 0;
    if (p->acost[a] != old) *changed = 1;
  }
  return 1;
}

static goap_status compile_goal(goap_planner *p) {
  const goap_domain *d = p->d;
  memset(p->goal_mask, 0, p->W * sizeof *p->goal_mask);
  memset(p->goal_val, 0, p->W * sizeof *p->goal_val);
  p->goal_never = 0;
  for (int i = 0; i < p->nwant; ++i) {
    const goap_cond *c = &p->want[i];
    const goap__var *v = &d->vars[c->var];
    goap__ftest *t = &p->goal_ft[i];
    uint64_t a, b, ne;
    uint32_t has_ne;
    t->word = v->word;
    t->shift = v->shift;
    t->fmask = v->fmask;
    t->var = c->var;
    if (!goap__cond_interval(d, c, &a, &b, &ne, &has_ne)) {
      p->goal_never = 1;
      t->a = 1;
      t->b = 0;
      t->ne = 0;
      t->has_ne = 0;
      continue;
    }
    t->a = a;
    t->b = b;
    t->ne = ne;
    t->has_ne = has_ne;
    if (a == b && !has_ne) {
      uint64_t m = v->fmask << v->shift, val = a << v->shift;
      if ((p->goal_mask[v->word] & m) && ((p->goal_val[v->word] & m) != val)) p->goal_never = 1;
      p->goal_mask[v->word] |= m;
      p->goal_val[v->word] = (p->goal_val[v->word] & ~m) | val;
    }
  }
  return GOAP_OK;
}

/* The relaxed task's goal conditions for the current goal: deferred on a goal-cache hit until
 * a search needs them (the small search never does). */
goap_status goap__rx_goal(goap_planner *p) {
  if (!p->rx_stale) return GOAP_OK;
  goap_status st = goap__relax_set_goal(p);
  if (st == GOAP_OK) p->rx_stale = 0;
  return st;
}

goap_status goap__plan_prepare(goap_planner *p, const goap_request *req) {
  const goap_domain *d = p->d;
  if (!req) return GOAP_INVALID_ARGUMENT;
  if ((unsigned)req->search > (unsigned)GOAP_SEARCH_GREEDY) return GOAP_INVALID_ARGUMENT;
  if ((unsigned)req->heuristic > (unsigned)GOAP_H_LMCUT) return GOAP_INVALID_ARGUMENT;
  if (req->want_count < 0 || (req->want_count > 0 && !req->want)) return GOAP_INVALID_ARGUMENT;
  double w = req->weight;
  if (req->search == GOAP_SEARCH_WASTAR) {
    if (w == 0.0) w = 2.0;
    if (!(w >= 1.0) || !isfinite(w)) return GOAP_INVALID_ARGUMENT;
  } else {
    w = 1.0;
  }
  if (!(req->max_ms >= 0.0) || !isfinite(req->max_ms)) return GOAP_INVALID_ARGUMENT;
  if (req->flags & ~GOAP__REQUEST_KNOWN) return GOAP_INVALID_ARGUMENT; /* a bit no version knows */
  /* the flags with conditions (none set: one test) */
  if (req->flags & (GOAP_REQUEST_UNTIMED | GOAP_REQUEST_PREFERRED | GOAP_REQUEST_LAZY |
                    GOAP_REQUEST_NO_CALLBACKS)) {
    if ((req->flags & GOAP_REQUEST_UNTIMED) &&
        (req->max_ms > 0.0 || (req->flags & GOAP_REQUEST_TIMED)))
      return GOAP_INVALID_ARGUMENT;
    if (req->flags & GOAP_REQUEST_PREFERRED) {
      if (req->search != GOAP_SEARCH_GREEDY && req->search != GOAP_SEARCH_WASTAR)
        return GOAP_INVALID_ARGUMENT;
      if (req->heuristic != GOAP_H_FF) return GOAP_INVALID_ARGUMENT;
    }
    /* LAZY: every forward search (A* keeps its optimality, see offer and step_impl) */
    if ((req->flags & GOAP_REQUEST_LAZY) && req->search == GOAP_SEARCH_BACKWARD)
      return GOAP_INVALID_ARGUMENT;
    if ((req->flags & GOAP_REQUEST_NO_CALLBACKS) && !req->costs) return GOAP_INVALID_ARGUMENT;
  }
  /* positional costs price full states: not regression nodes, not canonical states */
  if (scost_req(d, req->flags) && (req->search == GOAP_SEARCH_BACKWARD || req->symmetry))
    return GOAP_INVALID_ARGUMENT;
  size_t nw = (size_t)req->want_count;
  size_t na = (size_t)d->nactions;
  unsigned sflags = req->flags & SEL_FLAGS;
  if (req->costs &&
      (!p->costs_seen || (na && memcmp(p->sel_costs, req->costs, na * sizeof *p->sel_costs)))) {
    /* other costs than the last request's: selections made with costs no longer match */
    if (na) memcpy(p->sel_costs, req->costs, na * sizeof *p->sel_costs);
    p->costs_seen = 1;
    if (++p->cost_stamp == 0) {
      for (int i = 0; i < p->ngslots; ++i)
        if (p->gslots[i].req_costs) p->gslots[i].serial = 0;
    }
  }
  /* the slot found last for this want array, checked by content; else by the key's hash */
  uint64_t gh = 0;
  int gi = goap__gslot_hinted(p, req, sflags);
  if (gi < 0) {
    gh = goap__gkey_hash(req->want, req->want_count, sflags, req->costs != NULL, p->cost_stamp);
    gi = goap__gslot_find(p, req, sflags, gh);
    if (gi >= 0) goap__gslot_hint_set(p, req, gi);
  }
  if (gi < 0) { /* a goal in the cache was checked when it entered */
    char msg[8];
    for (int i = 0; i < req->want_count; ++i) {
      goap_status st = goap__check_cond(d->vars, d->nvars, &req->want[i], msg, sizeof msg);
      if (st != GOAP_OK) return GOAP_INVALID_ARGUMENT;
    }
  }
  if (req->start) {
    /* reject states with out-of-range fields (e.g. uninitialised memory); fields whose range
     * fills all their bits cannot be out of range */
    for (int k = 0; k < d->nodd_vars; ++k) {
      const goap__var *var = &d->vars[d->odd_vars[k]];
      if (goap__field_get(req->start, var->word, var->shift, var->fmask) > var->range)
        return GOAP_INVALID_ARGUMENT;
    }
  }
  if (req->symmetry && req->search != GOAP_SEARCH_BACKWARD) {
    goap_status st = goap__sym_setup(p, req->symmetry);
    if (st != GOAP_OK) return st;
  }
  if (req->start) {
    /* bits outside every field are ignored (and cleared so that states compare equal) */
    if (p->W == 1) p->start[0] = req->start[0] & d->used[0];
    else
      for (uint32_t k = 0; k < p->W; ++k) p->start[k] = req->start[k] & d->used[k];
  }
  else memcpy(p->start, d->defaults, p->W * sizeof *p->start);
  p->search = req->search;
  p->heur = req->heuristic;
  p->weight = w;
  p->req_max_nodes = req->max_nodes ? req->max_nodes : p->cap_nodes;
  if (p->req_max_nodes > p->cap_nodes) p->req_max_nodes = p->cap_nodes;
  p->max_ms = req->max_ms;
  p->host = req->host;
  p->flags = req->flags;
  p->lazy = (req->flags & GOAP_REQUEST_LAZY) != 0;
  p->lazy_astar = p->lazy && req->search == GOAP_SEARCH_ASTAR;
  p->pref_on = (req->flags & GOAP_REQUEST_PREFERRED) != 0;
  goap_status st;
  if (gi >= 0) {
    goap__gslot *g = &p->gslots[gi];
    g->used = ++p->gslot_clock;
    if (gi != p->gslot_current) {
      p->gslot_current = -1;
      goap__gslot_use(p, gi);
      goap__gslot_load(p, g);
      p->rx_stale = 1;
      p->gslot_current = gi;
    }
    if (!d->has_callbacks) {
      p->stats.actions_considered = p->nactive;
      return GOAP_OK;
    }
    /* callbacks: the goal's compiled form stands; the callbacks are asked again, and the
     * selection is made again unless they all accept as before (reselect_fast) */
    p->gslot_current = -1;
    st = goap__rx_goal(p);
    if (st != GOAP_OK) return st;
    int changed = 1, fast = g->cb_all ? reselect_fast(p, &changed) : -1;
    if (fast == 1 && !changed) {
      p->gslot_current = gi;
      p->stats.actions_considered = p->nactive;
      return GOAP_OK;
    }
    g->serial = 0;
    goap__gserial_new(p);
    if (fast == 1) {
      select_finish(p); /* the same actions, other costs */
    } else {
      st = select_actions(p, fast == 0);
      if (st != GOAP_OK) return st;
    }
    goap__gslot_save(p, g);
    p->gslot_current = gi;
    return GOAP_OK;
  }
  /* a goal not in the cache: the least recently used slot (an empty one first) */
  int v = 0;
  for (int i = 1; i < p->ngslots && p->gslots[v].serial; ++i)
    if (!p->gslots[i].serial || p->gslots[i].used < p->gslots[v].used) v = i;
  goap__gslot *g = &p->gslots[v];
  g->serial = 0;
  p->gslot_current = -1;
  st = goap__gslot_reserve(p, g, nw);
  if (st != GOAP_OK) return st;
  goap__gslot_use(p, v);
  if (nw) memcpy(p->want, req->want, nw * sizeof *p->want);
  p->nwant = req->want_count;
  p->req_costs = req->costs != NULL;
  goap__gserial_new(p);
  p->rx_stale = 1;
  st = goap__rx_goal(p);
  if (st != GOAP_OK) return st;
  st = compile_goal(p);
  if (st != GOAP_OK) return st;
  st = select_actions(p, 0);
  if (st != GOAP_OK) return st;
  g->hash = gh;
  g->flags = sflags;
  g->cost_stamp = p->cost_stamp;
  g->used = ++p->gslot_clock;
  goap__gslot_save(p, g);
  p->gslot_current = v;
  goap__gslot_hint_set(p, req, v);
  return GOAP_OK;
}

/* ---- validation ----------------------------------------------------------------------------- */

goap_status goap_plan_validate(const goap_domain *d, const goap_word *start,
                               const goap_cond *want, int want_count, const int32_t *plan,
                               int plan_length, double *cost, int *bad_step) {
  if (bad_step) *bad_step = -1;
  if (cost) *cost = 0.0;
  if (!d || plan_length < 0 || (plan_length > 0 && !plan) || want_count < 0 ||
      (want_count > 0 && !want))
    return GOAP_INVALID_ARGUMENT;
  goap_word local[16];
  goap_word *s = local;
  size_t W = d->words;
  if (W > 16) {
    s = (goap_word *)goap__alloc(&d->alloc, W * sizeof *s);
    if (!s) return GOAP_OUT_OF_MEMORY;
  }
  if (start) memcpy(s, start, W * sizeof *s);
  else memcpy(s, d->defaults, W * sizeof *s);
  goap_status st = GOAP_OK;
  double c = 0.0;
  for (int i = 0; i < plan_length; ++i) {
    const goap__action *x = plan[i] >= 0 && plan[i] < d->nactions ? &d->actions[plan[i]] : NULL;
    double e = x && x->scost ? x->min_cost : 0.0; /* a positional cost, priced before the step */
    if (x && x->scost && (x->scost_flags & GOAP_STATE_COST_PURE)) {
      double v = x->scost(NULL, plan[i], s, x->scost_user);
      if (!(v >= 0.0) || !(v < GOAP__INF)) e = -1.0; /* inapplicable here */
      else if (v > e) e = v;
    }
    if (e < 0.0 || goap_action_apply(d, s, plan[i]) != GOAP_OK) {
      st = GOAP_INVALID_OPERATION;
      if (bad_step) *bad_step = i;
      break;
    }
    c += x->cost + e;
  }
  if (st == GOAP_OK && !goap_state_satisfies(d, s, want, want_count)) {
    st = GOAP_INVALID_OPERATION;
    if (bad_step) *bad_step = plan_length;
  }
  if (cost) *cost = c;
  if (s != local) goap__free(&d->alloc, s, W * sizeof *s);
  return st;
}
