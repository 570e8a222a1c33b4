/*
 * expr.c -- conditions (`pre`, `want`), effects (`eff`) and assignments (`given`), shared by
 * the file parser and the public goap_parse_conds / goap_parse_assignments.
 *
 * Invariants:
 *  - Names resolve through a goap__symtab: the variables parsed so far (file mode, hashed) or
 *    a built domain (domain mode, through the public query API only).
 *  - Every value produced is checked against its variable's type and range, except the
 *    magnitude of `+=` / `-=`, which the core builder validates for actions.
 *  - The first error stops parsing; nothing is written to the caller's buffer past cap.
 */
#include <stdio.h>
#include <string.h>

#include "format_internal.h"

const char *goap__type_name(goap_var_type t) {
  switch (t) {
    case GOAP_BOOL: return "bool";
    case GOAP_ENUM: return "enum";
    case GOAP_INT: return "int";
  }
  return "?";
}

static const char *type_article(goap_var_type t) { return t == GOAP_BOOL ? "a" : "an"; }

/* ------------------------------------------------------------------------------------------
 * Symbol access
 * ---------------------------------------------------------------------------------------- */
static int sym_var_count(const goap__symtab *st) {
  return st->domain ? goap_domain_var_count(st->domain) : st->var_count;
}

static const char *sym_var_name(const void *ctx, int i) {
  const goap__symtab *st = (const goap__symtab *)ctx;
  if (st->domain) {
    goap_var_info vi;
    if (goap_domain_var_info(st->domain, i, &vi) != GOAP_OK) return NULL;
    return vi.name;
  }
  return st->vars[i].name;
}

/* Fills name, type, lo, hi, value_count. */
static void sym_var(const goap__symtab *st, int32_t id, goap__fvar *out) {
  if (st->domain) {
    goap_var_info vi;
    memset(out, 0, sizeof *out);
    if (goap_domain_var_info(st->domain, id, &vi) == GOAP_OK) {
      out->name = vi.name;
      out->type = vi.type;
      out->lo = vi.lo;
      out->hi = vi.hi;
      out->value_count = vi.value_count;
    }
    return;
  }
  *out = st->vars[id];
}

static int32_t sym_find_var(const goap__symtab *st, const char *s, size_t n) {
  if (st->domain) {
    char buf[GOAP_FILE_MAX_LINE + 1];
    if (n > GOAP_FILE_MAX_LINE) return -1;
    memcpy(buf, s, n);
    buf[n] = '\0';
    return goap_domain_find_var(st->domain, buf);
  }
  return goap__ftab_find(st->names, GOAP__NS_VAR, s, n);
}

static int32_t sym_find_value(const goap__symtab *st, int32_t var, const char *s, size_t n) {
  if (st->domain) {
    char buf[GOAP_FILE_MAX_LINE + 1];
    if (n > GOAP_FILE_MAX_LINE) return -1;
    memcpy(buf, s, n);
    buf[n] = '\0';
    return goap_domain_find_value(st->domain, var, buf);
  }
  return goap__ftab_find(st->names, GOAP__NS_VALUE + var, s, n);
}

typedef struct value_ctx {
  const goap__symtab *st;
  int32_t var;
} value_ctx;

static const char *sym_value_name(const void *ctx, int i) {
  const value_ctx *vc = (const value_ctx *)ctx;
  if (vc->st->domain) return goap_domain_value_name(vc->st->domain, vc->var, i);
  return vc->st->vars[vc->var].values[i];
}

/* Line number of a later `var NAME` line in the rest of the text, or 0. */
static int declared_later(const goap__symtab *st, const char *s, size_t n) {
  const char *t = st->text;
  size_t len = st->text_len, p = st->rest_off;
  int line = st->rest_line;
  if (!t) return 0;
  while (p < len) {
    const char *nl = (const char *)memchr(t + p, '\n', len - p);
    size_t e = nl ? (size_t)(nl - t) : len, q = p;
    while (q < e && (t[q] == ' ' || t[q] == '\t')) ++q;
    if (e - q > 3 && memcmp(t + q, "var", 3) == 0 && (t[q + 3] == ' ' || t[q + 3] == '\t')) {
      q += 3;
      while (q < e && (t[q] == ' ' || t[q] == '\t')) ++q;
      if (e - q >= n && memcmp(t + q, s, n) == 0) {
        char c = q + n < e ? t[q + n] : ' ';
        int ident = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
                    (c >= '0' && c <= '9');
        if (!ident) return line;
      }
    }
    p = e + 1;
    ++line;
  }
  return 0;
}

