/*
 * hddl_verify.c -- goap_hddl_verify: checking a total-order HTN plan in the IPC format against
 * the lifted HDDL task, independently of any planner (it never reads the planner's code or
 * data, only the parsed task: actions, compound tasks, methods, the initial task network).
 *
 * Invariants:
 *  - The plan text is read within its length, line by line, into tokens (spans of the text
 *    with their column) and nodes (one per primitive or decomposition line, in line order);
 *    nothing of the text is kept after the call. A malformed text is a GOAP_PARSE_ERROR with
 *    a diagnostic `plan:line:col`; everything that reads but is wrong is an invalid plan
 *    (report->valid 0, the first failure's line, column and message).
 *  - The checks run in a fixed order of phases, each stopping at its first failure in line
 *    order: (1) names, arities, objects and types of every line; (2) the tree: ids defined
 *    once, subtask ids defined, one parent per node, the root line, no cycle, every line
 *    reachable from the root; (3) the root list against the initial task network, then each
 *    decomposition against its method (task arguments, number, kind, names and arguments of
 *    the children in the method's order, parameter types); (4) the tree's left-to-right
 *    primitive order equals the order of the primitive lines; (5) the simulation: the
 *    primitive lines are executed in their order from :init, and before step k the
 *    preconditions of every method whose position is k are tested (position: the number of
 *    primitives before the node in the tree's left-to-right order, i.e. its first primitive's
 *    step, or for a method without primitives the place where it sits); finally the goal.
 *  - The state is a set of ground atoms (static ones included), as in validate.c: atoms are
 *    interned in a tuple set with one truth byte each. Deletes apply before adds.
 *  - Method parameters bound by neither the task nor the children are searched over the
 *    objects of their type in the state of the method's position (a bounded backtracking:
 *    at most VX_MAX_WORK, or the task's smaller max_work, candidate bindings in all per call;
 *    GOAP_TOO_LARGE beyond).
 *  - Every allocation goes through the task's allocator; the task is only read, so one task
 *    may be verified from many threads at once.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "goap/hddl.h"
#include "pddl/pddl_internal.h"

#define VX_MAX_WORK 20000000u /* candidate bindings of free method parameters, per call (or
                                 the task's max_work when lower) */

typedef struct vtok {
  uint32_t off, len;  /* span in the plan text */
  int32_t col;        /* 1-based byte column */
  int32_t sym;        /* the name's symbol, -1 when the text has no such name */
  int32_t num;        /* the value when the token is a number, else -1 */
  int32_t val;        /* resolved: an argument's object id, an id token's node; -1 */
} vtok;

typedef struct vnode {
  int32_t id, line;
  int32_t tok;         /* its id token; the name is tok + 1, the arguments tok + 2 ... */
  int32_t nargs;
  int32_t mtok;        /* decomposition: the method's token; primitive: -1 */
  int32_t kid0, nkids; /* decomposition: its subtask id tokens */
  int32_t what;        /* primitive: schema id; decomposition: compound task id (-1: __top) */
  int32_t method;      /* decomposition: method id (-1 for __top) */
  int32_t parent;      /* -1 none, -2 listed on the root line, else the parent node */
  int32_t pos;         /* primitive: its step (0-based); decomposition: its position */
  int32_t bind0;       /* decomposition: its method's binding, offset in binds */
  int32_t it;          /* traversal scratch */
  uint8_t compound, top, seen, mark;
} vnode;

typedef struct vctx {
  const px_task_core *t;
  const goap_allocator *a;
  const char *name, *text;
  size_t len;
  goap_hddl_report *r;
  goap_error *err;

  vtok *toks;
  size_t ntoks, ctoks;
  vnode *nodes;
  size_t nnodes, cnodes;
  px_ivec prims;       /* primitive nodes in line order (the plan's step order) */
  int32_t root_line, root_tok0, nroots, end_line;
  int64_t *byid;       /* (id << 32 | node), sorted */
  px_ivec order;       /* primitives in the tree's left-to-right order */
  px_ivec comps;       /* decomposition nodes in the tree's preorder */
  px_ivec stack;
  px_ivec binds;       /* method bindings (object ids, -1 unbound) */

  px_aset state;       /* the state: interned atoms and their truth */
  size_t maxp;         /* parameters of the largest method, action or :htn (at least 1) */
  int32_t *pbind, *pfree, *sbind; /* maxp each: a method's binding and free parameters, a
                                     step's binding (the :htn's binding uses pbind) */
  uint64_t work, max_work;
  int failed, too_large;
} vctx;

/* ---- errors ------------------------------------------------------------------------------- */

static goap_status parse_error(vctx *v, int line, int col, const char *fmt, ...) PX_PRINTF(4, 5);
static goap_status parse_error(vctx *v, int line, int col, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  goap__px_fmt(v->r->message, sizeof v->r->message, "%s", msg);
  v->r->line = line;
  v->r->col = col;
  return goap__px_text_error(v->err, v->name, line, col, v->text, v->len, msg);
}

/* Records the first failure of the plan (later ones are ignored); returns 0. */
static int fail(vctx *v, int line, int col, const char *fmt, ...) PX_PRINTF(4, 5);
static int fail(vctx *v, int line, int col, const char *fmt, ...) {
  if (v->failed) return 0;
  v->failed = 1;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(v->r->message, sizeof v->r->message, fmt, ap);
  va_end(ap);
  v->r->line = line;
  v->r->col = col;
  return 0;
}

/* ---- small helpers ------------------------------------------------------------------------ */

static const vtok *tok(const vctx *v, int32_t i) { return &v->toks[i]; }

/* The token's text as "%.*s" arguments. */
#define TOKF(v, i) (int)((v)->toks[i].len > 200 ? 200 : (v)->toks[i].len), (v)->text + (v)->toks[i].off

static const char *obj_name(const px_task_core *t, int32_t o) {
  return o >= 0 && (size_t)o < t->nobjects ? px_name(t, t->objects[o].sym) : "?";
}

