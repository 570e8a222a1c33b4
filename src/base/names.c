/*
 * names.c -- the name table of every module: open addressing from (namespace, bytes) to ids.
 *
 * Invariants: cap is 0 or a power of two; count <= cap / 2 (grown before it would pass), so
 * every probe ends at an empty slot; keys are borrowed (owned by whoever put them) and never
 * freed here; there is no removal. Each slot keeps its key's hash, so growing never rehashes a
 * string and a probe compares bytes only when the hashes, namespaces and lengths agree.
 */
#include <string.h>

#include "base.h"

int32_t goap__names_find_h(const goap__names *m, int32_t ns, const char *key, size_t len,
                           uint32_t hash) {
  if (!m->cap || !key) return -1;
  GOAP_ASSERT((m->cap & (m->cap - 1)) == 0 && m->count <= m->cap / 2);
  size_t mask = m->cap - 1;
  for (size_t i = (size_t)hash & mask;; i = (i + 1) & mask) {
    const goap__name_slot *sl = &m->slots[i];
    if (!sl->key) return -1;
    if (sl->hash == hash && sl->ns == ns && sl->len == len && memcmp(sl->key, key, len) == 0)
      return sl->id;
  }
}

int32_t goap__names_find(const goap__names *m, int32_t ns, const char *key, size_t len) {
  if (!m->cap || !key) return -1;
  return goap__names_find_h(m, ns, key, len, goap__names_hash(ns, key, len));
}

static void insert(goap__name_slot *slots, size_t cap, const goap__name_slot *e) {
  size_t mask = cap - 1;
  size_t i = (size_t)e->hash & mask;
  while (slots[i].key) i = (i + 1) & mask;
  slots[i] = *e;
}

int goap__names_reserve(const goap_allocator *a, goap__names *m, size_t n) {
  if (n > SIZE_MAX / 4 - m->count) return 0;
  size_t ncap = m->cap ? m->cap : 16;
  while ((m->count + n) * 2 > ncap) ncap *= 2;
  if (ncap == m->cap) return 1;
  if (ncap > SIZE_MAX / sizeof(goap__name_slot)) return 0;
  goap__name_slot *ns = (goap__name_slot *)goap__alloc(a, ncap * sizeof *ns);
  if (!ns) return 0;
  memset(ns, 0, ncap * sizeof *ns);
  for (size_t i = 0; i < m->cap; ++i)
    if (m->slots[i].key) insert(ns, ncap, &m->slots[i]);
  goap__free(a, m->slots, m->cap * sizeof *m->slots);
  m->slots = ns;
  m->cap = ncap;
  return 1;
}

int goap__names_put_h(const goap_allocator *a, goap__names *m, int32_t ns, const char *key,
                      size_t len, int32_t id, uint32_t hash) {
  if (len > UINT32_MAX) return 0;
  GOAP_ASSERT(key != NULL && hash == goap__names_hash(ns, key, len));
  if ((m->count + 1) * 2 > m->cap && !goap__names_reserve(a, m, 1)) return 0;
  goap__name_slot e;
  e.key = key;
  e.len = (uint32_t)len;
  e.hash = hash;
  e.ns = ns;
  e.id = id;
  insert(m->slots, m->cap, &e);
  ++m->count;
  GOAP_ASSERT(m->count <= m->cap / 2);
  return 1;
}

int goap__names_put(const goap_allocator *a, goap__names *m, int32_t ns, const char *key,
                    size_t len, int32_t id) {
  return goap__names_put_h(a, m, ns, key, len, id, goap__names_hash(ns, key, len));
}

void goap__names_free(const goap_allocator *a, goap__names *m) {
  goap__free(a, m->slots, m->cap * sizeof *m->slots);
  m->slots = NULL;
  m->cap = m->count = 0;
}
