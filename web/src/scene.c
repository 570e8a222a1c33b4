/*
 * scene.c -- the live scene's host (web/site/scene.html): a loaded `.goap` file, agents of the
 * runtime (goap/agent.h) and squads (goap/squad.h) that run in a small scripted world, and
 * JSON views of them for the page. Compiled into the WebAssembly module by scripts/web.sh;
 * it also builds natively (tests, profiling) since only the exports use emscripten.
 *
 * Invariants:
 *  - A scene owns everything it creates (file, types, planners, agents, squads, blackboards)
 *    and frees it in goap_scene_destroy; agents are destroyed before squads' blackboards and
 *    types. Nothing is global: every export takes the scene.
 *  - Actions run for the file's `duration`, or cost * secs_per_cost when the file gives none;
 *    at the end an action fails with probability fail_rate (a seeded xorshift generator, so a
 *    scene with the same seed and the same calls is the same film), else it succeeds and the
 *    runtime applies its effects to the agent's memory.
 *  - Returned strings live in the scene's one text buffer until the next call that returns a
 *    string.
 *  - The search tree of an agent's last plan is not recorded while it runs (that would cost
 *    every frame): goap_scene_inspect searches again, with a tracing planner, from the memory
 *    the agent planned from (saved when it adopted the plan), for the same goal, with its
 *    type's costs, search and heuristic.
 */
#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#define SCENE_EXPORT EMSCRIPTEN_KEEPALIVE
#else
#define _POSIX_C_SOURCE 200809L
#include <time.h>
#define SCENE_EXPORT
#endif

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <goap/agent.h>
#include <goap/file.h>
#include <goap/goap.h>

#include "web_clock.h"
#include <goap/squad.h>

#include "scene.h"

#define SCENE_EVENTS 16  /* per agent: the recent timeline the inspector shows */
#define SCENE_MAX_TYPES 64
#define SCENE_MAX_WATCH 8


/* ---- text buffer ------------------------------------------------------------------------- */

typedef struct sbuf {
  char *p;
  size_t len, cap;
  int oom;
} sbuf;

static void sb_reset(sbuf *b) {
  b->len = 0;
  if (b->p) b->p[0] = '\0';
}

static void sb_printf(sbuf *b, const char *fmt, ...) {
  if (b->oom) return;
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    size_t room = b->cap - b->len;
    int n = vsnprintf(b->p ? b->p + b->len : NULL, b->p ? room : 0, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n < room) {
      b->len += (size_t)n;
      return;
    }
    size_t cap = b->cap ? b->cap * 2 : 4096;
    while (cap - b->len <= (size_t)n) cap *= 2;
    char *q = (char *)realloc(b->p, cap);
    if (!q) {
      b->oom = 1;
      return;
    }
    b->p = q;
    b->cap = cap;
  }
}

static void sb_str(sbuf *b, const char *s) {
  sb_printf(b, "\"");
  for (; s && *s; ++s) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') sb_printf(b, "\\%c", c);
    else if (c == '\n') sb_printf(b, "\\n");
    else if (c < 0x20) sb_printf(b, "\\u%04x", c);
    else sb_printf(b, "%c", c);
  }
  sb_printf(b, "\"");
}

static void sb_num(sbuf *b, double v) {
  if (isfinite(v)) sb_printf(b, "%.6g", v);
  else sb_printf(b, "null");
}

/* ---- the scene ---------------------------------------------------------------------------- */

typedef struct scene_event {
  double time;
  goap_agent_event_kind kind;
  int goal, action, reason, timeout;
  goap_status status;
  double cost;
  int plan_length;
} scene_event;

typedef struct scene_type {
  char spec[96];
  goap_agent_type *type;
  goap_action_binding *ab;
  goap_goal_binding *gb;
} scene_type;

typedef struct scene_squad {
  goap_squad *squad;
  goap_blackboard *bb;
} scene_squad;

typedef struct scene_agent {
  goap_scene *s;
  goap_agent *agent;
  int type;                   /* index in s->types */
  int squad;                  /* index in s->squads, -1 */
  char name[48];
  goap_word *initial;         /* memory to return to (goap_scene_reset_agent) */
  goap_word *plan_start;      /* memory when the last plan was adopted */
  int plan_goal;              /* its goal, -1 */
  double elapsed, duration;   /* of the running action */
  int fresh;
  int flash;                  /* 1: the last action ended in failure (until the next start) */
  goap_replan_reason last_reason;
  double last_reason_time;
  goap_status last_status;    /* of the last planning round: OK or why it failed */
  unsigned plans, goals_done, failures;
  double last_update_ms;
  double pending;             /* seconds not yet given to the agent (its update was deferred) */
  scene_event ev[SCENE_EVENTS];
  unsigned nev;               /* events ever recorded; the ring holds the last SCENE_EVENTS */
} scene_agent;

struct goap_scene {
  goap_file *file;
  const goap_domain *d;
  size_t W;
  int na, ng, nv;
  goap_search search;
  goap_heuristic heuristic;
  uint32_t budget;            /* expansions per update */
  uint32_t max_nodes;
  int slots;                  /* agents that may plan per update (0: all) */
  int next;                   /* where the next update starts (round robin) */
  double secs_per_cost, fail_rate;
  uint64_t rng;
  goap_plan_cache *cache;
  scene_type types[SCENE_MAX_TYPES];
  int ntypes;
  scene_squad *squads;
  int nsquads, squad_cap;
  scene_agent **agents;
  int nagents, agent_cap;
  int watch[SCENE_MAX_WATCH];
  int nwatch;
  double time;
  double frame_ms;            /* wall time of the last goap_scene_update's agent updates */
  int frame_planning;         /* agents that were planning in it */
  sbuf out;
  char error[1024];
};

