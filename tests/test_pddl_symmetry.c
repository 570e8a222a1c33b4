/*
 * test_pddl_symmetry.c -- goap_pddl_symmetry: the classes of interchangeable objects found on
 * small tasks written here (gripper, logistics, blocks, costs from static functions, domain
 * constants), each result checked against the contract of goap_symmetry_class by a checker
 * written here over the public domain API (independent of the detection, which works on
 * ground atoms), the exact slot layout recomputed from variable and action names, argument
 * errors, caching, allocation failures, and optimal plans with and without
 * goap_request.symmetry validated by goap_pddl_validate.
 */
#include <goap/goap.h>
#include <goap/pddl.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc_hook.h"
#include "test.h"

/* ---- helpers ------------------------------------------------------------------------------ */

static goap_pddl_task *load(const char *dom, const char *prob, const goap_pddl_options *o) {
  goap_pddl_task *t = NULL;
  goap_error err;
  if (goap_pddl_parse("d.pddl", dom, strlen(dom), "p.pddl", prob, strlen(prob), o, &t, &err) !=
      GOAP_OK)
    fprintf(stderr, "load: %s:%d:%d: %s\n", err.file, err.line, err.col, err.message);
  return t;
}

static const char *var_name(const goap_pddl_task *t, int v) {
  goap_var_info vi;
  if (goap_domain_var_info(goap_pddl_domain(t), v, &vi) != GOAP_OK) return "?";
  return vi.name;
}

static void action_name(const goap_pddl_task *t, int a, char *buf, size_t cap) {
  goap_pddl_format_action(t, a, buf, cap);
}

/* 1 when the set of conditions c[0, n) renamed by vmap equals c2[0, n2) (as sets). */
static int conds_equal(const goap_cond *c, int n, const goap_cond *c2, int n2, const int *vmap) {
  if (n != n2) return 0;
  for (int i = 0; i < n; ++i) {
    int found = 0;
    for (int j = 0; j < n2 && !found; ++j)
      found = c2[j].var == vmap[c[i].var] && c2[j].op == c[i].op && c2[j].value == c[i].value;
    if (!found) return 0;
  }
  return 1;
}

static int effs_equal(const goap_effect *e, int n, const goap_effect *e2, int n2,
                      const int *vmap) {
  if (n != n2) return 0;
  for (int i = 0; i < n; ++i) {
    int found = 0;
    for (int j = 0; j < n2 && !found; ++j)
      found = e2[j].var == vmap[e[i].var] && e2[j].op == e[i].op && e2[j].value == e[i].value;
    if (!found) return 0;
  }
  return 1;
}

/* Applies the member permutation perm of class k to the identity maps. */
static void apply_perm(const goap_symmetry_class *k, const int *perm, int *vmap, int *amap) {
  for (int i = 0; i < k->members; ++i)
    for (int j = 0; j < k->slot_vars; ++j)
      vmap[k->vars[i * k->slot_vars + j]] = k->vars[perm[i] * k->slot_vars + j];
  for (int i = 0; i < k->members; ++i)
    for (int j = 0; j < k->slot_actions; ++j)
      amap[k->actions[i * k->slot_actions + j]] = k->actions[perm[i] * k->slot_actions + j];
}

/* The contract of goap_symmetry_class, checked over the public domain API: ids in range,
 * disjoint slots, and for each class the swap of members 0 and 1 and the cycle of all members
 * map every action onto its image (conditions, effects, cost) and the goal onto itself. */
static int contract_holds(const goap_pddl_task *t, const goap_symmetry *sym) {
  const goap_domain *d = goap_pddl_domain(t);
  int nv = goap_domain_var_count(d), na = goap_domain_action_count(d), ok = 1;
  int gn = 0;
  const goap_cond *goal = goap_pddl_goal(t, &gn);
  int *vmap = (int *)malloc((size_t)(nv + 1) * sizeof *vmap);
  int *amap = (int *)malloc((size_t)(na + 1) * sizeof *amap);
  char *used_v = (char *)calloc((size_t)nv + 1, 1), *used_a = (char *)calloc((size_t)na + 1, 1);
  if (!vmap || !amap || !used_v || !used_a) abort();
  for (int c = 0; c < sym->class_count && ok; ++c) {
    const goap_symmetry_class *k = &sym->classes[c];
    if (k->members < 2 || k->slot_vars < 1 || k->slot_actions < 0) ok = 0;
    for (int i = 0; ok && i < k->members * k->slot_vars; ++i) {
      int v = k->vars[i];
      if (v < 0 || v >= nv || used_v[v]) ok = 0;
      else used_v[v] = 1;
    }
    for (int i = 0; ok && i < k->members * k->slot_actions; ++i) {
      int a = k->actions[i];
      if (a < 0 || a >= na || used_a[a]) ok = 0;
      else used_a[a] = 1;
    }
    for (int which = 0; which < 2 && ok; ++which) {
      int perm[256];
      if (k->members > 256) abort();
      for (int i = 0; i < k->members; ++i) perm[i] = which == 0 ? i : (i + 1) % k->members;
      if (which == 0) {
        perm[0] = 1;
        perm[1] = 0;
      }
      for (int v = 0; v < nv; ++v) vmap[v] = v;
      for (int a = 0; a < na; ++a) amap[a] = a;
      apply_perm(k, perm, vmap, amap);
      for (int a = 0; a < na && ok; ++a) {
        int b = amap[a], n1, n2;
        if (goap_domain_action_cost(d, a) != goap_domain_action_cost(d, b)) ok = 0;
        const goap_cond *p1 = goap_domain_action_pre(d, a, &n1);
        const goap_cond *p2 = goap_domain_action_pre(d, b, &n2);
        if (!conds_equal(p1, n1, p2, n2, vmap)) ok = 0;
        const goap_effect *e1 = goap_domain_action_eff(d, a, &n1);
        const goap_effect *e2 = goap_domain_action_eff(d, b, &n2);
        if (!effs_equal(e1, n1, e2, n2, vmap)) ok = 0;
        if (!ok) {
          char x[256], y[256];
          action_name(t, a, x, sizeof x);
          action_name(t, b, y, sizeof y);
          fprintf(stderr, "class %d: %s does not map onto %s\n", c, x, y);
        }
      }
      if (ok && !conds_equal(goal, gn, goal, gn, vmap)) {
        fprintf(stderr, "class %d: the goal is not mapped onto itself\n", c);
        ok = 0;
      }
    }
  }
  free(vmap);
  free(amap);
  free(used_v);
  free(used_a);
  return ok;
}

