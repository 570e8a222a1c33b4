/*
 * cmd_why.c -- `goap why FILE (--scenario S | --goal G | --want CONDS) [options]`: explains a
 * planning result in plain words.
 *
 *  - No plan: a relaxed reachability analysis from the start state (actions never undo
 *    anything: every value once reached stays available; an ADD effect opens the rest of the
 *    range in its direction). The goal conditions no value reached satisfies are unreachable;
 *    for each, the actions that could achieve it and their preconditions that fail, which are
 *    explained in turn (each condition once), back to the start state's values.
 *  - A plan: for each action applicable at the start, the cheapest plan that begins with it
 *    (the action, then an optimal A* plan from its result), cheapest first, the chosen plan
 *    marked.
 *
 * Invariants: the start state and goal are chosen as `goap plan` chooses them
 * (cli_target_resolve); the analysis is over-approximate, so "unreachable" is always true.
 */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

#define MAX_GIVEN 64

typedef struct why_args {
  const char *file, *scenario, *goal, *want;
  const char *given[MAX_GIVEN];
  int given_count;
  cli_search_opts opts;
} why_args;

static const char *const why_options[] = {"--scenario", "--goal", "--want", "--given",
                                          "--max-nodes", "--help", NULL};

static int parse_args(int argc, char **argv, why_args *a) {
  static const char cmd[] = "why";
  memset(a, 0, sizeof *a);
  cli_search_opts_init(&a->opts);
  for (int i = 0; i < argc; i++) {
    const char *arg = argv[i], *v = NULL;
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
    VALUE_OPT("--max-nodes") {
      if (cli_parse_max_nodes(cmd, v, &a->opts)) return CLI_EXIT_USAGE;
      continue;
    }
#undef VALUE_OPT
    return cli_unknown_option(cmd, arg, why_options);
  }
  if (!a->file) return cli_usage_error(cmd, "missing FILE");
  if ((a->scenario != NULL) + (a->goal != NULL) + (a->want != NULL) != 1)
    return cli_usage_error(cmd, "say what to reach with exactly one of --scenario S, --goal G "
                                "or --want CONDS");
  return 0;
}

/* ---- relaxed reachability ---------------------------------------------------------------- */

typedef struct reach {
  const goap_domain *d;
  int nv;
  goap_var_info *vi;
  int32_t *lo, *hi;       /* ints: the reached interval */
  unsigned char **seen;   /* bool/enum: reached values */
} reach;

static int holds(goap_op op, int32_t x, int32_t v) {
  switch (op) {
  case GOAP_EQ: return x == v;
  case GOAP_NE: return x != v;
  case GOAP_LT: return x < v;
  case GOAP_LE: return x <= v;
  case GOAP_GT: return x > v;
  case GOAP_GE: return x >= v;
  }
  return 0;
}

static int possible(const reach *r, const goap_cond *c) {
  const goap_var_info *vi = &r->vi[c->var];
  if (vi->type != GOAP_INT) {
    for (int k = 0; k < vi->value_count; k++)
      if (r->seen[c->var][k] && holds(c->op, k, c->value)) return 1;
    return 0;
  }
  int32_t lo = r->lo[c->var], hi = r->hi[c->var];
  switch (c->op) {
  case GOAP_EQ: return lo <= c->value && c->value <= hi;
  case GOAP_NE: return lo != hi || lo != c->value;
  case GOAP_LT: return lo < c->value;
  case GOAP_LE: return lo <= c->value;
  case GOAP_GT: return hi > c->value;
  case GOAP_GE: return hi >= c->value;
  }
  return 0;
}

/* A strict `x += n` / `x -= n` needs x + n in the range (its implicit precondition): 1 when
 * some reached value of x allows it; saturating (clamp) and SET effects always do. */
static int effect_fits(const reach *r, const goap_effect *e) {
  if (e->op != GOAP_ADD) return 1;
  const goap_var_info *vi = &r->vi[e->var];
  int64_t lo = (int64_t)vi->lo - e->value, hi = (int64_t)vi->hi - e->value;
  return (int64_t)r->lo[e->var] <= hi && lo <= (int64_t)r->hi[e->var];
}

