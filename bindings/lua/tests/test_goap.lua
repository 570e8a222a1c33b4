-- Tests of the Lua binding, run by CTest (test `lua`) under lua5.4 with LUA_CPATH pointing at
-- the built module and GOAP_EXAMPLES / GOAP_TESTS / GOAP_CLI set. Prints "N passed, M failed".
local goap = require("goap")

local examples = os.getenv("GOAP_EXAMPLES") or "examples"
local tests_dir = os.getenv("GOAP_TESTS") or "tests"
local cli = os.getenv("GOAP_CLI")
local soldier = examples .. "/soldier.goap"

local passed, failed = 0, 0
local function test(name, fn)
  local ok, err = pcall(fn)
  if ok then passed = passed + 1 else
    failed = failed + 1
    io.stderr:write("FAIL: " .. name .. ": " .. tostring(err) .. "\n")
  end
end
local function eq(a, b, what)
  if a ~= b then error((what or "value") .. ": expected " .. tostring(b) .. ", got " .. tostring(a), 2) end
end
local function list_eq(a, b, what)
  eq(#a, #b, (what or "list") .. " length")
  for i = 1, #b do eq(a[i], b[i], (what or "list") .. "[" .. i .. "]") end
end
local function raises(fn, pattern)
  local ok, err = pcall(fn)
  if ok then error("expected an error matching " .. pattern, 2) end
  if not tostring(err):find(pattern, 1, true) then
    error("error '" .. tostring(err) .. "' does not contain '" .. pattern .. "'", 2)
  end
  return err
end
local function run_cli(args)
  local p = io.popen(cli .. " " .. args .. " 2>&1")
  local out = p:read("a")
  p:close()
  return out
end

test("domain", function()
  local f <close> = goap.load(soldier)
  eq(f:name(), "soldier")
  list_eq(f:goals(), {"kill_enemy"})
  eq(#f:actions(), 7)
  eq(#f:scenarios(), 5)
  eq(tostring(f), "goap.file(soldier)")
end)

test("five scenarios", function()
  local f <close> = goap.load(soldier)
  for _, name in ipairs(f:scenarios()) do
    local s = f:scenario(name)
    local p = f:plan{scenario = name}
    eq(p.status, "ok", name)
    eq(p.cost, s.expect_cost, name .. " cost")
    list_eq(p.actions, s.expect_plan, name .. " plan")
  end
  list_eq(f:plan{scenario = "door_stuck_kick_failed"}.actions,
          {"get_ammo", "load_magazine", "jump_window", "shoot"})
end)

test("want and given strings", function()
  local f <close> = goap.load(soldier)
  local p = f:plan{want = "target_dead", given = "armory_empty"}
  list_eq(p.actions, {"open_door", "punch"})
  eq(p.cost, 7.0)
  eq(f:plan{goal = "kill_enemy", search = "backward"}.cost, 4.0)
  local np = f:plan{want = "target_dead, !in_b", given = "in_b"}
  eq(np.status, "no_plan")
  eq(#np.actions, 0)
end)

test("file errors are the CLI's", function()
  local path = tests_dir .. "/cli/broken.goap"
  local err = raises(function() goap.load(path) end, path .. ":6:7: error: unknown variable 'has_amo'")
  -- a goap.error: the fields of goap_error, tostring its text
  eq(getmetatable(err).__name, "goap.error")
  eq(err.status, "not_found"); eq(err.file, path); eq(err.line, 6); eq(err.col, 7); eq(err.offset, 0)
  eq(err.message:sub(1, 26), "unknown variable 'has_amo'")
  eq(tostring(err), err.text)
  if cli then
    local out = run_cli("plan " .. path .. " --goal g")
    assert(out:find(err.text, 1, true), "CLI output differs:\n" .. out .. "\nvs\n" .. err.text)
  end
  local pe = raises(function() goap.parse("domain d\nvar a: bol\n", "mem.goap") end, "mem.goap:2:")
  eq(pe.file, "mem.goap"); eq(pe.line, 2); eq(pe.status, "parse_error")
  local ioe = raises(function() goap.load("/nonexistent/x.goap") end, "/nonexistent/x.goap")
  eq(ioe.status, "io_error"); eq(ioe.file, "/nonexistent/x.goap")
end)

test("want errors are the CLI's", function()
  local f <close> = goap.load(soldier)
  local err = raises(function() f:plan{want = "target_ded"} end,
                     "--want:1:1: error: unknown variable 'target_ded'")
  eq(err.file, "--want"); eq(err.line, 1); eq(err.col, 1)
  if cli then
    local out = run_cli("plan " .. soldier .. " --want target_ded")
    assert(out:find(tostring(err), 1, true), "CLI output differs:\n" .. out)
  end
  raises(function() f:plan{scenario = "nope"} end, "unknown scenario")
  raises(function() f:plan{} end, "say what to reach")
  raises(function() f:plan{want = "target_dead", heuristic = "nope"} end, "unknown heuristic")
end)

test("simulation door_held", function()
  local f <close> = goap.load(soldier)
  local s = f:simulate("door_held")
  eq(s.failed, 0, "failed expectations")
  eq(s.replans, 2, "replans")
  local fails = {}
  for _, e in ipairs(s.events) do
    if e.kind == "action_failure" then fails[#fails + 1] = e.action end
  end
  list_eq(fails, {"open_door", "kick_door"}, "failures")
  eq(s.world[1].var, "door_held")
  eq(s.world[1].value, 1)
  raises(function() f:simulate("nope") end, "unknown simulation")
end)

local function door_held(f, record, raise_in)
  local acts = {}
  for _, name in ipairs(f:actions()) do
    acts[name] = function(agent, action, dt)
      record[#record + 1] = action
      if action == raise_in then error("boom in " .. action) end
      if action == "open_door" or action == "kick_door" then return "failure" end
      return "success"
    end
  end
  local events = {}
  local a = f:agent{name = "soldier", actions = acts,
                    on_event = function(agent, ev) events[#events + 1] = ev end}
  return a, events
end

test("agent with Lua actions", function()
  local f <close> = goap.load(soldier)
  local ticks = {}
  local a <close>, events = door_held(f, ticks)
  for _ = 1, 50 do
    if a:get("target_dead") == 1 then break end
    a:update(0.1)
  end
  eq(a:get("target_dead"), 1)
  eq(a:get("door_stuck"), 1, "on_fail door_stuck")
  eq(a:get("kick_failed"), 1, "on_fail kick_failed")
  local plans = {}
  for _, e in ipairs(events) do if e.kind == "plan" then plans[#plans + 1] = table.concat(e.plan, " ") end end
  list_eq(plans, {"get_ammo load_magazine open_door shoot", "kick_door shoot", "jump_window shoot"})
  eq(a:stats().replans.action_failed, 2)
end)

test("errors in callbacks fail the action and are raised after update", function()
  local f <close> = goap.load(soldier)
  local ticks = {}
  local a <close>, events = door_held(f, ticks, "get_ammo")
  local err
  for _ = 1, 5 do
    local ok, e = pcall(a.update, a, 0.1)
    if not ok then err = e break end
  end
  assert(err and tostring(err):find("boom in get_ammo", 1, true), "error not raised: " .. tostring(err))
  eq(a:get("armory_empty"), 1, "get_ammo's on_fail")
  for _ = 1, 50 do
    if a:get("target_dead") == 1 then break end
    a:update(0.1)
  end
  eq(a:get("target_dead"), 1)
  eq(ticks[#ticks], "punch")
end)

test("bad return values and misuse", function()
  local f <close> = goap.load(soldier)
  local a = f:agent{actions = {get_ammo = function() return "maybe" end}}
  raises(function() for _ = 1, 3 do a:update(0.1) end end, "tick returned maybe")
  local b = f:agent{actions = {get_ammo = function(agent) agent:close() return true end}}
  raises(function() b:update(0.1) end, "closed from one of its callbacks")
  local c = f:agent{actions = {get_ammo = function(agent) agent:update(0.1) return true end}}
  raises(function() c:update(0.1) end, "called from one of its callbacks")
  local d = f:agent{actions = {get_ammo = function(agent) agent:snapshot() return true end}}
  raises(function() d:update(0.1) end, "goap: agent:snapshot called from one of its callbacks")
  local e = f:agent{actions = {get_ammo = function(agent) agent:replan() return true end}}
  raises(function() e:update(0.1) end, "goap: agent:replan called from one of its callbacks")
  raises(function() f:agent{actions = {nope = function() end}} end, "unknown action 'nope'")
  local se = raises(function() a:set("in_b", 7) end, "goap: set: value out of range")
  eq(se.status, "out_of_range"); eq(se.message, "goap: set: value out of range"); eq(se.file, "")
  raises(function() a:get("nope") end, "unknown variable")
  raises(function() f:close() end, "still open")
  a:close(); b:close(); c:close(); d:close(); e:close()
  a:close() -- twice is fine
  raises(function() a:update(0.1) end, "the agent is closed")
  raises(function() a:get("in_b") end, "the agent is closed")
  f:close()
  raises(function() f:plan{scenario = "default"} end, "the file is closed")
  raises(function() f:agent{} end, "the file is closed")
end)

test("memory and garbage collection", function()
  local f = goap.load(soldier)
  local a = f:agent{memory = "door_stuck, kick_failed"}
  f = nil
  collectgarbage()
  collectgarbage()   -- the agent keeps its file alive
  for _ = 1, 20 do a:update(0.1) end
  eq(a:get("target_dead"), 1)
  a = nil
  collectgarbage()
  collectgarbage()
end)

-- ---- inspection (goap/inspect.h) ------------------------------------------------------------
test("inspection: door_held failure memory and replans", function()
  local f <close> = goap.load(soldier)
  local a <close>, events = door_held(f, {})
  local failed_at
  for _ = 1, 20 do
    a:update(0.1)
    for _, e in ipairs(events) do if e.kind == "action_failure" then failed_at = e.time end end
    if failed_at then break end
  end
  local fi = a:inspect_failures()
  eq(#fi, 1)
  eq(fi[1].action, "open_door")
  eq(fi[1].var, "door_stuck")
  eq(fi[1].value, 1)
  eq(fi[1].timeout, false)
  eq(fi[1].learnt, failed_at)
  eq(fi[1].expires, math.huge)
  local r = a:inspect_replans()
  eq(#r, 2)
  eq(r[1].reason, "start")
  eq(r[1].status, "ok")
  eq(r[1].goal, "kill_enemy")
  eq(r[1].plan_length, 4)
  eq(r[1].cost, 4)
  eq(r[2].reason, "action_failed")
  eq(r[2].status, "in_progress")
  local g = a:inspect_goals()
  eq(#g, 1)
  eq(g[1].goal, "kill_enemy")
  eq(g[1].state, "candidate")
  eq(g[1].priority, 10)
end)

test("inspection: plan steps and what they rely on", function()
  local f <close> = goap.load(soldier)
  local acts = {}
  for _, name in ipairs(f:actions()) do acts[name] = function() return "running" end end
  local a <close> = f:agent{actions = acts}
  a:update(0.1)
  local p = a:inspect_plan()
  eq(p.goal, "kill_enemy")
  eq(p.cost, 4)
  eq(p.step, 1)
  eq(p.running, true)
  eq(#p.steps, 4)
  local want = {{"get_ammo", "running", "!armory_empty"}, {"load_magazine", "pending", nil},
                {"open_door", "pending", "!door_stuck"}, {"shoot", "pending", nil}}
  for i, w in ipairs(want) do
    eq(p.steps[i].action, w[1])
    eq(p.steps[i].state, w[2])
    eq(p.steps[i].relies[1], w[3])
    eq(p.steps[i].relies_hold, true)
  end
  a:set("door_stuck", 1)
  eq(a:inspect_plan().steps[3].relies_hold, false)
  eq(a:inspect_goals()[1].state, "current")
end)
-- ---- end of inspection ----------------------------------------------------------------------

test("save games: snapshot and restore", function()
  local f <close> = goap.load(soldier)
  local ref <close>, ref_events = door_held(f, {})
  for _ = 1, 30 do ref:update(0.1) end
  local a <close>, events = door_held(f, {})
  for _ = 1, 3 do a:update(0.1) end
  local data = a:snapshot()
  eq(data:sub(1, 4), "GOAP")
  local b <close>, b_events = door_held(f, {})
  b:restore(data)
  eq(b:snapshot(), data, "the restored agent snapshots the same")
  eq(table.concat(b:plan(), " "), table.concat(a:plan(), " "))
  for _ = 4, 30 do b:update(0.1) end
  eq(b:get("target_dead"), 1)
  local kinds, ref_kinds = {}, {}
  for _, e in ipairs(events) do kinds[#kinds + 1] = e.kind end
  for _, e in ipairs(b_events) do kinds[#kinds + 1] = e.kind end
  for _, e in ipairs(ref_events) do ref_kinds[#ref_kinds + 1] = e.kind end
  list_eq(kinds, ref_kinds, "the timeline")
  local c <close> = door_held(f, {})
  local e = raises(function() c:restore(data:sub(1, -2)) end,
                   "error: snapshot truncated: fewer bytes than its header says (at byte " .. #data - 1 .. ")")
  eq(e.status, "truncated"); eq(e.offset, #data - 1, "offset: where the data ends")
  eq(e.message, "snapshot truncated: fewer bytes than its header says")
  eq(e.file, ""); eq(e.line, 0); eq(e.col, 0)
  local bad = data:sub(1, 29) .. string.char(data:byte(30) ~ 4) .. data:sub(31)
  e = raises(function() c:restore(bad) end, "error: snapshot corrupted: checksum mismatch (at byte 12)")
  eq(e.status, "corrupt"); eq(e.offset, 12, "offset: the header's checksum field")
  local other <close> = f:agent{name = "another_type"}
  e = raises(function() other:restore(data) end, "error: snapshot from another domain or agent type")
  eq(e.status, "domain_mismatch"); eq(e.offset, 16, "offset: the header's fingerprint")
  eq(raises(function() a:restore(data) end, "error: ").status, "invalid_operation")
  c:restore(data)
  eq(c:time(), a:time())
  local j = a:snapshot_json()
  eq(j:sub(1, 6), '{"t": ')
  local goal = a:goal() and ('"goal": "' .. a:goal() .. '"') or '"goal": null'
  eq(j:find(goal, 1, true) ~= nil, true, "the goal in the JSON form")
  eq(j:find('"target_dead": false', 1, true) ~= nil, true, "memory in the JSON form")
end)


-- ---- ids, queries, and the hot path -----------------------------------------------------------
test("ids", function()
  local f <close> = goap.load(soldier)
  eq(f:var_id("in_b"), 0)
  eq(f:var_name(f:var_id("door_stuck")), "door_stuck")
  eq(f:action_name(f:action_id("shoot")), "shoot")
  eq(f:goal_id("kill_enemy"), 0)
  eq(f:action_id(f:action_id("punch")), f:action_id("punch"), "an id is its own id")
  raises(function() f:var_id("nope") end, "goap: unknown variable 'nope'")
  raises(function() f:action_name(7) end, "goap: no action 7 (ids are 0..6)")
  raises(function() f:goal_name(-1) end, "goap: no goal -1 (ids are 0..0)")
  local a <close> = f:agent{}
  raises(function() a:get(99) end, "goap: no variable 99 (ids are 0.." .. #f:vars() - 1 .. ")")
  raises(function() a:set(f:var_id("in_b"), 2) end, "out of range")
  a:set(f:var_id("in_b"), true)
  eq(a:get(0), 1)
end)

test("queries: a prepared plan, by id", function()
  local f <close> = goap.load(soldier)
  local q = f:query{goal = "kill_enemy"}
  local out = {"stale", "stale", "stale", "stale", "stale", "stale"}
  local st, n, cost = q:plan(out)
  eq(st, "ok")
  eq(n, 4)
  eq(cost, 4.0)
  eq(#out, 4, "the stale tail is cleared")
  local names = {}
  for i = 1, n do names[i] = f:action_name(out[i]) end
  list_eq(names, f:plan{goal = "kill_enemy"}.actions, "the same plan as file:plan")
  q:set(f:var_id("door_stuck"), 1)
  eq(q:get("door_stuck"), 1)
  st, n, cost = q:plan(out)
  eq(f:action_name(out[3]), "kick_door")
  eq(cost, f:plan{scenario = "door_stuck"}.cost)
  q:reset()
  eq(q:get("door_stuck"), 0)
  local g = f:query{want = "target_dead", given = "armory_empty"}
  eq(select(3, g:plan()), 7.0)
  local a <close> = f:agent{memory = "in_b, loaded"}
  q:from_agent(a)
  st, n = q:plan(out)
  eq(n, 1)
  eq(f:action_name(out[1]), "shoot")
  raises(function() f:query{goal = "nope"} end, "goap: unknown goal 'nope'")
  raises(function() q:plan(42) end, "table expected")
  local other <close> = goap.load(examples .. "/squad.goap")
  local b <close> = other:agent{blackboard = other:blackboard()}
  raises(function() q:from_agent(b) end, "goap: the agent is not of this query's file")
end)

-- With the garbage collector stopped, collectgarbage("count") only grows: equal counts before
-- and after a loop mean the loop allocated nothing in Lua. file:allocations() counts what the
-- native side allocates through the file's allocator (its planner, types and agents). fn runs
-- once first, at the same call depth and with the collector already stopped, to warm up: Lua
-- allocates call frames and stack on first use. Lua may still grow its stack once (a sanitizer
-- build showed one 1,280-byte growth in 6,000 updates), so the tests allow less than one byte
-- per call in all, where any garbage made per call (the smallest Lua object is 16 bytes) fails.
local function lua_garbage(fn)
  collectgarbage("stop")
  fn()
  local before = collectgarbage("count")
  fn()
  local after = collectgarbage("count")
  collectgarbage("restart")
  return (after - before) * 1024
end

test("file:plan reuses one planner per file", function()
  local f <close> = goap.load(soldier)
  f:plan{scenario = "door_stuck"}           -- makes the file's planner
  local n0 = f:allocations()
  for _ = 1, 50 do f:plan{scenario = "door_stuck"} end
  eq(f:allocations() - n0, 0, "native allocations of 50 warm file:plan calls")
end)

test("hot calls allocate nothing: query:plan, get/set by id", function()
  local f <close> = goap.load(soldier)
  local q = f:query{goal = "kill_enemy"}
  local out = {}
  local stuck, dead = f:var_id("door_stuck"), f:var_id("target_dead")
  q:plan(out)
  q:set(stuck, 1)
  q:plan(out)
  q:set(stuck, 0)
  local a <close> = f:agent{}
  local n0 = f:allocations()
  local cost_sum = 0
  local bytes = lua_garbage(function()
    cost_sum = 0
    for i = 1, 4000 do
      q:set(stuck, i % 2)
      local st, n, cost = q:plan(out)
      cost_sum = cost_sum + cost
      a:set(dead, a:get(stuck))
    end
  end)
  assert(bytes < 4000, "Lua bytes allocated by 4000 plans and get/set by id: " .. bytes)
  eq(f:allocations() - n0, 0, "native allocations")
  eq(cost_sum, 2000 * 4.0 + 2000 * f:plan{scenario = "door_stuck"}.cost, "the plans were made")
end)

test("hot calls allocate nothing: agent:update with Lua actions", function()
  local f <close> = goap.load(soldier)
  local ok = function() return "success" end
  local acts = {}
  for _, name in ipairs(f:actions()) do acts[name] = ok end
  local a <close> = f:agent{actions = acts}
  local dead, stuck = f:var_id("target_dead"), f:var_id("door_stuck")
  local out = {}
  local function cycle()
    local n = 0
    while a:get(dead) == 0 do a:update(0.1) n = n + 1 end
    a:plan_ids(out)
    a:set(dead, 0)                           -- again: a replan (and a plan) per cycle
    a:set(stuck, 1 - a:get(stuck))
    a:set(f:var_id("in_b"), 0)
    return n
  end
  for _ = 1, 4 do cycle() end                -- warm-up
  local n0, updates = f:allocations(), 0
  local bytes = lua_garbage(function()
    updates = 0
    for _ = 1, 2000 do updates = updates + cycle() end
  end)
  assert(bytes < updates, "Lua bytes allocated by " .. updates .. " updates: " .. bytes)
  eq(f:allocations() - n0, 0, "native allocations")
  eq(a:stats().plans, 4 + 4000, "a plan per cycle")
end)


-- ---- the runtime: types, callbacks, blackboards, squads, caches, planners, worlds ---------------
local squad_file = examples .. "/squad.goap"

local function running_actions(f)
  local acts = {}
  for _, name in ipairs(f:actions()) do acts[name] = function() return "running" end end
  return acts
end

test("callbacks: start, tick, stop, checks, priorities, sensors", function()
  local f <close> = goap.load(soldier)
  local log, sensed, every = {}, 0, 0
  local t <close> = f:agent_type{
    actions = {get_ammo = {start = function(_, n) log[#log + 1] = "start " .. n end,
                           tick = function(_, n) log[#log + 1] = "tick " .. n return "running" end,
                           stop = function(_, n) log[#log + 1] = "stop " .. n end}},
    checks = {open_door = function(agent, name) return name ~= "open_door" end},
    priorities = {kill_enemy = function(agent, goal) return 42 end},
    sensors = {{fn = function() sensed = sensed + 1 end, interval = 0.5},
               function() every = every + 1 end},
  }
  local a <close> = t:agent{}
  for _ = 1, 10 do a:update(0.1) end
  list_eq(a:plan(), f:scenario("door_stuck").expect_plan, "the check left open_door out")
  eq(a:inspect_goals()[1].priority, 42, "the priority callback")
  eq(sensed, 2, "a sensor every 0.5 s over 1 s")
  eq(every, 10, "a sensor of interval 0 on every update")
  a:replan()                                 -- interrupts get_ammo: its stop callback runs
  eq(log[1], "start get_ammo")
  eq(#log, 12, "start, 10 ticks, stop")
  eq(log[12], "stop get_ammo")
end)

test("callback errors: sensors, checks, priorities", function()
  local f <close> = goap.load(soldier)
  local a <close> = f:agent{sensors = {function() error("sensor down") end}}
  raises(function() a:update(0.1) end, "sensor down")
  local b <close> = f:agent{priorities = {kill_enemy = function() return "high" end}}
  raises(function() b:update(0.1) end, "goap: goal kill_enemy: priority returned string (expected a number)")
  local c <close> = f:agent{checks = {open_door = function() error("no door") end}}
  raises(function() c:update(0.1) end, "no door")
  c:update(0.1)                              -- the agent goes on; the check left the action out
  eq(c:plan()[3], "kick_door")
  raises(function() f:agent{sensors = {42}} end, "goap: sensor 1: expected a function or {fn=, interval=}")
  raises(function() f:agent{sensors = {{fn = print, interval = -1}}} end, "interval")
  raises(function() f:agent{checks = {nope = print}} end, "goap: unknown action 'nope'")
  raises(function() f:agent{priorities = {shoot = print}} end, "goap: unknown goal 'shoot'")
  raises(function() f:agent{actions = {shoot = 42}} end, "goap: action shoot: expected a function")
end)

test("agent types from agent blocks", function()
  local f <close> = goap.load(squad_file)
  local bb <close> = f:blackboard()
  local gunner <close> = f:agent_type{type = "gunner"}
  eq(gunner:name(), "gunner")
  local g <close> = gunner:agent{blackboard = bb}
  g:update(0.1)
  eq(g:goal(), "suppress")
  list_eq(g:plan(), {"move_to_cover", "provide_suppression"})
  eq(tostring(g:type()), "goap.agent_type(gunner)")
  local medic <close> = f:agent_type{type = "medic", name = "field_medic"}
  eq(medic:name(), "field_medic")
  raises(function() medic:agent{}:order("kill_player", 50) end,
         "goap: order: the agent's type does not pursue goal 'kill_player'")
  raises(function() f:agent_type{type = "sniper"} end, "goap: unknown agent type 'sniper' (no `agent sniper` block)")
  local e = raises(function() f:agent{type = "rifleman"} end,
                   "error: the agent type has actions that reserve resources")
  eq(e.status, "invalid_argument"); eq(e.line, 0); eq(e.offset, 0)
  raises(function() gunner:close() end, "goap: cannot close the agent type: 1 agent(s) of it are still open")
  eq(f:agent_type{type = "rifleman"}:fingerprint() ~= gunner:fingerprint(), true)
end)

test("an HTN agent type from an agent block", function()
  local f <close> = goap.load(examples .. "/trunk_thumper.goap")
  local troll <close> = f:agent_type{type = "troll"}
  local a <close> = troll:agent{}
  eq(a:update(0.1), "ok")
  eq(a:goal(), nil, "an HTN agent has no goal")
  local first
  for _, e in ipairs(f:simulate("troll_at_the_bridge").events) do
    if e.kind == "plan" then first = e.plan break end
  end
  list_eq(a:plan(), first, "the simulation's troll starts with the same decomposition")
  raises(function() a:order(0, 5) end, "goap: no goal 0 (the domain has none)")
end)

test("queries keep their file alive; a closed file is an error", function()
  local q = goap.load(soldier):query{goal = "kill_enemy"}
  collectgarbage()
  collectgarbage()
  eq(select(2, q:plan()), 4)
  local f = goap.load(soldier)
  local q2 = f:query{goal = "kill_enemy"}
  f:close()
  raises(function() q2:plan() end, "goap: the file is closed")
  raises(function() q2:set("in_b", 1) end, "goap: the file is closed")
end)

test("blackboards: slots, resources, holders", function()
  local f <close> = goap.load(squad_file)
  local bb <close> = f:blackboard()
  local held, cap = bb:resource("flank_slot")
  eq(held, 0)
  eq(cap, 1, "the file's `resource flank_slot capacity 1`")
  eq(bb:resource("nope"), nil)
  local t <close> = f:agent_type{type = "shotgunner", actions = running_actions(f)}
  local denied = {}
  local on_event = function(agent, e)
    if e.kind == "reservation_denied" then denied[#denied + 1] = e.action .. " " .. e.resource end
  end
  local a1 <close> = t:agent{blackboard = bb, memory = "in_cover, smoke_out", on_event = on_event}
  local a2 <close> = t:agent{blackboard = bb, memory = "in_cover, smoke_out", on_event = on_event}
  bb:set("suppressive_fire_tokens", 1)
  eq(bb:get("suppressive_fire_tokens"), 1)
  eq(bb:get("nothing"), nil)
  a1:update(0.1)
  a2:update(0.1)
  list_eq(a1:plan(), {"flank_to_cover", "close_range_fire"})
  list_eq(a2:plan(), {"fire_from_cover"}, "the flank slot is taken")
  list_eq(denied, {"flank_to_cover flank_slot"})
  local h = bb:holders("flank_slot")
  eq(#h, 1)
  eq(h[1], a1, "the holder is the agent's own userdata")
  raises(function() bb:set_capacity("flank_slot", 0) end,
         "goap: resource 'flank_slot': capacity 0 is below the 1 unit(s) held")
  raises(function() bb:holders("nope") end, "goap: unknown resource 'nope'")
  raises(function() bb:add_resource("flank_slot", 2) end, "goap: resource 'flank_slot' exists (use set_capacity)")
  raises(function() bb:add_resource("ammo_crate", -1) end, "goap: capacity -1 is out of range")
  bb:add_resource("ammo_crate", 3)
  eq(select(2, bb:resource("ammo_crate")), 3)
  a1:close()                                -- releases its reservation
  eq(#bb:holders("flank_slot"), 0)
  bb:set_capacity("flank_slot", 0)
  raises(function() bb:close() end, "goap: cannot close the blackboard: 1 agent(s) use it")
  eq(a2:blackboard(), bb)
end)

test("squads and orders", function()
  local f <close> = goap.load(squad_file)
  local bb <close> = f:blackboard()
  local sq <close> = goap.squad()
  local g <close> = f:agent_type{type = "gunner"}:agent{blackboard = bb}
  local r <close> = f:agent_type{type = "rifleman"}:agent{blackboard = bb}
  sq:add(g)
  sq:add(r)
  eq(sq:size(), 2)
  eq(sq:member(1), g)
  eq(sq:member(3), nil)
  sq:order("get_to_cover")
  eq(sq:current(), "get_to_cover")
  eq(g:ordered_goal(), "suppress", "F.E.A.R.: one suppresses")
  eq(r:ordered_goal(), "take_cover", "the others move to cover")
  g:update(0.1)
  r:update(0.1)
  eq(r:goal(), "take_cover")
  raises(function() sq:add(g) end, "goap: the agent is already in this squad")
  local other <close> = goap.squad()
  raises(function() other:add(g) end, "goap: the agent is in another squad")
  raises(function() sq:order("charge") end, "goap: unknown squad behaviour 'charge'")
  sq:remove(r)
  eq(r:ordered_goal(), nil, "removing clears the squad's order")
  eq(sq:size(), 1)
  r:order("kill_player", 50)
  eq(r:ordered_goal(), "kill_player")
  r:clear_order()
  eq(r:ordered_goal(), nil)
  raises(function() sq:remove(r) end, "goap: the agent is not in this squad")
  g:close()                                 -- a closed member leaves its squad
  eq(sq:size(), 0)
end)

test("plan cache and shared planner", function()
  local f <close> = goap.load(soldier)
  local cache <close> = goap.cache(16)
  local p <close> = f:planner()
  local t <close> = f:agent_type{actions = running_actions(f)}
  local a <close> = t:agent{cache = cache, planner = p}
  local b <close> = t:agent{cache = cache, planner = p}
  local alone <close> = t:agent{}
  a:update(0.1)
  b:update(0.1)
  alone:update(0.1)
  local s = cache:stats()
  eq(s.misses, 1)
  eq(s.hits, 1, "the second agent's plan came from the cache")
  eq(s.entries, 1)
  eq(b:stats().cache_hits, 1)
  list_eq(b:plan(), a:plan())
  eq(a:stats().memory_bytes < alone:stats().memory_bytes, true,
     "an agent on a shared planner holds no planner of its own")
  cache:clear()
  eq(cache:stats().entries, 0)
  raises(function() cache:close() end, "goap: cannot close the plan cache: 2 agent(s) use it")
  raises(function() p:close() end, "goap: cannot close the planner: 2 agent(s) use it")
  raises(function() f:close() end, "goap: cannot close the file")
  local other <close> = goap.load(squad_file)
  raises(function() other:agent{planner = p} end, "goap: the planner is for another file's domain")
  raises(function() goap.cache(-1) end, "goap: cache capacity out of range")
  raises(function() t:agent{cache = p} end, "goap: cache: expected a goap.cache, got goap.planner")
  raises(function() t:agent{blackboard = 42} end, "goap: blackboard: expected a goap.blackboard, got number")
  raises(function() t:agent{replan_history = "x"} end, "goap: replan_history: expected an integer, got string")
  raises(function() f:agent_type{max_nodes = "many"} end, "goap: max_nodes: expected a number, got string")
  raises(function() f:query{goal = "kill_enemy", search = "dfs"} end, "goap: unknown search 'dfs'")
  raises(function() goap.world{lanes = 2000} end, "goap: lanes: 2000 is out of range (0..1024)")
end)

test("worlds: one planning budget per frame", function()
  local f <close> = goap.load(soldier)
  local ticks, ticked = 0, {}
  local t <close> = f:agent_type{actions = {get_ammo = function(agent)
    ticks = ticks + 1
    ticked[agent] = true
    return "running"
  end}}
  local w <close> = goap.world{seed = 7, lanes = 2}
  local agents = {}
  for i = 1, 6 do
    agents[i] = t:agent{}
    w:add(agents[i], i % 2, i)
  end
  eq(w:count(), 6)
  eq(w:update(0.1, 1000), "ok")
  eq(ticks, 6, "every member's tick ran inside world:update")
  for i = 1, 6 do eq(ticked[agents[i]], true, "the callback got member " .. i) end
  eq(w:stats().frames, 1)
  eq(w:stats().wanting, 6)
  raises(function() agents[1]:update(0.1) end, "goap: the agent is in a world: world:update updates it")
  raises(function() w:add(agents[1]) end, "goap: the agent is already in this world")
  raises(function() goap.world():add(agents[1]) end, "goap: the agent is in another world")
  raises(function() w:add(t:agent{}, -1) end, "goap: world:add: bad lane")
  w:remove(agents[1])
  eq(w:count(), 5)
  agents[1]:update(0.1)                      -- its own again
  agents[2]:close()                          -- a closed member leaves its world
  eq(w:count(), 4)
  local bad <close> = f:agent_type{actions = {get_ammo = function() error("tick failed") end}}:agent{}
  w:add(bad)
  raises(function() w:update(0.1) end, "tick failed")
  w:update(0.1)
  w:close()
  agents[3]:update(0.1)                      -- released by the world's close
  -- a common budget of 16 expansions reaches the first 16 / 8 agents wanting to plan, by
  -- priority; the others wait for the next frames
  local tight <close> = goap.world{}
  local plain <close> = f:agent_type{}
  for i = 1, 6 do tight:add(plain:agent{}, 0, i) end
  tight:update(0.1, 16)
  local st = tight:stats()
  eq(st.wanting, 6)
  eq(st.served, 16 // 8)
  tight:update(0.1, 16)
  -- beginning a search costs a quarter of this budget (16 / 4): the first served agent's
  -- search and its beginning leave the second too little to finish in that frame
  eq(tight:stats().wanting, 6 - 1, "the first served agent has its plan")
  eq(tight:stats().max_wait, 1)
end)


-- A squad of three on one blackboard: the shotgunner holds the flank slot, the squad's orders
-- are out. Returns the objects (no <close>: the caller's scope owns them).
local function squad_scene(f, bb, sq)
  local acts = running_actions(f)
  local types = {f:agent_type{type = "gunner", actions = acts},
                 f:agent_type{type = "rifleman", actions = acts},
                 f:agent_type{type = "shotgunner", actions = acts}}
  local members = {}
  for i, t in ipairs(types) do
    members[i] = t:agent{blackboard = bb, memory = i == 3 and "in_cover, smoke_out" or nil}
  end
  return types, members
end

test("save games: blackboards and squads", function()
  local f <close> = goap.load(squad_file)
  local bb <close> = f:blackboard()
  local sq <close> = goap.squad()
  local types, ms = squad_scene(f, bb, sq)
  for _, m in ipairs(ms) do sq:add(m) end
  bb:set("suppressive_fire_tokens", 1)
  sq:order("get_to_cover")
  for _ = 1, 3 do for _, m in ipairs(ms) do m:update(0.1) end sq:update() end
  eq(bb:holders("flank_slot")[1], ms[3])
  local bbs, sqs, snaps = bb:snapshot(), sq:snapshot(), {}
  for i, m in ipairs(ms) do snaps[i] = m:snapshot() end
  eq(bbs:sub(1, 5), "GOAPB")
  eq(sqs:sub(1, 5), "GOAPS")
  -- restore in the documented order: blackboard, agents, squad
  local bb2 <close> = goap.blackboard()
  bb2:restore(bbs)
  eq(bb2:get("suppressive_fire_tokens"), 1)
  eq(select(1, bb2:resource("flank_slot")), 1, "a unit held")
  eq(bb2:holders("flank_slot")[1], false, "its holder is not restored yet")
  local ms2 = {}
  for i, t in ipairs(types) do
    ms2[i] = t:agent{blackboard = bb2}
    ms2[i]:restore(snaps[i])
  end
  eq(bb2:holders("flank_slot")[1], ms2[3], "the restored agent holds the unit again")
  local sq2 <close> = goap.squad()
  sq2:restore(sqs, ms2)
  eq(sq2:current(), "get_to_cover")
  eq(sq2:size(), 3)
  eq(ms2[1]:ordered_goal(), "suppress")
  eq(bb2:snapshot(), bbs)
  eq(sq2:snapshot(), sqs)
  for _ = 1, 5 do
    for i = 1, 3 do ms[i]:update(0.1) ms2[i]:update(0.1) end
    sq:update()
    sq2:update()
  end
  for i = 1, 3 do eq(ms2[i]:snapshot(), ms[i]:snapshot(), "member " .. i .. " after 5 more frames") end
  eq(bb2:snapshot(), bb:snapshot(), "the blackboards after 5 more frames")
  eq(raises(function() bb2:restore(bbs) end, "goap: restore: invalid_operation: agents are attached").status,
     "invalid_operation")
  raises(function() sq2:restore(sqs, ms2) end, "goap: restore: invalid_operation: the squad has members")
  local e = raises(function() goap.blackboard():restore(bbs:sub(1, 20)) end,
                   "error: snapshot truncated: shorter than its 24-byte header (at byte 20)")
  eq(e.status, "truncated"); eq(e.offset, 20)
  e = raises(function() goap.squad():restore(bbs, {}) end, "error: not a squad snapshot")
  eq(e.status, "domain_mismatch"); eq(e.offset, 4, "offset: the header's kind byte")
  raises(function() goap.squad():restore(sqs, {ms2[1]}) end,
         "goap: restore: invalid_operation: member 1 is in a squad already")
  -- nothing is saved in the middle of an update
  local t = f:agent_type{actions = {move_to_cover = function() bb2:snapshot() end}}
  local m <close> = t:agent{blackboard = bb2}
  raises(function() m:update(0.1) end, "goap: blackboard:snapshot called during an update of an agent on it")
  local t2 = f:agent_type{actions = {move_to_cover = function() sq2:snapshot() end}}
  local m2 <close> = t2:agent{blackboard = bb2}
  sq2:remove(ms2[3])
  sq2:add(m2)
  raises(function() m2:update(0.1) end, "goap: squad called from a member's callback")
end)

test("lifetimes: the garbage collector releases everything, in any order", function()
  local f = goap.load(squad_file)
  local _, live0 = f:allocations()
  do
    local sq = goap.squad()                   -- made before its members: finalized after them
    local bb = f:blackboard()
    local cache, p = goap.cache(), f:planner()
    local t = f:agent_type{type = "gunner"}
    local ms = {}
    for i = 1, 4 do
      ms[i] = t:agent{blackboard = bb, cache = cache, planner = p}
      sq:add(ms[i])
    end
    local w = goap.world()                    -- made after its members: finalized before them
    for i = 1, 4 do w:add(ms[i], 0, i) end
    sq:order("get_to_cover")
    w:update(0.1)
    local _, live = f:allocations()
    eq(live > live0, true, "the agents and the planner allocate through the file")
  end
  collectgarbage()
  collectgarbage()
  local _, live1 = f:allocations()
  eq(live1, live0, "bytes still held once the agents, type and planner are collected")
  -- everything unreachable at once, the file too
  do
    local g = goap.load(squad_file)
    local bb = g:blackboard()
    local a = g:agent{type = "gunner", blackboard = bb}
    local sq = goap.squad()
    sq:add(a)
    local w = goap.world()
    w:add(a)
    w:update(0.1)
  end
  collectgarbage()
  collectgarbage()
  f:close()
end)

-- examples/ammo_run.goap; plans and costs as `goap plan` prints them for the file and for a
-- copy whose near_box line reads `position loc near_box 300 400`.
test("positions: moving the small box far away makes the crate win", function()
  local f <close> = goap.load(examples .. "/ammo_run.goap")
  local x, y, z = f:position("loc", "near_box")
  eq(x, 3.0, "x"); eq(y, 4.0, "y"); eq(z, 0.0, "z")
  local p = f:plan{goal = "armed"}
  list_eq(p.actions, {"go_near_box", "take_box"}); eq(p.cost, 7.0)
  f:set_position("loc", "near_box", 300, 400)
  x, y, z = f:position("loc", "near_box")
  eq(x, 300.0, "x"); eq(y, 400.0, "y"); eq(z, 0.0, "z")
  p = f:plan{goal = "armed"}
  list_eq(p.actions, {"go_far_crate", "take_crate"}); eq(p.cost, 52.0)
  -- the second walk is priced from the crate (450 m), not from the post (500 m)
  p = f:plan{goal = "well_armed"}
  list_eq(p.actions, {"go_far_crate", "take_crate", "go_near_box", "take_box"}); eq(p.cost, 504.0)
  -- by id, back where it was: the box wins again
  local loc = f:var_id("loc")
  f:set_position(loc, 1, 3, 4, 0)
  x, y = f:position(loc, 1)
  eq(x, 3.0, "x"); eq(y, 4.0, "y")
  p = f:plan{goal = "armed"}
  list_eq(p.actions, {"go_near_box", "take_box"}); eq(p.cost, 7.0)
end)

test("positions: errors", function()
  local f = goap.load(examples .. "/ammo_run.goap")
  raises(function() f:position("place", "post") end, "goap: unknown variable 'place'")
  raises(function() f:set_position("loc", "river", 1, 2) end,
         "goap: variable 'loc' has no value 'river'")
  raises(function() f:position("ammo", 0) end,
         "goap: position: ammo = 0 has no position (no `position` line)")
  raises(function() f:set_position("box_taken", "true", 1, 2) end,
         "goap: set_position: box_taken = true has no position (no `position` line)")
  raises(function() f:set_position(99, 0, 1, 2) end, "goap: no variable 99 (ids are 0..3)")
  raises(function() f:set_position("loc", 7, 1, 2) end,
         "goap: set_position: variable 'loc' has no value 7")
  raises(function() f:set_position("loc", "post", 0 / 0, 0) end,
         "goap: set_position: loc = post: a coordinate is not finite")
  raises(function() f:set_position("loc", "post", 1) end, "number expected, got no value")
  local x, y, z = f:position("loc", "post")
  eq(x + y + z, 0.0, "post unchanged")
  f:close()
  raises(function() f:position("loc", "post") end, "goap: the file is closed")
end)

print(string.format("%d passed, %d failed", passed, failed))
-- Closes the state first: every __gc runs, and a sanitizer build's LeakSanitizer sees what is left.
os.exit(failed == 0 and 0 or 1, true)
