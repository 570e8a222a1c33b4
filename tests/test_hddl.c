/*
 * test_hddl.c -- the HDDL front end and planner (goap/hddl.h): parse errors with exact
 * positions and messages; plans replayed here by an independent checker (its own state of
 * atom strings, its own reading of the IPC text: executability, the :goal, and the
 * decomposition tree against the methods: task, arity, consistent bindings, subtask order,
 * method preconditions where each method starts, every step used once in left-to-right
 * order); left recursion that terminates; backtracking into an earlier task; budgets and
 * their statuses; determinism; allocation failures at every point.
 */
#include <goap/goap.h>
#include <goap/hddl.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pddl/pddl_internal.h"
#include "alloc_hook.h"
#include "test.h"

/* ---- helpers ---------------------------------------------------------------------------- */

static char *read_test_file(const char *name, size_t *len) {
  char path[512];
  snprintf(path, sizeof path, "%s/hddl/%s", GOAP_TESTS_DIR, name);
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *buf = (char *)malloc(1 << 16);
  size_t n = buf ? fread(buf, 1, (1 << 16) - 1, f) : 0;
  fclose(f);
  if (buf) buf[n] = '\0';
  *len = n;
  return buf;
}

static goap_pddl_task *load(const char *dom, const char *prob) {
  char dp[512], pp[512];
  snprintf(dp, sizeof dp, "%s/hddl/%s", GOAP_TESTS_DIR, dom);
  snprintf(pp, sizeof pp, "%s/hddl/%s", GOAP_TESTS_DIR, prob);
  goap_pddl_options o;
  memset(&o, 0, sizeof o);
  o.flags = GOAP_PDDL_HTN;
  goap_pddl_task *t = NULL;
  goap_error err;
  if (goap_pddl_load(dp, pp, &o, &t, &err) != GOAP_OK)
    fprintf(stderr, "load %s %s: %s:%d:%d: %s\n", dom, prob, err.file, err.line, err.col,
            err.message);
  return t;
}

/* A task parsed from HDDL text (domain name "d", problem "p"); NULL, with the position printed,
 * on a parse error. */
static goap_pddl_task *parse_text(const char *dom, const char *prob) {
  goap_pddl_options o;
  memset(&o, 0, sizeof o);
  o.flags = GOAP_PDDL_HTN;
  goap_pddl_task *t = NULL;
  goap_error err;
  if (goap_pddl_parse("d", dom, strlen(dom), "p", prob, strlen(prob), &o, &t, &err) != GOAP_OK)
    fprintf(stderr, "parse: %s:%d:%d: %s\n", err.file, err.line, err.col, err.message);
  return t;
}

static char *plan_text(const goap_pddl_task *t, const goap_hddl_plan *p) {
  size_t n = goap_hddl_plan_write(t, p, NULL, 0);
  char *s = (char *)malloc(n + 1);
  if (s) goap_hddl_plan_write(t, p, s, n + 1);
  return s;
}

/* ---- an independent checker of IPC HTN plans -------------------------------------------- */

#ifndef MAXL
#define MAXL 256  /* lines */
#endif
#define MAXT 40   /* tokens per line */
#define CK_MAX_PARAMS 128 /* parameters of a method or action the checker reads */
#ifndef MAXA
#define MAXA 512  /* atoms in a state */
#endif

typedef struct atomset {
  char s[MAXA][96];
  int n;
} atomset;

static int as_find(const atomset *a, const char *x) {
  for (int i = 0; i < a->n; ++i)
    if (strcmp(a->s[i], x) == 0) return i;
  return -1;
}
static void as_add(atomset *a, const char *x) {
  if (as_find(a, x) < 0 && a->n < MAXA) snprintf(a->s[a->n++], sizeof a->s[0], "%s", x);
}
static void as_del(atomset *a, const char *x) {
  int i = as_find(a, x);
  if (i >= 0) memcpy(a->s[i], a->s[--a->n], sizeof a->s[0]);
}

typedef struct pline {
  int id, comp, ntok, arrow; /* arrow: index of "->" */
  char tok[MAXT][64];
} pline;

typedef struct checker {
  const goap__px_task_core *t;
  pline l[MAXL];
  int n, nprim;
  int line_of[MAXL * 2];     /* id -> line index, -1 */
  int used[MAXL * 2];
  atomset *states;           /* state before primitive i (nprim + 1 of them) */
  int leaves[MAXL], nleaves;
  char why[256];
} checker;

static int obj_id(const goap__px_task_core *t, const char *name) {
  for (size_t o = 0; o < t->nobjects; ++o)
    if (strcmp(goap__px_name(t, t->objects[o].sym), name) == 0) return (int)o;
  return -1;
}

static void atom_str(const goap__px_task_core *t, int32_t pred, const int32_t *g, char *buf, size_t cap) {
  size_t len = (size_t)snprintf(buf, cap, "%s", goap__px_name(t, t->preds[pred].sym));
  for (int i = 0; i < t->preds[pred].arity && len < cap; ++i)
    len += (size_t)snprintf(buf + len, cap - len, " %s", goap__px_name(t, t->objects[g[i]].sym));
}

/* Literal [i] holds in state s under binding b (all bound): 1/0; -1 when something is unbound. */
static int lit_ok(const goap__px_task_core *t, const goap__px_lit *l, const int32_t *b, const atomset *s) {
  int32_t g[PX_MAX_ARITY];
  int ar = l->pred == PX_EQ ? 2 : t->preds[l->pred].arity;
  for (int i = 0; i < ar; ++i) {
    int32_t a = t->args.v[l->args + i];
    g[i] = a >= 0 ? a : b[-a - 1];
    if (g[i] < 0) return -1;
  }
  int v;
  if (l->pred == PX_EQ) {
    v = g[0] == g[1];
  } else {
    char buf[96];
    atom_str(t, l->pred, g, buf, sizeof buf);
    v = as_find(s, buf) >= 0;
  }
  return l->neg ? !v : v;
}

static int is_a(const goap__px_task_core *t, int o, int32_t ty) {
  return t->is_a[(size_t)o * t->ntypes + (size_t)ty] != 0;
}

/* Unifies the names tok[from..] with the lifted args (n of them) into binding b. */
static int unify(checker *c, const pline *pl, int from, const int32_t *args, int n, int32_t *b,
                 int32_t ptypes) {
  const goap__px_task_core *t = c->t;
  for (int i = 0; i < n; ++i) {
    int o = obj_id(t, pl->tok[from + i]);
    if (o < 0) return 0;
    int32_t a = args[i];
    if (a >= 0) {
      if (a != o) return 0;
    } else if (b[-a - 1] >= 0) {
      if (b[-a - 1] != o) return 0;
    } else {
      if (!is_a(t, o, t->args.v[ptypes + (-a - 1)])) return 0;
      b[-a - 1] = o;
    }
  }
  return 1;
}

/* The name of a step's task or action. */
static const char *step_name(const goap__px_task_core *t, const goap__px_step *s) {
  return s->task >= 0 ? goap__px_name(t, t->htn.ctasks[s->task].sym)
                      : goap__px_name(t, t->schemas[-s->task - 1].sym);
}

/* Checks the children of a node against a network (steps s0..s0+n, params np/ptypes) with
 * binding b; collects leaves; returns the first leaf position (or `here` when empty). */
static int check_node(checker *c, int id, int *first);

static int check_kids(checker *c, const pline *pl, int kid0, int nk, int32_t s0, int32_t ns,
                      int32_t *b, int32_t ptypes, int *first) {
  const goap__px_task_core *t = c->t;
  *first = -1;
  if (nk != ns) {
    snprintf(c->why, sizeof c->why, "line '%s ...': %d subtasks, the method has %d", pl->tok[0], nk, (int)ns);
    return 0;
  }
  for (int k = 0; k < nk; ++k) {
    int kid = atoi(pl->tok[kid0 + k]);
    if (kid < 0 || kid >= MAXL * 2 || c->line_of[kid] < 0) {
      snprintf(c->why, sizeof c->why, "unknown id %d", kid);
      return 0;
    }
    const pline *kl = &c->l[c->line_of[kid]];
    const goap__px_step *st = &t->htn.steps[s0 + k];
    if (strcmp(kl->tok[1], step_name(t, st)) != 0) {
      snprintf(c->why, sizeof c->why, "id %d is '%s', the method expects '%s'", kid, kl->tok[1], step_name(t, st));
      return 0;
    }
    int nargs = (kl->comp ? kl->arrow : kl->ntok) - 2;
    if (nargs != st->nargs || !unify(c, kl, 2, t->args.v + st->args, nargs, b, ptypes)) {
      snprintf(c->why, sizeof c->why, "id %d: arguments do not bind with the method's subtask", kid);
      return 0;
    }
    int f = -1;
    if (!check_node(c, kid, &f)) return 0;
    if (*first < 0) *first = f;
  }
  return 1;
}

static int check_node(checker *c, int id, int *first) {
  const goap__px_task_core *t = c->t;
  if (c->used[id]++) {
    snprintf(c->why, sizeof c->why, "id %d is used twice", id);
    return 0;
  }
  const pline *pl = &c->l[c->line_of[id]];
  if (!pl->comp) {
    *first = c->nleaves;
    c->leaves[c->nleaves++] = id;
    return 1;
  }
  int here = c->nleaves;
  int32_t ct = -1, m = -1;
  for (size_t i = 0; i < t->htn.nctasks; ++i)
    if (strcmp(goap__px_name(t, t->htn.ctasks[i].sym), pl->tok[1]) == 0) ct = (int32_t)i;
  for (size_t i = 0; i < t->htn.nmethods; ++i)
    if (strcmp(goap__px_name(t, t->htn.methods[i].sym), pl->tok[pl->arrow + 1]) == 0) m = (int32_t)i;
  if (ct < 0 || m < 0 || t->htn.methods[m].task != ct) {
    snprintf(c->why, sizeof c->why, "id %d: no method '%s' of task '%s'", id, pl->tok[pl->arrow + 1], pl->tok[1]);
    return 0;
  }
  const goap__px_method *pm = &t->htn.methods[m];
  int32_t b[CK_MAX_PARAMS];
  for (int i = 0; i < CK_MAX_PARAMS; ++i) b[i] = -1;
  if (pl->arrow - 2 != t->htn.ctasks[ct].nparams ||
      !unify(c, pl, 2, t->args.v + pm->targs, pl->arrow - 2, b, pm->ptypes)) {
    snprintf(c->why, sizeof c->why, "id %d: arguments do not bind with the method's task", id);
    return 0;
  }
  int f = -1;
  if (!check_kids(c, pl, pl->arrow + 2, pl->ntok - pl->arrow - 2, pm->step0, pm->nsteps, b,
                  pm->ptypes, &f))
    return 0;
  *first = f >= 0 ? f : here;
  /* the precondition, where the method starts; parameters bound by nothing else are
   * existential: every combination of objects of their types is tried */
  const atomset *s = &c->states[*first];
  int free_p[CK_MAX_PARAMS], nfree = 0;
  size_t odo[CK_MAX_PARAMS];
  for (int i = 0; i < pm->nparams; ++i)
    if (b[i] < 0) {
      odo[nfree] = 0;
      free_p[nfree++] = i;
    }
  for (;;) {
    int all = 1, valid = 1;
    for (int k = 0; k < nfree; ++k) {
      b[free_p[k]] = (int32_t)odo[k];
      if (!is_a(t, (int)odo[k], t->args.v[pm->ptypes + free_p[k]])) valid = 0;
    }
    for (int32_t i = pm->lit0; valid && all && i < pm->lit0 + pm->nlits; ++i)
      if (lit_ok(t, &t->lits[i], b, s) != 1) all = 0;
    if (valid && all) return 1;
    int k = 0; /* the next combination */
    while (k < nfree && ++odo[k] >= t->nobjects) odo[k++] = 0;
    if (k == nfree) break;
  }
  snprintf(c->why, sizeof c->why, "id %d: a precondition of method '%s' does not hold", id,
           pl->tok[pl->arrow + 1]);
  return 0;
}

