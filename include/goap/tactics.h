/*
 * goap/tactics.h -- cover geometry for squads: 2D vectors, the cover and flank tests, a small
 * grid arena read from a text map, line of sight, a cover heat map and a map renderer.
 *
 * Library `goap_tactics`. It depends on libc and libm only: goap.h is included for GOAP_API,
 * goap_status and goap_allocator, but nothing of the core is linked.
 *
 * Coordinates: x grows to the right, y grows DOWN (screen order: the first line of a map is
 * row y = 0). A grid cell (x, y) is the unit square centred on the point (x, y), i.e.
 * [x - 0.5, x + 0.5] x [y - 0.5, y + 0.5]. Angles are in radians.
 *
 * Sign convention for normals (used everywhere in this header): the normal N of a cover points
 * from the cover position TOWARD THE THREAT SIDE, that is from the spot where the agent stands
 * through the protecting object (the wall) toward where the fire comes from. A cover at (3, 4)
 * with a wall at (4, 4) has N = (1, 0): it protects against a player to its east.
 *
 * Ownership and threads:
 *  - The vector and geometry functions are pure and thread-safe.
 *  - A goap_arena is immutable once parsed: any number of threads may read it at once (line
 *    of sight, accessors, heat maps built on it). It must outlive its heat maps.
 *  - A goap_heatmap is used by one thread at a time; its const queries may run concurrently
 *    with each other but not with goap_heatmap_update/refresh/set_player.
 *  - Destroy functions accept NULL. Functions returning goap_status return
 *    GOAP_INVALID_ARGUMENT for NULL required pointers; queries on NULL return 0 or -1.
 *  - Nothing here prints or keeps global state; every allocation goes through the allocator
 *    given at creation, and only at creation: updates and queries never allocate.
 */
#ifndef GOAP_TACTICS_H
#define GOAP_TACTICS_H

#include <stddef.h>

#include "goap.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------
 * 2D vectors (values; all functions are pure)
 * ---------------------------------------------------------------------------------------- */
typedef struct goap_vec2 {
  double x, y;
} goap_vec2;

/* (x, y). */
GOAP_API goap_vec2 goap_vec2_make(double x, double y);
/* a + b = (a.x + b.x, a.y + b.y). */
GOAP_API goap_vec2 goap_vec2_add(goap_vec2 a, goap_vec2 b);
/* a - b = (a.x - b.x, a.y - b.y). */
GOAP_API goap_vec2 goap_vec2_sub(goap_vec2 a, goap_vec2 b);
/* s a = (s a.x, s a.y). */
GOAP_API goap_vec2 goap_vec2_scale(goap_vec2 a, double s);
/* a . b = a.x b.x + a.y b.y. */
GOAP_API double goap_vec2_dot(goap_vec2 a, goap_vec2 b);
/* a x b = a.x b.y - a.y b.x (the z of the 3D cross product; > 0 when b is counter-clockwise
 * from a in x-right/y-up axes, i.e. clockwise on screen since y grows down). */
GOAP_API double goap_vec2_cross(goap_vec2 a, goap_vec2 b);
/* |a| = sqrt(a.x^2 + a.y^2) (computed without overflow, as hypot). */
GOAP_API double goap_vec2_length(goap_vec2 a);
/* a / |a|. Zero-length rule: a vector of length 0 (or whose length is not finite) gives
 * (0, 0), never NaN. */
GOAP_API goap_vec2 goap_vec2_normalize(goap_vec2 a);
/* The unsigned angle between a and b, in [0, pi]:
 *   acos(clamp(normalize(a) . normalize(b), -1, 1)).
 * Zero-length rule: if a or b has length 0 the angle is 0. */
GOAP_API double goap_vec2_angle(goap_vec2 a, goap_vec2 b);

/* ------------------------------------------------------------------------------------------
 * Segments, boxes and the document's two tests
 * ---------------------------------------------------------------------------------------- */

