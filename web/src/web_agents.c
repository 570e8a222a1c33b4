/*
 * web_agents.c -- thin agents for the browser (goap.js: GoapAgent): one agent with every
 * action and goal of a .goap file, updated by the page frame by frame.
 *
 * Invariants:
 *  - A handle is the address of a web_agent (never 0); it owns its file, type and agent.
 *  - Actions run in an empty world: each succeeds after its `duration` (at once without one);
 *    the page changes what the agent believes with goap_web_agent_set, as a sensor would.
 *  - goap_web_agent_inspect returns JSON owned by the agent, valid until its next call; the
 *    events in it are those since the previous inspect.
 */
#include <emscripten.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "goap/agent.h"

typedef struct web_agent {
  goap_file *f;
  goap_agent_type *type;
  goap_agent *agent;
  double *duration;  /* per action */
  double left;       /* seconds left of the running action */
  cli_buf events;    /* JSON objects separated by ", " since the last inspect */
  cli_buf out;
} web_agent;

uintptr_t goap_web_agent_create(const char *path);
int goap_web_agent_update(uintptr_t h, double dt);
int goap_web_agent_set(uintptr_t h, const char *var, int value);
const char *goap_web_agent_inspect(uintptr_t h);
void goap_web_agent_destroy(uintptr_t h);

static void on_start(goap_agent *agent, int action, void *user) {
  (void)agent;
  web_agent *w = user;
  w->left = w->duration[action];
}

static goap_action_state on_tick(goap_agent *agent, int action, double dt, void *user) {
  (void)agent;
  (void)action;
  web_agent *w = user;
  w->left -= dt;
  return w->left <= 1e-9 ? GOAP_ACTION_SUCCESS : GOAP_ACTION_RUNNING;
}

static void on_event(goap_agent *agent, const goap_agent_event *ev, void *user) {
  web_agent *w = user;
  const goap_domain *d = goap_file_domain(w->f);
  static const char *const kinds[] = {"replan", "goal", "plan", "plan_failed", "repair", "start",
                                      "success", "failure", "stop", "memory", "goal_done",
                                      "idle", "reservation_denied"};
  (void)agent;
  if (w->events.len) cli_buf_printf(&w->events, ", ");
  cli_buf_printf(&w->events, "{\"t\": %g, \"event\": \"%s\"", ev->time,
                 (size_t)ev->kind < sizeof kinds / sizeof kinds[0] ? kinds[ev->kind] : "other");
  if (ev->kind == GOAP_EVENT_REPLAN)
    cli_buf_printf(&w->events, ", \"reason\": \"%s\"", goap_replan_reason_name(ev->reason));
  if (ev->goal >= 0 && ev->kind != GOAP_EVENT_MEMORY) {
    cli_buf_printf(&w->events, ", \"goal\": ");
    cli_json_string(&w->events, goap_domain_goal_name(d, ev->goal));
  }
  if (ev->action >= 0 && ev->kind != GOAP_EVENT_MEMORY) {
    cli_buf_printf(&w->events, ", \"action\": ");
    cli_json_string(&w->events, goap_domain_action_name(d, ev->action));
  }
  if (ev->kind == GOAP_EVENT_PLAN) {
    cli_buf_printf(&w->events, ", \"cost\": %g, \"plan\": [", ev->cost);
    for (int i = 0; i < ev->plan_length; i++) {
      if (i) cli_buf_printf(&w->events, ", ");
      cli_json_string(&w->events, goap_domain_action_name(d, ev->plan[i]));
    }
    cli_buf_printf(&w->events, "]");
  }
  if (ev->kind == GOAP_EVENT_MEMORY) {
    goap_var_info vi;
    goap_domain_var_info(d, ev->var, &vi);
    cli_buf_printf(&w->events, ", \"var\": ");
    cli_json_string(&w->events, vi.name);
    cli_buf_printf(&w->events, ", \"value\": %d", (int)ev->value);
  }
  cli_buf_printf(&w->events, "}");
}

/* The file at path (in the module's file system) as one agent; 0 when it cannot be loaded
 * (goap.js then runs `goap check` for the reason). */
