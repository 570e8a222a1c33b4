/*
 * agent.h -- libgoap runtime: agents that choose goals, plan, act, notice failure and replan.
 *
 * Layering: the runtime (library goap_runtime) is built on the core (goap.h) only. It never
 * prints, has no mutable globals and allocates only through the allocator it was given.
 *
 * The pieces:
 *  - goap_blackboard: named integer slots shared by the agents attached to it (the `shared`
 *    variables of their domains, mapped by name).
 *  - goap_agent_type: what a kind of agent can do -- which of the domain's actions and goals it
 *    has, the host callbacks that carry actions out, what a failure teaches, timeouts, the
 *    variables whose change interrupts a goal or an action, sensors, and the tuning of goal
 *    selection. Immutable once created; shared by any number of agents (and threads).
 *  - goap_agent: one NPC: its working memory (a state of the domain), its current goal and
 *    plan, and its planner. goap_agent_update(agent, dt) is the only call a host must make per
 *    frame.
 *  - goap_plan_cache: plans keyed by (agent type, goal, start state), shared by the agents
 *    given the same cache.
 *
 * Threads: a type may be shared across threads. An agent, and every agent sharing its cache or
 * blackboard, must be updated from one thread at a time (a game's update loop). Nothing else is
 * shared between agents.
 *
 * Time is in seconds, as given to goap_agent_update. Callbacks receive the agent; they may read
 * it and write its memory with goap_agent_set, but must not destroy it or update it.
 */
#ifndef GOAP_AGENT_H
#define GOAP_AGENT_H

#include "goap.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct goap_agent goap_agent;
typedef struct goap_agent_type goap_agent_type;
typedef struct goap_blackboard goap_blackboard;
typedef struct goap_plan_cache goap_plan_cache;

/* ------------------------------------------------------------------------------------------
 * Blackboard
 * ---------------------------------------------------------------------------------------- */

/* Creates an empty blackboard into *out; alloc may be NULL (the C library). GOAP_OK;
 * GOAP_OUT_OF_MEMORY (*out NULL); GOAP_INVALID_ARGUMENT when out is NULL. */
GOAP_API goap_status goap_blackboard_create(const goap_allocator *alloc, goap_blackboard **out);
/* Agents attached to it must be destroyed (or detached) first. NULL does nothing. */
GOAP_API void goap_blackboard_destroy(goap_blackboard *bb);
/* Writes a named slot (created on first use). Attached agents see the value on their next
 * update; those watching the variable are interrupted. GOAP_OUT_OF_MEMORY, or
 * GOAP_INVALID_ARGUMENT for NULL. */
GOAP_API goap_status goap_blackboard_set(goap_blackboard *bb, const char *name, int32_t value);
/* Reads a slot into *value: GOAP_OK, or GOAP_NOT_FOUND when no agent or call created it. */
GOAP_API goap_status goap_blackboard_get(const goap_blackboard *bb, const char *name,
                                         int32_t *value);
/* Incremented by every write that changes a value. */
GOAP_API uint64_t goap_blackboard_version(const goap_blackboard *bb);

/* Reservations: named resources with a capacity (a flank slot of capacity 1, the one sword,
 * a cover point). An action that lists a resource in goap_action_binding.reserve holds one
 * unit from the moment its plan is adopted until the action ends (success, failure, timeout,
 * interruption) or the plan is dropped; a plan is adopted only when all of its reservations
 * are granted, otherwise the agent plans again without the action that was refused. A
 * resource an agent names but nobody added is created with capacity 1 (a `.goap` file's
 * `resource NAME capacity N` lines: goap_file_blackboard_create in goap/file.h). An agent whose
 * type reserves needs a blackboard: goap_agent_create refuses it otherwise.
 * add: GOAP_DUPLICATE when it exists (use set_capacity), GOAP_INVALID_ARGUMENT for a capacity
 * < 0. set_capacity: GOAP_NOT_FOUND for an unknown name, and GOAP_INVALID_OPERATION (the
 * capacity unchanged) for a capacity below the units held now -- reservations are never
 * revoked behind an agent's back: find the holders (goap_blackboard_holders), make them drop
 * their plans (goap_agent_replan releases what they hold) and lower it then. resource: the units
 * held now and the capacity (GOAP_NOT_FOUND for an unknown name). */
