/*
 * domain.c -- compiling a domain (packing, masks), domain queries, and state operations.
 *
 * Invariants:
 *  - The domain owns deep copies of every name, condition and effect; it never changes after
 *    goap__domain_compile returns, so every function here is safe to call from many threads.
 *  - Per action, the equality preconditions are merged into at most one goap__wmask per word,
 *    sorted by word; the same for SET effects. A precondition list that contradicts itself
 *    (x == 1 and x == 2, an empty interval) marks the action `never`.
 *  - State words beyond the last field's bits are always zero, so states compare and hash as
 *    plain words.
 */
#include <stdlib.h>
#include <string.h>

#include "core_internal.h"

#define NZ(n) ((n) ? (n) : 1)

/* ---- conditions as intervals --------------------------------------------------------------- */

int goap__cond_interval(const goap_domain *d, const goap_cond *c, uint64_t *a, uint64_t *b,
                        uint64_t *ne, uint32_t *has_ne) {
  const goap__var *v = &d->vars[c->var];
  int64_t range = (int64_t)v->range;
  int64_t x = (int64_t)c->value - (int64_t)v->lo; /* the value, encoded */
  int64_t lo = 0, hi = range;
  *has_ne = 0;
  *ne = 0;
  switch (c->op) {
    case GOAP_EQ: lo = hi = x; break;
    case GOAP_NE:
      if (x < 0 || x > range) break; /* always true */
      if (range == 0) return 0;
      if (x == 0) lo = 1;
      else if (x == range) hi = range - 1;
      else {
        *has_ne = 1;
        *ne = (uint64_t)x;
      }
      break;
    case GOAP_LT: hi = x - 1; break;
    case GOAP_LE: hi = x; break;
    case GOAP_GT: lo = x + 1; break;
    case GOAP_GE: lo = x; break;
  }
  if (lo < 0) lo = 0;
  if (hi > range) hi = range;
  if (lo > hi) return 0;
  *a = (uint64_t)lo;
  *b = (uint64_t)hi;
  return 1;
}

/* ---- compile ------------------------------------------------------------------------------- */

typedef struct compiler {
  const goap_allocator *alloc;
  goap_domain *d;
  size_t cap_mask_pool, cap_test_pool, cap_add_pool;
} compiler;

/* Adds (word, mask, value) to the wmask run that starts at `start`; returns 0 on a
 * contradiction (same bits, other values), -1 when out of memory. */
static int add_wmask(compiler *c, uint32_t start, uint32_t word, uint64_t mask, uint64_t value) {
  goap_domain *d = c->d;
  for (uint32_t i = start; i < d->nmask_pool; ++i) {
    if (d->mask_pool[i].word == word) {
      uint64_t overlap = d->mask_pool[i].mask & mask;
      if ((d->mask_pool[i].value & overlap) != (value & overlap)) return 0;
      d->mask_pool[i].mask |= mask;
      d->mask_pool[i].value |= value;
      return 1;
    }
  }
  if (!goap__grow(c->alloc, (void **)&d->mask_pool, &c->cap_mask_pool, d->nmask_pool + 1,
                  sizeof *d->mask_pool))
    return -1;
  /* keep the run sorted by word */
  uint32_t pos = d->nmask_pool;
  while (pos > start && d->mask_pool[pos - 1].word > word) {
    d->mask_pool[pos] = d->mask_pool[pos - 1];
    --pos;
  }
  d->mask_pool[pos].word = word;
  d->mask_pool[pos].mask = mask;
  d->mask_pool[pos].value = value;
  ++d->nmask_pool;
  return 1;
}

static int add_ftest(compiler *c, const goap__var *v, int32_t var, uint64_t a, uint64_t b,
                     uint64_t ne, uint32_t has_ne) {
  goap_domain *d = c->d;
  if (!goap__grow(c->alloc, (void **)&d->test_pool, &c->cap_test_pool, d->ntest_pool + 1,
                  sizeof *d->test_pool))
    return 0;
  goap__ftest *t = &d->test_pool[d->ntest_pool++];
  t->word = v->word;
  t->shift = v->shift;
  t->fmask = v->fmask;
  t->a = a;
  t->b = b;
  t->ne = ne;
  t->has_ne = has_ne;
  t->var = var;
  return 1;
}