goap_status goap__resolve_var(goap__lexer *lx, const goap__symtab *st, int32_t *out) {
  const char *s = lx->ec->src + lx->tok.off;
  size_t n = lx->tok.len;
  int32_t id;
  int later;
  char dym[128];
  if (lx->tok.kind != GOAP__T_IDENT) return goap__expected(lx, "a variable name");
  id = sym_find_var(st, s, n);
  if (id >= 0) {
    *out = id;
    return GOAP_OK;
  }
  later = st->domain ? 0 : declared_later(st, s, n);
  if (later)
    return goap__error(lx->ec, GOAP_NOT_FOUND, lx->tok.off,
                       "variable '%.*s' is used before its declaration (line %d); declare "
                       "variables before using them",
                       (int)n, s, later);
  goap__did_you_mean(dym, sizeof dym, s, n, sym_var_name, st, sym_var_count(st));
  return goap__error(lx->ec, GOAP_NOT_FOUND, lx->tok.off, "unknown variable '%.*s'%s",
                     (int)n, s, dym);
}

/* ------------------------------------------------------------------------------------------
 * Items
 * ---------------------------------------------------------------------------------------- */
static const char *op_text(goap__tk k) {
  switch (k) {
    case GOAP__T_EQ: return "==";
    case GOAP__T_NE: return "!=";
    case GOAP__T_LT: return "<";
    case GOAP__T_LE: return "<=";
    case GOAP__T_GT: return ">";
    case GOAP__T_GE: return ">=";
    case GOAP__T_ASSIGN: return "=";
    case GOAP__T_ADD: return "+=";
    case GOAP__T_SUB: return "-=";
    default: return "?";
  }
}

/* Reads the value token for variable v (info vi), after operator `op`. */
static goap_status parse_value(goap__lexer *lx, const goap__symtab *st, int32_t v,
                               const goap__fvar *vi, goap__tk op, int32_t *out) {
  const char *s = lx->ec->src + lx->tok.off;
  size_t n = lx->tok.len;
  char t[64];
  goap__tok_show(lx, t, sizeof t);
  if (lx->tok.kind == GOAP__T_EOL || lx->tok.kind == GOAP__T_COMMA)
    return goap__error(lx->ec, GOAP_PARSE_ERROR, lx->tok.off,
                       "expected a value after '%s', found %s", op_text(op), t);
  switch (vi->type) {
    case GOAP_BOOL:
      if (goap__tok_is(lx, "true")) {
        *out = 1;
      } else if (goap__tok_is(lx, "false")) {
        *out = 0;
      } else {
        return goap__error(lx->ec, GOAP_TYPE_MISMATCH, lx->tok.off,
                           "'%s' is a bool: expected true or false, found %s", vi->name, t);
      }
      return GOAP_OK;
    case GOAP_ENUM: {
      int32_t idx;
      if (lx->tok.kind != GOAP__T_IDENT)
        return goap__error(lx->ec, GOAP_TYPE_MISMATCH, lx->tok.off,
                           "'%s' is an enum: expected one of its values, found %s", vi->name,
                           t);
      idx = sym_find_value(st, v, s, n);
      if (idx < 0) {
        char dym[128];
        value_ctx vc;
        vc.st = st;
        vc.var = v;
        goap__did_you_mean(dym, sizeof dym, s, n, sym_value_name, &vc, vi->value_count);
        return goap__error(lx->ec, GOAP_NOT_FOUND, lx->tok.off,
                           "unknown value '%.*s' for '%s'%s", (int)n, s, vi->name, dym);
      }
      *out = idx;
      return GOAP_OK;
    }
    case GOAP_INT: {
      goap_status stt;
      if (lx->tok.kind != GOAP__T_NUMBER || memchr(s, '.', n))
        return goap__error(lx->ec, GOAP_TYPE_MISMATCH, lx->tok.off,
                           "'%s' is an int: expected an integer, found %s", vi->name, t);
      stt = goap__tok_int(lx, out);
      if (stt != GOAP_OK) return stt;
      if (op == GOAP__T_ADD || op == GOAP__T_SUB) {
        if (op == GOAP__T_SUB) {
          if (*out == INT32_MIN)
            return goap__error(lx->ec, GOAP_OUT_OF_RANGE, lx->tok.off,
                               "'-= %.*s' is out of range", (int)n, s);
          *out = -*out;
        }
        return GOAP_OK;
      }
      if (*out < vi->lo || *out > vi->hi)
        return goap__error(lx->ec, GOAP_OUT_OF_RANGE, lx->tok.off,
                           "value %ld is outside the range %ld..%ld of '%s'", (long)*out,
                           (long)vi->lo, (long)vi->hi, vi->name);
      return GOAP_OK;
    }
  }
  return GOAP_PARSE_ERROR;
}

