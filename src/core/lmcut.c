/*
 * lmcut.c -- the LM-cut heuristic (Helmert & Domshlak 2009) over a STRIPS compilation of the
 * relaxed task.
 *
 * The compilation (built when a request first asks for LM-cut with a new goal):
 *  - facts: TRUE (fact 0, always reached), one per value of every bool/enum variable, for
 *    every int variable UP(v) ("some `+= n>0` fired") and DOWN(v) ("some `-= n` fired"), one
 *    VAL(v,k) per value k that some `v = k` effect sets, one per distinct non-trivial
 *    condition, and the goal fact;
 *  - operators: each domain action (same id; preconditions are its relaxed conditions, effects
 *    the facts its effects reach), zero-cost auxiliary operators that make a condition fact
 *    hold, and a zero-cost goal operator. An operator without preconditions needs TRUE.
 *  - a bool/enum condition that is not a single value holds once any of its values does;
 *  - an int condition var in [a, b] \ {ne} holds after: the start value in it (then it is a
 *    fact of the state, see below), VAL(k) with k in it, UP with the start value (operators
 *    guarded by the state's value) or a VAL(k) at most b, DOWN with one at least a, or UP and
 *    DOWN together (the edges of the interval are tightened when ne sits on them).
 * Soundness: in any real plan, an int variable's value is the last value set (or the start
 * value) moved by the later ADDs; if they all go up it lies at or above that value, if all
 * down at or below, so the auxiliary operator matching the case is enabled. Every real plan
 * is therefore a plan of the compiled relaxed task, whose optimal relaxed cost LM-cut never
 * exceeds: LM-cut is admissible. Each auxiliary operator's condition also holds in relax.c's
 * hull relaxation, so hmax of this task is at least relax.c's hmax and LM-cut >= hmax.
 *
 * Cost (issue 4): equal conditions (of different actions, the goal) share one condition
 * fact, so each gets its auxiliary operators once (village: 2,659 operators -> 746). Operators
 * with no effect from which the goal fact can be reached backwards are left out of the index.
 *
 * Per evaluation: the state's facts are TRUE, its bool/enum values that some operator needs and
 * every condition fact whose condition holds in the state (its auxiliary operators are then
 * disabled: the fact is already there); then repeat { hmax with the remaining costs, keeping
 * each operator's precondition choice (pcf: the precondition reached last) and, per fact, the
 * list of operators whose pcf it is (the justification graph); the goal zone (facts from which
 * the goal is reached through zero-cost operators in that graph); the cut (the operators
 * reached from the state, outside the zone, with an effect in it); add the cut's least
 * remaining cost to h and subtract it from the cut } until hmax(goal) is 0. After the first
 * round hmax is updated incrementally from the cut's effects (costs only fall). The cut is
 * found from the zone's side (cut_backward): an achiever of a zone fact whose pcf has hmax
 * below the goal's is reached (its hmax is justified by facts below it, none in the zone), so
 * only pcfs at the goal's hmax or above need a backward search; cut_forward, the definition
 * (a search of the whole graph), is kept as the reference the tests compare it with. When
 * every cost is a whole number (and their sum is below the bucket count), hmax uses a bucket
 * queue instead of the binary heap. Costs at most LM_EPS count as 0, so that zero cost is
 * exact.
 *
 * Stopping early: with lm.stop_on the evaluation returns as soon as h + hmax(goal) (the cuts
 * so far plus hmax under the costs they left: a cost partition, so admissible) exceeds
 * lm.stop, with lm.partial set; lazy A* uses it for states it would queue again anyway.
 * Inherited landmarks: lm.start_landmarks (set by the caller for one evaluation) lists landmarks of the
 * state with costs forming a cost partition (planner.c: the parent's landmarks that the
 * action does not touch). Each one's cost is added to h and taken off its operators' costs
 * before the first hmax, and LM-cut goes on from there: the result is admissible (the
 * inherited part by the partition, the rest as LM-cut under the costs left). lm.landmarks records
 * every landmark of the evaluation, inherited or cut, for the caller to pass on.
 * The request's operator costs (op_cost) and precondition counts (npre_of_op) are copied from
 * arrays made at build time rather than recomputed per evaluation.
 *
 * Per-evaluation overheads (issue 18): the bucket queue pushes a lowered fact again instead of
 * unlinking it (stale entries are skipped; a pool sized at build bounds the entries), the two
 * hmax loops keep their queue in locals, the justification graph is not cleared between runs
 * (an operator's choice counts only when it fired: fired(); a fact's list is emptied when the
 * fact is taken out) and its lists are singly linked. The values are the same as before:
 * same facts taken out in the same order, so the same choices and cuts (test_lmcut checks
 * every run against a from-scratch fixpoint).
 *
 * Invariants: arrays only grow (doubling) and are accounted in p->memory; an evaluation after
 * a build never allocates; ties are broken by fact ids in the heap, last in first out in a
 * bucket, and by operator ids in a cut (deterministic); between runs the queue is empty.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "planner.h"

#define LM_EPS 1e-9
#define LM_MAXBUCK ((size_t)1 << 16)

#define GROW(field, need)                                                                     \
  do {                                                                                        \
    goap_status st_ = goap__planner_grow(p, (void **)&lm->field, &lm->cap_##field, (need),    \
                                         sizeof *lm->field);                                  \
    if (st_ != GOAP_OK) return st_;                                                           \
  } while (0)

void goap__lmcut_free(goap_planner *p) {
  goap__lmcut *lm = &p->lm;
#define F(field) goap__free(&p->alloc, lm->field, lm->cap_##field * sizeof *lm->field);
  F(pre_off) F(eff_off) F(pre) F(eff) F(guard) F(pre_of_off) F(ach_off) F(pre_of) F(ach)
  F(intval) F(intval_off) F(cond_fact) F(cond_sorted) F(cond_fact_cond) F(cond_fact_op_off)
  F(init) F(hmax) F(fact_stamp) F(zone) F(stack) F(unmet) F(choice) F(rem) F(cut) F(cut_ops)
  F(heap_value) F(heap_fact) F(heap_pos) F(choice_head) F(choice_next)
  F(bucket_head) F(bq_fact) F(bq_next) F(zone_list) F(back_mark)
  F(op_cost) F(npre_of_op) F(landmarks) F(hmax_inf) F(hmax_ref) F(op_indexed) F(svar) F(fact_used)
#undef F
  memset(lm, 0, sizeof *lm);
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* ---- building ------------------------------------------------------------------------------ */

static goap_status op_begin(goap_planner *p, int32_t gvar, uint64_t ga, uint64_t gb,
                            uint64_t gne, uint32_t ghas_ne) {
  goap__lmcut *lm = &p->lm;
  GROW(pre_off, (size_t)lm->nop + 2);
  GROW(eff_off, (size_t)lm->nop + 2);
  GROW(guard, (size_t)lm->nop + 1);
  lm->pre_off[lm->nop] = lm->npre;
  lm->eff_off[lm->nop] = lm->neff;
  goap__rcond *g = &lm->guard[lm->nop];
  memset(g, 0, sizeof *g);
  g->var = gvar;
  g->a = ga;
  g->b = gb;
  g->ne = gne;
  g->has_ne = ghas_ne;
  return GOAP_OK;
}

static goap_status op_pre(goap_planner *p, int32_t f) {
  goap__lmcut *lm = &p->lm;
  for (uint32_t k = lm->pre_off[lm->nop]; k < lm->npre; ++k)
    if (lm->pre[k] == f) return GOAP_OK; /* two equal conditions share a fact */
  GROW(pre, (size_t)lm->npre + 1);
  lm->pre[lm->npre++] = f;
  return GOAP_OK;
}