static goap_status compile_action(compiler *c, goap__action *x) {
  goap_domain *d = c->d;
  x->pre_eq = d->nmask_pool;
  for (int i = 0; i < x->npre; ++i) {
    const goap_cond *cd = &x->pre[i];
    const goap__var *v = &d->vars[cd->var];
    uint64_t a, b, ne;
    uint32_t has_ne;
    if (!goap__cond_interval(d, cd, &a, &b, &ne, &has_ne)) {
      x->never = 1;
      continue;
    }
    if (a == b && !has_ne) {
      int r = add_wmask(c, x->pre_eq, v->word, v->fmask << v->shift, a << v->shift);
      if (r < 0) return GOAP_OUT_OF_MEMORY;
      if (r == 0) x->never = 1;
    } else if (!(a == 0 && b == v->range && !has_ne)) {
      /* interval tests are collected below, after the equality run is complete */
    }
  }
  x->npre_eq = d->nmask_pool - x->pre_eq;
  x->pre_ft = d->ntest_pool;
  for (int i = 0; i < x->npre; ++i) {
    const goap_cond *cd = &x->pre[i];
    const goap__var *v = &d->vars[cd->var];
    uint64_t a, b, ne;
    uint32_t has_ne;
    if (!goap__cond_interval(d, cd, &a, &b, &ne, &has_ne)) continue;
    if (a == b && !has_ne) continue;
    if (a == 0 && b == v->range && !has_ne) continue; /* always true */
    if (!add_ftest(c, v, cd->var, a, b, ne, has_ne)) return GOAP_OUT_OF_MEMORY;
  }
  /* ADD effects: the value before must keep the result within [0, range] */
  for (int i = 0; i < x->neff; ++i) {
    const goap_effect *e = &x->eff[i];
    if (e->op != GOAP_ADD) continue;
    const goap__var *v = &d->vars[e->var];
    int64_t delta = e->value;
    int64_t lo = delta < 0 ? -delta : 0;
    int64_t hi = (int64_t)v->range - (delta > 0 ? delta : 0);
    if (lo > hi) {
      x->never = 1;
      continue;
    }
    if (lo == 0 && hi == (int64_t)v->range) continue;
    if (!add_ftest(c, v, e->var, (uint64_t)lo, (uint64_t)hi, 0, 0)) return GOAP_OUT_OF_MEMORY;
  }
  x->npre_ft = d->ntest_pool - x->pre_ft;
  /* SET effects */
  x->eff_set = d->nmask_pool;
  for (int i = 0; i < x->neff; ++i) {
    const goap_effect *e = &x->eff[i];
    if (e->op != GOAP_SET) continue;
    const goap__var *v = &d->vars[e->var];
    uint64_t enc = (uint64_t)((int64_t)e->value - (int64_t)v->lo);
    if (add_wmask(c, x->eff_set, v->word, v->fmask << v->shift, enc << v->shift) < 0)
      return GOAP_OUT_OF_MEMORY;
  }
  x->neff_set = d->nmask_pool - x->eff_set;
  /* ADD effects */
  x->eff_add = d->nadd_pool;
  for (int i = 0; i < x->neff; ++i) {
    const goap_effect *e = &x->eff[i];
    if (e->op != GOAP_ADD && e->op != GOAP_ADD_CLAMP) continue;
    const goap__var *v = &d->vars[e->var];
    if (!goap__grow(c->alloc, (void **)&d->add_pool, &c->cap_add_pool, d->nadd_pool + 1,
                    sizeof *d->add_pool))
      return GOAP_OUT_OF_MEMORY;
    goap__fadd *f = &d->add_pool[d->nadd_pool++];
    f->word = v->word;
    f->shift = v->shift;
    f->fmask = v->fmask;
    f->delta = e->value;
    f->var = e->var;
    f->top = (uint32_t)v->range;
  }
  x->neff_add = d->nadd_pool - x->eff_add;
  return GOAP_OK;
}

static int pack_cmp_bits(const goap__var *vars, int i, int j) {
  if (vars[i].bits != vars[j].bits) return vars[i].bits > vars[j].bits ? -1 : 1;
  return i < j ? -1 : (i > j);
}

