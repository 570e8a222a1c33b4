/*
 * symmetry.c -- orbit search: classes of interchangeable members and generators (goap_symmetry),
 * their check, the canonical form of a state and the mapping of a plan back onto real actions.
 *
 * Invariants:
 *  - A class's group is the symmetric group on its members; the classes' slots are disjoint,
 *    so the whole group is the product of those groups and a state's canonical form is exact:
 *    per class, the members' slot tuples (their variables' encoded values, in slot order)
 *    sorted lexicographically, ties kept in member order (a stable insertion sort), so the
 *    form is deterministic and two states of one orbit get the same one.
 *  - A permutation `perm` maps a member to its new position: canon(s)'s member perm[m] holds
 *    s's member m's tuple. It is stored per class at classes[c].member_base.
 *  - The planner's tables (goap__sym in planner.h) are sized at begin through
 *    goap__planner_grow; canonicalising and mapping back allocate nothing.
 *  - goap_symmetry_check reads the domain only; its temporary arrays come from the domain's
 *    allocator and are freed before it returns.
 *  - Generators (goap_symmetry_generator) come after the classes: canon = the classes' sort,
 *    then a greedy descent (a generator is applied while it makes the state smaller in
 *    variable order). Every step is an automorphism and strictly decreases the state, so the
 *    form is in the state's orbit, deterministic and reached in finitely many steps; it may
 *    differ between two states of one orbit (only fewer states pruned). With generators the
 *    plan and the inherited landmarks are mapped through whole action permutations
 *    (act_perm), recomputing each canonical successor exactly as the search did (canon for
 *    the start, canon_after for successors), so the mapped plan replays from the real start.
 */
#include <stdlib.h>
#include <string.h>

#include "planner.h"

/* ---- shape ---------------------------------------------------------------------------------- */

static int same_kind(const goap__var *a, const goap__var *b) {
  return a->type == b->type && a->lo == b->lo && a->hi == b->hi && a->nvalues == b->nvalues;
}

goap_status goap__sym_shape(const goap_domain *d, const goap_symmetry *sym, int32_t *vmark,
                            int32_t *aslot) {
  if (!d || !sym || sym->class_count < 0 || (sym->class_count > 0 && !sym->classes))
    return GOAP_INVALID_ARGUMENT;
  for (int v = 0; v < d->nvars; ++v) vmark[v] = -1;
  for (int a = 0; a < d->nactions; ++a) aslot[a] = -1;
  int32_t k = 0; /* slot actions so far */
  for (int c = 0; c < sym->class_count; ++c) {
    const goap_symmetry_class *x = &sym->classes[c];
    if (x->members < 2 || x->slot_vars < 1 || x->slot_actions < 0 || !x->vars ||
        (x->slot_actions > 0 && !x->actions))
      return GOAP_INVALID_ARGUMENT;
    /* disjoint slots: a class never holds more variables or actions than the domain */
    int64_t nv = (int64_t)x->members * x->slot_vars;
    int64_t na = (int64_t)x->members * x->slot_actions;
    if (nv > d->nvars || na > d->nactions) return GOAP_INVALID_ARGUMENT;
    for (int64_t i = 0; i < nv; ++i) {
      int32_t v = x->vars[i];
      if (v < 0 || v >= d->nvars || vmark[v] >= 0) return GOAP_INVALID_ARGUMENT;
      vmark[v] = c;
      int32_t v0 = x->vars[i % x->slot_vars]; /* member 0's variable at this position */
      if (!same_kind(&d->vars[v], &d->vars[v0])) return GOAP_INVALID_ARGUMENT;
    }
    for (int64_t i = 0; i < na; ++i) {
      int32_t a = x->actions[i];
      if (a < 0 || a >= d->nactions || aslot[a] >= 0) return GOAP_INVALID_ARGUMENT;
      aslot[a] = k++;
    }
  }
  if (sym->generator_count < 0 || (sym->generator_count > 0 && !sym->generators))
    return GOAP_INVALID_ARGUMENT;
  return GOAP_OK;
}

/* Are the pairs (from, to) of ids in [0, n) a permutation of the ids they mention (each once
 * as a source, once as an image)? src and img (n each) hold stamps: entries equal to `tok`
 * are this call's; any other value is ignored (callers fill them with -1 first). */
static int pairs_perm(const int32_t *pairs, int count, int n, int32_t *src, int32_t *img,
                      int32_t tok) {
  for (int i = 0; i < count; ++i) {
    int32_t f = pairs[2 * i], t = pairs[2 * i + 1];
    if (f < 0 || f >= n || t < 0 || t >= n || src[f] == tok || img[t] == tok) return 0;
    src[f] = tok;
    img[t] = tok;
  }
  for (int i = 0; i < count; ++i)
    if (img[pairs[2 * i]] != tok) return 0;
  return 1;
}

