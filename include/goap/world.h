/*
 * world.h -- libgoap runtime: a scheduler that updates many agents per frame under one
 * planning budget (library goap_runtime).
 *
 * A goap_world holds agents (goap_agent of agent.h; not owned) and updates them all with
 * goap_world_update(world, dt, expansions):
 *  - one planning budget per frame, in node expansions, for all agents together: the agents
 *    that need to plan are served by priority (goap_world_add / goap_world_set_priority), then
 *    by how many frames they have waited, then by the order they were added. The budget
 *    reaches the first budget / 8 of them; it is split evenly between them into their lanes'
 *    pools, from which each, in that order, takes at most its share (desc.agent_share, and at
 *    most its type's expansions_per_update), so what one leaves goes to the next of its lane.
 *    Beginning a search counts as 8 expansions (at most a quarter of the frame's budget):
 *    the planner's setup, the plan's reconstruction and the cache store cost about that much,
 *    so a frame where many searches begin stays within its budget too; an agent begins a
 *    search only when its lane's pool still holds that cost. Statistics count expansions only.
 *    Agents left without budget wait (their goal
 *    selection resumes on a later frame, and a plan cache still serves them); nothing else of
 *    their update is skipped. A frame's
 *    cost is bounded by the budget instead of by how many agents happen to replan at once.
 *  - start-phase jitter: each agent gets a phase in [0, 1) from the world's seed and the order
 *    it was added (golden-ratio steps from a seeded offset, so that a timer fires for nearly the
 *    same number of agents every frame, not randomly more on some); its goal checks
 *    (goal_check_interval) and sensors fire on their own phase (jitter * interval past a
 *    multiple of the interval) instead of on the frames counted from the frame they were
 *    created on. Deterministic.
 *  - pacing (goap_world_set_pacing, off by default): a frame spends at most a multiple of the
 *    recent mean spending, so that bursts of searches spread over the next frames.
 *  - planners per lane: searches run on planners the world keeps per lane and domain (an
 *    agent in a world never creates its own). A search that needs more than one frame keeps
 *    its planner (leased to the agent until the search ends) and continues where it stopped:
 *    no restart. After warm-up (the most searches ever paused at once), no planner is created.
 *  - lanes: agents are spread over `lanes`; a lane's agents are updated in one sequence (by
 *    one thread), lanes possibly in parallel through desc.parallel (the engine's job system,
 *    or a thread pool). Agents that share a blackboard or a plan cache must be in one lane
 *    (goap_world_add refuses otherwise). The budget is divided between lanes before any runs,
 *    and what an agent leaves unused goes to the next agents of its lane, so results (plans,
 *    events, memory) do not depend on how many threads run the lanes or in which order: with
 *    the same lanes, one thread and eight give identical results.
 *
 * Save games and replays (save.h, replay.h): a world is not saved; after restoring its agents,
 * create a world with the same desc and add them again in the same order, lanes and
 * priorities. An agent in a world is recorded like any other, but a replay updates it with
 * goap_agent_update: it replays exactly when the world had no_jitter and no common budget.
 *
 * Each frame: (1) per lane, in the order added, every agent's first half of the update (time,
 * sensors, blackboard, interrupt checks), and for those that need not plan the rest of it (their
 * action); (2) on the calling thread, the budget is handed out to the agents that need to plan
 * (priority, waiting, order); (3) per lane, those agents select and plan (in that order) and
 * run their action.
 *
 * Threads: goap_world_* calls come from one thread (the game thread). With desc.parallel set,
 * lanes run on the threads it uses: callbacks of agents in different lanes then run
 * concurrently, and the allocators of the world and of the agents must be thread-safe (the C
 * library's is). An agent in a world is updated only by goap_world_update (not
 * goap_agent_update) and must be removed (goap_world_remove) before it is destroyed. HTN
 * agents plan within their update as usual (goap_agent_type_desc.htn); the steps they take
 * count against their lane's budget.
 *
 * Allocation: add, remove and the first frames after them allocate (lane lists, planners and
 * their pools); a warm world with a plan cache updates without allocating.
 */
#ifndef GOAP_WORLD_H
#define GOAP_WORLD_H

#include "agent.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct goap_world goap_world;

/* Runs job(ctx, i) once for every i in [0, count), in any order and on any threads, and
 * returns when all have returned. */
typedef void (*goap_world_job_fn)(void *ctx, int index);
typedef void (*goap_world_parallel_fn)(void *user, goap_world_job_fn job, void *ctx, int count);

