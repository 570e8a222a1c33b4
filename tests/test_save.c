/*
 * test_save.c -- goap/save.h: snapshot sizes and buffers, every error a restore reports (with
 * its message), every truncation and every single-bit flip of real snapshots, flips with the
 * checksum patched (the decoder's own checks), allocation failures during restores, the type
 * fingerprint, an unfinished time-sliced search saved at every update, HTN agents, and the
 * JSON form. The long-run promise (save at every frame, restore, same trajectory) is
 * test_save_sim.c.
 */
#include <goap/agent.h>
#include <goap/file.h>
#include <goap/htn.h>
#include <goap/inspect.h>
#include <goap/save.h>
#include <goap/squad.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc_hook.h"
#include "test.h"

#define CAP 4096

static goap_file *load(const char *name) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", GOAP_EXAMPLES_DIR, name);
  goap_file *f = NULL;
  goap_error diag;
  if (goap_file_load(path, NULL, &f, &diag) != GOAP_OK) return NULL;
  return f;
}

/* ---- a small squad world: examples/squad.goap, two members, a blackboard, reservations ---- */

typedef struct world {
  goap_file *f;
  const goap_domain *d;
  goap_agent_type *type[2];
} world;

static goap_action_state slow_tick(goap_agent *a, int action, double dt, void *user) {
  (void)a;
  (void)action;
  (void)dt;
  (void)user;
  return GOAP_ACTION_RUNNING;
}

static int make_world(world *w, uint32_t budget, goap_allocator al) {
  memset(w, 0, sizeof *w);
  w->f = load("squad.goap");
  if (!w->f) return 0;
  w->d = goap_file_domain(w->f);
  int na = goap_domain_action_count(w->d), ng = goap_domain_goal_count(w->d);
  goap_action_binding ab[32];
  goap_goal_binding gb[16];
  if (na > 32 || ng > 16) return 0;
  const char *names[2] = {"shotgunner", "gunner"};
  for (int k = 0; k < 2; ++k) {
    int t = goap_file_find_agent_type(w->f, names[k]);
    if (goap_file_agent_bindings(w->f, t, ab, na, gb, ng) != GOAP_OK) return 0;
    for (int i = 0; i < na; ++i) ab[i].tick = slow_tick; /* actions run until told */
    goap_agent_type_desc td;
    memset(&td, 0, sizeof td);
    td.allocator = al;
    td.name = names[k];
    td.actions = ab;
    td.action_count = na;
    td.goals = gb;
    td.goal_count = ng;
    td.expansions_per_update = budget;
    if (goap_agent_type_create(w->d, &td, &w->type[k], NULL) != GOAP_OK) return 0;
  }
  return 1;
}

static void free_world(world *w) {
  goap_agent_type_destroy(w->type[0]);
  goap_agent_type_destroy(w->type[1]);
  goap_file_destroy(w->f);
}

typedef struct objs {
  goap_blackboard *bb;
  goap_agent *a[2];
  goap_squad *s;
} objs;

/* New objects; the blackboard restored from bsnap[0..bn) when bsnap is not NULL. */
static int make_objs_from(objs *o, const world *w, goap_allocator al, int fresh,
                          const uint8_t *bsnap, size_t bn) {
  memset(o, 0, sizeof *o);
  if (goap_blackboard_create(&al, &o->bb) != GOAP_OK) return 0;
  if (bsnap && goap_blackboard_restore(o->bb, bsnap, bn, NULL) != GOAP_OK) return 0;
  if (fresh)
    for (int r = 0; r < goap_file_resource_count(w->f); ++r) {
      const char *name;
      int cap;
      goap_file_resource(w->f, r, &name, &cap);
      goap_blackboard_add_resource(o->bb, name, cap);
    }
  for (int k = 0; k < 2; ++k) {
    goap_agent_desc ad;
    memset(&ad, 0, sizeof ad);
    ad.type = w->type[k];
    ad.allocator = al;
    ad.blackboard = o->bb;
    if (goap_agent_create(&ad, &o->a[k], NULL) != GOAP_OK) return 0;
  }
  goap_squad_desc sd;
  memset(&sd, 0, sizeof sd);
  sd.allocator = al;
  if (goap_squad_create(&sd, &o->s) != GOAP_OK) return 0;
  return 1;
}

static int make_objs(objs *o, const world *w, goap_allocator al, int fresh) {
  return make_objs_from(o, w, al, fresh, NULL, 0);
}

static void free_objs(objs *o) {
  goap_squad_destroy(o->s);
  goap_agent_destroy(o->a[0]);
  goap_agent_destroy(o->a[1]);
  goap_blackboard_destroy(o->bb);
}

/* A live scene: the shotgunner flanks (holding flank_slot) mid-action, both under orders. */
static int live_scene(objs *o, const world *w) {
  goap_allocator none = {0};
  if (!make_objs(o, w, none, 1)) return 0;
  for (int k = 0; k < 2; ++k)
    if (goap_squad_add(o->s, o->a[k]) != GOAP_OK) return 0;
  /* the gunner is ordered to suppress (advance_cover: squad.goap has no advance goal, so
   * the shotgunner gets no order); under suppressive fire the shotgunner attacks, flanking */
  goap_squad_order(o->s, GOAP_SQUAD_ADVANCE_COVER);
  goap_agent_set(o->a[1], goap_domain_find_var(w->d, "suppressive_fire_tokens"), 1);
  for (int i = 0; i < 3; ++i) {
    goap_agent_update(o->a[0], 0.1);
    goap_agent_update(o->a[1], 0.1);
    goap_squad_update(o->s);
  }
  int held = 0;
  goap_blackboard_resource(o->bb, "flank_slot", &held, NULL);
  return goap_agent_action(o->a[0]) >= 0 && goap_agent_action(o->a[1]) >= 0 && held == 1;
}

static uint32_t fnv32(uint32_t h, const uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 16777619u;
  return h;
}

/* Patches the header's checksum (the format is documented in goap/save.h). */
static void fix_checksum(uint8_t *b, size_t n) {
  if (n < GOAP_SNAPSHOT_HEADER_SIZE) return;
  uint32_t h = fnv32(2166136261u, b, 12);
  h = fnv32(h, b + 16, 8);
  h = fnv32(h, b + GOAP_SNAPSHOT_HEADER_SIZE, n - GOAP_SNAPSHOT_HEADER_SIZE);
  for (int i = 0; i < 4; ++i) b[12 + i] = (uint8_t)(h >> (8 * i));
}

TEST(sizes_and_buffers) {
  world w;
  REQUIRE(make_world(&w, 0, (goap_allocator){0}));
  objs o;
  REQUIRE(live_scene(&o, &w));
  size_t need = 0, n = 0;
  CHECK_EQ_INT(goap_agent_snapshot(o.a[0], NULL, 0, &need), GOAP_BUFFER_TOO_SMALL);
  CHECK(need > GOAP_SNAPSHOT_HEADER_SIZE);
  uint8_t buf[CAP];
  CHECK_EQ_INT(goap_agent_snapshot(o.a[0], buf, need - 1, &n), GOAP_BUFFER_TOO_SMALL);
  CHECK_EQ_INT(n, need);
  CHECK_EQ_INT(goap_agent_snapshot(o.a[0], buf, need, &n), GOAP_OK);
  CHECK_EQ_INT(n, need);
  CHECK(memcmp(buf, "GOAP", 4) == 0);
  CHECK_EQ_INT(buf[4], 'A');
  CHECK_EQ_INT(buf[6] | buf[7] << 8, GOAP_SNAPSHOT_VERSION);
  uint64_t fpr = 0;
  for (int i = 0; i < 8; ++i) fpr |= (uint64_t)buf[16 + i] << (8 * i);
  CHECK(fpr == goap_agent_type_fingerprint(w.type[0]));
  CHECK_EQ_INT(goap_agent_snapshot(NULL, buf, CAP, &n), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_agent_snapshot(o.a[0], buf, CAP, NULL), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_blackboard_snapshot(o.bb, NULL, 0, &need), GOAP_BUFFER_TOO_SMALL);
  CHECK_EQ_INT(goap_blackboard_snapshot(o.bb, buf, need, &n), GOAP_OK);
  CHECK_EQ_INT(buf[4], 'B');
  CHECK_EQ_INT(goap_squad_snapshot(o.s, NULL, 0, &need), GOAP_BUFFER_TOO_SMALL);
  CHECK_EQ_INT(goap_squad_snapshot(o.s, buf, need, &n), GOAP_OK);
  CHECK_EQ_INT(buf[4], 'S');
  free_objs(&o);
  free_world(&w);
}