/* The symmetry of t, checked against the contract (NULL when none). */
static const goap_symmetry *sym_of(goap_pddl_task *t, int *failures) {
  const goap_symmetry *s = (const goap_symmetry *)&s; /* not NULL: the call must set it */
  goap_status st = goap_pddl_symmetry(t, &s);
  if (st != GOAP_OK) {
    fprintf(stderr, "goap_pddl_symmetry: %s\n", goap_status_name(st));
    ++*failures;
    return NULL;
  }
  int gn = 0;
  const goap_cond *goal = goap_pddl_goal(t, &gn);
  if (s && (!contract_holds(t, s) ||
            goap_symmetry_check(goap_pddl_domain(t), s, goal, gn) != GOAP_OK)) {
    fprintf(stderr, "the contract does not hold\n");
    ++*failures;
  }
  return s;
}
#define SYM_OF(t) sym_of((t), test_failures_)

/* 1 when some variable of class k names object `obj` (as a whole word). */
static int class_names(const goap_pddl_task *t, const goap_symmetry_class *k, const char *obj) {
  size_t ol = strlen(obj);
  for (int i = 0; i < k->members * k->slot_vars; ++i) {
    const char *n = var_name(t, k->vars[i]);
    for (const char *p = strstr(n, obj); p; p = strstr(p + 1, obj))
      if ((p == n || p[-1] == ' ') && (p[ol] == ' ' || p[ol] == 0)) return 1;
  }
  return 0;
}

/* ---- gripper (typed), n balls ------------------------------------------------------------- */

static const char gripper_dom[] =
    "(define (domain gripper-typed)\n"
    "  (:requirements :strips :typing)\n"
    "  (:types room ball gripper)\n"
    "  (:predicates (at-robby ?r - room) (at ?b - ball ?r - room) (free ?g - gripper)\n"
    "               (carry ?o - ball ?g - gripper))\n"
    "  (:action move :parameters (?from ?to - room)\n"
    "    :precondition (at-robby ?from)\n"
    "    :effect (and (at-robby ?to) (not (at-robby ?from))))\n"
    "  (:action pick :parameters (?obj - ball ?room - room ?gripper - gripper)\n"
    "    :precondition (and (at ?obj ?room) (at-robby ?room) (free ?gripper))\n"
    "    :effect (and (carry ?obj ?gripper) (not (at ?obj ?room)) (not (free ?gripper))))\n"
    "  (:action drop :parameters (?obj - ball ?room - room ?gripper - gripper)\n"
    "    :precondition (and (carry ?obj ?gripper) (at-robby ?room))\n"
    "    :effect (and (at ?obj ?room) (free ?gripper) (not (carry ?obj ?gripper)))))\n";

/* n balls in rooma; goal: ball i in room goal_room[i] (NULL: all in roomb); rooms rooma,
 * roomb, roomc. */
static void gripper_prob(char *buf, size_t cap, int n, const char *const *goal_room) {
  size_t o = (size_t)snprintf(buf, cap,
                              "(define (problem g) (:domain gripper-typed)\n"
                              "  (:objects rooma roomb roomc - room left right - gripper");
  for (int i = 1; i <= n; ++i) o += (size_t)snprintf(buf + o, cap - o, " ball%d", i);
  o += (size_t)snprintf(buf + o, cap - o, " - ball)\n  (:init (at-robby rooma) (free left) (free right)");
  for (int i = 1; i <= n; ++i) o += (size_t)snprintf(buf + o, cap - o, " (at ball%d rooma)", i);
  o += (size_t)snprintf(buf + o, cap - o, ")\n  (:goal (and");
  for (int i = 1; i <= n; ++i)
    o += (size_t)snprintf(buf + o, cap - o, " (at ball%d %s)", i,
                          goal_room ? goal_room[i - 1] : "roomb");
  snprintf(buf + o, cap - o, ")))\n");
}

