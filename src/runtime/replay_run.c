/*
 * replay_run.c -- replaying a log against agents (goap/replay.h): feeding each agent the
 * recorded results of its callbacks and the host's recorded calls, checking its decisions
 * against the log, and describing the first divergence. Split from replay.c, which writes
 * logs, checks a whole log when the replayer is created and decodes its records.
 *
 * Invariants:
 *  - Only records the replayer's creation checked are read (goap__replay_decode on data it
 *    accepted), so replaying never reads out of bounds.
 *  - Records are consumed in log order: pass-through records (agent switches, host calls,
 *    notes) are applied when the replay reaches them, before the next input of the agent; a
 *    host call is consumed before it runs, since it may reach the replay again.
 *  - The first divergence is kept (r->div) and stops the replay: later inputs answer
 *    neutrally, events are no longer reported, goap_replayer_step returns GOAP_CONFLICT.
 *  - Host calls nest at most 16 deep (a deeper nesting is a damaged log, stopped as a
 *    divergence rather than recursed on).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent_impl.h"

/* ---- describing records and requests for a divergence -------------------------------------- */

static const char *aname(const goap_domain *d, int a) {
  const char *s = a >= 0 ? goap_domain_action_name(d, a) : NULL;
  return s ? s : "?";
}
static const char *gname(const goap_domain *d, int g) {
  const char *s = g >= 0 ? goap_domain_goal_name(d, g) : NULL;
  return s ? s : "(none)";
}

/* The shortest text that reads back as x ("2.8", not "2.7999999999999998"). */
static void num(double x, char *b, size_t cap) {
  for (int prec = 1; prec <= 17; ++prec) {
    snprintf(b, cap, "%.*g", prec, x);
    if (strtod(b, NULL) == x) return;
  }
}

static void describe_event(const goap_domain *d, const goap_agent_event *e, char *b, size_t cap) {
  char nb[32];
  size_t k = 0;
  switch (e->kind) {
    case GOAP_EVENT_REPLAN:
      snprintf(b, cap, "replan (%s)", goap_replan_reason_name(e->reason));
      return;
    case GOAP_EVENT_GOAL:
      num(e->priority, nb, sizeof nb);
      snprintf(b, cap, "goal %s (priority %s)", gname(d, e->goal), nb);
      return;
    case GOAP_EVENT_PLAN:
    case GOAP_EVENT_REPAIR:
      num(e->cost, nb, sizeof nb);
      if (e->kind == GOAP_EVENT_PLAN)
        k = (size_t)snprintf(b, cap, "plan for %s (cost %s%s):", gname(d, e->goal), nb,
                             e->cached ? ", cached" : "");
      else
        k = (size_t)snprintf(b, cap, "repair, %d skipped (cost %s):", e->skipped, nb);
      for (int i = 0; i < e->plan_length && k < cap; ++i)
        k += (size_t)snprintf(b + k, cap - k, "%s %s", i ? "," : "", aname(d, e->plan[i]));
      if (e->plan_length == 0 && k < cap) snprintf(b + k, cap - k, " (nothing)");
      return;
    case GOAP_EVENT_PLAN_FAILED:
      snprintf(b, cap, "no plan for %s (%s)", gname(d, e->goal), goap_status_name(e->status));
      return;
    case GOAP_EVENT_ACTION_START: snprintf(b, cap, "start %s", aname(d, e->action)); return;
    case GOAP_EVENT_ACTION_SUCCESS:
      snprintf(b, cap, "%s succeeded", aname(d, e->action));
      return;
    case GOAP_EVENT_ACTION_FAILURE:
      snprintf(b, cap, "%s %s", aname(d, e->action), e->timeout ? "timed out" : "failed");
      return;
    case GOAP_EVENT_ACTION_STOP:
      snprintf(b, cap, "%s interrupted", aname(d, e->action));
      return;
    case GOAP_EVENT_MEMORY: {
      goap_var_info vi;
      goap_domain_var_info(d, e->var, &vi);
      snprintf(b, cap, "memory %s = %ld", vi.name, (long)e->value);
      return;
    }
    case GOAP_EVENT_GOAL_DONE: snprintf(b, cap, "goal %s achieved", gname(d, e->goal)); return;
    case GOAP_EVENT_IDLE: snprintf(b, cap, "idle"); return;
    case GOAP_EVENT_RESERVATION_DENIED:
      snprintf(b, cap, "reservation for %s denied", aname(d, e->action));
      return;
  }
  snprintf(b, cap, "event %d", (int)e->kind);
}

