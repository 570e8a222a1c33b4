/*
 * test_parser.c -- the `.goap` format: parsing, diagnostics, goap_parse_conds /
 * goap_parse_assignments and the warnings of goap_file_warnings.
 *
 * Good inputs are checked through the public domain query API (every variable, action,
 * goal and scenario field) and by planning their scenarios; bad inputs each check the exact
 * status, line, column, message and source line of the first error, and that
 * goap_error_format renders `name:L:C: error: msg`, the source line and a caret under the
 * column.
 */
#include <goap/file.h>
#include <goap/goap.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"

/* ------------------------------------------------------------------------------------------
 * Helpers
 * ---------------------------------------------------------------------------------------- */
static goap_file *parse(const char *text, goap_error *err) {
  goap_file *f = NULL;
  goap_error local;
  goap_file_parse("t.goap", text, strlen(text), NULL, &f, err ? err : &local);
  return f;
}

/* The n-th line (1-based) of text, without its line break; returns its length. */
static size_t nth_line(const char *text, size_t len, int n, char *out, size_t cap) {
  size_t i = 0, o = 0;
  int line = 1;
  while (i < len && line < n) {
    if (text[i] == '\n') ++line;
    ++i;
  }
  while (i < len && text[i] != '\n' && o + 1 < cap) out[o++] = text[i++];
  if (o > 0 && out[o - 1] == '\r') --o;
  out[o] = '\0';
  return o;
}

static int is_clean(const char *s) {
  for (; *s; ++s)
    if (!((unsigned char)*s >= 0x20 && (unsigned char)*s < 0x7F) && *s != '\t') return 0;
  return 1;
}

typedef struct bad_case {
  const char *text;
  goap_status status;
  int line, col;
  const char *message;  /* the exact message, or NULL */
  const char *contains; /* a substring of the message (for messages the core words), or NULL */
} bad_case;

/* Parses c->text (len bytes; 0: strlen) and checks the first error completely. */
static void check_bad(int *test_failures_, const bad_case *c, size_t len) {
  goap_file *f = (goap_file *)&len; /* must be reset to NULL */
  goap_error d;
  goap_status st;
  char want_src[600];
  if (!len) len = strlen(c->text);
  memset(&d, 0x55, sizeof d);
  st = goap_file_parse("t.goap", c->text, len, NULL, &f, &d);
  if (st != c->status || d.line != c->line || d.col != c->col ||
      (c->message && strcmp(d.message, c->message) != 0) ||
      (c->contains && !strstr(d.message, c->contains)))
    fprintf(stderr, "case:\n%s\n  -> status %s, %d:%d \"%s\"\n", c->text, goap_status_name(st),
            d.line, d.col, d.message);
  CHECK(f == NULL);
  CHECK_EQ_INT(st, c->status);
  CHECK_EQ_INT(d.status, c->status);
  CHECK_EQ_INT(d.severity, GOAP_SEVERITY_ERROR);
  CHECK_STR(d.file, "t.goap");
  CHECK_EQ_INT(d.line, c->line);
  CHECK_EQ_INT(d.col, c->col);
  if (c->message) CHECK_STR(d.message, c->message);
  if (c->contains) CHECK(strstr(d.message, c->contains) != NULL);
  CHECK(strchr(d.message, '\n') == NULL);
  /* the source line is compared when it is plain text (no NUL or control bytes) */
  if (c->line > 0 &&
      nth_line(c->text, len, c->line, want_src, sizeof want_src) == strlen(want_src) &&
      is_clean(want_src) && strlen(want_src) < sizeof d.source) {
    char expect[2048], got[2048];
    size_t n = 0, i, need;
    CHECK_STR(d.source, want_src);
    n += (size_t)snprintf(expect + n, sizeof expect - n, "t.goap:%d:%d: error: %s\n%s\n",
                          c->line, c->col, d.message, want_src);
    for (i = 0; i + 1 < (size_t)c->col; ++i) expect[n++] = want_src[i] == '\t' ? '\t' : ' ';
    expect[n++] = '^';
    expect[n++] = '\n';
    expect[n] = '\0';
    need = goap_error_format(&d, got, sizeof got);
    CHECK_EQ_INT(need, strlen(expect));
    CHECK_STR(got, expect);
  }
}

/* ------------------------------------------------------------------------------------------
 * A soldier-style domain with every feature
 * ---------------------------------------------------------------------------------------- */
static const char soldier_text[] =
    "# The soldier and the door, with an int and an enum.\n"   /* 1 */
    "domain soldier\n"                                          /* 2 */
    "var in_b: bool\n"                                          /* 3 */
    "var has_ammo: bool\n"                                      /* 4 */
    "var loaded: bool = false\n"                                /* 5 */
    "var target_dead: bool\n"                                   /* 6 */
    "var door_stuck: bool\n"                                    /* 7 */
    "var kick_failed: bool\n"                                   /* 8 */
    "var armory_empty: bool\n"                                  /* 9 */
    "var ammo: int 0..30 = 2 shared   # rounds\n"               /* 10 */
    "var stance: enum {standing, crouched, prone} = crouched\n" /* 11 */
    "\n"                                                        /* 12 */
    "action get_ammo\n"                                         /* 13 */
    "  cost 1\n"                                                /* 14 */
    "  pre !armory_empty\n"                                     /* 15 */
    "  eff has_ammo\n"                                          /* 16 */
    "action load_magazine\n"                                    /* 17 */
    "  pre has_ammo, ammo >= 1\n"                               /* 18 */
    "  eff loaded, !has_ammo, ammo -= 1\n"                      /* 19 */
    "action open_door\n"                                        /* 20 */
    "  cost 1\n"                                                /* 21 */
    "  pre !door_stuck\n"                                       /* 22 */
    "  eff in_b, stance = standing\n"                           /* 23 */
    "action kick_door\n"                                        /* 24 */
    "  cost 3\n"                                                /* 25 */
    "  pre !kick_failed\n"                                      /* 26 */
    "  pre stance != prone\n"                                   /* 27 */
    "  eff in_b\n"                                              /* 28 */
    "action jump_window\n"                                      /* 29 */
    "  cost 5.5\n"                                              /* 30 */
    "  eff in_b\n"                                              /* 31 */
    "action shoot\n"                                            /* 32 */
    "  cost 1\n"                                                /* 33 */
    "  pre in_b, loaded == true\n"                              /* 34 */
    "  eff target_dead\n"                                       /* 35 */
    "action punch\n"                                            /* 36 */
    "  cost 6\n"                                                /* 37 */
    "  pre in_b\n"                                              /* 38 */
    "  eff target_dead = true\n"                                /* 39 */
    "action resupply\n"                                         /* 40 */
    "  cost 0.5\n"                                              /* 41 */
    "  pre ammo < 30, ammo <= 29, ammo != 30, ammo > -0\n"      /* 42 */
    "  eff ammo += 10\n"                                        /* 43 */
    "goal kill_enemy\n"                                         /* 44 */
    "  priority 10\n"                                           /* 45 */
    "  want target_dead\n"                                      /* 46 */
    "goal stay_safe\n"                                          /* 47 */
    "  priority -2.5\n"                                         /* 48 */
    "  want stance == crouched\n"                               /* 49 */
    "  want ammo >= 0\n"                                        /* 50 */
    "scenario default\n"                                        /* 51 */
    "  pursue kill_enemy\n"                                     /* 52 */
    "  expect cost 4\n"                                         /* 53 */
    "  expect plan get_ammo load_magazine open_door shoot\n"    /* 54 */
    "scenario door_stuck\n"                                     /* 55 */
    "  pursue kill_enemy\n"                                     /* 56 */
    "  given door_stuck\n"                                      /* 57 */
    "  expect cost 6\n"                                         /* 58 */
    "  expect plan get_ammo load_magazine kick_door shoot\n"    /* 59 */
    "scenario prone_and_stuck\n"                                /* 60 */
    "  pursue kill_enemy\n"                                     /* 61 */
    "  given door_stuck, stance = prone\n"                      /* 62 */
    "  expect cost 8.5\n"                                       /* 63 */
    "  expect plan get_ammo load_magazine jump_window shoot\n"  /* 64 */
    "scenario armory_empty\n"                                   /* 65 */
    "  pursue kill_enemy\n"                                     /* 66 */
    "  given armory_empty\n"                                    /* 67 */
    "  given ammo = 0\n"                                        /* 68 */
    "  expect cost 7\n"                                         /* 69 */
    "  expect plan open_door punch\n"                           /* 70 */
    "scenario loaded_in_b\n"                                    /* 71 */
    "  want target_dead\n"                                      /* 72 */
    "  given in_b, loaded = true, !has_ammo\n"                  /* 73 */
    "  expect plan shoot\n"                                     /* 74 */
    "scenario lie_down\n"                                       /* 75 */
    "  want stance == prone\n"                                  /* 76 */
    "  expect no plan\n"                                        /* 77 */
    "scenario no_ammo\n"                                        /* 78 */
    "  want target_dead, ammo >= 5\n"                           /* 79 */
    "  given ammo = 1\n"                                        /* 80 */
    "  expect cost 4.5\n";                                      /* 81 */

static void check_cond(int *test_failures_, const goap_cond *c, int var, goap_op op,
                       int32_t value) {
  CHECK_EQ_INT(c->var, var);
  CHECK_EQ_INT(c->op, op);
  CHECK_EQ_INT(c->value, value);
}

static void check_eff(int *test_failures_, const goap_effect *e, int var, goap_effect_op op,
                      int32_t value) {
  CHECK_EQ_INT(e->var, var);
  CHECK_EQ_INT(e->op, op);
  CHECK_EQ_INT(e->value, value);
}