/* Restores the scene into new objects; 1 when everything restored and re-snapshots equal. */
static int restore_scene(const objs *from, const world *w, objs *to, goap_allocator al,
                         goap_status *st_out, goap_error *why) {
  static uint8_t ab[2][CAP], bb[CAP], sb[CAP], again[CAP];
  size_t an[2], bn, sn, n;
  *st_out = GOAP_INVALID_ARGUMENT;
  if (goap_blackboard_snapshot(from->bb, bb, CAP, &bn) != GOAP_OK ||
      goap_agent_snapshot(from->a[0], ab[0], CAP, &an[0]) != GOAP_OK ||
      goap_agent_snapshot(from->a[1], ab[1], CAP, &an[1]) != GOAP_OK ||
      goap_squad_snapshot(from->s, sb, CAP, &sn) != GOAP_OK)
    return 0;
  memset(to, 0, sizeof *to);
  if ((*st_out = goap_blackboard_create(&al, &to->bb)) != GOAP_OK) return 0;
  if ((*st_out = goap_blackboard_restore(to->bb, bb, bn, why)) != GOAP_OK) return 0;
  for (int k = 0; k < 2; ++k) {
    goap_agent_desc ad;
    memset(&ad, 0, sizeof ad);
    ad.type = w->type[k];
    ad.allocator = al;
    ad.blackboard = to->bb;
    if ((*st_out = goap_agent_create(&ad, &to->a[k], NULL)) != GOAP_OK) return 0;
    if ((*st_out = goap_agent_restore(to->a[k], ab[k], an[k], why)) != GOAP_OK) return 0;
  }
  goap_squad_desc sd;
  memset(&sd, 0, sizeof sd);
  sd.allocator = al;
  if ((*st_out = goap_squad_create(&sd, &to->s)) != GOAP_OK) return 0;
  if ((*st_out = goap_squad_restore(to->s, sb, sn, to->a, 2, why)) != GOAP_OK) return 0;
  /* the restored objects say the same */
  if (goap_blackboard_snapshot(to->bb, again, CAP, &n) != GOAP_OK || n != bn ||
      memcmp(again, bb, n) != 0)
    return 0;
  for (int k = 0; k < 2; ++k)
    if (goap_agent_snapshot(to->a[k], again, CAP, &n) != GOAP_OK || n != an[k] ||
        memcmp(again, ab[k], n) != 0)
      return 0;
  if (goap_squad_snapshot(to->s, again, CAP, &n) != GOAP_OK || n != sn ||
      memcmp(again, sb, n) != 0)
    return 0;
  return 1;
}

TEST(round_trip_scene) {
  world w;
  REQUIRE(make_world(&w, 0, (goap_allocator){0}));
  objs o, r;
  REQUIRE(live_scene(&o, &w));
  goap_status st;
  goap_error why;
  CHECK(restore_scene(&o, &w, &r, (goap_allocator){0}, &st, &why));
  CHECK_EQ_INT(st, GOAP_OK);
  CHECK_STR(why.message, "");
  /* what the scene is, the restored one is */
  for (int k = 0; k < 2; ++k) {
    CHECK_EQ_INT(goap_agent_goal(r.a[k]), goap_agent_goal(o.a[k]));
    CHECK_EQ_INT(goap_agent_action(r.a[k]), goap_agent_action(o.a[k]));
    CHECK_EQ_INT(goap_agent_ordered_goal(r.a[k]), goap_agent_ordered_goal(o.a[k]));
    CHECK(goap_agent_time(r.a[k]) == goap_agent_time(o.a[k]));
    CHECK(memcmp(goap_agent_memory(r.a[k]), goap_agent_memory(o.a[k]),
                 goap_domain_state_words(w.d) * sizeof(goap_word)) == 0);
    goap_agent_stats x = goap_agent_get_stats(o.a[k]), y = goap_agent_get_stats(r.a[k]);
    CHECK_EQ_INT(y.updates, x.updates);
    CHECK_EQ_INT(y.plans, x.plans);
    CHECK_EQ_INT(y.actions_started, x.actions_started);
  }
  int held0 = -1, held1 = -2, cap0 = 0, cap1 = 0;
  CHECK_EQ_INT(goap_blackboard_resource(o.bb, "flank_slot", &held0, &cap0), GOAP_OK);
  CHECK_EQ_INT(goap_blackboard_resource(r.bb, "flank_slot", &held1, &cap1), GOAP_OK);
  CHECK_EQ_INT(held1, held0);
  CHECK_EQ_INT(cap1, cap0);
  CHECK(goap_blackboard_version(r.bb) == goap_blackboard_version(o.bb));
  CHECK_EQ_INT(goap_squad_current(r.s), GOAP_SQUAD_ADVANCE_COVER);
  CHECK_EQ_INT(held1, 1);
  CHECK(goap_squad_member(r.s, 1) == r.a[1]);
  /* destroying the restored agents gives their reservations back */
  free_objs(&r);
  free_objs(&o);
  free_world(&w);
}

/* The blackboard's holders survive a restore: a restored blackboard's units have unknown
 * holders until the restored agents that hold them claim them; releases then work. */
TEST(holders_after_restore) {
  world w;
  REQUIRE(make_world(&w, 0, (goap_allocator){0}));
  objs o;
  REQUIRE(live_scene(&o, &w));
  goap_agent *who[4] = {NULL, NULL, NULL, NULL};
  int cnt = -1;
  REQUIRE(goap_blackboard_holders(o.bb, "flank_slot", who, 4, &cnt) == GOAP_OK);
  REQUIRE(cnt == 1 && who[0] == o.a[0]); /* the shotgunner flanks */
  static uint8_t bb[CAP], ab[2][CAP];
  size_t bn = 0, an[2] = {0, 0};
  REQUIRE(goap_blackboard_snapshot(o.bb, bb, CAP, &bn) == GOAP_OK);
  for (int k = 0; k < 2; ++k)
    REQUIRE(goap_agent_snapshot(o.a[k], ab[k], CAP, &an[k]) == GOAP_OK);
  goap_allocator none = {0};
  goap_blackboard *rb = NULL;
  REQUIRE(goap_blackboard_create(&none, &rb) == GOAP_OK);
  goap_error why;
  CHECK_EQ_INT(goap_blackboard_restore(rb, bb, bn, &why), GOAP_OK);
  /* restored alone: the unit is held, by an agent not restored yet */
  who[0] = o.a[1];
  CHECK_EQ_INT(goap_blackboard_holders(rb, "flank_slot", who, 4, &cnt), GOAP_OK);
  CHECK_EQ_INT(cnt, 1);
  CHECK(who[0] == NULL);
  goap_agent *ra[3] = {NULL, NULL, NULL};
  for (int k = 0; k < 3; ++k) {
    goap_agent_desc ad;
    memset(&ad, 0, sizeof ad);
    ad.type = w.type[k == 1];
    ad.blackboard = rb;
    REQUIRE(goap_agent_create(&ad, &ra[k], NULL) == GOAP_OK);
  }
  /* the gunner holds nothing; the shotgunner claims the unit */
  CHECK_EQ_INT(goap_agent_restore(ra[1], ab[1], an[1], &why), GOAP_OK);
  CHECK_EQ_INT(goap_blackboard_holders(rb, "flank_slot", who, 4, &cnt), GOAP_OK);
  CHECK(cnt == 1 && who[0] == NULL);
  CHECK_EQ_INT(goap_agent_restore(ra[0], ab[0], an[0], &why), GOAP_OK);
  CHECK_STR(why.message, "");
  CHECK_EQ_INT(goap_blackboard_holders(rb, "flank_slot", who, 4, &cnt), GOAP_OK);
  CHECK_EQ_INT(cnt, 1);
  CHECK(who[0] == ra[0]);
  /* the same snapshot again: the unit is claimed already, so it is refused, nothing changed */
  CHECK_EQ_INT(goap_agent_restore(ra[2], ab[0], an[0], &why), GOAP_INVALID_OPERATION);
  CHECK_STR(why.message, "a saved reservation is not held on the blackboard: restore the blackboard "
                 "saved with the agent");
  CHECK_EQ_INT(goap_blackboard_holders(rb, "flank_slot", who, 4, &cnt), GOAP_OK);
  CHECK(cnt == 1 && who[0] == ra[0]);
  /* releases work: the restored shotgunner gives the unit back when destroyed */
  CHECK_EQ_INT(goap_blackboard_set_capacity(rb, "flank_slot", 0), GOAP_INVALID_OPERATION);
  goap_agent_destroy(ra[0]);
  int held = -1;
  CHECK_EQ_INT(goap_blackboard_resource(rb, "flank_slot", &held, NULL), GOAP_OK);
  CHECK_EQ_INT(held, 0);
  CHECK_EQ_INT(goap_blackboard_holders(rb, "flank_slot", who, 4, &cnt), GOAP_OK);
  CHECK_EQ_INT(cnt, 0);
  /* nothing is held any more */
  CHECK_EQ_INT(goap_blackboard_set_capacity(rb, "flank_slot", 0), GOAP_OK);
  goap_agent_destroy(ra[1]);
  goap_agent_destroy(ra[2]);
  goap_blackboard_destroy(rb);
  free_objs(&o);
  free_world(&w);
}

