/*
 * alloc.c -- the C library as a goap_allocator (goap_libc_realloc) and the state hash.
 *
 * Invariants: goap_libc_realloc follows the goap_realloc_fn contract (new_size 0 frees);
 * no function here keeps state. The internal allocation helpers are in base/mem.c.
 */
#include <stdlib.h>

#include "core_internal.h"

void *goap_libc_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size) {
  (void)ctx;
  (void)old_size;
  if (new_size == 0) {
    free(ptr);
    return NULL;
  }
  return realloc(ptr, new_size);
}

static uint64_t rotl(uint64_t x, unsigned r) { return (x << r) | (x >> (64u - r)); }

/* Four independent lanes, so that long states do not wait on one multiply chain. */
uint64_t goap__hash_words(const goap_word *s, size_t n) {
  const uint64_t m = 0xff51afd7ed558ccdull;
  uint64_t a = 0x9e3779b97f4a7c15ull ^ (uint64_t)n, b = 0xc2b2ae3d27d4eb4full,
           c = 0x165667b19e3779f9ull, d = 0x27d4eb2f165667c5ull;
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    a = (a ^ s[i]) * m;
    b = (b ^ s[i + 1]) * m;
    c = (c ^ s[i + 2]) * m;
    d = (d ^ s[i + 3]) * m;
    a ^= a >> 32;
    b ^= b >> 32;
    c ^= c >> 32;
    d ^= d >> 32;
  }
  for (; i < n; ++i) {
    a = (a ^ s[i]) * m;
    a ^= a >> 32;
  }
  uint64_t h = a ^ rotl(b, 17) ^ rotl(c, 31) ^ rotl(d, 47);
  h ^= h >> 29;
  h *= 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 32;
  return h;
}
