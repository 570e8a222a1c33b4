/*
 * hddl_join.c -- the HDDL planner's join: the bindings of a method's parameters (or the
 * :htn's) that extend the ones its :task gives and pass its join literals (hddl_plan.h: x0,
 * xn, xb; hddl_prep.c builds them), for the depth-first search (hddl_plan.c) and the
 * best-first one (hddl_bfs.c).
 *
 * Invariants:
 *  - The order of the bindings is one total order, whichever way they are made: by the atoms
 *    the method's own positive literals match (interned ids, in literal order), then by the
 *    objects (ids, in parameter order) of the parameters none of those literals binds. It is
 *    the order of a nested enumeration of the own literals as written (each over its
 *    candidate atoms in interning order) and then of those parameters over their types.
 *  - The eager join (join) makes every binding at once into h->pool: its levels match first
 *    the literal with the fewest unbound parameters (computed once per method, jord), lifted
 *    literals may bind parameters from atoms, and the bindings are sorted back into the order
 *    above when either happened (jkey holds the own literals' atoms per binding).
 *  - The lazy join makes them one at a time, in the order above by construction: its levels
 *    are the own positive literals as written, then the other unbound parameters over their
 *    types; every literal (lifted ones, negative ones, '=') is checked as soon as its
 *    arguments are bound (a positive one by a lookup), which only drops bindings that would
 *    fail. Its plan (levels and checks) is made once per method (the :task always binds the
 *    same parameters) and kept in hj->plan.
 *  - The depth-first search (goap__hp_join_dfs) first runs the eager join with a budget of
 *    HJ_EAGER_WORK candidates; beyond it (and never with h->eager) the frame gets a lazy state
 *    in hj->st, a stack in frame order (frames are opened and closed last in, first out), and
 *    the state is resumed in place (no copy) whenever the frame wants another binding. One
 *    binding is kept ahead in h->pool, so a frame whose last binding has been taken is popped
 *    exactly when the eager join would have let it be. Either way the search tries the same
 *    bindings in the same order: the same plans, steps and rounds.
 *  - A frame's state resumes in the state the frame was opened in (advance undoes to it
 *    first); atoms interned since are false there and appended to the candidate lists, so
 *    they are skipped.
 *  - Budgets: every level entered and every candidate atom looked at is one unit of h->work
 *    (max_work: GOAP_NODE_LIMIT); the time limit is checked every 65,536 units; pending
 *    bindings of the eager join are capped at HP_MAX_POOL (GOAP_TOO_LARGE).
 *  - Every table grows through the task's allocator; hj is released by goap__hp_join_free.
 */
#include <stdlib.h>
#include <string.h>

#include "hddl_plan.h"

#define HJ_EAGER_WORK 4096u /* candidates the eager join may look at in the depth-first search */

struct goap__hj {
  int32_t *plan0;     /* per method + 1 (0: the :htn): its lazy plan's offset in plan, or -1 */
  size_t nplan0;
  goap__px_ivec plan; /* a plan: nlev, the levels' offsets [nlev], nchk0, chk0 [nchk0], then per
                         level: code (>= 0 a literal, < 0 the parameter -(code + 1)), nchk,
                         the literals it checks [nchk] */
  goap__px_ivec st;   /* the lazy states of open frames, a stack: m, k (level to resume; -1:
                         exhausted), np, per level (pos, lsel, b0, nb), b [np], bstk [np] */
  goap__px_ivec cat;  /* the eager join's scratch: per literal, the level after which it is
                         checked (-1: before the first; INT32_MAX: a level itself) */
  goap__px_ivec plev; /* ... and per parameter, the level that binds it (-1: b0) */
};

#define HJ_HEAD 3 /* ints before a state's levels */

static int hj_oom(hp *h) {
  h->st = GOAP_OUT_OF_MEMORY;
  return 0;
}

static int hj_over_time(hp *h) {
  if (h->max_ms > 0 && (double)(goap__now_ns() - h->t0) / 1e6 >= h->max_ms) {
    h->st = GOAP_TIME_LIMIT;
    return 1;
  }
  return 0;
}

