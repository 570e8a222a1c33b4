/*
 * goap/hddl.h -- total-order HTN planning on HDDL (the IPC 2020/2023 HTN track format):
 * a lifted SHOP-style planner, the IPC plan format, and an independent plan verifier.
 *
 * An HDDL domain and problem are loaded with goap_pddl_load()/goap_pddl_parse() and the
 * GOAP_PDDL_HTN flag (goap/pddl.h): the result is a goap_pddl_task holding the lifted
 * actions, compound tasks, methods and the initial task network. Everything here reads that
 * task and never modifies it, so one task may be planned on and verified from many threads.
 *
 * Like the rest of the library this layer never prints and has no global state; every
 * allocation goes through the task's goap_allocator.
 */
#ifndef GOAP_HDDL_H
#define GOAP_HDDL_H

#include "pddl.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 1 when the task was loaded as HDDL (GOAP_PDDL_HTN) and has an initial task network. */
GOAP_API int goap_hddl_is_htn(const goap_pddl_task *t);

/* ---- planning ---------------------------------------------------------------------------- */

#define GOAP_HDDL_MAX_STEPS 50000000u /* default decomposition steps (method or binding tries) */

typedef struct goap_hddl_options {
  uint64_t max_steps;          /* 0: GOAP_HDDL_MAX_STEPS; GOAP_NODE_LIMIT when reached */
  double max_ms;               /* 0: no time limit; GOAP_TIME_LIMIT when reached */
  int max_depth;               /* decomposition depth cap; 0: unlimited (iterative deepening
                                  still bounds each round); GOAP_TOO_LARGE when it cuts */
} goap_hddl_options;

typedef struct goap_hddl_stats {
  uint64_t steps;              /* decomposition steps taken */
  int rounds;                  /* iterative-deepening rounds */
  int depth;                   /* depth bound of the round that found the plan */
  double ms;                   /* wall time */
} goap_hddl_stats;

/* A found plan: the primitive actions and the decomposition tree. Opaque; owned by the
 * caller, released with goap_hddl_plan_destroy(). */
typedef struct goap_hddl_plan goap_hddl_plan;

/* Plans for the task's initial task network. opt and stats may be NULL. On GOAP_OK *out holds
 * the plan; otherwise *out is NULL and the status says why: GOAP_NO_PLAN (the whole space was
 * searched), GOAP_NODE_LIMIT, GOAP_TIME_LIMIT, GOAP_TOO_LARGE, GOAP_OUT_OF_MEMORY,
 * GOAP_INVALID_ARGUMENT (NULL t or out, or t not an HTN task). Deterministic: the same task
 * and options give the same plan. */
GOAP_API goap_status goap_hddl_solve(const goap_pddl_task *t, const goap_hddl_options *opt,
                                     goap_hddl_plan **out, goap_hddl_stats *stats);
GOAP_API void goap_hddl_plan_destroy(goap_hddl_plan *p);

/* Number of primitive actions of the plan (0 for NULL). */
GOAP_API int goap_hddl_plan_length(const goap_hddl_plan *p);

/* Writes the plan in the IPC HTN format ("==>", one "ID action args" line per primitive,
 * "root IDS", one "ID task args -> method IDS" line per compound task, "<=="), with snprintf
 * semantics: at most cap bytes, NUL-terminated when cap > 0; returns the length needed. */
GOAP_API size_t goap_hddl_plan_write(const goap_pddl_task *t, const goap_hddl_plan *p, char *buf,
                                     size_t cap);

/* ---- verification ------------------------------------------------------------------------- */

typedef struct goap_hddl_report {
  int valid;                   /* 1: executable, a decomposition of the initial network */
  int primitives;              /* primitive steps read */
  int compounds;               /* decomposition lines read */
  int line, col;               /* position in the plan text of what failed (0: none) */
  char message[512];           /* why it failed; "" when valid */
} goap_hddl_report;

/* Checks a plan in the IPC HTN format against the task, independently of the planner:
 * that the primitive sequence is executable from the initial state (lifted actions simulated
 * on sets of ground atoms); that the decomposition lines form a tree whose roots are the
 * initial task network in order, each compound task decomposed by a method of that task whose
 * parameters bind consistently (task arguments and ordered subtasks), whose subtasks are in
 * the method's order and whose preconditions hold in the state where its first primitive (or,
 * for an empty method, its place in the sequence) starts; and that every primitive step is
 * used exactly once, in the tree's left-to-right order. Returns GOAP_OK when the plan could be
 * read (see report->valid), GOAP_PARSE_ERROR with *err for a malformed plan text,
 * GOAP_TOO_LARGE, GOAP_OUT_OF_MEMORY, GOAP_INVALID_ARGUMENT for NULL t, plan_text or report or
 * a task that is not HTN. */
GOAP_API goap_status goap_hddl_verify(const goap_pddl_task *t, const char *plan_name,
                                      const char *plan_text, size_t plan_length,
                                      goap_hddl_report *report, goap_diag *err);

#ifdef __cplusplus
}
#endif

#endif /* GOAP_HDDL_H */
