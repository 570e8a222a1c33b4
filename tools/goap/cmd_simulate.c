/*
 * cmd_simulate.c -- `goap simulate FILE [SIM...]`: runs `simulation` blocks and prints the
 * agent's timeline (or JSON lines), and the timeline printer the demo shares.
 *
 * Invariants:
 *  - Every event of the runtime is printed, in order, with the simulated time; the JSON form
 *    has exactly one object per line and a final {"event": "end", ...} line per simulation.
 *  - The exit status is 1 when an `expect` line of a simulation fails.
 */
#include "cli.h"
#include "goap/replay.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A variable's value as text: true/false, an enum value's name, or the integer. */
static void value_text(const goap_domain *d, int var, int32_t v, char *buf, size_t cap) {
  const char *name = goap_domain_value_name(d, var, v);
  if (name) snprintf(buf, cap, "%s", name);
  else snprintf(buf, cap, "%ld", (long)v);
}

static void json_value(cli_buf *b, const goap_domain *d, int var, int32_t v) {
  goap_var_info vi;
  goap_domain_var_info(d, var, &vi);
  if (vi.type == GOAP_BOOL) cli_buf_printf(b, "%s", v ? "true" : "false");
  else if (vi.type == GOAP_ENUM) cli_json_string(b, goap_domain_value_name(d, var, v));
  else cli_buf_printf(b, "%ld", (long)v);
}

static const char *var_name(const goap_domain *d, int var) {
  goap_var_info vi;
  if (goap_domain_var_info(d, var, &vi) != GOAP_OK) return "?";
  return vi.name;
}

/* Simulated times are sums of steps: print them rounded to the microsecond. */
static double tidy(double t) { return floor(t * 1e6 + 0.5) / 1e6; }

