/*
 * test_lazy_astar.c -- GOAP_REQUEST_LAZY with forward A* (deferred evaluation that stays
 * optimal): on every scenario of examples/village.goap, lazy A* with each admissible
 * heuristic returns the eager search's cost (and the scenario's expected one), evaluates no
 * more states (LM-cut: far fewer), keeps the trace consistent with the statistics, gives the
 * same plan sliced, and allocates nothing after a warm-up. Random-domain optimality against a
 * brute force is in test_property.c.
 */
#include <goap/file.h>
#include <goap/goap.h>
#include <goap/pddl.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/planner.h"
#include "alloc_hook.h"
#include "test.h"
#include "village_plan.h"

/* Lazy A* finds the optimal cost with every admissible heuristic; with LM-cut its cut bound
 * saves most evaluations (each option of lm_bound is still optimal). */
TEST(lazy_astar_is_optimal_on_the_village) {
  goap_file *f = test_load_village();
  REQUIRE(f != NULL);
  const goap_domain *d = goap_file_domain(f);
  goap_planner *p = NULL;
  REQUIRE(goap_planner_create(d, NULL, &p) == GOAP_OK);
  static const goap_heuristic hs[] = {GOAP_H_DEFAULT, GOAP_H_MAX, GOAP_H_LMCUT};
  int32_t buf[256];
  goap_result eager, lazy;
  uint64_t ev_eager = 0, ev_lazy[3] = {0, 0, 0};
  unsigned long part[3] = {0, 0, 0}; /* evaluations stopped early (planner.c, lm.stop) */
  for (int i = 0; i < goap_file_scenario_count(f); ++i) {
    const goap_scenario *sc = goap_file_scenario(f, i);
    for (int k = 0; k < 3; ++k) {
      if (hs[k] != GOAP_H_LMCUT && strcmp(sc->name, "iron_tools") == 0) continue; /* slow */
      CHECK_EQ_INT(test_plan_scenario(p, d, sc, GOAP_SEARCH_ASTAR, hs[k], 0, &eager, buf, 256),
                   GOAP_OK);
      CHECK_EQ_INT(test_plan_scenario(p, d, sc, GOAP_SEARCH_ASTAR, hs[k], GOAP_REQUEST_LAZY, &lazy,
                                      buf, 256),
                   GOAP_OK);
      CHECK_NEAR(lazy.cost, eager.cost, 1e-9);
      if (sc->expect & GOAP_EXPECT_COST) CHECK_NEAR(lazy.cost, sc->expect_cost, 1e-9);
      /* eager evaluates every stored state once; lazy at most the stored ones plus one
       * re-evaluation per expansion */
      CHECK(eager.stats.evaluated == eager.stats.nodes);
      CHECK(lazy.stats.evaluated <= (uint64_t)lazy.stats.nodes + lazy.stats.expanded);
      if (hs[k] != GOAP_H_LMCUT) continue;
      ev_eager += eager.stats.evaluated;
      for (int lb = 0; lb <= 2; ++lb) {
        p->lm_bound = lb;
        unsigned long np = p->lm.npartial;
        CHECK_EQ_INT(test_plan_scenario(p, d, sc, GOAP_SEARCH_ASTAR, GOAP_H_LMCUT,
                                        GOAP_REQUEST_LAZY, &lazy, buf, 256),
                     GOAP_OK);
        CHECK_NEAR(lazy.cost, eager.cost, 1e-9);
        part[lb] += p->lm.npartial - np;
        ev_lazy[lb] += lazy.stats.evaluated - (p->lm.npartial - np);
      }
      p->lm_bound = 2;
    }
  }
  printf("village, lmcut: %llu evaluations eager, lazy %llu (h - cost), %llu (cut bound), "
         "%llu (cut bound, re-evaluated); besides them, %lu, %lu, %lu stopped early\n",
         (unsigned long long)ev_eager, (unsigned long long)ev_lazy[0],
         (unsigned long long)ev_lazy[1], (unsigned long long)ev_lazy[2], part[0], part[1],
         part[2]);
  CHECK(ev_lazy[0] <= ev_eager);
  CHECK(2 * ev_lazy[1] < ev_eager);
  CHECK(3 * ev_lazy[2] < ev_eager);
  goap_planner_destroy(p);
  goap_file_destroy(f);
}