static goap_status pack_vars(const goap_allocator *a, goap_domain *d) {
  int n = d->nvars;
  if (n == 0) {
    d->words = 1;
    return GOAP_OK;
  }
  int *order = (int *)goap__alloc(a, (size_t)n * sizeof *order);
  uint32_t *used = (uint32_t *)goap__alloc(a, (size_t)n * sizeof *used);
  if (!order || !used) {
    goap__free(a, order, (size_t)n * sizeof *order);
    goap__free(a, used, (size_t)n * sizeof *used);
    return GOAP_OUT_OF_MEMORY;
  }
  for (int i = 0; i < n; ++i) order[i] = i;
  /* insertion sort is fine for a one-off; but keep it O(n log n) for large domains */
  for (int w = 1; w < n; w *= 2) {
    /* bottom-up merge sort using `used` as scratch (reinterpreted) */
    int *tmp = (int *)used;
    for (int lo = 0; lo < n; lo += 2 * w) {
      int mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
      int i = lo, j = mid, k = lo;
      while (i < mid && j < hi)
        tmp[k++] = pack_cmp_bits(d->vars, order[i], order[j]) <= 0 ? order[i++] : order[j++];
      while (i < mid) tmp[k++] = order[i++];
      while (j < hi) tmp[k++] = order[j++];
    }
    memcpy(order, tmp, (size_t)n * sizeof *order);
  }
  uint32_t nwords = 0;
  for (int k = 0; k < n; ++k) {
    goap__var *v = &d->vars[order[k]];
    uint32_t w = 0;
    /* first fit; widths are non-increasing, so only the last word can have room when all
     * earlier ones were filled by wider fields -- but smaller fields may still fit earlier */
    while (w < nwords && used[w] + v->bits > 64) ++w;
    if (w == nwords) used[nwords++] = 0;
    v->word = w;
    v->shift = used[w];
    used[w] += v->bits;
  }
  d->words = nwords;
  goap__free(a, order, (size_t)n * sizeof *order);
  goap__free(a, used, (size_t)n * sizeof *used);
  return GOAP_OK;
}

/* Shrinks a pool of *cap elements to exactly n (freeing it when n is 0); *cap follows. */
static goap_status shrink_pool(const goap_allocator *a, void **pool, size_t *cap, size_t n,
                               size_t elem) {
  if (*cap == n) return GOAP_OK;
  if (n == 0) {
    goap__free(a, *pool, *cap * elem);
    *pool = NULL;
    *cap = 0;
    return GOAP_OK;
  }
  void *p = goap__realloc(a, *pool, *cap * elem, n * elem);
  if (!p) return GOAP_OUT_OF_MEMORY;
  *pool = p;
  *cap = n;
  return GOAP_OK;
}

static void free_domain_parts(goap_domain *d) {
  const goap_allocator *a = &d->alloc;
  for (int i = 0; i < d->nvars; ++i) {
    goap__var *v = &d->vars[i];
    goap__strfree(a, v->name);
    if (v->values) {
      for (int k = 0; k < v->nvalues; ++k) goap__strfree(a, v->values[k]);
      goap__free(a, v->values, (size_t)v->nvalues * sizeof *v->values);
    }
  }
  for (int i = 0; i < d->nactions; ++i) {
    goap__action *x = &d->actions[i];
    goap__strfree(a, x->name);
    goap__free(a, x->pre, (size_t)x->npre * sizeof *x->pre);
    goap__free(a, x->eff, (size_t)x->neff * sizeof *x->eff);
  }
  for (int i = 0; i < d->ngoals; ++i) {
    goap__goal *g = &d->goals[i];
    goap__strfree(a, g->name);
    goap__free(a, g->want, (size_t)g->nwant * sizeof *g->want);
  }
}

void goap_domain_destroy(goap_domain *d) {
  if (!d) return;
  goap_allocator a = d->alloc;
  free_domain_parts(d);
  goap__free(&a, d->vars, (size_t)NZ(d->nvars) * sizeof *d->vars);
  goap__free(&a, d->actions, (size_t)NZ(d->nactions) * sizeof *d->actions);
  goap__free(&a, d->goals, (size_t)NZ(d->ngoals) * sizeof *d->goals);
  goap__free(&a, d->defaults, d->words * sizeof *d->defaults);
  goap__free(&a, d->used, d->words * sizeof *d->used);
  goap__free(&a, d->full_hi, d->words * sizeof *d->full_hi);
  goap__free(&a, d->wvars_off, (d->words + 1) * sizeof *d->wvars_off);
  goap__free(&a, d->wvars, (size_t)NZ(d->nvars) * sizeof *d->wvars);
  goap__free(&a, d->odd_vars, (size_t)NZ(d->nodd_vars) * sizeof *d->odd_vars);
  goap__free(&a, d->mask_pool, d->nmask_pool * sizeof *d->mask_pool);
  goap__free(&a, d->test_pool, d->ntest_pool * sizeof *d->test_pool);
  goap__free(&a, d->add_pool, d->nadd_pool * sizeof *d->add_pool);
  goap__free(&a, d->writers_off, (size_t)(d->nvars + 1) * sizeof *d->writers_off);
  goap__free(&a, d->writers, d->nwriters * sizeof *d->writers);
  goap__names_free(&a, &d->var_names);
  goap__names_free(&a, &d->action_names);
  goap__names_free(&a, &d->goal_names);
  goap__strfree(&a, d->name);
  goap__free(&a, d, sizeof *d);
}

