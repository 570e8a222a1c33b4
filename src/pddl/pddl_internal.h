/*
 * pddl_internal.h -- shared internals of the PDDL front end (src/pddl/).
 *
 * Invariants:
 *  - Every allocation goes through the task's goap_allocator (goap__alloc, goap__grow); a zero
 *    allocator is replaced by libc at the entry points, so internal code always has a
 *    callable fn. Nothing here prints or keeps global mutable state.
 *  - Texts are never assumed NUL-terminated: atoms are (offset, length) spans.
 *  - Names are case-insensitive: every atom of the texts is interned lower-cased into one
 *    symbol table, and every later name comparison is a symbol id comparison.
 *  - The first error wins: goap__px_error records a diagnostic only when none is recorded yet, and
 *    every phase stops at the first failure it sees.
 *  - Arguments of lifted literals are int32: >= 0 an object id, < 0 the parameter -(arg + 1).
 *  - Every internal name shared between files (functions, types, inline helpers) is
 *    goap__px_ (functions hidden, never exported); file-local helpers are static.
 */
#ifndef GOAP_PDDL_INTERNAL_H
#define GOAP_PDDL_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "base/base.h"
#include "goap/pddl.h"

#if defined(__GNUC__)
#define PX_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define PX_PRINTF(f, a)
#endif

/* Fixed internal limits (reported as GOAP_TOO_LARGE when exceeded). Parameters of actions and
 * methods, subtasks and objects have none: their tables grow. */
#define PX_MAX_ARITY 64     /* arguments of one predicate or function */
#define PX_MAX_NAME 1024    /* bytes of one name */
#define PX_MAX_LITS 4096    /* literals of one action schema or of the goal */

/* ---- memory --------------------------------------------------------------------------- */
/* goap__alloc, goap__free, goap__grow (arrays) and goap__now_ns: base/base.h. */

typedef struct goap__px_ivec {
  int32_t *v;
  size_t n, cap;
} goap__px_ivec;
int goap__px_ipush(const goap_allocator *a, goap__px_ivec *x, int32_t value);
void goap__px_ivec_free(const goap_allocator *a, goap__px_ivec *x);

/* ---- symbols: lower-cased names -> ids ------------------------------------------------ */
/* base's goap__names (namespace 0) indexes the lower-cased names, which the table owns: they
 * are packed in chunks that never move, so the index can borrow them. */
typedef struct goap__px_symchunk {
  struct goap__px_symchunk *prev;
  size_t size;       /* bytes of names after this header */
} goap__px_symchunk;
typedef struct goap__px_syms {
  goap__names index; /* lower-cased name -> id */
  const char **name; /* id -> NUL-terminated lower-case name, in one of the chunks */
  size_t n, cap;
  goap__px_symchunk *chunks; /* the names, packed in chunks (newest first) */
  size_t chunk_used;   /* bytes used in the newest chunk */
} goap__px_syms;
/* The id of the name (lower-cased), interning it; -1 when out of memory. */
int32_t goap__px_sym_intern(const goap_allocator *a, goap__px_syms *s, const char *text, size_t len);
/* The id of an already lower-case NUL-terminated name, or -1. */
int32_t goap__px_sym_find(const goap__px_syms *s, const char *name);
void goap__px_syms_free(const goap_allocator *a, goap__px_syms *s);

/* ---- tuple sets: (id, args[n]) -> index, in insertion order --------------------------- */
typedef struct goap__px_tset {
  goap__px_ivec pool;      /* per entry: n, id, args... */
  goap__px_ivec offs;      /* entry -> offset in pool */
  int32_t *slots;    /* hash table of entries, -1 empty */
  size_t nslots;
} goap__px_tset;
int32_t goap__px_tset_find(const goap__px_tset *t, int32_t id, const int32_t *args, int n);
/* The entry's index (new or old); *added (may be NULL) tells; -1 when out of memory. */
int32_t goap__px_tset_add(const goap_allocator *a, goap__px_tset *t, int32_t id, const int32_t *args, int n,
                    int *added);
static inline size_t goap__px_tset_count(const goap__px_tset *t) { return t->offs.n; }
static inline int32_t goap__px_tset_id(const goap__px_tset *t, int32_t e) {
  return t->pool.v[t->offs.v[e] + 1];
}
static inline const int32_t *goap__px_tset_args(const goap__px_tset *t, int32_t e, int *n) {
  const int32_t *k = t->pool.v + t->offs.v[e];
  if (n) *n = k[0];
  return k + 2;
}
void goap__px_tset_free(const goap_allocator *a, goap__px_tset *t);