void cli_timeline_event(cli_timeline *tl, goap_agent *agent, const goap_agent_event *ev) {
  const goap_domain *d = tl->d;
  const char *who = agent ? (const char *)goap_agent_host(agent) : NULL;
  char num[64], t[96];
  cli_format_number(tidy(ev->time), num, sizeof num);
  if (who) snprintf(t, sizeof t, "%6.2f  %-12s", tidy(ev->time), who);
  else snprintf(t, sizeof t, "%6.2f", tidy(ev->time));
  const char *goal = ev->goal >= 0 ? goap_domain_goal_name(d, ev->goal) : NULL;
  int root = -1; /* an HTN agent: its plans are for its root task */
  const goap_htn_domain *htn = agent ? goap_agent_type_htn(goap_agent_get_type(agent), &root) : NULL;
  if (!goal && htn) goal = goap_htn_domain_task_name(htn, root);
  const char *act = ev->action >= 0 ? goap_domain_action_name(d, ev->action) : NULL;
  if (tl->json || tl->html) {
    cli_buf b;
    cli_buf_init(&b);
    cli_buf_printf(&b, "{\"t\": %s, ", num);
    if (who) {
      cli_buf_printf(&b, "\"agent\": ");
      cli_json_string(&b, who);
      cli_buf_printf(&b, ", ");
    }
    cli_buf_printf(&b, "\"event\": ");
    switch (ev->kind) {
      case GOAP_EVENT_REPLAN:
        cli_buf_printf(&b, "\"replan\", \"reason\": \"%s\"", goap_replan_reason_name(ev->reason));
        break;
      case GOAP_EVENT_GOAL:
        cli_format_number(ev->priority, num, sizeof num);
        cli_buf_printf(&b, "\"goal\", \"goal\": ");
        cli_json_string(&b, goal);
        cli_buf_printf(&b, ", \"priority\": %s", num);
        break;
      case GOAP_EVENT_PLAN:
        cli_format_number(ev->cost, num, sizeof num);
        cli_buf_printf(&b, "\"plan\", \"goal\": ");
        cli_json_string(&b, goal);
        cli_buf_printf(&b, ", \"cost\": %s, \"cached\": %s, \"plan\": [", num,
                       ev->cached ? "true" : "false");
        for (int i = 0; i < ev->plan_length; ++i) {
          if (i) cli_buf_printf(&b, ", ");
          cli_json_string(&b, goap_domain_action_name(d, ev->plan[i]));
        }
        cli_buf_printf(&b, "]");
        break;
      case GOAP_EVENT_PLAN_FAILED:
        cli_buf_printf(&b, "\"no_plan\", \"goal\": ");
        cli_json_string(&b, goal);
        cli_buf_printf(&b, ", \"status\": \"%s\"", goap_status_name(ev->status));
        break;
      case GOAP_EVENT_REPAIR:
        cli_format_number(ev->cost, num, sizeof num);
        cli_buf_printf(&b, "\"repair\", \"skipped\": %d, \"cost\": %s, \"plan\": [", ev->skipped,
                       num);
        for (int i = 0; i < ev->plan_length; ++i) {
          if (i) cli_buf_printf(&b, ", ");
          cli_json_string(&b, goap_domain_action_name(d, ev->plan[i]));
        }
        cli_buf_printf(&b, "]");
        break;
      case GOAP_EVENT_ACTION_START:
      case GOAP_EVENT_ACTION_SUCCESS:
      case GOAP_EVENT_ACTION_FAILURE:
      case GOAP_EVENT_ACTION_STOP: {
        static const char *const k[] = {"start", "success", "failure", "stop"};
        cli_buf_printf(&b, "\"%s\", \"action\": ",
                       k[ev->kind - GOAP_EVENT_ACTION_START]);
        cli_json_string(&b, act);
        if (ev->kind == GOAP_EVENT_ACTION_FAILURE)
          cli_buf_printf(&b, ", \"timeout\": %s", ev->timeout ? "true" : "false");
        break;
      }
      case GOAP_EVENT_MEMORY:
        cli_buf_printf(&b, "\"memory\", \"var\": ");
        cli_json_string(&b, var_name(d, ev->var));
        cli_buf_printf(&b, ", \"value\": ");
        json_value(&b, d, ev->var, ev->value);
        break;
      case GOAP_EVENT_GOAL_DONE:
        cli_buf_printf(&b, "\"goal_done\", \"goal\": ");
        cli_json_string(&b, goal);
        break;
      case GOAP_EVENT_IDLE: cli_buf_printf(&b, "\"idle\""); break;
      case GOAP_EVENT_RESERVATION_DENIED:
        cli_buf_printf(&b, "\"reservation_denied\", \"action\": ");
        cli_json_string(&b, act);
        cli_buf_printf(&b, ", \"resource\": ");
        cli_json_string(&b, ev->resource);
        break;
    }
    cli_buf_printf(&b, "}");
    if (tl->html) cli_sim_html_event(tl->html, agent, ev, cli_buf_str(&b));
    if (tl->json) printf("%s\n", cli_buf_str(&b));
    cli_buf_free(&b);
    if (tl->json) return;
  }
  char v[64];
  switch (ev->kind) {
    case GOAP_EVENT_REPLAN:
      if (ev->reason == GOAP_REPLAN_START) break;
      printf("%s  replan: %s\n", t,
             ev->reason == GOAP_REPLAN_PLAN_DONE       ? "the plan is finished"
             : ev->reason == GOAP_REPLAN_ACTION_FAILED ? "the action failed"
             : ev->reason == GOAP_REPLAN_TIMEOUT       ? "the action timed out"
             : ev->reason == GOAP_REPLAN_PRECONDITIONS ? "the next action's preconditions broke"
             : ev->reason == GOAP_REPLAN_WATCH         ? "a watched variable changed"
             : ev->reason == GOAP_REPLAN_BETTER_GOAL   ? "a more important goal is valid"
             : ev->reason == GOAP_REPLAN_GOAL_INVALID  ? "the goal is no longer valid"
                                                       : goap_replan_reason_name(ev->reason));
      break;
    case GOAP_EVENT_GOAL: break;
    case GOAP_EVENT_PLAN: {
      cli_buf b;
      cli_buf_init(&b);
      cli_format_plan(&b, d, ev->plan, ev->plan_length, ", ");
      cli_format_number(ev->cost, num, sizeof num);
      printf("%s  plan for %s%s (cost %s%s): %s\n", t, goal,
             htn && ev->reason == GOAP_REPLAN_NONE ? ", continued after a pause" : "", num,
             ev->cached ? ", cached" : "", ev->plan_length ? cli_buf_str(&b) : "(nothing to do)");
      cli_buf_free(&b);
      break;
    }
    case GOAP_EVENT_PLAN_FAILED:
      printf("%s  no plan for %s (%s)\n", t, goal, goap_status_string(ev->status));
      break;
    case GOAP_EVENT_REPAIR:
      printf("%s  plan repaired: %d step%s already done, skipped\n", t, ev->skipped,
             ev->skipped == 1 ? "" : "s");
      break;
    case GOAP_EVENT_ACTION_START: printf("%s    %s ...\n", t, act); break;
    case GOAP_EVENT_ACTION_SUCCESS: printf("%s    %s succeeded\n", t, act); break;
    case GOAP_EVENT_ACTION_FAILURE:
      printf("%s    %s %s\n", t, act, ev->timeout ? "TIMED OUT" : "FAILED");
      break;
    case GOAP_EVENT_ACTION_STOP: printf("%s    %s interrupted\n", t, act); break;
    case GOAP_EVENT_MEMORY:
      value_text(d, ev->var, ev->value, v, sizeof v);
      printf("%s      memory: %s = %s\n", t, var_name(d, ev->var), v);
      break;
    case GOAP_EVENT_GOAL_DONE:
      printf(htn ? "%s  task %s done\n" : "%s  goal %s achieved\n", t, goal);
      break;
    case GOAP_EVENT_IDLE: printf("%s  nothing left to do\n", t); break;
    case GOAP_EVENT_RESERVATION_DENIED:
      printf("%s  %s refused: %s is taken; planning without it\n", t, act, ev->resource);
      break;
  }
}