TEST(gripper_balls_are_one_class_with_the_exact_slot_layout) {
  /* from 3 balls on (with 2, the balls tie with the grippers, declared first: see below) */
  for (int n = 3; n <= 6; ++n) {
    char prob[4096];
    gripper_prob(prob, sizeof prob, n, NULL);
    goap_pddl_task *t = load(gripper_dom, prob, NULL);
    REQUIRE(t != NULL);
    const goap_symmetry *s = SYM_OF(t);
    REQUIRE(s != NULL);
    /* the grippers are interchangeable too, but carry(ball, gripper) is in the balls' slots:
     * only the larger class (the balls) is kept */
    CHECK_EQ_INT(s->class_count, 1);
    const goap_symmetry_class *k = &s->classes[0];
    CHECK_EQ_INT(k->members, n);
    /* member i is ball i+1 (object order); its slot: the variables and actions naming it, in
     * template order (predicate or schema declaration order, then the other arguments in
     * object order) */
    static const char *const vt[] = {"at ball%d rooma", "at ball%d roomb", "at ball%d roomc",
                                     "carry ball%d left", "carry ball%d right"};
    static const char *const at[] = {
        "(pick ball%d rooma left)", "(pick ball%d rooma right)", "(pick ball%d roomb left)",
        "(pick ball%d roomb right)", "(pick ball%d roomc left)", "(pick ball%d roomc right)",
        "(drop ball%d rooma left)", "(drop ball%d rooma right)", "(drop ball%d roomb left)",
        "(drop ball%d roomb right)", "(drop ball%d roomc left)", "(drop ball%d roomc right)"};
    CHECK_EQ_INT(k->slot_vars, 5);
    CHECK_EQ_INT(k->slot_actions, 12);
    if (k->members != n || k->slot_vars != 5 || k->slot_actions != 12) {
      goap_pddl_destroy(t);
      return;
    }
    for (int i = 0; i < n; ++i) {
      char want[64], got[64];
      for (int j = 0; j < 5; ++j) {
        snprintf(want, sizeof want, vt[j], i + 1);
        CHECK_STR(var_name(t, k->vars[i * 5 + j]), want);
      }
      for (int j = 0; j < 12; ++j) {
        snprintf(want, sizeof want, at[j], i + 1);
        action_name(t, k->actions[i * 12 + j], got, sizeof got);
        CHECK_STR(got, want);
      }
    }
    goap_pddl_destroy(t);
  }
}

TEST(gripper_balls_with_different_goal_rooms_are_no_class) {
  static const char *const rooms[] = {"rooma", "roomb", "roomc"};
  char prob[4096];
  gripper_prob(prob, sizeof prob, 3, rooms);
  goap_pddl_task *t = load(gripper_dom, prob, NULL);
  REQUIRE(t != NULL);
  const goap_symmetry *s = SYM_OF(t);
  REQUIRE(s != NULL);
  /* no ball class; the grippers (no longer overlapping a kept class) are the only one */
  CHECK_EQ_INT(s->class_count, 1);
  CHECK_EQ_INT(s->classes[0].members, 2);
  CHECK(class_names(t, &s->classes[0], "left"));
  CHECK(class_names(t, &s->classes[0], "right"));
  CHECK(!class_names(t, &s->classes[0], "rooma"));
  goap_pddl_destroy(t);

  /* balls 1 and 2 share their goal room: a class of 2, like the grippers, whose slots overlap
   * it (carry ball1 left); of two classes of one size, the one whose first member comes first
   * in the object order is kept: the grippers (declared before the balls) */
  static const char *const rooms2[] = {"roomb", "roomb", "roomc"};
  gripper_prob(prob, sizeof prob, 3, rooms2);
  t = load(gripper_dom, prob, NULL);
  REQUIRE(t != NULL);
  s = SYM_OF(t);
  REQUIRE(s != NULL);
  CHECK_EQ_INT(s->class_count, 1);
  CHECK_EQ_INT(s->classes[0].members, 2);
  CHECK_STR(var_name(t, s->classes[0].vars[0]), "free left");
  goap_pddl_destroy(t);
  /* with four balls, three sharing roomb: the balls' class (3) wins over the grippers' (2) */
  static const char *const rooms3[] = {"roomb", "roomc", "roomb", "roomb"};
  gripper_prob(prob, sizeof prob, 4, rooms3);
  t = load(gripper_dom, prob, NULL);
  REQUIRE(t != NULL);
  s = SYM_OF(t);
  REQUIRE(s != NULL);
  CHECK_EQ_INT(s->class_count, 1);
  CHECK_EQ_INT(s->classes[0].members, 3);
  CHECK(class_names(t, &s->classes[0], "ball1"));
  CHECK(!class_names(t, &s->classes[0], "ball2"));
  CHECK(class_names(t, &s->classes[0], "ball3"));
  CHECK(class_names(t, &s->classes[0], "ball4"));
  goap_pddl_destroy(t);
}

/* The grippers as domain constants: never members of a class. */
TEST(domain_constants_are_never_members) {
  char dom[sizeof gripper_dom + 64];
  const char *types = "(:types room ball gripper)";
  const char *p = strstr(gripper_dom, types);
  REQUIRE(p != NULL);
  size_t head = (size_t)(p - gripper_dom) + strlen(types);
  memcpy(dom, gripper_dom, head);
  snprintf(dom + head, sizeof dom - head, " (:constants left right - gripper)%s",
           gripper_dom + head);
  static const char *const rooms[] = {"rooma", "roomb", "roomc"};
  char prob[4096];
  gripper_prob(prob, sizeof prob, 3, rooms);
  /* the problem lists left and right again in :objects (allowed, same type): still constants */
  goap_pddl_task *t = load(dom, prob, NULL);
  REQUIRE(t != NULL);
  const goap_symmetry *s = SYM_OF(t);
  CHECK(s == NULL); /* with the grippers as objects, they are a class (test above) */
  goap_pddl_destroy(t);
  /* the balls are still found when they share their goal */
  gripper_prob(prob, sizeof prob, 4, NULL);
  t = load(dom, prob, NULL);
  REQUIRE(t != NULL);
  s = SYM_OF(t);
  REQUIRE(s != NULL);
  CHECK_EQ_INT(s->class_count, 1);
  CHECK_EQ_INT(s->classes[0].members, 4);
  CHECK_STR(var_name(t, s->classes[0].vars[0]), "at ball1 rooma");
  goap_pddl_destroy(t);
}

