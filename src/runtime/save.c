/*
 * save.c -- snapshots and restores of agents, blackboards and squads (goap/save.h).
 *
 * Invariants:
 *  - The format is defined byte by byte (little-endian, LEB128 integers, IEEE doubles as
 *    their 8 bytes): nothing depends on the machine's endianness, struct layout or padding.
 *  - A snapshot only reads the object and writes the caller's buffer (it counts the bytes it
 *    would write past the end, so a too small buffer tells the size needed).
 *  - A restore checks the whole snapshot before it changes anything: the header (size, magic,
 *    version, checksum, fingerprint), then a dry run of the decoder over the payload that
 *    validates every id, count and value against the object's type; only then does it grow
 *    buffers (the one step that can fail, leaving the object as it was) and decode again,
 *    writing. The one exception is an agent's unfinished search, run again after the fields
 *    are written: when that runs out of memory the agent is left selecting goals afresh.
 *  - The payload's field order is the format (GOAP_SNAPSHOT_VERSION): change it only with
 *    the version.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "agent_impl.h"
#include <goap/save.h>

/* agent.c's phases (goap_agent.ph) */
enum { PH_IDLE = 0, PH_SELECT = 1, PH_EXECUTE = 2 };

/* ---- byte writer / reader ------------------------------------------------------------------ */

typedef struct wbuf {
  uint8_t *p;
  size_t n, cap; /* n counts every byte, written or not */
} wbuf;

static void put_u8(wbuf *w, unsigned v) {
  if (w->n < w->cap) w->p[w->n] = (uint8_t)v;
  w->n++;
}

static void put_uv(wbuf *w, uint64_t v) {
  while (v >= 0x80) {
    put_u8(w, (unsigned)(v & 0x7f) | 0x80u);
    v >>= 7;
  }
  put_u8(w, (unsigned)v);
}

static void put_sv(wbuf *w, int64_t v) {
  put_uv(w, ((uint64_t)v << 1) ^ (uint64_t)(v < 0 ? -1 : 0));
}

static void put_u64(wbuf *w, uint64_t v) {
  if (w->n + 8 <= w->cap)
    for (int i = 0; i < 8; ++i) w->p[w->n + (size_t)i] = (uint8_t)(v >> (8 * i));
  w->n += 8;
}

static void put_f64(wbuf *w, double d) {
  uint64_t v;
  memcpy(&v, &d, sizeof v);
  put_u64(w, v);
}

static void put_str(wbuf *w, const char *s) {
  size_t k = strlen(s) + 1;
  if (w->n + k <= w->cap) memcpy(w->p + w->n, s, k);
  w->n += k;
}

typedef struct rbuf {
  const uint8_t *p;
  size_t n, i;
  int bad; /* ran past the end or read a malformed integer */
} rbuf;

static unsigned get_u8(rbuf *r) {
  if (r->i >= r->n) {
    r->bad = 1;
    return 0;
  }
  return r->p[r->i++];
}

static uint64_t get_uv(rbuf *r) {
  uint64_t v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    unsigned b = get_u8(r);
    if (shift == 63 && b > 1) break; /* more than 64 bits */
    v |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80)) return v;
  }
  r->bad = 1;
  return 0;
}

static int64_t get_sv(rbuf *r) {
  uint64_t u = get_uv(r);
  return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

static uint64_t get_u64(rbuf *r) {
  if (r->n - r->i < 8 || r->i > r->n) {
    r->bad = 1;
    r->i = r->n;
    return 0;
  }
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= (uint64_t)r->p[r->i + (size_t)i] << (8 * i);
  r->i += 8;
  return v;
}

static double get_f64(rbuf *r) {
  uint64_t v = get_u64(r);
  double d;
  memcpy(&d, &v, sizeof d);
  return d;
}

/* A NUL-terminated name inside the payload (NULL when there is none). */
static const char *get_str(rbuf *r) {
  if (r->i >= r->n) {
    r->bad = 1;
    return NULL;
  }
  const uint8_t *e = (const uint8_t *)memchr(r->p + r->i, 0, r->n - r->i);
  if (!e) {
    r->bad = 1;
    r->i = r->n;
    return NULL;
  }
  const char *s = (const char *)(r->p + r->i);
  r->i = (size_t)(e - r->p) + 1;
  return s;
}

/* ---- hashes -------------------------------------------------------------------------------- */

static uint32_t fnv32(uint32_t h, const uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    h ^= p[i];
    h *= 16777619u;
  }
  return h;
}

static uint32_t checksum(const uint8_t *hdr, const uint8_t *payload, size_t n) {
  uint32_t h = fnv32(2166136261u, hdr, 12);
  h = fnv32(h, hdr + 16, 8);
  return fnv32(h, payload, n);
}

typedef struct fp {
  uint64_t h;
} fp;

static void fp_bytes(fp *f, const void *data, size_t n) {
  const uint8_t *p = (const uint8_t *)data;
  for (size_t i = 0; i < n; ++i) {
    f->h ^= p[i];
    f->h *= 1099511628211ull;
  }
}

static void fp_int(fp *f, int64_t v) {
  uint8_t b[8];
  for (int i = 0; i < 8; ++i) b[i] = (uint8_t)((uint64_t)v >> (8 * i));
  fp_bytes(f, b, 8);
}

static void fp_f64(fp *f, double d) {
  uint64_t v;
  if (d == 0) d = 0; /* -0 and 0 alike */
  memcpy(&v, &d, sizeof v);
  fp_int(f, (int64_t)v);
}

static void fp_str(fp *f, const char *s) {
  if (!s) s = "";
  fp_bytes(f, s, strlen(s) + 1);
}

static void fp_conds(fp *f, const goap_cond *c, int n) {
  fp_int(f, n);
  for (int i = 0; i < n; ++i) {
    fp_int(f, c[i].var);
    fp_int(f, (int64_t)c[i].op);
    fp_int(f, c[i].value);
  }
}

static void fp_effs(fp *f, const goap_effect *e, int n) {
  fp_int(f, n);
  for (int i = 0; i < n; ++i) {
    fp_int(f, e[i].var);
    fp_int(f, (int64_t)e[i].op);
    fp_int(f, e[i].value);
  }
}

static void fp_vars(fp *f, const int32_t *v, uint32_t n) {
  fp_int(f, n);
  for (uint32_t i = 0; i < n; ++i) fp_int(f, v[i]);
}

