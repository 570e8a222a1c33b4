/*
 * bench_squads.c -- squads per tick: 10 and 100 squads of 8 members on examples/squad.goap.
 *
 * Each squad has its own blackboard (its `shared` variables and a flank_slot of capacity 1)
 * and a coordinator; members are the file's agent types (gunner, riflemen, shotgunner,
 * medic...). Actions take a few frames. The world keeps them busy: every 40 frames a squad's
 * player comes back (player_down = false on its blackboard) and every 97 frames someone goes
 * down (man_down), so members replan through the blackboard.
 *
 * Measured, as medians over many ticks:
 *   tick      one update of every member (the steady state: mostly actions running);
 *   board     a tick right after a blackboard write that every member sees (player_down
 *             back to false: every member's goal check and many replans);
 *   replan    a tick in which every member replans (goap_agent_replan on all, then update).
 * Per member and per tick, in microseconds and nanoseconds. One thread.
 *
 * Usage: goap_bench_squads [--squads N[,N...]] [--ticks N] [--json]
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime (bench_util.h) */
#include <goap/agent.h>
#include <goap/file.h>
#include <goap/squad.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "bench_util.h"

#define MEMBERS 8

/* Actions last (action id % 4) + 1 frames: a small counter per member (its host pointer). */
typedef struct mctx {
  int left;
} mctx;

static void on_start(goap_agent *a, int action, void *user) {
  (void)a;
  ((mctx *)user)->left = action % 4 + 1;
}

static goap_action_state on_tick(goap_agent *a, int action, double dt, void *user) {
  (void)a;
  (void)action;
  (void)dt;
  mctx *m = (mctx *)user;
  return --m->left <= 0 ? GOAP_ACTION_SUCCESS : GOAP_ACTION_RUNNING;
}

typedef struct world {
  int nsquads;
  goap_blackboard **bb;
  goap_squad **sq;
  goap_agent **ag;   /* nsquads * MEMBERS */
  mctx *ctx;
  goap_agent_type **types;
  int ntypes;
} world;

/* The host's callbacks, set once: every member's context is its host pointer. */
static void start_cb(goap_agent *a, int action, void *user) {
  (void)user;
  on_start(a, action, goap_agent_host(a));
}
static goap_action_state tick_cb(goap_agent *a, int action, double dt, void *user) {
  (void)user;
  return on_tick(a, action, dt, goap_agent_host(a));
}

static const char *const member_types[MEMBERS] = {"gunner",     "rifleman", "rifleman",
                                                  "shotgunner", "medic",    "assault_rifleman",
                                                  "rifleman",   "rifleman"};