/* Writes "hunger = 3" (one reached value) or "hunger in 0..3". */
static void reached_text(const reach *r, int v, char *buf, size_t cap) {
  if (r->lo[v] == r->hi[v]) snprintf(buf, cap, "%s = %ld", r->vi[v].name, (long)r->lo[v]);
  else snprintf(buf, cap, "%s in %ld..%ld", r->vi[v].name, (long)r->lo[v], (long)r->hi[v]);
}

/* Applies an effect to the relaxed state; 1 if it reached something new. */
static int relax_apply(reach *r, const goap_effect *e) {
  const goap_var_info *vi = &r->vi[e->var];
  if (vi->type != GOAP_INT) {
    if (e->value < 0 || e->value >= vi->value_count || r->seen[e->var][e->value]) return 0;
    r->seen[e->var][e->value] = 1;
    return 1;
  }
  int32_t *lo = &r->lo[e->var], *hi = &r->hi[e->var];
  int changed = 0;
  if (e->op == GOAP_SET) {
    if (e->value < *lo) *lo = e->value, changed = 1;
    if (e->value > *hi) *hi = e->value, changed = 1;
  } else if (e->value > 0 && *hi < vi->hi) {
    *hi = vi->hi, changed = 1;
  } else if (e->value < 0 && *lo > vi->lo) {
    *lo = vi->lo, changed = 1;
  }
  return changed;
}

static int reach_init(reach *r, const goap_domain *d, const goap_word *start) {
  memset(r, 0, sizeof *r);
  r->d = d;
  r->nv = goap_domain_var_count(d);
  size_t n = (size_t)(r->nv > 0 ? r->nv : 1);
  r->vi = calloc(n, sizeof *r->vi);
  r->lo = calloc(n, sizeof *r->lo);
  r->hi = calloc(n, sizeof *r->hi);
  r->seen = calloc(n, sizeof *r->seen);
  if (!r->vi || !r->lo || !r->hi || !r->seen) return 0;
  for (int v = 0; v < r->nv; v++) {
    goap_domain_var_info(d, v, &r->vi[v]);
    int32_t x = goap_state_get(d, start, v);
    r->lo[v] = r->hi[v] = x;
    if (r->vi[v].type != GOAP_INT) {
      r->seen[v] = calloc((size_t)r->vi[v].value_count + 1, 1);
      if (!r->seen[v]) return 0;
      if (x >= 0 && x < r->vi[v].value_count) r->seen[v][x] = 1;
    }
  }
  /* fixpoint: fire every action whose preconditions are possible */
  int na = goap_domain_action_count(d), changed = 1;
  while (changed) {
    changed = 0;
    for (int a = 0; a < na; a++) {
      int np = 0, ne = 0;
      const goap_cond *pre = goap_domain_action_pre(d, a, &np);
      const goap_effect *eff = goap_domain_action_eff(d, a, &ne);
      int ok = 1;
      for (int i = 0; i < np && ok; i++) ok = possible(r, &pre[i]);
      for (int i = 0; i < ne && ok; i++) ok = effect_fits(r, &eff[i]);
      for (int i = 0; ok && i < ne; i++) changed |= relax_apply(r, &eff[i]);
    }
  }
  return 1;
}

static void reach_free(reach *r) {
  for (int v = 0; r->seen && v < r->nv; v++) free(r->seen[v]);
  free(r->seen);
  free(r->vi);
  free(r->lo);
  free(r->hi);
}

/* Could effect e make condition c true? */
static int achieves(const goap_effect *e, const goap_cond *c) {
  if (e->var != c->var) return 0;
  if (e->op == GOAP_SET) return holds(c->op, e->value, c->value);
  if (c->op == GOAP_GT || c->op == GOAP_GE) return e->value > 0;
  if (c->op == GOAP_LT || c->op == GOAP_LE) return e->value < 0;
  return e->value != 0;
}

static void cond_text(const goap_domain *d, const goap_cond *c, char *buf, size_t cap) {
  if (goap_format_cond(d, c, buf, cap) == 0 && cap) snprintf(buf, cap, "?");
}