uint64_t goap__type_fingerprint(const goap_agent_type *t) {
  fp f = {14695981039346656037ull};
  const goap_domain *d = t->d;
  fp_str(&f, "goap-domain");
  fp_int(&f, t->nv);
  for (int v = 0; v < t->nv; ++v) {
    goap_var_info vi;
    goap_domain_var_info(d, v, &vi);
    fp_str(&f, vi.name);
    fp_int(&f, (int64_t)vi.type);
    fp_int(&f, vi.lo);
    fp_int(&f, vi.hi);
    fp_int(&f, (int64_t)vi.flags);
    if (vi.type == GOAP_ENUM)
      for (int32_t k = 0; k < vi.value_count; ++k) fp_str(&f, goap_domain_value_name(d, v, k));
  }
  fp_int(&f, t->na);
  for (int i = 0; i < t->na; ++i) {
    int n = 0;
    fp_str(&f, goap_domain_action_name(d, i));
    fp_f64(&f, goap_domain_action_cost(d, i));
    const goap_cond *pre = goap_domain_action_pre(d, i, &n);
    fp_conds(&f, pre, n);
    const goap_effect *eff = goap_domain_action_eff(d, i, &n);
    fp_effs(&f, eff, n);
  }
  fp_int(&f, t->ng);
  for (int g = 0; g < t->ng; ++g) {
    int n = 0;
    fp_str(&f, goap_domain_goal_name(d, g));
    fp_f64(&f, goap_domain_goal_priority(d, g));
    const goap_cond *want = goap_domain_goal_want(d, g, &n);
    fp_conds(&f, want, n);
  }
  /* the agent type */
  fp_str(&f, "goap-agent-type");
  fp_str(&f, t->name);
  for (int i = 0; i < t->na; ++i) {
    const goap__rt_action *r = &t->act[i];
    fp_f64(&f, t->costs[i]);
    fp_f64(&f, r->timeout);
    fp_effs(&f, t->effs + r->on_fail, (int)r->on_fail_count);
    fp_effs(&f, t->effs + r->on_start, (int)r->on_start_count);
    fp_effs(&f, t->effs + r->on_end, (int)r->on_end_count);
    fp_vars(&f, t->vars + r->watch, r->watch_count);
    fp_int(&f, r->reserve_count);
    for (uint32_t k = 0; k < r->reserve_count; ++k) fp_str(&f, t->res_names[r->reserve + k]);
    fp_int(&f, r->check != NULL);
  }
  for (int g = 0; g < t->ng; ++g) {
    const goap__rt_goal *r = &t->goal[g];
    fp_int(&f, r->disabled);
    fp_int(&f, r->priority != NULL);
    fp_conds(&f, t->conds + r->valid, (int)r->valid_count);
    fp_vars(&f, t->vars + r->watch, r->watch_count);
    fp_f64(&f, r->cooldown);
  }
  fp_int(&f, t->nsensors);
  for (int i = 0; i < t->nsensors; ++i) fp_f64(&f, t->sensors[i].interval);
  fp_f64(&f, t->margin);
  fp_f64(&f, t->check_interval);
  fp_f64(&f, t->cooldown);
  fp_int(&f, (int64_t)t->search);
  fp_int(&f, (int64_t)t->heuristic);
  fp_int(&f, t->max_nodes);
  fp_int(&f, t->budget);
  fp_f64(&f, t->budget_ms);
  fp_int(&f, t->htn_root);
  if (t->htn) {
    const goap_htn_domain *h = t->htn;
    fp_vars(&f, t->vars + t->hwatch, t->hwatch_count);
    int nt = goap_htn_domain_task_count(h);
    fp_int(&f, nt);
    for (int k = 0; k < nt; ++k) {
      int nm = goap_htn_domain_method_count(h, k);
      fp_str(&f, goap_htn_domain_task_name(h, k));
      fp_int(&f, nm);
      for (int m = 0; m < nm; ++m) {
        int nc = 0, ns = 0;
        const goap_cond *when = goap_htn_domain_method_when(h, k, m, &nc);
        fp_conds(&f, when, nc);
        const goap_htn_subtask *sub = goap_htn_domain_method_subtasks(h, k, m, &ns);
        fp_int(&f, ns);
        for (int s = 0; s < ns; ++s) {
          fp_int(&f, (int64_t)sub[s].kind);
          fp_int(&f, sub[s].id);
          fp_conds(&f, sub[s].conds, sub[s].cond_count);
          fp_effs(&f, sub[s].effs, sub[s].eff_count);
        }
      }
    }
  }
  return f.h;
}

uint64_t goap_agent_type_fingerprint(const goap_agent_type *t) { return t ? t->fingerprint : 0; }

/* ---- header --------------------------------------------------------------------------------- */

enum { HDR = GOAP_SNAPSHOT_HEADER_SIZE };

/* Starts a snapshot: the payload is written after the header's room. */
static wbuf begin_write(void *buf, size_t cap) {
  wbuf w;
  w.p = (uint8_t *)buf;
  w.cap = buf ? cap : 0;
  w.n = HDR;
  return w;
}

/* Writes the header once the payload is written; GOAP_BUFFER_TOO_SMALL when it did not fit. */
static goap_status end_write(wbuf *w, char kind, uint64_t fingerprint, size_t *size) {
  *size = w->n;
  if (w->n > w->cap) return GOAP_BUFFER_TOO_SMALL;
  if (w->n - HDR > 0xffffffffu) return GOAP_TOO_LARGE;
  uint8_t *h = w->p;
  uint32_t n = (uint32_t)(w->n - HDR);
  memcpy(h, "GOAP", 4);
  h[4] = (uint8_t)kind;
  h[5] = 0;
  h[6] = (uint8_t)(GOAP_SNAPSHOT_VERSION & 0xff);
  h[7] = (uint8_t)(GOAP_SNAPSHOT_VERSION >> 8);
  for (int i = 0; i < 4; ++i) h[8 + i] = (uint8_t)(n >> (8 * i));
  for (int i = 0; i < 8; ++i) h[16 + i] = (uint8_t)(fingerprint >> (8 * i));
  uint32_t c = checksum(h, h + HDR, n);
  for (int i = 0; i < 4; ++i) h[12 + i] = (uint8_t)(c >> (8 * i));
  return GOAP_OK;
}

/* A failure not tied to a place in the data (offset 0). */
static goap_status fail(goap_error *err, goap_status st, const char *msg) {
  return goap__err_set(err, st, 0, msg);
}

/* Checks the header of a snapshot of `kind`; on success *r reads its payload. A failure's
 * offset is the header field at fault (or, truncated, the data's end). */
