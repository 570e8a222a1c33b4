/*
 * test_goal_cache.c -- the planner's goal cache (planner.c, "goal cache"): requests that
 * alternate goals, start states, cost arrays and callbacks round-robin over one planner give
 * exactly what a fresh planner gives (status, cost, plan, expanded, generated), with the
 * default number of slots and with fewer slots than goals (evictions); a warm planner makes
 * no allocation; a goal seen before is not analysed again (no new selection serial), except
 * in domains with callbacks, whose selection is made again on every request; the want
 * array's address only hints at a slot, the goal's content decides; the micro search's form
 * of a goal is forgotten when the selection serials wrap.
 */
#include <goap/file.h>
#include <goap/goap.h>

#include "alloc_hook.h"
#include "core/goal_cache.h"
#include "core/planner.h"
#include "test.h"

#define MAXREQ 32
#define MAXW 8

typedef struct reqset {
  const goap_domain *d;
  int n;
  goap_word start[MAXREQ][4];
  goap_cond want[MAXREQ][MAXW];
  int nwant[MAXREQ];
  const double *costs[MAXREQ];
  void *host[MAXREQ];
} reqset;

static const goap_search searches[] = {GOAP_SEARCH_ASTAR, GOAP_SEARCH_ASTAR, GOAP_SEARCH_ASTAR,
                                       GOAP_SEARCH_BACKWARD, GOAP_SEARCH_GREEDY};
static const goap_heuristic heurs[] = {GOAP_H_DEFAULT, GOAP_H_MAX, GOAP_H_LMCUT, GOAP_H_DEFAULT,
                                       GOAP_H_FF};
#define NCONF 5

static void fill_req(const reqset *rs, int i, int conf, goap_request *r) {
  memset(r, 0, sizeof *r);
  r->start = rs->start[i];
  r->want = rs->want[i];
  r->want_count = rs->nwant[i];
  r->costs = rs->costs[i];
  r->host = rs->host[i];
  r->search = searches[conf];
  r->heuristic = heurs[conf];
}

typedef struct outcome {
  goap_status st;
  double cost;
  int len;
  int32_t plan[64];
  uint64_t expanded, generated;
} outcome;

static void run(goap_planner *p, const goap_request *r, outcome *o) {
  goap_result res;
  memset(&res, 0, sizeof res);
  res.plan = o->plan;
  res.plan_capacity = 64;
  o->st = goap_plan(p, r, &res);
  o->cost = res.cost;
  o->len = res.plan_length;
  o->expanded = res.stats.expanded;
  o->generated = res.stats.generated;
}

static int same(const outcome *a, const outcome *b) {
  if (a->st != b->st || a->len != b->len || a->expanded != b->expanded ||
      a->generated != b->generated)
    return 0;
  if (a->st == GOAP_OK && a->cost != b->cost) return 0;
  for (int k = 0; a->st == GOAP_OK && k < a->len && k < 64; ++k)
    if (a->plan[k] != b->plan[k]) return 0;
  return 1;
}

/* Every request of rs, round-robin (3 rounds, a different order in the second), on one planner
 * with `slots` cache slots, against a fresh planner per request; then the warm planner must not
 * allocate over two more rounds. Returns the failures. */
static int check_rounds(const reqset *rs, uint32_t slots, int *test_failures_) {
  int before = *test_failures_;
  for (int conf = 0; conf < NCONF; ++conf) {
    test_alloc ta = {0};
    goap_planner_desc pd;
    memset(&pd, 0, sizeof pd);
    pd.allocator = test_alloc_hook(&ta);
    pd.goal_cache = slots;
    goap_planner *p = NULL;
    CHECK(goap_planner_create(rs->d, &pd, &p) == GOAP_OK);
    if (!p) return 1;
    for (int round = 0; round < 5; ++round) {
      if (round == 3) ta.calls = 0; /* warm: rounds 3 and 4 must not allocate */
      for (int k = 0; k < rs->n; ++k) {
        int i = round == 1 ? rs->n - 1 - k : (k * 7 + round) % rs->n;
        if (round != 1 && rs->n % 7 == 0) i = k;
        goap_request r;
        fill_req(rs, i, conf, &r);
        outcome a, b;
        run(p, &r, &a);
        goap_planner *q = NULL;
        CHECK(goap_planner_create(rs->d, NULL, &q) == GOAP_OK);
        if (!q) return 1;
        run(q, &r, &b);
        goap_planner_destroy(q);
        if (!same(&a, &b)) {
          fprintf(stderr, "config %d round %d request %d: %s cost %g exp %llu vs fresh %s cost %g exp %llu\n",
                  conf, round, i, goap_status_name(a.st), a.cost, (unsigned long long)a.expanded,
                  goap_status_name(b.st), b.cost, (unsigned long long)b.expanded);
          CHECK(0);
        }
      }
    }
    CHECK_EQ_INT(ta.calls, 0);
    goap_planner_destroy(p);
    CHECK_EQ_INT(ta.outstanding, 0);
    CHECK_EQ_INT(ta.bad_old_size, 0);
  }
  return *test_failures_ - before;
}

