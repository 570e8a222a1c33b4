/*
 * test_state_cost.c -- positional costs (goap_builder_set_state_cost): a step is priced from
 * the state the plan stands in at that step.
 * Hand-checked cases (the river and the village, the builder's checks, the refusals of
 * backward and orbit search, GOAP_REQUEST_NO_CALLBACKS with pure and host callbacks,
 * goap_plan_validate, no allocation after warm-up), then an oracle: random small domains whose
 * actions carry state costs, solved by an exhaustive Dijkstra over explicit states written here
 * from the header's semantics alone. Every optimal forward configuration (A* with each
 * admissible heuristic, eager and lazy, bitset and successor-index generation, with and
 * without pruning) must return exactly the optimal cost; the satisficing ones (weighted A*,
 * greedy, preferred operators) a valid plan whose reported cost is its cost re-priced by the
 * reference. GOAP_PROPERTY_CASES=N changes the number of random cases (default 3000).
 */
#include <goap/goap.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc_hook.h"
#include "test.h"
#include "test_rng.h"
/* internals: the successor-index mode is forced through p->sx_force */
#include "core/planner.h"

/* ------------------------------------------------------------------------------------------
 * The river and the village
 * ---------------------------------------------------------------------------------------- */
static const double pos_xy[3][2] = {{0, 0}, {10, 0}, {10, 5}}; /* camp, river, village */

typedef struct walk_host {
  const goap_domain *d;
  int at;           /* the location variable */
  int target[8];    /* per action: the location it walks to, -1 none */
  int asked[8][3];  /* per action and location the step was priced from: calls */
  int host_seen;    /* calls that got this host */
} walk_host;

static double walk_cost(void *host, int action, const goap_word *state, void *user) {
  walk_host *w = (walk_host *)user;
  if (host == w) w->host_seen++;
  int from = (int)goap_state_get(w->d, state, w->at);
  int to = w->target[action];
  w->asked[action][from]++;
  double dx = pos_xy[to][0] - pos_xy[from][0], dy = pos_xy[to][1] - pos_xy[from][1];
  return sqrt(dx * dx + dy * dy);
}

/* at: camp, river, village; water: bool. go_river, go_village (state costs), fetch_water. */
static goap_domain *walk_domain(walk_host *w, unsigned flags) {
  static const char *const places[] = {"camp", "river", "village"};
  goap_builder *b = NULL;
  goap_builder_create(NULL, &b);
  goap_var_desc v;
  memset(&v, 0, sizeof v);
  v.name = "at";
  v.type = GOAP_ENUM;
  v.values = places;
  v.value_count = 3;
  int at = -1, water = -1;
  goap_builder_add_var(b, &v, &at);
  memset(&v, 0, sizeof v);
  v.name = "water";
  v.type = GOAP_BOOL;
  goap_builder_add_var(b, &v, &water);
  goap_effect e_river = {at, GOAP_SET, 1}, e_village = {at, GOAP_SET, 2}, e_water = {water, GOAP_SET, 1};
  goap_cond at_river = {at, GOAP_EQ, 1};
  goap_action_desc a;
  memset(&a, 0, sizeof a);
  a.name = "go_river";
  a.eff = &e_river;
  a.eff_count = 1;
  int id = -1;
  goap_builder_add_action(b, &a, &id);
  goap_builder_set_state_cost(b, id, walk_cost, w, 0.0, flags);
  a.name = "go_village";
  a.eff = &e_village;
  goap_builder_add_action(b, &a, &id);
  goap_builder_set_state_cost(b, id, walk_cost, w, 0.0, flags);
  memset(&a, 0, sizeof a);
  a.name = "fetch_water";
  a.cost = 1;
  a.pre = &at_river;
  a.pre_count = 1;
  a.eff = &e_water;
  a.eff_count = 1;
  goap_builder_add_action(b, &a, NULL);
  goap_domain *d = NULL;
  goap_status st = goap_builder_build(b, &d);
  goap_builder_destroy(b);
  if (st != GOAP_OK) return NULL;
  memset(w, 0, sizeof *w);
  w->d = d;
  w->at = at;
  for (int i = 0; i < 8; ++i) w->target[i] = -1;
  w->target[0] = 1;
  w->target[1] = 2;
  return d;
}

