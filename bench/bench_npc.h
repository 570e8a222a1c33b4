/*
 * bench_npc.h -- goap_bench's game-like cases over examples/npc_40.goap (a keep guard, 40
 * actions, int and enum variables), included by bench.c after its `prepared` type.
 *
 *  - npc_40: the file's 10 scenarios (8 goals, 10 starts) round-robin on one planner.
 *  - npc_40_callbacks: the same domain rebuilt through the builder with callbacks: every walk
 *    and sprint has a dynamic cost (the distance from where the guard stands, in the host, to
 *    the place), spot_intruder and shoot_arrow a procedural check (a line of sight on a grid
 *    from the wall walk to the intruder). Each request has its own host (10 positions).
 *  - npc_40_cbconst: the same callbacks returning the file's cost and 1: the plans, costs and
 *    expansions of npc_40, so its extra time over npc_40 is the callbacks' overhead.
 *  - npc_40_positional: every walk and sprint has a positional cost instead
 *    (goap_builder_set_state_cost): 0.5 plus the distance from the place the search state is
 *    at (`loc`) to the destination, over the speed -- each leg priced from where the plan
 *    stands. No checks.
 *  - npc_40_posconst: the same state costs returning the file's cost (min_cost too): the
 *    plans and costs of npc_40, so its extra time over npc_40 is what positional costs cost
 *    (the calls, and the search modes they turn off: small mode, relevance pruning).
 *
 * Optimal costs come from npc_ucs(): a uniform-cost search over the public state API
 * (goap_action_applicable / goap_action_apply), every action, no pruning, no heuristic, and
 * callbacks evaluated the planner's way (once per request, from the request's host). For
 * npc_40 it is also checked against each scenario's `expect cost`.
 */
#ifndef GOAP_BENCH_NPC_H
#define GOAP_BENCH_NPC_H

#include <goap/agent.h>
#include <goap/file.h>

#ifndef GOAP_EXAMPLES_DIR
#define GOAP_EXAMPLES_DIR "examples"
#endif

#define NPC_PLACES 8 /* barracks, armory, kitchen, well, yard, infirmary, gate, wall */

typedef struct npc_host {
  double x, y;   /* where the guard stands (metres) */
  double ix, iy; /* where the intruder is */
  int constant;  /* 1: the callbacks return the file's cost and 1 */
  long calls;    /* callbacks called */
} npc_host;

static const goap_domain *npc_pos_dom; /* variants 3, 4: the domain their state costs read */
static int npc_pos_loc = -1;           /* its `loc` variable */

typedef struct npc_cb {
  int kind;      /* 0: walk to `place` (speed `speed` m per cost unit), 1: line of sight */
  int place;
  double speed;
  double cost;   /* the file's cost */
} npc_cb;

static const double npc_xy[NPC_PLACES][2] = {{2, 2},  {6, 2},   {10, 2}, {14, 4},
                                             {8, 8},  {2, 10},  {8, 15}, {14, 14}};

/* The keep's walls for the line of sight: '#' blocks. The wall walk is at (14, 14). */
static const char *const npc_map[16] = {
    "################", "#..............#", "#..............#", "#....####......#",
    "#..............#", "#..............#", "#.......##.....#", "#.......##.....#",
    "#..............#", "#...#..........#", "#...#..........#", "#...#.....###..#",
    "#..............#", "#..............#", "#..............#", "################"};

static double npc_cost(void *host, int action, void *user) {
  npc_host *h = (npc_host *)host;
  const npc_cb *cb = (const npc_cb *)user;
  ++h->calls;
  if (h->constant) return cb->cost;
  double dx = npc_xy[cb->place][0] - h->x, dy = npc_xy[cb->place][1] - h->y;
  (void)action;
  return 0.5 + sqrt(dx * dx + dy * dy) / cb->speed;
}

/* Line of sight from the wall walk to the intruder: unit steps along the segment. */
static int npc_check(void *host, int action, void *user) {
  npc_host *h = (npc_host *)host;
  (void)action;
  (void)user;
  ++h->calls;
  if (h->constant) return 1;
  double x0 = npc_xy[7][0] + 0.5, y0 = npc_xy[7][1] + 0.5 - 1.0;
  double dx = h->ix - x0, dy = h->iy - y0;
  int n = (int)(2.0 * (fabs(dx) > fabs(dy) ? fabs(dx) : fabs(dy))) + 1;
  for (int i = 1; i < n; ++i) {
    double t = (double)i / n;
    int cx = (int)(x0 + t * dx), cy = (int)(y0 + t * dy);
    if (cx < 0 || cy < 0 || cx > 15 || cy > 15) return 0;
    if (npc_map[cy][cx] == '#') return 0;
  }
  return 1;
}

