/*
 * save.h -- libgoap runtime: save games. Snapshots of agents, blackboards and squads into a
 * caller's buffer, and their restoration into freshly created objects (library goap_runtime).
 *
 * What a snapshot holds: the whole runtime state that decides what the object does next.
 *  - An agent: its memory (and what it last noticed of it, so a change made by the host after
 *    its last update still interrupts it after the restore), its time, the goal and its
 *    priority, the plan, its step and cost, whether the step's action has started and for how
 *    long it has run, the goal-selection state (phase, replan reason, the candidate goals being
 *    tried, the actions left out of this round by a procedural check or a refused
 *    reservation), an unfinished time-sliced search (its start state and how far it got: the
 *    restore runs it again to the same point, so it ends on the same update), the failure
 *    memory of goals that could not be planned (when, and in which memory), the goal-check,
 *    idle-retry and sensor timers, the squad order, the reservations it holds, its statistics
 *    (goap_agent_get_stats, except memory_bytes), and for an HTN agent the method traversal
 *    record of the running plan and, when that plan ends at a `pause`, the continuation its
 *    HTN planner keeps (goap_htn_continuation): the restored agent resumes the pause as the
 *    saved one would have.
 *  - A blackboard: every slot (name, value), every resource (name, capacity, units held) and
 *    its version counter. Who holds the units (goap_blackboard_holders) is not in it: each
 *    agent's snapshot has the reservations it holds, and restoring the agent makes it the
 *    holder of those units again (until then a restored unit's holder is NULL; holders are
 *    listed in the order the agents were restored).
 *  - A squad: its behaviour, the phase of ADVANCE_COVER / ORDERLY_ADVANCE and the order it gave
 *    each member (the members themselves are the caller's agents, passed to the restore).
 * Not state, not saved: the plan cache (goap_plan_cache; it only saves searches, a plan it
 * gives is the plan the search finds -- an agent restored with an empty cache takes the same
 * decisions, with `cached` 0 where the saved run had a hit), the planners' memory pools, the
 * host pointer, callbacks and allocators (given again when the objects are created), and the
 * host's own state (e.g. what a running action's tick callback counts: the game saves it).
 *
 * Restoring, in this order: create the blackboard and restore it; create the agents of the
 * same types (desc.blackboard set to it, no memory needed) and restore each; create the squad,
 * and restore it with its members in the saved order. Every restore goes into a freshly made
 * object (an agent never updated, a blackboard no agent is attached to, a squad without
 * members): GOAP_INVALID_OPERATION otherwise. An agent's reservations must be units of the
 * restored blackboard that no restored agent holds yet (GOAP_INVALID_OPERATION otherwise).
 * A goap_world (world.h) is the host's: it is not saved, and an agent's snapshot has nothing
 * of it. Add restored agents to a world again (same lane, priority and order of adding, a
 * world of the same seed: their timers keep their phases).
 *
 * The binary format (GOAP_SNAPSHOT_VERSION), little-endian whatever the machine:
 *   offset 0  4 bytes  magic "GOAP"
 *          4  1 byte   kind: 'A' agent, 'B' blackboard, 'S' squad
 *          5  1 byte   0
 *          6  u16      format version
 *          8  u32      payload size in bytes (the snapshot is 24 + this)
 *         12  u32      checksum: FNV-1a (32-bit) of bytes 0..12, 16..24 and the payload
 *         16  u64      fingerprint: goap_agent_type_fingerprint of the agent's type; for a
 *                      squad, of its goal names and order priority; 0 for a blackboard
 *         24  payload  LEB128 integers (signed ones zigzag-encoded), IEEE doubles and
 *                      memory words as 8 little-endian bytes, names NUL-terminated
 * Snapshots are portable between machines and builds of the same format version.
 *
 * Version policy: the format version changes whenever the payload's layout does; a restore
 * refuses another version (GOAP_VERSION_MISMATCH) rather than guess. The fingerprint changes
 * whenever the domain's variables (names, types, ranges, enum values, shared flags), actions
 * (names, preconditions, effects, costs) or goals (names, priorities, wants) change, or the
 * agent type (its name, the actions and goals it has, cost scales, timeouts, on_fail /
 * on_start / on_end effects, watched variables, reservations, validity conditions, which
 * goals have a dynamic priority and which actions a procedural check, its sensors' intervals,
 * goal-selection and planning settings, its HTN root and tasks): a save made before such a
 * change is refused (GOAP_DOMAIN_MISMATCH) -- never silently misread. A game that must load
 * saves across a balance patch keeps the old domain to load them with, or starts those agents
 * afresh.
 *
 * Errors (the snapshot is checked completely before anything is changed):
 *   GOAP_TRUNCATED         fewer bytes than the header or its payload size say
 *   GOAP_VERSION_MISMATCH  another format version (or not a snapshot of this kind: bad magic
 *                          gives GOAP_CORRUPT)
 *   GOAP_CORRUPT           bad magic, checksum mismatch, trailing bytes, or a value out of
 *                          range (an action, goal or resource that does not exist, a memory
 *                          value outside its variable's range)
 *   GOAP_DOMAIN_MISMATCH   saved for another domain, agent type or squad configuration
 *   GOAP_INVALID_OPERATION the object is not fresh; an agent whose blackboard is missing or
 *                          lacks a saved reservation's resource; a squad given another number
 *                          of members than it had
 *   GOAP_OUT_OF_MEMORY     the allocator refused (an agent may then be partly restored: destroy
 *                          it; a blackboard or squad is left as it was)
 * with err (a goap_error *, may be NULL; goap/goap.h) filled: status, an English message
 * saying which, e.g. "snapshot truncated: fewer bytes than its header says", and offset, the
 * byte offset in the data where the problem was found (no file or line).
 *
 * Snapshots never allocate: the caller gives the buffer. Call with buf NULL (or too small) to
 * learn the size: GOAP_BUFFER_TOO_SMALL with *size set to the bytes needed. A restore
 * allocates through the object's allocator only to grow its buffers (and a planner to replay
 * an unfinished search or to hold a paused HTN plan's continuation).
 *
 * Threads: a snapshot reads the object, a restore writes it: neither may run while the object
 * (or, for an agent, its blackboard) is being updated; otherwise like the objects themselves.
 *
 * Limit of format version 1: a time budget (planning_ms_per_update) makes searches end on
 * updates that depend on the machine's speed, so a restored agent with an unfinished search
 * may end it on another update than the saved run would have. Otherwise every agent can be
 * saved on any update.
 */
