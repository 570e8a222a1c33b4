/*
 * heat.c -- the cover heat map: per-cell visibility, protection and flank value against the
 * player, recomputed on an interval, and the queries procedural preconditions make.
 *
 * Invariants:
 *  - Every array is allocated by goap_heatmap_create, in one block sized for the arena; no
 *    other function allocates.
 *  - flags/protection/flank describe the player at (spx, spy) with normal sn as of the last
 *    refresh (snapshot); set_player only changes the pending (px, py, pn) used by the next one.
 *  - 0 <= clock < interval after every update or refresh (the remainder is kept).
 *  - protected_list / flank_list hold exactly the covers with PROTECTED / FLANK_COVER, in
 *    increasing index order, so that the queries scan only those.
 */
#include <math.h>
#include <string.h>

#include "tactics_internal.h"

#define PI 3.14159265358979323846

struct goap_heatmap {
  goap_allocator alloc;
  const goap_arena *arena;
  double interval, cos_half, half_angle, flank_angle;
  double clock;
  unsigned long refreshes;
  /* pending player (the next refresh uses it) */
  int has_player, px, py;
  goap_vec2 pn;
  /* snapshot of the last refresh */
  int s_has_player, spx, spy;
  goap_vec2 sn;
  unsigned char *flags; /* w * h */
  float *protection;    /* w * h */
  float *flank;         /* w * h */
  int *protected_list;  /* indices of PROTECTED covers, ascending (capacity: the covers) */
  int *flank_list;      /* indices of FLANK_COVER covers, ascending */
  int nprotected, nflank;
  size_t block_size;
};

static size_t round8(size_t n) { return (n + 7u) & ~(size_t)7u; }

static double angle_or_zero(const goap_heatmap *h, int x, int y) {
  goap_vec2 d = goap_vec2_make((double)(x - h->spx), (double)(y - h->spy));
  return goap_vec2_angle(d, h->sn);
}

static int sn_zero(const goap_heatmap *h) { return h->sn.x == 0.0 && h->sn.y == 0.0; }

/* The angle condition of the flank test for cell (x, y) (not the player's cell). */
static int flank_side(const goap_heatmap *h, int x, int y) {
  if (sn_zero(h)) return 1;
  return angle_or_zero(h, x, y) > h->flank_angle;
}

static void compute(goap_heatmap *h) {
  const goap_arena *a = h->arena;
  int w = a->w, ht = a->h;
  size_t cells = (size_t)w * (size_t)ht;
  h->s_has_player = h->has_player;
  h->spx = h->px;
  h->spy = h->py;
  h->sn = h->pn;
  h->refreshes++;
  memset(h->flags, 0, cells);
  for (size_t i = 0; i < cells; ++i) {
    h->protection[i] = 0.0f;
    h->flank[i] = 0.0f;
  }
  h->nprotected = h->nflank = 0;
  if (!h->s_has_player) return;
  goap_vec2 player = goap_vec2_make((double)h->spx, (double)h->spy);
  /* Pass 1: visibility, protection, flank points. */
  for (int y = 0; y < ht; ++y) {
    for (int x = 0; x < w; ++x) {
      size_t i = (size_t)y * (size_t)w + (size_t)x;
      if (a->kind[i] == GOAP_CELL_WALL) continue;
      unsigned f = 0;
      int vis = goap_arena_los(a, x, y, h->spx, h->spy);
      if (vis) f |= GOAP_HEAT_VISIBLE;
      if (a->kind[i] == GOAP_CELL_COVER) {
        const goap_cover *cv = &a->covers[a->cover_at[i]];
        goap_vec2 d = goap_vec2_normalize(goap_vec2_sub(player, goap_vec2_make(x, y)));
        if ((d.x != 0.0 || d.y != 0.0) && goap_vec2_dot(d, cv->normal) > h->cos_half)
          f |= GOAP_HEAT_PROTECTED;
      }
      h->protection[i] = (f & GOAP_HEAT_PROTECTED) ? 1.0f : (vis ? 0.0f : 0.5f);
      if (vis && (x != h->spx || y != h->spy) && flank_side(h, x, y)) {
        f |= GOAP_HEAT_FLANK;
        h->flank[i] = sn_zero(h) ? 1.0f
                                 : (float)((angle_or_zero(h, x, y) - h->flank_angle) /
                                           (PI - h->flank_angle));
      }
      h->flags[i] = (unsigned char)f;
    }
  }
  /* Pass 2: flank covers (need the FLANK flags of the neighbours). */
  static const int dx[5] = {0, -1, 1, 0, 0}, dy[5] = {0, 0, 0, -1, 1};
  for (int k = 0; k < a->ncovers; ++k) {
    const goap_cover *cv = &a->covers[k];
    size_t i = (size_t)cv->y * (size_t)w + (size_t)cv->x;
    if (!(h->flags[i] & GOAP_HEAT_PROTECTED)) continue;
    h->protected_list[h->nprotected++] = k;
    if (!flank_side(h, cv->x, cv->y)) continue;
    for (int j = 0; j < 5; ++j) {
      int nx = cv->x + dx[j], ny = cv->y + dy[j];
      if (nx < 0 || ny < 0 || nx >= w || ny >= ht) continue;
      if (h->flags[(size_t)ny * (size_t)w + (size_t)nx] & GOAP_HEAT_FLANK) {
        h->flags[i] |= GOAP_HEAT_FLANK_COVER;
        h->flank_list[h->nflank++] = k;
        break;
      }
    }
  }
}

