/*
 * cmd_htn.c -- HTN planning in the `goap` tool: `goap plan FILE --task ROOT` (and
 * `--scenario S` for a scenario with a `task` line), and HTN scenarios in `goap test`.
 *
 * Invariants:
 *  - The same exit statuses, output streams and JSON discipline as cmd_plan.c / cmd_test.c:
 *    with --json exactly one line holding one JSON object on stdout.
 *  - Every plan the HTN planner returns is replayed (goap_plan_validate with no goal: each
 *    action applicable in turn) before it is printed as valid or a test passes.
 */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

#include "goap/htn.h"

/* The default step budget of the tool (the API has none): a runaway file cannot hang it. */
#define CLI_HTN_DEFAULT_MAX_STEPS 10000000u

typedef struct htn_run {
  goap_htn_result r;
  int32_t *plan, *mtr;
  goap_htn_trace_entry *trace;
  int ntrace;
  goap_status st;
  char cycle[512]; /* GOAP_HTN_STOP_CYCLE: the reason, naming a left-recursive method */
} htn_run;

static void htn_run_free(htn_run *h) {
  free(h->plan);
  free(h->mtr);
  free(h->trace);
  memset(h, 0, sizeof *h);
}

static void request_from_opts(const cli_search_opts *o, goap_htn_request *q) {
  memset(q, 0, sizeof *q);
  q->max_steps = o->max_nodes ? o->max_nodes : CLI_HTN_DEFAULT_MAX_STEPS;
  q->max_ms = o->max_ms;
  q->achieve_search = o->search;
  q->achieve_heuristic = o->heuristic;
}

/* The compound task method m of task t starts with, or -1. */
static int first_task(const goap_htn_domain *hd, int t, int m) {
  int n = 0;
  const goap_htn_subtask *s = goap_htn_domain_method_subtasks(hd, t, m, &n);
  return n > 0 && s[0].kind == GOAP_HTN_TASK ? (int)s[0].id : -1;
}

/* Names the first left-recursive method (its first subtask leads back to its own task through
 * first subtasks: the same state, decomposed again), as `goap check` reports it. */
static void describe_cycle(const goap_htn_domain *hd, char *buf, size_t cap) {
  int nt = goap_htn_domain_task_count(hd);
  unsigned char *seen = calloc((size_t)(nt > 0 ? nt : 1), 1);
  int *stack = calloc((size_t)(nt > 0 ? nt : 1), sizeof *stack);
  snprintf(buf, cap, "a task decomposes into itself with no state change in between (left "
                     "recursion); the branch was cut at the depth limit");
  for (int t = 0; seen && stack && t < nt; t++)
    for (int m = 0; m < goap_htn_domain_method_count(hd, t); m++) {
      int u = first_task(hd, t, m), sp = 0, back = 0;
      if (u < 0) continue;
      memset(seen, 0, (size_t)nt);
      seen[u] = 1;
      stack[sp++] = u;
      while (sp > 0 && !back) {
        int x = stack[--sp];
        back = x == t;
        for (int k = 0; !back && k < goap_htn_domain_method_count(hd, x); k++) {
          int y = first_task(hd, x, k);
          if (y >= 0 && !seen[y]) seen[y] = 1, stack[sp++] = y;
        }
      }
      if (!back) continue;
      snprintf(buf, cap, "method '%s' of task '%s' starts with '%s', which decomposes back into "
                         "'%s' with no state change in between (left recursion); the branch was "
                         "cut at the depth limit",
               goap_htn_domain_method_name(hd, t, m), goap_htn_domain_task_name(hd, t),
               goap_htn_domain_task_name(hd, u), goap_htn_domain_task_name(hd, t));
      free(seen);
      free(stack);
      return;
    }
  free(seen);
  free(stack);
}

/* The status as a word: "cycle" for a cut cycle (as --json says), else the status's text. */
static const char *status_text(const htn_run *h) {
  return h->r.stop == GOAP_HTN_STOP_CYCLE ? "cycle" : goap_status_string(h->st);
}

