/*
 * relax.c -- hmax, hadd and hff over the delete and interval relaxation.
 *
 * The relaxed world never forgets: a bool or enum variable accumulates every value it has been
 * given, and an int variable a reachable interval (its hull) that only widens: `= k` adds k,
 * `+= n` (n > 0) stretches it to the top of the range, `-= n` to the bottom (strict or clamped;
 * only a strict ADD adds its range test to the action's conditions). A condition holds
 * in the relaxed world once the values reached intersect its interval. This over-approximates
 * what real plans can reach, so hmax is admissible.
 *
 * The exploration is a generalised Dijkstra: an action fires when its last condition holds, at
 * time cost + max (hmax) or cost + sum (hadd) of its conditions' times; its effects are applied
 * in time order from a binary heap. Ties are broken by action id, so results are deterministic.
 *
 * hff extracts a relaxed plan from the hadd exploration through the recorded best supporters;
 * its actions are also the preferred operators of GOAP_REQUEST_PREFERRED.
 *
 * Each domain condition is visited once per evaluation through an index built at creation: a
 * single-value bool/enum condition under its fact; an int interval without != in two lists of
 * its variable, sorted by low end (ascending) and high end (descending), with a cursor each
 * that the widening hull pushes along (a disjoint interval starts to meet the hull exactly
 * when the hull passes one of its ends, so every condition passed holds); any other condition
 * (enum ranges, !=) is rechecked on every change of its variable.
 *
 * Invariants: every array is sized at planner creation (goal arrays grow with the largest goal
 * seen); an evaluation resets what it tests (goal and `other` condition times, fact times,
 * cursors, active actions' counters) and writes every other condition's time and supporter
 * before they are read; nothing here allocates during a search.
 */
#include <string.h>

#include "planner.h"

static goap_status alloc_arr(goap_planner *p, void **ptr, size_t n, size_t elem) {
  if (n == 0) n = 1;
  *ptr = goap__alloc(&p->alloc, n * elem);
  if (!*ptr) return GOAP_OUT_OF_MEMORY;
  memset(*ptr, 0, n * elem);
  p->memory += n * elem;
  return GOAP_OK;
}

static void free_arr(goap_planner *p, void *ptr, size_t n, size_t elem) {
  if (n == 0) n = 1;
  goap__free(&p->alloc, ptr, n * elem);
}

#define RX_ARRAYS(X)                                                                          \
  X(cond, ccond, goap__rcond)                                                                 \
  X(act_off, nact1, uint32_t)                                                                 \
  X(var_off, nvar1, uint32_t)                                                                 \
  X(var_cond, nvcond, int32_t)                                                                \
  X(fact_off, nvar1, uint32_t)                                                                \
  X(cond_time, ccond, double)                                                                 \
  X(unmet, nact1, int32_t)                                                                    \
  X(cost_sum, nact1, double)                                                                  \
  X(fact_time, nfacts, double)                                                                \
  X(hull_lo, nvar1, uint64_t)                                                                 \
  X(hull_hi, nvar1, uint64_t)                                                                 \
  X(event_time, nact1, double)                                                                \
  X(event_action, nact1, int32_t)                                                             \
  X(tline_time, ctl, double)                                                                  \
  X(tline_lo, ctl, uint64_t)                                                                  \
  X(tline_hi, ctl, uint64_t)                                                                  \
  X(tline_next, ctl, int32_t)                                                                 \
  X(tline_head, nvar1, int32_t)                                                               \
  X(tline_tail, nvar1, int32_t)                                                               \
  X(goal_head, nvar1, int32_t)                                                                \
  X(goal_next, cgoal1, int32_t)                                                               \
  X(cond_sup, ccond, int32_t)                                                                 \
  X(stack, ccond, int32_t)                                                                    \
  X(mark, nact1, uint32_t)                                                                    \
  X(fact_cond_off, nfacts1, uint32_t)                                                         \
  X(fact_cond, nvcond, int32_t)                                                               \
  X(int_cond_off, nvar1, uint32_t)                                                            \
  X(int_cond_by_lo, nvcond, int32_t)                                                          \
  X(int_cond_by_hi, nvcond, int32_t)                                                          \
  X(int_cond_lo_pos, nvar1, uint32_t)                                                         \
  X(int_cond_hi_pos, nvar1, uint32_t)                                                         \
  X(other_cond_off, nvar1, uint32_t)                                                          \
  X(other_cond, nvcond, int32_t)                                                              \
  X(relaxed_plan, nact1, int32_t)                                                             \
  X(pref, nact1, uint32_t)                                                                    \
  X(int_cond_lo_key, nvcond, uint64_t)                                                        \
  X(int_cond_hi_key, nvcond, uint64_t)                                                        \
  X(cond_owner, nvcond, int32_t)

