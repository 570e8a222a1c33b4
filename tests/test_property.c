/*
 * test_property.c -- randomised differential test of every planner configuration against an
 * independent brute force.
 *
 * Each case is a seeded random domain (bools, enums, small ints with strict and saturating
 * (GOAP_ADD_CLAMP) additions; optionally ~70 extra
 * variables so that states span several words), a random start state and a random goal. The
 * reference answer comes from an exhaustive Dijkstra over explicit int-array states written
 * here from the header's semantics alone (it never calls the library's planner). For every
 * search x heuristic pair the planner must then:
 *   - find a plan iff the goal is reachable (GOAP_OK / GOAP_NO_PLAN);
 *   - return a plan that replays under the reference semantics, passes goap_plan_validate and
 *     whose reported cost is the sum of its action costs;
 *   - return exactly the optimal cost when goap_config_is_optimal() says so, with and without
 *     GOAP_REQUEST_NO_PRUNING;
 *   - be deterministic (the same request twice gives the same plan and statistics) and give
 *     the same result when sliced (begin / step(1..3) / finish).
 * A second family adds check and dynamic_cost callbacks and checks that they are honoured and
 * called at most once per request per action.
 *
 * Environment: GOAP_PROPERTY_CASES=N changes the number of cases (default 20000, 5000 under
 * AddressSanitizer; a tenth as many callback cases);
 * GOAP_PROPERTY_SEED=0x... runs the single case with that seed (as printed on failure).
 * Every failure prints the seed and the domain in `.goap` form.
 */
#include <goap/goap.h>

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "test_rng.h"
/* internals: the heuristics are evaluated directly on random states below */
#include "core/planner.h"

#define P_MAX_VARS 100
#define P_MAX_ACTS 16
#define P_MAX_PRE 4
#define P_MAX_EFF 3
#define P_MAX_WANT 6
#define P_PLAN_CAP 4096
#define P_MAX_REPORTS 6
/* Fewer cases under the sanitizers, which slow the planner down ~10x. */
#if defined(__SANITIZE_ADDRESS__)
#define P_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define P_SANITIZED 1
#endif
#endif
#ifdef P_SANITIZED
#define P_DEFAULT_CASES 5000
#else
#define P_DEFAULT_CASES 20000
#endif
#define P_DEFAULT_CALLBACK_CASES (P_DEFAULT_CASES / 10)

/* ------------------------------------------------------------------------------------------
 * Deterministic PRNG (splitmix64)
 * ---------------------------------------------------------------------------------------- */
typedef struct rng_t {
  uint64_t s;
} rng_t;

static uint64_t rng_next(rng_t *r) {
  return splitmix64(&r->s);
}

/* Uniform in [lo, hi]. */
static int rng_range(rng_t *r, int lo, int hi) {
  uint64_t span = (uint64_t)((int64_t)hi - (int64_t)lo + 1);
  return (int)((int64_t)lo + (int64_t)(rng_next(r) % span));
}

static int rng_pct(rng_t *r, int pct) { return rng_range(r, 0, 99) < pct; }

/* The seed of case `index`; every fourth case is a large domain (the seed's low bit). */
static uint64_t case_seed(uint64_t family, int index) {
  rng_t r;
  r.s = family ^ ((uint64_t)(unsigned)index * 0xD1B54A32D192ED03ull);
  return (rng_next(&r) & ~(uint64_t)1) | (uint64_t)(index % 4 == 3);
}

/* ------------------------------------------------------------------------------------------
 * Random domains
 * ---------------------------------------------------------------------------------------- */
typedef struct pvar {
  goap_var_type type;
  int lo, hi;      /* bool 0..1, enum 0..n-1, int its range */
  int core;        /* part of the domain proper (not padding) */
  int writable;    /* may appear in effects */
  int has_default;
  int def;
  char name[16];
} pvar;

typedef struct pact {
  char name[16];
  double cost;
  goap_cond pre[P_MAX_PRE];
  int npre;
  goap_effect eff[P_MAX_EFF];
  int neff;
  /* callbacks (second family only) */
  int use_check, use_cost;
} pact;

typedef struct pdom {
  uint64_t seed;
  int large; /* 6-10 core variables, up to 16 actions, longer plans */
  int wide;
  int nvars;
  pvar vars[P_MAX_VARS];
  int nact;
  pact acts[P_MAX_ACTS];
  int start_is_default;
  int start[P_MAX_VARS];
  goap_cond want[P_MAX_WANT];
  int nwant;
} pdom;

/* Totals printed at the end, so that a run shows how much it exercised. */
static struct {
  long cases, reachable, wide, plans, ok_plans;
  long stubborn; /* cases whose selection strong stubborn sets could prune */
  long stubborn_fewer; /* cases where blind A* generated fewer states with them */
  unsigned long long expanded;
} totals;

static const char *const enum_value_names[4] = {"x0", "x1", "x2", "x3"};
static const double cost_table[] = {0.0, 0.5, 1.0, 1.0, 1.0, 1.25, 2.0, 3.0, 5.0, 0.25, 1.5, 4.0};
static const int int_ranges[][2] = {{0, 3}, {-2, 2}, {0, 1}, {1, 3}, {-3, 0}, {0, 2}};

static int var_default(const pvar *v) { return v->has_default ? v->def : v->lo; }

static void gen_var(rng_t *r, pvar *v, int core) {
  memset(v, 0, sizeof *v);
  v->core = core;
  int kind = core ? rng_range(r, 0, 2) : (rng_pct(r, 88) ? 0 : 2);
  if (kind == 0) {
    v->type = GOAP_BOOL;
    v->lo = 0;
    v->hi = 1;
  } else if (kind == 1) {
    v->type = GOAP_ENUM;
    v->lo = 0;
    v->hi = rng_range(r, 1, 3);
  } else {
    int k = rng_range(r, 0, (int)(sizeof int_ranges / sizeof int_ranges[0]) - 1);
    v->type = GOAP_INT;
    v->lo = int_ranges[k][0];
    v->hi = int_ranges[k][1];
  }
  v->has_default = rng_pct(r, 50);
  v->def = v->has_default ? rng_range(r, v->lo, v->hi) : v->lo;
}

/* A random condition on variable `var` (values always within the variable's range). */
static goap_cond gen_cond(rng_t *r, const pdom *d, int var) {
  const pvar *v = &d->vars[var];
  goap_cond c;
  c.var = var;
  if (v->type == GOAP_INT)
    c.op = (goap_op)rng_range(r, 0, 5);
  else
    c.op = rng_pct(r, 70) ? GOAP_EQ : GOAP_NE;
  c.value = rng_range(r, v->lo, v->hi);
  return c;
}

/* A random condition on `var` that holds when it has value `val`. */
static goap_cond gen_cond_true(rng_t *r, const pdom *d, int var, int val) {
  const pvar *v = &d->vars[var];
  goap_cond c;
  c.var = var;
  c.op = GOAP_EQ;
  c.value = val;
  int op = v->type == GOAP_INT ? rng_range(r, 0, 5) : (rng_pct(r, 70) ? 0 : 1);
  switch (op) {
  case 1: /* NE another value */
    if (v->hi > v->lo) {
      int other = rng_range(r, v->lo, v->hi - 1);
      if (other >= val) ++other;
      c.op = GOAP_NE;
      c.value = other;
    }
    break;
  case 2: /* LT something above */
    if (val < v->hi) {
      c.op = GOAP_LT;
      c.value = rng_range(r, val + 1, v->hi);
    }
    break;
  case 3:
    c.op = GOAP_LE;
    c.value = rng_range(r, val, v->hi);
    break;
  case 4:
    if (val > v->lo) {
      c.op = GOAP_GT;
      c.value = rng_range(r, v->lo, val - 1);
    }
    break;
  case 5:
    c.op = GOAP_GE;
    c.value = rng_range(r, v->lo, val);
    break;
  default:
    break;
  }
  return c;
}

/* A random condition on `var` that holds for value t but not for s (t != s). */
static goap_cond gen_cond_separating(rng_t *r, const pdom *d, int var, int t, int s) {
  const pvar *v = &d->vars[var];
  goap_cond c;
  c.var = var;
  c.op = GOAP_EQ;
  c.value = t;
  int k = v->type == GOAP_INT ? rng_range(r, 0, 3) : rng_range(r, 0, 2);
  if (k == 1) { /* NE the start value */
    c.op = GOAP_NE;
    c.value = s;
  } else if (k >= 2 && v->type == GOAP_INT) { /* a threshold between them */
    int strict = k == 2;
    if (t < s) {
      c.op = strict ? GOAP_LT : GOAP_LE;
      c.value = strict ? rng_range(r, t + 1, s) : rng_range(r, t, s - 1);
    } else {
      c.op = strict ? GOAP_GT : GOAP_GE;
      c.value = strict ? rng_range(r, s, t - 1) : rng_range(r, s + 1, t);
    }
  }
  return c;
}

static int cond_holds(int x, goap_op op, int value) {
  switch (op) {
  case GOAP_EQ: return x == value;
  case GOAP_NE: return x != value;
  case GOAP_LT: return x < value;
  case GOAP_LE: return x <= value;
  case GOAP_GT: return x > value;
  case GOAP_GE: return x >= value;
  }
  return 0;
}

static int conds_hold(const goap_cond *c, int n, const int *st) {
  for (int i = 0; i < n; ++i)
    if (!cond_holds(st[c[i].var], c[i].op, c[i].value)) return 0;
  return 1;
}

/* The header's applicability rule: every precondition holds and every ADD stays in range
 * (an ADD_CLAMP never blocks: it saturates). */
