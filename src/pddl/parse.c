/*
 * parse.c -- PDDL domain and problem trees -> the lifted task (types, objects, predicates,
 * functions, action schemas, init, goal, metric).
 *
 * Invariants:
 *  - Supported: STRIPS with :typing (hierarchies, `object`), constants, :negative-preconditions,
 *    :equality, `and`, `forall` in preconditions and goals (read here with the variables
 *    appended to the parameters, literals marked with their scope; instantiated by forall.c
 *    once the problem is read), and :action-costs (`(increase (total-cost) N)` or a static
 *    function term). Parameter lists grow through the allocator (no fixed limit). Every
 *    other construct is rejected with its name and position, whatever the :requirements say
 *    (they are read but not trusted).
 *  - Domain sections are read in a fixed order whatever their order in the text: types,
 *    constants, predicates, functions, then actions, so a use never precedes its declaration.
 *  - Type 0 is `object`; every other type has a parent, and the parent chain is acyclic
 *    (checked), so walking it terminates.
 *  - A lifted literal's arguments are object ids or parameter references (see internal.h);
 *    goal literals are ground once the foralls are instantiated.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pddl_internal.h"

#define N(i) (&t->nodes[(i)])
#define OOM(t, n) goap__px_error((t), (n), GOAP_OUT_OF_MEMORY, "out of memory")

static const char *nm(const goap__px_task_core *t, int32_t n) {
  return N(n)->list ? "(...)" : goap__px_name(t, N(n)->sym);
}

static int is_atom(const goap__px_task_core *t, int32_t n, const char *name) {
  return n >= 0 && !N(n)->list && strcmp(goap__px_name(t, N(n)->sym), name) == 0;
}

/* The head atom's name of a list node ("" when empty or headed by a list). */
static const char *head(const goap__px_task_core *t, int32_t n) {
  if (n < 0 || !N(n)->list || N(n)->first < 0 || N(n)->list == 0) return "";
  int32_t h = N(n)->first;
  return N(h)->list ? "" : goap__px_name(t, N(h)->sym);
}

/* Nth child (0-based) of a list, or -1. */
static int32_t child(const goap__px_task_core *t, int32_t n, int k) {
  int32_t c = N(n)->first;
  while (c >= 0 && k-- > 0) c = N(c)->next;
  return c;
}

static int is_var(const goap__px_task_core *t, int32_t n) {
  return !N(n)->list && goap__px_name(t, N(n)->sym)[0] == '?';
}

/* Parses a number atom; 0 when it is not one. */
static int number(const goap__px_task_core *t, int32_t n, double *out) {
  if (N(n)->list) return 0;
  const char *s = goap__px_name(t, N(n)->sym);
  char *end = NULL;
  if (!((s[0] >= '0' && s[0] <= '9') || s[0] == '-' || s[0] == '.' || s[0] == '+')) return 0;
  double v = strtod(s, &end);
  if (!end || *end || end == s || !isfinite(v)) return 0;
  *out = v;
  return 1;
}

/* ---- declarations ---------------------------------------------------------------------- */

static int32_t add_type(goap__px_task_core *t, int32_t sym, int32_t node) {
  if (!goap__grow(&t->alloc, (void **)&t->types, &t->ctypes, t->ntypes + 1, sizeof *t->types))
    return -1;
  int32_t id = (int32_t)t->ntypes++;
  t->types[id].sym = sym;
  t->types[id].parent = id == 0 ? -1 : 0;
  t->types[id].node = node;
  if (!goap__px_map_set(&t->alloc, &t->type_of, sym, id)) return -1;
  return id;
}

/* The type named by atom node n ("either" lists are rejected). create: declare it when
 * unknown (in :types). */
static int32_t type_ref(goap__px_task_core *t, int32_t n, int create) {
  if (N(n)->list) {
    if (strcmp(head(t, n), "either") == 0)
      goap__px_error(t, n, GOAP_PARSE_ERROR, "unsupported construct 'either' (union types)");
    else
      goap__px_error(t, n, GOAP_PARSE_ERROR, "expected a type name, found a list");
    return -1;
  }
  int32_t ty = goap__px_map_get(&t->type_of, N(n)->sym);
  if (ty >= 0) return ty;
  if (create) {
    ty = add_type(t, N(n)->sym, n);
    if (ty < 0) OOM(t, n);
    return ty;
  }
  int32_t *c = (int32_t *)goap__alloc(&t->alloc, t->ntypes * sizeof *c);
  int32_t s = -1;
  if (c) {
    for (size_t i = 0; i < t->ntypes; ++i) c[i] = t->types[i].sym;
    s = goap__px_suggest(t, N(n)->sym, c, t->ntypes);
    goap__free(&t->alloc, c, t->ntypes * sizeof *c);
  }
  if (s >= 0)
    goap__px_error(t, n, GOAP_NOT_FOUND, "unknown type '%s' (did you mean '%s'?)", nm(t, n), goap__px_name(t, s));
  else
    goap__px_error(t, n, GOAP_NOT_FOUND, "unknown type '%s'", nm(t, n));
  return -1;
}

/* Walks a typed list `a b - t c - u d`: calls fn(t, item node, type id, ctx) for each item,
 * in order. `types_section`: undeclared types are created (the :types section). */
typedef goap_status (*typed_fn)(goap__px_task_core *t, int32_t item, int32_t type, void *ctx);

static goap_status typed_list(goap__px_task_core *t, int32_t first, int types_section, typed_fn fn,
                              void *ctx) {
  int32_t start = first;
  while (start >= 0) {
    /* find the end of this group: a "-" atom followed by a type, or the end */
    int32_t c = start, dash = -1;
    while (c >= 0) {
      if (is_atom(t, c, "-")) {
        dash = c;
        break;
      }
      c = N(c)->next;
    }
    int32_t ty = 0, after = -1;
    if (dash >= 0) {
      int32_t tn = N(dash)->next;
      if (tn < 0) return goap__px_error(t, dash, GOAP_PARSE_ERROR, "'-' must be followed by a type");
      ty = type_ref(t, tn, types_section);
      if (ty < 0) return t->status;
      after = N(tn)->next;
    }
    for (c = start; c >= 0 && c != dash; c = N(c)->next) {
      if (N(c)->list) {
        if (strcmp(head(t, c), "either") == 0)
          return goap__px_error(t, c, GOAP_PARSE_ERROR, "unsupported construct 'either' (union types)");
        return goap__px_error(t, c, GOAP_PARSE_ERROR, "expected a name, found a list");
      }
      goap_status st = fn(t, c, ty, ctx);
      if (st != GOAP_OK) return st;
    }
    start = after;
  }
  return GOAP_OK;
}

