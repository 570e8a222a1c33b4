/*
 * planner.c -- forward A* / weighted A* / greedy search over packed states, and regressive
 * (backward) A* over partial states, with relevance pruning, budgets and sliced execution.
 * Creation and the pools' growth are in planner_create.c, a request's set-up (action
 * selection, goal compilation) in planner_request.c, a search's start (node layout, successor
 * generator, roots) in planner_start.c, the result (the plan, its cost, the best partial plan)
 * in planner_result.c.
 *
 * Invariants:
 *  - Pools (nodes, states, closed table, open heap, scratch) are allocated at creation and only
 *    grow, by doubling, when a request needs more than any earlier one; a request that fits
 *    performs no allocation at all.
 *  - The closed table is generation-stamped: a slot is live only if its stamp equals the
 *    current request's generation, so starting a request costs O(1), not O(table).
 *  - Open-list order is (f, tie, node id), all deterministic: the same request gives the same
 *    plan on every run and thread. tie is h for A* and weighted A*, g for greedy.
 *  - A node is closed when expanded; a cheaper path to a closed node reopens it (only possible
 *    with inconsistent heuristics), so admissible heuristics give optimal plans.
 *  - Backward nodes hold, per variable, an interval [lo, hi] of allowed encoded values: the low
 *    fields in the first W words and the high fields in the next W. A `!=` that would cut an
 *    interval in two splits the node into two.
 *  - Action callbacks (check, dynamic cost) run at most once per action per request, before the
 *    search, and only for actions that survive relevance pruning.
 *  - Positional costs (goap_builder_set_state_cost): acost holds the request cost plus
 *    min_cost, a lower bound that every heuristic and the goal cache see; the forward
 *    expansions ask the callback per successor only when scost_on (one predictable branch
 *    otherwise), and small mode is not used then. Backward and orbit search refuse them.
 *  - Forward successors come from the parent's useful-action bitset; after applying an action
 *    only the actions that read or write a variable it wrote are rechecked (`touch` lists, or
 *    precomputed masks in small mode), so the child's bitset is exact. When the bitset would
 *    be larger than the state or costly to keep (see planner_start.c), the successor index lists
 *    each state's candidates instead (actions grouped by an anchor precondition), every one
 *    checked in full; its order is fixed by the state, so results stay deterministic.
 *  - Node records hold no depth: plan lengths are counted along parent links.
 *  - Orbit search (goap_request.symmetry, symmetry.c): forward searches store canonical states
 *    only. They then use the successor index (no per-node bitset to permute), where every
 *    successor is canonicalised before it is looked up; finish maps the plan back.
 *  - Tracing (goap_planner_set_trace) only observes: every hook is `if (p->trace_fn)` around a
 *    cold call, after the node records are updated, and changes no state of the search.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "planner.h"

#define NONE UINT32_MAX

#define CLOSED GOAP__NODE_CLOSED

static inline int32_t node_action(const goap_planner *p, uint32_t n) {
  return goap__node_action(p, n);
}

/* h as stored: rounded down to a float, so that it never grows (admissible stays admissible);
 * INFINITY for a dead end. */
static inline float h_store(double h) { return goap__h_store(h); }

/* ---- creation and growth: planner_create.c -------------------------------------------------- */

static inline goap_status grow_buf(goap_planner *p, void **ptr, size_t *cap, size_t need,
                                   size_t elem) {
  return goap__planner_grow(p, ptr, cap, need, elem);
}

static inline goap_status ensure_nodes(goap_planner *p, size_t need) {
  return goap__planner_nodes(p, need);
}

/* ---- the open list -------------------------------------------------------------------------- */

static int hless(const goap__hentry *a, const goap__hentry *b) {
  if (a->f != b->f) return a->f < b->f;
  if (a->tie != b->tie) return a->tie < b->tie;
  return a->node < b->node;
}

static inline goap_status hpush(goap_planner *p, goap__open_list *o, double f, double tie,
                                uint32_t node) {
  if (o->count == o->cap) {
    goap_status st = grow_buf(p, (void **)&o->entry, &o->cap, o->count + 1, sizeof *o->entry);
    if (st != GOAP_OK) return st;
  }
  goap__hentry *h = o->entry;
  goap__hentry e;
  e.f = f;
  e.tie = (float)tie;
  e.node = node;
  size_t i = o->count++;
  while (i > 0) {
    size_t parent = (i - 1) / 2;
    if (!hless(&e, &h[parent])) break;
    h[i] = h[parent];
    i = parent;
  }
  h[i] = e;
  return GOAP_OK;
}

static inline goap__hentry hpop(goap__open_list *o) {
  goap__hentry *h = o->entry;
  goap__hentry top = h[0];
  goap__hentry last = h[--o->count];
  size_t n = o->count, i = 0;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && hless(&h[c + 1], &h[c])) ++c;
    if (!hless(&h[c], &last)) break;
    h[i] = h[c];
    i = c;
  }
  if (n) h[i] = last;
  GOAP_ASSERT(n == 0 || !hless(&h[0], &top)); /* heap order: nothing above the entry taken */
  return top;
}

static inline goap_status heap_push(goap_planner *p, double f, double tie, uint32_t node) {
  return hpush(p, &p->open, f, tie, node);
}

/* Queues node (reached by action) in the open list and, when the action is a preferred
 * operator of the node being expanded, in the preferred list too. */
static inline goap_status open_push(goap_planner *p, double f, double tie, uint32_t node,
                                    int32_t action) {
  goap_status st = heap_push(p, f, tie, node);
  if (st == GOAP_OK && p->pref_on && action >= 0 && p->rx.pref[action] == p->rx.pref_gen)
    st = hpush(p, &p->open_pref, f, tie, node);
  return st;
}

/* The preferred list's lead after progress (Fast Downward's default boost). */
#define PREF_BOOST 1000

/* Takes the next entry: from the open list, or with preferred operators from the non-empty
 * list of the lower priority (the open list on a tie). Returns 0 when both are empty. */
static inline int open_pop(goap_planner *p, goap__hentry *out) {
  if (!p->pref_on) {
    if (p->open.count == 0) return 0;
    *out = hpop(&p->open);
    return 1;
  }
  int k = p->open_pref.count > 0 && (p->open.count == 0 || p->prio[1] < p->prio[0]);
  if (!k && p->open.count == 0) return 0;
  *out = k ? hpop(&p->open_pref) : hpop(&p->open);
  p->prio[k]++;
  int m = p->prio[0] < p->prio[1] ? p->prio[0] : p->prio[1];
  p->prio[0] -= m;
  p->prio[1] -= m;
  return 1;
}

/* A state was evaluated with h (preferred operators): a new lowest h boosts the preferred
 * list. */
