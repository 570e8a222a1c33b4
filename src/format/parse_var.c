/*
 * parse_var.c -- `domain`, `var` and `world` lines of the `.goap` parser.
 *
 * Invariants:
 *  - A variable's id is its definition order, equal to the builder's id (checked).
 *  - Variables must be declared before use; a `world` variable is a `var` marked in
 *    f->world_var.
 */
#include <stdio.h>
#include <string.h>

#include "parse_state.h"

/* ------------------------------------------------------------------------------------------
 * Top-level lines
 * ---------------------------------------------------------------------------------------- */
goap_status goap__fp_parse_domain(parser *p, goap__lexer *lx) {
  goap__pos pos;
  goap_status st;
  const char *name = NULL;
  if (p->domain_line)
    return goap__error(&p->ec, GOAP_DUPLICATE, lx->tok.off,
                       "'domain' given twice (first at line %d)", p->domain_line);
  FP_TRY(goap__lex_next(lx));
  pos = goap__fp_tok_pos(p, lx);
  FP_TRY(goap__fp_take_name(p, lx, "a name after 'domain'", &name));
  FP_TRY(goap__lex_next(lx));
  FP_TRY(goap__fp_expect_eol(lx, "the domain name"));
  p->domain_line = p->ec.line;
  st = goap_builder_set_name(p->b, name);
  if (st != GOAP_OK) return goap__fp_builder_error(p, st, &pos, NULL, 0, NULL, 0, NULL);
  return GOAP_OK;
}

static const char *const type_names[] = {"bool", "enum", "int"};