/* Do the closed segments [a0, a1] and [b0, b1] share a point? Touching (an endpoint on the
 * other segment) and collinear overlap count as intersecting. A zero-length segment is a
 * point. Orientation tests on the inputs: exact for coordinates that are small integers or
 * halves of them (grid work), correct up to rounding otherwise. */
GOAP_API int goap_segments_intersect(goap_vec2 a0, goap_vec2 a1, goap_vec2 b0, goap_vec2 b1);

/* Does the closed segment [a, b] meet the closed axis-aligned box [lo, hi] (lo.x <= hi.x,
 * lo.y <= hi.y; a box with lo > hi on an axis is empty and never met)? Touching the boundary
 * counts. Separating-axis test: the segment's bounding box must overlap the box, and the box's
 * four corners must not lie strictly on one side of the segment's line. */
GOAP_API int goap_segment_box_intersect(goap_vec2 a, goap_vec2 b, goap_vec2 lo, goap_vec2 hi);

typedef enum goap_obstacle_kind {
  GOAP_OBSTACLE_SEGMENT = 0, /* the segment [a, b] (a thin wall) */
  GOAP_OBSTACLE_BOX          /* the closed box with corners a = min, b = max */
} goap_obstacle_kind;

typedef struct goap_obstacle {
  goap_obstacle_kind kind;
  goap_vec2 a, b;
} goap_obstacle;

/* The cover test. A cover at `cover` with normal `normal` (pointing toward the threat side, see
 * the top of this header) protects against a player at `player` when
 *
 *   normalize(player - cover) . normalize(normal) > cos(half_angle)
 *
 * i.e. the player lies strictly inside the cone of half-angle `half_angle` around the normal.
 * Both vectors are normalized, so the distance to the player does not matter. The document
 * writes (P_player - P_cover) . N_cover > cos(theta); without the normalization the test would
 * depend on the distance. Returns 0 when player == cover or normal is zero (no direction). */
GOAP_API int goap_cover_protects(goap_vec2 cover, goap_vec2 normal, goap_vec2 player,
                                 double half_angle);

/* The flank test. A flank point `flank` is valid against a player at `player` whose own cover
 * has normal `player_cover_normal` (pointing from the player toward the threat it hides from,
 * i.e. toward the squad) when
 *   1. the segment [flank, player] meets none of the `count` obstacles (the player's cover
 *      among them): goap_segments_intersect / goap_segment_box_intersect; and
 *   2. angle(flank - player, player_cover_normal) > min_angle (the document uses 60 degrees,
 *      pi / 3): the point is off to the side of (or behind) the player's cover.
 * A zero player_cover_normal means the player has no cover: condition 2 holds for every
 * direction. flank == player is never valid. obstacles may be NULL when count is 0. */
GOAP_API int goap_flank_valid(goap_vec2 flank, goap_vec2 player, goap_vec2 player_cover_normal,
                              double min_angle, const goap_obstacle *obstacles, int count);

/* ------------------------------------------------------------------------------------------
 * Arenas: a grid read from a text map
 * ---------------------------------------------------------------------------------------- */

/* Map characters, one cell each; every row must have the same number of cells.
 *   '#'            wall: blocks movement and line of sight
 *   '.' or ' '     floor
 *   'C'            cover; its normal points toward the adjacent walls (left, right, up, down):
 *                  the normalized sum of the unit vectors toward each wall neighbour. A 'C'
 *                  with no wall neighbour, or with walls on opposite sides only (the sum is
 *                  zero), is an error: give its direction with one of the next four.
 *   '>' '<' '^' 'v' cover with the normal (1,0), (-1,0), (0,-1) (up), (0,1) (down)
 *   'P'            the player (at most one), standing on floor
 *   '0'-'9', 'a'-'z' except 'v'
 *                  a squad member's start position (each at most once), standing on floor
 * Lines end with "\n" or "\r\n"; a final newline is optional; empty lines are allowed only at
 * the end. Errors give the 1-based line and column (in bytes) of the offending character. */
#define GOAP_ARENA_MAX_SIDE 1024   /* width and height limit (GOAP_TOO_LARGE beyond) */
#define GOAP_ARENA_MAX_MEMBERS 35  /* '0'-'9' and 'a'-'z' without 'v' */

