/*
 * test_cxx.cpp -- the public headers compile as C++11 (with the project's strict warnings)
 * and the library links from C++: build a tiny domain, query it, plan, parse a `.goap` text.
 */
#include <goap/agent.h>
#include <goap/file.h>
#include <goap/goap.h>
#include <goap/sched.h> /* compiles as C++ too (not linked here) */
#include <goap/pddl.h> /* compiled as C++ only (no goap_pddl call, so no link needed) */
/* compiled as C++ only, likewise: every other public header */
#include <goap/hddl.h>
#include <goap/htn.h>
#include <goap/squad.h>
#include <goap/tactics.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "test.h"

namespace {

struct cxx_domain {
  goap_domain *dom;
  int has_axe, has_wood, fire;
  cxx_domain() : dom(NULL), has_axe(-1), has_wood(-1), fire(-1) {}
};

int add_bool(goap_builder *b, const char *name) {
  goap_var_desc vd = goap_var_desc();
  vd.name = name;
  vd.type = GOAP_BOOL;
  int id = -1;
  if (goap_builder_add_var(b, &vd, &id) != GOAP_OK) return -1;
  return id;
}

int add_action(goap_builder *b, const char *name, double cost, const std::vector<goap_cond> &pre,
               const std::vector<goap_effect> &eff) {
  goap_action_desc ad = goap_action_desc();
  ad.name = name;
  ad.cost = cost;
  ad.pre = pre.empty() ? NULL : &pre[0];
  ad.pre_count = static_cast<int>(pre.size());
  ad.eff = eff.empty() ? NULL : &eff[0];
  ad.eff_count = static_cast<int>(eff.size());
  int id = -1;
  if (goap_builder_add_action(b, &ad, &id) != GOAP_OK) return -1;
  return id;
}

goap_cond cond(int var, goap_op op, int32_t value) {
  goap_cond c;
  c.var = var;
  c.op = op;
  c.value = value;
  return c;
}

goap_effect set(int var, int32_t value) {
  goap_effect e;
  e.var = var;
  e.op = GOAP_SET;
  e.value = value;
  return e;
}

cxx_domain make_camp() {
  cxx_domain cd;
  goap_builder *b = NULL;
  if (goap_builder_create(NULL, &b) != GOAP_OK) return cd;
  goap_builder_set_name(b, "camp");
  cd.has_axe = add_bool(b, "has_axe");
  cd.has_wood = add_bool(b, "has_wood");
  cd.fire = add_bool(b, "fire");
  std::vector<goap_cond> none, need_axe(1, cond(cd.has_axe, GOAP_EQ, 1)),
      need_wood(1, cond(cd.has_wood, GOAP_EQ, 1));
  add_action(b, "get_axe", 2.0, none, std::vector<goap_effect>(1, set(cd.has_axe, 1)));
  add_action(b, "chop", 1.0, need_axe, std::vector<goap_effect>(1, set(cd.has_wood, 1)));
  add_action(b, "gather", 5.0, none, std::vector<goap_effect>(1, set(cd.has_wood, 1)));
  std::vector<goap_effect> burn;
  burn.push_back(set(cd.fire, 1));
  burn.push_back(set(cd.has_wood, 0));
  add_action(b, "light_fire", 1.0, need_wood, burn);
  if (goap_builder_build(b, &cd.dom) != GOAP_OK) cd.dom = NULL;
  goap_builder_destroy(b);
  return cd;
}

} // namespace

TEST(version) {
  CHECK_STR(goap_version(), GOAP_VERSION_STRING);
  CHECK(GOAP_VERSION_NUMBER == 200);
}

TEST(build_and_plan) {
  cxx_domain cd = make_camp();
  REQUIRE(cd.dom != NULL);
  CHECK_STR(goap_domain_name(cd.dom), "camp");
  CHECK_EQ_INT(goap_domain_var_count(cd.dom), 3);
  CHECK_EQ_INT(goap_domain_action_count(cd.dom), 4);
  CHECK_EQ_INT(goap_domain_find_action(cd.dom, "chop"), 1);

  goap_planner *p = NULL;
  REQUIRE(goap_planner_create(cd.dom, NULL, &p) == GOAP_OK);
  goap_cond want = cond(cd.fire, GOAP_EQ, 1);
  goap_request req = goap_request();
  req.want = &want;
  req.want_count = 1;
  std::vector<int32_t> plan(8, -1);
  goap_result res = goap_result();
  res.plan = &plan[0];
  res.plan_capacity = static_cast<int>(plan.size());
  CHECK_EQ_INT(goap_plan(p, &req, &res), GOAP_OK);
  CHECK_NEAR(res.cost, 4.0, 1e-12); /* get_axe chop light_fire: 2+1+1 beats gather+light 6 */
  CHECK_EQ_INT(res.plan_length, 3);
  if (res.plan_length == 3) {
    CHECK_STR(goap_domain_action_name(cd.dom, plan[0]), "get_axe");
    CHECK_STR(goap_domain_action_name(cd.dom, plan[1]), "chop");
    CHECK_STR(goap_domain_action_name(cd.dom, plan[2]), "light_fire");
  }
  double cost = -1.0;
  CHECK_EQ_INT(goap_plan_validate(cd.dom, NULL, &want, 1, &plan[0], res.plan_length, &cost, NULL),
               GOAP_OK);
  CHECK_NEAR(cost, 4.0, 1e-12);

  /* with an axe already in hand */
  std::vector<goap_word> start(goap_domain_state_words(cd.dom));
  goap_state_init(cd.dom, &start[0]);
  CHECK_EQ_INT(goap_state_set(cd.dom, &start[0], cd.has_axe, 1), GOAP_OK);
  req.start = &start[0];
  res = goap_result();
  res.plan = &plan[0];
  res.plan_capacity = static_cast<int>(plan.size());
  CHECK_EQ_INT(goap_plan(p, &req, &res), GOAP_OK);
  CHECK_NEAR(res.cost, 2.0, 1e-12);
  goap_planner_destroy(p);
  goap_domain_destroy(cd.dom);
}

