/*
 * goap/sim.h -- running a `.goap` file's `simulation` blocks (library goap_sim, src/sim/): one
 * agent with every action and goal of the file, or the squad of its `member` lines, in a
 * scripted world. See docs/format.md.
 *
 * A layer above the format (goap/file.h: loading, the simulations' names) and the runtime
 * (agents, squads, replays). It never prints. Ownership and threads: a simulation allocates
 * everything it needs and frees it before returning; the file is only read, so simulations of
 * one file may run in several threads at once (each with its own options and result).
 */
#ifndef GOAP_SIM_H
#define GOAP_SIM_H

#include "agent.h"
#include "file.h"
#include "goap.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The world changed: a variable assigned by an `at` line, or a `world` variable changed by
 * the effects of an action that succeeded. */
typedef void (*goap_sim_world_fn)(int var, int32_t old_value, int32_t value, double time,
                                  void *user);

/* Called for each member before its agent type is made (member -1 for the single agent of a
 * simulation without members): the host may add procedural preconditions (check,
 * check_user) or change costs and timeouts. The simulation sets start, tick and user itself. */
typedef void (*goap_sim_bind_fn)(const goap_file *f, int member, const char *name,
                                 goap_action_binding *actions, int action_count,
                                 goap_goal_binding *goals, int goal_count, void *user);

typedef struct goap_sim_options {
  goap_allocator allocator;    /* zero: the file's */
  goap_sim_bind_fn bind;       /* optional */
  void *bind_user;
  goap_agent_event_fn on_event;/* the agent's timeline (optional) */
  void *event_user;
  goap_sim_world_fn on_world;  /* changes of world variables (optional) */
  void *world_user;
  double until, step;          /* 0: the simulation's own (`until`, `step`) */
  /* Replays (goap/replay.h), at most one of the two. recorder: the simulation attaches its
   * agents (in member order), marks a frame after each step, and stores each world change
   * and its end as notes; the caller finishes the log. replayer: the simulation creates the
   * same agents, attaches them, and replays the log instead of running the script: the
   * timeline (on_event, on_world) and the result are the recorded run's; GOAP_CONFLICT when
   * the replay diverged (goap_replayer_divergence tells where). */
  struct goap_recorder *recorder;
  struct goap_replayer *replayer;
} goap_sim_options;

typedef struct goap_sim_result {
  double time;                 /* simulated time when it ended */
  int idle;                    /* 1: ended because the agent had nothing left to do */
  int replans;                 /* plans adopted after the first */
  goap_agent_stats stats;
  int expectations;            /* `expect` lines checked */
  int failed;                  /* of which failed */
  char message[256];           /* the first failure, "" when none; values by type (true/false,
                                  enum value names, numbers) */
  int line, col;               /* where the first failing `expect` is in the file (the failing
                                  condition's column); 0 when none failed */
} goap_sim_result;

/* Runs simulation `sim`. Members share one blackboard (the `shared` variables and the
 * file's resources) and a squad coordinator (`at T order BEHAVIOUR`); each agent's host
 * pointer (goap_agent_host) is its member name as a `const char *` (NULL for the single agent
 * of a simulation without members). The agent's memory starts from the domain's defaults and `given`,
 * the world from the same plus `at 0` lines; each step (`step` seconds) applies due `at`
 * lines to the world, copies `sense` variables from the world into memory, and updates the
 * agent. An action runs for its `duration`, then fails if a `fail` line's conditions hold in
 * the world, else succeeds and its effects change the world too. It ends at `until` or once
 * the agent is idle with no `at` line left. GOAP_OK when it ran (result->failed counts failed
 * expectations), GOAP_INVALID_ARGUMENT, GOAP_OUT_OF_MEMORY. */
GOAP_API goap_status goap_file_simulate(const goap_file *f, int sim,
                                        const goap_sim_options *options,
                                        goap_sim_result *result);

#ifdef __cplusplus
}
#endif

#endif /* GOAP_SIM_H */
