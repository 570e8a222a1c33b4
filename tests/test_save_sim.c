/*
 * test_save_sim.c -- the promise of goap/save.h: a run saved at any frame and restored into new
 * objects goes on exactly as the run that never stopped.
 *
 * Three worlds, each run for 2,000 frames (300 in sanitizer and unoptimized builds;
 * GOAP_SAVE_FRAMES overrides):
 *  - village: one agent with every action and goal of examples/village.goap, searches sliced
 *    into 64 expansions per update (so searches span updates and the snapshot must carry them),
 *    actions lasting 1-3 frames, 4% of them failing, and the host putting the agent back in a
 *    random scenario's start state now and then (a new day in the village);
 *  - squad: simulation `flank` of examples/squad.goap (five members of five types, a shared
 *    blackboard with the flank_slot reservation, the squad coordinator's get_to_cover order,
 *    `at` lines, `fail` lines, sensed variables) driven the way goap_file_simulate drives it,
 *    plus 4% random action failures and, now and then, a random world variable set to a
 *    random legal value (shared ones through the blackboard);
 *  - soak: eight agents of the four types of test_soak.c (the soldier and brawler of
 *    examples/soldier.goap, the camp's forager and rat: timeouts, hanging actions, on_fail
 *    facts, watched variables, validity conditions, a sensor, a dynamic priority, a cost
 *    scale), with its random world writing their memory behind their backs, asking for
 *    replans and resetting them.
 * A frame is: the host's part (scripted events, random writes: memory may then differ from
 * what the agents last noticed), the save point, the agents' updates, the squad's update.
 *
 * Every event of every agent (kind, time, reason, goal, priority, action, plan, cost, memory
 * writes, statuses, resources) is appended to a byte log, and at the end every agent's memory
 * and the snapshots of every object. The reference run gives the log R. A second run, at the
 * save point of every frame k (0 <= k < 2,000), snapshots every agent, the blackboard and the
 * squad, copies the host's own plain state (the world, the random generator, each action's
 * fate: what a game saves itself), creates new agents, blackboard and squad over the same
 * types, restores them, checks that their snapshots are byte for byte the saved ones, and runs
 * them on:
 *  - squad and soak: to the end; their log must be R byte for byte (O(frames^2) frames in all,
 *    a few seconds in Release);
 *  - village: its searches cost milliseconds (160 actions, hff), so 2,000 runs to the end
 *    take 5 minutes of CPU in Release (2,001,000 village frames): the CTest save_sim_full (label
 *    "long", GOAP_SAVE_FULL=1) does exactly that, every restored run to the end, its log R
 *    byte for byte. The default run (test_save_sim) is the quick form: a restored run goes
 *    20 frames, then its log so far must be R's up to that frame and the hash of its whole
 *    state (every snapshot and the host's state) the reference run's at that frame; the runs
 *    saved at frames 0, 500, 1000 and 1500 go to the end and must give R.
 * The saving run's own log must be R too.
 */
#include <goap/agent.h>
#include <goap/file.h>
#include <goap/sim.h>
#include <goap/save.h>
#include <goap/squad.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/format_internal.h"
#include "test.h"
#include "test_rng.h"

/* Sanitizer and unoptimized builds run 300 frames (the checks are O(frames^2)); the
 * environment variable GOAP_SAVE_FRAMES overrides. */
#if defined(__SANITIZE_ADDRESS__)
#define SAVE_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SAVE_SANITIZED 1
#endif
#endif
#ifndef SAVE_SANITIZED
#define SAVE_SANITIZED 0
#endif
#if SAVE_SANITIZED || !defined(__OPTIMIZE__)
#define SAVE_DEFAULT_FRAMES 300
#else
#define SAVE_DEFAULT_FRAMES 2000
#endif

#define MAXA 8
#define MAXW 16
#define SNAP 4096

/* ---- the byte log ---------------------------------------------------------------------------- */

typedef struct blog {
  uint8_t *p;
  size_t n, cap;
} blog;

static void log_bytes(blog *l, const void *data, size_t n) {
  if (n == 0) return;
  if (l->n + n > l->cap) {
    size_t c = l->cap ? l->cap : 4096;
    while (c < l->n + n) c *= 2;
    uint8_t *q = (uint8_t *)realloc(l->p, c);
    if (!q) abort();
    l->p = q;
    l->cap = c;
  }
  memcpy(l->p + l->n, data, n);
  l->n += n;
}

static void log_i64(blog *l, int64_t v) { log_bytes(l, &v, sizeof v); }
static void log_f64(blog *l, double v) { log_bytes(l, &v, sizeof v); }

/* ---- harness --------------------------------------------------------------------------------- */

typedef struct rt rt;

/* A world: its configuration (immutable) and how a frame goes. */
typedef struct world {
  const char *name;
  const goap_domain *dom[MAXA];    /* per agent */
  goap_agent_type *type[MAXA];
  int nagents;
  int blackboard, squad;
  size_t state_size;               /* the host's plain state, copied at a save */
  const goap_word *(*memory)(const rt *r, int agent); /* initial memory of a fresh run */
  void (*setup)(rt *r);            /* a fresh run: resources, squad members' orders, ... */
  void (*pre)(rt *r, long frame);  /* the host's part of a frame */
  double (*dt)(const rt *r, long frame);
  const void *cfg;
} world;

