/*
 * hddl_bfs.c -- the HDDL planner's informed search: a greedy best-first progression search
 * over (state, agenda) for total-order HTN problems, run in turns beside the depth-first
 * decomposition of hddl_plan.c (goap_hddl_solve).
 *
 * Invariants:
 *  - A search node is a state and an agenda (the tasks still to do, in order). Its successors
 *    decompose the agenda's head compound task by one method and one binding (the join of
 *    hddl_plan.c, same literals and order as the depth-first search), or apply its head
 *    primitive when the precondition holds. A node with an empty agenda whose state satisfies
 *    the :goal is a plan; the tree is rebuilt from the chain of parents.
 *  - Agendas are persistent cons lists: a cell (tree node, next) is never changed once made,
 *    so a successor shares its parent's tail and costs O(the method's subtasks). Each cell
 *    caches, for the agenda from it: its hash, the TDG lower bound of primitive steps (sum
 *    over its tasks of the fewest primitives each can decompose into; a fixpoint over the
 *    lifted task decomposition graph, 1 per action) and the goal literals it may still make
 *    true (hp's tgoal).
 *  - A state is stored as its difference from the initial state: the sorted ids of the atoms
 *    whose truth differs (interned in the search's hp). Decompositions share their parent's
 *    difference; only an applied action stores a new one. hp's state is set to a node's by
 *    undoing to the initial state and flipping the difference.
 *  - Duplicate detection: every stored node is in a table keyed by (state hash, agenda hash);
 *    a new node equal to a stored one (the same difference, and agendas with the same tasks
 *    and arguments in the same order, compared exactly on a hash match) is dropped with all it
 *    allocated. Each situation is expanded at most once, so a finite situation space is
 *    exhausted (GOAP_NO_PLAN) and the search never loops.
 *  - Order: the open list is a binary heap on h = the agenda's TDG bound + the number of false
 *    goal literals, ties to the newest node (LIFO by creation): deterministic. A node whose
 *    agenda cannot make a false goal literal true is pruned: each cell caches the goal
 *    literals (the first 64 * HB_GW_MAX) the tasks from it may make true, with their
 *    arguments (hddl_gach.c: `fill i1 b1` can make (in i1 b1) true, not (in i2 b2)); tgoal's
 *    argument-blind first 64 when those tables are too large.
 *  - Heuristic: TDG (above) or RC (hddl_rc.c: h_add over the relaxed composition, ground at
 *    the first turn; TDG when that grounding is too large). With RC the value replaces the TDG
 *    bound and the goal count, and a node whose value is infinite is dropped (no decomposition
 *    finishes its agenda even without deletes). RC's fact costs depend on the state only: they
 *    are computed once per state loaded and summed per agenda.
 *  - Budgets: every successor generated is one step of the shared max_steps; the time limit is
 *    checked every 256 steps and after each RC evaluation; a turn ends between
 *    expansions once h->slice_end is passed by the steps plus the RC work (HB_RC_PER_STEP
 *    visits per step, the grounding included), and work past a turn's end is paid back by the
 *    next turns (skipped, or started as spent), so turns stay counted in work, not time. At
 *    most max_nodes nodes (GOAP_HDDL_MAX_NODES by default) and HB_MAX_STATE ints of state differences: beyond, the search
 *    stops with GOAP_MEMORY_LIMIT (the depth-first searches go on).
 *  - Every table grows through the task's allocator; nothing here prints.
 */
#include <stdlib.h>
#include <string.h>

#include "hddl_plan.h"

#define HB_MAX_STATE ((size_t)1 << 26)  /* int32s of state differences (256 MB) */
#define HB_PRIM INT32_MIN               /* hb_sn.method of an applied action */
#define HB_INF UINT32_MAX

typedef struct hb_tn {   /* a tree node: a task with its ground arguments */
  int32_t task;          /* as hp_node.task */
  int32_t args, nargs;   /* in targs */
  int32_t rcf;           /* its RC done fact (-1: not ground), -2 before it is looked up */
} hb_tn;

typedef struct hb_cell { /* an agenda cell: the tree node of the same index (each tree node
                            has exactly one cell) before cell next (-1: none); 16 bytes */
  int32_t next;
  uint32_t cost;         /* TDG lower bound of the agenda from here */
  uint64_t hash;         /* of the tasks and arguments from here */
} hb_cell;

typedef struct hb_sn {   /* a search node (32 bytes); the tree node decomposed or applied to
                            make it is the head of its parent's agenda */
  int32_t parent;        /* -1: the start */
  int32_t method;        /* a decomposition's method (-1: the :htn), or HB_PRIM */
  int32_t child0;        /* a decomposition's first child tree node (nsteps contiguous) */
  int32_t agenda;        /* its first cell, -1 when empty */
  uint32_t nst;          /* state difference: sdiff[st0, st0 + nst) */
  uint32_t st0;          /* (sdiff holds at most HB_MAX_STATE < 2^32 ints) */
  uint64_t shash;        /* hp's state hash in this state */
} hb_sn;

typedef struct hb_open {
  uint64_t key;          /* h << 32 | (UINT32_MAX - node): lowest h, then newest */
  int32_t sn;
} hb_open;

