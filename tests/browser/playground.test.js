// playground.test.js -- the browser playground (build-web/site/index.html, docs/web.md) in
// headless Chromium, from file:// and from a local HTTP server.
// usage: node playground.test.js GOAP_CLI SITE_DIR EXAMPLES_DIR BIG.goap OUT_DIR (see playground.sh)
//
// The native `goap` is the oracle: the page's plan, diagnostics and search-tree node count
// must be what the CLI prints for the same text. Checks: the soldier's door_stuck plan (cost 6,
// kick_door); a typo's file:line:col diagnostic with its "did you mean" at the right line and
// the plan back once fixed; the search tree opened at its last step, Home to the first, stepped
// to the end, its node count equal to `goap trace --json`'s; a share link round trip; an empty
// file, a 1 MB file, a search that runs out of its node budget (status and partial plan), a
// 10,000-action domain (a clear message, the page usable meanwhile: the longest main-thread
// gap is measured and reported, not asserted); no network requests. Screenshots at 1280x800 and
// 1920x1080 go to OUT_DIR.
"use strict";
const { execFileSync, spawn } = require("child_process");
const fs = require("fs");
const path = require("path");
const { chromium } = require("playwright-core");

const [goapArg, site, examples, big, outDir] = process.argv.slice(2);
const goap = path.resolve(goapArg);
let failures = 0, checks = 0;
function check(cond, what) {
  checks++;
  if (!cond) { failures++; console.log("FAIL: " + what); }
}
function eq(a, b, what) {
  check(JSON.stringify(a) === JSON.stringify(b), what + ": got " + JSON.stringify(a) + ", want " + JSON.stringify(b));
}
// The CLI on a text saved under the same file name the page uses (diagnostics name the file).
const tmp = fs.mkdtempSync(path.join(require("os").tmpdir(), "goap-playground-"));
function cli(args, text, name) {
  fs.writeFileSync(path.join(tmp, name), text);
  try {
    return execFileSync(goap, args, { cwd: tmp, encoding: "utf8", maxBuffer: 1 << 28, stdio: ["ignore", "pipe", "ignore"] });
  } catch (e) { return e.stdout; }
}

async function settled(page) {
  // the edit's check and test have answered, and the plan tab shows a result
  await page.waitForFunction(() => {
    const s = document.getElementById("status");
    return !s.classList.contains("busy") && !/planning/.test(document.getElementById("planHead").textContent);
  }, null, { timeout: 60000 });
}
async function setText(page, text, name) {
  await page.evaluate(([t, n]) => window.goapPlayground.setText(t, n), [text, name]);
  await settled(page);
}
async function chooseScenario(page, name) {
  await page.click(`#scenarios tr[data-kind="scenario"][data-name="${name}"]`);
  await page.waitForFunction((n) => document.getElementById("planHead").textContent.startsWith("scenario " + n + ":"), name, { timeout: 60000 });
}
const planSteps = (page) => page.$$eval("#planSteps li", (l) => l.map((e) => e.textContent));