static void value_text(const reach *r, int v, int32_t x, char *buf, size_t cap) {
  const char *nm = r->vi[v].type != GOAP_INT ? goap_domain_value_name(r->d, v, x) : NULL;
  if (nm) snprintf(buf, cap, "%s", nm);
  else snprintf(buf, cap, "%ld", (long)x);
}

/* Explains the unreachable conditions breadth first, each once. */
static void explain(const reach *r, const goap_word *start, const goap_cond *roots, int nroots) {
  const goap_domain *d = r->d;
  int cap = 256, n = 0;
  goap_cond *q = malloc((size_t)cap * sizeof *q);
  if (!q) return;
  for (int i = 0; i < nroots; i++)
    if (!possible(r, &roots[i])) q[n++] = roots[i];
  int na = goap_domain_action_count(d);
  for (int k = 0; k < n; k++) {
    const goap_cond *c = &q[k];
    char ct[256], vt[64];
    cond_text(d, c, ct, sizeof ct);
    value_text(r, c->var, goap_state_get(d, start, c->var), vt, sizeof vt);
    int achievers = 0;
    for (int a = 0; a < na; a++) {
      int ne = 0;
      const goap_effect *eff = goap_domain_action_eff(d, a, &ne);
      for (int i = 0; i < ne; i++)
        if (achieves(&eff[i], c)) {
          achievers++;
          break;
        }
    }
    if (r->vi[c->var].flags & GOAP_VAR_SENSED) { /* a percept: the game sets it, not a plan */
      printf("  %s: false at the start (%s = %s); '%s' is sensed: the game must sense it%s\n",
             ct, r->vi[c->var].name, vt, r->vi[c->var].name,
             achievers ? " (or an action below must run)" : "");
      if (!achievers) continue;
    } else if (achievers == 0) {
      printf("  %s: no action achieves it, and it is false at the start (%s = %s)\n", ct,
             r->vi[c->var].name, vt);
      continue;
    }
    if (!(r->vi[c->var].flags & GOAP_VAR_SENSED))
    printf("  %s: false at the start (%s = %s); %d action%s could achieve it, none can run:\n",
           ct, r->vi[c->var].name, vt, achievers, achievers == 1 ? "" : "s");
    for (int a = 0; a < na; a++) {
      int ne = 0, np = 0, hit = 0;
      const goap_effect *eff = goap_domain_action_eff(d, a, &ne);
      for (int i = 0; i < ne && !hit; i++) hit = achieves(&eff[i], c);
      if (!hit) continue;
      const goap_cond *pre = goap_domain_action_pre(d, a, &np);
      int pre_ok = 1;
      for (int i = 0; i < np && pre_ok; i++) pre_ok = possible(r, &pre[i]);
      if (pre_ok) { /* its preconditions can hold: a strict += / -= leaves the range */
        for (int i = 0; i < ne; i++) {
          if (effect_fits(r, &eff[i])) continue;
          char et[256], from[128];
          goap_format_effect(d, &eff[i], et, sizeof et);
          reached_text(r, eff[i].var, from, sizeof from);
          printf("    %s: %s leaves %ld..%ld from %s (write '%s clamp' to stop at the "
                 "bound)\n",
                 goap_domain_action_name(d, a), et, (long)r->vi[eff[i].var].lo,
                 (long)r->vi[eff[i].var].hi, from, et);
          break;
        }
        continue;
      }
      printf("    %s needs", goap_domain_action_name(d, a));
      int first = 1;
      for (int i = 0; i < np; i++) {
        if (possible(r, &pre[i])) continue;
        char pt[256];
        cond_text(d, &pre[i], pt, sizeof pt);
        printf("%s %s", first ? "" : ",", pt);
        first = 0;
        int seen = 0;
        for (int j = 0; j < n && !seen; j++)
          seen = q[j].var == pre[i].var && q[j].op == pre[i].op && q[j].value == pre[i].value;
        if (!seen) {
          if (n == cap) {
            goap_cond *q2 = realloc(q, (size_t)cap * 2 * sizeof *q);
            if (!q2) continue;
            q = q2;
            c = &q[k];
            cap *= 2;
          }
          q[n++] = pre[i];
        }
      }
      printf(", unreachable\n");
    }
  }
  free(q);
}