/* Lazy A* lets LM-cut stop once a popped state's bound passes the open list's next key (it
 * would be queued again anyway): the same optimal costs, and fewer LM-cut rounds (hmax runs)
 * over the village than with full evaluations. */
TEST(lmcut_stops_early_in_lazy_astar) {
  goap_file *f = test_load_village();
  REQUIRE(f != NULL);
  const goap_domain *d = goap_file_domain(f);
  goap_planner *p = NULL;
  REQUIRE(goap_planner_create(d, NULL, &p) == GOAP_OK);
  int32_t buf[256];
  goap_result full, stop;
  unsigned long rounds[2] = {0, 0}, partial = 0;
  for (int i = 0; i < goap_file_scenario_count(f); ++i) {
    const goap_scenario *sc = goap_file_scenario(f, i);
    p->lm_stop = 0;
    unsigned long r0 = p->lm.nrounds, np = p->lm.npartial;
    CHECK_EQ_INT(test_plan_scenario(p, d, sc, GOAP_SEARCH_ASTAR, GOAP_H_LMCUT, GOAP_REQUEST_LAZY,
                                    &full, buf, 256),
                 GOAP_OK);
    CHECK(p->lm.npartial == np); /* never stops early when told not to */
    rounds[0] += p->lm.nrounds - r0;
    p->lm_stop = 1;
    r0 = p->lm.nrounds;
    np = p->lm.npartial;
    CHECK_EQ_INT(test_plan_scenario(p, d, sc, GOAP_SEARCH_ASTAR, GOAP_H_LMCUT, GOAP_REQUEST_LAZY,
                                    &stop, buf, 256),
                 GOAP_OK);
    rounds[1] += p->lm.nrounds - r0;
    partial += p->lm.npartial - np;
    CHECK_NEAR(stop.cost, full.cost, 1e-9);
    if (sc->expect & GOAP_EXPECT_COST) CHECK_NEAR(stop.cost, sc->expect_cost, 1e-9);
  }
  printf("village, lazy lmcut: %lu rounds evaluating fully, %lu stopping early (%lu stops)\n",
         rounds[0], rounds[1], partial);
  CHECK(partial > 0);
  CHECK(rounds[1] < rounds[0]);
  goap_planner_destroy(p);
  goap_file_destroy(f);
}

/* Lazy A* starts a successor's LM-cut from the landmarks of its parent that the action does
 * not touch (planner.c, "inherited"): the same optimal costs with and without, with a ring so
 * small that records are overwritten (a fresh evaluation then), and far fewer LM-cut rounds.
 * A ring that starts as small but may double keeps the records (issue 18). */
