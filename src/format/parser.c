/*
 * parser.c -- the `.goap` loader: lines -> blocks -> a goap_domain built through the public
 * builder API, plus scenarios; also goap_file_parse, goap_file_load and goap_file_destroy
 * (the accessors: file_access.c; one file per block kind: parse_*.c).
 *
 * Invariants:
 *  - One pass over the text, one line at a time, no recursion; every loop advances through
 *    the text, so loading is linear (apart from the builder's own work).
 *  - Names are resolved here (hash table), never through builder lookups. Variables, actions
 *    and goals get ids in definition order, which equal the builder's ids (checked).
 *  - A block (action/goal/scenario) is handed to the builder when it ends: at the next block,
 *    `var` or `domain` line, or at the end of the text. Builder failures are mapped back to
 *    the source position of the offending item with goap_builder_error_item().
 *  - Scenarios may name goals and actions defined anywhere; those names are resolved after the
 *    last line. Variables must be declared before use.
 *  - On any failure everything allocated is released and *out is NULL; the first error is
 *    reported. Out-of-memory always yields GOAP_OUT_OF_MEMORY.
 */
#include <stdio.h>
#include <string.h>

#include "parse_state.h"

/* ------------------------------------------------------------------------------------------
 * Keywords: one table, looked up once per line. `top` marks a line that opens a block or
 * stands alone; `in` is the set of blocks (1 << B_*) where the word is an attribute. The
 * order is the one of the error texts: filtering the table by `top` or by one block gives
 * the keywords in the order the messages and the "did you mean" candidates list them.
 * ---------------------------------------------------------------------------------------- */
typedef struct keyword {
  const char *word;
  unsigned char top; /* a line of its own (domain, var, action, ...) */
  unsigned char in;  /* 1 << B_*: the blocks it is an attribute of */
} keyword;

#define IN(b) (1u << (b))

static const keyword keywords[K_COUNT] = {
    {"priority", 0, IN(B_GOAL)},
    {"pursue", 0, IN(B_SCENARIO)},
    {"want", 0, IN(B_GOAL) | IN(B_SCENARIO)},
    {"valid", 0, IN(B_GOAL)},
    {"cost", 0, IN(B_ACTION) | IN(B_ROLE)},
    {"pre", 0, IN(B_ACTION)},
    {"eff", 0, IN(B_ACTION)},
    {"on_fail", 0, IN(B_ACTION)},
    {"timeout", 0, IN(B_ACTION)},
    {"given", 0, IN(B_SCENARIO) | IN(B_SIM)},
    {"at", 0, IN(B_SIM)},
    {"fail", 0, IN(B_SIM)},
    {"sense", 0, IN(B_SIM)},
    {"until", 0, IN(B_SIM)},
    {"step", 0, IN(B_SIM)},
    {"expect", 0, IN(B_SCENARIO) | IN(B_SIM)},
    {"member", 0, IN(B_SIM)},
    {"actions", 0, IN(B_AGENT)},
    {"goals", 0, IN(B_AGENT)},
    {"domain", 1, 0},
    {"var", 1, 0},
    {"world", 1, 0},
    {"action", 1, 0},
    {"goal", 1, 0},
    {"scenario", 1, 0},
    {"simulation", 1, 0},
    {"resource", 1, 0},
    {"role", 1, IN(B_AGENT)},
    {"agent", 1, 0},
    {"position", 1, 0},
    {"htn", 0, IN(B_AGENT)},
    {"watch", 0, IN(B_ACTION) | IN(B_GOAL) | IN(B_AGENT)},
    {"cooldown", 0, IN(B_GOAL)},
    {"duration", 0, IN(B_ACTION)},
    {"reserve", 0, IN(B_ACTION)},
    {"on_start", 0, IN(B_ACTION)},
    {"on_end", 0, IN(B_ACTION)},
    {"switch_margin", 0, IN(B_SIM) | IN(B_AGENT)},
};

/* The keyword spelled s[0..len), or -1. */
static int find_keyword(const char *s, size_t len) {
  int k;
  for (k = 0; k < K_COUNT; ++k)
    if (strlen(keywords[k].word) == len && memcmp(keywords[k].word, s, len) == 0) return k;
  return -1;
}