typedef struct member_ctx {
  rt *r;
  int index;
} member_ctx;

struct rt {
  const world *w;
  void *state;
  goap_blackboard *bb;
  goap_agent *a[MAXA];
  member_ctx ctx[MAXA];
  goap_squad *squad;
  blog log;
  long frame;
};

static void on_event(goap_agent *agent, const goap_agent_event *ev, void *user) {
  rt *r = (rt *)user;
  blog *l = &r->log;
  const member_ctx *m = (const member_ctx *)goap_agent_host(agent);
  log_i64(l, r->frame);
  log_i64(l, m->index);
  log_i64(l, (int64_t)ev->kind);
  log_f64(l, ev->time);
  log_i64(l, (int64_t)ev->reason);
  log_i64(l, ev->goal);
  log_f64(l, ev->priority);
  log_i64(l, ev->action);
  log_i64(l, ev->timeout);
  log_i64(l, ev->plan ? ev->plan_length : -1);
  for (int i = 0; ev->plan && i < ev->plan_length; ++i) log_i64(l, ev->plan[i]);
  log_f64(l, ev->cost);
  log_i64(l, ev->cached);
  log_i64(l, ev->skipped);
  log_i64(l, (int64_t)ev->status);
  log_i64(l, ev->var);
  log_i64(l, ev->old_value);
  log_i64(l, ev->value);
  if (ev->resource) log_bytes(l, ev->resource, strlen(ev->resource) + 1);
}

static int make_agents(rt *r, int fresh) {
  const world *w = r->w;
  for (int i = 0; i < w->nagents; ++i) {
    r->ctx[i].r = r;
    r->ctx[i].index = i;
    goap_agent_desc ad;
    memset(&ad, 0, sizeof ad);
    ad.type = w->type[i];
    ad.memory = fresh && w->memory ? w->memory(r, i) : NULL;
    ad.host = &r->ctx[i];
    ad.blackboard = r->bb;
    ad.on_event = on_event;
    ad.event_user = r;
    if (goap_agent_create(&ad, &r->a[i], NULL) != GOAP_OK) return 0;
  }
  return 1;
}

static int rt_fresh(rt *r, const world *w, const void *state0) {
  memset(r, 0, sizeof *r);
  r->w = w;
  r->state = malloc(w->state_size);
  if (!r->state) return 0;
  memcpy(r->state, state0, w->state_size);
  if (w->blackboard && goap_blackboard_create(NULL, &r->bb) != GOAP_OK) return 0;
  if (w->setup) w->setup(r); /* before the agents: resources */
  if (!make_agents(r, 1)) return 0;
  if (w->squad) {
    if (goap_squad_create(NULL, &r->squad) != GOAP_OK) return 0;
    for (int i = 0; i < w->nagents; ++i)
      if (goap_squad_add(r->squad, r->a[i]) != GOAP_OK) return 0;
  }
  return 1;
}

static void rt_destroy(rt *r) {
  goap_squad_destroy(r->squad);
  for (int i = 0; i < MAXA; ++i) goap_agent_destroy(r->a[i]);
  goap_blackboard_destroy(r->bb);
  free(r->state);
  free(r->log.p);
  memset(r, 0, sizeof *r);
}

typedef struct saved {
  uint8_t agent[MAXA][SNAP], bb[SNAP], squad[SNAP];
  size_t agent_n[MAXA], bb_n, squad_n;
} saved;

static int save_all(const rt *r, saved *s) {
  for (int i = 0; i < r->w->nagents; ++i)
    if (goap_agent_snapshot(r->a[i], s->agent[i], SNAP, &s->agent_n[i]) != GOAP_OK) return 0;
  if (r->bb && goap_blackboard_snapshot(r->bb, s->bb, SNAP, &s->bb_n) != GOAP_OK) return 0;
  if (r->squad && goap_squad_snapshot(r->squad, s->squad, SNAP, &s->squad_n) != GOAP_OK) return 0;
  return 1;
}

/* Restores a run from a save: the host's state copied, new objects restored. */
static int rt_restore(rt *r, const world *w, const void *state, const saved *s, long frame,
                      goap_error *why) {
  memset(r, 0, sizeof *r);
  r->w = w;
  r->frame = frame;
  why->message[0] = '\0';
  r->state = malloc(w->state_size);
  if (!r->state) return 0;
  memcpy(r->state, state, w->state_size);
  if (w->blackboard) {
    if (goap_blackboard_create(NULL, &r->bb) != GOAP_OK) return 0;
    if (goap_blackboard_restore(r->bb, s->bb, s->bb_n, why) != GOAP_OK) return 0;
  }
  if (!make_agents(r, 0)) return 0;
  for (int i = 0; i < w->nagents; ++i)
    if (goap_agent_restore(r->a[i], s->agent[i], s->agent_n[i], why) != GOAP_OK) return 0;
  if (w->squad) {
    if (goap_squad_create(NULL, &r->squad) != GOAP_OK) return 0;
    if (goap_squad_restore(r->squad, s->squad, s->squad_n, r->a, w->nagents, why) != GOAP_OK)
      return 0;
  }
  return 1;
}