static goap_status on_type(goap__px_task_core *t, int32_t item, int32_t parent, void *ctx) {
  (void)ctx;
  if (is_var(t, item) || is_atom(t, item, "-"))
    return goap__px_error(t, item, GOAP_PARSE_ERROR, "'%s' is not a valid type name", nm(t, item));
  int32_t ty = type_ref(t, item, 1);
  if (ty < 0) return t->status;
  if (ty == 0) {
    if (parent != 0)
      return goap__px_error(t, item, GOAP_PARSE_ERROR, "type 'object' cannot have a parent type");
    return GOAP_OK;
  }
  t->types[ty].parent = parent;
  /* cycle check: walking up from the parent must not meet ty */
  int32_t p = parent;
  for (size_t steps = 0; p >= 0 && steps <= t->ntypes; ++steps) {
    if (p == ty)
      return goap__px_error(t, item, GOAP_PARSE_ERROR, "type '%s' is its own ancestor (a cycle in :types)",
                      nm(t, item));
    p = t->types[p].parent;
  }
  return GOAP_OK;
}

static goap_status on_object(goap__px_task_core *t, int32_t item, int32_t type, void *ctx) {
  (void)ctx;
  if (is_var(t, item) || is_atom(t, item, "-") || N(item)->sym < 0)
    return goap__px_error(t, item, GOAP_PARSE_ERROR, "'%s' is not a valid object name", nm(t, item));
  int32_t old = goap__px_map_get(&t->obj_of, N(item)->sym);
  if (old >= 0) {
    /* repeated with the same type or a supertype of it (e.g. a domain constant listed again
     * in :objects): the first, more specific type stays */
    for (int32_t ty = t->objects[old].type; ty >= 0; ty = t->types[ty].parent)
      if (ty == type) return GOAP_OK;
    return goap__px_error(t, item, GOAP_DUPLICATE,
                    "object '%s' is already declared with type '%s'", nm(t, item),
                    goap__px_name(t, t->types[t->objects[old].type].sym));
  }
  if (!goap__grow(&t->alloc, (void **)&t->objects, &t->cobjects, t->nobjects + 1,
               sizeof *t->objects))
    return OOM(t, item);
  int32_t id = (int32_t)t->nobjects++;
  t->objects[id].sym = N(item)->sym;
  t->objects[id].type = type;
  t->objects[id].node = item;
  if (!goap__px_map_set(&t->alloc, &t->obj_of, N(item)->sym, id)) return OOM(t, item);
  return GOAP_OK;
}

/* Parameters: collects (symbol, type) pairs into a list grown through the task's allocator
 * (free with pl_free). */
typedef struct goap__px_param {
  int32_t sym, type, node;
} goap__px_param;
typedef struct param_list {
  goap__px_param *p;
  int n;
  size_t cap;
  int allow_dup; /* predicate and function declarations may repeat placeholder names */
  int dup_from;  /* names are checked for repeats from this index on (a forall's own) */
} param_list;

static void pl_init(param_list *pl, int allow_dup) {
  pl->p = NULL;
  pl->n = 0;
  pl->cap = 0;
  pl->allow_dup = allow_dup;
  pl->dup_from = 0;
}

static void pl_free(goap__px_task_core *t, param_list *pl) {
  goap__free(&t->alloc, pl->p, pl->cap * sizeof *pl->p);
  pl->p = NULL;
  pl->n = 0;
  pl->cap = 0;
}

static int pl_push(goap__px_task_core *t, param_list *pl, int32_t sym, int32_t type, int32_t node) {
  if (pl->n == INT32_MAX ||
      !goap__grow(&t->alloc, (void **)&pl->p, &pl->cap, (size_t)pl->n + 1, sizeof *pl->p))
    return 0;
  pl->p[pl->n].sym = sym;
  pl->p[pl->n].type = type;
  pl->p[pl->n].node = node;
  pl->n++;
  return 1;
}

static goap_status on_param(goap__px_task_core *t, int32_t item, int32_t type, void *ctx) {
  param_list *pl = (param_list *)ctx;
  if (!is_var(t, item))
    return goap__px_error(t, item, GOAP_PARSE_ERROR, "expected a variable (?name), found '%s'", nm(t, item));
  for (int i = pl->dup_from; i < pl->n && !pl->allow_dup; ++i)
    if (pl->p[i].sym == N(item)->sym)
      return goap__px_error(t, item, GOAP_DUPLICATE, "parameter '%s' is declared twice", nm(t, item));
  if (!pl_push(t, pl, N(item)->sym, type, item)) return OOM(t, item);
  return GOAP_OK;
}

/* A predicate's or function's declared arguments: at most PX_MAX_ARITY. */
static goap_status decl_args(goap__px_task_core *t, int32_t name, param_list *pl) {
  pl_init(pl, 1);
  goap_status st = typed_list(t, N(name)->next, 0, on_param, pl);
  if (st == GOAP_OK && pl->n > PX_MAX_ARITY)
    st = goap__px_error(t, name, GOAP_TOO_LARGE, "'%s' has more than %d arguments", nm(t, name),
                        PX_MAX_ARITY);
  int n = pl->n;
  pl_free(t, pl);
  pl->n = n;
  return st == GOAP_OK ? GOAP_OK : t->status;
}

static goap_status parse_predicates(goap__px_task_core *t, int32_t sec) {
  for (int32_t d = N(N(sec)->first)->next; d >= 0; d = N(d)->next) {
    if (!N(d)->list || N(d)->first < 0 || N(N(d)->first)->list)
      return goap__px_error(t, d, GOAP_PARSE_ERROR, "expected a predicate declaration '(name ?arg ...)'");
    int32_t name = N(d)->first;
    if (is_var(t, name) || is_atom(t, name, "=") || is_atom(t, name, "-"))
      return goap__px_error(t, name, GOAP_PARSE_ERROR, "'%s' is not a valid predicate name", nm(t, name));
    if (goap__px_map_get(&t->pred_of, N(name)->sym) >= 0)
      return goap__px_error(t, name, GOAP_DUPLICATE, "predicate '%s' is declared twice", nm(t, name));
    param_list pl;
    if (decl_args(t, name, &pl) != GOAP_OK) return t->status;
    if (!goap__grow(&t->alloc, (void **)&t->preds, &t->cpreds, t->npreds + 1, sizeof *t->preds))
      return OOM(t, d);
    int32_t id = (int32_t)t->npreds++;
    t->preds[id].sym = N(name)->sym;
    t->preds[id].arity = pl.n;
    t->preds[id].node = name;
    t->preds[id].fluent = 0;
    if (!goap__px_map_set(&t->alloc, &t->pred_of, N(name)->sym, id)) return OOM(t, d);
  }
  return GOAP_OK;
}