struct goap__hb {
  uint32_t *tc;          /* per compound task: fewest primitive steps (HB_INF: none) */
  size_t ntc;
  hb_tn *tns;
  size_t ntns, ctns;
  goap__px_ivec targs;
  hb_cell *cells;
  size_t ncells, ccells;
  hb_sn *sns;
  size_t nsns, csns;
  goap__px_ivec sdiff;
  hb_open *open;
  size_t nopen, copen;
  uint64_t *tab;         /* duplicate table: the situation's hash (low 32 bits) << 32 | node + 1;
                            0 empty; cap a power of two, grown without reading the nodes */
  size_t ctab, ntab;
  goap__px_ivec chg, tmp; /* scratch: an action's changed atoms, a new difference */
  int32_t *b;            /* maxp: a method's binding before the join */
  size_t bsize;          /* its bytes */
  int32_t loaded;        /* the node whose state hp holds (-1: the initial state) */
  int started;
  uint64_t max_nodes;    /* the node cap */
  int heur;              /* GOAP_HDDL_H_* asked for; after the start, the one in use */
  goap__rc *rc;          /* the RC model (heur == GOAP_HDDL_H_RC) */
  goap__px_ivec rcg;     /* scratch: the done facts of an agenda */
  uint64_t extra;        /* this turn's RC work, in steps (HB_RC_PER_STEP visits each) */
  uint64_t debt;         /* work past the end of the last turn, paid by the next turns */
  int rc_loaded;         /* rc holds the costs of the state sdiff[rc_st0, rc_st0 + rc_nst) */
  size_t rc_st0;
  uint32_t rc_nst;
  uint64_t rc_charged;   /* the work of that load charged already, in steps */
  uint32_t h0;           /* the value of the first node after the :htn */
  int h0_set;
  /* goal-relevance pruning (when hp has tgoal): per cell, gw words (gm[cell * gw]): the
   * tracked goal literals the tasks from it may make true, from the argument-aware achievers
   * (hddl_gach.c) or, without them, tgoal's first 64 */
  goap__hg *hg;
  int gw;
  uint64_t *gm;
  size_t cgm;
};

#define HB_GW_MAX 4 /* goal literals tracked by the pruning: 64 * HB_GW_MAX at most */

/* RC operator preconditions visited per step a turn is charged (a depth-first step, one
 * method or binding try, costs about as much as this many visits: measured 190 to 500 on
 * generated Blocksworld-GTOHP 80 and 160, 0.7-0.9 us per depth-first step against 1.8-3.5 ns
 * per visit; on Freecell-Learned probfreecell-02-1 a visit of the bucket-queue h_add pass takes
 * about 3 ns, a depth-first step 0.5 to 1.4 us; 32 before, which gave the best-first search a
 * sixth of the CPU it was meant to). */
#define HB_RC_PER_STEP 256u

/* GOAP_HDDL_H_AUTO takes RC only when its grounding has at most this many operators: an RC
 * evaluation visits them all, and above this the TDG bound's cheap nodes win (generated
 * Transport 40: 151,480 operators, RC 14,472 nodes in 7.3 s of CPU, TDG 356,754 nodes in
 * 0.72 s; Logistics-Learned 32: 257,292 operators, unsolved at 10 s with RC, 7.4 s with TDG);
 * the shared problems that RC helps ground at most 35,000 (Freecell-Learned 32,146). */
#define HB_RC_AUTO_OPS ((size_t)1 << 16)

static int hb_oom(hp *h) {
  h->st = GOAP_OUT_OF_MEMORY;
  return 0;
}

