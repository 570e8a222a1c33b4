/*
 * test_file_alloc.c -- allocation-failure injection for the `.goap` loader.
 *
 * The tests' instrumented allocator (alloc_hook.h) checks the old_size the library passes
 * back and fails the Nth allocation, either once or from then on. For N = 1, 2, ... until
 * the load succeeds, every failing run must return GOAP_OUT_OF_MEMORY
 * with *out == NULL and a diagnostic saying so, free everything it allocated (0 bytes
 * outstanding) and never pass a wrong size; the successful run's file, once destroyed, must
 * leave 0 bytes outstanding too. Run under -DGOAP_SANITIZE=ON this also proves there is no
 * crash and no leak on any failure path.
 */
#include <goap/file.h>
#include <goap/goap.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc_hook.h"
#include "test.h"

static void ta_reset(test_alloc *ta, size_t fail_at, int fail_after) {
  memset(ta, 0, sizeof *ta);
  ta->fail_at = fail_at;
  ta->fail_after = fail_after;
}

/* Exercises every part of the loader: enums, ints, all blocks, scenarios with forward
 * references, and warnings (so the analysis allocates too). */
static const char text[] =
    "domain soldier\n"
    "var in_b: bool\n"
    "var has_ammo: bool\n"
    "var loaded: bool\n"
    "var target_dead: bool\n"
    "var door_stuck: bool\n"
    "var kick_failed: bool\n"
    "var armory_empty: bool\n"
    "var unused: bool\n"
    "var ammo: int 0..30 = 2 shared\n"
    "var stance: enum {standing, crouched, prone, a1, a2, a3, a4, a5, a6, a7, a8} = crouched\n"
    "scenario early\n"
    "  pursue kill_enemy\n"
    "  given door_stuck, stance = prone, ammo = 3\n"
    "  given kick_failed\n"
    "  expect plan get_ammo load_magazine jump_window shoot\n"
    "action get_ammo\n"
    "  pre !armory_empty\n"
    "  eff has_ammo\n"
    "action load_magazine\n"
    "  pre has_ammo, ammo >= 1\n"
    "  eff loaded, !has_ammo, ammo -= 1\n"
    "action open_door\n"
    "  pre !door_stuck\n"
    "  eff in_b, stance = standing\n"
    "action kick_door\n"
    "  cost 3\n"
    "  pre !kick_failed, stance != prone\n"
    "  eff in_b\n"
    "action jump_window\n"
    "  cost 5\n"
    "  eff in_b\n"
    "action shoot\n"
    "  pre in_b, loaded\n"
    "  eff target_dead\n"
    "action never\n"
    "  pre stance == a8\n"
    "  eff target_dead\n"
    "goal kill_enemy\n"
    "  priority 10\n"
    "  want target_dead\n"
    "goal lie_down\n"
    "  want stance == prone\n"
    "scenario default\n"
    "  pursue kill_enemy\n"
    "  expect cost 4\n"
    "scenario wants\n"
    "  want target_dead, ammo < 3\n"
    "  expect no plan\n";

/* Fails allocation N (once or from then on) for N = 1.. until the parse succeeds. */
static void run_injection(int *test_failures_, int fail_after) {
  test_alloc fa;
  goap_allocator a;
  size_t n, total = 0;
  int succeeded = 0;
  memset(&fa, 0, sizeof fa);
  a = test_alloc_hook(&fa);
  /* how many allocations a clean run makes */
  {
    goap_file *f = NULL;
    goap_error err;
    ta_reset(&fa, 0, 0);
    REQUIRE(goap_file_parse("t.goap", text, sizeof text - 1, &a, &f, &err) == GOAP_OK);
    total = fa.calls;
    CHECK(total > 10);
    CHECK_EQ_INT(goap_file_warnings(f, NULL, 0), 3);
    goap_file_destroy(f);
    CHECK_EQ_INT(fa.outstanding, 0);
    CHECK_EQ_INT(fa.live, 0);
  }
  for (n = 1; n <= total + 1 && !succeeded; ++n) {
    goap_file *f = (goap_file *)&fa; /* must become NULL on failure */
    goap_error err;
    goap_status st;
    ta_reset(&fa, n, fail_after);
    memset(&err, 0, sizeof err);
    st = goap_file_parse("t.goap", text, sizeof text - 1, &a, &f, &err);
    if (st == GOAP_OK) {
      succeeded = 1;
      CHECK(f != NULL);
      CHECK_EQ_INT(fa.injected, 0); /* success only once N is past every allocation */
      CHECK(n > total);
      CHECK_EQ_INT(goap_file_scenario_count(f), 3);
      goap_file_destroy(f);
    } else {
      if (st != GOAP_OUT_OF_MEMORY)
        fprintf(stderr, "N=%zu: %s %d:%d %s\n", n, goap_status_name(st), err.line, err.col,
                err.message);
      CHECK_EQ_INT(st, GOAP_OUT_OF_MEMORY);
      CHECK(f == NULL);
      CHECK_EQ_INT(err.status, GOAP_OUT_OF_MEMORY);
      CHECK_STR(err.message, "out of memory");
      CHECK(fa.injected >= 1);
    }
    if (fa.outstanding != 0) fprintf(stderr, "N=%zu: %zu bytes leaked\n", n, fa.outstanding);
    CHECK_EQ_INT(fa.outstanding, 0);
    CHECK_EQ_INT(fa.live, 0);
    CHECK_EQ_INT(fa.bad_old_size, 0);
    CHECK_EQ_INT(fa.unknown_ptr, 0);
  }
  CHECK(succeeded);
}

