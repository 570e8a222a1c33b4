/*
 * parse_common.c -- what every block kind of the `.goap` parser shares: errors at a saved
 * position, builder failures mapped back to the text, item lists, once-only attributes, names,
 * runtime attribute lists (watch, seconds, name lists, effect lists) and the opening and
 * closing of action/goal/scenario/simulation blocks.
 *
 * Invariants:
 *  - Functions here only read the current line through the lexer and append to the parser's
 *    and the file's growing arrays; none keeps a pointer into an array across a GROW.
 *  - Every failure is reported once, at the position of the offending token or item.
 */
#include <stdio.h>
#include <string.h>

#include "parse_state.h"

const char *const goap__fp_block_names[] = {"",           "action", "goal", "scenario",
                                            "simulation", "role",   "agent"};

/* ------------------------------------------------------------------------------------------
 * Errors at arbitrary positions
 * ---------------------------------------------------------------------------------------- */
static size_t line_length_at(const parser *p, size_t off) {
  const char *nl;
  size_t n;
  if (off > p->len) return 0;
  nl = (const char *)memchr(p->text + off, '\n', p->len - off);
  n = nl ? (size_t)(nl - (p->text + off)) : p->len - off;
  if (n > 0 && p->text[off + n - 1] == '\r') --n;
  return n;
}

goap_status goap__fp_error_at(parser *p, goap_status st, const goap__pos *pos, const char *fmt,
                              ...) {
  va_list ap;
  va_start(ap, fmt);
  goap__diag_vset(p->ec.diag, GOAP_SEVERITY_ERROR, st, p->ec.file, pos->line, pos->col,
                  p->text + pos->line_off, line_length_at(p, pos->line_off), fmt, ap);
  va_end(ap);
  return st;
}

goap__pos goap__fp_tok_pos(const parser *p, const goap__lexer *lx) {
  goap__pos r;
  r.line = p->ec.line;
  r.col = (int)lx->tok.off + 1;
  r.line_off = p->line_off;
  return r;
}

goap__pos goap__fp_item_pos(const goap__item *it) {
  goap__pos r;
  r.line = it->line;
  r.col = it->col;
  r.line_off = it->line_off;
  return r;
}

/* Maps the builder's last failure to a position and reports it. */
goap_status goap__fp_builder_error(parser *p, goap_status st, const goap__pos *whole,
                                   const goap__item *pre, size_t npre, const goap__item *eff,
                                   size_t neff, const goap__pos *extra) {
  int idx = -1;
  goap_item_kind k;
  goap__pos pos = *whole;
  const char *msg;
  if (st == GOAP_OUT_OF_MEMORY) return st;
  k = goap_builder_error_item(p->b, &idx);
  switch (k) {
    case GOAP_ITEM_PRE:
    case GOAP_ITEM_WANT:
      if (idx >= 0 && (size_t)idx < npre) pos = goap__fp_item_pos(&pre[idx]);
      break;
    case GOAP_ITEM_EFF:
      if (idx >= 0 && (size_t)idx < neff) pos = goap__fp_item_pos(&eff[idx]);
      break;
    case GOAP_ITEM_COST:
    case GOAP_ITEM_DEFAULT:
    case GOAP_ITEM_RANGE:
      if (extra && extra->line) pos = *extra;
      break;
    case GOAP_ITEM_VALUE:
      if (idx >= 0 && (size_t)idx < p->values_len) {
        pos.col = (int)p->value_offs[idx] + 1;
      }
      break;
    default:
      break;
  }
  msg = goap_builder_error(p->b)->message;
  return goap__fp_error_at(p, st, &pos, "%s", msg && msg[0] ? msg : goap_status_string(st));
}

/* ------------------------------------------------------------------------------------------
 * Helpers
 * ---------------------------------------------------------------------------------------- */
