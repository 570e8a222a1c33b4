/*
 * goap_lua_agent.c -- agent types (goap.agent_type) and agents (goap.agent) for Lua: callbacks
 * into Lua functions, memory by name or id, orders, inspection and snapshots.
 *
 * Invariants:
 *  - A type's callbacks live in its uservalue 2, as arrays indexed by id + 1 (no string keys
 *    on the hot path): [1] tick, [2] start, [3] stop, [4] check (by action), [5] priority (by
 *    goal), [6] sensors (by sensor); [7] and [8] the action and goal names passed to them (so
 *    a callback's arguments are never new strings). Native bindings get the ltype as `user`; the agent is
 *    found through goap_agent_host (the lagent) and the registry's AGENTS_KEY table.
 *  - An agent's uservalues: 1 file, 2 type, 3 on_event, 4 blackboard, 5 cache, 6 planner. It
 *    counts itself in the type, blackboard, cache and planner (refs) until it is freed.
 *  - Callbacks run only between goap__lua_agent_begin and _end (lagent.L set); every one runs
 *    inside lua_pcall, and the first error is kept (error_ref) and raised once C has returned.
 *    An action whose callback raised fails; a check that raised leaves the action out; a
 *    priority that raised is 0.
 */
#include "goap_lua.h"

#include <goap/inspect.h>
#include <goap/save.h>

#include <stdlib.h>
#include <string.h>

#define status_error goap__lua_status_error
#define var_name goap__lua_var_name

enum { CB_TICK = 1, CB_START, CB_STOP, CB_CHECK, CB_PRIORITY, CB_SENSOR, CB_ACTION_NAMES,
       CB_GOAL_NAMES, CB_EVENT };

static const goap_domain *adom(const lagent *a) { return goap_agent_type_domain(a->type->type); }

/* ---- types ---------------------------------------------------------------------------- */
static ltype *check_type(lua_State *L, int idx) {
  ltype *t = (ltype *)luaL_checkudata(L, idx, TYPE_MT);
  if (!t->type) luaL_error(L, "goap: the agent type is closed");
  return t;
}

static void type_free(ltype *t) {
  goap_agent_type_destroy(t->type);
  free(t->sensors);
  t->type = NULL;
  t->sensors = NULL;
  if (t->file) t->file->refs--;
  t->file = NULL;
}

static int t_close(lua_State *L) {
  ltype *t = (ltype *)luaL_checkudata(L, 1, TYPE_MT);
  if (t->type && t->refs > 0)
    return luaL_error(L, "goap: cannot close the agent type: %d agent(s) of it are still open",
                      t->refs);
  type_free(t);
  return 0;
}
static int t_gc(lua_State *L) {
  ltype *t = (ltype *)luaL_checkudata(L, 1, TYPE_MT);
  if (t->refs == 0) type_free(t); /* agents hold their type: finalized before it */
  return 0;
}
static int t_tostring(lua_State *L) {
  ltype *t = (ltype *)luaL_checkudata(L, 1, TYPE_MT);
  if (t->type) lua_pushfstring(L, "goap.agent_type(%s)", goap_agent_type_name(t->type));
  else lua_pushliteral(L, "goap.agent_type(closed)");
  return 1;
}
static int t_name(lua_State *L) {
  lua_pushstring(L, goap_agent_type_name(check_type(L, 1)->type));
  return 1;
}
static int t_fingerprint(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)goap_agent_type_fingerprint(check_type(L, 1)->type));
  return 1;
}

/* ---- callbacks ------------------------------------------------------------------------ */
typedef struct cb_call {
  lagent *a;
  int which;
  int id; /* action, goal or sensor (1-based) */
  double dt;
  const goap_agent_event *ev;
  int result;       /* tick: goap_action_state; check: 0 / 1 */
  double priority;  /* priority */
} cb_call;

static int cb_protected(lua_State *L) {
  cb_call *c = (cb_call *)lua_touserdata(L, 1);
  lagent *a = c->a;
  const goap_domain *d = adom(a);
  goap__lua_push_agent(L, a); /* 2 */
  if (lua_isnil(L, 2)) return 0;
  if (c->which == CB_EVENT) {
    lua_getiuservalue(L, 2, 3);
    lua_pushvalue(L, 2);
    goap__lua_push_event(L, d, c->ev);
    lua_call(L, 2, 0);
    return 0;
  }
  lua_getiuservalue(L, 2, 2); /* 3: the type */
  lua_getiuservalue(L, 3, 2); /* 4: its callbacks */
  lua_rawgeti(L, 4, c->which);
  lua_rawgeti(L, 5, c->which == CB_SENSOR ? c->id : c->id + 1);
  if (!lua_isfunction(L, -1)) return 0; /* keeps the default result */
  lua_pushvalue(L, 2);
  if (c->which == CB_SENSOR) {
    lua_call(L, 1, 0);
    return 0;
  }
  /* the names the type keeps (cbs[7], cbs[8]): no string is made on the hot path */
  lua_rawgeti(L, 4, c->which == CB_PRIORITY ? CB_GOAL_NAMES : CB_ACTION_NAMES);
  lua_rawgeti(L, -1, c->id + 1);
  lua_remove(L, -2);
  const char *name = lua_tostring(L, -1);
  if (c->which == CB_START || c->which == CB_STOP) {
    lua_call(L, 2, 0);
    return 0;
  }
  if (c->which == CB_CHECK) {
    lua_call(L, 2, 1);
    c->result = lua_toboolean(L, -1);
    return 0;
  }
  if (c->which == CB_PRIORITY) {
    lua_call(L, 2, 1);
    int ok = 0;
    double p = lua_tonumberx(L, -1, &ok);
    if (!ok)
      return luaL_error(L, "goap: goal %s: priority returned %s (expected a number)", name,
                        luaL_typename(L, -1));
    c->priority = p;
    return 0;
  }
  lua_pushnumber(L, c->dt);
  lua_call(L, 3, 1);
  if (lua_isnil(L, -1)) {
    c->result = GOAP_ACTION_RUNNING;
  } else if (lua_isboolean(L, -1)) {
    c->result = lua_toboolean(L, -1) ? GOAP_ACTION_SUCCESS : GOAP_ACTION_FAILURE;
  } else {
    static const char *const states[] = {"running", "success", "failure", NULL};
    const char *s = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    int k = -1;
    for (int i = 0; s && states[i]; i++)
      if (strcmp(s, states[i]) == 0) k = i;
    if (k < 0)
      return luaL_error(L, "goap: action %s: tick returned %s (expected \"running\", "
                        "\"success\" or \"failure\")", name, luaL_tolstring(L, -1, NULL));
    c->result = k;
  }
  return 0;
}

