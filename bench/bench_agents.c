/*
 * bench_agents.c -- goap_bench_agents: how fast the agent runtime updates and replans crowds
 * of soldiers (examples/soldier.goap), on one thread.
 *
 * The crowd: agent i starts from scenario i % S of the file (the five soldier scenarios: nothing
 * known, door stuck, door stuck and kick failed, armory empty, loaded in room B), and its world
 * is one of four: nothing blocked, the door held (open_door and kick_door fail, and the soldier
 * learns door_stuck / kick_failed), the armory out (get_ammo fails: armory_empty), or both.
 * Actions take 1 to 4 frames (get_ammo 2, load_magazine 3, open_door 1, kick_door 2,
 * jump_window 4, shoot 1, punch 2). When a soldier has killed its target it waits 5 to 20
 * frames, then the host puts it back in its scenario's start state (a new target): it notices
 * the change, plans again and sets off. So at any frame some agents plan, most run a
 * multi-frame action, some wait.
 *
 * Measured, for each crowd size, without and with a shared goap_plan_cache:
 *  - updates: after a warm-up, --frames frames are timed one by one around the loop that
 *    calls goap_agent_update on every agent, with the wall clock (CLOCK_MONOTONIC) and the
 *    thread's CPU time (CLOCK_THREAD_CPUTIME_ID: the machine is shared, and CPU time leaves out
 *    the time spent waiting for a core); the time per update is the median over the frames of
 *    frame time / agents;
 *  - the replan frame: --runs times, the crowd runs 3 ordinary frames (untimed), the agents
 *    whose target is dead are put back in their start state, then one timed frame calls
 *    goap_agent_replan and goap_agent_update on every agent: every agent selects its goal,
 *    plans from its own memory (searching, or from the cache) and starts the first action.
 *    The median (wall and CPU) and the fastest frame (CPU) are reported, and the cache's hit
 *    rate over the timed frames. For comparison, the same searches (from the same memories)
 *    are then timed through the core alone: goap_plan with one planner shared by all
 *    ("core ms");
 *  - memory: goap_agent_get_stats().memory_bytes per agent, and every byte the agents, the
 *    type and the cache hold (a counting allocator).
 *
 * Exit status: 0; 1 when an update failed or a replan frame did not give every agent a plan;
 * 2 on bad usage.
 */
#define _POSIX_C_SOURCE 200809L

#include <goap/agent.h>
#include <goap/file.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "bench_util.h"

#ifndef GOAP_EXAMPLES_DIR
#define GOAP_EXAMPLES_DIR "examples"
#endif

#if defined(__GNUC__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE
#endif

#define MAX_SIZES 8
#define MAX_ACTIONS 64

typedef struct options {
  int sizes[MAX_SIZES];
  int nsizes;
  int frames;          /* timed ordinary frames */
  int runs;            /* timed replan frames */
  int cache_capacity;
  int cache_modes;     /* bit 0: without the cache, bit 1: with it */
  int planner_modes;   /* bit 0: a planner per agent, bit 1: one shared planner */
  uint32_t initial_nodes;
  int json;
  const char *file;
} options;

/* ---- the crowd ------------------------------------------------------------------------------- */

typedef struct host {
  int scenario;
  int door_held, armory_out;
  int remaining;       /* frames the running action still takes */
  int wait;            /* frames until a new target; 0: none pending */
} host;

typedef struct crowd {
  const goap_domain *d;
  int nv;
  int n;
  goap_agent **a;
  host *h;
  const goap_word *starts; /* per scenario, W words each */
  size_t W;
  int v_target;
  int extra[MAX_ACTIONS];  /* frames an action takes beyond the first */
  int act_open, act_kick, act_ammo;
  long errors;
} crowd;

static void on_start(goap_agent *a, int action, void *user) {
  const crowd *c = (const crowd *)user;
  host *h = (host *)goap_agent_host(a);
  h->remaining = c->extra[action];
}

