/*
 * replay.c -- recording the inputs of agents into a binary log, and replaying a log against
 * agents, checking their decisions (goap/replay.h).
 *
 * The log:
 *   header   "GOAPRPL\0", varint format version, 8-byte shape hash, 8-byte content hash
 *            (little endian), varint label length + label, 4-byte checksum of all of it
 *   chunks   varint payload length, payload (whole records), 4-byte checksum of the payload
 * Records: a tag byte, then its fields (u: varint, z: zigzag varint of an int32, f: a double
 * as varint 2*zigzag(i) when it is an exact integer, else varint 1 + 8 bytes):
 *   AGENT u | AGENT_NEXT | FRAME | UPDATE f | UPDATE_SAME (the previous UPDATE's dt) |
 *   STEP (AGENT_NEXT and UPDATE_SAME in one byte: a crowd's update is its tick, one more) |
 *   SET u z | ORDER u f | CLEAR_ORDER | REPLAN | RESET | NOTE u bytes |
 *   TICK_RUNNING, TICK_SUCCESS, TICK_FAILURE | START u | STOP u | SENSOR u | CHECK_NO u |
 *   CHECK_YES u | PRIO u f | RESERVE_NO | RESERVE_YES | BB u z | EVENT u (kind) fields |
 *   DCHECK_NO u | DCHECK_YES u | DCOST u f (the domain's own callbacks, per search) |
 *   END u (the number of agents).
 * A record belongs to the agent named by the last AGENT / AGENT_NEXT record.
 *
 * Invariants:
 *  - The recorder only appends; a record never spans chunks. After a failure (allocation,
 *    sink) it records nothing more and keeps the status.
 *  - The replayer checks the whole log before anything runs (framing, checksums, every tag,
 *    every id against the domain, the end record last), so replaying never reads out of
 *    bounds; a divergence stops the replay (later inputs answer neutrally, events are not
 *    reported).
 *  - Host calls recorded inside a callback or after an event are applied by the replayer when
 *    it reaches them, before the next input of the agent.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent_impl.h"

enum {
  R_AGENT = 1, R_AGENT_NEXT = 2, R_FRAME = 3, R_UPDATE = 4, R_UPDATE_SAME = 10,
  R_NOTE = 12, R_TICK_SUCCESS = GOAP__R_TICK_SUCCESS, R_TICK_FAILURE = GOAP__R_TICK_FAILURE,
  R_CHECK_YES = GOAP__R_CHECK_YES,
  R_RESERVE_YES = 23, R_EVENT = 24, R_END = 25, R_STEP = 26, R_DCHECK_YES = 28
};
/* GOAP__R_SET 5, ORDER 6, CLEAR_ORDER 7, REPLAN 8, RESET 9, TICK (running) 11, START 14,
 * STOP 15, SENSOR 16, CHECK (no) 17, PRIO 19, RESERVE (no) 20, BB 22, DCHECK (no) 27,
 * DCOST 29: agent_impl.h */

static const unsigned char MAGIC[8] = {'G', 'O', 'A', 'P', 'R', 'P', 'L', 0};

/* ---- hashes ------------------------------------------------------------------------------- */

/* The checksum of headers and chunks: 8 bytes (little endian) at a time, multiplied and
 * folded; the same on every platform. */
static uint32_t sum32(const uint8_t *p, size_t n) {
  uint64_t h = 0x243f6a8885a308d3ull ^ n;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w = 0;
    for (int k = 0; k < 8; ++k) w |= (uint64_t)p[i + (size_t)k] << (8 * k);
    h = (h ^ w) * 0x9e3779b97f4a7c15ull;
    h ^= h >> 32;
  }
  for (; i < n; ++i) {
    h = (h ^ p[i]) * 0x9e3779b97f4a7c15ull;
    h ^= h >> 32;
  }
  return (uint32_t)(h ^ (h >> 29));
}

static void mix(uint64_t *h, uint64_t x) {
  for (int i = 0; i < 8; ++i) {
    *h ^= (x >> (8 * i)) & 0xff;
    *h *= 1099511628211ull;
  }
}

static void mix_str(uint64_t *h, const char *s) {
  for (; s && *s; ++s) mix(h, (unsigned char)*s);
  mix(h, 0x100);
}

static void mix_f64(uint64_t *h, double x) {
  uint64_t u;
  memcpy(&u, &x, sizeof u);
  mix(h, u);
}

static void mix_conds(uint64_t *h, const goap_cond *c, int n) {
  mix(h, (uint64_t)n);
  for (int i = 0; i < n; ++i) {
    mix(h, (uint64_t)c[i].var);
    mix(h, (uint64_t)c[i].op);
    mix(h, (uint64_t)(uint32_t)c[i].value);
  }
}

