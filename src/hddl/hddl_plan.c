/*
 * hddl_plan.c -- a lifted, SHOP-style, total-order forward-decomposition planner for HDDL
 * (goap_hddl_solve), and the IPC plan format (goap_hddl_plan_write).
 *
 * Invariants:
 *  - The state is one set of true ground atoms (static predicates included): atoms are
 *    interned once into `atoms` (never removed) with a truth byte each and a per-predicate
 *    list of interned atoms; every change is logged in `undo` and undone on backtracking, so
 *    a state is never copied.
 *  - The search is depth-first over the agenda (the tasks still to do, in order: a linked
 *    list of cells in an array truncated on backtracking). Decomposing the head compound task
 *    pushes a choice point (frame) holding the marks of every array; its alternatives are the
 *    task's methods (in the search's method order, below) and, per method, every binding of the method's parameters
 *    that unifies with the task's arguments and satisfies its precondition, enumerated eagerly
 *    in a deterministic order (literal order, then atoms in interning order, then objects by
 *    id). A primitive head is applied when its precondition holds, or fails. No recursion on
 *    the C stack: frames live in an array, the join keeps its own level stack.
 *  - Left recursion (Transport's get_to, Satellite) is handled by iterative deepening on the
 *    decomposition depth of compound tasks (the :htn's tasks have depth 1; a subtask has its
 *    parent's depth + 1, but a method's last subtask, a tail call, keeps its parent's depth):
 *    a round bounded by d cuts compound tasks deeper than d; when a round fails having cut
 *    something, the next round uses d + 1; a round that fails without a cut proves that there
 *    is no plan. A round ends: along a chain of tail calls (one continuation) loop detection
 *    prunes every repeat of (task, arguments, state), and there are finitely many.
 *  - Loop detection (only for situations the full set below cannot hold; otherwise the set
 *    catches every such repeat without walking the ancestors, which costs the length of the
 *    tail-call chain): a compound task is pruned (not a depth cut) when an ancestor it is in tail
 *    position under (same continuation cell) was decomposed with the same task, arguments and
 *    state hash (XOR of atom_key over the true atoms, maintained by set_truth and undo_to):
 *    the situation repeats, and the ancestor's other choices cover every plan from it.
 *  - Repeated situations: a round remembers (goap__hseen, hddl_seen.c) the situation at every
 *    compound head it decomposes: the state's hash and the agenda's hash (every remaining
 *    task with its arguments, and the depth of the compound ones; chash, kept per cell). A
 *    situation met again is pruned: the search from it depends on nothing else, so it was
 *    either explored and failed (its cuts already counted) or is still being explored further
 *    up (a loop). With the depth bound part of the situation, each round is a depth-first
 *    search of a finite graph with a closed list, so it stays complete for its bound. The set
 *    holds at most HP_MAX_SEEN situations per round; beyond, only the ancestor walk above.
 *  - A method's join literals (hddl_prep.c: build_lits) are its precondition, then the
 *    precondition literals of its primitive subtasks on static predicates (no action changes them) and
 *    '=', rewritten into the method's parameters: true now exactly when true at execution
 *    (its own: xb of them). Then (lift_lits) literals its subtasks require of its parameters:
 *    all of its first subtask's (an action's precondition, or the join literals of a task's
 *    only method: they are evaluated in the state the method is chosen in) and the static
 *    ones of later single-method subtasks. Lifted literals only drop bindings: the order of
 *    the remaining ones is the order without them (join sorts when a lifted literal binds).
 *  - Goal reachability (only with a :goal): a compound head is pruned, not cut, when a goal
 *    literal is false and no action the rest of the agenda can reach (cgoal, per cell) may
 *    make it true, or when a delete-free, predicate-level fixpoint over the goal-relevant
 *    actions the agenda can reach (crel) does not reach its predicate. Both over-approximate
 *    what the agenda can still achieve, independently of the depth bound.
 *  - Joins take a bound literal's candidates from the shortest list that holds them: the
 *    atoms with a given object at a given position (by_arg, for predicates of arity >= 2),
 *    else all atoms of the predicate. Both lists are in interning order, so the bindings come
 *    out in the same order either way.
 *  - Method order: a lifted fixpoint over the task decomposition graph (order_methods) gives
 *    each method the fewest primitive steps it can decompose into; methods that never reach
 *    primitives are left out. The rest are kept in domain order (mids) and fewest-first
 *    (mids2). When those differ, goap_hddl_solve runs two searches (two hp, one per order,
 *    each with its own state, agenda, frames and rounds) in turns (goap__hp_slice steps); a turn
 *    ends in advance() just before a binding would be tried, so the next turn of that search
 *    goes on with exactly that binding (round_search(h, 1)). The budgets are shared; the first
 *    plan, proof of no plan, or budget stop of either ends both (they search the same space).
 *    The second search bounds recursion only (rec): a non-tail subtask whose task cannot
 *    decompose back into its parent's task keeps its parent's depth too, so nesting that
 *    cannot repeat costs no round; it runs when the orders differ. When they do not but some
 *    method has such a subtask, the one search bounds recursion only: a round of it holds
 *    the same round under the usual depth, explored in the same order.
 *  - Goal-first method order (only with a :goal; both depth-first searches): when a compound
 *    task's methods differ in the goal literals (the first 64) their subtasks may make true
 *    (mgoal: the union of the subtasks' tgoal, arguments ignored), push_frame notes which of
 *    those are false in the state the task comes up in (gf); the frame then tries, in its
 *    order above, first the methods that may make one of them true, then the others
 *    (next_method). A do-nothing method then comes after one that can still make progress
 *    (Hiking's walk_everyone). Only the order changes, so completeness and each round's
 *    bound are unchanged; per choice point it costs nothing when no literal that could move
 *    a method ahead of an earlier one is false (tsplit's second and third parts, per order),
 *    else one goal-literal test per bit of tsplit and one mask test per method;
 *    deterministic.
 *  - Budgets: max_steps (method and binding tries, over all rounds and both searches; the
 *    joins may look at HP_WORK_PER_STEP candidates per step in total, every candidate atom
 *    counting, so enumerating bindings cannot run unbounded either), max_ms (checked every 256 steps and
 *    during long joins), max_depth (the last bound tried); pending bindings are capped at
 *    HP_MAX_POOL (GOAP_TOO_LARGE).
 *  - No fixed limit on parameters or literals: the binding buffers and the join's levels are
 *    sized once from the task (the largest method, action and :htn).
 *  - A third search, best-first progression over (state, agenda) (hddl_bfs.c, its own hp),
 *    takes its turn after these two in goap_hddl_solve, with the same budgets and stops.
 *  - Every allocation goes through the task's allocator; the task is only read.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "goap/hddl.h"
#include "hddl_seen.h"
#include "pddl/pddl_internal.h"

#include "hddl_plan.h"


typedef struct hp_ent {
  int32_t what;        /* primitive: schema id; compound: task id */
  int32_t method;      /* compound: method id */
  int32_t args, nargs; /* in data */
  int32_t kids, nkids; /* compound: child ids in data */
} hp_ent;