static double rnd(goap_scene *s) {
  uint64_t x = s->rng;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  s->rng = x;
  return (double)(x >> 11) / 9007199254740992.0;
}

static void set_error(goap_scene *s, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(s->error, sizeof s->error, fmt, ap);
  va_end(ap);
}

/* ---- callbacks ---------------------------------------------------------------------------- */

static void act_start(goap_agent *agent, int action, void *user) {
  (void)user;
  scene_agent *sa = (scene_agent *)goap_agent_host(agent);
  goap_file_action_info ai;
  memset(&ai, 0, sizeof ai);
  goap_file_action_info_get(sa->s->file, action, &ai);
  sa->duration = ai.duration > 0 ? ai.duration
                                 : goap_domain_action_cost(sa->s->d, action) * sa->s->secs_per_cost;
  sa->elapsed = 0;
  sa->fresh = 1;
  sa->flash = 0;
}

static goap_action_state act_tick(goap_agent *agent, int action, double dt, void *user) {
  (void)action;
  (void)user;
  scene_agent *sa = (scene_agent *)goap_agent_host(agent);
  if (sa->fresh) sa->fresh = 0;
  else sa->elapsed += dt;
  if (sa->elapsed + 1e-9 < sa->duration) return GOAP_ACTION_RUNNING;
  if (sa->s->fail_rate > 0 && rnd(sa->s) < sa->s->fail_rate) return GOAP_ACTION_FAILURE;
  return GOAP_ACTION_SUCCESS;
}

static void on_event(goap_agent *agent, const goap_agent_event *ev, void *user) {
  scene_agent *sa = (scene_agent *)user;
  (void)agent;
  if (ev->kind == GOAP_EVENT_MEMORY) return; /* the memory panel shows the result */
  scene_event *e = &sa->ev[sa->nev++ % SCENE_EVENTS];
  e->time = ev->time;
  e->kind = ev->kind;
  e->goal = ev->goal;
  e->action = ev->action;
  e->reason = (int)ev->reason;
  e->timeout = ev->timeout;
  e->status = ev->status;
  e->cost = ev->cost;
  e->plan_length = ev->plan_length;
  switch (ev->kind) {
  case GOAP_EVENT_REPLAN:
    sa->last_reason = ev->reason;
    sa->last_reason_time = ev->time;
    break;
  case GOAP_EVENT_PLAN:
    sa->plans++;
    sa->last_status = GOAP_OK;
    sa->plan_goal = ev->goal;
    memcpy(sa->plan_start, goap_agent_memory(sa->agent), sa->s->W * sizeof *sa->plan_start);
    break;
  case GOAP_EVENT_PLAN_FAILED: sa->last_status = ev->status; break;
  case GOAP_EVENT_GOAL_DONE: sa->goals_done++; break;
  case GOAP_EVENT_ACTION_FAILURE:
    sa->failures++;
    sa->flash = 1;
    break;
  default: break;
  }
}

/* ---- creation ----------------------------------------------------------------------------- */

SCENE_EXPORT goap_scene *goap_scene_create(const char *name, const char *text,
                                           const char *search, const char *heuristic,
                                           int budget, double secs_per_cost, double fail_rate,
                                           unsigned seed) {
  goap_scene *s = (goap_scene *)calloc(1, sizeof *s);
  if (!s) return NULL;
  s->secs_per_cost = secs_per_cost > 0 ? secs_per_cost : 0.5;
  s->fail_rate = fail_rate > 0 && fail_rate < 1 ? fail_rate : 0;
  s->rng = 0x9E3779B97F4A7C15ull ^ ((uint64_t)seed * 0x2545F4914F6CDD1Dull);
  if (!s->rng) s->rng = 1;
  s->budget = budget > 0 ? (uint32_t)budget : 64;
  s->max_nodes = 20000;
  s->search = GOAP_SEARCH_ASTAR;
  if (search && strcmp(search, "wastar") == 0) s->search = GOAP_SEARCH_WASTAR;
  else if (search && strcmp(search, "greedy") == 0) s->search = GOAP_SEARCH_GREEDY;
  else if (search && *search && strcmp(search, "astar") != 0) {
    set_error(s, "unknown search '%s' (astar, wastar, greedy)", search);
    return s;
  }
  int h = heuristic && *heuristic ? goap_heuristic_from_name(heuristic) : 0;
  if (h < 0) {
    set_error(s, "unknown heuristic '%s'", heuristic);
    return s;
  }
  s->heuristic = (goap_heuristic)h;
  goap_error diag;
  memset(&diag, 0, sizeof diag);
  if (!text || goap_file_parse(name ? name : "scene.goap", text, strlen(text), NULL, &s->file,
                               &diag) != GOAP_OK) {
    if (text) goap_error_format(&diag, s->error, sizeof s->error);
    else set_error(s, "no text");
    return s;
  }
  s->d = goap_file_domain(s->file);
  s->W = goap_domain_state_words(s->d);
  s->na = goap_domain_action_count(s->d);
  s->ng = goap_domain_goal_count(s->d);
  s->nv = goap_domain_var_count(s->d);
  if (goap_plan_cache_create(NULL, 512, &s->cache) != GOAP_OK) set_error(s, "out of memory");
  return s;
}

SCENE_EXPORT const char *goap_scene_error(const goap_scene *s) { return s ? s->error : "no scene"; }

