/*
 * alloc.c -- every allocation of the core goes through here.
 *
 * Invariants: a zero goap_allocator (fn == NULL) means the C library; the size passed when
 * freeing or resizing is the size the block was allocated with; no function here keeps state.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"

void *goap_libc_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size) {
  (void)ctx;
  (void)old_size;
  if (new_size == 0) {
    free(ptr);
    return NULL;
  }
  return realloc(ptr, new_size);
}

void *goap__realloc(const goap_allocator *a, void *p, size_t old_size, size_t new_size) {
  if (a && a->fn) return a->fn(a->ctx, p, old_size, new_size);
  return goap_libc_realloc(NULL, p, old_size, new_size);
}

void *goap__alloc(const goap_allocator *a, size_t size) {
  if (size == 0) size = 1;
  return goap__realloc(a, NULL, 0, size);
}

void goap__free(const goap_allocator *a, void *p, size_t size) {
  if (p) goap__realloc(a, p, size, 0);
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

int goap__grow(const goap_allocator *a, void **p, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap) return 1;
  size_t ncap = *cap ? *cap : 8;
  while (ncap < need) {
    if (ncap > ((size_t)-1) / 2 / elem) return 0;
    ncap *= 2;
  }
  void *np = goap__realloc(a, *p, *cap * elem, ncap * elem);
  if (!np) return 0;
  *p = np;
  *cap = ncap;
  return 1;
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

uint64_t goap__now_ns(void) {
  struct timespec ts;
#if defined(CLOCK_MONOTONIC)
  clock_gettime(CLOCK_MONOTONIC, &ts);
#else
  timespec_get(&ts, TIME_UTC);
#endif
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}
