/*
 * test_builder.c -- the builder's validation through the C API: for every kind of bad
 * description, the exact status, the faulty item and index, the message, and that nothing was
 * added (the next id is unchanged).
 *
 * It includes no public header but <goap/goap.h>: the builder's goap_error (returned by a
 * function of goap.h) must be a complete type there (test goap_h_alone).
 */
#include <goap/goap.h>

#include "test.h"

typedef struct expect {
  goap_status status;
  goap_item_kind item;
  int index;
  const char *message;
} expect;

static int check_error(goap_builder *b, goap_status got, expect e, int line) {
  int index = -2, bad = 0;
  goap_item_kind item = goap_builder_error_item(b, &index);
  /* the builder's goap_error carries the status the call returned (GOAP_OK: message "") */
  if (got != e.status || item != e.item || index != e.index ||
      goap_builder_error(b)->status != got ||
      strcmp(goap_builder_error(b)->message, e.message) != 0) {
    fprintf(stderr,
            "line %d: got status %s item %d index %d message \"%s\"\n"
            "     expected status %s item %d index %d message \"%s\"\n",
            line, goap_status_name(got), (int)item, index, goap_builder_error(b)->message,
            goap_status_name(e.status), (int)e.item, e.index, e.message);
    bad = 1;
  }
  return bad;
}

#define EXPECT_ERR(call, st, it, idx, msg)                                                  \
  do {                                                                                      \
    expect e_ = {st, it, idx, msg};                                                         \
    if (check_error(b, (call), e_, __LINE__)) ++*test_failures_;                            \
  } while (0)

static goap_builder *base(void) {
  goap_builder *b = NULL;
  if (goap_builder_create(NULL, &b) != GOAP_OK) return NULL;
  const char *stances[] = {"standing", "crouched"};
  goap_var_desc v[3];
  memset(v, 0, sizeof v);
  v[0].name = "flag";
  v[0].type = GOAP_BOOL;
  v[1].name = "stance";
  v[1].type = GOAP_ENUM;
  v[1].values = stances;
  v[1].value_count = 2;
  v[2].name = "ammo";
  v[2].type = GOAP_INT;
  v[2].lo = 0;
  v[2].hi = 30;
  for (int i = 0; i < 3; ++i)
    if (goap_builder_add_var(b, &v[i], NULL) != GOAP_OK) return NULL;
  return b;
}

TEST(variables) {
  goap_builder *b = base();
  REQUIRE(b);
  goap_var_desc v = {0};
  v.type = GOAP_BOOL;
  EXPECT_ERR(goap_builder_add_var(b, &v, NULL), GOAP_INVALID_ARGUMENT, GOAP_ITEM_NAME, -1,
             "invalid variable name");
  v.name = "bad\nname";
  EXPECT_ERR(goap_builder_add_var(b, &v, NULL), GOAP_INVALID_ARGUMENT, GOAP_ITEM_NAME, -1,
             "invalid variable name");
  v.name = "flag";
  EXPECT_ERR(goap_builder_add_var(b, &v, NULL), GOAP_DUPLICATE, GOAP_ITEM_NAME, -1,
             "variable 'flag' is already defined");
  v.name = "e";
  v.type = GOAP_ENUM;
  EXPECT_ERR(goap_builder_add_var(b, &v, NULL), GOAP_INVALID_ARGUMENT, GOAP_ITEM_VALUE, -1,
             "variable 'e': an enum needs 1 to 65536 values");
  const char *twice[] = {"a", "b", "a"};
  v.values = twice;
  v.value_count = 3;
  EXPECT_ERR(goap_builder_add_var(b, &v, NULL), GOAP_DUPLICATE, GOAP_ITEM_VALUE, 2,
             "variable 'e': enum value 'a' is listed twice");
  const char *empty[] = {"a", ""};
  v.values = empty;
  v.value_count = 2;
  EXPECT_ERR(goap_builder_add_var(b, &v, NULL), GOAP_INVALID_ARGUMENT, GOAP_ITEM_VALUE, 1,
             "variable 'e': invalid enum value name");
  v.values = twice;
  v.value_count = 2;
  v.has_default = 1;
  v.default_value = 2;
  EXPECT_ERR(goap_builder_add_var(b, &v, NULL), GOAP_OUT_OF_RANGE, GOAP_ITEM_DEFAULT, -1,
             "variable 'e': default 2 is outside 0..1");
  goap_var_desc n = {0};
  n.name = "n";
  n.type = GOAP_INT;
  n.lo = 5;
  n.hi = 4;
  EXPECT_ERR(goap_builder_add_var(b, &n, NULL), GOAP_INVALID_ARGUMENT, GOAP_ITEM_RANGE, -1,
             "variable 'n': empty range 5..4");
  n.type = (goap_var_type)7;
  EXPECT_ERR(goap_builder_add_var(b, &n, NULL), GOAP_INVALID_ARGUMENT, GOAP_ITEM_NONE, -1,
             "variable 'n': unknown type");
  EXPECT_ERR(goap_builder_add_var(b, NULL, NULL), GOAP_INVALID_ARGUMENT, GOAP_ITEM_NONE, -1,
             "NULL variable description");
  /* nothing was added: the next id is 3, and lookups see only the good ones */
  goap_var_desc ok = {0};
  ok.name = "fine";
  ok.type = GOAP_BOOL;
  int id = -1;
  CHECK_EQ_INT(goap_builder_add_var(b, &ok, &id), GOAP_OK);
  CHECK_EQ_INT(id, 3);
  CHECK_STR(goap_builder_error(b)->message, "");
  CHECK_EQ_INT(goap_builder_find_var(b, "fine"), 3);
  CHECK_EQ_INT(goap_builder_find_var(b, "e"), -1);
  CHECK_EQ_INT(goap_builder_find_var(b, "n"), -1);
  goap_builder_destroy(b);
}

