/*
 * bench.c -- goap_bench: planning speed, search effort and allocations on fixed cases.
 *
 * Cases (see bench/README.md): the GPGOAP README soldier, the lecture's soldier and the door,
 * Alma's kitchen, chains with distractors (chain_L_K) and cheap-versus-dear achievers
 * (branch_N_M_c1_c2). Each case is a set of bool atoms built through the builder API; its
 * optimal cost is known by construction, or computed here by an exhaustive Dijkstra over
 * bit-mask states (the small cases), independently of the library.
 *
 * For every case: one warm-up plan, then timed batches (CLOCK_MONOTONIC) until about
 * --min-time seconds and at least 20 batches have run; the reported time is the median of
 * the batches' per-plan times. Allocations are counted by a counting allocator given to the
 * planner, over all timed plans (so they are the steady-state allocations per plan).
 *
 * Exit status: 0 when every case was solved (status ok) and, in an optimal configuration,
 * optimally; 1 otherwise; 2 on bad usage. --compare-heuristics runs every case under every
 * optimal configuration and prints a comparison table; it fails only on a wrong optimum.
 */
#define _POSIX_C_SOURCE 200809L

#include <goap/goap.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "bench_util.h"
#include "bench_cases.h"

/* ------------------------------------------------------------------------------------------
 * Brute force (small cases): Dijkstra over bit-mask states
 * ---------------------------------------------------------------------------------------- */
typedef struct hitem {
  double key;
  uint32_t s;
} hitem;

static double brute_force(const bench_case *c) {
  if (c->natoms > 16) return NAN;
  uint32_t n = 1u << c->natoms, s0 = 0;
  for (int i = 0; i < c->natoms; ++i)
    if (c->start[i]) s0 |= 1u << i;
  double *dist = (double *)xrealloc(NULL, n * sizeof *dist);
  for (uint32_t i = 0; i < n; ++i) dist[i] = INFINITY;
  size_t hn = 0, hcap = 1024;
  hitem *h = (hitem *)xrealloc(NULL, hcap * sizeof *h);
  double best = INFINITY;
  dist[s0] = 0.0;
  h[hn++] = (hitem){0.0, s0};
  while (hn > 0) {
    hitem top = h[0], last = h[--hn];
    size_t i = 0;
    for (;;) { /* sift down */
      size_t ch = 2 * i + 1;
      if (ch >= hn) break;
      if (ch + 1 < hn && h[ch + 1].key < h[ch].key) ++ch;
      if (last.key <= h[ch].key) break;
      h[i] = h[ch];
      i = ch;
    }
    if (hn > 0) h[i] = last;
    if (top.key > dist[top.s]) continue;
    int goal = 1;
    for (int g = 0; g < c->ngoal && goal; ++g)
      goal = (int)((top.s >> c->goal[g].atom) & 1u) == c->goal[g].value;
    if (goal) {
      best = top.key;
      break;
    }
    for (int a = 0; a < c->nact; ++a) {
      const bench_action *act = &c->acts[a];
      int ok = 1;
      for (int k = 0; k < act->npre && ok; ++k)
        ok = (int)((top.s >> act->pre[k].atom) & 1u) == act->pre[k].value;
      if (!ok) continue;
      uint32_t nx = top.s;
      for (int k = 0; k < act->neff; ++k) {
        if (act->eff[k].value)
          nx |= 1u << act->eff[k].atom;
        else
          nx &= ~(1u << act->eff[k].atom);
      }
      double nd = top.key + act->cost;
      if (nd < dist[nx]) {
        dist[nx] = nd;
        if (hn == hcap) {
          hcap *= 2;
          h = (hitem *)xrealloc(h, hcap * sizeof *h);
        }
        size_t j = hn++;
        while (j > 0 && h[(j - 1) / 2].key > nd) {
          h[j] = h[(j - 1) / 2];
          j = (j - 1) / 2;
        }
        h[j] = (hitem){nd, nx};
      }
    }
  }
  free(h);
  free(dist);
  return best;
}