/* shape: what ids mean (names, types, ranges); content: the shape and everything planned with */
static void domain_hashes(const goap_domain *d, uint64_t *shape, uint64_t *content) {
  uint64_t s = 1469598103934665603ull, c;
  int nv = goap_domain_var_count(d), na = goap_domain_action_count(d);
  int ng = goap_domain_goal_count(d);
  mix(&s, (uint64_t)nv);
  for (int v = 0; v < nv; ++v) {
    goap_var_info vi;
    goap_domain_var_info(d, v, &vi);
    mix_str(&s, vi.name);
    mix(&s, (uint64_t)vi.type);
    mix(&s, (uint64_t)(uint32_t)vi.lo);
    mix(&s, (uint64_t)(uint32_t)vi.hi);
  }
  mix(&s, (uint64_t)na);
  for (int a = 0; a < na; ++a) mix_str(&s, goap_domain_action_name(d, a));
  mix(&s, (uint64_t)ng);
  for (int g = 0; g < ng; ++g) mix_str(&s, goap_domain_goal_name(d, g));
  c = s;
  for (int v = 0; v < nv; ++v) {
    goap_var_info vi;
    goap_domain_var_info(d, v, &vi);
    mix(&c, (uint64_t)(uint32_t)vi.default_value);
    mix(&c, (uint64_t)vi.flags);
  }
  for (int a = 0; a < na; ++a) {
    int n = 0;
    mix_f64(&c, goap_domain_action_cost(d, a));
    const goap_cond *p = goap_domain_action_pre(d, a, &n);
    mix_conds(&c, p, n);
    const goap_effect *e = goap_domain_action_eff(d, a, &n);
    mix(&c, (uint64_t)n);
    for (int i = 0; i < n; ++i) {
      mix(&c, (uint64_t)e[i].var);
      mix(&c, (uint64_t)e[i].op);
      mix(&c, (uint64_t)(uint32_t)e[i].value);
    }
  }
  for (int g = 0; g < ng; ++g) {
    int n = 0;
    mix_f64(&c, goap_domain_goal_priority(d, g));
    const goap_cond *w = goap_domain_goal_want(d, g, &n);
    mix_conds(&c, w, n);
  }
  *shape = s;
  *content = c;
}

/* ---- writing ---------------------------------------------------------------------------- */

struct goap_recorder {
  goap_allocator alloc;
  goap_replay_sink_fn sink;
  void *sink_user;
  uint8_t *buf;
  size_t len, cap, chunk;
  size_t lim;                    /* cap while recording, 0 after a failure or the end: the
                                    one test of the fast paths */
  goap_agent **agents;
  size_t nagents, cagents;
  int cur;                       /* the agent of the last record; -1: none yet */
  double last_dt;                /* of the last UPDATE; NaN: none yet */
  goap_status status;
  uint64_t bytes;
  int finished;
};

static int room(goap_recorder *r, size_t n) {
  if (r->len + n <= r->lim) return 1;
  if (r->status != GOAP_OK || r->finished) return 0;
  if (!goap__grow_zero(&r->alloc, (void **)&r->buf, &r->cap, r->len + n, 1)) {
    r->status = GOAP_OUT_OF_MEMORY;
    r->lim = 0;
    return 0;
  }
  r->lim = r->cap;
  return 1;
}

static size_t varint(uint8_t *p, uint64_t x) {
  size_t n = 0;
  while (x >= 0x80) {
    p[n++] = (uint8_t)(x | 0x80);
    x >>= 7;
  }
  p[n++] = (uint8_t)x;
  return n;
}

static uint64_t zz(int64_t v) { return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63); }

/* Appends without checks (room() was called with enough). */
static void put_byte(goap_recorder *r, int b) { r->buf[r->len++] = (uint8_t)b; }
static void put_u(goap_recorder *r, uint64_t x) { r->len += varint(r->buf + r->len, x); }
static void put_z(goap_recorder *r, int32_t v) { put_u(r, zz(v)); }
/* A double into p (at most 9 bytes); returns the bytes written. */
static size_t enc_f(uint8_t *p, double x) {
  if (x == floor(x) && fabs(x) < 4.0e15 && !(x == 0 && signbit(x)))
    return varint(p, zz((int64_t)x) << 1);
  uint64_t u;
  memcpy(&u, &x, sizeof u);
  p[0] = 1;
  for (int i = 0; i < 8; ++i) p[1 + i] = (uint8_t)((u >> (8 * i)) & 0xff);
  return 9;
}
static void put_f(goap_recorder *r, double x) { r->len += enc_f(r->buf + r->len, x); }