TEST(second_leg_is_priced_from_where_the_plan_stands) {
  walk_host w;
  goap_domain *d = walk_domain(&w, 0);
  REQUIRE(d);
  goap_planner *p = NULL;
  REQUIRE(goap_planner_create(d, NULL, &p) == GOAP_OK);
  goap_cond want[2] = {{goap_domain_find_var(d, "water"), GOAP_EQ, 1},
                       {goap_domain_find_var(d, "at"), GOAP_EQ, 2}};
  const goap_search searches[] = {GOAP_SEARCH_ASTAR, GOAP_SEARCH_WASTAR, GOAP_SEARCH_GREEDY};
  const goap_heuristic heur[] = {GOAP_H_DEFAULT, GOAP_H_LMCUT, GOAP_H_FF};
  for (int k = 0; k < 3; ++k) {
    memset(w.asked, 0, sizeof w.asked);
    w.host_seen = 0;
    goap_request r;
    memset(&r, 0, sizeof r);
    r.want = want;
    r.want_count = 2;
    r.search = searches[k];
    r.heuristic = heur[k];
    r.host = &w;
    int32_t plan[8];
    goap_result res;
    memset(&res, 0, sizeof res);
    res.plan = plan;
    res.plan_capacity = 8;
    REQUIRE(goap_plan(p, &r, &res) == GOAP_OK);
    CHECK_EQ_INT(res.plan_length, 3);
    CHECK_EQ_INT(plan[0], 0);
    CHECK_EQ_INT(plan[1], 2);
    CHECK_EQ_INT(plan[2], 1);
    /* camp -> river 10, fetch 1, river -> village 5 (from the camp it would be 11.18) */
    CHECK_NEAR(res.cost, 16.0, 1e-12);
    CHECK(w.asked[1][1] > 0); /* go_village was priced from the river */
    CHECK(w.asked[0][0] > 0); /* go_river from the camp */
    CHECK(w.host_seen > 0);
  }
  goap_planner_destroy(p);
  goap_domain_destroy(d);
}

TEST(builder_checks_the_positional_fields) {
  goap_builder *b = NULL;
  REQUIRE(goap_builder_create(NULL, &b) == GOAP_OK);
  goap_var_desc v;
  memset(&v, 0, sizeof v);
  v.name = "x";
  v.type = GOAP_BOOL;
  int x = -1;
  goap_builder_add_var(b, &v, &x);
  goap_effect e = {x, GOAP_SET, 1};
  goap_action_desc a;
  memset(&a, 0, sizeof a);
  a.name = "act";
  a.eff = &e;
  a.eff_count = 1;
  int id = -1, id2 = -1;
  REQUIRE(goap_builder_add_action(b, &a, &id) == GOAP_OK);
  a.name = "act2";
  REQUIRE(goap_builder_add_action(b, &a, &id2) == GOAP_OK);
  int marker = 0;
  CHECK_EQ_INT(goap_builder_set_state_cost(b, id2, walk_cost, &marker, -1.0, 0), GOAP_OUT_OF_RANGE);
  CHECK_STR(goap_builder_error(b)->message, "action 'act2': min_cost must be a finite number >= 0");
  CHECK_EQ_INT(goap_builder_set_state_cost(b, id2, walk_cost, &marker, (double)NAN, 0),
               GOAP_OUT_OF_RANGE);
  CHECK_EQ_INT(goap_builder_set_state_cost(b, id2, walk_cost, &marker, (double)INFINITY, 0),
               GOAP_OUT_OF_RANGE);
  CHECK_EQ_INT(goap_builder_set_state_cost(b, id2, walk_cost, &marker, 0.0, 0x4u),
               GOAP_INVALID_ARGUMENT);
  CHECK_STR(goap_builder_error(b)->message, "action 'act2': unknown state cost flags 0x4");
  CHECK_EQ_INT(goap_builder_set_state_cost(b, id2, NULL, NULL, 2.0, 0), GOAP_INVALID_ARGUMENT);
  CHECK_STR(goap_builder_error(b)->message,
            "action 'act2': min_cost and flags need a state cost callback");
  CHECK_EQ_INT(goap_builder_set_state_cost(b, 2, walk_cost, NULL, 0.0, 0), GOAP_INVALID_ARGUMENT);
  CHECK_STR(goap_builder_error(b)->message, "no action with id 2");
  CHECK_EQ_INT(goap_builder_set_state_cost(b, -1, walk_cost, NULL, 0.0, 0), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_builder_set_state_cost(NULL, 0, walk_cost, NULL, 0.0, 0), GOAP_INVALID_ARGUMENT);
  /* set, then removed again on act; set on act2 */
  CHECK_EQ_INT(goap_builder_set_state_cost(b, id, walk_cost, NULL, 1.0, 0), GOAP_OK);
  CHECK_EQ_INT(goap_builder_set_state_cost(b, id, NULL, NULL, 0.0, 0), GOAP_OK);
  CHECK_EQ_INT(goap_builder_set_state_cost(b, id2, walk_cost, &marker, 1.5, GOAP_STATE_COST_PURE),
               GOAP_OK);
  CHECK_STR(goap_builder_error(b)->message, "");
  goap_domain *d = NULL;
  REQUIRE(goap_builder_build(b, &d) == GOAP_OK);
  goap_state_cost_fn fn = walk_cost;
  void *user = &marker;
  double mc = -1;
  unsigned fl = 9;
  CHECK_EQ_INT(goap_domain_action_state_cost(d, id, &fn, &user, &mc, &fl), 0);
  CHECK(fn == NULL && user == NULL && mc == 0.0 && fl == 0);
  CHECK_EQ_INT(goap_domain_action_state_cost(d, id2, &fn, &user, &mc, &fl), 1);
  CHECK(fn == walk_cost && user == &marker && mc == 1.5 && fl == GOAP_STATE_COST_PURE);
  CHECK_EQ_INT(goap_domain_action_state_cost(d, 7, &fn, NULL, NULL, NULL), 0);
  CHECK(fn == NULL);
  CHECK_EQ_INT(goap_domain_action_state_cost(NULL, 0, NULL, NULL, NULL, NULL), 0);
  goap_domain_destroy(d);
  goap_builder_destroy(b);
}