/* ------------------------------------------------------------------------------------------
 * Counting allocator (for the planner)
 * ---------------------------------------------------------------------------------------- */
typedef struct counter {
  uint64_t allocs;
} counter;

static void *counting_fn(void *ctx, void *ptr, size_t old_size, size_t new_size) {
  (void)old_size;
  if (new_size == 0) {
    free(ptr);
    return NULL;
  }
  ((counter *)ctx)->allocs++;
  return realloc(ptr, new_size);
}

#include "bench_npc.h"

typedef struct options {
  goap_search search;
  goap_heuristic heuristic;
  double weight;
  uint32_t max_nodes;
  int reps;          /* 0: adaptive */
  uint32_t goal_cache; /* goap_planner_desc.goal_cache (0: the library's default) */
  double min_time;   /* seconds per case (adaptive) */
  int json;
  int compare;
  int list;
  const char *filters[16];
  int nfilters;
  int untimed;       /* GOAP_REQUEST_UNTIMED on every request (no clock reads) */
  int timed;         /* GOAP_REQUEST_TIMED on every request (two clock reads each) */
} options;

typedef struct measurement {
  goap_status status;
  double cost;
  int optimal;
  double ns_per_plan;
  uint64_t expanded, generated;
  uint32_t nodes;
  double allocs_per_plan;
  int plan_length;
  long plans;
  double ns_min, ns_max; /* the fastest and slowest batch */
  int requests;          /* requests per round (1, or the alternating cases') */
  double callbacks_per_plan;
  double hit_rate[2];    /* npc_40_agents_1000: the plan cache's hit rate, frames 1 and 2 */
} measurement;

#define MAX_BATCHES 4096

