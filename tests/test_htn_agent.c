/*
 * test_htn_agent.c -- agents that run HTN plans (goap_agent_type_desc.htn): execution with the
 * callbacks, pause/resume from the run-time state, failure memory choosing another method,
 * watched variables under the MTR rule (kept / replaced), timeouts, broken preconditions,
 * allocation behaviour, type validation, and the `htn` / `watch` lines of agent blocks.
 *
 * Domains are written as .goap text; every expectation is checked against a timeline the
 * agent reports through its events and callbacks.
 */
#include <goap/agent.h>
#include <goap/file.h>
#include <goap/sim.h>
#include <goap/htn.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc_hook.h"
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

/* ---- a scripted host --------------------------------------------------------------------- */

typedef struct host {
  const goap_domain *d;
  char log[8192];
  int need[32];       /* ticks an action runs before it succeeds (0: at its first tick) */
  int fails[32];      /* 1: it fails at its last tick; 2: it runs forever */
  int ticks[32];
  int set_on;         /* during this action's first tick, write memory (set_var = set_val) */
  int set_var, set_val;
  int stops;
  int refuse;         /* action id + 1 whose procedural check says no (0: no checks) */
} host;

static void logf_(host *h, const char *fmt, const char *s) {
  size_t n = strlen(h->log);
  snprintf(h->log + n, sizeof h->log - n, fmt, s);
}

static void h_start(goap_agent *a, int act, void *user) {
  (void)a;
  host *h = (host *)user;
  h->ticks[act] = 0;
  logf_(h, "+%s ", goap_domain_action_name(h->d, act));
}

static goap_action_state h_tick(goap_agent *a, int act, double dt, void *user) {
  (void)dt;
  host *h = (host *)user;
  if (h->set_on == act && h->ticks[act] == 0) goap_agent_set(a, h->set_var, h->set_val);
  if (h->fails[act] == 2) return GOAP_ACTION_RUNNING;
  if (h->ticks[act]++ < h->need[act]) return GOAP_ACTION_RUNNING;
  return h->fails[act] ? GOAP_ACTION_FAILURE : GOAP_ACTION_SUCCESS;
}

static void h_stop(goap_agent *a, int act, void *user) {
  (void)a;
  host *h = (host *)user;
  h->stops++;
  logf_(h, "!%s ", goap_domain_action_name(h->d, act));
}

static int h_check(goap_agent *a, int act, void *user) {
  (void)a;
  host *h = (host *)user;
  logf_(h, "?%s ", goap_domain_action_name(h->d, act));
  return act + 1 != h->refuse;
}

static void h_event(goap_agent *a, const goap_agent_event *ev, void *user) {
  (void)a;
  host *h = (host *)user;
  switch (ev->kind) {
    case GOAP_EVENT_PLAN: {
      logf_(h, "%s", ev->reason == GOAP_REPLAN_NONE ? "cont[" : "plan[");
      for (int i = 0; i < ev->plan_length; ++i)
        logf_(h, i ? " %s" : "%s", goap_domain_action_name(h->d, ev->plan[i]));
      logf_(h, "%s", "] ");
      break;
    }
    case GOAP_EVENT_REPLAN:
      if (ev->reason != GOAP_REPLAN_START) logf_(h, "replan:%s ", goap_replan_reason_name(ev->reason));
      break;
    case GOAP_EVENT_ACTION_SUCCESS: logf_(h, "ok:%s ", goap_domain_action_name(h->d, ev->action)); break;
    case GOAP_EVENT_ACTION_FAILURE:
      logf_(h, ev->timeout ? "timeout:%s " : "fail:%s ", goap_domain_action_name(h->d, ev->action));
      break;
    case GOAP_EVENT_GOAL_DONE: logf_(h, "%s", "done "); break;
    case GOAP_EVENT_IDLE: logf_(h, "%s", "idle "); break;
    case GOAP_EVENT_PLAN_FAILED: logf_(h, "%s", "noplan "); break;
    default: break;
  }
}

/* An HTN agent type over file f's tasks: root task `root`, every action bound to the host,
 * the file's runtime lines (on_fail, timeout, watch, on_start, on_end), `watch` variables. */
static goap_agent_type *htn_type(const goap_file *f, const char *root, host *h,
                                 const char *const *watch, int nwatch) {
  const goap_domain *d = goap_file_domain(f);
  int na = goap_domain_action_count(d), ng = goap_domain_goal_count(d);
  goap_action_binding ab[32];
  goap_goal_binding gb[8];
  int32_t wv[8];
  if (na > 32 || ng > 8 || nwatch > 8) return NULL;
  if (goap_file_bindings(f, ab, na, gb, ng) != GOAP_OK) return NULL;
  for (int i = 0; i < na; ++i) {
    ab[i].start = h_start;
    ab[i].tick = h_tick;
    ab[i].stop = h_stop;
    ab[i].user = h;
    if (h->refuse) {
      ab[i].check = h_check;
      ab[i].check_user = h;
    }
  }
  for (int i = 0; i < nwatch; ++i) wv[i] = goap_domain_find_var(d, watch[i]);
  goap_agent_type_desc td;
  memset(&td, 0, sizeof td);
  td.actions = ab;
  td.action_count = na;
  td.htn = goap_file_htn(f);
  td.htn_root = goap_htn_domain_find_task(td.htn, root);
  td.htn_watch = nwatch ? wv : NULL;
  td.htn_watch_count = nwatch;
  goap_agent_type *t = NULL;
  goap_error err;
  if (goap_agent_type_create(d, &td, &t, &err) != GOAP_OK) {
    fprintf(stderr, "type: %s\n", err.message);
    return NULL;
  }
  return t;
}