/* Positional cost (variants 3, 4): from the place the state says the guard is. */
static double npc_state_cost(void *host, int action, const goap_word *state, void *user) {
  npc_host *h = (npc_host *)host;
  const npc_cb *cb = (const npc_cb *)user;
  (void)action;
  ++h->calls;
  if (h->constant) return cb->cost;
  int from = (int)goap_state_get(npc_pos_dom, state, npc_pos_loc);
  double dx = npc_xy[cb->place][0] - npc_xy[from][0], dy = npc_xy[cb->place][1] - npc_xy[from][1];
  return sqrt(dx * dx + dy * dy) / cb->speed;
}

static goap_file *npc_file;
static npc_cb npc_cbs[64];
static npc_host npc_hosts[MAX_REQ];

static const goap_domain *npc_load(void) {
  if (npc_file) return goap_file_domain(npc_file);
  goap_error diag;
  if (goap_file_load(GOAP_EXAMPLES_DIR "/npc_40.goap", NULL, &npc_file, &diag) != GOAP_OK) {
    char buf[512];
    goap_error_format(&diag, buf, sizeof buf);
    fprintf(stderr, "goap_bench: %s\n", buf);
    return NULL;
  }
  return goap_file_domain(npc_file);
}

/* The file's domain again, through the builder, with the callbacks above (variant 1, 2) or
 * the positional costs (3: distances, 4: the file's costs). */
static goap_domain *npc_with_callbacks(const goap_domain *src, int variant) {
  goap_builder *b = NULL;
  if (goap_builder_create(NULL, &b) != GOAP_OK) return NULL;
  for (int v = 0; v < goap_domain_var_count(src); ++v) {
    goap_var_info vi;
    goap_domain_var_info(src, v, &vi);
    const char *names[64];
    goap_var_desc vd;
    memset(&vd, 0, sizeof vd);
    vd.name = vi.name;
    vd.type = vi.type;
    vd.lo = vi.lo;
    vd.hi = vi.hi;
    if (vi.type == GOAP_ENUM) {
      for (int k = 0; k < vi.value_count && k < 64; ++k)
        names[k] = goap_domain_value_name(src, v, k);
      vd.values = names;
      vd.value_count = vi.value_count;
    }
    vd.has_default = 1;
    vd.default_value = vi.default_value;
    vd.flags = vi.flags;
    if (goap_builder_add_var(b, &vd, NULL) != GOAP_OK) goto fail;
  }
  for (int a = 0; a < goap_domain_action_count(src) && a < 64; ++a) {
    goap_action_desc ad;
    memset(&ad, 0, sizeof ad);
    ad.name = goap_domain_action_name(src, a);
    ad.cost = goap_domain_action_cost(src, a);
    ad.pre = goap_domain_action_pre(src, a, &ad.pre_count);
    ad.eff = goap_domain_action_eff(src, a, &ad.eff_count);
    npc_cb *cb = &npc_cbs[a];
    cb->cost = ad.cost;
    int walk = strncmp(ad.name, "go_", 3) == 0, sprint = strncmp(ad.name, "sprint_to_", 10) == 0;
    if (walk || sprint) {
      const char *place = ad.name + (walk ? 3 : 10);
      static const char *const places[NPC_PLACES] = {"barracks", "armory", "kitchen", "well",
                                                     "yard", "infirmary", "gate", "wall"};
      cb->place = -1;
      for (int k = 0; k < NPC_PLACES; ++k)
        if (strcmp(place, places[k]) == 0) cb->place = k;
      if (cb->place < 0) goto fail;
      cb->kind = 0;
      cb->speed = walk ? 5.0 : 10.0;
      if (variant < 3) {
        ad.dynamic_cost = npc_cost;
        ad.user = cb;
      }
    } else if (variant >= 3) {
      /* no checks */
    } else if (strcmp(ad.name, "spot_intruder") == 0 || strcmp(ad.name, "shoot_arrow") == 0) {
      cb->kind = 1;
      ad.check = npc_check;
      ad.user = cb;
    }
    int pos = variant >= 3 && (walk || sprint);
    if (pos) ad.cost = variant == 3 ? 0.5 : 0.0;
    int id = -1;
    if (goap_builder_add_action(b, &ad, &id) != GOAP_OK) goto fail;
    if (pos && goap_builder_set_state_cost(b, id, npc_state_cost, cb,
                                           variant == 4 ? cb->cost : 0.0, 0) != GOAP_OK)
      goto fail;
  }
  goap_domain *d = NULL;
  if (goap_builder_build(b, &d) != GOAP_OK) goto fail;
  goap_builder_destroy(b);
  if (variant >= 3) {
    npc_pos_dom = d;
    npc_pos_loc = goap_domain_find_var(d, "loc");
  }
  return d;
fail:
  fprintf(stderr, "goap_bench: npc_40 with callbacks: %s\n", goap_builder_error(b)->message);
  goap_builder_destroy(b);
  return NULL;
}