/* tag/id/v/d: a record or a request of the agent; tag 0: the update ended. */
static void describe_input(const goap_domain *d, int tag, uint64_t id, int32_t v, double x,
                           char *b, size_t cap) {
  goap_var_info vi;
  switch (tag) {
    case 0: snprintf(b, cap, "nothing more in this update"); return;
    case R_UPDATE:
    case R_UPDATE_SAME:
    case R_STEP: snprintf(b, cap, "nothing more in this update"); return;
    case R_FRAME: snprintf(b, cap, "the end of the frame"); return;
    case R_END: snprintf(b, cap, "the end of the log"); return;
    case GOAP__R_TICK: snprintf(b, cap, "a tick (running)"); return;
    case R_TICK_SUCCESS: snprintf(b, cap, "a tick (success)"); return;
    case R_TICK_FAILURE: snprintf(b, cap, "a tick (failure)"); return;
    case -GOAP__R_TICK: snprintf(b, cap, "a tick"); return;
    case GOAP__R_START: snprintf(b, cap, "start callback of %s", aname(d, (int)id)); return;
    case GOAP__R_STOP: snprintf(b, cap, "stop callback of %s", aname(d, (int)id)); return;
    case GOAP__R_SENSOR: snprintf(b, cap, "sensor %d", (int)id); return;
    case GOAP__R_CHECK:
    case R_CHECK_YES:
      snprintf(b, cap, "check of %s%s", aname(d, (int)id),
               tag == R_CHECK_YES ? " (yes)" : tag == GOAP__R_CHECK && v == 0 ? " (no)" : "");
      return;
    case -GOAP__R_CHECK: snprintf(b, cap, "check of %s", aname(d, (int)id)); return;
    case GOAP__R_DCHECK:
    case R_DCHECK_YES:
      snprintf(b, cap, "the domain's check of %s (%s)", aname(d, (int)id),
               tag == R_DCHECK_YES ? "yes" : "no");
      return;
    case -GOAP__R_DCHECK: snprintf(b, cap, "the domain's check of %s", aname(d, (int)id)); return;
    case GOAP__R_DCOST:
    case -GOAP__R_DCOST: {
      char nb[32];
      num(x, nb, sizeof nb);
      snprintf(b, cap, "the dynamic cost of %s%s%s%s", aname(d, (int)id), tag > 0 ? " (" : "",
               tag > 0 ? nb : "", tag > 0 ? ")" : "");
      return;
    }
    case GOAP__R_PRIO: {
      char nb[32];
      num(x, nb, sizeof nb);
      snprintf(b, cap, "priority of %s (%s)", gname(d, (int)id), nb);
      return;
    }
    case -GOAP__R_PRIO: snprintf(b, cap, "priority of %s", gname(d, (int)id)); return;
    case GOAP__R_RESERVE:
    case R_RESERVE_YES:
      snprintf(b, cap, "a reservation (%s)", tag == R_RESERVE_YES ? "granted" : "refused");
      return;
    case -GOAP__R_RESERVE: snprintf(b, cap, "a reservation"); return;
    case GOAP__R_BB:
      goap_domain_var_info(d, (int)id, &vi);
      snprintf(b, cap, "blackboard value %s = %ld", vi.name, (long)v);
      return;
    default: snprintf(b, cap, "input %d", tag); return;
  }
}

static void diverge(goap_replayer *r, goap_agent *a, const char *expected, const char *got) {
  if (r->h.diverged) return;
  r->h.diverged = 1;
  r->div.frame = r->frame;
  r->div.agent = a ? a->rec_id : r->h.cur;
  r->div.time = a ? a->time : 0;
  r->div.update = a ? a->st.updates : 0;
  r->div.host = a ? a->host : NULL;
  snprintf(r->div.expected, sizeof r->div.expected, "%s", expected);
  snprintf(r->div.got, sizeof r->div.got, "%s", got);
}