static goap_agent *htn_agent(goap_agent_type *t, host *h, const goap_allocator *al) {
  goap_agent_desc ad;
  memset(&ad, 0, sizeof ad);
  ad.type = t;
  ad.on_event = h_event;
  ad.event_user = h;
  if (al) ad.allocator = *al;
  goap_agent *a = NULL;
  return goap_agent_create(&ad, &a, NULL) == GOAP_OK ? a : NULL;
}

static void run(goap_agent *a, int n) {
  for (int i = 0; i < n; ++i) goap_agent_update(a, 0.1);
}

static int var(const goap_file *f, const char *name) {
  return goap_domain_find_var(goap_file_domain(f), name);
}

static int act(const goap_file *f, const char *name) {
  return goap_domain_find_action(goap_file_domain(f), name);
}

/* ---- execution --------------------------------------------------------------------------- */

static const char *const steps_text =
    "var a_done: bool\nvar b_done: bool\nvar c_done: bool\nvar busy: int 0..3\n"
    "action a\n  eff a_done\n"
    "action b\n  pre a_done\n  eff b_done\n  on_start busy += 1\n  on_end busy -= 1\n"
    "action c\n  pre b_done\n  eff c_done\n"
    "task root\n"
    "  method work\n    when !c_done\n    do a b c\n"
    "  method rest\n";

/* The plan runs step by step through the callbacks; effects are written when an action
 * succeeds; the finished plan replans from the root, which has nothing left: idle. */
TEST(steps_and_callbacks) {
  goap_file *f = parse(steps_text);
  REQUIRE(f != NULL);
  host h;
  memset(&h, 0, sizeof h);
  h.d = goap_file_domain(f);
  h.set_on = -1;
  h.need[act(f, "b")] = 3;
  goap_agent_type *t = htn_type(f, "root", &h, NULL, 0);
  REQUIRE(t != NULL);
  int root = -5;
  CHECK(goap_agent_type_htn(t, &root) == goap_file_htn(f));
  CHECK_EQ_INT(root, 0);
  goap_agent *a = htn_agent(t, &h, NULL);
  REQUIRE(a != NULL);
  CHECK_EQ_INT(goap_agent_update(a, 0.1), GOAP_OK);
  int len = 0, step = -1, mlen = 0;
  const int32_t *plan = goap_agent_plan(a, &len, &step);
  REQUIRE(plan != NULL);
  CHECK_EQ_INT(len, 3);
  CHECK_EQ_INT(goap_agent_goal(a), -1);
  const int32_t *mtr = goap_agent_htn_mtr(a, &mlen);
  REQUIRE(mtr != NULL);
  CHECK_EQ_INT(mlen, 1);
  CHECK_EQ_INT(mtr[0], 0);
  CHECK_EQ_INT(goap_agent_get(a, var(f, "a_done")), 1); /* a succeeded at its first tick */
  goap_agent_update(a, 0.1);                           /* b starts */
  CHECK_EQ_INT(goap_agent_action(a), act(f, "b"));
  CHECK_EQ_INT(goap_agent_get(a, var(f, "busy")), 1); /* on_start */
  CHECK_EQ_INT(goap_agent_get(a, var(f, "b_done")), 0);
  run(a, 3); /* b's 4th tick: success */
  CHECK_EQ_INT(goap_agent_get(a, var(f, "b_done")), 1);
  CHECK_EQ_INT(goap_agent_get(a, var(f, "busy")), 0); /* on_end */
  CHECK_EQ_INT(goap_agent_update(a, 0.1), GOAP_OK);   /* c */
  CHECK_EQ_INT(goap_agent_get(a, var(f, "c_done")), 1);
  run(a, 3);
  CHECK_STR(h.log, "plan[a b c] +a ok:a +b ok:b +c ok:c done replan:plan_done idle ");
  CHECK(goap_agent_plan(a, &len, NULL) == NULL); /* idle */
  CHECK_EQ_INT(len, 0);
  goap_agent_stats st = goap_agent_get_stats(a);
  CHECK_EQ_INT((int)st.plans, 1);
  CHECK_EQ_INT((int)st.actions_started, 3);
  CHECK_EQ_INT((int)st.actions_succeeded, 3);
  CHECK_EQ_INT((int)st.replans[GOAP_REPLAN_PLAN_DONE], 1);
  CHECK_EQ_INT(goap_agent_order(a, 0, 5.0), GOAP_INVALID_ARGUMENT); /* no goals */
  goap_agent_destroy(a);
  goap_agent_type_destroy(t);
  goap_file_destroy(f);
}

/* ---- pause / resume ---------------------------------------------------------------------- */

static const char *const pause_text =
    "var scouted: bool\nvar seen_troll: bool\nvar fled: bool\nvar fought: bool\n"
    "action scout\n  eff scouted\n"
    "action flee\n  pre scouted\n  eff fled\n"
    "action fight\n  pre scouted\n  eff fought\n"
    "task root\n"
    "  method go\n    when !scouted\n    do scout pause react\n"
    "  method rest\n"
    "task react\n"
    "  method run_away\n    when seen_troll\n    do flee\n"
    "  method stand\n    do fight\n";

/* The plan ends at the pause; when scout is done, decomposition resumes from the memory the
 * agent then has: scout's own tick learns (or not) that there is a troll. */
