/*
 * test_rng.h -- the tests' one seeded random number generator: splitmix64 (a fixed sequence
 * per seed on every platform, so a failing seed can be replayed).
 */
#ifndef GOAP_TEST_RNG_H
#define GOAP_TEST_RNG_H

#include <stdint.h>

static inline uint64_t splitmix64(uint64_t *state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

#endif
