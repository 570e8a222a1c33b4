/*
 * cache.c -- plans keyed by (agent type, goal, start state), least recently used out.
 *
 * Invariants:
 *  - At most `cap` entries; entries live in one array and are linked twice: into a hash chain
 *    (bucket heads, next) and into a recency list (newer/older, `head` the most recent).
 *  - An entry's key and plan buffers grow (doubling) and are reused by the entries that
 *    replace it, so a warm cache stores without allocating.
 */
#include <string.h>

#include "runtime.h"

typedef struct entry {
  const goap_agent_type *type;
  int goal;
  uint64_t hash;
  goap_word *key;
  size_t key_cap, W;
  int32_t *plan;
  size_t plan_cap;
  int len;
  double cost;
  int next;          /* hash chain */
  int newer, older;  /* recency list */
  int used;
} entry;

struct goap_plan_cache {
  goap_allocator alloc;
  entry *e;
  int cap, n;
  int *bucket;
  int nbucket;       /* power of two */
  int head, tail;    /* most and least recently used */
  goap_plan_cache_stats st;
};

static uint64_t hash_key(const goap_agent_type *t, int goal, const goap_word *s, size_t W) {
  uint64_t h = (uint64_t)(uintptr_t)t * 0x9E3779B97F4A7C15ull ^ (uint64_t)(uint32_t)goal;
  for (size_t i = 0; i < W; ++i) {
    h ^= s[i] + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    h *= 0xff51afd7ed558ccdull;
  }
  return h ^ (h >> 33);
}

goap_status goap_plan_cache_create(const goap_allocator *alloc, int capacity,
                                   goap_plan_cache **out) {
  if (!out) return GOAP_INVALID_ARGUMENT;
  *out = NULL;
  goap_allocator a = goap__rt_resolve(alloc);
  if (capacity < 0 || capacity > (1 << 24)) return GOAP_OUT_OF_RANGE;
  if (capacity == 0) capacity = 256;
  goap_plan_cache *c = (goap_plan_cache *)goap__rt_alloc(&a, sizeof *c);
  if (!c) return GOAP_OUT_OF_MEMORY;
  c->alloc = a;
  c->cap = capacity;
  c->nbucket = 1;
  while (c->nbucket < 2 * capacity) c->nbucket *= 2;
  c->e = (entry *)goap__rt_alloc(&a, (size_t)capacity * sizeof *c->e);
  c->bucket = (int *)goap__rt_alloc(&a, (size_t)c->nbucket * sizeof *c->bucket);
  if (!c->e || !c->bucket) {
    goap__rt_free(&a, c->e, (size_t)capacity * sizeof *c->e);
    goap__rt_free(&a, c->bucket, (size_t)c->nbucket * sizeof *c->bucket);
    goap__rt_free(&a, c, sizeof *c);
    return GOAP_OUT_OF_MEMORY;
  }
  for (int i = 0; i < c->nbucket; ++i) c->bucket[i] = -1;
  c->head = c->tail = -1;
  *out = c;
  return GOAP_OK;
}

void goap_plan_cache_destroy(goap_plan_cache *c) {
  if (!c) return;
  goap_allocator a = c->alloc;
  for (int i = 0; i < c->cap; ++i) {
    goap__rt_free(&a, c->e[i].key, c->e[i].key_cap * sizeof(goap_word));
    goap__rt_free(&a, c->e[i].plan, c->e[i].plan_cap * sizeof(int32_t));
  }
  goap__rt_free(&a, c->e, (size_t)c->cap * sizeof *c->e);
  goap__rt_free(&a, c->bucket, (size_t)c->nbucket * sizeof *c->bucket);
  goap__rt_free(&a, c, sizeof *c);
}

void goap_plan_cache_clear(goap_plan_cache *c) {
  if (!c) return;
  for (int i = 0; i < c->cap; ++i) c->e[i].used = 0;
  for (int i = 0; i < c->nbucket; ++i) c->bucket[i] = -1;
  c->head = c->tail = -1;
  c->n = 0;
  c->st.entries = 0;
}

