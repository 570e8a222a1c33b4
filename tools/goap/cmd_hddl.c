/*
 * cmd_hddl.c -- `goap hddl DOMAIN PROBLEM [options]`: plan a total-order HDDL task (the IPC
 * HTN track format) and print the plan in the IPC HTN format.
 *
 * Invariants:
 *  - The plan ("==>", primitive lines, "root ...", decomposition lines, "<==") goes to stdout,
 *    or to the -o file; --stats prints one ';' comment line of search statistics to stderr.
 *  - Load errors are printed as `file:line:col: message` with the line and a caret (exit 2);
 *    no plan or a budget that ran out prints a ';' line on stdout (exit 1).
 */
#include "cli.h"
#include "goap/hddl.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void cli_usage_hddl(FILE *out) {
  fputs("usage: goap hddl DOMAIN PROBLEM [options]\n"
        "\n"
        "Reads a total-order HDDL domain and problem (the IPC HTN track format: PDDL plus\n"
        ":task, :method with ordered subtasks or a total :ordering, the problem's :htn; see\n"
        "docs/hddl.md) and decomposes the initial task network with a lifted depth-first\n"
        "planner under iterative deepening on the decomposition depth. Prints the plan in the\n"
        "IPC HTN format: '==>', one 'ID action args' line per primitive step, 'root IDS', one\n"
        "'ID task args -> method IDS' line per compound task, '<=='.\n"
        "\n"
        "options:\n"
        "  -o, --output FILE  write the plan to FILE instead of standard output\n"
        "  --max-steps N      budget of method and binding tries (default 50000000)\n"
        "  --time-limit MS    time budget in milliseconds (default: none)\n"
        "  --max-depth N      largest decomposition depth bound to try (default: none)\n"
        "  --search S         auto (default: the depth-first searches and the best-first\n"
        "                     progression search in turns), dfs or bfs (one kind only)\n"
        "  --max-nodes N      node cap of the best-first search (default 8388608)\n"
        "  --heuristic H      the best-first search's heuristic: auto (default: rc when its\n"
        "                     grounding fits, else tdg), tdg (decomposition graph bound) or\n"
        "                     rc (relaxed composition, h_add)\n"
        "  --stats            search statistics on stderr (steps, rounds, depth, time)\n"
        "\n"
        "exit status: 0 plan found, 1 no plan or a budget ran out, 2 usage or load error\n",
        out);
}

static const char *const hddl_options[] = {"-o", "--output", "--max-steps", "--time-limit",
                                           "--max-depth", "--search", "--max-nodes", "--heuristic", "--stats", "--help", NULL};

static int parse_u64(const char *cmd, const char *opt, const char *v, uint64_t max,
                     uint64_t *out) {
  char *end = NULL;
  errno = 0;
  unsigned long long x = strtoull(v, &end, 10);
  if (!v[0] || v[0] == '-' || !end || *end || errno || x == 0 || x > max)
    return cli_usage_error(cmd, "%s needs a positive integer, not '%s'", opt, v);
  *out = (uint64_t)x;
  return 0;
}