static int same_snapshots(const rt *r, const saved *s) {
  static saved again;
  if (!save_all(r, &again)) return 0;
  for (int i = 0; i < r->w->nagents; ++i)
    if (again.agent_n[i] != s->agent_n[i] ||
        memcmp(again.agent[i], s->agent[i], s->agent_n[i]) != 0)
      return 0;
  if (r->bb && (again.bb_n != s->bb_n || memcmp(again.bb, s->bb, s->bb_n) != 0)) return 0;
  if (r->squad && (again.squad_n != s->squad_n || memcmp(again.squad, s->squad, s->squad_n) != 0))
    return 0;
  return 1;
}

/* Frames [from, to): the host's part of each but the first (done before the save point), the
 * agents' updates, the squad's update. */
static int rt_run(rt *r, long from, long to) {
  const world *w = r->w;
  for (long f = from; f < to; ++f) {
    r->frame = f;
    if (f != from) w->pre(r, f);
    double dt = w->dt(r, f);
    for (int i = 0; i < w->nagents; ++i) {
      goap_status st = goap_agent_update(r->a[i], dt);
      if (st == GOAP_OUT_OF_MEMORY || st == GOAP_INVALID_ARGUMENT) return 0;
    }
    if (r->squad) goap_squad_update(r->squad);
  }
  return 1;
}

/* The end of a log: every agent's memory and every object's snapshot. */
static void rt_finish(rt *r) {
  const world *w = r->w;
  static saved fin;
  if (!save_all(r, &fin)) {
    log_bytes(&r->log, "snapshot failed", 15);
    return;
  }
  for (int i = 0; i < w->nagents; ++i) {
    log_bytes(&r->log, goap_agent_memory(r->a[i]),
              goap_domain_state_words(w->dom[i]) * sizeof(goap_word));
    log_bytes(&r->log, fin.agent[i], fin.agent_n[i]);
  }
  if (r->bb) log_bytes(&r->log, fin.bb, fin.bb_n);
  if (r->squad) log_bytes(&r->log, fin.squad, fin.squad_n);
}

/* GOAP_SAVE_FULL=1: every restored village run goes to the end too (save_sim_full). */
static int full_village(void) {
  const char *e = getenv("GOAP_SAVE_FULL");
  return e && strcmp(e, "1") == 0;
}

static long frames_to_run(void) {
  const char *e = getenv("GOAP_SAVE_FRAMES");
  if (e && *e) {
    long n = strtol(e, NULL, 10);
    if (n >= 10 && n <= 1000000) return n;
  }
  return SAVE_DEFAULT_FRAMES;
}

/* A hash of everything the run's future depends on: every object's snapshot and the host's
 * state. */
static uint64_t state_hash(const rt *r) {
  static saved x;
  uint64_t h = 14695981039346656037ull;
  if (!save_all(r, &x)) return 0;
  for (int i = 0; i <= r->w->nagents; ++i) {
    const uint8_t *p = i < r->w->nagents ? x.agent[i] : (const uint8_t *)r->state;
    size_t n = i < r->w->nagents ? x.agent_n[i] : r->w->state_size;
    for (size_t k = 0; k < n; ++k) h = (h ^ p[k]) * 1099511628211ull;
  }
  for (size_t k = 0; r->bb && k < x.bb_n; ++k) h = (h ^ x.bb[k]) * 1099511628211ull;
  for (size_t k = 0; r->squad && k < x.squad_n; ++k) h = (h ^ x.squad[k]) * 1099511628211ull;
  return h;
}

/* Runs the promise on world w from the host state state0. horizon 0: every restored run goes
 * to the end and its log must be the reference's. horizon H: a restored run goes H frames,
 * then its log so far and the hash of its whole state (every snapshot and the host's state)
 * must be the reference's at that frame; every 500th goes to the end as well. Returns the
 * failures. */
