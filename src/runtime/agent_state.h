/*
 * agent_state.h -- the agent's whole state (struct goap_agent), shared by agent.c (which runs
 * it) and save.c (which snapshots and restores it). Nothing here is public.
 *
 * Invariants: see agent.c. save.c writes every field that decides what the agent does next
 * (everything but scratch buffers, the planners' pools and the counting allocator's books);
 * a field added here that carries state across updates must be added to save.c's format too
 * (and GOAP_SNAPSHOT_VERSION raised).
 */
#ifndef GOAP_RUNTIME_AGENT_STATE_H
#define GOAP_RUNTIME_AGENT_STATE_H

#include "runtime.h"

struct goap_agent {
  goap_allocator user;           /* the caller's allocator */
  goap_allocator alloc;          /* counting wrapper around it */
  size_t bytes;
  const goap_agent_type *t;
  const goap_domain *d;
  size_t W;
  void *host;
  goap_blackboard *bb;
  goap_plan_cache *cache;
  goap_agent_event_fn on_event;
  void *event_user;
  goap_planner *planner;         /* its own, created at its first search that needs it */
  goap_planner *shared;          /* goap_agent_desc.planner: borrowed within one update */
  goap_planner *cur;             /* the planner of the running search */

  goap_word *mem, *seen, *tmp;   /* W words each */
  goap_word *search_start;       /* W words: the start state of the running search */
  uint64_t search_base;          /* st.expanded when the running search began on cur */
  int from_idle;                 /* this selection retries after the agent was idle */
  int32_t *bb_slot;              /* per shared variable of the type: its slot */
  int32_t *res_id;               /* per reserved name of the type: the blackboard resource */
  double *costs;                 /* the type's costs, with actions refused a reservation
                                    disabled (-1) for the current selection */
  int blocked;                   /* how many are disabled that way */
  int32_t *hold_res, *hold_step; /* reservations held: resource, plan step */
  size_t nhold, chold, chold_step;
  int order_goal;                /* -1: none */
  double order_prio;

  /* the current plan */
  int32_t *plan;
  size_t plan_cap;
  int plan_len, step;
  double plan_cost;
  int goal;
  double goal_prio;
  int running;                   /* the action at plan[step] has started */
  double action_time;

  /* goal selection */
  int ph;                        /* agent.c's phase: 0 idle, 1 select, 2 execute */
  goap_replan_reason reason;
  int *cand;                     /* candidate goals, best first */
  double *cand_prio;
  int ncand, icand;
  int searching;                 /* a sliced search for cand[icand] is running */
  double *fail_time;             /* per goal: when it last failed to plan (-1: never) */
  uint64_t *fail_hash;           /* per goal: memory hash then */
  int idle_reported;
  int announce;                  /* the first update reports the start replan */
  double next_goal_check, next_idle_retry;
  double *sensor_next;

  double time;
  goap_agent_stats st;

  /* HTN agents */
  goap_htn_planner *hp;          /* the running plan's planner (its continuation) */
  goap_htn_planner *hp_try;      /* searches for a better plan while one runs */
  int32_t *mtr, *try_mtr, *try_plan;
  size_t mtr_cap, try_mtr_cap, try_plan_cap;
  int mtr_len;
  int paused;                    /* the plan ends at a `pause`: resume when it is done */
};

/* save.c: begins (on the agent's own planner, created if needed) the search for goal g from
 * search_start, as goal selection does. */
goap_status goap__agent_begin_search(goap_agent *a, int g);

#endif /* GOAP_RUNTIME_AGENT_STATE_H */
