// bench.js -- the browser bench (bench.html): runs web/src/bench.c's cases in a Web Worker
// built from a Blob URL (the module's source, goap-module-src.js, as a string: workers from
// file:// URLs are refused) and shows the median time per plan of each.
// Test hook: window.goapBench.run() resolves with the results (tests/browser/bench.test.js).
(function () {
  "use strict";
  const CASES = ["gpgoap_soldier", "chain_60_0", "village_replan"];
  const $ = (id) => document.getElementById(id);

  function workerMain() {
    /* global createGoapModule */
    const ready = createGoapModule({ print: () => {}, printErr: () => {} });
    self.onmessage = async (e) => {
      const M = await ready;
      const r = M.ccall("goap_web_bench", "string", ["string", "string", "number"], [e.data.name, e.data.village, e.data.minMs]);
      self.postMessage(JSON.parse(r));
    };
  }

  let worker = null;
  function call(name, minMs) {
    if (!worker) {
      const src = self.GOAP_MODULE_SOURCE + "\n(" + workerMain.toString() + ")();\n";
      const url = URL.createObjectURL(new Blob([src], { type: "text/javascript" }));
      worker = new Worker(url);
      URL.revokeObjectURL(url);
    }
    return new Promise((resolve) => {
      worker.onmessage = (e) => resolve(e.data);
      worker.onerror = (e) => resolve({ case: name, status: "error", error: e.message || "the worker failed" });
      worker.postMessage({ name, minMs, village: (self.GOAP_EXAMPLES || {})["village.goap"] || "" });
    });
  }

  function fmt(ns) {
    if (!(ns >= 0)) return "";
    if (ns < 1e4) return (ns / 1e3).toFixed(3) + " µs";
    if (ns < 1e7) return (ns / 1e3).toFixed(1) + " µs";
    return (ns / 1e6).toFixed(2) + " ms";
  }

  function row(r) {
    const tr = document.createElement("tr");
    const cells = [r.case, r.config || "", r.status + (r.error ? ": " + r.error : ""), r.cost ?? "", r.expanded ?? "", fmt(r.ns_per_plan), r.plans ?? ""];
    cells.forEach((v, k) => {
      const td = document.createElement("td");
      td.textContent = String(v);
      if (k >= 3) td.className = "num";
      tr.append(td);
    });
    tr.dataset.case = r.case;
    return tr;
  }

  let running = null;
  async function run(minMs) {
    if (running) return running;
    running = (async () => {
      const body = $("results").tBodies[0], out = [];
      body.innerHTML = "";
      $("runBtn").disabled = true;
      for (const name of CASES) {
        $("benchState").textContent = "running " + name + "…";
        const r = await call(name, minMs || 400);
        out.push(r);
        body.append(row(r));
      }
      $("benchState").textContent = "done (" + navigator.userAgent.replace(/.*(Chrom[^ ]+|Firefox\/[^ ]+).*/, "$1") + ")";
      $("runBtn").disabled = false;
      running = null;
      return out;
    })();
    return running;
  }

  $("runBtn").addEventListener("click", () => run());
  if (location.hash === "#run") run();
  window.goapBench = { run, cases: CASES };
})();