static int hj_is_a(const goap__px_task_core *t, int32_t o, int32_t ty) {
  return t->is_a[(size_t)o * t->ntypes + (size_t)ty] != 0;
}

/* Unifies the arguments ea of a true atom with literal l (arity ar) under b: constants and
 * bound parameters must be equal, a free parameter is bound when ea's object has its type
 * (ptypes: the parameters' types in args) and its index pushed on stk. Returns how many it
 * bound (>= 0), or -1 on a mismatch with every binding it made undone. */
static int32_t hj_unify(const goap__px_task_core *t, const hp *h, const goap__px_lit *l, int ar,
                        int32_t ptypes, const int32_t *ea, int32_t *b, int32_t *stk) {
  int32_t nb = 0;
  for (int i = 0; i < ar; ++i) {
    int32_t a = h->av.v[l->args + i];
    int ok;
    if (a >= 0) {
      ok = ea[i] == a;
    } else if (b[-a - 1] >= 0) {
      ok = ea[i] == b[-a - 1];
    } else if (hj_is_a(t, ea[i], t->args.v[ptypes + (-a - 1)])) {
      b[-a - 1] = ea[i];
      stk[nb++] = -a - 1;
      ok = 1;
    } else {
      ok = 0;
    }
    if (!ok) {
      for (int32_t j = 0; j < nb; ++j) b[stk[j]] = -1;
      return -1;
    }
  }
  return nb;
}

/* Every literal l0 + i of [l0, l0 + n) with cat[i] == k (a check whose last parameter level
 * k binds) holds under b. */
static int checks_at(hp *h, int32_t l0, int32_t n, const int32_t *cat, int k, const int32_t *b) {
  int32_t g[PX_MAX_ARITY];
  for (int32_t i = 0; i < n; ++i) {
    if (cat[i] != k) continue;
    const goap__px_lit *l = &h->lits[l0 + i];
    goap__hp_ground(h, l, b, g);
    if (!goap__hp_lit_holds(h, l, g)) return 0;
  }
  return 1;
}

/* The shortest list that holds every atom of positive literal l (not ground) matching binding
 * b: the index list of one of its bound arguments, or all atoms of its predicate. *sel (when
 * not NULL) names it for hj_list: -1 the predicate's list, else its index in by_arg. */
static const goap__px_ivec *candidates(const hp *h, const goap__px_lit *l, const int32_t *b,
                                       int32_t *sel) {
  const goap__px_task_core *t = h->t;
  const goap__px_ivec *best = &h->by_pred[l->pred];
  const goap__px_ivec *ix = h->by_arg[l->pred];
  if (sel) *sel = -1;
  if (!ix) return best;
  for (int i = 0; i < t->preds[l->pred].arity; ++i) {
    int32_t a = h->av.v[l->args + i];
    int32_t v = a >= 0 ? a : b[-a - 1];
    if (v < 0) continue;
    size_t k = (size_t)i * t->nobjects + (size_t)v;
    if (ix[k].n < best->n) {
      best = &ix[k];
      if (sel) *sel = (int32_t)k;
    }
  }
  return best;
}

static const goap__px_ivec *hj_list(const hp *h, int32_t pred, int32_t sel) {
  return sel < 0 ? &h->by_pred[pred] : &h->by_arg[pred][sel];
}

/* Binding i of the join's output (np parameters at pool[at]) sorts before binding j: by the
 * atoms its nk own literals matched (jkey, nk per binding, in literal order: the order their
 * levels enumerate them in), then by the objects of the parameters free[] (ids; the order
 * the type lists enumerate them in). */
static int bind_before(const hp *h, size_t at, int np, int nk, const uint8_t *free, int32_t i,
                       int32_t j) {
  if (nk > 0) { /* no own literal: no key, and jkey may be unallocated (NULL) */
    const int32_t *ki = h->jkey.v + (size_t)i * (size_t)nk, *kj = h->jkey.v + (size_t)j * (size_t)nk;
    for (int q = 0; q < nk; ++q)
      if (ki[q] != kj[q]) return ki[q] < kj[q];
  }
  const int32_t *x = h->pool.v + at + (size_t)i * (size_t)np, *y = h->pool.v + at + (size_t)j * (size_t)np;
  for (int p = 0; p < np; ++p)
    if (free[p] && x[p] != y[p]) return x[p] < y[p];
  return 0;
}

