/*
 * test_position.c -- positions and distance costs in `.goap` files: `position` lines,
 * `cost [BASE +] [FACTOR *] distance(VAR [, VALUE])`, their diagnostics (status, line, column,
 * message), goap_file_set_position / goap_file_position, examples/ammo_run.goap (a nearer small
 * pickup beats a bigger far one; the second walk is priced from where the first ended), and
 * the agent runtime: the same plans with and without a recorder, and an exact replay.
 */
#include <goap/file.h>
#include <goap/sim.h>
#include <goap/replay.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "test_text.h"

#define LOC "var loc: enum {a, b, c}\nvar hp: int 0..3\n"
#define POS "position loc a 0 0\nposition loc b 3 4\nposition loc c 0 10\n"

typedef struct err_case {
  const char *text;
  goap_status status;
  int line, col;
  const char *message;
} err_case;

static const err_case errors[] = {
    {LOC "position hp a 1 2\n", GOAP_TYPE_MISMATCH, 3, 10,
     "'hp' is an int: 'position' takes an enum variable (its values are places)"},
    {LOC "position loc d 1 2\n", GOAP_NOT_FOUND, 3, 14, "'loc' has no value 'd'"},
    {LOC "position loc 1 2\n", GOAP_PARSE_ERROR, 3, 14,
     "expected a value of 'loc' after 'position loc', found '1'"},
    {LOC "position lo a 1 2\n", GOAP_NOT_FOUND, 3, 10,
     "unknown variable 'lo'; did you mean 'loc'?"},
    {LOC "position loc a 1\n", GOAP_PARSE_ERROR, 3, 17,
     "expected the y coordinate, found end of line"},
    {LOC "position loc a x 1\n", GOAP_PARSE_ERROR, 3, 16, "expected the x coordinate, found 'x'"},
    {LOC "position loc a 1 2 3 4\n", GOAP_PARSE_ERROR, 3, 22,
     "expected end of line after the coordinates (x y, or x y z), found '4'"},
    {LOC "position loc a 1 2\nposition loc a 3 4\n", GOAP_DUPLICATE, 4, 14,
     "duplicate position of 'loc' a (first at line 3)"},
    {LOC POS "action go\n  cost distance loc\n  eff loc = b\n", GOAP_PARSE_ERROR, 7, 17,
     "expected '(' after 'distance', found 'loc'"},
    {LOC POS "action go\n  cost distance(hp)\n  eff loc = b\n", GOAP_TYPE_MISMATCH, 7, 17,
     "'hp' is an int: distance(...) takes an enum variable (its values are places)"},
    {LOC POS "action go\n  cost distance(loc\n  eff loc = b\n", GOAP_PARSE_ERROR, 7, 20,
     "expected ',' or ')' after the variable, found end of line"},
    {LOC POS "action go\n  cost distance(loc, z)\n  eff loc = b\n", GOAP_NOT_FOUND, 7, 22,
     "'loc' has no value 'z'"},
    {LOC POS "action go\n  cost distance(loc) + 1\n  eff loc = b\n", GOAP_PARSE_ERROR, 7, 22,
     "expected end of line after ')', found '+'"},
    {LOC POS "action go\n  cost 1 + 2 distance(loc)\n  eff loc = b\n", GOAP_PARSE_ERROR, 7, 14,
     "expected '*' after the factor (cost BASE + FACTOR * distance(...)), found 'distance'"},
    {LOC POS "action go\n  cost 1 + fast\n  eff loc = b\n", GOAP_PARSE_ERROR, 7, 12,
     "expected a factor or 'distance' after '+', found 'fast'"},
    {LOC POS "action go\n  cost -1 * distance(loc)\n  eff loc = b\n", GOAP_OUT_OF_RANGE, 7, 8,
     "a distance factor must not be negative, found '-1'"},
    {LOC POS "action go\n  cost -1 + distance(loc)\n  eff loc = b\n", GOAP_OUT_OF_RANGE, 7, 8,
     "cost must not be negative, found '-1'"},
    {LOC POS "action go\n  cost 2 * speed(loc)\n  eff loc = b\n", GOAP_PARSE_ERROR, 7, 12,
     "expected 'distance' after '*', found 'speed'"},
    {LOC POS "action go\n  cost 2 2\n  eff loc = b\n", GOAP_PARSE_ERROR, 7, 10,
     "expected end of line after the number, found '2'"},
    {LOC POS "action go\n  cost distance(loc)\n  eff hp = 1\n", GOAP_NOT_FOUND, 7, 8,
     "distance(loc) has no destination: action 'go' sets no value of 'loc' (add 'eff loc = "
     "PLACE', or write distance(loc, PLACE))"},
    {LOC "position loc a 0 0\nposition loc b 3 4\naction go\n  cost distance(loc)\n  eff loc = b\n",
     GOAP_NOT_FOUND, 6, 8,
     "'loc' c has no position (distance(loc) needs a 'position loc c X Y' line for every value "
     "of 'loc')"},
    {LOC "action go\n  cost 1 + distance(loc)\n  eff loc = b\n", GOAP_NOT_FOUND, 4, 12,
     "'loc' a has no position (distance(loc) needs a 'position loc a X Y' line for every value "
     "of 'loc')"},
};