static int build(world *w, const goap_file *f, int nsquads) {
  const goap_domain *d = goap_file_domain(f);
  int na = goap_domain_action_count(d), ng = goap_domain_goal_count(d);
  memset(w, 0, sizeof *w);
  w->nsquads = nsquads;
  w->bb = (goap_blackboard **)calloc((size_t)nsquads, sizeof *w->bb);
  w->sq = (goap_squad **)calloc((size_t)nsquads, sizeof *w->sq);
  w->ag = (goap_agent **)calloc((size_t)nsquads * MEMBERS, sizeof *w->ag);
  w->ctx = (mctx *)calloc((size_t)nsquads * MEMBERS, sizeof *w->ctx);
  w->ntypes = goap_file_agent_type_count(f);
  w->types = (goap_agent_type **)calloc((size_t)w->ntypes, sizeof *w->types);
  goap_action_binding *ab = (goap_action_binding *)calloc((size_t)na, sizeof *ab);
  goap_goal_binding *gb = (goap_goal_binding *)calloc((size_t)ng, sizeof *gb);
  if (!w->bb || !w->sq || !w->ag || !w->ctx || !w->types || !ab || !gb) return 0;
  /* types: callbacks read the member's counter through the agent's host pointer */
  for (int t = 0; t < w->ntypes; ++t) {
    goap_file_agent_bindings(f, t, ab, na, gb, ng);
    for (int a = 0; a < na; ++a) {
      ab[a].start = start_cb;
      ab[a].tick = tick_cb;
    }
    goap_agent_type_desc td;
    memset(&td, 0, sizeof td);
    td.name = goap_file_agent_type_name(f, t);
    td.actions = ab;
    td.action_count = na;
    td.goals = gb;
    td.goal_count = ng;
    if (goap_agent_type_create(d, &td, &w->types[t], NULL) != GOAP_OK) return 0;
  }
  free(ab);
  free(gb);
  for (int s = 0; s < nsquads; ++s) {
    goap_blackboard_create(NULL, &w->bb[s]);
    goap_squad_create(NULL, &w->sq[s]);
    if (!w->bb[s] || !w->sq[s]) return 0;
    goap_blackboard_add_resource(w->bb[s], "flank_slot", 1);
    for (int k = 0; k < MEMBERS; ++k) {
      int t = goap_file_find_agent_type(f, member_types[k]);
      if (t < 0) return 0;
      goap_agent_desc ad;
      memset(&ad, 0, sizeof ad);
      ad.type = w->types[t];
      ad.blackboard = w->bb[s];
      ad.host = &w->ctx[s * MEMBERS + k];
      goap_agent *a = NULL;
      if (goap_agent_create(&ad, &a, NULL) != GOAP_OK) return 0;
      w->ag[s * MEMBERS + k] = a;
      goap_squad_add(w->sq[s], a);
    }
    goap_squad_order(w->sq[s], GOAP_SQUAD_GET_TO_COVER);
  }
  return 1;
}

static void destroy(world *w) {
  for (int s = 0; s < w->nsquads; ++s) {
    goap_squad_destroy(w->sq ? w->sq[s] : NULL);
    for (int k = 0; k < MEMBERS && w->ag; ++k) goap_agent_destroy(w->ag[s * MEMBERS + k]);
    goap_blackboard_destroy(w->bb ? w->bb[s] : NULL);
  }
  for (int t = 0; t < w->ntypes && w->types; ++t) goap_agent_type_destroy(w->types[t]);
  free(w->bb);
  free(w->sq);
  free(w->ag);
  free(w->ctx);
  free(w->types);
}

static void tick(world *w, int frame) {
  int n = w->nsquads * MEMBERS;
  for (int s = 0; s < w->nsquads; ++s) {
    if ((frame + s) % 40 == 0) goap_blackboard_set(w->bb[s], "player_down", 0);
    if ((frame + 3 * s) % 97 == 0) goap_blackboard_set(w->bb[s], "man_down", 1);
  }
  for (int i = 0; i < n; ++i) goap_agent_update(w->ag[i], 0.05);
  for (int s = 0; s < w->nsquads; ++s) goap_squad_update(w->sq[s]);
}