static goap_status open_read(const void *data, size_t size, char kind, uint64_t fingerprint,
                             rbuf *r, goap_error *err) {
  const uint8_t *h = (const uint8_t *)data;
  if (size < HDR)
    return goap__err_set(err, GOAP_TRUNCATED, size,
                         "snapshot truncated: shorter than its 24-byte header");
  if (memcmp(h, "GOAP", 4) != 0)
    return fail(err, GOAP_CORRUPT, "not a libgoap snapshot: bad magic (expected \"GOAP\")");
  unsigned version = (unsigned)h[6] | (unsigned)h[7] << 8;
  if (version != GOAP_SNAPSHOT_VERSION)
    return goap__err_set(err, GOAP_VERSION_MISMATCH, 6,
                         version > GOAP_SNAPSHOT_VERSION
                             ? "snapshot format version is newer than this libgoap reads (1)"
                             : "snapshot format version is older than this libgoap reads (1)");
  uint32_t n = 0, c = 0;
  uint64_t f = 0;
  for (int i = 0; i < 4; ++i) n |= (uint32_t)h[8 + i] << (8 * i);
  for (int i = 0; i < 4; ++i) c |= (uint32_t)h[12 + i] << (8 * i);
  for (int i = 0; i < 8; ++i) f |= (uint64_t)h[16 + i] << (8 * i);
  if (size - HDR < n)
    return goap__err_set(err, GOAP_TRUNCATED, size,
                         "snapshot truncated: fewer bytes than its header says");
  if (size - HDR > n)
    return goap__err_set(err, GOAP_CORRUPT, HDR + (size_t)n,
                         "snapshot corrupted: bytes after its end");
  if (checksum(h, h + HDR, n) != c)
    return goap__err_set(err, GOAP_CORRUPT, 12, "snapshot corrupted: checksum mismatch");
  if (h[4] != (uint8_t)kind || h[5] != 0)
    return goap__err_set(err, GOAP_DOMAIN_MISMATCH, 4,
                         kind == 'A'   ? "not an agent snapshot (a blackboard's or a squad's)"
                         : kind == 'B' ? "not a blackboard snapshot (an agent's or a squad's)"
                                       : "not a squad snapshot (an agent's or a blackboard's)");
  if (f != fingerprint)
    return goap__err_set(err, GOAP_DOMAIN_MISMATCH, 16,
                         kind == 'A'
                             ? "snapshot from another domain or agent type: the domain's "
                               "variables, actions or goals, or the type, changed since it "
                               "was saved"
                             : "snapshot of a squad with other goal names or order priority");
  r->p = h + HDR;
  r->n = n;
  r->i = 0;
  r->bad = 0;
  return GOAP_OK;
}

/* ---- agents --------------------------------------------------------------------------------- */

enum {
  F_ANNOUNCE = 1,
  F_RUNNING = 2,
  F_SEARCHING = 4,
  F_FROM_IDLE = 8,
  F_IDLE_REPORTED = 16,
  F_SEEN = 32,      /* seen differs from mem: W more words */
  F_BLACKBOARD = 64, /* the agent had a blackboard */
  F_PAUSED = 128      /* an HTN plan ending at a `pause`: its continuation follows the MTR */
};

static void put_stats(wbuf *w, const goap_agent_stats *s) {
  put_uv(w, s->updates);
  put_uv(w, s->plans);
  put_uv(w, s->plan_failures);
  for (int k = 0; k < GOAP_REPLAN_REASON_COUNT; ++k) put_uv(w, s->replans[k]);
  put_uv(w, s->repairs);
  put_uv(w, s->cache_hits);
  put_uv(w, s->expanded);
  put_uv(w, s->actions_started);
  put_uv(w, s->actions_succeeded);
  put_uv(w, s->actions_failed);
  put_uv(w, s->reservations_denied);
}

static void get_stats(rbuf *r, goap_agent_stats *s) {
  s->updates = get_uv(r);
  s->plans = get_uv(r);
  s->plan_failures = get_uv(r);
  for (int k = 0; k < GOAP_REPLAN_REASON_COUNT; ++k) s->replans[k] = get_uv(r);
  s->repairs = get_uv(r);
  s->cache_hits = get_uv(r);
  s->expanded = get_uv(r);
  s->actions_started = get_uv(r);
  s->actions_succeeded = get_uv(r);
  s->actions_failed = get_uv(r);
  s->reservations_denied = get_uv(r);
}

goap_status goap_agent_snapshot(const goap_agent *a, void *buf, size_t cap, size_t *size) {
  if (!a || !size) return GOAP_INVALID_ARGUMENT;
  *size = 0;
  const goap_agent_type *t = a->t;
  int ncont = a->paused ? goap_htn_continuation(a->hp, 0, NULL, 0) : 0;
  if (ncont < 0) return GOAP_INVALID_OPERATION; /* paused with nothing pending: cannot be */
  wbuf w = begin_write(buf, cap);
  int seen = memcmp(a->mem, a->seen, a->W * sizeof *a->mem) != 0;
  unsigned flags = (a->announce ? F_ANNOUNCE : 0u) | (a->running ? F_RUNNING : 0u) |
                   (a->searching ? F_SEARCHING : 0u) | (a->from_idle ? F_FROM_IDLE : 0u) |
                   (a->idle_reported ? F_IDLE_REPORTED : 0u) | (seen ? F_SEEN : 0u) |
                   (a->bb ? F_BLACKBOARD : 0u) | (a->paused ? F_PAUSED : 0u);
  put_u8(&w, flags);
  put_uv(&w, (uint64_t)a->ph);
  put_uv(&w, (uint64_t)a->reason);
  put_f64(&w, a->time);
  for (size_t i = 0; i < a->W; ++i) put_u64(&w, a->mem[i]);
  if (seen)
    for (size_t i = 0; i < a->W; ++i) put_u64(&w, a->seen[i]);
  put_sv(&w, a->order_goal);
  if (a->order_goal >= 0) put_f64(&w, a->order_prio);
  put_sv(&w, a->goal);
  put_f64(&w, a->goal_prio);
  put_uv(&w, (uint64_t)a->plan_len);
  for (int i = 0; i < a->plan_len; ++i) put_uv(&w, (uint64_t)a->plan[i]);
  put_uv(&w, (uint64_t)a->step);
  put_f64(&w, a->plan_cost);
  put_f64(&w, a->action_time);
  put_uv(&w, (uint64_t)a->ncand);
  put_uv(&w, (uint64_t)a->icand);
  for (int i = 0; i < a->ncand; ++i) {
    put_uv(&w, (uint64_t)a->cand[i]);
    put_f64(&w, a->cand_prio[i]);
  }
  put_uv(&w, (uint64_t)a->blocked);
  if (a->blocked) {
    int nb = 0;
    for (int i = 0; i < t->na; ++i) nb += a->costs[i] < 0 && t->costs[i] >= 0;
    put_uv(&w, (uint64_t)nb);
    for (int i = 0; i < t->na; ++i)
      if (a->costs[i] < 0 && t->costs[i] >= 0) put_uv(&w, (uint64_t)i);
  }
  put_uv(&w, a->nhold);
  for (size_t i = 0; i < a->nhold; ++i) {
    put_uv(&w, (uint64_t)a->hold_res[i]);
    put_uv(&w, (uint64_t)a->hold_step[i]);
  }
  int nfail = 0;
  for (int g = 0; g < t->ng; ++g) nfail += a->fail_time[g] >= 0;
  put_uv(&w, (uint64_t)nfail);
  for (int g = 0; g < t->ng; ++g) {
    if (!(a->fail_time[g] >= 0)) continue;
    put_uv(&w, (uint64_t)g);
    put_f64(&w, a->fail_time[g]);
    put_u64(&w, a->fail_hash[g]);
    put_uv(&w, (uint64_t)a->fail_st[g]);
  }
  int nend = 0; /* goals' own cooldowns: when their plans last ended */
  for (int g = 0; g < t->ng; ++g) nend += a->end_time[g] >= 0;
  put_uv(&w, (uint64_t)nend);
  for (int g = 0; g < t->ng; ++g) {
    if (!(a->end_time[g] >= 0)) continue;
    put_uv(&w, (uint64_t)g);
    put_f64(&w, a->end_time[g]);
  }
  put_uv(&w, (uint64_t)a->nfacts); /* failure memory's facts, oldest first (inspection) */
  for (int k = 0; k < a->nfacts; ++k) {
    const goap_failure_info *f = &a->facts[k];
    put_uv(&w, (uint64_t)f->action);
    put_uv(&w, (uint64_t)f->var);
    put_sv(&w, f->value);
    put_u8(&w, f->timeout ? 1u : 0u);
    put_f64(&w, f->learnt);
  }
  put_f64(&w, a->next_goal_check);
  put_f64(&w, a->next_idle_retry);
  for (int i = 0; i < t->nsensors; ++i) put_f64(&w, a->sensor_next[i]);
  put_stats(&w, &a->st);
  if (a->searching) {
    for (size_t i = 0; i < a->W; ++i) put_u64(&w, a->search_start[i]);
    put_uv(&w, a->st.expanded - a->search_base);
  }
  if (t->htn) {
    put_uv(&w, (uint64_t)a->mtr_len);
    for (int i = 0; i < a->mtr_len; ++i) put_uv(&w, (uint64_t)a->mtr[i]);
  }
  if (a->paused) { /* the continuation, next run first, read a few at a time */
    put_uv(&w, (uint64_t)ncont);
    goap_htn_resume_run run[16];
    for (int i = 0; i < ncont; i += 16) {
      goap_htn_continuation(a->hp, i, run, 16);
      for (int k = 0; k < 16 && i + k < ncont; ++k) {
        put_uv(&w, (uint64_t)run[k].task);
        put_uv(&w, (uint64_t)run[k].method);
        put_uv(&w, (uint64_t)run[k].subtask);
        put_uv(&w, (uint64_t)run[k].depth);
      }
    }
  }
  return end_write(&w, 'A', t->fingerprint, size);
}

