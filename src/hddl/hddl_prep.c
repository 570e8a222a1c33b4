/*
 * hddl_prep.c -- what the HDDL planner (hddl_plan.c) computes once per search before the
 * first round: the methods' join literals (own, then lifted from subtasks), the method
 * orders from the lifted task decomposition graph, and the goal-reachability tables.
 *
 * Invariants:
 *  - Everything here reads the task and writes only the search record's tables; nothing
 *    depends on the state but the initial truth counts (pcount, set by hp_init afterwards).
 *  - A method's join literals are a contiguous range of h->lits; its own ones (precondition,
 *    static literals of its primitive subtasks) are the first xb, the lifted ones follow.
 *    Lifting only adds literals a binding must satisfy anyway for the method's first steps
 *    (or, static, at any time): over-approximations never lose a plan.
 *  - The TDG fixpoints ignore arguments and preconditions (upper bounds on what a task can
 *    reach, lower bounds on its primitive steps).
 *  - Every allocation goes through the task's allocator; scratch is freed before returning.
 */
#include <string.h>

#include "hddl_plan.h"

static int oom(hp *h) {
  h->st = GOAP_OUT_OF_MEMORY;
  return 0;
}

/* fluent[p] = 1 for every predicate p some action changes, 0 for the static ones. */
static void mark_fluent(const goap__px_task_core *t, uint8_t *fluent) {
  memset(fluent, 0, t->npreds ? t->npreds : 1);
  for (size_t sc = 0; sc < t->nschemas; ++sc)
    for (int32_t i = t->schemas[sc].lit0; i < t->schemas[sc].lit0 + t->schemas[sc].nlits; ++i)
      if (t->lits[i].kind != PX_LIT_PRE && t->lits[i].pred >= 0) fluent[t->lits[i].pred] = 1;
}

static int push_lit(hp *h, const goap__px_lit *l) {
  if (!goap__grow(h->a, (void **)&h->lits, &h->clits, h->nlits + 1, sizeof *h->lits)) return 0;
  h->lits[h->nlits++] = *l;
  return 1;
}

/* The literals and arguments the planner reads: a copy of the task's (same indices), then per
 * method its join literals: its precondition, then the static precondition literals of its
 * primitive subtasks (on predicates no action changes, and '='), rewritten into the method's
 * parameters. Those hold at execution time exactly when they hold now, so a binding failing
 * one can never be executed: the join drops it at once. */
int goap__hp_build_lits(hp *h) {
  const goap__px_task_core *t = h->t;
  const goap_allocator *a = h->a;
  size_t nm = t->htn.nmethods ? t->htn.nmethods : 1;
  h->x0 = (int32_t *)goap__alloc(a, nm * sizeof *h->x0);
  h->xn = (int32_t *)goap__alloc(a, nm * sizeof *h->xn);
  h->xb = (int32_t *)goap__alloc(a, nm * sizeof *h->xb);
  uint8_t *fluent = (uint8_t *)goap__alloc(a, t->npreds ? t->npreds : 1);
  int ok = h->x0 && h->xn && h->xb && fluent;
  if (ok) mark_fluent(t, fluent);
  for (size_t i = 0; ok && i < t->args.n; ++i) ok = goap__px_ipush(a, &h->av, t->args.v[i]);
  for (size_t i = 0; ok && i < t->nlits; ++i) ok = push_lit(h, &t->lits[i]);
  for (size_t m = 0; ok && m < t->htn.nmethods; ++m) {
    const goap__px_method *pm = &t->htn.methods[m];
    h->x0[m] = (int32_t)h->nlits;
    for (int32_t i = pm->lit0; ok && i < pm->lit0 + pm->nlits; ++i) ok = push_lit(h, &t->lits[i]);
    for (int32_t st = pm->step0; ok && st < pm->step0 + pm->nsteps; ++st) {
      const goap__px_step *ps = &t->htn.steps[st];
      if (ps->task >= 0) continue;
      const goap__px_schema *sc = &t->schemas[-ps->task - 1];
      for (int32_t i = sc->lit0; ok && i < sc->lit0 + sc->nlits; ++i) {
        goap__px_lit l = t->lits[i];
        if (l.kind != PX_LIT_PRE || (l.pred >= 0 && fluent[l.pred])) continue;
        int n = l.pred == PX_EQ ? 2 : t->preds[l.pred].arity;
        l.args = (int32_t)h->av.n;
        for (int k = 0; ok && k < n; ++k) {
          int32_t v = t->args.v[t->lits[i].args + k];
          ok = goap__px_ipush(a, &h->av, v >= 0 ? v : t->args.v[ps->args + (-v - 1)]);
        }
        if (ok) ok = push_lit(h, &l);
      }
    }
    h->xn[m] = h->xb[m] = (int32_t)h->nlits - h->x0[m];
  }
  goap__free(a, fluent, t->npreds ? t->npreds : 1);
  return ok ? 1 : oom(h);
}

