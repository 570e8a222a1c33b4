/*
 * hddl_seen.h -- a set of 128-bit keys (internal to the HDDL planner, hddl_plan.c): the
 * search situations (state hash, agenda hash) already reached in one round.
 */
#ifndef GOAP_PDDL_HDDL_SEEN_H
#define GOAP_PDDL_HDDL_SEEN_H

#include <stddef.h>
#include <stdint.h>

#include "pddl/pddl_internal.h"

typedef struct goap__hseen {
  uint64_t *k;   /* 2 * cap words: (a, b) per slot; b == 0 marks an empty slot */
  size_t cap;    /* slots, a power of two, or 0 before the first add */
  size_t n;      /* keys held */
  size_t max;    /* most keys ever held (0: no limit); beyond, adds are refused */
} goap__hseen;

/* Adds key (a, b) (b is made odd, so never 0). 1 when it was new, 0 when it was already in
 * the set, -1 when it could not be added (the set is full: `max` keys, or out of memory);
 * the set is unchanged then, and the caller treats the key as new. */
int goap__hseen_add(const goap_allocator *al, goap__hseen *s, uint64_t a, uint64_t b);
/* Empties the set, keeping its memory. */
void goap__hseen_clear(goap__hseen *s);
void goap__hseen_free(const goap_allocator *al, goap__hseen *s);

#endif