/* Stable merge sort of the join's cnt bindings at pool[at] into enumeration order (above);
 * nothing to do when they are in order already. */
static int sort_bindings(hp *h, size_t at, size_t cnt, int np, int nk, const uint8_t *free) {
  size_t k = 1;
  while (k < cnt && !bind_before(h, at, np, nk, free, (int32_t)k, (int32_t)(k - 1))) ++k;
  if (k == cnt) return 1; /* already in order */
  goap__px_ivec *ix = &h->jidx, *tmp = &h->jtmp;
  ix->n = tmp->n = 0;
  for (size_t i = 0; i < cnt; ++i)
    if (!goap__px_ipush(h->a, ix, (int32_t)i) || !goap__px_ipush(h->a, tmp, 0)) return hj_oom(h);
  for (size_t w = 1; w < cnt; w *= 2) {
    for (size_t lo = 0; lo < cnt; lo += 2 * w) {
      size_t mid = lo + w < cnt ? lo + w : cnt, hi = lo + 2 * w < cnt ? lo + 2 * w : cnt;
      size_t a = lo, c = mid, o = lo;
      while (a < mid && c < hi)
        tmp->v[o++] = bind_before(h, at, np, nk, free, ix->v[c], ix->v[a]) ? ix->v[c++] : ix->v[a++];
      while (a < mid) tmp->v[o++] = ix->v[a++];
      while (c < hi) tmp->v[o++] = ix->v[c++];
    }
    goap__px_ivec sw = *ix;
    *ix = *tmp;
    *tmp = sw;
  }
  /* permute: copy the bindings out in order, then back */
  tmp->n = 0;
  for (size_t i = 0; i < cnt; ++i)
    for (int p = 0; p < np; ++p)
      if (!goap__px_ipush(h->a, tmp, h->pool.v[at + (size_t)ix->v[i] * (size_t)np + (size_t)p]))
        return hj_oom(h);
  memcpy(h->pool.v + at, tmp->v, cnt * (size_t)np * sizeof *tmp->v);
  return 1;
}

/* h->hj, made on first use; 0 when out of memory (h->st). */
static int hj_get(hp *h) {
  if (h->hj) return 1;
  const goap__px_task_core *t = h->t;
  h->hj = (struct goap__hj *)goap__alloc(h->a, sizeof *h->hj);
  if (!h->hj) return hj_oom(h);
  memset(h->hj, 0, sizeof *h->hj);
  h->hj->plan0 = (int32_t *)goap__alloc(h->a, (t->htn.nmethods + 1) * sizeof *h->hj->plan0);
  if (!h->hj->plan0) return hj_oom(h);
  h->hj->nplan0 = t->htn.nmethods + 1;
  for (size_t i = 0; i < h->hj->nplan0; ++i) h->hj->plan0[i] = -1;
  return 1;
}

/* Sets x->n to n (at least 1 allocated); 0 when out of memory (h->st). */
static int hj_size(hp *h, goap__px_ivec *x, size_t n) {
  if (!goap__grow(h->a, (void **)&x->v, &x->cap, n ? n : 1, sizeof *x->v)) return hj_oom(h);
  x->n = n;
  return 1;
}

/* Appends to pool every binding of np parameters (types at ptypes in args) extending b0 that
 * satisfies the literals [l0, l0 + n); *count gets their number, in this order: the positive
 * literals of [l0, l0 + nbase) (the method's own) enumerate atoms in interning order, each
 * parameter none of them binds then takes the objects of its type by id. The literals after
 * nbase (lifted from subtasks, lift_lits) only drop bindings: their positive ones may bind
 * such free parameters from atoms (much cheaper than trying every object), and the bindings
 * are then sorted back into that order. The levels may match the literals in another order
 * (the most bound first; method m's order, m >= 0, is kept in jord): the same bindings,
 * sorted back too. 0 on a budget or memory stop (h->st); 2 (nothing appended, h->work past
 * wcap) when the work went over wcap. */
