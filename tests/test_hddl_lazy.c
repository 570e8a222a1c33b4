/*
 * test_hddl_lazy.c -- the HDDL planner's lazy join (src/hddl/hddl_join.c) against the eager
 * one (goap__hddl_solve_ex with eager set, where every join of the depth-first searches is
 * made at once): the same plans, steps and rounds on a domain written for the test (joins of
 * thousands of bindings, backtracking into a frame whose lazy state sits under another's), on
 * the project's HDDL test problems and, when present, on every problem of the shared IPC set
 * under a step budget; a budget the eager join cannot meet and the lazy one can; allocation
 * failure at every point of a lazy run.
 */
#define _POSIX_C_SOURCE 200809L
#include <goap/goap.h>
#include <goap/hddl.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "alloc_hook.h"
#include "hddl/hddl_plan.h"
#include "test.h"

/* Task t takes a free item a and uses it with items b and c; only the triples marked good (b
 * and c free) can be used, which a method's join cannot know (use is not the first subtask,
 * and spoil makes good a fluent, so it is not checked in the join either): every triple with
 * a free is a binding, tried in order (a by its (free a) atom, then b, then c by object id:
 * b and c are bound by their type, not by an atom). The first good triple
 * (o1 o2 o3) takes o1, which the goal wants free, so the second t is pruned and the search
 * backtracks into the first t's join for (o3 o4 o5), then the second t finds (o6 o7 o8). */
static const char DOMAIN[] =
    "(define (domain pick) (:requirements :hierarchy :typing :negative-preconditions)\n"
    "  (:types item)\n"
    "  (:predicates (free ?x - item) (good ?x ?y ?z - item))\n"
    "  (:task t :parameters ())\n"
    "  (:method m :parameters (?a ?b ?c - item) :task (t)\n"
    "    :precondition (free ?a)\n"
    "    :ordered-subtasks (and (take ?a) (use ?a ?b ?c)))\n"
    "  (:action take :parameters (?a - item) :precondition (free ?a) :effect (not (free ?a)))\n"
    "  (:action use :parameters (?a ?b ?c - item) :precondition (and (good ?a ?b ?c) (free ?b)\n"
    "    (free ?c)) :effect (and (not (free ?b)) (not (free ?c))))\n"
    "  (:action spoil :parameters (?a ?b ?c - item) :effect (not (good ?a ?b ?c))))\n";

/* With one, a network of one t and the only good triple (o0 o1 o2): found after 64 bindings. */
static goap_pddl_task *problem(int items, int one, const goap_allocator *al) {
  char text[8192];
  size_t n = (size_t)snprintf(text, sizeof text, "(define (problem p) (:domain pick) (:objects");
  for (int i = 0; i < items; ++i) n += (size_t)snprintf(text + n, sizeof text - n, " o%d", i);
  n += (size_t)snprintf(text + n, sizeof text - n, " - item)\n (:htn :ordered-subtasks (and %s))\n (:init",
                        one ? "(t)" : "(t) (t)");
  for (int i = 0; i < items; ++i) n += (size_t)snprintf(text + n, sizeof text - n, " (free o%d)", i);
  if (one)
    snprintf(text + n, sizeof text - n, " (good o0 o1 o2)))\n");
  else
    snprintf(text + n, sizeof text - n,
             " (good o1 o2 o3) (good o3 o4 o5) (good o6 o7 o8))\n (:goal (free o1)))\n");
  goap_pddl_options o;
  memset(&o, 0, sizeof o);
  o.flags = GOAP_PDDL_HTN;
  if (al) o.allocator = *al;
  goap_pddl_task *t = NULL;
  goap_error err;
  if (goap_pddl_parse("d", DOMAIN, strlen(DOMAIN), "p", text, strlen(text), &o, &t, &err) != GOAP_OK)
    fprintf(stderr, "parse: %s:%d:%d: %s\n", err.file, err.line, err.col, err.message);
  return t;
}

static char *plan_text(const goap_pddl_task *t, const goap_hddl_plan *p) {
  size_t n = goap_hddl_plan_write(t, p, NULL, 0);
  char *s = (char *)malloc(n + 1);
  if (s) goap_hddl_plan_write(t, p, s, n + 1);
  return s;
}

/* Solves t lazily and eagerly with options o; 1 when both agree (status, plan text, steps,
 * rounds, depth); *st gets the lazy run's status. */