static inline void progress(goap_planner *p, float h) {
  if (!(h < p->best_h)) return;
  if (p->best_h < INFINITY) p->prio[1] -= PREF_BOOST;
  p->best_h = h;
}

/* ---- closed table ---------------------------------------------------------------------------- */

static inline int same(const goap_word *a, const goap_word *b, uint32_t sw) {
  if (sw == 1) return a[0] == b[0];
  if (sw == 2) return ((a[0] ^ b[0]) | (a[1] ^ b[1])) == 0; /* no call for the common size */
  return memcmp(a, b, sw * sizeof *a) == 0;
}

/* Finds the node holding state s, or returns NONE and the free slot in *slot. */
static inline uint32_t table_find(goap_planner *p, const goap_word *s, size_t *slot) {
  uint32_t sw = p->key;
  const uint32_t *t = p->closed.slot;
  uint32_t nn = p->nodes.count, base = p->closed.idbase;
  size_t mask = p->closed.cap - 1;
  GOAP_ASSERT((p->closed.cap & mask) == 0 && p->closed.cap > (size_t)nn); /* a free slot */
  size_t i = (size_t)goap__hash_state(s, sw) & mask;
  for (;; i = (i + 1) & mask) {
    uint32_t n = t[i] - base;
    if (n >= nn) {
      *slot = i;
      return NONE;
    }
    if (same(p->nodes.states + (size_t)n * p->stride, s, sw)) return n;
  }
}

/* ---- request set-up: planner_request.c ---------------------------------------------------- */

static inline goap_status prepare(goap_planner *p, const goap_request *req) {
  return goap__plan_prepare(p, req);
}

/* ---- positional costs ----------------------------------------------------------------------- */

/* Is action x's state cost called in this request? */
static inline int scost_called(const goap_planner *p, const goap__action *x) {
  return x->scost && (!(p->flags & GOAP_REQUEST_NO_CALLBACKS) ||
                      (x->scost_flags & GOAP_STATE_COST_PURE));
}

/* Positional costs (scost_on): action a's cost in state s, its request cost plus its state
 * cost, or -1 when the state cost makes it inapplicable there. Kept out of line: requests
 * without positional costs never call it. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static double step_cost(goap_planner *p, int32_t a, const goap_word *s) {
  const goap__action *x = &p->d->actions[a];
  double c = p->acost[a];
  if (scost_called(p, x)) {
    double e = x->scost(p->host, a, s, x->scost_user);
    if (!(e >= 0.0) || !(e < GOAP__INF)) return -1.0; /* negative, NaN or infinite */
    if (e > x->min_cost) c += e - x->min_cost;
  }
  p->scost_last = c;
  return c;
}

/* ---- heuristics ----------------------------------------------------------------------------- */

static inline int goal_unmet(const goap_planner *p, const goap_word *s) {
  int n = 0;
  for (int i = 0; i < p->nwant; ++i) n += !goap__ftest_ok(&p->goal_ft[i], s);
  return n;
}

static inline int goal_holds(const goap_planner *p, const goap_word *s) {
  for (uint32_t w = 0; w < p->W; ++w)
    if ((s[w] & p->goal_mask[w]) != p->goal_val[w]) return 0;
  for (int i = 0; i < p->nwant; ++i)
    if (!goap__ftest_ok(&p->goal_ft[i], s)) return 0;
  return 1;
}

static double h_forward(goap_planner *p, const goap_word *s) {
  ++p->stats.evaluated;
  switch (p->heur) {
    case GOAP_H_ZERO: return 0.0;
    case GOAP_H_GOAL_COUNT: return (double)goal_unmet(p, s);
    case GOAP_H_GOAL_COUNT_ADMISSIBLE: {
      int u = goal_unmet(p, s);
      if (u && !p->max_achieve) return GOAP__INF;
      return (double)u * p->gc_scale;
    }
    case GOAP_H_MAX: return goap__relax_eval(p, s, 0);
    case GOAP_H_ADD: return goap__relax_eval(p, s, 1);
    case GOAP_H_FF: return goap__relax_eval_ff(p, s);
    case GOAP_H_LMCUT: return goap__lmcut_eval(p, s);
    case GOAP_H_DEFAULT:
    default: {
      int u = 0;
      double best = 0.0;
      for (int i = 0; i < p->nwant; ++i) {
        if (goap__ftest_ok(&p->goal_ft[i], s)) continue;
        ++u;
        if (p->goal_best[i] > best) best = p->goal_best[i];
      }
      if (best >= GOAP__INF) return GOAP__INF;
      double gc = (double)u * p->gc_scale;
      return gc > best ? gc : best;
    }
  }
}

/* Backward: how many constrained variables the start state violates, and the largest cheapest
 * writer among them. */
static double h_backward(goap_planner *p, const goap_word *lo, const goap_word *hi) {
  const goap_domain *d = p->d;
  ++p->stats.evaluated;
  if (p->heur == GOAP_H_ZERO) return 0.0;
  /* hff and LM-cut have no backward form: hadd and hmax stand in for them */
  if (p->heur == GOAP_H_MAX || p->heur == GOAP_H_LMCUT)
    return goap__relax_eval_partial(p, lo, hi, 0);
  if (p->heur == GOAP_H_ADD || p->heur == GOAP_H_FF) return goap__relax_eval_partial(p, lo, hi, 1);
  int u = 0;
  double best = 0.0;
  for (uint32_t w = 0; w < p->W; ++w) {
    if (lo[w] == 0 && hi[w] == d->full_hi[w]) continue; /* nothing constrained here */
    for (uint32_t k = d->wvars_off[w]; k < d->wvars_off[w + 1]; ++k) {
      int32_t v = d->wvars[k];
      const goap__var *var = &d->vars[v];
      uint64_t a = goap__field_get(lo, var->word, var->shift, var->fmask);
      uint64_t b = goap__field_get(hi, var->word, var->shift, var->fmask);
      uint64_t s = goap__field_get(p->start, var->word, var->shift, var->fmask);
      if (s >= a && s <= b) continue;
      ++u;
      if (p->var_best[v] > best) best = p->var_best[v];
    }
  }
  if (p->heur == GOAP_H_GOAL_COUNT) return (double)u;
  if (best >= GOAP__INF) return GOAP__INF;
  double gc = p->max_eff_active ? (double)u * p->cmin / (double)p->max_eff_active : 0.0;
  if (p->heur == GOAP_H_GOAL_COUNT_ADMISSIBLE) return u && !p->max_eff_active ? GOAP__INF : gc;
  return gc > best ? gc : best;
}

/* ---- node creation -------------------------------------------------------------------------- */

static double f_of(const goap_planner *p, double g, double h) {
  if (p->search == GOAP_SEARCH_GREEDY) return h;
  return g + p->weight * h;
}