/* ---- ground atom states: a tuple set of atoms with a truth byte each (the validators) ---- */
typedef struct goap__px_aset {
  goap__px_tset atoms;     /* every atom ever set (true or false) */
  uint8_t *truth;    /* atom entry -> 1 true, 0 false */
  size_t cap;
} goap__px_aset;
/* Sets atom (pred, args[n]) to val (0/1), interning it; 0 when out of memory. */
int goap__px_aset_set(const goap_allocator *a, goap__px_aset *s, int32_t pred, const int32_t *args,
                      int n, uint8_t val);
/* 1 when the atom is interned and true. */
int goap__px_aset_holds(const goap__px_aset *s, int32_t pred, const int32_t *args, int n);
void goap__px_aset_free(const goap_allocator *a, goap__px_aset *s);

/* Fills *d (when not NULL) as a GOAP_PARSE_ERROR at name:line:col with msg and the source
 * line `line` of text[0, len) (control bytes shown as '?'); returns GOAP_PARSE_ERROR. For the
 * plan readers (validate.c, hddl_verify.c). */
goap_status goap__px_text_error(goap_error *d, const char *name, int line, int col,
                                const char *text, size_t len, const char *msg);

/* ---- S-expressions -------------------------------------------------------------------- */
typedef struct goap__px_node {
  int32_t sym;       /* atom: its symbol; list: -1 */
  int32_t first;     /* list: first child, -1 when empty */
  int32_t next;      /* next sibling, -1 */
  int32_t count;     /* list: number of children */
  int32_t line, col; /* 1-based position of the atom or of '(' */
  int32_t src;       /* which source text (index in goap__px_task.src) */
  uint8_t list;      /* 1 list, 0 atom */
} goap__px_node;

typedef struct goap__px_source {
  const char *name;
  const char *text;
  size_t len;
} goap__px_source;

/* ---- the lifted task ------------------------------------------------------------------ */
enum { PX_LIT_PRE = 0, PX_LIT_ADD, PX_LIT_DEL, PX_LIT_GOAL };
#define PX_EQ (-2) /* pred of an equality literal */

typedef struct goap__px_type {
  int32_t sym, parent; /* parent -1 only for `object` (type 0) */
  int32_t node;
} goap__px_type;

typedef struct goap__px_object {
  int32_t sym, type, node;
} goap__px_object;

typedef struct goap__px_pred {
  int32_t sym, arity, node;
  uint8_t fluent;      /* some action adds or deletes it */
} goap__px_pred;

typedef struct goap__px_func {
  int32_t sym, arity, node;
} goap__px_func;

typedef struct goap__px_lit {
  int32_t pred;        /* predicate id, or PX_EQ */
  int32_t args;        /* offset in goap__px_task.args; arity of pred (2 for PX_EQ) */
  int32_t node;        /* the atom's list node, for errors */
  int32_t quant;       /* -1, or inside a forall: offset in args of its scope {base, nq,
                          types[nq]}: arguments -(base + k + 1), k < nq, are the forall's
                          variables (of type types[k]); goap__px_expand_foralls instantiates
                          every such literal once the objects are known (after that, -1) */
  uint8_t neg, kind;   /* kind PX_LIT_* */
} goap__px_lit;

enum { PX_COST_NONE = 0, PX_COST_CONST, PX_COST_FUNC };

typedef struct goap__px_schema {
  int32_t sym, node;
  int32_t nparams, ptypes, pnames; /* offsets in goap__px_task.args: types, then parameter symbols */
  int32_t lit0, nlits;             /* range in goap__px_task.lits */
  int cost_kind;
  double cost_value;               /* PX_COST_CONST */
  int32_t cost_func, cost_args;    /* PX_COST_FUNC: function id, offset in args */
  int32_t cost_node;
} goap__px_schema;

/* ---- HTN (HDDL, total order) ----------------------------------------------------------- *
 * Filled only when loaded with GOAP_PDDL_HTN (hddl_parse.c). Compound tasks, methods and the
 * problem's initial task network, all lifted. Subtask arguments use the same convention as
 * literals: >= 0 an object (or constant) id, < 0 the parameter -(arg + 1) of the enclosing
 * method (of the :htn's :parameters for the initial network). Subtasks are stored in their
 * total order (ordered-subtasks as written; :subtasks sorted by their :ordering, which must
 * be total). */
typedef struct goap__px_ctask {          /* (:task NAME :parameters (...)) */
  int32_t sym, node;
  int32_t nparams, ptypes;         /* offset in args: the parameter types */
} goap__px_ctask;

