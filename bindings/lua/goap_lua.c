/*
 * goap_lua.c -- libgoap for Lua 5.4: `local goap = require("goap")`.
 *
 * Userdata: goap.file (a loaded .goap file, with its domain) and goap.agent (an NPC whose
 * actions are Lua functions). Both have __gc and __close; close() may be called early, and any
 * use after it raises a Lua error (never a crash). Errors are Lua errors whose message is the
 * CLI's text (`file:line:col: error: message`, the source line and a caret).
 *
 * Invariants:
 *  - No Lua error ever unwinds through libgoap's frames: every callback from C (action tick,
 *    start, stop, events, simulation world changes) runs its Lua work inside lua_pcall; an
 *    error there is remembered (the action is marked failed) and raised again once the C call
 *    has returned.
 *  - An agent keeps its file alive (uservalue 1) and its callbacks table (uservalue 2); a file
 *    counts its open agents and refuses to close while any is open. Callbacks run only inside
 *    agent:update(); destroying an agent does not call Lua (its stop callbacks are skipped).
 *  - No global state: everything hangs off the userdata and the registry's metatables.
 */
#include <goap/agent.h>
#include <goap/file.h>
#include <goap/save.h>
#include <goap/inspect.h>

#include <lauxlib.h>
#include <lua.h>

#include <stdlib.h>
#include <string.h>

#define FILE_MT "goap.file"
#define AGENT_MT "goap.agent"

typedef struct lfile {
  goap_file *f;
  int agents; /* open agents made on this file */
} lfile;

typedef struct lagent {
  goap_agent *agent;
  goap_agent_type *type;
  lfile *file;
  lua_State *L;     /* the state running update(), NULL outside it */
  int self_index;   /* stack index of the agent userdata during update() */
  int has_error;    /* an error value waits in the registry (error_ref) */
  int error_ref;
  int updating;
  goap_action_binding *acts;
  goap_goal_binding *goals;
} lagent;

/* ---- errors --------------------------------------------------------------------------- */
static int push_diag_error(lua_State *L, const goap_diag *d) {
  char buf[2048];
  goap_diag_format(d, buf, sizeof buf);
  size_t n = strlen(buf);
  while (n > 0 && buf[n - 1] == '\n') buf[--n] = '\0';
  lua_pushstring(L, buf);
  return lua_error(L);
}

static int status_error(lua_State *L, const char *what, goap_status st) {
  return luaL_error(L, "%s: %s", what, goap_status_string(st));
}

/* ---- file ----------------------------------------------------------------------------- */
static lfile *check_file(lua_State *L, int idx) {
  lfile *lf = (lfile *)luaL_checkudata(L, idx, FILE_MT);
  if (!lf->f) luaL_error(L, "goap: the file is closed");
  return lf;
}

static const goap_domain *domain_of(lua_State *L, int idx) {
  return goap_file_domain(check_file(L, idx)->f);
}

static int new_file(lua_State *L, goap_status st, goap_file *f, const goap_diag *err,
                    lfile *lf) {
  if (st != GOAP_OK) return push_diag_error(L, err);
  lf->f = f;
  return 1;
}

static lfile *push_file_ud(lua_State *L) {
  lfile *lf = (lfile *)lua_newuserdatauv(L, sizeof *lf, 0);
  lf->f = NULL;
  lf->agents = 0;
  luaL_setmetatable(L, FILE_MT);
  return lf;
}

/* goap.load(path) -> file */
static int l_load(lua_State *L) {
  const char *path = luaL_checkstring(L, 1);
  lfile *lf = push_file_ud(L); /* created first: no leak if this raises */
  goap_file *f = NULL;
  goap_diag err;
  goap_status st = goap_file_load(path, NULL, &f, &err);
  return new_file(L, st, f, &err, lf);
}

/* goap.parse(text [, name]) -> file */
static int l_parse(lua_State *L) {
  size_t len;
  const char *text = luaL_checklstring(L, 1, &len);
  const char *name = luaL_optstring(L, 2, "<string>");
  lfile *lf = push_file_ud(L);
  goap_file *f = NULL;
  goap_diag err;
  goap_status st = goap_file_parse(name, text, len, NULL, &f, &err);
  return new_file(L, st, f, &err, lf);
}

static int f_close(lua_State *L) {
  lfile *lf = (lfile *)luaL_checkudata(L, 1, FILE_MT);
  if (lf->f && lf->agents > 0)
    return luaL_error(L, "goap: cannot close the file: %d agent(s) made on it are still open",
                      lf->agents);
  goap_file_destroy(lf->f);
  lf->f = NULL;
  return 0;
}

static int f_gc(lua_State *L) {
  lfile *lf = (lfile *)luaL_checkudata(L, 1, FILE_MT);
  /* An agent holds its file through a uservalue, so a file is collected after its agents
   * (or in the same cycle, finalized after them). */
  if (lf->agents == 0) {
    goap_file_destroy(lf->f);
    lf->f = NULL;
  }
  return 0;
}

