/*
 * main.c -- entry point of the `goap` command-line tool: dispatches to the subcommands and
 * prints the usage texts.
 *
 * Invariants:
 *  - The exit status is always one of CLI_EXIT_OK / CLI_EXIT_FAIL / CLI_EXIT_USAGE.
 *  - `--help` output goes to stdout (exit 0); usage errors go to stderr (exit 2).
 */
#include "cli.h"

#include <string.h>

void cli_usage_main(FILE *out) {
  fputs("usage: goap <command> [options] [FILE...]\n"
        "\n"
        "Goal-oriented action planning over .goap domain files.\n"
        "\n"
        "commands:\n"
        "  plan FILE (--scenario S | --goal G | --want CONDS | --task T) [options]\n"
        "                     find a plan and print it with its cost and search statistics\n"
        "  test FILE...       run every scenario's expectations; 'N passed, M failed'\n"
        "  check FILE...      report errors and warnings (unreachable actions and goals,\n"
        "                     unused variables)\n"
        "  simulate FILE [SIM...]\n"
        "                     run simulation blocks: the agent's timeline of goals, plans,\n"
        "                     actions, failures and replans\n"
        "  replay FILE LOG    play a log of `simulate --record` back; where it diverges\n"
        "  demo [squad]       the live soldier-and-door scene, or the squad flank (no file\n"
        "                     needed)\n"
        "  pddl DOMAIN PROBLEM [options]\n"
        "                     plan a PDDL task; print the plan in the IPC format\n"
        "  hddl DOMAIN PROBLEM [options]\n"
        "                     plan a total-order HDDL (HTN) task; print the IPC HTN plan\n"
        "  validate DOMAIN PROBLEM PLAN\n"
        "                     check an IPC-format plan against a PDDL task\n"
        "  verify-htn DOMAIN PROBLEM PLAN\n"
        "                     check an IPC-format HTN plan against an HDDL task\n"
        "  trace FILE (--scenario S | --goal G | --want CONDS) [--json F] [--dot F] [--html F]\n"
        "                     record the search: JSON, a Graphviz tree, an HTML debugger\n"
        "  why FILE (--scenario S | --goal G | --want CONDS)\n"
        "                     explain: why no plan, or what each first action would cost\n"
        "  help [COMMAND]     this text, or a command's options\n"
        "\n"
        "options:\n"
        "  -h, --help         show help (also after a command: goap plan --help)\n"
        "  --version          print the version\n"
        "FILE may be '-' to read standard input.\n"
        "\n"
        "exit status: 0 success, 1 no plan / search limit / failed test / errors found,\n"
        "             2 usage error or a file that cannot be loaded\n",
        out);
}

void cli_usage_plan(FILE *out) {
  fputs("usage: goap plan FILE (--scenario S | --goal G | --want CONDS | --task T) [options]\n"
        "\n"
        "Plans from the domain's default state (changed by the scenario's `given` line and\n"
        "--given) to the goal, and prints the numbered plan with each action's cost, the total\n"
        "and the search statistics.\n"
        "\n"
        "what to reach (exactly one):\n"
        "  --scenario S       a scenario of FILE: its start state and its goal\n"
        "  --goal G           a goal of FILE (its `want` conditions)\n"
        "  --want CONDS       conditions, as on a `want` line: 'target_dead, ammo >= 2'\n"
        "  --task T           an HTN task of FILE: decompose it (see docs/htn.md); prints the\n"
        "                     plan, the decomposition tree and the method traversal record;\n"
        "                     --max-nodes is then the decomposition step budget (default\n"
        "                     10000000) and --search/--heuristic apply to `achieve` subgoals\n"
        "options:\n"
        "  --given EFFS       start-state overrides, as on a `given` line: 'door_stuck, ammo = 3'\n"
        "                     (applied after the scenario's own `given`)\n"
        "  --search S         astar (default), backward, wastar[:W] (W >= 1, default 2), greedy\n"
        "  --heuristic H      default, zero, goal-count, goal-count-adm, hmax, hadd, hff,\n"
        "                     lmcut\n"
        "  --preferred        greedy/wastar with hff: preferred operators (the successors by\n"
        "                     actions of the relaxed plan also go to a boosted second list)\n"
        "  --lazy             deferred evaluation (a state's h is computed when it is taken\n"
        "                     out; greedy/wastar queue it with its parent's h, astar with the\n"
        "                     admissible bound h(parent) - cost: still optimal); not backward\n"
        "  --max-nodes N      node budget: the most search nodes (states) to store (0: the\n"
        "                     planner's capacity); when it runs out the best partial plan\n"
        "                     is printed and the status is node_limit\n"
        "  --max-ms T         time budget in milliseconds (0: none); status time_limit\n"
        "  --json             print one JSON object on one line:\n"
        "                     {\"status\", \"partial\", \"cost\", \"plan\", \"expanded\",\n"
        "                      \"generated\", \"duplicates\", \"nodes\", \"time_us\"}\n"
        "\n"
        "exit status: 0 plan found, 1 no plan or a budget ran out, 2 usage or load error\n",
        out);
}

