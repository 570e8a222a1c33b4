/*
 * pddl_util.c -- memory helpers, the symbol table, tuple sets and diagnostics of the PDDL front end.
 *
 * Invariants:
 *  - Every block is allocated and freed through the goap_allocator with its exact size.
 *  - Hash tables use open addressing with linear probing, are at most half full, and their
 *    capacities are powers of two; ids are stored, keys live in the owners' pools.
 *  - A diagnostic's strings are always NUL-terminated and truncated to fit; its source line is
 *    sanitised (non-printable bytes become '?', one for one, so columns stay aligned).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pddl_internal.h"

/* ---- memory --------------------------------------------------------------------------- */

int goap__px_ipush(const goap_allocator *a, px_ivec *x, int32_t value) {
  if (x->n == x->cap && !goap__grow(a, (void **)&x->v, &x->cap, x->n + 1, sizeof *x->v)) return 0;
  x->v[x->n++] = value;
  return 1;
}

void goap__px_ivec_free(const goap_allocator *a, px_ivec *x) {
  goap__px_free(a, x->v, x->cap * sizeof *x->v);
  x->v = NULL;
  x->n = x->cap = 0;
}

int goap__px_map_set(const goap_allocator *a, px_ivec *m, int32_t sym, int32_t id) {
  if (sym < 0) return 0;
  while (m->n <= (size_t)sym)
    if (!goap__px_ipush(a, m, -1)) return 0;
  m->v[sym] = id;
  return 1;
}

/* ---- symbols -------------------------------------------------------------------------- */

static uint32_t hash_bytes(const char *s, size_t n) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < n; ++i) {
    unsigned c = (unsigned char)s[i];
    if (c >= 'A' && c <= 'Z') c += 32;
    h = (h ^ c) * 16777619u;
  }
  return h;
}

static int same_lower(const char *lower, size_t ln, const char *s, size_t n) {
  if (ln != n) return 0;
  for (size_t i = 0; i < n; ++i) {
    unsigned c = (unsigned char)s[i];
    if (c >= 'A' && c <= 'Z') c += 32;
    if ((unsigned char)lower[i] != c) return 0;
  }
  return 1;
}

static int syms_rehash(const goap_allocator *a, px_syms *s, size_t nslots) {
  int32_t *slots = (int32_t *)goap__px_alloc(a, nslots * sizeof *slots);
  if (!slots) return 0;
  for (size_t i = 0; i < nslots; ++i) slots[i] = -1;
  for (size_t id = 0; id < s->n; ++id) {
    size_t h = s->recs[id].hash & (nslots - 1);
    while (slots[h] >= 0) h = (h + 1) & (nslots - 1);
    slots[h] = (int32_t)id;
  }
  goap__px_free(a, s->slots, s->nslots * sizeof *s->slots);
  s->slots = slots;
  s->nslots = nslots;
  return 1;
}

/* Room for n bytes of names: in the newest chunk, or a new one (4 KiB, or n if larger). */
static char *syms_space(const goap_allocator *a, px_syms *s, size_t n) {
  if (!s->chunks || s->chunks->size - s->chunk_used < n) {
    size_t size = n > 4096 ? n : 4096;
    px_symchunk *c = (px_symchunk *)goap__px_alloc(a, sizeof *c + size);
    if (!c) return NULL;
    c->prev = s->chunks;
    c->size = size;
    s->chunks = c;
    s->chunk_used = 0;
  }
  char *p = (char *)(s->chunks + 1) + s->chunk_used;
  s->chunk_used += n;
  return p;
}

