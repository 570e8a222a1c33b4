/*
 * bench.c -- goap_bench: planning speed, search effort and allocations on fixed cases.
 *
 * Cases (see bench/README.md): the GPGOAP README soldier, the lecture's soldier and the door,
 * Alma's kitchen, chains with distractors (chain_L_K) and cheap-versus-dear achievers
 * (branch_N_M_c1_c2). Each case is a set of bool atoms built through the builder API; its
 * optimal cost is known by construction, or computed here by an exhaustive Dijkstra over
 * bit-mask states (the small cases), independently of the library.
 *
 * For every case: one warm-up plan, then timed batches (CLOCK_MONOTONIC) until about
 * --min-time seconds and at least 20 batches have run; the reported time is the median of
 * the batches' per-plan times. Allocations are counted by a counting allocator given to the
 * planner, over all timed plans (so they are the steady-state allocations per plan).
 *
 * Exit status: 0 when every case was solved (status ok) and, in an optimal configuration,
 * optimally; 1 otherwise; 2 on bad usage. --compare-heuristics runs every case under every
 * optimal configuration and prints a comparison table; it fails only on a wrong optimum.
 */
#define _POSIX_C_SOURCE 200809L

#include <goap/goap.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "bench_util.h"

/* ------------------------------------------------------------------------------------------
 * Cases: bool atoms, actions with literal preconditions and effects
 * ---------------------------------------------------------------------------------------- */
#define MAX_LITS 4

typedef struct lit {
  int atom;
  int value;
} lit;

typedef struct bench_action {
  char name[32];
  double cost;
  lit pre[MAX_LITS];
  int npre;
  lit eff[MAX_LITS];
  int neff;
} bench_action;

/* An alternating case's request: changes to the case's start state, and a goal. */
#define MAX_ALT 8
typedef struct alt_req {
  lit mod[MAX_LITS];
  int nmod;
  lit goal[MAX_LITS];
  int ngoal;
} alt_req;

typedef struct bench_case {
  char name[48];
  int nalt;             /* > 0: nalt requests planned round-robin on one planner */
  alt_req alt[MAX_ALT];
  int natoms, atom_cap;
  char (*atoms)[24];
  unsigned char *start; /* per atom */
  int nact, act_cap;
  bench_action *acts;
  lit *goal;
  int ngoal, goal_cap;
  double optimal;       /* known optimal cost; NAN: compute by brute force */
  const char *about;
} bench_case;

static void *xrealloc(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (!q) {
    fprintf(stderr, "goap_bench: out of memory\n");
    exit(2);
  }
  return q;
}

static int atom_id(bench_case *c, const char *name) {
  for (int i = 0; i < c->natoms; ++i)
    if (strcmp(c->atoms[i], name) == 0) return i;
  if (c->natoms == c->atom_cap) {
    c->atom_cap = c->atom_cap ? c->atom_cap * 2 : 16;
    c->atoms = (char(*)[24])xrealloc(c->atoms, (size_t)c->atom_cap * sizeof *c->atoms);
    c->start = (unsigned char *)xrealloc(c->start, (size_t)c->atom_cap);
  }
  snprintf(c->atoms[c->natoms], sizeof c->atoms[0], "%s", name);
  c->start[c->natoms] = 0;
  return c->natoms++;
}

/* "a,!b" -> literals */
static int parse_lits(bench_case *c, const char *text, lit *out) {
  char buf[256];
  int n = 0;
  snprintf(buf, sizeof buf, "%s", text);
  for (char *tok = strtok(buf, ","); tok && n < MAX_LITS; tok = strtok(NULL, ",")) {
    int neg = tok[0] == '!';
    out[n].atom = atom_id(c, tok + neg);
    out[n].value = !neg;
    ++n;
  }
  return n;
}

static void add_action(bench_case *c, const char *name, double cost, const char *pre,
                       const char *eff) {
  if (c->nact == c->act_cap) {
    c->act_cap = c->act_cap ? c->act_cap * 2 : 16;
    c->acts = (bench_action *)xrealloc(c->acts, (size_t)c->act_cap * sizeof *c->acts);
  }
  bench_action *a = &c->acts[c->nact++];
  memset(a, 0, sizeof *a);
  snprintf(a->name, sizeof a->name, "%s", name);
  a->cost = cost;
  a->npre = parse_lits(c, pre, a->pre);
  a->neff = parse_lits(c, eff, a->eff);
}

static void add_goal(bench_case *c, const char *text) {
  lit l[MAX_LITS];
  int n = parse_lits(c, text, l);
  for (int i = 0; i < n; ++i) {
    if (c->ngoal == c->goal_cap) {
      c->goal_cap = c->goal_cap ? c->goal_cap * 2 : 8;
      c->goal = (lit *)xrealloc(c->goal, (size_t)c->goal_cap * sizeof *c->goal);
    }
    c->goal[c->ngoal++] = l[i];
  }
}

static void add_alt(bench_case *c, const char *mods, const char *goal) {
  alt_req *r = &c->alt[c->nalt++];
  r->nmod = parse_lits(c, mods, r->mod);
  r->ngoal = parse_lits(c, goal, r->goal);
}

static void set_start(bench_case *c, const char *atom, int value) {
  int id = atom_id(c, atom); /* may grow c->start */
  c->start[id] = (unsigned char)value;
}

static void free_case(bench_case *c) {
  free(c->atoms);
  free(c->start);
  free(c->acts);
  free(c->goal);
  memset(c, 0, sizeof *c);
}

