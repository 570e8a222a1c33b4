/*
 * squad.h -- a built-in squad coordinator for libgoap agents (library goap_runtime).
 *
 * A squad groups agents (of any types, usually sharing a goap_blackboard) and gives them
 * orders: goals with a priority (goap_agent_order). Each member still plans for itself, so a
 * more important goal of its own (flee at low health) overrides the order. The four ready
 * behaviours are F.E.A.R.'s squad behaviours, expressed through four goal names the members'
 * domains define (a member whose domain lacks a goal is simply not ordered to pursue it):
 *
 *  - GET_TO_COVER: one member suppresses (the first that has the suppress goal) while the
 *    others move to cover.
 *  - ADVANCE_COVER: bounding overwatch: half the squad advances while the other half
 *    suppresses; calling it again swaps the halves.
 *  - ORDERLY_ADVANCE: members advance one at a time, in the order they were added, the others
 *    holding cover; goap_squad_update moves the order on when the mover's order ends.
 *  - SEARCH: members pair up (1st and 2nd, 3rd and 4th, ...): one searches, its partner
 *    covers it; an odd member out searches alone.
 *
 * Threads: a squad and its members are updated from one thread. The squad never owns its
 * members: destroy the squad (or remove members) before destroying them.
 */
#ifndef GOAP_SQUAD_H
#define GOAP_SQUAD_H

#include "agent.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct goap_squad goap_squad;

typedef enum goap_squad_behavior {
  GOAP_SQUAD_NONE = 0,
  GOAP_SQUAD_GET_TO_COVER,
  GOAP_SQUAD_ADVANCE_COVER,
  GOAP_SQUAD_ORDERLY_ADVANCE,
  GOAP_SQUAD_SEARCH,
  GOAP_SQUAD_BEHAVIOR_COUNT
} goap_squad_behavior;

typedef struct goap_squad_desc {
  goap_allocator allocator;    /* zero: the C library */
  const char *suppress_goal;   /* NULL: "suppress" */
  const char *cover_goal;      /* NULL: "take_cover" */
  const char *advance_goal;    /* NULL: "advance" */
  const char *search_goal;     /* NULL: "search" */
  double order_priority;       /* 0: 20 */
} goap_squad_desc;

/* Creates a squad into *out. desc may be NULL (defaults). Names are copied. GOAP_OK;
 * GOAP_OUT_OF_MEMORY; GOAP_INVALID_ARGUMENT when out is NULL or order_priority is NaN (*out is
 * NULL on any failure). */
GOAP_API goap_status goap_squad_create(const goap_squad_desc *desc, goap_squad **out);
/* Clears the orders it gave; NULL does nothing. */
GOAP_API void goap_squad_destroy(goap_squad *s);
/* GOAP_DUPLICATE if already a member, GOAP_OUT_OF_MEMORY, GOAP_INVALID_ARGUMENT. */
GOAP_API goap_status goap_squad_add(goap_squad *s, goap_agent *member);
/* Clears the member's squad order. GOAP_NOT_FOUND if not a member. */
GOAP_API goap_status goap_squad_remove(goap_squad *s, goap_agent *member);
GOAP_API int goap_squad_size(const goap_squad *s);
GOAP_API goap_agent *goap_squad_member(const goap_squad *s, int index);

/* Gives the behaviour's orders now (GOAP_SQUAD_NONE clears every order). */
GOAP_API goap_status goap_squad_order(goap_squad *s, goap_squad_behavior behavior);
/* Call once per frame after the members' updates: moves ORDERLY_ADVANCE on. */
GOAP_API void goap_squad_update(goap_squad *s);
GOAP_API goap_squad_behavior goap_squad_current(const goap_squad *s);
/* "none", "get_to_cover", "advance_cover", "orderly_advance", "search"; never NULL. */
GOAP_API const char *goap_squad_behavior_name(goap_squad_behavior b);
/* -1 when unknown. */
GOAP_API int goap_squad_behavior_from_name(const char *name);

#ifdef __cplusplus
}
#endif

#endif /* GOAP_SQUAD_H */
