// bench.test.js -- the browser bench (build-web/site/bench.html) in headless Chromium, and the
// same cases natively (goap_bench_web, the same measuring code): prints both and the ratio.
// Timings are reported, never asserted; the test checks that every case ran and found the
// expected plan cost (gpgoap_soldier 4, chain_60_0 60, village house 18) on both sides.
// usage: node bench.test.js SITE_DIR GOAP_BENCH_WEB VILLAGE.goap
"use strict";
const { execFileSync } = require("child_process");
const path = require("path");
const { chromium } = require("playwright-core");

const [site, nativeBench, village] = process.argv.slice(2);
const COST = { gpgoap_soldier: 4, chain_60_0: 60, village_replan: 18 };
let failures = 0, checks = 0;
function check(cond, what) {
  checks++;
  if (!cond) { failures++; console.log("FAIL: " + what); }
}

async function main() {
  const browser = await chromium.launch({ executablePath: process.env.GOAP_CHROMIUM, headless: true, args: ["--no-sandbox"] });
  let wasm;
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto("file://" + path.resolve(site, "bench.html"));
    wasm = await page.evaluate(() => window.goapBench.run(400));
    const rows = await page.evaluate(() => [...document.querySelectorAll("#results tbody tr")].map((tr) => tr.dataset.case));
    check(JSON.stringify(rows) === JSON.stringify(Object.keys(COST)), "the page shows one row per case: " + JSON.stringify(rows));
    check(errors.length === 0, "no page errors: " + errors.join(" | "));
  } finally {
    await browser.close();
  }
  const native = execFileSync(nativeBench, [village, "400"], { encoding: "utf8" }).trim().split("\n").map((l) => JSON.parse(l));
  console.log("time per plan: median of batches (fastest batch)");
  console.log("case              config              wasm/plan                native/plan              wasm/native");
  for (const name of Object.keys(COST)) {
    const w = wasm.find((r) => r.case === name), n = native.find((r) => r.case === name);
    check(w && w.status === "ok" && w.cost === COST[name], "wasm " + name + ": " + JSON.stringify(w));
    check(n && n.status === "ok" && n.cost === COST[name], "native " + name + ": " + JSON.stringify(n));
    check(w && n && w.expanded === n.expanded, name + ": the same search on both sides (expanded " + (w && w.expanded) + " vs " + (n && n.expanded) + ")");
    const us = (x) => (x / 1e3).toFixed(3);
    if (w && n) console.log(`${name.padEnd(17)} ${String(w.config).padEnd(19)} ${(us(w.ns_per_plan) + " (" + us(w.min_ns_per_plan) + ") us").padEnd(24)} ${(us(n.ns_per_plan) + " (" + us(n.min_ns_per_plan) + ") us").padEnd(24)} ${(w.ns_per_plan / n.ns_per_plan).toFixed(2)}x (${(w.min_ns_per_plan / n.min_ns_per_plan).toFixed(2)}x)`);
  }
  console.log(`bench.test.js: ${checks - failures}/${checks} checks passed`);
  process.exit(failures ? 1 : 0);
}
main().catch((e) => { console.log("FAIL: " + (e && e.stack ? e.stack : e)); process.exit(1); });
