/*
 * cmd_demo.c -- `goap demo`: the soldier and the door, told as a story.
 *
 * The text of examples/soldier.goap is compiled into the binary (CMake generates
 * goap_cli_soldier_goap[] at configure time), so the demo needs no file on disk and cannot
 * drift from the example.
 *
 * Part 1 is the live scene: the file's simulations, where the soldier acts in a world that
 * fights back, fails, remembers why and replans. Part 2 plans every scenario (what he would
 * plan knowing each lesson in advance).
 *
 * Invariants:
 *  - Every plan adopted in the live scene is checked to be the cheapest from the memory the
 *    soldier had at that moment (by a second, blind search); every simulation's `expect`
 *    lines are checked. A mismatch makes the exit status 1.
 *  - Every scenario is planned with the default (optimal) configuration and its plan checked
 *    against the scenario's expectations and replayed with goap_plan_validate; any mismatch
 *    is printed and makes the exit status 1, so CTest's cli_demo is a real test.
 *  - The first scenario without `given` is the baseline; every other plan is described by
 *    how the facts given to it changed the baseline's actions.
 */
#include "cli.h"

#include "goap/squad.h"
#include "goap/tactics.h"

#include <stdlib.h>
#include <string.h>

static int contains(const int32_t *plan, int n, int32_t a) {
  for (int i = 0; i < n; i++)
    if (plan[i] == a) return 1;
  return 0;
}

/* Names of the actions of `a` missing from `b`, each once, joined by ", ". */
static int list_missing(cli_buf *out, const goap_domain *d, const int32_t *a, int na,
                        const int32_t *b, int nb) {
  int k = 0;
  for (int i = 0; i < na; i++) {
    if (contains(b, nb, a[i]) || contains(a, i, a[i])) continue;
    const char *name = goap_domain_action_name(d, a[i]);
    cli_buf_printf(out, "%s%s", k++ ? ", " : "", name ? name : "?");
  }
  return k;
}

static void print_plan_line(const goap_domain *d, const int32_t *plan, int n, double cost) {
  char num[64];
  printf("   ");
  for (int i = 0; i < n; i++) {
    const char *name = goap_domain_action_name(d, plan[i]);
    cli_format_number(goap_domain_action_cost(d, plan[i]), num, sizeof num);
    printf("%s%s (%s)", i ? " -> " : "", name ? name : "?", num);
  }
  cli_format_number(cost, num, sizeof num);
  printf("%s= %s\n", n ? " " : "(nothing to do) ", num);
}

/* Says how this plan differs from the baseline plan. */
static void print_change(const goap_domain *d, const char *facts, const int32_t *base,
                         int nbase, const int32_t *plan, int n) {
  cli_buf added, dropped;
  cli_buf_init(&added);
  cli_buf_init(&dropped);
  int na = list_missing(&added, d, plan, n, base, nbase);
  int nd = list_missing(&dropped, d, base, nbase, plan, n);
  if (na && nd)
    printf("   %s changed the plan: %s instead of %s.\n", facts, cli_buf_str(&added),
           cli_buf_str(&dropped));
  else if (nd)
    printf("   %s changed the plan: no need for %s.\n", facts, cli_buf_str(&dropped));
  else if (na)
    printf("   %s changed the plan: it needs %s too.\n", facts, cli_buf_str(&added));
  else
    printf("   %s did not change which actions are used.\n", facts);
  cli_buf_free(&added);
  cli_buf_free(&dropped);
}

typedef struct live {
  cli_timeline tl;
  goap_planner *check;   /* a blind, optimal search to confirm each plan's cost */
  goap_word *mem;
  int bad;
  cli_buf costs;         /* "4 -> 4 -> 6" */
  int nplans;
} live;

static void live_event(goap_agent *agent, const goap_agent_event *ev, void *user) {
  live *lv = (live *)user;
  cli_timeline_event(&lv->tl, agent, ev);
  if (ev->kind != GOAP_EVENT_PLAN) return;
  const goap_domain *d = lv->tl.d;
  int nw = 0;
  const goap_cond *want = goap_domain_goal_want(d, ev->goal, &nw);
  goap_request req;
  memset(&req, 0, sizeof req);
  req.start = goap_agent_memory(agent);
  req.want = want;
  req.want_count = nw;
  req.heuristic = GOAP_H_ZERO;
  goap_result res;
  memset(&res, 0, sizeof res);
  char num[64];
  goap_status st = goap_plan(lv->check, &req, &res); /* no buffer: only the cost matters */
  if ((st != GOAP_OK && st != GOAP_BUFFER_TOO_SMALL) || !cli_cost_equal(res.cost, ev->cost)) {
    printf("   !! a cheaper plan existed from here\n");
    lv->bad++;
  }
  cli_format_number(ev->cost, num, sizeof num);
  cli_buf_printf(&lv->costs, "%s%s", lv->nplans++ ? " -> " : "", num);
}