TEST(pause_resume_from_runtime_state) {
  for (int troll = 0; troll < 2; ++troll) {
    goap_file *f = parse(pause_text);
    REQUIRE(f != NULL);
    host h;
    memset(&h, 0, sizeof h);
    h.d = goap_file_domain(f);
    h.set_on = troll ? act(f, "scout") : -1;
    h.set_var = var(f, "seen_troll");
    h.set_val = 1;
    h.need[act(f, "scout")] = 2;
    goap_agent_type *t = htn_type(f, "root", &h, NULL, 0);
    REQUIRE(t != NULL);
    goap_agent *a = htn_agent(t, &h, NULL);
    REQUIRE(a != NULL);
    goap_agent_update(a, 0.1);
    int len = 0, mlen = 0;
    goap_agent_plan(a, &len, NULL);
    CHECK_EQ_INT(len, 1); /* scout, then the pause */
    goap_agent_htn_mtr(a, &mlen);
    CHECK_EQ_INT(mlen, 1);
    run(a, 2); /* scout succeeds at its third tick */
    CHECK_EQ_INT(goap_agent_get(a, var(f, "scouted")), 1);
    CHECK(goap_agent_htn_mtr(a, &mlen) != NULL);
    CHECK_EQ_INT(mlen, 1); /* not resumed yet */
    goap_agent_update(a, 0.1); /* resumes: react decomposed now, its action runs */
    const int32_t *mtr = goap_agent_htn_mtr(a, &mlen);
    REQUIRE(mtr != NULL);
    CHECK_EQ_INT(mlen, 2);
    CHECK_EQ_INT(mtr[0], 0);
    CHECK_EQ_INT(mtr[1], troll ? 0 : 1);
    run(a, 3);
    CHECK_EQ_INT(goap_agent_get(a, var(f, "fled")), troll);
    CHECK_EQ_INT(goap_agent_get(a, var(f, "fought")), !troll);
    CHECK_STR(h.log, troll ? "plan[scout] +scout ok:scout cont[flee] +flee ok:flee done "
                             "replan:plan_done idle "
                           : "plan[scout] +scout ok:scout cont[fight] +fight ok:fight done "
                             "replan:plan_done idle ");
    CHECK_EQ_INT((int)goap_agent_get_stats(a).plans, 1); /* a continuation is no new plan */
    goap_agent_destroy(a);
    goap_agent_type_destroy(t);
    goap_file_destroy(f);
  }
}

/* ---- failure memory ---------------------------------------------------------------------- */

static const char *const door_text =
    "var door_stuck: bool\nvar door_open: bool\nvar inside: bool\n"
    "action open_door\n  eff door_open\n  on_fail door_stuck\n"
    "action kick_door\n  cost 3\n  eff door_open\n"
    "action go_in\n  pre door_open\n  eff inside\n"
    "task root\n"
    "  method enter\n    when !inside\n    do get_in\n"
    "  method rest\n"
    "task get_in\n"
    "  method politely\n    when !door_stuck\n    do open_door go_in\n"
    "  method by_force\n    do kick_door go_in\n";

/* open_door fails: on_fail writes door_stuck, the agent replans from the root and the
 * decomposition takes the other method. */
TEST(failure_memory_other_method) {
  goap_file *f = parse(door_text);
  REQUIRE(f != NULL);
  host h;
  memset(&h, 0, sizeof h);
  h.d = goap_file_domain(f);
  h.set_on = -1;
  h.fails[act(f, "open_door")] = 1;
  h.need[act(f, "open_door")] = 1;
  goap_agent_type *t = htn_type(f, "root", &h, NULL, 0);
  REQUIRE(t != NULL);
  goap_agent *a = htn_agent(t, &h, NULL);
  REQUIRE(a != NULL);
  goap_agent_update(a, 0.1);
  int mlen = 0;
  const int32_t *mtr = goap_agent_htn_mtr(a, &mlen);
  REQUIRE(mtr != NULL && mlen == 2);
  CHECK_EQ_INT(mtr[1], 0); /* politely */
  goap_agent_update(a, 0.1); /* open_door fails */
  CHECK_EQ_INT(goap_agent_get(a, var(f, "door_stuck")), 1);
  goap_agent_update(a, 0.1);
  mtr = goap_agent_htn_mtr(a, &mlen);
  REQUIRE(mtr != NULL && mlen == 2);
  CHECK_EQ_INT(mtr[1], 1); /* by_force */
  run(a, 4);
  CHECK_EQ_INT(goap_agent_get(a, var(f, "inside")), 1);
  CHECK_STR(h.log, "plan[open_door go_in] +open_door fail:open_door replan:action_failed "
                   "plan[kick_door go_in] +kick_door ok:kick_door +go_in ok:go_in done "
                   "replan:plan_done idle ");
  goap_agent_stats st = goap_agent_get_stats(a);
  CHECK_EQ_INT((int)st.replans[GOAP_REPLAN_ACTION_FAILED], 1);
  CHECK_EQ_INT((int)st.actions_failed, 1);
  CHECK_EQ_INT((int)st.plans, 2);
  goap_agent_destroy(a);
  goap_agent_type_destroy(t);
  goap_file_destroy(f);
}

/* A procedural check that says no is a failure of the action before it starts: its on_fail
 * is written and the decomposition takes the other method. */