static int join(hp *h, int32_t m, int32_t l0, int32_t n, int32_t nbase, int np, int32_t ptypes,
                const int32_t *b0, size_t *count, uint64_t wcap) {
  const goap__px_task_core *t = h->t;
  int32_t *b = h->jb;
  uint8_t *inpos = h->inpos; /* 1: bound by an own literal, 2: by a lifted one, 0: by its type */
  memset(inpos, 0, h->maxp);
  for (int i = 0; i < np; ++i) b[i] = b0[i];
  *count = 0;
  int nlev = 0, nown = 0, sorted = 0;
  for (int32_t i = l0; i < l0 + n; ++i) {
    const goap__px_lit *l = &h->lits[i];
    if (l->neg || l->pred < 0) continue;
    h->lev[nlev].own = i < l0 + nbase ? nlev : -1;
    h->lev[nlev++].lit = i;
    for (int k = 0; k < t->preds[l->pred].arity; ++k) {
      int32_t a = h->av.v[l->args + k];
      if (a >= 0 || inpos[-a - 1]) continue;
      inpos[-a - 1] = i < l0 + nbase ? 1 : 2;
      if (i >= l0 + nbase && b[-a - 1] < 0) sorted = 1;
    }
    if (i < l0 + nbase) nown = nlev;
  }
  /* Level order: greedily the literal with the fewest parameters still unbound, then one
   * with a bound argument to index by, then an own literal (the sort below has less to do),
   * then the smaller predicate, then literal order. Any
   * order gives the same bindings; when it is not literal order, they are sorted back. A
   * method's order is computed at its first join and kept (jord): its :task binds the same
   * parameters every time. */
  const int32_t *cached = m >= 0 && h->jord0[m] >= 0 ? h->jord.v + h->jord0[m] : NULL;
  int32_t *bound = h->bstk; /* scratch until the enumeration below */
  for (int p = 0; p < np; ++p) bound[p] = b[p] >= 0;
  if (cached) {
    sorted |= cached[0];
    for (int k = 0; k < nlev; ++k) {
      h->lev[k].lit = cached[1 + 2 * k];
      h->lev[k].own = cached[2 + 2 * k];
    }
  }
  for (int k = 0; k < nlev && !cached; ++k) {
    int best = k;
    uint64_t bs = UINT64_MAX;
    for (int j = k; j < nlev; ++j) {
      const goap__px_lit *l = &h->lits[h->lev[j].lit];
      int ar = t->preds[l->pred].arity, u = 0, anchored = 0;
      for (int q = 0; q < ar; ++q) {
        int32_t a = h->av.v[l->args + q];
        if (a >= 0 || bound[-a - 1]) {
          anchored = 1;
          continue;
        }
        int dup = 0; /* a parameter repeated in the literal counts once */
        for (int r = 0; r < q; ++r) dup |= h->av.v[l->args + r] == a;
        u += !dup;
      }
      uint64_t sc = (uint64_t)u << 40 | (uint64_t)(anchored && h->by_arg[l->pred] ? 0 : 1) << 39 |
                    (uint64_t)(h->lev[j].own < 0) << 38 |
                    (uint64_t)(h->by_pred[l->pred].n & 0x3fffffffffull);
      if (sc < bs) {
        bs = sc;
        best = j;
      }
    }
    if (best != k) {
      hp_level keep = h->lev[best];
      memmove(h->lev + k + 1, h->lev + k, (size_t)(best - k) * sizeof *h->lev);
      h->lev[k] = keep;
      sorted = 1;
    }
    const goap__px_lit *l = &h->lits[h->lev[k].lit];
    for (int q = 0; q < t->preds[l->pred].arity; ++q)
      if (h->av.v[l->args + q] < 0) bound[-h->av.v[l->args + q] - 1] = 1;
  }
  if (m >= 0 && !cached) {
    h->jord0[m] = (int32_t)h->jord.n;
    if (!goap__px_ipush(h->a, &h->jord, sorted)) return hj_oom(h);
    for (int k = 0; k < nlev; ++k)
      if (!goap__px_ipush(h->a, &h->jord, h->lev[k].lit) ||
          !goap__px_ipush(h->a, &h->jord, h->lev[k].own))
        return hj_oom(h);
  }
  for (int p = 0; p < np; ++p)
    if (b[p] < 0 && !inpos[p]) {
      h->lev[nlev].own = -1;
      h->lev[nlev++].lit = -(p + 1);
    }
  /* each check (negative or '=') is tested once, at the level that binds its last parameter
   * (cat): it holds at a deeper level exactly when it held there */
  if (!hj_get(h) || !hj_size(h, &h->hj->cat, (size_t)n) || !hj_size(h, &h->hj->plev, (size_t)np))
    return 0;
  int32_t *cat = h->hj->cat.v, *plev = h->hj->plev.v;
  for (int p = 0; p < np; ++p) plev[p] = b[p] >= 0 ? -1 : INT32_MAX;
  for (int k = 0; k < nlev; ++k) {
    int32_t c = h->lev[k].lit;
    if (c < 0) {
      if (plev[-c - 1] == INT32_MAX) plev[-c - 1] = k;
      continue;
    }
    const goap__px_lit *l = &h->lits[c];
    for (int q = 0; q < t->preds[l->pred].arity; ++q) {
      int32_t a = h->av.v[l->args + q];
      if (a < 0 && plev[-a - 1] == INT32_MAX) plev[-a - 1] = k;
    }
  }
  for (int32_t i = 0; i < n; ++i) {
    const goap__px_lit *l = &h->lits[l0 + i];
    cat[i] = INT32_MAX;
    if (!l->neg && l->pred >= 0) continue;
    int ar = l->pred == PX_EQ ? 2 : t->preds[l->pred].arity;
    cat[i] = -1;
    for (int q = 0; q < ar; ++q) {
      int32_t a = h->av.v[l->args + q];
      if (a < 0 && plev[-a - 1] > cat[i]) cat[i] = plev[-a - 1];
    }
  }
  if (!checks_at(h, l0, n, cat, -1, b)) return 1;
  size_t at = h->pool.n;
  h->jkey.n = 0;
  int k = 0;
  h->lev[0].pos = 0;
  h->lev[0].b0 = h->lev[0].nb = 0;
  int32_t g[PX_MAX_ARITY];
  while (k >= 0) {
    if (k == nlev) { /* every check has been tested at its level */
      {
        if (h->pool.n + (size_t)np > HP_MAX_POOL) {
          h->st = GOAP_TOO_LARGE;
          return 0;
        }
        for (int p = 0; p < np; ++p)
          if (!goap__px_ipush(h->a, &h->pool, b[p])) return hj_oom(h);
        if (sorted) { /* the sort key: the atoms of the own literals, in literal order */
          size_t k0 = h->jkey.n;
          for (int q = 0; q < nown; ++q)
            if (!goap__px_ipush(h->a, &h->jkey, 0)) return hj_oom(h);
          for (int q = 0; q < nlev; ++q)
            if (h->lev[q].own >= 0) h->jkey.v[k0 + (size_t)h->lev[q].own] = h->lev[q].atom;
        }
        ++*count;
      }
      --k;
      continue;
    }
    hp_level *L = &h->lev[k];
    for (int32_t i = 0; i < L->nb; ++i) b[h->bstk[L->b0 + i]] = -1;
    L->nb = 0;
    if (++h->work > h->max_work) {
      h->st = GOAP_NODE_LIMIT;
      return 0;
    }
    if (h->work > wcap) { /* too large for the eager join: the caller goes lazy */
      h->pool.n = at;
      *count = 0;
      return 2;
    }
    if ((h->work & 0xffff) == 0 && hj_over_time(h)) return 0;
    int found = 0;
    if (L->lit < 0) {
      int p = -L->lit - 1;
      int32_t ty = t->args.v[ptypes + p];
      size_t cnt = (size_t)(h->tobj0[ty + 1] - h->tobj0[ty]);
      if (L->pos < cnt) {
        b[p] = h->tobjs[(size_t)h->tobj0[ty] + L->pos];
        L->pos++;
        h->bstk[L->b0] = p;
        L->nb = 1;
        found = 1;
      }
    } else {
      const goap__px_lit *l = &h->lits[L->lit];
      int ar = t->preds[l->pred].arity;
      if (goap__hp_ground(h, l, b, g)) {
        if (L->pos == 0) {
          L->pos = 1;
          L->atom = goap__px_tset_find(&h->atoms, l->pred, g, ar);
          found = L->atom >= 0 && h->truth[L->atom];
        }
      } else {
        if (L->pos == 0) L->lst = candidates(h, l, b, NULL);
        const goap__px_ivec *lst = L->lst;
        while (!found && L->pos < lst->n) {
          int32_t e = lst->v[L->pos++];
          ++h->work; /* every candidate looked at counts */
          if (!h->truth[e]) continue;
          const int32_t *ea = goap__px_tset_args(&h->atoms, e, NULL);
          int32_t nb = hj_unify(t, h, l, ar, ptypes, ea, b, h->bstk + L->b0);
          if (nb < 0) continue;
          L->nb = nb;
          L->atom = e;
          found = 1;
        }
      }
    }
    if (!found) {
      --k;
      continue;
    }
    if (!checks_at(h, l0, n, cat, k, b)) continue; /* next candidate at this level */
    ++k;
    if (k < nlev) {
      h->lev[k].pos = 0;
      h->lev[k].b0 = h->lev[k - 1].b0 + h->lev[k - 1].nb;
      h->lev[k].nb = 0;
    }
  }
  if (!sorted || *count < 2) return 1;
  for (int p = 0; p < np; ++p) inpos[p] = b0[p] < 0 && inpos[p] != 1; /* the free parameters */
  return sort_bindings(h, at, *count, np, nown, inpos) ? 1 : 0;
}

