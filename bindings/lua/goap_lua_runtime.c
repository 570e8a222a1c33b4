/*
 * goap_lua_runtime.c -- what agents share, for Lua: blackboards (slots, resources, holders),
 * plan caches, shared planners, squads (orders) and worlds (one planning budget per frame),
 * and the snapshots of blackboards and squads.
 *
 * Invariants:
 *  - A blackboard, cache or planner counts the agents using it (refs) and refuses close()
 *    while any is open; the agents hold it through a uservalue, so a finalizer never frees
 *    one in use.
 *  - A squad and a world hold their members strongly (uservalue 1: a table agent -> true) and
 *    list them in a C array (lagent *) that each member points back to (lagent.squad /
 *    .world). Removing is done from either side (goap__lua_squad_forget / _world_forget when
 *    an agent is freed; the squad's or world's close clears the members' pointers), so no
 *    native pointer outlives its object whatever order the finalizers run in.
 *  - An agent belongs to at most one squad and one world here.
 *  - world:update sets every member's Lua state for its callbacks and raises the first error
 *    any of them left, after the C update has returned.
 */
#include "goap_lua.h"

#include <goap/save.h>

#include <stdlib.h>
#include <string.h>

#define status_error goap__lua_status_error

/* ---- helpers -------------------------------------------------------------------------- */
static int push_snapshot(lua_State *L, goap_status (*fn)(const void *, void *, size_t, size_t *),
                         const void *obj) {
  size_t n = 0;
  fn(obj, NULL, 0, &n);
  luaL_Buffer b;
  char *p = luaL_buffinitsize(L, &b, n);
  goap_status st = fn(obj, p, n, &n);
  if (st != GOAP_OK) return status_error(L, "snapshot", st);
  luaL_pushresultsize(&b, n);
  return 1;
}

static int restore_refused(lua_State *L, const char *why) {
  return goap__lua_raise(L, GOAP_INVALID_OPERATION,
                         lua_pushfstring(L, "goap: restore: invalid_operation: %s", why));
}

/* An optional object in an options table (field `k`): NULL for nil, an error naming the field
 * for anything else than an open object of class mt. */
static void *opt_object(lua_State *L, int idx, const char *mt, const char *k) {
  if (lua_isnoneornil(L, idx)) return NULL;
  void *p = luaL_testudata(L, idx, mt);
  if (!p) {
    const char *got = luaL_getmetafield(L, idx, "__name") == LUA_TSTRING ? lua_tostring(L, -1)
                                                                          : luaL_typename(L, idx);
    luaL_error(L, "goap: %s: expected a %s, got %s", k, mt, got);
  }
  return p;
}

/* Grows a member array by one slot. */
static int members_push(lagent ***arr, int *count, int *cap, lagent *a) {
  if (*count == *cap) {
    int nc = *cap ? *cap * 2 : 8;
    lagent **p = (lagent **)realloc(*arr, sizeof **arr * (size_t)nc);
    if (!p) return 0;
    *arr = p;
    *cap = nc;
  }
  (*arr)[(*count)++] = a;
  return 1;
}
/* Removes a member, keeping the order (squads are ordered). */
static void members_remove(lagent **arr, int *count, const lagent *a) {
  for (int i = 0; i < *count; i++)
    if (arr[i] == a) {
      memmove(arr + i, arr + i + 1, sizeof *arr * (size_t)(*count - i - 1));
      (*count)--;
      return;
    }
}
/* uservalue 1 of the object at idx: its member set; sets member (at aidx) to v */
static void member_set(lua_State *L, int idx, int aidx, int on) {
  lua_getiuservalue(L, idx, 1);
  lua_pushvalue(L, aidx);
  if (on) lua_pushboolean(L, 1);
  else lua_pushnil(L);
  lua_rawset(L, -3);
  lua_pop(L, 1);
}

/* ---- blackboards ---------------------------------------------------------------------- */
static lbb *push_bb(lua_State *L) {
  lbb *b = (lbb *)lua_newuserdatauv(L, sizeof *b, 0);
  memset(b, 0, sizeof *b);
  luaL_setmetatable(L, BB_MT);
  return b;
}
static lbb *check_bb(lua_State *L, int idx) {
  lbb *b = (lbb *)luaL_checkudata(L, idx, BB_MT);
  if (!b->bb) luaL_error(L, "goap: the blackboard is closed");
  return b;
}
lbb *goap__lua_opt_bb(lua_State *L, int idx) {
  return opt_object(L, idx, BB_MT, "blackboard") ? check_bb(L, idx) : NULL;
}

