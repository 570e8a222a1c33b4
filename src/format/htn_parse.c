/*
 * htn_parse.c -- the HTN part of the `.goap` format: `task NAME` blocks holding `method NAME`
 * entries with `when CONDS` and `do SUBTASKS` lines, and a scenario's `task ROOT`.
 *
 * Invariants:
 *  - Lines come from parser.c one at a time (goap__htn_line); nothing here recurses or reads
 *    ahead. Conditions and effects are parsed with the shared expression parser, so they have
 *    the same rules and messages as `pre` / `eff`.
 *  - Names in `do` lines, `achieve GOAL` and a scenario's `task` may refer to actions, goals
 *    and tasks defined anywhere in the file: they are resolved after the last line
 *    (goap__htn_finalize), with a "did you mean" on failure. Variables must be declared first,
 *    as everywhere.
 *  - Every error carries the position of the token or item it concerns; on failure nothing is
 *    built and everything allocated is released by goap__htn_ir_free / goap_file_destroy.
 */
#include <stdio.h>
#include <string.h>

#include "format_internal.h"

#define NS_TASK (-1)
#define NS_METHOD(t) (-2 - (t))

typedef struct hsub {
  goap_htn_kind kind;
  const char *name; /* ACTION-or-TASK / ACHIEVE_GOAL: the name to resolve */
  size_t len;
  goap__pos pos;
  size_t i0, n; /* ACHIEVE: conditions, SET: effects (into items) */
} hsub;

typedef struct hmethod {
  const char *name;
  goap__pos pos;
  size_t w0, wn; /* when conditions (into items) */
  size_t s0, sn; /* subtasks */
} hmethod;

typedef struct htask {
  const char *name;
  goap__pos pos;
  size_t m0, mn;
} htask;

typedef struct scen_task {
  int scenario;
  const char *name;
  size_t len;
  goap__pos pos;
} scen_task;

struct goap__htn_ir {
  htask *tasks;
  size_t ntasks, tasks_cap;
  hmethod *methods;
  size_t nmethods, methods_cap;
  hsub *subs;
  size_t nsubs, subs_cap;
  goap__item *items;
  size_t nitems, items_cap;
  scen_task *scen;
  size_t nscen, scen_cap;
  int in_task, in_method;
  int when_line, do_line; /* of the current method (0: none yet) */
};

#define TRY(x)                            \
  do {                                    \
    goap_status try_s_ = (x);             \
    if (try_s_ != GOAP_OK) return try_s_; \
  } while (0)

#define GROW(a, arr, cap, need) \
  if (!goap__grow((a), (void **)&(arr), &(cap), (need), sizeof *(arr))) return GOAP_OUT_OF_MEMORY

goap__htn_ir *goap__htn_ir_create(const goap_allocator *a) {
  goap__htn_ir *ir = (goap__htn_ir *)goap__mem_alloc(a, sizeof *ir);
  if (ir) memset(ir, 0, sizeof *ir);
  return ir;
}

void goap__htn_ir_free(const goap_allocator *a, goap__htn_ir *ir) {
  if (!ir) return;
  goap__mem_free(a, ir->tasks, ir->tasks_cap * sizeof *ir->tasks);
  goap__mem_free(a, ir->methods, ir->methods_cap * sizeof *ir->methods);
  goap__mem_free(a, ir->subs, ir->subs_cap * sizeof *ir->subs);
  goap__mem_free(a, ir->items, ir->items_cap * sizeof *ir->items);
  goap__mem_free(a, ir->scen, ir->scen_cap * sizeof *ir->scen);
  goap__mem_free(a, ir, sizeof *ir);
}

/* ------------------------------------------------------------------------------------------
 * Errors at a stored position
 * ---------------------------------------------------------------------------------------- */
static size_t line_len_at(const char *text, size_t len, size_t off) {
  const char *nl;
  size_t n;
  if (off > len) return 0;
  nl = (const char *)memchr(text + off, '\n', len - off);
  n = nl ? (size_t)(nl - (text + off)) : len - off;
  if (n > 0 && text[off + n - 1] == '\r') --n;
  return n;
}