int cli_cmd_hddl(int argc, char **argv) {
  static const char cmd[] = "hddl";
  const char *domain = NULL, *problem = NULL, *out = NULL;
  int stats = 0, npos = 0, only_positional = 0;
  goap_hddl_options ho;
  memset(&ho, 0, sizeof ho);
  for (int i = 0; i < argc; i++) {
    const char *arg = argv[i], *v = NULL;
    int r;
    uint64_t x = 0;
    if (only_positional || arg[0] != '-' || strcmp(arg, "-") == 0) {
      if (npos == 0) domain = arg;
      else if (npos == 1) problem = arg;
      else return cli_usage_error(cmd, "unexpected argument '%s' (DOMAIN and PROBLEM expected)", arg);
      npos++;
      continue;
    }
    if (strcmp(arg, "--") == 0) {
      only_positional = 1;
      continue;
    }
    if (strcmp(arg, "--stats") == 0) {
      stats = 1;
      continue;
    }
    if (strcmp(arg, "-o") == 0) {
      if (i + 1 >= argc) return cli_usage_error(cmd, "-o needs a file name");
      out = argv[++i];
      continue;
    }
    if ((r = cli_opt_value(cmd, argc, argv, &i, "--output", &v)) < 0) return CLI_EXIT_USAGE;
    if (r > 0) {
      out = v;
      continue;
    }
    if ((r = cli_opt_value(cmd, argc, argv, &i, "--max-steps", &v)) < 0) return CLI_EXIT_USAGE;
    if (r > 0) {
      if (parse_u64(cmd, "--max-steps", v, UINT64_MAX, &ho.max_steps)) return CLI_EXIT_USAGE;
      continue;
    }
    if ((r = cli_opt_value(cmd, argc, argv, &i, "--time-limit", &v)) < 0) return CLI_EXIT_USAGE;
    if (r > 0) {
      if (parse_u64(cmd, "--time-limit", v, 1000000000000ull, &x)) return CLI_EXIT_USAGE;
      ho.max_ms = (double)x;
      continue;
    }
    if ((r = cli_opt_value(cmd, argc, argv, &i, "--max-depth", &v)) < 0) return CLI_EXIT_USAGE;
    if (r > 0) {
      if (parse_u64(cmd, "--max-depth", v, 1000000000ull, &x)) return CLI_EXIT_USAGE;
      ho.max_depth = (int)x;
      continue;
    }
    if ((r = cli_opt_value(cmd, argc, argv, &i, "--max-nodes", &v)) < 0) return CLI_EXIT_USAGE;
    if (r > 0) {
      if (parse_u64(cmd, "--max-nodes", v, UINT64_MAX, &ho.max_nodes)) return CLI_EXIT_USAGE;
      continue;
    }
    if ((r = cli_opt_value(cmd, argc, argv, &i, "--heuristic", &v)) < 0) return CLI_EXIT_USAGE;
    if (r > 0) {
      if (strcmp(v, "auto") == 0) ho.heuristic = GOAP_HDDL_H_AUTO;
      else if (strcmp(v, "tdg") == 0) ho.heuristic = GOAP_HDDL_H_TDG;
      else if (strcmp(v, "rc") == 0) ho.heuristic = GOAP_HDDL_H_RC;
      else return cli_usage_error(cmd, "--heuristic needs auto, tdg or rc, not '%s'", v);
      continue;
    }
    if ((r = cli_opt_value(cmd, argc, argv, &i, "--search", &v)) < 0) return CLI_EXIT_USAGE;
    if (r > 0) {
      if (strcmp(v, "auto") == 0) ho.search = GOAP_HDDL_SEARCH_AUTO;
      else if (strcmp(v, "dfs") == 0) ho.search = GOAP_HDDL_SEARCH_DFS;
      else if (strcmp(v, "bfs") == 0) ho.search = GOAP_HDDL_SEARCH_BFS;
      else return cli_usage_error(cmd, "--search needs auto, dfs or bfs, not '%s'", v);
      continue;
    }
    return cli_unknown_option(cmd, arg, hddl_options);
  }
  if (!domain || !problem) return cli_usage_error(cmd, "DOMAIN and PROBLEM files expected");

  goap_pddl_options po;
  memset(&po, 0, sizeof po);
  po.flags = GOAP_PDDL_HTN;
  goap_error err;
  goap_pddl_task *task = NULL;
  goap_status st = goap_pddl_load(domain, problem, &po, &task, &err);
  if (st != GOAP_OK) {
    if (err.message[0] && err.line > 0) cli_print_diag(stderr, &err);
    else if (err.message[0])
      fprintf(stderr, "%s%serror: %s\n", err.file, err.file[0] ? ": " : "", err.message);
    else fprintf(stderr, "goap: error: %s\n", goap_status_string(st));
    return CLI_EXIT_USAGE;
  }
  if (!goap_hddl_is_htn(task)) {
    fprintf(stderr, "%s: error: the problem has no ':htn' (initial task network) to decompose\n",
            problem);
    goap_pddl_destroy(task);
    return CLI_EXIT_USAGE;
  }
  goap_hddl_plan *plan = NULL;
  goap_hddl_stats s;
  st = goap_hddl_solve(task, &ho, &plan, &s);
  int rc = CLI_EXIT_OK;
  if (st == GOAP_OK) {
    size_t n = goap_hddl_plan_write(task, plan, NULL, 0);
    char *text = (char *)malloc(n + 1);
    if (!text) {
      fputs("goap hddl: out of memory\n", stderr);
      rc = CLI_EXIT_USAGE;
    } else {
      goap_hddl_plan_write(task, plan, text, n + 1);
      FILE *f = out ? fopen(out, "w") : stdout;
      if (!f || fputs(text, f) < 0 || (out && fclose(f) != 0)) {
        fprintf(stderr, "goap hddl: cannot write '%s'\n", out ? out : "<stdout>");
        rc = CLI_EXIT_USAGE;
      }
      free(text);
    }
  } else if (st == GOAP_NO_PLAN) {
    printf("; no plan: no decomposition of the task network is executable and reaches the :goal\n");
    rc = CLI_EXIT_FAIL;
  } else if (st == GOAP_NODE_LIMIT || st == GOAP_TIME_LIMIT || st == GOAP_TOO_LARGE ||
             st == GOAP_MEMORY_LIMIT) {
    printf("; no plan: %s%s\n", goap_status_string(st),
           st == GOAP_TOO_LARGE     ? " (the --max-depth bound cut the search)"
           : st == GOAP_MEMORY_LIMIT ? " (the best-first search's node cap, --max-nodes)"
                                     : "");
    rc = CLI_EXIT_FAIL;
  } else {
    fprintf(stderr, "goap hddl: planning failed: %s\n", goap_status_string(st));
    rc = CLI_EXIT_USAGE;
  }
  char h0[24];
  if (s.bfs_h0 == UINT32_MAX) snprintf(h0, sizeof h0, "dead end");
  else snprintf(h0, sizeof h0, "%lu", (unsigned long)s.bfs_h0);
  if (stats)
    fprintf(stderr, "; %s %s: %s, %d step%s in the plan, %llu decomposition step%s, "
                    "%d round%s, depth bound %d, %llu best-first node%s, found by %s, heuristic %s (h %s, "
                    "%llu RC operator%s), %.1f ms\n",
            goap_pddl_domain_name(task), goap_pddl_problem_name(task), goap_status_name(st),
            goap_hddl_plan_length(plan), goap_hddl_plan_length(plan) == 1 ? "" : "s",
            (unsigned long long)s.steps, s.steps == 1 ? "" : "s", s.rounds,
            s.rounds == 1 ? "" : "s", s.depth, (unsigned long long)s.bfs_nodes,
            s.bfs_nodes == 1 ? "" : "s",
            s.search == GOAP_HDDL_SEARCH_BFS   ? "best-first"
            : s.search == GOAP_HDDL_SEARCH_DFS ? "depth-first"
                                               : "none",
            s.heuristic == GOAP_HDDL_H_RC ? "rc" : s.heuristic == GOAP_HDDL_H_TDG ? "tdg" : "none",
            h0, (unsigned long long)s.rc_ops, s.rc_ops == 1 ? "" : "s", s.ms);
  goap_hddl_plan_destroy(plan);
  goap_pddl_destroy(task);
  return rc;
}
