/*
 * clock.c -- the one clock of the library: monotonic nanoseconds for budgets and statistics.
 *
 * Invariants: goap__now_ns never goes backwards where the system has a monotonic clock
 * (CLOCK_MONOTONIC on POSIX systems, C23's TIME_MONOTONIC elsewhere); only a system with
 * neither falls back to TIME_UTC, the wall clock. No state is kept.
 */
#define _POSIX_C_SOURCE 200809L
#include <time.h>

#include "base.h"

uint64_t goap__now_ns(void) {
  struct timespec ts;
#if defined(CLOCK_MONOTONIC)
  clock_gettime(CLOCK_MONOTONIC, &ts);
#elif defined(TIME_MONOTONIC)
  timespec_get(&ts, TIME_MONOTONIC);
#else
  timespec_get(&ts, TIME_UTC);
#endif
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}