goap_status goap__parse_item(goap__lexer *lx, const goap__symtab *st, goap__mode mode,
                             goap__item *out) {
  static const char *const nouns[] = {"a condition", "an effect", "an assignment"};
  goap_status s;
  int32_t v;
  goap__fvar vi;
  goap__tk op;
  size_t start = lx->tok.off;
  out->line = lx->ec->line;
  out->col = (int)start + 1;
  out->line_off = 0;
  if (lx->tok.kind == GOAP__T_NOT) {
    if ((s = goap__lex_next(lx)) != GOAP_OK) return s;
    if (lx->tok.kind != GOAP__T_IDENT) return goap__expected(lx, "a variable name after '!'");
    if ((s = goap__resolve_var(lx, st, &v)) != GOAP_OK) return s;
    sym_var(st, v, &vi);
    if (vi.type != GOAP_BOOL)
      return goap__error(lx->ec, GOAP_TYPE_MISMATCH, start,
                         "'%s' is %s %s, not a bool: the shorthand '!%s' is only for bools",
                         vi.name, type_article(vi.type), goap__type_name(vi.type), vi.name);
    out->var = v;
    out->op = mode == GOAP__COND ? (int)GOAP_EQ : (int)GOAP_SET;
    out->value = 0;
    return goap__lex_next(lx);
  }
  if (lx->tok.kind != GOAP__T_IDENT) return goap__expected(lx, nouns[mode]);
  if ((s = goap__resolve_var(lx, st, &v)) != GOAP_OK) return s;
  sym_var(st, v, &vi);
  if ((s = goap__lex_next(lx)) != GOAP_OK) return s;
  out->var = v;
  op = lx->tok.kind;
  if (op == GOAP__T_EOL || op == GOAP__T_COMMA) {
    if (vi.type != GOAP_BOOL)
      return goap__error(lx->ec, GOAP_TYPE_MISMATCH, start,
                         "'%s' is %s %s, not a bool: the shorthand '%s' is only for bools",
                         vi.name, type_article(vi.type), goap__type_name(vi.type), vi.name);
    out->op = mode == GOAP__COND ? (int)GOAP_EQ : (int)GOAP_SET;
    out->value = 1;
    return GOAP_OK;
  }
  switch (mode) {
    case GOAP__COND:
      switch (op) {
        case GOAP__T_EQ: out->op = GOAP_EQ; break;
        case GOAP__T_NE: out->op = GOAP_NE; break;
        case GOAP__T_LT: out->op = GOAP_LT; break;
        case GOAP__T_LE: out->op = GOAP_LE; break;
        case GOAP__T_GT: out->op = GOAP_GT; break;
        case GOAP__T_GE: out->op = GOAP_GE; break;
        case GOAP__T_ASSIGN:
          return goap__error(lx->ec, GOAP_PARSE_ERROR, lx->tok.off,
                             "'=' assigns; use '==' to compare in a condition");
        default:
          return goap__expected(lx, "',', a comparison operator or end of line");
      }
      break;
    case GOAP__EFFECT:
      switch (op) {
        case GOAP__T_ASSIGN: out->op = GOAP_SET; break;
        case GOAP__T_ADD:
        case GOAP__T_SUB: out->op = GOAP_ADD; break;
        case GOAP__T_EQ:
          return goap__error(lx->ec, GOAP_PARSE_ERROR, lx->tok.off,
                             "'==' compares; use '=' to assign in an effect");
        default:
          return goap__expected(lx, "',', '=', '+=', '-=' or end of line");
      }
      break;
    case GOAP__ASSIGN:
      switch (op) {
        case GOAP__T_ASSIGN: out->op = GOAP_SET; break;
        case GOAP__T_ADD:
        case GOAP__T_SUB:
          return goap__error(lx->ec, GOAP_PARSE_ERROR, lx->tok.off,
                             "'%s' is not allowed here: assignments only (x, !x, x = v)",
                             op_text(op));
        case GOAP__T_EQ:
          return goap__error(lx->ec, GOAP_PARSE_ERROR, lx->tok.off,
                             "'==' compares; use '=' to assign");
        default:
          return goap__expected(lx, "',', '=' or end of line");
      }
      break;
  }
  if (vi.type != GOAP_INT && op != GOAP__T_EQ && op != GOAP__T_NE && op != GOAP__T_ASSIGN)
    return goap__error(lx->ec, GOAP_TYPE_MISMATCH, lx->tok.off,
                       "operator '%s' needs an int variable; '%s' is %s %s", op_text(op),
                       vi.name, type_article(vi.type), goap__type_name(vi.type));
  if ((s = goap__lex_next(lx)) != GOAP_OK) return s;
  if ((s = parse_value(lx, st, v, &vi, op, &out->value)) != GOAP_OK) return s;
  if ((s = goap__lex_next(lx)) != GOAP_OK) return s;
  /* `x -= 5 clamp`: saturate at the range instead of making the action inapplicable */
  if (mode == GOAP__EFFECT && out->op == (int)GOAP_ADD && goap__tok_is(lx, "clamp")) {
    out->op = GOAP_ADD_CLAMP;
    return goap__lex_next(lx);
  }
  return GOAP_OK;
}