/* Reads W words of memory into out (may be NULL on the dry run); 0 when a value is outside its
 * variable's range or stray bits are set. tmp: W words of scratch. */
static int get_state(rbuf *r, const goap_agent *a, goap_word *out, goap_word *tmp) {
  const goap_domain *d = a->d;
  for (size_t i = 0; i < a->W; ++i) tmp[i] = get_u64(r);
  if (r->bad) return 0;
  if (out) {
    memcpy(out, tmp, a->W * sizeof *out);
    return 1;
  }
  /* dry run: legal values only. A copy made variable by variable equals the words exactly
   * when every value is in range and no bit outside a field is set. */
  goap_word *chk = a->tmp;
  memset(chk, 0, a->W * sizeof *chk);
  for (int v = 0; v < a->t->nv; ++v)
    if (goap_state_set(d, chk, v, goap_state_get(d, tmp, v)) != GOAP_OK) return 0;
  return memcmp(chk, tmp, a->W * sizeof *chk) == 0;
}

typedef struct agent_need {
  size_t plan, hold, mtr;
  uint64_t expansions;
  int paused;                    /* a paused HTN plan: */
  size_t ncont, cont_at;         /* its continuation's runs, where they are */
} agent_need;

/* A corrupt payload: the offset is where the reader r stands (just past the bad value). */
#define BAD(msg) return goap__err_set(err, GOAP_CORRUPT, HDR + r->i, (msg))

static int finite(double x) { return isfinite(x) != 0; }

/* Decodes the payload: a dry run (apply 0) validates everything and fills *need; apply 1
 * writes the fields (after the buffers were grown to *need). */
