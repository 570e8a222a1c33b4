/*
 * test_api_shape.c -- the API's one constructor shape and one error shape (goap/goap.h):
 * every constructor refuses out == NULL with GOAP_INVALID_ARGUMENT and leaves *out NULL when it
 * fails (allocation failures injected with alloc_hook.h); every function with a goap_error
 * fills it on failure (the status it returns, a message) and clears it on success (GOAP_OK,
 * ""); goap_error_format prints positioned and unpositioned errors.
 */
#include <goap/agent.h>
#include <goap/file.h>
#include <goap/htn.h>
#include <goap/pddl.h>
#include <goap/replay.h>
#include <goap/save.h>
#include <goap/sched.h>
#include <goap/squad.h>
#include <goap/tactics.h>
#include <goap/world.h>

#include <stdio.h>
#include <string.h>

#include "alloc_hook.h"
#include "test.h"

static const char *const text = "var armed: bool\n"
                                "action arm\n  cost 1\n  eff armed\n"
                                "goal ready\n  priority 1\n  want armed\n";

static goap_file *parse(void) {
  goap_file *f = NULL;
  return goap_file_parse("shape.goap", text, strlen(text), NULL, &f, NULL) == GOAP_OK ? f : NULL;
}

/* An error full of leftovers, as a reused goap_error would be. */
static void dirty(goap_error *e) {
  memset(e, 'x', sizeof *e);
  e->status = GOAP_CORRUPT;
  e->message[sizeof e->message - 1] = '\0';
}

static int cleared(const goap_error *e) { return e->status == GOAP_OK && e->message[0] == '\0'; }

static int filled(const goap_error *e, goap_status st) {
  return e->status == st && e->message[0] != '\0' && strlen(e->message) < sizeof e->message;
}

/* A pointer value no create returns: a failing create must overwrite it with NULL. */
static char junk_;
#define JUNK(T) ((T *)(void *)&junk_)

typedef struct sink_buf {
  unsigned char data[4096];
  size_t n;
} sink_buf;

static int sink(void *user, const void *data, size_t size) {
  sink_buf *b = (sink_buf *)user;
  if (b->n + size > sizeof b->data) return 1;
  memcpy(b->data + b->n, data, size);
  b->n += size;
  return 0;
}

/* A log of one agent's few updates over f's domain. */
static size_t record(const goap_file *f, const goap_agent_type *t, sink_buf *log) {
  goap_recorder_desc rd;
  memset(&rd, 0, sizeof rd);
  rd.domain = goap_file_domain(f);
  rd.sink = sink;
  rd.sink_user = log;
  goap_recorder *rec = NULL;
  if (goap_recorder_create(&rd, &rec) != GOAP_OK) return 0;
  goap_agent_desc ad;
  memset(&ad, 0, sizeof ad);
  ad.type = t;
  goap_agent *a = NULL;
  int ok = goap_agent_create(&ad, &a, NULL) == GOAP_OK && goap_recorder_attach(rec, a) == GOAP_OK;
  for (int i = 0; i < 3 && ok; ++i) ok = goap_agent_update(a, 0.1) != GOAP_INVALID_ARGUMENT;
  ok = ok && goap_recorder_finish(rec) == GOAP_OK;
  goap_agent_destroy(a);
  goap_recorder_destroy(rec);
  return ok ? log->n : 0;
}