/* The requests of a file's scenarios (want or pursue; given on the defaults). */
static int file_requests(const goap_file *f, reqset *rs) {
  const goap_domain *d = goap_file_domain(f);
  rs->d = d;
  for (int s = 0; s < goap_file_scenario_count(f) && rs->n < MAXREQ; ++s) {
    const goap_scenario *sc = goap_file_scenario(f, s);
    if (sc->task >= 0 || sc->want_count > MAXW) continue;
    int i = rs->n++;
    goap_state_init(d, rs->start[i]);
    if (goap_state_assign(d, rs->start[i], sc->given, sc->given_count) != GOAP_OK) return 0;
    memcpy(rs->want[i], sc->want, (size_t)sc->want_count * sizeof *sc->want);
    rs->nwant[i] = sc->want_count;
  }
  return 1;
}

static goap_file *load(const char *name) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", GOAP_EXAMPLES_DIR, name);
  goap_file *f = NULL;
  goap_error err;
  if (goap_file_load(path, NULL, &f, &err) != GOAP_OK) return NULL;
  return f;
}

/* soldier.goap and alma.goap: every scenario, with the default cache and with 2 slots (fewer
 * than the goals: every miss evicts), and with 1 (the last goal only). */
TEST(example_files_round_robin) {
  static const char *const files[] = {"soldier.goap", "alma.goap", "trunk_thumper.goap"};
  for (size_t k = 0; k < sizeof files / sizeof files[0]; ++k) {
    goap_file *f = load(files[k]);
    REQUIRE(f != NULL);
    static reqset rs;
    memset(&rs, 0, sizeof rs);
    REQUIRE(file_requests(f, &rs));
    if (rs.n == 0) {
      goap_file_destroy(f);
      continue;
    }
    /* the same goals again from other starts: the first request's start for every goal */
    int n0 = rs.n;
    for (int i = 0; i < n0 && rs.n < MAXREQ; ++i) {
      int j = rs.n++;
      memcpy(rs.start[j], rs.start[(i + 1) % n0], sizeof rs.start[j]);
      memcpy(rs.want[j], rs.want[i], sizeof rs.want[j]);
      rs.nwant[j] = rs.nwant[i];
    }
    CHECK_EQ_INT(check_rounds(&rs, 0, test_failures_), 0);
    CHECK_EQ_INT(check_rounds(&rs, 2, test_failures_), 0);
    CHECK_EQ_INT(check_rounds(&rs, 1, test_failures_), 0);
    goap_file_destroy(f);
  }
}

/* A chain of L bool steps (one word for L < 64: small mode; two words above) with goals {cL,
 * ck}, starts with c0 and one ck, and request cost arrays (two arrays and none, alternating). */