TEST(fail_nth_once) { run_injection(test_failures_, 0); }
TEST(fail_nth_and_after) { run_injection(test_failures_, 1); }

/* A file with an error near its end: each run fails with OOM or with that error, never
 * anything else, and leaks nothing. */
TEST(fail_nth_with_parse_error) {
  static const char bad[] =
      "var a: bool\nvar b: enum {x, y}\naction p\n  pre a\n  eff b = y\n"
      "goal g\n  want b == y\nscenario s\n  pursue g\n  expect plan p q\n";
  test_alloc fa;
  goap_allocator a;
  size_t n;
  int saw_error = 0;
  memset(&fa, 0, sizeof fa);
  a = test_alloc_hook(&fa);
  for (n = 1; n < 400 && !saw_error; ++n) {
    goap_file *f = NULL;
    goap_error err;
    goap_status st;
    ta_reset(&fa, n, 0);
    st = goap_file_parse("t.goap", bad, sizeof bad - 1, &a, &f, &err);
    CHECK(f == NULL);
    CHECK(st == GOAP_OUT_OF_MEMORY || st == GOAP_NOT_FOUND);
    if (st == GOAP_NOT_FOUND) {
      saw_error = 1;
      CHECK_EQ_INT(err.line, 10);
      CHECK_EQ_INT(err.col, 17);
      CHECK_STR(err.message, "unknown action 'q'");
    }
    CHECK_EQ_INT(fa.outstanding, 0);
    CHECK_EQ_INT(fa.bad_old_size, 0);
  }
  CHECK(saw_error);
}

TEST(fail_in_load) {
  test_alloc fa;
  goap_allocator a;
  size_t n;
  int ok = 0;
  memset(&fa, 0, sizeof fa);
  a = test_alloc_hook(&fa);
  for (n = 1; n < 2000 && !ok; ++n) {
    goap_file *f = NULL;
    goap_error err;
    goap_status st;
    ta_reset(&fa, n, 0);
    st = goap_file_load(GOAP_EXAMPLES_DIR "/soldier.goap", &a, &f, &err);
    if (st == GOAP_OK) {
      ok = 1;
      CHECK_EQ_INT(goap_file_scenario_count(f), 5);
      goap_file_destroy(f);
    } else {
      CHECK_EQ_INT(st, GOAP_OUT_OF_MEMORY);
      CHECK(f == NULL);
      CHECK_STR(err.file, GOAP_EXAMPLES_DIR "/soldier.goap");
    }
    CHECK_EQ_INT(fa.outstanding, 0);
    CHECK_EQ_INT(fa.bad_old_size, 0);
  }
  CHECK(ok);
}

/* Parsing condition and assignment lists, formatting diagnostics and reading warnings never
 * allocate. */
TEST(no_allocation_after_load) {
  test_alloc fa;
  goap_allocator a;
  goap_file *f = NULL;
  goap_error err, w[4];
  goap_cond c[4];
  goap_effect e[4];
  char buf[1024];
  int n = 0;
  memset(&fa, 0, sizeof fa);
  a = test_alloc_hook(&fa);
  REQUIRE(goap_file_parse("t.goap", text, sizeof text - 1, &a, &f, &err) == GOAP_OK);
  size_t before = fa.calls;
  CHECK_EQ_INT(goap_parse_conds(goap_file_domain(f), "w", "in_b, ammo >= 2", c, 4, &n, &err),
               GOAP_OK);
  CHECK_EQ_INT(goap_parse_assignments(goap_file_domain(f), "g", "stance = a3", e, 4, &n, &err),
               GOAP_OK);
  CHECK_EQ_INT(goap_parse_conds(goap_file_domain(f), "w", "amo", c, 4, &n, &err),
               GOAP_NOT_FOUND);
  CHECK_EQ_INT(goap_file_warnings(f, w, 4), 3);
  CHECK(goap_error_format(&w[0], buf, sizeof buf) > 0);
  CHECK_EQ_INT(fa.calls - before, 0);
  goap_file_destroy(f);
  CHECK_EQ_INT(fa.outstanding, 0);
}

TEST_MAIN(TEST_ENTRY(fail_nth_once), TEST_ENTRY(fail_nth_and_after),
          TEST_ENTRY(fail_nth_with_parse_error), TEST_ENTRY(fail_in_load),
          TEST_ENTRY(no_allocation_after_load))