TEST(errors_and_messages) {
  world w;
  REQUIRE(make_world(&w, 0, (goap_allocator){0}));
  objs o, fresh;
  REQUIRE(live_scene(&o, &w));
  uint8_t buf[CAP], bad[CAP];
  size_t n = 0;
  REQUIRE(goap_agent_snapshot(o.a[0], buf, CAP, &n) == GOAP_OK);
  /* fresh objects on the saved blackboard (the saved agent's reservation is held there) */
  static uint8_t bsnap[CAP];
  size_t bn = 0;
  REQUIRE(goap_blackboard_snapshot(o.bb, bsnap, CAP, &bn) == GOAP_OK);
  REQUIRE(make_objs_from(&fresh, &w, (goap_allocator){0}, 0, bsnap, bn));
  goap_error why;
  /* truncated */
  CHECK_EQ_INT(goap_agent_restore(fresh.a[0], buf, n - 1, &why), GOAP_TRUNCATED);
  CHECK_STR(why.message, "snapshot truncated: fewer bytes than its header says");
  CHECK_EQ_INT(why.status, GOAP_TRUNCATED);
  CHECK_EQ_INT(why.offset, n - 1); /* the data ends there */
  CHECK(why.line == 0 && why.col == 0 && why.file[0] == '\0');
  CHECK_EQ_INT(goap_agent_restore(fresh.a[0], buf, 10, &why), GOAP_TRUNCATED);
  CHECK_STR(why.message, "snapshot truncated: shorter than its 24-byte header");
  CHECK_EQ_INT(why.offset, 10);
  CHECK_EQ_INT(goap_agent_restore(fresh.a[0], NULL, 0, &why), GOAP_TRUNCATED);
  /* a newer format version */
  memcpy(bad, buf, n);
  bad[6] = GOAP_SNAPSHOT_VERSION + 1;
  CHECK_EQ_INT(goap_agent_restore(fresh.a[0], bad, n, &why), GOAP_VERSION_MISMATCH);
  CHECK_STR(why.message, "snapshot format version is newer than this libgoap reads (1)");
  CHECK_EQ_INT(why.offset, 6); /* the version field */
  /* a corrupted byte */
  memcpy(bad, buf, n);
  bad[n / 2] ^= 0x10;
  CHECK_EQ_INT(goap_agent_restore(fresh.a[0], bad, n, &why), GOAP_CORRUPT);
  CHECK_STR(why.message, "snapshot corrupted: checksum mismatch");
  CHECK_EQ_INT(why.status, GOAP_CORRUPT);
  CHECK_EQ_INT(why.offset, 12); /* the checksum field */
  /* goap_error_format: no file or line, so the byte offset */
  char text[256];
  CHECK_EQ_INT(goap_error_format(&why, text, sizeof text),
               strlen("error: snapshot corrupted: checksum mismatch (at byte 12)\n"));
  CHECK_STR(text, "error: snapshot corrupted: checksum mismatch (at byte 12)\n");
  memcpy(bad, buf, n);
  bad[0] = 'X';
  CHECK_EQ_INT(goap_agent_restore(fresh.a[0], bad, n, &why), GOAP_CORRUPT);
  CHECK_STR(why.message, "not a libgoap snapshot: bad magic (expected \"GOAP\")");
  CHECK_EQ_INT(why.offset, 0);
  memcpy(bad, buf, n);
  bad[n] = 0;
  CHECK_EQ_INT(goap_agent_restore(fresh.a[0], bad, n + 1, &why), GOAP_CORRUPT);
  CHECK_STR(why.message, "snapshot corrupted: bytes after its end");
  CHECK_EQ_INT(why.offset, n); /* the first byte after the snapshot */
  /* a payload that ends early, its header patched to match: the reader's offset, the end */
  size_t bsz = 0;
  REQUIRE(goap_blackboard_snapshot(o.bb, bad, CAP, &bsz) == GOAP_OK);
  REQUIRE(bsz > GOAP_SNAPSHOT_HEADER_SIZE + 1);
  bad[8] = 1; /* the payload's size: one byte */
  bad[9] = bad[10] = bad[11] = 0;
  fix_checksum(bad, GOAP_SNAPSHOT_HEADER_SIZE + 1);
  goap_blackboard *lone_bb = NULL;
  REQUIRE(goap_blackboard_create(NULL, &lone_bb) == GOAP_OK);
  CHECK_EQ_INT(goap_blackboard_restore(lone_bb, bad, GOAP_SNAPSHOT_HEADER_SIZE + 1, &why),
               GOAP_CORRUPT);
  CHECK_EQ_INT(why.status, GOAP_CORRUPT);
  CHECK(strncmp(why.message, "snapshot corrupted: ", 20) == 0);
  CHECK_EQ_INT(why.offset, GOAP_SNAPSHOT_HEADER_SIZE + 1);
  goap_blackboard_destroy(lone_bb);
  /* another type of the same domain: the gunner's snapshot into a shotgunner */
  size_t gn = 0;
  REQUIRE(goap_agent_snapshot(o.a[1], bad, CAP, &gn) == GOAP_OK);
  CHECK_EQ_INT(goap_agent_restore(fresh.a[0], bad, gn, &why), GOAP_DOMAIN_MISMATCH);
  CHECK(strstr(why.message, "another domain or agent type") != NULL);
  CHECK_EQ_INT(why.offset, 16); /* the fingerprint field */
  /* a blackboard's snapshot given as an agent's */
  REQUIRE(goap_blackboard_snapshot(o.bb, bad, CAP, &gn) == GOAP_OK);
  CHECK_EQ_INT(goap_agent_restore(fresh.a[0], bad, gn, &why), GOAP_DOMAIN_MISMATCH);
  CHECK_STR(why.message, "not an agent snapshot (a blackboard's or a squad's)");
  CHECK_EQ_INT(why.offset, 4); /* the kind byte */
  /* not fresh */
  CHECK_EQ_INT(goap_agent_restore(o.a[0], buf, n, &why), GOAP_INVALID_OPERATION);
  CHECK_STR(why.message, "restore into a freshly created agent (this one was updated already)");
  CHECK_EQ_INT(goap_blackboard_restore(o.bb, bad, gn, &why), GOAP_INVALID_OPERATION);
  CHECK_STR(why.message, "restore a blackboard before creating the agents attached to it");
  size_t sn = 0;
  REQUIRE(goap_squad_snapshot(o.s, bad, CAP, &sn) == GOAP_OK);
  CHECK_EQ_INT(goap_squad_restore(o.s, bad, sn, o.a, 2, &why), GOAP_INVALID_OPERATION);
  CHECK_EQ_INT(goap_squad_restore(fresh.s, bad, sn, fresh.a, 1, &why), GOAP_INVALID_OPERATION);
  CHECK_STR(why.message, "the squad had another number of members than given to the restore");
  goap_agent *twice[2] = {fresh.a[0], fresh.a[0]};
  CHECK_EQ_INT(goap_squad_restore(fresh.s, bad, sn, twice, 2, &why), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_squad_size(fresh.s), 0);
  /* an agent without the blackboard it had: squad.goap's types reserve, so such an agent is
   * not even created (a restore into it cannot happen) */
  goap_agent_desc ad;
  memset(&ad, 0, sizeof ad);
  ad.type = w.type[0];
  goap_agent *lone = (goap_agent *)&ad;
  goap_error cwhy;
  CHECK_EQ_INT(goap_agent_create(&ad, &lone, &cwhy), GOAP_INVALID_ARGUMENT);
  CHECK(lone == NULL);
  CHECK_EQ_INT(cwhy.status, GOAP_INVALID_ARGUMENT);
  CHECK(cwhy.message[0] != 0);
  /* NULLs */
  CHECK_EQ_INT(goap_agent_restore(NULL, buf, n, NULL), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_blackboard_restore(NULL, buf, n, NULL), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_squad_restore(NULL, buf, n, NULL, 0, NULL), GOAP_INVALID_ARGUMENT);
  /* nothing was changed by the refusals: the fresh agent restores fine */
  CHECK_EQ_INT(goap_agent_restore(fresh.a[0], buf, n, &why), GOAP_OK);
  CHECK_STR(why.message, "");
  free_objs(&fresh);
  free_objs(&o);
  free_world(&w);
}

