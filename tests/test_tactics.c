/*
 * test_tactics.c -- cover geometry (goap_tactics): vectors, the cover and flank tests,
 * segment/box intersection, the text map parser and its errors, line of sight, the heat map's
 * refresh interval and queries, rendering, allocation (failure injection, none after
 * creation), and a property test of line of sight on random maps against an exact brute-force
 * reference written here.
 *
 * Coordinates are the header's: x right, y down; cell (x, y) is centred on the point (x, y).
 */
#include <goap/tactics.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc_hook.h"
#include "test.h"

#define PI 3.14159265358979323846
#define DEG (PI / 180.0)

static goap_vec2 v2(double x, double y) { return goap_vec2_make(x, y); }

/* ------------------------------------------------------------------------------------------
 * Vectors
 * ---------------------------------------------------------------------------------------- */
TEST(vec2_helpers) {
  goap_vec2 a = v2(1, 2), b = v2(3, -5);
  goap_vec2 s = goap_vec2_add(a, b);
  CHECK(s.x == 4 && s.y == -3);
  s = goap_vec2_sub(a, b);
  CHECK(s.x == -2 && s.y == 7);
  s = goap_vec2_scale(a, -2.5);
  CHECK(s.x == -2.5 && s.y == -5);
  CHECK(goap_vec2_dot(v2(1, 2), v2(3, 4)) == 11);
  CHECK(goap_vec2_cross(v2(1, 0), v2(0, 1)) == 1);
  CHECK(goap_vec2_cross(v2(0, 1), v2(1, 0)) == -1);
  CHECK(goap_vec2_length(v2(3, 4)) == 5);
  CHECK(goap_vec2_length(v2(0, 0)) == 0);
  goap_vec2 n = goap_vec2_normalize(v2(3, 4));
  CHECK_NEAR(n.x, 0.6, 1e-15);
  CHECK_NEAR(n.y, 0.8, 1e-15);
  n = goap_vec2_normalize(v2(-1e-300, 0)); /* tiny but not zero: still a unit vector */
  CHECK_NEAR(n.x, -1.0, 1e-15);
  CHECK(n.y == 0);
  /* the zero-length rule */
  n = goap_vec2_normalize(v2(0, 0));
  CHECK(n.x == 0 && n.y == 0);
  n = goap_vec2_normalize(v2(INFINITY, 1));
  CHECK(n.x == 0 && n.y == 0);
}

TEST(vec2_angle) {
  CHECK_NEAR(goap_vec2_angle(v2(1, 0), v2(0, 1)), PI / 2, 1e-15);
  CHECK_NEAR(goap_vec2_angle(v2(0, 1), v2(1, 0)), PI / 2, 1e-15);
  CHECK_NEAR(goap_vec2_angle(v2(1, 0), v2(-3, 0)), PI, 1e-15);
  CHECK_NEAR(goap_vec2_angle(v2(2, 0), v2(5, 5)), PI / 4, 1e-15);
  CHECK_NEAR(goap_vec2_angle(v2(1, 0), v2(1, sqrt(3.0))), PI / 3, 1e-15);
  CHECK_NEAR(goap_vec2_angle(v2(7, 7), v2(7, 7)), 0, 1e-7);
  /* zero vectors: 0, never NaN */
  CHECK(goap_vec2_angle(v2(0, 0), v2(1, 0)) == 0);
  CHECK(goap_vec2_angle(v2(1, 0), v2(0, 0)) == 0);
  CHECK(goap_vec2_angle(v2(0, 0), v2(0, 0)) == 0);
}

/* ------------------------------------------------------------------------------------------
 * Intersections
 * ---------------------------------------------------------------------------------------- */
TEST(segments_intersect) {
  CHECK(goap_segments_intersect(v2(0, 0), v2(2, 2), v2(0, 2), v2(2, 0)));   /* an X */
  CHECK(!goap_segments_intersect(v2(0, 0), v2(2, 0), v2(0, 1), v2(2, 1)));  /* parallel */
  CHECK(goap_segments_intersect(v2(0, 0), v2(2, 0), v2(1, 0), v2(3, 0)));   /* overlap */
  CHECK(!goap_segments_intersect(v2(0, 0), v2(1, 0), v2(2, 0), v2(3, 0)));  /* collinear gap */
  CHECK(goap_segments_intersect(v2(0, 0), v2(2, 0), v2(1, 0), v2(1, 5)));   /* T touch */
  CHECK(!goap_segments_intersect(v2(0, 0), v2(2, 0), v2(1, 0.5), v2(1, 5))); /* T short */
  CHECK(goap_segments_intersect(v2(0, 0), v2(2, 0), v2(2, 0), v2(3, 3)));   /* end to end */
  CHECK(!goap_segments_intersect(v2(0, 0), v2(2, 2), v2(3, 0), v2(1.6, 1.4))); /* nearly */
  /* points */
  CHECK(goap_segments_intersect(v2(1, 1), v2(1, 1), v2(0, 0), v2(2, 2)));
  CHECK(!goap_segments_intersect(v2(1, 1), v2(1, 1), v2(0, 0), v2(2, 3)));
  CHECK(goap_segments_intersect(v2(1, 1), v2(1, 1), v2(1, 1), v2(1, 1)));
  CHECK(!goap_segments_intersect(v2(1, 1), v2(1, 1), v2(1, 2), v2(1, 2)));
}

TEST(segment_box) {
  goap_vec2 lo = v2(1, 1), hi = v2(2, 2);
  CHECK(goap_segment_box_intersect(v2(0, 1.5), v2(3, 1.5), lo, hi));   /* through */
  CHECK(!goap_segment_box_intersect(v2(0, 0.5), v2(3, 0.5), lo, hi));  /* below */
  CHECK(goap_segment_box_intersect(v2(0, 1), v2(3, 1), lo, hi));       /* along an edge */
  CHECK(goap_segment_box_intersect(v2(0, 2), v2(2, 0), lo, hi));       /* corner touch */
  CHECK(!goap_segment_box_intersect(v2(0, 1.9), v2(1.9, 0), lo, hi));  /* passes the corner */
  CHECK(goap_segment_box_intersect(v2(1.5, 1.5), v2(1.6, 1.6), lo, hi)); /* inside */
  CHECK(!goap_segment_box_intersect(v2(0, 0), v2(0.9, 0.9), lo, hi));  /* stops short */
  CHECK(goap_segment_box_intersect(v2(1, 1), v2(1, 1), lo, hi));       /* point on corner */
  CHECK(!goap_segment_box_intersect(v2(0, 1.5), v2(3, 1.5), v2(2, 2), v2(1, 1))); /* empty */
  /* a diagonal whose bounding box overlaps the box but whose line misses it */
  CHECK(!goap_segment_box_intersect(v2(0, 2.5), v2(2.5, 0), v2(2, 2), v2(3, 3)));
}

/* ------------------------------------------------------------------------------------------
 * The document's two tests
 * ---------------------------------------------------------------------------------------- */