/* 1 when the plan text is a valid plan for t; else 0 with c->why. */
static int check_plan(checker *c, const goap_pddl_task *task, const char *text) {
  const goap__px_task_core *t = &task->c;
  memset(c, 0, sizeof *c);
  c->t = t;
  for (int i = 0; i < MAXL * 2; ++i) c->line_of[i] = -1;
  char buf[4096];
  const char *p = text;
  int started = 0, ended = 0, root = -1;
  while (*p) {
    const char *e = strchr(p, '\n');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    if (len >= sizeof buf) len = sizeof buf - 1;
    memcpy(buf, p, len);
    buf[len] = '\0';
    p += len + (e ? 1 : 0);
    if (strcmp(buf, "==>") == 0) {
      started = 1;
      continue;
    }
    if (strcmp(buf, "<==") == 0) {
      ended = 1;
      break;
    }
    if (!started || c->n >= MAXL) return 0;
    pline *pl = &c->l[c->n];
    for (char *tk = strtok(buf, " "); tk && pl->ntok < MAXT; tk = strtok(NULL, " "))
      snprintf(pl->tok[pl->ntok++], sizeof pl->tok[0], "%s", tk);
    if (pl->ntok == 0) continue;
    if (strcmp(pl->tok[0], "root") == 0) {
      root = c->n++;
      continue;
    }
    pl->id = atoi(pl->tok[0]);
    if (pl->id < 0 || pl->id >= MAXL * 2 || c->line_of[pl->id] >= 0 || pl->ntok < 2) return 0;
    for (int k = 0; k < pl->ntok; ++k)
      if (strcmp(pl->tok[k], "->") == 0) {
        pl->comp = 1;
        pl->arrow = k;
      }
    if (!pl->comp && root >= 0) {
      snprintf(c->why, sizeof c->why, "a primitive after the root line");
      return 0;
    }
    if (!pl->comp) c->nprim++;
    c->line_of[pl->id] = c->n++;
  }
  if (!ended || root < 0) {
    snprintf(c->why, sizeof c->why, "no '==>', 'root' or '<=='");
    return 0;
  }
  /* execute the primitives in order, keeping every intermediate state */
  c->states = (atomset *)calloc((size_t)c->nprim + 1, sizeof *c->states);
  if (!c->states) return 0;
  atomset *s = &c->states[0];
  for (size_t i = 0; i + 1 < t->init.n; i += 2) {
    char a[96];
    atom_str(t, t->init.v[i], t->args.v + t->init.v[i + 1], a, sizeof a);
    as_add(s, a);
  }
  int k = 0, ok = 1;
  for (int li = 0; li < c->n && ok; ++li) {
    const pline *pl = &c->l[li];
    if (li == root || pl->comp) continue;
    int32_t sc = -1;
    for (size_t i = 0; i < t->nschemas; ++i)
      if (strcmp(goap__px_name(t, t->schemas[i].sym), pl->tok[1]) == 0) sc = (int32_t)i;
    const goap__px_schema *ps = sc >= 0 ? &t->schemas[sc] : NULL;
    int32_t b[CK_MAX_PARAMS];
    for (int i = 0; i < CK_MAX_PARAMS; ++i) b[i] = -1;
    int32_t pargs[CK_MAX_PARAMS];
    for (int i = 0; ps && i < ps->nparams; ++i) pargs[i] = -(i + 1);
    if (!ps || pl->ntok - 2 != ps->nparams || !unify(c, pl, 2, pargs, ps->nparams, b, ps->ptypes)) {
      snprintf(c->why, sizeof c->why, "step %d: unknown action or bad arguments", k);
      ok = 0;
      break;
    }
    c->states[k + 1] = c->states[k];
    for (int32_t i = ps->lit0; i < ps->lit0 + ps->nlits; ++i)
      if (t->lits[i].kind == PX_LIT_PRE && lit_ok(t, &t->lits[i], b, &c->states[k]) != 1) {
        snprintf(c->why, sizeof c->why, "step %d (%s): a precondition does not hold", k, pl->tok[1]);
        ok = 0;
      }
    for (int pass = 0; pass < 2 && ok; ++pass)
      for (int32_t i = ps->lit0; i < ps->lit0 + ps->nlits; ++i) {
        const goap__px_lit *l = &t->lits[i];
        if (l->kind != (pass ? PX_LIT_ADD : PX_LIT_DEL)) continue;
        int32_t g[PX_MAX_ARITY];
        for (int j = 0; j < t->preds[l->pred].arity; ++j) {
          int32_t a = t->args.v[l->args + j];
          g[j] = a >= 0 ? a : b[-a - 1];
        }
        char a[96];
        atom_str(t, l->pred, g, a, sizeof a);
        if (pass) as_add(&c->states[k + 1], a);
        else as_del(&c->states[k + 1], a);
      }
    if (pl->id != k) {
      snprintf(c->why, sizeof c->why, "primitive ids are not 0, 1, ...");
      ok = 0;
    }
    k++;
  }
  for (int32_t i = t->goal0; ok && i < t->goal0 + t->ngoal; ++i)
    if (lit_ok(t, &t->lits[i], NULL, &c->states[c->nprim]) != 1) {
      snprintf(c->why, sizeof c->why, "the goal does not hold at the end");
      ok = 0;
    }
  /* the tree: the roots are the :htn's tasks in order */
  if (ok) {
    const pline *rl = &c->l[root];
    int32_t b[CK_MAX_PARAMS];
    for (int i = 0; i < CK_MAX_PARAMS; ++i) b[i] = -1;
    pline fake = *rl;
    int f = -1;
    ok = check_kids(c, &fake, 1, rl->ntok - 1, t->htn.top_step0, t->htn.top_nsteps, b,
                    t->htn.top_ptypes, &f);
  }
  for (int i = 0; ok && i < c->nleaves; ++i)
    if (c->leaves[i] != i) {
      snprintf(c->why, sizeof c->why, "the tree's leaves are not the primitives in order");
      ok = 0;
    }
  for (int li = 0; ok && li < c->n; ++li)
    if (li != root && !c->used[c->l[li].id]) {
      snprintf(c->why, sizeof c->why, "id %d is not in the tree", c->l[li].id);
      ok = 0;
    }
  free(c->states);
  c->states = NULL;
  return ok;
}

/* Solves and checks; returns the plan text (caller frees) or NULL. */
static char *solve_checked(int *test_failures_, const char *dom, const char *prob, int *len,
                           goap_hddl_stats *stats) {
  goap_pddl_task *t = load(dom, prob);
  if (!t) {
    CHECK(t != NULL);
    return NULL;
  }
  CHECK(goap_hddl_is_htn(t));
  goap_hddl_plan *p = NULL;
  goap_status st = goap_hddl_solve(t, NULL, &p, stats);
  CHECK_EQ_INT(st, GOAP_OK);
  char *text = p ? plan_text(t, p) : NULL;
  if (text) {
    static checker c;
    int ok = check_plan(&c, t, text);
    if (!ok) fprintf(stderr, "%s/%s: invalid plan: %s\n%s", dom, prob, c.why, text);
    CHECK(ok);
    *len = goap_hddl_plan_length(p);
    CHECK_EQ_INT(*len, c.nprim);
  }
  goap_hddl_plan_destroy(p);
  goap_pddl_destroy(t);
  return text;
}

/* ---- tests ------------------------------------------------------------------------------ */

TEST(left_recursive_transport_terminates_with_a_valid_plan) {
  int n = 0;
  goap_hddl_stats s;
  char *text = solve_checked(test_failures_, "transport.hddl", "transport-1.hddl", &n, &s);
  REQUIRE(text != NULL);
  /* p1: a->b, load, b->c->d, unload; p2: d->c, load, c->b->a, unload */
  CHECK_EQ_INT(n, 10);
  CHECK(s.rounds >= 2); /* the first depth bounds cut get_to's recursion */
  CHECK_EQ_INT(s.depth, s.rounds);
  CHECK(strstr(text, "get_to lorry d -> m_get_via") != NULL);
  free(text);
}

TEST(blocks_with_negation_and_equality) {
  int n = 0;
  goap_hddl_stats s;
  char *text = solve_checked(test_failures_, "blocks.hddl", "blocks-1.hddl", &n, &s);
  REQUIRE(text != NULL);
  CHECK_EQ_INT(n, 6);
  CHECK(strstr(text, "root 6 7\n") != NULL); /* put_on b c, then put_on a b (the :ordering) */
  CHECK(strstr(text, "6 put_on b c -> m_on_move") != NULL);
  free(text);
}

TEST(backtracks_into_earlier_tasks) {
  int n = 0;
  goap_hddl_stats s;
  char *text = solve_checked(test_failures_, "keys.hddl", "keys-1.hddl", &n, &s);
  REQUIRE(text != NULL);
  CHECK_EQ_INT(n, 4);
  /* red is the first binding of take_key and the uniform the first method of dress: both had
   * to be undone after later tasks failed */
  CHECK(strstr(text, "0 grab blue\n") != NULL);
  CHECK(strstr(text, "1 pin_badge\n") != NULL);
  CHECK(s.steps > 4);
  free(text);
}

TEST(exhausted_space_is_no_plan) {
  goap_pddl_task *t = load("blocks.hddl", "blocks-2.hddl");
  REQUIRE(t != NULL);
  goap_hddl_plan *p = (goap_hddl_plan *)&p; /* must be cleared */
  goap_hddl_stats s;
  CHECK_EQ_INT(goap_hddl_solve(t, NULL, &p, &s), GOAP_NO_PLAN);
  CHECK(p == NULL);
  CHECK(s.steps > 0);
  goap_pddl_destroy(t);
}

TEST(budgets_have_their_statuses) {
  goap_pddl_task *t = load("transport.hddl", "transport-2.hddl");
  REQUIRE(t != NULL);
  goap_hddl_plan *p = NULL;
  goap_hddl_stats s;
  goap_hddl_options o;
  memset(&o, 0, sizeof o);
  o.max_depth = 6;
  CHECK_EQ_INT(goap_hddl_solve(t, &o, &p, &s), GOAP_TOO_LARGE);
  CHECK_EQ_INT(s.rounds, 6);
  memset(&o, 0, sizeof o);
  o.max_steps = 5000;
  CHECK_EQ_INT(goap_hddl_solve(t, &o, &p, &s), GOAP_NODE_LIMIT);
  CHECK(s.steps == 5001);
  memset(&o, 0, sizeof o);
  o.max_ms = 1e-3;
  CHECK_EQ_INT(goap_hddl_solve(t, &o, &p, &s), GOAP_TIME_LIMIT);
  CHECK(p == NULL);
  goap_pddl_destroy(t);
  /* a plan within the bound is still found */
  t = load("transport.hddl", "transport-1.hddl");
  REQUIRE(t != NULL);
  memset(&o, 0, sizeof o);
  o.max_depth = 4;
  CHECK_EQ_INT(goap_hddl_solve(t, &o, &p, &s), GOAP_OK);
  goap_hddl_plan_destroy(p);
  o.max_depth = 3;
  CHECK_EQ_INT(goap_hddl_solve(t, &o, &p, &s), GOAP_TOO_LARGE);
  goap_pddl_destroy(t);
}