TEST(parse_file_text) {
  const char text[] = "domain camp\n"
                      "var wood: bool\n"
                      "var fire: bool\n"
                      "action gather\n"
                      "  cost 2\n"
                      "  eff wood\n"
                      "action light\n"
                      "  pre wood\n"
                      "  eff fire, !wood\n"
                      "scenario warm\n"
                      "  want fire\n"
                      "  expect cost 3\n";
  goap_file *f = NULL;
  goap_error diag;
  std::memset(&diag, 0, sizeof diag);
  goap_status st = goap_file_parse("camp.goap", text, sizeof text - 1, NULL, &f, &diag);
  if (st != GOAP_OK) {
    char buf[1024];
    goap_error_format(&diag, buf, sizeof buf);
    std::fprintf(stderr, "%s\n", buf);
  }
  REQUIRE(st == GOAP_OK && f != NULL);
  CHECK_EQ_INT(goap_file_scenario_count(f), 1);
  const goap_scenario *sc = goap_file_scenario(f, 0);
  REQUIRE(sc != NULL);
  CHECK_STR(sc->name, "warm");
  CHECK((sc->expect & GOAP_EXPECT_COST) != 0);
  CHECK_NEAR(sc->expect_cost, 3.0, 1e-12);
  const goap_domain *d = goap_file_domain(f);
  goap_planner *p = NULL;
  REQUIRE(goap_planner_create(d, NULL, &p) == GOAP_OK);
  goap_request req = goap_request();
  req.want = sc->want;
  req.want_count = sc->want_count;
  int32_t plan[4];
  goap_result res = goap_result();
  res.plan = plan;
  res.plan_capacity = 4;
  CHECK_EQ_INT(goap_plan(p, &req, &res), GOAP_OK);
  CHECK_NEAR(res.cost, 3.0, 1e-12);
  goap_planner_destroy(p);
  goap_file_destroy(f);

  /* an error is reported with a position */
  const char bad[] = "var x: bool\nvar x: bool\n";
  f = NULL;
  st = goap_file_parse("bad.goap", bad, sizeof bad - 1, NULL, &f, &diag);
  CHECK(st != GOAP_OK);
  CHECK(f == NULL);
  CHECK_EQ_INT(diag.line, 2);
  char out[1024];
  size_t need = goap_error_format(&diag, out, sizeof out);
  CHECK(need > 0 && need < sizeof out);
  CHECK(std::strncmp(out, "bad.goap:2:", 11) == 0);
}

/* The runtime from C++: an agent with a C++ lambda (no captures) as its tick callback. */
TEST(agent_from_cxx) {
  const char text[] = "var door_open: bool\nvar inside: bool\n"
                      "action open\n  eff door_open\n  on_fail inside\n"
                      "action enter\n  pre door_open\n  eff inside\n"
                      "goal get_in\n  want inside\n";
  goap_file *f = NULL;
  goap_error diag;
  REQUIRE(goap_file_parse("in.goap", text, sizeof text - 1, NULL, &f, &diag) == GOAP_OK);
  const goap_domain *d = goap_file_domain(f);
  std::vector<goap_action_binding> acts(2);
  std::vector<goap_goal_binding> goals(1);
  REQUIRE(goap_file_bindings(f, acts.data(), 2, goals.data(), 1) == GOAP_OK);
  int ticks = 0;
  for (auto &b : acts) {
    b.tick = [](goap_agent *, int, double, void *user) -> goap_action_state {
      ++*static_cast<int *>(user);
      return GOAP_ACTION_SUCCESS;
    };
    b.user = &ticks;
  }
  goap_agent_type_desc td = goap_agent_type_desc();
  td.actions = acts.data();
  td.action_count = 2;
  td.goals = goals.data();
  td.goal_count = 1;
  goap_agent_type *type = NULL;
  REQUIRE(goap_agent_type_create(d, &td, &type, NULL) == GOAP_OK);
  goap_agent_desc ad = goap_agent_desc();
  ad.type = type;
  goap_agent *a = NULL;
  REQUIRE(goap_agent_create(&ad, &a, NULL) == GOAP_OK);
  for (int i = 0; i < 5; ++i) goap_agent_update(a, 0.1);
  CHECK_EQ_INT(ticks, 2);
  CHECK_EQ_INT(goap_agent_get(a, goap_domain_find_var(d, "inside")), 1);
  CHECK_EQ_INT(static_cast<int>(goap_agent_get_stats(a).plans), 1);
  goap_agent_destroy(a);
  goap_agent_type_destroy(type);
  goap_file_destroy(f);
}

TEST_MAIN(TEST_ENTRY(version), TEST_ENTRY(build_and_plan), TEST_ENTRY(parse_file_text),
          TEST_ENTRY(agent_from_cxx))
