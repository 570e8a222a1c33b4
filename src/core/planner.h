/*
 * planner.h -- internals shared by planner.c (search) and relax.c (heuristics).
 *
 * Invariants:
 *  - Everything a request needs is allocated at planner creation or grown (doubling) when a
 *    request is larger than every earlier one; a request never frees.
 *  - Node i's words live at states[i * stride ..): first its key (the state: W words forward,
 *    2W backward -- interval lows, then highs), then, forward with the incremental generator,
 *    the bitset of its useful actions (applicable and not a no-op), one bit per active action
 *    (the small search, small_search.c, writes it when the node is expanded, not before).
 *    Only the key is hashed and compared. The slot after the last node is the tentative slot
 *    successors are built in. Node records are arrays of 20 bytes per node in all.
 *  - The closed table holds 4-byte ids, capacity a power of two at least twice the node
 *    capacity. Node n of the current request is stored as idbase + n; a slot whose value v
 *    has v - idbase >= nodes.count (unsigned, mod 2^32) is free. Each request starts idbase past
 *    the ids of the last one, so earlier requests' slots read as free (a generation stamp
 *    folded into the id); the table is wiped only when the ids would wrap around.
 */
#ifndef GOAP_CORE_PLANNER_H
#define GOAP_CORE_PLANNER_H

#include <math.h>

#include "core_internal.h"

#define GOAP__INF 1e300
/* nodes.action bit 31: the node is closed (expanded, or a dead end) */
#define GOAP__NODE_CLOSED 0x80000000u

/* h as stored: rounded down to a float, so that it never grows (admissible stays admissible);
 * INFINITY for a dead end. */
static inline float goap__h_store(double h) {
  if (h >= GOAP__INF) return INFINITY;
  float f = (float)h; /* beyond FLT_MAX: inf, then stepped down to FLT_MAX below */
  if ((double)f > h) f = nextafterf(f, 0.0f);
  return f;
}

/* A condition of the relaxed task: var in [a, b] (encoded), != ne when has_ne. */
typedef struct goap__rcond {
  int32_t var;
  int32_t owner;  /* action id, or -1 for a goal condition */
  uint64_t a, b, ne;
  uint32_t has_ne;
} goap__rcond;

typedef struct goap__relax {
  /* static, built at planner creation */
  int ncond;                 /* domain conditions (action preconditions, ADD range tests) */
  goap__rcond *cond;         /* ncond + goal capacity */
  uint32_t *act_off;         /* nactions + 1: conditions of action i are cond[act_off[i]..] */
  uint32_t *var_off;         /* nvars + 1: CSR of domain conditions per variable */
  int32_t *var_cond;
  uint32_t *fact_off;        /* nvars + 1: bool/enum value slots */
  uint32_t nfacts;
  /* per evaluation */
  double *cond_time;         /* ncond + goal capacity; written for goal and `other`
                                conditions only (see relax.c) */
  int32_t *unmet;            /* nactions: conditions not reached yet (0: the action fires) */
  double *cost_sum;          /* nactions: hadd, the sum of its reached conditions' times */
  double *fact_time;         /* nfacts: when a bool/enum value was reached */
  uint64_t *hull_lo, *hull_hi; /* nvars: reachable interval of ints */
  double *event_time;        /* event heap (actions firing): times */
  int32_t *event_action;     /* event heap: actions */
  int nevents;
  /* int timelines for the backward heuristic: when each var's hull widened, and to what */
  double *tline_time;
  uint64_t *tline_lo, *tline_hi;
  int32_t *tline_next;       /* next entry of the same var, -1 ends */
  int32_t *tline_head, *tline_tail; /* nvars */
  size_t ntline, cap_tline;
  /* goal conditions of the request (indices >= ncond in cond) */
  int ngoal, cap_goal;
  int32_t *goal_head;        /* nvars: first goal condition on var, -1 none */
  int32_t *goal_next;        /* cap_goal */
  /* hff */
  int32_t *cond_sup;         /* ncond + goal capacity: the action that satisfied it, -1 */
  int32_t *stack;            /* ncond + goal capacity: extraction worklist */
  uint32_t *mark;            /* nactions + 1: generation stamps of relaxed-plan actions */
  uint32_t mark_gen;
  /* condition index of the exploration (relax.c): every domain condition is in exactly one
   * of fact_cond (bool/enum, one value), int_cond (int, an interval without !=) or
   * other_cond (the others) */
  uint32_t *fact_cond_off;   /* nfacts + 1: CSR of single-value conditions per fact */
  int32_t *fact_cond;
  uint32_t *int_cond_off;    /* nvars + 1: CSR of int conditions per variable, */
  int32_t *int_cond_by_lo;   /* ... sorted by low end ascending */
  int32_t *int_cond_by_hi;   /* ... sorted by high end descending */
  uint32_t *int_cond_lo_pos; /* nvars, per evaluation: the first of int_cond_by_lo above the
                                hull */
  uint32_t *int_cond_hi_pos; /* nvars, per evaluation: the first of int_cond_by_hi below it */
  uint32_t *other_cond_off;  /* nvars + 1: CSR of the other conditions per variable */
  int32_t *other_cond;
  uint64_t *int_cond_lo_key; /* the low ends along int_cond_by_lo */
  uint64_t *int_cond_hi_key; /* the high ends along int_cond_by_hi */
  int32_t *cond_owner;       /* ncond: each domain condition's owner (cond[c].owner) */
  /* preferred operators (planner.c): the relaxed plan's actions, from the last hff call */
  int32_t *relaxed_plan;     /* nactions: the actions of the last hff relaxed plan */
  int nrelaxed_plan;
  uint32_t *pref;            /* nactions + 1: pref_gen marks the preferred operators */
  uint32_t pref_gen;
} goap__relax;

/* A bool/enum variable as LM-cut reads it from a state: its value's fact is base + value. */
typedef struct goap__lmvar {
  uint64_t fmask;
  uint32_t word, shift, base;
} goap__lmvar;

/* LM-cut's STRIPS compilation of the relaxed task (see lmcut.c). Every array only grows;
 * cap_* are capacities in elements. */