goap_status goap__fp_expect_eol(goap__lexer *lx, const char *after) {
  char what[96];
  if (lx->tok.kind == GOAP__T_EOL) return GOAP_OK;
  snprintf(what, sizeof what, "end of line after %s", after);
  return goap__expected(lx, what);
}

const char *goap__fp_cand_action(const void *ctx, int i) {
  return ((const parser *)ctx)->action_names[i];
}

const char *goap__fp_cand_goal(const void *ctx, int i) {
  return ((const parser *)ctx)->goal_names[i];
}

const char *goap__fp_cand_resource(const void *ctx, int i) {
  return ((const parser *)ctx)->f->resources[i].name;
}

const char *goap__fp_cand_role(const void *ctx, int i) {
  return ((const parser *)ctx)->f->roles[i].name;
}

const char *goap__fp_cand_task(const void *ctx, int i) {
  return goap_htn_domain_task_name(((const goap_file *)ctx)->htn, i);
}

const char *goap__fp_cand_agent(const void *ctx, int i) {
  return ((const parser *)ctx)->f->agent_types[i].name;
}

const char *goap__fp_cand_string(const void *ctx, int i) { return ((const char *const *)ctx)[i]; }

int goap__fp_in_list(const char *const *list, int n, const char *s, size_t len) {
  int i;
  for (i = 0; i < n; ++i)
    if (strlen(list[i]) == len && memcmp(list[i], s, len) == 0) return i;
  return -1;
}

goap__symtab goap__fp_symtab(const parser *p) {
  goap__symtab st;
  memset(&st, 0, sizeof st);
  st.vars = p->vars;
  st.var_count = p->f->var_count;
  st.names = &p->names;
  st.text = p->text;
  st.text_len = p->len;
  st.rest_off = p->next_off;
  st.rest_line = p->ec.line + 1;
  return st;
}

/* Parses a comma-separated list of items into p->items (at least one). */
goap_status goap__fp_parse_list(parser *p, goap__lexer *lx, goap__mode mode, const char *kw) {
  static const char *const nouns[] = {"a condition", "an effect", "an assignment"};
  goap__symtab st = goap__fp_symtab(p);
  p->items_len = 0;
  if (lx->tok.kind == GOAP__T_EOL) {
    char t[64];
    snprintf(t, sizeof t, "%s after '%s'", nouns[mode], kw);
    return goap__expected(lx, t);
  }
  for (;;) {
    goap__item it;
    FP_TRY(goap__parse_item(lx, &st, mode, &it));
    it.line_off = p->line_off;
    FP_GROW(p, p->items, p->items_cap, p->items_len + 1);
    p->items[p->items_len++] = it;
    if (lx->tok.kind == GOAP__T_COMMA) {
      FP_TRY(goap__lex_next(lx));
      if (lx->tok.kind == GOAP__T_EOL) {
        char t[64];
        snprintf(t, sizeof t, "%s after ','", nouns[mode]);
        return goap__expected(lx, t);
      }
      continue;
    }
    if (lx->tok.kind == GOAP__T_EOL) return GOAP_OK;
    return goap__expected(lx, it.op == (int)GOAP_ADD && mode == GOAP__EFFECT
                                  ? "',', 'clamp' or end of line"
                                  : "',' or end of line");
  }
}

/* Appends p->items to a block's item vector. */
goap_status goap__fp_append_items(parser *p, goap__lexer *lx, goap__item **vec, size_t *len,
                                  size_t *cap, const char *what) {
  if (*len + p->items_len > GOAP__MAX_LIST)
    return goap__error(&p->ec, GOAP_TOO_LARGE, lx->tok.off, "too many %s in %s '%s' (limit %d)",
                       what, goap__fp_block_names[p->block], p->bname, GOAP__MAX_LIST);
  {
    void *g = goap__mem_grow(&p->a, *vec, cap, *len + p->items_len, sizeof **vec);
    if (!g) return GOAP_OUT_OF_MEMORY;
    *vec = (goap__item *)g;
  }
  if (p->items_len) memcpy(*vec + *len, p->items, p->items_len * sizeof **vec);
  *len += p->items_len;
  return GOAP_OK;
}