typedef struct goap_arena goap_arena;

typedef enum goap_cell {
  GOAP_CELL_FLOOR = 0,
  GOAP_CELL_WALL,
  GOAP_CELL_COVER,
  GOAP_CELL_OUTSIDE /* coordinates outside the map */
} goap_cell;

typedef struct goap_cover {
  int x, y;
  goap_vec2 normal; /* unit length, toward the threat side */
  char glyph;       /* the map character: 'C', '>', '<', '^' or 'v' */
} goap_cover;

typedef struct goap_member {
  char id; /* the map character */
  int x, y;
} goap_member;

/* Parses a text map (length bytes; need not be NUL-terminated). alloc may be NULL (the C
 * library). GOAP_PARSE_ERROR, GOAP_DUPLICATE, GOAP_TOO_LARGE, GOAP_OUT_OF_MEMORY,
 * GOAP_INVALID_ARGUMENT (text or out NULL); on failure *out is NULL. err (may be NULL) follows
 * goap/goap.h: line and col (0 when the error has no position), the message (without the
 * position), the offending map line in source; file is "". */
GOAP_API goap_status goap_arena_parse(const char *text, size_t length,
                                      const goap_allocator *alloc, goap_arena **out,
                                      goap_error *err);
GOAP_API void goap_arena_destroy(goap_arena *a);

GOAP_API int goap_arena_width(const goap_arena *a);
GOAP_API int goap_arena_height(const goap_arena *a);
/* The kind of cell (x, y); GOAP_CELL_OUTSIDE outside the map (and for a NULL arena). */
GOAP_API goap_cell goap_arena_cell(const goap_arena *a, int x, int y);

/* Covers, indexed 0..count-1 in reading order (row by row, left to right). */
GOAP_API int goap_arena_cover_count(const goap_arena *a);
/* Copies cover `index` into *out; GOAP_OUT_OF_RANGE for a bad index. */
GOAP_API goap_status goap_arena_cover(const goap_arena *a, int index, goap_cover *out);
/* The index of the cover at (x, y), or -1. */
GOAP_API int goap_arena_cover_at(const goap_arena *a, int x, int y);

/* Members in reading order. */
GOAP_API int goap_arena_member_count(const goap_arena *a);
GOAP_API goap_status goap_arena_member(const goap_arena *a, int index, goap_member *out);
/* The index of the member with map character id, or -1. */
GOAP_API int goap_arena_find_member(const goap_arena *a, char id);

/* The player's position from the map: 1 and *x, *y (may be NULL) if the map has a 'P', else 0. */
GOAP_API int goap_arena_player(const goap_arena *a, int *x, int *y);

/* The normal the walls around (x, y) give (as for a 'C' cell): the normalized sum of the unit
 * vectors toward its wall neighbours (left, right, up, down). Writes it to *out (may be NULL)
 * and returns 1 when it is non-zero; writes (0, 0) and returns 0 otherwise. */
GOAP_API int goap_arena_wall_normal(const goap_arena *a, int x, int y, goap_vec2 *out);

/* Line of sight between the centres of cells (x0, y0) and (x1, y1): 1 when the segment between
 * them touches no wall cell other than the two end cells themselves (a wall square touched
 * only at a corner blocks too, so a line cannot slip between two diagonal walls). Symmetric:
 * los(a, b) == los(b, a). Exact (integer arithmetic). 0 if either end is outside the map.
 * Cost: O(|x1 - x0| + |y1 - y0|). */
GOAP_API int goap_arena_los(const goap_arena *a, int x0, int y0, int x1, int y1);

/* ------------------------------------------------------------------------------------------
 * Cover heat map
 * ---------------------------------------------------------------------------------------- */

/* Zero fields mean the default. */
typedef struct goap_heat_config {
  double interval;         /* seconds between refreshes; default 0.2 (the document's 200 ms) */
  double cover_half_angle; /* theta of the cover test, in (0, pi]; default pi/4 (45 degrees) */
  double flank_angle;      /* the flank test's minimum angle, in (0, pi); default pi/3 (60) */
} goap_heat_config;

