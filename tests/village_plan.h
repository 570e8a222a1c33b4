/*
 * village_plan.h -- planning a scenario of a `.goap` file in the tests (the village's
 * scenarios, mostly): the scenario's start and request, and a plan checked independently.
 */
#ifndef GOAP_TEST_VILLAGE_PLAN_H
#define GOAP_TEST_VILLAGE_PLAN_H

#include <math.h>
#include <string.h>

#include "goap/file.h"
#include "goap/goap.h"

/* examples/village.goap, or NULL when it does not load. */
static inline goap_file *test_load_village(void) {
  goap_file *f = NULL;
  if (goap_file_load(GOAP_EXAMPLES_DIR "/village.goap", NULL, &f, NULL) != GOAP_OK) return NULL;
  return f;
}

/* Scenario sc's start (written to start) and a request for its goal. */
static inline void test_scenario_request(const goap_domain *d, const goap_scenario *sc,
                                         goap_word *start, goap_request *req,
                                         goap_search search, goap_heuristic h, unsigned flags) {
  goap_state_init(d, start);
  goap_state_assign(d, start, sc->given, sc->given_count);
  memset(req, 0, sizeof *req);
  req->start = start;
  req->want = sc->want;
  req->want_count = sc->want_count;
  req->search = search;
  req->heuristic = h;
  req->flags = flags;
}

/* Plans scenario sc into buf (cap actions). A found plan is replayed with goap_plan_validate:
 * GOAP_INVALID_OPERATION when it does not reach the goal or its cost is not the reported one.
 * GOAP_INVALID_ARGUMENT for a domain of more than 16 state words. */
static inline goap_status test_plan_scenario(goap_planner *p, const goap_domain *d,
                                             const goap_scenario *sc, goap_search search,
                                             goap_heuristic h, unsigned flags, goap_result *res,
                                             int32_t *buf, int cap) {
  goap_word start[16];
  if (goap_domain_state_words(d) > 16) return GOAP_INVALID_ARGUMENT;
  goap_request req;
  test_scenario_request(d, sc, start, &req, search, h, flags);
  memset(res, 0, sizeof *res);
  res->plan = buf;
  res->plan_capacity = cap;
  goap_status st = goap_plan(p, &req, res);
  if (st == GOAP_OK) {
    double cost = -1.0;
    int bad = -1;
    if (goap_plan_validate(d, start, sc->want, sc->want_count, buf, res->plan_length, &cost,
                           &bad) != GOAP_OK ||
        fabs(cost - res->cost) > 1e-9)
      return GOAP_INVALID_OPERATION;
  }
  return st;
}

#endif /* GOAP_TEST_VILLAGE_PLAN_H */