/* Runs a callback; c->result / c->priority keep their defaults when Lua cannot be called. */
static void run_callback(goap_agent *agent, cb_call *c) {
  lagent *a = (lagent *)goap_agent_host(agent);
  lua_State *L = a ? a->L : NULL;
  if (!L) return; /* outside update (destroy, finalizers): no Lua */
  c->a = a;
  if (!lua_checkstack(L, 8)) return;
  lua_pushcfunction(L, cb_protected);
  lua_pushlightuserdata(L, c);
  if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
    if (c->which == CB_TICK) c->result = GOAP_ACTION_FAILURE;
    if (c->which == CB_CHECK) c->result = 0;
    if (!a->has_error) {
      a->error_ref = luaL_ref(L, LUA_REGISTRYINDEX);
      a->has_error = 1;
    } else {
      lua_pop(L, 1);
    }
  }
}

static void cb_start(goap_agent *agent, int action, void *user) {
  cb_call c = {NULL, CB_START, action, 0.0, NULL, 0, 0.0};
  (void)user;
  run_callback(agent, &c);
}
static goap_action_state cb_tick(goap_agent *agent, int action, double dt, void *user) {
  cb_call c = {NULL, CB_TICK, action, dt, NULL, GOAP_ACTION_FAILURE, 0.0};
  (void)user;
  run_callback(agent, &c);
  return (goap_action_state)c.result;
}
static void cb_stop(goap_agent *agent, int action, void *user) {
  cb_call c = {NULL, CB_STOP, action, 0.0, NULL, 0, 0.0};
  (void)user;
  run_callback(agent, &c);
}
static int cb_check(goap_agent *agent, int action, void *user) {
  cb_call c = {NULL, CB_CHECK, action, 0.0, NULL, 1, 0.0};
  (void)user;
  run_callback(agent, &c);
  return c.result;
}
static double cb_priority(goap_agent *agent, int goal, void *user) {
  cb_call c = {NULL, CB_PRIORITY, goal, 0.0, NULL, 0, 0.0};
  (void)user;
  run_callback(agent, &c);
  return c.priority;
}
static void cb_sensor(goap_agent *agent, void *user) {
  cb_call c = {NULL, CB_SENSOR, ((const lsensor *)user)->index, 0.0, NULL, 0, 0.0};
  run_callback(agent, &c);
}
static void cb_event(goap_agent *agent, const goap_agent_event *ev, void *user) {
  cb_call c = {NULL, CB_EVENT, -1, 0.0, ev, 0, 0.0};
  (void)user;
  run_callback(agent, &c);
}

/* ---- building a type ------------------------------------------------------------------ */
static const char *const search_names[] = {"astar", "backward", "wastar", "greedy", NULL};

static double opt_number(lua_State *L, int t, const char *k, double def, double lo) {
  double x = goap__lua_field_num(L, t, k, def);
  lua_pop(L, 1);
  if (!(x >= lo) || x > 1e300) luaL_error(L, "goap: %s: %f is out of range", k, x);
  return x;
}

static void check_table(lua_State *L, int idx, const char *k) {
  if (!lua_istable(L, idx)) luaL_error(L, "goap: %s: expected a table, got %s", k, luaL_typename(L, idx));
}

/* A fresh array of functions at cbs[slot], filled from the table at `src` whose keys are
 * names of kind `kind` (an error for any other key); `field` picks a field of table values
 * (actions given as {tick=, start=, stop=, check=}). Sets bit i+1 of *has for each function. */