/* The room an event's record takes at most. */
static size_t event_room(const goap_agent_event *ev) {
  return 48 + (ev->kind == GOAP_EVENT_PLAN || ev->kind == GOAP_EVENT_REPAIR
                   ? (size_t)ev->plan_length * 5
                   : 0);
}

/* The record of an event (R_EVENT and its fields) into p[0..event_room(ev)); returns the
 * bytes written. The replayer compares it with the log's bytes: one encoding per event. */
static size_t enc_event(uint8_t *p, const goap_agent_event *ev) {
  size_t n = 0;
  p[n++] = R_EVENT;
  n += varint(p + n, (uint64_t)ev->kind);
  switch (ev->kind) {
    case GOAP_EVENT_REPLAN: n += varint(p + n, (uint64_t)ev->reason); break;
    case GOAP_EVENT_GOAL:
      n += varint(p + n, (uint64_t)(ev->goal + 1));
      n += enc_f(p + n, ev->priority);
      break;
    case GOAP_EVENT_PLAN:
    case GOAP_EVENT_REPAIR:
      n += varint(p + n, (uint64_t)(ev->goal + 1));
      n += varint(p + n, (uint64_t)ev->reason);
      n += varint(p + n, (uint64_t)ev->cached);
      n += varint(p + n, (uint64_t)ev->skipped);
      n += enc_f(p + n, ev->cost);
      n += varint(p + n, (uint64_t)ev->plan_length);
      for (int i = 0; i < ev->plan_length; ++i) n += varint(p + n, (uint64_t)ev->plan[i]);
      break;
    case GOAP_EVENT_PLAN_FAILED:
      n += varint(p + n, (uint64_t)(ev->goal + 1));
      n += varint(p + n, (uint64_t)ev->status);
      break;
    case GOAP_EVENT_MEMORY:
      n += varint(p + n, (uint64_t)ev->var);
      n += varint(p + n, zz(ev->value));
      break;
    case GOAP_EVENT_GOAL_DONE: n += varint(p + n, (uint64_t)(ev->goal + 1)); break;
    case GOAP_EVENT_IDLE: break;
    default: /* the action events and RESERVATION_DENIED */
      n += varint(p + n, (uint64_t)(ev->action + 1));
      n += varint(p + n, (uint64_t)ev->timeout);
      break;
  }
  return n;
}

static int emit_bytes(goap_recorder *r, const void *p, size_t n) {
  if (r->sink(r->sink_user, p, n) != 0) {
    r->status = GOAP_IO_ERROR;
    r->lim = 0;
    return 0;
  }
  r->bytes += n;
  return 1;
}

static void flush(goap_recorder *r) {
  if (r->len == 0 || r->status != GOAP_OK) return;
  uint8_t pre[10], sum[4];
  size_t np = varint(pre, r->len);
  uint32_t s = sum32(r->buf, r->len);
  for (int i = 0; i < 4; ++i) sum[i] = (uint8_t)(s >> (8 * i));
  if (emit_bytes(r, pre, np) && emit_bytes(r, r->buf, r->len)) emit_bytes(r, sum, 4);
  r->len = 0;
}

/* Starts a record of agent `who` (-1: none) with room for n more bytes; 0 when not recording. */
static int begin(goap_recorder *r, int who, size_t n) {
  if (!room(r, n + 12)) return 0;
  if (who >= 0 && who != r->cur) {
    if (who == r->cur + 1) put_byte(r, R_AGENT_NEXT);
    else {
      put_byte(r, R_AGENT);
      put_u(r, (uint64_t)who);
    }
    r->cur = who;
  }
  return 1;
}

static void end(goap_recorder *r) {
  if (r->len >= r->chunk) flush(r);
}

goap_status goap_recorder_create(const goap_recorder_desc *desc, goap_recorder **out) {
  if (out) *out = NULL;
  if (!desc || !desc->domain || !desc->sink || !out) return GOAP_INVALID_ARGUMENT;
  size_t nl = desc->label ? strlen(desc->label) : 0;
  if (nl > 255) return GOAP_INVALID_ARGUMENT;
  goap_allocator al = goap__rt_resolve(desc->allocator.fn ? &desc->allocator : NULL);
  goap_recorder *r = (goap_recorder *)goap__rt_alloc(&al, sizeof *r);
  if (!r) return GOAP_OUT_OF_MEMORY;
  r->alloc = al;
  r->sink = desc->sink;
  r->sink_user = desc->sink_user;
  r->chunk = desc->chunk_size ? desc->chunk_size : 4096;
  r->cur = -1;
  r->last_dt = NAN;
  r->status = GOAP_OK;
  if (!room(r, 8 + 10 + 16 + 10 + nl + 4)) {
    goap_recorder_destroy(r);
    return GOAP_OUT_OF_MEMORY;
  }
  uint64_t shape, content;
  domain_hashes(desc->domain, &shape, &content);
  memcpy(r->buf, MAGIC, 8);
  r->len = 8;
  put_u(r, GOAP_REPLAY_FORMAT_VERSION);
  for (int i = 0; i < 8; ++i) put_byte(r, (int)((shape >> (8 * i)) & 0xff));
  for (int i = 0; i < 8; ++i) put_byte(r, (int)((content >> (8 * i)) & 0xff));
  put_u(r, nl);
  if (nl) memcpy(r->buf + r->len, desc->label, nl);
  r->len += nl;
  uint32_t s = sum32(r->buf, r->len);
  for (int i = 0; i < 4; ++i) put_byte(r, (int)((s >> (8 * i)) & 0xff));
  int ok = emit_bytes(r, r->buf, r->len);
  r->len = 0;
  if (!ok) {
    goap_recorder_destroy(r);
    return GOAP_IO_ERROR;
  }
  *out = r;
  return GOAP_OK;
}