/* The argument pool at off (NULL when the pool is empty: 0-ary tasks only). */
static const int32_t *argp(const px_task_core *t, int32_t off) {
  return t->args.v ? t->args.v + off : NULL;
}

static int obj_is_a(const px_task_core *t, int32_t o, int32_t ty) {
  return t->is_a[(size_t)o * t->ntypes + (size_t)ty] != 0;
}

/* A node's line as it reads: "(drive a b)" (names from the task when known). */
static void node_text(const vctx *v, const vnode *n, char *buf, size_t cap) {
  size_t o = 0;
  buf[0] = 0;
  for (int32_t k = 0; k <= n->nargs && o + 1 < cap; ++k) {
    const vtok *x = tok(v, n->tok + 1 + k);
    int w = snprintf(buf + o, cap - o, "%s%.*s", k ? " " : "(", (int)(x->len > 100 ? 100 : x->len),
                     v->text + x->off);
    if (w < 0) break;
    o += (size_t)w;
  }
  if (o + 1 < cap) {
    buf[o++] = ')';
    buf[o] = 0;
  } else if (cap > 0) {
    buf[cap - 1] = 0;
  }
}

/* A lifted subtask as written in the domain: "(get_to ?v ?l)". */
static void step_text(const px_task_core *t, const px_step *s, int32_t pnames, char *buf,
                      size_t cap) {
  int32_t sym = s->task >= 0 ? t->htn.ctasks[s->task].sym : t->schemas[-(s->task + 1)].sym;
  size_t o = 0;
  int w = snprintf(buf, cap, "(%s", px_name(t, sym));
  if (w < 0) return;
  o = (size_t)w < cap ? (size_t)w : cap - 1;
  for (int32_t q = 0; q < s->nargs && o + 1 < cap; ++q) {
    int32_t a = t->args.v[s->args + q];
    const char *nm = a >= 0 ? obj_name(t, a) : pnames >= 0 ? px_name(t, t->args.v[pnames - (a + 1)]) : "?";
    w = snprintf(buf + o, cap - o, " %s", nm);
    if (w < 0) return;
    o += (size_t)w < cap - o ? (size_t)w : cap - o - 1;
  }
  if (o + 1 < cap) {
    buf[o++] = ')';
    buf[o] = 0;
  }
}

/* A literal instantiated with bind ("?x" for an unbound parameter): "(not (at a b))". */
static void lit_text(const px_task_core *t, const px_lit *l, const int32_t *bind, int32_t pnames,
                     char *buf, size_t cap) {
  int n = l->pred == PX_EQ ? 2 : t->preds[l->pred].arity;
  const int32_t *la = argp(t, l->args);
  char atom[400];
  size_t o = 0;
  int w = snprintf(atom, sizeof atom, "(%s", l->pred == PX_EQ ? "=" : px_name(t, t->preds[l->pred].sym));
  o = w > 0 ? (size_t)w : 0;
  for (int i = 0; i < n && o + 1 < sizeof atom; ++i) {
    int32_t a = la[i] >= 0 ? la[i] : bind[-(la[i] + 1)];
    const char *nm = a >= 0 ? obj_name(t, a) : px_name(t, t->args.v[pnames - (la[i] + 1)]);
    w = snprintf(atom + o, sizeof atom - o, " %s", nm);
    if (w < 0) break;
    o += (size_t)w;
  }
  if (o + 1 < sizeof atom) {
    atom[o++] = ')';
    atom[o] = 0;
  } else {
    atom[sizeof atom - 1] = 0;
  }
  if (l->neg) goap__px_fmt(buf, cap, "(not %s)", atom);
  else goap__px_fmt(buf, cap, "%s", atom);
}

/* ---- the state ---------------------------------------------------------------------------- */

static int set_atom(vctx *v, int32_t pred, const int32_t *args, int n, uint8_t val) {
  return goap__px_aset_set(v->a, &v->state, pred, args, n, val);
}

static int holds(const vctx *v, int32_t pred, const int32_t *args, int n) {
  return goap__px_aset_holds(&v->state, pred, args, n);
}

/* 1 true, 0 false, -1 some parameter unbound. */
static int lit_holds(const vctx *v, const px_lit *l, const int32_t *bind) {
  const px_task_core *t = v->t;
  int32_t args[PX_MAX_ARITY];
  int n = l->pred == PX_EQ ? 2 : t->preds[l->pred].arity;
  const int32_t *la = argp(t, l->args);
  for (int q = 0; q < n; ++q) {
    args[q] = la[q] >= 0 ? la[q] : bind[-(la[q] + 1)];
    if (args[q] < 0) return -1;
  }
  int h = l->pred == PX_EQ ? args[0] == args[1] : holds(v, l->pred, args, n);
  return h != !!l->neg;
}

/* ---- reading the plan text ---------------------------------------------------------------- */

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

static int tok_is(const vctx *v, int32_t i, const char *s) {
  size_t n = strlen(s);
  return v->toks[i].len == n && memcmp(v->text + v->toks[i].off, s, n) == 0;
}

static int push_tok(vctx *v, size_t off, size_t len, size_t line_start) {
  if (!goap__grow(v->a, (void **)&v->toks, &v->ctoks, v->ntoks + 1, sizeof *v->toks)) return 0;
  vtok *x = &v->toks[v->ntoks++];
  x->off = (uint32_t)off;
  x->len = (uint32_t)len;
  x->col = (int32_t)(off - line_start) + 1;
  x->val = -1;
  x->num = -1;
  if (len <= 10) {
    int64_t n = 0;
    size_t k = 0;
    while (k < len && v->text[off + k] >= '0' && v->text[off + k] <= '9')
      n = n * 10 + (v->text[off + k++] - '0');
    if (k == len && n <= INT32_MAX) x->num = (int32_t)n;
  }
  x->sym = -1;
  if (len <= PX_MAX_NAME) {
    char name[PX_MAX_NAME + 1];
    for (size_t k = 0; k < len; ++k) {
      char c = v->text[off + k];
      name[k] = (c >= 'A' && c <= 'Z') ? (char)(c + 32) : c;
    }
    name[len] = 0;
    x->sym = goap__px_sym_find(&v->t->syms, name);
  }
  return 1;
}