/* ---- the lazy join -------------------------------------------------------------------- */

/* The lazy plan of method m (-1: the :htn) for the parameters b0 binds (the same at every
 * join of m): its offset in hj->plan, -1 on a memory failure. */
static int32_t lazy_plan(hp *h, int32_t m, int32_t l0, int32_t n, int32_t nbase, int np,
                         const int32_t *b0) {
  struct goap__hj *j = h->hj;
  if (j->plan0[m + 1] >= 0) return j->plan0[m + 1];
  const goap__px_task_core *t = h->t;
  int32_t *at = h->bstk; /* per parameter: the level that binds it (-1: b0) */
  int nlev = 0;
  for (int p = 0; p < np; ++p) at[p] = b0[p] >= 0 ? -1 : INT32_MAX;
  goap__px_ivec *pl = &j->plan;
  size_t base = pl->n;
  /* the levels first, into lev (its lit field) */
  for (int32_t i = l0; i < l0 + nbase; ++i) {
    const goap__px_lit *l = &h->lits[i];
    if (l->neg || l->pred < 0) continue;
    for (int q = 0; q < t->preds[l->pred].arity; ++q) {
      int32_t a = h->av.v[l->args + q];
      if (a < 0 && at[-a - 1] == INT32_MAX) at[-a - 1] = nlev;
    }
    h->lev[nlev++].lit = i;
  }
  for (int p = 0; p < np; ++p)
    if (at[p] == INT32_MAX) {
      at[p] = nlev;
      h->lev[nlev++].lit = -(p + 1);
    }
  /* nlev, the offsets (filled below), then chk0 and each level's checks */
  if (!goap__px_ipush(h->a, pl, nlev)) return -1;
  for (int k = 0; k < nlev; ++k)
    if (!goap__px_ipush(h->a, pl, 0)) return -1;
  for (int k = -1; k < nlev; ++k) {
    if (k >= 0) {
      pl->v[base + 1 + (size_t)k] = (int32_t)(pl->n - base);
      if (!goap__px_ipush(h->a, pl, h->lev[k].lit)) return -1;
    }
    size_t cnt = pl->n;
    if (!goap__px_ipush(h->a, pl, 0)) return -1;
    for (int32_t i = l0; i < l0 + n; ++i) {
      const goap__px_lit *l = &h->lits[i];
      if (k >= 0 && h->lev[k].lit == i) continue; /* its own level matches it */
      int ar = l->pred == PX_EQ ? 2 : t->preds[l->pred].arity, last = -1;
      for (int q = 0; q < ar; ++q) {
        int32_t a = h->av.v[l->args + q];
        if (a < 0 && at[-a - 1] > last) last = at[-a - 1];
      }
      if (last != k) continue;
      if (!goap__px_ipush(h->a, pl, i)) return -1;
      pl->v[cnt]++;
    }
  }
  j->plan0[m + 1] = (int32_t)base;
  return (int32_t)base;
}

