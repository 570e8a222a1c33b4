/*
 * sexp.c -- the S-expression reader: PDDL text -> a tree of nodes (lists and atoms).
 *
 * Invariants:
 *  - Iterative (an explicit stack of open lists), so hostile nesting cannot exhaust the C
 *    stack; the depth limit (options.max_depth) is checked as each '(' opens.
 *  - Every node records its source and 1-based line and byte column; atoms are interned
 *    lower-cased at once. `;` starts a comment to the end of the line.
 *  - The text is read within its length only (never assumed NUL-terminated).
 */
#include <string.h>

#include "pddl_internal.h"

static int is_space(unsigned c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

static int32_t new_node(goap__px_task_core *t) {
  if (t->nnodes >= (size_t)INT32_MAX - 1) return -1;
  if (t->nnodes == t->cnodes &&
      !goap__grow(&t->alloc, (void **)&t->nodes, &t->cnodes, t->nnodes + 1, sizeof *t->nodes))
    return -1;
  goap__px_node *n = &t->nodes[t->nnodes];
  memset(n, 0, sizeof *n);
  n->sym = -1;
  n->first = n->next = -1;
  return (int32_t)t->nnodes++;
}

size_t goap__px_skip_blank(const char *text, size_t len, size_t i, int *line,
                           size_t *line_start) {
  while (i < len) {
    unsigned c = (unsigned char)text[i];
    if (c == '\n') {
      ++*line;
      *line_start = ++i;
    } else if (is_space(c)) {
      ++i;
    } else if (c == ';') {
      while (i < len && text[i] != '\n') ++i;
    } else {
      break;
    }
  }
  return i;
}

goap_status goap__px_read(goap__px_task_core *t, int src, int32_t *first) {
  const goap__px_source *s = &t->src[src];
  const char *text = s->text;
  size_t len = s->len, i = 0;
  int line = 1;
  size_t line_start = 0;
  int maxd = t->opt.max_depth;
  int32_t stack[1024]; /* open lists; depth limit is at most 1024 (checked at the entry) */
  int32_t last[1024];  /* last child of each open list, -1 */
  int depth = 0;
  int32_t top_first = -1, top_last = -1;
  *first = -1;
  if (len > t->opt.max_bytes)
    return goap__px_error_at(t, src, 0, 0, GOAP_TOO_LARGE, "the text is %zu bytes, more than the %zu allowed",
                       len, t->opt.max_bytes);
  while (i < len) {
    i = goap__px_skip_blank(text, len, i, &line, &line_start);
    if (i >= len) break;
    unsigned c = (unsigned char)text[i];
    int col = (int)(i - line_start) + 1;
    if (c == ')') {
      if (depth == 0)
        return goap__px_error_at(t, src, line, col, GOAP_PARSE_ERROR, "unmatched ')'");
      --depth;
      ++i;
      continue;
    }
    int32_t n = new_node(t);
    if (n < 0) return goap__px_error_at(t, src, line, col, GOAP_OUT_OF_MEMORY, "out of memory");
    goap__px_node *nd = &t->nodes[n];
    nd->line = line;
    nd->col = col;
    nd->src = src;
    if (c == '(') {
      nd->list = 1;
      ++i;
    } else {
      size_t j = i;
      /* plain name bytes (printable, not a delimiter) in one tight loop; the rest decided below */
      while (j < len) {
        unsigned d = (unsigned char)text[j];
        if (d > ' ' && d != '(' && d != ')' && d != ';' && d != 0x7F) {
          ++j;
          continue;
        }
        if (is_space(d) || d == '(' || d == ')' || d == ';') break;
        return goap__px_error_at(t, src, line, (int)(j - line_start) + 1, GOAP_PARSE_ERROR,
                                 "unexpected control character (byte 0x%02x)", d);
      }
      if (j - i > PX_MAX_NAME)
        return goap__px_error_at(t, src, line, col, GOAP_TOO_LARGE,
                           "a name of %zu bytes, more than the %d allowed", j - i, PX_MAX_NAME);
      int32_t sym = goap__px_sym_intern(&t->alloc, &t->syms, text + i, j - i);
      if (sym < 0) return goap__px_error_at(t, src, line, col, GOAP_OUT_OF_MEMORY, "out of memory");
      t->nodes[n].sym = sym;
      i = j;
    }
    /* link into the parent (or the top level) */
    if (depth == 0) {
      if (top_last >= 0) t->nodes[top_last].next = n;
      else top_first = n;
      top_last = n;
    } else {
      goap__px_node *p = &t->nodes[stack[depth - 1]];
      if (last[depth - 1] >= 0) t->nodes[last[depth - 1]].next = n;
      else p->first = n;
      last[depth - 1] = n;
      if (p->count == INT32_MAX)
        return goap__px_error_at(t, src, line, col, GOAP_TOO_LARGE, "a list is too long");
      p->count++;
    }
    if (t->nodes[n].list) {
      if (depth >= maxd)
        return goap__px_error_at(t, src, line, col, GOAP_TOO_LARGE,
                           "parentheses nested more than %d deep", maxd);
      stack[depth] = n;
      last[depth] = -1;
      ++depth;
    }
  }
  if (depth > 0) {
    const goap__px_node *o = &t->nodes[stack[depth - 1]];
    return goap__px_error_at(t, src, o->line, o->col, GOAP_PARSE_ERROR,
                       "this '(' is never closed (the text ends first)");
  }
  *first = top_first;
  return GOAP_OK;
}
