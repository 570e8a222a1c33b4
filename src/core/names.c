/*
 * names.c -- open-addressing hash map from names to ids.
 *
 * Invariants: cap is 0 or a power of two; count <= cap / 2 (grown before it would pass);
 * keys are borrowed (owned by the domain or builder) and never freed here; there is no removal.
 * Each slot keeps its key's hash, so growing never rehashes a string and a probe compares
 * strings only when the hashes agree.
 */
#include <string.h>

#include "internal.h"

uint32_t goap__names_hash(const char *s) {
  uint64_t h = 1469598103934665603ull;
  for (; *s; ++s) {
    h ^= (unsigned char)*s;
    h *= 1099511628211ull;
  }
  return (uint32_t)(h ^ (h >> 32));
}

int32_t goap__names_find_h(const goap__names *m, const char *key, uint32_t hash) {
  if (!m->cap || !key) return -1;
  size_t mask = m->cap - 1;
  for (size_t i = (size_t)hash & mask;; i = (i + 1) & mask) {
    const goap__name_slot *sl = &m->slots[i];
    if (!sl->key) return -1;
    if (sl->hash == hash && strcmp(sl->key, key) == 0) return sl->id;
  }
}

int32_t goap__names_find(const goap__names *m, const char *key) {
  if (!m->cap || !key) return -1;
  return goap__names_find_h(m, key, goap__names_hash(key));
}

static void insert(goap__name_slot *slots, size_t cap, const char *key, int32_t id,
                   uint32_t hash) {
  size_t mask = cap - 1;
  size_t i = (size_t)hash & mask;
  while (slots[i].key) i = (i + 1) & mask;
  slots[i].key = key;
  slots[i].id = id;
  slots[i].hash = hash;
}

int goap__names_reserve(const goap_allocator *a, goap__names *m, size_t n) {
  if (n > SIZE_MAX / 4 - m->count) return 0;
  size_t ncap = m->cap ? m->cap : 16;
  while ((m->count + n) * 2 > ncap) ncap *= 2;
  if (ncap == m->cap) return 1;
  goap__name_slot *ns = (goap__name_slot *)goap__alloc(a, ncap * sizeof *ns);
  if (!ns) return 0;
  memset(ns, 0, ncap * sizeof *ns);
  for (size_t i = 0; i < m->cap; ++i)
    if (m->slots[i].key) insert(ns, ncap, m->slots[i].key, m->slots[i].id, m->slots[i].hash);
  goap__free(a, m->slots, m->cap * sizeof *m->slots);
  m->slots = ns;
  m->cap = ncap;
  return 1;
}

int goap__names_put_h(const goap_allocator *a, goap__names *m, const char *key, int32_t id,
                      uint32_t hash) {
  if ((m->count + 1) * 2 > m->cap && !goap__names_reserve(a, m, 1)) return 0;
  insert(m->slots, m->cap, key, id, hash);
  ++m->count;
  return 1;
}

int goap__names_put(const goap_allocator *a, goap__names *m, const char *key, int32_t id) {
  return goap__names_put_h(a, m, key, id, goap__names_hash(key));
}

void goap__names_free(const goap_allocator *a, goap__names *m) {
  goap__free(a, m->slots, m->cap * sizeof *m->slots);
  m->slots = NULL;
  m->cap = m->count = 0;
}
