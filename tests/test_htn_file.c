/*
 * test_htn_file.c -- the HTN part of the `.goap` format: task/method/when/do blocks, a
 * scenario's `task`, goap_file_htn(), and every HTN error with its exact position, message
 * (with "did you mean") and caret rendering.
 */
#include <goap/file.h>
#include <goap/htn.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc_hook.h"
#include "test.h"

#define DOMAIN_HEAD                   \
  "var x: bool\n"                     \
  "var ammo: int 0..5\n"                 \
  "action attack\n"                   \
  "  eff x\n"                         \
  "goal be_inside\n"                  \
  "  want x\n"

typedef struct bad {
  const char *text;
  goap_status status;
  int line, col;
  const char *message;
} bad;

static const bad bad_cases[] = {
    {"method m\n", GOAP_PARSE_ERROR, 1, 1, "'method' must be inside a task block"},
    {"var x: bool\ntask t\n  metod m\n", GOAP_PARSE_ERROR, 3, 3,
     "unknown keyword 'metod'; did you mean 'method'?"},
    {"tsak t\n", GOAP_PARSE_ERROR, 1, 1, "unknown keyword 'tsak'; did you mean 'task'?"},
    {"when x\n", GOAP_PARSE_ERROR, 1, 1, "'when' must be inside a method of a task block"},
    {"var x: bool\ntask t\n  when x\n", GOAP_PARSE_ERROR, 3, 3,
     "'when' must follow a 'method' line"},
    {"var x: bool\ntask t\naction a\n  eff x\n", GOAP_PARSE_ERROR, 2, 6,
     "task 't' has no 'method' (a task needs at least one)"},
    {"var x: bool\ntask t\n", GOAP_PARSE_ERROR, 2, 6,
     "task 't' has no 'method' (a task needs at least one)"},
    {"task\n", GOAP_PARSE_ERROR, 1, 5, "expected a name after 'task', found end of line"},
    {"task t u\n", GOAP_PARSE_ERROR, 1, 8,
     "expected end of line after the task name, found 'u'"},
    {DOMAIN_HEAD "task t\n  method m\ntask t\n", GOAP_DUPLICATE, 9, 6,
     "duplicate task 't' (first defined at line 7)"},
    {DOMAIN_HEAD "task t\n  method m\n  method m\n", GOAP_DUPLICATE, 9, 10,
     "duplicate method 'm' in task 't' (first defined at line 8)"},
    {DOMAIN_HEAD "task t\n  method m\n    do atack\n", GOAP_NOT_FOUND, 9, 8,
     "unknown action or task 'atack'; did you mean 'attack'?"},
    {DOMAIN_HEAD "task fight\n  method m\n    do attack figth\n", GOAP_NOT_FOUND, 9, 15,
     "unknown action or task 'figth'; did you mean 'fight'?"},
    {DOMAIN_HEAD "task t\n  method m\n    when amo\n", GOAP_NOT_FOUND, 9, 10,
     "unknown variable 'amo'; did you mean 'ammo'?"},
    {DOMAIN_HEAD "task t\n  method m\n    when x < 1\n", GOAP_TYPE_MISMATCH, 9, 12,
     "operator '<' needs an int variable; 'x' is a bool"},
    {DOMAIN_HEAD "task t\n  method m\n    do attack\n    when x\n", GOAP_PARSE_ERROR, 10, 5,
     "'when' must come before the method's 'do' lines (do at line 9)"},
    {DOMAIN_HEAD "task t\n  method m\n    do achieve be_insid\n", GOAP_NOT_FOUND, 9, 16,
     "unknown goal or variable 'be_insid' after 'achieve'; did you mean 'be_inside'?"},
    {DOMAIN_HEAD "task t\n  method m\n    do achieve\n", GOAP_PARSE_ERROR, 9, 15,
     "expected a condition after 'achieve', found end of line"},
    {DOMAIN_HEAD "task t\n  method m\n    do achieve x,\n", GOAP_PARSE_ERROR, 9, 18,
     "expected a condition after ',', found end of line"},
    {DOMAIN_HEAD "task t\n  method m\n    do achieve ammo = 2\n", GOAP_PARSE_ERROR, 9, 21,
     "'=' assigns; use '==' to compare in a condition"},
    {DOMAIN_HEAD "task t\n  method m\n    do\n", GOAP_PARSE_ERROR, 9, 7,
     "expected a subtask after 'do', found end of line"},
    {DOMAIN_HEAD "task t\n  method m\n    do attack, attack\n", GOAP_PARSE_ERROR, 9, 14,
     "expected an action or task name, 'achieve', 'set', 'pause' or end of line, found ','"},
    {DOMAIN_HEAD "task t\n  method m\n    do set x, !x\n", GOAP_CONFLICT, 9, 15,
     "method 'm' of task 't': set: two effects on variable 'x'"},
    {DOMAIN_HEAD "task t\n  method m\n    do set ammo += 1, x == true\n", GOAP_PARSE_ERROR, 9, 25,
     "'==' compares; use '=' to assign in an effect"},
    {DOMAIN_HEAD "task attack\n  method m\n", GOAP_DUPLICATE, 7, 6,
     "task 'attack' has the name of an action (line 3): names in 'do' lines would be "
     "ambiguous"},
    {DOMAIN_HEAD "task travel\n  method m\nscenario s\n  task travl\n", GOAP_NOT_FOUND, 10, 8,
     "unknown task 'travl'; did you mean 'travel'?"},
    {DOMAIN_HEAD "task t\n  method m\nscenario s\n  task t\n  want x\n", GOAP_CONFLICT, 11, 3,
     "a scenario has either 'task' or 'want': this one has 'task' (line 10)"},
    {DOMAIN_HEAD "task t\n  method m\nscenario s\n  task t\n  pursue be_inside\n",
     GOAP_CONFLICT, 11, 3,
     "a scenario has either 'task' or 'pursue': this one has 'task' (line 10)"},
    {DOMAIN_HEAD "task t\n  method m\nscenario s\n  task\n", GOAP_PARSE_ERROR, 10, 7,
     "expected a task name after 'task', found end of line"},
    {DOMAIN_HEAD "scenario s\n  given x\n", GOAP_PARSE_ERROR, 7, 10,
     "scenario 's' needs a 'pursue', 'want' or 'task' line"},
};