TEST(cover_test) {
  goap_vec2 c = v2(0, 0), east = v2(1, 0);
  double th = 45 * DEG;
  /* the cover faces the player (normal toward the threat): protected */
  CHECK(goap_cover_protects(c, east, v2(10, 0), th));
  /* facing away */
  CHECK(!goap_cover_protects(c, east, v2(-10, 0), th));
  CHECK(!goap_cover_protects(c, v2(-1, 0), v2(10, 0), th));
  /* the cone's edge: atan(9/10) = 41.99 deg inside, atan(11/10) = 47.73 deg outside */
  CHECK(goap_cover_protects(c, east, v2(10, 9), th));
  CHECK(goap_cover_protects(c, east, v2(10, -9), th));
  CHECK(!goap_cover_protects(c, east, v2(10, 11), th));
  CHECK(!goap_cover_protects(c, east, v2(10, -11), th));
  /* both vectors are normalized: distance and normal length do not matter */
  CHECK(goap_cover_protects(c, v2(0.001, 0), v2(1000, 900), th));
  CHECK(goap_cover_protects(v2(5, 5), v2(50, 0), v2(5.01, 5.009), th));
  /* half-angle boundary at 60 degrees, either side */
  goap_vec2 p59 = v2(cos(59.9 * DEG), sin(59.9 * DEG)), p61 = v2(cos(60.1 * DEG), sin(60.1 * DEG));
  CHECK(goap_cover_protects(c, east, p59, 60 * DEG));
  CHECK(!goap_cover_protects(c, east, p61, 60 * DEG));
  /* degenerate: the player on the cover, a zero normal */
  CHECK(!goap_cover_protects(c, east, c, th));
  CHECK(!goap_cover_protects(c, v2(0, 0), v2(10, 0), th));
  /* a half-angle of pi protects against everything but the exact back direction */
  CHECK(goap_cover_protects(c, east, v2(-10, 0.01), PI));
  CHECK(!goap_cover_protects(c, east, v2(-10, 0), PI));
}

TEST(flank_test) {
  goap_vec2 p = v2(0, 0), n = v2(1, 0); /* the player hides from the east */
  double a60 = 60 * DEG;
  /* the 60-degree boundary, both sides (points at distance 10 from the player) */
  CHECK(!goap_flank_valid(v2(10 * cos(59.9 * DEG), 10 * sin(59.9 * DEG)), p, n, a60, NULL, 0));
  CHECK(goap_flank_valid(v2(10 * cos(60.1 * DEG), 10 * sin(60.1 * DEG)), p, n, a60, NULL, 0));
  CHECK(!goap_flank_valid(v2(10 * cos(59.9 * DEG), -10 * sin(59.9 * DEG)), p, n, a60, NULL, 0));
  CHECK(goap_flank_valid(v2(10 * cos(60.1 * DEG), -10 * sin(60.1 * DEG)), p, n, a60, NULL, 0));
  CHECK(!goap_flank_valid(v2(10, 0), p, n, a60, NULL, 0));  /* straight at the cover */
  CHECK(goap_flank_valid(v2(0, 10), p, n, a60, NULL, 0));   /* 90 degrees */
  CHECK(goap_flank_valid(v2(-10, 0), p, n, a60, NULL, 0));  /* behind the player */
  /* the minimum angle is a parameter */
  CHECK(!goap_flank_valid(v2(0, 10), p, n, 100 * DEG, NULL, 0));
  CHECK(goap_flank_valid(v2(10, 10), p, n, 30 * DEG, NULL, 0));
  /* zero vectors: no cover means every direction; the player's own spot is never a flank */
  CHECK(goap_flank_valid(v2(10, 0), p, v2(0, 0), a60, NULL, 0));
  CHECK(!goap_flank_valid(p, p, n, a60, NULL, 0));
  CHECK(!goap_flank_valid(p, p, v2(0, 0), a60, NULL, 0));
  /* blocked lines */
  goap_obstacle wall = {GOAP_OBSTACLE_SEGMENT, {-1, 5}, {1, 5}};
  goap_obstacle box = {GOAP_OBSTACLE_BOX, {-0.5, 4}, {0.5, 6}};
  goap_obstacle aside = {GOAP_OBSTACLE_BOX, {2, 4}, {3, 6}};
  goap_obstacle touch = {GOAP_OBSTACLE_SEGMENT, {0, 5}, {3, 5}};
  CHECK(!goap_flank_valid(v2(0, 10), p, n, a60, &wall, 1));
  CHECK(!goap_flank_valid(v2(0, 10), p, n, a60, &box, 1));
  CHECK(goap_flank_valid(v2(0, 10), p, n, a60, &aside, 1));
  CHECK(!goap_flank_valid(v2(0, 10), p, n, a60, &touch, 1));
  goap_obstacle both[2] = {aside, box};
  CHECK(!goap_flank_valid(v2(0, 10), p, n, a60, both, 2));
  CHECK(goap_flank_valid(v2(0, 10), p, n, a60, both, 1));
  /* the player's cover itself (a box just east of the player) blocks only lines through it */
  goap_obstacle pc = {GOAP_OBSTACLE_BOX, {0.5, -0.5}, {1.5, 0.5}};
  CHECK(goap_flank_valid(v2(0, 10), p, n, a60, &pc, 1));
  CHECK(!goap_flank_valid(v2(10, 0), p, v2(0, 0), a60, &pc, 1));
}

/* ------------------------------------------------------------------------------------------
 * Maps
 * ---------------------------------------------------------------------------------------- */
static goap_arena *parse(const char *text) {
  goap_arena *a = NULL;
  goap_error e;
  goap_status st = goap_arena_parse(text, strlen(text), NULL, &a, &e);
  if (st != GOAP_OK) fprintf(stderr, "parse failed: %s\n", e.message);
  return a;
}

/* y:  0123456789X (x) */
static const char scene[] = "###########\n" /* 0 */
                            "#.........#\n" /* 1 */
                            "#...v.....#\n" /* 2 */
                            "#...#.....#\n" /* 3 */
                            "#..P#<.C#.#\n" /* 4 */
                            "#.........#\n" /* 5 */
                            "#.........#\n" /* 6 */
                            "#....1..2.#\n" /* 7 */
                            "###########\n";

