/*
 * goal_cache.h -- the goal cache's per-request helpers, inline (goal_cache.c has the rest and
 * the cache's invariants): a request whose goal is cached reaches its slot through these on
 * every call, so they cost no call.
 */
#ifndef GOAP_CORE_GOAL_CACHE_H
#define GOAP_CORE_GOAL_CACHE_H

#include "planner.h"

/* Points the planner's per-request arrays at slot i. */
static inline void goap__gslot_use(goap_planner *p, int i) {
  goap__gslot *g = &p->gslots[i];
  p->want = g->want;
  p->goal_ft = g->goal_ft;
  p->goal_best = g->goal_best;
  p->goal_mask = g->goal_mask;
  p->goal_val = g->goal_val;
  p->active = g->active;
  p->act2idx = g->act2idx;
  p->acost = g->acost;
  p->aflag = g->aflag;
  p->var_best = g->var_best;
  p->small_q = g->small_q;
  p->small_aff = g->small_aff;
  p->small_tab = g->small_tab;
}

/* The numbers of slot g's selection into the planner (its arrays: goap__gslot_use). */
static inline void goap__gslot_load(goap_planner *p, const goap__gslot *g) {
  p->nwant = g->nwant;
  p->goal_never = g->goal_never;
  p->nactive = g->nactive;
  p->max_achieve = g->max_achieve;
  p->max_eff_active = g->max_eff_active;
  p->small = g->small;
  p->cmin = g->cmin;
  p->gc_scale = g->gc_scale;
  p->req_costs = g->req_costs;
  p->goal_serial = g->serial;
  if (g->fan_ok) {
    p->fanout = g->fanout;
    p->fan_serial = g->serial;
  }
}

/* The index of gslot_hint for a want array's address (its bits above the alignment). */
static inline unsigned goap__gslot_hint_of(const goap_cond *want) {
  uint64_t a = (uint64_t)(uintptr_t)want;
  return (unsigned)((a >> 4) ^ (a >> 10)) & 63u;
}

/* The slot holding the request's key when the slot last found for its want array's address
 * holds it (compared by content: every part of the key, not the hash), else -1. */
static inline int goap__gslot_hinted(const goap_planner *p, const goap_request *req,
                                     unsigned flags) {
  unsigned k = goap__gslot_hint_of(req->want);
  int i = p->gslot_hint[k];
  if (p->gslot_hint_want[k] != req->want || i >= p->ngslots) return -1;
  const goap__gslot *g = &p->gslots[i];
  int n = req->want_count, costs = req->costs != NULL;
  if (!g->serial || g->nwant != n || g->flags != flags || g->req_costs != costs ||
      (costs && g->cost_stamp != p->cost_stamp))
    return -1;
  const goap_cond *a = g->want, *b = req->want;
  for (int j = 0; j < n; ++j)
    if (a[j].var != b[j].var || a[j].op != b[j].op || a[j].value != b[j].value) return -1;
  return i;
}

/* Remembers slot i as the one for the request's want array's address. */
static inline void goap__gslot_hint_set(goap_planner *p, const goap_request *req, int i) {
  unsigned k = goap__gslot_hint_of(req->want);
  p->gslot_hint_want[k] = req->want;
  p->gslot_hint[k] = (uint8_t)i;
}

#endif
