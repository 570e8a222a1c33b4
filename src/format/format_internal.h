/*
 * format_internal.h -- shared internals of the `.goap` format layer (src/format/).
 *
 * Invariants:
 *  - Every allocation goes through the caller's goap_allocator (goap__mem_*); a zero allocator
 *    is replaced by libc at the entry points, so internal code always has a callable fn.
 *  - Nothing here prints or keeps global mutable state.
 *  - Source text is never assumed NUL-terminated: tokens are (offset, length) spans of the
 *    current line.
 *  - Internal non-static symbols are prefixed goap__.
 */
#ifndef GOAP_FORMAT_INTERNAL_H
#define GOAP_FORMAT_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "base/base.h"
#include "goap/file.h"
#include "goap/htn.h"

#if defined(__GNUC__)
#define GOAP__PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define GOAP__PRINTF(f, a)
#endif

/* "Sane counts" enforced by the loader (GOAP_TOO_LARGE beyond them). */
#define GOAP__MAX_VARS 65536
#define GOAP__MAX_ACTIONS 65536
#define GOAP__MAX_GOALS 65536
#define GOAP__MAX_SCENARIOS 65536
#define GOAP__MAX_LIST 4096 /* items of one kind in one block (pre, eff, want, given) */

/* ------------------------------------------------------------------------------------------
 * Memory (base/base.h; the bump arena: arena.c)
 * ---------------------------------------------------------------------------------------- */
/* The format layer's spelling of base/base.h's helpers (the same functions). */
static inline goap_allocator goap__mem_resolve(const goap_allocator *a) { return goap__resolve(a); }
static inline void *goap__mem_alloc(const goap_allocator *a, size_t n) { return goap__alloc(a, n); }
static inline void goap__mem_free(const goap_allocator *a, void *p, size_t n) {
  goap__free(a, p, n);
}
/* Ensures room for `need` elements of `elem` bytes (goap__grow: new elements not zeroed). Returns
 * the (possibly moved) block, never NULL on success (a NULL block gets one), or NULL when out
 * of memory or on size overflow (the old block is then untouched and *cap unchanged). */
static inline void *goap__mem_grow(const goap_allocator *a, void *data, size_t *cap,
                                   size_t need, size_t elem) {
  if (!data && need == 0) need = 1;
  return goap__grow(a, &data, cap, need, elem) ? data : NULL;
}

/* A bump allocator of 8-byte aligned blocks; everything is freed at once. */
typedef struct goap__chunk goap__chunk;
typedef struct goap__arena {
  goap__chunk *head;
  size_t used, cap; /* of head */
} goap__arena;
void *goap__arena_alloc(const goap_allocator *a, goap__arena *ar, size_t n);
char *goap__arena_strndup(const goap_allocator *a, goap__arena *ar, const char *s, size_t n);
void goap__arena_free(const goap_allocator *a, goap__arena *ar);

/* Name table: (namespace, bytes) -> int, base/base.h's goap__names. Names point to storage
 * that outlives the table. */
typedef goap__names goap__ftab;
enum { GOAP__NS_VAR = 0, GOAP__NS_ACTION, GOAP__NS_GOAL, GOAP__NS_SCENARIO, GOAP__NS_SIM,
       GOAP__NS_RESOURCE, GOAP__NS_ROLE, GOAP__NS_AGENT, GOAP__NS_VALUE };
/* The value stored for (ns, name), or -1. */
static inline int32_t goap__ftab_find(const goap__ftab *t, int32_t ns, const char *s, size_t n) {
  return goap__names_find(t, ns, s, n);
}
/* Inserts (the name must not be present). GOAP_OK, GOAP_TOO_LARGE or GOAP_OUT_OF_MEMORY. */
static inline goap_status goap__ftab_insert(const goap_allocator *a, goap__ftab *t, int32_t ns,
                                            const char *s, size_t n, int32_t value) {
  if (n > UINT32_MAX) return GOAP_TOO_LARGE;
  return goap__names_put(a, t, ns, s, n, value) ? GOAP_OK : GOAP_OUT_OF_MEMORY;
}
static inline void goap__ftab_free(const goap_allocator *a, goap__ftab *t) {
  goap__names_free(a, t);
}

/* ------------------------------------------------------------------------------------------
 * Diagnostics (diag.c)
 * ---------------------------------------------------------------------------------------- */
