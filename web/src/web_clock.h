/*
 * web_clock.h -- the one millisecond clock of the web sources (scene.c, bench.c).
 *
 * In the browser it is emscripten_get_now() (performance.now(): monotonic, coarsened by the
 * browser to 5-100 us); natively, for the tests that run these files outside wasm, it is
 * CLOCK_MONOTONIC. Includers define _POSIX_C_SOURCE before any system header when native.
 */
#ifndef GOAP_WEB_CLOCK_H
#define GOAP_WEB_CLOCK_H

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#else
#include <time.h>
#endif

static inline double goap_web_now_ms(void) {
#ifdef __EMSCRIPTEN__
  return emscripten_get_now();
#else
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
#endif
}

#endif