/* The generators' shape: each a permutation of variables (pairs of one kind) and of actions.
 * vs, vi (nvars) and as, ai (nactions) are stamp scratch. */
static goap_status gens_shape(const goap_domain *d, const goap_symmetry *sym, int32_t *vs,
                              int32_t *vi, int32_t *as, int32_t *ai) {
  for (int v = 0; v < d->nvars; ++v) vs[v] = vi[v] = -1;
  for (int a = 0; a < d->nactions; ++a) as[a] = ai[a] = -1;
  for (int g = 0; g < sym->generator_count; ++g) {
    const goap_symmetry_generator *x = &sym->generators[g];
    if (x->var_count < 1 || x->var_count > d->nvars || !x->vars || x->action_count < 0 ||
        x->action_count > d->nactions || (x->action_count > 0 && !x->actions))
      return GOAP_INVALID_ARGUMENT;
    if (!pairs_perm(x->vars, x->var_count, d->nvars, vs, vi, g) ||
        !pairs_perm(x->actions, x->action_count, d->nactions, as, ai, g))
      return GOAP_INVALID_ARGUMENT;
    for (int i = 0; i < x->var_count; ++i)
      if (!same_kind(&d->vars[x->vars[2 * i]], &d->vars[x->vars[2 * i + 1]]))
        return GOAP_INVALID_ARGUMENT;
  }
  return GOAP_OK;
}

/* ---- goap_symmetry_check -------------------------------------------------------------------- */

/* A condition or an effect, as the checks compare them: (variable, operator, value). */
typedef struct sym_item {
  int32_t var, op, value;
} sym_item;

static int item_cmp(const void *pa, const void *pb) {
  const sym_item *a = (const sym_item *)pa, *b = (const sym_item *)pb;
  if (a->var != b->var) return a->var < b->var ? -1 : 1;
  if (a->op != b->op) return a->op < b->op ? -1 : 1;
  if (a->value != b->value) return a->value < b->value ? -1 : 1;
  return 0;
}

/* Are buf[0, n) and buf[n, 2n) equal as sets? (Sorts both halves.) */
static int same_set(sym_item *buf, int n) {
  qsort(buf, (size_t)n, sizeof *buf, item_cmp);
  qsort(buf + n, (size_t)n, sizeof *buf, item_cmp);
  for (int i = 0; i < n; ++i)
    if (item_cmp(&buf[i], &buf[n + i]) != 0) return 0;
  return 1;
}

/* Does renaming the variables of conditions x by vmap give conditions y (n each), as sets? */
static int conds_map(const int32_t *vmap, const goap_cond *x, const goap_cond *y, int n,
                     sym_item *buf) {
  for (int i = 0; i < n; ++i) {
    buf[i] = (sym_item){vmap[x[i].var], (int32_t)x[i].op, x[i].value};
    buf[n + i] = (sym_item){y[i].var, (int32_t)y[i].op, y[i].value};
  }
  return same_set(buf, n);
}

/* The same for effects. */
static int effs_map(const int32_t *vmap, const goap_effect *x, const goap_effect *y, int n,
                    sym_item *buf) {
  for (int i = 0; i < n; ++i) {
    buf[i] = (sym_item){vmap[x[i].var], (int32_t)x[i].op, x[i].value};
    buf[n + i] = (sym_item){y[i].var, (int32_t)y[i].op, y[i].value};
  }
  return same_set(buf, n);
}

/* Are the renamings vmap (variables) and amap (actions) an automorphism of d and of the goal?
 * An action that moves must have no dynamic-cost callback. */
static int perm_ok(const goap_domain *d, const int32_t *vmap, const int32_t *amap,
                   const goap_cond *want, int nwant, sym_item *buf) {
  int ok = 1;
  for (int a = 0; a < d->nactions && ok; ++a) {
    const goap__action *p = &d->actions[a], *q = &d->actions[amap[a]];
    if (amap[a] != a && p->dyn_cost) ok = 0;
    else if (p->cost != q->cost || p->npre != q->npre || p->neff != q->neff) ok = 0;
    else ok = conds_map(vmap, p->pre, q->pre, p->npre, buf) &&
              effs_map(vmap, p->eff, q->eff, p->neff, buf);
  }
  return ok && conds_map(vmap, want, want, nwant, buf);
}

/* Is the member permutation sigma of class x an automorphism of d and of the goal? vmap and
 * amap are identities on entry and on return. */
static int generator_ok(const goap_domain *d, const goap_symmetry_class *x, const int *sigma,
                        int32_t *vmap, int32_t *amap, const goap_cond *want, int nwant,
                        sym_item *buf) {
  int m = x->members, sv = x->slot_vars, sa = x->slot_actions;
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < sv; ++j) vmap[x->vars[i * sv + j]] = x->vars[sigma[i] * sv + j];
    for (int j = 0; j < sa; ++j) amap[x->actions[i * sa + j]] = x->actions[sigma[i] * sa + j];
  }
  int ok = perm_ok(d, vmap, amap, want, nwant, buf);
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < sv; ++j) vmap[x->vars[i * sv + j]] = x->vars[i * sv + j];
    for (int j = 0; j < sa; ++j) amap[x->actions[i * sa + j]] = x->actions[i * sa + j];
  }
  return ok;
}