goap_status goap_heatmap_create(const goap_arena *arena, const goap_heat_config *config,
                                const goap_allocator *alloc, goap_heatmap **out) {
  if (out) *out = NULL;
  if (!arena || !out) return GOAP_INVALID_ARGUMENT;
  goap_heat_config c = {0.2, PI / 4.0, PI / 3.0};
  if (config) {
    if (!isfinite(config->interval) || config->interval < 0.0) return GOAP_INVALID_ARGUMENT;
    if (!(config->cover_half_angle >= 0.0 && config->cover_half_angle <= PI))
      return GOAP_INVALID_ARGUMENT;
    if (!(config->flank_angle >= 0.0 && config->flank_angle < PI)) return GOAP_INVALID_ARGUMENT;
    if (config->interval > 0.0) c.interval = config->interval;
    if (config->cover_half_angle > 0.0) c.cover_half_angle = config->cover_half_angle;
    if (config->flank_angle > 0.0) c.flank_angle = config->flank_angle;
  }
  goap_allocator a = {0};
  if (alloc) a = *alloc;
  size_t cells = (size_t)arena->w * (size_t)arena->h;
  size_t off_prot = round8(sizeof(goap_heatmap));
  size_t off_flank = off_prot + round8(cells * sizeof(float));
  size_t off_lists = off_flank + round8(cells * sizeof(float));
  size_t ncov = (size_t)arena->ncovers;
  size_t off_flags = off_lists + round8(2 * ncov * sizeof(int));
  size_t size = off_flags + cells;
  unsigned char *block = (unsigned char *)goap__alloc(&a, size);
  if (!block) return GOAP_OUT_OF_MEMORY;
  goap_heatmap *h = (goap_heatmap *)(void *)block;
  memset(h, 0, sizeof *h);
  h->alloc = a;
  h->arena = arena;
  h->block_size = size;
  h->protection = (float *)(void *)(block + off_prot);
  h->flank = (float *)(void *)(block + off_flank);
  h->flags = block + off_flags;
  h->protected_list = (int *)(void *)(block + off_lists);
  h->flank_list = h->protected_list + ncov;
  h->interval = c.interval;
  h->half_angle = c.cover_half_angle;
  h->cos_half = cos(c.cover_half_angle);
  h->flank_angle = c.flank_angle;
  if (arena->has_player) {
    h->has_player = 1;
    h->px = arena->px;
    h->py = arena->py;
    goap_arena_wall_normal(arena, h->px, h->py, &h->pn);
  }
  compute(h);
  *out = h;
  return GOAP_OK;
}

void goap_heatmap_destroy(goap_heatmap *h) {
  if (!h) return;
  goap_allocator a = h->alloc;
  goap__free(&a, h, h->block_size);
}

goap_status goap_heatmap_set_player(goap_heatmap *h, int x, int y, const goap_vec2 *normal) {
  if (!h) return GOAP_INVALID_ARGUMENT;
  goap_cell c = goap_arena_cell(h->arena, x, y);
  if (c == GOAP_CELL_OUTSIDE) return GOAP_OUT_OF_RANGE;
  if (c == GOAP_CELL_WALL) return GOAP_INVALID_ARGUMENT;
  if (normal && (!isfinite(normal->x) || !isfinite(normal->y))) return GOAP_INVALID_ARGUMENT;
  h->has_player = 1;
  h->px = x;
  h->py = y;
  if (normal)
    h->pn = goap_vec2_normalize(*normal);
  else
    goap_arena_wall_normal(h->arena, x, y, &h->pn);
  return GOAP_OK;
}

void goap_heatmap_clear_player(goap_heatmap *h) {
  if (h) h->has_player = 0;
}

