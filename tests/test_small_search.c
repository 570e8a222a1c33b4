/*
 * test_small_search.c -- the small search (src/core/small_search.c) against the general path.
 *
 * Two planners on one random domain get the same requests in the same order, one as usual
 * and one with the small search switched off (planner->small_search.never): every result must
 * be the same -- status, plan, cost, partial flag and every statistic -- one-shot (goap_plan) and
 * sliced (begin / step / finish), with node budgets that cut searches short, pools that
 * start tiny and grow during the search, costs of 0 and fractions (reopened nodes), request
 * cost arrays, goals of equalities and of ranges, and every search and goal-only heuristic.
 * The domains are one-word domains of bools and enums whose actions are plain masks (the
 * small search's domain; those of at most 4 nibbles take the nibble tables, the others the
 * parent's bitset, as do those of the planners with small_nib set to 0), some with an int or
 * a callback (the general path throughout). The test also checks that the small search did
 * run, that it is not used where it must not be, and that a warm planner makes no allocation
 * on it. A third planner runs the micro search (whole requests in a stack-local struct) with
 * room for only 1 to 6 nodes, so that it often runs out and the small search reruns the
 * request; it too must match the general path, and so must goap_plan_finish called again
 * after each request (with a buffer of one action).
 *
 * Environment: GOAP_SMALL_CASES=N changes the number of random domains (default 3000).
 */
#include <goap/goap.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc_hook.h"
#include "core/planner.h"
#include "test.h"
#include "test_rng.h"

#define MAX_VARS 12
#define MAX_ACTS 24
#define MAX_WANT 6
#define NREQ 6
#define PLAN_CAP 256

typedef struct rng {
  uint64_t s;
} rng;

static uint64_t rnext(rng *r) {
  return splitmix64(&r->s);
}

static int rrange(rng *r, int lo, int hi) { return lo + (int)(rnext(r) % (uint64_t)(hi - lo + 1)); }

typedef struct dom {
  goap_domain *d;
  int nvars, nacts;
  int nvalues[MAX_VARS]; /* 2 for a bool, the value count of an enum, 0 for an int */
  int32_t lo[MAX_VARS], hi[MAX_VARS];
  int has_int, has_cb;
} dom;

static const char *const enum_names[] = {"a", "b", "c", "d", "e"};

static int cb_check(void *host, int action, void *user) {
  (void)host;
  (void)user;
  return action % 5 != 4;
}

/* A random one-word domain: bools and enums (with `with_int`, one small int too), actions
 * with 0..3 preconditions (equalities) and 1..3 SET effects; with `with_cb`, a check callback
 * on some actions. */
static int make_domain(rng *r, dom *x, int with_int, int with_cb) {
  memset(x, 0, sizeof *x);
  goap_builder *b = NULL;
  if (goap_builder_create(NULL, &b) != GOAP_OK) return 0;
  x->nvars = rrange(r, 2, MAX_VARS - 1);
  char nm[32];
  for (int v = 0; v < x->nvars; ++v) {
    goap_var_desc vd;
    memset(&vd, 0, sizeof vd);
    snprintf(nm, sizeof nm, "v%d", v);
    vd.name = nm;
    if (with_int && v == 0) {
      vd.type = GOAP_INT;
      vd.lo = 0;
      vd.hi = 3;
      x->has_int = 1;
    } else if (rrange(r, 0, 3) == 0) {
      vd.type = GOAP_ENUM;
      vd.values = enum_names;
      vd.value_count = rrange(r, 3, 5);
      x->nvalues[v] = vd.value_count;
      vd.hi = vd.value_count - 1;
    } else {
      vd.type = GOAP_BOOL;
      x->nvalues[v] = 2;
      vd.hi = 1;
    }
    x->lo[v] = vd.lo;
    x->hi[v] = vd.hi;
    if (goap_builder_add_var(b, &vd, NULL) != GOAP_OK) {
      goap_builder_destroy(b);
      return 0;
    }
  }
  x->nacts = rrange(r, 1, MAX_ACTS);
  for (int a = 0; a < x->nacts; ++a) {
    goap_cond pre[3];
    goap_effect eff[3];
    int np = rrange(r, 0, 3), ne = rrange(r, 1, 3), used[MAX_VARS] = {0};
    for (int k = 0; k < np; ++k) {
      int v = rrange(r, 0, x->nvars - 1);
      pre[k].var = v;
      pre[k].op = GOAP_EQ;
      pre[k].value = rrange(r, x->lo[v], x->hi[v]);
    }
    int n = 0;
    for (int k = 0; k < ne; ++k) {
      int v = rrange(r, 0, x->nvars - 1);
      if (used[v]) continue;
      used[v] = 1;
      eff[n].var = v;
      if (x->nvalues[v] == 0 && rrange(r, 0, 1)) {
        eff[n].op = GOAP_ADD_CLAMP;
        eff[n].value = rrange(r, 0, 1) ? 1 : -1;
      } else {
        eff[n].op = GOAP_SET;
        eff[n].value = rrange(r, x->lo[v], x->hi[v]);
      }
      ++n;
    }
    goap_action_desc ad;
    memset(&ad, 0, sizeof ad);
    snprintf(nm, sizeof nm, "a%d", a);
    ad.name = nm;
    /* 0, whole and fractional costs: ties, zero-cost cycles and reopened nodes */
    static const double costs[] = {1.0, 1.0, 2.0, 0.0, 0.5, 3.25, 1.0 / 3.0};
    ad.cost = costs[rrange(r, 0, 6)];
    ad.pre = pre;
    ad.pre_count = np;
    ad.eff = eff;
    ad.eff_count = n;
    if (with_cb && a % 3 == 0) {
      ad.check = cb_check;
      x->has_cb = 1;
    }
    if (goap_builder_add_action(b, &ad, NULL) != GOAP_OK) {
      goap_builder_destroy(b);
      return 0;
    }
  }
  goap_status st = goap_builder_build(b, &x->d);
  goap_builder_destroy(b);
  return st == GOAP_OK && x->d != NULL;
}