TEST(changed_domain_is_refused) {
  const char *v1 = "domain d\nvar a: bool\nvar n: int 0..5\n"
                   "action x\n  cost 1\n  pre !a\n  eff a\ngoal g\n  priority 1\n  want a\n";
  const char *changes[] = {
      /* a cost */
      "domain d\nvar a: bool\nvar n: int 0..5\n"
      "action x\n  cost 2\n  pre !a\n  eff a\ngoal g\n  priority 1\n  want a\n",
      /* a range */
      "domain d\nvar a: bool\nvar n: int 0..6\n"
      "action x\n  cost 1\n  pre !a\n  eff a\ngoal g\n  priority 1\n  want a\n",
      /* a precondition */
      "domain d\nvar a: bool\nvar n: int 0..5\n"
      "action x\n  cost 1\n  pre !a, n >= 0\n  eff a\ngoal g\n  priority 1\n  want a\n",
      /* a goal's priority */
      "domain d\nvar a: bool\nvar n: int 0..5\n"
      "action x\n  cost 1\n  pre !a\n  eff a\ngoal g\n  priority 2\n  want a\n",
      /* a variable's name */
      "domain d\nvar b: bool\nvar n: int 0..5\n"
      "action x\n  cost 1\n  pre !b\n  eff b\ngoal g\n  priority 1\n  want b\n"};
  goap_file *f1 = NULL;
  goap_error diag;
  REQUIRE(goap_file_parse("v1", v1, strlen(v1), NULL, &f1, &diag) == GOAP_OK);
  goap_agent_type_desc td;
  memset(&td, 0, sizeof td);
  goap_agent_type *t1 = NULL, *t1b = NULL;
  REQUIRE(goap_agent_type_create(goap_file_domain(f1), &td, &t1, NULL) == GOAP_OK);
  REQUIRE(goap_agent_type_create(goap_file_domain(f1), &td, &t1b, NULL) == GOAP_OK);
  CHECK(goap_agent_type_fingerprint(t1) == goap_agent_type_fingerprint(t1b));
  CHECK(goap_agent_type_fingerprint(NULL) == 0);
  goap_agent_desc ad;
  memset(&ad, 0, sizeof ad);
  ad.type = t1;
  goap_agent *a = NULL;
  REQUIRE(goap_agent_create(&ad, &a, NULL) == GOAP_OK);
  goap_agent_update(a, 0.1);
  uint8_t buf[CAP];
  size_t n = 0;
  REQUIRE(goap_agent_snapshot(a, buf, CAP, &n) == GOAP_OK);
  for (size_t c = 0; c < sizeof changes / sizeof changes[0]; ++c) {
    goap_file *f2 = NULL;
    REQUIRE(goap_file_parse("v2", changes[c], strlen(changes[c]), NULL, &f2, &diag) == GOAP_OK);
    goap_agent_type *t2 = NULL;
    REQUIRE(goap_agent_type_create(goap_file_domain(f2), &td, &t2, NULL) == GOAP_OK);
    CHECK(goap_agent_type_fingerprint(t2) != goap_agent_type_fingerprint(t1));
    ad.type = t2;
    goap_agent *b = NULL;
    REQUIRE(goap_agent_create(&ad, &b, NULL) == GOAP_OK);
    goap_error why;
    CHECK_EQ_INT(goap_agent_restore(b, buf, n, &why), GOAP_DOMAIN_MISMATCH);
    CHECK(strstr(why.message, "changed since it was saved") != NULL);
    goap_agent_destroy(b);
    goap_agent_type_destroy(t2);
    goap_file_destroy(f2);
  }
  /* the type's own settings count too: another name, another timeout */
  goap_action_binding bind[1];
  memset(bind, 0, sizeof bind);
  bind[0].timeout = 3;
  goap_agent_type_desc td2 = td;
  td2.actions = bind;
  td2.action_count = 1;
  goap_agent_type *t3 = NULL;
  REQUIRE(goap_agent_type_create(goap_file_domain(f1), &td2, &t3, NULL) == GOAP_OK);
  CHECK(goap_agent_type_fingerprint(t3) != goap_agent_type_fingerprint(t1));
  td2 = td;
  td2.name = "other";
  goap_agent_type *t4 = NULL;
  REQUIRE(goap_agent_type_create(goap_file_domain(f1), &td2, &t4, NULL) == GOAP_OK);
  CHECK(goap_agent_type_fingerprint(t4) != goap_agent_type_fingerprint(t1));
  goap_agent_type_destroy(t3);
  goap_agent_type_destroy(t4);
  goap_agent_destroy(a);
  goap_agent_type_destroy(t1);
  goap_agent_type_destroy(t1b);
  goap_file_destroy(f1);
}

/* Every truncation and every single-bit flip of each snapshot of the scene is refused with one
 * of the four statuses of saved data; with the checksum patched after the flip, the decoder's
 * own checks refuse it or it restores into objects that snapshot again and run. */
TEST(truncations_and_bit_flips) {
  world w;
  REQUIRE(make_world(&w, 0, (goap_allocator){0}));
  objs o;
  REQUIRE(live_scene(&o, &w));
  uint8_t snap[3][CAP], bad[CAP];
  size_t sz[3];
  REQUIRE(goap_agent_snapshot(o.a[0], snap[0], CAP, &sz[0]) == GOAP_OK);
  REQUIRE(goap_blackboard_snapshot(o.bb, snap[1], CAP, &sz[1]) == GOAP_OK);
  REQUIRE(goap_squad_snapshot(o.s, snap[2], CAP, &sz[2]) == GOAP_OK);
  long refused = 0, patched_ok = 0, patched_refused = 0, odd = 0;
  for (int kind = 0; kind < 3; ++kind) {
    for (int mode = 0; mode < 3; ++mode) { /* truncations, flips, flips with a fixed checksum */
      size_t count = mode == 0 ? sz[kind] : sz[kind] * 8;
      for (size_t i = 0; i < count; ++i) {
        objs x;
        REQUIRE(make_objs(&x, &w, (goap_allocator){0}, 0));
        size_t n = sz[kind];
        memcpy(bad, snap[kind], n);
        if (mode == 0) n = i;
        else bad[i / 8] ^= (uint8_t)(1u << (i % 8));
        if (mode == 2) fix_checksum(bad, n);
        goap_error why;
        goap_status st;
        if (kind == 0) {
          /* the agent restore needs the blackboard restored first (its reservation) */
          goap_agent_destroy(x.a[0]);
          goap_agent_destroy(x.a[1]);
          x.a[0] = x.a[1] = NULL;
          goap_blackboard_destroy(x.bb);
          REQUIRE(goap_blackboard_create(NULL, &x.bb) == GOAP_OK);
          REQUIRE(goap_blackboard_restore(x.bb, snap[1], sz[1], NULL) == GOAP_OK);
          goap_agent_desc ad;
          memset(&ad, 0, sizeof ad);
          ad.type = w.type[0];
          ad.blackboard = x.bb;
          REQUIRE(goap_agent_create(&ad, &x.a[0], NULL) == GOAP_OK);
          st = goap_agent_restore(x.a[0], bad, n, &why);
        } else if (kind == 1) {
          goap_agent_destroy(x.a[0]);
          goap_agent_destroy(x.a[1]);
          x.a[0] = x.a[1] = NULL;
          st = goap_blackboard_restore(x.bb, bad, n, &why);
        } else {
          st = goap_squad_restore(x.s, bad, n, x.a, 2, &why);
        }
        if (why.status != st || (st != GOAP_OK && why.offset > n)) odd++; /* goap_error rule */
        if (mode < 2) {
          if (st == GOAP_TRUNCATED || st == GOAP_VERSION_MISMATCH || st == GOAP_CORRUPT ||
              st == GOAP_DOMAIN_MISMATCH)
            refused++;
          else
            odd++;
          if (!why.message[0]) odd++;
        } else if (st == GOAP_OK) {
          /* a legal state: it snapshots and runs */
          uint8_t again[CAP];
          size_t an = 0;
          if (kind == 0 && goap_agent_snapshot(x.a[0], again, CAP, &an) != GOAP_OK) odd++;
          for (int u = 0; u < 20; ++u)
            for (int k = 0; k < 2; ++k)
              if (x.a[k] && goap_agent_update(x.a[k], 0.1) == GOAP_INVALID_ARGUMENT) odd++;
          patched_ok++;
        } else {
          patched_refused++;
          if (!why.message[0]) odd++;
        }
        free_objs(&x);
      }
    }
  }
  fprintf(stderr, "  %ld refused; checksum patched: %ld restored, %ld refused\n", refused,
          patched_ok, patched_refused);
  CHECK_EQ_INT(odd, 0);
  CHECK_EQ_INT(refused, (long)(sz[0] * 9 + sz[1] * 9 + sz[2] * 9));
  CHECK(patched_refused > 0);
  free_objs(&o);
  free_world(&w);
}

