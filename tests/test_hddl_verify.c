/*
 * test_hddl_verify.c -- goap_hddl_verify on a small courier domain written here: a valid plan
 * (also in pandaPI's `__top` form), and one broken variant per check, each asserting the
 * verifier's exact message (a distinctive substring), line and column; malformed texts with
 * their parse-error position; the goal; free method parameters; allocation failures.
 */
#include <goap/goap.h>
#include <goap/hddl.h>
#include <goap/pddl.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc_hook.h"
#include "test.h"

/* ---- the domain, the problems ------------------------------------------------------------ */

static const char *const DOMAIN =
    "(define (domain courier)\n"
    "  (:requirements :typing :hierarchy :negative-preconditions)\n"
    "  (:types loc box - object)\n"
    "  (:predicates (at ?l - loc) (box-at ?b - box ?l - loc) (holding ?b - box) (handempty)\n"
    "               (adj ?x ?y - loc))\n"
    "  (:task goto :parameters (?to - loc))\n"
    "  (:task deliver :parameters (?b - box ?to - loc))\n"
    "  (:task check :parameters (?b - box))\n"
    "  (:method m-here :parameters (?to - loc) :task (goto ?to) :precondition (at ?to))\n"
    "  (:method m-step :parameters (?from ?mid ?to - loc) :task (goto ?to)\n"
    "    :ordered-subtasks (and (move ?from ?mid) (goto ?to)))\n"
    "  (:method m-deliver :parameters (?b - box ?l ?to - loc) :task (deliver ?b ?to)\n"
    "    :precondition (box-at ?b ?l)\n"
    "    :ordered-subtasks (and (goto ?l) (pick ?b ?l) (goto ?to) (drop ?b ?to)))\n"
    "  (:method m-check :parameters (?b - box ?l - loc) :task (check ?b)\n"
    "    :precondition (and (box-at ?b ?l) (not (holding ?b))))\n"
    "  (:action move :parameters (?from ?to - loc)\n"
    "    :precondition (and (at ?from) (adj ?from ?to))\n"
    "    :effect (and (not (at ?from)) (at ?to)))\n"
    "  (:action pick :parameters (?b - box ?l - loc)\n"
    "    :precondition (and (at ?l) (box-at ?b ?l) (handempty))\n"
    "    :effect (and (holding ?b) (not (box-at ?b ?l)) (not (handempty))))\n"
    "  (:action drop :parameters (?b - box ?l - loc)\n"
    "    :precondition (and (at ?l) (holding ?b))\n"
    "    :effect (and (box-at ?b ?l) (handempty) (not (holding ?b)))))\n";

/* The robot at a, the box x at b, a - b - c. Network, extra init atoms and goal vary. */
static const char *const PROBLEM_FMT =
    "(define (problem p1) (:domain courier)\n"
    "  (:objects a b c - loc x - box)\n"
    "  (:htn :parameters () :ordered-subtasks (and %s))\n"
    "  (:init (at a) (handempty) (adj a b) (adj b a) (adj b c) (adj c b) %s)\n"
    "  %s)\n";

static const char *const NETWORK = "(t1 (deliver x c)) (t2 (check x))";

/* line numbers on the left are the plan's lines */
static const char *const VALID =
    "==>\n"                                    /* 1 */
    "0 move a b\n"                             /* 2 */
    "1 pick x b\n"                             /* 3 */
    "2 move b c\n"                             /* 4 */
    "3 drop x c\n"                             /* 5 */
    "root 10 15\n"                             /* 6 */
    "10 deliver x c -> m-deliver 11 1 13 3\n"  /* 7 */
    "11 goto b -> m-step 0 12\n"               /* 8 */
    "12 goto b -> m-here\n"                    /* 9 */
    "13 goto c -> m-step 2 14\n"               /* 10 */
    "14 goto c -> m-here\n"                    /* 11 */
    "15 check x -> m-check\n"                  /* 12 */
    "<==\n";                                   /* 13 */

static goap_pddl_task *load(const char *network, const char *init, const char *goal) {
  char prob[2048];
  snprintf(prob, sizeof prob, PROBLEM_FMT, network, init, goal);
  goap_pddl_options opt;
  memset(&opt, 0, sizeof opt);
  opt.flags = GOAP_PDDL_HTN;
  goap_pddl_task *t = NULL;
  goap_error err;
  if (goap_pddl_parse("courier.hddl", DOMAIN, strlen(DOMAIN), "p1.hddl", prob, strlen(prob), &opt,
                      &t, &err) != GOAP_OK)
    fprintf(stderr, "%s:%d:%d: %s\n", err.file, err.line, err.col, err.message);
  return t;
}

/* VALID with the first occurrence of `from` replaced by `to` (malloc'd). */
static char *edit(const char *plan, const char *from, const char *to) {
  const char *p = strstr(plan, from);
  if (!p) {
    fprintf(stderr, "edit: '%s' not in the plan\n", from);
    return NULL;
  }
  size_t n = strlen(plan) - strlen(from) + strlen(to);
  char *s = (char *)malloc(n + 1);
  if (!s) return NULL;
  size_t a = (size_t)(p - plan);
  memcpy(s, plan, a);
  memcpy(s + a, to, strlen(to));
  strcpy(s + a + strlen(to), p + strlen(from));
  return s;
}