static int f_tostring(lua_State *L) {
  lfile *lf = (lfile *)luaL_checkudata(L, 1, FILE_MT);
  if (lf->f)
    lua_pushfstring(L, "goap.file(%s)", goap_domain_name(goap_file_domain(lf->f)));
  else
    lua_pushliteral(L, "goap.file(closed)");
  return 1;
}

typedef const char *(*name_fn)(const goap_domain *, int);
static const char *var_name(const goap_domain *d, int i) {
  goap_var_info vi;
  return goap_domain_var_info(d, i, &vi) == GOAP_OK ? vi.name : "?";
}

static int push_names(lua_State *L, const goap_domain *d, int n, name_fn fn) {
  lua_createtable(L, n, 0);
  for (int i = 0; i < n; i++) {
    lua_pushstring(L, fn(d, i));
    lua_rawseti(L, -2, i + 1);
  }
  return 1;
}

static int f_name(lua_State *L) {
  lua_pushstring(L, goap_domain_name(domain_of(L, 1)));
  return 1;
}
static int f_vars(lua_State *L) {
  const goap_domain *d = domain_of(L, 1);
  return push_names(L, d, goap_domain_var_count(d), var_name);
}
static int f_actions(lua_State *L) {
  const goap_domain *d = domain_of(L, 1);
  return push_names(L, d, goap_domain_action_count(d), goap_domain_action_name);
}
static int f_goals(lua_State *L) {
  const goap_domain *d = domain_of(L, 1);
  return push_names(L, d, goap_domain_goal_count(d), goap_domain_goal_name);
}
static int f_scenarios(lua_State *L) {
  goap_file *f = check_file(L, 1)->f;
  int n = goap_file_scenario_count(f);
  lua_createtable(L, n, 0);
  for (int i = 0; i < n; i++) {
    lua_pushstring(L, goap_file_scenario(f, i)->name);
    lua_rawseti(L, -2, i + 1);
  }
  return 1;
}
static int f_simulations(lua_State *L) {
  goap_file *f = check_file(L, 1)->f;
  int n = goap_file_simulation_count(f);
  lua_createtable(L, n, 0);
  for (int i = 0; i < n; i++) {
    lua_pushstring(L, goap_file_simulation_name(f, i));
    lua_rawseti(L, -2, i + 1);
  }
  return 1;
}

/* file:scenario(name) -> {name=, expect_cost=, expect_plan={...}} */
static int f_scenario(lua_State *L) {
  goap_file *f = check_file(L, 1)->f;
  const char *name = luaL_checkstring(L, 2);
  int i = goap_file_find_scenario(f, name);
  if (i < 0) return luaL_error(L, "goap: unknown scenario '%s'", name);
  const goap_scenario *s = goap_file_scenario(f, i);
  const goap_domain *d = goap_file_domain(f);
  lua_createtable(L, 0, 4);
  lua_pushstring(L, s->name);
  lua_setfield(L, -2, "name");
  if (s->expect & GOAP_EXPECT_COST) {
    lua_pushnumber(L, s->expect_cost);
    lua_setfield(L, -2, "expect_cost");
  }
  if (s->expect & GOAP_EXPECT_PLAN) {
    lua_createtable(L, s->expect_plan_length, 0);
    for (int k = 0; k < s->expect_plan_length; k++) {
      lua_pushstring(L, goap_domain_action_name(d, s->expect_plan[k]));
      lua_rawseti(L, -2, k + 1);
    }
    lua_setfield(L, -2, "expect_plan");
  }
  lua_pushboolean(L, (s->expect & GOAP_EXPECT_NO_PLAN) != 0);
  lua_setfield(L, -2, "expect_no_plan");
  return 1;
}

/* Parses conditions or assignments into a userdata buffer left on the stack. */
static void *parse_list(lua_State *L, const goap_domain *d, const char *text, int conds,
                        int *count) {
  int cap = 16;
  for (;;) {
    size_t item = conds ? sizeof(goap_cond) : sizeof(goap_effect);
    void *buf = lua_newuserdatauv(L, item * (size_t)cap, 0);
    goap_diag err;
    goap_status st =
        conds ? goap_parse_conds(d, "--want", text, (goap_cond *)buf, cap, count, &err)
              : goap_parse_assignments(d, "--given", text, (goap_effect *)buf, cap, count, &err);
    if (st == GOAP_OK) return buf;
    lua_pop(L, 1);
    if (st == GOAP_BUFFER_TOO_SMALL && cap < 65536) {
      cap = *count > cap ? *count : cap * 4;
      continue;
    }
    push_diag_error(L, &err);
  }
}

static const char *const search_names[] = {"astar", "backward", "wastar", "greedy", NULL};

/* file:plan{scenario= | goal= | want=, given=, search=, heuristic=, max_nodes=}
 *   -> {status=, ok=, actions={...}, cost=, expanded=, partial=} */
