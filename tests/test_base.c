/*
 * test_base.c -- the base layer (src/base/): the growth helper, the name table, the monotonic
 * clock, GOAP_ASSERT, and the agent's time budget read from an injected clock (so that a
 * wall-clock jump can neither end nor stretch it).
 */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdint.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/base.h"
#include "goap/agent.h"
#include "runtime/agent_impl.h"
#include "test.h"

/* ---- an allocator that dirties fresh memory and can refuse ---------------------------------- */
typedef struct dirty_alloc {
  int refuse; /* refuse every request */
  int calls;
} dirty_alloc;

static void *dirty_realloc(void *ctx, void *p, size_t old_size, size_t new_size) {
  dirty_alloc *d = (dirty_alloc *)ctx;
  d->calls++;
  if (new_size == 0) {
    free(p);
    return NULL;
  }
  if (d->refuse) return NULL;
  unsigned char *q = (unsigned char *)realloc(p, new_size);
  if (q && new_size > old_size) memset(q + old_size, 0xAB, new_size - old_size);
  return q;
}

TEST(grow_zero_fills_what_it_adds) {
  dirty_alloc d = {0, 0};
  goap_allocator a = {dirty_realloc, &d};
  int32_t *v = NULL;
  size_t cap = 0;
  REQUIRE(goap__grow_zero(&a, (void **)&v, &cap, 3, sizeof *v));
  CHECK_EQ_INT(cap, 8);
  for (size_t i = 0; i < cap; ++i) CHECK_EQ_INT(v[i], 0);
  for (size_t i = 0; i < cap; ++i) v[i] = (int32_t)i + 1;
  REQUIRE(goap__grow_zero(&a, (void **)&v, &cap, 20, sizeof *v));
  CHECK_EQ_INT(cap, 32);
  for (size_t i = 0; i < 8; ++i) CHECK_EQ_INT(v[i], (int32_t)i + 1); /* kept */
  for (size_t i = 8; i < cap; ++i) CHECK_EQ_INT(v[i], 0);             /* zeroed, not 0xAB */
  int calls = d.calls;
  CHECK(goap__grow_zero(&a, (void **)&v, &cap, 32, sizeof *v)); /* enough room: no call */
  CHECK_EQ_INT(d.calls, calls);
  /* goap__grow keeps what it adds as the allocator gave it (no zeroing to pay for) */
  REQUIRE(goap__grow(&a, (void **)&v, &cap, 33, sizeof *v));
  CHECK_EQ_INT(cap, 64);
  for (size_t i = 0; i < 32; ++i) CHECK_EQ_INT(v[i], i < 8 ? (int32_t)i + 1 : 0);
  CHECK_EQ_INT(v[32], (int32_t)0xABABABABu);
  goap__free(&a, v, cap * sizeof *v);
}

TEST(grow_failure_and_overflow_change_nothing) {
  dirty_alloc d = {0, 0};
  goap_allocator a = {dirty_realloc, &d};
  int64_t *v = NULL;
  size_t cap = 0;
  REQUIRE(goap__grow(&a, (void **)&v, &cap, 8, sizeof *v));
  int64_t *before = v;
  d.refuse = 1;
  CHECK(!goap__grow(&a, (void **)&v, &cap, 9, sizeof *v));
  CHECK(v == before);
  CHECK_EQ_INT(cap, 8);
  d.refuse = 0;
  /* the element count doubles past SIZE_MAX / 2, or count * size passes SIZE_MAX */
  int calls = d.calls;
  CHECK(!goap__grow(&a, (void **)&v, &cap, SIZE_MAX, sizeof *v));
  CHECK(!goap__grow(&a, (void **)&v, &cap, SIZE_MAX / 4, sizeof *v));
  CHECK_EQ_INT(d.calls, calls); /* refused before asking the allocator */
  CHECK(v == before);
  CHECK_EQ_INT(cap, 8);
  goap__free(&a, v, cap * sizeof *v);
}