TEST(lmcut_inherits_the_parents_landmarks) {
  goap_file *f = test_load_village();
  REQUIRE(f != NULL);
  const goap_domain *d = goap_file_domain(f);
  goap_planner *p = NULL, *tiny = NULL;
  REQUIRE(goap_planner_create(d, NULL, &p) == GOAP_OK);
  REQUIRE(goap_planner_create(d, NULL, &tiny) == GOAP_OK);
  goap_planner *grow = NULL;
  REQUIRE(goap_planner_create(d, NULL, &grow) == GOAP_OK);
  tiny->lm_ring.first_words = 64; /* a few records at most */
  tiny->lm_ring.max_words = 64;
  grow->lm_ring.first_words = 64; /* doubles as records come */
  int32_t buf[256];
  goap_result fresh, inh, small, grown;
  unsigned long rounds[2] = {0, 0};
  for (int i = 0; i < goap_file_scenario_count(f); ++i) {
    const goap_scenario *sc = goap_file_scenario(f, i);
    p->lm_inherit = 0;
    unsigned long r0 = p->lm.nrounds;
    CHECK_EQ_INT(test_plan_scenario(p, d, sc, GOAP_SEARCH_ASTAR, GOAP_H_LMCUT, GOAP_REQUEST_LAZY,
                                    &fresh, buf, 256),
                 GOAP_OK);
    rounds[0] += p->lm.nrounds - r0;
    p->lm_inherit = 1;
    r0 = p->lm.nrounds;
    CHECK_EQ_INT(test_plan_scenario(p, d, sc, GOAP_SEARCH_ASTAR, GOAP_H_LMCUT, GOAP_REQUEST_LAZY,
                                    &inh, buf, 256),
                 GOAP_OK);
    rounds[1] += p->lm.nrounds - r0;
    CHECK_EQ_INT(test_plan_scenario(tiny, d, sc, GOAP_SEARCH_ASTAR, GOAP_H_LMCUT, GOAP_REQUEST_LAZY,
                                    &small, buf, 256),
                 GOAP_OK);
    CHECK_EQ_INT(test_plan_scenario(grow, d, sc, GOAP_SEARCH_ASTAR, GOAP_H_LMCUT, GOAP_REQUEST_LAZY,
                                    &grown, buf, 256),
                 GOAP_OK);
    CHECK_NEAR(inh.cost, fresh.cost, 1e-9);
    CHECK_NEAR(small.cost, fresh.cost, 1e-9);
    CHECK_NEAR(grown.cost, fresh.cost, 1e-9);
    if (sc->expect & GOAP_EXPECT_COST) CHECK_NEAR(inh.cost, sc->expect_cost, 1e-9);
  }
  printf("village, lazy lmcut: %lu rounds fresh, %lu inheriting (%lu evaluations inherited, "
         "%lu with the tiny ring)\n", rounds[0], rounds[1], p->lm.ninherit, tiny->lm.ninherit);
  CHECK(2 * rounds[1] < rounds[0]);
  CHECK(p->lm.ninherit > tiny->lm.ninherit); /* the tiny ring loses records */
  CHECK(tiny->lm.ninherit > 0);
  CHECK(tiny->lm_ring.cap_ring == 64);
  CHECK(grow->lm_ring.cap_ring > 64);                              /* it doubled */
  CHECK(grow->lm.ninherit == p->lm.ninherit);          /* and lost no record */
  printf("village: the ring grew from 64 to %zu words\n", grow->lm_ring.cap_ring);

  goap_planner_destroy(grow);
  goap_planner_destroy(tiny);
  goap_planner_destroy(p);
  goap_file_destroy(f);
}

/* An evaluation that stopped early records its landmarks so far, and the node's next
 * evaluation goes on from them (issue 18). The village never evaluates a stopped node again
 * after a cut; IPC elevators p01 (from GOAP_PDDL_BENCH, the shared benchmarks: skipped when
 * absent) does, 143 times: the cost stays the listed optimum, 42, with and without. Its
 * records also make a ring that starts at 64 words grow past 32 Ki words, and a planner with
 * a 1.5 MiB memory limit stop at 32 Ki (an eighth of the limit at most). */
