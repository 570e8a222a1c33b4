/*
 * planner_create.c -- creating and destroying a planner, and growing its pools (the node
 * pool, the closed table and the per-planner buffers); split from planner.c.
 *
 * Invariants:
 *  - Everything a request needs is allocated here at creation or grown (doubling) when a
 *    request is larger than every earlier one; p->memory counts every byte held, and no
 *    growth passes max_memory (GOAP_MEMORY_LIMIT instead).
 *  - Each part owns its memory and frees itself by the capacities it recorded (node pool,
 *    open lists, closed table, successor index, landmark ring); destroy frees a planner that
 *    creation left half built.
 *  - A failed growth leaves every array consistent with its recorded capacity.
 */
#include <string.h>

#include "planner.h"

#define NONE UINT32_MAX
/* Bytes of node record per node (g, h, parent, action/closed). */
#define NODE_BYTES (sizeof(double) + sizeof(float) + 2 * sizeof(uint32_t))

/* ---- creation ------------------------------------------------------------------------------- */

static size_t pool_bytes(size_t nodes, size_t sw) {
  return nodes * (NODE_BYTES + (sw * sizeof(goap_word)));
}

static goap_status grow_table(goap_planner *p, size_t need_slots);

/* For every variable, the actions whose conditions (relaxed: preconditions and ADD range
 * tests) or effects mention it: what must be rechecked when it changes. */
static goap_status build_touch(goap_planner *p) {
  const goap_domain *d = p->d;
  const goap__relax *r = &p->rx;
  size_t total = 0;
  for (int pass = 0; pass < 2; ++pass) {
    if (pass == 1) {
      for (int v = 0; v < d->nvars; ++v) p->touch_off[v + 1] += p->touch_off[v];
      p->touch_len = total;
      p->touch = (int32_t *)goap__alloc(&p->alloc, (total ? total : 1) * sizeof *p->touch);
      if (!p->touch) return GOAP_OUT_OF_MEMORY;
      p->memory += (total ? total : 1) * sizeof *p->touch;
    }
    for (int a = 0; a < d->nactions; ++a) {
      /* each (var, action) pair once: mark with the action id in var_best's bits is messy, so
       * check the small lists directly */
      const goap__action *x = &d->actions[a];
      for (uint32_t k = r->act_off[a]; k < r->act_off[a + 1] + (uint32_t)x->neff; ++k) {
        int32_t v = k < r->act_off[a + 1] ? r->cond[k].var : x->eff[k - r->act_off[a + 1]].var;
        int dup = 0;
        for (uint32_t j = r->act_off[a]; j < k && !dup; ++j) {
          int32_t w = j < r->act_off[a + 1] ? r->cond[j].var : x->eff[j - r->act_off[a + 1]].var;
          dup = w == v;
        }
        if (dup) continue;
        if (pass == 0) {
          p->touch_off[v + 1]++;
          ++total;
        } else {
          p->touch[p->touch_off[v]++] = a;
        }
      }
    }
    if (pass == 1) {
      for (int v = d->nvars; v > 0; --v) p->touch_off[v] = p->touch_off[v - 1];
      p->touch_off[0] = 0;
    }
  }
  return GOAP_OK;
}