static int f_plan(lua_State *L) {
  goap_file *f = check_file(L, 1)->f;
  luaL_checktype(L, 2, LUA_TTABLE);
  const goap_domain *d = goap_file_domain(f);
  lua_getfield(L, 2, "scenario");
  lua_getfield(L, 2, "goal");
  lua_getfield(L, 2, "want");
  lua_getfield(L, 2, "given");
  const char *scen = luaL_optstring(L, 3, NULL), *goal = luaL_optstring(L, 4, NULL);
  const char *want = luaL_optstring(L, 5, NULL), *given = luaL_optstring(L, 6, NULL);
  if ((scen != NULL) + (goal != NULL) + (want != NULL) != 1)
    return luaL_error(L, "goap: say what to reach: scenario, goal or want");
  size_t words = goap_domain_state_words(d);
  goap_word *start = (goap_word *)lua_newuserdatauv(L, sizeof(goap_word) * (words ? words : 1), 0);
  goap_state_init(d, start);
  const goap_cond *conds = NULL;
  int count = 0;
  if (scen) {
    int i = goap_file_find_scenario(f, scen);
    if (i < 0) return luaL_error(L, "goap: unknown scenario '%s'", scen);
    const goap_scenario *s = goap_file_scenario(f, i);
    conds = s->want;
    count = s->want_count;
    if (goap_state_assign(d, start, s->given, s->given_count) != GOAP_OK)
      return luaL_error(L, "goap: scenario '%s': given out of range", scen);
  } else if (goal) {
    int g = goap_domain_find_goal(d, goal);
    if (g < 0) return luaL_error(L, "goap: unknown goal '%s'", goal);
    conds = goap_domain_goal_want(d, g, &count);
  } else {
    conds = (const goap_cond *)parse_list(L, d, want, 1, &count);
  }
  if (given) {
    int n = 0;
    const goap_effect *eff = (const goap_effect *)parse_list(L, d, given, 0, &n);
    goap_status st = goap_state_assign(d, start, eff, n);
    if (st != GOAP_OK) return status_error(L, "--given", st);
  }
  goap_request req;
  memset(&req, 0, sizeof req);
  req.start = start;
  req.want = conds;
  req.want_count = count;
  lua_getfield(L, 2, "search");
  req.search = (goap_search)luaL_checkoption(L, -1, "astar", search_names);
  lua_getfield(L, 2, "heuristic");
  const char *h = luaL_optstring(L, -1, "default");
  int hid = goap_heuristic_from_name(h);
  if (hid < 0) return luaL_error(L, "goap: unknown heuristic '%s'", h);
  req.heuristic = (goap_heuristic)hid;
  lua_getfield(L, 2, "max_nodes");
  req.max_nodes = (uint32_t)luaL_optinteger(L, -1, 0);
  lua_pop(L, 3);

  goap_planner *p = goap_planner_create(d, NULL);
  if (!p) return luaL_error(L, "goap: out of memory");
  int32_t small[64];
  goap_result res;
  memset(&res, 0, sizeof res);
  res.plan = small;
  res.plan_capacity = 64;
  goap_status st = goap_plan(p, &req, &res);
  int32_t *plan = small;
  if (res.plan_length > res.plan_capacity) {
    plan = (int32_t *)malloc(sizeof(int32_t) * (size_t)res.plan_length);
    if (plan) {
      res.plan = plan;
      res.plan_capacity = res.plan_length;
      st = goap_plan_finish(p, &res);
    }
  }
  int n = (st == GOAP_OK || res.partial) && plan ? res.plan_length : 0;
  if (n > res.plan_capacity) n = 0;
  /* Build the result without raising while the planner and buffer are held: copy ids out. */
  int32_t *ids = n ? (int32_t *)lua_newuserdatauv(L, sizeof(int32_t) * (size_t)n, 0) : NULL;
  if (n) memcpy(ids, plan, sizeof(int32_t) * (size_t)n);
  double cost = res.cost;
  lua_Integer expanded = (lua_Integer)res.stats.expanded;
  int partial = res.partial;
  if (plan != small) free(plan);
  goap_planner_destroy(p);
  if (!plan) return luaL_error(L, "goap: out of memory");
  if (st == GOAP_INVALID_ARGUMENT || st == GOAP_OUT_OF_MEMORY) return status_error(L, "plan", st);
  lua_createtable(L, 0, 6);
  lua_pushstring(L, goap_status_name(st));
  lua_setfield(L, -2, "status");
  lua_pushboolean(L, st == GOAP_OK);
  lua_setfield(L, -2, "ok");
  lua_pushnumber(L, cost);
  lua_setfield(L, -2, "cost");
  lua_pushinteger(L, expanded);
  lua_setfield(L, -2, "expanded");
  lua_pushboolean(L, partial);
  lua_setfield(L, -2, "partial");
  lua_createtable(L, n, 0);
  for (int i = 0; i < n; i++) {
    lua_pushstring(L, goap_domain_action_name(d, ids[i]));
    lua_rawseti(L, -2, i + 1);
  }
  lua_setfield(L, -2, "actions");
  return 1;
}