static int32_t add_func(goap__px_task_core *t, int32_t sym, int arity, int32_t node) {
  if (!goap__grow(&t->alloc, (void **)&t->funcs, &t->cfuncs, t->nfuncs + 1, sizeof *t->funcs))
    return -1;
  int32_t id = (int32_t)t->nfuncs++;
  t->funcs[id].sym = sym;
  t->funcs[id].arity = arity;
  t->funcs[id].node = node;
  if (!goap__px_map_set(&t->alloc, &t->func_of, sym, id)) return -1;
  if (strcmp(goap__px_name(t, sym), "total-cost") == 0) t->total_cost = id;
  return id;
}

static goap_status parse_functions(goap__px_task_core *t, int32_t sec) {
  for (int32_t d = N(N(sec)->first)->next; d >= 0; d = N(d)->next) {
    if (is_atom(t, d, "-")) { /* "- number" after a declaration */
      int32_t ty = N(d)->next;
      if (ty < 0 || N(ty)->list)
        return goap__px_error(t, d, GOAP_PARSE_ERROR, "'-' must be followed by a type ('number')");
      if (strcmp(nm(t, ty), "number") != 0)
        return goap__px_error(t, ty, GOAP_PARSE_ERROR,
                        "unsupported function type '%s' (only 'number')", nm(t, ty));
      d = ty;
      continue;
    }
    if (!N(d)->list || N(d)->first < 0 || N(N(d)->first)->list)
      return goap__px_error(t, d, GOAP_PARSE_ERROR, "expected a function declaration '(name ?arg ...)'");
    int32_t name = N(d)->first;
    if (goap__px_map_get(&t->func_of, N(name)->sym) >= 0)
      return goap__px_error(t, name, GOAP_DUPLICATE, "function '%s' is declared twice", nm(t, name));
    param_list pl;
    if (decl_args(t, name, &pl) != GOAP_OK) return t->status;
    if (add_func(t, N(name)->sym, pl.n, name) < 0) return OOM(t, d);
  }
  return GOAP_OK;
}

/* ---- literals ------------------------------------------------------------------------- */

typedef struct lctx {
  const param_list *params; /* NULL: ground (goal) */
  int kind;                 /* PX_LIT_* */
  const char *what;         /* "action" or "method": who declares the parameters */
  int ground;               /* the formula is ground outside its foralls (the goal) */
  int base;                 /* the declared parameters [0, base); forall variables after */
  int32_t quant;            /* -1, or the forall scope of the literals (see goap__px_lit) */
} lctx;

static lctx lctx_make(const param_list *params, int kind, const char *what) {
  lctx c;
  c.params = params;
  c.kind = kind;
  c.what = what;
  c.ground = params == NULL;
  c.base = params ? params->n : 0;
  c.quant = -1;
  return c;
}

/* A term: a parameter or an object. The innermost binding of a name wins (a forall variable
 * may shadow a parameter). */
static int32_t term(goap__px_task_core *t, int32_t n, const lctx *c) {
  if (N(n)->list) {
    goap__px_error(t, n, GOAP_PARSE_ERROR,
             "unsupported construct: a function term '(%s ...)' as an argument", head(t, n));
    return INT32_MIN;
  }
  if (is_var(t, n)) {
    if (c->params)
      for (int i = c->params->n - 1; i >= 0; --i)
        if (c->params->p[i].sym == N(n)->sym) return -(i + 1);
    if (!c->ground)
      goap__px_error(t, n, GOAP_NOT_FOUND, "unknown variable '%s' (not a parameter of this %s)",
               nm(t, n), c->what ? c->what : "action");
    else
      goap__px_error(t, n, GOAP_PARSE_ERROR, "variable '%s' in a ground formula", nm(t, n));
    return INT32_MIN;
  }
  int32_t o = goap__px_map_get(&t->obj_of, N(n)->sym);
  if (o < 0) {
    goap__px_error(t, n, GOAP_NOT_FOUND, "unknown object or constant '%s'", nm(t, n));
    return INT32_MIN;
  }
  return o;
}

static const char *unsupported_cond(const char *h) {
  if (!strcmp(h, "or")) return "disjunctive condition";
  if (!strcmp(h, "imply")) return "implication";
  if (!strcmp(h, "exists")) return "existential condition";
  if (!strcmp(h, "forall")) return "universal condition";
  if (!strcmp(h, "when")) return "conditional effect";
  if (!strcmp(h, "<") || !strcmp(h, ">") || !strcmp(h, "<=") || !strcmp(h, ">="))
    return "numeric comparison";
  if (!strcmp(h, "preference")) return "preference";
  return NULL;
}

static int32_t pred_ref(goap__px_task_core *t, int32_t name) {
  int32_t p = goap__px_map_get(&t->pred_of, N(name)->sym);
  if (p >= 0) return p;
  int32_t *c = (int32_t *)goap__alloc(&t->alloc, (t->npreds ? t->npreds : 1) * sizeof *c);
  int32_t s = -1;
  if (c) {
    for (size_t i = 0; i < t->npreds; ++i) c[i] = t->preds[i].sym;
    s = goap__px_suggest(t, N(name)->sym, c, t->npreds);
    goap__free(&t->alloc, c, (t->npreds ? t->npreds : 1) * sizeof *c);
  }
  if (s >= 0)
    goap__px_error(t, name, GOAP_NOT_FOUND, "unknown predicate '%s' (did you mean '%s'?)", nm(t, name),
             goap__px_name(t, s));
  else
    goap__px_error(t, name, GOAP_NOT_FOUND, "unknown predicate '%s'", nm(t, name));
  return -1;
}

/* An atomic formula (pred terms...) or (= a b) -> a new literal. */
static goap_status atom_lit(goap__px_task_core *t, int32_t n, int neg, const lctx *c) {
  int32_t h = N(n)->first;
  if (h < 0) return goap__px_error(t, n, GOAP_PARSE_ERROR, "empty formula '()'");
  if (N(h)->list) return goap__px_error(t, h, GOAP_PARSE_ERROR, "expected a predicate name, found a list");
  int32_t pred, arity;
  if (is_atom(t, h, "=")) {
    if (c->kind == PX_LIT_ADD || c->kind == PX_LIT_DEL)
      return goap__px_error(t, h, GOAP_PARSE_ERROR, "an equality cannot be an effect");
    for (int32_t a = N(h)->next; a >= 0; a = N(a)->next)
      if (N(a)->list)
        return goap__px_error(t, n, GOAP_PARSE_ERROR,
                        "unsupported construct: numeric comparison '(= (%s ...) ...)'",
                        head(t, a));
    pred = PX_EQ;
    arity = 2;
  } else {
    pred = pred_ref(t, h);
    if (pred < 0) return t->status;
    arity = t->preds[pred].arity;
  }
  if (N(n)->count - 1 != arity)
    return goap__px_error(t, n, GOAP_TYPE_MISMATCH, "'%s' takes %d argument%s, %d given", nm(t, h),
                    arity, arity == 1 ? "" : "s", N(n)->count - 1);
  if (!goap__grow(&t->alloc, (void **)&t->lits, &t->clits, t->nlits + 1, sizeof *t->lits))
    return OOM(t, n);
  size_t off = t->args.n;
  for (int32_t a = N(h)->next; a >= 0; a = N(a)->next) {
    int32_t v = term(t, a, c);
    if (v == INT32_MIN) return t->status;
    if (!goap__px_ipush(&t->alloc, &t->args, v)) return OOM(t, n);
  }
  if (off > (size_t)INT32_MAX - 1024) return goap__px_error(t, n, GOAP_TOO_LARGE, "too many arguments");
  goap__px_lit *l = &t->lits[t->nlits++];
  l->pred = pred;
  l->args = (int32_t)off;
  l->node = n;
  l->neg = (uint8_t)neg;
  l->kind = (uint8_t)c->kind;
  l->quant = c->quant;
  if (c->quant >= 0) t->nquant++;
  if (pred >= 0 && (c->kind == PX_LIT_ADD || c->kind == PX_LIT_DEL)) t->preds[pred].fluent = 1;
  return GOAP_OK;
}

