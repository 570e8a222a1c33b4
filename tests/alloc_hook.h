/*
 * alloc_hook.h -- the tests' one instrumented allocator, a goap_realloc_fn in the spirit of
 * Lua's ltests.c debug_realloc: it counts calls and bytes, checks the old_size the library
 * passes back, and refuses chosen calls (allocation-failure injection).
 *
 *   test_alloc ta = {0};             // zero: count only, never refuse
 *   ta.fail_at = 3;                  // refuse the 3rd allocation or resize
 *   ta.fail_after = 1;               // ... and every one after it (a budget of 2 calls)
 *   desc.allocator = test_alloc_hook(&ta);
 *   ... CHECK_EQ_INT(ta.outstanding, 0); CHECK_EQ_INT(ta.bad_old_size, 0);
 *
 * Every block carries a header (its size and a tag), so a wrong old_size or a pointer the hook
 * never returned is counted instead of corrupting the heap. Not thread-safe: one test_alloc per
 * thread (test_sched and test_threads, whose workers share an allocator, keep their own).
 */
#ifndef GOAP_TEST_ALLOC_HOOK_H
#define GOAP_TEST_ALLOC_HOOK_H

#include <stddef.h>
#include <stdlib.h>

#include "goap/goap.h"

typedef struct test_alloc {
  size_t calls;       /* allocations and resizes asked for (new_size > 0), refused ones too */
  size_t frees;       /* frees of a non-NULL block */
  size_t fail_at;     /* 1-based index (in calls) of the call to refuse; 0: never */
  int fail_after;     /* with fail_at: refuse every later call too */
  size_t injected;    /* calls refused */
  size_t outstanding; /* bytes held by the library now */
  size_t peak;        /* the most bytes held at once */
  size_t live;        /* blocks held now */
  int bad_old_size;   /* an old_size that was not the block's size (or not 0 for NULL) */
  int unknown_ptr;    /* a pointer the hook never returned (not freed, not resized) */
} test_alloc;

#define TEST_ALLOC_TAG ((size_t)0x60a9a110cu)

typedef union test_alloc_hdr {
  struct {
    size_t size, tag;
  } h;
  max_align_t align;
} test_alloc_hdr;

/* 1 when the current call (number ta->calls) is to be refused. */
static inline int test_alloc_refuse(const test_alloc *ta) {
  return ta->fail_at && (ta->calls == ta->fail_at || (ta->fail_after && ta->calls > ta->fail_at));
}

static inline void *test_alloc_fn(void *ctx, void *ptr, size_t old_size, size_t new_size) {
  test_alloc *ta = (test_alloc *)ctx;
  test_alloc_hdr *b = ptr ? (test_alloc_hdr *)ptr - 1 : NULL;
  if (b && b->h.tag != TEST_ALLOC_TAG) {
    ta->unknown_ptr++;
    return NULL;
  }
  if (b ? b->h.size != old_size : old_size != 0) ta->bad_old_size++;
  if (new_size == 0) {
    if (b) {
      ta->frees++;
      ta->live--;
      ta->outstanding -= b->h.size;
      b->h.tag = 0;
      free(b);
    }
    return NULL;
  }
  ta->calls++;
  if (test_alloc_refuse(ta)) {
    ta->injected++;
    return NULL;
  }
  size_t had = b ? b->h.size : 0;
  test_alloc_hdr *nb = (test_alloc_hdr *)realloc(b, sizeof *nb + new_size);
  if (!nb) return NULL;
  if (!b) ta->live++;
  nb->h.size = new_size;
  nb->h.tag = TEST_ALLOC_TAG;
  ta->outstanding = ta->outstanding - had + new_size;
  if (ta->outstanding > ta->peak) ta->peak = ta->outstanding;
  return nb + 1;
}

/* The hook as a goap_allocator over ta. */
static inline goap_allocator test_alloc_hook(test_alloc *ta) {
  goap_allocator a;
  a.fn = test_alloc_fn;
  a.ctx = ta;
  return a;
}

#endif /* GOAP_TEST_ALLOC_HOOK_H */