/* The GPGOAP README example. */
static void case_gpgoap_soldier(bench_case *c) {
  static const char *const atoms[] = {"enemyvisible", "armedwithgun", "weaponloaded",
                                      "enemylinedup", "enemyalive",   "armedwithbomb",
                                      "nearenemy",    "alive"};
  static const int start[] = {0, 1, 0, 0, 1, 1, 0, 1};
  for (int i = 0; i < 8; ++i) set_start(c, atoms[i], start[i]);
  add_action(c, "scout", 1, "armedwithgun", "enemyvisible");
  add_action(c, "approach", 1, "enemyvisible", "nearenemy");
  add_action(c, "aim", 1, "enemyvisible,weaponloaded", "enemylinedup");
  add_action(c, "shoot", 1, "enemylinedup", "!enemyalive");
  add_action(c, "load", 1, "armedwithgun", "weaponloaded");
  add_action(c, "detonatebomb", 5, "armedwithbomb,nearenemy", "!alive,!enemyalive");
  add_action(c, "flee", 1, "enemyvisible", "!nearenemy");
  add_goal(c, "!enemyalive");
  c->optimal = NAN; /* computed by the brute force */
  c->about = "GPGOAP README soldier (8 atoms, 7 actions)";
}

/* The lecture's soldier and the door, default scenario. */
static void case_lecture_soldier(bench_case *c) {
  static const char *const atoms[] = {"in_b",        "has_ammo",    "loaded",      "target_dead",
                                      "door_stuck",  "kick_failed", "armory_empty"};
  for (int i = 0; i < 7; ++i) set_start(c, atoms[i], 0);
  add_action(c, "get_ammo", 1, "!armory_empty", "has_ammo");
  add_action(c, "load_magazine", 1, "has_ammo", "loaded,!has_ammo");
  add_action(c, "open_door", 1, "!door_stuck", "in_b");
  add_action(c, "kick_door", 3, "!kick_failed", "in_b");
  add_action(c, "jump_window", 5, "", "in_b");
  add_action(c, "shoot", 1, "in_b,loaded", "target_dead");
  add_action(c, "punch", 6, "in_b", "target_dead");
  add_goal(c, "target_dead");
  c->optimal = 4.0;
  c->about = "soldier and the door, default scenario";
}

static void case_alma(bench_case *c) {
  static const char *const atoms[] = {"money", "recipe", "full", "atm_broken"};
  for (int i = 0; i < 4; ++i) set_start(c, atoms[i], 0);
  add_action(c, "order_pizza", 2, "money", "full");
  add_action(c, "bake_cake", 8, "recipe", "full");
  add_action(c, "withdraw_money", 3, "!atm_broken", "money");
  add_action(c, "find_recipe", 1, "", "recipe");
  add_goal(c, "full");
  c->optimal = 5.0;
  c->about = "Alma's kitchen (withdraw + pizza)";
}

static void case_chain(bench_case *c, int L, int K) {
  char a[24], b[24], nm[32];
  for (int i = 0; i <= L; ++i) {
    snprintf(a, sizeof a, "c%d", i);
    set_start(c, a, i == 0);
  }
  int sides = K < 20 ? K : 20;
  for (int j = 0; j < sides; ++j) {
    snprintf(a, sizeof a, "side%d", j);
    set_start(c, a, 0);
  }
  for (int i = 1; i <= L; ++i) {
    snprintf(a, sizeof a, "c%d", i - 1);
    snprintf(b, sizeof b, "c%d", i);
    snprintf(nm, sizeof nm, "step_%d", i);
    add_action(c, nm, 1, a, b);
  }
  for (int j = 0; j < K; ++j) {
    snprintf(a, sizeof a, "side%d", j % 20);
    snprintf(nm, sizeof nm, "distract_%d", j);
    add_action(c, nm, 1, "", a);
  }
  snprintf(a, sizeof a, "c%d", L);
  add_goal(c, a);
  c->optimal = (double)L;
  c->about = "chain of L steps, K live distractors";
}

static void case_branch(bench_case *c, int N, int M, int c1, int c2) {
  char a[24], nm[32];
  for (int i = 0; i < M; ++i) {
    snprintf(a, sizeof a, "g%d", i);
    set_start(c, a, 0);
  }
  for (int i = 0; i < M; ++i) {
    snprintf(a, sizeof a, "g%d", i);
    snprintf(nm, sizeof nm, "cheap_%d", i);
    add_action(c, nm, c1, "", a);
    snprintf(nm, sizeof nm, "dear_%d", i);
    add_action(c, nm, c2, "", a);
  }
  for (int i = 0; i < N; ++i) {
    snprintf(a, sizeof a, "g%d", i);
    add_goal(c, a);
  }
  c->optimal = (double)N * c1;
  c->about = "N of M goals, cheap and dear achievers";
}

/* Eight requests round-robin on one planner, as when consecutive requests come from
 * different agents: starts and goals differ. Optimal costs from the brute force. */
static void case_alt_soldier(bench_case *c) {
  case_gpgoap_soldier(c);
  add_alt(c, "", "!enemyalive");
  add_alt(c, "enemyvisible", "!enemyalive");
  add_alt(c, "weaponloaded", "!enemyalive,alive");
  add_alt(c, "!armedwithbomb", "!enemyalive");
  add_alt(c, "nearenemy", "enemylinedup");
  add_alt(c, "enemyvisible,weaponloaded", "!enemyalive,alive");
  add_alt(c, "", "nearenemy,weaponloaded");
  add_alt(c, "enemyvisible,nearenemy", "!nearenemy,enemylinedup");
  c->about = "GPGOAP soldier, 8 starts and goals round-robin";
}

/* The chain, goals {cL, ck} for k = 0..7 (ck lies on the way: every one costs L). */
static void case_alt_chain(bench_case *c, int L) {
  char g[48];
  case_chain(c, L, 0);
  for (int k = 0; k < MAX_ALT; ++k) {
    snprintf(g, sizeof g, "c%d,c%d", L, k);
    add_alt(c, "", g);
  }
  c->about = "chain, 8 goals round-robin";
}