/* ---- the independent optimum: uniform-cost search over the public state API ---- */
typedef struct ucs_item {
  double g;
  uint32_t id;
} ucs_item;

typedef struct ucs {
  size_t W, n, cap, tcap;
  goap_word *states; /* n * W */
  double *g;
  uint32_t *table;   /* ids + 1; 0: free */
  ucs_item *heap;
  size_t nheap, cheap;
} ucs;

static uint32_t ucs_find(ucs *u, const goap_word *s, int add) {
  uint64_t h = 1469598103934665603ull;
  for (size_t k = 0; k < u->W; ++k) h = (h ^ s[k]) * 1099511628211ull;
  size_t i = (size_t)(h ^ (h >> 31)) & (u->tcap - 1);
  for (;; i = (i + 1) & (u->tcap - 1)) {
    uint32_t id = u->table[i];
    if (!id) break;
    if (memcmp(u->states + (size_t)(id - 1) * u->W, s, u->W * sizeof *s) == 0) return id - 1;
  }
  if (!add) return UINT32_MAX;
  if (u->n == u->cap) {
    u->cap *= 2;
    u->states = (goap_word *)xrealloc(u->states, u->cap * u->W * sizeof *u->states);
    u->g = (double *)xrealloc(u->g, u->cap * sizeof *u->g);
  }
  memcpy(u->states + u->n * u->W, s, u->W * sizeof *s);
  u->g[u->n] = INFINITY;
  u->table[i] = (uint32_t)++u->n;
  if (2 * u->n > u->tcap) { /* rehash */
    size_t nc = u->tcap * 2;
    uint32_t *t = (uint32_t *)xrealloc(NULL, nc * sizeof *t);
    memset(t, 0, nc * sizeof *t);
    for (size_t id = 0; id < u->n; ++id) {
      const goap_word *x = u->states + id * u->W;
      uint64_t hh = 1469598103934665603ull;
      for (size_t k = 0; k < u->W; ++k) hh = (hh ^ x[k]) * 1099511628211ull;
      size_t j = (size_t)(hh ^ (hh >> 31)) & (nc - 1);
      while (t[j]) j = (j + 1) & (nc - 1);
      t[j] = (uint32_t)(id + 1);
    }
    free(u->table);
    u->table = t;
    u->tcap = nc;
  }
  return (uint32_t)(u->n - 1);
}

static void ucs_push(ucs *u, double g, uint32_t id) {
  if (u->nheap == u->cheap) {
    u->cheap *= 2;
    u->heap = (ucs_item *)xrealloc(u->heap, u->cheap * sizeof *u->heap);
  }
  size_t i = u->nheap++;
  while (i > 0 && u->heap[(i - 1) / 2].g > g) {
    u->heap[i] = u->heap[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  u->heap[i] = (ucs_item){g, id};
}

static ucs_item ucs_pop(ucs *u) {
  ucs_item top = u->heap[0], last = u->heap[--u->nheap];
  size_t i = 0;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= u->nheap) break;
    if (c + 1 < u->nheap && u->heap[c + 1].g < u->heap[c].g) ++c;
    if (last.g <= u->heap[c].g) break;
    u->heap[i] = u->heap[c];
    i = c;
  }
  if (u->nheap) u->heap[i] = last;
  return top;
}