/* ---- action costs from a static function -------------------------------------------------- */

static const char haul_dom[] =
    "(define (domain haul)\n"
    "  (:requirements :strips :typing :action-costs)\n"
    "  (:types crate place)\n"
    "  (:predicates (at ?c - crate ?p - place) (road ?a ?b - place) (likes ?c - crate ?p - place))\n"
    "  (:functions (total-cost) - number (weight ?c - crate) - number)\n"
    "  (:action carry :parameters (?c - crate ?a ?b - place)\n"
    "    :precondition (and (at ?c ?a) (road ?a ?b))\n"
    "    :effect (and (not (at ?c ?a)) (at ?c ?b) (increase (total-cost) (weight ?c)))))\n";

static void haul_prob_extra(char *buf, size_t cap, const int *w, const char *extra) {
  snprintf(buf, cap,
           "(define (problem h) (:domain haul)\n"
           "  (:objects c1 c2 c3 - crate x y z - place)\n"
           "  (:init (road x y) (road y z) (at c1 x) (at c2 x) (at c3 x) %s\n"
           "         (= (weight c1) %d) (= (weight c2) %d) (= (weight c3) %d) (= (total-cost) 0))\n"
           "  (:goal (and (at c1 z) (at c2 z) (at c3 z)))\n"
           "  (:metric minimize (total-cost)))\n",
           extra, w[0], w[1], w[2]);
}

static void haul_prob(char *buf, size_t cap, const int *w) { haul_prob_extra(buf, cap, w, ""); }

/* The start state's static facts must map onto themselves too (goap/pddl.h), even one no
 * action reads: (likes c2 y) sets c2 apart from c1 and c3, which like x (each crate likes one
 * place: alike by any count, told apart only by the exact check). */
TEST(static_facts_must_map_onto_themselves) {
  char prob[2048];
  static const int same[] = {2, 2, 2};
  haul_prob_extra(prob, sizeof prob, same, "(likes c1 x) (likes c2 y) (likes c3 x)");
  goap_pddl_task *t = load(haul_dom, prob, NULL);
  REQUIRE(t != NULL);
  const goap_symmetry *s = SYM_OF(t);
  REQUIRE(s != NULL);
  CHECK_EQ_INT(s->class_count, 1);
  CHECK_EQ_INT(s->classes[0].members, 2);
  CHECK(!class_names(t, &s->classes[0], "c2"));
  goap_pddl_destroy(t);
  haul_prob_extra(prob, sizeof prob, same, "(likes c1 y) (likes c2 y) (likes c3 y)");
  t = load(haul_dom, prob, NULL);
  REQUIRE(t != NULL);
  s = SYM_OF(t);
  REQUIRE(s != NULL);
  CHECK_EQ_INT(s->classes[0].members, 3);
  goap_pddl_destroy(t);
}

TEST(costs_from_a_static_function_break_the_symmetry) {
  char prob[2048];
  static const int same[] = {2, 2, 2}, one_differs[] = {2, 3, 2}, all_differ[] = {1, 2, 3};
  haul_prob(prob, sizeof prob, same);
  goap_pddl_task *t = load(haul_dom, prob, NULL);
  REQUIRE(t != NULL);
  const goap_symmetry *s = SYM_OF(t);
  REQUIRE(s != NULL);
  CHECK_EQ_INT(s->class_count, 1);
  CHECK_EQ_INT(s->classes[0].members, 3);
  goap_pddl_destroy(t);

  haul_prob(prob, sizeof prob, one_differs);
  t = load(haul_dom, prob, NULL);
  REQUIRE(t != NULL);
  s = SYM_OF(t);
  REQUIRE(s != NULL);
  CHECK_EQ_INT(s->class_count, 1);
  CHECK_EQ_INT(s->classes[0].members, 2);
  CHECK(class_names(t, &s->classes[0], "c1"));
  CHECK(class_names(t, &s->classes[0], "c3"));
  CHECK(!class_names(t, &s->classes[0], "c2"));
  goap_pddl_destroy(t);

  haul_prob(prob, sizeof prob, all_differ);
  t = load(haul_dom, prob, NULL);
  REQUIRE(t != NULL);
  CHECK(SYM_OF(t) == NULL);
  goap_pddl_destroy(t);
}

/* Costs per (crate, road): both crates pay 1 and 2 over the two roads (alike by any count),
 * but in a different order, so swapping them maps (carry c1 x y), cost 1, onto (carry c2 x y),
 * cost 2: no class. Paying the same per road, they are a class. */