typedef struct case_def {
  char name[48];
  int kind; /* 0 gpgoap, 1 lecture, 2 alma, 3 chain, 4 branch, 5 alt soldier, 6 alt chain */
  int p[4];
} case_def;

static int case_defs(case_def *out) {
  int n = 0;
  static const int Ls[] = {8, 16, 32, 60, 120, 500};
  static const int Ks[] = {0, 20, 60};
  static const int br[][4] = {{10, 20, 1, 2}, {10, 20, 2, 3}, {20, 20, 1, 2},
                              {32, 32, 1, 2}, {64, 128, 1, 2}};
  snprintf(out[n].name, sizeof out[n].name, "gpgoap_soldier");
  out[n++].kind = 0;
  snprintf(out[n].name, sizeof out[n].name, "lecture_soldier");
  out[n++].kind = 1;
  snprintf(out[n].name, sizeof out[n].name, "alma");
  out[n++].kind = 2;
  for (size_t i = 0; i < sizeof Ls / sizeof Ls[0]; ++i) {
    for (size_t k = 0; k < sizeof Ks / sizeof Ks[0]; ++k) {
      snprintf(out[n].name, sizeof out[n].name, "chain_%d_%d", Ls[i], Ks[k]);
      out[n].kind = 3;
      out[n].p[0] = Ls[i];
      out[n++].p[1] = Ks[k];
    }
  }
  for (size_t i = 0; i < sizeof br / sizeof br[0]; ++i) {
    snprintf(out[n].name, sizeof out[n].name, "branch_%d_%d_%d_%d", br[i][0], br[i][1],
             br[i][2], br[i][3]);
    out[n].kind = 4;
    memcpy(out[n].p, br[i], sizeof br[i]);
    ++n;
  }
  static const char *const npc[] = {"npc_40", "npc_40_callbacks", "npc_40_cbconst"};
  for (int k = 0; k < 3; ++k) {
    snprintf(out[n].name, sizeof out[n].name, "%s", npc[k]);
    out[n].kind = 7;
    out[n++].p[0] = k;
  }
  snprintf(out[n].name, sizeof out[n].name, "npc_40_agents_1000");
  out[n++].kind = 8;
  snprintf(out[n].name, sizeof out[n].name, "alt_gpgoap_soldier");
  out[n++].kind = 5;
  snprintf(out[n].name, sizeof out[n].name, "alt_chain_8");
  out[n].kind = 6;
  out[n++].p[0] = 8;
  snprintf(out[n].name, sizeof out[n].name, "alt_chain_60");
  out[n].kind = 6;
  out[n++].p[0] = 60;
  return n;
}

static void make_case(const case_def *def, bench_case *c) {
  memset(c, 0, sizeof *c);
  snprintf(c->name, sizeof c->name, "%s", def->name);
  switch (def->kind) {
  case 0: case_gpgoap_soldier(c); break;
  case 1: case_lecture_soldier(c); break;
  case 2: case_alma(c); break;
  case 3: case_chain(c, def->p[0], def->p[1]); break;
  case 5: case_alt_soldier(c); break;
  case 6: case_alt_chain(c, def->p[0]); break;
  case 8:
    c->optimal = NAN;
    c->about = "1,000 keep guards, distinct memories, one plan cache and planner";
    break;
  case 7: /* examples/npc_40.goap (bench_npc.h) */
    c->optimal = NAN;
    c->about = def->p[0] == 0   ? "keep guard (examples/npc_40.goap), 10 scenarios round-robin"
               : def->p[0] == 1 ? "npc_40 with distance costs and line-of-sight checks"
                                : "npc_40 with callbacks returning the file's costs";
    break;
  default: case_branch(c, def->p[0], def->p[1], def->p[2], def->p[3]); break;
  }
}

/* ------------------------------------------------------------------------------------------
 * Brute force (small cases): Dijkstra over bit-mask states
 * ---------------------------------------------------------------------------------------- */
typedef struct hitem {
  double key;
  uint32_t s;
} hitem;

static double brute_force(const bench_case *c) {
  if (c->natoms > 16) return NAN;
  uint32_t n = 1u << c->natoms, s0 = 0;
  for (int i = 0; i < c->natoms; ++i)
    if (c->start[i]) s0 |= 1u << i;
  double *dist = (double *)xrealloc(NULL, n * sizeof *dist);
  for (uint32_t i = 0; i < n; ++i) dist[i] = INFINITY;
  size_t hn = 0, hcap = 1024;
  hitem *h = (hitem *)xrealloc(NULL, hcap * sizeof *h);
  double best = INFINITY;
  dist[s0] = 0.0;
  h[hn++] = (hitem){0.0, s0};
  while (hn > 0) {
    hitem top = h[0], last = h[--hn];
    size_t i = 0;
    for (;;) { /* sift down */
      size_t ch = 2 * i + 1;
      if (ch >= hn) break;
      if (ch + 1 < hn && h[ch + 1].key < h[ch].key) ++ch;
      if (last.key <= h[ch].key) break;
      h[i] = h[ch];
      i = ch;
    }
    if (hn > 0) h[i] = last;
    if (top.key > dist[top.s]) continue;
    int goal = 1;
    for (int g = 0; g < c->ngoal && goal; ++g)
      goal = (int)((top.s >> c->goal[g].atom) & 1u) == c->goal[g].value;
    if (goal) {
      best = top.key;
      break;
    }
    for (int a = 0; a < c->nact; ++a) {
      const bench_action *act = &c->acts[a];
      int ok = 1;
      for (int k = 0; k < act->npre && ok; ++k)
        ok = (int)((top.s >> act->pre[k].atom) & 1u) == act->pre[k].value;
      if (!ok) continue;
      uint32_t nx = top.s;
      for (int k = 0; k < act->neff; ++k) {
        if (act->eff[k].value)
          nx |= 1u << act->eff[k].atom;
        else
          nx &= ~(1u << act->eff[k].atom);
      }
      double nd = top.key + act->cost;
      if (nd < dist[nx]) {
        dist[nx] = nd;
        if (hn == hcap) {
          hcap *= 2;
          h = (hitem *)xrealloc(h, hcap * sizeof *h);
        }
        size_t j = hn++;
        while (j > 0 && h[(j - 1) / 2].key > nd) {
          h[j] = h[(j - 1) / 2];
          j = (j - 1) / 2;
        }
        h[j] = (hitem){nd, nx};
      }
    }
  }
  free(h);
  free(dist);
  return best;
}

