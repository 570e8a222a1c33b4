/*
 * bench_world.h -- `goap_bench_agents --world`: a crowd of NPCs on a 40-action domain
 * (bench/npc_world.goap: int and enum variables, three agent types), updated frame by frame
 * either agent by agent (goap_agent_update, one shared planner and plan cache: "plain") or by a
 * goap_world with a per-frame expansion budget ("world"). Included once by bench_agents.c.
 *
 * The crowd: agent i is of type i % 3 (farmer, guard, trader) and starts from the domain's
 * defaults with hunger, energy and coins varied by i. A sensor (every second) makes it hungrier
 * and more tired, so goals become valid again; actions take 1 to 4 frames and fail 3% of the
 * time (from a generator per agent). All agents are created on the first frame, as when a level
 * loads. 60 frames per second.
 *
 * The warm-up frames (a loading screen) run without a common budget, so that the crowd's first
 * plans -- every agent searching at once -- are made before the timed frames, in both modes.
 * Measured per timed frame (after --warmup frames): the thread's CPU time of the whole update
 * (CLOCK_THREAD_CPUTIME_ID), the expansions spent, and the allocations (calls to the counting
 * allocator every object uses). Reported: mean, p50, p99 and max of the frame CPU time, the
 * p99 / mean ratio, mean and max expansions per frame, allocations per frame (mean, max), plans
 * adopted per frame.
 */
#ifndef GOAP_BENCH_WORLD_H
#define GOAP_BENCH_WORLD_H

#include <goap/world.h>
#include <sys/resource.h>

typedef struct wb_npc {
  uint32_t rng;
  int remaining;
} wb_npc;

typedef struct wb_opts {
  int agents, frames, warmup, lanes, json, modes; /* modes: bit 0 plain, bit 1 world */
  uint64_t budget;
  uint32_t pace; /* goap_world_set_pacing, from the first timed frame */
  int repeat;    /* runs of each mode (deterministic: the same frames each time) */
  const char *file, *trace;
} wb_opts;

static size_t wb_calls;
static uint64_t wb_sensed, wb_ticks; /* sensor and action tick calls (the --trace columns) */

static void *wb_alloc(void *ctx, void *ptr, size_t old_size, size_t new_size) {
  (void)ctx;
  (void)old_size;
  if (new_size == 0) {
    free(ptr);
    return NULL;
  }
  wb_calls++;
  return realloc(ptr, new_size);
}

static uint32_t wb_rand(uint32_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 17;
  *s ^= *s << 5;
  return *s;
}

static goap_action_state wb_tick(goap_agent *a, int action, double dt, void *user) {
  (void)dt;
  (void)user;
  wb_npc *n = (wb_npc *)goap_agent_host(a);
  wb_ticks++;
  if (n->remaining == 0) n->remaining = 1 + (int)((uint32_t)action * 7u + (n->rng & 3u)) % 4;
  if (--n->remaining > 0) return GOAP_ACTION_RUNNING;
  return wb_rand(&n->rng) % 100 < 3 ? GOAP_ACTION_FAILURE : GOAP_ACTION_SUCCESS;
}

typedef struct wb_vars {
  int hunger, energy, coins, patrolled, stock, skill;
} wb_vars;

static void wb_down(goap_agent *a, int var) {
  int32_t v = goap_agent_get(a, var);
  if (v > 0) goap_agent_set(a, var, v - 1);
}

static void wb_sense(goap_agent *a, void *user) {
  const wb_vars *v = (const wb_vars *)user;
  wb_npc *n = (wb_npc *)goap_agent_host(a);
  uint32_t r = wb_rand(&n->rng);
  wb_sensed++;
  int32_t h = goap_agent_get(a, v->hunger);
  if (h < 10) goap_agent_set(a, v->hunger, h + 1);
  if (r & 1) wb_down(a, v->energy);
  if ((r >> 1) % 4 == 0) wb_down(a, v->coins);
  if ((r >> 3) % 4 == 0) goap_agent_set(a, v->patrolled, 0); /* a new watch */
  if ((r >> 5) % 3 == 0) wb_down(a, v->stock);                /* goods sold */
  if ((r >> 7) % 4 == 0) wb_down(a, v->skill);                /* out of practice */
}

static void wb_stats_add(goap_agent_stats *s, const goap_agent *a) {
  goap_agent_stats x = goap_agent_get_stats(a);
  s->plans += x.plans;
  s->plan_failures += x.plan_failures;
  s->cache_hits += x.cache_hits;
  s->expanded += x.expanded;
  s->actions_started += x.actions_started;
  for (int r = 0; r < GOAP_REPLAN_REASON_COUNT; ++r) s->replans[r] += x.replans[r];
}

