/*
 * parser.c -- the `.goap` loader: lines -> blocks -> a goap_domain built through the public
 * builder API, plus scenarios; also goap_file_load and the goap_file accessors.
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

#include "format_internal.h"

enum { B_NONE = 0, B_ACTION, B_GOAL, B_SCENARIO, B_SIM, B_ROLE, B_AGENT };

/* Once-only attributes (indices into attr_line). */
enum { A_COST = 0, A_PRIORITY, A_PURSUE, A_WANT, A_EXPECT_COST, A_EXPECT_PLAN, A_EXPECT_NONE,
       A_TIMEOUT, A_DURATION, A_UNTIL, A_STEP, A_EXPECT_REPLANS, A_ROLE, A_HTN, A_COOLDOWN,
       A_MARGIN, A_COUNT };

/* A name used before it may be defined, resolved after the last line. */
enum { R_ID = 0, R_ROLE_SCALE, R_AGENT_ROLE, R_MEMBER_TYPE };
typedef struct name_ref {
  int32_t ns;        /* GOAP__NS_* */
  int target;        /* R_*: where the id goes */
  size_t index;      /* in that array */
  const char *name;
  size_t len;
  int pos_line, pos_col;
  size_t pos_off;
} name_ref;

typedef struct plan_ref {
  const char *name;
  size_t len;
  goap__pos pos;
} plan_ref;

typedef struct scen_ir {
  const char *pursue; /* NULL: `want` */
  size_t pursue_len;
  goap__pos pursue_pos;
  size_t want_start, want_count, given_start, given_count, plan_start, plan_count;
} scen_ir;

typedef struct parser {
  goap_allocator a;
  goap_file *f;
  goap_builder *b;
  goap__ectx ec;
  const char *text;
  size_t len;
  size_t line_off, next_off;
  goap__arena arena; /* parse-time names */
  goap__ftab names;
  goap__fvar *vars;
  size_t vars_cap;
  const char **action_names, **goal_names;
  size_t action_names_cap, goal_names_cap;
  int domain_line;
  /* the items of the line being parsed */
  goap__item *items;
  size_t items_len, items_cap;
  /* current block */
  int block;
  const char *bname;
  goap__pos bpos;
  int attr_line[A_COUNT]; /* first line of each once-only attribute, 0 if none */
  double number;    /* cost or priority */
  goap__item *pre, *eff;
  size_t pre_len, pre_cap, eff_len, eff_cap;
  goap_cond *tconds;
  goap_effect *teffs;
  size_t tconds_cap, teffs_cap;
  /* scenarios */
  scen_ir *scen;
  size_t scen_cap;
  plan_ref *refs;
  size_t refs_len, refs_cap;
  int *stamp; /* per var: 1 + index of the last scenario that assigned it */
  goap__pos *stamp_pos;
  size_t stamp_cap, stamp_pos_cap;
  /* enum values of the var line being parsed */
  const char **values;
  size_t *value_offs;
  size_t values_len, values_cap, value_offs_cap;
  goap__pos number_pos; /* of the last cost/priority number */
  /* simulations: `fail ACTION` references, resolved at the end */
  plan_ref *fail_refs;
  size_t fail_refs_len, fail_refs_cap;
  int world_decl; /* the var line being parsed is a `world` declaration */
  int var_ends;   /* the block is being ended by a `var` / `world` line (for the hint) */
  name_ref *nrefs;
  size_t nrefs_len, nrefs_cap;
  goap__htn_ir *htn;    /* tasks and methods (htn_parse.c) */
  goap__dist dist;      /* the action's `cost ... distance(...)` when has_dist */
  int has_dist;
} parser;



#define TRY(x)                          \
  do {                                  \
    goap_status try_s_ = (x);           \
    if (try_s_ != GOAP_OK) return try_s_; \
  } while (0)

#define GROW(p, arr, cap, need)                                                       \
  do {                                                                                \
    void *grow_ = goap__mem_grow(&(p)->a, (arr), &(cap), (need), sizeof *(arr));     \
    if (!grow_) return GOAP_OUT_OF_MEMORY;                                            \
    (arr) = grow_;                                                                    \
  } while (0)

static const char *const block_names[] = {"",           "action", "goal", "scenario",
                                           "simulation", "role",   "agent"};

/* ------------------------------------------------------------------------------------------
 * Keywords: one table, looked up once per line. `top` marks a line that opens a block or
 * stands alone; `in` is the set of blocks (1 << B_*) where the word is an attribute. The
 * order is the one of the error texts: filtering the table by `top` or by one block gives
 * the keywords in the order the messages and the "did you mean" candidates list them.
 * ---------------------------------------------------------------------------------------- */
enum { K_PRIORITY = 0, K_PURSUE, K_WANT, K_VALID, K_COST, K_PRE, K_EFF, K_ON_FAIL, K_TIMEOUT,
       K_GIVEN, K_AT, K_FAIL, K_SENSE, K_UNTIL, K_STEP, K_EXPECT, K_MEMBER, K_ACTIONS, K_GOALS,
       K_DOMAIN, K_VAR, K_WORLD, K_ACTION, K_GOAL, K_SCENARIO, K_SIMULATION, K_RESOURCE, K_ROLE,
       K_AGENT, K_POSITION, K_HTN, K_WATCH, K_COOLDOWN, K_DURATION, K_RESERVE, K_ON_START,
       K_ON_END, K_SWITCH_MARGIN, K_COUNT };
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

static goap_status error_at(parser *p, goap_status st, const goap__pos *pos, const char *fmt,
                            ...) GOAP__PRINTF(4, 5);
static goap_status error_at(parser *p, goap_status st, const goap__pos *pos, const char *fmt,
                            ...) {
  va_list ap;
  va_start(ap, fmt);
  goap__diag_vset(p->ec.diag, GOAP_SEVERITY_ERROR, st, p->ec.file, pos->line, pos->col,
                  p->text + pos->line_off, line_length_at(p, pos->line_off), fmt, ap);
  va_end(ap);
  return st;
}

static goap__pos tok_pos(const parser *p, const goap__lexer *lx) {
  goap__pos r;
  r.line = p->ec.line;
  r.col = (int)lx->tok.off + 1;
  r.line_off = p->line_off;
  return r;
}

static goap__pos item_pos(const goap__item *it) {
  goap__pos r;
  r.line = it->line;
  r.col = it->col;
  r.line_off = it->line_off;
  return r;
}

/* Maps the builder's last failure to a position and reports it. */
static goap_status builder_error(parser *p, goap_status st, const goap__pos *whole,
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
      if (idx >= 0 && (size_t)idx < npre) pos = item_pos(&pre[idx]);
      break;
    case GOAP_ITEM_EFF:
      if (idx >= 0 && (size_t)idx < neff) pos = item_pos(&eff[idx]);
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
  msg = goap_builder_error(p->b);
  return error_at(p, st, &pos, "%s", msg && msg[0] ? msg : goap_status_string(st));
}

/* ------------------------------------------------------------------------------------------
 * Helpers
 * ---------------------------------------------------------------------------------------- */
static goap_status expect_eol(goap__lexer *lx, const char *after) {
  char what[96];
  if (lx->tok.kind == GOAP__T_EOL) return GOAP_OK;
  snprintf(what, sizeof what, "end of line after %s", after);
  return goap__expected(lx, what);
}

static goap_status next(goap__lexer *lx) { return goap__lex_next(lx); }

static const char *cand_action(const void *ctx, int i) {
  return ((const parser *)ctx)->action_names[i];
}
static const char *cand_goal(const void *ctx, int i) {
  return ((const parser *)ctx)->goal_names[i];
}
static const char *cand_resource(const void *ctx, int i) {
  return ((const parser *)ctx)->f->resources[i].name;
}
static const char *cand_role(const void *ctx, int i) {
  return ((const parser *)ctx)->f->roles[i].name;
}
static const char *cand_task(const void *ctx, int i) {
  return goap_htn_domain_task_name(((const goap_file *)ctx)->htn, i);
}

static const char *cand_agent(const void *ctx, int i) {
  return ((const parser *)ctx)->f->agent_types[i].name;
}
static const char *cand_string(const void *ctx, int i) {
  return ((const char *const *)ctx)[i];
}

static int in_list(const char *const *list, int n, const char *s, size_t len) {
  int i;
  for (i = 0; i < n; ++i)
    if (strlen(list[i]) == len && memcmp(list[i], s, len) == 0) return i;
  return -1;
}