typedef struct sizes {
  size_t ccond, nact1, nvar1, nvcond, nfacts, nfacts1, ctl, cgoal1;
} sizes;

static sizes rx_sizes(const goap_planner *p) {
  const goap_domain *d = p->d;
  const goap__relax *r = &p->rx;
  sizes s;
  s.ccond = (size_t)r->ncond + (size_t)r->cap_goal;
  s.nact1 = (size_t)d->nactions + 1;
  s.nvar1 = (size_t)d->nvars + 1;
  s.nvcond = (size_t)r->ncond;
  s.nfacts = r->nfacts;
  s.nfacts1 = (size_t)r->nfacts + 1;
  s.ctl = r->cap_tline;
  s.cgoal1 = (size_t)r->cap_goal;
  return s;
}

void goap__relax_free(goap_planner *p) {
  goap__relax *r = &p->rx;
  sizes s = rx_sizes(p);
#define FREE_ONE(name, count, type) free_arr(p, r->name, s.count, sizeof(type));
  RX_ARRAYS(FREE_ONE)
#undef FREE_ONE
  memset(r, 0, sizeof *r);
}

/* Appends the relaxed conditions of action i to r->cond (when `store`), returns how many. */
static int action_conds(const goap_domain *d, int i, goap__rcond *out) {
  const goap__action *a = &d->actions[i];
  int n = 0;
  for (int k = 0; k < a->npre; ++k) {
    const goap_cond *c = &a->pre[k];
    const goap__var *v = &d->vars[c->var];
    uint64_t lo, hi, ne;
    uint32_t has_ne;
    if (!goap__cond_interval(d, c, &lo, &hi, &ne, &has_ne)) continue; /* action is `never` */
    if (lo == 0 && hi == v->range && !has_ne) continue;
    if (out) {
      out[n].var = c->var;
      out[n].owner = i;
      out[n].a = lo;
      out[n].b = hi;
      out[n].ne = ne;
      out[n].has_ne = has_ne;
    }
    ++n;
  }
  for (int k = 0; k < a->neff; ++k) {
    const goap_effect *e = &a->eff[k];
    if (e->op != GOAP_ADD) continue;
    const goap__var *v = &d->vars[e->var];
    int64_t delta = e->value;
    int64_t lo = delta < 0 ? -delta : 0;
    int64_t hi = (int64_t)v->range - (delta > 0 ? delta : 0);
    if (lo > hi || (lo == 0 && hi == (int64_t)v->range)) continue;
    if (out) {
      out[n].var = e->var;
      out[n].owner = i;
      out[n].a = (uint64_t)lo;
      out[n].b = (uint64_t)hi;
      out[n].ne = 0;
      out[n].has_ne = 0;
    }
    ++n;
  }
  return n;
}

/* ---- the condition index ---------------------------------------------------------------- */

enum { K_FACT, K_INT, K_OTHER };

static int cond_kind(const goap_domain *d, const goap__rcond *c) {
  if (d->vars[c->var].type == GOAP_INT) return c->has_ne ? K_OTHER : K_INT;
  return c->a == c->b && !c->has_ne ? K_FACT : K_OTHER;
}

/* Sorts ids[0..n) by key (a ascending when by_a, else b descending), then id: a heap sort,
 * in place and deterministic. */
static int rc_before(const goap__rcond *cond, int32_t x, int32_t y, int by_a) {
  uint64_t kx = by_a ? cond[x].a : cond[x].b, ky = by_a ? cond[y].a : cond[y].b;
  if (kx != ky) return by_a ? kx < ky : kx > ky;
  return x < y;
}