TEST(backward_and_orbit_search_refuse_called_state_costs) {
  walk_host w;
  goap_domain *d = walk_domain(&w, 0);
  REQUIRE(d);
  goap_planner *p = NULL;
  REQUIRE(goap_planner_create(d, NULL, &p) == GOAP_OK);
  goap_cond want = {goap_domain_find_var(d, "water"), GOAP_EQ, 1};
  goap_request r;
  memset(&r, 0, sizeof r);
  r.want = &want;
  r.want_count = 1;
  r.search = GOAP_SEARCH_BACKWARD;
  r.host = &w;
  int32_t plan[8];
  goap_result res;
  memset(&res, 0, sizeof res);
  res.plan = plan;
  res.plan_capacity = 8;
  CHECK_EQ_INT(goap_plan(p, &r, &res), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_plan_begin(p, &r), GOAP_INVALID_ARGUMENT);
  /* with NO_CALLBACKS a host (not pure) state cost is not called: backward may run */
  double costs[3] = {0, 0, 1};
  r.costs = costs;
  r.flags = GOAP_REQUEST_NO_CALLBACKS;
  CHECK_EQ_INT(goap_plan(p, &r, &res), GOAP_OK);
  /* orbit search: any symmetry is refused before its shape is even looked at */
  int32_t vars[2] = {0, 1};
  goap_symmetry_class cls = {2, 1, 0, vars, NULL};
  goap_symmetry sym = {1, &cls, 0, NULL};
  r.search = GOAP_SEARCH_ASTAR;
  r.flags = 0;
  r.costs = NULL;
  r.symmetry = &sym;
  CHECK_EQ_INT(goap_plan(p, &r, &res), GOAP_INVALID_ARGUMENT);
  goap_planner_destroy(p);
  goap_domain_destroy(d);
  /* a pure one is part of the domain: called even with NO_CALLBACKS, so backward refuses */
  d = walk_domain(&w, GOAP_STATE_COST_PURE);
  REQUIRE(d);
  REQUIRE(goap_planner_create(d, NULL, &p) == GOAP_OK);
  r.symmetry = NULL;
  r.search = GOAP_SEARCH_BACKWARD;
  r.costs = costs;
  r.flags = GOAP_REQUEST_NO_CALLBACKS;
  CHECK_EQ_INT(goap_plan(p, &r, &res), GOAP_INVALID_ARGUMENT);
  goap_planner_destroy(p);
  goap_domain_destroy(d);
}

TEST(no_callbacks_prices_host_state_costs_at_their_bound) {
  for (int pure = 0; pure < 2; ++pure) {
    walk_host w;
    goap_domain *d = walk_domain(&w, pure ? GOAP_STATE_COST_PURE : 0);
    REQUIRE(d);
    goap_planner *p = NULL;
    REQUIRE(goap_planner_create(d, NULL, &p) == GOAP_OK);
    goap_cond want[2] = {{goap_domain_find_var(d, "water"), GOAP_EQ, 1},
                         {goap_domain_find_var(d, "at"), GOAP_EQ, 2}};
    double costs[3] = {2, 3, 1};
    goap_request r;
    memset(&r, 0, sizeof r);
    r.want = want;
    r.want_count = 2;
    r.costs = costs;
    r.flags = GOAP_REQUEST_NO_CALLBACKS;
    r.host = &w;
    int32_t plan[8];
    goap_result res;
    memset(&res, 0, sizeof res);
    res.plan = plan;
    res.plan_capacity = 8;
    REQUIRE(goap_plan(p, &r, &res) == GOAP_OK);
    int calls = 0;
    for (int a = 0; a < 2; ++a)
      for (int l = 0; l < 3; ++l) calls += w.asked[a][l];
    if (pure) {
      /* request costs + the distances: 2 + 10, 1, 3 + 5 */
      CHECK_NEAR(res.cost, 21.0, 1e-12);
      CHECK(calls > 0);
      CHECK_EQ_INT(w.host_seen, calls); /* the planner still passes the request's host */
    } else {
      CHECK_NEAR(res.cost, 6.0, 1e-12); /* costs[a] + min_cost (0): never called */
      CHECK_EQ_INT(calls, 0);
    }
    goap_planner_destroy(p);
    goap_domain_destroy(d);
  }
}

