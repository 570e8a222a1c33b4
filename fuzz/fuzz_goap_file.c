/*
 * fuzz_goap_file.c -- libFuzzer target for the `.goap` loader.
 *
 * Feeds arbitrary bytes to goap_file_parse. The input may end with a line "%%" followed by a
 * list: the bytes before it are the file, the bytes after it a `--want` / `--given` text.
 * On success it runs the warnings analysis, formats every warning, parses that list (if any)
 * as conditions and as assignments against the loaded domain, and plans each scenario under
 * a small node budget. On failure
 * it checks the diagnostic's invariants and formats it. Any crash, sanitizer report, leak or
 * violated invariant (__builtin_trap) is a finding.
 */
#include <goap/file.h>
#include <goap/sim.h>
#include <goap/goap.h>
#include <goap/htn.h>

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_diag(const goap_error *d, goap_severity sev) {
  char buf[2048];
  size_t n;
  if (d->severity != sev) __builtin_trap();
  if (memchr(d->message, '\0', sizeof d->message) == NULL || d->message[0] == '\0')
    __builtin_trap();
  if (memchr(d->source, '\0', sizeof d->source) == NULL) __builtin_trap();
  if (strchr(d->message, '\n') || strchr(d->source, '\n')) __builtin_trap();
  if (d->line < 0 || d->col < 0 || (d->line > 0 && d->col == 0)) __builtin_trap();
  n = goap_error_format(d, buf, sizeof buf);
  if (n < sizeof buf && strlen(buf) != n) __builtin_trap();
}

/* An HTN scenario under small budgets: a plan found must replay (every action applicable). */
static void plan_htn(const goap_file *f, const goap_scenario *s, const goap_word *start) {
  const goap_htn_domain *h = goap_file_htn(f);
  goap_htn_planner_desc pd;
  goap_htn_planner *p;
  goap_htn_request q;
  goap_htn_result r;
  int32_t plan[256], mtr[256];
  goap_status st;
  if (!h) __builtin_trap(); /* a task scenario in a file without tasks */
  memset(&pd, 0, sizeof pd);
  pd.goap.initial_nodes = 64;
  pd.goap.max_nodes = 512;
  if (goap_htn_planner_create(h, &pd, &p) != GOAP_OK) return;
  memset(&q, 0, sizeof q);
  q.start = start;
  q.task = s->task;
  q.max_steps = 4000;
  q.max_depth = 64;
  q.achieve_max_nodes = 256;
  memset(&r, 0, sizeof r);
  r.plan = plan;
  r.plan_capacity = 256;
  r.mtr = mtr;
  r.mtr_capacity = 256;
  st = goap_htn_plan(p, &q, &r);
  if ((st == GOAP_OK || st == GOAP_PARTIAL) &&
      goap_plan_validate(goap_file_domain(f), start, NULL, 0, plan, r.plan_length, NULL, NULL) !=
          GOAP_OK)
    __builtin_trap();
  if (st == GOAP_PARTIAL && goap_htn_pending(p)) goap_htn_resume(p, start, &q, &r);
  goap_htn_planner_destroy(p);
}

static void plan_scenarios(const goap_file *f) {
  const goap_domain *d = goap_file_domain(f);
  size_t words = goap_domain_state_words(d);
  goap_word *start;
  goap_planner_desc pd;
  goap_planner *p;
  int32_t plan[64];
  int i;
  memset(&pd, 0, sizeof pd);
  pd.initial_nodes = 64;
  pd.max_nodes = 512;
  goap_status created = goap_planner_create(d, &pd, &p);
  start = (goap_word *)calloc(words ? words : 1, sizeof *start);
  if (created != GOAP_OK || !start) {
    goap_planner_destroy(p);
    free(start);
    return;
  }
  for (i = 0; i < goap_file_scenario_count(f); ++i) {
    const goap_scenario *s = goap_file_scenario(f, i);
    goap_request req;
    goap_result res;
    memset(&req, 0, sizeof req);
    memset(&res, 0, sizeof res);
    goap_state_init(d, start);
    if (goap_state_assign(d, start, s->given, s->given_count) != GOAP_OK) continue;
    if (s->task >= 0) {
      plan_htn(f, s, start);
      continue;
    }
    req.start = start;
    req.want = s->want;
    req.want_count = s->want_count;
    req.max_nodes = 512;
    res.plan = plan;
    res.plan_capacity = 64;
    if (goap_plan(p, &req, &res) == GOAP_OK &&
        goap_plan_validate(d, start, s->want, s->want_count, plan, res.plan_length, NULL,
                           NULL) != GOAP_OK)
      __builtin_trap(); /* a plan that does not replay */
  }
  goap_planner_destroy(p);
  free(start);
}

/* Offset of a "\n%%\n" separator, or size. */
static size_t split(const uint8_t *data, size_t size) {
  size_t i;
  for (i = 0; i + 4 <= size; ++i)
    if (data[i] == '\n' && data[i + 1] == '%' && data[i + 2] == '%' && data[i + 3] == '\n')
      return i + 1;
  return size;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  goap_file *f = (goap_file *)&size;
  goap_error err;
  size_t file_len = split(data, size);
  goap_status st = goap_file_parse("fuzz.goap", (const char *)data, file_len, NULL, &f, &err);
  if (st != GOAP_OK) {
    if (f != NULL) __builtin_trap();
    if (err.status != st) __builtin_trap();
    check_diag(&err, GOAP_SEVERITY_ERROR);
    return 0;
  }
  if (!f || !goap_file_domain(f)) __builtin_trap();
  {
    goap_error w[8];
    int n = goap_file_warnings(f, w, 8), i;
    if (n < 0) __builtin_trap();
    for (i = 0; i < n && i < 8; ++i) check_diag(&w[i], GOAP_SEVERITY_WARNING);
  }
  if (file_len < size) {
    /* the list after the separator, NUL-terminated (an embedded NUL just ends it early) */
    size_t start = file_len + 3, n_list = size - start;
    char *list = (char *)malloc(n_list + 1);
    goap_cond c[16];
    goap_effect e[16];
    int n = 0;
    if (list) {
      memcpy(list, data + start, n_list);
      list[n_list] = '\0';
      if (goap_parse_conds(goap_file_domain(f), "w", list, c, 16, &n, &err) != GOAP_OK &&
          err.status != GOAP_BUFFER_TOO_SMALL)
        check_diag(&err, GOAP_SEVERITY_ERROR);
      if (goap_parse_assignments(goap_file_domain(f), "g", list, e, 16, &n, &err) != GOAP_OK &&
          err.status != GOAP_BUFFER_TOO_SMALL)
        check_diag(&err, GOAP_SEVERITY_ERROR);
      free(list);
    }
  }
  plan_scenarios(f);
  {
    /* the first simulations, briefly: a run must end and report sane counts */
    int i, n = goap_file_simulation_count(f);
    for (i = 0; i < n && i < 3; ++i) {
      goap_sim_options o;
      goap_sim_result r;
      memset(&o, 0, sizeof o);
      o.until = 2.0;
      o.step = 0.25;
      st = goap_file_simulate(f, i, &o, &r);
      if (st != GOAP_OK && st != GOAP_OUT_OF_MEMORY) __builtin_trap();
      if (st == GOAP_OK && (r.failed > r.expectations || r.time > 2.0 + 1e-9)) __builtin_trap();
    }
  }
  goap_file_destroy(f);
  return 0;
}