/* Literal l (of h->lits) with its arguments mapped by map[k] for variable -(k + 1) (HP_NOMAP:
 * the variable has no image, and the literal is not added), appended to the method join list
 * [from, h->nlits) unless an equal literal is there already. 0 when out of memory. */
#define HP_NOMAP INT32_MIN

static int push_mapped(hp *h, const goap__px_lit *l, const int32_t *map, int32_t nmap, size_t from) {
  int n = l->pred == PX_EQ ? 2 : h->t->preds[l->pred].arity;
  int32_t g[PX_MAX_ARITY];
  for (int k = 0; k < n; ++k) {
    int32_t v = h->av.v[l->args + k];
    if (v < 0 && (-v - 1 >= nmap || map[-v - 1] == HP_NOMAP)) return 1;
    g[k] = v >= 0 ? v : map[-v - 1];
  }
  for (size_t i = from; i < h->nlits; ++i) {
    const goap__px_lit *o = &h->lits[i];
    if (o->pred == l->pred && o->neg == l->neg &&
        (n == 0 || memcmp(h->av.v + o->args, g, (size_t)n * sizeof *g) == 0))
      return 1;
  }
  goap__px_lit c = *l;
  c.kind = PX_LIT_PRE;
  c.args = (int32_t)h->av.n;
  for (int k = 0; k < n; ++k)
    if (!goap__px_ipush(h->a, &h->av, g[k])) return 0;
  return push_lit(h, &c);
}

#define HP_LIFT_PASSES 8 /* rounds of lifting literals up the decomposition graph */
#define HP_LIFT_MAX 64   /* most literals one method gains by lifting */

/* Adds to each method's join literals what its subtasks require of its parameters (after
 * order_methods, which drops the methods that never reach primitives):
 *  - its first subtask starts in the state the method is chosen in: when it is primitive,
 *    all its precondition literals; when it is a compound task with one method left, all of
 *    that method's join literals (its precondition holds now, and what it lifted itself);
 *  - a later compound subtask with one method: that method's join literals on static
 *    predicates and '=' (true now exactly when true later);
 * each literal over the child's task parameters only (mapped through its :task arguments
 * into the subtask's), never one with a variable of the child's own. A binding failing one
 * would fail at the child's decomposition: the join drops it, with the search it would
 * have cost. Repeated a few passes, so a chain of single-method tasks is lifted through;
 * every list stays duplicate-free and gains at most HP_LIFT_MAX literals. */
