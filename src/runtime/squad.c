/*
 * squad.c -- the built-in squad coordinator: F.E.A.R.'s four squad behaviours as orders.
 *
 * Invariants:
 *  - The squad only gives and clears orders (goap_agent_order); members plan and act for
 *    themselves. ordered[i] is the goal the squad last ordered member i to pursue (-1 none),
 *    so the squad clears only its own orders.
 *  - Goal ids are looked up by name in each member's own domain (members may be of
 *    different types and domains).
 */
#include <string.h>

#include "runtime.h"
#include <goap/squad.h>

enum { ROLE_SUPPRESS = 0, ROLE_COVER, ROLE_ADVANCE, ROLE_SEARCH, ROLE_COUNT };

struct goap_squad {
  goap_allocator alloc;
  char *goal_name[ROLE_COUNT];
  size_t goal_size[ROLE_COUNT];
  double prio;
  goap_agent **m;
  int *ordered;
  size_t n, cap, cap_ordered;
  goap_squad_behavior cur;
  int phase;   /* ADVANCE_COVER: which half moves; ORDERLY_ADVANCE: the current mover */
};

static const char *const default_names[ROLE_COUNT] = {"suppress", "take_cover", "advance",
                                                      "search"};

goap_status goap_squad_create(const goap_squad_desc *desc, goap_squad **out) {
  goap_squad_desc x;
  if (!out) return GOAP_INVALID_ARGUMENT;
  *out = NULL;
  memset(&x, 0, sizeof x);
  if (desc) x = *desc;
  if (!(x.order_priority == x.order_priority)) return GOAP_INVALID_ARGUMENT;
  goap_allocator a = goap__rt_resolve(&x.allocator);
  goap_squad *s = (goap_squad *)goap__rt_alloc(&a, sizeof *s);
  if (!s) return GOAP_OUT_OF_MEMORY;
  s->alloc = a;
  s->prio = x.order_priority != 0 ? x.order_priority : 20.0;
  const char *names[ROLE_COUNT] = {x.suppress_goal, x.cover_goal, x.advance_goal, x.search_goal};
  for (int r = 0; r < ROLE_COUNT; ++r) {
    s->goal_name[r] = goap__rt_strdup(&a, names[r] ? names[r] : default_names[r], &s->goal_size[r]);
    if (!s->goal_name[r]) {
      goap_squad_destroy(s);
      return GOAP_OUT_OF_MEMORY;
    }
  }
  *out = s;
  return GOAP_OK;
}

static int goal_of(const goap_squad *s, const goap_agent *m, int role) {
  const goap_domain *d = goap_agent_type_domain(goap_agent_get_type(m));
  return goap_domain_find_goal(d, s->goal_name[role]);
}

/* Orders member i to pursue `role` (or nothing for -1); clears the squad's previous order. */
static void give(goap_squad *s, size_t i, int role) {
  goap_agent *m = s->m[i];
  int g = role >= 0 ? goal_of(s, m, role) : -1;
  if (g >= 0 && goap_agent_order(m, g, s->prio) == GOAP_OK) {
    s->ordered[i] = g;
    return;
  }
  if (s->ordered[i] >= 0 && goap_agent_ordered_goal(m) == s->ordered[i]) goap_agent_clear_order(m);
  s->ordered[i] = -1;
}

void goap_squad_destroy(goap_squad *s) {
  if (!s) return;
  for (size_t i = 0; i < s->n; ++i) give(s, i, -1);
  goap_allocator a = s->alloc;
  for (int r = 0; r < ROLE_COUNT; ++r) goap__rt_free(&a, s->goal_name[r], s->goal_size[r]);
  goap__rt_free(&a, s->m, s->cap * sizeof *s->m);
  goap__rt_free(&a, s->ordered, s->cap_ordered * sizeof *s->ordered);
  goap__rt_free(&a, s, sizeof *s);
}

goap_status goap_squad_add(goap_squad *s, goap_agent *member) {
  if (!s || !member) return GOAP_INVALID_ARGUMENT;
  for (size_t i = 0; i < s->n; ++i)
    if (s->m[i] == member) return GOAP_DUPLICATE;
  if (!goap__grow_zero(&s->alloc, (void **)&s->m, &s->cap, s->n + 1, sizeof *s->m) ||
      !goap__grow_zero(&s->alloc, (void **)&s->ordered, &s->cap_ordered, s->n + 1,
                     sizeof *s->ordered))
    return GOAP_OUT_OF_MEMORY;
  s->m[s->n] = member;
  s->ordered[s->n] = -1;
  s->n++;
  return GOAP_OK;
}

goap_status goap_squad_remove(goap_squad *s, goap_agent *member) {
  if (!s || !member) return GOAP_INVALID_ARGUMENT;
  for (size_t i = 0; i < s->n; ++i) {
    if (s->m[i] != member) continue;
    give(s, i, -1);
    memmove(s->m + i, s->m + i + 1, (s->n - i - 1) * sizeof *s->m);
    memmove(s->ordered + i, s->ordered + i + 1, (s->n - i - 1) * sizeof *s->ordered);
    s->n--;
    return GOAP_OK;
  }
  return GOAP_NOT_FOUND;
}