struct goap_hddl_plan {
  goap_allocator a;
  int nprim, ncomp;
  hp_ent *ents;        /* nprim primitives, then ncomp compound tasks */
  int32_t *data;
  size_t ndata;
  int32_t roots, nroots; /* in data */
};

static double elapsed_ms(const hp *h) { return (double)(goap__now_ns() - h->t0) / 1e6; }

static int over_time(hp *h) {
  if (h->max_ms > 0 && elapsed_ms(h) >= h->max_ms) {
    h->st = GOAP_TIME_LIMIT;
    return 1;
  }
  return 0;
}

static int oom(hp *h) {
  h->st = GOAP_OUT_OF_MEMORY;
  return 0;
}

/* ---- the state ------------------------------------------------------------------------ */

/* The atom's id, interning it (and listing it under its predicate); -1 when out of memory. */
static int32_t intern(hp *h, int32_t pred, const int32_t *args, int n) {
  int added = 0;
  int32_t e = goap__px_tset_add(h->a, &h->atoms, pred, args, n, &added);
  if (e < 0) return -1;
  if (added) {
    if (!goap__grow(h->a, (void **)&h->truth, &h->ctruth, (size_t)e + 1, 1)) return -1;
    h->truth[e] = 0;
    if (!goap__px_ipush(h->a, &h->by_pred[pred], e)) return -1;
    size_t no = h->t->nobjects;
    if (n >= 2 && !h->by_arg[pred] && (size_t)n * no <= HP_MAX_INDEX) {
      h->by_arg[pred] = (goap__px_ivec *)goap__alloc(h->a, (size_t)n * no * sizeof(goap__px_ivec));
      if (!h->by_arg[pred]) return -1;
      memset(h->by_arg[pred], 0, (size_t)n * no * sizeof(goap__px_ivec));
    }
    if (h->by_arg[pred])
      for (int i = 0; i < n; ++i)
        if (!goap__px_ipush(h->a, &h->by_arg[pred][(size_t)i * no + (size_t)args[i]], e))
          return -1;
  }
  return e;
}

/* A well-mixed 64-bit key of atom e (splitmix64's finalizer): the state's hash is the XOR of
 * the keys of its true atoms, kept up to date by every change and every undo. */