SCENE_EXPORT void goap_scene_destroy(goap_scene *s) {
  if (!s) return;
  for (int i = 0; i < s->nsquads; ++i) goap_squad_destroy(s->squads[i].squad);
  for (int i = 0; i < s->nagents; ++i) {
    goap_agent_destroy(s->agents[i]->agent);
    free(s->agents[i]->initial);
    free(s->agents[i]->plan_start);
    free(s->agents[i]);
  }
  for (int i = 0; i < s->nsquads; ++i) goap_blackboard_destroy(s->squads[i].bb);
  for (int i = 0; i < s->ntypes; ++i) {
    goap_agent_type_destroy(s->types[i].type);
    free(s->types[i].ab);
    free(s->types[i].gb);
  }
  free(s->agents);
  free(s->squads);
  goap_plan_cache_destroy(s->cache);
  goap_file_destroy(s->file);
  free(s->out.p);
  free(s);
}

/* A type from a spec: "" (every action and goal), "agent:NAME" (an `agent` block),
 * "goal:NAME" (every action, that goal only) or "scenario:NAME" (every action, the goal the
 * scenario pursues only). Types are made once per spec. */
static int find_type(goap_scene *s, const char *spec) {
  for (int i = 0; i < s->ntypes; ++i)
    if (strcmp(s->types[i].spec, spec) == 0) return i;
  if (s->ntypes == SCENE_MAX_TYPES) {
    set_error(s, "too many agent types (%d)", SCENE_MAX_TYPES);
    return -1;
  }
  int block = -1, goal = -1;
  if (strncmp(spec, "agent:", 6) == 0) {
    block = goap_file_find_agent_type(s->file, spec + 6);
    if (block < 0) {
      set_error(s, "the file has no agent type '%s'", spec + 6);
      return -1;
    }
  } else if (strncmp(spec, "goal:", 5) == 0) {
    goal = goap_domain_find_goal(s->d, spec + 5);
    if (goal < 0) {
      set_error(s, "the file has no goal '%s'", spec + 5);
      return -1;
    }
  } else if (strncmp(spec, "scenario:", 9) == 0) {
    int k = goap_file_find_scenario(s->file, spec + 9);
    goal = k >= 0 ? goap_file_scenario(s->file, k)->goal : -1;
    if (goal < 0) {
      set_error(s, "the file has no scenario '%s' that pursues a goal", spec + 9);
      return -1;
    }
  } else if (*spec) {
    set_error(s, "bad agent type '%s' (\"\", agent:NAME, goal:NAME or scenario:NAME)", spec);
    return -1;
  }
  scene_type *t = &s->types[s->ntypes];
  memset(t, 0, sizeof *t);
  snprintf(t->spec, sizeof t->spec, "%s", spec);
  t->ab = (goap_action_binding *)calloc((size_t)(s->na ? s->na : 1), sizeof *t->ab);
  t->gb = (goap_goal_binding *)calloc((size_t)(s->ng ? s->ng : 1), sizeof *t->gb);
  if (!t->ab || !t->gb) {
    free(t->ab);
    free(t->gb);
    set_error(s, "out of memory");
    return -1;
  }
  goap_file_agent_bindings(s->file, block, t->ab, s->na, t->gb, s->ng);
  if (goal >= 0)
    for (int g = 0; g < s->ng; ++g) t->gb[g].disabled = g != goal;
  for (int a = 0; a < s->na; ++a) {
    t->ab[a].start = act_start;
    t->ab[a].tick = act_tick;
  }
  goap_agent_type_desc td;
  memset(&td, 0, sizeof td);
  td.name = block >= 0 ? goap_file_agent_type_name(s->file, block)
                       : goal >= 0 ? goap_domain_goal_name(s->d, goal) : "agent";
  td.actions = t->ab;
  td.action_count = s->na;
  td.goals = t->gb;
  td.goal_count = s->ng;
  td.search = s->search;
  td.heuristic = s->heuristic;
  td.max_nodes = s->max_nodes;
  td.expansions_per_update = s->budget;
  td.failed_goal_cooldown = 1.0;
  goap_error err;
  goap_status st = goap_agent_type_create(s->d, &td, &t->type, &err);
  if (st != GOAP_OK) {
    free(t->ab);
    free(t->gb);
    set_error(s, "agent type '%s': %s: %s", spec, goap_status_name(st), err.message);
    return -1;
  }
  return s->ntypes++;
}

SCENE_EXPORT int goap_scene_add_squad(goap_scene *s) {
  if (!s || !s->file) return -1;
  if (s->nsquads == s->squad_cap) {
    int cap = s->squad_cap ? s->squad_cap * 2 : 8;
    scene_squad *q = (scene_squad *)realloc(s->squads, (size_t)cap * sizeof *q);
    if (!q) return -1;
    s->squads = q;
    s->squad_cap = cap;
  }
  scene_squad *q = &s->squads[s->nsquads];
  goap_status st = goap_blackboard_create(NULL, &q->bb);
  if (st == GOAP_OK) st = goap_squad_create(NULL, &q->squad);
  else q->squad = NULL;
  if (st != GOAP_OK) {
    goap_blackboard_destroy(q->bb);
    goap_squad_destroy(q->squad);
    set_error(s, "out of memory");
    return -1;
  }
  for (int r = 0; r < goap_file_resource_count(s->file); ++r) {
    const char *nm = NULL;
    int cap = 0;
    goap_file_resource(s->file, r, &nm, &cap);
    goap_blackboard_add_resource(q->bb, nm, cap);
  }
  return s->nsquads++;
}