goap_status goap__fp_parse_var(parser *p, goap__lexer *lx) {
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
  FP_TRY(goap__lex_next(lx));
  if (lx->tok.kind != GOAP__T_IDENT) return goap__expected(lx, "a variable name after 'var'");
  pos = goap__fp_tok_pos(p, lx);
  prev = goap__ftab_find(&p->names, GOAP__NS_VAR, p->ec.src + lx->tok.off, lx->tok.len);
  if (prev >= 0)
    return goap__error(&p->ec, GOAP_DUPLICATE, lx->tok.off,
                       "duplicate variable '%.*s' (first declared at line %d)",
                       (int)lx->tok.len, p->ec.src + lx->tok.off, f->var_pos[prev].line);
  if (id >= GOAP__MAX_VARS)
    return goap__error(&p->ec, GOAP_TOO_LARGE, lx->tok.off, "too many variables (limit %d)",
                       GOAP__MAX_VARS);
  FP_TRY(goap__fp_take_name(p, lx, "a variable name", &name));
  FP_TRY(goap__lex_next(lx));
  if (lx->tok.kind != GOAP__T_COLON) return goap__expected(lx, "':' after the variable name");
  FP_TRY(goap__lex_next(lx));
  fv.name = name;
  p->values_len = 0; /* value_offs entries valid for this line (goap__fp_builder_error) */
  if (goap__tok_is(lx, "bool")) {
    fv.type = GOAP_BOOL;
    fv.lo = 0;
    fv.hi = 1;
    fv.value_count = 2;
    FP_TRY(goap__lex_next(lx));
  } else if (goap__tok_is(lx, "int")) {
    fv.type = GOAP_INT;
    FP_TRY(goap__lex_next(lx));
    range_pos = goap__fp_tok_pos(p, lx);
    if (lx->tok.kind != GOAP__T_NUMBER) return goap__expected(lx, "a lower bound after 'int'");
    FP_TRY(goap__tok_int(lx, &fv.lo));
    FP_TRY(goap__lex_next(lx));
    if (lx->tok.kind != GOAP__T_DOTDOT) return goap__expected(lx, "'..' after the lower bound");
    FP_TRY(goap__lex_next(lx));
    if (lx->tok.kind != GOAP__T_NUMBER) return goap__expected(lx, "an upper bound after '..'");
    FP_TRY(goap__tok_int(lx, &fv.hi));
    if (fv.lo > fv.hi)
      return goap__fp_error_at(
          p, GOAP_OUT_OF_RANGE, &range_pos,
          "empty range %ld..%ld: the lower bound is greater than the upper bound", (long)fv.lo,
          (long)fv.hi);
    FP_TRY(goap__lex_next(lx));
  } else if (goap__tok_is(lx, "enum")) {
    size_t n = 0;
    fv.type = GOAP_ENUM;
    FP_TRY(goap__lex_next(lx));
    if (lx->tok.kind != GOAP__T_LBRACE) return goap__expected(lx, "'{' after 'enum'");
    FP_TRY(goap__lex_next(lx));
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
      FP_TRY(goap__fp_take_name(p, lx, "an enum value name", &v));
      FP_TRY(goap__ftab_insert(&p->a, &p->names, GOAP__NS_VALUE + id, v, lx->tok.len,
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
      FP_TRY(goap__lex_next(lx));
      if (lx->tok.kind == GOAP__T_COMMA) {
        FP_TRY(goap__lex_next(lx));
        continue;
      }
      if (lx->tok.kind == GOAP__T_RBRACE) break;
      return goap__expected(lx, "',' or '}' in the enum");
    }
    FP_TRY(goap__lex_next(lx));
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
    goap__did_you_mean(dym, sizeof dym, p->ec.src + lx->tok.off, lx->tok.len, goap__fp_cand_string,
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
    FP_TRY(goap__lex_next(lx));
    default_pos = goap__fp_tok_pos(p, lx);
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
        goap__did_you_mean(dym, sizeof dym, p->ec.src + lx->tok.off, lx->tok.len,
                           goap__fp_cand_string, fv.values, fv.value_count);
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
      FP_TRY(goap__tok_int(lx, &desc.default_value));
      if (desc.default_value < fv.lo || desc.default_value > fv.hi)
        return goap__error(&p->ec, GOAP_OUT_OF_RANGE, lx->tok.off,
                           "default %ld is outside the range %ld..%ld of '%s'",
                           (long)desc.default_value, (long)fv.lo, (long)fv.hi, name);
    }
    FP_TRY(goap__lex_next(lx));
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
    FP_TRY(goap__lex_next(lx));
    if (lx->tok.kind != GOAP__T_EOL && !(desc.flags & GOAP_VAR_SENSED) &&
        goap__tok_is(lx, "sensed"))
      continue;
    if (lx->tok.kind != GOAP__T_EOL && !(desc.flags & GOAP_VAR_SHARED) &&
        goap__tok_is(lx, "shared"))
      continue;
    FP_TRY(goap__fp_expect_eol(lx, word));
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
    return goap__fp_builder_error(p, st, &pos, NULL, 0, NULL, 0,
                                  goap_builder_error_item(p->b, &unused_index) == GOAP_ITEM_DEFAULT
                                      ? &default_pos
                                      : &range_pos);
  }
  if (out_id != id)
    return goap__fp_error_at(p, GOAP_INVALID_OPERATION, &pos, "builder assigned an unexpected id");
  FP_TRY(goap__ftab_insert(&p->a, &p->names, GOAP__NS_VAR, name, strlen(name), id));
  FP_GROW(p, p->vars, p->vars_cap, (size_t)id + 1);
  FP_GROW(p, f->var_pos, f->var_pos_cap, (size_t)id + 1);
  fv.line = pos.line;
  fv.col = pos.col;
  fv.line_off = pos.line_off;
  p->vars[id] = fv;
  f->var_pos[id] = pos;
  f->var_count = id + 1;
  return GOAP_OK;
}

goap_status goap__fp_parse_world(parser *p, goap__lexer *lx) {
  goap_status st;
  goap_file *f = p->f;
  int id = f->var_count;
  p->world_decl = 1;
  st = goap__fp_parse_var(p, lx);
  p->world_decl = 0;
  if (st != GOAP_OK) return st;
  {
    size_t old = f->world_var_cap;
    FP_GROW(p, f->world_var, f->world_var_cap, (size_t)id + 1);
    if (f->world_var_cap > old) memset(f->world_var + old, 0, f->world_var_cap - old);
  }
  f->world_var[id] = 1;
  return GOAP_OK;
}
