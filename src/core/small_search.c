/*
 * small_search.c -- the planner's fast path for small requests: forward search over one-word
 * states with at most 64 active actions that are all plain masks (planner.c's "small mode"),
 * and a heuristic that reads only the goal (default, zero, goal count, admissible goal count).
 *
 * Invariants:
 *  - It is the general search (planner.c: start_search, step_impl, expand_small, offer,
 *    add_node, reached_again) specialised, not another algorithm: the same nodes are made in
 *    the same order with the same ids, g, stored h, parents and actions, the open list pops
 *    in the same (f, tie, node id) order, the same budgets stop it at the same points and
 *    the same statistics are counted. So every plan, cost, status and statistic equals the
 *    general path's (tests/test_small_search.c compares the two on random small domains).
 *  - It uses the planner's own pools (node arrays, states at stride 2: the state, then its
 *    useful-action bitset -- written only when the useful actions come from the parent's,
 *    not from the nibble tables (goap_planner.small_nib) --, the generation-stamped closed
 *    table, the open heap) and grows
 *    them through planner.c only, so finish, partial plans and the next request see the
 *    pools exactly as the general path leaves them; a request that fits allocates nothing.
 *  - The loop keeps the planner's counters and pointers in locals and writes them back
 *    before anything that may grow a pool and before it returns; pointers are re-read after
 *    every growth.
 *  - It runs only when goap__small_ok() holds for the request. It calls no callback: check
 *    and dynamic-cost callbacks are asked before the search (planner.c, prepare), and a
 *    request whose domain has callbacks (unless GOAP_REQUEST_NO_CALLBACKS) stays on the
 *    general path anyway, so that a callback asked during the search stays there too.
 *  - The micro search (goap__micro_plan, at the end of this file, with its own invariants) is
 *    the same search again for whole requests of at most MICRO_N nodes, its state on the
 *    stack instead of the pools; when it runs out of room the search above reruns the request.
 */
#include <math.h>
#include <string.h>

#include "planner.h"

#define NONE UINT32_MAX
#define CLOSED GOAP__NODE_CLOSED

int goap__small_ok(const goap_planner *p) {
  if (!p->small || p->small_search.never || p->sym.on || p->trace_fn || p->lazy || p->pref_on ||
      (p->flags & GOAP_REQUEST_STUBBORN))
    return 0;
  if (p->sx_force == 1) return 0; /* tests: the successor index, forced */
  if (p->search == GOAP_SEARCH_BACKWARD) return 0;
  if (p->d->has_callbacks && !(p->flags & GOAP_REQUEST_NO_CALLBACKS)) return 0;
  switch (p->heur) {
    case GOAP_H_DEFAULT:
    case GOAP_H_ZERO:
    case GOAP_H_GOAL_COUNT:
    case GOAP_H_GOAL_COUNT_ADMISSIBLE: return 1;
    default: return 0;
  }
}

#if defined(__GNUC__) || defined(__clang__)
#define SMALL_INLINE __attribute__((always_inline)) inline
#define SMALL_COLD __attribute__((noinline, cold))
#else
#define SMALL_INLINE inline
#define SMALL_COLD
#endif

static SMALL_INLINE int field_bad(const goap__ftest *t, uint64_t s) {
  uint64_t v = (s >> t->shift) & t->fmask;
  return (v - t->a > t->b - t->a) | ((int)t->has_ne & (v == t->ne));
}

/* The heuristics (planner.c, h_forward) from the goal conditions a state leaves unmet: their
 * number u and the largest cheapest achiever among them (best). */
static double h_of(const goap_planner *p, int u, double best) {
  switch (p->heur) {
    case GOAP_H_ZERO: return 0.0;
    case GOAP_H_GOAL_COUNT: return (double)u;
    case GOAP_H_GOAL_COUNT_ADMISSIBLE:
      if (u && !p->max_achieve) return GOAP__INF;
      return (double)u * p->gc_scale;
    default: {
      if (best >= GOAP__INF) return GOAP__INF;
      double gc = (double)u * p->gc_scale;
      return gc > best ? gc : best;
    }
  }
}

/* h of state s as stored (goap__h_store; INFINITY for a dead end). */
static SMALL_INLINE float small_h(const goap_planner *p, const goap__smallgoal *m, uint64_t s) {
  if (m->tab) { /* conditions past nwant are padding: mask 0, value 0, never unmet */
    if (p->nwant <= 1) return m->htab[(s & m->gm[0]) != m->gv[0]];
    unsigned k = (unsigned)((s & m->gm[0]) != m->gv[0]) |
                 (unsigned)((s & m->gm[1]) != m->gv[1]) << 1;
    if (p->nwant > 2)
      k |= (unsigned)((s & m->gm[2]) != m->gv[2]) << 2 |
           (unsigned)((s & m->gm[3]) != m->gv[3]) << 3;
    return m->htab[k];
  }
  int u = 0;
  double best = 0.0;
  const goap__ftest *t = p->goal_ft;
  if (m->eq) { /* more than 4 equalities */
    for (int i = 0; i < p->nwant; ++i) {
      if (((s >> t[i].shift) & t[i].fmask) == t[i].a) continue;
      ++u;
      if (p->goal_best[i] > best) best = p->goal_best[i];
    }
  } else {
    for (int i = 0; i < p->nwant; ++i) {
      if (!field_bad(&t[i], s)) continue;
      ++u;
      if (p->goal_best[i] > best) best = p->goal_best[i];
    }
  }
  return goap__h_store(h_of(p, u, best));
}


/* The goal's conditions other than equalities hold in s (planner.c, goal_holds; the
 * equalities are tested as one mask first). */
