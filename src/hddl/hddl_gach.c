/*
 * hddl_gach.c -- argument-aware goal achievers for the best-first HDDL search (hddl_bfs.c):
 * which goal literals a ground task, with its arguments, may still make true.
 *
 * Invariants:
 *  - hp's tgoal (hddl_prep.c) says which goal literals a task may make true whatever its
 *    arguments: a do_put_on task may make every goal (on a b) true. Here each (task, goal
 *    literal) pair holds a set of "alternatives": per argument position p of the goal literal,
 *    either -1 (any object) or the index k of a task parameter that must equal the goal's
 *    argument p. A ground task may make the goal literal true only if one alternative matches
 *    its arguments (or the pair is "top": any arguments).
 *  - Actions: one alternative per effect that may achieve the literal (an add for a positive
 *    literal, a delete for a negative one; same predicate; constant arguments equal), mapping
 *    each position to the action's parameter there. Compound tasks: a fixpoint over the methods
 *    the search uses (hp's m0 and mids, as tgoal): a subtask's alternative is carried to the
 *    method's task by mapping each subtask parameter to the subtask argument: a method
 *    parameter that appears in the method's :task becomes that task position, a constant must
 *    equal the goal's argument (else the alternative is dropped), any other method parameter
 *    becomes -1. Preconditions and types are ignored, and a pair with more than GA_ALTS
 *    alternatives, or one with no constraint, becomes top: the sets only over-approximate what
 *    a decomposition can achieve, so pruning a search node whose agenda has no achiever of a
 *    false goal literal loses no plan. Equality goal literals are always top.
 *  - Only the first 64 * words goal literals (words <= GA_MAX_WORDS) are tracked; the others
 *    are never pruned on. When the tables would pass GA_MAX_ENTRIES, goap__hg_new returns NULL
 *    with h->st unchanged (the search uses tgoal alone).
 *  - A ground task's mask is computed from the candidate list of its task (the goal literals
 *    with some alternative), memoised per ground task when that list is long; deterministic.
 *    Every table grows through the task's allocator; nothing here prints.
 */
#include <string.h>

#include "hddl_plan.h"

#define GA_ALTS 4
#define GA_TOP 255u
#define GA_MAX_ENTRIES ((size_t)1 << 24)
#define GA_MEMO_WORK 16 /* candidate alternatives above which a ground task's mask is memoised */

struct goap__hg {
  size_t nx;            /* compound tasks, then actions */
  int32_t ng;           /* goal literals tracked */
  int words;            /* ng <= 64 * words */
  int32_t maxar;        /* largest arity of a tracked goal literal (at least 1) */
  uint8_t *nalt;        /* per (x, i): alternatives, or GA_TOP */
  int32_t *alt;         /* per (x, i, a): maxar entries */
  int32_t *cand0, *cand; /* per x: the goal literals with some alternative */
  int32_t *work;        /* per x: its candidates' alternatives (top: 1) */
  int32_t *gargs;       /* per goal literal: maxar ground arguments */
  goap__px_tset memo;   /* (x, args) -> memo entry */
  goap__px_ivec memo_m; /* words per entry, as int32 pairs */
  size_t nalt_n, alt_n, cand_n, gargs_n;
};

static size_t ga_x(const goap__px_task_core *t, int32_t task) {
  return task >= 0 ? (size_t)task : t->htn.nctasks + (size_t)(-task - 1);
}

/* Adds alternative v (maxar entries) to pair (x, i): 1 when the set changed. */
static int ga_add(goap__hg *g, size_t x, int32_t i, const int32_t *v, int32_t ar) {
  size_t pi = x * (size_t)g->ng + (size_t)i;
  uint8_t n = g->nalt[pi];
  if (n == GA_TOP) return 0;
  int free_all = 1;
  for (int32_t p = 0; p < ar && free_all; ++p) free_all = v[p] < 0;
  if (!free_all) { /* v's entries past ar are -1 */
    for (uint8_t a = 0; a < n; ++a)
      if (memcmp(g->alt + (pi * GA_ALTS + a) * (size_t)g->maxar, v, (size_t)g->maxar * sizeof *v) == 0)
        return 0;
  }
  if (free_all || n == GA_ALTS) {
    g->nalt[pi] = GA_TOP;
    return 1;
  }
  memcpy(g->alt + (pi * GA_ALTS + n) * (size_t)g->maxar, v, (size_t)g->maxar * sizeof *v);
  g->nalt[pi] = (uint8_t)(n + 1);
  return 1;
}

void goap__hg_free(goap__hg *g, const goap_allocator *a) {
  if (!g) return;
  goap__free(a, g->nalt, g->nalt_n);
  goap__free(a, g->alt, g->alt_n * sizeof *g->alt);
  goap__free(a, g->cand0, (g->nx + 1) * sizeof *g->cand0);
  goap__free(a, g->cand, g->cand_n * sizeof *g->cand);
  goap__free(a, g->work, g->nx * sizeof *g->work);
  goap__free(a, g->gargs, g->gargs_n * sizeof *g->gargs);
  goap__px_tset_free(a, &g->memo);
  goap__px_ivec_free(a, &g->memo_m);
  goap__free(a, g, sizeof *g);
}