static int measure(const prepared *pc, goap_search s, goap_heuristic h, const options *o,
                   measurement *m) {
  counter cnt = {0};
  goap_planner_desc pd;
  memset(&pd, 0, sizeof pd);
  pd.allocator.fn = counting_fn;
  pd.allocator.ctx = &cnt;
  pd.goal_cache = o->goal_cache;
  goap_planner *p = NULL;
  if (goap_planner_create(pc->cdom, &pd, &p) != GOAP_OK) return 0;
  static goap_request reqs[MAX_REQ];
  for (int i = 0; i < pc->nreq; ++i) {
    goap_request *req = &reqs[i];
    memset(req, 0, sizeof *req);
    req->start = pc->start + (size_t)i * pc->W;
    req->want = pc->want + (size_t)i * (size_t)pc->wcap;
    req->want_count = pc->nwant[i];
    req->search = s;
    req->heuristic = h;
    req->weight = o->weight;
    req->max_nodes = o->max_nodes;
    if (o->untimed) req->flags |= GOAP_REQUEST_UNTIMED;
    if (o->timed) req->flags |= GOAP_REQUEST_TIMED;
    req->host = pc->host[i];
  }
  static int32_t plan[8192];
  static double cost0[MAX_REQ];
  static goap_status st0[MAX_REQ];
  goap_result r;
  memset(&r, 0, sizeof r);
  r.plan = plan;
  r.plan_capacity = (int)(sizeof plan / sizeof plan[0]);

  /* warm-up: one round of the requests (and the single-plan time estimate); an alternating
   * case reports the sums over the round of cost, expanded and generated */
  memset(m, 0, sizeof *m);
  m->status = GOAP_OK;
  m->optimal = 1;
  double t0 = bench_now_ns();
  for (int i = 0; i < pc->nreq; ++i) {
    goap_plan(p, &reqs[i], &r);
    cost0[i] = r.cost;
    st0[i] = r.status;
    if (r.status != GOAP_OK && m->status == GOAP_OK) m->status = r.status;
    m->cost += r.cost;
    m->expanded += r.stats.expanded;
    m->generated += r.stats.generated;
    if (r.stats.nodes > m->nodes) m->nodes = r.stats.nodes;
    m->plan_length += r.plan_length;
    if (!(r.status == GOAP_OK && !isnan(pc->opt[i]) && fabs(r.cost - pc->opt[i]) <= 1e-9))
      m->optimal = 0;
  }
  double one = (bench_now_ns() - t0) / (double)pc->nreq;
  /* the batch size comes from the median of 7 warm rounds (the first round above is cold) */
  if (o->reps <= 0 && one < 50000.0) {
    double warm[7];
    for (int k = 0; k < 7; ++k) {
      double w0 = bench_now_ns();
      for (int i = 0; i < pc->nreq; ++i) goap_plan(p, &reqs[i], &r);
      warm[k] = (bench_now_ns() - w0) / (double)pc->nreq;
    }
    one = bench_median(warm, 7);
  }

  static double batch_ns[MAX_BATCHES];
  int nb = 0, next = 0, bad = 0;
  long batch = pc->nreq, plans = 0;
  if (o->reps <= 0 && one < 50000.0) batch = (long)(50000.0 / (one > 1.0 ? one : 1.0)) + 1;
  batch = (batch + pc->nreq - 1) / pc->nreq * pc->nreq; /* whole rounds */
  uint64_t allocs_before = cnt.allocs;
  npc_reset_calls(pc);
  double start = bench_now_ns();
  for (;;) {
    if (o->reps > 0) {
      if (nb >= o->reps || nb >= MAX_BATCHES) break;
    } else {
      double elapsed = (bench_now_ns() - start) * 1e-9;
      if (nb >= MAX_BATCHES) break;
      if (nb >= 20 && elapsed >= o->min_time) break;
      if (nb >= 3 && elapsed >= 10.0 * o->min_time) break; /* very slow plans */
    }
    double b0 = bench_now_ns();
    for (long i = 0; i < batch; ++i) {
      goap_plan(p, &reqs[next], &r);
      bad |= r.status != st0[next] || r.cost != cost0[next];
      if (++next == pc->nreq) next = 0;
    }
    double b1 = bench_now_ns();
    batch_ns[nb++] = (b1 - b0) / (double)batch;
    plans += batch;
  }
  m->allocs_per_plan = plans ? (double)(cnt.allocs - allocs_before) / (double)plans : 0.0;
  m->ns_per_plan = nb ? bench_median(batch_ns, nb) : one;
  m->ns_min = nb ? batch_ns[0] : one;
  m->ns_max = nb ? batch_ns[nb - 1] : one;
  m->plans = plans;
  m->requests = pc->nreq;
  m->callbacks_per_plan = plans ? (double)npc_calls(pc) / (double)plans : 0.0;
  /* every timed run must agree with the warm-up */
  if (bad) {
    fprintf(stderr, "goap_bench: planner not deterministic\n");
    m->optimal = 0;
    m->status = GOAP_INVALID_OPERATION;
  }
  goap_planner_destroy(p);
  return 1;
}

/* ------------------------------------------------------------------------------------------
 * Output
 * ---------------------------------------------------------------------------------------- */
static const char *sname(goap_search s) {
  const char *n = goap_search_name(s);
  return n ? n : "?";
}

static const char *hname(goap_heuristic h) {
  const char *n = goap_heuristic_name(h);
  return n ? n : "?";
}

static void print_json(const char *name, goap_search s, goap_heuristic h, const measurement *m) {
  printf("{\"case\": \"%s\", \"search\": \"%s\", \"heuristic\": \"%s\", \"status\": \"%s\", "
         "\"cost\": %.17g, \"optimal\": %s, \"ns_per_plan\": %.1f, \"expanded\": %llu, "
         "\"generated\": %llu, \"nodes\": %u, \"allocs_per_plan\": %.3f, \"plan_length\": %d, "
         "\"plans_timed\": %ld, \"requests\": %d, \"ns_min\": %.1f, \"ns_max\": %.1f, "
         "\"callbacks_per_plan\": %.2f}\n",
         name, sname(s), hname(h), goap_status_name(m->status), m->cost,
         m->optimal ? "true" : "false", m->ns_per_plan, (unsigned long long)m->expanded,
         (unsigned long long)m->generated, m->nodes, m->allocs_per_plan, m->plan_length,
         m->plans, m->requests, m->ns_min, m->ns_max, m->callbacks_per_plan);
  if (m->requests == NPC_AGENTS)
    printf("{\"case\": \"%s\", \"cache_hit_rate_first_frame\": %.4f, "
           "\"cache_hit_rate_second_frame\": %.4f}\n",
           name, m->hit_rate[0], m->hit_rate[1]);
}

