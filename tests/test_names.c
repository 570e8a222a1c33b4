/*
 * test_names.c -- the name tables behind loading: base's goap__names (each slot keeps its
 * key's hash; goap__names_reserve sizes a table once) and the PDDL symbol table (names packed
 * in chunks, indexed by base's table). Many keys (through many growths and chunk
 * boundaries), near-identical keys, absent keys, and pointers that must stay valid.
 */
#include <stdio.h>
#include <string.h>

#include "core/core_internal.h"
#include "pddl/pddl_internal.h"
#include "test.h"

#define NKEYS 5000

static char keys[NKEYS][32];

static void make_keys(void) {
  for (int i = 0; i < NKEYS; ++i) snprintf(keys[i], sizeof keys[i], "move r%d w%d", i % 71, i);
}

TEST(names_put_find_through_growth) {
  goap_allocator a = {0};
  a.fn = goap_libc_realloc;
  goap__names m;
  memset(&m, 0, sizeof m);
  make_keys();
  for (int i = 0; i < NKEYS; ++i) {
    REQUIRE(goap__names_findz(&m, 0, keys[i]) == -1);
    size_t len = strlen(keys[i]);
    uint32_t h = goap__names_hash(0, keys[i], len);
    REQUIRE(goap__names_find_h(&m, 0, keys[i], len, h) == -1);
    REQUIRE(goap__names_put_h(&a, &m, 0, keys[i], len, i, h));
  }
  CHECK(m.count == NKEYS);
  CHECK(m.count * 2 <= m.cap);
  for (int i = 0; i < NKEYS; ++i) CHECK(goap__names_findz(&m, 0, keys[i]) == i);
  CHECK(goap__names_findz(&m, 0, "move r0 w5000") == -1);
  CHECK(goap__names_findz(&m, 0, "move r0 w") == -1);
  CHECK(goap__names_findz(&m, 0, "") == -1);
  goap__names_free(&a, &m);
  CHECK(m.cap == 0 && m.slots == NULL);
}

TEST(names_reserve_sizes_once) {
  goap_allocator a = {0};
  a.fn = goap_libc_realloc;
  goap__names m;
  memset(&m, 0, sizeof m);
  make_keys();
  REQUIRE(goap__names_reserve(&a, &m, NKEYS));
  size_t cap = m.cap;
  const goap__name_slot *slots = m.slots;
  CHECK(cap >= 2 * NKEYS && cap < 4 * NKEYS);
  for (int i = 0; i < NKEYS; ++i) REQUIRE(goap__names_putz(&a, &m, 0, keys[i], i));
  CHECK(m.cap == cap && m.slots == slots); /* no growth while the reserved keys went in */
  for (int i = NKEYS - 1; i >= 0; --i) CHECK(goap__names_findz(&m, 0, keys[i]) == i);
  CHECK(goap__names_reserve(&a, &m, 0)); /* nothing to do */
  CHECK(m.cap == cap);
  REQUIRE(goap__names_reserve(&a, &m, NKEYS)); /* grows, keeping every key */
  CHECK(m.cap > cap);
  for (int i = 0; i < NKEYS; ++i) CHECK(goap__names_findz(&m, 0, keys[i]) == i);
  goap__names_free(&a, &m);
}

TEST(pddl_symbols_chunks_and_case) {
  goap_allocator a = {0};
  a.fn = goap_libc_realloc;
  goap__px_syms s;
  memset(&s, 0, sizeof s);
  make_keys();
  /* names far over one 4 KiB chunk, and one longer than a chunk */
  char big[PX_MAX_NAME + 1];
  memset(big, 'q', PX_MAX_NAME);
  big[PX_MAX_NAME] = 0;
  const char *first = NULL;
  for (int i = 0; i < NKEYS; ++i) {
    int32_t id = goap__px_sym_intern(&a, &s, keys[i], strlen(keys[i]));
    REQUIRE(id == i);
    if (i == 0) first = s.name[0];
  }
  for (int r = 0; r < 8; ++r) {
    big[0] = (char)('a' + r);
    REQUIRE(goap__px_sym_intern(&a, &s, big, PX_MAX_NAME) == NKEYS + r);
  }
  CHECK(s.name[0] == first); /* names never move */
  CHECK(strcmp(first, "move r0 w0") == 0);
  for (int i = 0; i < NKEYS; ++i) {
    CHECK(strcmp(s.name[i], keys[i]) == 0);
    /* upper case finds the lower-cased symbol */
    char up[32];
    size_t n = strlen(keys[i]);
    for (size_t k = 0; k <= n; ++k)
      up[k] = (char)(keys[i][k] >= 'a' && keys[i][k] <= 'z' ? keys[i][k] - 32 : keys[i][k]);
    CHECK(goap__px_sym_intern(&a, &s, up, n) == i);
    CHECK(goap__px_sym_find(&s, keys[i]) == i);
  }
  big[0] = 'c';
  CHECK(goap__px_sym_find(&s, big) == NKEYS + 2);
  CHECK(strlen(s.name[NKEYS + 2]) == PX_MAX_NAME);
  CHECK(goap__px_sym_find(&s, "move r0 w5000") == -1);
  CHECK(s.n == (size_t)NKEYS + 8);
  CHECK(s.index.count == s.n); /* base's name table indexes them, each once */
  goap__px_syms_free(&a, &s);
  CHECK(s.n == 0 && s.chunks == NULL);
}

TEST_MAIN(TEST_ENTRY(names_put_find_through_growth), TEST_ENTRY(names_reserve_sizes_once),
          TEST_ENTRY(pddl_symbols_chunks_and_case))