int goap__hg_words(const goap__hg *g) { return g ? g->words : 0; }

goap__hg *goap__hg_new(hp *h, int max_words) {
  const goap__px_task_core *t = h->t;
  if (t->ngoal == 0 || max_words < 1) return NULL;
  int words = (int)((t->ngoal + 63) / 64);
  if (words > max_words) words = max_words;
  int32_t ng = t->ngoal < 64 * words ? t->ngoal : 64 * words;
  int32_t maxar = 1;
  for (int32_t i = 0; i < ng; ++i) {
    const goap__px_lit *l = &h->lits[t->goal0 + i];
    int32_t ar = l->pred == PX_EQ ? 2 : t->preds[l->pred].arity;
    if (ar > maxar) maxar = ar;
  }
  size_t nc = t->htn.nctasks, nx = nc + t->nschemas;
  if (nx == 0 || nx * (size_t)ng * GA_ALTS * (size_t)maxar > GA_MAX_ENTRIES) return NULL;
  goap__hg *g = (goap__hg *)goap__alloc(h->a, sizeof *g);
  if (!g) {
    h->st = GOAP_OUT_OF_MEMORY;
    return NULL;
  }
  memset(g, 0, sizeof *g);
  g->nx = nx;
  g->ng = ng;
  g->words = words;
  g->maxar = maxar;
  g->nalt_n = nx * (size_t)ng;
  g->alt_n = g->nalt_n * GA_ALTS * (size_t)maxar;
  g->gargs_n = (size_t)ng * (size_t)maxar;
  g->nalt = (uint8_t *)goap__alloc(h->a, g->nalt_n);
  g->alt = (int32_t *)goap__alloc(h->a, g->alt_n * sizeof *g->alt);
  g->cand0 = (int32_t *)goap__alloc(h->a, (nx + 1) * sizeof *g->cand0);
  g->work = (int32_t *)goap__alloc(h->a, nx * sizeof *g->work);
  g->gargs = (int32_t *)goap__alloc(h->a, g->gargs_n * sizeof *g->gargs);
  int32_t *v = (int32_t *)goap__alloc(h->a, (size_t)maxar * sizeof *v);
  if (!g->nalt || !g->alt || !g->cand0 || !g->work || !g->gargs || !v) goto oom;
  memset(g->nalt, 0, g->nalt_n);
  for (int32_t i = 0; i < ng; ++i) {
    const goap__px_lit *l = &h->lits[t->goal0 + i];
    int32_t ar = l->pred == PX_EQ ? 2 : t->preds[l->pred].arity;
    for (int32_t p = 0; p < ar; ++p) g->gargs[(size_t)i * (size_t)maxar + (size_t)p] = h->av.v[l->args + p];
    if (l->pred == PX_EQ)
      for (size_t x = 0; x < nx; ++x) g->nalt[x * (size_t)ng + (size_t)i] = GA_TOP;
  }
  /* actions: their effects */
  for (size_t sc = 0; sc < t->nschemas; ++sc) {
    const goap__px_schema *s = &t->schemas[sc];
    for (int32_t e = s->lit0; e < s->lit0 + s->nlits; ++e) {
      const goap__px_lit *el = &h->lits[e];
      if (el->kind != PX_LIT_ADD && el->kind != PX_LIT_DEL) continue;
      for (int32_t i = 0; i < ng; ++i) {
        const goap__px_lit *l = &h->lits[t->goal0 + i];
        if (l->pred != el->pred || l->pred == PX_EQ || (el->kind == PX_LIT_DEL) != (l->neg != 0))
          continue;
        int32_t ar = t->preds[l->pred].arity, p = 0;
        for (int32_t q = 0; q < maxar; ++q) v[q] = -1;
        for (; p < ar; ++p) {
          int32_t a = h->av.v[el->args + p];
          if (a >= 0 && a != g->gargs[(size_t)i * (size_t)maxar + (size_t)p]) break;
          v[p] = a >= 0 ? -1 : -a - 1;
        }
        if (p == ar) ga_add(g, nc + sc, i, v, ar);
      }
    }
  }
  /* compound tasks: a fixpoint over the methods */
  for (int changed = 1; changed;) {
    changed = 0;
    for (size_t c = 0; c < nc; ++c)
      for (int32_t j = h->m0[c]; j < h->m0[c + 1]; ++j) {
        const goap__px_method *pm = &t->htn.methods[h->mids[j]];
        int32_t tar = t->htn.ctasks[c].nparams;
        for (int32_t st = pm->step0; st < pm->step0 + pm->nsteps; ++st) {
          const goap__px_step *ps = &t->htn.steps[st];
          size_t xs = ga_x(t, ps->task);
          for (int32_t i = 0; i < ng; ++i) {
            uint8_t n = g->nalt[xs * (size_t)ng + (size_t)i];
            if (n == 0) continue;
            if (n == GA_TOP) {
              if (g->nalt[c * (size_t)ng + (size_t)i] != GA_TOP) {
                g->nalt[c * (size_t)ng + (size_t)i] = GA_TOP;
                changed = 1;
              }
              continue;
            }
            const goap__px_lit *l = &h->lits[t->goal0 + i];
            int32_t ar = t->preds[l->pred].arity;
            for (uint8_t a = 0; a < n; ++a) {
              const int32_t *sv = g->alt + ((xs * (size_t)ng + (size_t)i) * GA_ALTS + a) * (size_t)maxar;
              int32_t p = 0;
              for (int32_t q = 0; q < maxar; ++q) v[q] = -1;
              for (; p < ar; ++p) {
                if (sv[p] < 0) continue;
                int32_t arg = t->args.v[ps->args + sv[p]];
                if (arg >= 0) {
                  if (arg != g->gargs[(size_t)i * (size_t)maxar + (size_t)p]) break;
                  continue;
                }
                for (int32_t k = 0; k < tar; ++k)
                  if (t->args.v[pm->targs + k] == arg) {
                    v[p] = k;
                    break;
                  }
              }
              if (p == ar && ga_add(g, c, i, v, ar)) changed = 1;
            }
          }
        }
      }
  }
  /* the candidate lists */
  for (int pass = 0; pass < 2; ++pass) {
    size_t n = 0;
    for (size_t x = 0; x < nx; ++x) {
      if (pass) g->cand0[x] = (int32_t)n;
      int32_t w = 0;
      for (int32_t i = 0; i < ng; ++i) {
        uint8_t k = g->nalt[x * (size_t)ng + (size_t)i];
        if (k == 0) continue;
        if (pass) g->cand[n] = i;
        ++n;
        w += k == GA_TOP ? 1 : k;
      }
      g->work[x] = w;
    }
    if (pass) {
      g->cand0[nx] = (int32_t)n;
    } else {
      g->cand_n = n ? n : 1;
      g->cand = (int32_t *)goap__alloc(h->a, g->cand_n * sizeof *g->cand);
      if (!g->cand) goto oom;
    }
  }
  goap__free(h->a, v, (size_t)maxar * sizeof *v);
  return g;
oom:
  goap__free(h->a, v, (size_t)maxar * sizeof *v);
  goap__hg_free(g, h->a);
  h->st = GOAP_OUT_OF_MEMORY;
  return NULL;
}