/* Plans into h (growing the buffers as needed); returns the status. */
static goap_status run_htn(goap_htn_planner *p, const goap_htn_domain *hd,
                           const goap_htn_request *q, htn_run *h) {
  memset(h, 0, sizeof *h);
  h->st = goap_htn_plan(p, q, &h->r);
  if (h->st == GOAP_BUFFER_TOO_SMALL) {
    h->plan = calloc((size_t)h->r.plan_length + 1, sizeof *h->plan);
    h->mtr = calloc((size_t)h->r.mtr_length + 1, sizeof *h->mtr);
    if (!h->plan || !h->mtr) return h->st = GOAP_OUT_OF_MEMORY;
    h->r.plan = h->plan;
    h->r.plan_capacity = h->r.plan_length;
    h->r.mtr = h->mtr;
    h->r.mtr_capacity = h->r.mtr_length;
    h->st = goap_htn_fetch(p, &h->r);
  }
  h->ntrace = goap_htn_trace(p, NULL, 0);
  if (h->ntrace > 0) {
    h->trace = calloc((size_t)h->ntrace, sizeof *h->trace);
    if (!h->trace) return h->st = GOAP_OUT_OF_MEMORY;
    goap_htn_trace(p, h->trace, h->ntrace);
  }
  if (h->r.stop == GOAP_HTN_STOP_CYCLE)
    describe_cycle(hd, h->cycle, sizeof h->cycle);
  return h->st;
}

static int found(goap_status st) { return st == GOAP_OK || st == GOAP_PARTIAL; }

static const char *status_id(const htn_run *h) {
  if (h->st == GOAP_OK) return "found";
  if (h->st == GOAP_PARTIAL) return "partial";
  if (h->r.stop == GOAP_HTN_STOP_DEPTH || h->r.stop == GOAP_HTN_STOP_CYCLE)
    return goap_htn_stop_name(h->r.stop);
  return goap_status_name(h->st);
}

static int exit_for(goap_status st) {
  switch (st) {
  case GOAP_OK:
  case GOAP_PARTIAL: return CLI_EXIT_OK;
  case GOAP_NO_PLAN:
  case GOAP_NODE_LIMIT:
  case GOAP_TIME_LIMIT:
  case GOAP_TOO_LARGE:
  case GOAP_CONFLICT: return CLI_EXIT_FAIL;
  default: return CLI_EXIT_USAGE;
  }
}

static const char *why_not(const htn_run *h) {
  switch (h->r.stop) {
  case GOAP_HTN_STOP_STEPS: return "the step budget ran out";
  case GOAP_HTN_STOP_TIME: return "the time budget ran out";
  case GOAP_HTN_STOP_DEPTH:
    return "some branch went deeper than the depth limit and was cut";
  case GOAP_HTN_STOP_CYCLE: return h->cycle;
  case GOAP_HTN_STOP_ACHIEVE: return "an 'achieve' search ran out of nodes or time";
  default: return "no method applies along any decomposition";
  }
}

static void print_tree(const goap_htn_domain *hd, const htn_run *h) {
  const goap_domain *d = goap_htn_domain_goap(hd);
  for (int i = 0; i < h->ntrace; i++) {
    const goap_htn_trace_entry *e = &h->trace[i];
    int indent = e->depth > 40 ? 40 : e->depth;
    printf("  %*s", 2 * indent, "");
    switch (e->kind) {
    case GOAP_HTN_TASK:
      printf("%s  [method %s]\n", goap_htn_domain_task_name(hd, e->id),
             goap_htn_domain_method_name(hd, e->id, e->method));
      break;
    case GOAP_HTN_ACTION: printf("%s\n", goap_domain_action_name(d, e->id)); break;
    case GOAP_HTN_ACHIEVE:
    case GOAP_HTN_ACHIEVE_GOAL:
      if (e->kind == GOAP_HTN_ACHIEVE_GOAL)
        printf("achieve %s", goap_domain_goal_name(d, e->id));
      else
        printf("achieve");
      printf("  (GOAP: %d action%s)\n", e->plan_length, e->plan_length == 1 ? "" : "s");
      for (int k = 0; k < e->plan_length; k++)
        printf("  %*s%s\n", 2 * indent + 2, "",
               goap_domain_action_name(d, h->r.plan[e->plan_start + k]));
      break;
    case GOAP_HTN_SET: printf("set  (plan-time effects)\n"); break;
    case GOAP_HTN_PAUSE: printf("pause\n"); break;
    }
  }
}

