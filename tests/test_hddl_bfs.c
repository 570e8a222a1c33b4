/*
 * test_hddl_bfs.c -- the HDDL planner's best-first progression search (hddl_bfs.c, driven by
 * goap_hddl_solve): a problem the depth-first searches cannot finish within a step budget is
 * solved within it once the best-first search takes its turn, and its plan passes
 * goap_hddl_verify; the same plan twice; duplicate detection (a finite situation space is
 * exhausted, with the exact number of distinct nodes); the options' statuses; the node cap;
 * allocation failures.
 */
#include <goap/goap.h>
#include <goap/hddl.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc_hook.h"
#include "test.h"

/* One task `work` that either flips a switch, marks a level or stops. The depth-first searches
 * try the flips first (domain order; fewest primitive steps first puts w-stop before them, which
 * fails while a goal literal is false) and walk the 2^M switch states before each mark; the
 * best-first search counts the false goal literals and takes a mark at once. */
static const char DOMAIN[] =
    "(define (domain switches)\n"
    "  (:requirements :hierarchy :typing :negative-preconditions)\n"
    "  (:types sw lv)\n"
    "  (:predicates (on ?s - sw) (can ?l - lv) (done ?l - lv))\n"
    "  (:task work :parameters ())\n"
    "  (:method w-on :parameters (?s - sw) :task (work) :precondition (not (on ?s))\n"
    "    :ordered-subtasks (and (turn-on ?s) (work)))\n"
    "  (:method w-off :parameters (?s - sw) :task (work) :precondition (on ?s)\n"
    "    :ordered-subtasks (and (turn-off ?s) (work)))\n"
    "  (:method w-mark :parameters (?l - lv) :task (work)\n"
    "    :ordered-subtasks (and (mark ?l) (work)))\n"
    "  (:method w-stop :parameters () :task (work) :ordered-subtasks (and))\n"
    "  (:action turn-on :parameters (?s - sw) :precondition (not (on ?s)) :effect (on ?s))\n"
    "  (:action turn-off :parameters (?s - sw) :precondition (on ?s) :effect (not (on ?s)))\n"
    "  (:action mark :parameters (?l - lv) :precondition (and (can ?l) (not (done ?l)))\n"
    "    :effect (done ?l)))\n";

/* m switches, levels l0 .. l(k-1) that can be marked, all of them in the goal; with zombie, a
 * level lz in the goal that can never be marked. */
static goap_pddl_task *problem(int m, int k, int zombie, const goap_allocator *al) {
  char text[4096];
  size_t n = (size_t)snprintf(text, sizeof text, "(define (problem p) (:domain switches)\n (:objects");
  for (int i = 0; i < m; ++i) n += (size_t)snprintf(text + n, sizeof text - n, " s%d", i);
  n += (size_t)snprintf(text + n, sizeof text - n, " - sw");
  for (int i = 0; i < k; ++i) n += (size_t)snprintf(text + n, sizeof text - n, " l%d", i);
  n += (size_t)snprintf(text + n, sizeof text - n, "%s - lv)\n (:htn :ordered-subtasks (and (work)))\n (:init",
                        zombie ? " lz" : "");
  for (int i = 0; i < k; ++i) n += (size_t)snprintf(text + n, sizeof text - n, " (can l%d)", i);
  n += (size_t)snprintf(text + n, sizeof text - n, ")\n (:goal (and");
  for (int i = 0; i < k; ++i) n += (size_t)snprintf(text + n, sizeof text - n, " (done l%d)", i);
  snprintf(text + n, sizeof text - n, "%s)))\n", zombie ? " (done lz)" : "");
  goap_pddl_options o;
  memset(&o, 0, sizeof o);
  o.flags = GOAP_PDDL_HTN;
  if (al) o.allocator = *al;
  goap_pddl_task *t = NULL;
  goap_error err;
  if (goap_pddl_parse("d", DOMAIN, strlen(DOMAIN), "p", text, strlen(text), &o, &t, &err) !=
      GOAP_OK)
    fprintf(stderr, "parse: %s:%d:%d: %s\n", err.file, err.line, err.col, err.message);
  return t;
}

static char *plan_text(const goap_pddl_task *t, const goap_hddl_plan *p) {
  size_t n = goap_hddl_plan_write(t, p, NULL, 0);
  char *s = (char *)malloc(n + 1);
  if (s) goap_hddl_plan_write(t, p, s, n + 1);
  return s;
}

/* The heuristic of solve(): the tests written for the TDG bound keep it. */
static int heuristic = GOAP_HDDL_H_TDG;

