/*
 * planner_start.c -- a search's start, split from planner.c: the per-request choice of node
 * layout and forward successor generator (small mode, the useful-action bitset, the successor
 * index, orbit search, positional costs), the pools reset, the structures built per selection
 * (successor index, LM-cut compilation, landmark ring) and the roots.
 *
 * Invariants:
 *  - Starting a request costs O(1) in the closed table: ids of earlier requests lie below
 *    idbase; the table is wiped only before the ids would wrap.
 *  - The per-selection structures (recheck fan-out, successor index, LM-cut compilation) are
 *    rebuilt exactly when goal_serial changed; the fan-out is kept with the goal-cache slot.
 *  - Forward searches have one root, the start state (canonical under a symmetry); backward
 *    searches one per candidate of the goal's intervals split on `!=`. Roots go through
 *    offer(), as every node does.
 *  - Small mode is left for the bitset when tracing, lazy search, preferred operators or
 *    positional costs are on (its loop has no hooks for them): the same successors in the
 *    same order.
 */
#include <math.h>
#include <string.h>

#include "planner.h"

#define NONE UINT32_MAX

/* Beyond this many actions to recheck per successor (on average over the active actions),
 * the bitset's upkeep costs more than finding the candidates through the index: blocks world
 * rechecks about 170 per successor and runs 3x faster with the index; chains recheck 2 and
 * would lose the bitset's knowledge of no-ops. */
#define MAX_FANOUT 48

/* Average over the active actions of the actions rechecked after applying one (the touch
 * lists of the variables it writes). */
static uint32_t recheck_fanout(const goap_planner *p) {
  const goap_domain *d = p->d;
  uint64_t total = 0;
  for (int i = 0; i < p->nactive; ++i) {
    const goap__action *x = &d->actions[p->active[i]];
    for (int e = 0; e < x->neff; ++e)
      total += p->touch_off[x->eff[e].var + 1] - p->touch_off[x->eff[e].var];
  }
  uint64_t avg = p->nactive ? total / (uint64_t)p->nactive : 0;
  return avg > 0xffffffffu ? 0xffffffffu : (uint32_t)avg;
}

