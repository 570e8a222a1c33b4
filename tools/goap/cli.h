/*
 * cli.h -- shared declarations of the `goap` command-line tool.
 *
 * The tool is a thin client of libgoap (goap.h) and its file layer (goap/file.h). Every
 * subcommand is a function `int cli_cmd_X(int argc, char **argv)` that receives the arguments
 * after the subcommand name and returns the process exit status:
 *   CLI_EXIT_OK (0)      success (a plan was found, all tests passed, no errors)
 *   CLI_EXIT_FAIL (1)    no plan, a search limit, a failed test, errors found by `check`
 *   CLI_EXIT_USAGE (2)   bad command line, a file that cannot be loaded, an internal error
 * Diagnostics go to stderr, results to stdout.
 */
#ifndef GOAP_CLI_H
#define GOAP_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "goap/file.h"
#include "goap/sim.h"
#include "goap/goap.h"

#define CLI_EXIT_OK 0
#define CLI_EXIT_FAIL 1
#define CLI_EXIT_USAGE 2

/* Subcommands. */
int cli_cmd_plan(int argc, char **argv);
int cli_cmd_test(int argc, char **argv);
int cli_cmd_check(int argc, char **argv);
int cli_cmd_demo(int argc, char **argv);
int cli_cmd_simulate(int argc, char **argv);
int cli_cmd_pddl(int argc, char **argv);     /* cmd_pddl.c */
int cli_cmd_validate(int argc, char **argv); /* cmd_pddl.c */
int cli_cmd_hddl(int argc, char **argv);     /* cmd_hddl.c */
void cli_usage_hddl(FILE *out);              /* cmd_hddl.c */
int cli_cmd_verify_htn(int argc, char **argv); /* cmd_verify_htn.c */

/* Usage texts (for `goap help CMD` and `goap CMD --help`). */
void cli_usage_main(FILE *out);
void cli_usage_plan(FILE *out);
void cli_usage_test(FILE *out);
void cli_usage_check(FILE *out);
void cli_usage_demo(FILE *out);
void cli_usage_simulate(FILE *out);
void cli_usage_pddl(FILE *out);
void cli_usage_validate(FILE *out);
void cli_usage_verify_htn(FILE *out);

/* ---- command-line parsing -------------------------------------------------------------- */

/* Prints "goap CMD: <message>" and "Try 'goap CMD --help'." to stderr; returns CLI_EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Reports an unknown option `arg` of subcommand `cmd`, suggesting the nearest of `known`
 * (a NULL-terminated list) when it is close. Returns CLI_EXIT_USAGE. */
int cli_unknown_option(const char *cmd, const char *arg, const char *const *known);

/* The nearest of `known` (NULL-terminated) to `word` within a small edit distance, or NULL. */
const char *cli_suggest(const char *word, const char *const *known);

/* Matches argv[*i] against option `name` ("--max-nodes"), accepting "--name VALUE" and
 * "--name=VALUE". Returns 0 when it is another option, 1 when it matched (the value is stored
 * in *value and *i advanced past a separate value), -1 when the value is missing (an error
 * has been printed). */
int cli_opt_value(const char *cmd, int argc, char **argv, int *i, const char *name,
                  const char **value);

/* Search options shared by `plan` and `test`. */
typedef struct cli_search_opts {
  goap_search search;
  goap_heuristic heuristic;
  double weight;        /* WASTAR weight; 0: the library default */
  uint32_t max_nodes;   /* 0: none */
  double max_ms;        /* 0: none */
  unsigned flags;       /* GOAP_REQUEST_PREFERRED / GOAP_REQUEST_LAZY (--preferred, --lazy) */
} cli_search_opts;

void cli_search_opts_init(cli_search_opts *o);
/* Parse "astar", "backward", "greedy", "wastar" or "wastar:W" (W >= 1). 0 on success, else
 * prints a usage error and returns CLI_EXIT_USAGE. */
int cli_parse_search(const char *cmd, const char *text, cli_search_opts *o);
int cli_parse_heuristic(const char *cmd, const char *text, cli_search_opts *o);
int cli_parse_max_nodes(const char *cmd, const char *text, cli_search_opts *o);
int cli_parse_max_ms(const char *cmd, const char *text, cli_search_opts *o);
/* The four search options at argv[*i] (--search, --heuristic, --max-nodes, --max-ms, as
 * "--name VALUE" or "--name=VALUE"): 0 when argv[*i] is none of them; 1..4 (which one, in
 * that order) when it was parsed into o and *i advanced past its value; -1 on a missing or
 * bad value (a usage error has been printed). */
int cli_search_option(const char *cmd, int argc, char **argv, int *i, cli_search_opts *o);
/* --preferred and --lazy, which take no value, are options 5 and 6 of cli_search_option.
 * cli_check_search: after all options, rejects combinations the library refuses (usage error
 * printed, CLI_EXIT_USAGE); 0 when fine. */
