/*
 * base.h -- the base layer every module is built on (src/base/, not installed): allocation
 * through the caller's goap_allocator, one growth helper, one monotonic clock, one name table
 * and GOAP_ASSERT. The public types it uses (GOAP_API, goap_status, goap_allocator,
 * goap_error) come from goap/goap.h.
 *
 * The objects of src/base/ are compiled into every library (they hold no GOAP_API function, so
 * each shared library keeps its own hidden copy and none exports them). Nothing here prints,
 * keeps mutable global state or allocates except through the allocator it is given.
 *
 * Invariants:
 *  - A zero goap_allocator (NULL, or fn == NULL) means the C library; the size passed when
 *    freeing or resizing is the size the block was allocated with.
 *  - goap__grow never leaves a block half-grown: on failure *p and *cap are untouched; on
 *    success goap__grow_zero has zeroed every element from the old capacity to the new one.
 *  - A name table's cap is 0 or a power of two and count <= cap / 2, so every probe ends at an
 *    empty slot; keys are borrowed (their owners keep them alive) and never freed here.
 *  - goap__now_ns never goes backwards (a monotonic clock, not the wall clock).
 */
#ifndef GOAP_BASE_H
#define GOAP_BASE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "goap/goap.h"

/* ---- goap_error: the one error shape (src/base/error.c) ----------------------------------- */
/* Sets status GOAP_OK and every field empty / 0. e may be NULL. */
void goap__err_clear(goap_error *e);
/* Clears e, then sets status st, the byte offset and the message msg (truncated; NULL or ""
 * gives "failed": the base layer links no core function). Returns st. e may be NULL. */
goap_status goap__err_set(goap_error *e, goap_status st, size_t offset, const char *msg);

/* ---- GOAP_ASSERT: internal invariants ---------------------------------------------------- */
/* On in Debug builds (no NDEBUG) and whenever GOAP_ASSERTS=1 is defined (the sanitizer builds
 * define it); off in Release (NDEBUG) or with GOAP_ASSERTS=0. Off, the condition is not
 * evaluated. A failed assertion calls abort(): the library never prints, a debugger or the
 * sanitizer's report shows where. Only for invariants of the library's own data, never for
 * checks of caller input (those return a status). */
#ifndef GOAP_ASSERTS
#ifdef NDEBUG
#define GOAP_ASSERTS 0
#else
#define GOAP_ASSERTS 1
#endif
#endif
#if GOAP_ASSERTS
#define GOAP_ASSERT(cond) ((cond) ? (void)0 : goap__assert_fail(#cond, __FILE__, __LINE__))
#else
#define GOAP_ASSERT(cond) ((void)sizeof(!(cond)))
#endif
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noreturn))
#endif
void goap__assert_fail(const char *cond, const char *file, int line);

/* ---- allocation --------------------------------------------------------------------------- */
/* a copy of *a with fn filled in (the C library when a is NULL or a->fn is NULL) */
goap_allocator goap__resolve(const goap_allocator *a);
void *goap__realloc(const goap_allocator *a, void *p, size_t old_size, size_t new_size);
/* n == 0 takes one byte (free it with size 0 or 1) */
void *goap__alloc(const goap_allocator *a, size_t size);
void goap__free(const goap_allocator *a, void *p, size_t size);
char *goap__strdup(const goap_allocator *a, const char *s);
void goap__strfree(const goap_allocator *a, char *s);

/* The growth helper. Makes *p, an array of *cap elements of elem (> 0) bytes, hold at least
 * need elements: the capacity doubles from 8 until it is >= need. Returns 1 on success, 0 when
 * out of memory or when the size would overflow size_t, leaving *p and *cap as they were;
 * need <= *cap returns 1 at once. The elements from the old capacity to the new one are zero
 * when zero != 0, and left as the allocator returned them otherwise (callers that fill what
 * they use, such as PDDL grounding, do not pay for the zeroing). */
int goap__grow_ex(const goap_allocator *a, void **p, size_t *cap, size_t need, size_t elem,
                  int zero);
/* The capacity goap__grow would choose for need elements of elem bytes from cap (cap itself
 * when need <= cap), or 0 when it would overflow: for growers that must check a memory limit
 * before they allocate (the planner's). */