static goap_status decode_agent(goap_agent *a, rbuf *r, int apply, agent_need *need,
                                goap_word *scratch, goap_error *err) {
  const goap_agent_type *t = a->t;
  unsigned flags = get_u8(r);
  uint64_t ph = get_uv(r), reason = get_uv(r);
  double time = get_f64(r);
  if (r->bad || ph > PH_EXECUTE || reason >= GOAP_REPLAN_REASON_COUNT ||
      !finite(time))
    BAD("snapshot corrupted: bad agent header fields");
  if (!apply) {
    if ((flags & F_BLACKBOARD) && !a->bb) {
      return fail(err, GOAP_INVALID_OPERATION,
                  "the saved agent had a blackboard: create the agent with the restored one");
    }
    if (!(flags & F_BLACKBOARD) && a->bb) {
      return fail(err, GOAP_INVALID_OPERATION,
                  "the saved agent had no blackboard: create the agent without one");
    }
  }
  if (!get_state(r, a, apply ? a->mem : NULL, scratch))
    BAD("snapshot corrupted: a memory value outside its variable's range");
  if (flags & F_SEEN) {
    if (!get_state(r, a, apply ? a->seen : NULL, scratch))
      BAD("snapshot corrupted: a memory value outside its variable's range");
  } else if (apply) {
    memcpy(a->seen, a->mem, a->W * sizeof *a->seen);
  }
  int64_t order = get_sv(r);
  double order_prio = order >= 0 ? get_f64(r) : 0.0;
  int64_t goal = get_sv(r);
  double goal_prio = get_f64(r);
  uint64_t plan_len = get_uv(r);
  if (r->bad || order < -1 || order >= t->ng || (order >= 0 && t->goal[order].disabled) ||
      order_prio != order_prio || goal < -1 || goal >= t->ng || plan_len > r->n)
    BAD("snapshot corrupted: a goal that does not exist");
  if (ph == PH_EXECUTE && (t->htn ? goal != -1 : goal < 0))
    BAD("snapshot corrupted: a plan without its goal");
  for (uint64_t i = 0; i < plan_len; ++i) {
    uint64_t act = get_uv(r);
    if (r->bad || act >= (uint64_t)t->na) BAD("snapshot corrupted: an action that does not exist");
    if (apply) a->plan[i] = (int32_t)act;
  }
  uint64_t step = get_uv(r);
  double plan_cost = get_f64(r), action_time = get_f64(r);
  if (r->bad || step > plan_len || ((flags & F_RUNNING) && (step >= plan_len || ph != PH_EXECUTE)) ||
      !finite(action_time))
    BAD("snapshot corrupted: a plan step out of range");
  uint64_t ncand = get_uv(r), icand = get_uv(r);
  if (r->bad || ncand > (uint64_t)t->ng || icand > ncand ||
      ((flags & F_SEARCHING) && (icand >= ncand || t->htn || ph != PH_SELECT)))
    BAD("snapshot corrupted: bad candidate goals");
  for (uint64_t i = 0; i < ncand; ++i) {
    uint64_t g = get_uv(r);
    double pr = get_f64(r);
    if (r->bad || g >= (uint64_t)t->ng) BAD("snapshot corrupted: a goal that does not exist");
    if (apply) {
      a->cand[i] = (int)g;
      a->cand_prio[i] = pr;
    }
  }
  uint64_t blocked = get_uv(r);
  if (r->bad || blocked > (uint64_t)t->na) BAD("snapshot corrupted: bad blocked actions");
  if (apply) memcpy(a->costs, t->costs, (size_t)t->na * sizeof *a->costs);
  if (blocked) {
    uint64_t nb = get_uv(r);
    if (r->bad || nb > (uint64_t)t->na) BAD("snapshot corrupted: bad blocked actions");
    for (uint64_t i = 0; i < nb; ++i) {
      uint64_t act = get_uv(r);
      if (r->bad || act >= (uint64_t)t->na || t->costs[act] < 0)
        BAD("snapshot corrupted: bad blocked actions");
      if (apply) a->costs[act] = -1;
    }
  }
  uint64_t nhold = get_uv(r);
  if (r->bad || nhold > r->n) BAD("snapshot corrupted: bad reservations");
  rbuf holds = *r; /* the dry run counts each resource's units against the blackboard's */
  for (uint64_t i = 0; i < nhold; ++i) {
    uint64_t res = get_uv(r), st = get_uv(r);
    if (r->bad || st >= plan_len) BAD("snapshot corrupted: bad reservations");
    if (!a->bb || res >= goap__bb_resource_count(a->bb)) {
      return fail(err, GOAP_INVALID_OPERATION,
                  "a saved reservation's resource is missing: restore the blackboard first");
    }
    if (!apply) { /* this unit and the agent's earlier ones of res need unclaimed units */
      rbuf p = holds;
      int units = 1;
      for (uint64_t k = 0; k < i; ++k) {
        uint64_t pres = get_uv(&p);
        (void)get_uv(&p);
        units += pres == res;
      }
      int ok = goap__bb_prepare_claims(a->bb, (int)res, units);
      if (ok < 0) return fail(err, GOAP_OUT_OF_MEMORY, "out of memory");
      if (ok == 0) {
        return fail(err, GOAP_INVALID_OPERATION,
                    "a saved reservation is not held on the blackboard: restore the blackboard "
                    "saved with the agent");
      }
    }
    if (apply) {
      a->hold_res[i] = (int32_t)res;
      a->hold_step[i] = (int32_t)st;
      (void)goap__bb_claim(a->bb, (int)res, a); /* the dry run saw the unit unclaimed */
    }
  }
  uint64_t nfail = get_uv(r);
  if (r->bad || nfail > (uint64_t)t->ng) BAD("snapshot corrupted: bad failure memory");
  if (apply)
    for (int g = 0; g < t->ng; ++g) a->fail_time[g] = -1;
  for (uint64_t i = 0; i < nfail; ++i) {
    uint64_t g = get_uv(r);
    double ft = get_f64(r);
    uint64_t fh = get_u64(r), fst = get_uv(r);
    if (r->bad || g >= (uint64_t)t->ng || !(ft >= 0) || !finite(ft) || fst > 0xffff)
      BAD("snapshot corrupted: bad failure memory");
    if (apply) {
      a->fail_time[g] = ft;
      a->fail_hash[g] = fh;
      a->fail_st[g] = (goap_status)fst;
    }
  }
  uint64_t nend = get_uv(r);
  if (r->bad || nend > (uint64_t)t->ng) BAD("snapshot corrupted: bad goal cooldowns");
  if (apply)
    for (int g = 0; g < t->ng; ++g) a->end_time[g] = -1;
  for (uint64_t i = 0; i < nend; ++i) {
    uint64_t g = get_uv(r);
    double et = get_f64(r);
    if (r->bad || g >= (uint64_t)t->ng || !(et >= 0) || !finite(et))
      BAD("snapshot corrupted: bad goal cooldowns");
    if (apply) a->end_time[g] = et;
  }
  uint64_t nfacts = get_uv(r);
  if (r->bad || nfacts > r->n) BAD("snapshot corrupted: bad failure memory");
  if (apply) a->nfacts = 0;
  for (uint64_t i = 0; i < nfacts; ++i) {
    uint64_t act = get_uv(r), var = get_uv(r);
    int64_t value = get_sv(r);
    unsigned timeout = get_u8(r);
    double learnt = get_f64(r);
    if (r->bad || act >= (uint64_t)t->na || var >= (uint64_t)goap_domain_var_count(a->d) ||
        value < INT32_MIN || value > INT32_MAX || timeout > 1 || !(learnt >= 0) || !finite(learnt))
      BAD("snapshot corrupted: bad failure memory");
    /* an agent with a shorter history (goap_agent_desc.replan_history) keeps the newest */
    if (apply && a->hist_cap && (uint64_t)a->hist_cap >= nfacts - i) {
      goap_failure_info *f = &a->facts[a->nfacts++];
      memset(f, 0, sizeof *f);
      f->goal = -1;
      f->action = (int)act;
      f->var = (int)var;
      f->value = (int32_t)value;
      f->timeout = (int)timeout;
      f->status = GOAP_OK;
      f->learnt = learnt;
      f->expires = INFINITY;
    }
  }
  double next_check = get_f64(r), next_idle = get_f64(r);
  if (r->bad || !finite(next_check) || !finite(next_idle)) BAD("snapshot corrupted: bad timers");
  for (int i = 0; i < t->nsensors; ++i) {
    double s = get_f64(r);
    if (r->bad || !finite(s)) BAD("snapshot corrupted: bad timers");
    if (apply) a->sensor_next[i] = s;
  }
  goap_agent_stats st;
  memset(&st, 0, sizeof st);
  get_stats(r, &st);
  uint64_t expansions = 0;
  if (flags & F_SEARCHING) {
    if (!get_state(r, a, apply ? a->search_start : NULL, scratch))
      BAD("snapshot corrupted: a memory value outside its variable's range");
    expansions = get_uv(r);
    if (r->bad || expansions > st.expanded || expansions > t->max_nodes)
      BAD("snapshot corrupted: bad search progress");
  }
  uint64_t mtr_len = 0;
  if (t->htn) {
    mtr_len = get_uv(r);
    if (r->bad || mtr_len > r->n) BAD("snapshot corrupted: bad method traversal record");
    for (uint64_t i = 0; i < mtr_len; ++i) {
      uint64_t m = get_uv(r);
      if (r->bad || m > 0x7fffffff) BAD("snapshot corrupted: bad method traversal record");
      if (apply) a->mtr[i] = (int32_t)m;
    }
  }
  uint64_t ncont = 0;
  size_t cont_at = 0;
  if (flags & F_PAUSED) {
    if (!t->htn || ph != PH_EXECUTE) BAD("snapshot corrupted: a paused plan without HTN");
    ncont = get_uv(r);
    cont_at = r->i;
    if (r->bad || ncont > r->n / 4) BAD("snapshot corrupted: bad HTN continuation");
    for (uint64_t i = 0; i < ncont; ++i) {
      uint64_t task = get_uv(r), m = get_uv(r), sub = get_uv(r), depth = get_uv(r);
      int ns = 0;
      if (r->bad || task >= (uint64_t)goap_htn_domain_task_count(t->htn) ||
          m >= (uint64_t)goap_htn_domain_method_count(t->htn, (int)task) || depth > 0x7fffffff ||
          !goap_htn_domain_method_subtasks(t->htn, (int)task, (int)m, &ns) ||
          sub >= (uint64_t)ns)
        BAD("snapshot corrupted: bad HTN continuation");
    }
  }
  if (r->bad) BAD("snapshot corrupted: the payload ends early");
  if (r->i != r->n) BAD("snapshot corrupted: bytes after the agent's state");
  if (!apply) {
    need->plan = (size_t)plan_len;
    need->hold = (size_t)nhold;
    need->mtr = (size_t)mtr_len;
    need->expansions = expansions;
    need->paused = (flags & F_PAUSED) != 0;
    need->ncont = (size_t)ncont;
    need->cont_at = cont_at;
    return GOAP_OK;
  }
  st.memory_bytes = 0;
  a->st = st;
  a->announce = (flags & F_ANNOUNCE) != 0;
  a->running = (flags & F_RUNNING) != 0;
  a->searching = (flags & F_SEARCHING) != 0;
  a->from_idle = (flags & F_FROM_IDLE) != 0;
  a->idle_reported = (flags & F_IDLE_REPORTED) != 0;
  a->ph = (int)ph;
  a->reason = (goap_replan_reason)reason;
  a->time = time;
  a->order_goal = (int)order;
  a->order_prio = order_prio;
  a->goal = (int)goal;
  a->goal_prio = goal_prio;
  a->plan_len = (int)plan_len;
  a->step = (int)step;
  a->plan_cost = plan_cost;
  a->action_time = action_time;
  a->ncand = (int)ncand;
  a->icand = (int)icand;
  a->blocked = (int)blocked;
  a->nhold = (size_t)nhold;
  a->next_goal_check = next_check;
  a->next_idle_retry = next_idle;
  a->mtr_len = (int)mtr_len;
  a->paused = 0;
  return GOAP_OK;
}