static goap_status cond(goap__px_task_core *t, int32_t n, const lctx *c);

/* (forall (?v - type ...) body) in a precondition or goal: the body's literals are read with
 * the variables appended to the parameters, and marked with the scope (quant) that
 * goap__px_expand_foralls instantiates once the problem's objects are known. */
static goap_status forall_cond(goap__px_task_core *t, int32_t n, const lctx *c) {
  int32_t vars = child(t, n, 1), body = child(t, n, 2);
  if (N(n)->count != 3 || !N(vars)->list)
    return goap__px_error(t, n, GOAP_PARSE_ERROR,
                          "'forall' takes a variable list and a formula: '(forall (?x - type) ...)'");
  param_list pl;
  pl_init(&pl, 0);
  goap_status st = GOAP_OK;
  int outer = c->params ? c->params->n : 0;
  for (int i = 0; i < outer && st == GOAP_OK; ++i)
    if (!pl_push(t, &pl, c->params->p[i].sym, c->params->p[i].type, c->params->p[i].node))
      st = OOM(t, n);
  pl.dup_from = outer;
  if (st == GOAP_OK) st = typed_list(t, N(vars)->first, 0, on_param, &pl);
  if (st == GOAP_OK && pl.n == outer)
    st = goap__px_error(t, vars, GOAP_PARSE_ERROR, "'forall' binds no variable");
  lctx in = *c;
  in.params = &pl;
  if (st == GOAP_OK) { /* the scope: base, count, then the types of every forall variable */
    in.quant = (int32_t)t->args.n;
    if (t->args.n > (size_t)INT32_MAX - (size_t)pl.n - 2 ||
        !goap__px_ipush(&t->alloc, &t->args, c->base) ||
        !goap__px_ipush(&t->alloc, &t->args, pl.n - c->base))
      st = OOM(t, n);
    for (int i = c->base; i < pl.n && st == GOAP_OK; ++i)
      if (!goap__px_ipush(&t->alloc, &t->args, pl.p[i].type)) st = OOM(t, n);
  }
  if (st == GOAP_OK) st = cond(t, body, &in);
  pl_free(t, &pl);
  return st == GOAP_OK ? GOAP_OK : t->status;
}

/* A condition: and / not / forall / atoms (precondition or goal). */
static goap_status cond(goap__px_task_core *t, int32_t n, const lctx *c) {
  if (!N(n)->list)
    return goap__px_error(t, n, GOAP_PARSE_ERROR, "expected a condition '(...)', found '%s'", nm(t, n));
  if (N(n)->first < 0) return GOAP_OK; /* () : the empty conjunction */
  const char *h = head(t, n);
  if (!strcmp(h, "and")) {
    for (int32_t a = N(N(n)->first)->next; a >= 0; a = N(a)->next)
      if (cond(t, a, c) != GOAP_OK) return t->status;
    return GOAP_OK;
  }
  if (!strcmp(h, "not")) {
    int32_t a = N(N(n)->first)->next;
    if (N(n)->count != 2 || !N(a)->list)
      return goap__px_error(t, n, GOAP_PARSE_ERROR, "'not' takes one formula");
    const char *ih = head(t, a);
    const char *what = unsupported_cond(ih);
    if (what || !strcmp(ih, "and") || !strcmp(ih, "not"))
      return goap__px_error(t, a, GOAP_PARSE_ERROR,
                      "unsupported construct: 'not' of a compound formula '(%s ...)'", ih);
    return atom_lit(t, a, 1, c);
  }
  if (!strcmp(h, "forall")) return forall_cond(t, n, c);
  const char *what = unsupported_cond(h);
  if (what) return goap__px_error(t, n, GOAP_PARSE_ERROR, "unsupported construct '%s' (%s)", h, what);
  return atom_lit(t, n, 0, c);
}

/* ---- actions -------------------------------------------------------------------------- */

static goap_status cost_effect(goap__px_task_core *t, goap__px_schema *s, int32_t n, const lctx *c) {
  /* (increase (total-cost) X) */
  int32_t f = child(t, n, 1), x = child(t, n, 2);
  const char *h = head(t, n);
  if (N(n)->count != 3 || !N(f)->list)
    return goap__px_error(t, n, GOAP_PARSE_ERROR, "'%s' takes a function term and a value", h);
  if (strcmp(head(t, f), "total-cost") != 0 || N(f)->count != 1)
    return goap__px_error(t, n, GOAP_PARSE_ERROR,
                    "unsupported construct: numeric fluent '(%s (%s ...))' (only "
                    "'(increase (total-cost) ...)')", h, head(t, f));
  if (strcmp(h, "increase") != 0)
    return goap__px_error(t, n, GOAP_PARSE_ERROR,
                    "unsupported construct '%s' on total-cost (only 'increase')", h);
  if (s->cost_kind != PX_COST_NONE)
    return goap__px_error(t, n, GOAP_PARSE_ERROR, "a second '(increase (total-cost) ...)' in one action");
  if (t->total_cost < 0 && add_func(t, N(N(f)->first)->sym, 0, f) < 0) return OOM(t, n);
  t->uses_costs = 1;
  s->cost_node = n;
  double v;
  if (number(t, x, &v)) {
    if (v < 0)
      return goap__px_error(t, x, GOAP_OUT_OF_RANGE, "a negative action cost (%s)", nm(t, x));
    s->cost_kind = PX_COST_CONST;
    s->cost_value = v;
    return GOAP_OK;
  }
  if (!N(x)->list || N(x)->first < 0 || N(N(x)->first)->list)
    return goap__px_error(t, x, GOAP_PARSE_ERROR,
                    "expected a number or a function term '(f ?x ...)' as the cost, found '%s'",
                    nm(t, x));
  int32_t fn = goap__px_map_get(&t->func_of, N(N(x)->first)->sym);
  if (fn < 0)
    return goap__px_error(t, N(x)->first, GOAP_NOT_FOUND, "unknown function '%s'", head(t, x));
  if (fn == t->total_cost)
    return goap__px_error(t, x, GOAP_PARSE_ERROR, "unsupported construct: total-cost as a cost");
  if (N(x)->count - 1 != t->funcs[fn].arity)
    return goap__px_error(t, x, GOAP_TYPE_MISMATCH, "'%s' takes %d argument%s, %d given", head(t, x),
                    t->funcs[fn].arity, t->funcs[fn].arity == 1 ? "" : "s", N(x)->count - 1);
  size_t off = t->args.n;
  for (int32_t a = N(N(x)->first)->next; a >= 0; a = N(a)->next) {
    int32_t v2 = term(t, a, c);
    if (v2 == INT32_MIN) return t->status;
    if (!goap__px_ipush(&t->alloc, &t->args, v2)) return OOM(t, x);
  }
  s->cost_kind = PX_COST_FUNC;
  s->cost_func = fn;
  s->cost_args = (int32_t)off;
  return GOAP_OK;
}