static double tie_of(const goap_planner *p, double g, double h) {
  return p->search == GOAP_SEARCH_GREEDY ? g : h;
}

/* Reports a trace event (only called when a trace callback is installed). */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline, cold))
#endif
static void trace_emit(const goap_planner *p, goap_trace_kind kind, uint32_t node,
                       uint32_t parent, int32_t action, double g, double h) {
  goap_trace_event ev;
  ev.kind = kind;
  ev.node = node;
  ev.parent = parent;
  ev.action = action;
  ev.g = g;
  ev.h = h >= GOAP__INF ? (double)INFINITY : h;
  ev.f = isinf(ev.h) ? (double)INFINITY : f_of(p, g, h);
  ev.state = node == NONE ? NULL : p->nodes.states + (size_t)node * p->stride;
  p->trace_fn(p->trace_user, &ev);
}

/* An EXPAND or GOAL event for node n. Expansions are reported by the expand functions (not
 * by the search loop, whose code stays as without tracing); small mode, which has no hooks,
 * is not used while tracing. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline, cold))
#endif
static void trace_node(const goap_planner *p, goap_trace_kind kind, uint32_t n) {
  trace_emit(p, kind, n, p->nodes.parent[n], node_action(p, n), p->nodes.g[n],
             (double)fabsf(p->nodes.h[n]));
}

void goap_planner_set_trace(goap_planner *p, goap_trace_fn fn, void *user) {
  if (!p) return;
  p->trace_fn = fn;
  p->trace_user = user;
}

/* Adds the state at the tentative slot (index nodes.count) as a node. */
static goap_status add_node(goap_planner *p, size_t slot, uint32_t parent,
                            int32_t action, double g, double h) {
  uint32_t n = p->nodes.count;
  GOAP_ASSERT(n < p->nodes.cap && ((size_t)n + 1) * p->stride <= p->nodes.cap_states);
  GOAP_ASSERT(slot < p->closed.cap && p->closed.slot[slot] - p->closed.idbase >= n);
  int dead = h >= GOAP__INF;
  float hs = h_store(h);
  p->nodes.g[n] = g;
  p->nodes.h[n] = hs;
  p->nodes.parent[n] = parent;
  p->nodes.action[n] = (uint32_t)(action + 1) | (dead ? CLOSED : 0u); /* dead ends stay closed */
  p->closed.slot[slot] = p->closed.idbase + n;
  ++p->nodes.count;
  ++p->stats.nodes;
  if (p->nodes.count >= p->nodes.grow_at) {
    goap_status st = ensure_nodes(p, (size_t)p->nodes.count + 1);
    if (st != GOAP_OK) return st;
  }
  if (dead) return GOAP_OK;
  if (p->pref_on && !p->lazy) progress(p, hs);
  return open_push(p, f_of(p, g, (double)hs), tie_of(p, g, (double)hs), n, action);
}

/* ---- search --------------------------------------------------------------------------------- */

/* Lazy A*: an admissible bound on the h* of a successor of parent by action, from the
 * parent's evaluated h: h*(parent) <= cost + h*(child). When parent's LM-cut evaluation is
 * the last one made (lm_node), its cost partition gives a stronger bound: every real plan
 * a.pi from parent hits every cut, an action's share of the cuts is at most its cost
 * (acost - rem, rem what the cuts left of it), so cost(pi) >= h_lmcut(parent) - share(a);
 * actions in no cut keep the parent's whole h. */
static inline double lazy_bound(goap_planner *p, uint32_t parent, int32_t action) {
  /* the step's real cost: with positional costs, the one step_cost just priced */
  double b = (double)p->nodes.h[parent] - (p->scost_on ? p->scost_last : p->acost[action]);
  if (parent == p->lm_node) {
    double share = p->acost[action] - p->lm.rem[action];
    double l = p->lm_h - (share > 0.0 ? share : 0.0);
    if (l != floor(l)) l -= 1e-9 * fabs(l); /* rounding of non-integer sums stays below */
    if (l > b) {
      b = l;
      ++p->lm_gain;
    }
  }
  return b > 0.0 ? b : 0.0;
}

/* Lazy A*: evaluates node n (its state s), remembering it as lm_node with LM-cut. With
 * LM-cut and a finite stop, the evaluation may end early with a bound above stop (lm.partial:
 * the state stays unevaluated, lm_node is forgotten since its cuts are gone). */
static double lazy_eval(goap_planner *p, uint32_t n, const goap_word *s, double stop) {
  if (p->heur != GOAP_H_LMCUT) return h_forward(p, s);
  p->lm.stop_on = stop < GOAP__INF;
  p->lm.stop = stop;
  if (p->lm_ring.on && !goap__lm_ring_own(p, n)) goap__lm_ring_inherit(p, n);
  size_t from = p->lm.start_landmarks ? p->lm.nstart_landmarks : 0; /* the words of the landmarks it starts from */
  double h = h_forward(p, s);
  p->lm.stop_on = 0;
  p->lm.start_landmarks = NULL;
  if (p->lm.partial) {
    p->lm_node = NONE;
    /* its landmarks so far: the next evaluation of n goes on from them */
    if (p->lm_ring.on && p->lm.nlandmarks > from) goap__lm_ring_store(p, n);
  } else if (p->lm_bound) {
    p->lm_node = n;
    p->lm_h = h;
  }
  return h;
}

/* A known state m was reached again, from parent by action at cost g: keep the cheaper path
 * (reopening a closed node if need be). */
static inline goap_status reached_again(goap_planner *p, uint32_t m, uint32_t parent,
                                        int32_t action, double g) {
  ++p->stats.duplicates;
  if (!(g < p->nodes.g[m]) || isinf(p->nodes.h[m])) return GOAP_OK;
  if (p->lazy_astar && signbit(p->nodes.h[m])) {
    /* unevaluated: every parent's bound holds for the state, keep the largest */
    float b = h_store(lazy_bound(p, parent, action));
    if (b > -p->nodes.h[m]) p->nodes.h[m] = -b;
  }
  p->nodes.g[m] = g;
  p->nodes.parent[m] = parent;
  if (p->nodes.action[m] & CLOSED) ++p->stats.reopened;
  p->nodes.action[m] = (uint32_t)(action + 1); /* open (again) */
  double h = (double)fabsf(p->nodes.h[m]);
  return open_push(p, f_of(p, g, h), tie_of(p, g, h), m, action);
}

/* reached_again, reported to the trace (small mode, which calls reached_again directly, is
 * not used while tracing). */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline, cold))