static int same_both_ways(const goap_pddl_task *t, const goap_hddl_options *o, goap_status *st,
                          const char *name) {
  goap_hddl_plan *pl = NULL, *pe = NULL;
  goap_hddl_stats sl, se;
  goap_status a = goap__hddl_solve_ex(t, o, &pl, &sl, 0);
  goap_status b = goap__hddl_solve_ex(t, o, &pe, &se, 1);
  int same = a == b && sl.steps == se.steps && sl.rounds == se.rounds && sl.depth == se.depth &&
             sl.search == se.search;
  if (same && pl && pe) {
    char *x = plan_text(t, pl), *y = plan_text(t, pe);
    same = x && y && strcmp(x, y) == 0;
    free(x);
    free(y);
  }
  if (!same)
    fprintf(stderr, "%s: lazy %d (%llu steps, %d rounds), eager %d (%llu steps, %d rounds)\n", name,
            (int)a, (unsigned long long)sl.steps, sl.rounds, (int)b, (unsigned long long)se.steps,
            se.rounds);
  goap_hddl_plan_destroy(pl);
  goap_hddl_plan_destroy(pe);
  *st = a;
  return same;
}

TEST(lazy_and_eager_joins_agree_with_backtracking) {
  goap_pddl_task *t = problem(24, 0, NULL); /* 24^3 = 13,824 bindings per join of t */
  REQUIRE(t != NULL);
  goap_hddl_options o;
  memset(&o, 0, sizeof o);
  o.search = GOAP_HDDL_SEARCH_DFS;
  goap_status st;
  CHECK(same_both_ways(t, &o, &st, "pick 24"));
  CHECK_EQ_INT(st, GOAP_OK);
  goap_hddl_plan *p = NULL;
  goap_hddl_stats s;
  REQUIRE(goap_hddl_solve(t, &o, &p, &s) == GOAP_OK);
  char *x = plan_text(t, p);
  REQUIRE(x);
  /* backtracked into the first t: (o1 o2 o3) failed, (o3 o4 o5) and (o6 o7 o8) are the plan */
  CHECK(strstr(x, "take o3\n") && strstr(x, "use o3 o4 o5\n") && strstr(x, "use o6 o7 o8\n"));
  CHECK(!strstr(x, "o1"));
  free(x);
  goap_hddl_plan_destroy(p);
  /* the bindings tried before each good triple are steps: thousands of them */
  CHECK(s.steps > 2000);
  /* the default search (best-first turns too) agrees as well */
  memset(&o, 0, sizeof o);
  CHECK(same_both_ways(t, &o, &st, "pick 24 auto"));
  goap_pddl_destroy(t);
}

TEST(a_budget_the_eager_join_cannot_meet) {
  /* 60 items: 216,000 bindings in t's join, each a unit of the join budget (max_steps x
   * 1,024); the lazy join makes only the 64 the search tries */
  goap_pddl_task *t = problem(60, 1, NULL);
  REQUIRE(t != NULL);
  goap_hddl_options o;
  memset(&o, 0, sizeof o);
  o.search = GOAP_HDDL_SEARCH_DFS;
  goap_hddl_plan *p = NULL;
  goap_hddl_stats s;
  REQUIRE(goap_hddl_solve(t, &o, &p, &s) == GOAP_OK);
  goap_hddl_plan_destroy(p);
  CHECK(s.steps < 100);
  o.max_steps = s.steps; /* exactly what the lazy join needs */
  CHECK_EQ_INT(goap_hddl_solve(t, &o, &p, NULL), GOAP_OK);
  goap_hddl_plan_destroy(p);
  p = NULL;
  CHECK_EQ_INT(goap__hddl_solve_ex(t, &o, &p, NULL, 1), GOAP_NODE_LIMIT);
  CHECK(p == NULL);
  goap_pddl_destroy(t);
}

static goap_pddl_task *load(const char *dp, const char *pp) {
  goap_pddl_options o;
  memset(&o, 0, sizeof o);
  o.flags = GOAP_PDDL_HTN;
  goap_pddl_task *t = NULL;
  goap_error err;
  if (goap_pddl_load(dp, pp, &o, &t, &err) != GOAP_OK) return NULL;
  return t;
}