SCENE_EXPORT int goap_scene_add_agent(goap_scene *s, const char *type_spec, const char *name,
                                      const char *scenario, const char *given, int squad) {
  if (!s || !s->file) return -1;
  s->error[0] = '\0';
  if (squad < -1 || squad >= s->nsquads) {
    set_error(s, "no squad %d", squad);
    return -1;
  }
  int t = find_type(s, type_spec ? type_spec : "");
  if (t < 0) return -1;
  scene_agent *sa = (scene_agent *)calloc(1, sizeof *sa);
  if (!sa) return -1;
  sa->s = s;
  sa->type = t;
  sa->squad = squad;
  sa->plan_goal = -1;
  sa->last_status = GOAP_OK;
  snprintf(sa->name, sizeof sa->name, "%s", name ? name : "");
  sa->initial = (goap_word *)calloc(s->W ? s->W : 1, sizeof *sa->initial);
  sa->plan_start = (goap_word *)calloc(s->W ? s->W : 1, sizeof *sa->plan_start);
  if (!sa->initial || !sa->plan_start) goto fail;
  goap_state_init(s->d, sa->initial);
  if (scenario && *scenario) {
    int k = goap_file_find_scenario(s->file, scenario);
    if (k < 0) {
      set_error(s, "the file has no scenario '%s'", scenario);
      goto fail;
    }
    const goap_scenario *sc = goap_file_scenario(s->file, k);
    if (goap_state_assign(s->d, sa->initial, sc->given, sc->given_count) != GOAP_OK) {
      set_error(s, "scenario '%s': its given line leaves a variable's range", scenario);
      goto fail;
    }
  }
  if (given && *given) {
    goap_effect eff[64];
    int n = 0;
    goap_error diag;
    if (goap_parse_assignments(s->d, "given", given, eff, 64, &n, &diag) != GOAP_OK) {
      goap_error_format(&diag, s->error, sizeof s->error);
      goto fail;
    }
    if (goap_state_assign(s->d, sa->initial, eff, n) != GOAP_OK) {
      set_error(s, "given '%s' leaves a variable's range", given);
      goto fail;
    }
  }
  memcpy(sa->plan_start, sa->initial, s->W * sizeof *sa->initial);
  if (s->nagents == s->agent_cap) {
    int cap = s->agent_cap ? s->agent_cap * 2 : 64;
    scene_agent **q = (scene_agent **)realloc(s->agents, (size_t)cap * sizeof *q);
    if (!q) goto fail;
    s->agents = q;
    s->agent_cap = cap;
  }
  goap_agent_desc ad;
  memset(&ad, 0, sizeof ad);
  ad.type = s->types[t].type;
  ad.memory = sa->initial;
  ad.host = sa;
  ad.blackboard = squad >= 0 ? s->squads[squad].bb : NULL;
  /* plans depend on the start state, goal and type only (no checks, no dynamic costs) */
  ad.cache = squad >= 0 ? NULL : s->cache;
  ad.on_event = on_event;
  ad.event_user = sa;
  if (goap_agent_create(&ad, &sa->agent, NULL) != GOAP_OK) {
    set_error(s, "out of memory");
    goto fail;
  }
  if (squad >= 0 && goap_squad_add(s->squads[squad].squad, sa->agent) != GOAP_OK) {
    goap_agent_destroy(sa->agent);
    set_error(s, "cannot add %s to squad %d", sa->name, squad);
    goto fail;
  }
  s->agents[s->nagents] = sa;
  return s->nagents++;
fail:
  free(sa->initial);
  free(sa->plan_start);
  free(sa);
  return -1;
}

/* Variables whose values goap_scene_frame reports per agent (the page places agents with
 * them): comma-separated names. Returns how many, or -1 (error) on an unknown name. */
SCENE_EXPORT int goap_scene_watch(goap_scene *s, const char *names) {
  if (!s || !s->file || !names) return -1;
  s->nwatch = 0;
  char buf[512];
  snprintf(buf, sizeof buf, "%s", names);
  for (char *tok = strtok(buf, ", "); tok; tok = strtok(NULL, ", ")) {
    int v = goap_domain_find_var(s->d, tok);
    if (v < 0) {
      set_error(s, "the file has no variable '%s'", tok);
      return -1;
    }
    if (s->nwatch < SCENE_MAX_WATCH) s->watch[s->nwatch++] = v;
  }
  return s->nwatch;
}

/* ---- the world changing ------------------------------------------------------------------- */

/* Writes assignments (`bridge_out, coins = 0`) into the memory of agent `agent`, or of every
 * agent of squad `squad` (agent -1), or of every agent (both -1). Shared variables of squad
 * members reach their blackboard too (goap_agent_set writes it). Returns the number of
 * agents changed, -1 on a bad text (error set). */
SCENE_EXPORT int goap_scene_assign(goap_scene *s, int agent, int squad, const char *effects) {
  if (!s || !s->file || !effects) return -1;
  goap_effect eff[64];
  int n = 0;
  goap_error diag;
  if (goap_parse_assignments(s->d, "event", effects, eff, 64, &n, &diag) != GOAP_OK) {
    goap_error_format(&diag, s->error, sizeof s->error);
    return -1;
  }
  goap_word *tmp = (goap_word *)calloc(s->W ? s->W : 1, sizeof *tmp);
  if (!tmp) return -1;
  int changed = 0;
  for (int i = 0; i < s->nagents; ++i) {
    scene_agent *sa = s->agents[i];
    if (agent >= 0 ? i != agent : (squad >= 0 && sa->squad != squad)) continue;
    memcpy(tmp, goap_agent_memory(sa->agent), s->W * sizeof *tmp);
    /* an int pushed past its range is clamped: events are the world's, not a plan's */
    for (int k = 0; k < n; ++k) {
      goap_var_info vi;
      goap_domain_var_info(s->d, eff[k].var, &vi);
      int64_t v = eff[k].value;
      if (eff[k].op == GOAP_ADD) v += goap_state_get(s->d, tmp, eff[k].var);
      if (v < vi.lo) v = vi.lo;
      if (v > vi.hi) v = vi.hi;
      goap_state_set(s->d, tmp, eff[k].var, (int32_t)v);
    }
    int any = 0;
    for (int v = 0; v < s->nv; ++v) {
      int32_t x = goap_state_get(s->d, tmp, v);
      if (x != goap_agent_get(sa->agent, v)) {
        goap_agent_set(sa->agent, v, x);
        any = 1;
      }
    }
    changed += any;
  }
  free(tmp);
  return changed;
}

