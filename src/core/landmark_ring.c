/*
 * landmark_ring.c -- inherited landmarks for lazy A* with LM-cut (goap__landmark_ring,
 * planner.h), split from planner.c: the ring of expanded nodes' landmarks and its cache.
 *
 * Invariants:
 *  - See the comment below: a record is used only when its cache entry is the node's, of this
 *    request, and its words are still in the ring; anything else means a fresh evaluation, so
 *    losing a record never changes a plan's cost, only the work.
 *  - The ring and cache only grow, within the memory budget; a refused growth keeps them.
 */
#include <string.h>

#include "planner.h"

/* Inherited landmarks (lazy A* with LM-cut, Pommerening and Helmert's incremental LM-cut):
 * when a node is expanded right after a full LM-cut evaluation, its landmarks (the cuts, each
 * with its cost) are kept in lm_ring.ring, found through lm_ring.cache. A landmark of the parent
 * that does not hold the action leading to a successor is a landmark of the successor too
 * (every plan a.pi from the parent hits it, so pi does), and those landmarks' costs are a cost
 * partition, so the successor's LM-cut may start from them with the costs they leave and add
 * its own cuts: still admissible (orbit search maps them through the successor's
 * canonicalising permutation). A record overwritten in the ring, or a cache entry taken by
 * another node, just means a fresh evaluation. The ring starts at LR_WORDS words and doubles
 * up to LR_MAX_WORDS before its first wrap in a request (records keep their positions: none
 * has wrapped yet); the cache grows from LH_FIRST to LH_ENTRIES entries at most, a few
 * doublings in a request's first search (grow-only: the same request again allocates
 * nothing). Under a memory limit the ring grows to an eighth of it at most; a refused growth
 * keeps the smaller ring or cache. Searches of 10^4-10^5 expansions (IPC elevators, blocks,
 * transport, barman) lost most parents' records with a 1 MB ring and 8,192 entries: their
 * successors started LM-cut from scratch (issue 18). */
#define LR_WORDS ((size_t)1 << 18)
#define LR_MAX_WORDS ((size_t)1 << 25)
#define LH_FIRST ((size_t)1 << 8)
#define LH_ENTRIES ((size_t)1 << 19)
#define LR_POS (((uint64_t)1 << 48) - 1) /* ring positions wrap at 2^48 words (never here) */

goap_status goap__lm_ring_setup(goap_planner *p) {
  goap__landmark_ring *lr = &p->lm_ring;
  if (!lr->ring || !lr->cache) {
    size_t c0 = lr->cap_cache;
    size_t first = lr->first_words ? lr->first_words : LR_WORDS;
    goap_status st =
        goap__planner_grow(p, (void **)&lr->ring, &lr->cap_ring, first, sizeof *lr->ring);
    if (st == GOAP_OK)
      st = goap__planner_grow(p, (void **)&lr->cache, &lr->cap_cache, LH_FIRST, sizeof *lr->cache);
    if (st != GOAP_OK) return st;
    memset(lr->cache + c0, 0, (lr->cap_cache - c0) * sizeof *lr->cache);
  }
  lr->write_pos = 0; /* records of earlier requests are stale (lr->req): the ring starts over */
  lr->stored = 0;
  goap_status st =
      goap__planner_grow(p, (void **)&lr->inherited, &lr->cap_inherited, p->lm.cap_landmarks,
                         sizeof *lr->inherited);
  if (st != GOAP_OK) return st;
  if (++lr->req == 0) { /* wrapped: forget every entry */
    memset(lr->cache, 0, lr->cap_cache * sizeof *lr->cache);
    lr->req = 1;
  }
  return GOAP_OK;
}

static inline goap__lrent *lr_slot(goap_planner *p, uint32_t node) {
  goap__landmark_ring *lr = &p->lm_ring;
  return &lr->cache[(node * 2654435761u) & (uint32_t)(lr->cap_cache - 1)];
}

/* Records node's landmarks, those of the LM-cut evaluation just made (lm_node == node). The
 * cache starts small (a short search touches few pages) and doubles, its entries rehashed,
 * once a request has stored more records than a quarter of its entries (few collisions), up
 * to LH_ENTRIES, so a request made again finds it large enough; a failed or refused growth
 * keeps the smaller cache. */
