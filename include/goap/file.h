/*
 * goap/file.h -- the `.goap` domain file format: loading, scenarios, diagnostics.
 *
 * A layer above the core (goap.h): the core never depends on it. It never prints; errors and
 * warnings are returned as goap_error values that the caller formats.
 *
 * Ownership and threads: a goap_file owns its domain and scenarios; pointers returned by the
 * accessors live as long as the file. Loading is reentrant (no global state); a loaded file is
 * immutable and may be read from many threads.
 */
#ifndef GOAP_FILE_H
#define GOAP_FILE_H

#include "agent.h"
#include "goap.h"
#include "htn.h"

#ifdef __cplusplus
extern "C" {
#endif

/* goap_error and goap_error_format: goap/goap.h. */

/* Expectations of a scenario. */
#define GOAP_EXPECT_COST 0x1u
#define GOAP_EXPECT_PLAN 0x2u
#define GOAP_EXPECT_NO_PLAN 0x4u

typedef struct goap_scenario {
  const char *name;
  int line;                    /* where its block starts */
  int goal;                    /* goal id for `pursue`, or -1 for `want` */
  const goap_cond *want;       /* the conditions to reach (the goal's, for `pursue`) */
  int want_count;
  const goap_effect *given;    /* start-state overrides, applied to the default state */
  int given_count;
  unsigned expect;             /* GOAP_EXPECT_* bits */
  double expect_cost;
  const int32_t *expect_plan;  /* action ids */
  int expect_plan_length;
  int task;                    /* HTN: the root task's id in goap_file_htn() for `task`, else
                                  -1 (then goal / want say what to reach; for a task they are
                                  -1 / NULL) */
} goap_scenario;

typedef struct goap_file goap_file;

/* Limits enforced by the loader (errors name them when exceeded). */
#define GOAP_FILE_MAX_BYTES (64u * 1024u * 1024u)
#define GOAP_FILE_MAX_LINE 4096

/* Parses a `.goap` text. `name` is used in diagnostics (e.g. the path). alloc may be NULL.
 * On failure *out is NULL and *err (if not NULL) holds the first error. text need not be
 * NUL-terminated. */
GOAP_API goap_status goap_file_parse(const char *name, const char *text, size_t length,
                                     const goap_allocator *alloc, goap_file **out,
                                     goap_error *err);
/* Reads and parses a file. GOAP_IO_ERROR when it cannot be read. */
GOAP_API goap_status goap_file_load(const char *path, const goap_allocator *alloc,
                                    goap_file **out, goap_error *err);
GOAP_API void goap_file_destroy(goap_file *f);

GOAP_API const goap_domain *goap_file_domain(const goap_file *f);
GOAP_API int goap_file_scenario_count(const goap_file *f);
GOAP_API const goap_scenario *goap_file_scenario(const goap_file *f, int index);
GOAP_API int goap_file_find_scenario(const goap_file *f, const char *name);

/* Source positions of definitions (line of the `var`, `action`, `goal` line; col of the name);
 * 0 when unknown. */
GOAP_API int goap_file_var_line(const goap_file *f, int var, int *col);
GOAP_API int goap_file_action_line(const goap_file *f, int action, int *col);
GOAP_API int goap_file_goal_line(const goap_file *f, int goal, int *col);

/* The file's HTN tasks and methods (`task` blocks) as an HTN domain over goap_file_domain(),
 * or NULL when the file has none. Lives as long as the file. */
GOAP_API const goap_htn_domain *goap_file_htn(const goap_file *f);
/* Source position of a task's `task` line (col: its name), 0 when unknown. */
GOAP_API int goap_file_task_line(const goap_file *f, int task, int *col);

/* Static analysis for `goap check`: writes up to cap warnings (severity WARNING) into out and
 * returns how many there are in all (which may exceed cap). Reports: an action whose
 * preconditions cannot be reached from the default state even ignoring delete effects (or
 * whose strict += / -= leaves the range from every reachable value), a variable nothing reads
 * or writes, a goal no action sequence can reach under the same relaxation, and a left-
 * recursive HTN method. `shared`, `sensed` and `world` variables may take any value. */
GOAP_API int goap_file_warnings(const goap_file *f, goap_error *out, int cap);

/* Writes a condition or an effect as a designer writes it in a `.goap` file (`x`, `!x`,
 * `stance == prone`, `ammo >= 1`; `x`, `!x`, `stance = prone`, `ammo -= 1`,
 * `hunger -= 5 clamp`), with snprintf semantics: at most cap bytes, NUL-terminated when
 * cap > 0, returns the length needed. Ids
 * the domain does not know print as `?`. Thread-safe. */
GOAP_API size_t goap_format_cond(const goap_domain *d, const goap_cond *c, char *buf,
                                 size_t cap);
GOAP_API size_t goap_format_effect(const goap_domain *d, const goap_effect *e, char *buf,
                                   size_t cap);

/* Parses a comma-separated condition list (`a, !b, ammo >= 2, stance == prone`) against a
 * domain, as on a `want` line. Writes up to cap conditions and sets *count to the number
 * parsed (GOAP_BUFFER_TOO_SMALL if cap is too small). Errors go to *err with file "<name>",
 * line 1 and the column in text. */
GOAP_API goap_status goap_parse_conds(const goap_domain *d, const char *name, const char *text,
                                      goap_cond *out, int cap, int *count,
                                      goap_error *err);
/* Parses a comma-separated assignment list (`a, !b, ammo = 3`), as on a `given` line. */
GOAP_API goap_status goap_parse_assignments(const goap_domain *d, const char *name,
                                            const char *text, goap_effect *out, int cap,
                                            int *count, goap_error *err);

/* ------------------------------------------------------------------------------------------
 * Runtime attributes: what the file says about running actions and pursuing goals
 * (agent.h). Lists point into the file and live as long as it does.
 * ---------------------------------------------------------------------------------------- */
typedef struct goap_file_action_info {
  const goap_effect *on_fail;  /* `on_fail`: written to memory when the action fails */
  int on_fail_count;
  const int32_t *watch;        /* `watch`: variables whose change interrupts it */
  int watch_count;
  double timeout;              /* `timeout` in seconds; 0: none */
  double duration;             /* `duration` in seconds, used by simulations; 0: instant */
  const goap_effect *on_start; /* `on_start`: written when it starts (not planned with) */
  int on_start_count;
  const goap_effect *on_end;   /* `on_end`: written when it ends in any way */
  int on_end_count;
  const char *const *reserve;  /* `reserve`: names of the resources it holds */
  int reserve_count;
} goap_file_action_info;

typedef struct goap_file_goal_info {
  const goap_cond *valid;      /* `valid`: when the goal may be pursued */
  int valid_count;
  const int32_t *watch;        /* `watch`: variables whose change interrupts it */
  int watch_count;
  double cooldown;             /* `cooldown T`: seconds it is not chosen again after its plan
                                  ended (goap_goal_binding.cooldown); 0: none */
} goap_file_goal_info;

/* GOAP_INVALID_ARGUMENT for NULL or a bad id. */
GOAP_API goap_status goap_file_action_info_get(const goap_file *f, int action,
                                               goap_file_action_info *out);
GOAP_API goap_status goap_file_goal_info_get(const goap_file *f, int goal,
                                             goap_file_goal_info *out);
/* 1 if the variable was declared with `world` (simulation truth agents cannot plan with). */
GOAP_API int goap_file_is_world_var(const goap_file *f, int var);
/* 1 if the variable was declared `sensed` (a percept the game's sensors write: the flag
 * GOAP_VAR_SENSED of goap_domain_var_info), 0 otherwise or for NULL / a bad id. Simulations copy
 * sensed variables from the world into memory every step; `goap check` and `goap why` treat
 * them as able to take any value. Thread-safe (the file is immutable). */
GOAP_API int goap_file_is_sensed_var(const goap_file *f, int var);

/* Positions (`position VAR VALUE X Y [Z]` lines, docs/format.md "Positions and distance
 * costs"): the point of value `value` of enum variable `var`, which `cost distance(VAR)` reads.
 * goap_file_set_position moves it (the host's world changed: a cache was moved, a door
 * opened): the next requests price distances from the new point. Only variables with at least
 * one `position` line have points. Returns GOAP_OK; GOAP_INVALID_ARGUMENT for a NULL file or a
 * bad variable id, GOAP_NOT_FOUND when the variable has no `position` line (goap_file_position:
 * also when that value has none yet), GOAP_OUT_OF_RANGE for a bad value or a non-finite
 * coordinate. goap_file_position's outputs may be NULL.
 * Threads: goap_file_set_position writes the file; no request may be planning on its domain
 * meanwhile (call it between updates). Plans cached before it (goap_plan_cache) were priced
 * with the old points: clear those caches (goap_plan_cache_clear). The replay log does not
 * record points: a replay must make the same calls. */
GOAP_API goap_status goap_file_set_position(goap_file *f, int var, int32_t value, double x,
                                            double y, double z);
GOAP_API goap_status goap_file_position(const goap_file *f, int var, int32_t value, double *x,
                                        double *y, double *z);

/* Fills one binding per action and per goal of the file's domain (action_count and
 * goal_count must equal the domain's counts) with the file's on_fail, on_start, on_end,
 * reserve, timeout, watch and valid lines; callbacks are left NULL for the host to set. The
 * bindings point into the file. Ready for goap_agent_type_desc.actions / .goals. */
GOAP_API goap_status goap_file_bindings(const goap_file *f, goap_action_binding *actions,
                                        int action_count, goap_goal_binding *goals,
                                        int goal_count);

/* The `switch_margin M` of agent type `type` (an `agent` block; type -1: the lone agent of
 * simulation `sim`'s block, else sim is ignored), as goap_agent_type_desc.switch_margin takes it:
 * M, -1 for `switch_margin 0` (no hysteresis), 0 when the block has none (the runtime's
 * default, 1.0) or for NULL / a bad index. Thread-safe. */
GOAP_API double goap_file_switch_margin(const goap_file *f, int type, int sim);

/* `resource NAME capacity N` lines: GOAP_INVALID_ARGUMENT for a bad index. */
GOAP_API int goap_file_resource_count(const goap_file *f);
GOAP_API goap_status goap_file_resource(const goap_file *f, int index, const char **name,
                                        int *capacity);
/* A blackboard (goap_blackboard_create with alloc, which may be NULL) holding the file's
 * `resource NAME capacity N` lines with their capacities: the blackboard to give the agents
 * made from the file's `reserve` lines (a resource nobody declares gets capacity 1 when an
 * agent first names it). *out is NULL on failure. GOAP_OK, GOAP_INVALID_ARGUMENT (f or out
 * NULL) or GOAP_OUT_OF_MEMORY. The blackboard is the caller's (goap_blackboard_destroy); it
 * does not refer to f. */
GOAP_API goap_status goap_file_blackboard_create(const goap_file *f, const goap_allocator *alloc,
                                                 goap_blackboard **out);
/* Applies the file's resource lines to an existing blackboard: adds the missing ones and sets
 * the capacity of those that exist (a blackboard shared by agents of several files). Returns
 * GOAP_OK, GOAP_INVALID_ARGUMENT (NULL), GOAP_OUT_OF_MEMORY, or GOAP_INVALID_OPERATION when a
 * capacity would go below the units held now (goap_blackboard_set_capacity; the resources
 * before it in the file are applied). */
GOAP_API goap_status goap_file_apply_resources(const goap_file *f, goap_blackboard *bb);

/* `agent NAME` blocks (agent types: their actions, goals and role) and `role NAME` blocks
 * (`cost ACTION * FACTOR`). */
GOAP_API int goap_file_agent_type_count(const goap_file *f);
GOAP_API const char *goap_file_agent_type_name(const goap_file *f, int type);
GOAP_API int goap_file_find_agent_type(const goap_file *f, const char *name);
/* Like goap_file_bindings for agent type `type` (-1: every action and goal): actions and
 * goals the type does not list are disabled, and its role's factors are the cost_scale. */
GOAP_API goap_status goap_file_agent_bindings(const goap_file *f, int type,
                                              goap_action_binding *actions, int action_count,
                                              goap_goal_binding *goals, int goal_count);

/* `htn TASK` in an agent block: returns the root task's id in goap_file_htn() (-1 for a GOAP
 * agent type or a bad index); *watch / *watch_count (may be NULL) receive the block's `watch`
 * variables (pointing into the file). Ready for goap_agent_type_desc.htn / htn_root /
 * htn_watch. */
GOAP_API int goap_file_agent_type_htn(const goap_file *f, int type, const int32_t **watch,
                                      int *watch_count);

/* ------------------------------------------------------------------------------------------
 * Simulations (`simulation` blocks): one agent with every action and goal of the file, or the
 * squad of its `member` lines, in a scripted world. See docs/format.md.
 * ---------------------------------------------------------------------------------------- */
GOAP_API int goap_file_simulation_count(const goap_file *f);
/* The index, or -1. */
GOAP_API int goap_file_find_simulation(const goap_file *f, const char *name);
/* NULL for a bad index. */
GOAP_API const char *goap_file_simulation_name(const goap_file *f, int sim);
/* Running them: goap_file_simulate (goap/sim.h, library goap_sim). */

#ifdef __cplusplus
}
#endif

#endif /* GOAP_FILE_H */