GOAP_API goap_status goap_blackboard_add_resource(goap_blackboard *bb, const char *name,
                                                  int capacity);
GOAP_API goap_status goap_blackboard_set_capacity(goap_blackboard *bb, const char *name,
                                                  int capacity);
GOAP_API goap_status goap_blackboard_resource(const goap_blackboard *bb, const char *name,
                                              int *held, int *capacity);
/* Who holds resource `name`: one entry per unit held (an agent holding two units appears
 * twice), oldest first. Writes min(held, cap) agents to out and the number held to *count (may
 * be NULL); out may be NULL with cap 0 to ask for the size. Returns GOAP_OK,
 * GOAP_BUFFER_TOO_SMALL when cap < held (the first cap are written), GOAP_NOT_FOUND for an
 * unknown name, GOAP_INVALID_ARGUMENT for NULL bb / name, cap < 0, or out NULL with cap > 0.
 * Allocates nothing; the agents are not owned. Same thread rule as the agents attached. */
GOAP_API goap_status goap_blackboard_holders(const goap_blackboard *bb, const char *name,
                                             goap_agent **out, int cap, int *count);

/* ------------------------------------------------------------------------------------------
 * Agent types
 * ---------------------------------------------------------------------------------------- */

typedef enum goap_action_state {
  GOAP_ACTION_RUNNING = 0,
  GOAP_ACTION_SUCCESS,
  GOAP_ACTION_FAILURE
} goap_action_state;

/* Action callbacks; `user` is goap_action_binding.user.
 *   start: the action begins (its preconditions hold in memory).
 *   tick:  called on every update while the action runs (dt: seconds since the last update),
 *          also on the update that starts it; NULL means the action succeeds at its first tick.
 *   stop:  the action was interrupted (a better goal, a watched variable, the agent was reset
 *          or destroyed); not called when it ends by itself. */
typedef void (*goap_action_start_fn)(goap_agent *agent, int action, void *user);
typedef goap_action_state (*goap_action_tick_fn)(goap_agent *agent, int action, double dt,
                                                 void *user);
typedef void (*goap_action_stop_fn)(goap_agent *agent, int action, void *user);

/* How an agent type uses one action of the domain. A zero binding means: enabled, the
 * domain's cost, no callbacks (succeeds at once), no timeout, nothing learned on failure. */
typedef struct goap_action_binding {
  int disabled;                  /* non-zero: this type does not have the action */
  double cost_scale;             /* 0: 1. The cost the type plans with = domain cost * scale */
  goap_action_start_fn start;
  goap_action_tick_fn tick;
  goap_action_stop_fn stop;
  void *user;
  double timeout;                /* seconds; 0: none. Running longer is a failure. */
  const goap_effect *on_fail;    /* written to memory when the action fails or times out (the
                                    failure memory: `on_fail door_stuck`); copied */
  int on_fail_count;
  const int32_t *watch;          /* variables whose change (by a sensor, the host or the
                                    blackboard) interrupts the action while it runs; copied */
  int watch_count;
  const goap_effect *on_start;   /* written to memory (and the blackboard) when it starts,
                                    e.g. suppressive_fire_tokens += 1; not planned with */
  int on_start_count;
  const goap_effect *on_end;     /* written when it ends in any way (success, failure,
                                    timeout, interruption), e.g. tokens -= 1; not planned with */
  int on_end_count;
  const char *const *reserve;    /* blackboard resources it holds (see goap_blackboard_
                                    add_resource); names copied. Needs a blackboard
                                    (goap_agent_create refuses an agent without one). */
  int reserve_count;
  int (*check)(goap_agent *agent, int action, void *user);
                                 /* optional procedural precondition, asked when the agent
                                    chooses goals and plans (not per search node): 0 means
                                    plan without the action this time (e.g. "is there a free
                                    flank cover?" from a goap_heatmap). */
  void *check_user;              /* passed to check */
} goap_action_binding;

