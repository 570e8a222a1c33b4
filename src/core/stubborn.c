/*
 * stubborn.c -- strong stubborn sets (GOAP_REQUEST_STUBBORN): partial-order pruning of the
 * forward successors of a state, safe for optimal search (Alkhazraji, Wehrle, Mattmüller and
 * Helmert 2012; Wehrle and Helmert 2014).
 *
 * Invariants:
 *  - The selection qualifies (por.ok) when every active action only sets bool/enum variables
 *    (no ADD effects) and every condition of the active actions and of the goal is on a
 *    bool/enum variable. Conditions are the relaxation's intervals (rx.cond, goal_ft: a value
 *    in [a, b], != ne when has_ne); a fact is a (variable, encoded value) pair.
 *  - Two active actions interfere when one sets a variable to a value the other's condition on
 *    it excludes (it disables the other), or both set one variable to different values. An
 *    action's list is computed the first time it is applicable in a set and kept for the
 *    selection (interf_off UINT32_MAX before), without the action itself, each entry once; the
 *    per-variable reader and setter lists it is made from are built with the selection.
 *  - A state's set S (never for a goal state): the achievers of the unmet goal condition with
 *    the fewest achievers; then, until nothing is added, for each member: when applicable, the
 *    actions interfering with it; otherwise the achievers of its unmet condition with the
 *    fewest achievers (a necessary enabling set). Only S's applicable members are expanded.
 *    Every plan from the state then has a permutation of equal cost that starts with one of
 *    them, so A* keeps its optimal cost (with orbit search too: S is computed for the
 *    canonical state, a real state of the orbit). An S without applicable members marks a
 *    dead end.
 *  - Deterministic: ties between conditions go to the first; the applicable members are
 *    returned in active order; a list's entries depend on its action only, not on when it
 *    was computed; the trial restarts with every search (goap__por_start). The per-state
 *    work allocates only when an interference list is first computed.
 */
#include <string.h>

#include "planner.h"

/* Above this many interference entries in all, the pruning is turned off (memory). */
#define POR_MAX_ENTRIES ((size_t)1 << 25)
/* The first POR_TRIAL expansions also count every applicable action; when the sets kept more
 * than 1 - POR_MIN_PRUNED of them, the pruning is turned off for the rest of the search (it
 * costs more than it saves there: blocks world, barman, pegsol). */
#define POR_TRIAL 100u
#define POR_MIN_PRUNED 0.2
/* ... and after the first POR_TRIAL_NONE, when they have pruned nothing at all (pegsol). */
#define POR_TRIAL_NONE 25u

#define GROW(field, n)                                                                        \
  do {                                                                                        \
    goap_status g_ = goap__planner_grow(p, (void **)&y->field, &y->cap_##field, (n) ? (n) : 1,  \
                                        sizeof *y->field);                                    \
    if (g_ != GOAP_OK) return g_;                                                             \
  } while (0)

static inline int allowed(uint64_t x, uint64_t a, uint64_t b, uint64_t ne, uint32_t has_ne) {
  return x >= a && x <= b && !(has_ne && x == ne);
}

static inline uint64_t eff_value(const goap__var *v, const goap_effect *e) {
  return (uint64_t)((int64_t)e->value - (int64_t)v->lo);
}

/* The achievers of var in [a, b] \ {ne}: their count, or pushed into the set when push. */
static uint32_t achievers(goap_planner *p, int32_t var, uint64_t a, uint64_t b, uint64_t ne,
                          uint32_t has_ne, uint32_t *n, int push) {
  goap__por *y = &p->por;
  const goap__var *v = &p->d->vars[var];
  uint32_t f0 = p->rx.fact_off[var], count = 0;
  uint64_t top = b < v->range ? b : v->range;
  for (uint64_t x = a; x <= top; ++x) {
    if (has_ne && x == ne) continue;
    uint32_t f = f0 + (uint32_t)x;
    if (!push) {
      count += y->fact_writer_off[f + 1] - y->fact_writer_off[f];
      continue;
    }
    for (uint32_t k = y->fact_writer_off[f]; k < y->fact_writer_off[f + 1]; ++k) {
      int32_t ai = y->fact_writer[k];
      if (y->set_stamp[ai] != y->set_gen) {
        y->set_stamp[ai] = y->set_gen;
        y->set_order[(*n)++] = ai;
      }
    }
  }
  return count;
}