static goap_status effect(goap__px_task_core *t, goap__px_schema *s, int32_t n, const param_list *pl) {
  if (!N(n)->list)
    return goap__px_error(t, n, GOAP_PARSE_ERROR, "expected an effect '(...)', found '%s'", nm(t, n));
  if (N(n)->first < 0) return GOAP_OK;
  const char *h = head(t, n);
  lctx c = lctx_make(pl, PX_LIT_ADD, "action");
  if (!strcmp(h, "and")) {
    for (int32_t a = N(N(n)->first)->next; a >= 0; a = N(a)->next)
      if (effect(t, s, a, pl) != GOAP_OK) return t->status;
    return GOAP_OK;
  }
  if (!strcmp(h, "not")) {
    int32_t a = N(N(n)->first)->next;
    if (N(n)->count != 2 || !N(a)->list)
      return goap__px_error(t, n, GOAP_PARSE_ERROR, "'not' takes one atom");
    const char *ih = head(t, a);
    if (unsupported_cond(ih) || !strcmp(ih, "and") || !strcmp(ih, "not"))
      return goap__px_error(t, a, GOAP_PARSE_ERROR,
                      "unsupported construct: 'not' of a compound effect '(%s ...)'", ih);
    c.kind = PX_LIT_DEL;
    return atom_lit(t, a, 1, &c);
  }
  if (!strcmp(h, "increase") || !strcmp(h, "decrease") || !strcmp(h, "assign") ||
      !strcmp(h, "scale-up") || !strcmp(h, "scale-down"))
    return cost_effect(t, s, n, &c);
  if (!strcmp(h, "forall"))
    return goap__px_error(t, n, GOAP_PARSE_ERROR, "unsupported construct 'forall' (universal effect)");
  if (!strcmp(h, "when"))
    return goap__px_error(t, n, GOAP_PARSE_ERROR, "unsupported construct 'when' (conditional effect)");
  const char *what = unsupported_cond(h);
  if (what) return goap__px_error(t, n, GOAP_PARSE_ERROR, "unsupported construct '%s' (%s) in an effect", h, what);
  return atom_lit(t, n, 0, &c);
}

/* The parameters (into pl), precondition and effect of an action. */
static goap_status action_body(goap__px_task_core *t, int32_t sec, int32_t name, int32_t params,
                               int32_t pre, int32_t eff, param_list *pl) {
  if (params >= 0) {
    if (!N(params)->list) return goap__px_error(t, params, GOAP_PARSE_ERROR, "':parameters' takes a list");
    if (typed_list(t, N(params)->first, 0, on_param, pl) != GOAP_OK) return t->status;
  }
  if (!goap__grow(&t->alloc, (void **)&t->schemas, &t->cschemas, t->nschemas + 1, sizeof *t->schemas))
    return OOM(t, sec);
  goap__px_schema s;
  memset(&s, 0, sizeof s);
  s.sym = N(name)->sym;
  s.node = name;
  s.nparams = pl->n;
  s.ptypes = (int32_t)t->args.n;
  for (int i = 0; i < pl->n; ++i)
    if (!goap__px_ipush(&t->alloc, &t->args, pl->p[i].type)) return OOM(t, sec);
  s.pnames = (int32_t)t->args.n;
  for (int i = 0; i < pl->n; ++i)
    if (!goap__px_ipush(&t->alloc, &t->args, pl->p[i].sym)) return OOM(t, sec);
  s.lit0 = (int32_t)t->nlits;
  s.cost_kind = PX_COST_NONE;
  lctx c = lctx_make(pl, PX_LIT_PRE, "action");
  if (pre >= 0 && cond(t, pre, &c) != GOAP_OK) return t->status;
  if (eff >= 0 && effect(t, &s, eff, pl) != GOAP_OK) return t->status;
  if (t->nlits - (size_t)s.lit0 > PX_MAX_LITS)
    return goap__px_error(t, sec, GOAP_TOO_LARGE, "action '%s' has more than %d literals", nm(t, name), PX_MAX_LITS);
  s.nlits = (int32_t)(t->nlits - (size_t)s.lit0);
  int32_t id = (int32_t)t->nschemas;
  t->schemas[t->nschemas++] = s;
  if (!goap__px_map_set(&t->alloc, &t->schema_of, s.sym, id)) return OOM(t, sec);
  return GOAP_OK;
}

static goap_status parse_action(goap__px_task_core *t, int32_t sec) {
  int32_t name = child(t, sec, 1);
  if (name < 0 || N(name)->list || is_var(t, name))
    return goap__px_error(t, name < 0 ? sec : name, GOAP_PARSE_ERROR, "expected the action's name after ':action'");
  if (goap__px_map_get(&t->schema_of, N(name)->sym) >= 0)
    return goap__px_error(t, name, GOAP_DUPLICATE, "action '%s' is defined twice", nm(t, name));
  int32_t params = -1, pre = -1, eff = -1;
  for (int32_t k = N(name)->next; k >= 0; k = N(k)->next) {
    int32_t v = N(k)->next;
    if (N(k)->list || nm(t, k)[0] != ':')
      return goap__px_error(t, k, GOAP_PARSE_ERROR, "expected ':parameters', ':precondition' or ':effect', found '%s'", nm(t, k));
    if (v < 0) return goap__px_error(t, k, GOAP_PARSE_ERROR, "'%s' needs a value", nm(t, k));
    if (is_atom(t, k, ":parameters")) params = v;
    else if (is_atom(t, k, ":precondition")) pre = v;
    else if (is_atom(t, k, ":effect")) eff = v;
    else if (is_atom(t, k, ":duration") || is_atom(t, k, ":condition"))
      return goap__px_error(t, k, GOAP_PARSE_ERROR, "unsupported construct '%s' (durative actions)", nm(t, k));
    else
      return goap__px_error(t, k, GOAP_PARSE_ERROR, "unknown action key '%s'", nm(t, k));
    k = v;
  }
  param_list pl;
  pl_init(&pl, 0);
  goap_status st = action_body(t, sec, name, params, pre, eff, &pl);
  pl_free(t, &pl);
  return st;
}