/* A once-only attribute: error if already seen in this block, else remember its line. */
goap_status goap__fp_once(parser *p, goap__lexer *lx, int attr, const char *kw) {
  if (p->attr_line[attr])
    return goap__error(&p->ec, GOAP_DUPLICATE, lx->tok.off,
                       "duplicate '%s' in %s '%s' (first at line %d)", kw,
                       goap__fp_block_names[p->block], p->bname, p->attr_line[attr]);
  p->attr_line[attr] = p->ec.line;
  return GOAP_OK;
}

/* Reads a name token (the current token) into the parse arena. */
goap_status goap__fp_take_name(parser *p, goap__lexer *lx, const char *what, const char **out) {
  if (lx->tok.kind != GOAP__T_IDENT) return goap__expected(lx, what);
  *out = goap__arena_strndup(&p->a, &p->arena, p->ec.src + lx->tok.off, lx->tok.len);
  return *out ? GOAP_OK : GOAP_OUT_OF_MEMORY;
}

goap_status goap__fp_end_block(parser *p) {
  goap_status st = GOAP_OK;
  FP_TRY(goap__htn_end_block(p->htn, &p->ec, p->text, p->len));
  switch (p->block) {
    case B_ACTION: st = goap__fp_finish_action(p); break;
    case B_GOAL: st = goap__fp_finish_goal(p); break;
    case B_SCENARIO: st = goap__fp_finish_scenario(p); break;
    default: break;
  }
  p->block = B_NONE;
  return st;
}

