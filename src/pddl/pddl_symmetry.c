/*
 * pddl_symmetry.c -- classes of interchangeable objects of a grounded PDDL task, in the slot form
 * of goap_symmetry, and transpositions that fit no class as its generators (goap_pddl_symmetry;
 * docs/pddl.md, "Symmetries").
 *
 * Invariants:
 *  - Candidates are the objects that are not domain constants (objects [nconsts, nobjects)),
 *    grouped by their own declared type and by a signature: an order-independent hash of what
 *    mentions them (atoms per predicate and argument positions, with the goal value of the
 *    atom's variable; ground actions per schema and argument positions, with their cost).
 *    The signature only splits candidates; every class member is verified exactly: swapping
 *    it with the class's first member maps every ground atom mentioning either (static ones
 *    included) onto a ground atom, the goal onto itself, and every goap action mentioning
 *    either onto a goap action of the same cost whose preconditions and effects are the
 *    renamed ones (as sets). Transpositions sharing one element generate the whole symmetric
 *    group, so every permutation of the members is a symmetry.
 *  - A class is kept only when each ground atom and action mentions at most one member, every
 *    member owns at least one variable, and all members give the same list of templates (the
 *    atom or action with the member replaced by a marker), in template order: slot position j
 *    of every member is then the same template, as goap_symmetry_class requires.
 *  - Classes are kept largest first (ties: smaller first member); one whose slots share a
 *    variable or an action with a kept class is dropped, so kept slots are disjoint.
 *  - Generators: a verified group that is no class (ok == 0 from build_slots) gives the
 *    transpositions of its first member with each other member (verified by swap_ok, so
 *    each is an automorphism), as pairs of the variables and actions the swap moves; at
 *    most PX_SYM_MAX_GENS per task, in discovery order. A class dropped for a clash gives
 *    none.
 *  - Deterministic: everything is ordered by object, atom and action ids; no hash order is
 *    ever observed. Bounded: a signature group of m candidates whose atoms and actions
 *    mention them D times in all is skipped when m * D > PX_SYM_MAX_WORK.
 *  - Every allocation goes through the task's allocator; temporaries are freed before
 *    returning; the result is cached in the task and freed by goap__px_symmetry_free. On
 *    failure nothing is cached (a later call retries).
 */
#include <string.h>

#include "pddl_internal.h"

/* The bound on the verification work of one signature group (see the invariants). */
#define PX_SYM_MAX_WORK ((uint64_t)1 << 26)
/* The most generators kept (each costs a little per canonicalised state). */
#define PX_SYM_MAX_GENS 64

typedef struct sctx {
  goap__px_task_core *t;
  const goap_allocator *a;
  const goap_domain *d;
  size_t natoms, ngacts, nobj;
  int nv, na;
  int32_t *atom_var;   /* atom entry -> variable, -1 static */
  int32_t *var_atom;   /* variable -> atom entry, -1 (the impossible-goal variable) */
  int32_t *gact_act;   /* ground action entry -> goap action, -1 dropped */
  uint8_t *goalv;      /* variable -> 0 not in the goal, 1 + wanted value */
  /* per object: atoms [aoff[o], aoff[o+1]) of amen, actions [koff[o], koff[o+1]) of kmen */
  size_t *aoff, *koff;
  int32_t *amen, *kmen;
  /* scratch for the action check */
  uint32_t *stamp;     /* variable -> token */
  uint32_t *astamp;    /* goap action -> token (generators) */
  int32_t *sval;
  uint32_t token;
  /* the variable images of the current swap: img[v] when istamp[v] == itoken, else v */
  uint32_t *istamp;
  int32_t *img;
  uint32_t itoken;
  /* sorting */
  int32_t *tmp;
  size_t ntmp;
  int32_t marker_obj;  /* the member replaced by the marker in template comparisons */
} sctx;

static uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

static uint64_t positions(const int32_t *args, int n, int32_t o) {
  uint64_t m = 0;
  for (int i = 0; i < n; ++i)
    if (args[i] == o) m |= (uint64_t)1 << (i & 63);
  return m;
}

static uint64_t dbits(double x) {
  uint64_t u;
  memcpy(&u, &x, sizeof u);
  return u;
}

/* ---- mention lists ---------------------------------------------------------------------- */

/* 1 when object o occurs in args[0, i) (so it is listed once per atom or action). */
static int seen_before(const int32_t *args, int i) {
  for (int j = 0; j < i; ++j)
    if (args[j] == args[i]) return 1;
  return 0;
}

/* The entries of tset set (entry e of count, or act_of[e] when act_of is given) listed per
 * object they mention: off (nobj + 1, allocated here) indexes men (allocated here). */