static goap_status solve(const goap_pddl_task *t, int search, uint64_t max_steps, char **text,
                         goap_hddl_stats *s) {
  goap_hddl_options o;
  memset(&o, 0, sizeof o);
  o.search = search;
  o.heuristic = heuristic;
  o.max_steps = max_steps;
  goap_hddl_plan *p = NULL;
  goap_status st = goap_hddl_solve(t, &o, &p, s);
  if (text) *text = p ? plan_text(t, p) : NULL;
  goap_hddl_plan_destroy(p);
  return st;
}

static int verifies(const goap_pddl_task *t, const char *text) {
  goap_hddl_report r;
  goap_error err;
  if (!text || goap_hddl_verify(t, "plan", text, strlen(text), &r, &err) != GOAP_OK) return 0;
  if (!r.valid) fprintf(stderr, "invalid plan: %d:%d: %s\n", r.line, r.col, r.message);
  return r.valid;
}

/* 600,000 steps: the two depth-first searches need about 750,000 each (16 switches), while the
 * best-first search needs a few dozen in its first turn (after the depth-first searches' first
 * turns of 2^14 steps each, goap__hp_slice). */
TEST(informed_search_solves_what_depth_first_cannot_within_the_budget) {
  goap_pddl_task *t = problem(16, 3, 0, NULL);
  REQUIRE(t != NULL);
  goap_hddl_stats s;
  char *text = NULL;
  CHECK_EQ_INT(solve(t, GOAP_HDDL_SEARCH_DFS, 600000, &text, &s), GOAP_NODE_LIMIT);
  CHECK(text == NULL);
  CHECK_EQ_INT(s.search, 0);
  CHECK_EQ_INT((int)s.bfs_nodes, 0);
  CHECK_EQ_INT(solve(t, GOAP_HDDL_SEARCH_AUTO, 600000, &text, &s), GOAP_OK);
  CHECK_EQ_INT(s.search, GOAP_HDDL_SEARCH_BFS);
  CHECK(verifies(t, text));
  /* the three marks and nothing else: the goal count leads straight to them */
  CHECK(text && strstr(text, "==>\n0 mark l2\n1 mark l1\n2 mark l0\nroot 3\n") == text);
  free(text);
  CHECK_EQ_INT(solve(t, GOAP_HDDL_SEARCH_BFS, 0, &text, &s), GOAP_OK);
  CHECK_EQ_INT(s.search, GOAP_HDDL_SEARCH_BFS);
  CHECK(s.steps < 200);
  CHECK(verifies(t, text));
  free(text);
  goap_pddl_destroy(t);
}

TEST(same_plan_twice) {
  goap_pddl_task *t = problem(6, 3, 0, NULL);
  REQUIRE(t != NULL);
  for (int search = GOAP_HDDL_SEARCH_AUTO; search <= GOAP_HDDL_SEARCH_BFS; ++search) {
    char *a = NULL, *b = NULL;
    goap_hddl_stats sa, sb;
    CHECK_EQ_INT(solve(t, search, 0, &a, &sa), GOAP_OK);
    CHECK_EQ_INT(solve(t, search, 0, &b, &sb), GOAP_OK);
    CHECK(a && b && strcmp(a, b) == 0);
    CHECK(verifies(t, a));
    CHECK(sa.steps == sb.steps);
    CHECK(sa.bfs_nodes == sb.bfs_nodes);
    free(a);
    free(b);
  }
  goap_pddl_destroy(t);
}

/* lz can never be marked: the best-first search must exhaust the situations. Without duplicate
 * detection it never would (on, off, on, ... repeats forever). With 3 switches and 2 levels:
 * the start, 2^3 x 2^2 = 32 states with the agenda (work), from each one node per switch
 * (turn-on or turn-off, then work) and one per level not yet done (mark, then work): 1 + 32 +
 * 32 x 3 + 32 = 161 distinct nodes. */
TEST(duplicate_detection_exhausts_a_finite_space) {
  goap_pddl_task *t = problem(3, 2, 1, NULL);
  REQUIRE(t != NULL);
  goap_hddl_stats s;
  char *text = NULL;
  CHECK_EQ_INT(solve(t, GOAP_HDDL_SEARCH_BFS, 1000000, &text, &s), GOAP_NO_PLAN);
  CHECK(text == NULL);
  CHECK_EQ_INT((int)s.bfs_nodes, 161);
  CHECK(s.steps < 1000);
  /* the default runs both kinds: the first "no plan" proof ends all */
  CHECK_EQ_INT(solve(t, GOAP_HDDL_SEARCH_AUTO, 1000000, NULL, &s), GOAP_NO_PLAN);
  goap_pddl_destroy(t);
}