/* ---- domain ----------------------------------------------------------------------------- */

/* Checks `(define (KIND NAME) ...)` and returns NAME's symbol via *name. */
static goap_status define_header(goap__px_task_core *t, int32_t root, const char *kind, int32_t *name,
                                 int src) {
  if (root < 0)
    return goap__px_error_at(t, src, 0, 0, GOAP_PARSE_ERROR, "empty %s file: expected '(define (%s NAME) ...)'", kind, kind);
  if (N(root)->next >= 0)
    return goap__px_error(t, N(root)->next, GOAP_PARSE_ERROR, "unexpected text after the %s's '(define ...)'", kind);
  if (!N(root)->list || strcmp(head(t, root), "define") != 0)
    return goap__px_error(t, root, GOAP_PARSE_ERROR, "expected '(define (%s NAME) ...)'", kind);
  int32_t h = child(t, root, 1);
  if (h < 0 || !N(h)->list || N(h)->count != 2 || N(child(t, h, 1))->list)
    return goap__px_error(t, h < 0 ? root : h, GOAP_PARSE_ERROR, "expected '(%s NAME)' after 'define'", kind);
  if (strcmp(head(t, h), kind) != 0) {
    if (!strcmp(head(t, h), "domain") || !strcmp(head(t, h), "problem"))
      return goap__px_error(t, h, GOAP_PARSE_ERROR, "this is a %s, but a %s was expected here",
                      head(t, h), kind);
    return goap__px_error(t, h, GOAP_PARSE_ERROR, "expected '(%s NAME)' after 'define'", kind);
  }
  *name = N(child(t, h, 1))->sym;
  return GOAP_OK;
}

static goap_status each_section(goap__px_task_core *t, int32_t root, const char *kind,
                                goap_status (*fn)(goap__px_task_core *, int32_t), const char *want) {
  for (int32_t s = child(t, root, 2); s >= 0; s = N(s)->next) {
    if (!N(s)->list || N(s)->first < 0 || N(N(s)->first)->list || head(t, s)[0] != ':')
      return goap__px_error(t, s, GOAP_PARSE_ERROR, "expected a %s section '(:name ...)'", kind);
    if (!strcmp(head(t, s), want) && fn(t, s) != GOAP_OK) return t->status;
  }
  return GOAP_OK;
}

static goap_status sec_types(goap__px_task_core *t, int32_t s) {
  return typed_list(t, N(N(s)->first)->next, 1, on_type, NULL);
}
static goap_status sec_objects(goap__px_task_core *t, int32_t s) {
  return typed_list(t, N(N(s)->first)->next, 0, on_object, NULL);
}
static goap_status sec_action(goap__px_task_core *t, int32_t s) { return parse_action(t, s); }

goap_status goap__px_parse_domain(goap__px_task_core *t, int32_t root) {
  int32_t obj = goap__px_sym_intern(&t->alloc, &t->syms, "object", 6);
  if (obj < 0 || add_type(t, obj, -1) != 0) return OOM(t, root);
  if (define_header(t, root, "domain", &t->domain_sym, 0) != GOAP_OK) return t->status;
  /* check every section name first */
  for (int32_t s = child(t, root, 2); s >= 0; s = N(s)->next) {
    if (!N(s)->list || N(s)->first < 0 || N(N(s)->first)->list || head(t, s)[0] != ':')
      return goap__px_error(t, s, GOAP_PARSE_ERROR, "expected a domain section '(:name ...)'");
    const char *h = head(t, s);
    if (!strcmp(h, ":requirements")) {
      for (int32_t r = N(N(s)->first)->next; r >= 0; r = N(r)->next)
        if (N(r)->list || nm(t, r)[0] != ':')
          return goap__px_error(t, r, GOAP_PARSE_ERROR, "expected a requirement ':name'");
      continue;
    }
    if (!strcmp(h, ":types") || !strcmp(h, ":constants") || !strcmp(h, ":predicates") ||
        !strcmp(h, ":functions") || !strcmp(h, ":action"))
      continue;
    if (!strcmp(h, ":task") || !strcmp(h, ":method")) {
      if (t->opt.flags & GOAP_PDDL_HTN) continue;
      return goap__px_error(t, s, GOAP_PARSE_ERROR, "HTN construct '%s' (HDDL): load with goap hddl", h);
    }
    if (!strcmp(h, ":derived"))
      return goap__px_error(t, s, GOAP_PARSE_ERROR, "unsupported construct ':derived' (derived predicates)");
    if (!strcmp(h, ":durative-action"))
      return goap__px_error(t, s, GOAP_PARSE_ERROR, "unsupported construct ':durative-action' (durative actions)");
    if (!strcmp(h, ":constraints"))
      return goap__px_error(t, s, GOAP_PARSE_ERROR, "unsupported construct ':constraints' (state trajectory constraints)");
    return goap__px_error(t, s, GOAP_PARSE_ERROR, "unknown domain section '%s'", h);
  }
  if (each_section(t, root, "domain", sec_types, ":types") != GOAP_OK) return t->status;
  if (each_section(t, root, "domain", sec_objects, ":constants") != GOAP_OK) return t->status;
  t->nconsts = t->nobjects;
  if (each_section(t, root, "domain", parse_predicates, ":predicates") != GOAP_OK) return t->status;
  if (each_section(t, root, "domain", parse_functions, ":functions") != GOAP_OK) return t->status;
  if (each_section(t, root, "domain", sec_action, ":action") != GOAP_OK) return t->status;
  if (t->opt.flags & GOAP_PDDL_HTN) { /* HDDL: tasks, then methods (they name both) */
    if (each_section(t, root, "domain", goap__px_parse_ctask, ":task") != GOAP_OK) return t->status;
    if (each_section(t, root, "domain", goap__px_parse_method, ":method") != GOAP_OK)
      return t->status;
  }
  return GOAP_OK;
}

/* ---- problem ---------------------------------------------------------------------------- */

