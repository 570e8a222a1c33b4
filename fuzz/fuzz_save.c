/*
 * fuzz_save.c -- libFuzzer target for the restore entry points of goap/save.h
 * (goap_agent_restore, goap_blackboard_restore, goap_squad_restore).
 *
 * A small squad world (a shared counter, a resource, two agents mid-action, a squad with an
 * order) and an HTN guard paused in the middle of its rounds (its snapshot holds the
 * continuation) are built once; their four snapshots are the material. An input says what to
 * do to one of them:
 *   byte 0     bits 0-1: which snapshot (0 agent, 1 blackboard, 2 squad, 3 paused HTN agent);
 *              bit 2: patch the checksum after the changes (so they reach the decoder);
 *              bit 3: raw: the rest of the input is the snapshot itself
 *   bytes 1-2  a length to truncate to (little-endian; >= the size: none)
 *   then       (offset u16, xor u8) triples: bytes changed
 * The restore must return a status without crashing, leaking or reading out of bounds; when it
 * accepts, the restored objects must snapshot again and update.
 */
#include <goap/agent.h>
#include <goap/file.h>
#include <goap/htn.h>
#include <goap/save.h>
#include <goap/squad.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const text =
    "domain fz\n"
    "var tokens: int 0..4 shared\n"
    "var ready: bool\n"
    "var done: bool\n"
    "var where: enum { home, field, town }\n"
    "resource slot capacity 1\n"
    "action prepare\n  cost 1\n  eff ready\n  duration 1\n"
    "action go\n  cost 1\n  pre ready\n  eff where = field\n  reserve slot\n"
    "action work\n  cost 2\n  pre where == field\n  eff done\n  on_start tokens += 1\n"
    "  on_end tokens -= 1\n"
    "action rest\n  cost 1\n  pre done\n  eff !done, !ready\n"
    "goal finish\n  priority 5\n  want done\n"
    "goal idle\n  priority 1\n  want !ready\n";

/* The HTN guard: `leg` pauses twice, nested in `guard`, which recurses. */
static const char *const htn_text =
    "domain rounds\n"
    "var at: enum {gate, bridge, tower}\n"
    "var rounds: int 0..3\n"
    "action walk_bridge\n  eff at = bridge\n"
    "action walk_tower\n  eff at = tower\n"
    "action walk_gate\n  eff at = gate\n"
    "action count_round\n  pre rounds < 3\n  eff rounds += 1\n"
    "task guard\n"
    "  method another_round\n    when rounds < 3\n    do leg count_round guard\n"
    "  method done\n    do walk_gate\n"
    "task leg\n"
    "  method out_and_back\n    do walk_bridge pause walk_tower pause walk_gate\n";

typedef struct world {
  goap_file *f, *hf;
  goap_agent_type *type, *htn_type;
  uint8_t snap[4][2048];
  size_t size[4];
  int ok;
} world;

static world W;

static goap_action_state slow(goap_agent *a, int action, double dt, void *user) {
  (void)action;
  (void)dt;
  (void)user;
  double t = goap_agent_time(a); /* a restored time may be any finite number */
  if (!(t >= 0 && t < 1e9)) return GOAP_ACTION_SUCCESS;
  return ((long)(t * 10 + 0.5)) % 3 == 0 ? GOAP_ACTION_SUCCESS : GOAP_ACTION_RUNNING;
}

/* The goap_error rule: the status returned, a message on failure only, an offset inside. */
static int error_ok(const goap_error *e, goap_status st, size_t n) {
  if (e->status != st) return 0;
  return st == GOAP_OK ? e->message[0] == '\0' : e->message[0] != '\0' && e->offset <= n;
}

static goap_agent *agent(goap_blackboard *bb) {
  goap_agent_desc ad;
  memset(&ad, 0, sizeof ad);
  ad.type = W.type;
  ad.blackboard = bb;
  goap_agent *a = NULL;
  if (goap_agent_create(&ad, &a, NULL) != GOAP_OK) abort();
  return a;
}