TEST(allocation_failures_during_restore) {
  world w;
  REQUIRE(make_world(&w, 0, (goap_allocator){0}));
  objs o;
  REQUIRE(live_scene(&o, &w));
  int oom = 0, ok = 0;
  for (size_t at = 1; at < 400; ++at) {
    test_alloc ta;
    memset(&ta, 0, sizeof ta);
    ta.fail_at = at;
    objs r;
    goap_status st = GOAP_OK;
    goap_error why;
    int done = restore_scene(&o, &w, &r, test_alloc_hook(&ta), &st, &why);
    if (done) ok++;
    else {
      CHECK_EQ_INT(st, GOAP_OUT_OF_MEMORY);
      if (st != GOAP_OUT_OF_MEMORY) fprintf(stderr, "  at %zu: %s\n", at, why.message);
      oom++;
    }
    free_objs(&r);
    CHECK_EQ_INT(ta.outstanding, 0);
    CHECK_EQ_INT(ta.bad_old_size, 0);
    if (ta.injected == 0) break; /* every allocation was let through: done */
  }
  CHECK(oom > 5);
  CHECK(ok >= 1);
  free_objs(&o);
  free_world(&w);
}

/* ---- an unfinished search, saved at every update -------------------------------------------- */

typedef struct tlog {
  char text[1 << 16];
  size_t n;
  int muted; /* the saved agent's destruction (it stops its action) is not the timeline */
} tlog;

static void tlog_event(goap_agent *a, const goap_agent_event *ev, void *user) {
  (void)a;
  tlog *l = (tlog *)user;
  if (l->muted || l->n + 64 > sizeof l->text) return;
  l->n += (size_t)snprintf(l->text + l->n, sizeof l->text - l->n, "%d/%d/%d/%d/%g/%d;",
                           (int)ev->kind, ev->goal, ev->action, (int)ev->reason, ev->time,
                           ev->plan_length);
}

static goap_action_state two_ticks(goap_agent *a, int action, double dt, void *user) {
  (void)action;
  (void)dt;
  (void)user;
  /* succeeds on even tenths of a second of the agent's time: one or two updates */
  return ((long)(goap_agent_time(a) * 10 + 0.5)) % 2 == 0 ? GOAP_ACTION_SUCCESS
                                                           : GOAP_ACTION_RUNNING;
}

TEST(sliced_search_saved_at_every_update) {
  goap_file *f = load("soldier.goap");
  REQUIRE(f);
  const goap_domain *d = goap_file_domain(f);
  int na = goap_domain_action_count(d), ng = goap_domain_goal_count(d);
  goap_action_binding ab[16];
  goap_goal_binding gb[4];
  REQUIRE(na <= 16 && ng <= 4);
  REQUIRE(goap_file_bindings(f, ab, na, gb, ng) == GOAP_OK);
  for (int i = 0; i < na; ++i) ab[i].tick = two_ticks;
  goap_agent_type_desc td;
  memset(&td, 0, sizeof td);
  td.actions = ab;
  td.action_count = na;
  td.goals = gb;
  td.goal_count = ng;
  td.expansions_per_update = 1; /* one node per update: every search spans updates */
  goap_agent_type *t = NULL;
  REQUIRE(goap_agent_type_create(d, &td, &t, NULL) == GOAP_OK);
  enum { UPDATES = 60 };
  static tlog ref, run;
  memset(&ref, 0, sizeof ref);
  goap_agent_desc ad;
  memset(&ad, 0, sizeof ad);
  ad.type = t;
  ad.on_event = tlog_event;
  ad.event_user = &ref;
  goap_agent *a = NULL;
  REQUIRE(goap_agent_create(&ad, &a, NULL) == GOAP_OK);
  int target = goap_domain_find_var(d, "target_dead");
  for (int u = 0; u < UPDATES; ++u) {
    if (u == 30) goap_agent_set(a, target, 0); /* a new enemy: plan again */
    goap_agent_update(a, 0.1);
  }
  goap_agent_destroy(a);
  int searching_saves = 0, failures = 0;
  for (int k = 0; k < UPDATES; ++k) {
    memset(&run, 0, sizeof run);
    ad.event_user = &run;
    REQUIRE(goap_agent_create(&ad, &a, NULL) == GOAP_OK);
    for (int u = 0; u < k; ++u) {
      if (u == 30) goap_agent_set(a, target, 0);
      goap_agent_update(a, 0.1);
    }
    if (k == 30) goap_agent_set(a, target, 0);
    uint8_t buf[CAP];
    size_t n = 0;
    REQUIRE(goap_agent_snapshot(a, buf, CAP, &n) == GOAP_OK);
    searching_saves += goap_agent_is_planning(a);
    goap_agent *b = NULL;
    REQUIRE(goap_agent_create(&ad, &b, NULL) == GOAP_OK);
    goap_error why;
    CHECK_EQ_INT(goap_agent_restore(b, buf, n, &why), GOAP_OK);
    CHECK_EQ_INT(goap_agent_is_planning(b), goap_agent_is_planning(a));
    run.muted = 1;
    goap_agent_destroy(a);
    run.muted = 0;
    for (int u = k; u < UPDATES; ++u) {
      if (u == 30 && u != k) goap_agent_set(b, target, 0);
      goap_agent_update(b, 0.1);
    }
    goap_agent_stats sb = goap_agent_get_stats(b);
    if (run.n != ref.n || memcmp(run.text, ref.text, ref.n) != 0) {
      fprintf(stderr, "  saved at update %d: the timeline differs\n  ran:      %s\n  restored: %s\n",
              k, ref.text, run.text);
      failures++;
    }
    CHECK(sb.updates == UPDATES);
    goap_agent_destroy(b);
  }
  CHECK_EQ_INT(failures, 0);
  CHECK(searching_saves >= 5); /* the saves caught searches in progress */
  CHECK(strstr(ref.text, "4/") != NULL || ref.n > 0);
  goap_agent_type_destroy(t);
  goap_file_destroy(f);
}

/* Goal cooldowns (goap_goal_binding.cooldown) and failure memory's facts are state: saved at
 * every update of a run where a goal keeps failing and cooling down, a restored agent goes on
 * with the same timeline, and inspection reports the same cooldowns and facts. */
static goap_action_state fail_open(goap_agent *a, int action, double dt, void *user) {
  (void)a;
  (void)dt;
  return action == *(const int *)user ? GOAP_ACTION_FAILURE : GOAP_ACTION_SUCCESS;
}

static void inspect_text(const goap_agent *a, char *out, size_t cap) {
  goap_goal_info gi[4];
  goap_failure_info fi[8];
  int ng = goap_agent_inspect_goals(a, gi, 4), nf = goap_agent_inspect_failures(a, fi, 8);
  size_t n = 0;
  for (int i = 0; i < ng && i < 4 && n + 64 < cap; ++i)
    n += (size_t)snprintf(out + n, cap - n, "g%d:%d:%g;", gi[i].goal, (int)gi[i].state,
                          gi[i].retry_at);
  for (int i = 0; i < nf && i < 8 && n + 64 < cap; ++i)
    n += (size_t)snprintf(out + n, cap - n, "f%d:%d:%d:%g:%d;", fi[i].goal, fi[i].var,
                          fi[i].value, fi[i].learnt, (int)fi[i].status);
}

TEST(cooldowns_and_failure_facts) {
  static const char text[] = "var door_open: bool\nvar door_stuck: bool\nvar patrolled: bool\n"
                             "action open_door\n  pre !door_stuck\n  eff door_open\n"
                             "  on_fail door_stuck\n"
                             "action patrol\n  eff patrolled, !door_stuck\n"
                             "goal get_in\n  priority 2\n  want door_open\n  cooldown 0.5\n"
                             "goal guard\n  priority 1\n  want patrolled\n";
  goap_file *f = NULL;
  REQUIRE(goap_file_parse("cd.goap", text, sizeof text - 1, NULL, &f, NULL) == GOAP_OK);
  const goap_domain *d = goap_file_domain(f);
  goap_action_binding ab[2];
  goap_goal_binding gb[2];
  REQUIRE(goap_file_bindings(f, ab, 2, gb, 2) == GOAP_OK);
  int open_door = goap_domain_find_action(d, "open_door");
  ab[0].tick = ab[1].tick = fail_open;
  ab[0].user = ab[1].user = &open_door;
  goap_agent_type_desc td;
  memset(&td, 0, sizeof td);
  td.actions = ab;
  td.action_count = 2;
  td.goals = gb;
  td.goal_count = 2;
  goap_agent_type *t = NULL;
  REQUIRE(goap_agent_type_create(d, &td, &t, NULL) == GOAP_OK);
  enum { UPDATES = 40 };
  static tlog ref, run;
  static char ref_insp[UPDATES][512];
  memset(&ref, 0, sizeof ref);
  goap_agent_desc ad;
  memset(&ad, 0, sizeof ad);
  ad.type = t;
  ad.on_event = tlog_event;
  ad.event_user = &ref;
  goap_agent *a = NULL;
  REQUIRE(goap_agent_create(&ad, &a, NULL) == GOAP_OK);
  int cooling = 0, facts = 0;
  int patrolled = goap_domain_find_var(d, "patrolled");
  for (int u = 0; u < UPDATES; ++u) {
    goap_agent_update(a, 0.1);
    if (u % 7 == 6) goap_agent_set(a, patrolled, 0); /* the guard walks on: patrol again */
    inspect_text(a, ref_insp[u], sizeof ref_insp[u]);
    cooling += strstr(ref_insp[u], ":4:") != NULL; /* GOAP_GOAL_COOLDOWN */
    facts += strstr(ref_insp[u], "f-1:") != NULL;
  }
  goap_agent_destroy(a);
  CHECK(cooling >= 5 && facts >= 5); /* the run exercises both */
  int failures = 0;
  for (int k = 1; k < UPDATES; ++k) {
    memset(&run, 0, sizeof run);
    ad.event_user = &run;
    REQUIRE(goap_agent_create(&ad, &a, NULL) == GOAP_OK);
    for (int u = 0; u < k; ++u) {
      goap_agent_update(a, 0.1);
      if (u % 7 == 6) goap_agent_set(a, patrolled, 0);
    }
    uint8_t buf[CAP];
    size_t n = 0;
    REQUIRE(goap_agent_snapshot(a, buf, CAP, &n) == GOAP_OK);
    goap_agent *b = NULL;
    REQUIRE(goap_agent_create(&ad, &b, NULL) == GOAP_OK);
    CHECK_EQ_INT(goap_agent_restore(b, buf, n, NULL), GOAP_OK);
    char now[512];
    inspect_text(b, now, sizeof now);
    if (strcmp(now, ref_insp[k - 1]) != 0) {
      fprintf(stderr, "  restored at %d: inspection %s, expected %s\n", k, now, ref_insp[k - 1]);
      failures++;
    }
    run.muted = 1;
    goap_agent_destroy(a);
    run.muted = 0;
    for (int u = k; u < UPDATES; ++u) {
      goap_agent_update(b, 0.1);
      if (u % 7 == 6) goap_agent_set(b, patrolled, 0);
    }
    if (run.n != ref.n || memcmp(run.text, ref.text, ref.n) != 0) {
      fprintf(stderr, "  saved at update %d: the timeline differs\n", k);
      failures++;
    }
    goap_agent_destroy(b);
  }
  CHECK_EQ_INT(failures, 0);
  goap_agent_type_destroy(t);
  goap_file_destroy(f);
}