/* One attribute line of the current block. */
static goap_status parse_attr(parser *p, goap__lexer *lx, int k) {
  switch (p->block) {
    case B_ACTION: return goap__fp_action_attr(p, lx, k);
    case B_GOAL: return goap__fp_goal_attr(p, lx, k);
    case B_SIM: return goap__fp_sim_attr(p, lx, k);
    case B_ROLE: return goap__fp_role_attr(p, lx);
    case B_AGENT: return goap__fp_agent_attr(p, lx, k);
    default: return goap__fp_scenario_attr(p, lx, k);
  }
}

/* ------------------------------------------------------------------------------------------
 * Lines
 * ---------------------------------------------------------------------------------------- */
static const char *const block_article[] = {"",           "an action", "a goal", "a scenario",
                                            "a simulation", "a role",  "an agent"};

/* "cost, pre, eff, ..." -- the attributes of block kind b, in table order. */
static void allowed_text(char *buf, size_t cap, int b) {
  size_t n = 0;
  int k;
  buf[0] = '\0';
  for (k = 0; k < K_COUNT; ++k) {
    if (!(keywords[k].in & IN(b))) continue;
    n += (size_t)snprintf(buf + n, cap - n, "%s%s", n ? ", " : "", keywords[k].word);
    if (n >= cap) break;
  }
}

static goap_status do_line(parser *p) {
  goap__lexer lx;
  const char *kw;
  size_t kwlen;
  int k;
  FP_TRY(goap__check_line_bytes(&p->ec));
  goap__lex_init(&lx, &p->ec);
  FP_TRY(goap__lex_next(&lx));
  if (lx.tok.kind == GOAP__T_EOL) return GOAP_OK;
  if (lx.tok.kind != GOAP__T_IDENT) return goap__expected(&lx, "a keyword at the start of the line");
  kw = p->ec.src + lx.tok.off;
  kwlen = lx.tok.len;
  { /* HTN lines: task, method, when, do; a scenario's task (htn_parse.c) */
    goap__symtab hst = goap__fp_symtab(p);
    goap__htn_line_ctx hc;
    goap_status st = GOAP_OK;
    hc.alloc = &p->a;
    hc.ec = &p->ec;
    hc.lx = &lx;
    hc.st = &hst;
    hc.names = &p->names;
    hc.arena = &p->arena;
    hc.line_off = p->line_off;
    hc.in_scenario = p->block == B_SCENARIO;
    hc.scenario = p->f->scenario_count - 1;
    hc.scenario_has_target = p->attr_line[A_PURSUE] || p->attr_line[A_WANT];
    if (goap__htn_opens_block(p->htn, &hc)) {
      FP_TRY(goap__fp_end_block(p));
      hc.in_scenario = 0;
    }
    if (goap__htn_line(p->htn, &hc, &st)) return st;
  }
  k = find_keyword(kw, kwlen);
  if (k >= 0 && keywords[k].top && !(k == K_ROLE && p->block == B_AGENT)) {
    /* `role` inside an agent block is its attribute */
    p->var_ends = k == K_VAR ? 1 : k == K_WORLD ? 2 : 0;
    FP_TRY(goap__fp_end_block(p));
    p->var_ends = 0;
    switch (k) {
      case K_DOMAIN: return goap__fp_parse_domain(p, &lx);
      case K_VAR: return goap__fp_parse_var(p, &lx);
      case K_WORLD: return goap__fp_parse_world(p, &lx);
      case K_ACTION: return goap__fp_begin_block(p, &lx, B_ACTION);
      case K_GOAL: return goap__fp_begin_block(p, &lx, B_GOAL);
      case K_SCENARIO: return goap__fp_begin_block(p, &lx, B_SCENARIO);
      case K_SIMULATION: return goap__fp_begin_block(p, &lx, B_SIM);
      case K_RESOURCE: return goap__fp_parse_resource(p, &lx);
      case K_ROLE: return goap__fp_begin_named(p, &lx, B_ROLE);
      case K_POSITION: {
        goap__symtab st = goap__fp_symtab(p);
        return goap__pos_line(p->f, &p->a, &lx, &st);
      }
      default: return goap__fp_begin_named(p, &lx, B_AGENT);
    }
  }
  if (k >= 0 && p->block != B_NONE && (keywords[k].in & IN(p->block)))
    return parse_attr(p, &lx, k);
  if (k >= 0 && keywords[k].in) {
    unsigned in = keywords[k].in;
    const char *where = (in & IN(B_ACTION)) && (in & IN(B_GOAL))     ? "an action or goal"
                        : (in & IN(B_ACTION)) && (in & IN(B_ROLE))   ? "an action or role"
                        : (in & IN(B_ACTION))                        ? "an action"
                        : (in & IN(B_GOAL)) && (in & IN(B_SCENARIO)) ? "a goal or scenario"
                        : (in & IN(B_GOAL))                          ? "a goal"
                        : (in & IN(B_SCENARIO)) && (in & IN(B_SIM))  ? "a scenario or simulation"
                        : (in & IN(B_SCENARIO))                      ? "a scenario"
                        : (in & IN(B_SIM))                           ? "a simulation"
                                                                     : "an agent";
    char allowed[160];
    if (p->block == B_NONE)
      return goap__error(&p->ec, GOAP_PARSE_ERROR, lx.tok.off,
                         "'%.*s' must be inside %s block", (int)kwlen, kw, where);
    allowed_text(allowed, sizeof allowed, p->block);
    return goap__error(&p->ec, GOAP_PARSE_ERROR, lx.tok.off,
                       "'%.*s' is not allowed in %s block (allowed: %s)", (int)kwlen, kw,
                       block_article[p->block], allowed);
  }
  {
    static const char *const htn_keywords[] = {"task", "method", "when", "do"};
    const char *cands[K_COUNT + 4];
    int n = 0, j;
    char dym[96];
    for (j = 0; j < K_COUNT; ++j)
      if (keywords[j].top) cands[n++] = keywords[j].word;
    for (j = 0; j < 4; ++j) cands[n++] = htn_keywords[j];
    if (p->block != B_NONE)
      for (j = 0; j < K_COUNT; ++j)
        if (keywords[j].in & IN(p->block)) cands[n++] = keywords[j].word;
    goap__did_you_mean(dym, sizeof dym, kw, kwlen, goap__fp_cand_string, cands, n);
    return goap__error(&p->ec, GOAP_PARSE_ERROR, lx.tok.off, "unknown keyword '%.*s'%s",
                       (int)(kwlen > 64 ? 64 : kwlen), kw, dym);
  }
}

