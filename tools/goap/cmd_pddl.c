/*
 * cmd_pddl.c -- `goap pddl DOMAIN PROBLEM [options]` (plan a PDDL task and print the plan in
 * the IPC format) and `goap validate DOMAIN PROBLEM PLAN` (check a plan independently of the
 * planner).
 *
 * Invariants:
 *  - `pddl` prints the plan (one `(action arg ...)` line per step, then `; cost = N (unit
 *    cost|general cost)`) on stdout, statistics on stderr as `;` comment lines; with --json one
 *    JSON object on one line on stdout instead, whatever the planner's status.
 *  - Without --search/--heuristic, `pddl` plans optimally: A* with LM-cut when the library has
 *    it (goap_heuristic_from_name("lmcut") >= 0), else A* with the default admissible heuristic.
 *    A* with LM-cut is lazy (GOAP_REQUEST_LAZY) unless --eager. With LM-cut and without
 *    --portfolio off it runs beside blind A* (portfolio.h; a second planner on its own
 *    allocator): the plan printed is the one found with the least counted work, never
 *    decided by timing (except when --max-ms cuts the decision short).
 *  - Forward searches use the task's symmetries (goap_pddl_symmetry, orbit search through
 *    goap_request.symmetry) unless --no-symmetry, and strong stubborn sets
 *    (GOAP_REQUEST_STUBBORN) unless --no-stubborn; BACKWARD ignores both.
 *  - `validate` never uses the grounding or the planner: goap_pddl_validate simulates the
 *    lifted actions (the task is loaded with GOAP_PDDL_PARSE_ONLY).
 *  - Both commands allocate the task and the planner from one huge-page allocator
 *    (hugepage_alloc.h) that lives as long as the command; it is released before returning.
 */
#define _POSIX_C_SOURCE 200809L
#include "hugepage_alloc.h"
#include "cli.h"
#include "portfolio.h"
#include "goap/pddl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Costs are sums of integers in practice: print them as integers when they are. */
static void format_cost(double c, char *buf, size_t cap) {
  if (c == floor(c) && fabs(c) < 9e15)
    snprintf(buf, cap, "%.0f", c);
  else
    cli_format_number(c, buf, cap);
}

static void print_load_error(const goap_error *err, goap_status st) {
  if (err->message[0] && err->line > 0) {
    cli_print_diag(stderr, err);
  } else if (err->message[0]) {
    fprintf(stderr, "%s%serror: %s\n", err->file, err->file[0] ? ": " : "", err->message);
  } else {
    fprintf(stderr, "goap: error: %s\n", goap_status_string(st));
  }
}

/* ---- goap pddl -------------------------------------------------------------------------- */

typedef struct pddl_args {
  const char *domain, *problem, *out;
  int json, heuristic_given, search_given, eager, no_symmetry, no_stubborn;
  int portfolio_given;
  cli_portfolio_mode portfolio;
  cli_search_opts opts;
} pddl_args;

static const char *const pddl_options[] = {"--search", "--heuristic", "--max-nodes", "--max-ms",
                                           "--json", "-o", "--output", "--help", "--preferred",
                                           "--lazy", "--eager", "--no-symmetry",
                                           "--no-stubborn", "--portfolio", NULL};