/* A goal's dynamic priority (replaces the domain's priority): e.g. +30 when the player is
 * seen. Called when goals are (re)considered, with the agent's memory up to date. */
typedef double (*goap_priority_fn)(goap_agent *agent, int goal, void *user);

/* How an agent type uses one goal. A zero binding: enabled, the domain's priority, always
 * valid, no watched variables. */
typedef struct goap_goal_binding {
  int disabled;
  goap_priority_fn priority;     /* optional */
  void *user;
  const goap_cond *valid;        /* validity condition on memory (conjunction); copied */
  int valid_count;
  const int32_t *watch;          /* variables whose change interrupts the goal; copied */
  int watch_count;
  double cooldown;               /* seconds during which the goal is not chosen again after its
                                    plan ended (the plan finished, an action failed or timed
                                    out, the plan no longer applied) or no plan was found for
                                    it; 0: none. >= 0 and finite. goap_agent_order overrides. */
} goap_goal_binding;

/* A sensor updates memory (with goap_agent_set) every `interval` seconds (0: every update). */
typedef void (*goap_sensor_fn)(goap_agent *agent, void *user);
typedef struct goap_sensor_desc {
  goap_sensor_fn fn;
  void *user;
  double interval;
} goap_sensor_desc;

typedef struct goap_agent_type_desc {
  goap_allocator allocator;      /* zero: the C library */
  const char *name;              /* NULL: "agent" */
  const goap_action_binding *actions; /* NULL or one per domain action, by id */
  int action_count;              /* 0 or goap_domain_action_count() */
  const goap_goal_binding *goals;/* NULL or one per domain goal, by id */
  int goal_count;                /* 0 or goap_domain_goal_count() */
  const goap_sensor_desc *sensors;
  int sensor_count;
  /* goal selection */
  double switch_margin;          /* a new goal must beat the current one's priority by more
                                    than this to replace it (hysteresis); 0: 1.0, < 0: none */
  double goal_check_interval;    /* seconds between checks for a more important goal while a
                                    plan runs; 0: 0.25 */
  double failed_goal_cooldown;   /* seconds before a goal that failed to plan is retried when
                                    memory has not changed; 0: 2.0 */
  /* planning */
  goap_search search;            /* default forward A* */
  goap_heuristic heuristic;
  uint32_t max_nodes;            /* nodes per plan; 0: 65,536 */
  uint32_t expansions_per_update;/* planning budget per update (time slicing); 0: 4,096 */
  double planning_ms_per_update; /* optional time budget per update; 0: none */
  uint32_t planner_initial_nodes;/* per-agent planner's first pool; 0: 256 */
  /* HTN agents (goap/htn.h, docs/api.md "HTN agents"): instead of choosing goals, the agent
   * decomposes the root task htn_root of `htn` and runs the plan. NULL: a GOAP agent (goals),
   * and htn_root / htn_watch must be zero. `htn` is borrowed (it must be built over the same
   * goap_domain and outlive the type and its agents); htn_watch is copied. An HTN type takes
   * no goal bindings (goals must be NULL: its goals are all disabled, so goap_agent_order
   * refuses them), and no action binding may be `disabled` (the methods choose the actions);
   * cost_scale is ignored (HTN plans are not optimised). The HTN planner is not time-sliced:
   * a plan is searched within one update, with max_nodes as its decomposition-step budget
   * (also the node budget of each `achieve`), planning_ms_per_update as its time budget,
   * search and heuristic for `achieve` subgoals. goap_agent_desc.planner and .cache are not
   * used by HTN agents. */
  const struct goap_htn_domain *htn; /* goap_htn_domain of goap/htn.h */
  int htn_root;                  /* the root compound task's id in htn */
  const int32_t *htn_watch;      /* variables whose change (from outside the agent) makes it
                                    look for a plan of higher priority than the running one
                                    (the MTR rule), at any time while a plan runs */
  int htn_watch_count;
} goap_agent_type_desc;

