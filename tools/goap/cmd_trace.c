/*
 * cmd_trace.c -- `goap trace FILE (--scenario S | --goal G | --want CONDS) [--json OUT]
 * [--dot OUT] [--html OUT] [search options]`: records a search with goap_planner_set_trace and
 * writes it as JSON, as a Graphviz tree, or as one self-contained HTML debugger (the viewer in
 * tools/goap/trace_viewer.html, compiled into the tool, with the JSON embedded).
 *
 * Invariants:
 *  - The start state and the goal are chosen exactly as `goap plan` chooses them (the shared
 *    cli_target_* helpers below are also used by `goap why`).
 *  - Node ids in every output are the planner's; a node's state is recorded when it is stored
 *    (it never changes); its parent, action and g are the latest (a cheaper path re-parents).
 *  - The HTML file fetches nothing: the viewer's script and style are inline and the trace is
 *    a JSON literal in it ("</" escaped so it cannot close the script element).
 */
#include "cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_GIVEN 64

/* ---- target selection (shared with cmd_why.c) ----------------------------------------------- */

void cli_target_init(cli_target *t) { memset(t, 0, sizeof *t); }

void cli_target_free(cli_target *t) {
  free(t->start);
  free(t->want_buf);
  t->start = NULL;
  t->want_buf = NULL;
}

int cli_target_resolve(const char *cmd, const char *file, const goap_file *f, cli_target *t,
                       const char *scenario, const char *goal, const char *want_text,
                       const char *const *given, int given_count) {
  const goap_domain *d = goap_file_domain(f);
  size_t words = goap_domain_state_words(d);
  t->start = calloc(words ? words : 1, sizeof *t->start);
  if (!t->start) return CLI_EXIT_USAGE;
  goap_state_init(d, t->start);
  if (scenario) {
    int idx = goap_file_find_scenario(f, scenario);
    const goap_scenario *s = idx >= 0 ? goap_file_scenario(f, idx) : NULL;
    if (!s) {
      return cli_not_found(cmd, file, "scenario", scenario, cli_scenario_names(f));
    }
    if (s->task >= 0) {
      fprintf(stderr, "goap %s: scenario '%s' is an HTN task scenario (not supported here)\n",
              cmd, scenario);
      return CLI_EXIT_USAGE;
    }
    t->want = s->want;
    t->want_count = s->want_count;
    if (goap_state_assign(d, t->start, s->given, s->given_count) != GOAP_OK) {
      fprintf(stderr, "%s:%d: error: scenario %s: its given line leaves a variable's range\n",
              file, s->line, s->name);
      return CLI_EXIT_USAGE;
    }
  } else if (goal) {
    int g = goap_domain_find_goal(d, goal);
    if (g < 0) {
      return cli_not_found(cmd, file, "goal", goal, cli_goal_names(d));
    }
    t->want = goap_domain_goal_want(d, g, &t->want_count);
  } else if (want_text) {
    int cap = (int)(strlen(want_text) / 2) + 2;
    goap_error err;
    memset(&err, 0, sizeof err);
    t->want_buf = calloc((size_t)cap, sizeof *t->want_buf);
    if (!t->want_buf) return CLI_EXIT_USAGE;
    if (goap_parse_conds(d, "--want", want_text, t->want_buf, cap, &t->want_count, &err) !=
        GOAP_OK) {
      cli_print_diag(stderr, &err);
      return CLI_EXIT_USAGE;
    }
    t->want = t->want_buf;
  }
  for (int k = 0; k < given_count; k++) {
    int cap = (int)(strlen(given[k]) / 2) + 2, count = 0;
    goap_error err;
    memset(&err, 0, sizeof err);
    goap_effect *buf = calloc((size_t)cap, sizeof *buf);
    if (!buf) return CLI_EXIT_USAGE;
    goap_status st = goap_parse_assignments(d, "--given", given[k], buf, cap, &count, &err);
    if (st != GOAP_OK) cli_print_diag(stderr, &err);
    else if (goap_state_assign(d, t->start, buf, count) != GOAP_OK) {
      fprintf(stderr, "goap %s: --given '%s' leaves a variable's range\n", cmd, given[k]);
      st = GOAP_OUT_OF_RANGE;
    }
    free(buf);
    if (st != GOAP_OK) return CLI_EXIT_USAGE;
  }
  return 0;
}

