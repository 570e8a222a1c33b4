/*
 * hddl_plan.h -- the HDDL planner's search record (internal to hddl_plan.c, the search, and
 * hddl_prep.c, the analyses done once before it). See hddl_plan.c for the invariants.
 */
#ifndef GOAP_HDDL_PLAN_H
#define GOAP_HDDL_PLAN_H

#include <stdint.h>

#include "goap/hddl.h"
#include "hddl_seen.h"
#include "pddl/pddl_internal.h"

#define HP_ROOT INT32_MIN /* the virtual root task; its one "method" (-1) is the :htn */
#define HP_MAX_POOL ((size_t)1 << 27) /* int32s of pending bindings (512 MB) */
#define HP_WORK_PER_STEP 1024u        /* join candidates allowed per step of max_steps */
#define HP_MAX_INDEX ((size_t)1 << 22) /* most (position, object) lists of one predicate */
#define HP_SLICE ((uint64_t)1 << 18) /* steps of one turn of each method order's search */
/* The length of a search's turn k (0 first), in steps (the best-first search's include its
 * heuristic's work, hddl_bfs.c): HP_SLICE >> 4 doubling each turn up to HP_SLICE, so easy
 * problems end in the first turns and every search gets its share early; twice that for the
 * best-first search with the RC heuristic (informed: half the time in turns). hddl_rc.c. */
uint64_t goap__hp_slice(int k, int informed);
#define HP_SLICE_MAX ((uint64_t)1 << 30) /* the longest turn of a search without dead ends */
#define HP_MAX_SEEN ((size_t)1 << 24) /* situations remembered per round (256 MB at most) */

typedef struct hp_node {
  int32_t task;        /* >= 0 compound task, < 0 primitive -(schema + 1), HP_ROOT */
  int32_t args, nargs; /* ground arguments, offset in gargs */
  int32_t method;      /* the method that decomposed it (-1: none yet; the :htn for the root) */
  int32_t child0, nchild;
  int32_t depth;
  int32_t prim;        /* primitive: its position in the plan */
  int32_t parent;      /* the node it is a subtask of (-1: the root) */
  int32_t cell;        /* compound, once decomposed: its agenda cell (-1: the root) */
  uint64_t hash;       /* compound, once decomposed: the state's hash at that moment */
} hp_node;

typedef struct hp_frame {
  int32_t cell;        /* the agenda cell of the task (-1: the root) */
  int32_t node;
  int32_t mi;          /* methods tried so far, less one (-1 before the first) */
  int32_t mj;          /* the current method's position in the task's method list */
  int32_t pass;        /* goal-first order: 0 the methods that may make a goal literal in gf
                          true, 1 the others (gf == 0: one pass, starting at 1) */
  uint64_t gf;         /* the goal literals false when the frame was pushed that some of
                          the task's methods may make true (tsplit); 0: the plain order */
  size_t bind0, nbind, bnext; /* the current method's bindings in pool */
  size_t m_nodes, m_gargs, m_cells, m_seq, m_undo, m_pool;
  size_t lz;           /* 0, or the current method's lazy join state at 1 + its offset (hddl_join.c) */
} hp_frame;

typedef struct hp_level {
  int32_t lit;         /* >= 0 a positive literal; < 0 the free parameter -(lit + 1) */
  const goap__px_ivec *lst;  /* a positive literal: the atoms its candidates are taken from */
  size_t pos;          /* next candidate */
  int32_t b0, nb;      /* parameters bound at this level: bstk[b0, b0 + nb) */
  int32_t own;         /* an own literal of the method: its rank among them (else -1) */
  int32_t atom;        /* a positive literal: the atom it matched now */
} hp_level;

