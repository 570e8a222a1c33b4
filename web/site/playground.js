// playground.js -- the playground page (index.html, docs/web.md) over the JS API of goap.js.
//
// Invariants:
//  - The page never plans on its own thread: every check, test, plan, trace, why and
//    simulation is a goap.js call answered by the Web Worker; the page only renders.
//  - Each edit starts a new generation (debounced): results of an older generation are
//    dropped, and a call still running for one is cancelled, so what is shown always belongs
//    to the text in the editor.
//  - The file round-trips through the address's fragment (#file=NAME&z=DEFLATED or &t=TEXT,
//    base64url): opening a shared link shows the same text.
/* global Goap, GOAP_EXAMPLES, GOAP_TRACE_VIEWER_HTML */
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const editor = $("editor"), gutter = $("gutter"), marks = $("marks");
  const session = Goap.create();
  const VIEWER_MAX_NODES = 5000;   // the search tree tab records at most this many nodes
  const DEBOUNCE_MS = 300;
  const MAX_DIAGS = 100;           // diagnostics listed
  const MAX_MARKED = 1000;         // diagnostics marked in the gutter (loaded from the worker)
  const MAX_TEXT = 20000;          // characters of `goap why` shown
  const clip = (t) => t.length <= MAX_TEXT ? t : t.slice(0, MAX_TEXT) + "\n… (" + (t.length - MAX_TEXT).toLocaleString("en") +
    " more characters: run goap why on the file for the whole text)";

  let gen = 0;              // the edit generation
  let outline = null;       // `goap check --json`'s outline of the loaded file, or null
  let target = null;        // {scenario} or {goal}: what the plan/tree/why tabs show
  let tab = "plan";
  const shown = {};         // tab -> the key of what it shows (gen, target, budgets)
  let timer = null;

  const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
  const plural = (n, w) => n + " " + w + (n === 1 ? "" : "s");
  function setStatus(text, kind) {
    const s = $("status");
    s.textContent = text;
    s.className = kind || "";
  }
  const budgets = () => ({ maxNodes: Math.max(1, +$("maxNodes").value || 1), maxMs: Math.max(1, +$("maxMs").value || 1) });
  const fileName = () => ($("fileName").value.trim().replace(/[^\w.-]/g, "_") || "domain.goap");

  // ---- the editor: a textarea sized to its text, line numbers, marks at diagnostics ------------
  // A file larger than LARGE_BYTES is shown read-only by a view that draws only the lines in
  // sight (a browser's text area lays out all of its text on every change: seconds for 1 MB,
  // which would freeze the page); "edit anyway" puts it into the text area.
  const LARGE_BYTES = 200 * 1024;
  let big = null;           // {text, lines[]} in the read-only mode, else null
  const docText = () => big ? big.text : editor.value;
  const bigView = document.createElement("pre");
  bigView.id = "bigView";
  bigView.hidden = true;
  $("editorBody").appendChild(bigView);
  let lineCount = 0;
  function layoutEditor() {
    if (big) {
      let longest = 0;
      for (const l of big.lines) if (l.length > longest) longest = l.length;
      lineCount = big.lines.length;
      $("editorBody").style.height = "calc(" + lineCount + " * var(--lh) + 24px)";
      $("editorBody").style.width = "calc(" + (longest + 4) + "ch + 20px)";
      renderGutter(null);
      return;
    }
    $("editorBody").style.height = "";
    $("editorBody").style.width = "";
    const text = editor.value;
    let lines = 1, longest = 0, start = 0;
    for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) {
      lines++;
      if (i - start > longest) longest = i - start;
      start = i + 1;
    }
    if (text.length - start > longest) longest = text.length - start;
    editor.style.height = "calc(" + lines + " * var(--lh) + 24px)";
    editor.style.width = "calc(" + (longest + 4) + "ch + 20px)";
    editor.style.minWidth = "100%";
    if (lines !== lineCount) { lineCount = lines; renderGutter(null); }
  }
  // Only the line numbers in view exist (a 1 MB file has some 17,000 lines): the gutter is as
  // tall as the text and holds one <pre> of the visible numbers, redrawn as it scrolls.
  let gutterMarks = new Map(), gutterQueued = false;
  const LH = parseFloat(getComputedStyle(editor).lineHeight) || 19;
  function renderGutter(diags) {   // on the next frame: reading the scroll position now would force a layout
    if (diags) {
      gutterMarks = new Map();
      for (const d of diags) if (d.line > 0 && gutterMarks.get(d.line) !== "err") gutterMarks.set(d.line, d.severity === "error" ? "err" : "warn");
    }
    if (!gutterQueued) { gutterQueued = true; requestAnimationFrame(drawGutter); }
  }
  function drawGutter() {
    gutterQueued = false;
    const sc = $("editorScroll"), lh = LH;
    const first = Math.max(1, Math.floor((sc.scrollTop - 8) / lh) - 20);
    const last = Math.min(lineCount, first + Math.ceil((sc.clientHeight || 800) / lh) + 40);
    const parts = [];
    for (let i = first; i <= last; i++) parts.push(gutterMarks.has(i) ? '<span class="' + gutterMarks.get(i) + '">' + i + "</span>" : String(i));
    gutter.style.height = "calc(" + lineCount + " * var(--lh) + 24px)";
    gutter.style.width = "calc(" + (String(lineCount).length + 1) + "ch + 16px)";
    gutterNums.style.top = "calc(8px + " + (first - 1) + " * var(--lh))";
    gutterNums.innerHTML = parts.join("\n");
    drawMarks(first, last);
    if (big) {
      bigView.style.top = "calc(8px + " + (first - 1) + " * var(--lh))";
      bigView.textContent = big.lines.slice(first - 1, last).join("\n");
    }
  }
  const gutterNums = document.createElement("pre");
  gutter.replaceChildren(gutterNums);
  $("editorScroll").addEventListener("scroll", () => renderGutter(null));
  // The marks (a tinted line, a caret under the column) of the diagnostics in view only: a
  // file can have thousands of warnings.
  let markDiags = [];
  function renderMarks(diags) {
    markDiags = diags.filter((d) => d.line > 0);
    renderGutter(null);
  }
  function drawMarks(first, last) {
    const frag = document.createDocumentFragment();
    const text = big ? null : editor.value;
    for (const d of markDiags) {
      if (d.line < first || d.line > last) continue;
      const row = document.createElement("div");
      row.className = "line " + d.severity;
      row.style.top = "calc(8px + " + (d.line - 1) + " * var(--lh))";
      frag.appendChild(row);
      if (d.col > 0) {
        const src = big ? big.lines[d.line - 1] || "" : lineOf(text, d.line);
        const word = /^[\w.-]+/.exec(src.slice(d.col - 1));
        const caret = document.createElement("div");
        caret.className = "caret " + d.severity;
        caret.style.top = "calc(8px + " + d.line + " * var(--lh) - 3px)";
        caret.style.left = "calc(10px + " + (d.col - 1) + "ch)";
        caret.style.width = (word ? word[0].length : 1) + "ch";
        frag.appendChild(caret);
      }
    }
    marks.replaceChildren(frag);
  }
  function lineOf(text, line) {
    let pos = 0;
    for (let l = 1; l < line && pos >= 0; l++) pos = text.indexOf("\n", pos) + 1;
    const end = text.indexOf("\n", pos);
    return text.slice(pos, end < 0 ? text.length : end);
  }
  function goToLine(line, col) {
    if (big) {
      const sc = $("editorScroll");
      sc.scrollTop = Math.max(0, (line - 1) * LH - sc.clientHeight / 3);
      return;
    }
    const text = editor.value;
    let pos = 0;
    for (let l = 1; l < line && pos >= 0; l++) pos = text.indexOf("\n", pos) + 1;
    pos += Math.max(0, (col || 1) - 1);
    editor.focus({ preventScroll: true });
    editor.setSelectionRange(pos, pos);
    const sc = $("editorScroll"), lh = LH;
    sc.scrollTop = Math.max(0, (line - 1) * lh - sc.clientHeight / 3);
  }

  // ---- diagnostics --------------------------------------------------------------------------
  function renderDiagnostics(res) {
    const ds = res.diagnostics || [];
    const box = $("diagnostics"), sum = $("diagSummary");
    const frag = document.createDocumentFragment();
    for (const d of ds.slice(0, MAX_DIAGS)) {
      const div = document.createElement("div");
      div.className = "diag " + d.severity;
      const where = d.file + (d.line ? ":" + d.line + (d.col ? ":" + d.col : "") : "");
      const msg = d.hint ? d.message.replace(/[;,]?\s*\(?did you mean.*$/, "") : d.message;
      div.innerHTML = '<span class="where">' + esc(where) + ':</span> <span class="sev">' + esc(d.severity) +
        ":</span> " + esc(msg) + (d.hint ? '<span class="hint">' + esc(d.hint) + "</span>" : "") +
        (d.source ? "<pre>" + esc(d.source) + "\n" + " ".repeat(Math.max(0, d.col - 1)) + "^</pre>" : "");
      div.dataset.line = d.line; div.dataset.col = d.col;
      frag.appendChild(div);
    }
    const hidden = ds.length - Math.min(ds.length, MAX_DIAGS) + (res.omitted || 0);
    if (hidden > 0) {
      const more = document.createElement("div");
      more.className = "diag muted";
      more.textContent = "… and " + hidden + " more (goap check lists them all)";
      frag.appendChild(more);
    }
    box.replaceChildren(frag);
    if (res.errors) { sum.textContent = plural(res.errors, "error"); sum.className = "bad"; }
    else if (res.warnings) { sum.textContent = plural(res.warnings, "warning"); sum.className = ""; }
    else { sum.textContent = "no problems"; sum.className = "good"; }
    renderGutter(ds);
    renderMarks(ds);
  }
  $("diagnostics").addEventListener("click", (e) => {
    const d = e.target.closest(".diag");
    if (d && +d.dataset.line > 0) goToLine(+d.dataset.line, +d.dataset.col);
  });

  // ---- scenarios and `goap test` ------------------------------------------------------------------
  function targetKey(t) { return t ? (t.scenario ? "scenario " + t.scenario : "goal " + t.goal) : ""; }
  function renderScenarios(results) {
    const body = $("scenarios").tBodies[0];
    const frag = document.createDocumentFragment();
    const byName = new Map((results || []).filter((r) => r.kind === "scenario").map((r) => [r.name, r]));
    const row = (kind, name, badge, detail) => {
      const tr = document.createElement("tr");
      tr.dataset.kind = kind; tr.dataset.name = name;
      if (targetKey(target) === kind + " " + name) tr.className = "chosen";
      tr.innerHTML = '<td class="kind">' + kind + '</td><td class="name">' + esc(name) + "</td><td>" + badge +
        '</td><td class="detail">' + esc(detail) + "</td>";
      frag.appendChild(tr);
    };
    for (const name of outline.scenarios) {
      const r = byName.get(name);
      row("scenario", name, r ? '<span class="badge ' + (r.pass ? "pass" : "fail") + '">' + (r.pass ? "PASS" : "FAIL") + "</span>" :
        '<span class="badge none">—</span>', r ? r.detail : "not run");
    }
    for (const g of outline.goals) row("goal", g, '<span class="badge none">goal</span>', "plan from the default state");
    for (const r of results || []) {
      if (r.kind !== "simulation") continue;
      const tr = document.createElement("tr");
      tr.dataset.kind = "simulation"; tr.dataset.name = r.name;
      tr.innerHTML = '<td class="kind">simulation</td><td class="name">' + esc(r.name) + '</td><td><span class="badge ' +
        (r.pass ? "pass" : "fail") + '">' + (r.pass ? "PASS" : "FAIL") + '</span></td><td class="detail">' + esc(r.detail) + "</td>";
      frag.appendChild(tr);
    }
    if (!frag.childNodes.length) {
      const tr = document.createElement("tr");
      tr.innerHTML = '<td class="detail muted" colspan="4">' + (docText().trim() === "" ?
        "The file is empty. Pick an example above, or write a domain: <code>var</code>, <code>action</code>, <code>goal</code> and <code>scenario</code> blocks (docs/format.md)." :
        "No scenarios or goals yet: add a <code>goal</code> or a <code>scenario</code> block to plan.") + "</td>";
      frag.appendChild(tr);
    }
    body.replaceChildren(frag);
  }
  $("scenarios").addEventListener("click", (e) => {
    const tr = e.target.closest("tr");
    if (!tr || !tr.dataset.kind) return;
    if (tr.dataset.kind === "simulation") {
      $("simulation").value = tr.dataset.name;
      showTab("sim");
      return;
    }
    target = tr.dataset.kind === "scenario" ? { scenario: tr.dataset.name } : { goal: tr.dataset.name };
    for (const r of $("scenarios").tBodies[0].rows) r.classList.toggle("chosen", r === tr);
    refreshTab();
  });

  // ---- the plan ---------------------------------------------------------------------------------
  const STATUS_TEXT = {
    node_limit: "the search ran out of its node budget before reaching the goal",
    time_limit: "the search ran out of its time budget before reaching the goal",
    memory_limit: "the search ran out of memory before reaching the goal",
    timeout: "the planner did not answer in time and was stopped",
  };
  async function refreshPlan(key) {
    const head = $("planHead"), steps = $("planSteps"), stats = $("planStats"), why = $("planWhy");
    why.hidden = true;
    if (!target || !outline) { head.textContent = outline ? "choose a scenario or a goal" : "fix the error to plan"; head.className = "muted"; steps.replaceChildren(); stats.textContent = ""; return; }
    head.textContent = "planning " + targetKey(target) + "…"; head.className = "muted";
    const b = budgets();
    const r = await session.plan(target, b);
    if (key !== currentKey("plan")) return;
    head.className = "";
    steps.replaceChildren();
    steps.className = r.partial ? "partial" : "";
    for (const a of r.plan || []) { const li = document.createElement("li"); li.textContent = a; steps.appendChild(li); }
    const title = "<b>" + esc(targetKey(target)) + "</b>: ";
    if (r.status === "found") {
      head.innerHTML = title + '<span class="st-found">plan found</span>, cost <b id="planCost">' + esc(r.cost) + "</b>, " +
        plural(r.plan.length, "action") + (r.plan.length ? "" : " (the goal already holds)");
    } else if (r.status === "no_plan") {
      head.innerHTML = title + '<span class="st-bad">no plan</span>: no sequence of actions reaches the goal. Why:';
      why.hidden = false; why.textContent = "asking goap why…";
      const w = await session.why(target);
      if (key !== currentKey("plan")) return;
      why.textContent = clip(w.text);
    } else if (STATUS_TEXT[r.status] || r.partial) {
      head.innerHTML = title + '<span class="st-limit">' + esc(r.status) + "</span>: " + esc(STATUS_TEXT[r.status] || "the search stopped") + "." +
        (r.status === "node_limit" ? " Raise the node budget above to search further." :
         r.status === "time_limit" ? " Raise the time budget above to search longer." : "") +
        (r.partial ? '<div class="sub">Partial plan: the most promising path so far' + (r.cost !== undefined ? ", cost " + esc(r.cost) : "") + "</div>" : "");
    } else {
      head.innerHTML = title + '<span class="st-bad">' + esc(r.status) + "</span>: " + esc(r.message || "");
    }
    stats.textContent = r.expanded !== undefined ? r.expanded + " expanded, " + r.generated + " generated, " +
      r.nodes + " nodes stored, " + (r.time_us >= 1000 ? (r.time_us / 1000).toFixed(1) + " ms" : r.time_us >= 1 ? Math.round(r.time_us) + " µs" : "too fast for the browser's clock") + " (budgets: " + b.maxNodes + " nodes, " + b.maxMs + " ms)" : "";
  }

  // ---- the search tree: the trace viewer of `goap trace --html`, in a frame -----------------------
  async function refreshTree(key) {
    const head = $("treeHead"), frame = $("viewer");
    if (!target || !outline) { head.textContent = outline ? "choose a scenario or a goal" : "fix the error to see the search"; frame.srcdoc = ""; return; }
    const b = budgets();
    const capped = b.maxNodes > VIEWER_MAX_NODES;
    head.textContent = "recording the search of " + targetKey(target) + "…";
    const t = await session.trace(target, { maxNodes: Math.min(b.maxNodes, VIEWER_MAX_NODES), maxMs: b.maxMs });
    if (key !== currentKey("tree")) return;
    if (!t.nodes) { head.textContent = targetKey(target) + ": " + (t.message || t.status); frame.srcdoc = ""; return; }
    head.textContent = targetKey(target) + ": " + t.status + ", " + plural(t.stats.nodes, "node") + ", " + t.stats.expanded +
      " expanded" + (capped && t.status === "node_limit" ? " (the viewer records at most " + VIEWER_MAX_NODES + " nodes)" : "") +
      " · opens at the result; Home = first step, arrows step";
    const json = JSON.stringify(t).replace(/<\//g, "<\\/");
    frame.srcdoc = GOAP_TRACE_VIEWER_HTML.replace("/*GOAP_TRACE_JSON*/null", () => json);
  }

  async function refreshWhy(key) {
    const pre = $("whyText");
    if (!target || !outline) { pre.textContent = outline ? "choose a scenario or a goal" : "fix the error to ask why"; return; }
    pre.textContent = "asking goap why…";
    const w = await session.why(target);
    if (key !== currentKey("why")) return;
    pre.className = "";
    pre.textContent = clip(w.text);
  }

  // ---- simulations ------------------------------------------------------------------------------------
  function describe(e) {
    const v = (x) => typeof x === "string" ? x : JSON.stringify(x);
    switch (e.event) {
      case "plan": return (e.goal ? e.goal + ": " : "") + (e.plan || []).join(" → ") + "  (cost " + e.cost + (e.cached ? ", cached" : "") + ")";
      case "goal": return e.goal + (e.priority !== undefined ? " (priority " + e.priority + ")" : "");
      case "world": case "memory": return e.var + " = " + v(e.value);
      case "replan": return e.reason || "";
      case "start": case "success": return e.action;
      case "failure": return e.action + (e.timeout ? " (timed out)" : "");
      default: {
        const o = Object.assign({}, e); delete o.t; delete o.event;
        return Object.keys(o).map((k) => k + " " + v(o[k])).join(", ");
      }
    }
  }
  async function refreshSim(key) {
    const sel = $("simulation"), head = $("simHead"), body = $("timeline").tBodies[0];
    if (!outline || !outline.simulations.length) { head.textContent = outline ? "this file has no simulation blocks" : ""; body.replaceChildren(); return; }
    const name = sel.value;
    head.textContent = "running " + name + "…";
    const r = await session.simulate(name);
    if (key !== currentKey("sim")) return;
    const frag = document.createDocumentFragment();
    for (const e of r.events.slice(0, 5000)) {
      const tr = document.createElement("tr");
      tr.className = e.event;
      tr.innerHTML = '<td class="t">' + esc(e.t !== undefined ? e.t : "") + '</td><td class="ev">' + esc(e.event || "") +
        "</td><td>" + esc(describe(e)) + "</td>";
      frag.appendChild(tr);
    }
    body.replaceChildren(frag);
    head.textContent = r.ok ? plural(r.events.length, "event") : r.message;
  }
  $("simulation").addEventListener("change", () => refreshTab());

  // ---- tabs --------------------------------------------------------------------------------------------
  function currentKey(t) {
    const b = budgets();
    return gen + "|" + targetKey(target) + "|" + b.maxNodes + "|" + b.maxMs + (t === "sim" ? "|" + $("simulation").value : "");
  }
  function showTab(name) {
    tab = name;
    for (const b of document.querySelectorAll("#tabs button[role=tab]")) b.classList.toggle("on", b.dataset.tab === name);
    for (const t of document.querySelectorAll(".tab")) t.classList.toggle("on", t.id === "tab-" + name);
    refreshTab();
  }
  function refreshTab() {
    const key = currentKey(tab);
    if (shown[tab] === key) return;
    shown[tab] = key;
    const run = { plan: refreshPlan, tree: refreshTree, why: refreshWhy, sim: refreshSim }[tab];
    run(key).catch((e) => setStatus("error: " + e.message, "bad"));
  }
  $("tabs").addEventListener("click", (e) => { const b = e.target.closest("button[role=tab]"); if (b) showTab(b.dataset.tab); });
  for (const id of ["maxNodes", "maxMs"]) $(id).addEventListener("change", () => { refreshTab(); });

  // ---- one edit: check, test, then the active tab --------------------------------------------------
  async function update() {
    const g = ++gen;
    if (session.pending) session.cancel();   // an older generation's call: not wanted any more
    const text = docText();
    setStatus("checking…", "busy");
    const t0 = performance.now();
    const res = await session.loadDomain(text, fileName(), { maxDiagnostics: MAX_MARKED });
    if (g !== gen) return;
    renderDiagnostics(res);
    if (!res.ok) {
      outline = null;
      $("testSummary").textContent = "";
      $("scenarios").tBodies[0].innerHTML = '<tr><td class="detail muted">Fix the error (left) to run the scenarios.</td></tr>';
      for (const k of Object.keys(shown)) delete shown[k];
      refreshTab();
      setStatus(plural(res.errors, "error"), "bad");
      return;
    }
    outline = res.outline;
    const sims = $("simulation"), keep = sims.value;
    sims.replaceChildren(...outline.simulations.map((s) => new Option(s, s)));
    if (outline.simulations.includes(keep)) sims.value = keep;
    const names = outline.scenarios;
    if (!target || (target.scenario && !names.includes(target.scenario)) || (target.goal && !outline.goals.includes(target.goal)))
      target = names.length ? { scenario: names[0] } : outline.goals.length ? { goal: outline.goals[0] } : null;
    renderScenarios(null);
    setStatus("domain " + outline.domain + ": " + plural(outline.variables, "variable") + ", " + plural(outline.actions, "action") +
      " · running the scenarios…", "busy");
    refreshTab();
    const tr = await session.test(budgets());
    if (g !== gen) return;
    renderScenarios(tr.results);
    $("testSummary").textContent = tr.results.length ? tr.passed + " passed, " + tr.failed + " failed" : "";
    setStatus("domain " + outline.domain + ": " + plural(outline.variables, "variable") + ", " + plural(outline.actions, "action") +
      " · " + (tr.message ? tr.message : "checked and tested in " + Math.round(performance.now() - t0) + " ms"), tr.message ? "bad" : "");
  }
  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(update, DEBOUNCE_MS);
  }
  editor.addEventListener("input", () => {
    layoutEditor();
    schedule();
    if (exSel.value && editor.value !== GOAP_EXAMPLES[exSel.value]) exSel.value = "";   // now the user's file
  });
  $("fileName").addEventListener("change", schedule);
  editor.addEventListener("keydown", (e) => {
    if (e.key === "Tab" && !e.shiftKey && !e.ctrlKey && !e.metaKey) {
      e.preventDefault();
      document.execCommand("insertText", false, "  ");
    }
  });

  // ---- examples, share links -------------------------------------------------------------------
  const examples = Object.keys(GOAP_EXAMPLES).sort();
  const exSel = $("example");
  exSel.appendChild(new Option("(your file)", ""));
  for (const n of examples) exSel.appendChild(new Option(n, n));
  function setText(text, name) {
    $("editorScroll").scrollTop = 0;   // before the new text: no layout of it is forced here
    setBig(text.length > LARGE_BYTES ? text : null);
    editor.value = big ? "" : text;
    $("fileName").value = name;
    exSel.value = GOAP_EXAMPLES[name] === text ? name : "";
    target = null;
    layoutEditor();
    update();
  }
  function setBig(text) {
    big = text === null ? null : { text, lines: text.split("\n") };
    editor.hidden = !!big;
    bigView.hidden = !big;
    $("bigNote").hidden = !big;
    if (big) $("bigNoteText").textContent = "large file (" + (text.length / 1048576).toFixed(2) + " MB, " +
      big.lines.length.toLocaleString("en") + " lines): read-only here, so the page stays fast";
  }
  $("editAnyway").addEventListener("click", () => {
    const text = big.text;
    setBig(null);
    editor.value = text;   // the text area lays the whole text out: this takes a while
    layoutEditor();
  });
  exSel.addEventListener("change", () => { if (exSel.value) setText(GOAP_EXAMPLES[exSel.value], exSel.value); });

  const b64url = (bytes) => {
    let s = "";
    for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  };
  const unb64url = (s) => {
    const bin = atob(s.replace(/-/g, "+").replace(/_/g, "/"));
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  };
  async function pipe(bytes, stream) {
    const r = new Blob([bytes]).stream().pipeThrough(stream);
    return new Uint8Array(await new Response(r).arrayBuffer());
  }
  async function encodeFragment(text, name) {
    const raw = new TextEncoder().encode(text);
    const head = "#file=" + encodeURIComponent(name);
    if (typeof CompressionStream === "function") return head + "&z=" + b64url(await pipe(raw, new CompressionStream("deflate-raw")));
    return head + "&t=" + b64url(raw);
  }
  async function decodeFragment(hash) {
    const p = new URLSearchParams(hash.replace(/^#/, ""));
    if (!p.has("z") && !p.has("t") && !p.has("example")) return null;
    if (p.has("example")) {
      const n = p.get("example");
      return GOAP_EXAMPLES[n] !== undefined ? { text: GOAP_EXAMPLES[n], name: n } : null;
    }
    const bytes = p.has("z") ? await pipe(unb64url(p.get("z")), new DecompressionStream("deflate-raw")) : unb64url(p.get("t"));
    return { text: new TextDecoder().decode(bytes), name: p.get("file") || "domain.goap" };
  }
  let lastHash = "";
  $("share").addEventListener("click", async () => {
    const h = await encodeFragment(docText(), fileName());
    lastHash = h;
    history.replaceState(null, "", h);
    let copied = false;
    try { await navigator.clipboard.writeText(location.href); copied = true; } catch (e) { /* file:// or no permission */ }
    setStatus("the link to this file is in the address bar" + (copied ? " (and copied)" : "") + " · " + h.length + " characters");
  });
  async function fromFragment() {
    if (location.hash === lastHash) return false;
    lastHash = location.hash;
    try {
      const f = await decodeFragment(location.hash);
      if (!f) return false;
      setText(f.text, f.name);
      return true;
    } catch (e) {
      setStatus("the link's file cannot be read: " + e.message, "bad");
      return false;
    }
  }
  window.addEventListener("hashchange", fromFragment);

  // for tests and the console
  window.goapPlayground = {
    session, setText, update, showTab, text: docText,
    get generation() { return gen; }, get outline() { return outline; }, get target() { return target; },
    encodeFragment, decodeFragment,
  };
  (async () => {
    if (!(await fromFragment())) {
      exSel.value = "soldier.goap";
      setText(GOAP_EXAMPLES["soldier.goap"], "soldier.goap");
    }
  })();
})();
