/*
 * parse_sim.c -- the attributes of `simulation` blocks of the `.goap` parser (given, at,
 * fail, sense, until, step, expect, member, switch_margin). Running a simulation is sim.c.
 *
 * Invariants:
 *  - A simulation's events, fails, members and sensed variables are contiguous in the file's
 *    arrays (start + count in its goap__sim); `fail ACTION` names resolve after the last line.
 */
#include <stdio.h>
#include <string.h>

#include "parse_state.h"

goap_status goap__fp_sim_attr(parser *p, goap__lexer *lx, int k) {
  goap_file *f = p->f;
  goap__sim *sm = &f->sims[f->sim_count - 1];
  size_t i;
  if (k == K_SWITCH_MARGIN) { /* the lone agent's hysteresis (members: their type's) */
    sm->has_margin = 1;
    return goap__fp_parse_seconds(p, lx, A_MARGIN, "switch_margin", &sm->switch_margin);
  }
  if (k == K_UNTIL) {
    FP_TRY(goap__fp_parse_seconds(p, lx, A_UNTIL, "until", &sm->until));
    if (sm->until > 1e6)
      return goap__fp_error_at(p, GOAP_OUT_OF_RANGE, &p->number_pos,
                               "'until' is limited to 1000000 s");
    return GOAP_OK;
  }
  if (k == K_STEP) {
    FP_TRY(goap__fp_parse_seconds(p, lx, A_STEP, "step", &sm->step));
    if (!(sm->step >= 0.001))
      return goap__fp_error_at(p, GOAP_OUT_OF_RANGE, &p->number_pos,
                               "'step' must be at least 0.001 s");
    return GOAP_OK;
  }
  if (k == K_GIVEN) {
    FP_TRY(goap__lex_next(lx));
    FP_TRY(goap__fp_parse_list(p, lx, GOAP__ASSIGN, "given"));
    if (sm->given_count + p->items_len > GOAP__MAX_LIST)
      return goap__error(&p->ec, GOAP_TOO_LARGE, lx->tok.off, "too many assignments in 'given'");
    FP_GROW(p, f->given, f->given_cap, f->given_len + p->items_len);
    for (i = 0; i < p->items_len; ++i) {
      goap_effect *e = &f->given[f->given_len++];
      e->var = p->items[i].var;
      e->op = (goap_effect_op)p->items[i].op;
      e->value = p->items[i].value;
    }
    sm->given_count += (uint32_t)p->items_len;
    return GOAP_OK;
  }
  if (k == K_AT) {
    goap__sim_event ev;
    FP_TRY(goap__lex_next(lx));
    if (lx->tok.kind != GOAP__T_NUMBER) return goap__expected(lx, "a time in seconds after 'at'");
    FP_TRY(goap__tok_decimal(lx, &ev.time));
    if (ev.time < 0 || ev.time > 1e6)
      return goap__error(&p->ec, GOAP_OUT_OF_RANGE, lx->tok.off,
                         "the time after 'at' must be between 0 and 1000000 s");
    FP_TRY(goap__lex_next(lx));
    ev.order = -1;
    if (goap__tok_is(lx, "order")) {
      static const char *const behaviors[] = {"none", "get_to_cover", "advance_cover",
                                              "orderly_advance", "search"};
      FP_TRY(goap__lex_next(lx));
      if (lx->tok.kind != GOAP__T_IDENT)
        return goap__expected(lx, "a squad behaviour after 'order' (get_to_cover, "
                                  "advance_cover, orderly_advance, search or none)");
      ev.order = goap__fp_in_list(behaviors, 5, p->ec.src + lx->tok.off, lx->tok.len);
      if (ev.order < 0) {
        char dym[96];
        goap__did_you_mean(dym, sizeof dym, p->ec.src + lx->tok.off, lx->tok.len,
                           goap__fp_cand_string, behaviors, 5);
        return goap__error(&p->ec, GOAP_NOT_FOUND, lx->tok.off,
                           "unknown squad behaviour '%.*s'%s", (int)lx->tok.len,
                           p->ec.src + lx->tok.off, dym);
      }
      FP_TRY(goap__lex_next(lx));
      FP_TRY(goap__fp_expect_eol(lx, "the behaviour"));
      p->items_len = 0;
    } else {
      FP_TRY(goap__fp_parse_list(p, lx, GOAP__ASSIGN, "at"));
    }
    if (sm->event_count >= GOAP__MAX_LIST)
      return goap__error(&p->ec, GOAP_TOO_LARGE, 0, "too many 'at' lines (limit %d)",
                         GOAP__MAX_LIST);
    FP_TRY(goap__fp_push_effs(p, &ev.eff));
    ev.eff_count = (uint32_t)p->items_len;
    ev.line = p->ec.line;
    FP_GROW(p, f->sim_events, f->sim_events_cap, f->sim_events_len + 1);
    f->sim_events[f->sim_events_len++] = ev;
    sm->event_count++;
    return GOAP_OK;
  }
  if (k == K_FAIL) {
    goap__sim_fail fl;
    plan_ref r;
    memset(&fl, 0, sizeof fl);
    FP_TRY(goap__lex_next(lx));
    if (lx->tok.kind != GOAP__T_IDENT) return goap__expected(lx, "an action name after 'fail'");
    r.pos = goap__fp_tok_pos(p, lx);
    r.len = lx->tok.len;
    FP_TRY(goap__fp_take_name(p, lx, "an action name", &r.name));
    FP_TRY(goap__lex_next(lx));
    if (goap__tok_is(lx, "when")) {
      FP_TRY(goap__lex_next(lx));
      FP_TRY(goap__fp_parse_list(p, lx, GOAP__COND, "when"));
      FP_TRY(goap__fp_push_conds(p, &fl.cond));
      fl.cond_count = (uint32_t)p->items_len;
    } else if (lx->tok.kind != GOAP__T_EOL) {
      return goap__expected(lx, "'when' or end of line");
    }
    if (sm->fail_count >= GOAP__MAX_LIST)
      return goap__error(&p->ec, GOAP_TOO_LARGE, 0, "too many 'fail' lines (limit %d)",
                         GOAP__MAX_LIST);
    fl.action = -1;
    FP_GROW(p, f->sim_fails, f->sim_fails_cap, f->sim_fails_len + 1);
    FP_GROW(p, p->fail_refs, p->fail_refs_cap, f->sim_fails_len + 1);
    p->fail_refs[f->sim_fails_len] = r;
    f->sim_fails[f->sim_fails_len++] = fl;
    p->fail_refs_len = f->sim_fails_len;
    sm->fail_count++;
    return GOAP_OK;
  }
  if (k == K_SENSE) {
    FP_TRY(goap__lex_next(lx));
    return goap__fp_parse_var_list(p, lx, "sense", &sm->sense, &sm->sense_count);
  }
  if (k == K_MEMBER) {
    goap__sim_member m;
    memset(&m, 0, sizeof m);
    FP_TRY(goap__lex_next(lx));
    if (lx->tok.kind != GOAP__T_IDENT) return goap__expected(lx, "a member name after 'member'");
    for (i = 0; i < sm->member_count; ++i) {
      const char *other = f->sim_members[sm->member + i].name;
      if (strlen(other) == lx->tok.len && memcmp(other, p->ec.src + lx->tok.off, lx->tok.len) == 0)
        return goap__error(&p->ec, GOAP_DUPLICATE, lx->tok.off, "duplicate member '%s'", other);
    }
    if (sm->member_count >= 1024)
      return goap__error(&p->ec, GOAP_TOO_LARGE, lx->tok.off, "too many members (limit 1024)");
    m.name = goap__arena_strndup(&p->a, &f->arena, p->ec.src + lx->tok.off, lx->tok.len);
    if (!m.name) return GOAP_OUT_OF_MEMORY;
    FP_TRY(goap__lex_next(lx));
    if (lx->tok.kind != GOAP__T_IDENT)
      return goap__expected(lx, "an agent type after the member name");
    FP_GROW(p, f->sim_members, f->sim_members_cap, f->sim_members_len + 1);
    FP_TRY(goap__fp_add_ref(p, lx, GOAP__NS_AGENT, R_MEMBER_TYPE, f->sim_members_len));
    FP_TRY(goap__lex_next(lx));
    if (goap__tok_is(lx, "with")) {
      FP_TRY(goap__lex_next(lx));
      FP_TRY(goap__fp_parse_list(p, lx, GOAP__ASSIGN, "with"));
      FP_TRY(goap__fp_push_effs(p, &m.with));
      m.with_count = (uint32_t)p->items_len;
    } else if (lx->tok.kind != GOAP__T_EOL) {
      return goap__expected(lx, "'with' or end of line");
    }
    m.type = -1;
    if (sm->member_count == 0) sm->member = (uint32_t)f->sim_members_len;
    f->sim_members[f->sim_members_len++] = m;
    sm->member_count++;
    return GOAP_OK;
  }
  /* expect */
  FP_TRY(goap__lex_next(lx));
  if (goap__tok_is(lx, "replans")) {
    int32_t n;
    FP_TRY(goap__fp_once(p, lx, A_EXPECT_REPLANS, "expect replans"));
    FP_TRY(goap__lex_next(lx));
    if (lx->tok.kind != GOAP__T_NUMBER) return goap__expected(lx, "a number after 'expect replans'");
    FP_TRY(goap__tok_int(lx, &n));
    if (n < 0) return goap__error(&p->ec, GOAP_OUT_OF_RANGE, lx->tok.off, "replans cannot be negative");
    sm->expect_replans = n;
    sm->replans_line = p->ec.line;
    sm->replans_col = (int)lx->tok.off + 1;
    FP_TRY(goap__lex_next(lx));
    return goap__fp_expect_eol(lx, "the number");
  }
  if (goap__tok_is(lx, "final")) {
    uint32_t start;
    FP_TRY(goap__fp_once(p, lx, A_EXPECT_PLAN, "expect final"));
    FP_TRY(goap__lex_next(lx));
    FP_TRY(goap__fp_parse_list(p, lx, GOAP__COND, "expect final"));
    FP_TRY(goap__fp_push_conds(p, &start));
    sm->final = start;
    sm->final_count = (uint32_t)p->items_len;
    sm->final_line = p->ec.line;
    FP_GROW(p, f->rt_ids, f->rt_ids_cap, f->rt_ids_len + p->items_len);
    sm->final_cols = (uint32_t)f->rt_ids_len;
    for (size_t j = 0; j < p->items_len; ++j) f->rt_ids[f->rt_ids_len++] = p->items[j].col;
    return GOAP_OK;
  }
  return goap__expected(lx, "'replans' or 'final' after 'expect'");
}