TEST(soldier_vars) {
  goap_error err;
  goap_file *f = parse(soldier_text, &err);
  const goap_domain *d;
  goap_var_info vi;
  int ammo, stance, col = -1;
  if (!f) fprintf(stderr, "%d:%d: %s\n", err.line, err.col, err.message);
  REQUIRE(f != NULL);
  d = goap_file_domain(f);
  REQUIRE(d != NULL);
  CHECK_STR(goap_domain_name(d), "soldier");
  CHECK_EQ_INT(goap_domain_var_count(d), 9);
  CHECK_EQ_INT(goap_domain_find_var(d, "in_b"), 0);
  CHECK_EQ_INT(goap_domain_find_var(d, "armory_empty"), 6);
  ammo = goap_domain_find_var(d, "ammo");
  stance = goap_domain_find_var(d, "stance");
  CHECK_EQ_INT(ammo, 7);
  CHECK_EQ_INT(stance, 8);
  REQUIRE(goap_domain_var_info(d, ammo, &vi) == GOAP_OK);
  CHECK_EQ_INT(vi.type, GOAP_INT);
  CHECK_EQ_INT(vi.lo, 0);
  CHECK_EQ_INT(vi.hi, 30);
  CHECK_EQ_INT(vi.default_value, 2);
  CHECK_EQ_INT(vi.flags & GOAP_VAR_SHARED, GOAP_VAR_SHARED);
  REQUIRE(goap_domain_var_info(d, stance, &vi) == GOAP_OK);
  CHECK_EQ_INT(vi.type, GOAP_ENUM);
  CHECK_EQ_INT(vi.value_count, 3);
  CHECK_EQ_INT(vi.default_value, 1);
  CHECK_EQ_INT(vi.flags, 0);
  CHECK_STR(goap_domain_value_name(d, stance, 0), "standing");
  CHECK_STR(goap_domain_value_name(d, stance, 2), "prone");
  REQUIRE(goap_domain_var_info(d, 2, &vi) == GOAP_OK);
  CHECK_STR(vi.name, "loaded");
  CHECK_EQ_INT(vi.type, GOAP_BOOL);
  CHECK_EQ_INT(vi.default_value, 0);
  /* positions: line of the var line, column of the name */
  CHECK_EQ_INT(goap_file_var_line(f, ammo, &col), 10);
  CHECK_EQ_INT(col, 5);
  CHECK_EQ_INT(goap_file_var_line(f, 0, &col), 3);
  CHECK_EQ_INT(goap_file_var_line(f, 9, &col), 0);
  CHECK_EQ_INT(col, 0);
  CHECK_EQ_INT(goap_file_var_line(f, -1, NULL), 0);
  goap_file_destroy(f);
}

TEST(soldier_actions_goals) {
  goap_file *f = parse(soldier_text, NULL);
  const goap_domain *d;
  const goap_cond *c;
  const goap_effect *e;
  int n = -1, col = 0, a;
  static const char *const names[] = {"get_ammo", "open_door", "kick_door",  "jump_window",
                                      "shoot",    "punch",     "resupply",   "load_magazine"};
  static const double costs[] = {1, 1, 3, 5.5, 1, 6, 0.5, 1};
  REQUIRE(f != NULL);
  d = goap_file_domain(f);
  CHECK_EQ_INT(goap_domain_action_count(d), 8);
  for (a = 0; a < 8; ++a) {
    int id = goap_domain_find_action(d, names[a]);
    CHECK(id >= 0);
    CHECK_NEAR(goap_domain_action_cost(d, id), costs[a], 0);
  }
  CHECK_STR(goap_domain_action_name(d, 0), "get_ammo");
  CHECK_STR(goap_domain_action_name(d, 7), "resupply");
  /* load_magazine: default cost, int precondition and decrement */
  a = goap_domain_find_action(d, "load_magazine");
  CHECK_EQ_INT(a, 1);
  c = goap_domain_action_pre(d, a, &n);
  REQUIRE(n == 2 && c);
  check_cond(test_failures_, &c[0], 1, GOAP_EQ, 1);
  check_cond(test_failures_, &c[1], 7, GOAP_GE, 1);
  e = goap_domain_action_eff(d, a, &n);
  REQUIRE(n == 3 && e);
  check_eff(test_failures_, &e[0], 2, GOAP_SET, 1);
  check_eff(test_failures_, &e[1], 1, GOAP_SET, 0);
  check_eff(test_failures_, &e[2], 7, GOAP_ADD, -1);
  CHECK_EQ_INT(goap_file_action_line(f, a, &col), 17);
  CHECK_EQ_INT(col, 8);
  /* open_door: enum assignment */
  e = goap_domain_action_eff(d, 2, &n);
  REQUIRE(n == 2 && e);
  check_eff(test_failures_, &e[0], 0, GOAP_SET, 1);
  check_eff(test_failures_, &e[1], 8, GOAP_SET, 0);
  /* kick_door: two pre lines accumulate */
  c = goap_domain_action_pre(d, 3, &n);
  REQUIRE(n == 2 && c);
  check_cond(test_failures_, &c[0], 5, GOAP_EQ, 0);
  check_cond(test_failures_, &c[1], 8, GOAP_NE, 2);
  /* jump_window: no preconditions */
  c = goap_domain_action_pre(d, 4, &n);
  CHECK_EQ_INT(n, 0);
  /* shoot: `loaded == true`; punch: `target_dead = true` */
  c = goap_domain_action_pre(d, 5, &n);
  REQUIRE(n == 2 && c);
  check_cond(test_failures_, &c[1], 2, GOAP_EQ, 1);
  e = goap_domain_action_eff(d, 6, &n);
  REQUIRE(n == 1 && e);
  check_eff(test_failures_, &e[0], 3, GOAP_SET, 1);
  /* resupply: every int operator, and `-0` */
  c = goap_domain_action_pre(d, 7, &n);
  REQUIRE(n == 4 && c);
  check_cond(test_failures_, &c[0], 7, GOAP_LT, 30);
  check_cond(test_failures_, &c[1], 7, GOAP_LE, 29);
  check_cond(test_failures_, &c[2], 7, GOAP_NE, 30);
  check_cond(test_failures_, &c[3], 7, GOAP_GT, 0);
  e = goap_domain_action_eff(d, 7, &n);
  REQUIRE(n == 1 && e);
  check_eff(test_failures_, &e[0], 7, GOAP_ADD, 10);
  CHECK_EQ_INT(goap_file_action_line(f, 7, NULL), 40);
  /* goals */
  CHECK_EQ_INT(goap_domain_goal_count(d), 2);
  CHECK_EQ_INT(goap_domain_find_goal(d, "stay_safe"), 1);
  CHECK_NEAR(goap_domain_goal_priority(d, 0), 10, 0);
  CHECK_NEAR(goap_domain_goal_priority(d, 1), -2.5, 0);
  c = goap_domain_goal_want(d, 0, &n);
  REQUIRE(n == 1 && c);
  check_cond(test_failures_, &c[0], 3, GOAP_EQ, 1);
  c = goap_domain_goal_want(d, 1, &n);
  REQUIRE(n == 2 && c);
  check_cond(test_failures_, &c[0], 8, GOAP_EQ, 1);
  check_cond(test_failures_, &c[1], 7, GOAP_GE, 0);
  CHECK_EQ_INT(goap_file_goal_line(f, 1, &col), 47);
  CHECK_EQ_INT(col, 6);
  CHECK_EQ_INT(goap_file_goal_line(f, 2, &col), 0);
  CHECK_EQ_INT(goap_file_warnings(f, NULL, 0), 0);
  goap_file_destroy(f);
}

TEST(soldier_scenarios) {
  goap_file *f = parse(soldier_text, NULL);
  const goap_domain *d;
  const goap_scenario *s;
  REQUIRE(f != NULL);
  d = goap_file_domain(f);
  CHECK_EQ_INT(goap_file_scenario_count(f), 7);
  CHECK_EQ_INT(goap_file_find_scenario(f, "lie_down"), 5);
  CHECK_EQ_INT(goap_file_find_scenario(f, "nope"), -1);
  CHECK(goap_file_scenario(f, 7) == NULL);
  CHECK(goap_file_scenario(f, -1) == NULL);
  s = goap_file_scenario(f, 0);
  REQUIRE(s != NULL);
  CHECK_STR(s->name, "default");
  CHECK_EQ_INT(s->line, 51);
  CHECK_EQ_INT(s->goal, 0);
  REQUIRE(s->want_count == 1);
  check_cond(test_failures_, &s->want[0], 3, GOAP_EQ, 1);
  CHECK_EQ_INT(s->given_count, 0);
  CHECK_EQ_INT(s->expect, GOAP_EXPECT_COST | GOAP_EXPECT_PLAN);
  CHECK_NEAR(s->expect_cost, 4, 0);
  REQUIRE(s->expect_plan_length == 4);
  CHECK_EQ_INT(s->expect_plan[0], goap_domain_find_action(d, "get_ammo"));
  CHECK_EQ_INT(s->expect_plan[1], goap_domain_find_action(d, "load_magazine"));
  CHECK_EQ_INT(s->expect_plan[2], goap_domain_find_action(d, "open_door"));
  CHECK_EQ_INT(s->expect_plan[3], goap_domain_find_action(d, "shoot"));
  s = goap_file_scenario(f, 2);
  REQUIRE(s && s->given_count == 2);
  check_eff(test_failures_, &s->given[0], 4, GOAP_SET, 1);
  check_eff(test_failures_, &s->given[1], 8, GOAP_SET, 2);
  CHECK_NEAR(s->expect_cost, 8.5, 0);
  s = goap_file_scenario(f, 3); /* given on two lines */
  REQUIRE(s && s->given_count == 2);
  check_eff(test_failures_, &s->given[0], 6, GOAP_SET, 1);
  check_eff(test_failures_, &s->given[1], 7, GOAP_SET, 0);
  s = goap_file_scenario(f, 4);
  REQUIRE(s != NULL);
  CHECK_EQ_INT(s->goal, -1);
  CHECK_EQ_INT(s->expect, GOAP_EXPECT_PLAN);
  REQUIRE(s->given_count == 3);
  check_eff(test_failures_, &s->given[1], 2, GOAP_SET, 1);
  check_eff(test_failures_, &s->given[2], 1, GOAP_SET, 0);
  s = goap_file_scenario(f, 5);
  REQUIRE(s != NULL);
  CHECK_EQ_INT(s->expect, GOAP_EXPECT_NO_PLAN);
  CHECK_EQ_INT(s->expect_plan_length, 0);
  REQUIRE(s->want_count == 1);
  check_cond(test_failures_, &s->want[0], 8, GOAP_EQ, 2);
  s = goap_file_scenario(f, 6);
  REQUIRE(s && s->want_count == 2);
  check_cond(test_failures_, &s->want[1], 7, GOAP_GE, 5);
  goap_file_destroy(f);
}

/* Plans every scenario of f and checks its expectations; returns the number checked. */
static int plan_scenarios(int *test_failures_, const goap_file *f) {
  const goap_domain *d = goap_file_domain(f);
  goap_planner *p = NULL;
  goap_planner_create(d, NULL, &p);
  goap_word start[16];
  int32_t plan[32];
  int i, checked = 0;
  if (!p || goap_domain_state_words(d) > 16) {
    CHECK(p != NULL);
    goap_planner_destroy(p);
    return 0;
  }
  for (i = 0; i < goap_file_scenario_count(f); ++i) {
    const goap_scenario *s = goap_file_scenario(f, i);
    goap_request req;
    goap_result res;
    goap_status st;
    memset(&req, 0, sizeof req);
    memset(&res, 0, sizeof res);
    goap_state_init(d, start);
    CHECK_EQ_INT(goap_state_assign(d, start, s->given, s->given_count), GOAP_OK);
    req.start = start;
    req.want = s->want;
    req.want_count = s->want_count;
    res.plan = plan;
    res.plan_capacity = 32;
    st = goap_plan(p, &req, &res);
    if (s->expect & GOAP_EXPECT_NO_PLAN) {
      CHECK_EQ_INT(st, GOAP_NO_PLAN);
    } else {
      CHECK_EQ_INT(st, GOAP_OK);
      if (s->expect & GOAP_EXPECT_COST) CHECK_NEAR(res.cost, s->expect_cost, 1e-9);
      if (s->expect & GOAP_EXPECT_PLAN) {
        CHECK_EQ_INT(res.plan_length, s->expect_plan_length);
        if (res.plan_length == s->expect_plan_length && res.plan_length > 0)
          CHECK(memcmp(plan, s->expect_plan, sizeof *plan * (size_t)res.plan_length) == 0);
      }
    }
    ++checked;
  }
  goap_planner_destroy(p);
  return checked;
}

