/*
 * door_agent.c -- the soldier of examples/soldier.goap as a live agent with C callbacks.
 *
 * The `door_held` simulation of the file, played by the host instead of the simulator: the
 * player holds the door shut, so open_door and kick_door fail when they are tried. The file's
 * `on_fail` lines become the agent's failure memory (door_stuck, kick_failed), and the agent
 * replans until it goes in through the window and shoots.
 *
 *   door_agent [path/to/soldier.goap]
 *
 * It is also a test (CTest: example_c_door_agent, and the single-file distribution's test):
 * the exit status is non-zero unless the target dies, the two failures were learnt, the agent
 * planned exactly three times (two replans after action failures) and the window was used.
 *
 * Invariants: every object created here is destroyed before returning; no global state.
 */
#include <goap/agent.h>
#include <goap/file.h>

#include <stdio.h>
#include <string.h>

#ifndef GOAP_EXAMPLES_DIR
#define GOAP_EXAMPLES_DIR "examples"
#endif

typedef struct world {
  int open_door, kick_door, jump_window; /* action ids */
  int door_held;                         /* the player holds the door */
  int ticks, failures, plans, window_used;
} world;

/* The host decides how each action goes: every action takes one tick, except that the door
 * cannot be opened or kicked while it is held. */
static goap_action_state tick(goap_agent *agent, int action, double dt, void *user) {
  world *w = (world *)user;
  (void)agent;
  (void)dt;
  w->ticks++;
  if (w->door_held && (action == w->open_door || action == w->kick_door)) {
    w->failures++;
    return GOAP_ACTION_FAILURE;
  }
  if (action == w->jump_window) w->window_used = 1;
  return GOAP_ACTION_SUCCESS;
}

static void on_event(goap_agent *agent, const goap_agent_event *ev, void *user) {
  world *w = (world *)user;
  const goap_domain *d = goap_agent_type_domain(goap_agent_get_type(agent));
  switch (ev->kind) {
    case GOAP_EVENT_PLAN:
      w->plans++;
      printf("%5.2f plan (cost %g):", ev->time, ev->cost);
      for (int i = 0; i < ev->plan_length; i++)
        printf(" %s", goap_domain_action_name(d, ev->plan[i]));
      printf("\n");
      break;
    case GOAP_EVENT_ACTION_FAILURE:
      printf("%5.2f %s failed\n", ev->time, goap_domain_action_name(d, ev->action));
      break;
    case GOAP_EVENT_ACTION_SUCCESS:
      printf("%5.2f %s done\n", ev->time, goap_domain_action_name(d, ev->action));
      break;
    case GOAP_EVENT_MEMORY: {
      goap_var_info vi;
      goap_domain_var_info(d, ev->var, &vi);
      printf("%5.2f   memory: %s = %d\n", ev->time, vi.name, (int)ev->value);
      break;
    }
    case GOAP_EVENT_GOAL_DONE:
      printf("%5.2f goal %s done\n", ev->time, goap_domain_goal_name(d, ev->goal));
      break;
    default:
      break;
  }
}

int main(int argc, char **argv) {
  const char *path = argc > 1 ? argv[1] : GOAP_EXAMPLES_DIR "/soldier.goap";
  goap_file *f = NULL;
  goap_error err;
  if (goap_file_load(path, NULL, &f, &err) != GOAP_OK) {
    char text[2048];
    goap_error_format(&err, text, sizeof text);
    fprintf(stderr, "%s\n", text);
    return 1;
  }
  const goap_domain *d = goap_file_domain(f);
  int na = goap_domain_action_count(d), ng = goap_domain_goal_count(d);
  world w;
  memset(&w, 0, sizeof w);
  w.open_door = goap_domain_find_action(d, "open_door");
  w.kick_door = goap_domain_find_action(d, "kick_door");
  w.jump_window = goap_domain_find_action(d, "jump_window");
  w.door_held = 1;

  goap_action_binding acts[32];
  goap_goal_binding goals[8];
  if (na > 32 || ng > 8 || goap_file_bindings(f, acts, na, goals, ng) != GOAP_OK) {
    fprintf(stderr, "door_agent: unexpected domain\n");
    goap_file_destroy(f);
    return 1;
  }
  for (int i = 0; i < na; i++) {
    acts[i].tick = tick;
    acts[i].user = &w;
  }
  goap_agent_type_desc td;
  memset(&td, 0, sizeof td);
  td.name = "soldier";
  td.actions = acts;
  td.action_count = na;
  td.goals = goals;
  td.goal_count = ng;
  goap_agent_type *type = NULL;
  if (goap_agent_type_create(d, &td, &type, &err) != GOAP_OK) {
    fprintf(stderr, "door_agent: %s\n", err.message);
    goap_file_destroy(f);
    return 1;
  }
  goap_agent_desc ad;
  memset(&ad, 0, sizeof ad);
  ad.type = type;
  ad.on_event = on_event;
  ad.event_user = &w;
  goap_agent *agent = NULL;
  if (goap_agent_create(&ad, &agent, NULL) != GOAP_OK) {
    goap_agent_type_destroy(type);
    goap_file_destroy(f);
    return 1;
  }

  int dead = goap_domain_find_var(d, "target_dead");
  for (int frame = 0; frame < 100 && !goap_agent_get(agent, dead); frame++)
    goap_agent_update(agent, 0.1);

  int ok = goap_agent_get(agent, dead) == 1 &&
           goap_agent_get(agent, goap_domain_find_var(d, "door_stuck")) == 1 &&
           goap_agent_get(agent, goap_domain_find_var(d, "kick_failed")) == 1 &&
           w.failures == 2 && w.plans == 3 && w.window_used;
  goap_agent_stats st = goap_agent_get_stats(agent);
  printf("%s: %d plans, %d failures, %llu replans after failures\n", ok ? "ok" : "FAILED",
         w.plans, w.failures,
         (unsigned long long)st.replans[GOAP_REPLAN_ACTION_FAILED]);
  goap_agent_destroy(agent);
  goap_agent_type_destroy(type);
  goap_file_destroy(f);
  return ok ? 0 : 1;
}
