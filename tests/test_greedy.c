/*
 * test_greedy.c -- satisficing search: the relaxed exploration's condition index against a
 * plain reference, preferred operators (GOAP_REQUEST_PREFERRED) and lazy evaluation
 * (GOAP_REQUEST_LAZY). Random-domain validity, determinism and slicing of these options run
 * in test_property.c with every other configuration.
 *
 * The reference exploration below rescans every condition after every event (no index): the
 * library's hmax, hadd and hff must equal it exactly on random domains and states (costs are
 * multiples of 1/4, so sums are exact in any order).
 */
#include <goap/file.h>
#include <goap/goap.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/planner.h"
#include "alloc_hook.h"
#include "test.h"
#include "village_plan.h"

/* ---- random domains ------------------------------------------------------------------------ */

typedef struct rng {
  uint64_t s;
} rng;

static uint32_t rnd(rng *r, uint32_t n) {
  r->s = r->s * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)((r->s >> 33) % n);
}

#define R_VARS 9
#define R_ACTS 24

typedef struct rdom {
  goap_domain *d;
  goap_var_type type[R_VARS];
  int lo[R_VARS], hi[R_VARS];
  goap_cond want[3];
  int nwant;
} rdom;

static int rvalue(rng *r, const rdom *x, int v) {
  return x->lo[v] + (int)rnd(r, (uint32_t)(x->hi[v] - x->lo[v] + 1));
}

static goap_domain *random_domain(rng *r, rdom *x) {
  static const char *const vnames[R_VARS] = {"v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7",
                                             "v8"};
  static const char *const anames[R_ACTS] = {
      "a0",  "a1",  "a2",  "a3",  "a4",  "a5",  "a6",  "a7",  "a8",  "a9",  "a10", "a11",
      "a12", "a13", "a14", "a15", "a16", "a17", "a18", "a19", "a20", "a21", "a22", "a23"};
  static const char *const evals[4] = {"e0", "e1", "e2", "e3"};
  goap_builder *b = NULL;
  if (goap_builder_create(NULL, &b) != GOAP_OK) return NULL;
  for (int v = 0; v < R_VARS; ++v) {
    goap_var_desc vd;
    memset(&vd, 0, sizeof vd);
    vd.name = vnames[v];
    uint32_t k = rnd(r, 3);
    x->type[v] = k == 0 ? GOAP_BOOL : k == 1 ? GOAP_ENUM : GOAP_INT;
    vd.type = x->type[v];
    if (vd.type == GOAP_BOOL) {
      x->lo[v] = 0;
      x->hi[v] = 1;
    } else if (vd.type == GOAP_ENUM) {
      vd.values = evals;
      vd.value_count = 2 + (int)rnd(r, 3);
      x->lo[v] = 0;
      x->hi[v] = vd.value_count - 1;
    } else {
      vd.lo = -2 + (int)rnd(r, 3);
      vd.hi = vd.lo + 1 + (int)rnd(r, 7);
      x->lo[v] = vd.lo;
      x->hi[v] = vd.hi;
    }
    goap_builder_add_var(b, &vd, NULL);
  }
  for (int a = 0; a < R_ACTS; ++a) {
    goap_cond pre[4];
    goap_effect eff[3];
    int np = (int)rnd(r, 4), ne = 1 + (int)rnd(r, 3);
    for (int i = 0; i < np; ++i) {
      pre[i].var = (int)rnd(r, R_VARS);
      pre[i].op = x->type[pre[i].var] == GOAP_BOOL ? (rnd(r, 2) ? GOAP_EQ : GOAP_NE)
                                                    : (goap_op)rnd(r, 6);
      pre[i].value = rvalue(r, x, pre[i].var);
    }
    for (int i = 0; i < ne; ++i) {
      eff[i].var = (int)rnd(r, R_VARS);
      for (int j = 0; j < i; ++j)
        if (eff[j].var == eff[i].var) eff[i].var = (eff[i].var + 1) % R_VARS;
      int isint = x->type[eff[i].var] == GOAP_INT;
      eff[i].op = isint && rnd(r, 2) ? GOAP_ADD : GOAP_SET;
      eff[i].value = eff[i].op == GOAP_ADD ? (rnd(r, 2) ? 1 : -1) * (1 + (int)rnd(r, 2))
                                           : rvalue(r, x, eff[i].var);
    }
    /* duplicate effect variables may remain after the shift: drop the later ones */
    int k = 0;
    for (int i = 0; i < ne; ++i) {
      int dup = 0;
      for (int j = 0; j < k; ++j) dup |= eff[j].var == eff[i].var;
      if (!dup) eff[k++] = eff[i];
    }
    goap_action_desc ad;
    memset(&ad, 0, sizeof ad);
    ad.name = anames[a];
    ad.cost = 0.25 * (double)(1 + rnd(r, 12));
    ad.pre = pre;
    ad.pre_count = np;
    ad.eff = eff;
    ad.eff_count = k;
    goap_builder_add_action(b, &ad, NULL);
  }
  x->nwant = 1 + (int)rnd(r, 3);
  for (int i = 0; i < x->nwant; ++i) {
    x->want[i].var = (int)rnd(r, R_VARS);
    x->want[i].op = x->type[x->want[i].var] == GOAP_BOOL ? GOAP_EQ : (goap_op)rnd(r, 6);
    x->want[i].value = rvalue(r, x, x->want[i].var);
  }
  goap_domain *d = NULL;
  goap_status st = goap_builder_build(b, &d);
  goap_builder_destroy(b);
  return st == GOAP_OK ? d : NULL;
}