static int csr(sctx *s, const goap__px_tset *set, const int32_t *act_of, size_t count,
                   size_t **off_out, int32_t **men_out) {
  size_t no = s->nobj;
  size_t *off = (size_t *)goap__alloc(s->a, (no + 1) * sizeof *off);
  *off_out = off;
  if (!off) return 0;
  memset(off, 0, (no + 1) * sizeof *off);
  for (int pass = 0; pass < 2; ++pass) {
    int32_t *men = pass ? *men_out : NULL;
    for (size_t e = 0; e < count; ++e) {
      int n;
      const int32_t *args = goap__px_tset_args(set, act_of ? act_of[e] : (int32_t)e, &n);
      for (int i = 0; i < n; ++i) {
        if (seen_before(args, i)) continue;
        if (pass) men[off[args[i]]++] = (int32_t)e; /* off[o] is o's cursor */
        else off[args[i] + 1]++;
      }
    }
    if (pass) { /* the cursors ended at the next object's start: shift back */
      for (size_t o = no; o > 0; --o) off[o] = off[o - 1];
      off[0] = 0;
    } else {
      for (size_t o = 0; o < no; ++o) off[o + 1] += off[o];
      *men_out = (int32_t *)goap__alloc(s->a, (off[no] + 1) * sizeof **men_out);
      if (!*men_out) return 0;
    }
  }
  return 1;
}

static int build_mentions(sctx *s) {
  goap__px_task_core *t = s->t;
  return csr(s, &t->atoms, NULL, s->natoms, &s->aoff, &s->amen) &&
         csr(s, &t->gacts, t->act_of, (size_t)s->na, &s->koff, &s->kmen);
}

static uint64_t signature(const sctx *s, int32_t o) {
  const goap__px_task_core *t = s->t;
  uint64_t sig = 0;
  for (size_t i = s->aoff[o]; i < s->aoff[o + 1]; ++i) {
    int32_t e = s->amen[i];
    int n;
    const int32_t *args = goap__px_tset_args(&t->atoms, e, &n);
    int32_t v = s->atom_var[e];
    uint64_t h = mix(1u ^ ((uint64_t)(uint32_t)goap__px_tset_id(&t->atoms, e) << 8));
    h = mix(h ^ positions(args, n, o));
    h = mix(h ^ (v >= 0 ? s->goalv[v] : 7u));
    sig += h;
  }
  for (size_t i = s->koff[o]; i < s->koff[o + 1]; ++i) {
    int k = s->kmen[i];
    int n;
    const int32_t *args = goap__px_tset_args(&t->gacts, t->act_of[k], &n);
    uint64_t h = mix(2u ^ ((uint64_t)(uint32_t)goap__px_tset_id(&t->gacts, t->act_of[k]) << 8));
    h = mix(h ^ positions(args, n, o));
    h = mix(h ^ dbits(goap_domain_action_cost(s->d, k)));
    sig += h;
  }
  return sig;
}

/* ---- the exact check of one transposition ---------------------------------------------- */

/* args renamed by the swap o <-> p into out; 1 when something changed. */
static int swap_args(const int32_t *args, int n, int32_t o, int32_t p, int32_t *out) {
  int changed = 0;
  for (int i = 0; i < n; ++i) {
    out[i] = args[i] == o ? p : args[i] == p ? o : args[i];
    changed |= out[i] != args[i];
  }
  return changed;
}

/* The image of variable v under the current swap (atoms_ok recorded the images of every
 * variable mentioning o or p; every other variable is its own image). */
static int32_t var_image(const sctx *s, int32_t v) {
  return s->istamp[v] == s->itoken ? s->img[v] : v;
}

/* Every atom mentioning x maps onto an atom, and its variable's goal value onto the image's;
 * records the variable images. */
static int atoms_ok(sctx *s, int32_t x, int32_t o, int32_t p) {
  const goap__px_task_core *t = s->t;
  for (size_t i = s->aoff[x]; i < s->aoff[x + 1]; ++i) {
    int32_t e = s->amen[i];
    int n;
    int32_t ren[PX_MAX_ARITY];
    const int32_t *args = goap__px_tset_args(&t->atoms, e, &n);
    swap_args(args, n, o, p, ren);
    int32_t e2 = goap__px_tset_find(&t->atoms, goap__px_tset_id(&t->atoms, e), ren, n);
    if (e2 < 0) return 0;
    int32_t v = s->atom_var[e], v2 = s->atom_var[e2];
    if (v >= 0 && s->goalv[v] != s->goalv[v2]) return 0;
    if (v >= 0) {
      s->istamp[v] = s->itoken;
      s->img[v] = v2;
    }
  }
  return 1;
}

/* Conditions (as (var, op, value) triples through the stamp arrays) of action k mapped onto
 * those of k2. */