/* ---- HTN agents ---------------------------------------------------------------------------- */

/* A guard walking rounds: each `leg` pauses twice, nested in `guard`, which recurses. */
static const char ROUNDS[] =
    "domain rounds\n"
    "var at: enum {gate, bridge, tower}\n"
    "var rounds: int 0..3\n"
    "var checked: bool\n"
    "action walk_bridge\n  eff at = bridge\n"
    "action walk_tower\n  eff at = tower\n"
    "action walk_gate\n  eff at = gate\n"
    "action count_round\n  pre rounds < 3\n  eff rounds += 1\n"
    "action check\n  eff checked\n"
    "task guard\n"
    "  method another_round\n    when rounds < 3\n    do leg count_round guard\n"
    "  method done\n    do check\n"
    "task leg\n"
    "  method out_and_back\n    do walk_bridge pause walk_tower pause walk_gate\n";

/* Saves an HTN agent (root task `root` of file f, or the file's agent type `troll`) at every
 * update, restores, and checks the timeline goes on the same; counts the saves and, among
 * them, those made while the plan ended at a `pause` (the continuation saved). */
static int htn_every_update(goap_file *f, const char *root, int *saved, int *paused,
                            int *with_mtr) {
  int failures = 0;
  const goap_domain *d = goap_file_domain(f);
  int na = goap_domain_action_count(d), ng = goap_domain_goal_count(d);
  goap_action_binding ab[16];
  goap_goal_binding gb[4];
  if (na > 16 || ng > 4) return 1;
  goap_agent_type_desc td;
  memset(&td, 0, sizeof td);
  td.htn = goap_file_htn(f);
  if (root) {
    if (goap_file_bindings(f, ab, na, gb, ng) != GOAP_OK) return 1;
    td.htn_root = goap_htn_domain_find_task(td.htn, root);
  } else {
    int troll = goap_file_find_agent_type(f, "troll");
    if (troll < 0 || goap_file_agent_bindings(f, troll, ab, na, gb, ng) != GOAP_OK) return 1;
    td.htn_root = goap_file_agent_type_htn(f, troll, &td.htn_watch, &td.htn_watch_count);
  }
  for (int i = 0; i < na; ++i) {
    ab[i].tick = two_ticks;
    ab[i].disabled = 0;
    ab[i].cost_scale = 0;
  }
  td.actions = ab;
  td.action_count = na;
  goap_agent_type *t = NULL;
  if (td.htn_root < 0 || goap_agent_type_create(d, &td, &t, NULL) != GOAP_OK) return 1;
  static tlog ref, run;
  memset(&ref, 0, sizeof ref);
  goap_agent_desc ad;
  memset(&ad, 0, sizeof ad);
  ad.type = t;
  ad.on_event = tlog_event;
  ad.event_user = &ref;
  enum { UPDATES = 40 };
  goap_agent *a = NULL;
  goap_agent_create(&ad, &a, NULL);
  for (int u = 0; u < UPDATES; ++u) goap_agent_update(a, 0.1);
  goap_agent_destroy(a);
  for (int k = 0; k < UPDATES; ++k) {
    memset(&run, 0, sizeof run);
    ad.event_user = &run;
    goap_agent_create(&ad, &a, NULL);
    for (int u = 0; u < k; ++u) goap_agent_update(a, 0.1);
    uint8_t buf[CAP];
    size_t n = 0;
    goap_status st = goap_agent_snapshot(a, buf, CAP, &n);
    if (st != GOAP_OK) failures++;
    /* the payload's flags byte: 128, a paused plan whose continuation follows (save.c) */
    if (st == GOAP_OK && n > GOAP_SNAPSHOT_HEADER_SIZE && (buf[GOAP_SNAPSHOT_HEADER_SIZE] & 128))
      (*paused)++;
    int ml = 0, bl = -1;
    goap_agent_htn_mtr(a, &ml);
    *with_mtr += ml > 0;
    goap_agent *b = NULL;
    goap_agent_create(&ad, &b, NULL);
    if (goap_agent_restore(b, buf, n, NULL) != GOAP_OK) failures++;
    goap_agent_htn_mtr(b, &bl);
    if (bl != ml) failures++;
    run.muted = 1;
    goap_agent_destroy(a);
    run.muted = 0;
    for (int u = k; u < UPDATES; ++u) goap_agent_update(b, 0.1);
    if (run.n != ref.n || memcmp(run.text, ref.text, ref.n) != 0) {
      fprintf(stderr, "  htn saved at update %d: the timeline differs\n", k);
      failures++;
    }
    goap_agent_destroy(b);
    (*saved)++;
  }
  goap_agent_type_destroy(t);
  return failures;
}

TEST(htn_agent) {
  goap_file *f = load("trunk_thumper.goap");
  REQUIRE(f);
  int saved = 0, paused = 0, with_mtr = 0;
  CHECK_EQ_INT(htn_every_update(f, NULL, &saved, &paused, &with_mtr), 0);
  fprintf(stderr, "  htn troll: %d saves restored, %d at a pause\n", saved, paused);
  CHECK_EQ_INT(saved, 40);
  CHECK(with_mtr > 0);
  goap_file_destroy(f);
  /* a root task that pauses: saved while the plan ends at the pause too (its continuation),
   * the restored agent resumes it as the uninterrupted one does */
  goap_error diag;
  REQUIRE(goap_file_load(GOAP_TESTS_DIR "/htn/achieve_pause_set.goap", NULL, &f, &diag) ==
          GOAP_OK);
  saved = paused = with_mtr = 0;
  CHECK_EQ_INT(htn_every_update(f, "patrol", &saved, &paused, &with_mtr), 0);
  fprintf(stderr, "  htn patrol: %d saves restored, %d at a pause\n", saved, paused);
  CHECK(paused > 0);
  CHECK_EQ_INT(saved, 40);
  goap_file_destroy(f);
  /* pauses nested two methods deep, in rounds: the continuation has two runs (the rest of
   * `leg`, then the rest of `guard`), the MTR grows across resumes */
  REQUIRE(goap_file_parse("rounds.goap", ROUNDS, strlen(ROUNDS), NULL, &f, &diag) == GOAP_OK);
  saved = paused = with_mtr = 0;
  CHECK_EQ_INT(htn_every_update(f, "guard", &saved, &paused, &with_mtr), 0);
  fprintf(stderr, "  htn guard: %d saves restored, %d at a pause\n", saved, paused);
  CHECK(paused >= 6); /* two pauses per round, three rounds */
  CHECK_EQ_INT(saved, 40);
  goap_file_destroy(f);
}

/* A paused HTN agent's restore with each of its allocations refused in turn: a clear status,
 * nothing leaked, and once they all pass the restored agent resumes the pause. */
