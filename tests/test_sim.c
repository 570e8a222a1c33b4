/*
 * test_sim.c -- the runtime attributes of .goap files (on_fail, timeout, watch, duration,
 * valid, world) and `simulation` blocks run by goap_file_simulate.
 */
#include <goap/file.h>
#include <goap/sim.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc_hook.h"
#include "test.h"

static goap_file *parse(const char *text) {
  goap_file *f = NULL;
  goap_error diag;
  if (goap_file_parse("sim.goap", text, strlen(text), NULL, &f, &diag) != GOAP_OK) {
    char buf[1024];
    goap_error_format(&diag, buf, sizeof buf);
    fprintf(stderr, "%s\n", buf);
    return NULL;
  }
  return f;
}

typedef struct log {
  char text[8192];
  size_t n;
  const goap_domain *d;
} log_t;

static void add(log_t *l, const char *s) {
  size_t k = strlen(s);
  if (l->n + k + 3 >= sizeof l->text) return;
  if (l->n) {
    memcpy(l->text + l->n, "; ", 2);
    l->n += 2;
  }
  memcpy(l->text + l->n, s, k + 1);
  l->n += k;
}

/* Records plans (with costs), failures, replans and world changes, with times. */
static void on_event(goap_agent *agent, const goap_agent_event *ev, void *user) {
  (void)agent;
  log_t *l = (log_t *)user;
  char buf[512];
  size_t n = 0;
  switch (ev->kind) {
    case GOAP_EVENT_PLAN:
      n = (size_t)snprintf(buf, sizeof buf, "%.1f plan %g:", ev->time, ev->cost);
      for (int i = 0; i < ev->plan_length && n < sizeof buf; ++i)
        n += (size_t)snprintf(buf + n, sizeof buf - n, " %s",
                              goap_domain_action_name(l->d, ev->plan[i]));
      break;
    case GOAP_EVENT_ACTION_FAILURE:
      snprintf(buf, sizeof buf, "%.1f %s %s", ev->time, ev->timeout ? "timeout" : "fail",
               goap_domain_action_name(l->d, ev->action));
      break;
    case GOAP_EVENT_REPLAN:
      if (ev->reason == GOAP_REPLAN_START || ev->reason == GOAP_REPLAN_PLAN_DONE) return;
      snprintf(buf, sizeof buf, "%.1f replan %s", ev->time, goap_replan_reason_name(ev->reason));
      break;
    case GOAP_EVENT_GOAL_DONE:
      snprintf(buf, sizeof buf, "%.1f done %s", ev->time, goap_domain_goal_name(l->d, ev->goal));
      break;
    default: return;
  }
  add(l, buf);
}

static void on_world(int var, int32_t old_value, int32_t value, double time, void *user) {
  (void)old_value;
  log_t *l = (log_t *)user;
  goap_var_info vi;
  goap_domain_var_info(l->d, var, &vi);
  char buf[128];
  snprintf(buf, sizeof buf, "%.1f world %s=%d", time, vi.name, (int)value);
  add(l, buf);
}

static int simulate(const goap_file *f, const char *name, log_t *l, goap_sim_result *res) {
  memset(l, 0, sizeof *l);
  l->d = goap_file_domain(f);
  goap_sim_options o;
  memset(&o, 0, sizeof o);
  o.on_event = on_event;
  o.event_user = l;
  o.on_world = on_world;
  o.world_user = l;
  int sim = goap_file_find_simulation(f, name);
  if (sim < 0) return 0;
  return goap_file_simulate(f, sim, &o, res) == GOAP_OK;
}