goap_status goap_symmetry_check(const goap_domain *d, const goap_symmetry *sym,
                                const goap_cond *want, int want_count) {
  if (!d || !sym || want_count < 0 || (want_count > 0 && !want)) return GOAP_INVALID_ARGUMENT;
  char msg[8];
  for (int i = 0; i < want_count; ++i)
    if (goap__check_cond(d->vars, d->nvars, &want[i], msg, sizeof msg) != GOAP_OK)
      return GOAP_INVALID_ARGUMENT;
  size_t V = (size_t)d->nvars + 1, A = (size_t)d->nactions + 1;
  int maxc = want_count, maxe = 1, maxm = 2;
  for (int a = 0; a < d->nactions; ++a) {
    if (d->actions[a].npre > maxc) maxc = d->actions[a].npre;
    if (d->actions[a].neff > maxe) maxe = d->actions[a].neff;
  }
  if (sym->class_count > 0 && sym->classes)
    for (int c = 0; c < sym->class_count; ++c)
      if (sym->classes[c].members > maxm && sym->classes[c].members <= d->nvars)
        maxm = sym->classes[c].members;
  size_t ni = 2 * (size_t)(maxc > maxe ? maxc : maxe), nm = (size_t)maxm;
  size_t bytes = 4 * V * sizeof(int32_t) + 4 * A * sizeof(int32_t) + ni * sizeof(sym_item) +
                 nm * sizeof(int);
  /* one block: the compared items first, then the int arrays */
  char *blk = (char *)goap__alloc(&d->alloc, bytes);
  if (!blk) return GOAP_OUT_OF_MEMORY;
  sym_item *buf = (sym_item *)(void *)blk;
  int32_t *vmark = (int32_t *)(void *)(blk + ni * sizeof(sym_item));
  int32_t *vmap = vmark + V, *aslot = vmap + V, *amap = aslot + A;
  int32_t *vs = amap + A, *vi = vs + V, *as = vi + V, *ai = as + A;
  int *sigma = (int *)(void *)(ai + A);
  goap_status st = goap__sym_shape(d, sym, vmark, aslot);
  if (st == GOAP_OK) st = gens_shape(d, sym, vs, vi, as, ai);
  if (st == GOAP_OK) {
    for (int v = 0; v < d->nvars; ++v) vmap[v] = v;
    for (int a = 0; a < d->nactions; ++a) amap[a] = a;
    for (int c = 0; c < sym->class_count && st == GOAP_OK; ++c) {
      const goap_symmetry_class *x = &sym->classes[c];
      int m = x->members;
      /* the swap of members 0 and 1, then the cycle 0 -> 1 -> ... -> m-1 -> 0: together they
       * generate the symmetric group on the members */
      for (int i = 0; i < m; ++i) sigma[i] = i;
      sigma[0] = 1;
      sigma[1] = 0;
      if (!generator_ok(d, x, sigma, vmap, amap, want, want_count, buf))
        st = GOAP_INVALID_ARGUMENT;
      for (int i = 0; i < m; ++i) sigma[i] = (i + 1) % m;
      if (st == GOAP_OK && m > 2 && !generator_ok(d, x, sigma, vmap, amap, want, want_count, buf))
        st = GOAP_INVALID_ARGUMENT;
    }
    for (int g = 0; g < sym->generator_count && st == GOAP_OK; ++g) {
      const goap_symmetry_generator *x = &sym->generators[g];
      for (int i = 0; i < x->var_count; ++i) vmap[x->vars[2 * i]] = x->vars[2 * i + 1];
      for (int i = 0; i < x->action_count; ++i) amap[x->actions[2 * i]] = x->actions[2 * i + 1];
      if (!perm_ok(d, vmap, amap, want, want_count, buf)) st = GOAP_INVALID_ARGUMENT;
      for (int i = 0; i < x->var_count; ++i) vmap[x->vars[2 * i]] = x->vars[2 * i];
      for (int i = 0; i < x->action_count; ++i) amap[x->actions[2 * i]] = x->actions[2 * i];
    }
  }
  goap__free(&d->alloc, blk, bytes);
  return st;
}

/* ---- the planner's tables ------------------------------------------------------------------- */

#define GROW(field, cap, n)                                                                   \
  do {                                                                                        \
    goap_status g_ = goap__planner_grow(p, (void **)&y->field, &y->cap, (n) ? (n) : 1,        \
                                        sizeof *y->field);                                    \
    if (g_ != GOAP_OK) return g_;                                                             \
  } while (0)

