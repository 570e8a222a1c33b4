/*
 * scene.h -- the live scene's host (web/src/scene.c): a `.goap` file's agents and squads in a
 * small scripted world, with JSON views for web/site/scene.js. Not part of the library.
 *
 * One scene is used from one thread. Strings returned live until the next call on the same
 * scene that returns a string. Indexes are those returned by the add functions.
 */
#ifndef GOAP_WEB_SCENE_H
#define GOAP_WEB_SCENE_H

typedef struct goap_scene goap_scene;

/* Loads `text` (a .goap file; `name` is used in diagnostics). search: "astar", "wastar" or
 * "greedy" ("" = astar); heuristic: a CLI heuristic name ("" = default); budget: node
 * expansions per agent update (<= 0: 64); secs_per_cost: how long an action without a
 * `duration` runs per unit of cost (<= 0: 0.5 s); fail_rate: the chance that an action fails
 * when it ends (0..1); seed: the failures' generator. Returns NULL only when out of memory;
 * check goap_scene_error ("" when it loaded). */
goap_scene *goap_scene_create(const char *name, const char *text, const char *search,
                              const char *heuristic, int budget, double secs_per_cost,
                              double fail_rate, unsigned seed);
const char *goap_scene_error(const goap_scene *s);
void goap_scene_destroy(goap_scene *s);

/* A squad: a goap_squad and a blackboard with the file's resources. Its index or -1. */
int goap_scene_add_squad(goap_scene *s);
/* An agent. type_spec: "" (every action and goal of the file), "agent:NAME" (an `agent`
 * block), "goal:NAME" (every action, only that goal) or "scenario:NAME" (every action, only
 * the goal the scenario pursues). Its memory: the domain's defaults,
 * then the `given` line of `scenario` (may be NULL or ""), then `given` (assignments, may be
 * NULL). squad: -1 or a squad index. Returns its index, or -1 with the error set. */
int goap_scene_add_agent(goap_scene *s, const char *type_spec, const char *name,
                         const char *scenario, const char *given, int squad);
/* The variables reported per agent by goap_scene_frame (comma-separated names). */
int goap_scene_watch(goap_scene *s, const char *names);

int goap_scene_assign(goap_scene *s, int agent, int squad, const char *effects);
int goap_scene_reset_agent(goap_scene *s, int agent, const char *keep);
int goap_scene_reset_squad(goap_scene *s, int squad);
int goap_scene_order(goap_scene *s, int squad, const char *behavior);

int goap_scene_planning_slots(goap_scene *s, int n);
double goap_scene_update(goap_scene *s, double dt);
const char *goap_scene_names(goap_scene *s);
const char *goap_scene_frame(goap_scene *s);
const char *goap_scene_inspect(goap_scene *s, int agent, int tree);
int goap_scene_agent_count(const goap_scene *s);
double goap_scene_time(const goap_scene *s);

#endif /* GOAP_WEB_SCENE_H */