/* The p99 of each frame's time over the median of the 31 frames around it: the frame-to-frame
 * spikes, without the slow drifts of a shared machine (another process on the core's sibling
 * slows every frame for a while). cpu is left unchanged. */
static double wb_local_p99(const double *cpu, int n) {
  double *r = (double *)malloc((size_t)n * sizeof *r);
  if (!r) return 0;
  for (int i = 0; i < n; ++i) {
    double win[31];
    int lo = i - 15 < 0 ? 0 : i - 15, hi = i + 16 > n ? n : i + 16, k = 0;
    for (int j = lo; j < hi; ++j) win[k++] = cpu[j];
    for (int a = 1; a < k; ++a) /* insertion sort: 31 at most */
      for (int b = a; b > 0 && win[b - 1] > win[b]; --b) {
        double t = win[b];
        win[b] = win[b - 1];
        win[b - 1] = t;
      }
    r[i] = win[k / 2] > 0 ? cpu[i] / win[k / 2] : 1;
  }
  for (int a = 1; a < n; ++a) /* a few hundred frames */
    for (int b = a; b > 0 && r[b - 1] > r[b]; --b) {
      double t = r[b];
      r[b] = r[b - 1];
      r[b - 1] = t;
    }
  double p = r[(size_t)((n - 1) * 0.99)];
  free(r);
  return p;
}

static int wb_cmp(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return a < b ? -1 : a > b;
}

/* One crowd run; world: through a goap_world. fmin (or NULL): each timed frame's CPU time is
 * lowered to this run's when less (the minimum over --repeat runs). Returns 0 on failure. */