/* ---- with a plan: each first action ---------------------------------------------------- */

typedef struct alt {
  int action;
  double cost;     /* < 0: no plan after it */
  int32_t *plan;
  int len;
} alt;

static int alt_cmp(const void *x, const void *y) {
  const alt *a = x, *b = y;
  if ((a->cost < 0) != (b->cost < 0)) return a->cost < 0 ? 1 : -1;
  if (a->cost < b->cost) return -1;
  if (a->cost > b->cost) return 1;
  return a->action - b->action;
}

static int alternatives(const goap_domain *d, goap_planner *p, const goap_request *base,
                        const cli_plan *chosen) {
  int na = goap_domain_action_count(d), nalt = 0;
  size_t W = goap_domain_state_words(d);
  alt *alts = calloc((size_t)(na > 0 ? na : 1), sizeof *alts);
  goap_word *s1 = calloc(W ? W : 1, sizeof *s1);
  if (!alts || !s1) {
    free(alts);
    free(s1);
    return CLI_EXIT_USAGE;
  }
  for (int a = 0; a < na; a++) {
    if (!goap_action_applicable(d, base->start, a)) continue;
    memcpy(s1, base->start, W * sizeof *s1);
    if (goap_action_apply(d, s1, a) != GOAP_OK || goap_state_equal(d, s1, base->start)) continue;
    goap_request req = *base;
    req.start = s1;
    cli_plan pl;
    cli_plan_init(&pl);
    goap_status st = cli_run_plan(p, &req, &pl);
    alt *x = &alts[nalt++];
    x->action = a;
    x->cost = -1;
    if (st == GOAP_OK) {
      x->cost = goap_domain_action_cost(d, a) + pl.result.cost;
      x->len = pl.result.plan_length;
      x->plan = malloc((size_t)(x->len + 1) * sizeof *x->plan);
      if (x->plan) memcpy(x->plan, pl.result.plan, (size_t)x->len * sizeof *x->plan);
      else x->len = 0;
    }
    cli_plan_free(&pl);
  }
  qsort(alts, (size_t)nalt, sizeof *alts, alt_cmp);
  int first = chosen->result.plan_length > 0 ? chosen->result.plan[0] : -1;
  printf("cheapest plan starting with each action applicable at the start:\n");
  int width = 1;
  for (int i = 0; i < nalt; i++) {
    int l = (int)strlen(goap_domain_action_name(d, alts[i].action));
    if (l > width) width = l;
  }
  for (int i = 0; i < nalt; i++) {
    const alt *x = &alts[i];
    const char *name = goap_domain_action_name(d, x->action);
    if (x->cost < 0) {
      printf("  %-*s  no plan after it\n", width, name);
      continue;
    }
    char c[64];
    cli_format_number(x->cost, c, sizeof c);
    cli_buf b;
    cli_buf_init(&b);
    cli_format_plan(&b, d, x->plan, x->len, " ");
    printf("  %-*s  cost %s: %s%s%s%s\n", width, name, c, name, x->len ? " " : "",
           cli_buf_str(&b), x->action == first ? "  (the chosen plan)" : "");
    cli_buf_free(&b);
  }
  for (int i = 0; i < nalt; i++) free(alts[i].plan);
  free(alts);
  free(s1);
  return CLI_EXIT_OK;
}

