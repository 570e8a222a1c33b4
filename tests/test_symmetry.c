/*
 * test_symmetry.c -- orbit search (goap_request.symmetry) and goap_symmetry_check.
 *
 * Domains are built with the builder API so that their symmetry holds by construction: a
 * gripper-like domain (k balls, two rooms, two grippers; each ball owns one `pos` variable
 * and its eight pick/drop actions; the robot's room, the free grippers and the moves are
 * shared) and random ones (a random template of variables and actions replicated for every
 * member, plus shared variables and actions, random integer costs, a symmetric goal).
 *
 * Checked: goap_symmetry_check accepts them and rejects broken ones (a cost, the goal, a
 * dynamic cost, overlapping slots, bad ids, mismatched types, too few members); begin rejects
 * bad shapes and asymmetric request costs; A* finds the same optimal cost with and without
 * the symmetry (ZERO, MAX, LMCUT, eager and lazy) from random asymmetric start states, and
 * every plan (greedy and weighted too) replays from the real start through an independent
 * replayer; orbit search stores strictly fewer nodes on gripper with 6 balls; partial plans
 * replay as a valid prefix; sliced planning gives the same plan and traces carry canonical
 * states; allocation failures at begin surface as GOAP_OUT_OF_MEMORY, the
 * planner stays usable, a warmed-up request allocates nothing and nothing leaks.
 */
#include <goap/goap.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc_hook.h"
#include "test.h"

#define MAXK 8
#define MAXW 8

/* ---- a deterministic generator ------------------------------------------------------------ */
static uint64_t rng_state = 0x243f6a8885a308d3ull;
static uint32_t rnd(void) {
  rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(rng_state >> 33);
}
static int rnd_in(int lo, int hi) { return lo + (int)(rnd() % (uint32_t)(hi - lo + 1)); }

/* ---- an independent replayer (public queries only) ---------------------------------------- */

/* Replays plan[0..len) from start: every action's preconditions hold in turn, its effects
 * stay in range. Returns the number of steps that applied; *cost their summed cost; the final
 * state in out. */
static int replay(const goap_domain *d, const goap_word *start, const int32_t *plan, int len,
                  goap_word *out, double *cost) {
  size_t W = goap_domain_state_words(d);
  memcpy(out, start, W * sizeof *out);
  *cost = 0.0;
  for (int i = 0; i < len; ++i) {
    int np = 0, ne = 0;
    if (plan[i] < 0 || plan[i] >= goap_domain_action_count(d)) return i;
    const goap_cond *pre = goap_domain_action_pre(d, plan[i], &np);
    const goap_effect *eff = goap_domain_action_eff(d, plan[i], &ne);
    if (!goap_state_satisfies(d, out, pre, np)) return i;
    if (goap_state_assign(d, out, eff, ne) != GOAP_OK) return i;
    *cost += goap_domain_action_cost(d, plan[i]);
  }
  return len;
}

/* A found plan reaches want from start at result->cost. */
static int plan_ok(const goap_domain *d, const goap_word *start, const goap_cond *want,
                   int nwant, const goap_result *r) {
  goap_word s[MAXW];
  double c = 0.0;
  if (replay(d, start, r->plan, r->plan_length, s, &c) != r->plan_length) return 0;
  if (!goap_state_satisfies(d, s, want, nwant)) return 0;
  if (fabs(c - r->cost) > 1e-9) return 0;
  return goap_plan_validate(d, start, want, nwant, r->plan, r->plan_length, NULL, NULL) ==
         GOAP_OK;
}

/* ---- gripper ------------------------------------------------------------------------------- */
enum { ROOM_A = 0, ROOM_B, LEFT, RIGHT };

typedef struct gripper {
  goap_domain *d;
  int k;
  int robot_a, free_l, free_r;
  int32_t pos[MAXK];           /* the class's variables: one per ball */
  int32_t acts[MAXK * 8];      /* the class's actions: eight per ball */
  goap_symmetry_class cls;
  goap_symmetry sym;
  goap_cond want[MAXK];
} gripper;

/* odd_ball >= 0: that ball's first pick costs 2 instead of 1 (a broken symmetry).
 * dyn: ball 0's first pick gets a dynamic-cost callback. */
static double one_cost(void *host, int action, void *user) {
  (void)host;
  (void)action;
  (void)user;
  return 1.0;
}

static int build_gripper(gripper *g, int k, int odd_ball, int dyn) {
  static const char *const posv[] = {"room_a", "room_b", "left", "right"};
  memset(g, 0, sizeof *g);
  g->k = k;
  goap_builder *b = NULL;
  if (goap_builder_create(NULL, &b) != GOAP_OK) return 0;
  char name[64];
  goap_var_desc v;
  memset(&v, 0, sizeof v);
  v.type = GOAP_BOOL;
  v.name = "robot_a";
  v.has_default = 1;
  v.default_value = 1;
  goap_builder_add_var(b, &v, &g->robot_a);
  v.name = "free_left";
  goap_builder_add_var(b, &v, &g->free_l);
  v.name = "free_right";
  goap_builder_add_var(b, &v, &g->free_r);
  for (int i = 0; i < k; ++i) {
    memset(&v, 0, sizeof v);
    snprintf(name, sizeof name, "pos%d", i);
    v.name = name;
    v.type = GOAP_ENUM;
    v.values = posv;
    v.value_count = 4;
    int id = -1;
    goap_builder_add_var(b, &v, &id);
    g->pos[i] = id;
  }
  int n = 0;
  for (int i = 0; i < k; ++i) {
    for (int gr = 0; gr < 2; ++gr) {
      int fv = gr ? g->free_r : g->free_l, hand = gr ? RIGHT : LEFT;
      for (int room = 0; room < 2; ++room) {
        goap_cond pre[3] = {{g->pos[i], GOAP_EQ, room}, {g->robot_a, GOAP_EQ, room == ROOM_A},
                            {fv, GOAP_EQ, 1}};
        goap_effect eff[2] = {{g->pos[i], GOAP_SET, hand}, {fv, GOAP_SET, 0}};
        goap_action_desc a;
        memset(&a, 0, sizeof a);
        snprintf(name, sizeof name, "pick_%d_%d_%d", i, gr, room);
        a.name = name;
        a.cost = (i == odd_ball && gr == 0 && room == 0) ? 2.0 : 1.0;
        if (dyn && i == 0 && gr == 0 && room == 0) a.dynamic_cost = one_cost;
        a.pre = pre;
        a.pre_count = 3;
        a.eff = eff;
        a.eff_count = 2;
        int id = -1;
        if (goap_builder_add_action(b, &a, &id) != GOAP_OK) return 0;
        g->acts[n++] = id;
        goap_cond pre2[2] = {{g->pos[i], GOAP_EQ, hand}, {g->robot_a, GOAP_EQ, room == ROOM_A}};
        goap_effect eff2[2] = {{g->pos[i], GOAP_SET, room}, {fv, GOAP_SET, 1}};
        snprintf(name, sizeof name, "drop_%d_%d_%d", i, gr, room);
        a.name = name;
        a.cost = 1.0;
        a.dynamic_cost = NULL;
        a.pre = pre2;
        a.pre_count = 2;
        a.eff = eff2;
        if (goap_builder_add_action(b, &a, &id) != GOAP_OK) return 0;
        g->acts[n++] = id;
      }
    }
  }
  for (int dir = 0; dir < 2; ++dir) {
    goap_cond pre[1] = {{g->robot_a, GOAP_EQ, dir == 0}};
    goap_effect eff[1] = {{g->robot_a, GOAP_SET, dir != 0}};
    goap_action_desc a;
    memset(&a, 0, sizeof a);
    a.name = dir ? "move_ba" : "move_ab";
    a.cost = 1.0;
    a.pre = pre;
    a.pre_count = 1;
    a.eff = eff;
    a.eff_count = 1;
    if (goap_builder_add_action(b, &a, NULL) != GOAP_OK) return 0;
  }
  goap_status st = goap_builder_build(b, &g->d);
  goap_builder_destroy(b);
  if (st != GOAP_OK) return 0;
  g->cls.members = k;
  g->cls.slot_vars = 1;
  g->cls.slot_actions = 8;
  g->cls.vars = g->pos;
  g->cls.actions = g->acts;
  g->sym.class_count = 1;
  g->sym.classes = &g->cls;
  for (int i = 0; i < k; ++i) {
    g->want[i].var = g->pos[i];
    g->want[i].op = GOAP_EQ;
    g->want[i].value = ROOM_B;
  }
  return 1;
}