void cli_timeline_world(cli_timeline *tl, int var, int32_t value, double time) {
  char num[64], v[64];
  if (tl->json || tl->html) {
    cli_buf b;
    cli_buf_init(&b);
    cli_format_number(tidy(time), num, sizeof num);
    cli_buf_printf(&b, "{\"t\": %s, \"event\": \"world\", \"var\": ", num);
    cli_json_string(&b, var_name(tl->d, var));
    cli_buf_printf(&b, ", \"value\": ");
    json_value(&b, tl->d, var, value);
    cli_buf_printf(&b, "}");
    if (tl->html) cli_sim_html_event(tl->html, NULL, NULL, cli_buf_str(&b));
    if (tl->json) printf("%s\n", cli_buf_str(&b));
    cli_buf_free(&b);
    if (tl->json) return;
  }
  value_text(tl->d, var, value, v, sizeof v);
  printf("%6.2f  world: %s = %s\n", tidy(time), var_name(tl->d, var), v);
}

static void on_event(goap_agent *agent, const goap_agent_event *ev, void *user) {
  cli_timeline_event((cli_timeline *)user, agent, ev);
}

static void on_world(int var, int32_t old_value, int32_t value, double time, void *user) {
  (void)old_value;
  cli_timeline_world((cli_timeline *)user, var, value, time);
}

goap_status cli_simulate(const goap_file *f, int sim, cli_timeline *tl, double until,
                         double step, goap_sim_result *res) {
  return cli_simulate_replay(f, sim, tl, until, step, NULL, NULL, res);
}

goap_status cli_simulate_replay(const goap_file *f, int sim, cli_timeline *tl, double until,
                                double step, struct goap_recorder *rec,
                                struct goap_replayer *rp, goap_sim_result *res) {
  goap_sim_options o;
  memset(&o, 0, sizeof o);
  o.on_event = on_event;
  o.event_user = tl;
  o.on_world = on_world;
  o.world_user = tl;
  o.until = until;
  o.step = step;
  o.recorder = rec;
  o.replayer = rp;
  return goap_file_simulate(f, sim, &o, res);
}

