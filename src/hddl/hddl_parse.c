/*
 * hddl_parse.c -- the HDDL part of the front end: compound tasks (:task), methods (:method)
 * and the problem's initial task network (:htn), lifted, into goap__px_htn (see internal.h).
 *
 * Invariants:
 *  - Only total-order HDDL: :ordered-subtasks / :ordered-tasks as written, or :subtasks /
 *    :tasks with an :ordering that is a total order (checked: no cycle, no two unordered
 *    subtasks); the subtasks are stored in that order. Every other construct (partial order,
 *    method :constraints, exists in preconditions, ...) is rejected with its name and
 *    position, never ignored. Preconditions are read by parse.c (forall included).
 *  - No fixed limit on parameters or subtasks: their tables grow through the allocator.
 *  - Called after the actions are parsed (tasks, then methods, then the :htn), so a subtask
 *    may name any action or task whatever the order of the sections in the text.
 *  - A subtask's head resolves to exactly one thing: a compound task (id >= 0) or an action
 *    (-(schema + 1)); task and action names are disjoint (checked), and its argument count is
 *    the arity of what it names (checked).
 *  - Every allocation goes through the task's allocator; the first error wins (goap__px_error).
 */
#include <stdlib.h>
#include <string.h>

#include "pddl/pddl_internal.h"

#define N(i) (&t->nodes[(i)])
#define OOM(t, n) goap__px_error((t), (n), GOAP_OUT_OF_MEMORY, "out of memory")

static const char *nm(const goap__px_task_core *t, int32_t n) {
  return N(n)->list ? "(...)" : goap__px_name(t, N(n)->sym);
}

static int is_atom(const goap__px_task_core *t, int32_t n, const char *name) {
  return n >= 0 && !N(n)->list && strcmp(goap__px_name(t, N(n)->sym), name) == 0;
}

static const char *head(const goap__px_task_core *t, int32_t n) {
  if (n < 0 || !N(n)->list || N(n)->first < 0) return "";
  int32_t h = N(n)->first;
  return N(h)->list ? "" : goap__px_name(t, N(h)->sym);
}

static int32_t child(const goap__px_task_core *t, int32_t n, int k) {
  int32_t c = N(n)->first;
  while (c >= 0 && k-- > 0) c = N(c)->next;
  return c;
}

static int is_var(const goap__px_task_core *t, int32_t n) {
  return !N(n)->list && goap__px_name(t, N(n)->sym)[0] == '?';
}

void goap__px_htn_free(goap__px_task_core *t) {
  const goap_allocator *a = &t->alloc;
  goap__px_htn *h = &t->htn;
  goap__free(a, h->ctasks, h->cctasks * sizeof *h->ctasks);
  goap__free(a, h->methods, h->cmethods * sizeof *h->methods);
  goap__free(a, h->steps, h->csteps * sizeof *h->steps);
  goap__px_ivec_free(a, &h->ctask_of);
  goap__px_ivec_free(a, &h->method_of);
  h->ctasks = NULL;
  h->methods = NULL;
  h->steps = NULL;
  h->nctasks = h->cctasks = h->nmethods = h->cmethods = h->nsteps = h->csteps = 0;
}

/* The names of what a subtask may call, for "did you mean". */
static int32_t suggest_callable(goap__px_task_core *t, int32_t sym) {
  size_t n = t->htn.nctasks + t->nschemas;
  int32_t *c = (int32_t *)goap__alloc(&t->alloc, (n ? n : 1) * sizeof *c);
  if (!c) return -1;
  size_t k = 0;
  for (size_t i = 0; i < t->htn.nctasks; ++i) c[k++] = t->htn.ctasks[i].sym;
  for (size_t i = 0; i < t->nschemas; ++i) c[k++] = t->schemas[i].sym;
  int32_t s = goap__px_suggest(t, sym, c, k);
  goap__free(&t->alloc, c, (n ? n : 1) * sizeof *c);
  return s;
}