static goap_domain *chain(int L) {
  goap_builder *b = NULL;
  goap_builder_create(NULL, &b);
  char nm[32];
  for (int i = 0; i <= L; ++i) {
    goap_var_desc v;
    memset(&v, 0, sizeof v);
    snprintf(nm, sizeof nm, "c%d", i);
    v.name = nm;
    v.type = GOAP_BOOL;
    goap_builder_add_var(b, &v, NULL);
  }
  for (int i = 1; i <= L; ++i) {
    goap_cond pre = {i - 1, GOAP_EQ, 1};
    goap_effect eff = {i, GOAP_SET, 1};
    goap_action_desc a;
    memset(&a, 0, sizeof a);
    snprintf(nm, sizeof nm, "step_%d", i);
    a.name = nm;
    a.cost = 1.0;
    a.pre = &pre;
    a.pre_count = 1;
    a.eff = &eff;
    a.eff_count = 1;
    goap_builder_add_action(b, &a, NULL);
    if (i % 3 == 0 && i <= 9) { /* a dear shortcut over two steps (a few: each one doubles
                                    the states a weak heuristic may visit) */
      goap_cond pre2 = {i - 2 > 0 ? i - 3 : 0, GOAP_EQ, 1};
      snprintf(nm, sizeof nm, "jump_%d", i);
      a.cost = 2.5;
      a.pre = &pre2;
      goap_builder_add_action(b, &a, NULL);
    }
  }
  goap_domain *d = NULL;
  goap_builder_build(b, &d);
  goap_builder_destroy(b);
  return d;
}

TEST(chains_goals_starts_costs) {
  static const int Ls[] = {12, 40, 70};
  for (size_t t = 0; t < sizeof Ls / sizeof Ls[0]; ++t) {
    int L = Ls[t];
    goap_domain *d = chain(L);
    REQUIRE(d != NULL);
    int A = goap_domain_action_count(d);
    static double ca[256], cb[256];
    for (int a = 0; a < A && a < 256; ++a) {
      ca[a] = 1.0 + (a % 3);
      /* negative: the action may not be used (only shortcuts: every goal stays reachable,
       * since a search that proves a goal unreachable here visits 2^L states) */
      cb[a] = goap_domain_action_name(d, a)[0] == 'j' && a % 2 ? -1.0 : 1.5;
    }
    static reqset rs;
    memset(&rs, 0, sizeof rs);
    rs.d = d;
    for (int i = 0; i < 12; ++i) {
      goap_state_init(d, rs.start[i]);
      goap_state_set(d, rs.start[i], 0, 1);
      goap_state_set(d, rs.start[i], (i * 5) % (L / 2), 1);
      rs.want[i][0] = (goap_cond){L - (i % 4), GOAP_EQ, 1};
      rs.want[i][1] = (goap_cond){i % 6 + 1, GOAP_EQ, 1};
      rs.nwant[i] = 1 + (i % 3 != 0);
      rs.costs[i] = i % 3 == 1 ? ca : i % 3 == 2 ? cb : NULL;
    }
    rs.n = 12;
    CHECK_EQ_INT(check_rounds(&rs, 0, test_failures_), 0);
    CHECK_EQ_INT(check_rounds(&rs, 3, test_failures_), 0);
    goap_domain_destroy(d);
  }
}

/* A goal seen before is served from the cache: no new selection (the planner's serial stays),
 * and the selection it restores is the one its goal made. Fails without the cache. */
TEST(seen_goals_are_not_analysed_again) {
  goap_domain *d = chain(30);
  REQUIRE(d != NULL);
  goap_planner *p = NULL;
  REQUIRE(goap_planner_create(d, NULL, &p) == GOAP_OK);
  CHECK(p->ngslots >= 8);
  goap_word s[4];
  goap_state_init(d, s);
  goap_state_set(d, s, 0, 1);
  goap_cond want[8][1];
  int nactive[8];
  for (int round = 0; round < 3; ++round) {
    uint32_t before = p->serial_last;
    for (int g = 0; g < 8; ++g) {
      want[g][0] = (goap_cond){30 - g, GOAP_EQ, 1};
      goap_request r;
      memset(&r, 0, sizeof r);
      r.start = s;
      r.want = want[g];
      r.want_count = 1;
      goap_result res;
      int32_t plan[64];
      memset(&res, 0, sizeof res);
      res.plan = plan;
      res.plan_capacity = 64;
      CHECK_EQ_INT(goap_plan(p, &r, &res), GOAP_OK);
      if (round == 0) nactive[g] = p->nactive;
      else CHECK_EQ_INT(p->nactive, nactive[g]);
    }
    if (round == 0) CHECK_EQ_INT(p->serial_last - before, 8);
    else CHECK_EQ_INT(p->serial_last - before, 0);
  }
  /* with one slot, each change of goal is a new selection */
  goap_planner_desc pd;
  memset(&pd, 0, sizeof pd);
  pd.goal_cache = 1;
  goap_planner *q = NULL;
  REQUIRE(goap_planner_create(d, &pd, &q) == GOAP_OK);
  CHECK_EQ_INT(q->ngslots, 1);
  for (int round = 0; round < 2; ++round)
    for (int g = 0; g < 8; ++g) {
      goap_request r;
      memset(&r, 0, sizeof r);
      r.start = s;
      r.want = want[g];
      r.want_count = 1;
      goap_result res;
      int32_t plan[64];
      memset(&res, 0, sizeof res);
      res.plan = plan;
      res.plan_capacity = 64;
      CHECK_EQ_INT(goap_plan(q, &r, &res), GOAP_OK);
    }
  CHECK_EQ_INT(q->serial_last, 16);
  goap_planner_destroy(q);
  goap_planner_destroy(p);
  goap_domain_destroy(d);
}