/* The agent's memory back to its initial state, except the variables named in `keep`
 * (comma-separated, e.g. "loc": where it stands); it forgets its plan and failures. For a
 * villager that finished its job: a new commission. 0, or -1 on a bad index or name. */
SCENE_EXPORT int goap_scene_reset_agent(goap_scene *s, int agent, const char *keep) {
  if (!s || agent < 0 || agent >= s->nagents) return -1;
  scene_agent *sa = s->agents[agent];
  int kept[16], nk = 0;
  if (keep && *keep) {
    char buf[256];
    snprintf(buf, sizeof buf, "%s", keep);
    for (char *tok = strtok(buf, ", "); tok && nk < 16; tok = strtok(NULL, ", ")) {
      int v = goap_domain_find_var(s->d, tok);
      if (v < 0) {
        set_error(s, "the file has no variable '%s'", tok);
        return -1;
      }
      kept[nk++] = v;
    }
  }
  for (int v = 0; v < s->nv; ++v) {
    int skip = 0;
    for (int k = 0; k < nk; ++k) skip |= kept[k] == v;
    int32_t x = goap_state_get(s->d, sa->initial, v);
    if (!skip && x != goap_agent_get(sa->agent, v)) goap_agent_set(sa->agent, v, x);
  }
  goap_agent_reset(sa->agent);
  sa->flash = 0;
  return 0;
}

/* Every member of the squad back to its initial memory (shared variables included), orders
 * cleared: the skirmish starts again. */
SCENE_EXPORT int goap_scene_reset_squad(goap_scene *s, int squad) {
  if (!s || squad < 0 || squad >= s->nsquads) return -1;
  goap_squad_order(s->squads[squad].squad, GOAP_SQUAD_NONE);
  for (int i = 0; i < s->nagents; ++i) {
    if (s->agents[i]->squad != squad) continue;
    goap_agent_clear_order(s->agents[i]->agent);
    goap_scene_reset_agent(s, i, "");
  }
  return 0;
}

/* `order BEHAVIOUR` of a simulation's `at` line: get_to_cover, advance_cover, ... */
SCENE_EXPORT int goap_scene_order(goap_scene *s, int squad, const char *behavior) {
  if (!s || squad < 0 || squad >= s->nsquads || !behavior) return -1;
  int b = goap_squad_behavior_from_name(behavior);
  if (b < 0) {
    set_error(s, "unknown squad behaviour '%s'", behavior);
    return -1;
  }
  return goap_squad_order(s->squads[squad].squad, (goap_squad_behavior)b) == GOAP_OK ? 0 : -1;
}

/* ---- running ------------------------------------------------------------------------------ */

/* At most n agents search for a plan per goap_scene_update (0: no limit, the default); the
 * others that are searching (or have no goal, so will search) wait for their turn (their
 * time is kept and given to them on their next update). The turn goes round, so every agent
 * gets one. */
SCENE_EXPORT int goap_scene_planning_slots(goap_scene *s, int n) {
  if (!s || n < 0) return -1;
  s->slots = n;
  return 0;
}

/* Advances every agent by dt seconds (then every squad), within the planning slots. Returns
 * the wall milliseconds the agents' updates took (planning included), also reported by
 * goap_scene_frame. */
SCENE_EXPORT double goap_scene_update(goap_scene *s, double dt) {
  if (!s || !s->file || !(dt >= 0) || dt > 10) return -1;
  double total = 0;
  int planning = 0, used = 0, n = s->nagents;
  for (int k = 0; k < n; ++k) {
    int i = (s->next + k) % n;
    scene_agent *sa = s->agents[i];
    /* searching, or about to choose a goal and search */
    int wants = goap_agent_is_planning(sa->agent) || goap_agent_goal(sa->agent) < 0;
    if (s->slots > 0 && used >= s->slots && wants) {
      sa->pending += dt;
      ++planning;
      continue;
    }
    uint64_t before = goap_agent_get_stats(sa->agent).expanded;
    double t0 = goap_web_now_ms();
    goap_agent_update(sa->agent, dt + sa->pending);
    sa->last_update_ms = goap_web_now_ms() - t0;
    sa->pending = 0;
    total += sa->last_update_ms;
    int busy = goap_agent_is_planning(sa->agent);
    planning += busy;
    if (busy || goap_agent_get_stats(sa->agent).expanded != before) {
      ++used;
      if (s->slots > 0 && used == s->slots) s->next = (i + 1) % n; /* next turn starts after */
    }
  }
  for (int q = 0; q < s->nsquads; ++q) goap_squad_update(s->squads[q].squad);
  s->time += dt;
  s->frame_ms = total;
  s->frame_planning = planning;
  return total;
}

/* ---- views -------------------------------------------------------------------------------- */

/* The domain's names, once: {"domain","vars":[{name,type,lo,hi,default,values}],"actions":
 * [{name,cost,duration,eff:[[watch index, 1 for +=, value]]}],"goals":[{name,priority}],
 * "watch":[var ids],"scenarios":[{name,goal}],"simulations":[names]}. eff lists only the
 * effects on watched variables (the page moves agents with them). */