/* Where errors go: the diagnostic to fill and the context of the current line. */
typedef struct goap__ectx {
  goap_error *diag;   /* never NULL */
  const char *file;  /* NUL-terminated */
  int line;          /* current line number (1-based) */
  const char *src;   /* current line text (not NUL-terminated) */
  size_t src_len;
} goap__ectx;

/* Fills a diagnostic completely. src may be NULL. */
void goap__diag_set(goap_error *d, goap_severity sev, goap_status st, const char *file,
                    int line, int col, const char *src, size_t src_len, const char *fmt,
                    ...) GOAP__PRINTF(9, 10);
/* Copies s into dst (cap bytes), truncating on a UTF-8 boundary; always NUL-terminated. */
void goap__copy_truncated(char *dst, size_t cap, const char *s);
void goap__diag_vset(goap_error *d, goap_severity sev, goap_status st, const char *file,
                     int line, int col, const char *src, size_t src_len, const char *fmt,
                     va_list ap);
/* An error on the current line of ec at byte offset off (col = off + 1). Returns st. */
goap_status goap__error(goap__ectx *ec, goap_status st, size_t off, const char *fmt, ...)
    GOAP__PRINTF(4, 5);

/* Nearest candidate by edit distance (optimal string alignment), or -1 when none is close
 * enough. get(ctx, i) returns the i-th candidate (NUL-terminated) or NULL to skip it. */
typedef const char *(*goap__cand_fn)(const void *ctx, int i);
int goap__suggest(const char *s, size_t n, goap__cand_fn get, const void *ctx, int count);
/* Writes "; did you mean 'x'?" (or "") into buf. */
void goap__did_you_mean(char *buf, size_t cap, const char *s, size_t n, goap__cand_fn get,
                        const void *ctx, int count);

/* Checks a line's bytes: no NUL, no control characters other than tab, valid UTF-8.
 * Returns GOAP_OK or an error through ec. */
goap_status goap__check_line_bytes(goap__ectx *ec);

/* ------------------------------------------------------------------------------------------
 * Lexer (lexer.c): one line at a time.
 * ---------------------------------------------------------------------------------------- */
typedef enum goap__tk {
  GOAP__T_EOL = 0, /* end of line or start of a comment */
  GOAP__T_IDENT,
  GOAP__T_NUMBER, /* [+-]?[0-9]+(\.[0-9]+)? */
  GOAP__T_COLON,
  GOAP__T_COMMA,
  GOAP__T_LBRACE,
  GOAP__T_RBRACE,
  GOAP__T_DOTDOT,
  GOAP__T_ASSIGN, /* = */
  GOAP__T_EQ,     /* == */
  GOAP__T_NE,     /* != */
  GOAP__T_NOT,    /* ! */
  GOAP__T_LT,
  GOAP__T_LE,
  GOAP__T_GT,
  GOAP__T_GE,
  GOAP__T_ADD, /* += */
  GOAP__T_SUB, /* -= */
  GOAP__T_STAR, /* * (role costs) */
  GOAP__T_PLUS, /* + alone (distance costs) */
  GOAP__T_LPAREN,
  GOAP__T_RPAREN
} goap__tk;

typedef struct goap__tok {
  goap__tk kind;
  size_t off, len; /* in the line */
} goap__tok;

typedef struct goap__lexer {
  goap__ectx *ec; /* ec->src / ec->src_len is the line */
  size_t pos;
  goap__tok tok; /* current token */
} goap__lexer;

void goap__lex_init(goap__lexer *lx, goap__ectx *ec);
/* Reads the next token into lx->tok. */
goap_status goap__lex_next(goap__lexer *lx);
/* 1 if the current token is the identifier kw. */
int goap__tok_is(const goap__lexer *lx, const char *kw);
/* Quoted text of the current token for messages: "'abc'" or "end of line". */
void goap__tok_show(const goap__lexer *lx, char *buf, size_t cap);
/* The current NUMBER token as an int32 (errors: fraction, overflow). */
goap_status goap__tok_int(goap__lexer *lx, int32_t *out);
/* The current NUMBER token as a finite double. */
goap_status goap__tok_decimal(goap__lexer *lx, double *out);
/* Error "expected WHAT, found TOKEN" at the current token. */
goap_status goap__expected(goap__lexer *lx, const char *what);

/* ------------------------------------------------------------------------------------------
 * Conditions, effects and assignments (expr.c)
 * ---------------------------------------------------------------------------------------- */
