/*
 * sim.c -- runtime attributes of a loaded file, and `simulation` blocks: one agent in a
 * scripted world.
 *
 * Invariants:
 *  - The world is a full state of the domain: the truth. The agent's memory is its belief;
 *    they start equal except for `at 0` lines (world only), and meet again through `sense`
 *    variables and through the effects of actions that succeed (applied to both).
 *  - An action's outcome is decided only by the world when its duration is over, so a
 *    simulation is deterministic: the same file gives the same timeline.
 *  - Everything is allocated before the first step and freed at the end.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* ---- runtime attributes -------------------------------------------------------------------- */

goap_status goap_file_action_info_get(const goap_file *f, int action,
                                      goap_file_action_info *out) {
  if (!f || !out || action < 0 || action >= f->action_count) return GOAP_INVALID_ARGUMENT;
  const goap__action_rt *rt = &f->action_rt[action];
  memset(out, 0, sizeof *out);
  out->on_fail = rt->on_fail_count ? f->rt_effs + rt->on_fail : NULL;
  out->on_fail_count = (int)rt->on_fail_count;
  out->watch = rt->watch_count ? f->rt_vars + rt->watch : NULL;
  out->watch_count = (int)rt->watch_count;
  out->timeout = rt->timeout;
  out->duration = rt->duration;
  return GOAP_OK;
}

goap_status goap_file_goal_info_get(const goap_file *f, int goal, goap_file_goal_info *out) {
  if (!f || !out || goal < 0 || goal >= f->goal_count) return GOAP_INVALID_ARGUMENT;
  const goap__goal_rt *rt = &f->goal_rt[goal];
  memset(out, 0, sizeof *out);
  out->valid = rt->valid_count ? f->rt_conds + rt->valid : NULL;
  out->valid_count = (int)rt->valid_count;
  out->watch = rt->watch_count ? f->rt_vars + rt->watch : NULL;
  out->watch_count = (int)rt->watch_count;
  return GOAP_OK;
}

int goap_file_is_world_var(const goap_file *f, int var) {
  if (!f || var < 0 || (size_t)var >= f->world_var_cap) return 0;
  return f->world_var[var] != 0;
}

goap_status goap_file_bindings(const goap_file *f, goap_action_binding *actions,
                               int action_count, goap_goal_binding *goals, int goal_count) {
  if (!f || action_count != f->action_count || goal_count != f->goal_count ||
      (action_count && !actions) || (goal_count && !goals))
    return GOAP_INVALID_ARGUMENT;
  for (int i = 0; i < action_count; ++i) {
    goap_file_action_info ai;
    memset(&ai, 0, sizeof ai);
    goap_file_action_info_get(f, i, &ai);
    memset(&actions[i], 0, sizeof actions[i]);
    actions[i].on_fail = ai.on_fail;
    actions[i].on_fail_count = ai.on_fail_count;
    actions[i].watch = ai.watch;
    actions[i].watch_count = ai.watch_count;
    actions[i].timeout = ai.timeout;
  }
  for (int i = 0; i < goal_count; ++i) {
    goap_file_goal_info gi;
    memset(&gi, 0, sizeof gi);
    goap_file_goal_info_get(f, i, &gi);
    memset(&goals[i], 0, sizeof goals[i]);
    goals[i].valid = gi.valid;
    goals[i].valid_count = gi.valid_count;
    goals[i].watch = gi.watch;
    goals[i].watch_count = gi.watch_count;
  }
  return GOAP_OK;
}

/* ---- simulations --------------------------------------------------------------------------- */

int goap_file_simulation_count(const goap_file *f) { return f ? f->sim_count : 0; }

int goap_file_find_simulation(const goap_file *f, const char *name) {
  if (!f || !name) return -1;
  for (int i = 0; i < f->sim_count; ++i)
    if (strcmp(f->sims[i].name, name) == 0) return i;
  return -1;
}