/* ---- arguments -------------------------------------------------------------------------------- */

typedef struct trace_args {
  const char *file;
  const char *scenario, *goal, *want;
  const char *given[MAX_GIVEN];
  int given_count;
  const char *json, *dot, *html;
  cli_search_opts opts;
} trace_args;

static const char *const trace_options[] = {
    "--scenario", "--goal", "--want", "--given", "--search", "--heuristic", "--max-nodes",
    "--max-ms", "--json", "--dot", "--html", "--help", "--preferred", "--lazy", NULL};

static int parse_args(int argc, char **argv, trace_args *a) {
  static const char cmd[] = "trace";
  memset(a, 0, sizeof *a);
  cli_search_opts_init(&a->opts);
  for (int i = 0; i < argc; i++) {
    const char *arg = argv[i];
    const char *v = NULL;
    int r;
    if (arg[0] != '-' || strcmp(arg, "-") == 0) {
      if (a->file) return cli_usage_error(cmd, "one FILE expected, got '%s' and '%s'", a->file, arg);
      a->file = arg;
      continue;
    }
#define VALUE_OPT(NAME)                                                                     \
  if ((r = cli_opt_value(cmd, argc, argv, &i, NAME, &v)) < 0) return CLI_EXIT_USAGE;        \
  if (r > 0)
    VALUE_OPT("--scenario") { a->scenario = v; continue; }
    VALUE_OPT("--goal") { a->goal = v; continue; }
    VALUE_OPT("--want") { a->want = v; continue; }
    VALUE_OPT("--given") {
      if (a->given_count >= MAX_GIVEN) return cli_usage_error(cmd, "too many --given options");
      a->given[a->given_count++] = v;
      continue;
    }
    VALUE_OPT("--json") { a->json = v; continue; }
    VALUE_OPT("--dot") { a->dot = v; continue; }
    VALUE_OPT("--html") { a->html = v; continue; }
    if ((r = cli_search_option(cmd, argc, argv, &i, &a->opts)) < 0) return CLI_EXIT_USAGE;
    if (r > 0) continue;
#undef VALUE_OPT
    return cli_unknown_option(cmd, arg, trace_options);
  }
  if (!a->file) return cli_usage_error(cmd, "missing FILE");
  int targets = (a->scenario != NULL) + (a->goal != NULL) + (a->want != NULL);
  if (targets != 1)
    return cli_usage_error(cmd, "say what to reach with exactly one of --scenario S, --goal G "
                                "or --want CONDS");
  return cli_check_search(cmd, &a->opts);
}

/* ---- recording ---------------------------------------------------------------------------- */

typedef struct tev {
  int kind;
  uint32_t node, parent;
  int32_t action;
  double g, h;
} tev;

typedef struct trace_rec {
  size_t words;              /* per recorded state */
  tev *ev;
  size_t nev, cev;
  goap_word *states;         /* per node */
  uint32_t *par;
  int32_t *act;
  double *g, *h;
  int *expanded;             /* step at which the node was expanded (1-based), 0 never */
  size_t nnodes, cnodes;
  uint32_t goal;
  int nexp;
  int oom;
} trace_rec;

static int grow(void **p, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap) return 1;
  size_t c = *cap ? *cap : 256;
  while (c < need) c *= 2;
  void *q = realloc(*p, c * elem);
  if (!q) return 0;
  *p = q;
  *cap = c;
  return 1;
}

