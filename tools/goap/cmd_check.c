/*
 * cmd_check.c -- `goap check [--strict] FILE...`: loads each file and reports its errors and
 * warnings.
 *
 * Invariants:
 *  - Diagnostics (errors, then warnings, each formatted by goap_diag_format) go to stderr;
 *    one summary line per file and a total line go to stdout.
 *  - The loader stops at the first error, so a file has at most one error and, having
 *    failed, no warnings.
 *  - Exit 1 when any file has an error (or, with --strict, a warning); 0 otherwise.
 */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

static const char *const check_options[] = {"--strict", "--help", NULL};

/* Checks one file; adds to *errors and *warnings. */
static void check_file(const char *arg, int *errors, int *warnings) {
  goap_file *f = cli_load(arg, NULL);
  const char *path = cli_display_name(arg);
  if (!f) {
    (*errors)++;
    printf("%s: 1 error\n", path);
    return;
  }
  int cap = 32;
  goap_diag *diags = malloc((size_t)cap * sizeof *diags);
  int total = diags ? goap_file_warnings(f, diags, cap) : 0;
  if (diags && total > cap) {
    goap_diag *more = realloc(diags, (size_t)total * sizeof *diags);
    if (more) {
      diags = more;
      cap = total;
      total = goap_file_warnings(f, diags, cap);
    }
  }
  int shown = total < cap ? total : cap;
  for (int i = 0; i < shown; i++) cli_print_diag(stderr, &diags[i]);
  if (total > shown)
    fprintf(stderr, "%s: %d more warning%s not shown\n", path, total - shown,
            total - shown == 1 ? "" : "s");
  free(diags);
  total += cli_why_check_scenarios(path, f); /* cmd_why.c */

  const goap_domain *d = goap_file_domain(f);
  printf("%s: ok, %d warning%s (domain %s: %d variable%s, %d action%s, %d goal%s, "
         "%d scenario%s)\n",
         path, total, total == 1 ? "" : "s", goap_domain_name(d), goap_domain_var_count(d),
         goap_domain_var_count(d) == 1 ? "" : "s", goap_domain_action_count(d),
         goap_domain_action_count(d) == 1 ? "" : "s", goap_domain_goal_count(d),
         goap_domain_goal_count(d) == 1 ? "" : "s", goap_file_scenario_count(f),
         goap_file_scenario_count(f) == 1 ? "" : "s");
  *warnings += total;
  goap_file_destroy(f);
}

int cli_cmd_check(int argc, char **argv) {
  static const char cmd[] = "check";
  int strict = 0, nfiles = 0, only_positional = 0;
  const char **files = calloc((size_t)argc + 1, sizeof *files);
  if (!files) return CLI_EXIT_USAGE;
  for (int i = 0; i < argc; i++) {
    const char *arg = argv[i];
    if (only_positional || arg[0] != '-' || strcmp(arg, "-") == 0) {
      files[nfiles++] = arg;
    } else if (strcmp(arg, "--") == 0) {
      only_positional = 1;
    } else if (strcmp(arg, "--strict") == 0) {
      strict = 1;
    } else {
      free(files);
      return cli_unknown_option(cmd, arg, check_options);
    }
  }
  if (nfiles == 0) {
    free(files);
    return cli_usage_error(cmd, "missing FILE");
  }
  int errors = 0, warnings = 0;
  for (int k = 0; k < nfiles; k++) check_file(files[k], &errors, &warnings);
  free(files);
  printf("%d file%s checked: %d error%s, %d warning%s\n", nfiles, nfiles == 1 ? "" : "s",
         errors, errors == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s");
  if (errors || (strict && warnings)) return CLI_EXIT_FAIL;
  return CLI_EXIT_OK;
}