/* ------------------------------------------------------------------------------------------
 * After the last line
 * ---------------------------------------------------------------------------------------- */
static goap_status finalize(parser *p) {
  goap_file *f = p->f;
  goap_status st;
  int i;
  st = goap_builder_build(p->b, &f->domain);
  if (st != GOAP_OK) {
    goap__pos none;
    memset(&none, 0, sizeof none);
    f->domain = NULL;
    if (st == GOAP_OUT_OF_MEMORY) return st;
    return goap__fp_error_at(p, st, &none, "%s", goap_builder_error(p->b)->message);
  }
  { /* every place a distance cost reads has a position */
    int32_t value = -1;
    int bad = goap__pos_check(f, &value);
    if (bad >= 0) {
      const goap__fvar *v = &p->vars[f->dists[bad].var];
      return goap__fp_error_at(
          p, GOAP_NOT_FOUND, &f->dists[bad].pos,
          "'%s' %s has no position (distance(%s) needs a 'position %s %s X Y' line "
          "for every value of '%s')",
          v->name, v->values[value], v->name, v->name, v->values[value], v->name);
    }
  }
  /* scenario references */
  FP_GROW(p, f->plans, f->plans_cap, p->refs_len + 1);
  for (i = 0; i < (int)p->refs_len; ++i) {
    const plan_ref *r = &p->refs[i];
    int32_t a = goap__ftab_find(&p->names, GOAP__NS_ACTION, r->name, r->len);
    if (a < 0) {
      char dym[128];
      goap__did_you_mean(dym, sizeof dym, r->name, r->len, goap__fp_cand_action, p,
                         f->action_count);
      return goap__fp_error_at(p, GOAP_NOT_FOUND, &r->pos, "unknown action '%s'%s", r->name, dym);
    }
    f->plans[i] = a;
  }
  f->plans_len = p->refs_len;
  for (i = 0; i < (int)p->fail_refs_len; ++i) {
    const plan_ref *r = &p->fail_refs[i];
    int32_t a = goap__ftab_find(&p->names, GOAP__NS_ACTION, r->name, r->len);
    if (a < 0) {
      char dym[128];
      goap__did_you_mean(dym, sizeof dym, r->name, r->len, goap__fp_cand_action, p,
                         f->action_count);
      return goap__fp_error_at(p, GOAP_NOT_FOUND, &r->pos, "unknown action '%s'%s", r->name, dym);
    }
    f->sim_fails[i].action = a;
  }
  FP_GROW(p, f->rt_names, f->rt_names_cap, f->rt_ids_len + 1);
  for (i = 0; i < (int)p->nrefs_len; ++i) { /* names used before their definition */
    const name_ref *r = &p->nrefs[i];
    int32_t id = goap__ftab_find(&p->names, r->ns, r->name, r->len);
    if (id < 0) {
      char dym[128];
      goap__pos pos;
      const char *kind = r->ns == GOAP__NS_ACTION ? "action"
                         : r->ns == GOAP__NS_GOAL ? "goal"
                         : r->ns == GOAP__NS_ROLE ? "role"
                         : r->ns == GOAP__NS_AGENT ? "agent type"
                                                   : "resource";
      goap__cand_fn cf = r->ns == GOAP__NS_ACTION  ? goap__fp_cand_action
                         : r->ns == GOAP__NS_GOAL  ? goap__fp_cand_goal
                         : r->ns == GOAP__NS_ROLE  ? goap__fp_cand_role
                         : r->ns == GOAP__NS_AGENT ? goap__fp_cand_agent
                                                   : goap__fp_cand_resource;
      int n = r->ns == GOAP__NS_ACTION ? f->action_count
              : r->ns == GOAP__NS_GOAL ? f->goal_count
              : r->ns == GOAP__NS_ROLE ? f->role_count
              : r->ns == GOAP__NS_AGENT ? f->agent_type_count
                                        : f->resource_count;
      goap__did_you_mean(dym, sizeof dym, r->name, r->len, cf, p, n);
      pos.line = r->pos_line;
      pos.col = r->pos_col;
      pos.line_off = r->pos_off;
      return goap__fp_error_at(p, GOAP_NOT_FOUND, &pos, "unknown %s '%s'%s%s", kind, r->name, dym,
                               r->ns == GOAP__NS_RESOURCE && !dym[0]
                                   ? " (declare it with 'resource NAME capacity N')"
                                   : "");
    }
    switch (r->target) {
      case R_ID:
        f->rt_ids[r->index] = id;
        f->rt_names[r->index] = r->ns == GOAP__NS_RESOURCE ? f->resources[id].name : NULL;
        break;
      case R_ROLE_SCALE: f->role_scales[r->index].action = id; break;
      case R_AGENT_ROLE: f->agent_types[r->index].role = id; break;
      default: f->sim_members[r->index].type = id; break;
    }
  }
  for (i = 0; i < f->sim_count; ++i) { /* events by time, in file order for equal times */
    uint32_t n = f->sims[i].event_count, x, y;
    goap__sim_event *ev = n ? f->sim_events + f->sims[i].event : NULL;
    for (x = 1; x < n; ++x) {
      goap__sim_event key = ev[x];
      for (y = x; y > 0 && ev[y - 1].time > key.time; --y) ev[y] = ev[y - 1];
      ev[y] = key;
    }
  }
  for (i = 0; i < f->scenario_count; ++i) {
    goap_scenario *sc = &f->scenarios[i];
    const scen_ir *ir = &p->scen[i];
    if (ir->pursue) {
      int32_t g = goap__ftab_find(&p->names, GOAP__NS_GOAL, ir->pursue, ir->pursue_len);
      int n = 0;
      if (g < 0) {
        char dym[128];
        goap__did_you_mean(dym, sizeof dym, ir->pursue, ir->pursue_len, goap__fp_cand_goal, p,
                           f->goal_count);
        return goap__fp_error_at(p, GOAP_NOT_FOUND, &ir->pursue_pos, "unknown goal '%s'%s",
                                 ir->pursue, dym);
      }
      sc->goal = g;
      sc->want = goap_domain_goal_want(f->domain, g, &n);
      sc->want_count = n;
    } else {
      sc->goal = -1;
      sc->want = ir->want_count ? f->conds + ir->want_start : NULL; /* NULL: a `task` */
      sc->want_count = (int)ir->want_count;
    }
    sc->given = ir->given_count ? f->given + ir->given_start : NULL;
    sc->given_count = (int)ir->given_count;
    sc->expect_plan = ir->plan_count ? f->plans + ir->plan_start : NULL;
    sc->expect_plan_length = (int)ir->plan_count;
  }
  FP_TRY(goap__htn_finalize(p->htn, f, &p->names, &p->ec, p->text, p->len));
  for (i = 0; i < f->agent_type_count; ++i) { /* `htn TASK` and `watch` of agent blocks */
    goap__agent_type *t = &f->agent_types[i];
    if (!t->htn_name) {
      if (t->watch_count)
        return goap__fp_error_at(
            p, GOAP_PARSE_ERROR, &t->watch_pos,
            "'watch' in an agent block needs an 'htn' line (a GOAP agent watches "
            "variables in its goals and actions)");
      continue;
    }
    t->htn_root = f->htn ? goap_htn_domain_find_task(f->htn, t->htn_name) : -1;
    if (t->htn_root < 0) {
      char dym[128];
      size_t len = strlen(t->htn_name);
      int32_t act = goap__ftab_find(&p->names, GOAP__NS_ACTION, t->htn_name, len);
      int32_t goal = goap__ftab_find(&p->names, GOAP__NS_GOAL, t->htn_name, len);
      if (act >= 0 || goal >= 0)
        return goap__fp_error_at(
            p, GOAP_INVALID_ARGUMENT, &t->htn_pos,
            "'%s' is %s, not a task: 'htn' needs the root compound task (a 'task' "
            "block)",
            t->htn_name, act >= 0 ? "an action" : "a goal");
      if (!f->htn)
        return goap__fp_error_at(p, GOAP_NOT_FOUND, &t->htn_pos,
                                 "unknown task '%s' (the file has no 'task' block)", t->htn_name);
      goap__did_you_mean(dym, sizeof dym, t->htn_name, len, goap__fp_cand_task, f,
                         goap_htn_domain_task_count(f->htn));
      return goap__fp_error_at(p, GOAP_NOT_FOUND, &t->htn_pos, "unknown task '%s'%s", t->htn_name,
                               dym);
    }
  }
  return goap__analyse(f, p->text, p->len);
}

