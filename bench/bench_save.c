/*
 * bench_save.c -- goap_bench_save: how fast agents are saved and restored (goap/save.h), and
 * how large their snapshots are, per example domain.
 *
 * The village agent: every action and goal of examples/village.goap (greedy search on hff),
 * from the `house` scenario's start state, updated until it runs the second action of its plan
 * (a goal, a plan, a running action, timers: a typical mid-game agent). Timed, --reps times
 * each (median over the reps of the mean over a batch of --batch calls, wall clock, and CPU
 * time of the thread):
 *  - snapshot: goap_agent_snapshot into a buffer;
 *  - restore: goap_agent_restore into a freshly created agent (the agents are created before
 *    the batch, and destroyed after it: only the restores are timed);
 *  - the JSON form (goap_agent_snapshot_json), for reference.
 * Sizes: for each example file (examples/NAME.goap) with goals (or an `agent` with `htn`), one agent with every
 * action and goal (the first HTN agent type for HTN files), from its first scenario's start
 * state, actions that succeed on their second update: the largest snapshot over its first 60
 * updates, and the blackboard and squad snapshots of examples/squad.goap's `flank` members.
 *
 * Exit status: 0; 1 when a snapshot or restore fails; 2 on bad usage.
 */
#define _POSIX_C_SOURCE 200809L

#include <goap/agent.h>
#include <goap/file.h>
#include <goap/save.h>
#include <goap/squad.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "bench_util.h"

#ifndef GOAP_EXAMPLES_DIR
#define GOAP_EXAMPLES_DIR "examples"
#endif

#define CAP 8192

static goap_action_state second_update(goap_agent *a, int action, double dt, void *user) {
  (void)a;
  (void)action;
  (void)user;
  return dt > 0 && ((long)(goap_agent_time(a) * 10 + 0.5)) % 2 == 0 ? GOAP_ACTION_SUCCESS
                                                                      : GOAP_ACTION_RUNNING;
}

static goap_file *load(const char *name) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", GOAP_EXAMPLES_DIR, name);
  goap_file *f = NULL;
  goap_error diag;
  if (goap_file_load(path, NULL, &f, &diag) != GOAP_OK) {
    char buf[1024];
    goap_error_format(&diag, buf, sizeof buf);
    fprintf(stderr, "%s\n", buf);
    return NULL;
  }
  return f;
}

/* A type with every action and goal of f (HTN files: their first HTN agent type). */
static goap_agent_type *make_type(const goap_file *f, int greedy) {
  const goap_domain *d = goap_file_domain(f);
  int na = goap_domain_action_count(d), ng = goap_domain_goal_count(d);
  goap_action_binding *ab = (goap_action_binding *)calloc((size_t)na + 1, sizeof *ab);
  goap_goal_binding *gb = (goap_goal_binding *)calloc((size_t)ng + 1, sizeof *gb);
  goap_agent_type *t = NULL;
  if (!ab || !gb) goto out;
  int htn_type = -1;
  for (int k = 0; k < goap_file_agent_type_count(f) && htn_type < 0; ++k)
    if (goap_file_agent_type_htn(f, k, NULL, NULL) >= 0) htn_type = k;
  if (ng == 0 && htn_type < 0) goto out;
  goap_file_agent_bindings(f, ng == 0 ? htn_type : -1, ab, na, gb, ng);
  for (int i = 0; i < na; ++i) ab[i].tick = second_update;
  goap_agent_type_desc td;
  memset(&td, 0, sizeof td);
  td.actions = ab;
  td.action_count = na;
  td.goals = gb;
  td.goal_count = ng;
  if (greedy) { /* the village: greedy hff, and goals it cannot reach given up early */
    td.search = GOAP_SEARCH_GREEDY;
    td.heuristic = GOAP_H_FF;
    td.max_nodes = 2000;
  }
  if (ng == 0) {
    td.goals = NULL;
    td.goal_count = 0;
    td.htn = goap_file_htn(f);
    td.htn_root = goap_file_agent_type_htn(f, htn_type, &td.htn_watch, &td.htn_watch_count);
  }
  if (goap_agent_type_create(d, &td, &t, NULL) != GOAP_OK) t = NULL;
out:
  free(ab);
  free(gb);
  return t;
}

static void start_state(const goap_file *f, goap_word *mem, int scenario) {
  const goap_domain *d = goap_file_domain(f);
  goap_state_init(d, mem);
  if (scenario < goap_file_scenario_count(f)) {
    const goap_scenario *sc = goap_file_scenario(f, scenario);
    goap_state_assign(d, mem, sc->given, sc->given_count);
  }
}

static double thread_ns(void) { return bench_clock_ns(CLOCK_THREAD_CPUTIME_ID); }