TEST(binding_enumeration_is_bounded) {
  /* five free parameters over 30 objects: 24 million candidate bindings for one method, none
   * of which passes (?e is never different from itself: known only once ?e, the last, is
   * bound, so the lazy join walks them all too; act is not its first subtask, so act's
   * precondition is not part of m's join) */
  const char dom[] =
      "(define (domain d) (:types a) (:predicates (p ?x - a))\n"
      " (:task t :parameters ())\n"
      " (:method m :parameters (?a ?b ?c ?d ?e - a) :task (t)\n"
      "  :precondition (and (not (p ?a)) (not (= ?e ?e)))\n"
      "  :ordered-subtasks (and (mark ?a) (act ?a ?b ?c ?d ?e)))\n"
      " (:action act :parameters (?a ?b ?c ?d ?e - a) :precondition (p ?e) :effect ())\n"
      " (:action mark :parameters (?a - a) :effect (p ?a)))\n"; /* p is not static */
  char prob[2048];
  size_t k = (size_t)snprintf(prob, sizeof prob, "(define (problem q) (:domain d) (:objects");
  for (int i = 0; i < 30; ++i) k += (size_t)snprintf(prob + k, sizeof prob - k, " o%d", i);
  snprintf(prob + k, sizeof prob - k, " - a) (:htn :ordered-subtasks (t)) (:init))");
  goap_pddl_task *t = parse_text(dom, prob);
  REQUIRE(t);
  goap_hddl_options ho;
  memset(&ho, 0, sizeof ho);
  ho.max_steps = 100; /* 102,400 join candidates */
  goap_hddl_plan *p = NULL;
  goap_hddl_stats s;
  CHECK_EQ_INT(goap_hddl_solve(t, &ho, &p, &s), GOAP_NODE_LIMIT);
  CHECK(p == NULL);
  CHECK(s.steps < 100);
  goap_pddl_destroy(t);
}

TEST(deterministic_and_snprintf_semantics) {
  goap_pddl_task *t = load("transport.hddl", "transport-1.hddl");
  REQUIRE(t != NULL);
  goap_hddl_plan *p1 = NULL, *p2 = NULL;
  REQUIRE(goap_hddl_solve(t, NULL, &p1, NULL) == GOAP_OK);
  REQUIRE(goap_hddl_solve(t, NULL, &p2, NULL) == GOAP_OK);
  char *a = plan_text(t, p1), *b = plan_text(t, p2);
  REQUIRE(a && b);
  CHECK_STR(a, b);
  size_t full = strlen(a);
  char small[16];
  memset(small, 'x', sizeof small);
  CHECK_EQ_INT(goap_hddl_plan_write(t, p1, small, sizeof small), full);
  CHECK_EQ_INT(strlen(small), sizeof small - 1);
  CHECK(strncmp(small, a, sizeof small - 1) == 0);
  for (size_t cap = 1; cap <= full + 1; ++cap) { /* cut at every byte: a prefix, terminated */
    char *cut = (char *)malloc(cap + 1);
    REQUIRE(cut != NULL);
    cut[cap] = '#';
    CHECK_EQ_INT(goap_hddl_plan_write(t, p1, cut, cap), full);
    CHECK_EQ_INT(strlen(cut), cap - 1);
    CHECK(strncmp(cut, a, cap - 1) == 0);
    CHECK(cut[cap] == '#');
    free(cut);
  }
  CHECK(strncmp(a, "==>\n0 drive lorry a b\n", 22) == 0);
  CHECK(strcmp(a + full - 4, "<==\n") == 0);
  free(a);
  free(b);
  goap_hddl_plan_destroy(p1);
  goap_hddl_plan_destroy(p2);
  goap_pddl_destroy(t);
}

/* ---- loop detection --------------------------------------------------------------------- */

TEST(loops_in_tail_position_are_pruned) {
  /* spin recurses in tail position forever: with a no-op the situation (state, agenda) repeats
   * at once; with flip it repeats after two flips. Without loop detection neither could end
   * in "no plan" (each round would cut the recursion at its depth bound). */
  const char dom[] =
      "(define (domain d) (:predicates (lit) (goal))\n"
      " (:task spin :parameters ())\n"
      " (:action noop :parameters () :effect ())\n"
      " (:action flip :parameters () :precondition (lit) :effect (not (lit)))\n"
      " (:action flop :parameters () :precondition (not (lit)) :effect (lit))\n"
      " (:method m-done :parameters () :task (spin) :precondition (goal) :ordered-subtasks ())\n"
      " (:method m-idle :parameters () :task (spin) :ordered-subtasks (and (noop) (spin)))\n"
      " (:method m-flip :parameters () :task (spin) :ordered-subtasks (and (flip) (spin)))\n"
      " (:method m-flop :parameters () :task (spin) :ordered-subtasks (and (flop) (spin))))\n";
  const char prob[] = "(define (problem q) (:domain d)\n"
                      " (:htn :ordered-subtasks (spin)) (:init (lit)))\n";
  goap_pddl_task *t = parse_text(dom, prob);
  REQUIRE(t);
  goap_hddl_options ho;
  memset(&ho, 0, sizeof ho);
  ho.max_steps = 10000;
  goap_hddl_plan *p = NULL;
  goap_hddl_stats s;
  CHECK_EQ_INT(goap_hddl_solve(t, &ho, &p, &s), GOAP_NO_PLAN);
  CHECK(p == NULL);
  /* spin's recursion is a tail call (no deeper): round 1 meets the first state again after
   * flip, flop, and cuts nothing */
  CHECK_EQ_INT(s.rounds, 1);
  CHECK(s.steps < 20);
  goap_pddl_destroy(t);
}

TEST(tail_calls_keep_their_depth) {
  /* clean recurses in tail position once per dirty item: 40 items, one round at depth 1
   * (counting every subtask as one level deeper would take 41 rounds) */
  char prob[2048];
  const char dom[] =
      "(define (domain d) (:types item) (:predicates (dirty ?x - item))\n"
      " (:task clean :parameters ())\n"
      " (:action wash :parameters (?x - item) :precondition (dirty ?x) :effect (not (dirty ?x)))\n"
      " (:method m-done :parameters () :task (clean)\n"
      "  :precondition (forall (?x - item) (not (dirty ?x))) :ordered-subtasks ())\n"
      " (:method m-wash :parameters (?x - item) :task (clean)\n"
      "  :precondition (dirty ?x) :ordered-subtasks (and (wash ?x) (clean))))\n";
  size_t k = (size_t)snprintf(prob, sizeof prob, "(define (problem q) (:domain d) (:objects");
  for (int i = 0; i < 40; ++i) k += (size_t)snprintf(prob + k, sizeof prob - k, " i%d", i);
  k += (size_t)snprintf(prob + k, sizeof prob - k, " - item)\n (:htn :ordered-subtasks (clean))\n (:init");
  for (int i = 0; i < 40; ++i) k += (size_t)snprintf(prob + k, sizeof prob - k, " (dirty i%d)", i);
  k += (size_t)snprintf(prob + k, sizeof prob - k, "))\n");
  REQUIRE(k < sizeof prob);
  goap_pddl_task *t = parse_text(dom, prob);
  REQUIRE(t);
  goap_hddl_plan *p = NULL;
  goap_hddl_stats s;
  REQUIRE(goap_hddl_solve(t, NULL, &p, &s) == GOAP_OK);
  CHECK_EQ_INT(goap_hddl_plan_length(p), 40);
  CHECK_EQ_INT(s.rounds, 1);
  CHECK_EQ_INT(s.depth, 1);
  CHECK_EQ_INT(s.steps, 42); /* the :htn, 40 washes, m-done: no backtracking */
  goap_hddl_plan_destroy(p);
  goap_pddl_destroy(t);
}

TEST(repeated_situations_are_pruned) {
  /* 30 choices of two methods that reach the same state, then a task that cannot be done:
   * 2^30 ways to fail without memory; with the reached (state, agenda) situations of the round
   * remembered, every second way meets a situation already explored and is pruned at once */
  char prob[2048];
  const char dom[] =
      "(define (domain d) (:predicates (goal))\n"
      " (:task choose :parameters ()) (:task never :parameters ())\n"
      " (:action a :parameters () :effect ()) (:action b :parameters () :effect ())\n"
      " (:method m-a :parameters () :task (choose) :ordered-subtasks (a))\n"
      " (:method m-b :parameters () :task (choose) :ordered-subtasks (b))\n"
      " (:method m-never :parameters () :task (never) :precondition (goal)\n"
      "  :ordered-subtasks ()))\n";
  size_t k = (size_t)snprintf(prob, sizeof prob,
                              "(define (problem q) (:domain d) (:htn :ordered-subtasks (and");
  for (int i = 0; i < 30; ++i) k += (size_t)snprintf(prob + k, sizeof prob - k, " (choose)");
  k += (size_t)snprintf(prob + k, sizeof prob - k, " (never))) (:init))\n");
  REQUIRE(k < sizeof prob);
  goap_pddl_task *t = parse_text(dom, prob);
  REQUIRE(t);
  goap_hddl_options ho;
  memset(&ho, 0, sizeof ho);
  ho.max_steps = 100000;
  goap_hddl_plan *p = NULL;
  goap_hddl_stats s;
  CHECK_EQ_INT(goap_hddl_solve(t, &ho, &p, &s), GOAP_NO_PLAN);
  CHECK(p == NULL);
  CHECK_EQ_INT(s.rounds, 1);
  /* the :htn, m-a 30 times down, then m-b once per choice (its situation is pruned) */
  CHECK_EQ_INT(s.steps, 61);
  goap_pddl_destroy(t);
}