/* ------------------------------------------------------------------------------------------
 * Counting allocator (for the planner)
 * ---------------------------------------------------------------------------------------- */
typedef struct counter {
  uint64_t allocs;
} counter;

static void *counting_fn(void *ctx, void *ptr, size_t old_size, size_t new_size) {
  (void)old_size;
  if (new_size == 0) {
    free(ptr);
    return NULL;
  }
  ((counter *)ctx)->allocs++;
  return realloc(ptr, new_size);
}

/* ------------------------------------------------------------------------------------------
 * Building and running
 * ---------------------------------------------------------------------------------------- */
/* The requests of a case: one, or MAX_ALT round-robin (request i: start + i * W, want + i *
 * wcap, nwant[i] conditions, optimal cost opt[i]). */
#define MAX_REQ 64
typedef struct prepared {
  goap_domain *dom;
  const goap_domain *cdom; /* the domain planned on (dom, or a loaded file's) */
  int nreq;
  size_t W;
  goap_word *start;
  goap_cond *want;
  int wcap;
  int nwant[MAX_REQ];
  double opt[MAX_REQ];
  void *host[MAX_REQ];     /* goap_request.host of each request */
} prepared;

static int prepare(const bench_case *c, prepared *p) {
  memset(p, 0, sizeof *p);
  goap_builder *b = goap_builder_create(NULL);
  if (!b) return 0;
  goap_builder_set_name(b, c->name);
  for (int i = 0; i < c->natoms; ++i) {
    goap_var_desc vd;
    memset(&vd, 0, sizeof vd);
    vd.name = c->atoms[i];
    vd.type = GOAP_BOOL;
    if (goap_builder_add_var(b, &vd, NULL) != GOAP_OK) {
      fprintf(stderr, "%s: add_var %s: %s\n", c->name, vd.name, goap_builder_error(b));
      goap_builder_destroy(b);
      return 0;
    }
  }
  for (int a = 0; a < c->nact; ++a) {
    const bench_action *act = &c->acts[a];
    goap_cond pre[MAX_LITS];
    goap_effect eff[MAX_LITS];
    for (int k = 0; k < act->npre; ++k) {
      pre[k].var = act->pre[k].atom;
      pre[k].op = GOAP_EQ;
      pre[k].value = act->pre[k].value;
    }
    for (int k = 0; k < act->neff; ++k) {
      eff[k].var = act->eff[k].atom;
      eff[k].op = GOAP_SET;
      eff[k].value = act->eff[k].value;
    }
    goap_action_desc ad;
    memset(&ad, 0, sizeof ad);
    ad.name = act->name;
    ad.cost = act->cost;
    ad.pre = pre;
    ad.pre_count = act->npre;
    ad.eff = eff;
    ad.eff_count = act->neff;
    if (goap_builder_add_action(b, &ad, NULL) != GOAP_OK) {
      fprintf(stderr, "%s: add_action %s: %s\n", c->name, ad.name, goap_builder_error(b));
      goap_builder_destroy(b);
      return 0;
    }
  }
  goap_status st = goap_builder_build(b, &p->dom);
  if (st != GOAP_OK) {
    fprintf(stderr, "%s: build: %s: %s\n", c->name, goap_status_name(st), goap_builder_error(b));
    goap_builder_destroy(b);
    return 0;
  }
  goap_builder_destroy(b);
  p->cdom = p->dom;
  size_t nw = goap_domain_state_words(p->dom);
  p->W = nw;
  p->nreq = c->nalt ? c->nalt : 1;
  p->wcap = MAX_LITS > c->ngoal ? MAX_LITS : c->ngoal;
  p->start = (goap_word *)xrealloc(NULL, (size_t)p->nreq * (nw ? nw : 1) * sizeof *p->start);
  p->want = (goap_cond *)xrealloc(NULL, (size_t)p->nreq * (size_t)p->wcap * sizeof *p->want);
  for (int r = 0; r < p->nreq; ++r) {
    goap_word *sv = p->start + (size_t)r * nw;
    goap_cond *w = p->want + (size_t)r * (size_t)p->wcap;
    const lit *goal = c->nalt ? c->alt[r].goal : c->goal;
    int ngoal = c->nalt ? c->alt[r].ngoal : c->ngoal;
    goap_state_init(p->dom, sv);
    for (int i = 0; i < c->natoms; ++i)
      if (goap_state_set(p->dom, sv, i, c->start[i]) != GOAP_OK) return 0;
    for (int k = 0; c->nalt && k < c->alt[r].nmod; ++k)
      if (goap_state_set(p->dom, sv, c->alt[r].mod[k].atom, c->alt[r].mod[k].value) != GOAP_OK)
        return 0;
    for (int g = 0; g < ngoal; ++g) {
      w[g].var = goal[g].atom;
      w[g].op = GOAP_EQ;
      w[g].value = goal[g].value;
    }
    p->nwant[r] = ngoal;
  }
  return 1;
}