/* Cell flags, as of the last refresh. */
#define GOAP_HEAT_VISIBLE 0x1u     /* line of sight to the player (the player's own cell too) */
#define GOAP_HEAT_PROTECTED 0x2u   /* a cover cell that passes the cover test (goap_cover_protects) */
#define GOAP_HEAT_FLANK 0x4u       /* a valid flank point: VISIBLE, not the player's cell, and
                                      angle(cell - player, player cover normal) > flank_angle
                                      (always true of the angle when the player has no cover) */
#define GOAP_HEAT_FLANK_COVER 0x8u /* a PROTECTED cover on the player's flank side (the angle
                                      condition above holds for it) from which the agent can
                                      step out to fire: the cover cell itself or one of its four
                                      floor/cover neighbours is a FLANK point */

typedef struct goap_heat_cell {
  unsigned flags;    /* GOAP_HEAT_* */
  double protection; /* 1 for a PROTECTED cover, 0.5 for a cell without line of sight to the
                        player, 0 otherwise (walls: 0) */
  double flank;      /* FLANK points: (angle - flank_angle) / (pi - flank_angle) in (0, 1]
                        (1 when the player has no cover); 0 for other cells */
  double angle;      /* angle(cell - player, player cover normal), radians (0 if undefined) */
  double distance;   /* |cell - player| in cells */
} goap_heat_cell;

/* Which covers are taken (reserved or occupied). Either or both may be given; a cover is
 * taken when the mask byte of its cell is non-zero or the callback returns non-zero. A NULL
 * goap_occupancy pointer means every cover is free. The callback is called at most once per
 * cover and query, on the querying thread. */
typedef struct goap_occupancy {
  const unsigned char *mask; /* optional: width * height bytes, row-major (index y*width + x) */
  int (*taken)(void *ctx, int cover, int x, int y); /* optional */
  void *ctx;
} goap_occupancy;

typedef struct goap_heatmap goap_heatmap;

/* Creates a heat map over `arena` (which must outlive it), sized once: no later call
 * allocates. config and alloc may be NULL (defaults; the C library). The player starts where
 * the map's 'P' is (none: no player until goap_heatmap_set_player), and the map is computed
 * once before this returns. GOAP_INVALID_ARGUMENT for a config field out of range. */
GOAP_API goap_status goap_heatmap_create(const goap_arena *arena, const goap_heat_config *config,
                                         const goap_allocator *alloc, goap_heatmap **out);
GOAP_API void goap_heatmap_destroy(goap_heatmap *h);

/* Moves the player (for the next refresh; queries keep answering from the last one). normal
 * is the player's cover normal, pointing toward the squad; NULL derives it from the walls
 * around (x, y) (goap_arena_wall_normal; none: the player has no cover).
 * GOAP_OUT_OF_RANGE outside the map, GOAP_INVALID_ARGUMENT on a wall cell. */
GOAP_API goap_status goap_heatmap_set_player(goap_heatmap *h, int x, int y,
                                             const goap_vec2 *normal);
/* Removes the player: the next refresh marks nothing visible, protected or flanking. */
GOAP_API void goap_heatmap_clear_player(goap_heatmap *h);

/* Advances the heat map's clock by dt seconds (>= 0, finite). When at least `interval`
 * seconds have accumulated since the last refresh (within 1e-9 s, so that 4 x 0.05 reaches
 * 0.2), the map is recomputed and the clock keeps the remainder (less than one interval: a
 * long dt refreshes once). *refreshed (may be NULL) is set to 1 if it recomputed, else 0.
 * GOAP_INVALID_ARGUMENT for a negative or non-finite dt. Cost of a refresh: one line of sight
 * per non-wall cell, O(width * height * (width + height)). */