TEST(joins_look_only_at_matching_atoms) {
  /* a walk of 40 steps along a chain of 2000 links: each step's join looks for (link ?x ?y)
   * with ?x bound. Taking the candidates from the atoms with ?x first (the argument index)
   * looks at one link per step; scanning every link would look at ~2000 per step, 80,000 in
   * all, past the budget of 60 steps (61,440 candidates) */
  enum { N = 2000 };
  size_t cap = (size_t)N * 48 + 512;
  char *prob = (char *)malloc(cap);
  REQUIRE(prob != NULL);
  const char dom[] =
      "(define (domain d) (:types node) (:predicates (at ?x - node) (home ?x - node)\n"
      "  (link ?x ?y - node))\n"
      " (:task walk :parameters ())\n"
      " (:action move :parameters (?x ?y - node) :precondition (at ?x)\n"
      "  :effect (and (not (at ?x)) (at ?y)))\n"
      " (:method m-done :parameters (?x - node) :task (walk) :precondition (and (home ?x) (at ?x))\n"
      "  :ordered-subtasks ())\n"
      " (:method m-step :parameters (?x ?y - node) :task (walk)\n"
      "  :precondition (and (at ?x) (link ?x ?y)) :ordered-subtasks (and (move ?x ?y) (walk))))\n";
  size_t k = (size_t)snprintf(prob, cap, "(define (problem q) (:domain d) (:objects");
  for (int i = 0; i < N; ++i) k += (size_t)snprintf(prob + k, cap - k, " n%d", i);
  k += (size_t)snprintf(prob + k, cap - k, " - node)\n (:htn :ordered-subtasks (walk))\n (:init (at n0) (home n40)");
  for (int i = 0; i + 1 < N; ++i) k += (size_t)snprintf(prob + k, cap - k, " (link n%d n%d)", i, i + 1);
  k += (size_t)snprintf(prob + k, cap - k, "))\n");
  REQUIRE(k < cap);
  goap_pddl_task *t = parse_text(dom, prob);
  REQUIRE(t);
  goap_hddl_options ho;
  memset(&ho, 0, sizeof ho);
  ho.max_steps = 60;
  goap_hddl_plan *p = NULL;
  goap_hddl_stats s;
  CHECK_EQ_INT(goap_hddl_solve(t, &ho, &p, &s), GOAP_OK);
  CHECK_EQ_INT(goap_hddl_plan_length(p), 40);
  CHECK_EQ_INT(s.steps, 42); /* the :htn, 40 steps, m-done */
  goap_hddl_plan_destroy(p);
  goap_pddl_destroy(t);
  free(prob);
}

TEST(methods_that_never_reach_primitives_are_dropped) {
  /* m-dead's subtask `nothing` has no method: m-dead can never be part of a plan and is not
   * tried (trying it would be one more step) */
  const char dom[] =
      "(define (domain d) (:predicates (x))\n"
      " (:task t :parameters ()) (:task nothing :parameters ())\n"
      " (:action a :parameters () :effect (x))\n"
      " (:method m-dead :parameters () :task (t) :ordered-subtasks (and (a) (nothing)))\n"
      " (:method m-ok :parameters () :task (t) :ordered-subtasks (a)))\n";
  const char prob[] = "(define (problem q) (:domain d) (:htn :ordered-subtasks (t)) (:init))\n";
  goap_pddl_task *t = parse_text(dom, prob);
  REQUIRE(t);
  goap_hddl_plan *p = NULL;
  goap_hddl_stats s;
  REQUIRE(goap_hddl_solve(t, NULL, &p, &s) == GOAP_OK);
  CHECK_EQ_INT(s.steps, 2); /* the :htn, m-ok */
  char *text = plan_text(t, p);
  REQUIRE(text != NULL);
  CHECK(strstr(text, "1 t -> m-ok 0\n") != NULL);
  free(text);
  goap_hddl_plan_destroy(p);
  goap_pddl_destroy(t);
}

TEST(second_method_order_takes_turns) {
  /* solve's recursive methods come first: in domain order the search walks the 2^20 settings
   * of 20 bits before it tries m-done at the top. Fewest primitive steps first puts m-done
   * (one action) before them (two or more): after the domain order's first turn of 2^14 steps,
   * the other order finds the plan at once */
  char prob[1024];
  const char dom[] =
      "(define (domain d) (:types bit) (:predicates (on ?b - bit))\n"
      " (:task solve :parameters ())\n"
      " (:action set :parameters (?b - bit) :precondition (not (on ?b)) :effect (on ?b))\n"
      " (:action clear :parameters (?b - bit) :precondition (on ?b) :effect (not (on ?b)))\n"
      " (:action finish :parameters () :effect ())\n"
      " (:method m-on :parameters (?b - bit) :task (solve) :precondition (not (on ?b))\n"
      "  :ordered-subtasks (and (set ?b) (solve)))\n"
      " (:method m-off :parameters (?b - bit) :task (solve) :precondition (on ?b)\n"
      "  :ordered-subtasks (and (clear ?b) (solve)))\n"
      " (:method m-done :parameters () :task (solve)\n"
      "  :precondition (forall (?b - bit) (not (on ?b))) :ordered-subtasks (finish)))\n";
  size_t k = (size_t)snprintf(prob, sizeof prob, "(define (problem q) (:domain d) (:objects");
  for (int i = 0; i < 20; ++i) k += (size_t)snprintf(prob + k, sizeof prob - k, " b%d", i);
  k += (size_t)snprintf(prob + k, sizeof prob - k, " - bit) (:htn :ordered-subtasks (solve)) (:init))\n");
  REQUIRE(k < sizeof prob);
  goap_pddl_task *t = parse_text(dom, prob);
  REQUIRE(t);
  goap_hddl_options ho;
  memset(&ho, 0, sizeof ho);
  ho.max_steps = 300000;
  goap_hddl_plan *p = NULL;
  goap_hddl_stats s;
  REQUIRE(goap_hddl_solve(t, &ho, &p, &s) == GOAP_OK);
  CHECK_EQ_INT(goap_hddl_plan_length(p), 1);
  /* the first turn's 2^14 steps (goap__hp_slice), then the other order's: the :htn, m-done */
  CHECK_EQ_INT(s.steps, (1 << 14) + 2);
  CHECK_EQ_INT(s.rounds, 2); /* one interrupted, one that found the plan */
  goap_hddl_plan_destroy(p);
  goap_pddl_destroy(t);
}

/* ---- forall, constraints, no fixed limits ------------------------------------------------ */

static int starts_with(const char *s, const char *prefix) {
  return strncmp(s, prefix, strlen(prefix)) == 0;
}

TEST(static_preconditions_of_subtasks_prune_bindings) {
  /* m's five parameters appear only in its action's precondition, all on static predicates
   * (no action changes start or link): the join checks them with m's own precondition, so
   * the one chain o0..o4 is its only binding. Enumerating all 30^5 bindings first (and
   * failing 24 million actions) would be far beyond the budget of 100 steps */
  char prob[2048];
  const char dom[] =
      "(define (domain d) (:types a) (:predicates (start ?x - a) (link ?x ?y - a) (done))\n"
      " (:task t :parameters ())\n"
      " (:method m :parameters (?a ?b ?c ?d ?e - a) :task (t) :ordered-subtasks (act ?a ?b ?c ?d ?e))\n"
      " (:action act :parameters (?a ?b ?c ?d ?e - a)\n"
      "  :precondition (and (start ?a) (link ?a ?b) (link ?b ?c) (link ?c ?d) (link ?d ?e))\n"
      "  :effect (done)))\n";
  size_t k = (size_t)snprintf(prob, sizeof prob, "(define (problem q) (:domain d) (:objects");
  for (int i = 0; i < 30; ++i) k += (size_t)snprintf(prob + k, sizeof prob - k, " o%d", i);
  k += (size_t)snprintf(prob + k, sizeof prob - k, " - a) (:htn :ordered-subtasks (t)) (:init (start o0)");
  for (int i = 0; i + 1 < 30; ++i)
    k += (size_t)snprintf(prob + k, sizeof prob - k, " (link o%d o%d)", i, i + 1);
  k += (size_t)snprintf(prob + k, sizeof prob - k, "))\n");
  REQUIRE(k < sizeof prob);
  goap_pddl_task *t = parse_text(dom, prob);
  REQUIRE(t);
  goap_hddl_options ho;
  memset(&ho, 0, sizeof ho);
  ho.max_steps = 100;
  goap_hddl_plan *p = NULL;
  goap_hddl_stats s;
  REQUIRE(goap_hddl_solve(t, &ho, &p, &s) == GOAP_OK);
  CHECK_EQ_INT(s.steps, 2); /* the :htn, then m's one binding */
  char *text = plan_text(t, p);
  REQUIRE(text != NULL);
  CHECK(starts_with(text, "==>\n0 act o0 o1 o2 o3 o4\n"));
  free(text);
  goap_hddl_plan_destroy(p);
  goap_pddl_destroy(t);
}

/* Solves dom/prob within 100 steps: GOAP_OK with the plan text in *text (freed by the caller)
 * and the steps taken. */
static int solve_text(const char *dom, const char *prob, char **text, uint64_t *steps) {
  goap_pddl_task *t = parse_text(dom, prob);
  if (!t) return 0;
  goap_hddl_options ho;
  memset(&ho, 0, sizeof ho);
  ho.max_steps = 100;
  goap_hddl_plan *p = NULL;
  goap_hddl_stats s;
  goap_status st = goap_hddl_solve(t, &ho, &p, &s);
  *steps = s.steps;
  *text = st == GOAP_OK ? plan_text(t, p) : NULL;
  goap_hddl_plan_destroy(p);
  goap_pddl_destroy(t);
  return st == GOAP_OK && *text != NULL;
}

TEST(first_subtask_preconditions_prune_bindings) {
  /* m's ?x is free (no precondition of its own); its first subtask starts in the state m is
   * chosen in: for `use` (one method, precondition (ready ?x)) and for the action `act`
   * (precondition (ready ?x)), only o9 can follow. Lifted into m's join, they leave m one
   * binding. With `use` (which cannot come back to t: one round, one_method_order_one_search):
   * the :htn, m and m-use, 3 steps. Trying every ?x would be 12 (9 of them failing in `use`).
   * `ready` is fluent (act deletes it): not the static pruning. */
  const char dom_use[] =
      "(define (domain d) (:types a) (:predicates (ready ?x - a) (done))\n"
      " (:task t :parameters ()) (:task use :parameters (?x - a))\n"
      " (:action act :parameters (?x - a) :precondition (ready ?x) :effect (and (done) (not (ready ?x))))\n"
      " (:method m :parameters (?x - a) :task (t) :ordered-subtasks (and (use ?x) (act ?x)))\n"
      " (:method m-use :parameters (?x - a) :task (use ?x) :precondition (ready ?x)\n"
      "  :ordered-subtasks ()))\n";
  const char dom_act[] =
      "(define (domain d) (:types a) (:predicates (ready ?x - a) (done))\n"
      " (:task t :parameters ())\n"
      " (:action act :parameters (?x - a) :precondition (ready ?x) :effect (and (done) (not (ready ?x))))\n"
      " (:method m :parameters (?x - a) :task (t) :ordered-subtasks (act ?x)))\n";
  const char prob[] =
      "(define (problem q) (:domain d) (:objects o0 o1 o2 o3 o4 o5 o6 o7 o8 o9 - a)\n"
      " (:htn :ordered-subtasks (t)) (:init (ready o9)) (:goal (done)))\n";
  char *text = NULL;
  uint64_t steps = 0;
  REQUIRE(solve_text(dom_use, prob, &text, &steps));
  CHECK_EQ_INT(steps, 3);
  CHECK(starts_with(text, "==>\n0 act o9\nroot 1\n1 t -> m 2 0\n2 use o9 -> m-use\n"));
  free(text);
  REQUIRE(solve_text(dom_act, prob, &text, &steps));
  CHECK_EQ_INT(steps, 2); /* the :htn, m */
  CHECK(starts_with(text, "==>\n0 act o9\n"));
  free(text);
}

