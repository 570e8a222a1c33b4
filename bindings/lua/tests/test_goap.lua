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
  if cli then
    local out = run_cli("plan " .. path .. " --goal g")
    assert(out:find(err, 1, true), "CLI output differs:\n" .. out .. "\nvs\n" .. err)
  end
  raises(function() goap.parse("domain d\nvar a: bol\n", "mem.goap") end, "mem.goap:2:")
  raises(function() goap.load("/nonexistent/x.goap") end, "/nonexistent/x.goap")
end)

test("want errors are the CLI's", function()
  local f <close> = goap.load(soldier)
  local err = raises(function() f:plan{want = "target_ded"} end,
                     "--want:1:1: error: unknown variable 'target_ded'")
  if cli then
    local out = run_cli("plan " .. soldier .. " --want target_ded")
    assert(out:find(err, 1, true), "CLI output differs:\n" .. out)
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
  raises(function() f:agent{actions = {nope = function() end}} end, "unknown action 'nope'")
  raises(function() a:set("in_b", 7) end, "out of range")
  raises(function() a:get("nope") end, "unknown variable")
  raises(function() f:close() end, "still open")
  a:close(); b:close(); c:close()
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
  raises(function() c:restore(data:sub(1, -2)) end,
         "restore: truncated: snapshot truncated: fewer bytes than its header says")
  local bad = data:sub(1, 29) .. string.char(data:byte(30) ~ 4) .. data:sub(31)
  raises(function() c:restore(bad) end, "restore: corrupt: snapshot corrupted: checksum mismatch")
  local other <close> = f:agent{name = "another_type"}
  raises(function() other:restore(data) end, "restore: domain_mismatch")
  raises(function() a:restore(data) end, "restore: invalid_operation")
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
-- once first, at the same call depth, to warm up (Lua allocates call frames on first use).
local function lua_garbage(fn)
  fn()
  collectgarbage()
  collectgarbage("stop")
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
    for i = 1, 2000 do
      q:set(stuck, i % 2)
      local st, n, cost = q:plan(out)
      cost_sum = cost_sum + cost
      a:set(dead, a:get(stuck))
    end
  end)
  eq(bytes, 0, "Lua bytes allocated by 2000 plans and get/set by id")
  eq(f:allocations() - n0, 0, "native allocations")
  eq(cost_sum, 1000 * 4.0 + 1000 * f:plan{scenario = "door_stuck"}.cost, "the plans were made")
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
    for _ = 1, 200 do updates = updates + cycle() end
  end)
  eq(bytes, 0, "Lua bytes allocated by " .. updates .. " updates")
  eq(f:allocations() - n0, 0, "native allocations")
  eq(a:stats().plans, 4 + 400, "a plan per cycle")
end)

print(string.format("%d passed, %d failed", passed, failed))
os.exit(failed == 0 and 0 or 1)