static int qualifies(const goap_planner *p) {
  const goap_domain *d = p->d;
  const goap__relax *r = &p->rx;
  for (int i = 0; i < p->nactive; ++i) {
    int32_t a = p->active[i];
    const goap__action *x = &d->actions[a];
    for (int k = 0; k < x->neff; ++k)
      if (x->eff[k].op != GOAP_SET || d->vars[x->eff[k].var].type == GOAP_INT) return 0;
    for (uint32_t k = r->act_off[a]; k < r->act_off[a + 1]; ++k)
      if (d->vars[r->cond[k].var].type == GOAP_INT) return 0;
  }
  for (int i = 0; i < p->nwant; ++i)
    if (d->vars[p->goal_ft[i].var].type == GOAP_INT) return 0;
  return 1;
}

goap_status goap__por_build(goap_planner *p) {
  goap__por *y = &p->por;
  const goap_domain *d = p->d;
  const goap__relax *r = &p->rx;
  size_t F = r->nfacts, NA = (size_t)p->nactive, V = (size_t)d->nvars;
  y->ok = 0;
  y->serial = p->goal_serial;
  if (!qualifies(p)) return GOAP_OK;
  GROW(fact_writer_off, F + 1);
  GROW(var_reader_off, V + 1);
  GROW(var_writer_off, V + 1);
  GROW(interf_off, NA);
  GROW(interf_len, NA);
  GROW(cond_achievers, (size_t)r->ncond);
  GROW(goal_achievers, (size_t)p->nwant);
  GROW(set_stamp, NA);
  GROW(interf_stamp, NA);
  GROW(set_order, NA);
  GROW(applicable, NA);
  GROW(applicable_bits, (NA + 63) / 64);
  memset(y->set_stamp, 0, NA * sizeof *y->set_stamp);
  memset(y->interf_stamp, 0, NA * sizeof *y->interf_stamp);
  y->interf_gen = 0;
  memset(y->applicable_bits, 0, ((NA + 63) / 64) * sizeof *y->applicable_bits);
  memset(y->interf_off, 0xff, NA * sizeof *y->interf_off);
  y->set_gen = 0;
  y->ninterf = 0;
  /* the setters of each fact and of each variable, the conditions on each variable (CSR,
   * active order) */
  size_t nfw = 0, nvr = 0;
  memset(y->fact_writer_off, 0, (F + 1) * sizeof *y->fact_writer_off);
  memset(y->var_reader_off, 0, (V + 1) * sizeof *y->var_reader_off);
  memset(y->var_writer_off, 0, (V + 1) * sizeof *y->var_writer_off);
  for (size_t i = 0; i < NA; ++i) {
    int32_t a = p->active[i];
    const goap__action *x = &d->actions[a];
    for (int k = 0; k < x->neff; ++k) {
      const goap__var *v = &d->vars[x->eff[k].var];
      y->fact_writer_off[r->fact_off[x->eff[k].var] + eff_value(v, &x->eff[k]) + 1]++;
      y->var_writer_off[x->eff[k].var + 1]++;
      ++nfw;
    }
    for (uint32_t k = r->act_off[a]; k < r->act_off[a + 1]; ++k) {
      y->var_reader_off[r->cond[k].var + 1]++;
      ++nvr;
    }
  }
  for (size_t f = 0; f < F; ++f) y->fact_writer_off[f + 1] += y->fact_writer_off[f];
  for (size_t v = 0; v < V; ++v) {
    y->var_reader_off[v + 1] += y->var_reader_off[v];
    y->var_writer_off[v + 1] += y->var_writer_off[v];
  }
  GROW(fact_writer, nfw);
  GROW(var_writer_act, nfw);
  GROW(var_writer_val, nfw);
  GROW(var_reader_act, nvr);
  GROW(var_reader_cond, nvr);
  for (size_t i = 0; i < NA; ++i) {
    int32_t a = p->active[i];
    const goap__action *x = &d->actions[a];
    for (int k = 0; k < x->neff; ++k) {
      int32_t var = x->eff[k].var;
      uint64_t val = eff_value(&d->vars[var], &x->eff[k]);
      y->fact_writer[y->fact_writer_off[r->fact_off[var] + val]++] = (int32_t)i;
      y->var_writer_act[y->var_writer_off[var]] = (int32_t)i;
      y->var_writer_val[y->var_writer_off[var]++] = val;
    }
    for (uint32_t k = r->act_off[a]; k < r->act_off[a + 1]; ++k) {
      int32_t var = r->cond[k].var;
      y->var_reader_act[y->var_reader_off[var]] = (int32_t)i;
      y->var_reader_cond[y->var_reader_off[var]++] = (int32_t)k;
    }
  }
  for (size_t f = F; f > 0; --f) y->fact_writer_off[f] = y->fact_writer_off[f - 1];
  y->fact_writer_off[0] = 0;
  for (size_t v = V; v > 0; --v) {
    y->var_reader_off[v] = y->var_reader_off[v - 1];
    y->var_writer_off[v] = y->var_writer_off[v - 1];
  }
  y->var_reader_off[0] = y->var_writer_off[0] = 0;
  /* the achiever counts of every condition of an active action and of the goal */
  for (size_t i = 0; i < NA; ++i) {
    int32_t a = p->active[i];
    for (uint32_t k = r->act_off[a]; k < r->act_off[a + 1]; ++k) {
      const goap__rcond *c = &r->cond[k];
      y->cond_achievers[k] = achievers(p, c->var, c->a, c->b, c->ne, c->has_ne, NULL, 0);
    }
  }
  for (int i = 0; i < p->nwant; ++i) {
    const goap__ftest *t = &p->goal_ft[i];
    y->goal_achievers[i] = achievers(p, t->var, t->a, t->b, t->ne, t->has_ne, NULL, 0);
  }
  y->ok = 1;
  return GOAP_OK;
}