/* The guard of ROUNDS as an agent type (actions succeed at once), and the snapshot of one
 * saved at its first pause into buf (*n bytes). 0 on failure. */
static int rounds_paused(goap_file **f, goap_agent_type **t, uint8_t *buf, size_t *n) {
  goap_error diag;
  if (goap_file_parse("rounds.goap", ROUNDS, strlen(ROUNDS), NULL, f, &diag) != GOAP_OK) return 0;
  const goap_domain *d = goap_file_domain(*f);
  goap_action_binding ab[8];
  goap_goal_binding gb[1];
  if (goap_domain_action_count(d) > 8 ||
      goap_file_bindings(*f, ab, goap_domain_action_count(d), gb, 0) != GOAP_OK)
    return 0;
  goap_agent_type_desc td;
  memset(&td, 0, sizeof td);
  td.htn = goap_file_htn(*f);
  td.htn_root = goap_htn_domain_find_task(td.htn, "guard");
  td.actions = ab;
  td.action_count = goap_domain_action_count(d);
  if (goap_agent_type_create(d, &td, t, NULL) != GOAP_OK) return 0;
  goap_agent_desc ad;
  memset(&ad, 0, sizeof ad);
  ad.type = *t;
  goap_agent *a = NULL;
  goap_agent_create(&ad, &a, NULL);
  int ok = 0;
  for (int u = 0; a && u < 20 && !ok; ++u) { /* the first pause comes within a few updates */
    goap_agent_update(a, 0.1);
    ok = goap_agent_snapshot(a, buf, CAP, n) == GOAP_OK && (buf[GOAP_SNAPSHOT_HEADER_SIZE] & 128);
  }
  goap_agent_destroy(a);
  return ok;
}

TEST(allocation_failures_restoring_a_pause) {
  goap_file *f = NULL;
  goap_agent_type *t = NULL;
  uint8_t buf[CAP];
  size_t n = 0;
  REQUIRE(rounds_paused(&f, &t, buf, &n));
  goap_agent_desc ad;
  memset(&ad, 0, sizeof ad);
  ad.type = t;
  int oom = 0, ok = 0;
  for (size_t at = 1; at < 200 && !ok; ++at) {
    test_alloc ta;
    memset(&ta, 0, sizeof ta);
    ad.allocator = test_alloc_hook(&ta);
    goap_agent *b = NULL;
    REQUIRE(goap_agent_create(&ad, &b, NULL) == GOAP_OK);
    ta.fail_at = ta.calls + at;
    goap_error why;
    goap_status st = goap_agent_restore(b, buf, n, &why);
    if (st == GOAP_OK) {
      ok = ta.injected == 0;
      size_t m = 0;
      uint8_t again[CAP];
      CHECK_EQ_INT(goap_agent_snapshot(b, again, CAP, &m), GOAP_OK);
      CHECK(m == n && memcmp(again, buf, n) == 0);
    } else {
      CHECK_EQ_INT(st, GOAP_OUT_OF_MEMORY);
      CHECK(strcmp(why.message, "out of memory") == 0);
      oom++;
    }
    goap_agent_destroy(b);
    CHECK_EQ_INT(ta.outstanding, 0);
    CHECK_EQ_INT(ta.bad_old_size, 0);
  }
  CHECK(oom >= 2); /* the planner, the continuation */
  CHECK(ok);
  goap_agent_type_destroy(t);
  goap_file_destroy(f);
}

/* A paused HTN agent's snapshot, every truncation and bit flip (and the flips again with the
 * checksum fixed, so they reach the continuation's decoder): a clear refusal, or a legal agent
 * that snapshots and runs. */
TEST(htn_pause_truncations_and_bit_flips) {
  goap_file *f = NULL;
  goap_agent_type *t = NULL;
  uint8_t snap[CAP], bad[CAP];
  size_t sz = 0;
  REQUIRE(rounds_paused(&f, &t, snap, &sz));
  goap_agent_desc ad;
  memset(&ad, 0, sizeof ad);
  ad.type = t;
  long refused = 0, patched_ok = 0, patched_refused = 0, odd = 0;
  for (int mode = 0; mode < 3; ++mode) {
    size_t count = mode == 0 ? sz : sz * 8;
    for (size_t i = 0; i < count; ++i) {
      size_t n = sz;
      memcpy(bad, snap, n);
      if (mode == 0) n = i;
      else bad[i / 8] ^= (uint8_t)(1u << (i % 8));
      if (mode == 2) fix_checksum(bad, n);
      goap_agent *a = NULL;
      REQUIRE(goap_agent_create(&ad, &a, NULL) == GOAP_OK);
      goap_error why;
      goap_status st = goap_agent_restore(a, bad, n, &why);
      if (mode < 2) {
        if (st == GOAP_TRUNCATED || st == GOAP_VERSION_MISMATCH || st == GOAP_CORRUPT ||
            st == GOAP_DOMAIN_MISMATCH)
          refused++;
        else
          odd++;
      } else if (st == GOAP_OK) {
        uint8_t again[CAP];
        size_t an = 0;
        if (goap_agent_snapshot(a, again, CAP, &an) != GOAP_OK) odd++;
        for (int u = 0; u < 40; ++u)
          if (goap_agent_update(a, 0.1) == GOAP_INVALID_ARGUMENT) odd++;
        patched_ok++;
      } else {
        patched_refused++;
      }
      if (st != GOAP_OK && (!why.message[0])) odd++;
      goap_agent_destroy(a);
    }
  }
  fprintf(stderr, "  paused HTN agent: %ld refused; checksum patched: %ld restored, %ld refused\n",
          refused, patched_ok, patched_refused);
  CHECK_EQ_INT(odd, 0);
  CHECK_EQ_INT(refused, (long)(sz * 9));
  CHECK(patched_refused > 0 && patched_ok > 0);
  goap_agent_type_destroy(t);
  goap_file_destroy(f);
}

/* goap_htn_continuation / goap_htn_restore_continuation: a continuation moved to another
 * planner resumes exactly as the planner that paused. */
TEST(htn_continuation_moves_between_planners) {
  goap_file *f = NULL;
  goap_error diag;
  REQUIRE(goap_file_parse("rounds.goap", ROUNDS, strlen(ROUNDS), NULL, &f, &diag) == GOAP_OK);
  const goap_htn_domain *h = goap_file_htn(f);
  const goap_domain *d = goap_file_domain(f);
  int guard = goap_htn_domain_find_task(h, "guard"), leg = goap_htn_domain_find_task(h, "leg");
  goap_htn_planner *p = NULL, *q = NULL;
  REQUIRE(goap_htn_planner_create(h, NULL, &p) == GOAP_OK);
  REQUIRE(goap_htn_planner_create(h, NULL, &q) == GOAP_OK);
  REQUIRE(guard >= 0 && leg >= 0);
  CHECK_EQ_INT(goap_htn_continuation(p, 0, NULL, 0), -1); /* nothing pending */
  goap_word state[4];
  REQUIRE(goap_domain_state_words(d) <= 4);
  goap_state_init(d, state);
  goap_htn_request rq;
  memset(&rq, 0, sizeof rq);
  rq.start = state;
  rq.task = guard;
  int32_t plan[8], mtr[8], plan2[8], mtr2[8];
  goap_htn_result res;
  memset(&res, 0, sizeof res);
  res.plan = plan;
  res.plan_capacity = 8;
  res.mtr = mtr;
  res.mtr_capacity = 8;
  CHECK_EQ_INT(goap_htn_plan(p, &rq, &res), GOAP_PARTIAL);
  CHECK_EQ_INT(res.plan_length, 1); /* walk_bridge, then the pause */
  goap_htn_resume_run runs[4];
  CHECK_EQ_INT(goap_htn_continuation(p, 0, runs, 4), 2);
  CHECK_EQ_INT(runs[0].task, leg);   /* walk_tower pause walk_gate */
  CHECK_EQ_INT(runs[0].method, 0);
  CHECK_EQ_INT(runs[0].subtask, 2);
  CHECK_EQ_INT(runs[0].depth, 2);
  CHECK_EQ_INT(runs[1].task, guard); /* count_round guard */
  CHECK_EQ_INT(runs[1].subtask, 1);
  CHECK_EQ_INT(runs[1].depth, 1);
  goap_htn_resume_run one;
  CHECK_EQ_INT(goap_htn_continuation(p, 1, &one, 1), 2);
  CHECK_EQ_INT(one.task, guard);
  CHECK_EQ_INT(goap_htn_restore_continuation(q, runs, 2, mtr, res.mtr_length), GOAP_OK);
  CHECK_EQ_INT(goap_htn_pending(q), 1);
  /* both resume from the state the plan reached, to the end of the rounds */
  goap_action_apply(d, state, plan[0]);
  int resumes = 0;
  for (;;) {
    goap_htn_result a1, a2;
    memset(&a1, 0, sizeof a1);
    memset(&a2, 0, sizeof a2);
    a1.plan = plan;
    a2.plan = plan2;
    a1.plan_capacity = a2.plan_capacity = 8;
    a1.mtr = mtr;
    a2.mtr = mtr2;
    a1.mtr_capacity = a2.mtr_capacity = 8;
    goap_status s1 = goap_htn_resume(p, state, NULL, &a1);
    goap_status s2 = goap_htn_resume(q, state, NULL, &a2);
    CHECK_EQ_INT(s2, s1);
    CHECK_EQ_INT(a2.plan_length, a1.plan_length);
    CHECK_EQ_INT(a2.mtr_length, a1.mtr_length);
    if (s1 != s2 || a1.plan_length != a2.plan_length || a1.mtr_length != a2.mtr_length) break;
    CHECK(memcmp(plan, plan2, (size_t)a1.plan_length * sizeof *plan) == 0);
    CHECK(memcmp(mtr, mtr2, (size_t)a1.mtr_length * sizeof *mtr) == 0);
    for (int i = 0; i < a1.plan_length; ++i) goap_action_apply(d, state, plan[i]);
    ++resumes;
    if (s1 != GOAP_PARTIAL || resumes > 20) break;
  }
  CHECK_EQ_INT(resumes, 6); /* 3 rounds of 2 pauses; the last resume checks and ends */
  CHECK_EQ_INT(goap_state_get(d, state, goap_domain_find_var(d, "checked")), 1);
  /* refused: a run that is no suffix of a method, bad arguments; nothing changes then */
  goap_htn_resume_run bad = runs[0];
  bad.subtask = 5; /* `leg` has five subtasks (two of them pauses) */
  CHECK_EQ_INT(goap_htn_restore_continuation(q, &bad, 1, NULL, 0), GOAP_INVALID_ARGUMENT);
  bad = runs[0];
  bad.method = 1;
  CHECK_EQ_INT(goap_htn_restore_continuation(q, &bad, 1, NULL, 0), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_htn_restore_continuation(q, NULL, 1, NULL, 0), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_htn_restore_continuation(NULL, runs, 1, NULL, 0), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_htn_restore_continuation(q, runs, -1, NULL, 0), GOAP_INVALID_ARGUMENT);
  CHECK_EQ_INT(goap_htn_continuation(q, -1, NULL, 0), -1);
  /* an empty continuation (a pause at the root's end) is pending and resumes to nothing */
  CHECK_EQ_INT(goap_htn_restore_continuation(q, NULL, 0, NULL, 0), GOAP_OK);
  CHECK_EQ_INT(goap_htn_continuation(q, 0, NULL, 0), 0);
  memset(&res, 0, sizeof res);
  CHECK_EQ_INT(goap_htn_resume(q, state, NULL, &res), GOAP_OK);
  CHECK_EQ_INT(res.plan_length, 0);
  goap_htn_planner_destroy(p);
  goap_htn_planner_destroy(q);
  goap_file_destroy(f);
}