static void live_world(int var, int32_t old_value, int32_t value, double time, void *user) {
  (void)old_value;
  cli_timeline_world(&((live *)user)->tl, var, value, time);
}

static int demo_live(const goap_file *f) {
  const goap_domain *d = goap_file_domain(f);
  int n = goap_file_simulation_count(f), bad = 0;
  goap_planner *check = NULL;
  if (goap_planner_create(d, NULL, &check) != GOAP_OK) return 1;
  printf("The %s and the door, live (the built-in copy of examples/soldier.goap)\n\n"
         "The soldier wants the target dead. He plans, acts, and when the world defeats an\n"
         "action he writes what he learnt into memory and plans again from where he stands.\n",
         goap_domain_name(d));
  cli_buf summary;
  cli_buf_init(&summary);
  for (int i = 0; i < n; ++i) {
    const char *name = goap_file_simulation_name(f, i);
    live lv;
    memset(&lv, 0, sizeof lv);
    lv.tl.d = d;
    lv.check = check;
    cli_buf_init(&lv.costs);
    printf("\n== %s ==\n", name);
    goap_sim_options o;
    memset(&o, 0, sizeof o);
    o.on_event = live_event;
    o.event_user = &lv;
    o.on_world = live_world;
    o.world_user = &lv;
    goap_sim_result res;
    if (goap_file_simulate(f, i, &o, &res) != GOAP_OK) {
      printf("   !! the simulation could not run\n");
      bad++;
      cli_buf_free(&lv.costs);
      continue;
    }
    cli_timeline_end(&lv.tl, name, &res);
    bad += lv.bad + res.failed;
    cli_buf_printf(&summary, "  %-18s plans %-22s replans %d\n", name, cli_buf_str(&lv.costs),
                   res.replans);
    cli_buf_free(&lv.costs);
  }
  printf("\nIn short (plan costs in order; each the cheapest from where he stood):\n%s",
         cli_buf_str(&summary));
  cli_buf_free(&summary);
  goap_planner_destroy(check);
  return bad;
}

/* ---- goap demo squad ------------------------------------------------------------------------ */

/* The arena of the flank scene. The player 'P' hides behind the wall to its west; the squad
 * ('g' gunner, '1' '2' riflemen, 's' shotgunner, 'm' medic) starts in the west. '>' covers face
 * east (toward the player); 'v' and '^' covers north and south of the player are its flanks. */
static const char squad_map[] =
    "#######################\n"
    "#................v....#\n"
    "#.......>.............#\n"
    "#..1....>.............#\n"
    "#..g....>.......#P....#\n"
    "#..2....>.............#\n"
    "#..s....>.............#\n"
    "#..m.............^....#\n"
    "#######################\n";

typedef struct squad_story {
  cli_timeline tl;
  char flanker[64];         /* who flanked */
  int denied;
  /* the map layer: where each member stands, moved when its movement actions succeed */
  goap_arena *arena;
  goap_heatmap *heat;
  int nm;
  const char *names[8];
  goap_map_agent pos[8];
  int flank_checks, flank_yes;
} squad_story;

static const char squad_glyphs[] = {'g', '1', '2', 's', 'm'}; /* in the members' order */

static int member_index(const squad_story *st, const char *name) {
  for (int i = 0; i < st->nm; ++i)
    if (name && st->names[i] && strcmp(st->names[i], name) == 0) return i;
  return -1;
}

/* A cover is taken when another member stands on it. */
static int cover_taken(void *ctx, int cover, int x, int y) {
  (void)cover;
  const squad_story *st = (const squad_story *)ctx;
  for (int i = 0; i < st->nm; ++i)
    if (st->pos[i].x == x && st->pos[i].y == y) return 1;
  return 0;
}

/* flank_to_cover's procedural precondition: a free flank cover exists (the heat map). */
static int flank_cover_free(goap_agent *agent, int action, void *user) {
  (void)agent;
  (void)action;
  squad_story *st = (squad_story *)user;
  goap_occupancy occ = {NULL, cover_taken, st};
  int yes = goap_heatmap_has_flank_cover(st->heat, &occ);
  st->flank_checks++;
  st->flank_yes += yes;
  return yes;
}