/* A random consistent gripper state: balls in rooms or (at most one each) in a hand. */
static void gripper_random_start(const gripper *g, goap_word *s) {
  goap_state_init(g->d, s);
  goap_state_set(g->d, s, g->robot_a, rnd_in(0, 1));
  int fl = 1, fr = 1;
  for (int i = 0; i < g->k; ++i) {
    int p = rnd_in(0, 5);
    if (p == 4 && fl) {
      goap_state_set(g->d, s, g->pos[i], LEFT);
      fl = 0;
    } else if (p == 5 && fr) {
      goap_state_set(g->d, s, g->pos[i], RIGHT);
      fr = 0;
    } else {
      goap_state_set(g->d, s, g->pos[i], p & 1);
    }
  }
  goap_state_set(g->d, s, g->free_l, fl);
  goap_state_set(g->d, s, g->free_r, fr);
}

/* ---- random symmetric domains -------------------------------------------------------------- */
#define TV 3 /* template variables per member (at most) */
#define TA 4 /* template actions per member (at most) */
#define SV 3 /* shared variables (at most) */

typedef struct randdom {
  goap_domain *d;
  int k, tv, ta, nshared;
  int32_t vars[MAXK * TV];
  int32_t acts[MAXK * TA];
  int32_t shared[SV + 1];
  goap_symmetry_class cls;
  goap_symmetry sym;
  goap_cond want[MAXK * TV + SV];
  int nwant;
} randdom;

typedef struct tvar {
  goap_var_type type;
  int lo, hi, nvalues;
} tvar;

static int rand_value(const tvar *t) { return rnd_in(t->lo, t->hi); }

/* A random condition on a variable of kind t (var filled in later). */
static goap_cond rand_cond(const tvar *t) {
  goap_cond c;
  c.var = 0;
  c.value = rand_value(t);
  if (t->type == GOAP_INT) c.op = (goap_op)rnd_in(0, 5);
  else c.op = rnd_in(0, 3) ? GOAP_EQ : GOAP_NE;
  return c;
}

static goap_effect rand_eff(const tvar *t) {
  goap_effect e;
  e.var = 0;
  if (t->type == GOAP_INT && rnd_in(0, 1)) {
    e.op = GOAP_ADD;
    e.value = rnd_in(0, 1) ? 1 : -1;
  } else {
    e.op = GOAP_SET;
    e.value = rand_value(t);
  }
  return e;
}

/* wide: a shared int padding variable of 30 bits, so that states take two words. */
static int build_random(randdom *r, int k, int wide) {
  static const char *const ev[] = {"e0", "e1", "e2", "e3"};
  memset(r, 0, sizeof *r);
  r->k = k;
  r->tv = rnd_in(1, TV);
  r->ta = rnd_in(1, TA);
  r->nshared = rnd_in(1, SV);
  tvar tt[TV], ts[SV];
  for (int j = 0; j < r->tv; ++j) {
    int kind = rnd_in(0, 2);
    tt[j].type = (goap_var_type)kind;
    tt[j].lo = kind == GOAP_INT ? rnd_in(-1, 0) : 0;
    tt[j].hi = kind == GOAP_BOOL ? 1 : kind == GOAP_ENUM ? rnd_in(1, 3) : tt[j].lo + rnd_in(1, 2);
    tt[j].nvalues = kind == GOAP_ENUM ? tt[j].hi + 1 : 0;
  }
  for (int j = 0; j < r->nshared; ++j) {
    ts[j].type = rnd_in(0, 1) ? GOAP_BOOL : GOAP_INT;
    ts[j].lo = 0;
    ts[j].hi = ts[j].type == GOAP_BOOL ? 1 : rnd_in(1, 2);
    ts[j].nvalues = 0;
  }
  goap_builder *b = NULL;
  if (goap_builder_create(NULL, &b) != GOAP_OK) return 0;
  char name[64];
  for (int j = 0; j < r->nshared; ++j) {
    goap_var_desc v;
    memset(&v, 0, sizeof v);
    snprintf(name, sizeof name, "s%d", j);
    v.name = name;
    v.type = ts[j].type;
    v.lo = ts[j].lo;
    v.hi = ts[j].hi;
    if (goap_builder_add_var(b, &v, &r->shared[j]) != GOAP_OK) return 0;
  }
  if (wide) {
    goap_var_desc v;
    memset(&v, 0, sizeof v);
    for (int j = 0; j < 3; ++j) {
      snprintf(name, sizeof name, "pad%d", j);
      v.name = name;
      v.type = GOAP_INT;
      v.lo = 0;
      v.hi = 1 << 29;
      if (goap_builder_add_var(b, &v, NULL) != GOAP_OK) return 0;
    }
  }
  for (int i = 0; i < k; ++i)
    for (int j = 0; j < r->tv; ++j) {
      goap_var_desc v;
      memset(&v, 0, sizeof v);
      snprintf(name, sizeof name, "m%d_v%d", i, j);
      v.name = name;
      v.type = tt[j].type;
      v.lo = tt[j].lo;
      v.hi = tt[j].hi;
      v.values = ev;
      v.value_count = tt[j].nvalues;
      if (goap_builder_add_var(b, &v, &r->vars[i * r->tv + j]) != GOAP_OK) return 0;
    }
  /* the template: each action tests and sets some of its member's variables and the shared
   * ones; var index < tv: the member's, else shared (index - tv) */
  typedef struct tact {
    int npre, neff;
    int pv[4], ev2[3];
    goap_cond pre[4];
    goap_effect eff[3];
    double cost;
  } tact;
  tact ta[TA];
  for (int t = 0; t < r->ta; ++t) {
    tact *x = &ta[t];
    x->cost = (double)rnd_in(1, 4);
    x->npre = rnd_in(0, 3);
    for (int c = 0; c < x->npre; ++c) {
      int vi = rnd_in(0, r->tv + r->nshared - 1);
      x->pv[c] = vi;
      x->pre[c] = rand_cond(vi < r->tv ? &tt[vi] : &ts[vi - r->tv]);
    }
    /* effects on distinct variables, at least one on the member's own */
    int used[TV + SV] = {0};
    x->neff = 0;
    int first = rnd_in(0, r->tv - 1);
    used[first] = 1;
    x->ev2[x->neff] = first;
    x->eff[x->neff++] = rand_eff(&tt[first]);
    int more = rnd_in(0, 2);
    for (int m = 0; m < more; ++m) {
      int vi = rnd_in(0, r->tv + r->nshared - 1);
      if (used[vi]) continue;
      used[vi] = 1;
      x->ev2[x->neff] = vi;
      x->eff[x->neff++] = rand_eff(vi < r->tv ? &tt[vi] : &ts[vi - r->tv]);
    }
  }
  for (int i = 0; i < k; ++i)
    for (int t = 0; t < r->ta; ++t) {
      tact *x = &ta[t];
      goap_cond pre[4];
      goap_effect eff[3];
      for (int c = 0; c < x->npre; ++c) {
        pre[c] = x->pre[c];
        pre[c].var = x->pv[c] < r->tv ? r->vars[i * r->tv + x->pv[c]] : r->shared[x->pv[c] - r->tv];
      }
      for (int e = 0; e < x->neff; ++e) {
        eff[e] = x->eff[e];
        eff[e].var = x->ev2[e] < r->tv ? r->vars[i * r->tv + x->ev2[e]]
                                        : r->shared[x->ev2[e] - r->tv];
      }
      goap_action_desc a;
      memset(&a, 0, sizeof a);
      snprintf(name, sizeof name, "m%d_a%d", i, t);
      a.name = name;
      a.cost = x->cost;
      a.pre = pre;
      a.pre_count = x->npre;
      a.eff = eff;
      a.eff_count = x->neff;
      if (goap_builder_add_action(b, &a, &r->acts[i * r->ta + t]) != GOAP_OK) return 0;
    }
  /* shared actions: on the shared variables only */
  for (int t = 0; t < 2; ++t) {
    int vi = rnd_in(0, r->nshared - 1);
    goap_cond pre = rand_cond(&ts[vi]);
    goap_effect eff = rand_eff(&ts[vi]);
    pre.var = eff.var = r->shared[vi];
    goap_action_desc a;
    memset(&a, 0, sizeof a);
    snprintf(name, sizeof name, "shared%d", t);
    a.name = name;
    a.cost = (double)rnd_in(1, 3);
    a.pre = &pre;
    a.pre_count = rnd_in(0, 1);
    a.eff = &eff;
    a.eff_count = 1;
    if (goap_builder_add_action(b, &a, NULL) != GOAP_OK) return 0;
  }
  goap_status st = goap_builder_build(b, &r->d);
  goap_builder_destroy(b);
  if (st != GOAP_OK) return 0;
  r->cls.members = k;
  r->cls.slot_vars = r->tv;
  r->cls.slot_actions = r->ta;
  r->cls.vars = r->vars;
  r->cls.actions = r->acts;
  r->sym.class_count = 1;
  r->sym.classes = &r->cls;
  /* a symmetric goal: one template position for every member, maybe a shared variable */
  int j = rnd_in(0, r->tv - 1);
  goap_cond c = rand_cond(&tt[j]);
  for (int i = 0; i < k; ++i) {
    r->want[r->nwant] = c;
    r->want[r->nwant++].var = r->vars[i * r->tv + j];
  }
  if (rnd_in(0, 1)) {
    int s = rnd_in(0, r->nshared - 1);
    r->want[r->nwant] = rand_cond(&ts[s]);
    r->want[r->nwant++].var = r->shared[s];
  }
  return 1;
}