TEST(soldier_plans_match_expectations) {
  goap_file *f = parse(soldier_text, NULL);
  REQUIRE(f != NULL);
  CHECK_EQ_INT(plan_scenarios(test_failures_, f), 7);
  goap_file_destroy(f);
}

TEST(load_examples) {
  static const char *const files[] = {GOAP_EXAMPLES_DIR "/soldier.goap",
                                      GOAP_EXAMPLES_DIR "/alma.goap"};
  static const int scenarios[] = {5, 4};
  int i;
  for (i = 0; i < 2; ++i) {
    goap_file *f = NULL;
    goap_error err;
    goap_status st = goap_file_load(files[i], NULL, &f, &err);
    if (st != GOAP_OK) fprintf(stderr, "%s:%d:%d: %s\n", err.file, err.line, err.col, err.message);
    REQUIRE(st == GOAP_OK && f != NULL);
    CHECK_EQ_INT(goap_file_scenario_count(f), scenarios[i]);
    CHECK_EQ_INT(plan_scenarios(test_failures_, f), scenarios[i]);
    CHECK_EQ_INT(goap_file_warnings(f, NULL, 0), 0);
    goap_file_destroy(f);
  }
}

TEST(load_errors) {
  goap_file *f = (goap_file *)&f;
  goap_error err;
  CHECK_EQ_INT(goap_file_load(GOAP_TESTS_DIR "/no/such/file.goap", NULL, &f, &err),
               GOAP_IO_ERROR);
  CHECK(f == NULL);
  CHECK_EQ_INT(err.status, GOAP_IO_ERROR);
  CHECK_STR(err.file, GOAP_TESTS_DIR "/no/such/file.goap");
  CHECK_EQ_INT(err.line, 0);
  CHECK_STR(err.message, "cannot open file for reading");
  /* a directory opens on POSIX systems but cannot be read */
  CHECK_EQ_INT(goap_file_load(GOAP_TESTS_DIR, NULL, &f, &err), GOAP_IO_ERROR);
  CHECK(f == NULL);
  CHECK_EQ_INT(goap_file_load(NULL, NULL, &f, &err), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_file_load(GOAP_EXAMPLES_DIR "/alma.goap", NULL, NULL, NULL),
               GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_file_parse("x", NULL, 3, NULL, &f, &err), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_file_parse("x", "", 0, NULL, NULL, &err), GOAP_INVALID_ARGUMENT);
}

TEST(null_accessors) {
  CHECK(goap_file_domain(NULL) == NULL);
  CHECK_EQ_INT(goap_file_scenario_count(NULL), 0);
  CHECK(goap_file_scenario(NULL, 0) == NULL);
  CHECK_EQ_INT(goap_file_find_scenario(NULL, "x"), -1);
  CHECK_EQ_INT(goap_file_action_line(NULL, 0, NULL), 0);
  CHECK_EQ_INT(goap_file_warnings(NULL, NULL, 0), 0);
  goap_file_destroy(NULL);
}

/* ------------------------------------------------------------------------------------------
 * Lexical leniency: CRLF, tabs, comments, no final newline, BOM, empty input
 * ---------------------------------------------------------------------------------------- */
TEST(line_endings_tabs_comments) {
  static const char text[] =
      "\xEF\xBB\xBF# BOM, CRLF, tabs and a comment in \xC3\xA9l\xC3\xA8ve UTF-8\r\n"
      "domain\tcrlf # the name\r\n"
      "\r\n"
      "var\tx:bool=true#no spaces\r\n"
      "var n : int -10 .. -2 = -3\r\n"
      "action\ta\r\n"
      "\tpre x,n>=-5,n<-2\r\n"
      "\teff !x,n+=1\r\n"
      "goal g\r\n"
      "  want !x\r\n"
      "scenario s\r\n"
      "  want n == -2\r\n"
      "  expect cost 0";
  goap_error err;
  goap_file *f = parse(text, &err);
  const goap_domain *d;
  const goap_cond *c;
  const goap_effect *e;
  goap_var_info vi;
  int n = 0, col = 0;
  if (!f) fprintf(stderr, "%d:%d: %s\n", err.line, err.col, err.message);
  REQUIRE(f != NULL);
  d = goap_file_domain(f);
  CHECK_STR(goap_domain_name(d), "crlf");
  REQUIRE(goap_domain_var_info(d, 1, &vi) == GOAP_OK);
  CHECK_EQ_INT(vi.lo, -10);
  CHECK_EQ_INT(vi.hi, -2);
  CHECK_EQ_INT(vi.default_value, -3);
  REQUIRE(goap_domain_var_info(d, 0, &vi) == GOAP_OK);
  CHECK_EQ_INT(vi.default_value, 1);
  c = goap_domain_action_pre(d, 0, &n);
  REQUIRE(n == 3 && c);
  check_cond(test_failures_, &c[0], 0, GOAP_EQ, 1);
  check_cond(test_failures_, &c[1], 1, GOAP_GE, -5);
  check_cond(test_failures_, &c[2], 1, GOAP_LT, -2);
  e = goap_domain_action_eff(d, 0, &n);
  REQUIRE(n == 2 && e);
  check_eff(test_failures_, &e[0], 0, GOAP_SET, 0);
  check_eff(test_failures_, &e[1], 1, GOAP_ADD, 1);
  /* columns count bytes after the BOM; a tab is one byte */
  CHECK_EQ_INT(goap_file_var_line(f, 0, &col), 4);
  CHECK_EQ_INT(col, 5);
  CHECK_EQ_INT(goap_file_action_line(f, 0, &col), 6);
  CHECK_EQ_INT(col, 8);
  REQUIRE(goap_file_scenario_count(f) == 1);
  CHECK_EQ_INT(goap_file_scenario(f, 0)->expect, GOAP_EXPECT_COST);
  CHECK_NEAR(goap_file_scenario(f, 0)->expect_cost, 0, 0);
  goap_file_destroy(f);
}

TEST(empty_and_comment_only) {
  goap_file *f = NULL;
  goap_error err;
  CHECK_EQ_INT(goap_file_parse("e", "", 0, NULL, &f, &err), GOAP_OK);
  REQUIRE(f != NULL);
  CHECK_EQ_INT(goap_domain_var_count(goap_file_domain(f)), 0);
  CHECK_STR(goap_domain_name(goap_file_domain(f)), "domain");
  goap_file_destroy(f);
  f = parse("# nothing\n\n   \t\n# at all", NULL);
  REQUIRE(f != NULL);
  CHECK_EQ_INT(goap_domain_action_count(goap_file_domain(f)), 0);
  CHECK_EQ_INT(goap_file_scenario_count(f), 0);
  goap_file_destroy(f);
  /* text need not be NUL-terminated: only `length` bytes are read */
  {
    char buf[32];
    memcpy(buf, "var x: bool\nvar yy: bool@@@@", 29);
    CHECK_EQ_INT(goap_file_parse("e", buf, 24, NULL, &f, &err), GOAP_OK);
    REQUIRE(f != NULL);
    CHECK_EQ_INT(goap_domain_find_var(goap_file_domain(f), "yy"), 1);
    goap_file_destroy(f);
  }
}

TEST(int32_limits_and_forward_references) {
  goap_file *f = parse(
      "var n: int -2147483648..2147483647 = 2147483647\n"
      "scenario early\n"
      "  pursue later_goal\n"
      "  expect plan later_action\n"
      "action later_action\n"
      "  pre n == -2147483648\n"
      "  eff n = 0\n"
      "goal later_goal\n"
      "  want n == 0\n",
      NULL);
  const goap_scenario *s;
  goap_var_info vi;
  REQUIRE(f != NULL);
  REQUIRE(goap_domain_var_info(goap_file_domain(f), 0, &vi) == GOAP_OK);
  CHECK_EQ_INT(vi.lo, INT32_MIN);
  CHECK_EQ_INT(vi.hi, INT32_MAX);
  CHECK_EQ_INT(vi.default_value, INT32_MAX);
  s = goap_file_scenario(f, 0);
  REQUIRE(s != NULL);
  CHECK_EQ_INT(s->goal, 0);
  REQUIRE(s->want_count == 1);
  check_cond(test_failures_, &s->want[0], 0, GOAP_EQ, 0);
  REQUIRE(s->expect_plan_length == 1);
  CHECK_EQ_INT(s->expect_plan[0], 0);
  goap_file_destroy(f);
}

TEST(expect_empty_plan) {
  goap_file *f = parse("var x: bool\nscenario s\n  want !x\n  expect plan\n", NULL);
  const goap_scenario *s;
  REQUIRE(f != NULL);
  s = goap_file_scenario(f, 0);
  REQUIRE(s != NULL);
  CHECK_EQ_INT(s->expect, GOAP_EXPECT_PLAN);
  CHECK_EQ_INT(s->expect_plan_length, 0);
  CHECK_EQ_INT(plan_scenarios(test_failures_, f), 1);
  goap_file_destroy(f);
}

/* ------------------------------------------------------------------------------------------
 * Bad inputs: exact status, position and message
 * ---------------------------------------------------------------------------------------- */
#define V_AMMO "var ammo: int 0..30\n"