static int wb_run(const wb_opts *o, const goap_file *f, int world, double *fmin) {
  const goap_domain *d = goap_file_domain(f);
  goap_allocator al = {wb_alloc, NULL};
  wb_vars vars = {goap_domain_find_var(d, "hunger"), goap_domain_find_var(d, "energy"),
                  goap_domain_find_var(d, "coins"), goap_domain_find_var(d, "patrolled"),
                  goap_domain_find_var(d, "stock"), goap_domain_find_var(d, "skill")};
  int na = goap_domain_action_count(d), ng = goap_domain_goal_count(d);
  int ntypes = goap_file_agent_type_count(f);
  if (ntypes < 1 || na > 64 || ng > 16 || vars.hunger < 0 || vars.energy < 0 || vars.coins < 0 ||
      vars.patrolled < 0 || vars.stock < 0 || vars.skill < 0)
    return 0;
  goap_agent_type *types[8];
  int nt = ntypes < 8 ? ntypes : 8;
  for (int k = 0; k < nt; ++k) {
    goap_action_binding acts[64];
    goap_goal_binding goals[16];
    memset(acts, 0, sizeof acts);
    memset(goals, 0, sizeof goals);
    if (goap_file_agent_bindings(f, k, acts, na, goals, ng) != GOAP_OK) return 0;
    for (int i = 0; i < na; ++i) acts[i].tick = wb_tick;
    goap_sensor_desc sd = {wb_sense, &vars, 1.0};
    goap_agent_type_desc td;
    memset(&td, 0, sizeof td);
    td.allocator = al;
    td.name = goap_file_agent_type_name(f, k);
    td.actions = acts;
    td.action_count = na;
    td.goals = goals;
    td.goal_count = ng;
    td.sensors = &sd;
    td.sensor_count = 1;
    if (goap_agent_type_create(d, &td, &types[k], NULL) != GOAP_OK) return 0;
  }
  int lanes = world ? o->lanes : 1;
  goap_plan_cache *caches[64];
  for (int k = 0; k < lanes; ++k) goap_plan_cache_create(&al, 4096, &caches[k]);
  goap_planner_desc pd;
  memset(&pd, 0, sizeof pd);
  pd.allocator = al;
  goap_planner *shared = NULL;
  if (!world) goap_planner_create(d, &pd, &shared);
  goap_world *w = NULL;
  if (world) {
    goap_world_desc wd;
    memset(&wd, 0, sizeof wd);
    wd.allocator = al;
    wd.lanes = lanes;
    wd.seed = 1;
    if (goap_world_create(&wd, &w) != GOAP_OK) return 0;
  }
  int n = o->agents;
  wb_npc *npc = (wb_npc *)calloc((size_t)n, sizeof *npc);
  goap_agent **ag = (goap_agent **)calloc((size_t)n, sizeof *ag);
  size_t W = goap_domain_state_words(d);
  goap_word *mem = (goap_word *)calloc(W, sizeof *mem);
  double *cpu = (double *)calloc((size_t)o->frames, sizeof *cpu);
  if (!npc || !ag || !mem || !cpu) return 0;
  int ok = 1;
  for (int i = 0; i < n && ok; ++i) {
    npc[i].rng = 0x9e3779b9u ^ (uint32_t)i * 2654435761u;
    if (!npc[i].rng) npc[i].rng = 1;
    goap_state_init(d, mem);
    goap_state_set(d, mem, vars.hunger, i % 8);
    goap_state_set(d, mem, vars.energy, 2 + i % 7);
    goap_state_set(d, mem, vars.coins, i % 11);
    goap_agent_desc ad;
    memset(&ad, 0, sizeof ad);
    ad.type = types[i % nt];
    ad.memory = mem;
    ad.host = &npc[i];
    ad.cache = caches[i % lanes];
    ad.planner = shared;
    goap_agent_create(&ad, &ag[i], NULL);
    ok = ag[i] != NULL && (!world || goap_world_add(w, ag[i], i % lanes, 0) == GOAP_OK);
  }
  double sum = 0, exp_sum = 0, exp_max = 0, alloc_sum = 0, alloc_max = 0, plans_sum = 0;
  double fails_sum = 0, wait_max = 0;
  const double dt = 1.0 / 60;
  FILE *trace = o->trace ? fopen(o->trace, "w") : NULL;
  if (o->trace && !trace) ok = 0;
  if (trace)
    fprintf(trace, "mode,frame,cpu_ms,expansions,plans,cache_hits,searched,failed,replans,"
                   "sensed,ticks,started,wanting,served,preempted\n");
  for (int fr = 0; fr < o->warmup + o->frames && ok; ++fr) {
    int timed = fr >= o->warmup;
    uint64_t exp0 = 0, plans0 = 0, fails0 = 0;
    if (timed && !world)
      for (int i = 0; i < n; ++i) {
        goap_agent_stats st = goap_agent_get_stats(ag[i]);
        exp0 += st.expanded;
        plans0 += st.plans;
      }
    if (timed && world)
      for (int i = 0; i < n; ++i) plans0 += goap_agent_get_stats(ag[i]).plans;
    if (timed)
      for (int i = 0; i < n; ++i) fails0 += goap_agent_get_stats(ag[i]).plan_failures;
    size_t calls0 = wb_calls;
    uint64_t sensed0 = wb_sensed, ticks0 = wb_ticks;
    goap_agent_stats a0 = {0};
    if (trace && timed)
      for (int i = 0; i < n; ++i) wb_stats_add(&a0, ag[i]);
    struct rusage ru0, ru1; /* involuntary context switches during the update */
    if (trace) getrusage(RUSAGE_SELF, &ru0);
    double t0 = bench_clock_ns(CLOCK_THREAD_CPUTIME_ID);
    if (world && fr == o->warmup && goap_world_set_pacing(w, o->pace) != GOAP_OK) ok = 0;
    if (world) {
      goap_status st = goap_world_update(w, dt, timed ? o->budget : 0);
      ok = st == GOAP_OK;
    } else {
      for (int i = 0; i < n; ++i) {
        goap_status st = goap_agent_update(ag[i], dt);
        if (st == GOAP_OUT_OF_MEMORY || st == GOAP_INVALID_ARGUMENT) ok = 0;
      }
    }
    double t1 = bench_clock_ns(CLOCK_THREAD_CPUTIME_ID);
    if (trace) getrusage(RUSAGE_SELF, &ru1);
    if (!timed) continue;
    size_t calls = wb_calls - calls0;
    uint64_t exp1 = 0, plans1 = 0, fails1 = 0;
    for (int i = 0; i < n; ++i) {
      goap_agent_stats st = goap_agent_get_stats(ag[i]);
      if (!world) exp1 += st.expanded;
      plans1 += st.plans;
      fails1 += st.plan_failures;
    }
    fails_sum += (double)(fails1 - fails0);
    if (trace) {
      goap_agent_stats a1 = {0};
      for (int i = 0; i < n; ++i) wb_stats_add(&a1, ag[i]);
      uint64_t rp0 = 0, rp1 = 0;
      for (int r = 0; r < GOAP_REPLAN_REASON_COUNT; ++r) rp0 += a0.replans[r], rp1 += a1.replans[r];
      goap_world_stats ws = goap_world_get_stats(w);
      fprintf(trace, "%s,%d,%.4f,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%d,%d,%ld\n",
              world ? "world" : "plain", fr - o->warmup, (t1 - t0) / 1e6,
              (unsigned long long)(a1.expanded - a0.expanded),
              (unsigned long long)(a1.plans - a0.plans),
              (unsigned long long)(a1.cache_hits - a0.cache_hits),
              (unsigned long long)((a1.plans - a0.plans) - (a1.cache_hits - a0.cache_hits) +
                                   (a1.plan_failures - a0.plan_failures)),
              (unsigned long long)(a1.plan_failures - a0.plan_failures),
              (unsigned long long)(rp1 - rp0), (unsigned long long)(wb_sensed - sensed0),
              (unsigned long long)(wb_ticks - ticks0),
              (unsigned long long)(a1.actions_started - a0.actions_started),
              world ? ws.wanting : 0, world ? ws.served : 0, ru1.ru_nivcsw - ru0.ru_nivcsw);
    }
    if (world && goap_world_get_stats(w).max_wait > wait_max)
      wait_max = goap_world_get_stats(w).max_wait;
    double e = world ? (double)goap_world_get_stats(w).expansions : (double)(exp1 - exp0);
    cpu[fr - o->warmup] = (t1 - t0) / 1e6;
    sum += (t1 - t0) / 1e6;
    exp_sum += e;
    if (e > exp_max) exp_max = e;
    alloc_sum += (double)calls;
    if ((double)calls > alloc_max) alloc_max = (double)calls;
    plans_sum += (double)(plans1 - plans0);
  }
  if (ok) {
    if (fmin)
      for (int i = 0; i < o->frames; ++i)
        if (cpu[i] < fmin[i]) fmin[i] = cpu[i];
    double mean = sum / o->frames, local = wb_local_p99(cpu, o->frames);
    qsort(cpu, (size_t)o->frames, sizeof *cpu, wb_cmp);
    double p50 = cpu[o->frames / 2];
    double p99 = cpu[(size_t)((o->frames - 1) * 0.99)];
    double mx = cpu[o->frames - 1];
    const char *mode = world ? "world" : "plain";
    if (o->json)
      printf("{\"bench\":\"agents_world\",\"mode\":\"%s\",\"agents\":%d,\"lanes\":%d,"
             "\"budget\":%llu,\"pace\":%u,\"frames\":%d,\"cpu_ms_mean\":%.3f,\"cpu_ms_p50\":%.3f,"
             "\"cpu_ms_p99\":%.3f,\"cpu_ms_max\":%.3f,\"p99_over_mean\":%.2f,"
             "\"expansions_mean\":%.0f,\"expansions_max\":%.0f,\"allocs_mean\":%.2f,"
             "\"allocs_max\":%.0f,\"plans_per_frame\":%.1f,\"failed_per_frame\":%.2f,"
             "\"max_wait_frames\":%.0f,\"p99_over_local\":%.2f}\n",
             mode, n, lanes, (unsigned long long)(world ? o->budget : 0), world ? o->pace : 0u,
             o->frames, mean, p50,
             p99, mx, p99 / mean, exp_sum / o->frames, exp_max, alloc_sum / o->frames, alloc_max,
             plans_sum / o->frames, fails_sum / o->frames, wait_max, local);
    else
      printf("%-6s %7d %5d %8llu %4u %8.3f %8.3f %8.3f %8.3f %6.2f %9.0f %9.0f %8.2f %6.0f %7.1f "
             "%7.2f %6.0f %7.2f\n",
             mode, n, lanes, (unsigned long long)(world ? o->budget : 0), world ? o->pace : 0u,
             mean, p50, p99, mx,
             p99 / mean, exp_sum / o->frames, exp_max, alloc_sum / o->frames, alloc_max,
             plans_sum / o->frames, fails_sum / o->frames, wait_max, local);
  }
  if (trace) fclose(trace);
  goap_world_destroy(w);
  for (int i = 0; i < n; ++i) goap_agent_destroy(ag[i]);
  for (int k = 0; k < lanes; ++k) goap_plan_cache_destroy(caches[k]);
  goap_planner_destroy(shared);
  for (int k = 0; k < nt; ++k) goap_agent_type_destroy(types[k]);
  free(npc);
  free(ag);
  free(mem);
  free(cpu);
  return ok;
}