static char *dup_or_fail(const goap_allocator *a, const char *s, int *ok) {
  char *r = goap__strdup(a, s);
  if (!r) *ok = 0;
  return r;
}

static void *dup_mem(const goap_allocator *a, const void *p, size_t n, int *ok) {
  if (!n) return NULL;
  void *r = goap__alloc(a, n);
  if (!r) {
    *ok = 0;
    return NULL;
  }
  memcpy(r, p, n);
  return r;
}

goap_status goap__domain_compile(const goap_allocator *a, const char *name,
                                 const goap__var *vars, int nvars, const goap__action *actions,
                                 int nactions, const goap__goal *goals, int ngoals,
                                 goap_domain **out);

goap_status goap__domain_compile(const goap_allocator *a, const char *name,
                                 const goap__var *vars, int nvars, const goap__action *actions,
                                 int nactions, const goap__goal *goals, int ngoals,
                                 goap_domain **out) {
  goap_domain *d = (goap_domain *)goap__alloc(a, sizeof *d);
  if (!d) return GOAP_OUT_OF_MEMORY;
  memset(d, 0, sizeof *d);
  d->alloc = *a;
  int ok = 1;
  d->name = dup_or_fail(a, name, &ok);
  /* deep copies; counts are set only once the arrays exist so destroy stays consistent */
  goap__var *dv = (goap__var *)goap__alloc(a, (size_t)NZ(nvars) * sizeof *dv);
  goap__action *da = (goap__action *)goap__alloc(a, (size_t)NZ(nactions) * sizeof *da);
  goap__goal *dg = (goap__goal *)goap__alloc(a, (size_t)NZ(ngoals) * sizeof *dg);
  if (!dv || !da || !dg || !ok) {
    goap__free(a, dv, (size_t)NZ(nvars) * sizeof *dv);
    goap__free(a, da, (size_t)NZ(nactions) * sizeof *da);
    goap__free(a, dg, (size_t)NZ(ngoals) * sizeof *dg);
    goap__strfree(a, d->name);
    goap__free(a, d, sizeof *d);
    return GOAP_OUT_OF_MEMORY;
  }
  memset(dv, 0, (size_t)NZ(nvars) * sizeof *dv);
  memset(da, 0, (size_t)NZ(nactions) * sizeof *da);
  memset(dg, 0, (size_t)NZ(ngoals) * sizeof *dg);
  d->vars = dv;
  d->actions = da;
  d->goals = dg;
  d->nvars = nvars;
  d->nactions = nactions;
  d->ngoals = ngoals;
  /* the arrays were allocated with at least one element; record sizes consistently */
  for (int i = 0; i < nvars && ok; ++i) {
    dv[i] = vars[i];
    dv[i].name = NULL;
    dv[i].values = NULL;
    dv[i].name = dup_or_fail(a, vars[i].name, &ok);
    if (vars[i].values) {
      dv[i].values = (char **)goap__alloc(a, (size_t)vars[i].nvalues * sizeof(char *));
      if (!dv[i].values) {
        ok = 0;
        break;
      }
      memset(dv[i].values, 0, (size_t)vars[i].nvalues * sizeof(char *));
      for (int k = 0; k < vars[i].nvalues && ok; ++k)
        dv[i].values[k] = dup_or_fail(a, vars[i].values[k], &ok);
    }
  }
  for (int i = 0; i < nactions && ok; ++i) {
    da[i] = actions[i];
    da[i].name = dup_or_fail(a, actions[i].name, &ok);
    da[i].pre = (goap_cond *)dup_mem(a, actions[i].pre, (size_t)actions[i].npre * sizeof(goap_cond), &ok);
    da[i].eff = (goap_effect *)dup_mem(a, actions[i].eff, (size_t)actions[i].neff * sizeof(goap_effect), &ok);
    if (!ok) {
      /* keep counts consistent with what was allocated for the free below */
      if (!da[i].pre) da[i].npre = 0;
      if (!da[i].eff) da[i].neff = 0;
    }
  }
  for (int i = 0; i < ngoals && ok; ++i) {
    dg[i] = goals[i];
    dg[i].name = dup_or_fail(a, goals[i].name, &ok);
    dg[i].want = (goap_cond *)dup_mem(a, goals[i].want, (size_t)goals[i].nwant * sizeof(goap_cond), &ok);
    if (!dg[i].want) dg[i].nwant = 0;
  }
  goap_status st = ok ? GOAP_OK : GOAP_OUT_OF_MEMORY;
  if (st == GOAP_OK) st = pack_vars(a, d);
  if (st == GOAP_OK) {
    /* variables per word, and the all-unconstrained high words of backward search */
    d->wvars_off = (uint32_t *)goap__alloc(a, (d->words + 1) * sizeof *d->wvars_off);
    d->wvars = (int32_t *)goap__alloc(a, (size_t)NZ(nvars) * sizeof *d->wvars);
    d->full_hi = (goap_word *)goap__alloc(a, d->words * sizeof *d->full_hi);
    if (!d->wvars_off || !d->wvars || !d->full_hi) {
      st = GOAP_OUT_OF_MEMORY;
    } else {
      memset(d->wvars_off, 0, (d->words + 1) * sizeof *d->wvars_off);
      memset(d->full_hi, 0, d->words * sizeof *d->full_hi);
      for (int i = 0; i < nvars; ++i) {
        d->wvars_off[dv[i].word + 1]++;
        goap__field_put(d->full_hi, dv[i].word, dv[i].shift, dv[i].fmask, dv[i].range);
      }
      for (uint32_t w = 0; w < d->words; ++w) d->wvars_off[w + 1] += d->wvars_off[w];
      for (int i = 0; i < nvars; ++i) d->wvars[d->wvars_off[dv[i].word]++] = i;
      for (uint32_t w = d->words; w > 0; --w) d->wvars_off[w] = d->wvars_off[w - 1];
      d->wvars_off[0] = 0;
    }
  }
  if (st == GOAP_OK) {
    int nodd = 0;
    for (int i = 0; i < nvars; ++i) nodd += dv[i].range != dv[i].fmask;
    d->odd_vars = (int32_t *)goap__alloc(a, (size_t)NZ(nodd) * sizeof *d->odd_vars);
    d->used = (goap_word *)goap__alloc(a, d->words * sizeof *d->used);
    if (d->odd_vars && d->used) {
      memset(d->used, 0, d->words * sizeof *d->used);
      for (int i = 0; i < nvars; ++i) {
        d->used[dv[i].word] |= dv[i].fmask << dv[i].shift;
        if (dv[i].range != dv[i].fmask) d->odd_vars[d->nodd_vars++] = i;
      }
    } else {
      goap__free(a, d->odd_vars, (size_t)NZ(nodd) * sizeof *d->odd_vars);
      goap__free(a, d->used, d->words * sizeof *d->used);
      d->odd_vars = NULL;
      d->used = NULL;
    }
    d->defaults = (goap_word *)goap__alloc(a, d->words * sizeof *d->defaults);
    if (!d->defaults || !d->odd_vars || !d->used) st = GOAP_OUT_OF_MEMORY;
    else {
      memset(d->defaults, 0, d->words * sizeof *d->defaults);
      for (int i = 0; i < nvars; ++i) {
        const goap__var *v = &dv[i];
        goap__field_put(d->defaults, v->word, v->shift, v->fmask,
                        (uint64_t)((int64_t)v->def - (int64_t)v->lo));
      }
    }
  }
  if (st == GOAP_OK) {
    compiler c = {a, d, 0, 0, 0};
    for (int i = 0; i < nactions && st == GOAP_OK; ++i) st = compile_action(&c, &da[i]);
    /* shrink the pools to their exact sizes so destroy can free them by count */
    if (st == GOAP_OK)
      st = shrink_pool(a, (void **)&d->mask_pool, &c.cap_mask_pool, d->nmask_pool,
                       sizeof *d->mask_pool);
    if (st == GOAP_OK)
      st = shrink_pool(a, (void **)&d->test_pool, &c.cap_test_pool, d->ntest_pool,
                       sizeof *d->test_pool);
    if (st == GOAP_OK)
      st = shrink_pool(a, (void **)&d->add_pool, &c.cap_add_pool, d->nadd_pool,
                       sizeof *d->add_pool);
    if (st != GOAP_OK) {
      /* pools hold c.c* elements; free them here with their real capacity */
      goap__free(a, d->mask_pool, c.cap_mask_pool * sizeof *d->mask_pool);
      goap__free(a, d->test_pool, c.cap_test_pool * sizeof *d->test_pool);
      goap__free(a, d->add_pool, c.cap_add_pool * sizeof *d->add_pool);
      d->mask_pool = NULL;
      d->test_pool = NULL;
      d->add_pool = NULL;
      d->nmask_pool = d->ntest_pool = d->nadd_pool = 0;
    }
  }
  if (st == GOAP_OK) {
    /* var -> writers */
    d->writers_off = (uint32_t *)goap__alloc(a, (size_t)(nvars + 1) * sizeof *d->writers_off);
    size_t total = 0;
    for (int i = 0; i < nactions; ++i) total += (size_t)da[i].neff;
    d->nwriters = total;
    d->writers = total ? (int32_t *)goap__alloc(a, total * sizeof *d->writers) : NULL;
    if (!d->writers_off || (total && !d->writers)) st = GOAP_OUT_OF_MEMORY;
    else {
      memset(d->writers_off, 0, (size_t)(nvars + 1) * sizeof *d->writers_off);
      for (int i = 0; i < nactions; ++i)
        for (int k = 0; k < da[i].neff; ++k) d->writers_off[da[i].eff[k].var + 1]++;
      for (int v = 0; v < nvars; ++v) d->writers_off[v + 1] += d->writers_off[v];
      uint32_t *fill = d->writers_off; /* reuse: fill then shift back */
      for (int i = 0; i < nactions; ++i)
        for (int k = 0; k < da[i].neff; ++k) d->writers[fill[da[i].eff[k].var]++] = i;
      for (int v = nvars; v > 0; --v) fill[v] = fill[v - 1];
      fill[0] = 0;
    }
    for (int i = 0; i < nactions; ++i) {
      if (da[i].neff > d->max_eff) d->max_eff = da[i].neff;
      if (da[i].check || da[i].dyn_cost) d->has_callbacks = 1;
      if (da[i].scost)
        d->has_scost |= (da[i].scost_flags & GOAP_STATE_COST_PURE) ? 3 : 1;
    }
  }
  /* each table sized once for all its names (no rehash while they go in) */
  if (st == GOAP_OK && (!goap__names_reserve(a, &d->var_names, (size_t)nvars) ||
                        !goap__names_reserve(a, &d->action_names, (size_t)nactions) ||
                        !goap__names_reserve(a, &d->goal_names, (size_t)ngoals)))
    st = GOAP_OUT_OF_MEMORY;
  for (int i = 0; i < nvars && st == GOAP_OK; ++i)
    if (!goap__names_putz(a, &d->var_names, 0, dv[i].name, i)) st = GOAP_OUT_OF_MEMORY;
  for (int i = 0; i < nactions && st == GOAP_OK; ++i)
    if (!goap__names_putz(a, &d->action_names, 0, da[i].name, i)) st = GOAP_OUT_OF_MEMORY;
  for (int i = 0; i < ngoals && st == GOAP_OK; ++i)
    if (!goap__names_putz(a, &d->goal_names, 0, dg[i].name, i)) st = GOAP_OUT_OF_MEMORY;
  if (st != GOAP_OK) {
    goap_domain_destroy(d);
    return st;
  }
  *out = d;
  return GOAP_OK;
}

