/*
 * bench_tactics.c -- goap_bench_tactics: the cost of a cover heat map refresh and of the
 * queries procedural preconditions make, on generated square arenas (64x64 and 128x128 by
 * default).
 *
 * An arena is generated from a fixed seed: a wall border, random short wall runs (horizontal
 * or vertical, 2 to 5 cells) over about 12% of the cells, and a cover 'C' on about a third of
 * the floor cells that have a wall on exactly one side or a corner (so every 'C' has a
 * normal). The player stands on floor cells spread over the arena; before each refresh it
 * moves to the next of 16 such cells, so the figure is an average over positions. The queries
 * are then timed with the player on the first of those cells (flank_covers counts the flank
 * covers there).
 *
 * Timing: one warm-up refresh, then batches of refreshes (CLOCK_MONOTONIC) until --min-time
 * seconds and at least 11 batches have run; the reported figure is the median of the batches'
 * per-refresh times. Queries are timed the same way. A counting allocator checks that neither
 * refreshes nor queries allocate.
 *
 * Exit status: 0 on success, 1 if something allocated or failed, 2 on bad usage.
 */
#define _POSIX_C_SOURCE 200809L

#include <goap/tactics.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "bench_util.h"

static uint64_t rng(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

typedef struct counter {
  size_t allocs;
} counter;

static void *count_fn(void *ctx, void *ptr, size_t old_size, size_t new_size) {
  (void)old_size;
  counter *c = (counter *)ctx;
  if (new_size == 0) {
    free(ptr);
    return NULL;
  }
  c->allocs++;
  return realloc(ptr, new_size);
}

/* The map text of a side x side arena (caller frees). */
static char *generate(int side, uint64_t seed, size_t *len) {
  size_t row = (size_t)side + 1;
  char *t = (char *)malloc(row * (size_t)side + 1);
  if (!t) return NULL;
  for (int y = 0; y < side; ++y) {
    for (int x = 0; x < side; ++x) {
      int border = x == 0 || y == 0 || x == side - 1 || y == side - 1;
      t[(size_t)y * row + (size_t)x] = border ? '#' : '.';
    }
    t[(size_t)y * row + (size_t)side] = '\n';
  }
  int runs = side * side * 12 / 100 / 3;
  for (int r = 0; r < runs; ++r) {
    int x = 1 + (int)(rng(&seed) % (uint64_t)(side - 2));
    int y = 1 + (int)(rng(&seed) % (uint64_t)(side - 2));
    int n = 2 + (int)(rng(&seed) % 4), horiz = (int)(rng(&seed) % 2);
    for (int i = 0; i < n && x < side - 1 && y < side - 1; ++i) {
      t[(size_t)y * row + (size_t)x] = '#';
      if (horiz)
        ++x;
      else
        ++y;
    }
  }
  for (int y = 1; y < side - 1; ++y)
    for (int x = 1; x < side - 1; ++x) {
      char *c = &t[(size_t)y * row + (size_t)x];
      if (*c != '.') continue;
      int l = c[-1] == '#', rr = c[1] == '#', u = c[-(long)row] == '#', d = c[row] == '#';
      int sx = rr - l, sy = d - u;
      if ((sx != 0 || sy != 0) && rng(&seed) % 3 == 0) *c = 'C';
    }
  *len = row * (size_t)side;
  return t;
}

typedef struct result {
  int side, covers, floor;
  double refresh_ns, has_flank_ns, best_cover_ns;
  size_t allocs;
  int flank_covers;
} result;

#define MAX_BATCHES 4096

/* Median per-call time of fn over batches of `per` calls. */
typedef void (*work_fn)(void *ctx, int i);

static double time_it(work_fn fn, void *ctx, int per, double min_time, int reps) {
  static double samples[MAX_BATCHES];
  int n = 0, i = 0;
  double start = bench_now_ns();
  while (n < MAX_BATCHES) {
    double t0 = bench_now_ns();
    for (int k = 0; k < per; ++k) fn(ctx, i++);
    double t1 = bench_now_ns();
    samples[n++] = (t1 - t0) / per;
    if (reps > 0 ? n >= reps : (n >= 11 && (t1 - start) / 1e9 >= min_time)) break;
  }
  qsort(samples, (size_t)n, sizeof samples[0], bench_cmp_double);
  return samples[n / 2];
}

typedef struct ctx {
  goap_heatmap *h;
  const goap_arena *a;
  int px[16], py[16];
  int sink;
} ctx;

static void do_refresh(void *p, int i) {
  ctx *c = (ctx *)p;
  goap_heatmap_set_player(c->h, c->px[i % 16], c->py[i % 16], NULL);
  goap_heatmap_refresh(c->h);
}

static void do_has_flank(void *p, int i) {
  ctx *c = (ctx *)p;
  (void)i;
  c->sink += goap_heatmap_has_flank_cover(c->h, NULL);
}

static void do_best_cover(void *p, int i) {
  ctx *c = (ctx *)p;
  c->sink += goap_heatmap_best_cover(c->h, c->px[(i + 5) % 16], c->py[(i + 5) % 16], NULL, 0);
}

static int run(int side, double min_time, int reps, result *r) {
  size_t len = 0;
  char *text = generate(side, (uint64_t)0x2545F4914F6CDD1Du ^ (uint64_t)side, &len);
  if (!text) return 1;
  counter cnt = {0};
  goap_allocator al = {count_fn, &cnt};
  goap_arena *a = NULL;
  goap_error err;
  if (goap_arena_parse(text, len, &al, &a, &err) != GOAP_OK) {
    fprintf(stderr, "bench_tactics: generated map: %d:%d: %s\n", err.line, err.col, err.message);
    free(text);
    return 1;
  }
  free(text);
  ctx c;
  memset(&c, 0, sizeof c);
  c.a = a;
  if (goap_heatmap_create(a, NULL, &al, &c.h) != GOAP_OK) {
    goap_arena_destroy(a);
    return 1;
  }
  /* 16 floor cells on a 4x4 lattice over the arena (the nearest floor cell to each point) */
  int np = 0;
  for (int j = 0; j < 4; ++j)
    for (int i = 0; i < 4; ++i) {
      int tx = side * (2 * i + 1) / 8, ty = side * (2 * j + 1) / 8;
      while (goap_arena_cell(a, tx, ty) != GOAP_CELL_FLOOR) tx = tx + 1 < side - 1 ? tx + 1 : 1;
      c.px[np] = tx;
      c.py[np] = ty;
      ++np;
    }
  r->side = side;
  r->covers = goap_arena_cover_count(a);
  r->floor = 0;
  for (int y = 0; y < side; ++y)
    for (int x = 0; x < side; ++x) r->floor += goap_arena_cell(a, x, y) != GOAP_CELL_WALL;
  size_t before = cnt.allocs;
  do_refresh(&c, 0);
  r->refresh_ns = time_it(do_refresh, &c, side <= 64 ? 4 : 1, min_time, reps);
  do_refresh(&c, 0); /* the queries run against the first player position, every time */
  r->flank_covers = 0;
  for (int k = 0; k < r->covers; ++k) {
    goap_cover cv;
    goap_arena_cover(a, k, &cv);
    r->flank_covers += (goap_heatmap_flags(c.h, cv.x, cv.y) & GOAP_HEAT_FLANK_COVER) != 0;
  }
  r->has_flank_ns = time_it(do_has_flank, &c, 256, min_time / 4, reps);
  r->best_cover_ns = time_it(do_best_cover, &c, 256, min_time / 4, reps);
  r->allocs = cnt.allocs - before;
  goap_heatmap_destroy(c.h);
  goap_arena_destroy(a);
  return r->allocs != 0;
}

static void usage(void) {
  fprintf(stderr, "usage: goap_bench_tactics [--json] [--reps N] [--min-time S] [--side N]...\n");
}

int main(int argc, char **argv) {
  int json = 0, reps = 0, sides[8], nsides = 0;
  double min_time = 0.3;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--json")) {
      json = 1;
    } else if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
      reps = atoi(argv[++i]);
      if (reps < 1) return usage(), 2;
    } else if (!strcmp(argv[i], "--min-time") && i + 1 < argc) {
      min_time = atof(argv[++i]);
    } else if (!strcmp(argv[i], "--side") && i + 1 < argc && nsides < 8) {
      sides[nsides] = atoi(argv[++i]);
      if (sides[nsides] < 8 || sides[nsides] > GOAP_ARENA_MAX_SIDE) return usage(), 2;
      ++nsides;
    } else {
      usage();
      return 2;
    }
  }
  if (nsides == 0) {
    sides[0] = 64;
    sides[1] = 128;
    nsides = 2;
  }
  if (!json)
    printf("%-8s %7s %7s %12s %9s %15s %14s %7s\n", "arena", "floor", "covers", "refresh_us",
           "flank_cv", "has_flank_ns", "best_cover_ns", "allocs");
  int failed = 0;
  for (int i = 0; i < nsides; ++i) {
    result r;
    memset(&r, 0, sizeof r);
    failed |= run(sides[i], min_time, reps, &r);
    char name[16];
    snprintf(name, sizeof name, "%dx%d", r.side, r.side);
    if (json)
      printf("{\"arena\":\"%s\",\"floor\":%d,\"covers\":%d,\"refresh_ns\":%.0f,"
             "\"flank_covers\":%d,\"has_flank_cover_ns\":%.1f,\"best_cover_ns\":%.1f,"
             "\"allocs\":%zu}\n",
             name, r.floor, r.covers, r.refresh_ns, r.flank_covers, r.has_flank_ns,
             r.best_cover_ns, r.allocs);
    else
      printf("%-8s %7d %7d %12.1f %9d %15.1f %14.1f %7zu\n", name, r.floor, r.covers,
             r.refresh_ns / 1000.0, r.flank_covers, r.has_flank_ns, r.best_cover_ns, r.allocs);
  }
  return failed ? 1 : 0;
}