static int ref_applicable(const pdom *d, const pact *a, const int *st) {
  if (!conds_hold(a->pre, a->npre, st)) return 0;
  for (int i = 0; i < a->neff; ++i) {
    if (a->eff[i].op == GOAP_ADD) {
      const pvar *v = &d->vars[a->eff[i].var];
      long long x = (long long)st[a->eff[i].var] + a->eff[i].value;
      if (x < v->lo || x > v->hi) return 0;
    }
  }
  return 1;
}

/* SET assigns, ADD adds (in range by ref_applicable), ADD_CLAMP adds and saturates. */
static void ref_apply(const pdom *d, const pact *a, int *st) {
  for (int i = 0; i < a->neff; ++i) {
    const pvar *v = &d->vars[a->eff[i].var];
    int *x = &st[a->eff[i].var];
    if (a->eff[i].op == GOAP_SET)
      *x = a->eff[i].value;
    else
      *x += a->eff[i].value;
    if (a->eff[i].op == GOAP_ADD_CLAMP) *x = *x < v->lo ? v->lo : *x > v->hi ? v->hi : *x;
  }
}

/* Picks a variable not yet in `used` (NULL: any); prefers core/writable ones with
 * probability `pref_pct`. Returns -1 if none is free. */
static int pick_var(rng_t *r, const pdom *d, const unsigned char *used, int pref_pct,
                    int writable_only) {
  int cand[P_MAX_VARS], n = 0, pref[P_MAX_VARS], np = 0;
  for (int i = 0; i < d->nvars; ++i) {
    if (used && used[i]) continue;
    if (writable_only && !d->vars[i].writable) continue;
    cand[n++] = i;
    if (d->vars[i].core || d->vars[i].writable) pref[np++] = i;
  }
  if (n == 0) return -1;
  if (np > 0 && rng_pct(r, pref_pct)) return pref[rng_range(r, 0, np - 1)];
  return cand[rng_range(r, 0, n - 1)];
}

static void gen_effect(rng_t *r, const pdom *d, int var, goap_effect *e) {
  const pvar *v = &d->vars[var];
  e->var = var;
  if (v->type == GOAP_INT && rng_pct(r, 50)) {
    int width = v->hi - v->lo;
    int clamp = rng_pct(r, 35); /* a saturating effect may also exceed the whole range */
    int mag = rng_range(r, 1, clamp ? width + 1 : (width < 2 ? width : 2));
    e->op = clamp ? GOAP_ADD_CLAMP : GOAP_ADD;
    e->value = rng_pct(r, 50) ? mag : -mag;
  } else {
    e->op = GOAP_SET;
    e->value = rng_range(r, v->lo, v->hi);
  }
}

/* Adds conditions to list `c` (count *n, capacity cap), one per variable, plus occasionally
 * a second one on an int variable. */
static void gen_conds(rng_t *r, const pdom *d, goap_cond *c, int *n, int cap, int count,
                      const int *target) {
  unsigned char used[P_MAX_VARS];
  memset(used, 0, sizeof used);
  for (int i = 0; i < count && *n < cap; ++i) {
    int var = pick_var(r, d, used, 85, 0);
    if (var < 0) break;
    used[var] = 1;
    c[(*n)++] = target ? gen_cond_true(r, d, var, target[var]) : gen_cond(r, d, var);
    if (d->vars[var].type == GOAP_INT && *n < cap && rng_pct(r, 12))
      c[(*n)++] = target && rng_pct(r, 60) ? gen_cond_true(r, d, var, target[var])
                                           : gen_cond(r, d, var);
  }
}

/* Domain sizes: small (1-6 variables, 1-8 actions) or large (6-10 variables, 8-16 actions,
 * at most ~250k states so that the brute force stays quick). */
static void gen_domain(pdom *d, uint64_t seed) {
  int large = (int)(seed & 1u); /* the seed's low bit says which */
  rng_t r;
  r.s = seed;
  memset(d, 0, sizeof *d);
  d->seed = seed;
  d->large = large;
  d->wide = rng_pct(&r, 25);
  int ncore = large ? rng_range(&r, 6, 10) : rng_range(&r, 1, 6);
  int npad = d->wide ? rng_range(&r, 60, 80) : 0;
  d->nvars = ncore + npad;
  for (int i = 0; i < d->nvars; ++i) gen_var(&r, &d->vars[i], i < ncore);
  if (large) {
    double states = 1.0;
    for (int i = 0; i < ncore; ++i) states *= d->vars[i].hi - d->vars[i].lo + 1;
    for (int i = 0; i < ncore && states > 250000.0; ++i) {
      if (d->vars[i].type == GOAP_BOOL) continue;
      states /= d->vars[i].hi - d->vars[i].lo + 1;
      d->vars[i].type = GOAP_BOOL;
      d->vars[i].lo = 0;
      d->vars[i].hi = 1;
      d->vars[i].def = d->vars[i].has_default ? rng_range(&r, 0, 1) : 0;
      states *= 2;
    }
  }
  for (int i = 0; i < ncore; ++i) d->vars[i].writable = 1;
  if (d->wide && rng_pct(&r, 60)) { /* a couple of padding bools that actions may write */
    int extra = rng_range(&r, 1, 2);
    for (int k = 0; k < extra; ++k) {
      int idx = rng_range(&r, ncore, d->nvars - 1);
      if (d->vars[idx].type == GOAP_BOOL) d->vars[idx].writable = 1;
    }
  }
  /* shuffle so that the core variables land in different words */
  for (int i = d->nvars - 1; i > 0; --i) {
    int j = rng_range(&r, 0, i);
    pvar t = d->vars[i];
    d->vars[i] = d->vars[j];
    d->vars[j] = t;
  }
  for (int i = 0; i < d->nvars; ++i) snprintf(d->vars[i].name, sizeof d->vars[i].name, "v%d", i);

  d->nact = large ? rng_range(&r, 8, P_MAX_ACTS) : rng_pct(&r, 8) ? 1 : rng_range(&r, 2, 8);
  for (int a = 0; a < d->nact; ++a) {
    pact *act = &d->acts[a];
    snprintf(act->name, sizeof act->name, "a%d", a);
    act->cost = cost_table[rng_range(&r, 0, (int)(sizeof cost_table / sizeof cost_table[0]) - 1)];
    gen_conds(&r, d, act->pre, &act->npre, P_MAX_PRE, rng_pct(&r, 15) ? 3 : rng_range(&r, 0, 2),
              NULL);
    int neff = rng_pct(&r, 4) ? 0 : rng_range(&r, 1, P_MAX_EFF);
    unsigned char used[P_MAX_VARS];
    memset(used, 0, sizeof used);
    for (int k = 0; k < neff; ++k) {
      int var = pick_var(&r, d, used, 100, 1);
      if (var < 0) break;
      used[var] = 1;
      gen_effect(&r, d, var, &act->eff[act->neff++]);
    }
  }

  d->start_is_default = rng_pct(&r, 30);
  for (int i = 0; i < d->nvars; ++i)
    d->start[i] = d->start_is_default ? var_default(&d->vars[i])
                                      : rng_range(&r, d->vars[i].lo, d->vars[i].hi);

  d->nwant = 0;
  int walk_goal = 0;
  if (rng_pct(&r, 75)) {
    /* a goal that holds after a random walk but not at the start: usually reachable, with a
     * non-trivial plan */
    int st[P_MAX_VARS];
    memcpy(st, d->start, sizeof st);
    int steps = large ? rng_range(&r, 3, 25) : rng_range(&r, 1, 10);
    for (int k = 0; k < steps; ++k) {
      int app[P_MAX_ACTS], napp = 0, tmp[P_MAX_VARS];
      for (int a = 0; a < d->nact; ++a) { /* applicable actions that change something */
        if (!ref_applicable(d, &d->acts[a], st)) continue;
        memcpy(tmp, st, sizeof tmp);
        ref_apply(d, &d->acts[a], tmp);
        if (memcmp(tmp, st, sizeof tmp) != 0) app[napp++] = a;
      }
      if (napp == 0) break;
      ref_apply(d, &d->acts[app[rng_range(&r, 0, napp - 1)]], st);
    }
    int changed[P_MAX_VARS], nchanged = 0;
    unsigned char used[P_MAX_VARS];
    memset(used, 0, sizeof used);
    for (int i = 0; i < d->nvars; ++i)
      if (st[i] != d->start[i]) changed[nchanged++] = i;
    walk_goal = nchanged > 0;
    int nsep = nchanged ? rng_range(&r, 1, nchanged < 3 ? nchanged : 3) : 0;
    for (int k = 0; k < nsep; ++k) {
      int j = rng_range(&r, k, nchanged - 1); /* partial shuffle */
      int var = changed[j];
      changed[j] = changed[k];
      changed[k] = var;
      used[var] = 1;
      d->want[d->nwant++] = gen_cond_separating(&r, d, var, st[var], d->start[var]);
    }
    int extra = walk_goal ? rng_range(&r, 0, 2) : 0;
    for (int k = 0; k < extra && d->nwant < P_MAX_WANT; ++k) {
      int var = pick_var(&r, d, used, 85, 0);
      if (var < 0) break;
      used[var] = 1;
      d->want[d->nwant++] = gen_cond_true(&r, d, var, st[var]);
    }
  }
  if (!walk_goal) {
    /* a random goal, usually not satisfied at the start (often unreachable) */
    for (int attempt = 0; attempt < 6; ++attempt) {
      d->nwant = 0;
      gen_conds(&r, d, d->want, &d->nwant, P_MAX_WANT, rng_pct(&r, 5) ? 0 : rng_range(&r, 1, 4),
                NULL);
      if (d->nwant == 0 || !conds_hold(d->want, d->nwant, d->start)) break;
    }
  }
}

