/*
 * grid.c -- the text map parser, arena accessors, wall normals and line of sight.
 *
 * Invariants:
 *  - Parsing is two passes over the text: the first checks every character, the row widths,
 *    the limits and the duplicate markers and counts the covers; then one block is allocated;
 *    the second pass fills the cells and derives the 'C' normals (the only errors it can find).
 *    On any error nothing is left allocated.
 *  - Line of sight walks exactly the cells whose closed squares the segment between the two
 *    cell centres touches (a supercover), in integer arithmetic, so it is exact and symmetric.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tactics_internal.h"

/* ---- errors -------------------------------------------------------------------------------- */

/* Fills err (may be NULL): status, position and message; goap_arena_parse adds the source
 * line and the offset. */
static goap_status fail(goap_error *err, goap_status st, int line, int col, const char *fmt,
                        ...) {
  if (!err) return st;
  goap__err_clear(err);
  err->status = st;
  err->line = line;
  err->col = col;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err->message, sizeof err->message, fmt, ap);
  va_end(ap);
  return st;
}

/* A character for a message: itself when printable, else \xNN. */
static void show_char(char *out, size_t cap, char c) {
  unsigned char u = (unsigned char)c;
  if (u >= 0x20 && u < 0x7f)
    snprintf(out, cap, "'%c'", c);
  else
    snprintf(out, cap, "'\\x%02x'", (unsigned)u);
}

/* ---- markers ------------------------------------------------------------------------------- */

/* Member slot of a map character, or -1. */
static int member_slot(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'u') return 10 + (c - 'a');
  if (c >= 'w' && c <= 'z') return 31 + (c - 'w');
  return -1;
}

static int is_cover_char(char c) {
  return c == 'C' || c == '>' || c == '<' || c == '^' || c == 'v';
}

static int known_char(char c) {
  return c == '#' || c == '.' || c == ' ' || c == 'P' || is_cover_char(c) || member_slot(c) >= 0;
}

/* ---- parsing ------------------------------------------------------------------------------- */

typedef struct line_iter {
  const char *text;
  size_t length, pos;
} line_iter;

/* The next line [*start, *start + *len) without its "\n" or "\r\n"; 0 at the end. */
static int next_line(line_iter *it, size_t *start, size_t *len) {
  if (it->pos >= it->length) return 0;
  size_t s = it->pos, e = s;
  while (e < it->length && it->text[e] != '\n') ++e;
  it->pos = e < it->length ? e + 1 : e;
  if (e < it->length && e > s && it->text[e - 1] == '\r') --e;
  *start = s;
  *len = e - s;
  return 1;
}

typedef struct scan_info {
  int w, h, ncovers;
} scan_info;

