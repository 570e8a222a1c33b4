/*
 * cmd_plan.c -- `goap plan FILE (--scenario S | --goal G | --want CONDS) [options]`.
 *
 * Invariants:
 *  - Exactly one of --scenario / --goal / --want selects what to reach.
 *  - The start state is the domain default, then the scenario's `given`, then each --given
 *    in command-line order.
 *  - With --json, stdout receives exactly one line holding one JSON object whenever the
 *    planner ran (whatever its status); usage and load errors print nothing on stdout.
 */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

#define MAX_GIVEN 64

typedef struct plan_args {
  const char *file;
  const char *scenario, *goal, *want;
  const char *task; /* HTN root task (cmd_htn.c) */
  const char *given[MAX_GIVEN];
  int given_count;
  int json;
  cli_search_opts opts;
} plan_args;

static const char *const plan_options[] = {
    "--scenario", "--goal", "--want", "--task", "--given", "--search", "--heuristic",
    "--max-nodes", "--max-ms", "--json", "--help", "--preferred", "--lazy", NULL};

static int parse_args(int argc, char **argv, plan_args *a) {
  static const char cmd[] = "plan";
  memset(a, 0, sizeof *a);
  cli_search_opts_init(&a->opts);
  int only_positional = 0;
  for (int i = 0; i < argc; i++) {
    const char *arg = argv[i];
    const char *v = NULL;
    int r;
    if (only_positional || arg[0] != '-' || strcmp(arg, "-") == 0) {
      if (a->file) return cli_usage_error(cmd, "one FILE expected, got '%s' and '%s'", a->file, arg);
      a->file = arg;
      continue;
    }
    if (strcmp(arg, "--") == 0) {
      only_positional = 1;
      continue;
    }
    if (strcmp(arg, "--json") == 0) {
      a->json = 1;
      continue;
    }
#define VALUE_OPT(NAME)                                                                     \
  if ((r = cli_opt_value(cmd, argc, argv, &i, NAME, &v)) < 0) return CLI_EXIT_USAGE;        \
  if (r > 0)
    VALUE_OPT("--scenario") {
      if (a->scenario) return cli_usage_error(cmd, "--scenario given twice");
      a->scenario = v;
      continue;
    }
    VALUE_OPT("--goal") {
      if (a->goal) return cli_usage_error(cmd, "--goal given twice");
      a->goal = v;
      continue;
    }
    VALUE_OPT("--want") {
      if (a->want) return cli_usage_error(cmd, "--want given twice");
      a->want = v;
      continue;
    }
    VALUE_OPT("--task") {
      if (a->task) return cli_usage_error(cmd, "--task given twice");
      a->task = v;
      continue;
    }
    VALUE_OPT("--given") {
      if (a->given_count >= MAX_GIVEN) return cli_usage_error(cmd, "too many --given options");
      a->given[a->given_count++] = v;
      continue;
    }
    if ((r = cli_search_option(cmd, argc, argv, &i, &a->opts)) < 0) return CLI_EXIT_USAGE;
    if (r > 0) continue;
#undef VALUE_OPT
    return cli_unknown_option(cmd, arg, plan_options);
  }
  if (!a->file) return cli_usage_error(cmd, "missing FILE");
  int targets = (a->scenario != NULL) + (a->goal != NULL) + (a->want != NULL) +
                (a->task != NULL);
  if (targets == 0)
    return cli_usage_error(cmd, "say what to reach: --scenario S, --goal G, --want CONDS or "
                                "--task T");
  if (targets > 1)
    return cli_usage_error(cmd, "--scenario, --goal, --want and --task are exclusive: use one");
  return cli_check_search(cmd, &a->opts);
}

static int status_exit(goap_status st) {
  switch (st) {
  case GOAP_OK: return CLI_EXIT_OK;
  case GOAP_NO_PLAN:
  case GOAP_NODE_LIMIT:
  case GOAP_TIME_LIMIT:
  case GOAP_MEMORY_LIMIT: return CLI_EXIT_FAIL;
  default: return CLI_EXIT_USAGE;
  }
}