/* ---- queries ------------------------------------------------------------------------------- */

const char *goap_domain_name(const goap_domain *d) { return d ? d->name : NULL; }
size_t goap_domain_state_words(const goap_domain *d) { return d ? d->words : 0; }
int goap_domain_var_count(const goap_domain *d) { return d ? d->nvars : 0; }
int goap_domain_find_var(const goap_domain *d, const char *name) {
  return d ? (int)goap__names_findz(&d->var_names, 0, name) : -1;
}

goap_status goap_domain_var_info(const goap_domain *d, int var, goap_var_info *out) {
  if (!d || !out || var < 0 || var >= d->nvars) return GOAP_INVALID_ARGUMENT;
  const goap__var *v = &d->vars[var];
  out->name = v->name;
  out->type = v->type;
  out->lo = v->lo;
  out->hi = v->hi;
  out->value_count = v->type == GOAP_INT ? 0 : v->nvalues;
  out->default_value = v->def;
  out->flags = v->flags;
  out->word = (int)v->word;
  out->shift = (int)v->shift;
  out->bits = (int)v->bits;
  return GOAP_OK;
}

const char *goap_domain_value_name(const goap_domain *d, int var, int32_t value) {
  if (!d || var < 0 || var >= d->nvars) return NULL;
  const goap__var *v = &d->vars[var];
  if (v->type == GOAP_BOOL) return value == 0 ? "false" : value == 1 ? "true" : NULL;
  if (v->type == GOAP_ENUM && value >= 0 && value < v->nvalues) return v->values[value];
  return NULL;
}

