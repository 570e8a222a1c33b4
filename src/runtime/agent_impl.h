/*
 * agent_impl.h -- the agent's whole state (struct goap_agent), shared by the runtime files that
 * read it: agent.c (which owns and runs it, with agent_plan.c's goal selection and
 * agent_htn.c's HTN planning), inspect.c (the inspection API), replay.c (recording and
 * replaying its inputs) and save.c (snapshots and restores). Nothing here is public.
 *
 * Invariants: only agent.c, agent_plan.c and agent_htn.c change an agent's decisions (save.c
 * only writes a freshly created agent); inspect.c only reads; replay.c hooks are called by
 * agent.c at each input of the runtime (see replay.c). save.c writes every field that decides
 * what the agent does next and what inspection reports (everything but scratch buffers, the
 * planners' pools, the counting allocator's books, the replan history ring and the
 * recorder/replayer): a field added here that carries state across updates must be added to
 * save.c's format too (and GOAP_SNAPSHOT_VERSION raised).
 */
#ifndef GOAP_AGENT_IMPL_H
#define GOAP_AGENT_IMPL_H

#include <goap/inspect.h>
#include <goap/replay.h>

#include "runtime.h"

/* agent.c's phases (its enum; the values, for the other files) */
#define GOAP__AGENT_SELECT 1
#define GOAP__AGENT_EXECUTE 2

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
  uint64_t search_base;          /* st.expanded when the running search began on cur */
  goap__clock_fn clock;          /* the budget_ms clock: NULL is goap__now_ns (tests inject) */
  void *clock_ctx;

  goap_word *mem, *seen, *tmp;   /* W words each */
  goap_word *search_start;       /* W words: the start state of the running search */
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
  int ph;                        /* PHASE_IDLE, PHASE_SELECT, PHASE_EXECUTE (agent.c) */
  goap_replan_reason reason;
  int *cand;                     /* candidate goals, best first */
  double *cand_prio;
  int ncand, icand;
  int searching;                 /* a sliced search for cand[icand] is running */
  double *fail_time;             /* per goal: when it last failed to plan (-1: never) */
  double *end_time;              /* per goal: when its plan last ended (-1: never); cooldown */
  uint64_t *fail_hash;           /* per goal: memory hash then */
  int idle_reported;
  int announce;                  /* the first update reports the start replan */
  double next_goal_check, next_idle_retry;
  double *sensor_next;

  double time;
  goap_agent_stats st;

  /* inspection (inspect.c) and replays (replay.c) */
  double *gprio;                 /* per goal: its priority as last computed */
  goap_status *fail_st;          /* per goal: why it last failed to plan */
  goap_replan_info *hist;        /* ring of the last hist_cap replans */
  int hist_cap, hist_len, hist_next;
  int hist_open;                 /* the newest entry is still choosing a goal */
  goap_failure_info *facts;      /* failure memory written by on_fail, hist_cap at most */
  int nfacts;
  goap_recorder *rec;            /* recording this agent's inputs, or NULL */
  goap_replayer *rp;             /* replaying them from a log, or NULL */
  int rec_id;                    /* the agent's index in the recording or replay */
  double *dcosts;                /* per action, when the domain has check / dynamic_cost
                                    callbacks: their answers for the running search, evaluated
                                    by the agent while it records or replays */

  /* HTN agents */
  goap_htn_planner *hp;          /* the running plan's planner (its continuation) */
  goap_htn_planner *hp_try;      /* searches for a better plan while one runs */
  int32_t *mtr, *try_mtr, *try_plan;
  size_t mtr_cap, try_mtr_cap, try_plan_cap;
  int mtr_len;
  int paused;                    /* the plan ends at a `pause`: resume when it is done */

  /* goap_world (world.c): the host's world, not saved (a restored agent is added again) */
  int in_world;                  /* updated by a world: its budget, its planner lease */
  uint32_t world_budget;         /* expansions this update may spend */
  uint32_t searches;             /* searches begun (a world charges them to its budget) */
  goap_planner *(*lease)(void *ctx, goap_agent *a); /* a world planner for a new search */
  void *lease_ctx;
  goap_planner *desc_planner;    /* goap_agent_desc.planner, restored when it leaves */
  double jitter;                 /* [0, 1): phase of goal checks and sensors; -1: none */
};