/* Verifies plan on the default problem; returns the status, fills r and err. */
static goap_status verify_on(goap_pddl_task *t, const char *plan, goap_hddl_report *r, goap_error *err) {
  return goap_hddl_verify(t, "p.plan", plan, strlen(plan), r, err);
}

/* Checks that plan is read (GOAP_OK), invalid, at line:col, with `msg` in the message. */
static int expect_invalid(goap_pddl_task *t, const char *plan, int line, int col, const char *msg) {
  goap_hddl_report r;
  goap_error err;
  int bad = 0;
  if (!plan) return 1;
  goap_status st = verify_on(t, plan, &r, &err);
  if (st != GOAP_OK) {
    fprintf(stderr, "  status %s: %s\n", goap_status_string(st), err.message);
    return 1;
  }
  if (r.valid || r.line != line || r.col != col || !strstr(r.message, msg)) {
    fprintf(stderr, "  got valid=%d %d:%d: %s\n  expected %d:%d: ...%s...\n", r.valid, r.line, r.col,
            r.message, line, col, msg);
    bad = 1;
  }
  return bad;
}

static int expect_parse_error(goap_pddl_task *t, const char *plan, int line, int col, const char *msg) {
  goap_hddl_report r;
  goap_error err;
  if (!plan) return 1;
  goap_status st = verify_on(t, plan, &r, &err);
  if (st != GOAP_PARSE_ERROR || err.status != GOAP_PARSE_ERROR || err.line != line ||
      err.col != col || !strstr(err.message, msg) || strcmp(err.file, "p.plan") != 0) {
    fprintf(stderr, "  got %s %s:%d:%d: %s\n  expected PARSE_ERROR %d:%d: ...%s...\n",
            goap_status_string(st), err.file, err.line, err.col, err.message, line, col, msg);
    return 1;
  }
  return 0;
}

/* ---- tests -------------------------------------------------------------------------------- */

TEST(valid_plan) {
  goap_pddl_task *t = load(NETWORK, "(box-at x b)", "(:goal (box-at x c))");
  REQUIRE(t);
  REQUIRE(goap_hddl_is_htn(t));
  goap_hddl_report r;
  goap_error err;
  CHECK_EQ_INT(verify_on(t, VALID, &r, &err), GOAP_OK);
  CHECK_EQ_INT(r.valid, 1);
  CHECK_EQ_INT(r.primitives, 4);
  CHECK_EQ_INT(r.compounds, 6);
  CHECK_STR(r.message, "");
  CHECK_EQ_INT(r.line, 0);
  /* text before '==>', comments, blank lines, trailing blanks, CRLF, upper case, no '<==' */
  const char *loose =
      "planner output\r\n; found a plan\r\n==>\r\n0 MOVE a b   \r\n\r\n1 pick X b ; grab\r\n"
      "2 move b c\r\n3 drop x c\r\nroot 10   15\r\n10 deliver x c  -> m-deliver 11 1 13 3\r\n"
      "11 goto b -> m-step 0 12\r\n12 goto b -> m-here\r\n13 goto c -> m-step 2 14\r\n"
      "14 goto c -> m-here \r\n15 check x -> m-check";
  CHECK_EQ_INT(verify_on(t, loose, &r, &err), GOAP_OK);
  CHECK_EQ_INT(r.valid, 1);
  /* decomposition lines and the root line in another order (ids are names, not positions) */
  const char *shuffled =
      "==>\n0 move a b\n1 pick x b\n2 move b c\n3 drop x c\n15 check x -> m-check\n"
      "13 goto c -> m-step 2 14\n10 deliver x c -> m-deliver 11 1 13 3\n14 goto c -> m-here\n"
      "12 goto b -> m-here\n11 goto b -> m-step 0 12\nroot 10 15\n<==\n";
  CHECK_EQ_INT(verify_on(t, shuffled, &r, &err), GOAP_OK);
  CHECK_EQ_INT(r.valid, 1);
  goap_pddl_destroy(t);
}

TEST(top_form) {
  goap_pddl_task *t = load(NETWORK, "(box-at x b)", "");
  REQUIRE(t);
  char *p = edit(VALID, "root 10 15\n", "root 30\n30 __top -> __top_method 10 15\n");
  goap_hddl_report r;
  goap_error err;
  REQUIRE(p);
  CHECK_EQ_INT(verify_on(t, p, &r, &err), GOAP_OK);
  CHECK_EQ_INT(r.valid, 1);
  CHECK_EQ_INT(r.compounds, 7);
  free(p);
  /* __top's subtasks in the wrong order: at the first one, on __top's line */
  p = edit(VALID, "root 10 15\n", "root 30\n30 __top -> __top_method 15 10\n");
  CHECK(!expect_invalid(t, p, 7, 26,
                        "root: id 15 does not match task 1 (deliver x c) of the initial task "
                        "network: it is task 'check' (line 13)"));
  free(p);
  /* __top must be the only root */
  p = edit(VALID, "root 10 15\n", "root 30 15\n30 __top -> __top_method 10\n");
  CHECK(!expect_invalid(t, p, 7, 4, "the artificial task '__top' must be the only id on the root line"));
  free(p);
  goap_pddl_destroy(t);
}