static void random_state(rng *r, const rdom *x, goap_word *s) {
  goap_state_init(x->d, s);
  for (int v = 0; v < R_VARS; ++v) goap_state_set(x->d, s, v, rvalue(r, x, v));
}

/* ---- the reference exploration ------------------------------------------------------------- */

#define REF_MAXC 512

typedef struct ref {
  double ct[REF_MAXC];
  int32_t sup[REF_MAXC];
  int done[REF_MAXC];
  int cnt[R_ACTS];
  double acc[R_ACTS];
  int reached[R_VARS][8]; /* bool/enum values reached */
  uint64_t lo[R_VARS], hi[R_VARS];
  double ev_t[R_ACTS];
  int ev_on[R_ACTS];
  int goal_left;
} ref;

static int ref_holds(const goap_planner *p, const ref *f, const goap__rcond *c) {
  const goap__var *var = &p->d->vars[c->var];
  if (var->type == GOAP_INT) {
    uint64_t a = f->lo[c->var] > c->a ? f->lo[c->var] : c->a;
    uint64_t b = f->hi[c->var] < c->b ? f->hi[c->var] : c->b;
    if (a > b) return 0;
    return !(c->has_ne && a == b && a == c->ne);
  }
  for (uint64_t k = c->a; k <= c->b; ++k)
    if (f->reached[c->var][k] && !(c->has_ne && k == c->ne)) return 1;
  return 0;
}

/* Satisfies every condition that newly holds, at time t, supported by cur. */
static void ref_scan(const goap_planner *p, ref *f, int add, double t, int32_t cur) {
  const goap__relax *r = &p->rx;
  for (int c = 0; c < r->ncond + r->ngoal; ++c) {
    if (f->done[c] || !ref_holds(p, f, &r->cond[c])) continue;
    f->done[c] = 1;
    f->ct[c] = t;
    f->sup[c] = cur;
    int32_t a = r->cond[c].owner;
    if (a < 0) {
      --f->goal_left;
      continue;
    }
    if (!(p->aflag[a] & 8)) continue;
    f->acc[a] += t;
    if (--f->cnt[a] == 0) {
      f->ev_on[a] = 1;
      f->ev_t[a] = p->acost[a] + (add ? f->acc[a] : t);
    }
  }
}

