/*
 * test_reserve.c -- squad reservations: an agent that reserves needs a blackboard, a file's
 * resource capacities reach the blackboard made for it, a capacity never goes below what is
 * held, and goap_blackboard_holders tells who holds a resource.
 */
#include <goap/agent.h>
#include <goap/file.h>

#include <stdio.h>
#include <string.h>

#include "test.h"

static goap_file *parse(const char *text) {
  goap_file *f = NULL;
  goap_error diag;
  if (goap_file_parse("test.goap", text, strlen(text), NULL, &f, &diag) != GOAP_OK) {
    char buf[1024];
    goap_error_format(&diag, buf, sizeof buf);
    fprintf(stderr, "%s\n", buf);
    return NULL;
  }
  return f;
}

static goap_action_state forever(goap_agent *agent, int action, double dt, void *user) {
  (void)agent;
  (void)action;
  (void)dt;
  (void)user;
  return GOAP_ACTION_RUNNING;
}

/* Two ways to flank; flank (cheaper) reserves flank_slot, declared with capacity 2. */
static const char *const text =
    "resource flank_slot capacity 2\n"
    "var flanked: bool\n"
    "action flank\n  cost 1\n  eff flanked\n  reserve flank_slot\n"
    "action hold_position\n  cost 5\n  eff flanked\n"
    "goal attack\n  priority 1\n  want flanked\n";

/* The file's bindings (with its reserve line), every action running until interrupted. */
static goap_agent_type *make_type(goap_file *f, int disable_flank) {
  const goap_domain *d = goap_file_domain(f);
  goap_action_binding b[2];
  goap_goal_binding g[1];
  memset(b, 0, sizeof b);
  memset(g, 0, sizeof g);
  if (goap_file_bindings(f, b, 2, g, 1) != GOAP_OK) return NULL;
  b[0].tick = b[1].tick = forever;
  b[goap_domain_find_action(d, "flank")].disabled = disable_flank;
  goap_agent_type_desc td;
  memset(&td, 0, sizeof td);
  td.actions = b;
  td.action_count = 2;
  td.goals = g;
  td.goal_count = 1;
  goap_agent_type *t = NULL;
  return goap_agent_type_create(d, &td, &t, NULL) == GOAP_OK ? t : NULL;
}

static goap_agent *make_agent(goap_agent_type *t, goap_blackboard *bb) {
  goap_agent_desc ad;
  memset(&ad, 0, sizeof ad);
  ad.type = t;
  ad.blackboard = bb;
  goap_agent *a = NULL;
  return goap_agent_create(&ad, &a, NULL) == GOAP_OK ? a : NULL;
}

/* Before: both agents ran the capacity-1 action, the reservation silently ignored. */
TEST(reserving_agent_needs_a_blackboard) {
  goap_file *f = parse(text);
  REQUIRE(f != NULL);
  goap_agent_type *t = make_type(f, 0);
  REQUIRE(t != NULL);
  goap_agent_desc ad;
  memset(&ad, 0, sizeof ad);
  ad.type = t;
  goap_agent *a = (goap_agent *)&ad; /* must be reset to NULL */
  goap_error err;
  CHECK_EQ_INT(goap_agent_create(&ad, &a, &err), GOAP_INVALID_ARGUMENT);
  CHECK(a == NULL);
  CHECK_EQ_INT(err.status, GOAP_INVALID_ARGUMENT);
  CHECK_STR(err.message, "the agent type has actions that reserve resources "
                         "(goap_action_binding.reserve) but the agent has no blackboard to "
                         "reserve them on");
  CHECK_EQ_INT(goap_agent_create(NULL, &a, &err), GOAP_INVALID_ARGUMENT);
  CHECK_STR(err.message, "out, desc and desc->type are required");
  CHECK_EQ_INT(goap_agent_create(&ad, NULL, NULL), GOAP_INVALID_ARGUMENT);
  /* with a blackboard: created */
  goap_blackboard *bb = NULL;
  REQUIRE(goap_blackboard_create(NULL, &bb) == GOAP_OK);
  ad.blackboard = bb;
  CHECK_EQ_INT(goap_agent_create(&ad, &a, &err), GOAP_OK);
  CHECK(a != NULL);
  CHECK_EQ_INT(err.status, GOAP_OK); /* success clears the error */
  CHECK_STR(err.message, "");
  goap_agent_destroy(a);
  /* a type without the reserving action needs none */
  goap_agent_type *t2 = make_type(f, 1);
  REQUIRE(t2 != NULL);
  ad.type = t2;
  ad.blackboard = NULL;
  a = NULL;
  CHECK_EQ_INT(goap_agent_create(&ad, &a, &err), GOAP_OK);
  CHECK(a != NULL);
  goap_agent_destroy(a);
  goap_agent_type_destroy(t2);
  goap_agent_type_destroy(t);
  goap_blackboard_destroy(bb);
  goap_file_destroy(f);
}