static goap_status err_at(goap__ectx *ec, const char *text, size_t len, goap_status st,
                          const goap__pos *pos, const char *fmt, ...) GOAP__PRINTF(6, 7);
static goap_status err_at(goap__ectx *ec, const char *text, size_t len, goap_status st,
                          const goap__pos *pos, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (pos && pos->line)
    goap__diag_vset(ec->diag, GOAP_SEVERITY_ERROR, st, ec->file, pos->line, pos->col,
                    text + pos->line_off, line_len_at(text, len, pos->line_off), fmt, ap);
  else
    goap__diag_vset(ec->diag, GOAP_SEVERITY_ERROR, st, ec->file, 0, 0, NULL, 0, fmt, ap);
  va_end(ap);
  return st;
}

static goap__pos tok_pos(const goap__htn_line_ctx *c) {
  goap__pos r;
  r.line = c->ec->line;
  r.col = (int)c->lx->tok.off + 1;
  r.line_off = c->line_off;
  return r;
}

/* ------------------------------------------------------------------------------------------
 * Lines
 * ---------------------------------------------------------------------------------------- */
static int word_is(const goap__htn_line_ctx *c, const char *kw) { return goap__tok_is(c->lx, kw); }

int goap__htn_opens_block(const goap__htn_ir *ir, const goap__htn_line_ctx *c) {
  if (!word_is(c, "task")) return 0;
  if (c->in_scenario && !c->scenario_has_target &&
      !goap__htn_scenario_has_task(ir, c->scenario))
    return 0; /* the scenario's root task */
  return 1;
}

int goap__htn_scenario_has_task(const goap__htn_ir *ir, int index) {
  size_t i;
  for (i = ir->nscen; i-- > 0;) {
    if (ir->scen[i].scenario == index) return 1;
    if (ir->scen[i].scenario < index) break;
  }
  return 0;
}

static goap_status take_name(const goap_allocator *a, goap__htn_line_ctx *c, const char *what,
                             const char **out) {
  goap__lexer *lx = c->lx;
  if (lx->tok.kind != GOAP__T_IDENT) return goap__expected(lx, what);
  *out = goap__arena_strndup(a, c->arena, c->ec->src + lx->tok.off, lx->tok.len);
  return *out ? GOAP_OK : GOAP_OUT_OF_MEMORY;
}

static goap_status expect_eol(goap__lexer *lx, const char *after) {
  char what[96];
  if (lx->tok.kind == GOAP__T_EOL) return GOAP_OK;
  snprintf(what, sizeof what, "end of line after %s", after);
  return goap__expected(lx, what);
}

/* A comma-separated list of conditions or effects up to the end of the line. */
static goap_status parse_items(const goap_allocator *a, goap__htn_ir *ir,
                               goap__htn_line_ctx *c, goap__mode mode, const char *kw,
                               size_t *i0, size_t *n) {
  goap__lexer *lx = c->lx;
  *i0 = ir->nitems;
  *n = 0;
  if (lx->tok.kind == GOAP__T_EOL) {
    char t[64];
    snprintf(t, sizeof t, "%s after '%s'", mode == GOAP__COND ? "a condition" : "an effect", kw);
    return goap__expected(lx, t);
  }
  for (;;) {
    goap__item it;
    TRY(goap__parse_item(lx, c->st, mode, &it));
    it.line_off = c->line_off;
    if (*n >= GOAP__MAX_LIST)
      return goap__error(c->ec, GOAP_TOO_LARGE, (size_t)it.col - 1,
                         "too many items after '%s' (limit %d)", kw, GOAP__MAX_LIST);
    GROW(a, ir->items, ir->items_cap, ir->nitems + 1);
    ir->items[ir->nitems++] = it;
    ++*n;
    if (lx->tok.kind == GOAP__T_COMMA) {
      TRY(goap__lex_next(lx));
      if (lx->tok.kind == GOAP__T_EOL) {
        char t[64];
        snprintf(t, sizeof t, "%s after ','", mode == GOAP__COND ? "a condition" : "an effect");
        return goap__expected(lx, t);
      }
      continue;
    }
    if (lx->tok.kind == GOAP__T_EOL) return GOAP_OK;
    return goap__expected(lx, "',' or end of line");
  }
}

