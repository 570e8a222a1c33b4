// trace_viewer.test.js -- the trace viewer (`goap trace --html`) in headless Chromium.
// usage: node trace_viewer.test.js GOAP_CLI SOLDIER.goap BIG.goap OUT_DIR (see run.sh)
//
// Generates the soldier's door_stuck trace as JSON and HTML, opens the HTML, steps through
// every expansion and checks the page against the JSON: node counts, the open list (computed
// here independently from the events: f, then the tie-break, then the node id), the plan's
// highlighted nodes and its actions, a clicked node's state and applicable actions, stepping
// back, play. Then a trace of more than 20,000 nodes: the page keeps only a few rows in the
// DOM and search reveals a node deep in a collapsed subtree. Saves screenshots into OUT_DIR.
"use strict";
const { execFileSync } = require("child_process");
const fs = require("fs");
const path = require("path");
const { chromium } = require("playwright-core");

const [goap, soldier, big, outDir] = process.argv.slice(2);
let failures = 0, checks = 0;
function check(cond, what) {
  checks++;
  if (!cond) { failures++; console.log("FAIL: " + what); }
}
function eq(a, b, what) {
  const ok = JSON.stringify(a) === JSON.stringify(b);
  check(ok, what + ": got " + JSON.stringify(a) + ", want " + JSON.stringify(b));
}

// The expected view at step k, from the JSON alone.
function expected(T, k) {
  const expIdx = [];
  T.events.forEach((e, i) => { if (e[0] === "expand") expIdx.push(i); });
  const end = k < expIdx.length ? expIdx[k] : T.events.length;
  const node = new Map();
  let generated = 0, expanded = 0;
  for (let i = 0; i < end; i++) {
    const [kind, n, p, a, g, h] = T.events[i];
    if (kind !== "expand" && kind !== "goal") generated++;
    if (kind === "new") node.set(n, { g, h: h === null ? Infinity : h, closed: h === null });
    else if (kind === "better") { node.get(n).g = g; node.get(n).closed = false; }
    else if (kind === "expand") { node.get(n).closed = true; expanded++; }
    else if (kind === "goal") node.get(n).closed = true;
  }
  const greedy = T.search === "greedy", w = T.weight;
  const f = (x) => greedy ? x.h : x.g + w * x.h;
  const tie = (x) => Math.fround(greedy ? x.g : x.h);
  const open = [...node.entries()].filter(([, x]) => !x.closed)
    .sort(([i, x], [j, y]) => (f(x) - f(y)) || (tie(x) - tie(y)) || (i - j)).map(([i]) => i);
  return { steps: expIdx.length, generated, expanded, open, visible: node.size };
}

async function viewState(page) {
  return page.evaluate(() => ({
    step: +document.getElementById("step").textContent,
    steps: +document.getElementById("stepCount").textContent,
    generated: +document.getElementById("nGenerated").textContent,
    expanded: +document.getElementById("nExpanded").textContent,
    open: [...document.querySelectorAll("#openList li")].map((li) => +li.dataset.id),
    openCount: +document.getElementById("openCount").textContent,
    rows: document.querySelectorAll("#treeSpacer .node").length,
    planNodes: [...document.querySelectorAll("#treeSpacer .node.plan")].map((b) => +b.dataset.id).sort((a, b) => a - b),
    dashed: [...document.querySelectorAll("#treeSpacer .node.dashed")].map((b) => +b.dataset.id),
  }));
}