TEST(inapplicable_action) {
  goap_pddl_task *t = load(NETWORK, "(box-at x b)", "");
  REQUIRE(t);
  char *p = edit(VALID, "0 move a b", "0 move c b");
  CHECK(!expect_invalid(t, p, 2, 1, "step 1 (primitive 0) (move c b): precondition (at c) does not hold"));
  free(p);
  /* the box is not where the pick happens: the robot never picks it at c */
  p = edit(VALID, "1 pick x b", "1 pick x a");
  /* (the tree then binds ?l = b for goto but pick says a: caught by the method binding) */
  CHECK(!expect_invalid(t, p, 7, 32,
                        "decomposition 10: subtask 2 (id 1) does not match (pick ?b ?l), subtask 2 "
                        "of method 'm-deliver': its argument 2 is 'a', but ?l is 'b'"));
  free(p);
  goap_pddl_destroy(t);
}

TEST(wrong_method_for_task) {
  goap_pddl_task *t = load(NETWORK, "(box-at x b)", "");
  REQUIRE(t);
  char *p = edit(VALID, "11 goto b -> m-step 0 12", "11 goto b -> m-deliver 0 12");
  CHECK(!expect_invalid(t, p, 8, 14, "decomposition 11: method 'm-deliver' decomposes task 'deliver', not 'goto'"));
  free(p);
  p = edit(VALID, "11 goto b -> m-step 0 12", "11 goto b -> m-teleport 0 12");
  CHECK(!expect_invalid(t, p, 8, 14, "decomposition 11: unknown method 'm-teleport'"));
  free(p);
  p = edit(VALID, "15 check x -> m-check", "15 inspect x -> m-check");
  CHECK(!expect_invalid(t, p, 12, 4, "decomposition 15: unknown task 'inspect'"));
  free(p);
  p = edit(VALID, "15 check x -> m-check", "15 move a b -> m-check");
  CHECK(!expect_invalid(t, p, 12, 4, "decomposition 15: 'move' is an action, not a compound task"));
  free(p);
  p = edit(VALID, "0 move a b", "0 goto b");
  CHECK(!expect_invalid(t, p, 2, 3, "primitive 0: 'goto' is a compound task, not an action"));
  free(p);
  p = edit(VALID, "0 move a b", "0 fly a b");
  CHECK(!expect_invalid(t, p, 2, 3, "primitive 0: unknown action 'fly'"));
  free(p);
  goap_pddl_destroy(t);
}

TEST(subtasks_and_bindings) {
  goap_pddl_task *t = load(NETWORK, "(box-at x b)", "");
  REQUIRE(t);
  /* subtask order swapped */
  char *p = edit(VALID, "-> m-deliver 11 1 13 3", "-> m-deliver 1 11 13 3");
  CHECK(!expect_invalid(t, p, 7, 29,
                        "decomposition 10: subtask 1 (id 1) does not match (goto ?l), subtask 1 of "
                        "method 'm-deliver': it is action 'pick' (line 3)"));
  free(p);
  /* too many children (too few leaves a primitive unused: a tree failure, checked first) */
  char *q = edit(VALID, "-> m-deliver 11 1 13 3", "-> m-deliver 11 1 13 3 16");
  p = q ? edit(q, "<==", "16 goto c -> m-here\n<==") : NULL;
  CHECK(!expect_invalid(t, p, 7, 19, "decomposition 10: method 'm-deliver' has 4 subtasks, 5 given"));
  free(q);
  free(p);
  p = edit(VALID, "-> m-deliver 11 1 13 3", "-> m-deliver 11 1 13");
  CHECK(!expect_invalid(t, p, 5, 1, "primitive 3 is not used"));
  free(p);
  /* a child's argument against a binding made by the task */
  p = edit(VALID, "14 goto c -> m-here", "14 goto b -> m-here");
  CHECK(!expect_invalid(t, p, 10, 23,
                        "decomposition 13: subtask 2 (id 14) does not match (goto ?to), subtask 2 of "
                        "method 'm-step': its argument 1 is 'b', but ?to is 'c'"));
  free(p);
  goap_pddl_destroy(t);
}

