/*
 * parse_scenario.c -- `scenario` blocks of the `.goap` parser: pursue/want, given and
 * expect lines. Goal and action names are kept as references and resolved after the last
 * line (parser.c), since a scenario may name what is defined later.
 *
 * Invariants:
 *  - A scenario's want/given/plan items are contiguous in the file's arrays
 *    (start + count in its scen_ir).
 */
#include <stdio.h>
#include <string.h>

#include "parse_state.h"

goap_status goap__fp_finish_scenario(parser *p) {
  goap_file *f = p->f;
  scen_ir *s = &p->scen[f->scenario_count - 1];
  if (!s->pursue && s->want_count == 0 &&
      !goap__htn_scenario_has_task(p->htn, f->scenario_count - 1))
    return goap__fp_error_at(p, GOAP_PARSE_ERROR, &p->bpos,
                             "scenario '%s' needs a 'pursue', 'want' or 'task' line", p->bname);
  s->plan_count = p->refs_len - s->plan_start;
  return GOAP_OK;
}

static goap_status scen_given(parser *p, goap__lexer *lx) {
  goap_file *f = p->f;
  int sidx = f->scenario_count;
  size_t i;
  FP_TRY(goap__lex_next(lx));
  FP_TRY(goap__fp_parse_list(p, lx, GOAP__ASSIGN, "given"));
  if ((f->given_len - p->scen[sidx - 1].given_start) + p->items_len > GOAP__MAX_LIST)
    return goap__error(&p->ec, GOAP_TOO_LARGE, lx->tok.off,
                       "too many assignments in scenario '%s' (limit %d)", p->bname,
                       GOAP__MAX_LIST);
  if (p->stamp_cap < (size_t)f->var_count) {
    size_t old = p->stamp_cap;
    FP_GROW(p, p->stamp, p->stamp_cap, (size_t)f->var_count);
    memset(p->stamp + old, 0, (p->stamp_cap - old) * sizeof *p->stamp);
  }
  FP_GROW(p, p->stamp_pos, p->stamp_pos_cap, (size_t)f->var_count);
  FP_GROW(p, f->given, f->given_cap, f->given_len + p->items_len);
  for (i = 0; i < p->items_len; ++i) {
    const goap__item *it = &p->items[i];
    if (p->stamp[it->var] == sidx) {
      const goap__pos *fp = &p->stamp_pos[it->var];
      if (fp->line == it->line)
        return goap__error(&p->ec, GOAP_CONFLICT, (size_t)it->col - 1,
                           "conflicting assignments to '%s' (first at column %d)",
                           p->vars[it->var].name, fp->col);
      return goap__error(&p->ec, GOAP_CONFLICT, (size_t)it->col - 1,
                         "conflicting assignments to '%s' (first at line %d)",
                         p->vars[it->var].name, fp->line);
    }
    p->stamp[it->var] = sidx;
    p->stamp_pos[it->var] = goap__fp_item_pos(it);
    f->given[f->given_len].var = it->var;
    f->given[f->given_len].op = (goap_effect_op)it->op;
    f->given[f->given_len].value = it->value;
    ++f->given_len;
  }
  return GOAP_OK;
}