int main(int argc, char **argv) {
  int reps = 21, batch = 1000, json = 0;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc) reps = atoi(argv[++i]);
    else if (strcmp(argv[i], "--batch") == 0 && i + 1 < argc) batch = atoi(argv[++i]);
    else if (strcmp(argv[i], "--json") == 0) json = 1;
    else {
      fprintf(stderr, "usage: goap_bench_save [--reps N] [--batch N] [--json]\n");
      return 2;
    }
  }
  if (reps < 1 || batch < 1) return 2;
  int status = 0;
  /* ---- the village agent -------------------------------------------------------------- */
  goap_file *vf = load("village.goap");
  if (!vf) return 1;
  goap_agent_type *vt = make_type(vf, 1);
  if (!vt) return 1;
  goap_word mem[64];
  int house = goap_file_find_scenario(vf, "house");
  start_state(vf, mem, house >= 0 ? house : 0);
  goap_agent_desc ad;
  memset(&ad, 0, sizeof ad);
  ad.type = vt;
  ad.memory = mem;
  goap_agent *a = NULL;
  goap_agent_create(&ad, &a, NULL);
  int step = 0, len = 0;
  for (int u = 0; u < 200 && !(goap_agent_action(a) >= 0 && step >= 1); ++u) {
    goap_agent_update(a, 0.1);
    goap_agent_plan(a, &len, &step);
  }
  static uint8_t buf[CAP];
  size_t n = 0;
  if (goap_agent_snapshot(a, buf, CAP, &n) != GOAP_OK) return 1;
  double *snap_ns = (double *)calloc((size_t)reps, sizeof(double));
  double *snap_cpu = (double *)calloc((size_t)reps, sizeof(double));
  double *rest_ns = (double *)calloc((size_t)reps, sizeof(double));
  double *rest_cpu = (double *)calloc((size_t)reps, sizeof(double));
  double *json_ns = (double *)calloc((size_t)reps, sizeof(double));
  goap_agent **fresh = (goap_agent **)calloc((size_t)batch, sizeof *fresh);
  if (!snap_ns || !snap_cpu || !rest_ns || !rest_cpu || !json_ns || !fresh) return 1;
  static char jbuf[CAP];
  ad.memory = NULL;
  for (int r = 0; r < reps; ++r) {
    size_t m = 0;
    double t0 = bench_now_ns(), c0 = thread_ns();
    for (int i = 0; i < batch; ++i) status |= goap_agent_snapshot(a, buf, CAP, &m) != GOAP_OK;
    snap_cpu[r] = (thread_ns() - c0) / batch;
    snap_ns[r] = (bench_now_ns() - t0) / batch;
    for (int i = 0; i < batch; ++i) status |= goap_agent_create(&ad, &fresh[i], NULL) != GOAP_OK;
    t0 = bench_now_ns();
    c0 = thread_ns();
    for (int i = 0; i < batch; ++i) status |= goap_agent_restore(fresh[i], buf, n, NULL) != GOAP_OK;
    rest_cpu[r] = (thread_ns() - c0) / batch;
    rest_ns[r] = (bench_now_ns() - t0) / batch;
    for (int i = 0; i < batch; ++i) goap_agent_destroy(fresh[i]);
    t0 = bench_now_ns();
    for (int i = 0; i < batch; ++i) goap_agent_snapshot_json(a, jbuf, CAP, &m);
    json_ns[r] = (bench_now_ns() - t0) / batch;
  }
  size_t jn = 0;
  goap_agent_snapshot_json(a, jbuf, CAP, &jn);
  if (json)
    printf("{\"case\": \"village_agent\", \"bytes\": %zu, \"plan_length\": %d, \"snapshot_ns\": %.0f, "
           "\"snapshot_cpu_ns\": %.0f, \"restore_ns\": %.0f, \"restore_cpu_ns\": %.0f, "
           "\"json_ns\": %.0f, \"json_bytes\": %zu}\n",
           n, len, bench_median(snap_ns, reps), bench_median(snap_cpu, reps),
           bench_median(rest_ns, reps), bench_median(rest_cpu, reps), bench_median(json_ns, reps),
           jn);
  else
    printf("village agent (plan of %d, step %d running): snapshot %zu bytes\n"
           "  snapshot %7.0f ns (cpu %5.0f)   restore %7.0f ns (cpu %5.0f)   json %7.0f ns "
           "(%zu bytes)   medians of %d x %d\n",
           len, step, n, bench_median(snap_ns, reps), bench_median(snap_cpu, reps),
           bench_median(rest_ns, reps), bench_median(rest_cpu, reps), bench_median(json_ns, reps),
           jn, reps, batch);
  goap_agent_destroy(a);
  goap_agent_type_destroy(vt);
  goap_file_destroy(vf);
  /* ---- sizes per example --------------------------------------------------------------- */
  static const char *const files[] = {"alma.goap",  "soldier.goap",       "squad.goap",
                                      "village.goap", "trunk_thumper.goap", NULL};
  if (!json) printf("%-20s %6s %6s %6s\n", "example", "vars", "words", "bytes");
  for (int k = 0; files[k]; ++k) {
    goap_file *f = load(files[k]);
    if (!f) return 1;
    goap_agent_type *t = make_type(f, strcmp(files[k], "village.goap") == 0);
    if (!t) {
      goap_file_destroy(f);
      continue;
    }
    start_state(f, mem, 0);
    ad.type = t;
    ad.memory = mem;
    goap_agent *x = NULL;
    goap_agent_create(&ad, &x, NULL);
    size_t most = 0;
    for (int u = 0; u < 60; ++u) {
      goap_agent_update(x, 0.1);
      size_t m = 0;
      if (goap_agent_snapshot(x, NULL, 0, &m) == GOAP_INVALID_OPERATION) continue; /* paused */
      if (m > most) most = m;
    }
    const goap_domain *d = goap_file_domain(f);
    if (json)
      printf("{\"case\": \"size\", \"example\": \"%s\", \"vars\": %d, \"words\": %zu, "
             "\"bytes\": %zu}\n",
             files[k], goap_domain_var_count(d), goap_domain_state_words(d), most);
    else
      printf("%-20s %6d %6zu %6zu\n", files[k], goap_domain_var_count(d),
             goap_domain_state_words(d), most);
    goap_agent_destroy(x);
    goap_agent_type_destroy(t);
    goap_file_destroy(f);
  }
  free(snap_ns);
  free(snap_cpu);
  free(rest_ns);
  free(rest_cpu);
  free(json_ns);
  free(fresh);
  return status ? 1 : 0;
}