static void check_bad(int *test_failures_, const bad *c) {
  goap_file *f = NULL;
  goap_error d;
  char buf[2048];
  goap_status st;
  memset(&d, 0, sizeof d);
  st = goap_file_parse("t.goap", c->text, strlen(c->text), NULL, &f, &d);
  if (st != c->status || d.line != c->line || d.col != c->col ||
      strcmp(d.message, c->message) != 0)
    fprintf(stderr, "case:\n%s  -> %s %d:%d \"%s\"\n", c->text, goap_status_name(st), d.line,
            d.col, d.message);
  CHECK(f == NULL);
  CHECK_EQ_INT(st, c->status);
  CHECK_EQ_INT(d.line, c->line);
  CHECK_EQ_INT(d.col, c->col);
  CHECK_STR(d.message, c->message);
  /* the caret line points at the column */
  goap_error_format(&d, buf, sizeof buf);
  {
    const char *caret = strrchr(buf, '^');
    const char *nl = caret;
    REQUIRE(caret);
    while (nl > buf && nl[-1] != '\n') --nl;
    CHECK_EQ_INT(caret - nl, c->col - 1);
  }
  goap_file_destroy(f);
}

TEST(errors) {
  for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; ++i)
    check_bad(test_failures_, &bad_cases[i]);
}

TEST(tasks_and_scenarios) {
  static const char text[] =
      "domain d\n"
      "var x: bool\n"
      "var n: int 0..3\n"
      "action a\n"
      "  eff x\n"
      "action inc\n"
      "  pre n < 3\n"
      "  eff n += 1\n"
      "goal g\n"
      "  want x\n"
      "scenario with_want\n"
      "  want x\n"
      "task root                # after a scenario with a target: a new task block\n"
      "  method first\n"
      "    when !x, n == 0\n"
      "    when n < 3\n"
      "    do inc sub\n"
      "    do achieve g\n"
      "  method second\n"
      "    do pause set n = 3, x\n"
      "scenario s\n"
      "  given n = 1\n"
      "  task root              # no target yet: the scenario's root task\n"
      "  expect plan inc\n"
      "task sub\n"
      "  method only\n"
      "    do achieve x, n >= 2\n"
      "    do a\n";
  goap_file *f = NULL;
  goap_error d;
  REQUIRE(goap_file_parse("t.goap", text, sizeof text - 1, NULL, &f, &d) == GOAP_OK);
  const goap_htn_domain *h = goap_file_htn(f);
  REQUIRE(h);
  CHECK(goap_htn_domain_goap(h) == goap_file_domain(f));
  CHECK_EQ_INT(goap_htn_domain_task_count(h), 2);
  int root = goap_htn_domain_find_task(h, "root"), sub = goap_htn_domain_find_task(h, "sub");
  CHECK_EQ_INT(root, 0);
  CHECK_EQ_INT(sub, 1);
  int col = 0;
  CHECK_EQ_INT(goap_file_task_line(f, root, &col), 13);
  CHECK_EQ_INT(col, 6);
  CHECK_EQ_INT(goap_file_task_line(f, sub, &col), 25);
  CHECK_EQ_INT(goap_file_task_line(f, 5, &col), 0);
  CHECK_EQ_INT(goap_htn_domain_method_count(h, root), 2);
  CHECK_STR(goap_htn_domain_method_name(h, root, 1), "second");
  int n = 0;
  goap_htn_domain_method_when(h, root, 0, &n);
  CHECK_EQ_INT(n, 3); /* two when lines accumulate */
  const goap_htn_subtask *s = goap_htn_domain_method_subtasks(h, root, 0, &n);
  REQUIRE(n == 3);
  CHECK_EQ_INT(s[0].kind, GOAP_HTN_ACTION);
  CHECK_EQ_INT(s[1].kind, GOAP_HTN_TASK);
  CHECK_EQ_INT(s[1].id, sub);
  CHECK_EQ_INT(s[2].kind, GOAP_HTN_ACHIEVE_GOAL);
  s = goap_htn_domain_method_subtasks(h, root, 1, &n);
  REQUIRE(n == 2);
  CHECK_EQ_INT(s[0].kind, GOAP_HTN_PAUSE);
  CHECK_EQ_INT(s[1].kind, GOAP_HTN_SET);
  CHECK_EQ_INT(s[1].eff_count, 2);
  s = goap_htn_domain_method_subtasks(h, sub, 0, &n);
  REQUIRE(n == 2);
  CHECK_EQ_INT(s[0].kind, GOAP_HTN_ACHIEVE);
  CHECK_EQ_INT(s[0].cond_count, 2);
  CHECK_EQ_INT(goap_file_scenario_count(f), 2);
  const goap_scenario *sc = goap_file_scenario(f, 0);
  CHECK_EQ_INT(sc->task, -1);
  sc = goap_file_scenario(f, 1);
  CHECK_EQ_INT(sc->task, root);
  CHECK_EQ_INT(sc->goal, -1);
  CHECK_EQ_INT(sc->want_count, 0);
  CHECK_EQ_INT(sc->expect_plan_length, 1);
  /* a file with tasks: the variables used only by methods are not "never read" */
  {
    goap_error w[8];
    CHECK_EQ_INT(goap_file_warnings(f, w, 8), 0);
  }
  goap_file_destroy(f);
  /* no tasks: NULL */
  REQUIRE(goap_file_parse("t.goap", "var x: bool\n", 12, NULL, &f, &d) == GOAP_OK);
  CHECK(goap_file_htn(f) == NULL);
  CHECK_EQ_INT(goap_file_task_line(f, 0, &col), 0);
  goap_file_destroy(f);
  CHECK(goap_file_htn(NULL) == NULL);
}