TEST(options_and_budgets) {
  goap_pddl_task *t = problem(16, 3, 0, NULL);
  REQUIRE(t != NULL);
  goap_hddl_options o;
  memset(&o, 0, sizeof o);
  goap_hddl_plan *p = NULL;
  o.search = 3;
  CHECK_EQ_INT(goap_hddl_solve(t, &o, &p, NULL), GOAP_INVALID_ARGUMENT);
  o.search = -1;
  CHECK_EQ_INT(goap_hddl_solve(t, &o, &p, NULL), GOAP_INVALID_ARGUMENT);
  CHECK(p == NULL);
  /* a step budget the best-first search alone cannot meet */
  CHECK_EQ_INT(solve(t, GOAP_HDDL_SEARCH_BFS, 5, NULL, NULL), GOAP_NODE_LIMIT);
  /* max_depth turns the best-first search off in the default mode */
  o.search = GOAP_HDDL_SEARCH_AUTO;
  o.max_depth = 1;
  o.max_steps = 600000;
  goap_hddl_stats s;
  CHECK_EQ_INT(goap_hddl_solve(t, &o, &p, &s), GOAP_NODE_LIMIT);
  CHECK_EQ_INT((int)s.bfs_nodes, 0);
  goap_hddl_plan_destroy(p);
  goap_pddl_destroy(t);
}

/* The node cap: alone, the best-first search stops with GOAP_MEMORY_LIMIT; in turns, it stops
 * and the depth-first searches go on to their plan (16 switches: after their first turns). */
TEST(node_cap_is_a_status_and_the_others_go_on) {
  goap_pddl_task *t = problem(16, 3, 0, NULL);
  REQUIRE(t != NULL);
  goap_hddl_options o;
  memset(&o, 0, sizeof o);
  o.search = GOAP_HDDL_SEARCH_BFS;
  o.max_nodes = 10;
  goap_hddl_plan *p = NULL;
  goap_hddl_stats s;
  CHECK_EQ_INT(goap_hddl_solve(t, &o, &p, &s), GOAP_MEMORY_LIMIT);
  CHECK(p == NULL);
  CHECK_EQ_INT((int)s.bfs_nodes, 10);
  o.search = GOAP_HDDL_SEARCH_AUTO;
  CHECK_EQ_INT(goap_hddl_solve(t, &o, &p, &s), GOAP_OK);
  CHECK_EQ_INT(s.search, GOAP_HDDL_SEARCH_DFS);
  CHECK_EQ_INT((int)s.bfs_nodes, 10);
  CHECK(s.steps > 600000); /* found after the depth-first searches' first turns */
  CHECK(goap_hddl_plan_length(p) > 1000);
  goap_hddl_plan_destroy(p);
  goap_pddl_destroy(t);
}

/* A method without its own precondition whose subtask's method's precondition, lifted into its join,
 * binds its free parameter from atoms: the join's bindings are sorted back with no own
 * literal as a key (an empty key list, never allocated: UBSan flagged the pointer arithmetic
 * on it). Both kinds of search, each plan verified. */
TEST(join_sorted_without_own_literals) {
  static const char dom[] =
      "(define (domain pick) (:requirements :hierarchy :typing)\n"
      "  (:types obj) (:predicates (avail ?x - obj) (have ?x - obj))\n"
      "  (:task get :parameters ()) (:task grab :parameters (?x - obj))\n"
      "  (:method m-get :parameters (?x - obj) :task (get) :ordered-subtasks (and (grab ?x)))\n"
      "  (:method m-grab :parameters (?y - obj) :task (grab ?y) :precondition (avail ?y)\n"
      "    :ordered-subtasks (and (take ?y)))\n"
      "  (:action take :parameters (?x - obj) :effect (have ?x)))\n";
  static const char prob[] =
      "(define (problem p) (:domain pick) (:objects a b c - obj)\n"
      " (:htn :ordered-subtasks (and (get))) (:init (avail b) (avail c)) (:goal (have c)))\n";
  goap_pddl_options o;
  memset(&o, 0, sizeof o);
  o.flags = GOAP_PDDL_HTN;
  goap_pddl_task *t = NULL;
  goap_error err;
  REQUIRE(goap_pddl_parse("d", dom, strlen(dom), "p", prob, strlen(prob), &o, &t, &err) ==
          GOAP_OK);
  for (int search = GOAP_HDDL_SEARCH_DFS; search <= GOAP_HDDL_SEARCH_BFS; ++search) {
    char *text = NULL;
    goap_hddl_stats s;
    CHECK_EQ_INT(solve(t, search, 0, &text, &s), GOAP_OK);
    CHECK(verifies(t, text));
    CHECK(text && strstr(text, "==>\n0 take c\n") == text);
    free(text);
  }
  goap_pddl_destroy(t);
}