void cli_timeline_end(cli_timeline *tl, const char *name, const goap_sim_result *r) {
  char num[64];
  cli_format_number(tidy(r->time), num, sizeof num);
  if (tl->json || tl->html) {
    cli_buf b;
    cli_buf_init(&b);
    cli_buf_printf(&b, "{\"t\": %s, \"event\": \"end\", \"simulation\": ", num);
    cli_json_string(&b, name);
    cli_buf_printf(&b,
                   ", \"idle\": %s, \"plans\": %llu, \"replans\": %d, \"actions_started\": %llu, "
                   "\"actions_failed\": %llu, \"expectations\": %d, \"failed\": %d}",
                   r->idle ? "true" : "false", (unsigned long long)r->stats.plans, r->replans,
                   (unsigned long long)r->stats.actions_started,
                   (unsigned long long)r->stats.actions_failed, r->expectations, r->failed);
    if (tl->html) cli_sim_html_end(tl->html, cli_buf_str(&b));
    if (tl->json) printf("%s\n", cli_buf_str(&b));
    cli_buf_free(&b);
    if (tl->json) return;
  }
  printf("%6.2f  end (%s): %llu plan%s, %d replan%s, %llu action%s failed\n", tidy(r->time),
         r->idle ? "nothing left to do" : "time is up", (unsigned long long)r->stats.plans,
         r->stats.plans == 1 ? "" : "s", r->replans, r->replans == 1 ? "" : "s",
         (unsigned long long)r->stats.actions_failed, r->stats.actions_failed == 1 ? "" : "s");
  if (r->expectations) {
    if (r->failed && tl->path && r->line)
      printf("        FAIL: %s:%d:%d: %s\n", tl->path, r->line, r->col, r->message);
    else if (r->failed)
      printf("        FAIL: %s\n", r->message);
    else printf("        expectations: %d passed\n", r->expectations);
  }
}

static int write_log(void *user, const void *data, size_t size) {
  return fwrite(data, 1, size, (FILE *)user) == size ? 0 : 1;
}

void cli_usage_simulate(FILE *out) {
  fputs("usage: goap simulate FILE [SIM...] [options]\n"
        "\n"
        "Runs the file's `simulation` blocks (all of them, or those named): one agent with\n"
        "every action and goal of the file in a scripted world, and prints its timeline: the\n"
        "goal chosen, each plan and its cost, actions started, succeeded and failed, memory\n"
        "written, and each replan with its reason.\n"
        "\n"
        "options:\n"
        "  --json             one JSON object per line (\"t\", \"event\", ...), ending with\n"
        "                     an \"end\" line per simulation\n"
        "  --until T          stop at T seconds (default: the simulation's `until`, or 60)\n"
        "  --step T           seconds per update (default: the simulation's `step`, or 0.1)\n"
        "  --html OUT.html    also write the timeline as one self-contained page where each\n"
        "                     searched plan opens its search tree (see docs/trace.md)\n"
        "  --record LOG       also record the run's inputs into the replay log LOG (one\n"
        "                     simulation only); `goap replay FILE LOG` plays it back\n"
        "\n"
        "exit status: 0 when every `expect` line holds, 1 otherwise, 2 usage or load errors\n",
        out);
}

