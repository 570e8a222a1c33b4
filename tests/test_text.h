/*
 * test_text.h -- a growing text buffer for tests that compare timelines or replay logs:
 * put() appends printf-style text, sink() is a goap_recorder/goap_replay byte sink. The buffer
 * stays NUL-terminated; allocation failure aborts (tests only). Free t->s when done.
 */
#ifndef GOAP_TEST_TEXT_H
#define GOAP_TEST_TEXT_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct text {
  char *s;
  size_t n, cap;
} text;

static void text_reserve(text *t, size_t more) {
  if (t->n + more + 1 <= t->cap) return;
  t->cap = (t->n + more + 1) * 2;
  t->s = (char *)realloc(t->s, t->cap);
  if (!t->s) abort();
}

static void put(text *t, const char *fmt, ...) {
  char line[512];
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  if (k < 0) return;
  text_reserve(t, (size_t)k);
  memcpy(t->s + t->n, line, (size_t)k + 1);
  t->n += (size_t)k;
}

static int sink(void *user, const void *data, size_t size) {
  text *t = (text *)user;
  text_reserve(t, size);
  memcpy(t->s + t->n, data, size);
  t->n += size;
  t->s[t->n] = '\0';
  return 0;
}

#endif