/* ------------------------------------------------------------------------------------------
 * Printing a domain as `.goap` text (for reproducing failures)
 * ---------------------------------------------------------------------------------------- */
static void print_cond(FILE *f, const pdom *d, const goap_cond *c) {
  static const char *const ops[] = {"==", "!=", "<", "<=", ">", ">="};
  const pvar *v = &d->vars[c->var];
  if (v->type == GOAP_BOOL) {
    if (c->op == GOAP_EQ)
      fprintf(f, "%s%s", c->value ? "" : "!", v->name);
    else
      fprintf(f, "%s %s %s", v->name, ops[c->op], c->value ? "true" : "false");
  } else if (v->type == GOAP_ENUM) {
    fprintf(f, "%s %s %s", v->name, ops[c->op], enum_value_names[c->value]);
  } else {
    fprintf(f, "%s %s %d", v->name, ops[c->op], c->value);
  }
}

static void print_value(FILE *f, const pvar *v, int x) {
  if (v->type == GOAP_BOOL)
    fprintf(f, "%s", x ? "true" : "false");
  else if (v->type == GOAP_ENUM)
    fprintf(f, "%s", enum_value_names[x]);
  else
    fprintf(f, "%d", x);
}

static void print_domain(FILE *f, const pdom *d, double optimal) {
  fprintf(f, "# ---- reproduce with GOAP_PROPERTY_SEED=0x%016llx ----\n",
          (unsigned long long)d->seed);
  fprintf(f, "domain prop\n");
  for (int i = 0; i < d->nvars; ++i) {
    const pvar *v = &d->vars[i];
    fprintf(f, "var %s: ", v->name);
    if (v->type == GOAP_BOOL) {
      fprintf(f, "bool");
    } else if (v->type == GOAP_ENUM) {
      fprintf(f, "enum {");
      for (int k = 0; k <= v->hi; ++k) fprintf(f, "%s%s", k ? ", " : "", enum_value_names[k]);
      fprintf(f, "}");
    } else {
      fprintf(f, "int %d..%d", v->lo, v->hi);
    }
    if (v->has_default) {
      fprintf(f, " = ");
      print_value(f, v, v->def);
    }
    fprintf(f, "\n");
  }
  for (int a = 0; a < d->nact; ++a) {
    const pact *act = &d->acts[a];
    fprintf(f, "action %s\n  cost %.17g\n", act->name, act->cost);
    if (act->npre) {
      fprintf(f, "  pre ");
      for (int k = 0; k < act->npre; ++k) {
        if (k) fprintf(f, ", ");
        print_cond(f, d, &act->pre[k]);
      }
      fprintf(f, "\n");
    }
    if (act->neff) {
      fprintf(f, "  eff ");
      for (int k = 0; k < act->neff; ++k) {
        const goap_effect *e = &act->eff[k];
        const pvar *v = &d->vars[e->var];
        if (k) fprintf(f, ", ");
        if (e->op != GOAP_SET)
          fprintf(f, "%s %s %d%s", v->name, e->value < 0 ? "-=" : "+=", abs(e->value),
                  e->op == GOAP_ADD_CLAMP ? " clamp" : "");
        else if (v->type == GOAP_BOOL)
          fprintf(f, "%s%s", e->value ? "" : "!", v->name);
        else {
          fprintf(f, "%s = ", v->name);
          print_value(f, v, e->value);
        }
      }
      fprintf(f, "\n");
    }
    if (act->use_check || act->use_cost)
      fprintf(f, "  # callbacks:%s%s\n", act->use_check ? " check" : "",
              act->use_cost ? " dynamic_cost" : "");
  }
  fprintf(f, "scenario s\n");
  if (d->nwant) {
    fprintf(f, "  want ");
    for (int k = 0; k < d->nwant; ++k) {
      if (k) fprintf(f, ", ");
      print_cond(f, d, &d->want[k]);
    }
    fprintf(f, "\n");
  } else {
    fprintf(f, "  # want: (empty)\n");
  }
  if (!d->start_is_default) {
    int any = 0;
    for (int i = 0; i < d->nvars; ++i) {
      const pvar *v = &d->vars[i];
      if (d->start[i] == var_default(v)) continue;
      fprintf(f, "%s", any ? ", " : "  given ");
      any = 1;
      if (v->type == GOAP_BOOL)
        fprintf(f, "%s%s", d->start[i] ? "" : "!", v->name);
      else {
        fprintf(f, "%s = ", v->name);
        print_value(f, v, d->start[i]);
      }
    }
    if (any) fprintf(f, "\n");
  }
  if (isinf(optimal))
    fprintf(f, "  expect no plan\n");
  else
    fprintf(f, "  expect cost %.17g\n", optimal);
  fprintf(f, "# ----\n");
}

/* ------------------------------------------------------------------------------------------
 * The brute force: Dijkstra over explicit states (written variables only; the others keep
 * their start values).
 * ---------------------------------------------------------------------------------------- */
typedef struct heap_item {
  double key;
  uint32_t idx;
} heap_item;

typedef struct heap_t {
  heap_item *a;
  size_t n, cap;
} heap_t;

static void heap_push(heap_t *h, double key, uint32_t idx) {
  if (h->n == h->cap) {
    size_t ncap = h->cap ? h->cap * 2 : 256;
    heap_item *na = (heap_item *)realloc(h->a, ncap * sizeof *na);
    if (!na) {
      fprintf(stderr, "brute force: out of memory\n");
      exit(2);
    }
    h->a = na;
    h->cap = ncap;
  }
  size_t i = h->n++;
  while (i > 0) {
    size_t parent = (i - 1) / 2;
    if (h->a[parent].key <= key) break;
    h->a[i] = h->a[parent];
    i = parent;
  }
  h->a[i].key = key;
  h->a[i].idx = idx;
}

static heap_item heap_pop(heap_t *h) {
  heap_item top = h->a[0];
  heap_item last = h->a[--h->n];
  size_t i = 0;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= h->n) break;
    if (c + 1 < h->n && h->a[c + 1].key < h->a[c].key) ++c;
    if (last.key <= h->a[c].key) break;
    h->a[i] = h->a[c];
    i = c;
  }
  if (h->n > 0) h->a[i] = last;
  return top;
}

/* Cost of the cheapest plan from `start` to `want` using `costs` (a negative cost disables
 * the action), or INFINITY. */
static double brute_force(const pdom *d, const double *costs, const int *start,
                          const goap_cond *want, int nwant) {
  int wvars[P_MAX_VARS], nw = 0;
  unsigned char written[P_MAX_VARS];
  memset(written, 0, sizeof written);
  for (int a = 0; a < d->nact; ++a)
    for (int k = 0; k < d->acts[a].neff; ++k) written[d->acts[a].eff[k].var] = 1;
  uint32_t mult[P_MAX_VARS];
  uint32_t total = 1;
  for (int i = 0; i < d->nvars; ++i) {
    if (!written[i]) continue;
    wvars[nw] = i;
    mult[nw] = total;
    total *= (uint32_t)(d->vars[i].hi - d->vars[i].lo + 1);
    ++nw;
  }
  double *dist = (double *)malloc(total * sizeof *dist);
  if (!dist) {
    fprintf(stderr, "brute force: out of memory\n");
    exit(2);
  }
  for (uint32_t i = 0; i < total; ++i) dist[i] = INFINITY;
  heap_t h = {NULL, 0, 0};
  int st[P_MAX_VARS], nx[P_MAX_VARS];
  uint32_t s0 = 0;
  for (int k = 0; k < nw; ++k) s0 += (uint32_t)(start[wvars[k]] - d->vars[wvars[k]].lo) * mult[k];
  dist[s0] = 0.0;
  heap_push(&h, 0.0, s0);
  double best = INFINITY;
  while (h.n > 0) {
    heap_item it = heap_pop(&h);
    if (it.key > dist[it.idx]) continue;
    memcpy(st, start, (size_t)d->nvars * sizeof *st);
    for (int k = 0; k < nw; ++k) {
      const pvar *v = &d->vars[wvars[k]];
      st[wvars[k]] = v->lo + (int)((it.idx / mult[k]) % (uint32_t)(v->hi - v->lo + 1));
    }
    if (conds_hold(want, nwant, st)) {
      best = it.key;
      break;
    }
    for (int a = 0; a < d->nact; ++a) {
      if (!(costs[a] >= 0.0)) continue;
      if (!ref_applicable(d, &d->acts[a], st)) continue;
      memcpy(nx, st, (size_t)d->nvars * sizeof *nx);
      ref_apply(d, &d->acts[a], nx);
      uint32_t j = 0;
      for (int k = 0; k < nw; ++k) j += (uint32_t)(nx[wvars[k]] - d->vars[wvars[k]].lo) * mult[k];
      double nd = it.key + costs[a];
      if (nd < dist[j]) {
        dist[j] = nd;
        heap_push(&h, nd, j);
      }
    }
  }
  free(h.a);
  free(dist);
  return best;
}

/* ------------------------------------------------------------------------------------------
 * Callbacks (second family)
 * ---------------------------------------------------------------------------------------- */
typedef struct cb_host {
  const pdom *d;
  int allow[P_MAX_ACTS];         /* check result */
  double dyn[P_MAX_ACTS];        /* dynamic cost result (may be negative or NaN) */
  int check_calls[P_MAX_ACTS];
  int cost_calls[P_MAX_ACTS];
  int bad_args;                  /* a callback got an unexpected action/user */
} cb_host;

static int user_marker[P_MAX_ACTS];

