/*
 * inspect.h -- libgoap runtime: what an agent is thinking, for an engine's debug overlay.
 *
 * Per agent: the ranked goals with their priority and why a goal is not pursued; the current
 * plan with each step's cost and the conditions it still relies on; the last N replans with
 * their reason and search statistics; the failure memory with when each fact was learnt and
 * when it expires.
 *
 * Every function writes into caller-provided structs and buffers; none allocates, prints or
 * calls a host callback (a goal's dynamic priority is the value the agent computed last).
 * Threads: an agent may be inspected from any thread while it is not being updated (nor
 * written with goap_agent_set, ordered, reset or destroyed); several threads may inspect the
 * same agent at once. Ids are the domain's; names come from goap_domain_goal_name /
 * goap_domain_action_name.
 */
#ifndef GOAP_INSPECT_H
#define GOAP_INSPECT_H

#include "agent.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Why a goal is (not) pursued. */
typedef enum goap_goal_state {
  GOAP_GOAL_CURRENT = 0,         /* the goal the agent pursues now */
  GOAP_GOAL_CANDIDATE,           /* valid and unmet: may be chosen (when it beats the current
                                    goal by the type's switch_margin, or when the plan ends) */
  GOAP_GOAL_ACHIEVED,            /* its conditions hold in memory: nothing to do */
  GOAP_GOAL_INVALID,             /* its validity condition is false (failed_cond) */
  GOAP_GOAL_COOLDOWN,            /* its own `cooldown` (goap_goal_binding.cooldown) runs since
                                    its last plan ended, until retry_at; or it failed to plan
                                    at failed_at (fail_status) and memory has not changed
                                    since: retried at retry_at or when memory changes */
  GOAP_GOAL_NO_PRIORITY          /* its dynamic priority is NaN */
} goap_goal_state;

/* "current", "candidate", "achieved", "invalid", "cooldown", "no_priority"; never NULL. */
GOAP_API const char *goap_goal_state_name(goap_goal_state s);

typedef struct goap_goal_info {
  int goal;
  goap_goal_state state;
  double priority;               /* what the agent ranks it with: an order's priority, the
                                    dynamic priority's last answer, or the domain's */
  int ordered;                   /* 1: goap_agent_order gave this goal */
  goap_cond failed_cond;         /* INVALID: the first validity condition that is false */
  double failed_at;              /* agent time of its last failure to plan; -1: never (or
                                    forgotten: adopting a plan for it or goap_agent_reset) */
  goap_status fail_status;       /* why it failed then (GOAP_NO_PLAN, GOAP_NODE_LIMIT, ...) */
  double retry_at;               /* COOLDOWN: when the cooldown ends; otherwise 0 */
} goap_goal_info;

/* The goals of the agent's type (disabled ones left out), best first: by priority, then by id
 * (the order in which the agent tries them); goals with a NaN priority last. Writes the first
 * min(count, capacity) into out (may be NULL when capacity is 0) and returns count, the number
 * of goals; -1 for a NULL agent or a negative capacity. HTN agents have no goals: 0. */
GOAP_API int goap_agent_inspect_goals(const goap_agent *a, goap_goal_info *out, int capacity);

typedef enum goap_step_state {
  GOAP_STEP_DONE = 0,            /* executed */
  GOAP_STEP_RUNNING,             /* its action runs now */
  GOAP_STEP_PENDING              /* to come */
} goap_step_state;

typedef struct goap_plan_step_info {
  int action;
  double cost;                   /* the cost the agent's type plans it with */
  goap_step_state state;
  int relies_first;              /* its conditions in the caller's conds buffer: the */
  int relies_count;              /* preconditions no earlier remaining step provides, which must
                                    therefore hold in memory when it starts (none for done
                                    steps) */
  int relies_hold;               /* 1: all of them hold in memory now */
} goap_plan_step_info;

typedef struct goap_plan_info {
  int goal;                      /* -1: no plan (choosing, idle, or an HTN plan's root task) */
  double priority;               /* the goal's priority when it was chosen */
  double cost;                   /* the plan's cost (of the steps left after a repair) */
  int length;                    /* steps in the plan */
  int step;                      /* the index of the next (or running) step */
  int running;                   /* 1: plan[step] runs */
  double action_time;            /* seconds the running action has run */
  int planning;                  /* 1: a search runs over several updates (no plan yet) */
  int cond_count;                /* conditions written to (or needed in) conds */
} goap_plan_info;

/* The current plan: *info (required), one goap_plan_step_info per step into steps (capacity
 * step_capacity) and the conditions they rely on into conds (capacity cond_capacity). GOAP_OK;
 * GOAP_BUFFER_TOO_SMALL when a buffer is too small (info->length and info->cond_count say what
 * is needed; nothing is written to steps or conds); GOAP_INVALID_ARGUMENT for a NULL agent or
 * info, or a NULL buffer with a non-zero capacity. Without a plan: GOAP_OK, length 0. */
GOAP_API goap_status goap_agent_inspect_plan(const goap_agent *a, goap_plan_info *info,
                                             goap_plan_step_info *steps, int step_capacity,
                                             goap_cond *conds, int cond_capacity);

typedef struct goap_replan_info {
  double time;                   /* agent time when the replan began */
  goap_replan_reason reason;
  goap_status status;            /* GOAP_OK: a plan was adopted; GOAP_NO_PLAN: no goal could
                                    be planned (the agent idled); GOAP_IN_PROGRESS: still
                                    choosing (a search spans updates) */
  int goal;                      /* the goal planned for; -1 when none (and for HTN plans) */
  int goals_tried;               /* goals searched for or found in the plan cache */
  int cached;                    /* 1: the adopted plan came from the plan cache */
  int plan_length;
  double cost;                   /* of the adopted plan */
  uint64_t expanded;             /* search statistics, summed over the goals tried */
  uint64_t generated;
  double search_us;              /* wall time of those searches, microseconds */
} goap_replan_info;

/* The last replans, oldest first: at most N, where N is goap_agent_desc.replan_history (0: 8;
 * negative: none are kept, and no failure facts either).
 * Writes min(count, capacity) entries (the newest ones when capacity < count) and returns
 * count; -1 for a NULL agent or a negative capacity. */
GOAP_API int goap_agent_inspect_replans(const goap_agent *a, goap_replan_info *out,
                                        int capacity);

typedef struct goap_failure_info {
  int goal;                      /* >= 0: a goal that failed to plan; -1: a fact */
  int action;                    /* facts: the action whose failure taught it; goals: -1 */
  int var;                       /* facts: var = value, written by the action's on_fail */
  int32_t value;
  int timeout;                   /* facts: 1 when the action timed out */
  goap_status status;            /* goals: why the search failed */
  double learnt;                 /* agent time */
  double expires;                /* goals: the end of the cooldown (sooner when memory
                                    changes); facts: INFINITY -- a fact stays in memory until a
                                    sensor, the host or an effect writes the variable */
} goap_failure_info;

/* The failure memory: facts written by on_fail that memory still holds (the last N learnt,
 * N as for replans), oldest first, then goals in their failure cooldown, by id. Writes
 * min(count, capacity) entries and returns count; -1 for a NULL agent or a negative capacity. */
GOAP_API int goap_agent_inspect_failures(const goap_agent *a, goap_failure_info *out,
                                         int capacity);

#ifdef __cplusplus
}
#endif

#endif /* GOAP_INSPECT_H */
