/*
 * test_web_scene.c -- the live scene's host (web/src/scene.c) natively, so that it also runs
 * under the sanitizers: errors with their exact messages, the village's villagers achieving
 * their jobs, the planning slots, the inspector's search tree giving the agent's plan, the
 * same seed giving the same film, and the squad flank reaching the file's expected end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene.h"
#include "test.h"

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *b = (char *)malloc((size_t)n + 1);
  if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
    free(b);
    b = NULL;
  }
  if (b) b[n] = '\0';
  fclose(f);
  return b;
}

/* Field k (0-based) of agent i in a goap_scene_frame line ([goal, action, progress, planning,
 * plans, goals_done, failures, flash, idle, [watched]]). */
static double frame_field(const char *frame, int i, int k) {
  const char *p = strstr(frame, "\"agents\":[");
  if (!p) return -1e9;
  p += 10;
  for (int a = 0; a < i; ++a) {
    p = strstr(p, "]]");
    if (!p) return -1e9;
    p += 3;
  }
  p = strchr(p, '[');
  for (int f = 0; p && f < k; ++f) p = strchr(p + 1, ',');
  return p ? atof(p + 1) : -1e9;
}

/* The first watched value of agent i. */
static int frame_watch(const char *frame, int i, int w) {
  const char *p = strstr(frame, "\"agents\":[");
  if (!p) return -1;
  p += 10;
  for (int a = 0; a < i; ++a) p = strstr(p, "]]") + 3;
  p = strchr(strchr(p, '[') + 1, '[');
  for (int k = 0; k < w; ++k) p = strchr(p + 1, ',');
  return atoi(p + 1);
}

static const char *const JOBS[] = {"house", "house_and_roof", "well", "festival", "stall",
                                   "iron_tools"};

static goap_scene *village(int n, unsigned seed) {
  char *text = slurp(GOAP_EXAMPLES_DIR "/village.goap");
  if (!text) return NULL;
  goap_scene *s = goap_scene_create("village.goap", text, "wastar", "lmcut", 6, 0.3, 0.04, seed);
  free(text);
  if (!s || goap_scene_error(s)[0]) return s;
  goap_scene_watch(s, "loc");
  goap_scene_planning_slots(s, 3);
  static const char *const places[] = {"home", "forest", "smithy", "workshop", "site"};
  for (int i = 0; i < n; ++i) {
    char spec[64], given[64], name[16];
    snprintf(spec, sizeof spec, "scenario:%s", JOBS[i % 6]);
    snprintf(given, sizeof given, "loc = %s", places[i % 5]);
    snprintf(name, sizeof name, "v%d", i + 1);
    if (goap_scene_add_agent(s, spec, name, JOBS[i % 6], given, -1) != i) return s;
  }
  return s;
}

/* Runs frames of dt; a villager that achieved its goal takes its job up again 1.5 s later
 * (as scene.js does). Returns the goals achieved per agent in done[]. */
static void run(goap_scene *s, int n, int frames, double dt, unsigned *done) {
  double since[64];
  for (int i = 0; i < n; ++i) since[i] = -1, done[i] = 0;
  for (int f = 0; f < frames; ++f) {
    goap_scene_update(s, dt);
    const char *fr = goap_scene_frame(s);
    for (int i = 0; i < n; ++i) {
      unsigned g = (unsigned)frame_field(fr, i, 5);
      if (g > done[i]) done[i] = g, since[i] = 0;
      if (since[i] >= 0 && (since[i] += dt) >= 1.5 && frame_field(fr, i, 8) == 1) {
        goap_scene_reset_agent(s, i, "loc");
        since[i] = -1;
      }
    }
  }
}