static goap_status oom(vctx *v) {
  if (v->err) {
    memset(v->err, 0, sizeof *v->err);
    v->err->severity = GOAP_SEVERITY_ERROR;
    v->err->status = GOAP_OUT_OF_MEMORY;
    goap__px_fmt(v->err->file, sizeof v->err->file, "%s", v->name);
    goap__px_fmt(v->err->message, sizeof v->err->message, "out of memory");
  }
  return GOAP_OUT_OF_MEMORY;
}

static goap_status read_plan(vctx *v) {
  const char *s = v->text;
  size_t len = v->len, i = 0;
  int line = 0, started = 0;
  v->root_line = 0;
  v->end_line = 0;
  while (i < len && !v->end_line) {
    ++line;
    size_t ls = i, e = i;
    while (e < len && s[e] != '\n') ++e;
    i = e < len ? e + 1 : e;
    /* tokens up to a ';' comment */
    int32_t t0 = (int32_t)v->ntoks;
    size_t k = ls;
    while (k < e) {
      while (k < e && is_blank(s[k])) ++k;
      if (k >= e || s[k] == ';') break;
      size_t j = k;
      while (j < e && !is_blank(s[j]) && s[j] != ';') ++j;
      if (!push_tok(v, k, j - k, ls)) return oom(v);
      k = j;
    }
    int32_t nt = (int32_t)v->ntoks - t0;
    if (!started) {
      if (nt > 0 && tok_is(v, t0, "==>")) started = 1;
      v->ntoks = (size_t)t0;
      continue;
    }
    if (nt == 0) continue;
    if (tok_is(v, t0, "<==")) {
      v->end_line = line;
      break;
    }
    if (tok_is(v, t0, "root")) {
      if (v->root_line)
        return parse_error(v, line, tok(v, t0)->col, "a second 'root' line (the first is line %d)",
                           v->root_line);
      for (int32_t q = 1; q < nt; ++q)
        if (tok(v, t0 + q)->num < 0)
          return parse_error(v, line, tok(v, t0 + q)->col,
                             "expected an id (a non-negative number) on the root line, found '%.*s'",
                             TOKF(v, t0 + q));
      v->root_line = line;
      v->root_tok0 = t0 + 1;
      v->nroots = nt - 1;
      continue;
    }
    if (tok(v, t0)->num < 0) {
      const vtok *x = tok(v, t0);
      if (x->len > 0 && ((s[x->off] >= '0' && s[x->off] <= '9') || s[x->off] == '-'))
        return parse_error(v, line, x->col, "'%.*s' is not an id (a number from 0 to %d)",
                           TOKF(v, t0), INT32_MAX);
      return parse_error(v, line, x->col,
                         "expected 'ID action ARGS', 'ID task ARGS -> method IDS', 'root IDS' or "
                         "'<==', found '%.*s'",
                         TOKF(v, t0));
    }
    if (nt < 2 || tok_is(v, t0 + 1, "->"))
      return parse_error(v, line, nt < 2 ? tok(v, t0)->col + (int)tok(v, t0)->len : tok(v, t0 + 1)->col,
                         "expected an action or task name after the id");
    if (v->nnodes >= (size_t)INT32_MAX / 2)
      return parse_error(v, line, 1, "too many plan lines");
    if (!goap__grow(v->a, (void **)&v->nodes, &v->cnodes, v->nnodes + 1, sizeof *v->nodes))
      return oom(v);
    vnode *n = &v->nodes[v->nnodes];
    memset(n, 0, sizeof *n);
    n->id = tok(v, t0)->num;
    n->line = line;
    n->tok = t0;
    n->mtok = -1;
    n->what = n->method = -1;
    n->parent = -1;
    int32_t arrow = -1;
    for (int32_t q = 2; q < nt && arrow < 0; ++q)
      if (tok_is(v, t0 + q, "->")) arrow = q;
    if (arrow < 0) {
      n->nargs = nt - 2;
      if (!goap__px_ipush(v->a, &v->prims, (int32_t)v->nnodes)) return oom(v);
    } else {
      n->compound = 1;
      n->nargs = arrow - 2;
      if (arrow + 1 >= nt)
        return parse_error(v, line, tok(v, t0 + arrow)->col + 2, "expected a method name after '->'");
      n->mtok = t0 + arrow + 1;
      if (tok(v, n->mtok)->num >= 0 || tok_is(v, n->mtok, "->"))
        return parse_error(v, line, tok(v, n->mtok)->col, "expected a method name after '->', found '%.*s'",
                           TOKF(v, n->mtok));
      n->kid0 = t0 + arrow + 2;
      n->nkids = nt - arrow - 2;
      for (int32_t q = 0; q < n->nkids; ++q)
        if (tok(v, n->kid0 + q)->num < 0)
          return parse_error(v, line, tok(v, n->kid0 + q)->col,
                             "expected a subtask id (a non-negative number), found '%.*s'",
                             TOKF(v, n->kid0 + q));
    }
    ++v->nnodes;
  }
  if (!started)
    return parse_error(v, line > 0 ? 1 : 0, line > 0 ? 1 : 0,
                       "no '==>' line: an IPC HTN plan starts with '==>'");
  if (!v->end_line) v->end_line = line; /* '<==' is optional: the text may just end */
  if (!v->root_line)
    return parse_error(v, v->end_line, 1, "the plan has no 'root' line");
  return GOAP_OK;
}

/* ---- phase 1: names, arities, objects, types ---------------------------------------------- */

