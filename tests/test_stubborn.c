/*
 * test_stubborn.c -- strong stubborn sets (GOAP_REQUEST_STUBBORN): small PDDL tasks where the
 * pruning changes the search but not the optimal cost, compared with blind A* without it;
 * a task where ignoring interference would lose the optimum; the selections that do not
 * qualify (int variables) search exactly as without the flag.
 * (The randomised differential test, test_property, runs the flag on random domains too.)
 */
#include <goap/goap.h>
#include <goap/pddl.h>

#include <stdio.h>
#include <string.h>

#include "test.h"

static goap_pddl_task *load_text(const char *dom, const char *prob) {
  goap_pddl_task *t = NULL;
  goap_error err;
  goap_status st =
      goap_pddl_parse("d.pddl", dom, strlen(dom), "p.pddl", prob, strlen(prob), NULL, &t, &err);
  if (st != GOAP_OK) fprintf(stderr, "%s:%d:%d: %s\n", err.file, err.line, err.col, err.message);
  return t;
}

typedef struct run {
  goap_status st;
  double cost;
  int len;
  int valid; /* the plan found validates at its cost (1 when none was found) */
  uint64_t expanded, generated;
} run;

/* Plans the task with search s, heuristic h and flags; validates the plan found. */
static run plan(const goap_domain *d, const goap_word *start, const goap_cond *want, int nwant,
                goap_search s, goap_heuristic h, unsigned flags) {
  run out;
  memset(&out, 0, sizeof out);
  goap_planner *p = NULL;
  goap_status cs = goap_planner_create(d, NULL, &p);
  if (cs != GOAP_OK) {
    out.st = cs;
    return out;
  }
  int32_t buf[256];
  goap_request req;
  memset(&req, 0, sizeof req);
  req.start = start;
  req.want = want;
  req.want_count = nwant;
  req.search = s;
  req.heuristic = h;
  req.flags = flags;
  goap_result r;
  memset(&r, 0, sizeof r);
  r.plan = buf;
  r.plan_capacity = 256;
  out.st = goap_plan(p, &req, &r);
  out.cost = r.cost;
  out.len = r.plan_length;
  out.expanded = r.stats.expanded;
  out.generated = r.stats.generated;
  out.valid = 1;
  if (out.st == GOAP_OK) {
    double vc = -1.0;
    int bad = -2;
    out.valid = goap_plan_validate(d, start, want, nwant, buf, r.plan_length, &vc, &bad) ==
                    GOAP_OK &&
                vc == r.cost;
  }
  goap_planner_destroy(p);
  return out;
}

static run plan_task(const goap_pddl_task *t, goap_search s, goap_heuristic h, unsigned flags) {
  int nwant = 0;
  const goap_cond *want = goap_pddl_goal(t, &nwant);
  return plan(goap_pddl_domain(t), goap_pddl_start(t), want, nwant, s, h, flags);
}

/* Six lamps, each prepared then switched on, in any order: blind A* tries the 3^6 states,
 * the stubborn sets one lamp at a time (the other lamps' actions do not interfere). */
static const char lamps_dom[] =
    "(define (domain lamps)\n"
    "  (:requirements :strips :typing :action-costs)\n"
    "  (:types lamp)\n"
    "  (:predicates (ready ?l - lamp) (on ?l - lamp))\n"
    "  (:functions (total-cost) - number)\n"
    "  (:action prepare :parameters (?l - lamp) :precondition (not (ready ?l))\n"
    "    :effect (and (ready ?l) (increase (total-cost) 2)))\n"
    "  (:action switch :parameters (?l - lamp) :precondition (and (ready ?l) (not (on ?l)))\n"
    "    :effect (and (on ?l) (increase (total-cost) 1))))\n";
static const char lamps_prob[] =
    "(define (problem six) (:domain lamps)\n"
    "  (:objects a b c d e f - lamp)\n"
    "  (:init (= (total-cost) 0) (ready c))\n"
    "  (:goal (and (on a) (on b) (on c) (on d) (on e) (on f)))\n"
    "  (:metric minimize (total-cost)))\n";