goap_status goap__sym_setup(goap_planner *p, const goap_symmetry *sym) {
  goap__sym *y = &p->sym;
  const goap_domain *d = p->d;
  y->on = 0;
  y->nclasses = 0;
  GROW(var_class, cap_var_class, (size_t)d->nvars);
  GROW(act_slot, cap_act_slot, (size_t)d->nactions);
  goap_status st = goap__sym_shape(d, sym, y->var_class, y->act_slot);
  if (st != GOAP_OK) return st;
  size_t nf = 0, na = 0, nm = 0, tup = 0, ord = 0, nk = 0;
  for (int c = 0; c < sym->class_count; ++c) {
    const goap_symmetry_class *x = &sym->classes[c];
    size_t m = (size_t)x->members;
    nk += (size_t)x->slot_vars;
    nf += m * (size_t)x->slot_vars;
    na += m * (size_t)x->slot_actions;
    nm += m;
    if (m * (size_t)x->slot_vars > tup) tup = m * (size_t)x->slot_vars;
    if (m > ord) ord = m;
  }
  GROW(classes, cap_classes, (size_t)sym->class_count);
  GROW(fields, cap_fields, nf);
  GROW(slot_acts, cap_slot_acts, na);
  GROW(tuple_keys, cap_tuple_keys, tup);
  GROW(member_order, cap_member_order, ord);
  GROW(rho, cap_rho, nm);
  GROW(pi, cap_pi, nm);
  GROW(map_state, cap_map_state, (size_t)p->W);
  GROW(key_shift, cap_key_shift, nk);
  GROW(act_class_mask, cap_act_class_mask, (size_t)d->nactions);
  size_t nbatch = (size_t)d->nactions * p->W;
  GROW(batch, cap_batch, nbatch);
  GROW(batch_act, cap_batch_act, (size_t)d->nactions);
  GROW(batch_hash, cap_batch_hash, (size_t)d->nactions);
  for (int a = 0; a < d->nactions; ++a) {
    uint64_t mk = 0;
    for (int k = 0; k < d->actions[a].neff; ++k) {
      int32_t c = y->var_class[d->actions[a].eff[k].var];
      if (c >= 0) mk |= (uint64_t)1 << (c < 63 ? c : 63);
    }
    y->act_class_mask[a] = mk;
  }
  uint32_t fb = 0, ab = 0, mb = 0, kb = 0;
  for (int c = 0; c < sym->class_count; ++c) {
    const goap_symmetry_class *x = &sym->classes[c];
    goap__symcls *k = &y->classes[c];
    k->members = x->members;
    k->slot_vars = x->slot_vars;
    k->slot_actions = x->slot_actions;
    k->field_base = fb;
    k->act_base = ab;
    k->member_base = mb;
    k->shift_base = kb;
    /* a packed key: the positions' bit widths (member 0's fields; every member's match) */
    uint32_t bits = 0;
    for (int j = 0; j < x->slot_vars; ++j) {
      uint64_t fm = d->vars[x->vars[j]].fmask;
      uint32_t w = 0;
      while (w < 64 && (fm >> w)) ++w;
      bits += w;
    }
    k->packed = bits <= 64;
    for (int j = 0, at = (int)bits; j < x->slot_vars; ++j) {
      uint64_t fm = d->vars[x->vars[j]].fmask;
      int w = 0;
      while (w < 64 && (fm >> w)) ++w;
      at -= w;
      y->key_shift[kb + (uint32_t)j] = k->packed ? (uint32_t)at : 0;
    }
    kb += (uint32_t)x->slot_vars;
    for (int i = 0; i < x->members * x->slot_vars; ++i) {
      const goap__var *v = &d->vars[x->vars[i]];
      y->fields[fb].word = v->word;
      y->fields[fb].shift = v->shift;
      y->fields[fb].fmask = v->fmask;
      ++fb;
    }
    for (int i = 0; i < x->members * x->slot_actions; ++i) y->slot_acts[ab++] = x->actions[i];
    mb += (uint32_t)x->members;
  }
  y->nclasses = sym->class_count;
  y->slot_total = (int32_t)ab;
  y->ngens = 0;
  if (sym->generator_count > 0) {
    /* scratch of 2 * max(nvars, nactions) in each of act_perm and act_tmp: the shape check's
     * stamps, then a variable's source per generator; afterwards nactions each (the whole
     * action permutations of mapping back) */
    size_t big = (size_t)(d->nvars > d->nactions ? d->nvars : d->nactions);
    size_t big2 = 2 * big, nma2;
    GROW(act_perm, cap_act_perm, big2);
    GROW(act_tmp, cap_act_tmp, big2);
    GROW(pi, cap_pi, nm > (size_t)d->nactions ? nm : (size_t)d->nactions);
    int32_t *vs = y->act_perm, *vi = vs + big, *as = y->act_tmp, *ai = as + big;
    st = gens_shape(d, sym, vs, vi, as, ai);
    if (st != GOAP_OK) return st;
    size_t nmv = 0, nma = 0, most = tup;
    for (int g = 0; g < sym->generator_count; ++g) {
      nmv += (size_t)sym->generators[g].var_count;
      nma += (size_t)sym->generators[g].action_count;
      if ((size_t)sym->generators[g].var_count > most) most = (size_t)sym->generators[g].var_count;
    }
    GROW(gen_off, cap_gen_off, (size_t)sym->generator_count + 1);
    GROW(gen_aoff, cap_gen_aoff, (size_t)sym->generator_count + 1);
    GROW(gen_dst, cap_gen_dst, nmv);
    GROW(gen_src, cap_gen_src, nmv);
    nma2 = 2 * nma;
    GROW(gen_act, cap_gen_act, nma2);
    GROW(tuple_keys, cap_tuple_keys, most);
    int32_t *srcof = y->act_perm; /* variable -> its source under generator g, or -1 */
    for (int v = 0; v < d->nvars; ++v) srcof[v] = -1;
    uint32_t at = 0, aat = 0;
    for (int g = 0; g < sym->generator_count; ++g) {
      const goap_symmetry_generator *x = &sym->generators[g];
      y->gen_off[g] = at;
      y->gen_aoff[g] = aat;
      for (int i = 0; i < x->var_count; ++i) srcof[x->vars[2 * i + 1]] = x->vars[2 * i];
      for (int v = 0; v < d->nvars; ++v) { /* in destination order: the order states compare in */
        if (srcof[v] < 0) continue;
        const goap__var *dv = &d->vars[v], *sv = &d->vars[srcof[v]];
        y->gen_dst[at] = (goap__symfld){dv->word, dv->shift, dv->fmask};
        y->gen_src[at] = (goap__symfld){sv->word, sv->shift, sv->fmask};
        ++at;
        srcof[v] = -1;
      }
      for (int i = 0; i < x->action_count; ++i) {
        int32_t f = x->actions[2 * i], t = x->actions[2 * i + 1];
        y->gen_act[2 * aat] = f;
        y->gen_act[2 * aat + 1] = t;
        ++aat;
        if (y->act_slot[f] < 0) y->act_slot[f] = y->slot_total; /* moved, in no slot */
      }
    }
    y->gen_off[sym->generator_count] = at;
    y->gen_aoff[sym->generator_count] = aat;
    GROW(gen_touch, cap_gen_touch, (size_t)d->nactions);
    for (int g = 0; g < sym->generator_count; ++g) /* srcof: 1 for a moved variable */
      for (int i = 0; i < sym->generators[g].var_count; ++i) srcof[sym->generators[g].vars[2 * i]] = 1;
    for (int a = 0; a < d->nactions; ++a) {
      y->gen_touch[a] = 0;
      for (int k = 0; k < d->actions[a].neff; ++k)
        if (srcof[d->actions[a].eff[k].var] > 0) y->gen_touch[a] = 1;
    }
    for (int a = 0; a < d->nactions; ++a) y->act_tmp[a] = a; /* kept the identity at rest */
    y->ngens = sym->generator_count;
  }
  y->on = 1;
  return GOAP_OK;
}