async function main() {
  fs.mkdirSync(outDir, { recursive: true });
  const soldier = fs.readFileSync(path.join(examples, "soldier.goap"), "utf8");
  const browser = await chromium.launch({ executablePath: process.env.GOAP_CHROMIUM, headless: true, args: ["--no-sandbox"] });
  const errors = [], requests = [];
  const newPage = async (w, h) => {
    const p = await browser.newPage({ viewport: { width: w, height: h } });
    p.on("pageerror", (e) => errors.push(String(e)));
    p.on("request", (r) => { if (!/^(file|blob|data|about):/.test(r.url()) && !r.url().startsWith(httpBase || "none:")) requests.push(r.url()); });
    return p;
  };
  let httpBase = null, server = null;
  try {
    const url = "file://" + path.resolve(site, "index.html");
    const page = await newPage(1280, 800);
    await page.goto(url);
    await settled(page);

    // the soldier, door_stuck: cost 6 with kick_door, as the CLI plans it
    eq(await page.inputValue("#editor"), soldier, "opens with the soldier example");
    await chooseScenario(page, "door_stuck");
    const want = JSON.parse(cli(["plan", "soldier.goap", "--scenario", "door_stuck", "--json"], soldier, "soldier.goap"));
    eq(await page.textContent("#planCost"), String(want.cost), "door_stuck: the CLI's cost");
    eq(await page.textContent("#planCost"), "6", "door_stuck: cost 6");
    eq(await planSteps(page), want.plan, "door_stuck: the CLI's plan");
    check((await planSteps(page)).includes("kick_door"), "door_stuck: the plan kicks the door");
    const rows = await page.$$eval("#scenarios tr", (r) => r.map((e) => [e.dataset.name, e.querySelector(".badge") && e.querySelector(".badge").textContent]));
    eq(rows.filter((r) => r[1] === "PASS").length, 9, "goap test: 5 scenarios and 4 simulations pass");
    await page.screenshot({ path: path.join(outDir, "playground_1280x800.png") });

    // a typo in an action name: the diagnostic at its line and column, with "did you mean"
    const typo = soldier.replace("expect plan get_ammo load_magazine kick_door", "expect plan get_ammo load_magazine kick_dor");
    check(typo !== soldier, "the typo changes the file");
    const diag = JSON.parse(cli(["check", "--json", "soldier.goap"], typo, "soldier.goap")).files[0].diagnostics[0];
    await page.fill("#editor", typo);  // as typed: the input event, then the debounced check
    await page.waitForSelector(".diag.error", { timeout: 30000 });
    const shown = await page.$$eval(".diag", (d) => d.map((e) => ({ where: e.querySelector(".where").textContent, hint: (e.querySelector(".hint") || {}).textContent, text: e.textContent, line: +e.dataset.line })));
    eq(shown.length, 1, "one diagnostic");
    eq(shown[0].where, `soldier.goap:${diag.line}:${diag.col}:`, "the diagnostic's file:line:col");
    eq([diag.line, diag.col], [101, 38], "the CLI puts it at 101:38");
    eq(shown[0].hint, "did you mean 'kick_door'?", "the did-you-mean hint");
    check(shown[0].text.includes("unknown action 'kick_dor'"), "the message names the typo: " + shown[0].text);
    eq(await page.$$eval("#gutter .err", (s) => s.map((e) => +e.textContent)), [101], "the gutter marks line 101");
    const mark = await page.evaluate(() => {
      const m = document.querySelector("#marks .line.error"), ed = document.getElementById("editor");
      const lh = parseFloat(getComputedStyle(ed).lineHeight);
      return Math.round((m.getBoundingClientRect().top - ed.getBoundingClientRect().top - 8) / lh) + 1;
    });
    eq(mark, 101, "the editor highlights line 101");
    eq(await page.textContent("#planHead"), "fix the error to plan", "no plan while the file has an error");
    await page.click(".diag");
    const caret = await page.evaluate(() => { const e = document.getElementById("editor"); return e.value.slice(0, e.selectionStart).split("\n").length; });
    eq(caret, 101, "clicking the diagnostic puts the cursor on its line");
    await page.waitForTimeout(100);
    await page.screenshot({ path: path.join(outDir, "playground_typo.png") });
    // fixed: the plan returns
    await page.fill("#editor", soldier);
    await page.waitForFunction(() => document.getElementById("planHead").textContent.startsWith("scenario door_stuck: plan found"), null, { timeout: 30000 });
    eq(await page.$$eval(".diag", (d) => d.length), 0, "fixed: no diagnostics");
    eq(await page.textContent("#planCost"), "6", "fixed: door_stuck's cost 6 again");

    // the search tree: opens at the last step; Home; stepped to the end; the CLI's node count
    const T = JSON.parse((cli(["trace", "soldier.goap", "--scenario", "door_stuck", "--json", "t.json"], soldier, "soldier.goap"), fs.readFileSync(path.join(tmp, "t.json"), "utf8")));
    await page.click('#tabs button[data-tab="tree"]');
    const frame = page.frameLocator("#viewer");
    await frame.locator("#stepCount").filter({ hasText: String(T.stats.expanded) }).waitFor({ timeout: 30000 });
    const at = async () => ({ step: +(await frame.locator("#step").textContent()), steps: +(await frame.locator("#stepCount").textContent()),
                              nodes: await frame.locator("#treeSpacer .node").count() });
    eq(await at(), { step: T.stats.expanded, steps: T.stats.expanded, nodes: T.nodes.length }, "the tree opens at the last step with every node");
    eq(await frame.locator("#plan .step").allTextContents(), ["get_ammo", "load_magazine", "kick_door", "shoot"], "the tree's plan");
    await frame.locator("#title").click();
    await page.keyboard.press("Home");
    eq(await at(), { step: 0, steps: T.stats.expanded, nodes: 1 }, "Home: the first step");
    for (let k = 0; k < T.stats.expanded; k++) await frame.locator("#next").click();
    const end = await at();
    eq(end.step, T.stats.expanded, "stepped to the end");
    eq(end.nodes, T.nodes.length, "node count at the end = goap trace --json's");
    eq(end.nodes, T.stats.nodes, "node count = the trace's stats");
    await page.screenshot({ path: path.join(outDir, "playground_tree.png") });

    // why and the simulation timeline
    await chooseScenario(page, "door_stuck");
    await page.click('#tabs button[data-tab="why"]');
    await page.waitForFunction(() => /^plan found, cost 6/.test(document.getElementById("whyText").textContent), null, { timeout: 30000 });
    eq((await page.textContent("#whyText")).split("\n")[0], cli(["why", "soldier.goap", "--scenario", "door_stuck"], soldier, "soldier.goap").split("\n")[0], "why: the CLI's text");
    await page.click('#scenarios tr[data-kind="simulation"][data-name="door_held"]');
    await page.waitForFunction(() => /event/.test(document.getElementById("simHead").textContent), null, { timeout: 30000 });
    const simLines = cli(["simulate", "soldier.goap", "door_held", "--json"], soldier, "soldier.goap").split("\n").filter((l) => l.trim()).length;
    eq(await page.$$eval("#timeline tbody tr", (r) => r.length), simLines, "simulation: one row per event of goap simulate --json");
    await page.screenshot({ path: path.join(outDir, "playground_simulation.png") });
    await page.click('#tabs button[data-tab="plan"]');

    // a share link: the fragment carries the text (non-ASCII included) into a new page
    const shared = soldier.replace("domain soldier", "# a designer's note: \u00e9t\u00e9 \u2192 ok\ndomain soldier");
    await setText(page, shared, "mine.goap");
    await page.click("#share");
    await page.waitForFunction(() => location.hash.startsWith("#file="), null, { timeout: 10000 });
    const link = page.url();
    check(/#file=mine\.goap&[zt]=/.test(link), "the share link has the file in its fragment: " + link.slice(0, 80));
    const page2 = await newPage(1280, 800);
    await page2.goto(link);
    await settled(page2);
    eq(await page2.inputValue("#editor"), shared, "the shared link opens the same text");
    eq(await page2.inputValue("#fileName"), "mine.goap", "the shared link keeps the file name");
    await page2.close();

    // an empty file: a clear message, no error
    await setText(page, "", "empty.goap");
    eq(await page.isVisible("#editor"), true, "empty: the text area is editable");
    eq(await page.textContent("#diagSummary"), "no problems", "empty: no problems");
    check((await page.textContent("#scenarios")).includes("The file is empty"), "empty: says the file is empty");

    // 1 MB: the soldier after 1 MB of comments, then a stray word on the last line
    const pad = ("# " + "x".repeat(60) + "\n").repeat(Math.ceil((1 << 20) / 63));
    const mb = pad + soldier + "oops\n";
    check(mb.length > (1 << 20), "the big file has more than 1 MB");
    const mbDiag = JSON.parse(cli(["check", "--json", "big1mb.goap"], mb, "big1mb.goap")).files[0].diagnostics[0];
    await setText(page, mb, "big1mb.goap");
    eq(await page.$$eval(".diag .where", (d) => d.map((e) => e.textContent)), [`big1mb.goap:${mbDiag.line}:${mbDiag.col}:`], "1 MB: the CLI's diagnostic");
    await page.click(".diag");
    await page.waitForTimeout(200);
    eq(await page.$$eval("#gutter .err", (s) => s.map((e) => +e.textContent)), [mbDiag.line], "1 MB: the diagnostic's line, scrolled to, is marked");
    check((await page.textContent("#bigView")).split("\n").includes("oops"), "1 MB: clicking the diagnostic shows its line");
    check(/^large file \(1\.\d\d MB, [\d,]+ lines\): read-only here/.test(await page.textContent("#bigNoteText")), "1 MB: says the file is shown read-only: " + await page.textContent("#bigNoteText"));
    await page.screenshot({ path: path.join(outDir, "playground_1mb.png") });
    await setText(page, pad + soldier, "big1mb.goap");
    eq(await page.textContent("#testSummary"), "9 passed, 0 failed", "1 MB: the scenarios run");

    // a search that runs out of its node budget: the status and the partial plan, as the CLI's
    const bigText = fs.readFileSync(big, "utf8");
    await page.fill("#maxNodes", "500");
    await page.dispatchEvent("#maxNodes", "change");
    await setText(page, bigText, "big.goap");
    await chooseScenario(page, "far");
    const lim = JSON.parse(cli(["plan", "big.goap", "--scenario", "far", "--max-nodes", "500", "--max-ms", "2000", "--json"], bigText, "big.goap"));
    eq(lim.status, "node_limit", "the CLI runs out of nodes too");
    const head = await page.textContent("#planHead");
    check(head.includes("node_limit") && head.includes("node budget") && head.includes("Partial plan: the most promising path so far, cost " + lim.cost), "budget: the status and the partial plan are named: " + head);
    eq(await planSteps(page), lim.plan, "budget: the CLI's partial plan");
    check(lim.plan.length > 0, "budget: the partial plan is not empty");
    await page.screenshot({ path: path.join(outDir, "playground_budget.png") });
    await page.fill("#maxNodes", "200000");
    await page.dispatchEvent("#maxNodes", "change");

    // 10,000 actions: a clear message; the page stays usable while the worker plans
    const lines = ["domain huge"];
    for (let v = 0; v < 100; v++) lines.push(`var v${v}: bool`);
    for (let i = 0; i < 10000; i++) lines.push(`action a${i}`, `  cost ${1 + (i % 5)}`, `  pre v${i % 100}`, `  eff v${(i * 7 + 1) % 100}, !v${(i * 3 + 2) % 100}`);
    lines.push("scenario all", "  given v0", "  want " + Array.from({ length: 30 }, (_, k) => "v" + (k * 3 + 1)).join(", "));
    const huge = lines.join("\n") + "\n";
    await page.evaluate(() => {
      window.__gaps = []; window.__long = [];
      try { new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push(e.duration); }).observe({ entryTypes: ["longtask"] }); } catch (e) { /* not supported */ }
      let last = performance.now();
      const tick = (t) => { window.__gaps.push(t - last); last = t; if (!window.__stopProbe) requestAnimationFrame(tick); };
      requestAnimationFrame(tick);
    });
    const t0 = Date.now();
    await page.evaluate((t) => { window.goapPlayground.setText(t, "huge.goap"); }, huge);
    // while the worker loads and plans, the page answers: a tab switch takes effect
    await page.click('#tabs button[data-tab="why"]');
    const switched = await page.evaluate(() => document.getElementById("tab-why").classList.contains("on"));
    check(switched, "10,000 actions: the tabs answer while the worker works");
    await page.click('#tabs button[data-tab="plan"]');
    await settled(page);
    const hugeMs = Date.now() - t0;
    const probe = await page.evaluate(() => { window.__stopProbe = true; return { gaps: window.__gaps.slice(5), long: window.__long }; });
    const status = await page.textContent("#status"), hugeHead = await page.textContent("#planHead");
    check(/10000 actions/.test(status), "10,000 actions: the status names the domain's size: " + status);
    check(/^scenario all: (plan found|no plan|\S+_limit|timeout)/.test(hugeHead), "10,000 actions: the plan panel gives a clear result: " + hugeHead);
    const hugeWarn = JSON.parse(cli(["check", "--json", "huge.goap"], huge, "huge.goap")).warnings;
    eq(await page.textContent("#diagSummary"), hugeWarn + " warnings", "10,000 actions: the CLI's warning count");
    eq(await page.textContent("#diagnostics .diag.muted"), "… and " + (hugeWarn - 100) + " more (goap check lists them all)", "10,000 actions: 100 listed, the rest counted");
    const maxGap = Math.max(0, ...probe.gaps);
    console.log(`10,000 actions: ${hugeMs} ms to check, test and plan (${huge.length} bytes); longest frame gap ${maxGap.toFixed(1)} ms; ` +
                `long tasks ${probe.long.length} (longest ${Math.max(0, ...probe.long).toFixed(1)} ms); plan: ${hugeHead}`);
    await page.screenshot({ path: path.join(outDir, "playground_huge.png") });

    // the agents API (goap.js Goap.Agent, on the page's thread with goap-module.js)
    await page.addScriptTag({ path: path.join(site, "goap-module.js") });
    const ag = await page.evaluate(async (text) => {
      const a = await Goap.Agent.create(text, "soldier.goap");
      const events = [];
      for (let f = 0; f < 60; f++) { a.update(0.1); events.push(...a.inspect().events); }
      const end = a.inspect();
      a.destroy();
      let err = null;
      try { await Goap.Agent.create(text.replace("pre has_ammo", "pre has_amo"), "bad.goap"); } catch (e) { err = e.message; }
      return { plans: events.filter((e) => e.event === "plan"), done: events.filter((e) => e.event === "goal_done").length, end, err };
    }, soldier);
    const dflt = JSON.parse(cli(["plan", "soldier.goap", "--scenario", "default", "--json"], soldier, "soldier.goap"));
    eq(ag.plans.map((p) => [p.plan, p.cost]), [[dflt.plan, dflt.cost]], "agent: one plan, the CLI's for the default state");
    eq([ag.done, ag.end.memory.target_dead, ag.end.goal], [1, 1, null], "agent: the goal done, the target dead, idle");
    const badDiag = JSON.parse(cli(["check", "--json", "bad.goap"], soldier.replace("pre has_ammo", "pre has_amo"), "bad.goap")).files[0].diagnostics[0];
    eq(ag.err, `/agent2-bad.goap:${badDiag.line}:${badDiag.col}: ${badDiag.message}`, "agent: a bad file's diagnostic");

    // screenshots: the door_stuck plan at 1280x800 (above) and 1920x1080
    const wide = await newPage(1920, 1080);
    await wide.goto(url);
    await settled(wide);
    await chooseScenario(wide, "door_stuck");
    await wide.screenshot({ path: path.join(outDir, "playground_1920x1080.png") });
    await wide.click('#tabs button[data-tab="tree"]');
    await wide.frameLocator("#viewer").locator("#plan .step").first().waitFor({ timeout: 30000 });
    await wide.screenshot({ path: path.join(outDir, "playground_tree_1920x1080.png") });

    // from a static HTTP server: the same page, the same plan
    server = spawn("python3", ["-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", path.resolve(site)], { stdio: ["ignore", "pipe", "pipe"] });
    const port = await new Promise((resolve, reject) => {
      let buf = "";
      const on = (d) => { buf += d; const m = /port (\d+)/.exec(buf); if (m) resolve(+m[1]); };
      server.stdout.on("data", on); server.stderr.on("data", on);
      server.on("exit", () => reject(new Error("http.server exited: " + buf)));
      setTimeout(() => reject(new Error("http.server did not start: " + buf)), 10000);
    });
    httpBase = `http://127.0.0.1:${port}/`;
    const hp = await newPage(1280, 800);
    await hp.goto(httpBase + "index.html");
    await settled(hp);
    await chooseScenario(hp, "door_stuck");
    eq(await hp.textContent("#planCost"), "6", "over HTTP: door_stuck's cost 6");
    eq(await planSteps(hp), want.plan, "over HTTP: the CLI's plan");

    eq(requests, [], "no network requests beyond the page's own folder");
    eq(errors, [], "no page errors");
  } finally {
    if (server) server.kill();
    await browser.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  console.log(`playground: ${checks - failures} passed, ${failures} failed`);
  process.exit(failures ? 1 : 0);
}

main().catch((e) => { console.log("FAIL: " + (e && e.stack || e)); process.exit(1); });