static goap_status op_eff(goap_planner *p, int32_t f) {
  goap__lmcut *lm = &p->lm;
  GROW(eff, (size_t)lm->neff + 1);
  lm->eff[lm->neff++] = f;
  return GOAP_OK;
}

static goap_status op_end(goap_planner *p) {
  goap__lmcut *lm = &p->lm;
  if (lm->pre_off[lm->nop] == lm->npre) { /* no precondition: needs TRUE */
    goap_status st = op_pre(p, 0);
    if (st != GOAP_OK) return st;
  }
  ++lm->nop;
  lm->pre_off[lm->nop] = lm->npre;
  lm->eff_off[lm->nop] = lm->neff;
  return GOAP_OK;
}

/* A zero-cost operator pre -> cond fact cf (pre2 < 0: one precondition). */
static goap_status aux_op(goap_planner *p, int32_t cf, int32_t pre1, int32_t pre2,
                          int32_t gvar, uint64_t ga, uint64_t gb, uint64_t gne,
                          uint32_t ghas_ne) {
  goap_status st = op_begin(p, gvar, ga, gb, gne, ghas_ne);
  if (st == GOAP_OK && pre1 >= 0) st = op_pre(p, pre1);
  if (st == GOAP_OK && pre2 >= 0) st = op_pre(p, pre2);
  if (st == GOAP_OK) st = op_eff(p, cf);
  if (st == GOAP_OK) st = op_end(p);
  return st;
}

static int32_t val_fact(const goap_planner *p, int32_t v, uint64_t k) {
  const goap__lmcut *lm = &p->lm;
  uint32_t lo = lm->intval_off[v], hi = lm->intval_off[v + 1];
  while (lo < hi) {
    uint32_t mid = (lo + hi) / 2;
    uint64_t x = lm->intval[mid] & 0xffffffffu;
    if (x < k) lo = mid + 1;
    else hi = mid;
  }
  return (int32_t)(lm->valbase + lo);
}

/* A bool/enum condition on a single value is that value's fact. */
static int cond_is_value(const goap_planner *p, const goap__rcond *rc) {
  return p->d->vars[rc->var].type != GOAP_INT && rc->a == rc->b && !rc->has_ne;
}

/* Conditions ordered by (var, a, b, has_ne, ne), then index (owner holds the index). */
static int cmp_cond(const void *x, const void *y) {
  const goap__rcond *c = (const goap__rcond *)x, *e = (const goap__rcond *)y;
  uint64_t cne = c->has_ne ? c->ne : 0, ene = e->has_ne ? e->ne : 0;
  if (c->var != e->var) return c->var < e->var ? -1 : 1;
  if (c->a != e->a) return c->a < e->a ? -1 : 1;
  if (c->b != e->b) return c->b < e->b ? -1 : 1;
  if (c->has_ne != e->has_ne) return c->has_ne < e->has_ne ? -1 : 1;
  if (cne != ene) return cne < ene ? -1 : 1;
  return c->owner < e->owner ? -1 : c->owner > e->owner;
}

static int same_cond(const goap__rcond *c, const goap__rcond *e) {
  return c->var == e->var && c->a == e->a && c->b == e->b && c->has_ne == e->has_ne &&
         (!c->has_ne || c->ne == e->ne);
}

/* The auxiliary operators of condition fact cf, which stands for condition rc. */
static goap_status emit_cond(goap_planner *p, const goap__rcond *rc, int32_t cf) {
  const goap__var *var = &p->d->vars[rc->var];
  const goap__lmcut *lm = &p->lm;
  uint64_t a = rc->a, b = rc->b, ne = rc->ne;
  uint32_t has_ne = rc->has_ne;
  if (a > b) return GOAP_OK; /* never holds */
  goap_status st = GOAP_OK;
  if (var->type != GOAP_INT) {
    for (uint64_t k = a; k <= b && st == GOAP_OK; ++k)
      if (!(has_ne && k == ne))
        st = aux_op(p, cf, (int32_t)(1 + p->rx.fact_off[rc->var] + k), -1, -1, 0, 0, 0, 0);
    return st;
  }
  int32_t v = rc->var;
  int32_t up = (int32_t)(lm->upbase + (uint32_t)v), down = (int32_t)(lm->downbase + (uint32_t)v);
  /* with UP the values reached cover [k, top]: some k <= bu; with DOWN [0, k]: k >= ad */
  int up_ok = 1, down_ok = 1;
  uint64_t bu = b, ad = a;
  if (has_ne && ne == b) {
    if (b == 0 || a > b - 1) up_ok = 0;
    else bu = b - 1;
  }
  if (has_ne && ne == a) {
    if (a + 1 > b) down_ok = 0;
    else ad = a + 1;
  }
  if (a == b && has_ne && ne == a) return GOAP_OK;
  /* (a start value in the interval makes the condition fact a fact of the state) */
  if (up_ok) st = aux_op(p, cf, up, -1, v, 0, bu, 0, 0);
  if (st == GOAP_OK && down_ok) st = aux_op(p, cf, down, -1, v, ad, var->range, 0, 0);
  if (st == GOAP_OK) st = aux_op(p, cf, up, down, -1, 0, 0, 0, 0);
  for (uint32_t i = lm->intval_off[v]; i < lm->intval_off[v + 1] && st == GOAP_OK; ++i) {
    uint64_t k = lm->intval[i] & 0xffffffffu;
    int32_t vf = (int32_t)(lm->valbase + i);
    if (k >= a && k <= b && !(has_ne && k == ne)) st = aux_op(p, cf, vf, -1, -1, 0, 0, 0, 0);
    if (st == GOAP_OK && up_ok && k <= bu) st = aux_op(p, cf, vf, up, -1, 0, 0, 0, 0);
    if (st == GOAP_OK && down_ok && k >= ad) st = aux_op(p, cf, vf, down, -1, 0, 0, 0, 0);
  }
  return st;
}

/* fact -> operators CSR from the operators' lists (pre or eff), of the operators o with
 * keep[o] != 0 (all when keep is NULL). */
static void build_index(const goap__lmcut *lm, const uint32_t *off, const int32_t *list,
                        const uint32_t *keep, uint32_t *ioff, int32_t *idx) {
  memset(ioff, 0, ((size_t)lm->nfact + 1) * sizeof *ioff);
  for (uint32_t o = 0; o < lm->nop; ++o)
    if (!keep || keep[o])
      for (uint32_t k = off[o]; k < off[o + 1]; ++k) ioff[list[k] + 1]++;
  for (uint32_t f = 0; f < lm->nfact; ++f) ioff[f + 1] += ioff[f];
  for (uint32_t o = 0; o < lm->nop; ++o)
    if (!keep || keep[o])
      for (uint32_t k = off[o]; k < off[o + 1]; ++k) idx[ioff[list[k]]++] = (int32_t)o;
  for (uint32_t f = lm->nfact; f > 0; --f) ioff[f] = ioff[f - 1];
  ioff[0] = 0;
}