#ifndef GOAP_SAVE_H
#define GOAP_SAVE_H

#include "agent.h"
#include "squad.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GOAP_SNAPSHOT_VERSION 1
/* The header's size in bytes (the smallest snapshot). */
#define GOAP_SNAPSHOT_HEADER_SIZE 24

/* The fingerprint saved in the type's agent snapshots: a 64-bit hash of the domain (variables,
 * actions, goals) and of the type's configuration (see the version policy above); 0 for NULL.
 * Computed once when the type is created. Thread-safe. */
GOAP_API uint64_t goap_agent_type_fingerprint(const goap_agent_type *t);

/* Writes the agent's snapshot into buf[0..cap). *size (required) receives the snapshot's size
 * in bytes. GOAP_OK; GOAP_BUFFER_TOO_SMALL when cap < *size (buf may then be NULL; nothing
 * written); GOAP_INVALID_ARGUMENT for a NULL agent or size. Never allocates. */
GOAP_API goap_status goap_agent_snapshot(const goap_agent *a, void *buf, size_t cap,
                                         size_t *size);
/* Restores a snapshot of an agent of the same type (same fingerprint) into `a`, an agent never
 * updated, attached to the restored blackboard when the saved one had one. See the errors
 * above; err (may be NULL) follows goap/goap.h. The data is only read (it may be freed
 * afterwards). No callback is called (a running action resumes running: its start callback
 * is not called again). */
GOAP_API goap_status goap_agent_restore(goap_agent *a, const void *data, size_t size,
                                        goap_error *err);

/* The same for a blackboard (slots, resources, version). The restore replaces everything the
 * blackboard holds; no agent may be attached to it yet. */
GOAP_API goap_status goap_blackboard_snapshot(const goap_blackboard *bb, void *buf, size_t cap,
                                              size_t *size);
GOAP_API goap_status goap_blackboard_restore(goap_blackboard *bb, const void *data, size_t size,
                                             goap_error *err);

/* The same for a squad. The restore gives the squad its members, members[0..count) (the
 * restored agents, in the order they had when saved: goap_squad_member), which must be as many
 * as it had; the squad must have none yet. The members' own orders come back with their agent
 * snapshots; this restores what the squad knows (behaviour, phase, the order it gave each). */
GOAP_API goap_status goap_squad_snapshot(const goap_squad *s, void *buf, size_t cap,
                                         size_t *size);
GOAP_API goap_status goap_squad_restore(goap_squad *s, const void *data, size_t size,
                                        goap_agent *const *members, int count,
                                        goap_error *err);

/* A JSON object describing the agent, for debugging (not restorable), with the field names of
 * `goap simulate --json`: {"t": time, "type": name, "phase": "idle"|"select"|"execute",
 * "reason": replan reason, "goal": name|null, "priority", "plan": [action names], "step",
 * "cost", "action": the running action|null, "action_time", "order": goal|null,
 * "memory": {"var": value, ...} (bools true/false, enums by name), "reservations":
 * [resource names], "failed_goals": [{"goal", "t"}], "mtr": [method indices] (HTN agents)}.
 * Written NUL-terminated into buf[0..cap); *size (required) receives its length without the
 * NUL. GOAP_BUFFER_TOO_SMALL (buf may be NULL) when cap <= *size. Never allocates. */
GOAP_API goap_status goap_agent_snapshot_json(const goap_agent *a, char *buf, size_t cap,
                                              size_t *size);

#ifdef __cplusplus
}
#endif

#endif /* GOAP_SAVE_H */