TEST(map_parse) {
  goap_arena *a = parse(scene);
  REQUIRE(a);
  CHECK_EQ_INT(goap_arena_width(a), 11);
  CHECK_EQ_INT(goap_arena_height(a), 9);
  CHECK_EQ_INT(goap_arena_cell(a, 0, 0), GOAP_CELL_WALL);
  CHECK_EQ_INT(goap_arena_cell(a, 1, 1), GOAP_CELL_FLOOR);
  CHECK_EQ_INT(goap_arena_cell(a, 4, 2), GOAP_CELL_COVER);
  CHECK_EQ_INT(goap_arena_cell(a, 3, 4), GOAP_CELL_FLOOR); /* the player stands on floor */
  CHECK_EQ_INT(goap_arena_cell(a, 5, 7), GOAP_CELL_FLOOR);
  CHECK_EQ_INT(goap_arena_cell(a, -1, 0), GOAP_CELL_OUTSIDE);
  CHECK_EQ_INT(goap_arena_cell(a, 11, 0), GOAP_CELL_OUTSIDE);
  CHECK_EQ_INT(goap_arena_cell(a, 0, 9), GOAP_CELL_OUTSIDE);
  CHECK_EQ_INT(goap_arena_cover_count(a), 3);
  goap_cover c;
  REQUIRE(goap_arena_cover(a, 0, &c) == GOAP_OK);
  CHECK(c.x == 4 && c.y == 2 && c.glyph == 'v' && c.normal.x == 0 && c.normal.y == 1);
  REQUIRE(goap_arena_cover(a, 1, &c) == GOAP_OK);
  CHECK(c.x == 5 && c.y == 4 && c.glyph == '<' && c.normal.x == -1 && c.normal.y == 0);
  REQUIRE(goap_arena_cover(a, 2, &c) == GOAP_OK);
  /* 'C' takes its normal from the wall on its right */
  CHECK(c.x == 7 && c.y == 4 && c.glyph == 'C' && c.normal.x == 1 && c.normal.y == 0);
  CHECK_EQ_INT(goap_arena_cover(a, 3, &c), GOAP_OUT_OF_RANGE);
  CHECK_EQ_INT(goap_arena_cover(a, -1, &c), GOAP_OUT_OF_RANGE);
  CHECK_EQ_INT(goap_arena_cover_at(a, 7, 4), 2);
  CHECK_EQ_INT(goap_arena_cover_at(a, 6, 4), -1);
  int x = -1, y = -1;
  CHECK(goap_arena_player(a, &x, &y) == 1 && x == 3 && y == 4);
  CHECK_EQ_INT(goap_arena_member_count(a), 2);
  goap_member m;
  REQUIRE(goap_arena_member(a, 1, &m) == GOAP_OK);
  CHECK(m.id == '2' && m.x == 8 && m.y == 7);
  CHECK_EQ_INT(goap_arena_find_member(a, '1'), 0);
  CHECK_EQ_INT(goap_arena_find_member(a, '3'), -1);
  goap_vec2 n;
  CHECK(goap_arena_wall_normal(a, 3, 4, &n) && n.x == 1 && n.y == 0); /* the player's cover */
  CHECK(!goap_arena_wall_normal(a, 6, 6, &n) && n.x == 0 && n.y == 0);
  /* a corner: walls up and left give the diagonal */
  CHECK(goap_arena_wall_normal(a, 1, 1, &n));
  CHECK_NEAR(n.x, -sqrt(0.5), 1e-15);
  CHECK_NEAR(n.y, -sqrt(0.5), 1e-15);
  goap_arena_destroy(a);

  /* CRLF, spaces as floor, no final newline, trailing empty lines, a corner 'C' */
  a = parse("#C .\r\n##..\r\n\r\n\n");
  REQUIRE(a);
  CHECK_EQ_INT(goap_arena_width(a), 4);
  CHECK_EQ_INT(goap_arena_height(a), 2);
  CHECK_EQ_INT(goap_arena_cell(a, 2, 0), GOAP_CELL_FLOOR);
  REQUIRE(goap_arena_cover(a, 0, &c) == GOAP_OK);
  CHECK_NEAR(c.normal.x, -sqrt(0.5), 1e-15);
  CHECK_NEAR(c.normal.y, sqrt(0.5), 1e-15);
  CHECK(!goap_arena_player(a, NULL, NULL));
  goap_arena_destroy(a);
  a = parse("..");
  CHECK(a && goap_arena_width(a) == 2 && goap_arena_height(a) == 1);
  goap_arena_destroy(a);
  goap_arena_destroy(NULL);
  /* every member character */
  a = parse("0123456789abcdefghijklmnopqrstuwxyz");
  CHECK(a && goap_arena_member_count(a) == GOAP_ARENA_MAX_MEMBERS);
  goap_arena_destroy(a);
}

typedef struct bad_map {
  const char *text;
  goap_status status;
  int line, col;
  const char *message; /* exact, or NULL to check only the position */
} bad_map;

TEST(map_errors) {
  static const bad_map cases[] = {
      {"##\n#Q\n", GOAP_PARSE_ERROR, 2, 2,
       "unknown map character 'Q' (expected one of # . C > < ^ v P 0-9 a-z)"},
      {"###\n#.\n###\n", GOAP_PARSE_ERROR, 2, 3, "row 2 has 2 cells, the first row has 3"},
      {"##\n#..\n", GOAP_PARSE_ERROR, 2, 3, "row 2 is wider than the first row (2 cells)"},
      {"P.\n.P\n", GOAP_DUPLICATE, 2, 2, "a second player 'P' (the first is at 1:1)"},
      {"..\n1.1\n", GOAP_PARSE_ERROR, 2, 3, NULL}, /* wider first: reading order */
      {"1.1\n...\n", GOAP_DUPLICATE, 1, 3, "squad member '1' appears twice (first at 1:1)"},
      {"...\n.C.\n...\n", GOAP_PARSE_ERROR, 2, 2,
       "cover 'C' has no wall next to it (left, right, up or down): give its direction "
       "with > < ^ v"},
      {"#C#\n", GOAP_PARSE_ERROR, 1, 2,
       "cover 'C' has walls on opposite sides only: its direction is ambiguous (use > < ^ "
       "v)"},
      {"..#\n...\n.C.\n", GOAP_PARSE_ERROR, 3, 2, NULL},
      {"#\n\n#\n", GOAP_PARSE_ERROR, 2, 1,
       "empty line inside the map (empty lines are allowed only at the end)"},
      {"", GOAP_PARSE_ERROR, 1, 1, "empty map (no rows)"},
      {"\n\n", GOAP_PARSE_ERROR, 1, 1, "empty map (no rows)"},
      {"..\t.\n", GOAP_PARSE_ERROR, 1, 3, NULL},
      {"..\r.\n", GOAP_PARSE_ERROR, 1, 3, NULL}, /* a lone CR is not a line end */
      {"V\n", GOAP_PARSE_ERROR, 1, 1, NULL},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    static char dummy;
    goap_arena *a = (goap_arena *)(void *)&dummy; /* must be reset to NULL */
    goap_error e;
    goap_status st = goap_arena_parse(cases[i].text, strlen(cases[i].text), NULL, &a, &e);
    if (st != cases[i].status || e.line != cases[i].line || e.col != cases[i].col)
      fprintf(stderr, "case %zu: got %d at %d:%d (%s)\n", i, (int)st, e.line, e.col, e.message);
    CHECK_EQ_INT(st, cases[i].status);
    CHECK_EQ_INT(e.status, cases[i].status);
    CHECK_EQ_INT(e.line, cases[i].line);
    CHECK_EQ_INT(e.col, cases[i].col);
    CHECK(a == NULL);
    if (cases[i].message) CHECK_STR(e.message, cases[i].message);
    /* goap_error: no "line:col: " in the message (the fields hold it), no file, the offending
     * line in source (control bytes as '?') and the byte offset of line:col */
    CHECK(e.file[0] == '\0');
    const char *ls = cases[i].text;
    for (int l = 1; l < cases[i].line && strchr(ls, '\n'); ++l) ls = strchr(ls, '\n') + 1;
    size_t ll = strcspn(ls, "\n");
    char want_src[64];
    for (size_t k = 0; k < ll && k + 1 < sizeof want_src; ++k)
      want_src[k] = (unsigned char)ls[k] < 0x20 ? '?' : ls[k];
    want_src[ll < sizeof want_src - 1 ? ll : sizeof want_src - 1] = '\0';
    CHECK_STR(e.source, want_src);
    CHECK_EQ_INT(e.offset, (size_t)(ls - cases[i].text) + (size_t)cases[i].col - 1);
  }
  /* a control character is shown escaped; text need not be NUL-terminated */
  goap_arena *a = NULL;
  goap_error e;
  const char nul[] = {'.', '.', '\0', '.'};
  CHECK_EQ_INT(goap_arena_parse(nul, sizeof nul, NULL, &a, &e), GOAP_PARSE_ERROR);
  CHECK_STR(e.message, "unknown map character '\\x00' (expected one of # . C > < ^ v P 0-9 a-z)");
  CHECK_STR(e.source, "..?."); /* the NUL shown as '?' */
  /* goap_error_format: a positioned error, no file: line:col, the source line and a caret */
  char shown[256];
  goap_error_format(&e, shown, sizeof shown);
  CHECK_STR(shown, "1:3: error: unknown map character '\\x00' (expected one of # . C > < ^ v P "
                   "0-9 a-z)\n..?.\n  ^\n");
  CHECK_EQ_INT(goap_arena_parse("..#", 2, NULL, &a, &e), GOAP_OK); /* only 2 bytes */
  CHECK(a && goap_arena_width(a) == 2);
  goap_arena_destroy(a);
  /* limits */
  char *wide = (char *)malloc(GOAP_ARENA_MAX_SIDE + 3);
  REQUIRE(wide);
  memset(wide, '.', GOAP_ARENA_MAX_SIDE + 1);
  CHECK_EQ_INT(goap_arena_parse(wide, GOAP_ARENA_MAX_SIDE, NULL, &a, &e), GOAP_OK);
  goap_arena_destroy(a);
  CHECK_EQ_INT(goap_arena_parse(wide, GOAP_ARENA_MAX_SIDE + 1, NULL, &a, &e), GOAP_TOO_LARGE);
  CHECK(e.line == 1 && e.col == GOAP_ARENA_MAX_SIDE + 1 && a == NULL);
  CHECK_STR(e.message, "the map is wider than 1024 cells");
  free(wide);
  size_t tall_len = 2 * (GOAP_ARENA_MAX_SIDE + 1);
  char *tall = (char *)malloc(tall_len);
  REQUIRE(tall);
  for (size_t i = 0; i < tall_len; i += 2) {
    tall[i] = '.';
    tall[i + 1] = '\n';
  }
  CHECK_EQ_INT(goap_arena_parse(tall, tall_len - 2, NULL, &a, &e), GOAP_OK);
  goap_arena_destroy(a);
  CHECK_EQ_INT(goap_arena_parse(tall, tall_len, NULL, &a, &e), GOAP_TOO_LARGE);
  CHECK(e.line == GOAP_ARENA_MAX_SIDE + 1 && e.col == 1);
  free(tall);
  /* NULL arguments */
  CHECK_EQ_INT(goap_arena_parse("..", 2, NULL, NULL, &e), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_arena_parse(NULL, 2, NULL, &a, NULL), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_arena_parse("..", 2, NULL, &a, NULL), GOAP_OK); /* err may be NULL */
  goap_arena_destroy(a);
  CHECK_EQ_INT(goap_arena_parse("X", 1, NULL, &a, NULL), GOAP_PARSE_ERROR);
}

