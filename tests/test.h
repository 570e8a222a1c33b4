/*
 * test.h -- a minimal test harness shared by the C tests.
 *
 * TEST(name) defines a test; CHECK(cond) records a failure without stopping the test;
 * REQUIRE(cond) stops it. main() comes from TEST_MAIN(), which runs every registered test and
 * prints "N passed, N failed" (the closing line CI reads). Tests register themselves through a
 * table built by the TEST_LIST macro in each file, so there is no global constructor magic.
 */
#ifndef GOAP_TEST_H
#define GOAP_TEST_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct test_case {
  const char *name;
  void (*fn)(int *failures);
} test_case;

#define TEST(name) static void test_##name(int *test_failures_)

#define CHECK(cond)                                                                         \
  do {                                                                                      \
    if (!(cond)) {                                                                          \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);            \
      ++*test_failures_;                                                                    \
    }                                                                                       \
  } while (0)

#define REQUIRE(cond)                                                                       \
  do {                                                                                      \
    if (!(cond)) {                                                                          \
      fprintf(stderr, "%s:%d: requirement failed: %s\n", __FILE__, __LINE__, #cond);       \
      ++*test_failures_;                                                                    \
      return;                                                                               \
    }                                                                                       \
  } while (0)

#define CHECK_EQ_INT(a, b)                                                                  \
  do {                                                                                      \
    long long ta_ = (long long)(a), tb_ = (long long)(b);                                   \
    if (ta_ != tb_) {                                                                       \
      fprintf(stderr, "%s:%d: %s == %s failed: %lld != %lld\n", __FILE__, __LINE__, #a, #b, \
              ta_, tb_);                                                                    \
      ++*test_failures_;                                                                    \
    }                                                                                       \
  } while (0)

#define CHECK_NEAR(a, b, eps)                                                               \
  do {                                                                                      \
    double ta_ = (double)(a), tb_ = (double)(b);                                            \
    if (!(fabs(ta_ - tb_) <= (eps))) {                                                      \
      fprintf(stderr, "%s:%d: %s ~= %s failed: %.17g != %.17g\n", __FILE__, __LINE__, #a,   \
              #b, ta_, tb_);                                                                \
      ++*test_failures_;                                                                    \
    }                                                                                       \
  } while (0)

#define CHECK_STR(a, b)                                                                     \
  do {                                                                                      \
    const char *ta_ = (a), *tb_ = (b);                                                      \
    if (!ta_ || !tb_ || strcmp(ta_, tb_) != 0) {                                            \
      fprintf(stderr, "%s:%d: %s == %s failed:\n  got:      \"%s\"\n  expected: \"%s\"\n",   \
              __FILE__, __LINE__, #a, #b, ta_ ? ta_ : "(null)", tb_ ? tb_ : "(null)");       \
      ++*test_failures_;                                                                    \
    }                                                                                       \
  } while (0)

#define TEST_ENTRY(name) {#name, test_##name}

/* Runs the tests of `table`; an optional argv[1] runs only the test of that name. */
#define TEST_MAIN(...)                                                                      \
  int main(int argc, char **argv) {                                                         \
    static const test_case tests_[] = {__VA_ARGS__};                                        \
    int passed = 0, failed = 0;                                                             \
    for (size_t i = 0; i < sizeof tests_ / sizeof tests_[0]; ++i) {                         \
      if (argc > 1 && strcmp(argv[1], tests_[i].name) != 0) continue;                       \
      int f = 0;                                                                            \
      tests_[i].fn(&f);                                                                     \
      if (f) {                                                                              \
        ++failed;                                                                           \
        fprintf(stderr, "FAIL %s\n", tests_[i].name);                                       \
      } else {                                                                              \
        ++passed;                                                                           \
      }                                                                                     \
    }                                                                                       \
    printf("%d passed, %d failed\n", passed, failed);                                       \
    return failed ? 1 : 0;                                                                  \
  }

#endif /* GOAP_TEST_H */