/* goap.blackboard() -> an empty blackboard */
static int l_blackboard(lua_State *L) {
  lbb *b = push_bb(L);
  goap_status st = goap_blackboard_create(NULL, &b->bb);
  if (st != GOAP_OK) return status_error(L, "blackboard", st);
  return 1;
}
/* file:blackboard() -> a blackboard holding the file's `resource ... capacity N` lines */
int goap__lua_file_blackboard(lua_State *L) {
  lfile *lf = goap__lua_check_file(L, 1);
  lbb *b = push_bb(L);
  goap_status st = goap_file_blackboard_create(lf->f, NULL, &b->bb);
  if (st != GOAP_OK) return status_error(L, "blackboard", st);
  return 1;
}

static int bb_set(lua_State *L) {
  lbb *b = check_bb(L, 1);
  const char *name = luaL_checkstring(L, 2);
  lua_Integer x = lua_isboolean(L, 3) ? lua_toboolean(L, 3) : luaL_checkinteger(L, 3);
  if (x < INT32_MIN || x > INT32_MAX) return status_error(L, "set", GOAP_OUT_OF_RANGE);
  goap_status st = goap_blackboard_set(b->bb, name, (int32_t)x);
  if (st != GOAP_OK) return status_error(L, "set", st);
  return 0;
}
/* blackboard:get(name) -> value, or nil when no agent or call created the slot */
static int bb_get(lua_State *L) {
  lbb *b = check_bb(L, 1);
  int32_t v = 0;
  if (goap_blackboard_get(b->bb, luaL_checkstring(L, 2), &v) != GOAP_OK) lua_pushnil(L);
  else lua_pushinteger(L, v);
  return 1;
}
static int bb_version(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)goap_blackboard_version(check_bb(L, 1)->bb));
  return 1;
}
static int check_capacity(lua_State *L, int idx) {
  lua_Integer c = luaL_checkinteger(L, idx);
  if (c < 0 || c > INT32_MAX) luaL_error(L, "goap: capacity %d is out of range", (int)(c < 0 ? -1 : c));
  return (int)c;
}
static int bb_add_resource(lua_State *L) {
  lbb *b = check_bb(L, 1);
  const char *name = luaL_checkstring(L, 2);
  goap_status st = goap_blackboard_add_resource(b->bb, name, check_capacity(L, 3));
  if (st == GOAP_DUPLICATE)
    return luaL_error(L, "goap: resource '%s' exists (use set_capacity)", name);
  if (st != GOAP_OK) return status_error(L, "add_resource", st);
  return 0;
}
static int bb_set_capacity(lua_State *L) {
  lbb *b = check_bb(L, 1);
  const char *name = luaL_checkstring(L, 2);
  int cap = check_capacity(L, 3);
  goap_status st = goap_blackboard_set_capacity(b->bb, name, cap);
  if (st == GOAP_NOT_FOUND) return luaL_error(L, "goap: unknown resource '%s'", name);
  if (st == GOAP_INVALID_OPERATION) {
    int held = 0, c = 0;
    goap_blackboard_resource(b->bb, name, &held, &c);
    return luaL_error(L, "goap: resource '%s': capacity %d is below the %d unit(s) held",
                      name, cap, held);
  }
  if (st != GOAP_OK) return status_error(L, "set_capacity", st);
  return 0;
}
/* blackboard:resource(name) -> held, capacity (nil when unknown) */
static int bb_resource(lua_State *L) {
  lbb *b = check_bb(L, 1);
  int held = 0, cap = 0;
  if (goap_blackboard_resource(b->bb, luaL_checkstring(L, 2), &held, &cap) != GOAP_OK) {
    lua_pushnil(L);
    return 1;
  }
  lua_pushinteger(L, held);
  lua_pushinteger(L, cap);
  return 2;
}
/* blackboard:holders(name) -> {agent, ...}, one entry per unit held, oldest first (false for
 * a unit restored from a snapshot whose agent is not restored yet) */
