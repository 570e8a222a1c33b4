/*
 * test_lmcut.c -- the mechanisms that make LM-cut evaluations cheap (src/core/lmcut.c):
 *  - equal conditions of different actions and of the goal share one condition fact;
 *  - a condition that holds in the evaluated state is a fact of the state (its auxiliary
 *    operators are disabled), so the value must not depend on which conditions hold there
 *    beyond what the task says;
 *  - the bucket queue (whole costs) and the binary heap (any costs) both give admissible
 *    values between hmax and the optimum on random int/bool tasks, and each is really used;
 *  - each cut found from the zone's side (backwards, the default) is the cut found by the
 *    forward search of its definition: the values are identical;
 *  - the incremental steps (the hmax update after each cut, the justification graph kept
 *    between runs with only fired operators' choices counting, the bucket queue that skips
 *    stale entries and is emptied when a run stops early) leave
 *    the hmax values and the graph a from-scratch fixpoint gives, after every run of every
 *    evaluation of a sequence of states on one planner, and each value equals that of a
 *    fresh planner evaluating only that state (also right after an evaluation that stopped
 *    early, its queue emptied mid-run).
 * The optimum of each random state comes from a second planner (A* with the zero heuristic).
 */
#include <goap/goap.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/planner.h"
#include "test.h"

static int add_var(goap_builder *b, const char *name, goap_var_type type, int lo, int hi,
                   int def) {
  goap_var_desc v;
  memset(&v, 0, sizeof v);
  v.name = name;
  v.type = type;
  v.lo = lo;
  v.hi = hi;
  v.has_default = 1;
  v.default_value = def;
  int id = -1;
  goap_builder_add_var(b, &v, &id);
  return id;
}

static void add_act(goap_builder *b, const char *name, double cost, const goap_cond *pre,
                    int npre, const goap_effect *eff, int neff) {
  goap_action_desc a;
  memset(&a, 0, sizeof a);
  a.name = name;
  a.cost = cost;
  a.pre = pre;
  a.pre_count = npre;
  a.eff = eff;
  a.eff_count = neff;
  if (goap_builder_add_action(b, &a, NULL) != GOAP_OK)
    fprintf(stderr, "add_action %s: %s\n", name, goap_builder_error(b)->message);
}

static int begin_lmcut(goap_planner *p, const goap_word *start, const goap_cond *want, int n) {
  goap_request r;
  memset(&r, 0, sizeof r);
  r.start = start;
  r.want = want;
  r.want_count = n;
  r.heuristic = GOAP_H_LMCUT;
  return goap_plan_begin(p, &r) == GOAP_IN_PROGRESS;
}

/* Eight actions test `coins >= 2` (and the goal too): one condition fact, not nine. Each
 * spends 2 coins and sets its own flag; `work` earns 1 coin for cost 1. Goal: flag0 and
 * coins >= 2. With 3 coins, buy0 then work twice costs 1 + 2 = 3, and LM-cut is at least
 * buy0's cost 1 (hmax) and at most 3. */
TEST(lmcut_equal_conditions_share_a_fact) {
  goap_builder *b = NULL;
  REQUIRE(goap_builder_create(NULL, &b) == GOAP_OK);
  int coins = add_var(b, "coins", GOAP_INT, 0, 9, 3);
  int flag[8];
  char name[16];
  for (int i = 0; i < 8; ++i) {
    snprintf(name, sizeof name, "flag%d", i);
    flag[i] = add_var(b, name, GOAP_BOOL, 0, 1, 0);
  }
  goap_cond rich = {coins, GOAP_GE, 2};
  for (int i = 0; i < 8; ++i) {
    goap_effect e[2] = {{flag[i], GOAP_SET, 1}, {coins, GOAP_ADD, -2}};
    snprintf(name, sizeof name, "buy%d", i);
    add_act(b, name, 1.0, &rich, 1, e, 2);
  }
  goap_effect earn = {coins, GOAP_ADD, 1};
  add_act(b, "work", 1.0, NULL, 0, &earn, 1);
  goap_domain *d = NULL;
  REQUIRE(goap_builder_build(b, &d) == GOAP_OK);
  goap_planner *p = NULL;
  REQUIRE(goap_planner_create(d, NULL, &p) == GOAP_OK);
  goap_cond want[2] = {{flag[0], GOAP_EQ, 1}, {coins, GOAP_GE, 2}};
  REQUIRE(begin_lmcut(p, NULL, want, 2));
  /* coins >= 2 (the actions' tests, the goal's) is one fact; the range tests of the ADDs
   * (coins >= 2 again for -2, coins <= 8 for +1) are no more than one other */
  CHECK(p->lm.ncond_facts <= 2);
  goap_word s[4];
  goap_state_init(d, s);
  double lm = goap__lmcut_eval(p, s), hmax = goap__relax_eval(p, s, 0);
  CHECK(lm >= hmax - 1e-9);
  CHECK(lm >= 1.0 - 1e-9 && lm <= 3.0 + 1e-9);
  /* with 1 coin the test fails in the state: work must come first */
  goap_state_set(d, s, coins, 1);
  lm = goap__lmcut_eval(p, s);
  CHECK(lm >= 2.0 - 1e-9 && lm <= 4.0 + 1e-9); /* work, buy0, work (3) is optimal */
  goap_planner_destroy(p);
  goap_domain_destroy(d);
  goap_builder_destroy(b);
}