TEST(constructors_refuse_a_null_out) {
  goap_file *f = parse();
  REQUIRE(f != NULL);
  const goap_domain *d = goap_file_domain(f);
  goap_error e;
  /* the core */
  goap_builder *b = NULL;
  CHECK_EQ_INT(goap_builder_create(NULL, NULL), GOAP_INVALID_ARGUMENT);
  REQUIRE(goap_builder_create(NULL, &b) == GOAP_OK);
  CHECK_EQ_INT(goap_builder_build(b, NULL), GOAP_INVALID_ARGUMENT);
  CHECK(filled(goap_builder_error(b), GOAP_INVALID_ARGUMENT));
  goap_builder_destroy(b);
  CHECK_EQ_INT(goap_planner_create(d, NULL, NULL), GOAP_INVALID_ARGUMENT);
  /* HTN */
  goap_htn_builder *hb = NULL;
  CHECK_EQ_INT(goap_htn_builder_create(d, NULL, NULL), GOAP_INVALID_ARGUMENT);
  REQUIRE(goap_htn_builder_create(d, NULL, &hb) == GOAP_OK);
  int task = -1;
  REQUIRE(goap_htn_builder_add_task(hb, "idle", &task) == GOAP_OK);
  goap_htn_method_desc md;
  memset(&md, 0, sizeof md);
  md.name = "rest";
  REQUIRE(goap_htn_builder_add_method(hb, task, &md, NULL) == GOAP_OK);
  CHECK_EQ_INT(goap_htn_builder_build(hb, NULL), GOAP_INVALID_ARGUMENT);
  goap_htn_domain *h = NULL;
  REQUIRE(goap_htn_builder_build(hb, &h) == GOAP_OK);
  CHECK_EQ_INT(goap_htn_planner_create(h, NULL, NULL), GOAP_INVALID_ARGUMENT);
  goap_htn_domain_destroy(h);
  goap_htn_builder_destroy(hb);
  /* the runtime */
  CHECK_EQ_INT(goap_blackboard_create(NULL, NULL), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_plan_cache_create(NULL, 16, NULL), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_squad_create(NULL, NULL), GOAP_INVALID_ARGUMENT);
  goap_agent_type_desc td;
  memset(&td, 0, sizeof td);
  dirty(&e);
  CHECK_EQ_INT(goap_agent_type_create(d, &td, NULL, &e), GOAP_INVALID_ARGUMENT);
  CHECK(filled(&e, GOAP_INVALID_ARGUMENT));
  goap_agent_type *t = NULL;
  REQUIRE(goap_agent_type_create(d, &td, &t, NULL) == GOAP_OK);
  goap_agent_desc ad;
  memset(&ad, 0, sizeof ad);
  ad.type = t;
  dirty(&e);
  CHECK_EQ_INT(goap_agent_create(&ad, NULL, &e), GOAP_INVALID_ARGUMENT);
  CHECK(filled(&e, GOAP_INVALID_ARGUMENT));
  goap_world_desc wd;
  memset(&wd, 0, sizeof wd);
  CHECK_EQ_INT(goap_world_create(&wd, NULL), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_sched_create(NULL, NULL), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_workers_create(0, NULL, NULL), GOAP_INVALID_ARGUMENT);
  sink_buf log;
  memset(&log, 0, sizeof log);
  goap_recorder_desc rcd;
  memset(&rcd, 0, sizeof rcd);
  rcd.domain = d;
  rcd.sink = sink;
  rcd.sink_user = &log;
  CHECK_EQ_INT(goap_recorder_create(&rcd, NULL), GOAP_INVALID_ARGUMENT);
  REQUIRE(record(f, t, &log) > 0);
  goap_replayer_desc rpd;
  memset(&rpd, 0, sizeof rpd);
  rpd.domain = d;
  rpd.log = log.data;
  rpd.size = log.n;
  dirty(&e);
  CHECK_EQ_INT(goap_replayer_create(&rpd, NULL, &e), GOAP_INVALID_ARGUMENT);
  CHECK(filled(&e, GOAP_INVALID_ARGUMENT));
  /* the front ends and tactics */
  dirty(&e);
  CHECK_EQ_INT(goap_file_parse("x.goap", text, strlen(text), NULL, NULL, &e),
               GOAP_INVALID_ARGUMENT);
  CHECK(filled(&e, GOAP_INVALID_ARGUMENT));
  dirty(&e);
  CHECK_EQ_INT(goap_file_load("x.goap", NULL, NULL, &e), GOAP_INVALID_ARGUMENT);
  CHECK(filled(&e, GOAP_INVALID_ARGUMENT));
  CHECK_EQ_INT(goap_file_blackboard_create(f, NULL, NULL), GOAP_INVALID_ARGUMENT);
  dirty(&e);
  CHECK_EQ_INT(goap_pddl_parse("d", "", 0, "p", "", 0, NULL, NULL, &e), GOAP_INVALID_ARGUMENT);
  CHECK(filled(&e, GOAP_INVALID_ARGUMENT));
  dirty(&e);
  CHECK_EQ_INT(goap_arena_parse("..", 2, NULL, NULL, &e), GOAP_INVALID_ARGUMENT);
  CHECK(filled(&e, GOAP_INVALID_ARGUMENT));
  goap_arena *arena = NULL;
  REQUIRE(goap_arena_parse("..", 2, NULL, &arena, NULL) == GOAP_OK);
  CHECK_EQ_INT(goap_heatmap_create(arena, NULL, NULL, NULL), GOAP_INVALID_ARGUMENT);
  goap_arena_destroy(arena);
  goap_agent_type_destroy(t);
  goap_file_destroy(f);
}