void goap__por_start(goap_planner *p) {
  goap__por *y = &p->por;
  y->trial_app = y->trial_kept = 0;
  y->trial_left = POR_TRIAL;
}

/* Appends b to the list being built when it is new (tok: that list's stamp). */
static inline int if_add(goap_planner *p, int32_t b, uint32_t tok) {
  goap__por *y = &p->por;
  if (y->interf_stamp[b] == tok) return 1;
  y->interf_stamp[b] = tok;
  if (y->ninterf >= POR_MAX_ENTRIES) return 0;
  if (goap__planner_grow(p, (void **)&y->interf, &y->cap_interf, y->ninterf + 1,
                         sizeof *y->interf) != GOAP_OK)
    return 0;
  y->interf[y->ninterf++] = b;
  return 1;
}

/* Computes active action ai's interference list (once): the actions whose conditions its
 * effects exclude, which set its effects' variables to other values, or whose effects its
 * conditions exclude; each once (interf_stamp). 0 when the list cannot grow. */
static int interference(goap_planner *p, int32_t ai) {
  goap__por *y = &p->por;
  const goap_domain *d = p->d;
  const goap__relax *r = &p->rx;
  int32_t a = p->active[ai];
  const goap__action *x = &d->actions[a];
  if (++y->interf_gen == 0) {
    memset(y->interf_stamp, 0, (size_t)p->nactive * sizeof *y->interf_stamp);
    y->interf_gen = 1;
  }
  uint32_t tok = y->interf_gen;
  size_t start = y->ninterf;
  for (int k = 0; k < x->neff; ++k) {
    int32_t var = x->eff[k].var;
    uint64_t xv = eff_value(&d->vars[var], &x->eff[k]);
    for (uint32_t j = y->var_reader_off[var]; j < y->var_reader_off[var + 1]; ++j) {
      const goap__rcond *c = &r->cond[y->var_reader_cond[j]];
      int32_t b = y->var_reader_act[j];
      if (b != ai && !allowed(xv, c->a, c->b, c->ne, c->has_ne) && !if_add(p, b, tok)) return 0;
    }
    for (uint32_t j = y->var_writer_off[var]; j < y->var_writer_off[var + 1]; ++j) {
      int32_t b = y->var_writer_act[j];
      if (b != ai && y->var_writer_val[j] != xv && !if_add(p, b, tok)) return 0;
    }
  }
  for (uint32_t k = r->act_off[a]; k < r->act_off[a + 1]; ++k) {
    const goap__rcond *c = &r->cond[k];
    for (uint32_t j = y->var_writer_off[c->var]; j < y->var_writer_off[c->var + 1]; ++j) {
      int32_t b = y->var_writer_act[j];
      if (b != ai && !allowed(y->var_writer_val[j], c->a, c->b, c->ne, c->has_ne) &&
          !if_add(p, b, tok))
        return 0;
    }
  }
  y->interf_off[ai] = (uint32_t)start;
  y->interf_len[ai] = (uint32_t)(y->ninterf - start);
  return 1;
}