void goap_recorder_destroy(goap_recorder *r) {
  if (!r) return;
  for (size_t i = 0; i < r->nagents; ++i)
    if (r->agents[i]) r->agents[i]->rec = NULL;
  goap_allocator al = r->alloc;
  goap__rt_free(&al, r->agents, r->cagents * sizeof *r->agents);
  goap__rt_free(&al, r->buf, r->cap);
  goap__rt_free(&al, r, sizeof *r);
}

goap_status goap_recorder_attach(goap_recorder *r, goap_agent *a) {
  if (!r || !a || a->rec || a->rp) return GOAP_INVALID_ARGUMENT;
  if (r->nagents >= 0x7fffffff) return GOAP_TOO_LARGE;
  if (!goap__grow_zero(&r->alloc, (void **)&r->agents, &r->cagents, r->nagents + 1,
                     sizeof *r->agents))
    return GOAP_OUT_OF_MEMORY;
  a->rec = r;
  a->rec_id = (int)r->nagents;
  r->agents[r->nagents++] = a;
  return GOAP_OK;
}

void goap__rec_forget(goap_agent *a) {
  goap_recorder *r = a->rec;
  r->agents[a->rec_id] = NULL;
  a->rec = NULL;
}

void goap_recorder_frame(goap_recorder *r) {
  if (!r || !begin(r, -1, 1)) return;
  put_byte(r, R_FRAME);
  end(r);
}

goap_status goap_recorder_note(goap_recorder *r, const void *data, size_t size) {
  if (!r || (size && !data) || size > 65535) return GOAP_INVALID_ARGUMENT;
  if (!begin(r, -1, size + 4)) return r->status;
  put_byte(r, R_NOTE);
  put_u(r, size);
  if (size) memcpy(r->buf + r->len, data, size);
  r->len += size;
  end(r);
  return r->status;
}

goap_status goap_recorder_finish(goap_recorder *r) {
  if (!r) return GOAP_INVALID_ARGUMENT;
  if (begin(r, -1, 12)) {
    put_byte(r, R_END);
    put_u(r, r->nagents);
    flush(r);
    r->finished = 1;
    r->lim = 0;
  }
  return r->status;
}

goap_status goap_recorder_status(const goap_recorder *r) {
  return r ? r->status : GOAP_INVALID_ARGUMENT;
}

uint64_t goap_recorder_bytes(const goap_recorder *r) { return r ? r->bytes : 0; }

void goap__rec_update(goap_agent *a, double dt) {
  goap_recorder *r = a->rec;
  if (a->rec_id == r->cur + 1 && dt == r->last_dt) { /* the common case: one byte */
    if (!room(r, 1)) return;
    put_byte(r, R_STEP);
    r->cur++;
    end(r);
    return;
  }
  if (!begin(r, a->rec_id, 12)) return;
  if (dt == r->last_dt) put_byte(r, R_UPDATE_SAME);
  else {
    put_byte(r, R_UPDATE);
    put_f(r, dt);
    r->last_dt = dt;
  }
  end(r);
}