#undef GROW

int goap__sym_active_ok(const goap_planner *p) {
  const goap__sym *y = &p->sym;
  for (int c = 0; c < y->nclasses; ++c) {
    const goap__symcls *k = &y->classes[c];
    int sa = k->slot_actions;
    for (int j = 0; j < sa; ++j) {
      int32_t a0 = y->slot_acts[k->act_base + (uint32_t)j];
      int on0 = p->act2idx[a0] >= 0;
      for (int i = 1; i < k->members; ++i) {
        int32_t a = y->slot_acts[k->act_base + (uint32_t)(i * sa + j)];
        if ((p->act2idx[a] >= 0) != on0) return 0;
        if (on0 && p->acost[a] != p->acost[a0]) return 0;
      }
    }
  }
  for (uint32_t i = 0; y->ngens > 0 && i < y->gen_aoff[y->ngens]; ++i) {
    int32_t f = y->gen_act[2 * i], t = y->gen_act[2 * i + 1];
    int on = p->act2idx[f] >= 0;
    if ((p->act2idx[t] >= 0) != on || (on && p->acost[f] != p->acost[t])) return 0;
  }
  return 1;
}

void goap__sym_free(goap_planner *p) {
  goap__sym *y = &p->sym;
  const goap_allocator *al = &p->alloc;
  goap__free(al, y->classes, y->cap_classes * sizeof *y->classes);
  goap__free(al, y->fields, y->cap_fields * sizeof *y->fields);
  goap__free(al, y->slot_acts, y->cap_slot_acts * sizeof *y->slot_acts);
  goap__free(al, y->act_slot, y->cap_act_slot * sizeof *y->act_slot);
  goap__free(al, y->var_class, y->cap_var_class * sizeof *y->var_class);
  goap__free(al, y->tuple_keys, y->cap_tuple_keys * sizeof *y->tuple_keys);
  goap__free(al, y->member_order, y->cap_member_order * sizeof *y->member_order);
  goap__free(al, y->rho, y->cap_rho * sizeof *y->rho);
  goap__free(al, y->pi, y->cap_pi * sizeof *y->pi);
  goap__free(al, y->map_state, y->cap_map_state * sizeof *y->map_state);
  goap__free(al, y->key_shift, y->cap_key_shift * sizeof *y->key_shift);
  goap__free(al, y->act_class_mask, y->cap_act_class_mask * sizeof *y->act_class_mask);
  goap__free(al, y->gen_off, y->cap_gen_off * sizeof *y->gen_off);
  goap__free(al, y->gen_aoff, y->cap_gen_aoff * sizeof *y->gen_aoff);
  goap__free(al, y->gen_dst, y->cap_gen_dst * sizeof *y->gen_dst);
  goap__free(al, y->gen_src, y->cap_gen_src * sizeof *y->gen_src);
  goap__free(al, y->gen_act, y->cap_gen_act * sizeof *y->gen_act);
  goap__free(al, y->act_perm, y->cap_act_perm * sizeof *y->act_perm);
  goap__free(al, y->act_tmp, y->cap_act_tmp * sizeof *y->act_tmp);
  goap__free(al, y->gen_touch, y->cap_gen_touch * sizeof *y->gen_touch);
  goap__free(al, y->batch, y->cap_batch * sizeof *y->batch);
  goap__free(al, y->batch_act, y->cap_batch_act * sizeof *y->batch_act);
  goap__free(al, y->batch_hash, y->cap_batch_hash * sizeof *y->batch_hash);
  memset(y, 0, sizeof *y);
}

