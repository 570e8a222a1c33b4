#!/usr/bin/env bash
# tests/cli/designer.sh -- what a designer writing a first NPC meets: `sensed` percepts,
# saturating effects (`clamp`), goal cooldowns and hysteresis, and the messages of
# `goap check`, `goap why`, `goap simulate` and `goap test` about them.
#
# usage: bash tests/cli/designer.sh <path-to-goap> <tests/cli directory>
#
# Exact output lines (with positions) where the tool promises them. `goap check --strict` must
# pass on every shipped example and on tests/cli/guard.goap (a guard NPC with percepts), and
# must still fail on a truly unreachable action. Prints "N passed, M failed"; exits 1 on any
# failure.
set -u

GOAP=${1:?usage: designer.sh <path-to-goap> <tests/cli dir>}
GOAP=$(cd "$(dirname "$GOAP")" && pwd)/$(basename "$GOAP")
DIR=$(cd "${2:?usage: designer.sh <path-to-goap> <tests/cli dir>}" && pwd)
EX=$(cd "$DIR/../../examples" && pwd)
GUARD=$DIR/guard.goap
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cd "$TMP" || exit 1

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
  echo "FAIL: $1"
  echo "  command: $last (exit $rc)"
  sed -n '1,20s/^/  stdout| /p' "$TMP/out"
  sed -n '1,20s/^/  stderr| /p' "$TMP/err"
}
expect_rc() { if [ "$rc" = "$2" ]; then ok; else bad "$1: exit status $rc, expected $2"; fi; }
out_has() { if grep -qxF -- "$2" "$TMP/out"; then ok; else bad "$1: stdout lacks the line '$2'"; fi; }
err_has() { if grep -qxF -- "$2" "$TMP/err"; then ok; else bad "$1: stderr lacks the line '$2'"; fi; }
# out_is NAME: stdout must equal the text on standard input.
out_is() {
  if diff -u - "$TMP/out" >"$TMP/diff"; then ok; else bad "$1: stdout differs"; cat "$TMP/diff"; fi
}