static void sift(const goap__rcond *cond, int32_t *ids, size_t i, size_t n, int by_a) {
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= n) return;
    if (c + 1 < n && rc_before(cond, ids[c], ids[c + 1], by_a)) ++c;
    if (!rc_before(cond, ids[i], ids[c], by_a)) return;
    int32_t t = ids[i];
    ids[i] = ids[c];
    ids[c] = t;
    i = c;
  }
}

static void sort_conds(const goap__rcond *cond, int32_t *ids, size_t n, int by_a) {
  for (size_t i = n / 2; i-- > 0;) sift(cond, ids, i, n, by_a);
  for (size_t end = n; end > 1; --end) {
    int32_t t = ids[0];
    ids[0] = ids[end - 1];
    ids[end - 1] = t;
    sift(cond, ids, 0, end - 1, by_a);
  }
}

/* Splits the domain conditions into the fact, int and other lists (CSR, in condition order;
 * the int lists then sorted). */
static void build_index(goap_planner *p) {
  const goap_domain *d = p->d;
  goap__relax *r = &p->rx;
  for (int c = 0; c < r->ncond; ++c) {
    const goap__rcond *rc = &r->cond[c];
    int k = cond_kind(d, rc);
    if (k == K_FACT) r->fact_cond_off[r->fact_off[rc->var] + rc->a + 1]++;
    else if (k == K_INT) r->int_cond_off[rc->var + 1]++;
    else r->other_cond_off[rc->var + 1]++;
  }
  for (uint32_t f = 0; f < r->nfacts; ++f) r->fact_cond_off[f + 1] += r->fact_cond_off[f];
  for (int v = 0; v < d->nvars; ++v) {
    r->int_cond_off[v + 1] += r->int_cond_off[v];
    r->other_cond_off[v + 1] += r->other_cond_off[v];
  }
  /* fill, using the per-evaluation pointers as cursors */
  uint32_t *icur = r->int_cond_lo_pos, *gcur = r->int_cond_hi_pos;
  for (int v = 0; v < d->nvars; ++v) {
    icur[v] = r->int_cond_off[v];
    gcur[v] = r->other_cond_off[v];
  }
  for (int c = 0; c < r->ncond; ++c) {
    const goap__rcond *rc = &r->cond[c];
    int k = cond_kind(d, rc);
    if (k == K_FACT) continue; /* below */
    if (k == K_INT) {
      r->int_cond_by_lo[icur[rc->var]] = c;
      r->int_cond_by_hi[icur[rc->var]++] = c;
    } else {
      r->other_cond[gcur[rc->var]++] = c;
    }
  }
  /* facts: fill with a cursor per fact, walking the conditions once more */
  {
    /* fact_cond_off[f] is fact f's start; used as a cursor, then reset */
    uint32_t *fcur = r->fact_cond_off;
    for (int c = 0; c < r->ncond; ++c) {
      const goap__rcond *rc = &r->cond[c];
      if (cond_kind(d, rc) != K_FACT) continue;
      r->fact_cond[fcur[r->fact_off[rc->var] + rc->a]++] = c;
    }
    /* each cursor now stands at the next fact's start: shift back */
    for (uint32_t f = r->nfacts; f > 0; --f) r->fact_cond_off[f] = r->fact_cond_off[f - 1];
    r->fact_cond_off[0] = 0;
  }
  for (int v = 0; v < d->nvars; ++v) {
    size_t n = r->int_cond_off[v + 1] - r->int_cond_off[v];
    sort_conds(r->cond, r->int_cond_by_lo + r->int_cond_off[v], n, 1);
    sort_conds(r->cond, r->int_cond_by_hi + r->int_cond_off[v], n, 0);
  }
  /* the sort keys and owners beside the lists, read without touching the conditions */
  for (uint32_t i = 0, n = r->int_cond_off[d->nvars]; i < n; ++i) {
    r->int_cond_lo_key[i] = r->cond[r->int_cond_by_lo[i]].a;
    r->int_cond_hi_key[i] = r->cond[r->int_cond_by_hi[i]].b;
  }
  for (int c = 0; c < r->ncond; ++c) r->cond_owner[c] = r->cond[c].owner;
}

