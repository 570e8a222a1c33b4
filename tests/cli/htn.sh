#!/usr/bin/env bash
# tests/cli/htn.sh -- the HTN side of the `goap` tool: `plan --task` (text, JSON, exit codes,
# errors) and HTN scenarios in `goap test`.
#
# usage: bash tests/cli/htn.sh <path-to-goap> <tests/cli directory>
# Prints "N passed, M failed"; exits 1 on any failure.
set -u
GOAP=${1:?usage}
DIR=$(cd "${2:?usage}" && pwd)
EX=$(cd "$DIR/../../examples" && pwd)
TROLL=$EX/trunk_thumper.goap
FEAT=$(cd "$DIR/../htn" && pwd)/achieve_pause_set.goap
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
passed=0
failed=0
rc=0
last=""
run() {
  last="goap $*"
  "$GOAP" "$@" >"$TMP/out" 2>"$TMP/err"
  rc=$?
}
ok() { passed=$((passed + 1)); }
bad() {
  failed=$((failed + 1))
  echo "FAIL: $1 ($last)" >&2
  sed 's/^/  out: /' "$TMP/out" | head -20 >&2
  sed 's/^/  err: /' "$TMP/err" | head -10 >&2
}
expect_rc() { if [ "$rc" = "$2" ]; then ok; else bad "$1: exit $rc, expected $2"; fi; }
out_has() { if grep -qF -- "$2" "$TMP/out"; then ok; else bad "$1: stdout lacks '$2'"; fi; }
err_has() { if grep -qF -- "$2" "$TMP/err"; then ok; else bad "$1: stderr lacks '$2'"; fi; }
json_is() { # NAME PYTHON-EXPRESSION over j
  if python3 -c "import json,sys; j=json.loads(open('$TMP/out').read()); sys.exit(0 if ($2) else 1)" 2>/dev/null
  then ok; else bad "$1: JSON check failed: $2"; fi
}

# plan --task: text output with the decomposition tree and the MTR
run plan "$TROLL" --task be_troll
expect_rc "plan task" 0
out_has "plan task" "plan found, 4 actions:"
out_has "plan task" "  be_troll  [method attack]"
out_has "plan task" "    attack_enemy  [method find_a_trunk]"
out_has "plan task" "      uproot_tree"
out_has "plan task" "method traversal record: 0 1"
out_has "plan task" "total cost 6"

# --given, and a scenario with a task
run plan "$TROLL" --task be_troll --given '!sees_enemy'
expect_rc "plan task given" 0
out_has "plan task given" "  be_troll  [method patrol]"
run plan "$TROLL" --scenario no_tree_nearby --json
expect_rc "plan scenario json" 0
json_is "plan scenario json" "j['status'] == 'found' and j['plan'] == ['choose_bridge', 'go_to_bridge', 'check_bridge'] and j['mtr'] == [1] and j['backtracks'] >= 1 and j['paused'] is False and j['cost'] == 3"
[ "$(wc -l <"$TMP/out")" = 1 ] && ok || bad "plan json: one line"

# the enemy is not seen: the attack method is never tried (one expansion, no backtracking)
run plan "$TROLL" --scenario enemy_not_seen --json
json_is "not seen" "j['expansions'] == 1 and j['backtracks'] == 0 and j['mtr'] == [1]"
# no path to the enemy: both attack methods fail, then patrol
run plan "$TROLL" --scenario no_path_with_trunk --json
json_is "no path" "j['expansions'] == 3 and j['backtracks'] >= 1 and j['mtr'] == [1] and j['plan'][0] == 'choose_bridge'"

# achieve in the tree; a partial plan at a pause
run plan "$FEAT" --task burgle
expect_rc "achieve" 0
out_has "achieve" "    achieve be_inside  (GOAP: 2 actions)"
out_has "achieve" "      unlock_door"
run plan "$FEAT" --task patrol
expect_rc "pause" 0
out_has "pause" "partial plan (it ends at a pause"
out_has "pause" "    pause"
run plan "$FEAT" --task patrol --json
json_is "pause json" "j['status'] == 'partial' and j['paused'] is True and j['plan'] == ['go_to_bridge']"

# no plan, budgets, cycles: exit 1 with the reason
run plan "$FEAT" --task claim_and_enter --given door_reserved
expect_rc "no plan" 1
out_has "no plan" "no plan: no plan (no method applies along any decomposition)"
run plan "$DIR/htn/cycle.goap" --task loop
expect_rc "cycle" 1
out_has "cycle" "left recursion"
run plan "$DIR/htn/cycle.goap" --task loop --json
expect_rc "cycle json" 1
json_is "cycle json" "j['status'] == 'cycle' and j['plan'] == [] and j['max_depth'] == 1000"
run plan "$DIR/htn/cycle.goap" --task loop --max-nodes 50 --json
expect_rc "steps json" 1
json_is "steps json" "j['status'] == 'node_limit' and j['steps'] == 50"

# usage errors: unknown task with a suggestion, --task with another target
run plan "$TROLL" --task be_trol
expect_rc "unknown task" 2
err_has "unknown task" "has no task 'be_trol' (did you mean 'be_troll'?)"
err_has "unknown task" "tasks in "
run plan "$TROLL" --task be_troll --want enemy_hurt
expect_rc "two targets" 2
err_has "two targets" "--scenario, --goal, --want and --task are exclusive: use one"
run plan "$EX/soldier.goap" --task anything
expect_rc "no tasks" 2
err_has "no tasks" "has no task 'anything'"

# goap test: HTN scenarios pass and fail with their reasons
run test "$TROLL"
expect_rc "test troll" 0
out_has "test troll" "PASS $TROLL:no_path_to_enemy (task be_troll, cost 3, plan choose_bridge go_to_bridge check_bridge)"
out_has "test troll" "7 passed, 0 failed"
run test "$DIR/htn/cycle.goap"
expect_rc "test cycle" 1
out_has "test cycle" "expected no plan, but: "
out_has "test cycle" "left recursion"
run test "$DIR/htn/failing.goap"
expect_rc "test failing" 1
out_has "test failing" "PASS $DIR/htn/failing.goap:right (task t, cost 2, plan a b)"
out_has "test failing" "scenario wrong_plan: expected plan b, got a b"
out_has "test failing" "scenario wrong_cost: expected cost 3, got 2"
out_has "test failing" "scenario wrongly_no_plan: expected no plan, got cost 2"
out_has "test failing" "scenario no_plan_found: expected a plan, got no plan"
out_has "test failing" "1 passed, 4 failed"

# a load error in a task block: position, caret
printf 'var x: bool\ntask t\n  method m\n    do atack\n' >"$TMP/bad.goap"
run test "$TMP/bad.goap"
expect_rc "load error" 2
err_has "load error" "bad.goap:4:8: error: unknown action or task 'atack'"
err_has "load error" "       ^"

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