TEST(allocation_failures_are_clean) {
  for (size_t k = 1;; ++k) {
    test_alloc ta;
    memset(&ta, 0, sizeof ta);
    goap_allocator al = test_alloc_hook(&ta);
    goap_pddl_task *t = problem(3, 2, 0, &al);
    REQUIRE(t != NULL);
    ta.fail_at = ta.calls + k;
    goap_hddl_options o;
    memset(&o, 0, sizeof o);
    o.search = GOAP_HDDL_SEARCH_BFS;
    goap_hddl_plan *p = NULL;
    goap_status st = goap_hddl_solve(t, &o, &p, NULL);
    size_t injected = ta.injected;
    CHECK(st == GOAP_OK || st == GOAP_OUT_OF_MEMORY);
    CHECK((st == GOAP_OK) == (p != NULL));
    goap_hddl_plan_destroy(p);
    ta.fail_at = 0;
    goap_pddl_destroy(t);
    CHECK_EQ_INT((int)ta.outstanding, 0);
    CHECK_EQ_INT(ta.bad_old_size, 0);
    if (!injected) break; /* the whole search ran without reaching call k */
  }
}

/* The RC heuristic by hand. State {at a}, roads a-b-c (static), the network (goto c)
 * (visit c), goal (visited c). Ground: move a b, move b c, visit c (actions, cost 1), g-here c,
 * g-step a b c, g-step b c c (methods, cost 0), but a g-step needs the done fact of its own
 * task (goto c) and so can never lower its cost: it is not an operator, 4 are left (6 before
 * that pruning; the values are the same). h_add: at a 0; move a b 1, so
 * at b 1; move b c 2, so at c 2; g-here c 2, so done(goto c) 2; visit c 3, so done(visit c)
 * 3 and visited c 3. The value: done(goto c) + done(visit c) + visited c = 2 + 3 + 3 = 8.
 * TDG: goto c needs 0 primitives (g-here), visit c 1, plus 1 false goal literal: 2. */
static const char ROAD_DOMAIN[] =
    "(define (domain road) (:requirements :hierarchy :typing)\n"
    "  (:types loc) (:predicates (at ?l - loc) (road ?a ?b - loc) (visited ?l - loc))\n"
    "  (:task goto :parameters (?l - loc))\n"
    "  (:method g-here :parameters (?l - loc) :task (goto ?l) :precondition (at ?l)\n"
    "    :ordered-subtasks (and))\n"
    "  (:method g-step :parameters (?a ?b ?l - loc) :task (goto ?l)\n"
    "    :precondition (and (at ?a) (road ?a ?b)) :ordered-subtasks (and (move ?a ?b) (goto ?l)))\n"
    "  (:action move :parameters (?a ?b - loc) :precondition (and (at ?a) (road ?a ?b))\n"
    "    :effect (and (at ?b) (not (at ?a))))\n"
    "  (:action visit :parameters (?l - loc) :precondition (at ?l) :effect (visited ?l)))\n";
static const char ROAD_PROBLEM[] =
    "(define (problem r) (:domain road) (:objects a b c - loc)\n"
    " (:htn :ordered-subtasks (and (goto c) (visit c)))\n"
    " (:init (at a) (road a b) (road b c)) (:goal (visited c)))\n";

TEST(rc_value_by_hand) {
  goap_pddl_options po;
  memset(&po, 0, sizeof po);
  po.flags = GOAP_PDDL_HTN;
  goap_pddl_task *t = NULL;
  goap_error err;
  REQUIRE(goap_pddl_parse("d", ROAD_DOMAIN, strlen(ROAD_DOMAIN), "p", ROAD_PROBLEM,
                          strlen(ROAD_PROBLEM), &po, &t, &err) == GOAP_OK);
  static const int hs[3] = {GOAP_HDDL_H_AUTO, GOAP_HDDL_H_TDG, GOAP_HDDL_H_RC};
  static const int used[3] = {GOAP_HDDL_H_RC, GOAP_HDDL_H_TDG, GOAP_HDDL_H_RC};
  static const unsigned h0[3] = {8, 2, 8};
  static const unsigned ops[3] = {4, 0, 4};
  for (int i = 0; i < 3; ++i) {
    char *text = NULL;
    goap_hddl_stats s;
    heuristic = hs[i];
    CHECK_EQ_INT(solve(t, GOAP_HDDL_SEARCH_BFS, 0, &text, &s), GOAP_OK);
    CHECK_EQ_INT(s.heuristic, used[i]);
    CHECK_EQ_INT((int)s.bfs_h0, (int)h0[i]);
    CHECK_EQ_INT((int)s.rc_ops, (int)ops[i]);
    CHECK(verifies(t, text));
    CHECK(text && strstr(text, "==>\n0 move a b\n1 move b c\n2 visit c\n") == text);
    free(text);
  }
  heuristic = GOAP_HDDL_H_TDG;
  /* the depth-first searches alone: the best-first one did not run */
  goap_hddl_stats s;
  CHECK_EQ_INT(solve(t, GOAP_HDDL_SEARCH_DFS, 0, NULL, &s), GOAP_OK);
  CHECK_EQ_INT(s.heuristic, 0);
  CHECK_EQ_INT((int)s.rc_ops, 0);
  goap_pddl_destroy(t);
}