static int conds_map(sctx *s, const goap_cond *c, int nc, const goap_cond *c2,
                         int nc2) {
  if (nc != nc2) return 0;
  ++s->token;
  for (int i = 0; i < nc2; ++i) {
    s->stamp[c2[i].var] = s->token;
    s->sval[c2[i].var] = (int32_t)c2[i].op * 4 + c2[i].value;
  }
  for (int i = 0; i < nc; ++i) {
    int32_t v2 = var_image(s, c[i].var);
    if (v2 < 0 || s->stamp[v2] != s->token || s->sval[v2] != (int32_t)c[i].op * 4 + c[i].value)
      return 0;
  }
  return 1;
}

static int effs_map(sctx *s, const goap_effect *f, int nf, const goap_effect *f2,
                        int nf2) {
  if (nf != nf2) return 0;
  ++s->token;
  for (int i = 0; i < nf2; ++i) {
    s->stamp[f2[i].var] = s->token;
    s->sval[f2[i].var] = (int32_t)f2[i].op * 4 + f2[i].value;
  }
  for (int i = 0; i < nf; ++i) {
    int32_t v2 = var_image(s, f[i].var);
    if (v2 < 0 || s->stamp[v2] != s->token || s->sval[v2] != (int32_t)f[i].op * 4 + f[i].value)
      return 0;
  }
  return 1;
}

static int actions_ok(sctx *s, int32_t x, int32_t o, int32_t p) {
  const goap__px_task_core *t = s->t;
  for (size_t i = s->koff[x]; i < s->koff[x + 1]; ++i) {
    int k = s->kmen[i];
    int32_t e = t->act_of[k];
    int n;
    int32_t ren[PX_MAX_ARITY];
    const int32_t *args = goap__px_tset_args(&t->gacts, e, &n);
    swap_args(args, n, o, p, ren);
    int32_t e2 = goap__px_tset_find(&t->gacts, goap__px_tset_id(&t->gacts, e), ren, n);
    if (e2 < 0 || s->gact_act[e2] < 0) return 0;
    int k2 = s->gact_act[e2];
    if (goap_domain_action_cost(s->d, k) != goap_domain_action_cost(s->d, k2)) return 0;
    int nc, nc2, nf, nf2;
    const goap_cond *c = goap_domain_action_pre(s->d, k, &nc);
    const goap_cond *c2 = goap_domain_action_pre(s->d, k2, &nc2);
    if (!conds_map(s, c, nc, c2, nc2)) return 0;
    const goap_effect *f = goap_domain_action_eff(s->d, k, &nf);
    const goap_effect *f2 = goap_domain_action_eff(s->d, k2, &nf2);
    if (!effs_map(s, f, nf, f2, nf2)) return 0;
  }
  return 1;
}

/* 1 when swapping objects o and p is a symmetry of the task. */
static int swap_ok(sctx *s, int32_t o, int32_t p) {
  if (s->aoff[o + 1] - s->aoff[o] != s->aoff[p + 1] - s->aoff[p] ||
      s->koff[o + 1] - s->koff[o] != s->koff[p + 1] - s->koff[p])
    return 0;
  ++s->itoken;
  return atoms_ok(s, o, o, p) && atoms_ok(s, p, o, p) && actions_ok(s, o, o, p) &&
         actions_ok(s, p, o, p);
}

/* ---- templates and sorting --------------------------------------------------------------- */