#endif
static goap_status reached_again_traced(goap_planner *p, uint32_t m, uint32_t parent,
                                        int32_t action, double g) {
  int better = g < p->nodes.g[m] && !isinf(p->nodes.h[m]);
  goap_status st = reached_again(p, m, parent, action, g);
  trace_emit(p, better ? GOAP_TRACE_BETTER : GOAP_TRACE_DUPLICATE, m, parent, action, g,
             (double)fabsf(p->nodes.h[m]));
  return st;
}

/* Inserts candidate state c (sw words) reached from parent by action at cost g. */
static goap_status offer(goap_planner *p, const goap_word *c, uint32_t parent, int32_t action,
                         double g, int backward) {
  size_t slot = 0;
  ++p->stats.generated;
  uint32_t m = table_find(p, c, &slot);
  if (m != NONE) {
    if (p->trace_fn) return reached_again_traced(p, m, parent, action, g);
    return reached_again(p, m, parent, action, g);
  }
  if (p->nodes.count >= p->req_max_nodes) {
    if (p->trace_fn) trace_emit(p, GOAP_TRACE_LIMIT, NONE, parent, action, g, 0.0);
    return GOAP_NODE_LIMIT;
  }
  goap_word *dst = p->nodes.states + (size_t)p->nodes.count * p->stride;
  if (dst != c) goap__copy_words(dst, c, p->key);
  uint32_t n = p->nodes.count;
  double h;
  if (p->lazy_astar) /* evaluated when taken out (step_impl); a root at once */
    h = parent == NONE ? lazy_eval(p, n, dst, GOAP__INF) : lazy_bound(p, parent, action);
  else if (p->lazy) /* evaluated when taken out (step_impl); queued with its parent's h */
    h = parent == NONE ? 0.0 : (double)p->nodes.h[parent];
  else
    h = backward ? h_backward(p, dst, dst + p->W) : h_forward(p, dst);
  goap_status st = add_node(p, slot, parent, action, g, h);
  /* the sign bit marks it pending (-0.0 included) */
  if (p->lazy && p->nodes.count > n && !(p->lazy_astar && parent == NONE))
    p->nodes.h[n] = -p->nodes.h[n];
  if (p->trace_fn && p->nodes.count > n) trace_node(p, GOAP_TRACE_NEW, n);
  return st;
}

/* Applicable in s and not a no-op there. */
static inline int useful(const goap_domain *d, const goap__action *act, const goap_word *s) {
  if (!goap__action_ok(d, act, s)) return 0;
  if (act->neff_add) return 1;
  for (uint32_t i = 0; i < act->neff_set; ++i) {
    const goap__wmask *m = &d->mask_pool[act->eff_set + i];
    if ((s[m->word] & m->mask) != m->value) return 1;
  }
  return 0;
}

static inline int useful_fast(const goap_planner *p, int32_t a, const goap_word *s) {
  if (p->quick && p->quick[a].simple) {
    const goap__quick *q = &p->quick[a];
    return ((s[0] & q->pm) == q->pv) & ((s[0] & q->em) != q->ev);
  }
  return useful(p->d, &p->d->actions[a], s);
}

static inline void set_bit(goap_word *bits, int i, int on) {
  goap_word m = (goap_word)1 << (i & 63);
  if (on) bits[i >> 6] |= m;
  else bits[i >> 6] &= ~m;
}

/* Fills the useful-action bitset that follows state s (at s + W). */
static void useful_all(goap_planner *p, goap_word *s) {
  goap_word *bits = s + p->W;
  memset(bits, 0, p->useful_words * sizeof *bits);
  for (int i = 0; i < p->nactive; ++i)
    if (useful_fast(p, p->active[i], s)) set_bit(bits, i, 1);
}

static goap_status expand_small(goap_planner *p, uint32_t n) {
  double g = p->nodes.g[n];
  goap_word bits = p->nodes.states[(size_t)n * 2 + 1];
  while (bits) {
    int i = goap__lowest_bit(bits);
    bits &= bits - 1;
    const goap__quick *q = &p->small_q[i];
    goap_word s0 = p->nodes.states[(size_t)n * 2];
    goap_word t0 = (s0 & ~q->em) | q->ev;
    goap_word cb = p->nodes.states[(size_t)n * 2 + 1];
    uint64_t aff = p->small_aff[i];
    while (aff) {
      int j = goap__lowest_bit(aff);
      aff &= aff - 1;
      const goap__quick *r = &p->small_q[j];
      goap_word u = (goap_word)(((t0 & r->pm) == r->pv) & ((t0 & r->em) != r->ev));
      cb = (cb & ~((goap_word)1 << j)) | (u << j);
    }
    /* offer(), specialised: one-word key, two-word nodes */
    int32_t a = p->active[i];
    double g2 = g + p->acost[a];
    ++p->stats.generated;
    const uint32_t *tab = p->closed.slot;
    size_t mask = p->closed.cap - 1, j = (size_t)goap__hash_state(&t0, 1) & mask;
    uint32_t m = NONE, nn = p->nodes.count, base = p->closed.idbase;
    for (; tab[j] - base < nn; j = (j + 1) & mask) {
      if (p->nodes.states[(size_t)(tab[j] - base) * 2] == t0) {
        m = tab[j] - base;
        break;
      }
    }
    goap_status st;
    if (m != NONE) {
      st = reached_again(p, m, n, a, g2);
    } else if (p->nodes.count >= p->req_max_nodes) {
      st = GOAP_NODE_LIMIT;
    } else {
      goap_word *t = p->nodes.states + (size_t)p->nodes.count * 2;
      t[0] = t0;
      t[1] = cb;
      st = add_node(p, j, n, a, g2, h_forward(p, t));
    }
    if (st != GOAP_OK) return st;
  }
  return GOAP_OK;
}

/* Instantiated twice: `scost` (positional costs priced per successor) is a constant in each,
 * so that searches without them pay nothing per successor. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline))
#endif
static inline goap_status expand_incremental_impl(goap_planner *p, uint32_t n, int scost) {
  if (p->trace_fn) trace_node(p, GOAP_TRACE_EXPAND, n);
  const goap_domain *d = p->d;
  const uint32_t W = p->W, stride = p->stride, uw = p->useful_words;
  const uint32_t *toff = p->touch_off;
  const int32_t *touch = p->touch, *a2i = p->act2idx;
  double g = p->nodes.g[n];
  for (uint32_t k = 0; k < uw; ++k) {
    goap_word bits = p->nodes.states[(size_t)n * stride + W + k];
    while (bits) {
      int i = (int)k * 64 + goap__lowest_bit(bits);
      bits &= bits - 1;
      int32_t a = p->active[i];
      const goap__action *act = &d->actions[a];
      const goap_word *s = p->nodes.states + (size_t)n * stride; /* re-read: pools may move */
      double c = p->acost[a];
      if (scost && (c = step_cost(p, a, s)) < 0.0) continue;
      goap_word *t = p->nodes.states + (size_t)p->nodes.count * stride; /* tentative slot */
      goap__copy_words(t, s, stride);
      if (p->quick && p->quick[a].simple) t[0] = (t[0] & ~p->quick[a].em) | p->quick[a].ev;
      else goap__action_do(d, act, t);
      /* recheck the actions that read or write what this action changed */
      for (int e = 0; e < act->neff; ++e) {
        int32_t v = act->eff[e].var;
        for (uint32_t j = toff[v], je = toff[v + 1]; j < je; ++j) {
          int32_t b = touch[j];
          int32_t bi = a2i[b];
          if (bi >= 0) set_bit(t + W, bi, useful_fast(p, b, t));
        }
      }
      goap_status st = offer(p, t, n, a, g + c, 0);
      if (st != GOAP_OK) return st;
    }
  }
  return GOAP_OK;
}