static void ga_compute(const goap__hg *g, size_t x, const int32_t *args, uint64_t *out) {
  memset(out, 0, (size_t)g->words * sizeof *out);
  for (int32_t c = g->cand0[x]; c < g->cand0[x + 1]; ++c) {
    int32_t i = g->cand[c];
    size_t pi = x * (size_t)g->ng + (size_t)i;
    uint8_t n = g->nalt[pi];
    int hit = n == GA_TOP;
    const int32_t *ga = g->gargs + (size_t)i * (size_t)g->maxar;
    for (uint8_t a = 0; a < n && !hit && n != GA_TOP; ++a) {
      const int32_t *v = g->alt + (pi * GA_ALTS + a) * (size_t)g->maxar;
      hit = 1;
      for (int32_t p = 0; p < g->maxar && hit; ++p) hit = v[p] < 0 || args[v[p]] == ga[p];
    }
    if (hit) out[i >> 6] |= (uint64_t)1 << (i & 63);
  }
}

int goap__hg_mask(goap__hg *g, hp *h, int32_t task, const int32_t *args, int32_t nargs,
                  uint64_t *out) {
  size_t x = ga_x(h->t, task);
  if (g->work[x] <= GA_MEMO_WORK) {
    ga_compute(g, x, args, out);
    return 1;
  }
  int added = 0;
  int32_t e = goap__px_tset_add(h->a, &g->memo, (int32_t)x, args, nargs, &added);
  if (e < 0) return 0;
  size_t w = (size_t)g->words * 2;
  if (added) {
    ga_compute(g, x, args, out);
    for (int k = 0; k < g->words; ++k) {
      if (!goap__px_ipush(h->a, &g->memo_m, (int32_t)(uint32_t)out[k]) ||
          !goap__px_ipush(h->a, &g->memo_m, (int32_t)(uint32_t)(out[k] >> 32)))
        return 0;
    }
    return 1;
  }
  const int32_t *m = g->memo_m.v + (size_t)e * w;
  for (int k = 0; k < g->words; ++k)
    out[k] = (uint64_t)(uint32_t)m[2 * k] | (uint64_t)(uint32_t)m[2 * k + 1] << 32;
  return 1;
}