/* ------------------------------------------------------------------------------------------
 * Line of sight
 * ---------------------------------------------------------------------------------------- */
TEST(line_of_sight) {
  goap_arena *a = parse(scene);
  REQUIRE(a);
  CHECK(goap_arena_los(a, 3, 4, 3, 1));  /* straight up the column */
  CHECK(!goap_arena_los(a, 3, 4, 6, 4)); /* through the wall at (4,4) */
  CHECK(!goap_arena_los(a, 6, 4, 3, 4));
  CHECK(!goap_arena_los(a, 3, 4, 5, 3)); /* the line enters (4,4) at x = 3.5, y = 3.75 */
  CHECK(!goap_arena_los(a, 3, 4, 5, 5)); /* y = 4.25 at x = 3.5: inside the wall's square */
  CHECK(goap_arena_los(a, 3, 4, 4, 6));  /* x = 3.25 at y = 4.5: below the wall's corner */
  CHECK(goap_arena_los(a, 3, 4, 3, 4));  /* a cell sees itself */
  CHECK(!goap_arena_los(a, 3, 4, 4, 2)); /* the cover's own wall (4,3): x = 3.5 at y = 3 */
  CHECK(goap_arena_los(a, 3, 4, 3, 2));  /* its neighbour (3,2) sees the player */
  CHECK(goap_arena_los(a, 1, 1, 9, 1));
  CHECK(!goap_arena_los(a, 1, 1, 11, 1)); /* outside */
  CHECK(!goap_arena_los(a, -1, 1, 1, 1));
  CHECK(!goap_arena_los(NULL, 1, 1, 1, 1));
  /* end cells are not tested: a wall sees and is seen */
  CHECK(goap_arena_los(a, 0, 1, 2, 1));
  goap_arena_destroy(a);
  /* corners: a line through a wall's corner is blocked, so it cannot slip between diagonals */
  a = parse(".#\n#.\n");
  REQUIRE(a);
  CHECK(!goap_arena_los(a, 0, 0, 1, 1));
  CHECK(!goap_arena_los(a, 1, 1, 0, 0));
  goap_arena_destroy(a);
  a = parse(".#\n..\n");
  REQUIRE(a);
  CHECK(!goap_arena_los(a, 0, 0, 1, 1));
  CHECK(goap_arena_los(a, 0, 1, 1, 0)); /* the wall (1,0) is an end cell: not tested */
  goap_arena_destroy(a);
  a = parse("..\n..\n");
  REQUIRE(a);
  CHECK(goap_arena_los(a, 0, 0, 1, 1));
  goap_arena_destroy(a);
  /* a knight's move (2,1) passes no corner: only the cells it crosses matter */
  a = parse("..#\n#..\n");
  REQUIRE(a);
  CHECK(goap_arena_los(a, 0, 0, 2, 1)); /* crosses (1,0) and (1,1), both floor */
  goap_arena_destroy(a);
  a = parse(".#.\n...\n");
  REQUIRE(a);
  CHECK(!goap_arena_los(a, 0, 0, 2, 1)); /* crosses (1,0), a wall */
  goap_arena_destroy(a);
}

/* ------------------------------------------------------------------------------------------
 * Heat map
 * ---------------------------------------------------------------------------------------- */