goap_status goap__relax_init(goap_planner *p) {
  const goap_domain *d = p->d;
  goap__relax *r = &p->rx;
  memset(r, 0, sizeof *r);
  r->ncond = 0;
  for (int i = 0; i < d->nactions; ++i) r->ncond += action_conds(d, i, NULL);
  r->nfacts = 0;
  for (int v = 0; v < d->nvars; ++v)
    if (d->vars[v].type != GOAP_INT) r->nfacts += (uint32_t)d->vars[v].nvalues;
  r->cap_tline = 2 * (size_t)d->nvars + d->nwriters + 1;
  r->cap_goal = 8;
  sizes s = rx_sizes(p);
#define ALLOC_ONE(name, count, type)                                                          \
  if (alloc_arr(p, (void **)&r->name, s.count, sizeof(type)) != GOAP_OK) {                    \
    goap__relax_free(p);                                                                      \
    return GOAP_OUT_OF_MEMORY;                                                                \
  }
  RX_ARRAYS(ALLOC_ONE)
#undef ALLOC_ONE
  /* conditions per action */
  uint32_t at = 0;
  for (int i = 0; i < d->nactions; ++i) {
    r->act_off[i] = at;
    at += (uint32_t)action_conds(d, i, r->cond + at);
  }
  r->act_off[d->nactions] = at;
  /* conditions per variable (CSR) */
  for (int c = 0; c < r->ncond; ++c) r->var_off[r->cond[c].var + 1]++;
  for (int v = 0; v < d->nvars; ++v) r->var_off[v + 1] += r->var_off[v];
  {
    uint32_t *fill = r->tline_tail ? (uint32_t *)r->tline_tail : NULL; /* scratch of nvars + 1 */
    for (int v = 0; v <= d->nvars; ++v) fill[v] = r->var_off[v];
    for (int c = 0; c < r->ncond; ++c) r->var_cond[fill[r->cond[c].var]++] = c;
  }
  uint32_t f = 0;
  for (int v = 0; v < d->nvars; ++v) {
    r->fact_off[v] = f;
    if (d->vars[v].type != GOAP_INT) f += (uint32_t)d->vars[v].nvalues;
  }
  r->fact_off[d->nvars] = f;
  for (int v = 0; v < d->nvars; ++v) r->goal_head[v] = -1;
  build_index(p);
  return GOAP_OK;
}

/* Makes room for n goal conditions (grows rarely: only past the largest goal seen). All or
 * nothing: on failure the old arrays are kept. */
static goap_status ensure_goal_cap(goap_planner *p, int n) {
  goap__relax *r = &p->rx;
  if (n <= r->cap_goal) return GOAP_OK;
  int ncap = r->cap_goal;
  while (ncap < n) ncap *= 2;
  size_t oldc = (size_t)r->ncond + (size_t)r->cap_goal, newc = (size_t)r->ncond + (size_t)ncap;
  goap__rcond *c = (goap__rcond *)goap__alloc(&p->alloc, newc * sizeof *c);
  double *t = (double *)goap__alloc(&p->alloc, newc * sizeof *t);
  int32_t *g = (int32_t *)goap__alloc(&p->alloc, (size_t)ncap * sizeof *g);
  int32_t *sup = (int32_t *)goap__alloc(&p->alloc, newc * sizeof *sup);
  int32_t *stk = (int32_t *)goap__alloc(&p->alloc, newc * sizeof *stk);
  if (!c || !t || !g || !sup || !stk) {
    goap__free(&p->alloc, c, newc * sizeof *c);
    goap__free(&p->alloc, t, newc * sizeof *t);
    goap__free(&p->alloc, g, (size_t)ncap * sizeof *g);
    goap__free(&p->alloc, sup, newc * sizeof *sup);
    goap__free(&p->alloc, stk, newc * sizeof *stk);
    return GOAP_OUT_OF_MEMORY;
  }
  goap__free(&p->alloc, r->cond_sup, oldc * sizeof *sup);
  goap__free(&p->alloc, r->stack, oldc * sizeof *stk);
  r->cond_sup = sup;
  r->stack = stk;
  p->memory += (newc - oldc) * (sizeof *sup + sizeof *stk);
  memcpy(c, r->cond, oldc * sizeof *c);
  memcpy(t, r->cond_time, oldc * sizeof *t);
  memcpy(g, r->goal_next, (size_t)r->cap_goal * sizeof *g);
  goap__free(&p->alloc, r->cond, oldc * sizeof *c);
  goap__free(&p->alloc, r->cond_time, oldc * sizeof *t);
  goap__free(&p->alloc, r->goal_next, (size_t)r->cap_goal * sizeof *g);
  r->cond = c;
  r->cond_time = t;
  r->goal_next = g;
  p->memory += (newc - oldc) * (sizeof *c + sizeof *t) + (size_t)(ncap - r->cap_goal) * sizeof *g;
  r->cap_goal = ncap;
  return GOAP_OK;
}

