/*
 * tactics_internal.h -- shared internals of goap_tactics (not installed).
 *
 * Invariants:
 *  - An arena's arrays are width * height, row-major (index y * width + x), allocated once by
 *    goap_arena_parse and never written afterwards.
 *  - kind[] holds goap_cell values (never GOAP_CELL_OUTSIDE); cover_at[] is -1 except on
 *    GOAP_CELL_COVER cells, where it is the cover's index in covers[].
 *  - covers[] is in reading order and every normal has unit length.
 */
#ifndef GOAP_TACTICS_INTERNAL_H
#define GOAP_TACTICS_INTERNAL_H

#include <stddef.h>

#include "base/base.h"
#include "goap/tactics.h"

struct goap_arena {
  goap_allocator alloc;
  int w, h;
  unsigned char *kind;  /* goap_cell per cell */
  char *glyph;          /* the map character per cell ('.' for floor, members and 'P') */
  int *cover_at;        /* cover index per cell, or -1 */
  goap_cover *covers;
  int ncovers;
  goap_member members[GOAP_ARENA_MAX_MEMBERS];
  int nmembers;
  int has_player, px, py;
  size_t block_size;    /* the one block holding kind, glyph, cover_at and covers */
};

/* Allocation through the object's allocator (a zero allocator is the C library):
 * goap__alloc / goap__free of base/base.h. */

#endif /* GOAP_TACTICS_INTERNAL_H */