static void random_start(const goap_domain *d, goap_word *s) {
  goap_state_init(d, s);
  for (int v = 0; v < goap_domain_var_count(d); ++v) {
    goap_var_info info;
    goap_domain_var_info(d, v, &info);
    if (info.hi - info.lo > 100) continue;
    goap_state_set(d, s, v, rnd_in(info.lo, info.hi));
  }
}

/* ---- planning helpers ---------------------------------------------------------------------- */
static goap_request make_req(const goap_word *start, const goap_cond *want, int nwant,
                             goap_search search, goap_heuristic h, unsigned flags,
                             const goap_symmetry *sym) {
  goap_request q;
  memset(&q, 0, sizeof q);
  q.start = start;
  q.want = want;
  q.want_count = nwant;
  q.search = search;
  q.heuristic = h;
  q.flags = flags;
  q.symmetry = sym;
  return q;
}

static goap_result make_res(int32_t *buf, int cap) {
  goap_result r;
  memset(&r, 0, sizeof r);
  r.plan = buf;
  r.plan_capacity = cap;
  return r;
}

/* Plans with and without sym from start (eager and lazy; ZERO, MAX, LMCUT A*), checking equal
 * statuses and costs and that every plan replays. Returns the number of solved comparisons. */
static int compare_optimal(int *test_failures_, const goap_domain *d, const goap_symmetry *sym,
                           const goap_word *start, const goap_cond *want, int nwant) {
  static const goap_heuristic hs[] = {GOAP_H_ZERO, GOAP_H_MAX, GOAP_H_LMCUT};
  int solved = 0;
  goap_planner *p = NULL;
  if (goap_planner_create(d, NULL, &p) != GOAP_OK) {
    CHECK(p != NULL);
    return 0;
  }
  for (int hi = 0; hi < 3; ++hi)
    for (int lazy = 0; lazy < 2; ++lazy) {
      unsigned fl = lazy ? GOAP_REQUEST_LAZY : 0u;
      int32_t b0[256], b1[256];
      goap_request q0 = make_req(start, want, nwant, GOAP_SEARCH_ASTAR, hs[hi], fl, NULL);
      goap_request q1 = make_req(start, want, nwant, GOAP_SEARCH_ASTAR, hs[hi], fl, sym);
      goap_result r0 = make_res(b0, 256), r1 = make_res(b1, 256);
      goap_status s0 = goap_plan(p, &q0, &r0);
      goap_status s1 = goap_plan(p, &q1, &r1);
      CHECK_EQ_INT(s1, s0);
      if (s0 != GOAP_OK || s1 != GOAP_OK) continue;
      CHECK_NEAR(r1.cost, r0.cost, 1e-9);
      CHECK(plan_ok(d, start, want, nwant, &r1));
      ++solved;
    }
  /* satisficing searches: their plans replay too */
  static const goap_search ss[] = {GOAP_SEARCH_GREEDY, GOAP_SEARCH_WASTAR};
  for (int si = 0; si < 2; ++si)
    for (int v = 0; v < 3; ++v) {
      unsigned fl = v == 1 ? GOAP_REQUEST_LAZY : v == 2 ? GOAP_REQUEST_PREFERRED : 0u;
      int32_t b1[256];
      goap_request q1 = make_req(start, want, nwant, ss[si], GOAP_H_FF, fl, sym);
      goap_request q0 = make_req(start, want, nwant, ss[si], GOAP_H_FF, fl, NULL);
      goap_result r1 = make_res(b1, 256), r0 = make_res(b1, 256);
      goap_status s0 = goap_plan(p, &q0, &r0);
      goap_status s1 = goap_plan(p, &q1, &r1);
      CHECK_EQ_INT(s1 == GOAP_OK, s0 == GOAP_OK);
      if (s1 == GOAP_OK) CHECK(plan_ok(d, start, want, nwant, &r1));
    }
  goap_planner_destroy(p);
  return solved;
}

/* ---- two hands: a generator (goap_symmetry_generator) ---------------------------------------- */

/* k shots, two hands. Bool variables: ontable[i], full[i], hold[h][i], empty[h]. Actions:
 * grasp(h, i) and leave(h, i) (cost 1) and fill(i, h) (cost 10: hand h holds shot i, the other
 * hand is empty, so fill names both hands, as barman's fill-shot does). The hand swap is a
 * generator; the shots, all wanted full and on the table, are also a class whose slots hold
 * the hands' variables and actions (the generator overlaps them). */
typedef struct hands {
  goap_domain *d;
  int k;
  int32_t ontable[MAXK], full[MAXK], hold[2][MAXK], empty[2];
  int32_t grasp[2][MAXK], leave[2][MAXK], fill[2][MAXK];
  int32_t gvars[2 * (2 * MAXK + 2)], gacts[2 * 6 * MAXK];
  goap_symmetry_generator gen;
  int32_t cvars[4 * MAXK], cacts[6 * MAXK];
  goap_symmetry_class cls;
  goap_symmetry sym_gen, sym_both;
  goap_cond want[2 * MAXK];
  int nwant;
} hands;

static int add_bool(goap_builder *b, const char *fmt, int i, int on, int32_t *id) {
  char name[64];
  snprintf(name, sizeof name, fmt, i);
  goap_var_desc v;
  memset(&v, 0, sizeof v);
  v.type = GOAP_BOOL;
  v.name = name;
  v.has_default = 1;
  v.default_value = on;
  int x = -1;
  if (goap_builder_add_var(b, &v, &x) != GOAP_OK) return 0;
  *id = x;
  return 1;
}