TEST(costs_depending_on_two_objects_are_compared_per_action) {
  static const char dom[] =
      "(define (domain haul2)\n"
      "  (:requirements :strips :typing :action-costs)\n"
      "  (:types crate place)\n"
      "  (:predicates (at ?c - crate ?p - place) (road ?a ?b - place))\n"
      "  (:functions (total-cost) - number (effort ?c - crate ?a ?b - place) - number)\n"
      "  (:action carry :parameters (?c - crate ?a ?b - place)\n"
      "    :precondition (and (at ?c ?a) (road ?a ?b))\n"
      "    :effect (and (not (at ?c ?a)) (at ?c ?b) (increase (total-cost) (effort ?c ?a ?b)))))\n";
  for (int same = 0; same < 2; ++same) {
    char prob[2048];
    snprintf(prob, sizeof prob,
             "(define (problem h) (:domain haul2)\n"
             "  (:objects c1 c2 - crate x y z - place)\n"
             "  (:init (road x y) (road y z) (at c1 x) (at c2 x)\n"
             "         (= (effort c1 x y) 1) (= (effort c1 y z) 2)\n"
             "         (= (effort c2 x y) %d) (= (effort c2 y z) %d) (= (total-cost) 0))\n"
             "  (:goal (and (at c1 z) (at c2 z)))\n"
             "  (:metric minimize (total-cost)))\n",
             same ? 1 : 2, same ? 2 : 1);
    goap_pddl_task *t = load(dom, prob, NULL);
    REQUIRE(t != NULL);
    const goap_symmetry *s = SYM_OF(t);
    if (same) {
      REQUIRE(s != NULL);
      CHECK_EQ_INT(s->class_count, 1);
      CHECK_EQ_INT(s->classes[0].members, 2);
    } else {
      CHECK(s == NULL);
    }
    goap_pddl_destroy(t);
  }
}

/* ---- logistics ----------------------------------------------------------------------------- */

static const char logistics_dom[] =
    "(define (domain logistics)\n"
    "  (:requirements :strips :typing)\n"
    "  (:types truck airplane - vehicle package vehicle - physobj\n"
    "          airport location - place city place physobj - object)\n"
    "  (:predicates (in-city ?loc - place ?city - city) (at ?obj - physobj ?loc - place)\n"
    "               (in ?pkg - package ?veh - vehicle))\n"
    "  (:action load-truck :parameters (?pkg - package ?truck - truck ?loc - place)\n"
    "    :precondition (and (at ?truck ?loc) (at ?pkg ?loc))\n"
    "    :effect (and (not (at ?pkg ?loc)) (in ?pkg ?truck)))\n"
    "  (:action load-airplane :parameters (?pkg - package ?airplane - airplane ?loc - place)\n"
    "    :precondition (and (at ?pkg ?loc) (at ?airplane ?loc))\n"
    "    :effect (and (not (at ?pkg ?loc)) (in ?pkg ?airplane)))\n"
    "  (:action unload-truck :parameters (?pkg - package ?truck - truck ?loc - place)\n"
    "    :precondition (and (at ?truck ?loc) (in ?pkg ?truck))\n"
    "    :effect (and (not (in ?pkg ?truck)) (at ?pkg ?loc)))\n"
    "  (:action unload-airplane :parameters (?pkg - package ?airplane - airplane ?loc - place)\n"
    "    :precondition (and (in ?pkg ?airplane) (at ?airplane ?loc))\n"
    "    :effect (and (not (in ?pkg ?airplane)) (at ?pkg ?loc)))\n"
    "  (:action drive-truck\n"
    "    :parameters (?truck - truck ?loc-from - place ?loc-to - place ?city - city)\n"
    "    :precondition (and (at ?truck ?loc-from) (in-city ?loc-from ?city)\n"
    "                       (in-city ?loc-to ?city))\n"
    "    :effect (and (not (at ?truck ?loc-from)) (at ?truck ?loc-to)))\n"
    "  (:action fly-airplane :parameters (?airplane - airplane ?loc-from ?loc-to - airport)\n"
    "    :precondition (at ?airplane ?loc-from)\n"
    "    :effect (and (not (at ?airplane ?loc-from)) (at ?airplane ?loc-to))))\n";

static const char logistics_prob[] =
    "(define (problem l) (:domain logistics)\n"
    "  (:objects c1 c2 - city ap1 ap2 - airport h1 h2 - location t1 t2 - truck\n"
    "            plane - airplane p1 p2 p3 p4 p5 - package)\n"
    "  (:init (in-city ap1 c1) (in-city h1 c1) (in-city ap2 c2) (in-city h2 c2)\n"
    "         (at t1 h1) (at t2 ap2) (at plane ap2)\n"
    "         (at p1 h1) (at p2 h1) (at p3 h1) (at p4 ap1) (at p5 h2))\n"
    "  (:goal (and (at p1 h2) (at p2 ap2) (at p3 h2) (at p4 ap2))))\n";

TEST(logistics_packages_sharing_their_goal_are_a_class) {
  goap_pddl_task *t = load(logistics_dom, logistics_prob, NULL);
  REQUIRE(t != NULL);
  const goap_symmetry *s = SYM_OF(t);
  REQUIRE(s != NULL);
  /* p1 and p3 share h1 -> h2: a class. p2 and p4 share the goal ap2 from different starts:
   * a class too (the start state need not be symmetric: orbit search handles any start).
   * p5 has no goal (and is the only one). The trucks are in different cities (their
   * reachable drives differ): no class. */
  CHECK_EQ_INT(s->class_count, 2);
  REQUIRE(s->class_count == 2);
  const goap_symmetry_class *k = &s->classes[0], *k2 = &s->classes[1];
  CHECK_EQ_INT(k->members, 2);
  CHECK(class_names(t, k, "p1"));
  CHECK(class_names(t, k, "p3"));
  CHECK(!class_names(t, k, "p2"));
  CHECK(!class_names(t, k, "p4"));
  CHECK(!class_names(t, k, "p5"));
  CHECK_EQ_INT(k2->members, 2);
  CHECK(class_names(t, k2, "p2"));
  CHECK(class_names(t, k2, "p4"));
  CHECK(!class_names(t, k2, "p5"));
  /* slot: at p h1, at p h2, at p ap1, at p ap2 (4 places), in p t1, in p t2, in p plane */
  CHECK_EQ_INT(k->slot_vars, 7);
  for (int j = 0; j < k->slot_vars; ++j) {
    char want[64];
    const char *n0 = var_name(t, k->vars[j]);
    const char *sp = strchr(n0, ' ');
    REQUIRE(sp != NULL);
    /* member 1's variable j is member 0's with p1 replaced by p3 */
    const char *rest = strchr(sp + 1, ' ');
    snprintf(want, sizeof want, "%.*s p3%s", (int)(sp - n0), n0, rest ? rest : "");
    CHECK_STR(var_name(t, k->vars[k->slot_vars + j]), want);
  }
  goap_pddl_destroy(t);
}

