/*
 * runtime.h -- internals shared by the runtime's files (agent.c, type.c, blackboard.c,
 * cache.c). Nothing here is public.
 *
 * Invariants:
 *  - Every block is freed with the size it was allocated with (the allocator contract).
 *  - A type is immutable after goap_agent_type_create; agents only read it.
 *  - Blackboard slots are addressed by index (stable while the blackboard lives); agents map
 *    each of their domain's shared variables to a slot once, when created.
 */
#ifndef GOAP_RUNTIME_INTERNAL_H
#define GOAP_RUNTIME_INTERNAL_H

#include <goap/agent.h>
#include <goap/htn.h>

#include <stddef.h>
#include <stdint.h>

#include "base/base.h"

/* ---- memory ---------------------------------------------------------------------------- */
/* goap__resolve, goap__free, goap__grow_zero (the runtime zero-fills what it grows),
 * goap__now_ns: base/base.h */
static inline goap_allocator goap__rt_resolve(const goap_allocator *a) { return goap__resolve(a); }
void *goap__rt_alloc(const goap_allocator *a, size_t n);   /* zeroed */
static inline void goap__rt_free(const goap_allocator *a, void *p, size_t n) {
  goap__free(a, p, n);
}
char *goap__rt_strdup(const goap_allocator *a, const char *s, size_t *size);

/* ---- agent types ----------------------------------------------------------------------- */
typedef struct goap__rt_action {
  goap_action_start_fn start;
  goap_action_tick_fn tick;
  goap_action_stop_fn stop;
  void *user;
  double timeout;
  uint32_t on_fail, on_fail_count; /* into type->effs */
  uint32_t watch, watch_count;     /* into type->vars */
  uint32_t on_start, on_start_count, on_end, on_end_count; /* into type->effs */
  uint32_t reserve, reserve_count; /* into type->res_names */
  int (*check)(goap_agent *agent, int action, void *user);
  void *check_user;
} goap__rt_action;

typedef struct goap__rt_goal {
  int disabled;
  goap_priority_fn priority;
  void *user;
  uint32_t valid, valid_count;     /* into type->conds */
  uint32_t watch, watch_count;     /* into type->vars */
  double cooldown;                 /* seconds not chosen after its plan ended (0: none) */
} goap__rt_goal;

struct goap_agent_type {
  goap_allocator alloc;
  const goap_domain *d;
  char *name;
  size_t name_size;
  int na, ng, nv;
  size_t W;
  double *costs;                   /* na: planning cost, -1 when the type lacks the action */
  goap__rt_action *act;            /* na */
  goap__rt_goal *goal;             /* ng */
  goap_effect *effs;
  size_t neffs;
  goap_cond *conds;
  size_t nconds;
  int32_t *vars;
  size_t nvars_pool;
  char **res_names;                /* names of reserved resources, all actions */
  size_t nres_names;
  goap_sensor_desc *sensors;
  int nsensors;
  int has_checks;                  /* some action has a procedural precondition */
  int32_t *shared;                 /* domain variables flagged shared */
  int nshared;
  double margin, check_interval, cooldown;
  goap_search search;
  goap_heuristic heuristic;
  uint32_t max_nodes, budget, initial_nodes;
  double budget_ms;
  /* HTN agents (NULL htn: GOAP goals) */
  const goap_htn_domain *htn;
  int htn_root;
  uint32_t hwatch, hwatch_count;   /* into type->vars */
  uint64_t fingerprint;            /* goap_agent_type_fingerprint (save.c) */
};

/* save.c: the type's fingerprint, computed once by goap_agent_type_create. */
uint64_t goap__type_fingerprint(const goap_agent_type *t);

/* ---- blackboard ------------------------------------------------------------------------ */
/* The slot named `name`, created (with `value`) when absent; -1 when out of memory. *created
 * (may be NULL) tells which. */
int goap__bb_slot(goap_blackboard *bb, const char *name, int32_t value, int *created);
int32_t goap__bb_read(const goap_blackboard *bb, int slot);
void goap__bb_write(goap_blackboard *bb, int slot, int32_t value);
void goap__bb_attach(goap_blackboard *bb, int delta);
/* The resource named `name`, created with capacity 1 when absent; -1 when out of memory. */
int goap__bb_resource(goap_blackboard *bb, const char *name);
/* Takes one unit for agent: 1 when granted, 0 when the resource is full, -1 when out of
 * memory (recording the holder). release gives back one unit the agent holds. */