const char *goap_file_simulation_name(const goap_file *f, int sim) {
  if (!f || sim < 0 || sim >= f->sim_count) return NULL;
  return f->sims[sim].name;
}

typedef struct sim_ctx {
  const goap_file *f;
  const goap__sim *sm;
  const goap_domain *d;
  goap_word *world;
  double time;
  double elapsed;              /* of the running action */
  int fresh;                   /* the running action started on this update */
  int idle;
  const goap_sim_options *opt;
} sim_ctx;

static void world_assign(sim_ctx *c, const goap_effect *e, int n) {
  for (int i = 0; i < n; ++i) {
    int32_t old = goap_state_get(c->d, c->world, e[i].var);
    if (goap_state_assign(c->d, c->world, &e[i], 1) != GOAP_OK) continue;
    int32_t now = goap_state_get(c->d, c->world, e[i].var);
    if (now != old && c->opt->on_world && goap_file_is_world_var(c->f, e[i].var))
      c->opt->on_world(e[i].var, old, now, c->time, c->opt->world_user);
  }
}

static void sim_start(goap_agent *agent, int action, void *user) {
  (void)agent;
  (void)action;
  sim_ctx *c = (sim_ctx *)user;
  c->elapsed = 0;
  c->fresh = 1;
}

static goap_action_state sim_tick(goap_agent *agent, int action, double dt, void *user) {
  (void)agent;
  sim_ctx *c = (sim_ctx *)user;
  if (c->fresh) c->fresh = 0;
  else c->elapsed += dt;
  if (c->elapsed + 1e-9 < c->f->action_rt[action].duration) return GOAP_ACTION_RUNNING;
  for (uint32_t k = 0; k < c->sm->fail_count; ++k) {
    const goap__sim_fail *fl = &c->f->sim_fails[c->sm->fail + k];
    if (fl->action != action) continue;
    if (goap_state_satisfies(c->d, c->world, fl->cond_count ? c->f->rt_conds + fl->cond : NULL,
                             (int)fl->cond_count))
      return GOAP_ACTION_FAILURE;
  }
  int ne = 0;
  const goap_effect *e = goap_domain_action_eff(c->d, action, &ne);
  world_assign(c, e, ne);
  return GOAP_ACTION_SUCCESS;
}

static void sim_sense(goap_agent *agent, void *user) {
  sim_ctx *c = (sim_ctx *)user;
  for (uint32_t k = 0; k < c->sm->sense_count; ++k) {
    int32_t v = c->f->rt_vars[c->sm->sense + k];
    int32_t w = goap_state_get(c->d, c->world, v);
    if (goap_agent_get(agent, v) != w) goap_agent_set(agent, v, w);
  }
}

static void sim_event(goap_agent *agent, const goap_agent_event *ev, void *user) {
  sim_ctx *c = (sim_ctx *)user;
  if (ev->kind == GOAP_EVENT_IDLE) c->idle = 1;
  else if (ev->kind == GOAP_EVENT_PLAN || ev->kind == GOAP_EVENT_REPLAN) c->idle = 0;
  if (c->opt->on_event) c->opt->on_event(agent, ev, c->opt->event_user);
}

