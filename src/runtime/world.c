/*
 * world.c -- goap_world: many agents updated per frame under one planning budget, in lanes.
 *
 * Invariants:
 *  - m[0..n) are the agents in the order they were added; a lane's `all` lists its members'
 *    indices in that order, rebuilt (the only allocation of a frame) after add or remove.
 *  - A frame hands out the budget on the calling thread before any lane runs, and a lane only
 *    touches its own agents, planners and pool: the results do not depend on the threads.
 *  - A planner of a lane is busy exactly while leased to one member whose sliced search runs
 *    on it (goap__agent_world_searching_on), or during that member's update; planners are
 *    never freed before the world, so lease indices stay valid.
 *  - No library allocation happens in a frame unless a lane list, a planner or a planner's
 *    pool has to grow (warm-up).
 */
#include <math.h>
#include <string.h>

#include "runtime.h"
#include <goap/world.h>

/* Under a common budget, the fewest expansions a search is assumed to need: the budget reaches
 * at most budget / MIN_SEARCH agents a frame (ordering more would be wasted work). */
#define MIN_SEARCH 8
/* Under a common budget, what beginning a search costs, in expansions: the planner's setup,
 * the plan's reconstruction and the cache store take about as long as this many expansions
 * (bench --world --trace, fitted on a loaded machine: 10-30 us a search against 1-3 us an
 * expansion), and a frame where many searches begin was otherwise that much over its budget. */
#define START_COST 8

typedef struct member {
  goap_agent *a;
  double prio;
  int lane;
  int wants;                     /* this frame: needs to select or plan (while listed: 3 among
                                    the first in precedence, 2 not reached by the budget) */
  int lease;                     /* index into its lane's planners; -1: none */
  uint32_t wait;                 /* frames it has waited to plan */
  goap_status st;
} member;

typedef struct wplanner {
  const goap_domain *d;
  goap_planner *p;
  int busy;
} wplanner;

typedef struct lane {
  uint32_t *all, *want;          /* member indices: in order added; wanting, by precedence */
  size_t nall, call, nwant, cwant;
  wplanner *pl;
  size_t npl, cpl;
  uint64_t pool;                 /* expansions this frame */
  uint64_t used;
  uint64_t charged;              /* used, and `start` per search begun (common budget) */
  goap_status st;                /* the first failure of this frame */
  struct goap_world *w;          /* for the lease callback */
  member *cur;                   /* the member being updated */
} lane;

struct goap_world {
  goap_allocator alloc;
  member *m;
  size_t n, cap;
  lane *lanes;
  int nlanes;
  uint32_t *order;               /* wanting members, sorted by precedence */
  size_t corder;
  goap_world_parallel_fn parallel;
  void *puser;
  uint64_t seed, added;
  int no_jitter, dirty, limited;
  uint32_t initial_nodes, share;
  uint64_t start;                /* this frame: what beginning a search costs (common budget) */
  uint32_t pace;                 /* goap_world_set_pacing: percent of `spent`; 0: off */
  uint64_t spent;                /* mean expansions per budgeted frame (EWMA, 1/256 units;
                                    from the budget of the first budgeted frame) */
  int budgeted;                  /* a frame ran under a common budget: `spent` is set */
  double dt;
  goap_world_stats st;
};

goap_status goap_world_create(const goap_world_desc *desc, goap_world **out) {
  if (out) *out = NULL;
  goap_world_desc x;
  memset(&x, 0, sizeof x);
  if (desc) x = *desc;
  if (!out || x.lanes < 0 || x.lanes > 1024) return GOAP_INVALID_ARGUMENT;
  goap_allocator a = goap__rt_resolve(&x.allocator);
  goap_world *w = (goap_world *)goap__rt_alloc(&a, sizeof *w);
  if (!w) return GOAP_OUT_OF_MEMORY;
  w->alloc = a;
  w->nlanes = x.lanes ? x.lanes : 1;
  w->lanes = (lane *)goap__rt_alloc(&a, (size_t)w->nlanes * sizeof *w->lanes);
  if (!w->lanes) {
    goap__rt_free(&a, w, sizeof *w);
    return GOAP_OUT_OF_MEMORY;
  }
  for (int k = 0; k < w->nlanes; ++k) w->lanes[k].w = w;
  w->parallel = x.parallel;
  w->puser = x.parallel_user;
  w->seed = x.seed;
  w->no_jitter = x.no_jitter;
  w->initial_nodes = x.initial_nodes;
  w->share = x.agent_share ? x.agent_share : 512;
  *out = w;
  return GOAP_OK;
}

