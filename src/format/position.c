/*
 * position.c -- positions of enum values and distance costs in `.goap` files:
 * `position VAR VALUE X Y [Z]` lines, `cost [BASE +] [FACTOR *] distance(VAR [, VALUE])`, the
 * positional cost callback the parser gives such actions, and goap_file_set_position /
 * goap_file_position.
 *
 * Invariants:
 *  - A variable's positions live in one block of value_count slots of 3 doubles (x, y, z) in
 *    f->pts, from slot f->pt_base[var] (-1: the variable has no `position` line); f->pt_line
 *    holds each slot's line (0: no position yet). Blocks are made when a variable's first
 *    `position` line is read and never move once the domain is built.
 *  - f->dists has one entry per action (var -1: no distance cost). The callback reads only the
 *    state, the file's positions and that entry (GOAP_STATE_COST_PURE), so agents that record
 *    or replay their inputs price the same plans.
 *  - After a successful parse every value of every variable a distance cost reads has a
 *    position (goap__pos_check), so the callback never reads a missing one.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "format_internal.h"

#define TRY(x)                            \
  do {                                    \
    goap_status try_s_ = (x);             \
    if (try_s_ != GOAP_OK) return try_s_; \
  } while (0)

/* The value of enum variable v named by the current token, or -1. */
static int32_t find_value(const goap__fvar *v, const goap__lexer *lx) {
  if (lx->tok.kind != GOAP__T_IDENT) return -1;
  for (int i = 0; i < v->value_count; ++i)
    if (strlen(v->values[i]) == lx->tok.len &&
        memcmp(v->values[i], lx->ec->src + lx->tok.off, lx->tok.len) == 0)
      return (int32_t)i;
  return -1;
}

static const char *cand_value(const void *ctx, int i) {
  return ((const goap__fvar *)ctx)->values[i];
}

/* The current token as a value of v (errors: not a name, unknown value with a suggestion). */
static goap_status take_value(goap__lexer *lx, const goap__fvar *v, const char *after,
                              int32_t *out) {
  char what[96];
  if (lx->tok.kind != GOAP__T_IDENT) {
    snprintf(what, sizeof what, "a value of '%s' %s", v->name, after);
    return goap__expected(lx, what);
  }
  *out = find_value(v, lx);
  if (*out >= 0) return GOAP_OK;
  char dym[128];
  goap__did_you_mean(dym, sizeof dym, lx->ec->src + lx->tok.off, lx->tok.len, cand_value, v,
                     v->value_count);
  return goap__error(lx->ec, GOAP_NOT_FOUND, lx->tok.off, "'%s' has no value '%.*s'%s", v->name,
                     (int)(lx->tok.len > 64 ? 64 : lx->tok.len), lx->ec->src + lx->tok.off,
                     dym);
}

/* The current token as an enum variable (a bool or an int is a type mismatch). */
static goap_status take_enum_var(goap__lexer *lx, const goap__symtab *st, const char *where,
                                 int32_t *out) {
  TRY(goap__resolve_var(lx, st, out));
  const goap__fvar *v = &st->vars[*out];
  if (v->type != GOAP_ENUM)
    return goap__error(lx->ec, GOAP_TYPE_MISMATCH, lx->tok.off,
                       "'%s' is %s: %s takes an enum variable (its values are places)",
                       v->name, v->type == GOAP_BOOL ? "a bool" : "an int", where);
  return GOAP_OK;
}

static goap_status coord(goap__lexer *lx, const char *which, double *out) {
  if (lx->tok.kind != GOAP__T_NUMBER) {
    char what[48];
    snprintf(what, sizeof what, "the %s coordinate", which);
    return goap__expected(lx, what);
  }
  TRY(goap__tok_decimal(lx, out));
  return goap__lex_next(lx);
}