static void parser_free(parser *p) {
  const goap_allocator *a = &p->a;
  goap_builder_destroy(p->b);
  goap__arena_free(a, &p->arena);
  goap__ftab_free(a, &p->names);
  goap__mem_free(a, p->vars, p->vars_cap * sizeof *p->vars);
  goap__mem_free(a, p->action_names, p->action_names_cap * sizeof *p->action_names);
  goap__mem_free(a, p->goal_names, p->goal_names_cap * sizeof *p->goal_names);
  goap__mem_free(a, p->items, p->items_cap * sizeof *p->items);
  goap__mem_free(a, p->pre, p->pre_cap * sizeof *p->pre);
  goap__mem_free(a, p->eff, p->eff_cap * sizeof *p->eff);
  goap__mem_free(a, p->tconds, p->tconds_cap * sizeof *p->tconds);
  goap__mem_free(a, p->teffs, p->teffs_cap * sizeof *p->teffs);
  goap__mem_free(a, p->scen, p->scen_cap * sizeof *p->scen);
  goap__mem_free(a, p->refs, p->refs_cap * sizeof *p->refs);
  goap__mem_free(a, p->stamp, p->stamp_cap * sizeof *p->stamp);
  goap__mem_free(a, p->stamp_pos, p->stamp_pos_cap * sizeof *p->stamp_pos);
  goap__mem_free(a, p->values, p->values_cap * sizeof *p->values);
  goap__mem_free(a, p->value_offs, p->value_offs_cap * sizeof *p->value_offs);
  goap__mem_free(a, p->fail_refs, p->fail_refs_cap * sizeof *p->fail_refs);
  goap__mem_free(a, p->nrefs, p->nrefs_cap * sizeof *p->nrefs);
  goap__htn_ir_free(a, p->htn);
}