goap_status goap__relax_set_goal(goap_planner *p) {
  const goap_domain *d = p->d;
  goap__relax *r = &p->rx;
  /* unlink the previous goal */
  for (int i = 0; i < r->ngoal; ++i) r->goal_head[r->cond[r->ncond + i].var] = -1;
  r->ngoal = 0;
  goap_status st = ensure_goal_cap(p, p->nwant);
  if (st != GOAP_OK) return st;
  for (int i = 0; i < p->nwant; ++i) {
    goap__rcond *c = &r->cond[r->ncond + i];
    uint64_t lo = 0, hi = 0, ne = 0;
    uint32_t has_ne = 0;
    if (!goap__cond_interval(d, &p->want[i], &lo, &hi, &ne, &has_ne)) {
      lo = 1;
      hi = 0; /* empty: never satisfied */
    }
    c->var = p->want[i].var;
    c->owner = -1;
    c->a = lo;
    c->b = hi;
    c->ne = ne;
    c->has_ne = has_ne;
  }
  /* link in reverse so each var's list runs in condition order */
  for (int i = p->nwant - 1; i >= 0; --i) {
    int32_t v = r->cond[r->ncond + i].var;
    r->goal_next[i] = r->goal_head[v];
    r->goal_head[v] = i;
  }
  r->ngoal = p->nwant;
  return GOAP_OK;
}

/* ---- the exploration ------------------------------------------------------------------------ */

static void ev_push(goap__relax *r, double t, int32_t a) {
  int i = r->nevents++;
  while (i > 0) {
    int parent = (i - 1) / 2;
    if (r->event_time[parent] < t ||
        (r->event_time[parent] == t && r->event_action[parent] < a))
      break;
    r->event_time[i] = r->event_time[parent];
    r->event_action[i] = r->event_action[parent];
    i = parent;
  }
  r->event_time[i] = t;
  r->event_action[i] = a;
}

static void ev_pop(goap__relax *r, double *t, int32_t *a) {
  *t = r->event_time[0];
  *a = r->event_action[0];
  int n = --r->nevents;
  double lt = r->event_time[n];
  int32_t la = r->event_action[n];
  int i = 0;
  for (;;) {
    int c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && (r->event_time[c + 1] < r->event_time[c] ||
                      (r->event_time[c + 1] == r->event_time[c] &&
                       r->event_action[c + 1] < r->event_action[c])))
      ++c;
    if (lt < r->event_time[c] || (lt == r->event_time[c] && la < r->event_action[c])) break;
    r->event_time[i] = r->event_time[c];
    r->event_action[i] = r->event_action[c];
    i = c;
  }
  r->event_time[i] = lt;
  r->event_action[i] = la;
  /* heap order: the earliest event came out */
  GOAP_ASSERT(r->nevents == 0 || *t <= r->event_time[0]);
}

typedef struct explore {
  goap_planner *p;
  int add;
  int goal_left;
  int record;      /* record int timelines (backward heuristic) */
  int32_t cur;     /* the action whose effects are being applied (-1: the state itself) */
  double t;        /* and its time */
} explore;

static int holds_value(const goap__rcond *c, uint64_t k) {
  return k >= c->a && k <= c->b && !(c->has_ne && k == c->ne);
}

static int holds_hull(const goap__rcond *c, uint64_t lo, uint64_t hi) {
  uint64_t a = lo > c->a ? lo : c->a, b = hi < c->b ? hi : c->b;
  if (a > b) return 0;
  if (c->has_ne && a == b && a == c->ne) return 0;
  return 1;
}

/* Domain condition c holds from time t on (the indexed lists reach each condition once, so
 * only its supporter is recorded; its time is read for goal and `other` conditions only). */