/* mode 0: hmax, 1: hadd, 2: hff. */
static double ref_eval(const goap_planner *p, const goap_word *s, int mode) {
  static ref f;
  const goap_domain *d = p->d;
  const goap__relax *r = &p->rx;
  int add = mode != 0;
  memset(&f, 0, sizeof f);
  f.goal_left = r->ngoal;
  for (int i = 0; i < p->nactive; ++i) {
    int32_t a = p->active[i];
    f.cnt[a] = (int)(r->act_off[a + 1] - r->act_off[a]);
    if (f.cnt[a] == 0) {
      f.ev_on[a] = 1;
      f.ev_t[a] = p->acost[a];
    }
  }
  for (int v = 0; v < d->nvars; ++v) {
    const goap__var *var = &d->vars[v];
    uint64_t k = goap__field_get(s, var->word, var->shift, var->fmask);
    f.lo[v] = f.hi[v] = k;
    if (var->type != GOAP_INT) f.reached[v][k] = 1;
  }
  ref_scan(p, &f, add, 0.0, -1);
  while (f.goal_left > 0) {
    int32_t best = -1;
    for (int32_t a = 0; a < d->nactions; ++a)
      if (f.ev_on[a] && (best < 0 || f.ev_t[a] < f.ev_t[best])) best = a;
    if (best < 0) break;
    f.ev_on[best] = 0;
    double t = f.ev_t[best];
    const goap__action *act = &d->actions[best];
    for (int k = 0; k < act->neff; ++k) {
      const goap_effect *e = &act->eff[k];
      const goap__var *var = &d->vars[e->var];
      if (var->type != GOAP_INT) {
        f.reached[e->var][(int64_t)e->value - (int64_t)var->lo] = 1;
      } else if (e->op == GOAP_SET) {
        uint64_t val = (uint64_t)((int64_t)e->value - (int64_t)var->lo);
        if (val < f.lo[e->var]) f.lo[e->var] = val;
        if (val > f.hi[e->var]) f.hi[e->var] = val;
      } else if (e->value > 0) {
        f.hi[e->var] = var->range;
      } else if (e->value < 0) {
        f.lo[e->var] = 0;
      }
    }
    ref_scan(p, &f, add, t, best);
  }
  if (f.goal_left > 0) return GOAP__INF;
  double h = 0.0;
  if (mode < 2) {
    for (int g = 0; g < r->ngoal; ++g) {
      double t = f.ct[r->ncond + g];
      if (add) h += t;
      else if (t > h) h = t;
    }
    return h;
  }
  /* the relaxed plan: supporters reached backwards from the goal, each once */
  int in_plan[R_ACTS] = {0};
  int32_t stack[REF_MAXC * 2];
  int top = 0;
  for (int g = 0; g < r->ngoal; ++g) stack[top++] = r->ncond + g;
  while (top > 0) {
    int32_t a = f.sup[stack[--top]];
    if (a < 0 || in_plan[a]) continue;
    in_plan[a] = 1;
    h += p->acost[a];
    for (uint32_t k = r->act_off[a]; k < r->act_off[a + 1]; ++k) stack[top++] = (int32_t)k;
  }
  return h;
}

TEST(relaxed_exploration_matches_reference) {
  rng r = {0x9e3779b97f4a7c15ull};
  int checked = 0, finite = 0, domains = 0;
  for (int dn = 0; dn < 300; ++dn) {
    rdom x;
    x.d = random_domain(&r, &x);
    if (!x.d) continue;
    goap_planner *p = NULL;
    REQUIRE(goap_planner_create(x.d, NULL, &p) == GOAP_OK);
    REQUIRE(p->rx.ncond + 3 <= REF_MAXC);
    ++domains;
    for (int g = 0; g < 3; ++g) {
      /* a request sets the goal and the active actions (with and without pruning) */
      goap_word start[4];
      REQUIRE(goap_domain_state_words(x.d) <= 4);
      random_state(&r, &x, start);
      goap_request req;
      memset(&req, 0, sizeof req);
      req.start = start;
      req.want = x.want;
      req.want_count = x.nwant;
      req.search = GOAP_SEARCH_GREEDY;
      req.heuristic = GOAP_H_FF;
      req.max_nodes = 1;
      req.flags = g == 2 ? GOAP_REQUEST_NO_PRUNING : 0;
      int32_t plan[64];
      goap_result res;
      memset(&res, 0, sizeof res);
      res.plan = plan;
      res.plan_capacity = 64;
      goap_plan(p, &req, &res);
      for (int k = 0; k < 20; ++k) {
        goap_word s[4];
        random_state(&r, &x, s);
        for (int mode = 0; mode < 3; ++mode) {
          double want = ref_eval(p, s, mode);
          double got = mode == 2 ? goap__relax_eval_ff(p, s) : goap__relax_eval(p, s, mode);
          if (want != got) {
            fprintf(stderr, "domain %d goal %d state %d mode %d: reference %g, library %g\n",
                    dn, g, k, mode, want, got);
            CHECK(want == got);
          }
          ++checked;
          finite += want < GOAP__INF;
        }
      }
    }
    goap_planner_destroy(p);
    goap_domain_destroy(x.d);
  }
  printf("relaxed exploration: %d domains, %d evaluations (%d finite) compared\n",
         domains, checked, finite);
  CHECK(domains > 250);
  CHECK(finite > checked / 4);
}

/* ---- the village: preferred operators ------------------------------------------------------ */

/* On `festival` plain greedy hff wanders a plateau (about 1,900 expansions); the relaxed
 * plan's actions lead it out. Every village scenario is solved with each option. */
