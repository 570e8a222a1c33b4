/*
 * hddl_rc.c -- the relaxed-composition (RC) heuristic of the best-first HDDL search
 * (hddl_bfs.c): the HTN model compiled to a delete-free classical problem, evaluated with h_add.
 *
 * Invariants:
 *  - Facts are the ground atoms the ground operators mention, then one "done" fact per ground
 *    task. A ground action (cost 1) needs its positive non-static precondition atoms and adds
 *    its add effects and its task's done fact; a ground method (cost 0) needs its positive
 *    non-static precondition atoms and the done facts of its subtasks and adds its task's done
 *    fact. Negative preconditions and delete effects are dropped (the relaxation).
 *  - Grounding is top-down from the :htn's tasks: each ground compound task is unified with
 *    each of its methods' :task, the method's other parameters range over the objects of their
 *    types (in an order that checks static literals as early as possible; the order changes
 *    the work, not the result), and a binding is kept when its static and equality literals
 *    hold (static: a
 *    predicate no action adds or deletes, so its truth in the search's hp is its truth in every
 *    state) and its positive preconditions on the other predicates are in reach: the atoms
 *    reachable from the :init in the delete relaxation (a fixpoint over the action schemas,
 *    rc_reach; every state the search evaluates is reached from that one by actions, so no atom
 *    outside reach is ever true in it or reached by an evaluation). Ground actions need their
 *    positive preconditions in reach too. A method's bindings are checked against its join
 *    literals (hddl_prep.c): its precondition, then the static literals of its primitive
 *    subtasks and the literals lifted from its single-method subtasks, which a binding must
 *    satisfy for those subtasks to decompose at all; a binding failing one could only give an
 *    operator that never fires (its subtask's done fact is never reached), so the values are
 *    those of the unpruned grounding. Only the method's own precondition gives the operator's
 *    atom preconditions. A method binding with its own ground task among its subtasks (tail
 *    recursion such as "do a step, then this task again") is no operator: it needs the done
 *    fact it adds, so it never lowers that fact's cost; its subtasks are ground all the same
 *    (the search's agendas hold them). Every ground task a decomposition can reach is
 *    therefore grounded, and every ground operator an evaluation could fire to lower a cost
 *    has its relaxed counterpart here: the value is 0 only on an
 *    empty agenda whose goal holds, and UINT32_MAX (a dead end) only when no decomposition can
 *    finish the agenda from the state even ignoring deletes.
 *  - The value of (state, agenda) is the sum over the agenda's tasks and the problem's positive
 *    goal atoms of the h_add cost of their facts (true atoms cost 0), UINT32_MAX when one is
 *    unreachable. goap__rc_load starts a Dijkstra-like pass from hp's state (facts settled in
 *    cost order; an operator fires when its last precondition is settled, at the sum of their
 *    costs plus its own; the queue is a bucket per cost below RC_NB, a binary heap above, and
 *    the costs it settles do not depend on the order of equal costs); goap__rc_sum goes on
 *    with it only until the facts it sums are final (no queued cost below theirs), and the
 *    next sum in the same state goes on from there: the costs depend on the state only, so
 *    one load serves every agenda in it, and the values are those of settling every fact.
 *  - All evaluation buffers are allocated by goap__rc_new (sizes fixed by the grounding; the
 *    queue holds at most one entry per fact and per operator effect, since an entry is pushed
 *    only when a cost drops: once per true atom, once per effect of an operator firing, and
 *    each operator fires once); a load allocates only to map atoms the search interned since
 *    the last one. Grounding
 *    is bounded (RC_MAX_OPS operators or the caller's fewer, RC_MAX_POOL fact references, RC_MAX_TRIES bindings
 *    tried): beyond, goap__rc_new gives up (GOAP_TOO_LARGE) and the search uses the TDG bound.
 *  - Deterministic: grounding follows the domain's order, the queue's ties go to the lower fact
 *    id. Nothing here prints. goap__hp_slice (the turn lengths of goap_hddl_solve) lives here
 *    too, beside the work units it weighs.
 */
#include <stdint.h>
#include <string.h>

#include "hddl_plan.h"

#define RC_MAX_OPS ((size_t)1 << 18)
#define RC_MAX_POOL ((size_t)1 << 25)
#define RC_MAX_TRIES ((uint64_t)1 << 24) /* about 0.1 s per 2^22 on the IPC domains */
#define RC_INF UINT32_MAX
#define RC_NB 1024u /* costs with a bucket of their own; the larger ones go to the heap */