/* The lecture's live door scene: the exact plans and costs of the four runs. */
TEST(soldier_live_scene) {
  goap_file *f = NULL;
  REQUIRE(goap_file_load(GOAP_EXAMPLES_DIR "/soldier.goap", NULL, &f, NULL) == GOAP_OK);
  CHECK_EQ_INT(goap_file_simulation_count(f), 4);
  struct {
    const char *name;
    const char *log;
    int replans;
  } runs[] = {
      {"nothing_blocked",
       "0.0 plan 4: get_ammo load_magazine open_door shoot; 4.4 done kill_enemy", 0},
      {"door_held",
       "0.0 world door_held=1; 0.0 plan 4: get_ammo load_magazine open_door shoot; "
       "3.2 fail open_door; 3.2 replan action_failed; 3.3 plan 4: kick_door shoot; "
       "4.3 fail kick_door; 4.3 replan action_failed; 4.4 plan 6: jump_window shoot; "
       "7.6 done kill_enemy",
       2},
      {"armory_empty",
       "0.0 world armory_out=1; 0.0 plan 4: get_ammo load_magazine open_door shoot; "
       "1.0 fail get_ammo; 1.0 replan action_failed; 1.1 plan 7: open_door punch; "
       "3.3 done kill_enemy",
       1},
      {"both",
       "0.0 world door_held=1; 0.0 world armory_out=1; "
       "0.0 plan 4: get_ammo load_magazine open_door shoot; 1.0 fail get_ammo; "
       "1.0 replan action_failed; 1.1 plan 7: open_door punch; 2.1 fail open_door; "
       "2.1 replan action_failed; 2.2 plan 9: kick_door punch; 3.2 fail kick_door; "
       "3.2 replan action_failed; 3.3 plan 11: jump_window punch; 6.5 done kill_enemy",
       3},
  };
  for (size_t i = 0; i < sizeof runs / sizeof runs[0]; ++i) {
    log_t l;
    goap_sim_result res;
    REQUIRE(simulate(f, runs[i].name, &l, &res));
    CHECK_STR(l.text, runs[i].log);
    CHECK_EQ_INT(res.replans, runs[i].replans);
    CHECK_EQ_INT(res.idle, 1);
    CHECK_EQ_INT(res.failed, 0);
    CHECK_EQ_INT(res.expectations, 2);
  }
  goap_file_destroy(f);
}

static const char *const guard_text =
    "var see_player: bool\n"
    "var at_post: bool\n"
    "var patrolled: bool\n"
    "var enemy_down: bool\n"
    "var tired: int 0..3\n"
    "world player_near: bool\n"
    "action go_to_post\n  eff at_post\n  duration 1\n"
    "action patrol\n  pre at_post\n  eff patrolled\n  duration 10\n  timeout 30\n"
    "  watch see_player\n  on_fail tired += 1\n"
    "action attack\n  cost 2\n  pre see_player\n  eff enemy_down\n  duration 1\n"
    "goal guard\n  priority 1\n  want patrolled\n  watch see_player\n"
    "goal fight\n  priority 10\n  want enemy_down\n  valid see_player, tired < 3\n"
    "simulation intruder\n"
    "  sense see_player\n"
    "  at 2.5 see_player\n"
    "  step 0.5\n"
    "  until 20\n"
    "  expect replans 2\n"
    "  expect final enemy_down, patrolled\n"
    "simulation lazy\n"
    "  given at_post\n"
    "  fail patrol\n"
    "  until 3\n"
    "  expect final patrolled\n";

/* A `sensed` variable reaches memory from the world without a `sense` line: the intruder
 * run without it gives the same timeline. Failed expectations give their position and
 * values by type (enum names). */
