/*
 * ground.c -- grounding by relaxed reachability, and compiling the ground task to a
 * goap_domain.
 *
 * Invariants:
 *  - Atoms are reached in a queue (the insertion order of t->atoms): atoms [0, head) are
 *    "processed" and indexed (per predicate, and per (predicate, position, object)). Processing
 *    atom a tries every positive precondition that can match a, and joins the schema's other
 *    positive preconditions against processed atoms only. So each ground action whose positive
 *    preconditions are all reachable is found when the last of its atoms is processed, and no
 *    argument combination is ever enumerated blindly: parameters are bound by matching atoms
 *    (static ones included); only parameters in no positive precondition range over their
 *    type's objects. Negative preconditions on changing predicates are ignored (relaxation);
 *    equalities and negative static preconditions filter the complete bindings.
 *  - The index lists never change during a join (new atoms are only queued), so pointers into
 *    them stay valid; pointers into t->atoms' pool are never held across an insertion.
 *  - Work (candidate atoms tried), atoms and ground actions are bounded by the options.
 *  - Compiling: one bool variable per reached atom of a predicate some action changes (plus one
 *    per goal atom that can never hold, so such goals stay visibly unreachable); add effects
 *    win over delete effects of the same atom (PDDL semantics); duplicate conditions and
 *    effects are merged; an action needing an atom both true and false is dropped.
 */
#include <stdio.h>
#include <string.h>

#include "pddl_internal.h"

typedef struct gctx {
  px_task_core *t;
  const goap_allocator *a;
  px_ivec *by_pred;      /* per predicate: processed atoms */
  px_tset pidx;          /* (pred, pos, obj) -> list index */
  px_ivec *lists;
  size_t nlists, clists;
  px_ivec *trig;         /* per predicate: (schema, literal) pairs of positive preconditions */
  px_ivec *of_type;      /* per type: its objects (subtypes included) */
  int32_t head;
  int32_t *bind;          /* maxp: the largest schema's parameters */
  int32_t *pos;           /* maxl: positive precondition literals of the current schema */
  uint8_t *done;          /* maxl */
  size_t maxp, maxl;
  int npos;
} gctx;

#define T (g->t)

static goap_status too_large(gctx *g, const char *what, uint64_t limit) {
  return goap__px_error_at(T, 1, 0, 0, GOAP_TOO_LARGE,
                     "grounding needs more than %llu %s (the limit; see goap_pddl_options)",
                     (unsigned long long)limit, what);
}

static int32_t lit_arg(const gctx *g, int32_t arg) {
  return arg >= 0 ? arg : g->bind[-(arg + 1)];
}

/* Adds a ground action for the complete binding if it passes the filters. */
static goap_status emit(gctx *g, int32_t si) {
  const px_schema *s = &T->schemas[si];
  int32_t args[PX_MAX_ARITY];
  for (int32_t k = 0; k < s->nlits; ++k) {
    const px_lit *l = &T->lits[s->lit0 + k];
    if (l->kind != PX_LIT_PRE) continue;
    const int32_t *la = T->args.v + l->args;
    if (l->pred == PX_EQ) {
      int eq = lit_arg(g, la[0]) == lit_arg(g, la[1]);
      if (eq == l->neg) return GOAP_OK;
      continue;
    }
    if (l->neg && !T->preds[l->pred].fluent) {
      int n = T->preds[l->pred].arity;
      for (int i = 0; i < n; ++i) args[i] = lit_arg(g, la[i]);
      if (goap__px_tset_find(&T->atoms, l->pred, args, n) >= 0) return GOAP_OK;
    }
  }
  int added = 0;
  if (px_tset_count(&T->gacts) >= T->opt.max_actions)
    return too_large(g, "ground actions", T->opt.max_actions);
  if (goap__px_tset_add(g->a, &T->gacts, si, g->bind, s->nparams, &added) < 0)
    return goap__px_error(T, s->node, GOAP_OUT_OF_MEMORY, "out of memory");
  if (!added) return GOAP_OK;
  for (int32_t k = 0; k < s->nlits; ++k) {
    const px_lit *l = &T->lits[s->lit0 + k];
    if (l->kind != PX_LIT_ADD) continue;
    const int32_t *la = T->args.v + l->args;
    int n = T->preds[l->pred].arity;
    for (int i = 0; i < n; ++i) args[i] = lit_arg(g, la[i]);
    if (goap__px_tset_find(&T->atoms, l->pred, args, n) >= 0) continue;
    if (px_tset_count(&T->atoms) >= T->opt.max_atoms)
      return too_large(g, "ground atoms", T->opt.max_atoms);
    if (goap__px_tset_add(g->a, &T->atoms, l->pred, args, n, NULL) < 0)
      return goap__px_error(T, l->node, GOAP_OUT_OF_MEMORY, "out of memory");
  }
  return GOAP_OK;
}

