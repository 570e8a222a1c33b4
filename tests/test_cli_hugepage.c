/*
 * test_cli_hugepage.c -- the `goap` tool's huge-page arena (tools/goap/hugepage_alloc.c): size classes,
 * block contents through random allocate/resize/free sequences, reuse of freed blocks, 2 MB
 * alignment and huge-page advice, large blocks moved by mremap, refusals, and a PDDL task and
 * planner run on it with the same result as on the C library.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hugepage_alloc.h"
#include "goap/goap.h"
#include "goap/pddl.h"
#include "test.h"

#define MB ((size_t)1024 * 1024)

TEST(size_classes_are_tight) {
  int prev = -1;
  for (size_t t = 1; t <= CLI_HUGEPAGE_SMALL_MAX; t++) {
    int c = cli_hugepage_class(t);
    if (c < 0 || c >= CLI_HUGEPAGE_CLASSES) {
      fprintf(stderr, "total %zu: class %d\n", t, c);
      CHECK(0);
      return;
    }
    size_t span = cli_hugepage_class_size(c);
    /* holds the block, is the smallest class that does, keeps 16-byte alignment, and wastes
     * at most a quarter above 64 bytes */
    if (span < t || (c > 0 && cli_hugepage_class_size(c - 1) >= t) || span % 16 != 0 ||
        (t > 64 && span - t > span / 4) || c < prev) {
      fprintf(stderr, "total %zu: class %d spans %zu\n", t, c, span);
      CHECK(0);
      return;
    }
    prev = c;
  }
  CHECK_EQ_INT(cli_hugepage_class(CLI_HUGEPAGE_SMALL_MAX), CLI_HUGEPAGE_CLASSES - 1);
  CHECK_EQ_INT(cli_hugepage_class_size(CLI_HUGEPAGE_CLASSES - 1), CLI_HUGEPAGE_SMALL_MAX);
}

static void *arena_alloc(cli_hugepage *a, void *p, size_t old, size_t n) {
  return cli_hugepage_realloc(a, p, old, n);
}

static unsigned char pattern(size_t slot, unsigned gen, size_t i) {
  return (unsigned char)(slot * 31u + gen * 7u + i * 13u + (i >> 8));
}

static int intact(const unsigned char *p, size_t n, size_t slot, unsigned gen) {
  for (size_t i = 0; i < n; i++)
    if (p[i] != pattern(slot, gen, i)) return 0;
  return 1;
}

static void fill(unsigned char *p, size_t from, size_t n, size_t slot, unsigned gen) {
  for (size_t i = from; i < n; i++) p[i] = pattern(slot, gen, i);
}

TEST(random_sequences_keep_contents) {
  enum { SLOTS = 64, OPS = 6000 };
  cli_hugepage a;
  cli_hugepage_init(&a);
  unsigned char *ptr[SLOTS] = {0};
  size_t size[SLOTS] = {0};
  unsigned gen[SLOTS] = {0};
  uint64_t rng = 0x9e3779b97f4a7c15u;
  int bad = 0;
  for (int op = 0; op < OPS && !bad; op++) {
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    size_t s = (size_t)(rng % SLOTS);
    unsigned kind = (unsigned)(rng >> 20) % 100;
    size_t n;
    if (kind < 70) n = 1 + (size_t)(rng >> 32) % 2000;               /* small */
    else if (kind < 93) n = 2000 + (size_t)(rng >> 32) % (300 * 1024); /* up to the limit */
    else n = CLI_HUGEPAGE_SMALL_MAX + (size_t)(rng >> 32) % (5 * MB);     /* large */
    if (ptr[s] && !intact(ptr[s], size[s], s, gen[s])) bad = 1;
    if ((rng >> 40) % 4 == 0 && ptr[s]) { /* free */
      CHECK(arena_alloc(&a, ptr[s], size[s], 0) == NULL);
      ptr[s] = NULL;
      size[s] = 0;
      continue;
    }
    unsigned char *q = arena_alloc(&a, ptr[s], size[s], n);
    REQUIRE(q != NULL);
    if (((uintptr_t)q & 15u) != 0) bad = 2;
    size_t keep = size[s] < n ? size[s] : n;
    if (!intact(q, keep, s, gen[s])) bad = 3;
    fill(q, keep, n, s, gen[s]);
    ptr[s] = q;
    size[s] = n;
  }
  CHECK_EQ_INT(bad, 0);
  for (size_t s = 0; s < SLOTS; s++) {
    if (ptr[s]) CHECK(intact(ptr[s], size[s], s, gen[s]));
    arena_alloc(&a, ptr[s], size[s], 0);
  }
  /* every large block went back to the system; only whole chunks remain */
  CHECK(a.mapped % (8 * MB) == 0);
  cli_hugepage_fini(&a);
  CHECK_EQ_INT(a.mapped, 0);
}

TEST(freed_blocks_are_reused_by_class) {
  cli_hugepage a;
  cli_hugepage_init(&a);
  void *p = arena_alloc(&a, NULL, 0, 100);
  void *big = arena_alloc(&a, NULL, 0, 1000);
  REQUIRE(p && big);
  arena_alloc(&a, p, 100, 0);
  arena_alloc(&a, big, 1000, 0);
  void *q = arena_alloc(&a, NULL, 0, 105); /* same class as 100 (128 bytes): the freed block */
  void *r = arena_alloc(&a, NULL, 0, 1000);
  CHECK(q == p);
  CHECK(r == big);
  /* growing within the class stays in place; across classes it moves */
  CHECK(arena_alloc(&a, q, 105, 112) == q);
  void *moved = arena_alloc(&a, q, 112, 5000);
  CHECK(moved != NULL && moved != q);
  CHECK_EQ_INT(a.maps, 1); /* all of it from one chunk */
  cli_hugepage_fini(&a);
}