/* Microseconds up to 10 ms, so that a column reads in one unit. */
static void format_time(char *buf, size_t cap, double ns) {
  if (ns < 1e7)
    snprintf(buf, cap, "%.3f us", ns / 1e3);
  else
    snprintf(buf, cap, "%.1f ms", ns / 1e6);
}

static void print_row_header(void) {
  printf("%-22s %-18s %-12s %8s %-7s %12s %10s %10s %8s\n", "case", "config", "status", "cost",
         "optimal", "time/plan", "expanded", "generated", "allocs");
  printf("%-22s %-18s %-12s %8s %-7s %12s %10s %10s %8s\n", "----", "------", "------", "----",
         "-------", "---------", "--------", "---------", "------");
}

static void print_row(const char *name, goap_search s, goap_heuristic h, const measurement *m) {
  char cfg[40], t[24];
  snprintf(cfg, sizeof cfg, "%s/%s", sname(s), hname(h));
  format_time(t, sizeof t, m->ns_per_plan);
  printf("%-22s %-18s %-12s %8.6g %-7s %12s %10llu %10llu %8.3g\n", name, cfg,
         goap_status_name(m->status), m->cost, m->optimal ? "yes" : "NO", t,
         (unsigned long long)m->expanded, (unsigned long long)m->generated, m->allocs_per_plan);
}

/* ------------------------------------------------------------------------------------------
 * Main
 * ---------------------------------------------------------------------------------------- */
static void usage(FILE *f) {
  fprintf(f,
          "usage: goap_bench [options]\n"
          "  --search astar|backward|wastar|greedy   search (default: astar)\n"
          "  --heuristic NAME     default|zero|goal-count|goal-count-adm|hmax|hadd|hff|lmcut\n"
          "  --weight W           WASTAR weight (default: the library's)\n"
          "  --case SUBSTR        only cases whose name contains SUBSTR (=NAME: exactly NAME;\n"
          "                       repeatable)\n"
          "  --reps N             exactly N timed plans per case (default: adaptive)\n"
          "  --min-time S         adaptive timing: seconds per case (default 0.2; 0.05 with\n"
          "                       --compare-heuristics)\n"
          "  --max-nodes N        node budget per request (default: none; 200000 with\n"
          "                       --compare-heuristics)\n"
          "  --goal-cache N       goals each planner keeps compiled (default: the library's;\n"
          "                       1: the last goal only)\n"
          "  --timed              GOAP_REQUEST_TIMED on every request (the planner reads the\n"
          "                       clock twice per request; by default, without a time budget,\n"
          "                       it reads none)\n"
          "  --untimed            GOAP_REQUEST_UNTIMED on every request (no clock reads: the\n"
          "                       default's behaviour)\n"
          "  --json               one JSON object per line\n"
          "  --compare-heuristics every case under every optimal configuration\n"
          "  --list               list the cases\n");
}