int32_t goap_domain_find_value(const goap_domain *d, int var, const char *name) {
  if (!d || !name || var < 0 || var >= d->nvars) return -1;
  const goap__var *v = &d->vars[var];
  if (v->type == GOAP_BOOL) {
    if (strcmp(name, "false") == 0) return 0;
    if (strcmp(name, "true") == 0) return 1;
    return -1;
  }
  if (v->type == GOAP_ENUM)
    for (int i = 0; i < v->nvalues; ++i)
      if (strcmp(v->values[i], name) == 0) return i;
  return -1;
}

int goap_domain_action_count(const goap_domain *d) { return d ? d->nactions : 0; }
int goap_domain_find_action(const goap_domain *d, const char *name) {
  return d ? (int)goap__names_findz(&d->action_names, 0, name) : -1;
}
const char *goap_domain_action_name(const goap_domain *d, int i) {
  return (d && i >= 0 && i < d->nactions) ? d->actions[i].name : NULL;
}
double goap_domain_action_cost(const goap_domain *d, int i) {
  return (d && i >= 0 && i < d->nactions) ? d->actions[i].cost : -1.0;
}
const goap_cond *goap_domain_action_pre(const goap_domain *d, int i, int *count) {
  if (!d || i < 0 || i >= d->nactions) {
    if (count) *count = 0;
    return NULL;
  }
  if (count) *count = d->actions[i].npre;
  return d->actions[i].pre;
}
int goap_domain_action_callbacks(const goap_domain *d, int i, goap_check_fn *check,
                                 goap_cost_fn *dynamic_cost, void **user) {
  const goap__action *a = d && i >= 0 && i < d->nactions ? &d->actions[i] : NULL;
  if (check) *check = a ? a->check : NULL;
  if (dynamic_cost) *dynamic_cost = a ? a->dyn_cost : NULL;
  if (user) *user = a ? a->user : NULL;
  return a && (a->check || a->dyn_cost);
}
int goap_domain_action_state_cost(const goap_domain *d, int i, goap_state_cost_fn *fn,
                                  void **user, double *min_cost, unsigned *flags) {
  const goap__action *a = d && i >= 0 && i < d->nactions ? &d->actions[i] : NULL;
  if (fn) *fn = a ? a->scost : NULL;
  if (user) *user = a && a->scost ? a->scost_user : NULL;
  if (min_cost) *min_cost = a && a->scost ? a->min_cost : 0.0;
  if (flags) *flags = a && a->scost ? a->scost_flags : 0u;
  return a && a->scost;
}