/* ---- events --------------------------------------------------------------------------- */
static const char *const event_kinds[] = {
    "replan", "goal", "plan", "plan_failed", "repair", "action_start", "action_success",
    "action_failure", "action_stop", "memory", "goal_done", "idle", "reservation_denied"};

static void push_event(lua_State *L, const goap_domain *d, const goap_agent_event *ev) {
  lua_createtable(L, 0, 8);
  int k = (int)ev->kind;
  lua_pushstring(L, k >= 0 && k < (int)(sizeof event_kinds / sizeof *event_kinds)
                        ? event_kinds[k] : "?");
  lua_setfield(L, -2, "kind");
  lua_pushnumber(L, ev->time);
  lua_setfield(L, -2, "time");
  if (ev->kind == GOAP_EVENT_REPLAN) {
    lua_pushstring(L, goap_replan_reason_name(ev->reason));
    lua_setfield(L, -2, "reason");
  }
  if (ev->goal >= 0) {
    lua_pushstring(L, goap_domain_goal_name(d, ev->goal));
    lua_setfield(L, -2, "goal");
  }
  if (ev->action >= 0) {
    lua_pushstring(L, goap_domain_action_name(d, ev->action));
    lua_setfield(L, -2, "action");
  }
  if (ev->kind == GOAP_EVENT_PLAN) {
    lua_createtable(L, ev->plan_length, 0);
    for (int i = 0; i < ev->plan_length; i++) {
      lua_pushstring(L, goap_domain_action_name(d, ev->plan[i]));
      lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "plan");
    lua_pushnumber(L, ev->cost);
    lua_setfield(L, -2, "cost");
  }
  if (ev->kind == GOAP_EVENT_PLAN_FAILED) {
    lua_pushstring(L, goap_status_name(ev->status));
    lua_setfield(L, -2, "status");
  }
  if (ev->kind == GOAP_EVENT_MEMORY) {
    lua_pushstring(L, var_name(d, ev->var));
    lua_setfield(L, -2, "var");
    lua_pushinteger(L, ev->old_value);
    lua_setfield(L, -2, "old_value");
    lua_pushinteger(L, ev->value);
    lua_setfield(L, -2, "value");
  }
}

/* ---- simulations ---------------------------------------------------------------------- */
typedef struct sim_ctx {
  lua_State *L;
  const goap_domain *d;
  int events;   /* stack index of the events table */
  int world;    /* stack index of the world table */
  int failed;   /* a Lua error happened in a callback (memory) */
  const goap_agent_event *ev;
  int var;
  int32_t old_value, value;
  double time;
} sim_ctx;

static int sim_event_protected(lua_State *L) {
  sim_ctx *c = (sim_ctx *)lua_touserdata(L, 1);
  push_event(L, c->d, c->ev);
  lua_rawseti(L, 2, (lua_Integer)lua_rawlen(L, 2) + 1); /* 2: the events table */
  return 0;
}

static void sim_on_event(goap_agent *agent, const goap_agent_event *ev, void *user) {
  sim_ctx *c = (sim_ctx *)user;
  (void)agent;
  c->ev = ev;
  if (!lua_checkstack(c->L, 4)) {
    c->failed = 1;
    return;
  }
  lua_pushcfunction(c->L, sim_event_protected);
  lua_pushlightuserdata(c->L, c);
  lua_pushvalue(c->L, c->events);
  if (lua_pcall(c->L, 2, 0, 0) != LUA_OK) {
    c->failed = 1;
    lua_pop(c->L, 1);
  }
}

static int sim_world_protected(lua_State *L) {
  sim_ctx *c = (sim_ctx *)lua_touserdata(L, 1);
  lua_createtable(L, 0, 4);
  lua_pushnumber(L, c->time);
  lua_setfield(L, -2, "time");
  lua_pushstring(L, var_name(c->d, c->var));
  lua_setfield(L, -2, "var");
  lua_pushinteger(L, c->old_value);
  lua_setfield(L, -2, "old_value");
  lua_pushinteger(L, c->value);
  lua_setfield(L, -2, "value");
  lua_rawseti(L, 2, (lua_Integer)lua_rawlen(L, 2) + 1); /* 2: the world table */
  return 0;
}

static void sim_on_world(int var, int32_t old_value, int32_t value, double time, void *user) {
  sim_ctx *c = (sim_ctx *)user;
  c->var = var;
  c->old_value = old_value;
  c->value = value;
  c->time = time;
  if (!lua_checkstack(c->L, 4)) {
    c->failed = 1;
    return;
  }
  lua_pushcfunction(c->L, sim_world_protected);
  lua_pushlightuserdata(c->L, c);
  lua_pushvalue(c->L, c->world);
  if (lua_pcall(c->L, 2, 0, 0) != LUA_OK) {
    c->failed = 1;
    lua_pop(c->L, 1);
  }
}

