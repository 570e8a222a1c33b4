/*
 * gpgoap_harness.c -- GPGOAP (github.com/stolk/GPGOAP, not shipped here) on goap_bench's
 * cases, through GPGOAP's public API only (goap.h, astar.h): actionplanner_t,
 * goap_set_pre / goap_set_pst, goap_worldstate_set, astar_plan. Written for this project;
 * bench/side_by_side.sh builds it with GPGOAP's goap.c and astar.c when GPGOAP_DIR names a
 * checkout:
 *
 *   cc -O3 -I"$GPGOAP_DIR" bench/peers/gpgoap_harness.c "$GPGOAP_DIR/goap.c" \
 *      "$GPGOAP_DIR/astar.c" -o gpgoap_harness
 *
 * The cases are the ones of bench/bench.c with the same starts, goals and costs:
 * gpgoap_soldier, chain_8_0, chain_60_0, and their alternating forms (alt_gpgoap_soldier,
 * alt_chain_8, alt_chain_60: eight requests round-robin). Action costs are written into the
 * planner's public act_costs array (the name of the cost setter differs between GPGOAP
 * versions). Output: one JSON object per case, as goap_bench --json (case, cost: the sum over
 * a round, ns_per_plan: the median of batches of about 50 us, ns_min, ns_max, requests).
 *
 * Counting mode, for instruction counts (bench/side_by_side.sh runs it under perf stat or
 * callgrind at two round counts and divides the difference by the plans in between):
 *
 *   gpgoap_harness --case alt_gpgoap_soldier --reps 120
 *
 * plans only the named case (a leading '=' is accepted, as goap_bench's exact match): one
 * warm-up round, then exactly N rounds of its requests, each round between two clock reads as
 * goap_bench --reps does (so both sides carry the same per-round overhead), and prints one
 * JSON line (case, cost of one round, rounds, requests) and no timings. --reps without --case
 * counts every case; --case without --reps times only that case.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "astar.h"
#include "goap.h"

#define NREQ_MAX 8

static const char *only_case; /* --case: the one case to run, or NULL for all */
static int reps;              /* --reps: rounds to count, or 0: time (median of batches) */
static volatile double sink;  /* keeps the counting mode's clock reads */

typedef struct request {
  worldstate_t start, goal;
} request;

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void set_cost(actionplanner_t *ap, const char *action, int cost) {
  for (int i = 0; i < ap->numactions; ++i)
    if (strcmp(ap->act_names[i], action) == 0) ap->act_costs[i] = cost;
}

/* "a,!b" into ws. goap_worldstate_set only ORs a value in and toggles the don't-care bit, so
 * it cannot overwrite an atom ws already sets (a start modified by "!armedwithbomb"): write the
 * bit directly, by the atom's index in the planner's public atm_names. */
static void set_lits(actionplanner_t *ap, worldstate_t *ws, const char *text) {
  char buf[256];
  snprintf(buf, sizeof buf, "%s", text);
  for (char *t = strtok(buf, ","); t; t = strtok(NULL, ",")) {
    int neg = t[0] == '!', idx = -1;
    for (int i = 0; i < ap->numatoms; ++i)
      if (strcmp(ap->atm_names[i], t + neg) == 0) idx = i;
    if (idx < 0) {
      fprintf(stderr, "gpgoap_harness: unknown atom '%s'\n", t + neg);
      exit(1);
    }
    const bfield_t bit = (bfield_t)1 << idx;
    ws->values = neg ? (ws->values & ~bit) : (ws->values | bit);
    ws->dontcare &= ~bit;
  }
}

static void run(const char *name, actionplanner_t *ap, const request *rq, int n) {
  const char *plan[128];
  worldstate_t states[128];
  int cost = 0;
  if (only_case && strcmp(only_case, name) != 0) return;
  if (reps > 0) {
    for (int i = 0; i < n; ++i) { /* the warm-up round */
      int sz = 128;
      cost += astar_plan(ap, rq[i].start, rq[i].goal, plan, states, &sz);
    }
    for (int r = 0; r < reps; ++r) {
      double b0 = now_ns();
      for (int i = 0; i < n; ++i) {
        int sz = 128;
        (void)astar_plan(ap, rq[i].start, rq[i].goal, plan, states, &sz);
      }
      sink += now_ns() - b0;
    }
    printf("{\"case\": \"%s\", \"cost\": %d, \"rounds\": %d, \"requests\": %d}\n", name, cost,
           reps, n);
    return;
  }
  double one = now_ns();
  for (int i = 0; i < n; ++i) {
    int sz = 128;
    cost += astar_plan(ap, rq[i].start, rq[i].goal, plan, states, &sz);
  }
  one = (now_ns() - one) / n;
  long batch = (long)(50000.0 / (one > 1.0 ? one : 1.0)) + 1;
  batch = (batch + n - 1) / n * n;
  double t[2048];
  int nb = 0, k = 0;
  double start = now_ns();
  while (nb < 2048 && (nb < 20 || now_ns() - start < 0.2e9)) {
    double b0 = now_ns();
    for (long i = 0; i < batch; ++i) {
      int sz = 128;
      (void)astar_plan(ap, rq[k].start, rq[k].goal, plan, states, &sz);
      if (++k == n) k = 0;
    }
    t[nb++] = (now_ns() - b0) / (double)batch;
  }
  qsort(t, (size_t)nb, sizeof t[0], cmp);
  double med = nb % 2 ? t[nb / 2] : 0.5 * (t[nb / 2 - 1] + t[nb / 2]);
  printf("{\"case\": \"%s\", \"cost\": %d, \"ns_per_plan\": %.1f, \"ns_min\": %.1f, "
         "\"ns_max\": %.1f, \"requests\": %d}\n",
         name, cost, med, t[0], t[nb - 1], n);
}