typedef struct goap__px_step {           /* one subtask of a method or of the :htn */
  int32_t label;                   /* its label symbol ("task0"), or -1 when unlabelled */
  int32_t task;                    /* >= 0: compound task id; < 0: primitive, schema -(task + 1) */
  int32_t args, nargs;             /* offset in args; nargs = the task's or schema's arity */
  int32_t node;                    /* the subtask's list node, for errors */
} goap__px_step;

typedef struct goap__px_method {
  int32_t sym, node;
  int32_t task, targs;             /* the compound task it decomposes; its args (offset in args,
                                      arity of the task), in the method's parameter space */
  int32_t nparams, ptypes, pnames; /* as goap__px_schema */
  int32_t lit0, nlits;             /* precondition literals (kind PX_LIT_PRE), lifted */
  int32_t step0, nsteps;           /* subtasks in total order: range in goap__px_task_core.steps */
} goap__px_method;

typedef struct goap__px_htn {
  int hddl;                        /* a :task, :method or :htn was read */
  goap__px_ctask *ctasks;
  size_t nctasks, cctasks;
  goap__px_method *methods;
  size_t nmethods, cmethods;
  goap__px_step *steps;
  size_t nsteps, csteps;
  int32_t top_step0, top_nsteps;   /* the problem's initial task network, range in steps */
  int32_t top_nparams, top_ptypes, top_pnames; /* the :htn's :parameters (usually none) */
  int32_t htn_node;                /* the problem's (:htn ...) node, -1 when none */
  goap__px_ivec ctask_of, method_of;     /* symbol -> compound task / method id */
} goap__px_htn;

typedef struct goap__px_task_core {
  goap_allocator alloc;
  goap_pddl_options opt;
  goap__px_source src[3];    /* domain, problem, plan */
  goap__px_syms syms;
  goap__px_node *nodes;
  size_t nnodes, cnodes;

  goap__px_type *types;
  size_t ntypes, ctypes;
  goap__px_object *objects;
  size_t nobjects, cobjects;
  goap__px_pred *preds;
  size_t npreds, cpreds;
  goap__px_func *funcs;
  size_t nfuncs, cfuncs;
  goap__px_schema *schemas;
  size_t nschemas, cschemas;
  goap__px_lit *lits;
  size_t nlits, clits;
  size_t nquant;       /* literals read inside a forall (quant >= 0), before the expansion */
  goap__px_ivec args;        /* argument pool */
  goap__px_ivec init;        /* init atoms: pred, then offset in args (pairs) */
  goap__px_tset fvals;       /* (function, args) -> entry; value in fval */
  double *fval;
  size_t cfval;
  int32_t goal0, ngoal; /* range in lits (kind GOAL, ground args) */
  int metric;           /* (:metric minimize (total-cost)) given */
  int uses_costs;       /* some action increases total-cost */
  int32_t total_cost;   /* function id of total-cost, or -1 */
  int32_t domain_sym, problem_sym;
  uint8_t *is_a;        /* nobjects x ntypes: object o is of type t */

  /* grounding (ground.c) */
  int grounded;
  goap__px_tset atoms;        /* reachable ground atoms (pred, args) */
  goap__px_tset gacts;        /* reachable ground actions (schema, args) */
  goap_domain *domain;
  goap_word *start;
  goap_cond *goal;
  int ngoalc;
  size_t start_words;   /* allocated words of start */
  int32_t *act_of;      /* goap action id -> ground action entry (gacts count entries) */
  size_t act_of_n;
  goap_pddl_info info;

  /* symbol -> id maps (-1: none), grown on demand */
  goap__px_ivec type_of, obj_of, pred_of, func_of, schema_of, param_of;

  goap__px_htn htn;           /* HDDL: tasks, methods, initial network (hddl_parse.c) */

  /* domain constants are objects [0, nconsts): the domain is parsed before the problem */
  size_t nconsts;
  /* symmetries (symmetry.c): computed by the first goap_pddl_symmetry call */
  int sym_done;
  goap_symmetry sym;
  goap_symmetry_class *sym_classes;
  size_t sym_nclasses;
  int32_t *sym_ids;     /* every class's vars then actions, member-major */
  size_t sym_nids;
  goap_symmetry_generator *sym_gens; /* transpositions of objects no class holds */
  size_t sym_ngens;
  int32_t *sym_gids;    /* every generator's variable pairs then action pairs */
  size_t sym_ngids;

  goap_error *diag;      /* never NULL while loading */
  goap_status status;   /* first error */
} goap__px_task_core;

struct goap_pddl_task {
  goap__px_task_core c;
};

/* ---- errors (util.c) ------------------------------------------------------------------ */
/* Records an error at node `node` (-1: no position, file of src `src`) unless one is already
 * recorded; returns the recorded status. */