TEST(one_method_order_one_search) {
  /* Every task has one method: one method order. m's first subtask `sub` cannot decompose
   * back into t, so a search bounding recursion only keeps it at t's depth and finds the plan
   * in one round at bound 1; it runs alone (the usual depth would cut `sub` at bound 1, then
   * repeat the same search at bound 2, and both searches together take 2 + 1 rounds). */
  const char dom[] =
      "(define (domain d) (:types a) (:predicates (done))\n"
      " (:task t :parameters ()) (:task sub :parameters ())\n"
      " (:action act :parameters () :effect (done))\n"
      " (:method m :parameters () :task (t) :ordered-subtasks (and (sub) (act)))\n"
      " (:method m-sub :parameters () :task (sub) :ordered-subtasks (act)))\n";
  const char prob[] =
      "(define (problem q) (:domain d) (:objects o0 - a) (:htn :ordered-subtasks (t)) (:init) (:goal (done)))\n";
  goap_pddl_task *t = parse_text(dom, prob);
  REQUIRE(t != NULL);
  goap_hddl_plan *p = NULL;
  goap_hddl_stats st;
  REQUIRE(goap_hddl_solve(t, NULL, &p, &st) == GOAP_OK);
  CHECK_EQ_INT(st.rounds, 1);
  CHECK_EQ_INT(st.depth, 1);
  CHECK_EQ_INT(st.steps, 3); /* the :htn, m, m-sub */
  CHECK_EQ_INT(goap_hddl_plan_length(p), 2);
  goap_hddl_plan_destroy(p);
  goap_pddl_destroy(t);
}

TEST(later_subtasks_lift_only_static_preconditions) {
  /* m's second subtask `use ?x` needs (ready ?x), which its first subtask `prep` makes true:
   * that fluent literal must not be checked when m is chosen (there would be no plan). Its
   * static literal (kind ?x) is: of o0..o9 only o7 is a kind, so m has one binding. */
  const char dom[] =
      "(define (domain d) (:types a) (:predicates (ready ?x - a) (kind ?x - a) (done))\n"
      " (:task t :parameters ()) (:task use :parameters (?x - a))\n"
      " (:action prep :parameters (?x - a) :effect (ready ?x))\n"
      " (:action act :parameters (?x - a) :precondition (ready ?x) :effect (done))\n"
      " (:method m :parameters (?x - a) :task (t) :ordered-subtasks (and (prep ?x) (use ?x)))\n"
      " (:method m-use :parameters (?x - a) :task (use ?x) :precondition (and (ready ?x) (kind ?x))\n"
      "  :ordered-subtasks (act ?x)))\n";
  const char prob[] =
      "(define (problem q) (:domain d) (:objects o0 o1 o2 o3 o4 o5 o6 o7 o8 o9 - a)\n"
      " (:htn :ordered-subtasks (t)) (:init (kind o7)) (:goal (done)))\n";
  char *text = NULL;
  uint64_t steps = 0;
  REQUIRE(solve_text(dom, prob, &text, &steps));
  CHECK_EQ_INT(steps, 3); /* the :htn, m (o7 only), m-use */
  CHECK(starts_with(text, "==>\n0 prep o7\n1 act o7\n"));
  free(text);
}

TEST(lifted_literals_keep_the_binding_order) {
  /* m's own precondition (p ?z) binds ?z in the order its atoms were read (o4, then o0); ?x
   * is free, so without lifting it takes o0..o4 in object order: (o4, o2) is m's first
   * binding. The lifted (ok ?z ?x) binds ?x from the atoms (o3 before o2), and the bindings
   * are sorted back: the plan is the same, found in fewer steps */
  const char dom[] =
      "(define (domain d) (:types a) (:predicates (p ?z - a) (ok ?z ?x - a) (done))\n"
      " (:task t :parameters ()) (:task use :parameters (?z ?x - a))\n"
      " (:action act :parameters (?z ?x - a) :effect (done))\n"
      " (:method m :parameters (?z ?x - a) :task (t) :precondition (p ?z)\n"
      "  :ordered-subtasks (use ?z ?x))\n"
      " (:method m-use :parameters (?z ?x - a) :task (use ?z ?x) :precondition (ok ?z ?x)\n"
      "  :ordered-subtasks (act ?z ?x)))\n";
  const char prob[] =
      "(define (problem q) (:domain d) (:objects o0 o1 o2 o3 o4 - a) (:htn :ordered-subtasks (t))\n"
      " (:init (p o4) (p o0) (ok o0 o1) (ok o4 o3) (ok o4 o2)) (:goal (done)))\n";
  char *text = NULL;
  uint64_t steps = 0;
  REQUIRE(solve_text(dom, prob, &text, &steps));
  CHECK_EQ_INT(steps, 3);
  CHECK(starts_with(text, "==>\n0 act o4 o2\n"));
  free(text);
}

TEST(join_starts_from_the_most_bound_literal) {
  /* m's own precondition lists (pair ?x ?y) (nothing bound: 39 x 39 atoms) before (key ?k ?x)
   * (?k bound by the task: one atom). Matched in that order, the join looks at every pair
   * atom, over the 2,048 candidates two steps allow (GOAP_NODE_LIMIT); key first, then the
   * pair atoms with o5 first, it looks at about 40. The bindings keep the order of the pair
   * atoms as read (o39 down to o1), not the objects' order: (o5, o39) comes first */
  static char prob[65536];
  const char dom[] =
      "(define (domain d) (:types a) (:predicates (pair ?x ?y - a) (key ?k ?x - a) (done))\n"
      " (:task t :parameters (?k - a))\n"
      " (:action act :parameters (?x ?y - a) :effect (done))\n"
      " (:method m :parameters (?k ?x ?y - a) :task (t ?k) :precondition (and (pair ?x ?y) (key ?k ?x))\n"
      "  :ordered-subtasks (act ?x ?y)))\n";
  size_t k = (size_t)snprintf(prob, sizeof prob, "(define (problem q) (:domain d) (:objects");
  for (int i = 0; i < 40; ++i) k += (size_t)snprintf(prob + k, sizeof prob - k, " o%d", i);
  k += (size_t)snprintf(prob + k, sizeof prob - k, " - a) (:htn :ordered-subtasks (t o0))\n (:init (key o0 o5)");
  for (int x = 1; x < 40; ++x)
    for (int y = 39; y >= 1; --y)
      k += (size_t)snprintf(prob + k, sizeof prob - k, " (pair o%d o%d)", x, y);
  k += (size_t)snprintf(prob + k, sizeof prob - k, ") (:goal (done)))\n");
  REQUIRE(k < sizeof prob);
  goap_pddl_task *t = parse_text(dom, prob);
  REQUIRE(t != NULL);
  goap_hddl_options ho;
  memset(&ho, 0, sizeof ho);
  ho.max_steps = 2;
  goap_hddl_plan *p = NULL;
  goap_hddl_stats s;
  REQUIRE(goap_hddl_solve(t, &ho, &p, &s) == GOAP_OK);
  CHECK_EQ_INT(s.steps, 2); /* the :htn, then m's first binding */
  char *text = plan_text(t, p);
  REQUIRE(text != NULL);
  CHECK(starts_with(text, "==>\n0 act o5 o39\n"));
  free(text);
  goap_hddl_plan_destroy(p);
  goap_pddl_destroy(t);
}

TEST(second_search_bounds_recursion_only) {
  /* nest n2 -> nest n1 -> nest n0 -> solve: nest is recursive, solve cannot come back to
   * nest. Domain order, depth counted at every non-tail level: solve sits at depth 4, and the
   * bound-4 round walks the 2^20 settings of 20 bits (second_method_order_takes_turns) past
   * the first turn of 2^14 steps. The second search (fewest steps first) counts recursion
   * only: solve keeps nest n0's depth 3, and its bound-3 round finds the plan (m-done first):
   * rounds 4 + 3 (counting solve would make it 4 + 4, at bound 4) */
  char prob[1024];
  const char dom[] =
      "(define (domain d) (:types bit num) (:predicates (on ?b - bit) (next ?n ?m - num) (zero ?n - num))\n"
      " (:task nest :parameters (?n - num)) (:task solve :parameters ())\n"
      " (:action set :parameters (?b - bit) :precondition (not (on ?b)) :effect (on ?b))\n"
      " (:action clear :parameters (?b - bit) :precondition (on ?b) :effect (not (on ?b)))\n"
      " (:action finish :parameters () :effect ())\n"
      " (:method m-nest :parameters (?n ?m - num) :task (nest ?n) :precondition (next ?n ?m)\n"
      "  :ordered-subtasks (and (nest ?m) (finish)))\n"
      " (:method m-base :parameters (?n - num) :task (nest ?n) :precondition (zero ?n)\n"
      "  :ordered-subtasks (and (solve) (finish)))\n"
      " (:method m-on :parameters (?b - bit) :task (solve) :precondition (not (on ?b))\n"
      "  :ordered-subtasks (and (set ?b) (solve)))\n"
      " (:method m-off :parameters (?b - bit) :task (solve) :precondition (on ?b)\n"
      "  :ordered-subtasks (and (clear ?b) (solve)))\n"
      " (:method m-done :parameters () :task (solve)\n"
      "  :precondition (forall (?b - bit) (not (on ?b))) :ordered-subtasks (finish)))\n";
  size_t k = (size_t)snprintf(prob, sizeof prob, "(define (problem q) (:domain d) (:objects");
  for (int i = 0; i < 20; ++i) k += (size_t)snprintf(prob + k, sizeof prob - k, " b%d", i);
  k += (size_t)snprintf(prob + k, sizeof prob - k,
                        " - bit n0 n1 n2 - num) (:htn :ordered-subtasks (nest n2))\n"
                        " (:init (next n2 n1) (next n1 n0) (zero n0)))\n");
  REQUIRE(k < sizeof prob);
  goap_pddl_task *t = parse_text(dom, prob);
  REQUIRE(t);
  goap_hddl_options ho;
  memset(&ho, 0, sizeof ho);
  ho.max_steps = 300000;
  goap_hddl_plan *p = NULL;
  goap_hddl_stats s;
  REQUIRE(goap_hddl_solve(t, &ho, &p, &s) == GOAP_OK);
  CHECK_EQ_INT(goap_hddl_plan_length(p), 4);
  CHECK_EQ_INT(s.rounds, 7);
  CHECK_EQ_INT(s.depth, 3);
  /* the first turn's 2^14 steps (goap__hp_slice); then rounds of 2 (the :htn, m-nest), 3 and
   * 5 steps (the :htn, m-nest twice, m-base, m-done) */
  CHECK_EQ_INT(s.steps, (1 << 14) + 10);
  goap_hddl_plan_destroy(p);
  goap_pddl_destroy(t);
}

