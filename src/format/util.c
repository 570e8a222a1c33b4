/*
 * util.c -- memory helpers of the format layer: allocator access, growable arrays, a bump
 * arena and a (namespace, name) -> int hash table.
 *
 * Invariants:
 *  - All memory comes from the goap_allocator passed in; blocks are freed with the exact size
 *    they were allocated with (the allocator contract).
 *  - A failed allocation leaves every structure as it was (callers may keep using it or free
 *    it).
 *  - The name table uses open addressing with linear probing; it never holds more than half
 *    its slots, so probes terminate.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

goap_allocator goap__mem_resolve(const goap_allocator *a) {
  goap_allocator r;
  if (a && a->fn) {
    r = *a;
  } else {
    r.fn = goap_libc_realloc;
    r.ctx = NULL;
  }
  return r;
}

void *goap__mem_alloc(const goap_allocator *a, size_t n) {
  if (n == 0) n = 1;
  return a->fn(a->ctx, NULL, 0, n);
}

void goap__mem_free(const goap_allocator *a, void *p, size_t n) {
  if (p) a->fn(a->ctx, p, n ? n : 1, 0); /* goap__mem_alloc(0) took 1 byte */
}

void *goap__mem_grow(const goap_allocator *a, void *data, size_t *cap, size_t need,
                     size_t elem) {
  size_t ncap;
  void *nd;
  if (need <= *cap && data) return data;
  ncap = *cap ? *cap : 8;
  while (ncap < need) {
    if (ncap > ((size_t)-1) / 2) return NULL;
    ncap *= 2;
  }
  if (elem && ncap > ((size_t)-1) / elem) return NULL;
  nd = a->fn(a->ctx, data, data ? *cap * elem : 0, ncap * elem);
  if (!nd) return NULL;
  *cap = ncap;
  return nd;
}

/* ------------------------------------------------------------------------------------------
 * Arena
 * ---------------------------------------------------------------------------------------- */
struct goap__chunk {
  goap__chunk *next;
  size_t size; /* bytes of the whole block, header included */
};

#define ARENA_CHUNK 16384u
#define ARENA_HEADER ((sizeof(goap__chunk) + 7u) & ~(size_t)7u)

void *goap__arena_alloc(const goap_allocator *a, goap__arena *ar, size_t n) {
  size_t need = (n + 7u) & ~(size_t)7u;
  if (need < n) return NULL;
  if (!ar->head || ar->cap - ar->used < need) {
    size_t body = need > ARENA_CHUNK ? need : ARENA_CHUNK;
    goap__chunk *c;
    if (body > ((size_t)-1) - ARENA_HEADER) return NULL;
    c = (goap__chunk *)goap__mem_alloc(a, ARENA_HEADER + body);
    if (!c) return NULL;
    c->next = ar->head;
    c->size = ARENA_HEADER + body;
    ar->head = c;
    ar->used = 0;
    ar->cap = body;
  }
  {
    char *p = (char *)ar->head + ARENA_HEADER + ar->used;
    ar->used += need;
    return p;
  }
}

char *goap__arena_strndup(const goap_allocator *a, goap__arena *ar, const char *s, size_t n) {
  char *p;
  if (n == (size_t)-1) return NULL;
  p = (char *)goap__arena_alloc(a, ar, n + 1);
  if (!p) return NULL;
  if (n) memcpy(p, s, n);
  p[n] = '\0';
  return p;
}

void goap__arena_free(const goap_allocator *a, goap__arena *ar) {
  goap__chunk *c = ar->head;
  while (c) {
    goap__chunk *next = c->next;
    goap__mem_free(a, c, c->size);
    c = next;
  }
  ar->head = NULL;
  ar->used = ar->cap = 0;
}

/* ------------------------------------------------------------------------------------------
 * Name table
 * ---------------------------------------------------------------------------------------- */
static uint32_t name_hash(int32_t ns, const char *s, size_t n) {
  uint32_t h = 2166136261u;
  size_t i;
  h = (h ^ (uint32_t)ns) * 16777619u;
  for (i = 0; i < n; ++i) h = (h ^ (unsigned char)s[i]) * 16777619u;
  return h;
}

int32_t goap__ftab_find(const goap__ftab *t, int32_t ns, const char *s, size_t n) {
  uint32_t h;
  size_t i, mask;
  if (!t->cap) return -1;
  h = name_hash(ns, s, n);
  mask = t->cap - 1;
  for (i = h & mask;; i = (i + 1) & mask) {
    const goap__ftab_entry *e = &t->slots[i];
    if (!e->name) return -1;
    if (e->hash == h && e->ns == ns && e->len == n && memcmp(e->name, s, n) == 0)
      return e->value;
  }
}

static void names_put(goap__ftab_entry *slots, size_t cap, const goap__ftab_entry *e) {
  size_t mask = cap - 1, i;
  for (i = e->hash & mask; slots[i].name; i = (i + 1) & mask) {
  }
  slots[i] = *e;
}

goap_status goap__ftab_insert(const goap_allocator *a, goap__ftab *t, int32_t ns,
                               const char *s, size_t n, int32_t value) {
  goap__ftab_entry e;
  if (n > UINT32_MAX) return GOAP_TOO_LARGE;
  if ((t->count + 1) * 2 > t->cap) {
    size_t ncap = t->cap ? t->cap * 2 : 64, i;
    goap__ftab_entry *ns_;
    if (ncap > ((size_t)-1) / sizeof *ns_) return GOAP_OUT_OF_MEMORY;
    ns_ = (goap__ftab_entry *)goap__mem_alloc(a, ncap * sizeof *ns_);
    if (!ns_) return GOAP_OUT_OF_MEMORY;
    memset(ns_, 0, ncap * sizeof *ns_);
    for (i = 0; i < t->cap; ++i)
      if (t->slots[i].name) names_put(ns_, ncap, &t->slots[i]);
    goap__mem_free(a, t->slots, t->cap * sizeof *t->slots);
    t->slots = ns_;
    t->cap = ncap;
  }
  e.name = s;
  e.len = (uint32_t)n;
  e.hash = name_hash(ns, s, n);
  e.ns = ns;
  e.value = value;
  names_put(t->slots, t->cap, &e);
  ++t->count;
  return GOAP_OK;
}

void goap__ftab_free(const goap_allocator *a, goap__ftab *t) {
  goap__mem_free(a, t->slots, t->cap * sizeof *t->slots);
  t->slots = NULL;
  t->cap = t->count = 0;
}