static int cb_check(void *host, int action, void *user) {
  cb_host *h = (cb_host *)host;
  if (action < 0 || action >= P_MAX_ACTS || user != &user_marker[action]) {
    h->bad_args++;
    return 0;
  }
  h->check_calls[action]++;
  return h->allow[action];
}

static double cb_cost(void *host, int action, void *user) {
  cb_host *h = (cb_host *)host;
  if (action < 0 || action >= P_MAX_ACTS || user != &user_marker[action]) {
    h->bad_args++;
    return -1.0;
  }
  h->cost_calls[action]++;
  return h->dyn[action];
}

/* ------------------------------------------------------------------------------------------
 * Building and checking
 * ---------------------------------------------------------------------------------------- */
static goap_domain *build_domain(const pdom *d, char *err, size_t cap) {
  goap_builder *b = NULL;
  goap_builder_create(NULL, &b);
  goap_domain *dom = NULL;
  if (!b) {
    snprintf(err, cap, "goap_builder_create returned NULL");
    return NULL;
  }
  for (int i = 0; i < d->nvars; ++i) {
    const pvar *v = &d->vars[i];
    goap_var_desc vd;
    memset(&vd, 0, sizeof vd);
    vd.name = v->name;
    vd.type = v->type;
    vd.lo = v->lo;
    vd.hi = v->hi;
    if (v->type == GOAP_ENUM) {
      vd.values = enum_value_names;
      vd.value_count = v->hi + 1;
    }
    vd.has_default = v->has_default;
    vd.default_value = v->def;
    vd.flags = (i % 7 == 3) ? GOAP_VAR_SHARED : 0u;
    int id = -1;
    goap_status s = goap_builder_add_var(b, &vd, &id);
    if (s != GOAP_OK || id != i) {
      snprintf(err, cap, "add_var %s: status %s (id %d): %.200s", v->name, goap_status_name(s), id,
               goap_builder_error(b)->message);
      goap_builder_destroy(b);
      return NULL;
    }
  }
  for (int a = 0; a < d->nact; ++a) {
    const pact *act = &d->acts[a];
    goap_action_desc ad;
    memset(&ad, 0, sizeof ad);
    ad.name = act->name;
    ad.cost = act->cost;
    ad.pre = act->npre ? act->pre : NULL;
    ad.pre_count = act->npre;
    ad.eff = act->neff ? act->eff : NULL;
    ad.eff_count = act->neff;
    ad.check = act->use_check ? cb_check : NULL;
    ad.dynamic_cost = act->use_cost ? cb_cost : NULL;
    ad.user = &user_marker[a];
    int id = -1;
    goap_status s = goap_builder_add_action(b, &ad, &id);
    if (s != GOAP_OK || id != a) {
      snprintf(err, cap, "add_action %s: status %s (id %d): %.200s", act->name,
               goap_status_name(s), id, goap_builder_error(b)->message);
      goap_builder_destroy(b);
      return NULL;
    }
  }
  goap_status s = goap_builder_build(b, &dom);
  if (s != GOAP_OK || !dom) {
    snprintf(err, cap, "build: status %s: %.200s", goap_status_name(s),
             goap_builder_error(b)->message);
    goap_builder_destroy(b);
    return NULL;
  }
  goap_builder_destroy(b);
  return dom;
}

static int var_bits(const pvar *v) {
  int bits = 1;
  while ((1ll << bits) < (long long)(v->hi - v->lo + 1)) ++bits;
  return bits;
}

/* State of one case while checking it. */
typedef struct pcase {
  const pdom *d;
  goap_domain *dom;
  goap_planner *p;
  goap_word *start_words;      /* NULL when the default state is the start */
  const double *costs;         /* effective costs for this request (negative: disabled) */
  double optimal;              /* brute force; INFINITY when unreachable */
  int failed;                  /* number of failed checks */
  int reported;                /* the domain was printed */
  int *reports_left;
  char config[96];
} pcase;

#if defined(__GNUC__)
static void fail_msg(pcase *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#endif
static void fail_msg(pcase *c, const char *fmt, ...) {
  c->failed++;
  if (*c->reports_left <= 0) return;
  if (!c->reported) {
    c->reported = 1;
    fprintf(stderr, "\nproperty failure (seed 0x%016llx):\n", (unsigned long long)c->d->seed);
    print_domain(stderr, c->d, c->optimal);
  }
  if (c->failed > 12) return;
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "  [%s] ", c->config);
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\n");
  va_end(ap);
}

static void print_plan(char *buf, size_t cap, const pdom *d, const int32_t *plan, int n) {
  size_t used = 0;
  buf[0] = '\0';
  for (int i = 0; i < n && used + 16 < cap; ++i) {
    int a = plan[i];
    int w = (a >= 0 && a < d->nact) ? snprintf(buf + used, cap - used, "%s%s", i ? " " : "",
                                               d->acts[a].name)
                                    : snprintf(buf + used, cap - used, "%s#%d", i ? " " : "", a);
    if (w < 0) break;
    used += (size_t)w;
  }
  if (used + 16 >= cap && n > 0) snprintf(buf + used, cap - used, " ...");
}

/* Replays the plan of `r` under the reference semantics; checks validity and the reported
 * cost. */
static void check_plan(pcase *c, const goap_result *r) {
  const pdom *d = c->d;
  char pl[256];
  int st[P_MAX_VARS];
  memcpy(st, d->start, sizeof st);
  double sum = 0.0, static_sum = 0.0;
  print_plan(pl, sizeof pl, d, r->plan, r->plan_length);
  if (r->plan_length < 0 || r->plan_length > r->plan_capacity) {
    fail_msg(c, "plan_length %d out of [0, %d]", r->plan_length, r->plan_capacity);
    return;
  }
  for (int i = 0; i < r->plan_length; ++i) {
    int a = r->plan[i];
    if (a < 0 || a >= d->nact) {
      fail_msg(c, "plan step %d is action id %d (plan: %s)", i, a, pl);
      return;
    }
    if (!(c->costs[a] >= 0.0)) {
      fail_msg(c, "plan step %d uses disabled action %s (plan: %s)", i, d->acts[a].name, pl);
      return;
    }
    if (!ref_applicable(d, &d->acts[a], st)) {
      fail_msg(c, "plan step %d (%s) is not applicable (plan: %s)", i, d->acts[a].name, pl);
      return;
    }
    ref_apply(d, &d->acts[a], st);
    sum += c->costs[a];
    static_sum += d->acts[a].cost;
  }
  if (!conds_hold(d->want, d->nwant, st)) {
    fail_msg(c, "plan does not reach the goal (plan: %s)", pl);
    return;
  }
  if (!(fabs(sum - r->cost) <= 1e-9))
    fail_msg(c, "reported cost %.17g but the plan's actions cost %.17g (plan: %s)", r->cost,
             sum, pl);
  double vcost = -1.0;
  int bad = -2;
  goap_status vs = goap_plan_validate(c->dom, c->start_words, d->want, d->nwant, r->plan,
                                      r->plan_length, &vcost, &bad);
  if (vs != GOAP_OK)
    fail_msg(c, "goap_plan_validate: %s at step %d, but the reference replay accepts it (plan: %s)",
             goap_status_name(vs), bad, pl);
  else if (!(fabs(vcost - static_sum) <= 1e-9))
    fail_msg(c, "goap_plan_validate cost %.17g, expected static cost %.17g", vcost, static_sum);
}

static int same_result(const goap_result *a, const goap_result *b) {
  if (a->status != b->status || a->plan_length != b->plan_length || a->partial != b->partial)
    return 0;
  if (a->status == GOAP_OK && !(a->cost == b->cost)) return 0;
  for (int i = 0; i < a->plan_length && i < a->plan_capacity && i < b->plan_capacity; ++i)
    if (a->plan[i] != b->plan[i]) return 0;
  return 1;
}

/* Checks one planning result against the brute force. */
static void check_result(pcase *c, const goap_result *r, int optimal_config, const char *what) {
  int reachable = !isinf(c->optimal);
  if (r->status == GOAP_OK) {
    if (!reachable) {
      char pl[256];
      print_plan(pl, sizeof pl, c->d, r->plan, r->plan_length);
      fail_msg(c, "%s: expected no_plan, got ok with cost %.17g (plan: %s)", what, r->cost, pl);
      return;
    }
    if (r->partial) fail_msg(c, "%s: status ok but partial flag set", what);
    check_plan(c, r);
    if (optimal_config && !(fabs(r->cost - c->optimal) <= 1e-9)) {
      char pl[256];
      print_plan(pl, sizeof pl, c->d, r->plan, r->plan_length);
      fail_msg(c, "%s: expected optimal cost %.17g, got %.17g (plan: %s)", what, c->optimal,
               r->cost, pl);
    }
  } else if (r->status == GOAP_NO_PLAN) {
    if (reachable)
      fail_msg(c, "%s: expected a plan of cost %.17g, got no_plan", what, c->optimal);
  } else {
    fail_msg(c, "%s: unexpected status %s (expected %s)", what, goap_status_name(r->status),
             reachable ? "ok" : "no_plan");
  }
}

static void init_result(goap_result *r, int32_t *buf) {
  memset(r, 0, sizeof *r);
  r->plan = buf;
  r->plan_capacity = P_PLAN_CAP;
}

/* Per-request hooks for callback cases: reset the host's counters before a request, verify
 * them after it. */
typedef struct host_hooks {
  void (*reset)(void *host);
  void (*verify)(pcase *c, void *host, const char *what);
} host_hooks;

static void hook_reset(const host_hooks *hk, void *host) {
  if (hk) hk->reset(host);
}

static void hook_verify(const host_hooks *hk, pcase *c, void *host, const char *what) {
  if (hk) hk->verify(c, host, what);
}