const goap_effect *goap_domain_action_eff(const goap_domain *d, int i, int *count) {
  if (!d || i < 0 || i >= d->nactions) {
    if (count) *count = 0;
    return NULL;
  }
  if (count) *count = d->actions[i].neff;
  return d->actions[i].eff;
}

int goap_domain_goal_count(const goap_domain *d) { return d ? d->ngoals : 0; }
int goap_domain_find_goal(const goap_domain *d, const char *name) {
  return d ? (int)goap__names_findz(&d->goal_names, 0, name) : -1;
}
const char *goap_domain_goal_name(const goap_domain *d, int g) {
  return (d && g >= 0 && g < d->ngoals) ? d->goals[g].name : NULL;
}
double goap_domain_goal_priority(const goap_domain *d, int g) {
  return (d && g >= 0 && g < d->ngoals) ? d->goals[g].priority : 0.0;
}
const goap_cond *goap_domain_goal_want(const goap_domain *d, int g, int *count) {
  if (!d || g < 0 || g >= d->ngoals) {
    if (count) *count = 0;
    return NULL;
  }
  if (count) *count = d->goals[g].nwant;
  return d->goals[g].want;
}

/* ---- states -------------------------------------------------------------------------------- */

void goap_state_init(const goap_domain *d, goap_word *s) {
  if (!d || !s) return;
  memcpy(s, d->defaults, d->words * sizeof *s);
}

int32_t goap_state_get(const goap_domain *d, const goap_word *s, int var) {
  if (!d || !s || var < 0 || var >= d->nvars) return INT32_MIN;
  const goap__var *v = &d->vars[var];
  uint64_t enc = goap__field_get(s, v->word, v->shift, v->fmask);
  return (int32_t)((int64_t)v->lo + (int64_t)enc);
}

