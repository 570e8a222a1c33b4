/*
 * scene_trace.c -- the live scene's search tree in the trace viewer's format: an agent's last
 * search, searched again with tracing on (goap_scene_last_request: the same memory, goal,
 * costs, search, heuristic and node budget, so the same tree and plan), written as
 * `goap trace --json` writes it (cli_trace_search, tools/goap/cmd_trace.c), so that the page
 * opens it in tools/goap/trace_viewer.html, the site's one tree viewer.
 *
 * Invariants:
 *  - WebAssembly only (scripts/web.sh links it with the `goap` tool's commands); scene.c
 *    stays free of the tool so that it also builds natively (test_web_scene).
 *  - The returned string is the caller's (free it with the module's _free); nothing is kept.
 */
#include <emscripten.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "scene.h"

const char *goap_scene_trace(goap_scene *s, int agent, const char *file);

/* The trace of agent's last search as `goap trace --json` writes it, or "null" when the agent
 * has not planned (or the search could not be recorded). NULL only when out of memory. */
EMSCRIPTEN_KEEPALIVE const char *goap_scene_trace(goap_scene *s, int agent, const char *file) {
  goap_request req;
  const char *goal = NULL, *name = NULL;
  cli_buf json, what;
  cli_buf_init(&json);
  cli_buf_init(&what);
  if (goap_scene_last_request(s, agent, &req, &goal, &name) == 0) {
    cli_buf_printf(&what, "agent %s: goal %s, from its memory when it planned", name, goal);
    double cost = 0;
    size_t nodes = 0;
    cli_trace_search(goap_scene_domain(s), file ? file : "", cli_buf_str(&what), &req,
                     req.max_nodes, &json, &cost, &nodes);
  }
  const char *text = json.len ? cli_buf_str(&json) : "null";
  char *out = (char *)malloc(strlen(text) + 1);
  if (out) memcpy(out, text, strlen(text) + 1);
  cli_buf_free(&json);
  cli_buf_free(&what);
  return out;
}