static void unprepare(prepared *p) {
  goap_domain_destroy(p->dom);
  free(p->start);
  free(p->want);
  memset(p, 0, sizeof *p);
}

#include "bench_npc.h"

typedef struct options {
  goap_search search;
  goap_heuristic heuristic;
  double weight;
  uint32_t max_nodes;
  int reps;          /* 0: adaptive */
  uint32_t goal_cache; /* goap_planner_desc.goal_cache (0: the library's default) */
  double min_time;   /* seconds per case (adaptive) */
  int json;
  int compare;
  int list;
  const char *filters[16];
  int nfilters;
} options;

typedef struct measurement {
  goap_status status;
  double cost;
  int optimal;
  double ns_per_plan;
  uint64_t expanded, generated;
  uint32_t nodes;
  double allocs_per_plan;
  int plan_length;
  long plans;
  double ns_min, ns_max; /* the fastest and slowest batch */
  int requests;          /* requests per round (1, or the alternating cases') */
  double callbacks_per_plan;
  double hit_rate[2];    /* npc_40_agents_1000: the plan cache's hit rate, frames 1 and 2 */
} measurement;

#define MAX_BATCHES 4096

static int measure(const prepared *pc, goap_search s, goap_heuristic h, const options *o,
                   measurement *m) {
  counter cnt = {0};
  goap_planner_desc pd;
  memset(&pd, 0, sizeof pd);
  pd.allocator.fn = counting_fn;
  pd.allocator.ctx = &cnt;
  pd.goal_cache = o->goal_cache;
  goap_planner *p = goap_planner_create(pc->cdom, &pd);
  if (!p) return 0;
  static goap_request reqs[MAX_REQ];
  for (int i = 0; i < pc->nreq; ++i) {
    goap_request *req = &reqs[i];
    memset(req, 0, sizeof *req);
    req->start = pc->start + (size_t)i * pc->W;
    req->want = pc->want + (size_t)i * (size_t)pc->wcap;
    req->want_count = pc->nwant[i];
    req->search = s;
    req->heuristic = h;
    req->weight = o->weight;
    req->max_nodes = o->max_nodes;
    req->host = pc->host[i];
  }
  static int32_t plan[8192];
  static double cost0[MAX_REQ];
  static goap_status st0[MAX_REQ];
  goap_result r;
  memset(&r, 0, sizeof r);
  r.plan = plan;
  r.plan_capacity = (int)(sizeof plan / sizeof plan[0]);

  /* warm-up: one round of the requests (and the single-plan time estimate); an alternating
   * case reports the sums over the round of cost, expanded and generated */
  memset(m, 0, sizeof *m);
  m->status = GOAP_OK;
  m->optimal = 1;
  double t0 = bench_now_ns();
  for (int i = 0; i < pc->nreq; ++i) {
    goap_plan(p, &reqs[i], &r);
    cost0[i] = r.cost;
    st0[i] = r.status;
    if (r.status != GOAP_OK && m->status == GOAP_OK) m->status = r.status;
    m->cost += r.cost;
    m->expanded += r.stats.expanded;
    m->generated += r.stats.generated;
    if (r.stats.nodes > m->nodes) m->nodes = r.stats.nodes;
    m->plan_length += r.plan_length;
    if (!(r.status == GOAP_OK && !isnan(pc->opt[i]) && fabs(r.cost - pc->opt[i]) <= 1e-9))
      m->optimal = 0;
  }
  double one = (bench_now_ns() - t0) / (double)pc->nreq;
  /* the batch size comes from the median of 7 warm rounds (the first round above is cold) */
  if (o->reps <= 0 && one < 50000.0) {
    double warm[7];
    for (int k = 0; k < 7; ++k) {
      double w0 = bench_now_ns();
      for (int i = 0; i < pc->nreq; ++i) goap_plan(p, &reqs[i], &r);
      warm[k] = (bench_now_ns() - w0) / (double)pc->nreq;
    }
    one = bench_median(warm, 7);
  }

  static double batch_ns[MAX_BATCHES];
  int nb = 0, next = 0, bad = 0;
  long batch = pc->nreq, plans = 0;
  if (o->reps <= 0 && one < 50000.0) batch = (long)(50000.0 / (one > 1.0 ? one : 1.0)) + 1;
  batch = (batch + pc->nreq - 1) / pc->nreq * pc->nreq; /* whole rounds */
  uint64_t allocs_before = cnt.allocs;
  npc_reset_calls(pc);
  double start = bench_now_ns();
  for (;;) {
    if (o->reps > 0) {
      if (nb >= o->reps || nb >= MAX_BATCHES) break;
    } else {
      double elapsed = (bench_now_ns() - start) * 1e-9;
      if (nb >= MAX_BATCHES) break;
      if (nb >= 20 && elapsed >= o->min_time) break;
      if (nb >= 3 && elapsed >= 10.0 * o->min_time) break; /* very slow plans */
    }
    double b0 = bench_now_ns();
    for (long i = 0; i < batch; ++i) {
      goap_plan(p, &reqs[next], &r);
      bad |= r.status != st0[next] || r.cost != cost0[next];
      if (++next == pc->nreq) next = 0;
    }
    double b1 = bench_now_ns();
    batch_ns[nb++] = (b1 - b0) / (double)batch;
    plans += batch;
  }
  m->allocs_per_plan = plans ? (double)(cnt.allocs - allocs_before) / (double)plans : 0.0;
  m->ns_per_plan = nb ? bench_median(batch_ns, nb) : one;
  m->ns_min = nb ? batch_ns[0] : one;
  m->ns_max = nb ? batch_ns[nb - 1] : one;
  m->plans = plans;
  m->requests = pc->nreq;
  m->callbacks_per_plan = plans ? (double)npc_calls(pc) / (double)plans : 0.0;
  /* every timed run must agree with the warm-up */
  if (bad) {
    fprintf(stderr, "goap_bench: planner not deterministic\n");
    m->optimal = 0;
    m->status = GOAP_INVALID_OPERATION;
  }
  goap_planner_destroy(p);
  return 1;
}