/* ---- replaying ------------------------------------------------------------------------------ */

static int peek(goap_replayer *r, rec *o, size_t *next) {
  if (r->h.pos < r->h.size) { /* the common records, without fields */
    int t = r->h.data[r->h.pos];
    if (t == R_STEP || t == GOAP__R_TICK || t == R_TICK_SUCCESS || t == R_TICK_FAILURE ||
        t == R_AGENT_NEXT || t == R_UPDATE_SAME || t == R_FRAME) {
      o->tag = t;
      o->id = 0;
      o->v = 0;
      o->d = 0;
      *next = r->h.pos + 1;
      return 1;
    }
    if (t == GOAP__R_SET && r->h.size - r->h.pos > 2 && r->h.data[r->h.pos + 1] < 0x80 &&
        r->h.data[r->h.pos + 2] < 0x80) { /* a host's write, one-byte fields (checked ids) */
      unsigned z = r->h.data[r->h.pos + 2];
      o->tag = t;
      o->id = r->h.data[r->h.pos + 1];
      o->v = (int32_t)(z >> 1) ^ -(int32_t)(z & 1);
      o->d = 0;
      *next = r->h.pos + 3;
      return 1;
    }
  }
  reader rd = {r->h.data, r->h.size, r->h.pos, 0};
  size_t len = 0;
  if (!goap__replay_decode(&r->cn, &rd, o, r->plan, r->plan_cap, &len)) return 0;
  *next = rd.at;
  return 1;
}

/* Applies a pass-through record (agent switch, host call, note); 0 when o is none. A host
 * call that reports events applies the records before them, which may be host calls again: a
 * recording nests them a level or two deep (a call inside an event callback); a deeper
 * nesting is a damaged log, stopped as a divergence rather than recursing on. */
static int pass(goap_replayer *r, const rec *o) {
  goap_agent *a = r->h.cur >= 0 && r->h.cur < r->attached ? r->agents[r->h.cur] : NULL;
  if (a && r->depth >= 16 && (o->tag == GOAP__R_ORDER || o->tag == GOAP__R_CLEAR_ORDER ||
                              o->tag == GOAP__R_REPLAN || o->tag == GOAP__R_RESET)) {
    diverge(r, a, "at most 16 nested host calls", "a deeper nesting (a damaged log)");
    return 1;
  }
  r->depth++;
  int done = 1;
  switch (o->tag) {
    case R_AGENT: r->h.cur = (int)o->id; break;
    case R_AGENT_NEXT: r->h.cur++; break;
    case R_NOTE:
      if (r->on_note) r->on_note(r->note_user, o->bytes, o->n);
      break;
    case GOAP__R_SET:
      if (a) goap_agent_set(a, (int)o->id, o->v);
      break;
    case GOAP__R_ORDER:
      if (a) goap_agent_order(a, (int)o->id, o->d);
      break;
    case GOAP__R_CLEAR_ORDER:
      if (a) goap_agent_clear_order(a);
      break;
    case GOAP__R_REPLAN:
      if (a) goap_agent_replan(a);
      break;
    case GOAP__R_RESET:
      if (a) goap_agent_reset(a);
      break;
    default: done = 0; break;
  }
  r->depth--;
  return done;
}

/* Records applied on the way to an agent's next input: agent switches, host calls, notes. */
#define PASS_TAGS                                                                           \
  ((1u << R_AGENT) | (1u << R_AGENT_NEXT) | (1u << R_NOTE) | (1u << GOAP__R_SET) |          \
   (1u << GOAP__R_ORDER) | (1u << GOAP__R_CLEAR_ORDER) | (1u << GOAP__R_REPLAN) |            \
   (1u << GOAP__R_RESET))

/* What the agent asked the replay for (described only for a divergence): an input (tag, id)
 * or an event. */
typedef struct want {
  int tag, id;
  const goap_agent_event *ev;
} want;