/* Pushes the types, then the names, of a parameter list; ptypes and pnames get offsets. */
static goap_status push_params(goap__px_task_core *t, int32_t node, const int32_t *syms,
                               const int32_t *types, int n, int32_t *ptypes, int32_t *pnames) {
  *ptypes = (int32_t)t->args.n;
  for (int i = 0; i < n; ++i)
    if (!goap__px_ipush(&t->alloc, &t->args, types[i])) return OOM(t, node);
  *pnames = (int32_t)t->args.n;
  for (int i = 0; i < n; ++i)
    if (!goap__px_ipush(&t->alloc, &t->args, syms[i])) return OOM(t, node);
  return GOAP_OK;
}

/* ---- (:task NAME :parameters (...)) --------------------------------------------------- */

goap_status goap__px_parse_ctask(goap__px_task_core *t, int32_t sec) {
  goap__px_htn *h = &t->htn;
  h->hddl = 1;
  int32_t name = child(t, sec, 1);
  if (name < 0 || N(name)->list || is_var(t, name) || nm(t, name)[0] == ':')
    return goap__px_error(t, name < 0 ? sec : name, GOAP_PARSE_ERROR,
                          "expected the task's name after ':task'");
  if (goap__px_map_get(&h->ctask_of, N(name)->sym) >= 0)
    return goap__px_error(t, name, GOAP_DUPLICATE, "task '%s' is declared twice", nm(t, name));
  if (goap__px_map_get(&t->schema_of, N(name)->sym) >= 0)
    return goap__px_error(t, name, GOAP_DUPLICATE,
                          "task '%s' has the name of an action (a name is a task or an action)",
                          nm(t, name));
  int32_t params = -1;
  for (int32_t k = N(name)->next; k >= 0; k = N(k)->next) {
    int32_t v = N(k)->next;
    if (!is_atom(t, k, ":parameters"))
      return goap__px_error(t, k, GOAP_PARSE_ERROR, "expected ':parameters' in a task declaration, found '%s'", nm(t, k));
    if (v < 0) return goap__px_error(t, k, GOAP_PARSE_ERROR, "':parameters' needs a value");
    params = v;
    k = v;
  }
  int32_t *syms = NULL, *types = NULL;
  int np = 0;
  if (params >= 0 && goap__px_params(t, params, &syms, &types, &np) != GOAP_OK) return t->status;
  goap__px_ctask c;
  c.sym = N(name)->sym;
  c.node = name;
  c.nparams = np;
  c.ptypes = (int32_t)t->args.n;
  goap_status st = GOAP_OK;
  for (int i = 0; i < np && st == GOAP_OK; ++i)
    if (!goap__px_ipush(&t->alloc, &t->args, types[i])) st = OOM(t, sec);
  goap__px_params_free(t, syms, types, np);
  if (st != GOAP_OK) return st;
  if (!goap__grow(&t->alloc, (void **)&h->ctasks, &h->cctasks, h->nctasks + 1, sizeof *h->ctasks))
    return OOM(t, sec);
  int32_t id = (int32_t)h->nctasks;
  h->ctasks[h->nctasks++] = c;
  if (!goap__px_map_set(&t->alloc, &h->ctask_of, c.sym, id)) return OOM(t, sec);
  return GOAP_OK;
}

/* ---- task networks -------------------------------------------------------------------- */

typedef struct netctx {
  const int32_t *syms; /* parameters in scope */
  int np;
  const char *what;    /* "method" or "task network" */
} netctx;