static int add_act(goap_builder *b, const char *name, double cost, const goap_cond *pre, int np,
                   const goap_effect *eff, int ne, int32_t *id) {
  goap_action_desc a;
  memset(&a, 0, sizeof a);
  a.name = name;
  a.cost = cost;
  a.pre = pre;
  a.pre_count = np;
  a.eff = eff;
  a.eff_count = ne;
  int x = -1;
  if (goap_builder_add_action(b, &a, &x) != GOAP_OK) return 0;
  *id = x;
  return 1;
}

static int build_hands(hands *h, int k) {
  memset(h, 0, sizeof *h);
  h->k = k;
  goap_builder *b = NULL;
  if (goap_builder_create(NULL, &b) != GOAP_OK) return 0;
  int ok = add_bool(b, "empty_l%d", 0, 1, &h->empty[0]) && add_bool(b, "empty_r%d", 0, 1, &h->empty[1]);
  for (int i = 0; i < k && ok; ++i)
    ok = add_bool(b, "ontable%d", i, 1, &h->ontable[i]) && add_bool(b, "full%d", i, 0, &h->full[i]) &&
         add_bool(b, "hold_l%d", i, 0, &h->hold[0][i]) && add_bool(b, "hold_r%d", i, 0, &h->hold[1][i]);
  char name[64];
  for (int i = 0; i < k && ok; ++i)
    for (int x = 0; x < 2 && ok; ++x) {
      goap_cond gp[2] = {{h->ontable[i], GOAP_EQ, 1}, {h->empty[x], GOAP_EQ, 1}};
      goap_effect ge[3] = {{h->ontable[i], GOAP_SET, 0}, {h->empty[x], GOAP_SET, 0},
                           {h->hold[x][i], GOAP_SET, 1}};
      snprintf(name, sizeof name, "grasp_%d_%d", x, i);
      ok = add_act(b, name, 1.0, gp, 2, ge, 3, &h->grasp[x][i]);
      goap_cond lp[1] = {{h->hold[x][i], GOAP_EQ, 1}};
      goap_effect le[3] = {{h->ontable[i], GOAP_SET, 1}, {h->empty[x], GOAP_SET, 1},
                           {h->hold[x][i], GOAP_SET, 0}};
      snprintf(name, sizeof name, "leave_%d_%d", x, i);
      ok = ok && add_act(b, name, 1.0, lp, 1, le, 3, &h->leave[x][i]);
      goap_cond fp[3] = {{h->hold[x][i], GOAP_EQ, 1}, {h->empty[1 - x], GOAP_EQ, 1},
                         {h->full[i], GOAP_EQ, 0}};
      goap_effect fe[1] = {{h->full[i], GOAP_SET, 1}};
      snprintf(name, sizeof name, "fill_%d_%d", x, i);
      ok = ok && add_act(b, name, 10.0, fp, 3, fe, 1, &h->fill[x][i]);
    }
  goap_status st = ok ? goap_builder_build(b, &h->d) : GOAP_INVALID_ARGUMENT;
  goap_builder_destroy(b);
  if (st != GOAP_OK) return 0;
  int nv = 0, na = 0;
  for (int x = 0; x < 2; ++x) { /* the swap, both directions */
    h->gvars[2 * nv] = h->empty[x];
    h->gvars[2 * nv++ + 1] = h->empty[1 - x];
    for (int i = 0; i < k; ++i) {
      h->gvars[2 * nv] = h->hold[x][i];
      h->gvars[2 * nv++ + 1] = h->hold[1 - x][i];
      const int32_t *as[3] = {h->grasp[0], h->leave[0], h->fill[0]};
      const int32_t *bs[3] = {h->grasp[1], h->leave[1], h->fill[1]};
      for (int j = 0; j < 3; ++j) {
        h->gacts[2 * na] = x ? bs[j][i] : as[j][i];
        h->gacts[2 * na++ + 1] = x ? as[j][i] : bs[j][i];
      }
    }
  }
  h->gen = (goap_symmetry_generator){nv, h->gvars, na, h->gacts};
  for (int i = 0; i < k; ++i) { /* shot i's slot */
    int32_t *v = h->cvars + 4 * i, *a = h->cacts + 6 * i;
    v[0] = h->ontable[i], v[1] = h->full[i], v[2] = h->hold[0][i], v[3] = h->hold[1][i];
    a[0] = h->grasp[0][i], a[1] = h->grasp[1][i], a[2] = h->leave[0][i];
    a[3] = h->leave[1][i], a[4] = h->fill[0][i], a[5] = h->fill[1][i];
  }
  h->cls = (goap_symmetry_class){k, 4, 6, h->cvars, h->cacts};
  h->sym_gen = (goap_symmetry){0, NULL, 1, &h->gen};
  h->sym_both = (goap_symmetry){1, &h->cls, 1, &h->gen};
  for (int i = 0; i < k; ++i) {
    h->want[h->nwant++] = (goap_cond){h->full[i], GOAP_EQ, 1};
    h->want[h->nwant++] = (goap_cond){h->ontable[i], GOAP_EQ, 1};
  }
  return 1;
}

/* A random state: each shot on the table or in a free hand, full or not. */
static void hands_random_start(const hands *h, goap_word *s) {
  goap_state_init(h->d, s);
  int fr[2] = {1, 1};
  for (int i = 0; i < h->k; ++i) {
    int p = rnd_in(0, 3), x = p - 1;
    if (p >= 1 && p <= 2 && fr[x]) {
      fr[x] = 0;
      goap_state_set(h->d, s, h->ontable[i], 0);
      goap_state_set(h->d, s, h->hold[x][i], 1);
      goap_state_set(h->d, s, h->empty[x], 0);
    }
    goap_state_set(h->d, s, h->full[i], rnd_in(0, 3) == 0);
  }
}