/* The want array's address is a hint (goal_cache.c, gslot_hint), never the key: one array whose
 * content the caller rewrites between requests gets each goal's own selection and plan (as a
 * fresh planner gives), two arrays with one content share a slot, and a request whose array
 * was last seen with another goal is found by its content. Fails if the hint were trusted
 * without comparing the goal. */
TEST(want_address_is_a_hint_not_the_key) {
  goap_domain *d = chain(30);
  REQUIRE(d != NULL);
  goap_planner *p = NULL;
  REQUIRE(goap_planner_create(d, NULL, &p) == GOAP_OK);
  goap_word s[4];
  goap_state_init(d, s);
  goap_state_set(d, s, 0, 1);
  goap_cond w[1], w2[1];
  for (int round = 0; round < 3; ++round) {
    uint32_t before = p->serial_last;
    for (int g = 0; g < 8; ++g) {
      w[0] = (goap_cond){30 - g, GOAP_EQ, 1}; /* the same array, another goal */
      goap_request r;
      memset(&r, 0, sizeof r);
      r.start = s;
      r.want = w;
      r.want_count = 1;
      /* the hint names the slot of the array's last goal: not this one's */
      if (round > 0) CHECK_EQ_INT(goap__gslot_hinted(p, &r, 0), -1);
      outcome a, b;
      run(p, &r, &a);
      CHECK_EQ_INT(a.st, GOAP_OK);
      goap_planner *q = NULL;
      REQUIRE(goap_planner_create(d, NULL, &q) == GOAP_OK);
      run(q, &r, &b);
      goap_planner_destroy(q);
      CHECK(same(&a, &b));
      /* now it names this goal's slot */
      CHECK_EQ_INT(goap__gslot_hinted(p, &r, 0), p->gslot_current);
      /* another array, same content: the same slot, no new selection */
      w2[0] = w[0];
      uint32_t serial = p->serial_last;
      int slot = p->gslot_current;
      r.want = w2;
      run(p, &r, &b);
      CHECK(same(&a, &b));
      CHECK_EQ_INT(p->gslot_current, slot);
      CHECK_EQ_INT(p->serial_last, serial);
    }
    /* by content: 8 selections in the first round, none after */
    CHECK_EQ_INT(p->serial_last - before, round == 0 ? 8 : 0);
  }
  goap_planner_destroy(p);
  goap_domain_destroy(d);
}

/* Callbacks: the check reads the host, so the callbacks are asked on every request (a cached
 * selection would keep the answer of the first request); when they all accept as before, the
 * selection stands; a refusal or another cost makes it again. */
typedef struct host {
  int blocked; /* the shortcut's check fails */
  double far;  /* the dynamic cost of step 1 */
  int calls;
} host;

static int check_cb(void *h, int action, void *user) {
  (void)action;
  (void)user;
  host *x = (host *)h;
  ++x->calls;
  return !x->blocked;
}

static double cost_cb(void *h, int action, void *user) {
  (void)action;
  (void)user;
  host *x = (host *)h;
  ++x->calls;
  return x->far;
}

