/*
 * htn_planner.c -- the HTN planner: total-order forward decomposition with chronological
 * backtracking, on an explicit stack.
 *
 * Invariants:
 *  - The agenda (the tasks still to do, in order) is a persistent linked list of nodes in an
 *    arena: a node is a run [pos, end) of subtasks of one method followed by the node `next`.
 *    Nodes are never changed once made; taking a subtask makes a new node for the rest of the
 *    run (none when the subtask was the last: a tail position keeps no frame). The arena only
 *    grows during a descent and is cut back to a choice point's height when backtracking.
 *  - One choice point per compound task decomposed: the task, the next method to try, the
 *    agenda after the task, and the heights of every log (undo, plan, nodes, trace, MTR). A
 *    failure restores the newest choice point (state by the undo log: (word, old value) pairs,
 *    never a state copy) and tries its next applicable method; when it has none it is popped
 *    and the failure goes on to the one below: chronological backtracking into every open
 *    compound task.
 *  - No recursion anywhere: plans of any length use heap arrays that grow by doubling and are
 *    kept between requests, so a warmed-up planner does not allocate.
 *  - The depth of a node is the number of unfinished methods on the agenda; a branch that
 *    would exceed max_depth is cut (it fails), and the final status says so when no plan is
 *    found.
 */
#include <string.h>

#include "htn_internal.h"

typedef struct node {
  uint32_t pos, end; /* subtasks [pos, end) of the domain's pool */
  int32_t next;      /* the agenda after this run, or -1 */
  uint32_t len;      /* runs on the agenda from here (this one included) */
  int32_t hdepth;    /* nesting level of the run's subtasks (0: the root task) */
  int32_t task;      /* the task whose method this run belongs to (-1: the root) */
  size_t ulen;       /* undo-log height when the run's method was chosen */
} node;

typedef struct choice {
  int32_t task;
  int32_t next_m;    /* next method index to try */
  int32_t rest;      /* the agenda after the task */
  int32_t hdepth;    /* nesting level of the task */
  uint32_t len;      /* agenda length of a run of its methods */
  int tied;          /* the MTR so far equals the bound's prefix */
  size_t ulen, plen, nlen, rlen, mlen;
} choice;

struct goap_htn_planner {
  goap_allocator alloc;
  const goap_htn_domain *h;
  const goap_domain *d;
  uint32_t words;
  goap_word *cur;
  goap_planner *gp;
  uint32_t *uw;
  goap_word *uv;
  size_t ulen, uwcap, uvcap;
  int32_t *plan;
  size_t plen, pcap;
  node *nodes;
  size_t nlen, ncap;
  choice *cps;
  size_t cplen, cpcap;
  goap_htn_trace_entry *rec;
  size_t rlen, rcap;
  int32_t *mtr;
  size_t mlen, mcap;
  int32_t *sub;
  size_t subcap;
  int32_t *chain;
  size_t chaincap;
  uint32_t *tstamp;
  uint32_t stamp;
  /* the last search */
  int have_last;
  goap_status last;
  int paused;
  goap_htn_stop stop;
  goap_htn_stats stats;
  double cost;
  int pending;
  int32_t pend;
};

#define GROW(p, arr, cap, need)                                                          \
  (((need) <= (cap)) || goap__grow(&(p)->alloc, (void **)&(arr), &(cap), (need), sizeof *(arr)))