/* Compares (id, args with marker_obj as -1) of two entries of a tuple set. */
static int tmpl_cmp(const goap__px_tset *ts, int32_t ea, int32_t ma, int32_t eb, int32_t mb) {
  int32_t ia = goap__px_tset_id(ts, ea), ib = goap__px_tset_id(ts, eb);
  if (ia != ib) return ia < ib ? -1 : 1;
  int na, nb;
  const int32_t *aa = goap__px_tset_args(ts, ea, &na), *ab = goap__px_tset_args(ts, eb, &nb);
  if (na != nb) return na < nb ? -1 : 1;
  for (int i = 0; i < na; ++i) {
    int32_t x = aa[i] == ma ? -1 : aa[i], y = ab[i] == mb ? -1 : ab[i];
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}

static int var_cmp(const sctx *s, int32_t x, int32_t y) {
  return tmpl_cmp(&s->t->atoms, s->var_atom[x], s->marker_obj, s->var_atom[y], s->marker_obj);
}
static int act_cmp(const sctx *s, int32_t x, int32_t y) {
  return tmpl_cmp(&s->t->gacts, s->t->act_of[x], s->marker_obj, s->t->act_of[y], s->marker_obj);
}

/* Stable merge sort of v[0, n) with s->tmp (room for n) as scratch. */
static void msort(const sctx *s, int32_t *v, size_t n, int (*cmp)(const sctx *, int32_t, int32_t)) {
  if (n < 2) return;
  size_t h = n / 2;
  msort(s, v, h, cmp);
  msort(s, v + h, n - h, cmp);
  size_t i = 0, j = h, k = 0;
  while (i < h && j < n) s->tmp[k++] = cmp(s, v[j], v[i]) < 0 ? v[j++] : v[i++];
  while (i < h) s->tmp[k++] = v[i++];
  while (j < n) s->tmp[k++] = v[j++];
  memcpy(v, s->tmp, n * sizeof *v);
}

/* ---- generators ---------------------------------------------------------------------------- */

/* Appends the transposition o <-> p, checked by swap_ok just before (the variable images are
 * still recorded), as a generator: its moved variables' pairs then its moved actions' pairs
 * to gids, each id once (an atom or action mentioning both is listed under each); *nv and *na
 * receive the pair counts. 1 ok, 0 nothing moves, -1 out of memory. */
static int gen_pairs(sctx *s, int32_t o, int32_t p, goap__px_ivec *gids, int *nv, int *na) {
  const goap__px_task_core *t = s->t;
  size_t base = gids->n;
  ++s->token; /* stamp: a variable already listed */
  for (int side = 0; side < 2; ++side) {
    int32_t x = side ? p : o;
    for (size_t i = s->aoff[x]; i < s->aoff[x + 1]; ++i) {
      int32_t v = s->atom_var[s->amen[i]];
      if (v < 0 || s->stamp[v] == s->token) continue;
      s->stamp[v] = s->token;
      int32_t v2 = var_image(s, v);
      if (v2 == v) continue;
      if (!goap__px_ipush(s->a, gids, v) || !goap__px_ipush(s->a, gids, v2)) return -1;
    }
  }
  size_t nvp = (gids->n - base) / 2;
  ++s->token; /* reused for actions (distinct ids, a separate token) */
  for (int side = 0; side < 2; ++side) {
    int32_t x = side ? p : o;
    for (size_t i = s->koff[x]; i < s->koff[x + 1]; ++i) {
      int k = s->kmen[i];
      if (s->astamp[k] == s->token) continue;
      s->astamp[k] = s->token;
      int n;
      int32_t ren[PX_MAX_ARITY];
      const int32_t *args = goap__px_tset_args(&t->gacts, t->act_of[k], &n);
      swap_args(args, n, o, p, ren);
      int32_t e2 = goap__px_tset_find(&t->gacts, goap__px_tset_id(&t->gacts, t->act_of[k]), ren, n);
      int32_t k2 = e2 >= 0 ? s->gact_act[e2] : -1;
      if (k2 < 0) return 0; /* swap_ok found it: cannot happen */
      if (k2 == k) continue;
      if (!goap__px_ipush(s->a, gids, k) || !goap__px_ipush(s->a, gids, k2)) return -1;
    }
  }
  size_t nap = (gids->n - base) / 2 - nvp;
  if (nvp == 0 || nvp > (size_t)INT32_MAX || nap > (size_t)INT32_MAX) {
    gids->n = base;
    return 0;
  }
  *nv = (int)nvp;
  *na = (int)nap;
  return 1;
}

/* ---- classes ------------------------------------------------------------------------------ */

typedef struct cand {
  int32_t type, obj;
  uint64_t sig;
} cand;

static int cand_less(const cand *x, const cand *y) {
  if (x->type != y->type) return x->type < y->type;
  if (x->sig != y->sig) return x->sig < y->sig;
  return x->obj < y->obj;
}

/* A found class: members, then its slots once built. */
typedef struct fclass {
  size_t m0, nm;       /* members: [m0, m0 + nm) of the members vector */
  size_t id0;          /* its ids in the ids vector: nm * (sv + sa) */
  int sv, sa;
} fclass;

/* Builds the slots of a class whose members are mem[0, nm); appends its ids (vars, then
 * actions, member-major) to ids. 1 ok, 0 not a valid class, -1 out of memory. */
static int build_slots(sctx *s, const int32_t *mem, size_t nm, uint32_t *mark, uint32_t tok,
                       goap__px_ivec *ids, int *sv, int *sa) {
  const goap__px_task_core *t = s->t;
  for (size_t i = 0; i < nm; ++i) mark[mem[i]] = tok;
  /* at most one member per atom and per action */
  for (size_t i = 0; i < nm; ++i) {
    int32_t o = mem[i];
    for (size_t j = s->aoff[o]; j < s->aoff[o + 1]; ++j) {
      int n;
      const int32_t *args = goap__px_tset_args(&t->atoms, s->amen[j], &n);
      for (int q = 0; q < n; ++q)
        if (mark[args[q]] == tok && args[q] != o) return 0;
    }
    for (size_t j = s->koff[o]; j < s->koff[o + 1]; ++j) {
      int n;
      const int32_t *args = goap__px_tset_args(&t->gacts, t->act_of[s->kmen[j]], &n);
      for (int q = 0; q < n; ++q)
        if (mark[args[q]] == tok && args[q] != o) return 0;
    }
  }
  /* slot sizes: variables (fluent atoms) and actions of member 0; all members must agree */
  size_t nvars0 = 0;
  for (size_t j = s->aoff[mem[0]]; j < s->aoff[mem[0] + 1]; ++j) nvars0 += s->atom_var[s->amen[j]] >= 0;
  size_t nacts0 = s->koff[mem[0] + 1] - s->koff[mem[0]];
  if (nvars0 == 0 || nvars0 > (size_t)INT32_MAX || nacts0 > (size_t)INT32_MAX) return 0;
  size_t base = ids->n;
  for (size_t i = 0; i < nm; ++i) {
    int32_t o = mem[i];
    size_t start = ids->n;
    for (size_t j = s->aoff[o]; j < s->aoff[o + 1]; ++j) {
      int32_t v = s->atom_var[s->amen[j]];
      if (v >= 0 && !goap__px_ipush(s->a, ids, v)) return -1;
    }
    if (ids->n - start != nvars0) return 0;
    s->marker_obj = o;
    msort(s, ids->v + start, nvars0, var_cmp);
  }
  for (size_t i = 0; i < nm; ++i) {
    int32_t o = mem[i];
    size_t start = ids->n;
    for (size_t j = s->koff[o]; j < s->koff[o + 1]; ++j)
      if (!goap__px_ipush(s->a, ids, s->kmen[j])) return -1;
    if (ids->n - start != nacts0) return 0;
    s->marker_obj = o;
    msort(s, ids->v + start, nacts0, act_cmp);
  }
  /* the same template at each slot position */
  const int32_t *vv = ids->v + base, *aa = vv + nm * nvars0;
  for (size_t i = 1; i < nm; ++i) {
    for (size_t j = 0; j < nvars0; ++j)
      if (tmpl_cmp(&t->atoms, s->var_atom[vv[j]], mem[0], s->var_atom[vv[i * nvars0 + j]],
                   mem[i]) != 0)
        return 0;
    for (size_t j = 0; j < nacts0; ++j)
      if (tmpl_cmp(&t->gacts, t->act_of[aa[j]], mem[0], t->act_of[aa[i * nacts0 + j]],
                   mem[i]) != 0)
        return 0;
  }
  *sv = (int)nvars0;
  *sa = (int)nacts0;
  return 1;
}

static goap_status detect(sctx *s) {
  goap__px_task_core *t = s->t;
  goap_status st = GOAP_OUT_OF_MEMORY;
  size_t nc = 0, nfc = 0, cfc = 0;
  cand *cs = NULL, *ctmp = NULL;
  uint32_t *mark = NULL;
  uint8_t *used_v = NULL, *used_a = NULL, *taken = NULL;
  fclass *fc = NULL;
  goap__px_ivec members = {NULL, 0, 0}, ids = {NULL, 0, 0}, group = {NULL, 0, 0};
  goap__px_ivec gids = {NULL, 0, 0}, gmeta = {NULL, 0, 0}; /* generators: pairs; counts */
  size_t nobj = s->nobj, nvb = (size_t)s->nv + 1, nab = (size_t)s->na + 1;
  size_t ncand = nobj > t->nconsts ? nobj - t->nconsts : 0;
  size_t nkeep = 0, nkids = 0;
  uint32_t mark_token = 0; /* one per class tried: mark[o] == it for the class's members */

  if (!build_mentions(s)) goto done;
  cs = (cand *)goap__alloc(s->a, (ncand + 1) * sizeof *cs);
  ctmp = (cand *)goap__alloc(s->a, (ncand + 1) * sizeof *ctmp);
  mark = (uint32_t *)goap__alloc(s->a, (nobj + 1) * sizeof *mark);
  taken = (uint8_t *)goap__alloc(s->a, nobj + 1);
  used_v = (uint8_t *)goap__alloc(s->a, nvb);
  used_a = (uint8_t *)goap__alloc(s->a, nab);
  if (!cs || !ctmp || !mark || !taken || !used_v || !used_a) goto done;
  memset(mark, 0, (nobj + 1) * sizeof *mark);
  memset(taken, 0, nobj + 1);
  memset(used_v, 0, nvb);
  memset(used_a, 0, nab);
  for (size_t o = t->nconsts; o < nobj; ++o) {
    cs[nc].type = t->objects[o].type;
    cs[nc].obj = (int32_t)o;
    cs[nc].sig = signature(s, (int32_t)o);
    nc++;
  }
  /* stable merge sort by (type, signature, object), bottom-up */
  for (size_t w = 1; w < nc; w *= 2) {
    for (size_t lo = 0; lo < nc; lo += 2 * w) {
      size_t mid = lo + w < nc ? lo + w : nc, hi = lo + 2 * w < nc ? lo + 2 * w : nc;
      size_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi) ctmp[k++] = cand_less(&cs[j], &cs[i]) ? cs[j++] : cs[i++];
      while (i < mid) ctmp[k++] = cs[i++];
      while (j < hi) ctmp[k++] = cs[j++];
    }
    memcpy(cs, ctmp, nc * sizeof *cs);
  }
  /* classes within each group */
  for (size_t g0 = 0; g0 < nc;) {
    size_t g1 = g0 + 1;
    while (g1 < nc && cs[g1].type == cs[g0].type && cs[g1].sig == cs[g0].sig) ++g1;
    size_t m = g1 - g0;
    uint64_t work = 0;
    for (size_t i = g0; i < g1; ++i) {
      int32_t o = cs[i].obj;
      work += (s->aoff[o + 1] - s->aoff[o]) + (s->koff[o + 1] - s->koff[o]);
    }
    if (m < 2 || work > PX_SYM_MAX_WORK / m) {
      g0 = g1;
      continue;
    }
    for (size_t i = g0; i < g1; ++i) {
      int32_t r = cs[i].obj;
      if (taken[r]) continue;
      group.n = 0;
      if (!goap__px_ipush(s->a, &group, r)) goto done;
      for (size_t j = i + 1; j < g1; ++j) {
        int32_t p = cs[j].obj;
        if (taken[p] || !swap_ok(s, r, p)) continue;
        taken[p] = 1;
        if (!goap__px_ipush(s->a, &group, p)) goto done;
      }
      taken[r] = 1;
      if (group.n < 2) continue;
      size_t id0 = ids.n;
      int sv = 0, sa = 0;
      int ok = build_slots(s, group.v, group.n, mark, ++mark_token, &ids, &sv, &sa);
      if (ok < 0) goto done;
      if (ok == 0) {
        ids.n = id0;
        /* not a class (an atom or action mentions two members, or the slots differ): the
         * transpositions of the first member with each other one, as generators; sharing
         * one element, they generate every permutation of the group */
        for (size_t k = 1; k < group.n && gmeta.n / 2 < PX_SYM_MAX_GENS; ++k) {
          int nv = 0, na = 0;
          if (!swap_ok(s, group.v[0], group.v[k])) continue; /* checked above: always true */
          int got = gen_pairs(s, group.v[0], group.v[k], &gids, &nv, &na);
          if (got < 0) goto done;
          if (got > 0 && (!goap__px_ipush(s->a, &gmeta, nv) || !goap__px_ipush(s->a, &gmeta, na)))
            goto done;
        }
        continue;
      }
      if (!goap__grow(s->a, (void **)&fc, &cfc, nfc + 1, sizeof *fc)) goto done;
      fc[nfc].m0 = members.n;
      fc[nfc].nm = group.n;
      fc[nfc].id0 = id0;
      fc[nfc].sv = sv;
      fc[nfc].sa = sa;
      nfc++;
      for (size_t k = 0; k < group.n; ++k)
        if (!goap__px_ipush(s->a, &members, group.v[k])) goto done;
    }
    g0 = g1;
  }
  /* keep largest first (ties: the smaller first member), with disjoint slots */
  for (size_t i = 1; i < nfc; ++i) { /* insertion sort: few classes */
    fclass x = fc[i];
    size_t j = i;
    while (j > 0 && (fc[j - 1].nm < x.nm ||
                     (fc[j - 1].nm == x.nm && members.v[fc[j - 1].m0] > members.v[x.m0]))) {
      fc[j] = fc[j - 1];
      --j;
    }
    fc[j] = x;
  }
  for (size_t i = 0; i < nfc; ++i) {
    size_t nids = fc[i].nm * (size_t)(fc[i].sv + fc[i].sa);
    size_t nvid = fc[i].nm * (size_t)fc[i].sv;
    const int32_t *v = ids.v + fc[i].id0;
    int clash = 0;
    for (size_t k = 0; k < nids && !clash; ++k)
      clash = k < nvid ? used_v[v[k]] : used_a[v[k]];
    if (clash) {
      /* dropped; not turned into generators: on transport p04 the packages' swap over the
       * trucks' class made lazy A* with LM-cut expand 49% more states (LM-cut's value is not
       * the same on every state of an orbit), though it halved elevators p06 */
      fc[i].nm = 0;
      continue;
    }
    for (size_t k = 0; k < nids; ++k) {
      if (k < nvid) used_v[v[k]] = 1;
      else used_a[v[k]] = 1;
    }
    nkeep++;
    nkids += nids;
  }
  if (nkeep > 0) {
    t->sym_classes = (goap_symmetry_class *)goap__alloc(s->a, nkeep * sizeof *t->sym_classes);
    t->sym_ids = (int32_t *)goap__alloc(s->a, (nkids + 1) * sizeof *t->sym_ids);
    if (!t->sym_classes || !t->sym_ids) {
      goap__free(s->a, t->sym_classes, nkeep * sizeof *t->sym_classes);
      goap__free(s->a, t->sym_ids, (nkids + 1) * sizeof *t->sym_ids);
      t->sym_classes = NULL;
      t->sym_ids = NULL;
      goto done;
    }
    t->sym_nclasses = nkeep;
    t->sym_nids = nkids + 1;
    size_t c = 0, o = 0;
    for (size_t i = 0; i < nfc; ++i) {
      if (fc[i].nm == 0) continue;
      size_t nvid = fc[i].nm * (size_t)fc[i].sv, naid = fc[i].nm * (size_t)fc[i].sa;
      memcpy(t->sym_ids + o, ids.v + fc[i].id0, (nvid + naid) * sizeof *t->sym_ids);
      goap_symmetry_class *k = &t->sym_classes[c++];
      k->members = (int)fc[i].nm;
      k->slot_vars = fc[i].sv;
      k->slot_actions = fc[i].sa;
      k->vars = t->sym_ids + o;
      k->actions = fc[i].sa > 0 ? t->sym_ids + o + nvid : NULL;
      o += nvid + naid;
    }
    t->sym.class_count = (int)nkeep;
    t->sym.classes = t->sym_classes;
  }
  if (gmeta.n > 0) {
    size_t ng = gmeta.n / 2;
    t->sym_gens = (goap_symmetry_generator *)goap__alloc(s->a, ng * sizeof *t->sym_gens);
    t->sym_gids = (int32_t *)goap__alloc(s->a, (gids.n + 1) * sizeof *t->sym_gids);
    if (!t->sym_gens || !t->sym_gids) {
      goap__free(s->a, t->sym_gens, ng * sizeof *t->sym_gens);
      goap__free(s->a, t->sym_gids, (gids.n + 1) * sizeof *t->sym_gids);
      t->sym_gens = NULL;
      t->sym_gids = NULL;
      goap__px_symmetry_free(t); /* the classes too: nothing is kept on failure */
      goto done;
    }
    t->sym_ngens = ng;
    t->sym_ngids = gids.n + 1;
    memcpy(t->sym_gids, gids.v, gids.n * sizeof *t->sym_gids);
    size_t o = 0;
    for (size_t g = 0; g < ng; ++g) {
      goap_symmetry_generator *x = &t->sym_gens[g];
      x->var_count = gmeta.v[2 * g];
      x->action_count = gmeta.v[2 * g + 1];
      x->vars = t->sym_gids + o;
      o += 2 * (size_t)x->var_count;
      x->actions = x->action_count > 0 ? t->sym_gids + o : NULL;
      o += 2 * (size_t)x->action_count;
    }
    t->sym.generator_count = (int)ng;
    t->sym.generators = t->sym_gens;
  }
  st = GOAP_OK;
done:
  goap__free(s->a, cs, (ncand + 1) * sizeof *cs);
  goap__free(s->a, ctmp, (ncand + 1) * sizeof *ctmp);
  goap__free(s->a, mark, (nobj + 1) * sizeof *mark);
  goap__free(s->a, taken, nobj + 1);
  goap__free(s->a, used_v, nvb);
  goap__free(s->a, used_a, nab);
  goap__free(s->a, fc, cfc * sizeof *fc);
  goap__px_ivec_free(s->a, &members);
  goap__px_ivec_free(s->a, &ids);
  goap__px_ivec_free(s->a, &group);
  goap__px_ivec_free(s->a, &gids);
  goap__px_ivec_free(s->a, &gmeta);
  return st;
}