/* ------------------------------------------------------------------------------------------
 * Output
 * ---------------------------------------------------------------------------------------- */
static const char *sname(goap_search s) {
  const char *n = goap_search_name(s);
  return n ? n : "?";
}

static const char *hname(goap_heuristic h) {
  const char *n = goap_heuristic_name(h);
  return n ? n : "?";
}

static void print_json(const char *name, goap_search s, goap_heuristic h, const measurement *m) {
  printf("{\"case\": \"%s\", \"search\": \"%s\", \"heuristic\": \"%s\", \"status\": \"%s\", "
         "\"cost\": %.17g, \"optimal\": %s, \"ns_per_plan\": %.1f, \"expanded\": %llu, "
         "\"generated\": %llu, \"nodes\": %u, \"allocs_per_plan\": %.3f, \"plan_length\": %d, "
         "\"plans_timed\": %ld, \"requests\": %d, \"ns_min\": %.1f, \"ns_max\": %.1f, "
         "\"callbacks_per_plan\": %.2f}\n",
         name, sname(s), hname(h), goap_status_name(m->status), m->cost,
         m->optimal ? "true" : "false", m->ns_per_plan, (unsigned long long)m->expanded,
         (unsigned long long)m->generated, m->nodes, m->allocs_per_plan, m->plan_length,
         m->plans, m->requests, m->ns_min, m->ns_max, m->callbacks_per_plan);
  if (m->requests == NPC_AGENTS)
    printf("{\"case\": \"%s\", \"cache_hit_rate_first_frame\": %.4f, "
           "\"cache_hit_rate_second_frame\": %.4f}\n",
           name, m->hit_rate[0], m->hit_rate[1]);
}

/* Microseconds up to 10 ms, so that a column reads in one unit. */
static void format_time(char *buf, size_t cap, double ns) {
  if (ns < 1e7)
    snprintf(buf, cap, "%.3f us", ns / 1e3);
  else
    snprintf(buf, cap, "%.1f ms", ns / 1e6);
}

static void print_row_header(void) {
  printf("%-22s %-18s %-12s %8s %-7s %12s %10s %10s %8s\n", "case", "config", "status", "cost",
         "optimal", "time/plan", "expanded", "generated", "allocs");
  printf("%-22s %-18s %-12s %8s %-7s %12s %10s %10s %8s\n", "----", "------", "------", "----",
         "-------", "---------", "--------", "---------", "------");
}

static void print_row(const char *name, goap_search s, goap_heuristic h, const measurement *m) {
  char cfg[40], t[24];
  snprintf(cfg, sizeof cfg, "%s/%s", sname(s), hname(h));
  format_time(t, sizeof t, m->ns_per_plan);
  printf("%-22s %-18s %-12s %8.6g %-7s %12s %10llu %10llu %8.3g\n", name, cfg,
         goap_status_name(m->status), m->cost, m->optimal ? "yes" : "NO", t,
         (unsigned long long)m->expanded, (unsigned long long)m->generated, m->allocs_per_plan);
}

/* ------------------------------------------------------------------------------------------
 * Main
 * ---------------------------------------------------------------------------------------- */
static void usage(FILE *f) {
  fprintf(f,
          "usage: goap_bench [options]\n"
          "  --search astar|backward|wastar|greedy   search (default: astar)\n"
          "  --heuristic NAME     default|zero|goal-count|goal-count-adm|hmax|hadd|hff|lmcut\n"
          "  --weight W           WASTAR weight (default: the library's)\n"
          "  --case SUBSTR        only cases whose name contains SUBSTR (=NAME: exactly NAME;\n"
          "                       repeatable)\n"
          "  --reps N             exactly N timed plans per case (default: adaptive)\n"
          "  --min-time S         adaptive timing: seconds per case (default 0.2; 0.05 with\n"
          "                       --compare-heuristics)\n"
          "  --max-nodes N        node budget per request (default: none; 200000 with\n"
          "                       --compare-heuristics)\n"
          "  --goal-cache N       goals each planner keeps compiled (default: the library's;\n"
          "                       1: the last goal only)\n"
          "  --json               one JSON object per line\n"
          "  --compare-heuristics every case under every optimal configuration\n"
          "  --list               list the cases\n");
}

static int parse_args(int argc, char **argv, options *o) {
  memset(o, 0, sizeof *o);
  o->min_time = -1.0;
  long max_nodes = -1;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(a, "--json") == 0) {
      o->json = 1;
    } else if (strcmp(a, "--compare-heuristics") == 0) {
      o->compare = 1;
    } else if (strcmp(a, "--list") == 0) {
      o->list = 1;
    } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      usage(stdout);
      exit(0);
    } else if (v && strcmp(a, "--search") == 0) {
      int found = -1;
      for (int s = 0; s < 4; ++s)
        if (strcmp(v, sname((goap_search)s)) == 0) found = s;
      if (found < 0) {
        fprintf(stderr, "goap_bench: unknown search '%s'\n", v);
        return 0;
      }
      o->search = (goap_search)found;
      ++i;
    } else if (v && strcmp(a, "--heuristic") == 0) {
      int hh = goap_heuristic_from_name(v);
      if (hh < 0) {
        fprintf(stderr, "goap_bench: unknown heuristic '%s'\n", v);
        return 0;
      }
      o->heuristic = (goap_heuristic)hh;
      ++i;
    } else if (v && strcmp(a, "--weight") == 0) {
      o->weight = strtod(v, NULL);
      ++i;
    } else if (v && strcmp(a, "--case") == 0) {
      if (o->nfilters < 16) o->filters[o->nfilters++] = v;
      ++i;
    } else if (v && strcmp(a, "--reps") == 0) {
      o->reps = atoi(v);
      if (o->reps < 1) {
        fprintf(stderr, "goap_bench: --reps needs a positive number\n");
        return 0;
      }
      ++i;
    } else if (v && strcmp(a, "--min-time") == 0) {
      o->min_time = strtod(v, NULL);
      ++i;
    } else if (v && strcmp(a, "--goal-cache") == 0) {
      o->goal_cache = (uint32_t)atoi(v);
      ++i;
    } else if (v && strcmp(a, "--max-nodes") == 0) {
      max_nodes = atol(v);
      ++i;
    } else {
      fprintf(stderr, "goap_bench: unknown or incomplete option '%s'\n", a);
      usage(stderr);
      return 0;
    }
  }
  if (o->min_time < 0) o->min_time = o->compare ? 0.05 : 0.2;
  if (max_nodes >= 0)
    o->max_nodes = (uint32_t)max_nodes;
  else
    o->max_nodes = o->compare ? 200000u : 0u;
  return 1;
}