TEST(tasks_that_cannot_reach_the_goal_are_pruned) {
  /* top's first method m-wrong only sets bits (work): no action under it adds (g). Its
   * subtask is pruned at once (g is false and nothing left on the agenda adds it), not after
   * walking the 2^12 sets of bits: the :htn, m-wrong, m-right with b0. (Both methods may make
   * a false goal literal true, (on b0) and (g), so the goal-first method order keeps the
   * domain's.) With a goal no action adds ((h)), the first compound task is pruned, not cut:
   * one round, no plan. */
  char prob[1024];
  const char dom[] =
      "(define (domain d) (:types bit) (:predicates (on ?b - bit) (g) (h))\n"
      " (:task top :parameters ()) (:task work :parameters ())\n"
      " (:action set :parameters (?b - bit) :precondition (not (on ?b)) :effect (on ?b))\n"
      " (:action finish :parameters () :effect (g))\n"
      " (:method m-wrong :parameters () :task (top) :ordered-subtasks (work))\n"
      " (:method m-right :parameters (?b - bit) :task (top) :ordered-subtasks (and (finish) (set ?b)))\n"
      " (:method m-w1 :parameters (?b - bit) :task (work) :ordered-subtasks (and (set ?b) (work)))\n"
      " (:method m-w2 :parameters () :task (work) :ordered-subtasks ()))\n";
  for (int goal = 0; goal < 2; ++goal) {
    size_t k = (size_t)snprintf(prob, sizeof prob, "(define (problem q) (:domain d) (:objects");
    for (int i = 0; i < 12; ++i) k += (size_t)snprintf(prob + k, sizeof prob - k, " b%d", i);
    k += (size_t)snprintf(prob + k, sizeof prob - k,
                          " - bit) (:htn :ordered-subtasks (top)) (:init) (:goal %s))\n",
                          goal == 0 ? "(and (g) (on b0))" : "(h)");
    REQUIRE(k < sizeof prob);
    goap_pddl_task *t = parse_text(dom, prob);
    REQUIRE(t);
    goap_hddl_options ho;
    memset(&ho, 0, sizeof ho);
    ho.max_steps = 100;
    goap_hddl_plan *p = NULL;
    goap_hddl_stats s;
    goap_status st = goap_hddl_solve(t, &ho, &p, &s);
    if (goal == 0) {
      REQUIRE(st == GOAP_OK);
      CHECK_EQ_INT(s.steps, 3);
      char *text = plan_text(t, p);
      REQUIRE(text != NULL);
      CHECK(starts_with(text, "==>\n0 finish\n1 set b0\nroot 2\n2 top -> m-right 0 1\n"));
      free(text);
    } else {
      CHECK_EQ_INT(st, GOAP_NO_PLAN);
      CHECK_EQ_INT(s.rounds, 1);
      CHECK_EQ_INT(s.steps, 1); /* the :htn; top is pruned */
    }
    goap_hddl_plan_destroy(p);
    goap_pddl_destroy(t);
  }
}

TEST(methods_that_may_reach_a_false_goal_literal_come_first) {
  /* Hiking in small: each hop's walk_all lets any number of couples walk, its do-nothing
   * method m-stay first (in domain order and fewest steps first alike). A couple left behind
   * can never catch up and the goal is only checked at the end, so the plain order walks
   * through which couples stay where (1801 steps at 6 hops and 4 couples). The goal-first
   * order tries m-walk first while some (at c p6) is false (m-stay can make none true): every
   * couple walks each hop at once. 31 steps: the :htn, per hop 4 walks and m-stay at the end
   * (6 * 5). */
  char prob[2048];
  const char dom[] =
      "(define (domain hk) (:types cpl place)\n"
      " (:predicates (at ?c - cpl ?p - place) (road ?p ?q - place))\n"
      " (:task walk_all :parameters (?from ?to - place))\n"
      " (:action walk :parameters (?c - cpl ?from ?to - place)\n"
      "  :precondition (and (at ?c ?from) (road ?from ?to))\n"
      "  :effect (and (at ?c ?to) (not (at ?c ?from))))\n"
      " (:method m-stay :parameters (?from ?to - place) :task (walk_all ?from ?to)\n"
      "  :ordered-subtasks ())\n"
      " (:method m-walk :parameters (?c - cpl ?from ?to - place) :task (walk_all ?from ?to)\n"
      "  :ordered-subtasks (and (walk ?c ?from ?to) (walk_all ?from ?to))))\n";
  enum { HOPS = 6, CPLS = 4 };
  size_t k = (size_t)snprintf(prob, sizeof prob, "(define (problem q) (:domain hk) (:objects");
  for (int i = 0; i < CPLS; ++i) k += (size_t)snprintf(prob + k, sizeof prob - k, " c%d", i);
  k += (size_t)snprintf(prob + k, sizeof prob - k, " - cpl");
  for (int i = 0; i <= HOPS; ++i) k += (size_t)snprintf(prob + k, sizeof prob - k, " p%d", i);
  k += (size_t)snprintf(prob + k, sizeof prob - k, " - place) (:htn :ordered-subtasks (and");
  for (int i = 0; i < HOPS; ++i)
    k += (size_t)snprintf(prob + k, sizeof prob - k, " (walk_all p%d p%d)", i, i + 1);
  k += (size_t)snprintf(prob + k, sizeof prob - k, ")) (:init");
  for (int i = 0; i < CPLS; ++i) k += (size_t)snprintf(prob + k, sizeof prob - k, " (at c%d p0)", i);
  for (int i = 0; i < HOPS; ++i)
    k += (size_t)snprintf(prob + k, sizeof prob - k, " (road p%d p%d)", i, i + 1);
  k += (size_t)snprintf(prob + k, sizeof prob - k, ") (:goal (and");
  for (int i = 0; i < CPLS; ++i)
    k += (size_t)snprintf(prob + k, sizeof prob - k, " (at c%d p%d)", i, HOPS);
  k += (size_t)snprintf(prob + k, sizeof prob - k, ")))\n");
  REQUIRE(k < sizeof prob);
  goap_pddl_task *t = parse_text(dom, prob);
  REQUIRE(t);
  goap_hddl_options ho;
  memset(&ho, 0, sizeof ho);
  ho.search = GOAP_HDDL_SEARCH_DFS;
  ho.max_steps = 200;
  goap_hddl_plan *p = NULL;
  goap_hddl_stats s;
  REQUIRE(goap_hddl_solve(t, &ho, &p, &s) == GOAP_OK);
  CHECK_EQ_INT(s.steps, 31);
  CHECK_EQ_INT(goap_hddl_plan_length(p), HOPS * CPLS);
  char *text = plan_text(t, p);
  REQUIRE(text != NULL);
  CHECK(starts_with(text, "==>\n0 walk c0 p0 p1\n1 walk c1 p0 p1\n2 walk c2 p0 p1\n"
                          "3 walk c3 p0 p1\n4 walk c0 p1 p2\n"));
  free(text);
  goap_hddl_plan_destroy(p);
  goap_pddl_destroy(t);
}

TEST(relaxed_goal_test_follows_preconditions_of_achievers) {
  /* the goal (g2) is added by a2 (under fin, which stays on the agenda), but a2 needs (g1),
   * false, and only a1 adds it. Under m-wrong, work can reach set only: with fin still to
   * come, the direct test (some task left adds g2) passes, the relaxed one (g1 can never
   * become true, so neither can g2) prunes work at once instead of walking the 2^12 sets of
   * bits: the :htn, m-wrong, m-right, m-fin. */
  char prob[1024];
  const char dom[] =
      "(define (domain d) (:types bit) (:predicates (on ?b - bit) (g1) (g2))\n"
      " (:task top :parameters ()) (:task work :parameters ()) (:task fin :parameters ())\n"
      " (:action set :parameters (?b - bit) :precondition (not (on ?b)) :effect (on ?b))\n"
      " (:action a1 :parameters () :effect (g1))\n"
      " (:action a2 :parameters () :precondition (g1) :effect (g2))\n"
      " (:method m-wrong :parameters () :task (top) :ordered-subtasks (work))\n"
      " (:method m-right :parameters () :task (top) :ordered-subtasks (a1))\n"
      " (:method m-fin :parameters () :task (fin) :ordered-subtasks (a2))\n"
      " (:method m-w1 :parameters (?b - bit) :task (work) :ordered-subtasks (and (set ?b) (work)))\n"
      " (:method m-w2 :parameters () :task (work) :ordered-subtasks ()))\n";
  size_t k = (size_t)snprintf(prob, sizeof prob, "(define (problem q) (:domain d) (:objects");
  for (int i = 0; i < 12; ++i) k += (size_t)snprintf(prob + k, sizeof prob - k, " b%d", i);
  k += (size_t)snprintf(prob + k, sizeof prob - k,
                        " - bit) (:htn :ordered-subtasks (and (top) (fin))) (:init) (:goal (g2)))\n");
  REQUIRE(k < sizeof prob);
  goap_pddl_task *t = parse_text(dom, prob);
  REQUIRE(t);
  goap_hddl_options ho;
  memset(&ho, 0, sizeof ho);
  ho.max_steps = 100;
  goap_hddl_plan *p = NULL;
  goap_hddl_stats s;
  REQUIRE(goap_hddl_solve(t, &ho, &p, &s) == GOAP_OK);
  CHECK_EQ_INT(s.steps, 4);
  char *text = plan_text(t, p);
  REQUIRE(text != NULL);
  CHECK(starts_with(text, "==>\n0 a1\n1 a2\n"));
  free(text);
  goap_hddl_plan_destroy(p);
  goap_pddl_destroy(t);
}

TEST(forall_in_an_action_a_method_and_the_goal) {
  int n = 0;
  goap_hddl_stats s;
  /* the method's forall: the first peek sees lamps on (lit); the action's forall: lock waits
   * until both lamps are off, backtracking out of m-dark-done twice */
  char *text = solve_checked(test_failures_, "lamps.hddl", "lamps-1.hddl", &n, &s);
  REQUIRE(text != NULL);
  CHECK_STR(text, "==>\n0 note-lit r1\n1 switch-off l1\n2 switch-off l3\n3 note-dark r1\n"
                  "4 lock r1\nroot 5\n5 secure r1 -> m-secure 6 7 8 4\n6 peek r1 -> m-peek-lit 0\n"
                  "7 dark r1 -> m-dark-off 1 9\n8 peek r1 -> m-peek-dark 3\n"
                  "9 dark r1 -> m-dark-off 2 10\n10 dark r1 -> m-dark-done\n<==\n");
  free(text);
  /* no lamp: every forall over lamps holds vacuously */
  text = solve_checked(test_failures_, "lamps.hddl", "lamps-3.hddl", &n, &s);
  REQUIRE(text != NULL);
  CHECK(starts_with(text, "==>\n0 note-dark r1\n1 note-dark r1\n2 lock r1\n"));
  free(text);
  /* the goal's forall: r2 is never locked */
  goap_pddl_task *t = load("lamps.hddl", "lamps-2.hddl");
  REQUIRE(t != NULL);
  goap_hddl_plan *p = NULL;
  CHECK_EQ_INT(goap_hddl_solve(t, NULL, &p, NULL), GOAP_NO_PLAN);
  CHECK(p == NULL);
  goap_pddl_destroy(t);
}

/* The literal i of the task as text, "(p o1 o2)" or "!(= o1 o2)". */
static void lit_str(const goap__px_task_core *t, int32_t i, char *buf, size_t cap) {
  const goap__px_lit *l = &t->lits[i];
  size_t k = (size_t)snprintf(buf, cap, "%s", l->neg ? "!" : "");
  if (k < cap) goap__px_format_atom(t, l->pred, t->args.v + l->args, buf + k, cap - k);
}