void goap_world_destroy(goap_world *w) {
  if (!w) return;
  goap_allocator a = w->alloc;
  for (size_t i = 0; i < w->n; ++i) goap__agent_world_leave(w->m[i].a);
  for (int k = 0; k < w->nlanes; ++k) {
    lane *l = &w->lanes[k];
    for (size_t j = 0; j < l->npl; ++j) goap_planner_destroy(l->pl[j].p);
    goap__rt_free(&a, l->pl, l->cpl * sizeof *l->pl);
    goap__rt_free(&a, l->all, l->call * sizeof *l->all);
    goap__rt_free(&a, l->want, l->cwant * sizeof *l->want);
  }
  goap__rt_free(&a, w->lanes, (size_t)w->nlanes * sizeof *w->lanes);
  goap__rt_free(&a, w->m, w->cap * sizeof *w->m);
  goap__rt_free(&a, w->order, w->corder * sizeof *w->order);
  goap__rt_free(&a, w, sizeof *w);
}

static long find_member(const goap_world *w, const goap_agent *a) {
  for (size_t i = 0; i < w->n; ++i)
    if (w->m[i].a == a) return (long)i;
  return -1;
}

/* splitmix64 of x: a well-mixed 64-bit value. */
static uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* The phase in [0, 1) of the k-th agent added: an offset from the seed plus k times the
 * golden ratio (mod 1). Unlike independent random phases (whose counts per frame scatter by
 * about their square root), any n consecutive agents split an interval's frames nearly
 * evenly (three-gap theorem): a timer fires for about n / frames agents each frame. Computed
 * in 64-bit fixed point, so the phases are exact and identical on every machine. */
static double phase_of(uint64_t seed, uint64_t k) {
  uint64_t z = mix64(seed + 0x9e3779b97f4a7c15ull) + k * 0x9e3779b97f4a7c15ull;
  return (double)(z >> 11) * (1.0 / 9007199254740992.0);
}

goap_status goap_world_add(goap_world *w, goap_agent *agent, int lane_index, double priority) {
  if (!w || !agent || lane_index < 0 || lane_index >= w->nlanes || !(priority == priority))
    return GOAP_INVALID_ARGUMENT;
  if (find_member(w, agent) >= 0) return GOAP_DUPLICATE;
  if (goap__agent_in_world(agent)) return GOAP_INVALID_OPERATION; /* in another world */
  goap_blackboard *bb = goap__agent_world_blackboard(agent);
  goap_plan_cache *c = goap__agent_world_cache(agent);
  for (size_t i = 0; i < w->n && (bb || c); ++i) {
    if (w->m[i].lane == lane_index) continue;
    if ((bb && goap__agent_world_blackboard(w->m[i].a) == bb) ||
        (c && goap__agent_world_cache(w->m[i].a) == c))
      return GOAP_INVALID_ARGUMENT; /* shared state must stay on one thread */
  }
  if (w->n >= 0x7fffffff ||
      !goap__grow_zero(&w->alloc, (void **)&w->m, &w->cap, w->n + 1, sizeof *w->m))
    return GOAP_OUT_OF_MEMORY;
  member *m = &w->m[w->n++];
  memset(m, 0, sizeof *m);
  m->a = agent;
  m->prio = priority;
  m->lane = lane_index;
  m->lease = -1;
  goap__agent_world_join(agent, w->no_jitter ? -1.0 : phase_of(w->seed, w->added));
  w->added++;
  w->dirty = 1;
  return GOAP_OK;
}

goap_status goap_world_remove(goap_world *w, goap_agent *agent) {
  if (!w || !agent) return GOAP_INVALID_ARGUMENT;
  long i = find_member(w, agent);
  if (i < 0) return GOAP_NOT_FOUND;
  member *m = &w->m[i];
  if (m->lease >= 0) w->lanes[m->lane].pl[m->lease].busy = 0;
  goap__agent_world_leave(agent);
  memmove(w->m + i, w->m + i + 1, (w->n - (size_t)i - 1) * sizeof *w->m);
  w->n--;
  w->dirty = 1;
  return GOAP_OK;
}

