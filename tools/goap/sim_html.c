/*
 * sim_html.c -- `goap simulate FILE [SIM...] --html OUT`: one self-contained HTML page with the
 * timeline of each simulation (goals, plans and costs, actions, memory, world changes, replans
 * and their reasons, the member of a squad) where each searched plan opens its search tree in
 * the trace viewer (tools/goap/trace_viewer.html, embedded in the page).
 *
 * Invariants:
 *  - Each event is the object `simulate --json` prints for it; a plan (or a failed search) that
 *    was searched, not served from the cache, gets "trace": i, the index of its search trace:
 *    the same search run again from the agent's memory with the agent type's costs
 *    (goap_agent_type_costs) and default search options, as the simulator's agents plan. When
 *    the re-run's cost differs from the event's (actions removed by checks or refused
 *    reservations during that round) the event gets "trace_note" instead of a wrong tree.
 *  - Traces of more than SIM_HTML_MAX_NODES nodes are left out with a "trace_note".
 *  - The page fetches nothing: everything is inline; "</" in the data is written "<\/" and the
 *    viewer is a JS string with "<" escaped, so nothing can close the script element.
 */
#include "cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SIM_HTML_MAX_NODES 20000u

struct cli_sim_html {
  const goap_domain *d;
  const char *file;
  const char *sim;
  cli_buf sims;   /* {"name": .., "events": [..], "end": {..}}, ... */
  cli_buf traces; /* trace objects, comma-separated */
  int nsims, nevents, ntraces;
};

cli_sim_html *cli_sim_html_create(const goap_file *f, const char *file) {
  cli_sim_html *h = calloc(1, sizeof *h);
  if (!h) return NULL;
  h->d = goap_file_domain(f);
  h->file = file;
  cli_buf_init(&h->sims);
  cli_buf_init(&h->traces);
  return h;
}

void cli_sim_html_destroy(cli_sim_html *h) {
  if (!h) return;
  cli_buf_free(&h->sims);
  cli_buf_free(&h->traces);
  free(h);
}

void cli_sim_html_begin(cli_sim_html *h, const char *simulation) {
  cli_buf_printf(&h->sims, "%s\n{\"name\": ", h->nsims++ ? "," : "");
  cli_json_string(&h->sims, simulation);
  cli_buf_printf(&h->sims, ", \"events\": [");
  h->sim = simulation;
  h->nevents = 0;
}

/* Searches ev's goal again from the agent's memory with tracing on; appends the trace and
 * "trace" (or "trace_note") to the event in h->sims. */
static void add_trace(cli_sim_html *h, goap_agent *agent, const goap_agent_event *ev) {
  const goap_domain *d = h->d;
  int nw = 0, nc = 0;
  goap_request req;
  memset(&req, 0, sizeof req);
  req.start = goap_agent_memory(agent);
  req.want = goap_domain_goal_want(d, ev->goal, &nw);
  req.want_count = nw;
  req.costs = goap_agent_type_costs(goap_agent_get_type(agent), &nc);
  const char *who = (const char *)goap_agent_host(agent);
  cli_buf what, json;
  cli_buf_init(&what);
  cli_buf_init(&json);
  char t[64];
  cli_format_number(floor(ev->time * 1e6 + 0.5) / 1e6, t, sizeof t); /* as the timeline */
  cli_buf_printf(&what, "simulation %s, %s%sgoal %s at t=%s", h->sim, who ? who : "",
                 who ? ": " : "", goap_domain_goal_name(d, ev->goal), t);
  double cost = 0;
  size_t nodes = 0;
  goap_status st =
      cli_trace_search(d, h->file, cli_buf_str(&what), &req, SIM_HTML_MAX_NODES, &json, &cost,
                       &nodes);
  int planned = ev->kind == GOAP_EVENT_PLAN;
  char note[160];
  note[0] = 0;
  if (planned && (st != GOAP_OK || cost < ev->cost - 1e-9 || cost > ev->cost + 1e-9))
    snprintf(note, sizeof note, "the search run again from the agent's memory %s: no tree "
             "(actions left out by checks or reservations in that round?)",
             st == GOAP_OK ? "found another cost" : "found no plan");
  else if (!planned && st == GOAP_OK)
    snprintf(note, sizeof note, "the search run again found a plan: no tree");
  else if (!json.len)
    snprintf(note, sizeof note, "search tree not kept: %lu nodes (more than %u)",
             (unsigned long)nodes, SIM_HTML_MAX_NODES);
  if (note[0]) {
    cli_buf_printf(&h->sims, ", \"trace_note\": ");
    cli_json_string(&h->sims, note);
  } else {
    cli_buf_printf(&h->traces, "%s%s", h->ntraces ? ",\n" : "", cli_buf_str(&json));
    cli_buf_printf(&h->sims, ", \"trace\": %d", h->ntraces++);
  }
  cli_buf_free(&what);
  cli_buf_free(&json);
}