TEST(actions) {
  goap_builder *b = base();
  REQUIRE(b);
  goap_effect e_ok = {0, GOAP_SET, 1};
  goap_action_desc a = {"act", 1, NULL, 0, &e_ok, 1, NULL, NULL, NULL};
  REQUIRE(goap_builder_add_action(b, &a, NULL) == GOAP_OK);
  EXPECT_ERR(goap_builder_add_action(b, &a, NULL), GOAP_DUPLICATE, GOAP_ITEM_NAME, -1,
             "action 'act' is already defined");
  a.name = "";
  EXPECT_ERR(goap_builder_add_action(b, &a, NULL), GOAP_INVALID_ARGUMENT, GOAP_ITEM_NAME, -1,
             "invalid action name");
  a.name = "x";
  a.cost = -1;
  EXPECT_ERR(goap_builder_add_action(b, &a, NULL), GOAP_OUT_OF_RANGE, GOAP_ITEM_COST, -1,
             "action 'x': cost must be a finite number >= 0");
  a.cost = INFINITY;
  EXPECT_ERR(goap_builder_add_action(b, &a, NULL), GOAP_OUT_OF_RANGE, GOAP_ITEM_COST, -1,
             "action 'x': cost must be a finite number >= 0");
  a.cost = 1;
  goap_cond pre[] = {{0, GOAP_EQ, 1}, {1, GOAP_LT, 1}};
  a.pre = pre;
  a.pre_count = 2;
  EXPECT_ERR(goap_builder_add_action(b, &a, NULL), GOAP_TYPE_MISMATCH, GOAP_ITEM_PRE, 1,
             "action 'x': 'stance' is an enum: only == and != apply");
  pre[1] = (goap_cond){2, GOAP_EQ, 31};
  EXPECT_ERR(goap_builder_add_action(b, &a, NULL), GOAP_OUT_OF_RANGE, GOAP_ITEM_PRE, 1,
             "action 'x': value 31 is outside the range of 'ammo' (0..30)");
  pre[1] = (goap_cond){9, GOAP_EQ, 0};
  EXPECT_ERR(goap_builder_add_action(b, &a, NULL), GOAP_NOT_FOUND, GOAP_ITEM_PRE, 1,
             "action 'x': unknown variable id 9");
  pre[1] = (goap_cond){2, (goap_op)42, 0};
  EXPECT_ERR(goap_builder_add_action(b, &a, NULL), GOAP_INVALID_ARGUMENT, GOAP_ITEM_PRE, 1,
             "action 'x': invalid operator on 'ammo'");
  pre[1] = (goap_cond){2, GOAP_GE, 40}; /* comparisons may reach past the range: never true */
  a.pre_count = 1;
  a.pre = NULL;
  EXPECT_ERR(goap_builder_add_action(b, &a, NULL), GOAP_INVALID_ARGUMENT, GOAP_ITEM_PRE, -1,
             "action 'x': bad condition array");
  a.pre = pre;
  a.pre_count = 2;
  goap_effect eff[] = {{0, GOAP_SET, 1}, {1, GOAP_ADD, 1}};
  a.eff = eff;
  a.eff_count = 2;
  EXPECT_ERR(goap_builder_add_action(b, &a, NULL), GOAP_TYPE_MISMATCH, GOAP_ITEM_EFF, 1,
             "action 'x': 'stance' is an enum: += and -= apply to ints only");
  eff[1] = (goap_effect){1, GOAP_SET, 2};
  EXPECT_ERR(goap_builder_add_action(b, &a, NULL), GOAP_OUT_OF_RANGE, GOAP_ITEM_EFF, 1,
             "action 'x': value 2 is outside the range of 'stance' (0..1)");
  eff[1] = (goap_effect){7, GOAP_SET, 0};
  EXPECT_ERR(goap_builder_add_action(b, &a, NULL), GOAP_NOT_FOUND, GOAP_ITEM_EFF, 1,
             "action 'x': unknown variable id 7");
  eff[1] = (goap_effect){2, (goap_effect_op)5, 0};
  EXPECT_ERR(goap_builder_add_action(b, &a, NULL), GOAP_INVALID_ARGUMENT, GOAP_ITEM_EFF, 1,
             "action 'x': invalid effect operator on 'ammo'");
  eff[1] = (goap_effect){0, GOAP_SET, 0};
  EXPECT_ERR(goap_builder_add_action(b, &a, NULL), GOAP_CONFLICT, GOAP_ITEM_EFF, 1,
             "action 'x': two effects on variable 'flag'");
  a.eff = NULL;
  EXPECT_ERR(goap_builder_add_action(b, &a, NULL), GOAP_INVALID_ARGUMENT, GOAP_ITEM_EFF, -1,
             "action 'x': bad effect array");
  /* a failed action leaves no trace; a later good one gets the next id */
  eff[1] = (goap_effect){2, GOAP_ADD, -3};
  a.eff = eff;
  int id = -1;
  CHECK_EQ_INT(goap_builder_add_action(b, &a, &id), GOAP_OK);
  CHECK_EQ_INT(id, 1);
  CHECK_EQ_INT(goap_builder_find_action(b, "x"), 1);
  goap_domain *d = NULL;
  REQUIRE(goap_builder_build(b, &d) == GOAP_OK);
  /* x needs ammo >= 40, which never holds: it is never applicable */
  goap_word s[1];
  goap_state_init(d, s);
  goap_state_set(d, s, 0, 1);
  goap_state_set(d, s, 2, 30);
  CHECK(!goap_action_applicable(d, s, 1));
  CHECK(goap_action_applicable(d, s, 0));
  goap_domain_destroy(d);
  goap_builder_destroy(b);
}

