/*
 * portfolio.h -- `goap pddl`'s deterministic portfolio: several optimal searches of one task
 * (A* + LM-cut and blind A*, each with its own planner), run side by side in threads or
 * interleaved in one thread, the answer taken from the one that needs the least counted work.
 *
 * The winner never depends on timing. Each runner counts its work in units from its search's
 * statistics (goap_plan_progress): w_expanded per expansion, w_generated per generated state,
 * w_evaluated per heuristic evaluation, all times `scale`; so a runner's work when its search
 * ends is a property of the task alone. The winner is the runner whose search ends with a plan or a proof that
 * there is none (GOAP_OK, GOAP_NO_PLAN) at the least work; ties go to the lower index. A
 * runner stops as soon as it cannot win (its work passed a finished runner's), or when its
 * own limits end it (then it is out). Threads and serial interleaving give the same winner,
 * whatever the speed of each thread (the test hook delay_us slows one runner down to show
 * it). Only the time limit (deadline_ms) can cut the confirmation short: a runner that has
 * finished is then taken even if another would have finished with less work.
 */
#ifndef GOAP_CLI_PORTFOLIO_H
#define GOAP_CLI_PORTFOLIO_H

#include <stdint.h>

#include "cli.h"

#define CLI_PORTFOLIO_MAX 4
/* threads mode: the default work units per runner interleaved in the calling thread before
 * any thread is started (a small task ends within them and starts none) */
#define CLI_PORTFOLIO_WARMUP 50000u

typedef enum cli_portfolio_mode {
  CLI_PORTFOLIO_OFF = 0,   /* one search (the first runner) */
  CLI_PORTFOLIO_THREADS,   /* one thread per runner */
  CLI_PORTFOLIO_SERIAL     /* one thread: the runner with the least work so far takes a slice */
} cli_portfolio_mode;

typedef struct cli_portfolio_runner {
  /* in */
  goap_planner *planner;   /* its own planner, created with its own allocator (threads) */
  goap_request req;        /* copied by begin */
  uint32_t w_expanded, w_generated, w_evaluated; /* work units per event (not all 0) */
  uint32_t scale;          /* multiplies the three (0: 1) */
  uint32_t slice;          /* expansions per goap_plan_step call, >= 1 */
  uint32_t delay_us;       /* test hook: sleep this long after every slice (0: none) */
  /* out */
  goap_status status;      /* its final status; GOAP_IN_PROGRESS when it was stopped first;
                            * GOAP_INVALID_OPERATION when never begun (runner 0 refused) */
  uint64_t work;           /* units counted when it ended or was stopped */
  uint64_t expanded;       /* expansions so far */
  int lost;                /* stopped because another finished with less work */
  double cpu_ms;           /* CPU time its slices took (the thread's clock; for reports) */
  cli_plan plan;           /* the winner's result (cli_finish_plan); others untouched */
} cli_portfolio_runner;

/* Runs runners[0..n) (1 <= n <= CLI_PORTFOLIO_MAX) and returns the winner's index (its status
 * and result in runners[w].status / .plan), or -1 when none finished: then runners[0].status
 * says why (a limit). deadline_ms: a CLOCK_MONOTONIC time in ms after which every runner
 * stops (0: none). warmup (threads mode): work units per runner run serially before any
 * thread starts (0: threads at once). Every runner's plan must be cli_plan_init'ed; the
 * caller frees them. */
int cli_portfolio_run(cli_portfolio_runner *runners, int n, cli_portfolio_mode mode,
                      double deadline_ms, uint64_t warmup);

/* CLOCK_MONOTONIC now, in milliseconds. */
double cli_portfolio_now_ms(void);

#endif