/* ---- JSON ----------------------------------------------------------------------------------- */

TEST(json_form) {
  world w;
  REQUIRE(make_world(&w, 0, (goap_allocator){0}));
  objs o;
  REQUIRE(live_scene(&o, &w));
  size_t need = 0, n = 0;
  CHECK_EQ_INT(goap_agent_snapshot_json(o.a[0], NULL, 0, &need), GOAP_BUFFER_TOO_SMALL);
  char small[16];
  CHECK_EQ_INT(goap_agent_snapshot_json(o.a[0], small, sizeof small, &n), GOAP_BUFFER_TOO_SMALL);
  CHECK_EQ_INT(n, need);
  CHECK_EQ_INT(strlen(small), sizeof small - 1);
  char *buf = (char *)malloc(need + 1);
  REQUIRE(buf);
  CHECK_EQ_INT(goap_agent_snapshot_json(o.a[0], buf, need + 1, &n), GOAP_OK);
  CHECK_EQ_INT(strlen(buf), need);
  CHECK(strncmp(buf, "{\"t\": 0.3, \"type\": \"shotgunner\", \"phase\": \"execute\"", 51) == 0);
  char want[256];
  snprintf(want, sizeof want, "\"goal\": \"%s\"",
           goap_domain_goal_name(w.d, goap_agent_goal(o.a[0])));
  CHECK(strstr(buf, want) != NULL);
  snprintf(want, sizeof want, "\"action\": \"%s\"",
           goap_domain_action_name(w.d, goap_agent_action(o.a[0])));
  CHECK(strstr(buf, want) != NULL);
  CHECK(strstr(buf, "\"in_cover\": false, \"smoke_out\": false") != NULL);
  CHECK(strstr(buf, "\"reservations\": [\"flank_slot\"]") != NULL);
  CHECK(buf[need - 1] == '}');
  CHECK_EQ_INT(goap_agent_snapshot_json(NULL, buf, need + 1, &n), GOAP_INVALID_ARGUMENT);
  free(buf);
  free_objs(&o);
  free_world(&w);
}

/* An agent saved in the middle of a sliced search: its restore creates a planner and runs the
 * search again; every allocation of it refused in turn. */
TEST(allocation_failures_restoring_a_search) {
  goap_file *f = load("soldier.goap");
  REQUIRE(f);
  const goap_domain *d = goap_file_domain(f);
  int na = goap_domain_action_count(d), ng = goap_domain_goal_count(d);
  goap_action_binding ab[16];
  goap_goal_binding gb[4];
  REQUIRE(na <= 16 && ng <= 4);
  REQUIRE(goap_file_bindings(f, ab, na, gb, ng) == GOAP_OK);
  goap_agent_type_desc td;
  memset(&td, 0, sizeof td);
  td.actions = ab;
  td.action_count = na;
  td.goals = gb;
  td.goal_count = ng;
  td.expansions_per_update = 1;
  goap_agent_type *t = NULL;
  REQUIRE(goap_agent_type_create(d, &td, &t, NULL) == GOAP_OK);
  goap_agent_desc ad;
  memset(&ad, 0, sizeof ad);
  ad.type = t;
  goap_agent *a = NULL;
  REQUIRE(goap_agent_create(&ad, &a, NULL) == GOAP_OK);
  for (int u = 0; u < 3; ++u) goap_agent_update(a, 0.1);
  REQUIRE(goap_agent_is_planning(a));
  uint8_t buf[CAP], again[CAP];
  size_t n = 0, m = 0;
  REQUIRE(goap_agent_snapshot(a, buf, CAP, &n) == GOAP_OK);
  int oom = 0, ok = 0;
  for (size_t at = 1; at < 200; ++at) {
    test_alloc ta;
    memset(&ta, 0, sizeof ta);
    ad.allocator = test_alloc_hook(&ta);
    goap_agent *b = NULL;
    if (goap_agent_create(&ad, &b, NULL) != GOAP_OK) continue;
    ta.fail_at = ta.calls + at; /* refuse the at-th allocation of the restore */
    goap_error why;
    goap_status st = goap_agent_restore(b, buf, n, &why);
    if (st == GOAP_OK) {
      ok++;
      CHECK_EQ_INT(goap_agent_snapshot(b, again, CAP, &m), GOAP_OK);
      CHECK(m == n && memcmp(again, buf, n) == 0);
    } else {
      oom++;
      CHECK_EQ_INT(st, GOAP_OUT_OF_MEMORY);
      CHECK_STR(why.message, "out of memory");
      CHECK_EQ_INT(goap_agent_is_planning(b), 0); /* selecting goals afresh */
    }
    ta.fail_at = 0;
    for (int u = 0; u < 10; ++u) goap_agent_update(b, 0.1); /* and it still runs */
    goap_agent_destroy(b);
    CHECK_EQ_INT(ta.outstanding, 0);
    CHECK_EQ_INT(ta.bad_old_size, 0);
    if (st == GOAP_OK && ta.injected == 0) break;
  }
  CHECK(oom >= 1); /* at least the planner */
  CHECK_EQ_INT(ok, 1);
  goap_agent_destroy(a);
  goap_agent_type_destroy(t);
  goap_file_destroy(f);
}

TEST_MAIN(TEST_ENTRY(sizes_and_buffers), TEST_ENTRY(cooldowns_and_failure_facts), TEST_ENTRY(round_trip_scene),
          TEST_ENTRY(htn_continuation_moves_between_planners),
          TEST_ENTRY(allocation_failures_restoring_a_pause),
          TEST_ENTRY(htn_pause_truncations_and_bit_flips), TEST_ENTRY(holders_after_restore),
          TEST_ENTRY(errors_and_messages), TEST_ENTRY(changed_domain_is_refused),
          TEST_ENTRY(truncations_and_bit_flips), TEST_ENTRY(allocation_failures_during_restore),
          TEST_ENTRY(allocation_failures_restoring_a_search),
          TEST_ENTRY(sliced_search_saved_at_every_update), TEST_ENTRY(htn_agent),
          TEST_ENTRY(json_form))