static int parse_pddl_args(int argc, char **argv, pddl_args *a) {
  static const char cmd[] = "pddl";
  memset(a, 0, sizeof *a);
  a->portfolio = CLI_PORTFOLIO_THREADS;
  cli_search_opts_init(&a->opts);
  int only_positional = 0, npos = 0;
  for (int i = 0; i < argc; i++) {
    const char *arg = argv[i];
    const char *v = NULL;
    int r;
    if (only_positional || arg[0] != '-') {
      if (npos == 0) a->domain = arg;
      else if (npos == 1) a->problem = arg;
      else return cli_usage_error(cmd, "unexpected argument '%s' (DOMAIN and PROBLEM expected)", arg);
      npos++;
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
    if (strcmp(arg, "--eager") == 0) {
      a->eager = 1;
      continue;
    }
    if (strcmp(arg, "--no-symmetry") == 0) {
      a->no_symmetry = 1;
      continue;
    }
    if (strcmp(arg, "--no-stubborn") == 0) {
      a->no_stubborn = 1;
      continue;
    }
    if (strcmp(arg, "-o") == 0) {
      if (i + 1 >= argc) return cli_usage_error(cmd, "-o needs a file name");
      a->out = argv[++i];
      continue;
    }
#define VALUE_OPT(NAME)                                                                     \
  if ((r = cli_opt_value(cmd, argc, argv, &i, NAME, &v)) < 0) return CLI_EXIT_USAGE;        \
  if (r > 0)
    VALUE_OPT("--output") {
      a->out = v;
      continue;
    }
    VALUE_OPT("--portfolio") {
      if (strcmp(v, "threads") == 0) a->portfolio = CLI_PORTFOLIO_THREADS;
      else if (strcmp(v, "serial") == 0) a->portfolio = CLI_PORTFOLIO_SERIAL;
      else if (strcmp(v, "off") == 0) a->portfolio = CLI_PORTFOLIO_OFF;
      else return cli_usage_error(cmd, "--portfolio: 'threads', 'serial' or 'off' expected, not '%s'", v);
      a->portfolio_given = 1;
      continue;
    }
    if ((r = cli_search_option(cmd, argc, argv, &i, &a->opts)) < 0) return CLI_EXIT_USAGE;
    if (r == 1) a->search_given = 1;
    if (r == 2) a->heuristic_given = 1;
    if (r > 0) continue;
#undef VALUE_OPT
    return cli_unknown_option(cmd, arg, pddl_options);
  }
  if (!a->domain || !a->problem) return cli_usage_error(cmd, "DOMAIN and PROBLEM files expected");
  /* the portfolio (portfolio.h) runs with the default optimal search only: A* with LM-cut
   * beside blind A* */
  if (a->portfolio != CLI_PORTFOLIO_OFF && (a->heuristic_given || a->search_given)) {
    if (a->portfolio_given)
      return cli_usage_error(cmd, "--portfolio runs the default search: not with --search or --heuristic");
    a->portfolio = CLI_PORTFOLIO_OFF;
  }
  if (!a->heuristic_given) {
    int lm = goap_heuristic_from_name("lmcut");
    if (lm >= 0) a->opts.heuristic = (goap_heuristic)lm;
    else a->portfolio = CLI_PORTFOLIO_OFF;
  }
  /* A* with LM-cut evaluates lazily unless --eager: the same optimal costs with fewer
   * evaluations (bench/README.md, "Lazy A*") */
  if (!a->eager && a->opts.search == GOAP_SEARCH_ASTAR && a->opts.heuristic == GOAP_H_LMCUT)
    a->opts.flags |= GOAP_REQUEST_LAZY;
  if (a->eager) a->opts.flags &= ~(unsigned)GOAP_REQUEST_LAZY;
  /* partial-order pruning (strong stubborn sets) unless --no-stubborn; BACKWARD ignores it */
  if (!a->no_stubborn) a->opts.flags |= GOAP_REQUEST_STUBBORN;
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

static void write_plan(FILE *f, const goap_pddl_task *t, const int32_t *plan, int n, double cost) {
  char buf[1024], num[64];
  for (int i = 0; i < n; i++) {
    size_t len = goap_pddl_format_action(t, plan[i], buf, sizeof buf);
    if (len >= sizeof buf) {
      char *big = malloc(len + 1);
      if (!big) continue;
      goap_pddl_format_action(t, plan[i], big, len + 1);
      fprintf(f, "%s\n", big);
      free(big);
    } else {
      fprintf(f, "%s\n", buf);
    }
  }
  format_cost(cost, num, sizeof num);
  fprintf(f, "; cost = %s (%s)\n", num, goap_pddl_has_costs(t) ? "general cost" : "unit cost");
}

/* A* with LM-cut (runner 0, the request as given) beside blind A* (runner 1: the same request
 * with the heuristic ZERO, eager), each with its own planner and allocator (portfolio.h).
 * Work units: LM-cut counts PF_LM_EVAL per evaluation and 1 per generated state, blind
 * search 1 per generated state (about the CPU time of each on the IPC tasks: an LM-cut
 * evaluation costs 5-60 generated states of blind search, 10-30 on most; bench/README.md,
 * "Issue 18, item 4: the portfolio").
 * The winner's result goes to *pl, its search to cfg, a `; portfolio` line to pfline. */
#define PF_LM_EVAL 16u
static goap_status run_portfolio(const pddl_args *a, const goap_domain *d, goap_planner *planner,
                                 const goap_request *req, cli_plan *pl, char *cfg, size_t cfg_cap,
                                 char *pfline, size_t pf_cap, int *winner, uint64_t *win_work) {
  cli_hugepage hp2;
  cli_hugepage_init(&hp2);
  goap_planner_desc pdesc;
  memset(&pdesc, 0, sizeof pdesc);
  pdesc.allocator = cli_hugepage_allocator(&hp2);
  if (a->opts.max_nodes > 4194304u) pdesc.max_nodes = a->opts.max_nodes;
  goap_planner *blind = NULL;
  goap_planner_create(d, &pdesc, &blind);
  cli_search_opts bo = a->opts;
  bo.heuristic = GOAP_H_ZERO;
  bo.flags &= ~(unsigned)GOAP_REQUEST_LAZY;
  cli_portfolio_runner run[2];
  memset(run, 0, sizeof run);
  run[0].planner = planner;
  run[0].req = *req;
  run[0].w_generated = 1;
  run[0].w_evaluated = PF_LM_EVAL;
  run[0].slice = 8;
  run[1].planner = blind;
  run[1].req = *req;
  run[1].req.heuristic = GOAP_H_ZERO;
  /* no stubborn sets for the blind runner: its work units count generated states only, and a
   * stubborn set costs far more than a blind expansion where many actions interfere (elevators
   * p06: 9.9 s of CPU to the node limit with them, 1.8 s without), while on the tasks blind
   * search wins (barman) they prune nothing */
  run[1].req.flags &= ~(unsigned)(GOAP_REQUEST_LAZY | GOAP_REQUEST_STUBBORN);
  run[1].w_generated = 1;
  run[1].slice = 256;
  /* test hook: GOAP_PORTFOLIO_DELAY_US=lmcut:US or blind:US slows one runner down (a sleep
   * after each slice), to show that timing does not change the winner */
  const char *delay = getenv("GOAP_PORTFOLIO_DELAY_US");
  if (delay && strncmp(delay, "lmcut:", 6) == 0) run[0].delay_us = (uint32_t)strtoul(delay + 6, NULL, 10);
  if (delay && strncmp(delay, "blind:", 6) == 0) run[1].delay_us = (uint32_t)strtoul(delay + 6, NULL, 10);
  /* test hook: GOAP_PORTFOLIO_WEIGHTS=L:B multiplies LM-cut's work units by L, blind's by B */
  const char *wts = getenv("GOAP_PORTFOLIO_WEIGHTS");
  if (wts) {
    char *end = NULL;
    unsigned long wl = strtoul(wts, &end, 10), wb = end && *end == ':' ? strtoul(end + 1, NULL, 10) : 0;
    if (wl > 0 && wb > 0 && wl <= 1000000ul && wb <= 1000000ul) {
      run[0].scale = (uint32_t)wl;
      run[1].scale = (uint32_t)wb;
    }
  }
  cli_plan_init(&run[0].plan);
  cli_plan_init(&run[1].plan);
  double t0 = cli_portfolio_now_ms();
  int n = blind ? 2 : 1;
  /* test hook: GOAP_PORTFOLIO_WARMUP=N units run serially before the thread starts */
  const char *warm = getenv("GOAP_PORTFOLIO_WARMUP");
  uint64_t warmup = warm ? (uint64_t)strtoull(warm, NULL, 10) : CLI_PORTFOLIO_WARMUP;
  int win = cli_portfolio_run(run, n, a->portfolio, a->opts.max_ms > 0 ? t0 + a->opts.max_ms : 0,
                              warmup);
  double t1 = cli_portfolio_now_ms();
  int w = win < 0 ? 0 : win;
  *winner = win;
  *win_work = run[w].work;
  goap_status st = run[w].status;
  cli_plan_free(pl);
  *pl = run[w].plan;
  cli_plan_init(&run[w].plan);
  pl->result.stats.time_us = (t1 - t0) * 1000.0; /* the portfolio's wall time */
  cli_plan_free(&run[0].plan);
  cli_plan_free(&run[1].plan);
  cli_describe_search(w == 0 ? &a->opts : &bo, cfg, cfg_cap);
  static const char *const names[2] = {"lmcut", "blind"};
  if (n == 1) {
    snprintf(pfline, pf_cap, "; portfolio %s: lmcut only (no planner for blind search)",
             a->portfolio == CLI_PORTFOLIO_SERIAL ? "serial" : "threads");
  } else {
    snprintf(pfline, pf_cap,
             "; portfolio %s: %s %s at %llu work units (%llu expanded, cpu %.1f ms); %s %s at "
             "%llu (%llu expanded, cpu %.1f ms)",
             a->portfolio == CLI_PORTFOLIO_SERIAL ? "serial" : "threads", names[w],
             win < 0 ? "stopped" : "won", (unsigned long long)run[w].work,
             (unsigned long long)run[w].expanded, run[w].cpu_ms, names[1 - w],
             run[1 - w].lost ? "lost" : goap_status_name(run[1 - w].status),
             (unsigned long long)run[1 - w].work, (unsigned long long)run[1 - w].expanded,
             run[1 - w].cpu_ms);
  }
  goap_planner_destroy(blind);
  cli_hugepage_fini(&hp2);
  return st;
}

int cli_cmd_pddl(int argc, char **argv) {
  pddl_args a;
  int rc = parse_pddl_args(argc, argv, &a);
  if (rc) return rc;

  /* one allocator for the task and the planner: a short run faults in a huge page or two
   * instead of hundreds of 4 KB pages (hugepage_alloc.h) */
  cli_hugepage hp;
  cli_hugepage_init(&hp);
  goap_pddl_options lopt;
  memset(&lopt, 0, sizeof lopt);
  lopt.allocator = cli_hugepage_allocator(&hp);
  goap_error err;
  goap_pddl_task *task = NULL;
  double t0 = now_ms();
  goap_status st = goap_pddl_load(a.domain, a.problem, &lopt, &task, &err);
  double t1 = now_ms();
  if (st != GOAP_OK) {
    print_load_error(&err, st);
    cli_hugepage_fini(&hp);
    return CLI_EXIT_USAGE;
  }
  const goap_domain *d = goap_pddl_domain(task);
  goap_pddl_info info;
  goap_pddl_get_info(task, &info);

  /* a node budget above the planner's default capacity raises the capacity too */
  goap_planner_desc pdesc;
  memset(&pdesc, 0, sizeof pdesc);
  pdesc.allocator = lopt.allocator;
  if (a.opts.max_nodes > 4194304u) pdesc.max_nodes = a.opts.max_nodes;
  goap_planner *planner = NULL;
  goap_planner_create(d, &pdesc, &planner); /* NULL on failure: checked below */
  cli_plan pl;
  cli_plan_init(&pl);
  if (!planner) {
    fputs("goap pddl: cannot create the planner (out of memory)\n", stderr);
    goap_pddl_destroy(task);
    cli_hugepage_fini(&hp);
    return CLI_EXIT_USAGE;
  }
  goap_request req;
  cli_request_from_opts(&a.opts, &req);
  req.start = goap_pddl_start(task);
  req.want = goap_pddl_goal(task, &req.want_count);
  /* orbit search over the task's interchangeable objects (forward searches only) */
  const goap_symmetry *sym = NULL;
  int sym_members = 0;
  if (!a.no_symmetry && a.opts.search != GOAP_SEARCH_BACKWARD) {
    goap_status ss = goap_pddl_symmetry(task, &sym);
    if (ss != GOAP_OK) {
      fprintf(stderr, "goap pddl: cannot compute the symmetries: %s\n", goap_status_string(ss));
      sym = NULL;
    }
    for (int i = 0; sym && i < sym->class_count; i++) sym_members += sym->classes[i].members;
    req.symmetry = sym;
  }
  char cfg[160], num[64], pfline[256];
  pfline[0] = 0;
  int pf_winner = -1;
  uint64_t pf_work = 0;
  if (a.portfolio == CLI_PORTFOLIO_OFF) {
    st = cli_run_plan(planner, &req, &pl);
    cli_describe_search(&a.opts, cfg, sizeof cfg);
  } else {
    st = run_portfolio(&a, d, planner, &req, &pl, cfg, sizeof cfg, pfline, sizeof pfline, &pf_winner,
                       &pf_work);
  }
  pl.result.status = st;
  const goap_result *r = &pl.result;
  int n = cli_plan_length(&pl);

  if (st == GOAP_OK && a.out) {
    FILE *f = fopen(a.out, "w");
    if (!f) {
      fprintf(stderr, "goap pddl: cannot write '%s'\n", a.out);
      rc = CLI_EXIT_USAGE;
      goto done;
    }
    write_plan(f, task, r->plan, n, r->cost);
    if (fclose(f) != 0) {
      fprintf(stderr, "goap pddl: cannot write '%s'\n", a.out);
      rc = CLI_EXIT_USAGE;
      goto done;
    }
  }
  if (a.json) {
    cli_buf b;
    cli_buf_init(&b);
    cli_buf_printf(&b, "{\"status\": ");
    cli_json_string(&b, st == GOAP_OK ? "found" : goap_status_name(st));
    format_cost(st == GOAP_OK ? r->cost : 0.0, num, sizeof num);
    cli_buf_printf(&b, ", \"cost\": %s, \"unit_cost\": %s, \"optimal\": %s, \"plan\": [", num,
                   goap_pddl_has_costs(task) ? "false" : "true",
                   goap_config_is_optimal(a.opts.search, a.opts.heuristic) ? "true" : "false");
    for (int i = 0; st == GOAP_OK && i < n; i++) {
      char buf[1024];
      goap_pddl_format_action(task, r->plan[i], buf, sizeof buf);
      if (i) cli_buf_printf(&b, ", ");
      cli_json_string(&b, buf);
    }
    cli_buf_printf(&b, "], \"search\": ");
    cli_json_string(&b, cfg);
    cli_buf_printf(&b,
                   ", \"expanded\": %llu, \"generated\": %llu, \"nodes\": %lu, \"search_ms\": %.3f"
                   ", \"ground_ms\": %.3f, \"atoms\": %d, \"static_atoms\": %d, \"variables\": %d"
                   ", \"actions\": %d, \"symmetry_classes\": %d, \"symmetry_members\": %d"
                   ", \"symmetry_generators\": %d, \"portfolio\": ",
                   (unsigned long long)r->stats.expanded, (unsigned long long)r->stats.generated,
                   (unsigned long)r->stats.nodes, r->stats.time_us / 1000.0, t1 - t0,
                   info.reachable_atoms, info.static_atoms, info.variables, info.ground_actions,
                   sym ? sym->class_count : 0, sym_members, sym ? sym->generator_count : 0);
    static const char *const modes[3] = {"off", "threads", "serial"};
    static const char *const winners[3] = {"none", "lmcut", "blind"};
    cli_json_string(&b, modes[a.portfolio]);
    cli_buf_printf(&b, ", \"portfolio_winner\": ");
    cli_json_string(&b, a.portfolio == CLI_PORTFOLIO_OFF ? "off" : winners[pf_winner + 1]);
    cli_buf_printf(&b, ", \"portfolio_work\": %llu}", (unsigned long long)pf_work);
    puts(cli_buf_str(&b));
    cli_buf_free(&b);
  } else {
    if (st == GOAP_OK) write_plan(stdout, task, r->plan, n, r->cost);
    else if (st == GOAP_NO_PLAN) printf("; no plan: the goal cannot be reached\n");
    else printf("; no plan: %s\n", goap_status_string(st));
    fprintf(stderr, "; %s %s: %d atom%s reachable (%d static, dropped), %d variable%s, "
                    "%d action%s, loaded and grounded in %.1f ms\n",
            goap_pddl_domain_name(task), goap_pddl_problem_name(task), info.reachable_atoms,
            info.reachable_atoms == 1 ? "" : "s", info.static_atoms, info.variables,
            info.variables == 1 ? "" : "s", info.ground_actions,
            info.ground_actions == 1 ? "" : "s", t1 - t0);
    fprintf(stderr, "; search %s%s: expanded %llu, generated %llu, evaluated %llu, nodes %lu, "
                    "%.1f ms\n", cfg,
            goap_config_is_optimal(a.opts.search, a.opts.heuristic) ? " (optimal)" : "",
            (unsigned long long)r->stats.expanded, (unsigned long long)r->stats.generated,
            (unsigned long long)r->stats.evaluated, (unsigned long)r->stats.nodes,
            r->stats.time_us / 1000.0);
    if (pfline[0]) fprintf(stderr, "%s\n", pfline);
    if (sym && sym->generator_count > 0)
      fprintf(stderr, "; symmetry: %d class%s (%d member%s), %d generator%s\n",
              sym->class_count, sym->class_count == 1 ? "" : "es", sym_members,
              sym_members == 1 ? "" : "s", sym->generator_count,
              sym->generator_count == 1 ? "" : "s");
    else if (sym)
      fprintf(stderr, "; symmetry: %d class%s (%d member%s)\n", sym->class_count,
              sym->class_count == 1 ? "" : "es", sym_members, sym_members == 1 ? "" : "s");
    else
      fprintf(stderr, "; symmetry: %s\n", a.no_symmetry ? "off (--no-symmetry)"
                                       : a.opts.search == GOAP_SEARCH_BACKWARD ? "off (backward search)"
                                                                             : "none found");
  }
  rc = status_exit(st);
  if (rc == CLI_EXIT_USAGE && !a.json)
    fprintf(stderr, "goap pddl: planning failed: %s\n", goap_status_string(st));
done:
  goap_planner_destroy(planner);
  cli_plan_free(&pl);
  goap_pddl_destroy(task);
  cli_hugepage_fini(&hp);
  return rc;
}

/* ---- goap validate -------------------------------------------------------------------- */

static char *read_all(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 65536, n = 0;
  char *buf = malloc(cap);
  while (buf) {
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (n < cap) break;
    if (cap > (size_t)GOAP_PDDL_MAX_BYTES) break;
    char *nb = realloc(buf, cap * 2);
    if (!nb) {
      free(buf);
      buf = NULL;
      break;
    }
    buf = nb;
    cap *= 2;
  }
  int bad = ferror(f);
  fclose(f);
  if (bad) {
    free(buf);
    return NULL;
  }
  *len = n;
  return buf;
}

int cli_cmd_validate(int argc, char **argv) {
  static const char cmd[] = "validate";
  const char *files[3];
  int nfiles = 0, json = 0;
  for (int i = 0; i < argc; i++) {
    if (strcmp(argv[i], "--json") == 0) {
      json = 1;
      continue;
    }
    if (argv[i][0] == '-' && argv[i][1]) {
      static const char *const known[] = {"--json", "--help", NULL};
      return cli_unknown_option(cmd, argv[i], known);
    }
    if (nfiles == 3) return cli_usage_error(cmd, "unexpected argument '%s'", argv[i]);
    files[nfiles++] = argv[i];
  }
  if (nfiles != 3) return cli_usage_error(cmd, "DOMAIN, PROBLEM and PLAN files expected");
  cli_hugepage hp;
  cli_hugepage_init(&hp);
  goap_pddl_options opt;
  memset(&opt, 0, sizeof opt);
  opt.flags = GOAP_PDDL_PARSE_ONLY;
  opt.allocator = cli_hugepage_allocator(&hp);
  goap_error err;
  goap_pddl_task *task = NULL;
  goap_status st = goap_pddl_load(files[0], files[1], &opt, &task, &err);
  if (st != GOAP_OK) {
    print_load_error(&err, st);
    cli_hugepage_fini(&hp);
    return CLI_EXIT_USAGE;
  }
  size_t len = 0;
  char *text = read_all(files[2], &len);
  if (!text) {
    fprintf(stderr, "%s: error: cannot read the file\n", files[2]);
    goap_pddl_destroy(task);
    cli_hugepage_fini(&hp);
    return CLI_EXIT_USAGE;
  }
  goap_pddl_report rep;
  st = goap_pddl_validate(task, files[2], text, len, &rep, &err);
  free(text);
  int rc;
  char num[64];
  if (st != GOAP_OK) {
    print_load_error(&err, st);
    rc = CLI_EXIT_USAGE;
  } else {
    format_cost(rep.cost, num, sizeof num);
    if (json) {
      cli_buf b;
      cli_buf_init(&b);
      cli_buf_printf(&b, "{\"valid\": %s, \"steps\": %d, \"cost\": %s, \"bad_step\": %d, \"line\": %d, \"message\": ",
                     rep.valid ? "true" : "false", rep.steps, num,
                     rep.bad_step >= 0 ? rep.bad_step + 1 : 0, rep.line);
      cli_json_string(&b, rep.message);
      cli_buf_printf(&b, "}");
      puts(cli_buf_str(&b));
      cli_buf_free(&b);
    } else if (rep.valid) {
      printf("plan valid, cost %s (%d step%s)\n", num, rep.steps, rep.steps == 1 ? "" : "s");
    } else if (rep.line > 0) {
      printf("plan invalid: %s:%d:%d: %s\n", files[2], rep.line, rep.col, rep.message);
    } else {
      printf("plan invalid: %s\n", rep.message);
    }
    rc = rep.valid ? CLI_EXIT_OK : CLI_EXIT_FAIL;
  }
  goap_pddl_destroy(task);
  cli_hugepage_fini(&hp);
  return rc;
}