goap_status goap__pos_line(goap_file *f, const goap_allocator *a, goap__lexer *lx,
                           const goap__symtab *st) {
  int32_t var, value;
  double xyz[3] = {0.0, 0.0, 0.0};
  TRY(goap__lex_next(lx));
  if (lx->tok.kind != GOAP__T_IDENT) return goap__expected(lx, "a variable name after 'position'");
  TRY(take_enum_var(lx, st, "'position'", &var));
  const goap__fvar *v = &st->vars[var];
  TRY(goap__lex_next(lx));
  size_t value_off = lx->tok.off;
  char after[80];
  snprintf(after, sizeof after, "after 'position %s'", v->name);
  TRY(take_value(lx, v, after, &value));
  TRY(goap__lex_next(lx));
  TRY(coord(lx, "x", &xyz[0]));
  TRY(coord(lx, "y", &xyz[1]));
  if (lx->tok.kind == GOAP__T_NUMBER) TRY(coord(lx, "z", &xyz[2]));
  if (lx->tok.kind != GOAP__T_EOL)
    return goap__expected(lx, "end of line after the coordinates (x y, or x y z)");
  if ((size_t)var >= f->pt_base_cap || f->pt_base[var] < 0) {
    size_t old = f->pt_base_cap;
    void *g = goap__mem_grow(a, f->pt_base, &f->pt_base_cap, (size_t)f->var_count, sizeof *f->pt_base);
    if (!g) return GOAP_OUT_OF_MEMORY;
    f->pt_base = (int32_t *)g;
    for (size_t i = old; i < f->pt_base_cap; ++i) f->pt_base[i] = -1;
    size_t base = f->pt_count, need = base + (size_t)v->value_count;
    g = goap__mem_grow(a, f->pts, &f->pts_cap, 3 * need, sizeof *f->pts);
    if (!g) return GOAP_OUT_OF_MEMORY;
    f->pts = (double *)g;
    g = goap__mem_grow(a, f->pt_line, &f->pt_line_cap, need, sizeof *f->pt_line);
    if (!g) return GOAP_OUT_OF_MEMORY;
    f->pt_line = (int *)g;
    for (size_t i = base; i < need; ++i) f->pt_line[i] = 0;
    f->pt_base[var] = (int32_t)base;
    f->pt_count = need;
  }
  size_t slot = (size_t)f->pt_base[var] + (size_t)value;
  if (f->pt_line[slot])
    return goap__error(lx->ec, GOAP_DUPLICATE, value_off,
                       "duplicate position of '%s' %s (first at line %d)", v->name,
                       v->values[value], f->pt_line[slot]);
  memcpy(f->pts + 3 * slot, xyz, sizeof xyz);
  f->pt_line[slot] = lx->ec->line;
  return GOAP_OK;
}

goap_status goap__pos_cost(goap__lexer *lx, const goap__symtab *st, size_t line_off,
                           double *base, goap__dist *d, int *has) {
  double num = 0.0;
  char t[64];
  size_t num_off = 0;
  *has = 0;
  d->var = -1;
  d->target = -1;
  d->factor = 1.0;
  *base = 0.0;
  if (lx->tok.kind == GOAP__T_NUMBER) {
    TRY(goap__tok_decimal(lx, &num));
    num_off = lx->tok.off;
    goap__tok_show(lx, t, sizeof t);
    TRY(goap__lex_next(lx));
    if (lx->tok.kind == GOAP__T_EOL || lx->tok.kind == GOAP__T_PLUS) {
      if (num < 0) /* the base cost */
        return goap__error(lx->ec, GOAP_OUT_OF_RANGE, num_off, "cost must not be negative, found %s",
                           t);
      *base = num;
      if (lx->tok.kind == GOAP__T_EOL) return GOAP_OK;
      TRY(goap__lex_next(lx));
      if (lx->tok.kind == GOAP__T_NUMBER) { /* BASE + FACTOR * distance */
        TRY(goap__tok_decimal(lx, &num));
        num_off = lx->tok.off;
        goap__tok_show(lx, t, sizeof t);
        TRY(goap__lex_next(lx));
        if (lx->tok.kind != GOAP__T_STAR)
          return goap__expected(lx, "'*' after the factor (cost BASE + FACTOR * distance(...))");
      } else if (!goap__tok_is(lx, "distance")) {
        return goap__expected(lx, "a factor or 'distance' after '+'");
      } else {
        num = 1.0;
      }
    } else if (lx->tok.kind != GOAP__T_STAR) {
      return goap__expected(lx, "end of line after the number");
    }
    if (lx->tok.kind == GOAP__T_STAR) { /* FACTOR * distance */
      if (num < 0)
        return goap__error(lx->ec, GOAP_OUT_OF_RANGE, num_off,
                           "a distance factor must not be negative, found %s", t);
      d->factor = num;
      TRY(goap__lex_next(lx));
    }
    if (!goap__tok_is(lx, "distance")) return goap__expected(lx, "'distance' after '*'");
  } else if (!goap__tok_is(lx, "distance")) {
    return goap__expected(lx, "a number after 'cost'");
  }
  /* distance ( VAR [, VALUE] ) */
  d->pos.line = lx->ec->line;
  d->pos.col = (int)lx->tok.off + 1;
  d->pos.line_off = line_off;
  TRY(goap__lex_next(lx));
  if (lx->tok.kind != GOAP__T_LPAREN) return goap__expected(lx, "'(' after 'distance'");
  TRY(goap__lex_next(lx));
  if (lx->tok.kind != GOAP__T_IDENT) return goap__expected(lx, "a variable name after 'distance('");
  TRY(take_enum_var(lx, st, "distance(...)", &d->var));
  TRY(goap__lex_next(lx));
  if (lx->tok.kind == GOAP__T_COMMA) {
    TRY(goap__lex_next(lx));
    TRY(take_value(lx, &st->vars[d->var], "after ','", &d->target));
    TRY(goap__lex_next(lx));
  }
  if (lx->tok.kind != GOAP__T_RPAREN)
    return goap__expected(lx, d->target < 0 ? "',' or ')' after the variable" : "')'");
  TRY(goap__lex_next(lx));
  if (lx->tok.kind != GOAP__T_EOL) return goap__expected(lx, "end of line after ')'");
  *has = 1;
  return GOAP_OK;
}