goap_status goap_heatmap_update(goap_heatmap *h, double dt, int *refreshed) {
  if (refreshed) *refreshed = 0;
  if (!h) return GOAP_INVALID_ARGUMENT;
  if (!isfinite(dt) || dt < 0.0) return GOAP_INVALID_ARGUMENT;
  h->clock += dt;
  if (h->clock + 1e-9 < h->interval) return GOAP_OK;
  h->clock = fmod(h->clock, h->interval);
  if (h->clock + 1e-9 >= h->interval) h->clock = 0.0;
  compute(h);
  if (refreshed) *refreshed = 1;
  return GOAP_OK;
}

void goap_heatmap_refresh(goap_heatmap *h) {
  if (!h) return;
  h->clock = 0.0;
  compute(h);
}

unsigned long goap_heatmap_refresh_count(const goap_heatmap *h) { return h ? h->refreshes : 0; }

const goap_arena *goap_heatmap_arena(const goap_heatmap *h) { return h ? h->arena : NULL; }

int goap_heatmap_player(const goap_heatmap *h, int *x, int *y) {
  if (!h || !h->s_has_player) return 0;
  if (x) *x = h->spx;
  if (y) *y = h->spy;
  return 1;
}

static int inside(const goap_heatmap *h, int x, int y) {
  return x >= 0 && y >= 0 && x < h->arena->w && y < h->arena->h;
}

goap_status goap_heatmap_cell(const goap_heatmap *h, int x, int y, goap_heat_cell *out) {
  if (!h || !out) return GOAP_INVALID_ARGUMENT;
  if (!inside(h, x, y)) return GOAP_OUT_OF_RANGE;
  size_t i = (size_t)y * (size_t)h->arena->w + (size_t)x;
  out->flags = h->flags[i];
  out->protection = h->protection[i];
  out->flank = h->flank[i];
  out->angle = h->s_has_player ? angle_or_zero(h, x, y) : 0.0;
  out->distance = goap_heatmap_player_distance(h, x, y);
  return GOAP_OK;
}

unsigned goap_heatmap_flags(const goap_heatmap *h, int x, int y) {
  if (!h || !inside(h, x, y)) return 0;
  return h->flags[(size_t)y * (size_t)h->arena->w + (size_t)x];
}

static int taken(const goap_heatmap *h, const goap_occupancy *occ, int k) {
  if (!occ) return 0;
  const goap_cover *cv = &h->arena->covers[k];
  if (occ->mask && occ->mask[(size_t)cv->y * (size_t)h->arena->w + (size_t)cv->x]) return 1;
  if (occ->taken && occ->taken(occ->ctx, k, cv->x, cv->y)) return 1;
  return 0;
}

/* The free cover of `list` nearest to (x, y) within max_dist, or -1. */
static int nearest(const goap_heatmap *h, const int *list, int n, int x, int y,
                   const goap_occupancy *occ, double max_dist) {
  const goap_arena *a = h->arena;
  int best = -1;
  double best_d2 = 0.0, lim2 = max_dist > 0.0 ? max_dist * max_dist : HUGE_VAL;
  for (int j = 0; j < n; ++j) {
    int k = list[j];
    const goap_cover *cv = &a->covers[k];
    double dx = (double)(cv->x - x), dy = (double)(cv->y - y);
    double d2 = dx * dx + dy * dy;
    if (d2 > lim2 || (best >= 0 && d2 >= best_d2)) continue;
    if (taken(h, occ, k)) continue;
    best = k;
    best_d2 = d2;
  }
  return best;
}

int goap_heatmap_best_cover(const goap_heatmap *h, int x, int y, const goap_occupancy *occ,
                            double max_dist) {
  if (!h) return -1;
  return nearest(h, h->protected_list, h->nprotected, x, y, occ, max_dist);
}

int goap_heatmap_best_flank_cover(const goap_heatmap *h, int x, int y, const goap_occupancy *occ,
                                  double max_dist) {
  if (!h) return -1;
  return nearest(h, h->flank_list, h->nflank, x, y, occ, max_dist);
}

int goap_heatmap_has_flank_cover(const goap_heatmap *h, const goap_occupancy *occ) {
  if (!h) return 0;
  for (int j = 0; j < h->nflank; ++j)
    if (!taken(h, occ, h->flank_list[j])) return 1;
  return 0;
}

double goap_heatmap_player_distance(const goap_heatmap *h, int x, int y) {
  if (!h || !h->s_has_player) return -1.0;
  return hypot((double)(x - h->spx), (double)(y - h->spy));
}

int goap_heatmap_visible(const goap_heatmap *h, int x, int y) {
  return (goap_heatmap_flags(h, x, y) & GOAP_HEAT_VISIBLE) != 0;
}
