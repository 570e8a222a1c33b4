/*
 * bench_blocks.c -- blocks world through the C API: search speed, memory per state and
 * heuristic strength on the IPC "probBLOCKS" instances 4-0 .. 9-0.
 *
 * The domain is the standard 4-operator encoding (pickup, putdown, stack, unstack) over bool
 * facts on(x,y), ontable(x), clear(x), holding(x) and handempty, generated for n blocks. The
 * instances are transcribed by hand from the IPC 2000 files in
 * ../shared/benchmarks/pddl/blocks/probBLOCKS-N-0.pddl (objects in the files' order, initial
 * towers listed bottom to top, goals as on(x,y) pairs); their optimal costs come from that
 * directory's optimal.csv (Fast Downward, astar(lmcut()), validated with VAL).
 *
 * Parts (all by default; see usage()):
 *   blind    A* with h = 0 on 9-0: expansions/s, generated/s, bytes per stored state;
 *   compare  A* with default, hmax and lmcut on every instance: nodes and time;
 *   ff       greedy best-first with hff on every instance;
 *   memory   9-0 blind under a small max_memory: GOAP_MEMORY_LIMIT and the partial plan.
 * Times are medians of --reps runs. Exit status 0 when every optimal configuration that
 * finished found the listed optimum, 1 otherwise, 2 on bad usage.
 */
#define _POSIX_C_SOURCE 200809L

#include <goap/goap.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "bench_util.h"

#define MAXB 16

typedef struct instance {
  const char *name;
  const char *objects;   /* one letter per block, in the file's :objects order */
  const char *towers[MAXB]; /* initial towers, bottom to top */
  const char *goal;      /* pairs "xy" meaning (on x y), space separated */
  int optimal;           /* from optimal.csv */
  int fd_lmcut_expansions;
} instance;

static const instance instances[] = {
    {"probBLOCKS-4-0", "DBAC", {"C", "A", "B", "D", NULL}, "DC CB BA", 6, 7},
    {"probBLOCKS-5-0", "BEACD", {"ABEC", "D", NULL}, "AE EB BD DC", 12, 21},
    {"probBLOCKS-6-0", "EABCFD", {"CAD", "BEF", NULL}, "CB BA AE EF FD", 12, 17},
    {"probBLOCKS-7-0", "CFABGDE", {"DCFABGE", NULL}, "AG GD DB BC CF FE", 20, 71},
    {"probBLOCKS-8-0", "HGFECBDA", {"EGA", "FHD", "B", "C", NULL}, "DF FE EH HC CA AG GB", 18,
     153},
    {"probBLOCKS-9-0", "HDIAEGBFC", {"C", "BHDIAEGF", NULL}, "GD DB BC CA AI IF FE EH", 30,
     13430},
};
#define NINST ((int)(sizeof instances / sizeof instances[0]))

/* ---- counting allocator ---------------------------------------------------------------- */
typedef struct counter {
  size_t now, peak, calls;
} counter;

static void *count_fn(void *ctx, void *ptr, size_t old_size, size_t new_size) {
  counter *c = (counter *)ctx;
  if (new_size == 0) {
    free(ptr);
    c->now -= old_size;
    return NULL;
  }
  void *r = realloc(ptr, new_size);
  if (!r) return NULL;
  c->now = c->now - old_size + new_size;
  if (c->now > c->peak) c->peak = c->now;
  ++c->calls;
  return r;
}

/* ---- the domain ------------------------------------------------------------------------- */
typedef struct blocks {
  int n;
  goap_domain *d;
  int on[MAXB][MAXB], ontable[MAXB], clear[MAXB], holding[MAXB], handempty;
} blocks;

static void die(const char *what, goap_builder *b) {
  fprintf(stderr, "goap_bench_blocks: %s: %s\n", what, b ? goap_builder_error(b)->message : "");
  exit(2);
}