goap_status goap__fp_begin_block(parser *p, goap__lexer *lx, int kind) {
  goap_file *f = p->f;
  const char *kw = goap__fp_block_names[kind];
  const char *name = NULL;
  goap__pos pos;
  int32_t ns = kind == B_ACTION ? GOAP__NS_ACTION : kind == B_GOAL ? GOAP__NS_GOAL
                 : kind == B_SIM  ? GOAP__NS_SIM
                                  : GOAP__NS_SCENARIO;
  int32_t prev;
  int count = kind == B_ACTION ? f->action_count : kind == B_GOAL ? f->goal_count
              : kind == B_SIM  ? f->sim_count
                               : f->scenario_count;
  int limit = kind == B_ACTION ? GOAP__MAX_ACTIONS : kind == B_GOAL ? GOAP__MAX_GOALS
                                                                    : GOAP__MAX_SCENARIOS;
  char what[48];
  FP_TRY(goap__lex_next(lx));
  snprintf(what, sizeof what, "a name after '%s'", kw);
  if (lx->tok.kind != GOAP__T_IDENT) return goap__expected(lx, what);
  pos = goap__fp_tok_pos(p, lx);
  prev = goap__ftab_find(&p->names, ns, p->ec.src + lx->tok.off, lx->tok.len);
  if (prev >= 0) {
    int line = kind == B_ACTION ? f->action_pos[prev].line
               : kind == B_GOAL ? f->goal_pos[prev].line
               : kind == B_SIM  ? f->sims[prev].line
                                : f->scenarios[prev].line;
    return goap__error(&p->ec, GOAP_DUPLICATE, lx->tok.off,
                       "duplicate %s '%.*s' (first defined at line %d)", kw,
                       (int)lx->tok.len, p->ec.src + lx->tok.off, line);
  }
  if (count >= limit)
    return goap__error(&p->ec, GOAP_TOO_LARGE, lx->tok.off, "too many %ss (limit %d)", kw,
                       limit);
  if (kind == B_SCENARIO || kind == B_SIM) {
    name = goap__arena_strndup(&p->a, &f->arena, p->ec.src + lx->tok.off, lx->tok.len);
    if (!name) return GOAP_OUT_OF_MEMORY;
  } else {
    FP_TRY(goap__fp_take_name(p, lx, what, &name));
  }
  FP_TRY(goap__lex_next(lx));
  snprintf(what, sizeof what, "the %s name", kw);
  FP_TRY(goap__fp_expect_eol(lx, what));
  FP_TRY(goap__ftab_insert(&p->a, &p->names, ns, name, strlen(name), (int32_t)count));
  if (kind == B_ACTION) {
    FP_GROW(p, f->action_pos, f->action_pos_cap, (size_t)count + 1);
    FP_GROW(p, p->action_names, p->action_names_cap, (size_t)count + 1);
    FP_GROW(p, f->action_rt, f->action_rt_cap, (size_t)count + 1);
    f->action_pos[count] = pos;
    p->action_names[count] = name;
    memset(&f->action_rt[count], 0, sizeof f->action_rt[count]);
    f->action_count = count + 1;
  } else if (kind == B_GOAL) {
    FP_GROW(p, f->goal_pos, f->goal_pos_cap, (size_t)count + 1);
    FP_GROW(p, p->goal_names, p->goal_names_cap, (size_t)count + 1);
    FP_GROW(p, f->goal_rt, f->goal_rt_cap, (size_t)count + 1);
    f->goal_pos[count] = pos;
    p->goal_names[count] = name;
    memset(&f->goal_rt[count], 0, sizeof f->goal_rt[count]);
    f->goal_count = count + 1;
  } else if (kind == B_SIM) {
    goap__sim *sm;
    FP_GROW(p, f->sims, f->sims_cap, (size_t)count + 1);
    sm = &f->sims[count];
    memset(sm, 0, sizeof *sm);
    sm->name = name;
    sm->line = pos.line;
    sm->given = (uint32_t)f->given_len;
    sm->event = (uint32_t)f->sim_events_len;
    sm->fail = (uint32_t)f->sim_fails_len;
    sm->sense = (uint32_t)f->rt_vars_len;
    sm->until = 60.0;
    sm->step = 0.1;
    sm->expect_replans = -1;
    f->sim_count = count + 1;
  } else {
    goap_scenario *sc;
    scen_ir *ir;
    FP_GROW(p, f->scenarios, f->scenarios_cap, (size_t)count + 1);
    FP_GROW(p, p->scen, p->scen_cap, (size_t)count + 1);
    sc = &f->scenarios[count];
    memset(sc, 0, sizeof *sc);
    sc->name = name;
    sc->line = pos.line;
    sc->goal = -1;
    sc->task = -1;
    ir = &p->scen[count];
    memset(ir, 0, sizeof *ir);
    ir->want_start = f->conds_len;
    ir->given_start = f->given_len;
    ir->plan_start = p->refs_len;
    f->scenario_count = count + 1;
  }
  p->block = kind;
  p->bname = name;
  p->bpos = pos;
  memset(p->attr_line, 0, sizeof p->attr_line);
  p->number = 0;
  p->pre_len = p->eff_len = 0;
  return GOAP_OK;
}

/* ------------------------------------------------------------------------------------------
 * Attribute lines
 * ---------------------------------------------------------------------------------------- */
goap_status goap__fp_parse_number_attr(parser *p, goap__lexer *lx, int attr, const char *kw,
                                       int nonneg) {
  double v;
  FP_TRY(goap__fp_once(p, lx, attr, kw));
  FP_TRY(goap__lex_next(lx));
  if (lx->tok.kind != GOAP__T_NUMBER) {
    char what[48];
    snprintf(what, sizeof what, "a number after '%s'", kw);
    return goap__expected(lx, what);
  }
  p->number_pos = goap__fp_tok_pos(p, lx);
  FP_TRY(goap__tok_decimal(lx, &v));
  if (nonneg && v < 0) {
    char t[64];
    goap__tok_show(lx, t, sizeof t);
    return goap__error(&p->ec, GOAP_OUT_OF_RANGE, lx->tok.off,
                       "%s must not be negative, found %s", kw, t);
  }
  p->number = v;
  FP_TRY(goap__lex_next(lx));
  return goap__fp_expect_eol(lx, "the number");
}