goap_status goap__lmcut_build(goap_planner *p) {
  const goap_domain *d = p->d;
  const goap__relax *r = &p->rx;
  goap__lmcut *lm = &p->lm;
  int V = d->nvars, A = d->nactions;
  lm->built = 0;
  /* the values int variables are set to: (var << 32 | encoded value), sorted, unique */
  size_t niv = 0;
  for (int a = 0; a < A; ++a)
    for (int k = 0; k < d->actions[a].neff; ++k)
      niv += d->actions[a].eff[k].op == GOAP_SET && d->vars[d->actions[a].eff[k].var].type == GOAP_INT;
  GROW(intval, niv + 1);
  GROW(intval_off, (size_t)V + 1);
  niv = 0;
  for (int a = 0; a < A; ++a)
    for (int k = 0; k < d->actions[a].neff; ++k) {
      const goap_effect *e = &d->actions[a].eff[k];
      const goap__var *var = &d->vars[e->var];
      if (e->op != GOAP_SET || var->type != GOAP_INT) continue;
      uint64_t enc = (uint64_t)((int64_t)e->value - (int64_t)var->lo);
      lm->intval[niv++] = ((uint64_t)(uint32_t)e->var << 32) | enc;
    }
  if (niv) qsort(lm->intval, niv, sizeof *lm->intval, cmp_u64);
  size_t u = 0;
  for (size_t i = 0; i < niv; ++i)
    if (u == 0 || lm->intval[i] != lm->intval[u - 1]) lm->intval[u++] = lm->intval[i];
  niv = u;
  memset(lm->intval_off, 0, ((size_t)V + 1) * sizeof *lm->intval_off);
  for (size_t i = 0; i < niv; ++i) lm->intval_off[(lm->intval[i] >> 32) + 1]++;
  for (int v = 0; v < V; ++v) lm->intval_off[v + 1] += lm->intval_off[v];
  /* fact numbering; equal conditions (of different actions, or the goal) share one fact */
  int ncond = r->ncond + r->ngoal;
  lm->upbase = 1 + r->nfacts;
  lm->downbase = lm->upbase + (uint32_t)V;
  lm->valbase = lm->downbase + (uint32_t)V;
  lm->condbase = lm->valbase + (uint32_t)niv;
  GROW(cond_fact, (size_t)ncond + 1);
  GROW(cond_sorted, (size_t)ncond + 1);
  size_t ncs = 0;
  for (int c = 0; c < ncond; ++c) {
    const goap__rcond *rc = &r->cond[c];
    if (cond_is_value(p, rc)) {
      lm->cond_fact[c] = (int32_t)(1 + r->fact_off[rc->var] + rc->a);
    } else {
      lm->cond_sorted[ncs] = *rc;
      lm->cond_sorted[ncs++].owner = c;
    }
  }
  if (ncs) qsort(lm->cond_sorted, ncs, sizeof *lm->cond_sorted, cmp_cond);
  uint32_t nuc = 0;
  for (size_t i = 0; i < ncs; ++i) {
    if (i > 0 && !same_cond(&lm->cond_sorted[i], &lm->cond_sorted[i - 1])) ++nuc;
    lm->cond_fact[lm->cond_sorted[i].owner] = (int32_t)(lm->condbase + nuc);
  }
  if (ncs) ++nuc;
  lm->ncond_facts = nuc;
  GROW(cond_fact_cond, (size_t)nuc + 1);
  GROW(cond_fact_op_off, (size_t)nuc + 1);
  lm->goalfact = lm->condbase + nuc;
  lm->nfact = lm->goalfact + 1;
  /* operators: the actions first (operator id = action id) */
  lm->nop = lm->npre = lm->neff = 0;
  goap_status st = GOAP_OK;
  for (int a = 0; a < A && st == GOAP_OK; ++a) {
    st = op_begin(p, -1, 0, 0, 0, 0);
    for (uint32_t k = r->act_off[a]; k < r->act_off[a + 1] && st == GOAP_OK; ++k)
      st = op_pre(p, lm->cond_fact[k]);
    const goap__action *x = &d->actions[a];
    for (int k = 0; k < x->neff && st == GOAP_OK; ++k) {
      const goap_effect *e = &x->eff[k];
      const goap__var *var = &d->vars[e->var];
      if (var->type != GOAP_INT) {
        uint64_t enc = (uint64_t)((int64_t)e->value - (int64_t)var->lo);
        st = op_eff(p, (int32_t)(1 + r->fact_off[e->var] + enc));
      } else if (e->op == GOAP_SET) {
        st = op_eff(p, val_fact(p, e->var, (uint64_t)((int64_t)e->value - (int64_t)var->lo)));
      } else if (e->value > 0) {
        st = op_eff(p, (int32_t)(lm->upbase + (uint32_t)e->var));
      } else if (e->value < 0) {
        st = op_eff(p, (int32_t)(lm->downbase + (uint32_t)e->var));
      }
    }
    if (st == GOAP_OK) st = op_end(p);
  }
  for (size_t i = 0; i < ncs && st == GOAP_OK; ++i)
    if (i == 0 || !same_cond(&lm->cond_sorted[i], &lm->cond_sorted[i - 1])) {
      int32_t cf = lm->cond_fact[lm->cond_sorted[i].owner];
      uint32_t ui = (uint32_t)cf - lm->condbase;
      lm->cond_fact_cond[ui] = lm->cond_sorted[i];
      lm->cond_fact_op_off[ui] = lm->nop;
      st = emit_cond(p, &lm->cond_sorted[i], cf);
    }
  lm->cond_fact_op_off[nuc] = lm->nop;
  /* the goal operator */
  if (st == GOAP_OK) st = op_begin(p, -1, 0, 0, 0, 0);
  for (int g = 0; g < r->ngoal && st == GOAP_OK; ++g) st = op_pre(p, lm->cond_fact[r->ncond + g]);
  if (st == GOAP_OK) st = op_eff(p, (int32_t)lm->goalfact);
  if (st == GOAP_OK) st = op_end(p);
  if (st != GOAP_OK) return st;
  lm->goalop = lm->nop - 1;
  /* indices and per-evaluation arrays */
  size_t F = lm->nfact, O = lm->nop;
  GROW(pre_of_off, F + 1);
  GROW(ach_off, F + 1);
  GROW(pre_of, (size_t)lm->npre + 1);
  GROW(ach, (size_t)lm->neff + 1);
  GROW(hmax, F);
  GROW(fact_stamp, F);
  GROW(zone, F);
  GROW(stack, F);
  GROW(unmet, O);
  GROW(choice, O);
  GROW(rem, O);
  GROW(cut, O);
  GROW(cut_ops, O);
  GROW(heap_value, F + 1);
  GROW(choice_head, F);
  GROW(init, F);
  GROW(zone_list, F);
  GROW(back_mark, F);
  /* buckets for every whole hmax value up to the sum of the action costs (a bound on any
   * finite hmax) at build time, at least 256 and at most LM_MAXBUCK */
  {
    double sum = 0.0;
    for (int a = 0; a < A; ++a)
      if ((p->aflag[a] & 8u) && p->acost[a] < GOAP__INF) sum += p->acost[a];
    size_t nb = sum < (double)LM_MAXBUCK ? (size_t)sum + 2 : LM_MAXBUCK;
    if (nb < 256) nb = 256;
    GROW(bucket_head, nb);
    lm->nbuckets = (uint32_t)lm->cap_bucket_head;
    memset(lm->bucket_head, 0xff, lm->cap_bucket_head * sizeof *lm->bucket_head);
    lm->bucket_cur = lm->nbuckets;
    lm->bucket_hi = 0;
  }
  GROW(choice_next, O);
  GROW(npre_of_op, O);
  GROW(hmax_inf, F);
  for (size_t f = 0; f < F; ++f) lm->hmax_inf[f] = GOAP__INF;
  GROW(landmarks, O + 64); /* an evaluation's landmarks; more: not recorded (lk_over) */
  GROW(op_cost, (size_t)A + 1);
  /* the request's action costs, once per build instead of per evaluation; whole costs stay
   * whole (each cut subtracts a difference of sums of them) */
  {
    double sum = 0.0, top = 0.0;
    int whole = 1;
    for (int a = 0; a < A; ++a) {
      double c = (p->aflag[a] & 8u) ? p->acost[a] : GOAP__INF;
      if (c <= LM_EPS) c = 0.0; /* so that "zero cost" is exact (see cut_backward) */
      lm->op_cost[a] = c;
      if (c < GOAP__INF) {
        sum += c;
        whole &= c >= 0.0 && c < 65536.0 && c == (double)(uint32_t)c;
        if (c > top) top = c;
      }
    }
    lm->max_cost = whole && top < 65536.0 ? (uint32_t)top : 0;
    lm->op_cost_whole = whole && sum + 1.0 < (double)lm->nbuckets;
  }
  GROW(heap_fact, F + 1);
  GROW(heap_pos, F + 1);
  /* relevance: the facts from which the goal fact can be reached backwards (an operator with
   * an effect among them makes its preconditions relevant). Every fact on a path of the
   * justification graph to a relevant fact is relevant, so the other facts and the operators
   * without a relevant effect never matter to hmax(goal), the zone or the cut: those
   * operators are left out of the index (they never fire) and the other effects dropped. */
  uint32_t *frel = lm->zone, *orel = lm->cut; /* scratch, cleared below */
  memset(frel, 0, F * sizeof *frel);
  memset(orel, 0, O * sizeof *orel);
  build_index(lm, lm->eff_off, lm->eff, NULL, lm->ach_off, lm->ach);
  {
    size_t top = 0;
    frel[lm->goalfact] = 1;
    lm->stack[top++] = (int32_t)lm->goalfact;
    while (top > 0) {
      int32_t f = lm->stack[--top];
      for (uint32_t k = lm->ach_off[f]; k < lm->ach_off[f + 1]; ++k) {
        int32_t o = lm->ach[k];
        if (orel[o]) continue;
        orel[o] = 1;
        for (uint32_t j = lm->pre_off[o]; j < lm->pre_off[o + 1]; ++j)
          if (!frel[lm->pre[j]]) {
            frel[lm->pre[j]] = 1;
            lm->stack[top++] = lm->pre[j];
          }
      }
    }
  }
  uint32_t w = 0;
  for (uint32_t o = 0; o < lm->nop; ++o) {
    uint32_t from = lm->eff_off[o], to = lm->eff_off[o + 1];
    lm->eff_off[o] = w;
    for (uint32_t k = from; k < to; ++k)
      if (frel[lm->eff[k]]) lm->eff[w++] = lm->eff[k];
  }
  lm->eff_off[lm->nop] = w;
  lm->neff = w;
  build_index(lm, lm->pre_off, lm->pre, orel, lm->pre_of_off, lm->pre_of);
  GROW(hmax_ref, F);
  GROW(op_indexed, O);
  GROW(fact_used, F);
  for (uint32_t f = 0; f < F; ++f) lm->fact_used[f] = lm->pre_of_off[f + 1] > lm->pre_of_off[f];
  GROW(svar, (size_t)V + 1);
  lm->nsvar = 0;
  for (int v = 0; v < V; ++v) {
    const goap__var *var = &d->vars[v];
    if (var->type == GOAP_INT) continue;
    goap__lmvar *x = &lm->svar[lm->nsvar++];
    x->fmask = var->fmask;
    x->word = var->word;
    x->shift = var->shift;
    x->base = 1 + r->fact_off[v];
  }
  memcpy(lm->op_indexed, orel, O * sizeof *orel);
  build_index(lm, lm->eff_off, lm->eff, NULL, lm->ach_off, lm->ach);
  memset(lm->fact_stamp, 0, F * sizeof *lm->fact_stamp);
  memset(lm->zone, 0, F * sizeof *lm->zone);
  memset(lm->cut, 0, O * sizeof *lm->cut);
  memset(lm->back_mark, 0, F * sizeof *lm->back_mark);
  lm->back_stamp = 0;
  memset(lm->heap_pos, 0xff, F * sizeof *lm->heap_pos);
  memset(lm->choice, 0xff, O * sizeof *lm->choice);
  memset(lm->choice_head, 0xff, F * sizeof *lm->choice_head);
  /* the bucket queue's pool: the most entries pushed before the queue is empty again. A full
   * hmax pushes the state's facts and at most each effect of each operator once (an operator
   * fires once); an update (lm_hmax_update) relaxes a cut operator once and an operator again
   * only when its choice is taken out non-stale, once per precondition at most (values only
   * fall and are taken out in order, so a fact is taken out non-stale once), each relaxation
   * pushing at most its effects. */
  {
    size_t bound = F + 1;
    for (uint32_t o = 0; o < lm->nop; ++o)
      bound += (size_t)(lm->pre_off[o + 1] - lm->pre_off[o] + 1) *
               (lm->eff_off[o + 1] - lm->eff_off[o]);
    GROW(bq_fact, bound);
    GROW(bq_next, bound);
    lm->bq_len = 0;
  }
  for (uint32_t o = 0; o < lm->nop; ++o)
    lm->npre_of_op[o] = (int32_t)(lm->pre_off[o + 1] - lm->pre_off[o]);
  lm->heap_len = 0;
  lm->stamp = 0;
  lm->built = 1;
  lm->serial = p->goal_serial;
  return GOAP_OK;
}