/* The cheapest cost from start to want in d (INFINITY: none). host: the callbacks' host.
 * Each action's cost and check are taken once, as the planner does per request; a positional
 * cost is added per state. */
static double npc_ucs(const goap_domain *d, const goap_word *start, const goap_cond *want,
                      int nwant, void *host) {
  int A = goap_domain_action_count(d);
  double *cost = (double *)xrealloc(NULL, (size_t)A * sizeof *cost);
  for (int a = 0; a < A; ++a) {
    cost[a] = goap_domain_action_cost(d, a);
    if (a < 64 && host && npc_cbs[a].kind == 0 && !goap_domain_action_state_cost(d, a, NULL, NULL, NULL, NULL) && (strncmp(goap_domain_action_name(d, a), "go_", 3) == 0 ||
                                       strncmp(goap_domain_action_name(d, a), "sprint_to_", 10) == 0))
      cost[a] = npc_cost(host, a, &npc_cbs[a]);
    if (a < 64 && host && npc_cbs[a].kind == 1 && !npc_check(host, a, &npc_cbs[a]))
      cost[a] = -1.0;
  }
  ucs u;
  memset(&u, 0, sizeof u);
  u.W = goap_domain_state_words(d);
  u.cap = 1024;
  u.tcap = 4096;
  u.cheap = 1024;
  u.states = (goap_word *)xrealloc(NULL, u.cap * u.W * sizeof *u.states);
  u.g = (double *)xrealloc(NULL, u.cap * sizeof *u.g);
  u.table = (uint32_t *)xrealloc(NULL, u.tcap * sizeof *u.table);
  memset(u.table, 0, u.tcap * sizeof *u.table);
  u.heap = (ucs_item *)xrealloc(NULL, u.cheap * sizeof *u.heap);
  goap_word s[8], t[8];
  double best = INFINITY;
  uint32_t id0 = ucs_find(&u, start, 1);
  u.g[id0] = 0.0;
  ucs_push(&u, 0.0, id0);
  while (u.nheap) {
    ucs_item it = ucs_pop(&u);
    if (it.g > u.g[it.id]) continue;
    memcpy(s, u.states + (size_t)it.id * u.W, u.W * sizeof *s);
    if (goap_state_satisfies(d, s, want, nwant)) {
      best = it.g;
      break;
    }
    for (int a = 0; a < A; ++a) {
      if (cost[a] < 0.0 || !goap_action_applicable(d, s, a)) continue;
      double c = cost[a];
      goap_state_cost_fn fn;
      void *su;
      double mc;
      if (goap_domain_action_state_cost(d, a, &fn, &su, &mc, NULL)) { /* priced from s */
        double e = fn(host, a, s, su);
        if (!(e >= 0.0)) continue;
        c += e > mc ? e : mc;
      }
      memcpy(t, s, u.W * sizeof *t);
      if (goap_action_apply(d, t, a) != GOAP_OK) continue;
      uint32_t id = ucs_find(&u, t, 1);
      double g = it.g + c;
      if (g < u.g[id]) {
        u.g[id] = g;
        ucs_push(&u, g, id);
      }
    }
  }
  free(cost);
  free(u.states);
  free(u.g);
  free(u.table);
  free(u.heap);
  return best;
}

/* variant 0: npc_40; 1: npc_40_callbacks; 2: npc_40_cbconst; 3: npc_40_positional;
 * 4: npc_40_posconst. */