static int add_bool(goap_builder *b, const char *name) {
  goap_var_desc v;
  memset(&v, 0, sizeof v);
  v.name = name;
  v.type = GOAP_BOOL;
  int id = -1;
  if (goap_builder_add_var(b, &v, &id) != GOAP_OK) die("add_var", b);
  return id;
}

static void add_act(goap_builder *b, const char *name, const goap_cond *pre, int npre,
                    const goap_effect *eff, int neff) {
  goap_action_desc a;
  memset(&a, 0, sizeof a);
  a.name = name;
  a.cost = 1.0;
  a.pre = pre;
  a.pre_count = npre;
  a.eff = eff;
  a.eff_count = neff;
  if (goap_builder_add_action(b, &a, NULL) != GOAP_OK) die("add_action", b);
}

#define C1(v) {(v), GOAP_EQ, 1}
#define SET(v, x) {(v), GOAP_SET, (x)}

/* n blocks named by the letters of `names`. */
static void build_blocks(blocks *w, const char *names) {
  int n = (int)strlen(names);
  w->n = n;
  goap_builder *b = NULL;
  if (goap_builder_create(NULL, &b) != GOAP_OK) die("out of memory", NULL);
  char nm[64];
  for (int x = 0; x < n; ++x)
    for (int y = 0; y < n; ++y) {
      w->on[x][y] = -1;
      if (x == y) continue;
      snprintf(nm, sizeof nm, "on_%c_%c", names[x], names[y]);
      w->on[x][y] = add_bool(b, nm);
    }
  for (int x = 0; x < n; ++x) {
    snprintf(nm, sizeof nm, "ontable_%c", names[x]);
    w->ontable[x] = add_bool(b, nm);
    snprintf(nm, sizeof nm, "clear_%c", names[x]);
    w->clear[x] = add_bool(b, nm);
    snprintf(nm, sizeof nm, "holding_%c", names[x]);
    w->holding[x] = add_bool(b, nm);
  }
  w->handempty = add_bool(b, "handempty");
  for (int x = 0; x < n; ++x) {
    goap_cond pre[3] = {C1(w->clear[x]), C1(w->ontable[x]), C1(w->handempty)};
    goap_effect eff[4] = {SET(w->holding[x], 1), SET(w->ontable[x], 0), SET(w->clear[x], 0),
                          SET(w->handempty, 0)};
    snprintf(nm, sizeof nm, "pickup_%c", names[x]);
    add_act(b, nm, pre, 3, eff, 4);
    goap_cond pre2[1] = {C1(w->holding[x])};
    goap_effect eff2[4] = {SET(w->ontable[x], 1), SET(w->clear[x], 1), SET(w->handempty, 1),
                           SET(w->holding[x], 0)};
    snprintf(nm, sizeof nm, "putdown_%c", names[x]);
    add_act(b, nm, pre2, 1, eff2, 4);
  }
  for (int x = 0; x < n; ++x)
    for (int y = 0; y < n; ++y) {
      if (x == y) continue;
      goap_cond pre[2] = {C1(w->holding[x]), C1(w->clear[y])};
      goap_effect eff[5] = {SET(w->on[x][y], 1), SET(w->clear[x], 1), SET(w->handempty, 1),
                            SET(w->holding[x], 0), SET(w->clear[y], 0)};
      snprintf(nm, sizeof nm, "stack_%c_%c", names[x], names[y]);
      add_act(b, nm, pre, 2, eff, 5);
      goap_cond pre2[3] = {C1(w->on[x][y]), C1(w->clear[x]), C1(w->handempty)};
      goap_effect eff2[5] = {SET(w->holding[x], 1), SET(w->clear[y], 1), SET(w->on[x][y], 0),
                             SET(w->clear[x], 0), SET(w->handempty, 0)};
      snprintf(nm, sizeof nm, "unstack_%c_%c", names[x], names[y]);
      add_act(b, nm, pre2, 3, eff2, 5);
    }
  if (goap_builder_build(b, &w->d) != GOAP_OK) die("build", b);
  goap_builder_destroy(b);
}