goap_status goap_agent_restore(goap_agent *a, const void *data, size_t size, goap_error *err) {
  goap_error local;
  if (!err) err = &local;
  goap__err_clear(err);
  if (!a || (!data && size)) return fail(err, GOAP_INVALID_ARGUMENT, "NULL agent or data");
  if (a->st.updates != 0 || a->running || a->nhold != 0 || a->plan_len != 0)
    return fail(err, GOAP_INVALID_OPERATION,
                "restore into a freshly created agent (this one was updated already)");
  rbuf rb;
  rbuf *r = &rb;
  goap_status st = open_read(data, size, 'A', a->t->fingerprint, r, err);
  if (st != GOAP_OK) return st;
  /* scratch for the dry run's memory words: the planner's search_start is free until the
   * writing pass */
  agent_need need;
  memset(&need, 0, sizeof need);
  st = decode_agent(a, r, 0, &need, a->search_start, err);
  if (st != GOAP_OK) return st;
  /* grow what the state needs (the object is unchanged if this fails) */
  size_t nh = need.hold;
  if (!goap__grow_zero(&a->alloc, (void **)&a->plan, &a->plan_cap, need.plan ? need.plan : 1,
                     sizeof *a->plan) ||
      (nh && (!goap__grow_zero(&a->alloc, (void **)&a->hold_res, &a->chold, nh,
                             sizeof *a->hold_res) ||
              !goap__grow_zero(&a->alloc, (void **)&a->hold_step, &a->chold_step, nh,
                             sizeof *a->hold_step))) ||
      (a->t->htn && !goap__grow_zero(&a->alloc, (void **)&a->mtr, &a->mtr_cap,
                                   need.mtr ? need.mtr : 1, sizeof *a->mtr)))
    return fail(err, GOAP_OUT_OF_MEMORY, "out of memory");
  r->i = 0;
  r->bad = 0;
  st = decode_agent(a, r, 1, &need, a->tmp, err);
  if (st != GOAP_OK) return st; /* cannot happen: the dry run accepted the same bytes */
  if (a->searching) {
    /* the unfinished search runs again to the point it had reached (searches are
     * deterministic), so it ends on the same update as it would have */
    int g = a->cand[a->icand];
    uint64_t expanded = a->st.expanded;
    st = goap__agent_begin_search(a, g);
    uint32_t done = 0;
    if (st == GOAP_IN_PROGRESS && need.expansions > 0)
      st = goap_plan_step(a->cur, (uint32_t)need.expansions, &done);
    a->st.expanded = expanded;
    a->search_base = expanded - need.expansions;
    if (st == GOAP_OUT_OF_MEMORY) {
      a->searching = 0;
      a->ncand = a->icand = 0;
      return fail(err, GOAP_OUT_OF_MEMORY, "out of memory");
    }
    if (st != GOAP_IN_PROGRESS || done != need.expansions) {
      /* the saved search was still running after that many expansions: this one ended, so
       * the domain's dynamic costs or the planner differ from the saved run's */
      a->searching = 0;
      a->ncand = a->icand = 0;
      return fail(err, GOAP_DOMAIN_MISMATCH,
                  "the unfinished search does not replay as saved (dynamic costs or the "
                  "planner changed)");
    }
  }
  if (need.paused) { /* the HTN planner takes the continuation back: resuming goes on */
    goap_htn_planner *hp = goap__agent_htn_planner(a);
    size_t bytes = (need.ncont ? need.ncont : 1) * sizeof(goap_htn_resume_run);
    goap_htn_resume_run *runs =
        hp ? (goap_htn_resume_run *)goap__rt_alloc(&a->alloc, bytes) : NULL;
    if (!runs) return fail(err, GOAP_OUT_OF_MEMORY, "out of memory");
    r->i = need.cont_at;
    for (size_t i = 0; i < need.ncont; ++i) {
      runs[i].task = (int)get_uv(r);
      runs[i].method = (int)get_uv(r);
      runs[i].subtask = (int)get_uv(r);
      runs[i].depth = (int)get_uv(r);
    }
    st = goap_htn_restore_continuation(hp, runs, (int)need.ncont, a->mtr, a->mtr_len);
    goap__rt_free(&a->alloc, runs, bytes);
    if (st == GOAP_OUT_OF_MEMORY) return fail(err, st, "out of memory");
    if (st != GOAP_OK) return fail(err, GOAP_CORRUPT, "snapshot corrupted: bad HTN continuation");
    a->paused = 1;
  }
  return GOAP_OK;
}