void goap__rec_input(goap_agent *a, int tag, int id, int32_t v, double d) {
  goap_recorder *r = a->rec;
  if (tag == GOAP__R_TICK && a->rec_id == r->cur && r->len < r->lim) { /* the common case */
    r->buf[r->len++] = (uint8_t)(v == GOAP_ACTION_SUCCESS   ? R_TICK_SUCCESS
                                 : v == GOAP_ACTION_FAILURE ? R_TICK_FAILURE
                                                            : GOAP__R_TICK);
    end(r);
    return;
  }
  if ((a->rec_id != r->cur || r->len + 36 > r->lim) && !begin(r, a->rec_id, 24)) return;
  switch (tag) {
    case GOAP__R_TICK:
      put_byte(r, v == GOAP_ACTION_SUCCESS   ? R_TICK_SUCCESS
                  : v == GOAP_ACTION_FAILURE ? R_TICK_FAILURE
                                             : GOAP__R_TICK);
      break;
    case GOAP__R_CHECK:
      put_byte(r, v ? R_CHECK_YES : GOAP__R_CHECK);
      put_u(r, (uint64_t)id);
      break;
    case GOAP__R_DCHECK:
      put_byte(r, v ? R_DCHECK_YES : GOAP__R_DCHECK);
      put_u(r, (uint64_t)id);
      break;
    case GOAP__R_RESERVE: put_byte(r, v ? R_RESERVE_YES : GOAP__R_RESERVE); break;
    case GOAP__R_START:
    case GOAP__R_STOP:
    case GOAP__R_SENSOR:
      put_byte(r, tag);
      put_u(r, (uint64_t)id);
      break;
    case GOAP__R_PRIO:
    case GOAP__R_ORDER:
    case GOAP__R_DCOST:
      put_byte(r, tag);
      put_u(r, (uint64_t)id);
      put_f(r, d);
      break;
    case GOAP__R_SET:
    case GOAP__R_BB:
      put_byte(r, tag);
      put_u(r, (uint64_t)id);
      put_z(r, v);
      break;
    default: put_byte(r, tag); break; /* CLEAR_ORDER, REPLAN, RESET */
  }
  end(r);
}

void goap__rec_event(goap_agent *a, const goap_agent_event *ev) {
  goap_recorder *r = a->rec;
  if (!GOAP__IS_DECISION(ev->kind)) return;
  size_t n = event_room(ev);
  if ((a->rec_id != r->cur || r->len + n + 12 > r->lim) && !begin(r, a->rec_id, n)) return;
  r->len += enc_event(r->buf + r->len, ev);
  end(r);
}

/* ---- reading -------------------------------------------------------------------------------- */

/* The domain's sizes, which every id of a record is checked against. */
typedef struct counts {
  int nv, na, ng;
} counts;

typedef struct rec {
  int tag;
  uint64_t id;
  int32_t v;
  double d;
  const uint8_t *bytes;          /* NOTE */
  size_t n;
  goap_agent_event ev;           /* EVENT (ev.plan: the replayer's scratch) */
} rec;

struct goap_replayer {
  goap__rp_head h;               /* first: agent.c's inline fast paths read it (data: the
                                    records of every chunk, in order; cur: the agent of the
                                    records at pos) */
  goap_allocator alloc;
  const goap_domain *d;
  counts cn;
  int32_t *plan;                 /* scratch for an event's plan */
  size_t plan_cap;
  char label[256];
  int changed;
  int nagents, attached;
  goap_agent **agents;           /* the attached ones (grown by attach: a log's count is only
                                    a claim until the agents come) */
  size_t cagents;
  double last_dt;
  uint64_t frame;
  goap_replay_note_fn on_note;
  void *note_user;
  int depth;                     /* host calls being applied inside each other */
  goap_replay_divergence div;
};

typedef struct reader {
  const uint8_t *p;
  size_t n, at;
  int bad;
} reader;

static uint64_t get_u(reader *r) {
  if (r->at < r->n && r->p[r->at] < 0x80) return r->p[r->at++]; /* one byte: most of them */
  uint64_t x = 0;
  for (int s = 0; s < 64; s += 7) {
    if (r->at >= r->n) {
      r->bad = 1;
      return 0;
    }
    uint8_t b = r->p[r->at++];
    x |= (uint64_t)(b & 0x7f) << s;
    if (!(b & 0x80)) return x;
  }
  r->bad = 1;
  return 0;
}