/* One call `(name args...)` -> a new step (label given). */
static goap_status add_step(goap__px_task_core *t, int32_t call, int32_t label, const netctx *c) {
  goap__px_htn *h = &t->htn;
  if (!N(call)->list || N(call)->first < 0 || N(N(call)->first)->list)
    return goap__px_error(t, call, GOAP_PARSE_ERROR,
                          "expected a subtask '(task arg ...)' or '(label (task arg ...))'");
  int32_t hn = N(call)->first;
  int32_t sym = N(hn)->sym;
  int32_t task, arity;
  int32_t ct = goap__px_map_get(&h->ctask_of, sym), sc = goap__px_map_get(&t->schema_of, sym);
  if (ct >= 0) {
    task = ct;
    arity = h->ctasks[ct].nparams;
  } else if (sc >= 0) {
    task = -(sc + 1);
    arity = t->schemas[sc].nparams;
  } else {
    int32_t s = suggest_callable(t, sym);
    if (s >= 0)
      return goap__px_error(t, hn, GOAP_NOT_FOUND,
                            "unknown task or action '%s' in a subtask (did you mean '%s'?)",
                            nm(t, hn), goap__px_name(t, s));
    return goap__px_error(t, hn, GOAP_NOT_FOUND, "unknown task or action '%s' in a subtask",
                          nm(t, hn));
  }
  if (N(call)->count - 1 != arity)
    return goap__px_error(t, call, GOAP_TYPE_MISMATCH, "'%s' takes %d argument%s, %d given",
                          nm(t, hn), arity, arity == 1 ? "" : "s", N(call)->count - 1);
  if (!goap__grow(&t->alloc, (void **)&h->steps, &h->csteps, h->nsteps + 1, sizeof *h->steps))
    return OOM(t, call);
  goap__px_step st;
  st.label = label;
  st.task = task;
  st.args = (int32_t)t->args.n;
  st.nargs = arity;
  st.node = call;
  for (int32_t a = N(hn)->next; a >= 0; a = N(a)->next) {
    int32_t v = goap__px_term(t, a, c->syms, c->np, c->what);
    if (v == INT32_MIN) return t->status;
    if (!goap__px_ipush(&t->alloc, &t->args, v)) return OOM(t, a);
  }
  h->steps[h->nsteps++] = st;
  return GOAP_OK;
}

/* The items of `(and x y ...)`, of `x` alone, or of `()`: first item and count. */
static int32_t items(const goap__px_task_core *t, int32_t n, int *count) {
  if (!N(n)->list) {
    *count = 1;
    return n;
  }
  if (N(n)->first < 0) {
    *count = 0;
    return -1;
  }
  if (strcmp(head(t, n), "and") == 0) {
    *count = N(n)->count - 1;
    return N(N(n)->first)->next;
  }
  *count = 1;
  return n;
}

