/*
 * test_trace.c -- search traces (goap_planner_set_trace): the events agree with goap_stats,
 * the parents form a tree, the plan is a path in it, a node's state is its parent's with the
 * action applied, and tracing changes neither the plan nor the statistics.
 */
#include <goap/file.h>
#include <goap/goap.h>
#include <stdlib.h>
#include <string.h>

#include "core/planner.h" /* sx_force: the successor index and the bitset, forced */
#include "test.h"

#define MAXN 200000

static int g_force; /* planner->sx_force for check_trace: 0 automatic, 1 index, 2 bitset */
static int g_sliced; /* check_trace plans the traced request one expansion per step */

typedef struct rec {
  size_t words;        /* words per recorded state */
  uint32_t nnew, nexp, ndup, nbetter, nlimit, ngoal;
  uint32_t goal;
  int order_ok;        /* NEW ids are 0, 1, 2, ... ; events name known nodes */
  int expand_ok;       /* an expanded node's parent/action/g are its latest ones */
  uint32_t *par;       /* latest parent per node */
  int32_t *act;        /* latest action per node */
  double *g;
  goap_word *states;   /* per node */
  uint32_t last_expanded;
} rec;

static void rec_init(rec *r, size_t words) {
  memset(r, 0, sizeof *r);
  r->words = words;
  r->order_ok = r->expand_ok = 1;
  r->goal = UINT32_MAX;
  r->last_expanded = UINT32_MAX;
  r->par = calloc(MAXN, sizeof *r->par);
  r->act = calloc(MAXN, sizeof *r->act);
  r->g = calloc(MAXN, sizeof *r->g);
  r->states = calloc(MAXN * words, sizeof *r->states);
}

static void rec_free(rec *r) {
  free(r->par);
  free(r->act);
  free(r->g);
  free(r->states);
}

static void on_event(void *user, const goap_trace_event *ev) {
  rec *r = user;
  switch (ev->kind) {
  case GOAP_TRACE_NEW:
    if (ev->node != r->nnew || ev->node >= MAXN || !ev->state) {
      r->order_ok = 0;
      return;
    }
    if (ev->parent != UINT32_MAX && ev->parent >= r->nnew) r->order_ok = 0;
    if ((ev->parent == UINT32_MAX) != (ev->action < 0)) r->order_ok = 0;
    r->par[ev->node] = ev->parent;
    r->act[ev->node] = ev->action;
    r->g[ev->node] = ev->g;
    memcpy(r->states + ev->node * r->words, ev->state, r->words * sizeof *ev->state);
    ++r->nnew;
    break;
  case GOAP_TRACE_DUPLICATE:
  case GOAP_TRACE_BETTER:
    if (ev->node >= r->nnew || !ev->state ||
        memcmp(ev->state, r->states + ev->node * r->words, r->words * sizeof *ev->state))
      r->order_ok = 0;
    if (ev->kind == GOAP_TRACE_DUPLICATE) {
      ++r->ndup;
      if (ev->g < r->g[ev->node]) r->order_ok = 0; /* a cheaper path must not be dropped */
    } else {
      ++r->nbetter;
      if (!(ev->g < r->g[ev->node])) r->order_ok = 0;
      r->par[ev->node] = ev->parent;
      r->act[ev->node] = ev->action;
      r->g[ev->node] = ev->g;
    }
    break;
  case GOAP_TRACE_LIMIT:
    ++r->nlimit;
    if (ev->state) r->order_ok = 0;
    break;
  case GOAP_TRACE_EXPAND:
  case GOAP_TRACE_GOAL:
    if (ev->node >= r->nnew || ev->parent != r->par[ev->node] ||
        ev->action != r->act[ev->node] || ev->g != r->g[ev->node])
      r->expand_ok = 0;
    if (ev->kind == GOAP_TRACE_EXPAND) {
      ++r->nexp;
      r->last_expanded = ev->node;
    } else {
      ++r->ngoal;
      r->goal = ev->node;
    }
    break;
  }
}