/* Allocation failure anywhere while loading a file with tasks: a clean GOAP_OUT_OF_MEMORY. */
TEST(allocation_failures) {
  static const char text[] =
      "var x: bool\nvar y: bool\naction a\n  eff x\naction b\n  pre x\n  eff y\n"
      "goal g\n  want y\ntask t\n  method m\n    when !y\n    do a u achieve g\n"
      "  method n\n    do set x\ntask u\n  method m\n    do pause achieve x, !y\n"
      "scenario s\n  task t\n  expect plan a\n";
  /* (u: do pause achieve x, !y) */
  test_alloc c;
  goap_file *f = NULL;
  goap_error d;
  size_t total;
  memset(&c, 0, sizeof c);
  goap_allocator a = test_alloc_hook(&c);
  REQUIRE(goap_file_parse("t.goap", text, sizeof text - 1, &a, &f, &d) == GOAP_OK);
  goap_file_destroy(f);
  CHECK_EQ_INT(c.live, 0);
  CHECK_EQ_INT(c.bad_old_size, 0);
  total = c.calls;
  for (size_t k = 1; k <= total; ++k) {
    memset(&c, 0, sizeof c);
    c.fail_at = k;
    f = NULL;
    goap_status st = goap_file_parse("t.goap", text, sizeof text - 1, &a, &f, &d);
    CHECK_EQ_INT(st, GOAP_OUT_OF_MEMORY);
    CHECK(f == NULL);
    CHECK_EQ_INT(c.live, 0);
    CHECK_EQ_INT(c.bad_old_size, 0);
    CHECK_EQ_INT(c.unknown_ptr, 0);
  }
}

/* goap check: a method whose condition cannot hold; `set` effects count as reachable. */
TEST(method_warnings) {
  static const char text[] = "var x: bool\nvar y: bool\nvar z: bool\naction a\n  eff x\n"
                             "task t\n  method m\n    when x, y\n    do a\n"
                             "  method n\n    when z\n  method s\n    do set z\n";
  goap_file *f = NULL;
  goap_error d, w[4];
  REQUIRE(goap_file_parse("t.goap", text, sizeof text - 1, NULL, &f, &d) == GOAP_OK);
  REQUIRE(goap_file_warnings(f, w, 4) == 1);
  CHECK_STR(w[0].message, "method 'm' of task 't' can never apply: condition 'y' is "
                          "unreachable from the default state");
  CHECK_EQ_INT(w[0].line, 7);
  CHECK_EQ_INT(w[0].col, 10);
  CHECK_EQ_INT(w[0].severity, GOAP_SEVERITY_WARNING);
  CHECK_STR(w[0].source, "  method m");
  goap_file_destroy(f);
}

TEST_MAIN(TEST_ENTRY(errors), TEST_ENTRY(tasks_and_scenarios), TEST_ENTRY(allocation_failures),
          TEST_ENTRY(method_warnings))