/* ---- random tasks ------------------------------------------------------------------------- */

typedef struct rng {
  uint64_t s;
} rng;

static uint32_t rnd(rng *r, uint32_t n) {
  r->s = r->s * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)((r->s >> 33) % n);
}

#define NB 4
#define NI 2
#define NACT 9

typedef struct rtask {
  goap_domain *d;
  goap_planner *p, *ref;
  goap_cond want[3];
  int nwant;
} rtask;

/* A random task of NB bools and NI ints in [0, 4] with NACT actions; whole costs (0 to 4)
 * when `whole`, else costs with halves and quarters. */
static int rtask_make(rtask *t, uint64_t seed, int whole) {
  rng r = {seed * 2654435761u + 17u};
  goap_builder *b = NULL;
  if (goap_builder_create(NULL, &b) != GOAP_OK) return 0;
  int var[NB + NI];
  char name[16];
  for (int i = 0; i < NB; ++i) {
    snprintf(name, sizeof name, "b%d", i);
    var[i] = add_var(b, name, GOAP_BOOL, 0, 1, (int)rnd(&r, 2));
  }
  for (int i = 0; i < NI; ++i) {
    snprintf(name, sizeof name, "i%d", i);
    var[NB + i] = add_var(b, name, GOAP_INT, 0, 4, (int)rnd(&r, 5));
  }
  static const double frac[] = {0.25, 0.5, 1.0, 1.5, 2.75};
  for (int a = 0; a < NACT; ++a) {
    goap_cond pre[3];
    goap_effect eff[3];
    int np = (int)rnd(&r, 3), ne = 1 + (int)rnd(&r, 2);
    for (int k = 0; k < np; ++k) {
      int v = (int)rnd(&r, NB + NI);
      if (v < NB) {
        pre[k] = (goap_cond){var[v], GOAP_EQ, (int32_t)rnd(&r, 2)};
      } else {
        static const goap_op ops[] = {GOAP_EQ, GOAP_NE, GOAP_LE, GOAP_GE, GOAP_LT, GOAP_GT};
        pre[k] = (goap_cond){var[v], ops[rnd(&r, 6)], (int32_t)rnd(&r, 5)};
      }
    }
    for (int k = 0; k < ne; ++k) {
      int v = (int)rnd(&r, NB + NI);
      if (v < NB) eff[k] = (goap_effect){var[v], GOAP_SET, (int32_t)rnd(&r, 2)};
      else if (rnd(&r, 2)) eff[k] = (goap_effect){var[v], GOAP_SET, (int32_t)rnd(&r, 5)};
      else eff[k] = (goap_effect){var[v], GOAP_ADD, rnd(&r, 2) ? 1 : -1};
    }
    /* one effect per variable */
    if (ne == 2 && eff[0].var == eff[1].var) ne = 1;
    double cost = whole ? (double)rnd(&r, 5) : frac[rnd(&r, 5)];
    snprintf(name, sizeof name, "a%d", a);
    add_act(b, name, cost, pre, np, eff, ne);
  }
  t->nwant = 1 + (int)rnd(&r, 3);
  for (int k = 0; k < t->nwant; ++k) {
    int v = (int)rnd(&r, NB + NI);
    t->want[k] = v < NB ? (goap_cond){var[v], GOAP_EQ, (int32_t)rnd(&r, 2)}
                        : (goap_cond){var[v], GOAP_GE, (int32_t)rnd(&r, 5)};
  }
  goap_status st = goap_builder_build(b, &t->d);
  goap_builder_destroy(b);
  if (st != GOAP_OK) return 0;
  goap_planner_create(t->d, NULL, &t->p);
  goap_planner_create(t->d, NULL, &t->ref);
  return t->p && t->ref;
}

static void rtask_free(rtask *t) {
  goap_planner_destroy(t->p);
  goap_planner_destroy(t->ref);
  goap_domain_destroy(t->d);
}