/* ---- entry points ------------------------------------------------------------------------ */

static void free_ctx(sctx *s) {
  const goap_allocator *a = s->a;
  goap__free(a, s->atom_var, (s->natoms + 1) * sizeof *s->atom_var);
  goap__free(a, s->var_atom, ((size_t)s->nv + 1) * sizeof *s->var_atom);
  goap__free(a, s->gact_act, (s->ngacts + 1) * sizeof *s->gact_act);
  goap__free(a, s->goalv, (size_t)s->nv + 1);
  goap__free(a, s->stamp, ((size_t)s->nv + 1) * sizeof *s->stamp);
  goap__free(a, s->astamp, ((size_t)s->na + 1) * sizeof *s->astamp);
  goap__free(a, s->sval, ((size_t)s->nv + 1) * sizeof *s->sval);
  goap__free(a, s->istamp, ((size_t)s->nv + 1) * sizeof *s->istamp);
  goap__free(a, s->img, ((size_t)s->nv + 1) * sizeof *s->img);
  goap__free(a, s->tmp, s->ntmp * sizeof *s->tmp);
  if (s->aoff) goap__free(a, s->amen, (s->aoff[s->nobj] + 1) * sizeof *s->amen);
  if (s->koff) goap__free(a, s->kmen, (s->koff[s->nobj] + 1) * sizeof *s->kmen);
  goap__free(a, s->aoff, (s->nobj + 1) * sizeof *s->aoff);
  goap__free(a, s->koff, (s->nobj + 1) * sizeof *s->koff);
}

