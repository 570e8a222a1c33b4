/*
 * fuzz_pddl.c -- libFuzzer target for the PDDL front end.
 *
 * The input is "DOMAIN\n%%\nPROBLEM[\n%%\nPLAN]". It is loaded with small grounding limits;
 * on failure the diagnostic's invariants are checked. On success the task is planned under a
 * small node budget, and a plan found is written in the IPC form and checked with the
 * validator, which simulates the lifted actions independently of the grounding: it must
 * accept the plan with the planner's cost (a differential check of grounding against
 * validation). A PLAN part is validated too (valid or not, it must not crash). Any crash,
 * sanitizer report, leak or violated invariant (__builtin_trap) is a finding. The same texts
 * are also read as HDDL (GOAP_PDDL_HTN) and, when they hold a task network, planned under a
 * small step budget.
 */
#include <goap/goap.h>
#include <goap/hddl.h>
#include <goap/pddl.h>

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_diag(const goap_error *d, goap_status st) {
  char buf[2048];
  size_t n;
  if (d->status != st) __builtin_trap();
  if (memchr(d->message, '\0', sizeof d->message) == NULL || d->message[0] == '\0')
    __builtin_trap();
  if (memchr(d->source, '\0', sizeof d->source) == NULL) __builtin_trap();
  if (strchr(d->message, '\n') || strchr(d->source, '\n')) __builtin_trap();
  if (d->line < 0 || d->col < 0 || (d->line > 0 && d->col == 0)) __builtin_trap();
  n = goap_error_format(d, buf, sizeof buf);
  if (n < sizeof buf && strlen(buf) != n) __builtin_trap();
}

/* Offset of the next "\n%%\n" at or after `from`, or size. */
static size_t split(const uint8_t *data, size_t size, size_t from) {
  size_t i;
  for (i = from; i + 4 <= size; ++i)
    if (data[i] == '\n' && data[i + 1] == '%' && data[i + 2] == '%' && data[i + 3] == '\n')
      return i;
  return size;
}

static void plan_and_check(const goap_pddl_task *t) {
  const goap_domain *d = goap_pddl_domain(t);
  goap_planner_desc pd;
  goap_request req;
  goap_result res;
  int32_t plan[64];
  char text[8192];
  size_t o = 0;
  int i;
  goap_pddl_report rep;
  goap_error err;
  goap_planner *p;
  memset(&pd, 0, sizeof pd);
  pd.initial_nodes = 64;
  pd.max_nodes = 2048;
  if (goap_planner_create(d, &pd, &p) != GOAP_OK) return;
  memset(&req, 0, sizeof req);
  memset(&res, 0, sizeof res);
  req.start = goap_pddl_start(t);
  req.want = goap_pddl_goal(t, &req.want_count);
  req.max_nodes = 2048;
  res.plan = plan;
  res.plan_capacity = 64;
  if (goap_plan(p, &req, &res) == GOAP_OK) {
    for (i = 0; i < res.plan_length; ++i) {
      size_t n = goap_pddl_format_action(t, plan[i], text + o, sizeof text - o);
      if (o + n + 2 >= sizeof text) break;
      o += n;
      text[o++] = '\n';
    }
    if (i == res.plan_length) {
      if (goap_pddl_validate(t, "plan", text, o, &rep, &err) != GOAP_OK) __builtin_trap();
      if (!rep.valid) __builtin_trap(); /* the grounding and the lifted semantics disagree */
      if (fabs(rep.cost - res.cost) > 1e-6 * (1 + fabs(res.cost))) __builtin_trap();
    }
  }
  goap_planner_destroy(p);
}

/* goap_pddl_symmetry: succeeds, is cached (same pointer twice) and has the shape of
 * goap_symmetry: at least one class or generator (a symmetry made of generators alone, no
 * class, is valid), class slots with ids in range, every variable and action in at most one
 * slot, generator pairs in range; and goap_symmetry_check accepts it for the task's goal. */