size_t goap__grow_cap(size_t cap, size_t need, size_t elem);
/* goap__grow: new elements uninitialised; goap__grow_zero: new elements zero. */
static inline int goap__grow(const goap_allocator *a, void **p, size_t *cap, size_t need,
                             size_t elem) {
  return need <= *cap ? 1 : goap__grow_ex(a, p, cap, need, elem, 0);
}
static inline int goap__grow_zero(const goap_allocator *a, void **p, size_t *cap, size_t need,
                                  size_t elem) {
  return need <= *cap ? 1 : goap__grow_ex(a, p, cap, need, elem, 1);
}

/* ---- time --------------------------------------------------------------------------------- */
/* Nanoseconds of a monotonic clock (CLOCK_MONOTONIC, or C's TIME_MONOTONIC): for budgets and
 * statistics, never for dates. Falls back to TIME_UTC only where neither exists. */
uint64_t goap__now_ns(void);
/* An injectable clock (tests): returns nanoseconds; ctx is its owner's. */
typedef uint64_t (*goap__clock_fn)(void *ctx);
/* Nanoseconds from t0 to t1 of a clock, 0 if it went backwards (an injected clock may). */
static inline uint64_t goap__elapsed_ns(uint64_t t0, uint64_t t1) { return t1 > t0 ? t1 - t0 : 0; }

/* The index of x's lowest set bit; x != 0. */
static inline int goap__lowest_bit(uint64_t x) {
  GOAP_ASSERT(x != 0);
#if defined(__GNUC__) || defined(__clang__)
  return __builtin_ctzll(x);
#else
  int i = 0;
  while (!(x & 1)) {
    x >>= 1;
    ++i;
  }
  return i;
#endif
}

/* ---- name tables: (namespace, bytes) -> id, keys borrowed from their owners ---------------- */
typedef struct goap__name_slot {
  const char *key; /* NULL: empty slot; not NUL-terminated (len bytes) */
  uint32_t len;
  uint32_t hash;   /* goap__names_hash(ns, key, len): rehashing never reads the key */
  int32_t ns;      /* namespace, so one table can hold several kinds of names */
  int32_t id;
} goap__name_slot;

typedef struct goap__names {
  goap__name_slot *slots;
  size_t cap;   /* power of two, or 0 */
  size_t count; /* <= cap / 2 */
} goap__names;

/* FNV-1a over ns, then the bytes (inline: the callers hash in their own loops) */
static inline uint32_t goap__names_hash(int32_t ns, const char *key, size_t len) {
  uint32_t h = (2166136261u ^ (uint32_t)ns) * 16777619u;
  for (size_t i = 0; i < len; ++i) h = (h ^ (unsigned char)key[i]) * 16777619u;
  return h;
}
/* The id of (ns, key[0..len)), or -1. */
int32_t goap__names_find(const goap__names *m, int32_t ns, const char *key, size_t len);
int32_t goap__names_find_h(const goap__names *m, int32_t ns, const char *key, size_t len,
                           uint32_t hash);
/* Inserts a key that is not present (it must outlive the table); 0 when out of memory or when
 * len does not fit 32 bits. _h: with the key's hash given, so a find then a put hash once. */
int goap__names_put(const goap_allocator *a, goap__names *m, int32_t ns, const char *key,
                    size_t len, int32_t id);
int goap__names_put_h(const goap_allocator *a, goap__names *m, int32_t ns, const char *key,
                      size_t len, int32_t id, uint32_t hash);
/* The same for NUL-terminated keys (a NULL key is never found). */
static inline int32_t goap__names_findz(const goap__names *m, int32_t ns, const char *key) {
  return key ? goap__names_find(m, ns, key, strlen(key)) : -1;
}
static inline int goap__names_putz(const goap_allocator *a, goap__names *m, int32_t ns,
                                   const char *key, int32_t id) {
  return goap__names_put(a, m, ns, key, strlen(key), id);
}
/* Makes room for n more keys at once (no rehash while they are put); 0 when out of memory. */
int goap__names_reserve(const goap_allocator *a, goap__names *m, size_t n);
void goap__names_free(const goap_allocator *a, goap__names *m);

#endif /* GOAP_BASE_H */
