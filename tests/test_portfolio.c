/*
 * test_portfolio.c -- the CLI's deterministic portfolio (tools/goap/portfolio.c): the winner
 * is the runner that ends with the least counted work (ties to the lower index), the same in
 * threads and serially, whatever the speed of each runner; a runner that cannot win is
 * stopped; a deadline stops all. Runs under ThreadSanitizer in CI (.ci/run).
 */
#include <goap/goap.h>
#include <goap/pddl.h>

#include "portfolio.h"
#include "test.h"

/* for the helpers, which are no TEST: a failed setup ends the program */
#define MUST(c)                                                                             \
  do {                                                                                      \
    if (!(c)) {                                                                             \
      fprintf(stderr, "%s:%d: setup failed: %s\n", __FILE__, __LINE__, #c);                 \
      abort();                                                                              \
    }                                                                                       \
  } while (0)

typedef struct fixture {
  goap_pddl_task *task;
  const goap_domain *d;
  const goap_symmetry *sym;
  goap_request lm, blind;
} fixture;

static void fixture_init(fixture *fx) {
  memset(fx, 0, sizeof *fx);
  goap_error err;
  MUST(goap_pddl_load(GOAP_TESTS_DIR "/pddl/gripper.pddl", GOAP_TESTS_DIR "/pddl/gripper-3.pddl",
                         NULL, &fx->task, &err) == GOAP_OK);
  fx->d = goap_pddl_domain(fx->task);
  MUST(goap_pddl_symmetry(fx->task, &fx->sym) == GOAP_OK);
  goap_request r;
  memset(&r, 0, sizeof r);
  r.start = goap_pddl_start(fx->task);
  r.want = goap_pddl_goal(fx->task, &r.want_count);
  r.search = GOAP_SEARCH_ASTAR;
  r.symmetry = fx->sym;
  r.flags = GOAP_REQUEST_STUBBORN;
  fx->blind = r;
  fx->blind.heuristic = GOAP_H_ZERO;
  fx->lm = r;
  fx->lm.heuristic = GOAP_H_LMCUT;
  fx->lm.flags |= GOAP_REQUEST_LAZY;
}

typedef struct outcome {
  int win;
  goap_status st;
  uint64_t work;
  double cost;
  int len;
  int32_t plan[64];
  int lost[2];
  uint64_t loser_work;
} outcome;

/* lm_scale / blind_scale multiply the two runners' work (the CLI's weights are 16 per LM-cut
 * evaluation + 1 per generated state, 1 per generated state for blind search) */
static outcome run(const fixture *fx, cli_portfolio_mode mode, uint64_t warmup, uint32_t lm_scale,
                   uint32_t blind_scale, uint32_t lm_delay, uint32_t blind_delay,
                   double deadline_ms) {
  cli_portfolio_runner r[2];
  memset(r, 0, sizeof r);
  MUST(goap_planner_create(fx->d, NULL, &r[0].planner) == GOAP_OK);
  MUST(goap_planner_create(fx->d, NULL, &r[1].planner) == GOAP_OK);
  r[0].req = fx->lm;
  r[0].w_generated = 1;
  r[0].w_evaluated = fx->lm.heuristic == GOAP_H_ZERO ? 0 : 16; /* the tie test: both blind */
  r[0].scale = lm_scale;
  r[0].slice = 1;
  r[0].delay_us = lm_delay;
  r[1].req = fx->blind;
  r[1].w_generated = 1;
  r[1].scale = blind_scale;
  r[1].slice = 2;
  r[1].delay_us = blind_delay;
  cli_plan_init(&r[0].plan);
  cli_plan_init(&r[1].plan);
  outcome o;
  memset(&o, 0, sizeof o);
  o.win = cli_portfolio_run(r, 2, mode, deadline_ms, warmup);
  if (o.win >= 0) {
    const goap_result *res = &r[o.win].plan.result;
    o.st = r[o.win].status;
    o.work = r[o.win].work;
    o.cost = res->cost;
    o.len = res->plan_length;
    for (int i = 0; i < o.len && i < 64; i++) o.plan[i] = res->plan[i];
    o.loser_work = r[1 - o.win].work;
  } else {
    o.st = r[0].plan.result.status;
  }
  o.lost[0] = r[0].lost;
  o.lost[1] = r[1].lost;
  cli_plan_free(&r[0].plan);
  cli_plan_free(&r[1].plan);
  goap_planner_destroy(r[0].planner);
  goap_planner_destroy(r[1].planner);
  return o;
}

static int same(const outcome *a, const outcome *b) {
  if (a->win != b->win || a->st != b->st || a->work != b->work || a->len != b->len) return 0;
  if (a->cost != b->cost) return 0;
  for (int i = 0; i < a->len; i++)
    if (a->plan[i] != b->plan[i]) return 0;
  return 1;
}

TEST(blind_wins_by_work_whatever_the_timing) {
  fixture fx;
  fixture_init(&fx);
  outcome ref = run(&fx, CLI_PORTFOLIO_SERIAL, 0, 1, 1, 0, 0, 0);
  CHECK_EQ_INT(ref.win, 1); /* gripper-3: 73 generated states blind, 402 units for LM-cut */
  CHECK_EQ_INT(ref.st, GOAP_OK);
  CHECK(ref.work == 73);
  CHECK(ref.cost == 9.0);
  CHECK(ref.lost[0] && !ref.lost[1]);
  CHECK(ref.loser_work >= ref.work);
  outcome t = run(&fx, CLI_PORTFOLIO_THREADS, 0, 1, 1, 0, 0, 0);
  CHECK(same(&ref, &t));
  /* blind search slowed down: LM-cut finishes first in time, yet loses by work */
  outcome slow_blind = run(&fx, CLI_PORTFOLIO_THREADS, 0, 1, 1, 0, 2000, 0);
  CHECK(same(&ref, &slow_blind));
  outcome slow_lm = run(&fx, CLI_PORTFOLIO_THREADS, 0, 1, 1, 2000, 0, 0);
  CHECK(same(&ref, &slow_lm));
  /* the default warm-up interleaves the whole search in the calling thread */
  outcome warm = run(&fx, CLI_PORTFOLIO_THREADS, CLI_PORTFOLIO_WARMUP, 1, 1, 0, 0, 0);
  CHECK(same(&ref, &warm));
  goap_pddl_destroy(fx.task);
}

TEST(lmcut_wins_with_heavier_blind_work) {
  fixture fx;
  fixture_init(&fx);
  outcome ref = run(&fx, CLI_PORTFOLIO_SERIAL, 0, 1, 24, 0, 0, 0);
  CHECK_EQ_INT(ref.win, 0);
  CHECK_EQ_INT(ref.st, GOAP_OK);
  CHECK(ref.work == 402); /* 50 generated + 16 x 22 evaluations */
  CHECK(ref.cost == 9.0);
  CHECK(!ref.lost[0] && ref.lost[1]);
  outcome t = run(&fx, CLI_PORTFOLIO_THREADS, 0, 1, 24, 0, 0, 0);
  CHECK(same(&ref, &t));
  outcome slow_lm = run(&fx, CLI_PORTFOLIO_THREADS, 0, 1, 24, 2000, 0, 0);
  CHECK(same(&ref, &slow_lm));
  outcome slow_blind = run(&fx, CLI_PORTFOLIO_THREADS, 0, 1, 24, 0, 2000, 0);
  CHECK(same(&ref, &slow_blind));
  goap_pddl_destroy(fx.task);
}

TEST(ties_go_to_the_first_runner) {
  fixture fx;
  fixture_init(&fx);
  /* blind search twice: equal work, the first runner wins, in both modes and slowed down */
  fx.lm = fx.blind;
  outcome s = run(&fx, CLI_PORTFOLIO_SERIAL, 0, 1, 1, 0, 0, 0);
  CHECK_EQ_INT(s.win, 0);
  CHECK(s.work == 73);
  outcome t = run(&fx, CLI_PORTFOLIO_THREADS, 0, 1, 1, 3000, 0, 0);
  CHECK_EQ_INT(t.win, 0);
  CHECK(same(&s, &t));
  goap_pddl_destroy(fx.task);
}

TEST(deadline_stops_every_runner) {
  fixture fx;
  fixture_init(&fx);
  double past = cli_portfolio_now_ms() - 1.0;
  outcome s = run(&fx, CLI_PORTFOLIO_SERIAL, 0, 1, 1, 0, 0, past);
  CHECK_EQ_INT(s.win, -1);
  CHECK_EQ_INT(s.st, GOAP_TIME_LIMIT);
  outcome t = run(&fx, CLI_PORTFOLIO_THREADS, 0, 1, 1, 0, 0, past);
  CHECK_EQ_INT(t.win, -1);
  CHECK_EQ_INT(t.st, GOAP_TIME_LIMIT);
  goap_pddl_destroy(fx.task);
}

TEST(off_runs_the_first_runner_alone) {
  fixture fx;
  fixture_init(&fx);
  outcome o = run(&fx, CLI_PORTFOLIO_OFF, 0, 1, 1, 0, 0, 0);
  CHECK_EQ_INT(o.win, 0);
  CHECK_EQ_INT(o.st, GOAP_OK);
  CHECK(o.cost == 9.0);
  goap_pddl_destroy(fx.task);
}

/* three runners (the API takes up to CLI_PORTFOLIO_MAX): the thread of runner 2 is started
 * while runner 1's thread already runs, so the check whether runner 2 still has work reads
 * runner 1's shared fields; threads and serial agree on the winner and the losers */
static int run3(const fixture *fx, cli_portfolio_mode mode, uint64_t *work, int lost[3]) {
  cli_portfolio_runner r[3];
  memset(r, 0, sizeof r);
  for (int i = 0; i < 3; i++) {
    MUST(goap_planner_create(fx->d, NULL, &r[i].planner) == GOAP_OK);
    r[i].req = i == 0 ? fx->lm : fx->blind;
    r[i].w_generated = 1;
    r[i].w_evaluated = i == 0 ? 16 : 0;
    r[i].scale = i == 2 ? 2 : 1; /* runner 2 is runner 1 at twice the units: it loses */
    r[i].slice = 1;
    cli_plan_init(&r[i].plan);
  }
  int win = cli_portfolio_run(r, 3, mode, 0, 0);
  *work = win >= 0 ? r[win].work : 0;
  for (int i = 0; i < 3; i++) {
    lost[i] = r[i].lost;
    cli_plan_free(&r[i].plan);
    goap_planner_destroy(r[i].planner);
  }
  return win;
}

TEST(three_runners_in_threads_and_serially) {
  fixture fx;
  fixture_init(&fx);
  for (int rep = 0; rep < 20; rep++) {
    uint64_t ws = 0, wt = 0;
    int ls[3], lt[3];
    CHECK_EQ_INT(run3(&fx, CLI_PORTFOLIO_SERIAL, &ws, ls), 1);
    CHECK(ws == 73);
    CHECK(ls[0] && !ls[1] && ls[2]);
    CHECK_EQ_INT(run3(&fx, CLI_PORTFOLIO_THREADS, &wt, lt), 1);
    CHECK(wt == 73);
    CHECK(lt[0] && !lt[1] && lt[2]);
  }
  goap_pddl_destroy(fx.task);
}

/* runner 0's request refused by begin: its answer stands at once, and the runners never begun
 * say so (GOAP_INVALID_OPERATION, no work) instead of keeping what the caller left there */
TEST(refused_first_runner_leaves_the_others_defined) {
  fixture fx;
  fixture_init(&fx);
  for (int mode = CLI_PORTFOLIO_THREADS; mode <= CLI_PORTFOLIO_SERIAL; mode++) {
    cli_portfolio_runner r[2];
    memset(r, 0xAB, sizeof r); /* garbage in the out fields */
    for (int i = 0; i < 2; i++) {
      MUST(goap_planner_create(fx.d, NULL, &r[i].planner) == GOAP_OK);
      r[i].req = fx.blind;
      r[i].w_expanded = r[i].w_evaluated = 0;
      r[i].w_generated = 1;
      r[i].scale = 1;
      r[i].slice = 1;
      r[i].delay_us = 0;
      cli_plan_init(&r[i].plan);
    }
    r[0].req.heuristic = (goap_heuristic)9999; /* refused by goap_plan_begin */
    CHECK_EQ_INT(cli_portfolio_run(r, 2, (cli_portfolio_mode)mode, 0, 0), -1);
    CHECK_EQ_INT(r[0].plan.result.status, GOAP_INVALID_ARGUMENT);
    CHECK_EQ_INT(r[1].status, GOAP_INVALID_OPERATION);
    CHECK(r[1].work == 0 && r[1].expanded == 0 && !r[1].lost);
    for (int i = 0; i < 2; i++) {
      cli_plan_free(&r[i].plan);
      goap_planner_destroy(r[i].planner);
    }
  }
  goap_pddl_destroy(fx.task);
}

TEST_MAIN(TEST_ENTRY(blind_wins_by_work_whatever_the_timing),
          TEST_ENTRY(lmcut_wins_with_heavier_blind_work), TEST_ENTRY(ties_go_to_the_first_runner),
          TEST_ENTRY(deadline_stops_every_runner), TEST_ENTRY(off_runs_the_first_runner_alone),
          TEST_ENTRY(three_runners_in_threads_and_serially),
          TEST_ENTRY(refused_first_runner_leaves_the_others_defined))
