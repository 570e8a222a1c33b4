/*
 * cmd_verify_htn.c -- `goap verify-htn DOMAIN PROBLEM PLAN`: checks a total-order HTN plan in
 * the IPC format (`==>` ... `root` ... `<==`) against an HDDL domain and problem with
 * goap_hddl_verify, independently of the planner.
 *
 * Invariants:
 *  - Prints exactly one result line on stdout: "valid: N primitive steps, M decompositions" or
 *    "invalid: PLAN:LINE:COL: message" (or "invalid: message" without a position); with --json
 *    one JSON object instead.
 *  - Exit status as `goap validate`: 0 valid, 1 invalid, 2 bad command line, a domain or
 *    problem that cannot be loaded, a plan file that cannot be read or is malformed (its
 *    diagnostic, with the line and a caret, on stderr).
 */
#include "cli.h"
#include "goap/hddl.h"
#include "goap/pddl.h"

#include <stdlib.h>
#include <string.h>

void cli_usage_verify_htn(FILE *out) {
  fputs("usage: goap verify-htn [--json] DOMAIN PROBLEM PLAN\n"
        "\n"
        "Checks a total-order HTN plan in the IPC format ('==>', one 'ID action ARGS' line per\n"
        "primitive step in execution order, 'root IDS', one 'ID task ARGS -> method IDS' line per\n"
        "decomposition, '<=='; pandaPI's '__top -> __top_method' root is accepted) against an\n"
        "HDDL domain and problem, independently of the planner: names, arities and types; the\n"
        "decomposition lines form a tree whose roots are the problem's task network in order;\n"
        "each method decomposes its task with its subtasks in its order under one consistent\n"
        "binding; the tree's primitives are the plan's steps in the same order; the steps\n"
        "execute from :init; each method's preconditions hold before its first step; the goal\n"
        "(if any) holds at the end (docs/hddl.md).\n"
        "Prints 'valid: N primitive steps, M decompositions' or 'invalid: PLAN:LINE:COL: why'.\n"
        "  --json             {\"valid\", \"primitives\", \"decompositions\", \"line\", \"col\",\n"
        "                     \"message\"}\n"
        "\n"
        "exit status: 0 valid, 1 invalid, 2 usage error, a file that cannot be loaded or read,\n"
        "             or a malformed plan text\n",
        out);
}

static char *read_file(const char *path, size_t *len) {
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

static void print_error(const goap_error *err, goap_status st) {
  if (err->message[0] && err->line > 0)
    cli_print_diag(stderr, err);
  else if (err->message[0])
    fprintf(stderr, "%s%serror: %s\n", err->file, err->file[0] ? ": " : "", err->message);
  else
    fprintf(stderr, "goap: error: %s\n", goap_status_string(st));
}

int cli_cmd_verify_htn(int argc, char **argv) {
  static const char cmd[] = "verify-htn";
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
  goap_pddl_options opt;
  memset(&opt, 0, sizeof opt);
  opt.flags = GOAP_PDDL_HTN;
  goap_error err;
  goap_pddl_task *task = NULL;
  goap_status st = goap_pddl_load(files[0], files[1], &opt, &task, &err);
  if (st != GOAP_OK) {
    print_error(&err, st);
    return CLI_EXIT_USAGE;
  }
  if (!goap_hddl_is_htn(task)) {
    fprintf(stderr, "%s: error: the problem has no initial task network (:htn)\n", files[1]);
    goap_pddl_destroy(task);
    return CLI_EXIT_USAGE;
  }
  size_t len = 0;
  char *text = read_file(files[2], &len);
  if (!text) {
    fprintf(stderr, "%s: error: cannot read the file\n", files[2]);
    goap_pddl_destroy(task);
    return CLI_EXIT_USAGE;
  }
  goap_hddl_report rep;
  st = goap_hddl_verify(task, files[2], text, len, &rep, &err);
  free(text);
  int rc;
  if (st != GOAP_OK) {
    print_error(&err, st);
    rc = CLI_EXIT_USAGE;
  } else {
    if (json) {
      cli_buf b;
      cli_buf_init(&b);
      cli_buf_printf(&b, "{\"valid\": %s, \"primitives\": %d, \"decompositions\": %d, \"line\": %d, \"col\": %d, \"message\": ",
                     rep.valid ? "true" : "false", rep.primitives, rep.compounds, rep.line, rep.col);
      cli_json_string(&b, rep.message);
      cli_buf_printf(&b, "}");
      puts(cli_buf_str(&b));
      cli_buf_free(&b);
    } else if (rep.valid) {
      printf("valid: %d primitive step%s, %d decomposition%s\n", rep.primitives,
             rep.primitives == 1 ? "" : "s", rep.compounds, rep.compounds == 1 ? "" : "s");
    } else if (rep.line > 0) {
      printf("invalid: %s:%d:%d: %s\n", files[2], rep.line, rep.col, rep.message);
    } else {
      printf("invalid: %s\n", rep.message);
    }
    rc = rep.valid ? CLI_EXIT_OK : CLI_EXIT_FAIL;
  }
  goap_pddl_destroy(task);
  return rc;
}