goap_status goap_world_set_priority(goap_world *w, goap_agent *agent, double priority) {
  if (!w || !agent || !(priority == priority)) return GOAP_INVALID_ARGUMENT;
  long i = find_member(w, agent);
  if (i < 0) return GOAP_NOT_FOUND;
  w->m[i].prio = priority;
  return GOAP_OK;
}

goap_status goap_world_set_pacing(goap_world *w, uint32_t percent) {
  if (!w || (percent != 0 && (percent < 100 || percent > 10000))) return GOAP_INVALID_ARGUMENT;
  w->pace = percent;
  return GOAP_OK;
}

/* A frame's allowance under a common budget of `budget` expansions: the budget, or with
 * pacing, pace% of the recent mean spending, at least budget / PACE_FLOOR. */
#define PACE_FLOOR 8
#define PACE_EWMA 64 /* the mean's weight: 1/64 per frame (about a second at 60 Hz) */
static uint64_t allowance(const goap_world *w, uint64_t budget) {
  if (!w->pace || !w->budgeted) return budget;
  uint64_t lim = (w->spent / 256) * w->pace / 100 + 1;
  uint64_t lo = (budget + PACE_FLOOR - 1) / PACE_FLOOR;
  if (lim < lo) lim = lo;
  return lim < budget ? lim : budget;
}

int goap_world_agent_count(const goap_world *w) { return w ? (int)w->n : 0; }

goap_world_stats goap_world_get_stats(const goap_world *w) {
  goap_world_stats s;
  memset(&s, 0, sizeof s);
  if (w) s = w->st;
  return s;
}

/* Lane lists after add / remove (the only allocation of a frame). */
static int rebuild(goap_world *w) {
  for (int k = 0; k < w->nlanes; ++k) w->lanes[k].nall = 0;
  for (size_t i = 0; i < w->n; ++i) {
    lane *l = &w->lanes[w->m[i].lane];
    if (!goap__grow_zero(&w->alloc, (void **)&l->all, &l->call, l->nall + 1, sizeof *l->all) ||
        !goap__grow_zero(&w->alloc, (void **)&l->want, &l->cwant, l->nall + 1, sizeof *l->want))
      return 0;
    l->all[l->nall++] = (uint32_t)i;
  }
  if (w->n && !goap__grow_zero(&w->alloc, (void **)&w->order, &w->corder, w->n, sizeof *w->order))
    return 0;
  w->dirty = 0;
  return 1;
}

/* Precedence: priority (higher first), frames waited (longer first), order added. */
static int before(const goap_world *w, uint32_t x, uint32_t y) {
  const member *a = &w->m[x], *b = &w->m[y];
  if (a->prio != b->prio) return a->prio > b->prio;
  if (a->wait != b->wait) return a->wait > b->wait;
  return x < y;
}

/* A heap of member indices with the first in precedence at the root (no allocation, unlike
 * some qsort implementations). */
static void sift(const goap_world *w, uint32_t *v, size_t root, size_t n) {
  for (;;) {
    size_t c = 2 * root + 1;
    if (c >= n) return;
    if (c + 1 < n && before(w, v[c + 1], v[c])) c++; /* the earlier of the two children */
    if (!before(w, v[c], v[root])) return;
    uint32_t t = v[root];
    v[root] = v[c];
    v[c] = t;
    root = c;
  }
}

/* Moves the first k of v[0..n) in precedence order to v[n-k..n), last first: v[n-1] is the
 * first. O(n + k log n): only the agents the budget reaches are ordered. */
static void select_first(const goap_world *w, uint32_t *v, size_t n, size_t k) {
  /* a heap whose root is the first in precedence ("before" reversed) */
  for (size_t i = n / 2; i-- > 0;) sift(w, v, i, n);
  GOAP_ASSERT(n < 2 || (!before(w, v[1], v[0]) && (n < 3 || !before(w, v[2], v[0]))));
  for (size_t end = n; end-- > 1 && n - end <= k;) {
    uint32_t t = v[0];
    v[0] = v[end];
    v[end] = t;
    sift(w, v, 0, end);
  }
}

/* What one agent may spend in a frame under a common budget. */
static uint64_t share_of(const goap_world *w, const member *m) {
  uint32_t b = goap_agent_get_type(m->a)->budget;
  return b < w->share ? b : w->share;
}