void cli_sim_html_event(cli_sim_html *h, goap_agent *agent, const goap_agent_event *ev,
                        const char *json) {
  size_t n = strlen(json);
  cli_buf_printf(&h->sims, "%s\n", h->nevents++ ? "," : "");
  /* the object without its closing brace, then the trace fields */
  cli_buf_printf(&h->sims, "%.*s", (int)(n ? n - 1 : 0), json);
  if (agent && ev && ev->goal >= 0 &&
      ((ev->kind == GOAP_EVENT_PLAN && !ev->cached) || ev->kind == GOAP_EVENT_PLAN_FAILED))
    add_trace(h, agent, ev);
  else if (ev && ev->kind == GOAP_EVENT_PLAN)
    cli_buf_printf(&h->sims, ", \"trace_note\": \"served from the plan cache: no search\"");
  cli_buf_printf(&h->sims, "}");
}

void cli_sim_html_end(cli_sim_html *h, const char *json) {
  cli_buf_printf(&h->sims, "], \"end\": %s}", json);
}

static void put_script_text(FILE *out, const char *s) {
  for (; *s; s++) {
    if (s[0] == '<' && s[1] == '/') fputs("<\\/", out), s++;
    else fputc(*s, out);
  }
}

static void put_js_string(FILE *out, const char *s) {
  fputc('"', out);
  for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
    if (*c == '"' || *c == '\\') fprintf(out, "\\%c", *c);
    else if (*c == '\n') fputs("\\n", out);
    else if (*c < 0x20 || *c == '<' || *c == '>' || *c == '&') fprintf(out, "\\u%04x", *c);
    else fputc(*c, out);
  }
  fputc('"', out);
}

static const char page_head[] =
    "<!doctype html>\n<!-- written by `goap simulate --html`: self-contained, fetches "
    "nothing -->\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    "<title>goap simulate</title>\n<style>\n"
    " * { box-sizing: border-box; }\n"
    " body { margin: 0; font: 13px/1.4 system-ui, sans-serif; display: flex; height: 100vh; "
    "color: #222; }\n"
    " #timeline { flex: 2; overflow: auto; padding: 6px 10px; border-right: 1px solid #ccc; }\n"
    " #right { flex: 3; display: flex; flex-direction: column; }\n"
    " #right header { padding: 6px 10px; border-bottom: 1px solid #ccc; }\n"
    " #viewer { flex: 1; border: 0; width: 100%; }\n"
    " h1 { font-size: 15px; margin: 0 0 4px 0; } h2 { font-size: 14px; margin: 10px 0 4px 0; }\n"
    " table { border-collapse: collapse; font-family: ui-monospace, monospace; font-size: 12px; }\n"
    " td { padding: 1px 8px 1px 0; vertical-align: top; }\n"
    " tr.plan td { color: #1a8f2e; font-weight: bold; }\n"
    " tr.plan.traced { cursor: pointer; } tr.plan.traced:hover { background: #eef8ef; }\n"
    " tr.selected { outline: 2px solid #3366cc; }\n"
    " tr.failure td, tr.no_plan td { color: #b00; font-weight: bold; }\n"
    " tr.replan td { color: #a05a00; } tr.memory td, tr.world td { color: #555; }\n"
    " tr.goal td, tr.goal_done td { color: #1f4fa0; }\n"
    " .muted { color: #777; font-weight: normal; } .end { margin: 4px 0; color: #555; }\n"
    "</style>\n</head>\n<body>\n"
    "<div id=\"timeline\"><h1 id=\"title\">goap simulate</h1>"
    "<div class=\"muted\">click a plan to see its search tree</div><div id=\"sims\"></div></div>\n"
    "<div id=\"right\"><header id=\"treeTitle\" class=\"muted\">no plan selected</header>"
    "<iframe id=\"viewer\" title=\"search tree\"></iframe></div>\n<script>\nconst DATA = ";

