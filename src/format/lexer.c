/*
 * lexer.c -- tokens of one `.goap` line, and number conversion.
 *
 * Invariants:
 *  - The lexer only reads ec->src[0 .. ec->src_len); it never looks past the line.
 *  - A '#' ends the line's tokens (a comment); its bytes were already validated as UTF-8 by
 *    goap__check_line_bytes.
 *  - Numbers are converted without the C library (no locale, no errno): integers exactly with
 *    an overflow check, decimals from at most 19 significant digits.
 *  - Every loop advances pos, so lexing is linear in the line length.
 */
#include <stdio.h>
#include <string.h>

#include "format_internal.h"

static int is_ident_start(int c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
static int is_ident(int c) { return is_ident_start(c) || (c >= '0' && c <= '9'); }
static int is_digit(int c) { return c >= '0' && c <= '9'; }

void goap__lex_init(goap__lexer *lx, goap__ectx *ec) {
  lx->ec = ec;
  lx->pos = 0;
  lx->tok.kind = GOAP__T_EOL;
  lx->tok.off = 0;
  lx->tok.len = 0;
}

goap_status goap__lex_next(goap__lexer *lx) {
  const char *s = lx->ec->src;
  size_t n = lx->ec->src_len, p = lx->pos, start;
  int c, c1;
  while (p < n && (s[p] == ' ' || s[p] == '\t')) ++p;
  start = p;
  lx->tok.off = start;
  lx->tok.len = 0;
  if (p >= n || s[p] == '#') {
    lx->tok.kind = GOAP__T_EOL;
    lx->pos = p;
    return GOAP_OK;
  }
  c = (unsigned char)s[p];
  c1 = p + 1 < n ? (unsigned char)s[p + 1] : 0;
  if (is_ident_start(c)) {
    while (p < n && is_ident((unsigned char)s[p])) ++p;
    if (p < n && (unsigned char)s[p] >= 0x80)
      return goap__error(lx->ec, GOAP_PARSE_ERROR, p,
                         "non-ASCII character in a name; names must match "
                         "[A-Za-z_][A-Za-z0-9_]*");
    lx->tok.kind = GOAP__T_IDENT;
  } else if (is_digit(c) || ((c == '-' || c == '+') && is_digit(c1))) {
    if (!is_digit(c)) ++p;
    while (p < n && is_digit((unsigned char)s[p])) ++p;
    if (p + 1 < n && s[p] == '.' && is_digit((unsigned char)s[p + 1])) {
      ++p;
      while (p < n && is_digit((unsigned char)s[p])) ++p;
    }
    if (p < n && is_ident((unsigned char)s[p])) {
      size_t q = p;
      while (q < n && is_ident((unsigned char)s[q])) ++q;
      return goap__error(lx->ec, GOAP_PARSE_ERROR, start, "invalid number '%.*s'",
                         (int)(q - start > 40 ? 40 : q - start), s + start);
    }
    lx->tok.kind = GOAP__T_NUMBER;
  } else {
    ++p;
    switch (c) {
      case ':': lx->tok.kind = GOAP__T_COLON; break;
      case ',': lx->tok.kind = GOAP__T_COMMA; break;
      case '*': lx->tok.kind = GOAP__T_STAR; break;
      case '{': lx->tok.kind = GOAP__T_LBRACE; break;
      case '}': lx->tok.kind = GOAP__T_RBRACE; break;
      case '.':
        if (c1 != '.') goto unexpected;
        ++p;
        lx->tok.kind = GOAP__T_DOTDOT;
        break;
      case '=':
        if (c1 == '=') {
          ++p;
          lx->tok.kind = GOAP__T_EQ;
        } else {
          lx->tok.kind = GOAP__T_ASSIGN;
        }
        break;
      case '!':
        if (c1 == '=') {
          ++p;
          lx->tok.kind = GOAP__T_NE;
        } else {
          lx->tok.kind = GOAP__T_NOT;
        }
        break;
      case '<':
        if (c1 == '=') {
          ++p;
          lx->tok.kind = GOAP__T_LE;
        } else {
          lx->tok.kind = GOAP__T_LT;
        }
        break;
      case '>':
        if (c1 == '=') {
          ++p;
          lx->tok.kind = GOAP__T_GE;
        } else {
          lx->tok.kind = GOAP__T_GT;
        }
        break;
      case '+':
        if (c1 != '=') {
          lx->tok.kind = GOAP__T_PLUS;
          break;
        }
        ++p;
        lx->tok.kind = GOAP__T_ADD;
        break;
      case '(': lx->tok.kind = GOAP__T_LPAREN; break;
      case ')': lx->tok.kind = GOAP__T_RPAREN; break;
      case '-':
        if (c1 != '=') goto unexpected;
        ++p;
        lx->tok.kind = GOAP__T_SUB;
        break;
      default:
        goto unexpected;
    }
  }
  lx->tok.len = p - start;
  lx->pos = p;
  return GOAP_OK;
unexpected:
  if (c >= 0x80)
    return goap__error(lx->ec, GOAP_PARSE_ERROR, start,
                       "non-ASCII character outside a comment; names must match "
                       "[A-Za-z_][A-Za-z0-9_]*");
  return goap__error(lx->ec, GOAP_PARSE_ERROR, start, "unexpected character '%c'", c);
}

int goap__tok_is(const goap__lexer *lx, const char *kw) {
  size_t n = strlen(kw);
  return lx->tok.kind == GOAP__T_IDENT && lx->tok.len == n &&
         memcmp(lx->ec->src + lx->tok.off, kw, n) == 0;
}

void goap__tok_show(const goap__lexer *lx, char *buf, size_t cap) {
  size_t n = lx->tok.len;
  if (lx->tok.kind == GOAP__T_EOL) {
    snprintf(buf, cap, "end of line");
    return;
  }
  if (n > 40)
    snprintf(buf, cap, "'%.*s...'", 40, lx->ec->src + lx->tok.off);
  else
    snprintf(buf, cap, "'%.*s'", (int)n, lx->ec->src + lx->tok.off);
}

goap_status goap__expected(goap__lexer *lx, const char *what) {
  char t[64];
  goap__tok_show(lx, t, sizeof t);
  return goap__error(lx->ec, GOAP_PARSE_ERROR, lx->tok.off, "expected %s, found %s", what, t);
}

goap_status goap__tok_int(goap__lexer *lx, int32_t *out) {
  const char *s = lx->ec->src + lx->tok.off;
  size_t n = lx->tok.len, i = 0;
  int neg = 0;
  int64_t v = 0;
  if (lx->tok.kind != GOAP__T_NUMBER) return goap__expected(lx, "an integer");
  if (memchr(s, '.', n)) {
    char t[64];
    goap__tok_show(lx, t, sizeof t);
    return goap__error(lx->ec, GOAP_TYPE_MISMATCH, lx->tok.off,
                       "expected an integer, found %s", t);
  }
  if (s[0] == '-' || s[0] == '+') {
    neg = s[0] == '-';
    i = 1;
  }
  for (; i < n; ++i) {
    v = v * 10 + (s[i] - '0');
    if (v > (int64_t)INT32_MAX + 1) break;
  }
  if (neg) v = -v;
  if (v > INT32_MAX || v < INT32_MIN) {
    char t[64];
    goap__tok_show(lx, t, sizeof t);
    return goap__error(lx->ec, GOAP_OUT_OF_RANGE, lx->tok.off,
                       "integer %s does not fit in 32 bits", t);
  }
  *out = (int32_t)v;
  return GOAP_OK;
}

goap_status goap__tok_decimal(goap__lexer *lx, double *out) {
  const char *s = lx->ec->src + lx->tok.off;
  size_t n = lx->tok.len, i = 0;
  uint64_t mant = 0;
  int digits = 0, scale = 0; /* value = mant * 10^scale */
  int neg = 0, frac = 0;
  double v;
  if (lx->tok.kind != GOAP__T_NUMBER) return goap__expected(lx, "a number");
  if (s[0] == '-' || s[0] == '+') {
    neg = s[0] == '-';
    i = 1;
  }
  for (; i < n; ++i) {
    if (s[i] == '.') {
      frac = 1;
      continue;
    }
    if (mant == 0 && s[i] == '0') { /* leading zeros carry no precision */
      if (frac) --scale;
      continue;
    }
    if (digits < 19) {
      mant = mant * 10u + (uint64_t)(s[i] - '0');
      ++digits;
      if (frac) --scale;
    } else if (!frac) {
      ++scale; /* digits beyond 19 only scale the integer part */
    }
    if (scale > 400) break;
  }
  v = (double)mant;
  if (mant != 0) {
    int k;
    if (scale > 0) {
      for (k = 0; k < scale && v <= 1e308; ++k) v *= 10.0;
    } else if (scale < 0) {
      double p = 1.0;
      for (k = 0; k < -scale && p < 1e300; ++k) p *= 10.0;
      v /= p;
      for (; k < -scale; ++k) v /= 10.0;
    }
  }
  if (!(v <= 1e300)) {
    char t[64];
    goap__tok_show(lx, t, sizeof t);
    return goap__error(lx->ec, GOAP_OUT_OF_RANGE, lx->tok.off, "number %s is too large", t);
  }
  *out = (neg && v != 0.0) ? -v : v; /* no negative zero */
  return GOAP_OK;
}