static inline void satisfy_once(explore *x, int c, double t) {
  goap_planner *p = x->p;
  goap__relax *r = &p->rx;
  r->cond_sup[c] = x->cur;
  int32_t a = r->cond_owner[c];
  if (!(p->aflag[a] & 8)) return; /* not active in this request */
  r->cost_sum[a] += t;
  if (--r->unmet[a] == 0) ev_push(r, p->acost[a] + (x->add ? r->cost_sum[a] : t), a);
}

static void satisfy(explore *x, int c, double t) {
  x->p->rx.cond_time[c] = t;
  satisfy_once(x, c, t);
}

/* Conditions on var v that may newly hold when its reached set grows and that no sorted list
 * covers: checked one by one (cond_time < GOAP__INF: already satisfied). */
static void others_changed(explore *x, int32_t v, uint64_t k, int is_int) {
  goap__relax *r = &x->p->rx;
  uint64_t lo = r->hull_lo[v], hi = r->hull_hi[v];
  for (uint32_t i = r->other_cond_off[v]; i < r->other_cond_off[v + 1]; ++i) {
    int c = r->other_cond[i];
    if (r->cond_time[c] < GOAP__INF) continue;
    if (is_int ? holds_hull(&r->cond[c], lo, hi) : holds_value(&r->cond[c], k)) satisfy(x, c, x->t);
  }
  for (int32_t g = r->goal_head[v]; g >= 0; g = r->goal_next[g]) {
    int c = r->ncond + g;
    if (r->cond_time[c] < GOAP__INF) continue;
    if (is_int ? holds_hull(&r->cond[c], lo, hi) : holds_value(&r->cond[c], k)) {
      r->cond_time[c] = x->t;
      r->cond_sup[c] = x->cur;
      --x->goal_left;
    }
  }
}

/* Bool/enum var v reached value k (for the first time). */
static void fact_reached(explore *x, int32_t v, uint64_t k) {
  goap__relax *r = &x->p->rx;
  uint32_t f = r->fact_off[v] + (uint32_t)k;
  for (uint32_t i = r->fact_cond_off[f]; i < r->fact_cond_off[f + 1]; ++i)
    satisfy_once(x, r->fact_cond[i], x->t);
  if (r->other_cond_off[v] < r->other_cond_off[v + 1] || r->goal_head[v] >= 0)
    others_changed(x, v, k, 0);
}

/* The hull of int var v widened (from [lo0, hi0]): the conditions whose interval it now meets
 * are those whose low end it passed upwards or whose high end it passed downwards. */
static void hull_widened(explore *x, int32_t v, uint64_t lo0, uint64_t hi0) {
  goap__relax *r = &x->p->rx;
  uint64_t lo = r->hull_lo[v], hi = r->hull_hi[v];
  uint32_t end = r->int_cond_off[v + 1];
  if (hi > hi0) {
    uint32_t i = r->int_cond_lo_pos[v];
    for (; i < end && r->int_cond_lo_key[i] <= hi; ++i) satisfy_once(x, r->int_cond_by_lo[i], x->t);
    r->int_cond_lo_pos[v] = i;
  }
  if (lo < lo0) {
    uint32_t i = r->int_cond_hi_pos[v];
    for (; i < end && r->int_cond_hi_key[i] >= lo; ++i) satisfy_once(x, r->int_cond_by_hi[i], x->t);
    r->int_cond_hi_pos[v] = i;
  }
  if (r->other_cond_off[v] < r->other_cond_off[v + 1] || r->goal_head[v] >= 0)
    others_changed(x, v, 0, 1);
}

/* Int var v starts at k: the conditions containing k hold; the pointers go past the
 * conditions below / above k (those wait for the hull to reach them). */
static void hull_start(explore *x, int32_t v, uint64_t k) {
  goap__relax *r = &x->p->rx;
  uint32_t i = r->int_cond_off[v], end = r->int_cond_off[v + 1];
  for (; i < end && r->int_cond_lo_key[i] <= k; ++i)
    if (r->cond[r->int_cond_by_lo[i]].b >= k) satisfy_once(x, r->int_cond_by_lo[i], 0.0);
  r->int_cond_lo_pos[v] = i;
  /* the first high end below k: binary search (int_cond_hi_key descends) */
  uint32_t lo = r->int_cond_off[v], hi = end;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (r->int_cond_hi_key[mid] >= k) lo = mid + 1;
    else hi = mid;
  }
  r->int_cond_hi_pos[v] = lo;
  if (r->other_cond_off[v] < r->other_cond_off[v + 1] || r->goal_head[v] >= 0)
    others_changed(x, v, k, 1);
}