TEST(diagnostics_have_exact_positions) {
  for (size_t i = 0; i < sizeof errors / sizeof errors[0]; ++i) {
    const err_case *e = &errors[i];
    goap_file *f = NULL;
    goap_error dg;
    memset(&dg, 0, sizeof dg);
    goap_status st = goap_file_parse("t.goap", e->text, strlen(e->text), NULL, &f, &dg);
    if (st != e->status || dg.line != e->line || dg.col != e->col ||
        strcmp(dg.message, e->message) != 0) {
      fprintf(stderr, "case %zu: got status %d at %d:%d \"%s\"\n", i, (int)st, dg.line, dg.col,
              dg.message);
      CHECK_EQ_INT(st, e->status);
      CHECK_EQ_INT(dg.line, e->line);
      CHECK_EQ_INT(dg.col, e->col);
      CHECK_STR(dg.message, e->message);
    }
    CHECK(f == NULL);
  }
  /* the formatted form: file:line:col, the line, a caret under the column */
  const char *src = LOC POS "action go\n  cost distance(loc, q)\n  eff loc = b\n";
  goap_file *f = NULL;
  goap_error dg;
  REQUIRE(goap_file_parse("t.goap", src, strlen(src), NULL, &f, &dg) == GOAP_NOT_FOUND);
  char buf[1024];
  goap_error_format(&dg, buf, sizeof buf);
  CHECK_STR(buf, "t.goap:7:22: error: 'loc' has no value 'q'\n"
                 "  cost distance(loc, q)\n"
                 "                     ^\n");
}

/* Plans `want` from the default state; returns the cost (-1 when none). */
static double plan_cost(const goap_domain *d, const goap_cond *want, int n, int32_t *plan,
                        int *len) {
  goap_planner *p = NULL;
  goap_planner_create(d, NULL, &p);
  goap_request r;
  memset(&r, 0, sizeof r);
  r.want = want;
  r.want_count = n;
  r.heuristic = GOAP_H_LMCUT;
  goap_result res;
  memset(&res, 0, sizeof res);
  res.plan = plan;
  res.plan_capacity = 16;
  goap_status st = goap_plan(p, &r, &res);
  goap_planner_destroy(p);
  *len = res.plan_length;
  return st == GOAP_OK ? res.cost : -1.0;
}

TEST(base_factor_and_explicit_place) {
  const char *src = LOC POS
      "var done: bool\n"
      "action go_b\n  cost 1 + 2 * distance(loc)\n  pre loc != b\n  eff loc = b\n"
      "action go_c\n  cost 0.5 * distance(loc)\n  pre loc != c\n  eff loc = c\n"
      "action call_from_afar\n  cost distance(loc, c)\n  eff done\n"; /* distance to c */
  goap_file *f = NULL;
  goap_error dg;
  REQUIRE(goap_file_parse("t.goap", src, strlen(src), NULL, &f, &dg) == GOAP_OK);
  const goap_domain *d = goap_file_domain(f);
  int loc = goap_domain_find_var(d, "loc"), done = goap_domain_find_var(d, "done");
  int32_t plan[16];
  int len = 0;
  goap_cond at_b = {loc, GOAP_EQ, 1}, at_c = {loc, GOAP_EQ, 2}, call = {done, GOAP_EQ, 1};
  CHECK_NEAR(plan_cost(d, &at_b, 1, plan, &len), 11.0, 1e-12); /* 1 + 2 * 5 */
  CHECK_NEAR(plan_cost(d, &at_c, 1, plan, &len), 5.0, 1e-12);  /* 0.5 * 10 */
  /* calling from a costs 10; walking to c first (0.5 * 10) and calling there (0) costs 5 */
  CHECK_NEAR(plan_cost(d, &call, 1, plan, &len), 5.0, 1e-12);
  CHECK_EQ_INT(len, 2);
  CHECK_EQ_INT(plan[0], goap_domain_find_action(d, "go_c"));
  /* the static part is the action's cost; the state cost is pure */
  CHECK_NEAR(goap_domain_action_cost(d, goap_domain_find_action(d, "go_b")), 1.0, 0);
  unsigned fl = 0;
  double mc = -1;
  CHECK_EQ_INT(goap_domain_action_state_cost(d, goap_domain_find_action(d, "go_c"), NULL, NULL,
                                             &mc, &fl),
               1);
  CHECK(fl == GOAP_STATE_COST_PURE && mc == 0.0);
  CHECK_EQ_INT(goap_domain_action_state_cost(d, goap_domain_find_action(d, "call_from_afar"),
                                             NULL, NULL, NULL, NULL),
               1);
  goap_file_destroy(f);
}