static int parse_args(int argc, char **argv, options *o) {
  memset(o, 0, sizeof *o);
  o->min_time = -1.0;
  long max_nodes = -1;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(a, "--json") == 0) {
      o->json = 1;
    } else if (strcmp(a, "--untimed") == 0) {
      o->untimed = 1;
    } else if (strcmp(a, "--timed") == 0) {
      o->timed = 1;
    } else if (strcmp(a, "--compare-heuristics") == 0) {
      o->compare = 1;
    } else if (strcmp(a, "--list") == 0) {
      o->list = 1;
    } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      usage(stdout);
      exit(0);
    } else if (v && strcmp(a, "--search") == 0) {
      int found = -1;
      for (int s = 0; s < 4; ++s)
        if (strcmp(v, sname((goap_search)s)) == 0) found = s;
      if (found < 0) {
        fprintf(stderr, "goap_bench: unknown search '%s'\n", v);
        return 0;
      }
      o->search = (goap_search)found;
      ++i;
    } else if (v && strcmp(a, "--heuristic") == 0) {
      int hh = goap_heuristic_from_name(v);
      if (hh < 0) {
        fprintf(stderr, "goap_bench: unknown heuristic '%s'\n", v);
        return 0;
      }
      o->heuristic = (goap_heuristic)hh;
      ++i;
    } else if (v && strcmp(a, "--weight") == 0) {
      o->weight = strtod(v, NULL);
      ++i;
    } else if (v && strcmp(a, "--case") == 0) {
      if (o->nfilters < 16) o->filters[o->nfilters++] = v;
      ++i;
    } else if (v && strcmp(a, "--reps") == 0) {
      o->reps = atoi(v);
      if (o->reps < 1) {
        fprintf(stderr, "goap_bench: --reps needs a positive number\n");
        return 0;
      }
      ++i;
    } else if (v && strcmp(a, "--min-time") == 0) {
      o->min_time = strtod(v, NULL);
      ++i;
    } else if (v && strcmp(a, "--goal-cache") == 0) {
      o->goal_cache = (uint32_t)atoi(v);
      ++i;
    } else if (v && strcmp(a, "--max-nodes") == 0) {
      max_nodes = atol(v);
      ++i;
    } else {
      fprintf(stderr, "goap_bench: unknown or incomplete option '%s'\n", a);
      usage(stderr);
      return 0;
    }
  }
  if (o->min_time < 0) o->min_time = o->compare ? 0.05 : 0.2;
  if (max_nodes >= 0)
    o->max_nodes = (uint32_t)max_nodes;
  else
    o->max_nodes = o->compare ? 200000u : 0u;
  return 1;
}

static int selected(const options *o, const char *name) {
  if (o->nfilters == 0) return 1;
  for (int i = 0; i < o->nfilters; ++i)
    if (o->filters[i][0] == '=' ? strcmp(name, o->filters[i] + 1) == 0
                                : strstr(name, o->filters[i]) != NULL)
      return 1;
  return 0;
}

/* Known or brute-forced optimum; NAN if neither. Cross-checks known values on small cases. */
static double case_optimum(const bench_case *c) {
  double bf = brute_force(c);
  if (isnan(c->optimal)) return bf;
  if (!isnan(bf) && fabs(bf - c->optimal) > 1e-9) {
    fprintf(stderr, "goap_bench: case %s: known optimum %g but brute force gives %g\n", c->name,
            c->optimal, bf);
    exit(2);
  }
  return c->optimal;
}

/* The optimum of each request of c into opt (c->nalt of them, or 1); returns their sum. An
 * alternating request's is brute-forced (small cases) or the case's known optimum. */
static double case_optima(const bench_case *c, double *opt) {
  if (!c->nalt) return opt[0] = case_optimum(c);
  double sum = 0.0;
  for (int r = 0; r < c->nalt; ++r) {
    bench_case t = *c;
    unsigned char st[64];
    if (c->natoms <= 16) {
      memcpy(st, c->start, (size_t)c->natoms);
      for (int k = 0; k < c->alt[r].nmod; ++k)
        st[c->alt[r].mod[k].atom] = (unsigned char)c->alt[r].mod[k].value;
      t.start = st;
    }
    lit gl[MAX_LITS];
    memcpy(gl, c->alt[r].goal, sizeof gl);
    t.goal = gl;
    t.ngoal = c->alt[r].ngoal;
    opt[r] = case_optimum(&t);
    sum += opt[r];
  }
  return sum;
}

#define MAX_CASES 64
#define MAX_CONFIGS 24