typedef struct goap__lmcut {
  int built;
  uint32_t serial;           /* goal_serial of the request it was built for */
  uint32_t nfact, nop, npre, neff;
  uint32_t upbase, downbase, valbase, condbase, goalfact, goalop;
  uint32_t *pre_off, *eff_off;         /* nop + 1 */
  int32_t *pre, *eff;                  /* facts */
  goap__rcond *guard;                  /* nop: var < 0, or the state value must satisfy it */
  uint32_t *pre_of_off, *ach_off;      /* nfact + 1 */
  int32_t *pre_of, *ach;               /* operators */
  uint64_t *intval;                    /* (var << 32 | value) that int effects set, sorted */
  uint32_t *intval_off;                /* nvars + 1 */
  int32_t *cond_fact;                  /* ncond + ngoal: a condition's fact (equal ones share) */
  goap__rcond *cond_sorted;            /* ncond + ngoal: build scratch (conditions by key) */
  uint32_t ncond_facts;                /* condition facts: condbase + u for u < ncond_facts */
  goap__rcond *cond_fact_cond;         /* ncond_facts: the condition of each condition fact */
  uint32_t *cond_fact_op_off;          /* ncond_facts + 1: its auxiliary operators (contiguous) */
  int32_t *init;                       /* nfact: the facts true in the evaluated state */
  goap__lmvar *svar;                   /* the bool/enum variables in order (nsvar) */
  uint32_t nsvar;
  unsigned char *fact_used;            /* nfact: 1 when some operator that can fire needs it */
  uint32_t ninit;
  double *hmax;                        /* nfact: each fact's hmax */
  uint32_t *fact_stamp, *zone;         /* nfact: stamps (hmax done; in the goal zone) */
  int32_t *stack;                      /* nfact */
  int32_t *unmet;                      /* nop: preconditions not reached yet */
  int32_t *choice;                     /* nop: see below */
  /* the justification graph: choice[o] is operator o's precondition choice (pcf: the
   * precondition reached last), current only when o fired in the last full hmax (fired() in
   * lmcut.c); choice_head[f] is the first operator whose choice is f (-1 none; current for
   * the facts of finite hmax), choice_next links the others */
  int32_t *choice_head;                /* nfact */
  int32_t *choice_next;                /* nop */
  double *rem;                         /* nop: remaining cost (GOAP__INF: disabled) */
  uint32_t *cut;                       /* nop: stamps */
  int32_t *cut_ops;                    /* nop: the operators of the current cut */
  double *heap_value;                  /* heap: values */
  int32_t *heap_fact;                  /* heap: facts */
  int32_t *heap_pos;                   /* nfact: a fact's heap position, -1 when absent
                                          (the bucket queue does not use it) */
  size_t heap_len;                     /* entries in the heap (or the bucket queue's
                                          entries, stale ones included) */
  /* the bucket queue that replaces the heap when every cost is a whole number and their sum
   * is below nbuckets: bucket_head[k] is the last entry pushed with value k (-1 none), each
   * entry x of the pool holding a fact bq_fact[x] and the entry below it, bq_next[x]; entries
   * are never removed but skipped when stale (see lmcut.c) */
  int use_buckets;                     /* set by each evaluation */
  uint32_t nbuckets, bucket_cur, bucket_hi;
  int32_t *bucket_head;                /* nbuckets */
  int32_t *bq_fact, *bq_next;          /* the pool: bq_len entries in use */
  size_t bq_len;
  int32_t *zone_list;                  /* nfact: the facts of the goal zone */
  uint32_t *back_mark;                 /* nfact: stamps of the backward reachability search */
  uint32_t back_stamp;
  uint32_t stamp;
  double stop;                         /* with stop_on: stop once the bound exceeds it */
  int stop_on;                         /* 0: evaluate fully (the default) */
  int partial;                         /* 1: the last evaluation stopped early (see eval) */
  /* landmarks holds the last evaluation's landmarks, each as [n, m (a double in two words),
   * n operator ids]; landmarks_over: they did not fit (not usable). start_landmarks (and
   * nstart_landmarks): landmarks (same form) the next evaluation starts from, set by the
   * caller (NULL: none) */
  int32_t *landmarks;
  size_t nlandmarks;
  int landmarks_over;
  const int32_t *start_landmarks;
  size_t nstart_landmarks;
  double *op_cost;                     /* nactions: the request's costs (INF: unusable; built
                                          per goal_serial, as is everything here) */
  int op_cost_whole;                   /* 1: whole costs, the bucket queue applies */
  uint32_t max_cost;                   /* then: the largest finite action cost */
  int32_t *npre_of_op;                 /* nop: each operator's precondition count */
  double *hmax_inf;                    /* nfact: GOAP__INF each (copied to start an hmax) */
  /* for tests */
  int heap_only;                       /* never use the bucket queue */
  int forward_cut;                     /* 1: find each cut with the forward search; 2: with
                                          both, counting differences in cut_mismatch */
  unsigned long cut_mismatch, nback;   /* differences; backward searches run */
  unsigned long nrounds, npartial;     /* hmax runs and cuts made; evaluations stopped early */
  unsigned long ninherit;              /* evaluations with inherited landmarks */
  int verify;                          /* 1: after each full hmax and each update, compare
                                          hmax and the justification graph with a
                                          from-scratch fixpoint (lm_verify) */
  unsigned long verify_runs, verify_mismatch; /* runs checked; facts or operators that differ */
  double *hmax_ref;                    /* nfact: lm_verify's hmax */
  uint32_t *op_indexed;                /* nop: 1 when the operator is in pre_of (can fire) */
  /* capacities (elements) of the arrays of the same names */
  size_t cap_pre_off, cap_eff_off, cap_pre, cap_eff, cap_guard, cap_pre_of_off, cap_ach_off;
  size_t cap_pre_of, cap_ach, cap_intval, cap_intval_off, cap_cond_fact, cap_cond_sorted;
  size_t cap_cond_fact_cond, cap_cond_fact_op_off, cap_init, cap_hmax, cap_fact_stamp, cap_zone;
  size_t cap_stack, cap_unmet, cap_choice, cap_rem, cap_cut, cap_cut_ops, cap_heap_value;
  size_t cap_heap_fact, cap_heap_pos, cap_choice_head, cap_choice_next;
  size_t cap_bucket_head, cap_bq_fact, cap_bq_next, cap_zone_list, cap_back_mark;
  size_t cap_op_cost, cap_npre_of_op, cap_landmarks, cap_hmax_inf, cap_hmax_ref, cap_op_indexed,
      cap_svar, cap_fact_used;
} goap__lmcut;

