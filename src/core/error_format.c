/*
 * error_format.c -- goap_error_format: an error (goap/goap.h) as compiler-style text. In the
 * core so that every front end (the .goap loader, PDDL/HDDL) shares it without linking another.
 *
 * Invariants: writes at most cap bytes, always NUL-terminated when cap > 0, and returns the
 * length the whole text needs (as snprintf); reads only the diagnostic's own fixed arrays,
 * each bounded by its size even when not NUL-terminated.
 */
#include <stdio.h>
#include <string.h>

#include "goap/goap.h"

typedef struct sink {
  char *buf;
  size_t cap, len; /* len: bytes the whole text needs so far */
} sink;

static void put(sink *s, const char *p, size_t n) {
  if (s->len < s->cap) {
    size_t room = s->cap - s->len;
    memcpy(s->buf + s->len, p, n < room ? n : room);
  }
  s->len += n;
}

static void puts_(sink *s, const char *p) { put(s, p, strlen(p)); }

static void put_int(sink *s, int v) {
  char t[24];
  int n = snprintf(t, sizeof t, "%d", v);
  if (n > 0) put(s, t, (size_t)n);
}

size_t goap_error_format(const goap_error *diag, char *buf, size_t cap) {
  sink s;
  char file[sizeof diag->file], msg[sizeof diag->message], src[sizeof diag->source];
  int have_prefix = 0;
  s.buf = buf;
  s.cap = buf ? cap : 0;
  s.len = 0;
  if (!diag) {
    if (buf && cap) buf[0] = '\0';
    return 0;
  }
  /* The fields may not be NUL-terminated if the caller filled them: copy defensively. */
  memcpy(file, diag->file, sizeof file);
  file[sizeof file - 1] = '\0';
  memcpy(msg, diag->message, sizeof msg);
  msg[sizeof msg - 1] = '\0';
  memcpy(src, diag->source, sizeof src);
  src[sizeof src - 1] = '\0';
  if (file[0]) {
    puts_(&s, file);
    have_prefix = 1;
  }
  if (diag->line > 0) {
    if (have_prefix) put(&s, ":", 1);
    put_int(&s, diag->line);
    have_prefix = 1;
    if (diag->col > 0) {
      put(&s, ":", 1);
      put_int(&s, diag->col);
    }
  }
  if (have_prefix) put(&s, ": ", 2);
  puts_(&s, diag->severity == GOAP_SEVERITY_WARNING ? "warning: " : "error: ");
  puts_(&s, msg);
  if (diag->offset != 0 && diag->line <= 0) { /* a binary input: where in its bytes */
    char t[48];
    int n = snprintf(t, sizeof t, " (at byte %zu)", diag->offset);
    if (n > 0) put(&s, t, (size_t)n);
  }
  put(&s, "\n", 1);
  if (diag->line > 0 && src[0]) {
    size_t srclen = strlen(src), i;
    puts_(&s, src);
    put(&s, "\n", 1);
    /* no caret when the column lies beyond the (possibly truncated) source text */
    if (diag->col > 0 && (size_t)diag->col - 1 <= srclen) {
      for (i = 0; i + 1 < (size_t)diag->col; ++i) {
        unsigned char c = (unsigned char)src[i];
        if (c == '\t')
          put(&s, "\t", 1);
        else if ((c & 0xC0u) != 0x80u) /* one column per character, not per byte */
          put(&s, " ", 1);
      }
      put(&s, "^\n", 2);
    }
  }
  if (buf && cap) buf[s.len < cap ? s.len : cap - 1] = '\0';
  return s.len;
}
