/*
 * goap_lua.c -- libgoap for Lua 5.4: `local goap = require("goap")`. The module, files,
 * plans (one-shot file:plan and prepared queries) and simulations; agents are in
 * goap_lua_agent.c, blackboards, caches, planners, squads and worlds in goap_lua_runtime.c
 * (goap_lua.h: the lifetimes).
 *
 * Invariants:
 *  - Every userdata has __gc and __close; close() may be called early, and any use after it
 *    raises a Lua error (never a crash). libgoap's errors are raised as goap.error tables, the
 *    C goap_error's shape ({status, message, file, line, col, offset, text}); tostring gives
 *    `text`, the CLI's text (`file:line:col: error: message`, the source line and a caret).
 *  - No Lua error ever unwinds through libgoap's frames: a callback from C (simulation events
 *    and world changes here) runs its Lua work inside lua_pcall.
 *  - A file's planner (file:plan, query:plan) is created on first use and freed with the file;
 *    planning calls no Lua, so it is never used reentrantly. A warm query:plan allocates
 *    nothing, neither in C nor in Lua.
 *  - No global state: everything hangs off the userdata and the registry.
 */
#include "goap_lua.h"

#include <goap/inspect.h>
#include <goap/save.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- errors --------------------------------------------------------------------------- */
static int e_tostring(lua_State *L) {
  if (lua_getfield(L, 1, "text") != LUA_TSTRING) lua_pushliteral(L, "goap error");
  return 1;
}

/* Raises a goap.error table; text is what tostring gives. */
static int raise_error(lua_State *L, goap_status st, const char *message, const char *file,
                       int line, int col, size_t offset, const char *text) {
  lua_createtable(L, 0, 7);
  goap__lua_push_status(L, st);
  lua_setfield(L, -2, "status");
  lua_pushstring(L, message);
  lua_setfield(L, -2, "message");
  lua_pushstring(L, file);
  lua_setfield(L, -2, "file");
  lua_pushinteger(L, line);
  lua_setfield(L, -2, "line");
  lua_pushinteger(L, col);
  lua_setfield(L, -2, "col");
  lua_pushinteger(L, (lua_Integer)offset);
  lua_setfield(L, -2, "offset");
  lua_pushstring(L, text);
  lua_setfield(L, -2, "text");
  luaL_setmetatable(L, ERROR_MT);
  return lua_error(L);
}

int goap__lua_error(lua_State *L, const goap_error *e) {
  char buf[2048];
  goap_error_format(e, buf, sizeof buf);
  size_t n = strlen(buf);
  while (n > 0 && buf[n - 1] == '\n') buf[--n] = '\0';
  return raise_error(L, e->status, e->message, e->file, e->line, e->col, e->offset, buf);
}
#define push_error goap__lua_error

int goap__lua_raise(lua_State *L, goap_status st, const char *message) {
  return raise_error(L, st, message, "", 0, 0, 0, message);
}

int goap__lua_status_error(lua_State *L, const char *what, goap_status st) {
  return goap__lua_raise(L, st, lua_pushfstring(L, "goap: %s: %s", what, goap_status_string(st)));
}
#define status_error goap__lua_status_error

/* ---- options tables ------------------------------------------------------------------- */
const char *goap__lua_field_str(lua_State *L, int t, const char *k, const char *def) {
  int ty = lua_getfield(L, t, k);
  if (ty == LUA_TNIL) return def;
  if (ty != LUA_TSTRING)
    luaL_error(L, "goap: %s: expected a string, got %s", k, luaL_typename(L, -1));
  return lua_tostring(L, -1);
}
double goap__lua_field_num(lua_State *L, int t, const char *k, double def) {
  int ty = lua_getfield(L, t, k);
  if (ty == LUA_TNIL) return def;
  if (ty != LUA_TNUMBER)
    luaL_error(L, "goap: %s: expected a number, got %s", k, luaL_typename(L, -1));
  return lua_tonumber(L, -1);
}
lua_Integer goap__lua_field_int(lua_State *L, int t, const char *k, lua_Integer lo, lua_Integer hi) {
  int ty = lua_getfield(L, t, k);
  if (ty == LUA_TNIL) return 0;
  int ok = 0;
  lua_Integer x = lua_tointegerx(L, -1, &ok);
  if (!ok) luaL_error(L, "goap: %s: expected an integer, got %s", k, luaL_typename(L, -1));
  if (x < lo || x > hi) luaL_error(L, "goap: %s: %I is out of range (%I..%I)", k, x, lo, hi);
  return x;
}