static int small_goal_rest(const goap_planner *p, uint64_t s) {
  for (int i = 0; i < p->nwant; ++i)
    if (field_bad(&p->goal_ft[i], s)) return 0;
  return 1;
}

static SMALL_INLINE int hless(const goap__hentry *a, const goap__hentry *b) {
  if (a->f != b->f) return a->f < b->f;
  if (a->tie != b->tie) return a->tie < b->tie;
  return a->node < b->node;
}

/* Puts e into heap h of n entries (n + 1 after). */
static SMALL_INLINE void heap_put(goap__hentry *h, size_t n, goap__hentry e) {
  size_t i = n;
  while (i > 0) {
    size_t up = (i - 1) / 2;
    if (!hless(&e, &h[up])) break;
    h[i] = h[up];
    i = up;
  }
  h[i] = e;
}

/* Takes the least entry's node out of heap h, which holds n entries after (n + 1 before). */
static SMALL_INLINE uint32_t heap_take(goap__hentry *h, size_t n) {
  uint32_t top = h[0].node;
  goap__hentry last = h[n];
  size_t i = 0;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && hless(&h[c + 1], &h[c])) ++c;
    if (!hless(&h[c], &last)) break;
    h[i] = h[c];
    i = c;
  }
  if (n) h[i] = last;
  GOAP_ASSERT(n == 0 || !hless(&h[i], &h[0])); /* heap order: the new top is the least */
  return top;
}

static SMALL_INLINE uint64_t useful1(const goap__quick *q, uint64_t s) {
  return (uint64_t)(((s & q->pm) == q->pv) & ((s & q->em) != q->ev));
}

/* The useful actions in s (applicable, not a no-op), by active index: planner.c's per-node
 * bitset. */
static uint64_t useful_set(const goap__quick *Q, int nactive, uint64_t s) {
  uint64_t bits = 0;
  int i = 0;
  /* 4 per round: their preconditions tested together (few hold, as along a chain), the
   * effects only of a round where one does */
  for (; i + 4 <= nactive; i += 4) {
    const goap__quick *q = Q + i;
    unsigned app = (unsigned)((s & q[0].pm) == q[0].pv) |
                   (unsigned)((s & q[1].pm) == q[1].pv) << 1 |
                   (unsigned)((s & q[2].pm) == q[2].pv) << 2 |
                   (unsigned)((s & q[3].pm) == q[3].pv) << 3;
    if (!app) continue;
    unsigned eff = (unsigned)((s & q[0].em) != q[0].ev) |
                   (unsigned)((s & q[1].em) != q[1].ev) << 1 |
                   (unsigned)((s & q[2].em) != q[2].ev) << 2 |
                   (unsigned)((s & q[3].em) != q[3].ev) << 3;
    bits |= (uint64_t)(app & eff) << i;
  }
  for (; i < nactive; ++i) bits |= useful1(&Q[i], s) << i;
  return bits;
}

/* The request's open-list key (planner.c, f_of and tie_of) for g and stored h. */
static SMALL_INLINE goap__hentry key_of(int greedy, double weight, double g, float hs,
                                         uint32_t m) {
  goap__hentry e;
  if (greedy) {
    e.f = (double)hs;
    e.tie = (float)g;
  } else {
    e.f = g + weight * (double)hs;
    e.tie = hs;
  }
  e.node = m;
  return e;
}

/* The open list is the heap plus, when small_search.front_on, one entry held outside it that is not
 * above any heap entry (so it is the one taken next): a node whose successor is the next to
 * expand, as along a chain, costs no heap operation. The order taken out is the one the heap
 * alone would give (ties are only between entries of one node with equal keys). Queues e. */
static SMALL_INLINE goap_status push(goap_planner *p, goap__hentry e) {
  goap__small *m = &p->small_search;
  if (p->open.count == p->open.cap) {
    goap_status st = goap__planner_grow(p, (void **)&p->open.entry, &p->open.cap,
                                        p->open.count + 1, sizeof *p->open.entry);
    if (st != GOAP_OK) return st;
  }
  if (!m->front_on) {
    if (p->open.count == 0 || hless(&e, &p->open.entry[0])) {
      m->front = e;
      m->front_on = 1;
      return GOAP_OK;
    }
  } else if (hless(&e, &m->front)) {
    goap__hentry old = m->front;
    m->front = e;
    e = old;
  }
  heap_put(p->open.entry, p->open.count++, e);
  return GOAP_OK;
}

/* A new node for state s at free table slot j (planner.c, offer and add_node). */
static SMALL_INLINE goap_status add(goap_planner *p, size_t j, uint64_t s, uint32_t parent,
                                    int32_t action, double g) {
  uint32_t n = p->nodes.count;
  p->nodes.states[(size_t)n * 2] = s;
  float hs = small_h(p, p->small_search.g, s);
  p->nodes.g[n] = g;
  p->nodes.h[n] = hs;
  p->nodes.parent[n] = parent;
  /* dead ends stay closed */
  p->nodes.action[n] = (uint32_t)(action + 1) | (isinf(hs) ? CLOSED : 0u);
  p->closed.slot[j] = p->closed.idbase + n;
  p->nodes.count = n + 1;
  if (p->nodes.count >= p->nodes.grow_at) {
    goap_status st = goap__planner_nodes(p, (size_t)p->nodes.count + 1);
    if (st != GOAP_OK) return st;
  }
  if (isinf(hs)) return GOAP_OK;
  return push(p, key_of(p->search == GOAP_SEARCH_GREEDY, p->weight, g, hs, n));
}

/* The goal's form for the small search: whether its conditions are all equalities and, when
 * they are and at most 4, the table of h by the conditions a state leaves unmet. */