goap_status goap_htn_planner_create(const goap_htn_domain *h, const goap_htn_planner_desc *desc,
                                    goap_htn_planner **out) {
  goap_allocator a;
  goap_htn_planner *p;
  goap_planner_desc gd;
  size_t init = 256;
  if (!out) return GOAP_INVALID_ARGUMENT;
  *out = NULL;
  if (!h) return GOAP_INVALID_ARGUMENT;
  a = goap__resolve(desc ? &desc->allocator : NULL);
  p = (goap_htn_planner *)goap__alloc(&a, sizeof *p);
  if (!p) return GOAP_OUT_OF_MEMORY;
  memset(p, 0, sizeof *p);
  p->alloc = a;
  p->h = h;
  p->d = h->d;
  p->words = h->words;
  if (desc && desc->initial_steps) init = desc->initial_steps;
  memset(&gd, 0, sizeof gd);
  if (desc) gd = desc->goap;
  gd.allocator = a;
  p->cur = (goap_word *)goap__alloc(&a, (p->words ? p->words : 1) * sizeof *p->cur);
  p->tstamp = (uint32_t *)goap__alloc(&a, (size_t)(h->ntasks ? h->ntasks : 1) * sizeof *p->tstamp);
  (void)goap_planner_create(h->d, &gd, &p->gp); /* p->gp NULL on failure: checked below */
  if (!p->cur || !p->tstamp || !p->gp || !GROW(p, p->uw, p->uwcap, init * 2) ||
      !GROW(p, p->uv, p->uvcap, init * 2) || !GROW(p, p->plan, p->pcap, init) ||
      !GROW(p, p->nodes, p->ncap, init * 2) || !GROW(p, p->cps, p->cpcap, init) ||
      !GROW(p, p->rec, p->rcap, init * 2) || !GROW(p, p->mtr, p->mcap, init) ||
      !GROW(p, p->sub, p->subcap, 64) || !GROW(p, p->chain, p->chaincap, 64)) {
    goap_htn_planner_destroy(p);
    return GOAP_OUT_OF_MEMORY;
  }
  memset(p->tstamp, 0, (size_t)(h->ntasks ? h->ntasks : 1) * sizeof *p->tstamp);
  *out = p;
  return GOAP_OK;
}

void goap_htn_planner_destroy(goap_htn_planner *p) {
  goap_allocator a;
  if (!p) return;
  a = p->alloc;
  goap_planner_destroy(p->gp);
  goap__free(&a, p->cur, (p->words ? p->words : 1) * sizeof *p->cur);
  goap__free(&a, p->tstamp, (size_t)(p->h->ntasks ? p->h->ntasks : 1) * sizeof *p->tstamp);
  goap__free(&a, p->uw, p->uwcap * sizeof *p->uw);
  goap__free(&a, p->uv, p->uvcap * sizeof *p->uv);
  goap__free(&a, p->plan, p->pcap * sizeof *p->plan);
  goap__free(&a, p->nodes, p->ncap * sizeof *p->nodes);
  goap__free(&a, p->cps, p->cpcap * sizeof *p->cps);
  goap__free(&a, p->rec, p->rcap * sizeof *p->rec);
  goap__free(&a, p->mtr, p->mcap * sizeof *p->mtr);
  goap__free(&a, p->sub, p->subcap * sizeof *p->sub);
  goap__free(&a, p->chain, p->chaincap * sizeof *p->chain);
  goap__free(&a, p, sizeof *p);
}

const char *goap_htn_stop_name(goap_htn_stop stop) {
  switch (stop) {
    case GOAP_HTN_STOP_NONE: return "none";
    case GOAP_HTN_STOP_STEPS: return "steps";
    case GOAP_HTN_STOP_TIME: return "time";
    case GOAP_HTN_STOP_DEPTH: return "depth_limit";
    case GOAP_HTN_STOP_CYCLE: return "cycle";
    case GOAP_HTN_STOP_ACHIEVE: return "achieve_limit";
  }
  return "unknown";
}