TEST(callbacks_are_asked_on_every_request) {
  goap_builder *b = NULL;
  REQUIRE(goap_builder_create(NULL, &b) == GOAP_OK);
  static const char *const names[] = {"a", "b", "c"};
  for (int i = 0; i < 3; ++i) {
    goap_var_desc v;
    memset(&v, 0, sizeof v);
    v.name = names[i];
    v.type = GOAP_BOOL;
    goap_builder_add_var(b, &v, NULL);
  }
  goap_cond pa = {0, GOAP_EQ, 1}, pb = {1, GOAP_EQ, 1};
  goap_effect eb = {1, GOAP_SET, 1}, ec = {2, GOAP_SET, 1};
  goap_action_desc ad;
  memset(&ad, 0, sizeof ad);
  ad.name = "step1"; /* a -> b, dynamic cost */
  ad.cost = 1;
  ad.pre = &pa;
  ad.pre_count = 1;
  ad.eff = &eb;
  ad.eff_count = 1;
  ad.dynamic_cost = cost_cb;
  goap_builder_add_action(b, &ad, NULL);
  ad.dynamic_cost = NULL;
  ad.name = "step2"; /* b -> c */
  ad.pre = &pb;
  ad.eff = &ec;
  goap_builder_add_action(b, &ad, NULL);
  ad.name = "shortcut"; /* a -> c, cost 3, procedural check */
  ad.cost = 3;
  ad.pre = &pa;
  ad.check = check_cb;
  goap_builder_add_action(b, &ad, NULL);
  goap_domain *d = NULL;
  REQUIRE(goap_builder_build(b, &d) == GOAP_OK);
  goap_builder_destroy(b);
  static reqset rs;
  memset(&rs, 0, sizeof rs);
  rs.d = d;
  static host hosts[4] = {{0, 1.0, 0}, {1, 1.0, 0}, {0, 5.0, 0}, {1, 5.0, 0}};
  for (int i = 0; i < 8; ++i) {
    goap_state_init(d, rs.start[i]);
    goap_state_set(d, rs.start[i], 0, 1);
    rs.want[i][0] = (goap_cond){2, GOAP_EQ, 1};
    rs.nwant[i] = 1;
    rs.host[i] = &hosts[i % 4];
  }
  rs.n = 8;
  CHECK_EQ_INT(check_rounds(&rs, 0, test_failures_), 0);
  /* the plans follow the host: step1 step2 (2), step1 step2 (2), shortcut (3), step1 step2 (6) */
  goap_planner *p = NULL;
  REQUIRE(goap_planner_create(d, NULL, &p) == GOAP_OK);
  static const double want_cost[4] = {2, 2, 3, 6};
  for (int round = 0; round < 2; ++round)
    for (int i = 0; i < 4; ++i) {
      goap_request r;
      fill_req(&rs, i, 0, &r);
      int calls = hosts[i].calls;
      outcome o;
      run(p, &r, &o);
      CHECK_EQ_INT(o.st, GOAP_OK);
      CHECK_NEAR(o.cost, want_cost[i], 1e-12);
      CHECK_EQ_INT(hosts[i].calls - calls, 2); /* once per callback, every request */
    }
  /* the same answers as the last request: the selection stands (no new serial); another
   * cost: a new one, over the same actions */
  goap_request r;
  fill_req(&rs, 0, 0, &r);
  outcome o;
  run(p, &r, &o);
  uint32_t serial = p->serial_last;
  int nact = p->nactive;
  run(p, &r, &o);
  CHECK_EQ_INT(p->serial_last, serial);
  CHECK_NEAR(o.cost, 2.0, 1e-12);
  hosts[0].far = 2.0;
  run(p, &r, &o);
  CHECK_EQ_INT(p->serial_last, serial + 1);
  CHECK_EQ_INT(p->nactive, nact);
  CHECK_NEAR(o.cost, 3.0, 1e-12);
  hosts[0].far = 1.0;
  goap_planner_destroy(p);
  goap_domain_destroy(d);
}

/* The micro search's form of a goal (goap__microgoal) is kept with the goal's slot under the
 * selection's serial; when the serials wrap, it is forgotten with everything else, so a new
 * selection that gets the serial of an old one in the same slot does not take the old goal's
 * tables (it would take bit 0's goal for bit 2's). */