static void describe_want(const goap_replayer *r, const want *w, char *b, size_t cap) {
  if (w->ev) describe_event(r->d, w->ev, b, cap);
  else if (w->tag == GOAP__R_START || w->tag == GOAP__R_STOP || w->tag == GOAP__R_SENSOR)
    describe_input(r->d, w->tag, (uint64_t)w->id, 0, 0, b, cap);
  else describe_input(r->d, -w->tag, (uint64_t)w->id, 0, 0, b, cap);
}

static void diverge_at(goap_replayer *r, goap_agent *a, const rec *o, const want *w) {
  char exp[160], got[160];
  if (!o) snprintf(exp, sizeof exp, "nothing more in this update");
  else if (o->tag == R_EVENT) describe_event(r->d, &o->ev, exp, sizeof exp);
  else describe_input(r->d, o->tag, o->id, o->v, o->d, exp, sizeof exp);
  describe_want(r, w, got, sizeof got);
  diverge(r, a, exp, got);
}

/* The next record of agent a, after applying pass-through records; 0 on a divergence. */
static int next_of(goap_replayer *r, goap_agent *a, rec *o, size_t *next, const want *w) {
  for (;;) {
    if (r->h.diverged || !peek(r, o, next)) return 0;
    if ((1u << o->tag) & PASS_TAGS) {
      r->h.pos = *next; /* consumed before it runs: a host call may reach the replay again */
      pass(r, o);
      continue;
    }
    if (r->h.cur != a->rec_id) { /* the recorded update of a ended */
      diverge_at(r, a, NULL, w);
      return 0;
    }
    return 1;
  }
}

int goap__rp_input(goap_agent *a, int tag, int id, int32_t *v, double *d) {
  goap_replayer *r = a->rp;
  rec o;
  size_t next;
  want w = {tag, id, NULL};
  if (!next_of(r, a, &o, &next, &w)) return 0;
  int base = o.tag == R_TICK_SUCCESS || o.tag == R_TICK_FAILURE ? GOAP__R_TICK
             : o.tag == R_CHECK_YES                             ? GOAP__R_CHECK
             : o.tag == R_DCHECK_YES                            ? GOAP__R_DCHECK
             : o.tag == R_RESERVE_YES                           ? GOAP__R_RESERVE
                                                                : o.tag;
  int has_id = tag != GOAP__R_TICK && tag != GOAP__R_RESERVE;
  if (base != tag || (has_id && o.id != (uint64_t)id)) {
    diverge_at(r, a, &o, &w);
    return 0;
  }
  r->h.pos = next;
  if (v) {
    if (tag == GOAP__R_TICK)
      *v = o.tag == R_TICK_SUCCESS   ? GOAP_ACTION_SUCCESS
           : o.tag == R_TICK_FAILURE ? GOAP_ACTION_FAILURE
                                     : GOAP_ACTION_RUNNING;
    else *v = o.tag == R_CHECK_YES || o.tag == R_RESERVE_YES || o.tag == R_DCHECK_YES;
  }
  if (d) *d = o.d;
  return 1;
}

int goap__rp_bb(goap_agent *a, int *var, int32_t *value) {
  goap_replayer *r = a->rp;
  rec o;
  size_t next;
  if (r->h.diverged || r->h.cur != a->rec_id || !peek(r, &o, &next) || o.tag != GOAP__R_BB)
    return 0;
  r->h.pos = next;
  *var = (int)o.id;
  *value = o.v;
  return 1;
}

static int same_event(const goap_agent_event *x, const goap_agent_event *y) {
  if (x->kind != y->kind) return 0;
  switch (x->kind) {
    case GOAP_EVENT_REPLAN: return x->reason == y->reason;
    case GOAP_EVENT_GOAL:
      return x->goal == y->goal && (x->priority == y->priority ||
                                    (x->priority != x->priority && y->priority != y->priority));
    case GOAP_EVENT_PLAN:
    case GOAP_EVENT_REPAIR:
      if (x->goal != y->goal || x->reason != y->reason || x->cached != y->cached ||
          x->skipped != y->skipped || x->cost != y->cost || x->plan_length != y->plan_length)
        return 0;
      for (int i = 0; i < x->plan_length; ++i)
        if (x->plan[i] != y->plan[i]) return 0;
      return 1;
    case GOAP_EVENT_PLAN_FAILED: return x->goal == y->goal && x->status == y->status;
    case GOAP_EVENT_MEMORY: return x->var == y->var && x->value == y->value;
    case GOAP_EVENT_GOAL_DONE: return x->goal == y->goal;
    case GOAP_EVENT_IDLE: return 1;
    default: return x->action == y->action && (x->timeout != 0) == (y->timeout != 0);
  }
}