TEST(errors) {
  goap_scene *s = goap_scene_create("x.goap", "domain x\nvar a: bool\naction go\n  eff b\n", "",
                                    "", 0, 0, 0, 1);
  REQUIRE(s != NULL);
  CHECK_STR(goap_scene_error(s), "x.goap:4:7: error: unknown variable 'b'\n  eff b\n      ^\n");
  CHECK_EQ_INT(goap_scene_add_agent(s, "", "a", "", "", -1), -1); /* nothing loaded */
  goap_scene_destroy(s);
  s = goap_scene_create("x.goap", "domain x\nvar a: bool\n", "dfs", "", 0, 0, 0, 1);
  CHECK_STR(goap_scene_error(s), "unknown search 'dfs' (astar, wastar, greedy)");
  goap_scene_destroy(s);
  s = goap_scene_create("x.goap", "domain x\nvar a: bool\n", "", "hhh", 0, 0, 0, 1);
  CHECK_STR(goap_scene_error(s), "unknown heuristic 'hhh'");
  goap_scene_destroy(s);

  char *text = slurp(GOAP_EXAMPLES_DIR "/squad.goap");
  REQUIRE(text != NULL);
  s = goap_scene_create("squad.goap", text, "", "", 0, 0, 0, 1);
  free(text);
  CHECK_STR(goap_scene_error(s), "");
  CHECK_EQ_INT(goap_scene_add_agent(s, "agent:nobody", "n", "", "", -1), -1);
  CHECK_STR(goap_scene_error(s), "the file has no agent type 'nobody'");
  CHECK_EQ_INT(goap_scene_add_agent(s, "scenario:none", "n", "", "", -1), -1);
  CHECK_STR(goap_scene_error(s), "the file has no scenario 'none' that pursues a goal");
  CHECK_EQ_INT(goap_scene_add_agent(s, "robot", "n", "", "", -1), -1);
  CHECK_STR(goap_scene_error(s),
            "bad agent type 'robot' (\"\", agent:NAME, goal:NAME or scenario:NAME)");
  CHECK_EQ_INT(goap_scene_add_agent(s, "agent:medic", "n", "", "", 3), -1);
  CHECK_STR(goap_scene_error(s), "no squad 3");
  CHECK_EQ_INT(goap_scene_add_agent(s, "agent:medic", "n", "", "in_cover = 7", -1), -1);
  CHECK(strstr(goap_scene_error(s), "given:1:") == goap_scene_error(s));
  CHECK_EQ_INT(goap_scene_add_agent(s, "agent:medic", "m", "", "in_cover", -1), 0);
  CHECK_EQ_INT(goap_scene_watch(s, "in_cover, nothing"), -1);
  CHECK_STR(goap_scene_error(s), "the file has no variable 'nothing'");
  CHECK_EQ_INT(goap_scene_assign(s, -1, -1, "nothing"), -1);
  CHECK(strstr(goap_scene_error(s), "event:1:1: error: ") == goap_scene_error(s));
  CHECK_EQ_INT(goap_scene_order(s, 0, "get_to_cover"), -1); /* no squad 0 */
  int q = goap_scene_add_squad(s);
  CHECK_EQ_INT(q, 0);
  CHECK_EQ_INT(goap_scene_order(s, q, "dance"), -1);
  CHECK_STR(goap_scene_error(s), "unknown squad behaviour 'dance'");
  CHECK_STR(goap_scene_inspect(s, 5, 1), "null");
  CHECK_EQ_INT(goap_scene_reset_agent(s, 0, "nothing"), -1);
  CHECK(goap_scene_update(s, -1) < 0);
  goap_scene_destroy(s);
  goap_scene_destroy(NULL);
}

TEST(village_jobs) {
  enum { N = 12 };
  goap_scene *s = village(N, 7);
  REQUIRE(s && goap_scene_error(s)[0] == '\0');
  REQUIRE(goap_scene_agent_count(s) == N);
  unsigned done[N];
  run(s, N, 600, 4.0 / 60, done);
  CHECK_NEAR(goap_scene_time(s), 40.0, 1e-6);
  for (int i = 0; i < N; ++i) {
    if (done[i] < 1) fprintf(stderr, "villager %d achieved nothing\n", i + 1);
    CHECK(done[i] >= 1);
  }
  goap_scene_destroy(s);
}

TEST(planning_slots) {
  goap_scene *s = village(10, 7);
  REQUIRE(s && goap_scene_error(s)[0] == '\0');
  goap_scene_planning_slots(s, 1);
  goap_scene_update(s, 1.0 / 60);
  int searched = 0;
  for (int i = 0; i < 10; ++i) {
    const char *js = goap_scene_inspect(s, i, 0);
    searched += strstr(js, "\"expanded\":0,") == NULL;
  }
  CHECK_EQ_INT(searched, 1); /* one slot: one agent searched, nine waited their turn */
  CHECK(strstr(goap_scene_frame(s), "\"planning\":10,") != NULL);
  goap_scene_destroy(s);
}

/* The inspector's tree is the same search: its plan is the agent's plan (looked at every 2 s
 * of simulated time, for every agent that has a plan then). */