struct goap__rc {
  goap__px_tset atoms;   /* (pred, args): the atom facts */
  goap__px_tset tasks;   /* (task code as hp_node.task, args): the done facts */
  size_t natoms, ntasks, nfacts, nops;
  size_t max_ops; /* operators the grounding may make: RC_MAX_OPS or the caller's fewer */
  uint8_t *ocost;        /* per operator: 1 an action, 0 a method */
  size_t cocost;
  goap__px_ivec pre0, pre, eff0, eff; /* per operator: [pre0[o], pre0[o + 1]) in pre, same for eff */
  int32_t *pof0, *pof;   /* per fact: the operators it is a precondition of */
  size_t npof;
  uint32_t *npre;        /* per operator: its preconditions */
  /* evaluation */
  uint32_t *cost;
  uint32_t *ls;           /* per operator: its preconditions not settled yet, then the sum of
                             the settled ones' costs (side by side: one cache line) */
  uint64_t *heap;        /* (cost << 32 | fact), costs from RC_NB; with the buckets' entries
                            at most nfacts + eff.n (cheap) */
  size_t nheap, cheap;
  int32_t bhead[RC_NB];  /* per cost below RC_NB: its last entry (-1: none) */
  int32_t *bfact, *bnext; /* cheap each: an entry's fact and the bucket's entry before it */
  size_t nbent, nbq;     /* entries made, entries not popped yet */
  uint32_t bcur;         /* no bucket below it holds an entry */
  int32_t *hp2rc;        /* hp atom -> atom fact (-1: none) */
  size_t nhp2rc, chp2rc;
  goap__px_ivec goal;    /* atom facts of the positive goal literals */
  uint64_t visits;       /* facts settled, preconditions visited, operators fired by the
                            last evaluation */
  /* grounding scratch */
  uint8_t *fluent;       /* per predicate: some action adds or deletes it */
  size_t nfluent;
  int32_t *ready;        /* per literal of the net being ground: the level it becomes ground */
  size_t cready;
  int32_t *b, *free_p;   /* maxp each: a binding, the free parameters in binding order */
  uint8_t *placed;       /* maxp: a parameter is bound or before the one being ordered */
  size_t maxp;
  goap__px_ivec tmp;
  uint64_t tries;
  goap__px_tset reach;   /* the atoms reachable from the :init in the delete relaxation */
  int use_reach;         /* reach is complete: positive fluent preconditions are checked */
  int reaching;          /* the fixpoint is running: complete bindings add their effects */
};

/* A literal checked while binding: a precondition on a static predicate or an equality, or,
 * once reach is complete, a positive precondition on a fluent one. */
static int rc_checked(const goap__rc *r, const goap__px_lit *l) {
  if (l->kind != PX_LIT_PRE) return 0;
  return l->pred == PX_EQ || !r->fluent[l->pred] || (r->use_reach && !l->neg);
}

static int rc_ref_task(goap__rc *r, hp *h, int32_t code, const int32_t *args, int n) {
  int32_t k = goap__px_tset_add(h->a, &r->tasks, code, args, n, NULL);
  return k < 0 ? INT32_MIN : -(k + 1);
}

static int32_t rc_ref_atom(goap__rc *r, hp *h, int32_t pred, const int32_t *args, int n) {
  return goap__px_tset_add(h->a, &r->atoms, pred, args, n, NULL);
}

/* Ends an operator whose preconditions are tmp and effects eff's tail since eff_mark. */
static int rc_emit(goap__rc *r, hp *h, uint8_t cost) {
  if (r->nops >= r->max_ops || r->pre.n + r->tmp.n > RC_MAX_POOL) {
    h->st = GOAP_TOO_LARGE;
    return 0;
  }
  if (!goap__grow(h->a, (void **)&r->ocost, &r->cocost, r->nops + 1, 1)) return 0;
  r->ocost[r->nops++] = cost;
  for (size_t i = 0; i < r->tmp.n; ++i)
    if (!goap__px_ipush(h->a, &r->pre, r->tmp.v[i])) return 0;
  return goap__px_ipush(h->a, &r->pre0, (int32_t)r->pre.n) &&
         goap__px_ipush(h->a, &r->eff0, (int32_t)r->eff.n);
}

static int rc_lit_holds(const goap__rc *r, const hp *h, const goap__px_lit *l, const int32_t *g) {
  if (l->pred == PX_EQ || !r->fluent[l->pred]) return goap__hp_lit_holds(h, l, g);
  return goap__px_tset_find(&r->reach, l->pred, g, h->t->preds[l->pred].arity) >= 0;
}

