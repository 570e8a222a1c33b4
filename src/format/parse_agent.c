/*
 * parse_agent.c -- `resource`, `role` and `agent` lines of the `.goap` parser.
 *
 * Invariants:
 *  - Names used before their definition (actions, roles, agent types) are recorded as
 *    name_refs and resolved after the last line (parser.c).
 */
#include <stdio.h>
#include <string.h>

#include "parse_state.h"

/* ---- resources, roles, agent types --------------------------------------------------- */

goap_status goap__fp_parse_resource(parser *p, goap__lexer *lx) {
  goap_file *f = p->f;
  const char *name = NULL;
  int32_t prev;
  int cap = 1;
  FP_TRY(goap__lex_next(lx));
  if (lx->tok.kind != GOAP__T_IDENT) return goap__expected(lx, "a name after 'resource'");
  prev = goap__ftab_find(&p->names, GOAP__NS_RESOURCE, p->ec.src + lx->tok.off, lx->tok.len);
  if (prev >= 0)
    return goap__error(&p->ec, GOAP_DUPLICATE, lx->tok.off,
                       "duplicate resource '%.*s' (first defined at line %d)", (int)lx->tok.len,
                       p->ec.src + lx->tok.off, f->resources[prev].line);
  if (f->resource_count >= GOAP__MAX_LIST)
    return goap__error(&p->ec, GOAP_TOO_LARGE, lx->tok.off, "too many resources (limit %d)",
                       GOAP__MAX_LIST);
  name = goap__arena_strndup(&p->a, &f->arena, p->ec.src + lx->tok.off, lx->tok.len);
  if (!name) return GOAP_OUT_OF_MEMORY;
  FP_TRY(goap__lex_next(lx));
  if (goap__tok_is(lx, "capacity")) {
    int32_t n;
    FP_TRY(goap__lex_next(lx));
    if (lx->tok.kind != GOAP__T_NUMBER) return goap__expected(lx, "a number after 'capacity'");
    FP_TRY(goap__tok_int(lx, &n));
    if (n < 0 || n > 1000000)
      return goap__error(&p->ec, GOAP_OUT_OF_RANGE, lx->tok.off,
                         "capacity must be between 0 and 1000000");
    cap = (int)n;
    FP_TRY(goap__lex_next(lx));
  }
  FP_TRY(goap__fp_expect_eol(lx, "the resource"));
  FP_TRY(goap__ftab_insert(&p->a, &p->names, GOAP__NS_RESOURCE, name, strlen(name),
                        (int32_t)f->resource_count));
  FP_GROW(p, f->resources, f->resources_cap, (size_t)f->resource_count + 1);
  f->resources[f->resource_count].name = name;
  f->resources[f->resource_count].capacity = cap;
  f->resources[f->resource_count].line = p->ec.line;
  f->resource_count++;
  return GOAP_OK;
}

/* `role NAME` and `agent NAME` blocks. */
goap_status goap__fp_begin_named(parser *p, goap__lexer *lx, int kind) {
  goap_file *f = p->f;
  const char *kw = goap__fp_block_names[kind];
  int32_t ns = kind == B_ROLE ? GOAP__NS_ROLE : GOAP__NS_AGENT;
  int count = kind == B_ROLE ? f->role_count : f->agent_type_count;
  const char *name;
  int32_t prev;
  char what[48];
  goap__pos pos;
  FP_TRY(goap__lex_next(lx));
  snprintf(what, sizeof what, "a name after '%s'", kw);
  if (lx->tok.kind != GOAP__T_IDENT) return goap__expected(lx, what);
  pos = goap__fp_tok_pos(p, lx);
  prev = goap__ftab_find(&p->names, ns, p->ec.src + lx->tok.off, lx->tok.len);
  if (prev >= 0)
    return goap__error(&p->ec, GOAP_DUPLICATE, lx->tok.off,
                       "duplicate %s '%.*s' (first defined at line %d)", kw, (int)lx->tok.len,
                       p->ec.src + lx->tok.off,
                       kind == B_ROLE ? f->roles[prev].line : f->agent_types[prev].line);
  if (count >= GOAP__MAX_LIST)
    return goap__error(&p->ec, GOAP_TOO_LARGE, lx->tok.off, "too many %ss (limit %d)", kw,
                       GOAP__MAX_LIST);
  name = goap__arena_strndup(&p->a, &f->arena, p->ec.src + lx->tok.off, lx->tok.len);
  if (!name) return GOAP_OUT_OF_MEMORY;
  FP_TRY(goap__lex_next(lx));
  snprintf(what, sizeof what, "the %s name", kw);
  FP_TRY(goap__fp_expect_eol(lx, what));
  FP_TRY(goap__ftab_insert(&p->a, &p->names, ns, name, strlen(name), (int32_t)count));
  if (kind == B_ROLE) {
    goap__role *r;
    FP_GROW(p, f->roles, f->roles_cap, (size_t)count + 1);
    r = &f->roles[count];
    memset(r, 0, sizeof *r);
    r->name = name;
    r->line = pos.line;
    r->scale = (uint32_t)f->role_scales_len;
    f->role_count = count + 1;
  } else {
    goap__agent_type *t;
    FP_GROW(p, f->agent_types, f->agent_types_cap, (size_t)count + 1);
    t = &f->agent_types[count];
    memset(t, 0, sizeof *t);
    t->name = name;
    t->line = pos.line;
    t->role = -1;
    t->htn_root = -1;
    f->agent_type_count = count + 1;
  }
  p->block = kind;
  p->bname = name;
  p->bpos = pos;
  memset(p->attr_line, 0, sizeof p->attr_line);
  return GOAP_OK;
}