TEST(ammo_run_nearer_small_box_wins_and_moves_with_the_host) {
  goap_file *f = NULL;
  goap_error dg;
  REQUIRE(goap_file_load(GOAP_EXAMPLES_DIR "/ammo_run.goap", NULL, &f, &dg) == GOAP_OK);
  const goap_domain *d = goap_file_domain(f);
  int loc = goap_domain_find_var(d, "loc"), ammo = goap_domain_find_var(d, "ammo");
  int box = goap_domain_find_action(d, "go_near_box"), crate = goap_domain_find_action(d, "go_far_crate");
  goap_cond armed = {ammo, GOAP_GE, 5}, well = {ammo, GOAP_GE, 20};
  int32_t plan[16];
  int len = 0;
  CHECK_NEAR(plan_cost(d, &armed, 1, plan, &len), 7.0, 1e-12);
  CHECK_EQ_INT(len, 2);
  CHECK_EQ_INT(plan[0], box);
  /* both: the crate leg from the box is 45 m, not the 50 m from the post */
  CHECK_NEAR(plan_cost(d, &well, 1, plan, &len), 54.0, 1e-12);
  CHECK_EQ_INT(len, 4);
  CHECK_EQ_INT(plan[2], crate);
  /* the host moves the box away: the crate wins now */
  double x = 0, y = 0, z = 1;
  CHECK_EQ_INT(goap_file_position(f, loc, 1, &x, &y, &z), GOAP_OK);
  CHECK(x == 3 && y == 4 && z == 0);
  CHECK_EQ_INT(goap_file_set_position(f, loc, 1, 60, 80, 0), GOAP_OK);
  CHECK_NEAR(plan_cost(d, &armed, 1, plan, &len), 52.0, 1e-12);
  CHECK_EQ_INT(plan[0], crate);
  CHECK_EQ_INT(goap_file_position(f, loc, 1, &x, NULL, NULL), GOAP_OK);
  CHECK(x == 60);
  /* errors */
  CHECK_EQ_INT(goap_file_set_position(NULL, loc, 1, 0, 0, 0), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_file_set_position(f, 99, 1, 0, 0, 0), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_file_set_position(f, ammo, 1, 0, 0, 0), GOAP_NOT_FOUND); /* no positions */
  CHECK_EQ_INT(goap_file_set_position(f, loc, 3, 0, 0, 0), GOAP_OUT_OF_RANGE);
  CHECK_EQ_INT(goap_file_set_position(f, loc, -1, 0, 0, 0), GOAP_OUT_OF_RANGE);
  CHECK_EQ_INT(goap_file_set_position(f, loc, 1, (double)NAN, 0, 0), GOAP_OUT_OF_RANGE);
  CHECK_EQ_INT(goap_file_set_position(f, loc, 1, 0, (double)INFINITY, 0), GOAP_OUT_OF_RANGE);
  CHECK_EQ_INT(goap_file_position(f, loc, 1, &x, NULL, NULL), GOAP_OK);
  CHECK(x == 60); /* a refused call changed nothing */
  CHECK_EQ_INT(goap_file_position(f, ammo, 0, NULL, NULL, NULL), GOAP_NOT_FOUND);
  /* backward search cannot price them */
  goap_planner *p = NULL;
  REQUIRE(goap_planner_create(d, NULL, &p) == GOAP_OK);
  goap_request r;
  memset(&r, 0, sizeof r);
  r.want = &armed;
  r.want_count = 1;
  r.search = GOAP_SEARCH_BACKWARD;
  goap_result res;
  memset(&res, 0, sizeof res);
  CHECK_EQ_INT(goap_plan(p, &r, &res), GOAP_INVALID_ARGUMENT);
  goap_planner_destroy(p);
  goap_file_destroy(f);
}