void cli_usage_test(FILE *out) {
  fputs("usage: goap test [--search S] [--heuristic H] [--max-nodes N] [--max-ms T] [--json]\n"
        "                 FILE...\n"
        "\n"
        "Runs every scenario of every FILE and checks its expectations:\n"
        "  expect cost C      the plan's cost equals C (relative tolerance 1e-9)\n"
        "  expect plan a b c  the plan is exactly this action sequence\n"
        "  expect no plan     the goal is unreachable\n"
        "A scenario without expectations passes when a plan exists. Every plan found is also\n"
        "replayed (goap_plan_validate) and must reach the goal.\n"
        "Prints one PASS/FAIL line per scenario and a final 'N passed, M failed'.\n"
        "\n"
        "options:\n"
        "  --search S, --heuristic H   plan under another configuration (see goap plan --help);\n"
        "                     a non-optimal one may find costlier plans and fail `expect cost`,\n"
        "                     and among plans of equal cost another one may be found\n"
        "  --preferred, --lazy         search options (see goap plan --help)\n"
        "  --max-nodes N, --max-ms T   budgets per scenario; a scenario whose search runs out\n"
        "                     fails\n"
        "  --json             one JSON object per result line: {\"file\", \"kind\", \"name\",\n"
        "                     \"line\", \"pass\", \"detail\"}; last {\"passed\", \"failed\"}\n"
        "\n"
        "exit status: 0 all passed, 1 a scenario failed, 2 usage error or a file not loaded\n",
        out);
}

void cli_usage_check(FILE *out) {
  fputs("usage: goap check [--strict] [--json] FILE...\n"
        "\n"
        "Loads each FILE and reports its errors and warnings with their positions\n"
        "(file:line:col, the source line and a caret) on stderr, then a summary on stdout.\n"
        "Warnings: an action whose preconditions cannot be reached from the default state\n"
        "(even ignoring delete effects), a variable nothing reads or writes, a goal no action\n"
        "sequence can reach.\n"
        "\n"
        "options:\n"
        "  --strict           warnings fail the check too\n"
        "  --json             the diagnostics and each file's outline as one JSON object\n"
        "                     on stdout, nothing on stderr (docs/cli.md)\n"
        "\n"
        "exit status: 0 no errors (warnings allowed unless --strict), 1 errors (or warnings\n"
        "with --strict), 2 usage error\n",
        out);
}

void cli_usage_demo(FILE *out) {
  fputs("usage: goap demo [squad]\n"
        "\n"
        "goap demo: the lecture's live door scene from the built-in copy of\n"
        "examples/soldier.goap: the soldier plans, the world defeats his actions, he writes\n"
        "what he learnt into memory (door stuck, kick failed, armory empty) and replans from\n"
        "where he stands; then the plans he would make knowing each lesson in advance.\n"
        "goap demo squad: the squad flank from the built-in copy of examples/squad.goap.\n"
        "Needs no file on disk.\n"
        "\n"
        "exit status: 0 everything went as the files expect, 1 otherwise\n",
        out);
}