static void build(void) {
  goap_error diag;
  if (goap_file_parse("fz.goap", text, strlen(text), NULL, &W.f, &diag) != GOAP_OK) {
    fprintf(stderr, "fuzz_save: the world does not parse\n");
    abort();
  }
  const goap_domain *d = goap_file_domain(W.f);
  goap_action_binding ab[8];
  goap_goal_binding gb[4];
  int na = goap_domain_action_count(d), ng = goap_domain_goal_count(d);
  if (goap_file_bindings(W.f, ab, na, gb, ng) != GOAP_OK) abort();
  for (int i = 0; i < na; ++i) ab[i].tick = slow;
  goap_agent_type_desc td;
  memset(&td, 0, sizeof td);
  td.actions = ab;
  td.action_count = na;
  td.goals = gb;
  td.goal_count = ng;
  td.expansions_per_update = 2; /* searches span updates */
  goap_error err;
  if (goap_agent_type_create(d, &td, &W.type, &err) != GOAP_OK) {
    fprintf(stderr, "fuzz_save: %s\n", err.message);
    abort();
  }
  goap_blackboard *bb = NULL;
  if (goap_blackboard_create(NULL, &bb) != GOAP_OK) abort();
  goap_blackboard_add_resource(bb, "slot", 1);
  goap_agent *a = agent(bb), *b = agent(bb);
  goap_squad *s = NULL;
  if (goap_squad_create(NULL, &s) != GOAP_OK) abort();
  goap_squad_add(s, a);
  goap_squad_add(s, b);
  goap_squad_order(s, GOAP_SQUAD_ADVANCE_COVER);
  for (int u = 0; u < 4; ++u) {
    goap_agent_update(a, 0.1);
    goap_agent_update(b, 0.1);
  }
  if (goap_agent_snapshot(a, W.snap[0], sizeof W.snap[0], &W.size[0]) != GOAP_OK ||
      goap_blackboard_snapshot(bb, W.snap[1], sizeof W.snap[1], &W.size[1]) != GOAP_OK ||
      goap_squad_snapshot(s, W.snap[2], sizeof W.snap[2], &W.size[2]) != GOAP_OK)
    abort();
  goap_squad_destroy(s);
  goap_agent_destroy(a);
  goap_agent_destroy(b);
  goap_blackboard_destroy(bb);
  /* the HTN guard, saved at its second pause */
  if (goap_file_parse("rounds.goap", htn_text, strlen(htn_text), NULL, &W.hf, &diag) != GOAP_OK)
    abort();
  d = goap_file_domain(W.hf);
  na = goap_domain_action_count(d);
  if (na > 8 || goap_file_bindings(W.hf, ab, na, gb, 0) != GOAP_OK) abort();
  memset(&td, 0, sizeof td);
  td.actions = ab;
  td.action_count = na;
  td.htn = goap_file_htn(W.hf);
  td.htn_root = goap_htn_domain_find_task(td.htn, "guard");
  if (goap_agent_type_create(d, &td, &W.htn_type, &err) != GOAP_OK) abort();
  goap_agent_desc ad;
  memset(&ad, 0, sizeof ad);
  ad.type = W.htn_type;
  goap_agent *h = NULL;
  if (goap_agent_create(&ad, &h, NULL) != GOAP_OK) abort();
  int pauses = 0;
  for (int u = 0; u < 40 && pauses < 2; ++u) {
    goap_agent_update(h, 0.1);
    if (goap_agent_snapshot(h, W.snap[3], sizeof W.snap[3], &W.size[3]) != GOAP_OK) abort();
    pauses += (W.snap[3][GOAP_SNAPSHOT_HEADER_SIZE] & 128) != 0; /* save.c: paused */
  }
  if (pauses < 2) abort();
  goap_agent_destroy(h);
  W.ok = 1;
}

static uint32_t fnv32(uint32_t h, const uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 16777619u;
  return h;
}