EMSCRIPTEN_KEEPALIVE uintptr_t goap_web_agent_create(const char *path) {
  web_agent *w = calloc(1, sizeof *w);
  goap_error err;
  if (!w || goap_file_load(path, NULL, &w->f, &err) != GOAP_OK) {
    free(w);
    return 0;
  }
  const goap_domain *d = goap_file_domain(w->f);
  int na = goap_domain_action_count(d), ng = goap_domain_goal_count(d);
  goap_action_binding *acts = calloc((size_t)na + 1, sizeof *acts);
  goap_goal_binding *goals = calloc((size_t)ng + 1, sizeof *goals);
  w->duration = calloc((size_t)na + 1, sizeof *w->duration);
  cli_buf_init(&w->events);
  cli_buf_init(&w->out);
  int ok = acts && goals && w->duration && goap_file_bindings(w->f, acts, na, goals, ng) == GOAP_OK;
  for (int i = 0; ok && i < na; i++) {
    goap_file_action_info info;
    if (goap_file_action_info_get(w->f, i, &info) == GOAP_OK) w->duration[i] = info.duration;
    acts[i].start = on_start;
    acts[i].tick = on_tick;
    acts[i].user = w;
  }
  if (ok) {
    goap_agent_type_desc td;
    memset(&td, 0, sizeof td);
    td.name = "agent";
    td.actions = acts;
    td.action_count = na;
    td.goals = goals;
    td.goal_count = ng;
    ok = goap_agent_type_create(d, &td, &w->type, NULL) == GOAP_OK;
  }
  if (ok) {
    goap_agent_desc ad;
    memset(&ad, 0, sizeof ad);
    ad.type = w->type;
    ad.on_event = on_event;
    ad.event_user = w;
    ok = goap_agent_create(&ad, &w->agent, NULL) == GOAP_OK;
  }
  free(acts);
  free(goals);
  if (!ok) {
    goap_web_agent_destroy((uintptr_t)w);
    return 0;
  }
  return (uintptr_t)w;
}

/* Advances the agent by dt seconds; goap_agent_update's status (0: GOAP_OK). */
EMSCRIPTEN_KEEPALIVE int goap_web_agent_update(uintptr_t h, double dt) {
  web_agent *w = (web_agent *)h;
  return w ? (int)goap_agent_update(w->agent, dt) : (int)GOAP_INVALID_ARGUMENT;
}

/* Sets what the agent believes: a variable by name (bools 0/1, enums by index). */
EMSCRIPTEN_KEEPALIVE int goap_web_agent_set(uintptr_t h, const char *var, int value) {
  web_agent *w = (web_agent *)h;
  if (!w) return (int)GOAP_INVALID_ARGUMENT;
  int v = goap_domain_find_var(goap_file_domain(w->f), var);
  return v < 0 ? (int)GOAP_NOT_FOUND : (int)goap_agent_set(w->agent, v, value);
}

/* {"time", "goal", "action", "plan", "step", "cost", "planning", "memory", "events"}. */
EMSCRIPTEN_KEEPALIVE const char *goap_web_agent_inspect(uintptr_t h) {
  web_agent *w = (web_agent *)h;
  if (!w) return "null";
  const goap_domain *d = goap_file_domain(w->f);
  int goal = goap_agent_goal(w->agent), action = goap_agent_action(w->agent), len = 0, step = 0;
  const int32_t *plan = goap_agent_plan(w->agent, &len, &step);
  cli_buf_free(&w->out);
  cli_buf_init(&w->out);
  cli_buf_printf(&w->out, "{\"time\": %g, \"goal\": ", goap_agent_time(w->agent));
  if (goal >= 0) cli_json_string(&w->out, goap_domain_goal_name(d, goal));
  else cli_buf_printf(&w->out, "null");
  cli_buf_printf(&w->out, ", \"action\": ");
  if (action >= 0) cli_json_string(&w->out, goap_domain_action_name(d, action));
  else cli_buf_printf(&w->out, "null");
  cli_buf_printf(&w->out, ", \"plan\": [");
  for (int i = 0; plan && i < len; i++) {
    if (i) cli_buf_printf(&w->out, ", ");
    cli_json_string(&w->out, goap_domain_action_name(d, plan[i]));
  }
  cli_buf_printf(&w->out, "], \"step\": %d, \"cost\": %g, \"planning\": %s, \"memory\": {", step,
                 goap_agent_plan_cost(w->agent), goap_agent_is_planning(w->agent) ? "true" : "false");
  for (int v = 0; v < goap_domain_var_count(d); v++) {
    goap_var_info vi;
    goap_domain_var_info(d, v, &vi);
    cli_buf_printf(&w->out, "%s", v ? ", " : "");
    cli_json_string(&w->out, vi.name);
    cli_buf_printf(&w->out, ": %d", (int)goap_agent_get(w->agent, v));
  }
  cli_buf_printf(&w->out, "}, \"events\": [%s]}", cli_buf_str(&w->events));
  cli_buf_free(&w->events);
  cli_buf_init(&w->events);
  return cli_buf_str(&w->out);
}

EMSCRIPTEN_KEEPALIVE void goap_web_agent_destroy(uintptr_t h) {
  web_agent *w = (web_agent *)h;
  if (!w) return;
  goap_agent_destroy(w->agent);
  goap_agent_type_destroy(w->type);
  goap_file_destroy(w->f);
  cli_buf_free(&w->events);
  cli_buf_free(&w->out);
  free(w->duration);
  free(w);
}