void cli_usage_pddl(FILE *out) {
  fputs("usage: goap pddl DOMAIN PROBLEM [options]\n"
        "\n"
        "Reads a STRIPS PDDL domain and problem (:typing, :negative-preconditions, :equality,\n"
        ":action-costs; see docs/pddl.md), grounds them and plans. Prints the plan in the IPC\n"
        "format, one '(action arg ...)' line per step, then '; cost = N (unit cost)' or\n"
        "'; cost = N (general cost)'; grounding and search statistics go to stderr.\n"
        "Default: an optimal search (A* with LM-cut when available, lazy, else A* with the\n"
        "default admissible heuristic).\n"
        "\n"
        "options:\n"
        "  --search S         astar (default), backward, wastar[:W], greedy\n"
        "  --heuristic H      a heuristic name (see goap plan --help)\n"
        "  --preferred, --lazy  search options (see goap plan --help)\n"        "  --eager            A* with LM-cut: evaluate every generated state (the default is\n"
        "                     --lazy there: the same optimal costs, fewer evaluations)\n"
        "  --max-nodes N      node budget; --max-ms T  time budget in milliseconds\n"
        "  --no-symmetry      do not use the task's interchangeable objects (by default the\n"
        "                     forward searches use them: orbit search, see docs/pddl.md)\n"
        "  --no-stubborn      expand every successor (by default the forward searches prune\n"
        "                     with strong stubborn sets: partial-order reduction, optimal\n"
        "                     costs kept; see docs/pddl.md)\n"
        "  --portfolio M      threads (default), serial or off: the default search runs A* with\n"
        "                     LM-cut beside blind A*, each counting its work; the plan is the\n"
        "                     one found with the least work, whatever the timing (docs/pddl.md)\n"
        "  -o, --output FILE  also write the plan (and its cost line) to FILE\n"
        "  --json             one JSON object on one line: {\"status\", \"cost\", \"unit_cost\",\n"
        "                     \"optimal\", \"plan\", \"search\", \"expanded\", \"generated\",\n"
        "                     \"nodes\", \"search_ms\", \"ground_ms\", \"atoms\", \"static_atoms\",\n"
        "                     \"variables\", \"actions\", \"symmetry_classes\",\n"
        "                     \"symmetry_members\", \"symmetry_generators\", \"portfolio\",\n"
        "                     \"portfolio_winner\", \"portfolio_work\"}\n"
        "\n"
        "exit status: 0 plan found, 1 no plan or a budget ran out, 2 usage or load error\n",
        out);
}

void cli_usage_validate(FILE *out) {
  fputs("usage: goap validate [--json] DOMAIN PROBLEM PLAN\n"
        "\n"
        "Checks an IPC-format plan (one '(action arg ...)' per line, ';' comments) by simulating\n"
        "the PDDL actions on sets of ground atoms, independently of the planner: every step\n"
        "must be applicable (the first failing precondition is named), the goal must hold at\n"
        "the end. Prints 'plan valid, cost N (K steps)' or 'plan invalid: PLAN:LINE:COL: why'.\n"
        "  --json             {\"valid\", \"steps\", \"cost\", \"bad_step\" (1-based, 0 if\n"
        "                     none), \"line\", \"message\"}\n"
        "\n"
        "exit status: 0 valid, 1 invalid, 2 usage error or a file that cannot be loaded\n",
        out);
}

void cli_usage_trace(FILE *out) {
  fputs("usage: goap trace FILE (--scenario S | --goal G | --want CONDS) [options]\n"
        "\n"
        "Plans as `goap plan` does while recording every node the search generates and\n"
        "expands (docs/trace.md), and writes the trace:\n"
        "  --json OUT         the raw trace (domain, nodes with states, events in order)\n"
        "  --dot OUT          the search tree for Graphviz: boxes are states with g and h,\n"
        "                     dashed ones were generated but not expanded, green is the plan\n"
        "  --html OUT         one self-contained HTML debugger: step through the search, the\n"
        "                     open list at each step, the plan, each node's state\n"
        "  --given ASSIGNS, --search S, --heuristic H, --max-nodes N, --max-ms MS\n"
        "                     as for goap plan\n"
        "Prints a summary (status, node counts, files written).\n"
        "\n"
        "exit status: 0 plan found, 1 no plan or a budget ran out, 2 usage or load error\n",
        out);
}

void cli_usage_why(FILE *out) {
  fputs("usage: goap why FILE (--scenario S | --goal G | --want CONDS) [--given ASSIGNS]\n"
        "                [--max-nodes N]\n"
        "\n"
        "Explains a planning result (docs/trace.md). Without a plan: the goal conditions no\n"
        "action sequence can reach even ignoring deletions (relaxed reachability), and for\n"
        "each the actions that could achieve it and their preconditions that fail, back to the\n"
        "start state. With a plan: for each action applicable at the start, the cheapest plan\n"
        "that begins with it and its cost, cheapest first.\n"
        "\n"
        "options:\n"
        "  --given ASSIGNS    start-state overrides, as for goap plan (repeatable)\n"
        "  --max-nodes N      node budget of each search (see goap plan --help)\n"
        "\n"
        "exit status: 0 a plan exists, 1 no plan, 2 usage or load error\n",
        out);
}

