// scene.js -- the live scene (scene.html): the village and the squad flank, running on the
// agent runtime compiled to WebAssembly (web/src/scene.c), drawn on a canvas.
//
// Invariants:
//  - The film advances in fixed steps: one goap_scene_update of speed/60 s per displayed
//    frame (and per step() of the test hook), so the same seed and the same clicks give the
//    same scene whatever the real frame rate. Planning is sliced inside the update (a few
//    node expansions per agent, a few agents per update: scene.c), so a frame never blocks.
//  - Places come from the domain: the values of the village's `loc` enum; the squad's
//    positions (open ground, cover, flank) from its members' memory. An agent walks between
//    places while the action that changes its place runs (the action's duration).
//  - The squad scene is the file's `simulation flank`: its `member` lines make the agents
//    and its `at` lines are replayed on each squad's clock; a squad that has nothing left to
//    do starts the skirmish again.
//  - Text never overlaps: agents at rest are rows of their place's list (cut with an
//    ellipsis to the place's width, "+N more" when the list is full); a walking agent's label
//    is drawn only where no other label is.
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const canvas = $("view"), screen = canvas.getContext("2d");
  // the places and their rows are drawn on `layer` only when what they show changed; each
  // frame copies it and draws the walkers on top
  const layerCanvas = document.createElement("canvas"), layer = layerCanvas.getContext("2d");
  let ctx = screen, layerSig = "";
  const COLORS = ["#2563eb", "#c2410c", "#15803d", "#7c3aed", "#b45309", "#0e7490", "#be185d", "#4d7c0f"];
  const FONT = '12px system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif';
  const FONT_B = '600 13px system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif';
  const ROW = 17, GAP = 14;

  // ---- scene definitions ------------------------------------------------------------------
  function rng(seed) { // mulberry32: the page's own choices (places, victims of events)
    let a = seed >>> 0;
    return () => {
      a = (a + 0x6D2B79F5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  const VILLAGE = {
    file: "village.goap", watch: "loc", search: "wastar", heuristic: "lmcut", budget: 6, slots: 3,
    secsPerCost: 0.3, counts: [10, 25, 50, 100], count: 50, period: 60,
    setup(S) {
      const loc = S.names.vars.find((v) => v.name === "loc");
      S.places = loc.values.slice();
      // every scenario that pursues a goal is a job; villagers start anywhere but the market
      // (reached only over the broken bridge)
      const jobs = S.names.scenarios.filter((sc) => sc.goal >= 0);
      S.jobs = jobs.map((sc) => sc.name);
      const starts = S.places.filter((p) => p !== "market");
      for (let i = 0; i < S.count; i++) {
        const job = S.jobs[i % S.jobs.length];
        const place = starts[Math.floor(S.rand() * starts.length)];
        S.add("scenario:" + job, "v" + (i + 1), job, "loc = " + place, -1);
      }
      S.kinds = jobs.map((sc) => S.names.goals[sc.goal].name); // the legend: each job's goal
      S.cellCount = S.places.length;
    },
    kindOf: (S, i) => i % S.jobs.length,
    cellOf: (S, i, vals) => vals[0],
    cellName: (S, c) => S.places[c],
    layout(S, w, h) {
      const n = S.places.length, cols = w > 1100 ? 4 : 3, rows = Math.ceil(n / cols), gap = GAP;
      const cw = (w - gap * (cols + 1)) / cols, ch = (h - gap * (rows + 1)) / rows;
      return S.places.map((p, k) => ({
        x: gap + (k % cols) * (cw + gap), y: gap + Math.floor(k / cols) * (ch + gap), w: cw, h: ch,
        title: p === "market" ? "market (across the river)" : p,
      }));
    },
    events: [
      { t: 15, text: "Storm: the bridge is out", run: (S) => S.assign(-1, -1, "bridge_out") },
      { t: 30, text: "A thief took the coins of 3 villagers", run: (S) => S.victims(3, "coins = 0") },
      { t: 45, text: "3 villagers broke their hammer", run: (S) => S.victims(3, "hammer = 0") },
    ],
    // a villager that finished its job takes it up again where it stands (a new commission);
    // at the market it walks home first (the market is reached only over the bridge)
    afterGoal(S, i, vals) { S.reset(i, S.places[vals[0]] === "market" ? "" : "loc"); },
  };

  const SQUAD = {
    file: "squad.goap", sim: "flank", watch: "in_cover,flanking,suppressing,player_down,man_down",
    search: "astar", heuristic: "", budget: 64, slots: 0, secsPerCost: 0.5,
    counts: [1, 2, 4, 10], count: 4, countLabel: (n) => String(n * 5),
    setup(S) {
      const sim = parseSimulation(S.text, this.sim);
      S.sim = sim;
      S.kinds = [...new Set(sim.members.map((m) => m.type))];
      S.squads = [];
      for (let q = 0; q < S.count; q++) {
        const id = S.addSquad();
        S.squads.push({ id, clock: -q * 1.5, next: 0, idleFor: 0, round: 1 });
        for (const m of sim.members) S.add("agent:" + m.type, m.name + (S.count > 1 ? "·" + (q + 1) : ""), "", sim.given, id);
      }
      S.cols = ["open", "cover", "flank"];
      S.cellCount = S.count * 3;
    },
    kindOf: (S, i) => S.kinds.indexOf(S.sim.members[i % S.sim.members.length].type),
    cellOf: (S, i, v) => Math.floor(i / S.sim.members.length) * 3 + (v[1] ? 2 : v[0] ? 1 : 0),
    cellName: (S, c) => S.cols[c % 3],
    layout(S, w, h) {
      const gap = GAP, lanes = S.count, top = gap, laneH = (h - top - gap * lanes) / lanes;
      const colW = [0.22, 0.42, 0.26].map((f) => f * (w - 2 * gap));
      const cells = [];
      for (let q = 0; q < lanes; q++) {
        let x = gap;
        for (let c = 0; c < 3; c++) {
          cells.push({ x, y: top + q * (laneH + gap), w: colW[c] - 8, h: laneH,
            title: (c === 0 ? "squad " + (q + 1) + " · " : "") + S.cols[c] });
          x += colW[c];
        }
      }
      return cells;
    },
    tick(S, dt, frame) { // each squad replays the simulation's `at` lines on its own clock
      const per = S.sim.members.length;
      for (const sq of S.squads) {
        sq.clock += dt;
        while (sq.next < S.sim.at.length && S.sim.at[sq.next].t <= sq.clock + 1e-9) {
          const a = S.sim.at[sq.next++];
          if (a.order) S.order(sq.id, a.order);
          else S.assign(-1, sq.id, a.effects);
          S.log("squad " + (sq.id + 1) + ": " + (a.order ? "order " + a.order : a.effects), sq.id === 0 || S.count <= 2);
        }
        let idle = sq.next >= S.sim.at.length;
        for (let k = 0; k < per && idle; k++) idle = frame.agents[sq.id * per + k][8] === 1;
        sq.idleFor = idle ? sq.idleFor + dt : 0;
        if (sq.idleFor > 3) {
          S.resetSquad(sq.id);
          sq.clock = 0; sq.next = 0; sq.idleFor = 0; sq.round++;
          S.log("squad " + (sq.id + 1) + ": the skirmish starts again (round " + sq.round + ")", sq.id === 0);
        }
      }
    },
    drawExtra(S, cells, frame) { // the player each squad fights, at the right of its lane
      const per = S.sim.members.length;
      for (let q = 0; q < S.count; q++) {
        const c = cells[q * 3 + 2], down = frame.agents[q * per][9][3] === 1;
        const x = c.x + c.w + 24, y = c.y + c.h / 2;
        ctx.fillStyle = down ? "#9ca3af" : "#dc2626";
        ctx.beginPath(); ctx.moveTo(x, y - 11); ctx.lineTo(x + 11, y); ctx.lineTo(x, y + 11); ctx.lineTo(x - 11, y); ctx.fill();
        ctx.fillStyle = "#1f2328"; ctx.font = FONT; ctx.textAlign = "center";
        ctx.fillText(down ? "down" : "player", x, y + 26);
        ctx.textAlign = "left";
      }
    },
  };
  const DEFS = { village: VILLAGE, squad: SQUAD };

  // `simulation NAME` block of a .goap text: member lines, at lines, given (the C loader has
  // already checked the file; this reads what the scene replays).
  function parseSimulation(text, name) {
    const lines = text.split("\n"), sim = { members: [], at: [], given: "" };
    let inside = false;
    for (const raw of lines) {
      const line = raw.replace(/#.*/, "").trimEnd();
      if (!line.trim()) continue;
      if (!/^\s/.test(line)) { inside = line.trim().split(/\s+/)[0] === "simulation" && line.trim().split(/\s+/)[1] === name; continue; }
      if (!inside) continue;
      const w = line.trim().split(/\s+/);
      if (w[0] === "member") sim.members.push({ name: w[1], type: w[2] });
      else if (w[0] === "given") sim.given = line.trim().slice(6);
      else if (w[0] === "at") {
        const rest = line.trim().slice(3).trim(), t = parseFloat(rest), what = rest.slice(rest.indexOf(" ") + 1).trim();
        sim.at.push(what.startsWith("order ") ? { t, order: what.slice(6).trim() } : { t, effects: what });
      }
    }
    sim.at.sort((a, b) => a.t - b.t);
    if (!sim.members.length) throw new Error("simulation " + name + " has no member lines");
    return sim;
  }

  // ---- the wasm side ------------------------------------------------------------------------
  let M = null, C = null;
  function bind(m) {
    M = m;
    const f = (n, r, a) => m.cwrap(n, r, a);
    C = {
      create: f("goap_scene_create", "number", ["string", "string", "string", "string", "number", "number", "number", "number"]),
      error: f("goap_scene_error", "string", ["number"]),
      destroy: f("goap_scene_destroy", null, ["number"]),
      addSquad: f("goap_scene_add_squad", "number", ["number"]),
      addAgent: f("goap_scene_add_agent", "number", ["number", "string", "string", "string", "string", "number"]),
      watch: f("goap_scene_watch", "number", ["number", "string"]),
      assign: f("goap_scene_assign", "number", ["number", "number", "number", "string"]),
      reset: f("goap_scene_reset_agent", "number", ["number", "number", "string"]),
      resetSquad: f("goap_scene_reset_squad", "number", ["number", "number"]),
      order: f("goap_scene_order", "number", ["number", "number", "string"]),
      slots: f("goap_scene_planning_slots", "number", ["number", "number"]),
      update: f("goap_scene_update", "number", ["number", "number"]),
      names: f("goap_scene_names", "string", ["number"]),
      frame: f("goap_scene_frame", "string", ["number"]),
      inspect: f("goap_scene_inspect", "string", ["number", "number", "number"]),
    };
  }

  function exampleText(file) {
    if (self.GOAP_EXAMPLES && self.GOAP_EXAMPLES[file]) return self.GOAP_EXAMPLES[file];
    throw new Error("examples.js has no " + file + " (build the site with scripts/web.sh)");
  }

  // ---- a running scene ----------------------------------------------------------------------
  let S = null;
  const ui = { speed: 1, paused: false, selected: -1, inspectAt: 0, inspectPlans: -1, showAll: false,
    fpsFrames: 0, fpsAt: performance.now(), fps: 0, msHist: [], workHist: [], lastTree: null };

  function start(kind, count, seed, failRate) {
    if (S) { C.destroy(S.ptr); S = null; }
    const def = DEFS[kind];
    const text = exampleText(def.file);
    const ptr = C.create(def.file, text, def.search, def.heuristic, def.budget, def.secsPerCost, failRate, seed);
    const err = C.error(ptr);
    const sc = { kind, def, ptr, text, count, seed, rand: rng(seed + 1), log: null, worldLog: [] };
    if (err) { C.destroy(ptr); throw new Error(err); }
    const check = (r, what) => { if (r < 0) throw new Error(what + ": " + C.error(ptr)); return r; };
    sc.add = (type, name, scenario, given, squad) => check(C.addAgent(ptr, type, name, scenario, given, squad), "agent " + name);
    sc.addSquad = () => check(C.addSquad(ptr), "squad");
    sc.assign = (agent, squad, eff) => check(C.assign(ptr, agent, squad, eff), "event '" + eff + "'");
    sc.reset = (i, keep) => check(C.reset(ptr, i, keep), "reset");
    sc.resetSquad = (q) => check(C.resetSquad(ptr, q), "reset squad");
    sc.order = (q, b) => check(C.order(ptr, q, b), "order " + b);
    sc.victims = (n, eff) => {
      const names = [];
      for (let k = 0; k < n; k++) {
        const i = Math.floor(sc.rand() * sc.agents.length);
        sc.assign(i, -1, eff);
        names.push(sc.agents[i].name);
      }
      return names;
    };
    sc.log = (text, show) => { if (show !== false) { sc.worldLog.push({ t: sc.time, text }); renderLog(); } };
    check(C.watch(ptr, def.watch), "watch");
    C.slots(ptr, def.slots);
    sc.names = JSON.parse(C.names(ptr));
    sc.agents = [];
    const add = sc.add;
    sc.add = (type, name, scenario, given, squad) => {
      const i = add(type, name, scenario, given, squad);
      sc.agents[i] = { name, plans: 0, goalsDone: 0, failures: 0, noPlan: 0, maxNoPlan: 0, doneAt: -1 };
      return i;
    };
    def.setup(sc);
    sc.time = 0;
    sc.nextEvent = 0;
    sc.frame = JSON.parse(C.frame(ptr));
    sc.cells = null;
    S = sc;
    ui.selected = -1;
    ui.msHist = [];
    ui.lastTree = null;
    $("insp").hidden = true;
    $("inspEmpty").hidden = false;
    $("agentCount").textContent = sc.agents.length;
    renderLog();
    renderLegend();
    resize();
  }

  // One fixed step of the film.
  function advance(dt) {
    const def = S.def;
    if (def.events) { // the world's script, repeated every `period` seconds
      const cyc = S.time % def.period, prev = (S.time - dt) % def.period;
      for (const ev of def.events)
        if ((cyc >= ev.t && (prev < ev.t || prev > cyc)) && S.time >= ev.t) {
          const who = ev.run(S);
          S.log(ev.text + (Array.isArray(who) ? " (" + who.join(", ") + ")" : ""));
        }
    }
    const ms = C.update(S.ptr, dt);
    S.time += dt;
    const fr = JSON.parse(C.frame(S.ptr));
    S.frame = fr;
    ui.msHist.push(ms);
    if (ui.msHist.length > 120) ui.msHist.shift();
    fr.agents.forEach((a, i) => {
      const st = S.agents[i];
      if (a[5] > st.goalsDone) { st.goalsDone = a[5]; st.doneAt = S.time; }
      st.plans = a[4];
      st.failures = a[6];
      if (a[0] < 0) { st.noPlan += dt; st.maxNoPlan = Math.max(st.maxNoPlan, st.noPlan); } else st.noPlan = 0;
      if (def.afterGoal && st.doneAt >= 0 && S.time - st.doneAt >= 1.5 && a[8] === 1) {
        def.afterGoal(S, i, a[9]);
        st.doneAt = -1;
      }
    });
    if (def.tick) def.tick(S, dt, fr);
  }

  // ---- drawing ------------------------------------------------------------------------------
  let W = 0, H = 0;
  function resize() {
    const r = canvas.getBoundingClientRect(), dpr = window.devicePixelRatio || 1;
    W = Math.max(200, r.width); H = Math.max(200, r.height);
    canvas.width = Math.round(W * dpr); canvas.height = Math.round(H * dpr);
    layerCanvas.width = canvas.width; layerCanvas.height = canvas.height;
    screen.setTransform(dpr, 0, 0, dpr, 0, 0);
    layer.setTransform(dpr, 0, 0, dpr, 0, 0);
    layerSig = "";
    if (S) S.cells = S.def.layout(S, W, H);
    draw();
  }

  const textCache = new Map();
  function fit(text, width) { // the text cut with an ellipsis to width (cached)
    const key = text + "\u0000" + Math.round(width);
    let t = textCache.get(key);
    if (t !== undefined) return t;
    t = text;
    if (ctx.measureText(t).width > width) {
      while (t.length > 1 && ctx.measureText(t + "…").width > width) t = t.slice(0, -1);
      t += "…";
    }
    if (textCache.size > 5000) textCache.clear();
    textCache.set(key, t);
    return t;
  }

  function shape(kind, x, y, r, color, ring) {
    ctx.fillStyle = color;
    ctx.beginPath();
    const k = kind % 4;
    if (k === 0) ctx.arc(x, y, r, 0, 2 * Math.PI);
    else if (k === 1) ctx.rect(x - r, y - r, 2 * r, 2 * r);
    else if (k === 2) { ctx.moveTo(x, y - r - 1); ctx.lineTo(x + r + 1, y + r); ctx.lineTo(x - r - 1, y + r); ctx.closePath(); }
    else { ctx.moveTo(x, y - r - 1); ctx.lineTo(x + r + 1, y); ctx.lineTo(x, y + r + 1); ctx.lineTo(x - r - 1, y); ctx.closePath(); }
    ctx.fill();
    if (ring) { ctx.strokeStyle = "#111827"; ctx.lineWidth = 2; ctx.beginPath(); ctx.arc(x, y, r + 5, 0, 2 * Math.PI); ctx.stroke(); }
  }

  // where an agent is headed: its watched values after the running action's effects
  function nextValues(vals, action) {
    if (action < 0) return vals;
    const out = vals.slice();
    for (const [w, add, v] of S.names.actions[action].eff) out[w] = add ? out[w] + v : v;
    return out;
  }

  const hits = [];
  let rowHits = [];
  function draw() {
    ctx = screen;
    ctx.clearRect(0, 0, W, H);
    hits.length = 0;
    if (!S || !S.cells) return;
    const def = S.def, cells = S.cells, fr = S.frame, names = S.names;
    // every agent is a row of the place it is at (until the walk there ends); a walking
    // agent is also a dot moving along the gutters between the places
    const walking = [];
    for (const c of cells) c.rows = [];
    let sig = ui.selected + "|";
    fr.agents.forEach((a, i) => {
      const from = def.cellOf(S, i, a[9]), to = def.cellOf(S, i, nextValues(a[9], a[1]));
      if (to !== from && a[1] >= 0 && cells[to]) walking.push([i, from, to, a[2]]);
      if (cells[from]) cells[from].rows.push(i);
      sig += from + "," + a[0] + "," + a[1] + "," + a[3] + "," + a[7] + "," + (S.agents[i].doneAt >= 0) + "," + a[9].join(",") + ";";
    });
    if (sig !== layerSig) { // redraw the places
      layerSig = sig;
      ctx = layer;
      ctx.clearRect(0, 0, W, H);
      rowHits = [];
      drawPlaces(def, cells, fr, names);
      ctx = screen;
    }
    ctx.drawImage(layerCanvas, 0, 0, W, H);
    hits.push(...rowHits);
    for (const [i, from, to, p] of walking) {
      const [x, y] = route(cells[from], cells[to], p), kind = def.kindOf(S, i);
      shape(kind, x, y, 4.5, COLORS[kind % COLORS.length], i === ui.selected);
      hits.push([x - 8, y - 8, 16, 16, i]);
    }
  }

  function drawPlaces(def, cells, fr, names) {
    for (const c of cells) {
      ctx.fillStyle = "#ffffff"; ctx.strokeStyle = "#d9d6ce"; ctx.lineWidth = 1;
      ctx.beginPath(); ctx.roundRect ? ctx.roundRect(c.x, c.y, c.w, c.h, 8) : ctx.rect(c.x, c.y, c.w, c.h);
      ctx.fill(); ctx.stroke();
      ctx.fillStyle = "#1f2328"; ctx.font = FONT_B;
      ctx.fillText(fit(c.title, c.w - 20), c.x + 10, c.y + 19);
    }
    if (def.drawExtra) def.drawExtra(S, cells, fr);
    ctx.font = FONT;
    ctx.textBaseline = "middle";
    for (const c of cells) {
      const max = Math.max(0, Math.floor((c.h - 34) / ROW));
      const shown = c.rows.length > max ? max - 1 : c.rows.length;
      for (let k = 0; k < shown; k++) {
        const i = c.rows[k], a = fr.agents[i], y = c.y + 36 + k * ROW;
        const kind = def.kindOf(S, i), sel = i === ui.selected;
        if (sel) { ctx.fillStyle = "#dbeafe"; ctx.fillRect(c.x + 4, y - ROW / 2, c.w - 8, ROW); }
        shape(kind, c.x + 16, y, 5, a[7] ? "#dc2626" : COLORS[kind % COLORS.length], false);
        const goal = a[0] >= 0 ? names.goals[a[0]].name : a[3] ? "planning…"
          : S.agents[i].doneAt >= 0 ? "goal achieved, resting" : "idle";
        const act = a[1] >= 0 ? " › " + names.actions[a[1]].name : "";
        ctx.fillStyle = a[0] >= 0 ? "#1f2328" : "#6a6f76";
        ctx.fillText(fit(S.agents[i].name + "  " + goal + act, c.w - 36), c.x + 28, y);
        rowHits.push([c.x + 4, y - ROW / 2, c.w - 8, ROW, i]);
      }
      if (shown < c.rows.length) {
        ctx.fillStyle = "#6a6f76";
        ctx.fillText("+" + (c.rows.length - shown) + " more", c.x + 28, c.y + 36 + shown * ROW);
      }
    }
    ctx.textBaseline = "alphabetic";
  }

  // A point of the walk from place A to place B after fraction p (eased), along the gutters:
  // down out of A, along the gutter under A's row, up or down the gutter left of B's column,
  // along the gutter under B's row, up into B. Never across another place's text.
  function route(A, B, p) {
    const g = GAP / 2, ax = A.x + A.w / 2, bx = B.x + B.w / 2, ya = A.y + A.h + g, yb = B.y + B.h + g;
    const xg = B.x - g;
    const pts = [[ax, A.y + A.h], [ax, ya], [xg, ya], [xg, yb], [bx, yb], [bx, B.y + B.h]];
    const seg = [];
    let total = 0;
    for (let k = 1; k < pts.length; k++) { const d = Math.hypot(pts[k][0] - pts[k - 1][0], pts[k][1] - pts[k - 1][1]); seg.push(d); total += d; }
    const e = p < 0.5 ? 2 * p * p : 1 - Math.pow(-2 * p + 2, 2) / 2;
    let left = e * total;
    for (let k = 0; k < seg.length; k++) {
      if (left <= seg[k] || k === seg.length - 1) {
        const f = seg[k] ? Math.min(1, left / seg[k]) : 1;
        return [pts[k][0] + (pts[k + 1][0] - pts[k][0]) * f, pts[k][1] + (pts[k + 1][1] - pts[k][1]) * f];
      }
      left -= seg[k];
    }
    return [bx, B.y + B.h];
  }

  const SHAPES = ["●", "■", "▲", "◆"];
  function renderLegend() {
    const box = $("legend");
    box.innerHTML = "";
    S.kinds.forEach((k, n) => {
      const s = el("span");
      const i = el("i", SHAPES[n % 4]);
      i.style.color = COLORS[n % COLORS.length];
      s.append(i, document.createTextNode(k));
      box.append(s);
    });
    const s = el("span");
    const i = el("i", "●");
    i.style.color = "#dc2626";
    s.append(i, document.createTextNode("last action failed"));
    box.append(s);
  }

  function renderLog() {
    const ol = $("worldLog");
    ol.innerHTML = "";
    if (!S.worldLog.length) ol.append(el("li", "none yet", "none"));
    for (const e of S.worldLog.slice(-4).reverse()) {
      const li = document.createElement("li");
      const b = document.createElement("b");
      b.textContent = e.t.toFixed(1) + " s";
      li.append(b, document.createTextNode(e.text));
      ol.append(li);
    }
  }

  // ---- the inspector ------------------------------------------------------------------------
  function el(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }
  function valueName(v, x) {
    const info = S.names.vars[v];
    if (info.type === "bool") return x ? "true" : "false";
    if (info.type === "enum") return info.values[x] || String(x);
    return String(x);
  }
  function eventText(e) {
    const N = S.names, g = e.goal >= 0 ? N.goals[e.goal].name : "", a = e.action >= 0 ? N.actions[e.action].name : "";
    switch (e.kind) {
      case "replan": return "replan: " + e.reason;
      case "goal": return "goal " + g;
      case "plan": return "plan for " + g + ": " + e.length + " steps, cost " + e.cost;
      case "plan_failed": return "no plan for " + g + " (" + e.status + ")";
      case "action_start": return "start " + a;
      case "action_success": return "done " + a;
      case "action_failure": return (e.timeout ? "timed out " : "failed ") + a;
      case "action_stop": return "stopped " + a;
      case "goal_done": return "achieved " + g;
      case "idle": return "idle: nothing to plan";
      default: return e.kind + (a ? " " + a : "");
    }
  }

  function inspect(force) {
    if (!S || ui.selected < 0) return;
    const st = S.agents[ui.selected];
    const wantTree = force || st.plans !== ui.inspectPlans;
    const d = JSON.parse(C.inspect(S.ptr, ui.selected, wantTree ? 1 : 0));
    if (!d) return;
    if (wantTree) { ui.inspectPlans = st.plans; ui.lastTree = d.tree; }
    const N = S.names;
    $("inspEmpty").hidden = true;
    $("insp").hidden = false;
    $("iName").textContent = d.name;
    $("iType").textContent = d.type + (d.squad >= 0 ? " · squad " + (d.squad + 1) : "") + " · t = " + d.time.toFixed(1) + " s";
    const now = d.action >= 0 ? "doing " + N.actions[d.action].name + " (" + d.elapsed.toFixed(1) + " / " + d.duration.toFixed(1) + " s)"
      : d.planning ? "planning…" : d.goal >= 0 ? "between actions" : "no plan";
    $("iNow").textContent = now + " · " + d.stats.plans + " plans (" + d.stats.cache_hits + " from the cache), " +
      d.stats.goals_done + " goals achieved, " + d.stats.actions_failed + " actions failed";
    const gb = $("iGoals").tBodies[0];
    gb.innerHTML = "";
    d.ranking.forEach((r, k) => {
      const tr = el("tr", undefined, (r.current ? "current" : "") + (r.enabled ? "" : " off"));
      tr.append(el("td", r.enabled ? String(k + 1) : "–"),
        el("td", r.name + (r.ordered ? " (ordered)" : "") + (r.current ? " ◀" : "") + (r.enabled ? "" : " (not this type's)")),
        el("td", String(r.priority)),
        el("td", r.valid ? "yes" : "no", r.valid ? "yes" : "no"), el("td", r.met ? "yes" : "no", r.met ? "yes" : "no"));
      gb.append(tr);
    });
    $("iCost").textContent = d.plan.length ? "cost " + d.cost + ", step " + Math.min(d.step + 1, d.plan.length) + " of " + d.plan.length : "";
    const pl = $("iPlan");
    pl.innerHTML = "";
    d.plan.forEach((a, k) => pl.append(el("li", N.actions[a].name, k < d.step ? "done" : k === d.step ? "cur" : "")));
    if (!d.plan.length) pl.append(el("li", d.planning ? "(searching)" : "(none)", "none"));
    $("iReplan").textContent = d.last_replan.reason === "none" ? "not yet" :
      d.last_replan.reason + " at t = " + d.last_replan.time.toFixed(1) + " s; planning: " + d.last_replan.status;
    const ev = $("iEvents");
    ev.innerHTML = "";
    for (const e of d.events.slice(-8).reverse()) {
      const li = el("li");
      li.append(el("b", e.t.toFixed(1) + " s "), document.createTextNode(eventText(e)));
      ev.append(li);
    }
    const mb = $("iMem").tBodies[0];
    mb.innerHTML = "";
    let hidden = 0;
    for (const [v, x, changed] of d.memory) {
      if (!changed && !ui.showAll) { hidden++; continue; }
      const tr = el("tr", undefined, changed ? "changed" : "");
      tr.append(el("td", N.vars[v].name), el("td", valueName(v, x)));
      mb.append(tr);
    }
    if (hidden) { const tr = el("tr"); tr.append(el("td", hidden + " more at their default"), el("td", "")); mb.append(tr); }
    if (wantTree) renderTree(d.tree);
  }

  // The search tree as an indented list (the trace viewer's full view is the playground's):
  // expanded nodes in tree order with the plan's path first and in bold, each row "#k" (the
  // k-th expansion), unexpanded children summed up; at most LIMIT rows.
  function renderTree(T) {
    const box = $("iTree");
    box.innerHTML = "";
    if (!T) { $("iTreeInfo").textContent = ""; box.append(el("div", "(no plan searched yet)", "leaf")); return; }
    const N = S.names;
    $("iTreeInfo").textContent = T.search + "/" + T.heuristic + ": " + T.status + ", " + T.expanded + " expanded, " +
      T.nodes.length + " nodes";
    const kids = T.nodes.map(() => []);
    T.nodes.forEach((n, i) => { if (n[0] >= 0) kids[n[0]].push(i); });
    const onPlan = new Set();
    { // the plan's nodes: follow the plan's actions from the root
      let cur = 0;
      onPlan.add(0);
      for (const a of T.plan) {
        const next = kids[cur].find((c) => T.nodes[c][1] === a && T.nodes[c][4] >= 0) ?? kids[cur].find((c) => T.nodes[c][1] === a);
        if (next === undefined) break;
        onPlan.add(next); cur = next;
      }
    }
    let rows = 0;
    const LIMIT = 300;
    function walk(i, depth) {
      if (rows >= LIMIT) return;
      const n = T.nodes[i];
      const label = (n[1] < 0 ? "start" : N.actions[n[1]].name) + "  g=" + n[2] + " h=" + (n[3] === null ? "∞" : n[3]);
      const row = el("div", undefined, onPlan.has(i) ? "plan" : "");
      row.style.paddingLeft = depth * 12 + "px";
      row.append(el("span", "#" + n[4] + " ", "n"), document.createTextNode(label));
      box.append(row);
      rows++;
      // the plan's child first, then the other expanded ones in the order they were expanded
      const open = kids[i].filter((c) => T.nodes[c][4] >= 0 || onPlan.has(c))
        .sort((a, b) => (onPlan.has(b) - onPlan.has(a)) || (T.nodes[a][4] - T.nodes[b][4]));
      for (const c of open) walk(c, depth + 1);
      const rest = kids[i].length - open.length;
      if (rest > 0 && rows < LIMIT) {
        const r = el("div", "+" + rest + " generated, not expanded", "leaf");
        r.style.paddingLeft = (depth + 1) * 12 + "px";
        box.append(r);
        rows++;
      }
    }
    if (T.nodes.length) walk(0, 0);
    if (rows >= LIMIT) box.append(el("div", "… (first " + LIMIT + " rows)", "leaf"));
  }

  function select(i) {
    ui.selected = i;
    ui.inspectPlans = -1;
    inspect(true);
    draw();
  }

  // ---- loop and controls --------------------------------------------------------------------
  function loop(now) {
    ui.fpsFrames++;
    if (now - ui.fpsAt >= 1000) {
      ui.fps = ui.fpsFrames * 1000 / (now - ui.fpsAt);
      ui.fpsFrames = 0; ui.fpsAt = now;
      if (!ui.paused) $("fps").textContent = ui.fps.toFixed(0);
    }
    if (S && !ui.paused) {
      const t0 = performance.now();
      advance(ui.speed / 60);
      draw();
      hud();
      ui.workHist.push(performance.now() - t0); // the page's whole work for the frame
      if (ui.workHist.length > 240) ui.workHist.shift();
      if (ui.selected >= 0 && now - ui.inspectAt > 250) { ui.inspectAt = now; inspect(false); }
    }
    requestAnimationFrame(loop);
  }
  function hud() {
    const h = ui.msHist, recent = h.slice(-60);
    const avg = recent.reduce((a, b) => a + b, 0) / Math.max(1, recent.length);
    $("planMs").textContent = avg.toFixed(2);
    $("planMax").textContent = Math.max(0, ...recent).toFixed(2);
    $("planning").textContent = S.frame.planning;
    $("simTime").textContent = S.time.toFixed(1);
  }

  function restart() {
    const kind = $("sceneSel").value, def = DEFS[kind];
    let count = +$("countSel").value;
    if (!def.counts.includes(count)) count = def.count;
    try {
      $("loadError").hidden = true;
      start(kind, count, +$("seedIn").value >>> 0, +$("failSel").value);
      hud();
    } catch (e) {
      $("loadError").hidden = false;
      $("loadError").textContent = "The scene could not start:\n" + (e && e.message ? e.message : e);
    }
  }
  function fillCounts() {
    const def = DEFS[$("sceneSel").value], sel = $("countSel");
    sel.innerHTML = "";
    for (const n of def.counts) {
      const o = el("option", def.countLabel ? def.countLabel(n) : String(n));
      o.value = n;
      if (n === def.count) o.selected = true;
      sel.append(o);
    }
  }
  function setSpeed(v) {
    ui.speed = v;
    document.querySelectorAll(".speeds button").forEach((b) => b.classList.toggle("on", +b.dataset.speed === v));
  }
  function setPaused(p) {
    ui.paused = p;
    $("playBtn").textContent = p ? "Play" : "Pause";
    if (p) $("fps").textContent = "paused";
    $("fpsUnit").hidden = p;
  }
  function stepOnce() {
    if (!S) return;
    setPaused(true);
    advance(ui.speed / 60); draw(); hud(); inspect(false);
  }

  $("sceneSel").addEventListener("change", () => { fillCounts(); restart(); });
  $("countSel").addEventListener("change", restart);
  $("failSel").addEventListener("change", restart);
  $("seedIn").addEventListener("change", restart);
  $("restartBtn").addEventListener("click", restart);
  $("playBtn").addEventListener("click", () => setPaused(!ui.paused));
  $("stepBtn").addEventListener("click", stepOnce);
  $("iAll").addEventListener("change", (e) => { ui.showAll = e.target.checked; inspect(false); });
  document.querySelectorAll(".speeds button").forEach((b) => b.addEventListener("click", () => setSpeed(+b.dataset.speed)));
  document.addEventListener("keydown", (e) => {
    if (["INPUT", "SELECT", "BUTTON"].includes(e.target.tagName)) return; // a focused button takes its own keys
    if (e.key === " ") { e.preventDefault(); setPaused(!ui.paused); } else if (e.key === ".") stepOnce();
  });
  canvas.addEventListener("click", (e) => {
    const r = canvas.getBoundingClientRect(), x = e.clientX - r.left, y = e.clientY - r.top;
    for (let k = hits.length - 1; k >= 0; k--) {
      const [hx, hy, hw, hh, i] = hits[k];
      if (x >= hx && x < hx + hw && y >= hy && y < hy + hh) { select(i); return; }
    }
  });
  window.addEventListener("resize", resize);

  // The test hook (tests/browser/scene.test.js) and for the curious: window.goapScene.
  const ready = createGoapModule({ print: () => {}, printErr: () => {} }).then((m) => {
    bind(m);
    const q = new URLSearchParams(location.hash.slice(1));
    if (q.get("scene") && DEFS[q.get("scene")]) $("sceneSel").value = q.get("scene");
    fillCounts();
    if (q.get("agents")) $("countSel").value = q.get("agents");
    restart();
    requestAnimationFrame(loop);
  });
  window.goapScene = {
    ready,
    load(kind, count, seed, failRate) {
      $("sceneSel").value = kind; fillCounts();
      if (count) $("countSel").value = String(count);
      if (seed !== undefined) $("seedIn").value = seed;
      if (failRate !== undefined) $("failSel").value = String(failRate);
      restart();
      return this.stats();
    },
    step(n) { for (let k = 0; k < n; k++) advance(ui.speed / 60); draw(); hud(); inspect(false); return this.stats(); },
    pause() { setPaused(true); },
    play() { setPaused(false); },
    setSpeed,
    select,
    inspect: (i) => JSON.parse(C.inspect(S.ptr, i, 1)),
    names: () => S.names,
    stats() {
      return { time: S.time, fps: ui.fps, agents: S.agents.map((a) => Object.assign({}, a)),
        ms: ui.msHist.slice(), work: ui.workHist.slice(), planning: S.frame.planning, world: S.worldLog.slice(), error: $("loadError").hidden ? "" : $("loadError").textContent };
    },
    // where agent i is drawn (CSS pixels, relative to the page), for clicking it
    where(i) {
      const r = canvas.getBoundingClientRect();
      for (const [x, y, w, h, k] of hits) if (k === i) return { x: r.left + x + Math.min(w / 2, 40), y: r.top + y + h / 2 };
      return null;
    },
  };
})();
