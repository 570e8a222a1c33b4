/*
 * succ_index.c -- the memory of the planner's successor index (goap__succ_index, planner.h);
 * planner.c builds it (build_index) and reads it (expand_indexed).
 *
 * Invariants:
 *  - Every array is allocated once, at planner creation, for the domain's sizes, which the
 *    index keeps, so goap__succ_index_free frees exactly what was allocated.
 *  - A failed init leaves the index zeroed and holding nothing.
 */
#include <string.h>

#include "planner.h"

#define NZ(n) ((n) ? (n) : 1)

goap_status goap__succ_index_init(goap__succ_index *x, const goap_allocator *a, size_t nfacts,
                                  size_t nactions, size_t words, size_t nvars, size_t *memory) {
  memset(x, 0, sizeof *x);
  x->nfacts = nfacts;
  x->nactions = nactions;
  x->words = words;
  x->nvars = nvars;
  size_t bytes = 0;
#define ALLOC(ptr, n)                                                                         \
  do {                                                                                        \
    size_t b_ = NZ(n) * sizeof *(ptr);                                                        \
    (ptr) = goap__alloc(a, b_);                                                               \
    if (!(ptr)) {                                                                             \
      goap__succ_index_free(x, a);                                                            \
      return GOAP_OUT_OF_MEMORY;                                                              \
    }                                                                                         \
    memset((ptr), 0, b_);                                                                     \
    bytes += b_;                                                                              \
  } while (0)
  ALLOC(x->list, nactions);
  ALLOC(x->unanchored, nactions);
  ALLOC(x->anchor_true, words);
  ALLOC(x->anchor_false, words);
  ALLOC(x->bit_var, words << 6);
  ALLOC(x->enum_vars, nvars);
  ALLOC(x->anchor_off, nfacts + 1);
  ALLOC(x->fact_count, nfacts + 1);
#undef ALLOC
  *memory += bytes;
  return GOAP_OK;
}

void goap__succ_index_free(goap__succ_index *x, const goap_allocator *a) {
  goap__free(a, x->list, NZ(x->nactions) * sizeof *x->list);
  goap__free(a, x->unanchored, NZ(x->nactions) * sizeof *x->unanchored);
  goap__free(a, x->anchor_true, NZ(x->words) * sizeof *x->anchor_true);
  goap__free(a, x->anchor_false, NZ(x->words) * sizeof *x->anchor_false);
  goap__free(a, x->bit_var, NZ(x->words << 6) * sizeof *x->bit_var);
  goap__free(a, x->enum_vars, NZ(x->nvars) * sizeof *x->enum_vars);
  goap__free(a, x->anchor_off, (x->nfacts + 1) * sizeof *x->anchor_off);
  goap__free(a, x->fact_count, (x->nfacts + 1) * sizeof *x->fact_count);
  memset(x, 0, sizeof *x);
}