int goap__hp_lift_lits(hp *h) {
  const goap__px_task_core *t = h->t;
  int32_t *map = (int32_t *)goap__alloc(h->a, h->maxp * sizeof *map);
  uint8_t *fluent = (uint8_t *)goap__alloc(h->a, t->npreds ? t->npreds : 1);
  int ok = map && fluent;
  if (ok) mark_fluent(t, fluent);
  for (int pass = 0, changed = 1; ok && changed && pass < HP_LIFT_PASSES; ++pass) {
    changed = 0;
    for (size_t m = 0; ok && m < t->htn.nmethods; ++m) {
      const goap__px_method *pm = &t->htn.methods[m];
      size_t from = h->nlits, av0 = h->av.n;
      for (int32_t i = h->x0[m]; ok && i < h->x0[m] + h->xn[m]; ++i) {
        goap__px_lit l = h->lits[i]; /* a copy: push_lit may move the array */
        ok = push_lit(h, &l);
      }
      for (int32_t st = pm->step0; ok && st < pm->step0 + pm->nsteps; ++st) {
        const goap__px_step *ps = &t->htn.steps[st];
        int first = st == pm->step0;
        if (ps->task < 0) {
          if (!first) continue; /* build_lits has its static literals */
          const goap__px_schema *sc = &t->schemas[-ps->task - 1];
          for (int32_t k = 0; k < sc->nparams; ++k) map[k] = t->args.v[ps->args + k];
          for (int32_t i = sc->lit0; ok && i < sc->lit0 + sc->nlits; ++i)
            if (t->lits[i].kind == PX_LIT_PRE) ok = push_mapped(h, &h->lits[i], map, sc->nparams, from);
          continue;
        }
        if (h->m0[ps->task + 1] - h->m0[ps->task] != 1) continue;
        int32_t c = h->mids[h->m0[ps->task]];
        const goap__px_method *cm = &t->htn.methods[c];
        for (int32_t k = 0; k < cm->nparams; ++k) map[k] = HP_NOMAP;
        for (int32_t k = 0; k < ps->nargs; ++k) {
          int32_t v = t->args.v[cm->targs + k];
          if (v < 0 && map[-v - 1] == HP_NOMAP) map[-v - 1] = t->args.v[ps->args + k];
        }
        for (int32_t i = h->x0[c]; ok && i < h->x0[c] + h->xn[c]; ++i) {
          const goap__px_lit *l = &h->lits[i];
          if (!first && l->pred >= 0 && fluent[l->pred]) continue;
          if (h->nlits - from >= (size_t)h->xb[m] + HP_LIFT_MAX) break;
          ok = push_mapped(h, l, map, cm->nparams, from);
        }
      }
      if (ok && h->nlits - from > (size_t)h->xn[m]) {
        h->x0[m] = (int32_t)from;
        h->xn[m] = (int32_t)(h->nlits - from);
        changed = 1;
      } else {
        h->nlits = from;
        h->av.n = av0;
      }
    }
  }
  goap__free(h->a, map, h->maxp * sizeof *map);
  goap__free(h->a, fluent, t->npreds ? t->npreds : 1);
  return ok ? 1 : oom(h);
}

#define HP_INF UINT32_MAX

/* The TDG fixpoint shared by the method orders below and the best-first search's heuristic
 * (hddl_bfs.c): tc[c], the fewest primitive steps compound task c can decompose into (HP_INF:
 * none), and, when mc is not NULL, mc[m], the same for method m. */
void goap__hp_tdg_costs(const goap__px_task_core *t, uint32_t *tc, uint32_t *mc) {
  for (size_t c = 0; c < t->htn.nctasks; ++c) tc[c] = HP_INF;
  for (size_t m = 0; mc && m < t->htn.nmethods; ++m) mc[m] = HP_INF;
  for (int changed = 1; changed;) {
    changed = 0;
    for (size_t m = 0; m < t->htn.nmethods; ++m) {
      const goap__px_method *pm = &t->htn.methods[m];
      uint64_t sum = 0;
      for (int32_t st = pm->step0; st < pm->step0 + pm->nsteps && sum < HP_INF; ++st) {
        int32_t task = t->htn.steps[st].task;
        sum += task < 0 ? 1u : tc[task];
      }
      uint32_t v = sum < HP_INF ? (uint32_t)sum : HP_INF;
      if (mc) mc[m] = v;
      if (v < tc[pm->task]) {
        tc[pm->task] = v;
        changed = 1;
      }
    }
  }
}

/* The task decomposition graph, lifted (arguments and preconditions ignored): the fewest
 * primitive steps each compound task can decompose into, by a fixpoint from "none" (HP_INF).
 * Methods with a subtask that never reaches primitives (cost HP_INF) can never be part of a
 * plan: they are left out of their task's lists (m0, mids in domain order, mids2 by cost:
 * fewest first, ties in domain order). 1 when the two orders differ somewhere. */