static goap_status expand_incremental(goap_planner *p, uint32_t n) {
  return expand_incremental_impl(p, n, 0);
}

/* ---- the successor index ----------------------------------------------------------------- */

/* Offers the successors of node n through the listed active indices that apply there, in
 * canonical form when `canon` (orbit search). Instantiated twice (expand_list_plain, _canon) so
 * that a search without a symmetry pays nothing per successor. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline))
#endif
static inline goap_status expand_list_impl(goap_planner *p, uint32_t n, double g,
                                           const int32_t *list, uint32_t count, int canon,
                                           int scost) {
  const goap_domain *d = p->d;
  uint32_t W = p->W;
  for (uint32_t j = 0; j < count; ++j) {
    int32_t a = p->active[list[j]];
    const goap__action *act = &d->actions[a];
    const goap_word *s = p->nodes.states + (size_t)n * p->stride; /* re-read: pools may move */
    if (!goap__action_ok(d, act, s)) continue;
    goap_word *t = p->nodes.states + (size_t)p->nodes.count * p->stride; /* tentative slot */
    memcpy(t, s, W * sizeof *t);
    goap__action_do(d, act, t);
    if (same(t, s, W)) continue; /* a no-op here */
    double c = p->acost[a];
    if (scost && (c = step_cost(p, a, s)) < 0.0) continue;
    if (canon) (void)goap__sym_canon_after(&p->sym, t, a, NULL);
    goap_status st = offer(p, t, n, a, g + c, 0);
    if (st != GOAP_OK) return st;
  }
  return GOAP_OK;
}

static goap_status expand_list_plain(goap_planner *p, uint32_t n, double g,
                                     const int32_t *list, uint32_t count) {
  return expand_list_impl(p, n, g, list, count, 0, 0);
}

static goap_status expand_list_canon(goap_planner *p, uint32_t n, double g,
                                     const int32_t *list, uint32_t count) {
  return expand_list_impl(p, n, g, list, count, 1, 0);
}

static goap_status expand_list_scost(goap_planner *p, uint32_t n, double g,
                                     const int32_t *list, uint32_t count) {
  return expand_list_impl(p, n, g, list, count, 0, 1);
}

/* expand_indexed_impl's calls: `canon` is a constant in each instance */
#define expand_list(p, n, g, list, count)                                                     \
  (canon == 1   ? expand_list_canon(p, n, g, list, count)                                     \
   : canon == 2 ? expand_list_scost(p, n, g, list, count)                                     \
                : expand_list_plain(p, n, g, list, count))

#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline))
#endif
static inline goap_status expand_indexed_impl(goap_planner *p, uint32_t n, int canon) {
  /* canon: 0 plain, 1 orbit search (canonical successors), 2 positional costs */
  if (p->trace_fn) trace_node(p, GOAP_TRACE_EXPAND, n);
  const goap__relax *r = &p->rx;
  double g = p->nodes.g[n];
  goap_status st;
  for (uint32_t w = 0; w < p->W; ++w) {
    for (uint32_t val = 0; val < 2; ++val) {
      goap_word x = p->nodes.states[(size_t)n * p->stride + w];
      goap_word bits = val ? (x & p->succ.anchor_true[w]) : (~x & p->succ.anchor_false[w]);
      while (bits) {
        int b = goap__lowest_bit(bits);
        bits &= bits - 1;
        uint32_t f = r->fact_off[p->succ.bit_var[w * 64 + (uint32_t)b]] + val;
        st = expand_list(p, n, g, p->succ.list + p->succ.anchor_off[f],
                         p->succ.anchor_off[f + 1] - p->succ.anchor_off[f]);
        if (st != GOAP_OK) return st;
      }
    }
  }
  for (int i = 0; i < p->succ.nenum_vars; ++i) {
    const goap__var *var = &p->d->vars[p->succ.enum_vars[i]];
    uint64_t k = goap__field_get(p->nodes.states + (size_t)n * p->stride, var->word, var->shift,
                                 var->fmask);
    uint32_t f = r->fact_off[p->succ.enum_vars[i]] + (uint32_t)k;
    st = expand_list(p, n, g, p->succ.list + p->succ.anchor_off[f],
                     p->succ.anchor_off[f + 1] - p->succ.anchor_off[f]);
    if (st != GOAP_OK) return st;
  }
  return expand_list(p, n, g, p->succ.unanchored, (uint32_t)p->succ.nunanchored);
}
#undef expand_list

static goap_status expand_indexed(goap_planner *p, uint32_t n) {
  return expand_indexed_impl(p, n, 0);
}

#if defined(__GNUC__) || defined(__clang__)
#define PREFETCH(addr) __builtin_prefetch(addr)
#else
#define PREFETCH(addr) ((void)(addr))
#endif

/* Orbit search, batched: collects the canonical successors through one anchored list into
 * sym.batch (from *cnt on), hashing each and prefetching its closed-table slot. */
static void batch_list(goap_planner *p, uint32_t n, const int32_t *list, uint32_t count,
                       uint32_t *cnt) {
  const goap_domain *d = p->d;
  goap__sym *y = &p->sym;
  uint32_t W = p->W;
  const goap_word *s = p->nodes.states + (size_t)n * p->stride;
  size_t mask = p->closed.cap - 1;
  for (uint32_t j = 0; j < count; ++j) {
    int32_t a = p->active[list[j]];
    const goap__action *act = &d->actions[a];
    if (!goap__action_ok(d, act, s)) continue;
    goap_word *t = y->batch + (size_t)*cnt * W;
    memcpy(t, s, W * sizeof *t);
    goap__action_do(d, act, t);
    if (same(t, s, W)) continue; /* a no-op here */
    (void)goap__sym_canon_after(y, t, a, NULL);
    uint64_t h = goap__hash_state(t, p->key);
    PREFETCH(&p->closed.slot[(size_t)h & mask]);
    y->batch_act[*cnt] = a;
    y->batch_hash[(*cnt)++] = h;
  }
}