/* Orders the steps [s0, s0 + n) by the :ordering node `ord` (a total order required). */
static goap_status order_steps(goap__px_task_core *t, int32_t s0, int n, int32_t ord, int32_t where) {
  goap__px_htn *h = &t->htn;
  if (n <= 1 && ord < 0) return GOAP_OK;
  if (ord < 0)
    return goap__px_error(t, where, GOAP_PARSE_ERROR,
                          "unsupported construct: subtasks without an ':ordering' (partial-order "
                          "HDDL; use ':ordered-subtasks' or a total ':ordering')");
  if (n > 0 && (size_t)n > SIZE_MAX / (size_t)n)
    return goap__px_error(t, ord, GOAP_TOO_LARGE, "too many subtasks to order");
  size_t cells = (size_t)n * (size_t)n;
  uint8_t *before = (uint8_t *)goap__alloc(&t->alloc, cells ? cells : 1);
  int32_t *indeg = (int32_t *)goap__alloc(&t->alloc, (size_t)(n ? n : 1) * sizeof *indeg);
  goap__px_step *tmp = (goap__px_step *)goap__alloc(&t->alloc, (size_t)(n ? n : 1) * sizeof *tmp);
  goap_status st = GOAP_OK;
  if (!before || !indeg || !tmp) {
    st = OOM(t, ord);
    goto done;
  }
  memset(before, 0, cells ? cells : 1);
  memset(indeg, 0, (size_t)(n ? n : 1) * sizeof *indeg);
  int cnt = 0;
  for (int32_t c = items(t, ord, &cnt); c >= 0 && cnt > 0; c = N(c)->next, --cnt) {
    const char *op = head(t, c);
    if (!N(c)->list || N(c)->count != 3 || (strcmp(op, "<") != 0 && strcmp(op, ">") != 0)) {
      st = goap__px_error(t, c, GOAP_PARSE_ERROR,
                          "expected an ordering constraint '(< label1 label2)'");
      goto done;
    }
    int32_t ln[2] = {child(t, c, 1), child(t, c, 2)};
    int idx[2] = {-1, -1};
    for (int k = 0; k < 2; ++k) {
      if (N(ln[k])->list) {
        st = goap__px_error(t, ln[k], GOAP_PARSE_ERROR, "expected a subtask label, found a list");
        goto done;
      }
      for (int i = 0; i < n; ++i)
        if (h->steps[s0 + i].label == N(ln[k])->sym) idx[k] = i;
      if (idx[k] < 0) {
        st = goap__px_error(t, ln[k], GOAP_NOT_FOUND, "unknown subtask label '%s' in ':ordering'",
                            nm(t, ln[k]));
        goto done;
      }
    }
    int a = idx[0], b = idx[1];
    if (op[0] == '>') {
      a = idx[1];
      b = idx[0];
    }
    if (a == b) {
      st = goap__px_error(t, c, GOAP_PARSE_ERROR, "cyclic ':ordering': '%s' before itself",
                          nm(t, ln[0]));
      goto done;
    }
    if (!before[(size_t)a * (size_t)n + (size_t)b]) {
      before[(size_t)a * (size_t)n + (size_t)b] = 1;
      indeg[b]++;
    }
  }
  /* Kahn: a total order iff exactly one subtask is free at every step */
  for (int k = 0; k < n; ++k) {
    int pick = -1, other = -1;
    for (int i = 0; i < n; ++i)
      if (indeg[i] == 0) {
        if (pick < 0) pick = i;
        else if (other < 0) other = i;
      }
    if (pick < 0) {
      int32_t lab = -1;
      for (int i = 0; i < n; ++i)
        if (indeg[i] > 0) {
          lab = h->steps[s0 + i].label;
          break;
        }
      st = goap__px_error(t, ord, GOAP_PARSE_ERROR, "cyclic ':ordering' (around '%s')",
                          goap__px_name(t, lab));
      goto done;
    }
    if (other >= 0) {
      st = goap__px_error(t, ord, GOAP_PARSE_ERROR,
                          "unsupported construct: the ':ordering' is not total ('%s' and '%s' "
                          "are unordered; partial-order HDDL is not supported)",
                          goap__px_name(t, h->steps[s0 + pick].label),
                          goap__px_name(t, h->steps[s0 + other].label));
      goto done;
    }
    tmp[k] = h->steps[s0 + pick];
    indeg[pick] = -1;
    for (int j = 0; j < n; ++j)
      if (before[(size_t)pick * (size_t)n + (size_t)j]) indeg[j]--;
  }
  for (int k = 0; k < n; ++k) h->steps[s0 + k] = tmp[k];
done:
  goap__free(&t->alloc, before, cells ? cells : 1);
  goap__free(&t->alloc, indeg, (size_t)(n ? n : 1) * sizeof *indeg);
  goap__free(&t->alloc, tmp, (size_t)(n ? n : 1) * sizeof *tmp);
  return st;
}