int main(int argc, char **argv) {
  int sizes[8] = {10, 100}, nsizes = 2, ticks = 400, json = 0;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--json")) json = 1;
    else if (!strcmp(argv[i], "--ticks") && i + 1 < argc) ticks = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--squads") && i + 1 < argc) {
      nsizes = 0;
      for (char *p = argv[++i]; *p && nsizes < 8;) {
        sizes[nsizes++] = (int)strtol(p, &p, 10);
        if (*p == ',') ++p;
      }
    } else {
      fprintf(stderr, "usage: goap_bench_squads [--squads N[,N...]] [--ticks N] [--json]\n");
      return 2;
    }
  }
  if (ticks < 10) ticks = 10;
  goap_file *f = NULL;
  goap_error err;
  if (goap_file_load(GOAP_EXAMPLES_DIR "/squad.goap", NULL, &f, &err) != GOAP_OK) {
    char buf[1024];
    goap_error_format(&err, buf, sizeof buf);
    fprintf(stderr, "%s\n", buf);
    return 1;
  }
  if (!json) printf("squads of %d members on examples/squad.goap, one thread, medians\n", MEMBERS);
  int rc = 0;
  for (int z = 0; z < nsizes; ++z) {
    world w;
    if (!build(&w, f, sizes[z])) {
      fprintf(stderr, "out of memory\n");
      rc = 1;
      destroy(&w);
      break;
    }
    int n = w.nsquads * MEMBERS;
    for (int i = 0; i < 200; ++i) tick(&w, i); /* warm up */
    double *t_tick = (double *)malloc((size_t)ticks * sizeof(double));
    double *t_board = (double *)malloc((size_t)ticks * sizeof(double));
    double *t_replan = (double *)malloc((size_t)ticks * sizeof(double));
    uint64_t plans0 = 0, plans1 = 0, replan_plans = 0;
    const goap_domain *d = goap_file_domain(f);
    int private_vars[4] = {goap_domain_find_var(d, "in_cover"), goap_domain_find_var(d, "smoke_out"),
                           goap_domain_find_var(d, "flanking"), goap_domain_find_var(d, "suppressing")};
    for (int i = 0; i < n; ++i) plans0 += goap_agent_get_stats(w.ag[i]).plans;
    for (int r = 0; r < ticks; ++r) {
      double t0 = bench_now_us();
      tick(&w, 200 + r);
      t_tick[r] = bench_now_us() - t0;
      /* a blackboard write every member sees */
      for (int s = 0; s < w.nsquads; ++s) goap_blackboard_set(w.bb[s], "player_down", 0);
      t0 = bench_now_us();
      for (int i = 0; i < n; ++i) goap_agent_update(w.ag[i], 0.05);
      t_board[r] = bench_now_us() - t0;
      /* everyone is back in the open with the player up: every member must plan */
      for (int i = 0; i < n; ++i) {
        for (int v = 0; v < 4; ++v) goap_agent_set(w.ag[i], private_vars[v], 0);
        goap_agent_replan(w.ag[i]);
      }
      uint64_t before = 0, after = 0;
      for (int i = 0; i < n; ++i) before += goap_agent_get_stats(w.ag[i]).plans;
      t0 = bench_now_us();
      for (int i = 0; i < n; ++i) goap_agent_update(w.ag[i], 0.05);
      t_replan[r] = bench_now_us() - t0;
      for (int i = 0; i < n; ++i) after += goap_agent_get_stats(w.ag[i]).plans;
      replan_plans += after - before;
    }
    for (int i = 0; i < n; ++i) plans1 += goap_agent_get_stats(w.ag[i]).plans;
    double mt = bench_median(t_tick, ticks), mb = bench_median(t_board, ticks), mr = bench_median(t_replan, ticks);
    size_t bytes = 0;
    for (int i = 0; i < n; ++i) bytes += goap_agent_get_stats(w.ag[i]).memory_bytes;
    double rp = (double)replan_plans / ticks;
    if (json)
      printf("{\"squads\": %d, \"members\": %d, \"tick_us\": %.2f, \"board_tick_us\": %.2f, "
             "\"replan_tick_us\": %.2f, \"plans_in_replan_tick\": %.1f, "
             "\"plans_per_round\": %.2f, \"bytes_per_member\": %zu}\n",
             w.nsquads, n, mt, mb, mr, rp, (double)(plans1 - plans0) / ticks, bytes / (size_t)n);
    else
      printf("%4d squads (%4d members): tick %7.1f us (%4.0f ns/member); after a board write "
             "%7.1f us; all replan %7.1f us (%.0f plans, %.2f us/plan); %zu B/member\n",
             w.nsquads, n, mt, mt * 1000 / n, mb, mr, rp, rp > 0 ? mr / rp : 0.0,
             bytes / (size_t)n);
    if (rp < n) { /* every member must have planned in the replan tick */
      fprintf(stderr, "goap_bench_squads: only %.1f of %d members planned\n", rp, n);
      rc = 1;
    }
    free(t_tick);
    free(t_board);
    free(t_replan);
    destroy(&w);
  }
  goap_file_destroy(f);
  return rc;
}
