/*
 * cmd_test.c -- `goap test [--search S] [--heuristic H] FILE...`: runs every scenario's
 * expectations.
 *
 * Invariants:
 *  - One line per scenario on stdout, "PASS file:scenario (...)" or
 *    "FAIL file:line: scenario S: ...", then the summary "N passed, M failed".
 *  - A scenario passes when every expectation holds; without expectations it passes when a
 *    plan exists. Any plan found must also replay (goap_plan_validate) to the goal at the
 *    cost the planner reported, so a planner bug cannot pass silently.
 *  - Every `simulation` block with `expect` lines runs too: "PASS file:sim (simulation, N
 *    replans)" or "FAIL file:line: simulation S: ...".
 *  - A file that cannot be loaded is reported on stderr and makes the exit status 2; the
 *    other files are still run.
 *  - --json: one JSON object per line instead of each PASS/FAIL line, with the same detail
 *    text, and a last line {"passed", "failed"} (docs/cli.md).
 */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

static const char *const test_options[] = {"--search", "--heuristic", "--max-nodes",
                                           "--max-ms", "--help", "--preferred", "--lazy",
                                           "--json", NULL};

void cli_test_result(int json, int pass, const char *path, int line, const char *kind,
                     const char *name, const char *detail) {
  if (!json) {
    if (pass)
      printf("PASS %s:%s %s\n", path, name, detail);
    else if (line > 0)
      printf("FAIL %s:%d: %s %s: %s\n", path, line, kind, name, detail);
    else
      printf("FAIL %s: %s %s: %s\n", path, kind, name, detail);
    return;
  }
  cli_buf b;
  cli_buf_init(&b);
  cli_buf_printf(&b, "{\"file\": ");
  cli_json_string(&b, path);
  cli_buf_printf(&b, ", \"kind\": \"%s\", \"name\": ", kind);
  cli_json_string(&b, name);
  cli_buf_printf(&b, ", \"line\": %d, \"pass\": %s, \"detail\": ", line,
                 pass ? "true" : "false");
  cli_json_string(&b, detail);
  printf("%s}\n", cli_buf_str(&b));
  cli_buf_free(&b);
}

typedef struct test_totals {
  int passed, failed, load_errors;
} test_totals;

static int plans_equal(const int32_t *a, int na, const int32_t *b, int nb) {
  if (na != nb) return 0;
  for (int i = 0; i < na; i++)
    if (a[i] != b[i]) return 0;
  return 1;
}

static void append_plan(cli_buf *b, const goap_domain *d, const int32_t *plan, int n) {
  if (n == 0)
    cli_buf_printf(b, "(empty)");
  else
    cli_format_plan(b, d, plan, n, " ");
}

