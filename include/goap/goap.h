/*
 * goap.h -- libgoap core: world states, domains, planners.
 *
 * The contract of the core library. It is dependency-free C11, never prints, and has no
 * mutable global state.
 *
 * Ownership and threads, in one place:
 *  - Every object is created by a *_create or *_build call and released by the matching
 *    *_destroy. Destroy functions accept NULL and do nothing. Every constructor has one
 *    shape: goap_status goap_X_create(inputs..., goap_X **out) (plus a trailing goap_error *
 *    where it validates a description): GOAP_OK, or an error with *out set to NULL;
 *    out == NULL gives GOAP_INVALID_ARGUMENT.
 *  - Errors have one shape, goap_error (below, "Errors"): a function that can say more about a
 *    failure takes a goap_error *err (may be NULL), filled on failure and cleared (GOAP_OK,
 *    "") on success; the builders keep their last one (goap_builder_error).
 *  - A goap_domain is immutable once built. Any number of threads may read it and plan on it
 *    at once (through distinct planners). It must outlive every planner created on it.
 *  - A goap_builder and a goap_planner are used by one thread at a time.
 *  - Strings passed in are copied; strings returned point into the object and live as long
 *    as it does.
 *  - Functions returning goap_status return GOAP_INVALID_ARGUMENT for NULL required pointers
 *    (they never crash on NULL). Query functions return -1, 0 or NULL as documented.
 *
 * Values: a bool variable holds 0 or 1, an enum variable the index of its value (0-based, in
 * declaration order), an int variable its integer value within [lo, hi].
 *
 * States are arrays of goap_word (64-bit words) owned by the caller, of the length returned by
 * goap_domain_state_words(). Variables are packed into bit fields inside those words; there is
 * no limit on the number of variables other than memory.
 */
#ifndef GOAP_GOAP_H
#define GOAP_GOAP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GOAP_VERSION_MAJOR 0
#define GOAP_VERSION_MINOR 2
#define GOAP_VERSION_PATCH 0
#define GOAP_VERSION_STRING "0.2.0"
/* Encoded as major*10000 + minor*100 + patch. */
#define GOAP_VERSION_NUMBER \
  (GOAP_VERSION_MAJOR * 10000 + GOAP_VERSION_MINOR * 100 + GOAP_VERSION_PATCH)

#if defined(_WIN32) && defined(GOAP_SHARED_BUILD)
#define GOAP_API __declspec(dllexport)
#elif defined(_WIN32) && defined(GOAP_SHARED)
#define GOAP_API __declspec(dllimport)
#elif defined(__GNUC__)
#define GOAP_API __attribute__((visibility("default")))
#else
#define GOAP_API
#endif

/* The library's version string ("0.2.0"); equal to GOAP_VERSION_STRING of the headers it was
 * built with. */
GOAP_API const char *goap_version(void);

/* ------------------------------------------------------------------------------------------
 * Status codes
 * ---------------------------------------------------------------------------------------- */
typedef enum goap_status {
  GOAP_OK = 0,               /* success; for planning: a plan was found */
  GOAP_NO_PLAN,              /* the search space was exhausted: the goal is unreachable */
  GOAP_NODE_LIMIT,           /* the request's node budget ran out (best partial plan given) */
  GOAP_TIME_LIMIT,           /* the request's time budget ran out (best partial plan given) */
  GOAP_MEMORY_LIMIT,         /* the planner's memory budget was reached (best partial plan given) */
  GOAP_BUFFER_TOO_SMALL,     /* a caller buffer is too small; the needed size is reported */
  GOAP_IN_PROGRESS,          /* a sliced search has more work to do */
  GOAP_PARTIAL,              /* a partial plan was returned on purpose */
  GOAP_INVALID_ARGUMENT,     /* NULL where not allowed, bad id, bad option */
  GOAP_INVALID_OPERATION,    /* call out of sequence (e.g. step before begin) */
  GOAP_OUT_OF_MEMORY,        /* the allocator returned NULL */
  GOAP_NOT_FOUND,            /* an unknown name */
  GOAP_DUPLICATE,            /* a name defined twice */
  GOAP_TYPE_MISMATCH,        /* a value or operator that does not fit the variable's type */
  GOAP_OUT_OF_RANGE,         /* a value outside the variable's range */
  GOAP_CONFLICT,             /* contradictory definitions (two effects on one variable) */
  GOAP_TOO_LARGE,            /* a size limit was exceeded */
  GOAP_PARSE_ERROR,          /* malformed input text */
  GOAP_IO_ERROR,             /* a file could not be read */
  GOAP_TRUNCATED,            /* saved data ends early (goap/save.h) */
  GOAP_VERSION_MISMATCH,     /* saved data of another format version (goap/save.h) */
  GOAP_CORRUPT,              /* saved data damaged: checksum, magic or a value (goap/save.h) */
  GOAP_DOMAIN_MISMATCH,      /* saved for another domain or agent type (goap/save.h) */
  GOAP_STATUS_COUNT
} goap_status;

/* A short English description of a status ("no plan", ...). Never NULL; unknown codes give
 * "unknown status". Thread-safe. */
GOAP_API const char *goap_status_string(goap_status status);

/* The status's identifier in lower case ("ok", "no_plan", "node_limit", "time_limit", ...),
 * as used in JSON output. Never NULL. Thread-safe. */
GOAP_API const char *goap_status_name(goap_status status);

/* ------------------------------------------------------------------------------------------
 * Errors
 * ---------------------------------------------------------------------------------------- */