static void squad_bind(const goap_file *f, int member, const char *name,
                       goap_action_binding *actions, int action_count, goap_goal_binding *goals,
                       int goal_count, void *user) {
  (void)goals;
  (void)goal_count;
  squad_story *st = (squad_story *)user;
  if (member >= 0 && member < 8) st->names[member] = name;
  int flank = goap_domain_find_action(goap_file_domain(f), "flank_to_cover");
  if (flank >= 0 && flank < action_count) {
    actions[flank].check = flank_cover_free;
    actions[flank].check_user = st;
  }
}

static void print_map(squad_story *st, const char *when) {
  char buf[4096];
  goap_arena_render(st->arena, st->heat, st->pos, st->nm, GOAP_RENDER_HEAT, buf, sizeof buf);
  printf("\n  -- %s (left: the arena; right: the heat map, F = free flank cover) --\n", when);
  for (const char *line = buf; *line;) {
    const char *nl = strchr(line, '\n');
    int n = nl ? (int)(nl - line) : (int)strlen(line);
    printf("     %.*s\n", n, line);
    line += n + (nl ? 1 : 0);
  }
  printf("\n");
}

/* Moves a member when a movement action succeeds. */
static void squad_move(squad_story *st, int who, const char *act) {
  goap_occupancy occ = {NULL, cover_taken, st};
  goap_map_agent *p = &st->pos[who];
  int c = -1;
  if (strcmp(act, "move_to_cover") == 0) c = goap_heatmap_best_cover(st->heat, p->x, p->y, &occ, 0);
  else if (strcmp(act, "flank_to_cover") == 0)
    c = goap_heatmap_best_flank_cover(st->heat, p->x, p->y, &occ, 0);
  goap_cover cv;
  if (c >= 0 && goap_arena_cover(st->arena, c, &cv) == GOAP_OK) {
    p->x = cv.x;
    p->y = cv.y;
  }
}

static void squad_event(goap_agent *agent, const goap_agent_event *ev, void *user) {
  squad_story *st = (squad_story *)user;
  const goap_domain *d = st->tl.d;
  const char *act = ev->action >= 0 ? goap_domain_action_name(d, ev->action) : "";
  const char *who = (const char *)goap_agent_host(agent);
  int idx = member_index(st, who);
  if (ev->kind == GOAP_EVENT_ACTION_SUCCESS && idx >= 0) {
    squad_move(st, idx, act);
    if (strcmp(act, "flank_to_cover") == 0) print_map(st, "the flank is taken");
    return;
  }
  switch (ev->kind) {
    case GOAP_EVENT_PLAN:
    case GOAP_EVENT_RESERVATION_DENIED:
    case GOAP_EVENT_GOAL_DONE:
    case GOAP_EVENT_ACTION_START:
    case GOAP_EVENT_ACTION_FAILURE:
      break;
    case GOAP_EVENT_MEMORY: {
      goap_var_info vi;
      goap_domain_var_info(d, ev->var, &vi);
      if (!(vi.flags & GOAP_VAR_SHARED)) return; /* the squad's blackboard only */
      break;
    }
    default: return;
  }
  if (ev->kind == GOAP_EVENT_RESERVATION_DENIED) st->denied++;
  if (ev->kind == GOAP_EVENT_ACTION_START && strcmp(act, "flank_to_cover") == 0)
    snprintf(st->flanker, sizeof st->flanker, "%s", who ? who : "?");
  cli_timeline_event(&st->tl, agent, ev);
}