static void note(lane *l, goap_status st) {
  if ((st == GOAP_OUT_OF_MEMORY || st == GOAP_INVALID_ARGUMENT) && l->st == GOAP_OK) l->st = st;
}

/* A free planner of the lane for domain d (created when none is), marked busy; -1 when out of
 * memory. */
static int lease_planner(goap_world *w, lane *l, const goap_domain *d) {
  for (size_t j = 0; j < l->npl; ++j)
    if (!l->pl[j].busy && l->pl[j].d == d) {
      l->pl[j].busy = 1;
      return (int)j;
    }
  if (!goap__grow_zero(&w->alloc, (void **)&l->pl, &l->cpl, l->npl + 1, sizeof *l->pl)) return -1;
  goap_planner_desc pd;
  memset(&pd, 0, sizeof pd);
  pd.allocator = w->alloc;
  pd.initial_nodes = w->initial_nodes;
  goap_planner *p;
  if (goap_planner_create(d, &pd, &p) != GOAP_OK) return -1;
  l->pl[l->npl].d = d;
  l->pl[l->npl].p = p;
  l->pl[l->npl].busy = 1;
  return (int)l->npl++;
}

/* The agent being updated begins a search: a planner of its lane for its domain. */
static goap_planner *lease_cb(void *ctx, goap_agent *a) {
  lane *l = (lane *)ctx;
  member *m = l->cur;
  if (m->lease >= 0) l->pl[m->lease].busy = 0; /* cannot happen: a held planner is reused */
  m->lease = lease_planner(l->w, l, goap_agent_get_type(a)->d);
  return m->lease >= 0 ? l->pl[m->lease].p : NULL;
}

/* Phase 1 of lane k: the first half of every member's update, and the second half at once
 * for those that do not need to plan (their action), while the agent is in cache. */
static void job_begin(void *ctx, int k) {
  goap_world *w = (goap_world *)ctx;
  lane *l = &w->lanes[k];
  l->st = GOAP_OK;
  l->used = 0;
  l->charged = 0;
  for (size_t j = 0; j < l->nall; ++j) {
    member *m = &w->m[l->all[j]];
    note(l, goap__agent_world_begin(m->a, w->dt, &m->wants));
    if (m->wants) continue;
    uint64_t used = 0;
    uint32_t begun = 0;
    l->cur = m;
    note(l, goap__agent_world_end(m->a, w->dt, 0, NULL, lease_cb, l, &used, &begun));
    l->used += used;
    l->charged += used; /* with no budget given, no search begins here */
    (void)begun;
  }
}

/* Phase 3 of lane k: the members that need to plan do (by precedence, from the lane's pool),
 * then run their action. */
static void job_end(void *ctx, int k) {
  goap_world *w = (goap_world *)ctx;
  lane *l = &w->lanes[k];
  uint64_t pool = l->pool;
  for (size_t j = 0; j < l->nwant; ++j) {
    member *m = &w->m[l->want[j]];
    /* the first in precedence: their share, and what those before them in the lane left;
     * the others (2: not reached by the budget) only look in the plan cache */
    uint64_t cap = m->wants == 2   ? 0
                   : w->limited ? share_of(w, m)
                                : goap_agent_get_type(m->a)->budget;
    m->wants = 1;
    if (m->lease >= 0 && !goap__agent_world_searching_on(m->a, l->pl[m->lease].p)) {
      l->pl[m->lease].busy = 0; /* its search ended or was dropped */
      m->lease = -1;
    }
    /* a search to begin must leave its cost in the pool */
    uint64_t avail = pool;
    if (w->limited && m->lease < 0) avail = pool > w->start ? pool - w->start : 0;
    uint32_t b = (uint32_t)(avail < cap ? avail : cap);
    uint64_t used = 0;
    uint32_t begun = 0;
    l->cur = m;
    goap_planner *held = m->lease >= 0 ? l->pl[m->lease].p : NULL;
    goap_status st = goap__agent_world_end(m->a, w->dt, b, held, lease_cb, l, &used, &begun);
    note(l, st);
    /* under a common budget, beginning a search costs `start` too */
    uint64_t cost = used + (w->limited ? begun * w->start : 0);
    pool -= cost < pool ? cost : pool;
    l->used += used;
    l->charged += cost;
    if (m->lease >= 0 && !goap__agent_world_searching_on(m->a, l->pl[m->lease].p)) {
      l->pl[m->lease].busy = 0;
      m->lease = -1;
    }
    m->wait = st == GOAP_IN_PROGRESS ? m->wait + 1 : 0;
  }
}