typedef struct hp {
  const goap__px_task_core *t;
  const goap_allocator *a;
  /* state */
  goap__px_tset atoms;
  uint8_t *truth;
  size_t ctruth;
  goap__px_ivec *by_pred;    /* npreds lists of interned atoms */
  goap__px_ivec **by_arg;    /* npreds (NULL: not indexed): per (position, object), position-major,
                          the interned atoms of the predicate with that object there; each
                          list is a subsequence of by_pred's, in the same order */
  goap__px_ivec undo;        /* (atom, old truth) pairs */
  uint64_t hash;       /* XOR of atom_key() over the true atoms */
  /* tables */
  goap__px_lit *lits;        /* the task's literals, then each method's join literals */
  size_t nlits, clits;
  goap__px_ivec av;          /* the task's argument pool, then the join literals' arguments */
  int32_t *x0, *xn;    /* per method: its join literals' range in lits */
  int32_t *xb;         /* per method: how many of them (a prefix) are its own; the rest were
                          lifted from its subtasks (lift_lits) and only check bindings */
  int32_t *tobj0, *tobjs; /* objects of each type: tobjs[tobj0[ty] .. tobj0[ty + 1]) */
  int32_t *m0, *mids;     /* methods of each task, in domain order */
  int32_t *mids2;         /* the same lists, fewest primitive steps first (order_methods) */
  const int32_t *order;   /* the lists the search uses now: mids or mids2 */
  /* search */
  hp_node *nodes;
  size_t nnodes, cnodes;
  goap__px_ivec gargs, cells, seq, pool;
  uint64_t *chash;     /* per agenda cell: the hash of the agenda from it (tasks, arguments,
                          depths), set when the cell is made */
  size_t cchash;
  uint64_t *cgoal;     /* per agenda cell: the goal literals (bit i: the i-th of the first 64)
                          some task from it on could still make true (goal_reach) */
  size_t ccgoal;
  uint64_t *tgoal;     /* per compound task: the goal literals its decompositions could make
                          true; per action (after the tasks): those its effects could */
  uint64_t *mgoal;     /* per method: the goal literals its subtasks could make true (tgoal) */
  uint64_t *tsplit;    /* 3 per compound task: the union of its methods' mgoal (0 when the
                          order can never change); then per task, for mids and for mids2,
                          the literals that can move a method ahead of an earlier one */
  /* the relaxed goal test (goal_reach; rel == NULL: off) */
  int32_t *rel;        /* the goal-relevant actions (at most 64): bit j of the masks is rel[j] */
  int nrel;
  uint64_t *trel;      /* as tgoal: the relevant actions each task (or action) can reach */
  uint64_t *crel;      /* per agenda cell: those the rest of the agenda can reach */
  size_t ccrel;
  int32_t *pcount;     /* per predicate: its true atoms now */
  uint8_t *preach;     /* per predicate: scratch of the relaxed test */
  goap__hseen seen;    /* (state hash, agenda hash) of every compound head of this round */
  goap__px_ivec jkey, jidx, jtmp; /* join: each binding's own literals' atoms; sort scratch */
  int32_t *jord0;      /* per method: its join's level order in jord (-1: not yet made) */
  goap__px_ivec jord;  /* per method: whether it sorts, then (literal, own rank) per level */
  hp_frame *frames;
  size_t nframes, cframes;
  hp_level *lev;
  size_t nlev_max;     /* levels of the largest join */
  size_t maxp;         /* parameters of the largest method, action or :htn (at least 1) */
  int32_t *jb, *bstk, *ab, *ub; /* maxp each: the join's binding and its bound stack, apply's
                                   and advance's bindings */
  uint8_t *inpos;      /* maxp */
  int32_t scratch[PX_MAX_ARITY];
  /* budgets */
  uint64_t steps, max_steps, work, max_work;
  uint64_t slice_end;  /* steps at which this search's turn ends */
  int sliced;          /* the search paused at slice_end (advance resumes it) */
  int two_orders;      /* mids and mids2 differ: a second search uses mids2 */
  int in_round;        /* a round was paused and is to be resumed */
  int rounds;
  uint64_t t0;
  double max_ms;
  int bound, cut;
  uint64_t *rec;       /* NULL, or (the second search) recursion-only depth: bit a * nctasks + b
                          set when compound task a can decompose (through any number of
                          levels) into a task b; a non-tail subtask that cannot come back to
                          its parent's task keeps its parent's depth */
  goap_status st;
  struct goap__hj *hj; /* the lazy join's plans and states (hddl_join.c; NULL until needed) */
  int eager;           /* every join eager (goap__hddl_solve_ex; the tests compare) */
  int dead;            /* the depth-first search has backtracked (met a dead end) at least once */
  int32_t *gatom;      /* per goal literal (the first 64): its atom once interned, else -1 */
} hp;