static goap_status scan(const char *text, size_t length, scan_info *si, goap_error *err) {
  line_iter it = {text, length, 0};
  size_t start, len;
  int line = 0, w = -1, h = 0, empty_line = 0, ncovers = 0;
  int player_line = 0, player_col = 0;
  int member_line[GOAP_ARENA_MAX_MEMBERS] = {0}, member_col[GOAP_ARENA_MAX_MEMBERS] = {0};
  char shown[16];
  while (next_line(&it, &start, &len)) {
    ++line;
    if (len == 0) {
      if (!empty_line) empty_line = line;
      continue;
    }
    if (empty_line)
      return fail(err, GOAP_PARSE_ERROR, empty_line, 1,
                  "empty line inside the map (empty lines are allowed only at the end)");
    if (h >= GOAP_ARENA_MAX_SIDE)
      return fail(err, GOAP_TOO_LARGE, line, 1, "the map has more than %d rows",
                  GOAP_ARENA_MAX_SIDE);
    for (size_t i = 0; i < len; ++i) {
      int col = (int)i + 1;
      char c = text[start + i];
      if (w >= 0 && col > w)
        return fail(err, GOAP_PARSE_ERROR, line, col,
                    "row %d is wider than the first row (%d cells)", h + 1, w);
      if (col > GOAP_ARENA_MAX_SIDE)
        return fail(err, GOAP_TOO_LARGE, line, col, "the map is wider than %d cells",
                    GOAP_ARENA_MAX_SIDE);
      if (!known_char(c)) {
        show_char(shown, sizeof shown, c);
        return fail(err, GOAP_PARSE_ERROR, line, col,
                    "unknown map character %s (expected one of # . C > < ^ v P 0-9 a-z)", shown);
      }
      if (is_cover_char(c)) ++ncovers;
      if (c == 'P') {
        if (player_line)
          return fail(err, GOAP_DUPLICATE, line, col, "a second player 'P' (the first is at %d:%d)",
                      player_line, player_col);
        player_line = line;
        player_col = col;
      }
      int m = member_slot(c);
      if (m >= 0) {
        if (member_line[m])
          return fail(err, GOAP_DUPLICATE, line, col,
                      "squad member '%c' appears twice (first at %d:%d)", c, member_line[m],
                      member_col[m]);
        member_line[m] = line;
        member_col[m] = col;
      }
    }
    if (w < 0) {
      w = (int)len;
    } else if ((int)len < w) {
      return fail(err, GOAP_PARSE_ERROR, line, (int)len + 1,
                  "row %d has %d cells, the first row has %d", h + 1, (int)len, w);
    }
    ++h;
  }
  if (h == 0) return fail(err, GOAP_PARSE_ERROR, 1, 1, "empty map (no rows)");
  si->w = w;
  si->h = h;
  si->ncovers = ncovers;
  return GOAP_OK;
}

static goap_vec2 glyph_normal(char c) {
  switch (c) {
  case '>': return goap_vec2_make(1.0, 0.0);
  case '<': return goap_vec2_make(-1.0, 0.0);
  case '^': return goap_vec2_make(0.0, -1.0);
  case 'v': return goap_vec2_make(0.0, 1.0);
  default: return goap_vec2_make(0.0, 0.0);
  }
}

static size_t round8(size_t n) { return (n + 7u) & ~(size_t)7u; }