SCENE_EXPORT const char *goap_scene_names(goap_scene *s) {
  if (!s || !s->file) return "{}";
  sbuf *b = &s->out;
  sb_reset(b);
  sb_printf(b, "{\"domain\":");
  sb_str(b, goap_domain_name(s->d));
  sb_printf(b, ",\"vars\":[");
  for (int v = 0; v < s->nv; ++v) {
    goap_var_info vi;
    goap_domain_var_info(s->d, v, &vi);
    sb_printf(b, "%s{\"name\":", v ? "," : "");
    sb_str(b, vi.name);
    sb_printf(b, ",\"type\":\"%s\",\"lo\":%ld,\"hi\":%ld,\"default\":%ld,\"values\":[",
              vi.type == GOAP_BOOL ? "bool" : vi.type == GOAP_ENUM ? "enum" : "int",
              (long)vi.lo, (long)vi.hi, (long)vi.default_value);
    for (int k = 0; vi.type == GOAP_ENUM && k < vi.value_count; ++k) {
      if (k) sb_printf(b, ",");
      sb_str(b, goap_domain_value_name(s->d, v, k));
    }
    sb_printf(b, "]}");
  }
  sb_printf(b, "],\"actions\":[");
  for (int a = 0; a < s->na; ++a) {
    goap_file_action_info ai;
    memset(&ai, 0, sizeof ai);
    goap_file_action_info_get(s->file, a, &ai);
    double cost = goap_domain_action_cost(s->d, a);
    sb_printf(b, "%s{\"name\":", a ? "," : "");
    sb_str(b, goap_domain_action_name(s->d, a));
    sb_printf(b, ",\"cost\":");
    sb_num(b, cost);
    sb_printf(b, ",\"duration\":");
    sb_num(b, ai.duration > 0 ? ai.duration : cost * s->secs_per_cost);
    sb_printf(b, ",\"eff\":[");
    int ne = 0, first = 1;
    const goap_effect *e = goap_domain_action_eff(s->d, a, &ne);
    for (int k = 0; k < ne; ++k)
      for (int w = 0; w < s->nwatch; ++w)
        if (e[k].var == s->watch[w]) {
          sb_printf(b, "%s[%d,%d,%ld]", first ? "" : ",", w, e[k].op == GOAP_ADD,
                    (long)e[k].value);
          first = 0;
        }
    sb_printf(b, "]}");
  }
  sb_printf(b, "],\"goals\":[");
  for (int g = 0; g < s->ng; ++g) {
    sb_printf(b, "%s{\"name\":", g ? "," : "");
    sb_str(b, goap_domain_goal_name(s->d, g));
    sb_printf(b, ",\"priority\":");
    sb_num(b, goap_domain_goal_priority(s->d, g));
    sb_printf(b, "}");
  }
  sb_printf(b, "],\"watch\":[");
  for (int w = 0; w < s->nwatch; ++w) {
    if (w) sb_printf(b, ",");
    sb_printf(b, "%d", s->watch[w]);
  }
  sb_printf(b, "],\"scenarios\":[");
  for (int k = 0; k < goap_file_scenario_count(s->file); ++k) {
    const goap_scenario *sc = goap_file_scenario(s->file, k);
    sb_printf(b, "%s{\"name\":", k ? "," : "");
    sb_str(b, sc->name);
    sb_printf(b, ",\"goal\":%d}", sc->goal);
  }
  sb_printf(b, "],\"simulations\":[");
  for (int k = 0; k < goap_file_simulation_count(s->file); ++k) {
    if (k) sb_printf(b, ",");
    sb_str(b, goap_file_simulation_name(s->file, k));
  }
  sb_printf(b, "]}");
  return b->oom ? "{}" : b->p;
}

/* One line per frame: {"time","ms","planning","agents":[[goal, action, progress, planning,
 * plans, goals_done, failures, flash, idle, [watched values]], ...]}. progress: the running
 * action's elapsed / duration (0..1). */
SCENE_EXPORT const char *goap_scene_frame(goap_scene *s) {
  if (!s || !s->file) return "{}";
  sbuf *b = &s->out;
  sb_reset(b);
  sb_printf(b, "{\"time\":");
  sb_num(b, s->time);
  sb_printf(b, ",\"ms\":");
  sb_num(b, s->frame_ms);
  sb_printf(b, ",\"planning\":%d,\"agents\":[", s->frame_planning);
  for (int i = 0; i < s->nagents; ++i) {
    scene_agent *sa = s->agents[i];
    int action = goap_agent_action(sa->agent);
    double prog = action >= 0 && sa->duration > 0 ? sa->elapsed / sa->duration : 0;
    if (prog > 1) prog = 1;
    int len = 0;
    goap_agent_plan(sa->agent, &len, NULL);
    int idle = goap_agent_goal(sa->agent) < 0 && !goap_agent_is_planning(sa->agent);
    sb_printf(b, "%s[%d,%d,%.3f,%d,%u,%u,%u,%d,%d,[", i ? "," : "", goap_agent_goal(sa->agent),
              action, prog, goap_agent_is_planning(sa->agent), sa->plans, sa->goals_done,
              sa->failures, sa->flash, idle);
    for (int w = 0; w < s->nwatch; ++w)
      sb_printf(b, "%s%ld", w ? "," : "", (long)goap_agent_get(sa->agent, s->watch[w]));
    sb_printf(b, "]]");
  }
  sb_printf(b, "]}");
  return b->oom ? "{}" : b->p;
}

static const char *event_name(goap_agent_event_kind k) {
  static const char *const names[] = {"replan",       "goal",           "plan",
                                      "plan_failed",  "repair",         "action_start",
                                      "action_success", "action_failure", "action_stop",
                                      "memory",       "goal_done",      "idle",
                                      "reservation_denied"};
  return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "?";
}

/* The tree of one search, kept for the inspector: per node its parent, action, g, h and
 * when it was expanded (-1: never). Nodes past the array's end are not kept (the request's
 * node budget is the array's size, so there are none). */
typedef struct tree_node {
  int32_t parent, action, order;
  double g, h;
} tree_node;

typedef struct tree_rec {
  tree_node *nodes;
  uint32_t n, cap, order;
} tree_rec;