/* Each constructor with an allocator, under injected failures (the k-th allocation and every
 * one after it refused, for every k until it succeeds): GOAP_OUT_OF_MEMORY with *out NULL and,
 * where there is one, the error filled; then success with the error cleared; nothing leaked. */
TEST(failing_creates_leave_out_null) {
  goap_file *f = parse();
  REQUIRE(f != NULL);
  const goap_domain *d = goap_file_domain(f);
  goap_agent_type *t0 = NULL;
  goap_agent_type_desc td0;
  memset(&td0, 0, sizeof td0);
  REQUIRE(goap_agent_type_create(d, &td0, &t0, NULL) == GOAP_OK);
  sink_buf log;
  memset(&log, 0, sizeof log);
  REQUIRE(record(f, t0, &log) > 0);
  enum { BUILDER, PLANNER, HTN_BUILDER, BLACKBOARD, CACHE, SQUAD, TYPE, AGENT, REPLAYER,
         WORLD, KINDS };
  static const char *const names[KINDS] = {"builder",    "planner", "htn_builder", "blackboard",
                                           "plan_cache", "squad",   "agent_type",  "agent",
                                           "replayer",   "world"};
  for (int kind = 0; kind < KINDS; ++kind) {
    int failures = 0, succeeded = 0;
    for (size_t k = 1; k < 200 && !succeeded; ++k) {
      test_alloc ta;
      memset(&ta, 0, sizeof ta);
      ta.fail_at = k;
      ta.fail_after = 1;
      goap_allocator al = test_alloc_hook(&ta);
      goap_error e;
      dirty(&e);
      int has_err = 0;
      void *obj = &junk_;
      goap_status st = GOAP_INVALID_ARGUMENT;
      switch (kind) {
      case BUILDER: {
        goap_builder *b = JUNK(goap_builder);
        st = goap_builder_create(&al, &b);
        obj = b;
        if (st == GOAP_OK) goap_builder_destroy(b); /* a junk *out must not be freed */
        break;
      }
      case PLANNER: {
        goap_planner_desc pd;
        memset(&pd, 0, sizeof pd);
        pd.allocator = al;
        goap_planner *p = JUNK(goap_planner);
        st = goap_planner_create(d, &pd, &p);
        obj = p;
        if (st == GOAP_OK) goap_planner_destroy(p);
        break;
      }
      case HTN_BUILDER: {
        goap_htn_builder *hb = JUNK(goap_htn_builder);
        st = goap_htn_builder_create(d, &al, &hb);
        obj = hb;
        if (st == GOAP_OK) goap_htn_builder_destroy(hb);
        break;
      }
      case BLACKBOARD: {
        goap_blackboard *bb = JUNK(goap_blackboard);
        st = goap_blackboard_create(&al, &bb);
        obj = bb;
        if (st == GOAP_OK) goap_blackboard_destroy(bb);
        break;
      }
      case CACHE: {
        goap_plan_cache *c = JUNK(goap_plan_cache);
        st = goap_plan_cache_create(&al, 8, &c);
        obj = c;
        if (st == GOAP_OK) goap_plan_cache_destroy(c);
        break;
      }
      case SQUAD: {
        goap_squad_desc sd;
        memset(&sd, 0, sizeof sd);
        sd.allocator = al;
        goap_squad *s = JUNK(goap_squad);
        st = goap_squad_create(&sd, &s);
        obj = s;
        if (st == GOAP_OK) goap_squad_destroy(s);
        break;
      }
      case TYPE: {
        goap_agent_type_desc td = td0;
        td.allocator = al;
        goap_agent_type *t = JUNK(goap_agent_type);
        st = goap_agent_type_create(d, &td, &t, &e);
        has_err = 1;
        obj = t;
        if (st == GOAP_OK) goap_agent_type_destroy(t);
        break;
      }
      case AGENT: {
        goap_agent_desc ad;
        memset(&ad, 0, sizeof ad);
        ad.type = t0;
        ad.allocator = al;
        goap_agent *a = JUNK(goap_agent);
        st = goap_agent_create(&ad, &a, &e);
        has_err = 1;
        obj = a;
        if (st == GOAP_OK) goap_agent_destroy(a);
        break;
      }
      case REPLAYER: {
        goap_replayer_desc rd;
        memset(&rd, 0, sizeof rd);
        rd.allocator = al;
        rd.domain = d;
        rd.log = log.data;
        rd.size = log.n;
        goap_replayer *rp = JUNK(goap_replayer);
        st = goap_replayer_create(&rd, &rp, &e);
        has_err = 1;
        obj = rp;
        if (st == GOAP_OK) goap_replayer_destroy(rp);
        break;
      }
      default: {
        goap_world_desc wd;
        memset(&wd, 0, sizeof wd);
        wd.allocator = al;
        goap_world *w = JUNK(goap_world);
        st = goap_world_create(&wd, &w);
        obj = w;
        if (st == GOAP_OK) goap_world_destroy(w);
        break;
      }
      }
      if (st == GOAP_OK) {
        succeeded = 1;
        if (obj == NULL || obj == (void *)&junk_) ++failures;
        if (has_err && !cleared(&e)) ++failures;
      } else {
        if (st != GOAP_OUT_OF_MEMORY || obj != NULL) ++failures;
        if (has_err && !filled(&e, GOAP_OUT_OF_MEMORY)) ++failures;
      }
      if (ta.outstanding != 0 || ta.bad_old_size || ta.unknown_ptr) ++failures;
    }
    if (failures || !succeeded) fprintf(stderr, "  %s: %d failures\n", names[kind], failures);
    CHECK_EQ_INT(failures, 0);
    CHECK(succeeded);
  }
  goap_agent_type_destroy(t0);
  goap_file_destroy(f);
}