static goap_status parse_all(parser *p) {
  size_t off = 0;
  int line = 0;
  if (p->len >= 3 && (unsigned char)p->text[0] == 0xEF && (unsigned char)p->text[1] == 0xBB &&
      (unsigned char)p->text[2] == 0xBF)
    off = 3; /* a UTF-8 byte order mark is not part of line 1 */
  while (off < p->len) {
    const char *nl = (const char *)memchr(p->text + off, '\n', p->len - off);
    size_t end = nl ? (size_t)(nl - p->text) : p->len, n = end - off;
    ++line;
    if (n > 0 && p->text[end - 1] == '\r') --n;
    p->line_off = off;
    p->next_off = nl ? end + 1 : p->len;
    p->ec.line = line;
    p->ec.src = p->text + off;
    p->ec.src_len = n;
    if (n > GOAP_FILE_MAX_LINE)
      return goap__error(&p->ec, GOAP_TOO_LARGE, GOAP_FILE_MAX_LINE,
                         "line is longer than %d bytes", GOAP_FILE_MAX_LINE);
    FP_TRY(do_line(p));
    off = p->next_off;
  }
  p->ec.src = NULL;
  p->ec.src_len = 0;
  FP_TRY(goap__fp_end_block(p));
  return finalize(p);
}

/* ------------------------------------------------------------------------------------------
 * Public API
 * ---------------------------------------------------------------------------------------- */