/* ------------------------------------------------------------------------------------------
 * Public: goap_parse_conds / goap_parse_assignments
 * ---------------------------------------------------------------------------------------- */
#define TEXT_MAX_ITEMS (GOAP_FILE_MAX_LINE / 2 + 1)

static goap_status parse_text(const goap_domain *d, const char *name, const char *text,
                              goap__mode mode, goap_cond *conds, goap_effect *effs, int cap,
                              int *count, goap_error *err) {
  goap_error local;
  goap__ectx ec;
  goap__lexer lx;
  goap__symtab st;
  goap_status s;
  int n = 0;
  int32_t seen_var[TEXT_MAX_ITEMS];
  int seen_col[TEXT_MAX_ITEMS];
  const char *file = name ? name : "<input>";
  size_t len;
  if (count) *count = 0;
  if (!err) err = &local;
  goap__err_clear(err);
  if (!d || !text || cap < 0 || (cap > 0 && !conds && !effs)) {
    goap__diag_set(err, GOAP_SEVERITY_ERROR, GOAP_INVALID_ARGUMENT, file, 0, 0, NULL, 0,
                   "invalid argument");
    return GOAP_INVALID_ARGUMENT;
  }
  for (len = 0; len <= GOAP_FILE_MAX_LINE && text[len]; ++len) {
  }
  ec.diag = err;
  ec.file = file;
  ec.line = 1;
  ec.src = text;
  ec.src_len = len;
  if (len > GOAP_FILE_MAX_LINE)
    return goap__error(&ec, GOAP_TOO_LARGE, GOAP_FILE_MAX_LINE,
                       "text is longer than %d bytes", GOAP_FILE_MAX_LINE);
  if ((s = goap__check_line_bytes(&ec)) != GOAP_OK) return s;
  memset(&st, 0, sizeof st);
  st.domain = d;
  goap__lex_init(&lx, &ec);
  if ((s = goap__lex_next(&lx)) != GOAP_OK) return s;
  for (;;) {
    goap__item it;
    if ((s = goap__parse_item(&lx, &st, mode, &it)) != GOAP_OK) return s;
    if (mode == GOAP__ASSIGN) {
      int i;
      for (i = 0; i < n; ++i) {
        if (seen_var[i] == it.var) {
          goap__fvar vi;
          sym_var(&st, it.var, &vi);
          return goap__error(&ec, GOAP_CONFLICT, (size_t)it.col - 1,
                             "conflicting assignments to '%s' (first at column %d)", vi.name,
                             seen_col[i]);
        }
      }
    }
    if (n < TEXT_MAX_ITEMS) { /* always true: every item takes at least two bytes */
      seen_var[n] = it.var;
      seen_col[n] = it.col;
    }
    if (n < cap) {
      if (mode == GOAP__COND) {
        conds[n].var = it.var;
        conds[n].op = (goap_op)it.op;
        conds[n].value = it.value;
      } else {
        effs[n].var = it.var;
        effs[n].op = (goap_effect_op)it.op;
        effs[n].value = it.value;
      }
    }
    ++n;
    if (lx.tok.kind == GOAP__T_COMMA) {
      if ((s = goap__lex_next(&lx)) != GOAP_OK) return s;
      if (lx.tok.kind == GOAP__T_EOL)
        return goap__expected(&lx, mode == GOAP__COND ? "a condition after ','"
                                                      : "an assignment after ','");
      continue;
    }
    if (lx.tok.kind == GOAP__T_EOL) break;
    return goap__expected(&lx, "',' or end of line");
  }
  if (lx.tok.off < len) /* a '#' comment: not part of a command-line list */
    return goap__error(&ec, GOAP_PARSE_ERROR, lx.tok.off, "unexpected character '#'");
  if (count) *count = n;
  if (n > cap) {
    goap__diag_set(err, GOAP_SEVERITY_ERROR, GOAP_BUFFER_TOO_SMALL, file, 0, 0, NULL, 0,
                   "%d items need a larger buffer (capacity %d)", n, cap);
    return GOAP_BUFFER_TOO_SMALL;
  }
  return GOAP_OK;
}

goap_status goap_parse_conds(const goap_domain *d, const char *name, const char *text,
                             goap_cond *out, int cap, int *count, goap_error *err) {
  if (cap > 0 && !out) cap = -1; /* reported as an invalid argument */
  return parse_text(d, name, text, GOAP__COND, out, NULL, cap, count, err);
}

goap_status goap_parse_assignments(const goap_domain *d, const char *name, const char *text,
                                   goap_effect *out, int cap, int *count, goap_error *err) {
  if (cap > 0 && !out) cap = -1;
  return parse_text(d, name, text, GOAP__ASSIGN, NULL, out, cap, count, err);
}