static const bad_case bad_cases[] = {
    /* keywords and structure */
    {"acton a\n", GOAP_PARSE_ERROR, 1, 1, "unknown keyword 'acton'; did you mean 'action'?", 0},
    {"var x: bool\nfrobnicate\n", GOAP_PARSE_ERROR, 2, 1, "unknown keyword 'frobnicate'", 0},
    {"var x: bool\naction a\n  eff x\n  pri x\n", GOAP_PARSE_ERROR, 4, 3,
     "unknown keyword 'pri'; did you mean 'pre'?", 0},
    {"var x: bool\n  pre x\n", GOAP_PARSE_ERROR, 2, 3, "'pre' must be inside an action block", 0},
    {"var x: bool\nwant x\n", GOAP_PARSE_ERROR, 2, 1,
     "'want' must be inside a goal or scenario block", 0},
    {"expect cost 1\n", GOAP_PARSE_ERROR, 1, 1, "'expect' must be inside a scenario or simulation block", 0},
    {"var x: bool\naction a\n  eff x\nvar y: bool\n  cost 2\n", GOAP_PARSE_ERROR, 5, 3,
     "'cost' must be inside an action or role block", 0},
    {"var x: bool\ngoal g\n  cost 1\n", GOAP_PARSE_ERROR, 3, 3,
     "'cost' is not allowed in a goal block (allowed: priority, want, valid, watch, cooldown)", 0},
    {"var x: bool\naction a\n  want x\n", GOAP_PARSE_ERROR, 3, 3,
     "'want' is not allowed in an action block (allowed: cost, pre, eff, on_fail, timeout, watch, duration, reserve, on_start, on_end)", 0},
    {"var x: bool\nscenario s\n  priority 1\n", GOAP_PARSE_ERROR, 3, 3,
     "'priority' is not allowed in a scenario block (allowed: pursue, want, given, expect)", 0},
    {"action\n", GOAP_PARSE_ERROR, 1, 7, "expected a name after 'action', found end of line", 0},
    {"goal   # no name\n", GOAP_PARSE_ERROR, 1, 8, "expected a name after 'goal', found end of line",
     0},
    {"scenario 12\n", GOAP_PARSE_ERROR, 1, 10, "expected a name after 'scenario', found '12'", 0},
    {"action a b\n", GOAP_PARSE_ERROR, 1, 10,
     "expected end of line after the action name, found 'b'", 0},
    {"domain\n", GOAP_PARSE_ERROR, 1, 7, "expected a name after 'domain', found end of line", 0},
    {"domain a\ndomain b\n", GOAP_DUPLICATE, 2, 1, "'domain' given twice (first at line 1)", 0},
    {"123\n", GOAP_PARSE_ERROR, 1, 1, "expected a keyword at the start of the line, found '123'",
     0},
    {"!x\n", GOAP_PARSE_ERROR, 1, 1, "expected a keyword at the start of the line, found '!'", 0},
    /* missing parts of blocks */
    {"var x: bool\naction a\n  cost 1\ngoal g\n  want x\n", GOAP_PARSE_ERROR, 2, 8,
     "action 'a' has no 'eff' line", 0},
    {"var x: bool\ngoal g\n  priority 1\n", GOAP_PARSE_ERROR, 2, 6, "goal 'g' has no 'want' line",
     0},
    {"var x: bool\nscenario s\n  given x\n", GOAP_PARSE_ERROR, 2, 10,
     "scenario 's' needs a 'pursue', 'want' or 'task' line", 0},
    {"var x: bool\ngoal g\n  want x\nscenario s\n  pursue g\n  want x\n", GOAP_CONFLICT, 6, 3,
     "scenario 's' has both 'want' and 'pursue' (pursue at line 5)", 0},
    {"var x: bool\ngoal g\n  want x\nscenario s\n  want x\n  pursue g\n", GOAP_CONFLICT, 6, 3,
     "scenario 's' has both 'pursue' and 'want' (want at line 5)", 0},
    /* variables */
    {"var : bool\n", GOAP_PARSE_ERROR, 1, 5, "expected a variable name after 'var', found ':'", 0},
    {"var x bool\n", GOAP_PARSE_ERROR, 1, 7,
     "expected ':' after the variable name, found 'bool'", 0},
    {"var x:\n", GOAP_PARSE_ERROR, 1, 7, "expected a type (bool, enum or int), found end of line",
     0},
    {"var x: boolean\n", GOAP_PARSE_ERROR, 1, 8,
     "unknown type 'boolean' (expected bool, enum or int); did you mean 'bool'?", 0},
    {"var x: float\n", GOAP_PARSE_ERROR, 1, 8, "unknown type 'float' (expected bool, enum or int)",
     0},
    {"var x: bool\nvar x: int 0..1\n", GOAP_DUPLICATE, 2, 5,
     "duplicate variable 'x' (first declared at line 1)", 0},
    {"var s: enum {a, b, a}\n", GOAP_DUPLICATE, 1, 20, "duplicate enum value 'a' in 's'", 0},
    {"var s: enum {}\n", GOAP_PARSE_ERROR, 1, 14, "an enum needs at least one value", 0},
    {"var s: enum {a,}\n", GOAP_PARSE_ERROR, 1, 16, "expected an enum value name, found '}'", 0},
    {"var s: enum {a b}\n", GOAP_PARSE_ERROR, 1, 16,
     "expected ',' or '}' in the enum, found 'b'", 0},
    {"var s: enum a, b\n", GOAP_PARSE_ERROR, 1, 13, "expected '{' after 'enum', found 'a'", 0},
    {"var n: int 5..3\n", GOAP_OUT_OF_RANGE, 1, 12,
     "empty range 5..3: the lower bound is greater than the upper bound", 0},
    {"var n: int 0..99999999999\n", GOAP_OUT_OF_RANGE, 1, 15,
     "integer '99999999999' does not fit in 32 bits", 0},
    {"var n: int -2147483649..0\n", GOAP_OUT_OF_RANGE, 1, 12,
     "integer '-2147483649' does not fit in 32 bits", 0},
    {"var n: int 0.5..3\n", GOAP_TYPE_MISMATCH, 1, 12, "expected an integer, found '0.5'", 0},
    {"var n: int 0..\n", GOAP_PARSE_ERROR, 1, 15,
     "expected an upper bound after '..', found end of line", 0},
    {"var n: int 0 3\n", GOAP_PARSE_ERROR, 1, 14,
     "expected '..' after the lower bound, found '3'", 0},
    {"var n: int 0..3 = 4\n", GOAP_OUT_OF_RANGE, 1, 19, "default 4 is outside the range 0..3 of 'n'",
     0},
    {"var n: int 0..3 = x\n", GOAP_TYPE_MISMATCH, 1, 19,
     "'n' is an int: expected an integer, found 'x'", 0},
    {"var x: bool = yes\n", GOAP_TYPE_MISMATCH, 1, 15,
     "'x' is a bool: expected true or false, found 'yes'", 0},
    {"var x: bool =\n", GOAP_PARSE_ERROR, 1, 14,
     "expected a default value after '=', found end of line", 0},
    {"var s: enum {standing, prone} = standin\n", GOAP_NOT_FOUND, 1, 33,
     "unknown value 'standin' for 's'; did you mean 'standing'?", 0},
    {"var s: enum {standing, prone} = 0\n", GOAP_TYPE_MISMATCH, 1, 33,
     "'s' is an enum: expected one of its values, found '0'", 0},
    {"var x: bool = true shared extra\n", GOAP_PARSE_ERROR, 1, 27,
     "expected end of line after 'shared', found 'extra'", 0},
    {"var x: bool shared = true\n", GOAP_PARSE_ERROR, 1, 20,
     "expected end of line after 'shared', found '='", 0},
    {"var x: bool true\n", GOAP_PARSE_ERROR, 1, 13,
     "expected '=', 'shared', 'sensed' or end of line, found 'true'", 0},
    {"var x: bool = true yes\n", GOAP_PARSE_ERROR, 1, 20,
     "expected 'shared', 'sensed' or end of line, found 'yes'", 0},
    {"var x: bool sensed extra\n", GOAP_PARSE_ERROR, 1, 20,
     "expected end of line after 'sensed', found 'extra'", 0},
    {"var x: bool sensed sensed\n", GOAP_PARSE_ERROR, 1, 20,
     "expected end of line after 'sensed', found 'sensed'", 0},
    {"world x: bool sensed\n", GOAP_PARSE_ERROR, 1, 15,
     "a world variable cannot be 'sensed': declare the agent's percept with 'var ... sensed' "
     "and set it with 'at' lines", 0},
    {"var n: integer 0..5\n", GOAP_PARSE_ERROR, 1, 8,
     "unknown type 'integer' (expected bool, enum or int); did you mean 'int'?", 0},
    {"var n: boolean\n", GOAP_PARSE_ERROR, 1, 8,
     "unknown type 'boolean' (expected bool, enum or int); did you mean 'bool'?", 0},
    {"var n: int 0..5\naction patrol\n  pre n > 1\nvar seen: bool\n  eff seen\n",
     GOAP_PARSE_ERROR, 2, 8,
     "action 'patrol' has no 'eff' line (the 'var' on line 4 ends its block: declare "
     "variables before the actions that use them)", 0},
    /* hysteresis and cooldowns */
    {"var x: bool\naction a\n  eff x\ngoal g\n  want x\n  cooldown -1\n", GOAP_OUT_OF_RANGE, 6, 12,
     "cooldown must not be negative, found '-1'", 0},
    {"var x: bool\naction a\n  eff x\ngoal g\n  want x\n  cooldown 1\n  cooldown 2\n",
     GOAP_DUPLICATE, 7, 3, "duplicate 'cooldown' in goal 'g' (first at line 6)", 0},
    {"agent a\n  switch_margin\n", GOAP_PARSE_ERROR, 2, 16,
     "expected a number after 'switch_margin', found end of line", 0},
    {"agent a\n  switch_margin 1\n  switch_margin 1\n", GOAP_DUPLICATE, 3, 3,
     "duplicate 'switch_margin' in agent 'a' (first at line 2)", 0},
    /* saturating effects */
    {"var n: int 0..5\naction a\n  eff n = 1 clamp\n", GOAP_PARSE_ERROR, 3, 13,
     "expected ',' or end of line, found 'clamp'", 0},
    {"var n: int 0..5\naction a\n  eff n -= 1 clam\n", GOAP_PARSE_ERROR, 3, 14,
     "expected ',', 'clamp' or end of line, found 'clam'", 0},
    {"var n: int 0..5\naction a\n  eff n -= 9\n", GOAP_OUT_OF_RANGE, 3, 7, NULL,
     "always leaves its range"},
    /* names in conditions and effects */
    {V_AMMO "action a\n  pre amo >= 1\n  eff ammo -= 1\n", GOAP_NOT_FOUND, 3, 7,
     "unknown variable 'amo'; did you mean 'ammo'?", 0},
    {V_AMMO "action a\n  pre zzz\n", GOAP_NOT_FOUND, 3, 7, "unknown variable 'zzz'", 0},
    {"action a\n  eff later\nvar later: bool\n", GOAP_NOT_FOUND, 2, 7,
     "variable 'later' is used before its declaration (line 3); declare variables before "
     "using them",
     0},
    {"var s: enum {standing, crouched, prone}\naction a\n  eff s = pron\n", GOAP_NOT_FOUND, 3, 11,
     "unknown value 'pron' for 's'; did you mean 'prone'?", 0},
    /* types */
    {V_AMMO "action a\n  eff ammo\n", GOAP_TYPE_MISMATCH, 3, 7,
     "'ammo' is an int, not a bool: the shorthand 'ammo' is only for bools", 0},
    {"var s: enum {a, b}\naction x\n  pre !s\n  eff s = b\n", GOAP_TYPE_MISMATCH, 3, 7,
     "'s' is an enum, not a bool: the shorthand '!s' is only for bools", 0},
    {"var x: bool\naction a\n  pre x < true\n  eff x\n", GOAP_TYPE_MISMATCH, 3, 9,
     "operator '<' needs an int variable; 'x' is a bool", 0},
    {"var s: enum {a, b}\naction x\n  pre s >= b\n", GOAP_TYPE_MISMATCH, 3, 9,
     "operator '>=' needs an int variable; 's' is an enum", 0},
    {"var s: enum {a, b}\naction x\n  eff s += 1\n", GOAP_TYPE_MISMATCH, 3, 9,
     "operator '+=' needs an int variable; 's' is an enum", 0},
    {"var x: bool\naction a\n  eff x -= 1\n", GOAP_TYPE_MISMATCH, 3, 9,
     "operator '-=' needs an int variable; 'x' is a bool", 0},
    {"var x: bool\naction a\n  eff x = 1\n", GOAP_TYPE_MISMATCH, 3, 11,
     "'x' is a bool: expected true or false, found '1'", 0},
    {V_AMMO "action a\n  pre ammo == true\n", GOAP_TYPE_MISMATCH, 3, 15,
     "'ammo' is an int: expected an integer, found 'true'", 0},
    {V_AMMO "action a\n  pre ammo == 1.5\n", GOAP_TYPE_MISMATCH, 3, 15,
     "'ammo' is an int: expected an integer, found '1.5'", 0},
    {"var s: enum {a, b}\naction x\n  eff s = 1\n", GOAP_TYPE_MISMATCH, 3, 11,
     "'s' is an enum: expected one of its values, found '1'", 0},
    /* ranges */
    {V_AMMO "action a\n  pre ammo >= 31\n  eff ammo = 0\n", GOAP_OUT_OF_RANGE, 3, 15,
     "value 31 is outside the range 0..30 of 'ammo'", 0},
    {V_AMMO "action a\n  eff ammo = -1\n", GOAP_OUT_OF_RANGE, 3, 14,
     "value -1 is outside the range 0..30 of 'ammo'", 0},
    {V_AMMO "action a\n  eff ammo = 4294967296\n", GOAP_OUT_OF_RANGE, 3, 14,
     "integer '4294967296' does not fit in 32 bits", 0},
    {V_AMMO "action a\n  eff ammo -= -2147483648\n", GOAP_OUT_OF_RANGE, 3, 15,
     "'-= -2147483648' is out of range", 0},
    /* the builder's checks, mapped back to the offending effect */
    {V_AMMO "action a\n  cost 2\n  eff ammo += 40\n", GOAP_OUT_OF_RANGE, 4, 7, NULL, "40"},
    {"var x: bool\nvar y: bool\naction a\n  eff y, x\n  eff !x\n", GOAP_CONFLICT, 5, 7, NULL,
     "two effects on variable 'x'"},
    {V_AMMO "action a\n  eff ammo = 1, ammo += 1\n", GOAP_CONFLICT, 3, 17, NULL, "'ammo'"},
    /* duplicates */
    {"var x: bool\naction a\n  eff x\naction a\n  eff x\n", GOAP_DUPLICATE, 4, 8,
     "duplicate action 'a' (first defined at line 2)", 0},
    {"var x: bool\ngoal g\n  want x\ngoal g\n  want x\n", GOAP_DUPLICATE, 4, 6,
     "duplicate goal 'g' (first defined at line 2)", 0},
    {"var x: bool\nscenario s\n  want x\nscenario s\n", GOAP_DUPLICATE, 4, 10,
     "duplicate scenario 's' (first defined at line 2)", 0},
    {"var x: bool\naction a\n  cost 1\n  cost 2\n  eff x\n", GOAP_DUPLICATE, 4, 3,
     "duplicate 'cost' in action 'a' (first at line 3)", 0},
    {"var x: bool\ngoal g\n  priority 1\n  want x\n  priority 2\n", GOAP_DUPLICATE, 5, 3,
     "duplicate 'priority' in goal 'g' (first at line 3)", 0},
    {"var x: bool\ngoal g\n  want x\nscenario s\n  pursue g\n  pursue g\n", GOAP_DUPLICATE, 6, 3,
     "duplicate 'pursue' in scenario 's' (first at line 5)", 0},
    {"var x: bool\nscenario s\n  want x\n  expect cost 1\n  expect cost 2\n", GOAP_DUPLICATE, 5,
     10, "duplicate 'expect cost' in scenario 's' (first at line 4)", 0},
    /* numbers */
    {"var x: bool\naction a\n  cost -1\n", GOAP_OUT_OF_RANGE, 3, 8,
     "cost must not be negative, found '-1'", 0},
    {"var x: bool\naction a\n  cost nan\n", GOAP_PARSE_ERROR, 3, 8,
     "expected a number after 'cost', found 'nan'", 0},
    {"var x: bool\naction a\n  cost inf\n", GOAP_PARSE_ERROR, 3, 8,
     "expected a number after 'cost', found 'inf'", 0},
    {"var x: bool\naction a\n  cost 1e3\n", GOAP_PARSE_ERROR, 3, 8, "invalid number '1e3'", 0},
    {"var x: bool\naction a\n  cost .5\n", GOAP_PARSE_ERROR, 3, 8, "unexpected character '.'", 0},
    {"var x: bool\naction a\n  cost 1 2\n", GOAP_PARSE_ERROR, 3, 10,
     "expected end of line after the number, found '2'", 0},
    {"var x: bool\naction a\n  cost 1"
     "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
     "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
     "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
     "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000\n",
     GOAP_OUT_OF_RANGE, 3, 8, "number '1000000000000000000000000000000000000000...' is too large",
     0},
    {"var x: bool\nscenario s\n  want x\n  expect cost -0.5\n", GOAP_OUT_OF_RANGE, 4, 15,
     "expect cost must not be negative, found '-0.5'", 0},
    /* list syntax */
    {"var x: bool\naction a\n  pre x = true\n", GOAP_PARSE_ERROR, 3, 9,
     "'=' assigns; use '==' to compare in a condition", 0},
    {"var x: bool\naction a\n  eff x == true\n", GOAP_PARSE_ERROR, 3, 9,
     "'==' compares; use '=' to assign in an effect", 0},
    {"var x: bool\naction a\n  pre x,\n", GOAP_PARSE_ERROR, 3, 9,
     "expected a condition after ',', found end of line", 0},
    {"var x: bool\nvar y: bool\naction a\n  pre x y\n", GOAP_PARSE_ERROR, 4, 9,
     "expected ',', a comparison operator or end of line, found 'y'", 0},
    {"var x: bool\naction a\n  eff\n", GOAP_PARSE_ERROR, 3, 6,
     "expected an effect after 'eff', found end of line", 0},
    {"var x: bool\naction a\n  pre , x\n", GOAP_PARSE_ERROR, 3, 7,
     "expected a condition, found ','", 0},
    {"var x: bool\naction a\n  pre !\n", GOAP_PARSE_ERROR, 3, 8,
     "expected a variable name after '!', found end of line", 0},
    {V_AMMO "action a\n  pre ammo >=\n", GOAP_PARSE_ERROR, 3, 14,
     "expected a value after '>=', found end of line", 0},
    {V_AMMO "action a\n  eff ammo = - 1\n", GOAP_PARSE_ERROR, 3, 14, "unexpected character '-'", 0},
    /* scenarios */
    {"var x: bool\ngoal kill\n  want x\nscenario s\n  pursue kil\n", GOAP_NOT_FOUND, 5, 10,
     "unknown goal 'kil'; did you mean 'kill'?", 0},
    {"var x: bool\naction shoot\n  eff x\nscenario s\n  want x\n  expect plan shoot shot\n",
     GOAP_NOT_FOUND, 6, 21, "unknown action 'shot'; did you mean 'shoot'?", 0},
    {"var x: bool\naction a\n  eff x\nscenario s\n  want x\n  expect plan a, a\n",
     GOAP_PARSE_ERROR, 6, 16, "expected an action name or end of line, found ','", 0},
    {V_AMMO "scenario s\n  want ammo > 1\n  given ammo += 1\n", GOAP_PARSE_ERROR, 4, 14,
     "'+=' is not allowed here: assignments only (x, !x, x = v)", 0},
    {"var x: bool\nscenario s\n  want x\n  given x, !x\n", GOAP_CONFLICT, 4, 12,
     "conflicting assignments to 'x' (first at column 9)", 0},
    {"var x: bool\nscenario s\n  want x\n  given x\n  given x = false\n", GOAP_CONFLICT, 5, 9,
     "conflicting assignments to 'x' (first at line 4)", 0},
    {"var x: bool\nscenario s\n  want x\n  expect cost 1\n  expect no plan\n", GOAP_CONFLICT, 5, 10,
     "'expect no plan' contradicts 'expect cost' (line 4)", 0},
    {"var x: bool\nscenario s\n  want x\n  expect no plan\n  expect plan\n", GOAP_CONFLICT, 5, 10,
     "'expect plan' contradicts 'expect no plan' (line 4)", 0},
    {"var x: bool\nscenario s\n  want x\n  expect costs 3\n", GOAP_PARSE_ERROR, 4, 10,
     "expected 'cost', 'plan' or 'no plan' after 'expect', found 'costs'", 0},
    {"var x: bool\nscenario s\n  want x\n  expect no\n", GOAP_PARSE_ERROR, 4, 12,
     "expected 'plan' after 'expect no', found end of line", 0},
    /* characters */
    {"var x: bool @\n", GOAP_PARSE_ERROR, 1, 13, "unexpected character '@'", 0},
    {"$x\n", GOAP_PARSE_ERROR, 1, 1, "unexpected character '$'", 0},
    {"var x: bool\naction a\n  eff x\n  cost 3x\n", GOAP_PARSE_ERROR, 4, 8, "invalid number '3x'",
     0},
    {"var x:\x01 bool\n", GOAP_PARSE_ERROR, 1, 7, "control character 0x01 in input", 0},
    {"var x: bool\rvar y: bool\n", GOAP_PARSE_ERROR, 1, 12, "control character 0x0d in input", 0},
    {"var caf\xC3\xA9: bool\n", GOAP_PARSE_ERROR, 1, 8,
     "non-ASCII character in a name; names must match [A-Za-z_][A-Za-z0-9_]*", 0},
    {"var x: bool = \xC3\xA9\n", GOAP_PARSE_ERROR, 1, 15,
     "non-ASCII character outside a comment; names must match [A-Za-z_][A-Za-z0-9_]*", 0},
    {"var caf\xE9: bool\n", GOAP_PARSE_ERROR, 1, 8, "invalid UTF-8 byte 0xe9", 0},
    {"var x: bool # \xFF\n", GOAP_PARSE_ERROR, 1, 15, "invalid UTF-8 byte 0xff", 0},
    {"var x: bool # \xED\xA0\x80 surrogate\n", GOAP_PARSE_ERROR, 1, 15,
     "invalid UTF-8 byte 0xed", 0},
    {"var x: bool # \xC0\xAF overlong\n", GOAP_PARSE_ERROR, 1, 15, "invalid UTF-8 byte 0xc0", 0},
    /* runtime attributes and simulations */
    {"var x: bool\nworld w: bool\naction a\n  pre w\n  eff x\n", GOAP_INVALID_OPERATION, 4, 7,
     "'w' is a world variable: agents do not know it, so it cannot appear in 'pre' "
     "(simulations copy it into memory with 'sense')", 0},
    {"var x: bool\nworld w: bool\ngoal g\n  want x\n  valid x, !w\n", GOAP_INVALID_OPERATION, 5,
     12, NULL, "'w' is a world variable"},
    {"var x: bool\naction a\n  eff x\n  timeout 1\n  timeout 2\n", GOAP_DUPLICATE, 5, 3,
     "duplicate 'timeout' in action 'a' (first at line 4)", 0},
    {"var x: bool\naction a\n  eff x\n  timeout -1\n", GOAP_OUT_OF_RANGE, 4, 11,
     "timeout must not be negative, found '-1'", 0},
    {"var x: bool\naction a\n  eff x\n  watch x, y\n", GOAP_NOT_FOUND, 4, 12,
     "unknown variable 'y'", 0},
    {"var x: bool\naction a\n  eff x\n  watch\n", GOAP_PARSE_ERROR, 4, 8,
     "expected a variable name after 'watch', found end of line", 0},
    {"var x: bool\naction a\n  eff x\n  on_fail x += 1\n", GOAP_TYPE_MISMATCH, 4, 13, NULL,
     "bool"},
    {"var x: bool\naction a\n  eff x\n  sense x\n", GOAP_PARSE_ERROR, 4, 3,
     "'sense' is not allowed in an action block (allowed: cost, pre, eff, on_fail, timeout, "
     "watch, duration, reserve, on_start, on_end)", 0},
    {"var x: bool\naction open\n  eff x\nsimulation s\n  fail opn when x\n", GOAP_NOT_FOUND, 5,
     8, "unknown action 'opn'; did you mean 'open'?", 0},
    {"var x: bool\nsimulation s\n  at soon x\n", GOAP_PARSE_ERROR, 3, 6,
     "expected a time in seconds after 'at', found 'soon'", 0},
    {"var x: bool\nsimulation s\n  at 1 y\n", GOAP_NOT_FOUND, 3, 8, "unknown variable 'y'", 0},
    {"var x: bool\nsimulation s\n  fail\n", GOAP_PARSE_ERROR, 3, 7,
     "expected an action name after 'fail', found end of line", 0},
    {"var x: bool\naction a\n  eff x\nsimulation s\n  fail a unless x\n", GOAP_PARSE_ERROR, 5,
     10, "expected 'when' or end of line, found 'unless'", 0},
    {"var x: bool\nsimulation s\n  expect replans -1\n", GOAP_OUT_OF_RANGE, 3, 18,
     "replans cannot be negative", 0},
    {"var x: bool\nsimulation s\n  expect nothing\n", GOAP_PARSE_ERROR, 3, 10,
     "expected 'replans' or 'final' after 'expect', found 'nothing'", 0},
    {"var x: bool\nsimulation s\n  step 0\n", GOAP_OUT_OF_RANGE, 3, 8,
     "'step' must be at least 0.001 s", 0},
    {"var x: bool\nsimulation s\nsimulation s\n", GOAP_DUPLICATE, 3, 12,
     "duplicate simulation 's' (first defined at line 2)", 0},
    {"var x: bool\nsimulation s\n  pursue g\n", GOAP_PARSE_ERROR, 3, 3,
     "'pursue' is not allowed in a simulation block (allowed: given, at, fail, sense, until, "
     "step, expect, member, switch_margin)", 0},
    {"sense x\n", GOAP_PARSE_ERROR, 1, 1, "'sense' must be inside a simulation block", 0},
};