TEST(validate_adds_pure_state_costs) {
  walk_host w;
  goap_domain *d = walk_domain(&w, GOAP_STATE_COST_PURE);
  REQUIRE(d);
  int32_t plan[3] = {0, 2, 1};
  goap_cond want = {goap_domain_find_var(d, "at"), GOAP_EQ, 2};
  double c = 0;
  int bad = 0;
  CHECK_EQ_INT(goap_plan_validate(d, NULL, &want, 1, plan, 3, &c, &bad), GOAP_OK);
  CHECK_NEAR(c, 16.0, 1e-12);
  CHECK_EQ_INT(w.host_seen, 0); /* host NULL */
  goap_domain_destroy(d);
  d = walk_domain(&w, 0); /* a host callback: not called, its min_cost (0) counts */
  REQUIRE(d);
  CHECK_EQ_INT(goap_plan_validate(d, NULL, &want, 1, plan, 3, &c, &bad), GOAP_OK);
  CHECK_NEAR(c, 1.0, 1e-12);
  CHECK_EQ_INT(w.asked[0][0] + w.asked[1][1], 0);
  goap_domain_destroy(d);
}

/* A state cost that refuses the step (negative) makes the action inapplicable there. */
static double refuse_from_camp(void *host, int action, const goap_word *state, void *user) {
  (void)host;
  walk_host *w = (walk_host *)user;
  int from = (int)goap_state_get(w->d, state, w->at);
  if (action == 1 && from == 0) return -1.0; /* no direct road camp -> village */
  if (action == 1 && from == 1) return (double)NAN; /* nor river -> village */
  return 1.0;
}

TEST(negative_or_nan_state_cost_makes_the_step_inapplicable) {
  walk_host w;
  memset(&w, 0, sizeof w);
  goap_domain *d = NULL;
  goap_builder *b = NULL;
  REQUIRE(goap_builder_create(NULL, &b) == GOAP_OK);
  goap_var_desc v;
  memset(&v, 0, sizeof v);
  v.name = "at";
  v.type = GOAP_INT;
  v.lo = 0;
  v.hi = 2;
  int at = -1;
  goap_builder_add_var(b, &v, &at);
  goap_effect e1 = {at, GOAP_SET, 1}, e2 = {at, GOAP_SET, 2};
  goap_action_desc a;
  memset(&a, 0, sizeof a);
  a.name = "go_river";
  a.eff = &e1;
  a.eff_count = 1;
  int id = -1;
  goap_builder_add_action(b, &a, &id);
  goap_builder_set_state_cost(b, id, refuse_from_camp, &w, 0.0, 0);
  a.name = "go_village";
  a.eff = &e2;
  goap_builder_add_action(b, &a, &id);
  goap_builder_set_state_cost(b, id, refuse_from_camp, &w, 0.0, 0);
  REQUIRE(goap_builder_build(b, &d) == GOAP_OK);
  goap_builder_destroy(b);
  w.d = d;
  w.at = at;
  goap_planner *p = NULL;
  REQUIRE(goap_planner_create(d, NULL, &p) == GOAP_OK);
  goap_cond want = {at, GOAP_EQ, 2};
  goap_request r;
  memset(&r, 0, sizeof r);
  r.want = &want;
  r.want_count = 1;
  goap_result res;
  memset(&res, 0, sizeof res);
  CHECK_EQ_INT(goap_plan(p, &r, &res), GOAP_NO_PLAN);
  goap_planner_destroy(p);
  goap_domain_destroy(d);
}

TEST(no_allocation_after_warm_up) {
  walk_host w;
  goap_domain *d = walk_domain(&w, 0);
  REQUIRE(d);
  test_alloc ta;
  memset(&ta, 0, sizeof ta);
  goap_planner_desc pd;
  memset(&pd, 0, sizeof pd);
  pd.allocator = test_alloc_hook(&ta);
  goap_planner *p = NULL;
  REQUIRE(goap_planner_create(d, &pd, &p) == GOAP_OK);
  goap_cond want[2] = {{goap_domain_find_var(d, "water"), GOAP_EQ, 1},
                       {goap_domain_find_var(d, "at"), GOAP_EQ, 2}};
  const goap_heuristic heur[] = {GOAP_H_DEFAULT, GOAP_H_LMCUT, GOAP_H_FF, GOAP_H_MAX};
  size_t before = 0;
  for (int round = 0; round < 2; ++round) {
    if (round == 1) before = ta.calls;
    for (int k = 0; k < 4; ++k) {
      goap_request r;
      memset(&r, 0, sizeof r);
      r.want = want;
      r.want_count = 2;
      r.heuristic = heur[k];
      r.search = k == 2 ? GOAP_SEARCH_GREEDY : GOAP_SEARCH_ASTAR;
      r.flags = k == 1 ? GOAP_REQUEST_LAZY : 0u;
      r.host = &w;
      int32_t plan[8];
      goap_result res;
      memset(&res, 0, sizeof res);
      res.plan = plan;
      res.plan_capacity = 8;
      CHECK_EQ_INT(goap_plan(p, &r, &res), GOAP_OK);
      CHECK_NEAR(res.cost, 16.0, 1e-12);
    }
  }
  CHECK_EQ_INT(ta.calls - before, 0);
  goap_planner_destroy(p);
  CHECK_EQ_INT(ta.outstanding, 0);
  goap_domain_destroy(d);
}

/* ------------------------------------------------------------------------------------------
 * The oracle: random domains against an exhaustive Dijkstra
 * ---------------------------------------------------------------------------------------- */