static goap_status parse(const char *text, size_t length, const goap_allocator *alloc,
                         goap_arena **out, goap_error *err) {
  if (!out || (!text && length > 0))
    return fail(err, GOAP_INVALID_ARGUMENT, 0, 0, "NULL argument");
  scan_info si = {0, 0, 0};
  goap_status st = scan(text ? text : "", length, &si, err);
  if (st != GOAP_OK) return st;

  goap_allocator a = {0};
  if (alloc) a = *alloc;
  goap_arena *ar = (goap_arena *)goap__alloc(&a, sizeof *ar);
  if (!ar) return fail(err, GOAP_OUT_OF_MEMORY, 0, 0, "out of memory");
  memset(ar, 0, sizeof *ar);
  ar->alloc = a;
  ar->w = si.w;
  ar->h = si.h;
  size_t cells = (size_t)si.w * (size_t)si.h;
  size_t off_cover_at = round8((size_t)si.ncovers * sizeof(goap_cover));
  size_t off_kind = off_cover_at + round8(cells * sizeof(int));
  size_t off_glyph = off_kind + round8(cells);
  ar->block_size = off_glyph + cells;
  unsigned char *block = (unsigned char *)goap__alloc(&a, ar->block_size);
  if (!block) {
    goap__free(&a, ar, sizeof *ar);
    return fail(err, GOAP_OUT_OF_MEMORY, 0, 0, "out of memory");
  }
  ar->covers = (goap_cover *)(void *)block;
  ar->cover_at = (int *)(void *)(block + off_cover_at);
  ar->kind = block + off_kind;
  ar->glyph = (char *)(block + off_glyph);

  /* Second pass: fill. */
  line_iter it = {text, length, 0};
  size_t start, len;
  int y = 0;
  while (y < si.h && next_line(&it, &start, &len)) {
    if (len == 0) continue; /* only trailing empty lines remain possible, after the last row */
    for (int x = 0; x < si.w; ++x) {
      char c = text[start + (size_t)x];
      size_t i = (size_t)y * (size_t)si.w + (size_t)x;
      ar->cover_at[i] = -1;
      if (c == '#') {
        ar->kind[i] = GOAP_CELL_WALL;
        ar->glyph[i] = '#';
      } else if (is_cover_char(c)) {
        ar->kind[i] = GOAP_CELL_COVER;
        ar->glyph[i] = c;
        ar->cover_at[i] = ar->ncovers;
        goap_cover *cv = &ar->covers[ar->ncovers++];
        cv->x = x;
        cv->y = y;
        cv->glyph = c;
        cv->normal = glyph_normal(c); /* 'C' is derived below, once every row is known */
      } else {
        ar->kind[i] = GOAP_CELL_FLOOR;
        ar->glyph[i] = '.';
        if (c == 'P') {
          ar->has_player = 1;
          ar->px = x;
          ar->py = y;
        } else if (member_slot(c) >= 0) {
          goap_member *m = &ar->members[ar->nmembers++];
          m->id = c;
          m->x = x;
          m->y = y;
        }
      }
    }
    ++y;
  }
  for (int k = 0; k < ar->ncovers; ++k) {
    goap_cover *cv = &ar->covers[k];
    if (cv->glyph != 'C') continue;
    if (!goap_arena_wall_normal(ar, cv->x, cv->y, &cv->normal)) {
      int has_wall = goap_arena_cell(ar, cv->x - 1, cv->y) == GOAP_CELL_WALL ||
                     goap_arena_cell(ar, cv->x + 1, cv->y) == GOAP_CELL_WALL ||
                     goap_arena_cell(ar, cv->x, cv->y - 1) == GOAP_CELL_WALL ||
                     goap_arena_cell(ar, cv->x, cv->y + 1) == GOAP_CELL_WALL;
      int line = cv->y + 1, col = cv->x + 1;
      goap_arena_destroy(ar);
      return fail(err, GOAP_PARSE_ERROR, line, col,
                  has_wall ? "cover 'C' has walls on opposite sides only: its direction is "
                             "ambiguous (use > < ^ v)"
                           : "cover 'C' has no wall next to it (left, right, up or down): give "
                             "its direction with > < ^ v");
    }
  }
  *out = ar;
  return GOAP_OK;
}

goap_status goap_arena_parse(const char *text, size_t length, const goap_allocator *alloc,
                             goap_arena **out, goap_error *err) {
  goap__err_clear(err);
  if (out) *out = NULL;
  goap_status st = parse(text, length, alloc, out, err);
  if (st != GOAP_OK && err && err->line > 0 && text) {
    /* the offending line (control bytes shown as '?') and the byte offset of line:col */
    line_iter it = {text, length, 0};
    size_t start = 0, len = 0;
    for (int line = 0; line < err->line && next_line(&it, &start, &len);) ++line;
    size_t n = len < sizeof err->source - 1 ? len : sizeof err->source - 1;
    for (size_t i = 0; i < n; ++i) {
      unsigned char c = (unsigned char)text[start + i];
      err->source[i] = c < 0x20 || c >= 0x7f ? '?' : (char)c;
    }
    err->source[n] = '\0';
    err->offset = start + (size_t)(err->col > 0 ? err->col - 1 : 0);
  }
  return st;
}

void goap_arena_destroy(goap_arena *a) {
  if (!a) return;
  goap_allocator al = a->alloc;
  goap__free(&al, a->covers, a->block_size);
  goap__free(&al, a, sizeof *a);
}

/* ---- accessors ----------------------------------------------------------------------------- */

int goap_arena_width(const goap_arena *a) { return a ? a->w : 0; }
int goap_arena_height(const goap_arena *a) { return a ? a->h : 0; }

goap_cell goap_arena_cell(const goap_arena *a, int x, int y) {
  if (!a || x < 0 || y < 0 || x >= a->w || y >= a->h) return GOAP_CELL_OUTSIDE;
  return (goap_cell)a->kind[(size_t)y * (size_t)a->w + (size_t)x];
}

int goap_arena_cover_count(const goap_arena *a) { return a ? a->ncovers : 0; }