TEST(inspect_tree) {
  goap_scene *s = village(6, 3);
  REQUIRE(s && goap_scene_error(s)[0] == '\0');
  unsigned done[6];
  int checked = 0;
  for (int round = 0; round < 10; ++round) {
    run(s, 6, 30, 4.0 / 60, done);
    for (int i = 0; i < 6; ++i) {
      static char js[1 << 20];
      snprintf(js, sizeof js, "%s", goap_scene_inspect(s, i, 1));
      if (strstr(js, ",\"goal\":-1,\"ordered\":")) continue; /* no plan right now */
      const char *plan = strstr(js, "\"plan\":[");
      const char *tree = strstr(js, "\"tree\":{");
      REQUIRE(plan && tree);
      const char *tplan = strstr(tree, "\"plan\":[");
      REQUIRE(tplan);
      size_t n = (size_t)(strchr(plan, ']') - plan);
      CHECK(n > 8 && strncmp(plan, tplan, n + 1) == 0);
      if (!strstr(tree, "\"status\":\"found\"")) fprintf(stderr, "%.300s\n", tree);
      CHECK(strstr(tree, "\"status\":\"found\"") != NULL);
      CHECK(strstr(js, "\"ranking\":[{\"goal\":") != NULL);
      ++checked;
    }
  }
  if (checked < 20) fprintf(stderr, "only %d plans looked at\n", checked);
  CHECK(checked >= 20);
  goap_scene_destroy(s);
}

TEST(same_seed_same_film) {
  char a[8192], b[8192];
  for (int k = 0; k < 2; ++k) {
    goap_scene *s = village(8, 11);
    REQUIRE(s && goap_scene_error(s)[0] == '\0');
    unsigned done[8];
    run(s, 8, 300, 4.0 / 60, done);
    const char *fr = goap_scene_frame(s);
    /* drop the timing field ("ms"), which is the wall clock's */
    const char *agents = strstr(fr, "\"planning\":");
    snprintf(k ? b : a, sizeof a, "%s", agents ? agents : "");
    goap_scene_destroy(s);
  }
  CHECK(a[0] != '\0');
  CHECK_STR(a, b);
}

/* examples/squad.goap's `simulation flank`: the squad's members, `at 0 order get_to_cover`,
 * `at 4 man_down`; it expects `final player_down, !man_down`. */
TEST(squad_flank) {
  char *text = slurp(GOAP_EXAMPLES_DIR "/squad.goap");
  REQUIRE(text != NULL);
  goap_scene *s = goap_scene_create("squad.goap", text, "astar", "", 64, 0.5, 0, 1);
  free(text);
  REQUIRE(s && goap_scene_error(s)[0] == '\0');
  CHECK_EQ_INT(goap_scene_watch(s, "in_cover,flanking,player_down,man_down"), 4);
  int q = goap_scene_add_squad(s);
  static const char *const members[][2] = {{"gunner", "gunner"},
                                           {"rifleman1", "rifleman"},
                                           {"rifleman2", "rifleman"},
                                           {"shotgunner", "shotgunner"},
                                           {"medic", "medic"}};
  for (int i = 0; i < 5; ++i) {
    char spec[64];
    snprintf(spec, sizeof spec, "agent:%s", members[i][1]);
    CHECK_EQ_INT(goap_scene_add_agent(s, spec, members[i][0], "", "", q), i);
  }
  CHECK_EQ_INT(goap_scene_order(s, q, "get_to_cover"), 0);
  for (int f = 0; f < 300; ++f) {
    if (f == 40) CHECK_EQ_INT(goap_scene_assign(s, -1, q, "man_down"), 5);
    goap_scene_update(s, 0.1);
  }
  const char *fr = goap_scene_frame(s);
  for (int i = 0; i < 5; ++i) {
    CHECK_EQ_INT(frame_watch(fr, i, 2), 1); /* player_down */
    CHECK_EQ_INT(frame_watch(fr, i, 3), 0); /* the medic saved the member */
  }
  CHECK_EQ_INT(frame_watch(fr, 3, 1), 1); /* the shotgunner flanked */
  goap_scene_destroy(s);
}

TEST_MAIN(TEST_ENTRY(errors), TEST_ENTRY(village_jobs), TEST_ENTRY(planning_slots),
          TEST_ENTRY(inspect_tree), TEST_ENTRY(same_seed_same_film), TEST_ENTRY(squad_flank))