int32_t goap__px_sym_intern(const goap_allocator *a, px_syms *s, const char *text, size_t len) {
  if (s->nslots == 0 && !syms_rehash(a, s, 256)) return -1;
  size_t mask = s->nslots - 1;
  uint32_t hash = hash_bytes(text, len);
  size_t h = hash & mask;
  while (s->slots[h] >= 0) {
    int32_t id = s->slots[h];
    if (s->recs[id].hash == hash && same_lower(s->recs[id].name, s->recs[id].len, text, len))
      return id;
    h = (h + 1) & mask;
  }
  if (s->n >= (size_t)INT32_MAX / 4 || len >= UINT32_MAX) return -1;
  if ((s->n + 1) * 2 > s->nslots) {
    if (!syms_rehash(a, s, s->nslots * 2)) return -1;
    mask = s->nslots - 1;
    h = hash & mask;
    while (s->slots[h] >= 0) h = (h + 1) & mask;
  }
  if (!goap__grow(a, (void **)&s->recs, &s->cap, s->n + 1, sizeof *s->recs)) return -1;
  char *name = syms_space(a, s, len + 1);
  if (!name) return -1;
  for (size_t i = 0; i < len; ++i) {
    char c = text[i];
    name[i] = (c >= 'A' && c <= 'Z') ? (char)(c + 32) : c;
  }
  name[len] = 0;
  int32_t id = (int32_t)s->n;
  s->recs[s->n].name = name;
  s->recs[s->n].len = (uint32_t)len;
  s->recs[s->n].hash = hash;
  s->n++;
  s->slots[h] = id;
  return id;
}

int32_t goap__px_sym_find(const px_syms *s, const char *name) {
  if (!s->nslots) return -1;
  size_t len = strlen(name), mask = s->nslots - 1;
  size_t h = hash_bytes(name, len) & mask;
  while (s->slots[h] >= 0) {
    int32_t id = s->slots[h];
    if (s->recs[id].len == len && memcmp(s->recs[id].name, name, len) == 0) return id;
    h = (h + 1) & mask;
  }
  return -1;
}

void goap__px_syms_free(const goap_allocator *a, px_syms *s) {
  while (s->chunks) {
    px_symchunk *c = s->chunks;
    s->chunks = c->prev;
    goap__px_free(a, c, sizeof *c + c->size);
  }
  goap__px_free(a, s->recs, s->cap * sizeof *s->recs);
  goap__px_free(a, s->slots, s->nslots * sizeof *s->slots);
  memset(s, 0, sizeof *s);
}

/* ---- tuple sets ----------------------------------------------------------------------- */

static uint32_t hash_tuple(int32_t id, const int32_t *args, int n) {
  uint64_t h = 0x9E3779B97F4A7C15ull ^ (uint64_t)(uint32_t)id;
  for (int i = 0; i < n; ++i) {
    h ^= (uint64_t)(uint32_t)args[i];
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 29;
  }
  h *= 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 32;
  return (uint32_t)h;
}

static int tuple_eq(const px_tset *t, int32_t e, int32_t id, const int32_t *args, int n) {
  const int32_t *k = t->pool.v + t->offs.v[e];
  if (k[0] != n || k[1] != id) return 0;
  for (int i = 0; i < n; ++i)
    if (k[2 + i] != args[i]) return 0;
  return 1;
}

int32_t goap__px_tset_find(const px_tset *t, int32_t id, const int32_t *args, int n) {
  if (!t->nslots) return -1;
  size_t mask = t->nslots - 1;
  size_t h = hash_tuple(id, args, n) & mask;
  while (t->slots[h] >= 0) {
    if (tuple_eq(t, t->slots[h], id, args, n)) return t->slots[h];
    h = (h + 1) & mask;
  }
  return -1;
}

static int tset_rehash(const goap_allocator *a, px_tset *t, size_t nslots) {
  int32_t *slots = (int32_t *)goap__px_alloc(a, nslots * sizeof *slots);
  if (!slots) return 0;
  for (size_t i = 0; i < nslots; ++i) slots[i] = -1;
  for (size_t e = 0; e < t->offs.n; ++e) {
    const int32_t *k = t->pool.v + t->offs.v[e];
    size_t h = hash_tuple(k[1], k + 2, k[0]) & (nslots - 1);
    while (slots[h] >= 0) h = (h + 1) & (nslots - 1);
    slots[h] = (int32_t)e;
  }
  goap__px_free(a, t->slots, t->nslots * sizeof *t->slots);
  t->slots = slots;
  t->nslots = nslots;
  return 1;
}