TEST(method_preconditions) {
  goap_pddl_task *t = load(NETWORK, "(box-at x b)", "");
  REQUIRE(t);
  /* m-deliver with ?l = a: the box is not at a before the first step */
  const char *p1 =
      "==>\n1 pick x a\n2 move a b\n3 move b c\n4 drop x c\nroot 10 15\n"
      "10 deliver x c -> m-deliver 11 1 13 4\n11 goto a -> m-here\n13 goto c -> m-step 2 14\n"
      "14 goto c -> m-step 3 16\n16 goto c -> m-here\n15 check x -> m-check\n<==\n";
  CHECK(!expect_invalid(t, p1, 7, 1,
                        "decomposition 10 (deliver x c): precondition (box-at x a) of method "
                        "'m-deliver' does not hold before step 1 (primitive 1)"));
  /* an empty method (m-here) sits before the next step: the robot is not at b yet */
  char *a = edit(VALID, "0 move a b\n", "");
  char *b = a ? edit(a, "11 goto b -> m-step 0 12\n12 goto b -> m-here\n", "11 goto b -> m-here\n") : NULL;
  CHECK(!expect_invalid(t, b, 7, 1,
                        "decomposition 11 (goto b): precondition (at b) of method 'm-here' does not "
                        "hold before step 1 (primitive 1)"));
  free(a);
  free(b);
  goap_pddl_destroy(t);
  /* a parameter bound by the preconditions only (?l of m-check): searched in the state */
  t = load("(t1 (check x))", "(box-at x c)", "");
  REQUIRE(t);
  goap_hddl_report r;
  goap_error err;
  CHECK_EQ_INT(verify_on(t, "==>\nroot 0\n0 check x -> m-check\n<==\n", &r, &err), GOAP_OK);
  CHECK_EQ_INT(r.valid, 1);
  goap_pddl_destroy(t);
  t = load("(t1 (check x))", "", "");
  REQUIRE(t);
  CHECK(!expect_invalid(t, "==>\nroot 0\n0 check x -> m-check\n<==\n", 3, 1,
                        "decomposition 0 (check x): no binding of ?l makes the preconditions of "
                        "method 'm-check' hold at the end of the plan"));
  goap_pddl_destroy(t);
  /* that search is bounded: the task's max_work (when below the verifier's own bound) */
  {
    char prob[2048];
    snprintf(prob, sizeof prob, PROBLEM_FMT, "(t1 (check x))", "", "");
    goap_pddl_options opt;
    memset(&opt, 0, sizeof opt);
    opt.flags = GOAP_PDDL_HTN;
    opt.max_work = 2;
    REQUIRE(goap_pddl_parse("d", DOMAIN, strlen(DOMAIN), "p", prob, strlen(prob), &opt, &t, &err) == GOAP_OK);
    const char *plan = "==>\nroot 0\n0 check x -> m-check\n<==\n";
    CHECK_EQ_INT(verify_on(t, plan, &r, &err), GOAP_TOO_LARGE);
    CHECK_EQ_INT(err.status, GOAP_TOO_LARGE);
    CHECK(strstr(err.message, "tried more than 2 candidates") != NULL);
    CHECK_EQ_INT(r.valid, 0);
    goap_pddl_destroy(t);
    opt.max_work = 4; /* the root call and one per location: enough to fail properly */
    REQUIRE(goap_pddl_parse("d", DOMAIN, strlen(DOMAIN), "p", prob, strlen(prob), &opt, &t, &err) == GOAP_OK);
    CHECK_EQ_INT(verify_on(t, plan, &r, &err), GOAP_OK);
    CHECK_EQ_INT(r.valid, 0);
    goap_pddl_destroy(t);
  }
}

TEST(tree_structure) {
  goap_pddl_task *t = load(NETWORK, "(box-at x b)", "");
  REQUIRE(t);
  char *p = edit(VALID, "3 drop x c\n", "3 drop x c\n5 move c b\n");
  CHECK(!expect_invalid(t, p, 6, 1, "primitive 5 is not used: no decomposition and not the root line lists it"));
  free(p);
  p = edit(VALID, "13 goto c -> m-step 2 14", "13 goto c -> m-step 0 14");
  CHECK(!expect_invalid(t, p, 10, 21, "decomposition 13: primitive 0 is already a subtask of decomposition 11 (line 8)"));
  free(p);
  p = edit(VALID, "<==", "20 goto a -> m-step 21\n21 goto a -> m-here 20\n<==");
  CHECK(!expect_invalid(t, p, 13, 1,
                        "decomposition 20 is on a cycle of subtasks (its parent is decomposition 21, "
                        "line 14, which descends from it)"));
  free(p);
  p = edit(VALID, "<==", "20 goto a -> m-here 20\n<==");
  CHECK(!expect_invalid(t, p, 13, 1, "decomposition 20 is on a cycle of subtasks"));
  free(p);
  p = edit(VALID, "12 goto b -> m-here\n13", "12 goto b -> m-here\n12 goto c -> m-here\n13");
  CHECK(!expect_invalid(t, p, 10, 1, "id 12 is defined twice (first on line 9)"));
  free(p);
  p = edit(VALID, "-> m-step 2 14", "-> m-step 2 99");
  CHECK(!expect_invalid(t, p, 10, 23, "decomposition 13: subtask id 99 is not defined"));
  free(p);
  p = edit(VALID, "root 10 15", "root 10");
  CHECK(!expect_invalid(t, p, 12, 1, "decomposition 15 is not reachable from the root"));
  free(p);
  p = edit(VALID, "root 10 15", "root 10 15 10");
  CHECK(!expect_invalid(t, p, 6, 12, "root: id 10 is listed twice"));
  free(p);
  p = edit(VALID, "root 10 15", "root 10 15 11");
  CHECK(!expect_invalid(t, p, 7, 29, "decomposition 10: id 11 is on the root line (line 6)"));
  free(p);
  goap_pddl_destroy(t);
}