goap_status goap__planner_start(goap_planner *p) {
  uint32_t sw;
  goap_status st = goap__rx_goal(p);
  if (st != GOAP_OK) return st;
  /* ids of earlier requests lie below idbase; wipe only before the ids would wrap */
  if ((uint64_t)p->closed.idbase + p->cap_nodes + 2 >= ((uint64_t)1 << 32)) {
    memset(p->closed.slot, 0xff, p->closed.cap * sizeof *p->closed.slot);
    p->closed.idbase = 0;
  }
  p->nodes.count = 0;
  p->open.count = 0;
  p->open_pref.count = 0;
  p->prio[0] = p->prio[1] = 0;
  p->best_h = INFINITY;
  p->found = p->best = NONE;
  p->lm_node = NONE;
  p->lm_gain = p->lm_fresh = 0;
  if (p->search == GOAP_SEARCH_BACKWARD) {
    p->key = p->stride = 2 * p->W;
    p->useful_words = 0;
  } else {
    p->key = p->W;
    /* the useful-action bitset when it is at most as large as the state and a successor has
     * few actions to recheck, else the index */
    uint32_t words = (uint32_t)((p->nactive + 63) / 64);
    if (p->fan_serial != p->goal_serial) {
      p->fanout = recheck_fanout(p);
      p->fan_serial = p->goal_serial;
      if (p->gslot_current >= 0 && p->gslots[p->gslot_current].serial == p->goal_serial) {
        p->gslots[p->gslot_current].fanout = p->fanout; /* kept with the selection (goal cache) */
        p->gslots[p->gslot_current].fan_ok = 1;
      }
    }
    /* lazy search expands few of the states it generates: keeping each one's bitset up to
     * date costs more than finding the applicable actions of the few expanded (village:
     * 2.3x fewer instructions per plan) */
    int bitset = words <= p->W && (words <= 1 || (p->fanout <= MAX_FANOUT && !p->lazy));
    p->useful_words = (bitset && p->sx_force != 1) || p->sx_force == 2 ? words : 0;
    p->succ_mode = !p->useful_words ? FMODE_INDEX : p->small ? FMODE_SMALL : FMODE_BITSET;
    /* small mode's specialised loop has no trace hooks: the bitset mode expands the same
     * successors in the same order through goap__planner_offer() */
    if (p->succ_mode == FMODE_SMALL && (p->trace_fn || p->lazy || p->pref_on || p->scost_on))
      p->succ_mode = FMODE_BITSET;
    /* positional costs: the same bitset or index through expand_scost (orbit search and
     * positional costs never meet: begin refuses the pair) */
    if (p->scost_on) p->succ_mode = FMODE_SCOST;
    if (p->sym.on) { /* orbit search: the index, whose successors offer canonicalises */
      p->useful_words = 0;
      p->succ_mode = FMODE_INDEX_SYM;
    }
    /* strong stubborn sets: their own successor lists (positional costs: no pruning) */
    p->por_on = 0;
    if ((p->flags & GOAP_REQUEST_STUBBORN) && !p->scost_on) {
      if (p->por.serial != p->goal_serial) {
        st = goap__por_build(p);
        if (st != GOAP_OK) return st;
      }
      if (p->por.ok) {
        goap__por_start(p);
        p->por_on = 1;
        p->useful_words = 0;
        p->succ_mode = FMODE_POR;
      }
    }
    p->stride = p->W + p->useful_words;
    if (p->succ_mode >= FMODE_INDEX && !p->useful_words && p->succ.serial != p->goal_serial)
      goap__succ_index_build(p);
  }
  sw = p->stride;
  st = goap__planner_nodes(p, 2);
  if (st != GOAP_OK) return st;
  if (p->goal_never) return GOAP_NO_PLAN;
  if (p->search != GOAP_SEARCH_BACKWARD) {
    if (p->heur == GOAP_H_LMCUT && (!p->lm.built || p->lm.serial != p->goal_serial)) {
      st = goap__lmcut_build(p);
      if (st != GOAP_OK) return st;
    }
    p->lm_ring.on = p->heur == GOAP_H_LMCUT && p->lazy_astar && p->lm_inherit;
    if (p->lm_ring.on) {
      st = goap__lm_ring_setup(p);
      if (st != GOAP_OK) return st;
    }
    goap_word *tent = p->nodes.states + (size_t)p->nodes.count * sw;
    memcpy(tent, p->start, p->W * sizeof *tent);
    if (p->sym.on) (void)goap__sym_canon(&p->sym, tent, NULL);
    if (p->useful_words) goap__planner_useful_all(p, tent);
    return goap__planner_offer(p, tent, NONE, -1, 0.0, 0);
  }
  if (p->heur >= GOAP_H_MAX) goap__relax_explore_start(p);
  /* roots: the goal as intervals, split on != */
  st = goap__cand_reserve(p, 2);
  if (st != GOAP_OK) return st;
  goap__full_intervals(p, p->scratch, p->scratch + p->W);
  size_t nc = 1;
  for (int i = 0; i < p->nwant && nc; ++i) {
    const goap__ftest *t = &p->goal_ft[i];
    st = goap__split_ne(p, &nc, &p->d->vars[t->var], t->a, t->b, t->ne, t->has_ne);
    if (st != GOAP_OK) return st;
  }
  for (size_t k = 0; k < nc; ++k) {
    goap_word *tent = p->nodes.states + (size_t)p->nodes.count * sw;
    memcpy(tent, p->scratch + k * sw, sw * sizeof *tent);
    st = goap__planner_offer(p, tent, NONE, -1, 0.0, 1);
    if (st != GOAP_OK) return st;
  }
  return GOAP_OK;
}
