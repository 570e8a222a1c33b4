/*
 * replay.h -- libgoap runtime: deterministic replays. A recorder writes every input that
 * reaches the agents attached to it into a compact binary log; a replayer feeds the log back
 * to agents created the same way, standing in for the host, and checks that they decide the
 * same things, reporting the first divergence (frame, agent, expected and got).
 *
 * The inputs recorded, per agent, in the order they happen:
 *  - the host's calls: goap_agent_update's dt, goap_agent_set, goap_agent_order,
 *    goap_agent_clear_order, goap_agent_replan, goap_agent_reset (a squad's orders too);
 *  - the results of the type's callbacks: action start / tick (running, success, failure) /
 *    stop, procedural preconditions (goap_action_binding.check), dynamic goal priorities,
 *    sensors (through the goap_agent_set calls they make);
 *  - the answers of the domain's own callbacks (goap_action_desc.check and .dynamic_cost):
 *    while recording or replaying, an agent asks them once per search for every action it
 *    may use (the planner alone asks only about the actions the search reaches) and searches
 *    with GOAP_REQUEST_NO_CALLBACKS on the answers;
 *  - the values the agent reads from its blackboard (the host's and the other agents' writes)
 *    and the answers to its reservations;
 *  - the agent's decisions, which the replay checks: its replans (and why), goals chosen,
 *    plans adopted (goal, cost, steps), goals it could not plan, plan repairs, goals achieved,
 *    idling, refused reservations. (The other events -- an action started, succeeded, failed,
 *    was stopped, memory written -- follow from those and the inputs.)
 * Not recorded: the callbacks of the `achieve` searches of HTN agents (goap/htn.h) and of HTN
 * methods; an HTN domain with them replays only if they answer the same. Nor positional costs
 * (goap_builder_set_state_cost): pure ones (a file's distances) depend on the state alone; a
 * host one counts its min_cost in searches made with NO_CALLBACKS (above), else it is asked
 * live and must answer the same (docs/api.md, "Positional costs").
 *
 * The log: a header (magic "GOAPRPL", format version, two hashes of the domain, a label) and
 * chunks of records (each with its length and a checksum), ending with an end record.
 * Numbers are varints, values zigzag varints, repeated dt values one byte. A log whose domain
 * has other variables, actions or goals (by name, type and count) is refused; one whose costs,
 * conditions, effects or priorities changed replays (goap_replayer_domain_changed says so) and
 * reports where the decisions first differ -- how a designer sees what a balance change did.
 * Version policy: a reader refuses a log of another format version with a clear message.
 *
 * Threads: a recorder or replayer and the agents attached to it are used from one thread at a
 * time. Allocation goes through the allocator given; nothing is printed.
 */
#ifndef GOAP_REPLAY_H
#define GOAP_REPLAY_H

#include "agent.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GOAP_REPLAY_FORMAT_VERSION 1

typedef struct goap_recorder goap_recorder;
typedef struct goap_replayer goap_replayer;

/* Receives the log, in order, a chunk at a time (and the header first). Returns 0 when the
 * bytes were written; non-zero makes the recorder fail with GOAP_IO_ERROR. */
typedef int (*goap_replay_sink_fn)(void *user, const void *data, size_t size);

typedef struct goap_recorder_desc {
  goap_allocator allocator;      /* zero: the C library */
  const goap_domain *domain;     /* required: the agents' domain (its hashes go in the header) */
  goap_replay_sink_fn sink;      /* required */
  void *sink_user;
  const char *label;             /* optional text stored in the header (at most 255 bytes),
                                    e.g. the simulation's name; copied */
  size_t chunk_size;             /* bytes buffered before a chunk goes to the sink; 0: 4096 */
} goap_recorder_desc;

/* Creates a recorder and writes the header to the sink. GOAP_INVALID_ARGUMENT (NULL desc,
 * domain, sink or out; a label over 255 bytes), GOAP_OUT_OF_MEMORY, GOAP_IO_ERROR. */
GOAP_API goap_status goap_recorder_create(const goap_recorder_desc *desc, goap_recorder **out);
/* Detaches its agents (they stop recording) and frees it; does not finish the log. NULL does
 * nothing. */
GOAP_API void goap_recorder_destroy(goap_recorder *rec);
/* Records agent a from now on; its index in the log is the number of agents attached before
 * it. Attach agents right after creating them, in the order the replay will attach them.
 * GOAP_INVALID_ARGUMENT (NULL, another domain, or a's already recording or replaying),
 * GOAP_OUT_OF_MEMORY. The agent's destruction detaches it. */
GOAP_API goap_status goap_recorder_attach(goap_recorder *rec, goap_agent *a);
/* Marks the start of a frame of the host (divergences are reported by frame: the number of
 * marks before them, counted from 0). Optional. */
GOAP_API void goap_recorder_frame(goap_recorder *rec);
/* Stores host bytes in the stream (at most 65,535), handed back to the replayer's on_note at
 * the same point of the replay: e.g. what the host draws or prints that the agents do not
 * report. GOAP_INVALID_ARGUMENT for a NULL data with a non-zero size or a size too big. */