TEST(generators_check_accepts_and_rejects) {
  hands h;
  REQUIRE(build_hands(&h, 3));
  /* the slot form cannot hold the hands: fill_x_i names both (its class of two hands with
   * each action in one slot fails the check) */
  CHECK_EQ_INT(goap_symmetry_check(h.d, &h.sym_gen, h.want, h.nwant), GOAP_OK);
  CHECK_EQ_INT(goap_symmetry_check(h.d, &h.sym_both, h.want, h.nwant), GOAP_OK);
  goap_symmetry_generator bad = h.gen;
  goap_symmetry sb = {0, NULL, 1, &bad};
  int32_t v[sizeof h.gvars / sizeof h.gvars[0]], a[sizeof h.gacts / sizeof h.gacts[0]];
  /* not a permutation: an image used twice; a source listed twice; an image that is no source */
  for (int kind = 0; kind < 8; ++kind) {
    memcpy(v, h.gvars, sizeof v);
    memcpy(a, h.gacts, sizeof a);
    bad = h.gen;
    bad.vars = v;
    bad.actions = a;
    if (kind == 0) v[1] = v[3];
    if (kind == 1) v[2] = v[0];
    if (kind == 2) v[1] = h.full[0];              /* empty_l -> full0: full0 is no source */
    if (kind == 3) a[1] = a[3];
    if (kind == 4) v[1] = 999;                   /* out of range */
    if (kind == 5) bad.var_count = 0;
    if (kind == 6) bad.action_count = 2;          /* half the actions: grasp_l0 -> grasp_r0 with
                                                    no way back */
    if (kind == 7) bad.actions = NULL;
    CHECK_EQ_INT(goap_symmetry_check(h.d, &sb, h.want, h.nwant), GOAP_INVALID_ARGUMENT);
  }
  /* a permutation that is no symmetry: the hands swapped but the actions left alone */
  bad = h.gen;
  bad.action_count = 0;
  bad.actions = NULL;
  CHECK_EQ_INT(goap_symmetry_check(h.d, &sb, h.want, h.nwant), GOAP_INVALID_ARGUMENT);
  /* a goal that is not symmetric */
  goap_cond w2[2 * MAXK + 1];
  memcpy(w2, h.want, (size_t)h.nwant * sizeof *w2);
  w2[h.nwant] = (goap_cond){h.hold[0][0], GOAP_EQ, 1};
  CHECK_EQ_INT(goap_symmetry_check(h.d, &h.sym_gen, w2, h.nwant + 1), GOAP_INVALID_ARGUMENT);
  /* a negative count, a NULL array */
  goap_symmetry sn = {0, NULL, -1, &h.gen};
  CHECK_EQ_INT(goap_symmetry_check(h.d, &sn, h.want, h.nwant), GOAP_INVALID_ARGUMENT);
  sn = (goap_symmetry){0, NULL, 1, NULL};
  CHECK_EQ_INT(goap_symmetry_check(h.d, &sn, h.want, h.nwant), GOAP_INVALID_ARGUMENT);
  /* begin checks the shape: a broken permutation is refused there too */
  goap_planner *p = NULL;
  REQUIRE(goap_planner_create(h.d, NULL, &p) == GOAP_OK);
  memcpy(v, h.gvars, sizeof v);
  bad = h.gen;
  bad.vars = v;
  v[1] = v[3];
  int32_t buf[64];
  goap_request q = make_req(NULL, h.want, h.nwant, GOAP_SEARCH_ASTAR, GOAP_H_ZERO, 0, &sb);
  goap_result r = make_res(buf, 64);
  CHECK_EQ_INT(goap_plan(p, &q, &r), GOAP_INVALID_ARGUMENT);
  /* request costs that break the generator */
  double costs[128];
  int na = goap_domain_action_count(h.d);
  REQUIRE(na <= 128);
  for (int i = 0; i < na; ++i) costs[i] = goap_domain_action_cost(h.d, i);
  q = make_req(NULL, h.want, h.nwant, GOAP_SEARCH_ASTAR, GOAP_H_ZERO, 0, &h.sym_gen);
  q.costs = costs;
  CHECK_EQ_INT(goap_plan(p, &q, &r), GOAP_OK);
  costs[h.fill[0][1]] = 11.0;
  CHECK_EQ_INT(goap_plan(p, &q, &r), GOAP_INVALID_ARGUMENT);
  goap_planner_destroy(p);
  goap_domain_destroy(h.d);
}

/* Property: from random starts, A* with the generator (alone, and with the shots' class over
 * it) finds the optimal cost found without, and every plan replays from the real start. */
TEST(generators_optimal_costs_and_replay) {
  int solved = 0;
  for (int k = 1; k <= 3; ++k)
    for (int i = 0; i < 8; ++i) {
      hands h;
      REQUIRE(build_hands(&h, k));
      goap_word s[MAXW];
      hands_random_start(&h, s);
      solved += compare_optimal(test_failures_, h.d, &h.sym_gen, s, h.want, h.nwant);
      if (k >= 2) /* a class has two members at least */
        solved += compare_optimal(test_failures_, h.d, &h.sym_both, s, h.want, h.nwant);
      goap_domain_destroy(h.d);
    }
  CHECK(solved >= (3 + 2) * 8 * 6); /* always solvable */
}

/* The random domains' class given instead as generators: the transpositions of member 0 with
 * each other member (k - 1 of them, both directions listed). With 3 members or more the greedy
 * descent is not exact (two states of one orbit may keep two forms): the costs must still be
 * the optimal ones and the plans must replay. */
TEST(random_classes_as_generators_optimal_costs_and_replay) {
  int solved = 0, total = 0, some_pruned = 0;
  for (int i = 0; i < 40; ++i) {
    randdom r;
    REQUIRE(build_random(&r, rnd_in(2, 4), i % 3 == 0));
    static int32_t pairs[MAXK][2 * 2 * (TV + TA)];
    goap_symmetry_generator gens[MAXK];
    int ng = 0;
    for (int m = 1; m < r.k; ++m, ++ng) {
      int nv = 0, na = 0;
      for (int j = 0; j < r.tv; ++j) {
        int32_t a = r.vars[j], b = r.vars[m * r.tv + j];
        pairs[ng][2 * nv] = a, pairs[ng][2 * nv + 1] = b, ++nv;
        pairs[ng][2 * nv] = b, pairs[ng][2 * nv + 1] = a, ++nv;
      }
      int32_t *ap = pairs[ng] + 2 * nv;
      for (int j = 0; j < r.ta; ++j) {
        int32_t a = r.acts[j], b = r.acts[m * r.ta + j];
        ap[2 * na] = a, ap[2 * na + 1] = b, ++na;
        ap[2 * na] = b, ap[2 * na + 1] = a, ++na;
      }
      gens[ng] = (goap_symmetry_generator){nv, pairs[ng], na, na ? ap : NULL};
    }
    goap_symmetry gs = {0, NULL, ng, gens};
    CHECK_EQ_INT(goap_symmetry_check(r.d, &gs, r.want, r.nwant), GOAP_OK);
    for (int j = 0; j < 3; ++j) {
      goap_word st[MAXW];
      random_start(r.d, st);
      solved += compare_optimal(test_failures_, r.d, &gs, st, r.want, r.nwant);
      total += 6;
    }
    /* blind A* from the default start: the same cost, and fewer states in some domains */
    goap_planner *p = NULL;
    REQUIRE(goap_planner_create(r.d, NULL, &p) == GOAP_OK);
    int32_t b0[256], b1[256];
    goap_request q0 = make_req(NULL, r.want, r.nwant, GOAP_SEARCH_ASTAR, GOAP_H_ZERO, 0, NULL);
    goap_request q1 = make_req(NULL, r.want, r.nwant, GOAP_SEARCH_ASTAR, GOAP_H_ZERO, 0, &gs);
    goap_result r0 = make_res(b0, 256), r1 = make_res(b1, 256);
    goap_status s0 = goap_plan(p, &q0, &r0), s1 = goap_plan(p, &q1, &r1);
    CHECK_EQ_INT(s1, s0);
    if (s0 == GOAP_OK && s1 == GOAP_OK) {
      CHECK_NEAR(r1.cost, r0.cost, 1e-9);
      some_pruned += r1.stats.nodes < r0.stats.nodes;
    }
    goap_planner_destroy(p);
    goap_domain_destroy(r.d);
  }
  printf("random generators: %d of %d optimal comparisons solved, %d searches pruned\n", solved,
         total, some_pruned);
  CHECK(solved >= total / 4);
  CHECK(some_pruned > 0);
}

static void count_events(void *user, const goap_trace_event *ev) {
  (void)ev;
  ++*(int *)user;
}

/* The orbit search's batched expansion (all successors generated and their table slots
 * prefetched, then offered in order) searches exactly as the one-by-one expansion, which a
 * trace callback selects: the same expansions, generated states, nodes, cost and plan. */