static goap_status add_sub(const goap_allocator *a, goap__htn_ir *ir, goap__htn_line_ctx *c,
                           hsub *s) {
  hmethod *m = &ir->methods[ir->nmethods - 1];
  if (m->sn >= GOAP__MAX_LIST)
    return goap__error(c->ec, GOAP_TOO_LARGE, (size_t)s->pos.col - 1,
                       "too many subtasks in method '%s' (limit %d)", m->name, GOAP__MAX_LIST);
  GROW(a, ir->subs, ir->subs_cap, ir->nsubs + 1);
  ir->subs[ir->nsubs++] = *s;
  m->sn++;
  return GOAP_OK;
}

/* `do` SUBTASKS: names separated by spaces, `pause`, `achieve ...` and `set ...` (which take
 * the rest of the line). */
static goap_status parse_do(const goap_allocator *a, goap__htn_ir *ir, goap__htn_line_ctx *c) {
  goap__lexer *lx = c->lx;
  int any = 0;
  TRY(goap__lex_next(lx));
  for (;;) {
    hsub s;
    memset(&s, 0, sizeof s);
    if (lx->tok.kind == GOAP__T_EOL) {
      if (!any) return goap__expected(lx, "a subtask after 'do'");
      return GOAP_OK;
    }
    if (lx->tok.kind != GOAP__T_IDENT)
      return goap__expected(lx, "an action or task name, 'achieve', 'set', 'pause' or end of line");
    s.pos = tok_pos(c);
    any = 1;
    if (word_is(c, "pause")) {
      s.kind = GOAP_HTN_PAUSE;
      TRY(add_sub(a, ir, c, &s));
      TRY(goap__lex_next(lx));
      continue;
    }
    if (word_is(c, "achieve")) {
      goap__lexer peek;
      TRY(goap__lex_next(lx));
      peek = *lx;
      if (lx->tok.kind == GOAP__T_IDENT) {
        /* one name that is not a variable: a goal */
        int32_t var = goap__ftab_find(c->st->names, GOAP__NS_VAR, c->ec->src + lx->tok.off,
                                      lx->tok.len);
        TRY(goap__lex_next(&peek));
        if (peek.tok.kind == GOAP__T_EOL && var < 0) {
          s.kind = GOAP_HTN_ACHIEVE_GOAL;
          s.pos = tok_pos(c);
          TRY(take_name(a, c, "a goal name", &s.name));
          s.len = lx->tok.len;
          TRY(add_sub(a, ir, c, &s));
          *lx = peek;
          return GOAP_OK;
        }
      }
      s.kind = GOAP_HTN_ACHIEVE;
      TRY(parse_items(a, ir, c, GOAP__COND, "achieve", &s.i0, &s.n));
      return add_sub(a, ir, c, &s);
    }
    if (word_is(c, "set")) {
      TRY(goap__lex_next(lx));
      s.kind = GOAP_HTN_SET;
      TRY(parse_items(a, ir, c, GOAP__EFFECT, "set", &s.i0, &s.n));
      return add_sub(a, ir, c, &s);
    }
    s.kind = GOAP_HTN_ACTION; /* an action or a task: resolved at the end */
    TRY(take_name(a, c, "a subtask", &s.name));
    s.len = lx->tok.len;
    TRY(add_sub(a, ir, c, &s));
    TRY(goap__lex_next(lx));
  }
}

goap_status goap__htn_end_block(goap__htn_ir *ir, goap__ectx *ec, const char *text,
                                size_t len) {
  if (ir->in_task) {
    const htask *t = &ir->tasks[ir->ntasks - 1];
    ir->in_task = ir->in_method = 0;
    if (t->mn == 0)
      return err_at(ec, text, len, GOAP_PARSE_ERROR, &t->pos,
                    "task '%s' has no 'method' (a task needs at least one)", t->name);
  }
  return GOAP_OK;
}