static int check_args(vctx *v, const vnode *n, int32_t ptypes, int32_t pnames, const char *what,
                      int32_t what_sym) {
  const px_task_core *t = v->t;
  for (int32_t q = 0; q < n->nargs; ++q) {
    vtok *x = &v->toks[n->tok + 2 + q];
    int32_t o = px_map_get(&t->obj_of, x->sym);
    if (o < 0)
      return fail(v, n->line, x->col, "%s %d: unknown object '%.*s'",
                  n->compound ? "decomposition" : "primitive", n->id, TOKF(v, n->tok + 2 + q));
    int32_t ty = t->args.v[ptypes + q];
    if (!obj_is_a(t, o, ty)) {
      if (pnames >= 0)
        return fail(v, n->line, x->col, "%s %d: '%s' is not of type '%s' (parameter %s of %s '%s')",
                    n->compound ? "decomposition" : "primitive", n->id, obj_name(t, o),
                    px_name(t, t->types[ty].sym), px_name(t, t->args.v[pnames + q]), what,
                    px_name(t, what_sym));
      return fail(v, n->line, x->col, "%s %d: '%s' is not of type '%s' (argument %d of %s '%s')",
                  n->compound ? "decomposition" : "primitive", n->id, obj_name(t, o),
                  px_name(t, t->types[ty].sym), q + 1, what, px_name(t, what_sym));
    }
    x->val = o;
  }
  return 1;
}

static int check_names(vctx *v) {
  const px_task_core *t = v->t;
  for (size_t i = 0; i < v->nnodes; ++i) {
    vnode *n = &v->nodes[i];
    const vtok *nm = tok(v, n->tok + 1);
    if (!n->compound) {
      int32_t si = px_map_get(&t->schema_of, nm->sym);
      if (si < 0) {
        if (px_map_get(&t->htn.ctask_of, nm->sym) >= 0)
          return fail(v, n->line, nm->col,
                      "primitive %d: '%.*s' is a compound task, not an action (a decomposition "
                      "line needs '-> method IDS')",
                      n->id, TOKF(v, n->tok + 1));
        return fail(v, n->line, nm->col, "primitive %d: unknown action '%.*s'", n->id,
                    TOKF(v, n->tok + 1));
      }
      const px_schema *s = &t->schemas[si];
      if (n->nargs != s->nparams)
        return fail(v, n->line, nm->col, "primitive %d: action '%s' takes %d argument%s, %d given",
                    n->id, px_name(t, s->sym), s->nparams, s->nparams == 1 ? "" : "s", n->nargs);
      n->what = si;
      if (!check_args(v, n, s->ptypes, s->pnames, "action", s->sym)) return 0;
      continue;
    }
    int32_t ct = px_map_get(&t->htn.ctask_of, nm->sym);
    if (ct < 0 && tok_is(v, n->tok + 1, "__top")) {
      if (n->nargs)
        return fail(v, n->line, tok(v, n->tok + 2)->col,
                    "decomposition %d: the artificial task '__top' takes no arguments", n->id);
      n->top = 1;
      continue;
    }
    if (ct < 0) {
      if (px_map_get(&t->schema_of, nm->sym) >= 0)
        return fail(v, n->line, nm->col,
                    "decomposition %d: '%.*s' is an action, not a compound task", n->id,
                    TOKF(v, n->tok + 1));
      return fail(v, n->line, nm->col, "decomposition %d: unknown task '%.*s'", n->id,
                  TOKF(v, n->tok + 1));
    }
    const px_ctask *c = &t->htn.ctasks[ct];
    if (n->nargs != c->nparams)
      return fail(v, n->line, nm->col, "decomposition %d: task '%s' takes %d argument%s, %d given",
                  n->id, px_name(t, c->sym), c->nparams, c->nparams == 1 ? "" : "s", n->nargs);
    n->what = ct;
    if (!check_args(v, n, c->ptypes, -1, "task", c->sym)) return 0;
    const vtok *mt = tok(v, n->mtok);
    int32_t mi = px_map_get(&t->htn.method_of, mt->sym);
    if (mi < 0)
      return fail(v, n->line, mt->col, "decomposition %d: unknown method '%.*s'", n->id,
                  TOKF(v, n->mtok));
    const px_method *m = &t->htn.methods[mi];
    if (m->task != ct)
      return fail(v, n->line, mt->col, "decomposition %d: method '%s' decomposes task '%s', not '%s'",
                  n->id, px_name(t, m->sym), px_name(t, t->htn.ctasks[m->task].sym),
                  px_name(t, c->sym));
    n->method = mi;
  }
  return 1;
}

/* ---- phase 2: the tree -------------------------------------------------------------------- */

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return x < y ? -1 : x > y;
}

/* The node defining id (its first definition), or -1. */
static int32_t find_id(const vctx *v, int32_t id) {
  size_t lo = 0, hi = v->nnodes;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if ((int32_t)(v->byid[mid] >> 32) < id) lo = mid + 1;
    else hi = mid;
  }
  if (lo < v->nnodes && (int32_t)(v->byid[lo] >> 32) == id) return (int32_t)(v->byid[lo] & 0xffffffff);
  return -1;
}

static const char *kind(const vnode *n) { return n->compound ? "decomposition" : "primitive"; }

/* The roots the initial task network is matched against: the root line's ids, or the
 * children of the artificial __top. (token index of the first, count) */
static void roots(const vctx *v, int32_t *tok0, int32_t *count) {
  *tok0 = v->root_tok0;
  *count = v->nroots;
  if (v->nroots == 1) {
    const vnode *r = &v->nodes[tok(v, v->root_tok0)->val];
    if (r->top) {
      *tok0 = r->kid0;
      *count = r->nkids;
    }
  }
}