static goap_action_state on_tick(goap_agent *a, int action, double dt, void *user) {
  (void)dt;
  const crowd *c = (const crowd *)user;
  host *h = (host *)goap_agent_host(a);
  if (h->remaining > 0) {
    h->remaining--;
    return GOAP_ACTION_RUNNING;
  }
  if (h->door_held && (action == c->act_open || action == c->act_kick)) return GOAP_ACTION_FAILURE;
  if (h->armory_out && action == c->act_ammo) return GOAP_ACTION_FAILURE;
  return GOAP_ACTION_SUCCESS;
}

/* Puts the agent back in its scenario's start state (a new target). */
static void respawn(crowd *c, int i) {
  const goap_word *s = c->starts + (size_t)c->h[i].scenario * c->W;
  for (int v = 0; v < c->nv; ++v) goap_agent_set(c->a[i], v, goap_state_get(c->d, s, v));
}

static void frame(crowd *c, double dt) {
  for (int i = 0; i < c->n; ++i) {
    host *h = &c->h[i];
    if (h->wait && --h->wait == 0) respawn(c, i);
    goap_status st = goap_agent_update(c->a[i], dt);
    if (st != GOAP_OK && st != GOAP_IN_PROGRESS && st != GOAP_NO_PLAN) c->errors++;
    if (!h->wait && goap_agent_get(c->a[i], c->v_target)) h->wait = 5 + (i * 7 + 3) % 16;
  }
}

/* The timed part of a replan frame (a function of its own so that a profiler can count its
 * instructions: valgrind --tool=callgrind --collect-atstart=no --toggle-collect=replan_frame). */
static NOINLINE void replan_frame(crowd *c, double dt) {
  for (int i = 0; i < c->n; ++i) {
    goap_agent_replan(c->a[i]);
    goap_status st = goap_agent_update(c->a[i], dt);
    if (st != GOAP_OK) c->errors++;
  }
}

/* The same searches through the core: goap_plan from each saved memory with one planner. */
static NOINLINE void core_frame(crowd *c, goap_planner *core, const goap_word *mems,
                                const goap_cond *want, int nwant) {
  int32_t plan[64];
  for (int i = 0; i < c->n; ++i) {
    goap_request rq;
    memset(&rq, 0, sizeof rq);
    rq.start = mems + (size_t)i * c->W;
    rq.want = want;
    rq.want_count = nwant;
    goap_result res;
    memset(&res, 0, sizeof res);
    res.plan = plan;
    res.plan_capacity = (int)(sizeof plan / sizeof plan[0]);
    if (goap_plan(core, &rq, &res) != GOAP_OK && !goap_state_satisfies(c->d, rq.start, want, nwant))
      c->errors++;
  }
}

/* ---- memory ---------------------------------------------------------------------------------- */

typedef struct counting {
  size_t live;
} counting;

static void *count_alloc(void *ctx, void *ptr, size_t old_size, size_t new_size) {
  counting *k = (counting *)ctx;
  if (new_size == 0) {
    if (ptr) k->live -= old_size;
    free(ptr);
    return NULL;
  }
  void *r = realloc(ptr, new_size);
  if (r) k->live += new_size - (ptr ? old_size : 0);
  return r;
}

/* ---- timing ---------------------------------------------------------------------------------- */

/* CPU time of this thread: unlike the wall clock, it does not count the time the thread waits
 * for a core while other processes run (the machine is shared). */
static double cpu_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* A timed stretch: wall and thread CPU time. */
typedef struct stamp {
  double wall, cpu;
} stamp;

static stamp stamp_now(void) {
  stamp s;
  s.wall = bench_now_ns();
  s.cpu = cpu_ns();
  return s;
}

typedef struct totals {
  uint64_t plans, cache_hits, expanded, started, updates;
} totals;

