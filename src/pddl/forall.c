/*
 * forall.c -- universal conditions: (forall (?x - type ...) formula) in action and method
 * preconditions and in the goal, instantiated over the problem's objects.
 *
 * Invariants:
 *  - The parser (parse.c) reads a forall's body with its variables appended to the enclosing
 *    parameters and marks each literal with its scope (goap__px_lit.quant). Only and / not / atoms
 *    (and nested foralls) may appear inside, so a forall is a conjunction of literals each
 *    universally quantified: forall x (a and b) = (forall x a) and (forall x b).
 *  - After the problem is parsed, every marked literal is replaced by one literal per
 *    combination of objects for the forall variables it mentions (in object id order). When
 *    some variable of its scope has a type with no object, the literal has no instance: the
 *    forall holds vacuously. Afterwards no literal is marked, so grounding, the HTN planner
 *    and both plan validators only ever see ordinary literals.
 *  - The literals of each schema, method and of the goal stay one contiguous range (the
 *    whole literal table is rebuilt range by range); nothing else holds literal indices.
 *  - The number of instances is bounded by the task's max_atoms (GOAP_TOO_LARGE beyond);
 *    every allocation goes through the task's allocator and is overflow-checked.
 */
#include <string.h>

#include "pddl_internal.h"

typedef struct fx {
  goap__px_task_core *t;
  int32_t *tobj0, *tobjs; /* objects of each type: tobjs[tobj0[ty] .. tobj0[ty + 1]) */
  goap__px_lit *lits;           /* the new table */
  size_t n, cap;
  size_t made;            /* instances made */
} fx;

static goap_status fx_oom(fx *x, int32_t node) {
  return goap__px_error(x->t, node, GOAP_OUT_OF_MEMORY, "out of memory");
}

static goap_status fx_push_lit(fx *x, const goap__px_lit *l, int32_t args) {
  if (x->n >= (size_t)INT32_MAX ||
      !goap__grow(&x->t->alloc, (void **)&x->lits, &x->cap, x->n + 1, sizeof *x->lits))
    return fx_oom(x, l->node);
  goap__px_lit *d = &x->lits[x->n++];
  *d = *l;
  d->args = args;
  d->quant = -1;
  return GOAP_OK;
}

/* The instances of one marked literal. */
static goap_status fx_expand(fx *x, const goap__px_lit *l) {
  goap__px_task_core *t = x->t;
  int32_t base = t->args.v[l->quant], nq = t->args.v[l->quant + 1];
  int arity = l->pred == PX_EQ ? 2 : t->preds[l->pred].arity;
  for (int32_t k = 0; k < nq; ++k) {
    int32_t ty = t->args.v[l->quant + 2 + k];
    if (x->tobj0[ty + 1] == x->tobj0[ty]) return GOAP_OK; /* vacuously true */
  }
  /* the scope's variables this literal mentions: their odometer positions */
  size_t cells = (size_t)nq * sizeof(int32_t);
  int32_t *idx = (int32_t *)goap__alloc(&t->alloc, cells ? cells : 1);
  uint8_t *used = (uint8_t *)goap__alloc(&t->alloc, nq ? (size_t)nq : 1);
  goap_status st = GOAP_OK;
  if (!idx || !used) {
    st = fx_oom(x, l->node);
    goto done;
  }
  memset(idx, 0, cells ? cells : 1);
  memset(used, 0, nq ? (size_t)nq : 1);
  for (int i = 0; i < arity; ++i) {
    int32_t a = t->args.v[l->args + i];
    if (a < 0 && -a - 1 >= base) used[-a - 1 - base] = 1;
  }
  for (;;) {
    if (x->made >= t->opt.max_atoms) {
      st = goap__px_error(t, l->node, GOAP_TOO_LARGE,
                          "expanding 'forall' needs more than %lu literals (the max_atoms limit)",
                          (unsigned long)t->opt.max_atoms);
      goto done;
    }
    x->made++;
    if (t->args.n > (size_t)INT32_MAX - (size_t)arity) {
      st = goap__px_error(t, l->node, GOAP_TOO_LARGE, "too many arguments");
      goto done;
    }
    int32_t off = (int32_t)t->args.n;
    for (int i = 0; i < arity; ++i) {
      int32_t a = t->args.v[l->args + i];
      if (a < 0 && -a - 1 >= base) {
        int32_t k = -a - 1 - base;
        a = x->tobjs[x->tobj0[t->args.v[l->quant + 2 + k]] + idx[k]];
      }
      if (!goap__px_ipush(&t->alloc, &t->args, a)) {
        st = fx_oom(x, l->node);
        goto done;
      }
    }
    st = fx_push_lit(x, l, off);
    if (st != GOAP_OK) goto done;
    /* next combination of the mentioned variables */
    int32_t k = nq - 1;
    for (; k >= 0; --k) {
      if (!used[k]) continue;
      int32_t ty = t->args.v[l->quant + 2 + k];
      if (++idx[k] < x->tobj0[ty + 1] - x->tobj0[ty]) break;
      idx[k] = 0;
    }
    if (k < 0) break;
  }
done:
  goap__free(&t->alloc, idx, cells ? cells : 1);
  goap__free(&t->alloc, used, nq ? (size_t)nq : 1);
  return st;
}