/* Before: each resource of the file got capacity 1 (only 1 of 3 agents flanked, not 2). */
TEST(file_resources_reach_the_blackboard) {
  goap_file *f = parse(text);
  REQUIRE(f != NULL);
  const goap_domain *d = goap_file_domain(f);
  int flank = goap_domain_find_action(d, "flank");
  goap_blackboard *bb = (goap_blackboard *)f; /* must be reset to NULL on failure */
  CHECK_EQ_INT(goap_file_blackboard_create(NULL, NULL, &bb), GOAP_INVALID_ARGUMENT);
  CHECK(bb == NULL);
  CHECK_EQ_INT(goap_file_blackboard_create(f, NULL, NULL), GOAP_INVALID_ARGUMENT);
  REQUIRE(goap_file_blackboard_create(f, NULL, &bb) == GOAP_OK);
  int held = -1, cap = -1;
  CHECK_EQ_INT(goap_blackboard_resource(bb, "flank_slot", &held, &cap), GOAP_OK);
  CHECK_EQ_INT(held, 0);
  CHECK_EQ_INT(cap, 2);
  goap_agent_type *t = make_type(f, 0);
  REQUIRE(t != NULL);
  goap_agent *ag[3];
  int flanking = 0;
  for (int i = 0; i < 3; ++i) {
    ag[i] = make_agent(t, bb);
    REQUIRE(ag[i] != NULL);
    CHECK_EQ_INT(goap_agent_update(ag[i], 0.1), GOAP_OK);
    flanking += goap_agent_action(ag[i]) == flank;
  }
  CHECK_EQ_INT(flanking, 2);
  CHECK_EQ_INT(goap_blackboard_resource(bb, "flank_slot", &held, &cap), GOAP_OK);
  CHECK_EQ_INT(held, 2);
  /* applying a file to an existing blackboard: sets the capacity of what exists */
  goap_blackboard *b2 = NULL;
  REQUIRE(goap_blackboard_create(NULL, &b2) == GOAP_OK);
  CHECK_EQ_INT(goap_blackboard_add_resource(b2, "flank_slot", 7), GOAP_OK);
  CHECK_EQ_INT(goap_file_apply_resources(f, b2), GOAP_OK);
  CHECK_EQ_INT(goap_blackboard_resource(b2, "flank_slot", NULL, &cap), GOAP_OK);
  CHECK_EQ_INT(cap, 2);
  CHECK_EQ_INT(goap_file_apply_resources(f, NULL), GOAP_INVALID_ARGUMENT);
  /* ... and refuses to go below what is held */
  CHECK_EQ_INT(goap_blackboard_set_capacity(bb, "flank_slot", 3), GOAP_OK);
  goap_agent *extra = make_agent(t, bb);
  REQUIRE(extra != NULL);
  goap_agent_update(extra, 0.1);
  CHECK_EQ_INT(goap_agent_action(extra), flank);
  CHECK_EQ_INT(goap_file_apply_resources(f, bb), GOAP_INVALID_OPERATION);
  goap_agent_destroy(extra);
  for (int i = 0; i < 3; ++i) goap_agent_destroy(ag[i]);
  goap_agent_type_destroy(t);
  goap_blackboard_destroy(b2);
  goap_blackboard_destroy(bb);
  goap_file_destroy(f);
}