int32_t goap__px_tset_add(const goap_allocator *a, px_tset *t, int32_t id, const int32_t *args, int n,
                    int *added) {
  if (added) *added = 0;
  int32_t e = goap__px_tset_find(t, id, args, n);
  if (e >= 0) return e;
  if ((t->offs.n + 1) * 2 > t->nslots && !tset_rehash(a, t, t->nslots ? t->nslots * 2 : 64))
    return -1;
  if (t->pool.n > (size_t)INT32_MAX - (size_t)n - 2 || t->offs.n >= (size_t)INT32_MAX - 1)
    return -1;
  size_t off = t->pool.n;
  if (!goap__grow(a, (void **)&t->pool.v, &t->pool.cap, off + (size_t)n + 2, sizeof(int32_t)))
    return -1;
  if (!goap__px_ipush(a, &t->offs, (int32_t)off)) return -1;
  t->pool.v[off] = n;
  t->pool.v[off + 1] = id;
  for (int i = 0; i < n; ++i) t->pool.v[off + 2 + (size_t)i] = args[i];
  t->pool.n = off + (size_t)n + 2;
  e = (int32_t)(t->offs.n - 1);
  size_t mask = t->nslots - 1;
  size_t h = hash_tuple(id, args, n) & mask;
  while (t->slots[h] >= 0) h = (h + 1) & mask;
  t->slots[h] = e;
  if (added) *added = 1;
  return e;
}

void goap__px_tset_free(const goap_allocator *a, px_tset *t) {
  goap__px_ivec_free(a, &t->pool);
  goap__px_ivec_free(a, &t->offs);
  goap__px_free(a, t->slots, t->nslots * sizeof *t->slots);
  t->slots = NULL;
  t->nslots = 0;
}

/* ---- diagnostics ---------------------------------------------------------------------- */

static void copy_trunc(char *dst, size_t cap, const char *s) {
  size_t n = strlen(s);
  if (n >= cap) {
    n = cap - 1;
    while (n > 0 && ((unsigned char)s[n] & 0xC0u) == 0x80u) --n; /* not inside UTF-8 */
  }
  memcpy(dst, s, n);
  dst[n] = 0;
}

static void fill_source(char *dst, size_t cap, const px_source *src, int line) {
  dst[0] = 0;
  if (!src->text || line < 1) return;
  size_t i = 0;
  int l = 1;
  while (i < src->len && l < line) {
    if (src->text[i] == '\n') ++l;
    ++i;
  }
  if (l != line) return;
  size_t o = 0;
  while (i < src->len && src->text[i] != '\n' && src->text[i] != '\r' && o + 1 < cap) {
    unsigned c = (unsigned char)src->text[i++];
    dst[o++] = (c == '\t' || (c >= 0x20 && c < 0x7F)) ? (char)c : '?';
  }
  dst[o] = 0;
}

static goap_status verror(px_task_core *t, int src, int line, int col, goap_status st,
                          const char *fmt, va_list ap) {
  if (t->status != GOAP_OK) return t->status;
  t->status = st;
  goap_error *d = t->diag;
  memset(d, 0, sizeof *d);
  d->severity = GOAP_SEVERITY_ERROR;
  d->status = st;
  d->line = line;
  d->col = col;
  if (src >= 0 && src < 3 && t->src[src].name) copy_trunc(d->file, sizeof d->file, t->src[src].name);
  char msg[1024];
  vsnprintf(msg, sizeof msg, fmt, ap);
  copy_trunc(d->message, sizeof d->message, msg);
  if (src >= 0 && src < 3) fill_source(d->source, sizeof d->source, &t->src[src], line);
  return st;
}

goap_status goap__px_error(px_task_core *t, int32_t node, goap_status st, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int src = 0, line = 0, col = 0;
  if (node >= 0 && (size_t)node < t->nnodes) {
    src = t->nodes[node].src;
    line = t->nodes[node].line;
    col = t->nodes[node].col;
  }
  goap_status r = verror(t, src, line, col, st, fmt, ap);
  va_end(ap);
  return r;
}

