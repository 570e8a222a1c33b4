/*
 * planner_backward.c -- the interval candidates of regression (backward) search, split from
 * planner.c: candidate partial states, their intersection with a condition, the split a `!=`
 * makes, and the test of the start state against a partial state.
 *
 * Invariants:
 *  - Candidates live in p->scratch, 2W words each: the interval lows, then the highs; a
 *    candidate whose interval becomes empty on some variable is dropped, so every candidate
 *    listed is satisfiable.
 *  - A `!=` strictly inside an interval splits the candidate in two; one at an end shrinks it.
 */
#include <string.h>

#include "planner.h"

/* Candidate partial states for regression live in p->scratch, 2W words each. */
goap_status goap__cand_reserve(goap_planner *p, size_t n) {
  return goap__planner_grow(p, (void **)&p->scratch, &p->cap_scratch, n * 2 * p->W,
                            sizeof *p->scratch);
}

/* Intersects every candidate [0, *nc) with var in [a, b]; drops the empty ones. */
static void cand_intersect(goap_planner *p, size_t *nc, const goap__var *v, uint64_t a,
                           uint64_t b) {
  uint32_t W = p->W;
  size_t n = *nc, out = 0;
  for (size_t i = 0; i < n; ++i) {
    goap_word *c = p->scratch + i * 2 * W;
    uint64_t l = goap__field_get(c, v->word, v->shift, v->fmask);
    uint64_t u = goap__field_get(c + W, v->word, v->shift, v->fmask);
    if (a > l) l = a;
    if (b < u) u = b;
    if (l > u) continue;
    goap_word *dst = p->scratch + out * 2 * W;
    if (dst != c) memmove(dst, c, 2 * W * sizeof *c);
    goap__field_put(dst, v->word, v->shift, v->fmask, l);
    goap__field_put(dst + W, v->word, v->shift, v->fmask, u);
    ++out;
  }
  *nc = out;
}

/* Intersects the candidates with var in [a, b] \ {ne}: first the interval, then a value that
 * falls strictly inside an interval splits that candidate in two. */
goap_status goap__split_ne(goap_planner *p, size_t *nc, const goap__var *v, uint64_t a,
                           uint64_t b, uint64_t ne, uint32_t has_ne) {
  cand_intersect(p, nc, v, a, b);
  if (!has_ne) return GOAP_OK;
  uint32_t W = p->W;
  size_t n = *nc;
  goap_status st = goap__cand_reserve(p, 2 * n + 1);
  if (st != GOAP_OK) return st;
  size_t out = 0, extra_n = 0;
  /* write surviving candidates compactly, and their upper halves after index n */
  for (size_t i = 0; i < n; ++i) {
    goap_word *c = p->scratch + i * 2 * W;
    uint64_t l = goap__field_get(c, v->word, v->shift, v->fmask);
    uint64_t u = goap__field_get(c + W, v->word, v->shift, v->fmask);
    if (ne < l || ne > u) {
      if (out != i) memmove(p->scratch + out * 2 * W, c, 2 * W * sizeof *c);
      ++out;
      continue;
    }
    if (l == u) continue;
    if (ne == l || ne == u) {
      goap_word *dst = p->scratch + out * 2 * W;
      if (dst != c) memmove(dst, c, 2 * W * sizeof *c);
      if (ne == l) goap__field_put(dst, v->word, v->shift, v->fmask, l + 1);
      else goap__field_put(dst + W, v->word, v->shift, v->fmask, u - 1);
      ++out;
      continue;
    }
    /* split: low part stays, high part goes to the tail area [n + extra_n] */
    goap_word *hi_part = p->scratch + (n + extra_n) * 2 * W;
    memcpy(hi_part, c, 2 * W * sizeof *c);
    goap__field_put(hi_part, v->word, v->shift, v->fmask, ne + 1);
    ++extra_n;
    goap_word *dst = p->scratch + out * 2 * W;
    if (dst != c) memmove(dst, c, 2 * W * sizeof *c);
    goap__field_put(dst + W, v->word, v->shift, v->fmask, ne - 1);
    ++out;
  }
  /* move the tail next to the survivors */
  if (extra_n) memmove(p->scratch + out * 2 * W, p->scratch + n * 2 * W,
                       extra_n * 2 * W * sizeof *p->scratch);
  *nc = out + extra_n;
  return GOAP_OK;
}

void goap__full_intervals(const goap_planner *p, goap_word *lo, goap_word *hi) {
  memset(lo, 0, p->W * sizeof *lo);
  memcpy(hi, p->d->full_hi, p->W * sizeof *hi);
}

int goap__start_satisfies(const goap_planner *p, const goap_word *lo, const goap_word *hi) {
  const goap_domain *d = p->d;
  for (uint32_t w = 0; w < p->W; ++w) {
    if (lo[w] == 0 && hi[w] == d->full_hi[w]) continue; /* nothing constrained here */
    for (uint32_t k = d->wvars_off[w]; k < d->wvars_off[w + 1]; ++k) {
      const goap__var *var = &d->vars[d->wvars[k]];
      uint64_t s = goap__field_get(p->start, var->word, var->shift, var->fmask);
      if (s < goap__field_get(lo, var->word, var->shift, var->fmask) ||
          s > goap__field_get(hi, var->word, var->shift, var->fmask))
        return 0;
    }
  }
  return 1;
}