/* The road with a jump that needs (flying): a changing predicate (land deletes it) that no
 * action adds and the start lacks, so no state reached in the delete relaxation has it. The
 * RC grounding checks positive preconditions against those reachable atoms: the 9 ground jump
 * actions (each needing (flying)) are not grounded, the 9 g-jump methods are ((at ?a) is
 * reachable for every ?a) but, like the g-steps, need their own task's done fact (rc_value_by_hand):
 * 4 operators (13 when every binding of the actions were grounded), the same value 8 (the jumps
 * could never fire) and the same plan. */
static const char JUMP_DOMAIN[] =
    "(define (domain jump) (:requirements :hierarchy :typing)\n"
    "  (:types loc) (:predicates (at ?l - loc) (road ?a ?b - loc) (visited ?l - loc) (flying))\n"
    "  (:task goto :parameters (?l - loc))\n"
    "  (:method g-here :parameters (?l - loc) :task (goto ?l) :precondition (at ?l)\n"
    "    :ordered-subtasks (and))\n"
    "  (:method g-step :parameters (?a ?b ?l - loc) :task (goto ?l)\n"
    "    :precondition (and (at ?a) (road ?a ?b)) :ordered-subtasks (and (move ?a ?b) (goto ?l)))\n"
    "  (:method g-jump :parameters (?a ?b ?l - loc) :task (goto ?l)\n"
    "    :precondition (at ?a) :ordered-subtasks (and (jump ?a ?b) (goto ?l)))\n"
    "  (:action move :parameters (?a ?b - loc) :precondition (and (at ?a) (road ?a ?b))\n"
    "    :effect (and (at ?b) (not (at ?a))))\n"
    "  (:action jump :parameters (?a ?b - loc) :precondition (and (at ?a) (flying))\n"
    "    :effect (and (at ?b) (not (at ?a))))\n"
    "  (:action land :parameters () :precondition (flying) :effect (not (flying)))\n"
    "  (:action visit :parameters (?l - loc) :precondition (at ?l) :effect (visited ?l)))\n";

static const char JUMP_PROBLEM[] =
    "(define (problem r) (:domain jump) (:objects a b c - loc)\n"
    " (:htn :ordered-subtasks (and (goto c) (visit c)))\n"
    " (:init (at a) (road a b) (road b c)) (:goal (visited c)))\n";

TEST(rc_grounds_only_relaxed_reachable_operators) {
  goap_pddl_options po;
  memset(&po, 0, sizeof po);
  po.flags = GOAP_PDDL_HTN;
  goap_pddl_task *t = NULL;
  goap_error err;
  REQUIRE(goap_pddl_parse("d", JUMP_DOMAIN, strlen(JUMP_DOMAIN), "p", JUMP_PROBLEM,
                          strlen(JUMP_PROBLEM), &po, &t, &err) == GOAP_OK);
  char *text = NULL;
  goap_hddl_stats s;
  heuristic = GOAP_HDDL_H_RC;
  CHECK_EQ_INT(solve(t, GOAP_HDDL_SEARCH_BFS, 0, &text, &s), GOAP_OK);
  heuristic = GOAP_HDDL_H_TDG;
  CHECK_EQ_INT(s.heuristic, GOAP_HDDL_H_RC);
  CHECK_EQ_INT((int)s.rc_ops, 4);
  CHECK_EQ_INT((int)s.bfs_h0, 8);
  CHECK(verifies(t, text));
  CHECK(text && strstr(text, "==>\n0 move a b\n1 move b c\n2 visit c\n") == text);
  free(text);
  goap_pddl_destroy(t);
}