/* Binds the parameters no positive precondition bound, over their types' objects. */
static goap_status free_params(gctx *g, int32_t si, int q) {
  const px_schema *s = &T->schemas[si];
  while (q < s->nparams && g->bind[q] >= 0) ++q;
  if (q == s->nparams) return emit(g, si);
  const px_ivec *objs = &g->of_type[T->args.v[s->ptypes + q]];
  for (size_t i = 0; i < objs->n; ++i) {
    if (++T->info.work > T->opt.max_work) return too_large(g, "candidate bindings", T->opt.max_work);
    g->bind[q] = objs->v[i];
    goap_status st = free_params(g, si, q + 1);
    if (st != GOAP_OK) {
      g->bind[q] = -1;
      return st;
    }
  }
  g->bind[q] = -1;
  return GOAP_OK;
}

/* Tries to match literal l against atom a, binding parameters; records the ones it bound in
 * newly (count in *nb). 0 when they do not match (nothing stays bound). */
static int unify(gctx *g, const px_schema *s, const px_lit *l, int32_t a, int32_t *newly, int *nb) {
  int n;
  const int32_t *aa = px_tset_args(&T->atoms, a, &n);
  const int32_t *la = T->args.v + l->args;
  *nb = 0;
  for (int i = 0; i < n; ++i) {
    int32_t v = la[i];
    if (v >= 0) {
      if (v != aa[i]) goto fail;
      continue;
    }
    int q = -(v + 1);
    if (g->bind[q] >= 0) {
      if (g->bind[q] != aa[i]) goto fail;
      continue;
    }
    int32_t ty = T->args.v[s->ptypes + q];
    if (!T->is_a[(size_t)aa[i] * T->ntypes + (size_t)ty]) goto fail;
    g->bind[q] = aa[i];
    newly[(*nb)++] = q;
  }
  return 1;
fail:
  for (int k = 0; k < *nb; ++k) g->bind[newly[k]] = -1;
  *nb = 0;
  return 0;
}

static goap_status join(gctx *g, int32_t si, int remaining) {
  const px_schema *s = &T->schemas[si];
  if (remaining == 0) return free_params(g, si, 0);
  /* the literal with the most bound arguments */
  int best = -1, best_bound = -1;
  for (int k = 0; k < g->npos; ++k) {
    if (g->done[k]) continue;
    const px_lit *l = &T->lits[g->pos[k]];
    const int32_t *la = T->args.v + l->args;
    int n = T->preds[l->pred].arity, b = 0;
    for (int i = 0; i < n; ++i) b += lit_arg(g, la[i]) >= 0;
    if (b > best_bound) {
      best_bound = b;
      best = k;
    }
  }
  const px_lit *l = &T->lits[g->pos[best]];
  const int32_t *la = T->args.v + l->args;
  int n = T->preds[l->pred].arity;
  const int32_t *cand = NULL;
  size_t ncand = 0;
  int32_t single;
  if (best_bound == n) {
    int32_t args[PX_MAX_ARITY];
    for (int i = 0; i < n; ++i) args[i] = lit_arg(g, la[i]);
    single = goap__px_tset_find(&T->atoms, l->pred, args, n);
    if (single < 0 || single >= g->head) return GOAP_OK;
    cand = &single;
    ncand = 1;
  } else if (best_bound > 0) {
    int32_t key[2] = {0, 0};
    for (int i = 0; i < n; ++i)
      if (lit_arg(g, la[i]) >= 0) {
        key[0] = i;
        key[1] = lit_arg(g, la[i]);
        break;
      }
    int32_t e = goap__px_tset_find(&g->pidx, l->pred, key, 2);
    if (e < 0) return GOAP_OK;
    cand = g->lists[e].v;
    ncand = g->lists[e].n;
  } else {
    cand = g->by_pred[l->pred].v;
    ncand = g->by_pred[l->pred].n;
  }
  g->done[best] = 1;
  int32_t newly[PX_MAX_ARITY];
  int nb;
  for (size_t i = 0; i < ncand; ++i) {
    if (++T->info.work > T->opt.max_work) {
      g->done[best] = 0;
      return too_large(g, "candidate bindings", T->opt.max_work);
    }
    if (!unify(g, s, l, cand[i], newly, &nb)) continue;
    goap_status st = join(g, si, remaining - 1);
    for (int k = 0; k < nb; ++k) g->bind[newly[k]] = -1;
    if (st != GOAP_OK) {
      g->done[best] = 0;
      return st;
    }
  }
  g->done[best] = 0;
  return GOAP_OK;
}