typedef struct req {
  goap_word start[1];
  goap_cond want[MAX_WANT];
  int nwant;
  goap_search search;
  goap_heuristic heur;
  double weight;
  uint32_t max_nodes;
  unsigned flags;
  int use_costs;
} req;

static const goap_heuristic small_heurs[] = {GOAP_H_DEFAULT, GOAP_H_DEFAULT, GOAP_H_ZERO,
                                             GOAP_H_GOAL_COUNT, GOAP_H_GOAL_COUNT_ADMISSIBLE};

static void make_req(rng *r, const dom *x, req *q) {
  memset(q, 0, sizeof *q);
  goap_state_init(x->d, q->start);
  for (int v = 0; v < x->nvars; ++v)
    goap_state_set(x->d, q->start, v, rrange(r, x->lo[v], x->hi[v]));
  q->nwant = rrange(r, 0, 5) == 0 ? rrange(r, 5, MAX_WANT) : rrange(r, 1, 3);
  int ranges = rrange(r, 0, 3) == 0; /* != and order tests: not all equalities */
  for (int k = 0; k < q->nwant; ++k) {
    int v = rrange(r, 0, x->nvars - 1);
    q->want[k].var = v;
    q->want[k].op = GOAP_EQ;
    if (ranges && x->nvalues[v] != 2 && rrange(r, 0, 1))
      q->want[k].op = x->nvalues[v] == 0 ? (goap_op)rrange(r, GOAP_NE, GOAP_GE) : GOAP_NE;
    else if (ranges && rrange(r, 0, 2) == 0)
      q->want[k].op = GOAP_NE;
    q->want[k].value = rrange(r, x->lo[v], x->hi[v]);
  }
  int s = rrange(r, 0, 5);
  q->search = s <= 2 ? GOAP_SEARCH_ASTAR : s == 3 ? GOAP_SEARCH_WASTAR : GOAP_SEARCH_GREEDY;
  q->weight = q->search == GOAP_SEARCH_WASTAR ? (rrange(r, 0, 1) ? 1.5 : 3.0) : 0.0;
  q->heur = small_heurs[rrange(r, 0, 4)];
  q->max_nodes = rrange(r, 0, 3) == 0 ? (uint32_t)rrange(r, 1, 12) : 0;
  q->flags = rrange(r, 0, 4) == 0 ? GOAP_REQUEST_NO_PRUNING : 0;
  q->use_costs = rrange(r, 0, 4) == 0;
  if (q->use_costs && x->has_cb && rrange(r, 0, 1)) q->flags |= GOAP_REQUEST_NO_CALLBACKS;
}

typedef struct outcome {
  goap_status st;
  goap_result res;
  int32_t plan[PLAN_CAP];
  int ran_small;
  int ran_tab; /* ... with the nibble tables (goap_planner.small_nib) */
  int ran_micro, micro_fell; /* planned whole by the micro search; tried by it, then rerun */
  goap_result again; /* goap_plan_finish called again with a buffer of 1 */
  int32_t again_plan[1];
} outcome;