/* Method bindings pruned by what their subtasks need. travel ?a ?c goes by some ?b with two
 * hops, each a task with one method (h-go) whose only subtask is the action move, which needs
 * the static (road ?a ?b). The join literals of t-via (hddl_prep.c: its own precondition, none
 * here, then the literals lifted from its single-method subtasks: (road ?a ?b) and (at ?a)
 * from the first, the static (road ?b ?c) from the second) leave one binding, ?b = b, of the
 * four: RC grounds t-via a b c, h-go a b, h-go b c, move a b, move b c (5 operators). With the
 * method's own precondition only it grounded 4 t-vias, 7 h-gos (hop a a, a b, a c, a d, b c,
 * c c, d c) and the 2 moves: 13. h_add: done(hop a b) 1, done(hop b c) 2, so the value of
 * (travel a c) is 3. */
static const char HOP_DOMAIN[] =
    "(define (domain hop) (:requirements :hierarchy :typing)\n"
    "  (:types loc) (:predicates (at ?l - loc) (road ?a ?b - loc))\n"
    "  (:task travel :parameters (?a ?c - loc))\n"
    "  (:task hop :parameters (?a ?b - loc))\n"
    "  (:method t-via :parameters (?a ?b ?c - loc) :task (travel ?a ?c)\n"
    "    :ordered-subtasks (and (hop ?a ?b) (hop ?b ?c)))\n"
    "  (:method h-go :parameters (?a ?b - loc) :task (hop ?a ?b)\n"
    "    :ordered-subtasks (and (move ?a ?b)))\n"
    "  (:action move :parameters (?a ?b - loc) :precondition (and (at ?a) (road ?a ?b))\n"
    "    :effect (and (at ?b) (not (at ?a)))))\n";
static const char HOP_PROBLEM[] =
    "(define (problem r) (:domain hop) (:objects a b c d - loc)\n"
    " (:htn :ordered-subtasks (and (travel a c)))\n"
    " (:init (at a) (road a b) (road b c)))\n";

TEST(rc_grounds_only_bindings_the_subtasks_allow) {
  goap_pddl_options po;
  memset(&po, 0, sizeof po);
  po.flags = GOAP_PDDL_HTN;
  goap_pddl_task *t = NULL;
  goap_error err;
  REQUIRE(goap_pddl_parse("d", HOP_DOMAIN, strlen(HOP_DOMAIN), "p", HOP_PROBLEM,
                          strlen(HOP_PROBLEM), &po, &t, &err) == GOAP_OK);
  char *text = NULL;
  goap_hddl_stats s;
  heuristic = GOAP_HDDL_H_RC;
  CHECK_EQ_INT(solve(t, GOAP_HDDL_SEARCH_BFS, 0, &text, &s), GOAP_OK);
  heuristic = GOAP_HDDL_H_TDG;
  CHECK_EQ_INT(s.heuristic, GOAP_HDDL_H_RC);
  CHECK_EQ_INT((int)s.rc_ops, 5);
  CHECK_EQ_INT((int)s.bfs_h0, 3);
  CHECK(verifies(t, text));
  CHECK(text && strstr(text, "==>\n0 move a b\n1 move b c\n") == text);
  free(text);
  goap_pddl_destroy(t);
}

/* The road of rc_value_by_hand as a chain l0 .. lN, N = 1,100: the costs pass the h_add
 * pass's buckets (below 1,024) into its heap. at lk costs k, so the value at the start is
 * done(goto lN) N + done(visit lN) N + 1 + (visited lN) N + 1 = 3N + 2, and the plan walks the
 * chain: N moves and the visit. */
TEST(rc_costs_past_the_buckets) {
  enum { N = 1100 };
  size_t cap = 64 * (size_t)N + 512, n = 0;
  char *text = (char *)malloc(cap);
  REQUIRE(text != NULL);
  n += (size_t)snprintf(text + n, cap - n, "(define (problem r) (:domain road) (:objects");
  for (int i = 0; i <= N; ++i) n += (size_t)snprintf(text + n, cap - n, " l%d", i);
  n += (size_t)snprintf(text + n, cap - n,
                        " - loc)\n (:htn :ordered-subtasks (and (goto l%d) (visit l%d)))\n (:init (at l0)",
                        N, N);
  for (int i = 0; i < N; ++i) n += (size_t)snprintf(text + n, cap - n, " (road l%d l%d)", i, i + 1);
  n += (size_t)snprintf(text + n, cap - n, ") (:goal (visited l%d)))\n", N);
  REQUIRE(n < cap);
  goap_pddl_options po;
  memset(&po, 0, sizeof po);
  po.flags = GOAP_PDDL_HTN;
  goap_pddl_task *t = NULL;
  goap_error err;
  REQUIRE(goap_pddl_parse("d", ROAD_DOMAIN, strlen(ROAD_DOMAIN), "p", text, n, &po, &t, &err) ==
          GOAP_OK);
  free(text);
  char *plan = NULL;
  goap_hddl_stats s;
  heuristic = GOAP_HDDL_H_RC;
  CHECK_EQ_INT(solve(t, GOAP_HDDL_SEARCH_BFS, 0, &plan, &s), GOAP_OK);
  heuristic = GOAP_HDDL_H_TDG;
  CHECK_EQ_INT(s.heuristic, GOAP_HDDL_H_RC);
  CHECK_EQ_INT((int)s.bfs_h0, 3 * N + 2);
  CHECK(plan && strstr(plan, "==>\n0 move l0 l1\n") == plan);
  CHECK(plan && strstr(plan, "\n1099 move l1099 l1100\n1100 visit l1100\nroot ") != NULL);
  CHECK(verifies(t, plan));
  free(plan);
  goap_pddl_destroy(t);
}