TEST(preferred_operators_on_the_village) {
  goap_file *f = test_load_village();
  REQUIRE(f != NULL);
  const goap_domain *d = goap_file_domain(f);
  goap_planner *p = NULL;
  REQUIRE(goap_planner_create(d, NULL, &p) == GOAP_OK);
  int32_t buf[256];
  goap_result res;
  int fest = goap_file_find_scenario(f, "festival");
  REQUIRE(fest >= 0);
  const goap_scenario *sc = goap_file_scenario(f, fest);
  CHECK_EQ_INT(test_plan_scenario(p, d, sc, GOAP_SEARCH_GREEDY, GOAP_H_FF, 0, &res, buf, 256),
               GOAP_OK);
  uint64_t plain = res.stats.expanded;
  CHECK_EQ_INT(test_plan_scenario(p, d, sc, GOAP_SEARCH_GREEDY, GOAP_H_FF, GOAP_REQUEST_PREFERRED,
                                  &res, buf, 256),
               GOAP_OK);
  uint64_t pref = res.stats.expanded;
  CHECK_EQ_INT(test_plan_scenario(p, d, sc, GOAP_SEARCH_GREEDY, GOAP_H_FF,
                                  GOAP_REQUEST_PREFERRED | GOAP_REQUEST_LAZY, &res, buf, 256),
               GOAP_OK);
  uint64_t both = res.stats.expanded;
  printf("festival, greedy hff: %llu expansions plain, %llu preferred, %llu preferred+lazy\n",
         (unsigned long long)plain, (unsigned long long)pref, (unsigned long long)both);
  CHECK(pref * 10 < plain);
  CHECK(both * 10 < plain);
  static const unsigned sets[] = {GOAP_REQUEST_PREFERRED, GOAP_REQUEST_LAZY,
                                  GOAP_REQUEST_PREFERRED | GOAP_REQUEST_LAZY};
  for (int i = 0; i < goap_file_scenario_count(f); ++i) {
    sc = goap_file_scenario(f, i);
    for (int k = 0; k < 3; ++k) {
      if (sets[k] == GOAP_REQUEST_LAZY && strcmp(sc->name, "festival") == 0) continue; /* slow */
      goap_status st =
          test_plan_scenario(p, d, sc, GOAP_SEARCH_GREEDY, GOAP_H_FF, sets[k], &res, buf, 256);
      if (st != GOAP_OK) fprintf(stderr, "%s flags %u: %s\n", sc->name, sets[k],
                                 goap_status_name(st));
      CHECK_EQ_INT(st, GOAP_OK);
      st = test_plan_scenario(p, d, sc, GOAP_SEARCH_WASTAR, GOAP_H_FF, sets[k], &res, buf, 256);
      CHECK_EQ_INT(st, GOAP_OK);
    }
  }
  goap_planner_destroy(p);
  goap_file_destroy(f);
}

/* ---- lazy evaluation, through the trace ------------------------------------------------------ */

typedef struct lazy_rec {
  float hexp[4096]; /* h of each expanded node, NAN before its expansion */
  int news, inherited, own;
} lazy_rec;

static void lazy_trace(void *user, const goap_trace_event *ev) {
  lazy_rec *lr = (lazy_rec *)user;
  if (ev->node != UINT32_MAX && ev->node >= 4096) return;
  if (ev->kind == GOAP_TRACE_EXPAND) lr->hexp[ev->node] = (float)ev->h;
  if (ev->kind == GOAP_TRACE_NEW && ev->parent != UINT32_MAX && ev->parent < 4096) {
    ++lr->news;
    if ((float)ev->h == lr->hexp[ev->parent]) ++lr->inherited;
    else ++lr->own;
  }
}

/* With LAZY a new state is queued with its parent's h (evaluated at its own expansion);
 * without it, with its own (which differs from the parent's for some of them). */
TEST(lazy_queues_states_with_the_parents_h) {
  goap_file *f = test_load_village();
  REQUIRE(f != NULL);
  const goap_domain *d = goap_file_domain(f);
  goap_planner *p = NULL;
  REQUIRE(goap_planner_create(d, NULL, &p) == GOAP_OK);
  static lazy_rec lr;
  int32_t buf[256];
  goap_result res;
  const goap_scenario *sc = goap_file_scenario(f, goap_file_find_scenario(f, "house"));
  REQUIRE(sc != NULL);
  for (int lazy = 0; lazy < 2; ++lazy) {
    for (int i = 0; i < 4096; ++i) lr.hexp[i] = NAN;
    lr.news = lr.inherited = lr.own = 0;
    goap_planner_set_trace(p, lazy_trace, &lr);
    unsigned fl = GOAP_REQUEST_PREFERRED | (lazy ? GOAP_REQUEST_LAZY : 0u);
    CHECK_EQ_INT(test_plan_scenario(p, d, sc, GOAP_SEARCH_GREEDY, GOAP_H_FF, fl, &res, buf, 256),
                 GOAP_OK);
    CHECK(lr.news > 20);
    if (lazy) {
      CHECK_EQ_INT(lr.own, 0);
      CHECK_EQ_INT(lr.inherited, lr.news);
    } else {
      CHECK(lr.own > 0);
    }
  }
  goap_planner_set_trace(p, NULL, NULL);
  goap_planner_destroy(p);
  goap_file_destroy(f);
}