/* The optimal cost from s (GOAP__INF when there is no plan). */
static double optimum(rtask *t, const goap_word *s) {
  goap_request r;
  memset(&r, 0, sizeof r);
  r.start = s;
  r.want = t->want;
  r.want_count = t->nwant;
  r.heuristic = GOAP_H_ZERO;
  int32_t plan[64];
  goap_result res;
  memset(&res, 0, sizeof res);
  res.plan = plan;
  res.plan_capacity = 64;
  goap_status st = goap_plan(t->ref, &r, &res);
  return st == GOAP_OK ? res.cost : GOAP__INF;
}

/* Random states of random tasks: hmax <= LM-cut <= optimum with the bucket queue and with the
 * heap; returns the number of states checked and counts those where each queue ran. */
static int random_states(int whole, long *checked, long *with_buckets, long *with_heap,
                         long *strict, unsigned long *backward) {
  int failed = 0;
  for (uint64_t seed = 1; seed <= 150; ++seed) {
    rtask t;
    memset(&t, 0, sizeof t);
    if (!rtask_make(&t, seed + (whole ? 0u : 100000u), whole)) {
      rtask_free(&t);
      continue;
    }
    goap_word s[4];
    rng r = {seed ^ 0x9e3779b97f4a7c15ull};
    for (int k = 0; k < 8 && !failed; ++k) {
      goap_state_init(t.d, s);
      for (int v = 0; v < NB + NI; ++v) goap_state_set(t.d, s, v, (int32_t)rnd(&r, v < NB ? 2 : 5));
      double opt = optimum(&t, s);
      if (!begin_lmcut(t.p, s, t.want, t.nwant)) continue; /* e.g. the goal can never hold */
      double hmax = goap__relax_eval(t.p, s, 0);
      t.p->lm.heap_only = 0;
      double lb = goap__lmcut_eval(t.p, s);
      *with_buckets += t.p->lm.use_buckets;
      t.p->lm.heap_only = 1;
      double lh = goap__lmcut_eval(t.p, s);
      *with_heap += !t.p->lm.use_buckets;
      /* the forward cut search finds the same cuts, so the same values */
      t.p->lm.forward_cut = 1;
      double lhf = goap__lmcut_eval(t.p, s);
      t.p->lm.heap_only = 0;
      double lbf = goap__lmcut_eval(t.p, s);
      t.p->lm.forward_cut = 2;
      t.p->lm.cut_mismatch = 0;
      unsigned long nback = t.p->lm.nback;
      double l2 = goap__lmcut_eval(t.p, s);
      *backward += t.p->lm.nback - nback;
      t.p->lm.forward_cut = 0;
      if (lhf != lh || lbf != lb || l2 != lb || t.p->lm.cut_mismatch != 0) {
        fprintf(stderr, "seed %llu state %d: backward cuts %g %g, forward cuts %g %g, "
                "%lu different cut operators\n", (unsigned long long)seed, k, lb, lh, lbf, lhf,
                t.p->lm.cut_mismatch);
        failed = 1;
      }
      *strict += lb > hmax + 1e-9;
      for (int q = 0; q < 2; ++q) {
        double lm = q ? lh : lb;
        int bad = lm + 1e-9 < hmax || (lm >= GOAP__INF ? opt < GOAP__INF : lm > opt + 1e-9);
        if (bad) {
          fprintf(stderr, "seed %llu state %d (%s costs, %s): hmax %g lmcut %g optimum %g\n",
                  (unsigned long long)seed, k, whole ? "whole" : "fractional",
                  q ? "heap" : "buckets", hmax, lm, opt);
          failed = 1;
        }
      }
      ++*checked;
    }
    rtask_free(&t);
    if (failed) break;
  }
  return failed;
}

TEST(lmcut_bucket_queue_and_heap_admissible) {
  long checked = 0, buckets = 0, heap = 0, strict = 0;
  unsigned long backward = 0;
  CHECK(!random_states(1, &checked, &buckets, &heap, &strict, &backward));
  CHECK(checked > 500);
  CHECK(buckets == checked && heap == checked); /* whole costs: buckets unless told not to */
  long checked2 = 0, buckets2 = 0, heap2 = 0;
  CHECK(!random_states(0, &checked2, &buckets2, &heap2, &strict, &backward));
  CHECK(checked2 > 500);
  CHECK(buckets2 < checked2 && heap2 == checked2); /* fractional costs take the heap */
  CHECK(strict > 0);   /* the cuts matter: LM-cut above hmax somewhere */
  CHECK(backward > 0); /* and some needed the backward search */
  printf("lmcut: %ld + %ld states checked (buckets on %ld, above hmax on %ld, %lu backward "
         "searches)\n", checked, checked2, buckets, strict, backward);
}

