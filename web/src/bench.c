/*
 * bench.c -- the browser bench (web/site/bench.html): planning speed in WebAssembly on the
 * cases goap_bench measures natively, built from the same code (bench/bench_cases.h), and a
 * village replan (examples/village.goap, scenario `house`, forward A* with lmcut and lazy
 * evaluation: the configuration bench/README.md reports for the village).
 *
 * Compiled into the wasm module by scripts/web.sh. With GOAP_WEB_BENCH_MAIN defined (and not
 * under emscripten) it is also the native program goap_bench_web (bench/CMakeLists.txt), so
 * the wasm/native ratio compares one measuring code on both sides.
 *
 * Invariants:
 *  - Timing: one warm-up plan, then batches of plans (the batch size doubled until the
 *    fastest of 3 batches takes at least 5 ms, so that the browser's coarse clock does not
 *    matter) until min_ms have passed and at least 21 batches ran; the result is the median
 *    of the batches' per-plan times (and the fastest batch's, which a busy machine disturbs
 *    least). Every timed plan must give the warm-up's status and cost, else the status reads
 *    "not deterministic".
 *  - The JSON result lives in a static buffer until the next call (this is a host program,
 *    not the library; one caller at a time).
 */
#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#define BENCH_EXPORT EMSCRIPTEN_KEEPALIVE
#else
#define _POSIX_C_SOURCE 200809L
#include <time.h>
#define BENCH_EXPORT
#endif

#include <goap/file.h>
#include <goap/goap.h>

#include "web_clock.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../bench/bench_cases.h"

const char *goap_web_bench(const char *name, const char *village_text, double min_ms);
const char *goap_web_bench_cases(void);


static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

#define MAX_BATCHES 2048

typedef struct bench_out {
  goap_status status;
  double cost, ns_per_plan, min_ns;
  double untimed_ns, untimed_min_ns; /* the same with GOAP_REQUEST_UNTIMED (no clock reads) */
  uint64_t expanded;
  long plans;
  int batches;
  int deterministic;
} bench_out;

static void run(goap_planner *p, const goap_request *req, double min_ms, bench_out *o) {
  static int32_t plan[1024];
  static double per[MAX_BATCHES];
  goap_result r;
  memset(&r, 0, sizeof r);
  r.plan = plan;
  r.plan_capacity = 1024;
  goap_plan(p, req, &r);
  memset(o, 0, sizeof *o);
  o->status = r.status;
  o->cost = r.cost;
  o->expanded = r.stats.expanded;
  o->deterministic = 1;
  long batch = 1; /* doubled until the fastest of 3 batches takes 5 ms (a busy machine can
                     make one slow batch look long enough) */
  for (;;) {
    double fastest = 1e300;
    for (int k = 0; k < 3; ++k) {
      double c0 = goap_web_now_ms();
      for (long i = 0; i < batch; ++i) goap_plan(p, req, &r);
      double t = goap_web_now_ms() - c0;
      if (t < fastest) fastest = t;
    }
    if (fastest >= 5.0 || batch >= (1L << 24)) break;
    batch *= 2;
  }
  double start = goap_web_now_ms();
  int nb = 0;
  while (nb < MAX_BATCHES && (nb < 21 || goap_web_now_ms() - start < min_ms)) {
    double b0 = goap_web_now_ms();
    for (long i = 0; i < batch; ++i) goap_plan(p, req, &r);
    per[nb++] = (goap_web_now_ms() - b0) * 1e6 / (double)batch;
    o->plans += batch;
    if (r.status != o->status || r.cost != o->cost) o->deterministic = 0;
  }
  qsort(per, (size_t)nb, sizeof per[0], cmp_double);
  o->ns_per_plan = nb % 2 ? per[nb / 2] : 0.5 * (per[nb / 2 - 1] + per[nb / 2]);
  o->min_ns = per[0];
  o->batches = nb;
}

/* The request with GOAP_REQUEST_TIMED, then with GOAP_REQUEST_UNTIMED: a timed request reads
 * the clock twice, which in a browser is performance.now() at 0.3-0.7 us a call
 * (bench/README.md). */
static void run_both(goap_planner *p, const goap_request *req, double min_ms, bench_out *o) {
  goap_request t = *req;
  t.flags |= GOAP_REQUEST_TIMED;
  run(p, &t, min_ms, o);
  goap_request u = *req;
  u.flags |= GOAP_REQUEST_UNTIMED;
  bench_out ou;
  run(p, &u, min_ms, &ou);
  o->untimed_ns = ou.ns_per_plan;
  o->untimed_min_ns = ou.min_ns;
  o->plans += ou.plans;
  if (!ou.deterministic || ou.status != o->status || ou.cost != o->cost) o->deterministic = 0;
}

static char out_json[1024];

static const char *result(const char *name, const char *config, const bench_out *o) {
  snprintf(out_json, sizeof out_json,
           "{\"case\":\"%s\",\"config\":\"%s\",\"status\":\"%s\",\"cost\":%.17g,"
           "\"ns_per_plan\":%.1f,\"min_ns_per_plan\":%.1f,\"untimed_ns_per_plan\":%.1f,"
           "\"untimed_min_ns_per_plan\":%.1f,\"expanded\":%llu,\"plans\":%ld,\"batches\":%d}",
           name, config, o->deterministic ? goap_status_name(o->status) : "not deterministic",
           o->cost, o->ns_per_plan, o->min_ns, o->untimed_ns, o->untimed_min_ns,
           (unsigned long long)o->expanded, o->plans, o->batches);
  return out_json;
}

static const char *fail(const char *name, const char *why) {
  snprintf(out_json, sizeof out_json, "{\"case\":\"%s\",\"status\":\"error\",\"error\":\"%s\"}",
           name, why);
  return out_json;
}