#define R_VARS 5
#define R_ACTS 10
#define R_VALS 4

typedef struct rdom {
  int nv, na;
  int k[R_VARS];                   /* var v takes 0..k[v]-1 */
  int start[R_VARS];
  goap_cond pre[R_ACTS][3];
  int npre[R_ACTS];
  goap_effect eff[R_ACTS][2];
  int neff[R_ACTS];
  double base[R_ACTS];
  int sc[R_ACTS];                  /* 0: none, 1: host callback, 2: pure */
  int loc[R_ACTS], loc2[R_ACTS];   /* the variables its state cost reads */
  double table[R_ACTS][R_VALS];    /* by value of loc; negative: inapplicable */
  double extra[R_ACTS];            /* added when loc2 is 0 */
  double minc[R_ACTS];
  goap_cond want[3];
  int nwant;
  const goap_domain *d;            /* the built domain (for the callbacks) */
  long calls;
} rdom;

typedef struct rng_t {
  uint64_t s;
} rng_t;

static uint64_t rng_next(rng_t *r) {
  return splitmix64(&r->s);
}

static int rnd(rng_t *r, int lo, int hi) {
  return lo + (int)(rng_next(r) % (uint64_t)(hi - lo + 1));
}

/* The reference's state cost of action a in state st (negative: inapplicable). */
static double ref_scost(const rdom *r, int a, const int *st) {
  double t = r->table[a][st[r->loc[a]]];
  if (t < 0) return t;
  return t + (st[r->loc2[a]] == 0 ? r->extra[a] : 0.0);
}

static double rd_scost(void *host, int action, const goap_word *state, void *user) {
  rdom *r = (rdom *)user;
  if (r->sc[action] == 1 && host != r) return (double)NAN; /* the host is passed through */
  int st[R_VARS];
  for (int v = 0; v < r->nv; ++v) st[v] = (int)goap_state_get(r->d, state, v);
  r->calls++;
  return ref_scost(r, action, st);
}

static int ref_holds(const goap_cond *c, int n, const int *st) {
  for (int i = 0; i < n; ++i) {
    int x = st[c[i].var];
    if (c[i].op == GOAP_EQ ? x != c[i].value : x == c[i].value) return 0;
  }
  return 1;
}

/* The reference price of a in st: base + max(min, state cost), or -1 (inapplicable).
 * nocb: GOAP_REQUEST_NO_CALLBACKS (host state costs then cost their bound). */
static double ref_step(const rdom *r, int a, const int *st, int nocb) {
  if (!ref_holds(r->pre[a], r->npre[a], st)) return -1.0;
  if (!r->sc[a]) return r->base[a];
  if (nocb && r->sc[a] == 1) return r->base[a] + r->minc[a];
  double e = ref_scost(r, a, st);
  if (e < 0) return -1.0;
  return r->base[a] + (e > r->minc[a] ? e : r->minc[a]);
}

static void ref_apply(const rdom *r, int a, int *st) {
  for (int k = 0; k < r->neff[a]; ++k) st[r->eff[a][k].var] = r->eff[a][k].value;
}

static int st_index(const rdom *r, const int *st) {
  int i = 0;
  for (int v = r->nv - 1; v >= 0; --v) i = i * r->k[v] + st[v];
  return i;
}

static void st_decode(const rdom *r, int i, int *st) {
  for (int v = 0; v < r->nv; ++v) {
    st[v] = i % r->k[v];
    i /= r->k[v];
  }
}

/* Dijkstra over every state (at most 4^5): the cheapest plan's cost, or INFINITY. */
static double ref_optimal(const rdom *r, int nocb) {
  enum { N = 1024 };
  double dist[N];
  unsigned char done[N];
  int total = 1;
  for (int v = 0; v < r->nv; ++v) total *= r->k[v];
  for (int i = 0; i < total; ++i) {
    dist[i] = INFINITY;
    done[i] = 0;
  }
  dist[st_index(r, r->start)] = 0.0;
  for (;;) {
    int u = -1;
    for (int i = 0; i < total; ++i)
      if (!done[i] && !isinf(dist[i]) && (u < 0 || dist[i] < dist[u])) u = i;
    if (u < 0) return INFINITY;
    done[u] = 1;
    int st[R_VARS], nx[R_VARS];
    st_decode(r, u, st);
    if (ref_holds(r->want, r->nwant, st)) return dist[u];
    for (int a = 0; a < r->na; ++a) {
      double c = ref_step(r, a, st, nocb);
      if (c < 0) continue;
      memcpy(nx, st, sizeof nx);
      ref_apply(r, a, nx);
      int j = st_index(r, nx);
      if (dist[u] + c < dist[j]) dist[j] = dist[u] + c;
    }
  }
}

/* The plan's cost re-priced by the reference, or -1 when it does not replay to the goal. */
static double ref_price(const rdom *r, const int32_t *plan, int len, int nocb) {
  int st[R_VARS];
  memcpy(st, r->start, sizeof st);
  double c = 0.0;
  for (int i = 0; i < len; ++i) {
    if (plan[i] < 0 || plan[i] >= r->na) return -1.0;
    double s = ref_step(r, plan[i], st, nocb);
    if (s < 0) return -1.0;
    c += s;
    ref_apply(r, plan[i], st);
  }
  return ref_holds(r->want, r->nwant, st) ? c : -1.0;
}

