/*
 * file_runtime.c -- the runtime attributes of a loaded file (goap/file.h): action and goal
 * info, bindings for agent types, resources and blackboards, agent types, and the names of
 * its `simulation` blocks (running them: src/sim/simulate.c).
 *
 * Invariants:
 *  - The file is only read; arrays returned point into it and live as long as it.
 *  - Binding arrays must have exactly the file's action and goal counts (checked, else
 *    GOAP_INVALID_ARGUMENT); nothing is written on a failed check.
 */
#include <stdio.h>
#include <string.h>

#include "format_internal.h"

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
  out->on_start = rt->on_start_count ? f->rt_effs + rt->on_start : NULL;
  out->on_start_count = (int)rt->on_start_count;
  out->on_end = rt->on_end_count ? f->rt_effs + rt->on_end : NULL;
  out->on_end_count = (int)rt->on_end_count;
  out->reserve = rt->reserve_count ? f->rt_names + rt->reserve : NULL;
  out->reserve_count = (int)rt->reserve_count;
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
  out->cooldown = rt->cooldown;
  return GOAP_OK;
}

double goap_file_switch_margin(const goap_file *f, int type, int sim) {
  int has = 0;
  double m = 0;
  if (f && type >= 0 && type < f->agent_type_count) {
    has = f->agent_types[type].has_margin;
    m = f->agent_types[type].switch_margin;
  } else if (f && type == -1 && sim >= 0 && sim < f->sim_count) {
    has = f->sims[sim].has_margin;
    m = f->sims[sim].switch_margin;
  }
  if (!has) return 0;
  return m > 0 ? m : -1; /* the file's 0 means none; the runtime's 0 means its default */
}

int goap_file_is_world_var(const goap_file *f, int var) {
  if (!f || var < 0 || (size_t)var >= f->world_var_cap) return 0;
  return f->world_var[var] != 0;
}

int goap_file_is_sensed_var(const goap_file *f, int var) {
  goap_var_info vi;
  if (!f || goap_domain_var_info(f->domain, var, &vi) != GOAP_OK) return 0;
  return (vi.flags & GOAP_VAR_SENSED) != 0;
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
    actions[i].on_start = ai.on_start;
    actions[i].on_start_count = ai.on_start_count;
    actions[i].on_end = ai.on_end;
    actions[i].on_end_count = ai.on_end_count;
    actions[i].reserve = ai.reserve;
    actions[i].reserve_count = ai.reserve_count;
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
    goals[i].cooldown = gi.cooldown;
  }
  return GOAP_OK;
}

int goap_file_resource_count(const goap_file *f) { return f ? f->resource_count : 0; }

goap_status goap_file_resource(const goap_file *f, int index, const char **name, int *capacity) {
  if (!f || index < 0 || index >= f->resource_count) return GOAP_INVALID_ARGUMENT;
  if (name) *name = f->resources[index].name;
  if (capacity) *capacity = f->resources[index].capacity;
  return GOAP_OK;
}

goap_status goap_file_apply_resources(const goap_file *f, goap_blackboard *bb) {
  if (!f || !bb) return GOAP_INVALID_ARGUMENT;
  for (int r = 0; r < f->resource_count; ++r) {
    const char *name = f->resources[r].name;
    int cap = f->resources[r].capacity;
    goap_status st = goap_blackboard_add_resource(bb, name, cap);
    if (st == GOAP_DUPLICATE) st = goap_blackboard_set_capacity(bb, name, cap);
    if (st != GOAP_OK) return st;
  }
  return GOAP_OK;
}

goap_status goap_file_blackboard_create(const goap_file *f, const goap_allocator *alloc,
                                        goap_blackboard **out) {
  if (out) *out = NULL;
  if (!f || !out) return GOAP_INVALID_ARGUMENT;
  goap_blackboard *bb;
  goap_status st = goap_blackboard_create(alloc, &bb);
  if (st != GOAP_OK) return st;
  st = goap_file_apply_resources(f, bb);
  if (st != GOAP_OK) {
    goap_blackboard_destroy(bb);
    return st;
  }
  *out = bb;
  return GOAP_OK;
}

int goap_file_agent_type_count(const goap_file *f) { return f ? f->agent_type_count : 0; }

const char *goap_file_agent_type_name(const goap_file *f, int type) {
  if (!f || type < 0 || type >= f->agent_type_count) return NULL;
  return f->agent_types[type].name;
}

int goap_file_find_agent_type(const goap_file *f, const char *name) {
  if (!f || !name) return -1;
  for (int i = 0; i < f->agent_type_count; ++i)
    if (strcmp(f->agent_types[i].name, name) == 0) return i;
  return -1;
}

goap_status goap_file_agent_bindings(const goap_file *f, int type, goap_action_binding *actions,
                                     int action_count, goap_goal_binding *goals,
                                     int goal_count) {
  if (!f || type < -1 || type >= f->agent_type_count) return GOAP_INVALID_ARGUMENT;
  goap_status st = goap_file_bindings(f, actions, action_count, goals, goal_count);
  if (st != GOAP_OK || type < 0) return st;
  const goap__agent_type *t = &f->agent_types[type];
  if (t->has_actions) {
    for (int i = 0; i < action_count; ++i) actions[i].disabled = 1;
    for (uint32_t k = 0; k < t->action_count; ++k) actions[f->rt_ids[t->actions + k]].disabled = 0;
  }
  if (t->has_goals) {
    for (int i = 0; i < goal_count; ++i) goals[i].disabled = 1;
    for (uint32_t k = 0; k < t->goal_count; ++k) goals[f->rt_ids[t->goals + k]].disabled = 0;
  }
  if (t->role >= 0) {
    const goap__role *r = &f->roles[t->role];
    for (uint32_t k = 0; k < r->scale_count; ++k) {
      const goap__role_scale *sc = &f->role_scales[r->scale + k];
      actions[sc->action].cost_scale = sc->factor;
    }
  }
  return GOAP_OK;
}

int goap_file_agent_type_htn(const goap_file *f, int type, const int32_t **watch,
                             int *watch_count) {
  const goap__agent_type *t =
      f && type >= 0 && type < f->agent_type_count ? &f->agent_types[type] : NULL;
  int htn = t && t->htn_name;
  if (watch) *watch = htn && t->watch_count ? f->rt_vars + t->watch : NULL;
  if (watch_count) *watch_count = htn ? (int)t->watch_count : 0;
  return htn ? t->htn_root : -1;
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