/* splitmix64's finalizer */
static uint64_t hb_mix(uint64_t x) {
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

static int hb_is_a(const goap__px_task_core *t, int32_t o, int32_t ty) {
  return t->is_a[(size_t)o * t->ntypes + (size_t)ty] != 0;
}

/* Literal l's arguments under binding b (NULL for ground literals) into g. */
static void hb_ground(const hp *h, const goap__px_lit *l, const int32_t *b, int32_t *g) {
  int n = l->pred == PX_EQ ? 2 : h->t->preds[l->pred].arity;
  for (int i = 0; i < n; ++i) {
    int32_t a = h->av.v[l->args + i];
    g[i] = a >= 0 ? a : b[-a - 1];
  }
}

/* The goal literals false in hp's state: their number, and (the first 64 * gw) as a mask of
 * gw words. */
static uint32_t hb_goal_false(const hp *h, int gw, uint64_t *mask) {
  const goap__px_task_core *t = h->t;
  int32_t g[PX_MAX_ARITY];
  uint32_t n = 0;
  for (int w = 0; w < gw; ++w) mask[w] = 0;
  for (int32_t i = 0; i < t->ngoal; ++i) {
    const goap__px_lit *l = &h->lits[t->goal0 + i];
    hb_ground(h, l, NULL, g);
    if (goap__hp_lit_holds(h, l, g)) continue;
    ++n;
    if (i < 64 * gw) mask[i >> 6] |= (uint64_t)1 << (i & 63);
  }
  return n;
}

static int hb_over_time(hp *h) {
  if (h->max_ms > 0 && (double)(goap__now_ns() - h->t0) / 1e6 >= h->max_ms) {
    h->st = GOAP_TIME_LIMIT;
    return 1;
  }
  return 0;
}

/* The TDG lower bounds (tc): goap__hp_tdg_costs (hddl_prep.c). */
static int hb_tdg_costs(goap__hb *b, hp *h) {
  const goap__px_task_core *t = h->t;
  b->ntc = t->htn.nctasks ? t->htn.nctasks : 1;
  b->tc = (uint32_t *)goap__alloc(h->a, b->ntc * sizeof *b->tc);
  if (!b->tc) return hb_oom(h);
  goap__hp_tdg_costs(t, b->tc, NULL);
  return 1;
}

goap__hb *goap__hb_new(hp *h, uint64_t max_nodes, int heuristic) {
  goap__hb *b = (goap__hb *)goap__alloc(h->a, sizeof *b);
  if (!b) {
    hb_oom(h);
    return NULL;
  }
  memset(b, 0, sizeof *b);
  b->loaded = -1;
  b->heur = heuristic;
  b->max_nodes = max_nodes ? max_nodes : GOAP_HDDL_MAX_NODES;
  if (b->max_nodes > (uint64_t)INT32_MAX / 2) b->max_nodes = (uint64_t)INT32_MAX / 2;
  b->bsize = h->maxp * sizeof *b->b;
  b->b = (int32_t *)goap__alloc(h->a, b->bsize);
  if (h->tgoal) {
    b->hg = goap__hg_new(h, HB_GW_MAX);
    if (!b->hg && h->st != GOAP_OK) {
      goap__hb_free(b, h->a);
      return NULL;
    }
    b->gw = b->hg ? goap__hg_words(b->hg) : 1;
  }
  if (!b->b || !hb_tdg_costs(b, h)) {
    goap__hb_free(b, h->a);
    hb_oom(h);
    return NULL;
  }
  return b;
}

void goap__hb_free(goap__hb *b, const goap_allocator *a) {
  if (!b) return;
  goap__free(a, b->tc, b->ntc * sizeof *b->tc);
  goap__free(a, b->tns, b->ctns * sizeof *b->tns);
  goap__px_ivec_free(a, &b->targs);
  goap__free(a, b->cells, b->ccells * sizeof *b->cells);
  goap__free(a, b->sns, b->csns * sizeof *b->sns);
  goap__px_ivec_free(a, &b->sdiff);
  goap__free(a, b->open, b->copen * sizeof *b->open);
  goap__free(a, b->tab, b->ctab * sizeof *b->tab);
  goap__px_ivec_free(a, &b->chg);
  goap__px_ivec_free(a, &b->tmp);
  goap__free(a, b->b, b->bsize);
  goap__rc_free(b->rc, a);
  goap__px_ivec_free(a, &b->rcg);
  goap__hg_free(b->hg, a);
  goap__free(a, b->gm, b->cgm * sizeof *b->gm);
  goap__free(a, b, sizeof *b);
}

uint64_t goap__hb_nodes(const goap__hb *b) { return b ? (uint64_t)b->nsns : 0; }
int goap__hb_heuristic(const goap__hb *b) { return b && b->started ? b->heur : 0; }
uint32_t goap__hb_h0(const goap__hb *b) { return b && b->h0_set ? b->h0 : 0; }
uint64_t goap__hb_rc_ops(const goap__hb *b) { return b ? (uint64_t)goap__rc_ops(b->rc) : 0; }

/* ---- tree nodes, agenda cells, search nodes -------------------------------------------- */

static int32_t hb_new_tn(goap__hb *b, hp *h, int32_t task) {
  if (!goap__grow(h->a, (void **)&b->tns, &b->ctns, b->ntns + 1, sizeof *b->tns)) return -1;
  hb_tn *x = &b->tns[b->ntns];
  x->task = task;
  x->args = (int32_t)b->targs.n;
  x->nargs = 0;
  x->rcf = -2;
  return (int32_t)b->ntns++;
}

static uint64_t hb_tn_hash(const goap__hb *b, int32_t tn) {
  const hb_tn *x = &b->tns[tn];
  uint64_t k = hb_mix((uint64_t)(uint32_t)x->task + 0x9E3779B97F4A7C15ull);
  for (int32_t i = 0; i < x->nargs; ++i)
    k = hb_mix(k ^ ((uint64_t)(uint32_t)b->targs.v[x->args + i] +
                 0x632BE59BD9B4E019ull * (uint64_t)(uint32_t)(i + 1)));
  return k;
}

/* Tree node tn's cell (index tn), before cell next; -1 when out of memory. The cells of a
 * decomposition's new tree nodes are made last first (a cell needs its next's hash). */
static int32_t hb_new_cell(goap__hb *b, hp *h, int32_t tn, int32_t next) {
  if (!goap__grow(h->a, (void **)&b->cells, &b->ccells, b->ntns, sizeof *b->cells)) return -1;
  const goap__px_task_core *t = h->t;
  hb_cell *c = &b->cells[tn];
  int32_t task = b->tns[tn].task;
  uint64_t cost = task == HP_ROOT ? 0 : task < 0 ? 1 : b->tc[task];
  uint64_t r = next >= 0 ? b->cells[next].hash : 0x2545F4914F6CDD1Dull;
  c->next = next;
  if (next >= 0 && cost < HB_INF) cost += b->cells[next].cost;
  c->cost = cost < HB_INF ? (uint32_t)cost : HB_INF;
  c->hash = hb_mix(hb_tn_hash(b, tn) + r * 0xD6E8FEB86659FD93ull + (r >> 29));
  if (b->gw) {
    size_t gw = (size_t)b->gw;
    if (!goap__grow(h->a, (void **)&b->gm, &b->cgm, b->ntns * gw, sizeof *b->gm)) return -1;
    uint64_t *m = b->gm + (size_t)tn * gw;
    const hb_tn *x = &b->tns[tn];
    if (task == HP_ROOT) {
      for (size_t w = 0; w < gw; ++w) m[w] = ~(uint64_t)0;
    } else if (b->hg) {
      if (!goap__hg_mask(b->hg, h, task, x->nargs ? b->targs.v + x->args : NULL, x->nargs, m))
        return -1;
    } else {
      m[0] = h->tgoal[task >= 0 ? (size_t)task : t->htn.nctasks + (size_t)(-task - 1)];
    }
    if (next >= 0)
      for (size_t w = 0; w < gw; ++w) m[w] |= b->gm[(size_t)next * gw + w];
  }
  if ((size_t)tn >= b->ncells) b->ncells = (size_t)tn + 1;
  return tn;
}

/* Agendas from cells x and y hold the same tasks with the same arguments in the same order. */
static int hb_same_agenda(const goap__hb *b, int32_t x, int32_t y) {
  while (x != y) {
    if (x < 0 || y < 0) return 0;
    const hb_tn *p = &b->tns[x], *q = &b->tns[y];
    if (p->task != q->task || p->nargs != q->nargs ||
        (p->nargs && memcmp(b->targs.v + p->args, b->targs.v + q->args,
                            (size_t)p->nargs * sizeof(int32_t)) != 0))
      return 0;
    x = b->cells[x].next;
    y = b->cells[y].next;
  }
  return 1;
}

static uint64_t hb_agenda_hash(const goap__hb *b, int32_t cell) {
  return cell >= 0 ? b->cells[cell].hash : 0x2545F4914F6CDD1Dull;
}

/* The situation's hash: its low 32 bits pick the slot (tables stay under 2^32 slots). */
static uint32_t hb_sit_hash(uint64_t shash, uint64_t ahash) {
  return (uint32_t)hb_mix(shash ^ (ahash * 0x9E3779B97F4A7C15ull));
}

static int hb_tab_grow(goap__hb *b, hp *h) {
  size_t ncap = b->ctab ? b->ctab * 2 : 4096;
  uint64_t *nt = (uint64_t *)goap__alloc(h->a, ncap * sizeof *nt);
  if (!nt) return hb_oom(h);
  memset(nt, 0, ncap * sizeof *nt);
  uint64_t *old = b->tab;
  size_t ocap = b->ctab;
  b->tab = nt;
  b->ctab = ncap;
  for (size_t i = 0; i < ocap; ++i) {
    if (!old[i]) continue;
    size_t k = (size_t)(old[i] >> 32) & (ncap - 1);
    while (b->tab[k]) k = (k + 1) & (ncap - 1);
    b->tab[k] = old[i];
  }
  goap__free(h->a, old, ocap * sizeof *old);
  return 1;
}

static int hb_open_push(goap__hb *b, hp *h, uint32_t hval, int32_t sn) {
  if (!goap__grow(h->a, (void **)&b->open, &b->copen, b->nopen + 1, sizeof *b->open))
    return hb_oom(h);
  hb_open x;
  x.key = (uint64_t)hval << 32 | (uint64_t)(UINT32_MAX - (uint32_t)sn);
  x.sn = sn;
  size_t i = b->nopen++;
  while (i > 0 && b->open[(i - 1) / 2].key > x.key) {
    b->open[i] = b->open[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  b->open[i] = x;
  return 1;
}

static int32_t hb_open_pop(goap__hb *b) {
  int32_t top = b->open[0].sn;
  hb_open x = b->open[--b->nopen];
  size_t i = 0, n = b->nopen;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && b->open[c + 1].key < b->open[c].key) ++c;
    if (b->open[c].key >= x.key) break;
    b->open[i] = b->open[c];
    i = c;
  }
  if (n) b->open[i] = x;
  return top;
}

/* Stores node *x (its state difference: diff[0, x->nst), or the stored one at x->st0 when
 * diff is NULL) and opens it with value hval, unless a stored node has the same situation.
 * 1 stored, 2 a duplicate (nothing stored), 0 on a stop (h->st: memory, the node cap). */
static int hb_add_node(goap__hb *b, hp *h, hb_sn *x, const int32_t *diff, uint32_t hval) {
  if (b->ctab == 0 && !hb_tab_grow(b, h)) return 0;
  uint64_t ah = hb_agenda_hash(b, x->agenda);
  const int32_t *xd = diff ? diff : x->nst ? b->sdiff.v + x->st0 : NULL;
  uint32_t sh = hb_sit_hash(x->shash, ah);
  size_t k = (size_t)sh & (b->ctab - 1);
  for (; b->tab[k]; k = (k + 1) & (b->ctab - 1)) {
    if ((uint32_t)(b->tab[k] >> 32) != sh) continue;
    const hb_sn *o = &b->sns[(uint32_t)b->tab[k] - 1];
    if (o->shash != x->shash || hb_agenda_hash(b, o->agenda) != ah || o->nst != x->nst) continue;
    if (x->nst && memcmp(b->sdiff.v + o->st0, xd, (size_t)x->nst * sizeof *xd) != 0) continue;
    if (hb_same_agenda(b, o->agenda, x->agenda)) return 2;
  }
  if ((uint64_t)b->nsns >= b->max_nodes || (diff && b->sdiff.n + x->nst > HB_MAX_STATE) ||
      b->targs.n > (size_t)INT32_MAX / 2 || b->ncells > (size_t)INT32_MAX / 2) {
    h->st = GOAP_MEMORY_LIMIT;
    return 0;
  }
  if (diff) {
    x->st0 = (uint32_t)b->sdiff.n;
    for (uint32_t i = 0; i < x->nst; ++i)
      if (!goap__px_ipush(h->a, &b->sdiff, diff[i])) return hb_oom(h);
  }
  if (!goap__grow(h->a, (void **)&b->sns, &b->csns, b->nsns + 1, sizeof *b->sns)) return hb_oom(h);
  int32_t id = (int32_t)b->nsns++;
  b->sns[id] = *x;
  b->tab[k] = (uint64_t)sh << 32 | (uint64_t)(uint32_t)(id + 1);
  if (++b->ntab * 2 > b->ctab && !hb_tab_grow(b, h)) return 0;
  return hb_open_push(b, h, hval, id) ? 1 : 0;
}

/* ---- states --------------------------------------------------------------------------- */

/* Sets hp's state to node s's. */
static int hb_load(goap__hb *b, hp *h, int32_t s) {
  const hb_sn *n = &b->sns[s];
  if (b->loaded >= 0) {
    const hb_sn *o = &b->sns[b->loaded];
    if (o->st0 == n->st0 && o->nst == n->nst) {
      b->loaded = s;
      return 1;
    }
  }
  goap__hp_undo_to(h, 0);
  for (uint32_t i = 0; i < n->nst; ++i) {
    int32_t e = b->sdiff.v[n->st0 + i];
    if (!goap__hp_set_truth(h, e, (uint8_t)!h->truth[e])) return hb_oom(h);
  }
  b->loaded = s;
  return 1;
}

/* Applies primitive tree node tn when its precondition holds: 1 applied, 0 not applicable
 * (h->st unchanged) or a memory stop (h->st set). */
static int hb_apply(goap__hb *b, hp *h, int32_t tn) {
  const goap__px_task_core *t = h->t;
  const hb_tn *x = &b->tns[tn];
  const goap__px_schema *s = &t->schemas[-x->task - 1];
  const int32_t *args = x->nargs ? b->targs.v + x->args : NULL;
  for (int32_t i = 0; i < x->nargs; ++i)
    if (!hb_is_a(t, args[i], t->args.v[s->ptypes + i])) return 0;
  int32_t g[PX_MAX_ARITY];
  for (int32_t i = s->lit0; i < s->lit0 + s->nlits; ++i) {
    const goap__px_lit *l = &h->lits[i];
    if (l->kind != PX_LIT_PRE) continue;
    hb_ground(h, l, args, g);
    if (!goap__hp_lit_holds(h, l, g)) return 0;
  }
  for (int pass = 0; pass < 2; ++pass) /* deletes first, then adds */
    for (int32_t i = s->lit0; i < s->lit0 + s->nlits; ++i) {
      const goap__px_lit *l = &h->lits[i];
      if (l->kind != (pass == 0 ? PX_LIT_DEL : PX_LIT_ADD)) continue;
      hb_ground(h, l, args, g);
      int32_t e = goap__hp_intern(h, l->pred, g, t->preds[l->pred].arity);
      if (e < 0 || !goap__hp_set_truth(h, e, pass == 0 ? 0 : 1)) return hb_oom(h);
    }
  return 1;
}

/* Into b->tmp: node s's state difference changed by the flips logged in h->undo since mark
 * (the atoms whose truth differs now from before them). */
static int hb_new_diff(goap__hb *b, hp *h, const hb_sn *s, size_t mark) {
  goap__px_ivec *c = &b->chg;
  c->n = 0;
  for (size_t k = mark; k < h->undo.n; k += 2) { /* (atom, truth before), first flip kept */
    int32_t e = h->undo.v[k];
    int dup = 0;
    for (size_t j = 0; j < c->n && !dup; j += 2) dup = c->v[j] == e;
    if (!dup && (!goap__px_ipush(h->a, c, e) || !goap__px_ipush(h->a, c, h->undo.v[k + 1])))
      return hb_oom(h);
  }
  size_t n = 0; /* keep the atoms that changed, sorted (insertion: an action's few effects) */
  for (size_t j = 0; j < c->n; j += 2) {
    int32_t e = c->v[j];
    if (h->truth[e] == (uint8_t)c->v[j + 1]) continue;
    size_t i = n++;
    for (; i > 0 && c->v[i - 1] > e; --i) c->v[i] = c->v[i - 1];
    c->v[i] = e;
  }
  /* the symmetric difference of two sorted lists */
  goap__px_ivec *o = &b->tmp;
  o->n = 0;
  const int32_t *d = s->nst ? b->sdiff.v + s->st0 : NULL;
  size_t i = 0, j = 0;
  while (i < s->nst || j < n) {
    int32_t v;
    if (j >= n || (i < s->nst && d[i] < c->v[j])) {
      v = d[i++];
    } else if (i >= s->nst || c->v[j] < d[i]) {
      v = c->v[j++];
    } else {
      ++i;
      ++j;
      continue;
    }
    if (!goap__px_ipush(h->a, o, v)) return hb_oom(h);
  }
  return 1;
}

/* ---- the search ----------------------------------------------------------------------- */

static int32_t hb_net_steps(const goap__px_task_core *t, int32_t m, int32_t *step0) {
  *step0 = m < 0 ? t->htn.top_step0 : t->htn.methods[m].step0;
  return m < 0 ? t->htn.top_nsteps : t->htn.methods[m].nsteps;
}

/* One step of the budgets: 0 (h->st set) when max_steps or the time limit is reached. */
static int hb_step(hp *h) {
  if (++h->steps > h->max_steps) {
    h->st = GOAP_NODE_LIMIT;
    return 0;
  }
  return (h->steps & 0xff) != 0 || !hb_over_time(h);
}

/* The RC value of hp's state with the agenda from cell c (the work charged to the turn): the
 * costs of all facts from the state, computed once per state loaded (decompositions of one node
 * share them; an action's successor's are kept for its expansion when it is stored, since the
 * search often expands it next), then summed over the agenda. stored: x's difference is the
 * stored one at x->st0 (a decomposition); otherwise it is new (an action's successor). */
static uint32_t hb_rc_value(goap__hb *b, hp *h, const hb_sn *x, int stored) {
  int32_t c = x->agenda;
  b->rcg.n = 0;
  for (; c >= 0; c = b->cells[c].next) {
    hb_tn *y = &b->tns[c];
    if (y->task == HP_ROOT) continue;
    if (y->rcf == -2)
      y->rcf = goap__rc_task_fact(b->rc, y->task, y->nargs ? b->targs.v + y->args : NULL,
                                  y->nargs);
    if (!goap__px_ipush(h->a, &b->rcg, y->rcf)) {
      hb_oom(h);
      return HB_INF;
    }
  }
  if (!stored || !b->rc_loaded || b->rc_st0 != x->st0 || b->rc_nst != x->nst) {
    if (!goap__rc_load(b->rc, h)) return HB_INF;
    b->rc_charged = 0;
    b->rc_loaded = stored; /* a new state: hb_offer sets it once the node is stored */
    b->rc_st0 = x->st0;
    b->rc_nst = x->nst;
  }
  uint32_t v = goap__rc_sum(b->rc, b->rcg.v, b->rcg.n);
  uint64_t w = goap__rc_visits(b->rc) / HB_RC_PER_STEP; /* this load's work so far */
  b->extra += w - b->rc_charged;
  b->rc_charged = w;
  if (hb_over_time(h)) return HB_INF; /* an evaluation can take long: checked after each */
  return v;
}

/* A successor x (agenda set) of the expanded node: a plan when its agenda is empty and the
 * goal holds (*goal), dropped when empty otherwise or when its agenda cannot make a false
 * goal literal true, else stored. fmask: the goal literals false in its state, gf their
 * number. 1 on, 0 on a stop; *kept: whether it was stored (or is the plan). */
static int hb_offer(goap__hb *b, hp *h, hb_sn *x, const int32_t *diff, uint32_t gf,
                    const uint64_t *fmask, int32_t *goal, int *kept) {
  *kept = 0;
  if (x->agenda < 0) {
    if (gf) return 1;
  } else if (b->cells[x->agenda].cost == HB_INF) {
    return 1;
  } else if (b->gw) { /* no words, no table (gm NULL) */
    const uint64_t *m = b->gm + (size_t)x->agenda * (size_t)b->gw;
    for (int w = 0; w < b->gw; ++w)
      if (fmask[w] & ~m[w]) return 1; /* a false goal literal no task left can make true */
  }
  if (x->agenda < 0) { /* the plan: stored without a duplicate check, never opened */
    if (diff) x->nst = 0; /* its state is not needed again */
    if (!goap__grow(h->a, (void **)&b->sns, &b->csns, b->nsns + 1, sizeof *b->sns)) return hb_oom(h);
    b->sns[b->nsns] = *x;
    *goal = (int32_t)b->nsns++;
    *kept = 1;
    return 1;
  }
  uint64_t hv = (uint64_t)b->cells[x->agenda].cost + gf;
  if (b->rc) {
    uint32_t v = hb_rc_value(b, h, x, diff == NULL);
    if (h->st != GOAP_OK) return 0;
    hv = v;
  }
  if (!b->h0_set) {
    b->h0_set = 1;
    b->h0 = hv < HB_INF ? (uint32_t)hv : HB_INF;
  }
  if (hv >= HB_INF) return 1; /* RC: no decomposition can finish it, even ignoring deletes */
  int r = hb_add_node(b, h, x, diff, hv < HB_INF ? (uint32_t)hv : HB_INF - 1);
  if (b->rc && diff) { /* the costs are this new state's: its expansion, often next, keeps them */
    b->rc_loaded = r == 1;
    b->rc_st0 = x->st0;
    b->rc_nst = x->nst;
  }
  *kept = r == 1;
  return r != 0;
}

/* Decomposes node s's head (tree node tn, then cell rest) by method m (-1: the :htn): one
 * successor per binding. */
static int hb_decompose(goap__hb *b, hp *h, int32_t s, int32_t tn, int32_t rest, int32_t m,
                     uint32_t gf, const uint64_t *fmask, int32_t *goal) {
  const goap__px_task_core *t = h->t;
  int32_t np = m < 0 ? t->htn.top_nparams : t->htn.methods[m].nparams;
  int32_t *bb = b->b;
  for (int32_t i = 0; i < np; ++i) bb[i] = -1;
  if (m >= 0) { /* unify the task's arguments with the method's :task */
    const goap__px_method *pm = &t->htn.methods[m];
    const hb_tn *x = &b->tns[tn];
    for (int32_t i = 0; i < x->nargs; ++i) {
      int32_t g = b->targs.v[x->args + i], a = t->args.v[pm->targs + i];
      if (a >= 0) {
        if (a != g) return 1;
      } else if (bb[-a - 1] >= 0) {
        if (bb[-a - 1] != g) return 1;
      } else if (hb_is_a(t, g, t->args.v[pm->ptypes + (-a - 1)])) {
        bb[-a - 1] = g;
      } else {
        return 1;
      }
    }
  }
  size_t pmark = h->pool.n, cnt = 0;
  if (!goap__hp_join(h, m, bb, &cnt)) return 0;
  int32_t step0, nsteps = hb_net_steps(t, m, &step0);
  for (size_t i = 0; i < cnt && !(*goal >= 0); ++i) {
    if (!hb_step(h)) return 0;
    size_t m_tns = b->ntns, m_targs = b->targs.n, m_cells = b->ncells;
    int32_t child0 = (int32_t)b->ntns;
    for (int32_t k = 0; k < nsteps; ++k) {
      const goap__px_step *ps = &t->htn.steps[step0 + k];
      int32_t c = hb_new_tn(b, h, ps->task);
      if (c < 0) return hb_oom(h);
      const int32_t *bind = np ? h->pool.v + pmark + i * (size_t)np : NULL;
      for (int32_t a = 0; a < ps->nargs; ++a) {
        int32_t v = t->args.v[ps->args + a];
        if (!goap__px_ipush(h->a, &b->targs, v >= 0 ? v : bind[-v - 1])) return hb_oom(h);
      }
      b->tns[c].nargs = ps->nargs;
    }
    int32_t next = rest;
    for (int32_t k = nsteps - 1; k >= 0; --k)
      if ((next = hb_new_cell(b, h, child0 + k, next)) < 0) return hb_oom(h);
    hb_sn x = b->sns[s];
    x.parent = s;
    x.method = m;
    x.child0 = child0;
    x.agenda = next;
    int kept;
    if (!hb_offer(b, h, &x, NULL, gf, fmask, goal, &kept)) return 0;
    if (!kept) {
      b->ntns = m_tns;
      b->targs.n = m_targs;
      b->ncells = m_cells;
    }
  }
  h->pool.n = pmark;
  return 1;
}

/* Expands node s; *goal gets the plan's node when one is found. 0 on a stop (h->st). */
static int hb_expand(goap__hb *b, hp *h, int32_t s, int32_t *goal) {
  if (!hb_load(b, h, s)) return 0;
  const int32_t head_tn = b->sns[s].agenda; /* the head's tree node and cell */
  const hb_cell head = b->cells[head_tn];
  const int32_t task = b->tns[head_tn].task;
  uint64_t fmask[HB_GW_MAX];
  if (task < 0 && task != HP_ROOT) {
    if (!hb_step(h)) return 0;
    size_t mark = h->undo.n;
    int ok = hb_apply(b, h, head_tn);
    if (h->st != GOAP_OK) return 0;
    if (ok) {
      if (!hb_new_diff(b, h, &b->sns[s], mark)) return 0;
      hb_sn x = b->sns[s];
      x.parent = s;
      x.method = HB_PRIM;
      x.agenda = head.next;
      x.nst = (uint32_t)b->tmp.n;
      x.shash = h->hash;
      uint32_t gf = hb_goal_false(h, b->gw, fmask);
      int kept;
      if (!hb_offer(b, h, &x, b->tmp.v, gf, fmask, goal, &kept)) return 0;
    }
    goap__hp_undo_to(h, mark);
    return 1;
  }
  uint32_t gf = hb_goal_false(h, b->gw, fmask);
  if (task == HP_ROOT) return hb_decompose(b, h, s, head_tn, head.next, -1, gf, fmask, goal);
  for (int32_t j = h->m0[task]; j < h->m0[task + 1] && *goal < 0; ++j)
    if (!hb_decompose(b, h, s, head_tn, head.next, h->mids[j], gf, fmask, goal)) return 0;
  return 1;
}

static int hb_hp_node_push(hp *h, int32_t task, int32_t parent) {
  if (!goap__grow(h->a, (void **)&h->nodes, &h->cnodes, h->nnodes + 1, sizeof *h->nodes))
    return -1;
  hp_node *n = &h->nodes[h->nnodes];
  memset(n, 0, sizeof *n);
  n->task = task;
  n->args = (int32_t)h->gargs.n;
  n->method = -1;
  n->prim = -1;
  n->parent = parent;
  n->cell = -1;
  return (int32_t)h->nnodes++;
}

/* The plan of node goal as hp's decomposition tree (nodes, gargs, seq), for make_plan. */
static int hb_build_plan(goap__hb *b, hp *h, int32_t goal) {
  const goap__px_task_core *t = h->t;
  goap__px_ivec *path = &b->chg;
  path->n = 0;
  for (int32_t s = goal; s > 0; s = b->sns[s].parent)
    if (!goap__px_ipush(h->a, path, s)) return hb_oom(h);
  size_t nmap = b->ntns ? b->ntns : 1;
  int32_t *map = (int32_t *)goap__alloc(h->a, nmap * sizeof *map);
  if (!map) return hb_oom(h);
  h->nnodes = 0;
  h->gargs.n = h->seq.n = 0;
  int ok = hb_hp_node_push(h, HP_ROOT, -1) == 0;
  map[0] = 0;
  for (size_t k = path->n; ok && k-- > 0;) {
    const hb_sn *x = &b->sns[path->v[k]];
    int32_t id = map[b->sns[x->parent].agenda]; /* the parent's head */
    if (x->method == HB_PRIM) {
      h->nodes[id].prim = (int32_t)h->seq.n;
      ok = goap__px_ipush(h->a, &h->seq, id);
      continue;
    }
    int32_t step0, nsteps = hb_net_steps(t, x->method, &step0);
    h->nodes[id].method = x->method;
    h->nodes[id].child0 = (int32_t)h->nnodes;
    h->nodes[id].nchild = nsteps;
    for (int32_t c = 0; ok && c < nsteps; ++c) {
      const hb_tn *ct = &b->tns[x->child0 + c];
      int32_t nn = hb_hp_node_push(h, ct->task, id);
      ok = nn >= 0;
      for (int32_t a = 0; ok && a < ct->nargs; ++a)
        ok = goap__px_ipush(h->a, &h->gargs, b->targs.v[ct->args + a]);
      if (ok) {
        h->nodes[nn].nargs = ct->nargs;
        map[x->child0 + c] = nn;
      }
    }
  }
  goap__free(h->a, map, nmap * sizeof *map);
  return ok ? 1 : hb_oom(h);
}

int goap__hb_turn(goap__hb *b, hp *h) {
  h->sliced = 0;
  /* a turn that overran (the RC grounding, a long evaluation) is paid back by skipping turns
   * or starting the next one with its rest as spent */
  uint64_t len = h->slice_end > h->steps ? h->slice_end - h->steps : 0;
  if (b->debt >= len && h->slice_end != UINT64_MAX) {
    b->debt -= len;
    h->sliced = 1;
    return 0;
  }
  b->extra = h->slice_end != UINT64_MAX ? b->debt : 0;
  b->debt = 0;
  if (!b->started) { /* the start: the virtual root task, decomposed by the :htn */
    b->started = 1;
    if (b->heur != GOAP_HDDL_H_TDG) { /* RC unless its grounding is too large */
      uint64_t work = 0;
      b->rc = goap__rc_new(h, b->heur == GOAP_HDDL_H_AUTO ? HB_RC_AUTO_OPS : 0, &work);
      b->extra += work / HB_RC_PER_STEP;
      if (!b->rc && h->st != GOAP_TOO_LARGE) return 0;
      h->st = GOAP_OK;
    }
    b->heur = b->rc ? GOAP_HDDL_H_RC : GOAP_HDDL_H_TDG;
    int32_t tn = hb_new_tn(b, h, HP_ROOT);
    if (tn < 0 || hb_new_cell(b, h, tn, -1) < 0) return hb_oom(h);
    hb_sn x;
    memset(&x, 0, sizeof x);
    x.parent = -1;
    x.method = -1;
    x.agenda = 0;
    x.shash = h->hash;
    if (hb_add_node(b, h, &x, b->tmp.v, 0) != 1) return 0;
  }
  for (;;) {
    if (h->steps >= h->slice_end || b->extra >= h->slice_end - h->steps) {
      h->sliced = 1;
      if (h->slice_end != UINT64_MAX) b->debt = h->steps + b->extra - h->slice_end;
      return 0;
    }
    if (b->nopen == 0) {
      h->st = GOAP_NO_PLAN;
      return 0;
    }
    int32_t goal = -1;
    if (!hb_expand(b, h, hb_open_pop(b), &goal)) return 0;
    if (goal >= 0) return hb_build_plan(b, h, goal);
  }
}