/* ---- blackboards ---------------------------------------------------------------------------- */

goap_status goap_blackboard_snapshot(const goap_blackboard *bb, void *buf, size_t cap,
                                     size_t *size) {
  if (!bb || !size) return GOAP_INVALID_ARGUMENT;
  *size = 0;
  wbuf w = begin_write(buf, cap);
  put_uv(&w, goap_blackboard_version(bb));
  size_t n = goap__bb_slot_count(bb);
  put_uv(&w, n);
  for (size_t i = 0; i < n; ++i) {
    put_str(&w, goap__bb_slot_name(bb, i));
    put_sv(&w, goap__bb_read(bb, (int)i));
  }
  size_t nr = goap__bb_resource_count(bb);
  put_uv(&w, nr);
  for (size_t i = 0; i < nr; ++i) {
    int capacity = 0, held = 0;
    goap__bb_resource_get(bb, i, &capacity, &held);
    put_str(&w, goap__bb_resource_name(bb, (int)i));
    put_sv(&w, capacity);
    put_sv(&w, held);
  }
  return end_write(&w, 'B', 0, size);
}

goap_status goap_blackboard_restore(goap_blackboard *bb, const void *data, size_t size,
                                    goap_error *err) {
  goap_error local;
  if (!err) err = &local;
  goap__err_clear(err);
  if (!bb || (!data && size)) return fail(err, GOAP_INVALID_ARGUMENT, "NULL blackboard or data");
  if (goap__bb_attached(bb))
    return fail(err, GOAP_INVALID_OPERATION,
                "restore a blackboard before creating the agents attached to it");
  rbuf rb;
  rbuf *r = &rb;
  goap_status st = open_read(data, size, 'B', 0, r, err);
  if (st != GOAP_OK) return st;
  /* dry run */
  uint64_t version = get_uv(r), n = get_uv(r);
  if (r->bad || n > r->n) BAD("snapshot corrupted: bad blackboard slots");
  for (uint64_t i = 0; i < n; ++i) {
    const char *name = get_str(r);
    int64_t v = get_sv(r);
    if (r->bad || !name || v < INT32_MIN || v > INT32_MAX)
      BAD("snapshot corrupted: bad blackboard slots");
  }
  uint64_t nr = get_uv(r);
  if (r->bad || nr > r->n) BAD("snapshot corrupted: bad blackboard resources");
  for (uint64_t i = 0; i < nr; ++i) {
    const char *name = get_str(r);
    int64_t c = get_sv(r), h = get_sv(r);
    if (r->bad || !name || !name[0] || c < 0 || c > INT32_MAX || h < 0 || h > c)
      BAD("snapshot corrupted: bad blackboard resources");
  }
  if (r->i != r->n) BAD("snapshot corrupted: bytes after the blackboard's state");
  /* build the new content aside, then swap it in */
  goap_blackboard *nb;
  if (goap_blackboard_create(goap__bb_allocator(bb), &nb) != GOAP_OK)
    return fail(err, GOAP_OUT_OF_MEMORY, "out of memory");
  r->i = 0;
  (void)get_uv(r);
  (void)get_uv(r);
  for (uint64_t i = 0; i < n && st == GOAP_OK; ++i) {
    const char *name = get_str(r);
    st = goap_blackboard_set(nb, name, (int32_t)get_sv(r));
  }
  (void)get_uv(r);
  for (uint64_t i = 0; i < nr && st == GOAP_OK; ++i) {
    const char *name = get_str(r);
    int c = (int)get_sv(r), h = (int)get_sv(r);
    st = goap_blackboard_add_resource(nb, name, c);
    if (st == GOAP_OK) /* the units' holders: claimed by the agents' restores */
      goap__bb_resource_set_held(nb, (size_t)i, h);
  }
  if (st == GOAP_OK && (goap__bb_slot_count(nb) != n || goap__bb_resource_count(nb) != nr))
    st = GOAP_DUPLICATE;
  if (st != GOAP_OK) {
    goap_blackboard_destroy(nb);
    if (st == GOAP_OUT_OF_MEMORY) return fail(err, st, "out of memory");
    BAD("snapshot corrupted: a blackboard name saved twice");
  }
  goap__bb_set_version(nb, version);
  goap__bb_swap(bb, nb);
  goap_blackboard_destroy(nb);
  return GOAP_OK;
}

/* ---- squads --------------------------------------------------------------------------------- */

static uint64_t squad_fingerprint(const char *const *names, double prio) {
  fp f = {14695981039346656037ull};
  fp_str(&f, "goap-squad");
  for (int k = 0; k < 4; ++k) fp_str(&f, names[k]);
  fp_f64(&f, prio);
  return f.h;
}

goap_status goap_squad_snapshot(const goap_squad *s, void *buf, size_t cap, size_t *size) {
  if (!s || !size) return GOAP_INVALID_ARGUMENT;
  *size = 0;
  const char *const *names;
  double prio;
  size_t n;
  int behavior, ph;
  const int *ordered;
  goap__squad_get(s, &names, &prio, &n, &behavior, &ph, &ordered);
  wbuf w = begin_write(buf, cap);
  put_uv(&w, n);
  put_uv(&w, (uint64_t)behavior);
  put_sv(&w, ph);
  for (size_t i = 0; i < n; ++i) put_sv(&w, ordered[i]);
  return end_write(&w, 'S', squad_fingerprint(names, prio), size);
}

