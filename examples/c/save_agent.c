/*
 * save_agent.c -- saving and loading a game with an agent in it (goap/save.h).
 *
 * A soldier of examples/soldier.goap is halfway through its plan when the player saves. The
 * save holds the agent's snapshot (what a game writes into its save file next to its own
 * data); loading creates a new agent of the same type and restores it: it goes on with the
 * same plan, at the same step, as if nothing happened. A save made before the domain changed
 * is refused with a clear message.
 *
 * Build: see CMakeLists.txt (example_save_agent; run by CTest as example_c_save_agent).
 */
#include <goap/agent.h>
#include <goap/file.h>
#include <goap/save.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef GOAP_EXAMPLES_DIR
#define GOAP_EXAMPLES_DIR "examples"
#endif

/* Every action takes two updates. */
static goap_action_state two_updates(goap_agent *a, int action, double dt, void *user) {
  (void)a;
  (void)action;
  int *ticks = (int *)user;
  if (dt == 0) return GOAP_ACTION_RUNNING;
  return ++*ticks % 2 == 0 ? GOAP_ACTION_SUCCESS : GOAP_ACTION_RUNNING;
}

static goap_agent_type *soldier_type(const goap_file *f, int *ticks, double timeout) {
  const goap_domain *d = goap_file_domain(f);
  goap_action_binding actions[16];
  goap_goal_binding goals[4];
  int na = goap_domain_action_count(d), ng = goap_domain_goal_count(d);
  if (na > 16 || ng > 4 || goap_file_bindings(f, actions, na, goals, ng) != GOAP_OK) return NULL;
  for (int i = 0; i < na; ++i) {
    actions[i].tick = two_updates;
    actions[i].user = ticks;
    actions[i].timeout = timeout;
  }
  goap_agent_type_desc td;
  memset(&td, 0, sizeof td);
  td.name = "soldier";
  td.actions = actions;
  td.action_count = na;
  td.goals = goals;
  td.goal_count = ng;
  goap_agent_type *t = NULL;
  return goap_agent_type_create(d, &td, &t, NULL) == GOAP_OK ? t : NULL;
}

static void show(const char *when, const goap_agent *a, const goap_domain *d) {
  int len = 0, step = 0;
  goap_agent_plan(a, &len, &step);
  int act = goap_agent_action(a);
  printf("%-8s t=%.1f  step %d of %d  %s\n", when, goap_agent_time(a), step, len,
         act >= 0 ? goap_domain_action_name(d, act) : "-");
}

int main(void) {
  goap_file *f = NULL;
  goap_error diag;
  if (goap_file_load(GOAP_EXAMPLES_DIR "/soldier.goap", NULL, &f, &diag) != GOAP_OK) return 1;
  const goap_domain *d = goap_file_domain(f);
  int ticks = 0;
  goap_agent_type *type = soldier_type(f, &ticks, 0.0);
  if (!type) return 1;

  goap_agent_desc ad;
  memset(&ad, 0, sizeof ad);
  ad.type = type;
  goap_agent *soldier = NULL;
  if (goap_agent_create(&ad, &soldier, NULL) != GOAP_OK) return 1;
  for (int i = 0; i < 5; ++i) goap_agent_update(soldier, 0.1);
  show("playing", soldier, d);

  /* Save: ask the size, then write into the game's buffer. The game saves `ticks` itself
   * (its own state: how far the running action got). */
  size_t size = 0;
  goap_agent_snapshot(soldier, NULL, 0, &size);
  unsigned char *save = (unsigned char *)malloc(size);
  if (!save || goap_agent_snapshot(soldier, save, size, &size) != GOAP_OK) return 1;
  int saved_ticks = ticks;
  printf("saved    %zu bytes\n", size);
  goap_agent_destroy(soldier);

  /* Load: a new agent of the same type, restored. */
  ticks = saved_ticks;
  goap_agent *loaded = NULL;
  if (goap_agent_create(&ad, &loaded, NULL) != GOAP_OK) return 1;
  goap_error why;
  goap_status st = goap_agent_restore(loaded, save, size, &why);
  if (st != GOAP_OK) {
    printf("load failed: %s (%s)\n", goap_status_name(st), why.message);
    return 1;
  }
  show("loaded", loaded, d);
  while (goap_agent_goal(loaded) >= 0 || goap_agent_time(loaded) < 1.0)
    goap_agent_update(loaded, 0.1);
  show("done", loaded, d);
  int dead = goap_agent_get(loaded, goap_domain_find_var(d, "target_dead"));
  printf("target_dead = %d\n", dead);

  /* A save from before a balance patch (every action now times out after 5 s): the type
   * changed, so the save is refused rather than misread. */
  goap_agent_type *patched = soldier_type(f, &ticks, 5.0);
  goap_agent_desc pd = ad;
  pd.type = patched;
  goap_agent *other = NULL;
  if (goap_agent_create(&pd, &other, NULL) != GOAP_OK) return 1;
  st = goap_agent_restore(other, save, size, &why);
  printf("patched  %s: %s\n", goap_status_name(st), why.message);

  goap_agent_destroy(other);
  goap_agent_type_destroy(patched);
  goap_agent_destroy(loaded);
  goap_agent_type_destroy(type);
  goap_file_destroy(f);
  free(save);
  return dead == 1 && st == GOAP_DOMAIN_MISMATCH ? 0 : 1;
}