/* One-word domains: an action whose tests and effects are plain masks on word 0. */
typedef struct goap__quick {
  uint64_t pm, pv;  /* precondition: (s & pm) == pv */
  uint64_t em, ev;  /* effect: s = (s & ~em) | ev; a no-op when (s & em) == ev */
  uint32_t simple;
  uint32_t pad;
} goap__quick;

/* small mode's nibble tables: at most this many nibbles (see goap_planner.small_nib) */
#define GOAP__SMALL_NIB 4

/* The small search's form of a goal (small_search.c), kept with its goal-cache slot: built
 * once per selection and heuristic. */
typedef struct goap__smallgoal {
  uint32_t serial;           /* goal_serial it was built for (0: none) */
  int heur;                  /* ... with this heuristic */
  int eq;                    /* every goal condition is an equality */
  int tab;                   /* eq and at most 4 conditions: h is htab[unmet conditions] */
  uint64_t gm[4], gv[4];     /* with tab: condition i is unmet when (s & gm[i]) != gv[i] */
  float htab[16];            /* with tab: h as stored (INFINITY: dead end) by unmet bit set */
  int micro_big;             /* the last whole request of this goal needed more nodes than
                                the micro search holds: the next is not tried there */
} goap__smallgoal;

/* The micro search's form of a goal whose small form has tab (small_search.c, micro search):
 * the unmet-condition bits by nibble value, kept with its goal-cache slot, built once per
 * selection and heuristic (serial 0: none; goap__gserial_new clears it when serials wrap). */
typedef struct goap__microgoal {
  uint32_t serial;           /* goal_serial it was built for (0: none) */
  int heur;                  /* ... with this heuristic */
  uint16_t dead;             /* bit k: htab[k] is INFINITY (a dead end) */
  uint64_t out;              /* goal bits outside the nibbles (no action changes them) */
  uint8_t un[4][16];         /* un[j][v]: the conditions unmet in nibble j when it is v */
} goap__microgoal;

/* One entry of the goal cache (planner.c, "goal cache"): a goal's compiled form and action
 * selection. The arrays are carved from one block made at planner creation (want, goal_ft and
 * goal_best hold GSLOT_WANT conditions there and move to their own allocation, want_own, when
 * a longer goal needs them); the planner's per-request pointers (want, active, acost, ...)
 * point into the slot of the current request. */
typedef struct goap__gslot {
  uint64_t hash;             /* of the key: selection flags, goal conditions, cost stamp */
  uint32_t serial;           /* goal_serial of its selection; 0: empty */
  uint32_t used;             /* last use (LRU) */
  unsigned flags;            /* the request's SEL_FLAGS */
  int req_costs;             /* selected with the request's costs ... */
  uint32_t cost_stamp;       /* ... of this stamp (planner cost_stamp) */
  uint32_t fanout;           /* recheck_fanout() of the selection, when fan_ok */
  int fan_ok;
  int cb_all;                /* no callback refused an action in its selection */
  int nwant, want_own;
  size_t cap_want;           /* capacity of want, goal_ft and goal_best */
  goap_cond *want;
  goap__ftest *goal_ft;
  double *goal_best;
  goap_word *goal_mask, *goal_val;
  int goal_never;
  int32_t *active, *act2idx;
  int nactive, max_achieve, max_eff_active, small;
  double *acost, *var_best;
  uint8_t *aflag;
  double cmin, gc_scale;
  goap__quick *small_q;      /* min(nactions, 64) each, one-word domains only (else NULL) */
  uint64_t *small_aff;
  uint64_t *small_tab;       /* small_nib * 32 (NULL when small_nib is 0) */
  goap__smallgoal sg;        /* small_search.c */
  goap__microgoal mg;        /* small_search.c, the micro search */
} goap__gslot;

/* An open-list entry (16 bytes): ordered by f, then tie, then node id. */
typedef struct goap__hentry {
  double f;
  float tie;
  uint32_t node;
} goap__hentry;

/* An open list: a binary min-heap of entries ordered by (f, tie, node).
 * Invariants: count <= cap; entry[i] is not above its children entry[2i + 1], entry[2i + 2];
 * it owns entry (cap entries), grown by goap__planner_grow and freed by goap__open_list_free. */
typedef struct goap__open_list {
  goap__hentry *entry;
  size_t count, cap;
} goap__open_list;

static inline void goap__open_list_free(goap__open_list *o, const goap_allocator *a) {
  goap__free(a, o->entry, o->cap * sizeof *o->entry);
  o->entry = NULL;
  o->count = o->cap = 0;
}

/* The micro search's node cap (small_search.c). */
#define GOAP__MICRO_N 32u

/* The small search's per-request state (small_search.c). */
typedef struct goap__small {
  int run;                   /* this search runs in small_search.c (goap__small_ok) */
  int never;                 /* tests: 1 keeps every request on the general path */
  int front_on;              /* the open list's entry held outside the heap */
  goap__hentry front;
  const goap__smallgoal *g;  /* the goal's form (in its goal-cache slot) */
  int micro_done;            /* the last request was planned whole by the micro search: */
  int micro_len;             /* its plan's length and actions (for goap__planner_finish) */
  int32_t micro_plan[GOAP__MICRO_N];
  double micro_cost;         /* its cost, summed from the start */
  int micro_fell;            /* ... was tried by it and rerun by the small search */
  int micro_watch;           /* ... skipped it (g->micro_big): the small search sets that again */
  uint32_t micro_cap;        /* tests: the micro search's node cap (0: its own; else at most
                                that and never skipped after running out of room) */
  int micro_never;           /* tests: 1 keeps the micro search off */
} goap__small;

/* Orbit search (symmetry.c): the request's goap_symmetry compiled at begin. Buffers only grow
 * (goap__planner_grow); cap_* are capacities in elements. */
typedef struct goap__symfld {  /* one slot variable's field in the state (as goap__var's) */
  uint32_t word, shift;
  uint64_t fmask;
} goap__symfld;