static void symmetry_check(goap_pddl_task *t) {
  const goap_domain *d = goap_pddl_domain(t);
  const goap_symmetry *s = NULL, *s2 = NULL;
  int nv = goap_domain_var_count(d), na = goap_domain_action_count(d), c, i;
  unsigned char *seen;
  if (goap_pddl_symmetry(t, &s) != GOAP_OK) __builtin_trap();
  if (goap_pddl_symmetry(t, &s2) != GOAP_OK || s != s2) __builtin_trap();
  if (!s) return;
  seen = (unsigned char *)calloc((size_t)nv + (size_t)na + 1, 1);
  if (!seen) return;
  if (s->class_count < 0 || s->generator_count < 0 || s->class_count + s->generator_count < 1)
    __builtin_trap();
  for (c = 0; c < s->class_count; ++c) {
    const goap_symmetry_class *k = &s->classes[c];
    if (k->members < 2 || k->slot_vars < 1 || k->slot_actions < 0) __builtin_trap();
    for (i = 0; i < k->members * k->slot_vars; ++i) {
      if (k->vars[i] < 0 || k->vars[i] >= nv || seen[k->vars[i]]) __builtin_trap();
      seen[k->vars[i]] = 1;
    }
    for (i = 0; i < k->members * k->slot_actions; ++i) {
      if (k->actions[i] < 0 || k->actions[i] >= na || seen[nv + k->actions[i]]) __builtin_trap();
      seen[nv + k->actions[i]] = 1;
    }
  }
  free(seen);
  for (c = 0; c < s->generator_count; ++c) {
    const goap_symmetry_generator *g = &s->generators[c];
    if (g->var_count < 1 || g->action_count < 0) __builtin_trap();
    for (i = 0; i < 2 * g->var_count; ++i)
      if (g->vars[i] < 0 || g->vars[i] >= nv) __builtin_trap();
    for (i = 0; i < 2 * g->action_count; ++i)
      if (g->actions[i] < 0 || g->actions[i] >= na) __builtin_trap();
  }
  {
    int want_count = 0;
    const goap_cond *want = goap_pddl_goal(t, &want_count);
    if (goap_symmetry_check(d, s, want, want_count) != GOAP_OK) __builtin_trap();
  }
}

/* The same texts read as HDDL (GOAP_PDDL_HTN): a load error has a sound diagnostic; an HTN
 * task is planned under a small step budget and a plan found is written (goap/hddl.h). */
static void hddl_check(const uint8_t *data, size_t d_end, size_t p_start, size_t p_end,
                       const goap_pddl_options *base) {
  goap_pddl_options opt = *base;
  goap_pddl_task *t = NULL;
  goap_hddl_plan *plan = NULL;
  goap_hddl_options ho;
  goap_error err;
  char text[4096];
  goap_status st;
  opt.flags |= GOAP_PDDL_HTN;
  st = goap_pddl_parse("d.hddl", (const char *)data, d_end, "p.hddl",
                       (const char *)data + p_start, p_end - p_start, &opt, &t, &err);
  if (st != GOAP_OK) {
    if (t != NULL) __builtin_trap();
    check_diag(&err, st);
    return;
  }
  if (goap_pddl_domain(t) != NULL) __builtin_trap(); /* HTN implies parse-only */
  memset(&ho, 0, sizeof ho);
  ho.max_steps = 2000;
  ho.max_depth = 16;
  st = goap_hddl_solve(t, &ho, &plan, NULL);
  if (!goap_hddl_is_htn(t) && st != GOAP_INVALID_ARGUMENT) __builtin_trap();
  if ((st == GOAP_OK) != (plan != NULL)) __builtin_trap();
  if (plan) {
    size_t n = goap_hddl_plan_write(t, plan, text, sizeof text);
    if (n < sizeof text && strlen(text) != n) __builtin_trap();
    if (n < 8 || memcmp(text, "==>\n", 4) != 0) __builtin_trap();
  }
  goap_hddl_plan_destroy(plan);
  goap_pddl_destroy(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  goap_pddl_options opt;
  goap_pddl_task *t = (goap_pddl_task *)&size;
  goap_error err;
  goap_status st;
  size_t d_end = split(data, size, 0), p_start, p_end, l_start;
  if (d_end == size) return 0;
  p_start = d_end + 4;
  p_end = split(data, size, p_start);
  l_start = p_end < size ? p_end + 4 : size;
  memset(&opt, 0, sizeof opt);
  opt.max_atoms = 5000;
  opt.max_actions = 5000;
  opt.max_work = 200000;
  hddl_check(data, d_end, p_start, p_end, &opt);
  st = goap_pddl_parse("d.pddl", (const char *)data, d_end, "p.pddl",
                       (const char *)data + p_start, p_end - p_start, &opt, &t, &err);
  if (st != GOAP_OK) {
    if (t != NULL) __builtin_trap();
    check_diag(&err, st);
    return 0;
  }
  if (!t || !goap_pddl_domain(t) || !goap_pddl_start(t)) __builtin_trap();
  plan_and_check(t);
  symmetry_check(t);
  if (l_start < size) {
    goap_pddl_report rep;
    st = goap_pddl_validate(t, "plan", (const char *)data + l_start, size - l_start, &rep, &err);
    if (st != GOAP_OK && st != GOAP_PARSE_ERROR && st != GOAP_TOO_LARGE) __builtin_trap();
    if (st == GOAP_PARSE_ERROR) check_diag(&err, st);
    if (st == GOAP_OK && rep.valid != (rep.bad_step < 0)) __builtin_trap();
  }
  goap_pddl_destroy(t);
  return 0;
}
