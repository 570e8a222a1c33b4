/*
 * diag.c -- diagnostics: filling goap_error values, checking a line's bytes, and "did you
 * mean" suggestions (goap_error_format is the core's: src/core/error_format.c).
 *
 * Invariants:
 *  - Every string field of a goap_error written here is NUL-terminated and truncated to fit;
 *    truncation never splits a UTF-8 sequence.
 *  - A diagnostic's source line is sanitised: bytes that are not printable ASCII, tab or part
 *    of a valid UTF-8 sequence become '?', one for one, so byte columns stay aligned.
 *  - The suggestion search is bounded: names longer than SUGGEST_MAX_LEN are skipped and the
 *    distance computation is cut off at the threshold, so it is linear in the candidates.
 */
#include <stdio.h>
#include <string.h>

#include "format_internal.h"

/* Length of the valid UTF-8 sequence starting at s[0] (s has n > 0 bytes), or 0. */
static size_t utf8_seq(const unsigned char *s, size_t n) {
  unsigned c = s[0];
  size_t len, i;
  unsigned min, cp;
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) {
    len = 2;
    cp = c & 0x1Fu;
    min = 0x80;
  } else if (c >= 0xE0 && c <= 0xEF) {
    len = 3;
    cp = c & 0x0Fu;
    min = 0x800;
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4;
    cp = c & 0x07u;
    min = 0x10000;
  } else {
    return 0;
  }
  if (n < len) return 0;
  for (i = 1; i < len; ++i) {
    if ((s[i] & 0xC0u) != 0x80u) return 0;
    cp = (cp << 6) | (s[i] & 0x3Fu);
  }
  if (cp < min || cp > 0x10FFFFu || (cp >= 0xD800u && cp <= 0xDFFFu)) return 0;
  return len;
}

/* Copies at most cap-1 bytes of s (n bytes) into dst, sanitising as described above. */
static void copy_sanitised(char *dst, size_t cap, const char *s, size_t n) {
  const unsigned char *u = (const unsigned char *)s;
  size_t i = 0, o = 0;
  while (i < n) {
    unsigned c = u[i];
    size_t k;
    if (c == '\t' || (c >= 0x20 && c < 0x7F)) {
      if (o + 1 >= cap) break;
      dst[o++] = (char)c;
      ++i;
      continue;
    }
    k = c >= 0x80 ? utf8_seq(u + i, n - i) : 0;
    if (k == 0) {
      if (o + 1 >= cap) break;
      dst[o++] = '?';
      ++i;
      continue;
    }
    if (o + k >= cap) break;
    memcpy(dst + o, s + i, k);
    o += k;
    i += k;
  }
  dst[o] = '\0';
}

/* Truncates a NUL-terminated string in place at most at cap-1 bytes, on a UTF-8 boundary. */
void goap__copy_truncated(char *dst, size_t cap, const char *s) {
  size_t n = strlen(s);
  if (n >= cap) {
    n = cap - 1;
    while (n > 0 && ((unsigned char)s[n] & 0xC0u) == 0x80u) --n;
  }
  memcpy(dst, s, n);
  dst[n] = '\0';
}

void goap__diag_vset(goap_error *d, goap_severity sev, goap_status st, const char *file,
                     int line, int col, const char *src, size_t src_len, const char *fmt,
                     va_list ap) {
  char msg[sizeof d->message];
  d->severity = sev;
  d->status = st;
  goap__copy_truncated(d->file, sizeof d->file, file ? file : "");
  d->line = line;
  d->col = col;
  d->offset = 0;
  vsnprintf(msg, sizeof msg, fmt, ap);
  goap__copy_truncated(d->message, sizeof d->message, msg);
  if (src)
    copy_sanitised(d->source, sizeof d->source, src, src_len);
  else
    d->source[0] = '\0';
}

void goap__diag_set(goap_error *d, goap_severity sev, goap_status st, const char *file,
                    int line, int col, const char *src, size_t src_len, const char *fmt,
                    ...) {
  va_list ap;
  va_start(ap, fmt);
  goap__diag_vset(d, sev, st, file, line, col, src, src_len, fmt, ap);
  va_end(ap);
}