/* Request flags of the configurations run next (GOAP_REQUEST_PREFERRED / LAZY), 0 normally. */
static unsigned cfg_flags;

static void run_config(pcase *c, goap_search s, goap_heuristic h, double weight, void *host,
                       const host_hooks *hk, int32_t *bufs) {
  const pdom *d = c->d;
  goap_request req;
  memset(&req, 0, sizeof req);
  req.start = c->start_words;
  req.want = d->nwant ? d->want : NULL;
  req.want_count = d->nwant;
  req.search = s;
  req.heuristic = h;
  req.weight = weight;
  req.host = host;
  req.flags = cfg_flags;
  const char *sn = goap_search_name(s), *hn = goap_heuristic_name(h);
  snprintf(c->config, sizeof c->config, "%s/%s%s%s%s%s", sn ? sn : "?", hn ? hn : "?",
           s == GOAP_SEARCH_WASTAR ? (weight == 0.0 ? " w=default" : " w=set") : "",
           cfg_flags & GOAP_REQUEST_PREFERRED ? " preferred" : "",
           cfg_flags & GOAP_REQUEST_LAZY ? " lazy" : "",
           cfg_flags & GOAP_REQUEST_STUBBORN ? " stubborn" : "");
  int opt = goap_config_is_optimal(s, h);

  goap_result r1, r2, r3, r4;
  init_result(&r1, bufs);
  init_result(&r2, bufs + P_PLAN_CAP);
  init_result(&r3, bufs + 2 * P_PLAN_CAP);
  init_result(&r4, bufs + 3 * P_PLAN_CAP);

  hook_reset(hk, host);
  goap_status st = goap_plan(c->p, &req, &r1);
  totals.plans += 4;
  totals.ok_plans += r1.status == GOAP_OK;
  totals.expanded += r1.stats.expanded;
  hook_verify(hk, c, host, "plan");
  if (st != r1.status) fail_msg(c, "goap_plan returned %s but result.status is %s",
                                goap_status_name(st), goap_status_name(r1.status));
  check_result(c, &r1, opt, "plan");

  /* determinism: the same request again */
  hook_reset(hk, host);
  goap_plan(c->p, &req, &r2);
  hook_verify(hk, c, host, "second plan");
  if (!same_result(&r1, &r2))
    fail_msg(c, "not deterministic: second run gave %s cost %.17g length %d (first: %s cost "
             "%.17g length %d)", goap_status_name(r2.status), r2.cost, r2.plan_length,
             goap_status_name(r1.status), r1.cost, r1.plan_length);
  else if (r1.stats.expanded != r2.stats.expanded || r1.stats.generated != r2.stats.generated)
    fail_msg(c, "not deterministic: statistics differ (expanded %llu vs %llu)",
             (unsigned long long)r1.stats.expanded, (unsigned long long)r2.stats.expanded);

  /* relevance pruning never changes the optimum (and never breaks correctness) */
  req.flags = GOAP_REQUEST_NO_PRUNING | cfg_flags;
  hook_reset(hk, host);
  goap_plan(c->p, &req, &r3);
  hook_verify(hk, c, host, "no_pruning");
  check_result(c, &r3, opt, "no_pruning");
  req.flags = cfg_flags;

  /* the sliced API gives the plan of goap_plan */
  hook_reset(hk, host);
  /* begin returns GOAP_IN_PROGRESS (or OK) when a search started, else the final status of
   * a request settled at once (e.g. a contradictory goal); finish reports it either way */
  goap_status bs = goap_plan_begin(c->p, &req);
  uint64_t total = 0;
  long iter = 0;
  goap_status ss = bs;
  while ((bs == GOAP_OK || bs == GOAP_IN_PROGRESS) && iter < 10000000) {
    uint32_t k = (uint32_t)(1 + iter % 3), done = 0xFFFFFFFFu;
    ss = goap_plan_step(c->p, k, &done);
    if (done > k) {
      fail_msg(c, "goap_plan_step(%u) reported %u expansions", k, done);
      break;
    }
    total += done;
    ++iter;
    if (ss != GOAP_IN_PROGRESS) break;
  }
  goap_status fs = goap_plan_finish(c->p, &r4);
  hook_verify(hk, c, host, "sliced");
  if (ss == GOAP_IN_PROGRESS) fail_msg(c, "sliced search never finished");
  if (fs != r4.status)
    fail_msg(c, "goap_plan_finish returned %s but result.status is %s", goap_status_name(fs),
             goap_status_name(r4.status));
  if (ss != r4.status)
    fail_msg(c, "last goap_plan_step returned %s but finish gives %s", goap_status_name(ss),
             goap_status_name(r4.status));
  if (!same_result(&r1, &r4)) {
    char p1[256], p4[256];
    print_plan(p1, sizeof p1, d, r1.plan, r1.plan_length);
    print_plan(p4, sizeof p4, d, r4.plan, r4.plan_length);
    fail_msg(c, "sliced search differs: %s cost %.17g [%s] vs goap_plan %s cost %.17g [%s]",
             goap_status_name(r4.status), r4.cost, p4, goap_status_name(r1.status), r1.cost, p1);
  } else if (total != r4.stats.expanded || r4.stats.expanded != r1.stats.expanded) {
    fail_msg(c, "sliced search: steps reported %llu expansions, finish %llu, goap_plan %llu",
             (unsigned long long)total, (unsigned long long)r4.stats.expanded,
             (unsigned long long)r1.stats.expanded);
  }
}

/* Sets up the library side of a case; returns 0 (and reports) on failure. */
static int setup_case(pcase *c, const pdom *d) {
  char err[512];
  c->d = d;
  c->dom = build_domain(d, err, sizeof err);
  if (!c->dom) {
    fail_msg(c, "the builder rejected a valid domain: %s", err);
    return 0;
  }
  if (goap_planner_create(c->dom, NULL, &c->p) != GOAP_OK) {
    fail_msg(c, "goap_planner_create returned NULL");
    return 0;
  }
  size_t nw = goap_domain_state_words(c->dom);
  int bits = 0;
  for (int i = 0; i < d->nvars; ++i) bits += var_bits(&d->vars[i]);
  if (nw < 1 || (bits > 64 && nw < 2)) {
    fail_msg(c, "goap_domain_state_words is %zu for %d bits of variables", nw, bits);
    return 0;
  }
  goap_word *w = (goap_word *)calloc(nw, sizeof *w);
  if (!w) exit(2);
  goap_state_init(c->dom, w);
  for (int i = 0; i < d->nvars; ++i) {
    int32_t got = goap_state_get(c->dom, w, i);
    if (got != var_default(&d->vars[i])) {
      fail_msg(c, "default state: %s is %d, expected %d", d->vars[i].name, (int)got,
               var_default(&d->vars[i]));
      free(w);
      return 0;
    }
  }
  if (d->start_is_default) {
    free(w);
    c->start_words = NULL;
  } else {
    for (int i = 0; i < d->nvars; ++i) {
      goap_status s = goap_state_set(c->dom, w, i, d->start[i]);
      if (s != GOAP_OK) {
        fail_msg(c, "goap_state_set(%s, %d): %s", d->vars[i].name, d->start[i],
                 goap_status_name(s));
        free(w);
        return 0;
      }
    }
    for (int i = 0; i < d->nvars; ++i) {
      if (goap_state_get(c->dom, w, i) != d->start[i]) {
        fail_msg(c, "goap_state_get(%s) = %d after setting %d", d->vars[i].name,
                 (int)goap_state_get(c->dom, w, i), d->start[i]);
        free(w);
        return 0;
      }
    }
    c->start_words = w;
  }
  return 1;
}

static void teardown_case(pcase *c) {
  free(c->start_words);
  goap_planner_destroy(c->p);
  goap_domain_destroy(c->dom);
  c->start_words = NULL;
  c->p = NULL;
  c->dom = NULL;
}

static const goap_search all_searches[] = {GOAP_SEARCH_ASTAR, GOAP_SEARCH_BACKWARD,
                                           GOAP_SEARCH_WASTAR, GOAP_SEARCH_GREEDY};
static const goap_heuristic all_heuristics[] = {GOAP_H_DEFAULT, GOAP_H_ZERO, GOAP_H_GOAL_COUNT,
                                                GOAP_H_GOAL_COUNT_ADMISSIBLE, GOAP_H_MAX,
                                                GOAP_H_ADD, GOAP_H_FF, GOAP_H_LMCUT};
#define N_SEARCHES ((int)(sizeof all_searches / sizeof all_searches[0]))
#define N_HEURISTICS ((int)(sizeof all_heuristics / sizeof all_heuristics[0]))

static double wastar_weight(const pdom *d) {
  static const double weights[] = {0.0, 1.0, 1.5, 4.0};
  return weights[d->seed % 4];
}