GOAP_API goap_status goap_heatmap_update(goap_heatmap *h, double dt, int *refreshed);
/* Recomputes now and restarts the clock. */
GOAP_API void goap_heatmap_refresh(goap_heatmap *h);
/* How many times the map has been computed (creation counts as one). */
GOAP_API unsigned long goap_heatmap_refresh_count(const goap_heatmap *h);
GOAP_API const goap_arena *goap_heatmap_arena(const goap_heatmap *h);

/* The player of the last refresh: 1 and its position (x, y may be NULL), or 0 if none. */
GOAP_API int goap_heatmap_player(const goap_heatmap *h, int *x, int *y);

/* Everything known about cell (x, y) as of the last refresh. GOAP_OUT_OF_RANGE outside. */
GOAP_API goap_status goap_heatmap_cell(const goap_heatmap *h, int x, int y, goap_heat_cell *out);
/* GOAP_HEAT_* flags of (x, y); 0 outside the map. O(1). */
GOAP_API unsigned goap_heatmap_flags(const goap_heatmap *h, int x, int y);

/* Cheap queries for procedural preconditions (no allocation; each refresh lists the PROTECTED
 * and the FLANK_COVER covers, so a query scans only those):
 *  best_cover:        the free PROTECTED cover nearest (Euclidean) to (x, y), within max_dist
 *                     cells (max_dist <= 0: any distance); ties go to the lower cover index.
 *                     Returns the cover index (goap_arena_cover) or -1.
 *  best_flank_cover:  the same among free FLANK_COVER covers.
 *  has_flank_cover:   1 if some free FLANK_COVER cover exists, else 0.
 * occ may be NULL (all free). */
GOAP_API int goap_heatmap_best_cover(const goap_heatmap *h, int x, int y,
                                     const goap_occupancy *occ, double max_dist);
GOAP_API int goap_heatmap_best_flank_cover(const goap_heatmap *h, int x, int y,
                                           const goap_occupancy *occ, double max_dist);
GOAP_API int goap_heatmap_has_flank_cover(const goap_heatmap *h, const goap_occupancy *occ);
/* Distance in cells from (x, y) to the player of the last refresh; -1 if there is none. */
GOAP_API double goap_heatmap_player_distance(const goap_heatmap *h, int x, int y);
/* 1 if (x, y) had line of sight to the player at the last refresh (the cached
 * GOAP_HEAT_VISIBLE; for other pairs of cells use goap_arena_los). */
GOAP_API int goap_heatmap_visible(const goap_heatmap *h, int x, int y);

/* ------------------------------------------------------------------------------------------
 * Rendering
 * ---------------------------------------------------------------------------------------- */

/* Something to draw over the map (an agent): its glyph at (x, y). */
typedef struct goap_map_agent {
  char glyph;
  int x, y;
} goap_map_agent;

#define GOAP_RENDER_HEAT 0x1u /* add the heat panel to the right of each map row */

/* Draws the map into buf, one text line per row ending in "\n":
 *  - the map panel: the arena's characters, the player 'P' (from h if given, else from the
 *    map), and agents drawn over cells in array order (a later agent hides an earlier one;
 *    agents outside the map are skipped). With agents == NULL the map's own member characters
 *    are drawn at their start positions; with agents != NULL (count may be 0) they are not.
 *  - with GOAP_RENDER_HEAT and h != NULL, two spaces then the heat panel, one glyph per cell:
 *      '#' wall   'P' player   'F' FLANK_COVER cover   'C' other PROTECTED cover
 *      'x' cover that does not protect   '+' FLANK floor   '-' other VISIBLE floor
 *      '.' floor out of the player's sight
 * snprintf semantics: writes at most cap bytes, NUL-terminated when cap > 0; returns the length
 * of the whole text, excluding the NUL. buf may be NULL when cap is 0. A NULL arena gives 0;
 * a heat map built on another arena is ignored (as if h were NULL). */
GOAP_API size_t goap_arena_render(const goap_arena *a, const goap_heatmap *h,
                                  const goap_map_agent *agents, int count, unsigned flags,
                                  char *buf, size_t cap);

#ifdef __cplusplus
}
#endif

#endif /* GOAP_TACTICS_H */
