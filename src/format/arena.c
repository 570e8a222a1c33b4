/*
 * arena.c -- the format layer's bump arena (parse-time strings); the other memory
 * helpers and the name table are base/base.h's.
 *
 * Invariants:
 *  - All memory comes from the goap_allocator passed in; blocks are freed with the exact size
 *    they were allocated with (the allocator contract).
 *  - A failed allocation leaves every structure as it was (callers may keep using it or free
 *    it).
 */
#include <stdlib.h>
#include <string.h>

#include "format_internal.h"

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
    c = (goap__chunk *)goap__alloc(a, ARENA_HEADER + body);
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
    goap__free(a, c, c->size);
    c = next;
  }
  ar->head = NULL;
  ar->used = ar->cap = 0;
}