static const char page_tail[] =
    ";\n(function () {\n  \"use strict\";\n"
    "  const $ = (id) => document.getElementById(id);\n"
    "  const esc = (s) => String(s).replace(/[&<>\"]/g, (c) => ({\"&\": \"&amp;\", \"<\": \"&lt;\", "
    "\">\": \"&gt;\", '\"': \"&quot;\"})[c]);\n"
    "  const reasons = {plan_done: \"the plan is finished\", action_failed: \"the action failed\",\n"
    "    timeout: \"the action timed out\", preconditions: \"the next action's preconditions "
    "broke\",\n    watch: \"a watched variable changed\", better_goal: \"a more important goal "
    "is valid\",\n    goal_invalid: \"the goal is no longer valid\", start: \"start\"};\n"
    "  function describe(e) {\n"
    "    switch (e.event) {\n"
    "      case \"replan\": return \"replan: \" + (reasons[e.reason] || e.reason);\n"
    "      case \"goal\": return \"goal \" + e.goal + \" (priority \" + e.priority + \")\";\n"
    "      case \"plan\": return \"plan for \" + e.goal + \" (cost \" + e.cost + (e.cached ? \", "
    "cached\" : \"\") + \"): \" + (e.plan.length ? e.plan.join(\", \") : \"(nothing to do)\");\n"
    "      case \"no_plan\": return \"no plan for \" + e.goal + \" (\" + e.status + \")\";\n"
    "      case \"repair\": return \"plan repaired: \" + e.skipped + \" step(s) already done, "
    "skipped\";\n"
    "      case \"start\": return \"  \" + e.action + \" ...\";\n"
    "      case \"success\": return \"  \" + e.action + \" succeeded\";\n"
    "      case \"failure\": return \"  \" + e.action + (e.timeout ? \" TIMED OUT\" : \" FAILED\");\n"
    "      case \"stop\": return \"  \" + e.action + \" interrupted\";\n"
    "      case \"memory\": return \"    memory: \" + e.var + \" = \" + e.value;\n"
    "      case \"world\": return \"world: \" + e.var + \" = \" + e.value;\n"
    "      case \"goal_done\": return \"goal \" + e.goal + \" achieved\";\n"
    "      case \"idle\": return \"nothing left to do\";\n"
    "      case \"reservation_denied\": return e.action + \" refused: \" + e.resource + \" is "
    "taken\";\n"
    "      default: return e.event;\n    }\n  }\n"
    "  $(\"title\").textContent = \"goap simulate \" + DATA.file;\n"
    "  let html = \"\";\n"
    "  DATA.sims.forEach((s, si) => {\n"
    "    const squad = s.events.some((e) => e.agent !== undefined);\n"
    "    html += \"<h2>simulation \" + esc(s.name) + \"</h2><table class='sim' data-sim='\" + si + "
    "\"'>\";\n"
    "    s.events.forEach((e) => {\n"
    "      const traced = e.trace !== undefined;\n"
    "      html += \"<tr class='ev \" + esc(e.event) + (traced ? \" traced\" : \"\") + \"'\" +\n"
    "        (traced ? \" data-trace='\" + e.trace + \"' title='click: its search tree'\" : \"\") + "
    "\"><td>\" + e.t.toFixed(2) + \"</td>\" +\n"
    "        (squad ? \"<td>\" + esc(e.agent || \"\") + \"</td>\" : \"\") + \"<td>\" + "
    "esc(describe(e)).replace(/^ +/, (m) => \"&nbsp;\".repeat(m.length)) +\n"
    "        (traced ? \" <span class='muted'>[search tree]</span>\" : \"\") +\n"
    "        (e.trace_note ? \" <span class='muted'>(\" + esc(e.trace_note) + \")</span>\" : \"\") "
    "+ \"</td></tr>\";\n"
    "    });\n"
    "    const x = s.end;\n"
    "    const count = (k, noun) => k + \" \" + noun + (k === 1 ? \"\" : \"s\");\n"
    "    html += \"</table><div class='end'>end at \" + x.t + \" (\" + (x.idle ? \"nothing left to "
    "do\" : \"time is up\") + \"): \" + count(x.plans, \"plan\") + \", \" + "
    "count(x.replans, \"replan\") + \", \" + count(x.actions_failed, \"action\") + \" failed\" + "
    "(x.expectations ? \", expectations \" + "
    "(x.failed ? \"FAILED\" : x.expectations + \" passed\") : \"\") + \"</div>\";\n"
    "  });\n"
    "  $(\"sims\").innerHTML = html;\n"
    "  const MARK = \"/*GOAP_TRACE_JSON*/null\";\n"
    "  function open(i, row) {\n"
    "    const T = DATA.traces[i];\n"
    "    document.querySelectorAll(\"tr.selected\").forEach((r) => r.classList.remove(\"selected\"));\n"
    "    if (row) row.classList.add(\"selected\");\n"
    "    $(\"treeTitle\").textContent = \"search tree: \" + T.what + \" (\" + T.stats.nodes + "
    "(T.stats.nodes === 1 ? \" node)\" : \" nodes)\");\n"
    "    $(\"viewer\").srcdoc = VIEWER.replace(MARK, () => JSON.stringify(T).replace(/<\\//g, "
    "\"<\\\\/\"));\n"
    "  }\n"
    "  $(\"sims\").addEventListener(\"click\", (ev) => {\n"
    "    const row = ev.target.closest(\"tr.traced\");\n"
    "    if (row) open(+row.dataset.trace, row);\n"
    "  });\n"
    "  window.goapSimulate = { open, data: DATA };\n"
    "})();\n</script>\n</body>\n</html>\n";

int cli_sim_html_write(const cli_sim_html *h, const char *path) {
  FILE *out = fopen(path, "wb");
  if (!out) return 0;
  fputs(page_head, out);
  fputs("{\"format\": \"goap-simulate-html-1\", \"file\": ", out);
  cli_buf name;
  cli_buf_init(&name);
  cli_json_string(&name, h->file);
  put_script_text(out, cli_buf_str(&name));
  cli_buf_free(&name);
  fputs(", \"sims\": [", out);
  put_script_text(out, cli_buf_str(&h->sims));
  fputs("],\n\"traces\": [", out);
  put_script_text(out, cli_buf_str(&h->traces));
  fputs("]};\nconst VIEWER = ", out);
  put_js_string(out, (const char *)goap_cli_trace_viewer_html);
  fputs(page_tail, out);
  return fclose(out) == 0;
}