TEST(names_keys_are_bytes_in_namespaces) {
  goap__names m = {NULL, 0, 0};
  const char *text = "fire firewall";
  /* "fire" twice: as a prefix of the text (not NUL-terminated) in two namespaces */
  REQUIRE(goap__names_put(NULL, &m, 0, text, 4, 10));
  REQUIRE(goap__names_put(NULL, &m, 1, text, 4, 11));
  REQUIRE(goap__names_put(NULL, &m, 0, text + 5, 8, 12));
  CHECK_EQ_INT(goap__names_find(&m, 0, "fire", 4), 10);
  CHECK_EQ_INT(goap__names_find(&m, 1, "fire", 4), 11);
  CHECK_EQ_INT(goap__names_find(&m, 2, "fire", 4), -1);
  CHECK_EQ_INT(goap__names_findz(&m, 0, "firewall"), 12);
  CHECK_EQ_INT(goap__names_findz(&m, 0, "firewal"), -1);
  CHECK_EQ_INT(goap__names_findz(&m, 0, NULL), -1);
  CHECK_EQ_INT(goap__names_find(&m, 0, "fir", 3), -1);
  /* many keys: the table grows and keeps count <= cap / 2 */
  static char keys[1000][8];
  for (int i = 0; i < 1000; ++i) {
    snprintf(keys[i], sizeof keys[i], "k%d", i);
    REQUIRE(goap__names_putz(NULL, &m, 5, keys[i], i));
  }
  CHECK_EQ_INT(m.count, 1003);
  CHECK(m.cap >= 2 * m.count && (m.cap & (m.cap - 1)) == 0);
  for (int i = 0; i < 1000; ++i) CHECK_EQ_INT(goap__names_findz(&m, 5, keys[i]), i);
  CHECK_EQ_INT(goap__names_findz(&m, 5, "k1000"), -1);
  size_t cap = m.cap;
  REQUIRE(goap__names_reserve(NULL, &m, cap)); /* room for cap more: grown once, now */
  CHECK(m.cap >= 2 * (m.count + cap));
  goap__names_free(NULL, &m);
  CHECK(m.slots == NULL && m.cap == 0 && m.count == 0);
}

TEST(names_out_of_memory_keeps_the_table) {
  dirty_alloc d = {0, 0};
  goap_allocator a = {dirty_realloc, &d};
  goap__names m = {NULL, 0, 0};
  static char keys[8][4];
  int i = 0;
  for (; i < 8; ++i) {
    snprintf(keys[i], sizeof keys[i], "n%d", i);
    REQUIRE(goap__names_putz(&a, &m, 0, keys[i], i));
  }
  size_t cap = m.cap;
  d.refuse = 1;
  /* fill up to the next growth, which is refused */
  static char more[64][5];
  int put = 0;
  for (int k = 0; k < 64; ++k) {
    snprintf(more[k], sizeof more[k], "m%d", k);
    if (!goap__names_putz(&a, &m, 0, more[k], 100 + k)) break;
    ++put;
  }
  CHECK_EQ_INT(m.cap, cap);
  CHECK_EQ_INT(m.count, 8 + put);
  for (int k = 0; k < 8; ++k) CHECK_EQ_INT(goap__names_findz(&m, 0, keys[k]), k);
  d.refuse = 0;
  goap__names_free(&a, &m);
}

static uint64_t mono_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

TEST(clock_is_monotonic) {
  /* goap__now_ns reads CLOCK_MONOTONIC: it lies between two readings of it (a wall clock,
   * seconds since 1970, would not) */
  uint64_t a = mono_ns();
  uint64_t t = goap__now_ns();
  uint64_t b = mono_ns();
  CHECK(a <= t && t <= b);
  CHECK_EQ_INT(goap__elapsed_ns(100, 250), 150);
  CHECK_EQ_INT(goap__elapsed_ns(250, 100), 0); /* backwards: nothing elapsed */
}

/* ---- GOAP_ASSERT ------------------------------------------------------------------------ */
/* One of the library's own assertions (a name put with a hash that is not its key's, which
 * goap__names_put_h checks) in a child process: it aborts where the build enables assertions
 * (Debug, sanitizers: GOAP_TEST_ASSERTS=1), and is compiled out in Release, where the put
 * simply succeeds. */
TEST(assertions_follow_the_build) {
  fflush(NULL);
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    goap__names m = {NULL, 0, 0};
    int ok = goap__names_put_h(NULL, &m, 0, "key", 3, 1, goap__names_hash(0, "key", 3) + 1);
    goap__names_free(NULL, &m);
    _exit(ok == 1 ? 0 : 3);
  }
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
#if GOAP_TEST_ASSERTS
  CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
#else
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
#endif
}

/* ---- the agent's time budget ------------------------------------------------------------ */
enum { STEPS = 2000 };

typedef struct fake_clock {
  uint64_t now, step; /* each read returns now, then adds step */
  uint64_t first;     /* the first read returns this instead (0: now) */
  int reads;
} fake_clock;