/* Success clears an error left over from an earlier failure. */
TEST(success_clears_the_error) {
  goap_file *f = NULL;
  goap_error e;
  dirty(&e);
  REQUIRE(goap_file_parse("shape.goap", text, strlen(text), NULL, &f, &e) == GOAP_OK);
  CHECK(cleared(&e));
  const goap_domain *d = goap_file_domain(f);
  goap_cond c[2];
  int n = 0;
  dirty(&e);
  CHECK_EQ_INT(goap_parse_conds(d, "want", "armed", c, 2, &n, &e), GOAP_OK);
  CHECK(cleared(&e));
  goap_agent_type_desc td;
  memset(&td, 0, sizeof td);
  goap_agent_type *t = NULL;
  dirty(&e);
  REQUIRE(goap_agent_type_create(d, &td, &t, &e) == GOAP_OK);
  CHECK(cleared(&e));
  goap_blackboard *bb = NULL;
  REQUIRE(goap_blackboard_create(NULL, &bb) == GOAP_OK);
  goap_agent_desc ad;
  memset(&ad, 0, sizeof ad);
  ad.type = t;
  ad.blackboard = bb;
  goap_agent *a = NULL;
  dirty(&e);
  REQUIRE(goap_agent_create(&ad, &a, &e) == GOAP_OK);
  CHECK(cleared(&e));
  /* snapshots restore into fresh objects */
  unsigned char snap[4096], bsnap[4096];
  size_t sn = 0, bn = 0;
  REQUIRE(goap_agent_update(a, 0.1) != GOAP_INVALID_ARGUMENT);
  REQUIRE(goap_agent_snapshot(a, snap, sizeof snap, &sn) == GOAP_OK);
  REQUIRE(goap_blackboard_snapshot(bb, bsnap, sizeof bsnap, &bn) == GOAP_OK);
  goap_blackboard *bb2 = NULL;
  REQUIRE(goap_blackboard_create(NULL, &bb2) == GOAP_OK);
  dirty(&e);
  CHECK_EQ_INT(goap_blackboard_restore(bb2, bsnap, bn, &e), GOAP_OK);
  CHECK(cleared(&e));
  ad.blackboard = bb2;
  goap_agent *a2 = NULL;
  REQUIRE(goap_agent_create(&ad, &a2, NULL) == GOAP_OK);
  dirty(&e);
  CHECK_EQ_INT(goap_agent_restore(a2, snap, sn, &e), GOAP_OK);
  CHECK(cleared(&e));
  goap_squad *s = NULL, *s2 = NULL;
  REQUIRE(goap_squad_create(NULL, &s) == GOAP_OK);
  REQUIRE(goap_squad_add(s, a) == GOAP_OK);
  REQUIRE(goap_squad_snapshot(s, snap, sizeof snap, &sn) == GOAP_OK);
  REQUIRE(goap_squad_create(NULL, &s2) == GOAP_OK);
  dirty(&e);
  CHECK_EQ_INT(goap_squad_restore(s2, snap, sn, &a2, 1, &e), GOAP_OK);
  CHECK(cleared(&e));
  /* a replay log */
  sink_buf log;
  memset(&log, 0, sizeof log);
  REQUIRE(record(f, t, &log) > 0);
  goap_replayer_desc rd;
  memset(&rd, 0, sizeof rd);
  rd.domain = d;
  rd.log = log.data;
  rd.size = log.n;
  goap_replayer *rp = NULL;
  dirty(&e);
  REQUIRE(goap_replayer_create(&rd, &rp, &e) == GOAP_OK);
  CHECK(cleared(&e));
  goap_replayer_destroy(rp);
  /* an arena map; a PDDL task */
  goap_arena *arena = NULL;
  dirty(&e);
  REQUIRE(goap_arena_parse("#.\n..\n", 6, NULL, &arena, &e) == GOAP_OK);
  CHECK(cleared(&e));
  goap_arena_destroy(arena);
  static const char dom[] = "(define (domain d) (:predicates (p)) (:action a :parameters () "
                            ":precondition () :effect (p)))";
  static const char prob[] = "(define (problem q) (:domain d) (:init) (:goal (p)))";
  goap_pddl_task *task = NULL;
  dirty(&e);
  CHECK_EQ_INT(goap_pddl_parse("d.pddl", dom, strlen(dom), "q.pddl", prob, strlen(prob), NULL,
                               &task, &e),
               GOAP_OK);
  CHECK(cleared(&e));
  goap_pddl_destroy(task);
  goap_squad_destroy(s2);
  goap_squad_destroy(s);
  goap_agent_destroy(a2);
  goap_agent_destroy(a);
  goap_blackboard_destroy(bb2);
  goap_blackboard_destroy(bb);
  goap_agent_type_destroy(t);
  goap_file_destroy(f);
}

