/*
 * soldier.c -- the soldier and the door, built through the libgoap C API.
 *
 * The same domain as examples/soldier.goap, without the file format: a builder declares the
 * variables, actions and the goal; a planner plans the five scenarios; the last scenario is
 * planned again in slices (goap_plan_begin/step/finish), as a game would spread a search over
 * frames. All memory goes through a counting allocator to show the allocator hook.
 *
 * It is also a test (CTest: example_c_soldier): the exit status is non-zero when any plan's
 * cost differs from the expected one, when a plan does not replay, when the sliced plan
 * differs from the one-call plan, or when memory is left allocated.
 *
 * Invariants: every object created here is destroyed before returning; no global state
 * besides the constant tables below.
 */
#include <goap/goap.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- An allocator that counts live bytes (lua_Alloc style) ------------------------------ */
typedef struct counting_alloc {
  size_t live;  /* bytes currently allocated */
  size_t peak;
  size_t calls;
} counting_alloc;

static void *counting_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size) {
  counting_alloc *c = ctx;
  c->calls++;
  if (new_size == 0) {
    free(ptr);
    c->live -= old_size;
    return NULL;
  }
  void *p = realloc(ptr, new_size);
  if (!p) return NULL; /* the library reports GOAP_OUT_OF_MEMORY; ptr stays valid */
  c->live = c->live - old_size + new_size;
  if (c->live > c->peak) c->peak = c->live;
  return p;
}

/* ---- The domain ------------------------------------------------------------------------- */
enum { IN_B, HAS_AMMO, LOADED, TARGET_DEAD, DOOR_STUCK, KICK_FAILED, ARMORY_EMPTY, VAR_COUNT };

static const char *const var_names[VAR_COUNT] = {
    "in_b", "has_ammo", "loaded", "target_dead", "door_stuck", "kick_failed", "armory_empty"};

/* Shorthands for bool conditions and effects on the variable ids above (the builder assigns
 * ids 0, 1, 2... in call order, so they match the enum). */
#define IS(v) {(v), GOAP_EQ, 1}
#define NOT(v) {(v), GOAP_EQ, 0}
#define SET(v) {(v), GOAP_SET, 1}
#define CLEAR(v) {(v), GOAP_SET, 0}

static int build_domain(const goap_allocator *alloc, goap_domain **out) {
  static const goap_cond get_ammo_pre[] = {NOT(ARMORY_EMPTY)};
  static const goap_effect get_ammo_eff[] = {SET(HAS_AMMO)};
  static const goap_cond load_pre[] = {IS(HAS_AMMO)};
  static const goap_effect load_eff[] = {SET(LOADED), CLEAR(HAS_AMMO)};
  static const goap_cond open_pre[] = {NOT(DOOR_STUCK)};
  static const goap_cond kick_pre[] = {NOT(KICK_FAILED)};
  static const goap_effect enter_eff[] = {SET(IN_B)};
  static const goap_cond shoot_pre[] = {IS(IN_B), IS(LOADED)};
  static const goap_cond punch_pre[] = {IS(IN_B)};
  static const goap_effect kill_eff[] = {SET(TARGET_DEAD)};
  static const goap_cond kill_want[] = {IS(TARGET_DEAD)};
  const goap_action_desc actions[] = {
      {"get_ammo", 1.0, get_ammo_pre, 1, get_ammo_eff, 1, NULL, NULL, NULL},
      {"load_magazine", 1.0, load_pre, 1, load_eff, 2, NULL, NULL, NULL},
      {"open_door", 1.0, open_pre, 1, enter_eff, 1, NULL, NULL, NULL},
      {"kick_door", 3.0, kick_pre, 1, enter_eff, 1, NULL, NULL, NULL},
      {"jump_window", 5.0, NULL, 0, enter_eff, 1, NULL, NULL, NULL},
      {"shoot", 1.0, shoot_pre, 2, kill_eff, 1, NULL, NULL, NULL},
      {"punch", 6.0, punch_pre, 1, kill_eff, 1, NULL, NULL, NULL},
  };
  const goap_goal_desc goal = {"kill_enemy", 10.0, kill_want, 1};

  goap_builder *b = NULL;
  if (goap_builder_create(alloc, &b) != GOAP_OK) return 0;
  int ok = goap_builder_set_name(b, "soldier") == GOAP_OK;
  for (int v = 0; ok && v < VAR_COUNT; v++) {
    goap_var_desc desc = {0};
    desc.name = var_names[v];
    desc.type = GOAP_BOOL; /* default false */
    int id = -1;
    ok = goap_builder_add_var(b, &desc, &id) == GOAP_OK && id == v;
  }
  for (size_t a = 0; ok && a < sizeof actions / sizeof actions[0]; a++)
    ok = goap_builder_add_action(b, &actions[a], NULL) == GOAP_OK;
  if (ok) ok = goap_builder_add_goal(b, &goal, NULL) == GOAP_OK;
  if (ok) ok = goap_builder_build(b, out) == GOAP_OK;
  if (!ok)
    fprintf(stderr, "soldier: building the domain failed: %s\n", goap_builder_error(b)->message);
  goap_builder_destroy(b);
  return ok;
}

/* ---- The five scenarios ------------------------------------------------------------------ */
typedef struct scenario {
  const char *name;
  int given[3]; /* variables set to true in the start state, -1 terminated */
  double expect_cost;
} scenario;

