#!/usr/bin/env bash
# tests/trace/cli.sh -- `goap trace` and `goap why` through the built tool.
# usage: bash tests/trace/cli.sh <path-to-goap> <tests/trace directory>
# Exact output lines of `goap why` on crafted domains with known causes, the JSON trace's
# counts against `goap plan --json`, the DOT and HTML outputs. Prints "N passed, M failed".
set -u
GOAP=${1:?usage: cli.sh <goap> <dir>}
DIR=$(cd "${2:?usage: cli.sh <goap> <dir>}" && pwd)
SOLDIER=$(cd "$DIR/../../examples" && pwd)/soldier.goap
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
passed=0
failed=0

# expect NAME EXPECTED_RC EXPECTED_FILE ARGS...: the tool's stdout must equal the file.
expect() {
  local name=$1 want_rc=$2 want=$3
  shift 3
  "$GOAP" "$@" >"$TMP/out" 2>"$TMP/err"
  local rc=$?
  diff -u "$want" "$TMP/out" >"$TMP/diff"
  local same=$?
  if [ "$rc" = "$want_rc" ] && [ "$same" = 0 ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: $name (exit $rc, want $want_rc)"
    cat "$TMP/diff" "$TMP/err"
  fi
}

ok() {
  if eval "$2"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $1"; fi
}

cat >"$TMP/locked" <<'T'
no plan: 1 of 1 goal condition cannot be reached, even if actions never undo anything:
  in_vault: false at the start (in_vault = false); 1 action could achieve it, none can run:
    enter needs door_open, unreachable
  door_open: false at the start (door_open = false); 1 action could achieve it, none can run:
    open_door needs has_key, unreachable
  has_key: false at the start (has_key = false); 1 action could achieve it, none can run:
    find_key needs power, unreachable
  power: no action achieves it, and it is false at the start (power = false)
T
expect "why locked" 1 "$TMP/locked" why "$DIR/why.goap" --scenario locked

cat >"$TMP/purple" <<'T'
no plan, although every goal condition is reachable when actions never undo anything:
  the actions undo each other's effects (or the goal conditions exclude each other along every path)
T
expect "why purple" 1 "$TMP/purple" why "$DIR/why.goap" --scenario purple

# sorted by cost: fix the order the tool promises (cheapest first, then action order)
cat >"$TMP/rich" <<'T'
plan found, cost 7: steal
cheapest plan starting with each action applicable at the start:
  steal       cost 7: steal  (the chosen plan)
  paint_red   cost 8: paint_red steal
  paint_blue  cost 8: paint_blue steal
  dig         cost 10: dig steal
T
expect "why rich" 0 "$TMP/rich" why "$DIR/why.goap" --scenario rich

cat >"$TMP/awake" <<'T'
no plan: 1 of 2 goal conditions cannot be reached, even if actions never undo anything:
  in_vault: false at the start (in_vault = false); 1 action could achieve it, none can run:
    enter needs door_open, unreachable
  door_open: false at the start (door_open = false); 1 action could achieve it, none can run:
    open_door needs has_key, unreachable
  has_key: false at the start (has_key = false); 1 action could achieve it, none can run:
    find_key needs power, unreachable
  power: no action achieves it, and it is false at the start (power = false)
T
expect "why awake" 1 "$TMP/awake" why "$DIR/why.goap" --scenario awake

# --given switches the power on: now a plan exists
"$GOAP" why "$DIR/why.goap" --scenario locked --given power >"$TMP/out" 2>&1
ok "why --given power finds the plan" \
  "head -1 '$TMP/out' | grep -qx 'plan found, cost 3: find_key open_door enter' && grep -q '^  find_key  *cost 3: find_key open_door enter  (the chosen plan)$' '$TMP/out'"

# The lecture's window: the soldier with the door stuck
cat >"$TMP/door" <<'T'
plan found, cost 6: get_ammo load_magazine kick_door shoot
cheapest plan starting with each action applicable at the start:
  get_ammo     cost 6: get_ammo load_magazine kick_door shoot  (the chosen plan)
  kick_door    cost 6: kick_door get_ammo load_magazine shoot
  jump_window  cost 8: jump_window get_ammo load_magazine shoot
T
expect "why door_stuck" 0 "$TMP/door" why "$SOLDIER" --scenario door_stuck

# usage errors
"$GOAP" why "$DIR/why.goap" >/dev/null 2>&1
ok "why without a target: exit 2" "[ $? = 2 ]"
"$GOAP" why "$DIR/why.goap" --scenario nope >/dev/null 2>"$TMP/err"
ok "why unknown scenario: exit 2 and a message" "[ $? = 2 ] && grep -q \"no scenario 'nope'\" '$TMP/err'"

# goap trace: the JSON agrees with goap plan --json, for several configurations
for cfg in "astar default" "backward default" "greedy hadd" "astar zero"; do
  set -- $cfg
  "$GOAP" trace "$SOLDIER" --scenario door_stuck --search "$1" --heuristic "$2" \
    --json "$TMP/t.json" --dot "$TMP/t.dot" --html "$TMP/t.html" >"$TMP/out" 2>&1
  trc=$?
  "$GOAP" plan "$SOLDIER" --scenario door_stuck --search "$1" --heuristic "$2" --json >"$TMP/p.json"
  ok "trace $cfg: exit 0" "[ $trc = 0 ]"
  ok "trace $cfg: JSON agrees with plan --json" "python3 - '$TMP/t.json' '$TMP/p.json' <<'PY'
import json, sys
t = json.load(open(sys.argv[1])); p = json.load(open(sys.argv[2]))
names = [t['actions'][a]['name'] for a in t['plan']]
assert t['status'] == p['status'] == 'found', (t['status'], p['status'])
assert names == p['plan'], (names, p['plan'])
for k in ('expanded', 'generated', 'duplicates', 'nodes'):
    assert t['stats'][k] == p[k], k
ev = [e[0] for e in t['events']]
assert ev.count('expand') == p['expanded']
assert ev.count('new') == p['nodes'] == len(t['nodes'])
assert sum(ev.count(k) for k in ('new', 'duplicate', 'better', 'limit')) == p['generated']
assert ev.count('duplicate') + ev.count('better') == p['duplicates']
assert ev.count('goal') == 1
# the plan's nodes: a path of parents with the plan's actions
pn = t['plan_nodes']
acts = [t['nodes'][n]['action'] for n in pn]
if t['backward']:
    assert acts[:-1] == t['plan'], (acts, t['plan'])
    assert all(t['nodes'][pn[i]]['parent'] == pn[i + 1] for i in range(len(pn) - 1))
else:
    assert acts[1:] == t['plan'], (acts, t['plan'])
    assert all(t['nodes'][pn[i + 1]]['parent'] == pn[i] for i in range(len(pn) - 1))
PY"
  ok "trace $cfg: DOT has one box per node, green plan edges" \
    "[ \$(grep -c '^  n[0-9]* \\[label' '$TMP/t.dot') = \$(python3 -c \"import json;print(len(json.load(open('$TMP/t.json'))['nodes']))\") ] && grep -q 'color=green4' '$TMP/t.dot' && head -1 '$TMP/t.dot' | grep -q '^digraph trace {'"
  ok "trace $cfg: HTML is self-contained and embeds the trace" \
    "! grep -Eiq '<script[^>]+src=|<link[^>]+href=|https?://' '$TMP/t.html' && grep -q '\"format\":\"goap-trace-1\"' '$TMP/t.html'"
done
# a node budget: the trace ends in a limit event
"$GOAP" trace "$SOLDIER" --scenario door_stuck --heuristic zero --max-nodes 3 --json "$TMP/l.json" >/dev/null 2>&1
ok "trace --max-nodes 3: exit 1" "[ $? = 1 ]"
ok "trace --max-nodes 3: a limit event, 3 nodes" \
  "python3 -c \"import json;t=json.load(open('$TMP/l.json'));assert t['status']=='node_limit' or t['status'].startswith('node'),t['status'];assert len(t['nodes'])==3;assert t['events'][-1][0]=='limit'\""
"$GOAP" trace "$SOLDIER" --scenario door_stuck --bogus >/dev/null 2>&1
ok "trace unknown option: exit 2" "[ $? = 2 ]"

# goap check: scenarios whose goal relaxed reachability proves unreachable
"$GOAP" check "$DIR/why.goap" >"$TMP/out" 2>"$TMP/err"
ok "check: exit 0 (warnings only)" "[ $? = 0 ]"
ok "check: warns about scenario locked" \
  "grep -q \"why.goap:50: warning: scenario locked: goal condition 'in_vault' cannot be reached from its start\" '$TMP/err'"
ok "check: warns about scenario awake" "grep -q 'warning: scenario awake: goal condition .in_vault.' '$TMP/err'"
ok "check: no warning for purple (relaxed-reachable) or rich (a plan)" \
  "! grep -q 'scenario purple\\|scenario rich' '$TMP/err'"
"$GOAP" check --strict "$DIR/why.goap" >/dev/null 2>&1
ok "check --strict: exit 1" "[ $? = 1 ]"

echo "trace cli: $passed passed, $failed failed"
[ "$failed" = 0 ]