int cli_check_search(const char *cmd, const cli_search_opts *o);
/* "astar, heuristic default" / "wastar:2.5, heuristic hadd" into buf. */
void cli_describe_search(const cli_search_opts *o, char *buf, size_t cap);

/* ---- loading and diagnostics ----------------------------------------------------------- */

/* Prints a diagnostic the way compilers do (goap_error_format) to `out`. */
void cli_print_diag(FILE *out, const goap_error *d);

/* Loads a file ("-": standard input, named "<stdin>" in diagnostics); on failure prints the
 * diagnostic to stderr and returns NULL. *status (may be NULL) receives the load status. */
goap_file *cli_load(const char *path, goap_status *status);

/* Names as a NULL-terminated array for suggestions (the caller frees the array; NULL when
 * out of memory): the file's scenarios, the domain's goals, the file's simulations. */
const char **cli_scenario_names(const goap_file *f);
const char **cli_goal_names(const goap_domain *d);
const char **cli_simulation_names(const goap_file *f);

/* "goap CMD: FILE has no KIND 'NAME' (did you mean 'X'?)" and "KINDs in FILE: a b c" on
 * stderr. names (NULL-terminated, may be NULL) is freed by the call. Returns CLI_EXIT_USAGE. */
int cli_not_found(const char *cmd, const char *file, const char *kind, const char *name,
                  const char **names);

/* The name to show for a path: "<stdin>" for "-", else the path. */
const char *cli_display_name(const char *path);

/* ---- planning ---------------------------------------------------------------------------- */

/* A plan result with a caller-owned, growable plan buffer. */
typedef struct cli_plan {
  goap_result result;
  int32_t *buf;
  int cap;
} cli_plan;

void cli_plan_init(cli_plan *pl);
void cli_plan_free(cli_plan *pl);
/* Plans into pl->result (goap_plan_begin, goap_plan_step, goap_plan_finish, which give
 * exactly goap_plan's result). When the buffer is too small (GOAP_BUFFER_TOO_SMALL, or a
 * partial plan that did not fit) it grows the buffer and reads the finished search again.
 * Returns the final status (GOAP_OUT_OF_MEMORY if the buffer cannot grow). */
goap_status cli_run_plan(goap_planner *p, const goap_request *req, cli_plan *pl);
/* The second half of cli_run_plan, for callers that ran the search themselves (portfolio.c):
 * begun is what goap_plan_begin returned; the search must be finished when it was
 * GOAP_IN_PROGRESS. */
goap_status cli_finish_plan(goap_planner *p, goap_status begun, cli_plan *pl);

/* Number of plan entries actually present in pl->result.plan. */
int cli_plan_length(const cli_plan *pl);

/* Fills a request from the search options. */
void cli_request_from_opts(const cli_search_opts *o, goap_request *req);

/* ---- formatting -------------------------------------------------------------------------- */

/* A growable string. */
typedef struct cli_buf {
  char *data;
  size_t len, cap;
} cli_buf;