/* ---- canonical form ------------------------------------------------------------------------- */

static inline int row_less(const uint64_t *a, const uint64_t *b, int n) {
  for (int j = 0; j < n; ++j)
    if (a[j] != b[j]) return a[j] < b[j];
  return 0;
}

static int canon_classes(goap__sym *y, goap_word *s, int32_t *perm, uint64_t mask) {
  int changed = 0;
  uint64_t *t = y->tuple_keys;
  int32_t *o = y->member_order;
  for (int c = 0; c < y->nclasses; ++c) {
    const goap__symcls *k = &y->classes[c];
    if (!((mask >> (c < 63 ? c : 63)) & 1u)) {
      if (perm)
        for (int q = 0; q < k->members; ++q) perm[k->member_base + (uint32_t)q] = q;
      continue;
    }
    const goap__symfld *f = y->fields + k->field_base;
    int m = k->members, sv = k->slot_vars, moved = 0;
    if (k->packed) { /* one key per member: the tuple in a word, compared at once */
      const uint32_t *ksh = y->key_shift + k->shift_base;
      for (int i = 0; i < m; ++i) {
        uint64_t key = 0;
        for (int j = 0; j < sv; ++j) {
          const goap__symfld *x = &f[i * sv + j];
          key |= goap__field_get(s, x->word, x->shift, x->fmask) << ksh[j];
        }
        t[i] = key;
        int q = i;
        while (q > 0 && key < t[o[q - 1]]) {
          o[q] = o[q - 1];
          --q;
        }
        o[q] = i;
        moved |= q != i;
      }
      if (moved) {
        changed = 1;
        for (int q = 0; q < m; ++q) {
          if (o[q] == q) continue;
          uint64_t key = t[o[q]];
          for (int j = 0; j < sv; ++j) {
            const goap__symfld *x = &f[q * sv + j];
            goap__field_put(s, x->word, x->shift, x->fmask, (key >> ksh[j]) & x->fmask);
          }
        }
      }
      if (perm)
        for (int q = 0; q < m; ++q) perm[k->member_base + (uint32_t)o[q]] = q;
      continue;
    }
    /* read each member's tuple and insert the member into the sorted order (stable: a member
     * goes after the equal ones before it); a canonical parent's successor differs in a few
     * members, so the order is nearly sorted and the insertion nearly linear */
    for (int i = 0; i < m; ++i) {
      uint64_t *row = t + (size_t)i * (size_t)sv;
      for (int j = 0; j < sv; ++j) {
        const goap__symfld *x = &f[i * sv + j];
        row[j] = goap__field_get(s, x->word, x->shift, x->fmask);
      }
      int q = i;
      while (q > 0 && row_less(row, t + (size_t)o[q - 1] * (size_t)sv, sv)) {
        o[q] = o[q - 1];
        --q;
      }
      o[q] = i;
      moved |= q != i;
    }
    if (moved) {
      changed = 1;
      for (int q = 0; q < m; ++q) {
        if (o[q] == q) continue;
        const uint64_t *row = t + (size_t)o[q] * (size_t)sv;
        for (int j = 0; j < sv; ++j) {
          const goap__symfld *x = &f[q * sv + j];
          goap__field_put(s, x->word, x->shift, x->fmask, row[j]);
        }
      }
    }
    if (perm)
      for (int q = 0; q < m; ++q) perm[k->member_base + (uint32_t)o[q]] = q;
  }
  return changed;
}