static int wb_main(int argc, char **argv) {
  wb_opts o;
  memset(&o, 0, sizeof o);
  o.agents = 10000;
  o.frames = 600;
  o.warmup = 600;
  o.lanes = 1;
  o.budget = 20000;
  o.modes = 3;
  o.repeat = 1;
  o.file = GOAP_BENCH_DIR "/npc_world.goap";
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    long x = 0;
    if (!strcmp(a, "--json")) o.json = 1;
    else if (!strcmp(a, "--agents") && parse_int(v, 1, 10000000, &x)) o.agents = (int)x, ++i;
    else if (!strcmp(a, "--frames") && parse_int(v, 1, 1000000, &x)) o.frames = (int)x, ++i;
    else if (!strcmp(a, "--warmup") && parse_int(v, 0, 1000000, &x)) o.warmup = (int)x, ++i;
    else if (!strcmp(a, "--lanes") && parse_int(v, 1, 64, &x)) o.lanes = (int)x, ++i;
    else if (!strcmp(a, "--budget") && parse_int(v, 0, 1000000000, &x)) o.budget = (uint64_t)x, ++i;
    else if (!strcmp(a, "--mode") && v && (!strcmp(v, "plain") || !strcmp(v, "world") || !strcmp(v, "both")))
      o.modes = !strcmp(v, "plain") ? 1 : !strcmp(v, "world") ? 2 : 3, ++i;
    else if (!strcmp(a, "--file") && v) o.file = v, ++i;
    else if (!strcmp(a, "--trace") && v) o.trace = v, ++i;
    else if (!strcmp(a, "--repeat") && parse_int(v, 1, 100, &x)) o.repeat = (int)x, ++i;
    else if (!strcmp(a, "--pace") && parse_int(v, 0, 10000, &x) && (x == 0 || x >= 100))
      o.pace = (uint32_t)x, ++i;
    else {
      fprintf(stderr,
              "usage: goap_bench_agents --world [--agents N] [--frames N] [--warmup N] "
              "[--lanes N] [--budget EXPANSIONS] [--mode plain|world|both] [--file PATH] "
              "[--pace PERCENT] [--repeat RUNS] [--trace CSV] [--json]\n");
      return 2;
    }
  }
  goap_file *f = NULL;
  goap_error diag;
  if (goap_file_load(o.file, NULL, &f, &diag) != GOAP_OK) {
    char buf[1024];
    goap_error_format(&diag, buf, sizeof buf);
    fprintf(stderr, "%s\n", buf);
    return 2;
  }
  if (!o.json)
    printf("goap_bench_agents --world: %s, %d actions, %d warm-up + %d timed frames at 60 Hz; "
           "frame CPU time (thread) in ms\n%-6s %7s %5s %8s %4s %8s %8s %8s %8s %6s %9s %9s %8s "
           "%6s %7s %7s %6s %7s\n",
           o.file, goap_domain_action_count(goap_file_domain(f)), o.warmup, o.frames, "mode",
           "agents", "lanes", "budget", "pace", "mean", "p50", "p99", "max", "p99/m", "exp/frame",
           "exp max", "alloc/f", "al max", "plans/f", "fails/f", "wait", "p99/loc");
  int bad = 0;
  double *fmin = (double *)malloc((size_t)o.frames * sizeof *fmin);
  for (int mode = 0; mode < 2 && fmin; ++mode) {
    if (!(o.modes & (1 << mode))) continue;
    for (int i = 0; i < o.frames; ++i) fmin[i] = 1e300;
    for (int r = 0; r < o.repeat; ++r)
      if (!wb_run(&o, f, mode, fmin)) bad++;
    if (o.repeat < 2) continue;
    /* the frame-by-frame minimum over the runs: the simulation is deterministic, so this
     * keeps each frame's own cost and drops most of what other processes added */
    double sum = 0, local = wb_local_p99(fmin, o.frames);
    for (int i = 0; i < o.frames; ++i) sum += fmin[i];
    qsort(fmin, (size_t)o.frames, sizeof *fmin, wb_cmp);
    double mean = sum / o.frames, p99 = fmin[(size_t)((o.frames - 1) * 0.99)];
    if (o.json)
      printf("{\"bench\":\"agents_world_min\",\"mode\":\"%s\",\"runs\":%d,"
             "\"cpu_ms_mean\":%.3f,\"cpu_ms_p50\":%.3f,\"cpu_ms_p99\":%.3f,"
             "\"cpu_ms_max\":%.3f,\"p99_over_mean\":%.2f,\"p99_over_local\":%.2f}\n",
             mode ? "world" : "plain", o.repeat, mean, fmin[o.frames / 2], p99,
             fmin[o.frames - 1], p99 / mean, local);
    else
      printf("%-6s min of %d runs, frame by frame: %8.3f %8.3f %8.3f %8.3f %6.2f  p99/loc %.2f\n",
             mode ? "world" : "plain", o.repeat, mean, fmin[o.frames / 2], p99,
             fmin[o.frames - 1], p99 / mean, local);
  }
  if (!fmin) bad++;
  free(fmin);
  goap_file_destroy(f);
  return bad ? 1 : 0;
}

#endif /* GOAP_BENCH_WORLD_H */
