/*
 * render.c -- the arena (and optionally its heat map) as text, snprintf style.
 *
 * Invariants: the output is produced in one pass, character by character, through put(),
 * which counts every character and stores only those that fit; so the returned length is the
 * same whatever cap is, and buf always ends with a NUL when cap > 0.
 */
#include "tactics_internal.h"

typedef struct out_buf {
  char *buf;
  size_t cap, len;
} out_buf;

static void put(out_buf *o, char c) {
  if (o->len + 1 < o->cap) o->buf[o->len] = c;
  o->len++;
}

static char map_glyph(const goap_arena *a, const goap_heatmap *h, const goap_map_agent *agents,
                      int count, int x, int y) {
  char g = a->glyph[(size_t)y * (size_t)a->w + (size_t)x];
  int px, py;
  if (h ? goap_heatmap_player(h, &px, &py) : goap_arena_player(a, &px, &py)) {
    if (px == x && py == y) g = 'P';
  }
  if (!agents) {
    for (int i = 0; i < a->nmembers; ++i)
      if (a->members[i].x == x && a->members[i].y == y) g = a->members[i].id;
  } else {
    for (int i = 0; i < count; ++i)
      if (agents[i].x == x && agents[i].y == y) g = agents[i].glyph;
  }
  return g;
}

static char heat_glyph(const goap_arena *a, const goap_heatmap *h, int x, int y) {
  goap_cell c = goap_arena_cell(a, x, y);
  if (c == GOAP_CELL_WALL) return '#';
  int px, py;
  if (goap_heatmap_player(h, &px, &py) && px == x && py == y) return 'P';
  unsigned f = goap_heatmap_flags(h, x, y);
  if (c == GOAP_CELL_COVER) {
    if (f & GOAP_HEAT_FLANK_COVER) return 'F';
    if (f & GOAP_HEAT_PROTECTED) return 'C';
    return 'x';
  }
  if (f & GOAP_HEAT_FLANK) return '+';
  if (f & GOAP_HEAT_VISIBLE) return '-';
  return '.';
}

size_t goap_arena_render(const goap_arena *a, const goap_heatmap *h, const goap_map_agent *agents,
                         int count, unsigned flags, char *buf, size_t cap) {
  out_buf o = {buf, buf ? cap : 0, 0};
  if (o.cap > 0) o.buf[0] = '\0';
  if (!a) return 0;
  if (h && goap_heatmap_arena(h) != a) h = NULL;
  if (count < 0) count = 0;
  int heat = (flags & GOAP_RENDER_HEAT) && h;
  for (int y = 0; y < a->h; ++y) {
    for (int x = 0; x < a->w; ++x) put(&o, map_glyph(a, h, agents, count, x, y));
    if (heat) {
      put(&o, ' ');
      put(&o, ' ');
      for (int x = 0; x < a->w; ++x) put(&o, heat_glyph(a, h, x, y));
    }
    put(&o, '\n');
  }
  if (o.cap > 0) o.buf[o.len < o.cap ? o.len : o.cap - 1] = '\0';
  return o.len;
}
