/*
 * bench_sched.c -- goap_bench_sched: many agents through the scheduler, and the village.
 *
 * 1. Soldiers: 10,000 requests over the five scenarios of examples/soldier.goap (cycled, each
 *    with its own start state), submitted to a goap_sched and collected; the time is from the
 *    first submit to the last result collected. Measured with a plain goap_plan loop on one
 *    planner (the baseline), the scheduler inline (0 threads), and 1 and 2 worker threads.
 *    Every result is checked against the scenario's expected cost.
 * 2. Village: every scenario of examples/village.goap, time per plan with forward A* and the
 *    default heuristic, A* with hmax, A* with lmcut and greedy with hff when the library has them
 *    (goap_heuristic_from_name), else "n/a". Optimal configurations must give the scenario's
 *    expected cost. A last column runs greedy hff with preferred operators and lazy
 *    evaluation (GOAP_REQUEST_PREFERRED | GOAP_REQUEST_LAZY); --greedy-only runs only the two
 *    greedy columns (for profiling). The column "astar/lmcut lazy" is A* with lmcut and
 *    GOAP_REQUEST_LAZY (optimal: checked against the expected cost); --lmcut-only runs only
 *    the two lmcut columns. Cells: time, cost (c), expansions (n), heuristic evaluations (e).
 *
 * --threads -1|1|2 runs only that scheduler configuration (-1: inline) after the baseline.
 * Times are medians over --reps runs (default 21 for soldiers, 5 for the village). Exit status
 * 0 when every check held, 1 otherwise, 2 on bad usage.
 */
#define _POSIX_C_SOURCE 200809L
#include <goap/file.h>
#include <goap/sched.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "bench_util.h"

#define SOLDIER_REQUESTS 10000

typedef struct soldier_set {
  const goap_domain *d;
  int nscen;
  goap_word start[8][4];
  const goap_scenario *scen[8];
} soldier_set;

static int failures;

/* One pass of the 10,000 requests through plain goap_plan: the baseline. */
static double soldiers_plain(const soldier_set *ss) {
  goap_planner *p = NULL;
  goap_planner_create(ss->d, NULL, &p);
  int32_t plan[16];
  double t0 = bench_now_ms();
  for (int i = 0; i < SOLDIER_REQUESTS; ++i) {
    int k = i % ss->nscen;
    goap_request req = {0};
    req.start = ss->start[k];
    req.want = ss->scen[k]->want;
    req.want_count = ss->scen[k]->want_count;
    goap_result res = {0};
    res.plan = plan;
    res.plan_capacity = 16;
    if (goap_plan(p, &req, &res) != GOAP_OK || res.cost != ss->scen[k]->expect_cost) {
      if (!failures) fprintf(stderr, "plain: scenario %d status %s cost %g\n", k, goap_status_name(res.status), res.cost);
      ++failures;
    }
  }
  double t = bench_now_ms() - t0;
  goap_planner_destroy(p);
  return t;
}

/* One pass through a scheduler (created and warmed up by the caller). */
static double soldiers_sched(const soldier_set *ss, goap_sched *s, goap_sched_result *out) {
  double t0 = bench_now_ms();
  goap_sched_collect(s, NULL, 0); /* releases the previous pass's results */
  for (int i = 0; i < SOLDIER_REQUESTS; ++i) {
    int k = i % ss->nscen;
    goap_request req = {0};
    req.start = ss->start[k];
    req.want = ss->scen[k]->want;
    req.want_count = ss->scen[k]->want_count;
    if (goap_sched_submit(s, ss->d, &req, (void *)(intptr_t)k, NULL) != GOAP_OK) ++failures;
  }
  goap_sched_frame(s, NULL); /* inline: plans everything here; threaded: no-op budget */
  goap_sched_wait(s, 0);
  int got = 0;
  while (got < SOLDIER_REQUESTS) {
    int n = goap_sched_collect(s, out, SOLDIER_REQUESTS);
    if (n <= 0) break;
    for (int i = 0; i < n; ++i) {
      const goap_scenario *sc = ss->scen[(intptr_t)out[i].tag];
      if (out[i].status != GOAP_OK || out[i].cost != sc->expect_cost) ++failures;
    }
    got += n;
  }
  double t = bench_now_ms() - t0;
  if (got != SOLDIER_REQUESTS) ++failures;
  return t;
}

