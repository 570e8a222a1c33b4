/*
 * test_agent.c -- the agent runtime through the C API: the door story, every replanning
 * trigger, plan repair, failure memory, goal fallback, cooldowns, hysteresis, timeouts,
 * time-sliced planning, the plan cache, the blackboard, allocation behaviour.
 *
 * Each agent's events are recorded as one line of text ("plan kill_enemy 4 get_ammo ...;
 * start get_ammo; ...") and compared with the exact expected story.
 */
#include <goap/agent.h>
#include <goap/squad.h>
#include <goap/file.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc_hook.h"
#include "test.h"

/* ---- helpers -------------------------------------------------------------------------------- */

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

static goap_file *load_soldier(void) {
  goap_file *f = NULL;
  goap_error diag;
  if (goap_file_load(GOAP_EXAMPLES_DIR "/soldier.goap", NULL, &f, &diag) != GOAP_OK) return NULL;
  return f;
}

typedef struct recorder {
  char log[8192];
  size_t n;
  const goap_domain *d;
  int quiet_memory; /* skip memory events */
} recorder;

static void put(recorder *r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
#include <stdarg.h>
static void put(recorder *r, const char *fmt, ...) {
  if (r->n + 1 >= sizeof r->log) return;
  if (r->n) r->n += (size_t)snprintf(r->log + r->n, sizeof r->log - r->n, "; ");
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(r->log + r->n, sizeof r->log - r->n, fmt, ap);
  va_end(ap);
  if (k > 0) r->n += (size_t)k;
  if (r->n >= sizeof r->log) r->n = sizeof r->log - 1;
}

static void on_event(goap_agent *agent, const goap_agent_event *ev, void *user) {
  (void)agent;
  recorder *r = (recorder *)user;
  const goap_domain *d = r->d;
  switch (ev->kind) {
  case GOAP_EVENT_REPLAN: put(r, "replan %s", goap_replan_reason_name(ev->reason)); break;
  case GOAP_EVENT_GOAL: break;
  case GOAP_EVENT_PLAN: {
    char buf[512];
    size_t n = (size_t)snprintf(buf, sizeof buf, "plan %s %g", goap_domain_goal_name(d, ev->goal),
                                ev->cost);
    for (int i = 0; i < ev->plan_length && n < sizeof buf; ++i)
      n += (size_t)snprintf(buf + n, sizeof buf - n, " %s",
                            goap_domain_action_name(d, ev->plan[i]));
    put(r, "%s%s", buf, ev->cached ? " (cached)" : "");
    break;
  }
  case GOAP_EVENT_PLAN_FAILED:
    put(r, "noplan %s %s", goap_domain_goal_name(d, ev->goal), goap_status_name(ev->status));
    break;
  case GOAP_EVENT_REPAIR: put(r, "repair %d", ev->skipped); break;
  case GOAP_EVENT_ACTION_START: put(r, "start %s", goap_domain_action_name(d, ev->action)); break;
  case GOAP_EVENT_ACTION_SUCCESS: put(r, "ok %s", goap_domain_action_name(d, ev->action)); break;
  case GOAP_EVENT_ACTION_FAILURE:
    put(r, "%s %s", ev->timeout ? "timeout" : "fail", goap_domain_action_name(d, ev->action));
    break;
  case GOAP_EVENT_ACTION_STOP: put(r, "stop %s", goap_domain_action_name(d, ev->action)); break;
  case GOAP_EVENT_MEMORY: {
    if (r->quiet_memory) break;
    goap_var_info vi;
    goap_domain_var_info(d, ev->var, &vi);
    put(r, "mem %s=%d", vi.name, (int)ev->value);
    break;
  }
  case GOAP_EVENT_GOAL_DONE: put(r, "done %s", goap_domain_goal_name(d, ev->goal)); break;
  case GOAP_EVENT_IDLE: put(r, "idle"); break;
  case GOAP_EVENT_RESERVATION_DENIED:
    put(r, "denied %s %s", goap_domain_action_name(d, ev->action), ev->resource);
    break;
  }
}

/* A world for the soldier: which actions fail. */
typedef struct world {
  int door_held;
  int armory_empty;
} world;

static goap_action_state soldier_tick(goap_agent *agent, int action, double dt, void *user) {
  (void)dt;
  const world *w = (const world *)user;
  const goap_domain *d = goap_agent_type_domain(goap_agent_get_type(agent));
  const char *name = goap_domain_action_name(d, action);
  if (w->door_held && (!strcmp(name, "open_door") || !strcmp(name, "kick_door")))
    return GOAP_ACTION_FAILURE;
  if (w->armory_empty && !strcmp(name, "get_ammo")) return GOAP_ACTION_FAILURE;
  return GOAP_ACTION_SUCCESS;
}

static goap_agent_type *soldier_type(const goap_domain *d, world *w) {
  int na = goap_domain_action_count(d);
  goap_action_binding b[16];
  memset(b, 0, sizeof b);
  static goap_effect learn[3];
  learn[0] = (goap_effect){goap_domain_find_var(d, "door_stuck"), GOAP_SET, 1};
  learn[1] = (goap_effect){goap_domain_find_var(d, "kick_failed"), GOAP_SET, 1};
  learn[2] = (goap_effect){goap_domain_find_var(d, "armory_empty"), GOAP_SET, 1};
  for (int i = 0; i < na; ++i) {
    b[i].tick = soldier_tick;
    b[i].user = w;
  }
  b[goap_domain_find_action(d, "open_door")].on_fail = &learn[0];
  b[goap_domain_find_action(d, "open_door")].on_fail_count = 1;
  b[goap_domain_find_action(d, "kick_door")].on_fail = &learn[1];
  b[goap_domain_find_action(d, "kick_door")].on_fail_count = 1;
  b[goap_domain_find_action(d, "get_ammo")].on_fail = &learn[2];
  b[goap_domain_find_action(d, "get_ammo")].on_fail_count = 1;
  goap_agent_type_desc td;
  memset(&td, 0, sizeof td);
  td.name = "soldier";
  td.actions = b;
  td.action_count = na;
  goap_agent_type *t = NULL;
  if (goap_agent_type_create(d, &td, &t, NULL) != GOAP_OK) return NULL;
  return t;
}

static void run(goap_agent *a, int updates, double dt) {
  for (int i = 0; i < updates; ++i) goap_agent_update(a, dt);
}

/* ---- the door story ------------------------------------------------------------------------- */

static const char *const story_nothing =
    "replan start; plan kill_enemy 4 get_ammo load_magazine open_door shoot; start get_ammo; "
    "ok get_ammo; mem has_ammo=1; start load_magazine; ok load_magazine; mem loaded=1; "
    "mem has_ammo=0; start open_door; ok open_door; mem in_b=1; start shoot; ok shoot; "
    "mem target_dead=1; done kill_enemy; replan plan_done; idle";

/* Replans from where the soldier stands: already loaded, so kick + shoot costs 4, then the
 * window + shoot 6. */
static const char *const story_door =
    "replan start; plan kill_enemy 4 get_ammo load_magazine open_door shoot; start get_ammo; "
    "ok get_ammo; mem has_ammo=1; start load_magazine; ok load_magazine; mem loaded=1; "
    "mem has_ammo=0; start open_door; fail open_door; mem door_stuck=1; "
    "replan action_failed; plan kill_enemy 4 kick_door shoot; start kick_door; fail kick_door; "
    "mem kick_failed=1; replan action_failed; plan kill_enemy 6 jump_window shoot; "
    "start jump_window; ok jump_window; mem in_b=1; start shoot; ok shoot; mem target_dead=1; "
    "done kill_enemy; replan plan_done; idle";

static const char *const story_armory =
    "replan start; plan kill_enemy 4 get_ammo load_magazine open_door shoot; start get_ammo; "
    "fail get_ammo; mem armory_empty=1; replan action_failed; plan kill_enemy 7 open_door punch; "
    "start open_door; ok open_door; mem in_b=1; start punch; ok punch; mem target_dead=1; "
    "done kill_enemy; replan plan_done; idle";

TEST(door_story) {
  goap_file *f = load_soldier();
  REQUIRE(f != NULL);
  const goap_domain *d = goap_file_domain(f);
  struct {
    world w;
    const char *story;
  } cases[] = {{{0, 0}, story_nothing}, {{1, 0}, story_door}, {{0, 1}, story_armory}};
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
    goap_agent_type *t = soldier_type(d, &cases[k].w);
    REQUIRE(t != NULL);
    recorder rec;
    memset(&rec, 0, sizeof rec);
    rec.d = d;
    goap_agent_desc ad;
    memset(&ad, 0, sizeof ad);
    ad.type = t;
    ad.on_event = on_event;
    ad.event_user = &rec;
    goap_agent *a = NULL;
    REQUIRE(goap_agent_create(&ad, &a, NULL) == GOAP_OK);
    run(a, 20, 0.1);
    CHECK_STR(rec.log, cases[k].story);
    CHECK_EQ_INT(goap_agent_get(a, goap_domain_find_var(d, "target_dead")), 1);
    CHECK_EQ_INT(goap_agent_goal(a), -1);
    goap_agent_destroy(a);
    goap_agent_type_destroy(t);
  }
  goap_file_destroy(f);
}

/* ---- a small domain for the triggers -------------------------------------------------------- */

static const char *const guard_text =
    "var see_player: bool\n"
    "var at_post: bool\n"
    "var patrolled: bool\n"
    "var enemy_down: bool\n"
    "var has_weapon: bool = true\n"
    "action go_to_post\n  cost 1\n  eff at_post\n"
    "action patrol\n  cost 1\n  pre at_post\n  eff patrolled\n"
    "action attack\n  cost 2\n  pre see_player, has_weapon\n  eff enemy_down\n"
    "goal guard\n  priority 1\n  want patrolled\n"
    "goal fight\n  priority 10\n  want enemy_down\n";

