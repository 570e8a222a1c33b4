/*
 * goap/htn.h -- hierarchical task networks (HTN) over a goap_domain.
 *
 * A layer above the core (goap.h); the core never depends on it. It never prints and has no
 * mutable global state. See docs/htn.md for the model and the search.
 *
 * The model, in one place:
 *  - The world state and the primitive tasks are those of a goap_domain: a primitive task is
 *    a goap action (its preconditions and its effects).
 *  - A compound task has ordered methods. A method has conditions (`when`, a conjunction of
 *    goap_cond) and an ordered list of subtasks: actions, compound tasks, `achieve` subgoals
 *    (conditions or a goal of the domain, solved by the GOAP planner from the state reached so
 *    far, its plan spliced in), `pause` (ends the plan here; decomposition resumes later from
 *    the state the agent is then in) and `set` (effects applied to the planning state only).
 *  - Effects: an action's effects apply at plan time (to the planning state) and at run time
 *    (the runtime applies them when the action completes, as for GOAP plans). A `set` subtask's
 *    effects apply at plan time only: it emits nothing into the plan.
 *  - Search: total-order forward decomposition; the first applicable method first; on failure,
 *    chronological backtracking into the remaining methods of every open compound task (the
 *    innermost first), re-planning `achieve` subgoals from the state then reached.
 *  - The method traversal record (MTR): the index (within its task) of the method chosen for
 *    each compound task, in decomposition order. A plan A has higher priority than a plan B
 *    when, at the first position where their MTRs differ, A's index is smaller.
 *
 * Ownership and threads: as for goap.h. A goap_htn_domain is immutable once built and may be
 * shared by threads (through distinct planners); it borrows the goap_domain given to the
 * builder, which must outlive it. A builder and a planner are used by one thread at a time.
 * Functions returning goap_status return GOAP_INVALID_ARGUMENT for NULL required pointers;
 * destroy functions accept NULL.
 */
#ifndef GOAP_HTN_H
#define GOAP_HTN_H

#include "goap.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct goap_htn_builder goap_htn_builder;
typedef struct goap_htn_domain goap_htn_domain;
typedef struct goap_htn_planner goap_htn_planner;

/* ------------------------------------------------------------------------------------------
 * Building an HTN domain
 * ---------------------------------------------------------------------------------------- */
typedef enum goap_htn_kind {
  GOAP_HTN_ACTION = 0, /* id: an action of the goap_domain (a primitive task) */
  GOAP_HTN_TASK,       /* id: a compound task */
  GOAP_HTN_ACHIEVE,    /* conds: reach them with the GOAP planner (an empty list: nothing) */
  GOAP_HTN_ACHIEVE_GOAL, /* id: a goal of the goap_domain: reach its `want` conditions */
  GOAP_HTN_PAUSE,      /* end the plan here: a partial plan, resumed later */
  GOAP_HTN_SET         /* effs: applied to the planning state only (plan time only) */
} goap_htn_kind;

typedef struct goap_htn_subtask {
  goap_htn_kind kind;
  int32_t id;                  /* ACTION, TASK, ACHIEVE_GOAL */
  const goap_cond *conds;      /* ACHIEVE: may be NULL when cond_count is 0 */
  int cond_count;
  const goap_effect *effs;     /* SET: SET/ADD effects, at most one per variable */
  int eff_count;
} goap_htn_subtask;

typedef struct goap_htn_method_desc {
  const char *name;            /* required; [A-Za-z_][A-Za-z0-9_]*, unique within its task */
  const goap_cond *when;       /* conjunction; may be NULL when when_count is 0 */
  int when_count;
  const goap_htn_subtask *subtasks; /* ordered; may be NULL when subtask_count is 0 (a method
                                       that does nothing) */
  int subtask_count;
} goap_htn_method_desc;

/* Creates a builder over a built goap_domain (borrowed: it must outlive the builder and the
 * HTN domains built from it) into *out. alloc may be NULL (the C library). GOAP_OK;
 * GOAP_OUT_OF_MEMORY; GOAP_INVALID_ARGUMENT when d or out is NULL (*out is NULL on any
 * failure). */
GOAP_API goap_status goap_htn_builder_create(const goap_domain *d, const goap_allocator *alloc,
                                             goap_htn_builder **out);
GOAP_API void goap_htn_builder_destroy(goap_htn_builder *b);

/* Declares a compound task (ids 0, 1, 2, ... in call order) so that methods may refer to it
 * before its own methods are added. Names follow the rules of method names and are unique
 * among tasks. */