/* Composes the whole action permutation full (nactions) with generator g: full[x] =
 * g(full[x]). act_tmp is the identity on entry and on return. */
static void compose_gen(goap__sym *y, int32_t *full, int nactions, int g) {
  int32_t *t = y->act_tmp;
  uint32_t b = y->gen_aoff[g], e = y->gen_aoff[g + 1];
  if (b == e) return;
  for (uint32_t i = b; i < e; ++i) t[y->gen_act[2 * i]] = y->gen_act[2 * i + 1];
  for (int x = 0; x < nactions; ++x) full[x] = t[full[x]];
  for (uint32_t i = b; i < e; ++i) t[y->gen_act[2 * i]] = y->gen_act[2 * i];
}

/* The greedy descent: applies a generator whenever the state it gives is smaller (compared
 * over the generator's destination variables in variable order, the only ones it changes),
 * until no generator makes the state smaller. Each step makes the state strictly smaller,
 * so it ends. full (NULL: not wanted; nactions entries) is composed with each generator
 * applied. Returns non-zero when s changed. */
static int gens_descend(goap__sym *y, goap_word *s, int32_t *full, int nactions) {
  int changed = 0, again = 1;
  uint64_t *t = y->tuple_keys;
  while (again) {
    again = 0;
    for (int g = 0; g < y->ngens; ++g) {
      uint32_t b = y->gen_off[g], e = y->gen_off[g + 1];
      int less = 0;
      for (uint32_t i = b; i < e; ++i) {
        const goap__symfld *fd = &y->gen_dst[i], *fs = &y->gen_src[i];
        uint64_t img = goap__field_get(s, fs->word, fs->shift, fs->fmask);
        uint64_t cur = goap__field_get(s, fd->word, fd->shift, fd->fmask);
        if (img != cur) {
          less = img < cur;
          break;
        }
      }
      if (!less) continue;
      for (uint32_t i = b; i < e; ++i) {
        const goap__symfld *fs = &y->gen_src[i];
        t[i - b] = goap__field_get(s, fs->word, fs->shift, fs->fmask);
      }
      for (uint32_t i = b; i < e; ++i) {
        const goap__symfld *fd = &y->gen_dst[i];
        goap__field_put(s, fd->word, fd->shift, fd->fmask, t[i - b]);
      }
      if (full) compose_gen(y, full, nactions, g);
      changed = again = 1;
    }
  }
  return changed;
}


/* The image of action a under the classes' member permutation perm (an action in no slot is
 * its own). */
static int32_t class_image(const goap__sym *y, const int32_t *perm, int32_t a) {
  int32_t k = y->act_slot[a];
  if (k < 0 || k >= y->slot_total) return a;
  int c = 0;
  while (c + 1 < y->nclasses && (int32_t)y->classes[c + 1].act_base <= k) ++c;
  const goap__symcls *x = &y->classes[c];
  int sa = x->slot_actions, off = k - (int32_t)x->act_base;
  int m = off / sa, j = off % sa;
  return y->slot_acts[x->act_base + (uint32_t)(perm[x->member_base + (uint32_t)m] * sa + j)];
}

/* The canonical form of s: the classes' sort (of the classes action a writes; a < 0: all),
 * then, with generators, the descent. perm (no generators only; NULL: not wanted) receives the classes'
 * member permutation. full (NULL: not wanted; generators only) is composed with everything
 * applied: full[x] = canon(full[x]) (rho is then the classes' scratch). Deterministic: the
 * search, the mapping back and the landmarks' mapping all call it. */
static int canon_core(goap__sym *y, goap_word *s, int32_t a, int32_t *perm, int32_t *full,
                      int nactions) {
  uint64_t mask = a < 0 ? ~(uint64_t)0 : y->act_class_mask[a];
  int32_t *mp = full ? y->rho : perm;
  int c = canon_classes(y, s, mp, mask);
  if (full && c)
    for (int x = 0; x < nactions; ++x) full[x] = class_image(y, y->rho, full[x]);
  /* the parent is a fixpoint, and each generator compares only variables it moves: when
   * neither a nor the classes' sort wrote one, the descent would do nothing */
  if (y->ngens == 0 || !(a < 0 || c || y->gen_touch[a])) return c;
  return c | gens_descend(y, s, full, nactions);
}

int goap__sym_canon(goap__sym *y, goap_word *s, int32_t *perm) {
  return canon_core(y, s, -1, perm, NULL, 0);
}