typedef struct guard_ctx {
  int patrol_forever; /* patrol keeps running */
} guard_ctx;

static goap_action_state guard_tick(goap_agent *agent, int action, double dt, void *user) {
  (void)dt;
  const guard_ctx *g = (const guard_ctx *)user;
  const goap_domain *d = goap_agent_type_domain(goap_agent_get_type(agent));
  if (g->patrol_forever && !strcmp(goap_domain_action_name(d, action), "patrol"))
    return GOAP_ACTION_RUNNING;
  return GOAP_ACTION_SUCCESS;
}

typedef struct guard_setup {
  goap_file *f;
  const goap_domain *d;
  goap_agent_type *t;
  goap_agent *a;
  recorder rec;
  guard_ctx ctx;
} guard_setup;

/* fight is valid only when the player is seen; watch_goal: guard watches see_player. */
static int guard_make(guard_setup *s, int watch_goal, double check_interval, double timeout) {
  memset(s, 0, sizeof *s);
  s->f = parse(guard_text);
  if (!s->f) return 0;
  s->d = goap_file_domain(s->f);
  const goap_domain *d = s->d;
  int na = goap_domain_action_count(d), ng = goap_domain_goal_count(d);
  goap_action_binding b[8];
  goap_goal_binding g[4];
  memset(b, 0, sizeof b);
  memset(g, 0, sizeof g);
  s->ctx.patrol_forever = 1;
  for (int i = 0; i < na; ++i) {
    b[i].tick = guard_tick;
    b[i].user = &s->ctx;
  }
  b[goap_domain_find_action(d, "patrol")].timeout = timeout;
  static int32_t see;
  see = goap_domain_find_var(d, "see_player");
  static goap_cond valid;
  valid = (goap_cond){see, GOAP_EQ, 1};
  int fight = goap_domain_find_goal(d, "fight"), guard = goap_domain_find_goal(d, "guard");
  g[fight].valid = &valid;
  g[fight].valid_count = 1;
  if (watch_goal) {
    g[guard].watch = &see;
    g[guard].watch_count = 1;
  }
  goap_agent_type_desc td;
  memset(&td, 0, sizeof td);
  td.actions = b;
  td.action_count = na;
  td.goals = g;
  td.goal_count = ng;
  td.goal_check_interval = check_interval;
  if (goap_agent_type_create(d, &td, &s->t, NULL) != GOAP_OK) return 0;
  s->rec.d = d;
  s->rec.quiet_memory = 1;
  goap_agent_desc ad;
  memset(&ad, 0, sizeof ad);
  ad.type = s->t;
  ad.on_event = on_event;
  ad.event_user = &s->rec;
  goap_agent_create(&ad, &s->a, NULL);
  return s->a != NULL;
}

static void guard_free(guard_setup *s) {
  goap_agent_destroy(s->a);
  goap_agent_type_destroy(s->t);
  goap_file_destroy(s->f);
}

/* Trigger 4: a watched variable interrupts at once, even with goal checks far apart. */
TEST(trigger_watch) {
  guard_setup s;
  REQUIRE(guard_make(&s, 1, 100.0, 0));
  run(s.a, 3, 0.1); /* plan guard, go_to_post, patrol (running) */
  CHECK_STR(goap_domain_action_name(s.d, goap_agent_action(s.a)), "patrol");
  goap_agent_set(s.a, goap_domain_find_var(s.d, "see_player"), 1);
  run(s.a, 3, 0.1);
  CHECK_STR(s.rec.log,
            "replan start; plan guard 2 go_to_post patrol; start go_to_post; ok go_to_post; "
            "start patrol; stop patrol; replan watch; plan fight 2 attack; start attack; "
            "ok attack; done fight; replan plan_done; plan guard 1 patrol; start patrol");
  CHECK_EQ_INT((int)goap_agent_get_stats(s.a).replans[GOAP_REPLAN_WATCH], 1);
  guard_free(&s);
}

/* Trigger 5: without a watch, the better goal is noticed at the next goal check (0.5 s). */
TEST(trigger_better_goal) {
  guard_setup s;
  REQUIRE(guard_make(&s, 0, 0.5, 0));
  int fight = goap_domain_find_goal(s.d, "fight"), guard = goap_domain_find_goal(s.d, "guard");
  run(s.a, 3, 0.1); /* t = 0.3; the plan was adopted at t = 0.1: next check at 0.6 */
  goap_agent_set(s.a, goap_domain_find_var(s.d, "see_player"), 1);
  for (int i = 0; i < 2; ++i) {
    goap_agent_update(s.a, 0.1);
    CHECK_EQ_INT(goap_agent_goal(s.a), guard); /* t = 0.4, 0.5 */
  }
  goap_agent_update(s.a, 0.1); /* t = 0.6 */
  CHECK_EQ_INT(goap_agent_goal(s.a), fight);
  CHECK(strstr(s.rec.log, "stop patrol; replan better_goal; plan fight 2 attack") != NULL);
  guard_free(&s);
}

/* Trigger 2: a timeout fails the action (and replans). */
TEST(trigger_timeout) {
  guard_setup s;
  REQUIRE(guard_make(&s, 0, 100.0, 0.5));
  int patrol = goap_domain_find_action(s.d, "patrol");
  run(s.a, 6, 0.1); /* patrol started at t = 0.2; has run 0.4 s */
  CHECK_EQ_INT(goap_agent_action(s.a), patrol);
  CHECK(strstr(s.rec.log, "timeout") == NULL);
  goap_agent_update(s.a, 0.1);
  CHECK_STR(s.rec.log, "replan start; plan guard 2 go_to_post patrol; start go_to_post; "
                       "ok go_to_post; start patrol; timeout patrol; replan timeout");
  CHECK_EQ_INT((int)goap_agent_get_stats(s.a).replans[GOAP_REPLAN_TIMEOUT], 1);
  guard_free(&s);
}

/* Trigger 3: the next action's preconditions broke; and plan repair. */
TEST(trigger_preconditions_and_repair) {
  goap_file *f = load_soldier();
  REQUIRE(f != NULL);
  const goap_domain *d = goap_file_domain(f);
  world w = {0, 0};
  goap_agent_type *t = soldier_type(d, &w);
  REQUIRE(t != NULL);
  for (int k = 0; k < 2; ++k) {
    recorder rec;
    memset(&rec, 0, sizeof rec);
    rec.d = d;
    rec.quiet_memory = 1;
    goap_agent_desc ad;
    memset(&ad, 0, sizeof ad);
    ad.type = t;
    ad.on_event = on_event;
    ad.event_user = &rec;
    goap_agent *a = NULL;
    REQUIRE(goap_agent_create(&ad, &a, NULL) == GOAP_OK);
    if (k == 0) {
      run(a, 1, 0.1); /* got the ammo */
      goap_agent_set(a, goap_domain_find_var(d, "has_ammo"), 0); /* ... and lost it */
      run(a, 2, 0.1);
      CHECK_STR(rec.log, "replan start; plan kill_enemy 4 get_ammo load_magazine open_door "
                         "shoot; start get_ammo; ok get_ammo; replan preconditions; plan "
                         "kill_enemy 4 get_ammo load_magazine open_door shoot; start get_ammo; "
                         "ok get_ammo");
    } else {
      run(a, 2, 0.1); /* ammo, loaded */
      goap_agent_set(a, goap_domain_find_var(d, "in_b"), 1); /* someone carried him in */
      run(a, 2, 0.1);
      CHECK_STR(rec.log, "replan start; plan kill_enemy 4 get_ammo load_magazine open_door "
                         "shoot; start get_ammo; ok get_ammo; start load_magazine; "
                         "ok load_magazine; repair 1; start shoot; ok shoot; done kill_enemy; "
                         "replan plan_done; idle");
      CHECK_EQ_INT((int)goap_agent_get_stats(a).repairs, 1);
      CHECK_EQ_INT((int)goap_agent_get_stats(a).replans[GOAP_REPLAN_PRECONDITIONS], 0);
    }
    goap_agent_destroy(a);
  }
  goap_agent_type_destroy(t);
  goap_file_destroy(f);
}

/* The rat: kill_enemy has no plan with only `walk`, so it falls back to patrol; the failed goal
 * is retried only when memory changes or the cooldown (2 s) expires. */
static const char *const rat_text =
    "var near: bool\nvar enemy_dead: bool\nvar wandered: bool\nvar noise: bool\n"
    "action walk\n  eff wandered\n"
    "action bite\n  pre near\n  eff enemy_dead\n"
    "action approach\n  eff near\n"
    "goal kill_enemy\n  priority 10\n  want enemy_dead\n"
    "goal patrol\n  priority 1\n  want wandered\n";

static int count(const char *hay, const char *needle) {
  int n = 0;
  for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle)) ++n;
  return n;
}