static void record(goap__relax *r, int32_t v, double t) {
  size_t e = r->ntline++;
  r->tline_time[e] = t;
  r->tline_lo[e] = r->hull_lo[v];
  r->tline_hi[e] = r->hull_hi[v];
  r->tline_next[e] = -1;
  if (r->tline_tail[v] >= 0) r->tline_next[r->tline_tail[v]] = (int32_t)e;
  else r->tline_head[v] = (int32_t)e;
  r->tline_tail[v] = (int32_t)e;
}

static void run(explore *x, const goap_word *s) {
  goap_planner *p = x->p;
  const goap_domain *d = p->d;
  goap__relax *r = &p->rx;
  /* only the goal and `other` conditions are tested against cond_time: the sorted and the
   * per-fact lists visit each condition once per evaluation */
  for (int g = 0; g < r->ngoal; ++g) r->cond_time[r->ncond + g] = GOAP__INF;
  for (uint32_t i = 0, n = r->other_cond_off[d->nvars]; i < n; ++i)
    r->cond_time[r->other_cond[i]] = GOAP__INF;
  for (uint32_t f = 0; f < r->nfacts; ++f) r->fact_time[f] = GOAP__INF;
  r->nevents = 0;
  r->ntline = 0;
  x->goal_left = r->ngoal;
  x->cur = -1;
  x->t = 0.0;
  for (int i = 0; i < p->nactive; ++i) {
    int32_t a = p->active[i];
    r->unmet[a] = (int32_t)(r->act_off[a + 1] - r->act_off[a]);
    r->cost_sum[a] = 0.0;
    if (r->unmet[a] == 0) ev_push(r, p->acost[a], a);
  }
  for (int32_t v = 0; v < d->nvars; ++v) {
    const goap__var *var = &d->vars[v];
    uint64_t k = goap__field_get(s, var->word, var->shift, var->fmask);
    r->hull_lo[v] = r->hull_hi[v] = k;
    if (x->record) r->tline_head[v] = r->tline_tail[v] = -1;
    if (var->type != GOAP_INT) {
      r->fact_time[r->fact_off[v] + k] = 0.0;
      fact_reached(x, v, k);
    } else {
      if (x->record) record(r, v, 0.0);
      hull_start(x, v, k);
    }
  }
  while (r->nevents > 0 && (x->goal_left > 0 || x->record)) {
    double t;
    int32_t a;
    ev_pop(r, &t, &a);
    x->cur = a;
    x->t = t;
    const goap__action *act = &d->actions[a];
    for (int k = 0; k < act->neff; ++k) {
      const goap_effect *e = &act->eff[k];
      const goap__var *var = &d->vars[e->var];
      if (var->type != GOAP_INT) {
        uint64_t val = (uint64_t)((int64_t)e->value - (int64_t)var->lo);
        double *ft = &r->fact_time[r->fact_off[e->var] + val];
        if (*ft < GOAP__INF) continue;
        *ft = t;
        fact_reached(x, e->var, val);
        continue;
      }
      uint64_t lo0 = r->hull_lo[e->var], hi0 = r->hull_hi[e->var], lo = lo0, hi = hi0;
      if (e->op == GOAP_SET) {
        uint64_t val = (uint64_t)((int64_t)e->value - (int64_t)var->lo);
        if (val < lo) lo = val;
        if (val > hi) hi = val;
      } else if (e->value > 0) {
        hi = var->range;
      } else if (e->value < 0) {
        lo = 0;
      }
      if (lo == lo0 && hi == hi0) continue;
      r->hull_lo[e->var] = lo;
      r->hull_hi[e->var] = hi;
      if (x->record) record(r, e->var, t);
      hull_widened(x, e->var, lo0, hi0);
    }
  }
}