static int bb_holders(lua_State *L) {
  lbb *b = check_bb(L, 1);
  const char *name = luaL_checkstring(L, 2);
  int n = 0;
  goap_status st = goap_blackboard_holders(b->bb, name, NULL, 0, &n);
  if (st == GOAP_NOT_FOUND) return luaL_error(L, "goap: unknown resource '%s'", name);
  goap_agent **who = (goap_agent **)lua_newuserdatauv(L, sizeof *who * (size_t)(n ? n : 1), 0);
  st = goap_blackboard_holders(b->bb, name, who, n, &n);
  if (st != GOAP_OK) return status_error(L, "holders", st);
  lua_createtable(L, n, 0);
  for (int i = 0; i < n; i++) {
    const lagent *a = who[i] ? (const lagent *)goap_agent_host(who[i]) : NULL;
    if (a) goap__lua_push_agent(L, a);
    else lua_pushboolean(L, 0);
    lua_rawseti(L, -2, i + 1);
  }
  return 1;
}
/* blackboard:apply_resources(file): the file's resource lines (adds or sets capacities) */
static int bb_apply_resources(lua_State *L) {
  lbb *b = check_bb(L, 1);
  lfile *lf = goap__lua_check_file(L, 2);
  goap_status st = goap_file_apply_resources(lf->f, b->bb);
  if (st == GOAP_INVALID_OPERATION)
    return luaL_error(L, "goap: apply_resources: a capacity would go below the units held");
  if (st != GOAP_OK) return status_error(L, "apply_resources", st);
  return 0;
}
static goap_status bb_snap(const void *o, void *buf, size_t cap, size_t *size) {
  return goap_blackboard_snapshot((const goap_blackboard *)o, buf, cap, size);
}
static int bb_snapshot(lua_State *L) {
  lbb *b = check_bb(L, 1);
  if (b->busy) return luaL_error(L, "goap: blackboard:snapshot called during an update of an agent on it");
  return push_snapshot(L, bb_snap, b->bb);
}
/* blackboard:restore(s): before any agent is attached to it */
static int bb_restore(lua_State *L) {
  lbb *b = check_bb(L, 1);
  size_t n = 0;
  const char *data = luaL_checklstring(L, 2, &n);
  if (b->refs > 0) return restore_refused(L, "agents are attached to the blackboard");
  goap_error err;
  goap_status st = goap_blackboard_restore(b->bb, data, n, &err);
  if (st != GOAP_OK) return goap__lua_error(L, &err);
  return 0;
}
static int bb_close(lua_State *L) {
  lbb *b = (lbb *)luaL_checkudata(L, 1, BB_MT);
  if (b->bb && b->refs > 0)
    return luaL_error(L, "goap: cannot close the blackboard: %d agent(s) use it", b->refs);
  goap_blackboard_destroy(b->bb);
  b->bb = NULL;
  return 0;
}
static int bb_gc(lua_State *L) {
  lbb *b = (lbb *)luaL_checkudata(L, 1, BB_MT);
  if (b->refs == 0) {
    goap_blackboard_destroy(b->bb);
    b->bb = NULL;
  }
  return 0;
}
static int bb_tostring(lua_State *L) {
  lbb *b = (lbb *)luaL_checkudata(L, 1, BB_MT);
  lua_pushstring(L, b->bb ? "goap.blackboard" : "goap.blackboard(closed)");
  return 1;
}

/* ---- plan caches ---------------------------------------------------------------------- */
static lcache *check_cache(lua_State *L, int idx) {
  lcache *c = (lcache *)luaL_checkudata(L, idx, CACHE_MT);
  if (!c->c) luaL_error(L, "goap: the plan cache is closed");
  return c;
}
lcache *goap__lua_opt_cache(lua_State *L, int idx) {
  return opt_object(L, idx, CACHE_MT, "cache") ? check_cache(L, idx) : NULL;
}
/* goap.cache([capacity]) -> a plan cache (capacity 0 or nil: 256) */
static int l_cache(lua_State *L) {
  lua_Integer cap = luaL_optinteger(L, 1, 0);
  if (cap < 0 || cap > 1 << 24) return luaL_error(L, "goap: cache capacity out of range");
  lcache *c = (lcache *)lua_newuserdatauv(L, sizeof *c, 0);
  memset(c, 0, sizeof *c);
  luaL_setmetatable(L, CACHE_MT);
  goap_status st = goap_plan_cache_create(NULL, (int)cap, &c->c);
  if (st != GOAP_OK) return status_error(L, "cache", st);
  return 1;
}
static int c_stats(lua_State *L) {
  goap_plan_cache_stats s = goap_plan_cache_get_stats(check_cache(L, 1)->c);
  lua_createtable(L, 0, 5);
  lua_pushinteger(L, (lua_Integer)s.hits);
  lua_setfield(L, -2, "hits");
  lua_pushinteger(L, (lua_Integer)s.misses);
  lua_setfield(L, -2, "misses");
  lua_pushinteger(L, (lua_Integer)s.stores);
  lua_setfield(L, -2, "stores");
  lua_pushinteger(L, (lua_Integer)s.evictions);
  lua_setfield(L, -2, "evictions");
  lua_pushinteger(L, s.entries);
  lua_setfield(L, -2, "entries");
  return 1;
}
static int c_clear(lua_State *L) {
  goap_plan_cache_clear(check_cache(L, 1)->c);
  return 0;
}
static int c_close(lua_State *L) {
  lcache *c = (lcache *)luaL_checkudata(L, 1, CACHE_MT);
  if (c->c && c->refs > 0)
    return luaL_error(L, "goap: cannot close the plan cache: %d agent(s) use it", c->refs);
  goap_plan_cache_destroy(c->c);
  c->c = NULL;
  return 0;
}
static int c_gc(lua_State *L) {
  lcache *c = (lcache *)luaL_checkudata(L, 1, CACHE_MT);
  if (c->refs == 0) {
    goap_plan_cache_destroy(c->c);
    c->c = NULL;
  }
  return 0;
}
static int c_tostring(lua_State *L) {
  lcache *c = (lcache *)luaL_checkudata(L, 1, CACHE_MT);
  lua_pushstring(L, c->c ? "goap.cache" : "goap.cache(closed)");
  return 1;
}