TEST(bad_inputs) {
  size_t i;
  for (i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; ++i) check_bad(test_failures_, &bad_cases[i], 0);
}

TEST(nul_byte) {
  static const char text[] = "var x: bool\nvar y: bo\0ol\n";
  bad_case c = {text, GOAP_PARSE_ERROR, 2, 10, "NUL byte in input", 0};
  goap_error d;
  goap_file *f = NULL;
  check_bad(test_failures_, &c, sizeof text - 1);
  /* the source line shows the NUL as '?' so it stays one line of text */
  CHECK_EQ_INT(goap_file_parse("t.goap", text, sizeof text - 1, NULL, &f, &d), GOAP_PARSE_ERROR);
  CHECK_STR(d.source, "var y: bo?ol");
}

TEST(long_line) {
  size_t n = GOAP_FILE_MAX_LINE + 100, i;
  char *text = (char *)malloc(n + 32);
  goap_error d;
  goap_file *f = NULL;
  char out[1024];
  REQUIRE(text != NULL);
  strcpy(text, "var x: bool\nvar y: bool # ");
  for (i = strlen(text); i < n; ++i) text[i] = 'a';
  text[n] = '\n';
  CHECK_EQ_INT(goap_file_parse("t.goap", text, n + 1, NULL, &f, &d), GOAP_TOO_LARGE);
  CHECK(f == NULL);
  CHECK_EQ_INT(d.line, 2);
  CHECK_EQ_INT(d.col, GOAP_FILE_MAX_LINE + 1);
  CHECK_STR(d.message, "line is longer than 4096 bytes");
  CHECK_EQ_INT(strlen(d.source), sizeof d.source - 1); /* truncated */
  /* the caret would lie beyond the truncated source: only two lines are printed */
  goap_error_format(&d, out, sizeof out);
  {
    static const char head[] =
        "t.goap:2:4097: error: line is longer than 4096 bytes\nvar y: bool # aaa";
    CHECK(strncmp(out, head, sizeof head - 1) == 0);
  }
  CHECK(strchr(out, '^') == NULL);
  /* exactly the limit is fine */
  text[GOAP_FILE_MAX_LINE + 12] = '\n';
  CHECK_EQ_INT(goap_file_parse("t.goap", text, GOAP_FILE_MAX_LINE + 13, NULL, &f, &d), GOAP_OK);
  goap_file_destroy(f);
  free(text);
}

