/*
 * htn_internal.h -- shared internals of the HTN layer (src/htn/).
 *
 * Invariants:
 *  - Everything is allocated through the object's goap_allocator (goap__alloc & co); a zero
 *    allocator is replaced by libc at creation, so internal code always has a callable fn.
 *  - The HTN layer uses only the public core API (goap.h). Method conditions are compiled here
 *    into field tests from goap_domain_var_info() (a field holds value - lo in `bits` bits at
 *    `shift` of word `word`), so checking a method costs no call into the core.
 *  - A goap_htn_domain is never written after goap_htn_builder_build returns.
 */
#ifndef GOAP_HTN_INTERNAL_H
#define GOAP_HTN_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "base/base.h"
#include "goap/htn.h"

/* Allocation, growth, the clock and the name table (tasks in ns -1): base/base.h. */

/* A field test: a <= field <= b (encoded, unsigned) and field != ne when has_ne. */
typedef struct goap__htn_test {
  uint32_t word, shift;
  uint64_t mask;
  uint64_t a, b, ne;
  uint32_t has_ne;
} goap__htn_test;

static inline int goap__htn_test_ok(const goap__htn_test *t, const goap_word *s) {
  uint64_t v = (s[t->word] >> t->shift) & t->mask;
  if (v - t->a > t->b - t->a) return 0;
  if (t->has_ne && v == t->ne) return 0;
  return 1;
}

typedef struct goap__htn_method {
  char *name;
  int32_t task;
  goap_cond *when;
  int nwhen;
  uint32_t t0, tn;   /* compiled tests in the domain's pool */
  int never;         /* a condition can never hold */
  uint32_t s0, sn;   /* subtasks in the domain's pool */
} goap__htn_method;


struct goap_htn_domain {
  goap_allocator alloc;
  const goap_domain *d;
  int ntasks, nmethods;
  char **task_names;
  int32_t *task_m0, *task_mn;  /* methods of task t: [task_m0[t], task_m0[t] + task_mn[t]) */
  goap__htn_method *methods;        /* grouped by task, in the order they were added */
  goap_htn_subtask *subs;      /* nsubs pool; then one root subtask per task */
  uint32_t nsubs;
  goap_cond *conds;            /* achieve conditions */
  size_t nconds;
  goap_effect *effs;           /* set effects */
  size_t neffs;
  goap__htn_test *tests;
  size_t ntests;
  uint32_t *aw_off;            /* per action: the words its effects write (CSR) */
  uint32_t *aw;
  size_t naw;
  uint32_t *var_word;          /* per variable: its word */
  int nactions, nvars;         /* of the goap_domain (for the sizes above) */
  uint32_t words;
  goap__names names;              /* tasks (ns -1) */
};

/* Compiles one condition into a test. Returns 0 when it can never hold. */
int goap__htn_compile_cond(const goap_domain *d, const goap_cond *c, goap__htn_test *out);

#endif /* GOAP_HTN_INTERNAL_H */