TEST(sensed_variables_and_failures) {
  static const char *const text =
      "var see_player: bool sensed\n"
      "var at_post: bool\n"
      "var patrolled: bool\n"
      "var enemy_down: bool\n"
      "var mood: enum {calm, angry}\n"
      "action go_to_post\n  eff at_post\n  duration 1\n"
      "action patrol\n  pre at_post\n  eff patrolled\n  duration 10\n"
      "  watch see_player\n"
      "action attack\n  cost 2\n  pre see_player\n  eff enemy_down\n  duration 1\n"
      "goal guard\n  priority 1\n  want patrolled\n  watch see_player\n"
      "goal fight\n  priority 10\n  want enemy_down\n  valid see_player\n"
      "simulation intruder\n"
      "  at 2.5 see_player\n"
      "  step 0.5\n"
      "  until 20\n"
      "  expect replans 2\n"
      "  expect final enemy_down, patrolled\n"
      "simulation wrong\n"
      "  until 2\n"
      "  expect final at_post, mood == angry\n"
      "simulation both_wrong\n"
      "  until 2\n"
      "  expect replans 7\n"
      "  expect final mood == angry\n";
  goap_file *f = parse(text);
  REQUIRE(f != NULL);
  log_t l;
  goap_sim_result res;
  CHECK_EQ_INT(goap_file_is_sensed_var(f, 0), 1);
  REQUIRE(simulate(f, "intruder", &l, &res));
  CHECK_STR(l.text, "0.0 plan 2: go_to_post patrol; 2.5 world see_player=1; 2.5 replan watch; "
                    "2.5 plan 2: attack; "
                    "4.0 done fight; 4.0 plan 1: patrol; 14.5 done guard");
  CHECK_EQ_INT(res.failed, 0);
  CHECK_EQ_INT(res.line, 0);
  REQUIRE(simulate(f, "wrong", &l, &res));
  CHECK_EQ_INT(res.failed, 1);
  CHECK_STR(res.message, "expected final memory 'mood == angry', but the value is calm");
  CHECK_EQ_INT(res.line, 35);
  CHECK_EQ_INT(res.col, 25);
  REQUIRE(simulate(f, "both_wrong", &l, &res)); /* the first failure is kept */
  CHECK_EQ_INT(res.failed, 2);
  CHECK_STR(res.message, "expected 7 replans, got 0");
  CHECK_EQ_INT(res.line, 38);
  CHECK_EQ_INT(res.col, 18);
  goap_file_destroy(f);
}

/* `cooldown T` on a goal: after its plan ends (here: the action fails) the goal is not chosen
 * again for T seconds, and the idle agent's run waits for it; `switch_margin M` in a
 * simulation (and an agent block) sets the hysteresis: a goal 0.5 more important replaces the
 * running one only with a margin below 0.5 (the runtime's default is 1). */