/* file:simulate(name) -> {events=, world=, replans=, failed=, expectations=, message=, time=} */
static int f_simulate(lua_State *L) {
  goap_file *f = check_file(L, 1)->f;
  const char *name = luaL_checkstring(L, 2);
  int i = goap_file_find_simulation(f, name);
  if (i < 0) return luaL_error(L, "goap: unknown simulation '%s'", name);
  lua_settop(L, 2);
  lua_newtable(L); /* 3: events */
  lua_newtable(L); /* 4: world */
  sim_ctx c;
  memset(&c, 0, sizeof c);
  c.L = L;
  c.d = goap_file_domain(f);
  c.events = 3;
  c.world = 4;
  goap_sim_options opt;
  memset(&opt, 0, sizeof opt);
  opt.on_event = sim_on_event;
  opt.event_user = &c;
  opt.on_world = sim_on_world;
  opt.world_user = &c;
  goap_sim_result res;
  goap_status st = goap_file_simulate(f, i, &opt, &res);
  if (st != GOAP_OK) return status_error(L, "simulate", st);
  if (c.failed) return luaL_error(L, "goap: out of memory while recording the simulation");
  lua_createtable(L, 0, 8);
  lua_pushvalue(L, 3);
  lua_setfield(L, -2, "events");
  lua_pushvalue(L, 4);
  lua_setfield(L, -2, "world");
  lua_pushnumber(L, res.time);
  lua_setfield(L, -2, "time");
  lua_pushinteger(L, res.replans);
  lua_setfield(L, -2, "replans");
  lua_pushinteger(L, res.expectations);
  lua_setfield(L, -2, "expectations");
  lua_pushinteger(L, res.failed);
  lua_setfield(L, -2, "failed");
  lua_pushstring(L, res.message);
  lua_setfield(L, -2, "message");
  lua_pushinteger(L, (lua_Integer)res.stats.actions_failed);
  lua_setfield(L, -2, "actions_failed");
  return 1;
}

/* ---- agents --------------------------------------------------------------------------- */
static lagent *check_agent(lua_State *L, int idx) {
  lagent *a = (lagent *)luaL_checkudata(L, idx, AGENT_MT);
  if (!a->agent) luaL_error(L, "goap: the agent is closed");
  return a;
}

static void agent_free(lagent *a) {
  goap_agent_destroy(a->agent);
  goap_agent_type_destroy(a->type);
  free(a->acts);
  free(a->goals);
  a->agent = NULL;
  a->type = NULL;
  a->acts = NULL;
  a->goals = NULL;
  if (a->file) a->file->agents--;
  a->file = NULL;
}

/* What a callback does, run inside lua_pcall. */
enum { CB_START, CB_TICK, CB_STOP, CB_EVENT };
typedef struct cb_call {
  lagent *a;
  int which;
  int action;
  double dt;
  const goap_agent_event *ev;
  int result; /* tick: goap_action_state */
} cb_call;