GOAP_API goap_status goap_recorder_note(goap_recorder *rec, const void *data, size_t size);
/* Writes the end record and flushes the last chunk; the recorder records nothing after it.
 * Returns the recorder's status (below). */
GOAP_API goap_status goap_recorder_finish(goap_recorder *rec);
/* GOAP_OK, or the first failure (GOAP_OUT_OF_MEMORY, GOAP_IO_ERROR from the sink): after one,
 * nothing more is recorded. GOAP_INVALID_ARGUMENT for NULL. */
GOAP_API goap_status goap_recorder_status(const goap_recorder *rec);
/* Bytes given to the sink so far. */
GOAP_API uint64_t goap_recorder_bytes(const goap_recorder *rec);

typedef void (*goap_replay_note_fn)(void *user, const void *data, size_t size);

typedef struct goap_replayer_desc {
  goap_allocator allocator;      /* zero: the C library */
  const goap_domain *domain;     /* required: the domain to replay over */
  const void *log;               /* required: the whole log; borrowed during create only */
  size_t size;
  goap_replay_note_fn on_note;   /* optional: receives goap_recorder_note's bytes */
  void *note_user;
} goap_replayer_desc;

/* Reads and checks the whole log (structure, checksums, ids against the domain) before
 * anything runs. GOAP_OK; GOAP_PARSE_ERROR for a log that is not one, truncated or corrupted,
 * or of another format version; GOAP_CONFLICT for a log of a domain with other variables,
 * actions or goals; GOAP_INVALID_ARGUMENT (also for desc or out NULL), GOAP_OUT_OF_MEMORY;
 * *out is NULL on any failure. err (may be NULL) follows goap/goap.h: on failure
 * err->message says what ("replay log: truncated (a chunk ends past the end of the data)")
 * and err->offset the byte offset in the log where the problem was found (no line or
 * file). */
GOAP_API goap_status goap_replayer_create(const goap_replayer_desc *desc, goap_replayer **out,
                                          goap_error *err);
/* Sets (or replaces) the receiver of goap_recorder_note's bytes. */
GOAP_API void goap_replayer_on_note(goap_replayer *rp, goap_replay_note_fn fn, void *user);
/* Detaches its agents and frees it. NULL does nothing. */
GOAP_API void goap_replayer_destroy(goap_replayer *rp);
/* The header's label (never NULL; "" when none). */
GOAP_API const char *goap_replayer_label(const goap_replayer *rp);
/* 1 when the domain's costs, conditions, effects or priorities differ from the recording's. */
GOAP_API int goap_replayer_domain_changed(const goap_replayer *rp);
/* The number of agents the log records. */
GOAP_API int goap_replayer_agent_count(const goap_replayer *rp);
/* Gives the next agent of the log to the replay: created as the recorded one was (same type
 * bindings -- callbacks included, which the replay does not call --, initial memory,
 * blackboard, event callback), never updated yet. From now on its callbacks are not called:
 * their recorded results are used. GOAP_INVALID_ARGUMENT (NULL, another domain, already
 * attached somewhere, or more agents than the log has), GOAP_OUT_OF_MEMORY. */
GOAP_API goap_status goap_replayer_attach(goap_replayer *rp, goap_agent *a);
/* Replays up to the next frame mark (or the end): GOAP_IN_PROGRESS when more frames follow,
 * GOAP_OK at the end of the log, GOAP_CONFLICT when the replay diverged (see below; the agent
 * that diverged finishes its update with neutral answers -- actions keep running, checks
 * pass -- and nothing more is replayed), GOAP_INVALID_OPERATION when not every agent of the
 * log is attached. The agents' events are reported to their on_event as they happen, up to
 * the one that differs. */
GOAP_API goap_status goap_replayer_step(goap_replayer *rp);
/* Steps until the end or a divergence: GOAP_OK, GOAP_CONFLICT or GOAP_INVALID_OPERATION. */
GOAP_API goap_status goap_replayer_run(goap_replayer *rp);
/* Frames replayed so far (frame marks passed). */
GOAP_API uint64_t goap_replayer_frame(const goap_replayer *rp);

typedef struct goap_replay_divergence {
  uint64_t frame;                /* the frame (marks before it, from 0) */
  int agent;                     /* the agent's index in the log */
  double time;                   /* the agent's time */
  uint64_t update;               /* the agent's update (goap_agent_stats.updates) */
  void *host;                    /* the agent's goap_agent_host (NULL: unknown) */
  char expected[160];            /* what the log says: "plan for kill_enemy (cost 4): ..." */
  char got[160];                 /* what the agent did instead */
} goap_replay_divergence;

/* 1 and *out filled when the replay diverged; 0 otherwise (out untouched). */
GOAP_API int goap_replayer_divergence(const goap_replayer *rp, goap_replay_divergence *out);

#ifdef __cplusplus
}
#endif

#endif /* GOAP_REPLAY_H */