/* ---- evaluation ---------------------------------------------------------------------------- */

/* Three fresh stamps: the returned one and the two after it. */
static uint32_t next_stamps(goap__lmcut *lm) {
  if (lm->stamp >= UINT32_MAX - 3) {
    memset(lm->fact_stamp, 0, lm->nfact * sizeof *lm->fact_stamp);
    memset(lm->zone, 0, lm->nfact * sizeof *lm->zone);
    memset(lm->cut, 0, lm->nop * sizeof *lm->cut);
    lm->stamp = 0;
  }
  lm->stamp += 3;
  return lm->stamp - 2;
}

/* An indexed binary heap of facts keyed by (value, fact id): at most one entry per fact
 * (hpos[f] is its position, -1 when absent), so it never holds more than nfact entries.
 * Between runs it is empty and every hpos is -1. */
static void hplace(goap__lmcut *lm, size_t i, double t, int32_t f) {
  lm->heap_value[i] = t;
  lm->heap_fact[i] = f;
  lm->heap_pos[f] = (int32_t)i;
}

static void hsift_up(goap__lmcut *lm, size_t i, double t, int32_t f) {
  while (i > 0) {
    size_t par = (i - 1) / 2;
    if (lm->heap_value[par] < t || (lm->heap_value[par] == t && lm->heap_fact[par] < f)) break;
    hplace(lm, i, lm->heap_value[par], lm->heap_fact[par]);
    i = par;
  }
  hplace(lm, i, t, f);
}

/* Inserts f with value t, or lowers its value to t (callers only ever lower it, and only
 * when t is below the fact's hmax, which they set to t).
 * The bucket queue (t a whole number below nbuckets) pushes a new entry on bucket t and
 * leaves f's older entry where it is: the callers skip an entry whose value is above the
 * fact's hmax (stale). A live entry is the fact's last push, so the order facts are taken out
 * in is that of a queue that moves a lowered fact to the top of its new bucket (last in,
 * first out within a bucket). heap_len counts entries, stale ones included; bq_len, the pool
 * entries used since the queue was last empty (see the bound in goap__lmcut_build). */