int goap_squad_size(const goap_squad *s) { return s ? (int)s->n : 0; }

goap_agent *goap_squad_member(const goap_squad *s, int index) {
  if (!s || index < 0 || (size_t)index >= s->n) return NULL;
  return s->m[index];
}

/* ORDERLY_ADVANCE: member `phase` advances, the others take cover. */
static void orderly(goap_squad *s) {
  for (size_t i = 0; i < s->n; ++i) give(s, i, (int)i == s->phase ? ROLE_ADVANCE : ROLE_COVER);
}

goap_status goap_squad_order(goap_squad *s, goap_squad_behavior b) {
  if (!s || (unsigned)b >= (unsigned)GOAP_SQUAD_BEHAVIOR_COUNT) return GOAP_INVALID_ARGUMENT;
  switch (b) {
    case GOAP_SQUAD_NONE:
      for (size_t i = 0; i < s->n; ++i) give(s, i, -1);
      break;
    case GOAP_SQUAD_GET_TO_COVER: {
      size_t sup = s->n;
      for (size_t i = 0; i < s->n && sup == s->n; ++i)
        if (goal_of(s, s->m[i], ROLE_SUPPRESS) >= 0) sup = i;
      for (size_t i = 0; i < s->n; ++i) give(s, i, i == sup ? ROLE_SUPPRESS : ROLE_COVER);
      break;
    }
    case GOAP_SQUAD_ADVANCE_COVER:
      s->phase = s->cur == GOAP_SQUAD_ADVANCE_COVER ? !s->phase : 0;
      for (size_t i = 0; i < s->n; ++i)
        give(s, i, (int)(i % 2) == s->phase ? ROLE_ADVANCE : ROLE_SUPPRESS);
      break;
    case GOAP_SQUAD_ORDERLY_ADVANCE:
      s->phase = 0;
      orderly(s);
      break;
    case GOAP_SQUAD_SEARCH:
      for (size_t i = 0; i < s->n; ++i) give(s, i, i % 2 == 0 ? ROLE_SEARCH : ROLE_COVER);
      break;
    default: break;
  }
  s->cur = b;
  return GOAP_OK;
}

void goap_squad_update(goap_squad *s) {
  if (!s || s->cur != GOAP_SQUAD_ORDERLY_ADVANCE) return;
  /* the mover's order ends when it reached its goal (the agent clears achieved orders) */
  while ((size_t)s->phase < s->n &&
         (s->ordered[s->phase] < 0 ||
          goap_agent_ordered_goal(s->m[s->phase]) != s->ordered[s->phase])) {
    s->ordered[s->phase] = -1;
    s->phase++;
    if ((size_t)s->phase < s->n) orderly(s);
  }
  if ((size_t)s->phase >= s->n) { /* everyone advanced: the behaviour is over */
    for (size_t i = 0; i < s->n; ++i) give(s, i, -1);
    s->cur = GOAP_SQUAD_NONE;
  }
}

goap_squad_behavior goap_squad_current(const goap_squad *s) { return s ? s->cur : GOAP_SQUAD_NONE; }

static const char *const behavior_names[GOAP_SQUAD_BEHAVIOR_COUNT] = {
    "none", "get_to_cover", "advance_cover", "orderly_advance", "search"};

const char *goap_squad_behavior_name(goap_squad_behavior b) {
  if ((unsigned)b >= (unsigned)GOAP_SQUAD_BEHAVIOR_COUNT) return "unknown";
  return behavior_names[b];
}

int goap_squad_behavior_from_name(const char *name) {
  if (!name) return -1;
  for (int i = 0; i < GOAP_SQUAD_BEHAVIOR_COUNT; ++i)
    if (strcmp(name, behavior_names[i]) == 0) return i;
  return -1;
}

/* ---- save.c's access ---------------------------------------------------------------------- */

void goap__squad_get(const goap_squad *s, const char *const **names, double *prio, size_t *n,
                     int *behavior, int *phase, const int **ordered) {
  *names = (const char *const *)s->goal_name;
  *prio = s->prio;
  *n = s->n;
  *behavior = (int)s->cur;
  *phase = s->phase;
  *ordered = s->ordered;
}

int goap__squad_set(goap_squad *s, goap_agent *const *members, size_t n, int behavior, int phase,
                    const int *ordered) {
  if (!goap__grow_zero(&s->alloc, (void **)&s->m, &s->cap, n, sizeof *s->m) ||
      !goap__grow_zero(&s->alloc, (void **)&s->ordered, &s->cap_ordered, n, sizeof *s->ordered))
    return 0;
  if (n) memcpy(s->m, members, n * sizeof *s->m);
  for (size_t i = 0; i < n; ++i) s->ordered[i] = ordered ? ordered[i] : -1;
  s->n = n;
  s->cur = (goap_squad_behavior)behavior;
  s->phase = phase;
  return 1;
}