static goap_file *load(const char *text) {
  goap_file *f = NULL;
  goap_error diag;
  memset(&diag, 0, sizeof diag);
  if (goap_file_parse("test", text, strlen(text), NULL, &f, &diag) != GOAP_OK) return NULL;
  return f;
}

static goap_file *load_path(const char *path) {
  goap_file *f = NULL;
  goap_error diag;
  memset(&diag, 0, sizeof diag);
  if (goap_file_load(path, NULL, &f, &diag) != GOAP_OK) return NULL;
  return f;
}

/* Plans req with and without a trace and checks everything the trace promises. */
static void check_trace(int *test_failures_, const goap_domain *d, goap_request req,
                        int expect_found) {
  goap_planner *p = NULL;
  REQUIRE(goap_planner_create(d, NULL, &p) == GOAP_OK);
  p->sx_force = g_force;
  int32_t plan_a[256], plan_b[256];
  goap_result ra, rb;
  memset(&ra, 0, sizeof ra);
  memset(&rb, 0, sizeof rb);
  ra.plan = plan_a;
  ra.plan_capacity = 256;
  rb.plan = plan_b;
  rb.plan_capacity = 256;
  goap_status sa = goap_plan(p, &req, &ra); /* untraced */
  size_t W = goap_domain_state_words(d);
  int backward = req.search == GOAP_SEARCH_BACKWARD;
  rec r;
  rec_init(&r, backward ? 2 * W : W);
  goap_planner_set_trace(p, on_event, &r);
  goap_status sb;
  if (g_sliced) {
    sb = goap_plan_begin(p, &req);
    while (sb == GOAP_IN_PROGRESS) sb = goap_plan_step(p, 1, NULL);
    sb = goap_plan_finish(p, &rb);
  } else {
    sb = goap_plan(p, &req, &rb);
  }
  goap_planner_set_trace(p, NULL, NULL);
  CHECK_EQ_INT(sa, sb);
  CHECK_EQ_INT(expect_found, sb == GOAP_OK);
  /* the same plan and statistics with the trace on */
  CHECK_EQ_INT(ra.plan_length, rb.plan_length);
  for (int i = 0; i < ra.plan_length && i < rb.plan_length && i < 256; ++i)
    CHECK_EQ_INT(plan_a[i], plan_b[i]);
  CHECK_EQ_INT((long long)ra.stats.expanded, (long long)rb.stats.expanded);
  CHECK_EQ_INT((long long)ra.stats.generated, (long long)rb.stats.generated);
  CHECK_EQ_INT((long long)ra.stats.duplicates, (long long)rb.stats.duplicates);
  /* counts against the statistics */
  CHECK(r.order_ok);
  CHECK(r.expand_ok);
  CHECK_EQ_INT((long long)r.nexp, (long long)rb.stats.expanded);
  CHECK_EQ_INT((long long)r.nnew, (long long)rb.stats.nodes);
  CHECK_EQ_INT((long long)(r.nnew + r.ndup + r.nbetter + r.nlimit),
               (long long)rb.stats.generated);
  CHECK_EQ_INT((long long)(r.ndup + r.nbetter), (long long)rb.stats.duplicates);
  CHECK_EQ_INT(r.ngoal, sb == GOAP_OK ? 1 : 0);
  /* parents form a tree: every chain reaches a root within nnew steps */
  int cycles = 0;
  for (uint32_t n = 0; n < r.nnew; ++n) {
    uint32_t k = n, steps = 0;
    while (r.par[k] != UINT32_MAX && steps <= r.nnew) {
      k = r.par[k];
      ++steps;
    }
    cycles += steps > r.nnew;
  }
  CHECK_EQ_INT(cycles, 0);
  /* a NEW node's state is its parent's with the action applied (forward) */
  if (!backward) {
    goap_word *t = calloc(W, sizeof *t);
    int bad = 0;
    for (uint32_t n = 0; n < r.nnew && t; ++n) {
      if (r.par[n] == UINT32_MAX) continue;
      memcpy(t, r.states + r.par[n] * W, W * sizeof *t);
      if (goap_action_apply(d, t, r.act[n]) != GOAP_OK ||
          !goap_state_equal(d, t, r.states + n * W))
        bad++;
    }
    CHECK_EQ_INT(bad, 0);
    free(t);
  }
  /* the plan is the path from a root to the goal node (backward: from the goal node up) */
  if (sb == GOAP_OK) {
    int32_t path[256];
    int len = 0;
    for (uint32_t k = r.goal; k != UINT32_MAX && r.par[k] != UINT32_MAX && len < 256;
         k = r.par[k])
      path[len++] = r.act[k];
    CHECK_EQ_INT(len, rb.plan_length);
    for (int i = 0; i < len && i < rb.plan_length; ++i)
      CHECK_EQ_INT(backward ? path[i] : path[len - 1 - i], plan_b[i]);
  }
  rec_free(&r);
  goap_planner_destroy(p);
}