static int check_world(const world *w, const void *state0, long frames, long horizon,
                       long *events_out, size_t *max_snapshot) {
  int failures = 0;
  rt ref;
  size_t *log_end = (size_t *)calloc((size_t)frames, sizeof *log_end);
  uint64_t *hash = (uint64_t *)calloc((size_t)frames, sizeof *hash);
  if (!log_end || !hash || !rt_fresh(&ref, w, state0)) {
    fprintf(stderr, "%s: cannot create the reference run\n", w->name);
    free(log_end);
    free(hash);
    return 1;
  }
  for (long f = 0; f < frames; ++f) {
    ref.frame = f;
    w->pre(&ref, f);
    if (!rt_run(&ref, f, f + 1)) {
      fprintf(stderr, "%s: the reference run failed\n", w->name);
      failures++;
      break;
    }
    log_end[f] = ref.log.n;
    if (horizon) hash[f] = state_hash(&ref);
  }
  rt_finish(&ref);
  blog R = ref.log;
  ref.log.p = NULL;
  rt_destroy(&ref);
  *events_out = (long)R.n;

  rt a;
  static saved s;
  if (failures || !rt_fresh(&a, w, state0)) {
    free(R.p);
    free(log_end);
    free(hash);
    return failures + 1;
  }
  *max_snapshot = 0;
  for (long k = 0; k < frames && failures < 5; ++k) {
    a.frame = k;
    w->pre(&a, k);
    if (!save_all(&a, &s)) {
      fprintf(stderr, "%s: snapshot failed at frame %ld\n", w->name, k);
      failures++;
      break;
    }
    for (int i = 0; i < w->nagents; ++i)
      if (s.agent_n[i] > *max_snapshot) *max_snapshot = s.agent_n[i];
    rt b;
    goap_error why;
    if (!rt_restore(&b, w, a.state, &s, k, &why)) {
      fprintf(stderr, "%s: restore failed at frame %ld: %s\n", w->name, k, why.message);
      failures++;
      rt_destroy(&b);
      continue;
    }
    if (!same_snapshots(&b, &s)) {
      fprintf(stderr, "%s: the restored objects snapshot differently at frame %ld\n", w->name, k);
      failures++;
    }
    /* the restored run's log starts where the saved run's log was */
    log_bytes(&b.log, a.log.p, a.log.n);
    long end = horizon && k % 500 != 0 && k + horizon < frames ? k + horizon : frames;
    int ok = rt_run(&b, k, end);
    if (ok && end == frames) {
      rt_finish(&b);
      ok = b.log.n == R.n && memcmp(b.log.p, R.p, R.n) == 0;
    } else if (ok) {
      ok = b.log.n == log_end[end - 1] && memcmp(b.log.p, R.p, b.log.n) == 0 &&
           state_hash(&b) == hash[end - 1];
    }
    if (!ok) {
      size_t at = 0;
      while (at < b.log.n && at < R.n && b.log.p[at] == R.p[at]) ++at;
      fprintf(stderr, "%s: saved at frame %ld, restored, run to frame %ld: the log or the "
                      "state differs (log: first difference at byte %zu of %zu)\n",
              w->name, k, end, at, b.log.n);
      failures++;
    }
    rt_destroy(&b);
    /* the saved run goes on with this frame's updates */
    rt_run(&a, k, k + 1);
  }
  rt_finish(&a);
  if (failures == 0 && (a.log.n != R.n || memcmp(a.log.p, R.p, R.n) != 0)) {
    fprintf(stderr, "%s: the saving run's own log differs from the reference\n", w->name);
    failures++;
  }
  rt_destroy(&a);
  free(R.p);
  free(log_end);
  free(hash);
  return failures;
}

/* ---- random numbers (splitmix64) ------------------------------------------------------------- */

static uint64_t next_u64(uint64_t *s) {
  return splitmix64(s);
}
static uint32_t below(uint64_t *s, uint32_t n) { return (uint32_t)(next_u64(s) % n); }
static int chance(uint64_t *s, uint32_t per_1000) { return below(s, 1000) < per_1000; }

/* ---- worlds of .goap files (village, squad) --------------------------------------------------- */

typedef struct file_cfg {
  const goap_file *f;
  const goap_domain *d;
  const goap__sim *sm;             /* NULL: the village (no simulation block) */
  goap_word starts[8][MAXW];       /* village: scenario start states */
  int nstarts;
  goap_word mem[MAXA][MAXW];       /* squad: each member's initial memory */
  double step;
} file_cfg;

typedef struct file_member {
  double elapsed;
  int fresh, doomed, frames;       /* doomed: fails at its end; frames: village duration */
} file_member;

typedef struct file_state {
  goap_word world[MAXW];
  uint64_t rng;
  uint32_t next_ev;
  file_member m[MAXA];
} file_state;

static void world_assign(rt *r, const goap_effect *e, int n, int to_board) {
  const file_cfg *c = (const file_cfg *)r->w->cfg;
  file_state *s = (file_state *)r->state;
  for (int i = 0; i < n; ++i) {
    if (goap_state_assign(c->d, s->world, &e[i], 1) != GOAP_OK) continue;
    goap_var_info vi;
    goap_domain_var_info(c->d, e[i].var, &vi);
    if (to_board && r->bb && (vi.flags & GOAP_VAR_SHARED))
      goap_blackboard_set(r->bb, vi.name, goap_state_get(c->d, s->world, e[i].var));
  }
}

static void file_start(goap_agent *agent, int action, void *user) {
  (void)action;
  (void)user;
  member_ctx *m = (member_ctx *)goap_agent_host(agent);
  file_state *s = (file_state *)m->r->state;
  file_member *fm = &s->m[m->index];
  fm->elapsed = 0;
  fm->fresh = 1;
  fm->doomed = chance(&s->rng, 40);
  fm->frames = 2 + (int)below(&s->rng, 5);
}

static goap_action_state file_tick(goap_agent *agent, int action, double dt, void *user) {
  (void)user;
  member_ctx *m = (member_ctx *)goap_agent_host(agent);
  rt *r = m->r;
  const file_cfg *c = (const file_cfg *)r->w->cfg;
  file_state *s = (file_state *)r->state;
  file_member *fm = &s->m[m->index];
  if (fm->fresh) fm->fresh = 0;
  else fm->elapsed += dt;
  if (c->sm) {
    if (fm->elapsed + 1e-9 < c->f->action_rt[action].duration) return GOAP_ACTION_RUNNING;
    for (uint32_t k = 0; k < c->sm->fail_count; ++k) {
      const goap__sim_fail *fl = &c->f->sim_fails[c->sm->fail + k];
      if (fl->action == action &&
          goap_state_satisfies(c->d, s->world, fl->cond_count ? c->f->rt_conds + fl->cond : NULL,
                               (int)fl->cond_count))
        return GOAP_ACTION_FAILURE;
    }
  } else if (--fm->frames > 0) {
    return GOAP_ACTION_RUNNING;
  }
  if (fm->doomed) return GOAP_ACTION_FAILURE;
  int ne = 0;
  const goap_effect *e = goap_domain_action_eff(c->d, action, &ne);
  world_assign(r, e, ne, 0);
  return GOAP_ACTION_SUCCESS;
}