static int rc_ground_lit(const hp *h, const goap__px_lit *l, const int32_t *b, int32_t *g) {
  int n = l->pred == PX_EQ ? 2 : h->t->preds[l->pred].arity;
  for (int i = 0; i < n; ++i) {
    int32_t a = h->av.v[l->args + i];
    g[i] = a >= 0 ? a : b[-a - 1];
  }
  return n;
}

static int rc_is_a(const goap__px_task_core *t, int32_t o, int32_t ty) {
  return t->is_a[(size_t)o * t->ntypes + (size_t)ty] != 0;
}

/* The ground action of task entry k (schema s, args): 1 on, 0 on a stop (h->st). */
static int rc_action(goap__rc *r, hp *h, int32_t k, int32_t s, const int32_t *args) {
  const goap__px_task_core *t = h->t;
  const goap__px_schema *ps = &t->schemas[s];
  int32_t g[PX_MAX_ARITY];
  for (int32_t i = 0; i < ps->nparams; ++i)
    if (!rc_is_a(t, args[i], t->args.v[ps->ptypes + i])) return 1;
  r->tmp.n = 0;
  size_t em = r->eff.n;
  for (int32_t i = ps->lit0; i < ps->lit0 + ps->nlits; ++i) {
    const goap__px_lit *l = &t->lits[i];
    if (l->kind == PX_LIT_DEL) continue;
    int n = rc_ground_lit(h, l, args, g);
    if (l->kind == PX_LIT_PRE) {
      if (l->pred == PX_EQ || !r->fluent[l->pred]) {
        if (!goap__hp_lit_holds(h, l, g)) {
          r->eff.n = em;
          return 1;
        }
      } else if (!l->neg) {
        if (r->use_reach && !rc_lit_holds(r, h, l, g)) { /* never true in the relaxation */
          r->eff.n = em;
          return 1;
        }
        int32_t a = rc_ref_atom(r, h, l->pred, g, n);
        if (a < 0 || !goap__px_ipush(h->a, &r->tmp, a)) return 0;
      }
    } else if (l->kind == PX_LIT_ADD) {
      int32_t a = rc_ref_atom(r, h, l->pred, g, n);
      if (a < 0 || !goap__px_ipush(h->a, &r->eff, a)) return 0;
    }
  }
  if (!goap__px_ipush(h->a, &r->eff, -(k + 1))) return 0;
  return rc_emit(r, h, 1);
}

/* Every binding of net m (-1: the :htn) extending r->b: a method operator adding done fact
 * -(k + 1) (none for the :htn), its subtasks interned. While r->reaching, m is an action
 * schema instead and each binding adds its add effects to r->reach. */