static inline void hpush(goap__lmcut *lm, double t, int32_t f) {
  if (lm->use_buckets) {
    uint32_t k = (uint32_t)t;
    GOAP_ASSERT(t >= 0.0 && k < lm->nbuckets && (double)k == t); /* a whole bucket in range */
    GOAP_ASSERT(lm->bq_len < lm->cap_bq_fact);
    size_t x = lm->bq_len++;
    lm->bq_fact[x] = f;
    lm->bq_next[x] = lm->bucket_head[k];
    lm->bucket_head[k] = (int32_t)x;
    if (k < lm->bucket_cur) lm->bucket_cur = k;
    if (k > lm->bucket_hi) lm->bucket_hi = k;
    ++lm->heap_len;
    return;
  }
  int32_t at = lm->heap_pos[f];
  if (at >= 0) hsift_up(lm, (size_t)at, t, f);
  else hsift_up(lm, lm->heap_len++, t, f);
}

/* The bucket queue is empty: its pool starts over. */
static inline void bq_empty(goap__lmcut *lm) {
  lm->bucket_cur = lm->nbuckets;
  lm->bucket_hi = 0;
  lm->bq_len = 0;
}

static inline void hpop(goap__lmcut *lm, double *t, int32_t *f) {
  if (lm->use_buckets) {
    uint32_t k = lm->bucket_cur;
    GOAP_ASSERT(lm->heap_len > 0);
    while (lm->bucket_head[k] < 0) ++k;
    int32_t x = lm->bucket_head[k];
    lm->bucket_head[k] = lm->bq_next[x];
    *f = lm->bq_fact[x];
    *t = (double)k;
    if (--lm->heap_len) lm->bucket_cur = k;
    else bq_empty(lm);
    return;
  }
  GOAP_ASSERT(lm->heap_len > 0 && lm->heap_pos[lm->heap_fact[0]] == 0);
  *t = lm->heap_value[0];
  *f = lm->heap_fact[0];
  lm->heap_pos[*f] = -1;
  size_t n = --lm->heap_len, i = 0;
  if (n == 0) return;
  double lt = lm->heap_value[n];
  int32_t lf = lm->heap_fact[n];
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && (lm->heap_value[c + 1] < lm->heap_value[c] ||
                      (lm->heap_value[c + 1] == lm->heap_value[c] &&
                       lm->heap_fact[c + 1] < lm->heap_fact[c])))
      ++c;
    if (lt < lm->heap_value[c] || (lt == lm->heap_value[c] && lf < lm->heap_fact[c])) break;
    hplace(lm, i, lm->heap_value[c], lm->heap_fact[c]);
    i = c;
  }
  hplace(lm, i, lt, lf);
  GOAP_ASSERT(!(lm->heap_value[0] < *t)); /* heap order: nothing below the value taken */
}

/* Empties the queue (an hmax run stopped early): every hpos back to -1 (with the bucket
 * queue: every bucket from bucket_cur to bucket_hi back to -1). */
static void hdrain(goap__lmcut *lm) {
  if (lm->use_buckets) {
    for (uint32_t k = lm->bucket_cur; k <= lm->bucket_hi; ++k) lm->bucket_head[k] = -1;
    lm->heap_len = 0;
    bq_empty(lm);
    return;
  }
  for (size_t i = 0; i < lm->heap_len; ++i) lm->heap_pos[lm->heap_fact[i]] = -1;
  lm->heap_len = 0;
}

static void seed(goap__lmcut *lm, double *fh, int32_t f) {
  if (fh[f] > 0.0) {
    fh[f] = 0.0;
    hpush(lm, 0.0, f);
  }
}

/* 1 when operator o fired in the last full hmax (every precondition reached, enabled): only
 * then are choice[o] and its place in a choice list current (others keep an earlier run's;
 * choice_head[f] is current for each fact taken out, that is each with a finite hmax). */
static inline int fired(const goap__lmcut *lm, int32_t o) {
  return lm->unmet[o] == 0 && lm->rem[o] < GOAP__INF;
}

/* The justification graph: choice_head[f] lists (through choice_next) the operators whose
 * choice (pcf) is f, the last linked first. An operator leaves a list only while the update
 * walks that list (it knows the operator before it), so the lists need no back links. */
static void jlink(goap__lmcut *lm, int32_t o, int32_t f) {
  lm->choice[o] = f;
  lm->choice_next[o] = lm->choice_head[f];
  lm->choice_head[f] = o;
}

/* The bucket queue held in locals for the two hmax loops below (the compiler keeps them in
 * registers: stores to the int32 arrays could otherwise alias lm's fields). Same entries and
 * order as hpush/hpop. */
typedef struct {
  int32_t *head, *fact, *next;
  size_t len, live; /* pool entries used; entries not taken out yet (stale ones included) */
  uint32_t cur;
} lm_bq;

static inline void bq_load(const goap__lmcut *lm, lm_bq *q) {
  q->head = lm->bucket_head;
  q->fact = lm->bq_fact;
  q->next = lm->bq_next;
  q->len = lm->bq_len;
  q->live = lm->heap_len;
  q->cur = lm->bucket_cur;
}

/* The queue is empty (every entry taken out, or the buckets from cur to hi cleared). */
static inline void bq_done(goap__lmcut *lm) {
  lm->heap_len = 0;
  bq_empty(lm);
}

static inline void bq_push(lm_bq *q, uint32_t k, int32_t f) {
  size_t x = q->len++;
  q->fact[x] = f;
  q->next[x] = q->head[k];
  q->head[k] = (int32_t)x;
  if (k < q->cur) q->cur = k;
  ++q->live;
}

static inline int32_t bq_pop(lm_bq *q, uint32_t *value) {
  uint32_t k = q->cur;
  while (q->head[k] < 0) ++k;
  int32_t x = q->head[k];
  q->head[k] = q->next[x];
  q->cur = k;
  --q->live;
  *value = k;
  return q->fact[x];
}

/* lm_hmax with the bucket queue (every remaining cost whole): the same run, its state in
 * locals. */