/* ---- runtime attributes and simulations ------------------------------------------------ */

/* Appends p->items (effects or assignments) to rt_effs; *start is where they begin. */
goap_status goap__fp_push_effs(parser *p, uint32_t *start) {
  goap_file *f = p->f;
  size_t i;
  FP_GROW(p, f->rt_effs, f->rt_effs_cap, f->rt_effs_len + p->items_len);
  *start = (uint32_t)f->rt_effs_len;
  for (i = 0; i < p->items_len; ++i) {
    goap_effect *e = &f->rt_effs[f->rt_effs_len++];
    e->var = p->items[i].var;
    e->op = (goap_effect_op)p->items[i].op;
    e->value = p->items[i].value;
  }
  return GOAP_OK;
}

goap_status goap__fp_push_conds(parser *p, uint32_t *start) {
  goap_file *f = p->f;
  size_t i;
  FP_GROW(p, f->rt_conds, f->rt_conds_cap, f->rt_conds_len + p->items_len);
  *start = (uint32_t)f->rt_conds_len;
  for (i = 0; i < p->items_len; ++i) {
    goap_cond *c = &f->rt_conds[f->rt_conds_len++];
    c->var = p->items[i].var;
    c->op = (goap_op)p->items[i].op;
    c->value = p->items[i].value;
  }
  return GOAP_OK;
}

/* World variables are the simulation's truth: agents cannot plan with them. */
goap_status goap__fp_no_world_vars(parser *p, const char *kw) {
  size_t i;
  for (i = 0; i < p->items_len; ++i) {
    const goap__item *it = &p->items[i];
    if ((size_t)it->var < p->f->world_var_cap && p->f->world_var[it->var])
      return goap__error(&p->ec, GOAP_INVALID_OPERATION, (size_t)it->col - 1,
                         "'%s' is a world variable: agents do not know it, so it cannot appear "
                         "in '%s' (simulations copy it into memory with 'sense')",
                         p->vars[it->var].name, kw);
  }
  return GOAP_OK;
}

/* A comma-separated list of variable names (at least one) appended to rt_vars. */
goap_status goap__fp_parse_var_list(parser *p, goap__lexer *lx, const char *kw, uint32_t *start,
                                    uint32_t *count) {
  goap_file *f = p->f;
  goap__symtab st = goap__fp_symtab(p);
  size_t first = f->rt_vars_len;
  char what[64];
  snprintf(what, sizeof what, "a variable name after '%s'", kw);
  if (lx->tok.kind != GOAP__T_IDENT) return goap__expected(lx, what);
  for (;;) {
    int32_t v;
    FP_TRY(goap__resolve_var(lx, &st, &v));
    if (*count + (f->rt_vars_len - first) >= GOAP__MAX_LIST)
      return goap__error(&p->ec, GOAP_TOO_LARGE, lx->tok.off, "too many variables after '%s'",
                         kw);
    FP_GROW(p, f->rt_vars, f->rt_vars_cap, f->rt_vars_len + 1);
    f->rt_vars[f->rt_vars_len++] = v;
    FP_TRY(goap__lex_next(lx));
    if (lx->tok.kind == GOAP__T_EOL) break;
    if (lx->tok.kind != GOAP__T_COMMA) return goap__expected(lx, "',' or end of line");
    FP_TRY(goap__lex_next(lx));
    if (lx->tok.kind != GOAP__T_IDENT) return goap__expected(lx, "a variable name after ','");
  }
  /* consecutive lines of one block extend the same list */
  if (*count == 0) *start = (uint32_t)first;
  *count += (uint32_t)(f->rt_vars_len - first);
  return GOAP_OK;
}