static int npc_prepare(int variant, prepared *p) {
  memset(p, 0, sizeof *p);
  const goap_domain *fd = npc_load();
  if (!fd) return 0;
  p->cdom = fd;
  if (variant) {
    p->dom = npc_with_callbacks(fd, variant);
    if (!p->dom) return 0;
    p->cdom = p->dom;
  }
  const goap_domain *d = p->cdom;
  p->W = goap_domain_state_words(d);
  int ns = goap_file_scenario_count(npc_file);
  p->wcap = 8;
  p->start = (goap_word *)xrealloc(NULL, (size_t)ns * p->W * sizeof *p->start);
  p->want = (goap_cond *)xrealloc(NULL, (size_t)ns * (size_t)p->wcap * sizeof *p->want);
  p->nreq = 0;
  for (int i = 0; i < ns && p->nreq < MAX_REQ; ++i) {
    const goap_scenario *sc = goap_file_scenario(npc_file, i);
    if (sc->task >= 0 || sc->want_count > p->wcap) continue;
    int r = p->nreq++;
    goap_word *st = p->start + (size_t)r * p->W;
    goap_state_init(d, st);
    if (goap_state_assign(d, st, sc->given, sc->given_count) != GOAP_OK) return 0;
    memcpy(p->want + (size_t)r * (size_t)p->wcap, sc->want,
           (size_t)sc->want_count * sizeof *sc->want);
    p->nwant[r] = sc->want_count;
    if (variant) {
      npc_host *h = &npc_hosts[r];
      memset(h, 0, sizeof *h);
      h->constant = variant == 2 || variant == 4;
      h->x = 1.0 + (double)((r * 5) % 14);
      h->y = 1.0 + (double)((r * 3) % 14);
      h->ix = 1.0 + (double)((r * 7 + 4) % 14);
      h->iy = 1.0 + (double)((r * 11 + 2) % 14);
      p->host[r] = h;
    }
    p->opt[r] = npc_ucs(d, st, sc->want, sc->want_count, p->host[r]);
    if (variant != 1 && variant != 3 && (sc->expect & GOAP_EXPECT_COST) &&
        fabs(p->opt[r] - sc->expect_cost) > 1e-9) {
      fprintf(stderr, "goap_bench: npc_40 scenario %s: expect cost %g, uniform-cost search %g\n",
              sc->name, sc->expect_cost, p->opt[r]);
      exit(2);
    }
  }
  return p->nreq > 0;
}

/* Callback calls per plan of a prepared npc case (0 without callbacks). */
static long npc_calls(const prepared *p) {
  long n = 0;
  for (int r = 0; r < p->nreq; ++r)
    if (p->host[r]) n += ((npc_host *)p->host[r])->calls;
  return n;
}

static void npc_reset_calls(const prepared *p) {
  for (int r = 0; r < p->nreq; ++r)
    if (p->host[r]) ((npc_host *)p->host[r])->calls = 0;
}


/* ---- npc_40_agents_1000: a crowd of keep guards with distinct memories ---- */

#define NPC_AGENTS 1000

typedef struct npc_crowd_result {
  double ns_per_agent;   /* median frame time / agents */
  double ns_min, ns_max;
  double hit_rate[2];    /* the plan cache's hits / lookups in the first and second frame */
  uint64_t lookups[2];
  uint64_t expanded;     /* over the first frame */
  double cost;           /* sum of the first frame's plan costs */
  int planned;           /* agents with a plan after the first frame */
  int checked, optimal;  /* sampled agents checked against npc_ucs, and found optimal */
  int frames;
} npc_crowd_result;

/* Agent i remembers scenario i % S's start with gold, water, food and herbs varied: 1,000
 * distinct memories (S * 6 * 3 * 4 * 4 >= 2,880 combinations). All agents share one plan cache
 * (1,024 plans) and one planner. A frame asks every agent to replan and updates it once; the
 * first frame plans from the distinct memories (the cache's real hit rate: plans shared only
 * where memories and goals meet), the second from where the agents stand after it. Frames
 * 3.. repeat the first frame's memories (the agents are created again) and are timed. */