TEST(goal_fallback_and_cooldown) {
  goap_file *f = parse(rat_text);
  REQUIRE(f != NULL);
  const goap_domain *d = goap_file_domain(f);
  goap_action_binding b[3];
  memset(b, 0, sizeof b);
  b[goap_domain_find_action(d, "bite")].disabled = 1;
  b[goap_domain_find_action(d, "approach")].disabled = 1;
  goap_agent_type_desc td;
  memset(&td, 0, sizeof td);
  td.name = "rat";
  td.actions = b;
  td.action_count = 3;
  td.failed_goal_cooldown = 2.0;
  td.goal_check_interval = 0.25;
  goap_agent_type *t = NULL;
  REQUIRE(goap_agent_type_create(d, &td, &t, NULL) == GOAP_OK);
  recorder rec;
  memset(&rec, 0, sizeof rec);
  rec.d = d;
  rec.quiet_memory = 1;
  goap_agent_desc ad;
  memset(&ad, 0, sizeof ad);
  ad.type = t;
  ad.on_event = on_event;
  ad.event_user = &rec;
  goap_agent *a = NULL;
  REQUIRE(goap_agent_create(&ad, &a, NULL) == GOAP_OK);
  run(a, 3, 0.1);
  CHECK_STR(rec.log, "replan start; noplan kill_enemy no_plan; plan patrol 1 walk; start walk; "
                     "ok walk; done patrol; replan plan_done; noplan kill_enemy no_plan; idle");
  run(a, 19, 0.1); /* t = 2.2: the last failure was at 0.3, cooldown until 2.3 */
  CHECK_EQ_INT(count(rec.log, "noplan kill_enemy"), 2);
  run(a, 3, 0.1); /* t = 2.5: retried once at the first idle check after 2.3 */
  CHECK_EQ_INT(count(rec.log, "noplan kill_enemy"), 3);
  goap_agent_set(a, goap_domain_find_var(d, "noise"), 1); /* new input: retried at once */
  run(a, 1, 0.1);
  CHECK_EQ_INT(count(rec.log, "noplan kill_enemy"), 4);
  /* the same goal set with the full action pool (the soldier) plans kill_enemy */
  goap_agent_type *full = NULL;
  REQUIRE(goap_agent_type_create(d, NULL, &full, NULL) == GOAP_OK);
  recorder rec2;
  memset(&rec2, 0, sizeof rec2);
  rec2.d = d;
  rec2.quiet_memory = 1;
  ad.type = full;
  ad.event_user = &rec2;
  goap_agent *b2 = NULL;
  REQUIRE(goap_agent_create(&ad, &b2, NULL) == GOAP_OK);
  run(b2, 1, 0.1);
  CHECK_STR(rec2.log, "replan start; plan kill_enemy 2 approach bite; start approach; "
                      "ok approach");
  goap_agent_destroy(b2);
  goap_agent_type_destroy(full);
  goap_agent_destroy(a);
  goap_agent_type_destroy(t);
  goap_file_destroy(f);
}

/* Hysteresis: a goal hovering around the current one's priority does not make it twitch. */
static double hover(goap_agent *a, int goal, void *user) {
  (void)goal;
  (void)user;
  return ((int)(goap_agent_time(a) / 0.25 + 0.5)) % 2 ? 10.5 : 9.5;
}

static double ten(goap_agent *a, int goal, void *user) {
  (void)a;
  (void)goal;
  (void)user;
  return 10.0;
}

static goap_action_state forever(goap_agent *agent, int action, double dt, void *user) {
  (void)agent;
  (void)action;
  (void)dt;
  (void)user;
  return GOAP_ACTION_RUNNING;
}

TEST(hysteresis) {
  goap_file *f = parse(guard_text);
  REQUIRE(f != NULL);
  const goap_domain *d = goap_file_domain(f);
  int switches[2];
  for (int k = 0; k < 2; ++k) {
    goap_action_binding b[3];
    memset(b, 0, sizeof b);
    b[goap_domain_find_action(d, "patrol")].tick = forever;
    b[goap_domain_find_action(d, "attack")].tick = forever;
    goap_goal_binding g[2];
    memset(g, 0, sizeof g);
    g[goap_domain_find_goal(d, "guard")].priority = ten;
    g[goap_domain_find_goal(d, "fight")].priority = hover;
    goap_agent_type_desc td;
    memset(&td, 0, sizeof td);
    td.actions = b;
    td.action_count = 3;
    td.goals = g;
    td.goal_count = 2;
    td.goal_check_interval = 0.25;
    td.switch_margin = k == 0 ? 0 /* default: 1 */ : -1 /* none */;
    goap_agent_type *t = NULL;
    REQUIRE(goap_agent_type_create(d, &td, &t, NULL) == GOAP_OK);
    goap_agent_desc ad;
    memset(&ad, 0, sizeof ad);
    ad.type = t;
    goap_agent *a = NULL;
    REQUIRE(goap_agent_create(&ad, &a, NULL) == GOAP_OK);
    goap_agent_set(a, goap_domain_find_var(d, "see_player"), 1);
    run(a, 100, 0.05);
    switches[k] = (int)goap_agent_get_stats(a).replans[GOAP_REPLAN_BETTER_GOAL];
    goap_agent_destroy(a);
    goap_agent_type_destroy(t);
  }
  CHECK_EQ_INT(switches[0], 0);
  CHECK(switches[1] >= 5); /* without a margin it flips back and forth */
  goap_file_destroy(f);
}

/* A search spread over updates gives the plan of one unsliced goap_plan call. */
TEST(time_sliced_planning) {
  char text[16384];
  size_t n = 0;
  enum { STEPS = 40 };
  for (int i = 0; i <= STEPS; ++i) n += (size_t)snprintf(text + n, sizeof text - n, "var x%d: bool\n", i);
  for (int i = 0; i < STEPS; ++i) {
    n += (size_t)snprintf(text + n, sizeof text - n,
                          "action s%d\n  cost %d\n  pre x%d\n  eff x%d\n"
                          "action j%d\n  cost %d\n  eff x%d\n",
                          i, 1 + i % 3, i, i + 1, i, 4 * (i + 1), i + 1);
  }
  n += (size_t)snprintf(text + n, sizeof text - n, "goal reach\n  want x%d\n", STEPS);
  goap_file *f = parse(text);
  REQUIRE(f != NULL);
  const goap_domain *d = goap_file_domain(f);
  goap_word start[8] = {0};
  goap_state_init(d, start);
  goap_state_set(d, start, 0, 1);
  /* unsliced reference */
  goap_planner *p = NULL;
  REQUIRE(goap_planner_create(d, NULL, &p) == GOAP_OK);
  int nw = 0;
  const goap_cond *want = goap_domain_goal_want(d, 0, &nw);
  goap_request r;
  memset(&r, 0, sizeof r);
  r.start = start;
  r.want = want;
  r.want_count = nw;
  int32_t ref[128];
  goap_result res;
  memset(&res, 0, sizeof res);
  res.plan = ref;
  res.plan_capacity = 128;
  REQUIRE(goap_plan(p, &r, &res) == GOAP_OK);
  goap_agent_type_desc td;
  memset(&td, 0, sizeof td);
  td.expansions_per_update = 3;
  td.max_nodes = 4194304;
  goap_agent_type *t = NULL;
  REQUIRE(goap_agent_type_create(d, &td, &t, NULL) == GOAP_OK);
  goap_agent_desc ad;
  memset(&ad, 0, sizeof ad);
  ad.type = t;
  ad.memory = start;
  goap_agent *a = NULL;
  REQUIRE(goap_agent_create(&ad, &a, NULL) == GOAP_OK);
  int in_progress = 0, updates = 0;
  goap_status st;
  while ((st = goap_agent_update(a, 0.01)) == GOAP_IN_PROGRESS && updates < 10000) {
    CHECK(goap_agent_is_planning(a));
    ++in_progress;
    ++updates;
  }
  CHECK_EQ_INT(st, GOAP_OK);
  CHECK(in_progress >= 3);
  CHECK_EQ_INT((int)goap_agent_get_stats(a).expanded, (int)res.stats.expanded);
  int len = 0;
  const int32_t *plan = goap_agent_plan(a, &len, NULL);
  REQUIRE(plan != NULL);
  CHECK_EQ_INT(len, res.plan_length);
  CHECK(len == res.plan_length && memcmp(plan, ref, (size_t)len * sizeof *plan) == 0);
  CHECK_NEAR(goap_agent_plan_cost(a), res.cost, 1e-9);
  goap_agent_destroy(a);
  goap_agent_type_destroy(t);
  goap_planner_destroy(p);
  goap_file_destroy(f);
}

/* The cache serves the second agent the plan the first one searched for. */
TEST(plan_cache) {
  goap_file *f = load_soldier();
  REQUIRE(f != NULL);
  const goap_domain *d = goap_file_domain(f);
  world w = {0, 0};
  goap_agent_type *t = soldier_type(d, &w);
  REQUIRE(t != NULL);
  goap_plan_cache *c = NULL;
  REQUIRE(goap_plan_cache_create(NULL, 4, &c) == GOAP_OK);
  recorder rec[3];
  memset(rec, 0, sizeof rec);
  for (int k = 0; k < 3; ++k) {
    rec[k].d = d;
    rec[k].quiet_memory = 1;
    goap_agent_desc ad;
    memset(&ad, 0, sizeof ad);
    ad.type = t;
    ad.on_event = on_event;
    ad.event_user = &rec[k];
    ad.cache = k < 2 ? c : NULL;
    goap_agent *a = NULL;
    REQUIRE(goap_agent_create(&ad, &a, NULL) == GOAP_OK);
    run(a, 1, 0.1);
    CHECK_EQ_INT((int)goap_agent_get_stats(a).cache_hits, k == 1);
    goap_agent_destroy(a);
  }
  CHECK(strstr(rec[0].log, "(cached)") == NULL);
  CHECK(strstr(rec[1].log, "plan kill_enemy 4 get_ammo load_magazine open_door shoot (cached)"));
  CHECK_STR(rec[0].log, rec[2].log); /* the plan without the cache is the same */
  goap_plan_cache_stats cs = goap_plan_cache_get_stats(c);
  CHECK_EQ_INT((int)cs.hits, 1);
  CHECK_EQ_INT((int)cs.stores, 1);
  CHECK_EQ_INT(cs.entries, 1);
  goap_plan_cache_destroy(c);
  goap_agent_type_destroy(t);
  goap_file_destroy(f);
}

/* Shared variables go through the blackboard; a member watching one is interrupted. */
static const char *const squad_text =
    "var alarm: bool shared\nvar responded: bool\nvar patrolled: bool\n"
    "action raise_alarm\n  eff alarm\n"
    "action respond\n  pre alarm\n  eff responded\n"
    "action patrol\n  eff patrolled\n"
    "goal warn\n  priority 5\n  want alarm\n"
    "goal answer\n  priority 10\n  want responded\n"
    "goal guard\n  priority 1\n  want patrolled\n";