int goap_htn_mtr_compare(const int32_t *a, int na, const int32_t *b, int nb) {
  int i, n = na < nb ? na : nb;
  if (!a || !b) n = 0;
  for (i = 0; i < n; ++i)
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

/* ------------------------------------------------------------------------------------------
 * The search
 * ---------------------------------------------------------------------------------------- */
static int push_node(goap_htn_planner *p, uint32_t pos, uint32_t end, int32_t next,
                     uint32_t len, int32_t hdepth, int32_t task, size_t ulen, int32_t *out) {
  node *n;
  if (!GROW(p, p->nodes, p->ncap, p->nlen + 1)) return 0;
  n = &p->nodes[p->nlen];
  n->pos = pos;
  n->end = end;
  n->next = next;
  n->len = len;
  n->hdepth = hdepth;
  n->task = task;
  n->ulen = ulen;
  *out = (int32_t)p->nlen++;
  return 1;
}

static int push_rec(goap_htn_planner *p, goap_htn_kind kind, int32_t id, int32_t method,
                    int32_t depth, size_t plan_start, size_t plan_length) {
  goap_htn_trace_entry *e;
  if (!GROW(p, p->rec, p->rcap, p->rlen + 1)) return 0;
  e = &p->rec[p->rlen++];
  e->kind = kind;
  e->id = id;
  e->method = method;
  e->depth = depth;
  e->plan_start = (int32_t)plan_start;
  e->plan_length = (int32_t)plan_length;
  return 1;
}

/* Logs the old value of word w. */
static int log_word(goap_htn_planner *p, uint32_t w) {
  if (!GROW(p, p->uw, p->uwcap, p->ulen + 1) || !GROW(p, p->uv, p->uvcap, p->ulen + 1))
    return 0;
  p->uw[p->ulen] = w;
  p->uv[p->ulen] = p->cur[w];
  ++p->ulen;
  return 1;
}

static void undo_to(goap_htn_planner *p, size_t height) {
  GOAP_ASSERT(height <= p->ulen && p->ulen <= p->uwcap && p->ulen <= p->uvcap);
  while (p->ulen > height) {
    --p->ulen;
    p->cur[p->uw[p->ulen]] = p->uv[p->ulen];
  }
}

/* Applies an applicable action with logging and appends it to the plan. 0: out of memory. */
static int do_action(goap_htn_planner *p, int32_t a) {
  const goap_htn_domain *h = p->h;
  uint32_t k;
  for (k = h->aw_off[a]; k < h->aw_off[a + 1]; ++k)
    if (!log_word(p, h->aw[k])) return 0;
  if (!GROW(p, p->plan, p->pcap, p->plen + 1)) return 0;
  goap_action_apply(p->d, p->cur, a);
  p->plan[p->plen++] = a;
  return 1;
}

/* A cut at max_depth: is the chain since the last state change a cycle (a task decomposed
 * twice with no state change in between)? */
static int is_cycle(goap_htn_planner *p, int32_t task, int32_t agenda) {
  int32_t i;
  if (++p->stamp == 0) {
    memset(p->tstamp, 0, (size_t)(p->h->ntasks ? p->h->ntasks : 1) * sizeof *p->tstamp);
    p->stamp = 1;
  }
  p->tstamp[task] = p->stamp;
  for (i = agenda; i >= 0; i = p->nodes[i].next) {
    const node *n = &p->nodes[i];
    if (n->ulen != p->ulen) break;
    if (n->task < 0) continue;
    if (p->tstamp[n->task] == p->stamp) return 1;
    p->tstamp[n->task] = p->stamp;
  }
  return 0;
}

typedef struct run_ctx {
  const goap_htn_request *req;
  uint32_t max_depth;
  uint64_t budget_ns, t0;
  int tied;
  int cut_depth, cut_cycle, achieve_limited, timed_out;
} run_ctx;

enum { R_OK = 0, R_FAIL, R_OOM, R_STOP };

/* Runs an `achieve`; R_OK (applied), R_FAIL, R_OOM. */
static int do_achieve(goap_htn_planner *p, run_ctx *rc, const goap_cond *want, int nwant,
                      size_t *start, size_t *len) {
  goap_request gr;
  goap_result res;
  goap_status st;
  int i;
  *start = p->plen;
  *len = 0;
  if (goap_state_satisfies(p->d, p->cur, want, nwant)) return R_OK;
  memset(&gr, 0, sizeof gr);
  gr.start = p->cur;
  gr.want = want;
  gr.want_count = nwant;
  gr.search = rc->req->achieve_search;
  gr.heuristic = rc->req->achieve_heuristic;
  gr.max_nodes = rc->req->achieve_max_nodes;
  gr.host = rc->req->host;
  if (rc->budget_ns) { /* the search gets what is left of the request's time */
    uint64_t used = goap__now_ns() - rc->t0;
    if (used >= rc->budget_ns) {
      rc->timed_out = 1;
      return R_FAIL;
    }
    gr.max_ms = (double)(rc->budget_ns - used) / 1e6;
  }
  memset(&res, 0, sizeof res);
  res.plan = p->sub;
  res.plan_capacity = (int)(p->subcap > 0x7fffffff ? 0x7fffffff : p->subcap);
  p->stats.achieves++;
  st = goap_plan(p->gp, &gr, &res);
  if (st == GOAP_BUFFER_TOO_SMALL) {
    if (!GROW(p, p->sub, p->subcap, (size_t)res.plan_length)) return R_OOM;
    res.plan = p->sub;
    res.plan_capacity = (int)p->subcap;
    st = goap_plan_finish(p->gp, &res);
  }
  if (st == GOAP_OUT_OF_MEMORY) return R_OOM;
  if (st != GOAP_OK) {
    if (st == GOAP_TIME_LIMIT && rc->budget_ns && goap__now_ns() - rc->t0 >= rc->budget_ns)
      rc->timed_out = 1;
    else if (st != GOAP_NO_PLAN)
      rc->achieve_limited = 1;
    return R_FAIL;
  }
  for (i = 0; i < res.plan_length; ++i)
    if (!do_action(p, p->sub[i])) return R_OOM;
  *len = (size_t)res.plan_length;
  return R_OK;
}

/* Tries the methods of the newest choice point from its next_m. Sets *agenda and returns 1
 * when one applies; pops the choice point and returns 0 when none does; -1: out of memory. */
static int try_methods(goap_htn_planner *p, run_ctx *rc, int32_t *agenda) {
  const goap_htn_domain *h = p->h;
  choice *cp = &p->cps[p->cplen - 1];
  int32_t m0 = h->task_m0[cp->task], mn = h->task_mn[cp->task], m;
  const int32_t *bound = rc->req ? rc->req->mtr_bound : NULL;
  int bound_len = bound ? rc->req->mtr_bound_length : 0;
  for (m = cp->next_m; m < mn; ++m) {
    const htn__method *M = &h->methods[m0 + m];
    uint32_t k;
    int ok = !M->never;
    if (cp->tied && p->mlen < (size_t)bound_len && m > bound[p->mlen]) break;
    for (k = 0; ok && k < M->tn; ++k) ok = htn__test_ok(&h->tests[M->t0 + k], p->cur);
    if (!ok) continue;
    cp->next_m = m + 1;
    if (!push_rec(p, GOAP_HTN_TASK, cp->task, m, cp->hdepth, p->plen, 0)) return -1;
    if (!GROW(p, p->mtr, p->mcap, p->mlen + 1)) return -1;
    rc->tied = cp->tied;
    if (rc->tied && p->mlen < (size_t)bound_len && m < bound[p->mlen]) rc->tied = 0;
    p->mtr[p->mlen++] = m;
    p->stats.expansions++;
    if (M->sn == 0) {
      *agenda = cp->rest;
    } else {
      int32_t task = cp->task, rest = cp->rest, hd = cp->hdepth + 1;
      uint32_t len = cp->len;
      if (!push_node(p, M->s0, M->s0 + M->sn, rest, len, hd, task, p->ulen, agenda)) return -1;
    }
    return 1;
  }
  --p->cplen;
  return 0;
}

static goap_status search(goap_htn_planner *p, run_ctx *rc, int32_t agenda) {
  const goap_htn_domain *h = p->h;
  const goap_htn_request *req = rc->req;
  uint64_t max_steps = req ? req->max_steps : 0;
  for (;;) {
    const node *n;
    const goap_htn_subtask *s;
    int32_t rest, hdepth;
    int r;
    if (agenda < 0) {
      if (rc->tied) goto fail; /* not better than the bound */
      return GOAP_OK;
    }
    p->stats.steps++;
    if (max_steps && p->stats.steps > max_steps) {
      p->stats.steps = max_steps;
      p->stop = GOAP_HTN_STOP_STEPS;
      return GOAP_NODE_LIMIT;
    }
    if (rc->budget_ns && (p->stats.steps & 255u) == 0 &&
        goap__now_ns() - rc->t0 >= rc->budget_ns) {
      p->stop = GOAP_HTN_STOP_TIME;
      return GOAP_TIME_LIMIT;
    }
    n = &p->nodes[agenda];
    s = &h->subs[n->pos];
    hdepth = n->hdepth;
    if (n->pos + 1 == n->end) {
      rest = n->next;
    } else {
      node copy = *n;
      if (!push_node(p, copy.pos + 1, copy.end, copy.next, copy.len, copy.hdepth, copy.task,
                     copy.ulen, &rest))
        return GOAP_OUT_OF_MEMORY;
    }
    switch (s->kind) {
      case GOAP_HTN_ACTION:
        if (!goap_action_applicable(p->d, p->cur, s->id)) goto fail;
        if (!do_action(p, s->id)) return GOAP_OUT_OF_MEMORY;
        if (!push_rec(p, GOAP_HTN_ACTION, s->id, -1, hdepth, p->plen - 1, 1))
          return GOAP_OUT_OF_MEMORY;
        agenda = rest;
        continue;
      case GOAP_HTN_SET: {
        int k;
        for (k = 0; k < s->eff_count; ++k)
          if (!log_word(p, h->var_word[s->effs[k].var])) return GOAP_OUT_OF_MEMORY;
        if (goap_state_assign(p->d, p->cur, s->effs, s->eff_count) != GOAP_OK) goto fail;
        if (!push_rec(p, GOAP_HTN_SET, -1, -1, hdepth, p->plen, 0)) return GOAP_OUT_OF_MEMORY;
        agenda = rest;
        continue;
      }
      case GOAP_HTN_PAUSE:
        if (rc->tied) goto fail;
        if (!push_rec(p, GOAP_HTN_PAUSE, -1, -1, hdepth, p->plen, 0))
          return GOAP_OUT_OF_MEMORY;
        p->pending = 1;
        p->pend = rest;
        return GOAP_PARTIAL;
      case GOAP_HTN_ACHIEVE:
      case GOAP_HTN_ACHIEVE_GOAL: {
        const goap_cond *want = s->conds;
        int nwant = s->cond_count;
        size_t st0 = 0, len = 0;
        if (s->kind == GOAP_HTN_ACHIEVE_GOAL) want = goap_domain_goal_want(p->d, s->id, &nwant);
        r = do_achieve(p, rc, want, nwant, &st0, &len);
        if (r == R_OOM) return GOAP_OUT_OF_MEMORY;
        if (rc->timed_out) {
          p->stop = GOAP_HTN_STOP_TIME;
          return GOAP_TIME_LIMIT;
        }
        if (r == R_FAIL) goto fail;
        if (!push_rec(p, s->kind, s->kind == GOAP_HTN_ACHIEVE_GOAL ? s->id : -1, -1, hdepth, st0,
                      len))
          return GOAP_OUT_OF_MEMORY;
        agenda = rest;
        continue;
      }
      case GOAP_HTN_TASK: {
        uint32_t len = (rest >= 0 ? p->nodes[rest].len : 0) + 1;
        choice *cp;
        if (len > rc->max_depth) {
          rc->cut_depth = 1;
          if (!rc->cut_cycle && is_cycle(p, s->id, rest)) rc->cut_cycle = 1;
          goto fail;
        }
        if (len > p->stats.max_depth) p->stats.max_depth = len;
        { /* The same task, before the same rest of the agenda, in the same state: a cycle
           * through tail positions (T = [U], U = [T]) that the depth never sees. Whatever
           * the repeat could find, the first occurrence finds too: prune it. */
          size_t k = p->cplen;
          int repeat = 0;
          while (k > 0 && p->cps[k - 1].ulen == p->ulen && !repeat) {
            --k;
            repeat = p->cps[k].task == s->id && p->cps[k].rest == rest;
          }
          if (repeat) {
            rc->cut_cycle = 1;
            goto fail;
          }
        }
        if (!GROW(p, p->cps, p->cpcap, p->cplen + 1)) return GOAP_OUT_OF_MEMORY;
        cp = &p->cps[p->cplen++];
        cp->task = s->id;
        cp->next_m = 0;
        cp->rest = rest;
        cp->hdepth = hdepth;
        cp->len = len;
        cp->tied = rc->tied;
        cp->ulen = p->ulen;
        cp->plen = p->plen;
        cp->nlen = p->nlen;
        cp->rlen = p->rlen;
        cp->mlen = p->mlen;
        r = try_methods(p, rc, &agenda);
        if (r < 0) return GOAP_OUT_OF_MEMORY;
        if (r > 0) continue;
        goto fail;
      }
    }
  fail:
    if (p->cplen) p->stats.backtracks++;
    for (;;) {
      const choice *cp;
      if (p->cplen == 0) {
        if (rc->cut_cycle) {
          p->stop = GOAP_HTN_STOP_CYCLE;
          return GOAP_CONFLICT;
        }
        if (rc->cut_depth) {
          p->stop = GOAP_HTN_STOP_DEPTH;
          return GOAP_TOO_LARGE;
        }
        if (rc->achieve_limited) {
          p->stop = GOAP_HTN_STOP_ACHIEVE;
          return GOAP_NODE_LIMIT;
        }
        return GOAP_NO_PLAN;
      }
      cp = &p->cps[p->cplen - 1];
      GOAP_ASSERT(cp->plen <= p->plen && cp->nlen <= p->nlen && cp->mlen <= p->mlen);
      undo_to(p, cp->ulen);
      p->plen = cp->plen;
      p->nlen = cp->nlen;
      p->rlen = cp->rlen;
      p->mlen = cp->mlen;
      rc->tied = cp->tied;
      r = try_methods(p, rc, &agenda);
      if (r < 0) return GOAP_OUT_OF_MEMORY;
      if (r > 0) break;
    }
  }
}

static void finish(goap_htn_planner *p, goap_status st, uint64_t t0) {
  size_t i;
  double cost = 0.0;
  p->have_last = 1;
  p->last = st;
  p->paused = st == GOAP_PARTIAL;
  if (st != GOAP_OK && st != GOAP_PARTIAL) {
    p->plen = 0;
    p->rlen = 0;
    p->mlen = 0;
    p->pending = 0;
  }
  for (i = 0; i < p->plen; ++i) cost += goap_domain_action_cost(p->d, p->plan[i]);
  p->cost = cost;
  p->stats.time_us = (double)(goap__now_ns() - t0) / 1000.0;
}

goap_status goap_htn_fetch(const goap_htn_planner *p, goap_htn_result *r) {
  goap_status st;
  if (!p || !r) return GOAP_INVALID_ARGUMENT;
  if (!p->have_last) return GOAP_INVALID_OPERATION;
  st = p->last;
  r->plan_length = (int)p->plen;
  r->mtr_length = (int)p->mlen;
  r->cost = p->cost;
  r->paused = p->paused;
  r->stop = p->stop;
  r->stats = p->stats;
  if (st == GOAP_OK || st == GOAP_PARTIAL) {
    int fits = (size_t)(r->plan_capacity > 0 ? r->plan_capacity : 0) >= p->plen &&
               (p->plen == 0 || r->plan) &&
               (size_t)(r->mtr_capacity > 0 ? r->mtr_capacity : 0) >= p->mlen &&
               (p->mlen == 0 || r->mtr);
    if (!r->mtr && r->mtr_capacity == 0) /* the MTR was not asked for */
      fits = (size_t)(r->plan_capacity > 0 ? r->plan_capacity : 0) >= p->plen &&
             (p->plen == 0 || r->plan);
    if (!fits) {
      st = GOAP_BUFFER_TOO_SMALL;
    } else {
      if (p->plen) memcpy(r->plan, p->plan, p->plen * sizeof *p->plan);
      if (r->mtr && p->mlen) memcpy(r->mtr, p->mtr, p->mlen * sizeof *p->mtr);
    }
  }
  r->status = st;
  return st;
}

static goap_status check_request(const goap_htn_planner *p, const goap_htn_request *req,
                                 int need_task) {
  if (!req) return GOAP_OK;
  if (need_task && (req->task < 0 || req->task >= p->h->ntasks)) return GOAP_INVALID_ARGUMENT;
  if (req->max_ms < 0 || req->max_ms != req->max_ms) return GOAP_INVALID_ARGUMENT;
  if (req->mtr_bound_length < 0 || (req->mtr_bound_length > 0 && !req->mtr_bound))
    return GOAP_INVALID_ARGUMENT;
  return GOAP_OK;
}

static goap_status run(goap_htn_planner *p, const goap_htn_request *req, int32_t agenda,
                       uint64_t t0, goap_htn_result *result) {
  run_ctx rc;
  goap_status st;
  memset(&rc, 0, sizeof rc);
  rc.req = req;
  rc.t0 = t0;
  rc.max_depth = req && req->max_depth ? req->max_depth : GOAP_HTN_DEFAULT_MAX_DEPTH;
  rc.budget_ns = req && req->max_ms > 0 ? (uint64_t)(req->max_ms * 1e6) : 0;
  if (rc.budget_ns == 0 && req && req->max_ms > 0) rc.budget_ns = 1;
  rc.tied = req && req->mtr_bound != NULL;
  st = search(p, &rc, agenda);
  finish(p, st, t0);
  if (st == GOAP_OUT_OF_MEMORY) {
    result->status = st;
    result->plan_length = result->mtr_length = 0;
    result->paused = 0;
    result->stop = GOAP_HTN_STOP_NONE;
    result->stats = p->stats;
    return st;
  }
  return goap_htn_fetch(p, result);
}

static void reset(goap_htn_planner *p) {
  p->ulen = p->plen = p->nlen = p->cplen = p->rlen = 0;
  p->stop = GOAP_HTN_STOP_NONE;
  p->paused = 0;
  memset(&p->stats, 0, sizeof p->stats);
}

goap_status goap_htn_plan(goap_htn_planner *p, const goap_htn_request *req,
                          goap_htn_result *result) {
  uint64_t t0 = goap__now_ns();
  goap_status st;
  int32_t root;
  if (!p || !req || !result) return GOAP_INVALID_ARGUMENT;
  st = check_request(p, req, 1);
  p->pending = 0;
  if (st != GOAP_OK) {
    result->status = st;
    return st;
  }
  reset(p);
  p->mlen = 0;
  if (req->start) {
    memcpy(p->cur, req->start, p->words * sizeof *p->cur);
  } else {
    goap_state_init(p->d, p->cur);
  }
  if (!push_node(p, p->h->nsubs + (uint32_t)req->task, p->h->nsubs + (uint32_t)req->task + 1,
                 -1, 0, 0, -1, 0, &root)) {
    result->status = GOAP_OUT_OF_MEMORY;
    return GOAP_OUT_OF_MEMORY;
  }
  return run(p, req, root, t0, result);
}

int goap_htn_pending(const goap_htn_planner *p) { return p ? p->pending : 0; }

goap_status goap_htn_resume(goap_htn_planner *p, const goap_word *state,
                            const goap_htn_request *req, goap_htn_result *result) {
  uint64_t t0 = goap__now_ns();
  goap_status st;
  size_t k = 0, i;
  int32_t at, head = -1;
  goap_htn_request local;
  if (!p || !result) return GOAP_INVALID_ARGUMENT;
  if (!p->pending) {
    result->status = GOAP_INVALID_OPERATION;
    return GOAP_INVALID_OPERATION;
  }
  st = check_request(p, req, 0);
  if (st != GOAP_OK) {
    result->status = st;
    return st;
  }
  if (req) {
    local = *req;
  } else {
    memset(&local, 0, sizeof local);
  }
  local.mtr_bound = NULL;
  local.mtr_bound_length = 0;
  /* Keep only the continuation's runs: copy them, root-most first, to the arena's start. */
  for (at = p->pend; at >= 0; at = p->nodes[at].next) {
    if (!GROW(p, p->chain, p->chaincap, k + 1)) {
      result->status = GOAP_OUT_OF_MEMORY;
      return GOAP_OUT_OF_MEMORY;
    }
    p->chain[k++] = at;
  }
  for (i = 0; i < k; ++i) {
    node n = p->nodes[p->chain[k - 1 - i]];
    n.next = head;
    n.ulen = 0;
    p->nodes[i] = n;
    head = (int32_t)i;
  }
  p->pending = 0;
  reset(p);
  p->nlen = k;
  if (state)
    memcpy(p->cur, state, p->words * sizeof *p->cur);
  else
    goap_state_init(p->d, p->cur);
  return run(p, &local, head, t0, result);
}

/* The method of `task` whose subtasks hold pool index pos; -1 when none does. */
static int method_of(const goap_htn_domain *h, int32_t task, uint32_t pos) {
  int32_t m;
  for (m = 0; m < h->task_mn[task]; ++m) {
    const htn__method *M = &h->methods[h->task_m0[task] + m];
    if (pos >= M->s0 && pos < M->s0 + M->sn) return (int)m;
  }
  return -1;
}

int goap_htn_continuation(const goap_htn_planner *p, int first, goap_htn_resume_run *out,
                          int cap) {
  int32_t at;
  int n = 0;
  if (!p || !p->pending || first < 0) return -1;
  for (at = p->pend; at >= 0; at = p->nodes[at].next, ++n) {
    const node *x = &p->nodes[at];
    if (out && n >= first && n - first < cap) {
      goap_htn_resume_run *o = &out[n - first];
      int m = x->task >= 0 ? method_of(p->h, x->task, x->pos) : -1;
      o->task = x->task;
      o->method = m;
      o->subtask = m >= 0 ? (int)(x->pos - p->h->methods[p->h->task_m0[x->task] + m].s0) : 0;
      o->depth = x->hdepth;
    }
  }
  return n;
}

goap_status goap_htn_restore_continuation(goap_htn_planner *p, const goap_htn_resume_run *runs,
                                          int count, const int32_t *mtr, int mtr_length) {
  const goap_htn_domain *h;
  int i;
  if (!p || count < 0 || mtr_length < 0 || (count && !runs) || (mtr_length && !mtr))
    return GOAP_INVALID_ARGUMENT;
  h = p->h;
  for (i = 0; i < count; ++i) { /* a suffix of a method's subtasks, not empty */
    const goap_htn_resume_run *r = &runs[i];
    if (r->task < 0 || r->task >= h->ntasks || r->method < 0 ||
        r->method >= h->task_mn[r->task] || r->subtask < 0 || r->depth < 0 ||
        (uint32_t)r->subtask >= h->methods[h->task_m0[r->task] + r->method].sn)
      return GOAP_INVALID_ARGUMENT;
  }
  p->pending = 0;
  reset(p);
  p->mlen = 0;
  if (!GROW(p, p->nodes, p->ncap, (size_t)count) || !GROW(p, p->mtr, p->mcap, (size_t)mtr_length))
    return GOAP_OUT_OF_MEMORY;
  /* as goap_htn_resume lays a continuation out: root-most run first, each pointing to the
   * one before it; a run's length counts it and the runs after it */
  for (i = 0; i < count; ++i) {
    const goap_htn_resume_run *r = &runs[count - 1 - i];
    const htn__method *M = &h->methods[h->task_m0[r->task] + r->method];
    node *x = &p->nodes[i];
    x->pos = M->s0 + (uint32_t)r->subtask;
    x->end = M->s0 + M->sn;
    x->next = i - 1;
    x->len = (uint32_t)i + 1;
    x->hdepth = r->depth;
    x->task = r->task;
    x->ulen = 0;
  }
  p->nlen = (size_t)count;
  if (mtr_length) memcpy(p->mtr, mtr, (size_t)mtr_length * sizeof *mtr);
  p->mlen = (size_t)mtr_length;
  p->pend = count - 1;
  p->pending = 1;
  return GOAP_OK;
}

int goap_htn_trace(const goap_htn_planner *p, goap_htn_trace_entry *out, int cap) {
  size_t n;
  if (!p || !p->have_last) return 0;
  n = p->rlen;
  if (out && cap > 0) memcpy(out, p->rec, (n < (size_t)cap ? n : (size_t)cap) * sizeof *out);
  return (int)n;
}