void goap__lm_ring_store(goap_planner *p, uint32_t node) {
  goap__landmark_ring *lr = &p->lm_ring;
  const goap__lmcut *lm = &p->lm;
  if (++lr->stored > lr->cap_cache / 4 && lr->cap_cache < LH_ENTRIES) { /* few collisions */
    size_t c0 = lr->cap_cache;
    if (goap__planner_grow(p, (void **)&lr->cache, &lr->cap_cache, 2 * c0, sizeof *lr->cache) ==
        GOAP_OK) {
      /* split: an entry of slot i moves to slot i + c0 or stays (the hash's next bit) */
      memset(lr->cache + c0, 0, (lr->cap_cache - c0) * sizeof *lr->cache);
      for (size_t i = 0; i < c0; ++i) {
        goap__lrent *e = &lr->cache[i], *to = lr_slot(p, e->node);
        if (e->req != lr->req || to == e) continue;
        *to = *e;
        memset(e, 0, sizeof *e);
      }
    }
  }
  size_t len = lm->nlandmarks;
  size_t lmax = lr->max_words ? lr->max_words : LR_MAX_WORDS;
  if (p->max_memory && lmax > p->max_memory / 8 / sizeof *lr->ring) /* leave the rest to nodes */
    lmax = p->max_memory / 8 / sizeof *lr->ring;
  if ((lr->write_pos + len > lr->cap_ring || len > lr->cap_ring / 4) &&
      lr->write_pos <= lr->cap_ring) {
    /* not wrapped yet in this request: the records keep their positions */
    size_t need = lr->write_pos + len > 4 * len ? (size_t)lr->write_pos + len : 4 * len;
    size_t to = lr->cap_ring;
    while (to < need && 2 * to <= lmax) to *= 2;
    if (to > lr->cap_ring)
      (void)goap__planner_grow(p, (void **)&lr->ring, &lr->cap_ring, to, sizeof *lr->ring);
  }
  size_t cap = lr->cap_ring;
  if (lm->landmarks_over || len > cap / 4 || len >= ((size_t)1 << 16)) return;
  uint64_t pos = lr->write_pos;
  size_t at = (size_t)(pos % cap);
  if (at + len > cap) { /* records never wrap: skip to the ring's start */
    pos += cap - at;
    at = 0;
  }
  GOAP_ASSERT(at + len <= cap); /* a record never wraps */
  memcpy(lr->ring + at, lm->landmarks, len * sizeof *lm->landmarks);
  lr->write_pos = pos + len;
  goap__lrent *e = lr_slot(p, node);
  e->at = (pos & LR_POS) | ((uint64_t)len << 48);
  e->node = node;
  e->req = lr->req;
}

/* 1 when a is among ops[0..n): no early exit, so that the compiler can compare several
 * at once (a landmark rarely holds the action: most are read to their end anyway). */
static inline int holds(const int32_t *ops, size_t n, int32_t a) {
  int has = 0;
  for (size_t k = 0; k < n; ++k) has |= ops[k] == a;
  return has;
}

/* Sets lm.start_landmarks to the landmarks node n inherits from its parent (none when not recorded). */
void goap__lm_ring_inherit(goap_planner *p, uint32_t n) {
  goap__landmark_ring *lr = &p->lm_ring;
  uint32_t par = p->nodes.parent[n];
  if (par == UINT32_MAX) return; /* a root */
  const goap__lrent *e = lr_slot(p, par);
  uint64_t pos = e->at & LR_POS;
  size_t elen = (size_t)(e->at >> 48);
  if (e->req != lr->req || e->node != par || pos + lr->cap_ring < lr->write_pos) return;
  int32_t a = (int32_t)(p->nodes.action[n] & ~GOAP__NODE_CLOSED) - 1; /* the action to n */
  const int32_t *src = lr->ring + (size_t)(pos % lr->cap_ring);
  size_t w = 0;
  int slots = 0; /* orbit search: a kept landmark holds a slot action (mapped below) */
  for (size_t i = 0; i < elen;) {
    size_t len = 3 + (size_t)src[i];
    if (!holds(src + i + 3, len - 3, a)) {
      memcpy(lr->inherited + w, src + i, len * sizeof *src);
      if (p->sym.on)
        for (size_t k = 3; k < len && !slots; ++k) slots = p->sym.act_slot[src[i + k]] >= 0;
      w += len;
    }
    i += len;
  }
  if (slots && goap__sym_succ_perm(p, p->nodes.states + (size_t)par * p->stride, a, p->sym.pi))
    for (size_t i = 0; i < w;) {
      size_t len = 3 + (size_t)lr->inherited[i];
      for (size_t k = 3; k < len; ++k)
        lr->inherited[i + k] = goap__sym_map_action(&p->sym, p->sym.pi, lr->inherited[i + k]);
      i += len;
    }
  p->lm.start_landmarks = lr->inherited;
  p->lm.nstart_landmarks = w;
}

/* Sets lm.start_landmarks to node n's own landmarks, recorded by an evaluation of n that stopped early
 * (a cost partition of n's: LM-cut goes on from them). Returns their length, 0 when none. */
size_t goap__lm_ring_own(goap_planner *p, uint32_t n) {
  goap__landmark_ring *lr = &p->lm_ring;
  const goap__lrent *e = lr_slot(p, n);
  uint64_t pos = e->at & LR_POS;
  size_t elen = (size_t)(e->at >> 48);
  if (e->req != lr->req || e->node != n || pos + lr->cap_ring < lr->write_pos || elen == 0)
    return 0;
  p->lm.start_landmarks = lr->ring + (size_t)(pos % lr->cap_ring);
  p->lm.nstart_landmarks = elen;
  ++lr->resumed;
  return elen;
}