/* ---- shared planners ------------------------------------------------------------------ */
static lplanner *check_planner(lua_State *L, int idx) {
  lplanner *p = (lplanner *)luaL_checkudata(L, idx, PLANNER_MT);
  if (!p->p) luaL_error(L, "goap: the planner is closed");
  return p;
}
lplanner *goap__lua_opt_planner(lua_State *L, int idx) {
  return opt_object(L, idx, PLANNER_MT, "planner") ? check_planner(L, idx) : NULL;
}
/* file:planner([initial_nodes]) -> a planner for the file's domain, to share between agents
 * (type:agent{planner = p}) updated one after another */
int goap__lua_file_planner(lua_State *L) {
  lfile *lf = goap__lua_check_file(L, 1);
  lua_Integer nodes = luaL_optinteger(L, 2, 0);
  if (nodes < 0 || nodes > INT32_MAX) return luaL_error(L, "goap: initial_nodes out of range");
  lplanner *p = (lplanner *)lua_newuserdatauv(L, sizeof *p, 1);
  memset(p, 0, sizeof *p);
  luaL_setmetatable(L, PLANNER_MT);
  lua_pushvalue(L, 1);
  lua_setiuservalue(L, -2, 1);
  goap_planner_desc pd;
  memset(&pd, 0, sizeof pd);
  pd.initial_nodes = (uint32_t)nodes;
  pd.allocator = goap__lua_file_allocator(lf);
  goap_status st = goap_planner_create(goap_file_domain(lf->f), &pd, &p->p);
  if (st != GOAP_OK) return status_error(L, "planner", st);
  p->file = lf;
  lf->refs++;
  return 1;
}
static void planner_free(lplanner *p) {
  goap_planner_destroy(p->p);
  p->p = NULL;
  if (p->file) p->file->refs--;
  p->file = NULL;
}
static int p_close(lua_State *L) {
  lplanner *p = (lplanner *)luaL_checkudata(L, 1, PLANNER_MT);
  if (p->p && p->refs > 0)
    return luaL_error(L, "goap: cannot close the planner: %d agent(s) use it", p->refs);
  planner_free(p);
  return 0;
}
static int p_gc(lua_State *L) {
  lplanner *p = (lplanner *)luaL_checkudata(L, 1, PLANNER_MT);
  if (p->refs == 0) planner_free(p);
  return 0;
}
static int p_tostring(lua_State *L) {
  lplanner *p = (lplanner *)luaL_checkudata(L, 1, PLANNER_MT);
  lua_pushstring(L, p->p ? "goap.planner" : "goap.planner(closed)");
  return 1;
}

/* ---- squads --------------------------------------------------------------------------- */
static lsquad *check_squad(lua_State *L, int idx) {
  lsquad *s = (lsquad *)luaL_checkudata(L, idx, SQUAD_MT);
  if (!s->s) luaL_error(L, "goap: the squad is closed");
  return s;
}

void goap__lua_squad_forget(lsquad *s, lagent *a) {
  goap_squad_remove(s->s, a->agent);
  members_remove(s->members, &s->count, a);
  a->squad = NULL;
}