typedef struct goap__symcls {  /* one symmetry class */
  int members, slot_vars, slot_actions;
  uint32_t field_base;   /* member m's slot fields: fields[field_base + m * slot_vars ..] */
  uint32_t act_base;     /* member m's slot actions: slot_acts[act_base + m * slot_actions ..] */
  uint32_t member_base;  /* its members in rho / pi: [member_base, member_base + members) */
  int packed;            /* a member's tuple fits one 64-bit key (key_shift: each position's
                            shift in it, the first position highest, so keys order as tuples
                            do) */
  uint32_t shift_base;   /* its positions' shifts: key_shift[shift_base .. + slot_vars) */
} goap__symcls;

typedef struct goap__sym {
  int on;                    /* this request searches over canonical states */
  int nclasses;
  goap__symcls *classes;     /* nclasses */
  goap__symfld *fields;      /* the slot variables' fields, member after member */
  int32_t *slot_acts;        /* the slot actions, member after member */
  int32_t *act_slot;         /* per domain action: its index in slot_acts, or -1 */
  int32_t *var_class;        /* per domain variable: its class, or -1 (shape check) */
  uint64_t *tuple_keys;      /* scratch: one class's slot tuples */
  int32_t *member_order;     /* scratch: one class's members in sorted order */
  int32_t *rho, *pi;         /* permutations, per member of every class (at member_base):
                                rho maps a real member to its canonical position while a plan
                                is mapped back; pi is one step's canonicalising permutation
                                (or rho's inverse), also the successor-permutation scratch */
  uint32_t *key_shift;       /* per class and slot position: its shift in a packed key */
  uint64_t *act_class_mask;  /* per domain action: the classes whose slot variables it writes
                                (bit c; the last bit stands for class 63 and up) */
  goap_word *map_state;      /* mapping back: W words (the state being followed) */
  /* generators (goap_symmetry_generator): generator g's moved variables are entries
   * [gen_off[g], gen_off[g+1]) of gen_dst / gen_src, sorted by the destination variable (the
   * order states compare in): the canonical form's value at gen_dst[i] is the state's at
   * gen_src[i]. Its action pairs are gen_act[2 * gen_aoff[g] .. 2 * gen_aoff[g+1]). With
   * generators, act_slot holds `slot_total` for an action only a generator moves, and the
   * plan's and the landmarks' mappings use whole action permutations (act_perm, act_tmp:
   * nactions each; pi then has room for nactions). */
  int ngens;
  int32_t slot_total;        /* the classes' slot actions, all classes together */
  uint32_t *gen_off, *gen_aoff;
  goap__symfld *gen_dst, *gen_src;
  int32_t *gen_act;
  int32_t *act_perm, *act_tmp;
  uint8_t *gen_touch;        /* per domain action: it writes a variable some generator moves
                                (otherwise a canonical parent's successor needs no descent) */
  /* the batched expansion (planner.c, expand_indexed_canon): one node's canonical
   * successors (nactions states of W words), their actions and closed-table hashes, so the
   * table's slots and the stored states they name are prefetched before the lookups */
  goap_word *batch;
  int32_t *batch_act;
  uint64_t *batch_hash;
  size_t cap_classes, cap_fields, cap_slot_acts, cap_act_slot, cap_var_class, cap_tuple_keys;
  size_t cap_member_order, cap_rho, cap_pi, cap_map_state, cap_key_shift, cap_act_class_mask;
  size_t cap_gen_off, cap_gen_aoff, cap_gen_dst, cap_gen_src, cap_gen_act, cap_act_perm;
  size_t cap_act_tmp, cap_gen_touch, cap_batch, cap_batch_act, cap_batch_hash;
} goap__sym;

/* One entry of the landmark cache (16 bytes): node's landmarks are
 * lm_ring.ring[pos % lm_ring.cap_ring ..], len words, with pos the low 48 bits of at and len the
 * high 16. */
typedef struct goap__lrent {
  uint64_t at;
  uint32_t node, req;
} goap__lrent;

/* The node pool: nodes as a structure of arrays (20 bytes of record per node) plus their
 * packed states. It owns its memory: every array's capacity is kept here, so freeing never
 * recomputes a size.
 * Invariants: count <= cap <= each of cap_g, cap_h, cap_parent, cap_action (an array that grew
 * before a later one failed keeps its larger capacity); (count + 1) * stride <= cap_states
 * (the slot after the last node is the tentative slot); count < grow_at means add_node needs
 * no growth (grow_at <= cap and (grow_at + 1) * stride <= cap_states). */
typedef struct goap__node_pool {
  double *g;                 /* path cost */
  float *h;                  /* h rounded down to a float (INFINITY: dead end) */
  uint32_t *parent;          /* parent node, UINT32_MAX for a root */
  uint32_t *action;          /* bits 0..30: action + 1 (0 for a root); bit 31: closed */
  size_t cap;                /* node capacity: the four arrays' capacities below are >= it */
  size_t cap_g, cap_h, cap_parent, cap_action;
  uint32_t count;            /* nodes of the current request */
  uint32_t grow_at;          /* add_node grows the pool when count reaches this */
  goap_word *states;         /* node i's words at states[i * stride ..] (see the top) */
  size_t cap_states;         /* in words */
} goap__node_pool;

/* Allocates n nodes and n + 1 state slots of `words` words each: GOAP_OK or
 * GOAP_OUT_OF_MEMORY (then nothing is held). Adds the bytes taken to *memory. */
goap_status goap__node_pool_init(goap__node_pool *np, const goap_allocator *a, size_t n,
                                 size_t words, size_t *memory);
/* Frees every array by its own capacity (a zeroed pool frees nothing). */
void goap__node_pool_free(goap__node_pool *np, const goap_allocator *a);

/* The closed table: open addressing over the nodes' keys, linear probing.
 * Invariants: cap is a power of two, at least twice the node pool's capacity; slot[j] holds
 * idbase + n for node n of the current request, and a slot whose value v has
 * v - idbase >= nodes.count (unsigned) is free (see the top). It owns slot (cap entries). */
typedef struct goap__closed_table {
  uint32_t *slot;
  size_t cap;
  uint32_t idbase;           /* this request's first id */
} goap__closed_table;