/* A value without a position is fine while no distance cost reads its variable; the host can
 * give it one. */
TEST(host_completes_positions) {
  const char *src = LOC "position loc a 0 0\naction go\n  eff loc = b\n";
  goap_file *f = NULL;
  goap_error dg;
  REQUIRE(goap_file_parse("t.goap", src, strlen(src), NULL, &f, &dg) == GOAP_OK);
  CHECK_EQ_INT(goap_file_position(f, 0, 1, NULL, NULL, NULL), GOAP_NOT_FOUND);
  CHECK_EQ_INT(goap_file_set_position(f, 0, 1, 1, 2, 3), GOAP_OK);
  double z = 0;
  CHECK_EQ_INT(goap_file_position(f, 0, 1, NULL, NULL, &z), GOAP_OK);
  CHECK(z == 3);
  goap_file_destroy(f);
}

/* ---- the runtime: the simulation, recorded and replayed ---------------------------------- */
static void log_event(goap_agent *a, const goap_agent_event *ev, void *user) {
  (void)a;
  if (ev->kind != GOAP_EVENT_PLAN) return;
  put((text *)user, "%.3f plan g%d cost %.3f [", ev->time, ev->goal, ev->cost);
  for (int i = 0; i < ev->plan_length; ++i) put((text *)user, " %d", ev->plan[i]);
  put((text *)user, " ]\n");
}

static goap_status simulate(const goap_file *f, text *timeline, goap_recorder *rec,
                            goap_replayer *rp, goap_sim_result *res) {
  goap_sim_options o;
  memset(&o, 0, sizeof o);
  o.on_event = log_event;
  o.event_user = timeline;
  o.recorder = rec;
  o.replayer = rp;
  return goap_file_simulate(f, goap_file_find_simulation(f, "box_then_crate"), &o, res);
}

TEST(agents_price_legs_from_their_plan_recorded_or_not) {
  goap_file *f = NULL;
  REQUIRE(goap_file_load(GOAP_EXAMPLES_DIR "/ammo_run.goap", NULL, &f, NULL) == GOAP_OK);
  text plain = {0}, live = {0}, log = {0}, replayed = {0};
  goap_sim_result r0, r1, r2;
  REQUIRE(simulate(f, &plain, NULL, NULL, &r0) == GOAP_OK);
  REQUIRE(plain.s != NULL);
  /* armed: box (7); then well armed from the box: 46 + 1 (from the post it would be 52) */
  CHECK_STR(plain.s, "0.000 plan g0 cost 7.000 [ 0 3 ]\n0.200 plan g1 cost 47.000 [ 1 4 ]\n");
  goap_recorder_desc rd;
  memset(&rd, 0, sizeof rd);
  rd.domain = goap_file_domain(f);
  rd.sink = sink;
  rd.sink_user = &log;
  rd.label = "ammo";
  goap_recorder *rec = NULL;
  REQUIRE(goap_recorder_create(&rd, &rec) == GOAP_OK);
  REQUIRE(simulate(f, &live, rec, NULL, &r1) == GOAP_OK);
  REQUIRE(goap_recorder_finish(rec) == GOAP_OK);
  goap_recorder_destroy(rec);
  CHECK_STR(live.s, plain.s); /* recording (NO_CALLBACKS searches) prices the same */
  goap_replayer_desc pd;
  memset(&pd, 0, sizeof pd);
  pd.domain = goap_file_domain(f);
  pd.log = log.s;
  pd.size = log.n;
  goap_replayer *rp = NULL;
  REQUIRE(goap_replayer_create(&pd, &rp, NULL) == GOAP_OK);
  REQUIRE(simulate(f, &replayed, NULL, rp, &r2) == GOAP_OK);
  CHECK_STR(replayed.s, plain.s);
  CHECK_EQ_INT(goap_replayer_divergence(rp, NULL), 0);
  goap_replayer_destroy(rp);
  CHECK_EQ_INT(r2.replans, r0.replans);
  free(plain.s);
  free(live.s);
  free(log.s);
  free(replayed.s);
  goap_file_destroy(f);
}

TEST_MAIN(TEST_ENTRY(diagnostics_have_exact_positions), TEST_ENTRY(base_factor_and_explicit_place),
          TEST_ENTRY(ammo_run_nearer_small_box_wins_and_moves_with_the_host),
          TEST_ENTRY(host_completes_positions),
          TEST_ENTRY(agents_price_legs_from_their_plan_recorded_or_not))