static int demo_squad(void) {
  goap_file *f = NULL;
  goap_error err;
  memset(&err, 0, sizeof err);
  if (goap_file_parse("squad.goap", (const char *)goap_cli_squad_goap, goap_cli_squad_goap_size,
                      NULL, &f, &err) != GOAP_OK || !f) {
    fputs("goap demo: the built-in squad example does not load:\n", stderr);
    cli_print_diag(stderr, &err);
    return CLI_EXIT_USAGE;
  }
  goap_arena *arena = NULL;
  goap_error aerr;
  if (goap_arena_parse(squad_map, sizeof squad_map - 1, NULL, &arena, &aerr) != GOAP_OK) {
    fprintf(stderr, "goap demo: the built-in arena does not load: %s\n", aerr.message);
    goap_file_destroy(f);
    return CLI_EXIT_USAGE;
  }
  const goap_domain *d = goap_file_domain(f);
  printf("The squad flank, live (the built-in copy of examples/squad.goap)\n\n"
         "Five soldiers plan for themselves; they coordinate only through a shared blackboard\n"
         "(suppressive_fire_tokens, player_down, man_down) and one flank_slot reservation.\n"
         "Attacking needs suppressive fire; roles make flanking cheap or dear; flank_to_cover\n"
         "also needs a free flank cover on the heat map (a procedural precondition). Shown:\n"
         "plans, actions started, refused reservations, blackboard writes, goals achieved.\n");
  int bad = 0, n = goap_file_simulation_count(f);
  cli_buf summary;
  cli_buf_init(&summary);
  for (int i = 0; i < n; ++i) {
    const char *name = goap_file_simulation_name(f, i);
    squad_story st;
    memset(&st, 0, sizeof st);
    st.tl.d = d;
    st.arena = arena;
    if (goap_heatmap_create(arena, NULL, NULL, &st.heat) != GOAP_OK) {
      bad++;
      continue;
    }
    st.nm = 5;
    for (int k = 0; k < st.nm; ++k) {
      goap_member mb;
      int at = goap_arena_find_member(arena, squad_glyphs[k]);
      st.pos[k].glyph = squad_glyphs[k];
      if (at >= 0 && goap_arena_member(arena, at, &mb) == GOAP_OK) {
        st.pos[k].x = mb.x;
        st.pos[k].y = mb.y;
      }
    }
    printf("\n== %s ==\n", name);
    print_map(&st, "the start");
    goap_sim_options o;
    memset(&o, 0, sizeof o);
    o.on_event = squad_event;
    o.event_user = &st;
    o.bind = squad_bind;
    o.bind_user = &st;
    goap_sim_result res;
    goap_status sst = goap_file_simulate(f, i, &o, &res);
    if (sst != GOAP_OK) {
      printf("   !! the simulation could not run\n");
      bad++;
      goap_heatmap_destroy(st.heat);
      continue;
    }
    cli_timeline_end(&st.tl, name, &res);
    print_map(&st, "the end");
    if (st.flank_checks == 0 || st.flank_yes == 0) {
      printf("   !! the flank cover was never found on the heat map\n");
      bad++;
    }
    bad += res.failed;
    cli_buf_printf(&summary, "  %-16s %-12s flanked; %d refused the flank slot\n", name,
                   st.flanker[0] ? st.flanker : "nobody", st.denied);
    goap_heatmap_destroy(st.heat);
  }
  printf("\nIn short (change a role and a different member flanks):\n%s", cli_buf_str(&summary));
  cli_buf_free(&summary);
  goap_arena_destroy(arena);
  goap_file_destroy(f);
  if (bad) printf("\n%d check%s of the squad scene failed.\n", bad, bad == 1 ? "" : "s");
  return bad ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}