static totals sum_stats(const crowd *c) {
  totals t;
  memset(&t, 0, sizeof t);
  for (int i = 0; i < c->n; ++i) {
    goap_agent_stats s = goap_agent_get_stats(c->a[i]);
    t.plans += s.plans;
    t.cache_hits += s.cache_hits;
    t.expanded += s.expanded;
    t.started += s.actions_started;
    t.updates += s.updates;
  }
  return t;
}

typedef struct result {
  int agents, cached, shared;
  double ns_per_update, ns_per_update_cpu, updates_per_s; /* updates/s from CPU time */
  double plans_per_frame, searches_per_frame, actions_per_frame;
  double replan_ms, replan_cpu_ms, replan_cpu_ms_min, us_per_replan, expanded_per_replan;
  double core_ms;      /* the same searches with goap_plan and one shared planner */
  double hit_rate_frames, hit_rate_replan;
  double bytes_per_agent, total_bytes_per_agent;
  int ok;
} result;

static int measure(const options *o, const goap_domain *d, const goap_word *starts, int nscen,
                   int n, int use_cache, int share, result *r) {
  memset(r, 0, sizeof *r);
  r->agents = n;
  r->cached = use_cache;
  r->shared = share;
  counting k = {0};
  goap_allocator al = {count_alloc, &k};
  crowd c;
  memset(&c, 0, sizeof c);
  c.d = d;
  c.nv = goap_domain_var_count(d);
  c.n = n;
  c.starts = starts;
  c.W = goap_domain_state_words(d);
  c.v_target = goap_domain_find_var(d, "target_dead");
  c.act_open = goap_domain_find_action(d, "open_door");
  c.act_kick = goap_domain_find_action(d, "kick_door");
  c.act_ammo = goap_domain_find_action(d, "get_ammo");
  int na = goap_domain_action_count(d);
  if (c.v_target < 0 || na > MAX_ACTIONS) {
    fprintf(stderr, "goap_bench_agents: not the soldier domain (target_dead, <= %d actions)\n",
            MAX_ACTIONS);
    return 0;
  }
  static const struct {
    const char *name;
    int extra;
  } durations[] = {{"get_ammo", 1},  {"load_magazine", 2}, {"open_door", 0}, {"kick_door", 1},
                   {"jump_window", 3}, {"shoot", 0},        {"punch", 1}};
  for (size_t i = 0; i < sizeof durations / sizeof durations[0]; ++i) {
    int act = goap_domain_find_action(d, durations[i].name);
    if (act >= 0) c.extra[act] = durations[i].extra;
  }

  /* the soldier type: failures teach door_stuck, kick_failed, armory_empty */
  goap_action_binding b[MAX_ACTIONS];
  memset(b, 0, sizeof b);
  static const char *const learn[][2] = {
      {"open_door", "door_stuck"}, {"kick_door", "kick_failed"}, {"get_ammo", "armory_empty"}};
  goap_effect fx[3];
  for (int i = 0; i < na; ++i) {
    b[i].start = on_start;
    b[i].tick = on_tick;
    b[i].user = &c;
  }
  for (int i = 0; i < 3; ++i) {
    int act = goap_domain_find_action(d, learn[i][0]), v = goap_domain_find_var(d, learn[i][1]);
    if (act < 0 || v < 0) continue;
    fx[i] = (goap_effect){v, GOAP_SET, 1};
    b[act].on_fail = &fx[i];
    b[act].on_fail_count = 1;
  }
  goap_agent_type_desc td;
  memset(&td, 0, sizeof td);
  td.allocator = al;
  td.name = "soldier";
  td.actions = b;
  td.action_count = na;
  td.planner_initial_nodes = o->initial_nodes;
  goap_agent_type *t = NULL;
  goap_error err;
  if (goap_agent_type_create(d, &td, &t, &err) != GOAP_OK) {
    fprintf(stderr, "goap_bench_agents: type: %s\n", err.message);
    return 0;
  }
  goap_plan_cache *cache = NULL;
  if (use_cache) goap_plan_cache_create(&al, o->cache_capacity, &cache);
  goap_planner_desc spd;
  memset(&spd, 0, sizeof spd);
  spd.allocator = al;
  goap_planner *shared = NULL;
  if (share) goap_planner_create(d, &spd, &shared);
  if (share && !shared) {
    fprintf(stderr, "goap_bench_agents: out of memory\n");
    exit(2);
  }
  c.a = (goap_agent **)calloc((size_t)n, sizeof *c.a);
  c.h = (host *)calloc((size_t)n, sizeof *c.h);
  if ((use_cache && !cache) || !c.a || !c.h) {
    fprintf(stderr, "goap_bench_agents: out of memory\n");
    exit(2);
  }
  for (int i = 0; i < n; ++i) {
    host *h = &c.h[i];
    h->scenario = i % nscen;
    int world = (i / nscen) % 4;
    h->door_held = world & 1;
    h->armory_out = (world >> 1) & 1;
    goap_agent_desc ad;
    memset(&ad, 0, sizeof ad);
    ad.type = t;
    ad.memory = starts + (size_t)h->scenario * c.W;
    ad.host = h;
    ad.cache = cache;
    ad.planner = shared;
    if (goap_agent_create(&ad, &c.a[i], NULL) != GOAP_OK) {
      fprintf(stderr, "goap_bench_agents: out of memory\n");
      exit(2);
    }
  }

  const double dt = 0.05;
  /* warm-up: every agent plans and runs a while; the frames spread the crowd's phases */
  for (int f = 0; f < 60; ++f) frame(&c, dt);

  /* ordinary frames */
  size_t nt = (size_t)(o->frames > o->runs ? o->frames : o->runs);
  double *ft = (double *)malloc(nt * sizeof *ft), *fc = (double *)malloc(nt * sizeof *fc);
  if (!ft || !fc) exit(2);
  totals t0 = sum_stats(&c);
  goap_plan_cache_stats c0 = goap_plan_cache_get_stats(cache);
  for (int f = 0; f < o->frames; ++f) {
    stamp s = stamp_now();
    frame(&c, dt);
    stamp e = stamp_now();
    ft[f] = e.wall - s.wall;
    fc[f] = e.cpu - s.cpu;
  }
  totals t1 = sum_stats(&c);
  goap_plan_cache_stats c1 = goap_plan_cache_get_stats(cache);
  r->ns_per_update = bench_median(ft, o->frames) / n;
  r->ns_per_update_cpu = bench_median(fc, o->frames) / n;
  r->updates_per_s = 1e9 / r->ns_per_update_cpu;
  r->plans_per_frame = (double)(t1.plans - t0.plans) / o->frames;
  r->searches_per_frame =
      (double)((t1.plans - t0.plans) - (t1.cache_hits - t0.cache_hits)) / o->frames;
  r->actions_per_frame = (double)(t1.started - t0.started) / o->frames;
  uint64_t look = (c1.hits - c0.hits) + (c1.misses - c0.misses);
  r->hit_rate_frames = look ? (double)(c1.hits - c0.hits) / (double)look : 0;

  /* replan frames */
  goap_word *mems = (goap_word *)malloc((size_t)n * c.W * sizeof *mems);
  double *ct = (double *)malloc((size_t)o->runs * sizeof *ct);
  goap_planner *core = NULL;
  goap_planner_create(d, NULL, &core);
  int goal = goap_domain_find_goal(d, "kill_enemy"), nwant = 0;
  const goap_cond *want = goap_domain_goal_want(d, goal < 0 ? 0 : goal, &nwant);
  if (!mems || !ct || !core) exit(2);
  int ok = 1;
  uint64_t hits = 0, looks = 0, expanded = 0;
  for (int run = 0; run < o->runs; ++run) {
    for (int f = 0; f < 3; ++f) frame(&c, dt);
    for (int i = 0; i < n; ++i) { /* every target alive: every agent has a goal to plan for */
      if (goap_agent_get(c.a[i], c.v_target)) {
        respawn(&c, i);
        c.h[i].wait = 0;
      }
    }
    for (int i = 0; i < n; ++i)
      memcpy(mems + (size_t)i * c.W, goap_agent_memory(c.a[i]), c.W * sizeof *mems);
    totals a0 = sum_stats(&c);
    goap_plan_cache_stats k0 = goap_plan_cache_get_stats(cache);
    stamp s = stamp_now();
    replan_frame(&c, dt);
    stamp e = stamp_now();
    ft[run] = e.wall - s.wall;
    fc[run] = e.cpu - s.cpu;
    /* the same searches through the core alone: one planner for all, as goap_plan would */
    s = stamp_now();
    core_frame(&c, core, mems, want, nwant);
    ct[run] = stamp_now().cpu - s.cpu;
    totals a1 = sum_stats(&c);
    goap_plan_cache_stats k1 = goap_plan_cache_get_stats(cache);
    if (a1.plans - a0.plans != (uint64_t)n) ok = 0; /* every agent adopted a plan */
    hits += k1.hits - k0.hits;
    looks += (k1.hits - k0.hits) + (k1.misses - k0.misses);
    expanded += a1.expanded - a0.expanded;
  }
  double fastest = fc[0];
  for (int run = 1; run < o->runs; ++run)
    if (fc[run] < fastest) fastest = fc[run];
  r->replan_ms = bench_median(ft, o->runs) / 1e6;
  r->replan_cpu_ms = bench_median(fc, o->runs) / 1e6;
  r->replan_cpu_ms_min = fastest / 1e6;
  r->us_per_replan = r->replan_cpu_ms * 1e3 / n;
  r->expanded_per_replan = (double)expanded / ((double)o->runs * n);
  r->hit_rate_replan = looks ? (double)hits / (double)looks : 0;
  r->core_ms = bench_median(ct, o->runs) / 1e6;
  free(mems);
  free(ct);
  goap_planner_destroy(core);

  size_t bytes = 0;
  for (int i = 0; i < n; ++i) bytes += goap_agent_get_stats(c.a[i]).memory_bytes;
  r->bytes_per_agent = (double)bytes / n;
  r->total_bytes_per_agent = (double)k.live / n;
  r->ok = ok && c.errors == 0;

  free(ft);
  free(fc);
  for (int i = 0; i < n; ++i) goap_agent_destroy(c.a[i]);
  free(c.a);
  free(c.h);
  goap_plan_cache_destroy(cache);
  goap_planner_destroy(shared);
  goap_agent_type_destroy(t);
  return 1;
}