/* One plain case (static costs). Returns the number of failed checks. */
static int run_plain_case(uint64_t seed, int *reports_left, int32_t *bufs) {
  static pdom d;
  gen_domain(&d, seed);
  double costs[P_MAX_ACTS];
  for (int a = 0; a < d.nact; ++a) costs[a] = d.acts[a].cost;
  pcase c;
  memset(&c, 0, sizeof c);
  c.reports_left = reports_left;
  c.costs = costs;
  c.d = &d;
  c.optimal = brute_force(&d, costs, d.start, d.want, d.nwant);
  totals.cases++;
  totals.reachable += !isinf(c.optimal);
  totals.wide += d.wide;
  snprintf(c.config, sizeof c.config, "setup");
  if (setup_case(&c, &d)) {
    for (int si = 0; si < N_SEARCHES; ++si)
      for (int hi = 0; hi < N_HEURISTICS; ++hi)
        run_config(&c, all_searches[si], all_heuristics[hi], wastar_weight(&d), NULL, NULL,
                   bufs);
    /* forward successor generation forced through the successor index (used on its own only
     * past 64 actions per state word) and through the useful-action bitset */
    for (int force = 1; force <= 2; ++force) {
      c.p->sx_force = force;
      run_config(&c, GOAP_SEARCH_ASTAR, GOAP_H_DEFAULT, 0.0, NULL, NULL, bufs);
      run_config(&c, GOAP_SEARCH_ASTAR, GOAP_H_LMCUT, 0.0, NULL, NULL, bufs);
      run_config(&c, GOAP_SEARCH_GREEDY, GOAP_H_FF, 0.0, NULL, NULL, bufs);
    }
    c.p->sx_force = 0;
    /* the satisficing options: preferred operators (hff), lazy evaluation, both */
    static const unsigned flag_sets[] = {GOAP_REQUEST_PREFERRED, GOAP_REQUEST_LAZY,
                                         GOAP_REQUEST_PREFERRED | GOAP_REQUEST_LAZY};
    for (int k = 0; k < 3; ++k) {
      cfg_flags = flag_sets[k];
      run_config(&c, GOAP_SEARCH_GREEDY, GOAP_H_FF, 0.0, NULL, NULL, bufs);
      run_config(&c, GOAP_SEARCH_WASTAR, GOAP_H_FF, wastar_weight(&d), NULL, NULL, bufs);
      if (!(cfg_flags & GOAP_REQUEST_PREFERRED)) {
        run_config(&c, GOAP_SEARCH_GREEDY, GOAP_H_GOAL_COUNT, 0.0, NULL, NULL, bufs);
        run_config(&c, GOAP_SEARCH_WASTAR, GOAP_H_MAX, wastar_weight(&d), NULL, NULL, bufs);
      }
    }
    /* lazy A* (optimal) with every admissible heuristic; LM-cut also with its cut bound
     * only while fresh (lm_bound 1) and with the bound h(parent) - cost alone (0) */
    static const goap_heuristic adm[] = {GOAP_H_DEFAULT, GOAP_H_ZERO,
                                         GOAP_H_GOAL_COUNT_ADMISSIBLE, GOAP_H_MAX, GOAP_H_LMCUT};
    cfg_flags = GOAP_REQUEST_LAZY;
    for (int k = 0; k < 5; ++k)
      run_config(&c, GOAP_SEARCH_ASTAR, adm[k], 0.0, NULL, NULL, bufs);
    for (int lb = 0; lb < 2; ++lb) {
      c.p->lm_bound = lb;
      run_config(&c, GOAP_SEARCH_ASTAR, GOAP_H_LMCUT, 0.0, NULL, NULL, bufs);
    }
    c.p->lm_bound = 2;
    /* strong stubborn sets (pruning only where the selection qualifies: no ints): optimal
     * configurations keep the optimum, greedy finds a plan iff there is one */
    cfg_flags = 0;
    run_config(&c, GOAP_SEARCH_ASTAR, GOAP_H_ZERO, 0.0, NULL, NULL, bufs);
    uint64_t gen_plain = c.p->stats.generated; /* of its last request (the sliced one) */
    cfg_flags = GOAP_REQUEST_STUBBORN;
    run_config(&c, GOAP_SEARCH_ASTAR, GOAP_H_ZERO, 0.0, NULL, NULL, bufs);
    totals.stubborn += c.p->por.ok;
    totals.stubborn_fewer += c.p->stats.generated < gen_plain;
    run_config(&c, GOAP_SEARCH_ASTAR, GOAP_H_LMCUT, 0.0, NULL, NULL, bufs);
    run_config(&c, GOAP_SEARCH_GREEDY, GOAP_H_FF, 0.0, NULL, NULL, bufs);
    cfg_flags = GOAP_REQUEST_STUBBORN | GOAP_REQUEST_LAZY;
    run_config(&c, GOAP_SEARCH_ASTAR, GOAP_H_LMCUT, 0.0, NULL, NULL, bufs);
    cfg_flags = 0;
  }
  teardown_case(&c);
  if (c.failed && c.reported) --*reports_left;
  return c.failed;
}

static void reset_cb_host(void *host) {
  cb_host *h = (cb_host *)host;
  memset(h->check_calls, 0, sizeof h->check_calls);
  memset(h->cost_calls, 0, sizeof h->cost_calls);
  h->bad_args = 0;
}

static void verify_cb_host(pcase *c, void *host, const char *what) {
  cb_host *h = (cb_host *)host;
  const pdom *d = c->d;
  for (int a = 0; a < d->nact; ++a) {
    if (h->check_calls[a] > 1 || h->cost_calls[a] > 1)
      fail_msg(c, "%s: action %s: check called %d times, dynamic_cost %d times in one request "
               "(at most once each)", what, d->acts[a].name, h->check_calls[a],
               h->cost_calls[a]);
    if (!d->acts[a].use_check && h->check_calls[a])
      fail_msg(c, "%s: check of %s called but the action has none", what, d->acts[a].name);
    if (!d->acts[a].use_cost && h->cost_calls[a])
      fail_msg(c, "%s: dynamic_cost of %s called but the action has none", what,
               d->acts[a].name);
  }
  if (h->bad_args)
    fail_msg(c, "%s: callbacks got a wrong action id or user pointer %d times", what,
             h->bad_args);
}

static const host_hooks cb_hooks = {reset_cb_host, verify_cb_host};

/* One case with callbacks: several requests with different host answers on one planner. */
static int run_callback_case(uint64_t seed, int *reports_left, int32_t *bufs) {
  static pdom d;
  gen_domain(&d, seed);
  rng_t r;
  r.s = seed ^ 0xC0FFEEull;
  for (int a = 0; a < d.nact; ++a) {
    d.acts[a].use_check = rng_pct(&r, 40);
    d.acts[a].use_cost = rng_pct(&r, 50);
  }
  pcase c;
  memset(&c, 0, sizeof c);
  c.reports_left = reports_left;
  c.d = &d;
  c.optimal = 0.0;
  snprintf(c.config, sizeof c.config, "setup");
  if (setup_case(&c, &d)) {
    for (int round = 0; round < 3; ++round) {
      cb_host host;
      memset(&host, 0, sizeof host);
      host.d = &d;
      double costs[P_MAX_ACTS];
      for (int a = 0; a < d.nact; ++a) {
        host.allow[a] = rng_pct(&r, 75);
        int k = rng_range(&r, 0, 9);
        host.dyn[a] = k == 0 ? -1.0 : k == 1 ? NAN : k == 2 ? 0.0 : k == 3 ? 0.25 : (double)(k - 3);
        double eff = d.acts[a].cost;
        if (d.acts[a].use_check && !host.allow[a]) eff = -1.0;
        if (eff >= 0.0 && d.acts[a].use_cost) eff = host.dyn[a] >= 0.0 ? host.dyn[a] : -1.0;
        costs[a] = eff;
      }
      c.costs = costs;
      c.optimal = brute_force(&d, costs, d.start, d.want, d.nwant);
      for (int si = 0; si < N_SEARCHES; ++si) {
        for (int hi = 0; hi < N_HEURISTICS; ++hi) {
          int before = c.failed;
          run_config(&c, all_searches[si], all_heuristics[hi], wastar_weight(&d), &host,
                     &cb_hooks, bufs);
          if (c.failed > before && *reports_left > 0) {
            fprintf(stderr, "  round %d host answers:", round);
            for (int a = 0; a < d.nact; ++a)
              fprintf(stderr, " %s(check=%d cost=%g eff=%g)", d.acts[a].name, host.allow[a],
                      host.dyn[a], costs[a]);
            fprintf(stderr, "\n");
          }
        }
      }
    }
  }
  teardown_case(&c);
  if (c.failed && c.reported) --*reports_left;
  return c.failed;
}

/* ------------------------------------------------------------------------------------------
 * Tests
 * ---------------------------------------------------------------------------------------- */
static int env_cases(int dflt) {
  const char *e = getenv("GOAP_PROPERTY_CASES");
  if (!e || !*e) return dflt;
  long n = strtol(e, NULL, 10);
  return n < 0 ? 0 : (int)n;
}

static int env_seed(uint64_t *seed) {
  const char *e = getenv("GOAP_PROPERTY_SEED");
  if (!e || !*e) return 0;
  *seed = (uint64_t)strtoull(e, NULL, 0);
  return 1;
}

#define FAMILY_PLAIN 0x6F61705F70726F70ull
#define FAMILY_CALLBACK 0x63616C6C6261636Bull

TEST(random_domains_match_brute_force) {
  int32_t *bufs = (int32_t *)malloc(4 * P_PLAN_CAP * sizeof *bufs);
  REQUIRE(bufs != NULL);
  int reports_left = P_MAX_REPORTS;
  uint64_t one;
  int n = env_cases(P_DEFAULT_CASES), failed_cases = 0;
  if (env_seed(&one)) {
    n = 1;
    failed_cases += run_plain_case(one, &reports_left, bufs) > 0;
  } else {
    for (int i = 0; i < n; ++i)
      failed_cases += run_plain_case(case_seed(FAMILY_PLAIN, i), &reports_left, bufs) > 0;
  }
  free(bufs);
  printf("plain: %ld cases (%ld reachable, %ld wide, %ld with stubborn sets, %ld pruned by "
         "them), %ld plans (%ld first plans ok), %llu expansions\n", totals.cases,
         totals.reachable, totals.wide, totals.stubborn, totals.stubborn_fewer, totals.plans,
         totals.ok_plans, totals.expanded);
  /* the stubborn-set runs above checked something: some searches were pruned */
  if (n >= 100) CHECK(totals.stubborn_fewer > 0);
  memset(&totals, 0, sizeof totals);
  if (failed_cases) fprintf(stderr, "%d of %d random cases failed\n", failed_cases, n);
  CHECK_EQ_INT(failed_cases, 0);
}