static void fix_checksum(uint8_t *b, size_t n) {
  if (n < GOAP_SNAPSHOT_HEADER_SIZE) return;
  uint32_t h = fnv32(2166136261u, b, 12);
  h = fnv32(h, b + 16, 8);
  h = fnv32(h, b + GOAP_SNAPSHOT_HEADER_SIZE, n - GOAP_SNAPSHOT_HEADER_SIZE);
  for (int i = 0; i < 4; ++i) b[12 + i] = (uint8_t)(h >> (8 * i));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!W.ok) build();
  if (size < 3) return 0;
  int kind = data[0] & 3;
  uint8_t buf[4096];
  size_t n;
  if (data[0] & 8) {
    n = size - 1 > sizeof buf ? sizeof buf : size - 1;
    memcpy(buf, data + 1, n);
  } else {
    n = W.size[kind];
    memcpy(buf, W.snap[kind], n);
    size_t cut = (size_t)data[1] | (size_t)data[2] << 8;
    for (size_t i = 3; i + 2 < size; i += 3) {
      size_t at = (size_t)data[i] | (size_t)data[i + 1] << 8;
      if (at < n) buf[at] ^= data[i + 2];
    }
    if (cut < n) n = cut;
  }
  if (data[0] & 4) fix_checksum(buf, n);
  goap_error why;
  uint8_t again[4096];
  size_t an = 0;
  if (kind == 3) { /* the paused HTN agent */
    goap_agent_desc ad;
    memset(&ad, 0, sizeof ad);
    ad.type = W.htn_type;
    goap_agent *h = NULL;
    if (goap_agent_create(&ad, &h, NULL) != GOAP_OK) abort();
    goap_status st = goap_agent_restore(h, buf, n, &why);
    if (!error_ok(&why, st, n)) abort();
    if (st == GOAP_OK && goap_agent_snapshot(h, again, sizeof again, &an) != GOAP_OK) abort();
    for (int u = 0; u < 12; ++u) goap_agent_update(h, 0.1);
    goap_agent_destroy(h);
    return 0;
  }
  goap_blackboard *bb = NULL;
  if (goap_blackboard_create(NULL, &bb) != GOAP_OK) abort();
  if (kind == 1) {
    goap_status st = goap_blackboard_restore(bb, buf, n, &why);
    if (!error_ok(&why, st, n)) abort();
    if (st == GOAP_OK) {
      if (goap_blackboard_snapshot(bb, again, sizeof again, &an) != GOAP_OK) abort();
      goap_agent *a = agent(bb);
      for (int u = 0; u < 5; ++u) goap_agent_update(a, 0.1);
      goap_agent_destroy(a);
    }
    goap_blackboard_destroy(bb);
    return 0;
  }
  if (goap_blackboard_restore(bb, W.snap[1], W.size[1], NULL) != GOAP_OK) abort();
  goap_agent *a = agent(bb), *b = agent(bb);
  goap_status st;
  if (kind == 0) {
    st = goap_agent_restore(a, buf, n, &why);
  } else {
    goap_squad *s = NULL;
    if (goap_squad_create(NULL, &s) != GOAP_OK) abort();
    goap_agent *m[2] = {a, b};
    st = goap_squad_restore(s, buf, n, m, 2, &why);
    if (st == GOAP_OK && goap_squad_snapshot(s, again, sizeof again, &an) != GOAP_OK) abort();
    if (st == GOAP_OK) goap_squad_update(s);
    goap_squad_destroy(s);
  }
  if (!error_ok(&why, st, n)) abort();
  if (st == GOAP_OK && kind == 0) {
    if (goap_agent_snapshot(a, again, sizeof again, &an) != GOAP_OK) abort();
    char json[4096];
    goap_agent_snapshot_json(a, json, sizeof json, &an);
  }
  for (int u = 0; u < 5; ++u) {
    goap_agent_update(a, 0.1);
    goap_agent_update(b, 0.1);
  }
  goap_agent_destroy(a);
  goap_agent_destroy(b);
  goap_blackboard_destroy(bb);
  return 0;
}