TEST(root_list) {
  goap_pddl_task *t = load(NETWORK, "(box-at x b)", "");
  REQUIRE(t);
  char *p = edit(VALID, "root 10 15", "root 15 10");
  CHECK(!expect_invalid(t, p, 6, 6,
                        "root: id 15 does not match task 1 (deliver x c) of the initial task "
                        "network: it is task 'check' (line 12)"));
  free(p);
  goap_pddl_destroy(t);
  /* a network of one task, a plan with two roots */
  t = load("(t1 (deliver x c))", "(box-at x b)", "");
  REQUIRE(t);
  CHECK(!expect_invalid(t, VALID, 6, 1, "root: the initial task network has 1 task, 2 given"));
  goap_pddl_destroy(t);
}

TEST(order) {
  goap_pddl_task *t = load(NETWORK, "(box-at x b)", "");
  REQUIRE(t);
  char *p = edit(VALID, "0 move a b\n1 pick x b\n", "1 pick x b\n0 move a b\n");
  CHECK(!expect_invalid(t, p, 2, 1,
                        "step 1 (primitive 1) is out of order: the decomposition tree's step 1 is "
                        "primitive 0 (line 3)"));
  free(p);
  goap_pddl_destroy(t);
}

TEST(names_arity_types) {
  goap_pddl_task *t = load(NETWORK, "(box-at x b)", "");
  REQUIRE(t);
  char *p = edit(VALID, "0 move a b", "0 move a");
  CHECK(!expect_invalid(t, p, 2, 3, "primitive 0: action 'move' takes 2 arguments, 1 given"));
  free(p);
  p = edit(VALID, "15 check x -> m-check", "15 check x c -> m-check");
  CHECK(!expect_invalid(t, p, 12, 4, "decomposition 15: task 'check' takes 1 argument, 2 given"));
  free(p);
  p = edit(VALID, "0 move a b", "0 move x b");
  CHECK(!expect_invalid(t, p, 2, 8, "primitive 0: 'x' is not of type 'loc' (parameter ?from of action 'move')"));
  free(p);
  p = edit(VALID, "0 move a b", "0 move a zz");
  CHECK(!expect_invalid(t, p, 2, 10, "primitive 0: unknown object 'zz'"));
  free(p);
  p = edit(VALID, "15 check x", "15 check a");
  CHECK(!expect_invalid(t, p, 12, 10, "decomposition 15: 'a' is not of type 'box' (argument 1 of task 'check')"));
  free(p);
  goap_pddl_destroy(t);
}

TEST(goal) {
  goap_pddl_task *t = load(NETWORK, "(box-at x b)", "(:goal (box-at x a))");
  REQUIRE(t);
  CHECK(!expect_invalid(t, VALID, 13, 1, "the goal (box-at x a) does not hold after the 4 steps"));
  goap_pddl_destroy(t);
}

TEST(malformed) {
  goap_pddl_task *t = load(NETWORK, "(box-at x b)", "");
  REQUIRE(t);
  char *p = edit(VALID, "2 move b c", "2x move b c");
  CHECK(!expect_parse_error(t, p, 4, 1, "'2x' is not an id"));
  free(p);
  p = edit(VALID, "root 10 15", "root 10 x");
  CHECK(!expect_parse_error(t, p, 6, 9, "expected an id (a non-negative number) on the root line, found 'x'"));
  free(p);
  p = edit(VALID, "-> m-deliver 11", "-> 11");
  CHECK(!expect_parse_error(t, p, 7, 19, "expected a method name after '->', found '11'"));
  free(p);
  p = edit(VALID, "-> m-deliver 11 1 13 3", "-> m-deliver 11 1 thirteen 3");
  CHECK(!expect_parse_error(t, p, 7, 34, "expected a subtask id (a non-negative number), found 'thirteen'"));
  free(p);
  p = edit(VALID, "15 check x -> m-check", "15 check x ->");
  CHECK(!expect_parse_error(t, p, 12, 14, "expected a method name after '->'"));
  free(p);
  p = edit(VALID, "0 move a b", "0");
  CHECK(!expect_parse_error(t, p, 2, 2, "expected an action or task name after the id"));
  free(p);
  p = edit(VALID, "0 move a b", "move a b");
  CHECK(!expect_parse_error(t, p, 2, 1, "expected 'ID action ARGS', 'ID task ARGS -> method IDS', 'root IDS' or '<==', found 'move'"));
  free(p);
  p = edit(VALID, "15 check x -> m-check\n", "15 check x -> m-check\nroot 10\n");
  CHECK(!expect_parse_error(t, p, 13, 1, "a second 'root' line (the first is line 6)"));
  free(p);
  p = edit(VALID, "root 10 15\n", "");
  CHECK(!expect_parse_error(t, p, 12, 1, "the plan has no 'root' line"));
  free(p);
  p = edit(VALID, "==>\n", "");
  CHECK(!expect_parse_error(t, p, 1, 1, "no '==>' line"));
  free(p);
  p = edit(VALID, "0 move a b", "99999999999 move a b");
  CHECK(!expect_parse_error(t, p, 2, 1, "'99999999999' is not an id"));
  free(p);
  /* the diagnostic carries the source line */
  goap_hddl_report r;
  goap_error err;
  p = edit(VALID, "2 move b c", "2x move b c");
  REQUIRE(p);
  CHECK_EQ_INT(verify_on(t, p, &r, &err), GOAP_PARSE_ERROR);
  CHECK_STR(err.source, "2x move b c");
  CHECK_EQ_INT(r.valid, 0);
  free(p);
  goap_pddl_destroy(t);
}

