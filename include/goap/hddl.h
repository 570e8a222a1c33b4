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
#define GOAP_HDDL_MAX_NODES 8388608u  /* default node cap of the best-first search (2^23) */

/* Which searches goap_hddl_solve runs (goap_hddl_options.search; docs/hddl.md). */
enum {
  GOAP_HDDL_SEARCH_AUTO = 0,   /* the depth-first searches and the best-first one, in turns
                                  (the best-first one only when max_depth is 0) */
  GOAP_HDDL_SEARCH_DFS = 1,    /* the depth-first decomposition searches only */
  GOAP_HDDL_SEARCH_BFS = 2     /* the best-first progression search only */
};

/* The best-first search's heuristic (goap_hddl_options.heuristic; docs/hddl.md). */
enum {
  GOAP_HDDL_H_AUTO = 0,        /* RC when its grounding fits its bounds, else TDG */
  GOAP_HDDL_H_TDG = 1,         /* the task decomposition graph's fewest primitive steps of the
                                  agenda, plus the false goal literals */
  GOAP_HDDL_H_RC = 2           /* relaxed composition: h_add on the delete-relaxed ground
                                  problem where a task is done by its action or by a method
                                  whose subtasks are done (TDG when the grounding is too large) */
};

typedef struct goap_hddl_options {
  uint64_t max_steps;          /* 0: GOAP_HDDL_MAX_STEPS; GOAP_NODE_LIMIT when reached */
  double max_ms;               /* 0: no time limit; GOAP_TIME_LIMIT when reached */
  int max_depth;               /* decomposition depth cap; 0: unlimited (iterative deepening
                                  still bounds each round); GOAP_TOO_LARGE when it cuts */
  int search;                  /* GOAP_HDDL_SEARCH_*; another value: GOAP_INVALID_ARGUMENT */
  uint64_t max_nodes;          /* the best-first search's node cap; 0: GOAP_HDDL_MAX_NODES.
                                  Reached: that search stops (GOAP_MEMORY_LIMIT when it runs
                                  alone; otherwise the depth-first searches go on) */
  int heuristic;               /* GOAP_HDDL_H_*; another value: GOAP_INVALID_ARGUMENT */
} goap_hddl_options;

typedef struct goap_hddl_stats {
  uint64_t steps;              /* decomposition steps taken */
  int rounds;                  /* iterative-deepening rounds */
  int depth;                   /* depth bound of the round that found the plan (a second
                                  search counts recursive levels only: docs/hddl.md) */
  double ms;                   /* wall time */
  uint64_t bfs_nodes;          /* search nodes the best-first search stored */
  int search;                  /* which search found the plan: GOAP_HDDL_SEARCH_DFS or _BFS;
                                  0 when none did */
  int heuristic;               /* the best-first search's heuristic: GOAP_HDDL_H_TDG or _RC
                                  (0: that search did not run) */
  uint32_t bfs_h0;             /* its value of the :htn's task network (UINT32_MAX: a dead
                                  end; 0 also when it did not run) */
  uint64_t rc_ops;             /* ground operators of the RC model (0: not ground) */
} goap_hddl_stats;

/* A found plan: the primitive actions and the decomposition tree. Opaque; owned by the
 * caller, released with goap_hddl_plan_destroy(). */
typedef struct goap_hddl_plan goap_hddl_plan;

/* Plans for the task's initial task network. opt and stats may be NULL. On GOAP_OK *out holds
 * the plan; otherwise *out is NULL and the status says why: GOAP_NO_PLAN (the whole space was
 * searched), GOAP_NODE_LIMIT, GOAP_TIME_LIMIT, GOAP_TOO_LARGE, GOAP_MEMORY_LIMIT (the
 * best-first search's node cap, when it runs alone), GOAP_OUT_OF_MEMORY,
 * GOAP_INVALID_ARGUMENT (NULL t or out, t not an HTN task, or an unknown opt->search or
 * opt->heuristic). Deterministic: the same task
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
  int valid;                   /* 1: the plan passed every check below */
  int primitives;              /* primitive lines read */
  int compounds;               /* decomposition lines read (pandaPI's __top line included) */
  int line, col;               /* 1-based position in the plan text of the first failure (or
                                  of the parse error); 0 when valid */
  char message[512];           /* the first failure, naming the line's id, e.g. "step 3
                                  (primitive 2) (drive t a b): precondition (road a b) does
                                  not hold"; "" when valid */
} goap_hddl_report;

/* Checks a plan in the IPC HTN format against the task, independently of the planner (only
 * the parsed actions, tasks, methods, :init, :htn and :goal are read; lifted actions are
 * simulated on sets of ground atoms).
 *
 * The text: anything before the first line starting with "==>" is ignored; it ends at a line
 * starting with "<==" or at the end of the text. Between them, one item per line (blank lines,
 * ';' comments, trailing blanks, CR allowed; names case-insensitive): "ID action ARGS" (a
 * primitive step), exactly one "root IDS", "ID task ARGS -> method IDS" (a decomposition).
 * IDs are numbers 0 .. 2^31-1. The primitive steps execute in the order of their lines; the
 * other lines may come in any order. pandaPI's "root N" with "N __top -> __top_method IDS" is
 * accepted: IDS are then the roots.
 *
 * Checks, in this order (the first failure is reported): (1) every primitive names an action,
 * every decomposition a compound task and a method of that task, with the right number of
 * arguments, each an object of its parameter's type; (2) ids are defined once, every subtask
 * id is defined, no node has two parents or is both a root and a subtask, no cycle, every line
 * is reachable from the root line; (3) the roots match the initial task network in order
 * (names, arguments, its :parameters bound consistently), and each decomposition's method has
 * one binding of its parameters consistent with the task's arguments and with its children,
 * which match the method's subtasks in number, order, kind, name and arguments, with every
 * bound parameter of its type; (4) the tree's left-to-right order of primitives is the order
 * of the primitive lines; (5) executing the steps from :init, every step's precondition holds
 * and, just before step k, the preconditions of every method whose position is k hold
 * (position: the number of primitives before the node in the left-to-right order, so the step
 * of its first primitive, or for a method without primitives the state after the primitive
 * before it; parameters bound only by the preconditions are searched over the objects of their
 * type); the problem's :goal, if any, holds at the end.
 *
 * Returns GOAP_OK when the plan could be read (see report->valid), GOAP_PARSE_ERROR with *err
 * (file plan_name or "<plan>", line, column, message, source line) for a malformed plan text,
 * GOAP_TOO_LARGE (a text over the task's max_bytes, or more than 20,000,000 -- or the task's
 * max_work if lower -- candidate bindings of free method parameters in all), GOAP_OUT_OF_MEMORY, GOAP_INVALID_ARGUMENT for NULL t,
 * plan_text or report or a task that is not HTN (goap_hddl_is_htn). err may be NULL. The task
 * is only read: verifying from several threads at once is safe. */
GOAP_API goap_status goap_hddl_verify(const goap_pddl_task *t, const char *plan_name,
                                      const char *plan_text, size_t plan_length,
                                      goap_hddl_report *report, goap_error *err);

#ifdef __cplusplus
}
#endif

#endif /* GOAP_HDDL_H */