static int rc_net(goap__rc *r, hp *h, int32_t m, int32_t k) {
  const goap__px_task_core *t = h->t;
  int32_t np, ptypes, lit0 = 0, nlits = 0, nown = 0, step0 = 0, nsteps = 0;
  if (r->reaching) {
    const goap__px_schema *ps = &t->schemas[m];
    np = ps->nparams;
    ptypes = ps->ptypes;
    lit0 = ps->lit0;
    nlits = ps->nlits;
  } else if (m < 0) {
    np = t->htn.top_nparams;
    ptypes = t->htn.top_ptypes;
    step0 = t->htn.top_step0;
    nsteps = t->htn.top_nsteps;
  } else {
    const goap__px_method *pm = &t->htn.methods[m];
    np = pm->nparams;
    ptypes = pm->ptypes;
    lit0 = h->x0[m]; /* the join literals: its precondition first, then what its subtasks need */
    nlits = h->xn[m];
    nown = pm->nlits;
    step0 = pm->step0;
    nsteps = pm->nsteps;
  }
  int32_t *b = r->b, nfree = 0;
  for (int32_t p = 0; p < np; ++p) {
    r->placed[p] = b[p] >= 0;
    if (b[p] < 0) r->free_p[nfree++] = p;
  }
  /* the order of the free parameters: greedily the one completing the most static (or
   * equality) literals over the parameters placed before it, so those checks prune early */
  for (int32_t q = 0; q < nfree; ++q) {
    int32_t best = q, best_n = -1;
    for (int32_t j = q; j < nfree; ++j) {
      int32_t p = r->free_p[j], cnt = 0;
      for (int32_t i = 0; i < nlits; ++i) {
        const goap__px_lit *l = &h->lits[lit0 + i];
        if (!rc_checked(r, l)) continue;
        int n = l->pred == PX_EQ ? 2 : t->preds[l->pred].arity, has = 0, rest = 1;
        for (int a = 0; a < n; ++a) {
          int32_t v = h->av.v[l->args + a];
          if (v >= 0) continue;
          if (-v - 1 == p) has = 1;
          else if (!r->placed[-v - 1]) rest = 0;
        }
        cnt += has && rest;
      }
      if (cnt > best_n) {
        best_n = cnt;
        best = j;
      }
    }
    int32_t p = r->free_p[best];
    r->free_p[best] = r->free_p[q];
    r->free_p[q] = p;
    r->placed[p] = 1;
  }
  if (!goap__grow(h->a, (void **)&r->ready, &r->cready, (size_t)nlits + 1, sizeof *r->ready))
    return 0;
  int32_t g[PX_MAX_ARITY];
  /* each checked literal's level: the position in free_p of its last free parameter */
  for (int32_t i = 0; i < nlits; ++i) {
    const goap__px_lit *l = &h->lits[lit0 + i];
    r->ready[i] = INT32_MIN; /* not checked */
    if (!rc_checked(r, l)) continue;
    int n = l->pred == PX_EQ ? 2 : t->preds[l->pred].arity;
    int32_t lev = -1;
    for (int a = 0; a < n; ++a) {
      int32_t v = h->av.v[l->args + a];
      if (v >= 0 || b[-v - 1] >= 0) continue;
      for (int32_t j = 0; j < nfree; ++j)
        if (r->free_p[j] == -v - 1 && j > lev) lev = j;
    }
    r->ready[i] = lev;
  }
  for (int32_t i = 0; i < nlits; ++i) /* literals ground already */
    if (r->ready[i] == -1) {
      rc_ground_lit(h, &h->lits[lit0 + i], b, g);
      if (!rc_lit_holds(r, h, &h->lits[lit0 + i], g)) return 1;
    }
  int32_t pos[64 + 1];
  if (nfree > 64) {
    h->st = GOAP_TOO_LARGE;
    return 0;
  }
  int32_t lev = 0;
  if (nfree > 0) pos[0] = -1;
  for (;;) {
    if (lev == nfree && r->reaching) { /* a complete binding of an action schema */
      for (int32_t i = 0; i < nlits; ++i) {
        const goap__px_lit *l = &h->lits[lit0 + i];
        if (l->kind != PX_LIT_ADD) continue;
        int n = rc_ground_lit(h, l, b, g);
        if (goap__px_tset_add(h->a, &r->reach, l->pred, g, n, NULL) < 0) return 0;
      }
      if (nfree == 0) return 1;
      --lev;
    } else if (lev == nfree) { /* a complete binding */
      int self = 0;
      r->tmp.n = 0;
      for (int32_t i = 0; i < nown; ++i) { /* the method's own precondition only */
        const goap__px_lit *l = &h->lits[lit0 + i];
        if (l->kind != PX_LIT_PRE || l->neg || l->pred == PX_EQ || !r->fluent[l->pred]) continue;
        int n = rc_ground_lit(h, l, b, g);
        int32_t a = rc_ref_atom(r, h, l->pred, g, n);
        if (a < 0 || !goap__px_ipush(h->a, &r->tmp, a)) return 0;
      }
      for (int32_t s = step0; s < step0 + nsteps; ++s) {
        const goap__px_step *ps = &t->htn.steps[s];
        for (int32_t a = 0; a < ps->nargs; ++a) {
          int32_t v = t->args.v[ps->args + a];
          g[a] = v >= 0 ? v : b[-v - 1];
        }
        int32_t ref = rc_ref_task(r, h, ps->task, g, ps->nargs);
        if (ref == INT32_MIN || !goap__px_ipush(h->a, &r->tmp, ref)) return 0;
        self |= ref == -(k + 1);
      }
      /* a method needing its own task's done fact never lowers that fact's cost: its
       * subtasks are ground (the search may meet them), the operator is not */
      if (m >= 0 && !self && (!goap__px_ipush(h->a, &r->eff, -(k + 1)) || !rc_emit(r, h, 0)))
        return 0;
      if (nfree == 0) return 1;
      --lev;
    }
    /* next candidate at level lev */
    int32_t p = r->free_p[lev];
    int32_t ty = t->args.v[ptypes + p];
    int32_t cnt = h->tobj0[ty + 1] - h->tobj0[ty];
    int ok = 0;
    while (!ok && ++pos[lev] < cnt) {
      if (++r->tries > RC_MAX_TRIES ||
          ((r->tries & 0xfff) == 0 && h->max_ms > 0 &&
           (double)(goap__now_ns() - h->t0) / 1e6 >= h->max_ms)) {
        h->st = GOAP_TOO_LARGE;
        return 0;
      }
      b[p] = h->tobjs[h->tobj0[ty] + pos[lev]];
      ok = 1;
      for (int32_t i = 0; i < nlits && ok; ++i) {
        if (r->ready[i] != lev) continue;
        rc_ground_lit(h, &h->lits[lit0 + i], b, g);
        ok = rc_lit_holds(r, h, &h->lits[lit0 + i], g);
      }
    }
    if (ok) {
      if (++lev < nfree) pos[lev] = -1;
      continue;
    }
    b[p] = -1;
    if (lev == 0) return 1;
    --lev;
  }
}