/* ---- output ---------------------------------------------------------------------------------- */

static void print_json(const result *r) {
  printf("{\"agents\":%d,\"planner\":\"%s\",\"cache\":%s,\"ns_per_update\":%.1f,\"ns_per_update_cpu\":%.1f,"
         "\"updates_per_s\":%.0f,\"plans_per_frame\":%.1f,\"searches_per_frame\":%.1f,"
         "\"actions_per_frame\":%.1f,\"cache_hit_rate_frames\":%.4f,\"replan_frame_ms\":%.3f,"
         "\"replan_frame_cpu_ms\":%.3f,\"replan_frame_cpu_ms_min\":%.3f,\"us_per_replan\":%.3f,"
         "\"expanded_per_replan\":%.2f,\"core_plan_cpu_ms\":%.3f,\"cache_hit_rate_replan\":%.4f,"
         "\"bytes_per_agent\":%.0f,\"total_bytes_per_agent\":%.0f,\"ok\":%s}\n",
         r->agents, r->shared ? "shared" : "own", r->cached ? "true" : "false",
         r->ns_per_update, r->ns_per_update_cpu,
         r->updates_per_s, r->plans_per_frame, r->searches_per_frame, r->actions_per_frame,
         r->hit_rate_frames, r->replan_ms, r->replan_cpu_ms, r->replan_cpu_ms_min,
         r->us_per_replan, r->expanded_per_replan, r->core_ms, r->hit_rate_replan,
         r->bytes_per_agent, r->total_bytes_per_agent, r->ok ? "true" : "false");
}