static int thp_available(void) {
  FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
  if (!f) return 0;
  char line[128] = {0};
  int ok = fgets(line, sizeof line, f) != NULL && strstr(line, "[never]") == NULL;
  fclose(f);
  return ok;
}

TEST(mappings_are_huge_page_aligned_and_advised) {
  cli_hugepage a;
  cli_hugepage_init(&a);
  unsigned char *s = arena_alloc(&a, NULL, 0, 24);
  unsigned char *l = arena_alloc(&a, NULL, 0, 3 * MB);
  REQUIRE(s && l);
  /* the first small block sits behind the chunk link and its header; a large block behind
   * its header, at the start of its own mapping */
  CHECK_EQ_INT((uintptr_t)(s - 32) % (2 * MB), 0);
  CHECK_EQ_INT((uintptr_t)(l - 16) % (2 * MB), 0);
  CHECK_EQ_INT(a.mapped, 8 * MB + 4 * MB);
  if (thp_available()) CHECK_EQ_INT(a.huge_advised, a.mapped);
  else fprintf(stderr, "  (no transparent huge pages here: advice not checked)\n");
  memset(l, 0xab, 3 * MB);
  /* growing a large block moves its pages: same contents, new aligned range, old one gone */
  unsigned char *g = arena_alloc(&a, l, 3 * MB, 9 * MB);
  REQUIRE(g != NULL);
  CHECK_EQ_INT((uintptr_t)(g - 16) % (2 * MB), 0);
  CHECK(g[0] == 0xab && g[3 * MB - 1] == 0xab);
  CHECK_EQ_INT(a.mapped, 8 * MB + 10 * MB);
  /* shrinking within the mapping stays; shrinking to a small size moves into a chunk */
  CHECK(arena_alloc(&a, g, 9 * MB, 1 * MB) == g);
  unsigned char *sm = arena_alloc(&a, g, 1 * MB, 100);
  REQUIRE(sm != NULL);
  CHECK(sm[0] == 0xab && sm[99] == 0xab);
  CHECK_EQ_INT(a.mapped, 8 * MB);
  cli_hugepage_fini(&a);
  CHECK_EQ_INT(a.mapped, 0);
}

TEST(refusals_leave_blocks_valid) {
  cli_hugepage a;
  cli_hugepage_init(&a);
  unsigned char *p = arena_alloc(&a, NULL, 0, 64);
  REQUIRE(p != NULL);
  memset(p, 7, 64);
  CHECK(arena_alloc(&a, NULL, 0, SIZE_MAX - 8) == NULL);   /* size overflow */
  CHECK(arena_alloc(&a, NULL, 0, SIZE_MAX / 2) == NULL);   /* no such mapping */
  CHECK(arena_alloc(&a, p, 64, SIZE_MAX / 2) == NULL);     /* resize refused ... */
  CHECK(p[0] == 7 && p[63] == 7);                          /* ... and the block is intact */
  CHECK(arena_alloc(&a, NULL, 0, 0) == NULL);               /* nothing asked, nothing given */
  cli_hugepage_fini(&a);
}

/* A PDDL task and an optimal search on the arena: the same plan cost and length as on the C
 * library, and the arena did serve them. */
TEST(pddl_task_and_planner_on_the_arena) {
  char dp[512], pp[512];
  snprintf(dp, sizeof dp, "%s/pddl/gripper.pddl", GOAP_TESTS_DIR);
  snprintf(pp, sizeof pp, "%s/pddl/gripper-3.pddl", GOAP_TESTS_DIR);
  double cost[2] = {-1, -1};
  int len[2] = {-1, -1};
  for (int use = 0; use < 2; use++) {
    cli_hugepage a;
    cli_hugepage_init(&a);
    goap_pddl_options opt;
    memset(&opt, 0, sizeof opt);
    if (use) {
      opt.allocator.fn = cli_hugepage_realloc;
      opt.allocator.ctx = &a;
    }
    goap_pddl_task *t = NULL;
    goap_error err;
    REQUIRE(goap_pddl_load(dp, pp, &opt, &t, &err) == GOAP_OK);
    goap_planner_desc pd;
    memset(&pd, 0, sizeof pd);
    pd.allocator = opt.allocator;
    goap_planner *p = NULL;
    REQUIRE(goap_planner_create(goap_pddl_domain(t), &pd, &p) == GOAP_OK);
    goap_request rq;
    memset(&rq, 0, sizeof rq);
    rq.start = goap_pddl_start(t);
    rq.want = goap_pddl_goal(t, &rq.want_count);
    rq.search = GOAP_SEARCH_ASTAR;
    rq.heuristic = GOAP_H_LMCUT;
    int32_t plan[64];
    goap_result r;
    memset(&r, 0, sizeof r);
    r.plan = plan;
    r.plan_capacity = 64;
    CHECK_EQ_INT(goap_plan(p, &rq, &r), GOAP_OK);
    cost[use] = r.cost;
    len[use] = r.plan_length;
    if (use) CHECK(a.mapped > 0);
    goap_planner_destroy(p);
    goap_pddl_destroy(t);
    cli_hugepage_fini(&a);
  }
  CHECK(cost[0] > 0);
  CHECK_NEAR(cost[1], cost[0], 0);
  CHECK_EQ_INT(len[1], len[0]);
}

TEST_MAIN(TEST_ENTRY(size_classes_are_tight), TEST_ENTRY(random_sequences_keep_contents),
          TEST_ENTRY(freed_blocks_are_reused_by_class),
          TEST_ENTRY(mappings_are_huge_page_aligned_and_advised),
          TEST_ENTRY(refusals_leave_blocks_valid), TEST_ENTRY(pddl_task_and_planner_on_the_arena))