goap_status goap__pos_attach(goap_file *f, const goap_allocator *a, int action,
                             const goap__dist *d) {
  size_t old = f->dists_cap;
  void *g = goap__mem_grow(a, f->dists, &f->dists_cap, (size_t)action + 1, sizeof *f->dists);
  if (!g) return GOAP_OUT_OF_MEMORY;
  f->dists = (goap__dist *)g;
  for (size_t i = old; i < f->dists_cap; ++i) f->dists[i].var = -1;
  f->dists[action] = *d;
  return GOAP_OK;
}

int goap__pos_check(const goap_file *f, int32_t *value) {
  for (int i = 0; i < f->action_count && (size_t)i < f->dists_cap; ++i) {
    const goap__dist *d = &f->dists[i];
    if (d->var < 0) continue;
    int32_t base = (size_t)d->var < f->pt_base_cap ? f->pt_base[d->var] : -1;
    goap_var_info vi;
    if (!f->domain || goap_domain_var_info(f->domain, d->var, &vi) != GOAP_OK) continue;
    int32_t n = vi.value_count;
    for (int32_t k = 0; k < n; ++k) {
      if (base < 0 || !f->pt_line[(size_t)base + (size_t)k]) {
        *value = k;
        return i;
      }
    }
  }
  return -1;
}

double goap__pos_state_cost(void *host, int action, const goap_word *state, void *user) {
  const goap_file *f = (const goap_file *)user;
  const goap__dist *d = &f->dists[action];
  (void)host;
  size_t base = (size_t)f->pt_base[d->var];
  size_t from = base + (size_t)goap_state_get(f->domain, state, d->var);
  size_t to = base + (size_t)d->target;
  double dx = f->pts[3 * to] - f->pts[3 * from], dy = f->pts[3 * to + 1] - f->pts[3 * from + 1],
         dz = f->pts[3 * to + 2] - f->pts[3 * from + 2];
  return d->factor * sqrt(dx * dx + dy * dy + dz * dz);
}

void goap__pos_free(goap_file *f) {
  const goap_allocator *a = &f->alloc;
  goap__free(a, f->pt_base, f->pt_base_cap * sizeof *f->pt_base);
  goap__free(a, f->pts, f->pts_cap * sizeof *f->pts);
  goap__free(a, f->pt_line, f->pt_line_cap * sizeof *f->pt_line);
  goap__free(a, f->dists, f->dists_cap * sizeof *f->dists);
}

/* The slot of (var, value), or a status. */
static goap_status slot_of(const goap_file *f, int var, int32_t value, size_t *slot) {
  if (!f || !f->domain) return GOAP_INVALID_ARGUMENT;
  goap_var_info vi;
  if (goap_domain_var_info(f->domain, var, &vi) != GOAP_OK) return GOAP_INVALID_ARGUMENT;
  if ((size_t)var >= f->pt_base_cap || f->pt_base[var] < 0) return GOAP_NOT_FOUND;
  if (value < 0 || value >= vi.value_count) return GOAP_OUT_OF_RANGE;
  *slot = (size_t)f->pt_base[var] + (size_t)value;
  return GOAP_OK;
}

goap_status goap_file_set_position(goap_file *f, int var, int32_t value, double x, double y,
                                   double z) {
  size_t slot = 0;
  TRY(slot_of(f, var, value, &slot));
  if (!isfinite(x) || !isfinite(y) || !isfinite(z)) return GOAP_OUT_OF_RANGE;
  f->pts[3 * slot] = x;
  f->pts[3 * slot + 1] = y;
  f->pts[3 * slot + 2] = z;
  if (!f->pt_line[slot]) f->pt_line[slot] = -1; /* set by the host */
  return GOAP_OK;
}

goap_status goap_file_position(const goap_file *f, int var, int32_t value, double *x, double *y,
                               double *z) {
  size_t slot = 0;
  TRY(slot_of(f, var, value, &slot));
  if (!f->pt_line[slot]) return GOAP_NOT_FOUND;
  if (x) *x = f->pts[3 * slot];
  if (y) *y = f->pts[3 * slot + 1];
  if (z) *z = f->pts[3 * slot + 2];
  return GOAP_OK;
}