/* Sets up the positive preconditions of schema si (done all 0). */
static void schema_pos(gctx *g, int32_t si) {
  const px_schema *s = &T->schemas[si];
  g->npos = 0;
  for (int32_t k = 0; k < s->nlits; ++k) {
    const px_lit *l = &T->lits[s->lit0 + k];
    if (l->kind == PX_LIT_PRE && !l->neg && l->pred >= 0) {
      g->done[g->npos] = 0;
      g->pos[g->npos++] = s->lit0 + k;
    }
  }
  for (int q = 0; q < s->nparams; ++q) g->bind[q] = -1;
}

static goap_status process(gctx *g, int32_t a) {
  int n;
  int32_t pred = px_tset_id(&T->atoms, a);
  if (!goap__px_ipush(g->a, &g->by_pred[pred], a)) return goap__px_error(T, -1, GOAP_OUT_OF_MEMORY, "out of memory");
  px_tset_args(&T->atoms, a, &n);
  for (int i = 0; i < n; ++i) {
    int32_t key[2];
    key[0] = i;
    key[1] = px_tset_args(&T->atoms, a, NULL)[i];
    int added = 0;
    int32_t e = goap__px_tset_add(g->a, &g->pidx, pred, key, 2, &added);
    if (e < 0) return goap__px_error(T, -1, GOAP_OUT_OF_MEMORY, "out of memory");
    if (added) {
      if (!goap__grow(g->a, (void **)&g->lists, &g->clists, (size_t)e + 1, sizeof *g->lists))
        return goap__px_error(T, -1, GOAP_OUT_OF_MEMORY, "out of memory");
      memset(&g->lists[e], 0, sizeof g->lists[e]);
      g->nlists = (size_t)e + 1;
    }
    if (!goap__px_ipush(g->a, &g->lists[e], a)) return goap__px_error(T, -1, GOAP_OUT_OF_MEMORY, "out of memory");
  }
  g->head = a + 1;
  const px_ivec *tr = &g->trig[pred];
  for (size_t k = 0; k + 1 < tr->n; k += 2) {
    int32_t si = tr->v[k], li = tr->v[k + 1];
    const px_schema *s = &T->schemas[si];
    schema_pos(g, si);
    int32_t newly[PX_MAX_ARITY];
    int nb;
    if (!unify(g, s, &T->lits[li], a, newly, &nb)) continue;
    for (int j = 0; j < g->npos; ++j)
      if (g->pos[j] == li) g->done[j] = 1;
    goap_status st = join(g, si, g->npos - 1);
    if (st != GOAP_OK) return st;
  }
  return GOAP_OK;
}

/* ---- compiling ------------------------------------------------------------------------ */

typedef struct cbuf {
  char *s;
  size_t cap;
} cbuf;

static int cbuf_fit(const goap_allocator *a, cbuf *b, size_t need) {
  return goap__grow(a, (void **)&b->s, &b->cap, need + 1, 1);
}

/* "head a b" (space-separated, no parentheses) into b: a symbol and n objects' names. Built
 * with memcpy (no snprintf): one call per reached atom and per ground action. */
static int sym_objs_name(const px_task_core *t, const goap_allocator *a, cbuf *b, int32_t sym,
                         const int32_t *args, int n) {
  const char *x = px_name(t, sym);
  size_t hl = strlen(x), need = hl;
  for (int i = 0; i < n; ++i) need += 1 + strlen(px_name(t, t->objects[args[i]].sym));
  if (!cbuf_fit(a, b, need)) return 0;
  memcpy(b->s, x, hl);
  size_t o = hl;
  for (int i = 0; i < n; ++i) {
    x = px_name(t, t->objects[args[i]].sym);
    size_t l = strlen(x);
    b->s[o++] = ' ';
    memcpy(b->s + o, x, l);
    o += l;
  }
  b->s[o] = 0;
  return 1;
}