static void run_lanes(goap_world *w, goap_world_job_fn job) {
  if (w->parallel && w->nlanes > 1) {
    w->parallel(w->puser, job, w, w->nlanes);
    return;
  }
  for (int k = 0; k < w->nlanes; ++k) job(w, k);
}

goap_status goap_world_update(goap_world *w, double dt, uint64_t expansions) {
  if (!w || !(dt >= 0) || !isfinite(dt)) return GOAP_INVALID_ARGUMENT;
  if (w->dirty && !rebuild(w)) return GOAP_OUT_OF_MEMORY;
  w->dt = dt;
  run_lanes(w, job_begin);
  /* hand out the budget: precedence across all lanes */
  size_t nw = 0;
  int max_wait = 0;
  for (size_t i = 0; i < w->n; ++i) {
    if (!w->m[i].wants) continue;
    w->order[nw++] = (uint32_t)i;
    if ((int)w->m[i].wait > max_wait) max_wait = (int)w->m[i].wait;
  }
  for (int k = 0; k < w->nlanes; ++k) {
    w->lanes[k].pool = 0;
    w->lanes[k].nwant = 0;
  }
  int served = 0;
  w->limited = expansions != 0;
  if (expansions == 0) { /* no common limit: everyone its type's budget, in the order added */
    for (size_t j = 0; j < nw; ++j) {
      member *m = &w->m[w->order[j]];
      lane *l = &w->lanes[m->lane];
      l->pool += goap_agent_get_type(m->a)->budget;
      l->want[l->nwant++] = w->order[j];
    }
    served = (int)nw;
  } else {
    /* the budget reaches the first k in precedence (a search costs MIN_SEARCH expansions at
     * least, and `start` to begin: START_COST, at most a quarter of the allowance); it is
     * split evenly between them into their lanes' pools, where each, in
     * precedence order, takes up to its share; the others only look in the plan cache */
    uint64_t left = allowance(w, expansions);
    w->start = left / 4 < START_COST ? left / 4 : START_COST;
    size_t k = (size_t)((left + MIN_SEARCH - 1) / MIN_SEARCH);
    if (k > nw) k = nw;
    select_first(w, w->order, nw, k);
    for (size_t j = 0; j < k; ++j) {
      uint32_t idx = w->order[nw - 1 - j];
      member *m = &w->m[idx];
      lane *l = &w->lanes[m->lane];
      uint64_t even = (left + (k - j) - 1) / (k - j);
      uint64_t q = share_of(w, m);
      if (q > even) q = even;
      left -= q;
      l->pool += q;
      served += q > 0;
      m->wants = 3; /* listed */
      l->want[l->nwant++] = idx;
    }
    for (int kk = 0; kk < w->nlanes; ++kk) { /* then the others, in the order added */
      lane *l = &w->lanes[kk];
      for (size_t j = 0; j < l->nall; ++j) {
        member *m = &w->m[l->all[j]];
        if (m->wants == 1) {
          m->wants = 2;
          l->want[l->nwant++] = l->all[j];
        }
      }
    }
  }
  run_lanes(w, job_end);
  goap_status st = GOAP_OK;
  uint64_t used = 0, charged = 0;
  int planners = 0, leased = 0;
  for (int k = 0; k < w->nlanes; ++k) {
    lane *l = &w->lanes[k];
    if (st == GOAP_OK) st = l->st;
    used += l->used;
    charged += l->charged;
    planners += (int)l->npl;
    for (size_t j = 0; j < l->npl; ++j) leased += l->pl[j].busy;
  }
  if (expansions) { /* the mean spending of budgeted frames, for pacing */
    if (!w->budgeted) w->spent = expansions * 256; /* down from the budget, not up from 0 */
    w->budgeted = 1;
    w->spent = w->spent - w->spent / PACE_EWMA +
               (charged < expansions ? charged : expansions) * 256 / PACE_EWMA;
  }
  w->st.frames++;
  w->st.expansions = used;
  w->st.wanting = (int)nw;
  w->st.served = served;
  w->st.max_wait = max_wait;
  w->st.planners = planners;
  w->st.leased = leased;
  return st;
}