int goap__hp_order_methods(hp *h) {
  const goap__px_task_core *t = h->t;
  size_t nc = t->htn.nctasks ? t->htn.nctasks : 1, nm = t->htn.nmethods ? t->htn.nmethods : 1;
  uint32_t *tc = (uint32_t *)goap__alloc(h->a, nc * sizeof *tc);
  uint32_t *mc = (uint32_t *)goap__alloc(h->a, nm * sizeof *mc);
  if (!tc || !mc) {
    goap__free(h->a, tc, nc * sizeof *tc);
    goap__free(h->a, mc, nm * sizeof *mc);
    return oom(h);
  }
  goap__hp_tdg_costs(t, tc, mc);
  size_t k = 0;
  for (size_t c = 0; c < t->htn.nctasks; ++c) {
    h->m0[c] = (int32_t)k;
    for (size_t m = 0; m < t->htn.nmethods; ++m) {
      if (t->htn.methods[m].task != (int32_t)c || mc[m] == HP_INF) continue;
      h->mids[k] = (int32_t)m;
      size_t j = k++; /* insertion: after every method of no greater cost */
      for (; j > (size_t)h->m0[c] && mc[h->mids2[j - 1]] > mc[m]; --j) h->mids2[j] = h->mids2[j - 1];
      h->mids2[j] = (int32_t)m;
    }
  }
  h->m0[t->htn.nctasks] = (int32_t)k;
  goap__free(h->a, tc, nc * sizeof *tc);
  goap__free(h->a, mc, nm * sizeof *mc);
  return k > 0 && memcmp(h->mids, h->mids2, k * sizeof *h->mids) != 0;
}

/* Effect literal e (of action parameters) could make goal literal l true: opposite sign of a
 * delete and an add, the same predicate, and no constant argument of e differs from l's. */
static int may_achieve(const hp *h, const goap__px_lit *e, const goap__px_lit *l) {
  if (l->pred != e->pred || l->pred == PX_EQ || (e->kind == PX_LIT_DEL) != (l->neg != 0)) return 0;
  for (int k = 0; k < h->t->preds[l->pred].arity; ++k) {
    int32_t a = h->av.v[e->args + k];
    if (a >= 0 && a != h->av.v[l->args + k]) return 0;
  }
  return 1;
}

/* The relaxed goal test's tables: the actions relevant to the goal (backwards from the
 * predicates of its positive literals: an action adding a relevant predicate is relevant,
 * and the predicates of its positive preconditions are), each task's reachable ones (trel,
 * a fixpoint like tgoal's) and the true atoms per predicate. Off (rel NULL) when more than
 * 64 actions are relevant. */
static int relevant_actions(hp *h) {
  const goap__px_task_core *t = h->t;
  size_t np = t->npreds ? t->npreds : 1, nc = t->htn.nctasks;
  uint8_t *rp = (uint8_t *)goap__alloc(h->a, np);
  if (!rp) return oom(h);
  memset(rp, 0, np);
  for (int32_t i = 0; i < t->ngoal && i < 64; ++i) {
    const goap__px_lit *l = &h->lits[t->goal0 + i];
    if (!l->neg && l->pred >= 0) rp[l->pred] = 1;
  }
  int32_t rel[64];
  int nrel = 0, over = 0;
  uint8_t *in = (uint8_t *)goap__alloc(h->a, t->nschemas ? t->nschemas : 1);
  if (!in) {
    goap__free(h->a, rp, np);
    return oom(h);
  }
  memset(in, 0, t->nschemas ? t->nschemas : 1);
  for (int changed = 1; changed && !over;) {
    changed = 0;
    for (size_t sc = 0; sc < t->nschemas && !over; ++sc) {
      const goap__px_schema *s = &t->schemas[sc];
      int adds = 0;
      for (int32_t i = s->lit0; i < s->lit0 + s->nlits; ++i)
        if (h->lits[i].kind == PX_LIT_ADD && rp[h->lits[i].pred]) adds = 1;
      if (in[sc] || !adds) continue;
      if (nrel == 64) {
        over = 1;
        break;
      }
      in[sc] = 1;
      rel[nrel++] = (int32_t)sc;
      changed = 1;
      for (int32_t i = s->lit0; i < s->lit0 + s->nlits; ++i)
        if (h->lits[i].kind == PX_LIT_PRE && !h->lits[i].neg && h->lits[i].pred >= 0)
          rp[h->lits[i].pred] = 1;
    }
  }
  goap__free(h->a, rp, np);
  goap__free(h->a, in, t->nschemas ? t->nschemas : 1);
  if (over || nrel == 0) return 1;
  h->rel = (int32_t *)goap__alloc(h->a, 64 * sizeof *h->rel);
  h->trel = (uint64_t *)goap__alloc(h->a, (nc + t->nschemas + 1) * sizeof *h->trel);
  h->pcount = (int32_t *)goap__alloc(h->a, np * sizeof *h->pcount);
  h->preach = (uint8_t *)goap__alloc(h->a, np);
  if (!h->rel || !h->trel || !h->pcount || !h->preach) return oom(h);
  memcpy(h->rel, rel, (size_t)nrel * sizeof *rel);
  h->nrel = nrel;
  memset(h->trel, 0, (nc + t->nschemas + 1) * sizeof *h->trel);
  for (int j = 0; j < nrel; ++j) h->trel[nc + (size_t)rel[j]] = (uint64_t)1 << j;
  for (int changed = 1; changed;) {
    changed = 0;
    for (size_t c = 0; c < nc; ++c) {
      uint64_t m = h->trel[c];
      for (int32_t j = h->m0[c]; j < h->m0[c + 1]; ++j) {
        const goap__px_method *pm = &t->htn.methods[h->mids[j]];
        for (int32_t st = pm->step0; st < pm->step0 + pm->nsteps; ++st) {
          int32_t task = t->htn.steps[st].task;
          m |= h->trel[task >= 0 ? (size_t)task : nc + (size_t)(-task - 1)];
        }
      }
      if (m != h->trel[c]) {
        h->trel[c] = m;
        changed = 1;
      }
    }
  }
  memset(h->pcount, 0, np * sizeof *h->pcount); /* counted as the initial state is set */
  return 1;
}

