/*
 * goap/pddl.h -- the PDDL front end: STRIPS planning tasks (with typing, negative
 * preconditions, equality and action costs) grounded into a goap_domain.
 *
 * A layer above the core (goap.h) only, beside the .goap loader (goap/file.h); errors are
 * goap_error values (goap/goap.h): `file:line:col: message`, the source line and a caret.
 * It never prints and has no global state; every allocation goes through the goap_allocator it
 * is given.
 *
 * Loading reads a domain and a problem, checks them, and (unless GOAP_PDDL_PARSE_ONLY) grounds
 * them by relaxed reachability: one bool variable per reachable ground atom of a predicate
 * that some action changes (static facts are used to filter actions and then dropped), one
 * goap action per reachable ground action, named "move a b" (schema and arguments, lower
 * case, separated by single spaces), with its cost (1 each without action costs).
 *
 * Ownership and threads: a goap_pddl_task owns its domain, start state and goal; the pointers
 * returned by the accessors live as long as the task. Loading is reentrant; a loaded task is
 * immutable and may be read (and planned on, through distinct planners) from many threads.
 */
#ifndef GOAP_PDDL_H
#define GOAP_PDDL_H

#include "goap.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Default limits (each is checked and reported with GOAP_TOO_LARGE and a message naming it). */
#define GOAP_PDDL_MAX_BYTES (64u * 1024u * 1024u) /* per input text */
#define GOAP_PDDL_MAX_DEPTH 64                     /* nesting of parentheses */
#define GOAP_PDDL_MAX_ATOMS 4000000u               /* reachable ground atoms */
#define GOAP_PDDL_MAX_ACTIONS 4000000u             /* reachable ground actions */
#define GOAP_PDDL_MAX_WORK 2000000000u             /* candidate bindings tried while grounding */

/* Options flags. */
#define GOAP_PDDL_PARSE_ONLY 0x1u /* check the texts but do not ground: goap_pddl_domain()
                                     is NULL; enough for goap_pddl_validate() */
#define GOAP_PDDL_HTN 0x2u        /* read total-order HDDL: (:task ...), (:method ...) and the
                                     problem's (:htn ...) are accepted (without this flag they
                                     are errors); implies GOAP_PDDL_PARSE_ONLY. See goap/hddl.h */

typedef struct goap_pddl_options {
  goap_allocator allocator;    /* zero: the C library */
  unsigned flags;              /* GOAP_PDDL_* */
  size_t max_bytes;            /* 0: GOAP_PDDL_MAX_BYTES */
  int max_depth;               /* 0: GOAP_PDDL_MAX_DEPTH */
  uint32_t max_atoms;          /* 0: GOAP_PDDL_MAX_ATOMS */
  uint32_t max_actions;        /* 0: GOAP_PDDL_MAX_ACTIONS */
  uint64_t max_work;           /* 0: GOAP_PDDL_MAX_WORK */
} goap_pddl_options;

typedef struct goap_pddl_task goap_pddl_task;

/* Parses a domain and a problem held in memory (need not be NUL-terminated); the names are
 * used in diagnostics. opt may be NULL (defaults). On failure *out is NULL and *err (if not
 * NULL) holds the first error: GOAP_PARSE_ERROR (malformed text, an unsupported construct),
 * GOAP_NOT_FOUND (an undeclared name, a cost function without a value), GOAP_DUPLICATE,
 * GOAP_TYPE_MISMATCH (a wrong number of arguments), GOAP_CONFLICT (a problem for another
 * domain, two values for one function), GOAP_OUT_OF_RANGE (a negative cost), GOAP_TOO_LARGE
 * (a limit), GOAP_OUT_OF_MEMORY; GOAP_INVALID_ARGUMENT for NULL out or a NULL text with a
 * non-zero length. Either name may be NULL ("<domain>", "<problem>"). */
GOAP_API goap_status goap_pddl_parse(const char *domain_name, const char *domain_text,
                                     size_t domain_length, const char *problem_name,
                                     const char *problem_text, size_t problem_length,
                                     const goap_pddl_options *opt, goap_pddl_task **out,
                                     goap_error *err);
/* Reads both files and parses them. GOAP_IO_ERROR when one cannot be read. */
GOAP_API goap_status goap_pddl_load(const char *domain_path, const char *problem_path,
                                    const goap_pddl_options *opt, goap_pddl_task **out,
                                    goap_error *err);
GOAP_API void goap_pddl_destroy(goap_pddl_task *t);

/* The grounded task (NULL when loaded with GOAP_PDDL_PARSE_ONLY or t is NULL). Start is a
 * state of goap_domain_state_words() words; the goal a conjunction of conditions. */