static inline void goap__closed_table_free(goap__closed_table *t, const goap_allocator *a) {
  goap__free(a, t->slot, t->cap * sizeof *t->slot);
  t->slot = NULL;
  t->cap = 0;
}

/* The successor index (large domains, planner.c build_index): the active actions grouped by
 * one anchor precondition, a bool/enum fact, so that a state's candidates are the groups of
 * its facts plus the unanchored ones.
 * Invariants: built for goal_serial `serial` (0: never); active index i is in exactly one of
 * list[anchor_off[f] .. anchor_off[f + 1]) (its anchor fact f) or unanchored[0 ..
 * nunanchored). It owns its arrays, allocated at planner creation with the sizes kept here. */
typedef struct goap__succ_index {
  uint32_t serial;           /* goal_serial it was built for (0: never) */
  uint32_t *anchor_off;      /* nfacts + 1: CSR of active indices per anchor fact */
  int32_t *list;             /* nactions */
  int32_t *unanchored;       /* nactions: active indices without an anchor */
  int nunanchored;
  uint32_t *fact_count;      /* nfacts + 1: scratch (counts, then fill cursors) */
  goap_word *anchor_true;    /* W: bool fields whose true value anchors actions */
  goap_word *anchor_false;   /* W: bool fields whose false value anchors actions */
  int32_t *bit_var;          /* 64 W: the bool variable at each bit */
  int32_t *enum_vars;        /* nvars: other variables with anchored values */
  int nenum_vars;
  size_t nfacts, nactions, words, nvars; /* the sizes allocated */
} goap__succ_index;

/* Allocates the index's arrays for these sizes (zeroed): GOAP_OK or GOAP_OUT_OF_MEMORY (then
 * nothing is held). Adds the bytes taken to *memory. */
goap_status goap__succ_index_init(goap__succ_index *x, const goap_allocator *a, size_t nfacts,
                                  size_t nactions, size_t words, size_t nvars, size_t *memory);
void goap__succ_index_free(goap__succ_index *x, const goap_allocator *a);

/* Lazy A* with LM-cut: the landmarks of expanded nodes, for their children to inherit
 * (planner.c, "inherited landmarks").
 * Invariants: the ring holds cap_ring words at logical positions below write_pos (the words
 * below write_pos - cap_ring are overwritten); cache has cap_cache entries, a power of two,
 * each valid for the request stamped req; every array only grows (goap__planner_grow) and is
 * freed by goap__landmark_ring_free with its own capacity. */
typedef struct goap__landmark_ring {
  int32_t *ring;             /* the records (cap_ring words) */
  size_t cap_ring;
  uint64_t write_pos;        /* logical write position in ring */
  struct goap__lrent *cache; /* node -> its record in ring (cap_cache entries) */
  size_t cap_cache;
  uint32_t req;              /* this request's stamp in cache */
  size_t stored;             /* records this request stored */
  unsigned long resumed;     /* evaluations that went on from the node's own early stop */
  int on;                    /* this request records and inherits landmarks */
  size_t first_words;        /* the ring's first size (0: LR_WORDS; tests make it tiny) */
  size_t max_words;          /* the size it may double to (0: LR_MAX_WORDS) */
  int32_t *inherited;        /* scratch: an evaluation's inherited landmarks */
  size_t cap_inherited;
} goap__landmark_ring;

static inline void goap__landmark_ring_free(goap__landmark_ring *r, const goap_allocator *a) {
  goap__free(a, r->ring, r->cap_ring * sizeof *r->ring);
  goap__free(a, r->cache, r->cap_cache * sizeof *r->cache);
  goap__free(a, r->inherited, r->cap_inherited * sizeof *r->inherited);
  r->ring = NULL;
  r->cache = NULL;
  r->inherited = NULL;
  r->cap_ring = r->cap_cache = r->cap_inherited = 0;
}

/* Strong stubborn sets (GOAP_REQUEST_STUBBORN, stubborn.c): partial-order pruning of forward
 * successors. Built per selection (goal_serial `serial`, 0: never) from the active actions;
 * `ok` is 0 when the selection does not qualify (int variables, ADD effects), and then the
 * search generates every successor. Arrays only grow (goap__planner_grow, counted in memory)
 * and are freed by goap__por_free with their own capacities. */
typedef struct goap__por {
  uint32_t serial;
  int ok;
  uint32_t *fact_writer_off; /* nfacts + 1: the active indices setting each bool/enum fact */
  int32_t *fact_writer;      /*   (CSR entries) */
  uint32_t *var_reader_off;  /* nvars + 1: per variable, the conditions of active actions on */
  int32_t *var_reader_act, *var_reader_cond; /* it: (active index, rx condition index) */
  uint32_t *var_writer_off;  /* nvars + 1: per variable, the active actions setting it: */
  int32_t *var_writer_act;   /*   (active index, encoded value) */
  uint64_t *var_writer_val;
  uint32_t *interf_off, *interf_len; /* nactive: each one's interference list in interf,
                                        computed when first needed (interf_off UINT32_MAX
                                        before) */
  int32_t *interf;           /* the interference lists (active indices) */
  size_t ninterf;            /* entries used in interf */
  uint64_t trial_app, trial_kept; /* the first expansions: applicable actions, kept ones */
  uint32_t trial_left;       /* expansions left to count (0: decided); per search */
  uint32_t *cond_achievers;  /* per rx condition of an action: its achievers' count */
  uint32_t *goal_achievers;  /* per goal condition: its achievers' count */
  uint32_t *set_stamp, set_gen;       /* nactive: in the set being built when
                                         set_stamp == set_gen */
  uint32_t *interf_stamp, interf_gen; /* nactive: in the interference list being built
                                         (interf_gen) */
  int32_t *set_order;        /* nactive: the set, in the order it was built */
  int32_t *applicable;       /* nactive: its applicable members, in active order */
  goap_word *applicable_bits; /* (nactive + 63) / 64: the applicable members as a bitset */
  size_t cap_fact_writer_off, cap_fact_writer, cap_var_reader_off, cap_var_reader_act;
  size_t cap_var_reader_cond, cap_var_writer_off, cap_var_writer_act, cap_var_writer_val;
  size_t cap_interf_off, cap_interf_len, cap_interf, cap_cond_achievers, cap_goal_achievers;
  size_t cap_set_stamp, cap_interf_stamp, cap_set_order, cap_applicable, cap_applicable_bits;
} goap__por;