/* ---- inspect.c: the replan history and failure memory ------------------------------------- */
/* A replan begins (reason); the entry stays open until a plan is adopted or none is found. */
void goap__hist_open(goap_agent *a, goap_replan_reason reason);
/* A search finished (its statistics are added to the open entry) / a cache lookup served it. */
void goap__hist_search(goap_agent *a, const goap_stats *st, int cached);
/* The choice ended: status GOAP_OK with the plan adopted, or GOAP_NO_PLAN. */
void goap__hist_close(goap_agent *a, goap_status status, int goal, double cost, int length);
/* on_fail of action `act` wrote var = value. */
void goap__fact_learnt(goap_agent *a, int act, int var, int32_t value, int timeout);

/* ---- replay.c: inputs of the runtime ------------------------------------------------------ */
/* Record tags of callback results and host calls (see replay.c for the log format). */
enum {
  GOAP__R_TICK = 11,             /* + the state (RUNNING, SUCCESS, FAILURE) */
  GOAP__R_TICK_SUCCESS = 13,     /* (the tags of the one-byte results read inline below) */
  GOAP__R_TICK_FAILURE = 18,
  GOAP__R_CHECK_YES = 21,
  GOAP__R_START = 14,
  GOAP__R_STOP = 15,
  GOAP__R_SENSOR = 16,           /* id: the sensor */
  GOAP__R_CHECK = 17,            /* id: the action; v: the answer */
  GOAP__R_PRIO = 19,             /* id: the goal; d: the priority */
  GOAP__R_RESERVE = 20,          /* v: granted */
  GOAP__R_BB = 22,               /* id: the variable; v: the value read from the blackboard */
  GOAP__R_SET = 5,               /* id: the variable; v: the value */
  GOAP__R_ORDER = 6,             /* id: the goal; d: the priority */
  GOAP__R_CLEAR_ORDER = 7,
  GOAP__R_REPLAN = 8,
  GOAP__R_RESET = 9,
  GOAP__R_DCHECK = 27,           /* id: the action; v: the domain's check answered */
  GOAP__R_DCOST = 29             /* id: the action; d: the domain's dynamic cost */
};
/* The events a recording keeps and a replay checks: the agent's decisions. The others (an
 * action started, succeeded, failed, was stopped; memory written) follow from the decisions
 * and the recorded inputs. */
#define GOAP__DECISIONS                                                                     \
  ((1u << GOAP_EVENT_REPLAN) | (1u << GOAP_EVENT_GOAL) | (1u << GOAP_EVENT_PLAN) |          \
   (1u << GOAP_EVENT_PLAN_FAILED) | (1u << GOAP_EVENT_REPAIR) | (1u << GOAP_EVENT_GOAL_DONE) | \
   (1u << GOAP_EVENT_IDLE) | (1u << GOAP_EVENT_RESERVATION_DENIED))
#define GOAP__IS_DECISION(k) (((1u << (unsigned)(k)) & GOAP__DECISIONS) != 0)
void goap__rec_update(goap_agent *a, double dt);
/* A host call (SET, ORDER, CLEAR_ORDER, REPLAN, RESET) or a callback's result. */
void goap__rec_input(goap_agent *a, int tag, int id, int32_t v, double d);
void goap__rec_event(goap_agent *a, const goap_agent_event *ev);
/* Replaying: the recorded result of the callback `tag` (host calls recorded inside it are
 * applied first). Returns 1 with *v / *d set, 0 when the replay diverged (the caller then goes
 * on with a neutral answer; the replay stops after this update). */
int goap__rp_input(goap_agent *a, int tag, int id, int32_t *v, double *d);
/* Replaying: the next blackboard value the agent read in this update, if any (1). */
int goap__rp_bb(goap_agent *a, int *var, int32_t *value);
/* Replaying: checks an event against the log; 1 when it matches (report it to the host). */
int goap__rp_event(goap_agent *a, const goap_agent_event *ev);
/* The agent is destroyed: forget it. */
void goap__rec_forget(goap_agent *a);
void goap__rp_forget(goap_agent *a);