GOAP_API goap_status goap_htn_builder_add_task(goap_htn_builder *b, const char *name,
                                               int *out_id);
/* Appends a method to a task (methods are tried in the order they were added; *out_index,
 * which may be NULL, receives its index within the task). The description is validated
 * completely (names, ids, conditions and effects against the goap_domain) and copied; on
 * failure nothing is added and goap_htn_builder_error() / _error_item() say what and where. */
GOAP_API goap_status goap_htn_builder_add_method(goap_htn_builder *b, int task,
                                                 const goap_htn_method_desc *desc,
                                                 int *out_index);
/* The task's id, or -1. */
GOAP_API int goap_htn_builder_find_task(const goap_htn_builder *b, const char *name);

/* The builder's last error (goap/goap.h): status GOAP_OK and message "" when the last call
 * succeeded. Never NULL for a non-NULL builder (NULL for NULL); owned by the builder and valid
 * until the next call on it. */
GOAP_API const goap_error *goap_htn_builder_error(const goap_htn_builder *b);

typedef enum goap_htn_item {
  GOAP_HTN_ITEM_NONE = 0, /* the call as a whole (the task id, the description) */
  GOAP_HTN_ITEM_NAME,     /* the name */
  GOAP_HTN_ITEM_WHEN,     /* *index: the condition */
  GOAP_HTN_ITEM_SUBTASK,  /* *index: the subtask; *sub: its condition or effect, or -1 */
  GOAP_HTN_ITEM_TASK      /* build: *index: the task at fault (e.g. one without methods) */
} goap_htn_item;
/* Which element of the last failed call was at fault. index and sub may be NULL. */
GOAP_API goap_htn_item goap_htn_builder_error_item(const goap_htn_builder *b, int *index,
                                                   int *sub);

/* Compiles the HTN domain. Every task needs at least one method (GOAP_INVALID_OPERATION
 * otherwise, with GOAP_HTN_ITEM_TASK). The builder stays valid. */
GOAP_API goap_status goap_htn_builder_build(goap_htn_builder *b, goap_htn_domain **out);

GOAP_API void goap_htn_domain_destroy(goap_htn_domain *h);

/* Queries (thread-safe; invalid ids give -1 / NULL / 0). Pointers live as long as h. */
GOAP_API const goap_domain *goap_htn_domain_goap(const goap_htn_domain *h);
GOAP_API int goap_htn_domain_task_count(const goap_htn_domain *h);
GOAP_API int goap_htn_domain_find_task(const goap_htn_domain *h, const char *name);
GOAP_API const char *goap_htn_domain_task_name(const goap_htn_domain *h, int task);
GOAP_API int goap_htn_domain_method_count(const goap_htn_domain *h, int task);
GOAP_API const char *goap_htn_domain_method_name(const goap_htn_domain *h, int task,
                                                 int method);
GOAP_API const goap_cond *goap_htn_domain_method_when(const goap_htn_domain *h, int task,
                                                      int method, int *count);
GOAP_API const goap_htn_subtask *goap_htn_domain_method_subtasks(const goap_htn_domain *h,
                                                                 int task, int method,
                                                                 int *count);

/* ------------------------------------------------------------------------------------------
 * Planning
 * ---------------------------------------------------------------------------------------- */
typedef struct goap_htn_planner_desc {
  goap_allocator allocator;    /* zero: the C library */
  uint32_t initial_steps;      /* plan steps / decomposition records to reserve; 0: 256 */
  goap_planner_desc goap;      /* the GOAP planner used for `achieve` (its allocator field is
                                  ignored: the planner's own is used) */
} goap_htn_planner_desc;

/* Creates a planner for one HTN domain into *out. desc may be NULL (all defaults). GOAP_OK;
 * GOAP_OUT_OF_MEMORY; GOAP_INVALID_ARGUMENT when h or out is NULL (*out is NULL on any
 * failure). Its buffers grow (doubling) only when a request needs more than any request
 * before: after warm-up, planning performs no heap allocation. */
GOAP_API goap_status goap_htn_planner_create(const goap_htn_domain *h,
                                             const goap_htn_planner_desc *desc,
                                             goap_htn_planner **out);
GOAP_API void goap_htn_planner_destroy(goap_htn_planner *p);

/* The default max_depth. */
#define GOAP_HTN_DEFAULT_MAX_DEPTH 1000u