static int index_of(const char *names, char c) {
  const char *p = strchr(names, c);
  if (!p || !c) {
    fprintf(stderr, "goap_bench_blocks: unknown block %c\n", c);
    exit(2);
  }
  return (int)(p - names);
}

/* Start state and goal of an instance; returns the goal's condition count. */
static int setup_instance(const blocks *w, const instance *in, goap_word *start,
                          goap_cond *want) {
  goap_state_init(w->d, start);
  goap_state_set(w->d, start, w->handempty, 1);
  for (int t = 0; in->towers[t]; ++t) {
    const char *tw = in->towers[t];
    size_t len = strlen(tw);
    for (size_t i = 0; i < len; ++i) {
      int x = index_of(in->objects, tw[i]);
      if (i == 0) goap_state_set(w->d, start, w->ontable[x], 1);
      else goap_state_set(w->d, start, w->on[x][index_of(in->objects, tw[i - 1])], 1);
      if (i + 1 == len) goap_state_set(w->d, start, w->clear[x], 1);
    }
  }
  int nw = 0;
  for (const char *g = in->goal; *g; g += g[2] ? 3 : 2) {
    int x = index_of(in->objects, g[0]), y = index_of(in->objects, g[1]);
    want[nw].var = w->on[x][y];
    want[nw].op = GOAP_EQ;
    want[nw].value = 1;
    ++nw;
    if (!g[2]) break;
  }
  return nw;
}

/* ---- running ---------------------------------------------------------------------------- */
typedef struct run {
  goap_status status;
  double cost, ms, cpu_ms;
  uint64_t expanded, generated;
  uint32_t nodes;
  size_t peak_bytes, held_bytes;
  int plan_length, valid;
} run;

static double cpu_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int32_t plan_buf[4096];

static run plan_once(const blocks *w, const goap_word *start, const goap_cond *want, int nw,
                     goap_search s, goap_heuristic h, uint32_t max_nodes, size_t max_memory,
                     double max_ms) {
  counter c;
  memset(&c, 0, sizeof c);
  goap_planner_desc pd;
  memset(&pd, 0, sizeof pd);
  pd.allocator.fn = count_fn;
  pd.allocator.ctx = &c;
  pd.max_nodes = max_nodes;
  pd.max_memory = max_memory;
  goap_planner *p = NULL;
  if (goap_planner_create(w->d, &pd, &p) != GOAP_OK) die("planner_create", NULL);
  goap_request req;
  memset(&req, 0, sizeof req);
  req.start = start;
  req.want = want;
  req.want_count = nw;
  req.search = s;
  req.heuristic = h;
  req.max_ms = max_ms;
  goap_result res;
  memset(&res, 0, sizeof res);
  res.plan = plan_buf;
  res.plan_capacity = 4096;
  double t0 = bench_now_ms(), c0 = cpu_ms();
  goap_plan(p, &req, &res);
  run r;
  memset(&r, 0, sizeof r);
  r.ms = bench_now_ms() - t0;
  r.cpu_ms = cpu_ms() - c0;
  r.status = res.status;
  r.cost = res.cost;
  r.expanded = res.stats.expanded;
  r.generated = res.stats.generated;
  r.nodes = res.stats.nodes;
  r.plan_length = res.plan_length;
  r.held_bytes = c.now;
  r.peak_bytes = c.peak;
  if (res.status == GOAP_OK)
    r.valid = goap_plan_validate(w->d, start, want, nw, plan_buf, res.plan_length, NULL, NULL) ==
              GOAP_OK;
  goap_planner_destroy(p);
  return r;
}

static int cmp_run(const void *a, const void *b) {
  double x = ((const run *)a)->ms, y = ((const run *)b)->ms;
  return (x > y) - (x < y);
}