/* The literals of check list c (count, then literal ids) hold under binding b. */
static int lazy_checks(hp *h, const int32_t *c, const int32_t *b) {
  int32_t g[PX_MAX_ARITY];
  for (int32_t i = 1; i <= c[0]; ++i) {
    const goap__px_lit *l = &h->lits[c[i]];
    goap__hp_ground(h, l, b, g);
    if (!goap__hp_lit_holds(h, l, g)) return 0;
  }
  return 1;
}

/* The next binding of the lazy state at hj->st[off], appended to h->pool: 1 with *got = 1,
 * or *got = 0 when there is none left; 0 on a budget stop (h->st). */
static int lazy_next(hp *h, size_t off, int *got) {
  const goap__px_task_core *t = h->t;
  int32_t *s = h->hj->st.v + off;
  int32_t m = s[0];
  const int32_t *pl = h->hj->plan.v + h->hj->plan0[m + 1];
  int nlev = pl[0], np = s[2];
  int32_t ptypes = m >= 0 ? t->htn.methods[m].ptypes : t->htn.top_ptypes;
  int32_t *lv = s + HJ_HEAD, *b = lv + 4 * nlev, *bstk = b + np;
  int k = s[1];
  int32_t g[PX_MAX_ARITY];
  *got = 0;
  while (k >= 0) {
    if (k == nlev) {
      for (int p = 0; p < np; ++p)
        if (!goap__px_ipush(h->a, &h->pool, b[p])) return hj_oom(h);
      *got = 1;
      s[1] = nlev - 1;
      return 1;
    }
    int32_t *L = lv + 4 * k; /* pos, lsel, b0, nb */
    for (int32_t i = 0; i < L[3]; ++i) b[bstk[L[2] + i]] = -1;
    L[3] = 0;
    if (++h->work > h->max_work) {
      h->st = GOAP_NODE_LIMIT;
      return 0;
    }
    if ((h->work & 0xffff) == 0 && hj_over_time(h)) return 0;
    const int32_t *lp = pl + pl[1 + k];
    int32_t code = lp[0];
    int found = 0;
    if (code < 0) {
      int p = -code - 1;
      int32_t ty = t->args.v[ptypes + p];
      if (L[0] < h->tobj0[ty + 1] - h->tobj0[ty]) {
        b[p] = h->tobjs[h->tobj0[ty] + L[0]];
        L[0]++;
        bstk[L[2]] = p;
        L[3] = 1;
        found = 1;
      }
    } else {
      const goap__px_lit *l = &h->lits[code];
      int ar = t->preds[l->pred].arity;
      if (goap__hp_ground(h, l, b, g)) {
        if (L[0] == 0) {
          L[0] = 1;
          int32_t e = goap__px_tset_find(&h->atoms, l->pred, g, ar);
          found = e >= 0 && h->truth[e];
        }
      } else {
        if (L[0] == 0) candidates(h, l, b, &L[1]);
        const goap__px_ivec *lst = hj_list(h, l->pred, L[1]);
        while (!found && (size_t)L[0] < lst->n) {
          int32_t e = lst->v[L[0]++];
          ++h->work;
          if (!h->truth[e]) continue;
          const int32_t *ea = goap__px_tset_args(&h->atoms, e, NULL);
          int32_t nb = hj_unify(t, h, l, ar, ptypes, ea, b, bstk + L[2]);
          if (nb < 0) continue;
          L[3] = nb;
          found = 1;
        }
      }
    }
    if (!found) {
      --k;
      continue;
    }
    if (!lazy_checks(h, lp + 1, b)) continue; /* next candidate at this level */
    ++k;
    if (k < nlev) {
      int32_t *N = lv + 4 * k;
      N[0] = 0;
      N[1] = -1;
      N[2] = L[2] + L[3];
      N[3] = 0;
    }
  }
  s[1] = -1;
  return 1;
}