static double lm_hmax_buckets(goap__lmcut *lm, double stop) {
  double *fh = lm->hmax;
  int32_t *choice = lm->choice, *chead = lm->choice_head, *cnext = lm->choice_next;
  int32_t *unsat = lm->unmet;
  const uint32_t *pof = lm->pre_of_off, *eoff = lm->eff_off;
  const int32_t *pol = lm->pre_of, *eff = lm->eff, *init = lm->init;
  const double *rem = lm->rem;
  const int32_t goal = (int32_t)lm->goalfact;
  uint32_t ninit = lm->ninit;
  memcpy(fh, lm->hmax_inf, lm->nfact * sizeof *fh);
  memcpy(unsat, lm->npre_of_op, lm->nop * sizeof *unsat);
  lm_bq q;
  bq_load(lm, &q);
  for (uint32_t i = 0; i < ninit; ++i)
    if (fh[init[i]] > 0.0) {
      fh[init[i]] = 0.0;
      bq_push(&q, 0, init[i]);
    }
  double early = -1.0;
  while (q.live > 0) {
    uint32_t k;
    int32_t f = bq_pop(&q, &k);
    double t = (double)k;
    /* stale (a fact taken out is never pushed again: its value is the lowest queued, and
     * pushes only lower a value; its other entries are above it) */
    if (t > fh[f]) continue;
    if (t > stop && fh[goal] > stop) { /* hmax(goal) >= t > stop: enough */
      /* every entry lies in buckets k to k + max_cost (pushed from a fact taken out at
       * k or below, at most an action's cost higher) */
      uint32_t top = lm->nbuckets - 1 - k > lm->max_cost ? k + lm->max_cost : lm->nbuckets - 1;
      for (uint32_t b = q.cur; b <= top; ++b) q.head[b] = -1;
      early = t < fh[goal] ? t : fh[goal];
      break;
    }
    chead[f] = -1; /* (its list of an earlier run) */
    for (uint32_t j = pof[f], je = pof[f + 1]; j < je; ++j) {
      int32_t o = pol[j];
      if (--unsat[o] != 0 || rem[o] >= GOAP__INF) continue;
      choice[o] = f; /* jlink(o, f) */
      cnext[o] = chead[f];
      chead[f] = o;
      double v = t + rem[o];
      uint32_t kv = (uint32_t)v;
      for (uint32_t e = eoff[o], ee = eoff[o + 1]; e < ee; ++e) {
        int32_t g = eff[e];
        if (v < fh[g]) {
          fh[g] = v;
          bq_push(&q, kv, g);
        }
      }
    }
  }
  GOAP_ASSERT(q.len <= lm->cap_bq_fact);
  bq_done(lm);
  return early;
}

/* lm_hmax_update with the bucket queue: the same propagation, its state in locals. */
static void lm_hmax_update_buckets(goap__lmcut *lm) {
  double *fh = lm->hmax;
  int32_t *choice = lm->choice, *chead = lm->choice_head, *cnext = lm->choice_next;
  const uint32_t *poff = lm->pre_off, *eoff = lm->eff_off;
  const int32_t *pre = lm->pre, *eff = lm->eff;
  const double *rem = lm->rem;
  lm_bq q;
  bq_load(lm, &q);
  while (q.live > 0) {
    uint32_t k;
    int32_t f = bq_pop(&q, &k);
    if ((double)k > fh[f]) continue; /* stale */
    for (int32_t o = chead[f], next, prev = -1; o >= 0; o = next) {
      next = cnext[o];
      int32_t best = pre[poff[o]];
      double hb = fh[best];
      for (uint32_t j = poff[o] + 1, je = poff[o + 1]; j < je; ++j)
        if (fh[pre[j]] > hb) {
          best = pre[j];
          hb = fh[best];
        }
      if (best != f) { /* out of f's list (after prev), to the head of best's */
        if (prev >= 0) cnext[prev] = next;
        else chead[f] = next;
        choice[o] = best;
        cnext[o] = chead[best];
        chead[best] = o;
      } else {
        prev = o;
      }
      double v = hb + rem[o]; /* relax_op(o) */
      uint32_t kv = (uint32_t)v;
      for (uint32_t e = eoff[o], ee = eoff[o + 1]; e < ee; ++e) {
        int32_t g = eff[e];
        if (v < fh[g]) {
          fh[g] = v;
          bq_push(&q, kv, g);
        }
      }
    }
  }
  GOAP_ASSERT(q.len <= lm->cap_bq_fact);
  bq_done(lm);
}

/* hmax with the remaining costs; disabled operators have rem = GOAP__INF and never fire.
 * Fills hmax (per fact), unmet and choice (the precondition reached last) of the operators
 * that fire (see fired()); choice_head[f] of each fact taken out. */
static double lm_hmax(goap__lmcut *lm, double stop) {
  if (lm->use_buckets) return lm_hmax_buckets(lm, stop);
  double *fh = lm->hmax;
  memcpy(fh, lm->hmax_inf, lm->nfact * sizeof *fh); /* every fact at GOAP__INF */
  memcpy(lm->unmet, lm->npre_of_op, lm->nop * sizeof *lm->unmet);
  /* the heap is empty here (every run drains it) */
  for (uint32_t i = 0; i < lm->ninit; ++i) seed(lm, fh, lm->init[i]);
  uint32_t done = next_stamps(lm);
  const uint32_t *pof = lm->pre_of_off, *eoff = lm->eff_off;
  const int32_t *pol = lm->pre_of, *eff = lm->eff;
  int32_t *unsat = lm->unmet;
  const double *rem = lm->rem;
  while (lm->heap_len > 0) {
    double t;
    int32_t f;
    hpop(lm, &t, &f);
    if (lm->fact_stamp[f] == done || t > fh[f]) continue;
    if (t > stop && fh[lm->goalfact] > stop) { /* hmax(goal) >= t > stop: enough */
      hdrain(lm);
      return t < fh[lm->goalfact] ? t : fh[lm->goalfact];
    }
    lm->fact_stamp[f] = done;
    lm->choice_head[f] = -1; /* (its list of an earlier run) */
    /* bounds read once: the stores below (int32 arrays) could alias them for the compiler */
    for (uint32_t k = pof[f], ke = pof[f + 1]; k < ke; ++k) {
      int32_t o = pol[k];
      if (--unsat[o] != 0 || rem[o] >= GOAP__INF) continue;
      jlink(lm, o, f);
      double v = t + rem[o];
      for (uint32_t e = eoff[o], ee = eoff[o + 1]; e < ee; ++e) {
        int32_t g = eff[e];
        if (v < fh[g]) {
          fh[g] = v;
          hpush(lm, v, g);
        }
      }
    }
  }
  return -1.0;
}

/* Operator o got cheaper or its preconditions' hmax fell: lower its effects' hmax. */
static inline void relax_op(goap__lmcut *lm, int32_t o) {
  double *fh = lm->hmax, v = fh[lm->choice[o]] + lm->rem[o];
  const int32_t *eff = lm->eff;
  for (uint32_t e = lm->eff_off[o], ee = lm->eff_off[o + 1]; e < ee; ++e) {
    int32_t g = eff[e];
    if (v < fh[g]) {
      fh[g] = v;
      hpush(lm, v, g);
    }
  }
}

/* Propagates hmax decreases from the heap (costs only fell since the last full hmax, so
 * values only fall and reachability does not change). An operator whose pcf fell gets its
 * largest precondition again (first in its list on ties). */
static void lm_hmax_update(goap__lmcut *lm) {
  if (lm->use_buckets) {
    lm_hmax_update_buckets(lm);
    return;
  }
  while (lm->heap_len > 0) {
    double t;
    int32_t f;
    hpop(lm, &t, &f);
    if (t > lm->hmax[f]) continue; /* stale */
    for (int32_t o = lm->choice_head[f], next, prev = -1; o >= 0; o = next) {
      next = lm->choice_next[o];
      int32_t best = lm->pre[lm->pre_off[o]];
      for (uint32_t j = lm->pre_off[o] + 1; j < lm->pre_off[o + 1]; ++j)
        if (lm->hmax[lm->pre[j]] > lm->hmax[best]) best = lm->pre[j];
      if (best != f) { /* out of f's list (after prev) */
        if (prev >= 0) lm->choice_next[prev] = next;
        else lm->choice_head[f] = next;
        jlink(lm, o, best);
      } else {
        prev = o;
      }
      relax_op(lm, o);
    }
  }
}

