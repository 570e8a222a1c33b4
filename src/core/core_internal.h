/*
 * core_internal.h -- shared internals of the core (not installed).
 *
 * Invariants:
 *  - A variable's value is stored as the unsigned offset (value - lo) in a bit field of
 *    `bits` bits at `shift` inside state word `word`; fields never straddle words.
 *  - Every condition compiles to an interval test on the encoded field, [a, b], optionally
 *    with one excluded value (NE). An EQ test is also folded into per-word (mask, value) pairs
 *    so that "does s satisfy these equalities" costs one AND and one compare per word touched.
 *  - Compiled actions keep sparse per-word lists (only the words they touch). ADD effects add an
 *    implicit interval precondition that keeps the result in range; ADD_CLAMP effects add none
 *    and saturate the result at 0 and the variable's encoded range instead.
 *  - A goap_domain is never written after goap_builder_build returns.
 */
#ifndef GOAP_CORE_INTERNAL_H
#define GOAP_CORE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "base/base.h"
#include "goap/goap.h"

/* Allocation (goap__alloc, goap__grow, ...), the clock and the name tables: base/base.h. */
/* The core's name tables hold NUL-terminated names in namespace 0. */

/* ---- compiled pieces ----------------------------------------------------------------------- */

/* One word of an equality test: (s[word] & mask) == value. */
typedef struct goap__wmask {
  uint32_t word;
  uint64_t mask;
  uint64_t value;
} goap__wmask;

/* A field test: a <= field <= b (unsigned, encoded), and field != ne when has_ne. */
typedef struct goap__ftest {
  uint32_t word, shift;
  uint64_t fmask; /* (1 << bits) - 1, unshifted */
  uint64_t a, b;
  uint64_t ne;
  uint32_t has_ne;
  int32_t var;
} goap__ftest;

/* An ADD effect on an encoded field; a clamped one saturates at 0 and the var's range. */
typedef struct goap__fadd {
  uint32_t word, shift;
  uint64_t fmask;
  int64_t delta;
  int32_t var;
  uint32_t top;  /* the var's encoded range: results are clamped to [0, top] (a strict ADD's
                    range precondition keeps it inside, so only ADD_CLAMP ever saturates) */
} goap__fadd;

typedef struct goap__var {
  char *name;
  goap_var_type type;
  int32_t lo, hi;
  int nvalues;        /* enum: value count, bool: 2, int: 0 */
  char **values;      /* enum value names */
  int32_t def;        /* default (start) value, unencoded */
  unsigned flags;
  uint32_t word, shift, bits;
  uint64_t fmask;     /* (1 << bits) - 1 */
  uint64_t range;     /* hi - lo as an encoded value */
} goap__var;

typedef struct goap__action {
  char *name;
  double cost;
  goap_cond *pre;
  int npre;
  goap_effect *eff;
  int neff;
  goap_check_fn check;
  goap_cost_fn dyn_cost;
  void *user;
  goap_state_cost_fn scost;     /* positional cost (goap_builder_set_state_cost), or NULL */
  void *scost_user;             /* its user pointer */
  double min_cost;              /* its lower bound */
  unsigned scost_flags;         /* GOAP_STATE_COST_* */
  /* compiled (offsets into the domain's pools) */
  uint32_t pre_eq, npre_eq;     /* goap__wmask */
  uint32_t pre_ft, npre_ft;     /* goap__ftest: non-equality tests and ADD range tests */
  uint32_t eff_set, neff_set;   /* goap__wmask: s = (s & ~mask) | value */
  uint32_t eff_add, neff_add;   /* goap__fadd */
  int never;                    /* contradictory preconditions: never applicable */
} goap__action;

typedef struct goap__goal {
  char *name;
  double priority;
  goap_cond *want;
  int nwant;
} goap__goal;

struct goap_domain {
  goap_allocator alloc;
  char *name;
  int nvars, nactions, ngoals;
  goap__var *vars;
  goap__action *actions;
  goap__goal *goals;
  uint32_t words;
  goap_word *defaults;
  /* pools for compiled actions (goap__action's pre_eq, pre_ft, eff_set, eff_add index them) */
  goap__wmask *mask_pool;  /* equality tests and SET effects as word masks */
  uint32_t nmask_pool;
  goap__ftest *test_pool;  /* the other field tests (ranges, !=, ADD range tests) */
  uint32_t ntest_pool;
  goap__fadd *add_pool;    /* ADD effects */
  uint32_t nadd_pool;
  /* var -> actions with an effect on it (CSR) */
  uint32_t *writers_off; /* nvars + 1 */
  int32_t *writers;
  size_t nwriters;
  int max_eff;           /* the most effects of one action */
  int has_callbacks;     /* some action has a check or dynamic-cost callback */
  int has_scost;         /* bit 0: some action has a state cost; bit 1: a pure one */
  goap_word *used;       /* words: the bits that belong to some field */
  int32_t *odd_vars;     /* vars whose range does not fill their field (need a range check) */
  uint32_t *wvars_off;   /* words + 1: the variables packed into each word (CSR) */
  int32_t *wvars;        /* nvars */
  goap_word *full_hi;    /* words: every field at its largest value (an unconstrained high) */
  int nodd_vars;         /* entries of odd_vars */
  goap__names var_names, action_names, goal_names;
};

