/*
 * mem.c -- allocation through a goap_allocator, the growth helper and the assertion handler.
 *
 * Invariants: a zero allocator means the C library (realloc/free); the size given when freeing
 * or resizing is the size the block was allocated with; goap__grow_ex zero-fills what it adds
 * when asked and changes nothing when it fails; no function here keeps state.
 */
#include <stdlib.h>
#include <string.h>

#include "base.h"

/* the C library as a goap_realloc_fn (goap_libc_realloc of the core, which not every module
 * links) */
static void *libc_realloc(void *ctx, void *p, size_t old_size, size_t new_size) {
  (void)ctx;
  (void)old_size;
  if (new_size == 0) {
    free(p);
    return NULL;
  }
  return realloc(p, new_size);
}

goap_allocator goap__resolve(const goap_allocator *a) {
  goap_allocator r = {libc_realloc, NULL};
  if (a && a->fn) r = *a;
  return r;
}

void *goap__realloc(const goap_allocator *a, void *p, size_t old_size, size_t new_size) {
  if (a && a->fn) return a->fn(a->ctx, p, old_size, new_size);
  return libc_realloc(NULL, p, old_size, new_size);
}

void *goap__alloc(const goap_allocator *a, size_t size) {
  if (size == 0) size = 1;
  return goap__realloc(a, NULL, 0, size);
}

void goap__free(const goap_allocator *a, void *p, size_t size) {
  if (p) goap__realloc(a, p, size ? size : 1, 0);
}

char *goap__strdup(const goap_allocator *a, const char *s) {
  size_t n = strlen(s) + 1;
  char *r = (char *)goap__alloc(a, n);
  if (r) memcpy(r, s, n);
  return r;
}

void goap__strfree(const goap_allocator *a, char *s) {
  if (s) goap__free(a, s, strlen(s) + 1);
}

size_t goap__grow_cap(size_t cap, size_t need, size_t elem) {
  GOAP_ASSERT(elem > 0);
  if (need <= cap) return cap;
  size_t ncap = cap ? cap : 8;
  while (ncap < need) {
    if (ncap > SIZE_MAX / 2) return 0;
    ncap *= 2;
  }
  return ncap > SIZE_MAX / elem ? 0 : ncap;
}

int goap__grow_ex(const goap_allocator *a, void **p, size_t *cap, size_t need, size_t elem,
                  int zero) {
  GOAP_ASSERT(elem > 0);
  GOAP_ASSERT(*p != NULL || *cap == 0);
  if (need <= *cap) return 1;
  size_t ncap = goap__grow_cap(*cap, need, elem);
  if (!ncap) return 0;
  void *np = goap__realloc(a, *p, *p ? *cap * elem : 0, ncap * elem);
  if (!np) return 0;
  if (zero) memset((char *)np + *cap * elem, 0, (ncap - *cap) * elem);
  *p = np;
  *cap = ncap;
  return 1;
}

void goap__assert_fail(const char *cond, const char *file, int line) {
  /* the library never prints: the arguments are in this frame for a debugger or a core
   * dump, and sanitizers report the abort with its stack */
  (void)cond;
  (void)file;
  (void)line;
  abort();
}