TEST(batched_expansion_searches_as_the_traced_one) {
  hands h;
  REQUIRE(build_hands(&h, 4));
  goap_planner *p = NULL;
  REQUIRE(goap_planner_create(h.d, NULL, &p) == GOAP_OK);
  static const goap_heuristic hs[] = {GOAP_H_ZERO, GOAP_H_LMCUT};
  for (int hi = 0; hi < 2; ++hi)
    for (int lazy = 0; lazy < 2; ++lazy) {
      goap_word s[MAXW];
      hands_random_start(&h, s);
      int32_t b0[128], b1[128];
      unsigned fl = lazy ? GOAP_REQUEST_LAZY : 0u;
      goap_request q = make_req(s, h.want, h.nwant, GOAP_SEARCH_ASTAR, hs[hi], fl, &h.sym_both);
      goap_result r0 = make_res(b0, 128), r1 = make_res(b1, 128);
      REQUIRE(goap_plan(p, &q, &r0) == GOAP_OK);
      int events = 0;
      goap_planner_set_trace(p, count_events, &events);
      REQUIRE(goap_plan(p, &q, &r1) == GOAP_OK);
      goap_planner_set_trace(p, NULL, NULL);
      CHECK(events > 0);
      CHECK_EQ_INT((int)r1.stats.expanded, (int)r0.stats.expanded);
      CHECK_EQ_INT((int)r1.stats.generated, (int)r0.stats.generated);
      CHECK_EQ_INT((int)r1.stats.nodes, (int)r0.stats.nodes);
      CHECK_NEAR(r1.cost, r0.cost, 1e-9);
      CHECK_EQ_INT(r1.plan_length, r0.plan_length);
      CHECK(memcmp(b0, b1, (size_t)r0.plan_length * sizeof *b0) == 0);
    }
  goap_planner_destroy(p);
  goap_domain_destroy(h.d);
}

TEST(generators_store_fewer_nodes) {
  hands h;
  REQUIRE(build_hands(&h, 4));
  goap_planner *p = NULL;
  REQUIRE(goap_planner_create(h.d, NULL, &p) == GOAP_OK);
  goap_word s[MAXW];
  goap_state_init(h.d, s);
  uint32_t nodes[3] = {0, 0, 0};
  const goap_symmetry *syms[3] = {NULL, &h.sym_gen, &h.sym_both};
  for (int j = 0; j < 3; ++j) {
    int32_t b[128];
    goap_request q = make_req(s, h.want, h.nwant, GOAP_SEARCH_ASTAR, GOAP_H_ZERO, 0, syms[j]);
    goap_result r = make_res(b, 128);
    REQUIRE(goap_plan(p, &q, &r) == GOAP_OK);
    CHECK_NEAR(r.cost, 4 * (1 + 10 + 1.0), 1e-9); /* per shot: grasp, fill, leave */
    CHECK(plan_ok(h.d, s, h.want, h.nwant, &r));
    nodes[j] = r.stats.nodes;
  }
  printf("hands4: %u nodes without, %u with the hand swap, %u with the shots' class too\n",
         nodes[0], nodes[1], nodes[2]);
  CHECK(nodes[1] < nodes[0]);
  CHECK(nodes[2] < nodes[1]);
  goap_planner_destroy(p);
  goap_domain_destroy(h.d);
}

/* ---- tests --------------------------------------------------------------------------------- */

TEST(check_accepts_and_rejects) {
  gripper g;
  REQUIRE(build_gripper(&g, 4, -1, 0));
  CHECK_EQ_INT(goap_symmetry_check(g.d, &g.sym, g.want, g.k), GOAP_OK);
  CHECK_EQ_INT(goap_symmetry_check(g.d, &g.sym, NULL, 0), GOAP_OK);
  CHECK_EQ_INT(goap_symmetry_check(NULL, &g.sym, g.want, g.k), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_symmetry_check(g.d, NULL, g.want, g.k), GOAP_INVALID_ARGUMENT);
  /* an asymmetric goal: only ball 0 */
  CHECK_EQ_INT(goap_symmetry_check(g.d, &g.sym, g.want, 1), GOAP_INVALID_ARGUMENT);
  /* a goal with two different wishes */
  goap_cond w2[4];
  memcpy(w2, g.want, sizeof w2);
  w2[3].value = ROOM_A;
  CHECK_EQ_INT(goap_symmetry_check(g.d, &g.sym, w2, 4), GOAP_INVALID_ARGUMENT);
  /* a subclass of the balls is a symmetry as well (3 of 4 balls) */
  goap_symmetry_class c3 = g.cls;
  c3.members = 3;
  goap_symmetry s3 = {1, &c3, 0, NULL};
  CHECK_EQ_INT(goap_symmetry_check(g.d, &s3, g.want, g.k), GOAP_OK);
  /* members < 2, slot_vars < 1, slot_actions < 0 */
  goap_symmetry_class bad = g.cls;
  goap_symmetry sb = {1, &bad, 0, NULL};
  bad.members = 1;
  CHECK_EQ_INT(goap_symmetry_check(g.d, &sb, g.want, g.k), GOAP_INVALID_ARGUMENT);
  bad = g.cls;
  bad.slot_vars = 0;
  CHECK_EQ_INT(goap_symmetry_check(g.d, &sb, g.want, g.k), GOAP_INVALID_ARGUMENT);
  bad = g.cls;
  bad.slot_actions = -1;
  CHECK_EQ_INT(goap_symmetry_check(g.d, &sb, g.want, g.k), GOAP_INVALID_ARGUMENT);
  /* the actions' order within slots matters: swapping two of ball 1's breaks it */
  int32_t acts[MAXK * 8];
  memcpy(acts, g.acts, sizeof acts);
  int32_t t = acts[8];
  acts[8] = acts[9];
  acts[9] = t;
  bad = g.cls;
  bad.actions = acts;
  CHECK_EQ_INT(goap_symmetry_check(g.d, &sb, g.want, g.k), GOAP_INVALID_ARGUMENT);
  /* ids out of range */
  int32_t vars[MAXK];
  memcpy(vars, g.pos, sizeof vars);
  vars[2] = goap_domain_var_count(g.d);
  bad = g.cls;
  bad.vars = vars;
  CHECK_EQ_INT(goap_symmetry_check(g.d, &sb, g.want, g.k), GOAP_INVALID_ARGUMENT);
  vars[2] = -1;
  CHECK_EQ_INT(goap_symmetry_check(g.d, &sb, g.want, g.k), GOAP_INVALID_ARGUMENT);
  memcpy(acts, g.acts, sizeof acts);
  acts[5] = goap_domain_action_count(g.d);
  bad = g.cls;
  bad.actions = acts;
  CHECK_EQ_INT(goap_symmetry_check(g.d, &sb, g.want, g.k), GOAP_INVALID_ARGUMENT);
  /* overlap inside a class and across classes */
  memcpy(vars, g.pos, sizeof vars);
  vars[1] = vars[0];
  bad = g.cls;
  bad.vars = vars;
  CHECK_EQ_INT(goap_symmetry_check(g.d, &sb, g.want, g.k), GOAP_INVALID_ARGUMENT);
  goap_symmetry_class two[2] = {g.cls, g.cls};
  two[1].members = 2;
  goap_symmetry s2 = {2, two, 0, NULL};
  CHECK_EQ_INT(goap_symmetry_check(g.d, &s2, g.want, g.k), GOAP_INVALID_ARGUMENT);
  /* type mismatch: a bool against the enums (free_left as ball 1's variable, no actions) */
  memcpy(vars, g.pos, sizeof vars);
  vars[1] = g.free_l;
  bad = g.cls;
  bad.vars = vars;
  bad.slot_actions = 0;
  bad.actions = NULL;
  CHECK_EQ_INT(goap_symmetry_check(g.d, &sb, g.want, g.k), GOAP_INVALID_ARGUMENT);
  /* the two grippers are interchangeable too, but only with the balls' actions: free_left and
   * free_right as a class of their own fails (the pick actions name them unchanged) */
  int32_t fr[2] = {g.free_l, g.free_r};
  goap_symmetry_class gc = {2, 1, 0, fr, NULL};
  goap_symmetry sg = {1, &gc, 0, NULL};
  CHECK_EQ_INT(goap_symmetry_check(g.d, &sg, g.want, g.k), GOAP_INVALID_ARGUMENT);
  /* NULL arrays */
  bad = g.cls;
  bad.vars = NULL;
  CHECK_EQ_INT(goap_symmetry_check(g.d, &sb, g.want, g.k), GOAP_INVALID_ARGUMENT);
  goap_symmetry sn = {1, NULL, 0, NULL};
  CHECK_EQ_INT(goap_symmetry_check(g.d, &sn, g.want, g.k), GOAP_INVALID_ARGUMENT);
  goap_symmetry s0 = {0, NULL, 0, NULL};
  CHECK_EQ_INT(goap_symmetry_check(g.d, &s0, g.want, g.k), GOAP_OK);
  goap_domain_destroy(g.d);

  /* a slot action's cost changed (ball 2's first pick) */
  REQUIRE(build_gripper(&g, 4, 2, 0));
  CHECK_EQ_INT(goap_symmetry_check(g.d, &g.sym, g.want, g.k), GOAP_INVALID_ARGUMENT);
  goap_domain_destroy(g.d);
  /* ... and with ball 0's changed, so that the swap passes and only the cycle fails */
  REQUIRE(build_gripper(&g, 4, 3, 0));
  CHECK_EQ_INT(goap_symmetry_check(g.d, &g.sym, g.want, g.k), GOAP_INVALID_ARGUMENT);
  goap_domain_destroy(g.d);
  /* a dynamic cost on a slot action */
  REQUIRE(build_gripper(&g, 3, -1, 1));
  CHECK_EQ_INT(goap_symmetry_check(g.d, &g.sym, g.want, g.k), GOAP_INVALID_ARGUMENT);
  goap_domain_destroy(g.d);
  /* random domains pass by construction; a changed goal does not */
  for (int i = 0; i < 40; ++i) {
    randdom r;
    REQUIRE(build_random(&r, rnd_in(2, 4), i & 1));
    CHECK_EQ_INT(goap_symmetry_check(r.d, &r.sym, r.want, r.nwant), GOAP_OK);
    CHECK_EQ_INT(goap_symmetry_check(r.d, &r.sym, r.want + 1, r.nwant - 1),
                 GOAP_INVALID_ARGUMENT);
    goap_domain_destroy(r.d);
  }
}