int cli_cmd_why(int argc, char **argv) {
  why_args a;
  int rc = parse_args(argc, argv, &a);
  if (rc) return rc;
  goap_file *f = cli_load(a.file, NULL);
  if (!f) return CLI_EXIT_USAGE;
  const goap_domain *d = goap_file_domain(f);
  const char *file = cli_display_name(a.file);
  cli_target tg;
  cli_target_init(&tg);
  cli_plan pl;
  cli_plan_init(&pl);
  goap_planner *p = NULL;
  reach r;
  memset(&r, 0, sizeof r);
  rc = cli_target_resolve("why", file, f, &tg, a.scenario, a.goal, a.want, a.given,
                          a.given_count);
  if (rc) goto done;
  rc = CLI_EXIT_USAGE;
  if (goap_planner_create(d, NULL, &p) != GOAP_OK) goto done;
  goap_request req;
  cli_request_from_opts(&a.opts, &req); /* A* with an admissible heuristic: optimal */
  req.start = tg.start;
  req.want = tg.want;
  req.want_count = tg.want_count;
  goap_status st = cli_run_plan(p, &req, &pl);
  if (st == GOAP_OK) {
    char c[64];
    cli_buf b;
    cli_buf_init(&b);
    cli_format_plan(&b, d, pl.result.plan, pl.result.plan_length, " ");
    cli_format_number(pl.result.cost, c, sizeof c);
    printf("plan found, cost %s: %s\n", c,
           pl.result.plan_length ? cli_buf_str(&b) : "(empty: the goal holds at the start)");
    cli_buf_free(&b);
    rc = pl.result.plan_length ? alternatives(d, p, &req, &pl) : CLI_EXIT_OK;
    goto done;
  }
  if (st != GOAP_NO_PLAN) {
    printf("no plan: %s\n", goap_status_string(st));
    rc = st == GOAP_NODE_LIMIT || st == GOAP_TIME_LIMIT || st == GOAP_MEMORY_LIMIT
             ? CLI_EXIT_FAIL
             : CLI_EXIT_USAGE;
    goto done;
  }
  if (!reach_init(&r, d, tg.start)) goto done;
  int bad = 0;
  for (int i = 0; i < tg.want_count; i++) bad += !possible(&r, &tg.want[i]);
  if (bad == 0) {
    printf("no plan, although every goal condition is reachable when actions never undo "
           "anything:\n  the actions undo each other's effects (or the goal conditions "
           "exclude each other along every path)\n");
  } else {
    printf("no plan: %d of %d goal condition%s cannot be reached, even if actions never undo "
           "anything:\n",
           bad, tg.want_count, tg.want_count == 1 ? "" : "s");
    explain(&r, tg.start, tg.want, tg.want_count);
  }
  rc = CLI_EXIT_FAIL;
done:
  reach_free(&r);
  goap_planner_destroy(p);
  cli_plan_free(&pl);
  cli_target_free(&tg);
  goap_file_destroy(f);
  return rc;
}

/* ---- `goap check`: scenarios whose goal the relaxed analysis proves unreachable ------------- */

int cli_why_check_scenarios(const char *path, const goap_file *f, cli_buf *json) {
  const goap_domain *d = goap_file_domain(f);
  size_t words = goap_domain_state_words(d);
  goap_word *start = calloc(words ? words : 1, sizeof *start);
  int count = 0, n = goap_file_scenario_count(f);
  for (int i = 0; start && i < n; i++) {
    const goap_scenario *s = goap_file_scenario(f, i);
    if (!s || s->task >= 0 || (s->expect & GOAP_EXPECT_NO_PLAN)) continue;
    goap_state_init(d, start);
    if (goap_state_assign(d, start, s->given, s->given_count) != GOAP_OK) continue;
    reach r;
    if (reach_init(&r, d, start)) {
      for (int k = 0; k < s->want_count; k++) {
        if (possible(&r, &s->want[k])) continue;
        char ct[256];
        cond_text(d, &s->want[k], ct, sizeof ct);
        char msg[768];
        snprintf(msg, sizeof msg,
                 "scenario %s: goal condition '%s' cannot be reached from its start, even if "
                 "actions never undo anything (see: goap why %s --scenario %s)",
                 s->name, ct, path, s->name);
        if (json) {
          cli_buf_printf(json, "%s{\"severity\": \"warning\", \"file\": ", count ? ", " : "");
          cli_json_string(json, path);
          cli_buf_printf(json, ", \"line\": %d, \"col\": 0, \"message\": ", s->line);
          cli_json_string(json, msg);
          cli_buf_printf(json, ", \"hint\": \"\", \"source\": \"\"}");
        } else {
          fprintf(stderr, "%s:%d: warning: %s\n", path, s->line, msg);
        }
        count++;
        break;
      }
    }
    reach_free(&r);
  }
  free(start);
  return count;
}