static void fill(const req *q, const double *costs, goap_request *rq) {
  memset(rq, 0, sizeof *rq);
  rq->start = q->start;
  rq->want = q->want;
  rq->want_count = q->nwant;
  rq->search = q->search;
  rq->heuristic = q->heur;
  rq->weight = q->weight;
  rq->max_nodes = q->max_nodes;
  rq->flags = q->flags;
  rq->costs = q->use_costs ? costs : NULL;
}

/* One request, whole (slice 0) or in slices of `slice` expansions. */
static void run(goap_planner *p, const goap_request *rq, int slice, outcome *o) {
  memset(o, 0, sizeof *o);
  o->res.plan = o->plan;
  o->res.plan_capacity = PLAN_CAP;
  if (slice == 0) {
    o->st = goap_plan(p, rq, &o->res);
  } else {
    goap_status st = goap_plan_begin(p, rq);
    uint32_t done = 0;
    while (st == GOAP_IN_PROGRESS) st = goap_plan_step(p, (uint32_t)slice, &done);
    o->st = goap_plan_finish(p, &o->res);
  }
  o->ran_small = p->small_search.run;
  o->ran_tab = o->ran_small && p->small_nib > 0;
  o->ran_micro = p->small_search.micro_done;
  o->micro_fell = p->small_search.micro_fell;
  o->again.plan = o->again_plan;
  o->again.plan_capacity = 1;
  (void)goap_plan_finish(p, &o->again);
}

static int same(const outcome *a, const outcome *b) {
  const goap_result *x = &a->res, *y = &b->res;
  if (a->st != b->st || x->status != y->status || x->plan_length != y->plan_length ||
      x->partial != y->partial || x->cost != y->cost)
    return 0;
  for (int i = 0; i < x->plan_length && i < PLAN_CAP; ++i)
    if (a->plan[i] != b->plan[i]) return 0;
  const goap_result *u = &a->again, *v = &b->again;
  if (u->status != v->status || u->plan_length != v->plan_length || u->cost != v->cost ||
      u->partial != v->partial || (u->plan_length == 1 && a->again_plan[0] != b->again_plan[0]))
    return 0;
  const goap_stats *s = &x->stats, *t = &y->stats;
  return s->expanded == t->expanded && s->generated == t->generated &&
         s->duplicates == t->duplicates && s->reopened == t->reopened &&
         s->nodes == t->nodes && s->evaluated == t->evaluated &&
         s->actions_considered == t->actions_considered;
}

static void report(uint64_t seed, int k, const req *q, const outcome *a, const outcome *b) {
  fprintf(stderr,
          "seed 0x%llx request %d (search %d heuristic %d weight %g max_nodes %u flags %u "
          "costs %d want %d): small %s cost %.17g len %d exp %llu gen %llu nodes %u | general "
          "%s cost %.17g len %d exp %llu gen %llu nodes %u\n",
          (unsigned long long)seed, k, (int)q->search, (int)q->heur, q->weight, q->max_nodes,
          q->flags, q->use_costs, q->nwant, goap_status_name(a->st), a->res.cost,
          a->res.plan_length, (unsigned long long)a->res.stats.expanded,
          (unsigned long long)a->res.stats.generated, a->res.stats.nodes,
          goap_status_name(b->st), b->res.cost, b->res.plan_length,
          (unsigned long long)b->res.stats.expanded,
          (unsigned long long)b->res.stats.generated, b->res.stats.nodes);
}

typedef struct tally {
  long requests, small, tab, ok, limited, reopened;
  long micro, micro_fell;     /* the default planner */
  long forced, forced_fell;   /* the planner with a micro search of 1 to 6 nodes */
} tally;

/* One random domain and NREQ requests, three rounds round-robin (the goal cache alternates
 * its slots), on a small-search planner and a general one, whole and sliced. Pools start at
 * 4 nodes on odd seeds (they grow during searches). Returns 0 on a difference. */