/* ---- blocks -------------------------------------------------------------------------------- */

static const char blocks_dom[] =
    "(define (domain blocks) (:requirements :strips)\n"
    "  (:predicates (on ?x ?y) (ontable ?x) (clear ?x) (handempty) (holding ?x))\n"
    "  (:action pick-up :parameters (?x)\n"
    "    :precondition (and (clear ?x) (ontable ?x) (handempty))\n"
    "    :effect (and (not (ontable ?x)) (not (clear ?x)) (not (handempty)) (holding ?x)))\n"
    "  (:action put-down :parameters (?x) :precondition (holding ?x)\n"
    "    :effect (and (not (holding ?x)) (clear ?x) (handempty) (ontable ?x)))\n"
    "  (:action stack :parameters (?x ?y) :precondition (and (holding ?x) (clear ?y))\n"
    "    :effect (and (not (holding ?x)) (not (clear ?y)) (clear ?x) (handempty) (on ?x ?y)))\n"
    "  (:action unstack :parameters (?x ?y)\n"
    "    :precondition (and (on ?x ?y) (clear ?x) (handempty))\n"
    "    :effect (and (holding ?x) (clear ?y) (not (clear ?x)) (not (handempty))\n"
    "                 (not (on ?x ?y)))))\n";

TEST(blocks_that_differ_in_the_goal_are_no_class) {
  const char *prob =
      "(define (problem b) (:domain blocks) (:objects a b c d)\n"
      "  (:init (clear a) (clear b) (clear c) (clear d) (ontable a) (ontable b) (ontable c)\n"
      "         (ontable d) (handempty))\n"
      "  (:goal (and (on a b) (on b c) (on c d))))\n";
  goap_pddl_task *t = load(blocks_dom, prob, NULL);
  REQUIRE(t != NULL);
  CHECK(SYM_OF(t) == NULL);
  goap_pddl_destroy(t);
  /* c and d alike (not in the goal) are still no class: (on c d) mentions both; the slot
   * form cannot hold them, but their transposition is a generator: every variable naming c
   * or d goes to the one with the two swapped, and (on c d) to (on d c) */
  const char *prob2 =
      "(define (problem b2) (:domain blocks) (:objects a b c d)\n"
      "  (:init (clear a) (clear b) (clear c) (clear d) (ontable a) (ontable b) (ontable c)\n"
      "         (ontable d) (handempty))\n"
      "  (:goal (on a b)))\n";
  t = load(blocks_dom, prob2, NULL);
  REQUIRE(t != NULL);
  const goap_symmetry *s = SYM_OF(t);
  REQUIRE(s != NULL);
  CHECK_EQ_INT(s->class_count, 0);
  REQUIRE(s->generator_count == 1);
  const goap_symmetry_generator *g = &s->generators[0];
  /* atoms naming c or d: clear, ontable, holding (3 each), on with a or b on either side (4
   * each), (on c d), (on d c), and (on c c), (on d d) (reachable in the relaxed grounding) */
  CHECK_EQ_INT(g->var_count, 2 * 3 + 2 * 4 + 4);
  int selfs = 0;
  for (int i = 0; i < g->var_count; ++i) {
    char want[128];
    const char *from = var_name(t, g->vars[2 * i]);
    size_t n = 0;
    for (const char *p = from; *p && n + 1 < sizeof want; ++p)
      want[n++] = (p[0] == 'c' || p[0] == 'd') && (p[1] == ' ' || p[1] == ')' || p[1] == 0) &&
                          p > from && p[-1] == ' '
                      ? (char)(p[0] == 'c' ? 'd' : 'c')
                      : p[0];
    want[n] = 0;
    CHECK_STR(var_name(t, g->vars[2 * i + 1]), want);
    selfs += strstr(from, "on c c") != NULL || strstr(from, "on d d") != NULL;
  }
  CHECK_EQ_INT(selfs, 2);
  goap_pddl_destroy(t);
}

/* ---- arguments, caching, allocation failures ----------------------------------------------- */

TEST(bad_arguments) {
  const goap_symmetry *s = (const goap_symmetry *)&s;
  CHECK_EQ_INT(goap_pddl_symmetry(NULL, &s), GOAP_INVALID_ARGUMENT);
  CHECK(s == NULL);
  char prob[4096];
  gripper_prob(prob, sizeof prob, 3, NULL);
  goap_pddl_options o;
  memset(&o, 0, sizeof o);
  o.flags = GOAP_PDDL_PARSE_ONLY;
  goap_pddl_task *t = load(gripper_dom, prob, &o);
  REQUIRE(t != NULL);
  s = (const goap_symmetry *)&s;
  CHECK_EQ_INT(goap_pddl_symmetry(t, &s), GOAP_INVALID_ARGUMENT);
  CHECK(s == NULL);
  goap_pddl_destroy(t);
  t = load(gripper_dom, prob, NULL);
  REQUIRE(t != NULL);
  CHECK_EQ_INT(goap_pddl_symmetry(t, NULL), GOAP_INVALID_ARGUMENT);
  goap_pddl_destroy(t);
}