TEST(too_large_input) {
  /* the size is checked before any byte is read */
  size_t n = (size_t)GOAP_FILE_MAX_BYTES + 1;
  char *text = (char *)calloc(n, 1);
  goap_error d;
  goap_file *f = NULL;
  REQUIRE(text != NULL);
  CHECK_EQ_INT(goap_file_parse("big", text, n, NULL, &f, &d), GOAP_TOO_LARGE);
  CHECK(f == NULL);
  CHECK_EQ_INT(d.line, 0);
  CHECK_STR(d.message, "input is larger than 67108864 bytes");
  free(text);
}

TEST(too_many_vars) {
  size_t cap = 20u * 70000u, n = 0;
  char *text = (char *)malloc(cap);
  goap_error d;
  goap_file *f = NULL;
  int i;
  REQUIRE(text != NULL);
  for (i = 0; i <= 65536; ++i) n += (size_t)snprintf(text + n, cap - n, "var v%d: bool\n", i);
  CHECK_EQ_INT(goap_file_parse("t.goap", text, n, NULL, &f, &d), GOAP_TOO_LARGE);
  CHECK(f == NULL);
  CHECK_EQ_INT(d.line, 65537);
  CHECK_EQ_INT(d.col, 5);
  CHECK_STR(d.message, "too many variables (limit 65536)");
  free(text);
}

TEST(name_in_diag_is_truncated) {
  char name[400];
  goap_error d;
  goap_file *f = NULL;
  memset(name, 'n', sizeof name - 1);
  name[sizeof name - 1] = '\0';
  CHECK_EQ_INT(goap_file_parse(name, "bogus\n", 6, NULL, &f, &d), GOAP_PARSE_ERROR);
  CHECK_EQ_INT(strlen(d.file), sizeof d.file - 1);
  CHECK_EQ_INT(goap_file_parse(NULL, "bogus\n", 6, NULL, &f, &d), GOAP_PARSE_ERROR);
  CHECK_STR(d.file, "<input>");
}

/* ------------------------------------------------------------------------------------------
 * goap_error_format
 * ---------------------------------------------------------------------------------------- */
TEST(diag_format) {
  goap_error d;
  char buf[256];
  size_t n;
  memset(&d, 0, sizeof d);
  d.severity = GOAP_SEVERITY_ERROR;
  strcpy(d.file, "f.goap");
  d.line = 3;
  d.col = 7;
  strcpy(d.message, "unknown variable 'amo'; did you mean 'ammo'?");
  strcpy(d.source, "\tpre amo >= 1");
  n = goap_error_format(&d, buf, sizeof buf);
  CHECK_STR(buf,
            "f.goap:3:7: error: unknown variable 'amo'; did you mean 'ammo'?\n"
            "\tpre amo >= 1\n"
            "\t     ^\n");
  CHECK_EQ_INT(n, strlen(buf));
  /* truncation: snprintf semantics */
  {
    char small[10];
    size_t m = goap_error_format(&d, small, sizeof small);
    CHECK_EQ_INT(m, n);
    CHECK_STR(small, "f.goap:3:");
    CHECK_EQ_INT(goap_error_format(&d, NULL, 0), n);
  }
  /* a warning; multi-byte characters before the column take one caret column */
  d.severity = GOAP_SEVERITY_WARNING;
  strcpy(d.source, "var \xC3\xA9t\xC3\xA9 x");
  d.col = 11;
  strcpy(d.message, "m");
  goap_error_format(&d, buf, sizeof buf);
  CHECK_STR(buf, "f.goap:3:11: warning: m\nvar \xC3\xA9t\xC3\xA9 x\n        ^\n");
  /* no column: no caret; no line: no source */
  d.col = 0;
  goap_error_format(&d, buf, sizeof buf);
  CHECK_STR(buf, "f.goap:3: warning: m\nvar \xC3\xA9t\xC3\xA9 x\n");
  d.line = 0;
  goap_error_format(&d, buf, sizeof buf);
  CHECK_STR(buf, "f.goap: warning: m\n");
  d.file[0] = '\0';
  goap_error_format(&d, buf, sizeof buf);
  CHECK_STR(buf, "warning: m\n");
  CHECK_EQ_INT(goap_error_format(NULL, buf, sizeof buf), 0);
  CHECK_STR(buf, "");
}

/* ------------------------------------------------------------------------------------------
 * goap_parse_conds / goap_parse_assignments
 * ---------------------------------------------------------------------------------------- */
static goap_file *small_domain(void) {
  return parse("var a: bool\nvar b: bool\nvar ammo: int 0..30\n"
               "var stance: enum {standing, crouched, prone}\n",
               NULL);
}