/* The sensor: `sense` variables (every variable for the village) from the world. */
static void file_sense(goap_agent *agent, void *user) {
  const file_cfg *c = (const file_cfg *)user;
  member_ctx *m = (member_ctx *)goap_agent_host(agent);
  file_state *s = (file_state *)m->r->state;
  if (c->sm) {
    for (uint32_t k = 0; k < c->sm->sense_count; ++k) {
      int32_t v = c->f->rt_vars[c->sm->sense + k];
      int32_t x = goap_state_get(c->d, s->world, v);
      if (goap_agent_get(agent, v) != x) goap_agent_set(agent, v, x);
    }
    return;
  }
  int nv = goap_domain_var_count(c->d);
  for (int v = 0; v < nv; ++v) {
    int32_t x = goap_state_get(c->d, s->world, v);
    if (goap_agent_get(agent, v) != x) goap_agent_set(agent, v, x);
  }
}

static const goap_word *file_memory(const rt *r, int i) {
  const file_cfg *c = (const file_cfg *)r->w->cfg;
  if (!c->sm) return ((const file_state *)r->state)->world;
  return c->mem[i];
}

static void file_setup(rt *r) {
  const file_cfg *c = (const file_cfg *)r->w->cfg;
  for (int k = 0; k < c->f->resource_count; ++k)
    goap_blackboard_add_resource(r->bb, c->f->resources[k].name, c->f->resources[k].capacity);
}

static void file_pre(rt *r, long frame) {
  const file_cfg *c = (const file_cfg *)r->w->cfg;
  file_state *s = (file_state *)r->state;
  double time = (double)frame * c->step;
  if (c->sm) {
    const goap__sim_event *evs = c->sm->event_count ? c->f->sim_events + c->sm->event : NULL;
    while (s->next_ev < c->sm->event_count && evs[s->next_ev].time <= time + 1e-9) {
      const goap__sim_event *ev = &evs[s->next_ev++];
      if (ev->order >= 0) goap_squad_order(r->squad, (goap_squad_behavior)ev->order);
      else if (ev->eff_count) world_assign(r, c->f->rt_effs + ev->eff, (int)ev->eff_count, 1);
    }
    if (chance(&s->rng, 30)) { /* something happens: a random variable, a random legal value */
      int v = (int)below(&s->rng, (uint32_t)goap_domain_var_count(c->d));
      goap_var_info vi;
      goap_domain_var_info(c->d, v, &vi);
      goap_effect e = {v, GOAP_SET, vi.lo + (int32_t)below(&s->rng, (uint32_t)(vi.hi - vi.lo + 1))};
      world_assign(r, &e, 1, 1);
    }
    if (chance(&s->rng, 10)) /* the squad regroups */
      goap_squad_order(r->squad, (goap_squad_behavior)(1 + below(&s->rng, 4)));
  } else if (chance(&s->rng, goap_agent_goal(r->a[0]) < 0 ? 20 : 2)) {
    /* a new day in the village: a scenario's start state */
    memcpy(s->world, c->starts[below(&s->rng, (uint32_t)c->nstarts)], sizeof s->world);
  }
}

static double file_dt(const rt *r, long frame) {
  return frame == 0 ? 0.0 : ((const file_cfg *)r->w->cfg)->step;
}

static goap_file *load(const char *name) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", GOAP_EXAMPLES_DIR, name);
  goap_file *f = NULL;
  goap_error diag;
  if (goap_file_load(path, NULL, &f, &diag) != GOAP_OK) {
    char buf[1024];
    goap_error_format(&diag, buf, sizeof buf);
    fprintf(stderr, "%s\n", buf);
    return NULL;
  }
  return f;
}