TEST(blackboard) {
  goap_file *f = parse(squad_text);
  REQUIRE(f != NULL);
  const goap_domain *d = goap_file_domain(f);
  goap_blackboard *bb = NULL;
  REQUIRE(goap_blackboard_create(NULL, &bb) == GOAP_OK);
  int32_t alarm = goap_domain_find_var(d, "alarm");
  goap_cond on = {alarm, GOAP_EQ, 1};
  /* the lookout only raises the alarm; the guard patrols (forever) until it is raised */
  goap_action_binding lb[3], gb[3];
  memset(lb, 0, sizeof lb);
  memset(gb, 0, sizeof gb);
  lb[1].disabled = lb[2].disabled = 1;
  gb[0].disabled = 1;
  gb[2].tick = forever;
  goap_goal_binding lg[3], gg[3];
  memset(lg, 0, sizeof lg);
  memset(gg, 0, sizeof gg);
  lg[1].disabled = lg[2].disabled = 1;
  gg[0].disabled = 1;
  gg[1].valid = &on;
  gg[1].valid_count = 1;
  gg[2].watch = &alarm;
  gg[2].watch_count = 1;
  goap_agent_type_desc td;
  memset(&td, 0, sizeof td);
  td.action_count = td.goal_count = 3;
  td.goal_check_interval = 100;
  td.actions = lb;
  td.goals = lg;
  goap_agent_type *lookout = NULL, *guard = NULL;
  REQUIRE(goap_agent_type_create(d, &td, &lookout, NULL) == GOAP_OK);
  td.actions = gb;
  td.goals = gg;
  REQUIRE(goap_agent_type_create(d, &td, &guard, NULL) == GOAP_OK);
  recorder rec;
  memset(&rec, 0, sizeof rec);
  rec.d = d;
  rec.quiet_memory = 1;
  goap_agent_desc ad;
  memset(&ad, 0, sizeof ad);
  ad.blackboard = bb;
  ad.type = guard;
  ad.on_event = on_event;
  ad.event_user = &rec;
  goap_agent *g = NULL;
  REQUIRE(goap_agent_create(&ad, &g, NULL) == GOAP_OK);
  ad.type = lookout;
  ad.on_event = NULL;
  goap_agent *l = NULL;
  REQUIRE(goap_agent_create(&ad, &l, NULL) == GOAP_OK);
  REQUIRE(g != NULL && l != NULL);
  goap_agent_update(g, 0.1); /* guard starts patrolling */
  int32_t v = -1;
  CHECK_EQ_INT(goap_blackboard_get(bb, "alarm", &v), GOAP_OK);
  CHECK_EQ_INT(v, 0);
  uint64_t ver = goap_blackboard_version(bb);
  goap_agent_update(l, 0.1); /* lookout raises the alarm */
  CHECK_EQ_INT(goap_blackboard_get(bb, "alarm", &v), GOAP_OK);
  CHECK_EQ_INT(v, 1);
  CHECK(goap_blackboard_version(bb) > ver);
  CHECK_EQ_INT(goap_agent_get(g, alarm), 0); /* not before its next update */
  goap_agent_update(g, 0.1);
  CHECK_EQ_INT(goap_agent_get(g, alarm), 1);
  CHECK_STR(rec.log, "replan start; plan guard 1 patrol; start patrol; stop patrol; "
                     "replan watch; plan answer 1 respond; start respond; ok respond");
  CHECK_EQ_INT(goap_blackboard_get(bb, "nothing", &v), GOAP_NOT_FOUND);
  CHECK_EQ_INT(goap_blackboard_set(bb, "alarm", 0), GOAP_OK);
  goap_agent_destroy(g);
  goap_agent_destroy(l);
  goap_blackboard_destroy(bb);
  goap_agent_type_destroy(lookout);
  goap_agent_type_destroy(guard);
  goap_file_destroy(f);
}

/* ---- allocation ---------------------------------------------------------------------------- */

/* A warm agent replays the door story without allocating; every allocation failure is
 * reported, never a crash or a leak. */
TEST(allocation) {
  goap_file *f = load_soldier();
  REQUIRE(f != NULL);
  const goap_domain *d = goap_file_domain(f);
  world w = {1, 0};
  test_alloc c;
  memset(&c, 0, sizeof c);
  goap_allocator al = test_alloc_hook(&c);
  goap_agent_type *t = soldier_type(d, &w);
  REQUIRE(t != NULL);
  goap_agent_desc ad;
  memset(&ad, 0, sizeof ad);
  ad.type = t;
  ad.allocator = al;
  goap_agent *a = NULL;
  REQUIRE(goap_agent_create(&ad, &a, NULL) == GOAP_OK);
  goap_word fresh[4];
  goap_state_init(d, fresh);
  size_t before = 0;
  for (int round = 0; round < 5; ++round) {
    if (round == 1) before = c.calls;
    for (int v = 0; v < goap_domain_var_count(d); ++v) goap_agent_set(a, v, goap_state_get(d, fresh, v));
    goap_agent_reset(a);
    run(a, 20, 0.1);
    CHECK_EQ_INT(goap_agent_get(a, goap_domain_find_var(d, "target_dead")), 1);
  }
  CHECK_EQ_INT((int)(c.calls - before), 0);
  CHECK(goap_agent_get_stats(a).memory_bytes == c.outstanding);
  goap_agent_destroy(a);
  CHECK_EQ_INT((int)c.outstanding, 0);
  CHECK_EQ_INT(c.bad_old_size, 0);
  CHECK_EQ_INT(c.unknown_ptr, 0);
  /* failure injection: after n allocations every one fails, for every n until none does */
  int survived = 0;
  for (size_t n = 0; n < 200 && !survived; ++n) {
    test_alloc k;
    memset(&k, 0, sizeof k);
    k.fail_at = n + 1;
    k.fail_after = 1;
    ad.allocator = test_alloc_hook(&k);
    goap_agent *b = (goap_agent *)(void *)&k; /* a failing create must set it to NULL */
    goap_status cs = goap_agent_create(&ad, &b, NULL);
    CHECK(cs == GOAP_OK ? b != NULL : cs == GOAP_OUT_OF_MEMORY && b == NULL);
    if (b) {
      goap_status st = GOAP_OK;
      for (int i = 0; i < 20; ++i) {
        st = goap_agent_update(b, 0.1);
        if (st == GOAP_OUT_OF_MEMORY) break;
      }
      if (st != GOAP_OUT_OF_MEMORY) {
        survived = 1;
        CHECK_EQ_INT(goap_agent_get(b, goap_domain_find_var(d, "target_dead")), 1);
      }
      goap_agent_destroy(b);
    }
    CHECK_EQ_INT((int)k.outstanding, 0);
    CHECK_EQ_INT(k.bad_old_size, 0);
    CHECK_EQ_INT(k.unknown_ptr, 0);
  }
  CHECK(survived);
  goap_agent_type_destroy(t);
  goap_file_destroy(f);
}

TEST(type_validation) {
  goap_file *f = load_soldier();
  REQUIRE(f != NULL);
  const goap_domain *d = goap_file_domain(f);
  goap_agent_type *t = NULL;
  goap_error err;
  goap_agent_type_desc td;
  memset(&td, 0, sizeof td);
  goap_action_binding b[7];
  memset(b, 0, sizeof b);
  td.actions = b;
  td.action_count = 3;
  CHECK_EQ_INT(goap_agent_type_create(d, &td, &t, &err), GOAP_INVALID_ARGUMENT);
  CHECK(t == NULL && strstr(err.message, "action_count") != NULL);
  /* the error is filled: the status returned, no position (a description, not a text) */
  CHECK_EQ_INT(err.status, GOAP_INVALID_ARGUMENT);
  CHECK(err.line == 0 && err.col == 0 && err.offset == 0 && err.file[0] == '\0');
  td.action_count = 7;
  goap_effect bad = {0, GOAP_ADD, 1}; /* += on a bool */
  b[2].on_fail = &bad;
  b[2].on_fail_count = 1;
  CHECK_EQ_INT(goap_agent_type_create(d, &td, &t, &err), GOAP_INVALID_ARGUMENT);
  CHECK(strstr(err.message, "on_fail") != NULL);
  b[2].on_fail_count = 0;
  b[3].timeout = -1;
  CHECK_EQ_INT(goap_agent_type_create(d, &td, &t, &err), GOAP_INVALID_ARGUMENT);
  CHECK(strstr(err.message, "timeout") != NULL);
  b[3].timeout = 0;
  int32_t wv = 99;
  b[4].watch = &wv;
  b[4].watch_count = 1;
  CHECK_EQ_INT(goap_agent_type_create(d, &td, &t, &err), GOAP_INVALID_ARGUMENT);
  CHECK(strstr(err.message, "watch") != NULL);
  b[4].watch_count = 0;
  goap_goal_binding gb[1]; /* a goal's cooldown: finite seconds >= 0 */
  memset(gb, 0, sizeof gb);
  td.goals = gb;
  td.goal_count = goap_domain_goal_count(d);
  REQUIRE(td.goal_count == 1);
  gb[0].cooldown = -1;
  CHECK_EQ_INT(goap_agent_type_create(d, &td, &t, &err), GOAP_INVALID_ARGUMENT);
  CHECK_STR(err.message, "goal binding: cooldown must be a finite number of seconds >= 0");
  CHECK_EQ_INT(err.status, GOAP_INVALID_ARGUMENT);
  gb[0].cooldown = HUGE_VAL;
  CHECK_EQ_INT(goap_agent_type_create(d, &td, &t, &err), GOAP_INVALID_ARGUMENT);
  gb[0].cooldown = 0;
  td.goals = NULL;
  td.goal_count = 0;
  b[1].cost_scale = 2.5; /* the type's costs: scaled, disabled, or the domain's */
  b[5].disabled = 1;
  CHECK_EQ_INT(goap_agent_type_create(d, &td, &t, &err), GOAP_OK);
  CHECK_EQ_INT(err.status, GOAP_OK); /* success clears the error */
  CHECK_STR(err.message, "");
  int nc = -1;
  const double *tc = goap_agent_type_costs(t, &nc);
  REQUIRE(tc != NULL);
  CHECK_EQ_INT(nc, goap_domain_action_count(d));
  CHECK_NEAR(tc[1], goap_domain_action_cost(d, 1) * 2.5, 1e-12);
  CHECK_NEAR(tc[5], -1.0, 0.0);
  CHECK_NEAR(tc[0], goap_domain_action_cost(d, 0), 0.0);
  CHECK(goap_agent_type_costs(NULL, &nc) == NULL && nc == 0);
  CHECK(goap_agent_type_costs(t, NULL) == tc);
  goap_agent_type *t2 = t;
  CHECK_EQ_INT(goap_agent_type_create(NULL, &td, &t2, &err), GOAP_INVALID_ARGUMENT);
  CHECK(t2 == NULL);
  int junk = 0;
  goap_agent *none = (goap_agent *)(void *)&junk; /* a failing create must clear it */
  CHECK_EQ_INT(goap_agent_create(NULL, &none, &err), GOAP_INVALID_ARGUMENT);
  CHECK(none == NULL);
  CHECK_EQ_INT(err.status, GOAP_INVALID_ARGUMENT);
  CHECK_STR(err.message, "out, desc and desc->type are required");
  CHECK_EQ_INT(goap_agent_update(NULL, 0.1), GOAP_INVALID_ARGUMENT);
  goap_agent_desc ad;
  memset(&ad, 0, sizeof ad);
  ad.type = t;
  goap_agent *a = NULL;
  REQUIRE(goap_agent_create(&ad, &a, NULL) == GOAP_OK);
  CHECK_EQ_INT(goap_agent_update(a, -1), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_agent_set(a, 99, 1), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_agent_set(a, 0, 7), GOAP_OUT_OF_RANGE);
  CHECK_STR(goap_replan_reason_name(GOAP_REPLAN_WATCH), "watch");
  CHECK_STR(goap_replan_reason_name((goap_replan_reason)99), "unknown");
  goap_agent_destroy(a);
  goap_agent_destroy(NULL);
  goap_agent_type_destroy(t);
  goap_file_destroy(f);
}