/* What the expression parser knows about a variable. */
typedef struct goap__fvar {
  const char *name;
  goap_var_type type;
  int32_t lo, hi;          /* int range; bool 0..1; enum 0..count-1 */
  int value_count;         /* enum */
  const char **values;     /* enum value names */
  int line, col;           /* declaration */
  size_t line_off;         /* offset of the declaration line in the text */
} goap__fvar;

/* Names to resolve against: the file being parsed, or a built domain. */
typedef struct goap__symtab {
  const goap_domain *domain;  /* domain mode when not NULL */
  const goap__fvar *vars;     /* file mode */
  int var_count;
  const goap__ftab *names;
  /* File mode: the rest of the text, to say "declared later". */
  const char *text;
  size_t text_len, rest_off;  /* rest_off: offset of the line after the current one */
  int rest_line;              /* its line number */
} goap__symtab;

typedef enum goap__mode { GOAP__COND = 0, GOAP__EFFECT, GOAP__ASSIGN } goap__mode;

/* One parsed condition / effect / assignment. op is a goap_op (COND) or goap_effect_op. */
typedef struct goap__item {
  int32_t var;
  int op;
  int32_t value;
  int line, col;
  size_t line_off;
} goap__item;

/* Parses one item at the current token; leaves the lexer on the token after it. */
goap_status goap__parse_item(goap__lexer *lx, const goap__symtab *st, goap__mode mode,
                             goap__item *out);
/* Resolves the identifier at the current token as a variable (errors with did-you-mean). */
goap_status goap__resolve_var(goap__lexer *lx, const goap__symtab *st, int32_t *out);
/* Type name ("bool", "enum", "int"). */
const char *goap__type_name(goap_var_type t);

/* ------------------------------------------------------------------------------------------
 * The loaded file (parser.c) and its warnings (analysis.c)
 * ---------------------------------------------------------------------------------------- */
typedef struct goap__pos {
  int line, col;
  size_t line_off;
} goap__pos;

typedef enum goap__wkind { GOAP__W_VAR = 0, GOAP__W_ACTION, GOAP__W_GOAL,
                           GOAP__W_METHOD, /* id: the method's index over all tasks */
                           GOAP__W_CYCLE   /* id: the same; a left-recursive method */
} goap__wkind;
typedef struct goap__warning {
  goap__wkind kind;
  int id;      /* var, action or goal id */
  int detail;  /* action: index of the unreachable precondition, or -2 - k: its effect k (a
                  strict += / -=) leaves the range from every reachable value; goal: of the
                  condition */
  int32_t lo, hi; /* action with detail <= -2: the reachable values of that effect's variable */
  int line, col;
  const char *src; /* the definition line (NUL-terminated; sanitised when formatted) */
} goap__warning;

/* Runtime attributes of actions and goals, and simulations (indices into the file's pools). */
typedef struct goap__action_rt {
  uint32_t on_fail, on_fail_count; /* rt_effs */
  uint32_t watch, watch_count;     /* rt_vars */
  double timeout, duration;
  uint32_t on_start, on_start_count, on_end, on_end_count; /* rt_effs */
  uint32_t reserve, reserve_count; /* rt_ids: resource indices */
} goap__action_rt;
typedef struct goap__goal_rt {
  uint32_t valid, valid_count;     /* rt_conds */
  uint32_t watch, watch_count;     /* rt_vars */
  double cooldown;                 /* `cooldown T` (0: none) */
} goap__goal_rt;
typedef struct goap__sim_event {
  double time;
  uint32_t eff, eff_count;         /* rt_effs */
  int line;
  int order;                       /* >= 0: a squad behaviour (goap_squad_behavior) instead */
} goap__sim_event;
typedef struct goap__sim_fail {
  int32_t action;
  uint32_t cond, cond_count;       /* rt_conds; none: always fails */
} goap__sim_fail;
typedef struct goap__resource {
  const char *name;
  int capacity, line;
} goap__resource;
typedef struct goap__role {
  const char *name;
  int line;
  uint32_t scale, scale_count;     /* role_scales */
} goap__role;
typedef struct goap__role_scale {
  int32_t action;
  double factor;
} goap__role_scale;
typedef struct goap__agent_type {
  const char *name;
  int line;
  uint32_t actions, action_count;  /* rt_ids: action ids; count 0 and !has_actions: all */
  uint32_t goals, goal_count;      /* rt_ids: goal ids */
  int has_actions, has_goals;
  int32_t role;                    /* -1: none */
  /* `htn TASK`: an HTN agent (resolved after the last line); `watch VARS` (HTN only) */
  const char *htn_name;            /* NULL: a GOAP agent */
  goap__pos htn_pos, watch_pos;
  int32_t htn_root;                /* task id in the file's HTN domain, -1: none */
  uint32_t watch, watch_count;     /* rt_vars */
  int actions_line, goals_line;    /* lines of the first `actions` / `goals` (0: none) */
  int has_margin;                  /* `switch_margin M` given */
  double switch_margin;
} goap__agent_type;
typedef struct goap__sim_member {
  const char *name;
  int32_t type;                    /* agent type index */
  uint32_t with, with_count;       /* rt_effs */
} goap__sim_member;
typedef struct goap__sim {
  const char *name;
  int line;
  uint32_t given, given_count;     /* rt_effs */
  uint32_t event, event_count;     /* sim_events, sorted by time (stable) at the end */
  uint32_t fail, fail_count;       /* sim_fails */
  uint32_t sense, sense_count;     /* rt_vars */
  double until, step;
  int expect_replans;              /* -1: none */
  int replans_line, replans_col;   /* the `expect replans` line and its number's column */
  uint32_t final, final_count;     /* rt_conds: `expect final` */
  int final_line;                  /* the `expect final` line */
  uint32_t final_cols;             /* rt_ids: each final condition's column */
  uint32_t member, member_count;   /* sim_members; none: one agent with everything */
  int has_margin;                  /* `switch_margin M` for the lone agent */
  double switch_margin;
} goap__sim;