TEST(goal_cooldown_and_switch_margin) {
  static const char *const text =
      "var door_open: bool\n"
      "var patrolled: bool\n"
      "var heard_noise: bool sensed\n"
      "var checked: bool\n"
      "action open_door\n  eff door_open\n  duration 1\n"
      "action patrol\n  eff patrolled\n  duration 5\n"
      "action check_noise\n  eff checked\n  duration 1\n"
      "goal get_in\n  priority 2\n  want door_open\n  cooldown 4\n"
      "goal guard\n  priority 1\n  want patrolled\n"
      "goal investigate\n  priority 1.5\n  want checked\n  valid heard_noise\n"
      "agent sentry\n  switch_margin 0\n"
      "simulation stuck\n  fail open_door\n  fail patrol\n  until 10\n"
      "simulation default_margin\n  given door_open\n  at 2 heard_noise\n  until 10\n"
      "simulation small_margin\n  switch_margin 0.2\n  given door_open\n"
      "  at 2 heard_noise\n  until 10\n"
      "simulation typed\n  member s1 sentry with door_open\n  at 2 heard_noise\n"
      "  until 10\n";
  goap_file *f = parse(text);
  REQUIRE(f != NULL);
  goap_file_goal_info gi;
  REQUIRE(goap_file_goal_info_get(f, 0, &gi) == GOAP_OK);
  CHECK(gi.cooldown == 4.0);
  REQUIRE(goap_file_goal_info_get(f, 1, &gi) == GOAP_OK);
  CHECK(gi.cooldown == 0.0);
  CHECK(goap_file_switch_margin(f, 0, -1) == -1.0); /* `switch_margin 0`: none */
  CHECK(goap_file_switch_margin(f, -1, 2) == 0.2);
  CHECK(goap_file_switch_margin(f, -1, 1) == 0.0); /* none given: the runtime's default */
  CHECK(goap_file_switch_margin(NULL, 0, 0) == 0.0);
  CHECK(goap_file_switch_margin(f, 5, 0) == 0.0);
  log_t l;
  goap_sim_result res;
  /* get_in fails at 1 s, cools down until 5 s: the (failing) patrol runs in between */
  REQUIRE(simulate(f, "stuck", &l, &res));
  CHECK_STR(l.text, "0.0 plan 1: open_door; 1.0 fail open_door; 1.0 replan action_failed; "
                    "1.1 plan 1: patrol; 6.1 fail patrol; 6.1 replan action_failed; "
                    "6.2 plan 1: open_door; 7.2 fail open_door; 7.2 replan action_failed; "
                    "7.3 plan 1: patrol");
  /* investigate (1.5) does not beat guard (1) by more than the default margin 1: it waits */
  REQUIRE(simulate(f, "default_margin", &l, &res));
  CHECK_STR(l.text, "0.0 plan 1: patrol; 2.0 world heard_noise=1; 5.1 done guard; "
                    "5.1 plan 1: check_noise; 6.2 done investigate");
  /* with switch_margin 0.2 (the simulation) or 0 (the member's agent type) it interrupts */
  static const char *const switched =
      "0.0 plan 1: patrol; 2.0 world heard_noise=1; 2.1 replan better_goal; "
      "2.1 plan 1: check_noise; 3.2 done investigate; 3.2 plan 1: patrol; 8.3 done guard";
  REQUIRE(simulate(f, "small_margin", &l, &res));
  CHECK_STR(l.text, switched);
  REQUIRE(simulate(f, "typed", &l, &res));
  CHECK_STR(l.text, switched);
  goap_file_destroy(f);
  /* a goal with no plan cools down too, even when memory changes (the key is seen at 1 s):
   * tried again at the first idle retry after 5 s, not at once */
  static const char *const key_text =
      "var key_seen: bool sensed\nvar has_key: bool\n"
      "action pick_key\n  pre key_seen\n  eff has_key\n"
      "goal get_key\n  want has_key\n  cooldown 5\n"
      "simulation later\n  at 1 key_seen\n  until 10\n";
  f = parse(key_text);
  REQUIRE(f != NULL);
  REQUIRE(simulate(f, "later", &l, &res));
  CHECK_STR(l.text,
            "1.0 world key_seen=1; 5.2 replan idle; 5.2 plan 1: pick_key; 5.3 done get_key");
  goap_file_destroy(f);
}

TEST(attributes) {
  goap_file *f = parse(guard_text);
  REQUIRE(f != NULL);
  const goap_domain *d = goap_file_domain(f);
  int patrol = goap_domain_find_action(d, "patrol"), fight = goap_domain_find_goal(d, "fight");
  goap_file_action_info ai;
  CHECK_EQ_INT(goap_file_action_info_get(f, patrol, &ai), GOAP_OK);
  CHECK_NEAR(ai.duration, 10.0, 0);
  CHECK_NEAR(ai.timeout, 30.0, 0);
  REQUIRE(ai.watch_count == 1 && ai.on_fail_count == 1);
  CHECK_EQ_INT(ai.watch[0], goap_domain_find_var(d, "see_player"));
  CHECK_EQ_INT(ai.on_fail[0].op, GOAP_ADD);
  CHECK_EQ_INT(ai.on_fail[0].value, 1);
  CHECK_NEAR(goap_domain_action_cost(d, goap_domain_find_action(d, "attack")), 2.0, 0);
  goap_file_goal_info gi;
  CHECK_EQ_INT(goap_file_goal_info_get(f, fight, &gi), GOAP_OK);
  CHECK_EQ_INT(gi.valid_count, 2);
  CHECK_EQ_INT(gi.valid[1].op, GOAP_LT);
  CHECK_EQ_INT(gi.watch_count, 0);
  CHECK(goap_file_is_world_var(f, goap_domain_find_var(d, "player_near")));
  CHECK(!goap_file_is_world_var(f, goap_domain_find_var(d, "tired")));
  CHECK_EQ_INT(goap_file_action_info_get(f, 99, &ai), GOAP_INVALID_ARGUMENT);
  goap_action_binding ab[3];
  goap_goal_binding gb[2];
  CHECK_EQ_INT(goap_file_bindings(f, ab, 2, gb, 2), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_file_bindings(f, ab, 3, gb, 2), GOAP_OK);
  CHECK_NEAR(ab[patrol].timeout, 30.0, 0);
  CHECK(ab[patrol].tick == NULL);
  CHECK_EQ_INT(gb[fight].valid_count, 2);
  /* the bindings make a working agent type */
  goap_agent_type_desc td;
  memset(&td, 0, sizeof td);
  td.actions = ab;
  td.action_count = 3;
  td.goals = gb;
  td.goal_count = 2;
  goap_agent_type *t = NULL;
  CHECK_EQ_INT(goap_agent_type_create(d, &td, &t, NULL), GOAP_OK);
  goap_agent_type_destroy(t);
  CHECK_EQ_INT(goap_file_simulation_count(f), 2);
  CHECK_STR(goap_file_simulation_name(f, 1), "lazy");
  CHECK(goap_file_simulation_name(f, 2) == NULL);
  CHECK_EQ_INT(goap_file_find_simulation(f, "nope"), -1);
  goap_file_destroy(f);
}