TEST(arguments) {
  goap_pddl_task *t = load(NETWORK, "(box-at x b)", "");
  REQUIRE(t);
  goap_hddl_report r;
  goap_error err;
  CHECK_EQ_INT(goap_hddl_verify(NULL, "p", VALID, strlen(VALID), &r, &err), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_hddl_verify(t, "p", NULL, 0, &r, &err), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_hddl_verify(t, "p", VALID, strlen(VALID), NULL, &err), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_hddl_verify(t, NULL, VALID, strlen(VALID), &r, NULL), GOAP_OK);
  CHECK_EQ_INT(r.valid, 1);
  /* a task not loaded as HDDL */
  const char *dom = "(define (domain d) (:predicates (p)) (:action a :parameters () :precondition (p) :effect (not (p))))";
  const char *prob = "(define (problem q) (:domain d) (:init (p)) (:goal (not (p))))";
  goap_pddl_options opt;
  memset(&opt, 0, sizeof opt);
  opt.flags = GOAP_PDDL_PARSE_ONLY;
  goap_pddl_task *s = NULL;
  REQUIRE(goap_pddl_parse("d", dom, strlen(dom), "q", prob, strlen(prob), &opt, &s, &err) == GOAP_OK);
  CHECK_EQ_INT(goap_hddl_verify(s, "p", "==>\nroot\n<==\n", 13, &r, &err), GOAP_INVALID_ARGUMENT);
  goap_pddl_destroy(s);
  goap_pddl_destroy(t);
}

TEST(no_arguments_at_all) {
  /* nothing has a parameter: the task's argument pool is empty */
  const char *dom =
      "(define (domain z) (:predicates (p) (q))\n"
      "  (:task t :parameters ())\n"
      "  (:method m :parameters () :task (t) :precondition (p) :ordered-subtasks (and (a) (b)))\n"
      "  (:action a :parameters () :precondition (p) :effect (and (not (p)) (q)))\n"
      "  (:action b :parameters () :precondition (q) :effect (p)))\n";
  const char *prob = "(define (problem y) (:domain z) (:htn :ordered-subtasks (and (t))) (:init (p)))";
  goap_pddl_options opt;
  memset(&opt, 0, sizeof opt);
  opt.flags = GOAP_PDDL_HTN;
  goap_pddl_task *t = NULL;
  goap_error err;
  REQUIRE(goap_pddl_parse("z", dom, strlen(dom), "y", prob, strlen(prob), &opt, &t, &err) == GOAP_OK);
  goap_hddl_report r;
  CHECK_EQ_INT(verify_on(t, "==>\n0 a\n1 b\nroot 2\n2 t -> m 0 1\n<==\n", &r, &err), GOAP_OK);
  CHECK_EQ_INT(r.valid, 1);
  CHECK(!expect_invalid(t, "==>\n1 b\n0 a\nroot 2\n2 t -> m 0 1\n<==\n", 2, 1,
                        "step 1 (primitive 1) is out of order"));
  CHECK(!expect_invalid(t, "==>\n0 a\n1 a\nroot 2\n2 t -> m 0 1\n<==\n", 5, 12,
                        "decomposition 2: subtask 2 (id 1) does not match (b), subtask 2 of method 'm': it is action 'a' (line 3)"));
  goap_pddl_destroy(t);
}