TEST(parse_conds_ok) {
  goap_file *f = small_domain();
  const goap_domain *d;
  goap_cond c[8];
  goap_error err;
  int n = -1;
  REQUIRE(f != NULL);
  d = goap_file_domain(f);
  CHECK_EQ_INT(goap_parse_conds(d, "--want", "a, !b, ammo >= 2, stance == prone, b == false",
                                c, 8, &n, &err),
               GOAP_OK);
  REQUIRE(n == 5);
  check_cond(test_failures_, &c[0], 0, GOAP_EQ, 1);
  check_cond(test_failures_, &c[1], 1, GOAP_EQ, 0);
  check_cond(test_failures_, &c[2], 2, GOAP_GE, 2);
  check_cond(test_failures_, &c[3], 3, GOAP_EQ, 2);
  check_cond(test_failures_, &c[4], 1, GOAP_EQ, 0);
  CHECK_EQ_INT(goap_parse_conds(d, "w", "ammo<3,ammo!=0,stance!=standing", c, 8, &n, NULL),
               GOAP_OK);
  REQUIRE(n == 3);
  check_cond(test_failures_, &c[0], 2, GOAP_LT, 3);
  check_cond(test_failures_, &c[1], 2, GOAP_NE, 0);
  check_cond(test_failures_, &c[2], 3, GOAP_NE, 0);
  /* too small a buffer: the count needed, the first cap written */
  memset(c, 0, sizeof c);
  CHECK_EQ_INT(goap_parse_conds(d, "w", "a, b, ammo > 1", c, 2, &n, &err),
               GOAP_BUFFER_TOO_SMALL);
  CHECK_EQ_INT(n, 3);
  check_cond(test_failures_, &c[1], 1, GOAP_EQ, 1);
  CHECK_EQ_INT(c[2].var, 0);
  CHECK_EQ_INT(goap_parse_conds(d, "w", "a, b", NULL, 0, &n, &err), GOAP_BUFFER_TOO_SMALL);
  CHECK_EQ_INT(n, 2);
  /* invalid arguments */
  CHECK_EQ_INT(goap_parse_conds(NULL, "w", "a", c, 8, &n, &err), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_parse_conds(d, "w", NULL, c, 8, &n, &err), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_parse_conds(d, "w", "a", NULL, 8, &n, &err), GOAP_INVALID_ARGUMENT);
  goap_file_destroy(f);
}

typedef struct text_case {
  int assign; /* 0: conditions, 1: assignments */
  const char *text;
  goap_status status;
  int col;
  const char *message;
} text_case;

static const text_case text_cases[] = {
    {0, "", GOAP_PARSE_ERROR, 1, "expected a condition, found end of line"},
    {0, "a,", GOAP_PARSE_ERROR, 3, "expected a condition after ',', found end of line"},
    {0, "a, amo > 1", GOAP_NOT_FOUND, 4, "unknown variable 'amo'; did you mean 'ammo'?"},
    {0, "stance == pron", GOAP_NOT_FOUND, 11, "unknown value 'pron' for 'stance'; did you mean 'prone'?"},
    {0, "stance < prone", GOAP_TYPE_MISMATCH, 8, "operator '<' needs an int variable; 'stance' is an enum"},
    {0, "ammo", GOAP_TYPE_MISMATCH, 1, "'ammo' is an int, not a bool: the shorthand 'ammo' is only for bools"},
    {0, "ammo >= 31", GOAP_OUT_OF_RANGE, 9, "value 31 is outside the range 0..30 of 'ammo'"},
    {0, "a == 1", GOAP_TYPE_MISMATCH, 6, "'a' is a bool: expected true or false, found '1'"},
    {0, "a = true", GOAP_PARSE_ERROR, 3, "'=' assigns; use '==' to compare in a condition"},
    {0, "a b", GOAP_PARSE_ERROR, 3, "expected ',', a comparison operator or end of line, found 'b'"},
    {0, "a # comment", GOAP_PARSE_ERROR, 3, "unexpected character '#'"},
    {0, "a\nb", GOAP_PARSE_ERROR, 2, "control character 0x0a in input"},
    {1, "a, !b, ammo = 3, stance = crouched, ammo = 4", GOAP_CONFLICT, 37,
     "conflicting assignments to 'ammo' (first at column 8)"},
    {1, "ammo += 1", GOAP_PARSE_ERROR, 6, "'+=' is not allowed here: assignments only (x, !x, x = v)"},
    {1, "ammo -= 1", GOAP_PARSE_ERROR, 6, "'-=' is not allowed here: assignments only (x, !x, x = v)"},
    {1, "a == true", GOAP_PARSE_ERROR, 3, "'==' compares; use '=' to assign"},
    {1, "ammo = 99", GOAP_OUT_OF_RANGE, 8, "value 99 is outside the range 0..30 of 'ammo'"},
    {1, "a, ", GOAP_PARSE_ERROR, 4, "expected an assignment after ',', found end of line"},
    {1, "stance", GOAP_TYPE_MISMATCH, 1, "'stance' is an enum, not a bool: the shorthand 'stance' is only for bools"},
};

TEST(parse_text_errors) {
  goap_file *f = small_domain();
  const goap_domain *d;
  size_t i;
  REQUIRE(f != NULL);
  d = goap_file_domain(f);
  for (i = 0; i < sizeof text_cases / sizeof text_cases[0]; ++i) {
    const text_case *t = &text_cases[i];
    goap_cond c[8];
    goap_effect e[8];
    goap_error err;
    int n = 77;
    goap_status st = t->assign ? goap_parse_assignments(d, "--given", t->text, e, 8, &n, &err)
                               : goap_parse_conds(d, "--given", t->text, c, 8, &n, &err);
    if (st != t->status || err.col != t->col || strcmp(err.message, t->message) != 0)
      fprintf(stderr, "text case \"%s\": %s %d \"%s\"\n", t->text, goap_status_name(st), err.col,
              err.message);
    CHECK_EQ_INT(st, t->status);
    CHECK_EQ_INT(err.status, t->status);
    CHECK_STR(err.file, "--given");
    CHECK_EQ_INT(err.line, 1);
    CHECK_EQ_INT(err.col, t->col);
    CHECK_STR(err.message, t->message);
    CHECK_EQ_INT(n, 0);
  }
  {
    /* over-long text */
    char *big = (char *)malloc(GOAP_FILE_MAX_LINE + 10);
    goap_cond c[1];
    goap_error err;
    int n;
    REQUIRE(big != NULL);
    memset(big, 'a', GOAP_FILE_MAX_LINE + 9);
    big[GOAP_FILE_MAX_LINE + 9] = '\0';
    CHECK_EQ_INT(goap_parse_conds(d, "w", big, c, 1, &n, &err), GOAP_TOO_LARGE);
    CHECK_EQ_INT(err.col, GOAP_FILE_MAX_LINE + 1);
    free(big);
  }
  goap_file_destroy(f);
}

TEST(parse_assignments_ok) {
  goap_file *f = small_domain();
  const goap_domain *d;
  goap_effect e[8];
  goap_word st[4];
  goap_error err;
  int n = 0;
  REQUIRE(f != NULL);
  d = goap_file_domain(f);
  REQUIRE(goap_domain_state_words(d) <= 4);
  CHECK_EQ_INT(goap_parse_assignments(d, "g", "a, !b, ammo = 3, stance = prone, b = true"
                                      "", e, 8, &n, &err),
               GOAP_CONFLICT); /* b twice */
  CHECK_EQ_INT(goap_parse_assignments(d, "g", " a , !b,ammo = -0, stance = prone ", e, 8, &n,
                                      &err),
               GOAP_OK);
  REQUIRE(n == 4);
  check_eff(test_failures_, &e[0], 0, GOAP_SET, 1);
  check_eff(test_failures_, &e[1], 1, GOAP_SET, 0);
  check_eff(test_failures_, &e[2], 2, GOAP_SET, 0);
  check_eff(test_failures_, &e[3], 3, GOAP_SET, 2);
  goap_state_init(d, st);
  CHECK_EQ_INT(goap_state_assign(d, st, e, n), GOAP_OK);
  CHECK_EQ_INT(goap_state_get(d, st, 3), 2);
  CHECK_EQ_INT(goap_state_get(d, st, 0), 1);
  goap_file_destroy(f);
}

/* ------------------------------------------------------------------------------------------
 * Warnings
 * ---------------------------------------------------------------------------------------- */
static const char warn_text[] =
    "var key: bool\n"                              /* 1 */
    "var door_open: bool\n"                        /* 2 */
    "var unused: bool\n"                           /* 3: warning */
    "var treasure: bool\n"                         /* 4 */
    "var hp: int 0..10 = 5\n"                      /* 5 */
    "var mood: enum {calm, angry, furious}\n"      /* 6 */
    "var gold: int 0..100\n"                       /* 7 */
    "action open_door\n"                           /* 8: warning (key) */
    "  pre key\n"                                  /* 9 */
    "  eff door_open\n"                            /* 10 */
    "action take_treasure\n"                       /* 11: warning (door_open) */
    "  pre door_open\n"                            /* 12 */
    "  eff treasure\n"                             /* 13 */
    "action rest\n"                                /* 14: reachable: hp 5 < 10 */
    "  pre hp < 10, mood != furious\n"             /* 15 */
    "  eff hp += 1\n"                              /* 16 */
    "action rage\n"                                /* 17: reachable once hp reaches 10 */
    "  pre hp == 10\n"                             /* 18 */
    "  eff mood = angry\n"                         /* 19 */
    "action explode\n"                             /* 20: warning: nothing lowers hp */
    "  pre mood == angry, hp <= 2\n"               /* 21 */
    "  eff mood = furious\n"                       /* 22 */
    "action earn\n"                                /* 23 */
    "  pre mood == angry\n"                        /* 24 */
    "  eff gold = 50\n"                            /* 25 */
    "action spend\n"                               /* 26: gold in [0, 50]: > 40 reachable */
    "  pre gold > 40\n"                            /* 27 */
    "  eff gold -= 41\n"                           /* 28 */
    "action hoard\n"                               /* 29: warning: gold never above 50 */
    "  pre gold >= 51\n"                           /* 30 */
    "  eff key\n"                                  /* 31 */
    "goal rich\n"                                  /* 32: reachable */
    "  want gold == 50, mood == angry\n"           /* 33 */
    "goal rich_and_furious\n"                      /* 34: warning (furious) */
    "  want gold >= 0, mood == furious\n"          /* 35 */
    "goal get_treasure\n"                          /* 36: warning (treasure) */
    "  want treasure\n";                           /* 37 */