/* A sensor brings a world change into memory; the watched goal is interrupted at once and
 * the more important goal (now valid) is pursued; then the patrol resumes. */
TEST(sense_watch_and_timeouts) {
  goap_file *f = parse(guard_text);
  REQUIRE(f != NULL);
  log_t l;
  goap_sim_result res;
  REQUIRE(simulate(f, "intruder", &l, &res));
  CHECK_STR(l.text, "0.0 plan 2: go_to_post patrol; 2.5 world see_player=1; 2.5 replan watch; "
                    "2.5 plan 2: attack; "
                    "4.0 done fight; 4.0 plan 1: patrol; 14.5 done guard");
  CHECK_EQ_INT(res.replans, 2);
  CHECK_EQ_INT(res.failed, 0);
  CHECK_EQ_INT(res.idle, 1);
  /* `fail patrol` (always): the patrol fails after its 10 s duration... but the run ends at
   * 3 s, so the final expectation fails and says why */
  REQUIRE(simulate(f, "lazy", &l, &res));
  CHECK_EQ_INT(res.failed, 1);
  CHECK_EQ_INT(res.idle, 0);
  CHECK_STR(res.message, "expected final memory 'patrolled', but the value is false");
  CHECK_EQ_INT(res.line, 41); /* the `expect final` line, at the failing condition */
  CHECK_EQ_INT(res.col, 16);
  /* options override the file: long enough for the failure, which teaches tired += 1 */
  goap_sim_options o;
  memset(&o, 0, sizeof o);
  o.until = 25;
  goap_sim_result r2;
  CHECK_EQ_INT(goap_file_simulate(f, goap_file_find_simulation(f, "lazy"), &o, &r2), GOAP_OK);
  CHECK(r2.stats.actions_failed >= 2);
  CHECK_EQ_INT((int)r2.stats.replans[GOAP_REPLAN_ACTION_FAILED], (int)r2.stats.actions_failed);
  CHECK_EQ_INT(goap_file_simulate(f, 5, NULL, &r2), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_file_simulate(NULL, 0, NULL, &r2), GOAP_INVALID_ARGUMENT);
  o.step = -1;
  CHECK_EQ_INT(goap_file_simulate(f, 0, &o, &r2), GOAP_INVALID_ARGUMENT);
  goap_file_destroy(f);
}

/* A timeout shorter than the duration fails the action as a timeout. */
TEST(timeout_in_simulation) {
  goap_file *f = parse("var done: bool\nvar slow: bool\n"
                       "action work\n  pre !slow\n  eff done\n  duration 5\n  timeout 2\n  on_fail slow\n"
                       "action work_slowly\n  cost 3\n  pre slow\n  eff done\n  duration 5\n"
                       "goal g\n  want done\n"
                       "simulation s\n  step 0.5\n  expect replans 1\n  expect final done\n");
  REQUIRE(f != NULL);
  log_t l;
  goap_sim_result res;
  REQUIRE(simulate(f, "s", &l, &res));
  CHECK_STR(l.text, "0.0 plan 1: work; 2.0 timeout work; 2.0 replan timeout; "
                    "2.5 plan 3: work_slowly; 8.0 done g");
  CHECK_EQ_INT(res.failed, 0);
  goap_file_destroy(f);
}