/* The cut by definition: the operators reached from the state's facts forwards along pcf
 * edges without entering the zone (stamp zs), with an effect in the zone. The facts visited
 * get the stamp zs + 1 in zone[] (no fact of the state is in the zone: their hmax is 0).
 * Costs O(justification graph); kept as the reference for cut_backward (tests). Appends to
 * cut_ops[ncut..] the operators not yet in it; returns the new count. */
static size_t cut_forward(goap__lmcut *lm, uint32_t zs, size_t ncut) {
  uint32_t vs = zs + 1, *mark = lm->zone;
  size_t top = 0;
  for (uint32_t i = 0; i < lm->ninit; ++i) {
    int32_t f = lm->init[i];
    mark[f] = vs;
    lm->stack[top++] = f;
  }
  while (top > 0) {
    int32_t f = lm->stack[--top];
    for (int32_t o = lm->choice_head[f]; o >= 0; o = lm->choice_next[o]) {
      for (uint32_t e = lm->eff_off[o], ee = lm->eff_off[o + 1]; e < ee; ++e) {
        int32_t g = lm->eff[e];
        uint32_t mg = mark[g];
        if (mg == zs) {
          if (lm->cut[o] != zs) {
            lm->cut[o] = zs;
            lm->cut_ops[ncut++] = o;
          }
        } else if (mg != vs) {
          mark[g] = vs;
          lm->stack[top++] = g;
        }
      }
    }
  }
  return ncut;
}

/* 1 when fact q (outside the zone) is reached from the state's facts along pcf edges without
 * entering the zone: searches backwards (from a fact to the pcf of each of its reached
 * achievers, outside the zone) for a fact below the goal's hmax H, or one already known to
 * be reached (fact_stamp == ys). When there is none, every fact it met is unreached too
 * (fact_stamp = ns), as all it leads back to was searched. */
static int reached_back(goap__lmcut *lm, int32_t q, uint32_t zs, uint32_t ys, uint32_t ns,
                        double H) {
  if (++lm->back_stamp == 0) {
    memset(lm->back_mark, 0, lm->nfact * sizeof *lm->back_mark);
    lm->back_stamp = 1;
  }
  uint32_t bs = lm->back_stamp;
  size_t head = 0, tail = 0;
  ++lm->nback;
  lm->back_mark[q] = bs;
  lm->stack[tail++] = q;
  while (head < tail) {
    int32_t x = lm->stack[head++];
    if (lm->hmax[x] < H || lm->fact_stamp[x] == ys) {
      lm->fact_stamp[q] = ys;
      return 1;
    }
    for (uint32_t k = lm->ach_off[x]; k < lm->ach_off[x + 1]; ++k) {
      int32_t a = lm->ach[k];
      if (!fired(lm, a)) continue;
      int32_t y = lm->choice[a];
      if (lm->zone[y] == zs || lm->back_mark[y] == bs || lm->fact_stamp[y] == ns) continue;
      lm->back_mark[y] = bs;
      lm->stack[tail++] = y;
    }
  }
  for (size_t i = 0; i < tail; ++i) lm->fact_stamp[lm->stack[i]] = ns;
  return 0;
}

/* The same cut from the zone's side: the reached achievers of zone facts whose pcf q is
 * outside the zone and reached from the state without entering it. Every fact with hmax
 * below the goal's H is: the achievers that justify its hmax (each at most its hmax,
 * back to the state) lie below H, and zone facts are at H or above (a zero-cost operator's
 * effect is at most its pcf, exactly, as costs at most LM_EPS are 0). Only a q at H or above
 * needs the backward search. */
static size_t cut_backward(goap__lmcut *lm, uint32_t zs, size_t nz) {
  double H = lm->hmax[lm->goalfact];
  uint32_t ys = zs + 1, ns = zs + 2;
  size_t ncut = 0;
  for (size_t i = 0; i < nz; ++i) {
    int32_t z = lm->zone_list[i];
    for (uint32_t k = lm->ach_off[z]; k < lm->ach_off[z + 1]; ++k) {
      int32_t o = lm->ach[k];
      if (!fired(lm, o)) continue;
      int32_t q = lm->choice[o];
      if (lm->zone[q] == zs || lm->cut[o] == zs) continue;
      if (lm->hmax[q] < H || lm->fact_stamp[q] == ys ||
          (lm->fact_stamp[q] != ns && reached_back(lm, q, zs, ys, ns, H))) {
        lm->cut[o] = zs;
        lm->cut_ops[ncut++] = o;
      }
    }
  }
  return ncut;
}

/* For tests (lm.verify): hmax by a plain fixpoint over the operators that can fire, with the
 * remaining costs, against lm.hmax; and the justification graph: an operator is linked iff it
 * is reached (enabled, every precondition finite), its choice is a precondition of the
 * largest hmax, and each choice list holds exactly the operators whose choice it is, with
 * no cycle. Returns the number of differences. O(nop * depth): tests only. */
static unsigned long lm_verify(const goap__lmcut *lm) {
  double *h = lm->hmax_ref;
  const double *rem = lm->rem;
  unsigned long bad = 0;
  for (uint32_t f = 0; f < lm->nfact; ++f) h[f] = GOAP__INF;
  for (uint32_t i = 0; i < lm->ninit; ++i) h[lm->init[i]] = 0.0;
  for (int changed = 1; changed;) {
    changed = 0;
    for (uint32_t o = 0; o < lm->nop; ++o) {
      if (!lm->op_indexed[o] || rem[o] >= GOAP__INF) continue;
      double v = 0.0;
      for (uint32_t j = lm->pre_off[o]; j < lm->pre_off[o + 1]; ++j)
        if (h[lm->pre[j]] > v) v = h[lm->pre[j]];
      if (v >= GOAP__INF) continue;
      v += rem[o];
      for (uint32_t e = lm->eff_off[o]; e < lm->eff_off[o + 1]; ++e)
        if (v < h[lm->eff[e]] - 1e-9) {
          h[lm->eff[e]] = v;
          changed = 1;
        }
    }
  }
  for (uint32_t f = 0; f < lm->nfact; ++f)
    bad += !(h[f] >= GOAP__INF ? lm->hmax[f] >= GOAP__INF : fabs(h[f] - lm->hmax[f]) <= 1e-9);
  uint32_t linked = 0, listed = 0;
  for (uint32_t o = 0; o < lm->nop; ++o) {
    double top = -1.0;
    int reached = lm->op_indexed[o] && rem[o] < GOAP__INF;
    for (uint32_t j = lm->pre_off[o]; j < lm->pre_off[o + 1]; ++j)
      if (h[lm->pre[j]] > top) top = h[lm->pre[j]];
    reached = reached && top < GOAP__INF;
    int32_t c = lm->choice[o];
    if (!reached) {
      bad += fired(lm, (int32_t)o) != 0;
      continue;
    }
    bad += fired(lm, (int32_t)o) == 0;
    ++linked;
    int is_pre = 0;
    for (uint32_t j = lm->pre_off[o]; j < lm->pre_off[o + 1]; ++j) is_pre |= lm->pre[j] == c;
    bad += !is_pre || c < 0 || fabs(lm->hmax[c] - top) > 1e-9;
  }
  for (uint32_t f = 0; f < lm->nfact; ++f)
    for (int32_t o = h[f] < GOAP__INF ? lm->choice_head[f] : -1; o >= 0; o = lm->choice_next[o]) {
      bad += lm->choice[o] != (int32_t)f;
      if (++listed > lm->nop) return bad + 1; /* a cycle */
    }
  bad += linked != listed;
  bad += lm->heap_len != 0 || lm->bq_len != 0; /* the queue is empty between runs */
  if (lm->use_buckets)
    for (uint32_t k = 0; k < lm->nbuckets; ++k) bad += lm->bucket_head[k] != -1;
  return bad;
}

