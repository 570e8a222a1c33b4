/*
 * parse_action.c -- `action` blocks of the `.goap` parser: their attributes and their
 * hand-over to the builder when the block ends.
 *
 * Invariants:
 *  - An action is added to the builder exactly once, when its block ends; builder failures
 *    are mapped back to the source position of the offending item.
 */
#include <stdio.h>
#include <string.h>

#include "parse_state.h"

/* The action block ends: its cost, pre and eff go to the builder (and a distance cost to
 * position.c); builder failures point back at the offending line. */
goap_status goap__fp_finish_action(parser *p) {
  goap_action_desc desc;
  goap_status st;
  goap__pos cost_pos;
  int id = -1;
  size_t i;
  if (p->eff_len == 0 && p->var_ends)
    return goap__fp_error_at(p, GOAP_PARSE_ERROR, &p->bpos,
                             "action '%s' has no 'eff' line (the '%s' on line %d ends its block: "
                             "declare variables before the actions that use them)",
                             p->bname, p->var_ends == 1 ? "var" : "world", p->ec.line);
  if (p->eff_len == 0)
    return goap__fp_error_at(p, GOAP_PARSE_ERROR, &p->bpos, "action '%s' has no 'eff' line",
                             p->bname);
  FP_GROW(p, p->tconds, p->tconds_cap, p->pre_len + 1);
  FP_GROW(p, p->teffs, p->teffs_cap, p->eff_len);
  for (i = 0; i < p->pre_len; ++i) {
    p->tconds[i].var = p->pre[i].var;
    p->tconds[i].op = (goap_op)p->pre[i].op;
    p->tconds[i].value = p->pre[i].value;
  }
  for (i = 0; i < p->eff_len; ++i) {
    p->teffs[i].var = p->eff[i].var;
    p->teffs[i].op = (goap_effect_op)p->eff[i].op;
    p->teffs[i].value = p->eff[i].value;
  }
  memset(&desc, 0, sizeof desc);
  desc.name = p->bname;
  desc.cost = p->attr_line[A_COST] ? p->number : 1.0;
  desc.pre = p->pre_len ? p->tconds : NULL;
  desc.pre_count = (int)p->pre_len;
  desc.eff = p->teffs;
  desc.eff_count = (int)p->eff_len;
  st = goap_builder_add_action(p->b, &desc, &id);
  if (p->attr_line[A_COST])
    cost_pos = p->number_pos;
  else
    memset(&cost_pos, 0, sizeof cost_pos);
  if (st != GOAP_OK)
    return goap__fp_builder_error(p, st, &p->bpos, p->pre, p->pre_len, p->eff, p->eff_len,
                                  &cost_pos);
  if (id != p->f->action_count - 1)
    return goap__fp_error_at(p, GOAP_INVALID_OPERATION, &p->bpos,
                             "builder assigned an unexpected id");
  if (p->has_dist) { /* a distance cost: priced from the state (position.c) */
    p->has_dist = 0;
    for (i = 0; i < p->eff_len && p->dist.target < 0; ++i)
      if (p->eff[i].var == p->dist.var && p->eff[i].op == GOAP_SET) p->dist.target = p->eff[i].value;
    if (p->dist.target < 0)
      return goap__fp_error_at(p, GOAP_NOT_FOUND, &p->dist.pos,
                               "distance(%s) has no destination: action '%s' sets no value of '%s' "
                               "(add 'eff %s = PLACE', or write distance(%s, PLACE))",
                               p->vars[p->dist.var].name, p->bname, p->vars[p->dist.var].name,
                               p->vars[p->dist.var].name, p->vars[p->dist.var].name);
    FP_TRY(goap__pos_attach(p->f, &p->a, id, &p->dist));
    st = goap_builder_set_state_cost(p->b, id, goap__pos_state_cost, p->f, 0.0,
                                     GOAP_STATE_COST_PURE);
    if (st != GOAP_OK)
      return goap__fp_error_at(p, st, &p->dist.pos, "%s", goap_builder_error(p->b)->message);
  }
  return GOAP_OK;
}

static goap_status action_rt_attr(parser *p, goap__lexer *lx, int k) {
  goap_file *f = p->f;
  goap__action_rt *rt = &f->action_rt[f->action_count - 1];
  if (k == K_TIMEOUT) return goap__fp_parse_seconds(p, lx, A_TIMEOUT, "timeout", &rt->timeout);
  if (k == K_DURATION) return goap__fp_parse_seconds(p, lx, A_DURATION, "duration", &rt->duration);
  FP_TRY(goap__lex_next(lx));
  if (k == K_WATCH) return goap__fp_parse_var_list(p, lx, "watch", &rt->watch, &rt->watch_count);
  if (k == K_RESERVE)
    return goap__fp_parse_name_list(p, lx, "reserve", GOAP__NS_RESOURCE, &rt->reserve,
                                    &rt->reserve_count);
  if (k == K_ON_START)
    return goap__fp_rt_effect_list(p, lx, "on_start", &rt->on_start, &rt->on_start_count);
  if (k == K_ON_END)
    return goap__fp_rt_effect_list(p, lx, "on_end", &rt->on_end, &rt->on_end_count);
  return goap__fp_rt_effect_list(p, lx, "on_fail", &rt->on_fail, &rt->on_fail_count);
}

goap_status goap__fp_action_attr(parser *p, goap__lexer *lx, int k) {
  if (k == K_COST) { /* a decimal, or a distance cost (position.c) */
    goap__symtab st = goap__fp_symtab(p);
    FP_TRY(goap__fp_once(p, lx, A_COST, "cost"));
    FP_TRY(goap__lex_next(lx));
    p->number_pos = goap__fp_tok_pos(p, lx);
    return goap__pos_cost(lx, &st, p->line_off, &p->number, &p->dist, &p->has_dist);
  }
  if (k != K_PRE && k != K_EFF) return action_rt_attr(p, lx, k);
  FP_TRY(goap__lex_next(lx));
  if (k == K_PRE) {
    FP_TRY(goap__fp_parse_list(p, lx, GOAP__COND, "pre"));
    FP_TRY(goap__fp_no_world_vars(p, "pre"));
    return goap__fp_append_items(p, lx, &p->pre, &p->pre_len, &p->pre_cap, "preconditions");
  }
  FP_TRY(goap__fp_parse_list(p, lx, GOAP__EFFECT, "eff"));
  FP_TRY(goap__fp_no_world_vars(p, "eff"));
  return goap__fp_append_items(p, lx, &p->eff, &p->eff_len, &p->eff_cap, "effects");
}
