/*
 * simulate.c -- `simulation` blocks run: one agent, or the squad of its `member` lines, in a
 * scripted world (goap/sim.h). A module above the format layer (it reads the parsed blocks
 * of a goap_file) and the runtime (agents, squads, blackboard, replays).
 *
 * Invariants:
 *  - The world is a full state of the domain: the truth. The agent's memory is its belief;
 *    they start equal except for `at 0` lines (world only), and meet again through `sense`
 *    and `sensed` variables and through the effects of actions that succeed (applied to both).
 *  - An action's outcome is decided only by the world when its duration is over, so a
 *    simulation is deterministic: the same file gives the same timeline.
 *  - An idle agent ends the run only once it has been idle for the longest goal `cooldown`
 *    (a cooling goal may be chosen again).
 *  - Everything is allocated before the first step and freed at the end.
 *  - The file is only read: its parsed simulation blocks (format/format_internal.h) and its
 *    public accessors.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/base.h"
#include "format/format_internal.h"
#include "goap/replay.h"
#include "goap/sim.h"
#include "goap/squad.h"

typedef struct sim_ctx sim_ctx;

/* One agent of a simulation: the callbacks' user pointer. */
typedef struct sim_agent {
  sim_ctx *c;
  goap_agent *agent;
  goap_agent_type *type;
  double elapsed;              /* of the running action */
  int fresh;                   /* the running action started on this update */
  int idle;
  double idle_since;           /* when it last became idle */
} sim_agent;

struct sim_ctx {
  const goap_file *f;
  const goap__sim *sm;
  const goap_domain *d;
  goap_word *world;
  double time;
  goap_blackboard *bb;
  const goap_sim_options *opt;
};

/* Notes in a replay log: 'W' var old now time (a world change), 'E' idle time (the end);
 * integers as 4 little-endian bytes, times as the 8 bytes of the double, little endian. */
static size_t note_u32(uint8_t *p, uint32_t x) {
  for (int i = 0; i < 4; ++i) p[i] = (uint8_t)(x >> (8 * i));
  return 4;
}
static size_t note_f64(uint8_t *p, double t) {
  uint64_t u;
  memcpy(&u, &t, sizeof u);
  for (int i = 0; i < 8; ++i) p[i] = (uint8_t)(u >> (8 * i));
  return 8;
}
static uint32_t read_u32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static double read_f64(const uint8_t *p) {
  uint64_t u = 0;
  for (int i = 0; i < 8; ++i) u |= (uint64_t)p[i] << (8 * i);
  double t;
  memcpy(&t, &u, sizeof t);
  return t;
}

/* to_board: also write shared variables to the blackboard (for `at` lines; an agent's own
 * effects reach it through the runtime). */
static void world_assign(sim_ctx *c, const goap_effect *e, int n, int to_board) {
  for (int i = 0; i < n; ++i) {
    int32_t old = goap_state_get(c->d, c->world, e[i].var);
    if (goap_state_assign(c->d, c->world, &e[i], 1) != GOAP_OK) continue;
    int32_t now = goap_state_get(c->d, c->world, e[i].var);
    if (now == old) continue;
    goap_var_info vi;
    goap_domain_var_info(c->d, e[i].var, &vi);
    /* what happens to a shared variable, the squad learns through its blackboard */
    if (to_board && c->bb && (vi.flags & GOAP_VAR_SHARED))
      goap_blackboard_set(c->bb, vi.name, now);
    if (!(to_board || goap_file_is_world_var(c->f, e[i].var))) continue;
    if (c->opt->recorder) {
      uint8_t note[21];
      note[0] = 'W';
      note_u32(note + 1, (uint32_t)e[i].var);
      note_u32(note + 5, (uint32_t)old);
      note_u32(note + 9, (uint32_t)now);
      note_f64(note + 13, c->time);
      goap_recorder_note(c->opt->recorder, note, sizeof note);
    }
    if (c->opt->on_world) c->opt->on_world(e[i].var, old, now, c->time, c->opt->world_user);
  }
}