/* ---- entry points (hddl_plan.h) ------------------------------------------------------- */

int goap__hp_join(hp *h, int32_t m, const int32_t *b0, size_t *count) {
  const goap__px_task_core *t = h->t;
  int np, ptypes;
  int32_t l0, nl, nown;
  if (m >= 0) {
    np = t->htn.methods[m].nparams;
    ptypes = t->htn.methods[m].ptypes;
    l0 = h->x0[m];
    nl = h->xn[m];
    nown = h->xb[m];
  } else {
    np = t->htn.top_nparams;
    ptypes = t->htn.top_ptypes;
    l0 = 0;
    nl = nown = 0;
  }
  return join(h, m, l0, nl, nown, np, ptypes, b0, count, UINT64_MAX) == 1;
}

int goap__hp_join_dfs(hp *h, hp_frame *f, int32_t m, int32_t l0, int32_t n, int32_t nbase,
                      int np, int32_t ptypes, const int32_t *b0) {
  f->lz = 0;
  uint64_t wcap = h->eager || h->work > UINT64_MAX - HJ_EAGER_WORK ? UINT64_MAX
                                                                  : h->work + HJ_EAGER_WORK;
  int r = join(h, m, l0, n, nbase, np, ptypes, b0, &f->nbind, wcap);
  if (r != 2) return r;
  /* too large to make at once: a lazy state, one binding ahead */
  if (!hj_get(h)) return 0;
  int32_t p0 = lazy_plan(h, m, l0, n, nbase, np, b0);
  if (p0 < 0) return hj_oom(h);
  int nlev = h->hj->plan.v[p0];
  goap__px_ivec *st = &h->hj->st;
  size_t off = st->n;
  size_t need = off + HJ_HEAD + 4 * (size_t)nlev + 2 * (size_t)np;
  if (!goap__grow(h->a, (void **)&st->v, &st->cap, need, sizeof *st->v)) return hj_oom(h);
  st->n = need;
  int32_t *s = st->v + off;
  s[0] = m;
  s[2] = np;
  int32_t *lv = s + HJ_HEAD, *b = lv + 4 * nlev;
  lv[0] = lv[2] = lv[3] = 0; /* level 0 (when there is one): pos, b0, nb */
  if (nlev > 0) lv[1] = -1;
  for (int p = 0; p < np; ++p) b[p] = b0[p];
  /* the literals bound from the start: when one fails there is no binding */
  s[1] = lazy_checks(h, h->hj->plan.v + p0 + 1 + nlev, b) ? 0 : -1;
  f->lz = off + 1;
  int got;
  if (!lazy_next(h, off, &got)) return 0;
  f->nbind = (size_t)got;
  return 1;
}

int goap__hp_join_more(hp *h, hp_frame *f) {
  int got;
  f->bnext = f->nbind = 0;
  h->pool.n = f->bind0;
  if (!lazy_next(h, f->lz - 1, &got)) return 0;
  f->nbind = (size_t)got;
  return 1;
}

void goap__hp_join_drop(hp *h, hp_frame *f) {
  if (f->lz) h->hj->st.n = f->lz - 1;
  f->lz = 0;
}

void goap__hp_join_reset(hp *h) {
  if (h->hj) h->hj->st.n = 0;
}

void goap__hp_join_free(hp *h) {
  struct goap__hj *j = h->hj;
  if (!j) return;
  goap__free(h->a, j->plan0, j->nplan0 * sizeof *j->plan0);
  goap__px_ivec_free(h->a, &j->plan);
  goap__px_ivec_free(h->a, &j->st);
  goap__px_ivec_free(h->a, &j->cat);
  goap__px_ivec_free(h->a, &j->plev);
  goap__free(h->a, j, sizeof *j);
  h->hj = NULL;
}