goap_status goap_planner_create(const goap_domain *d, const goap_planner_desc *desc,
                                goap_planner **out) {
  if (!out) return GOAP_INVALID_ARGUMENT;
  *out = NULL;
  if (!d) return GOAP_INVALID_ARGUMENT;
  goap_planner_desc dd;
  memset(&dd, 0, sizeof dd);
  if (desc) dd = *desc;
  goap_planner *p = (goap_planner *)goap__alloc(&dd.allocator, sizeof *p);
  if (!p) return GOAP_OUT_OF_MEMORY;
  memset(p, 0, sizeof *p);
  p->alloc = dd.allocator;
  p->d = d;
  p->W = d->words;
  /* with a memory budget and no node cap, the budget alone bounds the search */
  p->cap_nodes = dd.max_nodes ? dd.max_nodes : dd.max_memory ? 0x7fffffffu : 4194304u;
  if (p->cap_nodes > 0x7fffffffu) p->cap_nodes = 0x7fffffffu;
  p->max_memory = dd.max_memory;
  p->memory = sizeof *p; /* the budget holds the planner itself too */
  p->found = p->best = NONE;
  p->lm_node = NONE;
  p->lm_bound = 2; /* see planner.h */
  p->lm_stop = 1;
  p->lm_inherit = 1;
  size_t W = p->W, A = (size_t)d->nactions, V = (size_t)d->nvars;
  int ok = 1;
#define ALLOC(ptr, n, type)                                                                   \
  do {                                                                                        \
    size_t n_ = (n) ? (n) : 1;                                                                \
    ptr = (type *)goap__alloc(&p->alloc, n_ * sizeof(type));                                  \
    if (!ptr) ok = 0;                                                                         \
    else {                                                                                    \
      memset(ptr, 0, n_ * sizeof(type));                                                      \
      p->memory += n_ * sizeof(type);                                                         \
    }                                                                                         \
  } while (0)
  ALLOC(p->start, W, goap_word);
  ALLOC(p->touch_off, V + 1, uint32_t);
  ALLOC(p->back_list, A, int32_t);
  ALLOC(p->back_stamp, A, uint32_t);
  ALLOC(p->sel_costs, A, double);
#undef ALLOC
  p->cap_scratch = 8 * W;
  p->scratch = ok ? (goap_word *)goap__alloc(&p->alloc, p->cap_scratch * sizeof(goap_word)) : NULL;
  if (!p->scratch) ok = 0;
  else p->memory += p->cap_scratch * sizeof(goap_word);
  if (ok && goap__relax_init(p) != GOAP_OK) ok = 0;
  if (ok) {
    size_t nf = (size_t)p->rx.nfacts;
    if (goap__succ_index_init(&p->succ, &p->alloc, nf, A, W, V, &p->memory) != GOAP_OK) ok = 0;
  }
  if (ok && build_touch(p) != GOAP_OK) ok = 0;
  if (ok && p->W == 1 && A > 0) {
    p->quick = (goap__quick *)goap__alloc(&p->alloc, A * sizeof *p->quick);
    if (!p->quick) ok = 0;
    else {
      p->memory += A * sizeof *p->quick;
      for (size_t a = 0; a < A; ++a) {
        const goap__action *x = &d->actions[a];
        goap__quick *q = &p->quick[a];
        memset(q, 0, sizeof *q);
        q->simple = x->npre_ft == 0 && x->neff_add == 0 && x->npre_eq <= 1 && x->neff_set <= 1;
        if (x->npre_eq) {
          q->pm = d->mask_pool[x->pre_eq].mask;
          q->pv = d->mask_pool[x->pre_eq].value;
        }
        if (x->neff_set) {
          q->em = d->mask_pool[x->eff_set].mask;
          q->ev = d->mask_pool[x->eff_set].value;
        }
      }
      /* small mode's nibble tables: the nibbles the mask-only actions test or set, when few */
      uint64_t used = 0;
      for (size_t a = 0; a < A; ++a)
        if (p->quick[a].simple) used |= p->quick[a].pm | p->quick[a].em;
      int nib = 0;
      for (unsigned k = 0; k < 16 && nib <= GOAP__SMALL_NIB; ++k) {
        if (!((used >> (4 * k)) & 15u)) continue;
        if (nib < GOAP__SMALL_NIB) p->small_nsh[nib] = (uint8_t)(4 * k);
        ++nib;
      }
      p->small_nib = nib <= GOAP__SMALL_NIB ? nib : 0;
    }
  }
  if (ok && goap__gcache_create(p, dd.goal_cache) != GOAP_OK) ok = 0;
  if (ok) {
    size_t n0 = dd.initial_nodes ? dd.initial_nodes : 1024u;
    if (n0 > p->cap_nodes) n0 = p->cap_nodes;
    if (p->max_memory && pool_bytes(n0, W) * 2 > p->max_memory) n0 = 64;
    if (goap__node_pool_init(&p->nodes, &p->alloc, n0, W, &p->memory) != GOAP_OK) ok = 0;
    if (ok) {
      p->open.entry = (goap__hentry *)goap__alloc(&p->alloc, n0 * sizeof *p->open.entry);
      if (!p->open.entry) ok = 0;
    }
    if (ok) {
      p->open.cap = n0;
      p->memory += n0 * sizeof *p->open.entry;
      if (grow_table(p, 2 * n0) != GOAP_OK) ok = 0;
    }
  }
  if (!ok) {
    goap_planner_destroy(p);
    return GOAP_OUT_OF_MEMORY;
  }
  *out = p;
  return GOAP_OK;
}