typedef enum { PHASE_IDLE = 0, PHASE_RUNNING, PHASE_DONE } goap__phase;

struct goap_planner {
  goap_allocator alloc;
  const goap_domain *d;
  uint32_t W;
  uint32_t cap_nodes;        /* hard capacity */
  size_t max_memory;
  size_t memory;             /* bytes held now */

  goap__node_pool nodes;     /* the search nodes (see goap__node_pool) */
  goap__closed_table closed; /* the closed table (see goap__closed_table) */
  goap__open_list open;      /* the open list */
  goap__open_list open_pref; /* GOAP_REQUEST_PREFERRED: the preferred successors' open list */
  int lazy, pref_on;         /* GOAP_REQUEST_LAZY / GOAP_REQUEST_PREFERRED in this search */
  int scost_on;              /* an active action's positional cost is called in this search */
  double scost_last;         /* the step cost step_cost priced last (lazy A*'s bound) */
  int lazy_astar;            /* LAZY with forward A*: children queued with an admissible bound
                                (planner.c), evaluated when taken out */
  uint32_t lm_node;          /* lazy A* with LM-cut: the node of the last evaluation (NONE) */
  double lm_h;               /* its LM-cut value (lm.rem holds what its cuts left) */
  uint64_t lm_gain, lm_fresh; /* successors the cut bound raised; expansions with cuts */
  int lm_stop;               /* 1 (default): lazy A* lets LM-cut stop past the open list's
                                next key (lm.stop); 0: never (tests compare) */
  int lm_inherit;            /* 1 (default): lazy A* starts a state's LM-cut from the
                                landmarks its parent's left (planner.c, "inherited") */
  goap__landmark_ring lm_ring; /* landmarks of expanded nodes (see goap__landmark_ring) */
  int lm_bound;              /* 2 (default): also re-evaluates an expanded node whose cuts are
                                gone while that pays (planner.c); 1: the LM-cut bound only
                                when fresh; 0: h(parent) - cost only */
  int prio[2];               /* alternation priorities of heap and heap2 (lower goes first) */
  float best_h;              /* lowest h evaluated in this search (boosts heap2 when beaten) */
  goap_word *scratch;        /* 4W words of scratch */
  size_t cap_scratch;

  /* per request */
  goap_word *start;          /* W words */
  goap_cond *want;           /* want .. small_aff: the current goal-cache slot's arrays */
  int nwant;
  goap__ftest *goal_ft;      /* one per want condition (EQ too) */
  goap_word *goal_mask, *goal_val; /* W words each: equality part of the goal */
  int goal_never;            /* the goal contradicts itself */
  int32_t *active;
  int nactive;
  double *acost;             /* per action: this request's cost */
  uint8_t *aflag;            /* per action: F_EVAL, F_USABLE, F_RELEVANT, F_ACTIVE bits */
  int32_t *queue;            /* relevance worklist of conditions */
  size_t cap_queue;
  double cmin;               /* cheapest active action */
  double gc_scale;           /* cmin / most goal conditions one action achieves */
  double *goal_best;         /* per goal condition: cheapest achiever (INF: none) */
  int max_achieve;
  double *var_best;          /* per var: cheapest active writer (backward) */
  int max_eff_active;
  goap__relax rx;
  goap__lmcut lm;
  uint32_t goal_serial;      /* the current selection's serial (each selection made gets a
                                new one, from serial_last; never 0) */
  uint32_t serial_last;            /* the last serial given out */

  /* search */
  goap__phase phase;
  goap_search search;
  goap_heuristic heur;
  double weight;
  uint32_t req_max_nodes;
  double max_ms;
  void *host;
  unsigned flags;
  goap_status final;
  uint32_t found, best;      /* node ids (UINT32_MAX none) */
  goap_stats stats;
  uint64_t elapsed_ns;
  int clock_on;              /* the request reads the clock (a budget, or GOAP_REQUEST_TIMED) */
  uint32_t key;              /* words of a node's state that identify it (W or 2W) */
  uint32_t stride;           /* words stored per node: key, then the useful-action bitset */
  uint32_t useful_words;     /* forward incremental successor generation: bitset words, or 0 */
  int32_t *act2idx;          /* per action: its index in `active`, or -1 */
  uint32_t *touch_off;       /* nvars + 1: actions reading or writing each variable (CSR) */
  int32_t *touch;
  size_t touch_len;
  int32_t *back_list;          /* per action: candidates of one backward expansion */
  uint32_t *back_stamp;        /* per action: the expansion that listed it last */
  uint32_t back_gen;
  goap__quick *quick;        /* per action, for one-word domains; NULL otherwise */
  /* successor index (large domains): active actions grouped by one anchor precondition */
  int sx_force;              /* tests: 1 always the index, 2 never (bitset); 0 automatic */
  int succ_mode;                 /* this search's forward successor generation (planner.c) */
  uint32_t fanout, fan_serial; /* average rechecks per successor, for that goal_serial */
  goap__succ_index succ;     /* the successor index (see goap__succ_index) */
  /* small mode: one word, at most 64 active actions, all mask-only. Per active index
   * (arrays of the current goal-cache slot): */
  int small;
  goap__small small_search;            /* the small search (small_search.c) */
  int rx_stale;              /* rx's goal conditions are not the current goal's yet (set
                                when first needed, planner.c rx_goal) */
  goap__quick *small_q;      /* the action's masks */
  uint64_t *small_aff;       /* active indices to recheck after applying it */
  /* small mode's nibble tables, when the domain's mask-only actions test and set bits of at
   * most GOAP__SMALL_NIB nibbles of word 0 (small_nib of them, at shifts small_nsh; 0: none):
   * per nibble k, small_tab[32k + v] holds the active indices whose precondition's part in
   * nibble k holds when the nibble is v, small_tab[32k + 16 + v] those whose effect's part
   * already holds. A selection's tables are built with its small-mode arrays. */
  int small_nib;
  uint8_t small_nsh[4];
  uint64_t *small_tab;
  /* goal cache (planner.c): the selections of recent goals, keyed by content */
  goap__gslot *gslots;
  int ngslots;
  int gslot_current;                  /* the slot of the current selection, -1 none */
  uint8_t gslot_map[64];          /* goal_cache.c: a slot that held a key with these hash bits */
  /* goal_cache.c: the slot found last for a request whose want array was at this address
   * (by the address's bits): a hint, checked by content like any slot */
  const goap_cond *gslot_hint_want[64];
  uint8_t gslot_hint[64];
  uint32_t gslot_clock;           /* LRU clock */
  void *gslot_block;              /* the slots' arrays */
  size_t gslot_block_bytes;
  int req_costs;             /* the selection used the request's cost array (copied in sel_costs) */
  double *sel_costs;         /* per action: the last request costs seen (cost_stamp) */
  int costs_seen;            /* sel_costs holds a request's costs */
  int cb_rejects;            /* actions a callback refused in this request's selection */
  uint32_t cost_stamp;       /* bumped when a request brings other costs */
  goap__sym sym;             /* orbit search (symmetry.c): sym.on when the request has one */
  goap__por por;             /* strong stubborn sets (stubborn.c) */
  int por_on;                /* this search prunes with them */
  /* search trace (goap_planner_set_trace): NULL when off */
  goap_trace_fn trace_fn;
  void *trace_user;
};

