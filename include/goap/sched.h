/*
 * goap/sched.h -- planning for many agents: a scheduler with a pool of worker threads.
 *
 * A layer above the core (goap.h), in its own library `goap_sched` (links goap and pthreads).
 *
 * The game thread submits requests (goap_sched_submit), opens frames with a budget
 * (goap_sched_frame) and collects finished plans (goap_sched_collect); worker threads plan in
 * the background, each with its own goap_planner per domain it has seen. None of the
 * game-thread calls waits for planning: they take one internal mutex for a few list
 * operations, never while a search runs (goap_sched_wait and goap_sched_destroy are the only
 * calls that block, and say so).
 *
 * Determinism: every result (status, cost, plan, partial flag, expansions) is the one a
 * single-threaded goap_plan call on a fresh or reused planner gives for the same request; only
 * stats.time_us differs. Results come back in completion order, which with threads is not the
 * submission order: match them by ticket or tag. A request with a time budget (max_ms) is, as
 * in goap_plan, only as deterministic as the clock.
 *
 * With threads < 0 (GOAP_SCHED_INLINE) there are no workers: goap_sched_frame plans on the
 * caller's thread within the frame's budget (for deterministic tests and single-core targets).
 *
 * Ownership: the scheduler copies each request (start state and wanted conditions) at submit
 * and owns the plans it returns. Every domain passed to submit must outlive the scheduler
 * (workers keep a planner per domain until destroy). Host callbacks of the domain's actions
 * are called on a worker thread (or, inline, in goap_sched_frame) with the request's `host`.
 *
 * Allocation: everything goes through desc.allocator, which the scheduler serialises with its
 * own mutex, so the allocator need not be thread-safe. After warm-up (the largest request and
 * plan sizes seen once per worker and per slot) submit, frame, collect and the workers do not
 * allocate: the request slots are sized at creation.
 */
#ifndef GOAP_SCHED_H
#define GOAP_SCHED_H

#include "goap.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct goap_sched goap_sched;

/* Identifies one submitted request; never 0 for a valid request. A ticket stays unique for
 * the life of the scheduler (a slot's generation is part of it), so a stale ticket is
 * recognised and refused. */
typedef uint64_t goap_sched_ticket;

/* threads: no worker threads; goap_sched_frame plans on the caller's thread. */
#define GOAP_SCHED_INLINE (-1)

typedef struct goap_sched_desc {
  goap_allocator allocator;    /* zero: the C library. Called under the scheduler's mutex. */
  int threads;                 /* worker threads; 0: one less than the online processors,
                                  at least 1, at most 8; GOAP_SCHED_INLINE: none; at most 64 */
  uint32_t queue_capacity;     /* requests submitted and not yet collected (or cancelled);
                                  0: 1024; at most 1,048,576 */
  goap_planner_desc planner;   /* for every planner the workers create; its allocator field is
                                  ignored (desc.allocator is used) */
  uint32_t slice_expansions;   /* expansions a worker runs between looks at the frame budget
                                  and at cancellation; 0: 256 */
  uint32_t state_words_hint;   /* per-slot room reserved at creation; larger requests grow
                                  their slot once. 0: 4 words */
  uint32_t want_hint;          /* 0: 8 conditions */
  uint32_t plan_hint;          /* 0: 32 actions */
} goap_sched_desc;

/* Creates a scheduler and starts its workers. desc may be NULL (all defaults). Returns
 * GOAP_OK, GOAP_INVALID_ARGUMENT (out NULL, threads < -1 or > 64, queue_capacity too large),
 * GOAP_OUT_OF_MEMORY, or GOAP_INVALID_OPERATION when a thread could not be started (then
 * nothing is leaked). *out is NULL on failure. Thread-safe (creates a new object). Until the
 * first goap_sched_frame call the budget is unlimited: threaded workers plan whatever is
 * submitted; inline schedulers plan only inside goap_sched_frame / goap_sched_wait. */
GOAP_API goap_status goap_sched_create(const goap_sched_desc *desc, goap_sched **out);

/* Stops the workers (each finishes at most its current slice; pending requests are dropped)
 * and joins them, then frees everything, including plans returned by collect. Blocks for at
 * most one slice per worker. NULL does nothing. Not to be called concurrently with any other
 * function on s. */
GOAP_API void goap_sched_destroy(goap_sched *s);

/* Queues a request on domain d. The request is copied (start state -- NULL means the domain's
 * default state --, want conditions, search options, limits, host): req and its arrays may be
 * freed when this returns. `tag` is returned with the result. *ticket (may be NULL) receives
 * the request's ticket. Returns GOAP_OK, GOAP_INVALID_ARGUMENT (s, d or req NULL, want_count
 * < 0, want NULL with a positive count), GOAP_TOO_LARGE (queue full: queue_capacity requests
 * are queued, running or finished but not collected), GOAP_OUT_OF_MEMORY (growing a slot
 * for a request larger than the hints). Options the planner checks (ids, weights, limits) are
 * checked when planning: such a request finishes with GOAP_INVALID_ARGUMENT, as goap_plan
 * would. Call from one thread at a time (the game thread); safe against the workers. */
GOAP_API goap_status goap_sched_submit(goap_sched *s, const goap_domain *d,
                                       const goap_request *req, void *tag,
                                       goap_sched_ticket *ticket);

/* A per-frame budget: what all workers together (or the inline planner) may spend between two
 * goap_sched_frame calls. Zero fields mean no limit. */
typedef struct goap_sched_budget {
  uint64_t expansions;         /* node expansions, summed over the workers */
  double ms;                   /* wall-clock milliseconds from the goap_sched_frame call */
} goap_sched_budget;