TEST(lmcut_goes_on_from_its_own_early_stop) {
  const char *bench = getenv("GOAP_PDDL_BENCH");
  char dom[1024], prob[1024];
  if (!bench || snprintf(dom, sizeof dom, "%s/elevators-opt08-strips/domain.pddl", bench) >=
                    (int)sizeof dom) {
    printf("skipped: GOAP_PDDL_BENCH is not set\n");
    return;
  }
  snprintf(prob, sizeof prob, "%s/elevators-opt08-strips/p01.pddl", bench);
  FILE *fp = fopen(prob, "r");
  if (!fp) {
    printf("skipped: %s not found\n", prob);
    return;
  }
  fclose(fp);
  goap_pddl_task *t = NULL;
  REQUIRE(goap_pddl_load(dom, prob, NULL, &t, NULL) == GOAP_OK);
  const goap_domain *d = goap_pddl_domain(t);
  int ng = 0;
  const goap_cond *goal = goap_pddl_goal(t, &ng);
  goap_planner *p = NULL;
  REQUIRE(goap_planner_create(d, NULL, &p) == GOAP_OK);
  /* a ring that starts tiny grows as far as the records need; under a memory limit, to an
   * eighth of it at most (the rest is the nodes') */
  goap_planner_desc cd;
  memset(&cd, 0, sizeof cd);
  cd.max_memory = (size_t)3 << 19; /* 1.5 MiB: the ring may take 48 Ki words, so 32 Ki */
  goap_planner *free_ring = NULL, *capped = NULL;
  REQUIRE(goap_planner_create(d, NULL, &free_ring) == GOAP_OK);
  REQUIRE(goap_planner_create(d, &cd, &capped) == GOAP_OK);
  free_ring->lm_ring.first_words = capped->lm_ring.first_words = 64;
  goap_planner *pl[4] = {p, p, free_ring, capped};
  static int32_t buf[256];
  double cost[4] = {0.0, 0.0, 0.0, 0.0};
  unsigned long resumed[4] = {0, 0, 0, 0};
  for (int k = 0; k < 4; ++k) {
    p->lm_inherit = k > 0; /* 0: every evaluation from scratch; else inherit and go on */
    goap_request req;
    memset(&req, 0, sizeof req);
    req.start = goap_pddl_start(t);
    req.want = goal;
    req.want_count = ng;
    req.search = GOAP_SEARCH_ASTAR;
    req.heuristic = GOAP_H_LMCUT;
    req.flags = GOAP_REQUEST_LAZY;
    goap_result res;
    memset(&res, 0, sizeof res);
    res.plan = buf;
    res.plan_capacity = 256;
    unsigned long r0 = pl[k]->lm_ring.resumed;
    CHECK_EQ_INT(goap_plan(pl[k], &req, &res), GOAP_OK);
    double vc = -1.0;
    int bad = -1;
    CHECK_EQ_INT(goap_plan_validate(d, req.start, goal, ng, buf, res.plan_length, &vc, &bad),
                 GOAP_OK);
    CHECK_NEAR(vc, res.cost, 1e-9);
    cost[k] = res.cost;
    resumed[k] = pl[k]->lm_ring.resumed - r0;
  }
  printf("elevators p01, lazy lmcut: %lu evaluations went on from their own early stop\n",
         resumed[1]);
  printf("elevators p01: the ring grew from 64 to %zu words, %zu under a 1.5 MiB limit\n",
         free_ring->lm_ring.cap_ring, capped->lm_ring.cap_ring);
  for (int k = 0; k < 4; ++k) CHECK_NEAR(cost[k], 42.0, 1e-9);
  CHECK(resumed[0] == 0);
  CHECK(resumed[1] > 0);
  CHECK(free_ring->lm_ring.cap_ring > ((size_t)1 << 15));
  CHECK(capped->lm_ring.cap_ring == ((size_t)1 << 15));
  goap_planner_destroy(capped);
  goap_planner_destroy(free_ring);
  goap_planner_destroy(p);
  goap_pddl_destroy(t);
}

typedef struct trace_rec {
  uint64_t news, expands, goals, bad_expand;
} trace_rec;

static void rec_trace(void *user, const goap_trace_event *ev) {
  trace_rec *t = (trace_rec *)user;
  if (ev->kind == GOAP_TRACE_NEW) ++t->news;
  if (ev->kind == GOAP_TRACE_EXPAND) {
    ++t->expands;
    if (!(ev->f == ev->g + ev->h)) ++t->bad_expand;
  }
  if (ev->kind == GOAP_TRACE_GOAL) ++t->goals;
}

/* The trace of a lazy A* search matches its statistics (re-queued nodes emit nothing), the
 * sliced search gives goap_plan's plan, and the request kinds without a forward search are
 * still refused. */