TEST(heat_scene) {
  goap_arena *a = parse(scene);
  REQUIRE(a);
  goap_heatmap *h = NULL;
  REQUIRE(goap_heatmap_create(a, NULL, NULL, &h) == GOAP_OK);
  CHECK_EQ_INT(goap_heatmap_refresh_count(h), 1);
  CHECK(goap_heatmap_arena(h) == a);
  int px, py;
  CHECK(goap_heatmap_player(h, &px, &py) && px == 3 && py == 4);
  /* 'v' at (4,2): the player at (3,4) is at 26.6 deg from its normal (0,1): protected; seen
   * from the player it is at angle(( 1,-2), (1,0)) = 63.4 deg > 60: on the flank side; its
   * neighbour (3,2) sees the player at 90 deg: a flank point. So a flank cover. */
  unsigned f = goap_heatmap_flags(h, 4, 2);
  CHECK(f & GOAP_HEAT_PROTECTED);
  CHECK(f & GOAP_HEAT_FLANK_COVER);
  CHECK(goap_heatmap_flags(h, 3, 2) & GOAP_HEAT_FLANK);
  /* '<' at (5,4): protected (the player is straight along its normal) but at 0 deg: no flank */
  f = goap_heatmap_flags(h, 5, 4);
  CHECK((f & GOAP_HEAT_PROTECTED) && !(f & GOAP_HEAT_FLANK_COVER));
  /* 'C' at (7,4) faces east, away from the player */
  f = goap_heatmap_flags(h, 7, 4);
  CHECK(!(f & GOAP_HEAT_PROTECTED) && !(f & GOAP_HEAT_FLANK_COVER));
  /* visibility and flank points */
  CHECK(goap_heatmap_visible(h, 3, 1));
  CHECK(!goap_heatmap_visible(h, 6, 4));
  CHECK(goap_heatmap_flags(h, 3, 1) & GOAP_HEAT_FLANK);       /* 90 deg */
  CHECK(goap_heatmap_flags(h, 1, 4) & GOAP_HEAT_FLANK);       /* 180 deg, behind */
  CHECK(!(goap_heatmap_flags(h, 3, 4) & GOAP_HEAT_FLANK));    /* the player's cell */
  CHECK(goap_heatmap_flags(h, 3, 4) & GOAP_HEAT_VISIBLE);
  /* (5,7): seen (the line passes below the wall's corner), at angle((2,3),(1,0)) = 56.3 deg */
  CHECK(goap_heatmap_flags(h, 5, 7) & GOAP_HEAT_VISIBLE);
  CHECK(!(goap_heatmap_flags(h, 5, 7) & GOAP_HEAT_FLANK));
  CHECK(!goap_heatmap_visible(h, 9, 7)); /* touches the corner (3.5, 4.25) of the wall (4,4) */
  CHECK_EQ_INT(goap_heatmap_flags(h, 0, 0), 0);
  CHECK_EQ_INT(goap_heatmap_flags(h, 99, 0), 0);
  goap_heat_cell hc;
  REQUIRE(goap_heatmap_cell(h, 3, 1, &hc) == GOAP_OK);
  CHECK_NEAR(hc.angle, PI / 2, 1e-12);
  CHECK_NEAR(hc.flank, (PI / 2 - PI / 3) / (PI - PI / 3), 1e-6); /* 0.25 */
  CHECK_NEAR(hc.distance, 3, 1e-12);
  CHECK_NEAR(hc.protection, 0.0, 0); /* seen, not a cover */
  REQUIRE(goap_heatmap_cell(h, 9, 4, &hc) == GOAP_OK);
  CHECK_NEAR(hc.protection, 0.5, 0); /* hidden */
  CHECK_NEAR(hc.flank, 0, 0);
  REQUIRE(goap_heatmap_cell(h, 4, 2, &hc) == GOAP_OK);
  CHECK_NEAR(hc.protection, 1.0, 0);
  CHECK_EQ_INT(goap_heatmap_cell(h, 11, 0, &hc), GOAP_OUT_OF_RANGE);
  CHECK_EQ_INT(goap_heatmap_cell(h, 0, 0, NULL), GOAP_INVALID_ARGUMENT);

  /* every cell agrees with the pure tests */
  goap_vec2 player = v2(3, 4), pn = v2(1, 0);
  for (int y = 0; y < 9; ++y)
    for (int x = 0; x < 11; ++x) {
      if (goap_arena_cell(a, x, y) == GOAP_CELL_WALL) continue;
      unsigned fl = goap_heatmap_flags(h, x, y);
      int los = goap_arena_los(a, x, y, 3, 4);
      CHECK_EQ_INT((fl & GOAP_HEAT_VISIBLE) != 0, los);
      int flank = los && goap_flank_valid(v2(x, y), player, pn, PI / 3, NULL, 0);
      CHECK_EQ_INT((fl & GOAP_HEAT_FLANK) != 0, flank);
      int k = goap_arena_cover_at(a, x, y);
      if (k >= 0) {
        goap_cover c;
        goap_arena_cover(a, k, &c);
        CHECK_EQ_INT((fl & GOAP_HEAT_PROTECTED) != 0,
                     goap_cover_protects(v2(x, y), c.normal, player, PI / 4));
      } else {
        CHECK(!(fl & (GOAP_HEAT_PROTECTED | GOAP_HEAT_FLANK_COVER)));
      }
    }
  goap_heatmap_destroy(h);
  goap_arena_destroy(a);
}

static int taken_cb(void *ctx, int cover, int x, int y) {
  (void)x;
  (void)y;
  int *calls = (int *)ctx;
  calls[0]++;
  return cover == calls[1];
}

TEST(heat_queries) {
  goap_arena *a = parse(scene);
  REQUIRE(a);
  goap_heatmap *h = NULL;
  REQUIRE(goap_heatmap_create(a, NULL, NULL, &h) == GOAP_OK);
  /* nearest protected cover to (9,4): '<' (5,4) at 4 cells, before 'v' (4,2) at 5.39 */
  CHECK_EQ_INT(goap_heatmap_best_cover(h, 9, 4, NULL, 0), 1);
  CHECK_EQ_INT(goap_heatmap_best_cover(h, 4, 1, NULL, 0), 0);
  CHECK_EQ_INT(goap_heatmap_best_cover(h, 9, 4, NULL, 3.9), -1); /* out of reach */
  CHECK_EQ_INT(goap_heatmap_best_cover(h, 9, 4, NULL, 4.0), 1);
  CHECK_EQ_INT(goap_heatmap_best_flank_cover(h, 9, 4, NULL, 0), 0);
  CHECK(goap_heatmap_has_flank_cover(h, NULL));
  /* occupancy by mask */
  unsigned char mask[11 * 9];
  memset(mask, 0, sizeof mask);
  mask[2 * 11 + 4] = 1; /* someone holds (4,2) */
  goap_occupancy occ = {mask, NULL, NULL};
  CHECK(!goap_heatmap_has_flank_cover(h, &occ));
  CHECK_EQ_INT(goap_heatmap_best_flank_cover(h, 9, 4, &occ, 0), -1);
  CHECK_EQ_INT(goap_heatmap_best_cover(h, 4, 1, &occ, 0), 1); /* the next one */
  /* occupancy by callback (a reservation table): cover 1 is reserved */
  int state[2] = {0, 1};
  goap_occupancy res = {NULL, taken_cb, state};
  CHECK_EQ_INT(goap_heatmap_best_cover(h, 9, 4, &res, 0), 0);
  CHECK(state[0] >= 1 && state[0] <= 3); /* at most once per cover */
  state[1] = 0;
  CHECK(!goap_heatmap_has_flank_cover(h, &res));
  /* distance and sight */
  CHECK_NEAR(goap_heatmap_player_distance(h, 6, 8), 5, 1e-12);
  CHECK(goap_heatmap_visible(h, 3, 1));
  CHECK(!goap_heatmap_visible(h, 9, 4));
  /* a player with no cover: every seen cell but its own is a flank point, at value 1 */
  REQUIRE(goap_heatmap_set_player(h, 6, 6, NULL) == GOAP_OK);
  goap_heatmap_refresh(h);
  goap_heat_cell hc;
  REQUIRE(goap_heatmap_cell(h, 9, 6, &hc) == GOAP_OK);
  CHECK((hc.flags & GOAP_HEAT_FLANK) && hc.flank == 1.0);
  CHECK(!(goap_heatmap_flags(h, 6, 6) & GOAP_HEAT_FLANK));
  /* an explicit normal overrides the walls */
  REQUIRE(goap_heatmap_set_player(h, 6, 6, &(goap_vec2){0, -5}) == GOAP_OK);
  goap_heatmap_refresh(h);
  CHECK(!(goap_heatmap_flags(h, 6, 1) & GOAP_HEAT_FLANK)); /* straight along the normal */
  CHECK(goap_heatmap_flags(h, 9, 6) & GOAP_HEAT_FLANK);
  /* no player: nothing is seen, protected or flanking */
  goap_heatmap_clear_player(h);
  goap_heatmap_refresh(h);
  CHECK(!goap_heatmap_player(h, NULL, NULL));
  CHECK_EQ_INT(goap_heatmap_flags(h, 3, 1), 0);
  CHECK_EQ_INT(goap_heatmap_best_cover(h, 9, 4, NULL, 0), -1);
  CHECK(goap_heatmap_player_distance(h, 1, 1) < 0);
  /* bad arguments */
  CHECK_EQ_INT(goap_heatmap_set_player(h, 0, 0, NULL), GOAP_INVALID_ARGUMENT); /* wall */
  CHECK_EQ_INT(goap_heatmap_set_player(h, -1, 0, NULL), GOAP_OUT_OF_RANGE);
  CHECK_EQ_INT(goap_heatmap_set_player(h, 1, 1, &(goap_vec2){NAN, 0}), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_heatmap_set_player(NULL, 1, 1, NULL), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_heatmap_best_cover(NULL, 1, 1, NULL, 0), -1);
  CHECK_EQ_INT(goap_heatmap_has_flank_cover(NULL, NULL), 0);
  goap_heatmap_destroy(h);
  goap_heat_config bad = {-1, 0, 0};
  CHECK_EQ_INT(goap_heatmap_create(a, &bad, NULL, &h), GOAP_INVALID_ARGUMENT);
  CHECK(h == NULL);
  bad = (goap_heat_config){0, 0, PI};
  CHECK_EQ_INT(goap_heatmap_create(a, &bad, NULL, &h), GOAP_INVALID_ARGUMENT);
  bad = (goap_heat_config){0, 4, 0};
  CHECK_EQ_INT(goap_heatmap_create(a, &bad, NULL, &h), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_heatmap_create(NULL, NULL, NULL, &h), GOAP_INVALID_ARGUMENT);
  goap_heatmap_destroy(NULL);
  goap_arena_destroy(a);
}