static uint64_t fake_now(void *ctx) {
  fake_clock *c = (fake_clock *)ctx;
  uint64_t t = c->reads == 0 && c->first ? c->first : c->now;
  if (!(c->reads == 0 && c->first)) c->now += c->step;
  c->reads++;
  return t;
}

/* One int counter and one action adding 1: reaching STEPS expands STEPS nodes at least. */
static goap_domain *counter_domain(void) {
  goap_builder *b = NULL;
  goap_builder_create(NULL, &b);
  goap_var_desc v = {0};
  v.name = "n";
  v.type = GOAP_INT;
  v.lo = 0;
  v.hi = STEPS;
  int id = -1;
  goap_effect inc = {0, GOAP_ADD, 1};
  goap_action_desc act = {0};
  act.name = "inc";
  act.cost = 1;
  act.eff = &inc;
  act.eff_count = 1;
  goap_cond want = {0, GOAP_EQ, STEPS};
  goap_goal_desc goal = {0};
  goal.name = "count";
  goal.priority = 1;
  goal.want = &want;
  goal.want_count = 1;
  goap_domain *d = NULL;
  if (goap_builder_add_var(b, &v, &id) != GOAP_OK || goap_builder_add_action(b, &act, NULL) ||
      goap_builder_add_goal(b, &goal, NULL) || goap_builder_build(b, &d))
    d = NULL;
  goap_builder_destroy(b);
  return d;
}

/* Runs one update of a fresh agent (5 ms budget per update) on clock c; the expansions. */
static uint64_t one_update(const goap_agent_type *t, fake_clock *c, int *planning) {
  goap_agent_desc ad = {0};
  ad.type = t;
  goap_agent *ag = NULL;
  if (goap_agent_create(&ad, &ag, NULL) != GOAP_OK) return UINT64_MAX;
  goap__agent_set_clock(ag, fake_now, c);
  goap_agent_update(ag, 0.1);
  *planning = goap_agent_is_planning(ag);
  uint64_t expanded = goap_agent_get_stats(ag).expanded;
  goap_agent_destroy(ag);
  return expanded;
}

TEST(agent_budget_reads_the_injected_clock) {
  goap_domain *d = counter_domain();
  REQUIRE(d);
  goap_agent_type_desc td = {0};
  td.expansions_per_update = 1000000;
  td.planning_ms_per_update = 5.0;
  goap_agent_type *t = NULL;
  REQUIRE(goap_agent_type_create(d, &td, &t, NULL) == GOAP_OK);
  int planning = -1;

  /* time stands still: the budget never ends the search; the plan is found in one update */
  fake_clock frozen = {1000, 0, 0, 0};
  uint64_t e = one_update(t, &frozen, &planning);
  CHECK(e >= STEPS && e != UINT64_MAX);
  CHECK_EQ_INT(planning, 0);
  CHECK(frozen.reads >= 2);

  /* 1 ms per read: the start, then a check before each 256-expansion slice; the fifth check
   * sees 5 ms and stops the update after four slices */
  fake_clock ms = {0, 1000000, 0, 0};
  e = one_update(t, &ms, &planning);
  CHECK_EQ_INT(e, 4 * 256);
  CHECK_EQ_INT(planning, 1);

  /* the clock jumps back an hour after the budget started (a wall clock being corrected): no
   * time has passed, so the search runs on to its plan (an unsigned difference would read
   * as centuries and end the update before its first expansion) */
  fake_clock back = {1000, 0, 3600ull * 1000000000ull, 0};
  e = one_update(t, &back, &planning);
  CHECK(e >= STEPS && e != UINT64_MAX);
  CHECK_EQ_INT(planning, 0);

  /* and forward by an hour: the budget is over at the first check, nothing expanded */
  fake_clock fwd = {3600ull * 1000000000ull, 0, 1000, 0};
  e = one_update(t, &fwd, &planning);
  CHECK_EQ_INT(e, 0);
  CHECK_EQ_INT(planning, 1);

  goap_agent_type_destroy(t);
  goap_domain_destroy(d);
}

TEST_MAIN(TEST_ENTRY(grow_zero_fills_what_it_adds),
          TEST_ENTRY(grow_failure_and_overflow_change_nothing),
          TEST_ENTRY(names_keys_are_bytes_in_namespaces),
          TEST_ENTRY(names_out_of_memory_keeps_the_table), TEST_ENTRY(clock_is_monotonic),
          TEST_ENTRY(assertions_follow_the_build),
          TEST_ENTRY(agent_budget_reads_the_injected_clock))