/* The delete-relaxed reachable atoms from the initial state (a fixpoint: every action schema's
 * bindings whose positive preconditions are in reach add their add effects, until a round adds
 * nothing), so that the grounding below can skip operators needing an atom outside it: no
 * evaluation could ever fire them (every state the search evaluates is reached from the
 * initial one by actions, and its relaxed closure stays inside reach). When the fixpoint
 * exceeds the bound on bindings tried, the grounding goes on without it, as before. 0 on a
 * stop (h->st). */
static int rc_reach(goap__rc *r, hp *h) {
  const goap__px_task_core *t = h->t;
  for (size_t i = 0; i + 1 < t->init.n; i += 2) { /* the problem's :init, not hp's state */
    int32_t p = t->init.v[i];
    if (goap__px_tset_add(h->a, &r->reach, p, t->args.v + t->init.v[i + 1], t->preds[p].arity,
                          NULL) < 0)
      return 0;
  }
  r->use_reach = 1; /* the preconditions are checked against reach as it grows */
  r->reaching = 1;
  size_t before;
  do {
    before = goap__px_tset_count(&r->reach);
    for (size_t s = 0; s < t->nschemas; ++s) {
      for (size_t p = 0; p < r->maxp; ++p) r->b[p] = -1;
      if (!rc_net(r, h, (int32_t)s, -1)) {
        r->reaching = 0;
        r->use_reach = 0;
        if (h->st != GOAP_TOO_LARGE) return 0;
        h->st = GOAP_OK; /* too large: ground without the pruning */
        r->tries = 0;
        return 1;
      }
    }
  } while (goap__px_tset_count(&r->reach) != before);
  r->reaching = 0;
  return 1;
}

static int rc_ground(goap__rc *r, hp *h) {
  const goap__px_task_core *t = h->t;
  for (size_t s = 0; s < t->nschemas; ++s) {
    const goap__px_schema *ps = &t->schemas[s];
    for (int32_t i = ps->lit0; i < ps->lit0 + ps->nlits; ++i)
      if (t->lits[i].kind == PX_LIT_ADD || t->lits[i].kind == PX_LIT_DEL)
        r->fluent[t->lits[i].pred] = 1;
  }
  if (!goap__px_ipush(h->a, &r->pre0, 0) || !goap__px_ipush(h->a, &r->eff0, 0)) return 0;
  if (!rc_reach(r, h)) return 0;
  for (size_t p = 0; p < r->maxp; ++p) r->b[p] = -1;
  if (!rc_net(r, h, -1, -1)) return 0;
  int32_t args[PX_MAX_ARITY];
  for (size_t k = 0; k < goap__px_tset_count(&r->tasks); ++k) {
    int n;
    int32_t code = goap__px_tset_id(&r->tasks, (int32_t)k);
    const int32_t *a = goap__px_tset_args(&r->tasks, (int32_t)k, &n);
    memcpy(args, a, (size_t)n * sizeof *args);
    if (code < 0) {
      if (!rc_action(r, h, (int32_t)k, -code - 1, args)) return 0;
      continue;
    }
    for (int32_t j = h->m0[code]; j < h->m0[code + 1]; ++j) {
      int32_t m = h->mids[j];
      const goap__px_method *pm = &t->htn.methods[m];
      for (size_t p = 0; p < r->maxp; ++p) r->b[p] = -1;
      int ok = 1;
      for (int i = 0; i < n && ok; ++i) {
        int32_t v = t->args.v[pm->targs + i];
        if (v >= 0) ok = v == args[i];
        else if (r->b[-v - 1] >= 0) ok = r->b[-v - 1] == args[i];
        else if ((ok = rc_is_a(t, args[i], t->args.v[pm->ptypes + (-v - 1)])) != 0)
          r->b[-v - 1] = args[i];
      }
      if (ok && !rc_net(r, h, m, (int32_t)k)) return 0;
    }
  }
  return 1;
}