static int npc_crowd(int frames, npc_crowd_result *out) {
  const goap_domain *d = npc_load();
  if (!d) return 0;
  memset(out, 0, sizeof *out);
  size_t W = goap_domain_state_words(d);
  int S = 0;
  static goap_word mem[NPC_AGENTS][4];
  const goap_scenario *sc[32];
  for (int i = 0; i < goap_file_scenario_count(npc_file) && S < 32; ++i)
    if (goap_file_scenario(npc_file, i)->task < 0) sc[S++] = goap_file_scenario(npc_file, i);
  int vg = goap_domain_find_var(d, "gold"), vw = goap_domain_find_var(d, "water"),
      vf = goap_domain_find_var(d, "food"), vh = goap_domain_find_var(d, "herbs");
  if (S == 0 || W > 4 || vg < 0 || vw < 0 || vf < 0 || vh < 0) return 0;
  for (int i = 0; i < NPC_AGENTS; ++i) {
    const goap_scenario *s = sc[i % S];
    int k = i / S;
    goap_state_init(d, mem[i]);
    if (goap_state_assign(d, mem[i], s->given, s->given_count) != GOAP_OK) return 0;
    goap_state_set(d, mem[i], vg, k % 6);
    goap_state_set(d, mem[i], vw, (k / 6) % 3);
    goap_state_set(d, mem[i], vf, (k / 18) % 4);
    goap_state_set(d, mem[i], vh, (k / 72) % 4);
  }
  goap_agent_type_desc td;
  memset(&td, 0, sizeof td);
  td.name = "guard";
  goap_agent_type *t = NULL;
  if (goap_agent_type_create(d, &td, &t, NULL) != GOAP_OK) return 0;
  static goap_agent *ag[NPC_AGENTS];
  double times[64];
  int nt = 0;
  for (int f = 0; f < frames + 2 && nt < 64; ++f) {
    if (f == 0 || f >= 2) { /* fresh agents, fresh cache, the distinct memories */
      goap_plan_cache *cache = NULL;
      goap_plan_cache_create(NULL, 1024, &cache);
      goap_planner *shared = NULL;
      goap_planner_create(d, NULL, &shared);
      if (!cache || !shared) return 0;
      for (int i = 0; i < NPC_AGENTS; ++i) {
        goap_agent_desc ad;
        memset(&ad, 0, sizeof ad);
        ad.type = t;
        ad.memory = mem[i];
        ad.cache = cache;
        ad.planner = shared;
        if (goap_agent_create(&ad, &ag[i], NULL) != GOAP_OK) return 0;
      }
      double t0 = bench_now_ns();
      for (int i = 0; i < NPC_AGENTS; ++i) {
        goap_agent_replan(ag[i]);
        (void)goap_agent_update(ag[i], 0.05);
      }
      double t1 = bench_now_ns();
      goap_plan_cache_stats cs = goap_plan_cache_get_stats(cache);
      if (f == 0) {
        out->hit_rate[0] = (double)cs.hits / (double)(cs.hits + cs.misses ? cs.hits + cs.misses : 1);
        out->lookups[0] = cs.hits + cs.misses;
        for (int i = 0; i < NPC_AGENTS; ++i) {
          int len = 0, step = 0;
          out->expanded += goap_agent_get_stats(ag[i]).expanded;
          if (goap_agent_plan(ag[i], &len, &step) && goap_agent_goal(ag[i]) >= 0) {
            ++out->planned;
            out->cost += goap_agent_plan_cost(ag[i]);
          }
        }
        /* every 50th agent's plan against the uniform-cost search */
        for (int i = 0; i < NPC_AGENTS; i += 50) {
          int g = goap_agent_goal(ag[i]), len = 0, step = 0, nw = 0;
          if (g < 0 || !goap_agent_plan(ag[i], &len, &step)) continue;
          const goap_cond *want = goap_domain_goal_want(d, g, &nw);
          double opt = npc_ucs(d, mem[i], want, nw, NULL);
          ++out->checked;
          out->optimal += fabs(opt - goap_agent_plan_cost(ag[i])) <= 1e-9;
        }
        /* frame 2: the same agents and cache, from where they stand now */
        uint64_t h0 = cs.hits, m0 = cs.misses;
        for (int i = 0; i < NPC_AGENTS; ++i) {
          goap_agent_replan(ag[i]);
          (void)goap_agent_update(ag[i], 0.05);
        }
        cs = goap_plan_cache_get_stats(cache);
        uint64_t h = cs.hits - h0, m = cs.misses - m0;
        out->hit_rate[1] = (double)h / (double)(h + m ? h + m : 1);
        out->lookups[1] = h + m;
      } else {
        times[nt++] = (t1 - t0) / NPC_AGENTS;
      }
      for (int i = 0; i < NPC_AGENTS; ++i) goap_agent_destroy(ag[i]);
      goap_planner_destroy(shared);
      goap_plan_cache_destroy(cache);
    }
  }
  goap_agent_type_destroy(t);
  out->frames = nt;
  if (nt) {
    out->ns_per_agent = bench_median(times, nt);
    out->ns_min = times[0];
    out->ns_max = times[nt - 1];
  }
  return 1;
}

#endif /* GOAP_BENCH_NPC_H */