goap_status goap_squad_restore(goap_squad *s, const void *data, size_t size,
                               goap_agent *const *members, int count, goap_error *err) {
  goap_error local;
  if (!err) err = &local;
  goap__err_clear(err);
  if (!s || (!data && size) || count < 0 || (count > 0 && !members))
    return fail(err, GOAP_INVALID_ARGUMENT, "NULL squad, data or members");
  const char *const *names;
  double prio;
  size_t n0;
  int b0, p0;
  const int *o0;
  goap__squad_get(s, &names, &prio, &n0, &b0, &p0, &o0);
  if (n0 != 0)
    return fail(err, GOAP_INVALID_OPERATION, "restore into a squad without members");
  rbuf rb;
  rbuf *r = &rb;
  goap_status st = open_read(data, size, 'S', squad_fingerprint(names, prio), r, err);
  if (st != GOAP_OK) return st;
  uint64_t n = get_uv(r), behavior = get_uv(r);
  int64_t ph = get_sv(r);
  if (r->bad || behavior >= GOAP_SQUAD_BEHAVIOR_COUNT || ph < 0 || ph > INT32_MAX || n > r->n)
    BAD("snapshot corrupted: bad squad state");
  if (n != (uint64_t)count)
    return fail(err, GOAP_INVALID_OPERATION,
                "the squad had another number of members than given to the restore");
  for (int i = 0; i < count; ++i) {
    if (!members[i]) return fail(err, GOAP_INVALID_ARGUMENT, "a NULL member");
    for (int k = 0; k < i; ++k)
      if (members[k] == members[i])
        return fail(err, GOAP_INVALID_ARGUMENT, "a member given twice");
    int64_t g = get_sv(r);
    int ng = goap_domain_goal_count(goap_agent_type_domain(goap_agent_get_type(members[i])));
    if (r->bad || g < -1 || g >= ng) BAD("snapshot corrupted: an order for a goal that does not exist");
  }
  if (r->i != r->n) BAD("snapshot corrupted: bytes after the squad's state");
  if (!goap__squad_set(s, members, (size_t)count, (int)behavior, (int)ph, NULL))
    return fail(err, GOAP_OUT_OF_MEMORY, "out of memory");
  goap__squad_get(s, &names, &prio, &n0, &b0, &p0, &o0);
  int *ordered = (int *)(uintptr_t)o0; /* the squad's own array (s is not const) */
  r->i = 0;
  (void)get_uv(r);
  (void)get_uv(r);
  (void)get_sv(r);
  for (int i = 0; i < count; ++i) ordered[i] = (int)get_sv(r);
  return GOAP_OK;
}

/* ---- JSON ----------------------------------------------------------------------------------- */

typedef struct jbuf {
  char *p;
  size_t n, cap;
} jbuf;

static void jraw(jbuf *j, const char *s, size_t k) {
  if (j->n + k < j->cap) memcpy(j->p + j->n, s, k);
  else if (j->n < j->cap) memcpy(j->p + j->n, s, j->cap - j->n);
  j->n += k;
}

static void jput(jbuf *j, const char *s) { jraw(j, s, strlen(s)); }

static void jnum(jbuf *j, double x) {
  char t[40];
  if (!finite(x)) {
    jput(j, "null");
    return;
  }
  snprintf(t, sizeof t, "%.10g", x);
  jput(j, t);
}

static void jint(jbuf *j, long long x) {
  char t[32];
  snprintf(t, sizeof t, "%lld", x);
  jput(j, t);
}

static void jstr(jbuf *j, const char *s) {
  static const char hex[] = "0123456789abcdef";
  jput(j, "\"");
  for (const unsigned char *c = (const unsigned char *)(s ? s : ""); *c; ++c) {
    if (*c == '"' || *c == '\\') {
      char e[2] = {'\\', (char)*c};
      jraw(j, e, 2);
    } else if (*c < 0x20 || *c == 0x7f) {
      char e[6] = {'\\', 'u', '0', '0', hex[*c >> 4], hex[*c & 15u]};
      jraw(j, e, 6);
    } else {
      jraw(j, (const char *)c, 1);
    }
  }
  jput(j, "\"");
}

static void jgoal(jbuf *j, const goap_domain *d, int g) {
  if (g < 0) jput(j, "null");
  else jstr(j, goap_domain_goal_name(d, g));
}

goap_status goap_agent_snapshot_json(const goap_agent *a, char *buf, size_t cap, size_t *size) {
  if (!a || !size) return GOAP_INVALID_ARGUMENT;
  static const char *const phases[] = {"idle", "select", "execute"};
  const goap_agent_type *t = a->t;
  const goap_domain *d = a->d;
  jbuf j = {buf, 0, buf ? cap : 0};
  jput(&j, "{\"t\": ");
  jnum(&j, a->time);
  jput(&j, ", \"type\": ");
  jstr(&j, t->name);
  jput(&j, ", \"phase\": \"");
  jput(&j, phases[a->ph]);
  jput(&j, "\", \"reason\": \"");
  jput(&j, goap_replan_reason_name(a->reason));
  int exec = a->ph == PH_EXECUTE;
  jput(&j, "\", \"goal\": ");
  jgoal(&j, d, exec ? a->goal : -1);
  jput(&j, ", \"priority\": ");
  jnum(&j, exec ? a->goal_prio : 0.0);
  jput(&j, ", \"plan\": [");
  for (int i = 0; exec && i < a->plan_len; ++i) {
    if (i) jput(&j, ", ");
    jstr(&j, goap_domain_action_name(d, a->plan[i]));
  }
  jput(&j, "], \"step\": ");
  jint(&j, exec ? a->step : 0);
  jput(&j, ", \"cost\": ");
  jnum(&j, exec ? a->plan_cost : 0.0);
  jput(&j, ", \"action\": ");
  if (exec && a->running) jstr(&j, goap_domain_action_name(d, a->plan[a->step]));
  else jput(&j, "null");
  jput(&j, ", \"action_time\": ");
  jnum(&j, exec && a->running ? a->action_time : 0.0);
  jput(&j, ", \"order\": ");
  jgoal(&j, d, a->order_goal);
  jput(&j, ", \"memory\": {");
  for (int v = 0; v < t->nv; ++v) {
    goap_var_info vi;
    goap_domain_var_info(d, v, &vi);
    int32_t x = goap_state_get(d, a->mem, v);
    if (v) jput(&j, ", ");
    jstr(&j, vi.name);
    jput(&j, ": ");
    if (vi.type == GOAP_BOOL) jput(&j, x ? "true" : "false");
    else if (vi.type == GOAP_ENUM) jstr(&j, goap_domain_value_name(d, v, x));
    else jint(&j, x);
  }
  jput(&j, "}, \"reservations\": [");
  for (size_t i = 0; i < a->nhold; ++i) {
    if (i) jput(&j, ", ");
    jstr(&j, goap__bb_resource_name(a->bb, a->hold_res[i]));
  }
  jput(&j, "], \"failed_goals\": [");
  int first = 1;
  for (int g = 0; g < t->ng; ++g) {
    if (!(a->fail_time[g] >= 0)) continue;
    jput(&j, first ? "{\"goal\": " : ", {\"goal\": ");
    first = 0;
    jgoal(&j, d, g);
    jput(&j, ", \"t\": ");
    jnum(&j, a->fail_time[g]);
    jput(&j, "}");
  }
  jput(&j, "]");
  if (t->htn) {
    jput(&j, ", \"mtr\": [");
    for (int i = 0; exec && i < a->mtr_len; ++i) {
      if (i) jput(&j, ", ");
      jint(&j, a->mtr[i]);
    }
    jput(&j, "]");
  }
  jput(&j, "}");
  *size = j.n;
  if (j.n >= j.cap) {
    if (buf && cap) buf[cap - 1] = '\0';
    return GOAP_BUFFER_TOO_SMALL;
  }
  buf[j.n] = '\0';
  return GOAP_OK;
}
