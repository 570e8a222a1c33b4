/*
 * parse_state.h -- the state shared by the files of the `.goap` parser (parser.c: lines and
 * finalisation; parse_common.c: shared helpers; parse_var.c, parse_action.c, parse_goal.c,
 * parse_scenario.c, parse_agent.c, parse_sim.c: one block kind each; htn_parse.c: tasks and
 * methods). Included only by those files.
 *
 * Invariants:
 *  - One parser per goap_file_parse call, on the caller's stack; nothing here is global.
 *  - p->block is the open block kind (B_*); its per-block state (bname, bpos, attr_line,
 *    number, pre/eff) is reset by the function that opens a block.
 *  - Internal functions shared between these files are prefixed goap__fp_.
 */
#ifndef GOAP_FORMAT_PARSE_STATE_H
#define GOAP_FORMAT_PARSE_STATE_H

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

/* Return the status of x unless it is GOAP_OK; grow an array or return GOAP_OUT_OF_MEMORY. */
#define FP_TRY(x)                           \
  do {                                      \
    goap_status try_s_ = (x);               \
    if (try_s_ != GOAP_OK) return try_s_;   \
  } while (0)

#define FP_GROW(p, arr, cap, need)                                                    \
  do {                                                                                \
    void *grow_ = goap__mem_grow(&(p)->a, (arr), &(cap), (need), sizeof *(arr));      \
    if (!grow_) return GOAP_OUT_OF_MEMORY;                                            \
    (arr) = grow_;                                                                    \
  } while (0)

/* "action", "goal", ... indexed by B_* (parse_common.c). */
extern const char *const goap__fp_block_names[];

/* Keyword ids: indices into parser.c's keyword table, passed to the attribute handlers. */
enum { K_PRIORITY = 0, K_PURSUE, K_WANT, K_VALID, K_COST, K_PRE, K_EFF, K_ON_FAIL, K_TIMEOUT,
       K_GIVEN, K_AT, K_FAIL, K_SENSE, K_UNTIL, K_STEP, K_EXPECT, K_MEMBER, K_ACTIONS, K_GOALS,
       K_DOMAIN, K_VAR, K_WORLD, K_ACTION, K_GOAL, K_SCENARIO, K_SIMULATION, K_RESOURCE, K_ROLE,
       K_AGENT, K_POSITION, K_HTN, K_WATCH, K_COOLDOWN, K_DURATION, K_RESERVE, K_ON_START,
       K_ON_END, K_SWITCH_MARGIN, K_COUNT };

/* ---- Shared helpers (parse_common.c) ------------------------------------------------------- */
goap_status goap__fp_error_at(parser *p, goap_status st, const goap__pos *pos, const char *fmt, ...)
    GOAP__PRINTF(4, 5);
goap__pos goap__fp_tok_pos(const parser *p, const goap__lexer *lx);
goap__pos goap__fp_item_pos(const goap__item *it);
goap_status goap__fp_builder_error(parser *p, goap_status st, const goap__pos *whole,
                                   const goap__item *pre, size_t npre, const goap__item *eff,
                                   size_t neff, const goap__pos *extra);
goap_status goap__fp_expect_eol(goap__lexer *lx, const char *after);
const char *goap__fp_cand_action(const void *ctx, int i);
const char *goap__fp_cand_goal(const void *ctx, int i);
const char *goap__fp_cand_resource(const void *ctx, int i);
const char *goap__fp_cand_role(const void *ctx, int i);
const char *goap__fp_cand_task(const void *ctx, int i);
const char *goap__fp_cand_agent(const void *ctx, int i);
const char *goap__fp_cand_string(const void *ctx, int i);
int goap__fp_in_list(const char *const *list, int n, const char *s, size_t len);
goap__symtab goap__fp_symtab(const parser *p);
goap_status goap__fp_parse_list(parser *p, goap__lexer *lx, goap__mode mode, const char *kw);
goap_status goap__fp_append_items(parser *p, goap__lexer *lx, goap__item **vec, size_t *len,
                                  size_t *cap, const char *what);
goap_status goap__fp_once(parser *p, goap__lexer *lx, int attr, const char *kw);
goap_status goap__fp_take_name(parser *p, goap__lexer *lx, const char *what, const char **out);
goap_status goap__fp_end_block(parser *p);
goap_status goap__fp_begin_block(parser *p, goap__lexer *lx, int kind);
goap_status goap__fp_parse_number_attr(parser *p, goap__lexer *lx, int attr, const char *kw,
                                       int nonneg);
goap_status goap__fp_push_effs(parser *p, uint32_t *start);
goap_status goap__fp_push_conds(parser *p, uint32_t *start);
goap_status goap__fp_no_world_vars(parser *p, const char *kw);
goap_status goap__fp_parse_var_list(parser *p, goap__lexer *lx, const char *kw, uint32_t *start,
                                    uint32_t *count);
goap_status goap__fp_parse_seconds(parser *p, goap__lexer *lx, int attr, const char *kw,
                                   double *out);
goap_status goap__fp_add_ref(parser *p, goap__lexer *lx, int32_t ns, int target, size_t index);
goap_status goap__fp_parse_name_list(parser *p, goap__lexer *lx, const char *kw, int32_t ns,
                                     uint32_t *start, uint32_t *count);
goap_status goap__fp_rt_effect_list(parser *p, goap__lexer *lx, const char *kw, uint32_t *start,
                                    uint32_t *count);

/* ---- domain / var / world (parse_var.c) ---------------------------------------------------- */
goap_status goap__fp_parse_domain(parser *p, goap__lexer *lx);
goap_status goap__fp_parse_var(parser *p, goap__lexer *lx);
goap_status goap__fp_parse_world(parser *p, goap__lexer *lx);

/* ---- action blocks (parse_action.c) -------------------------------------------------------- */
goap_status goap__fp_finish_action(parser *p);
goap_status goap__fp_action_attr(parser *p, goap__lexer *lx, int k);

/* ---- goal blocks (parse_goal.c) ------------------------------------------------------------ */
goap_status goap__fp_finish_goal(parser *p);
goap_status goap__fp_goal_attr(parser *p, goap__lexer *lx, int k);

/* ---- scenario blocks (parse_scenario.c) ---------------------------------------------------- */
goap_status goap__fp_finish_scenario(parser *p);
goap_status goap__fp_scenario_attr(parser *p, goap__lexer *lx, int k);

/* ---- resource / role / agent (parse_agent.c) ----------------------------------------------- */
goap_status goap__fp_parse_resource(parser *p, goap__lexer *lx);
goap_status goap__fp_begin_named(parser *p, goap__lexer *lx, int kind);
goap_status goap__fp_role_attr(parser *p, goap__lexer *lx);
goap_status goap__fp_agent_attr(parser *p, goap__lexer *lx, int k);

/* ---- simulation blocks (parse_sim.c) ------------------------------------------------------- */
goap_status goap__fp_sim_attr(parser *p, goap__lexer *lx, int k);

#endif /* GOAP_FORMAT_PARSE_STATE_H */