typedef struct goap_world_desc {
  goap_allocator allocator;        /* zero: the C library; for the world and its planners */
  int lanes;                       /* 0: 1; at most 1024 */
  goap_world_parallel_fn parallel; /* NULL: lanes run one after another on the caller */
  void *parallel_user;
  uint64_t seed;                   /* the phases of the agents' timers */
  int no_jitter;                   /* non-zero: timers run from the frame they were set on */
  uint32_t initial_nodes;          /* the first pool of each planner; 0: 256 */
  uint32_t agent_share;            /* under a common budget, the most expansions one agent
                                      may spend in a frame (less if its type's budget is
                                      less); 0: 512 */
} goap_world_desc;

/* desc may be NULL (defaults). GOAP_OK, GOAP_INVALID_ARGUMENT (out NULL, lanes < 0 or > 1024),
 * GOAP_OUT_OF_MEMORY. *out is NULL on failure. */
GOAP_API goap_status goap_world_create(const goap_world_desc *desc, goap_world **out);
/* Releases the agents (they can be updated with goap_agent_update again; a search running on
 * a planner of the world starts again) and frees the planners. NULL does nothing. */
GOAP_API void goap_world_destroy(goap_world *w);

/* Adds an agent to lane `lane` with a planning priority (higher first; e.g. distance to the
 * camera). Its timers take their phase now. GOAP_OK; GOAP_DUPLICATE when it is in the world;
 * GOAP_INVALID_OPERATION when it is in another world (an agent belongs to one world at most);
 * GOAP_INVALID_ARGUMENT for NULL, a bad lane, a NaN priority, or a blackboard or plan cache
 * that an agent of another lane uses; GOAP_OUT_OF_MEMORY. */
GOAP_API goap_status goap_world_add(goap_world *w, goap_agent *agent, int lane, double priority);
/* Removes an agent (its pending search, if on the world's planner, starts again when it is next
 * updated). GOAP_NOT_FOUND when it is not in the world. */
GOAP_API goap_status goap_world_remove(goap_world *w, goap_agent *agent);
GOAP_API goap_status goap_world_set_priority(goap_world *w, goap_agent *agent, double priority);
GOAP_API int goap_world_agent_count(const goap_world *w);

/* Pacing of the common budget (off by default). A budget caps a frame's planning, but searches
 * come in bursts, so frames still range from no expansion to the whole budget. With pacing, a
 * frame spends at most `percent`% of the mean that recent budgeted frames spent (a moving
 * average over about 64 frames, starting from the budget), never more than the budget nor less
 * than budget / 8; the agents beyond wait for later frames (by precedence, as when the budget
 * runs out; a plan cache still serves them), and a sustained demand raises the mean, hence the
 * allowance, by up to (percent - 100) / 64 % a frame. Frames cost about the same; replans wait
 * longer in a burst. Deterministic (integer arithmetic on the expansions spent), so lanes and
 * threads give the same results. percent: 0 (off) or 100..10000, e.g. 150. GOAP_OK;
 * GOAP_INVALID_ARGUMENT (w NULL, a percent out of range). Takes effect from the next
 * goap_world_update. Not thread-safe (the game thread, like every goap_world_* call). */
GOAP_API goap_status goap_world_set_pacing(goap_world *w, uint32_t percent);

/* Updates every agent by dt seconds (>= 0, finite) with at most `expansions` node expansions of
 * planning for all of them together (0: no common limit, each agent its type's budget).
 * Returns GOAP_OK, GOAP_INVALID_ARGUMENT (w NULL, a bad dt), or the first GOAP_OUT_OF_MEMORY /
 * GOAP_INVALID_ARGUMENT an agent's update returned (by lane, then order; the others were still
 * updated). An agent's own outcome (planning, idle) is read from the agent. */
GOAP_API goap_status goap_world_update(goap_world *w, double dt, uint64_t expansions);

typedef struct goap_world_stats {
  uint64_t frames;
  uint64_t expansions;             /* last frame: spent by all agents */
  int wanting;                     /* last frame: agents that needed to plan */
  int served;                      /* ... and were given budget */
  int max_wait;                    /* frames the longest-waiting agent has waited */
  int planners;                    /* planners the world holds (all lanes) */
  int leased;                      /* ... of which hold a paused search */
} goap_world_stats;
GOAP_API goap_world_stats goap_world_get_stats(const goap_world *w);

#ifdef __cplusplus
}
#endif

#endif /* GOAP_WORLD_H */