static int check_domain(uint64_t seed, tally *t) {
  rng r = {seed};
  dom x;
  int with_int = rrange(&r, 0, 9) == 0, with_cb = rrange(&r, 0, 6) == 0;
  if (!make_domain(&r, &x, with_int, with_cb)) return 1; /* rejected by the builder: skip */
  req q[NREQ];
  for (int k = 0; k < NREQ; ++k) make_req(&r, &x, &q[k]);
  double costs[MAX_ACTS];
  for (int a = 0; a < x.nacts; ++a) costs[a] = (double)rrange(&r, 0, 4) * 0.5;
  goap_planner_desc pd;
  memset(&pd, 0, sizeof pd);
  pd.initial_nodes = seed & 1 ? 4 : 0;
  goap_planner *ps = NULL, *pg = NULL, *pm = NULL;
  int ok = goap_planner_create(x.d, &pd, &ps) == GOAP_OK &&
           goap_planner_create(x.d, &pd, &pg) == GOAP_OK &&
           goap_planner_create(x.d, &pd, &pm) == GOAP_OK;
  if (pg) pg->small_search.never = 1;
  /* the micro search with room for 1 to 6 nodes: it often runs out and the small search
   * plans the request again */
  if (pm) pm->small_search.micro_cap = 1 + (uint32_t)((seed >> 2) % 6);
  if (ps && (seed & 2)) ps->small_nib = 0; /* the parent's bitset, even where tables fit */
  for (int round = 0; round < 3 && ok; ++round) {
    for (int k = 0; k < NREQ && ok; ++k) {
      goap_request rq;
      fill(&q[k], costs, &rq);
      int slice = round == 2 ? 1 + (int)(seed % 3) : 0;
      outcome a, b, c;
      run(ps, &rq, slice, &a);
      run(pg, &rq, slice, &b);
      run(pm, &rq, slice, &c);
      t->micro += a.ran_micro;
      t->micro_fell += a.micro_fell;
      t->forced += c.ran_micro;
      t->forced_fell += c.micro_fell;
      if (!same(&c, &b)) {
        fprintf(stderr, "micro search of %u nodes: ", pm->small_search.micro_cap);
        report(seed, k, &q[k], &c, &b);
        ok = 0;
      }
      if ((a.ran_micro || c.ran_micro) && slice) {
        fprintf(stderr, "seed 0x%llx request %d: micro search on a sliced request\n",
                (unsigned long long)seed, k);
        ok = 0;
      }
      ++t->requests;
      t->small += a.ran_small;
      t->tab += a.ran_tab;
      t->ok += a.st == GOAP_OK;
      t->limited += a.st == GOAP_NODE_LIMIT;
      t->reopened += a.res.stats.reopened > 0;
      if (b.ran_small || !same(&a, &b)) {
        report(seed, k, &q[k], &a, &b);
        ok = 0;
      }
      /* not where callbacks are asked (an int's ADD keeps small mode off: the general path) */
      if (a.ran_small && x.has_cb && !(q[k].flags & GOAP_REQUEST_NO_CALLBACKS)) {
        fprintf(stderr, "seed 0x%llx request %d: small search on a domain it does not fit\n",
                (unsigned long long)seed, k);
        ok = 0;
      }
    }
  }
  goap_planner_destroy(ps);
  goap_planner_destroy(pg);
  goap_planner_destroy(pm);
  goap_domain_destroy(x.d);
  return ok;
}

TEST(same_results_as_general_path) {
  long cases = 3000;
  const char *env = getenv("GOAP_SMALL_CASES");
  if (env && atol(env) > 0) cases = atol(env);
  tally t = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  int bad = 0;
  for (long i = 0; i < cases && bad < 5; ++i)
    if (!check_domain(0x5eed0000ull + (uint64_t)i, &t)) ++bad;
  CHECK_EQ_INT(bad, 0);
  /* the comparison means something only if the small search ran, found plans, stopped at
   * node budgets and reopened nodes in a fair share of the requests */
  fprintf(stderr,
          "%ld requests: %ld small (%ld with nibble tables), %ld ok, %ld node limit, %ld "
          "reopened\n",
          t.requests, t.small, t.tab, t.ok, t.limited, t.reopened);
  CHECK(t.small * 2 > t.requests);
  /* both forms of the useful actions: nibble tables and the parent's bitset */
  CHECK(t.tab * 5 > t.small && (t.small - t.tab) * 5 > t.small);
  CHECK(t.ok * 4 > t.requests);
  CHECK(t.limited * 50 > t.requests);
  CHECK(t.reopened > 0);
  /* the micro search planned a fair share whole; both planners ran out of its room and
   * reran the request (the default one on the few requests needing over 32 nodes) */
  fprintf(stderr, "micro search: %ld whole, %ld rerun; with 1-6 nodes: %ld whole, %ld rerun\n",
          t.micro, t.micro_fell, t.forced, t.forced_fell);
  CHECK(t.micro * 8 > t.small);
  CHECK(t.micro_fell > 0);
  CHECK(t.forced * 20 > t.small && t.forced_fell * 20 > t.small);
}

