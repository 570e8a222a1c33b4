/*
 * cmd_check.c -- `goap check [--strict] FILE...`: loads each file and reports its errors and
 * warnings.
 *
 * Invariants:
 *  - Diagnostics (errors, then warnings, each formatted by goap_error_format) go to stderr;
 *    one summary line per file and a total line go to stdout.
 *  - The loader stops at the first error, so a file has at most one error and, having
 *    failed, no warnings.
 *  - Exit 1 when any file has an error (or, with --strict, a warning); 0 otherwise.
 *  - --json: the same diagnostics, and nothing else, as one JSON object on stdout
 *    (docs/cli.md); nothing on stderr.
 */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

static const char *const check_options[] = {"--strict", "--json", "--help", NULL};

/* One diagnostic as a JSON object; "hint" is the message's "did you mean" part ("" if none). */
static void json_diag(cli_buf *b, const goap_error *d) {
  const char *hint = strstr(d->message, "did you mean");
  cli_buf_printf(b, "{\"severity\": \"%s\", \"file\": ",
                 d->severity == GOAP_SEVERITY_ERROR ? "error" : "warning");
  cli_json_string(b, d->file);
  cli_buf_printf(b, ", \"line\": %d, \"col\": %d, \"message\": ", d->line, d->col);
  cli_json_string(b, d->message);
  cli_buf_printf(b, ", \"hint\": ");
  cli_json_string(b, hint ? hint : "");
  cli_buf_printf(b, ", \"source\": ");
  cli_json_string(b, d->source);
  cli_buf_printf(b, "}");
}

/* The file's names of one kind as a JSON array. */
static void json_names(cli_buf *b, const goap_file *f, int kind) {
  const goap_domain *d = goap_file_domain(f);
  int n = kind == 0 ? goap_file_scenario_count(f) :
          kind == 1 ? goap_file_simulation_count(f) : goap_domain_goal_count(d);
  cli_buf_printf(b, "[");
  for (int i = 0; i < n; i++) {
    const goap_scenario *s = kind == 0 ? goap_file_scenario(f, i) : NULL;
    const char *name = kind == 0 ? (s ? s->name : "") :
                       kind == 1 ? goap_file_simulation_name(f, i) : goap_domain_goal_name(d, i);
    if (i) cli_buf_printf(b, ", ");
    cli_json_string(b, name ? name : "");
  }
  cli_buf_printf(b, "]");
}

/* `check --json` of one file: appends its object to json; adds to *errors and *warnings. */
static void check_file_json(const char *arg, cli_buf *json, int *errors, int *warnings) {
  goap_file *f = NULL;
  goap_error err;
  memset(&err, 0, sizeof err);
  goap_status st = goap_file_load(arg, NULL, &f, &err);
  cli_buf_printf(json, "{\"file\": ");
  cli_json_string(json, arg);
  if (st != GOAP_OK || !f) {
    if (!err.message[0]) {
      snprintf(err.file, sizeof err.file, "%s", arg);
      snprintf(err.message, sizeof err.message, "%s", goap_status_string(st));
    }
    (*errors)++;
    cli_buf_printf(json, ", \"ok\": false, \"errors\": 1, \"warnings\": 0, \"diagnostics\": [");
    json_diag(json, &err);
    cli_buf_printf(json, "]}");
    goap_file_destroy(f);
    return;
  }
  int total = goap_file_warnings(f, NULL, 0);
  goap_error *diags = total > 0 ? malloc((size_t)total * sizeof *diags) : NULL;
  int shown = diags ? goap_file_warnings(f, diags, total) : 0;
  if (shown > total) shown = total;
  cli_buf scen;
  cli_buf_init(&scen);
  int extra = cli_why_check_scenarios(arg, f, &scen); /* cmd_why.c */
  const goap_domain *d = goap_file_domain(f);
  cli_buf_printf(json, ", \"ok\": true, \"errors\": 0, \"warnings\": %d, \"diagnostics\": [",
                 shown + extra);
  for (int i = 0; i < shown; i++) {
    if (i) cli_buf_printf(json, ", ");
    json_diag(json, &diags[i]);
  }
  if (extra) cli_buf_printf(json, "%s%s", shown ? ", " : "", cli_buf_str(&scen));
  cli_buf_printf(json, "], \"domain\": ");
  cli_json_string(json, goap_domain_name(d));
  cli_buf_printf(json, ", \"variables\": %d, \"actions\": %d, \"goals\": ",
                 goap_domain_var_count(d), goap_domain_action_count(d));
  json_names(json, f, 2);
  cli_buf_printf(json, ", \"scenarios\": ");
  json_names(json, f, 0);
  cli_buf_printf(json, ", \"simulations\": ");
  json_names(json, f, 1);
  cli_buf_printf(json, "}");
  cli_buf_free(&scen);
  free(diags);
  *warnings += shown + extra;
  goap_file_destroy(f);
}

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
  goap_error *diags = malloc((size_t)cap * sizeof *diags);
  int total = diags ? goap_file_warnings(f, diags, cap) : 0;
  if (diags && total > cap) {
    goap_error *more = realloc(diags, (size_t)total * sizeof *diags);
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
  total += cli_why_check_scenarios(path, f, NULL); /* cmd_why.c */

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
  int strict = 0, json = 0, nfiles = 0, only_positional = 0;
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
    } else if (strcmp(arg, "--json") == 0) {
      json = 1;
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
  if (json) {
    cli_buf out;
    cli_buf_init(&out);
    cli_buf_printf(&out, "{\"files\": [");
    for (int k = 0; k < nfiles; k++) {
      if (k) cli_buf_printf(&out, ", ");
      check_file_json(files[k], &out, &errors, &warnings);
    }
    free(files);
    printf("%s], \"errors\": %d, \"warnings\": %d}\n", cli_buf_str(&out), errors, warnings);
    cli_buf_free(&out);
    return errors || (strict && warnings) ? CLI_EXIT_FAIL : CLI_EXIT_OK;
  }
  for (int k = 0; k < nfiles; k++) check_file(files[k], &errors, &warnings);
  free(files);
  printf("%d file%s checked: %d error%s, %d warning%s\n", nfiles, nfiles == 1 ? "" : "s",
         errors, errors == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s");
  if (errors || (strict && warnings)) return CLI_EXIT_FAIL;
  return CLI_EXIT_OK;
}