TEST(lazy_astar_trace_slicing_and_arguments) {
  goap_file *f = test_load_village();
  REQUIRE(f != NULL);
  const goap_domain *d = goap_file_domain(f);
  goap_planner *p = NULL;
  REQUIRE(goap_planner_create(d, NULL, &p) == GOAP_OK);
  int32_t buf[256], buf2[256];
  goap_result r1, r2;
  static trace_rec tr;
  for (int i = 0; i < goap_file_scenario_count(f); ++i) {
    const goap_scenario *sc = goap_file_scenario(f, i);
    memset(&tr, 0, sizeof tr);
    goap_planner_set_trace(p, rec_trace, &tr);
    CHECK_EQ_INT(test_plan_scenario(p, d, sc, GOAP_SEARCH_ASTAR, GOAP_H_LMCUT, GOAP_REQUEST_LAZY,
                                    &r1, buf, 256),
                 GOAP_OK);
    goap_planner_set_trace(p, NULL, NULL);
    CHECK(tr.expands == r1.stats.expanded);
    CHECK(tr.news == r1.stats.nodes);
    CHECK(tr.goals == 1);
    CHECK(tr.bad_expand == 0);
    /* the same without the trace */
    CHECK_EQ_INT(test_plan_scenario(p, d, sc, GOAP_SEARCH_ASTAR, GOAP_H_LMCUT, GOAP_REQUEST_LAZY,
                                    &r2, buf2, 256),
                 GOAP_OK);
    CHECK(r2.stats.expanded == r1.stats.expanded && r2.stats.evaluated == r1.stats.evaluated);
    /* sliced, two expansions at a time */
    goap_word start[16];
    goap_request req;
    test_scenario_request(d, sc, start, &req, GOAP_SEARCH_ASTAR, GOAP_H_LMCUT, GOAP_REQUEST_LAZY);
    goap_status st = goap_plan_begin(p, &req);
    while (st == GOAP_IN_PROGRESS) st = goap_plan_step(p, 2, NULL);
    CHECK_EQ_INT(st, GOAP_OK);
    memset(&r2, 0, sizeof r2);
    r2.plan = buf2;
    r2.plan_capacity = 256;
    CHECK_EQ_INT(goap_plan_finish(p, &r2), GOAP_OK);
    CHECK_EQ_INT(r2.plan_length, r1.plan_length);
    CHECK(memcmp(buf, buf2, (size_t)r1.plan_length * sizeof *buf) == 0);
    CHECK(r2.stats.evaluated == r1.stats.evaluated);
  }
  const goap_scenario *sc = goap_file_scenario(f, 0);
  goap_word start[16];
  goap_request req;
  test_scenario_request(d, sc, start, &req, GOAP_SEARCH_ASTAR, GOAP_H_LMCUT, GOAP_REQUEST_LAZY);
  req.search = GOAP_SEARCH_BACKWARD;
  CHECK_EQ_INT(goap_plan(p, &req, &r1), GOAP_INVALID_ARGUMENT);
  req.search = GOAP_SEARCH_ASTAR;
  req.flags = GOAP_REQUEST_LAZY | GOAP_REQUEST_PREFERRED;
  req.heuristic = GOAP_H_FF;
  CHECK_EQ_INT(goap_plan(p, &req, &r1), GOAP_INVALID_ARGUMENT);
  /* a node budget ends with a partial plan made of evaluated nodes */
  test_scenario_request(d, goap_file_scenario(f, goap_file_find_scenario(f, "iron_tools")), start,
                        &req, GOAP_SEARCH_ASTAR, GOAP_H_LMCUT, GOAP_REQUEST_LAZY);
  req.max_nodes = 40;
  memset(&r1, 0, sizeof r1);
  r1.plan = buf;
  r1.plan_capacity = 256;
  CHECK_EQ_INT(goap_plan(p, &req, &r1), GOAP_NODE_LIMIT);
  CHECK_EQ_INT(r1.partial, 1);
  CHECK(r1.plan_length > 0);
  goap_planner_destroy(p);
  goap_file_destroy(f);
}

/* After a first round, the same lazy A* requests allocate nothing. */
TEST(lazy_astar_allocates_nothing_after_warm_up) {
  goap_file *f = test_load_village();
  REQUIRE(f != NULL);
  const goap_domain *d = goap_file_domain(f);
  test_alloc c = {0};
  goap_planner_desc desc;
  memset(&desc, 0, sizeof desc);
  desc.allocator = test_alloc_hook(&c);
  goap_planner *p = NULL;
  REQUIRE(goap_planner_create(d, &desc, &p) == GOAP_OK);
  int32_t buf[256];
  goap_result res;
  for (int round = 0; round < 2; ++round) {
    size_t before = c.calls;
    for (int i = 0; i < goap_file_scenario_count(f); ++i)
      CHECK_EQ_INT(test_plan_scenario(p, d, goap_file_scenario(f, i), GOAP_SEARCH_ASTAR,
                                      GOAP_H_LMCUT, GOAP_REQUEST_LAZY, &res, buf, 256),
                   GOAP_OK);
    if (round == 1) CHECK_EQ_INT(c.calls - before, 0);
  }
  goap_planner_destroy(p);
  CHECK_EQ_INT(c.outstanding, 0);
  CHECK_EQ_INT(c.bad_old_size, 0);
  CHECK_EQ_INT(c.unknown_ptr, 0);
  goap_file_destroy(f);
}

TEST_MAIN(TEST_ENTRY(lazy_astar_is_optimal_on_the_village), TEST_ENTRY(lmcut_stops_early_in_lazy_astar),
          TEST_ENTRY(lmcut_inherits_the_parents_landmarks),
          TEST_ENTRY(lmcut_goes_on_from_its_own_early_stop),
          TEST_ENTRY(lazy_astar_trace_slicing_and_arguments),
          TEST_ENTRY(lazy_astar_allocates_nothing_after_warm_up))