void goap_planner_destroy(goap_planner *p) {
  if (!p) return;
  const goap_domain *d = p->d;
  size_t W = p->W, A = (size_t)d->nactions, V = (size_t)d->nvars;
  goap_allocator a = p->alloc;
#define NZ(n) ((n) ? (n) : 1)
  goap__free(&a, p->start, NZ(W) * sizeof(goap_word));
  goap__free(&a, p->back_list, NZ(A) * sizeof(int32_t));
  goap__free(&a, p->back_stamp, NZ(A) * sizeof(uint32_t));
  goap__free(&a, p->sel_costs, NZ(A) * sizeof(double));
  goap__succ_index_free(&p->succ, &a);
  if (p->quick) goap__free(&a, p->quick, A * sizeof *p->quick);
  goap__free(&a, p->touch_off, (V + 1) * sizeof(uint32_t));
  goap__free(&a, p->touch, NZ(p->touch_len) * sizeof(int32_t));
#undef NZ
  goap__free(&a, p->scratch, p->cap_scratch * sizeof(goap_word));
  goap__free(&a, p->queue, p->cap_queue * sizeof *p->queue);
  goap__gcache_free(p);
  if (p->rx.cond) goap__relax_free(p);
  goap__lmcut_free(p);
  goap__sym_free(p);
  goap__por_free(p);
  goap__landmark_ring_free(&p->lm_ring, &a);
  goap__node_pool_free(&p->nodes, &a);
  goap__closed_table_free(&p->closed, &a);
  goap__open_list_free(&p->open, &a);
  goap__open_list_free(&p->open_pref, &a);
  goap__free(&a, p, sizeof *p);
}

/* ---- pools ---------------------------------------------------------------------------------- */

static int mem_ok(const goap_planner *p, size_t extra_bytes) {
  return !p->max_memory || p->memory + extra_bytes <= p->max_memory;
}

/* Grows the closed table to at least need_slots and re-inserts the current nodes. */
static goap_status grow_table(goap_planner *p, size_t need_slots) {
  size_t cap = p->closed.cap ? p->closed.cap : 16;
  while (cap < need_slots) cap *= 2;
  if (cap == p->closed.cap) return GOAP_OK;
  size_t bytes = cap * sizeof *p->closed.slot, old = p->closed.cap * sizeof *p->closed.slot;
  if (!mem_ok(p, bytes - old)) return GOAP_MEMORY_LIMIT;
  /* the slots are rebuilt from the nodes, so the old contents are not needed: resizing in
   * place avoids holding both tables (on failure the old table is left as it was) */
  uint32_t *nt = (uint32_t *)(p->closed.slot
                                   ? goap__realloc(&p->alloc, p->closed.slot, old, bytes)
                                   : goap__alloc(&p->alloc, bytes));
  if (!nt) return GOAP_OUT_OF_MEMORY;
  memset(nt, 0xff, bytes);
  size_t mask = cap - 1;
  for (uint32_t n = 0; n < p->nodes.count; ++n) {
    uint64_t h = goap__hash_state(p->nodes.states + (size_t)n * p->stride, p->key);
    size_t j = (size_t)h & mask;
    while (nt[j] - p->closed.idbase < p->nodes.count) j = (j + 1) & mask;
    nt[j] = p->closed.idbase + n;
  }
  p->memory += bytes - old;
  p->closed.slot = nt;
  p->closed.cap = cap;
  return GOAP_OK;
}

static goap_status ensure_nodes_impl(goap_planner *p, size_t need);

/* Ensures room for `need` nodes and a tentative state slot after them; grow_at becomes the
 * node count at which add_node must call again (room for one more node and its successor's
 * tentative slot). */