static int check_tree(vctx *v) {
  size_t nn = v->nnodes;
  /* ids defined once */
  v->byid = (int64_t *)goap__px_alloc(v->a, (nn ? nn : 1) * sizeof *v->byid);
  if (!v->byid) return -1;
  for (size_t i = 0; i < nn; ++i) v->byid[i] = ((int64_t)v->nodes[i].id << 32) | (int64_t)i;
  qsort(v->byid, nn, sizeof *v->byid, cmp_i64);
  int32_t dup = -1;
  for (size_t i = 1; i < nn; ++i)
    if ((v->byid[i] >> 32) == (v->byid[i - 1] >> 32)) {
      int32_t second = (int32_t)(v->byid[i] & 0xffffffff);
      if (dup < 0 || second < dup) dup = second;
    }
  if (dup >= 0) {
    const vnode *n = &v->nodes[dup];
    const vnode *first = &v->nodes[find_id(v, n->id)];
    return fail(v, n->line, tok(v, n->tok)->col, "id %d is defined twice (first on line %d)", n->id,
                first->line);
  }
  /* the root line, then every decomposition's subtasks: defined, one parent each */
  for (int32_t q = 0; q < v->nroots; ++q) {
    vtok *x = &v->toks[v->root_tok0 + q];
    int32_t k = find_id(v, x->num);
    if (k < 0) return fail(v, v->root_line, x->col, "root: id %d is not defined", x->num);
    if (v->nodes[k].parent != -1) return fail(v, v->root_line, x->col, "root: id %d is listed twice", x->num);
    v->nodes[k].parent = -2;
    x->val = k;
  }
  for (size_t i = 0; i < nn; ++i) {
    vnode *n = &v->nodes[i];
    for (int32_t q = 0; q < n->nkids; ++q) {
      vtok *x = &v->toks[n->kid0 + q];
      int32_t k = find_id(v, x->num);
      if (k < 0)
        return fail(v, n->line, x->col, "decomposition %d: subtask id %d is not defined", n->id, x->num);
      vnode *c = &v->nodes[k];
      if (c->parent == -2)
        return fail(v, n->line, x->col,
                    "decomposition %d: id %d is on the root line (line %d), it cannot also be a subtask",
                    n->id, x->num, v->root_line);
      if (c->parent >= 0) {
        const vnode *p = &v->nodes[c->parent];
        if (p == n)
          return fail(v, n->line, x->col, "decomposition %d: subtask id %d is listed twice", n->id, x->num);
        return fail(v, n->line, x->col, "decomposition %d: %s %d is already a subtask of decomposition %d (line %d)",
                    n->id, kind(c), x->num, p->id, p->line);
      }
      c->parent = (int32_t)i;
      x->val = k;
    }
  }
  /* the artificial top: only as the single root */
  for (size_t i = 0; i < nn; ++i) {
    const vnode *n = &v->nodes[i];
    if (n->top && !(v->nroots == 1 && tok(v, v->root_tok0)->val == (int32_t)i))
      return fail(v, n->line, tok(v, n->tok + 1)->col,
                  "decomposition %d: the artificial task '__top' must be the only id on the root line",
                  n->id);
  }
  /* left-to-right traversal from the roots (preorder): the primitive order and positions */
  for (int32_t q = 0; q < v->nroots; ++q) {
    if (!goap__px_ipush(v->a, &v->stack, tok(v, v->root_tok0 + q)->val)) return -1;
    while (v->stack.n) {
      vnode *n = &v->nodes[v->stack.v[v->stack.n - 1]];
      if (!n->seen) {
        n->seen = 1;
        n->it = 0;
        if (!n->compound) {
          n->pos = (int32_t)v->order.n;
          if (!goap__px_ipush(v->a, &v->order, v->stack.v[v->stack.n - 1])) return -1;
          --v->stack.n;
          continue;
        }
        n->pos = (int32_t)v->order.n;
        if (!goap__px_ipush(v->a, &v->comps, v->stack.v[v->stack.n - 1])) return -1;
      }
      if (n->it < n->nkids) {
        int32_t k = tok(v, n->kid0 + n->it++)->val;
        if (!goap__px_ipush(v->a, &v->stack, k)) return -1;
      } else {
        --v->stack.n;
      }
    }
  }
  /* what the traversal missed: cycles first (each node has one parent, so the nodes not
   * reached either lie on a cycle of parents, have no parent, or descend from such a node) */
  int32_t cyc = -1;
  for (size_t i = 0; i < nn; ++i) {
    if (v->nodes[i].seen || v->nodes[i].mark) continue;
    int32_t j = (int32_t)i;
    while (j >= 0 && !v->nodes[j].seen && !v->nodes[j].mark) {
      v->nodes[j].mark = 1; /* on this walk */
      v->nodes[j].it = (int32_t)i;
      j = v->nodes[j].parent;
    }
    if (j >= 0 && v->nodes[j].mark == 1 && v->nodes[j].it == (int32_t)i) {
      /* j is on a cycle: its smallest line */
      int32_t k = j;
      do {
        if (cyc < 0 || k < cyc) cyc = k;
        k = v->nodes[k].parent;
      } while (k != j);
    }
    for (j = (int32_t)i; j >= 0 && v->nodes[j].mark == 1; j = v->nodes[j].parent) v->nodes[j].mark = 2;
  }
  if (cyc >= 0) {
    const vnode *n = &v->nodes[cyc];
    const vnode *p = &v->nodes[n->parent];
    return fail(v, n->line, tok(v, n->tok)->col,
                "%s %d is on a cycle of subtasks (its parent is decomposition %d, line %d, which "
                "descends from it)",
                kind(n), n->id, p->id, p->line);
  }
  for (size_t i = 0; i < nn; ++i) {
    const vnode *n = &v->nodes[i];
    if (n->seen || n->parent != -1) continue;
    if (!n->compound)
      return fail(v, n->line, tok(v, n->tok)->col,
                  "primitive %d is not used: no decomposition and not the root line lists it", n->id);
    return fail(v, n->line, tok(v, n->tok)->col,
                "decomposition %d is not reachable from the root: no decomposition and not the root "
                "line lists it",
                n->id);
  }
  return 1;
}

/* ---- phase 3: the root network and each method's binding ---------------------------------- */

/* Matches node k against subtask s under bind (parameter types at ptypes, names at pnames);
 * binds what is unbound. 0 with a reason in why. */