/* Sensors run on their own intervals and write memory before goals are considered. */
typedef struct sensing {
  int calls;
  double times[16];
} sensing;

static void eyes(goap_agent *a, void *user) {
  sensing *s = (sensing *)user;
  if (s->calls < 16) s->times[s->calls] = goap_agent_time(a);
  s->calls++;
  const goap_domain *d = goap_agent_type_domain(goap_agent_get_type(a));
  if (goap_agent_time(a) > 0.45) goap_agent_set(a, goap_domain_find_var(d, "see_player"), 1);
}

TEST(sensors) {
  goap_file *f = parse(guard_text);
  REQUIRE(f != NULL);
  const goap_domain *d = goap_file_domain(f);
  sensing s;
  memset(&s, 0, sizeof s);
  goap_sensor_desc sd = {eyes, &s, 0.5};
  goap_agent_type_desc td;
  memset(&td, 0, sizeof td);
  td.sensors = &sd;
  td.sensor_count = 1;
  goap_agent_type *t = NULL;
  REQUIRE(goap_agent_type_create(d, &td, &t, NULL) == GOAP_OK);
  goap_agent_desc ad;
  memset(&ad, 0, sizeof ad);
  ad.type = t;
  goap_agent *a = NULL;
  REQUIRE(goap_agent_create(&ad, &a, NULL) == GOAP_OK);
  run(a, 12, 0.1); /* t = 0.1 .. 1.2: the sensor runs at 0.1, 0.6, 1.1 */
  CHECK_EQ_INT(s.calls, 3);
  CHECK_NEAR(s.times[0], 0.1, 1e-9);
  CHECK_NEAR(s.times[1], 0.6, 1e-9);
  CHECK_NEAR(s.times[2], 1.1, 1e-9);
  /* what it saw at 0.6 made `fight` valid and it was pursued */
  CHECK_EQ_INT(goap_agent_get(a, goap_domain_find_var(d, "enemy_down")), 1);
  goap_agent_destroy(a);
  goap_agent_type_destroy(t);
  goap_file_destroy(f);
}

/* ---- squads: reservations, start/end effects on shared counters, orders ------------------- */

static const char *const flank_text =
    "var flanked: bool\n"
    "var tokens: int 0..1000 shared\n"
    "action flank\n  cost 1\n  eff flanked\n"
    "action hold_position\n  cost 5\n  eff flanked\n"
    "goal attack\n  priority 1\n  want flanked\n";

typedef struct flank_world {
  unsigned rng;
} flank_world;

static unsigned next_rand(unsigned *s) {
  *s = *s * 1103515245u + 12345u;
  return (*s >> 16) & 0x7fffu;
}

static goap_action_state sometimes(goap_agent *agent, int action, double dt, void *user) {
  (void)agent;
  (void)action;
  (void)dt;
  flank_world *w = (flank_world *)user;
  return next_rand(&w->rng) % 4 == 0 ? GOAP_ACTION_SUCCESS : GOAP_ACTION_RUNNING;
}

/* 40 agents, 3 flank slots: no slot is ever held by more agents than its capacity, the
 * refused agents plan without flanking, and the shared token counter (+1 when a flank
 * starts, -1 when it ends) always equals the number of agents flanking. */
TEST(reservations_and_counters) {
  goap_file *f = parse(flank_text);
  REQUIRE(f != NULL);
  const goap_domain *d = goap_file_domain(f);
  int flank = goap_domain_find_action(d, "flank"), tokens = goap_domain_find_var(d, "tokens");
  int flanked = goap_domain_find_var(d, "flanked");
  goap_blackboard *bb = NULL;
  REQUIRE(goap_blackboard_create(NULL, &bb) == GOAP_OK);
  CHECK_EQ_INT(goap_blackboard_add_resource(bb, "flank_slot", 3), GOAP_OK);
  CHECK_EQ_INT(goap_blackboard_add_resource(bb, "flank_slot", 3), GOAP_DUPLICATE);
  CHECK_EQ_INT(goap_blackboard_add_resource(bb, "bad", -1), GOAP_INVALID_ARGUMENT);
  flank_world w = {7};
  static const char *const slot[] = {"flank_slot"};
  goap_effect up = {tokens, GOAP_ADD, 1}, down = {tokens, GOAP_ADD, -1};
  goap_action_binding b[2];
  memset(b, 0, sizeof b);
  for (int i = 0; i < 2; ++i) {
    b[i].tick = sometimes;
    b[i].user = &w;
  }
  b[flank].reserve = slot;
  b[flank].reserve_count = 1;
  b[flank].on_start = &up;
  b[flank].on_start_count = 1;
  b[flank].on_end = &down;
  b[flank].on_end_count = 1;
  goap_agent_type_desc td;
  memset(&td, 0, sizeof td);
  td.actions = b;
  td.action_count = 2;
  goap_agent_type *t = NULL;
  REQUIRE(goap_agent_type_create(d, &td, &t, NULL) == GOAP_OK);
  enum { N = 40 };
  goap_agent *ag[N];
  for (int i = 0; i < N; ++i) {
    goap_agent_desc ad;
    memset(&ad, 0, sizeof ad);
    ad.type = t;
    ad.blackboard = bb;
    REQUIRE(goap_agent_create(&ad, &ag[i], NULL) == GOAP_OK);
  }
  int max_held = 0, flanks_done = 0, holds = 0, bad_counter = 0, over = 0;
  for (int frame = 0; frame < 400; ++frame) {
    for (int i = 0; i < N; ++i) {
      goap_agent_update(ag[i], 0.1);
      int held = -1, cap = -1, running = 0;
      goap_blackboard_resource(bb, "flank_slot", &held, &cap);
      for (int k = 0; k < N; ++k) running += goap_agent_action(ag[k]) == flank;
      if (held > cap || running > cap) over++;
      if (held > max_held) max_held = held;
      int32_t tk = -1;
      goap_blackboard_get(bb, "tokens", &tk);
      if (tk != running) bad_counter++;
      if (goap_agent_get(ag[i], flanked)) { /* done: the world undoes it, go again */
        goap_agent_set(ag[i], flanked, 0);
        flanks_done++;
      }
    }
    /* one agent is destroyed and recreated now and then: it must release what it holds */
    if (frame % 50 == 25) {
      goap_agent_destroy(ag[frame % N]);
      goap_agent_desc ad;
      memset(&ad, 0, sizeof ad);
      ad.type = t;
      ad.blackboard = bb;
      REQUIRE(goap_agent_create(&ad, &ag[frame % N], NULL) == GOAP_OK);
    }
  }
  uint64_t denied = 0;
  for (int i = 0; i < N; ++i) {
    goap_agent_stats st = goap_agent_get_stats(ag[i]);
    denied += st.reservations_denied;
    holds += (int)st.actions_started;
  }
  CHECK_EQ_INT(over, 0);
  CHECK_EQ_INT(max_held, 3);
  CHECK_EQ_INT(bad_counter, 0);
  CHECK(denied > 0);
  CHECK(flanks_done > N);
  for (int i = 0; i < N; ++i) goap_agent_destroy(ag[i]);
  int held = -1;
  CHECK_EQ_INT(goap_blackboard_resource(bb, "flank_slot", &held, NULL), GOAP_OK);
  CHECK_EQ_INT(held, 0); /* everything released */
  int32_t tk = -1;
  goap_blackboard_get(bb, "tokens", &tk);
  CHECK_EQ_INT(tk, 0);
  CHECK_EQ_INT(goap_blackboard_resource(bb, "nope", &held, NULL), GOAP_NOT_FOUND);
  (void)holds;
  goap_agent_type_destroy(t);
  goap_blackboard_destroy(bb);
  goap_file_destroy(f);
}