static void make_goal(goap_planner *p, goap__smallgoal *m) {
  int n = p->nwant;
  m->serial = p->goal_serial;
  m->heur = (int)p->heur;
  m->micro_big = 0;
  m->eq = 1;
  for (int i = 0; i < n; ++i)
    m->eq &= p->goal_ft[i].a == p->goal_ft[i].b && !p->goal_ft[i].has_ne;
  m->tab = m->eq && n <= 4;
  if (!m->tab) return;
  for (int i = 0; i < 4; ++i) { /* padded to 4 (small_h): never unmet */
    m->gm[i] = m->gv[i] = 0;
    if (i >= n) continue;
    const goap__ftest *t = &p->goal_ft[i];
    m->gm[i] = t->fmask << t->shift;
    m->gv[i] = t->a << t->shift;
  }
  for (unsigned k = 1u << n; k < 16; ++k) m->htab[k] = 0.0f; /* never looked up */
  for (unsigned k = 0; k < (1u << n); ++k) {
    int u = 0;
    double best = 0.0;
    for (int i = 0; i < n; ++i) {
      if (!(k >> i & 1u)) continue;
      ++u;
      if (p->goal_best[i] > best) best = p->goal_best[i];
    }
    m->htab[k] = goap__h_store(h_of(p, u, best));
  }
}

goap_status goap__small_start(goap_planner *p) {
  /* ids of earlier requests lie below idbase; wipe only before the ids would wrap */
  if ((uint64_t)p->closed.idbase + p->cap_nodes + 2 >= ((uint64_t)1 << 32)) {
    memset(p->closed.slot, 0xff, p->closed.cap * sizeof *p->closed.slot);
    p->closed.idbase = 0;
  }
  p->nodes.count = 0;
  p->open.count = 0;
  p->open_pref.count = 0;
  p->small_search.front_on = 0;
  p->found = p->best = NONE;
  p->key = p->W; /* one word */
  p->useful_words = 1;
  /* room for the root (planner.c, start_search): grow_at >= 2 computed at stride 2 already
   * says there is */
  if (p->stride != 2 || p->nodes.grow_at < 2) {
    p->stride = 2;
    goap_status st = goap__planner_nodes(p, 2);
    if (st != GOAP_OK) return st;
  }
  if (p->goal_never) return GOAP_NO_PLAN;
  /* prepare leaves the request's slot in gslot_current */
  goap__smallgoal *m = &p->gslots[p->gslot_current].sg;
  if (m->serial != p->goal_serial || m->heur != (int)p->heur) make_goal(p, m);
  p->small_search.g = m;
  /* the root (planner.c, start_search and offer) */
  uint64_t s = p->start[0];
  ++p->stats.generated;
  if (p->req_max_nodes == 0) return GOAP_NODE_LIMIT;
  ++p->stats.evaluated;
  ++p->stats.nodes;
  return add(p, (size_t)goap__hash_state(&s, 1) & (p->closed.cap - 1), s, NONE, -1, 0.0);
}

/* The useful actions in s by active index, from the selection's nibble tables (small_tab):
 * the applicable ones (every nibble's part of the precondition holds) less the no-ops (every
 * nibble's part of the effect already holds). */
static SMALL_INLINE uint64_t useful_tab(const uint64_t *T, const uint8_t *sh, int nib,
                                        uint64_t s) {
  uint64_t app = ~(uint64_t)0, hold = ~(uint64_t)0;
  for (int k = 0; k < nib; ++k, T += 32) {
    unsigned v = (unsigned)(s >> sh[k]) & 15u;
    app &= T[v];
    hold &= T[16 + v];
  }
  return app & ~hold;
}

/* When the search loop must next look at its limits (small_run): at count max_expansions
 * (0: none) and, with a time budget, every 32 expansions; UINT32_MAX: never. */
static SMALL_INLINE uint32_t next_check(uint32_t count, uint32_t max_expansions, int timed) {
  uint32_t c = UINT32_MAX;
  if (timed && count < UINT32_MAX - 32u) c = (count | 31u) + 1u;
  if (max_expansions && max_expansions < c) c = max_expansions;
  return c;
}

/* The search loop (planner.c, step_impl) for one form of the request: tabmode > 0, the
 * nibble tables of that many nibbles (a constant, so that the loop over them unrolls); 0, the
 * parent's bitset and the actions its step may have changed; greedy or f = g + weight * h.
 * The forms are constants, so each instance's loop has no branch on them. The planner's
 * counters, pools and open list live in locals here and are written back before anything
 * that may grow a pool and before it returns. The open list's entry held outside the heap
 * (push, above) is kept as its node only: its key is made from the node's g and h when it is
 * compared or written back. A node's g only falls, so that key is never above the one pushed
 * (the entry stays not above any heap entry); the node's other entries pop after it, closed. */