static void tree_event(void *user, const goap_trace_event *ev) {
  tree_rec *r = (tree_rec *)user;
  if (ev->node >= r->cap) return;
  tree_node *t = &r->nodes[ev->node];
  switch (ev->kind) {
  case GOAP_TRACE_NEW:
    t->parent = ev->parent == UINT32_MAX ? -1 : (int32_t)ev->parent;
    t->action = ev->action;
    t->g = ev->g;
    t->h = ev->h;
    t->order = -1;
    if (ev->node + 1 > r->n) r->n = ev->node + 1;
    break;
  case GOAP_TRACE_BETTER:
    t->parent = (int32_t)ev->parent;
    t->action = ev->action;
    t->g = ev->g;
    break;
  case GOAP_TRACE_EXPAND:
  case GOAP_TRACE_GOAL: t->order = (int32_t)r->order++; break;
  default: break;
  }
}

/* {"goal","search","heuristic","status","cost","plan":[actions],"expanded","nodes":[[parent,
 * action, g, h, expansion order or -1], ...],"limit"} or null when the agent has not planned. */
SCENE_EXPORT int goap_scene_last_request(goap_scene *s, int agent, goap_request *req,
                                         const char **goal, const char **name) {
  if (!s || agent < 0 || agent >= s->nagents || !req) return -1;
  scene_agent *sa = s->agents[agent];
  const goap_agent_type *t = s->types[sa->type].type;
  if (sa->plan_goal < 0 || goap_agent_type_htn(t, NULL)) return -1;
  int nw = 0;
  memset(req, 0, sizeof *req);
  req->start = sa->plan_start;
  req->want = goap_domain_goal_want(s->d, sa->plan_goal, &nw);
  req->want_count = nw;
  req->search = s->search;
  req->heuristic = s->heuristic;
  req->max_nodes = s->max_nodes;
  req->costs = goap_agent_type_costs(t, NULL);
  if (goal) *goal = goap_domain_goal_name(s->d, sa->plan_goal);
  if (name) *name = sa->name;
  return 0;
}

const goap_domain *goap_scene_domain(const goap_scene *s) { return s ? s->d : NULL; }

static void write_tree(goap_scene *s, int agent, sbuf *b) {
  const scene_agent *sa = s->agents[agent];
  tree_rec rec;
  memset(&rec, 0, sizeof rec);
  goap_planner *p = NULL;
  goap_request req;
  if (goap_scene_last_request(s, agent, &req, NULL, NULL) == 0) {
    goap_planner_desc pd;
    memset(&pd, 0, sizeof pd);
    goap_planner_create(s->d, &pd, &p); /* p stays NULL on failure: checked below */
    rec.cap = s->max_nodes; /* the agents' own budget: the same search, the same outcome */
    rec.nodes = (tree_node *)calloc(rec.cap, sizeof *rec.nodes);
  }
  if (!p || !rec.nodes) {
    goap_planner_destroy(p);
    free(rec.nodes);
    sb_printf(b, "null");
    return;
  }
  int32_t plan[256];
  goap_result res;
  memset(&res, 0, sizeof res);
  res.plan = plan;
  res.plan_capacity = 256;
  goap_planner_set_trace(p, tree_event, &rec);
  goap_plan(p, &req, &res);
  sb_printf(b, "{\"goal\":");
  sb_str(b, goap_domain_goal_name(s->d, sa->plan_goal));
  sb_printf(b, ",\"search\":\"%s\",\"heuristic\":\"%s\",\"status\":\"%s\",\"cost\":",
            goap_search_name(s->search), goap_heuristic_name(s->heuristic),
            res.status == GOAP_OK ? "found" : goap_status_name(res.status));
  sb_num(b, res.cost);
  sb_printf(b, ",\"partial\":%d,\"plan\":[", res.partial);
  for (int i = 0; i < res.plan_length && i < 256; ++i) sb_printf(b, "%s%d", i ? "," : "", plan[i]);
  sb_printf(b, "],\"expanded\":%llu,\"limit\":%d,\"nodes\":[",
            (unsigned long long)res.stats.expanded, (int)s->max_nodes);
  for (uint32_t i = 0; i < rec.n; ++i) {
    const tree_node *x = &rec.nodes[i];
    sb_printf(b, "%s[%ld,%ld,", i ? "," : "", (long)x->parent, (long)x->action);
    sb_num(b, x->g);
    sb_printf(b, ",");
    sb_num(b, x->h);
    sb_printf(b, ",%ld]", (long)x->order);
  }
  sb_printf(b, "]}");
  goap_planner_destroy(p);
  free(rec.nodes);
}

/* Everything the inspector shows about one agent (see docs/web.md); the search tree (searched
 * again, see the top of this file) only when `tree` is non-zero, else "tree":null. */