void goap__rc_free(goap__rc *r, const goap_allocator *a) {
  if (!r) return;
  size_t nf = r->nfacts ? r->nfacts : 1, no = r->nops ? r->nops : 1;
  goap__px_tset_free(a, &r->atoms);
  goap__px_tset_free(a, &r->tasks);
  goap__px_tset_free(a, &r->reach);
  goap__free(a, r->ocost, r->cocost);
  goap__px_ivec_free(a, &r->pre0);
  goap__px_ivec_free(a, &r->pre);
  goap__px_ivec_free(a, &r->eff0);
  goap__px_ivec_free(a, &r->eff);
  goap__px_ivec_free(a, &r->goal);
  goap__px_ivec_free(a, &r->tmp);
  if (r->pof0) goap__free(a, r->pof0, (nf + 1) * sizeof *r->pof0);
  if (r->pof) goap__free(a, r->pof, r->npof * sizeof *r->pof);
  goap__free(a, r->npre, no * sizeof *r->npre);
  goap__free(a, r->cost, nf * sizeof *r->cost);
  goap__free(a, r->ls, 2 * no * sizeof *r->ls);
  goap__free(a, r->heap, r->cheap * sizeof *r->heap);
  goap__free(a, r->bfact, r->cheap * sizeof *r->bfact);
  goap__free(a, r->bnext, r->cheap * sizeof *r->bnext);
  goap__free(a, r->hp2rc, r->chp2rc * sizeof *r->hp2rc);
  goap__free(a, r->fluent, r->nfluent);
  goap__free(a, r->ready, r->cready * sizeof *r->ready);
  goap__free(a, r->b, r->maxp * sizeof *r->b);
  goap__free(a, r->free_p, r->maxp * sizeof *r->free_p);
  goap__free(a, r->placed, r->maxp);
  goap__free(a, r, sizeof *r);
}

goap__rc *goap__rc_new(hp *h, size_t max_ops, uint64_t *work) {
  const goap__px_task_core *t = h->t;
  const goap_allocator *a = h->a;
  goap__rc *r = (goap__rc *)goap__alloc(a, sizeof *r);
  if (!r) {
    h->st = GOAP_OUT_OF_MEMORY;
    return NULL;
  }
  memset(r, 0, sizeof *r);
  r->max_ops = max_ops && max_ops < RC_MAX_OPS ? max_ops : RC_MAX_OPS;
  r->maxp = h->maxp > 64 ? h->maxp : 64;
  r->nfluent = t->npreds ? t->npreds : 1;
  *work = 0;
  r->b = (int32_t *)goap__alloc(a, r->maxp * sizeof *r->b);
  r->free_p = (int32_t *)goap__alloc(a, r->maxp * sizeof *r->free_p);
  r->placed = (uint8_t *)goap__alloc(a, r->maxp);
  r->fluent = (uint8_t *)goap__alloc(a, r->nfluent);
  if (!r->b || !r->free_p || !r->placed || !r->fluent) goto oom;
  memset(r->fluent, 0, r->nfluent);
  int grounded = rc_ground(r, h);
  *work = r->tries + r->pre.n + r->eff.n;
  if (!grounded) goto fail;
  /* the goal's atoms */
  int32_t g[PX_MAX_ARITY];
  for (int32_t i = 0; i < t->ngoal; ++i) {
    const goap__px_lit *l = &t->lits[t->goal0 + i];
    if (l->neg || l->pred == PX_EQ) continue;
    int n = rc_ground_lit(h, l, NULL, g);
    int32_t e = rc_ref_atom(r, h, l->pred, g, n);
    if (e < 0 || !goap__px_ipush(a, &r->goal, e)) goto oom;
  }
  r->natoms = goap__px_tset_count(&r->atoms);
  r->ntasks = goap__px_tset_count(&r->tasks);
  r->nfacts = r->natoms + r->ntasks;
  size_t nf = r->nfacts ? r->nfacts : 1, no = r->nops ? r->nops : 1;
  /* fact references: atoms as they are, done facts after them */
  for (size_t i = 0; i < r->pre.n; ++i)
    if (r->pre.v[i] < 0) r->pre.v[i] = (int32_t)r->natoms + (-r->pre.v[i] - 1);
  for (size_t i = 0; i < r->eff.n; ++i)
    if (r->eff.v[i] < 0) r->eff.v[i] = (int32_t)r->natoms + (-r->eff.v[i] - 1);
  r->npof = r->pre.n ? r->pre.n : 1;
  r->pof0 = (int32_t *)goap__alloc(a, (nf + 1) * sizeof *r->pof0);
  r->pof = (int32_t *)goap__alloc(a, r->npof * sizeof *r->pof);
  r->npre = (uint32_t *)goap__alloc(a, no * sizeof *r->npre);
  r->cost = (uint32_t *)goap__alloc(a, nf * sizeof *r->cost);
  r->ls = (uint32_t *)goap__alloc(a, 2 * no * sizeof *r->ls);
  r->cheap = nf + r->eff.n + 1;
  r->heap = (uint64_t *)goap__alloc(a, r->cheap * sizeof *r->heap);
  r->bfact = (int32_t *)goap__alloc(a, r->cheap * sizeof *r->bfact);
  r->bnext = (int32_t *)goap__alloc(a, r->cheap * sizeof *r->bnext);
  if (!r->pof0 || !r->pof || !r->npre || !r->cost || !r->ls || !r->heap ||
      !r->bfact || !r->bnext)
    goto oom;
  memset(r->pof0, 0, (nf + 1) * sizeof *r->pof0);
  for (size_t o = 0; o < r->nops; ++o) {
    r->npre[o] = (uint32_t)(r->pre0.v[o + 1] - r->pre0.v[o]);
    for (int32_t i = r->pre0.v[o]; i < r->pre0.v[o + 1]; ++i) r->pof0[r->pre.v[i] + 1]++;
  }
  for (size_t f = 0; f < r->nfacts; ++f) r->pof0[f + 1] += r->pof0[f];
  for (size_t o = 0; o < r->nops; ++o) /* filled with the count as a cursor, then restored */
    for (int32_t i = r->pre0.v[o]; i < r->pre0.v[o + 1]; ++i)
      r->pof[r->pof0[r->pre.v[i]]++] = (int32_t)o;
  for (size_t f = r->nfacts; f > 0; --f) r->pof0[f] = r->pof0[f - 1];
  r->pof0[0] = 0;
  return r;
oom:
  h->st = GOAP_OUT_OF_MEMORY;
fail:
  if (h->st == GOAP_OK) h->st = GOAP_OUT_OF_MEMORY; /* the grounding's allocations */
  goap__rc_free(r, a);
  return NULL;
}