uint32_t goap__por_stubborn(goap_planner *p, const goap_word *s, const int32_t **list) {
  goap__por *y = &p->por;
  const goap_domain *d = p->d;
  const goap__relax *r = &p->rx;
  uint32_t NA = (uint32_t)p->nactive, n = 0, head = 0, napp = 0;
  if (++y->set_gen == 0) {
    memset(y->set_stamp, 0, NA * sizeof *y->set_stamp);
    y->set_gen = 1;
  }
  *list = y->applicable;
  /* the unmet goal condition with the fewest achievers */
  int best = -1;
  for (int i = 0; i < p->nwant; ++i)
    if (!goap__ftest_ok(&p->goal_ft[i], s) &&
        (best < 0 || y->goal_achievers[i] < y->goal_achievers[best]))
      best = i;
  if (best < 0) { /* a goal state (not expanded by the searches): everything */
    for (uint32_t i = 0; i < NA; ++i) y->applicable[i] = (int32_t)i;
    return NA;
  }
  const goap__ftest *t = &p->goal_ft[best];
  (void)achievers(p, t->var, t->a, t->b, t->ne, t->has_ne, &n, 1);
  while (head < n) {
    int32_t ai = y->set_order[head++], a = p->active[ai];
    if (goap__action_ok(d, &d->actions[a], s)) {
      y->applicable_bits[ai >> 6] |= (goap_word)1 << (ai & 63);
      ++napp;
      if (y->interf_off[ai] == UINT32_MAX && !interference(p, ai)) {
        p->por_on = 0;
        break;
      }
      for (uint32_t k = y->interf_off[ai], ke = k + y->interf_len[ai]; k < ke; ++k) {
        int32_t b = y->interf[k];
        if (y->set_stamp[b] != y->set_gen) {
          y->set_stamp[b] = y->set_gen;
          y->set_order[n++] = b;
        }
      }
      continue;
    }
    /* a necessary enabling set: the achievers of its unmet condition with the fewest */
    uint32_t pick = UINT32_MAX;
    for (uint32_t k = r->act_off[a]; k < r->act_off[a + 1]; ++k) {
      const goap__rcond *c = &r->cond[k];
      const goap__var *v = &d->vars[c->var];
      uint64_t x = goap__field_get(s, v->word, v->shift, v->fmask);
      if (!allowed(x, c->a, c->b, c->ne, c->has_ne) &&
          (pick == UINT32_MAX || y->cond_achievers[k] < y->cond_achievers[pick]))
        pick = k;
    }
    if (pick == UINT32_MAX) continue; /* never applicable (its conditions contradict) */
    const goap__rcond *c = &r->cond[pick];
    (void)achievers(p, c->var, c->a, c->b, c->ne, c->has_ne, &n, 1);
  }
  if (p->por_on && y->trial_left > 0) {
    /* the first expansions: does the pruning pay? */
    for (uint32_t i = 0; i < NA; ++i)
      y->trial_app += (uint64_t)goap__action_ok(d, &d->actions[p->active[i]], s);
    y->trial_kept += napp;
    --y->trial_left;
    if ((y->trial_left == 0 &&
         (double)(y->trial_app - y->trial_kept) < POR_MIN_PRUNED * (double)y->trial_app) ||
        (y->trial_left == POR_TRIAL - POR_TRIAL_NONE && y->trial_app == y->trial_kept))
      p->por_on = 0;
  }
  /* the applicable members in active order (the bits are cleared on the way) */
  uint32_t m = 0;
  for (uint32_t w = 0; w < (NA + 63) / 64; ++w) {
    goap_word bits = y->applicable_bits[w];
    y->applicable_bits[w] = 0;
    while (bits) {
      int b = goap__lowest_bit(bits);
      bits &= bits - 1;
      y->applicable[m++] = (int32_t)(w * 64 + (uint32_t)b);
    }
  }
  return p->por_on ? m : UINT32_MAX;
}

void goap__por_free(goap_planner *p) {
  goap__por *y = &p->por;
  const goap_allocator *al = &p->alloc;
#define F(field) goap__free(al, y->field, y->cap_##field * sizeof *y->field);
  F(fact_writer_off) F(fact_writer) F(var_reader_off) F(var_reader_act) F(var_reader_cond)
  F(var_writer_off) F(var_writer_act) F(var_writer_val) F(interf_off) F(interf_len) F(interf)
  F(cond_achievers) F(goal_achievers) F(set_stamp) F(interf_stamp) F(set_order) F(applicable)
  F(applicable_bits)
#undef F
  memset(y, 0, sizeof *y);
}