TEST(simulation_out_of_memory) {
  goap_file *f = NULL;
  REQUIRE(goap_file_load(GOAP_EXAMPLES_DIR "/soldier.goap", NULL, &f, NULL) == GOAP_OK);
  int sim = goap_file_find_simulation(f, "both"), ok = 0;
  for (size_t k = 0; k < 500 && !ok; ++k) {
    test_alloc c = {0};
    c.fail_at = k + 1; /* refuse the call after the first k, only that one */
    goap_sim_options o;
    memset(&o, 0, sizeof o);
    o.allocator = test_alloc_hook(&c);
    goap_sim_result res;
    goap_status st = goap_file_simulate(f, sim, &o, &res);
    CHECK(st == GOAP_OK || st == GOAP_OUT_OF_MEMORY);
    if (st == GOAP_OK && c.calls <= k) ok = 1; /* no allocation failed: done */
    if (st == GOAP_OK) CHECK_EQ_INT(res.failed, 0);
    CHECK_EQ_INT(c.live, 0);
    CHECK_EQ_INT(c.bad_old_size, 0);
    CHECK_EQ_INT(c.unknown_ptr, 0);
  }
  CHECK(ok);
  goap_file_destroy(f);
}

/* The squad: who flanks depends on the roles; the flank slot is never shared; the token
 * counter rises while the gunner suppresses; the medic rescues the member who went down. */
typedef struct squad_log {
  char text[4096];
  size_t n;
  const goap_domain *d;
  int tokens_max;
} squad_log;

static void squad_event(goap_agent *agent, const goap_agent_event *ev, void *user) {
  squad_log *l = (squad_log *)user;
  const char *who = (const char *)goap_agent_host(agent);
  char buf[256];
  buf[0] = '\0';
  switch (ev->kind) {
    case GOAP_EVENT_PLAN: {
      size_t n = (size_t)snprintf(buf, sizeof buf, "%s %s:", who,
                                  goap_domain_goal_name(l->d, ev->goal));
      for (int i = 0; i < ev->plan_length && n < sizeof buf; ++i)
        n += (size_t)snprintf(buf + n, sizeof buf - n, " %s",
                              goap_domain_action_name(l->d, ev->plan[i]));
      break;
    }
    case GOAP_EVENT_RESERVATION_DENIED:
      snprintf(buf, sizeof buf, "%s denied %s", who, ev->resource);
      break;
    case GOAP_EVENT_MEMORY: {
      goap_var_info vi;
      goap_domain_var_info(l->d, ev->var, &vi);
      if (strcmp(vi.name, "suppressive_fire_tokens") == 0 && ev->value > l->tokens_max)
        l->tokens_max = ev->value;
      return;
    }
    default: return;
  }
  size_t k = strlen(buf);
  if (l->n + k + 3 >= sizeof l->text) return;
  if (l->n) {
    memcpy(l->text + l->n, "; ", 2);
    l->n += 2;
  }
  memcpy(l->text + l->n, buf, k + 1);
  l->n += k;
}