/* A refused reservation shows in the timeline and the agent takes the other way. */
TEST(reservation_refused_story) {
  goap_file *f = parse(flank_text);
  REQUIRE(f != NULL);
  const goap_domain *d = goap_file_domain(f);
  goap_blackboard *bb = NULL;
  REQUIRE(goap_blackboard_create(NULL, &bb) == GOAP_OK);
  CHECK_EQ_INT(goap_blackboard_add_resource(bb, "flank_slot", 1), GOAP_OK);
  static const char *const slot[] = {"flank_slot"};
  goap_action_binding b[2];
  memset(b, 0, sizeof b);
  b[0].reserve = slot;
  b[0].reserve_count = 1;
  b[0].tick = forever;
  b[1].tick = forever;
  goap_agent_type_desc td;
  memset(&td, 0, sizeof td);
  td.actions = b;
  td.action_count = 2;
  goap_agent_type *t = NULL;
  REQUIRE(goap_agent_type_create(d, &td, &t, NULL) == GOAP_OK);
  recorder r1, r2;
  memset(&r1, 0, sizeof r1);
  memset(&r2, 0, sizeof r2);
  r1.d = r2.d = d;
  r1.quiet_memory = r2.quiet_memory = 1;
  goap_agent_desc ad;
  memset(&ad, 0, sizeof ad);
  ad.type = t;
  ad.blackboard = bb;
  ad.on_event = on_event;
  ad.event_user = &r1;
  goap_agent *a1 = NULL;
  REQUIRE(goap_agent_create(&ad, &a1, NULL) == GOAP_OK);
  ad.event_user = &r2;
  goap_agent *a2 = NULL;
  REQUIRE(goap_agent_create(&ad, &a2, NULL) == GOAP_OK);
  REQUIRE(a1 && a2);
  goap_agent_update(a1, 0.1);
  goap_agent_update(a2, 0.1);
  CHECK_STR(r1.log, "replan start; plan attack 1 flank; start flank");
  CHECK_STR(r2.log, "replan start; denied flank flank_slot; plan attack 5 hold_position; "
                    "start hold_position");
  /* the first one is interrupted: the slot frees, and a new plan of the second may take it */
  goap_agent_replan(a1);
  int held = -1;
  goap_blackboard_resource(bb, "flank_slot", &held, NULL);
  CHECK_EQ_INT(held, 0);
  goap_agent_replan(a2);
  goap_agent_update(a2, 0.1);
  CHECK_EQ_INT(goap_agent_action(a2), goap_domain_find_action(d, "flank"));
  goap_blackboard_resource(bb, "flank_slot", &held, NULL);
  CHECK_EQ_INT(held, 1);
  goap_agent_destroy(a1);
  goap_agent_destroy(a2);
  goap_agent_type_destroy(t);
  goap_blackboard_destroy(bb);
  goap_file_destroy(f);
}

/* Orders become goals with a priority; a more important goal of the member overrides them;
 * an order ends when its goal is achieved. */
static const char *const order_text =
    "var see_player: bool\nvar in_cover: bool\nvar patrolled: bool\nvar enemy_down: bool\n"
    "action patrol\n  eff patrolled\n"
    "action take_cover\n  eff in_cover\n"
    "action attack\n  pre see_player\n  eff enemy_down\n"
    "goal guard\n  priority 1\n  want patrolled\n"
    "goal cover\n  priority 0\n  want in_cover\n"
    "goal fight\n  priority 10\n  want enemy_down\n  valid see_player\n";

TEST(orders) {
  goap_file *f = parse(order_text);
  REQUIRE(f != NULL);
  const goap_domain *d = goap_file_domain(f);
  goap_action_binding b[3];
  goap_goal_binding g[3];
  REQUIRE(goap_file_bindings(f, b, 3, g, 3) == GOAP_OK); /* fight's `valid` line */
  b[0].tick = forever; /* patrol never ends */
  goap_agent_type_desc td;
  memset(&td, 0, sizeof td);
  td.actions = b;
  td.action_count = 3;
  td.goals = g;
  td.goal_count = 3;
  goap_agent_type *t = NULL;
  REQUIRE(goap_agent_type_create(d, &td, &t, NULL) == GOAP_OK);
  recorder rec;
  memset(&rec, 0, sizeof rec);
  rec.d = d;
  rec.quiet_memory = 1;
  goap_agent_desc ad;
  memset(&ad, 0, sizeof ad);
  ad.type = t;
  ad.on_event = on_event;
  ad.event_user = &rec;
  goap_agent *a = NULL;
  REQUIRE(goap_agent_create(&ad, &a, NULL) == GOAP_OK);
  int cover = goap_domain_find_goal(d, "cover"), fight = goap_domain_find_goal(d, "fight");
  run(a, 2, 0.1);
  CHECK_EQ_INT(goap_agent_order(a, cover, 5), GOAP_OK);
  CHECK_EQ_INT(goap_agent_ordered_goal(a), cover);
  run(a, 3, 0.1);
  CHECK_STR(rec.log, "replan start; plan guard 1 patrol; start patrol; stop patrol; "
                     "replan order; plan cover 1 take_cover; start take_cover; ok take_cover; "
                     "done cover; replan plan_done; plan guard 1 patrol; start patrol");
  CHECK_EQ_INT(goap_agent_ordered_goal(a), -1); /* achieved: the order ended */
  /* an order below the member's own valid goal does not win */
  goap_agent_set(a, goap_domain_find_var(d, "in_cover"), 0);
  goap_agent_set(a, goap_domain_find_var(d, "see_player"), 1);
  CHECK_EQ_INT(goap_agent_order(a, cover, 5), GOAP_OK);
  goap_agent_update(a, 0.1);
  CHECK_EQ_INT(goap_agent_goal(a), fight);
  /* ... and one above it does */
  goap_agent_set(a, goap_domain_find_var(d, "enemy_down"), 0);
  CHECK_EQ_INT(goap_agent_order(a, cover, 50), GOAP_OK);
  goap_agent_update(a, 0.1);
  CHECK_EQ_INT(goap_agent_goal(a), cover);
  goap_agent_clear_order(a);
  CHECK_EQ_INT(goap_agent_ordered_goal(a), -1);
  CHECK_EQ_INT(goap_agent_order(a, 99, 1), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_agent_order(NULL, 0, 1), GOAP_INVALID_ARGUMENT);
  goap_agent_destroy(a);
  goap_agent_type_destroy(t);
  goap_file_destroy(f);
}

/* The four F.E.A.R. squad behaviours as orders. */
static const char *const squad_goals_text =
    "var suppressing: bool\nvar in_cover: bool\nvar advanced: bool\nvar searched: bool\n"
    "action suppress_fire\n  eff suppressing\n"
    "action move_to_cover\n  eff in_cover\n"
    "action move_up\n  eff advanced\n"
    "action search_room\n  eff searched\n"
    "goal suppress\n  want suppressing\n"
    "goal take_cover\n  want in_cover\n"
    "goal advance\n  want advanced\n"
    "goal search\n  want searched\n"
    "goal idle\n  priority -1\n  want suppressing, in_cover, advanced, searched\n";