/* The agent types of a file world: member k of the simulation (or the file's one agent). */
static int file_types(world *w, file_cfg *c, const goap_file *f, int member_type, int k,
                      uint32_t budget) {
  const goap_domain *d = c->d;
  int na = goap_domain_action_count(d), ng = goap_domain_goal_count(d);
  goap_action_binding *ab = (goap_action_binding *)calloc((size_t)na, sizeof *ab);
  goap_goal_binding *gb = (goap_goal_binding *)calloc((size_t)(ng ? ng : 1), sizeof *gb);
  if (!ab || !gb) return 0;
  goap_file_agent_bindings(f, member_type, ab, na, gb, ng);
  for (int i = 0; i < na; ++i) {
    ab[i].start = file_start;
    ab[i].tick = file_tick;
  }
  goap_sensor_desc sensor = {file_sense, c, 0.0};
  goap_agent_type_desc td;
  memset(&td, 0, sizeof td);
  td.name = member_type >= 0 ? goap_file_agent_type_name(f, member_type) : "villager";
  td.actions = ab;
  td.action_count = na;
  td.goals = gb;
  td.goal_count = ng;
  td.sensors = &sensor;
  td.sensor_count = 1;
  td.expansions_per_update = budget;
  if (budget) {
    /* the village: greedy search on hff, as a game would plan in a large domain, and the
     * goals a villager reaches from the scenarios' start states in a few hundred nodes */
    td.search = GOAP_SEARCH_GREEDY;
    td.heuristic = GOAP_H_FF;
    td.max_nodes = 400;
    for (int g = 0; g < ng; ++g) {
      const char *gn = goap_domain_goal_name(d, g);
      gb[g].disabled = strcmp(gn, "build_house") != 0 && strcmp(gn, "dig_well") != 0 &&
                       strcmp(gn, "open_stall") != 0;
    }
  }
  goap_error err;
  goap_status st = goap_agent_type_create(d, &td, &w->type[k], &err);
  if (st != GOAP_OK) fprintf(stderr, "type: %s\n", err.message);
  w->dom[k] = d;
  free(ab);
  free(gb);
  return st == GOAP_OK;
}

TEST(village_every_frame) {
  goap_file *f = load("village.goap");
  REQUIRE(f);
  static file_cfg c;
  memset(&c, 0, sizeof c);
  c.f = f;
  c.d = goap_file_domain(f);
  c.step = 0.1;
  REQUIRE(goap_domain_state_words(c.d) <= MAXW);
  c.nstarts = goap_file_scenario_count(f);
  if (c.nstarts > 8) c.nstarts = 8;
  REQUIRE(c.nstarts > 0);
  for (int s = 0; s < c.nstarts; ++s) {
    const goap_scenario *sc = goap_file_scenario(f, s);
    goap_state_init(c.d, c.starts[s]);
    goap_state_assign(c.d, c.starts[s], sc->given, sc->given_count);
  }
  world w;
  memset(&w, 0, sizeof w);
  w.name = "village";
  w.nagents = 1;
  w.state_size = sizeof(file_state);
  w.memory = file_memory;
  w.pre = file_pre;
  w.dt = file_dt;
  w.cfg = &c;
  REQUIRE(file_types(&w, &c, f, -1, 0, 8));
  file_state s0;
  memset(&s0, 0, sizeof s0);
  memcpy(s0.world, c.starts[0], sizeof s0.world);
  s0.rng = 20261203;
  long events = 0;
  size_t biggest = 0;
  long frames = frames_to_run();
  int failures = check_world(&w, &s0, frames, full_village() ? 0 : 20, &events, &biggest);
  fprintf(stderr, "  village%s: %ld frames, a log of %ld bytes, snapshots up to %zu bytes\n",
          full_village() ? " (every restored run to the end)" : "", frames, events, biggest);
  CHECK_EQ_INT(failures, 0);
  CHECK(events > frames * 25); /* the run did things */
  goap_agent_type_destroy(w.type[0]);
  goap_file_destroy(f);
}

TEST(squad_every_frame) {
  goap_file *f = load("squad.goap");
  REQUIRE(f);
  int sim = goap_file_find_simulation(f, "flank");
  REQUIRE(sim >= 0);
  static file_cfg c;
  memset(&c, 0, sizeof c);
  c.f = f;
  c.d = goap_file_domain(f);
  c.sm = &f->sims[sim];
  c.step = c.sm->step > 0 ? c.sm->step : 0.1;
  REQUIRE(goap_domain_state_words(c.d) <= MAXW);
  REQUIRE(c.sm->member_count <= MAXA);
  world w;
  memset(&w, 0, sizeof w);
  w.name = "squad";
  w.nagents = (int)c.sm->member_count;
  w.blackboard = 1;
  w.squad = 1;
  w.state_size = sizeof(file_state);
  w.memory = file_memory;
  w.setup = file_setup;
  w.pre = file_pre;
  w.dt = file_dt;
  w.cfg = &c;
  file_state s0;
  memset(&s0, 0, sizeof s0);
  goap_state_init(c.d, s0.world);
  if (c.sm->given_count) goap_state_assign(c.d, s0.world, f->given + c.sm->given, (int)c.sm->given_count);
  for (int k = 0; k < w.nagents; ++k) {
    const goap__sim_member *mb = &f->sim_members[c.sm->member + (uint32_t)k];
    memcpy(c.mem[k], s0.world, sizeof c.mem[k]);
    if (mb->with_count) goap_state_assign(c.d, c.mem[k], f->rt_effs + mb->with, (int)mb->with_count);
    REQUIRE(file_types(&w, &c, f, mb->type, k, 0));
  }
  s0.rng = 42;
  long events = 0;
  size_t biggest = 0;
  long frames = frames_to_run();
  int failures = check_world(&w, &s0, frames, 0, &events, &biggest);
  fprintf(stderr, "  squad: %ld frames, a log of %ld bytes, snapshots up to %zu bytes\n", frames,
          events, biggest);
  CHECK_EQ_INT(failures, 0);
  CHECK(events > frames * 25);
  for (int k = 0; k < w.nagents; ++k) goap_agent_type_destroy(w.type[k]);
  goap_file_destroy(f);
}