TEST(error_format_shapes) {
  goap_error e;
  char out[512];
  /* positioned, with a file and its source line */
  memset(&e, 0, sizeof e);
  e.status = GOAP_NOT_FOUND;
  snprintf(e.file, sizeof e.file, "npc.goap");
  e.line = 3;
  e.col = 7;
  e.offset = 40; /* a text's offset does not show: the position does */
  snprintf(e.message, sizeof e.message, "unknown variable 'amo' (did you mean 'ammo'?)");
  snprintf(e.source, sizeof e.source, "  pre amo > 0");
  const char *want = "npc.goap:3:7: error: unknown variable 'amo' (did you mean 'ammo'?)\n"
                     "  pre amo > 0\n"
                     "      ^\n";
  CHECK_EQ_INT(goap_error_format(&e, out, sizeof out), strlen(want));
  CHECK_STR(out, want);
  /* unpositioned, with a byte offset (a snapshot, a replay log) */
  memset(&e, 0, sizeof e);
  e.status = GOAP_CORRUPT;
  e.offset = 31;
  snprintf(e.message, sizeof e.message, "snapshot corrupted: bad timers");
  CHECK_EQ_INT(goap_error_format(&e, out, sizeof out),
               strlen("error: snapshot corrupted: bad timers (at byte 31)\n"));
  CHECK_STR(out, "error: snapshot corrupted: bad timers (at byte 31)\n");
  /* neither position nor offset */
  e.offset = 0;
  goap_error_format(&e, out, sizeof out);
  CHECK_STR(out, "error: snapshot corrupted: bad timers\n");
  /* truncation as snprintf: the length the whole text needs */
  e.offset = 31;
  CHECK_EQ_INT(goap_error_format(&e, out, 8),
               strlen("error: snapshot corrupted: bad timers (at byte 31)\n"));
  CHECK_STR(out, "error: ");
  CHECK_EQ_INT(goap_error_format(NULL, out, sizeof out), 0);
  CHECK_STR(out, "");
}

TEST_MAIN(TEST_ENTRY(constructors_refuse_a_null_out), TEST_ENTRY(failing_creates_leave_out_null),
          TEST_ENTRY(success_clears_the_error), TEST_ENTRY(error_format_shapes))