static int32_t get_z(reader *r) {
  uint64_t u = get_u(r);
  int64_t v = (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
  if (v < INT32_MIN || v > INT32_MAX) r->bad = 1;
  return (int32_t)v;
}

static double get_f(reader *r) {
  uint64_t u = get_u(r);
  if (!(u & 1)) {
    uint64_t k = u >> 1;
    return (double)((int64_t)(k >> 1) ^ -(int64_t)(k & 1));
  }
  if (u != 1 || r->n - r->at < 8) {
    r->bad = 1;
    return 0;
  }
  uint64_t b = 0;
  for (int i = 0; i < 8; ++i) b |= (uint64_t)r->p[r->at++] << (8 * i);
  double x;
  memcpy(&x, &b, sizeof x);
  return x;
}

/* Decodes the record at rd->at into *o (plan ids into plan[cap] when plan is not NULL) and
 * checks its ids against the domain; *len receives an event plan's length. 0 on bad data.
 * Only the fields of the record's kind are set (o->ev for an EVENT). */
static int decode(const counts *cn, reader *rd, rec *o, int32_t *plan, size_t cap,
                  size_t *len) {
  int nv = cn->nv, na = cn->na, ng = cn->ng;
  if (rd->at >= rd->n) return 0;
  o->tag = rd->p[rd->at++];
  o->id = 0;
  o->v = 0;
  o->d = 0;
  switch (o->tag) {
    case R_AGENT:
      o->id = get_u(rd);
      break;
    case R_AGENT_NEXT:
    case R_STEP:
    case R_FRAME:
    case R_UPDATE_SAME:
    case GOAP__R_CLEAR_ORDER:
    case GOAP__R_REPLAN:
    case GOAP__R_RESET:
    case GOAP__R_TICK:
    case R_TICK_SUCCESS:
    case R_TICK_FAILURE:
    case GOAP__R_RESERVE:
    case R_RESERVE_YES: break;
    case R_UPDATE:
      o->d = get_f(rd);
      if (!(o->d >= 0) || !isfinite(o->d)) return 0;
      break;
    case GOAP__R_SET:
    case GOAP__R_BB:
      o->id = get_u(rd);
      o->v = get_z(rd);
      if (o->id >= (uint64_t)nv) return 0;
      break;
    case GOAP__R_ORDER:
    case GOAP__R_PRIO:
      o->id = get_u(rd);
      o->d = get_f(rd);
      if (o->id >= (uint64_t)ng) return 0;
      break;
    case GOAP__R_START:
    case GOAP__R_STOP:
    case GOAP__R_CHECK:
    case R_CHECK_YES:
    case GOAP__R_DCHECK:
    case R_DCHECK_YES:
      o->id = get_u(rd);
      if (o->id >= (uint64_t)na) return 0;
      break;
    case GOAP__R_DCOST:
      o->id = get_u(rd);
      o->d = get_f(rd);
      if (o->id >= (uint64_t)na) return 0;
      break;
    case GOAP__R_SENSOR: o->id = get_u(rd); break;
    case R_NOTE:
      o->n = (size_t)get_u(rd);
      if (rd->bad || o->n > 65535 || rd->n - rd->at < o->n) return 0;
      o->bytes = rd->p + rd->at;
      rd->at += o->n;
      break;
    case R_END: o->id = get_u(rd); break;
    case R_EVENT: {
      goap_agent_event *e = &o->ev;
      memset(e, 0, sizeof *e);
      e->goal = e->action = e->var = -1;
      uint64_t k = get_u(rd);
      if (k > GOAP_EVENT_RESERVATION_DENIED) return 0;
      e->kind = (goap_agent_event_kind)k;
      uint64_t g = 0, a = 0, x = 0;
      switch (e->kind) {
        case GOAP_EVENT_REPLAN:
          x = get_u(rd);
          if (x >= GOAP_REPLAN_REASON_COUNT) return 0;
          e->reason = (goap_replan_reason)x;
          break;
        case GOAP_EVENT_GOAL:
          g = get_u(rd);
          e->priority = get_f(rd);
          break;
        case GOAP_EVENT_PLAN:
        case GOAP_EVENT_REPAIR: {
          g = get_u(rd);
          x = get_u(rd);
          if (x >= GOAP_REPLAN_REASON_COUNT) return 0;
          e->reason = (goap_replan_reason)x;
          e->cached = get_u(rd) != 0;
          x = get_u(rd);
          if (x > 0x7fffffff) return 0;
          e->skipped = (int)x;
          e->cost = get_f(rd);
          uint64_t n = get_u(rd);
          if (rd->bad || n > rd->n - rd->at) return 0; /* each id takes a byte at least */
          e->plan_length = (int)n;
          *len = (size_t)n;
          for (uint64_t i = 0; i < n; ++i) {
            uint64_t id = get_u(rd);
            if (id >= (uint64_t)na) return 0;
            if (plan && i < cap) plan[i] = (int32_t)id;
          }
          e->plan = plan;
          break;
        }
        case GOAP_EVENT_PLAN_FAILED:
          g = get_u(rd);
          x = get_u(rd);
          if (x > GOAP_IO_ERROR) return 0;
          e->status = (goap_status)x;
          break;
        case GOAP_EVENT_MEMORY:
          x = get_u(rd);
          if (x >= (uint64_t)nv) return 0;
          e->var = (int)x;
          e->value = get_z(rd);
          break;
        case GOAP_EVENT_GOAL_DONE: g = get_u(rd); break;
        case GOAP_EVENT_IDLE: break;
        default:
          a = get_u(rd);
          e->timeout = get_u(rd) != 0;
          break;
      }
      if (g > (uint64_t)ng || a > (uint64_t)na) return 0;
      e->goal = (int)g - 1;
      e->action = (int)a - 1;
      break;
    }
    default: return 0;
  }
  return !rd->bad;
}

static goap_status fail(goap_error *err, const char *m, size_t at, goap_status st) {
  return goap__err_set(err, st, at, m);
}

goap_status goap_replayer_create(const goap_replayer_desc *desc, goap_replayer **out,
                                 goap_error *err) {
  goap__err_clear(err);
  if (out) *out = NULL;
  if (!desc || !desc->domain || !out || (!desc->log && desc->size))
    return fail(err, "replay log: invalid argument", 0, GOAP_INVALID_ARGUMENT);
  const uint8_t *p = (const uint8_t *)desc->log;
  size_t n = desc->size;
  reader rd = {p, n, 0, 0};
  if (n < 8 || memcmp(p, MAGIC, 8) != 0)
    return fail(err, "replay log: not a libgoap replay log (bad magic)", 0,
                GOAP_PARSE_ERROR);
  rd.at = 8;
  uint64_t version = get_u(&rd);
  if (rd.bad) return fail(err, "replay log: truncated header", n, GOAP_PARSE_ERROR);
  if (version != GOAP_REPLAY_FORMAT_VERSION)
    return fail(err,
                "replay log: format version not supported (this library reads version 1)", 8,
                GOAP_PARSE_ERROR);
  if (n - rd.at < 16) return fail(err, "replay log: truncated header", n,
                                  GOAP_PARSE_ERROR);
  uint64_t shape = 0, content = 0;
  for (int i = 0; i < 8; ++i) shape |= (uint64_t)p[rd.at + (size_t)i] << (8 * i);
  for (int i = 0; i < 8; ++i) content |= (uint64_t)p[rd.at + 8 + (size_t)i] << (8 * i);
  rd.at += 16;
  uint64_t nl = get_u(&rd);
  if (rd.bad || nl > 255 || n - rd.at < nl + 4)
    return fail(err, "replay log: truncated header", n, GOAP_PARSE_ERROR);
  size_t label_at = rd.at;
  rd.at += (size_t)nl;
  uint32_t s = sum32(p, rd.at);
  uint32_t want = (uint32_t)p[rd.at] | (uint32_t)p[rd.at + 1] << 8 |
                  (uint32_t)p[rd.at + 2] << 16 | (uint32_t)p[rd.at + 3] << 24;
  if (s != want)
    return fail(err, "replay log: corrupted header (checksum mismatch)", rd.at,
                GOAP_PARSE_ERROR);
  rd.at += 4;
  uint64_t my_shape, my_content;
  domain_hashes(desc->domain, &my_shape, &my_content);
  if (my_shape != shape)
    return fail(err,
                "replay log: recorded over another domain (its variables, actions or goals "
                "differ)",
                8, GOAP_CONFLICT);
  /* chunks: total payload size first */
  size_t total = 0, at = rd.at;
  while (rd.at < n) {
    size_t start = rd.at;
    uint64_t len = get_u(&rd);
    if (rd.bad || len == 0 || len > n - rd.at || n - rd.at - len < 4)
      return fail(err,
                  "replay log: truncated (a chunk ends past the end of the data)", start,
                  GOAP_PARSE_ERROR);
    uint32_t cs = sum32(p + rd.at, (size_t)len);
    const uint8_t *q = p + rd.at + len;
    if (cs != ((uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 |
               (uint32_t)q[3] << 24))
      return fail(err, "replay log: corrupted chunk (checksum mismatch)", start,
                  GOAP_PARSE_ERROR);
    rd.at += (size_t)len + 4;
    total += (size_t)len;
  }
  goap_allocator al = goap__rt_resolve(desc->allocator.fn ? &desc->allocator : NULL);
  goap_replayer *r = (goap_replayer *)goap__rt_alloc(&al, sizeof *r);
  if (!r) return fail(err, "replay log: out of memory", 0, GOAP_OUT_OF_MEMORY);
  r->alloc = al;
  r->d = desc->domain;
  r->cn.nv = goap_domain_var_count(r->d);
  r->cn.na = goap_domain_action_count(r->d);
  r->cn.ng = goap_domain_goal_count(r->d);
  r->changed = my_content != content;
  r->last_dt = NAN;
  r->h.cur = -1;
  memcpy(r->label, p + label_at, (size_t)nl);
  r->label[nl] = 0;
  r->h.data = (uint8_t *)goap__rt_alloc(&al, total ? total : 1);
  r->h.size = total;
  if (!r->h.data) {
    goap_replayer_destroy(r);
    return fail(err, "replay log: out of memory", 0, GOAP_OUT_OF_MEMORY);
  }
  /* copy the payloads, remembering where each chunk came from for error offsets */
  rd.at = at;
  size_t w = 0;
  while (rd.at < n) {
    uint64_t len = get_u(&rd);
    memcpy(r->h.data + w, p + rd.at, (size_t)len);
    w += (size_t)len;
    rd.at += (size_t)len + 4;
  }
  /* every record, checked */
  reader q = {r->h.data, r->h.size, 0, 0};
  size_t max_plan = 0, end_at = SIZE_MAX;
  uint64_t max_agent = 0, agent = 0, agents = 0;
  int any = 0;
  while (q.at < q.n) {
    rec o;
    size_t len = 0, rat = q.at;
    if (end_at != SIZE_MAX || !decode(&r->cn, &q, &o, NULL, 0, &len)) {
      goap_replayer_destroy(r);
      return fail(err,
                  end_at != SIZE_MAX ? "replay log: data after the end record"
                                     : "replay log: corrupted record",
                  at + rat, GOAP_PARSE_ERROR);
    }
    if (len > max_plan) max_plan = len;
    if (o.tag == R_AGENT) agent = o.id;
    else if (o.tag == R_AGENT_NEXT || o.tag == R_STEP) agent = any ? agent + 1 : 0;
    if (o.tag == R_AGENT || o.tag == R_AGENT_NEXT || o.tag == R_STEP) {
      any = 1;
      if (agent > max_agent) max_agent = agent;
    }
    if (o.tag == R_END) {
      end_at = rat;
      agents = o.id;
    }
  }
  if (end_at == SIZE_MAX) {
    goap_replayer_destroy(r);
    return fail(err, "replay log: truncated (no end record)", n,
                GOAP_PARSE_ERROR);
  }
  if (agents > 0x7fffffff || (any && max_agent >= agents)) {
    goap_replayer_destroy(r);
    return fail(err, "replay log: corrupted record (agent index)", at,
                GOAP_PARSE_ERROR);
  }
  r->nagents = (int)agents;
  r->plan_cap = max_plan ? max_plan : 1;
  r->plan = (int32_t *)goap__rt_alloc(&al, r->plan_cap * sizeof *r->plan);
  if (!r->plan) {
    goap_replayer_destroy(r);
    return fail(err, "replay log: out of memory", 0, GOAP_OUT_OF_MEMORY);
  }
  if (desc->on_note) {
    r->on_note = desc->on_note;
    r->note_user = desc->note_user;
  }
  *out = r;
  return GOAP_OK;
}

void goap_replayer_destroy(goap_replayer *r) {
  if (!r) return;
  for (int i = 0; r->agents && i < r->attached; ++i)
    if (r->agents[i]) r->agents[i]->rp = NULL;
  goap_allocator al = r->alloc;
  goap__rt_free(&al, r->agents, r->cagents * sizeof *r->agents);
  goap__rt_free(&al, r->plan, r->plan_cap * sizeof *r->plan);
  goap__rt_free(&al, r->h.data, r->h.size ? r->h.size : 1);
  goap__rt_free(&al, r, sizeof *r);
}

const char *goap_replayer_label(const goap_replayer *r) { return r ? r->label : ""; }
int goap_replayer_domain_changed(const goap_replayer *r) { return r ? r->changed : 0; }
int goap_replayer_agent_count(const goap_replayer *r) { return r ? r->nagents : 0; }
uint64_t goap_replayer_frame(const goap_replayer *r) { return r ? r->frame : 0; }

void goap_replayer_on_note(goap_replayer *r, goap_replay_note_fn fn, void *user) {
  if (!r) return;
  r->on_note = fn;
  r->note_user = user;
}

goap_status goap_replayer_attach(goap_replayer *r, goap_agent *a) {
  if (!r || !a || a->rec || a->rp || a->d != r->d || r->attached >= r->nagents)
    return GOAP_INVALID_ARGUMENT;
  if (!goap__grow_zero(&r->alloc, (void **)&r->agents, &r->cagents, (size_t)r->attached + 1,
                     sizeof *r->agents))
    return GOAP_OUT_OF_MEMORY;
  a->rp = r;
  a->rec_id = r->attached;
  r->agents[r->attached++] = a;
  return GOAP_OK;
}

void goap__rp_forget(goap_agent *a) {
  a->rp->agents[a->rec_id] = NULL;
  a->rp = NULL;
}

int goap_replayer_divergence(const goap_replayer *r, goap_replay_divergence *out) {
  if (!r || !r->h.diverged) return 0;
  if (out) *out = r->div;
  return 1;
}

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
  if (!decode(&r->cn, &rd, o, r->plan, r->plan_cap, &len)) return 0;
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
  if (r->h.cur == a->rec_id && event_room(ev) <= 256) { /* the common case: the next record */
    uint8_t b[256];
    size_t n = enc_event(b, ev);
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