/* ---- the soak's world ------------------------------------------------------------------------- */

#include "camp_domain.h"

enum { FATE_OK = 0, FATE_FAIL, FATE_HANG };

typedef struct soak_member {
  int fate, extra;
} soak_member;

typedef struct soak_state {
  uint64_t rng;
  soak_member m[MAXA];
} soak_state;

static void soak_start(goap_agent *agent, int action, void *user) {
  (void)action;
  (void)user;
  member_ctx *m = (member_ctx *)goap_agent_host(agent);
  soak_state *s = (soak_state *)m->r->state;
  uint32_t x = below(&s->rng, 1000);
  s->m[m->index].fate = x < 50 ? FATE_FAIL : x < 70 ? FATE_HANG : FATE_OK;
  s->m[m->index].extra = (int)below(&s->rng, 4);
}

static goap_action_state soak_tick(goap_agent *agent, int action, double dt, void *user) {
  (void)action;
  (void)dt;
  (void)user;
  member_ctx *m = (member_ctx *)goap_agent_host(agent);
  soak_member *h = &((soak_state *)m->r->state)->m[m->index];
  if (h->fate == FATE_HANG) return GOAP_ACTION_RUNNING;
  if (h->extra > 0) {
    h->extra--;
    return GOAP_ACTION_RUNNING;
  }
  return h->fate == FATE_FAIL ? GOAP_ACTION_FAILURE : GOAP_ACTION_SUCCESS;
}

static double soak_feed(goap_agent *a, int goal, void *user) {
  (void)goal;
  (void)user;
  const goap_domain *d = goap_agent_type_domain(goap_agent_get_type(a));
  return 5.0 + (double)goap_agent_get(a, goap_domain_find_var(d, "hunger"));
}

static void soak_hunger(goap_agent *a, void *user) {
  (void)user;
  const goap_domain *d = goap_agent_type_domain(goap_agent_get_type(a));
  int v = goap_domain_find_var(d, "hunger");
  int32_t x = goap_agent_get(a, v);
  if (x < 10) goap_agent_set(a, v, x + 1);
}

static void set_var(goap_agent *a, const char *name, int32_t v) {
  goap_agent_set(a, goap_domain_find_var(goap_agent_type_domain(goap_agent_get_type(a)), name), v);
}

static int32_t get_var(const goap_agent *a, const char *name) {
  return goap_agent_get(a, goap_domain_find_var(goap_agent_type_domain(goap_agent_get_type(a)), name));
}

static void soak_pre(rt *r, long frame) {
  (void)frame;
  soak_state *s = (soak_state *)r->state;
  uint64_t *g = &s->rng;
  for (int i = 0; i < r->w->nagents; ++i) {
    goap_agent *a = r->a[i];
    if (chance(g, 3)) goap_agent_replan(a);
    if (below(g, 5000) == 0) goap_agent_reset(a);
    if (goap_domain_find_var(r->w->dom[i], "target_dead") >= 0) {
      static const char *const facts[] = {"in_b", "has_ammo", "loaded", "door_stuck",
                                          "kick_failed", "armory_empty"};
      if (get_var(a, "target_dead") && chance(g, 30)) {
        set_var(a, "target_dead", 0);
        if (below(g, 2)) set_var(a, "in_b", 0);
      }
      if (chance(g, 10)) set_var(a, facts[below(g, 6)], (int32_t)below(g, 2));
      if (chance(g, 5)) set_var(a, "in_b", 1);
      if (chance(g, 5)) set_var(a, "has_ammo", 1);
    } else {
      if (get_var(a, "threat") ? chance(g, 10) : chance(g, 2)) set_var(a, "threat", !get_var(a, "threat"));
      if (get_var(a, "fire") && chance(g, 10)) set_var(a, "fire", 0);
      if (chance(g, 2)) set_var(a, "hunger", (int32_t)below(g, 5));
      if (chance(g, 3)) set_var(a, "food", (int32_t)below(g, 5));
      if (chance(g, 3)) set_var(a, "wood", (int32_t)below(g, 7));
      if (chance(g, 2)) set_var(a, "at_home", !get_var(a, "at_home"));
      if (chance(g, 1)) set_var(a, "axe_broken", (int32_t)below(g, 2));
    }
  }
}

static double soak_dt(const rt *r, long frame) {
  (void)r;
  (void)frame;
  return 0.05;
}