static SMALL_INLINE goap_status small_run(goap_planner *p, uint32_t max_expansions,
                                          uint32_t *done, uint64_t t_start, const int tabmode,
                                          const int greedy) {
  const goap__quick *Q = p->small_q;
  const uint64_t *AFF = p->small_aff, *TAB = p->small_tab;
  const uint8_t *nsh = p->small_nsh;
  const int32_t *active = p->active, *a2i = p->act2idx;
  const double *acost = p->acost;
  const double weight = p->weight;
  const uint32_t max_nodes = p->req_max_nodes;
  const uint64_t gmask = p->goal_mask[0], gval = p->goal_val[0];
  const goap__smallgoal *G = p->small_search.g;
  const int geq = G->eq;
  /* a goal of at most 2 equalities (the usual one): its h table and tests in locals, and
   * which of its 4 entries are dead ends (the node's CLOSED bit) */
  const int h2 = G->tab && p->nwant <= 2;
  const uint64_t gm0 = G->gm[0], gv0 = G->gv[0], gm1 = G->gm[1], gv1 = G->gv[1];
  float ht[4];
  uint32_t hdead[4];
  for (int k = 0; k < 4; ++k) {
    ht[k] = h2 ? G->htab[k] : 0.0f;
    hdead[k] = ht[k] == INFINITY ? CLOSED : 0u;
  }
  uint64_t budget_ns = p->max_ms > 0 ? (uint64_t)(p->max_ms * 1e6) : 0;
  uint32_t count = 0, nodes0 = p->nodes.count;
  /* one test per expansion for both the expansion count and the clock */
  uint32_t check_at = next_check(0, max_expansions, budget_ns != 0);
  uint64_t generated = 0, duplicates = 0, reopened = 0;
  goap_status st = GOAP_IN_PROGRESS;
  /* the pools in locals, loaded again after anything that may grow them */
  goap_word *S;
  double *NG;
  float *NH;
  uint32_t *NP, *NA, *tab, base, nn, grow_at;
  size_t mask;
  goap__hentry *OE = p->open.entry;
  size_t oc = p->open.count;
  int fon = p->small_search.front_on;
  uint32_t fnode = p->small_search.front.node;
#define SMALL_LOAD()                                                                          \
  do {                                                                                        \
    S = p->nodes.states;                                                                      \
    NG = p->nodes.g;                                                                          \
    NH = p->nodes.h;                                                                          \
    NP = p->nodes.parent;                                                                     \
    NA = p->nodes.action;                                                                     \
    tab = p->closed.slot;                                                                     \
    base = p->closed.idbase;                                                                  \
    mask = p->closed.cap - 1;                                                                 \
    nn = p->nodes.count;                                                                      \
    grow_at = p->nodes.grow_at;                                                               \
  } while (0)
  /* queues node m_ at g g_ and stored h h_ (push, above; the key made only when compared) */
#define SMALL_PUSH(g_, h_, m_)                                                                \
  do {                                                                                        \
    if (oc == p->open.cap) {                                                                  \
      p->open.count = oc;                                                                     \
      goap_status gs_ = goap__planner_grow(p, (void **)&p->open.entry, &p->open.cap, oc + 1,  \
                                           sizeof *OE);                                       \
      OE = p->open.entry;                                                                     \
      if (gs_ != GOAP_OK) {                                                                   \
        st = gs_;                                                                             \
        break;                                                                                \
      }                                                                                       \
    }                                                                                         \
    if (!fon && oc == 0) {                                                                    \
      fnode = (m_);                                                                           \
      fon = 1;                                                                                \
      break;                                                                                  \
    }                                                                                         \
    goap__hentry e = key_of(greedy, weight, (g_), (h_), (m_));                                \
    if (!fon) {                                                                               \
      if (hless(&e, &OE[0])) {                                                                \
        fnode = (m_);                                                                         \
        fon = 1;                                                                              \
        break;                                                                                \
      }                                                                                       \
    } else {                                                                                  \
      goap__hentry fe = key_of(greedy, weight, NG[fnode], NH[fnode], fnode);                  \
      if (hless(&e, &fe)) {                                                                   \
        fnode = (m_);                                                                         \
        e = fe;                                                                               \
      }                                                                                       \
    }                                                                                         \
    heap_put(OE, oc++, e);                                                                    \
  } while (0)
  SMALL_LOAD();
  for (;;) {
    uint32_t n;
    if (fon) {
      fon = 0;
      n = fnode;
    } else if (oc) {
      n = heap_take(OE, --oc);
    } else {
      st = GOAP_NO_PLAN;
      break;
    }
    /* a stale entry (its node was reached more cheaply since) pops after the fresh one */
    uint32_t na = NA[n];
    if (na & CLOSED) continue;
    NA[n] = na | CLOSED;
    uint64_t s = S[(size_t)n * 2];
    /* the goal (planner.c, goal_holds): the equalities are one mask test; the others are
     * tested one by one when the goal has any */
    if ((s & gmask) == gval && (geq || small_goal_rest(p, s))) {
      p->found = n;
      st = GOAP_OK;
      break;
    }
    ++count;
    /* its useful actions: from the nibble tables; or its parent's (expanded before, so
     * stored) with those the action from there may have changed checked again (at the root,
     * all of them). The action itself is not checked: its effect holds now, so it is a
     * no-op. */
    uint64_t bits;
    if (tabmode) {
      bits = useful_tab(TAB, nsh, tabmode, s);
    } else {
      uint32_t par = NP[n];
      if (par == NONE) {
        bits = useful_set(Q, p->nactive, s);
      } else {
        int32_t ai = a2i[na - 1];
        uint64_t own = (uint64_t)1 << ai, aff = AFF[ai] & ~own, now = 0;
        for (uint64_t k = aff; k; k &= k - 1) {
          int i = goap__lowest_bit(k);
          now |= useful1(&Q[i], s) << i;
        }
        bits = (S[(size_t)par * 2 + 1] & ~(aff | own)) | now;
      }
      S[(size_t)n * 2 + 1] = bits;
    }
    double g = NG[n];
    for (; bits; bits &= bits - 1) {
      int i = goap__lowest_bit(bits);
      uint64_t t = (s & ~Q[i].em) | Q[i].ev;
      int32_t a = active[i];
      double g2 = g + acost[a];
      ++generated;
      size_t j = (size_t)goap__hash_state(&t, 1) & mask;
      uint32_t m = NONE;
      for (uint32_t id; (id = tab[j] - base) < nn; j = (j + 1) & mask) {
        if (S[(size_t)id * 2] == t) {
          m = id;
          break;
        }
      }
      if (m != NONE) { /* planner.c, reached_again */
        ++duplicates;
        if (!(g2 < NG[m]) || isinf(NH[m])) continue;
        NG[m] = g2;
        NP[m] = n;
        if (NA[m] & CLOSED) ++reopened;
        NA[m] = (uint32_t)(a + 1);
        SMALL_PUSH(g2, NH[m], m);
        if (st != GOAP_IN_PROGRESS) break;
        continue;
      }
      if (nn >= max_nodes) {
        st = GOAP_NODE_LIMIT;
        break;
      }
      /* a new node (planner.c, offer and add_node); dead ends stay closed */
      float hs;
      uint32_t dead;
      if (h2) {
        unsigned k = (unsigned)((t & gm0) != gv0) | (unsigned)((t & gm1) != gv1) << 1;
        hs = ht[k];
        dead = hdead[k];
      } else {
        hs = small_h(p, G, t);
        dead = hs == INFINITY ? CLOSED : 0u; /* stored h: finite and >= 0, or INFINITY */
      }
      S[(size_t)nn * 2] = t;
      NG[nn] = g2;
      NH[nn] = hs;
      NP[nn] = n;
      NA[nn] = (uint32_t)(a + 1) | dead;
      tab[j] = base + nn;
      uint32_t m2 = nn++;
      if (nn >= grow_at) {
        p->nodes.count = nn;
        goap_status gs = goap__planner_nodes(p, (size_t)nn + 1);
        SMALL_LOAD();
        if (gs != GOAP_OK) {
          st = gs;
          break;
        }
      }
      if (dead) continue;
      SMALL_PUSH(g2, hs, m2);
      if (st != GOAP_IN_PROGRESS) break;
    }
    if (st != GOAP_IN_PROGRESS) break;
    if (count == check_at) { /* the clock every 32 expansions, then the expansion count */
      if (budget_ns && (count & 31u) == 0 &&
          p->elapsed_ns + (goap__now_ns() - t_start) >= budget_ns) {
        st = GOAP_TIME_LIMIT;
        break;
      }
      if (max_expansions && count >= max_expansions) break;
      check_at = next_check(count, max_expansions, budget_ns != 0);
    }
  }
#undef SMALL_PUSH
#undef SMALL_LOAD
  p->nodes.count = nn;
  p->open.count = oc;
  p->small_search.front_on = fon;
  if (fon) p->small_search.front = key_of(greedy, weight, NG[fnode], NH[fnode], fnode);
  p->stats.expanded += count;
  p->stats.generated += generated;
  p->stats.duplicates += duplicates;
  p->stats.reopened += reopened;
  p->stats.nodes += nn - nodes0;
  p->stats.evaluated += nn - nodes0;
  if (st == GOAP_IN_PROGRESS && budget_ns &&
      p->elapsed_ns + (goap__now_ns() - t_start) >= budget_ns)
    st = GOAP_TIME_LIMIT;
  if (done) *done = count;
  /* a whole request the micro search skipped: would it have fitted? (only a guess for the
   * next request of the goal) */
  if (p->small_search.micro_watch) p->gslots[p->gslot_current].sg.micro_big = nn > GOAP__MICRO_N;
  return st;
}