TEST(warnings) {
  goap_file *f = parse(warn_text, NULL);
  goap_error w[8];
  int n, i;
  static const int lines[] = {3, 8, 11, 20, 29, 34, 36};
  static const int cols[] = {5, 8, 8, 8, 8, 6, 6};
  static const char *const messages[] = {
      "variable 'unused' is never read or written",
      "action 'open_door' can never be applied: precondition 'key' is unreachable from the "
      "default state",
      "action 'take_treasure' can never be applied: precondition 'door_open' is unreachable "
      "from the default state",
      "action 'explode' can never be applied: precondition 'hp <= 2' is unreachable from the "
      "default state",
      "action 'hoard' can never be applied: precondition 'gold >= 51' is unreachable from the "
      "default state",
      "goal 'rich_and_furious' cannot be reached: condition 'mood == furious' is unreachable",
      "goal 'get_treasure' cannot be reached: condition 'treasure' is unreachable",
  };
  REQUIRE(f != NULL);
  memset(w, 0, sizeof w);
  n = goap_file_warnings(f, w, 8);
  CHECK_EQ_INT(n, 7);
  for (i = 0; i < n && i < 7; ++i) {
    char src[128];
    CHECK_EQ_INT(w[i].severity, GOAP_SEVERITY_WARNING);
    CHECK_STR(w[i].file, "t.goap");
    CHECK_EQ_INT(w[i].line, lines[i]);
    CHECK_EQ_INT(w[i].col, cols[i]);
    CHECK_STR(w[i].message, messages[i]);
    nth_line(warn_text, sizeof warn_text - 1, lines[i], src, sizeof src);
    CHECK_STR(w[i].source, src);
  }
  {
    char buf[512];
    goap_error_format(&w[0], buf, sizeof buf);
    CHECK_STR(buf,
              "t.goap:3:5: warning: variable 'unused' is never read or written\n"
              "var unused: bool\n"
              "    ^\n");
  }
  /* a small buffer: the total is still returned, only cap written */
  memset(w, 0, sizeof w);
  CHECK_EQ_INT(goap_file_warnings(f, w, 2), 7);
  CHECK_EQ_INT(w[1].line, 8);
  CHECK_EQ_INT(w[2].line, 0);
  CHECK_EQ_INT(goap_file_warnings(f, NULL, 5), 7);
  goap_file_destroy(f);
}

/* `eff x -= n clamp`: a saturating effect (GOAP_ADD_CLAMP) that is always applicable, while
 * the strict form is not applicable where it would leave the range. */
TEST(saturating_effects) {
  goap_file *f = parse("var hunger: int 0..10 = 3\n"
                       "action eat_big_meal\n  eff hunger -= 5 clamp\n"
                       "action snack\n  eff hunger -= 5\n"
                       "action feast\n  eff hunger -= 99 clamp\n",
                       NULL);
  REQUIRE(f != NULL);
  const goap_domain *d = goap_file_domain(f);
  int n = 0;
  const goap_effect *e = goap_domain_action_eff(d, 0, &n);
  REQUIRE(n == 1);
  CHECK_EQ_INT(e[0].op, GOAP_ADD_CLAMP);
  CHECK_EQ_INT(e[0].value, -5);
  char buf[64];
  goap_format_effect(d, &e[0], buf, sizeof buf);
  CHECK_STR(buf, "hunger -= 5 clamp");
  CHECK_EQ_INT(goap_domain_action_eff(d, 1, &n)[0].op, GOAP_ADD);
  goap_word s[1];
  goap_state_init(d, s);
  CHECK(goap_action_applicable(d, s, 0));
  CHECK(!goap_action_applicable(d, s, 1)); /* 3 - 5 leaves 0..10 */
  CHECK_EQ_INT(goap_action_apply(d, s, 0), GOAP_OK);
  CHECK_EQ_INT(goap_state_get(d, s, 0), 0);
  goap_effect up = {0, GOAP_ADD_CLAMP, 25};
  CHECK_EQ_INT(goap_state_assign(d, s, &up, 1), GOAP_OK);
  CHECK_EQ_INT(goap_state_get(d, s, 0), 10);
  CHECK_EQ_INT(goap_action_apply(d, s, 2), GOAP_OK); /* larger than the range: still fine */
  CHECK_EQ_INT(goap_state_get(d, s, 0), 0);
  /* plans: want hunger <= 2 from 3 uses the saturating action */
  goap_cond want = {0, GOAP_LE, 2};
  goap_planner *p = NULL;
  REQUIRE(goap_planner_create(d, NULL, &p) == GOAP_OK);
  int32_t plan[8];
  goap_request rq;
  goap_result r;
  memset(&rq, 0, sizeof rq);
  goap_state_init(d, s);
  rq.start = s;
  rq.want = &want;
  rq.want_count = 1;
  memset(&r, 0, sizeof r);
  r.plan = plan;
  r.plan_capacity = 8;
  CHECK_EQ_INT(goap_plan(p, &rq, &r), GOAP_OK);
  CHECK_EQ_INT(r.plan_length, 1);
  CHECK(r.plan[0] == 0 || r.plan[0] == 2);
  goap_planner_destroy(p);
  goap_file_destroy(f);
}

/* `goap check` names a strict effect that no reachable value keeps in range. */
TEST(warnings_strict_effect_out_of_range) {
  goap_file *f = parse("var hunger: int 0..10 = 3\n"
                       "action eat_big_meal\n  eff hunger -= 5\n"
                       "action eat_clamped\n  eff hunger -= 5 clamp\n"
                       "goal fed\n  want hunger <= 2\n",
                       NULL);
  goap_error w[4];
  REQUIRE(f != NULL);
  /* eat_clamped reaches 0, so the goal is fine; the strict meal never fits in 0..3 */
  REQUIRE(goap_file_warnings(f, w, 4) == 1);
  CHECK_STR(w[0].message, "action 'eat_big_meal' can never be applied: 'hunger -= 5' leaves "
                          "0..10 from hunger in 0..3 (write 'hunger -= 5 clamp' to stop at the "
                          "bound)");
  goap_file_destroy(f);
  f = parse("var hunger: int 0..10 = 3\n"
            "action eat_big_meal\n  eff hunger -= 5\n"
            "goal fed\n  want hunger <= 2\n",
            NULL);
  REQUIRE(f != NULL);
  REQUIRE(goap_file_warnings(f, w, 4) == 2);
  CHECK_EQ_INT(w[0].line, 2);
  CHECK_EQ_INT(w[0].col, 8);
  CHECK_STR(w[0].message, "action 'eat_big_meal' can never be applied: 'hunger -= 5' leaves "
                          "0..10 from hunger = 3 (write 'hunger -= 5 clamp' to stop at the "
                          "bound)");
  CHECK_STR(w[1].message, "goal 'fed' cannot be reached: condition 'hunger <= 2' is unreachable");
  goap_file_destroy(f);
  /* a reachable value that fits: no warning (hunger can rise to 10 first) */
  f = parse("var hunger: int 0..10 = 3\n"
            "action eat_big_meal\n  eff hunger -= 5\n"
            "action wait\n  eff hunger += 1\n",
            NULL);
  REQUIRE(f != NULL);
  CHECK_EQ_INT(goap_file_warnings(f, w, 4), 0);
  goap_file_destroy(f);
}

/* `sensed` variables: the flag reaches the domain, and `goap check` treats them as able to
 * take any value (no false warnings), while an action that is truly unreachable is still
 * reported. */
TEST(sensed_variables) {
  goap_file *f = parse("var heard_noise: bool sensed\n"
                       "var alert: enum {calm, wary, hunting} = calm shared sensed\n"
                       "var armed: bool = false sensed shared\n"
                       "var key: bool\n"
                       "var searching: bool\n"
                       "var door_open: bool\n"
                       "action investigate\n  pre heard_noise, alert == hunting, armed\n"
                       "  eff searching\n"
                       "action open_door\n  pre key\n  eff door_open\n"
                       "goal search\n  want searching\n"
                       "goal open\n  want door_open\n",
                       NULL);
  goap_error w[8];
  goap_var_info vi;
  REQUIRE(f != NULL);
  const goap_domain *d = goap_file_domain(f);
  REQUIRE(goap_domain_var_info(d, 0, &vi) == GOAP_OK);
  CHECK_EQ_INT((int)vi.flags, (int)GOAP_VAR_SENSED);
  REQUIRE(goap_domain_var_info(d, 1, &vi) == GOAP_OK);
  CHECK_EQ_INT((int)vi.flags, (int)(GOAP_VAR_SENSED | GOAP_VAR_SHARED));
  CHECK_EQ_INT(vi.default_value, 0);
  REQUIRE(goap_domain_var_info(d, 2, &vi) == GOAP_OK);
  CHECK_EQ_INT((int)vi.flags, (int)(GOAP_VAR_SENSED | GOAP_VAR_SHARED));
  CHECK_EQ_INT(goap_file_is_sensed_var(f, 0), 1);
  CHECK_EQ_INT(goap_file_is_sensed_var(f, 3), 0);
  CHECK_EQ_INT(goap_file_is_sensed_var(f, 99), 0);
  CHECK_EQ_INT(goap_file_is_sensed_var(NULL, 0), 0);
  /* only the truly unreachable open_door and its goal */
  REQUIRE(goap_file_warnings(f, w, 8) == 2);
  CHECK_STR(w[0].message, "action 'open_door' can never be applied: precondition 'key' is "
                          "unreachable from the default state");
  CHECK_STR(w[1].message, "goal 'open' cannot be reached: condition 'door_open' is unreachable");
  goap_file_destroy(f);
  /* without `sensed` the percepts are reported */
  f = parse("var heard_noise: bool\nvar searching: bool\n"
            "action investigate\n  pre heard_noise\n  eff searching\n",
            NULL);
  REQUIRE(f != NULL);
  REQUIRE(goap_file_warnings(f, w, 8) == 1);
  CHECK_STR(w[0].message, "action 'investigate' can never be applied: precondition "
                          "'heard_noise' is unreachable from the default state");
  goap_file_destroy(f);
}

TEST(warnings_scenarios_count_as_use) {
  goap_file *f = parse("var a: bool\nvar b: bool\nvar c: bool\n"
                       "action x\n  eff a\n"
                       "scenario s\n  want a\n  given b\n",
                       NULL);
  goap_error w[4];
  REQUIRE(f != NULL);
  CHECK_EQ_INT(goap_file_warnings(f, w, 4), 1);
  CHECK_STR(w[0].message, "variable 'c' is never read or written");
  CHECK_EQ_INT(w[0].line, 3);
  goap_file_destroy(f);
}

TEST_MAIN(TEST_ENTRY(soldier_vars), TEST_ENTRY(saturating_effects),
          TEST_ENTRY(warnings_strict_effect_out_of_range), TEST_ENTRY(sensed_variables),
          TEST_ENTRY(soldier_actions_goals),
          TEST_ENTRY(soldier_scenarios), TEST_ENTRY(soldier_plans_match_expectations),
          TEST_ENTRY(load_examples), TEST_ENTRY(load_errors), TEST_ENTRY(null_accessors),
          TEST_ENTRY(line_endings_tabs_comments), TEST_ENTRY(empty_and_comment_only),
          TEST_ENTRY(int32_limits_and_forward_references), TEST_ENTRY(expect_empty_plan),
          TEST_ENTRY(bad_inputs), TEST_ENTRY(nul_byte), TEST_ENTRY(long_line),
          TEST_ENTRY(too_large_input), TEST_ENTRY(too_many_vars),
          TEST_ENTRY(name_in_diag_is_truncated), TEST_ENTRY(diag_format),
          TEST_ENTRY(parse_conds_ok), TEST_ENTRY(parse_text_errors),
          TEST_ENTRY(parse_assignments_ok), TEST_ENTRY(warnings),
          TEST_ENTRY(warnings_scenarios_count_as_use))