TEST(squad_behaviors) {
  goap_file *f = parse(squad_goals_text);
  REQUIRE(f != NULL);
  const goap_domain *d = goap_file_domain(f);
  goap_action_binding b[4];
  memset(b, 0, sizeof b);
  for (int i = 0; i < 4; ++i) b[i].tick = forever;
  goap_agent_type_desc td;
  memset(&td, 0, sizeof td);
  td.actions = b;
  td.action_count = 4;
  goap_agent_type *t = NULL;
  REQUIRE(goap_agent_type_create(d, &td, &t, NULL) == GOAP_OK);
  goap_squad *sq = NULL;
  REQUIRE(goap_squad_create(NULL, &sq) == GOAP_OK);
  enum { N = 5 };
  goap_agent *m[N];
  for (int i = 0; i < N; ++i) {
    goap_agent_desc ad;
    memset(&ad, 0, sizeof ad);
    ad.type = t;
    REQUIRE(goap_agent_create(&ad, &m[i], NULL) == GOAP_OK);
    CHECK_EQ_INT(goap_squad_add(sq, m[i]), GOAP_OK);
  }
  CHECK_EQ_INT(goap_squad_add(sq, m[0]), GOAP_DUPLICATE);
  CHECK_EQ_INT(goap_squad_size(sq), N);
  int sup = goap_domain_find_goal(d, "suppress"), cov = goap_domain_find_goal(d, "take_cover");
  int adv = goap_domain_find_goal(d, "advance"), sea = goap_domain_find_goal(d, "search");
  char got[64];
  /* the goal each member pursues after one update, as letters */
#define PURSUED()                                                                             \
  do {                                                                                        \
    for (int i = 0; i < N; ++i) goap_agent_update(m[i], 0.1);                                 \
    for (int i = 0; i < N; ++i) {                                                             \
      int g = goap_agent_goal(m[i]);                                                          \
      got[i] = g == sup ? 'S' : g == cov ? 'C' : g == adv ? 'A' : g == sea ? 'F' : '-';       \
    }                                                                                         \
    got[N] = '\0';                                                                            \
  } while (0)
  CHECK_EQ_INT(goap_squad_order(sq, GOAP_SQUAD_GET_TO_COVER), GOAP_OK);
  PURSUED();
  CHECK_STR(got, "SCCCC"); /* one suppresses while the others move to cover */
  CHECK_EQ_INT(goap_squad_order(sq, GOAP_SQUAD_ADVANCE_COVER), GOAP_OK);
  PURSUED();
  CHECK_STR(got, "ASASA"); /* half advance, half suppress */
  CHECK_EQ_INT(goap_squad_order(sq, GOAP_SQUAD_ADVANCE_COVER), GOAP_OK);
  PURSUED();
  CHECK_STR(got, "SASAS"); /* and they swap */
  CHECK_EQ_INT(goap_squad_order(sq, GOAP_SQUAD_SEARCH), GOAP_OK);
  PURSUED();
  CHECK_STR(got, "FCFCF"); /* pairs: one searches, its partner covers; the fifth alone */
  CHECK_EQ_INT(goap_squad_current(sq), GOAP_SQUAD_SEARCH);
  CHECK_STR(goap_squad_behavior_name(GOAP_SQUAD_ORDERLY_ADVANCE), "orderly_advance");
  CHECK_EQ_INT(goap_squad_behavior_from_name("search"), GOAP_SQUAD_SEARCH);
  CHECK_EQ_INT(goap_squad_behavior_from_name("charge"), -1);
  /* orderly advance: one at a time; moving on when the mover arrives */
  CHECK_EQ_INT(goap_squad_order(sq, GOAP_SQUAD_ORDERLY_ADVANCE), GOAP_OK);
  PURSUED();
  CHECK_STR(got, "ACCCC");
  int advanced = goap_domain_find_var(d, "advanced");
  for (int k = 1; k <= N; ++k) {
    goap_agent_set(m[k - 1], advanced, 1); /* the mover got there */
    PURSUED();                             /* it notices: goal done, order over */
    goap_squad_update(sq);
    PURSUED();
    if (k < N) {
      char want[N + 1];
      for (int i = 0; i < N; ++i) want[i] = i == k ? 'A' : 'C';
      want[N] = '\0';
      CHECK_STR(got, want);
    }
  }
  CHECK_EQ_INT(goap_squad_current(sq), GOAP_SQUAD_NONE);
  for (int i = 0; i < N; ++i) CHECK_EQ_INT(goap_agent_ordered_goal(m[i]), -1);
  CHECK_EQ_INT(goap_squad_remove(sq, m[2]), GOAP_OK);
  CHECK_EQ_INT(goap_squad_remove(sq, m[2]), GOAP_NOT_FOUND);
  CHECK(goap_squad_member(sq, 2) == m[3]);
  goap_squad_destroy(sq);
  for (int i = 0; i < N; ++i) goap_agent_destroy(m[i]);
  goap_agent_type_destroy(t);
  goap_file_destroy(f);
#undef PURSUED
}

/* Procedural preconditions on the binding: asked when planning, not per search node. */
static int flank_cover_free(goap_agent *agent, int action, void *user) {
  (void)agent;
  (void)action;
  int *calls = (int *)user;
  calls[0]++;
  return calls[1];
}

TEST(binding_check) {
  goap_file *f = parse(flank_text);
  REQUIRE(f != NULL);
  const goap_domain *d = goap_file_domain(f);
  int flank = goap_domain_find_action(d, "flank");
  int ctl[2] = {0, 0}; /* calls, answer */
  goap_action_binding b[2];
  memset(b, 0, sizeof b);
  b[flank].check = flank_cover_free;
  b[flank].check_user = ctl;
  goap_agent_type_desc td;
  memset(&td, 0, sizeof td);
  td.actions = b;
  td.action_count = 2;
  goap_agent_type *t = NULL;
  REQUIRE(goap_agent_type_create(d, &td, &t, NULL) == GOAP_OK);
  recorder rec;
  memset(&rec, 0, sizeof rec);
  rec.d = d;
  rec.quiet_memory = 1;
  goap_agent_desc ad;
  memset(&ad, 0, sizeof ad);
  ad.type = t;
  ad.on_event = on_event;
  ad.event_user = &rec;
  goap_agent *a = NULL;
  REQUIRE(goap_agent_create(&ad, &a, NULL) == GOAP_OK);
  goap_agent_update(a, 0.1); /* no free flank cover: the other way */
  CHECK(strstr(rec.log, "plan attack 5 hold_position") != NULL);
  CHECK_EQ_INT(ctl[0], 1);
  goap_agent_set(a, goap_domain_find_var(d, "flanked"), 0);
  ctl[1] = 1;
  goap_agent_replan(a);
  goap_agent_update(a, 0.1); /* now there is one */
  CHECK(strstr(rec.log, "plan attack 1 flank") != NULL);
  CHECK_EQ_INT(ctl[0], 2); /* once per planning round */
  goap_agent_destroy(a);
  goap_agent_type_destroy(t);
  goap_file_destroy(f);
}

/* Agent types with different variable sets share one blackboard: variables are mapped by
 * name, and a member sees only the shared variables its own domain declares (the UE
 * document's templates: one AI knows day/night, the other does not). */
TEST(blackboard_across_domains) {
  goap_file *fa = parse("var is_night: bool shared\nvar alarm: bool shared\nvar lit: bool\n"
                        "action light\n  pre is_night\n  eff lit\n"
                        "action raise\n  eff alarm\n"
                        "goal see\n  priority 1\n  want lit\n"
                        "goal warn\n  priority 2\n  want alarm\n");
  goap_file *fb = parse("var hp: int 0..100 = 50\nvar hidden: bool\nvar alarm: bool shared\n"
                        "action hide\n  pre alarm\n  eff hidden\n"
                        "goal safe\n  want hidden\n");
  REQUIRE(fa != NULL && fb != NULL);
  const goap_domain *da = goap_file_domain(fa), *db = goap_file_domain(fb);
  CHECK(goap_domain_find_var(da, "alarm") != goap_domain_find_var(db, "alarm"));
  goap_blackboard *bb = NULL;
  REQUIRE(goap_blackboard_create(NULL, &bb) == GOAP_OK);
  CHECK_EQ_INT(goap_blackboard_set(bb, "is_night", 1), GOAP_OK);
  goap_agent_type *ta = NULL, *tb = NULL;
  REQUIRE(goap_agent_type_create(da, NULL, &ta, NULL) == GOAP_OK);
  REQUIRE(goap_agent_type_create(db, NULL, &tb, NULL) == GOAP_OK);
  goap_agent_desc ad;
  memset(&ad, 0, sizeof ad);
  ad.blackboard = bb;
  ad.type = ta;
  goap_agent *a = NULL;
  REQUIRE(goap_agent_create(&ad, &a, NULL) == GOAP_OK);
  ad.type = tb;
  goap_agent *b = NULL;
  REQUIRE(goap_agent_create(&ad, &b, NULL) == GOAP_OK);
  REQUIRE(a && b);
  CHECK_EQ_INT(goap_agent_get(a, goap_domain_find_var(da, "is_night")), 1); /* from the board */
  goap_agent_update(b, 0.1); /* nothing to do: no alarm */
  CHECK_EQ_INT(goap_agent_goal(b), -1);
  goap_agent_update(a, 0.1); /* raises the alarm (warn: priority 2) */
  int32_t v = 0;
  CHECK_EQ_INT(goap_blackboard_get(bb, "alarm", &v), GOAP_OK);
  CHECK_EQ_INT(v, 1);
  goap_agent_update(b, 0.1); /* b's own `alarm` variable, at another id, follows */
  CHECK_EQ_INT(goap_agent_get(b, goap_domain_find_var(db, "alarm")), 1);
  CHECK_EQ_INT(goap_agent_get(b, goap_domain_find_var(db, "hidden")), 1);
  CHECK_EQ_INT(goap_agent_get(b, goap_domain_find_var(db, "hp")), 50); /* private: untouched */
  goap_agent_destroy(a);
  goap_agent_destroy(b);
  goap_agent_type_destroy(ta);
  goap_agent_type_destroy(tb);
  goap_blackboard_destroy(bb);
  goap_file_destroy(fa);
  goap_file_destroy(fb);
}

/* A callback that writes a watched variable (inside the update) still interrupts: at the
 * next update, like any change from outside the plan's own effects. */
static goap_action_state patrol_sees(goap_agent *agent, int action, double dt, void *user) {
  (void)action;
  (void)dt;
  int *ticks = (int *)user;
  const goap_domain *d = goap_agent_type_domain(goap_agent_get_type(agent));
  if (++*ticks == 3) goap_agent_set(agent, goap_domain_find_var(d, "see_player"), 1);
  return GOAP_ACTION_RUNNING;
}

TEST(watch_written_by_callback) {
  guard_setup s;
  REQUIRE(guard_make(&s, 1, 100.0, 0));
  goap_agent_destroy(s.a);
  goap_agent_type_destroy(s.t);
  int ticks = 0;
  goap_action_binding b[3];
  goap_goal_binding g[2];
  REQUIRE(goap_file_bindings(s.f, b, 3, g, 2) == GOAP_OK);
  int see = goap_domain_find_var(s.d, "see_player");
  int32_t watch = see;
  g[goap_domain_find_goal(s.d, "guard")].watch = &watch;
  g[goap_domain_find_goal(s.d, "guard")].watch_count = 1;
  goap_cond valid = {see, GOAP_EQ, 1};
  g[goap_domain_find_goal(s.d, "fight")].valid = &valid;
  g[goap_domain_find_goal(s.d, "fight")].valid_count = 1;
  b[goap_domain_find_action(s.d, "patrol")].tick = patrol_sees;
  b[goap_domain_find_action(s.d, "patrol")].user = &ticks;
  goap_agent_type_desc td;
  memset(&td, 0, sizeof td);
  td.actions = b;
  td.action_count = 3;
  td.goals = g;
  td.goal_count = 2;
  td.goal_check_interval = 100;
  REQUIRE(goap_agent_type_create(s.d, &td, &s.t, NULL) == GOAP_OK);
  goap_agent_desc ad;
  memset(&ad, 0, sizeof ad);
  ad.type = s.t;
  ad.on_event = on_event;
  ad.event_user = &s.rec;
  memset(&s.rec, 0, sizeof s.rec);
  s.rec.d = s.d;
  s.rec.quiet_memory = 1;
  REQUIRE(goap_agent_create(&ad, &s.a, NULL) == GOAP_OK);
  run(s.a, 6, 0.1);
  CHECK(strstr(s.rec.log, "stop patrol; replan watch; plan fight 2 attack") != NULL);
  guard_free(&s);
}