/* Random edits of the valid plan: never a crash, always a status with a position. */
TEST(random_edits) {
  goap_pddl_task *t = load(NETWORK, "(box-at x b)", "(:goal (box-at x c))");
  REQUIRE(t);
  static const char alphabet[] = "0123456789 \n->;abcx_root<=\t";
  uint32_t seed = 12345u;
  size_t n = strlen(VALID);
  char buf[1024];
  int valid = 0, invalid = 0, malformed = 0;
  for (int round = 0; round < 4000; ++round) {
    memcpy(buf, VALID, n + 1);
    size_t len = n;
    int edits = 1 + (int)(round % 3);
    for (int e = 0; e < edits; ++e) {
      seed = seed * 1103515245u + 12345u;
      size_t at = (seed >> 8) % len;
      seed = seed * 1103515245u + 12345u;
      char c = alphabet[(seed >> 8) % (sizeof alphabet - 1)];
      switch ((seed >> 20) % 3) {
      case 0: buf[at] = c; break;
      case 1: memmove(buf + at, buf + at + 1, len - at); --len; break;
      default:
        if (len + 2 < sizeof buf) {
          memmove(buf + at + 1, buf + at, len - at + 1);
          buf[at] = c;
          ++len;
        }
      }
    }
    goap_hddl_report r;
    goap_error err;
    goap_status st = goap_hddl_verify(t, "p.plan", buf, len, &r, &err);
    if (st == GOAP_OK && r.valid) {
      ++valid;
      CHECK(r.message[0] == 0 && r.line == 0);
    } else if (st == GOAP_OK) {
      ++invalid;
      CHECK(r.message[0] != 0 && r.line >= 1 && r.col >= 1);
    } else {
      ++malformed;
      CHECK_EQ_INT(st, GOAP_PARSE_ERROR);
      CHECK(err.line >= 1 && err.col >= 1 && err.message[0]);
    }
  }
  CHECK(invalid > 100 && malformed > 100);
  (void)valid;
  goap_pddl_destroy(t);
}

/* ---- allocation failures ------------------------------------------------------------------- */

TEST(out_of_memory) {
  test_alloc b;
  memset(&b, 0, sizeof b);
  char prob[2048];
  snprintf(prob, sizeof prob, PROBLEM_FMT, NETWORK, "(box-at x b)", "");
  goap_pddl_options opt;
  memset(&opt, 0, sizeof opt);
  opt.flags = GOAP_PDDL_HTN;
  opt.allocator = test_alloc_hook(&b);
  goap_pddl_task *t = NULL;
  goap_error err;
  REQUIRE(goap_pddl_parse("d", DOMAIN, strlen(DOMAIN), "p", prob, strlen(prob), &opt, &t, &err) == GOAP_OK);
  size_t base = b.live;
  int ok = 0, oom = 0;
  for (size_t n = 0; n < 200 && !ok; ++n) {
    b.fail_at = b.calls + n + 1; /* n more allocations, then every one fails */
    b.fail_after = 1;
    goap_hddl_report r;
    goap_status st = verify_on(t, VALID, &r, &err);
    CHECK(st == GOAP_OK || st == GOAP_OUT_OF_MEMORY);
    if (st == GOAP_OK) {
      CHECK_EQ_INT(r.valid, 1);
      ok = 1;
    } else {
      ++oom;
      CHECK_STR(err.message, "out of memory");
    }
    CHECK_EQ_INT(b.live, base); /* nothing leaked */
  }
  CHECK(ok);
  CHECK(oom > 3);
  b.fail_at = 0;
  goap_pddl_destroy(t);
  CHECK_EQ_INT(b.live, 0);
  CHECK_EQ_INT(b.bad_old_size, 0);
  CHECK_EQ_INT(b.unknown_ptr, 0);
}

/* ---- forall (tests/hddl/lamps.hddl) and no fixed limits (tests/hddl/wide.hddl) ------------ */

static char *read_file(const char *rel, size_t *len) {
  char path[512];
  snprintf(path, sizeof path, "%s/hddl/%s", GOAP_TESTS_DIR, rel);
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *buf = (char *)malloc(1 << 16);
  size_t n = buf ? fread(buf, 1, (1 << 16) - 1, f) : 0;
  fclose(f);
  if (buf) buf[n] = '\0';
  *len = n;
  return buf;
}

static goap_pddl_task *load_files(const char *dom, const char *prob) {
  char dp[512], pp[512];
  snprintf(dp, sizeof dp, "%s/hddl/%s", GOAP_TESTS_DIR, dom);
  snprintf(pp, sizeof pp, "%s/hddl/%s", GOAP_TESTS_DIR, prob);
  goap_pddl_options o;
  memset(&o, 0, sizeof o);
  o.flags = GOAP_PDDL_HTN;
  goap_pddl_task *t = NULL;
  goap_error err;
  if (goap_pddl_load(dp, pp, &o, &t, &err) != GOAP_OK)
    fprintf(stderr, "load %s %s: %s:%d:%d: %s\n", dom, prob, err.file, err.line, err.col, err.message);
  return t;
}

static int file_invalid(goap_pddl_task *t, const char *plan, int line, int col, const char *msg) {
  size_t n = 0;
  char *text = read_file(plan, &n);
  int bad = expect_invalid(t, text, line, col, msg);
  free(text);
  return bad;
}