static void on_event(void *user, const goap_trace_event *e) {
  trace_rec *r = user;
  if (r->oom) return;
  if (!grow((void **)&r->ev, &r->cev, r->nev + 1, sizeof *r->ev)) {
    r->oom = 1;
    return;
  }
  tev *t = &r->ev[r->nev++];
  t->kind = (int)e->kind;
  t->node = e->node;
  t->parent = e->parent;
  t->action = e->action;
  t->g = e->g;
  t->h = e->h;
  if (e->kind == GOAP_TRACE_NEW) {
    size_t n = e->node, c = r->cnodes;
    if (n != r->nnodes) return;
    int ok = 1;
    if (n + 1 > c) {
      size_t c2 = c;
      ok = grow((void **)&r->par, &c2, n + 1, sizeof *r->par);
      c2 = c;
      ok = ok && grow((void **)&r->act, &c2, n + 1, sizeof *r->act);
      c2 = c;
      ok = ok && grow((void **)&r->g, &c2, n + 1, sizeof *r->g);
      c2 = c;
      ok = ok && grow((void **)&r->h, &c2, n + 1, sizeof *r->h);
      c2 = c;
      ok = ok && grow((void **)&r->expanded, &c2, n + 1, sizeof *r->expanded);
      c2 = c * r->words;
      ok = ok && grow((void **)&r->states, &c2, (n + 1) * r->words, sizeof *r->states);
      if (ok) r->cnodes = c2 / r->words;
    }
    if (!ok) {
      r->oom = 1;
      return;
    }
    memcpy(r->states + n * r->words, e->state, r->words * sizeof *e->state);
    r->par[n] = e->parent;
    r->act[n] = e->action;
    r->g[n] = e->g;
    r->h[n] = e->h;
    r->expanded[n] = 0;
    r->nnodes++;
  } else if (e->kind == GOAP_TRACE_BETTER && e->node < r->nnodes) {
    r->par[e->node] = e->parent;
    r->act[e->node] = e->action;
    r->g[e->node] = e->g;
  } else if (e->kind == GOAP_TRACE_EXPAND && e->node < r->nnodes) {
    r->expanded[e->node] = ++r->nexp;
  } else if (e->kind == GOAP_TRACE_GOAL) {
    r->goal = e->node;
  }
}

static void rec_free(trace_rec *r) {
  free(r->ev);
  free(r->states);
  free(r->par);
  free(r->act);
  free(r->g);
  free(r->h);
  free(r->expanded);
}

/* ---- output --------------------------------------------------------------------------------- */

static const char *const kind_names[] = {"new", "duplicate", "better", "limit", "expand", "goal"};

static void buf_reset(cli_buf *b) {
  b->len = 0;
  if (b->data) b->data[0] = 0;
}

static void num(cli_buf *b, double v) {
  char s[64];
  if (isinf(v)) {
    cli_buf_printf(b, "null");
    return;
  }
  cli_format_number(v, s, sizeof s);
  cli_buf_printf(b, "%s", s);
}

static void json_state(cli_buf *b, const goap_domain *d, const goap_word *s, int backward,
                       size_t W) {
  int nv = goap_domain_var_count(d);
  cli_buf_printf(b, "[");
  for (int v = 0; v < nv; v++) {
    if (v) cli_buf_printf(b, ",");
    if (!backward) {
      cli_buf_printf(b, "%ld", (long)goap_state_get(d, s, v));
    } else {
      goap_var_info vi;
      goap_domain_var_info(d, v, &vi);
      int32_t lo = goap_state_get(d, s, v), hi = goap_state_get(d, s + W, v);
      if (lo == vi.lo && hi == vi.hi) cli_buf_printf(b, "null");
      else if (lo == hi) cli_buf_printf(b, "%ld", (long)lo);
      else cli_buf_printf(b, "[%ld,%ld]", (long)lo, (long)hi);
    }
  }
  cli_buf_printf(b, "]");
}