TEST(procedural_check_fails_the_action) {
  goap_file *f = parse(door_text);
  REQUIRE(f != NULL);
  host h;
  memset(&h, 0, sizeof h);
  h.d = goap_file_domain(f);
  h.set_on = -1;
  h.refuse = act(f, "open_door") + 1;
  goap_agent_type *t = htn_type(f, "root", &h, NULL, 0);
  REQUIRE(t != NULL);
  goap_agent *a = htn_agent(t, &h, NULL);
  REQUIRE(a != NULL);
  run(a, 6);
  CHECK_EQ_INT(goap_agent_get(a, var(f, "door_stuck")), 1);
  CHECK_EQ_INT(goap_agent_get(a, var(f, "inside")), 1);
  CHECK_STR(h.log, "plan[open_door go_in] ?open_door fail:open_door replan:action_failed "
                   "plan[kick_door go_in] ?kick_door +kick_door ok:kick_door ?go_in +go_in "
                   "ok:go_in done replan:plan_done idle ");
  CHECK_EQ_INT((int)goap_agent_get_stats(a).actions_started, 2);
  goap_agent_destroy(a);
  goap_agent_type_destroy(t);
  goap_file_destroy(f);
}

/* A plan whose reservation is refused is not adopted: the agent idles, and adopts it once
 * the resource is free. The unit is released when the action ends. */
TEST(reservation) {
  goap_file *f = parse("resource sword capacity 1\nvar armed: bool\nvar won: bool\n"
                       "action duel\n  eff won\n  reserve sword\n"
                       "task root\n  method fight\n    when !won\n    do duel\n  method rest\n");
  REQUIRE(f != NULL);
  host h;
  memset(&h, 0, sizeof h);
  h.d = goap_file_domain(f);
  h.set_on = -1;
  h.need[act(f, "duel")] = 3;
  goap_agent_type *t = htn_type(f, "root", &h, NULL, 0);
  REQUIRE(t != NULL);
  goap_blackboard *bb = NULL;
  REQUIRE(goap_blackboard_create(NULL, &bb) == GOAP_OK);
  REQUIRE(goap_blackboard_add_resource(bb, "sword", 0) == GOAP_OK); /* someone has it */
  goap_agent_desc ad;
  memset(&ad, 0, sizeof ad);
  ad.type = t;
  ad.blackboard = bb;
  ad.on_event = h_event;
  ad.event_user = &h;
  goap_agent *a = NULL;
  REQUIRE(goap_agent_create(&ad, &a, NULL) == GOAP_OK);
  CHECK_EQ_INT(goap_agent_update(a, 0.1), GOAP_NO_PLAN);
  run(a, 3);
  CHECK_EQ_INT(goap_agent_get(a, var(f, "won")), 0);
  CHECK_EQ_INT(goap_blackboard_set_capacity(bb, "sword", 1), GOAP_OK);
  run(a, 4); /* retried after goal_check_interval: adopted, the duel holds the sword */
  int held = -1, cap = -1;
  goap_blackboard_resource(bb, "sword", &held, &cap);
  CHECK_EQ_INT(held, 1);
  run(a, 6);
  CHECK_EQ_INT(goap_agent_get(a, var(f, "won")), 1);
  goap_blackboard_resource(bb, "sword", &held, &cap);
  CHECK_EQ_INT(held, 0);
  CHECK(goap_agent_get_stats(a).reservations_denied >= 1);
  goap_agent_destroy(a);
  goap_blackboard_destroy(bb);
  goap_agent_type_destroy(t);
  goap_file_destroy(f);
}

/* ---- watched variables and the MTR rule -------------------------------------------------- */

static const char *const mtr_text =
    "var enemy: bool\nvar near: bool\nvar hurt: bool\nvar looked: bool\nvar trunk: bool\n"
    "action walk\n  eff near\n"
    "action slam\n  pre near\n  eff hurt\n"
    "action punch\n  pre near\n  eff hurt\n"
    "action look\n  eff looked\n"
    "task root\n"
    "  method attack\n    when enemy, !hurt\n    do fight\n"
    "  method patrol\n    when !looked\n    do look\n"
    "  method rest\n"
    "task fight\n"
    "  method with_trunk\n    when trunk\n    do walk slam\n"
    "  method bare\n    do walk punch\n";

typedef struct mtr_case {
  const char *given;   /* memory at the start: "enemy", "trunk" ... */
  const char *change;  /* the watched variable written while the first action runs */
  int32_t value;
  int replaced;        /* expected: 1 the new plan replaces the running one */
  const char *log;
} mtr_case;

static void run_mtr_case(int *test_failures_, const mtr_case *c) {
  goap_file *f = parse(mtr_text);
  REQUIRE(f != NULL);
  const goap_domain *d = goap_file_domain(f);
  host h;
  memset(&h, 0, sizeof h);
  h.d = d;
  h.set_on = -1;
  h.need[act(f, "walk")] = 5;
  h.need[act(f, "look")] = 5;
  static const char *const watch[] = {"enemy", "trunk"};
  goap_agent_type *t = htn_type(f, "root", &h, watch, 2);
  REQUIRE(t != NULL);
  goap_agent *a = htn_agent(t, &h, NULL);
  REQUIRE(a != NULL);
  if (strstr(c->given, "enemy")) goap_agent_set(a, var(f, "enemy"), 1);
  if (strstr(c->given, "trunk")) goap_agent_set(a, var(f, "trunk"), 1);
  run(a, 2); /* the first action runs */
  int mlen0 = 0, len0 = 0;
  const int32_t *m = goap_agent_htn_mtr(a, &mlen0);
  int32_t before[4] = {-1, -1, -1, -1};
  REQUIRE(m != NULL && mlen0 <= 4);
  memcpy(before, m, (size_t)mlen0 * sizeof *m);
  goap_agent_plan(a, &len0, NULL);
  int first = goap_agent_action(a);
  CHECK(first >= 0);
  goap_agent_set(a, var(f, c->change), c->value);
  goap_agent_update(a, 0.1);
  goap_agent_stats st = goap_agent_get_stats(a);
  CHECK_EQ_INT((int)st.replans[GOAP_REPLAN_WATCH], c->replaced);
  CHECK_EQ_INT(h.stops, c->replaced); /* a replaced plan's action is stopped */
  int mlen = 0;
  m = goap_agent_htn_mtr(a, &mlen);
  REQUIRE(m != NULL);
  int cmp = goap_htn_mtr_compare(m, mlen, before, mlen0);
  if (c->replaced) CHECK(cmp < 0); /* the new plan has the higher priority */
  else CHECK_EQ_INT(cmp, 0);       /* the same plan, still running */
  if (!c->replaced) CHECK_EQ_INT(goap_agent_action(a), first);
  run(a, 30);
  CHECK_STR(h.log, c->log);
  goap_agent_destroy(a);
  goap_agent_type_destroy(t);
  goap_file_destroy(f);
}

