/*
 * node_pool.c -- the planner's node pool (goap__node_pool, planner.h): node records as a
 * structure of arrays and the nodes' packed states.
 *
 * Invariants:
 *  - The pool owns its arrays and records each one's capacity, so goap__node_pool_free frees
 *    exactly what was allocated, whatever grew since (growth: planner.c, ensure_nodes).
 *  - A failed init leaves the pool zeroed and holding nothing.
 */
#include <string.h>

#include "planner.h"

goap_status goap__node_pool_init(goap__node_pool *np, const goap_allocator *a, size_t n,
                                 size_t words, size_t *memory) {
  memset(np, 0, sizeof *np);
  np->g = (double *)goap__alloc(a, n * sizeof *np->g);
  np->h = (float *)goap__alloc(a, n * sizeof *np->h);
  np->parent = (uint32_t *)goap__alloc(a, n * sizeof *np->parent);
  np->action = (uint32_t *)goap__alloc(a, n * sizeof *np->action);
  np->states = (goap_word *)goap__alloc(a, (n + 1) * words * sizeof *np->states);
  np->cap = np->cap_g = np->cap_h = np->cap_parent = np->cap_action = n;
  np->cap_states = (n + 1) * words;
  if (!np->g || !np->h || !np->parent || !np->action || !np->states) {
    goap__node_pool_free(np, a);
    return GOAP_OUT_OF_MEMORY;
  }
  *memory += n * (sizeof *np->g + sizeof *np->h + sizeof *np->parent + sizeof *np->action) +
             np->cap_states * sizeof *np->states;
  return GOAP_OK;
}

void goap__node_pool_free(goap__node_pool *np, const goap_allocator *a) {
  goap__free(a, np->g, np->cap_g * sizeof *np->g);
  goap__free(a, np->h, np->cap_h * sizeof *np->h);
  goap__free(a, np->parent, np->cap_parent * sizeof *np->parent);
  goap__free(a, np->action, np->cap_action * sizeof *np->action);
  goap__free(a, np->states, np->cap_states * sizeof *np->states);
  memset(np, 0, sizeof *np);
}