static void print_row(const result *r) {
  char hit[16] = "-", hit2[16] = "-";
  if (r->cached) {
    snprintf(hit, sizeof hit, "%.1f%%", 100 * r->hit_rate_frames);
    snprintf(hit2, sizeof hit2, "%.1f%%", 100 * r->hit_rate_replan);
  }
  printf("%7d  %-6s  %-5s  %7.1f  %7.1f  %6.2f  %6.1f / %6.1f  %6s  %8.3f  %8.3f  %8.3f  %7.3f  %6s  "
         "%7.3f  %7.0f%s\n",
         r->agents, r->shared ? "shared" : "own", r->cached ? "yes" : "no", r->ns_per_update,
         r->ns_per_update_cpu,
         r->updates_per_s / 1e6, r->plans_per_frame, r->searches_per_frame, hit, r->replan_ms,
         r->replan_cpu_ms, r->replan_cpu_ms_min, r->us_per_replan, hit2, r->core_ms,
         r->bytes_per_agent, r->ok ? "" : "  FAILED");
}

static void usage(FILE *f) {
  fprintf(f,
          "usage: goap_bench_agents [options]\n"
          "  --agents N           crowd size (repeatable; default 1000 and 10000)\n"
          "  --frames N           ordinary frames timed per crowd (default 300)\n"
          "  --runs N             replan frames timed per crowd (default 51)\n"
          "  --cache MODE         off, on or both (default): crowds without and/or with a cache\n"
          "  --planner MODE       own, shared or both (default): a planner per agent and/or one\n"
          "                       planner shared by the crowd (goap_agent_desc.planner)\n"
          "  --cache-capacity N   plans in the shared cache (default 1024)\n"
          "  --initial-nodes N    planner_initial_nodes of the type (default: the runtime's)\n"
          "  --file PATH          the soldier domain (default examples/soldier.goap)\n"
          "  --json               one JSON object per line\n"
          "goap_bench_agents --world [options]: the goap_world benchmark (--world --help)\n");
}