SCENE_EXPORT const char *goap_scene_inspect(goap_scene *s, int agent, int tree) {
  if (!s || !s->file || agent < 0 || agent >= s->nagents) return "null";
  scene_agent *sa = s->agents[agent];
  const goap_agent_type *t = s->types[sa->type].type;
  const goap_goal_binding *gb = s->types[sa->type].gb;
  const goap_word *mem = goap_agent_memory(sa->agent);
  sbuf *b = &s->out;
  sb_reset(b);
  sb_printf(b, "{\"index\":%d,\"name\":", agent);
  sb_str(b, sa->name);
  sb_printf(b, ",\"type\":");
  sb_str(b, goap_agent_type_name(t));
  sb_printf(b, ",\"squad\":%d,\"time\":", sa->squad);
  sb_num(b, goap_agent_time(sa->agent));
  int goal = goap_agent_goal(sa->agent), ordered = goap_agent_ordered_goal(sa->agent);
  sb_printf(b, ",\"goal\":%d,\"ordered\":%d,\"planning\":%d,\"ranking\":[", goal, ordered,
            goap_agent_is_planning(sa->agent));
  /* goals by the priority the agent ranks them with; disabled ones last */
  int order[256], n = 0;
  for (int g = 0; g < s->ng && n < 256; ++g) order[n++] = g;
  for (int i = 1; i < n; ++i) {
    int g = order[i], j = i;
    double pg = goap_domain_goal_priority(s->d, g);
    while (j > 0) {
      int h = order[j - 1];
      double ph = goap_domain_goal_priority(s->d, h);
      int before = (gb[g].disabled < gb[h].disabled) ||
                   (gb[g].disabled == gb[h].disabled && ((g == ordered) > (h == ordered) ||
                   ((g == ordered) == (h == ordered) && pg > ph)));
      if (!before) break;
      order[j] = h;
      --j;
    }
    order[j] = g;
  }
  for (int i = 0; i < n; ++i) {
    int g = order[i], nwant = 0;
    goap_file_goal_info gi;
    memset(&gi, 0, sizeof gi);
    goap_file_goal_info_get(s->file, g, &gi);
    const goap_cond *want = goap_domain_goal_want(s->d, g, &nwant);
    sb_printf(b, "%s{\"goal\":%d,\"name\":", i ? "," : "", g);
    sb_str(b, goap_domain_goal_name(s->d, g));
    sb_printf(b, ",\"priority\":");
    sb_num(b, goap_domain_goal_priority(s->d, g));
    sb_printf(b, ",\"enabled\":%d,\"ordered\":%d,\"valid\":%d,\"met\":%d,\"current\":%d}",
              !gb[g].disabled, g == ordered,
              goap_state_satisfies(s->d, mem, gi.valid, gi.valid_count),
              goap_state_satisfies(s->d, mem, want, nwant), g == goal);
  }
  int len = 0, step = 0;
  const int32_t *plan = goap_agent_plan(sa->agent, &len, &step);
  sb_printf(b, "],\"plan\":[");
  for (int i = 0; plan && i < len; ++i) sb_printf(b, "%s%d", i ? "," : "", plan[i]);
  sb_printf(b, "],\"step\":%d,\"cost\":", step);
  sb_num(b, goap_agent_plan_cost(sa->agent));
  sb_printf(b, ",\"action\":%d,\"elapsed\":", goap_agent_action(sa->agent));
  sb_num(b, sa->elapsed);
  sb_printf(b, ",\"duration\":");
  sb_num(b, sa->duration);
  sb_printf(b, ",\"memory\":[");
  for (int v = 0; v < s->nv; ++v) {
    goap_var_info vi;
    goap_domain_var_info(s->d, v, &vi);
    int32_t x = goap_state_get(s->d, mem, v);
    sb_printf(b, "%s[%d,%ld,%d]", v ? "," : "", v, (long)x, x != vi.default_value);
  }
  sb_printf(b, "],\"last_replan\":{\"reason\":\"%s\",\"time\":",
            goap_replan_reason_name(sa->last_reason));
  sb_num(b, sa->last_reason_time);
  sb_printf(b, ",\"status\":\"%s\"},\"stats\":", goap_status_name(sa->last_status));
  goap_agent_stats st = goap_agent_get_stats(sa->agent);
  sb_printf(b, "{\"plans\":%llu,\"plan_failures\":%llu,\"cache_hits\":%llu,\"expanded\":%llu,"
               "\"actions_failed\":%llu,\"goals_done\":%u,\"update_ms\":",
            (unsigned long long)st.plans, (unsigned long long)st.plan_failures,
            (unsigned long long)st.cache_hits, (unsigned long long)st.expanded,
            (unsigned long long)st.actions_failed, sa->goals_done);
  sb_num(b, sa->last_update_ms);
  sb_printf(b, "},\"events\":[");
  unsigned first = sa->nev > SCENE_EVENTS ? sa->nev - SCENE_EVENTS : 0;
  for (unsigned k = first; k < sa->nev; ++k) {
    const scene_event *e = &sa->ev[k % SCENE_EVENTS];
    sb_printf(b, "%s{\"t\":", k > first ? "," : "");
    sb_num(b, e->time);
    sb_printf(b, ",\"kind\":\"%s\",\"goal\":%d,\"action\":%d", event_name(e->kind), e->goal,
              e->action);
    if (e->kind == GOAP_EVENT_REPLAN)
      sb_printf(b, ",\"reason\":\"%s\"", goap_replan_reason_name((goap_replan_reason)e->reason));
    if (e->kind == GOAP_EVENT_PLAN_FAILED)
      sb_printf(b, ",\"status\":\"%s\"", goap_status_name(e->status));
    if (e->kind == GOAP_EVENT_PLAN) {
      sb_printf(b, ",\"length\":%d,\"cost\":", e->plan_length);
      sb_num(b, e->cost);
    }
    if (e->kind == GOAP_EVENT_ACTION_FAILURE && e->timeout) sb_printf(b, ",\"timeout\":1");
    sb_printf(b, "}");
  }
  sb_printf(b, "],\"plan_start\":[");
  for (int v = 0; v < s->nv; ++v)
    sb_printf(b, "%s%ld", v ? "," : "", (long)goap_state_get(s->d, sa->plan_start, v));
  sb_printf(b, "],\"tree\":");
  if (tree) write_tree(s, agent, b);
  else sb_printf(b, "null");
  sb_printf(b, "}");
  return b->oom ? "null" : b->p;
}

SCENE_EXPORT int goap_scene_agent_count(const goap_scene *s) { return s ? s->nagents : 0; }
SCENE_EXPORT double goap_scene_time(const goap_scene *s) { return s ? s->time : 0; }
