/*
 * test_threads.c -- one immutable domain shared by planners on several threads: every thread
 * gets exactly the plans a single thread gets (the domain is read-only, planners are
 * per-thread). Run it under ThreadSanitizer to check for races as well.
 */
#define _POSIX_C_SOURCE 200809L
#include <goap/file.h>
#include <pthread.h>

#include "test.h"

#define THREADS 4
#define ROUNDS 200

static const char text[] =
    "var in_b: bool\nvar has_ammo: bool\nvar loaded: bool\nvar target_dead: bool\n"
    "var door_stuck: bool\nvar kick_failed: bool\nvar armory_empty: bool\n"
    "var ammo: int 0..9 = 2\nvar stance: enum {standing, crouched, prone}\n"
    "action get_ammo\n  pre !armory_empty\n  eff has_ammo, ammo += 3\n"
    "action load_magazine\n  pre has_ammo, ammo >= 1\n  eff loaded, !has_ammo, ammo -= 1\n"
    "action open_door\n  pre !door_stuck\n  eff in_b\n"
    "action kick_door\n  cost 3\n  pre !kick_failed\n  eff in_b\n"
    "action jump_window\n  cost 5\n  eff in_b, stance = prone\n"
    "action stand\n  cost 0.5\n  pre stance != standing\n  eff stance = standing\n"
    "action shoot\n  pre in_b, loaded, stance == standing\n  eff target_dead\n"
    "action punch\n  cost 6\n  pre in_b\n  eff target_dead\n"
    "goal kill\n  want target_dead\n";

typedef struct job {
  const goap_domain *d;
  int32_t plans[ROUNDS][16];
  int lengths[ROUNDS];
  double costs[ROUNDS];
  int failures;
} job;

/* Round r plans from a start state derived from r, with a configuration derived from r. */
static void request_for(const goap_domain *d, int r, goap_word *start, goap_request *req) {
  goap_state_init(d, start);
  goap_state_set(d, start, goap_domain_find_var(d, "door_stuck"), r & 1);
  goap_state_set(d, start, goap_domain_find_var(d, "kick_failed"), (r >> 1) & 1);
  goap_state_set(d, start, goap_domain_find_var(d, "armory_empty"), (r >> 2) & 1);
  goap_state_set(d, start, goap_domain_find_var(d, "ammo"), r % 4);
  memset(req, 0, sizeof *req);
  req->start = start;
  req->want = goap_domain_goal_want(d, 0, &req->want_count);
  req->search = (goap_search)((r / 8) % 4);
  req->heuristic = (goap_heuristic)((r / 32) % 6);
}

static void *run(void *arg) {
  job *j = (job *)arg;
  goap_planner *p = NULL;
  if (goap_planner_create(j->d, NULL, &p) != GOAP_OK) {
    j->failures++;
    return NULL;
  }
  for (int r = 0; r < ROUNDS; ++r) {
    goap_word start[4];
    goap_request req;
    request_for(j->d, r, start, &req);
    goap_result res = {0};
    res.plan = j->plans[r];
    res.plan_capacity = 16;
    goap_status st = goap_plan(p, &req, &res);
    if (st != GOAP_OK && st != GOAP_NO_PLAN) j->failures++;
    j->lengths[r] = st == GOAP_OK ? res.plan_length : -1;
    j->costs[r] = res.cost;
  }
  goap_planner_destroy(p);
  return NULL;
}

TEST(threads_agree) {
  goap_file *f = NULL;
  goap_error err;
  REQUIRE(goap_file_parse("threads.goap", text, sizeof text - 1, NULL, &f, &err) == GOAP_OK);
  static job jobs[THREADS + 1];
  memset(jobs, 0, sizeof jobs);
  for (int t = 0; t <= THREADS; ++t) jobs[t].d = goap_file_domain(f);
  run(&jobs[THREADS]); /* the single-threaded reference */
  CHECK_EQ_INT(jobs[THREADS].failures, 0);
  pthread_t th[THREADS];
  for (int t = 0; t < THREADS; ++t) REQUIRE(pthread_create(&th[t], NULL, run, &jobs[t]) == 0);
  for (int t = 0; t < THREADS; ++t) pthread_join(th[t], NULL);
  int solved = 0;
  for (int t = 0; t < THREADS; ++t) {
    CHECK_EQ_INT(jobs[t].failures, 0);
    for (int r = 0; r < ROUNDS; ++r) {
      CHECK_EQ_INT(jobs[t].lengths[r], jobs[THREADS].lengths[r]);
      CHECK(jobs[t].costs[r] == jobs[THREADS].costs[r]);
      for (int k = 0; k < jobs[t].lengths[r]; ++k)
        CHECK_EQ_INT(jobs[t].plans[r][k], jobs[THREADS].plans[r][k]);
      solved += jobs[t].lengths[r] >= 0;
    }
  }
  CHECK(solved > THREADS * ROUNDS / 2); /* most rounds have a plan: the test is not vacuous */
  goap_file_destroy(f);
}

TEST_MAIN(TEST_ENTRY(threads_agree))