int goap__rp_event(goap_agent *a, const goap_agent_event *ev) {
  goap_replayer *r = a->rp;
  rec o;
  size_t next;
  if (r->h.diverged) return 0;
  if (!GOAP__IS_DECISION(ev->kind)) return 1; /* not recorded: it follows from the others */
  if (r->h.cur == a->rec_id && goap__replay_event_room(ev) <= 256) {
    /* the common case: the next record */
    uint8_t b[256];
    size_t n = goap__replay_enc_event(b, ev);
    if (n <= r->h.size - r->h.pos && memcmp(r->h.data + r->h.pos, b, n) == 0) {
      r->h.pos += n;
      return 1;
    }
  }
  want w = {0, 0, ev};
  if (!next_of(r, a, &o, &next, &w)) return 0;
  if (o.tag != R_EVENT || !same_event(&o.ev, ev)) {
    diverge_at(r, a, &o, &w);
    return 0;
  }
  r->h.pos = next;
  return 1;
}

goap_status goap_replayer_step(goap_replayer *r) {
  if (!r) return GOAP_INVALID_ARGUMENT;
  if (r->h.diverged) return GOAP_CONFLICT;
  if (r->attached < r->nagents) return GOAP_INVALID_OPERATION;
  for (;;) {
    if (r->h.pos < r->h.size && r->h.data[r->h.pos] == R_STEP && r->h.cur + 1 < r->attached) {
      r->h.pos++; /* the common case: the next agent's update, with the same dt */
      r->h.cur++;
      goap_agent *a = r->agents[r->h.cur];
      if (a) goap_agent_update(a, r->last_dt == r->last_dt ? r->last_dt : 0);
      if (r->h.diverged) return GOAP_CONFLICT;
      continue;
    }
    rec o;
    size_t next;
    if (!peek(r, &o, &next)) return GOAP_OK; /* cannot happen: the log was checked */
    if (o.tag == R_END) return GOAP_OK;
    r->h.pos = next;
    if (pass(r, &o)) {
      if (r->h.diverged) return GOAP_CONFLICT;
      continue;
    }
    if (o.tag == R_FRAME) {
      r->frame++;
      return GOAP_IN_PROGRESS;
    }
    if (o.tag == R_STEP) r->h.cur++;
    goap_agent *a = r->h.cur >= 0 && r->h.cur < r->attached ? r->agents[r->h.cur] : NULL;
    if ((o.tag == R_UPDATE || o.tag == R_UPDATE_SAME || o.tag == R_STEP) && a) {
      double dt = o.tag == R_UPDATE ? o.d : r->last_dt;
      if (o.tag == R_UPDATE) r->last_dt = dt;
      goap_agent_update(a, dt == dt ? dt : 0);
      if (r->h.diverged) return GOAP_CONFLICT;
      continue;
    }
    /* an input of an update that did not ask for it */
    char exp[160], got[160];
    if (o.tag == R_EVENT) describe_event(r->d, &o.ev, exp, sizeof exp);
    else describe_input(r->d, o.tag, o.id, o.v, o.d, exp, sizeof exp);
    describe_input(r->d, 0, 0, 0, 0, got, sizeof got);
    diverge(r, a, exp, got);
    if (!a) r->div.agent = r->h.cur;
    return GOAP_CONFLICT;
  }
}

goap_status goap_replayer_run(goap_replayer *r) {
  goap_status st;
  do st = goap_replayer_step(r);
  while (st == GOAP_IN_PROGRESS);
  return st;
}