/* Replaying: the replayer's reading position, the first member of struct goap_replayer, so
 * that agent.c reads the common one-byte records inline (a replay does per update what the
 * live run's callbacks do, no more). */
typedef struct goap__rp_head {
  uint8_t *data;                 /* the records, checked when the replayer was created */
  size_t size, pos;
  int cur;                       /* the agent the records at pos belong to */
  int diverged;
} goap__rp_head;

static inline goap__rp_head *goap__rp_head_of(const goap_agent *a) {
  return (goap__rp_head *)(void *)a->rp;
}
/* The replay stopped at a divergence (events are no longer reported). */
static inline int goap__rp_diverged(const goap_agent *a) { return goap__rp_head_of(a)->diverged; }
/* The running action's tick result when it is the agent's next record: 1 with *state set;
 * 0: ask goap__rp_input (which finds it after host calls, or reports the divergence). */
static inline int goap__rp_tick(goap_agent *a, int32_t *state) {
  goap__rp_head *h = goap__rp_head_of(a);
  if (h->cur != a->rec_id || h->pos >= h->size || h->diverged) return 0;
  int t = h->data[h->pos];
  if (t == GOAP__R_TICK) *state = GOAP_ACTION_RUNNING;
  else if (t == GOAP__R_TICK_SUCCESS) *state = GOAP_ACTION_SUCCESS;
  else if (t == GOAP__R_TICK_FAILURE) *state = GOAP_ACTION_FAILURE;
  else return 0;
  h->pos++;
  return 1;
}
/* The same for START, STOP and CHECK (tag) of an action with a one-byte id: *v (may be NULL)
 * receives a CHECK's answer. */
static inline int goap__rp_act(goap_agent *a, int tag, int act, int32_t *v) {
  goap__rp_head *h = goap__rp_head_of(a);
  if (h->cur != a->rec_id || act >= 0x80 || h->size - h->pos < 2 || h->diverged ||
      h->data[h->pos + 1] != act)
    return 0;
  int t = h->data[h->pos];
  if (t != tag && !(tag == GOAP__R_CHECK && t == GOAP__R_CHECK_YES)) return 0;
  h->pos += 2;
  if (v) *v = t == GOAP__R_CHECK_YES;
  return 1;
}

/* ---- replay.c and replay_run.c: the log's records, the replayer ---------------------------- */
/* The other record tags (see replay.c for the log format). */
enum {
  R_AGENT = 1, R_AGENT_NEXT = 2, R_FRAME = 3, R_UPDATE = 4, R_UPDATE_SAME = 10,
  R_NOTE = 12, R_TICK_SUCCESS = GOAP__R_TICK_SUCCESS, R_TICK_FAILURE = GOAP__R_TICK_FAILURE,
  R_CHECK_YES = GOAP__R_CHECK_YES,
  R_RESERVE_YES = 23, R_EVENT = 24, R_END = 25, R_STEP = 26, R_DCHECK_YES = 28
};
/* GOAP__R_SET 5, ORDER 6, CLEAR_ORDER 7, REPLAN 8, RESET 9, TICK (running) 11, START 14,
 * STOP 15, SENSOR 16, CHECK (no) 17, PRIO 19, RESERVE (no) 20, BB 22, DCHECK (no) 27,
 * DCOST 29: above */

/* The domain's sizes, which every id of a record is checked against. */
typedef struct counts {
  int nv, na, ng;
} counts;

typedef struct rec {
  int tag;
  uint64_t id;
  int32_t v;
  double d;
  const uint8_t *bytes;          /* NOTE */
  size_t n;
  goap_agent_event ev;           /* EVENT (ev.plan: the replayer's scratch) */
} rec;