/* The one error shape of the public API: what went wrong (a goap_status and a one-line
 * message) and, when it is tied to an input, where (file, line:col, byte offset, the
 * offending source line). Every function that gives detail about a failure takes a
 * `goap_error *err` (the .goap loader, PDDL/HDDL, arena maps, agent types and agents,
 * snapshots, replay logs) or, for the builders, keeps one (goap_builder_error).
 * goap_error_format is in the core library (libgoap), so no front end needs another.
 *
 * The rule for every function with a `goap_error *err` parameter: err may be NULL. On failure
 * the function fills *err (status = the returned status, message non-empty). On success it
 * sets err->status = GOAP_OK and err->message[0] = '\0' (the other fields are unspecified).
 *
 * A goap_error is a plain value (fixed-size text, no pointers): it may be copied, kept, and
 * read from any thread. The field order is part of the ABI (the bindings mirror it). */

typedef enum goap_severity { GOAP_SEVERITY_ERROR = 0, GOAP_SEVERITY_WARNING } goap_severity;

typedef struct goap_error {
  goap_status status;          /* GOAP_OK when there is no error; else the error's class
                                  (GOAP_PARSE_ERROR, GOAP_NOT_FOUND, ...) */
  goap_severity severity;      /* GOAP_SEVERITY_ERROR, or _WARNING for goap_file_warnings */
  char file[256];              /* the name given when loading ("" when the input had no name;
                                  truncated if longer) */
  int line, col;               /* 1-based position in a text (col counts bytes); 0 when not
                                  tied to one */
  size_t offset;               /* byte offset in the input where the problem was found (binary
                                  inputs: snapshots, replay logs; texts may set it too); 0 if
                                  none */
  char message[512];           /* one line, no trailing newline; may carry a "did you mean" */
  char source[512];            /* the offending source line, without newline ("" if none) */
} goap_error;

/* Formats an error the way compilers do:
 *   file:line:col: error: message
 *     <source line>
 *     ^
 * ("warning: " for a warning). An error with no file and no position prints just
 * "error: message", followed by " (at byte N)" when offset != 0 and line == 0. Every line of
 * the text, the last included, ends with '\n'. Writes at most cap bytes (always
 * NUL-terminated when cap > 0); returns the length the whole text needs, excluding the NUL
 * (as snprintf). e NULL writes "" and returns 0. Thread-safe. */
GOAP_API size_t goap_error_format(const goap_error *e, char *buf, size_t cap);

/* ------------------------------------------------------------------------------------------
 * Allocation
 * ---------------------------------------------------------------------------------------- */

/* One function for all allocation, in the spirit of lua_Alloc:
 *   new_size == 0: free ptr (which may be NULL), return NULL;
 *   ptr == NULL:   allocate new_size bytes;
 *   otherwise:     resize ptr from old_size to new_size bytes.
 * old_size is the size the block was allocated with (0 when ptr is NULL). Returning NULL for
 * a non-zero new_size means failure; the library then reports GOAP_OUT_OF_MEMORY and leaves the
 * old block untouched. Memory must be aligned for any object type (as malloc's). */
typedef void *(*goap_realloc_fn)(void *ctx, void *ptr, size_t old_size, size_t new_size);

/* A zero-initialised allocator (fn == NULL) means the C library's malloc/realloc/free.
 * Every object keeps a copy of the allocator it was created with. */
typedef struct goap_allocator {
  goap_realloc_fn fn;
  void *ctx;
} goap_allocator;

/* The C library as a goap_realloc_fn (what a zero allocator means): for hosts that wrap an
 * allocator (counting, locking) and for the layers above the core. ctx is ignored.
 * Thread-safe. */
GOAP_API void *goap_libc_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size);

/* ------------------------------------------------------------------------------------------
 * Variables, conditions, effects (small value types, kept on the caller's stack)
 * ---------------------------------------------------------------------------------------- */
typedef uint64_t goap_word;

typedef enum goap_var_type { GOAP_BOOL = 0, GOAP_ENUM, GOAP_INT } goap_var_type;