static int parse_int(const char *v, long lo, long hi, long *out) {
  if (!v) return 0;
  char *end = NULL;
  long x = strtol(v, &end, 10);
  if (!*v || *end || x < lo || x > hi) return 0;
  *out = x;
  return 1;
}

static int parse_args(int argc, char **argv, options *o) {
  memset(o, 0, sizeof *o);
  o->frames = 300;
  o->runs = 51;
  o->cache_capacity = 1024;
  o->cache_modes = 3;
  o->planner_modes = 3;
  o->file = GOAP_EXAMPLES_DIR "/soldier.goap";
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    long x = 0;
    if (!strcmp(a, "--json")) {
      o->json = 1;
    } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      exit(0);
    } else if (!strcmp(a, "--agents") && parse_int(v, 1, 10000000, &x) && o->nsizes < MAX_SIZES) {
      o->sizes[o->nsizes++] = (int)x;
      ++i;
    } else if (!strcmp(a, "--frames") && parse_int(v, 1, 1000000, &x)) {
      o->frames = (int)x;
      ++i;
    } else if (!strcmp(a, "--runs") && parse_int(v, 1, 1000000, &x)) {
      o->runs = (int)x;
      ++i;
    } else if (!strcmp(a, "--cache") && v &&
               (!strcmp(v, "off") || !strcmp(v, "on") || !strcmp(v, "both"))) {
      o->cache_modes = !strcmp(v, "off") ? 1 : !strcmp(v, "on") ? 2 : 3;
      ++i;
    } else if (!strcmp(a, "--planner") && v &&
               (!strcmp(v, "own") || !strcmp(v, "shared") || !strcmp(v, "both"))) {
      o->planner_modes = !strcmp(v, "own") ? 1 : !strcmp(v, "shared") ? 2 : 3;
      ++i;
    } else if (!strcmp(a, "--cache-capacity") && parse_int(v, 1, 1 << 24, &x)) {
      o->cache_capacity = (int)x;
      ++i;
    } else if (!strcmp(a, "--initial-nodes") && parse_int(v, 1, 1 << 24, &x)) {
      o->initial_nodes = (uint32_t)x;
      ++i;
    } else if (!strcmp(a, "--file") && v) {
      o->file = v;
      ++i;
    } else {
      fprintf(stderr, "goap_bench_agents: bad option or value: %s\n", a);
      usage(stderr);
      return 0;
    }
  }
  if (o->nsizes == 0) {
    o->sizes[o->nsizes++] = 1000;
    o->sizes[o->nsizes++] = 10000;
  }
  return 1;
}