static goap_status line_impl(goap__htn_ir *ir, goap__htn_line_ctx *c) {
  const goap_allocator *a = c->alloc;
  goap__lexer *lx = c->lx;
  if (word_is(c, "task") && c->in_scenario && !goap__htn_opens_block(ir, c)) {
    scen_task sc;
    TRY(goap__lex_next(lx));
    memset(&sc, 0, sizeof sc);
    sc.scenario = c->scenario;
    sc.pos = tok_pos(c);
    TRY(take_name(a, c, "a task name after 'task'", &sc.name));
    sc.len = lx->tok.len;
    TRY(goap__lex_next(lx));
    TRY(expect_eol(lx, "the task name"));
    GROW(a, ir->scen, ir->scen_cap, ir->nscen + 1);
    ir->scen[ir->nscen++] = sc;
    return GOAP_OK;
  }
  if (word_is(c, "task")) {
    htask t;
    int32_t prev;
    TRY(goap__lex_next(lx)); /* the parser has ended the previous block */
    memset(&t, 0, sizeof t);
    if (lx->tok.kind != GOAP__T_IDENT) return goap__expected(lx, "a name after 'task'");
    t.pos = tok_pos(c);
    prev = goap__ftab_find(c->names, NS_TASK, c->ec->src + lx->tok.off, lx->tok.len);
    if (prev >= 0)
      return goap__error(c->ec, GOAP_DUPLICATE, lx->tok.off,
                         "duplicate task '%.*s' (first defined at line %d)", (int)lx->tok.len,
                         c->ec->src + lx->tok.off, ir->tasks[prev].pos.line);
    if (ir->ntasks >= 65536)
      return goap__error(c->ec, GOAP_TOO_LARGE, lx->tok.off, "too many tasks (limit 65536)");
    TRY(take_name(a, c, "a name after 'task'", &t.name));
    TRY(goap__lex_next(lx));
    TRY(expect_eol(lx, "the task name"));
    if (goap__ftab_insert(a, c->names, NS_TASK, t.name, strlen(t.name), (int32_t)ir->ntasks) !=
        GOAP_OK)
      return GOAP_OUT_OF_MEMORY;
    t.m0 = ir->nmethods;
    GROW(a, ir->tasks, ir->tasks_cap, ir->ntasks + 1);
    ir->tasks[ir->ntasks++] = t;
    ir->in_task = 1;
    ir->in_method = 0;
    return GOAP_OK;
  }
  if (word_is(c, "method")) {
    hmethod m;
    htask *t;
    int32_t prev;
    if (!ir->in_task)
      return goap__error(c->ec, GOAP_PARSE_ERROR, lx->tok.off,
                         "'method' must be inside a task block");
    t = &ir->tasks[ir->ntasks - 1];
    TRY(goap__lex_next(lx));
    memset(&m, 0, sizeof m);
    if (lx->tok.kind != GOAP__T_IDENT) return goap__expected(lx, "a name after 'method'");
    m.pos = tok_pos(c);
    prev = goap__ftab_find(c->names, NS_METHOD((int32_t)(ir->ntasks - 1)),
                           c->ec->src + lx->tok.off, lx->tok.len);
    if (prev >= 0)
      return goap__error(c->ec, GOAP_DUPLICATE, lx->tok.off,
                         "duplicate method '%.*s' in task '%s' (first defined at line %d)",
                         (int)lx->tok.len, c->ec->src + lx->tok.off, t->name,
                         ir->methods[t->m0 + (size_t)prev].pos.line);
    if (t->mn >= 65536)
      return goap__error(c->ec, GOAP_TOO_LARGE, lx->tok.off,
                         "too many methods in task '%s' (limit 65536)", t->name);
    TRY(take_name(a, c, "a name after 'method'", &m.name));
    TRY(goap__lex_next(lx));
    TRY(expect_eol(lx, "the method name"));
    if (goap__ftab_insert(a, c->names, NS_METHOD((int32_t)(ir->ntasks - 1)), m.name,
                          strlen(m.name), (int32_t)t->mn) != GOAP_OK)
      return GOAP_OUT_OF_MEMORY;
    m.s0 = ir->nsubs;
    GROW(a, ir->methods, ir->methods_cap, ir->nmethods + 1);
    ir->methods[ir->nmethods++] = m;
    t->mn++;
    ir->in_method = 1;
    ir->when_line = ir->do_line = 0;
    return GOAP_OK;
  }
  if (word_is(c, "when") || word_is(c, "do")) {
    int is_when = word_is(c, "when");
    if (!ir->in_method)
      return goap__error(c->ec, GOAP_PARSE_ERROR, lx->tok.off,
                         ir->in_task ? "'%s' must follow a 'method' line"
                                     : "'%s' must be inside a method of a task block",
                         is_when ? "when" : "do");
    if (is_when) {
      hmethod *m = &ir->methods[ir->nmethods - 1];
      size_t i0, n;
      if (ir->do_line)
        return goap__error(c->ec, GOAP_PARSE_ERROR, lx->tok.off,
                           "'when' must come before the method's 'do' lines (do at line %d)",
                           ir->do_line);
      TRY(goap__lex_next(lx));
      TRY(parse_items(a, ir, c, GOAP__COND, "when", &i0, &n));
      if (!ir->when_line) {
        ir->when_line = c->ec->line;
        m->w0 = i0;
      }
      if (m->wn + n > GOAP__MAX_LIST)
        return goap__error(c->ec, GOAP_TOO_LARGE, 0,
                           "too many conditions in method '%s' (limit %d)", m->name,
                           GOAP__MAX_LIST);
      m->wn += n;
      return GOAP_OK;
    }
    if (!ir->do_line) ir->do_line = c->ec->line;
    return parse_do(a, ir, c);
  }
  return GOAP_OK;
}