void goap_file_destroy(goap_file *f) {
  goap_allocator a;
  if (!f) return;
  a = f->alloc;
  goap_htn_domain_destroy(f->htn);
  goap__mem_free(&a, f->task_pos, f->task_pos_cap * sizeof *f->task_pos);
  goap__mem_free(&a, f->method_pos, f->method_pos_cap * sizeof *f->method_pos);
  goap_domain_destroy(f->domain);
  goap__mem_free(&a, f->scenarios, f->scenarios_cap * sizeof *f->scenarios);
  goap__mem_free(&a, f->conds, f->conds_cap * sizeof *f->conds);
  goap__mem_free(&a, f->given, f->given_cap * sizeof *f->given);
  goap__mem_free(&a, f->plans, f->plans_cap * sizeof *f->plans);
  goap__mem_free(&a, f->var_pos, f->var_pos_cap * sizeof *f->var_pos);
  goap__mem_free(&a, f->action_pos, f->action_pos_cap * sizeof *f->action_pos);
  goap__mem_free(&a, f->goal_pos, f->goal_pos_cap * sizeof *f->goal_pos);
  goap__mem_free(&a, f->warnings, f->warnings_cap * sizeof *f->warnings);
  goap__mem_free(&a, f->action_rt, f->action_rt_cap * sizeof *f->action_rt);
  goap__mem_free(&a, f->goal_rt, f->goal_rt_cap * sizeof *f->goal_rt);
  goap__mem_free(&a, f->rt_effs, f->rt_effs_cap * sizeof *f->rt_effs);
  goap__mem_free(&a, f->rt_conds, f->rt_conds_cap * sizeof *f->rt_conds);
  goap__mem_free(&a, f->rt_vars, f->rt_vars_cap * sizeof *f->rt_vars);
  goap__mem_free(&a, f->world_var, f->world_var_cap * sizeof *f->world_var);
  goap__mem_free(&a, f->sims, f->sims_cap * sizeof *f->sims);
  goap__mem_free(&a, f->sim_events, f->sim_events_cap * sizeof *f->sim_events);
  goap__mem_free(&a, f->sim_fails, f->sim_fails_cap * sizeof *f->sim_fails);
  goap__mem_free(&a, f->rt_ids, f->rt_ids_cap * sizeof *f->rt_ids);
  goap__mem_free(&a, (void *)f->rt_names, f->rt_names_cap * sizeof *f->rt_names);
  goap__mem_free(&a, f->resources, f->resources_cap * sizeof *f->resources);
  goap__mem_free(&a, f->roles, f->roles_cap * sizeof *f->roles);
  goap__mem_free(&a, f->role_scales, f->role_scales_cap * sizeof *f->role_scales);
  goap__mem_free(&a, f->agent_types, f->agent_types_cap * sizeof *f->agent_types);
  goap__mem_free(&a, f->sim_members, f->sim_members_cap * sizeof *f->sim_members);
  goap__pos_free(f);
  goap__arena_free(&a, &f->arena);
  goap__mem_free(&a, f, sizeof *f);
}