TEST(heat_config_angles) {
  goap_arena *a = parse(scene);
  REQUIRE(a);
  goap_heatmap *h = NULL;
  /* a 70-degree flank angle drops 'v' (63.4 deg from the player) as a flank cover */
  goap_heat_config cfg = {0, 0, 70 * DEG};
  REQUIRE(goap_heatmap_create(a, &cfg, NULL, &h) == GOAP_OK);
  CHECK(goap_heatmap_flags(h, 4, 2) & GOAP_HEAT_PROTECTED);
  CHECK(!(goap_heatmap_flags(h, 4, 2) & GOAP_HEAT_FLANK_COVER));
  CHECK(!goap_heatmap_has_flank_cover(h, NULL));
  goap_heatmap_destroy(h);
  /* a 20-degree cover cone drops 'v' (the player is 26.6 deg off its normal) */
  cfg = (goap_heat_config){0, 20 * DEG, 0};
  REQUIRE(goap_heatmap_create(a, &cfg, NULL, &h) == GOAP_OK);
  CHECK(!(goap_heatmap_flags(h, 4, 2) & GOAP_HEAT_PROTECTED));
  CHECK(goap_heatmap_flags(h, 5, 4) & GOAP_HEAT_PROTECTED);
  goap_heatmap_destroy(h);
  goap_arena_destroy(a);
}

/* A protected cover on the flank side is a flank cover only if the agent can step out to
 * fire: here every neighbour of 'v' is a wall or out of the player's sight. */
TEST(flank_cover_needs_a_peek) {
  goap_arena *a = parse("#######\n"
                        "#.....#\n"
                        "#.#v#.#\n"
                        "#.###.#\n"
                        "#.....#\n"
                        "#..P..#\n"
                        "#######\n");
  REQUIRE(a);
  goap_heatmap *h = NULL;
  REQUIRE(goap_heatmap_create(a, NULL, NULL, &h) == GOAP_OK);
  CHECK(goap_heatmap_flags(h, 3, 2) & GOAP_HEAT_PROTECTED);
  CHECK(!goap_heatmap_visible(h, 3, 1));
  CHECK(!(goap_heatmap_flags(h, 3, 2) & GOAP_HEAT_FLANK_COVER));
  CHECK(!goap_heatmap_has_flank_cover(h, NULL));
  CHECK_EQ_INT(goap_heatmap_best_cover(h, 1, 1, NULL, 0), 0);
  CHECK_EQ_INT(goap_heatmap_best_flank_cover(h, 1, 1, NULL, 0), -1);
  goap_heatmap_destroy(h);
  goap_arena_destroy(a);
}

TEST(heat_interval) {
  goap_arena *a = parse(scene);
  REQUIRE(a);
  goap_heatmap *h = NULL;
  REQUIRE(goap_heatmap_create(a, NULL, NULL, &h) == GOAP_OK);
  int r = -1;
  /* the player moves to (9,1); the map keeps answering for (3,4) until 200 ms have passed */
  REQUIRE(goap_heatmap_set_player(h, 9, 1, NULL) == GOAP_OK);
  CHECK(goap_heatmap_visible(h, 3, 1) && !goap_heatmap_visible(h, 9, 4));
  CHECK_EQ_INT(goap_heatmap_update(h, 0.1, &r), GOAP_OK);
  CHECK_EQ_INT(r, 0);
  CHECK_EQ_INT(goap_heatmap_update(h, 0.099, &r), GOAP_OK);
  CHECK_EQ_INT(r, 0);
  CHECK_EQ_INT(goap_heatmap_refresh_count(h), 1);
  int px = 0, py = 0;
  CHECK(goap_heatmap_player(h, &px, &py) && px == 3 && py == 4);
  CHECK(!goap_heatmap_visible(h, 9, 4));
  CHECK_EQ_INT(goap_heatmap_update(h, 0.001, &r), GOAP_OK); /* 0.2 s */
  CHECK_EQ_INT(r, 1);
  CHECK_EQ_INT(goap_heatmap_refresh_count(h), 2);
  CHECK(goap_heatmap_player(h, &px, &py) && px == 9 && py == 1);
  CHECK(goap_heatmap_visible(h, 9, 4)); /* now seen from (9,1) */
  /* 4 x 50 ms: exactly on the 4th (0.05 added four times is not exactly 0.2 in binary) */
  for (int i = 0; i < 3; ++i) {
    CHECK_EQ_INT(goap_heatmap_update(h, 0.05, &r), GOAP_OK);
    CHECK_EQ_INT(r, 0);
  }
  CHECK_EQ_INT(goap_heatmap_update(h, 0.05, &r), GOAP_OK);
  CHECK_EQ_INT(r, 1);
  CHECK_EQ_INT(goap_heatmap_refresh_count(h), 3);
  /* a long frame refreshes once and keeps a remainder below one interval */
  CHECK_EQ_INT(goap_heatmap_update(h, 1.05, &r), GOAP_OK);
  CHECK_EQ_INT(r, 1);
  CHECK_EQ_INT(goap_heatmap_refresh_count(h), 4);
  CHECK_EQ_INT(goap_heatmap_update(h, 0.1, &r), GOAP_OK); /* 0.05 + 0.1 */
  CHECK_EQ_INT(r, 0);
  CHECK_EQ_INT(goap_heatmap_update(h, 0.05, &r), GOAP_OK); /* 0.2 */
  CHECK_EQ_INT(r, 1);
  /* a forced refresh restarts the clock */
  CHECK_EQ_INT(goap_heatmap_update(h, 0.15, &r), GOAP_OK);
  goap_heatmap_refresh(h);
  CHECK_EQ_INT(goap_heatmap_update(h, 0.15, &r), GOAP_OK);
  CHECK_EQ_INT(r, 0);
  CHECK_EQ_INT(goap_heatmap_update(h, 0.0, &r), GOAP_OK);
  CHECK_EQ_INT(r, 0);
  /* bad dt */
  unsigned long before = goap_heatmap_refresh_count(h);
  CHECK_EQ_INT(goap_heatmap_update(h, -0.1, &r), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_heatmap_update(h, NAN, &r), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_heatmap_update(h, INFINITY, &r), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_heatmap_update(NULL, 1, &r), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_heatmap_refresh_count(h), before);
  CHECK_EQ_INT(goap_heatmap_update(h, 0.05, NULL), GOAP_OK); /* 0.2: refreshed may be NULL */
  CHECK_EQ_INT(goap_heatmap_refresh_count(h), before + 1);
  goap_heatmap_destroy(h);
  /* another interval */
  goap_heat_config cfg = {0.5, 0, 0};
  REQUIRE(goap_heatmap_create(a, &cfg, NULL, &h) == GOAP_OK);
  CHECK_EQ_INT(goap_heatmap_update(h, 0.3, &r), GOAP_OK);
  CHECK_EQ_INT(r, 0);
  CHECK_EQ_INT(goap_heatmap_update(h, 0.2, &r), GOAP_OK);
  CHECK_EQ_INT(r, 1);
  goap_heatmap_destroy(h);
  goap_arena_destroy(a);
}