goap_status goap__small_step(goap_planner *p, uint32_t max_expansions, uint32_t *done,
                             uint64_t t_start) {
  int greedy = p->search == GOAP_SEARCH_GREEDY;
#define SMALL_RUN(nib)                                                                        \
  (greedy ? small_run(p, max_expansions, done, t_start, nib, 1)                               \
          : small_run(p, max_expansions, done, t_start, nib, 0))
  switch (p->small_nib) {
    case 1: return SMALL_RUN(1);
    case 2: return SMALL_RUN(2);
    case 3: return SMALL_RUN(3);
    case 4: return SMALL_RUN(4);
    default: return SMALL_RUN(0);
  }
#undef SMALL_RUN
}

/* ---- the micro search: whole small requests in one stack-local struct ---------------------
 *
 * The small search above once more, for a whole request (goap_plan) that needs at most
 * MICRO_N nodes: its nodes, open list and duplicate table live in one struct on the stack,
 * the open list is an array kept sorted by (f, tie, node id), the least entry last, so that
 * it pops in the heap's order (entries only tie when they are one node's; an entry is
 * inserted from the end, where a goal-directed search's new entries mostly go), the
 * duplicate table is open-addressed over node indices (by the top bits of a multiplicative
 * hash). Nodes are made in the same order with the same ids, g, h, parents and actions, and
 * counted alike, so the plan, cost, status and statistics are the small search's (the
 * duplicates are the successors that made no node: generated - nodes). When it needs more
 * nodes or open entries than it holds it gives up, touching nothing of the planner but the
 * goal's micro_big, and the small search runs the request from the start. It runs only where
 * the small search would neither grow a pool (so meet no memory budget) nor stop at a node or
 * time budget within MICRO_N nodes. It leaves the found plan, its length and cost in
 * small_search.micro_plan, micro_len and micro_cost for goap__planner_finish, and no node in
 * the pools (their count stays 0, so no closed-table id is live and the next request starts
 * as after any other). After it ran out of room for a goal, that goal's whole requests go to
 * the small search until one of them stores at most MICRO_N nodes (micro_big).
 *
 * Two forms: a goal of at most 4 equalities (the small goal's tab) in a domain with nibble
 * tables takes micro_tab, where a state's unmet conditions are the union of per-nibble tables
 * (goap__microgoal, cached in the goal's slot; the goal's bits outside the nibbles never
 * change, so they are tested once, on the start) and the goal holds where none is unmet;
 * every other goal takes micro_run. The cost is the found node's g when no closed node was
 * reopened (its path's steps were then added in order from 0, as finish adds them), else it
 * is summed along the plan. */