TEST(goals_and_misc) {
  goap_builder *b = base();
  REQUIRE(b);
  goap_cond want = {0, GOAP_EQ, 1};
  goap_goal_desc g = {"g", 1, &want, 1};
  REQUIRE(goap_builder_add_goal(b, &g, NULL) == GOAP_OK);
  EXPECT_ERR(goap_builder_add_goal(b, &g, NULL), GOAP_DUPLICATE, GOAP_ITEM_NAME, -1,
             "goal 'g' is already defined");
  g.name = NULL;
  EXPECT_ERR(goap_builder_add_goal(b, &g, NULL), GOAP_INVALID_ARGUMENT, GOAP_ITEM_NAME, -1,
             "invalid goal name");
  g.name = "h";
  g.priority = NAN;
  EXPECT_ERR(goap_builder_add_goal(b, &g, NULL), GOAP_OUT_OF_RANGE, GOAP_ITEM_NONE, -1,
             "goal 'h': priority must be finite");
  g.priority = 2;
  goap_cond bad = {1, GOAP_GT, 0};
  g.want = &bad;
  EXPECT_ERR(goap_builder_add_goal(b, &g, NULL), GOAP_TYPE_MISMATCH, GOAP_ITEM_WANT, 0,
             "goal 'h': 'stance' is an enum: only == and != apply");
  EXPECT_ERR(goap_builder_set_name(b, ""), GOAP_INVALID_ARGUMENT, GOAP_ITEM_NAME, -1,
             "invalid domain name");
  CHECK_EQ_INT(goap_builder_set_name(b, "named"), GOAP_OK);
  CHECK_EQ_INT(goap_builder_find_goal(b, "g"), 0);
  CHECK_EQ_INT(goap_builder_find_goal(b, "h"), -1);
  EXPECT_ERR(goap_builder_build(b, NULL), GOAP_INVALID_ARGUMENT, GOAP_ITEM_NONE, -1,
             "NULL output pointer");
  goap_domain *d = NULL;
  REQUIRE(goap_builder_build(b, &d) == GOAP_OK);
  CHECK_STR(goap_domain_name(d), "named");
  CHECK_EQ_INT(goap_domain_goal_count(d), 1);
  CHECK_NEAR(goap_domain_goal_priority(d, 0), 1, 0);
  goap_domain_destroy(d);
  goap_builder_destroy(b);
  /* NULL handles never crash */
  CHECK_EQ_INT(goap_builder_add_var(NULL, NULL, NULL), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_builder_find_var(NULL, "x"), -1);
  CHECK_EQ_INT(goap_builder_find_action(NULL, "x"), -1);
  CHECK_EQ_INT(goap_builder_find_goal(NULL, "x"), -1);
  CHECK(goap_builder_error(NULL) == NULL);
  int idx = 0;
  CHECK_EQ_INT(goap_builder_error_item(NULL, &idx), GOAP_ITEM_NONE);
  CHECK_EQ_INT(idx, -1);
  int junk = 0;
  goap_planner *pl = (goap_planner *)(void *)&junk; /* a failing create sets *out = NULL */
  CHECK_EQ_INT(goap_planner_create(NULL, NULL, &pl), GOAP_INVALID_ARGUMENT);
  CHECK(pl == NULL);
  goap_builder_destroy(NULL);
  goap_domain_destroy(NULL);
  goap_planner_destroy(NULL);
  CHECK_EQ_INT(goap_domain_var_count(NULL), 0);
  CHECK(goap_domain_action_name(NULL, 0) == NULL);
  CHECK_EQ_INT(goap_state_get(NULL, NULL, 0), INT32_MIN);
}