goap_status goap__planner_nodes(goap_planner *p, size_t need) {
  goap_status st = ensure_nodes_impl(p, need);
  /* add_node needs count + 1 <= cap and (count + 2) * stride <= cap_states */
  size_t by_states = p->nodes.cap_states / p->stride, lim = p->nodes.cap;
  if (by_states < 1) lim = 0;
  else if (by_states - 1 < lim) lim = by_states - 1;
  p->nodes.grow_at = lim > 0x7fffffffu ? 0x7fffffffu : (uint32_t)lim;
  GOAP_ASSERT((size_t)p->nodes.grow_at <= p->nodes.cap &&
              ((size_t)p->nodes.grow_at + 1) * p->stride <= p->nodes.cap_states);
  return st;
}

static goap_status ensure_nodes_impl(goap_planner *p, size_t need) {
  size_t sw = p->stride;
  if (need > p->cap_nodes) need = p->cap_nodes; /* offer() enforces the node limit */
  if (need <= p->nodes.cap && (need + 1) * sw <= p->nodes.cap_states) return GOAP_OK;
  size_t ncap = p->nodes.cap;
  while (ncap < need) ncap *= 2;
  if (ncap > p->cap_nodes) ncap = p->cap_nodes;
  size_t nstates = (ncap + 1) * sw;
  size_t add = 0;
  if (ncap > p->nodes.cap) add += (ncap - p->nodes.cap) * NODE_BYTES; /* (less what already grew) */
  if (nstates > p->nodes.cap_states)
    add += (nstates - p->nodes.cap_states) * sizeof *p->nodes.states;
  if (ncap > p->nodes.cap && p->closed.cap < 2 * ncap)
    add += (2 * ncap - p->closed.cap) * sizeof *p->closed.slot;
  if (!mem_ok(p, add)) return GOAP_MEMORY_LIMIT;
  if (ncap > p->nodes.cap) {
    /* grown in place where the allocator can (no copy, no transient double footprint); each
     * array keeps its own capacity so that a failure part-way leaves them all consistent */
    void *q;
#define GROW_NODES(arr, cap)                                                                  \
  if (p->nodes.cap < ncap) {                                                                  \
    q = goap__realloc(&p->alloc, p->nodes.arr, p->nodes.cap * sizeof *p->nodes.arr,           \
                      ncap * sizeof *p->nodes.arr);                                           \
    if (!q) return GOAP_OUT_OF_MEMORY;                                                        \
    p->nodes.arr = q;                                                                         \
    p->memory += (ncap - p->nodes.cap) * sizeof *p->nodes.arr;                                \
    p->nodes.cap = ncap;                                                                      \
  }
    GROW_NODES(g, cap_g)
    GROW_NODES(h, cap_h)
    GROW_NODES(parent, cap_parent)
    GROW_NODES(action, cap_action)
#undef GROW_NODES
    p->nodes.cap = ncap;
  }
  if (nstates > p->nodes.cap_states) {
    void *s = goap__realloc(&p->alloc, p->nodes.states,
                            p->nodes.cap_states * sizeof *p->nodes.states,
                            nstates * sizeof *p->nodes.states);
    if (!s) return GOAP_OUT_OF_MEMORY;
    p->nodes.states = (goap_word *)s;
    p->memory += (nstates - p->nodes.cap_states) * sizeof *p->nodes.states;
    p->nodes.cap_states = nstates;
  }
  if (p->closed.cap < 2 * p->nodes.cap) return grow_table(p, 2 * p->nodes.cap);
  return GOAP_OK;
}

goap_status goap__planner_grow(goap_planner *p, void **ptr, size_t *cap, size_t need,
                               size_t elem) {
  if (need <= *cap) return GOAP_OK;
  size_t old = *cap;
  size_t ncap = goap__grow_cap(old, need, elem);
  if (!ncap) return GOAP_TOO_LARGE;
  if (!mem_ok(p, (ncap - old) * elem)) return GOAP_MEMORY_LIMIT;
  void *n = goap__realloc(&p->alloc, *ptr, old * elem, ncap * elem);
  if (!n) return GOAP_OUT_OF_MEMORY;
  *ptr = n;
  *cap = ncap;
  p->memory += (ncap - old) * elem;
  return GOAP_OK;
}


