/*
 * validate.c -- checking a plan against the lifted task, independently of the grounding and
 * of the planner.
 *
 * Invariants:
 *  - The state is a set of ground atoms (static ones included): atoms are interned in a tuple
 *    set and a truth byte per interned atom says whether it holds. The initial state is :init.
 *  - A step is applicable when every precondition literal of its schema, instantiated with the
 *    step's objects, holds; applying it removes the delete effects and then adds the add
 *    effects (an atom both deleted and added ends up true), and adds the action's cost.
 *  - The task is only read (it may be shared between threads); the plan text is read within
 *    its length and never kept.
 */
#include <stdio.h>
#include <string.h>

#include "pddl_internal.h"

typedef struct vstate {
  const px_task_core *t;
  const goap_allocator *a;
  px_aset state;
} vstate;

static int set_atom(vstate *v, int32_t pred, const int32_t *args, int n, uint8_t val) {
  return goap__px_aset_set(v->a, &v->state, pred, args, n, val);
}

static int holds(const vstate *v, int32_t pred, const int32_t *args, int n) {
  return goap__px_aset_holds(&v->state, pred, args, n);
}

static goap_status plan_error(goap_error *d, const char *name, int line, int col,
                              const char *text, size_t len, const char *msg) {
  return goap__px_text_error(d, name, line, col, text, len, msg);
}

/* Writes "(name a b)" of a literal instantiated with bind into buf. */
static void lit_text(const px_task_core *t, const px_lit *l, const int32_t *bind, char *buf,
                     size_t cap) {
  int32_t args[PX_MAX_ARITY];
  int n = l->pred == PX_EQ ? 2 : t->preds[l->pred].arity;
  const int32_t *la = t->args.v + l->args;
  for (int i = 0; i < n; ++i) args[i] = la[i] >= 0 ? la[i] : bind[-(la[i] + 1)];
  char atom[400];
  goap__px_format_atom(t, l->pred, args, atom, sizeof atom);
  if (l->neg) goap__px_fmt(buf, cap, "(not %s)", atom);
  else goap__px_fmt(buf, cap, "%s", atom);
}