/* The village's scenario `house`, A* + lmcut + lazy evaluation. */
static const char *village(const char *text, double min_ms) {
  const char *name = "village_replan";
  if (!text) return fail(name, "no village text");
  goap_file *f = NULL;
  goap_error diag;
  if (goap_file_parse("village.goap", text, strlen(text), NULL, &f, &diag) != GOAP_OK)
    return fail(name, "village.goap does not load");
  int k = goap_file_find_scenario(f, "house");
  const goap_domain *d = goap_file_domain(f);
  goap_word *start = (goap_word *)calloc(goap_domain_state_words(d) + 1, sizeof *start);
  goap_planner_desc pd;
  memset(&pd, 0, sizeof pd);
  goap_planner *p = NULL;
  if (start && k >= 0) goap_planner_create(d, &pd, &p);
  if (!p) {
    free(start);
    goap_file_destroy(f);
    return fail(name, k < 0 ? "no scenario house" : "out of memory");
  }
  const goap_scenario *sc = goap_file_scenario(f, k);
  goap_state_init(d, start);
  goap_state_assign(d, start, sc->given, sc->given_count);
  goap_request req;
  memset(&req, 0, sizeof req);
  req.start = start;
  req.want = sc->want;
  req.want_count = sc->want_count;
  req.search = GOAP_SEARCH_ASTAR;
  req.heuristic = GOAP_H_LMCUT;
  req.flags = GOAP_REQUEST_LAZY;
  bench_out o;
  run_both(p, &req, min_ms, &o);
  goap_planner_destroy(p);
  free(start);
  goap_file_destroy(f);
  return result(name, "astar/lmcut lazy", &o);
}

/* Runs one case: a goap_bench case by name (gpgoap_soldier, chain_60_0, ...; astar with the
 * default heuristic, as goap_bench runs by default) or "village_replan" (needs the text of
 * examples/village.goap). min_ms: how long to keep timing, each way (<= 0: 300). Returns one
 * JSON object: {case, config, status, cost, ns_per_plan, min_ns_per_plan, untimed_ns_per_plan,
 * untimed_min_ns_per_plan (GOAP_REQUEST_UNTIMED), expanded, plans, batches}, or
 * {case, status: "error", error}. */
BENCH_EXPORT const char *goap_web_bench(const char *name, const char *village_text,
                                        double min_ms) {
  if (!name) return fail("", "no case");
  if (!(min_ms > 0)) min_ms = 300;
  if (strcmp(name, "village_replan") == 0) return village(village_text, min_ms);
  case_def defs[64];
  int n = case_defs(defs);
  for (int i = 0; i < n; ++i) {
    if (defs[i].kind >= 7 || strcmp(defs[i].name, name) != 0) continue; /* not npc_40's */
    bench_case c;
    case_def def = defs[i];
    make_case(&def, &c);
    prepared pc;
    if (!prepare(&c, &pc)) {
      free_case(&c);
      return fail(name, "cannot build the case");
    }
    goap_planner_desc pd;
    memset(&pd, 0, sizeof pd);
    goap_planner *p = NULL;
    if (goap_planner_create(pc.dom, &pd, &p) != GOAP_OK) {
      unprepare(&pc);
      free_case(&c);
      return fail(name, "out of memory");
    }
    goap_request req;
    memset(&req, 0, sizeof req);
    req.start = pc.start;
    req.want = pc.want;
    req.want_count = pc.nwant[0]; /* an alternating case: its first request */
    bench_out o;
    run_both(p, &req, min_ms, &o);
    goap_planner_destroy(p);
    unprepare(&pc);
    free_case(&c);
    return result(name, "astar/default", &o);
  }
  return fail(name, "no such case");
}

/* The names goap_web_bench knows, as a JSON array. */
BENCH_EXPORT const char *goap_web_bench_cases(void) {
  case_def defs[64];
  int n = case_defs(defs);
  size_t len = 0;
  len += (size_t)snprintf(out_json + len, sizeof out_json - len, "[\"village_replan\"");
  for (int i = 0; i < n && len < sizeof out_json; ++i)
    if (defs[i].kind < 7) /* the npc_40 cases load a file: goap_bench only */
      len += (size_t)snprintf(out_json + len, sizeof out_json - len, ",\"%s\"", defs[i].name);
  if (len < sizeof out_json) snprintf(out_json + len, sizeof out_json - len, "]");
  return out_json;
}

#if defined(GOAP_WEB_BENCH_MAIN) && !defined(__EMSCRIPTEN__)
/* goap_bench_web VILLAGE.goap [MIN_MS] [CASE...]: the browser bench's cases natively, one JSON
 * line each (default: gpgoap_soldier, chain_60_0, village_replan). */
int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: goap_bench_web VILLAGE.goap [MIN_MS] [CASE...]\n");
    return 2;
  }
  FILE *fp = fopen(argv[1], "rb");
  if (!fp) {
    fprintf(stderr, "goap_bench_web: cannot read %s\n", argv[1]);
    return 2;
  }
  static char text[1 << 20];
  size_t n = fread(text, 1, sizeof text - 1, fp);
  fclose(fp);
  text[n] = '\0';
  double min_ms = argc > 2 ? atof(argv[2]) : 300;
  static const char *const dflt[] = {"gpgoap_soldier", "chain_60_0", "village_replan"};
  int rc = 0;
  for (int i = 0; i < (argc > 3 ? argc - 3 : 3); ++i) {
    const char *r = goap_web_bench(argc > 3 ? argv[3 + i] : dflt[i], text, min_ms);
    printf("%s\n", r);
    if (strstr(r, "\"status\":\"ok\"") == NULL) rc = 1;
  }
  return rc;
}
#endif