TEST(independent_actions_pruned_same_cost) {
  goap_pddl_task *t = load_text(lamps_dom, lamps_prob);
  CHECK(t != NULL);
  if (!t) return;
  run blind = plan_task(t, GOAP_SEARCH_ASTAR, GOAP_H_ZERO, 0);
  run por = plan_task(t, GOAP_SEARCH_ASTAR, GOAP_H_ZERO, GOAP_REQUEST_STUBBORN);
  CHECK_EQ_INT(blind.st, GOAP_OK);
  CHECK_EQ_INT(por.st, GOAP_OK);
  CHECK(blind.cost == 16.0); /* five lamps to prepare (2 each), six to switch on (1 each) */
  CHECK(por.cost == blind.cost);
  CHECK_EQ_INT(por.len, blind.len);
  CHECK(blind.valid && por.valid);
  /* blind A* expands every state cheaper than 16: the pruned search far fewer */
  CHECK(por.expanded * 4 < blind.expanded);
  CHECK(por.generated * 4 < blind.generated);
  /* the same with the other optimal configurations (LM-cut eager and lazy) */
  run lm = plan_task(t, GOAP_SEARCH_ASTAR, GOAP_H_LMCUT, 0);
  run lmp = plan_task(t, GOAP_SEARCH_ASTAR, GOAP_H_LMCUT, GOAP_REQUEST_STUBBORN);
  run lzp = plan_task(t, GOAP_SEARCH_ASTAR, GOAP_H_LMCUT,
                      GOAP_REQUEST_STUBBORN | GOAP_REQUEST_LAZY);
  CHECK(lm.cost == 16.0 && lmp.cost == 16.0 && lzp.cost == 16.0);
  CHECK(lm.valid && lmp.valid && lzp.valid);
  CHECK(lmp.generated < lm.generated);
  /* greedy search stays complete */
  run gr = plan_task(t, GOAP_SEARCH_GREEDY, GOAP_H_FF, GOAP_REQUEST_STUBBORN);
  CHECK_EQ_INT(gr.st, GOAP_OK);
  CHECK(gr.valid);
  goap_pddl_destroy(t);
}

/* A door: people pass while it is open, and it must end closed. `close` disables every
 * `pass`: a set that kept `close` alone would lose the optimum (open, pass x3, close = 5)
 * by having to open the door again. Both goal conditions have one achiever each. */
static const char door_dom[] =
    "(define (domain door)\n"
    "  (:requirements :strips :typing :negative-preconditions)\n"
    "  (:types person)\n"
    "  (:predicates (opened) (closed) (passed ?p - person))\n"
    "  (:action open :parameters () :precondition (closed)\n"
    "    :effect (and (opened) (not (closed))))\n"
    "  (:action close :parameters () :precondition (opened)\n"
    "    :effect (and (closed) (not (opened))))\n"
    "  (:action pass :parameters (?p - person) :precondition (and (opened) (not (passed ?p)))\n"
    "    :effect (passed ?p)))\n";
static const char door_prob_closed[] =
    "(define (problem p) (:domain door) (:objects ann bob cy - person)\n"
    "  (:init (closed)) (:goal (and (closed) (passed ann) (passed bob) (passed cy))))\n";
static const char door_prob_open[] =
    "(define (problem p) (:domain door) (:objects ann bob cy - person)\n"
    "  (:init (opened)) (:goal (and (closed) (passed ann) (passed bob) (passed cy))))\n";

TEST(interfering_actions_kept) {
  const char *probs[2] = {door_prob_closed, door_prob_open};
  const double want[2] = {5.0, 4.0};
  for (int i = 0; i < 2; ++i) {
    goap_pddl_task *t = load_text(door_dom, probs[i]);
    CHECK(t != NULL);
    if (!t) continue;
    run blind = plan_task(t, GOAP_SEARCH_ASTAR, GOAP_H_ZERO, 0);
    run por = plan_task(t, GOAP_SEARCH_ASTAR, GOAP_H_ZERO, GOAP_REQUEST_STUBBORN);
    run lz = plan_task(t, GOAP_SEARCH_ASTAR, GOAP_H_LMCUT,
                       GOAP_REQUEST_STUBBORN | GOAP_REQUEST_LAZY);
    CHECK(blind.cost == want[i]);
    CHECK(por.cost == want[i]);
    CHECK(lz.cost == want[i]);
    CHECK(blind.valid && por.valid && lz.valid);
    goap_pddl_destroy(t);
  }
}