/* The plan's nodes, root first (forward) or goal node first (backward: the plan runs from
 * the start-satisfying node up to the root). Returns the count. */
static size_t plan_nodes(const trace_rec *r, uint32_t *out, size_t cap) {
  size_t n = 0;
  for (uint32_t k = r->goal; k != UINT32_MAX && k < r->nnodes && n < cap; k = r->par[k])
    out[n++] = k;
  return n;
}

static void build_json(cli_buf *b, const char *file, const char *what, const goap_domain *d,
                       const goap_request *req, const cli_search_opts *opts, goap_status st,
                       const goap_result *res, const trace_rec *r) {
  int backward = req->search == GOAP_SEARCH_BACKWARD;
  size_t W = goap_domain_state_words(d);
  cli_buf t;
  cli_buf_init(&t);
  cli_buf_printf(b, "{\"format\":\"goap-trace-1\",\"file\":");
  cli_json_string(b, file);
  cli_buf_printf(b, ",\"what\":");
  cli_json_string(b, what);
  cli_buf_printf(b, ",\"domain\":");
  cli_json_string(b, goap_domain_name(d));
  cli_buf_printf(b, ",\"search\":");
  cli_json_string(b, goap_search_name(opts->search));
  cli_buf_printf(b, ",\"heuristic\":");
  cli_json_string(b, goap_heuristic_name(opts->heuristic));
  cli_buf_printf(b, ",\"weight\":");
  num(b, req->search == GOAP_SEARCH_WASTAR ? (req->weight > 0 ? req->weight : 2.0) : 1.0);
  cli_buf_printf(b, ",\"backward\":%s,\"vars\":[", backward ? "true" : "false");
  int nv = goap_domain_var_count(d);
  for (int v = 0; v < nv; v++) {
    goap_var_info vi;
    goap_domain_var_info(d, v, &vi);
    cli_buf_printf(b, "%s{\"name\":", v ? "," : "");
    cli_json_string(b, vi.name);
    cli_buf_printf(b, ",\"type\":\"%s\",\"lo\":%ld,\"hi\":%ld,\"values\":[",
                   vi.type == GOAP_BOOL ? "bool" : vi.type == GOAP_ENUM ? "enum" : "int",
                   (long)vi.lo, (long)vi.hi);
    for (int k = 0; k < vi.value_count; k++) {
      if (k) cli_buf_printf(b, ",");
      const char *nm = goap_domain_value_name(d, v, k);
      cli_json_string(b, nm ? nm : "?");
    }
    cli_buf_printf(b, "]}");
  }
  cli_buf_printf(b, "],\"actions\":[");
  int na = goap_domain_action_count(d);
  for (int a = 0; a < na; a++) {
    int np = 0, ne = 0;
    const goap_cond *pre = goap_domain_action_pre(d, a, &np);
    const goap_effect *eff = goap_domain_action_eff(d, a, &ne);
    cli_buf_printf(b, "%s{\"name\":", a ? "," : "");
    cli_json_string(b, goap_domain_action_name(d, a));
    cli_buf_printf(b, ",\"cost\":");
    num(b, goap_domain_action_cost(d, a));
    buf_reset(&t);
    cli_format_conds(&t, d, pre, np);
    cli_buf_printf(b, ",\"pre\":");
    cli_json_string(b, cli_buf_str(&t));
    buf_reset(&t);
    cli_format_effects(&t, d, eff, ne);
    cli_buf_printf(b, ",\"eff\":");
    cli_json_string(b, cli_buf_str(&t));
    cli_buf_printf(b, "}");
  }
  buf_reset(&t);
  cli_format_conds(&t, d, req->want, req->want_count);
  cli_buf_printf(b, "],\"want\":");
  cli_json_string(b, cli_buf_str(&t));
  cli_buf_printf(b, ",\"start\":");
  json_state(b, d, req->start, 0, W);
  cli_buf_printf(b, ",\"status\":");
  cli_json_string(b, st == GOAP_OK ? "found" : goap_status_name(st));
  cli_buf_printf(b, ",\"cost\":");
  num(b, st == GOAP_OK ? res->cost : 0.0);
  cli_buf_printf(b, ",\"plan\":[");
  int pn = st == GOAP_OK ? res->plan_length : 0;
  for (int i = 0; i < pn; i++) cli_buf_printf(b, "%s%ld", i ? "," : "", (long)res->plan[i]);
  cli_buf_printf(b, "],\"plan_nodes\":[");
  size_t cap = r->nnodes + 1;
  uint32_t *path = malloc(cap * sizeof *path);
  size_t np = path && st == GOAP_OK ? plan_nodes(r, path, cap) : 0;
  for (size_t i = 0; i < np; i++)
    cli_buf_printf(b, "%s%lu", i ? "," : "", (unsigned long)path[backward ? i : np - 1 - i]);
  free(path);
  cli_buf_printf(b, "],\"stats\":{\"expanded\":%llu,\"generated\":%llu,\"duplicates\":%llu,"
                    "\"nodes\":%lu},\"nodes\":[",
                 (unsigned long long)res->stats.expanded,
                 (unsigned long long)res->stats.generated,
                 (unsigned long long)res->stats.duplicates, (unsigned long)res->stats.nodes);
  for (size_t n = 0; n < r->nnodes; n++) {
    cli_buf_printf(b, "%s{\"id\":%lu,\"parent\":%ld,\"action\":%ld,\"g\":", n ? ",\n" : "\n",
                   (unsigned long)n, r->par[n] == UINT32_MAX ? -1L : (long)r->par[n],
                   (long)r->act[n]);
    num(b, r->g[n]);
    cli_buf_printf(b, ",\"h\":");
    num(b, r->h[n]);
    cli_buf_printf(b, ",\"expanded\":%d,\"state\":", r->expanded[n]);
    const goap_word *s = r->states + n * r->words;
    json_state(b, d, s, backward, W);
    cli_buf_printf(b, ",\"applicable\":[");
    int first = 1;
    for (int a = 0; !backward && a < na; a++)
      if (goap_action_applicable(d, s, a)) {
        cli_buf_printf(b, "%s%d", first ? "" : ",", a);
        first = 0;
      }
    cli_buf_printf(b, "]}");
  }
  cli_buf_printf(b, "],\n\"events\":[");
  for (size_t i = 0; i < r->nev; i++) {
    const tev *e = &r->ev[i];
    cli_buf_printf(b, "%s[\"%s\",%ld,%ld,%ld,", i ? ",\n" : "\n", kind_names[e->kind],
                   e->node == UINT32_MAX ? -1L : (long)e->node,
                   e->parent == UINT32_MAX ? -1L : (long)e->parent, (long)e->action);
    num(b, e->g);
    cli_buf_printf(b, ",");
    num(b, e->h);
    cli_buf_printf(b, "]");
  }
  cli_buf_printf(b, "]}\n");
  cli_buf_free(&t);
}