static void bench_soldiers(const char *path, int reps, int only_threads) {
  goap_file *f = NULL;
  goap_error err;
  if (goap_file_load(path, NULL, &f, &err) != GOAP_OK) {
    fprintf(stderr, "goap_bench_sched: cannot load %s\n", path);
    ++failures;
    return;
  }
  soldier_set ss;
  memset(&ss, 0, sizeof ss);
  ss.d = goap_file_domain(f);
  ss.nscen = goap_file_scenario_count(f);
  if (ss.nscen > 8) ss.nscen = 8;
  for (int k = 0; k < ss.nscen; ++k) {
    ss.scen[k] = goap_file_scenario(f, k);
    goap_state_init(ss.d, ss.start[k]);
    goap_state_assign(ss.d, ss.start[k], ss.scen[k]->given, ss.scen[k]->given_count);
  }
  double *times = (double *)malloc((size_t)reps * sizeof *times);
  goap_sched_result *out = (goap_sched_result *)malloc(SOLDIER_REQUESTS * sizeof *out);
  if (!times || !out) exit(2);
  printf("soldiers: %d requests (the %d scenarios of %s, cycled), median of %d runs\n",
         SOLDIER_REQUESTS, ss.nscen, path, reps);
  soldiers_plain(&ss);
  for (int r = 0; r < reps; ++r) times[r] = soldiers_plain(&ss);
  double base = bench_median(times, reps);
  printf("  %-26s %8.3f ms  (%.3f us/request)\n", "goap_plan loop, 1 thread", base,
         base * 1e3 / SOLDIER_REQUESTS);
  static const int threads[] = {GOAP_SCHED_INLINE, 1, 2};
  double t1 = 0;
  for (int ti = 0; ti < 3; ++ti) {
    if (only_threads != 0 && threads[ti] != only_threads) continue;
    goap_sched_desc sd = {0};
    sd.threads = threads[ti];
    sd.queue_capacity = SOLDIER_REQUESTS;
    goap_sched *s = NULL;
    if (goap_sched_create(&sd, &s) != GOAP_OK) {
      ++failures;
      continue;
    }
    soldiers_sched(&ss, s, out); /* warm-up */
    for (int r = 0; r < reps; ++r) times[r] = soldiers_sched(&ss, s, out);
    double m = bench_median(times, reps);
    char label[64];
    if (threads[ti] < 0) snprintf(label, sizeof label, "scheduler, inline");
    else snprintf(label, sizeof label, "scheduler, %d thread%s", threads[ti],
                  threads[ti] > 1 ? "s" : "");
    printf("  %-26s %8.3f ms  (%.3f us/request)", label, m, m * 1e3 / SOLDIER_REQUESTS);
    if (threads[ti] == 1) t1 = m;
    if (threads[ti] == 2 && t1 > 0) printf("  speed-up over 1 thread: %.2fx", t1 / m);
    printf("\n");
    goap_sched_destroy(s);
  }
  free(out);
  free(times);
  goap_file_destroy(f);
}

/* Request flags of the next village_cell, and whether to skip the A* columns. */
static unsigned cell_flags;
static int greedy_only, lmcut_only;

/* Median time per plan of one scenario in one configuration; prints a table cell. */
static void village_cell(const goap_domain *d, goap_planner *p, const goap_scenario *sc,
                         goap_search search, int heuristic, int reps) {
  if (heuristic < 0 || (greedy_only && search != GOAP_SEARCH_GREEDY) ||
      (lmcut_only && heuristic != goap_heuristic_from_name("lmcut"))) {
    printf(" %27s", heuristic < 0 ? "n/a" : "-");
    return;
  }
  goap_word start[16];
  if (goap_domain_state_words(d) > 16) exit(2);
  goap_state_init(d, start);
  goap_state_assign(d, start, sc->given, sc->given_count);
  goap_request req = {0};
  req.start = start;
  req.want = sc->want;
  req.want_count = sc->want_count;
  req.search = search;
  req.heuristic = (goap_heuristic)heuristic;
  req.flags = cell_flags;
  int32_t plan[256];
  double *times = (double *)malloc((size_t)reps * sizeof *times);
  if (!times) exit(2);
  goap_result res = {0};
  for (int r = 0; r < reps; ++r) {
    memset(&res, 0, sizeof res);
    res.plan = plan;
    res.plan_capacity = 256;
    double t0 = bench_now_ms();
    goap_plan(p, &req, &res);
    times[r] = bench_now_ms() - t0;
  }
  double m = bench_median(times, reps);
  int optimal = goap_config_is_optimal(search, (goap_heuristic)heuristic);
  if (res.status != GOAP_OK ||
      (optimal && (sc->expect & GOAP_EXPECT_COST) && res.cost != sc->expect_cost))
    ++failures;
  char cell[64];
  if (res.status == GOAP_OK)
    snprintf(cell, sizeof cell, "%.3f ms c%g n%llu e%llu", m, res.cost,
             (unsigned long long)res.stats.expanded, (unsigned long long)res.stats.evaluated);
  else
    snprintf(cell, sizeof cell, "%s", goap_status_name(res.status));
  printf(" %27s", cell);
  free(times);
}