static void rd_make(rdom *r, rng_t *g) {
  static const double bases[] = {0, 0.5, 1, 2, 3};
  static const double tab[] = {-1, 0, 1, 2.5, 4, 7, 0.25};
  memset(r, 0, sizeof *r);
  r->nv = rnd(g, 2, R_VARS);
  for (int v = 0; v < r->nv; ++v) {
    r->k[v] = rnd(g, 2, R_VALS);
    r->start[v] = rnd(g, 0, r->k[v] - 1);
  }
  r->na = rnd(g, 3, R_ACTS);
  for (int a = 0; a < r->na; ++a) {
    r->npre[a] = rnd(g, 0, 2);
    for (int i = 0; i < r->npre[a]; ++i) {
      int v = rnd(g, 0, r->nv - 1);
      r->pre[a][i].var = v;
      r->pre[a][i].op = rnd(g, 0, 3) ? GOAP_EQ : GOAP_NE;
      r->pre[a][i].value = rnd(g, 0, r->k[v] - 1);
    }
    r->neff[a] = rnd(g, 1, 2);
    int v0 = rnd(g, 0, r->nv - 1);
    for (int i = 0; i < r->neff[a]; ++i) {
      int v = (v0 + i) % r->nv;
      r->eff[a][i].var = v;
      r->eff[a][i].op = GOAP_SET;
      r->eff[a][i].value = rnd(g, 0, r->k[v] - 1);
    }
    if (r->neff[a] == 2 && r->eff[a][0].var == r->eff[a][1].var) r->neff[a] = 1;
    r->base[a] = bases[rnd(g, 0, 4)];
    r->sc[a] = rnd(g, 0, 3) == 0 ? 0 : rnd(g, 1, 2);
    if (r->sc[a]) {
      r->loc[a] = rnd(g, 0, r->nv - 1);
      r->loc2[a] = rnd(g, 0, r->nv - 1);
      double lo = INFINITY;
      for (int x = 0; x < R_VALS; ++x) {
        r->table[a][x] = tab[rnd(g, 0, 6)];
        if (x < r->k[r->loc[a]] && r->table[a][x] >= 0 && r->table[a][x] < lo)
          lo = r->table[a][x];
      }
      r->extra[a] = rnd(g, 0, 1) ? 0.0 : 1.5;
      /* the declared bound: the true least answer, or a weaker one */
      r->minc[a] = isinf(lo) || rnd(g, 0, 1) ? 0.0 : lo;
    }
  }
  r->nwant = rnd(g, 1, 3);
  for (int i = 0; i < r->nwant; ++i) {
    int v = rnd(g, 0, r->nv - 1);
    r->want[i].var = v;
    r->want[i].op = rnd(g, 0, 4) ? GOAP_EQ : GOAP_NE;
    r->want[i].value = rnd(g, 0, r->k[v] - 1);
  }
}

static goap_domain *rd_build(rdom *r) {
  static const char *const vn[R_VARS] = {"v0", "v1", "v2", "v3", "v4"};
  static const char *const an[R_ACTS] = {"a0", "a1", "a2", "a3", "a4",
                                         "a5", "a6", "a7", "a8", "a9"};
  goap_builder *b = NULL;
  if (goap_builder_create(NULL, &b) != GOAP_OK) return NULL;
  for (int v = 0; v < r->nv; ++v) {
    goap_var_desc vd;
    memset(&vd, 0, sizeof vd);
    vd.name = vn[v];
    vd.type = GOAP_INT;
    vd.lo = 0;
    vd.hi = r->k[v] - 1;
    vd.has_default = 1;
    vd.default_value = r->start[v];
    goap_builder_add_var(b, &vd, NULL);
  }
  for (int a = 0; a < r->na; ++a) {
    goap_action_desc ad;
    memset(&ad, 0, sizeof ad);
    ad.name = an[a];
    ad.cost = r->base[a];
    ad.pre = r->pre[a];
    ad.pre_count = r->npre[a];
    ad.eff = r->eff[a];
    ad.eff_count = r->neff[a];
    int id = -1;
    if (goap_builder_add_action(b, &ad, &id) != GOAP_OK ||
        (r->sc[a] && goap_builder_set_state_cost(b, id, rd_scost, r, r->minc[a],
                                                 r->sc[a] == 2 ? GOAP_STATE_COST_PURE : 0u) !=
                         GOAP_OK)) {
      goap_builder_destroy(b);
      return NULL;
    }
  }
  goap_domain *d = NULL;
  goap_status st = goap_builder_build(b, &d);
  goap_builder_destroy(b);
  return st == GOAP_OK ? d : NULL;
}