static const char *opt_field(lua_State *L, int t, const char *k) {
  if (lua_isnoneornil(L, t)) return NULL;
  return goap__lua_field_str(L, t, k, NULL); /* stays on the stack while used */
}

/* goap.squad{suppress_goal=, cover_goal=, advance_goal=, search_goal=, order_priority=} */
static int l_squad(lua_State *L) {
  if (!lua_isnoneornil(L, 1)) luaL_checktype(L, 1, LUA_TTABLE);
  lua_settop(L, 1);
  goap_squad_desc sd;
  memset(&sd, 0, sizeof sd);
  sd.suppress_goal = opt_field(L, 1, "suppress_goal");
  sd.cover_goal = opt_field(L, 1, "cover_goal");
  sd.advance_goal = opt_field(L, 1, "advance_goal");
  sd.search_goal = opt_field(L, 1, "search_goal");
  if (!lua_isnil(L, 1)) {
    sd.order_priority = goap__lua_field_num(L, 1, "order_priority", 0);
    if (!(sd.order_priority >= 0) || sd.order_priority > 1e300)
      return luaL_error(L, "goap: order_priority: must be a finite number >= 0");
  }
  lsquad *s = (lsquad *)lua_newuserdatauv(L, sizeof *s, 1);
  memset(s, 0, sizeof *s);
  luaL_setmetatable(L, SQUAD_MT);
  lua_newtable(L);
  lua_setiuservalue(L, -2, 1);
  goap_status st = goap_squad_create(&sd, &s->s);
  if (st != GOAP_OK) return status_error(L, "squad", st);
  return 1;
}

static void squad_add(lua_State *L, lsquad *s, int aidx) {
  lagent *a = goap__lua_check_agent(L, aidx);
  if (a->updating) luaL_error(L, "goap: squad:add called during the agent's update");
  if (a->squad == s) luaL_error(L, "goap: the agent is already in this squad");
  if (a->squad) luaL_error(L, "goap: the agent is in another squad");
  if (!members_push(&s->members, &s->count, &s->cap, a)) luaL_error(L, "goap: out of memory");
  goap_status st = goap_squad_add(s->s, a->agent);
  if (st != GOAP_OK) {
    s->count--;
    status_error(L, "squad add", st);
  }
  a->squad = s;
  member_set(L, 1, aidx, 1);
}
static int s_add(lua_State *L) {
  squad_add(L, check_squad(L, 1), 2);
  return 0;
}
static int s_remove(lua_State *L) {
  lsquad *s = check_squad(L, 1);
  lagent *a = goap__lua_check_agent(L, 2);
  if (a->squad != s) return luaL_error(L, "goap: the agent is not in this squad");
  if (a->updating) return luaL_error(L, "goap: squad:remove called during the agent's update");
  goap__lua_squad_forget(s, a);
  member_set(L, 1, 2, 0);
  return 0;
}
static int s_size(lua_State *L) {
  lua_pushinteger(L, check_squad(L, 1)->count);
  return 1;
}
/* squad:member(i) -> the i-th member (from 1, in the order added), nil past the end */
static int s_member(lua_State *L) {
  lsquad *s = check_squad(L, 1);
  lua_Integer i = luaL_checkinteger(L, 2);
  if (i < 1 || i > s->count) lua_pushnil(L);
  else goap__lua_push_agent(L, s->members[i - 1]);
  return 1;
}
static int s_busy(lua_State *L, lsquad *s) {
  for (int i = 0; i < s->count; i++)
    if (s->members[i]->updating)
      return luaL_error(L, "goap: squad called from a member's callback");
  return 0;
}
/* squad:order("get_to_cover" | "advance_cover" | "orderly_advance" | "search" | "none") */
static int s_order(lua_State *L) {
  lsquad *s = check_squad(L, 1);
  const char *name = luaL_checkstring(L, 2);
  int b = goap_squad_behavior_from_name(name);
  if (b < 0)
    return luaL_error(L, "goap: unknown squad behaviour '%s' (none, get_to_cover, "
                      "advance_cover, orderly_advance, search)", name);
  s_busy(L, s);
  goap_status st = goap_squad_order(s->s, (goap_squad_behavior)b);
  if (st != GOAP_OK) return status_error(L, "squad order", st);
  return 0;
}
static int s_update(lua_State *L) {
  lsquad *s = check_squad(L, 1);
  s_busy(L, s);
  goap_squad_update(s->s);
  return 0;
}
static int s_current(lua_State *L) {
  lua_pushstring(L, goap_squad_behavior_name(goap_squad_current(check_squad(L, 1)->s)));
  return 1;
}
static goap_status s_snap(const void *o, void *buf, size_t cap, size_t *size) {
  return goap_squad_snapshot((const goap_squad *)o, buf, cap, size);
}
static int s_snapshot(lua_State *L) {
  lsquad *s = check_squad(L, 1);
  s_busy(L, s);
  return push_snapshot(L, s_snap, s->s);
}
/* squad:restore(s, {members...}): into a squad without members, its members in the saved
 * order (the restored agents) */