/* Orbit search: the index expansion in two passes. The first generates every canonical
 * successor into sym.batch and prefetches its closed-table slot; the second offers them in
 * the same order as expand_indexed_impl would (so the search is the same), prefetching the
 * stored state named by the slot of the successor two ahead: on large searches nearly every
 * lookup misses the cache twice (the slot, then the state compared), and this overlaps the
 * misses of one expansion's successors. Kept out of line: it must not weigh on the search
 * loop of requests without a symmetry. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static goap_status expand_indexed_canon(goap_planner *p, uint32_t n) {
  if (p->trace_fn || p->scost_on) return expand_indexed_impl(p, n, 1);
  const goap__relax *r = &p->rx;
  goap__sym *y = &p->sym;
  uint32_t cnt = 0;
  for (uint32_t w = 0; w < p->W; ++w) {
    for (uint32_t val = 0; val < 2; ++val) {
      goap_word x = p->nodes.states[(size_t)n * p->stride + w];
      goap_word bits = val ? (x & p->succ.anchor_true[w]) : (~x & p->succ.anchor_false[w]);
      while (bits) {
        int b = goap__lowest_bit(bits);
        bits &= bits - 1;
        uint32_t f = r->fact_off[p->succ.bit_var[w * 64 + (uint32_t)b]] + val;
        batch_list(p, n, p->succ.list + p->succ.anchor_off[f],
                   p->succ.anchor_off[f + 1] - p->succ.anchor_off[f], &cnt);
      }
    }
  }
  for (int i = 0; i < p->succ.nenum_vars; ++i) {
    const goap__var *var = &p->d->vars[p->succ.enum_vars[i]];
    uint64_t k = goap__field_get(p->nodes.states + (size_t)n * p->stride, var->word, var->shift,
                                 var->fmask);
    uint32_t f = r->fact_off[p->succ.enum_vars[i]] + (uint32_t)k;
    batch_list(p, n, p->succ.list + p->succ.anchor_off[f],
               p->succ.anchor_off[f + 1] - p->succ.anchor_off[f], &cnt);
  }
  batch_list(p, n, p->succ.unanchored, (uint32_t)p->succ.nunanchored, &cnt);
  double g = p->nodes.g[n];
  for (uint32_t i = 0; i < cnt; ++i) {
    if (i + 2 < cnt) { /* the state the slot two ahead names (its slot is cached by now) */
      uint32_t id = p->closed.slot[(size_t)y->batch_hash[i + 2] & (p->closed.cap - 1)] -
                    p->closed.idbase;
      if (id < p->nodes.count) PREFETCH(p->nodes.states + (size_t)id * p->stride);
    }
    int32_t a = y->batch_act[i];
    goap_status st = offer(p, y->batch + (size_t)i * p->W, n, a, g + p->acost[a], 0);
    if (st != GOAP_OK) return st;
  }
  return GOAP_OK;
}

/* Positional costs (scost_on): the bitset or the index, pricing every successor. Out of
 * line, like the orbit search's. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static goap_status expand_scost(goap_planner *p, uint32_t n) {
  if (p->useful_words) return expand_incremental_impl(p, n, 1);
  return expand_indexed_impl(p, n, 2);
}

/* Strong stubborn sets (GOAP_REQUEST_STUBBORN): only the applicable actions of one set. Out
 * of line, like the orbit search's. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static goap_status expand_stubborn(goap_planner *p, uint32_t n) {
  const int32_t *list;
  uint32_t count = goap__por_stubborn(p, p->nodes.states + (size_t)n * p->stride, &list);
  if (count == UINT32_MAX) { /* turned off: the index from now on (built at start) */
    p->succ_mode = p->sym.on ? FMODE_INDEX_SYM : FMODE_INDEX;
    return p->sym.on ? expand_indexed_canon(p, n) : expand_indexed(p, n);
  }
  if (p->trace_fn) trace_node(p, GOAP_TRACE_EXPAND, n);
  if (p->sym.on) return expand_list_canon(p, n, p->nodes.g[n], list, count);
  return expand_list_plain(p, n, p->nodes.g[n], list, count);
}

static goap_status expand_forward(goap_planner *p, uint32_t n) {
  if (p->succ_mode == FMODE_SMALL) return expand_small(p, n);
  if (p->succ_mode == FMODE_POR) return expand_stubborn(p, n);
  if (p->succ_mode == FMODE_BITSET) return expand_incremental(p, n);
  if (p->succ_mode == FMODE_INDEX) return expand_indexed(p, n);
  if (p->succ_mode == FMODE_INDEX_SYM) return expand_indexed_canon(p, n);
  return expand_scost(p, n);
}

/* The active actions that write a variable node n constrains (only they can be relevant),
 * in `active` order; returns how many were listed in p->back_list (as active indices). */
static int backward_candidates(goap_planner *p, uint32_t n) {
  const goap_domain *d = p->d;
  const goap_word *lo = p->nodes.states + (size_t)n * p->stride, *hi = lo + p->W;
  if (++p->back_gen == 0) {
    memset(p->back_stamp, 0, (size_t)(d->nactions ? d->nactions : 1) * sizeof *p->back_stamp);
    p->back_gen = 1;
  }
  int count = 0;
  for (uint32_t w = 0; w < p->W; ++w) {
    if (lo[w] == 0 && hi[w] == d->full_hi[w]) continue;
    for (uint32_t k = d->wvars_off[w]; k < d->wvars_off[w + 1]; ++k) {
      int32_t v = d->wvars[k];
      const goap__var *var = &d->vars[v];
      if (goap__field_get(lo, var->word, var->shift, var->fmask) == 0 &&
          goap__field_get(hi, var->word, var->shift, var->fmask) == var->range)
        continue;
      for (uint32_t j = d->writers_off[v]; j < d->writers_off[v + 1]; ++j) {
        int32_t a = d->writers[j];
        if (p->act2idx[a] < 0 || p->back_stamp[a] == p->back_gen) continue;
        p->back_stamp[a] = p->back_gen;
        /* insertion keeps the list sorted by active index: plans do not depend on var order */
        int32_t ai = p->act2idx[a];
        int pos = count++;
        while (pos > 0 && p->back_list[pos - 1] > ai) {
          p->back_list[pos] = p->back_list[pos - 1];
          --pos;
        }
        p->back_list[pos] = ai;
      }
    }
  }
  return count;
}