/* A two-word domain (65 bools): the general path. */
TEST(not_used_where_it_does_not_fit) {
  goap_builder *b = NULL;
  REQUIRE(goap_builder_create(NULL, &b) == GOAP_OK);
  char nm[16];
  for (int v = 0; v < 65; ++v) {
    goap_var_desc vd;
    memset(&vd, 0, sizeof vd);
    snprintf(nm, sizeof nm, "b%d", v);
    vd.name = nm;
    vd.type = GOAP_BOOL;
    REQUIRE(goap_builder_add_var(b, &vd, NULL) == GOAP_OK);
  }
  for (int a = 0; a < 3; ++a) {
    goap_cond pre = {a == 2 ? 64 : a, GOAP_EQ, 1};
    goap_effect eff = {a == 1 ? 64 : a + 1, GOAP_SET, 1};
    goap_action_desc ad;
    memset(&ad, 0, sizeof ad);
    snprintf(nm, sizeof nm, "s%d", a);
    ad.name = nm;
    ad.cost = 1.0;
    ad.pre = &pre;
    ad.pre_count = 1;
    ad.eff = &eff;
    ad.eff_count = 1;
    REQUIRE(goap_builder_add_action(b, &ad, NULL) == GOAP_OK);
  }
  goap_domain *d = NULL;
  REQUIRE(goap_builder_build(b, &d) == GOAP_OK);
  goap_builder_destroy(b);
  goap_planner *p = NULL;
  REQUIRE(goap_planner_create(d, NULL, &p) == GOAP_OK);
  goap_word start[2];
  goap_state_init(d, start);
  goap_state_set(d, start, 0, 1);
  goap_cond want = {3, GOAP_EQ, 1};
  goap_request rq;
  memset(&rq, 0, sizeof rq);
  rq.start = start;
  rq.want = &want;
  rq.want_count = 1;
  int32_t plan[8];
  goap_result res;
  memset(&res, 0, sizeof res);
  res.plan = plan;
  res.plan_capacity = 8;
  CHECK_EQ_INT(goap_plan(p, &rq, &res), GOAP_OK); /* s0, s1 (b64, in word 1), s2 */
  CHECK_EQ_INT(res.plan_length, 3);
  CHECK_EQ_INT(p->small_search.run, 0); /* two words */
  goap_planner_destroy(p);
  goap_domain_destroy(d);
}

static goap_domain *chain(int L) {
  goap_builder *b = NULL;
  if (goap_builder_create(NULL, &b) != GOAP_OK) return NULL;
  char nm[16];
  for (int i = 0; i <= L; ++i) {
    goap_var_desc vd;
    memset(&vd, 0, sizeof vd);
    snprintf(nm, sizeof nm, "c%d", i);
    vd.name = nm;
    vd.type = GOAP_BOOL;
    goap_builder_add_var(b, &vd, NULL);
  }
  for (int i = 1; i <= L; ++i) {
    goap_cond pre = {i - 1, GOAP_EQ, 1};
    goap_effect eff = {i, GOAP_SET, 1};
    goap_action_desc ad;
    memset(&ad, 0, sizeof ad);
    snprintf(nm, sizeof nm, "step_%d", i);
    ad.name = nm;
    ad.cost = 1.0;
    ad.pre = &pre;
    ad.pre_count = 1;
    ad.eff = &eff;
    ad.eff_count = 1;
    goap_builder_add_action(b, &ad, NULL);
  }
  goap_domain *d = NULL;
  goap_builder_build(b, &d);
  goap_builder_destroy(b);
  return d;
}

/* The small search on a chain of 40: the plan, its statistics, a trace and a lazy request
 * (the general path: small mode has no trace hooks), and no allocation once warm. */
static void count_trace(void *user, const goap_trace_event *ev) {
  (void)ev;
  ++*(int *)user;
}