static int selected(const options *o, const char *name) {
  if (o->nfilters == 0) return 1;
  for (int i = 0; i < o->nfilters; ++i)
    if (o->filters[i][0] == '=' ? strcmp(name, o->filters[i] + 1) == 0
                                : strstr(name, o->filters[i]) != NULL)
      return 1;
  return 0;
}

/* Known or brute-forced optimum; NAN if neither. Cross-checks known values on small cases. */
static double case_optimum(const bench_case *c) {
  double bf = brute_force(c);
  if (isnan(c->optimal)) return bf;
  if (!isnan(bf) && fabs(bf - c->optimal) > 1e-9) {
    fprintf(stderr, "goap_bench: case %s: known optimum %g but brute force gives %g\n", c->name,
            c->optimal, bf);
    exit(2);
  }
  return c->optimal;
}

/* The optimum of each request of c into opt (c->nalt of them, or 1); returns their sum. An
 * alternating request's is brute-forced (small cases) or the case's known optimum. */
static double case_optima(const bench_case *c, double *opt) {
  if (!c->nalt) return opt[0] = case_optimum(c);
  double sum = 0.0;
  for (int r = 0; r < c->nalt; ++r) {
    bench_case t = *c;
    unsigned char st[64];
    if (c->natoms <= 16) {
      memcpy(st, c->start, (size_t)c->natoms);
      for (int k = 0; k < c->alt[r].nmod; ++k)
        st[c->alt[r].mod[k].atom] = (unsigned char)c->alt[r].mod[k].value;
      t.start = st;
    }
    lit gl[MAX_LITS];
    memcpy(gl, c->alt[r].goal, sizeof gl);
    t.goal = gl;
    t.ngoal = c->alt[r].ngoal;
    opt[r] = case_optimum(&t);
    sum += opt[r];
  }
  return sum;
}

#define MAX_CASES 64
#define MAX_CONFIGS 24