static void sim_start(goap_agent *agent, int action, void *user) {
  (void)agent;
  (void)action;
  sim_agent *m = (sim_agent *)user;
  m->elapsed = 0;
  m->fresh = 1;
}

static goap_action_state sim_tick(goap_agent *agent, int action, double dt, void *user) {
  (void)agent;
  sim_agent *m = (sim_agent *)user;
  sim_ctx *c = m->c;
  if (m->fresh) m->fresh = 0;
  else m->elapsed += dt;
  if (m->elapsed + 1e-9 < c->f->action_rt[action].duration) return GOAP_ACTION_RUNNING;
  for (uint32_t k = 0; k < c->sm->fail_count; ++k) {
    const goap__sim_fail *fl = &c->f->sim_fails[c->sm->fail + k];
    if (fl->action != action) continue;
    if (goap_state_satisfies(c->d, c->world, fl->cond_count ? c->f->rt_conds + fl->cond : NULL,
                             (int)fl->cond_count))
      return GOAP_ACTION_FAILURE;
  }
  int ne = 0;
  const goap_effect *e = goap_domain_action_eff(c->d, action, &ne);
  world_assign(c, e, ne, 0);
  return GOAP_ACTION_SUCCESS;
}

static void sim_sense(goap_agent *agent, void *user) {
  sim_agent *m = (sim_agent *)user;
  sim_ctx *c = m->c;
  for (uint32_t k = 0; k < c->sm->sense_count; ++k) {
    int32_t v = c->f->rt_vars[c->sm->sense + k];
    int32_t w = goap_state_get(c->d, c->world, v);
    if (goap_agent_get(agent, v) != w) goap_agent_set(agent, v, w);
  }
  for (int v = 0; v < goap_domain_var_count(c->d); ++v) { /* percepts: always sensed */
    if (!goap_file_is_sensed_var(c->f, v)) continue;
    int32_t w = goap_state_get(c->d, c->world, v);
    if (goap_agent_get(agent, v) != w) goap_agent_set(agent, v, w);
  }
}

static void sim_event(goap_agent *agent, const goap_agent_event *ev, void *user) {
  sim_agent *m = (sim_agent *)user;
  if (ev->kind == GOAP_EVENT_IDLE && !m->idle) {
    m->idle = 1;
    m->idle_since = ev->time;
  }
  else if (ev->kind == GOAP_EVENT_PLAN || ev->kind == GOAP_EVENT_REPLAN) m->idle = 0;
  if (m->c->opt->on_event) m->c->opt->on_event(agent, ev, m->c->opt->event_user);
}

typedef struct replay_end {
  const goap_sim_options *opt;
  const goap_domain *d;
  goap_sim_result *result;
} replay_end;

/* Replaying: the recorded world changes and end. */
static void sim_note(void *user, const void *data, size_t size) {
  replay_end *re = (replay_end *)user;
  const uint8_t *p = (const uint8_t *)data;
  if (size == 21 && p[0] == 'W') {
    int var = (int)read_u32(p + 1);
    if (var < 0 || var >= goap_domain_var_count(re->d)) return;
    if (re->opt->on_world)
      re->opt->on_world(var, (int32_t)read_u32(p + 5), (int32_t)read_u32(p + 9),
                        read_f64(p + 13), re->opt->world_user);
  } else if (size == 10 && p[0] == 'E') {
    re->result->idle = p[1] != 0;
    re->result->time = read_f64(p + 2);
  }
}