/* The action that reached node n (-1: a root). */
static inline int32_t goap__node_action(const goap_planner *p, uint32_t n) {
  return (int32_t)(p->nodes.action[n] & ~GOAP__NODE_CLOSED) - 1;
}

/* Forward successor generation: small mode, the per-node useful-action bitset (when it takes
 * no more words than the state), or the successor index (FMODE_INDEX_SYM: the index with
 * successors put in canonical form, for orbit search; FMODE_SCOST: either of the last two,
 * pricing each successor's positional cost; FMODE_POR: a strong stubborn set's actions,
 * canonicalised when sym.on, stubborn.c). */
enum { FMODE_SMALL = 0, FMODE_BITSET, FMODE_INDEX, FMODE_INDEX_SYM, FMODE_SCOST, FMODE_POR };

/* relax.c */
goap_status goap__relax_init(goap_planner *p);
void goap__relax_free(goap_planner *p);
goap_status goap__relax_set_goal(goap_planner *p);
/* hmax (add == 0) or hadd (add != 0) of a full state; GOAP__INF for a dead end. */
double goap__relax_eval(goap_planner *p, const goap_word *s, int add);
/* hff of a full state (hadd exploration, relaxed plan extraction); GOAP__INF for a dead end. */
double goap__relax_eval_ff(goap_planner *p, const goap_word *s);
/* Marks the actions of the last goap__relax_eval_ff's relaxed plan (none after a dead end)
 * as the preferred operators: rx.pref[a] == rx.pref_gen until the next call. */
void goap__relax_take_preferred(goap_planner *p);
/* Explores fully from the start state, recording when each value is reached (backward). */
void goap__relax_explore_start(goap_planner *p);
/* hmax / hadd of a regression node (lows, highs) from the recorded exploration. */
double goap__relax_eval_partial(goap_planner *p, const goap_word *lo, const goap_word *hi,
                                int add);

/* planner_create.c: grows a per-planner buffer (goap__grow_cap's doubling, counted in
 * p->memory): GOAP_OK, GOAP_MEMORY_LIMIT, GOAP_OUT_OF_MEMORY or GOAP_TOO_LARGE (the size would
 * overflow); the buffer is unchanged on failure. */
goap_status goap__planner_grow(goap_planner *p, void **ptr, size_t *cap, size_t need,
                               size_t elem);

/* planner_create.c: ensures room for need nodes (doubling; grow_at updated): GOAP_OK,
 * GOAP_MEMORY_LIMIT or GOAP_OUT_OF_MEMORY. */
goap_status goap__planner_nodes(goap_planner *p, size_t need);

/* planner_request.c: the request's set-up (checks, action selection through the goal cache,
 * the goal's compiled form): GOAP_OK or the request's error. */
goap_status goap__plan_prepare(goap_planner *p, const goap_request *req);
/* planner_request.c: makes rx's goal conditions the current goal's (once per selection). */
goap_status goap__rx_goal(goap_planner *p);

/* succ_index.c: builds the successor index for the current selection (p->succ). */
void goap__succ_index_build(goap_planner *p);

/* planner_start.c: start_search's work (the search's layout, per-selection structures, the
 * roots): GOAP_OK, GOAP_NO_PLAN (a goal that can never hold) or a growth error. */
goap_status goap__planner_start(goap_planner *p);
/* planner_result.c: goap_plan_finish's work once the search is done (the plan, its cost, the
 * best partial plan on a budget stop). */
goap_status goap__planner_finish(goap_planner *p, goap_result *res);
goap_status goap__planner_finish_micro(goap_planner *p, goap_result *res);
/* planner.c, for those two: offer() inserts candidate state c (in the tentative slot or
 * elsewhere) reached from parent by action at cost g; useful_all() fills the useful-action
 * bitset that follows state s; step_cost() is action a's cost in state s with positional
 * costs (-1: inapplicable there). */
goap_status goap__planner_offer(goap_planner *p, const goap_word *c, uint32_t parent,
                                int32_t action, double g, int backward);
void goap__planner_useful_all(goap_planner *p, goap_word *s);
double goap__planner_step_cost(goap_planner *p, int32_t a, const goap_word *s);

/* planner_backward.c: regression candidates in p->scratch (2W words each) */
/* Room for n candidates: GOAP_OK, GOAP_MEMORY_LIMIT or GOAP_OUT_OF_MEMORY. */
goap_status goap__cand_reserve(goap_planner *p, size_t n);
/* Intersects candidates [0, *nc) with var v in [a, b] (and != ne when has_ne), splitting those
 * the != cuts in two: GOAP_OK or a growth error. */
goap_status goap__split_ne(goap_planner *p, size_t *nc, const goap__var *v, uint64_t a,
                           uint64_t b, uint64_t ne, uint32_t has_ne);