int cli_htn_plan(const char *path, const goap_file *f, const goap_word *start, int task,
                 const char *what, const char *given_text, int json,
                 const cli_search_opts *opts) {
  const goap_htn_domain *hd = goap_file_htn(f);
  const goap_domain *d = goap_file_domain(f);
  goap_htn_planner *p = NULL;
  goap_htn_planner_create(hd, NULL, &p); /* NULL on failure: checked below */
  goap_htn_request q;
  htn_run h;
  if (!p) {
    fputs("goap plan: cannot create the HTN planner (out of memory)\n", stderr);
    return CLI_EXIT_USAGE;
  }
  request_from_opts(opts, &q);
  q.start = start;
  q.task = task;
  run_htn(p, hd, &q, &h);
  int n = found(h.st) ? h.r.plan_length : 0;
  int bad = -1;
  if (found(h.st) &&
      goap_plan_validate(d, start, NULL, 0, h.r.plan, n, NULL, &bad) != GOAP_OK) {
    fprintf(stderr, "goap plan: internal error: the HTN plan fails at step %d\n", bad + 1);
    h.st = GOAP_INVALID_OPERATION;
  }
  if (json) {
    cli_buf b;
    char num[64];
    cli_buf_init(&b);
    cli_buf_printf(&b, "{\"status\": ");
    cli_json_string(&b, status_id(&h));
    cli_buf_printf(&b, ", \"paused\": %s", h.st == GOAP_PARTIAL ? "true" : "false");
    cli_format_number(found(h.st) ? h.r.cost : 0.0, num, sizeof num);
    cli_buf_printf(&b, ", \"cost\": %s, \"plan\": [", num);
    for (int i = 0; i < n; i++) {
      if (i) cli_buf_printf(&b, ", ");
      cli_json_string(&b, goap_domain_action_name(d, h.r.plan[i]));
    }
    cli_buf_printf(&b, "], \"mtr\": [");
    for (int i = 0; found(h.st) && i < h.r.mtr_length; i++)
      cli_buf_printf(&b, "%s%d", i ? ", " : "", (int)h.r.mtr[i]);
    cli_buf_printf(&b, "], \"steps\": %llu, \"expansions\": %llu, \"backtracks\": %llu",
                   (unsigned long long)h.r.stats.steps,
                   (unsigned long long)h.r.stats.expansions,
                   (unsigned long long)h.r.stats.backtracks);
    cli_buf_printf(&b, ", \"achieves\": %llu, \"max_depth\": %lu, \"time_us\": %.3f}",
                   (unsigned long long)h.r.stats.achieves, (unsigned long)h.r.stats.max_depth,
                   h.r.stats.time_us >= 0 ? h.r.stats.time_us : 0.0);
    puts(cli_buf_str(&b));
    cli_buf_free(&b);
  } else {
    char num[64];
    printf("%s: %s\n", path, what);
    printf("given: %s\n", given_text && given_text[0] ? given_text : "(the defaults)");
    printf("search: HTN decomposition of task %s\n", goap_htn_domain_task_name(hd, task));
    if (found(h.st)) {
      printf("%s, %d action%s:\n",
             h.st == GOAP_PARTIAL ? "partial plan (it ends at a pause: decomposition resumes "
                                    "from the state reached)"
                                  : "plan found",
             n, n == 1 ? "" : "s");
      int digits = 1;
      for (int k = n; k >= 10; k /= 10) digits++;
      for (int i = 0; i < n; i++) {
        cli_format_number(goap_domain_action_cost(d, h.r.plan[i]), num, sizeof num);
        printf("  %*d. %s  %s\n", digits, i + 1, goap_domain_action_name(d, h.r.plan[i]), num);
      }
      cli_format_number(h.r.cost, num, sizeof num);
      printf("total cost %s\n", num);
      printf("decomposition:\n");
      print_tree(hd, &h);
      printf("method traversal record:");
      for (int i = 0; i < h.r.mtr_length; i++) printf(" %d", (int)h.r.mtr[i]);
      printf("%s\n", h.r.mtr_length ? "" : " (empty)");
    } else {
      printf("no plan: %s (%s)\n", status_text(&h), why_not(&h));
    }
    printf("steps %llu, expansions %llu, backtracks %llu, achieves %llu, max depth %lu, "
           "time %.1f us\n",
           (unsigned long long)h.r.stats.steps, (unsigned long long)h.r.stats.expansions,
           (unsigned long long)h.r.stats.backtracks, (unsigned long long)h.r.stats.achieves,
           (unsigned long)h.r.stats.max_depth, h.r.stats.time_us);
  }
  int rc = exit_for(h.st);
  if (rc == CLI_EXIT_USAGE && !json)
    fprintf(stderr, "goap plan: planning failed: %s\n", goap_status_string(h.st));
  htn_run_free(&h);
  goap_htn_planner_destroy(p);
  return rc;
}