static int soak_type(world *w, int k, const goap_domain *d, const char *name,
                     const char *const *disabled, const char *const (*on_fail)[2],
                     const char *const (*awatch)[2], const char *const (*gvalid)[2],
                     const char *const (*gwatch)[2], const char *scale_action) {
  goap_action_binding b[16];
  goap_goal_binding g[8];
  goap_effect of[16];
  int32_t av[16], gv[8];
  goap_cond valid[8];
  int na = goap_domain_action_count(d), ng = goap_domain_goal_count(d);
  if (na > 16 || ng > 8) return 0;
  memset(b, 0, sizeof b);
  memset(g, 0, sizeof g);
  for (int i = 0; i < na; ++i) {
    b[i].start = soak_start;
    b[i].tick = soak_tick;
    b[i].timeout = 0.5;
  }
  for (int i = 0; disabled && disabled[i]; ++i) b[goap_domain_find_action(d, disabled[i])].disabled = 1;
  for (int i = 0; on_fail && on_fail[i][0]; ++i) {
    int act = goap_domain_find_action(d, on_fail[i][0]);
    of[act] = (goap_effect){goap_domain_find_var(d, on_fail[i][1]), GOAP_SET, 1};
    b[act].on_fail = &of[act];
    b[act].on_fail_count = 1;
  }
  for (int i = 0; awatch && awatch[i][0]; ++i) {
    int act = goap_domain_find_action(d, awatch[i][0]);
    av[act] = goap_domain_find_var(d, awatch[i][1]);
    b[act].watch = &av[act];
    b[act].watch_count = 1;
  }
  for (int i = 0; gvalid && gvalid[i][0]; ++i) {
    int goal = goap_domain_find_goal(d, gvalid[i][0]);
    valid[goal] = (goap_cond){goap_domain_find_var(d, gvalid[i][1]), GOAP_GE, 1};
    g[goal].valid = &valid[goal];
    g[goal].valid_count = 1;
  }
  for (int i = 0; gwatch && gwatch[i][0]; ++i) {
    int goal = goap_domain_find_goal(d, gwatch[i][0]);
    gv[goal] = goap_domain_find_var(d, gwatch[i][1]);
    g[goal].watch = &gv[goal];
    g[goal].watch_count = 1;
  }
  if (scale_action) b[goap_domain_find_action(d, scale_action)].cost_scale = 3.0;
  int feed = goap_domain_find_goal(d, "feed");
  if (feed >= 0) g[feed].priority = soak_feed;
  goap_sensor_desc sensor = {soak_hunger, NULL, 1.0};
  goap_agent_type_desc td;
  memset(&td, 0, sizeof td);
  td.name = name;
  td.actions = b;
  td.action_count = na;
  td.goals = g;
  td.goal_count = ng;
  if (feed >= 0) {
    td.sensors = &sensor;
    td.sensor_count = 1;
  }
  goap_error err;
  w->dom[k] = d;
  if (goap_agent_type_create(d, &td, &w->type[k], &err) != GOAP_OK) {
    fprintf(stderr, "type %s: %s\n", name, err.message);
    return 0;
  }
  return 1;
}

TEST(soak_every_frame) {
  goap_file *sf = load("soldier.goap");
  goap_file *cf = NULL;
  goap_error diag;
  REQUIRE(sf);
  REQUIRE(goap_file_parse("camp.goap", camp_text, strlen(camp_text), NULL, &cf, &diag) == GOAP_OK);
  const goap_domain *sd = goap_file_domain(sf), *cd = goap_file_domain(cf);
  world w;
  memset(&w, 0, sizeof w);
  w.name = "soak";
  w.nagents = 8;
  w.state_size = sizeof(soak_state);
  w.pre = soak_pre;
  w.dt = soak_dt;
  static const char *const brawler_off[] = {"get_ammo", "load_magazine", "shoot", "jump_window", NULL};
  static const char *const rat_off[] = {"chop", "mend_axe", "light_fire", "fight", NULL};
  static const char *const soldier_fail[][2] = {{"open_door", "door_stuck"}, {"kick_door", "kick_failed"},
                                               {"get_ammo", "armory_empty"}, {NULL, NULL}};
  static const char *const camp_fail[][2] = {{"chop", "axe_broken"}, {NULL, NULL}};
  static const char *const camp_awatch[][2] = {{"forage", "threat"}, {NULL, NULL}};
  static const char *const camp_valid[][2] = {{"feed", "hunger"}, {NULL, NULL}};
  static const char *const camp_gwatch[][2] = {{"warm", "threat"}, {NULL, NULL}};
  for (int k = 0; k < 8; k += 4) {
    REQUIRE(soak_type(&w, k, sd, "soldier", NULL, soldier_fail, NULL, NULL, NULL, "jump_window"));
    REQUIRE(soak_type(&w, k + 1, sd, "brawler", brawler_off, soldier_fail, NULL, NULL, NULL, NULL));
    REQUIRE(soak_type(&w, k + 2, cd, "forager", NULL, camp_fail, camp_awatch, camp_valid, camp_gwatch,
                      NULL));
    REQUIRE(soak_type(&w, k + 3, cd, "rat", rat_off, NULL, camp_awatch, camp_valid, camp_gwatch,
                      "forage"));
  }
  soak_state s0;
  memset(&s0, 0, sizeof s0);
  s0.rng = 7;
  long events = 0;
  size_t biggest = 0;
  long frames = frames_to_run();
  int failures = check_world(&w, &s0, frames, 0, &events, &biggest);
  fprintf(stderr, "  soak: %ld frames, a log of %ld bytes, snapshots up to %zu bytes\n", frames,
          events, biggest);
  CHECK_EQ_INT(failures, 0);
  CHECK(events > frames * 25);
  for (int k = 0; k < 8; ++k) goap_agent_type_destroy(w.type[k]);
  goap_file_destroy(sf);
  goap_file_destroy(cf);
}

TEST_MAIN(TEST_ENTRY(village_every_frame), TEST_ENTRY(squad_every_frame),
          TEST_ENTRY(soak_every_frame))