static goap_request scenario_request(const goap_file *f, const char *name, goap_word *start) {
  const goap_domain *d = goap_file_domain(f);
  goap_request req;
  memset(&req, 0, sizeof req);
  const goap_scenario *s = goap_file_scenario(f, goap_file_find_scenario(f, name));
  goap_state_init(d, start);
  if (s) {
    goap_state_assign(d, start, s->given, s->given_count);
    req.want = s->want;
    req.want_count = s->want_count;
  }
  req.start = start;
  return req;
}

TEST(soldier_all_searches) {
  goap_file *f = load_path(GOAP_EXAMPLES_DIR "/soldier.goap");
  REQUIRE(f);
  const goap_domain *d = goap_file_domain(f);
  goap_word start[8];
  const char *const scen[] = {"door_stuck", "armory_empty", "default"};
  const goap_search se[] = {GOAP_SEARCH_ASTAR, GOAP_SEARCH_BACKWARD, GOAP_SEARCH_WASTAR,
                            GOAP_SEARCH_GREEDY};
  const goap_heuristic he[] = {GOAP_H_DEFAULT, GOAP_H_ZERO, GOAP_H_ADD, GOAP_H_LMCUT};
  for (size_t i = 0; i < 3; ++i) {
    if (goap_file_find_scenario(f, scen[i]) < 0) continue;
    for (size_t j = 0; j < 4; ++j)
      for (size_t k = 0; k < 4; ++k) {
        goap_request req = scenario_request(f, scen[i], start);
        req.search = se[j];
        req.heuristic = he[k];
        check_trace(test_failures_, d, req, 1);
      }
  }
  goap_file_destroy(f);
}

/* Ints with ADD effects: many duplicates, reached more cheaply with a misleading heuristic. */
static const char counters[] =
    "domain counters\n"
    "var a: int 0..12\nvar b: int 0..12\nvar c: bool\n"
    "action inc_a\n  cost 1\n  eff a += 1\n"
    "action dec_a\n  cost 1\n  eff a -= 1\n"
    "action inc_b\n  cost 2\n  eff b += 1\n"
    "action big_a\n  cost 5\n  eff a += 3\n"
    "action flip\n  cost 1\n  pre a >= 5, b >= 3\n  eff c\n"
    "goal g\n  priority 1\n  want c, a == 9\n";

TEST(duplicates_and_reopening) {
  goap_file *f = load(counters);
  REQUIRE(f);
  const goap_domain *d = goap_file_domain(f);
  const goap_search se[] = {GOAP_SEARCH_ASTAR, GOAP_SEARCH_BACKWARD, GOAP_SEARCH_WASTAR,
                            GOAP_SEARCH_GREEDY};
  const goap_heuristic he[] = {GOAP_H_ZERO, GOAP_H_GOAL_COUNT, GOAP_H_ADD, GOAP_H_FF};
  int want_count = 0;
  const goap_cond *want = goap_domain_goal_want(d, 0, &want_count);
  for (size_t j = 0; j < 4; ++j)
    for (size_t k = 0; k < 4; ++k) {
      goap_request req;
      memset(&req, 0, sizeof req);
      req.want = want;
      req.want_count = want_count;
      req.search = se[j];
      req.heuristic = he[k];
      check_trace(test_failures_, d, req, 1);
    }
  goap_file_destroy(f);
}