TEST(the_result_is_cached) {
  char prob[4096];
  gripper_prob(prob, sizeof prob, 4, NULL);
  goap_pddl_task *t = load(gripper_dom, prob, NULL);
  REQUIRE(t != NULL);
  const goap_symmetry *s1 = NULL, *s2 = NULL;
  CHECK_EQ_INT(goap_pddl_symmetry(t, &s1), GOAP_OK);
  REQUIRE(s1 != NULL);
  const int32_t *vars = s1->classes[0].vars;
  CHECK_EQ_INT(goap_pddl_symmetry(t, &s2), GOAP_OK);
  CHECK(s1 == s2);
  CHECK(s2->classes[0].vars == vars);
  goap_pddl_destroy(t);
}

/* Every allocation of goap_pddl_symmetry fails once: GOAP_OUT_OF_MEMORY, nothing cached, and
 * the next call computes the same classes; nothing leaks. */
TEST(allocation_failures_are_clean) {
  char prob[4096];
  gripper_prob(prob, sizeof prob, 4, NULL);
  int failures_seen = 0, done = 0;
  for (size_t k = 1; k < 10000 && !done; ++k) {
    test_alloc c;
    memset(&c, 0, sizeof c);
    goap_pddl_options o;
    memset(&o, 0, sizeof o);
    o.allocator = test_alloc_hook(&c);
    goap_pddl_task *t = load(gripper_dom, prob, &o);
    REQUIRE(t != NULL);
    c.fail_at = c.calls + k;
    const goap_symmetry *s = NULL;
    goap_status st = goap_pddl_symmetry(t, &s);
    if (st == GOAP_OK) {
      done = c.calls < c.fail_at; /* no allocation failed: every point has been tried */
    } else {
      CHECK_EQ_INT(st, GOAP_OUT_OF_MEMORY);
      CHECK(s == NULL);
      failures_seen++;
      st = goap_pddl_symmetry(t, &s); /* retried */
      CHECK_EQ_INT(st, GOAP_OK);
    }
    CHECK(s != NULL);
    if (s) {
      CHECK_EQ_INT(s->class_count, 1);
      CHECK_EQ_INT(s->classes[0].members, 4);
      CHECK(contract_holds(t, s));
    }
    goap_pddl_destroy(t);
    CHECK_EQ_INT(c.outstanding, 0);
    CHECK_EQ_INT(c.bad_old_size, 0);
    if (c.outstanding || c.bad_old_size) break;
  }
  CHECK(done);
  CHECK(failures_seen >= 5);
}

/* ---- planning with and without the symmetry ----------------------------------------------- */

/* Plans t optimally (A*, LM-cut) with or without its symmetry; returns the cost validated by
 * goap_pddl_validate (independent of the grounding and planner), or -1. */
static double plan_and_validate_x(goap_pddl_task *t, int use_symmetry, goap_heuristic h,
                                  uint64_t *expanded) {
  const goap_domain *d = goap_pddl_domain(t);
  goap_planner *p = NULL;
  if (goap_planner_create(d, NULL, &p) != GOAP_OK) return -1;
  int32_t plan[256];
  goap_request req;
  memset(&req, 0, sizeof req);
  req.start = goap_pddl_start(t);
  req.want = goap_pddl_goal(t, &req.want_count);
  req.search = GOAP_SEARCH_ASTAR;
  req.heuristic = h;
  if (use_symmetry && goap_pddl_symmetry(t, &req.symmetry) != GOAP_OK) {
    goap_planner_destroy(p);
    return -1;
  }
  if (use_symmetry && !req.symmetry) {
    goap_planner_destroy(p);
    return -1;
  }
  goap_result r;
  memset(&r, 0, sizeof r);
  r.plan = plan;
  r.plan_capacity = 256;
  goap_status st = goap_plan(p, &req, &r);
  goap_planner_destroy(p);
  if (st != GOAP_OK) return -1;
  if (expanded) *expanded = r.stats.expanded;
  char text[16384];
  size_t o = 0;
  for (int i = 0; i < r.plan_length && o + 200 < sizeof text; ++i) {
    o += goap_pddl_format_action(t, plan[i], text + o, sizeof text - o);
    text[o++] = '\n';
  }
  goap_pddl_report rep;
  goap_error err;
  if (goap_pddl_validate(t, "plan", text, o, &rep, &err) != GOAP_OK || !rep.valid) return -1;
  if (rep.cost != r.cost) return -1;
  return rep.cost;
}

static double plan_and_validate(goap_pddl_task *t, int use_symmetry) {
  return plan_and_validate_x(t, use_symmetry, GOAP_H_LMCUT, NULL);
}

/* Two hands, and an action that names both (fill: one hand holds the shot, the other is
 * empty), as barman's fill-shot, shake and clean-shot do: the hands are no class (the slot
 * form puts each action in one member's slot), but their swap is a generator. */