goap_status goap_pddl_symmetry(goap_pddl_task *task, const goap_symmetry **out) {
  if (out) *out = NULL;
  if (!task || !out || !task->c.domain) return GOAP_INVALID_ARGUMENT;
  goap__px_task_core *t = &task->c;
  if (!t->sym_done) {
    sctx s;
    memset(&s, 0, sizeof s);
    s.t = t;
    s.a = &t->alloc;
    s.d = t->domain;
    s.natoms = goap__px_tset_count(&t->atoms);
    s.ngacts = goap__px_tset_count(&t->gacts);
    s.nobj = t->nobjects;
    s.nv = goap_domain_var_count(t->domain);
    s.na = goap_domain_action_count(t->domain);
    size_t nv1 = (size_t)s.nv + 1;
    /* the largest slot sorted at once is one object's mentions: at most all atoms or actions */
    s.ntmp = (s.natoms > (size_t)s.na ? s.natoms : (size_t)s.na) + 1;
    s.atom_var = (int32_t *)goap__alloc(s.a, (s.natoms + 1) * sizeof *s.atom_var);
    s.var_atom = (int32_t *)goap__alloc(s.a, nv1 * sizeof *s.var_atom);
    s.gact_act = (int32_t *)goap__alloc(s.a, (s.ngacts + 1) * sizeof *s.gact_act);
    s.goalv = (uint8_t *)goap__alloc(s.a, nv1);
    s.stamp = (uint32_t *)goap__alloc(s.a, nv1 * sizeof *s.stamp);
    s.astamp = (uint32_t *)goap__alloc(s.a, ((size_t)s.na + 1) * sizeof *s.astamp);
    s.sval = (int32_t *)goap__alloc(s.a, nv1 * sizeof *s.sval);
    s.istamp = (uint32_t *)goap__alloc(s.a, nv1 * sizeof *s.istamp);
    s.img = (int32_t *)goap__alloc(s.a, nv1 * sizeof *s.img);
    s.tmp = (int32_t *)goap__alloc(s.a, s.ntmp * sizeof *s.tmp);
    goap_status st = GOAP_OUT_OF_MEMORY;
    if (s.atom_var && s.var_atom && s.gact_act && s.goalv && s.stamp && s.astamp && s.sval &&
        s.istamp && s.img && s.tmp) {
      /* variables are the atoms of changing predicates, numbered in atom order (ground.c);
       * a variable past them is the impossible-goal one, which no atom owns */
      int32_t nvars = 0;
      for (int v = 0; v < s.nv; ++v) s.var_atom[v] = -1;
      for (size_t e = 0; e < s.natoms; ++e) {
        s.atom_var[e] = -1;
        if (t->preds[goap__px_tset_id(&t->atoms, (int32_t)e)].fluent && nvars < s.nv) {
          s.atom_var[e] = nvars;
          s.var_atom[nvars++] = (int32_t)e;
        }
      }
      for (size_t e = 0; e < s.ngacts; ++e) s.gact_act[e] = -1;
      for (int k = 0; k < s.na; ++k) s.gact_act[t->act_of[k]] = k;
      memset(s.goalv, 0, nv1);
      memset(s.stamp, 0, nv1 * sizeof *s.stamp);
      memset(s.astamp, 0, ((size_t)s.na + 1) * sizeof *s.astamp);
      memset(s.istamp, 0, nv1 * sizeof *s.istamp);
      for (int i = 0; i < t->ngoalc; ++i)
        s.goalv[t->goal[i].var] = (uint8_t)(1 + (t->goal[i].value != 0));
      st = detect(&s);
    }
    free_ctx(&s);
    if (st != GOAP_OK) return st;
    t->sym_done = 1;
  }
  *out = t->sym.class_count > 0 || t->sym.generator_count > 0 ? &t->sym : NULL;
  return GOAP_OK;
}

void goap__px_symmetry_free(goap__px_task_core *t) {
  goap__free(&t->alloc, t->sym_classes, t->sym_nclasses * sizeof *t->sym_classes);
  goap__free(&t->alloc, t->sym_ids, t->sym_nids * sizeof *t->sym_ids);
  t->sym_classes = NULL;
  t->sym_ids = NULL;
  t->sym_nclasses = t->sym_nids = 0;
  goap__free(&t->alloc, t->sym_gens, t->sym_ngens * sizeof *t->sym_gens);
  goap__free(&t->alloc, t->sym_gids, t->sym_ngids * sizeof *t->sym_gids);
  t->sym_gens = NULL;
  t->sym_gids = NULL;
  t->sym_ngens = t->sym_ngids = 0;
  memset(&t->sym, 0, sizeof t->sym);
  t->sym_done = 0;
}