static int s_restore(lua_State *L) {
  lsquad *s = check_squad(L, 1);
  size_t n = 0;
  const char *data = luaL_checklstring(L, 2, &n);
  luaL_checktype(L, 3, LUA_TTABLE);
  int count = (int)lua_rawlen(L, 3);
  if (s->count > 0) return restore_refused(L, "the squad has members already");
  goap_agent **ms = (goap_agent **)lua_newuserdatauv(L, sizeof *ms * (size_t)(count + 1), 0);
  for (int i = 0; i < count; i++) {
    lua_rawgeti(L, 3, i + 1);
    lagent *a = goap__lua_check_agent(L, -1);
    if (a->squad) return restore_refused(L, lua_pushfstring(L, "member %d is in a squad already", i + 1));
    ms[i] = a->agent;
    lua_pop(L, 1);
  }
  goap_error err;
  goap_status st = goap_squad_restore(s->s, data, n, (goap_agent *const *)ms, count, &err);
  if (st != GOAP_OK) return goap__lua_error(L, &err);
  for (int i = 0; i < count; i++) {
    lua_rawgeti(L, 3, i + 1);
    lagent *a = goap__lua_check_agent(L, -1);
    if (!members_push(&s->members, &s->count, &s->cap, a)) return luaL_error(L, "goap: out of memory");
    a->squad = s;
    member_set(L, 1, lua_gettop(L), 1);
    lua_pop(L, 1);
  }
  return 0;
}
static void squad_free(lsquad *s) {
  goap_squad_destroy(s->s); /* clears its orders: the members are still alive */
  s->s = NULL;
  for (int i = 0; i < s->count; i++) s->members[i]->squad = NULL;
  free(s->members);
  s->members = NULL;
  s->count = s->cap = 0;
}
static int s_close(lua_State *L) {
  lsquad *s = (lsquad *)luaL_checkudata(L, 1, SQUAD_MT);
  if (s->s) s_busy(L, s);
  squad_free(s);
  lua_newtable(L);
  lua_setiuservalue(L, 1, 1);
  return 0;
}
static int s_gc(lua_State *L) {
  squad_free((lsquad *)luaL_checkudata(L, 1, SQUAD_MT));
  return 0;
}
static int s_tostring(lua_State *L) {
  lsquad *s = (lsquad *)luaL_checkudata(L, 1, SQUAD_MT);
  if (s->s) lua_pushfstring(L, "goap.squad(%d)", s->count);
  else lua_pushliteral(L, "goap.squad(closed)");
  return 1;
}

/* ---- worlds --------------------------------------------------------------------------- */
static lworld *check_world(lua_State *L, int idx) {
  lworld *w = (lworld *)luaL_checkudata(L, idx, WORLD_MT);
  if (!w->w) luaL_error(L, "goap: the world is closed");
  return w;
}
void goap__lua_world_forget(lworld *w, lagent *a) {
  goap_world_remove(w->w, a->agent);
  for (int i = 0; i < w->count; i++)
    if (w->members[i] == a) {
      w->members[i] = w->members[--w->count];
      break;
    }
  a->world = NULL;
}

