/*
 * test_pddl.c -- the PDDL front end: parse errors with exact positions and messages, grounding
 * sizes computed by hand, optimal plan costs against brute-force searches written here (over
 * the problems' own states, without the library), the validator, limits, and allocation
 * failures at every point of loading.
 */
#include <goap/goap.h>
#include <goap/pddl.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc_hook.h"
#include "test.h"

/* ---- helpers ---------------------------------------------------------------------------- */

static goap_pddl_task *load_text(const char *dom, const char *prob, const goap_pddl_options *o,
                                 goap_status *st, goap_error *err) {
  goap_pddl_task *t = NULL;
  *st = goap_pddl_parse("d.pddl", dom, strlen(dom), "p.pddl", prob, strlen(prob), o, &t, err);
  return t;
}

static goap_pddl_task *load_files(const char *dom, const char *prob) {
  char dp[512], pp[512];
  snprintf(dp, sizeof dp, "%s/pddl/%s", GOAP_TESTS_DIR, dom);
  snprintf(pp, sizeof pp, "%s/pddl/%s", GOAP_TESTS_DIR, prob);
  goap_pddl_task *t = NULL;
  goap_error err;
  if (goap_pddl_load(dp, pp, NULL, &t, &err) != GOAP_OK)
    fprintf(stderr, "load %s %s: %s:%d:%d: %s\n", dom, prob, err.file, err.line, err.col,
            err.message);
  return t;
}

/* Plans optimally (A*, the default admissible heuristic); returns the cost or -1 when no plan.
 * When plan_text is not NULL, the plan in IPC form is written there. */
static double plan_cost(const goap_pddl_task *t, char *plan_text, size_t cap) {
  const goap_domain *d = goap_pddl_domain(t);
  goap_planner *p = NULL;
  if (goap_planner_create(d, NULL, &p) != GOAP_OK) return -2;
  int32_t buf[256];
  goap_request req;
  memset(&req, 0, sizeof req);
  req.start = goap_pddl_start(t);
  req.want = goap_pddl_goal(t, &req.want_count);
  goap_result r;
  memset(&r, 0, sizeof r);
  r.plan = buf;
  r.plan_capacity = 256;
  goap_status st = goap_plan(p, &req, &r);
  goap_planner_destroy(p);
  if (st != GOAP_OK) return -1;
  if (plan_text) {
    size_t o = 0;
    plan_text[0] = 0;
    for (int i = 0; i < r.plan_length && o < cap; ++i) {
      o += goap_pddl_format_action(t, buf[i], plan_text + o, cap - o);
      if (o + 1 < cap) plan_text[o++] = '\n';
      plan_text[o < cap ? o : cap - 1] = 0;
    }
  }
  return r.cost;
}

/* ---- parse errors ----------------------------------------------------------------------- */

static const char dom_ok[] =
    "(define (domain d)\n"
    "  (:requirements :strips :typing)\n"
    "  (:types block)\n"
    "  (:predicates (on ?x ?y - block) (clear ?x - block))\n"
    "  (:action mv :parameters (?x ?y - block)\n"
    "    :precondition (and (clear ?x) (clear ?y))\n"
    "    :effect (and (on ?x ?y) (not (clear ?y)))))\n";
static const char prob_ok[] =
    "(define (problem p) (:domain d)\n"
    "  (:objects a b - block)\n"
    "  (:init (clear a) (clear b))\n"
    "  (:goal (on a b)))\n";

typedef struct err_case {
  const char *dom, *prob;
  goap_status status;
  const char *file;
  int line, col;
  const char *message;
} err_case;