double goap__relax_eval(goap_planner *p, const goap_word *s, int add) {
  explore x = {p, add, 0, 0, -1, 0.0};
  run(&x, s);
  if (x.goal_left > 0) return GOAP__INF;
  goap__relax *r = &p->rx;
  double h = 0.0;
  for (int g = 0; g < r->ngoal; ++g) {
    double t = r->cond_time[r->ncond + g];
    if (add) h += t;
    else if (t > h) h = t;
  }
  return h;
}

/* hff: the hadd exploration records, per condition, the action that made it hold (its best
 * supporter; -1 when the state itself satisfies it). The relaxed plan is the set of supporters
 * reached backwards from the goal, each counted once. For an int condition the supporter is
 * the action that last widened the hull to meet it (earlier widenings it relied on are not
 * followed: hff is not admissible anyway). */
double goap__relax_eval_ff(goap_planner *p, const goap_word *s) {
  explore x = {p, 1, 0, 0, -1, 0.0};
  goap__relax *r = &p->rx;
  r->nrelaxed_plan = 0;
  run(&x, s);
  if (x.goal_left > 0) return GOAP__INF;
  if (++r->mark_gen == 0) {
    memset(r->mark, 0, ((size_t)p->d->nactions + 1) * sizeof *r->mark);
    r->mark_gen = 1;
  }
  uint32_t gen = r->mark_gen;
  size_t top = 0;
  double h = 0.0;
  for (int g = 0; g < r->ngoal; ++g) r->stack[top++] = r->ncond + g;
  while (top > 0) {
    int32_t a = r->cond_sup[r->stack[--top]];
    if (a < 0 || r->mark[a] == gen) continue;
    r->mark[a] = gen;
    r->relaxed_plan[r->nrelaxed_plan++] = a;
    h += p->acost[a];
    for (uint32_t k = r->act_off[a]; k < r->act_off[a + 1]; ++k) r->stack[top++] = (int32_t)k;
  }
  return h;
}

void goap__relax_take_preferred(goap_planner *p) {
  goap__relax *r = &p->rx;
  if (++r->pref_gen == 0) {
    memset(r->pref, 0, ((size_t)p->d->nactions + 1) * sizeof *r->pref);
    r->pref_gen = 1;
  }
  for (int i = 0; i < r->nrelaxed_plan; ++i) r->pref[r->relaxed_plan[i]] = r->pref_gen;
}

void goap__relax_explore_start(goap_planner *p) {
  explore x = {p, 0, 0, 1, -1, 0.0};
  run(&x, p->start);
}

/* The relaxed cost of reaching var in [a, b] from the recorded exploration. */
static double interval_time(const goap_planner *p, int32_t v, uint64_t a, uint64_t b) {
  const goap__relax *r = &p->rx;
  double t = GOAP__INF;
  if (p->d->vars[v].type != GOAP_INT) {
    for (uint64_t x = a; x <= b; ++x) {
      double ft = r->fact_time[r->fact_off[v] + x];
      if (ft < t) t = ft;
    }
    return t;
  }
  for (int32_t e = r->tline_head[v]; e >= 0; e = r->tline_next[e]) {
    uint64_t l = r->tline_lo[e] > a ? r->tline_lo[e] : a;
    uint64_t u = r->tline_hi[e] < b ? r->tline_hi[e] : b;
    if (l <= u) return r->tline_time[e];
  }
  return t;
}

double goap__relax_eval_partial(goap_planner *p, const goap_word *lo, const goap_word *hi,
                                int add) {
  const goap_domain *d = p->d;
  double h = 0.0;
  for (uint32_t w = 0; w < d->words; ++w) {
    if (lo[w] == 0 && hi[w] == d->full_hi[w]) continue; /* nothing constrained here */
    for (uint32_t k = d->wvars_off[w]; k < d->wvars_off[w + 1]; ++k) {
      int32_t v = d->wvars[k];
      const goap__var *var = &d->vars[v];
      uint64_t a = goap__field_get(lo, var->word, var->shift, var->fmask);
      uint64_t b = goap__field_get(hi, var->word, var->shift, var->fmask);
      if (a == 0 && b == var->range) continue;
      double t = interval_time(p, v, a, b);
      if (t >= GOAP__INF) return GOAP__INF;
      if (add) h += t;
      else if (t > h) h = t;
    }
  }
  return h;
}