static void bench_village(const char *path, int reps) {
  goap_file *f = NULL;
  goap_error err;
  if (goap_file_load(path, NULL, &f, &err) != GOAP_OK) {
    fprintf(stderr, "goap_bench_sched: cannot load %s\n", path);
    ++failures;
    return;
  }
  const goap_domain *d = goap_file_domain(f);
  goap_planner *p = NULL;
  goap_planner_create(d, NULL, &p);
  int lmcut = goap_heuristic_from_name("lmcut");
  int hff = goap_heuristic_from_name("hff");
  printf("village: %d variables, %d actions; median ms per plan of %d runs "
         "(c: cost, n: expansions, e: evaluations)\n",
         goap_domain_var_count(d), goap_domain_action_count(d), reps);
  printf("  %-16s %27s %27s %27s %27s %27s %27s\n", "scenario", "astar/default", "astar/hmax",
         "astar/lmcut", "astar/lmcut lazy", "greedy/hff", "greedy/hff pref+lazy");
  for (int i = 0; i < goap_file_scenario_count(f); ++i) {
    const goap_scenario *sc = goap_file_scenario(f, i);
    printf("  %-16s", sc->name);
    fflush(stdout);
    village_cell(d, p, sc, GOAP_SEARCH_ASTAR, GOAP_H_DEFAULT, reps);
    fflush(stdout);
    village_cell(d, p, sc, GOAP_SEARCH_ASTAR, GOAP_H_MAX, reps);
    fflush(stdout);
    village_cell(d, p, sc, GOAP_SEARCH_ASTAR, lmcut, reps);
    fflush(stdout);
    cell_flags = GOAP_REQUEST_LAZY;
    village_cell(d, p, sc, GOAP_SEARCH_ASTAR, lmcut, reps);
    cell_flags = 0;
    fflush(stdout);
    village_cell(d, p, sc, GOAP_SEARCH_GREEDY, hff, reps);
    cell_flags = GOAP_REQUEST_PREFERRED | GOAP_REQUEST_LAZY;
    village_cell(d, p, sc, GOAP_SEARCH_GREEDY, hff, reps);
    cell_flags = 0;
    printf("\n");
  }
  goap_planner_destroy(p);
  goap_file_destroy(f);
}

int main(int argc, char **argv) {
  int reps = 21, vreps = 5, do_soldiers = 1, do_village = 1, only_threads = 0;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc) reps = atoi(argv[++i]);
    else if (strcmp(argv[i], "--village-reps") == 0 && i + 1 < argc) vreps = atoi(argv[++i]);
    else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) only_threads = atoi(argv[++i]);
    else if (strcmp(argv[i], "--soldiers-only") == 0) do_village = 0;
    else if (strcmp(argv[i], "--village-only") == 0) do_soldiers = 0;
    else if (strcmp(argv[i], "--greedy-only") == 0) do_soldiers = 0, greedy_only = 1;
    else if (strcmp(argv[i], "--lmcut-only") == 0) do_soldiers = 0, lmcut_only = 1;
    else {
      fprintf(stderr, "usage: goap_bench_sched [--reps N] [--village-reps N] [--threads -1|1|2] "
                      "[--soldiers-only | --village-only | --greedy-only | --lmcut-only]\n");
      return 2;
    }
  }
  if (reps < 1 || vreps < 1 || only_threads < -1 || only_threads > 2) return 2;
  if (do_soldiers) bench_soldiers(GOAP_EXAMPLES_DIR "/soldier.goap", reps, only_threads);
  if (do_village) bench_village(GOAP_EXAMPLES_DIR "/village.goap", vreps);
  if (failures) printf("FAILED: %d wrong or missing results\n", failures);
  return failures ? 1 : 0;
}