/* "move a b" for a ground action. */
static int action_name(const px_task_core *t, const goap_allocator *a, cbuf *b, int32_t si,
                       const int32_t *args) {
  const px_schema *s = &t->schemas[si];
  return sym_objs_name(t, a, b, s->sym, args, s->nparams);
}

/* "at a b" for a reached atom: the same text as goap__px_format_atom without parentheses. */
static int atom_var_name(const px_task_core *t, const goap_allocator *a, cbuf *b, int32_t pred,
                         const int32_t *args) {
  return sym_objs_name(t, a, b, t->preds[pred].sym, args, t->preds[pred].arity);
}

static goap_status compile(gctx *g) {
  px_task_core *t = g->t;
  const goap_allocator *a = g->a;
  goap_status st = GOAP_OK;
  size_t natoms = px_tset_count(&t->atoms), ngacts = px_tset_count(&t->gacts);
  goap_builder *b;
  int32_t *var_of = NULL, *pre_stamp = NULL, *eff_stamp = NULL;
  int8_t *pre_val = NULL;
  goap_cond *conds = NULL;
  goap_effect *effs = NULL;
  size_t nv = 1, cconds = 0, ceffs = 0;
  cbuf name = {NULL, 0};
  int nvars = 0;
  int32_t args[PX_MAX_ARITY];
  if (goap_builder_create(a, &b) != GOAP_OK)
    return goap__px_error(t, -1, GOAP_OUT_OF_MEMORY, "out of memory");
  if (goap_builder_set_name(b, px_name(t, t->domain_sym)) != GOAP_OK) goto oom;

  var_of = (int32_t *)goap__px_alloc(a, (natoms ? natoms : 1) * sizeof *var_of);
  if (!var_of) goto oom;
  t->info.reachable_atoms = (int)natoms;
  for (size_t i = 0; i < natoms; ++i) {
    var_of[i] = -1;
    int32_t p = px_tset_id(&t->atoms, (int32_t)i);
    if (!t->preds[p].fluent) {
      t->info.static_atoms++;
      continue;
    }
    if (!atom_var_name(t, a, &name, p, px_tset_args(&t->atoms, (int32_t)i, NULL))) goto oom;
    goap_var_desc vd;
    memset(&vd, 0, sizeof vd);
    vd.name = name.s;
    vd.type = GOAP_BOOL;
    goap_status bs = goap_builder_add_var(b, &vd, &var_of[i]);
    if (bs != GOAP_OK) {
      st = goap__px_error(t, -1, bs, "variable '%s': %s", name.s, goap_builder_error(b)->message);
      goto done;
    }
    nvars++;
  }

  /* actions */
  nv = (size_t)(nvars ? nvars : 1);
  t->act_of = (int32_t *)goap__px_alloc(a, (ngacts ? ngacts : 1) * sizeof *t->act_of);
  t->act_of_n = ngacts ? ngacts : 1;
  pre_stamp = (int32_t *)goap__px_alloc(a, nv * sizeof *pre_stamp);
  eff_stamp = (int32_t *)goap__px_alloc(a, nv * sizeof *eff_stamp);
  pre_val = (int8_t *)goap__px_alloc(a, nv);
  if (!t->act_of || !pre_stamp || !eff_stamp || !pre_val) goto oom;
  for (size_t i = 0; i < nv; ++i) pre_stamp[i] = eff_stamp[i] = -1;
  int nact = 0;
  for (size_t e = 0; e < ngacts; ++e) {
    int32_t si = px_tset_id(&t->gacts, (int32_t)e);
    const px_schema *s = &t->schemas[si];
    memcpy(g->bind, px_tset_args(&t->gacts, (int32_t)e, NULL), (size_t)s->nparams * sizeof *g->bind);
    int npre = 0, neff = 0, contradiction = 0;
    if (!goap__grow(a, (void **)&conds, &cconds, (size_t)s->nlits + 1, sizeof *conds) ||
        !goap__grow(a, (void **)&effs, &ceffs, (size_t)s->nlits + 1, sizeof *effs))
      goto oom;
    /* preconditions, then adds, then deletes: an add wins over a delete of the same atom */
    for (int pass = 0; pass < 3; ++pass) {
      int want = pass == 0 ? PX_LIT_PRE : pass == 1 ? PX_LIT_ADD : PX_LIT_DEL;
      for (int32_t k = 0; k < s->nlits; ++k) {
        const px_lit *l = &t->lits[s->lit0 + k];
        if (l->kind != want || l->pred == PX_EQ || !t->preds[l->pred].fluent) continue;
        const int32_t *la = t->args.v + l->args;
        int n = t->preds[l->pred].arity;
        for (int i = 0; i < n; ++i) args[i] = lit_arg(g, la[i]);
        int32_t at = goap__px_tset_find(&t->atoms, l->pred, args, n);
        if (at < 0) continue; /* never true: its `not` holds, its delete changes nothing */
        int32_t v = var_of[at];
        if (pass == 0) {
          int8_t val = (int8_t)!l->neg;
          if (pre_stamp[v] == (int32_t)e) {
            if (pre_val[v] != val) contradiction = 1;
            continue;
          }
          pre_stamp[v] = (int32_t)e;
          pre_val[v] = val;
          conds[npre].var = v;
          conds[npre].op = GOAP_EQ;
          conds[npre].value = val;
          npre++;
        } else {
          if (eff_stamp[v] == (int32_t)e) continue; /* an add already set it, or a repeat */
          eff_stamp[v] = (int32_t)e;
          effs[neff].var = v;
          effs[neff].op = GOAP_SET;
          effs[neff].value = pass == 1 ? 1 : 0;
          neff++;
        }
      }
    }
    t->act_of[e] = -1;
    if (contradiction) continue;
    double cost = 1.0;
    if (t->metric && t->uses_costs) {
      cost = 0.0;
      if (s->cost_kind == PX_COST_CONST) {
        cost = s->cost_value;
      } else if (s->cost_kind == PX_COST_FUNC) {
        int n = t->funcs[s->cost_func].arity;
        const int32_t *ca = t->args.v + s->cost_args;
        for (int i = 0; i < n; ++i) args[i] = lit_arg(g, ca[i]);
        int32_t fe = goap__px_tset_find(&t->fvals, s->cost_func, args, n);
        if (fe < 0) {
          char buf[256];
          int o = snprintf(buf, sizeof buf, "(%s", px_name(t, t->funcs[s->cost_func].sym));
          for (int i = 0; i < n && o > 0 && (size_t)o < sizeof buf; ++i)
            o += snprintf(buf + o, sizeof buf - (size_t)o, " %s", px_name(t, t->objects[args[i]].sym));
          st = goap__px_error(t, s->cost_node, GOAP_NOT_FOUND, "no value for %s) in the problem's :init", buf);
          goto done;
        }
        cost = t->fval[fe];
        if (!(cost >= 0)) {
          st = goap__px_error(t, s->cost_node, GOAP_OUT_OF_RANGE, "a negative action cost (%g)", cost);
          goto done;
        }
      }
    }
    if (!action_name(t, a, &name, si, g->bind)) goto oom;
    goap_action_desc ad;
    memset(&ad, 0, sizeof ad);
    ad.name = name.s;
    ad.cost = cost;
    ad.pre = conds;
    ad.pre_count = npre;
    ad.eff = effs;
    ad.eff_count = neff;
    int id = -1;
    goap_status bs = goap_builder_add_action(b, &ad, &id);
    if (bs != GOAP_OK) {
      st = goap__px_error(t, s->node, bs, "action '%s': %s", name.s, goap_builder_error(b)->message);
      goto done;
    }
    t->act_of[e] = id;
    nact++;
  }
  /* invert: goap action id -> ground action entry (ids are given in entry order) */
  {
    int k = 0;
    for (size_t e = 0; e < ngacts; ++e)
      if (t->act_of[e] >= 0) t->act_of[k++] = (int32_t)e;
  }
  t->info.ground_actions = nact;
  t->info.variables = nvars;

  /* goal: literals decided by the grounding are dropped when they hold; one that can never
   * hold becomes a variable no action sets, so that the planner reports no plan */
  t->goal = (goap_cond *)goap__px_alloc(a, (size_t)(t->ngoal + 1) * sizeof *t->goal);
  if (!t->goal) goto oom;
  t->ngoalc = 0;
  int impossible = 0;
  for (int32_t k = 0; k < t->ngoal; ++k) {
    const px_lit *l = &t->lits[t->goal0 + k];
    const int32_t *la = t->args.v + l->args;
    if (l->pred == PX_EQ) {
      if ((la[0] == la[1]) == !!l->neg) impossible = 1;
      continue;
    }
    int32_t at = goap__px_tset_find(&t->atoms, l->pred, la, t->preds[l->pred].arity);
    int32_t v = at >= 0 ? var_of[at] : -1;
    if (v < 0) {
      if ((at >= 0) == !!l->neg) impossible = 1;
      continue;
    }
    int dup = 0;
    for (int i = 0; i < t->ngoalc; ++i)
      if (t->goal[i].var == v && t->goal[i].value == !l->neg) dup = 1;
    if (dup) continue;
    t->goal[t->ngoalc].var = v;
    t->goal[t->ngoalc].op = GOAP_EQ;
    t->goal[t->ngoalc].value = !l->neg;
    t->ngoalc++;
  }
  if (impossible) {
    goap_var_desc vd;
    memset(&vd, 0, sizeof vd);
    vd.name = "(a goal literal that can never hold)";
    vd.type = GOAP_BOOL;
    int v = -1;
    if (goap_builder_add_var(b, &vd, &v) != GOAP_OK) goto oom;
    t->goal[0].var = v;
    t->goal[0].op = GOAP_EQ;
    t->goal[0].value = 1;
    t->ngoalc = 1;
    t->info.variables++;
  }

  st = goap_builder_build(b, &t->domain);
  if (st != GOAP_OK) {
    st = goap__px_error(t, -1, st, "cannot build the domain: %s", goap_builder_error(b)->message);
    goto done;
  }
  t->start_words = goap_domain_state_words(t->domain) + 1;
  t->start = (goap_word *)goap__px_alloc(a, t->start_words * sizeof *t->start);
  if (!t->start) goto oom;
  goap_state_init(t->domain, t->start);
  for (size_t i = 0; i + 1 < t->init.n; i += 2) {
    int32_t p = t->init.v[i];
    int32_t at = goap__px_tset_find(&t->atoms, p, t->args.v + t->init.v[i + 1], t->preds[p].arity);
    if (at >= 0 && var_of[at] >= 0) goap_state_set(t->domain, t->start, var_of[at], 1);
  }
  goto done;
oom:
  st = goap__px_error(t, -1, GOAP_OUT_OF_MEMORY, "out of memory");
done:
  goap_builder_destroy(b);
  goap__px_free(a, var_of, (natoms ? natoms : 1) * sizeof *var_of);
  goap__px_free(a, pre_stamp, nv * sizeof *pre_stamp);
  goap__px_free(a, eff_stamp, nv * sizeof *eff_stamp);
  goap__px_free(a, pre_val, nv);
  goap__px_free(a, conds, cconds * sizeof *conds);
  goap__px_free(a, effs, ceffs * sizeof *effs);
  goap__px_free(a, name.s, name.cap);
  return st;
}