goap_status goap__px_error_at(px_task_core *t, int src, int line, int col, goap_status st,
                        const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  goap_status r = verror(t, src, line, col, st, fmt, ap);
  va_end(ap);
  return r;
}

/* Edit distance, cut off above `limit`. */
static int edit_distance(const char *a, const char *b, int limit) {
  size_t la = strlen(a), lb = strlen(b);
  if (la > 64 || lb > 64) return limit + 1;
  if ((la > lb ? la - lb : lb - la) > (size_t)limit) return limit + 1;
  int row[65];
  for (size_t j = 0; j <= lb; ++j) row[j] = (int)j;
  for (size_t i = 1; i <= la; ++i) {
    int prev = row[0];
    row[0] = (int)i;
    int best = row[0];
    for (size_t j = 1; j <= lb; ++j) {
      int cur = row[j];
      int v = prev + (a[i - 1] != b[j - 1]);
      if (row[j] + 1 < v) v = row[j] + 1;
      if (row[j - 1] + 1 < v) v = row[j - 1] + 1;
      row[j] = v;
      prev = cur;
      if (v < best) best = v;
    }
    if (best > limit) return limit + 1;
  }
  return row[lb];
}

int32_t goap__px_suggest(const px_task_core *t, int32_t sym, const int32_t *cands, size_t n) {
  const char *w = px_name(t, sym);
  size_t len = strlen(w);
  int limit = len <= 3 ? 1 : len <= 6 ? 2 : 3;
  int best = limit + 1;
  int32_t found = -1;
  for (size_t i = 0; i < n && i < 100000; ++i) {
    if (cands[i] == sym) continue;
    int d = edit_distance(w, px_name(t, cands[i]), best - 1 < limit ? best - 1 : limit);
    if (d < best) {
      best = d;
      found = cands[i];
    }
  }
  return found;
}

void goap__px_fmt(char *buf, size_t cap, const char *fmt, ...) {
  va_list ap;
  if (!cap) return;
  va_start(ap, fmt);
  vsnprintf(buf, cap, fmt, ap);
  va_end(ap);
}

/* ---- ground atom states ------------------------------------------------------------------ */

int goap__px_aset_set(const goap_allocator *a, px_aset *s, int32_t pred, const int32_t *args,
                      int n, uint8_t val) {
  int32_t e = goap__px_tset_add(a, &s->atoms, pred, args, n, NULL);
  if (e < 0) return 0;
  if (!goap__grow(a, (void **)&s->truth, &s->cap, (size_t)e + 1, 1)) return 0;
  s->truth[e] = val;
  return 1;
}

int goap__px_aset_holds(const px_aset *s, int32_t pred, const int32_t *args, int n) {
  int32_t e = goap__px_tset_find(&s->atoms, pred, args, n);
  return e >= 0 && s->truth[e];
}

void goap__px_aset_free(const goap_allocator *a, px_aset *s) {
  goap__px_tset_free(a, &s->atoms);
  goap__px_free(a, s->truth, s->cap);
  s->truth = NULL;
  s->cap = 0;
}

goap_status goap__px_text_error(goap_error *d, const char *name, int line, int col,
                                const char *text, size_t len, const char *msg) {
  if (!d) return GOAP_PARSE_ERROR;
  memset(d, 0, sizeof *d);
  d->severity = GOAP_SEVERITY_ERROR;
  d->status = GOAP_PARSE_ERROR;
  goap__px_fmt(d->file, sizeof d->file, "%s", name ? name : "<plan>");
  d->line = line;
  d->col = col;
  goap__px_fmt(d->message, sizeof d->message, "%s", msg);
  size_t i = 0;
  int l = 1;
  while (i < len && l < line) {
    if (text[i] == '\n') ++l;
    ++i;
  }
  size_t o = 0;
  while (i < len && text[i] != '\n' && text[i] != '\r' && o + 1 < sizeof d->source) {
    unsigned c = (unsigned char)text[i++];
    d->source[o++] = (c == '\t' || (c >= 0x20 && c < 0x7F)) ? (char)c : '?';
  }
  d->source[o] = 0;
  return GOAP_PARSE_ERROR;
}