int cli_cmd_simulate(int argc, char **argv) {
  static const char *const known[] = {"--json", "--until", "--step", "--html", "--record",
                                      "--help", NULL};
  const char *path = NULL, *html_out = NULL, *record_out = NULL;
  const char **names = (const char **)calloc((size_t)(argc ? argc : 1), sizeof *names);
  int nnames = 0, json = 0;
  double until = 0, step = 0;
  if (!names) return CLI_EXIT_USAGE;
  for (int i = 0; i < argc; ++i) {
    const char *val = NULL;
    int r;
    if (strcmp(argv[i], "--json") == 0) {
      json = 1;
      continue;
    }
    r = cli_opt_value("simulate", argc, argv, &i, "--html", &val);
    if (r < 0) {
      free(names);
      return CLI_EXIT_USAGE;
    }
    if (r > 0) {
      html_out = val;
      continue;
    }
    r = cli_opt_value("simulate", argc, argv, &i, "--record", &val);
    if (r < 0) {
      free(names);
      return CLI_EXIT_USAGE;
    }
    if (r > 0) {
      record_out = val;
      continue;
    }
    int is_until = 1;
    r = cli_opt_value("simulate", argc, argv, &i, "--until", &val);
    if (r == 0) {
      is_until = 0;
      r = cli_opt_value("simulate", argc, argv, &i, "--step", &val);
    }
    if (r != 0) {
      if (r < 0) {
        free(names);
        return CLI_EXIT_USAGE;
      }
      char *end = NULL;
      double x = strtod(val, &end);
      if (!end || end == val || *end || !(x > 0) || x > 1e6) {
        free(names);
        return cli_usage_error("simulate",
                               "%s needs a number of seconds in (0, 1000000], got '%s'",
                               is_until ? "--until" : "--step", val);
      }
      if (is_until) until = x;
      else step = x;
      continue;
    }
    if (argv[i][0] == '-' && argv[i][1]) {
      free(names);
      return cli_unknown_option("simulate", argv[i], known);
    }
    if (!path) path = argv[i];
    else names[nnames++] = argv[i];
  }
  if (!path) {
    free(names);
    return cli_usage_error("simulate", "missing FILE");
  }
  goap_file *f = cli_load(path, NULL);
  if (!f) {
    free(names);
    return CLI_EXIT_USAGE;
  }
  int rc = CLI_EXIT_OK;
  if (goap_file_simulation_count(f) == 0) {
    fprintf(stderr, "goap simulate: %s has no 'simulation' block\n", cli_display_name(path));
    rc = CLI_EXIT_USAGE;
  }
  for (int k = 0; k < nnames && rc == CLI_EXIT_OK; ++k) {
    if (goap_file_find_simulation(f, names[k]) < 0) {
      rc = cli_not_found("simulate", cli_display_name(path), "simulation", names[k],
                         cli_simulation_names(f));
    }
  }
  int n = nnames ? nnames : goap_file_simulation_count(f);
  if (record_out && rc == CLI_EXIT_OK && n != 1) {
    fprintf(stderr, "goap simulate: --record needs one simulation (%s has %d; name one)\n",
            cli_display_name(path), n);
    rc = CLI_EXIT_USAGE;
  }
  FILE *log = NULL;
  goap_recorder *rec = NULL;
  if (record_out && rc == CLI_EXIT_OK) {
    log = fopen(record_out, "wb");
    if (!log) {
      fprintf(stderr, "goap simulate: cannot write %s\n", record_out);
      rc = CLI_EXIT_USAGE;
    } else {
      goap_recorder_desc rd;
      memset(&rd, 0, sizeof rd);
      rd.domain = goap_file_domain(f);
      rd.sink = write_log;
      rd.sink_user = log;
      rd.label = goap_file_simulation_name(f, nnames ? goap_file_find_simulation(f, names[0]) : 0);
      if (goap_recorder_create(&rd, &rec) != GOAP_OK) {
        fprintf(stderr, "goap simulate: cannot write %s\n", record_out);
        rc = CLI_EXIT_USAGE;
      }
    }
  }
  cli_sim_html *html = NULL;
  if (html_out && rc == CLI_EXIT_OK) {
    html = cli_sim_html_create(f, cli_display_name(path));
    if (!html) rc = CLI_EXIT_USAGE;
  }
  for (int k = 0; k < n && rc != CLI_EXIT_USAGE; ++k) {
    int sim = nnames ? goap_file_find_simulation(f, names[k]) : k;
    const char *name = goap_file_simulation_name(f, sim);
    cli_timeline tl;
    memset(&tl, 0, sizeof tl);
    tl.d = goap_file_domain(f);
    tl.json = json;
    tl.html = html;
    tl.path = cli_display_name(path);
    if (html) cli_sim_html_begin(html, name);
    if (!json) printf("%ssimulation %s\n", k ? "\n" : "", name);
    goap_sim_result res;
    goap_status st = cli_simulate_replay(f, sim, &tl, until, step, rec, NULL, &res);
    if (st == GOAP_OK && rec) st = goap_recorder_finish(rec);
    if (st != GOAP_OK) {
      fprintf(stderr, "goap simulate: %s: %s\n", name, goap_status_string(st));
      rc = CLI_EXIT_USAGE;
      break;
    }
    cli_timeline_end(&tl, name, &res);
    if (res.failed) rc = CLI_EXIT_FAIL;
  }
  if (html && rc != CLI_EXIT_USAGE) {
    if (!cli_sim_html_write(html, html_out)) {
      fprintf(stderr, "goap simulate: cannot write %s\n", html_out);
      rc = CLI_EXIT_USAGE;
    } else if (!json) {
      printf("wrote %s\n", html_out);
    }
  }
  if (rec && rc != CLI_EXIT_USAGE && !json) printf("recorded %s (%llu bytes)\n", record_out,
                                                   (unsigned long long)goap_recorder_bytes(rec));
  goap_recorder_destroy(rec);
  if (log && fclose(log) != 0 && rc != CLI_EXIT_USAGE) {
    fprintf(stderr, "goap simulate: cannot write %s\n", record_out);
    rc = CLI_EXIT_USAGE;
  }
  cli_sim_html_destroy(html);
  goap_file_destroy(f);
  free(names);
  return rc;
}