/* Creates a type for domain d (which must outlive it) into *out (NULL on failure). Validates
 * every binding: GOAP_INVALID_ARGUMENT on a bad count, id or value (or d or out NULL);
 * GOAP_OUT_OF_MEMORY. err (may be NULL) follows goap/goap.h: the message says which field is
 * wrong (no position). */
GOAP_API goap_status goap_agent_type_create(const goap_domain *d,
                                            const goap_agent_type_desc *desc,
                                            goap_agent_type **out, goap_error *err);
GOAP_API void goap_agent_type_destroy(goap_agent_type *t);
GOAP_API const goap_domain *goap_agent_type_domain(const goap_agent_type *t);
GOAP_API const char *goap_agent_type_name(const goap_agent_type *t);
/* The cost the type plans each action with (the domain's cost times the binding's
 * cost_scale; -1 for a disabled action), one entry per action of the domain, owned by the type
 * and valid while it lives; *count (may be NULL) receives the number of actions. Pass it as
 * goap_request.costs to search as the type does (procedural checks and refused reservations
 * can remove more actions during a round; see goap_agent_event). NULL when t is NULL. */
GOAP_API const double *goap_agent_type_costs(const goap_agent_type *t, int *count);
/* The HTN domain an HTN type plans with (NULL for a GOAP type or NULL t); *root (may be NULL)
 * receives its root task (-1 for a GOAP type). */
GOAP_API const struct goap_htn_domain *goap_agent_type_htn(const goap_agent_type *t, int *root);

/* ------------------------------------------------------------------------------------------
 * Plan cache
 * ---------------------------------------------------------------------------------------- */

/* A cache of `capacity` plans (0: 256), least recently used out. Plans are keyed by the agent
 * type, the goal and the whole start state, so callbacks whose results depend on anything else
 * (dynamic costs, checks) make cached plans stale: do not share a cache for such domains.
 * Created into *out: GOAP_OK; GOAP_OUT_OF_MEMORY; GOAP_OUT_OF_RANGE for capacity < 0 or
 * > 2^24; GOAP_INVALID_ARGUMENT when out is NULL (*out is NULL on any failure). alloc may be
 * NULL (the C library). */
GOAP_API goap_status goap_plan_cache_create(const goap_allocator *alloc, int capacity,
                                            goap_plan_cache **out);
GOAP_API void goap_plan_cache_destroy(goap_plan_cache *c);
GOAP_API void goap_plan_cache_clear(goap_plan_cache *c);
typedef struct goap_plan_cache_stats {
  uint64_t hits, misses, stores, evictions;
  int entries;
} goap_plan_cache_stats;
GOAP_API goap_plan_cache_stats goap_plan_cache_get_stats(const goap_plan_cache *c);

/* ------------------------------------------------------------------------------------------
 * Agents
 * ---------------------------------------------------------------------------------------- */

/* Why an agent plans again. */
typedef enum goap_replan_reason {
  GOAP_REPLAN_NONE = 0,
  GOAP_REPLAN_START,             /* first plan, or after goap_agent_reset */
  GOAP_REPLAN_PLAN_DONE,         /* 1. the plan finished */
  GOAP_REPLAN_ACTION_FAILED,     /* 2. the current action failed */
  GOAP_REPLAN_TIMEOUT,           /* 2. the current action timed out */
  GOAP_REPLAN_PRECONDITIONS,     /* 3. the next action's preconditions no longer hold */
  GOAP_REPLAN_WATCH,             /* 4. a watched variable changed */
  GOAP_REPLAN_BETTER_GOAL,       /* 5. a more important goal became valid */
  GOAP_REPLAN_GOAL_INVALID,      /* the current goal's validity condition stopped holding */
  GOAP_REPLAN_IDLE,              /* no goal could be planned; trying again */
  GOAP_REPLAN_REQUESTED,         /* goap_agent_replan */
  GOAP_REPLAN_ORDER,             /* goap_agent_order changed the agent's orders */
  GOAP_REPLAN_REASON_COUNT
} goap_replan_reason;
/* "plan_done", "action_failed", ... Never NULL. */
GOAP_API const char *goap_replan_reason_name(goap_replan_reason r);