int goap__htn_line(goap__htn_ir *ir, goap__htn_line_ctx *c, goap_status *st) {
  goap__lexer *lx = c->lx;
  *st = GOAP_OK;
  if (lx->tok.kind != GOAP__T_IDENT) return 0;
  if (c->in_scenario && goap__htn_scenario_has_task(ir, c->scenario) &&
      (word_is(c, "pursue") || word_is(c, "want"))) {
    size_t i;
    int line = 0;
    for (i = ir->nscen; i-- > 0;)
      if (ir->scen[i].scenario == c->scenario) {
        line = ir->scen[i].pos.line;
        break;
      }
    *st = goap__error(c->ec, GOAP_CONFLICT, lx->tok.off,
                      "a scenario has either 'task' or '%s': this one has 'task' (line %d)",
                      word_is(c, "want") ? "want" : "pursue", line);
    return 1;
  }
  if (word_is(c, "task") || word_is(c, "method") || word_is(c, "when") || word_is(c, "do")) {
    *st = line_impl(ir, c);
    return 1;
  }
  return 0;
}

/* ------------------------------------------------------------------------------------------
 * After the last line
 * ---------------------------------------------------------------------------------------- */
typedef struct cand_ctx {
  const goap_domain *d;
  const goap__htn_ir *ir;
  int actions, tasks, goals;
} cand_ctx;

static const char *cand_sub(const void *ctx, int i) {
  const cand_ctx *cc = (const cand_ctx *)ctx;
  if (i < cc->actions) return goap_domain_action_name(cc->d, i);
  return cc->ir->tasks[i - cc->actions].name;
}
static const char *cand_task(const void *ctx, int i) {
  return ((const cand_ctx *)ctx)->ir->tasks[i].name;
}
static const char *cand_goal(const void *ctx, int i) {
  return goap_domain_goal_name(((const cand_ctx *)ctx)->d, i);
}

static void to_conds(const goap__item *it, size_t n, goap_cond *out) {
  size_t i;
  for (i = 0; i < n; ++i) {
    out[i].var = it[i].var;
    out[i].op = (goap_op)it[i].op;
    out[i].value = it[i].value;
  }
}

static goap__pos item_pos(const goap__item *it) {
  goap__pos r;
  r.line = it->line;
  r.col = it->col;
  r.line_off = it->line_off;
  return r;
}

