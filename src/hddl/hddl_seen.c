/*
 * hddl_seen.c -- the HDDL planner's set of reached search situations: 128-bit keys in one
 * open-addressing table (linear probing), grown by doubling.
 *
 * Invariants:
 *  - cap is 0 or a power of two; n < cap / 2 after every add (the table doubles before it
 *    would pass half full), so a probe always ends at an empty slot.
 *  - A slot is empty when its second word is 0; every stored key has an odd second word.
 *  - Keys are never removed one by one; clear() empties the whole table.
 *  - Every allocation goes through the caller's allocator; a failed growth leaves the table
 *    as it was (the key is refused, never half-stored).
 */
#include <string.h>

#include "hddl_seen.h"

static size_t hseen_slot(const goap__hseen *s, uint64_t a, uint64_t b) {
  uint64_t x = a ^ (b * 0x9E3779B97F4A7C15ull);
  x ^= x >> 29;
  return (size_t)x & (s->cap - 1);
}

/* Stores (a, b) in a table known to have room and not to hold it. */
static void hseen_put(goap__hseen *s, uint64_t a, uint64_t b) {
  size_t i = hseen_slot(s, a, b);
  while (s->k[2 * i + 1] != 0) i = (i + 1) & (s->cap - 1);
  s->k[2 * i] = a;
  s->k[2 * i + 1] = b;
  s->n++;
}

static int hseen_grow(const goap_allocator *al, goap__hseen *s) {
  size_t ncap = s->cap ? s->cap * 2 : 4096;
  if (ncap > SIZE_MAX / (2 * sizeof(uint64_t))) return 0;
  uint64_t *nk = (uint64_t *)goap__alloc(al, ncap * 2 * sizeof(uint64_t));
  if (!nk) return 0;
  memset(nk, 0, ncap * 2 * sizeof(uint64_t));
  uint64_t *ok = s->k;
  size_t ocap = s->cap;
  s->k = nk;
  s->cap = ncap;
  s->n = 0;
  for (size_t i = 0; i < ocap; ++i)
    if (ok[2 * i + 1] != 0) hseen_put(s, ok[2 * i], ok[2 * i + 1]);
  goap__free(al, ok, ocap * 2 * sizeof(uint64_t));
  return 1;
}

int goap__hseen_add(const goap_allocator *al, goap__hseen *s, uint64_t a, uint64_t b) {
  b |= 1;
  if (s->cap) {
    size_t i = hseen_slot(s, a, b);
    while (s->k[2 * i + 1] != 0) {
      if (s->k[2 * i] == a && s->k[2 * i + 1] == b) return 0;
      i = (i + 1) & (s->cap - 1);
    }
  }
  if (s->max && s->n >= s->max) return -1;
  if ((s->n + 1) * 2 > s->cap && !hseen_grow(al, s)) return -1;
  hseen_put(s, a, b);
  return 1;
}

void goap__hseen_clear(goap__hseen *s) {
  if (s->cap) memset(s->k, 0, s->cap * 2 * sizeof(uint64_t));
  s->n = 0;
}

void goap__hseen_free(const goap_allocator *al, goap__hseen *s) {
  if (s->cap) goap__free(al, s->k, s->cap * 2 * sizeof(uint64_t));
  s->k = NULL;
  s->cap = s->n = 0;
}