static goap_status expand_backward(goap_planner *p, uint32_t n) {
  if (p->trace_fn) trace_node(p, GOAP_TRACE_EXPAND, n);
  const goap_domain *d = p->d;
  const goap__relax *r = &p->rx;
  uint32_t W = p->W, sw = 2 * W;
  double g = p->nodes.g[n];
  int ncand = backward_candidates(p, n);
  for (int ci = 0; ci < ncand; ++ci) {
    int32_t a = p->active[p->back_list[ci]];
    const goap__action *act = &d->actions[a];
    goap_status st = goap__cand_reserve(p, 2);
    if (st != GOAP_OK) return st;
    const goap_word *gs = p->nodes.states + (size_t)n * sw; /* re-read: pools may have moved */
    goap_word *c = p->scratch;
    memcpy(c, gs, sw * sizeof *c);
    int relevant = 0, ok = 1;
    for (int j = 0; j < act->neff && ok; ++j) {
      const goap_effect *e = &act->eff[j];
      const goap__var *v = &d->vars[e->var];
      uint64_t l = goap__field_get(gs, v->word, v->shift, v->fmask);
      uint64_t u = goap__field_get(gs + W, v->word, v->shift, v->fmask);
      int full = l == 0 && u == v->range;
      if (e->op == GOAP_SET) {
        uint64_t k = (uint64_t)((int64_t)e->value - (int64_t)v->lo);
        if (full) continue;
        if (k < l || k > u) {
          ok = 0;
          break;
        }
        relevant = 1;
        goap__field_put(c, v->word, v->shift, v->fmask, 0);
        goap__field_put(c + W, v->word, v->shift, v->fmask, v->range);
      } else {
        if (full) continue;
        int64_t nl = (int64_t)l - e->value, nu = (int64_t)u - e->value;
        if (e->op == GOAP_ADD_CLAMP) { /* saturated: a bound at the edge keeps the edge */
          if (l == 0) nl = 0;
          if (u == v->range) nu = (int64_t)v->range;
        }
        if (nl < 0) nl = 0;
        if (nu > (int64_t)v->range) nu = (int64_t)v->range;
        if (nl > nu) {
          ok = 0;
          break;
        }
        relevant = 1;
        goap__field_put(c, v->word, v->shift, v->fmask, (uint64_t)nl);
        goap__field_put(c + W, v->word, v->shift, v->fmask, (uint64_t)nu);
      }
    }
    if (!ok || !relevant) continue;
    size_t nc = 1;
    for (uint32_t k = r->act_off[a]; k < r->act_off[a + 1] && nc; ++k) {
      const goap__rcond *rc = &r->cond[k];
      st = goap__split_ne(p, &nc, &d->vars[rc->var], rc->a, rc->b, rc->ne, rc->has_ne);
      if (st != GOAP_OK) return st;
    }
    for (size_t k = 0; k < nc; ++k) {
      /* the candidate may move when the pools grow inside offer: copy it to the tentative slot */
      goap_word *tent = p->nodes.states + (size_t)p->nodes.count * sw;
      memcpy(tent, p->scratch + k * sw, sw * sizeof *tent);
      if (same(tent, p->nodes.states + (size_t)n * sw, sw)) continue;
      st = offer(p, tent, n, a, g + p->acost[a], 1);
      if (st != GOAP_OK) return st;
    }
  }
  return GOAP_OK;
}

/* whole: the request is planned in one call (goap_plan), so the micro search may take it. */
static goap_status begin_impl(goap_planner *p, const goap_request *req, int whole) {
  memset(&p->stats, 0, sizeof p->stats);
  p->elapsed_ns = 0;
  p->phase = PHASE_DONE;
  p->found = p->best = NONE;
  p->closed.idbase += p->nodes.count; /* the last request's table ids become stale */
  p->nodes.count = 0;
  p->sym.on = 0;
  p->lm_ring.on = 0;
  goap_status st = prepare(p, req);
  if (st == GOAP_OK && p->sym.on && !goap__sym_active_ok(p)) st = GOAP_INVALID_ARGUMENT;
  p->scost_on = 0;
  if (st == GOAP_OK && p->d->has_scost)
    for (int i = 0; i < p->nactive && !p->scost_on; ++i)
      p->scost_on = scost_called(p, &p->d->actions[p->active[i]]);
  /* small requests: small_search.c (never with a state cost: it calls no callbacks) */
  p->small_search.run = st == GOAP_OK && !p->scost_on && goap__small_ok(p);
  p->small_search.micro_done = p->small_search.micro_fell = p->small_search.micro_watch = 0;
  if (st == GOAP_OK && p->small_search.run && whole) {
    if (goap__micro_plan(p, &st)) { /* planned whole: done */
      p->final = st;
      return st;
    }
  } else if (st == GOAP_OK) {
    st = p->small_search.run ? goap__small_start(p) : goap__planner_start(p);
  }
  p->final = st;
  if (st == GOAP_OK) {
    p->phase = PHASE_RUNNING;
    return GOAP_IN_PROGRESS;
  }
  return st;
}