/* A plan found by a search that spanned updates is cached under the state the search started
 * from, even when memory changed meanwhile: an agent in the changed state is not served it. */
TEST(cache_key_is_the_search_start) {
  goap_file *f = parse("var a: bool\nvar b: bool\nvar c: bool\nvar noise: int 0..9\n"
                       "action a1\n  eff a\naction a2\n  pre a\n  eff b\n"
                       "action a3\n  pre b\n  eff c\ngoal g\n  want c\n");
  REQUIRE(f != NULL);
  const goap_domain *d = goap_file_domain(f);
  goap_plan_cache *c = NULL;
  REQUIRE(goap_plan_cache_create(NULL, 8, &c) == GOAP_OK);
  goap_agent_type_desc td;
  memset(&td, 0, sizeof td);
  td.expansions_per_update = 1; /* a search spans updates */
  goap_agent_type *t = NULL;
  REQUIRE(c && goap_agent_type_create(d, &td, &t, NULL) == GOAP_OK);
  goap_agent_desc ad;
  memset(&ad, 0, sizeof ad);
  ad.type = t;
  ad.cache = c;
  goap_agent *x = NULL;
  REQUIRE(goap_agent_create(&ad, &x, NULL) == GOAP_OK);
  CHECK_EQ_INT(goap_agent_update(x, 0.1), GOAP_IN_PROGRESS);
  goap_agent_set(x, goap_domain_find_var(d, "b"), 1); /* memory moves on mid-search */
  while (goap_agent_update(x, 0.1) == GOAP_IN_PROGRESS) {
  }
  /* a second agent already has b: its plan is [a3], not the first agent's [a1 a2 a3] */
  goap_word mem[1];
  goap_state_init(d, mem);
  goap_state_set(d, mem, goap_domain_find_var(d, "b"), 1);
  ad.memory = mem;
  goap_agent *y = NULL;
  REQUIRE(goap_agent_create(&ad, &y, NULL) == GOAP_OK);
  while (goap_agent_update(y, 0.1) == GOAP_IN_PROGRESS) {
  }
  int len = 0;
  const int32_t *plan = goap_agent_plan(y, &len, NULL);
  CHECK(plan == NULL || len <= 1); /* [a3] (maybe already run), never the stale plan */
  CHECK_EQ_INT(goap_agent_get(y, goap_domain_find_var(d, "a")), 0);
  goap_agent_destroy(x);
  goap_agent_destroy(y);
  goap_agent_type_destroy(t);
  goap_plan_cache_destroy(c);
  goap_file_destroy(f);
}

/* A planner shared by a crowd: the same plans, far less memory; a search that spans updates
 * moves to the agent's own planner and still gives the unsliced plan. */
TEST(shared_planner) {
  goap_file *f = load_soldier();
  REQUIRE(f != NULL);
  const goap_domain *d = goap_file_domain(f);
  world w = {1, 0};
  goap_agent_type *t = soldier_type(d, &w);
  REQUIRE(t != NULL);
  goap_planner *shared = NULL;
  REQUIRE(goap_planner_create(d, NULL, &shared) == GOAP_OK);
  enum { N = 20 };
  recorder own_log, shared_log;
  memset(&own_log, 0, sizeof own_log);
  memset(&shared_log, 0, sizeof shared_log);
  own_log.d = shared_log.d = d;
  size_t own_bytes = 0, shared_bytes = 0;
  for (int k = 0; k < 2; ++k) {
    goap_agent *ag[N];
    for (int i = 0; i < N; ++i) {
      goap_agent_desc ad;
      memset(&ad, 0, sizeof ad);
      ad.type = t;
      ad.planner = k ? shared : NULL;
      ad.on_event = i == 7 ? on_event : NULL; /* one agent's story */
      ad.event_user = k ? &shared_log : &own_log;
      REQUIRE(goap_agent_create(&ad, &ag[i], NULL) == GOAP_OK);
    }
    for (int frame = 0; frame < 20; ++frame) /* interleaved: the planner changes hands */
      for (int i = 0; i < N; ++i) goap_agent_update(ag[i], 0.1);
    for (int i = 0; i < N; ++i) {
      CHECK_EQ_INT(goap_agent_get(ag[i], goap_domain_find_var(d, "target_dead")), 1);
      if (k) shared_bytes += goap_agent_get_stats(ag[i]).memory_bytes;
      else own_bytes += goap_agent_get_stats(ag[i]).memory_bytes;
      goap_agent_destroy(ag[i]);
    }
  }
  CHECK_STR(shared_log.log, own_log.log); /* the door story, identical */
  CHECK(shared_bytes * 5 < own_bytes);    /* no planner per agent */
  goap_agent_type_destroy(t);
  /* a sliced search: it starts on the shared planner, moves to the agent's own */
  char text[8192];
  size_t n = 0;
  for (int i = 0; i <= 30; ++i) n += (size_t)snprintf(text + n, sizeof text - n, "var x%d: bool\n", i);
  for (int i = 0; i < 30; ++i)
    n += (size_t)snprintf(text + n, sizeof text - n,
                          "action s%d\n  cost %d\n  pre x%d\n  eff x%d\n"
                          "action j%d\n  cost %d\n  eff x%d\n",
                          i, 1 + i % 3, i, i + 1, i, 4 * (i + 1), i + 1);
  n += (size_t)snprintf(text + n, sizeof text - n, "goal reach\n  want x30\n");
  goap_file *g = parse(text);
  REQUIRE(g != NULL);
  const goap_domain *dg = goap_file_domain(g);
  goap_planner *sp = NULL, *ref = NULL;
  REQUIRE(goap_planner_create(dg, NULL, &sp) == GOAP_OK);
  REQUIRE(goap_planner_create(dg, NULL, &ref) == GOAP_OK);
  int nw = 0;
  goap_request r;
  memset(&r, 0, sizeof r);
  r.want = goap_domain_goal_want(dg, 0, &nw);
  r.want_count = nw;
  int32_t refplan[64];
  goap_result res;
  memset(&res, 0, sizeof res);
  res.plan = refplan;
  res.plan_capacity = 64;
  REQUIRE(goap_plan(ref, &r, &res) == GOAP_OK);
  goap_agent_type_desc td;
  memset(&td, 0, sizeof td);
  td.expansions_per_update = 4;
  td.max_nodes = 1u << 22;
  goap_agent_type *tg = NULL;
  REQUIRE(goap_agent_type_create(dg, &td, &tg, NULL) == GOAP_OK);
  goap_agent_desc ad;
  memset(&ad, 0, sizeof ad);
  ad.type = tg;
  ad.planner = sp;
  goap_agent *a1 = NULL, *a2 = NULL;
  REQUIRE(goap_agent_create(&ad, &a1, NULL) == GOAP_OK);
  REQUIRE(goap_agent_create(&ad, &a2, NULL) == GOAP_OK);
  int guard = 0;
  goap_status s1 = GOAP_IN_PROGRESS, s2 = GOAP_IN_PROGRESS;
  while ((s1 == GOAP_IN_PROGRESS || s2 == GOAP_IN_PROGRESS) && guard++ < 100000) {
    if (s1 == GOAP_IN_PROGRESS) s1 = goap_agent_update(a1, 0.01);
    if (s2 == GOAP_IN_PROGRESS) s2 = goap_agent_update(a2, 0.01);
  }
  CHECK_EQ_INT(s1, GOAP_OK);
  CHECK_EQ_INT(s2, GOAP_OK);
  for (int k = 0; k < 2; ++k) {
    int len = 0;
    const int32_t *plan = goap_agent_plan(k ? a2 : a1, &len, NULL);
    REQUIRE(plan != NULL);
    CHECK(len == res.plan_length && memcmp(plan, refplan, (size_t)len * sizeof *plan) == 0);
  }
  goap_agent_destroy(a1);
  goap_agent_destroy(a2);
  goap_agent_type_destroy(tg);
  goap_planner_destroy(sp);
  goap_planner_destroy(ref);
  goap_file_destroy(g);
  goap_planner_destroy(shared);
  goap_file_destroy(f);
}

TEST_MAIN(TEST_ENTRY(door_story), TEST_ENTRY(shared_planner), TEST_ENTRY(watch_written_by_callback),
          TEST_ENTRY(cache_key_is_the_search_start), TEST_ENTRY(blackboard_across_domains), TEST_ENTRY(binding_check), TEST_ENTRY(squad_behaviors), TEST_ENTRY(reservations_and_counters),
          TEST_ENTRY(reservation_refused_story), TEST_ENTRY(orders), TEST_ENTRY(sensors), TEST_ENTRY(trigger_watch), TEST_ENTRY(trigger_better_goal),
          TEST_ENTRY(trigger_timeout), TEST_ENTRY(trigger_preconditions_and_repair),
          TEST_ENTRY(goal_fallback_and_cooldown), TEST_ENTRY(hysteresis),
          TEST_ENTRY(time_sliced_planning), TEST_ENTRY(plan_cache), TEST_ENTRY(blackboard),
          TEST_ENTRY(allocation), TEST_ENTRY(type_validation))