/* A lower-priority plan does NOT replace the running one: the enemy disappears mid-attack
 * (the root now decomposes to [patrol] = [1], after the running [attack bare] = [0 1]), or
 * the trunk is lost during a trunk attack ([0 1] after [0 0]); the attack goes on to its
 * end, its running action untouched. */
TEST(mtr_lower_priority_keeps_running_plan) {
  static const mtr_case gone = {
      "enemy", "enemy", 0, 0,
      "plan[walk punch] +walk ok:walk +punch ok:punch done replan:plan_done plan[look] +look "
      "ok:look done replan:plan_done idle "};
  static const mtr_case lost = {
      "enemy trunk", "trunk", 0, 0,
      "plan[walk slam] +walk ok:walk +slam ok:slam done replan:plan_done plan[look] +look "
      "ok:look done replan:plan_done idle "};
  run_mtr_case(test_failures_, &gone);
  run_mtr_case(test_failures_, &lost);
}

/* A higher-priority plan replaces the running one: the enemy appears while patrolling
 * ([0 1] beats [1]), and a trunk found during a bare-handed attack ([0 0] beats [0 1]). */
TEST(mtr_higher_priority_replaces_running_plan) {
  static const mtr_case patrol = {
      "", "enemy", 1, 1,
      "plan[look] +look !look replan:watch plan[walk punch] +walk ok:walk +punch ok:punch done "
      "replan:plan_done plan[look] +look ok:look done replan:plan_done idle "};
  static const mtr_case trunk = {
      "enemy", "trunk", 1, 1,
      "plan[walk punch] +walk !walk replan:watch plan[walk slam] +walk ok:walk +slam ok:slam "
      "done replan:plan_done plan[look] +look ok:look done replan:plan_done idle "};
  run_mtr_case(test_failures_, &patrol);
  run_mtr_case(test_failures_, &trunk);
}

/* Without watched variables, a change does not even trigger the search: the plan runs on. */
TEST(unwatched_change_is_ignored) {
  goap_file *f = parse(mtr_text);
  REQUIRE(f != NULL);
  host h;
  memset(&h, 0, sizeof h);
  h.d = goap_file_domain(f);
  h.set_on = -1;
  h.need[act(f, "look")] = 5;
  goap_agent_type *t = htn_type(f, "root", &h, NULL, 0);
  REQUIRE(t != NULL);
  goap_agent *a = htn_agent(t, &h, NULL);
  REQUIRE(a != NULL);
  run(a, 2);
  goap_agent_set(a, var(f, "enemy"), 1);
  run(a, 30);
  CHECK(strncmp(h.log, "plan[look] +look ok:look done replan:plan_done plan[walk punch]", 63) == 0);
  CHECK_EQ_INT((int)goap_agent_get_stats(a).replans[GOAP_REPLAN_WATCH], 0);
  goap_agent_destroy(a);
  goap_agent_type_destroy(t);
  goap_file_destroy(f);
}

/* ---- timeout and broken preconditions ---------------------------------------------------- */

static const char *const timeout_text =
    "var stuck: bool\nvar there: bool\nvar blocked: bool\nvar done: bool\n"
    "action climb\n  eff there\n  timeout 0.5\n  on_fail stuck\n"
    "action detour\n  eff there\n"
    "action finish\n  pre there, !blocked\n  eff done\n"
    "task root\n"
    "  method go\n    when !done\n    do reach finish\n"
    "  method rest\n"
    "task reach\n"
    "  method up\n    when !stuck\n    do climb\n"
    "  method around\n    do detour\n";

TEST(timeout_then_other_method) {
  goap_file *f = parse(timeout_text);
  REQUIRE(f != NULL);
  host h;
  memset(&h, 0, sizeof h);
  h.d = goap_file_domain(f);
  h.set_on = -1;
  h.fails[act(f, "climb")] = 2; /* never ends by itself */
  goap_agent_type *t = htn_type(f, "root", &h, NULL, 0);
  REQUIRE(t != NULL);
  goap_agent *a = htn_agent(t, &h, NULL);
  REQUIRE(a != NULL);
  run(a, 20);
  CHECK_EQ_INT(goap_agent_get(a, var(f, "stuck")), 1);
  CHECK_EQ_INT(goap_agent_get(a, var(f, "done")), 1);
  CHECK_STR(h.log, "plan[climb finish] +climb timeout:climb !climb replan:timeout "
                   "plan[detour finish] +detour ok:detour +finish ok:finish done "
                   "replan:plan_done idle ");
  CHECK_EQ_INT((int)goap_agent_get_stats(a).replans[GOAP_REPLAN_TIMEOUT], 1);
  goap_agent_destroy(a);
  goap_agent_type_destroy(t);
  goap_file_destroy(f);
}