int cli_cmd_demo(int argc, char **argv) {
  if (argc == 1 && strcmp(argv[0], "squad") == 0) return demo_squad();
  if (argc > 0) {
    static const char *const none[] = {"--help", NULL};
    if (argv[0][0] == '-') return cli_unknown_option("demo", argv[0], none);
    return cli_usage_error("demo", "takes no arguments or 'squad' (got '%s')", argv[0]);
  }
  goap_file *f = NULL;
  goap_error err;
  memset(&err, 0, sizeof err);
  if (goap_file_parse("soldier.goap", (const char *)goap_cli_soldier_goap,
                      goap_cli_soldier_goap_size, NULL, &f, &err) != GOAP_OK || !f) {
    fputs("goap demo: the built-in example does not load:\n", stderr);
    cli_print_diag(stderr, &err);
    return CLI_EXIT_USAGE;
  }
  int live_bad = demo_live(f);
  const goap_domain *d = goap_file_domain(f);
  int count = goap_file_scenario_count(f);
  size_t words = goap_domain_state_words(d);
  goap_word *start = calloc(words ? words : 1, sizeof *start);
  goap_planner *planner = NULL;
  if (start) goap_planner_create(d, NULL, &planner); /* NULL on failure: checked below */
  cli_plan *plans = calloc((size_t)(count > 0 ? count : 1), sizeof *plans);
  int rc = CLI_EXIT_USAGE, failures = 0, base = -1;
  cli_buf first_want;
  cli_buf_init(&first_want);
  if (!planner || !plans) {
    fputs("goap demo: out of memory\n", stderr);
    goto done;
  }

  printf("\n\nKnowing each lesson in advance (the file's %d scenario%s, %d action%s)\n", count,
         count == 1 ? "" : "s", goap_domain_action_count(d),
         goap_domain_action_count(d) == 1 ? "" : "s");
  for (int i = 0; i < count; i++) {
    const goap_scenario *s = goap_file_scenario(f, i);
    cli_buf want, facts;
    cli_buf_init(&want);
    cli_buf_init(&facts);
    cli_format_conds(&want, d, s->want, s->want_count);
    cli_format_effects(&facts, d, s->given, s->given_count);

    if (i == 0) {
      printf("\nThe %s wants %s", goap_domain_name(d), cli_buf_str(&want));
      if (s->goal >= 0) printf(" (goal %s)", goap_domain_goal_name(d, s->goal));
      printf(".\nWhenever an action fails, he remembers why (door_stuck, kick_failed,\n"
             "armory_empty) and plans again around it.\n\n");
      cli_buf_printf(&first_want, "%s", cli_buf_str(&want));
    }
    printf("%d. %s: ", i + 1, s->name);
    if (s->given_count == 0)
      printf("nothing in the way");
    else
      printf("he knows %s", cli_buf_str(&facts));
    if (strcmp(cli_buf_str(&want), cli_buf_str(&first_want)) != 0)
      printf(" (and wants %s)", s->want_count ? cli_buf_str(&want) : "nothing");
    printf(".\n");

    cli_plan_init(&plans[i]);
    goap_state_init(d, start);
    goap_status st = goap_state_assign(d, start, s->given, s->given_count);
    if (st == GOAP_OK) {
      goap_request req;
      memset(&req, 0, sizeof req);
      req.start = start;
      req.want = s->want;
      req.want_count = s->want_count;
      st = cli_run_plan(planner, &req, &plans[i]);
    }
    const goap_result *r = &plans[i].result;
    int n = st == GOAP_OK ? cli_plan_length(&plans[i]) : 0;
    int ok = 1;
    char num[64];
    if (st == GOAP_OK) {
      print_plan_line(d, r->plan, n, r->cost);
      double replay = 0.0;
      if (goap_plan_validate(d, start, s->want, s->want_count, r->plan, n, &replay, NULL) !=
              GOAP_OK ||
          !cli_cost_equal(replay, r->cost)) {
        printf("   !! the plan does not replay to the goal at its cost\n");
        ok = 0;
      }
      if (base >= 0)
        print_change(d, cli_buf_str(&facts), plans[base].result.plan,
                     cli_plan_length(&plans[base]), r->plan, n);
      else if (s->given_count == 0)
        base = i;
    } else if (st == GOAP_NO_PLAN) {
      printf("   no plan: the goal cannot be reached.\n");
    } else {
      printf("   the planner failed: %s\n", goap_status_string(st));
      ok = 0;
    }

    if ((s->expect & GOAP_EXPECT_NO_PLAN) && st != GOAP_NO_PLAN) {
      printf("   !! expected no plan\n");
      ok = 0;
    }
    if (!(s->expect & GOAP_EXPECT_NO_PLAN) && st == GOAP_NO_PLAN) ok = 0;
    if ((s->expect & GOAP_EXPECT_COST) && st == GOAP_OK &&
        !cli_cost_equal(r->cost, s->expect_cost)) {
      cli_format_number(s->expect_cost, num, sizeof num);
      printf("   !! expected cost %s\n", num);
      ok = 0;
    }
    if ((s->expect & GOAP_EXPECT_PLAN) && st == GOAP_OK) {
      int same = n == s->expect_plan_length;
      for (int k = 0; same && k < n; k++) same = r->plan[k] == s->expect_plan[k];
      if (!same) {
        cli_buf exp;
        cli_buf_init(&exp);
        cli_format_plan(&exp, d, s->expect_plan, s->expect_plan_length, " ");
        printf("   !! expected plan %s\n", cli_buf_str(&exp));
        cli_buf_free(&exp);
        ok = 0;
      }
    }
    failures += !ok;
    cli_buf_free(&want);
    cli_buf_free(&facts);
  }
  if (failures)
    printf("\n%d of %d scenario%s did not go as the file expects.\n", failures, count,
           count == 1 ? "" : "s");
  else
    printf("\nEvery plan is the cheapest one, as the file's expectations say (A*, default "
           "heuristic).\nTry: goap plan examples/soldier.goap --scenario door_stuck\n");
  if (live_bad) printf("\n%d check%s of the live scene failed.\n", live_bad, live_bad == 1 ? "" : "s");
  rc = failures || live_bad ? CLI_EXIT_FAIL : CLI_EXIT_OK;

done:
  cli_buf_free(&first_want);
  for (int i = 0; plans && i < count; i++) cli_plan_free(&plans[i]);
  free(plans);
  goap_planner_destroy(planner);
  free(start);
  goap_file_destroy(f);
  return rc;
}