/* tgoal (goal-relevance pruning; only when the problem has a goal): for each action the goal
 * literals (the first 64) one of its effects may make true, for each compound task those of
 * the actions its decompositions can reach, by a fixpoint over the methods order_methods kept
 * (arguments ignored: an over-approximation, so pruning on it loses no plan). */
int goap__hp_goal_reach(hp *h) {
  const goap__px_task_core *t = h->t;
  if (t->ngoal == 0) return 1;
  size_t nc = t->htn.nctasks;
  h->tgoal = (uint64_t *)goap__alloc(h->a, (nc + t->nschemas + 1) * sizeof *h->tgoal);
  if (!h->tgoal) return oom(h);
  memset(h->tgoal, 0, (nc + t->nschemas + 1) * sizeof *h->tgoal);
  int32_t ng = t->ngoal < 64 ? t->ngoal : 64;
  for (size_t sc = 0; sc < t->nschemas; ++sc)
    for (int32_t i = t->schemas[sc].lit0; i < t->schemas[sc].lit0 + t->schemas[sc].nlits; ++i) {
      const goap__px_lit *e = &h->lits[i];
      if (e->kind != PX_LIT_ADD && e->kind != PX_LIT_DEL) continue;
      for (int32_t k = 0; k < ng; ++k)
        if (may_achieve(h, e, &h->lits[t->goal0 + k])) h->tgoal[nc + sc] |= (uint64_t)1 << k;
    }
  for (int changed = 1; changed;) {
    changed = 0;
    for (size_t c = 0; c < nc; ++c) {
      uint64_t m = h->tgoal[c];
      for (int32_t j = h->m0[c]; j < h->m0[c + 1]; ++j) {
        const goap__px_method *pm = &t->htn.methods[h->mids[j]];
        for (int32_t st = pm->step0; st < pm->step0 + pm->nsteps; ++st) {
          int32_t task = t->htn.steps[st].task;
          m |= h->tgoal[task >= 0 ? (size_t)task : nc + (size_t)(-task - 1)];
        }
      }
      if (m != h->tgoal[c]) {
        h->tgoal[c] = m;
        changed = 1;
      }
    }
  }
  /* the goal-first method order: per method the union of its subtasks' masks; per task (in
   * tsplit) that of its methods', then for mids and for mids2 the literals that can move a
   * method ahead of an earlier one (held by it, not by some method before it): when none of
   * those is false, the goal-first order is the plain one */
  size_t nm = t->htn.nmethods ? t->htn.nmethods : 1, ns = 3 * (nc ? nc : 1);
  h->mgoal = (uint64_t *)goap__alloc(h->a, nm * sizeof *h->mgoal);
  h->tsplit = (uint64_t *)goap__alloc(h->a, ns * sizeof *h->tsplit);
  if (!h->mgoal || !h->tsplit) return oom(h);
  memset(h->mgoal, 0, nm * sizeof *h->mgoal);
  memset(h->tsplit, 0, ns * sizeof *h->tsplit);
  for (size_t c = 0; c < nc; ++c) {
    uint64_t any = 0, pre1 = ~(uint64_t)0, pre2 = ~(uint64_t)0, up1 = 0, up2 = 0;
    for (int32_t j = h->m0[c]; j < h->m0[c + 1]; ++j) {
      int32_t mid = h->mids[j];
      const goap__px_method *pm = &t->htn.methods[mid];
      uint64_t m = 0;
      for (int32_t st = pm->step0; st < pm->step0 + pm->nsteps; ++st) {
        int32_t task = t->htn.steps[st].task;
        m |= h->tgoal[task >= 0 ? (size_t)task : nc + (size_t)(-task - 1)];
      }
      h->mgoal[mid] = m;
      any |= m;
    }
    for (int32_t j = h->m0[c]; j < h->m0[c + 1]; ++j) {
      uint64_t m1 = h->mgoal[h->mids[j]], m2 = h->mgoal[h->mids2[j]];
      up1 |= m1 & ~pre1;
      up2 |= m2 & ~pre2;
      pre1 &= m1;
      pre2 &= m2;
    }
    h->tsplit[c] = up1 | up2 ? any : 0;
    h->tsplit[nc + c] = up1;
    h->tsplit[2 * nc + c] = up2;
  }
  return relevant_actions(h);
}