/* The next step's preconditions broke (the host wrote memory): replan from the root. */
TEST(broken_preconditions_replan) {
  goap_file *f = parse(timeout_text);
  REQUIRE(f != NULL);
  host h;
  memset(&h, 0, sizeof h);
  h.d = goap_file_domain(f);
  h.set_on = act(f, "climb"); /* while climbing, the way on gets blocked */
  h.set_var = var(f, "blocked");
  h.set_val = 1;
  goap_agent_type *t = htn_type(f, "root", &h, NULL, 0);
  REQUIRE(t != NULL);
  goap_agent *a = htn_agent(t, &h, NULL);
  REQUIRE(a != NULL);
  run(a, 6);
  /* climb succeeds, finish cannot start; the root decomposes again: only `rest` applies */
  CHECK_STR(h.log, "plan[climb finish] +climb ok:climb replan:preconditions idle ");
  CHECK_EQ_INT((int)goap_agent_get_stats(a).replans[GOAP_REPLAN_PRECONDITIONS], 1);
  goap_agent_set(a, var(f, "blocked"), 0); /* memory changed: the idle agent retries */
  h.set_on = -1;
  run(a, 3);
  CHECK_EQ_INT(goap_agent_get(a, var(f, "done")), 1);
  CHECK_STR(h.log, "plan[climb finish] +climb ok:climb replan:preconditions idle replan:idle "
                   "plan[climb finish] +climb ok:climb +finish ok:finish done replan:plan_done ");
  goap_agent_destroy(a);
  goap_agent_type_destroy(t);
  goap_file_destroy(f);
}

/* ---- allocation -------------------------------------------------------------------------- */

/* One round: a plan, a kept plan (MTR), a replaced plan (watch), to the end. */
static void mtr_round(goap_agent *a, const goap_file *f) {
  goap_agent_set(a, var(f, "enemy"), 0);
  goap_agent_set(a, var(f, "hurt"), 0);
  goap_agent_set(a, var(f, "looked"), 0);
  goap_agent_set(a, var(f, "near"), 0);
  goap_agent_set(a, var(f, "trunk"), 0);
  goap_agent_reset(a);
  run(a, 2);                             /* patrol: look */
  goap_agent_set(a, var(f, "enemy"), 1); /* replaced by the attack */
  run(a, 2);
  goap_agent_set(a, var(f, "trunk"), 1); /* replaced by the trunk attack */
  run(a, 2);
  goap_agent_set(a, var(f, "enemy"), 0); /* kept */
  run(a, 30);
}

/* As for GOAP agents (test_agent.c: allocation): a warm agent runs without allocating, here
 * through plans, kept and replaced plans and pause/resume; the agent's memory_bytes is what it
 * holds; every allocation failure is reported (GOAP_OUT_OF_MEMORY), never a crash or leak. */
TEST(allocation) {
  goap_file *f = parse(mtr_text);
  REQUIRE(f != NULL);
  host h;
  memset(&h, 0, sizeof h);
  h.d = goap_file_domain(f);
  h.set_on = -1;
  h.need[act(f, "walk")] = 5;
  h.need[act(f, "look")] = 5;
  static const char *const watch[] = {"enemy", "trunk"};
  goap_agent_type *t = htn_type(f, "root", &h, watch, 2);
  REQUIRE(t != NULL);
  test_alloc c = {0};
  goap_allocator al = test_alloc_hook(&c);
  goap_agent *a = htn_agent(t, &h, &al);
  REQUIRE(a != NULL);
  size_t before = 0;
  for (int round = 0; round < 5; ++round) {
    if (round == 2) before = c.calls;
    h.log[0] = '\0';
    mtr_round(a, f);
    CHECK_EQ_INT(goap_agent_get(a, var(f, "hurt")), 1);
    CHECK_EQ_INT((int)goap_agent_get_stats(a).replans[GOAP_REPLAN_WATCH], 2 * (round + 1));
  }
  CHECK_EQ_INT(c.calls - before, 0);
  CHECK(goap_agent_get_stats(a).memory_bytes == c.outstanding);
  goap_agent_destroy(a);
  CHECK_EQ_INT(c.outstanding, 0);
  CHECK_EQ_INT(c.bad_old_size, 0);
  CHECK_EQ_INT(c.unknown_ptr, 0);
  /* failure injection: the n-th allocation fails, for every n until none does */
  int survived = 0;
  for (size_t n = 0; n < 400 && !survived; ++n) {
    test_alloc k = {0};
    k.fail_at = n + 1; /* n allocations succeed, every later one fails */
    k.fail_after = 1;
    goap_allocator kl = test_alloc_hook(&k);
    goap_agent *b = htn_agent(t, &h, &kl);
    if (b) {
      goap_status st = GOAP_OK;
      goap_agent_set(b, var(f, "enemy"), 0);
      for (int i = 0; i < 4 && st != GOAP_OUT_OF_MEMORY; ++i) st = goap_agent_update(b, 0.1);
      goap_agent_set(b, var(f, "enemy"), 1);
      for (int i = 0; i < 40 && st != GOAP_OUT_OF_MEMORY; ++i) st = goap_agent_update(b, 0.1);
      if (st != GOAP_OUT_OF_MEMORY) {
        survived = 1;
        CHECK_EQ_INT(goap_agent_get(b, var(f, "hurt")), 1);
      }
      goap_agent_destroy(b);
    }
    CHECK_EQ_INT(k.outstanding, 0);
    CHECK_EQ_INT(k.bad_old_size, 0);
    CHECK_EQ_INT(k.unknown_ptr, 0);
  }
  CHECK(survived);
  goap_agent_type_destroy(t);
  goap_file_destroy(f);
}