TEST(chain_plans_and_allocates_nothing_when_warm) {
  goap_domain *d = chain(40);
  REQUIRE(d != NULL);
  test_alloc ta = {0};
  goap_planner_desc pd;
  memset(&pd, 0, sizeof pd);
  pd.allocator = test_alloc_hook(&ta);
  pd.initial_nodes = 8; /* grows once on the first request */
  goap_planner *p = NULL;
  REQUIRE(goap_planner_create(d, &pd, &p) == GOAP_OK);
  goap_word start[1];
  goap_state_init(d, start);
  goap_state_set(d, start, 0, 1);
  int32_t plan[64];
  goap_result res;
  memset(&res, 0, sizeof res);
  res.plan = plan;
  res.plan_capacity = 64;
  for (int round = 0; round < 3; ++round) {
    if (round == 1) ta.calls = 0;
    for (int k = 0; k < 8; ++k) {
      goap_cond want[2] = {{40, GOAP_EQ, 1}, {k + 1, GOAP_EQ, 1}};
      goap_request rq;
      memset(&rq, 0, sizeof rq);
      rq.start = start;
      rq.want = want;
      rq.want_count = 2;
      CHECK_EQ_INT(goap_plan(p, &rq, &res), GOAP_OK);
      CHECK_EQ_INT(p->small_search.run, 1);
      CHECK_EQ_INT(res.plan_length, 40);
      CHECK_EQ_INT(res.stats.expanded, 40);
      CHECK_EQ_INT(res.stats.nodes, 41);
      for (int i = 0; i < 40 && i < res.plan_length; ++i) CHECK_EQ_INT(plan[i], i);
    }
  }
  CHECK_EQ_INT(ta.calls, 0);
  goap_cond want = {40, GOAP_EQ, 1};
  goap_request rq;
  memset(&rq, 0, sizeof rq);
  rq.start = start;
  rq.want = &want;
  rq.want_count = 1;
  int events = 0;
  goap_planner_set_trace(p, count_trace, &events);
  CHECK_EQ_INT(goap_plan(p, &rq, &res), GOAP_OK);
  CHECK_EQ_INT(p->small_search.run, 0);
  CHECK(events > 40);
  goap_planner_set_trace(p, NULL, NULL);
  rq.flags = GOAP_REQUEST_LAZY;
  CHECK_EQ_INT(goap_plan(p, &rq, &res), GOAP_OK);
  CHECK_EQ_INT(p->small_search.run, 0);
  CHECK_EQ_INT(res.plan_length, 40);
  rq.flags = 0;
  CHECK_EQ_INT(goap_plan(p, &rq, &res), GOAP_OK);
  CHECK_EQ_INT(p->small_search.run, 1);
  goap_planner_destroy(p);
  CHECK_EQ_INT(ta.outstanding, 0);
  CHECK_EQ_INT(ta.bad_old_size, 0);
  goap_domain_destroy(d);
}

/* A memory budget met in the middle of a small search: the same status and partial plan as
 * the general path. */
TEST(memory_limit_as_general_path) {
  goap_domain *d = chain(60);
  REQUIRE(d != NULL);
  goap_planner_desc pd;
  memset(&pd, 0, sizeof pd);
  pd.initial_nodes = 4;
  goap_planner *pg = NULL;
  REQUIRE(goap_planner_create(d, &pd, &pg) == GOAP_OK);
  pd.max_memory = pg->memory + 2048; /* room for a few doublings, not for 61 nodes */
  goap_planner_destroy(pg);
  goap_planner *ps = NULL;
  REQUIRE(goap_planner_create(d, &pd, &ps) == GOAP_OK);
  REQUIRE(goap_planner_create(d, &pd, &pg) == GOAP_OK);
  REQUIRE(ps != NULL && pg != NULL);
  pg->small_search.never = 1;
  goap_word start[1];
  goap_state_init(d, start);
  goap_state_set(d, start, 0, 1);
  goap_cond want = {60, GOAP_EQ, 1};
  goap_request rq;
  memset(&rq, 0, sizeof rq);
  rq.start = start;
  rq.want = &want;
  rq.want_count = 1;
  outcome a, b;
  run(ps, &rq, 0, &a);
  run(pg, &rq, 0, &b);
  CHECK_EQ_INT(a.ran_small, 1);
  CHECK_EQ_INT(a.st, GOAP_MEMORY_LIMIT);
  CHECK(same(&a, &b));
  CHECK_EQ_INT(a.res.partial, 1);
  goap_planner_destroy(ps);
  goap_planner_destroy(pg);
  goap_domain_destroy(d);
}

TEST_MAIN(TEST_ENTRY(same_results_as_general_path), TEST_ENTRY(not_used_where_it_does_not_fit),
          TEST_ENTRY(chain_plans_and_allocates_nothing_when_warm),
          TEST_ENTRY(memory_limit_as_general_path))