static void collect(lua_State *L, const goap_domain *d, int cbs, int slot, int src, int kind,
                    const char *field, unsigned char *has) {
  lua_rawgeti(L, cbs, slot);
  int dst = lua_gettop(L);
  lua_pushnil(L);
  while (lua_next(L, src)) {
    if (lua_type(L, -2) != LUA_TSTRING)
      luaL_error(L, "goap: expected %s names as keys", kind == GOAP__LUA_GOAL ? "goal" : "action");
    int id = goap__lua_id(L, -2, d, kind);
    if (field && lua_istable(L, -1)) {
      lua_getfield(L, -1, field);
      lua_replace(L, -2);
    } else if (field && strcmp(field, "tick") != 0) {
      lua_pop(L, 1);
      continue;
    }
    if (lua_isfunction(L, -1)) {
      has[id] = 1;
      lua_rawseti(L, dst, id + 1);
    } else if (!lua_isnil(L, -1)) {
      luaL_error(L, "goap: %s %s: expected a function%s", kind == GOAP__LUA_GOAL ? "goal" : "action",
                 lua_tostring(L, -2), field ? " or a table of tick/start/stop/check" : "");
    } else {
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
}

/* Creates a type from the options table at idx and pushes it. */
static ltype *new_type(lua_State *L, int fidx, int idx) {
  lfile *lf = goap__lua_check_file(L, fidx);
  const goap_file *f = lf->f;
  const goap_domain *d = goap_file_domain(f);
  int na = goap_domain_action_count(d), ng = goap_domain_goal_count(d);
  int base = lua_gettop(L);
  const char *block = goap__lua_field_str(L, idx, "type", NULL);
  int bt = -1;
  if (block && (bt = goap_file_find_agent_type(f, block)) < 0)
    luaL_error(L, "goap: unknown agent type '%s' (no `agent %s` block)", block, block);
  const char *tname = goap__lua_field_str(L, idx, "name", block ? block : "agent");

  /* callbacks: cbs[1..6] */
  lua_createtable(L, 6, 0);
  int cbs = lua_gettop(L);
  for (int k = CB_TICK; k <= CB_SENSOR; k++) {
    lua_createtable(L, k == CB_PRIORITY ? ng : na, 0);
    lua_rawseti(L, cbs, k);
  }
  lua_createtable(L, na, 0);
  for (int i = 0; i < na; i++) {
    lua_pushstring(L, goap_domain_action_name(d, i));
    lua_rawseti(L, -2, i + 1);
  }
  lua_rawseti(L, cbs, CB_ACTION_NAMES);
  lua_createtable(L, ng, 0);
  for (int g = 0; g < ng; g++) {
    lua_pushstring(L, goap_domain_goal_name(d, g));
    lua_rawseti(L, -2, g + 1);
  }
  lua_rawseti(L, cbs, CB_GOAL_NAMES);
  size_t nflags = (size_t)(na + ng + 1);
  unsigned char *flags = (unsigned char *)lua_newuserdatauv(L, nflags * 5, 0);
  memset(flags, 0, nflags * 5);
  unsigned char *has_tick = flags, *has_start = flags + nflags, *has_stop = flags + 2 * nflags,
                *has_check = flags + 3 * nflags, *has_prio = flags + 4 * nflags;
  lua_getfield(L, idx, "actions");
  if (!lua_isnil(L, -1)) {
    check_table(L, -1, "actions");
    int src = lua_gettop(L);
    collect(L, d, cbs, CB_TICK, src, GOAP__LUA_ACTION, "tick", has_tick);
    collect(L, d, cbs, CB_START, src, GOAP__LUA_ACTION, "start", has_start);
    collect(L, d, cbs, CB_STOP, src, GOAP__LUA_ACTION, "stop", has_stop);
    collect(L, d, cbs, CB_CHECK, src, GOAP__LUA_ACTION, "check", has_check);
  }
  lua_pop(L, 1);
  lua_getfield(L, idx, "checks");
  if (!lua_isnil(L, -1)) {
    check_table(L, -1, "checks");
    collect(L, d, cbs, CB_CHECK, lua_gettop(L), GOAP__LUA_ACTION, NULL, has_check);
  }
  lua_pop(L, 1);
  lua_getfield(L, idx, "priorities");
  if (!lua_isnil(L, -1)) {
    check_table(L, -1, "priorities");
    collect(L, d, cbs, CB_PRIORITY, lua_gettop(L), GOAP__LUA_GOAL, NULL, has_prio);
  }
  lua_pop(L, 1);
  /* sensors: {fn, ...} or {{fn = f, interval = s}, ...} */
  int nsensors = 0;
  lua_getfield(L, idx, "sensors");
  int sidx = lua_gettop(L);
  if (!lua_isnil(L, sidx)) {
    check_table(L, sidx, "sensors");
    nsensors = (int)lua_rawlen(L, sidx);
  }
  double *intervals = (double *)lua_newuserdatauv(L, sizeof(double) * (size_t)(nsensors + 1), 0);
  lua_rawgeti(L, cbs, CB_SENSOR);
  for (int i = 1; i <= nsensors; i++) {
    lua_rawgeti(L, sidx, i);
    intervals[i - 1] = 0;
    if (lua_istable(L, -1)) {
      intervals[i - 1] = opt_number(L, lua_gettop(L), "interval", 0, 0);
      lua_getfield(L, -1, "fn");
      lua_replace(L, -2);
    }
    if (!lua_isfunction(L, -1)) luaL_error(L, "goap: sensor %d: expected a function or {fn=, interval=}", i);
    lua_rawseti(L, -2, i);
  }
  lua_pop(L, 1);

  goap_agent_type_desc td;
  memset(&td, 0, sizeof td);
  td.allocator = goap__lua_file_allocator(lf);
  td.name = tname;
  const char *search = goap__lua_field_str(L, idx, "search", "astar");
  int si = -1;
  for (int i = 0; search_names[i]; i++)
    if (strcmp(search, search_names[i]) == 0) si = i;
  if (si < 0) luaL_error(L, "goap: unknown search '%s' (astar, backward, wastar, greedy)", search);
  td.search = (goap_search)si;
  const char *h = goap__lua_field_str(L, idx, "heuristic", "default");
  int hid = goap_heuristic_from_name(h);
  if (hid < 0) luaL_error(L, "goap: unknown heuristic '%s'", h);
  td.heuristic = (goap_heuristic)hid;
  lua_pop(L, 2);
  td.max_nodes = (uint32_t)opt_number(L, idx, "max_nodes", 0, 0);
  td.expansions_per_update = (uint32_t)opt_number(L, idx, "expansions_per_update", 0, 0);
  td.goal_check_interval = opt_number(L, idx, "goal_check_interval", 0, 0);
  td.failed_goal_cooldown = opt_number(L, idx, "failed_goal_cooldown", 0, 0);
  td.switch_margin = opt_number(L, idx, "switch_margin", goap_file_switch_margin(f, bt, -1), -1e300);
  if (td.max_nodes > (uint32_t)INT32_MAX || td.expansions_per_update > (uint32_t)INT32_MAX)
    luaL_error(L, "goap: max_nodes / expansions_per_update out of range");

  /* the type's userdata first (so its native parts are released if anything below raises) */
  ltype *t = (ltype *)lua_newuserdatauv(L, sizeof *t, 2);
  memset(t, 0, sizeof *t);
  luaL_setmetatable(L, TYPE_MT);
  int self = lua_gettop(L);
  lua_pushvalue(L, fidx);
  lua_setiuservalue(L, self, 1);
  lua_pushvalue(L, cbs);
  lua_setiuservalue(L, self, 2);
  t->file = lf;
  lf->refs++;
  goap_action_binding *acts =
      (goap_action_binding *)lua_newuserdatauv(L, sizeof *acts * (size_t)(na ? na : 1), 0);
  goap_goal_binding *goals =
      (goap_goal_binding *)lua_newuserdatauv(L, sizeof *goals * (size_t)(ng ? ng : 1), 0);
  goap_sensor_desc *sd =
      (goap_sensor_desc *)lua_newuserdatauv(L, sizeof *sd * (size_t)(nsensors + 1), 0);
  memset(acts, 0, sizeof *acts * (size_t)(na ? na : 1));
  memset(goals, 0, sizeof *goals * (size_t)(ng ? ng : 1));
  memset(sd, 0, sizeof *sd * (size_t)(nsensors + 1));
  goap_status st = goap_file_agent_bindings(f, bt, acts, na, goals, ng);
  if (st != GOAP_OK) status_error(L, "agent bindings", st);
  for (int i = 0; i < na; i++) {
    acts[i].user = t;
    if (has_tick[i]) acts[i].tick = cb_tick;
    if (has_start[i]) acts[i].start = cb_start;
    if (has_stop[i]) acts[i].stop = cb_stop;
    if (has_check[i]) {
      acts[i].check = cb_check;
      acts[i].check_user = t;
    }
  }
  for (int g = 0; g < ng; g++) {
    goals[g].user = t;
    if (has_prio[g]) goals[g].priority = cb_priority;
  }
  t->sensors = (lsensor *)calloc((size_t)(nsensors + 1), sizeof *t->sensors);
  if (!t->sensors) luaL_error(L, "goap: out of memory");
  for (int i = 0; i < nsensors; i++) {
    t->sensors[i].type = t;
    t->sensors[i].index = i + 1;
    sd[i].fn = cb_sensor;
    sd[i].user = &t->sensors[i];
    sd[i].interval = intervals[i];
  }
  td.actions = acts;
  td.action_count = na;
  td.goals = goals;
  td.goal_count = ng;
  td.sensors = sd;
  td.sensor_count = nsensors;
  if (bt >= 0 && goap_file_agent_type_htn(f, bt, NULL, NULL) >= 0) {
    int nw = 0;
    const int32_t *w = NULL;
    td.htn = goap_file_htn(f);
    td.htn_root = goap_file_agent_type_htn(f, bt, &w, &nw);
    td.htn_watch = w;
    td.htn_watch_count = nw;
    td.goals = NULL;
    td.goal_count = 0;
  }
  goap_error err;
  st = goap_agent_type_create(d, &td, &t->type, &err);
  if (st != GOAP_OK) goap__lua_error(L, &err);
  lua_pushvalue(L, self);
  lua_replace(L, base + 1);
  lua_settop(L, base + 1);
  return t;
}

/* file:agent_type{type = "rifleman" (an `agent` block; nil: every action and goal), name =,
 *   actions = {name = fn | {tick=, start=, stop=, check=}}, checks = {action = fn},
 *   priorities = {goal = fn}, sensors = {fn | {fn=, interval=}}, search=, heuristic=,
 *   max_nodes=, expansions_per_update=, goal_check_interval=, failed_goal_cooldown=,
 *   switch_margin=} -> a type, shared by the agents made with type:agent{...} */
int goap__lua_file_agent_type(lua_State *L) {
  goap__lua_check_file(L, 1);
  luaL_checktype(L, 2, LUA_TTABLE);
  lua_settop(L, 2);
  new_type(L, 1, 2);
  return 1;
}

/* ---- agents --------------------------------------------------------------------------- */
lagent *goap__lua_check_agent(lua_State *L, int idx) {
  lagent *a = (lagent *)luaL_checkudata(L, idx, AGENT_MT);
  if (!a->agent) luaL_error(L, "goap: the agent is closed");
  return a;
}
#define check_agent goap__lua_check_agent

void goap__lua_push_agent(lua_State *L, const lagent *a) {
  lua_getfield(L, LUA_REGISTRYINDEX, AGENTS_KEY);
  lua_rawgetp(L, -1, a);
  lua_remove(L, -2);
}

void goap__lua_agent_begin(lua_State *L, lagent *a) {
  a->L = L;
  a->updating = 1;
  if (a->planner) a->planner->busy++;
  if (a->bb) a->bb->busy++;
}
void goap__lua_agent_end(lagent *a) {
  if (a->planner && a->updating) a->planner->busy--;
  if (a->bb && a->updating) a->bb->busy--;
  a->L = NULL;
  a->updating = 0;
}
/* Raises the error a callback left, if any; returns 0 otherwise. */
int goap__lua_agent_raise(lua_State *L, lagent *a) {
  if (!a->has_error) return 0;
  a->has_error = 0;
  lua_rawgeti(L, LUA_REGISTRYINDEX, a->error_ref);
  luaL_unref(L, LUA_REGISTRYINDEX, a->error_ref);
  return lua_error(L);
}

static void agent_free(lua_State *L, lagent *a) {
  if (a->squad) goap__lua_squad_forget(a->squad, a);
  if (a->world) goap__lua_world_forget(a->world, a);
  a->L = NULL; /* destroying calls stop callbacks: not into Lua */
  goap_agent_destroy(a->agent);
  a->agent = NULL;
  if (a->has_error) {
    luaL_unref(L, LUA_REGISTRYINDEX, a->error_ref);
    a->has_error = 0;
  }
  if (a->type && --a->type->refs == 0 && a->type->own) type_free(a->type);
  if (a->bb) a->bb->refs--;
  if (a->cache) a->cache->refs--;
  if (a->planner) a->planner->refs--;
  a->type = NULL;
  a->bb = NULL;
  a->cache = NULL;
  a->planner = NULL;
}

/* Creates an agent of the type at tidx with the options table at oidx and pushes it. */
static lagent *new_agent(lua_State *L, int tidx, int oidx) {
  ltype *t = check_type(L, tidx);
  const goap_domain *d = goap_agent_type_domain(t->type);
  int top = lua_gettop(L);
  lua_getfield(L, oidx, "on_event"); /* top+1 */
  if (!lua_isnil(L, top + 1) && !lua_isfunction(L, top + 1))
    luaL_error(L, "goap: on_event: expected a function, got %s", luaL_typename(L, top + 1));
  lua_getfield(L, oidx, "blackboard");
  lbb *bb = goap__lua_opt_bb(L, top + 2);
  lua_getfield(L, oidx, "cache");
  lcache *cache = goap__lua_opt_cache(L, top + 3);
  lua_getfield(L, oidx, "planner");
  lplanner *planner = goap__lua_opt_planner(L, top + 4);
  if (planner && goap_file_domain(planner->file->f) != d)
    luaL_error(L, "goap: the planner is for another file's domain");
  const char *memory = goap__lua_field_str(L, oidx, "memory", NULL);
  lua_Integer hist = goap__lua_field_int(L, oidx, "replan_history", -1, 1 << 20);
  goap_word *mem = NULL;
  if (memory) {
    size_t words = goap_domain_state_words(d);
    mem = (goap_word *)lua_newuserdatauv(L, sizeof(goap_word) * (words ? words : 1), 0);
    goap_state_init(d, mem);
    int n = 0;
    const goap_effect *eff = (const goap_effect *)goap__lua_parse_list(L, d, memory, 0, &n);
    goap_status st = goap_state_assign(d, mem, eff, n);
    if (st != GOAP_OK) status_error(L, "memory", st);
  }
  lagent *a = (lagent *)lua_newuserdatauv(L, sizeof *a, 6);
  memset(a, 0, sizeof *a);
  luaL_setmetatable(L, AGENT_MT);
  int self = lua_gettop(L);
  lua_getiuservalue(L, tidx, 1);
  lua_setiuservalue(L, self, 1);
  lua_pushvalue(L, tidx);
  lua_setiuservalue(L, self, 2);
  for (int k = 1; k <= 4; k++) {
    lua_pushvalue(L, top + k);
    lua_setiuservalue(L, self, 2 + k);
  }
  goap_agent_desc ad;
  memset(&ad, 0, sizeof ad);
  ad.type = t->type;
  ad.memory = mem;
  ad.host = a;
  ad.blackboard = bb ? bb->bb : NULL;
  ad.cache = cache ? cache->c : NULL;
  ad.planner = planner ? planner->p : NULL;
  ad.replan_history = (int)hist;
  if (!lua_isnil(L, top + 1)) {
    ad.on_event = cb_event;
    ad.event_user = a;
  }
  goap_error err;
  goap_status st = goap_agent_create(&ad, &a->agent, &err);
  if (st != GOAP_OK) goap__lua_error(L, &err);
  a->type = t;
  t->refs++;
  if ((a->bb = bb) != NULL) bb->refs++;
  if ((a->cache = cache) != NULL) cache->refs++;
  if ((a->planner = planner) != NULL) planner->refs++;
  lua_getfield(L, LUA_REGISTRYINDEX, AGENTS_KEY);
  lua_pushvalue(L, self);
  lua_rawsetp(L, -2, a);
  lua_pushvalue(L, self);
  lua_replace(L, top + 1);
  lua_settop(L, top + 1);
  return a;
}

/* type:agent{memory = "door_stuck", blackboard = bb, cache = c, planner = p,
 *            on_event = function(agent, event) end, replan_history = n} -> agent */
static int t_agent(lua_State *L) {
  check_type(L, 1);
  if (lua_isnoneornil(L, 2)) {
    lua_settop(L, 1);
    lua_newtable(L);
  }
  luaL_checktype(L, 2, LUA_TTABLE);
  lua_settop(L, 2);
  new_agent(L, 1, 2);
  return 1;
}

/* file:agent{...}: file:agent_type{...} and type:agent{...} from one table (the type is the
 * agent's own) */
int goap__lua_file_agent(lua_State *L) {
  goap__lua_check_file(L, 1);
  if (lua_isnoneornil(L, 2)) {
    lua_settop(L, 1);
    lua_newtable(L);
  }
  luaL_checktype(L, 2, LUA_TTABLE);
  lua_settop(L, 2);
  ltype *t = new_type(L, 1, 2); /* 3 */
  new_agent(L, 3, 2);
  t->own = 1; /* freed with the agent */
  return 1;
}

static void check_free(lua_State *L, lagent *a, const char *what) {
  if (a->updating) luaL_error(L, "goap: agent:%s called from one of its callbacks", what);
}

/* agent:update(dt) -> status name; raises the first error a callback raised */
static int a_update(lua_State *L) {
  lagent *a = check_agent(L, 1);
  double dt = luaL_checknumber(L, 2);
  check_free(L, a, "update");
  if (a->world) return luaL_error(L, "goap: the agent is in a world: world:update updates it");
  if (a->planner && a->planner->busy)
    return luaL_error(L, "goap: the agent's planner is in use by another agent's update");
  goap__lua_agent_begin(L, a);
  goap_status st = goap_agent_update(a->agent, dt);
  goap__lua_agent_end(a);
  goap__lua_agent_raise(L, a);
  if (st == GOAP_INVALID_ARGUMENT || st == GOAP_OUT_OF_MEMORY) return status_error(L, "update", st);
  goap__lua_push_status(L, st);
  return 1;
}

static int a_get(lua_State *L) {
  lagent *a = check_agent(L, 1);
  int v = goap__lua_id(L, 2, adom(a), GOAP__LUA_VAR);
  lua_pushinteger(L, goap_agent_get(a->agent, v));
  return 1;
}

static int a_set(lua_State *L) {
  lagent *a = check_agent(L, 1);
  int v = goap__lua_id(L, 2, adom(a), GOAP__LUA_VAR);
  lua_Integer x = lua_isboolean(L, 3) ? lua_toboolean(L, 3) : luaL_checkinteger(L, 3);
  if (x < INT32_MIN || x > INT32_MAX) return status_error(L, "set", GOAP_OUT_OF_RANGE);
  goap_status st = goap_agent_set(a->agent, v, (int32_t)x);
  if (st != GOAP_OK) return status_error(L, "set", st);
  return 0;
}

static int a_goal(lua_State *L) {
  lagent *a = check_agent(L, 1);
  int g = goap_agent_goal(a->agent);
  if (g < 0) lua_pushnil(L);
  else lua_pushstring(L, goap_domain_goal_name(adom(a), g));
  return 1;
}
static int a_action(lua_State *L) {
  lagent *a = check_agent(L, 1);
  int x = goap_agent_action(a->agent);
  if (x < 0) lua_pushnil(L);
  else lua_pushstring(L, goap_domain_action_name(adom(a), x));
  return 1;
}
/* agent:goal_id(), agent:action_id() -> id, -1 when none */
static int a_goal_id(lua_State *L) {
  lua_pushinteger(L, goap_agent_goal(check_agent(L, 1)->agent));
  return 1;
}
static int a_action_id(lua_State *L) {
  lua_pushinteger(L, goap_agent_action(check_agent(L, 1)->agent));
  return 1;
}

/* agent:plan() -> {names...}, step */
static int a_plan(lua_State *L) {
  lagent *a = check_agent(L, 1);
  int n = 0, step = 0;
  const int32_t *p = goap_agent_plan(a->agent, &n, &step);
  const goap_domain *d = adom(a);
  lua_createtable(L, p ? n : 0, 0);
  for (int i = 0; p && i < n; i++) {
    lua_pushstring(L, goap_domain_action_name(d, p[i]));
    lua_rawseti(L, -2, i + 1);
  }
  lua_pushinteger(L, step);
  return 2;
}

/* agent:plan_ids(out) -> length, step: the plan's action ids in out[1..length] (nil after
 * them up to its old length); allocates nothing when out is large enough */
static int a_plan_ids(lua_State *L) {
  lagent *a = check_agent(L, 1);
  luaL_checktype(L, 2, LUA_TTABLE);
  int n = 0, step = 0;
  const int32_t *p = goap_agent_plan(a->agent, &n, &step);
  if (!p) n = 0;
  lua_Integer old = (lua_Integer)lua_rawlen(L, 2);
  for (int i = 0; i < n; i++) {
    lua_pushinteger(L, p[i]);
    lua_rawseti(L, 2, i + 1);
  }
  for (lua_Integer i = n + 1; i <= old; i++) {
    lua_pushnil(L);
    lua_rawseti(L, 2, i);
  }
  lua_pushinteger(L, n);
  lua_pushinteger(L, step);
  return 2;
}

static void set_u64(lua_State *L, const char *k, uint64_t v) {
  lua_pushinteger(L, (lua_Integer)v);
  lua_setfield(L, -2, k);
}

static int a_stats(lua_State *L) {
  lagent *a = check_agent(L, 1);
  goap_agent_stats s = goap_agent_get_stats(a->agent);
  lua_createtable(L, 0, 14);
  set_u64(L, "updates", s.updates);
  set_u64(L, "plans", s.plans);
  set_u64(L, "plan_failures", s.plan_failures);
  set_u64(L, "repairs", s.repairs);
  set_u64(L, "cache_hits", s.cache_hits);
  set_u64(L, "expanded", s.expanded);
  set_u64(L, "actions_started", s.actions_started);
  set_u64(L, "actions_succeeded", s.actions_succeeded);
  set_u64(L, "actions_failed", s.actions_failed);
  set_u64(L, "reservations_denied", s.reservations_denied);
  set_u64(L, "memory_bytes", (uint64_t)s.memory_bytes);
  lua_createtable(L, 0, GOAP_REPLAN_REASON_COUNT);
  for (int r = 0; r < GOAP_REPLAN_REASON_COUNT; r++) {
    lua_pushinteger(L, (lua_Integer)s.replans[r]);
    lua_setfield(L, -2, goap_replan_reason_name((goap_replan_reason)r));
  }
  lua_setfield(L, -2, "replans");
  return 1;
}

static int a_time(lua_State *L) {
  lua_pushnumber(L, goap_agent_time(check_agent(L, 1)->agent));
  return 1;
}

/* replan, reset, order and clear_order may stop the running action: its stop callback runs */
enum { OP_REPLAN, OP_RESET, OP_CLEAR_ORDER };
static int agent_op(lua_State *L, int op) {
  static const char *const names[] = {"replan", "reset", "clear_order"};
  lagent *a = check_agent(L, 1);
  check_free(L, a, names[op]);
  goap__lua_agent_begin(L, a);
  if (op == OP_REPLAN) goap_agent_replan(a->agent);
  else if (op == OP_RESET) goap_agent_reset(a->agent);
  else goap_agent_clear_order(a->agent);
  goap__lua_agent_end(a);
  goap__lua_agent_raise(L, a);
  return 0;
}
static int a_replan(lua_State *L) { return agent_op(L, OP_REPLAN); }
static int a_reset(lua_State *L) { return agent_op(L, OP_RESET); }
static int a_clear_order(lua_State *L) { return agent_op(L, OP_CLEAR_ORDER); }

/* agent:order(goal, priority): goal by name or id */
static int a_order(lua_State *L) {
  lagent *a = check_agent(L, 1);
  int g = goap__lua_id(L, 2, adom(a), GOAP__LUA_GOAL);
  double p = luaL_checknumber(L, 3);
  check_free(L, a, "order");
  goap__lua_agent_begin(L, a);
  goap_status st = goap_agent_order(a->agent, g, p);
  goap__lua_agent_end(a);
  goap__lua_agent_raise(L, a);
  if (st != GOAP_OK)
    return luaL_error(L, "goap: order: the agent's type does not pursue goal '%s'",
                      goap_domain_goal_name(adom(a), g));
  return 0;
}
static int a_ordered_goal(lua_State *L) {
  lagent *a = check_agent(L, 1);
  int g = goap_agent_ordered_goal(a->agent);
  if (g < 0) lua_pushnil(L);
  else lua_pushstring(L, goap_domain_goal_name(adom(a), g));
  return 1;
}
static int a_blackboard(lua_State *L) {
  check_agent(L, 1);
  lua_getiuservalue(L, 1, 4);
  return 1;
}
static int a_type(lua_State *L) {
  check_agent(L, 1);
  lua_getiuservalue(L, 1, 2);
  return 1;
}

static int a_close(lua_State *L) {
  lagent *a = (lagent *)luaL_checkudata(L, 1, AGENT_MT);
  if (a->updating) return luaL_error(L, "goap: agent closed from one of its callbacks");
  agent_free(L, a);
  return 0;
}
static int a_gc(lua_State *L) {
  agent_free(L, (lagent *)luaL_checkudata(L, 1, AGENT_MT));
  return 0;
}
static int a_tostring(lua_State *L) {
  lagent *a = (lagent *)luaL_checkudata(L, 1, AGENT_MT);
  if (a->agent) lua_pushfstring(L, "goap.agent(%s)", goap_agent_type_name(a->type->type));
  else lua_pushliteral(L, "goap.agent(closed)");
  return 1;
}

/* ---- inspection (goap/inspect.h): tables of names ------------------------------------- */
static void set_num(lua_State *L, const char *k, double v) {
  lua_pushnumber(L, v);
  lua_setfield(L, -2, k);
}
static void set_int(lua_State *L, const char *k, lua_Integer v) {
  lua_pushinteger(L, v);
  lua_setfield(L, -2, k);
}
static void set_str(lua_State *L, const char *k, const char *v) {
  if (v) lua_pushstring(L, v);
  else lua_pushnil(L);
  lua_setfield(L, -2, k);
}
static void set_bool(lua_State *L, const char *k, int v) {
  lua_pushboolean(L, v);
  lua_setfield(L, -2, k);
}
static void push_cond(lua_State *L, const goap_domain *d, const goap_cond *c) {
  char buf[256];
  goap_format_cond(d, c, buf, sizeof buf);
  lua_pushstring(L, buf);
}
static const char *goal_or_nil(const goap_domain *d, int g) {
  return g >= 0 ? goap_domain_goal_name(d, g) : NULL;
}

/* agent:inspect_goals() -> {{goal=, state=, priority=, ordered=, failed_cond=, failed_at=,
 * fail_status=, retry_at=}, ...}, best first */
static int a_inspect_goals(lua_State *L) {
  lagent *a = check_agent(L, 1);
  const goap_domain *d = adom(a);
  int n = goap_agent_inspect_goals(a->agent, NULL, 0);
  goap_goal_info *gi = (goap_goal_info *)malloc((size_t)(n > 0 ? n : 1) * sizeof *gi);
  if (!gi) return luaL_error(L, "goap: out of memory");
  n = goap_agent_inspect_goals(a->agent, gi, n);
  lua_createtable(L, n, 0);
  for (int i = 0; i < n; i++) {
    lua_createtable(L, 0, 8);
    set_str(L, "goal", goap_domain_goal_name(d, gi[i].goal));
    set_str(L, "state", goap_goal_state_name(gi[i].state));
    set_num(L, "priority", gi[i].priority);
    set_bool(L, "ordered", gi[i].ordered);
    if (gi[i].failed_cond.var >= 0) {
      push_cond(L, d, &gi[i].failed_cond);
      lua_setfield(L, -2, "failed_cond");
    }
    if (gi[i].failed_at >= 0) {
      set_num(L, "failed_at", gi[i].failed_at);
      set_str(L, "fail_status", goap_status_name(gi[i].fail_status));
    }
    if (gi[i].state == GOAP_GOAL_COOLDOWN) set_num(L, "retry_at", gi[i].retry_at);
    lua_rawseti(L, -2, i + 1);
  }
  free(gi);
  return 1;
}

/* agent:inspect_plan() -> {goal=, priority=, cost=, step= (from 1), running=, action_time=,
 * planning=, steps={{action=, cost=, state=, relies={conds...}, relies_hold=}, ...}} */
static int a_inspect_plan(lua_State *L) {
  lagent *a = check_agent(L, 1);
  const goap_domain *d = adom(a);
  goap_plan_info pi;
  goap_agent_inspect_plan(a->agent, &pi, NULL, 0, NULL, 0);
  goap_plan_step_info *st = (goap_plan_step_info *)malloc((size_t)(pi.length + 1) * sizeof *st);
  goap_cond *cs = (goap_cond *)malloc((size_t)(pi.cond_count + 1) * sizeof *cs);
  if (!st || !cs || goap_agent_inspect_plan(a->agent, &pi, st, pi.length, cs, pi.cond_count) !=
                        GOAP_OK) {
    free(st);
    free(cs);
    return luaL_error(L, "goap: cannot inspect the plan");
  }
  static const char *const states[] = {"done", "running", "pending"};
  lua_createtable(L, 0, 8);
  set_str(L, "goal", goal_or_nil(d, pi.goal));
  set_num(L, "priority", pi.priority);
  set_num(L, "cost", pi.cost);
  set_int(L, "step", pi.step + 1);
  set_bool(L, "running", pi.running);
  set_num(L, "action_time", pi.action_time);
  set_bool(L, "planning", pi.planning);
  lua_createtable(L, pi.length, 0);
  for (int i = 0; i < pi.length; i++) {
    lua_createtable(L, 0, 5);
    set_str(L, "action", goap_domain_action_name(d, st[i].action));
    set_num(L, "cost", st[i].cost);
    set_str(L, "state", states[st[i].state]);
    lua_createtable(L, st[i].relies_count, 0);
    for (int k = 0; k < st[i].relies_count; k++) {
      push_cond(L, d, &cs[st[i].relies_first + k]);
      lua_rawseti(L, -2, k + 1);
    }
    lua_setfield(L, -2, "relies");
    set_bool(L, "relies_hold", st[i].relies_hold);
    lua_rawseti(L, -2, i + 1);
  }
  lua_setfield(L, -2, "steps");
  free(st);
  free(cs);
  return 1;
}

/* agent:inspect_replans() -> {{time=, reason=, status=, goal=, goals_tried=, cached=,
 * plan_length=, cost=, expanded=, generated=, search_us=}, ...}, oldest first */
static int a_inspect_replans(lua_State *L) {
  lagent *a = check_agent(L, 1);
  const goap_domain *d = adom(a);
  goap_replan_info rp[64];
  int n = goap_agent_inspect_replans(a->agent, rp, 64);
  if (n > 64) n = 64;
  lua_createtable(L, n, 0);
  for (int i = 0; i < n; i++) {
    lua_createtable(L, 0, 11);
    set_num(L, "time", rp[i].time);
    set_str(L, "reason", goap_replan_reason_name(rp[i].reason));
    set_str(L, "status", goap_status_name(rp[i].status));
    set_str(L, "goal", goal_or_nil(d, rp[i].goal));
    set_int(L, "goals_tried", rp[i].goals_tried);
    set_bool(L, "cached", rp[i].cached);
    set_int(L, "plan_length", rp[i].plan_length);
    set_num(L, "cost", rp[i].cost);
    set_int(L, "expanded", (lua_Integer)rp[i].expanded);
    set_int(L, "generated", (lua_Integer)rp[i].generated);
    set_num(L, "search_us", rp[i].search_us);
    lua_rawseti(L, -2, i + 1);
  }
  return 1;
}

/* agent:inspect_failures() -> facts {action=, var=, value=, timeout=, learnt=, expires=} and
 * goals in their cooldown {goal=, status=, learnt=, expires=} */
static int a_inspect_failures(lua_State *L) {
  lagent *a = check_agent(L, 1);
  const goap_domain *d = adom(a);
  int n = goap_agent_inspect_failures(a->agent, NULL, 0);
  goap_failure_info *fi = (goap_failure_info *)malloc((size_t)(n > 0 ? n : 1) * sizeof *fi);
  if (!fi) return luaL_error(L, "goap: out of memory");
  n = goap_agent_inspect_failures(a->agent, fi, n);
  lua_createtable(L, n, 0);
  for (int i = 0; i < n; i++) {
    lua_createtable(L, 0, 6);
    if (fi[i].goal >= 0) {
      set_str(L, "goal", goap_domain_goal_name(d, fi[i].goal));
      set_str(L, "status", goap_status_name(fi[i].status));
    } else {
      set_str(L, "action", goap_domain_action_name(d, fi[i].action));
      set_str(L, "var", var_name(d, fi[i].var));
      set_int(L, "value", fi[i].value);
      set_bool(L, "timeout", fi[i].timeout);
    }
    set_num(L, "learnt", fi[i].learnt);
    set_num(L, "expires", fi[i].expires);
    lua_rawseti(L, -2, i + 1);
  }
  free(fi);
  return 1;
}
/* ---- end of inspection ---------------------------------------------------------------- */

/* ---- save games (goap/save.h) ----------------------------------------------------------- */

/* agent:snapshot() -> a string: the agent's whole runtime state */
static int a_snapshot(lua_State *L) {
  lagent *a = check_agent(L, 1);
  check_free(L, a, "snapshot");
  size_t n = 0;
  goap_agent_snapshot(a->agent, NULL, 0, &n);
  luaL_Buffer b;
  char *p = luaL_buffinitsize(L, &b, n);
  goap_status st = goap_agent_snapshot(a->agent, p, n, &n);
  if (st != GOAP_OK) return status_error(L, "snapshot", st);
  luaL_pushresultsize(&b, n);
  return 1;
}

/* agent:restore(s): into an agent never updated; a refusal raises libgoap's goap.error
 * (status truncated, version_mismatch, corrupt, domain_mismatch or invalid_operation; offset:
 * where in the snapshot). */
static int a_restore(lua_State *L) {
  lagent *a = check_agent(L, 1);
  check_free(L, a, "restore");
  size_t n = 0;
  const char *data = luaL_checklstring(L, 2, &n);
  goap_error err;
  goap_status st = goap_agent_restore(a->agent, data, n, &err);
  if (st != GOAP_OK) return goap__lua_error(L, &err);
  return 0;
}

/* agent:snapshot_json() -> the JSON text of goap_agent_snapshot_json */
static int a_snapshot_json(lua_State *L) {
  lagent *a = check_agent(L, 1);
  check_free(L, a, "snapshot_json");
  size_t n = 0;
  goap_agent_snapshot_json(a->agent, NULL, 0, &n);
  luaL_Buffer b;
  char *p = luaL_buffinitsize(L, &b, n + 1);
  goap_status st = goap_agent_snapshot_json(a->agent, p, n + 1, &n);
  if (st != GOAP_OK) return status_error(L, "snapshot_json", st);
  luaL_pushresultsize(&b, n);
  return 1;
}

static const luaL_Reg type_methods[] = {
    {"agent", t_agent}, {"name", t_name}, {"fingerprint", t_fingerprint}, {"close", t_close},
    {NULL, NULL}};

static const luaL_Reg agent_methods[] = {
    {"update", a_update}, {"get", a_get},     {"set", a_set},     {"goal", a_goal},
    {"action", a_action}, {"goal_id", a_goal_id}, {"action_id", a_action_id},
    {"plan", a_plan},     {"plan_ids", a_plan_ids}, {"stats", a_stats}, {"time", a_time},
    {"replan", a_replan}, {"reset", a_reset}, {"order", a_order},
    {"clear_order", a_clear_order}, {"ordered_goal", a_ordered_goal},
    {"blackboard", a_blackboard}, {"type", a_type}, {"close", a_close},
    {"inspect_goals", a_inspect_goals}, {"inspect_plan", a_inspect_plan},
    {"inspect_replans", a_inspect_replans}, {"inspect_failures", a_inspect_failures},
    {"snapshot", a_snapshot}, {"restore", a_restore}, {"snapshot_json", a_snapshot_json},
    {NULL, NULL}};

void goap__lua_open_agent(lua_State *L) {
  goap__lua_new_class(L, TYPE_MT, type_methods, t_gc, t_gc, t_tostring);
  goap__lua_new_class(L, AGENT_MT, agent_methods, a_gc, a_close, a_tostring);
}