/* Appends landmark ops[0..n) of cost m to lk (lk_over when it does not fit). */
static void lk_add(goap__lmcut *lm, const int32_t *ops, size_t n, double m) {
  if (lm->landmarks_over || lm->nlandmarks + 3 + n > lm->cap_landmarks) {
    lm->landmarks_over = 1;
    return;
  }
  int32_t *w = lm->landmarks + lm->nlandmarks;
  w[0] = (int32_t)n;
  memcpy(w + 1, &m, sizeof m);
  memcpy(w + 3, ops, n * sizeof *ops);
  lm->nlandmarks += 3 + n;
}

double goap__lmcut_eval(goap_planner *p, const goap_word *s) {
  goap__lmcut *lm = &p->lm;
  const goap_domain *d = p->d;
  if (p->nwant == 0) return 0.0;
  /* the facts of the state: TRUE, the bool/enum values, the conditions that hold (their
   * auxiliary operators are then useless: disabled) */
  uint32_t ni = 0;
  lm->init[ni++] = 0;
  {
    const goap__lmvar *sv = lm->svar;
    const unsigned char *used = lm->fact_used;
    int32_t *init = lm->init;
    for (uint32_t i = 0, n = lm->nsvar; i < n; ++i) {
      uint32_t f = sv[i].base + (uint32_t)goap__field_get(s, sv[i].word, sv[i].shift, sv[i].fmask);
      if (used[f]) init[ni++] = (int32_t)f; /* else never used */
    }
  }
  /* the operators usable in this request and in this state, at their costs */
  if (d->nactions) memcpy(lm->rem, lm->op_cost, (size_t)d->nactions * sizeof *lm->rem);
  lm->use_buckets = lm->op_cost_whole && !lm->heap_only;
  for (uint32_t u = 0; u < lm->ncond_facts; ++u) {
    const goap__rcond *c = &lm->cond_fact_cond[u];
    const goap__var *var = &d->vars[c->var];
    uint64_t k = goap__field_get(s, var->word, var->shift, var->fmask);
    uint32_t o = lm->cond_fact_op_off[u], oe = lm->cond_fact_op_off[u + 1];
    if (k >= c->a && k <= c->b && !(c->has_ne && k == c->ne)) {
      lm->init[ni++] = (int32_t)(lm->condbase + u);
      for (; o < oe; ++o) lm->rem[o] = GOAP__INF;
      continue;
    }
    for (; o < oe; ++o) {
      const goap__rcond *g = &lm->guard[o];
      double cst = 0.0;
      if (g->var >= 0) {
        const goap__var *gv = &d->vars[g->var];
        uint64_t x = goap__field_get(s, gv->word, gv->shift, gv->fmask);
        if (x < g->a || x > g->b || (g->has_ne && x == g->ne)) cst = GOAP__INF;
      }
      lm->rem[o] = cst;
    }
  }
  lm->rem[lm->goalop] = 0.0;
  lm->ninit = ni;
  double h = 0.0, stop = lm->stop_on ? lm->stop : GOAP__INF;
  lm->partial = 0;
  lm->nlandmarks = 0;
  lm->landmarks_over = 0;
  /* inherited landmarks (of this state too, with a valid cost partition: see the top) */
  lm->ninherit += lm->start_landmarks != NULL;
  for (size_t i = 0; lm->start_landmarks && i < lm->nstart_landmarks;) {
    const int32_t *w = lm->start_landmarks + i;
    size_t n = (size_t)w[0];
    double m;
    memcpy(&m, w + 1, sizeof m);
    for (size_t k = 0; k < n; ++k) {
      double *rc = &lm->rem[w[3 + k]];
      *rc -= m;
      if (*rc <= LM_EPS) *rc = 0.0;
    }
    h += m;
    lk_add(lm, w + 3, n, m);
    i += 3 + n;
  }
  double early = lm_hmax(lm, stop - h);
  if (early >= 0.0) { /* hmax(goal) >= early > stop - h */
    ++lm->nrounds;
    lm->partial = 1;
    ++lm->npartial;
    return h + early;
  }
  if (lm->verify) {
    ++lm->verify_runs;
    lm->verify_mismatch += lm_verify(lm);
  }
  if (lm->hmax[lm->goalfact] >= GOAP__INF) return GOAP__INF;
  while (lm->hmax[lm->goalfact] > LM_EPS) {
    /* h + hmax(goal) with the remaining costs is admissible (a cost partition: the cuts so
     * far, and hmax under what they left); past stop the caller needs no more */
    ++lm->nrounds;
    if (h + lm->hmax[lm->goalfact] > stop) {
      lm->partial = 1;
      ++lm->npartial;
      return h + lm->hmax[lm->goalfact];
    }
    /* the goal zone: backwards from the goal through zero-cost operators' pcf */
    uint32_t zs = next_stamps(lm);
    size_t top = 0, nz = 0;
    lm->zone[lm->goalfact] = zs;
    lm->stack[top++] = (int32_t)lm->goalfact;
    while (top > 0) {
      int32_t f = lm->stack[--top];
      lm->zone_list[nz++] = f;
      for (uint32_t k = lm->ach_off[f]; k < lm->ach_off[f + 1]; ++k) {
        int32_t o = lm->ach[k];
        if (lm->rem[o] > 0.0 || lm->unmet[o] != 0) continue; /* costly, or not fired */
        int32_t q = lm->choice[o];
        if (lm->zone[q] == zs) continue;
        lm->zone[q] = zs;
        lm->stack[top++] = q;
      }
    }
    size_t ncut;
    if (lm->forward_cut == 0) {
      ncut = cut_backward(lm, zs, nz);
    } else if (lm->forward_cut == 1) {
      ncut = cut_forward(lm, zs, 0);
    } else { /* both: the forward search adds nothing, and reaches every pcf of the cut */
      size_t nb = cut_backward(lm, zs, nz);
      ncut = cut_forward(lm, zs, nb);
      for (size_t i = 0; i < nb; ++i)
        lm->cut_mismatch += lm->zone[lm->choice[lm->cut_ops[i]]] != zs + 1;
      lm->cut_mismatch += ncut - nb;
    }
    /* in operator order, so that both searches lead to the same later choices */
    for (size_t i = 1; i < ncut; ++i) {
      int32_t o = lm->cut_ops[i];
      size_t j = i;
      for (; j > 0 && lm->cut_ops[j - 1] > o; --j) lm->cut_ops[j] = lm->cut_ops[j - 1];
      lm->cut_ops[j] = o;
    }
    if (ncut == 0) break; /* cannot happen while hmax(goal) > 0; a safe stop */
    double m = GOAP__INF;
    for (size_t i = 0; i < ncut; ++i)
      if (lm->rem[lm->cut_ops[i]] < m) m = lm->rem[lm->cut_ops[i]];
    h += m;
    lk_add(lm, lm->cut_ops, ncut, m);
    for (size_t i = 0; i < ncut; ++i) {
      int32_t o = lm->cut_ops[i];
      double *rc = &lm->rem[o];
      *rc -= m;
      if (*rc <= LM_EPS) *rc = 0.0;
      relax_op(lm, o);
    }
    lm_hmax_update(lm);
    if (lm->verify) {
      ++lm->verify_runs;
      lm->verify_mismatch += lm_verify(lm);
    }
  }
  return h;
}