struct goap_replayer {
  goap__rp_head h;               /* first: agent.c's inline fast paths read it (data: the
                                    records of every chunk, in order; cur: the agent of the
                                    records at pos) */
  goap_allocator alloc;
  const goap_domain *d;
  counts cn;
  int32_t *plan;                 /* scratch for an event's plan */
  size_t plan_cap;
  char label[256];
  int changed;
  int nagents, attached;
  goap_agent **agents;           /* the attached ones (grown by attach: a log's count is only
                                    a claim until the agents come) */
  size_t cagents;
  double last_dt;
  uint64_t frame;
  goap_replay_note_fn on_note;
  void *note_user;
  int depth;                     /* host calls being applied inside each other */
  goap_replay_divergence div;
};

typedef struct reader {
  const uint8_t *p;
  size_t n, at;
  int bad;
} reader;

/* replay.c: the room an event's record takes at most; its record (R_EVENT and its fields) into
 * p[0..room), returning the bytes written; decoding the record at rd->at into *o, checking its
 * ids against the domain (0 on bad data). See there. */
size_t goap__replay_event_room(const goap_agent_event *ev);
size_t goap__replay_enc_event(uint8_t *p, const goap_agent_event *ev);
int goap__replay_decode(const counts *cn, reader *rd, rec *o, int32_t *plan, size_t cap,
                        size_t *len);

/* The hash of the agent's memory that goal failures are keyed by (agent.c; inspect.c reports
 * the same cooldowns with it). */
uint64_t goap__agent_mem_hash(const goap_agent *a);

/* save.c: begins (on the agent's own planner, created if needed) the search for goal g from
 * search_start, as goal selection does. */
goap_status goap__agent_begin_search(goap_agent *a, int g);
/* save.c: the HTN planner of the running plan (hp), created as a search creates it; NULL when
 * out of memory. */
goap_htn_planner *goap__agent_htn_planner(goap_agent *a);

/* Makes the agent read planning_ms_per_update's time from fn(ctx) instead of goap__now_ns
 * (NULL restores it): tests drive the budget with a clock of their own. */
void goap__agent_set_clock(goap_agent *a, goap__clock_fn fn, void *ctx);

/* ---- agent.c, agent_plan.c, agent_htn.c: one agent's update, in three files -------------- */
/* agent.c's helpers, for the other two (each forwards to agent.c's static of the same name
 * without the prefix; see there). */
double goap__agent_next_tick(const goap_agent *a, double interval);
void goap__agent_emit(goap_agent *a, goap_agent_event *ev);
void goap__agent_ev_init(goap_agent_event *ev, goap_agent_event_kind k);
double goap__agent_goal_priority(goap_agent *a, int g);
int goap__agent_goal_valid(const goap_agent *a, int g);
int goap__agent_goal_met(const goap_agent *a, int g);
void goap__agent_learn(goap_agent *a, int act, const goap__rt_action *r, int timeout);
int goap__agent_call_check(goap_agent *a, int act);
int goap__agent_reserve_plan(goap_agent *a, const int32_t *plan, int len);
void goap__agent_unblock(goap_agent *a);
void goap__agent_need_plan(goap_agent *a, goap_replan_reason why);
int goap__agent_ensure_plan_cap(goap_agent *a, size_t n);
void goap__agent_goal_done(goap_agent *a);
/* Begins the search for goal g on `on` (NULL: the agent's own planner, created if needed). */
goap_status goap__agent_begin_search_on(goap_agent *a, int g, goap_planner *on);
goap_htn_planner *goap__agent_htn_planner_create(goap_agent *a);
/* agent_plan.c: goal selection within the budget (GOAP_OK: a plan adopted; GOAP_IN_PROGRESS:
 * the budget ran out; GOAP_NO_PLAN: no goal can be planned), and the best other candidate's
 * priority (-inf when none; *which: its goal or -1) for the periodic better-goal check. */
goap_status goap__agent_select_goal(goap_agent *a);
double goap__agent_best_other(goap_agent *a, int *which);
/* agent_htn.c: planning the root task (goap__agent_select_goal's HTN form), the search for a
 * better plan when a watched variable changed, and the check before a step starts (1: it may
 * start; 0: not now; -1: out of memory). */
goap_status goap__agent_htn_select(goap_agent *a);
goap_status goap__agent_htn_try_better(goap_agent *a);
int goap__agent_htn_next(goap_agent *a);

#endif /* GOAP_AGENT_IMPL_H */