typedef struct goap_htn_request {
  const goap_word *start;      /* NULL: the domain's default state */
  int task;                    /* the root compound task (ignored by goap_htn_resume) */
  uint64_t max_steps;          /* decomposition steps (tasks taken from the agenda); 0: none */
  uint32_t max_depth;          /* the most unfinished methods on the agenda; 0: the default.
                                  A task in the last position of its method does not keep the
                                  method open (tail position), so right recursion (a task that
                                  ends with itself) runs in constant depth; left recursion
                                  grows it. Branches deeper than this are cut (see stop). */
  double max_ms;               /* time budget in milliseconds; 0: none */
  const int32_t *mtr_bound;    /* not NULL: accept only plans of strictly higher priority than
                                  this MTR (the running plan's); others are pruned */
  int mtr_bound_length;
  goap_search achieve_search;  /* for `achieve` subgoals (goap_request fields) */
  goap_heuristic achieve_heuristic;
  uint32_t achieve_max_nodes;  /* node budget of each `achieve`; 0: the planner's capacity */
  void *host;                  /* passed to the action callbacks of `achieve` searches */
} goap_htn_request;

/* Why a search that found no plan was incomplete. */
typedef enum goap_htn_stop {
  GOAP_HTN_STOP_NONE = 0,      /* complete: status GOAP_NO_PLAN means no decomposition exists */
  GOAP_HTN_STOP_STEPS,         /* max_steps ran out: status GOAP_NODE_LIMIT */
  GOAP_HTN_STOP_TIME,          /* max_ms ran out: status GOAP_TIME_LIMIT */
  GOAP_HTN_STOP_DEPTH,         /* some branch was cut at max_depth: status GOAP_TOO_LARGE */
  GOAP_HTN_STOP_CYCLE,         /* ... and the cut branch was a cycle (a task decomposed again
                                  with no state change in between: left recursion): status
                                  GOAP_CONFLICT */
  GOAP_HTN_STOP_ACHIEVE        /* an `achieve` search ran out of nodes or time: status
                                  GOAP_NODE_LIMIT */
} goap_htn_stop;

/* "none", "steps", "time", "depth_limit", "cycle", "achieve_limit". Never NULL. */
GOAP_API const char *goap_htn_stop_name(goap_htn_stop stop);

typedef struct goap_htn_stats {
  uint64_t steps;              /* tasks taken from the agenda */
  uint64_t expansions;         /* methods applied */
  uint64_t backtracks;         /* failures that went back to a choice point (each failure
                                  counts once, however many choice points it unwinds) */
  uint64_t achieves;           /* GOAP searches run for `achieve` */
  uint32_t max_depth;          /* the deepest agenda reached */
  double time_us;
} goap_htn_stats;

typedef struct goap_htn_result {
  goap_status status;          /* as returned */
  int32_t *plan;               /* in: caller's buffer of plan_capacity action ids */
  int plan_capacity;           /* in */
  int plan_length;             /* out: actions in the plan (when larger than plan_capacity,
                                  nothing was written: GOAP_BUFFER_TOO_SMALL) */
  int32_t *mtr;                /* in: caller's buffer of mtr_capacity method indices (may be
                                  NULL when mtr_capacity is 0) */
  int mtr_capacity;            /* in */
  int mtr_length;              /* out: entries of the MTR (written when they fit; an MTR that
                                  does not fit also gives GOAP_BUFFER_TOO_SMALL) */
  double cost;                 /* out: the plan's cost (static action costs) */
  int paused;                  /* out: 1 when the plan ends at a `pause` (status GOAP_PARTIAL):
                                  goap_htn_resume continues it */
  goap_htn_stop stop;          /* out */
  goap_htn_stats stats;        /* out */
} goap_htn_result;

/* Decomposes req->task from req->start. Returns result->status:
 *   GOAP_OK           a complete plan;
 *   GOAP_PARTIAL      a plan that ends at a `pause` (result->paused = 1);
 *   GOAP_NO_PLAN      no decomposition exists (or none beats mtr_bound);
 *   GOAP_NODE_LIMIT, GOAP_TIME_LIMIT, GOAP_TOO_LARGE, GOAP_CONFLICT: see goap_htn_stop;
 *   GOAP_BUFFER_TOO_SMALL (plan_length / mtr_length say the sizes needed: call goap_htn_fetch
 *   with larger buffers), GOAP_INVALID_ARGUMENT (bad task or options), GOAP_OUT_OF_MEMORY.
 * Any earlier pending continuation is dropped. */