/* The registry's table of status names: its key is this object's address. */
static const char status_key = 's';

void goap__lua_push_status(lua_State *L, goap_status st) {
  lua_rawgetp(L, LUA_REGISTRYINDEX, &status_key);
  lua_rawgeti(L, -1, (lua_Integer)st + 1);
  lua_remove(L, -2);
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    lua_pushstring(L, goap_status_name(st));
  }
}

/* ---- file ----------------------------------------------------------------------------- */
lfile *goap__lua_check_file(lua_State *L, int idx) {
  lfile *lf = (lfile *)luaL_checkudata(L, idx, FILE_MT);
  if (!lf->f) luaL_error(L, "goap: the file is closed");
  return lf;
}
#define check_file goap__lua_check_file

static const goap_domain *domain_of(lua_State *L, int idx) {
  return goap_file_domain(check_file(L, idx)->f);
}

static int new_file(lua_State *L, goap_status st, goap_file *f, const goap_error *err,
                    lfile *lf) {
  if (st != GOAP_OK) return push_error(L, err);
  lf->f = f;
  return 1;
}

/* Counts what the file and everything made from it allocate (file:allocations()): the
 * userdata outlives every native object using it (they are destroyed by its __gc at the
 * latest, and by their own finalizers before it). */
static void *count_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size) {
  lfile *lf = (lfile *)ctx;
  void *p = goap_libc_realloc(NULL, ptr, old_size, new_size);
  if (new_size == 0) {
    lf->live -= (int64_t)old_size;
  } else if (p) {
    if (new_size > old_size) lf->allocs++;
    lf->live += (int64_t)new_size - (int64_t)old_size;
  }
  return p;
}

goap_allocator goap__lua_file_allocator(lfile *lf) {
  goap_allocator a;
  a.fn = count_realloc;
  a.ctx = lf;
  return a;
}

static lfile *push_file_ud(lua_State *L) {
  lfile *lf = (lfile *)lua_newuserdatauv(L, sizeof *lf, 0);
  memset(lf, 0, sizeof *lf);
  luaL_setmetatable(L, FILE_MT);
  return lf;
}

/* goap.load(path) -> file */
static int l_load(lua_State *L) {
  const char *path = luaL_checkstring(L, 1);
  lfile *lf = push_file_ud(L); /* created first: no leak if this raises */
  goap_file *f = NULL;
  goap_error err;
  goap_allocator al = goap__lua_file_allocator(lf);
  goap_status st = goap_file_load(path, &al, &f, &err);
  return new_file(L, st, f, &err, lf);
}

/* goap.parse(text [, name]) -> file */
static int l_parse(lua_State *L) {
  size_t len;
  const char *text = luaL_checklstring(L, 1, &len);
  const char *name = luaL_optstring(L, 2, "<string>");
  lfile *lf = push_file_ud(L);
  goap_file *f = NULL;
  goap_error err;
  goap_allocator al = goap__lua_file_allocator(lf);
  goap_status st = goap_file_parse(name, text, len, &al, &f, &err);
  return new_file(L, st, f, &err, lf);
}

static void file_free(lfile *lf) {
  goap_planner_destroy(lf->planner);
  goap_file_destroy(lf->f);
  lf->planner = NULL;
  lf->f = NULL;
}