/* Runs one scenario; prints its line; returns 1 when it passed. */
static int run_scenario(const char *path, const goap_file *f, goap_planner *planner,
                        const cli_search_opts *opts, const goap_scenario *s, goap_word *start,
                        int json) {
  const goap_domain *d = goap_file_domain(f);
  cli_buf why, tail;
  cli_plan pl;
  char num[64], num2[64];
  int ok = 1;
  cli_buf_init(&why);
  cli_buf_init(&tail);
  cli_plan_init(&pl);

  goap_state_init(d, start);
  if (goap_state_assign(d, start, s->given, s->given_count) != GOAP_OK) {
    cli_buf_printf(&why, "its given line leaves a variable's range");
    ok = 0;
    goto report;
  }

  goap_request req;
  cli_request_from_opts(opts, &req);
  req.start = start;
  req.want = s->want;
  req.want_count = s->want_count;
  goap_status st = cli_run_plan(planner, &req, &pl);
  int n = cli_plan_length(&pl);
  const int32_t *plan = pl.result.plan;
  int found = st == GOAP_OK;

  if (found) {
    double replay_cost = 0.0;
    int bad = -1;
    goap_status v = goap_plan_validate(d, start, s->want, s->want_count, plan, n,
                                       &replay_cost, &bad);
    if (v != GOAP_OK) {
      ok = 0;
      if (bad >= 0 && bad < n) {
        const char *name = goap_domain_action_name(d, plan[bad]);
        cli_buf_printf(&why, "the planner's plan is invalid: step %d (%s) is not applicable",
                       bad + 1, name ? name : "?");
      } else {
        cli_buf_printf(&why, "the planner's plan does not reach the goal");
      }
    } else if (!cli_cost_equal(replay_cost, pl.result.cost)) {
      ok = 0;
      cli_format_number(pl.result.cost, num, sizeof num);
      cli_format_number(replay_cost, num2, sizeof num2);
      cli_buf_printf(&why, "the planner reported cost %s but its plan costs %s", num, num2);
    }
  }

  cli_format_number(pl.result.cost, num, sizeof num);
  if (s->expect & GOAP_EXPECT_NO_PLAN) {
    if (st == GOAP_NO_PLAN) goto report;
    ok = 0;
    if (why.len) cli_buf_printf(&why, "; ");
    if (found)
      cli_buf_printf(&why, "expected no plan, got cost %s", num);
    else
      cli_buf_printf(&why, "expected no plan, but the search stopped: %s",
                     goap_status_string(st));
  } else if (!found) {
    ok = 0;
    if (why.len) cli_buf_printf(&why, "; ");
    if (s->expect & GOAP_EXPECT_COST) {
      cli_format_number(s->expect_cost, num2, sizeof num2);
      cli_buf_printf(&why, "expected cost %s, ", num2);
    } else {
      cli_buf_printf(&why, "expected a plan, ");
    }
    if (st == GOAP_NO_PLAN)
      cli_buf_printf(&why, "got no plan");
    else
      cli_buf_printf(&why, "but the search stopped: %s", goap_status_string(st));
  } else {
    int plan_bad = 0;
    if ((s->expect & GOAP_EXPECT_COST) && !cli_cost_equal(pl.result.cost, s->expect_cost)) {
      ok = 0;
      if (why.len) cli_buf_printf(&why, "; ");
      cli_format_number(s->expect_cost, num2, sizeof num2);
      cli_buf_printf(&why, "expected cost %s, got %s", num2, num);
    }
    if ((s->expect & GOAP_EXPECT_PLAN) &&
        !plans_equal(plan, n, s->expect_plan, s->expect_plan_length)) {
      ok = 0;
      plan_bad = 1;
      if (why.len) cli_buf_printf(&why, "; ");
      cli_buf_printf(&why, "expected plan ");
      append_plan(&why, d, s->expect_plan, s->expect_plan_length);
      cli_buf_printf(&why, ", got ");
      append_plan(&why, d, plan, n);
    }
    if (plan_bad) {
      cli_buf_printf(&tail, " (cost %s)", num);
    } else {
      cli_buf_printf(&tail, " (plan ");
      append_plan(&tail, d, plan, n);
      cli_buf_printf(&tail, ")");
    }
  }

report:
  if (ok) {
    if (s->expect & GOAP_EXPECT_NO_PLAN) {
      cli_test_result(json, 1, path, s->line, "scenario", s->name, "(no plan)");
    } else {
      cli_buf line;
      cli_buf_init(&line);
      cli_buf_printf(&line, "(cost %s, plan ", num);
      append_plan(&line, d, pl.result.plan, cli_plan_length(&pl));
      cli_buf_printf(&line, ")");
      cli_test_result(json, 1, path, s->line, "scenario", s->name, cli_buf_str(&line));
      cli_buf_free(&line);
    }
  } else {
    cli_buf_printf(&why, "%s", cli_buf_str(&tail));
    cli_test_result(json, 0, path, s->line, "scenario", s->name, cli_buf_str(&why));
  }
  cli_buf_free(&why);
  cli_buf_free(&tail);
  cli_plan_free(&pl);
  return ok;
}