TEST(forall_instances_nesting_shadowing_and_empty_types) {
  const char dom[] =
      "(define (domain d) (:types a b)\n"
      " (:predicates (p ?x ?y - a) (q ?x - a))\n"
      " (:action act :parameters (?x - a)\n"
      "  :precondition (and (q ?x) (forall (?x - a) (p ?x ?x)) (forall (?y - b) (q ?x)))\n"
      "  :effect (q ?x))\n"
      " (:task t :parameters ()))\n";
  const char prob[] =
      "(define (problem q) (:domain d) (:objects o1 o2 - a)\n"
      " (:htn :ordered-subtasks ()) (:init)\n"
      " (:goal (and (forall (?u ?v - a) (p ?u ?v))\n"
      "             (forall (?u - a) (and (q ?u) (forall (?v - a) (not (= ?u ?v))))))))\n";
  goap_pddl_options o;
  memset(&o, 0, sizeof o);
  o.flags = GOAP_PDDL_HTN;
  goap_pddl_task *task = NULL;
  goap_error err;
  REQUIRE(goap_pddl_parse("d", dom, strlen(dom), "p", prob, strlen(prob), &o, &task, &err) ==
          GOAP_OK);
  const goap__px_task_core *t = &task->c;
  char all[1024], one[64];
  size_t len = 0;
  all[0] = 0;
  /* the action: (q ?x); the shadowing forall's instances (ground); the forall over the empty
   * type b has none; then the effect */
  REQUIRE(t->nschemas == 1);
  for (int32_t i = t->schemas[0].lit0; i < t->schemas[0].lit0 + t->schemas[0].nlits; ++i) {
    const goap__px_lit *l = &t->lits[i];
    CHECK_EQ_INT(l->quant, -1);
    if (t->args.v[l->args] < 0) {
      len += (size_t)snprintf(all + len, sizeof all - len, "%s(q ?x)", len ? " " : "");
      continue;
    }
    lit_str(t, i, one, sizeof one);
    len += (size_t)snprintf(all + len, sizeof all - len, "%s%s", len ? " " : "", one);
  }
  CHECK_STR(all, "(q ?x) (p o1 o1) (p o2 o2) (q ?x)");
  len = 0;
  all[0] = 0;
  for (int32_t i = t->goal0; i < t->goal0 + t->ngoal; ++i) {
    CHECK_EQ_INT(t->lits[i].quant, -1);
    lit_str(t, i, one, sizeof one);
    len += (size_t)snprintf(all + len, sizeof all - len, "%s%s", len ? " " : "", one);
  }
  /* each literal's instances in turn, in object order */
  CHECK_STR(all, "(p o1 o1) (p o1 o2) (p o2 o1) (p o2 o2) (q o1) (q o2) !(= o1 o1) !(= o1 o2) "
                 "!(= o2 o1) !(= o2 o2)");
  goap_pddl_destroy(task);
}

TEST(method_constraints_on_equalities) {
  const char dom[] =
      "(define (domain d) (:types a)\n"
      " (:predicates (p ?x - a))\n"
      " (:action pair :parameters (?x ?y - a) :precondition (and (p ?x) (p ?y)) :effect ())\n"
      " (:task t :parameters ())\n"
      " (:method m :parameters (?x ?y - a) :task (t)\n"
      "  :precondition (and (p ?x) (p ?y))\n"
      "  :subtasks (and (s (pair ?x ?y)))\n"
      "  :constraints (and (not (= ?x ?y)))))\n";
  const char prob[] = "(define (problem q) (:domain d) (:objects o1 o2 - a)\n"
                      " (:htn :ordered-subtasks (t)) (:init (p o1) (p o2)))\n";
  goap_pddl_task *t = parse_text(dom, prob);
  REQUIRE(t);
  goap_hddl_plan *p = NULL;
  REQUIRE(goap_hddl_solve(t, NULL, &p, NULL) == GOAP_OK);
  char *text = plan_text(t, p);
  REQUIRE(text != NULL);
  /* without the constraint, (pair o1 o1) would come first */
  CHECK_STR(text, "==>\n0 pair o1 o2\nroot 1\n1 t -> m 0\n<==\n");
  free(text);
  goap_hddl_plan_destroy(p);
  goap_pddl_destroy(t);
}

TEST(no_fixed_limit_on_parameters_or_subtasks) {
  /* a method of 70 parameters (the old limit was 64) */
  goap_pddl_task *t = load("wide.hddl", "wide-1.hddl");
  REQUIRE(t != NULL);
  CHECK_EQ_INT(t->c.htn.methods[0].nparams, 70);
  goap_hddl_plan *p = NULL;
  REQUIRE(goap_hddl_solve(t, NULL, &p, NULL) == GOAP_OK);
  CHECK_EQ_INT(goap_hddl_plan_length(p), 70);
  char *text = plan_text(t, p);
  REQUIRE(text != NULL);
  CHECK(starts_with(text, "==>\n0 finish o1\n1 finish o2\n"));
  CHECK(strstr(text, "\n69 finish o70\nroot 70\n70 all -> m-all 0 1 2 ") != NULL);
  free(text);
  goap_hddl_plan_destroy(p);
  goap_pddl_destroy(t);
  /* an initial task network of 1100 subtasks (the old limit was 1024), in a total :ordering */
  t = load("wide.hddl", "long-1.hddl");
  REQUIRE(t != NULL);
  CHECK_EQ_INT(t->c.htn.top_nsteps, 1100);
  REQUIRE(goap_hddl_solve(t, NULL, &p, NULL) == GOAP_OK);
  CHECK_EQ_INT(goap_hddl_plan_length(p), 1100);
  text = plan_text(t, p);
  REQUIRE(text != NULL);
  CHECK(strstr(text, "\n1099 touch o2\nroot 0 1 2 ") != NULL);
  free(text);
  goap_hddl_plan_destroy(p);
  goap_pddl_destroy(t);
}

/* ---- parse errors ---------------------------------------------------------------------- */

static const char dom_head[] =
    "(define (domain d) (:types a)\n"      /* 1 */
    " (:predicates (p ?x - a))\n"          /* 2 */
    " (:action act :parameters (?x - a) :precondition (p ?x) :effect (not (p ?x)))\n" /* 3 */
    " (:task t :parameters (?x - a))\n";   /* 4 */

static const char prob_ok[] =
    "(define (problem q) (:domain d) (:objects o - a)\n"
    " (:htn :ordered-subtasks (t o)) (:init (p o)))\n";

typedef struct perr {
  const char *dom_tail; /* after dom_head, line 5 on */
  const char *prob;     /* NULL: prob_ok */
  int flags;
  goap_status st;
  const char *file;
  int line, col;
  const char *msg;
} perr;

static const perr parse_cases[] = {
    {" (:method m :parameters (?x - a) :task (t ?x) :ordered-subtasks (actt ?x)))", NULL,
     GOAP_PDDL_HTN, GOAP_NOT_FOUND, "d.hddl", 5, 66,
     "unknown task or action 'actt' in a subtask (did you mean 'act'?)"},
    {" (:method m :parameters (?x - a) :task (t ?x) :ordered-subtasks (act)))", NULL,
     GOAP_PDDL_HTN, GOAP_TYPE_MISMATCH, "d.hddl", 5, 65, "'act' takes 1 argument, 0 given"},
    {" (:method m :parameters (?x - a) :task (t ?y) :ordered-subtasks ()))", NULL,
     GOAP_PDDL_HTN, GOAP_NOT_FOUND, "d.hddl", 5, 43,
     "unknown variable '?y' (not a parameter of this method)"},
    {" (:method m :parameters (?x - a) :task (act ?x) :ordered-subtasks ()))", NULL,
     GOAP_PDDL_HTN, GOAP_PARSE_ERROR, "d.hddl", 5, 41,
     "method 'm' decomposes 'act', which is an action (a method's :task must be a compound "
     "task)"},
    {" (:method m :parameters (?x - a) :task (t ?x)\n"
     "  :subtasks (and (s1 (act ?x)) (s2 (act ?x)) (s3 (t ?x)))\n"
     "  :ordering (and (< s1 s2))))",
     NULL, GOAP_PDDL_HTN, GOAP_PARSE_ERROR, "d.hddl", 7, 13,
     "unsupported construct: the ':ordering' is not total ('s1' and 's3' are unordered; "
     "partial-order HDDL is not supported)"},
    {" (:method m :parameters (?x - a) :task (t ?x)\n"
     "  :subtasks (and (s1 (act ?x)) (s2 (act ?x)))\n"
     "  :ordering (and (< s1 s2) (< s2 s1))))",
     NULL, GOAP_PDDL_HTN, GOAP_PARSE_ERROR, "d.hddl", 7, 13, "cyclic ':ordering' (around 's1')"},
    {" (:method m :parameters (?x - a) :task (t ?x)\n"
     "  :subtasks (and (s1 (act ?x)) (s1 (act ?x)))))",
     NULL, GOAP_PDDL_HTN, GOAP_DUPLICATE, "d.hddl", 6, 33, "subtask label 's1' is used twice"},
    {" (:method m :parameters (?x - a) :task (t ?x)\n"
     "  :subtasks (and (s1 (act ?x)) (s2 (act ?x)))))",
     NULL, GOAP_PDDL_HTN, GOAP_PARSE_ERROR, "d.hddl", 6, 13,
     "unsupported construct: subtasks without an ':ordering' (partial-order HDDL; use "
     "':ordered-subtasks' or a total ':ordering')"},
    {" (:method m :parameters (?x - a) :task (t ?x)\n"
     "  :precondition (forall ?y (p ?y)) :ordered-subtasks ()))",
     NULL, GOAP_PDDL_HTN, GOAP_PARSE_ERROR, "d.hddl", 6, 17,
     "'forall' takes a variable list and a formula: '(forall (?x - type) ...)'"},
    {" (:method m :parameters (?x - a) :task (t ?x)\n"
     "  :precondition (forall () (p ?x)) :ordered-subtasks ()))",
     NULL, GOAP_PDDL_HTN, GOAP_PARSE_ERROR, "d.hddl", 6, 25, "'forall' binds no variable"},
    {" (:method m :parameters (?x - a) :task (t ?x)\n"
     "  :precondition (forall (?y ?y - a) (p ?y)) :ordered-subtasks ()))",
     NULL, GOAP_PDDL_HTN, GOAP_DUPLICATE, "d.hddl", 6, 29, "parameter '?y' is declared twice"},
    {" (:method m :parameters (?x - a) :task (t ?x)\n"
     "  :precondition (forall (?y - a) (p ?z)) :ordered-subtasks ()))",
     NULL, GOAP_PDDL_HTN, GOAP_NOT_FOUND, "d.hddl", 6, 37,
     "unknown variable '?z' (not a parameter of this method)"},
    {" (:method m :parameters (?x - a) :task (t ?x)\n"
     "  :precondition (not (forall (?y - a) (p ?y))) :ordered-subtasks ()))",
     NULL, GOAP_PDDL_HTN, GOAP_PARSE_ERROR, "d.hddl", 6, 22,
     "unsupported construct: 'not' of a compound formula '(forall ...)'"},
    {" (:method m :parameters (?x - a) :task (t ?x)\n"
     "  :precondition (exists (?y - a) (p ?y)) :ordered-subtasks ()))",
     NULL, GOAP_PDDL_HTN, GOAP_PARSE_ERROR, "d.hddl", 6, 17,
     "unsupported construct 'exists' (existential condition)"},
    {" (:method m :parameters (?x - a) :task (t ?x)\n"
     "  :constraints (and (p ?x)) :ordered-subtasks ()))",
     NULL, GOAP_PDDL_HTN, GOAP_PARSE_ERROR, "d.hddl", 6, 21,
     "unsupported construct: a method ':constraints' other than '(= ?a ?b)' or '(not (= ?a ?b))'"},
    {")",
     "(define (problem q) (:domain d) (:objects o - a)\n"
     " (:htn :ordered-subtasks (t o)) (:init (p o))\n"
     " (:goal (forall (?v - a) (p ?w))))",
     GOAP_PDDL_HTN, GOAP_PARSE_ERROR, "p.hddl", 3, 29, "variable '?w' in a ground formula"},
    {" (:method m :parameters (?x - a) :task (t ?x) :ordered-subtasks ())\n"
     " (:method m :parameters (?x - a) :task (t ?x) :ordered-subtasks ()))",
     NULL, GOAP_PDDL_HTN, GOAP_DUPLICATE, "d.hddl", 6, 11, "method 'm' is defined twice"},
    {" (:task act :parameters ()))", NULL, GOAP_PDDL_HTN, GOAP_DUPLICATE, "d.hddl", 5, 9,
     "task 'act' has the name of an action (a name is a task or an action)"},
    {" (:method m :parameters (?x - a) :task (t ?x) :ordered-subtasks ()))", NULL, 0,
     GOAP_PARSE_ERROR, "d.hddl", 4, 2, "HTN construct ':task' (HDDL): load with goap hddl"},
    {")", "(define (problem q) (:domain d) (:objects o - a)\n (:htn :ordered-subtasks (t o)))", 0,
     GOAP_PARSE_ERROR, "d.hddl", 4, 2, "HTN construct ':task' (HDDL): load with goap hddl"},
    {")",
     "(define (problem q) (:domain d) (:objects o - a)\n"
     " (:htn :subtasks (and (x (t o)) (y (t o))) :ordering (< x z)))",
     GOAP_PDDL_HTN, GOAP_NOT_FOUND, "p.hddl", 2, 59, "unknown subtask label 'z' in ':ordering'"},
    {")",
     "(define (problem q) (:domain d) (:objects o - a)\n"
     " (:htn :ordered-subtasks (and (t o) (t ?v))))",
     GOAP_PDDL_HTN, GOAP_NOT_FOUND, "p.hddl", 2, 40,
     "unknown variable '?v' (not a parameter of this task network)"},
    {")", "(define (problem q) (:domain d) (:objects o - a)\n (:init (p o)))", GOAP_PDDL_HTN,
     GOAP_PARSE_ERROR, "p.hddl", 1, 1, "the problem has neither ':htn' nor ':goal'"},
};