#include "bench_world.h"

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "--world")) return wb_main(argc - 1, argv + 1);
  options o;
  if (!parse_args(argc, argv, &o)) return 2;
  goap_file *f = NULL;
  goap_error diag;
  if (goap_file_load(o.file, NULL, &f, &diag) != GOAP_OK) {
    char buf[1024];
    goap_error_format(&diag, buf, sizeof buf);
    fprintf(stderr, "%s\n", buf);
    return 2;
  }
  const goap_domain *d = goap_file_domain(f);
  int nscen = goap_file_scenario_count(f);
  size_t W = goap_domain_state_words(d);
  goap_word *starts = (goap_word *)calloc((size_t)(nscen > 0 ? nscen : 1) * W, sizeof *starts);
  if (!starts) return 2;
  for (int s = 0; s < nscen; ++s) {
    const goap_scenario *sc = goap_file_scenario(f, s);
    goap_state_init(d, starts + (size_t)s * W);
    goap_state_assign(d, starts + (size_t)s * W, sc->given, sc->given_count);
  }
  if (nscen == 0) {
    goap_state_init(d, starts);
    nscen = 1;
  }
  if (!o.json) {
    printf("goap_bench_agents: %s, %d start states, %d timed frames and %d replan frames per "
           "crowd (medians)\n",
           goap_domain_name(d), nscen, o.frames, o.runs);
    printf("%7s  %-6s  %-5s  %7s  %7s  %6s  %15s  %6s  %8s  %8s  %8s  %7s  %6s  %7s  %7s\n",
           "agents", "planner", "cache", "ns/upd", "cpu ns", "M/s", "plans/searches", "hits", "replan",
           "cpu ms", "min cpu", "us/plan", "hits", "core ms", "B/agent");
  }
  int failures = 0;
  for (int k = 0; k < o.nsizes; ++k) {
    for (int mode = 0; mode < 4; ++mode) {
      int cached = mode & 1, share = mode >> 1;
      if (!(o.cache_modes & (1 << cached)) || !(o.planner_modes & (1 << share))) continue;
      result r;
      if (!measure(&o, d, starts, nscen, o.sizes[k], cached, share, &r)) {
        free(starts);
        goap_file_destroy(f);
        return 2;
      }
      if (o.json) print_json(&r);
      else print_row(&r);
      fflush(stdout);
      if (!r.ok) failures++;
    }
  }
  if (!o.json)
    printf("ns/upd: wall-clock time per update, cpu ns: thread CPU time per update, M/s: "
           "millions of updates per CPU second; plans/searches: plans adopted and searches run "
           "per ordinary frame, hits: the cache's hit rate over them; replan: the replan frame "
           "in wall-clock ms, cpu ms and min cpu: in CPU ms (median, fastest), us/plan: CPU "
           "time per agent, hits: over the replan frames; core ms: the same searches through "
           "goap_plan with one shared planner (CPU ms); B/agent: memory_bytes\n");
  free(starts);
  goap_file_destroy(f);
  return failures ? 1 : 0;
}