TEST(test_problems_agree) {
  static const char *const pairs[][2] = {
      {"transport.hddl", "transport-1.hddl"}, {"transport.hddl", "transport-2.hddl"},
      {"blocks.hddl", "blocks-1.hddl"},       {"blocks.hddl", "blocks-2.hddl"},
      {"keys.hddl", "keys-1.hddl"},           {"lamps.hddl", "lamps-1.hddl"},
      {"lamps.hddl", "lamps-2.hddl"},         {"lamps.hddl", "lamps-3.hddl"},
      {"wide.hddl", "wide-1.hddl"},           {"wide.hddl", "long-1.hddl"}};
  for (size_t i = 0; i < sizeof pairs / sizeof *pairs; ++i) {
    char dp[512], pp[512];
    snprintf(dp, sizeof dp, "%s/hddl/%s", GOAP_TESTS_DIR, pairs[i][0]);
    snprintf(pp, sizeof pp, "%s/hddl/%s", GOAP_TESTS_DIR, pairs[i][1]);
    goap_pddl_task *t = load(dp, pp);
    CHECK(t != NULL);
    if (!t) continue;
    goap_hddl_options o;
    memset(&o, 0, sizeof o);
    o.max_steps = 200000; /* transport-2 has no plan and an infinite space */
    goap_status st;
    CHECK(same_both_ways(t, &o, &st, pairs[i][1]));
    goap_pddl_destroy(t);
  }
}

static int cmp_names(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Every problem of the shared IPC set (GOAP_HDDL_BENCH_DIR, when the directory exists), within
 * 100,000 steps each: the lazy and eager joins agree on all of them. */
TEST(shared_problems_agree) {
  const char *bench = getenv("GOAP_HDDL_BENCH_DIR");
#ifdef GOAP_HDDL_BENCH_DIR
  if (!bench) bench = GOAP_HDDL_BENCH_DIR;
#endif
  DIR *top = bench ? opendir(bench) : NULL;
  if (!top) {
    printf("shared_problems_agree: skipped (no benchmark directory)\n");
    return;
  }
  int total = 0, solved = 0;
  struct dirent *de;
  while ((de = readdir(top)) != NULL) {
    if (de->d_name[0] == '.') continue;
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/%s", bench, de->d_name);
    DIR *d = opendir(dir);
    if (!d) continue;
    char *names[64];
    int n = 0;
    struct dirent *pe;
    while ((pe = readdir(d)) != NULL && n < 64) {
      size_t len = strlen(pe->d_name);
      if (len < 6 || strcmp(pe->d_name + len - 5, ".hddl") != 0) continue;
      if (strcmp(pe->d_name, "domain.hddl") == 0) continue;
      if (len > 12 && strcmp(pe->d_name + len - 12, "-domain.hddl") == 0) continue;
      names[n++] = strdup(pe->d_name);
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, cmp_names);
    for (int i = 0; i < n; ++i) {
      char pp[1200], dp[1200];
      snprintf(pp, sizeof pp, "%s/%s", dir, names[i]);
      snprintf(dp, sizeof dp, "%s/%.*s-domain.hddl", dir, (int)(strlen(names[i]) - 5), names[i]);
      struct stat sb;
      if (stat(dp, &sb) != 0) snprintf(dp, sizeof dp, "%s/domain.hddl", dir);
      goap_pddl_task *t = load(dp, pp);
      CHECK(t != NULL);
      if (t) {
        goap_hddl_options o;
        memset(&o, 0, sizeof o);
        o.max_steps = 100000;
        goap_status st;
        CHECK(same_both_ways(t, &o, &st, pp));
        ++total;
        solved += st == GOAP_OK;
        goap_pddl_destroy(t);
      }
      free(names[i]);
    }
  }
  closedir(top);
  printf("shared_problems_agree: %d problems, %d solved within 100,000 steps\n", total, solved);
  CHECK(total > 0);
}

TEST(allocation_failures_are_clean) {
  for (size_t k = 1;; ++k) {
    test_alloc ta;
    memset(&ta, 0, sizeof ta);
    goap_allocator al = test_alloc_hook(&ta);
    goap_pddl_task *t = problem(20, 0, &al);
    REQUIRE(t != NULL);
    ta.fail_at = ta.calls + k;
    goap_hddl_options o;
    memset(&o, 0, sizeof o);
    o.search = GOAP_HDDL_SEARCH_DFS;
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

TEST_MAIN(TEST_ENTRY(lazy_and_eager_joins_agree_with_backtracking),
          TEST_ENTRY(a_budget_the_eager_join_cannot_meet), TEST_ENTRY(test_problems_agree),
          TEST_ENTRY(shared_problems_agree), TEST_ENTRY(allocation_failures_are_clean))