TEST(begin_rejects_bad_shapes) {
  gripper g;
  REQUIRE(build_gripper(&g, 3, -1, 0));
  goap_planner *p = NULL;
  REQUIRE(goap_planner_create(g.d, NULL, &p) == GOAP_OK);
  int32_t buf[64];
  goap_symmetry_class bad = g.cls;
  goap_symmetry sb = {1, &bad, 0, NULL};
  int32_t vars[MAXK];
  memcpy(vars, g.pos, sizeof vars);
  static const goap_search fw[] = {GOAP_SEARCH_ASTAR, GOAP_SEARCH_WASTAR, GOAP_SEARCH_GREEDY};
  for (int si = 0; si < 3; ++si) {
    for (int kind = 0; kind < 5; ++kind) {
      bad = g.cls;
      memcpy(vars, g.pos, sizeof vars);
      if (kind == 0) bad.members = 1;
      if (kind == 1) vars[1] = vars[0];
      if (kind == 2) vars[2] = 999;
      if (kind == 3) vars[1] = g.free_l, bad.slot_actions = 0, bad.actions = NULL;
      if (kind == 4) bad.slot_vars = 0;
      bad.vars = vars;
      goap_request q = make_req(NULL, g.want, g.k, fw[si], GOAP_H_MAX, 0, &sb);
      goap_result r = make_res(buf, 64);
      CHECK_EQ_INT(goap_plan(p, &q, &r), GOAP_INVALID_ARGUMENT);
      CHECK_EQ_INT(goap_plan_begin(p, &q), GOAP_INVALID_ARGUMENT);
    }
    /* request costs that break the symmetry */
    double costs[64];
    for (int a = 0; a < goap_domain_action_count(g.d); ++a) costs[a] = 1.0;
    goap_request q = make_req(NULL, g.want, g.k, fw[si], GOAP_H_MAX, 0, &g.sym);
    q.costs = costs;
    goap_result r = make_res(buf, 64);
    CHECK_EQ_INT(goap_plan(p, &q, &r), GOAP_OK);
    costs[g.acts[9]] = 3.0;
    CHECK_EQ_INT(goap_plan(p, &q, &r), GOAP_INVALID_ARGUMENT);
    costs[g.acts[9]] = -1.0; /* disabled for one ball only */
    CHECK_EQ_INT(goap_plan(p, &q, &r), GOAP_INVALID_ARGUMENT);
  }
  /* backward search ignores the symmetry, even a malformed one */
  bad = g.cls;
  bad.members = 1;
  goap_request q = make_req(NULL, g.want, g.k, GOAP_SEARCH_BACKWARD, GOAP_H_MAX, 0, &sb);
  goap_result r = make_res(buf, 64);
  CHECK_EQ_INT(goap_plan(p, &q, &r), GOAP_OK);
  goap_planner_destroy(p);
  goap_domain_destroy(g.d);
}

TEST(gripper_optimal_costs_and_replay) {
  int solved = 0;
  for (int k = 2; k <= 4; ++k)
    for (int i = 0; i < 6; ++i) {
      gripper g;
      REQUIRE(build_gripper(&g, k, -1, 0));
      goap_word s[MAXW];
      gripper_random_start(&g, s);
      solved += compare_optimal(test_failures_, g.d, &g.sym, s, g.want, g.k);
      goap_domain_destroy(g.d);
    }
  CHECK(solved >= 3 * 6 * 6); /* gripper is always solvable */
}

TEST(random_optimal_costs_and_replay) {
  int solved = 0, total = 0;
  for (int i = 0; i < 60; ++i) {
    randdom r;
    REQUIRE(build_random(&r, rnd_in(2, 4), i % 3 == 0));
    REQUIRE(goap_symmetry_check(r.d, &r.sym, r.want, r.nwant) == GOAP_OK);
    for (int j = 0; j < 3; ++j) {
      goap_word s[MAXW];
      random_start(r.d, s);
      solved += compare_optimal(test_failures_, r.d, &r.sym, s, r.want, r.nwant);
      total += 6;
    }
    goap_domain_destroy(r.d);
  }
  printf("random: %d of %d optimal comparisons solved\n", solved, total);
  CHECK(solved >= total / 4); /* enough solvable instances to mean something */
}

TEST(fewer_nodes_on_gripper6) {
  gripper g;
  REQUIRE(build_gripper(&g, 6, -1, 0));
  goap_planner *p = NULL;
  REQUIRE(goap_planner_create(g.d, NULL, &p) == GOAP_OK);
  goap_word s[MAXW];
  goap_state_init(g.d, s); /* all balls in room a, the robot there, both hands free */
  static const goap_heuristic hs[] = {GOAP_H_ZERO, GOAP_H_MAX};
  for (int hi = 0; hi < 2; ++hi) {
    int32_t b0[128], b1[128];
    goap_request q0 = make_req(s, g.want, g.k, GOAP_SEARCH_ASTAR, hs[hi], 0, NULL);
    goap_request q1 = make_req(s, g.want, g.k, GOAP_SEARCH_ASTAR, hs[hi], 0, &g.sym);
    goap_result r0 = make_res(b0, 128), r1 = make_res(b1, 128);
    REQUIRE(goap_plan(p, &q0, &r0) == GOAP_OK);
    REQUIRE(goap_plan(p, &q1, &r1) == GOAP_OK);
    CHECK_NEAR(r0.cost, r1.cost, 1e-9);
    CHECK_NEAR(r0.cost, 6 * 2 + 5.0, 1e-9); /* 3 trips: 12 picks/drops, 5 moves */
    CHECK(plan_ok(g.d, s, g.want, g.k, &r1));
    printf("gripper6 %s: %u nodes without, %u with the symmetry\n",
           goap_heuristic_name(hs[hi]), r0.stats.nodes, r1.stats.nodes);
    CHECK(r1.stats.nodes < r0.stats.nodes);
    CHECK(r1.stats.nodes * 4 < r0.stats.nodes); /* orbits of up to 6! states */
  }
  goap_planner_destroy(p);
  goap_domain_destroy(g.d);
}