#define MICRO_N GOAP__MICRO_N       /* nodes */
#define MICRO_OPEN (2u * MICRO_N)   /* open-list entries */
#define MICRO_SLOTS (2u * MICRO_N)  /* duplicate table slots (a power of 2) */
#define MICRO_SBITS 6u              /* log2(MICRO_SLOTS) */
#define MICRO_EMPTY 0xffu

/* The duplicate table's slot of state t. */
static SMALL_INLINE size_t micro_hash(uint64_t t) {
  return (size_t)((t * 0x9e3779b97f4a7c15ull) >> (64u - MICRO_SBITS));
}

typedef struct micro {
  uint64_t s[MICRO_N], use[MICRO_N]; /* state; its useful actions (when expanded) */
  double g[MICRO_N];
  float h[MICRO_N];
  uint32_t act[MICRO_N]; /* action + 1, | CLOSED */
  uint8_t par[MICRO_N];  /* MICRO_EMPTY at the root */
  uint8_t slot[MICRO_SLOTS];
  goap__hentry open[MICRO_OPEN]; /* sorted: the least (f, tie, node id) last */
} micro;

/* Inserts e into the sorted open list of *oc entries. */
static SMALL_INLINE void micro_put(goap__hentry *o, uint32_t *oc, goap__hentry e) {
  uint32_t i = (*oc)++;
  for (; i > 0 && hless(&o[i - 1], &e); --i) o[i] = o[i - 1];
  o[i] = e;
}

/* Runs the search; returns 1 with *out the status (GOAP_OK: m->par gives the path to node
 * *found) or 0 when it ran out of room. */
static SMALL_INLINE int micro_run(const goap_planner *p, micro *m, uint32_t cap,
                                  goap_status *out, uint32_t *found, goap_stats *stats,
                                  const int tabmode, const int greedy) {
  const goap__quick *Q = p->small_q;
  const uint64_t *AFF = p->small_aff, *TAB = p->small_tab;
  const uint8_t *nsh = p->small_nsh;
  const int32_t *active = p->active, *a2i = p->act2idx;
  const double *acost = p->acost;
  const double weight = p->weight;
  const uint64_t gmask = p->goal_mask[0], gval = p->goal_val[0];
  const goap__smallgoal *G = p->small_search.g;
  const int geq = G->eq;
  memset(m->slot, MICRO_EMPTY, sizeof m->slot);
  uint64_t s0 = p->start[0];
  float h0 = small_h(p, G, s0);
  m->s[0] = s0;
  m->g[0] = 0.0;
  m->h[0] = h0;
  m->par[0] = MICRO_EMPTY;
  m->act[0] = isinf(h0) ? CLOSED : 0u;
  m->slot[micro_hash(s0)] = 0;
  uint32_t nn = 1, oc = 0, count = 0;
  uint64_t generated = 1, reopened = 0;
  if (!isinf(h0)) m->open[oc++] = key_of(greedy, weight, 0.0, h0, 0);
  goap_status st;
  for (;;) {
    if (!oc) {
      st = GOAP_NO_PLAN;
      break;
    }
    uint32_t n = m->open[--oc].node;
    uint32_t na = m->act[n];
    if (na & CLOSED) continue;
    m->act[n] = na | CLOSED;
    uint64_t s = m->s[n];
    if ((s & gmask) == gval && (geq || small_goal_rest(p, s))) {
      *found = n;
      st = GOAP_OK;
      break;
    }
    ++count;
    uint64_t bits;
    if (tabmode) {
      bits = useful_tab(TAB, nsh, tabmode, s);
    } else {
      uint32_t par = m->par[n];
      if (par == MICRO_EMPTY) {
        bits = useful_set(Q, p->nactive, s);
      } else {
        uint64_t aff = AFF[a2i[na - 1]], now = 0;
        for (uint64_t k = aff; k; k &= k - 1)
          now |= useful1(&Q[goap__lowest_bit(k)], s) << goap__lowest_bit(k);
        bits = (m->use[par] & ~aff) | now;
      }
      m->use[n] = bits;
    }
    double g = m->g[n];
    for (; bits; bits &= bits - 1) {
      int i = goap__lowest_bit(bits);
      uint64_t t = (s & ~Q[i].em) | Q[i].ev;
      int32_t a = active[i];
      double g2 = g + acost[a];
      ++generated;
      size_t j = micro_hash(t);
      unsigned id;
      while ((id = m->slot[j]) != MICRO_EMPTY && m->s[id] != t) j = (j + 1) & (MICRO_SLOTS - 1);
      if (id != MICRO_EMPTY) { /* planner.c, reached_again */
        if (!(g2 < m->g[id]) || isinf(m->h[id])) continue;
        m->g[id] = g2;
        m->par[id] = (uint8_t)n;
        if (m->act[id] & CLOSED) ++reopened;
        m->act[id] = (uint32_t)(a + 1);
        if (oc == MICRO_OPEN) return 0;
        micro_put(m->open, &oc, key_of(greedy, weight, g2, m->h[id], id));
        continue;
      }
      if (nn >= cap) return 0;
      float hs = small_h(p, G, t);
      int dead = hs == INFINITY;
      m->s[nn] = t;
      m->g[nn] = g2;
      m->h[nn] = hs;
      m->par[nn] = (uint8_t)n;
      m->act[nn] = (uint32_t)(a + 1) | (dead ? CLOSED : 0u);
      m->slot[j] = (uint8_t)nn;
      uint32_t m2 = nn++;
      if (dead) continue;
      if (oc == MICRO_OPEN) return 0;
      micro_put(m->open, &oc, key_of(greedy, weight, g2, hs, m2));
    }
  }
  stats->expanded += count;
  stats->generated += generated;
  stats->duplicates += generated - nn;
  stats->reopened += reopened;
  stats->nodes += nn;
  stats->evaluated += nn;
  *out = st;
  return 1;
}