TEST(random_domains_with_callbacks) {
  int32_t *bufs = (int32_t *)malloc(4 * P_PLAN_CAP * sizeof *bufs);
  REQUIRE(bufs != NULL);
  int reports_left = P_MAX_REPORTS;
  uint64_t one;
  int n = env_cases(P_DEFAULT_CASES) * P_DEFAULT_CALLBACK_CASES / P_DEFAULT_CASES;
  int failed_cases = 0;
  if (env_seed(&one)) {
    n = 1;
    failed_cases += run_callback_case(one, &reports_left, bufs) > 0;
  } else {
    for (int i = 0; i < n; ++i)
      failed_cases += run_callback_case(case_seed(FAMILY_CALLBACK, i), &reports_left, bufs) > 0;
  }
  free(bufs);
  printf("callbacks: %ld plans (%ld first plans ok), %llu expansions\n", totals.plans,
         totals.ok_plans, totals.expanded);
  if (failed_cases) fprintf(stderr, "%d of %d callback cases failed\n", failed_cases, n);
  CHECK_EQ_INT(failed_cases, 0);
}

/* The generator must produce what it claims: multi-word states, unreachable goals, zero and
 * fractional costs, every condition operator. (Guards against a silently weakened test.) */
TEST(generator_coverage) {
  static pdom d;
  int wide = 0, unreachable = 0, reachable = 0, zero_cost = 0, frac_cost = 0, adds = 0;
  int clamps = 0, clamp_saturates = 0;
  int ops[6] = {0, 0, 0, 0, 0, 0}, empty_goal = 0;
  for (int i = 0; i < 400; ++i) {
    gen_domain(&d, case_seed(FAMILY_PLAIN, i));
    double costs[P_MAX_ACTS];
    for (int a = 0; a < d.nact; ++a) {
      costs[a] = d.acts[a].cost;
      zero_cost += d.acts[a].cost == 0.0;
      frac_cost += d.acts[a].cost != floor(d.acts[a].cost);
      for (int k = 0; k < d.acts[a].npre; ++k) ops[d.acts[a].pre[k].op]++;
      for (int k = 0; k < d.acts[a].neff; ++k) {
        const goap_effect *e = &d.acts[a].eff[k];
        adds += e->op == GOAP_ADD;
        clamps += e->op == GOAP_ADD_CLAMP;
        /* saturating from the start state: the strict form would not apply there */
        if (e->op == GOAP_ADD_CLAMP) {
          long long x = (long long)d.start[e->var] + e->value;
          clamp_saturates += x < d.vars[e->var].lo || x > d.vars[e->var].hi;
        }
      }
    }
    int bits = 0;
    for (int v = 0; v < d.nvars; ++v) bits += var_bits(&d.vars[v]);
    wide += bits > 64;
    empty_goal += d.nwant == 0;
    double opt = brute_force(&d, costs, d.start, d.want, d.nwant);
    if (isinf(opt))
      ++unreachable;
    else
      ++reachable;
  }
  CHECK(wide > 40);
  CHECK(unreachable > 40);
  CHECK(reachable > 150);
  CHECK(zero_cost > 20);
  CHECK(frac_cost > 20);
  CHECK(adds > 50);
  CHECK(clamps > 50);
  CHECK(clamp_saturates > 20);
  CHECK(empty_goal > 0);
  for (int k = 0; k < 6; ++k) CHECK(ops[k] > 10);
}

/* The brute force itself on a hand-checked domain (so a broken reference cannot make the
 * differential test vacuous). */
TEST(brute_force_reference) {
  static pdom d;
  memset(&d, 0, sizeof d);
  d.nvars = 2;
  d.vars[0].type = GOAP_INT;
  d.vars[0].lo = -2;
  d.vars[0].hi = 2;
  d.vars[1].type = GOAP_BOOL;
  d.vars[1].hi = 1;
  d.nact = 3;
  /* inc: x += 1 (cost 1); jump: pre !b, x = 2, b (cost 2.5); reset: x = -2 (cost 0) */
  d.acts[0].cost = 1.0;
  d.acts[0].neff = 1;
  d.acts[0].eff[0] = (goap_effect){0, GOAP_ADD, 1};
  d.acts[1].cost = 2.5;
  d.acts[1].npre = 1;
  d.acts[1].pre[0] = (goap_cond){1, GOAP_EQ, 0};
  d.acts[1].neff = 2;
  d.acts[1].eff[0] = (goap_effect){0, GOAP_SET, 2};
  d.acts[1].eff[1] = (goap_effect){1, GOAP_SET, 1};
  d.acts[2].cost = 0.0;
  d.acts[2].neff = 1;
  d.acts[2].eff[0] = (goap_effect){0, GOAP_SET, -2};
  double costs[3] = {1.0, 2.5, 0.0};
  int start[P_MAX_VARS] = {0, 0};
  goap_cond want_x2 = {0, GOAP_GE, 2};
  CHECK_NEAR(brute_force(&d, costs, start, &want_x2, 1), 2.0, 1e-12); /* inc inc */
  start[0] = -2;
  CHECK_NEAR(brute_force(&d, costs, start, &want_x2, 1), 2.5, 1e-12); /* jump */
  start[1] = 1;
  CHECK_NEAR(brute_force(&d, costs, start, &want_x2, 1), 4.0, 1e-12); /* inc x4 */
  goap_cond want_both[2] = {{0, GOAP_EQ, -1}, {1, GOAP_NE, 0}};
  start[0] = 2;
  start[1] = 0;
  CHECK_NEAR(brute_force(&d, costs, start, want_both, 2), 3.5, 1e-12); /* jump reset inc */
  costs[1] = -1.0;
  CHECK(isinf(brute_force(&d, costs, start, want_both, 2))); /* b can never become true */
  goap_cond want_low = {0, GOAP_LT, -2};
  costs[1] = 2.5;
  CHECK(isinf(brute_force(&d, costs, start, &want_low, 1)));
  /* ADD at the top of the range is not applicable (no clamping) */
  start[0] = 2;
  CHECK(!ref_applicable(&d, &d.acts[0], start));
  /* ... while a saturating one is, and stops at the edge: x = 2, x += 3 clamp -> 2; x -= 9
   * clamp -> -2 (lo) */
  d.acts[0].eff[0] = (goap_effect){0, GOAP_ADD_CLAMP, 3};
  CHECK(ref_applicable(&d, &d.acts[0], start));
  ref_apply(&d, &d.acts[0], start);
  CHECK_EQ_INT(start[0], 2);
  d.acts[0].eff[0] = (goap_effect){0, GOAP_ADD_CLAMP, -9};
  ref_apply(&d, &d.acts[0], start);
  CHECK_EQ_INT(start[0], -2);
}

/* The documented optimality table. */
TEST(config_is_optimal_table) {
  for (int si = 0; si < N_SEARCHES; ++si) {
    for (int hi = 0; hi < N_HEURISTICS; ++hi) {
      goap_search s = all_searches[si];
      goap_heuristic h = all_heuristics[hi];
      int expect = (s == GOAP_SEARCH_ASTAR || s == GOAP_SEARCH_BACKWARD) &&
                   (h == GOAP_H_DEFAULT || h == GOAP_H_ZERO ||
                    h == GOAP_H_GOAL_COUNT_ADMISSIBLE || h == GOAP_H_MAX || h == GOAP_H_LMCUT);
      CHECK_EQ_INT(goap_config_is_optimal(s, h) != 0, expect);
    }
  }
}

/* A small hand-made domain with callbacks: a check that disables an action and a dynamic
 * cost that changes another, each called at most once per request per action. */
typedef struct door_host {
  int allow_unlock;
  double teleport_cost;
  double smash_cost;
  int calls_check[8];
  int calls_cost[8];
  int wrong_user;
} door_host;

static int door_tag[8];

static int door_check(void *host, int action, void *user) {
  door_host *h = (door_host *)host;
  if (action < 0 || action >= 8 || user != &door_tag[action]) {
    h->wrong_user++;
    return 1;
  }
  h->calls_check[action]++;
  return h->allow_unlock;
}

static double door_cost(void *host, int action, void *user) {
  door_host *h = (door_host *)host;
  if (action < 0 || action >= 8 || user != &door_tag[action]) {
    h->wrong_user++;
    return 1.0;
  }
  h->calls_cost[action]++;
  return action == 4 ? h->teleport_cost : h->smash_cost;
}