int main(int argc, char **argv) {
  options o;
  if (!parse_args(argc, argv, &o)) return 2;
  case_def defs[MAX_CASES];
  int ndefs = case_defs(defs);

  if (o.list) {
    for (int i = 0; i < ndefs; ++i) {
      bench_case c;
      make_case(&defs[i], &c);
      double opts[MAX_REQ];
      double opt = 0.0;
      if (defs[i].kind == 7) {
        prepared pc;
        if (npc_prepare(defs[i].p[0], &pc))
          for (int r = 0; r < pc.nreq; ++r) opt += pc.opt[r];
        unprepare(&pc);
      } else {
        opt = case_optima(&c, opts);
      }
      printf("%-22s optimal %-5g atoms %-4d actions %-4d  %s\n", c.name, opt, c.natoms, c.nact,
             c.about);
      free_case(&c);
    }
    return 0;
  }

  goap_search cs[MAX_CONFIGS];
  goap_heuristic ch[MAX_CONFIGS];
  int nconf = 0;
  if (o.compare) {
    for (int s = 0; s < 4; ++s)
      for (int h = 0; h <= (int)GOAP_H_LMCUT; ++h)
        if (goap_config_is_optimal((goap_search)s, (goap_heuristic)h)) {
          cs[nconf] = (goap_search)s;
          ch[nconf++] = (goap_heuristic)h;
        }
  } else {
    cs[0] = o.search;
    ch[0] = o.heuristic;
    nconf = 1;
  }

  static measurement results[MAX_CASES][MAX_CONFIGS];
  const char *names[MAX_CASES];
  static char name_store[MAX_CASES][48];
  int nres = 0, failures = 0;
  if (!o.json && !o.compare) {
    printf("goap_bench: libgoap %s, %s/%s%s\n\n", goap_version(), sname(o.search),
           hname(o.heuristic), o.reps ? "" : " (median of batches)");
    print_row_header();
  }
  for (int i = 0; i < ndefs; ++i) {
    if (!selected(&o, defs[i].name)) continue;
    bench_case c;
    make_case(&defs[i], &c);
    if (defs[i].kind == 8) { /* the crowd: its own measurement (bench_npc.h) */
      npc_crowd_result cr;
      measurement *m = &results[nres][0];
      memset(m, 0, sizeof *m);
      if (!npc_crowd(o.reps > 0 ? o.reps : 7, &cr)) {
        fprintf(stderr, "goap_bench: cannot run %s\n", c.name);
        ++failures;
        free_case(&c);
        continue;
      }
      m->status = cr.planned == NPC_AGENTS ? GOAP_OK : GOAP_NO_PLAN;
      m->cost = cr.cost;
      m->optimal = cr.checked > 0 && cr.optimal == cr.checked;
      m->ns_per_plan = cr.ns_per_agent;
      m->ns_min = cr.ns_min;
      m->ns_max = cr.ns_max;
      m->expanded = cr.expanded;
      m->requests = NPC_AGENTS;
      m->plans = (long)cr.frames * NPC_AGENTS;
      m->allocs_per_plan = -1.0; /* not counted: agents and caches are created per frame */
      m->hit_rate[0] = cr.hit_rate[0];
      m->hit_rate[1] = cr.hit_rate[1];
      if (m->status != GOAP_OK || !m->optimal) ++failures;
      snprintf(name_store[nres], sizeof name_store[0], "%s", c.name);
      names[nres] = name_store[nres];
      ++nres;
      if (o.json)
        print_json(c.name, cs[0], ch[0], m);
      else if (!o.compare) {
        print_row(c.name, cs[0], ch[0], m);
        printf("%-22s plan cache hit rate: %.1f%% of %llu lookups (first frame, distinct "
               "memories), %.1f%% of %llu (second frame); %d sampled plans optimal of %d\n",
               "", 100.0 * cr.hit_rate[0], (unsigned long long)cr.lookups[0],
               100.0 * cr.hit_rate[1], (unsigned long long)cr.lookups[1], cr.optimal,
               cr.checked);
      }
      free_case(&c);
      continue;
    }
    prepared pc;
    if (defs[i].kind == 7 ? !npc_prepare(defs[i].p[0], &pc) : !prepare(&c, &pc)) {
      fprintf(stderr, "goap_bench: cannot build case %s\n", c.name);
      free_case(&c);
      ++failures;
      continue;
    }
    if (defs[i].kind != 7) (void)case_optima(&c, pc.opt);
    snprintf(name_store[nres], sizeof name_store[0], "%s", c.name);
    names[nres] = name_store[nres];
    for (int k = 0; k < nconf; ++k) {
      measurement *m = &results[nres][k];
      if (!measure(&pc, cs[k], ch[k], &o, m)) {
        fprintf(stderr, "goap_bench: cannot create a planner for %s\n", c.name);
        ++failures;
        continue;
      }
      int config_optimal = goap_config_is_optimal(cs[k], ch[k]);
      if (o.compare) {
        if (m->status == GOAP_OK && config_optimal && !m->optimal) ++failures;
      } else {
        if (m->status != GOAP_OK || (config_optimal && !m->optimal)) ++failures;
      }
      if (o.json)
        print_json(c.name, cs[k], ch[k], m);
      else if (!o.compare)
        print_row(c.name, cs[k], ch[k], m);
      fflush(stdout);
    }
    ++nres;
    unprepare(&pc);
    free_case(&c);
  }

  if (o.compare && !o.json) {
    /* table: one row per case, one column per optimal configuration */
    char cell[32];
    printf("median time per plan; NL = node limit (%u nodes), TL = time limit, !! = wrong "
           "optimum\n\n%-22s", o.max_nodes, "case");
    for (int k = 0; k < nconf; ++k) {
      char cfg[40];
      snprintf(cfg, sizeof cfg, "%s/%s", sname(cs[k]), hname(ch[k]));
      printf(" %22s", cfg);
    }
    printf("\n");
    for (int r = 0; r < nres; ++r) {
      printf("%-22s", names[r]);
      for (int k = 0; k < nconf; ++k) {
        const measurement *m = &results[r][k];
        if (m->status == GOAP_OK && m->optimal)
          format_time(cell, sizeof cell, m->ns_per_plan);
        else if (m->status == GOAP_OK)
          snprintf(cell, sizeof cell, "!! cost %g", m->cost);
        else if (m->status == GOAP_NODE_LIMIT)
          snprintf(cell, sizeof cell, "NL");
        else if (m->status == GOAP_TIME_LIMIT)
          snprintf(cell, sizeof cell, "TL");
        else
          snprintf(cell, sizeof cell, "%s", goap_status_name(m->status));
        printf(" %22s", cell);
      }
      printf("\n");
    }
    /* summary: cases solved, and the geometric mean of time relative to the best config of
     * each case (over cases every config solved) */
    printf("\n%-22s", "solved");
    for (int k = 0; k < nconf; ++k) {
      int solved = 0;
      for (int r = 0; r < nres; ++r) solved += results[r][k].status == GOAP_OK;
      snprintf(cell, sizeof cell, "%d/%d", solved, nres);
      printf(" %22s", cell);
    }
    printf("\n%-22s", "geomean vs best");
    for (int k = 0; k < nconf; ++k) {
      double logsum = 0.0;
      int n = 0;
      for (int r = 0; r < nres; ++r) {
        int all = 1;
        double best = INFINITY;
        for (int q = 0; q < nconf; ++q) {
          if (results[r][q].status != GOAP_OK) all = 0;
          if (results[r][q].ns_per_plan < best) best = results[r][q].ns_per_plan;
        }
        if (!all || best <= 0) continue;
        logsum += log(results[r][k].ns_per_plan / best);
        ++n;
      }
      snprintf(cell, sizeof cell, "%.2fx (%d cases)", n ? exp(logsum / n) : 0.0, n);
      printf(" %22s", cell);
    }
    printf("\n%-22s", "total expanded");
    for (int k = 0; k < nconf; ++k) {
      unsigned long long e = 0;
      for (int r = 0; r < nres; ++r) e += results[r][k].expanded;
      printf(" %22llu", e);
    }
    printf("\n");
  }
  if (!o.json && failures)
    fprintf(stderr, "\ngoap_bench: %d case(s) not solved%s\n", failures,
            o.compare ? " with the optimal cost" : " (optimally)");
  if (nres == 0) {
    fprintf(stderr, "goap_bench: no case matches\n");
    return 2;
  }
  return failures ? 1 : 0;
}