/* A non-negative number attribute (seconds). */
goap_status goap__fp_parse_seconds(parser *p, goap__lexer *lx, int attr, const char *kw,
                                   double *out) {
  double keep = p->number; /* the block's cost or priority */
  goap__pos keep_pos = p->number_pos;
  FP_TRY(goap__fp_parse_number_attr(p, lx, attr, kw, 1));
  *out = p->number;
  p->number = keep;
  if (attr != A_UNTIL && attr != A_STEP) p->number_pos = keep_pos;
  return GOAP_OK;
}

/* Remembers that the name at the current token must be resolved in namespace ns. */
goap_status goap__fp_add_ref(parser *p, goap__lexer *lx, int32_t ns, int target, size_t index) {
  name_ref r;
  const char *name = NULL;
  FP_TRY(goap__fp_take_name(p, lx, "a name", &name));
  r.ns = ns;
  r.target = target;
  r.index = index;
  r.name = name;
  r.len = lx->tok.len;
  r.pos_line = p->ec.line;
  r.pos_col = (int)lx->tok.off + 1;
  r.pos_off = p->line_off;
  FP_GROW(p, p->nrefs, p->nrefs_cap, p->nrefs_len + 1);
  p->nrefs[p->nrefs_len++] = r;
  return GOAP_OK;
}

/* NAME, NAME, ... resolved later into rt_ids (one slot each, in order). */
goap_status goap__fp_parse_name_list(parser *p, goap__lexer *lx, const char *kw, int32_t ns,
                                     uint32_t *start, uint32_t *count) {
  goap_file *f = p->f;
  char what[64];
  snprintf(what, sizeof what, "a name after '%s'", kw);
  if (lx->tok.kind != GOAP__T_IDENT) return goap__expected(lx, what);
  if (*count == 0) *start = (uint32_t)f->rt_ids_len;
  else if (*start + *count != f->rt_ids_len)
    return goap__error(&p->ec, GOAP_PARSE_ERROR, lx->tok.off,
                       "'%s' lines of one block must follow each other", kw);
  for (;;) {
    if (*count >= GOAP__MAX_LIST)
      return goap__error(&p->ec, GOAP_TOO_LARGE, lx->tok.off, "too many names after '%s'", kw);
    FP_GROW(p, f->rt_ids, f->rt_ids_cap, f->rt_ids_len + 1);
    f->rt_ids[f->rt_ids_len] = -1;
    FP_TRY(goap__fp_add_ref(p, lx, ns, R_ID, f->rt_ids_len));
    f->rt_ids_len++;
    (*count)++;
    FP_TRY(goap__lex_next(lx));
    if (lx->tok.kind == GOAP__T_EOL) return GOAP_OK;
    if (lx->tok.kind != GOAP__T_COMMA) return goap__expected(lx, "',' or end of line");
    FP_TRY(goap__lex_next(lx));
    if (lx->tok.kind != GOAP__T_IDENT) return goap__expected(lx, "a name after ','");
  }
}

/* on_start / on_end / on_fail: effects appended to one contiguous list per action. */
goap_status goap__fp_rt_effect_list(parser *p, goap__lexer *lx, const char *kw, uint32_t *start,
                                    uint32_t *count) {
  uint32_t first;
  FP_TRY(goap__fp_parse_list(p, lx, GOAP__EFFECT, kw));
  FP_TRY(goap__fp_no_world_vars(p, kw));
  if (*count + p->items_len > GOAP__MAX_LIST)
    return goap__error(&p->ec, GOAP_TOO_LARGE, lx->tok.off, "too many effects in '%s'", kw);
  if (*count && *start + *count != p->f->rt_effs_len)
    return goap__error(&p->ec, GOAP_PARSE_ERROR, 0,
                       "'%s' lines of one action must follow each other", kw);
  FP_TRY(goap__fp_push_effs(p, &first));
  if (*count == 0) *start = first;
  *count += (uint32_t)p->items_len;
  return GOAP_OK;
}