/* micro_tab's nodes: the action is its active index (MT_IDX) with MT_DEAD for a dead end
 * and CLOSED; the unmet conditions k (the goal holds at 0; h is the goal's htab[k]); the
 * depth (the plan's length at the found node). */
#define MT_IDX 0x3fu
#define MT_DEAD 0x40u
#define MT_CLOSED 0x80u

typedef struct micro_t {
  uint64_t s[MICRO_N];
  double g[MICRO_N];
  uint8_t act[MICRO_N], k[MICRO_N], par[MICRO_N], dep[MICRO_N];
  uint8_t slot[MICRO_SLOTS];
  goap__hentry open[MICRO_OPEN]; /* sorted: the least (f, tie, node id) last */
} micro_t;

/* The micro goal of slot goal g (small form G, with tab) for the planner's nibbles. */
static SMALL_COLD void micro_goal(const goap_planner *p, const goap__smallgoal *G,
                                  goap__microgoal *mg) {
  mg->serial = G->serial;
  mg->heur = G->heur;
  mg->dead = 0;
  for (unsigned k = 0; k < 16; ++k)
    if (isinf(G->htab[k])) mg->dead |= (uint16_t)(1u << k);
  uint64_t in = 0;
  for (int j = 0; j < p->small_nib; ++j) in |= (uint64_t)15 << p->small_nsh[j];
  mg->out = 0;
  for (int i = 0; i < p->nwant; ++i) mg->out |= G->gm[i] & ~in;
  memset(mg->un, 0, sizeof mg->un);
  for (int j = 0; j < p->small_nib; ++j) {
    unsigned sh = p->small_nsh[j];
    for (unsigned v = 0; v < 16; ++v) {
      unsigned u = 0;
      for (int i = 0; i < p->nwant; ++i) {
        unsigned cm = (unsigned)(G->gm[i] >> sh) & 15u, cv = (unsigned)(G->gv[i] >> sh) & 15u;
        u |= (unsigned)((v & cm) != cv) << i;
      }
      mg->un[j][v] = (uint8_t)u;
    }
  }
}

/* The unmet conditions of state t, k0 those outside the nibbles. */
static SMALL_INLINE unsigned micro_unmet(const goap__microgoal *mg, const uint8_t *nsh,
                                         int nib, unsigned k0, uint64_t t) {
  unsigned k = k0;
  for (int j = 0; j < nib; ++j) k |= mg->un[j][(unsigned)(t >> nsh[j]) & 15u];
  return k;
}

/* micro_run for a tab goal with nibble tables (nib of them). */
static SMALL_INLINE int micro_tab(const goap_planner *p, micro_t *m, uint32_t cap,
                                  goap_status *out, uint32_t *found, goap_stats *stats,
                                  const goap__microgoal *mg, const int nib, const int greedy) {
  const goap__quick *Q = p->small_q;
  const uint64_t *TAB = p->small_tab;
  const uint8_t *nsh = p->small_nsh;
  const int32_t *active = p->active;
  const double *acost = p->acost;
  const double weight = p->weight;
  const float *htab = p->small_search.g->htab;
  const unsigned dead = mg->dead;
  memset(m->slot, MICRO_EMPTY, sizeof m->slot);
  uint64_t s0 = p->start[0];
  unsigned k0 = 0;
  if (mg->out) { /* the goal's bits outside the nibbles: as in the start, throughout */
    const goap__smallgoal *G = p->small_search.g;
    for (int i = 0; i < p->nwant; ++i)
      k0 |= (unsigned)((s0 & G->gm[i] & mg->out) != (G->gv[i] & mg->out)) << i;
  }
  unsigned kr = micro_unmet(mg, nsh, nib, k0, s0);
  m->s[0] = s0;
  m->g[0] = 0.0;
  m->k[0] = (uint8_t)kr;
  m->par[0] = MICRO_EMPTY;
  m->dep[0] = 0;
  m->slot[micro_hash(s0)] = 0;
  uint32_t nn = 1, oc = 0, count = 0;
  uint64_t generated = 1, reopened = 0;
  if ((dead >> kr) & 1u) {
    m->act[0] = MT_DEAD | MT_CLOSED;
  } else {
    m->act[0] = 0;
    m->open[oc++] = key_of(greedy, weight, 0.0, htab[kr], 0);
  }
  goap_status st = GOAP_NO_PLAN;
  while (oc) {
    uint32_t n = m->open[--oc].node;
    unsigned na = m->act[n];
    if (na & MT_CLOSED) continue;
    m->act[n] = (uint8_t)(na | MT_CLOSED);
    if (!m->k[n]) {
      *found = n;
      st = GOAP_OK;
      break;
    }
    ++count;
    uint64_t s = m->s[n];
    uint64_t bits = useful_tab(TAB, nsh, nib, s);
    double g = m->g[n];
    unsigned dep = m->dep[n] + 1u;
    for (; bits; bits &= bits - 1) {
      int i = goap__lowest_bit(bits);
      uint64_t t = (s & ~Q[i].em) | Q[i].ev;
      double g2 = g + acost[active[i]];
      ++generated;
      size_t j = micro_hash(t);
      unsigned id;
      while ((id = m->slot[j]) != MICRO_EMPTY && m->s[id] != t) j = (j + 1) & (MICRO_SLOTS - 1);
      if (id != MICRO_EMPTY) { /* planner.c, reached_again */
        unsigned ia = m->act[id];
        if (!(g2 < m->g[id]) || (ia & MT_DEAD)) continue;
        m->g[id] = g2;
        m->par[id] = (uint8_t)n;
        m->dep[id] = (uint8_t)dep;
        reopened += ia >> 7; /* MT_CLOSED */
        m->act[id] = (uint8_t)i;
        if (oc == MICRO_OPEN) return 0;
        micro_put(m->open, &oc, key_of(greedy, weight, g2, htab[m->k[id]], id));
        continue;
      }
      if (nn >= cap) return 0;
      unsigned k = micro_unmet(mg, nsh, nib, k0, t);
      m->s[nn] = t;
      m->g[nn] = g2;
      m->k[nn] = (uint8_t)k;
      m->par[nn] = (uint8_t)n;
      m->dep[nn] = (uint8_t)dep;
      m->slot[j] = (uint8_t)nn;
      uint32_t m2 = nn++;
      if ((dead >> k) & 1u) { /* dead ends stay closed */
        m->act[m2] = (uint8_t)((unsigned)i | MT_DEAD | MT_CLOSED);
        continue;
      }
      m->act[m2] = (uint8_t)i;
      if (oc == MICRO_OPEN) return 0;
      micro_put(m->open, &oc, key_of(greedy, weight, g2, htab[k], m2));
    }
  }
  stats->expanded += count;
  stats->generated += generated;
  stats->duplicates += generated - nn;
  stats->reopened += reopened;
  stats->nodes += nn;
  stats->evaluated += nn;
  *out = st;
  return 1;
}