goap_status goap__px_ground(px_task_core *t) {
  gctx *g = (gctx *)goap__px_alloc(&t->alloc, sizeof *g);
  if (!g) return goap__px_error(t, -1, GOAP_OUT_OF_MEMORY, "out of memory");
  memset(g, 0, sizeof *g);
  g->t = t;
  g->a = &t->alloc;
  goap_status st = GOAP_OK;
  size_t np = t->npreds ? t->npreds : 1, nt = t->ntypes ? t->ntypes : 1;
  g->by_pred = (px_ivec *)goap__px_alloc(g->a, np * sizeof *g->by_pred);
  g->trig = (px_ivec *)goap__px_alloc(g->a, np * sizeof *g->trig);
  g->of_type = (px_ivec *)goap__px_alloc(g->a, nt * sizeof *g->of_type);
  if (g->by_pred) memset(g->by_pred, 0, np * sizeof *g->by_pred);
  if (g->trig) memset(g->trig, 0, np * sizeof *g->trig);
  if (g->of_type) memset(g->of_type, 0, nt * sizeof *g->of_type);
  g->maxp = g->maxl = 1;
  for (size_t si = 0; si < t->nschemas; ++si) {
    if ((size_t)t->schemas[si].nparams > g->maxp) g->maxp = (size_t)t->schemas[si].nparams;
    if ((size_t)t->schemas[si].nlits > g->maxl) g->maxl = (size_t)t->schemas[si].nlits;
  }
  g->bind = (int32_t *)goap__px_alloc(g->a, g->maxp * sizeof *g->bind);
  g->pos = (int32_t *)goap__px_alloc(g->a, g->maxl * sizeof *g->pos);
  g->done = (uint8_t *)goap__px_alloc(g->a, g->maxl);
  if (!g->by_pred || !g->trig || !g->of_type || !g->bind || !g->pos || !g->done) {
    st = goap__px_error(t, -1, GOAP_OUT_OF_MEMORY, "out of memory");
    goto done;
  }
  for (size_t o = 0; o < t->nobjects; ++o)
    for (size_t ty = 0; ty < t->ntypes; ++ty)
      if (t->is_a[o * t->ntypes + ty] && !goap__px_ipush(g->a, &g->of_type[ty], (int32_t)o)) goto oom;
  for (size_t si = 0; si < t->nschemas; ++si) {
    const px_schema *s = &t->schemas[si];
    for (int32_t k = 0; k < s->nlits; ++k) {
      const px_lit *l = &t->lits[s->lit0 + k];
      if (l->kind == PX_LIT_PRE && !l->neg && l->pred >= 0)
        if (!goap__px_ipush(g->a, &g->trig[l->pred], (int32_t)si) ||
            !goap__px_ipush(g->a, &g->trig[l->pred], s->lit0 + k))
          goto oom;
    }
  }
  /* the initial atoms */
  for (size_t i = 0; i + 1 < t->init.n; i += 2) {
    int32_t p = t->init.v[i];
    if (px_tset_count(&t->atoms) >= t->opt.max_atoms) {
      st = too_large(g, "ground atoms", t->opt.max_atoms);
      goto done;
    }
    if (goap__px_tset_add(g->a, &t->atoms, p, t->args.v + t->init.v[i + 1], t->preds[p].arity, NULL) < 0)
      goto oom;
  }
  t->info.init_atoms = (int)(t->init.n / 2);
  /* schemas without positive preconditions: bound by their types alone, once */
  for (size_t si = 0; si < t->nschemas; ++si) {
    schema_pos(g, (int32_t)si);
    if (g->npos == 0 && (st = join(g, (int32_t)si, 0)) != GOAP_OK) goto done;
  }
  while ((size_t)g->head < px_tset_count(&t->atoms))
    if ((st = process(g, g->head)) != GOAP_OK) goto done;
  st = compile(g);
  goto done;
oom:
  st = goap__px_error(t, -1, GOAP_OUT_OF_MEMORY, "out of memory");
done:
  for (size_t i = 0; g->by_pred && i < np; ++i) goap__px_ivec_free(g->a, &g->by_pred[i]);
  for (size_t i = 0; g->trig && i < np; ++i) goap__px_ivec_free(g->a, &g->trig[i]);
  for (size_t i = 0; g->of_type && i < nt; ++i) goap__px_ivec_free(g->a, &g->of_type[i]);
  goap__px_free(g->a, g->by_pred, np * sizeof *g->by_pred);
  goap__px_free(g->a, g->trig, np * sizeof *g->trig);
  goap__px_free(g->a, g->of_type, nt * sizeof *g->of_type);
  for (size_t i = 0; i < g->nlists; ++i) goap__px_ivec_free(g->a, &g->lists[i]);
  goap__px_free(g->a, g->lists, g->clists * sizeof *g->lists);
  goap__px_tset_free(g->a, &g->pidx);
  goap__px_free(g->a, g->bind, g->maxp * sizeof *g->bind);
  goap__px_free(g->a, g->pos, g->maxl * sizeof *g->pos);
  goap__px_free(g->a, g->done, g->maxl);
  goap__px_free(&t->alloc, g, sizeof *g);
  if (st == GOAP_OK) t->grounded = 1;
  return st;
}

void goap__px_ground_free(px_task_core *t) {
  goap_domain_destroy(t->domain);
  t->domain = NULL;
  goap__px_free(&t->alloc, t->start, t->start_words * sizeof *t->start);
  t->start = NULL;
  goap__px_free(&t->alloc, t->goal, (size_t)(t->ngoal + 1) * sizeof *t->goal);
  t->goal = NULL;
  goap__px_free(&t->alloc, t->act_of, t->act_of_n * sizeof *t->act_of);
  t->act_of = NULL;
  goap__px_tset_free(&t->alloc, &t->atoms);
  goap__px_tset_free(&t->alloc, &t->gacts);
}