TEST(micro_goal_forgotten_when_serials_wrap) {
  goap_builder *b = NULL;
  REQUIRE(goap_builder_create(NULL, &b) == GOAP_OK);
  static const char *const names[] = {"b0", "b1", "b2"};
  for (int v = 0; v < 3; ++v) {
    goap_var_desc vd;
    memset(&vd, 0, sizeof vd);
    vd.name = names[v];
    vd.type = GOAP_BOOL;
    REQUIRE(goap_builder_add_var(b, &vd, NULL) == GOAP_OK);
  }
  static const char *const acts[] = {"s0", "s1", "s2"};
  for (int a = 0; a < 3; ++a) { /* s0: b0; s1: b0 -> b1; s2: b1 -> b2 */
    goap_cond pre = {a - 1, GOAP_EQ, 1};
    goap_effect eff = {a, GOAP_SET, 1};
    goap_action_desc ad;
    memset(&ad, 0, sizeof ad);
    ad.name = acts[a];
    ad.cost = 1.0;
    ad.pre = &pre;
    ad.pre_count = a > 0;
    ad.eff = &eff;
    ad.eff_count = 1;
    REQUIRE(goap_builder_add_action(b, &ad, NULL) == GOAP_OK);
  }
  goap_domain *d = NULL;
  REQUIRE(goap_builder_build(b, &d) == GOAP_OK);
  goap_builder_destroy(b);
  goap_planner *p = NULL;
  REQUIRE(goap_planner_create(d, NULL, &p) == GOAP_OK);
  goap_word start[1];
  goap_state_init(d, start);
  goap_cond w0 = {0, GOAP_EQ, 1}, w1 = {1, GOAP_EQ, 1}, w2 = {2, GOAP_EQ, 1};
  goap_request r;
  memset(&r, 0, sizeof r);
  r.start = start;
  r.want_count = 1;
  int32_t plan[8];
  goap_result res;
  memset(&res, 0, sizeof res);
  res.plan = plan;
  res.plan_capacity = 8;
  goap_cond w01[2] = {{0, GOAP_EQ, 1}, {1, GOAP_EQ, 1}};
  /* b1 in slot 0 (the small search: the pools are not yet the micro search's) */
  r.want = &w1;
  CHECK_EQ_INT(goap_plan(p, &r, &res), GOAP_OK);
  /* b0 in slot 1 under the last serial, planned by the micro search */
  p->serial_last = UINT32_MAX - 1;
  r.want = &w0;
  CHECK_EQ_INT(goap_plan(p, &r, &res), GOAP_OK);
  CHECK_EQ_INT(p->small_search.micro_done, 1);
  CHECK_EQ_INT(p->gslot_current, 1);
  CHECK_EQ_INT(p->gslots[1].mg.serial, UINT32_MAX);
  /* b0 and b1 wrap the serials (slot 2); b1 again fills slot 0 */
  r.want = w01;
  r.want_count = 2;
  CHECK_EQ_INT(goap_plan(p, &r, &res), GOAP_OK);
  CHECK_EQ_INT(p->goal_serial, 1);
  CHECK_EQ_INT(p->gslot_current, 2);
  r.want = &w1;
  r.want_count = 1;
  CHECK_EQ_INT(goap_plan(p, &r, &res), GOAP_OK);
  CHECK_EQ_INT(p->gslot_current, 0);
  /* as if 2^32 selections later: b2 gets the last serial again, in slot 1 */
  p->serial_last = UINT32_MAX - 1;
  r.want = &w2;
  CHECK_EQ_INT(goap_plan(p, &r, &res), GOAP_OK);
  CHECK_EQ_INT(p->small_search.micro_done, 1);
  CHECK_EQ_INT(p->gslot_current, 1);
  CHECK_EQ_INT(p->goal_serial, UINT32_MAX);
  CHECK_EQ_INT(res.plan_length, 3);
  CHECK_NEAR(res.cost, 3.0, 1e-12);
  goap_planner_destroy(p);
  goap_domain_destroy(d);
}

TEST_MAIN(TEST_ENTRY(example_files_round_robin), TEST_ENTRY(micro_goal_forgotten_when_serials_wrap), TEST_ENTRY(chains_goals_starts_costs),
          TEST_ENTRY(seen_goals_are_not_analysed_again),
          TEST_ENTRY(want_address_is_a_hint_not_the_key),
          TEST_ENTRY(callbacks_are_asked_on_every_request))