/* ---- options: validation and allocation ------------------------------------------------------ */

TEST(options_need_a_satisficing_search) {
  goap_file *f = test_load_village();
  REQUIRE(f != NULL);
  const goap_domain *d = goap_file_domain(f);
  goap_planner *p = NULL;
  REQUIRE(goap_planner_create(d, NULL, &p) == GOAP_OK);
  int32_t buf[256];
  goap_result res;
  const goap_scenario *sc = goap_file_scenario(f, goap_file_find_scenario(f, "well"));
  REQUIRE(sc != NULL);
  CHECK_EQ_INT(test_plan_scenario(p, d, sc, GOAP_SEARCH_ASTAR, GOAP_H_FF, GOAP_REQUEST_PREFERRED,
                                  &res, buf, 256),
               GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(test_plan_scenario(p, d, sc, GOAP_SEARCH_ASTAR, GOAP_H_MAX, GOAP_REQUEST_LAZY, &res,
                                  buf, 256),
               GOAP_OK); /* lazy A*: test_lazy_astar.c */
  CHECK_EQ_INT(test_plan_scenario(p, d, sc, GOAP_SEARCH_ASTAR, GOAP_H_FF,
                                  GOAP_REQUEST_PREFERRED | GOAP_REQUEST_LAZY, &res, buf, 256),
               GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(test_plan_scenario(p, d, sc, GOAP_SEARCH_BACKWARD, GOAP_H_FF, GOAP_REQUEST_LAZY,
                                  &res, buf, 256),
               GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(test_plan_scenario(p, d, sc, GOAP_SEARCH_GREEDY, GOAP_H_ADD, GOAP_REQUEST_PREFERRED,
                                  &res, buf, 256),
               GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(test_plan_scenario(p, d, sc, GOAP_SEARCH_GREEDY, GOAP_H_ADD, GOAP_REQUEST_LAZY, &res,
                                  buf, 256),
               GOAP_OK);
  CHECK_EQ_INT(test_plan_scenario(p, d, sc, GOAP_SEARCH_WASTAR, GOAP_H_FF,
                                  GOAP_REQUEST_PREFERRED | GOAP_REQUEST_LAZY, &res, buf, 256),
               GOAP_OK);
  goap_planner_destroy(p);
  goap_file_destroy(f);
}

/* After a first request of each kind, the same requests allocate nothing. */
TEST(no_allocation_after_warm_up) {
  goap_file *f = test_load_village();
  REQUIRE(f != NULL);
  const goap_domain *d = goap_file_domain(f);
  test_alloc c;
  memset(&c, 0, sizeof c);
  goap_planner_desc desc;
  memset(&desc, 0, sizeof desc);
  desc.allocator = test_alloc_hook(&c);
  goap_planner *p = NULL;
  REQUIRE(goap_planner_create(d, &desc, &p) == GOAP_OK);
  int32_t buf[256];
  goap_result res;
  static const unsigned sets[] = {GOAP_REQUEST_PREFERRED, GOAP_REQUEST_LAZY,
                                  GOAP_REQUEST_PREFERRED | GOAP_REQUEST_LAZY};
  for (int round = 0; round < 2; ++round) {
    size_t before = c.calls;
    for (int i = 0; i < goap_file_scenario_count(f); ++i) {
      const goap_scenario *sc = goap_file_scenario(f, i);
      for (int k = 0; k < 3; ++k) {
        if (sets[k] == GOAP_REQUEST_LAZY && strcmp(sc->name, "festival") == 0) continue;
        CHECK_EQ_INT(
            test_plan_scenario(p, d, sc, GOAP_SEARCH_GREEDY, GOAP_H_FF, sets[k], &res, buf, 256),
            GOAP_OK);
      }
    }
    if (round == 1) CHECK_EQ_INT(c.calls - before, 0);
  }
  goap_planner_destroy(p);
  goap_file_destroy(f);
}

TEST_MAIN(TEST_ENTRY(relaxed_exploration_matches_reference),
          TEST_ENTRY(preferred_operators_on_the_village),
          TEST_ENTRY(lazy_queues_states_with_the_parents_h), TEST_ENTRY(options_need_a_satisficing_search),
          TEST_ENTRY(no_allocation_after_warm_up))