goap_status goap__htn_finalize(goap__htn_ir *ir, goap_file *f, const goap__ftab *names,
                               goap__ectx *ec, const char *text, size_t len) {
  const goap_allocator *a = &f->alloc;
  const goap_domain *d = f->domain;
  goap_htn_builder *b = NULL;
  goap_htn_subtask *subs = NULL;
  goap_cond *conds = NULL;
  goap_effect *effs = NULL;
  size_t subs_cap = 0, conds_cap = 0, effs_cap = 0, i, k;
  goap_status st = GOAP_OK;
  cand_ctx cc;
  cc.d = d;
  cc.ir = ir;
  cc.actions = goap_domain_action_count(d);
  cc.tasks = (int)ir->ntasks;
  cc.goals = goap_domain_goal_count(d);
  /* a scenario's task */
  for (i = 0; i < ir->nscen; ++i) {
    const scen_task *sc = &ir->scen[i];
    int32_t t = goap__ftab_find(names, NS_TASK, sc->name, sc->len);
    if (t < 0) {
      char dym[128];
      goap__did_you_mean(dym, sizeof dym, sc->name, sc->len, cand_task, &cc, cc.tasks);
      return err_at(ec, text, len, GOAP_NOT_FOUND, &sc->pos, "unknown task '%s'%s", sc->name,
                    dym);
    }
    f->scenarios[sc->scenario].task = t;
  }
  if (ir->ntasks == 0) return GOAP_OK;
  if (!goap__grow(a, (void **)&f->task_pos, &f->task_pos_cap, ir->ntasks, sizeof *f->task_pos))
    return GOAP_OUT_OF_MEMORY;
  if (!goap__grow(a, (void **)&f->method_pos, &f->method_pos_cap, ir->nmethods + 1,
                  sizeof *f->method_pos))
    return GOAP_OUT_OF_MEMORY;
  for (i = 0; i < ir->nmethods; ++i) f->method_pos[i] = ir->methods[i].pos;
  for (i = 0; i < ir->ntasks; ++i) {
    const htask *t = &ir->tasks[i];
    int32_t act = goap__ftab_find(names, GOAP__NS_ACTION, t->name, strlen(t->name));
    f->task_pos[i] = t->pos;
    if (act >= 0) {
      int col = 0;
      int line = goap_file_action_line(f, act, &col);
      return err_at(ec, text, len, GOAP_DUPLICATE, &t->pos,
                    "task '%s' has the name of an action (line %d): names in 'do' lines "
                    "would be ambiguous",
                    t->name, line);
    }
  }
  st = goap_htn_builder_create(d, a, &b);
  if (st != GOAP_OK) return st;
  for (i = 0; i < ir->ntasks; ++i) {
    st = goap_htn_builder_add_task(b, ir->tasks[i].name, NULL);
    if (st != GOAP_OK) {
      if (st != GOAP_OUT_OF_MEMORY)
        st = err_at(ec, text, len, st, &ir->tasks[i].pos, "%s", goap_htn_builder_error(b)->message);
      goto out;
    }
  }
  for (i = 0; i < ir->ntasks; ++i) {
    const htask *t = &ir->tasks[i];
    for (k = 0; k < t->mn; ++k) {
      const hmethod *m = &ir->methods[t->m0 + k];
      goap_htn_method_desc md;
      size_t nc = m->wn, ne = 0, j, ci, ei;
      for (j = 0; j < m->sn; ++j) {
        const hsub *s = &ir->subs[m->s0 + j];
        if (s->kind == GOAP_HTN_ACHIEVE) nc += s->n;
        if (s->kind == GOAP_HTN_SET) ne += s->n;
      }
      if (!goap__grow(a, (void **)&subs, &subs_cap, m->sn + 1, sizeof *subs) ||
          !goap__grow(a, (void **)&conds, &conds_cap, nc + 1, sizeof *conds) ||
          !goap__grow(a, (void **)&effs, &effs_cap, ne + 1, sizeof *effs)) {
        st = GOAP_OUT_OF_MEMORY;
        goto out;
      }
      if (m->wn) to_conds(ir->items + m->w0, m->wn, conds);
      ci = m->wn;
      ei = 0;
      for (j = 0; j < m->sn; ++j) {
        const hsub *s = &ir->subs[m->s0 + j];
        goap_htn_subtask *o = &subs[j];
        memset(o, 0, sizeof *o);
        o->kind = s->kind;
        o->id = -1;
        if (s->kind == GOAP_HTN_ACTION) {
          int32_t id = goap__ftab_find(names, GOAP__NS_ACTION, s->name, s->len);
          if (id < 0) {
            id = goap__ftab_find(names, NS_TASK, s->name, s->len);
            if (id < 0) {
              char dym[128];
              goap__did_you_mean(dym, sizeof dym, s->name, s->len, cand_sub, &cc,
                                 cc.actions + cc.tasks);
              st = err_at(ec, text, len, GOAP_NOT_FOUND, &s->pos,
                          "unknown action or task '%s'%s", s->name, dym);
              goto out;
            }
            o->kind = GOAP_HTN_TASK;
          }
          o->id = id;
        } else if (s->kind == GOAP_HTN_ACHIEVE_GOAL) {
          int32_t g = goap__ftab_find(names, GOAP__NS_GOAL, s->name, s->len);
          if (g < 0) {
            char dym[128];
            goap__did_you_mean(dym, sizeof dym, s->name, s->len, cand_goal, &cc, cc.goals);
            st = err_at(ec, text, len, GOAP_NOT_FOUND, &s->pos,
                        "unknown goal or variable '%s' after 'achieve'%s", s->name, dym);
            goto out;
          }
          o->id = g;
        } else if (s->kind == GOAP_HTN_ACHIEVE) {
          to_conds(ir->items + s->i0, s->n, conds + ci);
          o->conds = conds + ci;
          o->cond_count = (int)s->n;
          ci += s->n;
        } else if (s->kind == GOAP_HTN_SET) {
          size_t q;
          for (q = 0; q < s->n; ++q) {
            const goap__item *it = &ir->items[s->i0 + q];
            effs[ei + q].var = it->var;
            effs[ei + q].op = (goap_effect_op)it->op;
            effs[ei + q].value = it->value;
          }
          o->effs = effs + ei;
          o->eff_count = (int)s->n;
          ei += s->n;
        }
      }
      memset(&md, 0, sizeof md);
      md.name = m->name;
      md.when = m->wn ? conds : NULL;
      md.when_count = (int)m->wn;
      md.subtasks = m->sn ? subs : NULL;
      md.subtask_count = (int)m->sn;
      st = goap_htn_builder_add_method(b, (int)i, &md, NULL);
      if (st != GOAP_OK) {
        int idx = -1, sub = -1;
        goap__pos pos = m->pos;
        goap_htn_item item = goap_htn_builder_error_item(b, &idx, &sub);
        if (st == GOAP_OUT_OF_MEMORY) goto out;
        if (item == GOAP_HTN_ITEM_WHEN && idx >= 0 && (size_t)idx < m->wn)
          pos = item_pos(&ir->items[m->w0 + (size_t)idx]);
        if (item == GOAP_HTN_ITEM_SUBTASK && idx >= 0 && (size_t)idx < m->sn) {
          const hsub *s = &ir->subs[m->s0 + (size_t)idx];
          pos = s->pos;
          if (sub >= 0 && (size_t)sub < s->n) pos = item_pos(&ir->items[s->i0 + (size_t)sub]);
        }
        st = err_at(ec, text, len, st, &pos, "%s", goap_htn_builder_error(b)->message);
        goto out;
      }
    }
  }
  st = goap_htn_builder_build(b, &f->htn);
  if (st != GOAP_OK && st != GOAP_OUT_OF_MEMORY)
    st = err_at(ec, text, len, st, NULL, "%s", goap_htn_builder_error(b)->message);
out:
  goap_htn_builder_destroy(b);
  goap__mem_free(a, subs, subs_cap * sizeof *subs);
  goap__mem_free(a, conds, conds_cap * sizeof *conds);
  goap__mem_free(a, effs, effs_cap * sizeof *effs);
  return st;
}