static int match_step(vctx *v, const px_step *s, int32_t *bind, int32_t ptypes, int32_t pnames,
                      const vnode *c, char *why, size_t cap) {
  const px_task_core *t = v->t;
  if (s->task >= 0 ? (!c->compound || c->top || c->what != s->task)
                   : (c->compound || c->what != -(s->task + 1))) {
    goap__px_fmt(why, cap, "it is %s '%.*s' (line %d)", c->compound ? "task" : "action",
                 TOKF(v, c->tok + 1), c->line);
    return 0;
  }
  for (int32_t q = 0; q < s->nargs; ++q) {
    int32_t a = t->args.v[s->args + q];
    int32_t o = tok(v, c->tok + 2 + q)->val;
    if (a >= 0) {
      if (o != a) {
        goap__px_fmt(why, cap, "its argument %d is '%s', not the constant '%s'", q + 1, obj_name(t, o),
                     obj_name(t, a));
        return 0;
      }
      continue;
    }
    int32_t p = -(a + 1);
    const char *pn = pnames >= 0 ? px_name(t, t->args.v[pnames + p]) : "?";
    if (bind[p] < 0) {
      int32_t ty = t->args.v[ptypes + p];
      if (!obj_is_a(t, o, ty)) {
        goap__px_fmt(why, cap, "its argument %d '%s' is not of type '%s' (parameter %s)", q + 1,
                     obj_name(t, o), px_name(t, t->types[ty].sym), pn);
        return 0;
      }
      bind[p] = o;
    } else if (bind[p] != o) {
      goap__px_fmt(why, cap, "its argument %d is '%s', but %s is '%s'", q + 1, obj_name(t, o), pn,
                   obj_name(t, bind[p]));
      return 0;
    }
  }
  return 1;
}

static int check_methods(vctx *v) {
  const px_task_core *t = v->t;
  const px_htn *h = &t->htn;
  char why[300], st[300];
  /* the root line (or __top's subtasks) against the initial task network */
  int32_t r0, nr;
  roots(v, &r0, &nr);
  int32_t rline = v->root_line, rcol = tok(v, v->root_tok0 - 1)->col;
  if (nr != v->nroots) {
    const vnode *top = &v->nodes[tok(v, v->root_tok0)->val];
    rline = top->line;
    rcol = tok(v, top->tok)->col;
  }
  if (nr != h->top_nsteps)
    return fail(v, rline, rcol, "root: the initial task network has %d task%s, %d given",
                h->top_nsteps, h->top_nsteps == 1 ? "" : "s", nr);
  int32_t *tbind = v->pbind;
  for (size_t p = 0; p < v->maxp; ++p) tbind[p] = -1;
  for (int32_t q = 0; q < nr; ++q) {
    const px_step *s = &h->steps[h->top_step0 + q];
    const vnode *c = &v->nodes[tok(v, r0 + q)->val];
    if (!match_step(v, s, tbind, h->top_ptypes, h->top_nparams ? h->top_pnames : -1, c, why, sizeof why)) {
      step_text(t, s, h->top_nparams ? h->top_pnames : -1, st, sizeof st);
      return fail(v, rline, tok(v, r0 + q)->col,
                  "root: id %d does not match task %d %s of the initial task network: %s",
                  c->id, q + 1, st, why);
    }
  }
  /* each decomposition, in line order */
  for (size_t i = 0; i < v->nnodes; ++i) {
    vnode *n = &v->nodes[i];
    if (!n->compound || n->top) continue;
    const px_method *m = &h->methods[n->method];
    n->bind0 = (int32_t)v->binds.n;
    for (int32_t p = 0; p < m->nparams; ++p)
      if (!goap__px_ipush(v->a, &v->binds, -1)) return -1;
    int32_t *bind = v->binds.v ? v->binds.v + n->bind0 : NULL;
    for (int32_t q = 0; q < n->nargs; ++q) {
      int32_t a = t->args.v[m->targs + q];
      const vtok *x = tok(v, n->tok + 2 + q);
      int32_t o = x->val;
      if (a >= 0) {
        if (a != o)
          return fail(v, n->line, x->col,
                      "decomposition %d: method '%s' decomposes task '%s' with argument %d '%s', "
                      "not '%s'",
                      n->id, px_name(t, m->sym), px_name(t, t->htn.ctasks[m->task].sym), q + 1,
                      obj_name(t, a), obj_name(t, o));
        continue;
      }
      int32_t p = -(a + 1), ty = t->args.v[m->ptypes + p];
      if (bind[p] >= 0 && bind[p] != o)
        return fail(v, n->line, x->col,
                    "decomposition %d: argument %d '%s' conflicts with %s = '%s' of method '%s'",
                    n->id, q + 1, obj_name(t, o), px_name(t, t->args.v[m->pnames + p]),
                    obj_name(t, bind[p]), px_name(t, m->sym));
      if (!obj_is_a(t, o, ty))
        return fail(v, n->line, x->col,
                    "decomposition %d: '%s' is not of type '%s' (parameter %s of method '%s')",
                    n->id, obj_name(t, o), px_name(t, t->types[ty].sym),
                    px_name(t, t->args.v[m->pnames + p]), px_name(t, m->sym));
      bind[p] = o;
    }
    if (n->nkids != m->nsteps)
      return fail(v, n->line, tok(v, n->mtok)->col,
                  "decomposition %d: method '%s' has %d subtask%s, %d given", n->id,
                  px_name(t, m->sym), m->nsteps, m->nsteps == 1 ? "" : "s", n->nkids);
    for (int32_t q = 0; q < n->nkids; ++q) {
      const px_step *s = &h->steps[m->step0 + q];
      const vnode *c = &v->nodes[tok(v, n->kid0 + q)->val];
      if (!match_step(v, s, bind, m->ptypes, m->pnames, c, why, sizeof why)) {
        step_text(t, s, m->pnames, st, sizeof st);
        return fail(v, n->line, tok(v, n->kid0 + q)->col,
                    "decomposition %d: subtask %d (id %d) does not match %s, subtask %d of method "
                    "'%s': %s",
                    n->id, q + 1, c->id, st, q + 1, px_name(t, m->sym), why);
      }
    }
  }
  return 1;
}