async function main() {
  fs.mkdirSync(outDir, { recursive: true });
  const json = path.join(outDir, "door_stuck.json"), html = path.join(outDir, "door_stuck.html");
  execFileSync(goap, ["trace", soldier, "--scenario", "door_stuck", "--json", json, "--html", html]);
  const T = JSON.parse(fs.readFileSync(json, "utf8"));
  check(!/<script[^>]+src=|<link[^>]+href=/i.test(fs.readFileSync(html, "utf8")), "no external script or style");

  const browser = await chromium.launch({ executablePath: process.env.GOAP_CHROMIUM, headless: true,
                                          args: ["--no-sandbox"] });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const requests = [], errors = [];
    page.on("request", (r) => { if (!r.url().startsWith("file:")) requests.push(r.url()); });
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto("file://" + path.resolve(html));

    // it opens at the last step (the plan found); Home is the first step
    const K = expected(T, 0).steps;
    eq(K, T.stats.expanded, "the JSON has one expand event per expansion");
    let v0 = await viewState(page);
    eq(v0.step, K, "opens at the last step");
    eq(v0.planNodes, [...T.plan_nodes].sort((a, b) => a - b), "opens with the plan highlighted");
    eq(v0.rows, T.stats.nodes, "opens with every node");
    await page.keyboard.press("Home");
    v0 = await viewState(page);
    eq(v0.step, 0, "Home: the first step");
    eq(v0.rows, 1, "Home: only the start node");
    // every step, forward
    for (let k = 0; k <= K; k++) {
      const v = await viewState(page), x = expected(T, k);
      eq(v.step, k, "step number");
      eq(v.steps, K, "step count");
      eq(v.generated, x.generated, "generated at step " + k);
      eq(v.expanded, x.expanded, "expanded at step " + k);
      eq(v.open, x.open, "open list at step " + k);
      eq(v.openCount, x.open.length, "open count at step " + k);
      eq(v.rows, x.visible, "tree rows at step " + k);
      if (k < K) await page.click("#next");
    }
    // the last step: the statistics, the plan
    let v = await viewState(page);
    eq(v.expanded, T.stats.expanded, "expanded at the end");
    eq(v.generated, T.stats.generated, "generated at the end");
    eq(v.rows, T.stats.nodes, "nodes at the end");
    eq(v.planNodes, [...T.plan_nodes].sort((a, b) => a - b), "highlighted plan nodes");
    const chips = await page.$$eval("#plan .step", (s) => s.map((e) => e.textContent));
    eq(chips, T.plan.map((a) => T.actions[a].name), "plan actions");
    eq(chips, ["get_ammo", "load_magazine", "kick_door", "shoot"], "the door_stuck plan");
    const neverExpanded = T.nodes.filter((n) => !n.expanded && n.id !== T.plan_nodes[T.plan_nodes.length - 1]).map((n) => n.id);
    eq(v.dashed.sort((a, b) => a - b), neverExpanded, "dashed = generated, not expanded");
    await page.screenshot({ path: path.join(outDir, "trace_viewer_end.png") });

    // the drawn tree: one box per node, the plan's boxes green, dashed = never expanded
    await page.click("#viewToggle");
    const g = await page.evaluate(() => ({
      boxes: [...document.querySelectorAll("#graphSpacer .gnode")].map((b) => +b.dataset.id).sort((a, b) => a - b),
      plan: [...document.querySelectorAll("#graphSpacer .gnode.plan")].map((b) => +b.dataset.id).sort((a, b) => a - b),
      dashed: [...document.querySelectorAll("#graphSpacer .gnode.dashed")].map((b) => +b.dataset.id).sort((a, b) => a - b),
      lines: document.querySelectorAll("#graphSpacer svg line").length,
      green: document.querySelectorAll('#graphSpacer svg line[stroke="#1a8f2e"]').length,
    }));
    eq(g.boxes, T.nodes.map((n) => n.id), "graph: one box per node");
    eq(g.plan, [...T.plan_nodes].sort((a, b) => a - b), "graph: plan boxes");
    eq(g.dashed, neverExpanded, "graph: dashed boxes");
    eq(g.lines, T.nodes.filter((n) => n.parent >= 0).length, "graph: one edge per non-root node");
    eq(g.green, T.plan_nodes.length - 1, "graph: green plan edges");
    await page.screenshot({ path: path.join(outDir, "trace_viewer_graph.png") });
    await page.click("#viewToggle");

    // back one step
    await page.click("#prev");
    v = await viewState(page);
    eq(v.step, K - 1, "back one step");
    eq(v.open, expected(T, K - 1).open, "open list after stepping back");

    // click a node: its state and applicable actions
    const target = T.plan_nodes[1];
    await page.click(`#treeSpacer .node[data-id="${target}"]`);
    const det = await page.evaluate(() => ({
      state: [...document.querySelectorAll("#stateTable tr")].map((tr) => [...tr.children].map((td) => td.textContent)),
      applicable: [...document.querySelectorAll("#applicable li")].map((li) => li.textContent.split(" ")[0]),
    }));
    const n = T.nodes[target];
    eq(det.state.map((r) => r[0]), T.vars.map((x) => x.name), "state table variables");
    eq(det.state.map((r) => r[1]), n.state.map((x, i) => T.vars[i].values.length ? T.vars[i].values[x] : String(x)), "state table values");
    eq(det.applicable, n.applicable.map((a) => T.actions[a].name), "applicable actions");

    // play from the start to the end
    await page.click("#first");
    await page.click("#play");
    await page.waitForFunction((k) => +document.getElementById("step").textContent === k, K, { timeout: 20000 });
    eq((await viewState(page)).open, expected(T, K).open, "open list after play");
    await page.screenshot({ path: path.join(outDir, "trace_viewer.png") });
    eq(requests, [], "no network requests");
    eq(errors, [], "no page errors");

    // a backward (regression) trace: partial states, the same counts
    const wjson = path.join(outDir, "backward.json"), whtml = path.join(outDir, "backward.html");
    execFileSync(goap, ["trace", soldier, "--scenario", "door_stuck", "--search", "backward", "--json", wjson, "--html", whtml]);
    const Bw = JSON.parse(fs.readFileSync(wjson, "utf8"));
    const pageW = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    pageW.on("pageerror", (e) => errors.push(String(e)));
    await pageW.goto("file://" + path.resolve(whtml));
    await pageW.click("#last");
    v = await viewState(pageW);
    eq(v.expanded, Bw.stats.expanded, "backward: expanded at the end");
    eq(v.generated, Bw.stats.generated, "backward: generated at the end");
    eq(v.open, expected(Bw, expected(Bw, 0).steps).open, "backward: open list at the end");
    eq(v.planNodes, [...Bw.plan_nodes].sort((a, b) => a - b), "backward: highlighted plan nodes");
    await pageW.click(`#treeSpacer .node[data-id="${Bw.plan_nodes[0]}"]`);
    const wcells = await pageW.$$eval("#stateTable tr td:nth-child(2)", (t) => t.map((e) => e.textContent));
    check(wcells.includes("*"), "backward: a partial state shows '*' for any value");
    eq(errors, [], "no page errors (backward)");

    // a large trace
    const bjson = path.join(outDir, "big.json"), bhtml = path.join(outDir, "big.html");
    try {
      execFileSync(goap, ["trace", big, "--scenario", "far", "--heuristic", "zero", "--json", bjson, "--html", bhtml]);
    } catch (e) { /* exit 0 expected; a failure shows below */ }
    const B = JSON.parse(fs.readFileSync(bjson, "utf8"));
    check(B.nodes.length >= 20000, "the large trace has >= 20,000 nodes (" + B.nodes.length + ")");
    const page2 = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page2.on("pageerror", (e) => errors.push(String(e)));
    let t0 = Date.now();
    await page2.goto("file://" + path.resolve(bhtml));
    const loadMs = Date.now() - t0;
    t0 = Date.now();
    await page2.click("#last");
    const lastMs = Date.now() - t0;
    v = await viewState(page2);
    eq(v.expanded, B.stats.expanded, "large: expanded at the end");
    eq(v.generated, B.stats.generated, "large: generated at the end");
    check(v.rows > 0 && v.rows < 400, "large: only visible rows are in the DOM (" + v.rows + ")");
    t0 = Date.now();
    for (let i = 0; i < 20; i++) await page2.click("#prev");
    const backMs = Date.now() - t0;
    eq((await viewState(page2)).open, expected(B, B.stats.expanded - 20).open.slice(0, 500), "large: open list 20 steps back");
    // search reveals a node inside collapsed subtrees
    await page2.click("#last");
    const deep = B.nodes.length - 1;
    await page2.fill("#search", "#" + deep);
    await page2.click("#findNext");
    const sel = await page2.$$eval("#treeSpacer .node.selected", (s) => s.map((e) => +e.dataset.id));
    eq(sel, [deep], "large: search selects and reveals the node");
    await page2.screenshot({ path: path.join(outDir, "trace_viewer_large.png") });
    await page2.click("#expandAll");
    await page2.click("#viewToggle");
    const gboxes = await page2.$$eval("#graphSpacer .gnode", (b) => b.length);
    check(gboxes > 0 && gboxes < 400, "large graph, all expanded: only the boxes in view are drawn (" + gboxes + ")");
    const gsel = await page2.$$eval("#graphSpacer .gnode.selected", (s) => s.map((e) => +e.dataset.id));
    eq(gsel, [deep], "large graph: the selected node is scrolled into view");
    console.log(`large trace: ${B.nodes.length} nodes, load ${loadMs} ms, to the last step ${lastMs} ms, 20 steps back ${backMs} ms`);
    eq(errors, [], "no page errors (large)");
  } finally {
    await browser.close();
  }
  console.log(`browser: ${checks - failures} passed, ${failures} failed`);
  process.exit(failures ? 1 : 0);
}

main().catch((e) => { console.log("FAIL: " + (e && e.stack || e)); process.exit(1); });