static void print_json(const goap_domain *d, goap_status st, const cli_plan *pl) {
  const goap_result *r = &pl->result;
  int n = cli_plan_length(pl);
  int show_plan = st == GOAP_OK || r->partial;
  cli_buf b;
  char num[64];
  cli_buf_init(&b);
  cli_buf_printf(&b, "{\"status\": ");
  cli_json_string(&b, st == GOAP_OK ? "found" : goap_status_name(st));
  cli_buf_printf(&b, ", \"partial\": %s", (st != GOAP_OK && r->partial) ? "true" : "false");
  cli_format_number(show_plan ? r->cost : 0.0, num, sizeof num);
  cli_buf_printf(&b, ", \"cost\": %s, \"plan\": [", num);
  for (int i = 0; show_plan && i < n; i++) {
    const char *name = goap_domain_action_name(d, r->plan[i]);
    if (i) cli_buf_printf(&b, ", ");
    cli_json_string(&b, name ? name : "?");
  }
  cli_buf_printf(&b, "], \"expanded\": %llu, \"generated\": %llu, \"duplicates\": %llu",
                 (unsigned long long)r->stats.expanded, (unsigned long long)r->stats.generated,
                 (unsigned long long)r->stats.duplicates);
  cli_buf_printf(&b, ", \"nodes\": %lu", (unsigned long)r->stats.nodes);
  double t = r->stats.time_us;
  if (!(t >= 0.0) || t > 1e15) t = 0.0;
  cli_buf_printf(&b, ", \"time_us\": %.3f}", t);
  puts(cli_buf_str(&b));
  cli_buf_free(&b);
}

static void print_stats(const goap_stats *s) {
  printf("expanded %llu, generated %llu, duplicates %llu, nodes %lu, time %.1f us\n",
         (unsigned long long)s->expanded, (unsigned long long)s->generated,
         (unsigned long long)s->duplicates, (unsigned long)s->nodes, s->time_us);
}

/* 1 when some action has a positional cost (`cost ... distance(...)`). */
static int has_state_costs(const goap_domain *d) {
  for (int a = 0; a < goap_domain_action_count(d); ++a)
    if (goap_domain_action_state_cost(d, a, NULL, NULL, NULL, NULL)) return 1;
  return 0;
}

/* Each step's cost: the static one, or, with positional costs and a plan that runs from
 * start, the step priced from the state it starts in (goap_plan_validate of that one step). */
static double step_cost(const goap_domain *d, goap_word *s, int32_t a) {
  double c = goap_domain_action_cost(d, a);
  if (s && goap_plan_validate(d, s, NULL, 0, &a, 1, &c, NULL) == GOAP_OK)
    goap_action_apply(d, s, a);
  return c;
}

/* from_start: the plan runs from start (NULL: the defaults), so steps can be priced. */
static void print_steps(const goap_domain *d, const goap_word *start, int from_start,
                        const int32_t *plan, int n) {
  int width = 0;
  goap_word *s = NULL;
  if (from_start && has_state_costs(d)) {
    size_t W = goap_domain_state_words(d);
    s = (goap_word *)malloc(W * sizeof *s);
    if (s && start) memcpy(s, start, W * sizeof *s);
    else if (s) goap_state_init(d, s);
  }
  for (int i = 0; i < n; i++) {
    const char *name = goap_domain_action_name(d, plan[i]);
    int len = name ? (int)strlen(name) : 1;
    if (len > width) width = len;
  }
  int digits = 1;
  for (int k = n; k >= 10; k /= 10) digits++;
  for (int i = 0; i < n; i++) {
    const char *name = goap_domain_action_name(d, plan[i]);
    char num[64];
    cli_format_number(step_cost(d, s, plan[i]), num, sizeof num);
    printf("  %*d. %-*s  %s\n", digits, i + 1, width, name ? name : "?", num);
  }
  free(s);
}

/* Describes a partial plan: whether it runs from the start, and whether it reaches the goal
 * (a search stopped early may hold a complete plan it could not yet prove cheapest). */