TEST(forall_preconditions_and_goals) {
  goap_pddl_task *t = load_files("lamps.hddl", "lamps-1.hddl");
  REQUIRE(t);
  size_t n = 0;
  char *text = read_file("verify/lamps-valid.plan", &n);
  REQUIRE(text);
  goap_hddl_report r;
  goap_error err;
  CHECK_EQ_INT(goap_hddl_verify(t, "p.plan", text, n, &r, &err), GOAP_OK);
  CHECK_EQ_INT(r.valid, 1);
  CHECK_EQ_INT(r.primitives, 5);
  free(text);
  /* lock while l3 is still on: the action's forall, instance (not (on l3)) */
  CHECK(!file_invalid(t, "verify/lamps-action-forall.plan", 5, 1,
                      "step 4 (primitive 3) (lock r1): precondition (not (on l3)) does not hold"));
  /* m-peek-dark chosen while l1 is on: the method's forall */
  CHECK(!file_invalid(t, "verify/lamps-method-forall.plan", 9, 1,
                      "decomposition 6 (peek r1): precondition (not (on l1)) of method "
                      "'m-peek-dark' does not hold before step 1 (primitive 0)"));
  goap_pddl_destroy(t);
  /* the goal's forall: every room locked, r2 is not */
  t = load_files("lamps.hddl", "lamps-2.hddl");
  REQUIRE(t);
  CHECK(!file_invalid(t, "verify/lamps-goal-forall.plan", 12, 1,
                      "the goal (locked r2) does not hold after the 4 steps"));
  goap_pddl_destroy(t);
}

TEST(no_fixed_limits) {
  /* 70 method parameters: a plan the verifier must bind; then one with o69 and o70 swapped */
  goap_pddl_task *t = load_files("wide.hddl", "wide-1.hddl");
  REQUIRE(t);
  char plan[8192];
  size_t k = (size_t)snprintf(plan, sizeof plan, "==>\n");
  for (int i = 0; i < 70; ++i) k += (size_t)snprintf(plan + k, sizeof plan - k, "%d finish o%d\n", i, i + 1);
  k += (size_t)snprintf(plan + k, sizeof plan - k, "root 70\n70 all -> m-all");
  for (int i = 0; i < 70; ++i) k += (size_t)snprintf(plan + k, sizeof plan - k, " %d", i);
  k += (size_t)snprintf(plan + k, sizeof plan - k, "\n<==\n");
  REQUIRE(k < sizeof plan);
  goap_hddl_report r;
  goap_error err;
  CHECK_EQ_INT(goap_hddl_verify(t, "p.plan", plan, k, &r, &err), GOAP_OK);
  CHECK_EQ_INT(r.valid, 1);
  CHECK_EQ_INT(r.primitives, 70);
  char *p = edit(plan, "68 finish o69\n69 finish o70\n", "68 finish o70\n69 finish o69\n");
  /* the binding comes from the subtasks (?x69 = o70): the chain breaks at (next ?x68 ?x69) */
  CHECK(!expect_invalid(t, p, 73, 1,
                        "decomposition 70 (all): precondition (next o68 o70) of method 'm-all' "
                        "does not hold before step 1 (primitive 0)"));
  free(p);
  goap_pddl_destroy(t);
  /* 1100 subtasks in the initial network */
  t = load_files("wide.hddl", "long-1.hddl");
  REQUIRE(t);
  static char big[1 << 16];
  k = (size_t)snprintf(big, sizeof big, "==>\n");
  for (int i = 0; i < 1100; ++i)
    k += (size_t)snprintf(big + k, sizeof big - k, "%d touch o%d\n", i, 1 + i % 3);
  k += (size_t)snprintf(big + k, sizeof big - k, "root");
  for (int i = 0; i < 1100; ++i) k += (size_t)snprintf(big + k, sizeof big - k, " %d", i);
  k += (size_t)snprintf(big + k, sizeof big - k, "\n<==\n");
  REQUIRE(k < sizeof big);
  CHECK_EQ_INT(goap_hddl_verify(t, "p.plan", big, k, &r, &err), GOAP_OK);
  CHECK_EQ_INT(r.valid, 1);
  CHECK_EQ_INT(r.primitives, 1100);
  goap_pddl_destroy(t);
}

TEST_MAIN(TEST_ENTRY(valid_plan), TEST_ENTRY(forall_preconditions_and_goals),
          TEST_ENTRY(no_fixed_limits), TEST_ENTRY(top_form), TEST_ENTRY(inapplicable_action),
          TEST_ENTRY(wrong_method_for_task), TEST_ENTRY(subtasks_and_bindings),
          TEST_ENTRY(method_preconditions), TEST_ENTRY(tree_structure), TEST_ENTRY(root_list),
          TEST_ENTRY(order), TEST_ENTRY(names_arity_types), TEST_ENTRY(goal), TEST_ENTRY(malformed),
          TEST_ENTRY(arguments), TEST_ENTRY(no_arguments_at_all), TEST_ENTRY(random_edits),
          TEST_ENTRY(out_of_memory))