/* A failing case, for the report. */
static void rd_dump(const rdom *r, const int32_t *plan, int len) {
  fprintf(stderr, "  vars:");
  for (int v = 0; v < r->nv; ++v) fprintf(stderr, " v%d 0..%d start %d;", v, r->k[v] - 1, r->start[v]);
  fprintf(stderr, "\n");
  for (int a = 0; a < r->na; ++a) {
    fprintf(stderr, "  a%d base %g pre", a, r->base[a]);
    for (int i = 0; i < r->npre[a]; ++i)
      fprintf(stderr, " v%d%s%d", r->pre[a][i].var, r->pre[a][i].op == GOAP_EQ ? "==" : "!=",
              r->pre[a][i].value);
    fprintf(stderr, " eff");
    for (int i = 0; i < r->neff[a]; ++i)
      fprintf(stderr, " v%d=%d", r->eff[a][i].var, r->eff[a][i].value);
    if (r->sc[a])
      fprintf(stderr, " sc%d by v%d [%g %g %g %g] +%g if v%d==0, min %g", r->sc[a], r->loc[a],
              r->table[a][0], r->table[a][1], r->table[a][2], r->table[a][3], r->extra[a],
              r->loc2[a], r->minc[a]);
    fprintf(stderr, "\n");
  }
  fprintf(stderr, "  want");
  for (int i = 0; i < r->nwant; ++i)
    fprintf(stderr, " v%d%s%d", r->want[i].var, r->want[i].op == GOAP_EQ ? "==" : "!=",
            r->want[i].value);
  fprintf(stderr, "\n  plan");
  for (int i = 0; i < len; ++i) fprintf(stderr, " a%d", plan[i]);
  fprintf(stderr, "\n");
}

typedef struct rconf {
  goap_search search;
  goap_heuristic heur;
  unsigned flags;
  int index;     /* force the successor index */
  int optimal;
} rconf;

static const rconf confs[] = {
    {GOAP_SEARCH_ASTAR, GOAP_H_DEFAULT, 0, 0, 1},
    {GOAP_SEARCH_ASTAR, GOAP_H_ZERO, 0, 0, 1},
    {GOAP_SEARCH_ASTAR, GOAP_H_GOAL_COUNT_ADMISSIBLE, 0, 1, 1},
    {GOAP_SEARCH_ASTAR, GOAP_H_MAX, 0, 0, 1},
    {GOAP_SEARCH_ASTAR, GOAP_H_MAX, GOAP_REQUEST_NO_PRUNING, 1, 1},
    {GOAP_SEARCH_ASTAR, GOAP_H_LMCUT, 0, 0, 1},
    {GOAP_SEARCH_ASTAR, GOAP_H_LMCUT, GOAP_REQUEST_LAZY, 0, 1},
    {GOAP_SEARCH_ASTAR, GOAP_H_MAX, GOAP_REQUEST_LAZY, 1, 1},
    {GOAP_SEARCH_WASTAR, GOAP_H_ADD, 0, 0, 0},
    {GOAP_SEARCH_GREEDY, GOAP_H_FF, 0, 1, 0},
    {GOAP_SEARCH_GREEDY, GOAP_H_FF, GOAP_REQUEST_PREFERRED | GOAP_REQUEST_LAZY, 0, 0},
    {GOAP_SEARCH_GREEDY, GOAP_H_GOAL_COUNT, GOAP_REQUEST_LAZY, 0, 0},
};

static int prop_cases(void) {
  const char *e = getenv("GOAP_PROPERTY_CASES");
  int n = e ? atoi(e) : 0;
  return n > 0 ? n : 3000;
}