/* lz can never be marked: RC sees it from the :htn's network (no action adds (done lz) with
 * (can lz) false, a static literal) and the search stops after the start, where the TDG bound
 * walks all 161 situations (duplicate_detection_exhausts_a_finite_space). */
TEST(rc_prunes_a_dead_end_at_once) {
  goap_pddl_task *t = problem(3, 2, 1, NULL);
  REQUIRE(t != NULL);
  goap_hddl_stats s;
  heuristic = GOAP_HDDL_H_RC;
  CHECK_EQ_INT(solve(t, GOAP_HDDL_SEARCH_BFS, 1000000, NULL, &s), GOAP_NO_PLAN);
  CHECK_EQ_INT((int)s.bfs_nodes, 1);
  CHECK(s.bfs_h0 == UINT32_MAX);
  CHECK_EQ_INT(s.heuristic, GOAP_HDDL_H_RC);
  heuristic = GOAP_HDDL_H_TDG;
  CHECK_EQ_INT(solve(t, GOAP_HDDL_SEARCH_BFS, 1000000, NULL, &s), GOAP_NO_PLAN);
  CHECK_EQ_INT((int)s.bfs_nodes, 161);
  goap_pddl_destroy(t);
}

/* Argument-aware goal achievers (hddl_gach.c): `fill ?i ?b` can only make (in ?i ?b) true, and
 * `shake ?i` may take item ?i out of whatever box holds it. A goal literal no task left can
 * make true prunes the node: with a goal (in iz bz) that no fill of the :htn names, the search
 * stops at its first successors, where the argument-blind test (fill may make any (in ..)
 * true) walked all 2^n take-or-skip choices of the shakes. */
static const char BOXES[] =
    "(define (domain boxes)\n"
    "  (:requirements :hierarchy :typing :negative-preconditions)\n"
    "  (:types item box)\n"
    "  (:predicates (in ?i - item ?b - box) (out ?i - item))\n"
    "  (:task fill :parameters (?i - item ?b - box))\n"
    "  (:task shake :parameters (?i - item))\n"
    "  (:method fill-put :parameters (?i - item ?b - box) :task (fill ?i ?b)\n"
    "    :ordered-subtasks (and (put ?i ?b)))\n"
    "  (:method shake-take :parameters (?i - item ?b - box) :task (shake ?i)\n"
    "    :precondition (in ?i ?b) :ordered-subtasks (and (take ?i ?b)))\n"
    "  (:method shake-skip :parameters (?i - item) :task (shake ?i) :ordered-subtasks (and))\n"
    "  (:action put :parameters (?i - item ?b - box) :precondition (out ?i)\n"
    "    :effect (and (in ?i ?b) (not (out ?i))))\n"
    "  (:action take :parameters (?i - item ?b - box) :precondition (in ?i ?b)\n"
    "    :effect (and (out ?i) (not (in ?i ?b)))))\n";

static goap_pddl_task *boxes(int n, int zombie) {
  char text[8192];
  size_t k = (size_t)snprintf(text, sizeof text, "(define (problem p) (:domain boxes)\n (:objects");
  for (int i = 0; i < n; ++i) k += (size_t)snprintf(text + k, sizeof text - k, " i%d", i);
  k += (size_t)snprintf(text + k, sizeof text - k, " iz - item");
  for (int i = 0; i < n; ++i) k += (size_t)snprintf(text + k, sizeof text - k, " b%d", i);
  k += (size_t)snprintf(text + k, sizeof text - k, " bz - box)\n (:htn :ordered-subtasks (and");
  for (int i = 0; i < n; ++i)
    k += (size_t)snprintf(text + k, sizeof text - k, " (fill i%d b%d) (shake i%d)", i, i, i);
  k += (size_t)snprintf(text + k, sizeof text - k, "))\n (:init (out iz)");
  for (int i = 0; i < n; ++i) k += (size_t)snprintf(text + k, sizeof text - k, " (out i%d)", i);
  k += (size_t)snprintf(text + k, sizeof text - k, ")\n (:goal (and");
  for (int i = 0; i < n; ++i) k += (size_t)snprintf(text + k, sizeof text - k, " (in i%d b%d)", i, i);
  snprintf(text + k, sizeof text - k, "%s)))\n", zombie ? " (in iz bz)" : "");
  goap_pddl_options o;
  memset(&o, 0, sizeof o);
  o.flags = GOAP_PDDL_HTN;
  goap_pddl_task *t = NULL;
  goap_error err;
  if (goap_pddl_parse("d", BOXES, strlen(BOXES), "p", text, strlen(text), &o, &t, &err) != GOAP_OK)
    fprintf(stderr, "parse: %s:%d:%d: %s\n", err.file, err.line, err.col, err.message);
  return t;
}