TEST(partial_plans_replay_as_prefix) {
  gripper g;
  REQUIRE(build_gripper(&g, 6, -1, 0));
  goap_planner *p = NULL;
  REQUIRE(goap_planner_create(g.d, NULL, &p) == GOAP_OK);
  int nonempty = 0;
  for (int i = 0; i < 20; ++i) {
    goap_word s[MAXW], end[MAXW];
    gripper_random_start(&g, s);
    int32_t buf[128];
    goap_request q = make_req(s, g.want, g.k, i & 1 ? GOAP_SEARCH_GREEDY : GOAP_SEARCH_ASTAR,
                              i & 2 ? GOAP_H_FF : GOAP_H_MAX, 0, &g.sym);
    q.max_nodes = (uint32_t)(4 + i); /* below the 44-47 nodes the search needs */
    goap_result r = make_res(buf, 128);
    goap_status st = goap_plan(p, &q, &r);
    if (st == GOAP_OK) continue;
    CHECK_EQ_INT(st, GOAP_NODE_LIMIT);
    CHECK_EQ_INT(r.partial, 1);
    double c = 0.0;
    CHECK_EQ_INT(replay(g.d, s, r.plan, r.plan_length, end, &c), r.plan_length);
    CHECK_NEAR(c, r.cost, 1e-9);
    nonempty += r.plan_length > 0;
  }
  CHECK(nonempty >= 10);
  goap_planner_destroy(p);
  goap_domain_destroy(g.d);
}

/* Trace events carry canonical states: the balls' positions in ascending order. */
typedef struct trace_ck {
  const gripper *g;
  int events, unsorted;
} trace_ck;

static void on_trace(void *user, const goap_trace_event *ev) {
  trace_ck *t = (trace_ck *)user;
  if (!ev->state) return;
  ++t->events;
  for (int i = 1; i < t->g->k; ++i)
    if (goap_state_get(t->g->d, ev->state, t->g->pos[i - 1]) >
        goap_state_get(t->g->d, ev->state, t->g->pos[i]))
      ++t->unsorted;
}

TEST(sliced_and_traced) {
  gripper g;
  REQUIRE(build_gripper(&g, 5, -1, 0));
  goap_planner *p = NULL;
  REQUIRE(goap_planner_create(g.d, NULL, &p) == GOAP_OK);
  for (int i = 0; i < 10; ++i) {
    goap_word s[MAXW];
    gripper_random_start(&g, s);
    int32_t b0[128], b1[128];
    goap_request q = make_req(s, g.want, g.k, GOAP_SEARCH_ASTAR, GOAP_H_LMCUT,
                              i & 1 ? GOAP_REQUEST_LAZY : 0u, &g.sym);
    goap_result r0 = make_res(b0, 128), r1 = make_res(b1, 128);
    REQUIRE(goap_plan(p, &q, &r0) == GOAP_OK);
    /* sliced: the same plan */
    goap_status st = goap_plan_begin(p, &q);
    while (st == GOAP_IN_PROGRESS) st = goap_plan_step(p, 3, NULL);
    CHECK_EQ_INT(st, GOAP_OK);
    CHECK_EQ_INT(goap_plan_finish(p, &r1), GOAP_OK);
    CHECK_EQ_INT(r1.plan_length, r0.plan_length);
    CHECK(memcmp(b0, b1, (size_t)r0.plan_length * sizeof *b0) == 0);
    /* finish again with a buffer too small, then large enough */
    goap_result r2 = make_res(b1, 1);
    if (r0.plan_length > 1) CHECK_EQ_INT(goap_plan_finish(p, &r2), GOAP_BUFFER_TOO_SMALL);
    r2 = make_res(b1, 128);
    CHECK_EQ_INT(goap_plan_finish(p, &r2), GOAP_OK);
    CHECK(memcmp(b0, b1, (size_t)r0.plan_length * sizeof *b0) == 0);
    CHECK(plan_ok(g.d, s, g.want, g.k, &r2));
    /* traced: canonical states, and the same plan */
    trace_ck t = {&g, 0, 0};
    goap_planner_set_trace(p, on_trace, &t);
    r1 = make_res(b1, 128);
    CHECK_EQ_INT(goap_plan(p, &q, &r1), GOAP_OK);
    goap_planner_set_trace(p, NULL, NULL);
    CHECK(t.events > 0);
    CHECK_EQ_INT(t.unsorted, 0);
    CHECK(memcmp(b0, b1, (size_t)r0.plan_length * sizeof *b0) == 0);
  }
  goap_planner_destroy(p);
  goap_domain_destroy(g.d);
}

/* ---- allocation ---------------------------------------------------------------------------- */
TEST(allocation_failures_at_begin) {
  gripper g;
  REQUIRE(build_gripper(&g, 4, -1, 0));
  goap_word s[MAXW];
  goap_state_init(g.d, s);
  int ooms = 0;
  for (size_t n = 1; n < 200; ++n) {
    test_alloc fa;
    memset(&fa, 0, sizeof fa);
    goap_planner_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.allocator = test_alloc_hook(&fa);
    goap_planner *p = NULL;
    REQUIRE(goap_planner_create(g.d, &desc, &p) == GOAP_OK);
    int32_t buf[64];
    /* warm up the pools without the symmetry, so that begin's own tables come next */
    goap_request q0 = make_req(s, g.want, g.k, GOAP_SEARCH_ASTAR, GOAP_H_MAX, 0, NULL);
    goap_result r = make_res(buf, 64);
    REQUIRE(goap_plan(p, &q0, &r) == GOAP_OK);
    fa.fail_at = fa.calls + n;
    goap_request q = make_req(s, g.want, g.k, GOAP_SEARCH_ASTAR, GOAP_H_MAX, 0, &g.sym);
    goap_status st = goap_plan(p, &q, &r);
    CHECK(st == GOAP_OK || st == GOAP_OUT_OF_MEMORY);
    CHECK_EQ_INT(st == GOAP_OUT_OF_MEMORY, fa.injected != 0);
    if (st == GOAP_OUT_OF_MEMORY) {
      CHECK_EQ_INT(goap_plan_begin(p, &q), GOAP_IN_PROGRESS); /* usable: a retry works */
      ++ooms;
    }
    fa.fail_at = 0;
    r = make_res(buf, 64);
    CHECK_EQ_INT(goap_plan(p, &q, &r), GOAP_OK);
    CHECK(plan_ok(g.d, s, g.want, g.k, &r));
    /* warmed up: the same request again allocates nothing */
    size_t before = fa.calls;
    CHECK_EQ_INT(goap_plan(p, &q, &r), GOAP_OK);
    CHECK_EQ_INT(fa.calls, before);
    goap_planner_destroy(p);
    CHECK_EQ_INT(fa.outstanding, 0);
    CHECK_EQ_INT(fa.bad_old_size, 0);
    CHECK_EQ_INT(fa.unknown_ptr, 0);
    if (!fa.injected) break;
  }
  CHECK(ooms >= 5); /* begin's tables: several allocations, each failed once */
  goap_domain_destroy(g.d);
}

TEST_MAIN(TEST_ENTRY(check_accepts_and_rejects), TEST_ENTRY(begin_rejects_bad_shapes),
          TEST_ENTRY(gripper_optimal_costs_and_replay), TEST_ENTRY(random_optimal_costs_and_replay),
          TEST_ENTRY(fewer_nodes_on_gripper6), TEST_ENTRY(partial_plans_replay_as_prefix),
          TEST_ENTRY(sliced_and_traced),
          TEST_ENTRY(allocation_failures_at_begin), TEST_ENTRY(generators_check_accepts_and_rejects),
          TEST_ENTRY(generators_optimal_costs_and_replay), TEST_ENTRY(generators_store_fewer_nodes),
          TEST_ENTRY(random_classes_as_generators_optimal_costs_and_replay),
          TEST_ENTRY(batched_expansion_searches_as_the_traced_one))