/* ---- phase 4: the order ------------------------------------------------------------------- */

static int check_order(vctx *v) {
  for (size_t k = 0; k < v->prims.n; ++k) {
    if (v->order.v[k] == v->prims.v[k]) continue;
    const vnode *n = &v->nodes[v->prims.v[k]], *o = &v->nodes[v->order.v[k]];
    return fail(v, n->line, tok(v, n->tok)->col,
                "step %zu (primitive %d) is out of order: the decomposition tree's step %zu is "
                "primitive %d (line %d)",
                k + 1, n->id, k + 1, o->id, o->line);
  }
  return 1;
}

/* ---- phase 5: execution and method preconditions ----------------------------------------- */

/* Backtracking over the free parameters free[d..]: 1 when a binding satisfies every literal. */
static int bind_free(vctx *v, const px_method *m, int32_t *bind, const int32_t *freep, int nfree, int d) {
  const px_task_core *t = v->t;
  if (++v->work > v->max_work) {
    v->too_large = 1;
    return 0;
  }
  for (int32_t k = 0; k < m->nlits; ++k) {
    const px_lit *l = &t->lits[m->lit0 + k];
    if (l->kind == PX_LIT_PRE && lit_holds(v, l, bind) == 0) return 0;
  }
  if (d == nfree) return 1;
  int32_t p = freep[d], ty = t->args.v[m->ptypes + p];
  for (size_t o = 0; o < t->nobjects; ++o) {
    if (!obj_is_a(t, (int32_t)o, ty)) continue;
    bind[p] = (int32_t)o;
    if (bind_free(v, m, bind, freep, nfree, d + 1)) return 1;
    if (v->too_large) break;
  }
  bind[p] = -1;
  return 0;
}

static void where(const vctx *v, int32_t pos, char *buf, size_t cap) {
  if ((size_t)pos < v->prims.n)
    goap__px_fmt(buf, cap, "before step %d (primitive %d)", pos + 1, v->nodes[v->prims.v[pos]].id);
  else
    goap__px_fmt(buf, cap, "at the end of the plan");
}

static int check_method_pre(vctx *v, vnode *n) {
  const px_task_core *t = v->t;
  const px_method *m = &t->htn.methods[n->method];
  int32_t *bind = v->pbind, *freep = v->pfree;
  int nfree = 0;
  for (int32_t p = 0; p < m->nparams; ++p) {
    bind[p] = v->binds.v[n->bind0 + p];
    if (bind[p] < 0) freep[nfree++] = p;
  }
  char lt[400], w[100], nt[300];
  for (int32_t k = 0; k < m->nlits; ++k) {
    const px_lit *l = &t->lits[m->lit0 + k];
    if (l->kind != PX_LIT_PRE || lit_holds(v, l, bind) != 0) continue;
    lit_text(t, l, bind, m->pnames, lt, sizeof lt);
    where(v, n->pos, w, sizeof w);
    node_text(v, n, nt, sizeof nt);
    return fail(v, n->line, tok(v, n->tok)->col,
                "decomposition %d %s: precondition %s of method '%s' does not hold %s", n->id, nt, lt,
                px_name(t, m->sym), w);
  }
  if (!nfree) return 1;
  if (bind_free(v, m, bind, freep, nfree, 0)) return 1;
  if (v->too_large) return -2;
  char names[300];
  size_t o = 0;
  names[0] = 0;
  for (int f = 0; f < nfree && o + 1 < sizeof names; ++f) {
    int wr = snprintf(names + o, sizeof names - o, "%s%s", f ? " " : "",
                      px_name(t, t->args.v[m->pnames + freep[f]]));
    if (wr < 0) break;
    o += (size_t)wr;
  }
  where(v, n->pos, w, sizeof w);
  node_text(v, n, nt, sizeof nt);
  return fail(v, n->line, tok(v, n->tok)->col,
              "decomposition %d %s: no binding of %s makes the preconditions of method '%s' hold %s",
              n->id, nt, names, px_name(t, m->sym), w);
}

static int apply_step(vctx *v, size_t k) {
  const px_task_core *t = v->t;
  const vnode *n = &v->nodes[v->prims.v[k]];
  const px_schema *s = &t->schemas[n->what];
  int32_t *bind = v->sbind;
  for (int32_t q = 0; q < s->nparams; ++q) bind[q] = tok(v, n->tok + 2 + q)->val;
  char lt[400], nt[300];
  for (int32_t j = 0; j < s->nlits; ++j) {
    const px_lit *l = &t->lits[s->lit0 + j];
    if (l->kind != PX_LIT_PRE || lit_holds(v, l, bind)) continue;
    lit_text(t, l, bind, s->pnames, lt, sizeof lt);
    node_text(v, n, nt, sizeof nt);
    return fail(v, n->line, tok(v, n->tok)->col, "step %zu (primitive %d) %s: precondition %s does not hold",
                k + 1, n->id, nt, lt);
  }
  for (int pass = 0; pass < 2; ++pass)
    for (int32_t j = 0; j < s->nlits; ++j) {
      const px_lit *l = &t->lits[s->lit0 + j];
      if (l->kind != (pass == 0 ? PX_LIT_DEL : PX_LIT_ADD)) continue;
      int32_t args[PX_MAX_ARITY];
      int na = t->preds[l->pred].arity;
      const int32_t *la = argp(t, l->args);
      for (int q = 0; q < na; ++q) args[q] = la[q] >= 0 ? la[q] : bind[-(la[q] + 1)];
      if (!set_atom(v, l->pred, args, na, pass == 1)) return -1;
    }
  return 1;
}