static goap_status ground_args(goap__px_task_core *t, int32_t first, int32_t *out, int max, int *n) {
  *n = 0;
  lctx c = lctx_make(NULL, PX_LIT_GOAL, "action");
  for (int32_t a = first; a >= 0; a = N(a)->next) {
    if (*n >= max) return goap__px_error(t, a, GOAP_TOO_LARGE, "more than %d arguments", max);
    int32_t v = term(t, a, &c);
    if (v == INT32_MIN) return t->status;
    out[(*n)++] = v;
  }
  return GOAP_OK;
}

static goap_status sec_init(goap__px_task_core *t, int32_t s) {
  int32_t args[PX_MAX_ARITY];
  for (int32_t e = N(N(s)->first)->next; e >= 0; e = N(e)->next) {
    if (!N(e)->list || N(e)->first < 0 || N(N(e)->first)->list)
      return goap__px_error(t, e, GOAP_PARSE_ERROR, "expected a ground atom '(pred obj ...)' in :init");
    const char *h = head(t, e);
    int n = 0;
    if (!strcmp(h, "=")) {
      int32_t f = child(t, e, 1), v = child(t, e, 2);
      double val;
      if (N(e)->count != 3 || !N(f)->list || N(f)->first < 0 || N(N(f)->first)->list)
        return goap__px_error(t, e, GOAP_PARSE_ERROR, "expected '(= (function obj ...) NUMBER)' in :init");
      if (!number(t, v, &val))
        return goap__px_error(t, v, GOAP_PARSE_ERROR, "expected a number, found '%s'", nm(t, v));
      int32_t fn = goap__px_map_get(&t->func_of, N(N(f)->first)->sym);
      if (fn < 0) {
        if (strcmp(head(t, f), "total-cost") == 0 && N(f)->count == 1) {
          fn = add_func(t, N(N(f)->first)->sym, 0, f);
          if (fn < 0) return OOM(t, f);
        } else {
          return goap__px_error(t, N(f)->first, GOAP_NOT_FOUND, "unknown function '%s'", head(t, f));
        }
      }
      if (N(f)->count - 1 != t->funcs[fn].arity)
        return goap__px_error(t, f, GOAP_TYPE_MISMATCH, "'%s' takes %d argument%s, %d given", head(t, f),
                        t->funcs[fn].arity, t->funcs[fn].arity == 1 ? "" : "s", N(f)->count - 1);
      if (ground_args(t, N(N(f)->first)->next, args, PX_MAX_ARITY, &n) != GOAP_OK) return t->status;
      if (fn == t->total_cost) {
        if (val != 0)
          return goap__px_error(t, v, GOAP_PARSE_ERROR, "total-cost must start at 0, not %s", nm(t, v));
        continue;
      }
      int added = 0;
      int32_t ent = goap__px_tset_add(&t->alloc, &t->fvals, fn, args, n, &added);
      if (ent < 0 || !goap__grow(&t->alloc, (void **)&t->fval, &t->cfval, (size_t)ent + 1, sizeof *t->fval))
        return OOM(t, e);
      if (!added && t->fval[ent] != val)
        return goap__px_error(t, e, GOAP_CONFLICT, "a second, different value for this function");
      t->fval[ent] = val;
      continue;
    }
    if (!strcmp(h, "not"))
      return goap__px_error(t, e, GOAP_PARSE_ERROR, "negative literal in :init (atoms not listed are false)");
    if (!strcmp(h, "at") && N(e)->count >= 2) {
      double tmp;
      if (number(t, child(t, e, 1), &tmp))
        return goap__px_error(t, e, GOAP_PARSE_ERROR, "unsupported construct: timed initial literal");
    }
    int32_t p = pred_ref(t, N(e)->first);
    if (p < 0) return t->status;
    if (N(e)->count - 1 != t->preds[p].arity)
      return goap__px_error(t, e, GOAP_TYPE_MISMATCH, "'%s' takes %d argument%s, %d given", h,
                      t->preds[p].arity, t->preds[p].arity == 1 ? "" : "s", N(e)->count - 1);
    if (ground_args(t, N(N(e)->first)->next, args, PX_MAX_ARITY, &n) != GOAP_OK) return t->status;
    size_t off = t->args.n;
    for (int i = 0; i < n; ++i)
      if (!goap__px_ipush(&t->alloc, &t->args, args[i])) return OOM(t, e);
    if (!goap__px_ipush(&t->alloc, &t->init, p) || !goap__px_ipush(&t->alloc, &t->init, (int32_t)off))
      return OOM(t, e);
  }
  return GOAP_OK;
}

static goap_status sec_goal(goap__px_task_core *t, int32_t s) {
  if (N(s)->count != 2) return goap__px_error(t, s, GOAP_PARSE_ERROR, "':goal' takes one condition");
  lctx c = lctx_make(NULL, PX_LIT_GOAL, "action");
  t->goal0 = (int32_t)t->nlits;
  if (cond(t, child(t, s, 1), &c) != GOAP_OK) return t->status;
  if (t->nlits - (size_t)t->goal0 > PX_MAX_LITS)
    return goap__px_error(t, s, GOAP_TOO_LARGE, "the goal has more than %d literals", PX_MAX_LITS);
  t->ngoal = (int32_t)(t->nlits - (size_t)t->goal0);
  return GOAP_OK;
}

static goap_status sec_metric(goap__px_task_core *t, int32_t s) {
  int32_t dir = child(t, s, 1), ex = child(t, s, 2);
  if (N(s)->count != 3 || N(dir)->list)
    return goap__px_error(t, s, GOAP_PARSE_ERROR, "expected '(:metric minimize (total-cost))'");
  if (strcmp(nm(t, dir), "minimize") != 0)
    return goap__px_error(t, dir, GOAP_PARSE_ERROR, "unsupported metric '%s' (only 'minimize (total-cost)')", nm(t, dir));
  if (!N(ex)->list || N(ex)->count != 1 || strcmp(head(t, ex), "total-cost") != 0)
    return goap__px_error(t, ex, GOAP_PARSE_ERROR, "unsupported metric expression (only '(total-cost)')");
  t->metric = 1;
  return GOAP_OK;
}