static void soldier(actionplanner_t *ap, worldstate_t *start) {
  goap_actionplanner_clear(ap);
  goap_set_pre(ap, "scout", "armedwithgun", true);
  goap_set_pst(ap, "scout", "enemyvisible", true);
  goap_set_pre(ap, "approach", "enemyvisible", true);
  goap_set_pst(ap, "approach", "nearenemy", true);
  goap_set_pre(ap, "aim", "enemyvisible", true);
  goap_set_pre(ap, "aim", "weaponloaded", true);
  goap_set_pst(ap, "aim", "enemylinedup", true);
  goap_set_pre(ap, "shoot", "enemylinedup", true);
  goap_set_pst(ap, "shoot", "enemyalive", false);
  goap_set_pre(ap, "load", "armedwithgun", true);
  goap_set_pst(ap, "load", "weaponloaded", true);
  goap_set_pre(ap, "detonatebomb", "armedwithbomb", true);
  goap_set_pre(ap, "detonatebomb", "nearenemy", true);
  goap_set_pst(ap, "detonatebomb", "alive", false);
  goap_set_pst(ap, "detonatebomb", "enemyalive", false);
  goap_set_pre(ap, "flee", "enemyvisible", true);
  goap_set_pst(ap, "flee", "nearenemy", false);
  for (int i = 0; i < ap->numactions; ++i) ap->act_costs[i] = 1;
  set_cost(ap, "detonatebomb", 5);
  goap_worldstate_clear(start);
  set_lits(ap, start, "!enemyvisible,armedwithgun,!weaponloaded,!enemylinedup,enemyalive,"
                      "armedwithbomb,!nearenemy,alive");
}

/* GPGOAP keeps the name pointers it is given: the names live in static storage. */
static char chain_atoms[64][12], chain_steps[64][16];

static void chain(actionplanner_t *ap, worldstate_t *start, int L) {
  goap_actionplanner_clear(ap);
  for (int i = 0; i <= L; ++i) snprintf(chain_atoms[i], sizeof chain_atoms[i], "c%d", i);
  for (int i = 1; i <= L; ++i) {
    snprintf(chain_steps[i], sizeof chain_steps[i], "step_%d", i);
    goap_set_pre(ap, chain_steps[i], chain_atoms[i - 1], true);
    goap_set_pst(ap, chain_steps[i], chain_atoms[i], true);
  }
  for (int i = 0; i < ap->numactions; ++i) ap->act_costs[i] = 1;
  goap_worldstate_clear(start);
  for (int i = 0; i <= L; ++i) goap_worldstate_set(ap, start, chain_atoms[i], i == 0);
}

int main(int argc, char **argv) {
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--case") == 0 && i + 1 < argc) {
      only_case = argv[++i];
      if (only_case[0] == '=') ++only_case;
    } else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc && atoi(argv[i + 1]) > 0) {
      reps = atoi(argv[++i]);
    } else {
      fprintf(stderr, "usage: gpgoap_harness [--case NAME] [--reps N]\n");
      return 2;
    }
  }
  static actionplanner_t ap;
  request rq[NREQ_MAX];
  worldstate_t start;
  /* the soldier: one request, then the eight of alt_gpgoap_soldier */
  static const char *const mods[8] = {"", "enemyvisible", "weaponloaded", "!armedwithbomb",
                                      "nearenemy", "enemyvisible,weaponloaded", "",
                                      "enemyvisible,nearenemy"};
  static const char *const goals[8] = {"!enemyalive", "!enemyalive", "!enemyalive,alive",
                                       "!enemyalive", "enemylinedup", "!enemyalive,alive",
                                       "nearenemy,weaponloaded", "!nearenemy,enemylinedup"};
  soldier(&ap, &start);
  rq[0].start = start;
  goap_worldstate_clear(&rq[0].goal);
  set_lits(&ap, &rq[0].goal, "!enemyalive");
  run("gpgoap_soldier", &ap, rq, 1);
  for (int i = 0; i < 8; ++i) {
    rq[i].start = start;
    set_lits(&ap, &rq[i].start, mods[i]);
    goap_worldstate_clear(&rq[i].goal);
    set_lits(&ap, &rq[i].goal, goals[i]);
  }
  run("alt_gpgoap_soldier", &ap, rq, 8);
  static const int Ls[2] = {8, 60};
  for (int k = 0; k < 2; ++k) {
    char g[64], name[32];
    int L = Ls[k];
    chain(&ap, &start, L);
    rq[0].start = start;
    goap_worldstate_clear(&rq[0].goal);
    snprintf(g, sizeof g, "c%d", L);
    set_lits(&ap, &rq[0].goal, g);
    snprintf(name, sizeof name, "chain_%d_0", L);
    run(name, &ap, rq, 1);
    for (int i = 0; i < 8; ++i) {
      rq[i].start = start;
      goap_worldstate_clear(&rq[i].goal);
      snprintf(g, sizeof g, "c%d,c%d", L, i);
      set_lits(&ap, &rq[i].goal, g);
    }
    snprintf(name, sizeof name, "alt_chain_%d", L);
    run(name, &ap, rq, 8);
  }
  return 0;
}