goap_status goap_arena_cover(const goap_arena *a, int index, goap_cover *out) {
  if (!a || !out) return GOAP_INVALID_ARGUMENT;
  if (index < 0 || index >= a->ncovers) return GOAP_OUT_OF_RANGE;
  *out = a->covers[index];
  return GOAP_OK;
}

int goap_arena_cover_at(const goap_arena *a, int x, int y) {
  if (!a || x < 0 || y < 0 || x >= a->w || y >= a->h) return -1;
  return a->cover_at[(size_t)y * (size_t)a->w + (size_t)x];
}

int goap_arena_member_count(const goap_arena *a) { return a ? a->nmembers : 0; }

goap_status goap_arena_member(const goap_arena *a, int index, goap_member *out) {
  if (!a || !out) return GOAP_INVALID_ARGUMENT;
  if (index < 0 || index >= a->nmembers) return GOAP_OUT_OF_RANGE;
  *out = a->members[index];
  return GOAP_OK;
}

int goap_arena_find_member(const goap_arena *a, char id) {
  if (!a) return -1;
  for (int i = 0; i < a->nmembers; ++i)
    if (a->members[i].id == id) return i;
  return -1;
}

int goap_arena_player(const goap_arena *a, int *x, int *y) {
  if (!a || !a->has_player) return 0;
  if (x) *x = a->px;
  if (y) *y = a->py;
  return 1;
}

int goap_arena_wall_normal(const goap_arena *a, int x, int y, goap_vec2 *out) {
  goap_vec2 n = goap_vec2_make(0.0, 0.0);
  if (goap_arena_cell(a, x, y) != GOAP_CELL_OUTSIDE) {
    if (goap_arena_cell(a, x - 1, y) == GOAP_CELL_WALL) n.x -= 1.0;
    if (goap_arena_cell(a, x + 1, y) == GOAP_CELL_WALL) n.x += 1.0;
    if (goap_arena_cell(a, x, y - 1) == GOAP_CELL_WALL) n.y -= 1.0;
    if (goap_arena_cell(a, x, y + 1) == GOAP_CELL_WALL) n.y += 1.0;
  }
  n = goap_vec2_normalize(n);
  if (out) *out = n;
  return n.x != 0.0 || n.y != 0.0;
}

/* ---- line of sight ------------------------------------------------------------------------- */

static int wall_at(const goap_arena *a, int x, int y) {
  return a->kind[(size_t)y * (size_t)a->w + (size_t)x] == GOAP_CELL_WALL;
}

int goap_arena_los(const goap_arena *a, int x0, int y0, int x1, int y1) {
  if (!a || x0 < 0 || y0 < 0 || x0 >= a->w || y0 >= a->h || x1 < 0 || y1 < 0 || x1 >= a->w ||
      y1 >= a->h)
    return 0;
  long long nx = x1 > x0 ? x1 - x0 : x0 - x1, ny = y1 > y0 ? y1 - y0 : y0 - y1;
  int sx = x1 > x0 ? 1 : -1, sy = y1 > y0 ? 1 : -1;
  int x = x0, y = y0;
  long long ix = 0, iy = 0;
  /* Each step crosses the next cell boundary the segment meets: a vertical one (x +/- 0.5)
   * at parameter (2ix + 1) / 2nx, a horizontal one at (2iy + 1) / 2ny; compare them
   * cross-multiplied. At a tie the segment passes exactly through a cell corner and touches the
   * two side cells there too. */
  while (ix < nx || iy < ny) {
    long long d = (1 + 2 * ix) * ny - (1 + 2 * iy) * nx;
    if (d == 0) {
      if (wall_at(a, x + sx, y) || wall_at(a, x, y + sy)) return 0;
      x += sx;
      y += sy;
      ++ix;
      ++iy;
    } else if (d < 0) {
      x += sx;
      ++ix;
    } else {
      y += sy;
      ++iy;
    }
    if ((x != x1 || y != y1) && wall_at(a, x, y)) return 0;
  }
  return 1;
}