/* ------------------------------------------------------------------------------------------
 * Rendering
 * ---------------------------------------------------------------------------------------- */
TEST(render) {
  goap_arena *a = parse(scene);
  REQUIRE(a);
  char buf[1024];
  /* the map alone, with its members */
  size_t n = goap_arena_render(a, NULL, NULL, 0, 0, buf, sizeof buf);
  CHECK_EQ_INT(n, strlen(scene));
  CHECK_STR(buf, scene);
  /* agents replace the members */
  goap_map_agent ag[2] = {{'S', 6, 6}, {'G', 1, 1}};
  n = goap_arena_render(a, NULL, ag, 2, 0, buf, sizeof buf);
  CHECK_EQ_INT(n, 9 * 12);
  CHECK(buf[6 * 12 + 6] == 'S' && buf[1 * 12 + 1] == 'G');
  CHECK(buf[7 * 12 + 5] == '.' && buf[7 * 12 + 8] == '.');
  CHECK(buf[4 * 12 + 3] == 'P');
  /* with the heat panel */
  goap_heatmap *h = NULL;
  REQUIRE(goap_heatmap_create(a, NULL, NULL, &h) == GOAP_OK);
  n = goap_arena_render(a, h, ag, 2, GOAP_RENDER_HEAT, buf, sizeof buf);
  const size_t row = 11 + 2 + 11 + 1;
  CHECK_EQ_INT(n, 9 * row);
  CHECK_EQ_INT(strlen(buf), n);
  const char *r4 = buf + 4 * row, *r2 = buf + 2 * row, *r1 = buf + 1 * row;
  CHECK(memcmp(r4, "#..P#<.C#.#  ", 13) == 0);
  CHECK(r4[13 + 3] == 'P' && r4[13 + 4] == '#' && r4[13 + 5] == 'C' && r4[13 + 7] == 'x');
  CHECK(r4[13 + 6] == '.' && r4[13 + 9] == '.'); /* hidden floor */
  CHECK(r4[13 + 1] == '+');                      /* behind the player: a flank point */
  CHECK(r2[13 + 4] == 'F');
  CHECK(r1[13 + 3] == '+');
  CHECK(buf[7 * row + 13 + 5] == '-'); /* (5,7): seen, but at 56.3 deg: not a flank */
  CHECK(buf[7 * row + 13 + 4] == '+'); /* (4,7): 71.6 deg */
  /* the player drawn where the heat map has it */
  REQUIRE(goap_heatmap_set_player(h, 6, 6, NULL) == GOAP_OK);
  goap_heatmap_refresh(h);
  goap_arena_render(a, h, NULL, 0, 0, buf, sizeof buf);
  CHECK(buf[4 * 12 + 3] == '.' && buf[6 * 12 + 6] == 'P');
  /* snprintf semantics */
  size_t need = goap_arena_render(a, h, NULL, 0, GOAP_RENDER_HEAT, NULL, 0);
  CHECK_EQ_INT(need, 9 * row);
  char small[6];
  memset(small, 'z', sizeof small);
  CHECK_EQ_INT(goap_arena_render(a, h, NULL, 0, GOAP_RENDER_HEAT, small, 5), need);
  CHECK_STR(small, "####"); /* cap bytes including the NUL */
  small[0] = 'z';
  goap_arena_render(a, h, NULL, 0, 0, small, 1);
  CHECK(small[0] == '\0');
  CHECK_EQ_INT(goap_arena_render(NULL, h, NULL, 0, 0, buf, sizeof buf), 0);
  CHECK(buf[0] == '\0');
  goap_heatmap_destroy(h);
  goap_arena_destroy(a);
}

/* ------------------------------------------------------------------------------------------
 * Allocation
 * ---------------------------------------------------------------------------------------- */
/* The shared counting allocator (alloc_hook.h). The tactics library never resizes: every call
 * makes a new block, so once everything is freed, frees + refused calls == calls. */
TEST(alloc_failures) {
  size_t total = 0;
  for (size_t fail = 1;; ++fail) {
    test_alloc ca = {0};
    ca.fail_at = fail;
    goap_allocator al = test_alloc_hook(&ca);
    goap_arena *a = NULL;
    goap_heatmap *h = NULL;
    goap_error e;
    goap_status st = goap_arena_parse(scene, strlen(scene), &al, &a, &e);
    if (st == GOAP_OK) st = goap_heatmap_create(a, NULL, &al, &h);
    if (st == GOAP_OK) {
      CHECK(ca.calls < fail); /* nothing left to fail: all allocations were tried */
      total = ca.calls;
      goap_heatmap_destroy(h);
      goap_arena_destroy(a);
      CHECK_EQ_INT(ca.outstanding, 0);
      CHECK_EQ_INT(ca.frees + ca.injected, ca.calls);
      CHECK_EQ_INT(ca.bad_old_size, 0);
      CHECK_EQ_INT(ca.unknown_ptr, 0);
      break;
    }
    CHECK_EQ_INT(st, GOAP_OUT_OF_MEMORY);
    CHECK(h == NULL);
    if (!a) CHECK_EQ_INT(e.status, GOAP_OUT_OF_MEMORY);
    goap_arena_destroy(a);
    CHECK_EQ_INT(ca.outstanding, 0);
    CHECK_EQ_INT(ca.frees + ca.injected, ca.calls);
    CHECK_EQ_INT(ca.bad_old_size, 0);
    CHECK_EQ_INT(ca.unknown_ptr, 0);
    REQUIRE(fail < 100);
  }
  CHECK_EQ_INT(total, 3); /* arena struct + its cells, one heat map block */
}

TEST(no_allocation_after_creation) {
  test_alloc ca = {0};
  goap_allocator al = test_alloc_hook(&ca);
  goap_arena *a = NULL;
  goap_heatmap *h = NULL;
  REQUIRE(goap_arena_parse(scene, strlen(scene), &al, &a, NULL) == GOAP_OK);
  REQUIRE(goap_heatmap_create(a, NULL, &al, &h) == GOAP_OK);
  size_t allocs = ca.calls, outstanding = ca.outstanding;
  CHECK(outstanding > 0);
  char buf[512];
  unsigned char mask[11 * 9] = {0};
  goap_occupancy occ = {mask, NULL, NULL};
  int by_update = 0; /* recomputations done by update itself (every 0.2 s of dt) */
  for (int i = 0; i < 50; ++i) {
    int r = 0;
    goap_heatmap_set_player(h, 1 + i % 9, 1 + i % 7, NULL);
    goap_heatmap_update(h, 0.07, &r);
    by_update += r;
    if (i % 10 == 9) goap_heatmap_refresh(h); /* not every time: it resets update's clock */
    (void)goap_heatmap_best_cover(h, i % 11, i % 9, &occ, 0);
    (void)goap_heatmap_best_flank_cover(h, i % 11, i % 9, NULL, 5);
    (void)goap_heatmap_has_flank_cover(h, &occ);
    (void)goap_arena_los(a, 1, 1, i % 11, i % 9);
    (void)goap_arena_render(a, h, NULL, 0, GOAP_RENDER_HEAT, buf, sizeof buf);
  }
  CHECK(by_update > 0);
  CHECK_EQ_INT(ca.calls, allocs);
  CHECK_EQ_INT(ca.outstanding, outstanding);
  goap_heatmap_destroy(h);
  goap_arena_destroy(a);
  CHECK_EQ_INT(ca.outstanding, 0);
  CHECK_EQ_INT(ca.frees, allocs);
  CHECK_EQ_INT(ca.bad_old_size, 0);
  CHECK_EQ_INT(ca.unknown_ptr, 0);
}