goap_status goap__px_parse_problem(goap__px_task_core *t, int32_t root) {
  if (define_header(t, root, "problem", &t->problem_sym, 1) != GOAP_OK) return t->status;
  int seen_goal = 0, seen_htn = 0;
  for (int32_t s = child(t, root, 2); s >= 0; s = N(s)->next) {
    if (!N(s)->list || N(s)->first < 0 || N(N(s)->first)->list || head(t, s)[0] != ':')
      return goap__px_error(t, s, GOAP_PARSE_ERROR, "expected a problem section '(:name ...)'");
    const char *h = head(t, s);
    if (!strcmp(h, ":domain")) {
      int32_t d = child(t, s, 1);
      if (N(s)->count != 2 || N(d)->list)
        return goap__px_error(t, s, GOAP_PARSE_ERROR, "expected '(:domain NAME)'");
      if (N(d)->sym != t->domain_sym)
        return goap__px_error(t, d, GOAP_CONFLICT, "the problem is for domain '%s', but the domain is '%s'",
                        nm(t, d), goap__px_name(t, t->domain_sym));
    } else if (!strcmp(h, ":requirements") || !strcmp(h, ":objects") || !strcmp(h, ":init") ||
               !strcmp(h, ":metric")) {
    } else if (!strcmp(h, ":goal")) {
      if (seen_goal++) return goap__px_error(t, s, GOAP_DUPLICATE, "a second ':goal' section");
    } else if (!strcmp(h, ":htn")) {
      if (!(t->opt.flags & GOAP_PDDL_HTN))
        return goap__px_error(t, s, GOAP_PARSE_ERROR, "HTN construct ':htn' (HDDL): load with goap hddl");
      if (seen_htn++) return goap__px_error(t, s, GOAP_DUPLICATE, "a second ':htn' section");
    } else if (!strcmp(h, ":constraints")) {
      return goap__px_error(t, s, GOAP_PARSE_ERROR, "unsupported construct ':constraints' (state trajectory constraints)");
    } else {
      return goap__px_error(t, s, GOAP_PARSE_ERROR, "unknown problem section '%s'", h);
    }
  }
  if (!seen_goal && !seen_htn)
    return goap__px_error(t, root, GOAP_PARSE_ERROR,
                          (t->opt.flags & GOAP_PDDL_HTN) ? "the problem has neither ':htn' nor ':goal'"
                                                         : "the problem has no ':goal'");
  if (each_section(t, root, "problem", sec_objects, ":objects") != GOAP_OK) return t->status;
  if (each_section(t, root, "problem", sec_init, ":init") != GOAP_OK) return t->status;
  if (each_section(t, root, "problem", sec_goal, ":goal") != GOAP_OK) return t->status;
  if (each_section(t, root, "problem", sec_metric, ":metric") != GOAP_OK) return t->status;
  if (each_section(t, root, "problem", goap__px_parse_htn, ":htn") != GOAP_OK) return t->status;
  /* object x type table */
  size_t cells = t->nobjects * t->ntypes;
  if (t->ntypes && cells / t->ntypes != t->nobjects)
    return goap__px_error(t, root, GOAP_TOO_LARGE, "too many objects and types");
  t->is_a = (uint8_t *)goap__alloc(&t->alloc, cells ? cells : 1);
  if (!t->is_a) return OOM(t, root);
  memset(t->is_a, 0, cells ? cells : 1);
  for (size_t o = 0; o < t->nobjects; ++o)
    for (int32_t ty = t->objects[o].type; ty >= 0; ty = t->types[ty].parent)
      t->is_a[o * t->ntypes + (size_t)ty] = 1;
  return goap__px_expand_foralls(t);
}

/* ---- entry points for hddl_parse.c ------------------------------------------------------- */

goap_status goap__px_params(goap__px_task_core *t, int32_t list, int32_t **syms, int32_t **types,
                            int *n) {
  *syms = *types = NULL;
  *n = 0;
  if (!N(list)->list) return goap__px_error(t, list, GOAP_PARSE_ERROR, "':parameters' takes a list");
  param_list pl;
  pl_init(&pl, 0);
  goap_status st = typed_list(t, N(list)->first, 0, on_param, &pl);
  if (st == GOAP_OK) {
    size_t k = pl.n ? (size_t)pl.n : 1;
    *syms = (int32_t *)goap__alloc(&t->alloc, k * sizeof **syms);
    *types = (int32_t *)goap__alloc(&t->alloc, k * sizeof **types);
    if (!*syms || !*types) {
      st = OOM(t, list);
      goap__px_params_free(t, *syms, *types, pl.n);
      *syms = *types = NULL;
    } else {
      for (int i = 0; i < pl.n; ++i) {
        (*syms)[i] = pl.p[i].sym;
        (*types)[i] = pl.p[i].type;
      }
      *n = pl.n;
    }
  }
  pl_free(t, &pl);
  return st == GOAP_OK ? GOAP_OK : t->status;
}

void goap__px_params_free(goap__px_task_core *t, int32_t *syms, int32_t *types, int n) {
  size_t k = n > 0 ? (size_t)n : 1;
  goap__free(&t->alloc, syms, k * sizeof *syms);
  goap__free(&t->alloc, types, k * sizeof *types);
}

static int to_params(goap__px_task_core *t, param_list *pl, const int32_t *syms, int n) {
  pl_init(pl, 0);
  for (int i = 0; i < n; ++i)
    if (!pl_push(t, pl, syms[i], 0, -1)) return 0;
  return 1;
}

goap_status goap__px_precond(goap__px_task_core *t, int32_t n, const int32_t *syms, int np,
                             const char *what) {
  param_list pl;
  if (!to_params(t, &pl, syms, np)) {
    pl_free(t, &pl);
    return OOM(t, n);
  }
  lctx c = lctx_make(&pl, PX_LIT_PRE, what);
  goap_status st = cond(t, n, &c);
  pl_free(t, &pl);
  return st;
}

int32_t goap__px_term(goap__px_task_core *t, int32_t n, const int32_t *syms, int np, const char *what) {
  /* a read-only view of syms: term() only reads the names */
  lctx c = lctx_make(NULL, PX_LIT_PRE, what);
  c.ground = 0; /* a variable not among syms is unknown in this method or network */
  if (!N(n)->list && syms && goap__px_name(t, N(n)->sym)[0] == '?') {
    for (int i = np - 1; i >= 0; --i)
      if (syms[i] == N(n)->sym) return -(i + 1);
  }
  return term(t, n, &c);
}

size_t goap__px_format_atom(const goap__px_task_core *t, int32_t pred, const int32_t *args, char *buf,
                      size_t cap) {
  int arity = pred == PX_EQ ? 2 : t->preds[pred].arity;
  size_t len = 0;
  int k = snprintf(buf, cap, "(%s", pred == PX_EQ ? "=" : goap__px_name(t, t->preds[pred].sym));
  len += (size_t)(k > 0 ? k : 0);
  for (int i = 0; i < arity; ++i) {
    const char *on = args[i] >= 0 && (size_t)args[i] < t->nobjects ? goap__px_name(t, t->objects[args[i]].sym) : "?";
    k = snprintf(len < cap ? buf + len : NULL, len < cap ? cap - len : 0, " %s", on);
    len += (size_t)(k > 0 ? k : 0);
  }
  k = snprintf(len < cap ? buf + len : NULL, len < cap ? cap - len : 0, ")");
  len += (size_t)(k > 0 ? k : 0);
  return len;
}
