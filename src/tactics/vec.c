/*
 * vec.c -- 2D vectors, segment and box intersection, the cover and flank tests.
 *
 * Invariants: every function is pure (no state, no allocation); no function returns NaN for
 * finite inputs: zero-length vectors normalize to (0, 0) and make angles 0, as the header says.
 * Intersection tests use only orientation signs (cross products) and comparisons, so that they
 * are exact whenever those products are (small integer or half-integer coordinates).
 */
#include <math.h>

#include "tactics_internal.h"

goap_vec2 goap_vec2_make(double x, double y) {
  goap_vec2 v;
  v.x = x;
  v.y = y;
  return v;
}

goap_vec2 goap_vec2_add(goap_vec2 a, goap_vec2 b) { return goap_vec2_make(a.x + b.x, a.y + b.y); }

goap_vec2 goap_vec2_sub(goap_vec2 a, goap_vec2 b) { return goap_vec2_make(a.x - b.x, a.y - b.y); }

goap_vec2 goap_vec2_scale(goap_vec2 a, double s) { return goap_vec2_make(a.x * s, a.y * s); }

double goap_vec2_dot(goap_vec2 a, goap_vec2 b) { return a.x * b.x + a.y * b.y; }

double goap_vec2_cross(goap_vec2 a, goap_vec2 b) { return a.x * b.y - a.y * b.x; }

double goap_vec2_length(goap_vec2 a) { return hypot(a.x, a.y); }

goap_vec2 goap_vec2_normalize(goap_vec2 a) {
  double len = hypot(a.x, a.y);
  if (!(len > 0.0) || !isfinite(len)) return goap_vec2_make(0.0, 0.0);
  return goap_vec2_make(a.x / len, a.y / len);
}

static int is_zero(goap_vec2 v) { return v.x == 0.0 && v.y == 0.0; }

double goap_vec2_angle(goap_vec2 a, goap_vec2 b) {
  goap_vec2 na = goap_vec2_normalize(a), nb = goap_vec2_normalize(b);
  if (is_zero(na) || is_zero(nb)) return 0.0;
  double c = goap_vec2_dot(na, nb);
  if (c > 1.0) c = 1.0;
  if (c < -1.0) c = -1.0;
  return acos(c);
}

/* Sign of the turn a -> b -> c: 1 counter-clockwise (y up), -1 clockwise, 0 collinear. */
static int orient(goap_vec2 a, goap_vec2 b, goap_vec2 c) {
  double v = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
  return (v > 0.0) - (v < 0.0);
}

/* r collinear with [p, q]: is it inside their bounding box? */
static int within(goap_vec2 p, goap_vec2 q, goap_vec2 r) {
  return fmin(p.x, q.x) <= r.x && r.x <= fmax(p.x, q.x) && fmin(p.y, q.y) <= r.y &&
         r.y <= fmax(p.y, q.y);
}

int goap_segments_intersect(goap_vec2 a0, goap_vec2 a1, goap_vec2 b0, goap_vec2 b1) {
  int d1 = orient(b0, b1, a0), d2 = orient(b0, b1, a1);
  int d3 = orient(a0, a1, b0), d4 = orient(a0, a1, b1);
  if (d1 * d2 < 0 && d3 * d4 < 0) return 1;
  if (d1 == 0 && within(b0, b1, a0)) return 1;
  if (d2 == 0 && within(b0, b1, a1)) return 1;
  if (d3 == 0 && within(a0, a1, b0)) return 1;
  if (d4 == 0 && within(a0, a1, b1)) return 1;
  return 0;
}

int goap_segment_box_intersect(goap_vec2 a, goap_vec2 b, goap_vec2 lo, goap_vec2 hi) {
  if (!(lo.x <= hi.x) || !(lo.y <= hi.y)) return 0;
  if (fmax(a.x, b.x) < lo.x || fmin(a.x, b.x) > hi.x) return 0;
  if (fmax(a.y, b.y) < lo.y || fmin(a.y, b.y) > hi.y) return 0;
  goap_vec2 c[4] = {{lo.x, lo.y}, {hi.x, lo.y}, {hi.x, hi.y}, {lo.x, hi.y}};
  int pos = 0, neg = 0;
  for (int i = 0; i < 4; ++i) {
    int s = orient(a, b, c[i]);
    pos += s > 0;
    neg += s < 0;
  }
  return !(pos == 4 || neg == 4);
}

int goap_cover_protects(goap_vec2 cover, goap_vec2 normal, goap_vec2 player, double half_angle) {
  goap_vec2 d = goap_vec2_normalize(goap_vec2_sub(player, cover));
  goap_vec2 n = goap_vec2_normalize(normal);
  if (is_zero(d) || is_zero(n)) return 0;
  return goap_vec2_dot(d, n) > cos(half_angle);
}

int goap_flank_valid(goap_vec2 flank, goap_vec2 player, goap_vec2 player_cover_normal,
                     double min_angle, const goap_obstacle *obstacles, int count) {
  goap_vec2 d = goap_vec2_sub(flank, player);
  if (is_zero(goap_vec2_normalize(d))) return 0;
  if (!is_zero(goap_vec2_normalize(player_cover_normal)) &&
      !(goap_vec2_angle(d, player_cover_normal) > min_angle))
    return 0;
  if (!obstacles) count = 0;
  for (int i = 0; i < count; ++i) {
    const goap_obstacle *o = &obstacles[i];
    int hit = o->kind == GOAP_OBSTACLE_BOX ? goap_segment_box_intersect(flank, player, o->a, o->b)
                                           : goap_segments_intersect(flank, player, o->a, o->b);
    if (hit) return 0;
  }
  return 1;
}