/* Rebuilds the range [*lit0, *lit0 + *nlits) of the old table into the new one. */
static goap_status fx_range(fx *x, int32_t *lit0, int32_t *nlits) {
  goap__px_task_core *t = x->t;
  size_t start = x->n;
  for (int32_t i = *lit0; i < *lit0 + *nlits; ++i) {
    const goap__px_lit *l = &t->lits[i];
    goap_status st = l->quant < 0 ? fx_push_lit(x, l, l->args) : fx_expand(x, l);
    if (st != GOAP_OK) return st;
  }
  *lit0 = (int32_t)start;
  *nlits = (int32_t)(x->n - start);
  return GOAP_OK;
}

goap_status goap__px_expand_foralls(goap__px_task_core *t) {
  if (t->nquant == 0) return GOAP_OK;
  fx x;
  memset(&x, 0, sizeof x);
  x.t = t;
  size_t cells = t->nobjects * t->ntypes; /* no overflow: is_a has as many */
  x.tobj0 = (int32_t *)goap__alloc(&t->alloc, (t->ntypes + 1) * sizeof *x.tobj0);
  x.tobjs = (int32_t *)goap__alloc(&t->alloc, (cells ? cells : 1) * sizeof *x.tobjs);
  goap_status st = GOAP_OK;
  if (!x.tobj0 || !x.tobjs) {
    st = goap__px_error(t, -1, GOAP_OUT_OF_MEMORY, "out of memory");
    goto done;
  }
  size_t k = 0;
  for (size_t ty = 0; ty < t->ntypes; ++ty) {
    x.tobj0[ty] = (int32_t)k;
    for (size_t o = 0; o < t->nobjects; ++o)
      if (t->is_a[o * t->ntypes + ty]) x.tobjs[k++] = (int32_t)o;
  }
  x.tobj0[t->ntypes] = (int32_t)k;
  for (size_t i = 0; i < t->nschemas && st == GOAP_OK; ++i)
    st = fx_range(&x, &t->schemas[i].lit0, &t->schemas[i].nlits);
  for (size_t i = 0; i < t->htn.nmethods && st == GOAP_OK; ++i)
    st = fx_range(&x, &t->htn.methods[i].lit0, &t->htn.methods[i].nlits);
  if (st == GOAP_OK) st = fx_range(&x, &t->goal0, &t->ngoal);
  if (st == GOAP_OK) {
    goap__free(&t->alloc, t->lits, t->clits * sizeof *t->lits);
    t->lits = x.lits;
    t->nlits = x.n;
    t->clits = x.cap;
    t->nquant = 0;
    x.lits = NULL;
    x.cap = 0;
  }
done:
  goap__free(&t->alloc, x.lits, x.cap * sizeof *x.lits);
  goap__free(&t->alloc, x.tobj0, (t->ntypes + 1) * sizeof *x.tobj0);
  goap__free(&t->alloc, x.tobjs, (cells ? cells : 1) * sizeof *x.tobjs);
  return st;
}