/* Every variable's full interval: lows lo, highs hi (W words each). */
void goap__full_intervals(const goap_planner *p, goap_word *lo, goap_word *hi);
/* The start state lies in the partial state (lo, hi). */
int goap__start_satisfies(const goap_planner *p, const goap_word *lo, const goap_word *hi);

/* landmark_ring.c: inherited landmarks for lazy A* with LM-cut (p->lm_ring) */
/* Per request: the ring and cache allocated (first time), this request's stamp. */
goap_status goap__lm_ring_setup(goap_planner *p);
/* Records node's landmarks from the LM-cut evaluation just made. */
void goap__lm_ring_store(goap_planner *p, uint32_t node);
/* Sets p->lm.start_landmarks to the landmarks node n inherits from its parent (NULL: none). */
void goap__lm_ring_inherit(goap_planner *p, uint32_t n);
/* Node n's own record from its early-stopped evaluation as p->lm.start_landmarks: its length, 0 none. */
size_t goap__lm_ring_own(goap_planner *p, uint32_t n);

/* small_search.c: the fast path for small requests (see its invariants) */
/* The request just prepared can run there (small mode, forward, a goal-only heuristic, no
 * trace, lazy, preferred operators, symmetry, stubborn sets or active callbacks). */
int goap__small_ok(const goap_planner *p);
/* start_search's work for it: the pools reset and the root. */
goap_status goap__small_start(goap_planner *p);
/* A whole request (goap_plan) by the micro search when it fits: returns 1 with *st its final
 * status (the plan in small_search.micro_plan), else 0 with *st what goap__small_start
 * returned (the small search then runs as usual). */
int goap__micro_plan(goap_planner *p, goap_status *st);
/* step_impl's loop for it: GOAP_IN_PROGRESS when max_expansions ran out, else the result. */
goap_status goap__small_step(goap_planner *p, uint32_t max_expansions, uint32_t *done,
                             uint64_t t_start);

/* goal_cache.c: the selections of recent goals, keyed by content (see its invariants); the
 * per-request helpers (slot use, load, the address hint) are inline in goal_cache.h */
goap_status goap__gcache_create(goap_planner *p, uint32_t want_slots);
void goap__gcache_free(goap_planner *p);
/* The planner's numbers of the selection just made into slot g. */
void goap__gslot_save(const goap_planner *p, goap__gslot *g);
/* Slot g holds at least nw goal conditions (allocates when the goal is the longest yet). */
goap_status goap__gslot_reserve(goap_planner *p, goap__gslot *g, size_t nw);
uint64_t goap__gkey_hash(const goap_cond *w, int n, unsigned flags, int costs, uint32_t stamp);
/* The slot holding the request's key (flags: its selection flags, h: goap__gkey_hash), or -1. */
int goap__gslot_find(goap_planner *p, const goap_request *req, unsigned flags, uint64_t h);
/* A new goal_serial for the selection about to be made (forgets everything when they wrap). */
void goap__gserial_new(goap_planner *p);

/* symmetry.c */
/* Shape of sym on d (ids, sizes, disjoint slots, equal types per position). vmark (nvars) and
 * aslot (nactions) are written: a variable's class or -1, an action's index among the slot
 * actions (class after class) or -1. GOAP_OK or GOAP_INVALID_ARGUMENT. */
goap_status goap__sym_shape(const goap_domain *d, const goap_symmetry *sym, int32_t *vmark,
                            int32_t *aslot);
/* begin: checks sym's shape and compiles it into p->sym (sets p->sym.on). */
goap_status goap__sym_setup(goap_planner *p, const goap_symmetry *sym);
/* begin, after the action selection: the members' slot actions are all active or all not at
 * each position, at one cost (request costs and callbacks may break the symmetry). */
int goap__sym_active_ok(const goap_planner *p);
/* Canonicalises state s in place: per class, the members' slot tuples sorted (ties by member
 * index), then the generators' greedy descent. perm (NULL: not wanted) receives the classes'
 * member -> new position at classes[c].member_base (the generators' moves are not in it:
 * with generators the mapping back uses whole action permutations). Returns non-zero when s
 * changed. */
int goap__sym_canon(goap__sym *y, goap_word *s, int32_t *perm);
/* The same for s = r[a] with r canonical: only the classes action a writes can be out of
 * order, so only they are sorted (perm, when given, is the identity on the others). */
int goap__sym_canon_after(goap__sym *y, goap_word *s, int32_t a, int32_t *perm);
/* Maps a plan over canonical states from canon(p->start) onto real actions from p->start,
 * in place. */
void goap__sym_map_plan(goap_planner *p, int32_t *plan, int len);
void goap__sym_free(goap_planner *p);
/* The permutation that canonicalises state r after action a (r is not changed; the planner's
 * mapping-back scratch is used): writes perm (per member of every class, its new position;
 * with generators the whole action permutation, nactions entries, which pi has room for)
 * and returns 1 when it is not the identity. */
int goap__sym_succ_perm(goap_planner *p, const goap_word *r, int32_t a, int32_t *perm);
/* The image of action a under perm (slot actions move with their member). */
int32_t goap__sym_map_action(const goap__sym *y, const int32_t *perm, int32_t a);

/* stubborn.c */
/* Builds p->por for the current selection (sets por.ok): GOAP_OK or a growth error. */
goap_status goap__por_build(goap_planner *p);
/* A search starts pruning: its trial (the first expansions counted) begins again. */
void goap__por_start(goap_planner *p);
/* The applicable actions of a strong stubborn set of state s (active indices, in active
 * order) in *list; returns their count, or UINT32_MAX when the pruning has just been turned
 * off (p->por_on = 0: too little pruned in the first expansions) or a list could not grow.
 * Only after a build with por.ok. */
uint32_t goap__por_stubborn(goap_planner *p, const goap_word *s, const int32_t **list);
void goap__por_free(goap_planner *p);

/* lmcut.c */
/* Builds the compilation for the current goal (allocates only to grow). */
goap_status goap__lmcut_build(goap_planner *p);
void goap__lmcut_free(goap_planner *p);
/* LM-cut of a full state; GOAP__INF for a dead end. */
double goap__lmcut_eval(goap_planner *p, const goap_word *s);

#endif /* GOAP_CORE_PLANNER_H */
