/*
 * names.c -- open-addressing hash map from names to ids.
 *
 * Invariants: cap is 0 or a power of two; count <= cap / 2 (grown before it would pass);
 * keys are borrowed (owned by the domain or builder) and never freed here; there is no removal.
 */
#include <string.h>

#include "internal.h"

static uint64_t hash_str(const char *s) {
  uint64_t h = 1469598103934665603ull;
  for (; *s; ++s) {
    h ^= (unsigned char)*s;
    h *= 1099511628211ull;
  }
  return h;
}

int32_t goap__names_find(const goap__names *m, const char *key) {
  if (!m->cap || !key) return -1;
  size_t mask = m->cap - 1;
  for (size_t i = (size_t)hash_str(key) & mask;; i = (i + 1) & mask) {
    const goap__name_slot *sl = &m->slots[i];
    if (!sl->key) return -1;
    if (strcmp(sl->key, key) == 0) return sl->id;
  }
}

static void insert(goap__name_slot *slots, size_t cap, const char *key, int32_t id) {
  size_t mask = cap - 1;
  size_t i = (size_t)hash_str(key) & mask;
  while (slots[i].key) i = (i + 1) & mask;
  slots[i].key = key;
  slots[i].id = id;
}

int goap__names_put(const goap_allocator *a, goap__names *m, const char *key, int32_t id) {
  if ((m->count + 1) * 2 > m->cap) {
    size_t ncap = m->cap ? m->cap * 2 : 16;
    goap__name_slot *ns = (goap__name_slot *)goap__alloc(a, ncap * sizeof *ns);
    if (!ns) return 0;
    memset(ns, 0, ncap * sizeof *ns);
    for (size_t i = 0; i < m->cap; ++i)
      if (m->slots[i].key) insert(ns, ncap, m->slots[i].key, m->slots[i].id);
    goap__free(a, m->slots, m->cap * sizeof *m->slots);
    m->slots = ns;
    m->cap = ncap;
  }
  insert(m->slots, m->cap, key, id);
  ++m->count;
  return 1;
}

void goap__names_free(const goap_allocator *a, goap__names *m) {
  goap__free(a, m->slots, m->cap * sizeof *m->slots);
  m->slots = NULL;
  m->cap = m->count = 0;
}