TEST(squad_flank) {
  goap_file *f = NULL;
  REQUIRE(goap_file_load(GOAP_EXAMPLES_DIR "/squad.goap", NULL, &f, NULL) == GOAP_OK);
  const goap_domain *d = goap_file_domain(f);
  CHECK_EQ_INT(goap_file_agent_type_count(f), 5);
  CHECK_EQ_INT(goap_file_resource_count(f), 1);
  const char *rname = NULL;
  int cap = 0;
  CHECK_EQ_INT(goap_file_resource(f, 0, &rname, &cap), GOAP_OK);
  CHECK_STR(rname, "flank_slot");
  CHECK_EQ_INT(cap, 1);
  /* the shotgunner's bindings: its role scales flank_to_cover, it lacks rescue */
  goap_action_binding ab[16];
  goap_goal_binding gb[8];
  int na = goap_domain_action_count(d), ng = goap_domain_goal_count(d);
  int shotgunner = goap_file_find_agent_type(f, "shotgunner");
  REQUIRE(shotgunner >= 0);
  REQUIRE(goap_file_agent_bindings(f, shotgunner, ab, na, gb, ng) == GOAP_OK);
  CHECK_NEAR(ab[goap_domain_find_action(d, "flank_to_cover")].cost_scale, 0.3, 1e-12);
  CHECK_EQ_INT(ab[goap_domain_find_action(d, "rescue")].disabled, 1);
  CHECK_EQ_INT(ab[goap_domain_find_action(d, "throw_smoke")].disabled, 0);
  CHECK_EQ_INT(gb[goap_domain_find_goal(d, "save_member")].disabled, 1);
  CHECK_EQ_INT(ab[goap_domain_find_action(d, "flank_to_cover")].reserve_count, 1);
  CHECK_STR(ab[goap_domain_find_action(d, "flank_to_cover")].reserve[0], "flank_slot");
  CHECK_EQ_INT(goap_file_agent_bindings(f, 99, ab, na, gb, ng), GOAP_INVALID_ARGUMENT);
  struct {
    const char *sim;
    const char *log;
  } runs[] = {
      {"flank",
       "gunner suppress: move_to_cover provide_suppression; rifleman1 take_cover: move_to_cover; "
       "rifleman2 take_cover: move_to_cover; shotgunner take_cover: move_to_cover; "
       "medic take_cover: move_to_cover; rifleman1 kill_player: fire_from_cover; "
       "rifleman2 kill_player: fire_from_cover; "
       "shotgunner kill_player: throw_smoke flank_to_cover close_range_fire; "
       "medic save_member: rescue"},
      {"assault_flanks",
       "gunner suppress: move_to_cover provide_suppression; rifleman1 take_cover: move_to_cover; "
       "rifleman2 take_cover: move_to_cover; shotgunner take_cover: move_to_cover; "
       "medic take_cover: move_to_cover; "
       "rifleman1 kill_player: throw_smoke flank_to_cover close_range_fire; "
       "rifleman2 kill_player: fire_from_cover; shotgunner denied flank_slot; "
       "shotgunner kill_player: fire_from_cover"},
  };
  for (size_t i = 0; i < sizeof runs / sizeof runs[0]; ++i) {
    squad_log l;
    memset(&l, 0, sizeof l);
    l.d = d;
    goap_sim_options o;
    memset(&o, 0, sizeof o);
    o.on_event = squad_event;
    o.event_user = &l;
    goap_sim_result res;
    REQUIRE(goap_file_simulate(f, goap_file_find_simulation(f, runs[i].sim), &o, &res) ==
            GOAP_OK);
    /* the story up to the kill (what follows is everyone going back to cover) */
    CHECK(strncmp(l.text, runs[i].log, strlen(runs[i].log)) == 0);
    if (strncmp(l.text, runs[i].log, strlen(runs[i].log)) != 0)
      fprintf(stderr, "  got:  %s\n  want: %s\n", l.text, runs[i].log);
    CHECK_EQ_INT(l.tokens_max, 1);
    CHECK_EQ_INT(res.failed, 0);
    CHECK_EQ_INT((int)res.stats.reservations_denied, i == 1);
  }
  goap_file_destroy(f);
}

TEST_MAIN(TEST_ENTRY(soldier_live_scene), TEST_ENTRY(sensed_variables_and_failures),
          TEST_ENTRY(goal_cooldown_and_switch_margin), TEST_ENTRY(squad_flank),
          TEST_ENTRY(attributes),
          TEST_ENTRY(sense_watch_and_timeouts), TEST_ENTRY(timeout_in_simulation),
          TEST_ENTRY(simulation_out_of_memory))