/* Literal l's ground arguments under binding b (b[-a - 1] for a parameter a < 0; may be NULL
 * when every argument is an object) into out; 0 when some is unbound (< 0). Shared by the
 * depth-first search (hddl_plan.c), its lazy join (hddl_join.c) and the best-first search. */
static inline int goap__hp_ground(const hp *h, const goap__px_lit *l, const int32_t *b,
                                  int32_t *out) {
  int n = l->pred == PX_EQ ? 2 : h->t->preds[l->pred].arity;
  for (int i = 0; i < n; ++i) {
    int32_t a = h->av.v[l->args + i];
    out[i] = a >= 0 ? a : b[-a - 1];
    if (out[i] < 0) return 0;
  }
  return 1;
}

/* Literal l, its arguments ground in g, holds in h's current state (an equality: g[0] == g[1];
 * a negative literal: its atom is not true). */
static inline int goap__hp_lit_holds(const hp *h, const goap__px_lit *l, const int32_t *g) {
  int v;
  if (l->pred == PX_EQ) {
    v = g[0] == g[1];
  } else {
    int32_t e = goap__px_tset_find(&h->atoms, l->pred, g, h->t->preds[l->pred].arity);
    v = e >= 0 && h->truth[e];
  }
  return l->neg ? !v : v;
}

/* hddl_prep.c. Each returns 0 on a memory failure (h->st = GOAP_OUT_OF_MEMORY), else 1 (but
 * goap__hp_order_methods: whether the two method orders differ). */
/* The join literals of every method (x0, xn, xb): own precondition and static literals. */
int goap__hp_build_lits(hp *h);
/* m0, mids, mids2 from the lifted task decomposition graph. */
void goap__hp_tdg_costs(const goap__px_task_core *t, uint32_t *tc, uint32_t *mc);
int goap__hp_order_methods(hp *h);
/* Lifts the literals subtasks require into their methods' joins (after order_methods). */
int goap__hp_lift_lits(hp *h);
/* The TDG's reachability between compound tasks (goap__hp_reach_bits words of
 * nctasks * nctasks bits, *out; NULL when larger than HP_MAX_REC_TASKS^2 bits), and whether
 * some method's non-tail compound subtask cannot reach the method's task (*free_nest). */
#define HP_MAX_REC_TASKS 16384
size_t goap__hp_reach_bits(const goap__px_task_core *t);
int goap__hp_recursion(hp *h, uint64_t **out, int *free_nest);
/* The goal-reachability tables (tgoal; rel, trel, pcount, preach), when there is a goal. */
int goap__hp_goal_reach(hp *h);

/* hddl_plan.c, for the best-first search: the state of hp. */
int32_t goap__hp_intern(hp *h, int32_t pred, const int32_t *args, int n); /* -1: no memory */
int goap__hp_set_truth(hp *h, int32_t e, uint8_t v);                      /* 0: no memory */
void goap__hp_undo_to(hp *h, size_t mark);
/* goap_hddl_solve; with eager, every join of the depth-first searches is made at once (the
 * lazy join's reference: the same plans and steps). */
goap_status goap__hddl_solve_ex(const goap_pddl_task *task, const goap_hddl_options *opt,
                                goap_hddl_plan **out, goap_hddl_stats *stats, int eager);

/* hddl_join.c: the join (its invariants there). Appends to h->pool every binding of method
 * m's parameters (m < 0: the :htn's) extending b0 that passes its join literals, *count of
 * them, in the depth-first search's order. 0 on a budget or memory stop (h->st). */
int goap__hp_join(hp *h, int32_t m, const int32_t *b0, size_t *count);
/* The depth-first search's join for frame f (f->bind0 = h->pool.n): the bindings of method m
 * (literals [l0, l0 + n), nbase own; np parameters of types at ptypes) in h->pool, f->nbind
 * of them; when there are too many to make at once, the first only, and f->lz holds the
 * state that makes the others (goap__hp_join_more). 0 on a stop (h->st). */
int goap__hp_join_dfs(hp *h, hp_frame *f, int32_t m, int32_t l0, int32_t n, int32_t nbase,
                      int np, int32_t ptypes, const int32_t *b0);