GOAP_API const goap_domain *goap_pddl_domain(const goap_pddl_task *t);
GOAP_API const goap_word *goap_pddl_start(const goap_pddl_task *t);
GOAP_API const goap_cond *goap_pddl_goal(const goap_pddl_task *t, int *count);

/* Names from the texts (lower case): `(domain NAME)` and `(problem NAME)`. */
GOAP_API const char *goap_pddl_domain_name(const goap_pddl_task *t);
GOAP_API const char *goap_pddl_problem_name(const goap_pddl_task *t);

/* 1 when the problem minimises total-cost (action costs apply), 0 when every action costs 1. */
GOAP_API int goap_pddl_has_costs(const goap_pddl_task *t);

/* The symmetries of the grounded task (docs/pddl.md, "Symmetries"): classes of
 * interchangeable objects -- objects of one type, none a domain constant, such that swapping
 * any two of them maps the ground actions (with their costs), the start state's static facts
 * and the goal onto themselves -- in the slot form of goap_symmetry_class, ready for
 * goap_request.symmetry with this task's goal. Only classes whose slots are disjoint are kept
 * (each ground atom and action mentions at most one member of a kept class; larger classes
 * first). Interchangeable objects that form no kept class (an atom or action names two of
 * them, or their slots clash with a kept class) give their transpositions as generators
 * (goap_symmetry_generator; at most 64). Computed on the first call and cached in t; *out
 * points into t (valid until goap_pddl_destroy) and is NULL when there is neither a class
 * nor a generator. GOAP_INVALID_ARGUMENT
 * for a NULL t or out or a task loaded with GOAP_PDDL_PARSE_ONLY; GOAP_OUT_OF_MEMORY. Not
 * thread-safe on one task before its first call completes. */
GOAP_API goap_status goap_pddl_symmetry(goap_pddl_task *t, const goap_symmetry **out);

typedef struct goap_pddl_info {
  int types, objects, predicates, functions, schemas; /* as declared (objects incl. constants) */
  int init_atoms;              /* atoms listed in :init */
  int reachable_atoms;         /* ground atoms reached by the relaxed fixpoint (static too) */
  int static_atoms;            /* of those, atoms of predicates no action changes (dropped) */
  int variables;               /* bool variables of the domain */
  int ground_actions;          /* actions of the domain */
  uint64_t work;               /* candidate bindings tried while grounding */
} goap_pddl_info;

/* Sizes of the task (all zero for a NULL task; the ground ones zero when not grounded). */
GOAP_API void goap_pddl_get_info(const goap_pddl_task *t, goap_pddl_info *out);

/* Writes ground action `action` of the domain in the IPC plan form "(move a b)", with
 * snprintf semantics (at most cap bytes, NUL-terminated when cap > 0; returns the length
 * needed). A bad id writes "(?)". */
GOAP_API size_t goap_pddl_format_action(const goap_pddl_task *t, int action, char *buf,
                                        size_t cap);

/* The result of goap_pddl_validate. */
typedef struct goap_pddl_report {
  int valid;                   /* 1: every step applicable and the goal reached */
  int steps;                   /* actions read from the plan */
  int bad_step;                /* 0-based index of the first failing step; `steps` when only
                                  the goal fails; -1 when valid */
  double cost;                 /* total-cost of the plan (of the steps done when invalid);
                                  the number of steps without action costs */
  int line, col;               /* position of the failing step in the plan text (0: goal) */
  char message[512];           /* why it failed, e.g. "step 3 (move a b): precondition
                                  (at a) is false"; "" when valid */
} goap_pddl_report;

/* Checks a plan in the IPC format (one `(action arg ...)` per line, `;` comments) against the
 * task, independently of the grounding and of any planner: it simulates the lifted actions on
 * sets of ground atoms (static ones included), step by step, then tests the goal and adds up
 * the cost. Works on tasks loaded with GOAP_PDDL_PARSE_ONLY. A step naming an unknown action
 * or object, with a wrong number of arguments or an object of the wrong type makes the plan
 * invalid at that step. Returns GOAP_OK when the plan could be read (valid or not: see
 * report->valid), GOAP_PARSE_ERROR with *err for a malformed plan text, GOAP_TOO_LARGE,
 * GOAP_OUT_OF_MEMORY, GOAP_INVALID_ARGUMENT for NULL t, plan_text or report. */
GOAP_API goap_status goap_pddl_validate(const goap_pddl_task *t, const char *plan_name,
                                        const char *plan_text, size_t plan_length,
                                        goap_pddl_report *report, goap_error *err);

#ifdef __cplusplus
}
#endif

#endif /* GOAP_PDDL_H */
