/*
 * goap_lua.h -- internals shared by the three sources of the Lua module (not installed):
 *   goap_lua.c          the module, files, one-shot and prepared plans, simulations;
 *   goap_lua_agent.c    agent types, agents and their callbacks, inspection, agent snapshots;
 *   goap_lua_runtime.c  blackboards, plan caches, shared planners, squads and worlds.
 *
 * Lifetimes (every native object is owned by exactly one userdata):
 *  - A child keeps its parents alive through uservalues (agent -> type -> file; agent ->
 *    blackboard, cache, planner; squad and world -> their agents) and each parent counts its
 *    native children (`refs`): a parent is never destroyed while a child may use it. close()
 *    on a parent with children is a Lua error; a parent's __gc with children left (which the
 *    uservalues make impossible) leaks rather than frees memory in use.
 *  - Memberships are undone from both sides: closing an agent removes it from its squad and
 *    world; closing a squad or world forgets its members.
 *  - Lua callbacks run only while the binding calls into C on the agent's behalf (update,
 *    replan, reset, order, world update): then lagent.L is set. Anywhere else (destroy,
 *    finalizers) they are skipped. A Lua error in a callback never unwinds through C.
 */
#ifndef GOAP_LUA_H
#define GOAP_LUA_H

#include <goap/agent.h>
#include <goap/file.h>
#include <goap/sim.h>
#include <goap/squad.h>
#include <goap/world.h>

#include <lauxlib.h>
#include <lua.h>

#define FILE_MT "goap.file"
#define QUERY_MT "goap.query"
#define TYPE_MT "goap.agent_type"
#define AGENT_MT "goap.agent"
#define BB_MT "goap.blackboard"
#define CACHE_MT "goap.cache"
#define PLANNER_MT "goap.planner"
#define SQUAD_MT "goap.squad"
#define WORLD_MT "goap.world"
#define ERROR_MT "goap.error"
/* Registry key of the table lightuserdata(lagent *) -> agent userdata (weak values). */
#define AGENTS_KEY "goap.agents"

typedef struct lfile {
  goap_file *f;
  goap_planner *planner; /* file:plan's and queries' planner, created on first use */
  int refs;              /* open native children: agent types, planners */
  uint64_t allocs;       /* allocations and growths through the file's allocator */
  int64_t live;          /* bytes held through it now */
} lfile;

typedef struct lsquad lsquad;
typedef struct lworld lworld;
typedef struct lbb {
  goap_blackboard *bb;
  int refs; /* agents attached */
  int busy; /* of which are being updated */
} lbb;
typedef struct lcache {
  goap_plan_cache *c;
  int refs;
} lcache;
typedef struct lplanner {
  goap_planner *p;
  lfile *file;
  int refs;
  int busy; /* an agent sharing it is being updated */
} lplanner;

typedef struct lsensor {
  struct ltype *type;
  int index; /* 1-based, in the type's sensors table */
} lsensor;

typedef struct ltype {
  goap_agent_type *type;
  lfile *file;
  lsensor *sensors;
  int refs; /* agents */
  int own;  /* made by file:agent for one agent: freed with it */
} ltype;

typedef struct lagent {
  goap_agent *agent;
  ltype *type;
  lbb *bb;
  lcache *cache;
  lplanner *planner;
  lsquad *squad;
  lworld *world;
  lua_State *L;   /* set while Lua callbacks may run */
  int has_error;  /* an error value waits in the registry (error_ref) */
  int error_ref;
  int updating;
} lagent;

struct lsquad {
  goap_squad *s;
  lagent **members;
  int count, cap;
};
struct lworld {
  goap_world *w;
  lagent **members;
  int count, cap;
  int updating;
};

/* goap_lua.c */
/* Errors are raised as goap.error tables with the fields of goap_error: status (its name),
 * message, file ("" if none), line, col (0 if none), offset (0 if none), and text, which
 * tostring gives: goap_error_format's text for goap__lua_error, "goap: WHAT: status text" for
 * goap__lua_status_error. Both never return. */
int goap__lua_error(lua_State *L, const goap_error *e);
int goap__lua_status_error(lua_State *L, const char *what, goap_status st);
/* A binding's own refusal: a goap.error of status st whose message and text are message. */
int goap__lua_raise(lua_State *L, goap_status st, const char *message);
lfile *goap__lua_check_file(lua_State *L, int idx);
/* The counting allocator of a file: the file, its planners, its agent types and their agents
 * allocate through it (file:allocations()). */
goap_allocator goap__lua_file_allocator(lfile *lf);
const char *goap__lua_var_name(const goap_domain *d, int i);
void *goap__lua_parse_list(lua_State *L, const goap_domain *d, const char *text, int conds,
                           int *count);
void goap__lua_push_event(lua_State *L, const goap_domain *d, const goap_agent_event *ev);
int goap__lua_id(lua_State *L, int idx, const goap_domain *d, int kind);
enum { GOAP__LUA_VAR, GOAP__LUA_ACTION, GOAP__LUA_GOAL };
/* Fields of an options table t: the value (pushed, and left on the stack), def when nil, an
 * error naming the field ("goap: max_nodes: expected a number, got string") otherwise. */
const char *goap__lua_field_str(lua_State *L, int t, const char *k, const char *def);
double goap__lua_field_num(lua_State *L, int t, const char *k, double def);
lua_Integer goap__lua_field_int(lua_State *L, int t, const char *k, lua_Integer lo, lua_Integer hi);
void goap__lua_new_class(lua_State *L, const char *name, const luaL_Reg *methods,
                         lua_CFunction gc, lua_CFunction close, lua_CFunction tostring);

/* Pushes a status's name (goap_status_name) from a table the registry keeps: no string is
 * created, so a hot call returning a status allocates nothing even after a full collection. */
void goap__lua_push_status(lua_State *L, goap_status st);

/* goap_lua_agent.c */
lagent *goap__lua_check_agent(lua_State *L, int idx);
void goap__lua_agent_begin(lua_State *L, lagent *a);
void goap__lua_agent_end(lagent *a);
int goap__lua_agent_raise(lua_State *L, lagent *a);
void goap__lua_push_agent(lua_State *L, const lagent *a);
int goap__lua_file_agent(lua_State *L);
int goap__lua_file_agent_type(lua_State *L);
void goap__lua_open_agent(lua_State *L);

/* goap_lua_runtime.c */
lbb *goap__lua_opt_bb(lua_State *L, int idx);
lcache *goap__lua_opt_cache(lua_State *L, int idx);
lplanner *goap__lua_opt_planner(lua_State *L, int idx);
void goap__lua_squad_forget(lsquad *s, lagent *a);
void goap__lua_world_forget(lworld *w, lagent *a);
int goap__lua_file_blackboard(lua_State *L);
int goap__lua_file_planner(lua_State *L);
void goap__lua_open_runtime(lua_State *L);

#endif /* GOAP_LUA_H */