static const scenario scenarios[] = {
    {"default", {-1}, 4.0},
    {"door_stuck", {DOOR_STUCK, -1}, 6.0},
    {"door_stuck_kick_failed", {DOOR_STUCK, KICK_FAILED, -1}, 8.0},
    {"armory_empty", {ARMORY_EMPTY, -1}, 7.0},
    {"loaded_in_b", {IN_B, LOADED, -1}, 1.0},
};
#define SCENARIO_COUNT (int)(sizeof scenarios / sizeof scenarios[0])

static void print_plan(const goap_domain *d, const goap_result *r) {
  for (int i = 0; i < r->plan_length; i++)
    printf("%s%s (%g)", i ? " -> " : "  ", goap_domain_action_name(d, r->plan[i]),
           goap_domain_action_cost(d, r->plan[i]));
  printf(" = %g   [%llu expanded, %llu generated]\n", r->cost,
         (unsigned long long)r->stats.expanded, (unsigned long long)r->stats.generated);
}

int main(void) {
  counting_alloc counter = {0, 0, 0};
  goap_allocator alloc = {counting_realloc, &counter};
  goap_domain *d = NULL;
  goap_planner *p = NULL;
  goap_word *start = NULL;
  int failures = 0;

  if (!build_domain(&alloc, &d)) return 1;

  goap_planner_desc pdesc = {0};
  pdesc.allocator = alloc;
  goap_status created = goap_planner_create(d, &pdesc, &p);
  start = calloc(goap_domain_state_words(d), sizeof *start);
  if (created != GOAP_OK || !start) {
    fprintf(stderr, "soldier: out of memory\n");
    failures++;
    goto done;
  }

  int goal = goap_domain_find_goal(d, "kill_enemy");
  int want_count = 0;
  const goap_cond *want = goap_domain_goal_want(d, goal, &want_count);
  printf("The soldier wants target_dead (goal %s, priority %g).\n",
         goap_domain_goal_name(d, goal), goap_domain_goal_priority(d, goal));

  int32_t plan[16];
  for (int s = 0; s < SCENARIO_COUNT; s++) {
    const scenario *sc = &scenarios[s];
    goap_state_init(d, start);
    for (int k = 0; sc->given[k] >= 0; k++) goap_state_set(d, start, sc->given[k], 1);

    goap_request req = {0}; /* forward A*, default (admissible) heuristic */
    req.start = start;
    req.want = want;
    req.want_count = want_count;

    goap_result res = {0};
    res.plan = plan;
    res.plan_capacity = 16;
    goap_status st = goap_plan(p, &req, &res);
    printf("%d. %s\n", s + 1, sc->name);
    if (st != GOAP_OK) {
      printf("  FAIL: no plan (%s)\n", goap_status_string(st));
      failures++;
      continue;
    }
    print_plan(d, &res);

    /* Replaying the plan must reach the goal at the same cost. */
    double replay = 0.0;
    if (goap_plan_validate(d, start, want, want_count, plan, res.plan_length, &replay, NULL) !=
            GOAP_OK ||
        fabs(replay - res.cost) > 1e-9) {
      printf("  FAIL: the plan does not replay to the goal\n");
      failures++;
    }
    if (fabs(res.cost - sc->expect_cost) > 1e-9) {
      printf("  FAIL: expected cost %g, got %g\n", sc->expect_cost, res.cost);
      failures++;
    }
  }

  /* Sliced planning: door_stuck again, two expansions per "frame"; the result must equal
   * the one-call plan. */
  {
    const scenario *sc = &scenarios[1];
    goap_state_init(d, start);
    for (int k = 0; sc->given[k] >= 0; k++) goap_state_set(d, start, sc->given[k], 1);
    goap_request req = {0};
    req.start = start;
    req.want = want;
    req.want_count = want_count;

    int32_t whole_plan[16], sliced_plan[16];
    goap_result whole = {0}, sliced = {0};
    whole.plan = whole_plan;
    whole.plan_capacity = 16;
    sliced.plan = sliced_plan;
    sliced.plan_capacity = 16;
    goap_plan(p, &req, &whole);

    int frames = 0;
    goap_status st = goap_plan_begin(p, &req);
    while (st == GOAP_OK || st == GOAP_IN_PROGRESS) {
      uint32_t done_now = 0;
      st = goap_plan_step(p, 2, &done_now);
      frames++;
      if (st != GOAP_IN_PROGRESS) break;
    }
    st = goap_plan_finish(p, &sliced);
    printf("Sliced (%s, 2 expansions a frame): %d frames, status %s\n", sc->name, frames,
           goap_status_name(st));
    int same = st == GOAP_OK && whole.status == GOAP_OK &&
               sliced.plan_length == whole.plan_length && sliced.cost == whole.cost;
    for (int i = 0; same && i < sliced.plan_length; i++)
      same = sliced_plan[i] == whole_plan[i];
    if (!same) {
      printf("  FAIL: the sliced search differs from goap_plan\n");
      failures++;
    } else {
      print_plan(d, &sliced);
    }
  }

done:
  free(start);
  goap_planner_destroy(p);
  goap_domain_destroy(d);
  printf("allocator: %zu calls, peak %zu bytes, %zu bytes still live\n", counter.calls,
         counter.peak, counter.live);
  if (counter.live != 0) {
    printf("FAIL: memory leaked\n");
    failures++;
  }
  printf("%s\n", failures ? "FAILED" : "all costs as expected: 4, 6, 8, 7, 1");
  return failures ? 1 : 0;
}