/* Variable flags. */
#define GOAP_VAR_SHARED 0x1u /* lives on a squad blackboard; planning treats it as any other */
#define GOAP_VAR_SENSED 0x2u /* a percept: the game's sensors write it (no action needs to);
                              * planning treats it as any other, analyses as able to take any
                              * value (goap_domain_var_info's flags report it) */

/* The most values an enum may have. */
#define GOAP_MAX_ENUM_VALUES 65536

typedef struct goap_var_desc {
  const char *name;            /* required; [A-Za-z_][A-Za-z0-9_]*, unique in the domain */
  goap_var_type type;
  int32_t lo, hi;              /* GOAP_INT: inclusive range, lo <= hi */
  const char *const *values;   /* GOAP_ENUM: value names (unique), value_count of them */
  int value_count;             /* GOAP_ENUM: 1..GOAP_MAX_ENUM_VALUES */
  int has_default;             /* 0: default is false / the first value / lo */
  int32_t default_value;       /* used when has_default != 0 */
  unsigned flags;              /* GOAP_VAR_* */
} goap_var_desc;

typedef enum goap_op {
  GOAP_EQ = 0, GOAP_NE, GOAP_LT, GOAP_LE, GOAP_GT, GOAP_GE
} goap_op;

/* A test on one variable: var OP value. Bool and enum variables accept only EQ and NE. */
typedef struct goap_cond {
  int32_t var;
  goap_op op;
  int32_t value;
} goap_cond;

typedef enum goap_effect_op {
  GOAP_SET = 0, /* var = value */
  GOAP_ADD,     /* var += value (int variables only; value may be negative) */
  GOAP_ADD_CLAMP /* var += value, saturated at the variable's lo / hi (int variables only) */
} goap_effect_op;

/* An ADD effect that would leave the variable's range makes its action inapplicable in that
 * state: values are never clamped. An ADD_CLAMP effect never makes its action inapplicable:
 * the result is clamped to [lo, hi] (hunger 3 in 0..10, -= 5: hunger becomes 0). */
typedef struct goap_effect {
  int32_t var;
  goap_effect_op op;
  int32_t value;
} goap_effect;

/* ------------------------------------------------------------------------------------------
 * Actions and goals
 * ---------------------------------------------------------------------------------------- */

/* Host callbacks. `host` is goap_request.host of the request being planned, `action` the
 * action's id, `user` goap_action_desc.user. Both are called once per planning request per
 * action (never per search node), on the thread that plans (goap_state_cost_fn below is the
 * one called per search node).
 *   check: return non-zero if the action may be used in this request (a procedural
 *          precondition).
 *   cost:  return the action's cost for this request; a negative or NaN result disables the
 *          action for the request. */
typedef int (*goap_check_fn)(void *host, int action, void *user);
typedef double (*goap_cost_fn)(void *host, int action, void *user);

/* Positional (state-dependent) cost (goap_builder_set_state_cost): the extra cost of
 * applying `action` in `state` (W words, goap_domain_state_words; read it with goap_state_get),
 * the state the plan stands in at that step: a forward search asks it once per successor it
 * generates, so in `go_river, go_village` the second leg is priced from the river. `host` as
 * for goap_cost_fn, `user` the pointer given with it. Return a value >= the action's
 * min_cost; a negative, NaN or infinite result makes the action inapplicable in that state (a
 * procedural precondition per state); a result in [0, min_cost) counts as min_cost. It must be
 * deterministic within a request and must not call the planner. */
typedef double (*goap_state_cost_fn)(void *host, int action, const goap_word *state,
                                     void *user);

/* goap_builder_set_state_cost flags. PURE: the callback reads only `state` and `user`, never
 * `host` (the .goap file's `cost distance(...)` is one): it is part of the domain, so the
 * planner calls it even with GOAP_REQUEST_NO_CALLBACKS, and goap_plan_validate adds it (with
 * host NULL). Without PURE it is a host callback like dynamic_cost: not called under
 * NO_CALLBACKS (the action then costs its request cost + min_cost). */
#define GOAP_STATE_COST_PURE 0x1u

typedef struct goap_action_desc {
  const char *name;            /* required, unique among actions */
  double cost;                 /* >= 0 and finite; 0 is a legal cost */
  const goap_cond *pre;        /* conjunction; may be NULL when pre_count == 0 */
  int pre_count;
  const goap_effect *eff;      /* at most one effect per variable */
  int eff_count;
  goap_check_fn check;         /* optional */
  goap_cost_fn dynamic_cost;   /* optional; replaces `cost` for a request */
  void *user;                  /* passed to the callbacks */
} goap_action_desc;

typedef struct goap_goal_desc {
  const char *name;            /* required, unique among goals */
  double priority;             /* larger is more important */
  const goap_cond *want;       /* conjunction of desired conditions */
  int want_count;
} goap_goal_desc;

/* ------------------------------------------------------------------------------------------
 * Building a domain
 * ---------------------------------------------------------------------------------------- */
typedef struct goap_builder goap_builder;
typedef struct goap_domain goap_domain;

/* Creates a builder into *out. alloc may be NULL (the C library). GOAP_OK;
 * GOAP_OUT_OF_MEMORY (*out NULL); GOAP_INVALID_ARGUMENT when out is NULL. */
GOAP_API goap_status goap_builder_create(const goap_allocator *alloc, goap_builder **out);
GOAP_API void goap_builder_destroy(goap_builder *b);

/* Sets the domain's name (default "domain"). */
GOAP_API goap_status goap_builder_set_name(goap_builder *b, const char *name);

/* Each add_* call validates its description completely. On success it writes the new id
 * (0, 1, 2, ... per kind, in call order) to *out_id (which may be NULL). On failure nothing is
 * added, and goap_builder_error() / goap_builder_error_item() say what and where. Variables
 * must be added before the actions and goals that use them. */
GOAP_API goap_status goap_builder_add_var(goap_builder *b, const goap_var_desc *desc,
                                          int *out_id);
GOAP_API goap_status goap_builder_add_action(goap_builder *b, const goap_action_desc *desc,
                                             int *out_id);
GOAP_API goap_status goap_builder_add_goal(goap_builder *b, const goap_goal_desc *desc,
                                           int *out_id);

/* Positional costs: gives action `action` (an id add_action returned) the state cost fn,
 * called as fn(host, action, state, user). Applying the action in state s then costs
 * c + max(min_cost, fn(s)), c its request cost (cost, goap_request.costs[a] or dynamic_cost,
 * as without it). The heuristics and the goal cache see c + min_cost, a lower bound, so the
 * admissible heuristics stay admissible and ASTAR optimal. Forward searches (ASTAR, WASTAR,
 * GREEDY, with LAZY or PREFERRED) price every step from the state it is applied in.
 * GOAP_SEARCH_BACKWARD cannot (a regression node is a partial state): a request with it
 * returns GOAP_INVALID_ARGUMENT while the domain has a state cost the request would call, as
 * does a request with a goap_request.symmetry (canonical states are not the real ones). A
 * state cost may read any variable, so such requests keep every usable action (as with
 * GOAP_REQUEST_NO_PRUNING). min_cost >= 0 and finite; flags: GOAP_STATE_COST_*; fn NULL
 * removes it (min_cost and flags must then be 0). Errors (GOAP_INVALID_ARGUMENT for a bad id
 * or flags, GOAP_OUT_OF_RANGE for min_cost) leave the action unchanged and set
 * goap_builder_error(). docs/api.md, "Positional costs". */
GOAP_API goap_status goap_builder_set_state_cost(goap_builder *b, int action,
                                                 goap_state_cost_fn fn, void *user,
                                                 double min_cost, unsigned flags);

/* Name lookups while building: the id, or -1. */
GOAP_API int goap_builder_find_var(const goap_builder *b, const char *name);
GOAP_API int goap_builder_find_action(const goap_builder *b, const char *name);
GOAP_API int goap_builder_find_goal(const goap_builder *b, const char *name);

/* The builder's last error (a goap_error, "Errors" above): status and message of the last
 * call, status GOAP_OK and message "" when it succeeded (no file or position). Never NULL for
 * a non-NULL builder (NULL for NULL); owned by the builder and valid until the next call on
 * it. */
GOAP_API const goap_error *goap_builder_error(const goap_builder *b);

/* Which element of the last failed description was at fault:
 *   GOAP_ITEM_NONE (the description as a whole: name, cost, type...), or
 *   GOAP_ITEM_PRE / GOAP_ITEM_EFF / GOAP_ITEM_WANT / GOAP_ITEM_VALUE (an enum value name) /
 *   GOAP_ITEM_DEFAULT, with *index the element's position in its array. */
typedef enum goap_item_kind {
  GOAP_ITEM_NONE = 0, GOAP_ITEM_NAME, GOAP_ITEM_PRE, GOAP_ITEM_EFF, GOAP_ITEM_WANT,
  GOAP_ITEM_VALUE, GOAP_ITEM_DEFAULT, GOAP_ITEM_RANGE, GOAP_ITEM_COST
} goap_item_kind;
GOAP_API goap_item_kind goap_builder_error_item(const goap_builder *b, int *index);

/* Compiles the domain: packs variables into words and compiles masks. The builder stays
 * valid (and may be destroyed right after). The domain uses the builder's allocator. */
GOAP_API goap_status goap_builder_build(goap_builder *b, goap_domain **out);

GOAP_API void goap_domain_destroy(goap_domain *d);

/* ------------------------------------------------------------------------------------------
 * Domain queries (all thread-safe; invalid ids give -1 / NULL / 0)
 * ---------------------------------------------------------------------------------------- */
typedef struct goap_var_info {
  const char *name;
  goap_var_type type;
  int32_t lo, hi;              /* bool: 0..1, enum: 0..value_count-1, int: its range */
  int value_count;             /* enum: number of values; bool: 2; int: 0 */
  int32_t default_value;
  unsigned flags;
  int word, shift, bits;       /* where the field lives in a state (informative) */
} goap_var_info;

GOAP_API const char *goap_domain_name(const goap_domain *d);
GOAP_API size_t goap_domain_state_words(const goap_domain *d);

GOAP_API int goap_domain_var_count(const goap_domain *d);
GOAP_API int goap_domain_find_var(const goap_domain *d, const char *name);
GOAP_API goap_status goap_domain_var_info(const goap_domain *d, int var, goap_var_info *out);
/* Name of an enum value (index), "false"/"true" for bools; NULL for ints or bad indices. */
GOAP_API const char *goap_domain_value_name(const goap_domain *d, int var, int32_t value);
/* Index of a named enum value ("true"/"false" for bools), or -1. */
GOAP_API int32_t goap_domain_find_value(const goap_domain *d, int var, const char *name);

GOAP_API int goap_domain_action_count(const goap_domain *d);
GOAP_API int goap_domain_find_action(const goap_domain *d, const char *name);
GOAP_API const char *goap_domain_action_name(const goap_domain *d, int action);
GOAP_API double goap_domain_action_cost(const goap_domain *d, int action);
GOAP_API const goap_cond *goap_domain_action_pre(const goap_domain *d, int action, int *count);
GOAP_API const goap_effect *goap_domain_action_eff(const goap_domain *d, int action,
                                                   int *count);
/* The action's host callbacks (goap_action_desc.check, .dynamic_cost, .user; NULL when it has
 * none): 1 when it has a check or a dynamic cost, 0 otherwise or for a bad id. Any pointer may
 * be NULL. */
GOAP_API int goap_domain_action_callbacks(const goap_domain *d, int action, goap_check_fn *check,
                                          goap_cost_fn *dynamic_cost, void **user);
/* The action's positional cost (goap_builder_set_state_cost): 1 when it has one, 0 otherwise
 * or for a bad id (outputs then NULL / 0). Any pointer may be NULL. */
GOAP_API int goap_domain_action_state_cost(const goap_domain *d, int action,
                                           goap_state_cost_fn *fn, void **user,
                                           double *min_cost, unsigned *flags);

GOAP_API int goap_domain_goal_count(const goap_domain *d);
GOAP_API int goap_domain_find_goal(const goap_domain *d, const char *name);
GOAP_API const char *goap_domain_goal_name(const goap_domain *d, int goal);
GOAP_API double goap_domain_goal_priority(const goap_domain *d, int goal);
GOAP_API const goap_cond *goap_domain_goal_want(const goap_domain *d, int goal, int *count);

/* ------------------------------------------------------------------------------------------
 * States (caller-owned arrays of goap_domain_state_words() words)
 * ---------------------------------------------------------------------------------------- */

/* Writes the domain's default state. */
GOAP_API void goap_state_init(const goap_domain *d, goap_word *state);
/* A variable's value, or INT32_MIN for a bad id. */
GOAP_API int32_t goap_state_get(const goap_domain *d, const goap_word *state, int var);
/* GOAP_OUT_OF_RANGE if the value is not in the variable's range (state unchanged). */
GOAP_API goap_status goap_state_set(const goap_domain *d, goap_word *state, int var,
                                    int32_t value);
/* Applies SET and ADD effects as a designer's "given" line would: GOAP_OUT_OF_RANGE if a
 * result leaves a range (the state is then unchanged); ADD_CLAMP results are saturated. */
GOAP_API goap_status goap_state_assign(const goap_domain *d, goap_word *state,
                                       const goap_effect *eff, int count);
/* 1 if every condition holds (an empty list holds), 0 otherwise (also for bad ids). */
GOAP_API int goap_state_satisfies(const goap_domain *d, const goap_word *state,
                                  const goap_cond *conds, int count);
/* Equality and hash of whole states, O(words). States made with goap_state_init / _set /
 * _assign keep the bits outside every field zero, which these rely on; the planner itself
 * ignores such bits in a request's start state. */
GOAP_API int goap_state_equal(const goap_domain *d, const goap_word *a, const goap_word *b);
GOAP_API uint64_t goap_state_hash(const goap_domain *d, const goap_word *state);
/* 1 if the action's symbolic preconditions hold and its ADD effects stay in range. */
GOAP_API int goap_action_applicable(const goap_domain *d, const goap_word *state, int action);
/* Applies the action's effects in place; GOAP_INVALID_OPERATION if it is not applicable
 * (state unchanged). */
GOAP_API goap_status goap_action_apply(const goap_domain *d, goap_word *state, int action);

/* ------------------------------------------------------------------------------------------
 * Planning
 * ---------------------------------------------------------------------------------------- */
typedef struct goap_planner goap_planner;

typedef struct goap_planner_desc {
  goap_allocator allocator;    /* zero: the C library */
  uint32_t initial_nodes;      /* nodes to reserve at creation; 0: 1024 */
  uint32_t max_nodes;          /* hard capacity of the node pool; 0: 4,194,304, or with
                                  max_memory set, as many as fit in it (up to 2^31 - 1) */
  size_t max_memory;           /* bytes the planner may hold; 0: no limit beyond max_nodes */
  uint32_t goal_cache;         /* goals whose compiled form and action selection the planner
                                  keeps, keyed by content (see docs/api.md, "Goal cache"); 0:
                                  up to 16, fewer when the domain is large (about 64 KiB in
                                  all); 1 keeps the last goal only; at most 256 */
} goap_planner_desc;

/* Creates a planner for one domain into *out. desc may be NULL (all defaults). GOAP_OK;
 * GOAP_OUT_OF_MEMORY; GOAP_INVALID_ARGUMENT when d or out is NULL (*out is NULL on any
 * failure). The planner allocates its pools here and grows them (rarely, doubling) only when a
 * request needs more nodes than any request before. */
GOAP_API goap_status goap_planner_create(const goap_domain *d, const goap_planner_desc *desc,
                                         goap_planner **out);
GOAP_API void goap_planner_destroy(goap_planner *p);

typedef enum goap_search {
  GOAP_SEARCH_ASTAR = 0,       /* forward A* (default) */
  GOAP_SEARCH_BACKWARD,        /* regressive A* over partial states */
  GOAP_SEARCH_WASTAR,          /* forward weighted A*: f = g + w*h */
  GOAP_SEARCH_GREEDY           /* forward greedy best-first: f = h */
} goap_search;

typedef enum goap_heuristic {
  GOAP_H_DEFAULT = 0,          /* admissible; chosen for speed (see docs/api.md) */
  GOAP_H_ZERO,                 /* h = 0: Dijkstra */
  GOAP_H_GOAL_COUNT,           /* unmet goal conditions (may overestimate) */
  GOAP_H_GOAL_COUNT_ADMISSIBLE,/* unmet / most goal conditions one action achieves * cheapest
                                  action cost: never overestimates */
  GOAP_H_MAX,                  /* hmax over the delete/interval relaxation: admissible */
  GOAP_H_ADD,                  /* hadd: informative, may overestimate */
  GOAP_H_FF,                   /* "hff": cost of a relaxed plan extracted from the hadd
                                  exploration; for greedy / weighted search, may overestimate.
                                  Backward search uses hadd instead */
  GOAP_H_LMCUT                 /* "lmcut": LM-cut over the same relaxation (ints through a
                                  sound interval compilation): admissible, dominates hmax.
                                  Backward search uses hmax instead (still admissible) */
} goap_heuristic;

/* Request flags. */
#define GOAP_REQUEST_NO_PRUNING 0x1u /* keep actions that cannot contribute to the goal */
/* PREFERRED (GREEDY and WASTAR only, heuristic GOAP_H_FF only; else GOAP_INVALID_ARGUMENT):
 *   preferred operators. The successors a node reaches by actions of its relaxed plan go into
 *   a second open list as well; the search alternates between the two lists and, each time it
 *   evaluates a state with a lower h than any before, takes the next 1000 nodes from the
 *   preferred list (when it has any). Without LAZY, an expanded node's relaxed plan is
 *   computed again at its expansion. Plans are valid but not optimal.
 * LAZY (forward searches; GOAP_INVALID_ARGUMENT with BACKWARD): deferred evaluation, so that
 *   states that are never taken out of the open list cost no heuristic call.
 *   - GREEDY / WASTAR: a successor enters the open list with its parent's h and is evaluated
 *     only when taken out (a dead end found then is dropped). Trace NEW events then carry the
 *     parent's h, and partial plans rank unevaluated nodes by it.
 *   - ASTAR: still optimal with an admissible heuristic. A successor by an action of cost c
 *     enters with the key g + max(0, h(parent) - c) (with LMCUT, h(parent) minus the action's
 *     share of the parent's cuts when larger; docs/api.md), a lower bound on the cost of any
 *     plan through it (a state reached again more cheaply keeps the largest such bound). Taken out
 *     unevaluated, a goal state ends the search (its key is its g); another is evaluated
 *     (h = the larger of the heuristic and its bound) and, if that raises its key, queued
 *     again with key g + h instead of being expanded: it counts as neither expanded nor in
 *     the trace (which has no event for it). The root is evaluated at once. Trace NEW events
 *     carry the bound as h; EXPAND events carry the evaluated h; partial plans rank only
 *     evaluated nodes. Plans may differ from the eager search's among equal-cost ones.
 *     With LMCUT an evaluation may stop once its (admissible) running bound puts the key
 *     above the open list's next one: the state stays unevaluated with that bound, and
 *     stats.evaluated counts the stopped evaluation too (docs/api.md).
 * Both keep the search deterministic. Neither set: the plain searches. */
#define GOAP_REQUEST_PREFERRED 0x2u
#define GOAP_REQUEST_LAZY 0x4u
/* NO_CALLBACKS: the domain's check and dynamic_cost callbacks are not called for this request;
 * goap_request.costs (required then) are final: the host evaluated them itself (the agent
 * runtime does so when it records or replays its inputs, goap/replay.h). State costs are not
 * called either unless GOAP_STATE_COST_PURE (such an action then costs costs[a] + min_cost). */
#define GOAP_REQUEST_NO_CALLBACKS 0x8u
/* Clock reads. By default a request reads the clock only when it has a time budget
 * (max_ms > 0): then it enforces the budget and stats.time_us is its wall time. A request
 * without a budget reads no clock and stats.time_us is 0 (not measured): for many small
 * requests reading the clock costs about a quarter of the request (twice per request; in a
 * browser each read is a call to performance.now(), 0.3 to 0.7 us in Chromium; bench/README.md).
 * TIMED: measure stats.time_us even without a budget (the clock is read twice per
 *   goap_plan, twice per goap_plan_begin and per goap_plan_step call).
 * UNTIMED: read no clock (the default without a budget, kept for older callers): max_ms must
 *   be 0. TIMED with UNTIMED, or UNTIMED with max_ms > 0, is GOAP_INVALID_ARGUMENT. */
#define GOAP_REQUEST_UNTIMED 0x10u
#define GOAP_REQUEST_TIMED 0x40u
/* STUBBORN (forward searches; BACKWARD ignores it): partial-order pruning with strong stubborn
 * sets. An expanded state generates only the applicable actions of one stubborn set: built
 * from the unmet goal condition with the fewest achievers, closed under interference for its
 * applicable members and under necessary enabling sets (the achievers of one unmet
 * condition) for the others. Every plan from the state has a permutation of the same cost
 * that starts with one of those actions, so optimal configurations stay optimal (with a
 * symmetry too); independent actions are then not tried in every order. Only requests whose
 * active actions set bool/enum variables and whose conditions (actions and goal) are on
 * bool/enum variables are pruned; others, and requests with positional costs, search as
 * without the flag. Costs some work per expansion, so a search whose first 100 expansions
 * prune under 20% of the applicable actions (or none in the first 25) goes on without it
 * (docs/api.md, "Stubborn sets"). Deterministic; the planner's arrays for it grow through its
 * allocator (counted against max_memory). */
#define GOAP_REQUEST_STUBBORN 0x20u
/* A request with any other flag bit is GOAP_INVALID_ARGUMENT. */

/* Symmetries for orbit search (docs/api.md, "Symmetries"). A class of interchangeable
 * members: `members` equal blocks ("slots") of variables and of actions, member after member:
 * member i owns vars[i*slot_vars .. (i+1)*slot_vars) and actions[i*slot_actions ..
 * (i+1)*slot_actions). The contract, which goap_symmetry_check() verifies: for every
 * permutation s of the members, renaming every slot entry (i, j) to (s(i), j), for variables
 * and actions at once, and leaving all other variables and actions alone, maps the domain onto
 * itself (each action's conditions, effects and cost onto its image's; position j of every
 * variable slot has one type and range) and the request's goal onto itself. Example: the balls
 * of gripper, each owning its `at`/`carry` variables and its `pick`/`drop` actions. Value
 * types: the caller owns the arrays, which must stay valid until the request ends. */
typedef struct goap_symmetry_class {
  int members;                 /* >= 2 */
  int slot_vars;               /* >= 1 */
  int slot_actions;            /* >= 0 */
  const int32_t *vars;         /* members * slot_vars variable ids */
  const int32_t *actions;      /* members * slot_actions action ids (NULL when slot_actions 0) */
} goap_symmetry_class;

/* A generator: one permutation of variables and of actions, given as the pairs it moves
 * (from, to), which must form a permutation (each moved id once as a source and once as an
 * image; ids not listed stay). The contract: renaming the variables and the actions by it maps
 * every action's conditions, effects and cost onto its image's (each pair's variables of one
 * type and range) and the goal onto itself. Generators need not respect any slot form (an
 * action may mention both of two swapped members, like a two-handed action of both hands);
 * they may overlap the classes and each other. The search's canonical state: the classes'
 * sort, then a greedy descent over the generators (a generator is applied while it makes the
 * state smaller in variable order), so two states of one orbit may keep two canonical forms
 * (fewer states pruned, never a wrong cost). */
typedef struct goap_symmetry_generator {
  int var_count;               /* >= 1: the moved variables */
  const int32_t *vars;         /* var_count pairs (from, to): 2 * var_count ids */
  int action_count;            /* >= 0: the moved actions */
  const int32_t *actions;      /* action_count pairs (from, to); NULL when action_count 0 */
} goap_symmetry_generator;

typedef struct goap_symmetry {
  int class_count;
  const goap_symmetry_class *classes; /* disjoint: a variable or an action is in at most one
                                         slot of one class */
  int generator_count;         /* >= 0; 0 (the default of a zeroed struct): none */
  const goap_symmetry_generator *generators;
} goap_symmetry;

/* Checks that sym satisfies the contract above for domain d and the goal want[0..want_count)
 * (ids in range, disjoint slots, equal types and ranges per position, and the two permutations
 * that generate each class's group -- swapping members 0 and 1, and the cycle 0 -> 1 -> ... ->
 * members-1 -> 0 -- map every action onto an action with the image conditions, effects and
 * cost, and the goal onto itself; and each generator's pairs, checked the same way).
 * Returns GOAP_OK, or GOAP_INVALID_ARGUMENT when any part fails (also for a NULL d or sym).
 * An action with a dynamic-cost callback fails the check unless no slot or generator moves
 * it. Reads only; thread-safe on a shared domain. */
GOAP_API goap_status goap_symmetry_check(const goap_domain *d, const goap_symmetry *sym,
                                         const goap_cond *want, int want_count);

typedef struct goap_request {
  const goap_word *start;      /* NULL: the domain's default state */
  const goap_cond *want;       /* conjunction to reach; an empty one is met by any state */
  int want_count;
  goap_search search;
  goap_heuristic heuristic;
  double weight;               /* WASTAR only; 0: 2.0; must be >= 1 */
  uint32_t max_nodes;          /* node budget; 0: the planner's capacity */
  double max_ms;               /* time budget in milliseconds; 0: none */
  void *host;                  /* passed to action callbacks */
  unsigned flags;              /* GOAP_REQUEST_* */
  const double *costs;         /* NULL: each action's domain cost. Otherwise one entry per action
                                  of the domain: costs[a] replaces action a's static cost for
                                  this request (an action with a dynamic_cost callback still
                                  uses the callback), and a negative or NaN entry disables the
                                  action. Agent types use it for their action sets and roles.
                                  Copied by begin; may change between requests. */
  const goap_symmetry *symmetry; /* NULL: none. Forward searches (ASTAR, WASTAR, GREEDY) then
                                  store one canonical state per orbit (orbit search: far fewer
                                  nodes when members are interchangeable) and map the plan
                                  found back onto the real start state, so the result is a
                                  plan from req->start like any other, of the same cost; the
                                  trace reports canonical states. BACKWARD ignores it. Must
                                  satisfy the contracts of goap_symmetry_class and
                                  goap_symmetry_generator (begin checks only their shape:
                                  ids, disjointness, permutations, types; an invalid one is
                                  GOAP_INVALID_ARGUMENT). Read by begin and by the search:
                                  it must stay valid until the request ends. */
} goap_request;

/* Optimality: ASTAR and BACKWARD with an admissible heuristic (DEFAULT, ZERO,
 * GOAL_COUNT_ADMISSIBLE, MAX, LMCUT) return a plan of least cost. */
GOAP_API int goap_config_is_optimal(goap_search search, goap_heuristic heuristic);

typedef struct goap_stats {
  uint64_t expanded;           /* nodes taken from the open list and expanded */
  uint64_t generated;          /* successors generated (new or not) */
  uint64_t duplicates;         /* successors whose state was already known */
  uint64_t reopened;           /* closed nodes reached again more cheaply */
  uint32_t nodes;              /* distinct states stored */
  int32_t actions_considered;  /* actions left after callbacks and relevance pruning */
  double time_us;              /* wall time of the request when measured (a time budget, or
                                  GOAP_REQUEST_TIMED); 0 when not measured */
  uint64_t evaluated;          /* heuristic evaluations (h = 0 ones too; with PREFERRED and
                                  without LAZY, an expansion evaluates its state again) */
} goap_stats;

typedef struct goap_result {
  goap_status status;          /* as returned */
  double cost;                 /* cost of the plan (of the partial plan when partial) */
  int32_t *plan;               /* in: caller's buffer of plan_capacity action ids (may be NULL
                                  when plan_capacity is 0) */
  int plan_capacity;           /* in */
  int plan_length;             /* out: number of actions. When it exceeds plan_capacity the
                                  plan was not written (status GOAP_BUFFER_TOO_SMALL for a
                                  found plan; a partial plan keeps its limit status): call
                                  goap_plan_finish again with a buffer that large */
  int partial;                 /* out: 1 when plan holds the best partial plan of a search that
                                  ran out of nodes, time or memory (the deepest of the nodes
                                  with the lowest h): for forward search a plan start, for
                                  backward search a plan ending (it ends in the goal) */
  goap_stats stats;            /* out */
} goap_result;

/* Plans in one call: begin + step until done + finish. goap_plan_finish may be called again
 * afterwards (e.g. with a larger buffer) until the next begin. Returns result->status:
 * GOAP_OK, GOAP_NO_PLAN, GOAP_NODE_LIMIT, GOAP_TIME_LIMIT, GOAP_MEMORY_LIMIT,
 * GOAP_BUFFER_TOO_SMALL (the search succeeded; plan_length says the size needed),
 * GOAP_INVALID_ARGUMENT (bad ids or options in the request), GOAP_OUT_OF_MEMORY.
 * After warm-up (a first request at least as large), performs no heap allocation. */
GOAP_API goap_status goap_plan(goap_planner *p, const goap_request *req, goap_result *result);

/* Sliced planning, for spreading a search over frames. begin copies what it needs from req
 * (req may be freed after it returns) and returns GOAP_IN_PROGRESS when a search has started,
 * or at once the final status when none is needed (GOAP_NO_PLAN for a goal that contradicts
 * itself, GOAP_INVALID_ARGUMENT, ...); finish then reports it. step expands at most max_expansions nodes (0: no limit)
 * and returns GOAP_IN_PROGRESS while work remains, else the final status; *done (may be NULL)
 * receives the number expanded by this call. finish writes the result of the finished search
 * (or GOAP_INVALID_OPERATION if none) and may be called any number of times until the next
 * begin. A sliced search gives exactly the plan of goap_plan. max_nodes limits the states
 * stored, not the expansions. */
GOAP_API goap_status goap_plan_begin(goap_planner *p, const goap_request *req);
GOAP_API goap_status goap_plan_step(goap_planner *p, uint32_t max_expansions, uint32_t *done);
GOAP_API goap_status goap_plan_finish(goap_planner *p, goap_result *result);

/* The statistics of the search begun on p so far (between goap_plan_begin and the next begin,
 * finished or not): the counters of goap_stats as they stand after the last goap_plan_step,
 * time_us the time measured so far (0 when not measured). For a caller that runs several
 * sliced searches and compares their work (the CLI's portfolio, tools/goap/portfolio.h).
 * Returns GOAP_OK, GOAP_INVALID_OPERATION before any begin, GOAP_INVALID_ARGUMENT when p or
 * stats is NULL; *stats (the caller's) is written only on GOAP_OK. Reads only; not
 * thread-safe with a step running on p. */
GOAP_API goap_status goap_plan_progress(const goap_planner *p, goap_stats *stats);

/* Checks a plan by replaying it from start (NULL: the default state): every action
 * applicable in turn and the final state satisfying want. Returns GOAP_OK or
 * GOAP_INVALID_OPERATION and, if bad_step is not NULL, the index of the first failing step
 * (plan_length when only the goal fails). *cost (may be NULL) receives the plan's static cost:
 * each action's `cost`, plus, for one with a positional cost, its GOAP_STATE_COST_PURE
 * callback's answer in the state the step starts from (host NULL; an answer that makes it
 * inapplicable fails the step) or else its min_cost. */
GOAP_API goap_status goap_plan_validate(const goap_domain *d, const goap_word *start,
                                        const goap_cond *want, int want_count,
                                        const int32_t *plan, int plan_length, double *cost,
                                        int *bad_step);

/* Names of search and heuristic options as used by the CLI ("astar", "backward", "wastar",
 * "greedy"; "default", "zero", "goal-count", "goal-count-adm", "hmax", "hadd", "hff",
 * "lmcut"). */
GOAP_API const char *goap_search_name(goap_search s);
GOAP_API const char *goap_heuristic_name(goap_heuristic h);
/* Parses a heuristic name; -1 if unknown. */
GOAP_API int goap_heuristic_from_name(const char *name);


/* ------------------------------------------------------------------------------------------
 * Search traces (docs/trace.md)
 * ---------------------------------------------------------------------------------------- */

/* What a trace event reports. Node ids are the planner's: 0, 1, 2, ... in the order nodes
 * are stored, per request. */
typedef enum goap_trace_kind {
  GOAP_TRACE_NEW = 0,    /* a generated state was stored as node `node` (parent UINT32_MAX: a root);
                            h = INFINITY marks a dead end, stored closed and never expanded */
  GOAP_TRACE_DUPLICATE,  /* a generated state was already node `node` at a g no larger: dropped */
  GOAP_TRACE_BETTER,     /* a generated state was node `node`, reached now more cheaply: the
                            node takes this parent, action and g and is (re)opened */
  GOAP_TRACE_LIMIT,      /* a generated state was dropped: the node budget is spent (the
                            search then stops with GOAP_NODE_LIMIT); node is UINT32_MAX */
  GOAP_TRACE_EXPAND,     /* node `node` was taken from the open list and is being expanded:
                            the events of its successors follow */
  GOAP_TRACE_GOAL        /* node `node` was taken from the open list and satisfies the goal
                            (backward: the start state satisfies it); the search ends */
} goap_trace_kind;

typedef struct goap_trace_event {
  goap_trace_kind kind;
  uint32_t node;           /* see goap_trace_kind */
  uint32_t parent;         /* the parent of the generated state, UINT32_MAX for a root */
  int32_t action;          /* the action leading from parent to it, -1 for a root */
  double g, h, f;          /* of the generated or expanded state (h as stored: a float) */
  const goap_word *state;  /* the state: W words (goap_domain_state_words) forward; 2W words
                              backward (interval lows, then highs). Valid only during the
                              callback. NULL for GOAP_TRACE_LIMIT */
} goap_trace_event;

/* Called for every event of a search, in order, on the thread that plans. It must not call
 * the planner it is tracing. */
typedef void (*goap_trace_fn)(void *user, const goap_trace_event *ev);

/* Installs (fn non-NULL) or removes (fn NULL) a trace callback on planner p; it applies to the
 * requests begun after the call and stays until changed. Tracing does not change the plan or
 * the statistics: expanded counts EXPAND events, generated all NEW, DUPLICATE, BETTER and LIMIT
 * events (roots included), duplicates DUPLICATE and BETTER events, nodes NEW events. Without
 * a callback the planner pays at most one test per generated node and per expansion (none in
 * its one-word fast path, which a traced search replaces by an equivalent one). Not
 * thread-safe with a search running on p. p NULL: nothing. */
GOAP_API void goap_planner_set_trace(goap_planner *p, goap_trace_fn fn, void *user);

#ifdef __cplusplus
}
#endif

#endif /* GOAP_GOAP_H */