static uint64_t atom_key(int32_t e) {
  uint64_t x = (uint64_t)(uint32_t)e * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

static int set_truth(hp *h, int32_t e, uint8_t v) {
  if (h->truth[e] == v) return 1;
  if (!goap__px_ipush(h->a, &h->undo, e) || !goap__px_ipush(h->a, &h->undo, h->truth[e]))
    return 0;
  h->truth[e] = v;
  h->hash ^= atom_key(e);
  if (h->pcount) h->pcount[goap__px_tset_id(&h->atoms, e)] += v ? 1 : -1;
  return 1;
}

static void undo_to(hp *h, size_t mark) {
  while (h->undo.n > mark) {
    h->undo.n -= 2;
    int32_t e = h->undo.v[h->undo.n];
    h->truth[e] = (uint8_t)h->undo.v[h->undo.n + 1];
    h->hash ^= atom_key(e); /* every logged change was a flip */
    if (h->pcount) h->pcount[goap__px_tset_id(&h->atoms, e)] += h->truth[e] ? 1 : -1;
  }
}

static int holds(const hp *h, int32_t pred, const int32_t *args, int n) {
  int32_t e = goap__px_tset_find(&h->atoms, pred, args, n);
  return e >= 0 && h->truth[e];
}

static int is_a(const goap__px_task_core *t, int32_t o, int32_t ty) {
  return t->is_a[(size_t)o * t->ntypes + (size_t)ty] != 0;
}

/* ---- the search ----------------------------------------------------------------------- */

/* The hash of the agenda from a new cell holding `node` before cell `next` (-1: none): the
 * node's task, arguments and depth, then the rest's hash, mixed in order. */
static uint64_t cell_hash(const hp *h, int32_t node, int32_t next) {
  const hp_node *n = &h->nodes[node];
  uint64_t x = atom_key(n->task) ^ (n->task >= 0 ? (uint64_t)(uint32_t)n->depth << 32 : 0);
  for (int32_t i = 0; i < n->nargs; ++i)
    x = atom_key((int32_t)(uint32_t)x ^ h->gargs.v[n->args + i]) ^ (x >> 7) ^ (x << 13);
  uint64_t r = next >= 0 ? h->chash[next] : 0x2545F4914F6CDD1Dull;
  return atom_key((int32_t)(uint32_t)(x ^ (x >> 32))) ^ (x * 0x9E3779B97F4A7C15ull) ^
         (r * 0xD6E8FEB86659FD93ull + (r >> 29));
}

static int32_t new_cell(hp *h, int32_t node, int32_t next) {
  int32_t c = (int32_t)(h->cells.n / 2);
  if (!goap__grow(h->a, (void **)&h->chash, &h->cchash, (size_t)c + 1, sizeof *h->chash))
    return -2;
  if (!goap__px_ipush(h->a, &h->cells, node) || !goap__px_ipush(h->a, &h->cells, next)) return -2;
  h->chash[c] = cell_hash(h, node, next);
  if (h->tgoal) {
    if (!goap__grow(h->a, (void **)&h->cgoal, &h->ccgoal, (size_t)c + 1, sizeof *h->cgoal))
      return -2;
    int32_t task = h->nodes[node].task;
    size_t ti = task >= 0 ? (size_t)task : h->t->htn.nctasks + (size_t)(-task - 1);
    h->cgoal[c] = h->tgoal[ti] | (next >= 0 ? h->cgoal[next] : 0);
    if (h->rel) {
      if (!goap__grow(h->a, (void **)&h->crel, &h->ccrel, (size_t)c + 1, sizeof *h->crel))
        return -2;
      h->crel[c] = h->trel[ti] | (next >= 0 ? h->crel[next] : 0);
    }
  }
  return c;
}

static int32_t new_node(hp *h, int32_t task, int32_t depth, int32_t parent) {
  if (!goap__grow(h->a, (void **)&h->nodes, &h->cnodes, h->nnodes + 1, sizeof *h->nodes))
    return -1;
  hp_node *n = &h->nodes[h->nnodes];
  n->task = task;
  n->args = (int32_t)h->gargs.n;
  n->nargs = 0;
  n->method = -1;
  n->child0 = n->nchild = 0;
  n->depth = depth;
  n->prim = -1;
  n->parent = parent;
  n->cell = -1;
  n->hash = 0;
  return (int32_t)h->nnodes++;
}

/* The network of method m (-1: the :htn). */
typedef struct hp_net {
  int32_t step0, nsteps, nparams, ptypes, lit0, nlits;
} hp_net;

static hp_net net_of(const goap__px_task_core *t, int32_t m) {
  hp_net r;
  if (m < 0) {
    r.step0 = t->htn.top_step0;
    r.nsteps = t->htn.top_nsteps;
    r.nparams = t->htn.top_nparams;
    r.ptypes = t->htn.top_ptypes;
    r.lit0 = r.nlits = 0;
  } else {
    const goap__px_method *pm = &t->htn.methods[m];
    r.step0 = pm->step0;
    r.nsteps = pm->nsteps;
    r.nparams = pm->nparams;
    r.ptypes = pm->ptypes;
    r.lit0 = pm->lit0;
    r.nlits = pm->nlits;
  }
  return r;
}

/* Decomposes frame f's task by method m with binding b: children nodes, then the agenda. */
static int expand(hp *h, hp_frame *f, int32_t m, const int32_t *b, int32_t *agenda) {
  const goap__px_task_core *t = h->t;
  hp_net nt = net_of(t, m);
  int32_t rest = f->cell >= 0 ? h->cells.v[2 * f->cell + 1] : -1;
  int32_t depth = h->nodes[f->node].depth + 1;
  int32_t child0 = (int32_t)h->nnodes;
  for (int32_t s = nt.step0; s < nt.step0 + nt.nsteps; ++s) {
    const goap__px_step *ps = &t->htn.steps[s];
    /* a method's last subtask is a tail call: it keeps its parent's depth (not under the
     * root: the :htn's tasks all have depth 1) */
    int tail = s == nt.step0 + nt.nsteps - 1 && f->node > 0;
    if (!tail && f->node > 0 && h->rec && ps->task >= 0) { /* recursion-only depth */
      size_t bit = (size_t)ps->task * t->htn.nctasks + (size_t)h->nodes[f->node].task;
      tail = !(h->rec[bit >> 6] >> (bit & 63) & 1u);
    }
    int32_t nn = new_node(h, ps->task, tail ? depth - 1 : depth, f->node);
    if (nn < 0) return oom(h);
    for (int32_t i = 0; i < ps->nargs; ++i) {
      int32_t a = t->args.v[ps->args + i];
      if (!goap__px_ipush(h->a, &h->gargs, a >= 0 ? a : b[-a - 1])) return oom(h);
    }
    h->nodes[nn].nargs = ps->nargs;
  }
  hp_node *fn = &h->nodes[f->node];
  fn->method = m;
  fn->child0 = child0;
  fn->nchild = nt.nsteps;
  int32_t next = rest;
  for (int32_t i = nt.nsteps - 1; i >= 0; --i) {
    next = new_cell(h, child0 + i, next);
    if (next == -2) return oom(h);
  }
  *agenda = next;
  return 1;
}

/* Applies primitive node n when its precondition holds; 0 when it does not (h->st unchanged)
 * or on a memory failure (h->st set). */
static int apply(hp *h, int32_t node) {
  const goap__px_task_core *t = h->t;
  const hp_node *n = &h->nodes[node];
  const goap__px_schema *s = &t->schemas[-n->task - 1];
  int32_t *b = h->ab;
  for (int32_t i = 0; i < n->nargs; ++i) {
    b[i] = h->gargs.v[n->args + i];
    if (!is_a(t, b[i], t->args.v[s->ptypes + i])) return 0;
  }
  int32_t *g = h->scratch;
  for (int32_t i = s->lit0; i < s->lit0 + s->nlits; ++i) {
    const goap__px_lit *l = &h->lits[i];
    if (l->kind != PX_LIT_PRE) continue;
    goap__hp_ground(h, l, b, g);
    if (!goap__hp_lit_holds(h, l, g)) return 0;
  }
  /* deletes first, then adds: an atom both deleted and added stays true */
  for (int pass = 0; pass < 2; ++pass)
    for (int32_t i = s->lit0; i < s->lit0 + s->nlits; ++i) {
      const goap__px_lit *l = &h->lits[i];
      if (l->kind != (pass == 0 ? PX_LIT_DEL : PX_LIT_ADD)) continue;
      goap__hp_ground(h, l, b, g);
      int32_t e = intern(h, l->pred, g, t->preds[l->pred].arity);
      if (e < 0 || !set_truth(h, e, pass == 0 ? 0 : 1)) return oom(h);
    }
  return 1;
}

static int goal_holds(hp *h) {
  const goap__px_task_core *t = h->t;
  int32_t g[PX_MAX_ARITY];
  for (int32_t i = t->goal0; i < t->goal0 + t->ngoal; ++i) {
    const goap__px_lit *l = &h->lits[i];
    goap__hp_ground(h, l, NULL, g);
    int v = l->pred == PX_EQ ? g[0] == g[1] : holds(h, l->pred, g, t->preds[l->pred].arity);
    if (l->neg ? v : !v) return 0;
  }
  return 1;
}

/* Goal literal i (of the first 64) is false now; its atom is looked up once it exists (atoms
 * are never removed), then read directly. */
static int goal_false(hp *h, int32_t i) {
  const goap__px_lit *l = &h->lits[h->t->goal0 + i];
  int32_t g[PX_MAX_ARITY];
  int v;
  if (l->pred == PX_EQ) {
    goap__hp_ground(h, l, NULL, g);
    v = g[0] == g[1];
  } else {
    int32_t e = h->gatom[i];
    if (e < 0) {
      goap__hp_ground(h, l, NULL, g);
      e = h->gatom[i] = goap__px_tset_find(&h->atoms, l->pred, g, h->t->preds[l->pred].arity);
    }
    v = e >= 0 && h->truth[e];
  }
  return l->neg ? v : !v;
}

/* 0 when some goal literal (of the first 64) is false now and no task from agenda cell `cell`
 * on can make it true: no decomposition of the rest of the agenda reaches the goal. */
static int goal_reachable(hp *h, int32_t cell) {
  const goap__px_task_core *t = h->t;
  uint64_t can = h->cgoal[cell], cand = 0;
  int32_t n = t->ngoal < 64 ? t->ngoal : 64;
  for (int32_t i = 0; i < n; ++i)
    if (!(can >> i & 1u) && goal_false(h, i)) return 0;
  if (!h->rel) return 1;
  /* the relaxed test below fails only for a positive literal whose predicate has no true atom
   * now (r holds every predicate that has one): with none, it would pass */
  for (int32_t i = 0; i < n; ++i) {
    const goap__px_lit *l = &h->lits[t->goal0 + i];
    if (!l->neg && l->pred >= 0 && h->pcount[l->pred] == 0) cand |= (uint64_t)1 << i;
  }
  if (!cand) return 1;
  /* relaxed: the predicates with a true atom now, then those the relevant actions the rest
   * of the agenda can reach add, once their positive preconditions' predicates are there */
  uint8_t *r = h->preach;
  for (size_t p = 0; p < t->npreds; ++p) r[p] = h->pcount[p] > 0;
  uint64_t left = h->crel[cell];
  for (int changed = 1; changed && left;) {
    changed = 0;
    for (int j = 0; j < h->nrel; ++j) {
      if (!(left >> j & 1u)) continue;
      const goap__px_schema *sc = &t->schemas[h->rel[j]];
      int ok = 1;
      for (int32_t i = sc->lit0; ok && i < sc->lit0 + sc->nlits; ++i) {
        const goap__px_lit *l = &h->lits[i];
        if (l->kind == PX_LIT_PRE && !l->neg && l->pred >= 0 && !r[l->pred]) ok = 0;
      }
      if (!ok) continue;
      for (int32_t i = sc->lit0; i < sc->lit0 + sc->nlits; ++i)
        if (h->lits[i].kind == PX_LIT_ADD) r[h->lits[i].pred] = 1;
      left &= ~((uint64_t)1 << j);
      changed = 1;
    }
  }
  for (int32_t i = 0; i < n; ++i) {
    const goap__px_lit *l = &h->lits[t->goal0 + i];
    if (!(cand >> i & 1u) || r[l->pred]) continue;
    return 0; /* false now (no true atom of its predicate), and nothing can add it */
  }
  return 1;
}

static int32_t lowest_bit(uint64_t x) {
  int32_t i = 0;
  while (!(x >> i & 1u)) ++i;
  return i;
}

static int push_frame(hp *h, int32_t cell, int32_t node) {
  if (!goap__grow(h->a, (void **)&h->frames, &h->cframes, h->nframes + 1, sizeof *h->frames))
    return oom(h);
  hp_frame *f = &h->frames[h->nframes++];
  f->cell = cell;
  f->node = node;
  f->mi = f->mj = -1;
  f->pass = 1;
  f->gf = 0;
  int32_t task = h->nodes[node].task;
  if (h->tsplit && task >= 0 && h->tsplit[task]) { /* goal-first: which literals are false */
    size_t nc = h->t->htn.nctasks;
    uint64_t up = h->tsplit[(h->order == h->mids2 ? 2 * nc : nc) + (size_t)task];
    int moves = 0; /* some literal that can move a method ahead is false */
    for (; up && !moves; up &= up - 1) moves = goal_false(h, lowest_bit(up));
    for (uint64_t sp = moves ? h->tsplit[task] : 0; sp; sp &= sp - 1) {
      int32_t i = lowest_bit(sp);
      if (goal_false(h, i)) f->gf |= (uint64_t)1 << i;
    }
    if (f->gf) f->pass = 0;
  }
  f->bind0 = f->nbind = f->bnext = 0;
  f->m_nodes = h->nnodes;
  f->m_gargs = h->gargs.n;
  f->m_cells = h->cells.n;
  f->m_seq = h->seq.n;
  f->m_undo = h->undo.n;
  f->m_pool = h->pool.n;
  f->lz = 0;
  return 1;
}

/* The position of frame f's next method in the task's list of nm (f->mj, f->pass advanced),
 * or -1 when none is left: with gf, first the methods whose subtasks may make one of gf's
 * goal literals (false when the task came up) true, then the others, each in list order. */
static int32_t next_method(const hp *h, hp_frame *f, int32_t m0, int32_t nm) {
  for (;;) {
    if (++f->mj >= nm) {
      if (f->pass) return -1;
      f->pass = 1;
      f->mj = 0;
      if (nm == 0) return -1;
    }
    if (!f->gf) return f->mj;
    int hit = (h->mgoal[h->order[m0 + f->mj]] & f->gf) != 0;
    if (hit == (f->pass == 0)) return f->mj;
  }
}

/* Tries the next alternative of the top frame (popping exhausted frames); 1 with *agenda set
 * when one was expanded, 0 when none is left or on a stop (h->st). */
static int advance(hp *h, int32_t *agenda) {
  const goap__px_task_core *t = h->t;
  while (h->nframes > 0) {
    hp_frame *f = &h->frames[h->nframes - 1];
    undo_to(h, f->m_undo);
    h->nnodes = f->m_nodes;
    h->gargs.n = f->m_gargs;
    h->cells.n = f->m_cells;
    h->seq.n = f->m_seq;
    const hp_node *tn = &h->nodes[f->node];
    int32_t nm = tn->task == HP_ROOT ? 1 : h->m0[tn->task + 1] - h->m0[tn->task];
    for (;;) {
      if (f->bnext < f->nbind) {
        if (h->steps >= h->slice_end) { /* the turn ends before this binding: resumable */
          h->sliced = 1;
          return 0;
        }
        int32_t m = tn->task == HP_ROOT ? -1 : h->order[h->m0[tn->task] + f->mj];
        size_t w = (size_t)net_of(t, m).nparams;
        h->pool.n = f->bind0 + f->nbind * w;
        int32_t *b = h->ub;
        for (size_t i = 0; i < w; ++i) b[i] = h->pool.v[f->bind0 + f->bnext * w + i];
        f->bnext++;
        if (++h->steps > h->max_steps) {
          h->st = GOAP_NODE_LIMIT;
          return 0;
        }
        if ((h->steps & 0xff) == 0 && over_time(h)) return 0;
        if (f->lz && f->bnext == f->nbind && !goap__hp_join_more(h, f)) return 0; /* one ahead */
        if (!expand(h, f, m, b, agenda)) return 0;
        if (f->bnext == f->nbind && f->mi == nm - 1) {
          /* no alternative left: backtracking would only restore the marks of the frame
           * below and pop this one, so it goes now (its bindings with it) */
          goap__hp_join_drop(h, f);
          h->pool.n = f->m_pool;
          h->nframes--;
        }
        return 1;
      }
      goap__hp_join_drop(h, f);
      if (++f->mi >= nm) break;
      if (!f->gf) f->mj = f->mi; /* the plain order (and the root's one network) */
      else if (next_method(h, f, h->m0[tn->task], nm) < 0) break;
      h->pool.n = f->m_pool;
      int32_t m = tn->task == HP_ROOT ? -1 : h->order[h->m0[tn->task] + f->mj];
      hp_net nt = net_of(t, m);
      int32_t *b = h->ub;
      for (int i = 0; i < nt.nparams; ++i) b[i] = -1;
      int ok = 1;
      if (m >= 0) { /* unify the task's arguments with the method's :task */
        const goap__px_method *pm = &t->htn.methods[m];
        for (int32_t i = 0; i < tn->nargs && ok; ++i) {
          int32_t g = h->gargs.v[tn->args + i], a = t->args.v[pm->targs + i];
          if (a >= 0) ok = a == g;
          else if (b[-a - 1] >= 0) ok = b[-a - 1] == g;
          else if (is_a(t, g, t->args.v[pm->ptypes + (-a - 1)])) b[-a - 1] = g;
          else ok = 0;
        }
      }
      f->bind0 = h->pool.n;
      f->nbind = f->bnext = 0;
      int32_t l0 = m >= 0 ? h->x0[m] : nt.lit0, nl = m >= 0 ? h->xn[m] : nt.nlits;
      int32_t nown = m >= 0 ? h->xb[m] : nl;
      if (ok && !goap__hp_join_dfs(h, f, m, l0, nl, nown, nt.nparams, nt.ptypes, b)) return 0;
    }
    h->pool.n = f->m_pool;
    h->nframes--;
    h->dead = 1; /* no method or binding left: backtracking */
  }
  return 0;
}

/* Loop detection: compound node `node` at agenda cell `cell` repeats an ancestor that was
 * decomposed with the same task, arguments, continuation (the rest of the agenda after it:
 * `node` is in tail position under it) and state (hash). The situation (state, agenda) is then
 * the ancestor's again, and every plan from here is also a plan from the ancestor's other
 * choices, which the search tries anyway: this one is pruned (not a depth cut). */
static int is_loop(const hp *h, int32_t node, int32_t cell) {
  const hp_node *n = &h->nodes[node];
  int32_t rest = h->cells.v[2 * cell + 1];
  for (int32_t m = n->parent; m > 0; m = h->nodes[m].parent) {
    const hp_node *a = &h->nodes[m];
    if (a->cell < 0 || h->cells.v[2 * a->cell + 1] != rest) return 0; /* no longer in tail */
    if (a->task != n->task || a->hash != h->hash || a->nargs != n->nargs) continue;
    if (n->nargs == 0 ||
        memcmp(h->gargs.v + a->args, h->gargs.v + n->args, (size_t)n->nargs * sizeof(int32_t)) == 0)
      return 1;
  }
  return 0;
}

/* One depth-bounded round, started, or resumed (resume) where its last turn paused: 1 when a
 * plan was found (the tree is in nodes/seq); 0 when the round failed, on a stop (h->st), or
 * when the turn ended (h->sliced: resume it later). */
static int round_search(hp *h, int resume) {
  int32_t agenda = -1; /* advance sets it: a paused round stopped before an expansion */
  h->sliced = 0;
  if (!resume) {
    undo_to(h, 0);
    h->nnodes = 0;
    h->gargs.n = h->cells.n = h->seq.n = h->pool.n = 0;
    h->nframes = 0;
    goap__hp_join_reset(h);
    h->cut = 0;
    goap__hseen_clear(&h->seen);
    int32_t root = new_node(h, HP_ROOT, 0, -1);
    if (root < 0) return oom(h);
    if (!push_frame(h, -1, root)) return 0;
  }
  /* both a new round and a paused one go on with the top frame's next alternative */
  if (!advance(h, &agenda)) return 0;
  for (;;) {
    int ok = 1, seen, opened = 0;
    if (agenda < 0) {
      if (goal_holds(h)) return 1;
      ok = 0;
    } else {
      int32_t node = h->cells.v[2 * agenda];
      hp_node *n = &h->nodes[node];
      if (n->task < 0) {
        ok = apply(h, node);
        if (h->st != GOAP_OK) return 0;
        if (ok) {
          h->nodes[node].prim = (int32_t)h->seq.n;
          if (!goap__px_ipush(h->a, &h->seq, node)) return oom(h);
          agenda = h->cells.v[2 * agenda + 1];
        }
      } else if ((seen = goap__hseen_add(h->a, &h->seen, h->hash, h->chash[agenda])) == 0 ||
                 (seen < 0 && is_loop(h, node, agenda))) {
        ok = 0; /* a repeated situation; the loop walk only when the set could not hold it */
      } else if (h->tgoal && !goal_reachable(h, agenda)) {
        ok = 0; /* not a cut: no deeper bound changes the tasks left */
      } else if (n->depth > h->bound) {
        h->cut = 1;
        ok = 0;
      } else {
        n->cell = agenda;
        n->hash = h->hash;
        if (!push_frame(h, agenda, node)) return 0;
        ok = 0;
        opened = 1;
      }
    }
    if (!ok && !opened) h->dead = 1; /* a failure, a pruned or cut task */
    if (!ok && !advance(h, &agenda)) return 0;
  }
}

/* Runs search h for one turn (until h->slice_end steps): rounds of growing depth bounds from
 * h->bound, resuming a paused round first. 1 when it found a plan; 0 with h->sliced when the
 * turn ended, else with h->st set to the search's final status. */
static int run_turn(hp *h, int max_depth) {
  for (;;) {
    int found;
    if (h->in_round) {
      found = round_search(h, 1);
    } else {
      if (max_depth && h->bound > max_depth) {
        h->st = GOAP_TOO_LARGE;
        return 0;
      }
      h->rounds++;
      h->in_round = 1;
      found = round_search(h, 0);
    }
    if (h->sliced) return 0;
    h->in_round = 0;
    if (found) return 1;
    if (h->st != GOAP_OK) return 0;
    if (!h->cut) {
      h->st = GOAP_NO_PLAN;
      return 0;
    }
    if (h->bound == INT32_MAX - 1) {
      h->st = GOAP_TOO_LARGE;
      return 0;
    }
    h->bound++;
  }
}

/* ---- for the best-first search (hddl_bfs.c) -------------------------------------------- */

int32_t goap__hp_intern(hp *h, int32_t pred, const int32_t *args, int n) {
  return intern(h, pred, args, n);
}
int goap__hp_set_truth(hp *h, int32_t e, uint8_t v) { return set_truth(h, e, v); }
void goap__hp_undo_to(hp *h, size_t mark) { undo_to(h, mark); }

/* ---- setup and the result ------------------------------------------------------------- */

static void hp_free(hp *h) {
  const goap__px_task_core *t = h->t;
  const goap_allocator *a = h->a;
  goap__px_tset_free(a, &h->atoms);
  goap__free(a, h->truth, h->ctruth);
  if (h->by_pred) {
    for (size_t i = 0; i < t->npreds; ++i) goap__px_ivec_free(a, &h->by_pred[i]);
    goap__free(a, h->by_pred, (t->npreds ? t->npreds : 1) * sizeof *h->by_pred);
  }
  if (h->by_arg) {
    for (size_t i = 0; i < t->npreds; ++i) {
      if (!h->by_arg[i]) continue;
      size_t n = (size_t)t->preds[i].arity * t->nobjects;
      for (size_t k = 0; k < n; ++k) goap__px_ivec_free(a, &h->by_arg[i][k]);
      goap__free(a, h->by_arg[i], n * sizeof(goap__px_ivec));
    }
    goap__free(a, h->by_arg, (t->npreds ? t->npreds : 1) * sizeof *h->by_arg);
  }
  goap__px_ivec_free(a, &h->undo);
  goap__free(a, h->lits, h->clits * sizeof *h->lits);
  goap__px_ivec_free(a, &h->av);
  goap__free(a, h->x0, (t->htn.nmethods ? t->htn.nmethods : 1) * sizeof *h->x0);
  goap__free(a, h->xn, (t->htn.nmethods ? t->htn.nmethods : 1) * sizeof *h->xn);
  goap__free(a, h->xb, (t->htn.nmethods ? t->htn.nmethods : 1) * sizeof *h->xb);
  goap__free(a, h->tobj0, (t->ntypes + 1) * sizeof *h->tobj0);
  goap__free(a, h->tobjs, (t->nobjects * t->ntypes > 0 ? t->nobjects * t->ntypes : 1) * sizeof *h->tobjs);
  goap__free(a, h->m0, (t->htn.nctasks + 1) * sizeof *h->m0);
  goap__free(a, h->mids, (t->htn.nmethods ? t->htn.nmethods : 1) * sizeof *h->mids);
  goap__free(a, h->mids2, (t->htn.nmethods ? t->htn.nmethods : 1) * sizeof *h->mids2);
  goap__free(a, h->nodes, h->cnodes * sizeof *h->nodes);
  goap__px_ivec_free(a, &h->gargs);
  goap__px_ivec_free(a, &h->cells);
  goap__px_ivec_free(a, &h->seq);
  goap__px_ivec_free(a, &h->pool);
  goap__free(a, h->chash, h->cchash * sizeof *h->chash);
  goap__free(a, h->cgoal, h->ccgoal * sizeof *h->cgoal);
  goap__free(a, h->tgoal, (t->htn.nctasks + t->nschemas + 1) * sizeof *h->tgoal);
  goap__free(a, h->mgoal, (t->htn.nmethods ? t->htn.nmethods : 1) * sizeof *h->mgoal);
  goap__free(a, h->tsplit, 3 * (t->htn.nctasks ? t->htn.nctasks : 1) * sizeof *h->tsplit);
  goap__free(a, h->rel, 64 * sizeof *h->rel);
  goap__free(a, h->trel, (t->htn.nctasks + t->nschemas + 1) * sizeof *h->trel);
  goap__free(a, h->crel, h->ccrel * sizeof *h->crel);
  goap__free(a, h->pcount, (t->npreds ? t->npreds : 1) * sizeof *h->pcount);
  goap__free(a, h->preach, t->npreds ? t->npreds : 1);
  goap__hseen_free(a, &h->seen);
  goap__px_ivec_free(a, &h->jkey);
  goap__px_ivec_free(a, &h->jord);
  goap__free(a, h->jord0, (t->htn.nmethods ? t->htn.nmethods : 1) * sizeof *h->jord0);
  goap__px_ivec_free(a, &h->jidx);
  goap__px_ivec_free(a, &h->jtmp);
  goap__free(a, h->frames, h->cframes * sizeof *h->frames);
  goap__free(a, h->lev, h->nlev_max * sizeof *h->lev);
  goap__free(a, h->jb, h->maxp * sizeof *h->jb);
  goap__free(a, h->bstk, h->maxp * sizeof *h->bstk);
  goap__free(a, h->ab, h->maxp * sizeof *h->ab);
  goap__free(a, h->ub, h->maxp * sizeof *h->ub);
  goap__free(a, h->inpos, h->maxp);
  goap__free(a, h->rec, goap__hp_reach_bits(t) * sizeof *h->rec);
  goap__hp_join_free(h);
  goap__free(a, h->gatom, 64 * sizeof *h->gatom);
}

static int hp_init(hp *h) {
  const goap__px_task_core *t = h->t;
  const goap_allocator *a = h->a;
  size_t np = t->npreds ? t->npreds : 1;
  h->by_pred = (goap__px_ivec *)goap__alloc(a, np * sizeof *h->by_pred);
  h->by_arg = (goap__px_ivec **)goap__alloc(a, np * sizeof *h->by_arg);
  if (h->by_arg) memset(h->by_arg, 0, np * sizeof *h->by_arg);
  h->tobj0 = (int32_t *)goap__alloc(a, (t->ntypes + 1) * sizeof *h->tobj0);
  size_t cells = t->nobjects * t->ntypes > 0 ? t->nobjects * t->ntypes : 1;
  h->tobjs = (int32_t *)goap__alloc(a, cells * sizeof *h->tobjs);
  h->m0 = (int32_t *)goap__alloc(a, (t->htn.nctasks + 1) * sizeof *h->m0);
  h->mids = (int32_t *)goap__alloc(a, (t->htn.nmethods ? t->htn.nmethods : 1) * sizeof *h->mids);
  h->mids2 = (int32_t *)goap__alloc(a, (t->htn.nmethods ? t->htn.nmethods : 1) * sizeof *h->mids2);
  h->jord0 = (int32_t *)goap__alloc(a, (t->htn.nmethods ? t->htn.nmethods : 1) * sizeof *h->jord0);
  if (h->jord0)
    for (size_t m = 0; m < t->htn.nmethods; ++m) h->jord0[m] = -1;
  if (!h->mids2 || !h->jord0 || !goap__hp_build_lits(h)) {
    if (h->by_pred) memset(h->by_pred, 0, np * sizeof *h->by_pred);
    return oom(h);
  }
  /* the buffers' sizes: the largest method, action and :htn */
  h->maxp = (size_t)t->htn.top_nparams;
  for (size_t m = 0; m < t->htn.nmethods; ++m)
    if ((size_t)t->htn.methods[m].nparams > h->maxp) h->maxp = (size_t)t->htn.methods[m].nparams;
  for (size_t s = 0; s < t->nschemas; ++s)
    if ((size_t)t->schemas[s].nparams > h->maxp) h->maxp = (size_t)t->schemas[s].nparams;
  if (h->maxp == 0) h->maxp = 1;
  h->jb = (int32_t *)goap__alloc(a, h->maxp * sizeof *h->jb);
  h->bstk = (int32_t *)goap__alloc(a, h->maxp * sizeof *h->bstk);
  h->ab = (int32_t *)goap__alloc(a, h->maxp * sizeof *h->ab);
  h->ub = (int32_t *)goap__alloc(a, h->maxp * sizeof *h->ub);
  h->inpos = (uint8_t *)goap__alloc(a, h->maxp);
  if (!h->by_pred || !h->by_arg || !h->tobj0 || !h->tobjs || !h->m0 || !h->mids || !h->jb ||
      !h->bstk || !h->ab || !h->ub || !h->inpos) {
    if (h->by_pred) memset(h->by_pred, 0, np * sizeof *h->by_pred);
    return oom(h);
  }
  memset(h->by_pred, 0, np * sizeof *h->by_pred);
  size_t k = 0;
  for (size_t ty = 0; ty < t->ntypes; ++ty) {
    h->tobj0[ty] = (int32_t)k;
    for (size_t o = 0; o < t->nobjects; ++o)
      if (is_a(t, (int32_t)o, (int32_t)ty)) h->tobjs[k++] = (int32_t)o;
  }
  h->tobj0[t->ntypes] = (int32_t)k;
  h->two_orders = goap__hp_order_methods(h);
  if (h->st != GOAP_OK || !goap__hp_lift_lits(h) || !goap__hp_goal_reach(h)) return 0;
  h->gatom = (int32_t *)goap__alloc(a, 64 * sizeof *h->gatom);
  if (!h->gatom) return oom(h);
  for (int i = 0; i < 64; ++i) h->gatom[i] = -1;
  /* the join's levels: the largest method's parameters and join literals, or the :htn's */
  h->nlev_max = (size_t)t->htn.top_nparams;
  for (size_t m = 0; m < t->htn.nmethods; ++m)
    if ((size_t)t->htn.methods[m].nparams + (size_t)h->xn[m] > h->nlev_max)
      h->nlev_max = (size_t)t->htn.methods[m].nparams + (size_t)h->xn[m];
  if (h->nlev_max == 0) h->nlev_max = 1;
  h->lev = (hp_level *)goap__alloc(a, h->nlev_max * sizeof *h->lev);
  if (!h->lev) return oom(h);
  h->order = h->mids;
  for (size_t i = 0; i + 1 < t->init.n; i += 2) {
    int32_t p = t->init.v[i];
    int32_t e = intern(h, p, t->args.v + t->init.v[i + 1], t->preds[p].arity);
    if (e < 0) return oom(h);
    if (!h->truth[e]) {
      h->hash ^= atom_key(e);
      if (h->pcount) h->pcount[p]++;
    }
    h->truth[e] = 1;
  }
  return 1;
}

/* Copies the found tree into a plan. */
static goap_hddl_plan *make_plan(hp *h) {
  const goap_allocator *a = h->a;
  goap_hddl_plan *p = (goap_hddl_plan *)goap__alloc(a, sizeof *p);
  if (!p) return NULL;
  memset(p, 0, sizeof *p);
  p->a = *a;
  int32_t *id = (int32_t *)goap__alloc(a, (h->nnodes ? h->nnodes : 1) * sizeof *id);
  size_t nents = h->nnodes ? h->nnodes - 1 : 0; /* every node but the root */
  p->ents = (hp_ent *)goap__alloc(a, (nents ? nents : 1) * sizeof *p->ents);
  p->ndata = h->gargs.n + h->nnodes;
  p->data = (int32_t *)goap__alloc(a, (p->ndata ? p->ndata : 1) * sizeof *p->data);
  if (!id || !p->ents || !p->data) {
    goap__free(a, id, (h->nnodes ? h->nnodes : 1) * sizeof *id);
    goap__free(a, p->ents, (nents ? nents : 1) * sizeof *p->ents);
    goap__free(a, p->data, (p->ndata ? p->ndata : 1) * sizeof *p->data);
    goap__free(a, p, sizeof *p);
    return NULL;
  }
  p->nprim = (int)h->seq.n;
  int32_t next = p->nprim;
  for (size_t i = 1; i < h->nnodes; ++i)
    id[i] = h->nodes[i].task < 0 ? h->nodes[i].prim : next++;
  p->ncomp = next - p->nprim;
  size_t d = 0;
  for (size_t i = 1; i < h->nnodes; ++i) {
    const hp_node *n = &h->nodes[i];
    hp_ent *e = &p->ents[id[i]];
    e->what = n->task < 0 ? -n->task - 1 : n->task;
    e->method = n->method;
    e->args = (int32_t)d;
    e->nargs = n->nargs;
    for (int32_t k = 0; k < n->nargs; ++k) p->data[d++] = h->gargs.v[n->args + k];
    e->kids = (int32_t)d;
    e->nkids = n->task < 0 ? 0 : n->nchild;
    for (int32_t k = 0; k < e->nkids; ++k) p->data[d++] = id[n->child0 + k];
  }
  const hp_node *r = &h->nodes[0];
  p->roots = (int32_t)d;
  p->nroots = r->nchild;
  for (int32_t k = 0; k < r->nchild; ++k) p->data[d++] = id[r->child0 + k];
  goap__free(a, id, (h->nnodes ? h->nnodes : 1) * sizeof *id);
  return p;
}

goap_status goap_hddl_solve(const goap_pddl_task *task, const goap_hddl_options *opt,
                            goap_hddl_plan **out, goap_hddl_stats *stats) {
  return goap__hddl_solve_ex(task, opt, out, stats, 0);
}

goap_status goap__hddl_solve_ex(const goap_pddl_task *task, const goap_hddl_options *opt,
                                goap_hddl_plan **out, goap_hddl_stats *stats, int eager) {
  if (out) *out = NULL;
  if (stats) memset(stats, 0, sizeof *stats);
  if (!task || !out || !goap_hddl_is_htn(task)) return GOAP_INVALID_ARGUMENT;
  /* Two searches share the budgets and take turns (goap__hp_slice): methods in domain order
   * (hs[0]) and fewest primitive steps first (hs[1], only when that order differs), then the
   * best-first progression search (hs[2], hddl_bfs.c). Each keeps its own state, agenda and
   * choice points (or open list), and a turn resumes where the search's last one paused. All
   * search the same space, so the first plan found, "no plan" or a real budget ends all; the
   * best-first search's node cap (GOAP_MEMORY_LIMIT) only ends its own turns. */
  hp hs[3];
  memset(hs, 0, sizeof hs);
  uint64_t max_steps = opt && opt->max_steps ? opt->max_steps : GOAP_HDDL_MAX_STEPS;
  uint64_t max_work =
      max_steps > UINT64_MAX / HP_WORK_PER_STEP ? UINT64_MAX : max_steps * HP_WORK_PER_STEP;
  int max_depth = opt && opt->max_depth > 0 ? opt->max_depth : 0;
  int mode = opt ? opt->search : GOAP_HDDL_SEARCH_AUTO;
  if (mode < GOAP_HDDL_SEARCH_AUTO || mode > GOAP_HDDL_SEARCH_BFS) return GOAP_INVALID_ARGUMENT;
  int heur = opt ? opt->heuristic : GOAP_HDDL_H_AUTO;
  if (heur < GOAP_HDDL_H_AUTO || heur > GOAP_HDDL_H_RC) return GOAP_INVALID_ARGUMENT;
  int use_dfs = mode != GOAP_HDDL_SEARCH_BFS;
  int use_bfs = mode == GOAP_HDDL_SEARCH_BFS || (mode == GOAP_HDDL_SEARCH_AUTO && !max_depth);
  for (int i = 0; i < 3; ++i) {
    hs[i].t = &task->c;
    hs[i].a = &task->c.alloc;
    hs[i].t0 = goap__now_ns();
    hs[i].max_ms = opt ? opt->max_ms : 0;
    hs[i].seen.max = HP_MAX_SEEN;
    hs[i].st = GOAP_OK;
    hs[i].bound = 1;
    hs[i].slice_end = UINT64_MAX;
    hs[i].eager = eager;
  }
  int nsearch = 0, found = 0, which = 0, turns[3], nturns = 0, nturn[3] = {0, 0, 0};
  /* each search's turn: goap__hp_slice steps, times grow[which], which becomes 4 times larger
   * after each turn of a depth-first search that has met no dead end yet (Towers: going
   * straight to the plan, it would otherwise share every other turn with searches that cannot
   * help), up to HP_SLICE_MAX steps */
  uint64_t grow[3] = {1, 1, 1};
  goap_status st0 = GOAP_OK;
  uint64_t *rec = NULL;
  int free_nest = 0;
  goap__hb *hb = NULL;
  if (use_dfs) {
    if (hp_init(&hs[0]) && goap__hp_recursion(&hs[0], &rec, &free_nest)) {
      nsearch = 1;
      if (!hs[0].two_orders && rec && free_nest) {
        /* one method order: bounding recursion only, each round holds the same round of the
         * usual depth in the same order, so that search alone (not both, at twice the cost) */
        hs[0].rec = rec;
        rec = NULL;
      } else if (hs[0].two_orders || (rec && free_nest)) {
        hs[1].t0 = hs[0].t0;
        if (hp_init(&hs[1])) {
          hs[1].order = hs[1].mids2;
          hs[1].rec = rec; /* owned by hs[1] now */
          rec = NULL;
          nsearch = 2;
        } else {
          hs[0].st = hs[1].st;
        }
      }
    }
    st0 = hs[0].st;
    goap__free(&task->c.alloc, rec, goap__hp_reach_bits(&task->c) * sizeof *rec);
    for (int i = 0; i < nsearch && st0 == GOAP_OK; ++i) turns[nturns++] = i;
  }
  if (use_bfs && st0 == GOAP_OK) {
    hs[2].t0 = hs[0].t0;
    if (hp_init(&hs[2]) && (hb = goap__hb_new(&hs[2], opt ? opt->max_nodes : 0, heur)) != NULL) turns[nturns++] = 2;
    st0 = hs[2].st;
  }
  if (st0 != GOAP_OK) nturns = 0;
  for (int k = 0; nturns > 0;) {
    which = turns[k];
    hp *h = &hs[which];
    uint64_t used = hs[0].steps + hs[1].steps + hs[2].steps;
    uint64_t wused = hs[0].work + hs[1].work + hs[2].work;
    h->max_steps = h->steps + (max_steps > used ? max_steps - used : 0);
    h->max_work = h->work + (max_work > wused ? max_work - wused : 0);
    uint64_t slice = goap__hp_slice(nturn[which]++, which == 2 && goap__hb_heuristic(hb) == GOAP_HDDL_H_RC);
    slice = slice > HP_SLICE_MAX / grow[which] ? HP_SLICE_MAX : slice * grow[which];
    h->slice_end = nturns >= 2 && h->steps < UINT64_MAX - slice ? h->steps + slice : UINT64_MAX;
    found = which == 2 ? goap__hb_turn(hb, h) : run_turn(h, max_depth);
    if (!h->sliced) {
      if (found || h->st != GOAP_MEMORY_LIMIT || which != 2 || nturns == 1) break;
      nturns--; /* the best-first search reached its node cap: the others go on */
      k = 0;
      continue;
    }
    if (which != 2 && !h->dead && slice < HP_SLICE_MAX) grow[which] *= 4;
    k = (k + 1) % nturns;
  }
  hp *h = &hs[which];
  goap_status st = nturns == 0 ? st0 : h->st;
  if (found) {
    *out = make_plan(h);
    st = *out ? GOAP_OK : GOAP_OUT_OF_MEMORY;
  }
  if (stats) {
    stats->steps = hs[0].steps + hs[1].steps + hs[2].steps;
    stats->rounds = hs[0].rounds + hs[1].rounds;
    stats->depth = found && which != 2 ? h->bound : 0;
    stats->ms = elapsed_ms(&hs[0]);
    stats->bfs_nodes = goap__hb_nodes(hb);
    stats->heuristic = goap__hb_heuristic(hb);
    stats->bfs_h0 = goap__hb_h0(hb);
    stats->rc_ops = goap__hb_rc_ops(hb);
    stats->search = !found ? 0 : which == 2 ? GOAP_HDDL_SEARCH_BFS : GOAP_HDDL_SEARCH_DFS;
  }
  goap__hb_free(hb, &task->c.alloc);
  hp_free(&hs[2]);
  hp_free(&hs[0]);
  hp_free(&hs[1]);
  return st;
}

void goap_hddl_plan_destroy(goap_hddl_plan *p) {
  if (!p) return;
  goap_allocator a = p->a;
  size_t nents = (size_t)(p->nprim + p->ncomp);
  goap__free(&a, p->ents, (nents ? nents : 1) * sizeof *p->ents);
  goap__free(&a, p->data, (p->ndata ? p->ndata : 1) * sizeof *p->data);
  goap__free(&a, p, sizeof *p);
}

int goap_hddl_plan_length(const goap_hddl_plan *p) { return p ? p->nprim : 0; }

typedef struct wbuf {
  char *buf;
  size_t cap, len;
} wbuf;

static void put(wbuf *w, const char *fmt, ...) PX_PRINTF(2, 3);
static void put(wbuf *w, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(w->len < w->cap ? w->buf + w->len : NULL, w->len < w->cap ? w->cap - w->len : 0,
                    fmt, ap);
  va_end(ap);
  if (k > 0) w->len += (size_t)k;
}

/* The bytes of s (n of them) after an optional space: what put(w, " %s") writes, without a
 * format to parse (a million-step plan writes tens of millions of these). */
static void put_str(wbuf *w, int space, const char *s, size_t n) {
  if (space) {
    if (w->len < w->cap) w->buf[w->len] = ' ';
    w->len++;
  }
  if (w->len < w->cap) memcpy(w->buf + w->len, s, n < w->cap - w->len ? n : w->cap - w->len);
  w->len += n;
  if (w->len < w->cap) w->buf[w->len] = '\0';
}

/* A space, then v (>= 0) in decimal: put(w, " %d", v). */
static void put_int(wbuf *w, int space, int32_t v) {
  char d[16];
  size_t n = 0;
  uint32_t u = (uint32_t)v;
  do {
    d[sizeof d - 1 - n++] = (char)('0' + u % 10);
    u /= 10;
  } while (u);
  put_str(w, space, d + sizeof d - n, n);
}

size_t goap_hddl_plan_write(const goap_pddl_task *task, const goap_hddl_plan *p, char *buf,
                            size_t cap) {
  wbuf w;
  w.buf = buf;
  w.cap = buf ? cap : 0;
  w.len = 0;
  if (w.cap) buf[0] = '\0';
  if (!task || !p) return 0;
  const goap__px_task_core *t = &task->c;
  put(&w, "==>\n");
  for (int i = 0; i < p->nprim + p->ncomp; ++i) {
    if (i == p->nprim) {
      put(&w, "root");
      for (int32_t k = 0; k < p->nroots; ++k) put_int(&w, 1, p->data[p->roots + k]);
      put(&w, "\n");
    }
    const hp_ent *e = &p->ents[i];
    int prim = i < p->nprim;
    const char *name = goap__px_name(t, prim ? t->schemas[e->what].sym : t->htn.ctasks[e->what].sym);
    put_int(&w, 0, i);
    put_str(&w, 1, name, strlen(name));
    for (int32_t k = 0; k < e->nargs; ++k) {
      const char *o = goap__px_name(t, t->objects[p->data[e->args + k]].sym);
      put_str(&w, 1, o, strlen(o));
    }
    if (!prim) {
      put(&w, " -> %s", goap__px_name(t, t->htn.methods[e->method].sym));
      for (int32_t k = 0; k < e->nkids; ++k) put_int(&w, 1, p->data[e->kids + k]);
    }
    put(&w, "\n");
  }
  if (p->ncomp == 0) {
    put(&w, "root");
    for (int32_t k = 0; k < p->nroots; ++k) put(&w, " %d", (int)p->data[p->roots + k]);
    put(&w, "\n");
  }
  put(&w, "<==\n");
  if (w.cap && w.len >= w.cap) buf[w.cap - 1] = '\0';
  return w.len;
}
