/*
 * fuzz_replay.c -- libFuzzer target for goap/replay.h: the replay log reader and the replay.
 *
 * Each input is tried twice against examples/soldier.goap (loaded once):
 *  1. as a whole log: it must be refused with a message and an offset inside the data, or
 *     accepted;
 *  2. as the records of one chunk behind a valid header and checksum (so that the record
 *     decoder, the checks against the domain and the replay itself are reached, which random
 *     bytes would never be through the checksums): refused, or replayed through the `both`
 *     simulation to its end or to a divergence.
 * Never a crash, a hang or a leak.
 */
#include <goap/file.h>
#include <goap/sim.h>
#include <goap/replay.h>

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifndef GOAP_EXAMPLES_DIR
#define GOAP_EXAMPLES_DIR "examples"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct buf {
  uint8_t *p;
  size_t n, cap;
} buf;

static int to_buf(void *user, const void *data, size_t size) {
  buf *b = (buf *)user;
  if (b->n + size > b->cap) return 1;
  memcpy(b->p + b->n, data, size);
  b->n += size;
  return 0;
}

/* The log's checksum (src/runtime/replay.c, sum32). */
static uint32_t checksum(const uint8_t *p, size_t n) {
  uint64_t h = 0x243f6a8885a308d3ull ^ n;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w = 0;
    for (int k = 0; k < 8; ++k) w |= (uint64_t)p[i + (size_t)k] << (8 * k);
    h = (h ^ w) * 0x9e3779b97f4a7c15ull;
    h ^= h >> 32;
  }
  for (; i < n; ++i) {
    h = (h ^ p[i]) * 0x9e3779b97f4a7c15ull;
    h ^= h >> 32;
  }
  return (uint32_t)(h ^ (h >> 29));
}

static goap_file *soldier(void) {
  static goap_file *f;
  if (!f && goap_file_load(GOAP_EXAMPLES_DIR "/soldier.goap", NULL, &f, NULL) != GOAP_OK)
    __builtin_trap();
  return f;
}

static void replay(const goap_file *f, const uint8_t *log, size_t n) {
  goap_replayer_desc rd;
  memset(&rd, 0, sizeof rd);
  rd.domain = goap_file_domain(f);
  rd.log = log;
  rd.size = n;
  goap_replayer *rp = NULL;
  goap_error err;
  goap_status st = goap_replayer_create(&rd, &rp, &err);
  if (err.status != st) __builtin_trap();
  if (st != GOAP_OK) {
    if (rp || !err.message[0] || err.offset > n) __builtin_trap();
    return;
  }
  goap_sim_options o;
  memset(&o, 0, sizeof o);
  o.replayer = rp;
  goap_sim_result res;
  st = goap_file_simulate(f, goap_file_find_simulation(f, "both"), &o, &res);
  goap_replay_divergence dv;
  if (st == GOAP_CONFLICT && !goap_replayer_divergence(rp, &dv)) __builtin_trap();
  goap_replayer_destroy(rp);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 16 * 1024) return 0;
  const goap_file *f = soldier();
  replay(f, data, size);
  /* a valid header (the recorder writes it at once), then the input as one checked chunk */
  uint8_t *mem = (uint8_t *)malloc(size + 512);
  if (!mem) return 0;
  buf b = {mem, 0, size + 512};
  goap_recorder_desc rd;
  memset(&rd, 0, sizeof rd);
  rd.domain = goap_file_domain(f);
  rd.sink = to_buf;
  rd.sink_user = &b;
  rd.label = "both";
  goap_recorder *rec = NULL;
  if (goap_recorder_create(&rd, &rec) != GOAP_OK) __builtin_trap();
  goap_recorder_destroy(rec);
  if (size) {
    size_t x = size;
    while (x >= 0x80) {
      b.p[b.n++] = (uint8_t)(x | 0x80);
      x >>= 7;
    }
    b.p[b.n++] = (uint8_t)x;
    memcpy(b.p + b.n, data, size);
    b.n += size;
    uint32_t h = checksum(data, size);
    for (int i = 0; i < 4; ++i) b.p[b.n++] = (uint8_t)(h >> (8 * i));
  }
  replay(f, b.p, b.n);
  free(mem);
  return 0;
}