/* A lazy frame's next binding in h->pool at f->bind0 (f->nbind 1, or 0 when none is left;
 * f->bnext 0), made in the frame's state. 0 on a stop (h->st). */
int goap__hp_join_more(hp *h, hp_frame *f);
/* Releases frame f's lazy state (before its next method, or when it is popped); _reset: every
 * frame's (a new round); _free: everything. */
void goap__hp_join_drop(hp *h, hp_frame *f);
void goap__hp_join_reset(hp *h);
void goap__hp_join_free(hp *h);

/* hddl_bfs.c: the best-first progression search (its invariants there). It uses its own hp
 * (state, join scratch, budgets) and never the depth-first search's agenda or frames. */
typedef struct goap__hb goap__hb;
/* NULL when out of memory (h->st set). At most max_nodes nodes (then GOAP_MEMORY_LIMIT). */
goap__hb *goap__hb_new(hp *h, uint64_t max_nodes, int heuristic);
/* One turn, until h->slice_end steps: 1 with the plan's tree in h->nodes, h->gargs and
 * h->seq (for make_plan); 0 with h->sliced when the turn ended, else with h->st: GOAP_NO_PLAN
 * (every situation expanded), GOAP_MEMORY_LIMIT (the node cap), a budget or memory stop. */
int goap__hb_turn(goap__hb *b, hp *h);
uint64_t goap__hb_nodes(const goap__hb *b);
/* The heuristic the search used (GOAP_HDDL_H_TDG or _RC; 0 before its first turn), the value
 * of its first node after the :htn's decomposition, and the RC operators ground (0: none). */
int goap__hb_heuristic(const goap__hb *b);
uint32_t goap__hb_h0(const goap__hb *b);
uint64_t goap__hb_rc_ops(const goap__hb *b);
void goap__hb_free(goap__hb *b, const goap_allocator *a);

/* hddl_gach.c: argument-aware goal achievers (its invariants there). */
typedef struct goap__hg goap__hg;
/* NULL when there is no goal or the tables would be too large (h->st unchanged), or out of
 * memory (h->st set). Tracks the first 64 * max_words goal literals at most. */
goap__hg *goap__hg_new(hp *h, int max_words);
int goap__hg_words(const goap__hg *g); /* the mask words (0 for NULL) */
/* Into out (goap__hg_words words): bit i set when ground task (task as hp_node.task, not the
 * root; args[nargs]) may make tracked goal literal i true. 0 when out of memory. */
int goap__hg_mask(goap__hg *g, hp *h, int32_t task, const int32_t *args, int32_t nargs,
                  uint64_t *out);
void goap__hg_free(goap__hg *g, const goap_allocator *a);

/* hddl_rc.c: the relaxed-composition heuristic (its invariants there). */
typedef struct goap__rc goap__rc;
/* Grounds the RC model from hp's initial state (*work: bindings tried and references made,
 * also when it gives up), with at most max_ops operators (0: the module's own bound, 2^18).
 * NULL with h->st: GOAP_TOO_LARGE (over its bounds or the time limit: use another heuristic)
 * or GOAP_OUT_OF_MEMORY. */
goap__rc *goap__rc_new(hp *h, size_t max_ops, uint64_t *work);
void goap__rc_free(goap__rc *r, const goap_allocator *a);
size_t goap__rc_ops(const goap__rc *r);
/* The work since the last load: operator preconditions visited, and facts and operators
 * reset (64 as one). */
uint64_t goap__rc_visits(const goap__rc *r);
/* The done fact of ground task (task as hp_node.task, args), -1 when it was not ground. */
int32_t goap__rc_task_fact(const goap__rc *r, int32_t task, const int32_t *args, int n);
/* Starts the h_add costs of the facts from hp's state, kept for goap__rc_sum (until the next
 * load), which settles them as far as it needs. 0 when out of memory (h->st). */
int goap__rc_load(goap__rc *r, hp *h);
/* The sum of the last load's costs of facts[0, n) (negative ones skipped) and of the goal's
 * positive atoms; UINT32_MAX when one is unreachable. Settles facts in cost order only until
 * those costs are final (the same values as settling all). */
uint32_t goap__rc_sum(goap__rc *r, const int32_t *facts, size_t n);

#endif