/* Runs the search; t_start is when the time spent so far (elapsed_ns) stopped counting. */
static goap_status step_impl(goap_planner *p, uint32_t max_expansions, uint32_t *done,
                             uint64_t t_start) {
  if (p->phase == PHASE_IDLE) return GOAP_INVALID_OPERATION;
  if (p->phase == PHASE_DONE) return p->final;
  if (p->small_search.run) {
    goap_status ss = goap__small_step(p, max_expansions, done, t_start);
    if (ss != GOAP_IN_PROGRESS) {
      p->phase = PHASE_DONE;
      p->final = ss;
    }
    return ss;
  }
  uint64_t budget_ns = p->max_ms > 0 ? (uint64_t)(p->max_ms * 1e6) : 0;
  uint32_t count = 0, requeued = 0;
  int backward = p->search == GOAP_SEARCH_BACKWARD;
  uint32_t sw = p->stride;
  goap_status st = GOAP_IN_PROGRESS;
  while (max_expansions == 0 || count < max_expansions) {
    goap__hentry e;
    if (!open_pop(p, &e)) {
      st = GOAP_NO_PLAN;
      break;
    }
    /* a stale entry (its node was reached more cheaply since, or taken from the other list)
     * pops after the fresh one, by then closed: skipped */
    if (p->nodes.action[e.node] & CLOSED) continue;
    if (p->lazy_astar) {
      /* lazy A*: an entry whose key is no longer the node's (its g or h changed since) is
       * stale even though the node is open: its fresh entry is in the heap */
      double hk = (double)fabsf(p->nodes.h[e.node]);
      if (e.f != p->nodes.g[e.node] + hk) continue;
    }
    p->nodes.action[e.node] |= CLOSED;
    const goap_word *s = p->nodes.states + (size_t)e.node * sw;
    /* lazy A* tests before evaluating: a goal's key is its g (its bound is 0 <= h* = 0) */
    if (backward ? goap__start_satisfies(p, s, s + p->W) : goal_holds(p, s)) {
      p->found = e.node;
      st = GOAP_OK;
      break;
    }
    if (p->lazy_astar && signbit(p->nodes.h[e.node])) {
      /* evaluated now; queued again with its true f unless that equals the key (a bound
       * from its parent, at most its true h): then it is expanded at once. LM-cut may stop
       * once f exceeds the next key in the open list (the node would be queued again
       * anyway): it stays unevaluated with that larger bound, evaluated again if taken out */
      double stop = p->open.count > 0 && !p->pref_on && p->lm_stop
                        ? p->open.entry[0].f - p->nodes.g[e.node]
                        : GOAP__INF;
      double h = lazy_eval(p, e.node, s, stop + 1e-9 * (1.0 + fabs(stop)));
      int partial = p->heur == GOAP_H_LMCUT && p->lm.partial;
      float hs = h_store(h), lb = -p->nodes.h[e.node];
      if (hs < lb) hs = lb; /* the bound holds too (LM-cut is not consistent) */
      p->nodes.h[e.node] = partial ? -hs : hs;
      if (h >= GOAP__INF) continue; /* a dead end: stays closed, not expanded */
      if (hs > lb) {
        p->nodes.action[e.node] &= ~CLOSED;
        goap_status ps = heap_push(p, p->nodes.g[e.node] + (double)hs, (double)hs, e.node);
        if (ps != GOAP_OK) {
          st = ps;
          break;
        }
        if (budget_ns && (++requeued & 31u) == 0 &&
            p->elapsed_ns + (goap__now_ns() - t_start) >= budget_ns) {
          st = GOAP_TIME_LIMIT;
          break;
        }
        continue;
      }
    } else if (p->lazy && signbit(p->nodes.h[e.node])) {
      double h = h_forward(p, s);
      p->nodes.h[e.node] = h_store(h);
      if (h >= GOAP__INF) continue; /* a dead end: stays closed, not expanded */
      if (p->pref_on) {
        progress(p, p->nodes.h[e.node]);
        goap__relax_take_preferred(p);
      }
    } else if (p->pref_on) {
      (void)h_forward(p, s); /* its relaxed plan again */
      goap__relax_take_preferred(p);
    }
    if (p->lazy_astar && p->heur == GOAP_H_LMCUT && p->lm_bound) {
      /* a node evaluated earlier (queued again since) has lost its cuts: evaluated again
       * for its successors' bounds while the cut bound has raised at least one successor
       * per expansion on average (village, logistics, elevators: 2-12; blocks, gripper:
       * under 0.2, where the extra evaluations cost more than they save) */
      if (p->lm_node != e.node && p->lm_bound == 2 && p->lm_gain >= p->lm_fresh)
        (void)lazy_eval(p, e.node, s, GOAP__INF);
      if (p->lm_node == e.node) {
        ++p->lm_fresh;
        if (p->lm_ring.on) goap__lm_ring_store(p, e.node);
      }
    }
    ++p->stats.expanded;
    ++count;
    goap_status xs = backward ? expand_backward(p, e.node) : expand_forward(p, e.node);
    if (xs != GOAP_OK) {
      st = xs;
      break;
    }
    if (budget_ns && (count & 31u) == 0 &&
        p->elapsed_ns + (goap__now_ns() - t_start) >= budget_ns) {
      st = GOAP_TIME_LIMIT;
      break;
    }
  }
  if (st == GOAP_IN_PROGRESS && budget_ns &&
      p->elapsed_ns + (goap__now_ns() - t_start) >= budget_ns)
    st = GOAP_TIME_LIMIT;
  if (done) *done = count;
  if (st == GOAP_OK && p->trace_fn) trace_node(p, GOAP_TRACE_GOAL, p->found);
  if (st != GOAP_IN_PROGRESS) {
    p->phase = PHASE_DONE;
    p->final = st;
  }
  return st;
}

/* Does the request read the clock? Only for a time budget or GOAP_REQUEST_TIMED (goap.h):
 * otherwise no time is counted and stats.time_us stays 0. */
static int clocked(const goap_request *req) {
  return req && ((req->flags & GOAP_REQUEST_TIMED) || req->max_ms > 0.0);
}

/* The clock when on (else 0). */
static uint64_t clock_ns(int on) { return on ? goap__now_ns() : 0; }

goap_status goap_plan_begin(goap_planner *p, const goap_request *req) {
  if (!p) return GOAP_INVALID_ARGUMENT;
  int on = clocked(req);
  uint64_t t0 = clock_ns(on);
  goap_status st = begin_impl(p, req, 0);
  p->clock_on = on;
  p->elapsed_ns += clock_ns(on) - t0;
  return st;
}

goap_status goap_plan_step(goap_planner *p, uint32_t max_expansions, uint32_t *done) {
  if (done) *done = 0;
  if (!p) return GOAP_INVALID_ARGUMENT;
  uint64_t t0 = clock_ns(p->clock_on);
  goap_status st = step_impl(p, max_expansions, done, t0);
  p->elapsed_ns += clock_ns(p->clock_on) - t0;
  return st;
}

goap_status goap_plan_finish(goap_planner *p, goap_result *res) {
  if (!p || !res) return GOAP_INVALID_ARGUMENT;
  if (p->phase != PHASE_DONE) return GOAP_INVALID_OPERATION;
  return goap__planner_finish(p, res);
}

goap_status goap_plan(goap_planner *p, const goap_request *req, goap_result *res) {
  if (!p || !req || !res) {
    if (res) res->status = GOAP_INVALID_ARGUMENT;
    return GOAP_INVALID_ARGUMENT;
  }
  int on = clocked(req);
  uint64_t t0 = clock_ns(on);
  goap_status st = begin_impl(p, req, 1);
  p->clock_on = on;
  if (st == GOAP_IN_PROGRESS) st = step_impl(p, 0, NULL, t0);
  p->elapsed_ns = clock_ns(on) - t0;
  (void)st;
  if (p->small_search.micro_done) return goap__planner_finish_micro(p, res);
  return goap__planner_finish(p, res);
}

/* ---- for planner_start.c and planner_result.c (planner.h) ---------------------------------- */

goap_status goap__planner_offer(goap_planner *p, const goap_word *c, uint32_t parent,
                                int32_t action, double g, int backward) {
  return offer(p, c, parent, action, g, backward);
}

void goap__planner_useful_all(goap_planner *p, goap_word *s) { useful_all(p, s); }

double goap__planner_step_cost(goap_planner *p, int32_t a, const goap_word *s) {
  return step_cost(p, a, s);
}