/* ---- validation -------------------------------------------------------------------------- */

TEST(type_validation) {
  goap_file *f = parse(steps_text);
  goap_file *g = parse(door_text);
  REQUIRE(f != NULL && g != NULL);
  const goap_domain *d = goap_file_domain(f);
  goap_agent_type_desc td;
  goap_agent_type *t = NULL;
  goap_error err;
  goap_action_binding ab[3];
  goap_goal_binding gb[1];
  int32_t w = 0;
  memset(ab, 0, sizeof ab);
  memset(gb, 0, sizeof gb);

  memset(&td, 0, sizeof td);
  td.htn = goap_file_htn(f);
  td.htn_root = 2; /* root, rest: only task 0 */
  CHECK_EQ_INT(goap_agent_type_create(d, &td, &t, &err), GOAP_INVALID_ARGUMENT);
  CHECK(strstr(err.message, "htn_root") != NULL);
  td.htn_root = -1;
  CHECK_EQ_INT(goap_agent_type_create(d, &td, &t, &err), GOAP_INVALID_ARGUMENT);

  memset(&td, 0, sizeof td);
  td.htn = goap_file_htn(g); /* over another domain */
  CHECK_EQ_INT(goap_agent_type_create(d, &td, &t, &err), GOAP_INVALID_ARGUMENT);
  CHECK(strstr(err.message, "same") != NULL || strstr(err.message, "goap_domain") != NULL);

  memset(&td, 0, sizeof td);
  td.htn = goap_file_htn(f);
  td.goals = gb;
  td.goal_count = goap_domain_goal_count(d); /* 0 goals, but a goal list is given */
  CHECK_EQ_INT(goap_agent_type_create(d, &td, &t, &err), GOAP_INVALID_ARGUMENT);

  memset(&td, 0, sizeof td);
  td.htn = goap_file_htn(f);
  td.actions = ab;
  td.action_count = 3;
  ab[1].disabled = 1;
  CHECK_EQ_INT(goap_agent_type_create(d, &td, &t, &err), GOAP_INVALID_ARGUMENT);
  CHECK(strstr(err.message, "disable") != NULL);
  ab[1].disabled = 0;

  memset(&td, 0, sizeof td);
  td.htn = goap_file_htn(f);
  w = 99;
  td.htn_watch = &w;
  td.htn_watch_count = 1;
  CHECK_EQ_INT(goap_agent_type_create(d, &td, &t, &err), GOAP_INVALID_ARGUMENT);

  memset(&td, 0, sizeof td); /* htn_root / htn_watch without htn */
  td.htn_root = 1;
  CHECK_EQ_INT(goap_agent_type_create(d, &td, &t, &err), GOAP_INVALID_ARGUMENT);
  memset(&td, 0, sizeof td);
  w = 0;
  td.htn_watch = &w;
  td.htn_watch_count = 1;
  CHECK_EQ_INT(goap_agent_type_create(d, &td, &t, &err), GOAP_INVALID_ARGUMENT);
  CHECK(t == NULL);

  memset(&td, 0, sizeof td); /* a valid one, and the GOAP type's answers */
  td.htn = goap_file_htn(f);
  CHECK_EQ_INT(goap_agent_type_create(d, &td, &t, &err), GOAP_OK);
  goap_agent_type_destroy(t);
  memset(&td, 0, sizeof td);
  CHECK_EQ_INT(goap_agent_type_create(d, &td, &t, &err), GOAP_OK);
  int root = 7;
  CHECK(goap_agent_type_htn(t, &root) == NULL);
  CHECK_EQ_INT(root, -1);
  CHECK(goap_agent_type_htn(NULL, NULL) == NULL);
  goap_agent_desc ad;
  memset(&ad, 0, sizeof ad);
  ad.type = t;
  goap_agent *a = NULL;
  REQUIRE(goap_agent_create(&ad, &a, NULL) == GOAP_OK);
  int mlen = 5;
  CHECK(goap_agent_htn_mtr(a, &mlen) == NULL);
  CHECK_EQ_INT(mlen, 0);
  CHECK(goap_agent_htn_mtr(NULL, NULL) == NULL);
  goap_agent_destroy(a);
  goap_agent_type_destroy(t);
  goap_file_destroy(f);
  goap_file_destroy(g);
}

/* ---- the format: `htn` and `watch` in agent blocks ---------------------------------------- */

static const char *const troll_base =
    "var enemy: bool\nvar hurt: bool\n"
    "action slam\n  eff hurt\n"
    "goal win\n  want hurt\n"
    "task root\n  method m\n    do slam\n";

static void check_error(int *test_failures_, const char *tail, goap_status st, int line, int col, const char *msg) {
  char text[2048];
  snprintf(text, sizeof text, "%s%s", troll_base, tail);
  goap_file *f = NULL;
  goap_error diag;
  memset(&diag, 0, sizeof diag);
  CHECK_EQ_INT(goap_file_parse("t.goap", text, strlen(text), NULL, &f, &diag), st);
  CHECK(f == NULL);
  CHECK_EQ_INT(diag.line, line);
  CHECK_EQ_INT(diag.col, col);
  if (!strstr(diag.message, msg)) {
    fprintf(stderr, "message: %s\n  wanted: %s\n", diag.message, msg);
    CHECK(0);
  }
  goap_file_destroy(f);
}