goap_status goap_file_simulate(const goap_file *f, int sim, const goap_sim_options *options,
                               goap_sim_result *result) {
  if (!f || !result || sim < 0 || sim >= f->sim_count) return GOAP_INVALID_ARGUMENT;
  goap_sim_options opt;
  memset(&opt, 0, sizeof opt);
  if (options) opt = *options;
  if (!(opt.until >= 0) || !(opt.step >= 0) || !isfinite(opt.until) || !isfinite(opt.step))
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
  c.world = (goap_word *)goap__mem_alloc(&al, W * sizeof *c.world);
  goap_agent_type *t = NULL;
  goap_agent *agent = NULL;
  goap_status st = GOAP_OUT_OF_MEMORY;
  if (!ab || !gb || !mem || !c.world) goto done;
  goap_file_bindings(f, ab, na, gb, ng);
  for (int i = 0; i < na; ++i) {
    ab[i].start = sim_start;
    ab[i].tick = sim_tick;
    ab[i].user = &c;
  }
  goap_sensor_desc sensor = {sim_sense, &c, 0.0};
  goap_agent_type_desc td;
  memset(&td, 0, sizeof td);
  td.allocator = al;
  td.name = sm->name;
  td.actions = ab;
  td.action_count = na;
  td.goals = gb;
  td.goal_count = ng;
  td.sensors = &sensor;
  td.sensor_count = sm->sense_count ? 1 : 0;
  st = goap_agent_type_create(d, &td, &t, NULL);
  if (st != GOAP_OK) goto done;
  goap_state_init(d, mem);
  if (sm->given_count) goap_state_assign(d, mem, f->given + sm->given, (int)sm->given_count);
  memcpy(c.world, mem, W * sizeof *mem);
  goap_agent_desc ad;
  memset(&ad, 0, sizeof ad);
  ad.type = t;
  ad.allocator = al;
  ad.memory = mem;
  ad.on_event = sim_event;
  ad.event_user = &c;
  agent = goap_agent_create(&ad);
  st = GOAP_OUT_OF_MEMORY;
  if (!agent) goto done;
  st = GOAP_OK;
  {
    uint32_t next_ev = 0;
    const goap__sim_event *evs = sm->event_count ? f->sim_events + sm->event : NULL;
    long steps = 0, max_steps = (long)(until / step) + 1;
    for (;;) {
      while (next_ev < sm->event_count && evs[next_ev].time <= c.time + 1e-9) {
        if (evs[next_ev].eff_count)
          world_assign(&c, f->rt_effs + evs[next_ev].eff, (int)evs[next_ev].eff_count);
        ++next_ev;
      }
      goap_status us = goap_agent_update(agent, steps == 0 ? 0.0 : step);
      if (us == GOAP_OUT_OF_MEMORY || us == GOAP_INVALID_ARGUMENT) {
        st = us;
        break;
      }
      if (c.idle && next_ev >= sm->event_count) {
        result->idle = 1;
        break;
      }
      if (c.time + 1e-9 >= until || steps >= max_steps) break;
      ++steps;
      c.time = (double)steps * step;
    }
  }
  result->time = c.time;
  result->stats = goap_agent_get_stats(agent);
  result->replans = result->stats.plans > 0 ? (int)result->stats.plans - 1 : 0;
  if (sm->expect_replans >= 0) {
    result->expectations++;
    if (result->replans != sm->expect_replans) {
      result->failed++;
      snprintf(result->message, sizeof result->message, "expected %d replans, got %d",
               sm->expect_replans, result->replans);
    }
  }
  if (sm->final_count) {
    const goap_cond *fc = f->rt_conds + sm->final; /* non-empty: the pool exists */
    result->expectations++;
    for (uint32_t k = 0; k < sm->final_count; ++k) {
      if (goap_state_satisfies(d, goap_agent_memory(agent), &fc[k], 1)) continue;
      result->failed++;
      if (!result->message[0]) {
        char cond[128];
        goap_format_cond(d, &fc[k], cond, sizeof cond);
        snprintf(result->message, sizeof result->message,
                 "expected final memory '%s', but the value is %ld", cond,
                 (long)goap_agent_get(agent, fc[k].var));
      }
      break;
    }
  }
done:
  goap_agent_destroy(agent);
  goap_agent_type_destroy(t);
  goap__mem_free(&al, ab, (size_t)(na ? na : 1) * sizeof *ab);
  goap__mem_free(&al, gb, (size_t)(ng ? ng : 1) * sizeof *gb);
  goap__mem_free(&al, mem, W * sizeof *mem);
  goap__mem_free(&al, c.world, W * sizeof *c.world);
  return st;
}