goap_status goap_state_set(const goap_domain *d, goap_word *s, int var, int32_t value) {
  if (!d || !s || var < 0 || var >= d->nvars) return GOAP_INVALID_ARGUMENT;
  const goap__var *v = &d->vars[var];
  if (value < v->lo || value > v->hi) return GOAP_OUT_OF_RANGE;
  goap__field_put(s, v->word, v->shift, v->fmask, (uint64_t)((int64_t)value - (int64_t)v->lo));
  return GOAP_OK;
}

static int effect_result(const goap__var *v, const goap_effect *e, int64_t cur, int64_t *out) {
  int64_t r = e->op == GOAP_SET ? (int64_t)e->value : cur + (int64_t)e->value;
  if (e->op != GOAP_SET && e->op != GOAP_ADD && e->op != GOAP_ADD_CLAMP) return 0;
  if (e->op != GOAP_SET && v->type != GOAP_INT) return 0;
  if (e->op == GOAP_ADD_CLAMP) r = r < v->lo ? v->lo : r > v->hi ? v->hi : r;
  if (r < v->lo || r > v->hi) return 0;
  *out = r;
  return 1;
}

goap_status goap_state_assign(const goap_domain *d, goap_word *s, const goap_effect *eff,
                              int count) {
  if (!d || !s || count < 0 || (count > 0 && !eff)) return GOAP_INVALID_ARGUMENT;
  for (int i = 0; i < count; ++i)
    if (eff[i].var < 0 || eff[i].var >= d->nvars) return GOAP_INVALID_ARGUMENT;
  /* validate every prefix first, so a failure leaves the state unchanged */
  for (int i = 0; i < count; ++i) {
    const goap__var *v = &d->vars[eff[i].var];
    int64_t cur = goap_state_get(d, s, eff[i].var);
    for (int j = 0; j <= i; ++j) {
      if (eff[j].var != eff[i].var) continue;
      if (!effect_result(v, &eff[j], cur, &cur))
        return (eff[j].op != GOAP_SET && v->type != GOAP_INT) ? GOAP_TYPE_MISMATCH
                                                               : GOAP_OUT_OF_RANGE;
    }
  }
  for (int i = 0; i < count; ++i) {
    const goap__var *v = &d->vars[eff[i].var];
    int64_t r = 0;
    effect_result(v, &eff[i], goap_state_get(d, s, eff[i].var), &r);
    goap_state_set(d, s, eff[i].var, (int32_t)r);
  }
  return GOAP_OK;
}

int goap_state_satisfies(const goap_domain *d, const goap_word *s, const goap_cond *c, int n) {
  if (!d || !s || n < 0 || (n > 0 && !c)) return 0;
  char msg[8];
  for (int i = 0; i < n; ++i) {
    if (goap__check_cond(d->vars, d->nvars, &c[i], msg, sizeof msg) != GOAP_OK) {
      /* out-of-range EQ can simply never hold; NE always holds; other errors: no */
      if (c[i].var < 0 || c[i].var >= d->nvars || (unsigned)c[i].op > (unsigned)GOAP_GE)
        return 0;
    }
    const goap__var *v = &d->vars[c[i].var];
    uint64_t a, b, ne;
    uint32_t has_ne;
    if (!goap__cond_interval(d, &c[i], &a, &b, &ne, &has_ne)) return 0;
    uint64_t x = goap__field_get(s, v->word, v->shift, v->fmask);
    if (x < a || x > b || (has_ne && x == ne)) return 0;
  }
  return 1;
}

int goap_state_equal(const goap_domain *d, const goap_word *a, const goap_word *b) {
  if (!d || !a || !b) return 0;
  return memcmp(a, b, d->words * sizeof *a) == 0;
}

uint64_t goap_state_hash(const goap_domain *d, const goap_word *s) {
  if (!d || !s) return 0;
  return goap__hash_words(s, d->words);
}

int goap_action_applicable(const goap_domain *d, const goap_word *s, int action) {
  if (!d || !s || action < 0 || action >= d->nactions) return 0;
  const goap__action *a = &d->actions[action];
  return !a->never && goap__action_ok(d, a, s);
}

goap_status goap_action_apply(const goap_domain *d, goap_word *s, int action) {
  if (!d || !s || action < 0 || action >= d->nactions) return GOAP_INVALID_ARGUMENT;
  if (!goap_action_applicable(d, s, action)) return GOAP_INVALID_OPERATION;
  goap__action_do(d, &d->actions[action], s);
  return GOAP_OK;
}