static void dot_escape(FILE *out, const char *s) {
  for (; s && *s; s++) {
    if (*s == '"' || *s == '\\') fputc('\\', out);
    fputc(*s, out);
  }
}

static void write_dot(FILE *out, const goap_domain *d, const trace_rec *r, goap_status st) {
  char gs[64], hs[64];
  unsigned char *onplan = calloc(r->nnodes + 1, 1);
  if (onplan && st == GOAP_OK)
    for (uint32_t k = r->goal; k != UINT32_MAX && k < r->nnodes; k = r->par[k]) onplan[k] = 1;
  fprintf(out, "digraph trace {\n  rankdir=TB;\n  node [shape=box, fontname=\"Helvetica\"];\n"
               "  edge [fontname=\"Helvetica\", fontsize=10];\n");
  for (size_t n = 0; n < r->nnodes; n++) {
    cli_format_number(r->g[n], gs, sizeof gs);
    if (isinf(r->h[n])) snprintf(hs, sizeof hs, "inf");
    else cli_format_number(r->h[n], hs, sizeof hs);
    fprintf(out, "  n%lu [label=\"#%lu", (unsigned long)n, (unsigned long)n);
    if (r->expanded[n]) fprintf(out, " (step %d)", r->expanded[n]);
    fprintf(out, "\\ng=%s h=%s\"", gs, hs);
    int goal = st == GOAP_OK && n == r->goal;
    if (!r->expanded[n] && !goal) fprintf(out, ", style=dashed");
    if (onplan && onplan[n]) fprintf(out, ", color=green4, penwidth=2.5");
    fprintf(out, "];\n");
  }
  for (size_t n = 0; n < r->nnodes; n++) {
    if (r->par[n] == UINT32_MAX) continue;
    fprintf(out, "  n%lu -> n%lu [label=\"", (unsigned long)r->par[n], (unsigned long)n);
    dot_escape(out, goap_domain_action_name(d, r->act[n]));
    fprintf(out, "\"%s];\n", onplan && onplan[n] ? ", color=green4, penwidth=2.5" : "");
  }
  fprintf(out, "}\n");
  free(onplan);
}