struct goap_file {
  goap_allocator alloc;
  goap_domain *domain;
  char name[256];
  goap_scenario *scenarios;
  int scenario_count;
  size_t scenarios_cap;
  goap_cond *conds; /* scenario want lists */
  size_t conds_len, conds_cap;
  goap_effect *given;
  size_t given_len, given_cap;
  int32_t *plans;
  size_t plans_len, plans_cap;
  goap__pos *var_pos, *action_pos, *goal_pos;
  size_t var_pos_cap, action_pos_cap, goal_pos_cap;
  int var_count, action_count, goal_count;
  goap__warning *warnings; /* vars first, then actions, then goals; each in id order */
  size_t warnings_cap;
  int warning_count;
  goap__arena arena; /* scenario names, warning source lines */
  /* runtime attributes and simulations */
  goap__action_rt *action_rt;
  size_t action_rt_cap;
  goap__goal_rt *goal_rt;
  size_t goal_rt_cap;
  goap_effect *rt_effs;
  size_t rt_effs_len, rt_effs_cap;
  goap_cond *rt_conds;
  size_t rt_conds_len, rt_conds_cap;
  int32_t *rt_vars;
  size_t rt_vars_len, rt_vars_cap;
  uint8_t *world_var; /* per variable: declared with `world` */
  size_t world_var_cap;
  goap__sim *sims;
  int sim_count;
  size_t sims_cap;
  goap__sim_event *sim_events;
  size_t sim_events_len, sim_events_cap;
  goap__sim_fail *sim_fails;
  size_t sim_fails_len, sim_fails_cap;
  int32_t *rt_ids;                 /* resource, action and goal id lists */
  size_t rt_ids_len, rt_ids_cap;
  const char **rt_names;           /* parallel to rt_ids (filled at the end): resource names */
  size_t rt_names_cap;
  goap__resource *resources;
  int resource_count;
  size_t resources_cap;
  goap__role *roles;
  int role_count;
  size_t roles_cap;
  goap__role_scale *role_scales;
  size_t role_scales_len, role_scales_cap;
  goap__agent_type *agent_types;
  int agent_type_count;
  size_t agent_types_cap;
  goap__sim_member *sim_members;
  size_t sim_members_len, sim_members_cap;
  goap_htn_domain *htn; /* the file's tasks, or NULL */
  goap__pos *task_pos;  /* per task: its `task` line and name column */
  size_t task_pos_cap;
  goap__pos *method_pos; /* per method, tasks in order and their methods in order */
  size_t method_pos_cap;
  /* positions and distance costs (position.c) */
  int32_t *pt_base;     /* per variable: its first slot, -1 none */
  size_t pt_base_cap;
  double *pts;          /* 3 per slot: x, y, z */
  size_t pts_cap, pt_count;
  int *pt_line;         /* per slot: its `position` line (-1: set by the host; 0: none) */
  size_t pt_line_cap;
  struct goap__dist *dists; /* per action (var -1: no distance cost) */
  size_t dists_cap;
};