TEST(parse_errors_have_exact_positions) {
  static const err_case cases[] = {
      {"(define (domain d)\n  (:predicates (p ?x))\n  (:action a :parameters (?x)\n"
       "    :precondition (or (p ?x) (p ?x)) :effect (p ?x)))\n",
       prob_ok, GOAP_PARSE_ERROR, "d.pddl", 4, 19, "unsupported construct 'or' (disjunctive condition)"},
      {"(define (domain d)\n  (:predicates (p ?x))\n  (:action a :parameters (?x)\n"
       "    :effect (forall (?y) (p ?y))))\n",
       prob_ok, GOAP_PARSE_ERROR, "d.pddl", 4, 13, "unsupported construct 'forall' (universal effect)"},
      {"(define (domain d)\n  (:predicates (p ?x))\n  (:action a :parameters (?x)\n"
       "    :effect (when (p ?x) (p ?x))))\n",
       prob_ok, GOAP_PARSE_ERROR, "d.pddl", 4, 13, "unsupported construct 'when' (conditional effect)"},
      {"(define (domain d)\n  (:predicates (p ?x))\n  (:derived (p ?x) (p ?x)))\n", prob_ok,
       GOAP_PARSE_ERROR, "d.pddl", 3, 3, "unsupported construct ':derived' (derived predicates)"},
      {"(define (domain d)\n  (:types a b - (either c d)))\n", prob_ok, GOAP_PARSE_ERROR, "d.pddl",
       2, 17, "unsupported construct 'either' (union types)"},
      {"(define (domain d)\n  (:predicates (p ?x))\n  (:functions (fuel ?x))\n"
       "  (:action a :parameters (?x) :effect (decrease (fuel ?x) 1)))\n",
       prob_ok, GOAP_PARSE_ERROR, "d.pddl", 4, 39,
       "unsupported construct: numeric fluent '(decrease (fuel ...))' (only '(increase (total-cost) ...)')"},
      {"(define (domain d)\n  (:predicates (p ?x))\n  (:action a :parameters (?x)\n"
       "    :precondition (q ?x) :effect (p ?x)))\n",
       prob_ok, GOAP_NOT_FOUND, "d.pddl", 4, 20, "unknown predicate 'q' (did you mean 'p'?)"},
      {"(define (domain d)\n  (:predicates (p ?x))\n  (:action a :parameters (?x)\n"
       "    :precondition (p ?y) :effect (p ?x)))\n",
       prob_ok, GOAP_NOT_FOUND, "d.pddl", 4, 22, "unknown variable '?y' (not a parameter of this action)"},
      {"(define (domain d)\n  (:predicates (p ?x))\n  (:action a :parameters (?x)\n"
       "    :precondition (p ?x ?x) :effect (p ?x)))\n",
       prob_ok, GOAP_TYPE_MISMATCH, "d.pddl", 4, 19, "'p' takes 1 argument, 2 given"},
      {"(define (domain d)\n  (:predicates (p ?x))\n  (:action a :parameters (?x)\n"
       "    :effect (p ?x))\n", prob_ok, GOAP_PARSE_ERROR, "d.pddl", 1, 1,
       "this '(' is never closed (the text ends first)"},
      {dom_ok, "(define (problem p) (:domain d)\n  (:objects a b - blok)\n  (:init)\n  (:goal (on a b)))\n",
       GOAP_NOT_FOUND, "p.pddl", 2, 19, "unknown type 'blok' (did you mean 'block'?)"},
      {dom_ok, "(define (problem p) (:domain d)\n  (:objects a b - block)\n  (:init (clear c))\n  (:goal (on a b)))\n",
       GOAP_NOT_FOUND, "p.pddl", 3, 17, "unknown object or constant 'c'"},
      {dom_ok, "(define (problem p) (:domain other)\n  (:objects a - block)\n  (:init)\n  (:goal (on a a)))\n",
       GOAP_CONFLICT, "p.pddl", 1, 30, "the problem is for domain 'other', but the domain is 'd'"},
      {dom_ok, "(define (problem p) (:domain d)\n  (:objects a - block)\n  (:init)\n  (:goal (or (on a a))))\n",
       GOAP_PARSE_ERROR, "p.pddl", 4, 10, "unsupported construct 'or' (disjunctive condition)"},
      {dom_ok, "(define (problem p) (:domain d)\n  (:objects a - block)\n  (:init)\n  (:goal (on a a))\n"
       "  (:metric maximize (total-cost)))\n",
       GOAP_PARSE_ERROR, "p.pddl", 5, 12, "unsupported metric 'maximize' (only 'minimize (total-cost)')"},
      {dom_ok, "(define (problem p) (:domain d) (:objects a - block) (:init))\n", GOAP_PARSE_ERROR,
       "p.pddl", 1, 1, "the problem has no ':goal'"},
      {dom_ok, "(define (domain p))", GOAP_PARSE_ERROR, "p.pddl", 1, 9,
       "this is a domain, but a problem was expected here"},
      {"(define (domain d) (:predicates (p)) (:action a :parameters () :effect (p))) )", prob_ok,
       GOAP_PARSE_ERROR, "d.pddl", 1, 78, "unmatched ')'"},
      {"(define (domain d) (:predicates (p)) (:durative-action a))", prob_ok, GOAP_PARSE_ERROR,
       "d.pddl", 1, 38, "unsupported construct ':durative-action' (durative actions)"},
      {"(define (domain d) (:predicates (p ?x)) (:action a :parameters (?x) :precondition "
       "(< (f ?x) 2) :effect (p ?x)))",
       prob_ok, GOAP_PARSE_ERROR, "d.pddl", 1, 83, "unsupported construct '<' (numeric comparison)"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    const err_case *c = &cases[i];
    goap_status st;
    goap_error err;
    goap_pddl_task *t = load_text(c->dom, c->prob, NULL, &st, &err);
    CHECK(t == NULL);
    if (st != c->status || strcmp(err.file, c->file) != 0 || err.line != c->line ||
        err.col != c->col || strcmp(err.message, c->message) != 0) {
      fprintf(stderr, "case %zu: got %s %s:%d:%d: %s\n", i, goap_status_name(st), err.file,
              err.line, err.col, err.message);
      CHECK(0);
    }
    goap_pddl_destroy(t);
  }
}

TEST(diag_carries_the_source_line) {
  goap_status st;
  goap_error err;
  goap_pddl_task *t = load_text(
      "(define (domain d)\n  (:predicates (p ?x))\n  (:action a :parameters (?x)\n"
      "    :precondition (imply (p ?x) (p ?x)) :effect (p ?x)))\n",
      prob_ok, NULL, &st, &err);
  CHECK(t == NULL);
  CHECK_STR(err.source, "    :precondition (imply (p ?x) (p ?x)) :effect (p ?x)))");
  char buf[1024];
  goap_error_format(&err, buf, sizeof buf);
  CHECK(strstr(buf, "d.pddl:4:19: error: unsupported construct 'imply' (implication)") != NULL);
  CHECK(strstr(buf, "(p ?x)))\n                  ^\n") != NULL);
}

/* ---- grounding sizes -------------------------------------------------------------------- */

TEST(grounding_sizes_gripper_and_blocks) {
  /* gripper-2: 2 rooms, 2 balls, 2 grippers. Static atoms: room x2, ball x2, gripper x2 = 6.
   * Changing atoms reachable: at-robby x2, at (ball, room) x4, free x2, carry (ball, gripper)
   * x4 = 12 variables. Actions: move from/to any rooms 2x2 = 4 (the IPC domain allows
   * from = to), pick and drop 2 balls x 2 rooms x 2 grippers = 8 each: 20. */
  goap_pddl_task *t = load_files("gripper.pddl", "gripper-2.pddl");
  REQUIRE(t != NULL);
  goap_pddl_info in;
  goap_pddl_get_info(t, &in);
  CHECK_EQ_INT(in.reachable_atoms, 18);
  CHECK_EQ_INT(in.static_atoms, 6);
  CHECK_EQ_INT(in.variables, 12);
  CHECK_EQ_INT(in.ground_actions, 20);
  CHECK_EQ_INT(in.objects, 6);
  CHECK_EQ_INT(in.schemas, 3);
  CHECK_EQ_INT(goap_domain_var_count(goap_pddl_domain(t)), 12);
  CHECK(goap_domain_find_action(goap_pddl_domain(t), "pick ball1 rooma left") >= 0);
  CHECK(goap_domain_find_var(goap_pddl_domain(t), "carry ball2 right") >= 0);
  CHECK(goap_domain_find_var(goap_pddl_domain(t), "room rooma") < 0); /* static: dropped */
  CHECK(!goap_pddl_has_costs(t));
  CHECK_STR(goap_pddl_domain_name(t), "gripper");
  CHECK_STR(goap_pddl_problem_name(t), "gripper-2");
  goap_pddl_destroy(t);

  /* Sussman (3 blocks): relaxed reachability reaches every on(x, y) including x = y (stack
   * needs holding x and clear y, both reachable for x = y): 9, ontable 3, clear 3, holding 3,
   * handempty 1 = 19; actions pick-up 3, put-down 3, stack 9, unstack 9 = 24. */
  t = load_files("blocks.pddl", "blocks-sussman.pddl");
  REQUIRE(t != NULL);
  goap_pddl_get_info(t, &in);
  CHECK_EQ_INT(in.reachable_atoms, 19);
  CHECK_EQ_INT(in.static_atoms, 0);
  CHECK_EQ_INT(in.ground_actions, 24);
  goap_pddl_destroy(t);

  /* logistics-1: static in-city x4. Truck t1 reaches h1, ap1; t2 reaches ap2, h2; the plane
   * ap1, ap2 (6 at-atoms); p1 at h1, ap1, ap2, h2 (4) and in t1, t2, plane (3): 13
   * variables. Actions: drive t1 h1/ap1 -> h1/ap1 (4) and t2 likewise (4); fly 2x2 = 4;
   * load/unload truck: t1 at h1, ap1 (2+2), t2 at ap2, h2 (2+2); load/unload airplane at
   * ap1, ap2 (2+2): 24. */
  t = load_files("logistics.pddl", "logistics-1.pddl");
  REQUIRE(t != NULL);
  goap_pddl_get_info(t, &in);
  CHECK_EQ_INT(in.static_atoms, 4);
  CHECK_EQ_INT(in.variables, 13);
  CHECK_EQ_INT(in.ground_actions, 24);
  goap_pddl_destroy(t);
}

TEST(grounding_never_enumerates_all_combinations) {
  /* A chain of six parameters over 40 objects: 40^6 = 4.1e9 combinations, but the static
   * `link` relation is a path, so only 35 bindings exist (?a = o0 .. o34). The work limit (candidate atoms
   * tried) is set far below any blind enumeration. */
  char dom[] =
      "(define (domain chain) (:predicates (link ?a ?b) (start ?a) (seen ?a ?b ?c ?d ?e ?f))\n"
      "  (:action walk :parameters (?a ?b ?c ?d ?e ?f)\n"
      "    :precondition (and (start ?a) (link ?a ?b) (link ?b ?c) (link ?c ?d) (link ?d ?e)"
      " (link ?e ?f))\n"
      "    :effect (seen ?a ?b ?c ?d ?e ?f)))\n";
  char prob[8192];
  int o = snprintf(prob, sizeof prob, "(define (problem p) (:domain chain) (:objects");
  for (int i = 0; i < 40; ++i) o += snprintf(prob + o, sizeof prob - (size_t)o, " o%d", i);
  o += snprintf(prob + o, sizeof prob - (size_t)o, ") (:init");
  for (int i = 0; i + 1 < 40; ++i)
    o += snprintf(prob + o, sizeof prob - (size_t)o, " (link o%d o%d) (start o%d)", i, i + 1, i);
  snprintf(prob + o, sizeof prob - (size_t)o, ") (:goal (seen o0 o1 o2 o3 o4 o5)))");
  goap_pddl_options opt;
  memset(&opt, 0, sizeof opt);
  opt.max_work = 20000;
  goap_status st;
  goap_error err;
  goap_pddl_task *t = load_text(dom, prob, &opt, &st, &err);
  if (!t) fprintf(stderr, "%s\n", err.message);
  REQUIRE(t != NULL);
  goap_pddl_info in;
  goap_pddl_get_info(t, &in);
  CHECK_EQ_INT(in.ground_actions, 35);
  CHECK(in.work < 20000);
  CHECK_NEAR(plan_cost(t, NULL, 0), 1.0, 0);
  goap_pddl_destroy(t);

  /* the same task with a tiny action limit: a clear error */
  opt.max_work = 0;
  opt.max_actions = 10;
  t = load_text(dom, prob, &opt, &st, &err);
  CHECK(t == NULL);
  CHECK_EQ_INT(st, GOAP_TOO_LARGE);
  CHECK(strstr(err.message, "more than 10 ground actions") != NULL);
  /* and the nesting limit */
  opt.max_actions = 0;
  opt.max_depth = 3;
  t = load_text(dom, prob, &opt, &st, &err);
  CHECK(t == NULL);
  CHECK_EQ_INT(st, GOAP_TOO_LARGE);
  CHECK_STR(err.message, "parentheses nested more than 3 deep");
  CHECK_EQ_INT(err.line, 3); /* (define (:action :precondition (and (start ... */
  CHECK_EQ_INT(err.col, 24);
  /* and the size limit, reported against the text that exceeds it */
  opt.max_depth = 0;
  opt.max_bytes = strlen(dom);
  t = load_text(dom, prob, &opt, &st, &err);
  CHECK(t == NULL);
  CHECK_EQ_INT(st, GOAP_TOO_LARGE);
  CHECK_STR(err.file, "p.pddl");
  CHECK(strstr(err.message, "bytes, more than the") != NULL);
}

/* ---- costs, equality, negative preconditions, case ------------------------------------- */

TEST(grid_costs_equality_negation) {
  goap_pddl_task *t = load_files("grid.pddl", "grid-1.pddl");
  REQUIRE(t != NULL);
  CHECK(goap_pddl_has_costs(t));
  const goap_domain *d = goap_pddl_domain(t);
  int a = goap_domain_find_action(d, "move r1 c13 c23");
  CHECK(a >= 0);
  CHECK_NEAR(goap_domain_action_cost(d, a), 5.0, 0);
  a = goap_domain_find_action(d, "wait r1 c11");
  CHECK(a >= 0);
  CHECK_NEAR(goap_domain_action_cost(d, a), 0.0, 0);
  a = goap_domain_find_action(d, "charge r2");
  CHECK(a >= 0);
  CHECK_NEAR(goap_domain_action_cost(d, a), 3.0, 0);
  char buf[64];
  CHECK_EQ_INT(goap_pddl_format_action(t, a, buf, sizeof buf), 11);
  CHECK_STR(buf, "(charge r2)");
  CHECK_EQ_INT(goap_pddl_format_action(t, a, buf, 5), 11);
  CHECK_STR(buf, "(cha");
  /* hand-computed optimum: r1 c11-c12-c13-dock (3), r2 c23-c13-c12-c11 (7), charge (3),
   * r1 dock-c13-c23 (6) = 19 */
  CHECK_NEAR(plan_cost(t, NULL, 0), 19.0, 0);
  goap_pddl_destroy(t);
}

TEST(names_are_case_insensitive) {
  goap_status st;
  goap_error err;
  goap_pddl_task *t = load_text(
      "(DEFINE (DOMAIN Up) (:Predicates (P ?X) (Q))\n"
      " (:ACTION Go :Parameters (?X) :Precondition (p ?x) :Effect (AND (q) (NOT (P ?x)))))",
      "(define (problem x) (:domain UP) (:objects A) (:init (P a)) (:goal (and (Q) (not (p A)))))",
      NULL, &st, &err);
  REQUIRE(t != NULL);
  CHECK(goap_domain_find_action(goap_pddl_domain(t), "go a") >= 0);
  CHECK_NEAR(plan_cost(t, NULL, 0), 1.0, 0);
  goap_pddl_destroy(t);
}

TEST(constants_listed_again_in_objects) {
  goap_status st;
  goap_error err;
  const char *dom = "(define (domain d) (:types t u - object v - t) (:constants k - v)\n"
                    " (:predicates (p ?x - v) (q))\n"
                    " (:action a :parameters (?x - v) :precondition (p ?x) :effect (q)))";
  /* again with its own type, with a supertype, and untyped: all accepted, k stays a v */
  goap_pddl_task *t = load_text(dom,
                                "(define (problem x) (:domain d) (:objects k - v k - t k)\n"
                                " (:init (p k)) (:goal (q)))",
                                NULL, &st, &err);
  REQUIRE(t != NULL);
  CHECK(goap_domain_find_action(goap_pddl_domain(t), "a k") >= 0);
  goap_pddl_destroy(t);
  /* with an unrelated type: an error at the second declaration */
  t = load_text(dom, "(define (problem x) (:domain d) (:objects k - u) (:init) (:goal (q)))", NULL,
                &st, &err);
  CHECK(t == NULL);
  CHECK_EQ_INT(st, GOAP_DUPLICATE);
  CHECK_STR(err.message, "object 'k' is already declared with type 'v'");
  CHECK_EQ_INT(err.line, 1);
  CHECK_EQ_INT(err.col, 43);
}

TEST(add_wins_over_delete_and_static_goals) {
  goap_status st;
  goap_error err;
  /* `flip` deletes and adds (p ?x) at once: p stays true (PDDL applies deletes first). */
  goap_pddl_task *t = load_text(
      "(define (domain d) (:predicates (p ?x) (done) (fixed ?x))\n"
      " (:action flip :parameters (?x) :precondition (p ?x) :effect (and (not (p ?x)) (p ?x) (done))))",
      "(define (problem x) (:domain d) (:objects a) (:init (p a) (fixed a))\n"
      " (:goal (and (done) (p a) (fixed a) (not (fixed a)))))",
      NULL, &st, &err);
  REQUIRE(t != NULL);
  CHECK_NEAR(plan_cost(t, NULL, 0), -1.0, 0); /* (fixed a) and not: never */
  goap_pddl_destroy(t);
  t = load_text(
      "(define (domain d) (:predicates (p ?x) (done) (fixed ?x))\n"
      " (:action flip :parameters (?x) :precondition (p ?x) :effect (and (not (p ?x)) (p ?x) (done))))",
      "(define (problem x) (:domain d) (:objects a) (:init (p a) (fixed a))\n"
      " (:goal (and (done) (p a) (fixed a) (not (= a a)) )))",
      NULL, &st, &err);
  REQUIRE(t != NULL);
  CHECK_NEAR(plan_cost(t, NULL, 0), -1.0, 0); /* (not (= a a)) never holds */
  goap_pddl_destroy(t);
  t = load_text(
      "(define (domain d) (:predicates (p ?x) (done) (fixed ?x))\n"
      " (:action flip :parameters (?x) :precondition (p ?x) :effect (and (not (p ?x)) (p ?x) (done))))",
      "(define (problem x) (:domain d) (:objects a) (:init (p a) (fixed a))\n"
      " (:goal (and (done) (p a) (fixed a))))",
      NULL, &st, &err);
  REQUIRE(t != NULL);
  char plan[256];
  CHECK_NEAR(plan_cost(t, plan, sizeof plan), 1.0, 0);
  goap_pddl_report rep;
  CHECK_EQ_INT(goap_pddl_validate(t, "plan", plan, strlen(plan), &rep, &err), GOAP_OK);
  CHECK(rep.valid);
  goap_pddl_destroy(t);
}

TEST(forall_preconditions_and_goals_and_wide_actions) {
  goap_status st;
  goap_error err;
  /* lock needs every lamp off (forall in a precondition); the goal wants every room locked */
  const char dom[] =
      "(define (domain d) (:types lamp room)\n"
      " (:predicates (on ?l - lamp) (locked ?r - room))\n"
      " (:action switch-off :parameters (?l - lamp) :precondition (on ?l) :effect (not (on ?l)))\n"
      " (:action lock :parameters (?r - room)\n"
      "  :precondition (and (not (locked ?r)) (forall (?l - lamp) (not (on ?l))))\n"
      "  :effect (locked ?r)))";
  goap_pddl_task *t = load_text(dom,
                                "(define (problem x) (:domain d) (:objects l1 l2 - lamp r1 r2 - room)\n"
                                " (:init (on l1) (on l2)) (:goal (forall (?r - room) (locked ?r))))",
                                NULL, &st, &err);
  REQUIRE(t != NULL);
  char plan[256];
  CHECK_NEAR(plan_cost(t, plan, sizeof plan), 4.0, 0);
  goap_pddl_report rep;
  CHECK_EQ_INT(goap_pddl_validate(t, "plan", plan, strlen(plan), &rep, &err), GOAP_OK);
  CHECK(rep.valid);
  const char early[] = "(switch-off l1)\n(lock r1)\n";
  CHECK_EQ_INT(goap_pddl_validate(t, "plan", early, strlen(early), &rep, &err), GOAP_OK);
  CHECK(!rep.valid);
  CHECK_STR(rep.message, "step 2 (lock r1): precondition (not (on l2)) does not hold");
  const char short_[] = "(switch-off l1)\n(switch-off l2)\n(lock r1)\n";
  CHECK_EQ_INT(goap_pddl_validate(t, "plan", short_, strlen(short_), &rep, &err), GOAP_OK);
  CHECK(!rep.valid);
  CHECK_STR(rep.message, "the goal (locked r2) does not hold after the 3 steps");
  /* form feeds and vertical tabs between a step's names are blanks (they hung the reader:
   * fuzz_pddl found it) */
  const char blanks[] = "(switch-off\fl1)\n(switch-off \v l2)\n(lock\f\vr1)\n(lock r2)\n";
  CHECK_EQ_INT(goap_pddl_validate(t, "plan", blanks, strlen(blanks), &rep, &err), GOAP_OK);
  CHECK(rep.valid);
  goap_pddl_destroy(t);
  /* no lamp: the forall holds vacuously, one lock per room */
  t = load_text(dom,
                "(define (problem x) (:domain d) (:objects r1 r2 - room)\n"
                " (:init) (:goal (forall (?r - room) (locked ?r))))",
                NULL, &st, &err);
  REQUIRE(t != NULL);
  CHECK_NEAR(plan_cost(t, NULL, 0), 2.0, 0);
  goap_pddl_destroy(t);
  /* an action of 70 parameters (the old limit was 64), bound by a chain of static atoms */
  char wd[4096], wp[4096], step[1024];
  size_t k = (size_t)snprintf(wd, sizeof wd,
                              "(define (domain w) (:predicates (first ?x) (next ?x ?y) (done))\n"
                              " (:action all :parameters (");
  for (int i = 1; i <= 70; ++i) k += (size_t)snprintf(wd + k, sizeof wd - k, " ?x%d", i);
  k += (size_t)snprintf(wd + k, sizeof wd - k, ")\n  :precondition (and (first ?x1)");
  for (int i = 1; i < 70; ++i) k += (size_t)snprintf(wd + k, sizeof wd - k, " (next ?x%d ?x%d)", i, i + 1);
  k += (size_t)snprintf(wd + k, sizeof wd - k, ") :effect (done)))");
  REQUIRE(k < sizeof wd);
  k = (size_t)snprintf(wp, sizeof wp, "(define (problem x) (:domain w) (:objects");
  for (int i = 1; i <= 70; ++i) k += (size_t)snprintf(wp + k, sizeof wp - k, " o%d", i);
  k += (size_t)snprintf(wp + k, sizeof wp - k, ") (:init (first o1)");
  for (int i = 1; i < 70; ++i) k += (size_t)snprintf(wp + k, sizeof wp - k, " (next o%d o%d)", i, i + 1);
  k += (size_t)snprintf(wp + k, sizeof wp - k, ") (:goal (done)))");
  REQUIRE(k < sizeof wp);
  t = load_text(wd, wp, NULL, &st, &err);
  REQUIRE(t != NULL);
  CHECK_NEAR(plan_cost(t, NULL, 0), 1.0, 0);
  k = (size_t)snprintf(step, sizeof step, "(all");
  for (int i = 1; i <= 70; ++i) k += (size_t)snprintf(step + k, sizeof step - k, " o%d", i);
  k += (size_t)snprintf(step + k, sizeof step - k, ")\n");
  CHECK_EQ_INT(goap_pddl_validate(t, "plan", step, strlen(step), &rep, &err), GOAP_OK);
  CHECK(rep.valid);
  goap_pddl_destroy(t);
}

/* ---- brute force: blocks world ---------------------------------------------------------- */

/* A state: on[i] = -1 table, -2 held, else the block below. */
#define BW_MAX 5
typedef struct bw_state {
  int8_t on[BW_MAX];
} bw_state;

static int bw_clear(const bw_state *s, int n, int x) {
  if (s->on[x] == -2) return 0;
  for (int i = 0; i < n; ++i)
    if (s->on[i] == x) return 0;
  return 1;
}

static uint32_t bw_code(const bw_state *s, int n) {
  uint32_t c = 0;
  for (int i = 0; i < n; ++i) c = c * 8u + (uint32_t)(s->on[i] + 2);
  return c;
}

/* Breadth-first search over every state (unit costs); -1 when the goal is unreachable. */
static int bw_bfs(const bw_state *start, const bw_state *goal, int n) {
  size_t cells = 1;
  for (int i = 0; i < n; ++i) cells *= 8;
  int *dist = (int *)malloc(cells * sizeof *dist);
  bw_state *queue = (bw_state *)malloc(cells * sizeof *queue);
  if (!dist || !queue) abort();
  for (size_t i = 0; i < cells; ++i) dist[i] = -1;
  size_t h = 0, tl = 0;
  queue[tl++] = *start;
  dist[bw_code(start, n)] = 0;
  int found = -1;
  while (h < tl) {
    bw_state s = queue[h++];
    int ds = dist[bw_code(&s, n)];
    int ok = 1;
    for (int i = 0; i < n; ++i)
      if (s.on[i] != goal->on[i]) ok = 0;
    if (ok) {
      found = ds;
      break;
    }
    int held = -1;
    for (int i = 0; i < n; ++i)
      if (s.on[i] == -2) held = i;
    for (int x = 0; x < n; ++x) {
      bw_state nx[BW_MAX + 1];
      int k = 0;
      if (held < 0 && bw_clear(&s, n, x)) { /* pick-up or unstack */
        nx[k] = s;
        nx[k++].on[x] = -2;
      }
      if (held == x) { /* put-down, stack on any clear y != x */
        nx[k] = s;
        nx[k++].on[x] = -1;
        for (int y = 0; y < n; ++y)
          if (y != x && bw_clear(&s, n, y)) {
            nx[k] = s;
            nx[k++].on[x] = (int8_t)y;
          }
      }
      for (int j = 0; j < k; ++j) {
        uint32_t c = bw_code(&nx[j], n);
        if (dist[c] < 0) {
          dist[c] = ds + 1;
          queue[tl++] = nx[j];
        }
      }
    }
  }
  free(dist);
  free(queue);
  return found;
}

static void bw_random(bw_state *s, int n, uint32_t *seed) {
  /* place blocks one at a time on the table or on a random clear block */
  for (int i = 0; i < n; ++i) s->on[i] = -3;
  for (int i = 0; i < n; ++i) {
    *seed = *seed * 1103515245u + 12345u;
    int pick = (int)((*seed >> 16) % (unsigned)(i + 1));
    int below = -1;
    if (pick < i) { /* on a clear block among 0..i-1 */
      int cands[BW_MAX] = {0}, nc = 0;
      for (int y = 0; y < i; ++y) {
        int clear = 1;
        for (int z = 0; z < i; ++z)
          if (s->on[z] == y) clear = 0;
        if (clear) cands[nc++] = y;
      }
      below = nc ? cands[pick % nc] : -1;
    }
    s->on[i] = (int8_t)below;
  }
}

static void bw_atoms(char *buf, size_t cap, const bw_state *s, int n, int with_hand) {
  size_t o = strlen(buf);
  for (int i = 0; i < n; ++i) {
    if (s->on[i] == -1) o += (size_t)snprintf(buf + o, cap - o, " (ontable b%d)", i);
    else o += (size_t)snprintf(buf + o, cap - o, " (on b%d b%d)", i, s->on[i]);
    if (with_hand && bw_clear(s, n, i)) o += (size_t)snprintf(buf + o, cap - o, " (clear b%d)", i);
  }
  if (with_hand) snprintf(buf + o, cap - o, " (handempty)");
}

static char *read_test_file(const char *name, size_t *len) {
  char path[512];
  snprintf(path, sizeof path, "%s/pddl/%s", GOAP_TESTS_DIR, name);
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *buf = (char *)malloc(1 << 16);
  *len = buf ? fread(buf, 1, (1 << 16) - 1, f) : 0;
  fclose(f);
  if (buf) buf[*len] = 0;
  return buf;
}

TEST(blocks_optimal_costs_match_brute_force) {
  size_t dl;
  char *dom = read_test_file("blocks.pddl", &dl);
  REQUIRE(dom != NULL);
  uint32_t seed = 12345;
  int checked = 0;
  for (int n = 3; n <= BW_MAX; ++n) {
    for (int rep = 0; rep < (n == BW_MAX ? 3 : 6); ++rep) {
      bw_state s, g;
      bw_random(&s, n, &seed);
      bw_random(&g, n, &seed);
      char prob[4096];
      int o = snprintf(prob, sizeof prob, "(define (problem r) (:domain blocks) (:objects");
      for (int i = 0; i < n; ++i) o += snprintf(prob + o, sizeof prob - (size_t)o, " b%d", i);
      snprintf(prob + o, sizeof prob - (size_t)o, ") (:init");
      bw_atoms(prob, sizeof prob, &s, n, 1);
      o = (int)strlen(prob);
      snprintf(prob + o, sizeof prob - (size_t)o, ") (:goal (and");
      bw_atoms(prob, sizeof prob, &g, n, 0);
      o = (int)strlen(prob);
      snprintf(prob + o, sizeof prob - (size_t)o, ")))");
      goap_pddl_task *t = NULL;
      goap_error err;
      REQUIRE(goap_pddl_parse("blocks.pddl", dom, dl, "r.pddl", prob, strlen(prob), NULL, &t,
                              &err) == GOAP_OK);
      char plan[4096];
      double c = plan_cost(t, plan, sizeof plan);
      int want = bw_bfs(&s, &g, n);
      CHECK(want > 0 || (want == 0 && c == 0));
      CHECK_NEAR(c, (double)want, 0);
      goap_pddl_report r;
      CHECK_EQ_INT(goap_pddl_validate(t, "plan", plan, strlen(plan), &r, &err), GOAP_OK);
      CHECK(r.valid);
      CHECK_NEAR(r.cost, (double)want, 0);
      goap_pddl_destroy(t);
      checked++;
    }
  }
  CHECK_EQ_INT(checked, 15);
  free(dom);
}

/* ---- brute force: gripper --------------------------------------------------------------- */

/* Gripper with n balls: state = robot room (0 A, 1 B), each ball 0 A, 1 B, 2 left, 3 right.
 * Dijkstra = BFS with unit costs. */
static int gripper_bfs(int n) {
  size_t cells = 2;
  for (int i = 0; i < n; ++i) cells *= 4;
  int *dist = (int *)malloc(cells * sizeof *dist);
  uint32_t *q = (uint32_t *)malloc(cells * sizeof *q);
  if (!dist || !q) abort();
  for (size_t i = 0; i < cells; ++i) dist[i] = -1;
  size_t h = 0, tl = 0;
  q[tl++] = 0; /* robot in A, balls in A */
  dist[0] = 0;
  uint32_t goal_balls = 0;
  for (int i = 0; i < n; ++i) goal_balls |= 1u << (2 * i);
  while (h < tl) {
    uint32_t s = q[h++];
    uint32_t room = s & 1u, balls = s >> 1;
    if (balls == goal_balls) {
      int d = dist[s];
      free(dist);
      free(q);
      return d;
    }
    uint32_t next[64];
    int k = 0;
    next[k++] = balls << 1 | (room ^ 1u);
    int used[2] = {0, 0};
    for (int i = 0; i < n; ++i) {
      uint32_t b = (balls >> (2 * i)) & 3u;
      if (b >= 2) used[b - 2] = 1;
    }
    for (int i = 0; i < n; ++i) {
      uint32_t b = (balls >> (2 * i)) & 3u;
      uint32_t clearb = balls & ~(3u << (2 * i));
      if (b == room)
        for (uint32_t gr = 0; gr < 2; ++gr)
          if (!used[gr]) next[k++] = (clearb | ((2u + gr) << (2 * i))) << 1 | room;
      if (b >= 2) next[k++] = (clearb | (room << (2 * i))) << 1 | room;
    }
    for (int j = 0; j < k; ++j)
      if (dist[next[j]] < 0) {
        dist[next[j]] = dist[s] + 1;
        q[tl++] = next[j];
      }
  }
  free(dist);
  free(q);
  return -1;
}

TEST(gripper_optimal_costs_match_brute_force) {
  size_t dl;
  char *dom = read_test_file("gripper.pddl", &dl);
  REQUIRE(dom != NULL);
  for (int n = 1; n <= 4; ++n) {
    char prob[2048];
    int o = snprintf(prob, sizeof prob,
                     "(define (problem g) (:domain gripper) (:objects rooma roomb left right");
    for (int i = 0; i < n; ++i) o += snprintf(prob + o, sizeof prob - (size_t)o, " ball%d", i);
    o += snprintf(prob + o, sizeof prob - (size_t)o,
                  ") (:init (room rooma) (room roomb) (gripper left) (gripper right) "
                  "(at-robby rooma) (free left) (free right)");
    for (int i = 0; i < n; ++i)
      o += snprintf(prob + o, sizeof prob - (size_t)o, " (ball ball%d) (at ball%d rooma)", i, i);
    o += snprintf(prob + o, sizeof prob - (size_t)o, ") (:goal (and");
    for (int i = 0; i < n; ++i)
      o += snprintf(prob + o, sizeof prob - (size_t)o, " (at ball%d roomb)", i);
    snprintf(prob + o, sizeof prob - (size_t)o, ")))");
    goap_pddl_task *t = NULL;
    goap_error err;
    REQUIRE(goap_pddl_parse("gripper.pddl", dom, dl, "g.pddl", prob, strlen(prob), NULL, &t,
                            &err) == GOAP_OK);
    CHECK_NEAR(plan_cost(t, NULL, 0), (double)gripper_bfs(n), 0);
    goap_pddl_destroy(t);
  }
  free(dom);
}

/* ---- brute force: grid with costs ------------------------------------------------------- */

/* A 2 x 3 grid (cells 0..5, row-major) plus a dock (6) next to cell 2; two robots; moving
 * into a free adjacent cell costs cost[from][to]; charging r0 at the dock costs 3. Dijkstra
 * over (pos0, pos1, charged). */
static int grid_adj(int a, int b) {
  if (a > b) {
    int t = a;
    a = b;
    b = t;
  }
  if (a == 2 && b == 6) return 1;
  if (b == 6) return 0;
  int ra = a / 3, ca = a % 3, rb = b / 3, cb = b % 3;
  return (ra == rb && (ca - cb == 1 || cb - ca == 1)) || (ca == cb && ra != rb);
}

static double grid_dijkstra(const int cost[7][7], int s0, int s1, int g0, int g1) {
  double dist[7][7][2];
  int done[7][7][2];
  for (int a = 0; a < 7; ++a)
    for (int b = 0; b < 7; ++b)
      for (int c = 0; c < 2; ++c) {
        dist[a][b][c] = INFINITY;
        done[a][b][c] = 0;
      }
  dist[s0][s1][0] = 0;
  for (;;) {
    double best = INFINITY;
    int ba = -1, bb = -1, bc = -1;
    for (int a = 0; a < 7; ++a)
      for (int b = 0; b < 7; ++b)
        for (int c = 0; c < 2; ++c)
          if (!done[a][b][c] && dist[a][b][c] < best) {
            best = dist[a][b][c];
            ba = a;
            bb = b;
            bc = c;
          }
    if (ba < 0) return -1;
    if (ba == g0 && bb == g1 && bc == 1) return best;
    done[ba][bb][bc] = 1;
    for (int to = 0; to < 7; ++to) {
      if (to != bb && grid_adj(ba, to) && best + cost[ba][to] < dist[to][bb][bc])
        dist[to][bb][bc] = best + cost[ba][to];
      if (to != ba && grid_adj(bb, to) && best + cost[bb][to] < dist[ba][to][bc])
        dist[ba][to][bc] = best + cost[bb][to];
    }
    if (ba == 6 && bc == 0 && best + 3 < dist[ba][bb][1]) dist[ba][bb][1] = best + 3;
  }
}

TEST(grid_optimal_costs_match_brute_force) {
  size_t dl;
  char *dom = read_test_file("grid.pddl", &dl);
  REQUIRE(dom != NULL);
  static const char *const names[7] = {"c11", "c12", "c13", "c21", "c22", "c23", "dock"};
  uint32_t seed = 777;
  for (int rep = 0; rep < 8; ++rep) {
    int cost[7][7];
    char prob[8192];
    int o = snprintf(prob, sizeof prob,
                     "(define (problem g) (:domain grid) (:objects c11 c12 c13 c21 c22 c23 - "
                     "cell r1 r2 - robot) (:init (= (total-cost) 0)");
    for (int a = 0; a < 7; ++a)
      for (int b = 0; b < 7; ++b) {
        seed = seed * 1103515245u + 12345u;
        cost[a][b] = (int)((seed >> 16) % 6u); /* 0..5, zero-cost moves included */
        if (a != b && grid_adj(a, b))
          o += snprintf(prob + o, sizeof prob - (size_t)o,
                        " (adjacent %s %s) (= (move-cost %s %s) %d)", names[a], names[b],
                        names[a], names[b], cost[a][b]);
      }
    seed = seed * 1103515245u + 12345u;
    int s0 = (int)((seed >> 16) % 6u), s1 = (s0 + 1 + (int)((seed >> 20) % 5u)) % 6;
    seed = seed * 1103515245u + 12345u;
    int g0 = (int)((seed >> 16) % 6u), g1 = (g0 + 1 + (int)((seed >> 20) % 5u)) % 6;
    snprintf(prob + o, sizeof prob - (size_t)o,
             " (at r1 %s) (occupied %s) (at r2 %s) (occupied %s))"
             " (:goal (and (charged r1) (at r1 %s) (at r2 %s)))"
             " (:metric minimize (total-cost)))",
             names[s0], names[s0], names[s1], names[s1], names[g0], names[g1]);
    goap_pddl_task *t = NULL;
    goap_error err;
    goap_status st = goap_pddl_parse("grid.pddl", dom, dl, "g.pddl", prob, strlen(prob), NULL,
                                     &t, &err);
    if (st != GOAP_OK) fprintf(stderr, "%d:%d %s\n", err.line, err.col, err.message);
    REQUIRE(st == GOAP_OK);
    char plan[4096];
    double c = plan_cost(t, plan, sizeof plan);
    double want = grid_dijkstra((const int(*)[7])cost, s0, s1, g0, g1);
    CHECK_NEAR(c, want, 0);
    goap_pddl_report r;
    CHECK_EQ_INT(goap_pddl_validate(t, "plan", plan, strlen(plan), &r, &err), GOAP_OK);
    CHECK(r.valid);
    CHECK_NEAR(r.cost, want, 0);
    goap_pddl_destroy(t);
  }
  free(dom);
}

/* ---- the validator ---------------------------------------------------------------------- */

TEST(validator_reports_the_first_failure) {
  goap_pddl_options opt;
  memset(&opt, 0, sizeof opt);
  opt.flags = GOAP_PDDL_PARSE_ONLY;
  char dp[512], pp[512];
  snprintf(dp, sizeof dp, "%s/pddl/gripper.pddl", GOAP_TESTS_DIR);
  snprintf(pp, sizeof pp, "%s/pddl/gripper-2.pddl", GOAP_TESTS_DIR);
  goap_pddl_task *t = NULL;
  goap_error err;
  REQUIRE(goap_pddl_load(dp, pp, &opt, &t, &err) == GOAP_OK);
  CHECK(goap_pddl_domain(t) == NULL);
  goap_pddl_report r;
  const char *good = "; a comment\n(pick ball1 rooma left)\n(PICK ball2 rooma right) ; both\n"
                     "(move rooma roomb)\n(drop ball1 roomb left)\n(drop ball2 roomb right)\n"
                     "; cost = 5 (unit cost)\n";
  CHECK_EQ_INT(goap_pddl_validate(t, "good", good, strlen(good), &r, &err), GOAP_OK);
  CHECK(r.valid);
  CHECK_EQ_INT(r.steps, 5);
  CHECK_NEAR(r.cost, 5.0, 0);
  CHECK_EQ_INT(r.bad_step, -1);

  const char *wrong = "(pick ball1 rooma left)\n(move rooma roomb)\n  (pick ball2 roomb right)\n";
  CHECK_EQ_INT(goap_pddl_validate(t, "wrong", wrong, strlen(wrong), &r, &err), GOAP_OK);
  CHECK(!r.valid);
  CHECK_EQ_INT(r.bad_step, 2);
  CHECK_EQ_INT(r.line, 3);
  CHECK_EQ_INT(r.col, 3);
  CHECK_STR(r.message, "step 3 (pick ball2 roomb right): precondition (at ball2 roomb) does not hold");

  const char *short_plan = "(pick ball1 rooma left)\n(move rooma roomb)\n(drop ball1 roomb left)\n";
  CHECK_EQ_INT(goap_pddl_validate(t, "short", short_plan, strlen(short_plan), &r, &err), GOAP_OK);
  CHECK(!r.valid);
  CHECK_EQ_INT(r.bad_step, 3);
  CHECK_STR(r.message, "the goal (at ball2 roomb) does not hold after the 3 steps");
  CHECK_NEAR(r.cost, 3.0, 0);

  const char *unknown = "(pick ball1 rooma left)\n(jump rooma)\n";
  CHECK_EQ_INT(goap_pddl_validate(t, "u", unknown, strlen(unknown), &r, &err), GOAP_OK);
  CHECK(!r.valid);
  CHECK_STR(r.message, "step 2 (jump rooma): unknown action 'jump'");
  const char *arity = "(move rooma)\n";
  CHECK_EQ_INT(goap_pddl_validate(t, "a", arity, strlen(arity), &r, &err), GOAP_OK);
  CHECK_STR(r.message, "step 1 (move rooma): 'move' takes 2 arguments, 1 given");
  const char *obj = "(move rooma roomc)\n";
  CHECK_EQ_INT(goap_pddl_validate(t, "o", obj, strlen(obj), &r, &err), GOAP_OK);
  CHECK_STR(r.message, "step 1 (move rooma roomc): unknown object 'roomc'");

  const char *bad = "(pick ball1 rooma left)\n(move rooma\n";
  CHECK_EQ_INT(goap_pddl_validate(t, "bad.plan", bad, strlen(bad), &r, &err), GOAP_PARSE_ERROR);
  CHECK_EQ_INT(err.line, 2);
  CHECK_EQ_INT(err.col, 1);
  CHECK_STR(err.file, "bad.plan");
  goap_pddl_destroy(t);

  /* typed: an object of the wrong type */
  t = load_files("grid.pddl", "grid-1.pddl");
  REQUIRE(t != NULL);
  const char *typed = "(move c11 c11 c12)\n";
  CHECK_EQ_INT(goap_pddl_validate(t, "t", typed, strlen(typed), &r, &err), GOAP_OK);
  CHECK_STR(r.message, "step 1 (move c11 c11 c12): 'c11' is not of type 'robot' (parameter ?r)");
  const char *neg = "(move r1 c11 c21)\n(move r2 c23 c22)\n(move r2 c22 c21)\n";
  CHECK_EQ_INT(goap_pddl_validate(t, "n", neg, strlen(neg), &r, &err), GOAP_OK);
  CHECK_STR(r.message, "step 3 (move r2 c22 c21): precondition (not (occupied c21)) does not hold");
  CHECK_NEAR(r.cost, 7.0, 0);
  goap_pddl_destroy(t);
}

/* ---- allocation failures ---------------------------------------------------------------- */

TEST(allocation_failures_are_clean) {
  size_t dl, pl;
  char *dom = read_test_file("grid.pddl", &dl);
  char *prob = read_test_file("grid-1.pddl", &pl);
  REQUIRE(dom && prob);
  int successes = 0;
  for (size_t k = 1; k < 100000; ++k) {
    test_alloc c;
    memset(&c, 0, sizeof c);
    c.fail_at = k;
    goap_pddl_options opt;
    memset(&opt, 0, sizeof opt);
    opt.allocator = test_alloc_hook(&c);
    goap_pddl_task *t = NULL;
    goap_error err;
    goap_status st = goap_pddl_parse("g", dom, dl, "p", prob, pl, &opt, &t, &err);
    if (st == GOAP_OK) {
      CHECK_NEAR(plan_cost(t, NULL, 0), 19.0, 0);
      goap_pddl_destroy(t);
      CHECK_EQ_INT(c.outstanding, 0);
      CHECK_EQ_INT(c.bad_old_size, 0);
      successes++;
      if (c.calls < k) break; /* no allocation was failed: every point has been tried */
      continue;
    }
    CHECK_EQ_INT(st, GOAP_OUT_OF_MEMORY);
    CHECK(t == NULL);
    CHECK_EQ_INT(c.outstanding, 0);
    CHECK_EQ_INT(c.bad_old_size, 0);
    if (c.outstanding || c.bad_old_size || st != GOAP_OUT_OF_MEMORY) {
      fprintf(stderr, "failing allocation %zu: %s (%s)\n", k, goap_status_name(st), err.message);
      break;
    }
  }
  CHECK(successes >= 1);
  free(dom);
  free(prob);
}

TEST(null_arguments) {
  goap_pddl_task *t = NULL;
  goap_error err;
  CHECK_EQ_INT(goap_pddl_parse("d", NULL, 3, "p", "", 0, NULL, &t, &err), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_pddl_load(NULL, "p", NULL, &t, &err), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_pddl_load("/nonexistent/d.pddl", "/nonexistent/p.pddl", NULL, &t, &err),
               GOAP_IO_ERROR);
  CHECK(t == NULL);
  CHECK(goap_pddl_domain(NULL) == NULL);
  CHECK(goap_pddl_start(NULL) == NULL);
  int n = 5;
  CHECK(goap_pddl_goal(NULL, &n) == NULL);
  CHECK_EQ_INT(n, 0);
  goap_pddl_report r;
  CHECK_EQ_INT(goap_pddl_validate(NULL, "x", "", 0, &r, &err), GOAP_INVALID_ARGUMENT);
  char buf[8];
  CHECK_EQ_INT(goap_pddl_format_action(NULL, 0, buf, sizeof buf), 3);
  CHECK_STR(buf, "(?)");
  goap_pddl_destroy(NULL);
}

/* A task whose predicates and actions take no arguments at all (the argument pool stays
 * empty): grounding, planning and validation work (and are clean under UBSan). */
TEST(task_without_any_arguments) {
  const char *dom = "(define (domain z) (:predicates (p) (q))"
                    " (:action a :effect (p)) (:action b :precondition (p) :effect (q)))";
  const char *prob = "(define (problem z1) (:domain z) (:init) (:goal (q)))";
  goap_status st;
  goap_error err;
  goap_pddl_task *t = load_text(dom, prob, NULL, &st, &err);
  REQUIRE(t != NULL);
  goap_pddl_info info;
  goap_pddl_get_info(t, &info);
  CHECK_EQ_INT(info.ground_actions, 2);
  CHECK_EQ_INT(info.variables, 2);
  goap_pddl_report r;
  const char *plan = "(a)\n(b)\n";
  CHECK_EQ_INT(goap_pddl_validate(t, "plan", plan, strlen(plan), &r, &err), GOAP_OK);
  CHECK_EQ_INT(r.valid, 1);
  CHECK_EQ_INT(r.steps, 2);
  const char *bad = "(b)\n";
  CHECK_EQ_INT(goap_pddl_validate(t, "plan", bad, strlen(bad), &r, &err), GOAP_OK);
  CHECK_EQ_INT(r.valid, 0);
  CHECK_EQ_INT(r.bad_step, 0);
  goap_pddl_destroy(t);
}

TEST_MAIN(TEST_ENTRY(task_without_any_arguments), TEST_ENTRY(forall_preconditions_and_goals_and_wide_actions), TEST_ENTRY(parse_errors_have_exact_positions), TEST_ENTRY(diag_carries_the_source_line),
          TEST_ENTRY(grounding_sizes_gripper_and_blocks),
          TEST_ENTRY(grounding_never_enumerates_all_combinations),
          TEST_ENTRY(grid_costs_equality_negation), TEST_ENTRY(names_are_case_insensitive),
          TEST_ENTRY(constants_listed_again_in_objects),
          TEST_ENTRY(add_wins_over_delete_and_static_goals),
          TEST_ENTRY(blocks_optimal_costs_match_brute_force),
          TEST_ENTRY(gripper_optimal_costs_match_brute_force),
          TEST_ENTRY(grid_optimal_costs_match_brute_force),
          TEST_ENTRY(validator_reports_the_first_failure),
          TEST_ENTRY(allocation_failures_are_clean), TEST_ENTRY(null_arguments))