static const char hands_dom[] =
    "(define (domain hands) (:requirements :strips :typing :action-costs)\n"
    "  (:types hand shot)\n"
    "  (:predicates (ontable ?s - shot) (holding ?h - hand ?s - shot) (handempty ?h - hand)\n"
    "               (clean ?s - shot) (full ?s - shot))\n"
    "  (:functions (total-cost))\n"
    "  (:action grasp :parameters (?h - hand ?s - shot)\n"
    "    :precondition (and (ontable ?s) (handempty ?h))\n"
    "    :effect (and (not (ontable ?s)) (not (handempty ?h)) (holding ?h ?s)\n"
    "                 (increase (total-cost) 1)))\n"
    "  (:action leave :parameters (?h - hand ?s - shot)\n"
    "    :precondition (holding ?h ?s)\n"
    "    :effect (and (ontable ?s) (handempty ?h) (not (holding ?h ?s))\n"
    "                 (increase (total-cost) 1)))\n"
    "  (:action fill :parameters (?s - shot ?h1 ?h2 - hand)\n"
    "    :precondition (and (holding ?h1 ?s) (handempty ?h2) (clean ?s))\n"
    "    :effect (and (full ?s) (not (clean ?s)) (increase (total-cost) 10))))\n";

TEST(two_handed_actions_make_the_hand_swap_a_generator) {
  const char *prob =
      "(define (problem h) (:domain hands) (:objects left right - hand s1 s2 s3 - shot)\n"
      "  (:init (= (total-cost) 0) (ontable s1) (ontable s2) (ontable s3) (handempty left)\n"
      "         (handempty right) (clean s1) (clean s2) (clean s3))\n"
      "  (:goal (and (full s1) (ontable s1) (full s2)))\n"
      "  (:metric minimize (total-cost)))\n";
  goap_pddl_task *t = load(hands_dom, prob, NULL);
  REQUIRE(t != NULL);
  const goap_symmetry *s = SYM_OF(t);
  REQUIRE(s != NULL);
  CHECK_EQ_INT(s->class_count, 0); /* s1, s2, s3 differ in the goal */
  REQUIRE(s->generator_count == 1);
  const goap_symmetry_generator *g = &s->generators[0];
  /* handempty and holding with each shot, per hand */
  CHECK_EQ_INT(g->var_count, 2 * (1 + 3));
  /* grasp and leave of each shot per hand, fill of each shot per (h1, h2): four, (fill s
   * left left) included (reachable in the relaxed grounding; never applicable) */
  CHECK_EQ_INT(g->action_count, 2 * 3 + 2 * 3 + 4 * 3);
  for (int i = 0; i < g->action_count; ++i) {
    char a[128], b[128];
    action_name(t, g->actions[2 * i], a, sizeof a);
    action_name(t, g->actions[2 * i + 1], b, sizeof b);
    CHECK((strstr(a, "left") && strstr(b, "right")) || (strstr(a, "right") && strstr(b, "left")));
  }
  /* the optimum by hand: grasp s1, fill s1, leave s1, grasp s2, fill s2 = 1 + 10 + 1 + 1 + 10;
   * with the generator, blind A* stores fewer states and the mapped-back plan validates */
  uint64_t e0 = 0, e1 = 0;
  CHECK_NEAR(plan_and_validate_x(t, 0, GOAP_H_ZERO, &e0), 23.0, 0);
  CHECK_NEAR(plan_and_validate_x(t, 1, GOAP_H_ZERO, &e1), 23.0, 0);
  CHECK(e1 < e0);
  CHECK_NEAR(plan_and_validate_x(t, 1, GOAP_H_LMCUT, NULL), 23.0, 0);
  goap_pddl_destroy(t);
}

TEST(plans_with_and_without_symmetry_are_valid_and_optimal) {
  for (int n = 4; n <= 5; ++n) {
    char prob[4096];
    gripper_prob(prob, sizeof prob, n, NULL);
    goap_pddl_task *t = load(gripper_dom, prob, NULL);
    REQUIRE(t != NULL);
    double without = plan_and_validate(t, 0), with = plan_and_validate(t, 1);
    /* optimum by hand: two balls per round trip of 6 steps, the last trip without the walk
     * back (3n - 1 for even n), a last single ball: pick, move, drop (3n for odd n) */
    double opt = n % 2 ? 3.0 * n : 3.0 * n - 1;
    CHECK_NEAR(without, opt, 0);
    CHECK_NEAR(with, opt, 0);
    goap_pddl_destroy(t);
  }
  /* a general-cost task: the haul crates */
  char prob[2048];
  static const int w[] = {2, 3, 2};
  haul_prob(prob, sizeof prob, w);
  goap_pddl_task *t = load(haul_dom, prob, NULL);
  REQUIRE(t != NULL);
  CHECK_NEAR(plan_and_validate(t, 0), 14.0, 0); /* (2 + 3 + 2) * 2 roads */
  CHECK_NEAR(plan_and_validate(t, 1), 14.0, 0);
  goap_pddl_destroy(t);
}

TEST_MAIN(TEST_ENTRY(gripper_balls_are_one_class_with_the_exact_slot_layout),
          TEST_ENTRY(gripper_balls_with_different_goal_rooms_are_no_class),
          TEST_ENTRY(domain_constants_are_never_members),
          TEST_ENTRY(costs_from_a_static_function_break_the_symmetry),
          TEST_ENTRY(costs_depending_on_two_objects_are_compared_per_action),
          TEST_ENTRY(static_facts_must_map_onto_themselves),
          TEST_ENTRY(logistics_packages_sharing_their_goal_are_a_class),
          TEST_ENTRY(blocks_that_differ_in_the_goal_are_no_class), TEST_ENTRY(bad_arguments),
          TEST_ENTRY(the_result_is_cached), TEST_ENTRY(allocation_failures_are_clean),
          TEST_ENTRY(plans_with_and_without_symmetry_are_valid_and_optimal),
          TEST_ENTRY(two_handed_actions_make_the_hand_swap_a_generator))