static void run_file(const char *arg, const cli_search_opts *opts, test_totals *t, int json) {
  goap_file *f = cli_load(arg, NULL);
  const char *path = cli_display_name(arg);
  if (!f) {
    t->load_errors++;
    return;
  }
  const goap_domain *d = goap_file_domain(f);
  int count = goap_file_scenario_count(f);
  int nsim = goap_file_simulation_count(f);
  if (count <= 0 && nsim <= 0) {
    if (!json) printf("%s: no scenarios\n", path);
    goap_file_destroy(f);
    return;
  }
  size_t words = goap_domain_state_words(d);
  goap_word *start = calloc(words ? words : 1, sizeof *start);
  goap_planner *planner = NULL;
  if (start) goap_planner_create(d, NULL, &planner); /* NULL on failure: checked below */
  if (!planner) {
    fprintf(stderr, "goap test: %s: out of memory\n", path);
    t->load_errors++;
  } else {
    for (int i = 0; i < count; i++) {
      const goap_scenario *s = goap_file_scenario(f, i);
      if (!s) continue;
      if (s->task >= 0 ? cli_htn_scenario(path, f, s, start, opts, json) :
          run_scenario(path, f, planner, opts, s, start, json))
        t->passed++;
      else
        t->failed++;
    }
  }
  for (int i = 0; planner && i < nsim; i++) {
    goap_sim_result res;
    const char *name = goap_file_simulation_name(f, i);
    goap_status st = goap_file_simulate(f, i, NULL, &res);
    if (st == GOAP_OK && res.expectations == 0) continue;
    if (st == GOAP_OK && res.failed == 0) {
      char detail[64];
      snprintf(detail, sizeof detail, "(simulation, %d replan%s)", res.replans,
               res.replans == 1 ? "" : "s");
      cli_test_result(json, 1, path, 0, "simulation", name, detail);
      t->passed++;
    } else if (st == GOAP_OK && res.line) { /* at the failing expect line */
      printf("FAIL %s:%d:%d: simulation %s: %s\n", path, res.line, res.col, name, res.message);
      t->failed++;
    } else {
      cli_test_result(json, 0, path, 0, "simulation", name,
                      st != GOAP_OK ? goap_status_string(st) : res.message);
      t->failed++;
    }
  }
  goap_planner_destroy(planner);
  free(start);
  goap_file_destroy(f);
}

int cli_cmd_test(int argc, char **argv) {
  static const char cmd[] = "test";
  cli_search_opts opts;
  cli_search_opts_init(&opts);
  const char **files = calloc((size_t)argc + 1, sizeof *files);
  int nfiles = 0, only_positional = 0, json = 0;
  if (!files) return CLI_EXIT_USAGE;
  for (int i = 0; i < argc; i++) {
    const char *arg = argv[i];
    int r;
    if (only_positional || arg[0] != '-' || strcmp(arg, "-") == 0) {
      files[nfiles++] = arg;
      continue;
    }
    if (strcmp(arg, "--") == 0) {
      only_positional = 1;
      continue;
    }
    if (strcmp(arg, "--json") == 0) {
      json = 1;
      continue;
    }
    if ((r = cli_search_option(cmd, argc, argv, &i, &opts)) < 0) goto usage;
    if (r > 0) continue;
    cli_unknown_option(cmd, arg, test_options);
    goto usage;
  }
  if (nfiles == 0) {
    cli_usage_error(cmd, "missing FILE");
    goto usage;
  }
  if (cli_check_search(cmd, &opts)) goto usage;

  test_totals t = {0, 0, 0};
  for (int k = 0; k < nfiles; k++) run_file(files[k], &opts, &t, json);
  free(files);
  if (json)
    printf("{\"passed\": %d, \"failed\": %d}\n", t.passed, t.failed);
  else
    printf("%d passed, %d failed\n", t.passed, t.failed);
  if (t.load_errors) {
    fprintf(stderr, "goap test: %d file%s could not be loaded\n", t.load_errors,
            t.load_errors == 1 ? "" : "s");
    return CLI_EXIT_USAGE;
  }
  return t.failed ? CLI_EXIT_FAIL : CLI_EXIT_OK;

usage:
  free(files);
  return CLI_EXIT_USAGE;
}