size_t goap__rc_ops(const goap__rc *r) { return r ? r->nops : 0; }
uint64_t goap__rc_visits(const goap__rc *r) {
  /* the resets count too: 64 facts or operators as one visit */
  return r ? r->visits + (r->nfacts + r->nops) / 64 : 0;
}

int32_t goap__rc_task_fact(const goap__rc *r, int32_t task, const int32_t *args, int n) {
  int32_t k = goap__px_tset_find(&r->tasks, task, args, n);
  return k < 0 ? -1 : (int32_t)r->natoms + k;
}

static void rc_push(goap__rc *r, uint32_t c, int32_t f) {
  if (c < RC_NB) {
    size_t e = r->nbent++;
    r->bfact[e] = f;
    r->bnext[e] = r->bhead[c];
    r->bhead[c] = (int32_t)e;
    r->nbq++;
    return;
  }
  uint64_t x = (uint64_t)c << 32 | (uint32_t)f;
  size_t i = r->nheap++;
  while (i > 0 && r->heap[(i - 1) / 2] > x) {
    r->heap[i] = r->heap[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  r->heap[i] = x;
}

static uint64_t rc_pop(goap__rc *r) {
  if (r->nbq > 0) { /* the costs only grow (Dijkstra), so bcur never passes an entry */
    while (r->bhead[r->bcur] < 0) ++r->bcur;
    int32_t e = r->bhead[r->bcur];
    r->bhead[r->bcur] = r->bnext[e];
    r->nbq--;
    return (uint64_t)r->bcur << 32 | (uint32_t)r->bfact[e];
  }
  uint64_t top = r->heap[0], x = r->heap[--r->nheap];
  size_t i = 0, n = r->nheap;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && r->heap[c + 1] < r->heap[c]) ++c;
    if (r->heap[c] >= x) break;
    r->heap[i] = r->heap[c];
    i = c;
  }
  if (n) r->heap[i] = x;
  return top;
}

static void rc_relax(goap__rc *r, uint32_t c, int32_t f) {
  if (c < r->cost[f]) {
    r->cost[f] = c;
    rc_push(r, c, f);
  }
}