/* ------------------------------------------------------------------------------------------
 * Property test: line of sight on random maps
 * ---------------------------------------------------------------------------------------- */
static uint64_t rng_next(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

static long long orient_ll(long long ax, long long ay, long long bx, long long by, long long cx,
                           long long cy) {
  long long v = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
  return (v > 0) - (v < 0);
}

/* Does the closed segment between the centres of (x0,y0) and (x1,y1) touch the closed square
 * of cell (cx,cy)? Exact: coordinates doubled, so that square edges are odd integers. */
static int ref_touches(int x0, int y0, int x1, int y1, int cx, int cy) {
  long long ax = 2 * x0, ay = 2 * y0, bx = 2 * x1, by = 2 * y1;
  long long lx = 2 * cx - 1, hx = 2 * cx + 1, ly = 2 * cy - 1, hy = 2 * cy + 1;
  if ((ax > bx ? ax : bx) < lx || (ax < bx ? ax : bx) > hx) return 0;
  if ((ay > by ? ay : by) < ly || (ay < by ? ay : by) > hy) return 0;
  long long s[4] = {orient_ll(ax, ay, bx, by, lx, ly), orient_ll(ax, ay, bx, by, hx, ly),
                    orient_ll(ax, ay, bx, by, hx, hy), orient_ll(ax, ay, bx, by, lx, hy)};
  int pos = 0, neg = 0;
  for (int i = 0; i < 4; ++i) {
    pos += s[i] > 0;
    neg += s[i] < 0;
  }
  return !(pos == 4 || neg == 4);
}

/* Brute force: blocked when any wall other than the two end cells is touched. */
static int ref_los(const goap_arena *a, int x0, int y0, int x1, int y1) {
  int w = goap_arena_width(a), h = goap_arena_height(a);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      if (goap_arena_cell(a, x, y) != GOAP_CELL_WALL) continue;
      if ((x == x0 && y == y0) || (x == x1 && y == y1)) continue;
      if (ref_touches(x0, y0, x1, y1, x, y)) return 0;
    }
  return 1;
}

TEST(property_los) {
  uint64_t seed = 0x9e3779b97f4a7c15ull;
  char text[32 * 33 + 1];
  int checked = 0, blocked = 0, seen = 0, covers_seen = 0, flank_seen = 0;
  for (int map = 0; map < 300; ++map) {
    int w = 2 + (int)(rng_next(&seed) % 24), h = 2 + (int)(rng_next(&seed) % 24);
    int density = (int)(rng_next(&seed) % 45); /* percent of walls */
    size_t n = 0;
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        int roll = (int)(rng_next(&seed) % 100);
        text[n++] = roll < density ? '#' : roll < density + 6 ? "<>^v"[roll % 4] : '.';
      }
      text[n++] = '\n';
    }
    goap_arena *a = NULL;
    REQUIRE(goap_arena_parse(text, n, NULL, &a, NULL) == GOAP_OK);
    for (int k = 0; k < 60; ++k) {
      int x0 = (int)(rng_next(&seed) % (uint64_t)w), y0 = (int)(rng_next(&seed) % (uint64_t)h);
      int x1 = (int)(rng_next(&seed) % (uint64_t)w), y1 = (int)(rng_next(&seed) % (uint64_t)h);
      int los = goap_arena_los(a, x0, y0, x1, y1);
      /* symmetric */
      CHECK_EQ_INT(los, goap_arena_los(a, x1, y1, x0, y0));
      /* equal to the brute force: a cell behind a wall is never visible, and a cell with no
       * wall on the segment always is */
      int ref = ref_los(a, x0, y0, x1, y1);
      if (los != ref)
        fprintf(stderr, "map %d: los (%d,%d)-(%d,%d) = %d, reference %d\n", map, x0, y0, x1,
                y1, los, ref);
      CHECK_EQ_INT(los, ref);
      /* a wall strictly between two cells of one row or column always blocks */
      if (y0 == y1 && x0 != x1)
        for (int x = (x0 < x1 ? x0 : x1) + 1; x < (x0 < x1 ? x1 : x0); ++x)
          if (goap_arena_cell(a, x, y0) == GOAP_CELL_WALL) CHECK(!los);
      ++checked;
      blocked += !los;
      seen += los;
    }
    /* the heat map's VISIBLE flag is the same line of sight, from a random floor cell */
    int px = (int)(rng_next(&seed) % (uint64_t)w), py = (int)(rng_next(&seed) % (uint64_t)h);
    goap_heatmap *hm = NULL;
    REQUIRE(goap_heatmap_create(a, NULL, NULL, &hm) == GOAP_OK);
    if (goap_heatmap_set_player(hm, px, py, NULL) == GOAP_OK) {
      goap_heatmap_refresh(hm);
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
          if (goap_arena_cell(a, x, y) != GOAP_CELL_WALL)
            CHECK_EQ_INT(goap_heatmap_visible(hm, x, y), ref_los(a, x, y, px, py));
      /* the queries equal a scan of every cover's flags */
      int qx = (int)(rng_next(&seed) % (uint64_t)w), qy = (int)(rng_next(&seed) % (uint64_t)h);
      int best = -1, best_flank = -1, any_flank = 0;
      int bd = 0, bfd = 0;
      for (int k = 0; k < goap_arena_cover_count(a); ++k) {
        goap_cover c;
        goap_arena_cover(a, k, &c);
        unsigned fl = goap_heatmap_flags(hm, c.x, c.y);
        int d = (c.x - qx) * (c.x - qx) + (c.y - qy) * (c.y - qy); /* squared, exact */
        if ((fl & GOAP_HEAT_PROTECTED) && (best < 0 || d < bd)) best = k, bd = d;
        if ((fl & GOAP_HEAT_FLANK_COVER) && (best_flank < 0 || d < bfd)) best_flank = k, bfd = d;
        any_flank |= (fl & GOAP_HEAT_FLANK_COVER) != 0;
      }
      CHECK_EQ_INT(goap_heatmap_best_cover(hm, qx, qy, NULL, 0), best);
      CHECK_EQ_INT(goap_heatmap_best_flank_cover(hm, qx, qy, NULL, 0), best_flank);
      CHECK_EQ_INT(goap_heatmap_has_flank_cover(hm, NULL), any_flank);
      covers_seen += best >= 0;
      flank_seen += any_flank;
    }
    goap_heatmap_destroy(hm);
    goap_arena_destroy(a);
  }
  /* the sample exercised both outcomes */
  CHECK(blocked > 1000 && seen > 1000);
  fprintf(stderr, "property_los: %d maps with a protected cover, %d with a flank cover\n", covers_seen, flank_seen);
  CHECK(covers_seen > 50 && flank_seen > 10);
  CHECK_EQ_INT(checked, 300 * 60);
}

TEST_MAIN(TEST_ENTRY(vec2_helpers), TEST_ENTRY(vec2_angle), TEST_ENTRY(segments_intersect),
          TEST_ENTRY(segment_box), TEST_ENTRY(cover_test), TEST_ENTRY(flank_test),
          TEST_ENTRY(map_parse), TEST_ENTRY(map_errors), TEST_ENTRY(line_of_sight),
          TEST_ENTRY(heat_scene), TEST_ENTRY(heat_queries), TEST_ENTRY(heat_config_angles), TEST_ENTRY(flank_cover_needs_a_peek),
          TEST_ENTRY(heat_interval), TEST_ENTRY(render), TEST_ENTRY(alloc_failures),
          TEST_ENTRY(no_allocation_after_creation), TEST_ENTRY(property_los))
