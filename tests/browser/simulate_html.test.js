// simulate_html.test.js -- the simulation timeline page (`goap simulate --html`) in headless
// Chromium. usage: node simulate_html.test.js GOAP_CLI SOLDIER.goap OUT_DIR (see run.sh)
//
// Writes the soldier's door_held simulation as --json and --html, opens the page and checks
// the timeline against the JSON lines: one row per event, the three plans with their costs
// 4, 4, 6, the two failures; clicks the second plan and checks that the embedded trace viewer
// shows its search (the plan kick_door, shoot, its nodes highlighted at the last step). Saves
// a screenshot into OUT_DIR.
"use strict";
const { execFileSync } = require("child_process");
const fs = require("fs");
const path = require("path");
const { chromium } = require("playwright-core");

const [goap, soldier, outDir] = process.argv.slice(2);
let failures = 0, checks = 0;
function check(cond, what) {
  checks++;
  if (!cond) { failures++; console.log("FAIL: " + what); }
}
function eq(a, b, what) {
  check(JSON.stringify(a) === JSON.stringify(b), what + ": got " + JSON.stringify(a) + ", want " + JSON.stringify(b));
}

async function main() {
  fs.mkdirSync(outDir, { recursive: true });
  const html = path.join(outDir, "door_held_simulation.html");
  execFileSync(goap, ["simulate", soldier, "door_held", "--html", html]);
  const lines = execFileSync(goap, ["simulate", soldier, "door_held", "--json"], { encoding: "utf8" })
    .trim().split("\n").map((l) => JSON.parse(l));
  const events = lines.filter((e) => e.event !== "end");
  const text = fs.readFileSync(html, "utf8");
  check(!/(src|href)\s*=\s*["']?\s*https?:/i.test(text), "no network src/href");

  const browser = await chromium.launch({ executablePath: process.env.GOAP_CHROMIUM, headless: true,
                                          args: ["--no-sandbox"] });
  try {
    const page = await browser.newPage({ viewport: { width: 1500, height: 900 } });
    const requests = [], errors = [];
    page.on("request", (r) => { const u = r.url(); if (!u.startsWith("file:") && !u.startsWith("about:")) requests.push(u); });
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto("file://" + path.resolve(html));
    const rows = await page.$$eval("table.sim tr.ev", (r) => r.map((tr) => ({
      cls: tr.className, text: tr.textContent, trace: tr.dataset.trace })));
    eq(rows.length, events.length, "one row per event of `simulate --json`");
    eq(rows.map((r) => r.cls.split(" ")[1]), events.map((e) => e.event), "row kinds in order");
    const plans = rows.filter((r) => / plan( |$)/.test(r.cls));
    eq(plans.length, 3, "three plans");
    eq(plans.map((r) => (r.text.match(/\(cost (\d+)/) || [])[1]), ["4", "4", "6"], "plan costs");
    eq(plans.map((r) => r.cls.includes("traced")), [true, true, true], "every plan is clickable");
    const fails = rows.filter((r) => / failure( |$)/.test(r.cls)).map((r) => r.text);
    eq(fails.length, 2, "two failures");
    check(fails[0].includes("open_door FAILED") && fails[1].includes("kick_door FAILED"), "the failed actions: " + fails);
    check(rows.some((r) => r.text.includes("replan: the action failed")), "replan reasons shown");
    check(rows.some((r) => r.text.includes("memory: door_stuck = true")), "memory writes shown");
    check(rows.some((r) => r.text.includes("world: door_held = true")), "world changes shown");

    // the second plan: its search tree in the viewer
    await page.click("table.sim tr.plan >> nth=1");
    const frame = page.frameLocator("#viewer");
    await frame.locator("#last").click();
    const chips = await frame.locator("#plan .step").allTextContents();
    eq(chips, ["kick_door", "shoot"], "the second plan's search: plan chips");
    const planBoxes = await frame.locator("#treeSpacer .node.plan").allTextContents();
    eq(planBoxes.length, 3, "the plan's nodes highlighted (start, kick_door, shoot)");
    check(planBoxes.some((t) => t.includes("kick_door")) && planBoxes.some((t) => t.includes("shoot")),
          "highlighted nodes are reached by kick_door and shoot: " + planBoxes);
    const T = await page.evaluate(() => window.goapSimulate.data.traces[1]);
    eq(T.cost, 4, "the second trace's cost");
    eq(T.plan.map((a) => T.actions[a].name), ["kick_door", "shoot"], "the second trace's plan");
    eq(await page.$$eval("tr.selected", (r) => r.length), 1, "the clicked row is selected");
    await page.screenshot({ path: path.join(outDir, "simulate_html.png") });
    // the third plan replaces the tree
    await page.click("table.sim tr.plan >> nth=2");
    await frame.locator("#last").click();
    eq(await frame.locator("#plan .step").allTextContents(), ["jump_window", "shoot"], "the third plan's search");
    // the end lines count in the singular and the plural (armory_empty: 1 replan, 1 failure)
    const html2 = path.join(outDir, "armory_empty_simulation.html");
    execFileSync(goap, ["simulate", soldier, "door_held", "armory_empty", "--html", html2]);
    await page.goto("file://" + path.resolve(html2));
    eq(await page.$$eval("div.end", (d) => d.map((e) => e.textContent.replace(/^.*\): /, ""))),
       ["3 plans, 2 replans, 2 actions failed, expectations 2 passed",
        "2 plans, 1 replan, 1 action failed, expectations 2 passed"], "end lines, singular and plural");
    eq(requests, [], "no network requests");
    eq(errors, [], "no page errors");
  } finally {
    await browser.close();
  }
  console.log(`browser (simulate --html): ${checks - failures} passed, ${failures} failed`);
  process.exit(failures ? 1 : 0);
}

main().catch((e) => { console.log("FAIL: " + (e && e.stack || e)); process.exit(1); });
