// goap.js -- the JavaScript API of libgoap in the browser (docs/web.md).
//
// Every call runs one `goap` command line (the CLI's own code, compiled to WebAssembly) in a
// Web Worker, so the page's thread never plans: the JSON each call returns is the CLI's
// `--json` output, parsed (one contract: docs/cli.md). The worker is built from a Blob URL
// of code the page already has (goap-module-src.js defines GOAP_MODULE_SOURCE), because
// `new Worker("file://...")` is refused by browsers: the site works from file:// and from
// any static server, with no network access.
//
// Invariants:
//  - Calls are answered in the order they were made (one worker, one queue).
//  - A call that takes longer than its hard timeout (options.timeoutMs, default 20 s)
//    terminates the worker and resolves with status "timeout"; the next call starts a fresh
//    worker and loads the last domain again. cancel() does the same at once.
//  - Searches are bounded by node and time budgets (maxNodes, maxMs: the CLI's --max-nodes
//    and --max-ms); a search that runs out reports the CLI's status ("node_limit",
//    "time_limit") with its partial plan.
(function (root) {
  "use strict";

  // Runs inside the worker: owns the wasm module and runs command lines on request.
  function workerMain() {
    /* global createGoapModule */
    let M = null;
    const ready = createGoapModule({ print: () => {}, printErr: () => {} }).then((m) => { M = m; });
    const text = (p) => { try { return M.FS.readFile(p, { encoding: "utf8" }); } catch (e) { return ""; } };
    self.onmessage = async (e) => {
      await ready;
      const q = e.data, out = { id: q.id, rc: 2, stdout: "", stderr: "", files: {}, ms: 0 };
      try {
        for (const p of Object.keys(q.write || {})) M.FS.writeFile(p, q.write[p]);
        const t0 = performance.now();
        out.rc = M.ccall("goap_web_run", "number", ["string"], [q.argv.join("\n")]);
        out.ms = performance.now() - t0;
        out.stdout = text("/out/stdout");
        out.stderr = text("/out/stderr");
        for (const p of q.read || []) { out.files[p] = text(p); try { M.FS.unlink(p); } catch (x) { /* absent */ } }
        if (q.maxDiagnostics >= 0) {  // `check --json` parsed here, its lists cut: less for the page's thread
          try {
            const j = JSON.parse(out.stdout);
            for (const f of j.files) {
              f.omitted = Math.max(0, f.diagnostics.length - q.maxDiagnostics);
              f.diagnostics = f.diagnostics.slice(0, q.maxDiagnostics);
            }
            out.json = j;
            out.stdout = "";
          } catch (x) { /* not JSON: left as text */ }
        }
      } catch (err) {
        out.rc = -1;
        out.stderr = "the planner stopped: " + (err && err.message ? err.message : String(err));
      }
      self.postMessage(out);
    };
  }

  const DEFAULTS = { maxNodes: 200000, maxMs: 2000, timeoutMs: 20000 };

  class GoapSession {
    constructor(options) {
      this.options = Object.assign({}, DEFAULTS, options || {});
      this.name = "domain.goap";
      this.text = null;
      this.worker = null;
      this.queue = Promise.resolve();
      this.pending = null;
      this.nextId = 1;
    }

    startWorker() {
      if (this.worker) return;
      if (typeof root.GOAP_MODULE_SOURCE !== "string")
        throw new Error("goap.js: load goap-module-src.js before goap.js");
      const src = root.GOAP_MODULE_SOURCE + "\n(" + workerMain.toString() + ")();\n";
      const url = URL.createObjectURL(new Blob([src], { type: "text/javascript" }));
      this.worker = new Worker(url);
      URL.revokeObjectURL(url);
      this.worker.onmessage = (e) => { if (this.pending && e.data.id === this.pending.id) this.pending.done(e.data); };
      this.worker.onerror = (e) => {
        if (this.pending) this.pending.done({ id: this.pending.id, rc: -1, stdout: "", files: {},
                                              stderr: "the planner's worker failed: " + (e.message || "error") });
        this.stopWorker();
      };
      this.loaded = null; // the domain text the worker holds
    }

    stopWorker() {
      if (this.worker) this.worker.terminate();
      this.worker = null;
      this.loaded = null;
    }

    // Cancels the running call (it resolves with status "cancelled") and every queued one.
    cancel() {
      this.stopWorker();
      if (this.pending) this.pending.done({ id: this.pending.id, rc: -1, stdout: "", stderr: "cancelled", files: {}, cancelled: true });
    }

    // Runs argv (the words after `goap`) in the worker; resolves with {rc, stdout, stderr,
    // files, ms} (rc -1: the run did not finish: timeout, cancelled, or a crash).
    run(argv, read, timeoutMs, extra) {
      const call = () => new Promise((resolve) => {
        this.startWorker();
        const write = {};
        if (this.text !== null && this.loaded !== this.text) { write["/" + this.name] = this.text; this.loaded = this.text; }
        const id = this.nextId++;
        const limit = timeoutMs || this.options.timeoutMs;
        const timer = setTimeout(() => {
          this.stopWorker();
          done({ id, rc: -1, stdout: "", files: {}, timedOut: true,
                 stderr: "no answer within " + limit + " ms: the planner was stopped" });
        }, limit);
        const done = (r) => { clearTimeout(timer); this.pending = null; resolve(r); };
        this.pending = { id, done };
        this.worker.postMessage(Object.assign({ id, argv, write, read: read || [] }, extra || {}));
      });
      const p = this.queue.then(call, call);
      this.queue = p.catch(() => {});
      return p;
    }

    file() { return this.name; }

    // Loads the domain text (name: the file name diagnostics show). Resolves with
    // {ok, diagnostics[], errors, warnings, outline} where diagnostics are `goap check --json`'s
    // ({severity, file, line, col, message, hint, source}) and outline is the file's entry
    // ({domain, variables, actions, goals[], scenarios[], simulations[]}; null on an error).
    // options.maxDiagnostics: keep only the first N diagnostics (the rest are counted in
    // `omitted`), which spares the page's thread the JSON of thousands of warnings.
    async loadDomain(text, name, options) {
      this.text = String(text);
      if (name) this.name = String(name).replace(/[^\w.-]/g, "_") || "domain.goap";
      const max = options && options.maxDiagnostics >= 0 ? options.maxDiagnostics : -1;
      const r = await this.run(["check", "--json", this.name], null, 0, { maxDiagnostics: max });
      const j = r.json || parseJson(r.stdout);
      if (!j || !j.files || !j.files.length) return { ok: false, errors: 1, warnings: 0, omitted: 0, outline: null, diagnostics: [failure(this.name, r)] };
      const f = j.files[0];
      return { ok: f.ok, errors: f.errors, warnings: f.warnings, omitted: f.omitted || 0, diagnostics: f.diagnostics, outline: f.ok ? f : null };
    }

    // What to plan for: a scenario name, or {scenario} / {goal} / {want} with an optional
    // {given} (the CLI's --scenario, --goal, --want, --given).
    target(what) {
      if (typeof what === "string") return ["--scenario", what];
      const a = [];
      if (what.scenario) a.push("--scenario", what.scenario);
      if (what.goal) a.push("--goal", what.goal);
      if (what.want) a.push("--want", what.want);
      if (what.given) a.push("--given", what.given);
      return a;
    }

    budgets(opts) {
      const o = Object.assign({}, this.options, opts || {}), a = [];
      if (o.maxNodes) a.push("--max-nodes", String(o.maxNodes));
      if (o.maxMs) a.push("--max-ms", String(o.maxMs));
      if (o.search) a.push("--search", o.search);
      if (o.heuristic) a.push("--heuristic", o.heuristic);
      return a;
    }

    // `goap plan --json`: {status, partial, cost, plan[], expanded, generated, duplicates,
    // nodes, time_us}; on an error {status: "error", message}.
    async plan(what, opts) {
      const r = await this.run(["plan", this.name].concat(this.target(what), this.budgets(opts), ["--json"]));
      const j = parseJson(r.stdout);
      return j || { status: r.timedOut ? "timeout" : r.cancelled ? "cancelled" : "error", message: message(r) };
    }

    // `goap trace --json`: the search's trace (docs/trace.md), or {status: "error", message}.
    async trace(what, opts) {
      const out = "/trace.json";
      const r = await this.run(["trace", this.name].concat(this.target(what), this.budgets(opts), ["--json", out]), [out]);
      const j = parseJson(r.files[out]);
      return j || { status: r.timedOut ? "timeout" : r.cancelled ? "cancelled" : "error", message: message(r) };
    }

    // `goap why` (text): {status: "plan" | "no_plan" | "error", text}.
    async why(what) {
      const r = await this.run(["why", this.name].concat(this.target(what)));
      return { status: r.rc === 0 ? "plan" : r.rc === 1 ? "no_plan" : "error", text: r.rc === 2 || r.rc < 0 ? message(r) : r.stdout };
    }

    // `goap simulate --json`: {ok, events[] (the JSON lines), message}.
    async simulate(name) {
      const r = await this.run(["simulate", this.name].concat(name ? [name] : [], ["--json"]));
      const events = r.stdout.split("\n").filter((l) => l.trim()).map(parseJson).filter(Boolean);
      return { ok: r.rc === 0, events, message: r.rc === 0 ? "" : message(r) };
    }

    // `goap test --json`: {passed, failed, results[] ({file, kind, name, line, pass, detail})}.
    async test(opts) {
      const r = await this.run(["test"].concat(this.budgets(opts), [this.name, "--json"]));
      const lines = r.stdout.split("\n").filter((l) => l.trim()).map(parseJson).filter(Boolean);
      const total = lines.find((l) => l.passed !== undefined) || { passed: 0, failed: 0 };
      return { passed: total.passed, failed: total.failed, results: lines.filter((l) => l.kind),
               message: r.rc === 2 || r.rc < 0 ? message(r) : "" };
    }
  }

  function parseJson(s) { try { return s ? JSON.parse(s) : null; } catch (e) { return null; } }
  function message(r) { return (r.stderr || r.stdout || "").trim() || "exit status " + r.rc; }
  function failure(name, r) {
    return { severity: "error", file: name, line: 0, col: 0, message: message(r), hint: "", source: "" };
  }

  // ---- agents on the page's own thread (a live scene updates them every frame) -----------
  // They need the module itself: load goap-module.js (createGoapModule) before calling.
  let modulePromise = null;
  function loadModule() {
    if (!modulePromise) {
      if (typeof root.createGoapModule !== "function") return Promise.reject(new Error("goap.js: load goap-module.js first"));
      modulePromise = root.createGoapModule({ print: () => {}, printErr: () => {} });
    }
    return modulePromise;
  }
  let agentFiles = 0;
  // One agent with every action and goal of a .goap file, in an empty world: each action
  // succeeds after its `duration`; set() changes what it believes, as a sensor would.
  class GoapAgent {
    // Resolves with the agent, or rejects with an Error carrying .diagnostics (goap check's).
    static async create(text, name) {
      const M = await loadModule();
      const path = "/agent" + (++agentFiles) + "-" + String(name || "domain.goap").replace(/[^\w.-]/g, "_");
      M.FS.writeFile(path, String(text));
      const h = M.ccall("goap_web_agent_create", "number", ["string"], [path]);
      if (!h) {
        M.ccall("goap_web_run", "number", ["string"], [["check", "--json", path].join("\n")]);
        const j = parseJson(M.FS.readFile("/out/stdout", { encoding: "utf8" }));
        M.FS.unlink(path);
        const diags = j && j.files ? j.files[0].diagnostics : [];
        const e = new Error(diags.length ? diags[0].file + ":" + diags[0].line + ":" + diags[0].col + ": " + diags[0].message : "the agent cannot be created");
        e.diagnostics = diags;
        throw e;
      }
      M.FS.unlink(path);
      return new GoapAgent(M, h);
    }
    constructor(M, h) { this.M = M; this.h = h; }
    // Advances it by dt seconds; returns the status (0: ok, see goap_status).
    update(dt) { return this.h ? this.M.ccall("goap_web_agent_update", "number", ["number", "number"], [this.h, dt]) : -1; }
    // Sets a variable of its memory by name (bools 0/1, enums by index); returns the status.
    set(variable, value) { return this.h ? this.M.ccall("goap_web_agent_set", "number", ["number", "string", "number"], [this.h, variable, value | 0]) : -1; }
    // {time, goal, action, plan[], step, cost, planning, memory{var: value}, events[] since the last inspect}.
    inspect() { return this.h ? JSON.parse(this.M.ccall("goap_web_agent_inspect", "string", ["number"], [this.h])) : null; }
    destroy() { if (this.h) this.M.ccall("goap_web_agent_destroy", null, ["number"], [this.h]); this.h = 0; }
  }

  // Goap.create(options) -> a session (options: maxNodes, maxMs, timeoutMs defaults).
  root.Goap = { create: (options) => new GoapSession(options), DEFAULTS, loadModule, Agent: GoapAgent };
})(typeof self !== "undefined" ? self : this);