/* A subtask list (`sub`, -1: none), ordered as written (`ordered`) or by `ord`. */
static goap_status network(goap__px_task_core *t, int32_t sub, int ordered, int32_t ord,
                           int32_t where, const netctx *c, int32_t *step0, int32_t *nsteps) {
  goap__px_htn *h = &t->htn;
  *step0 = (int32_t)h->nsteps;
  *nsteps = 0;
  if (sub < 0) {
    int oc = 0;
    if (ord >= 0 && (items(t, ord, &oc), oc > 0))
      return goap__px_error(t, ord, GOAP_PARSE_ERROR, "':ordering' without subtasks");
    return GOAP_OK;
  }
  if (!N(sub)->list) return goap__px_error(t, sub, GOAP_PARSE_ERROR, "expected a list of subtasks");
  int cnt = 0;
  int n = 0;
  for (int32_t s = items(t, sub, &cnt); s >= 0 && cnt > 0; s = N(s)->next, --cnt) {
    if (n == INT32_MAX) return goap__px_error(t, s, GOAP_TOO_LARGE, "too many subtasks");
    int32_t label = -1, call = s;
    if (N(s)->list && N(s)->count == 2 && !N(N(s)->first)->list && N(child(t, s, 1))->list) {
      int32_t ln = N(s)->first;
      if (is_var(t, ln) || nm(t, ln)[0] == ':')
        return goap__px_error(t, ln, GOAP_PARSE_ERROR, "'%s' is not a valid subtask label", nm(t, ln));
      label = N(ln)->sym;
      call = child(t, s, 1);
      for (int i = 0; i < n; ++i)
        if (h->steps[*step0 + i].label == label)
          return goap__px_error(t, ln, GOAP_DUPLICATE, "subtask label '%s' is used twice",
                                nm(t, ln));
    } else if (N(s)->list && strcmp(head(t, s), "forall") == 0) {
      return goap__px_error(t, s, GOAP_PARSE_ERROR, "unsupported construct 'forall' in subtasks");
    }
    if (add_step(t, call, label, c) != GOAP_OK) return t->status;
    ++n;
  }
  *nsteps = n;
  if (ordered) {
    int oc = 0;
    if (ord >= 0 && (items(t, ord, &oc), oc > 0))
      return goap__px_error(t, ord, GOAP_PARSE_ERROR,
                            "unsupported construct: ':ordering' together with ordered subtasks");
    return GOAP_OK;
  }
  if (ord >= 0) {
    int oc = 0;
    (void)items(t, ord, &oc);
    if (oc == 0) ord = -1;
  }
  return order_steps(t, *step0, n, ord, where);
}

/* The keys of a method or :htn body. */
typedef struct body {
  int32_t params, task, pre, sub, ord, cons;
  int ordered;
} body;

static goap_status read_body(goap__px_task_core *t, int32_t first, body *b, int is_method) {
  b->params = b->task = b->pre = b->sub = b->ord = b->cons = -1;
  b->ordered = 0;
  for (int32_t k = first; k >= 0; k = N(k)->next) {
    int32_t v = N(k)->next;
    if (N(k)->list || nm(t, k)[0] != ':')
      return goap__px_error(t, k, GOAP_PARSE_ERROR, "expected a key like ':parameters' or ':ordered-subtasks', found '%s'", nm(t, k));
    if (v < 0) return goap__px_error(t, k, GOAP_PARSE_ERROR, "'%s' needs a value", nm(t, k));
    const char *key = nm(t, k);
    if (!strcmp(key, ":parameters")) {
      b->params = v;
    } else if (is_method && !strcmp(key, ":task")) {
      b->task = v;
    } else if (is_method && !strcmp(key, ":precondition")) {
      b->pre = v;
    } else if (!strcmp(key, ":subtasks") || !strcmp(key, ":tasks") ||
               !strcmp(key, ":ordered-subtasks") || !strcmp(key, ":ordered-tasks")) {
      if (b->sub >= 0) return goap__px_error(t, k, GOAP_DUPLICATE, "a second subtask list '%s'", key);
      b->sub = v;
      b->ordered = strstr(key, "ordered") != NULL;
    } else if (!strcmp(key, ":ordering")) {
      b->ord = v;
    } else if (!strcmp(key, ":constraints")) {
      int c = 0;
      if (!N(v)->list)
        return goap__px_error(t, v, GOAP_PARSE_ERROR, "expected a list after ':constraints'");
      if (is_method) {
        if (b->cons >= 0) return goap__px_error(t, k, GOAP_DUPLICATE, "a second ':constraints'");
        b->cons = v;
      } else if ((items(t, v, &c), c > 0)) {
        return goap__px_error(t, k, GOAP_PARSE_ERROR,
                              "unsupported construct ':constraints' in a task network");
      }
    } else if (!strcmp(key, ":effect")) {
      return goap__px_error(t, k, GOAP_PARSE_ERROR, "unsupported construct ':effect' in a method (method effects)");
    } else {
      return goap__px_error(t, k, GOAP_PARSE_ERROR, "unknown %s key '%s'",
                            is_method ? "method" : "task network", key);
    }
    k = v;
  }
  return GOAP_OK;
}