/* goap.world{lanes=, seed=, no_jitter=, initial_nodes=, agent_share=} */
static int l_world(lua_State *L) {
  if (!lua_isnoneornil(L, 1)) luaL_checktype(L, 1, LUA_TTABLE);
  lua_settop(L, 1);
  goap_world_desc wd;
  memset(&wd, 0, sizeof wd);
  if (!lua_isnil(L, 1)) {
    lua_Integer lanes = goap__lua_field_int(L, 1, "lanes", 0, 1024);
    lua_Integer seed = goap__lua_field_int(L, 1, "seed", LUA_MININTEGER, LUA_MAXINTEGER);
    lua_getfield(L, 1, "no_jitter");
    wd.no_jitter = lua_toboolean(L, -1);
    lua_Integer nodes = goap__lua_field_int(L, 1, "initial_nodes", 0, INT32_MAX);
    lua_Integer share = goap__lua_field_int(L, 1, "agent_share", 0, INT32_MAX);
    wd.lanes = (int)lanes;
    wd.seed = (uint64_t)seed;
    wd.initial_nodes = (uint32_t)nodes;
    wd.agent_share = (uint32_t)share;
  }
  lworld *w = (lworld *)lua_newuserdatauv(L, sizeof *w, 1);
  memset(w, 0, sizeof *w);
  luaL_setmetatable(L, WORLD_MT);
  lua_newtable(L);
  lua_setiuservalue(L, -2, 1);
  goap_status st = goap_world_create(&wd, &w->w);
  if (st != GOAP_OK) return status_error(L, "world", st);
  return 1;
}

/* world:add(agent [, lane [, priority]]): lane from 0 */
static int w_add(lua_State *L) {
  lworld *w = check_world(L, 1);
  lagent *a = goap__lua_check_agent(L, 2);
  lua_Integer lane = luaL_optinteger(L, 3, 0);
  double prio = luaL_optnumber(L, 4, 0);
  if (w->updating) return luaL_error(L, "goap: world:add called during world:update");
  if (a->world == w) return luaL_error(L, "goap: the agent is already in this world");
  if (a->world) return luaL_error(L, "goap: the agent is in another world");
  if (lane < 0 || lane > INT32_MAX) return luaL_error(L, "goap: world:add: bad lane");
  if (!members_push(&w->members, &w->count, &w->cap, a)) return luaL_error(L, "goap: out of memory");
  goap_status st = goap_world_add(w->w, a->agent, (int)lane, prio);
  if (st != GOAP_OK) {
    w->count--;
    if (st == GOAP_INVALID_ARGUMENT)
      return luaL_error(L, "goap: world:add: bad lane or priority, or the agent's blackboard or "
                        "cache is used by an agent of another lane");
    return status_error(L, "world add", st);
  }
  a->world = w;
  member_set(L, 1, 2, 1);
  return 0;
}
static int w_remove(lua_State *L) {
  lworld *w = check_world(L, 1);
  lagent *a = goap__lua_check_agent(L, 2);
  if (w->updating) return luaL_error(L, "goap: world:remove called during world:update");
  if (a->world != w) return luaL_error(L, "goap: the agent is not in this world");
  goap__lua_world_forget(w, a);
  member_set(L, 1, 2, 0);
  return 0;
}
static int w_set_priority(lua_State *L) {
  lworld *w = check_world(L, 1);
  lagent *a = goap__lua_check_agent(L, 2);
  double prio = luaL_checknumber(L, 3);
  if (a->world != w) return luaL_error(L, "goap: the agent is not in this world");
  if (goap_world_set_priority(w->w, a->agent, prio) != GOAP_OK)
    return luaL_error(L, "goap: world:set_priority: bad priority");
  return 0;
}
static int w_count(lua_State *L) {
  lua_pushinteger(L, goap_world_agent_count(check_world(L, 1)->w));
  return 1;
}
/* world:update(dt [, expansions]) -> status name; raises the first error a member's callback
 * raised (the others' are dropped) */