size_t goap__hp_reach_bits(const goap__px_task_core *t) {
  size_t n = t->htn.nctasks;
  return (n * n + 63) / 64;
}

int goap__hp_recursion(hp *h, uint64_t **out, int *free_nest) {
  const goap__px_task_core *t = h->t;
  size_t n = t->htn.nctasks, w = goap__hp_reach_bits(t);
  *out = NULL;
  *free_nest = 0;
  if (n == 0 || n > HP_MAX_REC_TASKS) return 1;
  uint64_t *r = (uint64_t *)goap__alloc(h->a, w * sizeof *r);
  int32_t *q = (int32_t *)goap__alloc(h->a, (n + 1) * sizeof *q);
  if (!r || !q) {
    goap__free(h->a, r, w * sizeof *r);
    goap__free(h->a, q, (n + 1) * sizeof *q);
    return oom(h);
  }
  memset(r, 0, w * sizeof *r);
  for (size_t a0 = 0; a0 < n; ++a0) { /* breadth-first from a0; each task queued once more */
    size_t qn = 0;
    q[qn++] = (int32_t)a0;
    for (size_t qi = 0; qi < qn; ++qi)
      for (int32_t j = h->m0[q[qi]]; j < h->m0[q[qi] + 1]; ++j) {
        const goap__px_method *pm = &t->htn.methods[h->mids[j]];
        for (int32_t st = pm->step0; st < pm->step0 + pm->nsteps; ++st) {
          int32_t d = t->htn.steps[st].task;
          size_t bit = a0 * n + (size_t)d;
          if (d < 0 || (r[bit >> 6] >> (bit & 63) & 1u)) continue;
          r[bit >> 6] |= (uint64_t)1 << (bit & 63);
          q[qn++] = d;
        }
      }
  }
  goap__free(h->a, q, (n + 1) * sizeof *q);
  for (size_t m = 0; m < t->htn.nmethods && !*free_nest; ++m) {
    const goap__px_method *pm = &t->htn.methods[m];
    for (int32_t st = pm->step0; st + 1 < pm->step0 + pm->nsteps; ++st) {
      int32_t d = t->htn.steps[st].task;
      size_t bit = (size_t)d * n + (size_t)pm->task;
      if (d >= 0 && !(r[bit >> 6] >> (bit & 63) & 1u)) *free_nest = 1;
    }
  }
  *out = r;
  return 1;
}