TEST(node_limit_and_no_plan) {
  goap_file *f = load(counters);
  REQUIRE(f);
  const goap_domain *d = goap_file_domain(f);
  int want_count = 0;
  const goap_cond *want = goap_domain_goal_want(d, 0, &want_count);
  goap_request req;
  memset(&req, 0, sizeof req);
  req.want = want;
  req.want_count = want_count;
  req.heuristic = GOAP_H_ZERO;
  req.max_nodes = 20;
  check_trace(test_failures_, d, req, 0);
  req.search = GOAP_SEARCH_BACKWARD;
  check_trace(test_failures_, d, req, 0);
  /* no plan: a goal beyond every range is unreachable after a full search */
  goap_cond never[] = {{0, GOAP_GT, 12}};
  req.want = never;
  req.want_count = 1;
  req.max_nodes = 0;
  req.search = GOAP_SEARCH_ASTAR;
  check_trace(test_failures_, d, req, 0);
  goap_file_destroy(f);
}

/* The limit event is reported: with a budget the trace ends in a LIMIT. */
static void count_limit(void *user, const goap_trace_event *ev) {
  if (ev->kind == GOAP_TRACE_LIMIT) ++*(int *)user;
}

TEST(limit_event) {
  goap_file *f = load(counters);
  REQUIRE(f);
  const goap_domain *d = goap_file_domain(f);
  int want_count = 0, limits = 0;
  const goap_cond *want = goap_domain_goal_want(d, 0, &want_count);
  goap_planner *p = NULL;
  REQUIRE(goap_planner_create(d, NULL, &p) == GOAP_OK);
  goap_planner_set_trace(p, count_limit, &limits);
  goap_request req;
  memset(&req, 0, sizeof req);
  req.want = want;
  req.want_count = want_count;
  req.heuristic = GOAP_H_ZERO;
  req.max_nodes = 10;
  goap_result r;
  memset(&r, 0, sizeof r);
  CHECK_EQ_INT(goap_plan(p, &req, &r), GOAP_NODE_LIMIT);
  CHECK_EQ_INT(limits, 1);
  goap_planner_set_trace(NULL, count_limit, &limits); /* NULL planner: nothing */
  goap_planner_destroy(p);
  goap_file_destroy(f);
}

/* The forward successor generators forced (index, bitset) and sliced planning give the same
 * events' guarantees. */
TEST(index_bitset_sliced) {
  goap_file *f = load_path(GOAP_EXAMPLES_DIR "/soldier.goap");
  goap_file *c = load(counters);
  REQUIRE(f && c);
  goap_word start[8];
  int want_count = 0;
  const goap_cond *want = goap_domain_goal_want(goap_file_domain(c), 0, &want_count);
  for (int mode = 0; mode < 3; ++mode) {
    g_force = mode == 2 ? 0 : mode + 1;
    g_sliced = mode == 2;
    const goap_search se[] = {GOAP_SEARCH_ASTAR, GOAP_SEARCH_GREEDY, GOAP_SEARCH_BACKWARD};
    for (size_t j = 0; j < 3; ++j) {
      goap_request req = scenario_request(f, "door_stuck", start);
      req.search = se[j];
      check_trace(test_failures_, goap_file_domain(f), req, 1);
      memset(&req, 0, sizeof req);
      req.want = want;
      req.want_count = want_count;
      req.search = se[j];
      req.heuristic = GOAP_H_GOAL_COUNT;
      check_trace(test_failures_, goap_file_domain(c), req, 1);
    }
  }
  g_force = g_sliced = 0;
  goap_file_destroy(f);
  goap_file_destroy(c);
}

TEST_MAIN(TEST_ENTRY(soldier_all_searches), TEST_ENTRY(index_bitset_sliced), TEST_ENTRY(duplicates_and_reopening),
          TEST_ENTRY(node_limit_and_no_plan), TEST_ENTRY(limit_event))