int cli_htn_scenario(const char *path, const goap_file *f, const goap_scenario *s,
                     goap_word *start, const cli_search_opts *opts, int json) {
  const goap_htn_domain *hd = goap_file_htn(f);
  const goap_domain *d = goap_file_domain(f);
  goap_htn_planner *p = NULL;
  if (hd) goap_htn_planner_create(hd, NULL, &p); /* NULL on failure: checked below */
  goap_htn_request q;
  htn_run h;
  cli_buf why, line;
  char num[64], num2[64];
  int ok = 1;
  memset(&h, 0, sizeof h);
  cli_buf_init(&why);
  cli_buf_init(&line);
  goap_state_init(d, start);
  if (!p) {
    cli_buf_printf(&why, "cannot create the HTN planner");
    ok = 0;
    goto report;
  }
  if (goap_state_assign(d, start, s->given, s->given_count) != GOAP_OK) {
    cli_buf_printf(&why, "its given line leaves a variable's range");
    ok = 0;
    goto report;
  }
  request_from_opts(opts, &q);
  q.start = start;
  q.task = s->task;
  run_htn(p, hd, &q, &h);
  int n = found(h.st) ? h.r.plan_length : 0;
  if (found(h.st)) {
    int bad = -1;
    double replay = 0.0;
    if (goap_plan_validate(d, start, NULL, 0, h.r.plan, n, &replay, &bad) != GOAP_OK) {
      ok = 0;
      cli_buf_printf(&why, "the planner's plan is invalid: step %d is not applicable", bad + 1);
    } else if (!cli_cost_equal(replay, h.r.cost)) {
      ok = 0;
      cli_buf_printf(&why, "the planner reported a wrong cost");
    }
  }
  cli_format_number(h.r.cost, num, sizeof num);
  if (s->expect & GOAP_EXPECT_NO_PLAN) {
    if (h.st != GOAP_NO_PLAN) {
      ok = 0;
      if (why.len) cli_buf_printf(&why, "; ");
      if (found(h.st))
        cli_buf_printf(&why, "expected no plan, got cost %s", num);
      else
        cli_buf_printf(&why, "expected no plan, but: %s (%s)", status_text(&h), why_not(&h));
    }
  } else if (!found(h.st)) {
    ok = 0;
    if (why.len) cli_buf_printf(&why, "; ");
    cli_buf_printf(&why, "expected a plan, got %s (%s)",
                   h.st == GOAP_NO_PLAN ? "no plan" : status_text(&h), why_not(&h));
  } else {
    if ((s->expect & GOAP_EXPECT_COST) && !cli_cost_equal(h.r.cost, s->expect_cost)) {
      ok = 0;
      if (why.len) cli_buf_printf(&why, "; ");
      cli_format_number(s->expect_cost, num2, sizeof num2);
      cli_buf_printf(&why, "expected cost %s, got %s", num2, num);
    }
    if (s->expect & GOAP_EXPECT_PLAN) {
      int same = n == s->expect_plan_length;
      for (int i = 0; same && i < n; i++) same = h.r.plan[i] == s->expect_plan[i];
      if (!same) {
        ok = 0;
        if (why.len) cli_buf_printf(&why, "; ");
        cli_buf_printf(&why, "expected plan ");
        if (s->expect_plan_length)
          cli_format_plan(&why, d, s->expect_plan, s->expect_plan_length, " ");
        else
          cli_buf_printf(&why, "(empty)");
        cli_buf_printf(&why, ", got ");
        if (n)
          cli_format_plan(&why, d, h.r.plan, n, " ");
        else
          cli_buf_printf(&why, "(empty)");
      }
    }
  }
report:
  if (ok) {
    if (s->expect & GOAP_EXPECT_NO_PLAN) {
      cli_test_result(json, 1, path, s->line, "scenario", s->name, "(no plan)");
    } else {
      cli_buf_printf(&line, "(task %s, cost %s, %splan ", goap_htn_domain_task_name(hd, s->task),
                     num, h.st == GOAP_PARTIAL ? "partial " : "");
      if (h.r.plan_length)
        cli_format_plan(&line, d, h.r.plan, h.r.plan_length, " ");
      else
        cli_buf_printf(&line, "(empty)");
      cli_buf_printf(&line, ")");
      cli_test_result(json, 1, path, s->line, "scenario", s->name, cli_buf_str(&line));
    }
  } else {
    cli_test_result(json, 0, path, s->line, "scenario", s->name, cli_buf_str(&why));
  }
  cli_buf_free(&why);
  cli_buf_free(&line);
  htn_run_free(&h);
  goap_htn_planner_destroy(p);
  return ok;
}