GOAP_API goap_status goap_htn_plan(goap_htn_planner *p, const goap_htn_request *req,
                                   goap_htn_result *result);

/* 1 when the last plan or resume ended at a `pause` and its continuation is kept. */
GOAP_API int goap_htn_pending(const goap_htn_planner *p);

/* Continues the decomposition after the `pause` that ended the last plan, from `state` (the
 * state the agent is in now; NULL: the default state), with the budgets of req (its task and
 * mtr_bound are ignored; req may be NULL: no budgets). The choices made before the pause are
 * kept (no backtracking into them): the MTR returned continues the earlier one. The plan
 * returned holds the new actions only. GOAP_INVALID_OPERATION when nothing is pending. After
 * a failure the continuation is dropped (plan again from the root). */
GOAP_API goap_status goap_htn_resume(goap_htn_planner *p, const goap_word *state,
                                     const goap_htn_request *req, goap_htn_result *result);

/* The continuation kept after a `pause` (what goap_htn_resume goes on with), for save games:
 * a list of runs, the next to do first, each the subtasks [subtask, end) of method `method`
 * of compound task `task`, nested `depth` deep (the depth of the decomposition tree). */
typedef struct goap_htn_resume_run {
  int task, method, subtask, depth;
} goap_htn_resume_run;

/* Writes the pending continuation's runs first .. first + cap - 1 into out[0..cap) (as many
 * as there are; out may be NULL when cap is 0) and returns how many runs it has in all (0: the
 * pause ended the root task's decomposition); -1 when nothing is pending, p is NULL or first
 * is negative. Reads only; never allocates. */
GOAP_API int goap_htn_continuation(const goap_htn_planner *p, int first,
                                   goap_htn_resume_run *out, int cap);
/* Makes runs[0..count) (as goap_htn_continuation gave them, for a planner of the same HTN
 * domain) the pending continuation of p, with mtr[0..mtr_length), the MTR of the plan that
 * ended at the pause (what goap_htn_result.mtr gave): goap_htn_resume then continues exactly
 * as the planner that paused would have. Drops anything pending before. GOAP_INVALID_ARGUMENT
 * for NULL p, a negative count or mtr_length, NULL arrays with a length, or a run that is not
 * a suffix of one of the domain's methods; GOAP_OUT_OF_MEMORY (nothing pending then). */
GOAP_API goap_status goap_htn_restore_continuation(goap_htn_planner *p,
                                                   const goap_htn_resume_run *runs, int count,
                                                   const int32_t *mtr, int mtr_length);

/* Writes the plan and MTR of the last plan/resume again (e.g. into larger buffers) and
 * returns its status (GOAP_BUFFER_TOO_SMALL if they still do not fit); the stats are those
 * of that search. GOAP_INVALID_OPERATION before any plan. */
GOAP_API goap_status goap_htn_fetch(const goap_htn_planner *p, goap_htn_result *result);

/* Compares two MTRs: < 0 when a has higher priority than b (at the first position where they
 * differ, a's method index is smaller), > 0 when b has, 0 when one is a prefix of the other
 * (equal priority: a running plan is not replaced). NULL with a length of 0 is an empty MTR.
 * A runtime replaces a running plan by a new one only when this is < 0 (new, running). */
GOAP_API int goap_htn_mtr_compare(const int32_t *a, int a_length, const int32_t *b,
                                  int b_length);

/* The decomposition tree of the last plan/resume, in pre-order: one entry per compound task
 * expanded, action, `achieve`, `set` and `pause`. depth is the nesting level (0: the root
 * task). */
typedef struct goap_htn_trace_entry {
  goap_htn_kind kind;
  int32_t id;                  /* TASK: the task; ACTION: the action; ACHIEVE_GOAL: the goal;
                                  ACHIEVE / SET / PAUSE: -1 */
  int32_t method;              /* TASK: the method index; else -1 */
  int32_t depth;
  int32_t plan_start;          /* ACTION / ACHIEVE*: the first plan index it produced */
  int32_t plan_length;         /* ACTION: 1; ACHIEVE*: the sub-plan's length; else 0 */
} goap_htn_trace_entry;

/* Writes up to cap entries and returns how many there are in all. */
GOAP_API int goap_htn_trace(const goap_htn_planner *p, goap_htn_trace_entry *out, int cap);

#ifdef __cplusplus
}
#endif

#endif /* GOAP_HTN_H */