int goap__sym_canon_after(goap__sym *y, goap_word *s, int32_t a, int32_t *perm) {
  return canon_core(y, s, a, perm, NULL, 0);
}

/* With generators: canon_core composing the whole action permutation full. */
static void canon_full(goap__sym *y, goap_word *s, int32_t a, int32_t *full, int nactions) {
  (void)canon_core(y, s, a, NULL, full, nactions);
}

/* ---- mapping a plan back -------------------------------------------------------------------- */

/* With generators: sigma (act_perm) maps a real action to its canonical image; the state
 * followed is the canonical one, r_i = sigma_i(s_i), recomputed exactly as the search did
 * (goap__sym_canon for the start, goap__sym_canon_after for each successor). */
static void map_plan_gens(goap_planner *p, int32_t *plan, int len) {
  goap__sym *y = &p->sym;
  const goap_domain *d = p->d;
  int na = d->nactions;
  goap_word *r = y->map_state;
  int32_t *sigma = y->act_perm;
  for (int x = 0; x < na; ++x) sigma[x] = x;
  goap__copy_words(r, p->start, p->W);
  canon_full(y, r, -1, sigma, na);
  for (int i = 0; i < len; ++i) {
    int32_t a = plan[i];
    for (int x = 0; x < na; ++x)
      if (sigma[x] == a) {
        plan[i] = x;
        break;
      }
    goap__action_do(d, &d->actions[a], r);
    canon_full(y, r, a, sigma, na);
  }
}

void goap__sym_map_plan(goap_planner *p, int32_t *plan, int len) {
  if (p->sym.ngens > 0) {
    map_plan_gens(p, plan, len);
    return;
  }
  goap__sym *y = &p->sym;
  const goap_domain *d = p->d;
  goap_word *r = y->map_state;
  int32_t *rho = y->rho, *pi = y->pi;
  /* r_i = rho_i(s_i): canonical member rho[m] holds real member m */
  goap__copy_words(r, p->start, p->W);
  (void)goap__sym_canon(y, r, rho);
  for (int i = 0; i < len; ++i) {
    int32_t a = plan[i];
    if (y->act_slot[a] >= 0) {
      /* the canonical action (member mc, position j) is real member rho^-1(mc)'s: pi holds
       * rho^-1 for the moment */
      for (int c = 0; c < y->nclasses; ++c) {
        const goap__symcls *x = &y->classes[c];
        for (int m = 0; m < x->members; ++m)
          pi[x->member_base + (uint32_t)rho[x->member_base + (uint32_t)m]] = m;
      }
      plan[i] = goap__sym_map_action(y, pi, a);
    }
    /* r_{i+1} = canon(r_i[a]) = pi(r_i[a]); rho_{i+1} = pi o rho_i */
    goap__action_do(d, &d->actions[a], r);
    (void)goap__sym_canon(y, r, pi);
    for (int c = 0; c < y->nclasses; ++c) {
      const goap__symcls *x = &y->classes[c];
      for (int m = 0; m < x->members; ++m) {
        uint32_t at = x->member_base + (uint32_t)m;
        rho[at] = pi[x->member_base + (uint32_t)rho[at]];
      }
    }
  }
}

/* ---- landmarks of a successor (lazy A* with LM-cut, planner.c) ----------------------------- */

int goap__sym_succ_perm(goap_planner *p, const goap_word *r, int32_t a, int32_t *perm) {
  goap__sym *y = &p->sym;
  goap__copy_words(y->map_state, r, p->W);
  goap__action_do(p->d, &p->d->actions[a], y->map_state);
  if (y->ngens > 0) { /* perm: the whole action permutation (nactions) */
    int na = p->d->nactions, moved = 0;
    for (int x = 0; x < na; ++x) perm[x] = x;
    canon_full(y, y->map_state, a, perm, na);
    for (int x = 0; x < na && !moved; ++x) moved = perm[x] != x;
    return moved;
  }
  (void)goap__sym_canon_after(y, y->map_state, a, perm);
  for (int c = 0; c < y->nclasses; ++c) {
    const goap__symcls *x = &y->classes[c];
    for (int m = 0; m < x->members; ++m)
      if (perm[x->member_base + (uint32_t)m] != m) return 1;
  }
  return 0;
}

int32_t goap__sym_map_action(const goap__sym *y, const int32_t *perm, int32_t a) {
  if (y->ngens > 0) return perm[a];
  int32_t k = y->act_slot[a];
  if (k < 0) return a;
  int c = 0;
  while (c + 1 < y->nclasses && (int32_t)y->classes[c + 1].act_base <= k) ++c;
  const goap__symcls *x = &y->classes[c];
  int sa = x->slot_actions, off = k - (int32_t)x->act_base;
  int m = off / sa, j = off % sa;
  return y->slot_acts[x->act_base + (uint32_t)(perm[x->member_base + (uint32_t)m] * sa + j)];
}