static void rc_fire(goap__rc *r, size_t o, uint32_t base) {
  uint64_t v = (uint64_t)base + r->ocost[o];
  uint32_t c = v < RC_INF ? (uint32_t)v : RC_INF - 1;
  for (int32_t i = r->eff0.v[o]; i < r->eff0.v[o + 1]; ++i) rc_relax(r, c, r->eff.v[i]);
  r->visits += (uint64_t)(r->eff0.v[o + 1] - r->eff0.v[o]) + 1;
}

/* Sets up an evaluation from hp's state: maps the atoms hp interned since the last one, resets
 * the costs and counters, settles the true atoms at 0 and fires the operators without
 * preconditions. 0 when out of memory (h->st). */
static int rc_start(goap__rc *r, hp *h) {
  size_t nhp = goap__px_tset_count(&h->atoms);
  if (nhp > r->nhp2rc) {
    if (!goap__grow(h->a, (void **)&r->hp2rc, &r->chp2rc, nhp, sizeof *r->hp2rc)) {
      h->st = GOAP_OUT_OF_MEMORY;
      return 0;
    }
    for (size_t e = r->nhp2rc; e < nhp; ++e) {
      int an;
      int32_t p = goap__px_tset_id(&h->atoms, (int32_t)e);
      const int32_t *aa = goap__px_tset_args(&h->atoms, (int32_t)e, &an);
      r->hp2rc[e] = goap__px_tset_find(&r->atoms, p, aa, an);
    }
    r->nhp2rc = nhp;
  }
  memset(r->cost, 0xff, r->nfacts * sizeof *r->cost);
  for (size_t o = 0; o < r->nops; ++o) {
    r->ls[2 * o] = r->npre[o];
    r->ls[2 * o + 1] = 0;
  }
  r->nheap = 0;
  r->nbent = r->nbq = 0;
  r->bcur = 0;
  memset(r->bhead, 0xff, sizeof r->bhead);
  r->visits = 0; /* before the first firings below */
  for (size_t e = 0; e < nhp; ++e)
    if (h->truth[e] && r->hp2rc[e] >= 0) rc_relax(r, 0, r->hp2rc[e]);
  for (size_t o = 0; o < r->nops; ++o)
    if (r->npre[o] == 0) rc_fire(r, o, 0);
  return 1;
}

/* The lowest cost in the queue (RC_INF: empty). */
static uint32_t rc_min(goap__rc *r) {
  if (r->nbq > 0) {
    while (r->bhead[r->bcur] < 0) ++r->bcur;
    return r->bcur;
  }
  return r->nheap > 0 ? (uint32_t)(r->heap[0] >> 32) : RC_INF;
}

/* Settles facts in cost order until fact f's cost is final: every cost still queued is at
 * least f's (so nothing can lower it), or the queue is empty (f = -1: settles everything). */
static void rc_run(goap__rc *r, int32_t f0) {
  for (;;) {
    uint32_t m = rc_min(r);
    if (m == RC_INF || (f0 >= 0 && m >= r->cost[f0])) return;
    uint64_t x = rc_pop(r);
    uint32_t c = (uint32_t)(x >> 32);
    int32_t f = (int32_t)(uint32_t)x;
    if (c != r->cost[f]) continue;
    for (int32_t i = r->pof0[f]; i < r->pof0[f + 1]; ++i) {
      int32_t o = r->pof[i];
      uint32_t *ls = r->ls + 2 * (size_t)o;
      uint64_t s = (uint64_t)ls[1] + c;
      ls[1] = s < RC_INF ? (uint32_t)s : RC_INF - 1;
      if (--ls[0] == 0) rc_fire(r, (size_t)o, ls[1]);
    }
    r->visits += (uint64_t)(r->pof0[f + 1] - r->pof0[f]) + 1;
  }
}

int goap__rc_load(goap__rc *r, hp *h) { return rc_start(r, h); }

uint32_t goap__rc_sum(goap__rc *r, const int32_t *facts, size_t n) {
  uint64_t total = 0;
  for (size_t i = 0; i < n; ++i) {
    if (facts[i] < 0) continue;
    rc_run(r, facts[i]);
    if (r->cost[facts[i]] == RC_INF) return RC_INF;
    total += r->cost[facts[i]];
  }
  for (size_t i = 0; i < r->goal.n; ++i) {
    rc_run(r, r->goal.v[i]);
    if (r->cost[r->goal.v[i]] == RC_INF) return RC_INF;
    total += r->cost[r->goal.v[i]];
  }
  return total < RC_INF ? (uint32_t)total : RC_INF - 1;
}

uint64_t goap__hp_slice(int k, int informed) {
  uint64_t s = HP_SLICE >> (k < 4 ? 4 - k : 0);
  return informed ? 2 * s : s;
}