static int cb_protected(lua_State *L) {
  cb_call *c = (cb_call *)lua_touserdata(L, 1);
  lagent *a = c->a;
  const goap_domain *d = goap_agent_type_domain(a->type);
  const int self = 2; /* the agent userdata, passed by run_callback */
  lua_getiuservalue(L, self, 2); /* callbacks: {actions=..., on_event=...} */
  if (c->which == CB_EVENT) {
    lua_getfield(L, -1, "on_event");
    lua_pushvalue(L, self);
    push_event(L, d, c->ev);
    lua_call(L, 2, 0);
    return 0;
  }
  const char *name = goap_domain_action_name(d, c->action);
  lua_getfield(L, -1, "actions");
  lua_getfield(L, -1, name);
  if (lua_istable(L, -1))
    lua_getfield(L, -1, c->which == CB_TICK ? "tick" : c->which == CB_START ? "start" : "stop");
  if (!lua_isfunction(L, -1)) {
    c->result = GOAP_ACTION_SUCCESS;
    return 0;
  }
  lua_pushvalue(L, self);
  lua_pushstring(L, name);
  if (c->which != CB_TICK) {
    lua_call(L, 2, 0);
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
    const char *s = lua_tostring(L, -1);
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

static int run_callback(lagent *a, cb_call *c) {
  lua_State *L = a->L;
  if (!L) return GOAP_ACTION_FAILURE; /* outside update (destroy): no Lua */
  c->a = a;
  c->result = GOAP_ACTION_FAILURE;
  if (!lua_checkstack(L, 4)) return GOAP_ACTION_FAILURE;
  lua_pushcfunction(L, cb_protected);
  lua_pushlightuserdata(L, c);
  lua_pushvalue(L, a->self_index); /* update()'s frame: the agent */
  if (lua_pcall(L, 2, 0, 0) != LUA_OK) {
    if (!a->has_error) {
      a->error_ref = luaL_ref(L, LUA_REGISTRYINDEX);
      a->has_error = 1;
    } else {
      lua_pop(L, 1);
    }
    return GOAP_ACTION_FAILURE;
  }
  return c->result;
}

static void cb_start(goap_agent *agent, int action, void *user) {
  cb_call c = {NULL, CB_START, action, 0.0, NULL, 0};
  (void)agent;
  run_callback((lagent *)user, &c);
}
static goap_action_state cb_tick(goap_agent *agent, int action, double dt, void *user) {
  cb_call c = {NULL, CB_TICK, action, dt, NULL, 0};
  (void)agent;
  return (goap_action_state)run_callback((lagent *)user, &c);
}
static void cb_stop(goap_agent *agent, int action, void *user) {
  cb_call c = {NULL, CB_STOP, action, 0.0, NULL, 0};
  (void)agent;
  run_callback((lagent *)user, &c);
}
static void cb_event(goap_agent *agent, const goap_agent_event *ev, void *user) {
  cb_call c = {NULL, CB_EVENT, -1, 0.0, ev, 0};
  (void)agent;
  run_callback((lagent *)user, &c);
}

/* file:agent{actions = {name = function(agent, action, dt) ... end | {tick=, start=, stop=}},
 *            on_event = function(agent, event) end, name = "soldier", memory = "door_stuck"} */
static int f_agent(lua_State *L) {
  lfile *lf = check_file(L, 1);
  const goap_domain *d = goap_file_domain(lf->f);
  if (lua_isnoneornil(L, 2)) {
    lua_settop(L, 1);
    lua_newtable(L);
  }
  luaL_checktype(L, 2, LUA_TTABLE);
  lua_settop(L, 2);
  lua_getfield(L, 2, "actions"); /* 3 */
  if (!lua_isnil(L, 3)) luaL_checktype(L, 3, LUA_TTABLE);
  lua_getfield(L, 2, "on_event"); /* 4 */
  if (!lua_isnil(L, 4)) luaL_checktype(L, 4, LUA_TFUNCTION);
  lua_getfield(L, 2, "name"); /* 5 */
  const char *tname = luaL_optstring(L, 5, "agent");
  lua_getfield(L, 2, "memory"); /* 6 */
  const char *memory = luaL_optstring(L, 6, NULL);
  /* every key of actions must name an action */
  if (!lua_isnil(L, 3)) {
    lua_pushnil(L);
    while (lua_next(L, 3)) {
      lua_pop(L, 1);
      if (lua_type(L, -1) != LUA_TSTRING || goap_domain_find_action(d, lua_tostring(L, -1)) < 0)
        return luaL_error(L, "goap: unknown action '%s'", luaL_tolstring(L, -1, NULL));
    }
  }
  int words = (int)goap_domain_state_words(d);
  goap_word *mem = NULL;
  if (memory) {
    mem = (goap_word *)lua_newuserdatauv(L, sizeof(goap_word) * (size_t)(words ? words : 1), 0);
    goap_state_init(d, mem);
    int n = 0;
    const goap_effect *eff = (const goap_effect *)parse_list(L, d, memory, 0, &n);
    goap_status st = goap_state_assign(d, mem, eff, n);
    if (st != GOAP_OK) return status_error(L, "memory", st);
  }

  lagent *a = (lagent *)lua_newuserdatauv(L, sizeof *a, 2);
  memset(a, 0, sizeof *a);
  luaL_setmetatable(L, AGENT_MT);
  int self = lua_gettop(L);
  lua_pushvalue(L, 1);
  lua_setiuservalue(L, self, 1); /* keeps the file alive */
  lua_createtable(L, 0, 2);
  lua_pushvalue(L, 3);
  lua_setfield(L, -2, "actions");
  lua_pushvalue(L, 4);
  lua_setfield(L, -2, "on_event");
  lua_setiuservalue(L, self, 2);

  int na = goap_domain_action_count(d), ng = goap_domain_goal_count(d);
  a->acts = (goap_action_binding *)calloc((size_t)(na ? na : 1), sizeof *a->acts);
  a->goals = (goap_goal_binding *)calloc((size_t)(ng ? ng : 1), sizeof *a->goals);
  a->file = lf;
  lf->agents++;
  if (!a->acts || !a->goals) {
    agent_free(a);
    return luaL_error(L, "goap: out of memory");
  }
  goap_status st = goap_file_bindings(lf->f, a->acts, na, a->goals, ng);
  if (st != GOAP_OK) {
    agent_free(a);
    return status_error(L, "bindings", st);
  }
  for (int i = 0; i < na; i++) {
    a->acts[i].user = a;
    if (lua_isnil(L, 3)) continue;
    lua_getfield(L, 3, goap_domain_action_name(d, i));
    if (lua_isfunction(L, -1)) {
      a->acts[i].tick = cb_tick;
    } else if (lua_istable(L, -1)) {
      a->acts[i].tick = cb_tick;
      a->acts[i].start = cb_start;
      a->acts[i].stop = cb_stop;
    } else if (!lua_isnil(L, -1)) {
      agent_free(a);
      return luaL_error(L, "goap: action %s: expected a function or a table of tick/start/stop",
                        goap_domain_action_name(d, i));
    }
    lua_pop(L, 1);
  }
  goap_agent_type_desc td;
  memset(&td, 0, sizeof td);
  td.name = tname;
  td.actions = a->acts;
  td.action_count = na;
  td.goals = a->goals;
  td.goal_count = ng;
  const char *msg = NULL;
  st = goap_agent_type_create(d, &td, &a->type, &msg);
  if (st != GOAP_OK) {
    agent_free(a);
    return luaL_error(L, "goap: agent type: %s", msg ? msg : goap_status_string(st));
  }
  goap_agent_desc ad;
  memset(&ad, 0, sizeof ad);
  ad.type = a->type;
  ad.memory = mem;
  if (!lua_isnil(L, 4)) {
    ad.on_event = cb_event;
    ad.event_user = a;
  }
  a->agent = goap_agent_create(&ad);
  if (!a->agent) {
    agent_free(a);
    return luaL_error(L, "goap: out of memory");
  }
  lua_pushvalue(L, self);
  return 1;
}

/* agent:update(dt) -> status name; raises the first error a callback raised */
static int a_update(lua_State *L) {
  lagent *a = check_agent(L, 1);
  double dt = luaL_checknumber(L, 2);
  if (a->updating) return luaL_error(L, "goap: agent:update called from one of its callbacks");
  a->updating = 1;
  a->L = L;
  a->self_index = 1;
  goap_status st = goap_agent_update(a->agent, dt);
  a->L = NULL;
  a->updating = 0;
  if (a->has_error) {
    a->has_error = 0;
    lua_rawgeti(L, LUA_REGISTRYINDEX, a->error_ref);
    luaL_unref(L, LUA_REGISTRYINDEX, a->error_ref);
    return lua_error(L);
  }
  if (st == GOAP_INVALID_ARGUMENT || st == GOAP_OUT_OF_MEMORY) return status_error(L, "update", st);
  lua_pushstring(L, goap_status_name(st));
  return 1;
}

static int var_arg(lua_State *L, lagent *a, int idx) {
  const goap_domain *d = goap_agent_type_domain(a->type);
  if (lua_type(L, idx) == LUA_TNUMBER) return (int)luaL_checkinteger(L, idx);
  const char *name = luaL_checkstring(L, idx);
  int v = goap_domain_find_var(d, name);
  if (v < 0) luaL_error(L, "goap: unknown variable '%s'", name);
  return v;
}

static int a_get(lua_State *L) {
  lagent *a = check_agent(L, 1);
  int v = var_arg(L, a, 2);
  int32_t x = goap_agent_get(a->agent, v);
  if (x == INT32_MIN) return luaL_error(L, "goap: no variable %d", v);
  lua_pushinteger(L, x);
  return 1;
}

static int a_set(lua_State *L) {
  lagent *a = check_agent(L, 1);
  int v = var_arg(L, a, 2);
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
  else lua_pushstring(L, goap_domain_goal_name(goap_agent_type_domain(a->type), g));
  return 1;
}

static int a_action(lua_State *L) {
  lagent *a = check_agent(L, 1);
  int x = goap_agent_action(a->agent);
  if (x < 0) lua_pushnil(L);
  else lua_pushstring(L, goap_domain_action_name(goap_agent_type_domain(a->type), x));
  return 1;
}

/* agent:plan() -> {names...}, step */
static int a_plan(lua_State *L) {
  lagent *a = check_agent(L, 1);
  int n = 0, step = 0;
  const int32_t *p = goap_agent_plan(a->agent, &n, &step);
  const goap_domain *d = goap_agent_type_domain(a->type);
  lua_createtable(L, p ? n : 0, 0);
  for (int i = 0; p && i < n; i++) {
    lua_pushstring(L, goap_domain_action_name(d, p[i]));
    lua_rawseti(L, -2, i + 1);
  }
  lua_pushinteger(L, step);
  return 2;
}

static int a_stats(lua_State *L) {
  lagent *a = check_agent(L, 1);
  goap_agent_stats s = goap_agent_get_stats(a->agent);
  lua_createtable(L, 0, 8);
  lua_pushinteger(L, (lua_Integer)s.plans);
  lua_setfield(L, -2, "plans");
  lua_pushinteger(L, (lua_Integer)s.updates);
  lua_setfield(L, -2, "updates");
  lua_pushinteger(L, (lua_Integer)s.actions_failed);
  lua_setfield(L, -2, "actions_failed");
  lua_pushinteger(L, (lua_Integer)s.actions_succeeded);
  lua_setfield(L, -2, "actions_succeeded");
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

static int a_replan(lua_State *L) {
  goap_agent_replan(check_agent(L, 1)->agent);
  return 0;
}

static int a_close(lua_State *L) {
  lagent *a = (lagent *)luaL_checkudata(L, 1, AGENT_MT);
  if (a->updating) return luaL_error(L, "goap: agent closed from one of its callbacks");
  if (a->has_error) {
    luaL_unref(L, LUA_REGISTRYINDEX, a->error_ref);
    a->has_error = 0;
  }
  agent_free(a);
  return 0;
}

static int a_gc(lua_State *L) {
  lagent *a = (lagent *)luaL_checkudata(L, 1, AGENT_MT);
  a->L = NULL; /* no Lua from a finalizer */
  agent_free(a);
  return 0;
}

static int a_tostring(lua_State *L) {
  lagent *a = (lagent *)luaL_checkudata(L, 1, AGENT_MT);
  if (a->agent) lua_pushfstring(L, "goap.agent(%s)", goap_agent_type_name(a->type));
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
  const goap_domain *d = goap_agent_type_domain(a->type);
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
  const goap_domain *d = goap_agent_type_domain(a->type);
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
  const goap_domain *d = goap_agent_type_domain(a->type);
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
  const goap_domain *d = goap_agent_type_domain(a->type);
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
  size_t n = 0;
  goap_agent_snapshot(a->agent, NULL, 0, &n);
  luaL_Buffer b;
  char *p = luaL_buffinitsize(L, &b, n);
  goap_status st = goap_agent_snapshot(a->agent, p, n, &n);
  if (st != GOAP_OK) return status_error(L, "snapshot", st);
  luaL_pushresultsize(&b, n);
  return 1;
}

/* agent:restore(s): into an agent never updated; a refusal raises
 * "goap: restore: STATUS: message" (truncated, version_mismatch, corrupt, domain_mismatch,
 * invalid_operation). */
static int a_restore(lua_State *L) {
  lagent *a = check_agent(L, 1);
  size_t n = 0;
  const char *data = luaL_checklstring(L, 2, &n);
  const char *why = "";
  goap_status st = goap_agent_restore(a->agent, data, n, &why);
  if (st != GOAP_OK)
    return luaL_error(L, "goap: restore: %s: %s", goap_status_name(st), why);
  return 0;
}

/* agent:snapshot_json() -> the JSON text of goap_agent_snapshot_json */
static int a_snapshot_json(lua_State *L) {
  lagent *a = check_agent(L, 1);
  size_t n = 0;
  goap_agent_snapshot_json(a->agent, NULL, 0, &n);
  luaL_Buffer b;
  char *p = luaL_buffinitsize(L, &b, n + 1);
  goap_status st = goap_agent_snapshot_json(a->agent, p, n + 1, &n);
  if (st != GOAP_OK) return status_error(L, "snapshot_json", st);
  luaL_pushresultsize(&b, n);
  return 1;
}

static int l_version(lua_State *L) {
  lua_pushstring(L, goap_version());
  return 1;
}

static const luaL_Reg file_methods[] = {
    {"close", f_close},         {"name", f_name},         {"vars", f_vars},
    {"actions", f_actions},     {"goals", f_goals},       {"scenarios", f_scenarios},
    {"scenario", f_scenario},   {"simulations", f_simulations},
    {"plan", f_plan},           {"simulate", f_simulate}, {"agent", f_agent},
    {NULL, NULL}};

static const luaL_Reg agent_methods[] = {
    {"update", a_update}, {"get", a_get},     {"set", a_set},     {"goal", a_goal},
    {"action", a_action}, {"plan", a_plan},   {"stats", a_stats}, {"time", a_time},
    {"replan", a_replan}, {"close", a_close},
    {"inspect_goals", a_inspect_goals}, {"inspect_plan", a_inspect_plan},
    {"inspect_replans", a_inspect_replans}, {"inspect_failures", a_inspect_failures},
    {"snapshot", a_snapshot}, {"restore", a_restore}, {"snapshot_json", a_snapshot_json},
    {NULL, NULL}};

static void new_class(lua_State *L, const char *name, const luaL_Reg *methods,
                      lua_CFunction gc, lua_CFunction close, lua_CFunction tostring) {
  luaL_newmetatable(L, name);
  lua_newtable(L);
  luaL_setfuncs(L, methods, 0);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, gc);
  lua_setfield(L, -2, "__gc");
  lua_pushcfunction(L, close);
  lua_setfield(L, -2, "__close");
  lua_pushcfunction(L, tostring);
  lua_setfield(L, -2, "__tostring");
  lua_pop(L, 1);
}

int luaopen_goap(lua_State *L);
int luaopen_goap(lua_State *L) {
  static const luaL_Reg funcs[] = {
      {"load", l_load}, {"parse", l_parse}, {"version", l_version}, {NULL, NULL}};
  new_class(L, FILE_MT, file_methods, f_gc, f_close, f_tostring);
  new_class(L, AGENT_MT, agent_methods, a_gc, a_close, a_tostring);
  luaL_newlib(L, funcs);
  return 1;
}