/* Opens a frame with a new budget (NULL: unlimited), replacing what is left of the last one.
 * Threaded: wakes the workers and returns at once. Workers take expansions from the budget a
 * slice at a time and give back what they do not use, so together they never spend more than
 * `expansions`; they look at the clock between slices, so each may run one slice past `ms`.
 * When the budget is spent or its time has passed they pause, keeping their unfinished
 * searches for the next frame. Inline: plans the queued requests in submission order on the
 * caller's thread until the budget is spent or nothing is left (an unlimited budget plans
 * everything); the expansion budget is then exact. ms above 1e9 is taken as 1e9. Returns
 * GOAP_OK or GOAP_INVALID_ARGUMENT (s NULL, a negative or non-finite ms). Call from the game
 * thread. */
GOAP_API goap_status goap_sched_frame(goap_sched *s, const goap_sched_budget *budget);

typedef struct goap_sched_result {
  goap_sched_ticket ticket;
  void *tag;                   /* as given to submit */
  goap_status status;          /* as goap_plan's (GOAP_OUT_OF_MEMORY also when a worker could
                                  not create its planner for the domain or grow the plan) */
  double cost;
  const int32_t *plan;         /* plan_length action ids, owned by the scheduler: valid until
                                  the next goap_sched_collect or goap_sched_destroy on s */
  int plan_length;
  int partial;                 /* as goap_result.partial */
  goap_stats stats;            /* the search's statistics (time_us: planning time only) */
} goap_sched_result;

/* Moves up to cap finished results into out (in completion order) and returns how many were
 * written (0 when none is ready; -1 when s is NULL, or out is NULL with cap > 0). It first
 * releases the results returned by the previous collect call (their plan pointers become
 * invalid). Never waits for planning. Call from the game thread. */
GOAP_API int goap_sched_collect(goap_sched *s, goap_sched_result *out, int cap);

/* Cancels a request: it will not be returned by collect, and its slot is freed (at once when
 * queued or finished; by its worker within one slice when running). Returns GOAP_OK, or
 * GOAP_NOT_FOUND for a ticket that is unknown, already collected or already cancelled;
 * GOAP_INVALID_ARGUMENT when s is NULL. Call from the game thread. */
GOAP_API goap_status goap_sched_cancel(goap_sched *s, goap_sched_ticket ticket);

/* Where a request is: GOAP_IN_PROGRESS (queued or running, possibly paused by the budget),
 * GOAP_OK (finished: the next goap_sched_collect returns it), GOAP_NOT_FOUND (unknown,
 * cancelled or already collected), GOAP_INVALID_ARGUMENT (s NULL). Call from any thread
 * (takes the mutex briefly). */
GOAP_API goap_status goap_sched_ticket_status(goap_sched *s, goap_sched_ticket ticket);

/* Counts, for monitoring and tests. Call from any thread (takes the mutex briefly). */
typedef struct goap_sched_info {
  int threads;                 /* worker threads (0 inline) */
  uint32_t capacity;           /* queue_capacity */
  uint32_t queued;             /* submitted, not started */
  uint32_t running;            /* taken by a worker (possibly paused by the budget) */
  uint32_t finished;           /* waiting to be collected */
  uint64_t budget_left;        /* expansions left in this frame (UINT64_MAX: unlimited) */
  uint64_t expansions;         /* node expansions since creation, all workers */
  uint64_t completed;          /* requests finished since creation (cancelled ones excluded) */
} goap_sched_info;
GOAP_API goap_status goap_sched_get_info(goap_sched *s, goap_sched_info *out);

/* Blocks until no request is queued or running, or max_ms passed (0: no time limit; with a
 * limited frame budget pass a time limit, as paused work never finishes). For
 * tools, tests and loading screens, not for a game loop. Threaded: waits on the workers (which
 * obey the frame budget, so a spent budget makes it time out). Inline: plans on the caller's
 * thread, ignoring the frame budget. Returns GOAP_OK when idle, GOAP_TIME_LIMIT, or
 * GOAP_INVALID_ARGUMENT. Call from the game thread. */
GOAP_API goap_status goap_sched_wait(goap_sched *s, double max_ms);

/* ------------------------------------------------------------------------------------------
 * goap_workers: a fixed pool of threads running a parallel-for -- ready for
 * goap_world_desc.parallel (goap/world.h) when the engine has no job system:
 *   goap_workers_create(1, NULL, &pool);          // the caller plus 1 worker: 2 threads
 *   wd.parallel = goap_workers_run; wd.parallel_user = pool;
 * ---------------------------------------------------------------------------------------- */
typedef struct goap_workers goap_workers;
/* Starts `threads` workers (0..64; 0: goap_workers_run runs everything on the caller). alloc
 * may be NULL (the C library); used only here and in destroy. GOAP_OK, GOAP_INVALID_ARGUMENT,
 * GOAP_OUT_OF_MEMORY, GOAP_INVALID_OPERATION (a thread could not be started; nothing leaks). */
GOAP_API goap_status goap_workers_create(int threads, const goap_allocator *alloc,
                                         goap_workers **out);
/* Stops and joins the workers (none may be running a job). NULL does nothing. */
GOAP_API void goap_workers_destroy(goap_workers *w);
GOAP_API int goap_workers_count(const goap_workers *w);
/* Runs job(ctx, i) for every i in [0, count) on the caller and the workers, each index exactly
 * once, and returns when all have returned. `workers` is a goap_workers * (void * so that it is
 * a goap_world_parallel_fn; NULL runs everything on the caller). Allocates nothing. One call at
 * a time per pool (from one thread). */
GOAP_API void goap_workers_run(void *workers, void (*job)(void *ctx, int index), void *ctx,
                               int count);

#ifdef __cplusplus
}
#endif

#endif /* GOAP_SCHED_H */