int goap__bb_acquire(goap_blackboard *bb, int res, goap_agent *agent);
void goap__bb_release(goap_blackboard *bb, int res, const goap_agent *agent);
const char *goap__bb_resource_name(const goap_blackboard *bb, int res);

/* ---- goap_world (world.c) hooks into agent.c ------------------------------------------- */
/* Joining sets the world mode (budgets from goap__agent_world_end, planners leased, no time
 * budget) and the timer phase jitter in [0, 1); leaving restores the agent (a search on a
 * leased planner starts again on its next update). */
void goap__agent_world_join(goap_agent *a, double jitter);
void goap__agent_world_leave(goap_agent *a);
int goap__agent_in_world(const goap_agent *a);
/* An update in two halves: begin (time, sensors, blackboard, interrupts; *wants = 1 when the
 * agent selects a goal or plans), end (selection and planning within `budget` expansions, then
 * the action). `held`: the planner of its paused search (or NULL); a new search asks
 * lease(ctx, a) for a planner (NULL: out of memory). *used: the expansions spent; *begun: the
 * searches begun. */
goap_status goap__agent_world_begin(goap_agent *a, double dt, int *wants);
goap_status goap__agent_world_end(goap_agent *a, double dt, uint32_t budget, goap_planner *held,
                                  goap_planner *(*lease)(void *ctx, goap_agent *a), void *ctx,
                                  uint64_t *used, uint32_t *begun);
/* 1 when a sliced search of the agent is running on p (p must stay leased to it). */
int goap__agent_world_searching_on(const goap_agent *a, const goap_planner *p);
goap_blackboard *goap__agent_world_blackboard(const goap_agent *a);
goap_plan_cache *goap__agent_world_cache(const goap_agent *a);
/* save.c's access to a blackboard: its slots and resources by index, and a restore that
 * fills a new blackboard and then swaps its content into the old one (swap exchanges every
 * field but the allocator and the attached count). */
size_t goap__bb_slot_count(const goap_blackboard *bb);
const char *goap__bb_slot_name(const goap_blackboard *bb, size_t i);
size_t goap__bb_resource_count(const goap_blackboard *bb);
void goap__bb_resource_get(const goap_blackboard *bb, size_t i, int *capacity, int *held);
/* Sets held units with unknown (NULL) holders; 0 when out of memory. unclaimed counts a
 * resource's NULL holders; claim makes agent the first of them (0: none left). */
/* A restored resource: held units whose holders are not known yet (nothing is allocated). */
void goap__bb_resource_set_held(goap_blackboard *bb, size_t i, int held);
/* Before an agent claims `units` of them: 1 when that many are unclaimed (room is made for the
 * claims, so goap__bb_claim cannot fail), 0 when fewer are, -1 when out of memory. */
int goap__bb_prepare_claims(goap_blackboard *bb, int res, int units);
int goap__bb_claim(goap_blackboard *bb, int res, goap_agent *agent);
int goap__bb_attached(const goap_blackboard *bb);
void goap__bb_set_version(goap_blackboard *bb, uint64_t version);
const goap_allocator *goap__bb_allocator(const goap_blackboard *bb);
void goap__bb_swap(goap_blackboard *a, goap_blackboard *b);

/* ---- squads (save.c's access) ---------------------------------------------------------- */
struct goap_squad;
/* The squad's configuration and state: its four goal names (suppress, cover, advance,
 * search), order priority, members, behaviour, phase and the goal it ordered each member. */
void goap__squad_get(const struct goap_squad *s, const char *const **names, double *prio,
                     size_t *n, int *behavior, int *phase, const int **ordered);
/* Gives an empty squad its members and state (ordered NULL: no orders); 0 when out of
 * memory (nothing changed). */
int goap__squad_set(struct goap_squad *s, struct goap_agent *const *members, size_t n,
                    int behavior, int phase, const int *ordered);

/* ---- plan cache ------------------------------------------------------------------------ */
/* Returns the cached plan (length in *len, cost in *cost) or NULL; counts a hit or a miss. */
const int32_t *goap__cache_find(goap_plan_cache *c, const goap_agent_type *t, int goal,
                                const goap_word *state, size_t W, int *len, double *cost);
/* Stores a plan; returns 0 when out of memory (the cache is then unchanged). */
int goap__cache_store(goap_plan_cache *c, const goap_agent_type *t, int goal,
                      const goap_word *state, size_t W, const int32_t *plan, int len,
                      double cost);

#endif /* GOAP_RUNTIME_INTERNAL_H */