static int f_close(lua_State *L) {
  lfile *lf = (lfile *)luaL_checkudata(L, 1, FILE_MT);
  if (lf->f && lf->refs > 0)
    return luaL_error(L, "goap: cannot close the file: %d agent type(s), agent(s) or planner(s) "
                      "made on it are still open", lf->refs);
  file_free(lf);
  return 0;
}

static int f_gc(lua_State *L) {
  lfile *lf = (lfile *)luaL_checkudata(L, 1, FILE_MT);
  /* Its children hold the file through uservalues, so a file is collected after them (or in
   * the same cycle, finalized after them: they were created later). */
  if (lf->refs == 0) file_free(lf);
  return 0;
}

/* file:allocations() -> how many times the file and what was made from it (its planner,
 * agent types, agents, planners) allocated or grew a block, and the bytes they hold now */
static int f_allocations(lua_State *L) {
  lfile *lf = (lfile *)luaL_checkudata(L, 1, FILE_MT);
  lua_pushinteger(L, (lua_Integer)lf->allocs);
  lua_pushinteger(L, (lua_Integer)lf->live);
  return 2;
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
const char *goap__lua_var_name(const goap_domain *d, int i) {
  goap_var_info vi;
  return goap_domain_var_info(d, i, &vi) == GOAP_OK ? vi.name : "?";
}

#define var_name goap__lua_var_name

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
void *goap__lua_parse_list(lua_State *L, const goap_domain *d, const char *text, int conds,
                        int *count) {
  int cap = 16;
  for (;;) {
    size_t item = conds ? sizeof(goap_cond) : sizeof(goap_effect);
    void *buf = lua_newuserdatauv(L, item * (size_t)cap, 0);
    goap_error err;
    goap_status st =
        conds ? goap_parse_conds(d, "--want", text, (goap_cond *)buf, cap, count, &err)
              : goap_parse_assignments(d, "--given", text, (goap_effect *)buf, cap, count, &err);
    if (st == GOAP_OK) return buf;
    lua_pop(L, 1);
    if (st == GOAP_BUFFER_TOO_SMALL && cap < 65536) {
      cap = *count > cap ? *count : cap * 4;
      continue;
    }
    push_error(L, &err);
  }
}

#define parse_list goap__lua_parse_list

static const char *const search_names[] = {"astar", "backward", "wastar", "greedy", NULL};

/* A prepared request (goap.query): the start state, the conditions to reach and the search
 * options, in one userdata (no native memory of its own). It keeps its file alive (uservalue
 * 1) and plans on the file's planner. */
typedef struct lquery {
  lfile *file;
  goap_request req;
  int words;
  goap_word *start; /* what query:plan starts from (set / get / reset / from_agent) */
  goap_word *given; /* the start as built, for reset */
  goap_cond *conds;
} lquery;

/* Builds a query from the table at index 2 ({scenario= | goal= | want=, given=, search=,
 * heuristic=, max_nodes=}) and leaves it on the top of the stack. */
static lquery *build_query(lua_State *L, lfile *lf) {
  goap_file *f = lf->f;
  luaL_checktype(L, 2, LUA_TTABLE);
  const goap_domain *d = goap_file_domain(f);
  const char *scen = goap__lua_field_str(L, 2, "scenario", NULL);
  const char *goal = goap__lua_field_str(L, 2, "goal", NULL);
  const char *want = goap__lua_field_str(L, 2, "want", NULL);
  const char *given = goap__lua_field_str(L, 2, "given", NULL);
  if ((scen != NULL) + (goal != NULL) + (want != NULL) != 1)
    luaL_error(L, "goap: say what to reach: scenario, goal or want");
  const goap_cond *conds = NULL;
  const goap_effect *pre = NULL, *eff = NULL;
  int count = 0, npre = 0, n = 0;
  if (scen) {
    int i = goap_file_find_scenario(f, scen);
    if (i < 0) luaL_error(L, "goap: unknown scenario '%s'", scen);
    const goap_scenario *s = goap_file_scenario(f, i);
    conds = s->want;
    count = s->want_count;
    pre = s->given;
    npre = s->given_count;
  } else if (goal) {
    int g = goap_domain_find_goal(d, goal);
    if (g < 0) luaL_error(L, "goap: unknown goal '%s'", goal);
    conds = goap_domain_goal_want(d, g, &count);
  } else {
    conds = (const goap_cond *)parse_list(L, d, want, 1, &count);
  }
  if (given) eff = (const goap_effect *)parse_list(L, d, given, 0, &n);
  int words = (int)goap_domain_state_words(d);
  size_t size = sizeof(lquery) + 2 * sizeof(goap_word) * (size_t)words +
                sizeof(goap_cond) * (size_t)(count ? count : 1);
  lquery *q = (lquery *)lua_newuserdatauv(L, size, 1);
  memset(q, 0, size);
  q->file = lf;
  q->words = words;
  q->start = (goap_word *)(void *)(q + 1);
  q->given = q->start + words;
  q->conds = (goap_cond *)(void *)(q->given + words);
  if (count) memcpy(q->conds, conds, sizeof(goap_cond) * (size_t)count);
  goap_state_init(d, q->given);
  if (npre && goap_state_assign(d, q->given, pre, npre) != GOAP_OK)
    luaL_error(L, "goap: scenario '%s': given out of range", scen);
  if (n) {
    goap_status st = goap_state_assign(d, q->given, eff, n);
    if (st != GOAP_OK) status_error(L, "--given", st);
  }
  memcpy(q->start, q->given, sizeof(goap_word) * (size_t)words);
  q->req.start = q->start;
  q->req.want = q->conds;
  q->req.want_count = count;
  int qi = lua_gettop(L);
  const char *search = goap__lua_field_str(L, 2, "search", "astar");
  int si = -1;
  for (int i = 0; search_names[i]; i++)
    if (strcmp(search, search_names[i]) == 0) si = i;
  if (si < 0) luaL_error(L, "goap: unknown search '%s' (astar, backward, wastar, greedy)", search);
  q->req.search = (goap_search)si;
  const char *h = goap__lua_field_str(L, 2, "heuristic", "default");
  int hid = goap_heuristic_from_name(h);
  if (hid < 0) luaL_error(L, "goap: unknown heuristic '%s'", h);
  q->req.heuristic = (goap_heuristic)hid;
  q->req.max_nodes = (uint32_t)goap__lua_field_int(L, 2, "max_nodes", 0, UINT32_MAX);
  lua_settop(L, qi);
  lua_pushvalue(L, 1);
  lua_setiuservalue(L, -2, 1); /* keeps the file alive */
  luaL_setmetatable(L, QUERY_MT);
  return q;
}

/* Runs a query on the file's planner. The plan goes to buf (cap ids) or, when longer, to a
 * heap block *heap the caller frees. Raises (with nothing held) on a bad request. */
typedef struct plan_out {
  goap_status status;
  int32_t *ids;
  int n;
  double cost;
  uint64_t expanded;
  int partial;
  int32_t *heap;
} plan_out;

static void run_query(lua_State *L, lquery *q, int32_t *buf, int cap, plan_out *o) {
  lfile *lf = q->file;
  if (!lf->f) luaL_error(L, "goap: the file is closed");
  if (!lf->planner) {
    goap_planner_desc pd;
    memset(&pd, 0, sizeof pd);
    pd.allocator = goap__lua_file_allocator(lf);
    goap_status st = goap_planner_create(goap_file_domain(lf->f), &pd, &lf->planner);
    if (st != GOAP_OK) status_error(L, "planner", st);
  }
  goap_result res;
  memset(&res, 0, sizeof res);
  res.plan = buf;
  res.plan_capacity = cap;
  goap_status st = goap_plan(lf->planner, &q->req, &res);
  memset(o, 0, sizeof *o);
  o->ids = buf;
  if (res.plan_length > res.plan_capacity) {
    o->heap = (int32_t *)malloc(sizeof(int32_t) * (size_t)res.plan_length);
    if (!o->heap) luaL_error(L, "goap: out of memory");
    res.plan = o->heap;
    res.plan_capacity = res.plan_length;
    st = goap_plan_finish(lf->planner, &res);
    o->ids = o->heap;
  }
  o->status = st;
  o->n = (st == GOAP_OK || res.partial) && res.plan_length <= res.plan_capacity
             ? res.plan_length : 0;
  o->cost = res.cost;
  o->expanded = res.stats.expanded;
  o->partial = res.partial;
  if (st == GOAP_INVALID_ARGUMENT || st == GOAP_OUT_OF_MEMORY) {
    free(o->heap);
    status_error(L, "plan", st);
  }
}

/* file:plan{scenario= | goal= | want=, given=, search=, heuristic=, max_nodes=}
 *   -> {status=, ok=, actions={...}, cost=, expanded=, partial=}. Plans on the file's planner
 * (made on the first call). */
static int f_plan(lua_State *L) {
  lfile *lf = check_file(L, 1);
  lquery *q = build_query(L, lf);
  const goap_domain *d = goap_file_domain(lf->f);
  int32_t small[128];
  plan_out o;
  run_query(L, q, small, 128, &o);
  /* copy the ids into Lua memory before anything may raise, so the heap block is freed */
  int32_t *ids = o.n ? (int32_t *)lua_newuserdatauv(L, sizeof(int32_t) * (size_t)o.n, 0) : NULL;
  if (o.n) memcpy(ids, o.ids, sizeof(int32_t) * (size_t)o.n);
  free(o.heap);
  lua_createtable(L, 0, 6);
  lua_pushstring(L, goap_status_name(o.status));
  lua_setfield(L, -2, "status");
  lua_pushboolean(L, o.status == GOAP_OK);
  lua_setfield(L, -2, "ok");
  lua_pushnumber(L, o.cost);
  lua_setfield(L, -2, "cost");
  lua_pushinteger(L, (lua_Integer)o.expanded);
  lua_setfield(L, -2, "expanded");
  lua_pushboolean(L, o.partial);
  lua_setfield(L, -2, "partial");
  lua_createtable(L, o.n, 0);
  for (int i = 0; i < o.n; i++) {
    lua_pushstring(L, goap_domain_action_name(d, ids[i]));
    lua_rawseti(L, -2, i + 1);
  }
  lua_setfield(L, -2, "actions");
  return 1;
}

/* file:query{...} (file:plan's table) -> a prepared request, planned by query:plan(out) */
static int f_query(lua_State *L) {
  build_query(L, check_file(L, 1));
  return 1;
}

static lquery *check_query(lua_State *L) {
  lquery *q = (lquery *)luaL_checkudata(L, 1, QUERY_MT);
  if (!q->file->f) luaL_error(L, "goap: the file is closed");
  return q;
}

/* query:plan([out]) -> status name, length, cost, expanded. out (a table) receives the
 * plan's action ids (from 0) in out[1..length], and nil after them up to its old length.
 * Allocates nothing once the planner is warm and out is large enough. */
static int q_plan(lua_State *L) {
  lquery *q = check_query(L);
  int has_out = !lua_isnoneornil(L, 2);
  if (has_out) luaL_checktype(L, 2, LUA_TTABLE);
  int32_t small[128];
  plan_out o;
  run_query(L, q, small, 128, &o);
  if (has_out) {
    lua_Integer old = (lua_Integer)lua_rawlen(L, 2);
    for (int i = 0; i < o.n; i++) {
      lua_pushinteger(L, o.ids[i]);
      lua_rawseti(L, 2, i + 1);
    }
    for (lua_Integer i = o.n + 1; i <= old; i++) {
      lua_pushnil(L);
      lua_rawseti(L, 2, i);
    }
  }
  free(o.heap);
  goap__lua_push_status(L, o.status);
  lua_pushinteger(L, o.n);
  lua_pushnumber(L, o.cost);
  lua_pushinteger(L, (lua_Integer)o.expanded);
  return 4;
}

/* query:set(var, value) / query:get(var) on the start state; var: a name or an id */
static int q_set(lua_State *L) {
  lquery *q = check_query(L);
  const goap_domain *d = goap_file_domain(q->file->f);
  int v = goap__lua_id(L, 2, d, GOAP__LUA_VAR);
  lua_Integer x = lua_isboolean(L, 3) ? lua_toboolean(L, 3) : luaL_checkinteger(L, 3);
  if (x < INT32_MIN || x > INT32_MAX) return status_error(L, "set", GOAP_OUT_OF_RANGE);
  goap_status st = goap_state_set(d, q->start, v, (int32_t)x);
  if (st != GOAP_OK) return status_error(L, "set", st);
  return 0;
}
static int q_get(lua_State *L) {
  lquery *q = check_query(L);
  const goap_domain *d = goap_file_domain(q->file->f);
  int v = goap__lua_id(L, 2, d, GOAP__LUA_VAR);
  lua_pushinteger(L, goap_state_get(d, q->start, v));
  return 1;
}
/* query:reset(): the start state as the query was built */
static int q_reset(lua_State *L) {
  lquery *q = check_query(L);
  memcpy(q->start, q->given, sizeof(goap_word) * (size_t)q->words);
  return 0;
}
/* query:from_agent(agent): the start state becomes the agent's memory (same domain) */
static int q_from_agent(lua_State *L) {
  lquery *q = check_query(L);
  lagent *a = goap__lua_check_agent(L, 2);
  if (goap_agent_type_domain(a->type->type) != goap_file_domain(q->file->f))
    return luaL_error(L, "goap: the agent is not of this query's file");
  memcpy(q->start, goap_agent_memory(a->agent), sizeof(goap_word) * (size_t)q->words);
  return 0;
}
static int q_noop(lua_State *L) {
  (void)L;
  return 0;
}
static int q_tostring(lua_State *L) {
  luaL_checkudata(L, 1, QUERY_MT);
  lua_pushliteral(L, "goap.query");
  return 1;
}

/* Ids: the C library's ids (from 0) of variables, actions and goals. An integer argument is
 * checked against the domain; a string is looked up (an error when unknown). */
int goap__lua_id(lua_State *L, int idx, const goap_domain *d, int kind) {
  static const char *const what[] = {"variable", "action", "goal"};
  int n = kind == GOAP__LUA_VAR ? goap_domain_var_count(d)
          : kind == GOAP__LUA_ACTION ? goap_domain_action_count(d) : goap_domain_goal_count(d);
  if (lua_type(L, idx) == LUA_TNUMBER) {
    lua_Integer i = luaL_checkinteger(L, idx);
    if (n == 0) luaL_error(L, "goap: no %s %I (the domain has none)", what[kind], i);
    if (i < 0 || i >= n) luaL_error(L, "goap: no %s %I (ids are 0..%d)", what[kind], i, n - 1);
    return (int)i;
  }
  const char *name = luaL_checkstring(L, idx);
  int i = kind == GOAP__LUA_VAR ? goap_domain_find_var(d, name)
          : kind == GOAP__LUA_ACTION ? goap_domain_find_action(d, name)
          : goap_domain_find_goal(d, name);
  if (i < 0) luaL_error(L, "goap: unknown %s '%s'", what[kind], name);
  return i;
}

/* file:var_id(name), action_id, goal_id -> id; file:var_name(id), action_name, goal_name */
static int push_id(lua_State *L, int kind) {
  lua_pushinteger(L, goap__lua_id(L, 2, goap_file_domain(check_file(L, 1)->f), kind));
  return 1;
}
static int f_var_id(lua_State *L) { return push_id(L, GOAP__LUA_VAR); }
static int f_action_id(lua_State *L) { return push_id(L, GOAP__LUA_ACTION); }
static int f_goal_id(lua_State *L) { return push_id(L, GOAP__LUA_GOAL); }
static int push_name(lua_State *L, int kind) {
  const goap_domain *d = goap_file_domain(check_file(L, 1)->f);
  luaL_checkinteger(L, 2);
  int i = goap__lua_id(L, 2, d, kind);
  lua_pushstring(L, kind == GOAP__LUA_VAR ? var_name(d, i)
                    : kind == GOAP__LUA_ACTION ? goap_domain_action_name(d, i)
                    : goap_domain_goal_name(d, i));
  return 1;
}
static int f_var_name(lua_State *L) { return push_name(L, GOAP__LUA_VAR); }
static int f_action_name(lua_State *L) { return push_name(L, GOAP__LUA_ACTION); }
static int f_goal_name(lua_State *L) { return push_name(L, GOAP__LUA_GOAL); }

/* ---- positions (`position VAR VALUE X Y [Z]`) ------------------------------------------ */
/* The value at idx: an index, or an enum value's name of variable v. */
static int32_t position_value(lua_State *L, int idx, const goap_domain *d, int v) {
  if (lua_type(L, idx) == LUA_TNUMBER) {
    lua_Integer x = luaL_checkinteger(L, idx);
    if (x < INT32_MIN || x > INT32_MAX)
      luaL_error(L, "goap: variable '%s' has no value %I", var_name(d, v), x);
    return (int32_t)x;
  }
  const char *name = luaL_checkstring(L, idx);
  int32_t i = goap_domain_find_value(d, v, name);
  if (i < 0) luaL_error(L, "goap: variable '%s' has no value '%s'", var_name(d, v), name);
  return i;
}
static int position_error(lua_State *L, const char *what, const goap_domain *d, int v,
                          int32_t i, goap_status st) {
  const char *vn = goap_domain_value_name(d, v, i);
  if (st == GOAP_OUT_OF_RANGE && !vn)
    return luaL_error(L, "goap: %s: variable '%s' has no value %d", what, var_name(d, v), (int)i);
  char num[16];
  if (!vn) {
    snprintf(num, sizeof num, "%d", (int)i);
    vn = num;
  }
  if (st == GOAP_NOT_FOUND)
    return luaL_error(L, "goap: %s: %s = %s has no position (no `position` line)", what,
                      var_name(d, v), vn);
  if (st == GOAP_OUT_OF_RANGE)
    return luaL_error(L, "goap: %s: %s = %s: a coordinate is not finite", what, var_name(d, v),
                      vn);
  return status_error(L, what, st);
}
/* file:set_position(var, value, x, y [, z]); var and value by name or id. */
static int f_set_position(lua_State *L) {
  lfile *lf = check_file(L, 1);
  const goap_domain *d = goap_file_domain(lf->f);
  int v = goap__lua_id(L, 2, d, GOAP__LUA_VAR);
  int32_t i = position_value(L, 3, d, v);
  double x = luaL_checknumber(L, 4), y = luaL_checknumber(L, 5), z = luaL_optnumber(L, 6, 0.0);
  goap_status st = goap_file_set_position(lf->f, v, i, x, y, z);
  if (st != GOAP_OK) position_error(L, "set_position", d, v, i, st);
  return 0;
}
/* file:position(var, value) -> x, y, z */
static int f_position(lua_State *L) {
  lfile *lf = check_file(L, 1);
  const goap_domain *d = goap_file_domain(lf->f);
  int v = goap__lua_id(L, 2, d, GOAP__LUA_VAR);
  int32_t i = position_value(L, 3, d, v);
  double x = 0, y = 0, z = 0;
  goap_status st = goap_file_position(lf->f, v, i, &x, &y, &z);
  if (st != GOAP_OK) position_error(L, "position", d, v, i, st);
  lua_pushnumber(L, x);
  lua_pushnumber(L, y);
  lua_pushnumber(L, z);
  return 3;
}

/* ---- events --------------------------------------------------------------------------- */
static const char *const event_kinds[] = {
    "replan", "goal", "plan", "plan_failed", "repair", "action_start", "action_success",
    "action_failure", "action_stop", "memory", "goal_done", "idle", "reservation_denied"};

void goap__lua_push_event(lua_State *L, const goap_domain *d, const goap_agent_event *ev) {
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
  if (ev->kind == GOAP_EVENT_RESERVATION_DENIED && ev->resource) {
    lua_pushstring(L, ev->resource);
    lua_setfield(L, -2, "resource");
  }
  if (ev->kind == GOAP_EVENT_ACTION_FAILURE && ev->timeout) {
    lua_pushboolean(L, 1);
    lua_setfield(L, -2, "timeout");
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

#define push_event goap__lua_push_event

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

static int l_version(lua_State *L) {
  lua_pushstring(L, goap_version());
  return 1;
}

static const luaL_Reg file_methods[] = {
    {"close", f_close},         {"name", f_name},         {"vars", f_vars},
    {"actions", f_actions},     {"goals", f_goals},       {"scenarios", f_scenarios},
    {"scenario", f_scenario},   {"simulations", f_simulations},
    {"plan", f_plan},           {"query", f_query},       {"simulate", f_simulate},
    {"agent", goap__lua_file_agent},   {"agent_type", goap__lua_file_agent_type},
    {"blackboard", goap__lua_file_blackboard}, {"planner", goap__lua_file_planner},
    {"allocations", f_allocations},
    {"var_id", f_var_id},       {"action_id", f_action_id}, {"goal_id", f_goal_id},
    {"var_name", f_var_name},   {"action_name", f_action_name}, {"goal_name", f_goal_name},
    {"set_position", f_set_position}, {"position", f_position},
    {NULL, NULL}};

static const luaL_Reg query_methods[] = {
    {"plan", q_plan}, {"set", q_set}, {"get", q_get}, {"reset", q_reset},
    {"from_agent", q_from_agent}, {NULL, NULL}};

void goap__lua_new_class(lua_State *L, const char *name, const luaL_Reg *methods,
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
  goap__lua_new_class(L, FILE_MT, file_methods, f_gc, f_gc, f_tostring);
  goap__lua_new_class(L, QUERY_MT, query_methods, q_noop, q_noop, q_tostring);
  luaL_newmetatable(L, ERROR_MT); /* goap.error: plain tables, printed as their text */
  lua_pushcfunction(L, e_tostring);
  lua_setfield(L, -2, "__tostring");
  lua_pop(L, 1);
  /* lightuserdata(lagent *) -> agent userdata, weak values: callbacks, holders, members */
  lua_newtable(L);
  lua_createtable(L, 0, 1);
  lua_pushliteral(L, "v");
  lua_setfield(L, -2, "__mode");
  lua_setmetatable(L, -2);
  lua_setfield(L, LUA_REGISTRYINDEX, AGENTS_KEY);
  lua_createtable(L, GOAP_STATUS_COUNT, 0);
  for (int st = 0; st < GOAP_STATUS_COUNT; st++) {
    lua_pushstring(L, goap_status_name((goap_status)st));
    lua_rawseti(L, -2, st + 1);
  }
  lua_rawsetp(L, LUA_REGISTRYINDEX, &status_key);
  goap__lua_open_agent(L);
  luaL_newlib(L, funcs);
  goap__lua_open_runtime(L); /* adds goap.blackboard, cache, squad, world */
  return 1;
}
