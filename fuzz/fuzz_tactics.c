/*
 * fuzz_tactics.c -- libFuzzer target for goap_tactics: the text map parser, then (on maps that
 * parse) heat map refreshes, queries, line of sight and rendering.
 *
 * Any input must give GOAP_OK or a parse error with a position inside the text, never a crash.
 * On a parsed map the harness checks invariants and traps when one breaks: line of sight is
 * symmetric, a cell always sees itself, the render's returned length equals the text written
 * with a large buffer and does not depend on the buffer size.
 */
#include <goap/tactics.h>

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 64 * 1024) return 0;
  goap_arena *a = NULL;
  goap_error err;
  goap_status st = goap_arena_parse((const char *)data, size, NULL, &a, &err);
  if (st != GOAP_OK) {
    if (a || err.status != st || err.message[0] == '\0') __builtin_trap();
    if (st == GOAP_PARSE_ERROR && (err.line < 1 || err.col < 1)) __builtin_trap();
    return 0;
  }
  int w = goap_arena_width(a), h = goap_arena_height(a);
  if (w > 96 || h > 96) { /* keep refreshes cheap */
    goap_arena_destroy(a);
    return 0;
  }
  goap_heatmap *hm = NULL;
  if (goap_heatmap_create(a, NULL, NULL, &hm) != GOAP_OK) __builtin_trap();
  for (size_t i = 0; i + 3 < size && i < 64; i += 4) {
    int x0 = data[i] % w, y0 = data[i + 1] % h, x1 = data[i + 2] % w, y1 = data[i + 3] % h;
    if (goap_arena_los(a, x0, y0, x1, y1) != goap_arena_los(a, x1, y1, x0, y0)) __builtin_trap();
    if (!goap_arena_los(a, x0, y0, x0, y0)) __builtin_trap();
    if (goap_heatmap_set_player(hm, x0, y0, NULL) == GOAP_OK) {
      int r = 0;
      goap_heatmap_update(hm, 0.25, &r);
      if (!r) __builtin_trap();
      int k = goap_heatmap_best_cover(hm, x1, y1, NULL, 0);
      if (k >= 0) {
        goap_cover c;
        if (goap_arena_cover(a, k, &c) != GOAP_OK) __builtin_trap();
        if (!(goap_heatmap_flags(hm, c.x, c.y) & GOAP_HEAT_PROTECTED)) __builtin_trap();
      }
      int any = goap_heatmap_has_flank_cover(hm, NULL);
      if (any != (goap_heatmap_best_flank_cover(hm, 0, 0, NULL, 0) >= 0)) __builtin_trap();
    }
  }
  size_t need = goap_arena_render(a, hm, NULL, 0, GOAP_RENDER_HEAT, NULL, 0);
  char *buf = (char *)malloc(need + 1);
  if (buf) {
    if (goap_arena_render(a, hm, NULL, 0, GOAP_RENDER_HEAT, buf, need + 1) != need ||
        strlen(buf) != need)
      __builtin_trap();
    char small[7];
    if (goap_arena_render(a, hm, NULL, 0, GOAP_RENDER_HEAT, small, sizeof small) != need)
      __builtin_trap();
    free(buf);
  }
  goap_heatmap_destroy(hm);
  goap_arena_destroy(a);
  return 0;
}