/* ---- helpers shared by the core ------------------------------------------------------------ */

static inline uint64_t goap__field_get(const goap_word *s, uint32_t word, uint32_t shift,
                                       uint64_t fmask) {
  return (s[word] >> shift) & fmask;
}

static inline void goap__field_put(goap_word *s, uint32_t word, uint32_t shift, uint64_t fmask,
                                   uint64_t v) {
  s[word] = (s[word] & ~(fmask << shift)) | ((v & fmask) << shift);
}

/* Compiles one condition into an encoded interval [a, b] with optional NE. Returns 0 when the
 * condition can never hold (empty interval). The caller has validated var and op. */
int goap__cond_interval(const goap_domain *d, const goap_cond *c, uint64_t *a, uint64_t *b,
                        uint64_t *ne, uint32_t *has_ne);

/* Validates a condition against a domain-like var table; returns a status and a message. */
goap_status goap__check_cond(const goap__var *vars, int nvars, const goap_cond *c, char *msg,
                             size_t cap);

static inline int goap__ftest_ok(const goap__ftest *t, const goap_word *s) {
  uint64_t v = (s[t->word] >> t->shift) & t->fmask;
  if (v - t->a > t->b - t->a) return 0;
  if (t->has_ne && v == t->ne) return 0;
  return 1;
}

/* The pools may be NULL when empty, so they are indexed only inside the loops (never
 * NULL + 0). */
static inline int goap__action_ok(const goap_domain *d, const goap__action *a,
                                  const goap_word *s) {
  for (uint32_t i = 0; i < a->npre_eq; ++i) {
    const goap__wmask *m = &d->mask_pool[a->pre_eq + i];
    if ((s[m->word] & m->mask) != m->value) return 0;
  }
  for (uint32_t i = 0; i < a->npre_ft; ++i)
    if (!goap__ftest_ok(&d->test_pool[a->pre_ft + i], s)) return 0;
  return 1;
}

/* Applies the effects of an action whose preconditions hold (so ADD results stay in range;
 * ADD_CLAMP results are saturated). */
static inline void goap__action_do(const goap_domain *d, const goap__action *a, goap_word *s) {
  for (uint32_t i = 0; i < a->neff_set; ++i) {
    const goap__wmask *m = &d->mask_pool[a->eff_set + i];
    GOAP_ASSERT((m->value & ~m->mask) == 0 && m->word < d->words);
    s[m->word] = (s[m->word] & ~m->mask) | m->value;
  }
  for (uint32_t i = 0; i < a->neff_add; ++i) {
    const goap__fadd *f = &d->add_pool[a->eff_add + i];
    GOAP_ASSERT(f->top <= f->fmask && f->word < d->words);
    uint64_t v = (s[f->word] >> f->shift) & f->fmask;
    int64_t r = (int64_t)v + f->delta;
    r = r < 0 ? 0 : r; /* branch-free saturation */
    r = r > (int64_t)f->top ? (int64_t)f->top : r;
    goap__field_put(s, f->word, f->shift, f->fmask, (uint64_t)r);
  }
}

uint64_t goap__hash_words(const goap_word *s, size_t n);

/* Hash of a state; one-word states take an inlined path (the common case in games): the two
 * halves of a 128-bit product, so that its low bits (the table index) depend on every bit of
 * the state (a 64-bit product's low bits depend only on the state's low bits: states that
 * differ only high up, as along a chain of bools, would all collide). */
static inline uint64_t goap__hash_state(const goap_word *s, size_t n) {
  if (n == 1) {
#if defined(__SIZEOF_INT128__)
    __extension__ typedef unsigned __int128 goap__u128;
    goap__u128 m = (goap__u128)s[0] * 0x9e3779b97f4a7c15ull;
    return (uint64_t)m ^ (uint64_t)(m >> 64);
#else
    uint64_t h = s[0] * 0x9e3779b97f4a7c15ull;
    h ^= h >> 32;
    h *= 0xd6e8feb86659fd93ull;
    return h ^ (h >> 32);
#endif
  }
  return goap__hash_words(s, n);
}

static inline void goap__copy_words(goap_word *dst, const goap_word *src, size_t n) {
  for (size_t i = 0; i < n; ++i) dst[i] = src[i];
}

#endif /* GOAP_CORE_INTERNAL_H */