/* The run of median time among reps (the counts are identical: the search is deterministic). */
static run plan_median(const blocks *w, const goap_word *start, const goap_cond *want, int nw,
                       goap_search s, goap_heuristic h, uint32_t max_nodes, size_t max_memory,
                       double max_ms, int reps) {
  run rs[32];
  if (reps > 32) reps = 32;
  if (reps < 1) reps = 1;
  for (int i = 0; i < reps; ++i)
    rs[i] = plan_once(w, start, want, nw, s, h, max_nodes, max_memory, max_ms);
  qsort(rs, (size_t)reps, sizeof rs[0], cmp_run);
  return rs[reps / 2];
}

static void usage(FILE *f) {
  fprintf(f,
          "usage: goap_bench_blocks [--part blind|compare|ff|memory]... [--reps N]\n"
          "                         [--max-ms T] [--instance NAME] [--heuristic H]\n"
          "  --part P       run only these parts (repeatable; default: all)\n"
          "  --reps N       timed runs per configuration, the median is shown (default 3)\n"
          "  --max-ms T     time budget per search in compare/ff (default 60000)\n"
          "  --instance S   compare/ff: only instances whose name contains S\n"
          "  --heuristic H  compare: only this one of default, hmax, lmcut\n");
}

int main(int argc, char **argv) {
  int parts = 0, reps = 3;
  double max_ms = 60000.0;
  const char *only = NULL;
  int only_h = -1;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(a, "--help") == 0) {
      usage(stdout);
      return 0;
    } else if (v && strcmp(a, "--part") == 0) {
      ++i;
      if (strcmp(v, "blind") == 0) parts |= 1;
      else if (strcmp(v, "compare") == 0) parts |= 2;
      else if (strcmp(v, "ff") == 0) parts |= 4;
      else if (strcmp(v, "memory") == 0) parts |= 8;
      else {
        usage(stderr);
        return 2;
      }
    } else if (v && strcmp(a, "--reps") == 0) {
      reps = atoi(v);
      ++i;
    } else if (v && strcmp(a, "--max-ms") == 0) {
      max_ms = atof(v);
      ++i;
    } else if (v && strcmp(a, "--heuristic") == 0) {
      only_h = goap_heuristic_from_name(v);
      ++i;
      if (only_h < 0) {
        usage(stderr);
        return 2;
      }
    } else if (v && strcmp(a, "--instance") == 0) {
      only = v;
      ++i;
    } else {
      usage(stderr);
      return 2;
    }
  }
  if (!parts) parts = 15;
  int bad = 0;
  goap_word start[8];
  goap_cond want[MAXB];
  blocks worlds[NINST];
  for (int k = 0; k < NINST; ++k) build_blocks(&worlds[k], instances[k].objects);
  printf("goap_bench_blocks: libgoap %s, median of %d run(s)\n", goap_version(), reps);

  if (parts & 1) {
    const instance *in = &instances[NINST - 1];
    blocks *w = &worlds[NINST - 1];
    int nw = setup_instance(w, in, start, want);
    run r = plan_median(w, start, want, nw, GOAP_SEARCH_ASTAR, GOAP_H_ZERO, 16u << 20, 0, 0.0,
                        reps);
    printf("\n[blind] %s, A* with h = 0 (%d actions, %zu state words)\n", in->name,
           goap_domain_action_count(w->d), goap_domain_state_words(w->d));
    printf("  status %s, cost %g (optimal %d), plan valid %s\n", goap_status_name(r.status),
           r.cost, in->optimal, r.valid ? "yes" : "no");
    printf("  expanded %llu, generated %llu, stored states %u, wall %.1f ms, cpu %.1f ms\n",
           (unsigned long long)r.expanded, (unsigned long long)r.generated, r.nodes, r.ms,
           r.cpu_ms);
    printf("  wall: %.0f expansions/s, %.0f generated/s; cpu: %.0f expansions/s, %.0f "
           "generated/s\n",
           (double)r.expanded / (r.ms / 1e3), (double)r.generated / (r.ms / 1e3),
           (double)r.expanded / (r.cpu_ms / 1e3), (double)r.generated / (r.cpu_ms / 1e3));
    printf("  memory: peak %.1f MB (%.1f bytes per stored state), held at the end %.1f MB "
           "(%.1f bytes per state)\n",
           (double)r.peak_bytes / 1048576.0, (double)r.peak_bytes / (double)r.nodes,
           (double)r.held_bytes / 1048576.0, (double)r.held_bytes / (double)r.nodes);
    printf("  Fast Downward blind on this machine: 243000 expansions/s, 789000 generated/s, "
           "399 MB for 7.88 M expansions\n");
    if (r.status != GOAP_OK || (int)(r.cost + 0.5) != in->optimal || !r.valid) bad = 1;
  }

  static const goap_heuristic cmp_h[] = {GOAP_H_DEFAULT, GOAP_H_MAX, GOAP_H_LMCUT};
  if (parts & 2) {
    printf("\n[compare] A*: expanded / generated / time (median); FD astar(lmcut()) expansions "
           "from optimal.csv\n");
    printf("  %-16s %4s  %-36s %-36s %-36s %8s\n", "instance", "opt", "default", "hmax", "lmcut",
           "FD lmcut");
    for (int k = 0; k < NINST; ++k) {
      const instance *in = &instances[k];
      if (only && !strstr(in->name, only)) continue;
      int nw = setup_instance(&worlds[k], in, start, want);
      printf("  %-16s %4d ", in->name, in->optimal);
      for (int hi = 0; hi < 3; ++hi) {
        if (only_h >= 0 && (int)cmp_h[hi] != only_h) {
          printf(" %-36s", "-");
          continue;
        }
        run r = plan_median(&worlds[k], start, want, nw, GOAP_SEARCH_ASTAR, cmp_h[hi], 16u << 20,
                            0, max_ms, reps);
        char cell[64];
        if (r.status == GOAP_OK)
          snprintf(cell, sizeof cell, "%llu / %llu / %.2f ms", (unsigned long long)r.expanded,
                   (unsigned long long)r.generated, r.ms);
        else
          snprintf(cell, sizeof cell, "%s after %.0f ms", goap_status_name(r.status), r.ms);
        printf(" %-36s", cell);
        if (r.status == GOAP_OK && ((int)(r.cost + 0.5) != in->optimal || !r.valid)) {
          printf("!! cost %g ", r.cost);
          bad = 1;
        }
      }
      printf(" %8d\n", in->fd_lmcut_expansions);
    }
  }

  if (parts & 4) {
    printf("\n[ff] greedy best-first with hff\n");
    for (int k = 0; k < NINST; ++k) {
      const instance *in = &instances[k];
      if (only && !strstr(in->name, only)) continue;
      int nw = setup_instance(&worlds[k], in, start, want);
      run r = plan_median(&worlds[k], start, want, nw, GOAP_SEARCH_GREEDY, GOAP_H_FF, 16u << 20,
                          0, max_ms, reps);
      printf("  %-16s status %s, cost %g (optimal %d), valid %s, expanded %llu, generated %llu, "
             "%.3f ms\n",
             in->name, goap_status_name(r.status), r.cost, in->optimal, r.valid ? "yes" : "no",
             (unsigned long long)r.expanded, (unsigned long long)r.generated, r.ms);
      if (r.status != GOAP_OK || !r.valid) bad = 1;
    }
  }

  if (parts & 8) {
    const instance *in = &instances[NINST - 1];
    blocks *w = &worlds[NINST - 1];
    int nw = setup_instance(w, in, start, want);
    size_t budget = (size_t)64 << 20;
    run r = plan_once(w, start, want, nw, GOAP_SEARCH_ASTAR, GOAP_H_ZERO, 16u << 20, budget,
                      0.0);
    printf("\n[memory] %s blind with max_memory = 64 MB: status %s, %u states stored, "
           "partial plan of %d steps, peak %.1f MB\n",
           in->name, goap_status_name(r.status), r.nodes, r.plan_length,
           (double)r.peak_bytes / 1048576.0);
    if (r.status != GOAP_MEMORY_LIMIT) bad = 1;
  }
  for (int k = 0; k < NINST; ++k) goap_domain_destroy(worlds[k].d);
  return bad;
}
