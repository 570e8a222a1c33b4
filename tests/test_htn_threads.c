/*
 * test_htn_threads.c -- one immutable HTN domain (the blocks world of bench/blocks_htn.h, and
 * the file-loaded troll with an `achieve`) shared by HTN planners on several threads: every
 * thread gets exactly the plans one thread gets. Run it under ThreadSanitizer for races.
 */
#define _POSIX_C_SOURCE 200809L
#include <goap/file.h>
#include <goap/htn.h>
#include <pthread.h>

#include "../bench/blocks_htn.h"
#include "test.h"

#define THREADS 4
#define ROUNDS 20
#define CAP 512

typedef struct job {
  const goap_htn_domain *h;
  int root;
  int32_t plan[CAP];
  int length;
  int mismatches, failures;
} job;

static void *worker(void *arg) {
  job *j = (job *)arg;
  goap_htn_planner *p = NULL;
  goap_htn_planner_create(j->h, NULL, &p);
  int32_t plan[CAP];
  if (!p) {
    j->failures++;
    return NULL;
  }
  for (int r = 0; r < ROUNDS; ++r) {
    goap_htn_request q;
    goap_htn_result res;
    memset(&q, 0, sizeof q);
    q.task = j->root;
    memset(&res, 0, sizeof res);
    res.plan = plan;
    res.plan_capacity = CAP;
    if (goap_htn_plan(p, &q, &res) != GOAP_OK) {
      j->failures++;
      continue;
    }
    if (res.plan_length != j->length || memcmp(plan, j->plan, (size_t)j->length * sizeof *plan))
      j->mismatches++;
  }
  goap_htn_planner_destroy(p);
  return NULL;
}

static void run_threads(int *test_failures_, const goap_htn_domain *h, int root) {
  job ref, jobs[THREADS];
  pthread_t th[THREADS];
  goap_htn_planner *p = NULL;
  goap_htn_planner_create(h, NULL, &p);
  goap_htn_request q;
  goap_htn_result res;
  REQUIRE(p);
  memset(&ref, 0, sizeof ref);
  memset(&q, 0, sizeof q);
  q.task = root;
  memset(&res, 0, sizeof res);
  res.plan = ref.plan;
  res.plan_capacity = CAP;
  REQUIRE(goap_htn_plan(p, &q, &res) == GOAP_OK);
  ref.length = res.plan_length;
  goap_htn_planner_destroy(p);
  CHECK(ref.length > 0);
  for (int t = 0; t < THREADS; ++t) {
    jobs[t] = ref;
    jobs[t].h = h;
    jobs[t].root = root;
    REQUIRE(pthread_create(&th[t], NULL, worker, &jobs[t]) == 0);
  }
  for (int t = 0; t < THREADS; ++t) {
    pthread_join(th[t], NULL);
    CHECK_EQ_INT(jobs[t].failures, 0);
    CHECK_EQ_INT(jobs[t].mismatches, 0);
  }
}

TEST(blocks_on_threads) {
  bw_problem pr;
  bw_domain w;
  memset(&pr, 0, sizeof pr);
  REQUIRE(bw_random(60, 7, &pr) == 0);
  REQUIRE(bw_build(&pr, &w) == 0);
  run_threads(test_failures_, w.h, w.root);
  bw_domain_free(&w);
  bw_problem_free(&pr, NULL, 0);
}

TEST(file_with_achieve_on_threads) {
  goap_file *f = NULL;
  goap_error d;
  REQUIRE(goap_file_load(GOAP_TESTS_DIR "/htn/achieve_pause_set.goap", NULL, &f, &d) ==
          GOAP_OK);
  const goap_htn_domain *h = goap_file_htn(f);
  REQUIRE(h);
  run_threads(test_failures_, h, goap_htn_domain_find_task(h, "burgle"));
  goap_file_destroy(f);
}

TEST_MAIN(TEST_ENTRY(blocks_on_threads), TEST_ENTRY(file_with_achieve_on_threads))