/* ---- (:method NAME :parameters (...) :task (T ...) :precondition ... subtasks) -------- */

static goap_status method_body(goap__px_task_core *t, int32_t sec, int32_t name, const body *bp,
                               const int32_t *syms, const int32_t *types, int np);

goap_status goap__px_parse_method(goap__px_task_core *t, int32_t sec) {
  goap__px_htn *h = &t->htn;
  h->hddl = 1;
  int32_t name = child(t, sec, 1);
  if (name < 0 || N(name)->list || is_var(t, name) || nm(t, name)[0] == ':')
    return goap__px_error(t, name < 0 ? sec : name, GOAP_PARSE_ERROR,
                          "expected the method's name after ':method'");
  if (goap__px_map_get(&h->method_of, N(name)->sym) >= 0)
    return goap__px_error(t, name, GOAP_DUPLICATE, "method '%s' is defined twice", nm(t, name));
  body b;
  if (read_body(t, N(name)->next, &b, 1) != GOAP_OK) return t->status;
  int32_t *syms = NULL, *types = NULL;
  int np = 0;
  if (b.params >= 0 && goap__px_params(t, b.params, &syms, &types, &np) != GOAP_OK) return t->status;
  goap_status st = method_body(t, sec, name, &b, syms, types, np);
  goap__px_params_free(t, syms, types, np);
  return st;
}