/* Before: set_capacity(1) under 2 held returned GOAP_OK and left held 2 > capacity 1. */
TEST(capacity_below_held_is_refused) {
  goap_file *f = parse(text);
  REQUIRE(f != NULL);
  goap_blackboard *bb = NULL;
  REQUIRE(goap_file_blackboard_create(f, NULL, &bb) == GOAP_OK);
  goap_agent_type *t = make_type(f, 0);
  REQUIRE(t != NULL);
  goap_agent *a1 = make_agent(t, bb), *a2 = make_agent(t, bb);
  REQUIRE(a1 && a2);
  goap_agent_update(a1, 0.1);
  goap_agent_update(a2, 0.1);
  int held = -1, cap = -1;
  goap_blackboard_resource(bb, "flank_slot", &held, &cap);
  CHECK_EQ_INT(held, 2);
  CHECK_EQ_INT(goap_blackboard_set_capacity(bb, "flank_slot", 1), GOAP_INVALID_OPERATION);
  goap_blackboard_resource(bb, "flank_slot", &held, &cap);
  CHECK_EQ_INT(held, 2);
  CHECK_EQ_INT(cap, 2); /* unchanged */
  CHECK_EQ_INT(goap_blackboard_set_capacity(bb, "flank_slot", 2), GOAP_OK); /* == held: fine */
  CHECK_EQ_INT(goap_blackboard_set_capacity(bb, "nope", 1), GOAP_NOT_FOUND);
  CHECK_EQ_INT(goap_blackboard_set_capacity(bb, "flank_slot", -1), GOAP_INVALID_ARGUMENT);
  /* the documented way down: the holder drops its plan, then the capacity is lowered */
  goap_agent_replan(a2);
  CHECK_EQ_INT(goap_blackboard_set_capacity(bb, "flank_slot", 1), GOAP_OK);
  goap_blackboard_resource(bb, "flank_slot", &held, &cap);
  CHECK_EQ_INT(held, 1);
  CHECK_EQ_INT(cap, 1);
  goap_agent_update(a2, 0.1); /* plans again: the slot is full, it holds position */
  CHECK_EQ_INT(goap_agent_action(a2), goap_domain_find_action(goap_file_domain(f), "hold_position"));
  goap_agent_destroy(a1);
  goap_agent_destroy(a2);
  goap_agent_type_destroy(t);
  goap_blackboard_destroy(bb);
  goap_file_destroy(f);
}

TEST(holders) {
  goap_file *f = parse(text);
  REQUIRE(f != NULL);
  goap_blackboard *bb = NULL;
  REQUIRE(goap_file_blackboard_create(f, NULL, &bb) == GOAP_OK);
  goap_agent_type *t = make_type(f, 0);
  REQUIRE(t != NULL);
  goap_agent *a1 = make_agent(t, bb), *a2 = make_agent(t, bb), *a3 = make_agent(t, bb);
  REQUIRE(a1 && a2 && a3);
  goap_agent *out[4] = {NULL, NULL, NULL, NULL};
  int count = -1;
  CHECK_EQ_INT(goap_blackboard_holders(bb, "flank_slot", out, 4, &count), GOAP_OK);
  CHECK_EQ_INT(count, 0);
  goap_agent_update(a2, 0.1);
  goap_agent_update(a1, 0.1);
  goap_agent_update(a3, 0.1); /* refused: holds nothing */
  CHECK_EQ_INT(goap_blackboard_holders(bb, "flank_slot", NULL, 0, &count), GOAP_BUFFER_TOO_SMALL);
  CHECK_EQ_INT(count, 2); /* the size query */
  CHECK_EQ_INT(goap_blackboard_holders(bb, "flank_slot", out, 4, &count), GOAP_OK);
  CHECK_EQ_INT(count, 2);
  CHECK(out[0] == a2 && out[1] == a1 && out[2] == NULL); /* oldest first */
  out[0] = NULL;
  CHECK_EQ_INT(goap_blackboard_holders(bb, "flank_slot", out, 1, &count), GOAP_BUFFER_TOO_SMALL);
  CHECK(out[0] == a2);
  CHECK_EQ_INT(count, 2);
  goap_agent_replan(a2); /* releases */
  CHECK_EQ_INT(goap_blackboard_holders(bb, "flank_slot", out, 4, &count), GOAP_OK);
  CHECK_EQ_INT(count, 1);
  CHECK(out[0] == a1);
  goap_agent_destroy(a1); /* releases */
  CHECK_EQ_INT(goap_blackboard_holders(bb, "flank_slot", out, 4, &count), GOAP_OK);
  CHECK_EQ_INT(count, 0);
  CHECK_EQ_INT(goap_blackboard_holders(bb, "nope", out, 4, &count), GOAP_NOT_FOUND);
  CHECK_EQ_INT(goap_blackboard_holders(bb, "flank_slot", NULL, 1, &count), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_blackboard_holders(bb, "flank_slot", out, -1, &count), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_blackboard_holders(NULL, "flank_slot", out, 4, &count), GOAP_INVALID_ARGUMENT);
  goap_agent_destroy(a2);
  goap_agent_destroy(a3);
  goap_agent_type_destroy(t);
  goap_blackboard_destroy(bb);
  goap_file_destroy(f);
}

TEST_MAIN(TEST_ENTRY(reserving_agent_needs_a_blackboard),
          TEST_ENTRY(file_resources_reach_the_blackboard),
          TEST_ENTRY(capacity_below_held_is_refused), TEST_ENTRY(holders))