static int write_html(const char *path, const char *json) {
  FILE *out = fopen(path, "wb");
  if (!out) return 0;
  const char *tpl = (const char *)goap_cli_trace_viewer_html;
  static const char marker[] = "/*GOAP_TRACE_JSON*/null";
  const char *at = strstr(tpl, marker);
  if (!at) {
    fclose(out);
    return 0;
  }
  fwrite(tpl, 1, (size_t)(at - tpl), out);
  for (const char *c = json; *c; c++) {
    if (c[0] == '<' && c[1] == '/') fputs("<\\/", out), c++;
    else fputc(*c, out);
  }
  fputs(at + sizeof marker - 1, out);
  return fclose(out) == 0;
}

goap_status cli_trace_search(const goap_domain *d, const char *file, const char *what,
                             const goap_request *req, uint32_t max_nodes, cli_buf *json,
                             double *cost, size_t *nodes) {
  trace_rec r;
  memset(&r, 0, sizeof r);
  r.goal = UINT32_MAX;
  r.words = goap_domain_state_words(d) * (req->search == GOAP_SEARCH_BACKWARD ? 2 : 1);
  cli_plan pl;
  cli_plan_init(&pl);
  *cost = 0;
  *nodes = 0;
  goap_planner *p = NULL;
  if (goap_planner_create(d, NULL, &p) != GOAP_OK) return GOAP_OUT_OF_MEMORY;
  goap_planner_set_trace(p, on_event, &r);
  goap_status st = cli_run_plan(p, req, &pl);
  *nodes = r.nnodes;
  if (st == GOAP_OK) *cost = pl.result.cost;
  if (r.oom) st = GOAP_OUT_OF_MEMORY;
  else if (r.nnodes <= max_nodes) {
    cli_search_opts o;
    cli_search_opts_init(&o);
    o.search = req->search;
    o.heuristic = req->heuristic;
    build_json(json, file, what, d, req, &o, st, &pl.result, &r);
  }
  goap_planner_destroy(p);
  rec_free(&r);
  cli_plan_free(&pl);
  return st;
}

static int write_text(const char *path, const char *text) {
  FILE *out = fopen(path, "wb");
  if (!out) return 0;
  fputs(text, out);
  return fclose(out) == 0;
}