typedef enum goap_agent_event_kind {
  GOAP_EVENT_REPLAN = 0,         /* reason */
  GOAP_EVENT_GOAL,               /* goal chosen (goal, priority) */
  GOAP_EVENT_PLAN,               /* plan adopted (goal, plan, plan_length, cost, cached);
                                    HTN agents: goal -1, and reason GOAP_REPLAN_NONE for the
                                    continuation after a `pause` */
  GOAP_EVENT_PLAN_FAILED,        /* goal could not be planned (goal, status) */
  GOAP_EVENT_REPAIR,             /* plan kept after skipping steps that are done (skipped) */
  GOAP_EVENT_ACTION_START,       /* action */
  GOAP_EVENT_ACTION_SUCCESS,     /* action */
  GOAP_EVENT_ACTION_FAILURE,     /* action; timeout != 0 when it timed out */
  GOAP_EVENT_ACTION_STOP,        /* action interrupted */
  GOAP_EVENT_MEMORY,             /* var, old_value, value: memory written by an action's
                                    effects or its on_fail */
  GOAP_EVENT_GOAL_DONE,          /* goal achieved (HTN agents: goal -1, the plan finished) */
  GOAP_EVENT_IDLE,               /* no goal can be planned now */
  GOAP_EVENT_RESERVATION_DENIED  /* action, resource: a reservation was refused; the agent
                                    plans again without the action */
} goap_agent_event_kind;

typedef struct goap_agent_event {
  goap_agent_event_kind kind;
  double time;                   /* agent time (sum of dt) */
  goap_replan_reason reason;
  int goal;                      /* -1 when none */
  double priority;
  int action;                    /* -1 when none */
  int timeout;
  const int32_t *plan;           /* GOAP_EVENT_PLAN: valid during the callback */
  int plan_length;
  double cost;
  int cached;
  int skipped;
  goap_status status;
  int var;
  int32_t old_value, value;
  const char *resource;          /* GOAP_EVENT_RESERVATION_DENIED: the resource's name */
} goap_agent_event;

typedef void (*goap_agent_event_fn)(goap_agent *agent, const goap_agent_event *ev, void *user);

typedef struct goap_agent_desc {
  const goap_agent_type *type;   /* required; must outlive the agent */
  goap_allocator allocator;      /* zero: the type's allocator */
  const goap_word *memory;       /* initial memory; NULL: the domain's default state */
  void *host;                    /* the game's object for this agent (goap_agent_host) */
  goap_blackboard *blackboard;   /* optional: receives and provides `shared` variables */
  goap_plan_cache *cache;        /* optional */
  goap_planner *planner;         /* optional: a planner for the type's domain shared by agents
                                    updated on the same thread (saves ~30 KB per agent and
                                    keeps crowds in cache). A search that ends within one
                                    update runs on it; one that needs more updates restarts on
                                    the agent's own planner, created then. Not owned. */
  goap_agent_event_fn on_event;  /* optional: timeline of what the agent does */
  void *event_user;
  int replan_history;            /* replans kept for goap_agent_inspect_replans (goap/
                                    inspect.h), also the failure facts kept; 0: 8; < 0:
                                    none (saves ~830 bytes per agent of a crowd that is never
                                    inspected) */
} goap_agent_desc;

/* Creates an agent into *out (NULL on failure); it plans on its next update. Returns GOAP_OK,
 * GOAP_OUT_OF_MEMORY, or GOAP_INVALID_ARGUMENT: out, desc or desc->type NULL, or an action
 * the type has (not disabled) reserves resources (goap_action_binding.reserve, a file's
 * `reserve` line) while desc->blackboard is NULL -- without a blackboard reservations could
 * not be kept. err (may be NULL) follows goap/goap.h (message, no position). */
GOAP_API goap_status goap_agent_create(const goap_agent_desc *desc, goap_agent **out,
                                       goap_error *err);
/* Stops the running action (its stop callback is called). NULL does nothing. */
GOAP_API void goap_agent_destroy(goap_agent *a);