static int w_update(lua_State *L) {
  lworld *w = check_world(L, 1);
  double dt = luaL_checknumber(L, 2);
  lua_Integer budget = luaL_optinteger(L, 3, 0);
  if (budget < 0) return luaL_error(L, "goap: world:update: the budget must be >= 0");
  if (w->updating) return luaL_error(L, "goap: world:update called from a member's callback");
  for (int i = 0; i < w->count; i++)
    if (w->members[i]->updating)
      return luaL_error(L, "goap: world:update called from a member's callback");
  w->updating = 1;
  for (int i = 0; i < w->count; i++) goap__lua_agent_begin(L, w->members[i]);
  goap_status st = goap_world_update(w->w, dt, (uint64_t)budget);
  for (int i = 0; i < w->count; i++) goap__lua_agent_end(w->members[i]);
  w->updating = 0;
  lagent *first = NULL;
  for (int i = 0; i < w->count; i++) {
    lagent *a = w->members[i];
    if (!a->has_error) continue;
    if (!first) {
      first = a;
    } else {
      luaL_unref(L, LUA_REGISTRYINDEX, a->error_ref);
      a->has_error = 0;
    }
  }
  if (first) goap__lua_agent_raise(L, first);
  if (st != GOAP_OK) return status_error(L, "world update", st);
  goap__lua_push_status(L, st);
  return 1;
}
static int w_stats(lua_State *L) {
  goap_world_stats s = goap_world_get_stats(check_world(L, 1)->w);
  lua_createtable(L, 0, 7);
  lua_pushinteger(L, (lua_Integer)s.frames);
  lua_setfield(L, -2, "frames");
  lua_pushinteger(L, (lua_Integer)s.expansions);
  lua_setfield(L, -2, "expansions");
  lua_pushinteger(L, s.wanting);
  lua_setfield(L, -2, "wanting");
  lua_pushinteger(L, s.served);
  lua_setfield(L, -2, "served");
  lua_pushinteger(L, s.max_wait);
  lua_setfield(L, -2, "max_wait");
  lua_pushinteger(L, s.planners);
  lua_setfield(L, -2, "planners");
  lua_pushinteger(L, s.leased);
  lua_setfield(L, -2, "leased");
  return 1;
}
static void world_free(lworld *w) {
  goap_world_destroy(w->w); /* releases the agents: they are still alive */
  w->w = NULL;
  for (int i = 0; i < w->count; i++) w->members[i]->world = NULL;
  free(w->members);
  w->members = NULL;
  w->count = w->cap = 0;
}
static int w_close(lua_State *L) {
  lworld *w = (lworld *)luaL_checkudata(L, 1, WORLD_MT);
  if (w->updating) return luaL_error(L, "goap: world closed during world:update");
  world_free(w);
  lua_newtable(L);
  lua_setiuservalue(L, 1, 1);
  return 0;
}
static int w_gc(lua_State *L) {
  world_free((lworld *)luaL_checkudata(L, 1, WORLD_MT));
  return 0;
}
static int w_tostring(lua_State *L) {
  lworld *w = (lworld *)luaL_checkudata(L, 1, WORLD_MT);
  if (w->w) lua_pushfstring(L, "goap.world(%d)", w->count);
  else lua_pushliteral(L, "goap.world(closed)");
  return 1;
}

static const luaL_Reg bb_methods[] = {
    {"set", bb_set}, {"get", bb_get}, {"version", bb_version},
    {"add_resource", bb_add_resource}, {"set_capacity", bb_set_capacity},
    {"resource", bb_resource}, {"holders", bb_holders}, {"apply_resources", bb_apply_resources},
    {"snapshot", bb_snapshot}, {"restore", bb_restore}, {"close", bb_close}, {NULL, NULL}};
static const luaL_Reg cache_methods[] = {
    {"stats", c_stats}, {"clear", c_clear}, {"close", c_close}, {NULL, NULL}};
static const luaL_Reg planner_methods[] = {{"close", p_close}, {NULL, NULL}};
static const luaL_Reg squad_methods[] = {
    {"add", s_add}, {"remove", s_remove}, {"size", s_size}, {"member", s_member},
    {"order", s_order}, {"update", s_update}, {"current", s_current},
    {"snapshot", s_snapshot}, {"restore", s_restore}, {"close", s_close}, {NULL, NULL}};
static const luaL_Reg world_methods[] = {
    {"add", w_add}, {"remove", w_remove}, {"set_priority", w_set_priority},
    {"count", w_count}, {"update", w_update}, {"stats", w_stats}, {"close", w_close},
    {NULL, NULL}};

/* Registers the classes and adds goap.blackboard, cache, squad, world to the module table
 * on the top of the stack. */
void goap__lua_open_runtime(lua_State *L) {
  static const luaL_Reg funcs[] = {{"blackboard", l_blackboard}, {"cache", l_cache},
                                   {"squad", l_squad},           {"world", l_world},
                                   {NULL, NULL}};
  goap__lua_new_class(L, BB_MT, bb_methods, bb_gc, bb_gc, bb_tostring);
  goap__lua_new_class(L, CACHE_MT, cache_methods, c_gc, c_gc, c_tostring);
  goap__lua_new_class(L, PLANNER_MT, planner_methods, p_gc, p_gc, p_tostring);
  goap__lua_new_class(L, SQUAD_MT, squad_methods, s_gc, s_close, s_tostring);
  goap__lua_new_class(L, WORLD_MT, world_methods, w_gc, w_close, w_tostring);
  luaL_setfuncs(L, funcs, 0);
}