/* One planner evaluates a sequence of random states (what an evaluation leaves behind is
 * reused by the next); lm.verify compares hmax and the justification graph after the first
 * hmax and after each incremental update with a from-scratch fixpoint, and each value must
 * equal that of a fresh planner that evaluates only that state. Starting again from the
 * state's own landmarks (a complete cost partition) must give the same value. */
static int incremental_states(int whole, unsigned long *runs, long *checked, long *cuts,
                              long *partial) {
  int failed = 0;
  for (uint64_t seed = 1; seed <= 120 && !failed; ++seed) {
    rtask t;
    memset(&t, 0, sizeof t);
    goap_planner *fresh = NULL;
    if (!rtask_make(&t, seed + (whole ? 500000u : 600000u), whole)) {
      rtask_free(&t);
      continue;
    }
    goap_word s[4];
    rng r = {seed * 0x2545f4914f6cdd1dull + 3u};
    goap_state_init(t.d, s);
    if (!begin_lmcut(t.p, s, t.want, t.nwant)) {
      rtask_free(&t);
      continue;
    }
    t.p->lm.verify = 1;
    for (int k = 0; k < 30 && !failed; ++k) {
      for (int v = 0; v < NB + NI; ++v) goap_state_set(t.d, s, v, (int32_t)rnd(&r, v < NB ? 2 : 5));
      unsigned long bad = t.p->lm.verify_mismatch, nr = t.p->lm.verify_runs;
      /* first an evaluation that stops early (its queue emptied mid-run), every other state */
      if (k % 2) {
        t.p->lm.stop_on = 1;
        t.p->lm.stop = (double)(k % 4);
        (void)goap__lmcut_eval(t.p, s);
        *partial += t.p->lm.partial;
        t.p->lm.stop_on = 0;
        nr = t.p->lm.verify_runs;
      }
      double h = goap__lmcut_eval(t.p, s);
      if (t.p->lm.verify_runs > nr) *cuts += (long)(t.p->lm.verify_runs - nr) - 1; /* updates */
      /* from the state's own landmarks: every cut is there, nothing is left to find */
      int32_t own[256];
      size_t n = t.p->lm.nlandmarks;
      double h2 = h;
      if (h < GOAP__INF && !t.p->lm.landmarks_over && n <= 256) {
        memcpy(own, t.p->lm.landmarks, n * sizeof *own);
        t.p->lm.start_landmarks = own;
        t.p->lm.nstart_landmarks = n;
        h2 = goap__lmcut_eval(t.p, s);
        t.p->lm.start_landmarks = NULL;
      }
      goap_planner_create(t.d, NULL, &fresh);
      double hf = -1.0;
      if (fresh && begin_lmcut(fresh, s, t.want, t.nwant)) hf = goap__lmcut_eval(fresh, s);
      goap_planner_destroy(fresh);
      fresh = NULL;
      if (t.p->lm.verify_mismatch != bad || hf != h || fabs(h2 - h) > 1e-9) {
        fprintf(stderr, "seed %llu state %d (%s costs): %lu differences from the fixpoint, "
                "value %g, fresh planner %g, from its own landmarks %g\n",
                (unsigned long long)seed, k, whole ? "whole" : "fractional",
                t.p->lm.verify_mismatch - bad, h, hf, h2);
        failed = 1;
      }
      ++*checked;
    }
    *runs += t.p->lm.verify_runs;
    rtask_free(&t);
  }
  return failed;
}

TEST(lmcut_incremental_steps_match_a_fresh_computation) {
  unsigned long runs = 0;
  long checked = 0, cuts = 0, partial = 0;
  CHECK(!incremental_states(1, &runs, &checked, &cuts, &partial));
  long checked_whole = checked;
  CHECK(!incremental_states(0, &runs, &checked, &cuts, &partial));
  CHECK(partial > 100); /* evaluations that stopped early came before many of them */
  CHECK(checked_whole > 500 && checked - checked_whole > 500);
  CHECK(cuts > 1000);                /* many incremental updates were checked */
  CHECK(runs > (unsigned long)cuts); /* and the full hmax runs */
  printf("lmcut: %ld states, %ld updates, %lu runs checked against the fixpoint, %ld after an "
         "early stop\n", checked, cuts, runs, partial);
}

TEST_MAIN(TEST_ENTRY(lmcut_equal_conditions_share_a_fact),
          TEST_ENTRY(lmcut_bucket_queue_and_heap_admissible),
          TEST_ENTRY(lmcut_incremental_steps_match_a_fresh_computation))
