/*
 * bench_cases.h -- goap_bench's cases (bench/bench.c) as code both it and the browser bench
 * (web/src/bench.c) build from: bool atoms, actions with literal preconditions and effects,
 * a goal, or MAX_ALT requests planned round-robin (the alternating cases); case_defs() lists
 * them by name (the npc_40 cases too, which only goap_bench builds: kinds 7 and 8, from
 * bench_npc.h), make_case() builds one, prepare() turns it into a
 * domain, start states and goals through the builder API.
 *
 * The includer includes <goap/goap.h>, <math.h>, <stdio.h>, <stdlib.h> and
 * <string.h> first.
 * Out of memory ends the program (xrealloc): these are benchmarks. Functions are static: each
 * program has its own copy; all of them are used by both includers.
 */
#ifndef GOAP_BENCH_CASES_H
#define GOAP_BENCH_CASES_H

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
  static const char *const npc[] = {"npc_40", "npc_40_callbacks", "npc_40_cbconst",
                                    "npc_40_positional", "npc_40_posconst"};
  for (int k = 0; k < 5; ++k) {
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
               : def->p[0] == 2 ? "npc_40 with callbacks returning the file's costs"
               : def->p[0] == 3 ? "npc_40, walks priced from the state's place (state costs)"
                                : "npc_40 with state costs returning the file's costs";
    break;
  default: case_branch(c, def->p[0], def->p[1], def->p[2], def->p[3]); break;
  }
}

/* ------------------------------------------------------------------------------------------
 * Building a case's domain and requests
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
  goap_builder *b = NULL;
  if (goap_builder_create(NULL, &b) != GOAP_OK) return 0;
  goap_builder_set_name(b, c->name);
  for (int i = 0; i < c->natoms; ++i) {
    goap_var_desc vd;
    memset(&vd, 0, sizeof vd);
    vd.name = c->atoms[i];
    vd.type = GOAP_BOOL;
    if (goap_builder_add_var(b, &vd, NULL) != GOAP_OK) {
      fprintf(stderr, "%s: add_var %s: %s\n", c->name, vd.name, goap_builder_error(b)->message);
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
      fprintf(stderr, "%s: add_action %s: %s\n", c->name, ad.name, goap_builder_error(b)->message);
      goap_builder_destroy(b);
      return 0;
    }
  }
  goap_status st = goap_builder_build(b, &p->dom);
  if (st != GOAP_OK) {
    fprintf(stderr, "%s: build: %s: %s\n", c->name, goap_status_name(st), goap_builder_error(b)->message);
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

#endif /* GOAP_BENCH_CASES_H */