/* Advances the agent by dt seconds (>= 0): sensors, blackboard, replanning triggers, goal
 * selection, at most the type's planning budget of search, and the current action's tick.
 * Returns GOAP_OK, GOAP_IN_PROGRESS while a plan is being searched for over several updates,
 * GOAP_NO_PLAN when no goal can be planned now (the agent idles and retries; an HTN agent:
 * its root task has no decomposition or one with nothing to do), or
 * GOAP_INVALID_ARGUMENT / GOAP_OUT_OF_MEMORY. */
GOAP_API goap_status goap_agent_update(goap_agent *a, double dt);

/* Memory. set: GOAP_OUT_OF_RANGE or GOAP_INVALID_ARGUMENT on a bad value or id; a change to a
 * shared variable is also written to the blackboard. A change counts as external (watched
 * variables interrupt, failed goals may be retried). */
GOAP_API goap_status goap_agent_set(goap_agent *a, int var, int32_t value);
GOAP_API int32_t goap_agent_get(const goap_agent *a, int var);
/* The whole memory (goap_domain_state_words words); valid until the agent is destroyed. */
GOAP_API const goap_word *goap_agent_memory(const goap_agent *a);

/* Drops the current plan (stopping its action) and plans again on the next update. */
GOAP_API void goap_agent_replan(goap_agent *a);

/* Orders (what a squad coordinator gives): goal becomes valid-if-its-own-validity-holds with
 * this priority for the agent, replacing its own priority; the agent reconsiders its goals on
 * the next update (GOAP_REPLAN_ORDER), so a more important goal of its own (flee at low
 * health) still wins. The order ends when the goal is achieved or with clear_order. One order
 * at a time; a new one replaces the old. GOAP_INVALID_ARGUMENT for a bad goal or a goal the
 * type does not have. */
GOAP_API goap_status goap_agent_order(goap_agent *a, int goal, double priority);
GOAP_API void goap_agent_clear_order(goap_agent *a);
/* The ordered goal, or -1. */
GOAP_API int goap_agent_ordered_goal(const goap_agent *a);
/* Like replan, and also forgets goal failures and the goal check timer. */
GOAP_API void goap_agent_reset(goap_agent *a);

/* Queries. Goal and action are -1 when none. The plan pointer is valid until the next update. */
GOAP_API int goap_agent_goal(const goap_agent *a);
GOAP_API int goap_agent_action(const goap_agent *a);
GOAP_API const int32_t *goap_agent_plan(const goap_agent *a, int *length, int *step);
GOAP_API double goap_agent_plan_cost(const goap_agent *a);
/* HTN agents: the method traversal record of the running plan (the method index chosen for
 * each compound task, in decomposition order, continued by every resumption after a `pause`);
 * valid until the next update. NULL with *length 0 for a GOAP agent or when no plan runs. */
GOAP_API const int32_t *goap_agent_htn_mtr(const goap_agent *a, int *length);
GOAP_API int goap_agent_is_planning(const goap_agent *a);
GOAP_API double goap_agent_time(const goap_agent *a);
GOAP_API void *goap_agent_host(const goap_agent *a);
GOAP_API const goap_agent_type *goap_agent_get_type(const goap_agent *a);

typedef struct goap_agent_stats {
  uint64_t updates;
  uint64_t plans;                /* plans adopted */
  uint64_t plan_failures;        /* goals that could not be planned */
  uint64_t replans[GOAP_REPLAN_REASON_COUNT];
  uint64_t repairs;              /* plans kept by plan repair */
  uint64_t cache_hits;
  uint64_t expanded;             /* search nodes expanded, all plans */
  uint64_t actions_started, actions_succeeded, actions_failed;
  uint64_t reservations_denied;
  size_t memory_bytes;           /* bytes held by the agent and its planner */
} goap_agent_stats;
GOAP_API goap_agent_stats goap_agent_get_stats(const goap_agent *a);

#ifdef __cplusplus
}
#endif

#endif /* GOAP_AGENT_H */