/* The one command table: dispatch, `goap help CMD`, the unknown-command list and its "did you
 * mean" all read it (`help` itself is handled in main()); tests/cli/run.sh compares the list
 * with the commands `goap help` shows. */
typedef struct command {
  const char *name;
  int (*run)(int argc, char **argv);
  void (*usage)(FILE *out);
} command;

static const command commands[] = {
    {"plan", cli_cmd_plan, cli_usage_plan},
    {"test", cli_cmd_test, cli_usage_test},
    {"check", cli_cmd_check, cli_usage_check},
    {"demo", cli_cmd_demo, cli_usage_demo},
    {"simulate", cli_cmd_simulate, cli_usage_simulate},
    {"pddl", cli_cmd_pddl, cli_usage_pddl},
    {"validate", cli_cmd_validate, cli_usage_validate},
    {"hddl", cli_cmd_hddl, cli_usage_hddl},
    {"verify-htn", cli_cmd_verify_htn, cli_usage_verify_htn},
    {"trace", cli_cmd_trace, cli_usage_trace},
    {"why", cli_cmd_why, cli_usage_why},
    {"replay", cli_cmd_replay, cli_usage_replay},
};
#define COMMAND_COUNT (sizeof commands / sizeof commands[0])

static const command *find_command(const char *name) {
  for (size_t i = 0; i < COMMAND_COUNT; i++)
    if (strcmp(commands[i].name, name) == 0) return &commands[i];
  return NULL;
}

/* "unknown command 'X' (did you mean 'Y'?)", else the list: every command of the table, and
 * help. */
static int unknown_command(const char *name) {
  const char *names[COMMAND_COUNT + 2];
  for (size_t i = 0; i < COMMAND_COUNT; i++) names[i] = commands[i].name;
  names[COMMAND_COUNT] = "help";
  names[COMMAND_COUNT + 1] = NULL;
  const char *s = cli_suggest(name, names);
  if (s) {
    fprintf(stderr, "goap: unknown command '%s' (did you mean '%s'?)\n", name, s);
  } else {
    fprintf(stderr, "goap: unknown command '%s' (expected ", name);
    for (size_t i = 0; i <= COMMAND_COUNT; i++)
      fprintf(stderr, "%s%s", i == 0 ? "" : i == COMMAND_COUNT ? " or " : ", ", names[i]);
    fputs(")\n", stderr);
  }
  fputs("Try 'goap --help'.\n", stderr);
  return CLI_EXIT_USAGE;
}

static int print_version(void) {
  printf("goap %s (libgoap %s)\n", GOAP_VERSION_STRING, goap_version());
  return CLI_EXIT_OK;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    cli_usage_main(stderr);
    return CLI_EXIT_USAGE;
  }
  const char *name = argv[1];
  if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 || strcmp(name, "help") == 0) {
    if (argc > 3) return cli_usage_error(NULL, "help takes at most one command name");
    if (argc == 3 && (strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0 ||
                      strcmp(argv[2], "help") == 0)) {
      cli_usage_main(stdout); /* goap help --help, goap help help */
      return CLI_EXIT_OK;
    }
    if (argc == 3) {
      const command *c = find_command(argv[2]);
      if (!c) return unknown_command(argv[2]);
      c->usage(stdout);
      return CLI_EXIT_OK;
    }
    cli_usage_main(stdout);
    return CLI_EXIT_OK;
  }
  if (strcmp(name, "--version") == 0 || strcmp(name, "version") == 0) {
    if (argc > 2) return cli_usage_error(NULL, "--version takes no arguments");
    return print_version();
  }
  if (name[0] == '-') {
    static const char *const known[] = {"--help", "--version", NULL};
    return cli_unknown_option(NULL, name, known);
  }
  const command *c = find_command(name);
  if (!c) return unknown_command(name);
  for (int i = 2; i < argc; i++) {
    if (strcmp(argv[i], "--") == 0) break;
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      c->usage(stdout);
      return CLI_EXIT_OK;
    }
  }
  return c->run(argc - 2, argv + 2);
}
