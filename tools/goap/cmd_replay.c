/*
 * cmd_replay.c -- `goap replay FILE LOG`: plays back a log written by `goap simulate --record`
 * over the domain of FILE and prints the same timeline as the recorded run; reports the first
 * place where the agents decide otherwise (a changed domain) and exits 1.
 *
 * Invariants:
 *  - The timeline is printed by the same printer as `goap simulate` (text or --json), so an
 *    unchanged file gives byte-identical output.
 *  - A log that cannot be read (missing, truncated, corrupted, another domain) is a load
 *    error: a message on stderr, exit status 2, nothing replayed.
 */
#include "cli.h"
#include "goap/replay.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void cli_usage_replay(FILE *out) {
  fputs("usage: goap replay FILE LOG [--json]\n"
        "\n"
        "Plays back LOG, written by `goap simulate FILE SIM --record LOG`, over FILE's domain:\n"
        "the recorded inputs (world changes, action outcomes, timing) stand in for the\n"
        "simulation, and the timeline is printed as `goap simulate` prints it. When FILE was\n"
        "changed since the recording (a cost, a condition, a priority), the replay shows the\n"
        "first decision that differs: its frame, agent, what the log expected and what the\n"
        "agent did.\n"
        "\n"
        "options:\n"
        "  --json             one JSON object per line, as `goap simulate --json`; a\n"
        "                     divergence is a {\"event\": \"divergence\", ...} line\n"
        "\n"
        "exit status: 0 the replay matched the recording (and its expectations hold), 1 it\n"
        "diverged or an `expect` line failed, 2 usage error or a file or log that cannot be\n"
        "loaded\n",
        out);
}

static unsigned char *read_all(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 4096, n = 0;
  unsigned char *buf = (unsigned char *)malloc(cap);
  while (buf) {
    if (n == cap) {
      unsigned char *nb = (unsigned char *)realloc(buf, cap * 2);
      if (!nb) {
        free(buf);
        buf = NULL;
        break;
      }
      buf = nb;
      cap *= 2;
    }
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (got == 0) break;
  }
  if (buf && ferror(f)) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  *len = n;
  return buf;
}

static void print_divergence(const cli_timeline *tl, const goap_replay_divergence *dv,
                             int changed) {
  char num[64];
  const char *who = (const char *)dv->host;
  double t = floor(dv->time * 1e6 + 0.5) / 1e6; /* as the timeline rounds */
  if (tl->json) {
    cli_buf b;
    cli_buf_init(&b);
    cli_format_number(t, num, sizeof num);
    cli_buf_printf(&b, "{\"t\": %s, ", num);
    if (who) {
      cli_buf_printf(&b, "\"agent\": ");
      cli_json_string(&b, who);
      cli_buf_printf(&b, ", ");
    }
    cli_buf_printf(&b, "\"event\": \"divergence\", \"frame\": %llu, \"agent_index\": %d, ",
                   (unsigned long long)dv->frame, dv->agent);
    cli_buf_printf(&b, "\"domain_changed\": %s, \"expected\": ", changed ? "true" : "false");
    cli_json_string(&b, dv->expected);
    cli_buf_printf(&b, ", \"got\": ");
    cli_json_string(&b, dv->got);
    cli_buf_printf(&b, "}");
    printf("%s\n", cli_buf_str(&b));
    cli_buf_free(&b);
    return;
  }
  cli_format_number(t, num, sizeof num);
  printf("replay diverged at frame %llu (t = %s), agent %d%s%s%s:\n",
         (unsigned long long)dv->frame, num, dv->agent, who ? " (" : "", who ? who : "",
         who ? ")" : "");
  printf("  expected: %s\n", dv->expected);
  printf("  got:      %s\n", dv->got);
}

int cli_cmd_replay(int argc, char **argv) {
  static const char *const known[] = {"--json", "--help", NULL};
  const char *path = NULL, *log_path = NULL;
  int json = 0;
  for (int i = 0; i < argc; ++i) {
    if (strcmp(argv[i], "--json") == 0) {
      json = 1;
      continue;
    }
    if (argv[i][0] == '-' && argv[i][1]) return cli_unknown_option("replay", argv[i], known);
    if (!path) path = argv[i];
    else if (!log_path) log_path = argv[i];
    else return cli_usage_error("replay", "unexpected argument '%s'", argv[i]);
  }
  if (!path) return cli_usage_error("replay", "missing FILE");
  if (!log_path) return cli_usage_error("replay", "missing LOG");
  size_t len = 0;
  unsigned char *data = read_all(log_path, &len);
  if (!data) {
    fprintf(stderr, "goap replay: cannot read %s\n", log_path);
    return CLI_EXIT_USAGE;
  }
  goap_file *f = cli_load(path, NULL);
  if (!f) {
    free(data);
    return CLI_EXIT_USAGE;
  }
  goap_replayer_desc rd;
  memset(&rd, 0, sizeof rd);
  rd.domain = goap_file_domain(f);
  rd.log = data;
  rd.size = len;
  goap_replayer *rp = NULL;
  goap_error err;
  goap_status st = goap_replayer_create(&rd, &rp, &err);
  free(data);
  if (st != GOAP_OK) {
    fprintf(stderr, "goap replay: %s: %s (at byte %zu)\n", log_path, err.message, err.offset);
    goap_file_destroy(f);
    return CLI_EXIT_USAGE;
  }
  const char *name = goap_replayer_label(rp);
  int sim = goap_file_find_simulation(f, name);
  if (sim < 0) {
    fprintf(stderr, "goap replay: %s records simulation '%s', which %s does not have\n",
            log_path, name, cli_display_name(path));
    goap_replayer_destroy(rp);
    goap_file_destroy(f);
    return CLI_EXIT_USAGE;
  }
  int changed = goap_replayer_domain_changed(rp);
  cli_timeline tl;
  memset(&tl, 0, sizeof tl);
  tl.d = goap_file_domain(f);
  tl.json = json;
  if (!json) {
    if (changed)
      printf("note: %s changed since the recording (costs, conditions, effects or "
             "priorities)\n",
             cli_display_name(path));
    printf("simulation %s\n", name);
  }
  goap_sim_result res;
  st = cli_simulate_replay(f, sim, &tl, 0, 0, NULL, rp, &res);
  int rc = CLI_EXIT_OK;
  goap_replay_divergence dv;
  if (st == GOAP_CONFLICT && goap_replayer_divergence(rp, &dv)) {
    print_divergence(&tl, &dv, changed);
    rc = CLI_EXIT_FAIL;
  } else if (st != GOAP_OK) {
    fprintf(stderr, "goap replay: %s: %s\n", name, goap_status_string(st));
    rc = CLI_EXIT_USAGE;
  } else {
    cli_timeline_end(&tl, name, &res);
    if (res.failed) rc = CLI_EXIT_FAIL;
  }
  goap_replayer_destroy(rp);
  goap_file_destroy(f);
  return rc;
}