static int execute(vctx *v) {
  const px_task_core *t = v->t;
  for (size_t i = 0; i + 1 < t->init.n; i += 2) {
    int32_t p = t->init.v[i];
    if (!set_atom(v, p, argp(t, t->init.v[i + 1]), t->preds[p].arity, 1)) return -1;
  }
  size_t c = 0;
  for (size_t k = 0; k <= v->prims.n; ++k) {
    for (; c < v->comps.n && (size_t)v->nodes[v->comps.v[c]].pos == k; ++c) {
      vnode *n = &v->nodes[v->comps.v[c]];
      if (n->top) continue;
      int rc = check_method_pre(v, n);
      if (rc != 1) return rc;
    }
    if (k == v->prims.n) break;
    int rc = apply_step(v, k);
    if (rc != 1) return rc;
  }
  char lt[400];
  for (int32_t k = 0; k < t->ngoal; ++k) {
    const px_lit *l = &t->lits[t->goal0 + k];
    if (lit_holds(v, l, NULL)) continue;
    lit_text(t, l, NULL, -1, lt, sizeof lt);
    return fail(v, v->end_line, 1, "the goal %s does not hold after the %zu step%s", lt, v->prims.n,
                v->prims.n == 1 ? "" : "s");
  }
  return 1;
}

/* ---- entry point -------------------------------------------------------------------------- */

static void free_ctx(vctx *v) {
  goap__px_free(v->a, v->toks, v->ctoks * sizeof *v->toks);
  goap__px_free(v->a, v->nodes, v->cnodes * sizeof *v->nodes);
  goap__px_free(v->a, v->byid, (v->nnodes ? v->nnodes : 1) * sizeof *v->byid);
  goap__px_ivec_free(v->a, &v->prims);
  goap__px_ivec_free(v->a, &v->order);
  goap__px_ivec_free(v->a, &v->comps);
  goap__px_ivec_free(v->a, &v->stack);
  goap__px_ivec_free(v->a, &v->binds);
  goap__px_aset_free(v->a, &v->state);
  goap__px_free(v->a, v->pbind, v->maxp * sizeof *v->pbind);
  goap__px_free(v->a, v->pfree, v->maxp * sizeof *v->pfree);
  goap__px_free(v->a, v->sbind, v->maxp * sizeof *v->sbind);
}

/* Sizes the binding buffers from the task; 0 when out of memory. */
static int alloc_binds(vctx *v) {
  const px_task_core *t = v->t;
  v->maxp = (size_t)t->htn.top_nparams;
  for (size_t m = 0; m < t->htn.nmethods; ++m)
    if ((size_t)t->htn.methods[m].nparams > v->maxp) v->maxp = (size_t)t->htn.methods[m].nparams;
  for (size_t s = 0; s < t->nschemas; ++s)
    if ((size_t)t->schemas[s].nparams > v->maxp) v->maxp = (size_t)t->schemas[s].nparams;
  if (v->maxp == 0) v->maxp = 1;
  v->pbind = (int32_t *)goap__px_alloc(v->a, v->maxp * sizeof *v->pbind);
  v->pfree = (int32_t *)goap__px_alloc(v->a, v->maxp * sizeof *v->pfree);
  v->sbind = (int32_t *)goap__px_alloc(v->a, v->maxp * sizeof *v->sbind);
  return v->pbind && v->pfree && v->sbind;
}

goap_status goap_hddl_verify(const goap_pddl_task *task, const char *plan_name,
                             const char *text, size_t len, goap_hddl_report *r, goap_error *err) {
  if (err) memset(err, 0, sizeof *err);
  if (r) memset(r, 0, sizeof *r);
  if (!task || !r || !text || !goap_hddl_is_htn(task)) {
    if (err) {
      err->status = GOAP_INVALID_ARGUMENT;
      goap__px_fmt(err->message, sizeof err->message, "%s",
                   task && r && text ? "the task is not an HDDL problem (GOAP_PDDL_HTN and an :htn)"
                                     : "NULL argument");
    }
    return GOAP_INVALID_ARGUMENT;
  }
  const px_task_core *t = &task->c;
  vctx v;
  memset(&v, 0, sizeof v);
  v.t = t;
  v.a = &t->alloc;
  v.name = plan_name ? plan_name : "<plan>";
  v.text = text;
  v.len = len;
  v.r = r;
  v.err = err;
  v.max_work = t->opt.max_work < VX_MAX_WORK ? t->opt.max_work : VX_MAX_WORK;
  if (len > t->opt.max_bytes || len > (size_t)UINT32_MAX - 1) {
    if (err) {
      err->status = GOAP_TOO_LARGE;
      goap__px_fmt(err->file, sizeof err->file, "%s", v.name);
      goap__px_fmt(err->message, sizeof err->message,
                   "the plan is %zu bytes, more than the %zu allowed", len, t->opt.max_bytes);
    }
    return GOAP_TOO_LARGE;
  }
  goap_status st = alloc_binds(&v) ? read_plan(&v) : oom(&v);
  if (st == GOAP_OK) {
    r->primitives = (int)v.prims.n;
    r->compounds = (int)(v.nnodes - v.prims.n);
    int rc = check_names(&v);
    if (rc == 1) rc = check_tree(&v);
    if (rc == 1) rc = check_methods(&v);
    if (rc == 1) rc = check_order(&v);
    if (rc == 1) rc = execute(&v);
    if (rc == -1) {
      st = oom(&v);
    } else if (rc == -2) {
      st = GOAP_TOO_LARGE;
      if (err) {
        err->severity = GOAP_SEVERITY_ERROR;
        err->status = st;
        goap__px_fmt(err->file, sizeof err->file, "%s", v.name);
        goap__px_fmt(err->message, sizeof err->message,
                     "binding methods' free parameters tried more than %llu candidates",
                     (unsigned long long)v.max_work);
      }
    } else {
      r->valid = rc == 1;
    }
  }
  if (st != GOAP_OK || r->valid) {
    if (st != GOAP_OK && st != GOAP_PARSE_ERROR) {
      r->message[0] = 0;
      r->line = r->col = 0;
    }
    if (r->valid) {
      r->message[0] = 0;
      r->line = r->col = 0;
    }
  }
  free_ctx(&v);
  return st;
}