/* The state small_start leaves, with no node stored. */
static SMALL_INLINE void micro_leave(goap_planner *p) {
  goap__small *ss = &p->small_search;
  ss->micro_done = 1;
  p->nodes.count = 0;
  p->open.count = 0;
  p->open_pref.count = 0;
  ss->front_on = 0;
  p->found = p->best = NONE;
  p->key = p->W;
  p->useful_words = 1;
}

/* The plan's cost, summed from the start (goap__planner_finish's order). */
static double micro_sum(const goap_planner *p, int len) {
  double c = 0.0;
  for (int i = 0; i < len; ++i) c += p->acost[p->small_search.micro_plan[i]];
  return c;
}

int goap__micro_plan(goap_planner *p, goap_status *st) {
  goap__small *ss = &p->small_search;
  uint32_t cap = ss->micro_cap && ss->micro_cap < MICRO_N ? ss->micro_cap : MICRO_N;
  ss->micro_done = ss->micro_fell = 0;
  /* where the small search would grow a pool, stop at a budget or not search at all */
  if (ss->micro_never || p->goal_never || p->max_ms > 0 || p->stride != 2 ||
      p->nodes.grow_at <= cap || p->open.cap < MICRO_OPEN || p->req_max_nodes <= cap) {
    *st = goap__small_start(p);
    return 0;
  }
  goap__gslot *slot = &p->gslots[p->gslot_current];
  goap__smallgoal *G = &slot->sg;
  if (G->serial != p->goal_serial || G->heur != (int)p->heur) make_goal(p, G);
  if (G->micro_big) {
    ss->micro_watch = 1;
    *st = goap__small_start(p);
    return 0;
  }
  ss->g = G;
  uint32_t found = NONE;
  int greedy = p->search == GOAP_SEARCH_GREEDY, fits;
  if (G->tab && p->small_nib) {
    goap__microgoal *mg = &slot->mg;
    if (mg->serial != G->serial || mg->heur != G->heur) micro_goal(p, G, mg);
    micro_t m;
#define MICRO_TAB(nib)                                                                        \
  (greedy ? micro_tab(p, &m, cap, st, &found, &p->stats, mg, nib, 1)                          \
          : micro_tab(p, &m, cap, st, &found, &p->stats, mg, nib, 0))
    switch (p->small_nib) {
      case 1: fits = MICRO_TAB(1); break;
      case 2: fits = MICRO_TAB(2); break;
      case 3: fits = MICRO_TAB(3); break;
      default: fits = MICRO_TAB(4); break;
    }
#undef MICRO_TAB
    if (fits) {
      micro_leave(p);
      ss->micro_len = 0;
      ss->micro_cost = 0.0;
      if (*st == GOAP_OK) { /* the plan, written once from its end */
        int len = m.dep[found];
        ss->micro_len = len;
        for (uint32_t n = found; len > 0; n = m.par[n])
          ss->micro_plan[--len] = p->active[m.act[n] & MT_IDX];
        ss->micro_cost = p->stats.reopened ? micro_sum(p, ss->micro_len) : m.g[found];
      }
      return 1;
    }
  } else {
    micro m;
#define MICRO_RUN(nib)                                                                        \
  (greedy ? micro_run(p, &m, cap, st, &found, &p->stats, nib, 1)                              \
          : micro_run(p, &m, cap, st, &found, &p->stats, nib, 0))
    switch (p->small_nib) {
      case 1: fits = MICRO_RUN(1); break;
      case 2: fits = MICRO_RUN(2); break;
      case 3: fits = MICRO_RUN(3); break;
      case 4: fits = MICRO_RUN(4); break;
      default: fits = MICRO_RUN(0); break;
    }
#undef MICRO_RUN
    if (fits) {
      micro_leave(p);
      ss->micro_len = 0;
      ss->micro_cost = 0.0;
      if (*st == GOAP_OK) { /* the plan, for goap__planner_finish */
        int len = 0;
        for (uint32_t n = found; m.par[n] != MICRO_EMPTY; n = m.par[n]) ++len;
        ss->micro_len = len;
        for (uint32_t n = found; m.par[n] != MICRO_EMPTY; n = m.par[n])
          ss->micro_plan[--len] = (int32_t)(m.act[n] & ~CLOSED) - 1;
        ss->micro_cost = p->stats.reopened ? micro_sum(p, ss->micro_len) : m.g[found];
      }
      return 1;
    }
  }
  G->micro_big = !ss->micro_cap;
  ss->micro_fell = 1;
  *st = goap__small_start(p);
  return 0;
}