TEST(goal_achievers_see_arguments) {
  for (int hh = GOAP_HDDL_H_TDG; hh <= GOAP_HDDL_H_RC; ++hh) {
    heuristic = hh;
    goap_hddl_stats s;
    goap_pddl_task *t = boxes(12, 1);
    REQUIRE(t != NULL);
    /* only the start: its one successor (the :htn's) has (in iz bz) false and no achiever */
    CHECK_EQ_INT(solve(t, GOAP_HDDL_SEARCH_BFS, 0, NULL, &s), GOAP_NO_PLAN);
    CHECK_EQ_INT((int)s.bfs_nodes, 1);
    CHECK_EQ_INT((int)s.steps, 1);
    goap_pddl_destroy(t);
    /* solvable: the plan puts each item once and takes none */
    t = boxes(12, 0);
    REQUIRE(t != NULL);
    char *text = NULL;
    CHECK_EQ_INT(solve(t, GOAP_HDDL_SEARCH_BFS, 0, &text, &s), GOAP_OK);
    CHECK(verifies(t, text));
    CHECK(text && strstr(text, "0 put i0 b0\n1 put i1 b1\n") != NULL && !strstr(text, "take"));
    free(text);
    goap_pddl_destroy(t);
  }
  heuristic = GOAP_HDDL_H_TDG;
}

/* Both heuristics: the same plan twice, valid; an unknown heuristic is refused. */
TEST(rc_deterministic_and_options) {
  goap_pddl_task *t = problem(8, 3, 0, NULL);
  REQUIRE(t != NULL);
  for (int hh = GOAP_HDDL_H_AUTO; hh <= GOAP_HDDL_H_RC; ++hh) {
    char *a = NULL, *b = NULL;
    goap_hddl_stats sa, sb;
    heuristic = hh;
    CHECK_EQ_INT(solve(t, GOAP_HDDL_SEARCH_BFS, 0, &a, &sa), GOAP_OK);
    CHECK_EQ_INT(solve(t, GOAP_HDDL_SEARCH_BFS, 0, &b, &sb), GOAP_OK);
    CHECK(a && b && strcmp(a, b) == 0);
    CHECK(verifies(t, a));
    CHECK(sa.steps == sb.steps && sa.bfs_nodes == sb.bfs_nodes);
    free(a);
    free(b);
  }
  heuristic = GOAP_HDDL_H_TDG;
  goap_hddl_options o;
  memset(&o, 0, sizeof o);
  goap_hddl_plan *p = NULL;
  o.heuristic = 3;
  CHECK_EQ_INT(goap_hddl_solve(t, &o, &p, NULL), GOAP_INVALID_ARGUMENT);
  o.heuristic = -1;
  CHECK_EQ_INT(goap_hddl_solve(t, &o, &p, NULL), GOAP_INVALID_ARGUMENT);
  CHECK(p == NULL);
  goap_pddl_destroy(t);
}

TEST_MAIN(TEST_ENTRY(rc_value_by_hand), TEST_ENTRY(rc_grounds_only_relaxed_reachable_operators),
          TEST_ENTRY(rc_grounds_only_bindings_the_subtasks_allow), TEST_ENTRY(rc_costs_past_the_buckets),
          TEST_ENTRY(rc_prunes_a_dead_end_at_once),
          TEST_ENTRY(rc_deterministic_and_options),
          TEST_ENTRY(informed_search_solves_what_depth_first_cannot_within_the_budget),
          TEST_ENTRY(same_plan_twice), TEST_ENTRY(duplicate_detection_exhausts_a_finite_space),
          TEST_ENTRY(options_and_budgets), TEST_ENTRY(node_cap_is_a_status_and_the_others_go_on),
          TEST_ENTRY(allocation_failures_are_clean), TEST_ENTRY(join_sorted_without_own_literals),
          TEST_ENTRY(goal_achievers_see_arguments))