/* Int variables and ADD effects: the selection does not qualify, and the search is exactly
 * the one without the flag. */
TEST(int_domains_not_pruned) {
  goap_builder *b = NULL;
  CHECK_EQ_INT(goap_builder_create(NULL, &b), GOAP_OK);
  if (!b) return;
  goap_var_desc v;
  memset(&v, 0, sizeof v);
  v.name = "wood";
  v.type = GOAP_INT;
  v.lo = 0;
  v.hi = 5;
  int wood = -1, axe = -1;
  CHECK(goap_builder_add_var(b, &v, &wood) == GOAP_OK);
  memset(&v, 0, sizeof v);
  v.name = "axe";
  v.type = GOAP_BOOL;
  CHECK(goap_builder_add_var(b, &v, &axe) == GOAP_OK);
  goap_cond no_axe = {axe, GOAP_EQ, 0}, has_axe = {axe, GOAP_EQ, 1};
  goap_effect get_axe = {axe, GOAP_SET, 1}, chop = {wood, GOAP_ADD, 1}, chop2 = {wood, GOAP_ADD, 2};
  goap_action_desc a;
  memset(&a, 0, sizeof a);
  a.name = "take_axe";
  a.cost = 1;
  a.pre = &no_axe;
  a.pre_count = 1;
  a.eff = &get_axe;
  a.eff_count = 1;
  CHECK(goap_builder_add_action(b, &a, NULL) == GOAP_OK);
  a.name = "chop";
  a.cost = 1;
  a.pre = &has_axe;
  a.eff = &chop;
  CHECK(goap_builder_add_action(b, &a, NULL) == GOAP_OK);
  a.name = "chop_hard";
  a.cost = 3;
  a.pre = NULL;
  a.pre_count = 0;
  a.eff = &chop2;
  CHECK(goap_builder_add_action(b, &a, NULL) == GOAP_OK);
  goap_domain *d = NULL;
  CHECK(goap_builder_build(b, &d) == GOAP_OK);
  goap_builder_destroy(b);
  if (!d) return;
  goap_cond want = {wood, GOAP_GE, 4};
  run plain = plan(d, NULL, &want, 1, GOAP_SEARCH_ASTAR, GOAP_H_ZERO, 0);
  run por = plan(d, NULL, &want, 1, GOAP_SEARCH_ASTAR, GOAP_H_ZERO, GOAP_REQUEST_STUBBORN);
  CHECK_EQ_INT(plain.st, GOAP_OK);
  CHECK(plain.cost == 5.0); /* take_axe, chop x4 */
  CHECK(por.cost == plain.cost);
  CHECK(por.expanded == plain.expanded);
  CHECK(por.generated == plain.generated);
  CHECK(plain.valid && por.valid);
  goap_domain_destroy(d);
}

/* Backward search ignores the flag. */
TEST(backward_ignores_flag) {
  goap_pddl_task *t = load_text(lamps_dom, lamps_prob);
  CHECK(t != NULL);
  if (!t) return;
  run plain = plan_task(t, GOAP_SEARCH_BACKWARD, GOAP_H_MAX, 0);
  run por = plan_task(t, GOAP_SEARCH_BACKWARD, GOAP_H_MAX, GOAP_REQUEST_STUBBORN);
  CHECK_EQ_INT(plain.st, GOAP_OK);
  CHECK(por.cost == plain.cost);
  CHECK(por.expanded == plain.expanded);
  goap_pddl_destroy(t);
}

TEST_MAIN(TEST_ENTRY(independent_actions_pruned_same_cost), TEST_ENTRY(interfering_actions_kept),
          TEST_ENTRY(int_domains_not_pruned), TEST_ENTRY(backward_ignores_flag))