/* ------------------------------------------------------------------------------------------
 * Positions and distance costs (position.c)
 * ---------------------------------------------------------------------------------------- */
typedef struct goap__dist {
  int32_t var;      /* the enum variable whose values are places; -1: none */
  int32_t target;   /* the destination value; -1 while unresolved (the action's `eff VAR = X`) */
  double factor;    /* cost per unit of distance */
  goap__pos pos;    /* the `distance` token */
} goap__dist;
/* `position VAR VALUE X Y [Z]` (the lexer on `position`). */
goap_status goap__pos_line(goap_file *f, const goap_allocator *a, goap__lexer *lx,
                           const goap__symtab *st);
/* A `cost` line's value, the lexer on the token after `cost`: a decimal (*has 0, *base) or
 * [BASE +] [FACTOR *] distance(VAR [, VALUE]) (*has 1, *base, *d). Checks the end of line. */
goap_status goap__pos_cost(goap__lexer *lx, const goap__symtab *st, size_t line_off,
                           double *base, goap__dist *d, int *has);
/* Records action's distance cost (target resolved). */
goap_status goap__pos_attach(goap_file *f, const goap_allocator *a, int action,
                             const goap__dist *d);
/* After the build: the action whose distance cost reads a value without a position (that
 * value in *value), or -1. */
int goap__pos_check(const goap_file *f, int32_t *value);
/* The positional cost callback of distance costs (user: the file). */
double goap__pos_state_cost(void *host, int action, const goap_word *state, void *user);
void goap__pos_free(goap_file *f);

/* ------------------------------------------------------------------------------------------
 * HTN tasks and methods (htn_parse.c): `task` blocks, `method`/`when`/`do`, a scenario's
 * `task ROOT`. The parser hands them lines through goap__htn_line and builds the HTN domain
 * with goap__htn_finalize once the goap_domain exists.
 * ---------------------------------------------------------------------------------------- */
typedef struct goap__htn_ir goap__htn_ir;
/* Creates / frees the HTN part of a parse (NULL when out of memory). */
goap__htn_ir *goap__htn_ir_create(const goap_allocator *a);
void goap__htn_ir_free(const goap_allocator *a, goap__htn_ir *ir);
/* Context of one line handed to the HTN part. */
typedef struct goap__htn_line_ctx {
  const goap_allocator *alloc;
  goap__ectx *ec;
  goap__lexer *lx;          /* on the first word */
  const goap__symtab *st;   /* variables, for conditions and effects */
  goap__ftab *names;        /* the parser's names (tasks use namespace -1, methods -2 - task) */
  goap__arena *arena;       /* parse-time strings */
  size_t line_off;
  int in_scenario;          /* the current block is a scenario ... */
  int scenario;             /* ... of this index */
  int scenario_has_target;  /* ... that already has `pursue` or `want` */
} goap__htn_line_ctx;
/* Returns 1 and sets *st when the line is the HTN part's (`task`, `method`, `when`, `do`, or
 * `pursue` / `want` in a scenario that has a `task`), 0 when the parser should handle it.
 * When goap__htn_opens_block says the line opens a task block, the parser ends its own block
 * first. */
int goap__htn_line(goap__htn_ir *ir, goap__htn_line_ctx *c, goap_status *st);
/* 1 when the first word is `task` and would open a task block in this context. */
int goap__htn_opens_block(const goap__htn_ir *ir, const goap__htn_line_ctx *c);
/* Ends the current task block (called when any other block or top-level line starts). */
goap_status goap__htn_end_block(goap__htn_ir *ir, goap__ectx *ec, const char *text, size_t len);
/* 1 when scenario `index` has a `task` line. */
int goap__htn_scenario_has_task(const goap__htn_ir *ir, int index);
/* After the goap_domain is built: resolves names and builds f->htn (NULL when the file has
 * no tasks), and sets each scenario's task. */
goap_status goap__htn_finalize(goap__htn_ir *ir, goap_file *f, const goap__ftab *names,
                               goap__ectx *ec, const char *text, size_t len);

/* Runs the relaxed reachability analysis on a freshly built file; text is the source (for
 * the warnings' source lines). GOAP_OK or GOAP_OUT_OF_MEMORY. */
goap_status goap__analyse(goap_file *f, const char *text, size_t len);

#endif /* GOAP_FORMAT_INTERNAL_H */