static void add_stats(goap_agent_stats *to, const goap_agent_stats *x) {
  to->updates += x->updates;
  to->plans += x->plans;
  to->plan_failures += x->plan_failures;
  for (int r = 0; r < GOAP_REPLAN_REASON_COUNT; ++r) to->replans[r] += x->replans[r];
  to->repairs += x->repairs;
  to->cache_hits += x->cache_hits;
  to->expanded += x->expanded;
  to->actions_started += x->actions_started;
  to->actions_succeeded += x->actions_succeeded;
  to->actions_failed += x->actions_failed;
  to->reservations_denied += x->reservations_denied;
  to->memory_bytes += x->memory_bytes;
}

/* A value as a designer writes it: true/false, an enum value's name, or the number. */
static void sim_value_text(const goap_domain *d, int var, int32_t x, char *buf, size_t cap) {
  const char *name = goap_domain_value_name(d, var, x);
  if (name) snprintf(buf, cap, "%s", name);
  else snprintf(buf, cap, "%ld", (long)x);
}

goap_status goap_file_simulate(const goap_file *f, int sim, const goap_sim_options *options,
                               goap_sim_result *result) {
  if (!f || !result || sim < 0 || sim >= f->sim_count) return GOAP_INVALID_ARGUMENT;
  goap_sim_options opt;
  memset(&opt, 0, sizeof opt);
  if (options) opt = *options;
  if (!(opt.until >= 0) || !(opt.step >= 0) || !isfinite(opt.until) || !isfinite(opt.step) ||
      (opt.recorder && opt.replayer))
    return GOAP_INVALID_ARGUMENT;
  memset(result, 0, sizeof *result);
  const goap__sim *sm = &f->sims[sim];
  const goap_domain *d = f->domain;
  goap_allocator al = goap__mem_resolve(opt.allocator.fn ? &opt.allocator : &f->alloc);
  int na = goap_domain_action_count(d), ng = goap_domain_goal_count(d);
  size_t W = goap_domain_state_words(d);
  double until = opt.until > 0 ? opt.until : sm->until;
  double step = opt.step > 0 ? opt.step : sm->step;
  if (step < 1e-3) step = 1e-3;
  int nm = sm->member_count ? (int)sm->member_count : 1;
  int nsensed = 0; /* `sensed` variables: copied from the world like `sense` lines */
  for (int v = 0; v < goap_domain_var_count(d); ++v) nsensed += goap_file_is_sensed_var(f, v);
  double cool = 0; /* an idle agent may only be waiting for a goal's `cooldown` to pass */
  for (int g = 0; g < f->goal_count; ++g)
    if (f->goal_rt[g].cooldown > cool) cool = f->goal_rt[g].cooldown;
  if (cool > 0) cool += 0.25 + step; /* and for its next idle retry (goal_check_interval) */

  sim_ctx c;
  memset(&c, 0, sizeof c);
  c.f = f;
  c.sm = sm;
  c.d = d;
  c.opt = &opt;
  goap_action_binding *ab =
      (goap_action_binding *)goap__mem_alloc(&al, (size_t)(na ? na : 1) * sizeof *ab);
  goap_goal_binding *gb =
      (goap_goal_binding *)goap__mem_alloc(&al, (size_t)(ng ? ng : 1) * sizeof *gb);
  goap_word *mem = (goap_word *)goap__mem_alloc(&al, W * sizeof *mem);
  sim_agent *ms = (sim_agent *)goap__mem_alloc(&al, (size_t)nm * sizeof *ms);
  c.world = (goap_word *)goap__mem_alloc(&al, W * sizeof *c.world);
  goap_squad *squad = NULL;
  goap_status st = GOAP_OUT_OF_MEMORY;
  if (ms) memset(ms, 0, (size_t)nm * sizeof *ms);
  if (!ab || !gb || !mem || !c.world || !ms) goto done;
  if (goap_file_blackboard_create(f, &al, &c.bb) != GOAP_OK) goto done;
  goap_state_init(d, c.world);
  if (sm->given_count) goap_state_assign(d, c.world, f->given + sm->given, (int)sm->given_count);
  for (int k = 0; k < nm; ++k) {
    const goap__sim_member *mb = sm->member_count ? &f->sim_members[sm->member + (uint32_t)k] : NULL;
    sim_agent *m = &ms[k];
    m->c = &c;
    goap_file_agent_bindings(f, mb ? mb->type : -1, ab, na, gb, ng);
    if (opt.bind) opt.bind(f, mb ? k : -1, mb ? mb->name : NULL, ab, na, gb, ng, opt.bind_user);
    for (int i = 0; i < na; ++i) {
      ab[i].start = sim_start;
      ab[i].tick = sim_tick;
      ab[i].user = m;
    }
    goap_sensor_desc sensor = {sim_sense, m, 0.0};
    goap_agent_type_desc td;
    memset(&td, 0, sizeof td);
    td.allocator = al;
    td.name = mb ? f->agent_types[mb->type].name : sm->name;
    td.actions = ab;
    td.action_count = na;
    td.goals = gb;
    td.goal_count = ng;
    td.switch_margin = goap_file_switch_margin(f, mb ? mb->type : -1, sim);
    if (mb && f->agent_types[mb->type].htn_name) { /* an HTN agent: its root task, no goals */
      int nw = 0;
      const int32_t *w = NULL;
      td.htn = f->htn;
      td.htn_root = goap_file_agent_type_htn(f, mb->type, &w, &nw);
      td.htn_watch = w;
      td.htn_watch_count = nw;
      td.goals = NULL;
      td.goal_count = 0;
    }
    td.sensors = &sensor;
    td.sensor_count = sm->sense_count || nsensed ? 1 : 0;
    st = goap_agent_type_create(d, &td, &m->type, NULL);
    if (st != GOAP_OK) goto done;
    memcpy(mem, c.world, W * sizeof *mem);
    if (mb && mb->with_count) goap_state_assign(d, mem, f->rt_effs + mb->with, (int)mb->with_count);
    goap_agent_desc ad;
    memset(&ad, 0, sizeof ad);
    ad.type = m->type;
    ad.allocator = al;
    ad.memory = mem;
    ad.on_event = sim_event;
    ad.event_user = m;
    ad.blackboard = c.bb;
    ad.host = mb ? (void *)(uintptr_t)mb->name : NULL;
    st = goap_agent_create(&ad, &m->agent, NULL);
    if (st != GOAP_OK) goto done;
    if (opt.recorder) st = goap_recorder_attach(opt.recorder, m->agent);
    else if (opt.replayer) st = goap_replayer_attach(opt.replayer, m->agent);
    else st = GOAP_OK;
    if (st != GOAP_OK) goto done;
  }
  if (sm->member_count) {
    goap_squad_desc sd;
    memset(&sd, 0, sizeof sd);
    sd.allocator = al;
    st = goap_squad_create(&sd, &squad);
    if (st != GOAP_OK) goto done;
    for (int k = 0; k < nm; ++k)
      if (goap_squad_add(squad, ms[k].agent) != GOAP_OK) goto done;
  }
  st = GOAP_OK;
  if (opt.replayer) {
    replay_end re = {&opt, d, result};
    goap_replayer_on_note(opt.replayer, sim_note, &re);
    st = goap_replayer_run(opt.replayer);
    goap_replayer_on_note(opt.replayer, NULL, NULL);
    c.time = result->time;
    if (st != GOAP_OK) goto done;
  } else {
    uint32_t next_ev = 0;
    const goap__sim_event *evs = sm->event_count ? f->sim_events + sm->event : NULL;
    long steps = 0, max_steps = (long)(until / step) + 1;
    for (;;) {
      while (next_ev < sm->event_count && evs[next_ev].time <= c.time + 1e-9) {
        const goap__sim_event *ev = &evs[next_ev++];
        if (ev->order >= 0) {
          if (squad) goap_squad_order(squad, (goap_squad_behavior)ev->order);
        } else if (ev->eff_count) {
          world_assign(&c, f->rt_effs + ev->eff, (int)ev->eff_count, 1);
        }
      }
      int idle = 1;
      for (int k = 0; k < nm && st == GOAP_OK; ++k) {
        goap_status us = goap_agent_update(ms[k].agent, steps == 0 ? 0.0 : step);
        if (us == GOAP_OUT_OF_MEMORY || us == GOAP_INVALID_ARGUMENT) st = us;
        idle &= ms[k].idle && c.time + 1e-9 >= ms[k].idle_since + cool;
      }
      if (st != GOAP_OK) break;
      if (squad) goap_squad_update(squad);
      if (opt.recorder) goap_recorder_frame(opt.recorder);
      if (idle && next_ev >= sm->event_count) {
        result->idle = 1;
        break;
      }
      if (c.time + 1e-9 >= until || steps >= max_steps) break;
      ++steps;
      c.time = (double)steps * step;
    }
    if (opt.recorder && st == GOAP_OK) {
      uint8_t note[10];
      note[0] = 'E';
      note[1] = (uint8_t)result->idle;
      note_f64(note + 2, c.time);
      goap_recorder_note(opt.recorder, note, sizeof note);
    }
  }
  result->time = c.time;
  for (int k = 0; k < nm; ++k) {
    goap_agent_stats x = goap_agent_get_stats(ms[k].agent);
    add_stats(&result->stats, &x);
  }
  result->replans = (int)result->stats.plans - nm;
  if (result->replans < 0) result->replans = 0;
  if (sm->expect_replans >= 0) {
    result->expectations++;
    if (result->replans != sm->expect_replans) {
      result->failed++;
      result->line = sm->replans_line;
      result->col = sm->replans_col;
      snprintf(result->message, sizeof result->message, "expected %d replan%s, got %d",
               sm->expect_replans, sm->expect_replans == 1 ? "" : "s", result->replans);
    }
  }
  if (sm->final_count) {
    const goap_cond *fc = f->rt_conds + sm->final; /* non-empty: the pool exists */
    int bad = 0;
    result->expectations++;
    for (int k = 0; k < nm && !bad; ++k) {
      for (uint32_t j = 0; j < sm->final_count && !bad; ++j) {
        if (goap_state_satisfies(d, goap_agent_memory(ms[k].agent), &fc[j], 1)) continue;
        char cond[128], val[96];
        bad = 1;
        goap_format_cond(d, &fc[j], cond, sizeof cond);
        sim_value_text(d, fc[j].var, goap_agent_get(ms[k].agent, fc[j].var), val, sizeof val);
        if (result->failed) break; /* `expect replans` failed first: keep its message */
        result->line = sm->final_line;
        result->col = (int)f->rt_ids[sm->final_cols + j];
        if (sm->member_count)
          snprintf(result->message, sizeof result->message,
                   "expected final memory '%.120s' of %s, but the value is %.60s", cond,
                   f->sim_members[sm->member + (uint32_t)k].name, val);
        else
          snprintf(result->message, sizeof result->message,
                   "expected final memory '%.120s', but the value is %.60s", cond, val);
      }
    }
    result->failed += bad;
  }
done:
  goap_squad_destroy(squad);
  for (int k = 0; ms && k < nm; ++k) {
    goap_agent_destroy(ms[k].agent);
    goap_agent_type_destroy(ms[k].type);
  }
  goap_blackboard_destroy(c.bb);
  goap__mem_free(&al, ab, (size_t)(na ? na : 1) * sizeof *ab);
  goap__mem_free(&al, gb, (size_t)(ng ? ng : 1) * sizeof *gb);
  goap__mem_free(&al, mem, W * sizeof *mem);
  goap__mem_free(&al, ms, (size_t)nm * sizeof *ms);
  goap__mem_free(&al, c.world, W * sizeof *c.world);
  return st;
}