void cli_buf_init(cli_buf *b);
void cli_buf_free(cli_buf *b);
void cli_buf_printf(cli_buf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* The text so far ("" when empty; never NULL). */
const char *cli_buf_str(const cli_buf *b);

/* A number in its shortest form that reads back exactly: "4", "2.5", "0.1". */
void cli_format_number(double v, char *buf, size_t cap);

/* `s` as a JSON string literal (with quotes), properly escaped. */
void cli_json_string(cli_buf *b, const char *s);

/* Conditions and assignments in .goap syntax: "target_dead, !door_stuck, ammo >= 2". */
void cli_format_conds(cli_buf *b, const goap_domain *d, const goap_cond *c, int n);
void cli_format_effects(cli_buf *b, const goap_domain *d, const goap_effect *e, int n);
/* Action names separated by `sep`. */
void cli_format_plan(cli_buf *b, const goap_domain *d, const int32_t *plan, int n,
                     const char *sep);

/* Relative cost comparison with a tolerance of 1e-9 (absolute near zero). */
int cli_cost_equal(double a, double b);

/* ---- simulations (cmd_simulate.c) ----------------------------------------------------- */

/* Prints an agent's timeline as text or JSON lines. */
typedef struct cli_timeline {
  const goap_domain *d;
  int json;
  struct cli_sim_html *html; /* NULL, or also collect every event for `simulate --html` */
  const char *path;          /* the file as shown (a failed expectation's position), or NULL */
} cli_timeline;

void cli_timeline_event(cli_timeline *tl, goap_agent *agent, const goap_agent_event *ev);
void cli_timeline_world(cli_timeline *tl, int var, int32_t value, double time);
void cli_timeline_end(cli_timeline *tl, const char *name, const goap_sim_result *r);
/* Runs one simulation, printing its timeline. until/step: 0 for the file's. */
goap_status cli_simulate(const goap_file *f, int sim, cli_timeline *tl, double until,
                         double step, goap_sim_result *res);
/* The same, recording it (rec) or replaying a log instead (rp); see goap_sim_options. */
goap_status cli_simulate_replay(const goap_file *f, int sim, cli_timeline *tl, double until,
                                double step, struct goap_recorder *rec,
                                struct goap_replayer *rp, goap_sim_result *res);
/* `goap replay` (cmd_replay.c). */
int cli_cmd_replay(int argc, char **argv);
void cli_usage_replay(FILE *out);

/* ---- HTN (cmd_htn.c) ----------------------------------------------------------------------- */

/* Plans task `task` of the file's HTN domain from start and prints the result as `goap plan`
 * does (plan, decomposition tree, MTR; or one JSON line). Returns the exit status. */
int cli_htn_plan(const char *path, const goap_file *f, const goap_word *start, int task,
                 const char *what, const char *given_text, int json,
                 const cli_search_opts *opts);
/* Runs an HTN scenario (s->task >= 0) for `goap test`; prints its PASS/FAIL line (a JSON line
 * with json) and returns 1 when it passed. start is scratch space of the domain's state size. */
int cli_htn_scenario(const char *path, const goap_file *f, const goap_scenario *s,
                     goap_word *start, const cli_search_opts *opts, int json);
/* `goap test`'s result line (cmd_test.c): "PASS path:name detail", "FAIL path:line: kind
 * name: detail" ("FAIL path: kind name: detail" when line is 0), or with json one JSON object
 * {"file", "kind", "name", "line", "pass", "detail"}. kind: "scenario" or "simulation". */
void cli_test_result(int json, int pass, const char *path, int line, const char *kind,
                     const char *name, const char *detail);

/* ---- search traces and explanations (cmd_trace.c, cmd_why.c) ------------------------------ */
int cli_cmd_trace(int argc, char **argv);
int cli_cmd_why(int argc, char **argv);
void cli_usage_trace(FILE *out);
void cli_usage_why(FILE *out);
/* `goap check`: warns (stderr, `path:line: warning: ...`) about each scenario without `expect
 * no plan` whose goal relaxed reachability proves unreachable; returns how many. With json
 * non-NULL the warnings are appended to it instead, as `check --json` diagnostic objects
 * separated by ", ". */
int cli_why_check_scenarios(const char *path, const goap_file *f, cli_buf *json);

/* A start state and a goal chosen as `goap plan` chooses them. */
typedef struct cli_target {
  goap_word *start;          /* owned */
  const goap_cond *want;     /* the file's, or want_buf */
  int want_count;
  goap_cond *want_buf;       /* owned */
} cli_target;
void cli_target_init(cli_target *t);
void cli_target_free(cli_target *t);
/* Exactly one of scenario / goal / want_text is non-NULL; given[] are --given texts. Prints
 * the error and returns CLI_EXIT_USAGE on failure, 0 on success. */
int cli_target_resolve(const char *cmd, const char *file, const goap_file *f, cli_target *t,
                       const char *scenario, const char *goal, const char *want_text,
                       const char *const *given, int given_count);

/* The trace viewer (tools/goap/trace_viewer.html), NUL-terminated, generated at configure time. */
extern const unsigned char goap_cli_trace_viewer_html[];
extern const size_t goap_cli_trace_viewer_html_size;
/* Runs req on a fresh planner with tracing on and, when the search stored at most max_nodes
 * nodes, appends its trace to json in the `goap trace --json` format (docs/trace.md); *cost
 * (the plan's cost, 0 without a plan) and *nodes are set either way. Returns the search's
 * status (cmd_trace.c). */
goap_status cli_trace_search(const goap_domain *d, const char *file, const char *what,
                             const goap_request *req, uint32_t max_nodes, cli_buf *json,
                             double *cost, size_t *nodes);
/* `goap simulate --html` (sim_html.c): the collected timelines and search traces. */
typedef struct cli_sim_html cli_sim_html;
cli_sim_html *cli_sim_html_create(const goap_file *f, const char *file);
void cli_sim_html_begin(cli_sim_html *h, const char *simulation);
void cli_sim_html_event(cli_sim_html *h, goap_agent *agent, const goap_agent_event *ev,
                        const char *json);
void cli_sim_html_end(cli_sim_html *h, const char *json);
/* Writes the page; 0 when the file cannot be written. Frees nothing. */
int cli_sim_html_write(const cli_sim_html *h, const char *path);
void cli_sim_html_destroy(cli_sim_html *h);

/* ---- the embedded example (generated at configure time from examples/soldier.goap) ------- */
extern const unsigned char goap_cli_soldier_goap[];
extern const size_t goap_cli_soldier_goap_size;
extern const unsigned char goap_cli_squad_goap[];
extern const size_t goap_cli_squad_goap_size;

#endif /* GOAP_CLI_H */