static goap__symtab symtab(const parser *p) {
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
static goap_status parse_list(parser *p, goap__lexer *lx, goap__mode mode, const char *kw) {
  static const char *const nouns[] = {"a condition", "an effect", "an assignment"};
  goap__symtab st = symtab(p);
  p->items_len = 0;
  if (lx->tok.kind == GOAP__T_EOL) {
    char t[64];
    snprintf(t, sizeof t, "%s after '%s'", nouns[mode], kw);
    return goap__expected(lx, t);
  }
  for (;;) {
    goap__item it;
    TRY(goap__parse_item(lx, &st, mode, &it));
    it.line_off = p->line_off;
    GROW(p, p->items, p->items_cap, p->items_len + 1);
    p->items[p->items_len++] = it;
    if (lx->tok.kind == GOAP__T_COMMA) {
      TRY(next(lx));
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
static goap_status append_items(parser *p, goap__lexer *lx, goap__item **vec, size_t *len,
                                size_t *cap, const char *what) {
  if (*len + p->items_len > GOAP__MAX_LIST)
    return goap__error(&p->ec, GOAP_TOO_LARGE, lx->tok.off,
                       "too many %s in %s '%s' (limit %d)", what, block_names[p->block],
                       p->bname, GOAP__MAX_LIST);
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
static goap_status once(parser *p, goap__lexer *lx, int attr, const char *kw) {
  if (p->attr_line[attr])
    return goap__error(&p->ec, GOAP_DUPLICATE, lx->tok.off,
                       "duplicate '%s' in %s '%s' (first at line %d)", kw,
                       block_names[p->block], p->bname, p->attr_line[attr]);
  p->attr_line[attr] = p->ec.line;
  return GOAP_OK;
}

/* Reads a name token (the current token) into the parse arena. */
static goap_status take_name(parser *p, goap__lexer *lx, const char *what, const char **out) {
  if (lx->tok.kind != GOAP__T_IDENT) return goap__expected(lx, what);
  *out = goap__arena_strndup(&p->a, &p->arena, p->ec.src + lx->tok.off, lx->tok.len);
  return *out ? GOAP_OK : GOAP_OUT_OF_MEMORY;
}

/* ------------------------------------------------------------------------------------------
 * Blocks
 * ---------------------------------------------------------------------------------------- */
static goap_status finish_action(parser *p) {
  goap_action_desc desc;
  goap_status st;
  goap__pos cost_pos;
  int id = -1;
  size_t i;
  if (p->eff_len == 0 && p->var_ends)
    return error_at(p, GOAP_PARSE_ERROR, &p->bpos,
                    "action '%s' has no 'eff' line (the '%s' on line %d ends its block: "
                    "declare variables before the actions that use them)",
                    p->bname, p->var_ends == 1 ? "var" : "world", p->ec.line);
  if (p->eff_len == 0)
    return error_at(p, GOAP_PARSE_ERROR, &p->bpos, "action '%s' has no 'eff' line", p->bname);
  GROW(p, p->tconds, p->tconds_cap, p->pre_len + 1);
  GROW(p, p->teffs, p->teffs_cap, p->eff_len);
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
    return builder_error(p, st, &p->bpos, p->pre, p->pre_len, p->eff, p->eff_len, &cost_pos);
  if (id != p->f->action_count - 1)
    return error_at(p, GOAP_INVALID_OPERATION, &p->bpos, "builder assigned an unexpected id");
  if (p->has_dist) { /* a distance cost: priced from the state (position.c) */
    p->has_dist = 0;
    for (i = 0; i < p->eff_len && p->dist.target < 0; ++i)
      if (p->eff[i].var == p->dist.var && p->eff[i].op == GOAP_SET) p->dist.target = p->eff[i].value;
    if (p->dist.target < 0)
      return error_at(p, GOAP_NOT_FOUND, &p->dist.pos,
                      "distance(%s) has no destination: action '%s' sets no value of '%s' "
                      "(add 'eff %s = PLACE', or write distance(%s, PLACE))",
                      p->vars[p->dist.var].name, p->bname, p->vars[p->dist.var].name,
                      p->vars[p->dist.var].name, p->vars[p->dist.var].name);
    TRY(goap__pos_attach(p->f, &p->a, id, &p->dist));
    st = goap_builder_set_state_cost(p->b, id, goap__pos_state_cost, p->f, 0.0,
                                     GOAP_STATE_COST_PURE);
    if (st != GOAP_OK) return error_at(p, st, &p->dist.pos, "%s", goap_builder_error(p->b));
  }
  return GOAP_OK;
}

static goap_status finish_goal(parser *p) {
  goap_goal_desc desc;
  goap_status st;
  int id = -1;
  size_t i;
  if (p->pre_len == 0)
    return error_at(p, GOAP_PARSE_ERROR, &p->bpos, "goal '%s' has no 'want' line", p->bname);
  GROW(p, p->tconds, p->tconds_cap, p->pre_len);
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
  if (st != GOAP_OK) return builder_error(p, st, &p->bpos, p->pre, p->pre_len, NULL, 0, NULL);
  if (id != p->f->goal_count - 1)
    return error_at(p, GOAP_INVALID_OPERATION, &p->bpos, "builder assigned an unexpected id");
  return GOAP_OK;
}

static goap_status finish_scenario(parser *p) {
  goap_file *f = p->f;
  scen_ir *s = &p->scen[f->scenario_count - 1];
  if (!s->pursue && s->want_count == 0 &&
      !goap__htn_scenario_has_task(p->htn, f->scenario_count - 1))
    return error_at(p, GOAP_PARSE_ERROR, &p->bpos,
                    "scenario '%s' needs a 'pursue', 'want' or 'task' line",
                    p->bname);
  s->plan_count = p->refs_len - s->plan_start;
  return GOAP_OK;
}

static goap_status end_block(parser *p) {
  goap_status st = GOAP_OK;
  TRY(goap__htn_end_block(p->htn, &p->ec, p->text, p->len));
  switch (p->block) {
    case B_ACTION: st = finish_action(p); break;
    case B_GOAL: st = finish_goal(p); break;
    case B_SCENARIO: st = finish_scenario(p); break;
    default: break;
  }
  p->block = B_NONE;
  return st;
}

static goap_status begin_block(parser *p, goap__lexer *lx, int kind) {
  goap_file *f = p->f;
  const char *kw = block_names[kind];
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
  TRY(next(lx));
  snprintf(what, sizeof what, "a name after '%s'", kw);
  if (lx->tok.kind != GOAP__T_IDENT) return goap__expected(lx, what);
  pos = tok_pos(p, lx);
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
    TRY(take_name(p, lx, what, &name));
  }
  TRY(next(lx));
  snprintf(what, sizeof what, "the %s name", kw);
  TRY(expect_eol(lx, what));
  TRY(goap__ftab_insert(&p->a, &p->names, ns, name, strlen(name), (int32_t)count));
  if (kind == B_ACTION) {
    GROW(p, f->action_pos, f->action_pos_cap, (size_t)count + 1);
    GROW(p, p->action_names, p->action_names_cap, (size_t)count + 1);
    GROW(p, f->action_rt, f->action_rt_cap, (size_t)count + 1);
    f->action_pos[count] = pos;
    p->action_names[count] = name;
    memset(&f->action_rt[count], 0, sizeof f->action_rt[count]);
    f->action_count = count + 1;
  } else if (kind == B_GOAL) {
    GROW(p, f->goal_pos, f->goal_pos_cap, (size_t)count + 1);
    GROW(p, p->goal_names, p->goal_names_cap, (size_t)count + 1);
    GROW(p, f->goal_rt, f->goal_rt_cap, (size_t)count + 1);
    f->goal_pos[count] = pos;
    p->goal_names[count] = name;
    memset(&f->goal_rt[count], 0, sizeof f->goal_rt[count]);
    f->goal_count = count + 1;
  } else if (kind == B_SIM) {
    goap__sim *sm;
    GROW(p, f->sims, f->sims_cap, (size_t)count + 1);
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
    GROW(p, f->scenarios, f->scenarios_cap, (size_t)count + 1);
    GROW(p, p->scen, p->scen_cap, (size_t)count + 1);
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
 * Top-level lines
 * ---------------------------------------------------------------------------------------- */
static goap_status parse_domain(parser *p, goap__lexer *lx) {
  goap__pos pos;
  goap_status st;
  const char *name = NULL;
  if (p->domain_line)
    return goap__error(&p->ec, GOAP_DUPLICATE, lx->tok.off,
                       "'domain' given twice (first at line %d)", p->domain_line);
  TRY(next(lx));
  pos = tok_pos(p, lx);
  TRY(take_name(p, lx, "a name after 'domain'", &name));
  TRY(next(lx));
  TRY(expect_eol(lx, "the domain name"));
  p->domain_line = p->ec.line;
  st = goap_builder_set_name(p->b, name);
  if (st != GOAP_OK) return builder_error(p, st, &pos, NULL, 0, NULL, 0, NULL);
  return GOAP_OK;
}

static const char *const type_names[] = {"bool", "enum", "int"};

static goap_status parse_var(parser *p, goap__lexer *lx) {
  goap_file *f = p->f;
  goap_var_desc desc;
  goap__fvar fv;
  goap__pos pos, default_pos, range_pos;
  const char *name = NULL;
  int32_t prev, id = f->var_count;
  int out_id = -1;
  goap_status st;
  char t[64];
  memset(&desc, 0, sizeof desc);
  memset(&fv, 0, sizeof fv);
  memset(&default_pos, 0, sizeof default_pos);
  memset(&range_pos, 0, sizeof range_pos);
  TRY(next(lx));
  if (lx->tok.kind != GOAP__T_IDENT) return goap__expected(lx, "a variable name after 'var'");
  pos = tok_pos(p, lx);
  prev = goap__ftab_find(&p->names, GOAP__NS_VAR, p->ec.src + lx->tok.off, lx->tok.len);
  if (prev >= 0)
    return goap__error(&p->ec, GOAP_DUPLICATE, lx->tok.off,
                       "duplicate variable '%.*s' (first declared at line %d)",
                       (int)lx->tok.len, p->ec.src + lx->tok.off, f->var_pos[prev].line);
  if (id >= GOAP__MAX_VARS)
    return goap__error(&p->ec, GOAP_TOO_LARGE, lx->tok.off, "too many variables (limit %d)",
                       GOAP__MAX_VARS);
  TRY(take_name(p, lx, "a variable name", &name));
  TRY(next(lx));
  if (lx->tok.kind != GOAP__T_COLON) return goap__expected(lx, "':' after the variable name");
  TRY(next(lx));
  fv.name = name;
  p->values_len = 0; /* value_offs entries valid for this line (builder_error) */
  if (goap__tok_is(lx, "bool")) {
    fv.type = GOAP_BOOL;
    fv.lo = 0;
    fv.hi = 1;
    fv.value_count = 2;
    TRY(next(lx));
  } else if (goap__tok_is(lx, "int")) {
    fv.type = GOAP_INT;
    TRY(next(lx));
    range_pos = tok_pos(p, lx);
    if (lx->tok.kind != GOAP__T_NUMBER) return goap__expected(lx, "a lower bound after 'int'");
    TRY(goap__tok_int(lx, &fv.lo));
    TRY(next(lx));
    if (lx->tok.kind != GOAP__T_DOTDOT) return goap__expected(lx, "'..' after the lower bound");
    TRY(next(lx));
    if (lx->tok.kind != GOAP__T_NUMBER) return goap__expected(lx, "an upper bound after '..'");
    TRY(goap__tok_int(lx, &fv.hi));
    if (fv.lo > fv.hi)
      return error_at(p, GOAP_OUT_OF_RANGE, &range_pos,
                      "empty range %ld..%ld: the lower bound is greater than the upper bound",
                      (long)fv.lo, (long)fv.hi);
    TRY(next(lx));
  } else if (goap__tok_is(lx, "enum")) {
    size_t n = 0;
    fv.type = GOAP_ENUM;
    TRY(next(lx));
    if (lx->tok.kind != GOAP__T_LBRACE) return goap__expected(lx, "'{' after 'enum'");
    TRY(next(lx));
    if (lx->tok.kind == GOAP__T_RBRACE)
      return goap__error(&p->ec, GOAP_PARSE_ERROR, lx->tok.off,
                         "an enum needs at least one value");
    for (;;) {
      const char *v = NULL;
      if (lx->tok.kind != GOAP__T_IDENT) return goap__expected(lx, "an enum value name");
      if (goap__ftab_find(&p->names, GOAP__NS_VALUE + id, p->ec.src + lx->tok.off,
                           lx->tok.len) >= 0)
        return goap__error(&p->ec, GOAP_DUPLICATE, lx->tok.off,
                           "duplicate enum value '%.*s' in '%s'", (int)lx->tok.len,
                           p->ec.src + lx->tok.off, name);
      if (n >= GOAP_MAX_ENUM_VALUES)
        return goap__error(&p->ec, GOAP_TOO_LARGE, lx->tok.off,
                           "too many enum values (limit %d)", GOAP_MAX_ENUM_VALUES);
      TRY(take_name(p, lx, "an enum value name", &v));
      TRY(goap__ftab_insert(&p->a, &p->names, GOAP__NS_VALUE + id, v, lx->tok.len,
                             (int32_t)n));
      {
        size_t c1 = p->values_cap, c2 = p->value_offs_cap;
        void *g = goap__mem_grow(&p->a, p->values, &c1, n + 1, sizeof *p->values);
        if (!g) return GOAP_OUT_OF_MEMORY;
        p->values = (const char **)g;
        p->values_cap = c1;
        g = goap__mem_grow(&p->a, p->value_offs, &c2, n + 1, sizeof *p->value_offs);
        if (!g) return GOAP_OUT_OF_MEMORY;
        p->value_offs = (size_t *)g;
        p->value_offs_cap = c2;
      }
      p->values[n] = v;
      p->value_offs[n] = lx->tok.off;
      p->values_len = ++n;
      TRY(next(lx));
      if (lx->tok.kind == GOAP__T_COMMA) {
        TRY(next(lx));
        continue;
      }
      if (lx->tok.kind == GOAP__T_RBRACE) break;
      return goap__expected(lx, "',' or '}' in the enum");
    }
    TRY(next(lx));
    fv.values = (const char **)goap__arena_alloc(&p->a, &p->arena, n * sizeof *fv.values);
    if (!fv.values) return GOAP_OUT_OF_MEMORY;
    memcpy(fv.values, p->values, n * sizeof *fv.values);
    fv.value_count = (int)n;
    fv.lo = 0;
    fv.hi = (int32_t)n - 1;
  } else if (lx->tok.kind == GOAP__T_IDENT) {
    /* other languages' names for the types, too far for the edit distance */
    static const char *const aliases[][2] = {{"integer", "int"}, {"boolean", "bool"},
                                             {"number", "int"}, {"enumeration", "enum"}};
    char dym[96];
    size_t k;
    goap__did_you_mean(dym, sizeof dym, p->ec.src + lx->tok.off, lx->tok.len, cand_string,
                       type_names, 3);
    for (k = 0; k < sizeof aliases / sizeof aliases[0]; ++k)
      if (goap__tok_is(lx, aliases[k][0]))
        snprintf(dym, sizeof dym, "; did you mean '%s'?", aliases[k][1]);
    return goap__error(&p->ec, GOAP_PARSE_ERROR, lx->tok.off,
                       "unknown type '%.*s' (expected bool, enum or int)%s",
                       (int)lx->tok.len, p->ec.src + lx->tok.off, dym);
  } else {
    return goap__expected(lx, "a type (bool, enum or int)");
  }
  /* optional default */
  if (lx->tok.kind == GOAP__T_ASSIGN) {
    TRY(next(lx));
    default_pos = tok_pos(p, lx);
    goap__tok_show(lx, t, sizeof t);
    if (lx->tok.kind == GOAP__T_EOL)
      return goap__expected(lx, "a default value after '='");
    desc.has_default = 1;
    if (fv.type == GOAP_BOOL) {
      if (goap__tok_is(lx, "true"))
        desc.default_value = 1;
      else if (goap__tok_is(lx, "false"))
        desc.default_value = 0;
      else
        return goap__error(&p->ec, GOAP_TYPE_MISMATCH, lx->tok.off,
                           "'%s' is a bool: expected true or false, found %s", name, t);
    } else if (fv.type == GOAP_ENUM) {
      int32_t idx;
      if (lx->tok.kind != GOAP__T_IDENT)
        return goap__error(&p->ec, GOAP_TYPE_MISMATCH, lx->tok.off,
                           "'%s' is an enum: expected one of its values, found %s", name, t);
      idx = goap__ftab_find(&p->names, GOAP__NS_VALUE + id, p->ec.src + lx->tok.off,
                             lx->tok.len);
      if (idx < 0) {
        char dym[128];
        goap__did_you_mean(dym, sizeof dym, p->ec.src + lx->tok.off, lx->tok.len, cand_string,
                           fv.values, fv.value_count);
        return goap__error(&p->ec, GOAP_NOT_FOUND, lx->tok.off,
                           "unknown value '%.*s' for '%s'%s", (int)lx->tok.len,
                           p->ec.src + lx->tok.off, name, dym);
      }
      desc.default_value = idx;
    } else {
      if (lx->tok.kind != GOAP__T_NUMBER ||
          memchr(p->ec.src + lx->tok.off, '.', lx->tok.len))
        return goap__error(&p->ec, GOAP_TYPE_MISMATCH, lx->tok.off,
                           "'%s' is an int: expected an integer, found %s", name, t);
      TRY(goap__tok_int(lx, &desc.default_value));
      if (desc.default_value < fv.lo || desc.default_value > fv.hi)
        return goap__error(&p->ec, GOAP_OUT_OF_RANGE, lx->tok.off,
                           "default %ld is outside the range %ld..%ld of '%s'",
                           (long)desc.default_value, (long)fv.lo, (long)fv.hi, name);
    }
    TRY(next(lx));
  }
  /* flags, in either order: `shared` (a squad blackboard), `sensed` (the game's sensors) */
  while (goap__tok_is(lx, "shared") || goap__tok_is(lx, "sensed")) {
    unsigned flag = goap__tok_is(lx, "shared") ? GOAP_VAR_SHARED : GOAP_VAR_SENSED;
    const char *word = flag == GOAP_VAR_SHARED ? "'shared'" : "'sensed'";
    if (flag == GOAP_VAR_SENSED && p->world_decl)
      return goap__error(&p->ec, GOAP_PARSE_ERROR, lx->tok.off,
                         "a world variable cannot be 'sensed': declare the agent's percept with "
                         "'var ... sensed' and set it with 'at' lines");
    desc.flags |= flag;
    TRY(next(lx));
    if (lx->tok.kind != GOAP__T_EOL && !(desc.flags & GOAP_VAR_SENSED) &&
        goap__tok_is(lx, "sensed"))
      continue;
    if (lx->tok.kind != GOAP__T_EOL && !(desc.flags & GOAP_VAR_SHARED) &&
        goap__tok_is(lx, "shared"))
      continue;
    TRY(expect_eol(lx, word));
  }
  if (lx->tok.kind != GOAP__T_EOL)
    return goap__expected(lx, desc.has_default ? "'shared', 'sensed' or end of line"
                                               : "'=', 'shared', 'sensed' or end of line");
  desc.name = name;
  desc.type = fv.type;
  desc.lo = fv.lo;
  desc.hi = fv.hi;
  desc.values = fv.values;
  desc.value_count = fv.type == GOAP_ENUM ? fv.value_count : 0;
  st = goap_builder_add_var(p->b, &desc, &out_id);
  if (st != GOAP_OK) {
    int unused_index = 0;
    if (st == GOAP_OUT_OF_MEMORY) return st;
    return builder_error(p, st, &pos, NULL, 0, NULL, 0,
                         goap_builder_error_item(p->b, &unused_index) == GOAP_ITEM_DEFAULT
                             ? &default_pos
                             : &range_pos);
  }
  if (out_id != id)
    return error_at(p, GOAP_INVALID_OPERATION, &pos, "builder assigned an unexpected id");
  TRY(goap__ftab_insert(&p->a, &p->names, GOAP__NS_VAR, name, strlen(name), id));
  GROW(p, p->vars, p->vars_cap, (size_t)id + 1);
  GROW(p, f->var_pos, f->var_pos_cap, (size_t)id + 1);
  fv.line = pos.line;
  fv.col = pos.col;
  fv.line_off = pos.line_off;
  p->vars[id] = fv;
  f->var_pos[id] = pos;
  f->var_count = id + 1;
  return GOAP_OK;
}

/* ------------------------------------------------------------------------------------------
 * Attribute lines
 * ---------------------------------------------------------------------------------------- */
static goap_status parse_number_attr(parser *p, goap__lexer *lx, int attr, const char *kw,
                                     int nonneg) {
  double v;
  TRY(once(p, lx, attr, kw));
  TRY(next(lx));
  if (lx->tok.kind != GOAP__T_NUMBER) {
    char what[48];
    snprintf(what, sizeof what, "a number after '%s'", kw);
    return goap__expected(lx, what);
  }
  p->number_pos = tok_pos(p, lx);
  TRY(goap__tok_decimal(lx, &v));
  if (nonneg && v < 0) {
    char t[64];
    goap__tok_show(lx, t, sizeof t);
    return goap__error(&p->ec, GOAP_OUT_OF_RANGE, lx->tok.off,
                       "%s must not be negative, found %s", kw, t);
  }
  p->number = v;
  TRY(next(lx));
  return expect_eol(lx, "the number");
}

static goap_status scen_given(parser *p, goap__lexer *lx) {
  goap_file *f = p->f;
  int sidx = f->scenario_count;
  size_t i;
  TRY(next(lx));
  TRY(parse_list(p, lx, GOAP__ASSIGN, "given"));
  if ((f->given_len - p->scen[sidx - 1].given_start) + p->items_len > GOAP__MAX_LIST)
    return goap__error(&p->ec, GOAP_TOO_LARGE, lx->tok.off,
                       "too many assignments in scenario '%s' (limit %d)", p->bname,
                       GOAP__MAX_LIST);
  if (p->stamp_cap < (size_t)f->var_count) {
    size_t old = p->stamp_cap;
    GROW(p, p->stamp, p->stamp_cap, (size_t)f->var_count);
    memset(p->stamp + old, 0, (p->stamp_cap - old) * sizeof *p->stamp);
  }
  GROW(p, p->stamp_pos, p->stamp_pos_cap, (size_t)f->var_count);
  GROW(p, f->given, f->given_cap, f->given_len + p->items_len);
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
    p->stamp_pos[it->var] = item_pos(it);
    f->given[f->given_len].var = it->var;
    f->given[f->given_len].op = (goap_effect_op)it->op;
    f->given[f->given_len].value = it->value;
    ++f->given_len;
  }
  return GOAP_OK;
}

static goap_status scen_expect(parser *p, goap__lexer *lx) {
  size_t kw_off;
  TRY(next(lx));
  kw_off = lx->tok.off;
  if (goap__tok_is(lx, "cost")) {
    if (p->attr_line[A_EXPECT_NONE])
      return goap__error(&p->ec, GOAP_CONFLICT, kw_off,
                         "'expect cost' contradicts 'expect no plan' (line %d)",
                         p->attr_line[A_EXPECT_NONE]);
    TRY(parse_number_attr(p, lx, A_EXPECT_COST, "expect cost", 1));
    p->f->scenarios[p->f->scenario_count - 1].expect |= GOAP_EXPECT_COST;
    p->f->scenarios[p->f->scenario_count - 1].expect_cost = p->number;
    return GOAP_OK;
  }
  if (goap__tok_is(lx, "plan")) {
    if (p->attr_line[A_EXPECT_NONE])
      return goap__error(&p->ec, GOAP_CONFLICT, kw_off,
                         "'expect plan' contradicts 'expect no plan' (line %d)",
                         p->attr_line[A_EXPECT_NONE]);
    TRY(once(p, lx, A_EXPECT_PLAN, "expect plan"));
    TRY(next(lx));
    /* no names: the empty plan (the goal already holds) */
    while (lx->tok.kind != GOAP__T_EOL) {
      plan_ref r;
      if (lx->tok.kind != GOAP__T_IDENT)
        return goap__expected(lx, "an action name or end of line");
      r.pos = tok_pos(p, lx);
      r.len = lx->tok.len;
      TRY(take_name(p, lx, "an action name", &r.name));
      GROW(p, p->refs, p->refs_cap, p->refs_len + 1);
      p->refs[p->refs_len++] = r;
      TRY(next(lx));
    }
    p->f->scenarios[p->f->scenario_count - 1].expect |= GOAP_EXPECT_PLAN;
    return GOAP_OK;
  }
  if (goap__tok_is(lx, "no")) {
    TRY(next(lx));
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
    TRY(next(lx));
    TRY(expect_eol(lx, "'expect no plan'"));
    p->f->scenarios[p->f->scenario_count - 1].expect |= GOAP_EXPECT_NO_PLAN;
    return GOAP_OK;
  }
  return goap__expected(lx, "'cost', 'plan' or 'no plan' after 'expect'");
}

/* ---- runtime attributes and simulations ------------------------------------------------ */

/* Appends p->items (effects or assignments) to rt_effs; *start is where they begin. */
static goap_status push_effs(parser *p, uint32_t *start) {
  goap_file *f = p->f;
  size_t i;
  GROW(p, f->rt_effs, f->rt_effs_cap, f->rt_effs_len + p->items_len);
  *start = (uint32_t)f->rt_effs_len;
  for (i = 0; i < p->items_len; ++i) {
    goap_effect *e = &f->rt_effs[f->rt_effs_len++];
    e->var = p->items[i].var;
    e->op = (goap_effect_op)p->items[i].op;
    e->value = p->items[i].value;
  }
  return GOAP_OK;
}

static goap_status push_conds(parser *p, uint32_t *start) {
  goap_file *f = p->f;
  size_t i;
  GROW(p, f->rt_conds, f->rt_conds_cap, f->rt_conds_len + p->items_len);
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
static goap_status no_world_vars(parser *p, const char *kw) {
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
static goap_status parse_var_list(parser *p, goap__lexer *lx, const char *kw, uint32_t *start,
                                  uint32_t *count) {
  goap_file *f = p->f;
  goap__symtab st = symtab(p);
  size_t first = f->rt_vars_len;
  char what[64];
  snprintf(what, sizeof what, "a variable name after '%s'", kw);
  if (lx->tok.kind != GOAP__T_IDENT) return goap__expected(lx, what);
  for (;;) {
    int32_t v;
    TRY(goap__resolve_var(lx, &st, &v));
    if (*count + (f->rt_vars_len - first) >= GOAP__MAX_LIST)
      return goap__error(&p->ec, GOAP_TOO_LARGE, lx->tok.off, "too many variables after '%s'",
                         kw);
    GROW(p, f->rt_vars, f->rt_vars_cap, f->rt_vars_len + 1);
    f->rt_vars[f->rt_vars_len++] = v;
    TRY(next(lx));
    if (lx->tok.kind == GOAP__T_EOL) break;
    if (lx->tok.kind != GOAP__T_COMMA) return goap__expected(lx, "',' or end of line");
    TRY(next(lx));
    if (lx->tok.kind != GOAP__T_IDENT) return goap__expected(lx, "a variable name after ','");
  }
  /* consecutive lines of one block extend the same list */
  if (*count == 0) *start = (uint32_t)first;
  *count += (uint32_t)(f->rt_vars_len - first);
  return GOAP_OK;
}

/* A non-negative number attribute (seconds). */
static goap_status parse_seconds(parser *p, goap__lexer *lx, int attr, const char *kw,
                                 double *out) {
  double keep = p->number; /* the block's cost or priority */
  goap__pos keep_pos = p->number_pos;
  TRY(parse_number_attr(p, lx, attr, kw, 1));
  *out = p->number;
  p->number = keep;
  if (attr != A_UNTIL && attr != A_STEP) p->number_pos = keep_pos;
  return GOAP_OK;
}

/* Remembers that the name at the current token must be resolved in namespace ns. */
static goap_status add_ref(parser *p, goap__lexer *lx, int32_t ns, int target, size_t index) {
  name_ref r;
  const char *name = NULL;
  TRY(take_name(p, lx, "a name", &name));
  r.ns = ns;
  r.target = target;
  r.index = index;
  r.name = name;
  r.len = lx->tok.len;
  r.pos_line = p->ec.line;
  r.pos_col = (int)lx->tok.off + 1;
  r.pos_off = p->line_off;
  GROW(p, p->nrefs, p->nrefs_cap, p->nrefs_len + 1);
  p->nrefs[p->nrefs_len++] = r;
  return GOAP_OK;
}

/* NAME, NAME, ... resolved later into rt_ids (one slot each, in order). */
static goap_status parse_name_list(parser *p, goap__lexer *lx, const char *kw, int32_t ns,
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
    GROW(p, f->rt_ids, f->rt_ids_cap, f->rt_ids_len + 1);
    f->rt_ids[f->rt_ids_len] = -1;
    TRY(add_ref(p, lx, ns, R_ID, f->rt_ids_len));
    f->rt_ids_len++;
    (*count)++;
    TRY(next(lx));
    if (lx->tok.kind == GOAP__T_EOL) return GOAP_OK;
    if (lx->tok.kind != GOAP__T_COMMA) return goap__expected(lx, "',' or end of line");
    TRY(next(lx));
    if (lx->tok.kind != GOAP__T_IDENT) return goap__expected(lx, "a name after ','");
  }
}

/* on_start / on_end / on_fail: effects appended to one contiguous list per action. */
static goap_status rt_effect_list(parser *p, goap__lexer *lx, const char *kw, uint32_t *start,
                                  uint32_t *count) {
  uint32_t first;
  TRY(parse_list(p, lx, GOAP__EFFECT, kw));
  TRY(no_world_vars(p, kw));
  if (*count + p->items_len > GOAP__MAX_LIST)
    return goap__error(&p->ec, GOAP_TOO_LARGE, lx->tok.off, "too many effects in '%s'", kw);
  if (*count && *start + *count != p->f->rt_effs_len)
    return goap__error(&p->ec, GOAP_PARSE_ERROR, 0,
                       "'%s' lines of one action must follow each other", kw);
  TRY(push_effs(p, &first));
  if (*count == 0) *start = first;
  *count += (uint32_t)p->items_len;
  return GOAP_OK;
}

static goap_status action_rt_attr(parser *p, goap__lexer *lx, int k) {
  goap_file *f = p->f;
  goap__action_rt *rt = &f->action_rt[f->action_count - 1];
  if (k == K_TIMEOUT) return parse_seconds(p, lx, A_TIMEOUT, "timeout", &rt->timeout);
  if (k == K_DURATION)
    return parse_seconds(p, lx, A_DURATION, "duration", &rt->duration);
  TRY(next(lx));
  if (k == K_WATCH)
    return parse_var_list(p, lx, "watch", &rt->watch, &rt->watch_count);
  if (k == K_RESERVE)
    return parse_name_list(p, lx, "reserve", GOAP__NS_RESOURCE, &rt->reserve,
                           &rt->reserve_count);
  if (k == K_ON_START)
    return rt_effect_list(p, lx, "on_start", &rt->on_start, &rt->on_start_count);
  if (k == K_ON_END)
    return rt_effect_list(p, lx, "on_end", &rt->on_end, &rt->on_end_count);
  return rt_effect_list(p, lx, "on_fail", &rt->on_fail, &rt->on_fail_count);
}

/* ---- resources, roles, agent types --------------------------------------------------- */

static goap_status parse_resource(parser *p, goap__lexer *lx) {
  goap_file *f = p->f;
  const char *name = NULL;
  int32_t prev;
  int cap = 1;
  TRY(next(lx));
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
  TRY(next(lx));
  if (goap__tok_is(lx, "capacity")) {
    int32_t n;
    TRY(next(lx));
    if (lx->tok.kind != GOAP__T_NUMBER) return goap__expected(lx, "a number after 'capacity'");
    TRY(goap__tok_int(lx, &n));
    if (n < 0 || n > 1000000)
      return goap__error(&p->ec, GOAP_OUT_OF_RANGE, lx->tok.off,
                         "capacity must be between 0 and 1000000");
    cap = (int)n;
    TRY(next(lx));
  }
  TRY(expect_eol(lx, "the resource"));
  TRY(goap__ftab_insert(&p->a, &p->names, GOAP__NS_RESOURCE, name, strlen(name),
                        (int32_t)f->resource_count));
  GROW(p, f->resources, f->resources_cap, (size_t)f->resource_count + 1);
  f->resources[f->resource_count].name = name;
  f->resources[f->resource_count].capacity = cap;
  f->resources[f->resource_count].line = p->ec.line;
  f->resource_count++;
  return GOAP_OK;
}

/* `role NAME` and `agent NAME` blocks. */
static goap_status begin_named(parser *p, goap__lexer *lx, int kind) {
  goap_file *f = p->f;
  const char *kw = block_names[kind];
  int32_t ns = kind == B_ROLE ? GOAP__NS_ROLE : GOAP__NS_AGENT;
  int count = kind == B_ROLE ? f->role_count : f->agent_type_count;
  const char *name;
  int32_t prev;
  char what[48];
  goap__pos pos;
  TRY(next(lx));
  snprintf(what, sizeof what, "a name after '%s'", kw);
  if (lx->tok.kind != GOAP__T_IDENT) return goap__expected(lx, what);
  pos = tok_pos(p, lx);
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
  TRY(next(lx));
  snprintf(what, sizeof what, "the %s name", kw);
  TRY(expect_eol(lx, what));
  TRY(goap__ftab_insert(&p->a, &p->names, ns, name, strlen(name), (int32_t)count));
  if (kind == B_ROLE) {
    goap__role *r;
    GROW(p, f->roles, f->roles_cap, (size_t)count + 1);
    r = &f->roles[count];
    memset(r, 0, sizeof *r);
    r->name = name;
    r->line = pos.line;
    r->scale = (uint32_t)f->role_scales_len;
    f->role_count = count + 1;
  } else {
    goap__agent_type *t;
    GROW(p, f->agent_types, f->agent_types_cap, (size_t)count + 1);
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
static goap_status role_attr(parser *p, goap__lexer *lx) {
  goap_file *f = p->f;
  goap__role *r = &f->roles[f->role_count - 1];
  goap__role_scale sc;
  TRY(next(lx));
  if (lx->tok.kind != GOAP__T_IDENT) return goap__expected(lx, "an action name after 'cost'");
  GROW(p, f->role_scales, f->role_scales_cap, f->role_scales_len + 1);
  if (r->scale_count >= GOAP__MAX_LIST)
    return goap__error(&p->ec, GOAP_TOO_LARGE, lx->tok.off, "too many cost lines in a role");
  TRY(add_ref(p, lx, GOAP__NS_ACTION, R_ROLE_SCALE, f->role_scales_len));
  TRY(next(lx));
  if (lx->tok.kind != GOAP__T_STAR)
    return goap__expected(lx, "'*' after the action name (cost ACTION * FACTOR)");
  TRY(next(lx));
  if (lx->tok.kind != GOAP__T_NUMBER) return goap__expected(lx, "a factor after '*'");
  TRY(goap__tok_decimal(lx, &sc.factor));
  if (!(sc.factor > 0) || sc.factor > 1e6)
    return goap__error(&p->ec, GOAP_OUT_OF_RANGE, lx->tok.off,
                       "a role's cost factor must be > 0 and at most 1000000");
  sc.action = -1;
  f->role_scales[f->role_scales_len++] = sc;
  r->scale_count++;
  TRY(next(lx));
  return expect_eol(lx, "the factor");
}

static goap_status agent_attr(parser *p, goap__lexer *lx, int k) {
  goap_file *f = p->f;
  goap__agent_type *t = &f->agent_types[f->agent_type_count - 1];
  if (k == K_ROLE) {
    TRY(once(p, lx, A_ROLE, "role"));
    TRY(next(lx));
    if (lx->tok.kind != GOAP__T_IDENT) return goap__expected(lx, "a role name after 'role'");
    TRY(add_ref(p, lx, GOAP__NS_ROLE, R_AGENT_ROLE, (size_t)(f->agent_type_count - 1)));
    TRY(next(lx));
    return expect_eol(lx, "the role name");
  }
  if (k == K_HTN) { /* an HTN agent: the root task, resolved at the end */
    int other = t->goals_line ? t->goals_line : t->actions_line;
    if (other)
      return goap__error(&p->ec, GOAP_CONFLICT, lx->tok.off,
                         "an agent has either '%s' or 'htn': this one has '%s' (line %d)",
                         t->goals_line ? "goals" : "actions", t->goals_line ? "goals" : "actions",
                         other);
    TRY(once(p, lx, A_HTN, "htn"));
    TRY(next(lx));
    if (lx->tok.kind != GOAP__T_IDENT) return goap__expected(lx, "a task name after 'htn'");
    t->htn_pos = tok_pos(p, lx);
    TRY(take_name(p, lx, "a task name after 'htn'", &t->htn_name));
    TRY(next(lx));
    return expect_eol(lx, "the task name");
  }
  if (k == K_SWITCH_MARGIN) {
    t->has_margin = 1;
    return parse_seconds(p, lx, A_MARGIN, "switch_margin", &t->switch_margin);
  }
  if (k == K_WATCH) {
    if (!t->watch_count) t->watch_pos = tok_pos(p, lx);
    TRY(next(lx));
    return parse_var_list(p, lx, "watch", &t->watch, &t->watch_count);
  }
  if (p->attr_line[A_HTN])
    return goap__error(&p->ec, GOAP_CONFLICT, lx->tok.off,
                       "an agent has either '%s' or 'htn': this one has 'htn' (line %d); an HTN "
                       "agent's methods choose its actions",
                       keywords[k].word, p->attr_line[A_HTN]);
  if (k == K_ACTIONS) {
    if (!t->actions_line) t->actions_line = p->ec.line;
    TRY(next(lx));
    t->has_actions = 1;
    return parse_name_list(p, lx, "actions", GOAP__NS_ACTION, &t->actions, &t->action_count);
  }
  if (!t->goals_line) t->goals_line = p->ec.line;
  TRY(next(lx));
  t->has_goals = 1;
  return parse_name_list(p, lx, "goals", GOAP__NS_GOAL, &t->goals, &t->goal_count);
}

static goap_status goal_rt_attr(parser *p, goap__lexer *lx, int k) {
  goap_file *f = p->f;
  goap__goal_rt *rt = &f->goal_rt[f->goal_count - 1];
  if (k == K_COOLDOWN)
    return parse_seconds(p, lx, A_COOLDOWN, "cooldown", &rt->cooldown);
  TRY(next(lx));
  if (k == K_WATCH)
    return parse_var_list(p, lx, "watch", &rt->watch, &rt->watch_count);
  {
    uint32_t start;
    TRY(parse_list(p, lx, GOAP__COND, "valid"));
    TRY(no_world_vars(p, "valid"));
    if (rt->valid_count + p->items_len > GOAP__MAX_LIST)
      return goap__error(&p->ec, GOAP_TOO_LARGE, lx->tok.off, "too many conditions in 'valid'");
    TRY(push_conds(p, &start));
    if (rt->valid_count == 0) rt->valid = start;
    rt->valid_count += (uint32_t)p->items_len;
    return GOAP_OK;
  }
}

static goap_status sim_attr(parser *p, goap__lexer *lx, int k) {
  goap_file *f = p->f;
  goap__sim *sm = &f->sims[f->sim_count - 1];
  size_t i;
  if (k == K_SWITCH_MARGIN) { /* the lone agent's hysteresis (members: their type's) */
    sm->has_margin = 1;
    return parse_seconds(p, lx, A_MARGIN, "switch_margin", &sm->switch_margin);
  }
  if (k == K_UNTIL) {
    TRY(parse_seconds(p, lx, A_UNTIL, "until", &sm->until));
    if (sm->until > 1e6)
      return error_at(p, GOAP_OUT_OF_RANGE, &p->number_pos, "'until' is limited to 1000000 s");
    return GOAP_OK;
  }
  if (k == K_STEP) {
    TRY(parse_seconds(p, lx, A_STEP, "step", &sm->step));
    if (!(sm->step >= 0.001))
      return error_at(p, GOAP_OUT_OF_RANGE, &p->number_pos, "'step' must be at least 0.001 s");
    return GOAP_OK;
  }
  if (k == K_GIVEN) {
    TRY(next(lx));
    TRY(parse_list(p, lx, GOAP__ASSIGN, "given"));
    if (sm->given_count + p->items_len > GOAP__MAX_LIST)
      return goap__error(&p->ec, GOAP_TOO_LARGE, lx->tok.off, "too many assignments in 'given'");
    GROW(p, f->given, f->given_cap, f->given_len + p->items_len);
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
    TRY(next(lx));
    if (lx->tok.kind != GOAP__T_NUMBER) return goap__expected(lx, "a time in seconds after 'at'");
    TRY(goap__tok_decimal(lx, &ev.time));
    if (ev.time < 0 || ev.time > 1e6)
      return goap__error(&p->ec, GOAP_OUT_OF_RANGE, lx->tok.off,
                         "the time after 'at' must be between 0 and 1000000 s");
    TRY(next(lx));
    ev.order = -1;
    if (goap__tok_is(lx, "order")) {
      static const char *const behaviors[] = {"none", "get_to_cover", "advance_cover",
                                              "orderly_advance", "search"};
      TRY(next(lx));
      if (lx->tok.kind != GOAP__T_IDENT)
        return goap__expected(lx, "a squad behaviour after 'order' (get_to_cover, "
                                  "advance_cover, orderly_advance, search or none)");
      ev.order = in_list(behaviors, 5, p->ec.src + lx->tok.off, lx->tok.len);
      if (ev.order < 0) {
        char dym[96];
        goap__did_you_mean(dym, sizeof dym, p->ec.src + lx->tok.off, lx->tok.len, cand_string,
                           behaviors, 5);
        return goap__error(&p->ec, GOAP_NOT_FOUND, lx->tok.off,
                           "unknown squad behaviour '%.*s'%s", (int)lx->tok.len,
                           p->ec.src + lx->tok.off, dym);
      }
      TRY(next(lx));
      TRY(expect_eol(lx, "the behaviour"));
      p->items_len = 0;
    } else {
      TRY(parse_list(p, lx, GOAP__ASSIGN, "at"));
    }
    if (sm->event_count >= GOAP__MAX_LIST)
      return goap__error(&p->ec, GOAP_TOO_LARGE, 0, "too many 'at' lines (limit %d)",
                         GOAP__MAX_LIST);
    TRY(push_effs(p, &ev.eff));
    ev.eff_count = (uint32_t)p->items_len;
    ev.line = p->ec.line;
    GROW(p, f->sim_events, f->sim_events_cap, f->sim_events_len + 1);
    f->sim_events[f->sim_events_len++] = ev;
    sm->event_count++;
    return GOAP_OK;
  }
  if (k == K_FAIL) {
    goap__sim_fail fl;
    plan_ref r;
    memset(&fl, 0, sizeof fl);
    TRY(next(lx));
    if (lx->tok.kind != GOAP__T_IDENT) return goap__expected(lx, "an action name after 'fail'");
    r.pos = tok_pos(p, lx);
    r.len = lx->tok.len;
    TRY(take_name(p, lx, "an action name", &r.name));
    TRY(next(lx));
    if (goap__tok_is(lx, "when")) {
      TRY(next(lx));
      TRY(parse_list(p, lx, GOAP__COND, "when"));
      TRY(push_conds(p, &fl.cond));
      fl.cond_count = (uint32_t)p->items_len;
    } else if (lx->tok.kind != GOAP__T_EOL) {
      return goap__expected(lx, "'when' or end of line");
    }
    if (sm->fail_count >= GOAP__MAX_LIST)
      return goap__error(&p->ec, GOAP_TOO_LARGE, 0, "too many 'fail' lines (limit %d)",
                         GOAP__MAX_LIST);
    fl.action = -1;
    GROW(p, f->sim_fails, f->sim_fails_cap, f->sim_fails_len + 1);
    GROW(p, p->fail_refs, p->fail_refs_cap, f->sim_fails_len + 1);
    p->fail_refs[f->sim_fails_len] = r;
    f->sim_fails[f->sim_fails_len++] = fl;
    p->fail_refs_len = f->sim_fails_len;
    sm->fail_count++;
    return GOAP_OK;
  }
  if (k == K_SENSE) {
    TRY(next(lx));
    return parse_var_list(p, lx, "sense", &sm->sense, &sm->sense_count);
  }
  if (k == K_MEMBER) {
    goap__sim_member m;
    memset(&m, 0, sizeof m);
    TRY(next(lx));
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
    TRY(next(lx));
    if (lx->tok.kind != GOAP__T_IDENT)
      return goap__expected(lx, "an agent type after the member name");
    GROW(p, f->sim_members, f->sim_members_cap, f->sim_members_len + 1);
    TRY(add_ref(p, lx, GOAP__NS_AGENT, R_MEMBER_TYPE, f->sim_members_len));
    TRY(next(lx));
    if (goap__tok_is(lx, "with")) {
      TRY(next(lx));
      TRY(parse_list(p, lx, GOAP__ASSIGN, "with"));
      TRY(push_effs(p, &m.with));
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
  TRY(next(lx));
  if (goap__tok_is(lx, "replans")) {
    int32_t n;
    TRY(once(p, lx, A_EXPECT_REPLANS, "expect replans"));
    TRY(next(lx));
    if (lx->tok.kind != GOAP__T_NUMBER) return goap__expected(lx, "a number after 'expect replans'");
    TRY(goap__tok_int(lx, &n));
    if (n < 0) return goap__error(&p->ec, GOAP_OUT_OF_RANGE, lx->tok.off, "replans cannot be negative");
    sm->expect_replans = n;
    sm->replans_line = p->ec.line;
    sm->replans_col = (int)lx->tok.off + 1;
    TRY(next(lx));
    return expect_eol(lx, "the number");
  }
  if (goap__tok_is(lx, "final")) {
    uint32_t start;
    TRY(once(p, lx, A_EXPECT_PLAN, "expect final"));
    TRY(next(lx));
    TRY(parse_list(p, lx, GOAP__COND, "expect final"));
    TRY(push_conds(p, &start));
    sm->final = start;
    sm->final_count = (uint32_t)p->items_len;
    sm->final_line = p->ec.line;
    GROW(p, f->rt_ids, f->rt_ids_cap, f->rt_ids_len + p->items_len);
    sm->final_cols = (uint32_t)f->rt_ids_len;
    for (size_t j = 0; j < p->items_len; ++j) f->rt_ids[f->rt_ids_len++] = p->items[j].col;
    return GOAP_OK;
  }
  return goap__expected(lx, "'replans' or 'final' after 'expect'");
}

static goap_status parse_attr(parser *p, goap__lexer *lx, int k) {
  goap_file *f = p->f;
  if (p->block == B_SIM) return sim_attr(p, lx, k);
  if (p->block == B_ROLE) return role_attr(p, lx);
  if (p->block == B_AGENT) return agent_attr(p, lx, k);
  if (p->block == B_ACTION) {
    if (k == K_COST) { /* a decimal, or a distance cost (position.c) */
      goap__symtab st = symtab(p);
      TRY(once(p, lx, A_COST, "cost"));
      TRY(next(lx));
      p->number_pos = tok_pos(p, lx);
      return goap__pos_cost(lx, &st, p->line_off, &p->number, &p->dist, &p->has_dist);
    }
    if (k != K_PRE && k != K_EFF) return action_rt_attr(p, lx, k);
    TRY(next(lx));
    if (k == K_PRE) {
      TRY(parse_list(p, lx, GOAP__COND, "pre"));
      TRY(no_world_vars(p, "pre"));
      return append_items(p, lx, &p->pre, &p->pre_len, &p->pre_cap, "preconditions");
    }
    TRY(parse_list(p, lx, GOAP__EFFECT, "eff"));
    TRY(no_world_vars(p, "eff"));
    return append_items(p, lx, &p->eff, &p->eff_len, &p->eff_cap, "effects");
  }
  if (p->block == B_GOAL) {
    if (k == K_PRIORITY) return parse_number_attr(p, lx, A_PRIORITY, "priority", 0);
    if (k != K_WANT) return goal_rt_attr(p, lx, k);
    TRY(next(lx));
    TRY(parse_list(p, lx, GOAP__COND, "want"));
    TRY(no_world_vars(p, "want"));
    return append_items(p, lx, &p->pre, &p->pre_len, &p->pre_cap, "conditions");
  }
  /* scenario */
  {
    scen_ir *ir = &p->scen[f->scenario_count - 1];
    if (k == K_PURSUE) {
      if (p->attr_line[A_WANT])
        return goap__error(&p->ec, GOAP_CONFLICT, lx->tok.off,
                           "scenario '%s' has both 'pursue' and 'want' (want at line %d)",
                           p->bname, p->attr_line[A_WANT]);
      TRY(once(p, lx, A_PURSUE, "pursue"));
      TRY(next(lx));
      ir->pursue_pos = tok_pos(p, lx);
      TRY(take_name(p, lx, "a goal name after 'pursue'", &ir->pursue));
      ir->pursue_len = lx->tok.len;
      TRY(next(lx));
      return expect_eol(lx, "the goal name");
    }
    if (k == K_WANT) {
      size_t i;
      if (p->attr_line[A_PURSUE])
        return goap__error(&p->ec, GOAP_CONFLICT, lx->tok.off,
                           "scenario '%s' has both 'want' and 'pursue' (pursue at line %d)",
                           p->bname, p->attr_line[A_PURSUE]);
      if (!p->attr_line[A_WANT]) p->attr_line[A_WANT] = p->ec.line;
      TRY(next(lx));
      TRY(parse_list(p, lx, GOAP__COND, "want"));
      if (ir->want_count + p->items_len > GOAP__MAX_LIST)
        return goap__error(&p->ec, GOAP_TOO_LARGE, lx->tok.off,
                           "too many conditions in scenario '%s' (limit %d)", p->bname,
                           GOAP__MAX_LIST);
      GROW(p, f->conds, f->conds_cap, f->conds_len + p->items_len);
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
      TRY(scen_given(p, lx));
      ir = &p->scen[f->scenario_count - 1];
      ir->given_count = f->given_len - ir->given_start;
      return GOAP_OK;
    }
    return scen_expect(p, lx);
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


static goap_status parse_world(parser *p, goap__lexer *lx) {
  goap_status st;
  goap_file *f = p->f;
  int id = f->var_count;
  p->world_decl = 1;
  st = parse_var(p, lx);
  p->world_decl = 0;
  if (st != GOAP_OK) return st;
  {
    size_t old = f->world_var_cap;
    GROW(p, f->world_var, f->world_var_cap, (size_t)id + 1);
    if (f->world_var_cap > old) memset(f->world_var + old, 0, f->world_var_cap - old);
  }
  f->world_var[id] = 1;
  return GOAP_OK;
}

static goap_status do_line(parser *p) {
  goap__lexer lx;
  const char *kw;
  size_t kwlen;
  int k;
  TRY(goap__check_line_bytes(&p->ec));
  goap__lex_init(&lx, &p->ec);
  TRY(next(&lx));
  if (lx.tok.kind == GOAP__T_EOL) return GOAP_OK;
  if (lx.tok.kind != GOAP__T_IDENT) return goap__expected(&lx, "a keyword at the start of the line");
  kw = p->ec.src + lx.tok.off;
  kwlen = lx.tok.len;
  { /* HTN lines: task, method, when, do; a scenario's task (htn_parse.c) */
    goap__symtab hst = symtab(p);
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
      TRY(end_block(p));
      hc.in_scenario = 0;
    }
    if (goap__htn_line(p->htn, &hc, &st)) return st;
  }
  k = find_keyword(kw, kwlen);
  if (k >= 0 && keywords[k].top && !(k == K_ROLE && p->block == B_AGENT)) {
    /* `role` inside an agent block is its attribute */
    p->var_ends = k == K_VAR ? 1 : k == K_WORLD ? 2 : 0;
    TRY(end_block(p));
    p->var_ends = 0;
    switch (k) {
      case K_DOMAIN: return parse_domain(p, &lx);
      case K_VAR: return parse_var(p, &lx);
      case K_WORLD: return parse_world(p, &lx);
      case K_ACTION: return begin_block(p, &lx, B_ACTION);
      case K_GOAL: return begin_block(p, &lx, B_GOAL);
      case K_SCENARIO: return begin_block(p, &lx, B_SCENARIO);
      case K_SIMULATION: return begin_block(p, &lx, B_SIM);
      case K_RESOURCE: return parse_resource(p, &lx);
      case K_ROLE: return begin_named(p, &lx, B_ROLE);
      case K_POSITION: {
        goap__symtab st = symtab(p);
        return goap__pos_line(p->f, &p->a, &lx, &st);
      }
      default: return begin_named(p, &lx, B_AGENT);
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
    goap__did_you_mean(dym, sizeof dym, kw, kwlen, cand_string, cands, n);
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
    return error_at(p, st, &none, "%s", goap_builder_error(p->b));
  }
  { /* every place a distance cost reads has a position */
    int32_t value = -1;
    int bad = goap__pos_check(f, &value);
    if (bad >= 0) {
      const goap__fvar *v = &p->vars[f->dists[bad].var];
      return error_at(p, GOAP_NOT_FOUND, &f->dists[bad].pos,
                      "'%s' %s has no position (distance(%s) needs a 'position %s %s X Y' line "
                      "for every value of '%s')",
                      v->name, v->values[value], v->name, v->name, v->values[value], v->name);
    }
  }
  /* scenario references */
  GROW(p, f->plans, f->plans_cap, p->refs_len + 1);
  for (i = 0; i < (int)p->refs_len; ++i) {
    const plan_ref *r = &p->refs[i];
    int32_t a = goap__ftab_find(&p->names, GOAP__NS_ACTION, r->name, r->len);
    if (a < 0) {
      char dym[128];
      goap__did_you_mean(dym, sizeof dym, r->name, r->len, cand_action, p, f->action_count);
      return error_at(p, GOAP_NOT_FOUND, &r->pos, "unknown action '%s'%s", r->name, dym);
    }
    f->plans[i] = a;
  }
  f->plans_len = p->refs_len;
  for (i = 0; i < (int)p->fail_refs_len; ++i) {
    const plan_ref *r = &p->fail_refs[i];
    int32_t a = goap__ftab_find(&p->names, GOAP__NS_ACTION, r->name, r->len);
    if (a < 0) {
      char dym[128];
      goap__did_you_mean(dym, sizeof dym, r->name, r->len, cand_action, p, f->action_count);
      return error_at(p, GOAP_NOT_FOUND, &r->pos, "unknown action '%s'%s", r->name, dym);
    }
    f->sim_fails[i].action = a;
  }
  GROW(p, f->rt_names, f->rt_names_cap, f->rt_ids_len + 1);
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
      goap__cand_fn cf = r->ns == GOAP__NS_ACTION ? cand_action
                         : r->ns == GOAP__NS_GOAL ? cand_goal
                         : r->ns == GOAP__NS_ROLE ? cand_role
                         : r->ns == GOAP__NS_AGENT ? cand_agent
                                                   : cand_resource;
      int n = r->ns == GOAP__NS_ACTION ? f->action_count
              : r->ns == GOAP__NS_GOAL ? f->goal_count
              : r->ns == GOAP__NS_ROLE ? f->role_count
              : r->ns == GOAP__NS_AGENT ? f->agent_type_count
                                        : f->resource_count;
      goap__did_you_mean(dym, sizeof dym, r->name, r->len, cf, p, n);
      pos.line = r->pos_line;
      pos.col = r->pos_col;
      pos.line_off = r->pos_off;
      return error_at(p, GOAP_NOT_FOUND, &pos, "unknown %s '%s'%s%s", kind, r->name, dym,
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
        goap__did_you_mean(dym, sizeof dym, ir->pursue, ir->pursue_len, cand_goal, p,
                           f->goal_count);
        return error_at(p, GOAP_NOT_FOUND, &ir->pursue_pos, "unknown goal '%s'%s", ir->pursue,
                        dym);
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
  TRY(goap__htn_finalize(p->htn, f, &p->names, &p->ec, p->text, p->len));
  for (i = 0; i < f->agent_type_count; ++i) { /* `htn TASK` and `watch` of agent blocks */
    goap__agent_type *t = &f->agent_types[i];
    if (!t->htn_name) {
      if (t->watch_count)
        return error_at(p, GOAP_PARSE_ERROR, &t->watch_pos,
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
        return error_at(p, GOAP_INVALID_ARGUMENT, &t->htn_pos,
                        "'%s' is %s, not a task: 'htn' needs the root compound task (a 'task' "
                        "block)",
                        t->htn_name, act >= 0 ? "an action" : "a goal");
      if (!f->htn)
        return error_at(p, GOAP_NOT_FOUND, &t->htn_pos,
                        "unknown task '%s' (the file has no 'task' block)", t->htn_name);
      goap__did_you_mean(dym, sizeof dym, t->htn_name, len, cand_task, f,
                         goap_htn_domain_task_count(f->htn));
      return error_at(p, GOAP_NOT_FOUND, &t->htn_pos, "unknown task '%s'%s", t->htn_name, dym);
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
    TRY(do_line(p));
    off = p->next_off;
  }
  p->ec.src = NULL;
  p->ec.src_len = 0;
  TRY(end_block(p));
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
                            const goap_allocator *alloc, goap_file **out, goap_diag *err) {
  goap_diag local;
  parser p;
  goap_status st;
  const char *fname = name ? name : "<input>";
  if (!err) err = &local;
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
    p.b = goap_builder_create(&p.a);
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
                           goap_diag *err) {
  goap_diag local;
  goap_allocator a = goap__mem_resolve(alloc);
  FILE *fp;
  char *buf = NULL;
  size_t cap = 0, len = 0;
  goap_status st;
  if (!err) err = &local;
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

const goap_domain *goap_file_domain(const goap_file *f) { return f ? f->domain : NULL; }

int goap_file_scenario_count(const goap_file *f) { return f ? f->scenario_count : 0; }

const goap_scenario *goap_file_scenario(const goap_file *f, int index) {
  if (!f || index < 0 || index >= f->scenario_count) return NULL;
  return &f->scenarios[index];
}

int goap_file_find_scenario(const goap_file *f, const char *name) {
  int i;
  if (!f || !name) return -1;
  for (i = 0; i < f->scenario_count; ++i)
    if (strcmp(f->scenarios[i].name, name) == 0) return i;
  return -1;
}

static int pos_line(const goap__pos *arr, int count, int i, int *col) {
  if (!arr || i < 0 || i >= count) {
    if (col) *col = 0;
    return 0;
  }
  if (col) *col = arr[i].col;
  return arr[i].line;
}

int goap_file_var_line(const goap_file *f, int var, int *col) {
  return pos_line(f ? f->var_pos : NULL, f ? f->var_count : 0, var, col);
}
int goap_file_action_line(const goap_file *f, int action, int *col) {
  return pos_line(f ? f->action_pos : NULL, f ? f->action_count : 0, action, col);
}
int goap_file_goal_line(const goap_file *f, int goal, int *col) {
  return pos_line(f ? f->goal_pos : NULL, f ? f->goal_count : 0, goal, col);
}

const goap_htn_domain *goap_file_htn(const goap_file *f) { return f ? f->htn : NULL; }
int goap_file_task_line(const goap_file *f, int task, int *col) {
  return pos_line(f ? f->task_pos : NULL, f && f->htn ? goap_htn_domain_task_count(f->htn) : 0,
                  task, col);
}