static goap_status scen_expect(parser *p, goap__lexer *lx) {
  size_t kw_off;
  FP_TRY(goap__lex_next(lx));
  kw_off = lx->tok.off;
  if (goap__tok_is(lx, "cost")) {
    if (p->attr_line[A_EXPECT_NONE])
      return goap__error(&p->ec, GOAP_CONFLICT, kw_off,
                         "'expect cost' contradicts 'expect no plan' (line %d)",
                         p->attr_line[A_EXPECT_NONE]);
    FP_TRY(goap__fp_parse_number_attr(p, lx, A_EXPECT_COST, "expect cost", 1));
    p->f->scenarios[p->f->scenario_count - 1].expect |= GOAP_EXPECT_COST;
    p->f->scenarios[p->f->scenario_count - 1].expect_cost = p->number;
    return GOAP_OK;
  }
  if (goap__tok_is(lx, "plan")) {
    if (p->attr_line[A_EXPECT_NONE])
      return goap__error(&p->ec, GOAP_CONFLICT, kw_off,
                         "'expect plan' contradicts 'expect no plan' (line %d)",
                         p->attr_line[A_EXPECT_NONE]);
    FP_TRY(goap__fp_once(p, lx, A_EXPECT_PLAN, "expect plan"));
    FP_TRY(goap__lex_next(lx));
    /* no names: the empty plan (the goal already holds) */
    while (lx->tok.kind != GOAP__T_EOL) {
      plan_ref r;
      if (lx->tok.kind != GOAP__T_IDENT)
        return goap__expected(lx, "an action name or end of line");
      r.pos = goap__fp_tok_pos(p, lx);
      r.len = lx->tok.len;
      FP_TRY(goap__fp_take_name(p, lx, "an action name", &r.name));
      FP_GROW(p, p->refs, p->refs_cap, p->refs_len + 1);
      p->refs[p->refs_len++] = r;
      FP_TRY(goap__lex_next(lx));
    }
    p->f->scenarios[p->f->scenario_count - 1].expect |= GOAP_EXPECT_PLAN;
    return GOAP_OK;
  }
  if (goap__tok_is(lx, "no")) {
    FP_TRY(goap__lex_next(lx));
    if (!goap__tok_is(lx, "plan")) return goap__expected(lx, "'plan' after 'expect no'");
    if (p->attr_line[A_EXPECT_COST])
      return goap__error(&p->ec, GOAP_CONFLICT, kw_off,
                         "'expect no plan' contradicts 'expect cost' (line %d)",
                         p->attr_line[A_EXPECT_COST]);
    if (p->attr_line[A_EXPECT_PLAN])
      return goap__error(&p->ec, GOAP_CONFLICT, kw_off,
                         "'expect no plan' contradicts 'expect plan' (line %d)",
                         p->attr_line[A_EXPECT_PLAN]);
    if (p->attr_line[A_EXPECT_NONE])
      return goap__error(&p->ec, GOAP_DUPLICATE, kw_off,
                         "duplicate 'expect no plan' in scenario '%s' (first at line %d)",
                         p->bname, p->attr_line[A_EXPECT_NONE]);
    p->attr_line[A_EXPECT_NONE] = p->ec.line;
    FP_TRY(goap__lex_next(lx));
    FP_TRY(goap__fp_expect_eol(lx, "'expect no plan'"));
    p->f->scenarios[p->f->scenario_count - 1].expect |= GOAP_EXPECT_NO_PLAN;
    return GOAP_OK;
  }
  return goap__expected(lx, "'cost', 'plan' or 'no plan' after 'expect'");
}

goap_status goap__fp_scenario_attr(parser *p, goap__lexer *lx, int k) {
  goap_file *f = p->f;
  scen_ir *ir = &p->scen[f->scenario_count - 1];
  if (k == K_PURSUE) {
    if (p->attr_line[A_WANT])
      return goap__error(&p->ec, GOAP_CONFLICT, lx->tok.off,
                         "scenario '%s' has both 'pursue' and 'want' (want at line %d)",
                         p->bname, p->attr_line[A_WANT]);
    FP_TRY(goap__fp_once(p, lx, A_PURSUE, "pursue"));
    FP_TRY(goap__lex_next(lx));
    ir->pursue_pos = goap__fp_tok_pos(p, lx);
    FP_TRY(goap__fp_take_name(p, lx, "a goal name after 'pursue'", &ir->pursue));
    ir->pursue_len = lx->tok.len;
    FP_TRY(goap__lex_next(lx));
    return goap__fp_expect_eol(lx, "the goal name");
  }
  if (k == K_WANT) {
    size_t i;
    if (p->attr_line[A_PURSUE])
      return goap__error(&p->ec, GOAP_CONFLICT, lx->tok.off,
                         "scenario '%s' has both 'want' and 'pursue' (pursue at line %d)",
                         p->bname, p->attr_line[A_PURSUE]);
    if (!p->attr_line[A_WANT]) p->attr_line[A_WANT] = p->ec.line;
    FP_TRY(goap__lex_next(lx));
    FP_TRY(goap__fp_parse_list(p, lx, GOAP__COND, "want"));
    if (ir->want_count + p->items_len > GOAP__MAX_LIST)
      return goap__error(&p->ec, GOAP_TOO_LARGE, lx->tok.off,
                         "too many conditions in scenario '%s' (limit %d)", p->bname,
                         GOAP__MAX_LIST);
    FP_GROW(p, f->conds, f->conds_cap, f->conds_len + p->items_len);
    for (i = 0; i < p->items_len; ++i) {
      f->conds[f->conds_len].var = p->items[i].var;
      f->conds[f->conds_len].op = (goap_op)p->items[i].op;
      f->conds[f->conds_len].value = p->items[i].value;
      ++f->conds_len;
    }
    ir->want_count += p->items_len;
    return GOAP_OK;
  }
  if (k == K_GIVEN) {
    FP_TRY(scen_given(p, lx));
    ir = &p->scen[f->scenario_count - 1];
    ir->given_count = f->given_len - ir->given_start;
    return GOAP_OK;
  }
  return scen_expect(p, lx);
}
