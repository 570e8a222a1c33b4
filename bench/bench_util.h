/*
 * bench_util.h -- the benchmarks' clocks and medians, shared by the bench programs.
 *
 * The includer defines _POSIX_C_SOURCE (>= 199309L) before any system header, for
 * clock_gettime. Wall times come from CLOCK_MONOTONIC; the CPU clocks exclude the time a
 * thread or process waits for a core (the machine is shared). bench_median sorts its array.
 */
#ifndef GOAP_BENCH_UTIL_H
#define GOAP_BENCH_UTIL_H

#include <stddef.h>
#include <stdlib.h>
#include <time.h>

static inline double bench_clock_ns(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* wall clock */
static inline double bench_now_ns(void) { return bench_clock_ns(CLOCK_MONOTONIC); }
static inline double bench_now_us(void) { return bench_now_ns() / 1e3; }
static inline double bench_now_ms(void) { return bench_now_ns() / 1e6; }
static inline double bench_now_s(void) { return bench_now_ns() / 1e9; }

static inline int bench_cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The median of v[0..n) (the mean of the two middle values when n is even; 0 when n <= 0).
 * Sorts v. */
static inline double bench_median(double *v, long n) {
  if (n <= 0) return 0.0;
  qsort(v, (size_t)n, sizeof *v, bench_cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

#endif /* GOAP_BENCH_UTIL_H */