static goap_status method_body(goap__px_task_core *t, int32_t sec, int32_t name, const body *bp,
                               const int32_t *syms, const int32_t *types, int np) {
  goap__px_htn *h = &t->htn;
  body b = *bp;
  if (b.task < 0)
    return goap__px_error(t, sec, GOAP_PARSE_ERROR, "method '%s' has no ':task'", nm(t, name));
  if (!N(b.task)->list || N(b.task)->first < 0 || N(N(b.task)->first)->list)
    return goap__px_error(t, b.task, GOAP_PARSE_ERROR, "expected '(task arg ...)' after ':task'");
  int32_t tn = N(b.task)->first;
  int32_t ct = goap__px_map_get(&h->ctask_of, N(tn)->sym);
  if (ct < 0) {
    if (goap__px_map_get(&t->schema_of, N(tn)->sym) >= 0)
      return goap__px_error(t, tn, GOAP_PARSE_ERROR,
                            "method '%s' decomposes '%s', which is an action (a method's :task "
                            "must be a compound task)", nm(t, name), nm(t, tn));
    int32_t s = suggest_callable(t, N(tn)->sym);
    if (s >= 0)
      return goap__px_error(t, tn, GOAP_NOT_FOUND, "unknown task '%s' (did you mean '%s'?)",
                            nm(t, tn), goap__px_name(t, s));
    return goap__px_error(t, tn, GOAP_NOT_FOUND, "unknown task '%s'", nm(t, tn));
  }
  int arity = h->ctasks[ct].nparams;
  if (N(b.task)->count - 1 != arity)
    return goap__px_error(t, b.task, GOAP_TYPE_MISMATCH, "'%s' takes %d argument%s, %d given",
                          nm(t, tn), arity, arity == 1 ? "" : "s", N(b.task)->count - 1);
  goap__px_method m;
  memset(&m, 0, sizeof m);
  m.sym = N(name)->sym;
  m.node = name;
  m.task = ct;
  m.nparams = np;
  if (push_params(t, sec, syms, types, np, &m.ptypes, &m.pnames) != GOAP_OK) return t->status;
  m.targs = (int32_t)t->args.n;
  for (int32_t a = N(tn)->next; a >= 0; a = N(a)->next) {
    int32_t v = goap__px_term(t, a, syms, np, "method");
    if (v == INT32_MIN) return t->status;
    if (!goap__px_ipush(&t->alloc, &t->args, v)) return OOM(t, a);
  }
  m.lit0 = (int32_t)t->nlits;
  if (b.pre >= 0 && goap__px_precond(t, b.pre, syms, np, "method") != GOAP_OK) return t->status;
  if (b.cons >= 0) { /* (in)equalities of the parameters: checked like the precondition's */
    size_t c0 = t->nlits;
    if (goap__px_precond(t, b.cons, syms, np, "method") != GOAP_OK) return t->status;
    for (size_t i = c0; i < t->nlits; ++i)
      if (t->lits[i].pred != PX_EQ)
        return goap__px_error(t, t->lits[i].node, GOAP_PARSE_ERROR,
                              "unsupported construct: a method ':constraints' other than '(= ?a ?b)' "
                              "or '(not (= ?a ?b))'");
  }
  if (t->nlits - (size_t)m.lit0 > PX_MAX_LITS)
    return goap__px_error(t, sec, GOAP_TOO_LARGE, "method '%s' has more than %d literals", nm(t, name), PX_MAX_LITS);
  m.nlits = (int32_t)(t->nlits - (size_t)m.lit0);
  netctx c;
  c.syms = syms;
  c.np = np;
  c.what = "method";
  if (network(t, b.sub, b.ordered, b.ord, b.sub >= 0 ? b.sub : sec, &c, &m.step0, &m.nsteps) !=
      GOAP_OK)
    return t->status;
  if (!goap__grow(&t->alloc, (void **)&h->methods, &h->cmethods, h->nmethods + 1, sizeof *h->methods))
    return OOM(t, sec);
  int32_t id = (int32_t)h->nmethods;
  h->methods[h->nmethods++] = m;
  if (!goap__px_map_set(&t->alloc, &h->method_of, m.sym, id)) return OOM(t, sec);
  return GOAP_OK;
}

/* ---- the problem's (:htn ...) --------------------------------------------------------- */

goap_status goap__px_parse_htn(goap__px_task_core *t, int32_t sec) {
  goap__px_htn *h = &t->htn;
  h->hddl = 1;
  h->htn_node = sec;
  body b;
  if (read_body(t, N(N(sec)->first)->next, &b, 0) != GOAP_OK) return t->status;
  int32_t *syms = NULL, *types = NULL;
  int np = 0;
  if (b.params >= 0 && goap__px_params(t, b.params, &syms, &types, &np) != GOAP_OK) return t->status;
  h->top_nparams = np;
  goap_status st = push_params(t, sec, syms, types, np, &h->top_ptypes, &h->top_pnames);
  if (st == GOAP_OK) {
    netctx c;
    c.syms = syms;
    c.np = np;
    c.what = "task network";
    st = network(t, b.sub, b.ordered, b.ord, b.sub >= 0 ? b.sub : sec, &c, &h->top_step0,
                 &h->top_nsteps);
  }
  goap__px_params_free(t, syms, types, np);
  return st == GOAP_OK ? GOAP_OK : t->status;
}