TEST(callbacks_small_domain) {
  goap_builder *b = NULL;
  REQUIRE(goap_builder_create(NULL, &b) == GOAP_OK);
  const char *names[3] = {"has_key", "door_open", "inside"};
  for (int i = 0; i < 3; ++i) {
    goap_var_desc vd;
    memset(&vd, 0, sizeof vd);
    vd.name = names[i];
    vd.type = GOAP_BOOL;
    REQUIRE(goap_builder_add_var(b, &vd, NULL) == GOAP_OK);
  }
  /* 0 pick_key -> has_key (1); 1 unlock: has_key -> door_open (1, check);
   * 2 enter: door_open -> inside (1); 3 smash -> door_open (5, dynamic);
   * 4 teleport -> inside (10, dynamic) */
  goap_cond pre_unlock = {0, GOAP_EQ, 1}, pre_enter = {1, GOAP_EQ, 1};
  goap_effect e_key = {0, GOAP_SET, 1}, e_door = {1, GOAP_SET, 1}, e_in = {2, GOAP_SET, 1};
  struct {
    const char *name;
    double cost;
    const goap_cond *pre;
    const goap_effect *eff;
    int cb; /* 1 check, 2 cost */
  } acts[5] = {{"pick_key", 1, NULL, &e_key, 0},
               {"unlock", 1, &pre_unlock, &e_door, 1},
               {"enter", 1, &pre_enter, &e_in, 0},
               {"smash", 5, NULL, &e_door, 2},
               {"teleport", 10, NULL, &e_in, 2}};
  for (int i = 0; i < 5; ++i) {
    goap_action_desc ad;
    memset(&ad, 0, sizeof ad);
    ad.name = acts[i].name;
    ad.cost = acts[i].cost;
    ad.pre = acts[i].pre;
    ad.pre_count = acts[i].pre ? 1 : 0;
    ad.eff = acts[i].eff;
    ad.eff_count = 1;
    ad.check = acts[i].cb == 1 ? door_check : NULL;
    ad.dynamic_cost = acts[i].cb == 2 ? door_cost : NULL;
    ad.user = &door_tag[i];
    int id = -1;
    REQUIRE(goap_builder_add_action(b, &ad, &id) == GOAP_OK);
    CHECK_EQ_INT(id, i);
  }
  goap_domain *dom = NULL;
  REQUIRE(goap_builder_build(b, &dom) == GOAP_OK);
  goap_builder_destroy(b);
  goap_planner *p = NULL;
  REQUIRE(goap_planner_create(dom, NULL, &p) == GOAP_OK);

  struct {
    int allow;
    double teleport, smash;
    double expect;
    int expect_len;
  } rounds[] = {
      {1, 10.0, 5.0, 3.0, 3},  /* pick unlock enter */
      {0, 10.0, 5.0, 6.0, 2},  /* smash enter */
      {0, 10.0, -1.0, 10.0, 1}, /* teleport */
      {1, 0.5, 5.0, 0.5, 1},   /* a cheap teleport */
      {0, NAN, NAN, -1.0, 0},  /* nothing reaches inside */
      {1, 2.75, 5.0, 2.75, 1}, /* teleport at 2.75 beats 3 */
      {0, 7.0, 0.0, 1.0, 2},   /* a free smash */
  };
  goap_cond want = {2, GOAP_EQ, 1};
  for (size_t ri = 0; ri < sizeof rounds / sizeof rounds[0]; ++ri) {
    for (int si = 0; si < N_SEARCHES; ++si) {
      for (int hi = 0; hi < N_HEURISTICS; ++hi) {
        door_host host;
        memset(&host, 0, sizeof host);
        host.allow_unlock = rounds[ri].allow;
        host.teleport_cost = rounds[ri].teleport;
        host.smash_cost = rounds[ri].smash;
        goap_request req;
        memset(&req, 0, sizeof req);
        req.want = &want;
        req.want_count = 1;
        req.search = all_searches[si];
        req.heuristic = all_heuristics[hi];
        req.host = &host;
        int32_t plan[16];
        goap_result res;
        memset(&res, 0, sizeof res);
        res.plan = plan;
        res.plan_capacity = 16;
        goap_status st = goap_plan(p, &req, &res);
        int opt = goap_config_is_optimal(req.search, req.heuristic);
        if (rounds[ri].expect < 0) {
          CHECK_EQ_INT(st, GOAP_NO_PLAN);
        } else {
          CHECK_EQ_INT(st, GOAP_OK);
          if (st == GOAP_OK && opt) {
            CHECK_NEAR(res.cost, rounds[ri].expect, 1e-12);
            CHECK_EQ_INT(res.plan_length, rounds[ri].expect_len);
          }
          /* whatever the config: only allowed actions, and the cost they have now */
          double sum = 0.0;
          for (int k = 0; k < res.plan_length && st == GOAP_OK; ++k) {
            int a = plan[k];
            CHECK(a >= 0 && a < 5);
            if (a == 1) CHECK(host.allow_unlock);
            if (a == 3) CHECK(host.smash_cost >= 0.0);
            if (a == 4) CHECK(host.teleport_cost >= 0.0);
            sum += a == 3 ? host.smash_cost : a == 4 ? host.teleport_cost : 1.0;
          }
          if (st == GOAP_OK) CHECK_NEAR(res.cost, sum, 1e-12);
        }
        for (int a = 0; a < 5; ++a) {
          CHECK(host.calls_check[a] <= 1);
          CHECK(host.calls_cost[a] <= 1);
        }
        CHECK_EQ_INT(host.calls_check[0] + host.calls_check[2] + host.calls_check[3] +
                         host.calls_check[4], 0);
        CHECK_EQ_INT(host.calls_cost[0] + host.calls_cost[1] + host.calls_cost[2], 0);
        CHECK_EQ_INT(host.wrong_user, 0);
        if (rounds[ri].expect >= 0 && opt && rounds[ri].expect_len == 1 &&
            rounds[ri].teleport < 3.0)
          CHECK_EQ_INT(host.calls_cost[4], 1); /* the chosen teleport's cost was asked */
      }
    }
  }
  goap_planner_destroy(p);
  goap_domain_destroy(dom);
}

/* Heuristic values on random states (not only the start), against the brute-force optimum
 * from that state: hmax <= LM-cut <= optimum; hmax, hadd and hff agree on dead ends (relaxed
 * unreachability), LM-cut sees each of them; all are 0 on goal states; a relaxed dead end is a
 * real one. */
static int heuristic_case(uint64_t seed, long *checked, long *strict) {
  static pdom d;
  gen_domain(&d, seed);
  double costs[P_MAX_ACTS];
  for (int a = 0; a < d.nact; ++a) costs[a] = d.acts[a].cost;
  pcase c;
  memset(&c, 0, sizeof c);
  int reports = 1;
  c.reports_left = &reports;
  c.costs = costs;
  c.d = &d;
  snprintf(c.config, sizeof c.config, "heuristics");
  int failed = 0;
  if (setup_case(&c, &d)) {
    goap_request req;
    memset(&req, 0, sizeof req);
    req.start = c.start_words;
    req.want = d.nwant ? d.want : NULL;
    req.want_count = d.nwant;
    req.heuristic = GOAP_H_LMCUT;
    goap_status bs = goap_plan_begin(c.p, &req);
    size_t nw = goap_domain_state_words(c.dom);
    goap_word *w = (goap_word *)calloc(nw, sizeof *w);
    if (!w) exit(2);
    rng_t r;
    r.s = seed ^ 0x5bd1e995u;
    for (int k = 0; k < 4 && bs == GOAP_IN_PROGRESS; ++k) {
      int st[P_MAX_VARS];
      goap_state_init(c.dom, w);
      for (int v = 0; v < d.nvars; ++v) {
        st[v] = k == 0 ? d.start[v] : rng_range(&r, d.vars[v].lo, d.vars[v].hi);
        if (k == 0 && d.start_is_default) st[v] = var_default(&d.vars[v]);
        goap_state_set(c.dom, w, v, st[v]);
      }
      double opt = brute_force(&d, costs, st, d.want, d.nwant);
      double hmax = goap__relax_eval(c.p, w, 0), hadd = goap__relax_eval(c.p, w, 1);
      double hff = goap__relax_eval_ff(c.p, w), lm = goap__lmcut_eval(c.p, w);
      int goal = conds_hold(d.want, d.nwant, st);
      /* LM-cut's int compilation is tighter than the hull: it may see a dead end hmax misses */
      int bad = lm + 1e-9 < hmax || (lm >= GOAP__INF ? !isinf(opt) : lm > opt + 1e-9) ||
                (hmax >= GOAP__INF && lm < GOAP__INF) ||
                (hmax >= GOAP__INF) != (hadd >= GOAP__INF) ||
                (hmax >= GOAP__INF) != (hff >= GOAP__INF) ||
                (hmax >= GOAP__INF && !isinf(opt)) ||
                (goal && (lm != 0.0 || hff != 0.0 || hmax != 0.0));
      if (bad) {
        fail_msg(&c, "state %d: hmax %g hadd %g hff %g lmcut %g, optimum %g, goal %d", k, hmax,
                 hadd, hff, lm, opt, goal);
        failed = 1;
        break;
      }
      ++*checked;
      *strict += lm > hmax + 1e-9;
    }
    free(w);
  }
  teardown_case(&c);
  return failed;
}

TEST(heuristics_on_random_states) {
  int n = env_cases(P_DEFAULT_CASES) / 4, failed = 0;
  long checked = 0, strict = 0;
  uint64_t one;
  if (env_seed(&one)) {
    failed += heuristic_case(one, &checked, &strict);
    n = 0;
  }
  for (int i = 0; i < n; ++i) failed += heuristic_case(case_seed(FAMILY_PLAIN, i), &checked, &strict);
  printf("heuristics: %ld states checked, LM-cut above hmax on %ld\n", checked, strict);
  CHECK_EQ_INT(failed, 0);
  if (n) CHECK(checked > n); /* most cases evaluated several states */
  if (n) CHECK(strict > checked / 20); /* LM-cut is really stronger than hmax somewhere */
}

TEST_MAIN(TEST_ENTRY(brute_force_reference), TEST_ENTRY(generator_coverage),
          TEST_ENTRY(config_is_optimal_table), TEST_ENTRY(callbacks_small_domain),
          TEST_ENTRY(random_domains_match_brute_force), TEST_ENTRY(random_domains_with_callbacks),
          TEST_ENTRY(heuristics_on_random_states))