int main(int argc, char **argv) {
  options o;
  if (!parse_args(argc, argv, &o)) return 2;
  case_def defs[MAX_CASES];
  int ndefs = case_defs(defs);

  if (o.list) {
    for (int i = 0; i < ndefs; ++i) {
      bench_case c;
      make_case(&defs[i], &c);
      double opts[MAX_REQ];
      double opt = 0.0;
      if (defs[i].kind == 7) {
        prepared pc;
        if (npc_prepare(defs[i].p[0], &pc))
          for (int r = 0; r < pc.nreq; ++r) opt += pc.opt[r];
        unprepare(&pc);
      } else {
        opt = case_optima(&c, opts);
      }
      printf("%-22s optimal %-5g atoms %-4d actions %-4d  %s\n", c.name, opt, c.natoms, c.nact,
             c.about);
      free_case(&c);
    }
    return 0;
  }

  goap_search cs[MAX_CONFIGS];
  goap_heuristic ch[MAX_CONFIGS];
  int nconf = 0;
  if (o.compare) {
    for (int s = 0; s < 4; ++s)
      for (int h = 0; h <= (int)GOAP_H_LMCUT; ++h)
        if (goap_config_is_optimal((goap_search)s, (goap_heuristic)h)) {
          cs[nconf] = (goap_search)s;
          ch[nconf++] = (goap_heuristic)h;
        }
  } else {
    cs[0] = o.search;
    ch[0] = o.heuristic;
    nconf = 1;
  }

  static measurement results[MAX_CASES][MAX_CONFIGS];
  const char *names[MAX_CASES];
  static char name_store[MAX_CASES][48];
  int nres = 0, failures = 0;
  if (!o.json && !o.compare) {
    printf("goap_bench: libgoap %s, %s/%s%s\n\n", goap_version(), sname(o.search),
           hname(o.heuristic), o.reps ? "" : " (median of batches)");
    print_row_header();
  }
  for (int i = 0; i < ndefs; ++i) {
    if (!selected(&o, defs[i].name)) continue;
    bench_case c;
    make_case(&defs[i], &c);
    if (defs[i].kind == 8) { /* the crowd: its own measurement (bench_npc.h) */
      npc_crowd_result cr;
      measurement *m = &results[nres][0];
      memset(m, 0, sizeof *m);
      if (!npc_crowd(o.reps > 0 ? o.reps : 7, &cr)) {
        fprintf(stderr, "goap_bench: cannot run %s\n", c.name);
        ++failures;
        free_case(&c);
        continue;
      }
      m->status = cr.planned == NPC_AGENTS ? GOAP_OK : GOAP_NO_PLAN;
      m->cost = cr.cost;
      m->optimal = cr.checked > 0 && cr.optimal == cr.checked;
      m->ns_per_plan = cr.ns_per_agent;
      m->ns_min = cr.ns_min;
      m->ns_max = cr.ns_max;
      m->expanded = cr.expanded;
      m->requests = NPC_AGENTS;
      m->plans = (long)cr.frames * NPC_AGENTS;
      m->allocs_per_plan = -1.0; /* not counted: agents and caches are created per frame */
      m->hit_rate[0] = cr.hit_rate[0];
      m->hit_rate[1] = cr.hit_rate[1];
      if (m->status != GOAP_OK || !m->optimal) ++failures;
      snprintf(name_store[nres], sizeof name_store[0], "%s", c.name);
      names[nres] = name_store[nres];
      ++nres;
      if (o.json)
        print_json(c.name, cs[0], ch[0], m);
      else if (!o.compare) {
        print_row(c.name, cs[0], ch[0], m);
        printf("%-22s plan cache hit rate: %.1f%% of %llu lookups (first frame, distinct "
               "memories), %.1f%% of %llu (second frame); %d sampled plans optimal of %d\n",
               "", 100.0 * cr.hit_rate[0], (unsigned long long)cr.lookups[0],
               100.0 * cr.hit_rate[1], (unsigned long long)cr.lookups[1], cr.optimal,
               cr.checked);
      }
      free_case(&c);
      continue;
    }
    prepared pc;
    if (defs[i].kind == 7 ? !npc_prepare(defs[i].p[0], &pc) : !prepare(&c, &pc)) {
      fprintf(stderr, "goap_bench: cannot build case %s\n", c.name);
      free_case(&c);
      ++failures;
      continue;
    }
    if (defs[i].kind != 7) (void)case_optima(&c, pc.opt);
    snprintf(name_store[nres], sizeof name_store[0], "%s", c.name);
    names[nres] = name_store[nres];
    for (int k = 0; k < nconf; ++k) {
      measurement *m = &results[nres][k];
      if (!measure(&pc, cs[k], ch[k], &o, m)) {
        fprintf(stderr, "goap_bench: cannot create a planner for %s\n", c.name);
        ++failures;
        continue;
      }
      int config_optimal = goap_config_is_optimal(cs[k], ch[k]);
      if (o.compare) {
        if (m->status == GOAP_OK && config_optimal && !m->optimal) ++failures;
      } else {
        if (m->status != GOAP_OK || (config_optimal && !m->optimal)) ++failures;
      }
      if (o.json)
        print_json(c.name, cs[k], ch[k], m);
      else if (!o.compare)
        print_row(c.name, cs[k], ch[k], m);
      fflush(stdout);
    }
    ++nres;
    unprepare(&pc);
    free_case(&c);
  }

  if (o.compare && !o.json) {
    /* table: one row per case, one column per optimal configuration */
    char cell[32];
    printf("median time per plan; NL = node limit (%u nodes), TL = time limit, !! = wrong "
           "optimum\n\n%-22s", o.max_nodes, "case");
    for (int k = 0; k < nconf; ++k) {
      char cfg[40];
      snprintf(cfg, sizeof cfg, "%s/%s", sname(cs[k]), hname(ch[k]));
      printf(" %22s", cfg);
    }
    printf("\n");
    for (int r = 0; r < nres; ++r) {
      printf("%-22s", names[r]);
      for (int k = 0; k < nconf; ++k) {
        const measurement *m = &results[r][k];
        if (m->status == GOAP_OK && m->optimal)
          format_time(cell, sizeof cell, m->ns_per_plan);
        else if (m->status == GOAP_OK)
          snprintf(cell, sizeof cell, "!! cost %g", m->cost);
        else if (m->status == GOAP_NODE_LIMIT)
          snprintf(cell, sizeof cell, "NL");
        else if (m->status == GOAP_TIME_LIMIT)
          snprintf(cell, sizeof cell, "TL");
        else
          snprintf(cell, sizeof cell, "%s", goap_status_name(m->status));
        printf(" %22s", cell);
      }
      printf("\n");
    }
    /* summary: cases solved, and the geometric mean of time relative to the best config of
     * each case (over cases every config solved) */
    printf("\n%-22s", "solved");
    for (int k = 0; k < nconf; ++k) {
      int solved = 0;
      for (int r = 0; r < nres; ++r) solved += results[r][k].status == GOAP_OK;
      snprintf(cell, sizeof cell, "%d/%d", solved, nres);
      printf(" %22s", cell);
    }
    printf("\n%-22s", "geomean vs best");
    for (int k = 0; k < nconf; ++k) {
      double logsum = 0.0;
      int n = 0;
      for (int r = 0; r < nres; ++r) {
        int all = 1;
        double best = INFINITY;
        for (int q = 0; q < nconf; ++q) {
          if (results[r][q].status != GOAP_OK) all = 0;
          if (results[r][q].ns_per_plan < best) best = results[r][q].ns_per_plan;
        }
        if (!all || best <= 0) continue;
        logsum += log(results[r][k].ns_per_plan / best);
        ++n;
      }
      snprintf(cell, sizeof cell, "%.2fx (%d cases)", n ? exp(logsum / n) : 0.0, n);
      printf(" %22s", cell);
    }
    printf("\n%-22s", "total expanded");
    for (int k = 0; k < nconf; ++k) {
      unsigned long long e = 0;
      for (int r = 0; r < nres; ++r) e += results[r][k].expanded;
      printf(" %22llu", e);
    }
    printf("\n");
  }
  if (!o.json && failures)
    fprintf(stderr, "\ngoap_bench: %d case(s) not solved%s\n", failures,
            o.compare ? " with the optimal cost" : " (optimally)");
  if (nres == 0) {
    fprintf(stderr, "goap_bench: no case matches\n");
    return 2;
  }
  return failures ? 1 : 0;
}
