/*
 * succ_index.c -- the planner's successor index (goap__succ_index, planner.h): its memory and
 * its construction per action selection; planner.c reads it (expand_indexed).
 *
 * Invariants:
 *  - Every array is allocated once, at planner creation, for the domain's sizes, which the
 *    index keeps, so goap__succ_index_free frees exactly what was allocated.
 *  - A failed init leaves the index zeroed and holding nothing.
 */
#include <string.h>

#include "planner.h"

#define NZ(n) ((n) ? (n) : 1)

goap_status goap__succ_index_init(goap__succ_index *x, const goap_allocator *a, size_t nfacts,
                                  size_t nactions, size_t words, size_t nvars, size_t *memory) {
  memset(x, 0, sizeof *x);
  x->nfacts = nfacts;
  x->nactions = nactions;
  x->words = words;
  x->nvars = nvars;
  size_t bytes = 0;
#define ALLOC(ptr, n)                                                                         \
  do {                                                                                        \
    size_t b_ = NZ(n) * sizeof *(ptr);                                                        \
    (ptr) = goap__alloc(a, b_);                                                               \
    if (!(ptr)) {                                                                             \
      goap__succ_index_free(x, a);                                                            \
      return GOAP_OUT_OF_MEMORY;                                                              \
    }                                                                                         \
    memset((ptr), 0, b_);                                                                     \
    bytes += b_;                                                                              \
  } while (0)
  ALLOC(x->list, nactions);
  ALLOC(x->unanchored, nactions);
  ALLOC(x->anchor_true, words);
  ALLOC(x->anchor_false, words);
  ALLOC(x->bit_var, words << 6);
  ALLOC(x->enum_vars, nvars);
  ALLOC(x->anchor_off, nfacts + 1);
  ALLOC(x->fact_count, nfacts + 1);
#undef ALLOC
  *memory += bytes;
  return GOAP_OK;
}

void goap__succ_index_free(goap__succ_index *x, const goap_allocator *a) {
  goap__free(a, x->list, NZ(x->nactions) * sizeof *x->list);
  goap__free(a, x->unanchored, NZ(x->nactions) * sizeof *x->unanchored);
  goap__free(a, x->anchor_true, NZ(x->words) * sizeof *x->anchor_true);
  goap__free(a, x->anchor_false, NZ(x->words) * sizeof *x->anchor_false);
  goap__free(a, x->bit_var, NZ(x->words << 6) * sizeof *x->bit_var);
  goap__free(a, x->enum_vars, NZ(x->nvars) * sizeof *x->enum_vars);
  goap__free(a, x->anchor_off, (x->nfacts + 1) * sizeof *x->anchor_off);
  goap__free(a, x->fact_count, (x->nfacts + 1) * sizeof *x->fact_count);
  memset(x, 0, sizeof *x);
}

/* A relaxed condition that is one value of a bool/enum variable: its fact, else -1. */
static inline int32_t cond_fact(const goap_planner *p, const goap__rcond *rc) {
  if (p->d->vars[rc->var].type == GOAP_INT || rc->a != rc->b || rc->has_ne) return -1;
  return (int32_t)(p->rx.fact_off[rc->var] + rc->a);
}

/* Groups the active actions by an anchor: the equality precondition whose fact the fewest
 * active actions require (the first on ties). An expansion then visits only the actions
 * anchored at the state's facts, plus those without an anchor. Lists keep active order. */
void goap__succ_index_build(goap_planner *p) {
  const goap_domain *d = p->d;
  const goap__relax *r = &p->rx;
  uint32_t nf = r->nfacts;
  int32_t *anchor = p->back_list; /* scratch: forward search does not use it */
  memset(p->succ.fact_count, 0, ((size_t)nf + 1) * sizeof *p->succ.fact_count);
  for (int i = 0; i < p->nactive; ++i) {
    int32_t a = p->active[i];
    for (uint32_t k = r->act_off[a]; k < r->act_off[a + 1]; ++k) {
      int32_t f = cond_fact(p, &r->cond[k]);
      if (f >= 0) p->succ.fact_count[f]++;
    }
  }
  memset(p->succ.anchor_off, 0, ((size_t)nf + 1) * sizeof *p->succ.anchor_off);
  p->succ.nunanchored = 0;
  for (int i = 0; i < p->nactive; ++i) {
    int32_t a = p->active[i], best = -1;
    for (uint32_t k = r->act_off[a]; k < r->act_off[a + 1]; ++k) {
      int32_t f = cond_fact(p, &r->cond[k]);
      if (f >= 0 && (best < 0 || p->succ.fact_count[f] < p->succ.fact_count[best])) best = f;
    }
    anchor[i] = best;
    if (best >= 0) p->succ.anchor_off[best + 1]++;
    else p->succ.unanchored[p->succ.nunanchored++] = i;
  }
  for (uint32_t f = 0; f < nf; ++f) p->succ.anchor_off[f + 1] += p->succ.anchor_off[f];
  /* fill cursors */
  memcpy(p->succ.fact_count, p->succ.anchor_off, (size_t)nf * sizeof *p->succ.fact_count);
  for (int i = 0; i < p->nactive; ++i)
    if (anchor[i] >= 0) p->succ.list[p->succ.fact_count[anchor[i]]++] = i;
  memset(p->succ.anchor_true, 0, p->W * sizeof *p->succ.anchor_true);
  memset(p->succ.anchor_false, 0, p->W * sizeof *p->succ.anchor_false);
  p->succ.nenum_vars = 0;
  for (int v = 0; v < d->nvars; ++v) {
    const goap__var *var = &d->vars[v];
    if (var->type == GOAP_INT) continue;
    uint32_t f0 = r->fact_off[v], f1 = r->fact_off[v + 1];
    /* nothing anchored on this variable */
    if (p->succ.anchor_off[f1] == p->succ.anchor_off[f0]) continue;
    if (var->bits == 1 && var->nvalues == 2) {
      p->succ.bit_var[var->word * 64 + var->shift] = v;
      if (p->succ.anchor_off[f0 + 1] > p->succ.anchor_off[f0])
        p->succ.anchor_false[var->word] |= (goap_word)1 << var->shift;
      if (p->succ.anchor_off[f0 + 2] > p->succ.anchor_off[f0 + 1])
        p->succ.anchor_true[var->word] |= (goap_word)1 << var->shift;
    } else {
      p->succ.enum_vars[p->succ.nenum_vars++] = v;
    }
  }
  /* every active index is listed once: under its anchor fact or as unanchored */
  GOAP_ASSERT(p->succ.anchor_off[nf] + (uint32_t)p->succ.nunanchored == (uint32_t)p->nactive);
  p->succ.serial = p->goal_serial;
}