static void print_partial(const goap_domain *d, const goap_request *req, const cli_plan *pl) {
  const goap_result *r = &pl->result;
  int n = cli_plan_length(pl);
  int bad = -1;
  goap_status v = goap_plan_validate(d, req->start, req->want, req->want_count, r->plan, n,
                                     NULL, &bad);
  if (n == 0) {
    printf("partial plan: empty (no action was found to bring the goal closer)\n");
    return;
  }
  if (v == GOAP_OK)
    printf("partial plan, %d action%s (it reaches the goal, but the search stopped before "
           "proving it the cheapest):\n",
           n, n == 1 ? "" : "s");
  else if (req->search == GOAP_SEARCH_BACKWARD)
    printf("partial plan, %d action%s (backward search: the last actions of a plan, not yet "
           "connected to the start):\n",
           n, n == 1 ? "" : "s");
  else
    printf("partial plan, %d action%s (from the start; it does not reach the goal yet):\n", n,
           n == 1 ? "" : "s");
  print_steps(d, req->start, req->search != GOAP_SEARCH_BACKWARD, r->plan, n);
}

static void print_human(const goap_domain *d, const goap_request *req, goap_status st,
                        const cli_plan *pl) {
  const goap_result *r = &pl->result;
  int n = cli_plan_length(pl);
  char num[64];
  cli_format_number(r->cost, num, sizeof num);
  if (st == GOAP_OK) {
    printf("plan found, %d action%s:\n", n, n == 1 ? "" : "s");
    print_steps(d, req->start, 1, r->plan, n);
    printf("total cost %s\n", num);
  } else if (r->partial) {
    printf("search stopped: %s\n", goap_status_string(st));
    print_partial(d, req, pl);
    printf("partial cost %s\n", num);
  } else if (st == GOAP_NO_PLAN) {
    printf("no plan: the goal cannot be reached from this start state\n");
  } else {
    printf("no plan: %s\n", goap_status_string(st));
  }
  print_stats(&r->stats);
}