/* goap_error, goap_severity and goap_error_format come with <goap/goap.h> alone. */
TEST(goap_h_alone) {
  goap_builder *b = NULL;
  REQUIRE(goap_builder_create(NULL, &b) == GOAP_OK);
  goap_var_desc v = {0};
  v.name = "flag";
  v.type = GOAP_BOOL;
  CHECK_EQ_INT(goap_builder_add_var(b, &v, NULL), GOAP_OK);
  CHECK_EQ_INT(goap_builder_add_var(b, &v, NULL), GOAP_DUPLICATE);
  const goap_error *e = goap_builder_error(b);
  REQUIRE(e != NULL);
  CHECK_EQ_INT(e->status, GOAP_DUPLICATE);
  CHECK_STR(e->message, "variable 'flag' is already defined");
  CHECK_EQ_INT(e->severity, GOAP_SEVERITY_ERROR);
  CHECK_STR(e->file, "");
  CHECK_EQ_INT(e->line, 0);
  goap_error copy = *e; /* a plain value */
  char buf[64];
  size_t n = goap_error_format(&copy, buf, sizeof buf);
  CHECK_STR(buf, "error: variable 'flag' is already defined\n");
  CHECK_EQ_INT(n, strlen("error: variable 'flag' is already defined\n"));
  goap_builder_destroy(b);
}

TEST_MAIN(TEST_ENTRY(variables), TEST_ENTRY(actions), TEST_ENTRY(goals_and_misc),
          TEST_ENTRY(goap_h_alone))