# --- goap check --strict: clean on the shipped examples and the guard ------------------------
for f in "$EX"/*.goap; do
  run check --strict "$f"
  expect_rc "check --strict $(basename "$f")" 0
done
run check --strict "$GUARD"
expect_rc "check --strict guard" 0
out_has "check guard: clean" "$GUARD: ok, 0 warnings (domain guard: 15 variables, 12 actions, 4 goals, 7 scenarios)"

# without `sensed`, the percepts make false warnings (what the keyword is for)
sed 's/ sensed$//' "$GUARD" >unsensed.goap
run check --strict unsensed.goap
expect_rc "check --strict without sensed fails" 1
err_has "check without sensed: shoot" "unsensed.goap:66:8: warning: action 'shoot' can never be applied: precondition 'see_player' is unreachable from the default state"

# ... and a truly unreachable action is still caught
{ cat "$GUARD"; printf 'var has_key: bool\naction unlock_armory\n  pre has_key\n  eff ammo = 6\n'; } >locked.goap
run check --strict locked.goap
expect_rc "check --strict catches an unreachable action" 1
err_has "check: the unreachable action" "locked.goap:168:8: warning: action 'unlock_armory' can never be applied: precondition 'has_key' is unreachable from the default state"
out_has "check: one warning" "locked.goap: ok, 1 warning (domain guard: 16 variables, 13 actions, 4 goals, 7 scenarios)"

# the guard's scenarios and its night (cooldowns, hysteresis, sensed `at` lines)
run test "$GUARD"
expect_rc "test guard" 0
out_has "test guard: clamp at stamina 1" "PASS $GUARD:tired_guard (cost 2, plan patrol)"
out_has "test guard: simulation" "PASS $GUARD:night_shift (simulation, 4 replans)"
out_has "test guard: all" "8 passed, 0 failed"
run simulate "$GUARD"
expect_rc "simulate guard" 0
out_has "simulate guard: a sensed at line reaches the agent" " 14.00  guard         plan for alert_base (cost 2): raise_alarm, radio_in"
out_has "simulate guard: guard_post cools down for 20 s" " 24.20  guard         plan for guard_post (cost 1): return_to_post"

# --- goap why: the game must sense a percept ----------------------------------------------------
run why "$GUARD" --scenario nobody_there
expect_rc "why nobody_there" 1
out_is "why nobody_there" <<'T'
no plan: 1 of 1 goal condition cannot be reached, even if actions never undo anything:
  player_down: false at the start (player_down = false); 2 actions could achieve it, none can run:
    shoot needs see_player, player_in_range, unreachable
    return_fire needs under_fire, in_cover, unreachable
  see_player: false at the start (see_player = false); 'see_player' is sensed: the game must sense it
  player_in_range: false at the start (player_in_range = false); 'player_in_range' is sensed: the game must sense it
  under_fire: false at the start (under_fire = false); 'under_fire' is sensed: the game must sense it
  in_cover: false at the start (in_cover = false); 1 action could achieve it, none can run:
    take_cover needs under_fire, unreachable
T

# --- strict and saturating effects ----------------------------------------------------------------
printf 'var hunger: int 0..10 = 3\naction eat_big_meal\n  eff hunger -= 5\ngoal fed\n  want hunger <= 2\n' >meal.goap
run why meal.goap --goal fed
expect_rc "why meal: the range, not undoing" 1
out_is "why meal" <<'T'
no plan: 1 of 1 goal condition cannot be reached, even if actions never undo anything:
  hunger <= 2: false at the start (hunger = 3); 1 action could achieve it, none can run:
    eat_big_meal: hunger -= 5 leaves 0..10 from hunger = 3 (write 'hunger -= 5 clamp' to stop at the bound)
T
run check meal.goap
expect_rc "check meal" 0
err_has "check meal: names the effect" "meal.goap:2:8: warning: action 'eat_big_meal' can never be applied: 'hunger -= 5' leaves 0..10 from hunger = 3 (write 'hunger -= 5 clamp' to stop at the bound)"
err_has "check meal: the goal" "meal.goap:4:6: warning: goal 'fed' cannot be reached: condition 'hunger <= 2' is unreachable"
sed 's/hunger -= 5$/hunger -= 5 clamp/' meal.goap >clamped.goap
run check --strict clamped.goap
expect_rc "check clamped" 0
run plan clamped.goap --goal fed --json
expect_rc "plan clamped" 0
grep -q '"plan": \["eat_big_meal"\]' "$TMP/out" && ok || bad "plan clamped: the plan is eat_big_meal"
for search in astar backward greedy; do
  run plan clamped.goap --goal fed --search "$search"
  expect_rc "plan clamped --search $search" 0
done

# --- loader hints -----------------------------------------------------------------------------------
printf 'var n: integer 0..5\n' >integer.goap
run check integer.goap
expect_rc "integer" 1
err_has "integer: did you mean int" "integer.goap:1:8: error: unknown type 'integer' (expected bool, enum or int); did you mean 'int'?"
printf 'var x: int 0..3\naction patrol\n  pre x > 1\nvar seen: bool\n  eff seen\n' >var_in_action.goap
run check var_in_action.goap
expect_rc "var in action" 1
err_has "var in action: hint" "var_in_action.goap:2:8: error: action 'patrol' has no 'eff' line (the 'var' on line 4 ends its block: declare variables before the actions that use them)"

# --- simulation failures: where, and values by type --------------------------------------------------
sed 's/^  expect final patrolled, searched_area, alarm_raised, radioed, player_down$/  expect final patrolled, !player_down, alert == calm/' "$GUARD" >wrong.goap
run simulate wrong.goap
expect_rc "simulate wrong" 1
out_has "simulate wrong: position and bool" "        FAIL: wrong.goap:166:27: expected final memory '!player_down' of guard, but the value is true"
run test wrong.goap
expect_rc "test wrong" 1
out_has "test wrong: position" "FAIL wrong.goap:166:27: simulation night_shift: expected final memory '!player_down' of guard, but the value is true"
sed 's/^  expect final patrolled, searched_area, alarm_raised, radioed, player_down$/  expect final alert == calm/' "$GUARD" >enum.goap
run test enum.goap
out_has "test enum: the value's name" "FAIL enum.goap:166:16: simulation night_shift: expected final memory 'alert == calm' of guard, but the value is hunting"

# --- HTN cycles ---------------------------------------------------------------------------------------
run check "$DIR/htn/cycle.goap"
expect_rc "check cycle" 0
err_has "check cycle: the method" "$DIR/htn/cycle.goap:7:10: warning: method 'again' of task 'loop' is a cycle: its first subtask 'loop' decomposes back into 'loop' with no state change in between (left recursion; the planner can only cut it at its depth limit)"
run check --strict "$DIR/htn/cycle.goap"
expect_rc "check --strict cycle" 1
run plan "$DIR/htn/cycle.goap" --task loop
expect_rc "plan cycle" 1
out_has "plan cycle: says cycle, as --json" "no plan: cycle (method 'again' of task 'loop' starts with 'loop', which decomposes back into 'loop' with no state change in between (left recursion); the branch was cut at the depth limit)"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