int cli_cmd_plan(int argc, char **argv) {
  plan_args a;
  int rc = parse_args(argc, argv, &a);
  if (rc) return rc;

  goap_file *f = cli_load(a.file, NULL);
  if (!f) return CLI_EXIT_USAGE;
  const goap_domain *d = goap_file_domain(f);

  goap_word *start = NULL;
  goap_cond *want_buf = NULL;
  goap_effect *given_buf = NULL;
  goap_planner *planner = NULL;
  cli_plan pl;
  cli_buf what, given_text;
  cli_plan_init(&pl);
  cli_buf_init(&what);
  cli_buf_init(&given_text);
  rc = CLI_EXIT_USAGE;

  size_t words = goap_domain_state_words(d);
  start = calloc(words ? words : 1, sizeof *start);
  if (!start) {
    fputs("goap plan: out of memory\n", stderr);
    goto done;
  }
  goap_state_init(d, start);

  /* What to reach. */
  const goap_cond *want = NULL;
  int want_count = 0;
  int htn_task = -1;
  if (a.task) {
    const goap_htn_domain *hd = goap_file_htn(f);
    htn_task = hd ? goap_htn_domain_find_task(hd, a.task) : -1;
    if (htn_task < 0) {
      int nt = hd ? goap_htn_domain_task_count(hd) : 0;
      const char **names = calloc((size_t)nt + 1, sizeof *names);
      for (int i = 0; names && i < nt; i++) names[i] = goap_htn_domain_task_name(hd, i);
      rc = cli_not_found("plan", cli_display_name(a.file), "task", a.task, names);
      goto done;
    }
    cli_buf_printf(&what, "task %s", a.task);
  } else if (a.scenario) {
    int idx = goap_file_find_scenario(f, a.scenario);
    const goap_scenario *s = idx >= 0 ? goap_file_scenario(f, idx) : NULL;
    if (!s) {
      rc = cli_not_found("plan", cli_display_name(a.file), "scenario", a.scenario,
                         cli_scenario_names(f));
      goto done;
    }
    want = s->want;
    want_count = s->want_count;
    htn_task = s->task;
    if (goap_state_assign(d, start, s->given, s->given_count) != GOAP_OK) {
      fprintf(stderr, "%s:%d: error: scenario %s: its given line leaves a variable's range\n",
              cli_display_name(a.file), s->line, s->name);
      goto done;
    }
    cli_buf_printf(&what, "scenario %s", s->name);
    cli_format_effects(&given_text, d, s->given, s->given_count);
  } else if (a.goal) {
    int g = goap_domain_find_goal(d, a.goal);
    if (g < 0) {
      rc = cli_not_found("plan", cli_display_name(a.file), "goal", a.goal, cli_goal_names(d));
      goto done;
    }
    want = goap_domain_goal_want(d, g, &want_count);
    cli_buf_printf(&what, "goal %s", a.goal);
  } else {
    int cap = (int)(strlen(a.want) / 2) + 2;
    goap_error err;
    memset(&err, 0, sizeof err);
    want_buf = calloc((size_t)cap, sizeof *want_buf);
    if (!want_buf) goto done;
    if (goap_parse_conds(d, "--want", a.want, want_buf, cap, &want_count, &err) != GOAP_OK) {
      cli_print_diag(stderr, &err);
      goto done;
    }
    want = want_buf;
    cli_buf_printf(&what, "--want %s", a.want);
  }

  /* Extra start-state overrides. */
  for (int k = 0; k < a.given_count; k++) {
    int cap = (int)(strlen(a.given[k]) / 2) + 2, count = 0;
    goap_error err;
    memset(&err, 0, sizeof err);
    free(given_buf);
    given_buf = calloc((size_t)cap, sizeof *given_buf);
    if (!given_buf) goto done;
    if (goap_parse_assignments(d, "--given", a.given[k], given_buf, cap, &count, &err) !=
        GOAP_OK) {
      cli_print_diag(stderr, &err);
      goto done;
    }
    if (goap_state_assign(d, start, given_buf, count) != GOAP_OK) {
      fprintf(stderr, "goap plan: --given '%s' leaves a variable's range\n", a.given[k]);
      goto done;
    }
    if (count) {
      if (given_text.len) cli_buf_printf(&given_text, ", ");
      cli_format_effects(&given_text, d, given_buf, count);
    }
  }

  if (htn_task >= 0) {
    rc = cli_htn_plan(cli_display_name(a.file), f, start, htn_task, cli_buf_str(&what),
                      cli_buf_str(&given_text), a.json, &a.opts);
    goto done;
  }
  if (goap_planner_create(d, NULL, &planner) != GOAP_OK) {
    fputs("goap plan: cannot create the planner (out of memory)\n", stderr);
    goto done;
  }
  goap_request req;
  cli_request_from_opts(&a.opts, &req);
  req.start = start;
  req.want = want;
  req.want_count = want_count;
  goap_status st = cli_run_plan(planner, &req, &pl);
  pl.result.status = st;

  if (a.json) {
    print_json(d, st, &pl);
  } else {
    char cfg[160];
    cli_buf conds;
    cli_buf_init(&conds);
    cli_format_conds(&conds, d, want, want_count);
    cli_describe_search(&a.opts, cfg, sizeof cfg);
    printf("%s: %s\n", cli_display_name(a.file), cli_buf_str(&what));
    printf("given: %s\n", given_text.len ? cli_buf_str(&given_text) : "(the defaults)");
    printf("want:  %s\n", want_count ? cli_buf_str(&conds) : "(nothing)");
    printf("search: %s\n", cfg);
    cli_buf_free(&conds);
    print_human(d, &req, st, &pl);
  }
  rc = status_exit(st);
  if (rc == CLI_EXIT_USAGE && !a.json)
    fprintf(stderr, "goap plan: planning failed: %s\n", goap_status_string(st));
  if (st == GOAP_INVALID_ARGUMENT && !a.json && req.search == GOAP_SEARCH_BACKWARD &&
      has_state_costs(d))
    fprintf(stderr, "goap plan: backward search cannot price distance costs (a regression "
                    "node is not a whole state): use --search astar, wastar or greedy\n");

done:
  goap_planner_destroy(planner);
  cli_plan_free(&pl);
  cli_buf_free(&what);
  cli_buf_free(&given_text);
  free(given_buf);
  free(want_buf);
  free(start);
  goap_file_destroy(f);
  return rc;
}