TEST(parse_errors_have_exact_positions) {
  for (size_t i = 0; i < sizeof parse_cases / sizeof parse_cases[0]; ++i) {
    const perr *c = &parse_cases[i];
    char dom[4096];
    snprintf(dom, sizeof dom, "%s%s", dom_head, c->dom_tail);
    const char *prob = c->prob ? c->prob : prob_ok;
    goap_pddl_options o;
    memset(&o, 0, sizeof o);
    o.flags = (unsigned)c->flags;
    goap_pddl_task *t = NULL;
    goap_error err;
    goap_status st =
        goap_pddl_parse("d.hddl", dom, strlen(dom), "p.hddl", prob, strlen(prob), &o, &t, &err);
    if (st != c->st || err.line != c->line || err.col != c->col ||
        strcmp(err.message, c->msg) != 0 || strcmp(err.file, c->file) != 0)
      fprintf(stderr, "case %zu: %s %s:%d:%d: %s\n", i, goap_status_name(st), err.file, err.line,
              err.col, err.message);
    CHECK_EQ_INT(st, c->st);
    CHECK_STR(err.file, c->file);
    CHECK_EQ_INT(err.line, c->line);
    CHECK_EQ_INT(err.col, c->col);
    CHECK_STR(err.message, c->msg);
    CHECK(t == NULL);
    goap_pddl_destroy(t);
  }
}

TEST(sections_in_any_order_and_ordering_sorted) {
  /* methods before the tasks and actions they name; :subtasks listed out of order */
  const char dom[] =
      "(define (domain d) (:types a)\n"
      " (:method m :parameters (?x - a) :task (t ?x)\n"
      "  :subtasks (and (s3 (off ?x)) (s1 (on ?x)) (s2 (u ?x)))\n"
      "  :ordering (and (< s2 s3) (> s2 s1)))\n"
      " (:method mu :parameters (?x - a) :task (u ?x) :ordered-subtasks (and))\n"
      " (:task t :parameters (?x - a)) (:task u :parameters (?x - a))\n"
      " (:predicates (p ?x - a))\n"
      " (:action on :parameters (?x - a) :precondition (not (p ?x)) :effect (p ?x))\n"
      " (:action off :parameters (?x - a) :precondition (p ?x) :effect (not (p ?x))))\n";
  const char prob[] = "(define (problem q) (:domain d) (:objects o - a)\n"
                      " (:htn :parameters () :tasks (t o)) (:init))\n";
  goap_pddl_task *t = parse_text(dom, prob);
  REQUIRE(t);
  CHECK(goap_pddl_domain(t) == NULL); /* HTN implies parse-only */
  goap_hddl_plan *p = NULL;
  REQUIRE(goap_hddl_solve(t, NULL, &p, NULL) == GOAP_OK);
  char *text = plan_text(t, p);
  REQUIRE(text != NULL);
  CHECK_STR(text, "==>\n0 on o\n1 off o\nroot 2\n2 t o -> m 0 3 1\n3 u o -> mu\n<==\n");
  static checker c;
  CHECK(check_plan(&c, t, text));
  free(text);
  goap_hddl_plan_destroy(p);
  goap_pddl_destroy(t);
}

TEST(null_and_non_htn_arguments) {
  goap_hddl_plan *p = NULL;
  CHECK_EQ_INT(goap_hddl_solve(NULL, NULL, &p, NULL), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_hddl_is_htn(NULL), 0);
  CHECK_EQ_INT(goap_hddl_plan_length(NULL), 0);
  goap_hddl_plan_destroy(NULL);
  char buf[4] = "abc";
  CHECK_EQ_INT(goap_hddl_plan_write(NULL, NULL, buf, sizeof buf), 0);
  CHECK_STR(buf, "");
  /* a plain PDDL task is not HTN */
  const char dom[] = "(define (domain d) (:predicates (p ?x)) (:action a :parameters (?x)"
                     " :effect (p ?x)))";
  const char prob[] = "(define (problem q) (:domain d) (:objects o) (:goal (p o)))";
  goap_pddl_task *t = NULL;
  goap_error err;
  REQUIRE(goap_pddl_parse("d", dom, strlen(dom), "p", prob, strlen(prob), NULL, &t, &err) ==
          GOAP_OK);
  CHECK_EQ_INT(goap_hddl_is_htn(t), 0);
  CHECK_EQ_INT(goap_hddl_solve(t, NULL, &p, NULL), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_hddl_solve(t, NULL, NULL, NULL), GOAP_INVALID_ARGUMENT);
  goap_pddl_destroy(t);
}

/* ---- allocation failures ---------------------------------------------------------------- */

static void alloc_sweep(int *test_failures_, const char *dname, const char *pname, int want) {
  size_t dl, pl;
  char *dom = read_test_file(dname, &dl);
  char *prob = read_test_file(pname, &pl);
  REQUIRE(dom && prob);
  int successes = 0;
  for (size_t k = 1; k < 100000; ++k) {
    test_alloc c;
    memset(&c, 0, sizeof c);
    c.fail_at = k;
    goap_pddl_options opt;
    memset(&opt, 0, sizeof opt);
    opt.flags = GOAP_PDDL_HTN;
    opt.allocator = test_alloc_hook(&c);
    goap_pddl_task *t = NULL;
    goap_error err;
    goap_status st = goap_pddl_parse("d", dom, dl, "p", prob, pl, &opt, &t, &err);
    goap_hddl_plan *p = NULL;
    if (st == GOAP_OK) {
      st = goap_hddl_solve(t, NULL, &p, NULL);
      if (st == GOAP_OK) {
        CHECK_EQ_INT(goap_hddl_plan_length(p), want);
        goap_hddl_plan_destroy(p);
      } else {
        CHECK(p == NULL);
      }
      goap_pddl_destroy(t);
    } else {
      CHECK(t == NULL);
    }
    CHECK_EQ_INT(c.outstanding, 0);
    CHECK_EQ_INT(c.bad_old_size, 0);
    if (st == GOAP_OK) {
      successes++;
      if (c.calls < k) break; /* no allocation was failed: every point has been tried */
      continue;
    }
    CHECK_EQ_INT(st, GOAP_OUT_OF_MEMORY);
    if (c.outstanding || c.bad_old_size || st != GOAP_OUT_OF_MEMORY) {
      fprintf(stderr, "failing allocation %zu: %s\n", k, goap_status_name(st));
      break;
    }
  }
  CHECK(successes >= 1);
  free(dom);
  free(prob);
}

TEST(allocation_failures_are_clean) {
  alloc_sweep(test_failures_, "transport.hddl", "transport-1.hddl", 10);
  alloc_sweep(test_failures_, "lamps.hddl", "lamps-1.hddl", 5); /* forall instances */
  alloc_sweep(test_failures_, "wide.hddl", "wide-1.hddl", 70);  /* grown parameter tables */
}

TEST_MAIN(TEST_ENTRY(left_recursive_transport_terminates_with_a_valid_plan),
          TEST_ENTRY(blocks_with_negation_and_equality), TEST_ENTRY(backtracks_into_earlier_tasks),
          TEST_ENTRY(exhausted_space_is_no_plan), TEST_ENTRY(budgets_have_their_statuses),
          TEST_ENTRY(binding_enumeration_is_bounded),
          TEST_ENTRY(deterministic_and_snprintf_semantics),
          TEST_ENTRY(loops_in_tail_position_are_pruned), TEST_ENTRY(tail_calls_keep_their_depth),
          TEST_ENTRY(repeated_situations_are_pruned),
          TEST_ENTRY(joins_look_only_at_matching_atoms),
          TEST_ENTRY(methods_that_never_reach_primitives_are_dropped),
          TEST_ENTRY(second_method_order_takes_turns),
          TEST_ENTRY(static_preconditions_of_subtasks_prune_bindings),
          TEST_ENTRY(first_subtask_preconditions_prune_bindings),
          TEST_ENTRY(later_subtasks_lift_only_static_preconditions),
          TEST_ENTRY(lifted_literals_keep_the_binding_order),
          TEST_ENTRY(join_starts_from_the_most_bound_literal),
          TEST_ENTRY(one_method_order_one_search),
          TEST_ENTRY(second_search_bounds_recursion_only),
          TEST_ENTRY(tasks_that_cannot_reach_the_goal_are_pruned),
          TEST_ENTRY(methods_that_may_reach_a_false_goal_literal_come_first),
          TEST_ENTRY(relaxed_goal_test_follows_preconditions_of_achievers),
          TEST_ENTRY(forall_in_an_action_a_method_and_the_goal),
          TEST_ENTRY(forall_instances_nesting_shadowing_and_empty_types),
          TEST_ENTRY(method_constraints_on_equalities),
          TEST_ENTRY(no_fixed_limit_on_parameters_or_subtasks),
          TEST_ENTRY(parse_errors_have_exact_positions),
          TEST_ENTRY(sections_in_any_order_and_ordering_sorted),
          TEST_ENTRY(null_and_non_htn_arguments), TEST_ENTRY(allocation_failures_are_clean))