static int is_space(unsigned c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

goap_status goap_pddl_validate(const goap_pddl_task *task, const char *plan_name,
                               const char *text, size_t len, goap_pddl_report *r,
                               goap_error *err) {
  if (err) memset(err, 0, sizeof *err);
  if (!task || !r || (!text && len)) {
    if (err) {
      err->status = GOAP_INVALID_ARGUMENT;
      goap__px_fmt(err->message, sizeof err->message, "NULL argument");
    }
    return GOAP_INVALID_ARGUMENT;
  }
  memset(r, 0, sizeof *r);
  r->bad_step = -1;
  const px_task_core *t = &task->c;
  if (len > t->opt.max_bytes) {
    if (err) {
      err->status = GOAP_TOO_LARGE;
      goap__px_fmt(err->file, sizeof err->file, "%s", plan_name ? plan_name : "<plan>");
      goap__px_fmt(err->message, sizeof err->message, "the plan is %zu bytes, more than the %zu allowed",
               len, t->opt.max_bytes);
    }
    return GOAP_TOO_LARGE;
  }
  vstate v;
  memset(&v, 0, sizeof v);
  v.t = t;
  v.a = &t->alloc;
  goap_status st = GOAP_OK;
  int has_costs = goap_pddl_has_costs(task);
  for (size_t i = 0; i + 1 < t->init.n; i += 2) {
    int32_t p = t->init.v[i];
    if (!set_atom(&v, p, t->args.v + t->init.v[i + 1], t->preds[p].arity, 1)) goto oom;
  }

  px_ivec symv = {NULL, 0, 0}, bindv = {NULL, 0, 0}; /* a step's names; its binding */
  size_t i = 0, line_start = 0;
  int line = 1, failed = 0;
  char msg[512], lt[400];
  while (i < len) {
    i = goap__px_skip_blank(text, len, i, &line, &line_start);
    if (i >= len) break;
    unsigned c = (unsigned char)text[i];
    int col = (int)(i - line_start) + 1;
    if (c != '(') {
      st = plan_error(err, plan_name, line, col, text, len, "expected '(' starting a step '(action arg ...)'");
      goto done;
    }
    /* read the step's names */
    size_t start = i++;
    symv.n = 0;
    int nsym = 0, unknown = -1;
    char unknown_name[128] = "";
    for (;;) {
      /* every blank but a line end (is_space's \f and \v too: a name stops at them) */
      while (i < len && is_space((unsigned char)text[i]) && text[i] != '\n' && text[i] != '\r')
        ++i;
      if (i >= len || text[i] == '\n' || text[i] == '\r' || text[i] == ';') {
        st = plan_error(err, plan_name, line, col, text, len, "this step's '(' is not closed on its line");
        goto done;
      }
      if (text[i] == ')') {
        ++i;
        break;
      }
      if (text[i] == '(') {
        st = plan_error(err, plan_name, line, (int)(i - line_start) + 1, text, len,
                        "unexpected '(' inside a step");
        goto done;
      }
      size_t j = i;
      while (j < len && !is_space((unsigned char)text[j]) && text[j] != '(' && text[j] != ')' && text[j] != ';')
        ++j;
      if (nsym == INT32_MAX) {
        st = plan_error(err, plan_name, line, col, text, len, "a step with too many arguments");
        goto done;
      }
      char name[PX_MAX_NAME + 1];
      size_t n = j - i < PX_MAX_NAME ? j - i : PX_MAX_NAME;
      for (size_t k = 0; k < n; ++k) {
        char ch = text[i + k];
        name[k] = (ch >= 'A' && ch <= 'Z') ? (char)(ch + 32) : ch;
      }
      name[n] = 0;
      int32_t sym = goap__px_sym_find(&t->syms, name);
      if (sym < 0 && unknown < 0) {
        unknown = nsym;
        goap__px_fmt(unknown_name, sizeof unknown_name, "%s", name);
      }
      if (!goap__px_ipush(v.a, &symv, sym)) goto oom;
      nsym++;
      i = j;
    }
    int step = r->steps++;
    if (failed) continue;
    char steptext[256];
    {
      size_t n = i - start < sizeof steptext - 1 ? i - start : sizeof steptext - 1;
      memcpy(steptext, text + start, n);
      steptext[n] = 0;
    }
    const char *why = NULL;
    const int32_t *syms = symv.v;
    int32_t si = -1, *bind = NULL;
    if (nsym == 0) {
      why = "an empty step '()'";
    } else if (unknown == 0 || (si = px_map_get(&t->schema_of, syms[0])) < 0) {
      goap__px_fmt(msg, sizeof msg, "step %d %s: unknown action '%s'", step + 1, steptext,
               unknown == 0 ? unknown_name : px_name(t, syms[0]));
    } else if (nsym - 1 != t->schemas[si].nparams) {
      goap__px_fmt(msg, sizeof msg, "step %d %s: '%s' takes %d argument%s, %d given", step + 1,
               steptext, px_name(t, syms[0]), t->schemas[si].nparams,
               t->schemas[si].nparams == 1 ? "" : "s", nsym - 1);
    } else {
      const px_schema *s = &t->schemas[si];
      msg[0] = 0;
      for (bindv.n = 0; bindv.n < (size_t)s->nparams;)
        if (!goap__px_ipush(v.a, &bindv, -1)) goto oom;
      bind = bindv.v;
      for (int k = 0; k < s->nparams && !msg[0]; ++k) {
        int32_t o = px_map_get(&t->obj_of, syms[k + 1]);
        int32_t ty = t->args.v[s->ptypes + k];
        if (o < 0)
          goap__px_fmt(msg, sizeof msg, "step %d %s: unknown object '%s'", step + 1, steptext,
                   syms[k + 1] >= 0 ? px_name(t, syms[k + 1]) : unknown_name);
        else if (!t->is_a[(size_t)o * t->ntypes + (size_t)ty])
          goap__px_fmt(msg, sizeof msg, "step %d %s: '%s' is not of type '%s' (parameter %s)",
                   step + 1, steptext, px_name(t, syms[k + 1]), px_name(t, t->types[ty].sym),
                   px_name(t, t->args.v[s->pnames + k]));
        else
          bind[k] = o;
      }
      /* preconditions */
      for (int32_t k = 0; k < s->nlits && !msg[0]; ++k) {
        const px_lit *l = &t->lits[s->lit0 + k];
        if (l->kind != PX_LIT_PRE) continue;
        int32_t args[PX_MAX_ARITY];
        int n = l->pred == PX_EQ ? 2 : t->preds[l->pred].arity;
        const int32_t *la = t->args.v + l->args;
        for (int q = 0; q < n; ++q) args[q] = la[q] >= 0 ? la[q] : bind[-(la[q] + 1)];
        int h = l->pred == PX_EQ ? args[0] == args[1] : holds(&v, l->pred, args, n);
        if (h == !!l->neg) {
          lit_text(t, l, bind, lt, sizeof lt);
          goap__px_fmt(msg, sizeof msg, "step %d %s: precondition %s does not hold", step + 1,
                   steptext, lt);
        }
      }
      /* cost */
      double cost = 1.0;
      if (!msg[0] && has_costs) {
        cost = 0.0;
        if (s->cost_kind == PX_COST_CONST) {
          cost = s->cost_value;
        } else if (s->cost_kind == PX_COST_FUNC) {
          int32_t args[PX_MAX_ARITY];
          int n = t->funcs[s->cost_func].arity;
          const int32_t *ca = t->args.v + s->cost_args;
          for (int q = 0; q < n; ++q) args[q] = ca[q] >= 0 ? ca[q] : bind[-(ca[q] + 1)];
          int32_t fe = goap__px_tset_find(&t->fvals, s->cost_func, args, n);
          if (fe < 0)
            goap__px_fmt(msg, sizeof msg, "step %d %s: its cost function '%s' has no value in :init",
                     step + 1, steptext, px_name(t, t->funcs[s->cost_func].sym));
          else
            cost = t->fval[fe];
        }
      }
      /* effects: deletes, then adds */
      for (int pass = 0; pass < 2 && !msg[0]; ++pass)
        for (int32_t k = 0; k < s->nlits; ++k) {
          const px_lit *l = &t->lits[s->lit0 + k];
          if (l->kind != (pass == 0 ? PX_LIT_DEL : PX_LIT_ADD)) continue;
          int32_t args[PX_MAX_ARITY];
          int n = t->preds[l->pred].arity;
          const int32_t *la = t->args.v + l->args;
          for (int q = 0; q < n; ++q) args[q] = la[q] >= 0 ? la[q] : bind[-(la[q] + 1)];
          if (!set_atom(&v, l->pred, args, n, pass == 1)) goto oom;
        }
      if (!msg[0]) {
        r->cost += cost;
        continue;
      }
    }
    if (why) goap__px_fmt(msg, sizeof msg, "step %d: %s", step + 1, why);
    failed = 1;
    r->bad_step = step;
    r->line = line;
    r->col = col;
    goap__px_fmt(r->message, sizeof r->message, "%s", msg);
  }
  if (!failed) {
    for (int32_t k = 0; k < t->ngoal; ++k) {
      const px_lit *l = &t->lits[t->goal0 + k];
      int n = l->pred == PX_EQ ? 2 : t->preds[l->pred].arity;
      const int32_t *la = t->args.v + l->args;
      int h = l->pred == PX_EQ ? la[0] == la[1] : holds(&v, l->pred, la, n);
      if (h == !!l->neg) {
        lit_text(t, l, NULL, lt, sizeof lt);
        goap__px_fmt(r->message, sizeof r->message, "the goal %s does not hold after the %d step%s",
                 lt, r->steps, r->steps == 1 ? "" : "s");
        r->bad_step = r->steps;
        failed = 1;
        break;
      }
    }
  }
  r->valid = !failed;
  goto done;
oom:
  st = GOAP_OUT_OF_MEMORY;
  if (err) {
    err->status = st;
    goap__px_fmt(err->message, sizeof err->message, "out of memory");
  }
done:
  goap__px_ivec_free(v.a, &symv);
  goap__px_ivec_free(v.a, &bindv);
  goap__px_aset_free(v.a, &v.state);
  return st;
}