goap_status goap_file_parse(const char *name, const char *text, size_t length,
                            const goap_allocator *alloc, goap_file **out, goap_error *err) {
  goap_error local;
  parser p;
  goap_status st;
  const char *fname = name ? name : "<input>";
  if (!err) err = &local;
  goap__err_clear(err);
  if (out) *out = NULL;
  if (!out || (!text && length)) {
    goap__diag_set(err, GOAP_SEVERITY_ERROR, GOAP_INVALID_ARGUMENT, fname, 0, 0, NULL, 0,
                   "invalid argument");
    return GOAP_INVALID_ARGUMENT;
  }
  if (length > GOAP_FILE_MAX_BYTES) {
    goap__diag_set(err, GOAP_SEVERITY_ERROR, GOAP_TOO_LARGE, fname, 0, 0, NULL, 0,
                   "input is larger than %u bytes", (unsigned)GOAP_FILE_MAX_BYTES);
    return GOAP_TOO_LARGE;
  }
  memset(&p, 0, sizeof p);
  p.a = goap__mem_resolve(alloc);
  p.text = text ? text : "";
  p.len = length;
  p.ec.diag = err;
  p.ec.file = fname;
  p.f = (goap_file *)goap__mem_alloc(&p.a, sizeof *p.f);
  if (!p.f) {
    st = GOAP_OUT_OF_MEMORY;
  } else {
    memset(p.f, 0, sizeof *p.f);
    p.f->alloc = p.a;
    goap__copy_truncated(p.f->name, sizeof p.f->name, fname);
    (void)goap_builder_create(&p.a, &p.b); /* p.b NULL on failure: checked below */
    p.htn = goap__htn_ir_create(&p.a);
    st = p.b && p.htn ? parse_all(&p) : GOAP_OUT_OF_MEMORY;
  }
  parser_free(&p);
  if (st != GOAP_OK) {
    if (st == GOAP_OUT_OF_MEMORY)
      goap__diag_set(err, GOAP_SEVERITY_ERROR, st, fname, 0, 0, NULL, 0, "out of memory");
    goap_file_destroy(p.f);
    return st;
  }
  *out = p.f;
  return GOAP_OK;
}

goap_status goap_file_load(const char *path, const goap_allocator *alloc, goap_file **out,
                           goap_error *err) {
  goap_error local;
  goap_allocator a = goap__mem_resolve(alloc);
  FILE *fp;
  char *buf = NULL;
  size_t cap = 0, len = 0;
  goap_status st;
  if (!err) err = &local;
  goap__err_clear(err);
  if (out) *out = NULL;
  if (!path || !out) {
    goap__diag_set(err, GOAP_SEVERITY_ERROR, GOAP_INVALID_ARGUMENT, path ? path : "", 0, 0,
                   NULL, 0, "invalid argument");
    return GOAP_INVALID_ARGUMENT;
  }
  fp = fopen(path, "rb");
  if (!fp) {
    goap__diag_set(err, GOAP_SEVERITY_ERROR, GOAP_IO_ERROR, path, 0, 0, NULL, 0,
                   "cannot open file for reading");
    return GOAP_IO_ERROR;
  }
  for (;;) {
    size_t got;
    if (len == cap) {
      size_t ncap = cap ? cap * 2 : 65536;
      char *nb;
      if (ncap > (size_t)GOAP_FILE_MAX_BYTES + 1) ncap = (size_t)GOAP_FILE_MAX_BYTES + 1;
      if (ncap == cap) break; /* read one byte beyond the limit: too large */
      nb = (char *)a.fn(a.ctx, buf, cap, ncap);
      if (!nb) {
        fclose(fp);
        goap__mem_free(&a, buf, cap);
        goap__diag_set(err, GOAP_SEVERITY_ERROR, GOAP_OUT_OF_MEMORY, path, 0, 0, NULL, 0,
                       "out of memory");
        return GOAP_OUT_OF_MEMORY;
      }
      buf = nb;
      cap = ncap;
    }
    got = fread(buf + len, 1, cap - len, fp);
    len += got;
    if (got == 0) break;
  }
  if (ferror(fp)) {
    fclose(fp);
    goap__mem_free(&a, buf, cap);
    goap__diag_set(err, GOAP_SEVERITY_ERROR, GOAP_IO_ERROR, path, 0, 0, NULL, 0,
                   "cannot read file (is it a directory?)");
    return GOAP_IO_ERROR;
  }
  fclose(fp);
  if (len > GOAP_FILE_MAX_BYTES) {
    goap__mem_free(&a, buf, cap);
    goap__diag_set(err, GOAP_SEVERITY_ERROR, GOAP_TOO_LARGE, path, 0, 0, NULL, 0,
                   "file is larger than %u bytes", (unsigned)GOAP_FILE_MAX_BYTES);
    return GOAP_TOO_LARGE;
  }
  st = goap_file_parse(path, buf, len, &a, out, err);
  goap__mem_free(&a, buf, cap);
  return st;
}