TEST(random_domains_match_the_exhaustive_oracle) {
  int cases = prop_cases(), reports = 0;
  long with_plan = 0, checked = 0;
  for (int ci = 0; ci < cases && reports < 5; ++ci) {
    rng_t g = {0x5eed0000u + (uint64_t)ci};
    static rdom r;
    rd_make(&r, &g);
    goap_domain *d = rd_build(&r);
    if (!d) {
      fprintf(stderr, "case %d: the domain did not build\n", ci);
      ++reports;
      CHECK(d != NULL);
      continue;
    }
    r.d = d;
    goap_planner *p = NULL;
    REQUIRE(goap_planner_create(d, NULL, &p) == GOAP_OK);
    for (int nocb = 0; nocb < 2; ++nocb) {
      double opt = ref_optimal(&r, nocb);
      if (!isinf(opt)) ++with_plan;
      for (size_t k = 0; k < sizeof confs / sizeof confs[0]; ++k) {
        const rconf *c = &confs[k];
        goap_request q;
        memset(&q, 0, sizeof q);
        q.want = r.want;
        q.want_count = r.nwant;
        q.search = c->search;
        q.heuristic = c->heur;
        q.flags = c->flags | (nocb ? GOAP_REQUEST_NO_CALLBACKS : 0u);
        q.costs = nocb ? r.base : NULL;
        q.host = &r;
        p->sx_force = c->index;
        int32_t plan[64];
        goap_result res;
        memset(&res, 0, sizeof res);
        res.plan = plan;
        res.plan_capacity = 64;
        goap_status st = goap_plan(p, &q, &res);
        ++checked;
        int bad = 0;
        if (isinf(opt)) {
          bad = st != GOAP_NO_PLAN;
        } else if (st != GOAP_OK) {
          bad = 1;
        } else {
          double price = ref_price(&r, plan, res.plan_length, nocb);
          bad = price < 0 || fabs(price - res.cost) > 1e-9 ||
                (c->optimal ? fabs(res.cost - opt) > 1e-9 : res.cost < opt - 1e-9);
        }
        if (bad) {
          fprintf(stderr,
                  "case %d conf %zu nocb %d: status %d cost %.17g, optimal %.17g, length %d\n",
                  ci, k, nocb, (int)st, res.cost, opt, res.plan_length);
          ++reports;
          CHECK(!bad);
          rd_dump(&r, plan, st == GOAP_OK ? res.plan_length : 0);
        }
      }
    }
    /* backward search is refused whenever a state cost would be called */
    int called = 0, pure = 0;
    for (int a = 0; a < r.na; ++a) {
      called |= r.sc[a] != 0;
      pure |= r.sc[a] == 2;
    }
    goap_request q;
    memset(&q, 0, sizeof q);
    q.want = r.want;
    q.want_count = r.nwant;
    q.search = GOAP_SEARCH_BACKWARD;
    q.host = &r;
    int32_t plan[64];
    goap_result res;
    memset(&res, 0, sizeof res);
    res.plan = plan;
    res.plan_capacity = 64;
    goap_status st = goap_plan(p, &q, &res);
    if (called) CHECK_EQ_INT(st, GOAP_INVALID_ARGUMENT);
    else CHECK(st == GOAP_OK || st == GOAP_NO_PLAN);
    q.flags = GOAP_REQUEST_NO_CALLBACKS;
    q.costs = r.base;
    st = goap_plan(p, &q, &res);
    if (pure) CHECK_EQ_INT(st, GOAP_INVALID_ARGUMENT);
    else CHECK(st == GOAP_OK || st == GOAP_NO_PLAN);
    goap_planner_destroy(p);
    goap_domain_destroy(d);
  }
  /* the random family must exercise solvable cases (the oracle is not vacuous) */
  CHECK(with_plan > cases / 4);
  CHECK(checked > 0);
}

/* A sliced search gives the one-shot plan, also when the callback prices every slice. */
TEST(sliced_search_matches_one_shot) {
  for (int ci = 0; ci < 200; ++ci) {
    rng_t g = {0xabc000u + (uint64_t)ci};
    static rdom r;
    rd_make(&r, &g);
    goap_domain *d = rd_build(&r);
    REQUIRE(d);
    r.d = d;
    goap_planner *p = NULL;
    REQUIRE(goap_planner_create(d, NULL, &p) == GOAP_OK);
    goap_request q;
    memset(&q, 0, sizeof q);
    q.want = r.want;
    q.want_count = r.nwant;
    q.heuristic = GOAP_H_LMCUT;
    q.host = &r;
    int32_t a[64], b[64];
    goap_result ra, rb;
    memset(&ra, 0, sizeof ra);
    memset(&rb, 0, sizeof rb);
    ra.plan = a;
    rb.plan = b;
    ra.plan_capacity = rb.plan_capacity = 64;
    goap_status sa = goap_plan(p, &q, &ra);
    goap_status sb = goap_plan_begin(p, &q);
    while (sb == GOAP_IN_PROGRESS) sb = goap_plan_step(p, 1, NULL);
    sb = goap_plan_finish(p, &rb);
    CHECK_EQ_INT(sa, sb);
    if (sa == GOAP_OK && sb == GOAP_OK) {
      CHECK_EQ_INT(ra.plan_length, rb.plan_length);
      CHECK(ra.cost == rb.cost);
      CHECK(memcmp(a, b, (size_t)ra.plan_length * sizeof *a) == 0);
      CHECK_EQ_INT(ra.stats.expanded, rb.stats.expanded);
    }
    /* the cost of a plan too long for the buffer is priced along the parent links */
    if (sa == GOAP_OK && ra.plan_length > 0) {
      goap_result rc;
      memset(&rc, 0, sizeof rc);
      CHECK_EQ_INT(goap_plan(p, &q, &rc), GOAP_BUFFER_TOO_SMALL);
      CHECK_NEAR(rc.cost, ra.cost, 1e-9);
    }
    goap_planner_destroy(p);
    goap_domain_destroy(d);
  }
}

TEST_MAIN(TEST_ENTRY(second_leg_is_priced_from_where_the_plan_stands),
          TEST_ENTRY(builder_checks_the_positional_fields),
          TEST_ENTRY(backward_and_orbit_search_refuse_called_state_costs),
          TEST_ENTRY(no_callbacks_prices_host_state_costs_at_their_bound),
          TEST_ENTRY(validate_adds_pure_state_costs),
          TEST_ENTRY(negative_or_nan_state_cost_makes_the_step_inapplicable),
          TEST_ENTRY(no_allocation_after_warm_up),
          TEST_ENTRY(random_domains_match_the_exhaustive_oracle),
          TEST_ENTRY(sliced_search_matches_one_shot))
