/*
 * parse_goal.c -- `goal` blocks of the `.goap` parser: priority, want, and the runtime
 * attributes (valid, watch, cooldown); the goal is handed to the builder when its block ends.
 *
 * Invariants:
 *  - A goal is added to the builder exactly once, when its block ends.
 */
#include <stdio.h>
#include <string.h>

#include "parse_state.h"

goap_status goap__fp_finish_goal(parser *p) {
  goap_goal_desc desc;
  goap_status st;
  int id = -1;
  size_t i;
  if (p->pre_len == 0)
    return goap__fp_error_at(p, GOAP_PARSE_ERROR, &p->bpos, "goal '%s' has no 'want' line",
                             p->bname);
  FP_GROW(p, p->tconds, p->tconds_cap, p->pre_len);
  for (i = 0; i < p->pre_len; ++i) {
    p->tconds[i].var = p->pre[i].var;
    p->tconds[i].op = (goap_op)p->pre[i].op;
    p->tconds[i].value = p->pre[i].value;
  }
  memset(&desc, 0, sizeof desc);
  desc.name = p->bname;
  desc.priority = p->attr_line[A_PRIORITY] ? p->number : 0.0;
  desc.want = p->tconds;
  desc.want_count = (int)p->pre_len;
  st = goap_builder_add_goal(p->b, &desc, &id);
  if (st != GOAP_OK)
    return goap__fp_builder_error(p, st, &p->bpos, p->pre, p->pre_len, NULL, 0, NULL);
  if (id != p->f->goal_count - 1)
    return goap__fp_error_at(p, GOAP_INVALID_OPERATION, &p->bpos,
                             "builder assigned an unexpected id");
  return GOAP_OK;
}

static goap_status goal_rt_attr(parser *p, goap__lexer *lx, int k) {
  goap_file *f = p->f;
  goap__goal_rt *rt = &f->goal_rt[f->goal_count - 1];
  if (k == K_COOLDOWN) return goap__fp_parse_seconds(p, lx, A_COOLDOWN, "cooldown", &rt->cooldown);
  FP_TRY(goap__lex_next(lx));
  if (k == K_WATCH) return goap__fp_parse_var_list(p, lx, "watch", &rt->watch, &rt->watch_count);
  {
    uint32_t start;
    FP_TRY(goap__fp_parse_list(p, lx, GOAP__COND, "valid"));
    FP_TRY(goap__fp_no_world_vars(p, "valid"));
    if (rt->valid_count + p->items_len > GOAP__MAX_LIST)
      return goap__error(&p->ec, GOAP_TOO_LARGE, lx->tok.off, "too many conditions in 'valid'");
    FP_TRY(goap__fp_push_conds(p, &start));
    if (rt->valid_count == 0) rt->valid = start;
    rt->valid_count += (uint32_t)p->items_len;
    return GOAP_OK;
  }
}

goap_status goap__fp_goal_attr(parser *p, goap__lexer *lx, int k) {
  if (k == K_PRIORITY) return goap__fp_parse_number_attr(p, lx, A_PRIORITY, "priority", 0);
  if (k != K_WANT) return goal_rt_attr(p, lx, k);
  FP_TRY(goap__lex_next(lx));
  FP_TRY(goap__fp_parse_list(p, lx, GOAP__COND, "want"));
  FP_TRY(goap__fp_no_world_vars(p, "want"));
  return goap__fp_append_items(p, lx, &p->pre, &p->pre_len, &p->pre_cap, "conditions");
}