goap_status goap__px_error(goap__px_task_core *t, int32_t node, goap_status st, const char *fmt, ...)
    PX_PRINTF(4, 5);
goap_status goap__px_error_at(goap__px_task_core *t, int src, int line, int col, goap_status st,
                        const char *fmt, ...) PX_PRINTF(6, 7);
/* "did you mean" helper: the symbol among cands (n ids) closest to `sym`, or -1. */
int32_t goap__px_suggest(const goap__px_task_core *t, int32_t sym, const int32_t *cands, size_t n);

static inline const char *goap__px_name(const goap__px_task_core *t, int32_t sym) {
  return sym >= 0 && (size_t)sym < t->syms.n ? t->syms.name[sym] : "?";
}

/* symbol maps: the id stored for sym, or -1; set returns 0 when out of memory */
static inline int32_t goap__px_map_get(const goap__px_ivec *m, int32_t sym) {
  return sym >= 0 && (size_t)sym < m->n ? m->v[sym] : -1;
}
int goap__px_map_set(const goap_allocator *a, goap__px_ivec *m, int32_t sym, int32_t id);

/* snprintf that truncates silently (long names are cut in messages, never overflow). */
void goap__px_fmt(char *buf, size_t cap, const char *fmt, ...) PX_PRINTF(3, 4);

/* ---- reader (sexp.c) ------------------------------------------------------------------ */
/* Reads every top-level form of source `src`; *first receives the first top-level node (or
 * -1), linked by next. */
/* Skips blanks, newlines (counting lines: *line, and *line_start the offset where the current
 * line starts) and `;` comments from offset i; returns the offset of the next token (or len). */
size_t goap__px_skip_blank(const char *text, size_t len, size_t i, int *line,
                           size_t *line_start);
goap_status goap__px_read(goap__px_task_core *t, int src, int32_t *first);

/* ---- parser (parse.c) ----------------------------------------------------------------- */
goap_status goap__px_parse_domain(goap__px_task_core *t, int32_t root);
goap_status goap__px_parse_problem(goap__px_task_core *t, int32_t root);
/* For hddl_parse.c: a typed parameter list node -> syms/types, allocated (n elements, room
 * for at least one; free with goap__px_params_free);
 * a precondition (and/not/atoms/=) over those parameters appended as PX_LIT_PRE literals; a
 * term (variable among syms, or object/constant; syms NULL: ground) -> arg, INT32_MIN on
 * error. `what` names the declaring construct in messages ("method", "task network"). */
goap_status goap__px_params(goap__px_task_core *t, int32_t list, int32_t **syms, int32_t **types,
                            int *n);
void goap__px_params_free(goap__px_task_core *t, int32_t *syms, int32_t *types, int n);
goap_status goap__px_precond(goap__px_task_core *t, int32_t n, const int32_t *syms, int np,
                             const char *what);
int32_t goap__px_term(goap__px_task_core *t, int32_t n, const int32_t *syms, int np, const char *what);
/* Writes atom (pred, ground args) as "(at a b)"; snprintf semantics. */
size_t goap__px_format_atom(const goap__px_task_core *t, int32_t pred, const int32_t *args, char *buf,
                      size_t cap);

/* ---- forall (forall.c) ------------------------------------------------------------------ */
/* Replaces every literal read inside a forall by its instances over the objects of the
 * variables' types (none when a type is empty: the forall then holds vacuously), keeping every
 * schema's, method's and the goal's literals contiguous. Called once the problem is parsed
 * (is_a filled); a no-op without foralls. */
goap_status goap__px_expand_foralls(goap__px_task_core *t);

/* ---- HDDL (hddl_parse.c) --------------------------------------------------------------- */
/* Called by goap__px_parse_domain for each (:task ...) and (:method ...) section (after the
 * actions are parsed, so subtasks can name actions and tasks in any order), and by
 * goap__px_parse_problem for (:htn ...). Without GOAP_PDDL_HTN these sections are errors. */
goap_status goap__px_parse_ctask(goap__px_task_core *t, int32_t sec);
goap_status goap__px_parse_method(goap__px_task_core *t, int32_t sec);
goap_status goap__px_parse_htn(goap__px_task_core *t, int32_t sec);
void goap__px_htn_free(goap__px_task_core *t);

/* ---- grounding (ground.c) ------------------------------------------------------------- */
goap_status goap__px_ground(goap__px_task_core *t);
void goap__px_ground_free(goap__px_task_core *t);

/* ---- symmetries (symmetry.c) ----------------------------------------------------------- */
void goap__px_symmetry_free(goap__px_task_core *t);

#endif /* GOAP_PDDL_INTERNAL_H */