goap_status goap__error(goap__ectx *ec, goap_status st, size_t off, const char *fmt, ...) {
  va_list ap;
  int col = off >= (size_t)GOAP_FILE_MAX_LINE * 2 ? GOAP_FILE_MAX_LINE * 2 : (int)off + 1;
  va_start(ap, fmt);
  goap__diag_vset(ec->diag, GOAP_SEVERITY_ERROR, st, ec->file, ec->line, col, ec->src,
                  ec->src_len, fmt, ap);
  va_end(ap);
  return st;
}

goap_status goap__check_line_bytes(goap__ectx *ec) {
  const unsigned char *u = (const unsigned char *)ec->src;
  size_t i = 0, n = ec->src_len;
  while (i < n) {
    unsigned c = u[i];
    if (c == 0) return goap__error(ec, GOAP_PARSE_ERROR, i, "NUL byte in input");
    if ((c < 0x20 && c != '\t') || c == 0x7F)
      return goap__error(ec, GOAP_PARSE_ERROR, i, "control character 0x%02x in input", c);
    if (c >= 0x80) {
      size_t k = utf8_seq(u + i, n - i);
      if (!k) return goap__error(ec, GOAP_PARSE_ERROR, i, "invalid UTF-8 byte 0x%02x", c);
      i += k;
      continue;
    }
    ++i;
  }
  return GOAP_OK;
}

/* ------------------------------------------------------------------------------------------
 * Suggestions
 * ---------------------------------------------------------------------------------------- */
#define SUGGEST_MAX_LEN 64

/* Optimal-string-alignment distance of a (n) and b (m), or limit+1 if it exceeds limit. */
static size_t osa_distance(const char *a, size_t n, const char *b, size_t m, size_t limit) {
  size_t rows[3][SUGGEST_MAX_LEN + 1];
  size_t *pp = rows[0], *p = rows[1], *c = rows[2];
  size_t i, j;
  if ((n > m ? n - m : m - n) > limit) return limit + 1;
  for (j = 0; j <= m; ++j) p[j] = j;
  for (i = 1; i <= n; ++i) {
    size_t best = (size_t)-1;
    size_t *t;
    c[0] = i;
    for (j = 1; j <= m; ++j) {
      size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      size_t v = p[j] + 1;
      if (c[j - 1] + 1 < v) v = c[j - 1] + 1;
      if (p[j - 1] + cost < v) v = p[j - 1] + cost;
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && pp[j - 2] + 1 < v)
        v = pp[j - 2] + 1;
      c[j] = v;
      if (v < best) best = v;
    }
    if (best > limit) return limit + 1;
    t = pp;
    pp = p;
    p = c;
    c = t;
  }
  return p[m];
}

int goap__suggest(const char *s, size_t n, goap__cand_fn get, const void *ctx, int count) {
  size_t limit, best_d;
  int best = -1, i;
  if (n == 0 || n > SUGGEST_MAX_LEN) return -1;
  limit = (n + 2) / 3;
  if (limit > 3) limit = 3;
  best_d = limit + 1;
  for (i = 0; i < count; ++i) {
    const char *c = get(ctx, i);
    size_t m, d;
    if (!c) continue;
    m = strlen(c);
    if (m == 0 || m > SUGGEST_MAX_LEN) continue;
    d = osa_distance(s, n, c, m, limit);
    /* A distance equal to the length means "replace everything": no suggestion. */
    if (d < best_d && d < n && d < m) {
      best_d = d;
      best = i;
      if (d == 0) break;
    }
  }
  return best;
}

void goap__did_you_mean(char *buf, size_t cap, const char *s, size_t n, goap__cand_fn get,
                        const void *ctx, int count) {
  int i = goap__suggest(s, n, get, ctx, count);
  if (cap == 0) return;
  buf[0] = '\0';
  if (i >= 0) snprintf(buf, cap, "; did you mean '%s'?", get(ctx, i));
}