goap_plan_cache_stats goap_plan_cache_get_stats(const goap_plan_cache *c) {
  goap_plan_cache_stats s;
  memset(&s, 0, sizeof s);
  if (c) {
    s = c->st;
    s.entries = c->n;
  }
  return s;
}

static void unlink_recency(goap_plan_cache *c, int i) {
  entry *x = &c->e[i];
  if (x->newer >= 0) c->e[x->newer].older = x->older;
  else c->head = x->older;
  if (x->older >= 0) c->e[x->older].newer = x->newer;
  else c->tail = x->newer;
}

static void push_front(goap_plan_cache *c, int i) {
  entry *x = &c->e[i];
  x->newer = -1;
  x->older = c->head;
  if (c->head >= 0) c->e[c->head].newer = i;
  c->head = i;
  if (c->tail < 0) c->tail = i;
}

static int lookup(const goap_plan_cache *c, const goap_agent_type *t, int goal,
                  const goap_word *s, size_t W, uint64_t h) {
  for (int i = c->bucket[h & (uint64_t)(c->nbucket - 1)]; i >= 0; i = c->e[i].next) {
    const entry *x = &c->e[i];
    if (x->hash == h && x->type == t && x->goal == goal && x->W == W &&
        memcmp(x->key, s, W * sizeof *s) == 0)
      return i;
  }
  return -1;
}

const int32_t *goap__cache_find(goap_plan_cache *c, const goap_agent_type *t, int goal,
                                const goap_word *state, size_t W, int *len, double *cost) {
  uint64_t h = hash_key(t, goal, state, W);
  int i = lookup(c, t, goal, state, W, h);
  if (i < 0) {
    c->st.misses++;
    return NULL;
  }
  c->st.hits++;
  unlink_recency(c, i);
  push_front(c, i);
  *len = c->e[i].len;
  *cost = c->e[i].cost;
  return c->e[i].plan;
}

static void unchain(goap_plan_cache *c, int i) {
  int *pp = &c->bucket[c->e[i].hash & (uint64_t)(c->nbucket - 1)];
  while (*pp != i) pp = &c->e[*pp].next;
  *pp = c->e[i].next;
}

int goap__cache_store(goap_plan_cache *c, const goap_agent_type *t, int goal,
                      const goap_word *state, size_t W, const int32_t *plan, int len,
                      double cost) {
  uint64_t h = hash_key(t, goal, state, W);
  int i = lookup(c, t, goal, state, W, h);
  GOAP_ASSERT(c->n >= 0 && c->n <= c->cap && (c->n < c->cap || c->tail >= 0));
  if (i >= 0) {
    unchain(c, i);
    unlink_recency(c, i);
    c->e[i].used = 0;
    c->n--;
  } else if (c->n < c->cap) {
    for (i = 0; c->e[i].used; ++i) {
    }
    GOAP_ASSERT(i < c->cap); /* fewer than cap used: a free entry exists */
  } else {
    i = c->tail;
    unchain(c, i);
    unlink_recency(c, i);
    c->e[i].used = 0;
    c->n--;
    c->st.evictions++;
  }
  entry *x = &c->e[i];
  if (!goap__grow_zero(&c->alloc, (void **)&x->key, &x->key_cap, W, sizeof *x->key) ||
      !goap__grow_zero(&c->alloc, (void **)&x->plan, &x->plan_cap, (size_t)(len ? len : 1),
                     sizeof *x->plan))
    return 0;
  x->type = t;
  x->goal = goal;
  x->hash = h;
  x->W = W;
  memcpy(x->key, state, W * sizeof *state);
  if (len) memcpy(x->plan, plan, (size_t)len * sizeof *plan);
  x->len = len;
  x->cost = cost;
  x->used = 1;
  int *b = &c->bucket[h & (uint64_t)(c->nbucket - 1)];
  x->next = *b;
  *b = i;
  push_front(c, i);
  c->n++;
  c->st.stores++;
  return 1;
}