TEST(format_errors) {
  /* troll_base has 9 lines: the agent block starts on line 10 */
  check_error(test_failures_, "agent troll\n  htn rooot\n", GOAP_NOT_FOUND, 11, 7,
              "unknown task 'rooot'; did you mean 'root'?");
  check_error(test_failures_, "agent troll\n  htn slam\n", GOAP_INVALID_ARGUMENT, 11, 7,
              "'slam' is an action, not a task");
  check_error(test_failures_, "agent troll\n  htn win\n", GOAP_INVALID_ARGUMENT, 11, 7,
              "'win' is a goal, not a task");
  check_error(test_failures_, "agent troll\n  goals win\n  htn root\n", GOAP_CONFLICT, 12, 3,
              "an agent has either 'goals' or 'htn': this one has 'goals' (line 11)");
  check_error(test_failures_, "agent troll\n  htn root\n  goals win\n", GOAP_CONFLICT, 12, 3,
              "an agent has either 'goals' or 'htn': this one has 'htn' (line 11)");
  check_error(test_failures_, "agent troll\n  htn root\n  actions slam\n", GOAP_CONFLICT, 12, 3,
              "an agent has either 'actions' or 'htn': this one has 'htn' (line 11)");
  check_error(test_failures_, "agent troll\n  htn root\n  htn root\n", GOAP_DUPLICATE, 12, 3,
              "duplicate 'htn' in agent 'troll' (first at line 11)");
  check_error(test_failures_, "agent troll\n  watch enemy\n", GOAP_PARSE_ERROR, 11, 3,
              "'watch' in an agent block needs an 'htn' line");
  check_error(test_failures_, "agent troll\n  htn\n", GOAP_PARSE_ERROR, 11, 6, "expected a task name after 'htn'");
  check_error(test_failures_, "agent troll\n  htn root extra\n", GOAP_PARSE_ERROR, 11, 12,
              "expected end of line after the task name");
  check_error(test_failures_, "agent troll\n  watch enemmy\n  htn root\n", GOAP_NOT_FOUND, 11, 9,
              "unknown variable 'enemmy'");
  check_error(test_failures_, "htn root\n", GOAP_PARSE_ERROR, 10, 1, "'htn' must be inside an agent block");
}

/* A file's HTN agent type, then its simulation (the troll of examples/trunk_thumper.goap). */
TEST(file_agent_and_simulation) {
  const char *text =
      "var enemy: bool\nvar hurt: bool\nvar looked: bool\n"
      "action slam\n  eff hurt\n  duration 1\n"
      "action look\n  eff looked\n  duration 2\n"
      "agent troll\n  watch enemy\n  htn root\n"
      "task root\n"
      "  method attack\n    when enemy, !hurt\n    do slam\n"
      "  method patrol\n    when !looked\n    do look\n"
      "  method rest\n"
      "simulation s\n  member t troll\n  at 1 enemy\n  sense enemy\n"
      "  expect replans 2\n  expect final hurt, looked\n";
  goap_file *f = parse(text);
  REQUIRE(f != NULL);
  const int32_t *w = NULL;
  int nw = 0;
  CHECK_EQ_INT(goap_file_agent_type_htn(f, 0, &w, &nw), 0);
  CHECK_EQ_INT(nw, 1);
  REQUIRE(w != NULL);
  CHECK_EQ_INT(w[0], var(f, "enemy"));
  CHECK_EQ_INT(goap_file_agent_type_htn(f, 1, &w, &nw), -1);
  CHECK_EQ_INT(nw, 0);
  goap_sim_result r;
  CHECK_EQ_INT(goap_file_simulate(f, 0, NULL, &r), GOAP_OK);
  /* look (patrol), replaced at t=1 by slam (attack: watch), then look again (plan done) */
  CHECK_EQ_INT(r.replans, 2);
  CHECK_EQ_INT((int)r.stats.replans[GOAP_REPLAN_WATCH], 1);
  CHECK_EQ_INT(r.failed, 0);
  CHECK_EQ_INT(r.expectations, 2);
  CHECK(r.idle);
  goap_file_destroy(f);
}

/* The example: its simulation passes its own expectations. */
TEST(trunk_thumper_example) {
  goap_file *f = NULL;
  goap_error diag;
  REQUIRE(goap_file_load(GOAP_EXAMPLES_DIR "/trunk_thumper.goap", NULL, &f, &diag) == GOAP_OK);
  int s = goap_file_find_simulation(f, "troll_at_the_bridge");
  REQUIRE(s >= 0);
  goap_sim_result r;
  CHECK_EQ_INT(goap_file_simulate(f, s, NULL, &r), GOAP_OK);
  CHECK_EQ_INT(r.failed, 0);
  CHECK_EQ_INT(r.replans, 4);
  CHECK_EQ_INT((int)r.stats.replans[GOAP_REPLAN_WATCH], 1);
  CHECK_EQ_INT((int)r.stats.replans[GOAP_REPLAN_ACTION_FAILED], 2);
  goap_file_destroy(f);
}

TEST_MAIN(TEST_ENTRY(steps_and_callbacks), TEST_ENTRY(pause_resume_from_runtime_state),
          TEST_ENTRY(failure_memory_other_method), TEST_ENTRY(procedural_check_fails_the_action),
          TEST_ENTRY(reservation),
          TEST_ENTRY(mtr_lower_priority_keeps_running_plan),
          TEST_ENTRY(mtr_higher_priority_replaces_running_plan),
          TEST_ENTRY(unwatched_change_is_ignored), TEST_ENTRY(timeout_then_other_method),
          TEST_ENTRY(broken_preconditions_replan), TEST_ENTRY(allocation),
          TEST_ENTRY(type_validation), TEST_ENTRY(format_errors),
          TEST_ENTRY(file_agent_and_simulation), TEST_ENTRY(trunk_thumper_example))