/* role: `cost ACTION * FACTOR` */
goap_status goap__fp_role_attr(parser *p, goap__lexer *lx) {
  goap_file *f = p->f;
  goap__role *r = &f->roles[f->role_count - 1];
  goap__role_scale sc;
  FP_TRY(goap__lex_next(lx));
  if (lx->tok.kind != GOAP__T_IDENT) return goap__expected(lx, "an action name after 'cost'");
  FP_GROW(p, f->role_scales, f->role_scales_cap, f->role_scales_len + 1);
  if (r->scale_count >= GOAP__MAX_LIST)
    return goap__error(&p->ec, GOAP_TOO_LARGE, lx->tok.off, "too many cost lines in a role");
  FP_TRY(goap__fp_add_ref(p, lx, GOAP__NS_ACTION, R_ROLE_SCALE, f->role_scales_len));
  FP_TRY(goap__lex_next(lx));
  if (lx->tok.kind != GOAP__T_STAR)
    return goap__expected(lx, "'*' after the action name (cost ACTION * FACTOR)");
  FP_TRY(goap__lex_next(lx));
  if (lx->tok.kind != GOAP__T_NUMBER) return goap__expected(lx, "a factor after '*'");
  FP_TRY(goap__tok_decimal(lx, &sc.factor));
  if (!(sc.factor > 0) || sc.factor > 1e6)
    return goap__error(&p->ec, GOAP_OUT_OF_RANGE, lx->tok.off,
                       "a role's cost factor must be > 0 and at most 1000000");
  sc.action = -1;
  f->role_scales[f->role_scales_len++] = sc;
  r->scale_count++;
  FP_TRY(goap__lex_next(lx));
  return goap__fp_expect_eol(lx, "the factor");
}

goap_status goap__fp_agent_attr(parser *p, goap__lexer *lx, int k) {
  goap_file *f = p->f;
  goap__agent_type *t = &f->agent_types[f->agent_type_count - 1];
  if (k == K_ROLE) {
    FP_TRY(goap__fp_once(p, lx, A_ROLE, "role"));
    FP_TRY(goap__lex_next(lx));
    if (lx->tok.kind != GOAP__T_IDENT) return goap__expected(lx, "a role name after 'role'");
    FP_TRY(goap__fp_add_ref(p, lx, GOAP__NS_ROLE, R_AGENT_ROLE, (size_t)(f->agent_type_count - 1)));
    FP_TRY(goap__lex_next(lx));
    return goap__fp_expect_eol(lx, "the role name");
  }
  if (k == K_HTN) { /* an HTN agent: the root task, resolved at the end */
    int other = t->goals_line ? t->goals_line : t->actions_line;
    if (other)
      return goap__error(&p->ec, GOAP_CONFLICT, lx->tok.off,
                         "an agent has either '%s' or 'htn': this one has '%s' (line %d)",
                         t->goals_line ? "goals" : "actions", t->goals_line ? "goals" : "actions",
                         other);
    FP_TRY(goap__fp_once(p, lx, A_HTN, "htn"));
    FP_TRY(goap__lex_next(lx));
    if (lx->tok.kind != GOAP__T_IDENT) return goap__expected(lx, "a task name after 'htn'");
    t->htn_pos = goap__fp_tok_pos(p, lx);
    FP_TRY(goap__fp_take_name(p, lx, "a task name after 'htn'", &t->htn_name));
    FP_TRY(goap__lex_next(lx));
    return goap__fp_expect_eol(lx, "the task name");
  }
  if (k == K_SWITCH_MARGIN) {
    t->has_margin = 1;
    return goap__fp_parse_seconds(p, lx, A_MARGIN, "switch_margin", &t->switch_margin);
  }
  if (k == K_WATCH) {
    if (!t->watch_count) t->watch_pos = goap__fp_tok_pos(p, lx);
    FP_TRY(goap__lex_next(lx));
    return goap__fp_parse_var_list(p, lx, "watch", &t->watch, &t->watch_count);
  }
  if (p->attr_line[A_HTN])
    return goap__error(&p->ec, GOAP_CONFLICT, lx->tok.off,
                       "an agent has either '%s' or 'htn': this one has 'htn' (line %d); an HTN "
                       "agent's methods choose its actions",
                       k == K_ACTIONS ? "actions" : "goals", p->attr_line[A_HTN]);
  if (k == K_ACTIONS) {
    if (!t->actions_line) t->actions_line = p->ec.line;
    FP_TRY(goap__lex_next(lx));
    t->has_actions = 1;
    return goap__fp_parse_name_list(p, lx, "actions", GOAP__NS_ACTION, &t->actions,
                                    &t->action_count);
  }
  if (!t->goals_line) t->goals_line = p->ec.line;
  FP_TRY(goap__lex_next(lx));
  t->has_goals = 1;
  return goap__fp_parse_name_list(p, lx, "goals", GOAP__NS_GOAL, &t->goals, &t->goal_count);
}