int cli_cmd_trace(int argc, char **argv) {
  trace_args a;
  int rc = parse_args(argc, argv, &a);
  if (rc) return rc;
  goap_file *f = cli_load(a.file, NULL);
  if (!f) return CLI_EXIT_USAGE;
  const goap_domain *d = goap_file_domain(f);
  const char *file = cli_display_name(a.file);
  cli_target tg;
  cli_target_init(&tg);
  trace_rec r;
  memset(&r, 0, sizeof r);
  r.goal = UINT32_MAX;
  cli_plan pl;
  cli_plan_init(&pl);
  cli_buf json, what;
  cli_buf_init(&json);
  cli_buf_init(&what);
  goap_planner *p = NULL;
  rc = cli_target_resolve("trace", file, f, &tg, a.scenario, a.goal, a.want, a.given,
                          a.given_count);
  if (rc) goto done;
  rc = CLI_EXIT_USAGE;
  if (goap_planner_create(d, NULL, &p) != GOAP_OK) goto done;
  goap_request req;
  cli_request_from_opts(&a.opts, &req);
  req.start = tg.start;
  req.want = tg.want;
  req.want_count = tg.want_count;
  r.words = goap_domain_state_words(d) * (a.opts.search == GOAP_SEARCH_BACKWARD ? 2 : 1);
  goap_planner_set_trace(p, on_event, &r);
  goap_status st = cli_run_plan(p, &req, &pl);
  if (r.oom) {
    fputs("goap trace: out of memory while recording the trace\n", stderr);
    goto done;
  }
  if (a.scenario) cli_buf_printf(&what, "scenario %s", a.scenario);
  else if (a.goal) cli_buf_printf(&what, "goal %s", a.goal);
  else cli_buf_printf(&what, "--want %s", a.want);
  build_json(&json, file, cli_buf_str(&what), d, &req, &a.opts, st, &pl.result, &r);
  if (a.json && !write_text(a.json, cli_buf_str(&json))) {
    fprintf(stderr, "goap trace: cannot write %s\n", a.json);
    goto done;
  }
  if (a.dot) {
    FILE *out = fopen(a.dot, "wb");
    int ok = out != NULL;
    if (out) {
      write_dot(out, d, &r, st);
      ok = fclose(out) == 0;
    }
    if (!ok) {
      fprintf(stderr, "goap trace: cannot write %s\n", a.dot);
      goto done;
    }
  }
  if (a.html && !write_html(a.html, cli_buf_str(&json))) {
    fprintf(stderr, "goap trace: cannot write %s\n", a.html);
    goto done;
  }
  {
    char cost[64];
    cli_format_number(pl.result.cost, cost, sizeof cost);
    printf("%s: %s: %s", file, cli_buf_str(&what),
           st == GOAP_OK ? "plan found" : goap_status_string(st));
    if (st == GOAP_OK)
      printf(", cost %s, %d action%s", cost, pl.result.plan_length,
             pl.result.plan_length == 1 ? "" : "s");
    printf("\ntrace: %lu node%s, %llu expanded, %llu generated, %llu duplicate%s, %lu event%s\n",
           (unsigned long)r.nnodes, r.nnodes == 1 ? "" : "s",
           (unsigned long long)pl.result.stats.expanded,
           (unsigned long long)pl.result.stats.generated,
           (unsigned long long)pl.result.stats.duplicates,
           pl.result.stats.duplicates == 1 ? "" : "s", (unsigned long)r.nev,
           r.nev == 1 ? "" : "s");
    if (a.json) printf("wrote %s\n", a.json);
    if (a.dot) printf("wrote %s\n", a.dot);
    if (a.html) printf("wrote %s\n", a.html);
  }
  rc = st == GOAP_OK ? CLI_EXIT_OK
       : (st == GOAP_NO_PLAN || st == GOAP_NODE_LIMIT || st == GOAP_TIME_LIMIT ||
          st == GOAP_MEMORY_LIMIT)
           ? CLI_EXIT_FAIL
           : CLI_EXIT_USAGE;
done:
  goap_planner_destroy(p);
  rec_free(&r);
  cli_plan_free(&pl);
  cli_buf_free(&json);
  cli_buf_free(&what);
  cli_target_free(&tg);
  goap_file_destroy(f);
  return rc;
}
