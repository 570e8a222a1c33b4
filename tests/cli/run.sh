#!/usr/bin/env bash
# tests/cli/run.sh -- behaviour of the `goap` command-line tool.
#
# usage: bash tests/cli/run.sh <path-to-goap> <tests/cli directory>
#
# Drives the built tool and asserts exit codes, stdout/stderr contents, the exact fields of
# `plan --json` (parsed with python3), diagnostics with positions and carets, and the
# PASS/FAIL lines of `goap test`. Prints "N passed, M failed"; exits 1 on any failure.
set -u

GOAP=${1:?usage: run.sh <path-to-goap> <tests/cli dir>}
GOAP=$(cd "$(dirname "$GOAP")" && pwd)/$(basename "$GOAP")
DIR=$(cd "${2:?usage: run.sh <path-to-goap> <tests/cli dir>}" && pwd)
EX=$(cd "$DIR/../../examples" && pwd)
SOLDIER=$EX/soldier.goap
ALMA=$EX/alma.goap
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

passed=0
failed=0
rc=0
last=""

# run ARGS...: runs the tool, keeping stdout, stderr and the exit status.
run() {
  last="goap $*"
  "$GOAP" "$@" >"$TMP/out" 2>"$TMP/err"
  rc=$?
}

# run_stdin FILE ARGS...: runs the tool with FILE on standard input.
run_stdin() {
  local input=$1
  shift
  last="goap $* < $input"
  "$GOAP" "$@" <"$input" >"$TMP/out" 2>"$TMP/err"
  rc=$?
}

ok() { passed=$((passed + 1)); }
bad() {
  failed=$((failed + 1))
  echo "FAIL: $1"
  echo "  command: $last (exit $rc)"
  sed -n '1,15s/^/  stdout| /p' "$TMP/out"
  sed -n '1,15s/^/  stderr| /p' "$TMP/err"
}

# expect_rc NAME CODE ARGS...: runs the tool and checks its exit status.
expect_rc() {
  local name=$1 want=$2
  shift 2
  run "$@"
  if [ "$rc" = "$want" ]; then ok; else bad "$name: exit status $rc, expected $want"; fi
}

# out_has / err_has NAME TEXT: a fixed string in stdout / stderr of the last run.
out_has() { if grep -qF -- "$2" "$TMP/out"; then ok; else bad "$1: stdout lacks '$2'"; fi; }
err_has() { if grep -qF -- "$2" "$TMP/err"; then ok; else bad "$1: stderr lacks '$2'"; fi; }
out_lacks() { if grep -qF -- "$2" "$TMP/out"; then bad "$1: stdout has '$2'"; else ok; fi; }
# out_re / err_re NAME ERE: an extended regular expression.
out_re() { if grep -qE -- "$2" "$TMP/out"; then ok; else bad "$1: stdout does not match /$2/"; fi; }
err_re() { if grep -qE -- "$2" "$TMP/err"; then ok; else bad "$1: stderr does not match /$2/"; fi; }
out_empty() { if [ -s "$TMP/out" ]; then bad "$1: stdout should be empty"; else ok; fi; }

# The python3 binary itself (a pyenv shim would start a shell per call).
PY=$(python3 -c 'import sys; print(sys.executable)')

# json NAME PYTHON-EXPR: stdout must be exactly one line holding one JSON object with exactly
# the documented keys, and EXPR (over `d`) must be true. The checks are queued and run by one
# python3 process at the end (check_json_queue), which keeps the script fast.
njson=0
json() {
  njson=$((njson + 1))
  cp "$TMP/out" "$TMP/json.$njson"
  printf '%s\t%s\t%s\t%s\n' "$1" "$TMP/json.$njson" "$2" "$last" >>"$TMP/json.queue"
}

check_json_queue() {
  [ -f "$TMP/json.queue" ] || return 0
  local counts
  "$PY" - "$TMP/json.queue" >"$TMP/json.report" <<'EOF'
import json, sys
KEYS = {"status", "partial", "cost", "plan", "expanded", "generated", "duplicates", "nodes",
        "time_us"}

def check(path, expr):
    text = open(path).read()
    lines = text.split("\n")
    assert text.endswith("\n") and len(lines) == 2, "expected exactly one line, got %r" % text
    d = json.loads(lines[0])
    assert isinstance(d, dict), "not an object"
    assert set(d) == KEYS, "keys %s" % sorted(d)
    assert isinstance(d["status"], str)
    assert isinstance(d["partial"], bool)
    assert isinstance(d["cost"], (int, float)) and not isinstance(d["cost"], bool)
    assert isinstance(d["plan"], list) and all(isinstance(a, str) for a in d["plan"])
    for k in ("expanded", "generated", "duplicates", "nodes"):
        assert isinstance(d[k], int) and not isinstance(d[k], bool) and d[k] >= 0, k
    assert isinstance(d["time_us"], (int, float)) and d["time_us"] >= 0
    assert eval(expr, {"d": d}), "false: %s; got %s" % (expr, d)

good = bad = 0
for record in open(sys.argv[1]).read().splitlines():
    name, path, expr, command = record.split("\t")
    try:
        check(path, expr)
        good += 1
    except Exception as e:  # report every failure, keep going
        bad += 1
        print("FAIL: %s: %s: %s" % (name, type(e).__name__, e))
        print("  command: %s" % command)
        print("  stdout| %s" % open(path).read()[:400].rstrip("\n"))
print("%d %d" % (good, bad))
EOF
  sed '$d' "$TMP/json.report"
  counts=$(tail -n 1 "$TMP/json.report")
  case "$counts" in
  *[0-9]" "[0-9]*) ;;
  *)
    bad "json checks: python3 failed"
    return
    ;;
  esac
  passed=$((passed + ${counts% *}))
  failed=$((failed + ${counts#* }))
}

# ---------------------------------------------------------------------------------------------
# Top level: help, version, unknown commands
# ---------------------------------------------------------------------------------------------
expect_rc "version" 0 --version
out_re "version text" '^goap 0\.2\.0 \(libgoap 0\.2\.0\)$'
expect_rc "help" 0 --help
out_has "help lists plan" "plan FILE"
out_has "help lists demo" "demo"
expect_rc "help word" 0 help
expect_rc "help plan" 0 help plan
out_has "help plan options" "--max-nodes"
expect_rc "plan --help" 0 plan --help
out_has "plan --help" "--scenario S"
expect_rc "check -h" 0 check -h
out_has "check -h" "--strict"
expect_rc "no arguments" 2
err_has "no arguments: usage" "usage: goap"
expect_rc "unknown command" 2 frobnicate
err_has "unknown command named" "unknown command 'frobnicate'"
expect_rc "misspelt command" 2 plna
err_has "misspelt command suggestion" "did you mean 'plan'?"
expect_rc "unknown top-level option" 2 --verbose
err_has "unknown top-level option named" "'--verbose'"
expect_rc "help for unknown command" 2 help nothing
expect_rc "why --help" 0 why --help
out_has "why --help names --max-nodes" "--max-nodes N"
expect_rc "transposed command" 2 hepl
err_has "transposed command suggestion" "goap: unknown command 'hepl' (did you mean 'help'?)"
expect_rc "transposed scenario" 2 plan "$SOLDIER" --scenario door_stcuk
err_has "transposed scenario suggestion" "has no scenario 'door_stcuk' (did you mean 'door_stuck'?)"
expect_rc "help --help" 0 help --help
out_has "help --help prints the main usage" "usage: goap <command>"
expect_rc "help -h" 0 help -h
expect_rc "help help" 0 help help
out_has "help help prints the main usage" "usage: goap <command>"

# The unknown-command list and `goap help` both come from the one command table: the list of
# an unknown command names exactly the commands `goap help` shows (as sets), and
# every one of them has a help text (`goap help CMD`, `goap CMD --help`, `goap CMD -h`).
expect_rc "unknown command list" 2 nosuch
listed=$(sed -n "s/^goap: unknown command 'nosuch' (expected \(.*\))\$/\1/p" "$TMP/err" |
         sed 's/ or /, /; s/, /\n/g')
run help
shown=$(sed -n '/^commands:/,/^options:/s/^  \([a-z][a-z-]*\)\( .*\)\{0,1\}$/\1/p' "$TMP/out")
if [ -n "$listed" ] && [ "$(sort <<<"$listed")" = "$(sort <<<"$shown")" ]; then ok; else
  bad "unknown-command list [$(echo $listed)] differs from goap help's commands [$(echo $shown)]"; fi
for c in $shown; do
  want="usage: goap $c"
  [ "$c" = help ] && want="usage: goap <command>"
  expect_rc "help $c" 0 help "$c"
  out_has "help $c text" "$want"
  expect_rc "$c --help" 0 "$c" --help
  out_has "$c --help text" "$want"
  expect_rc "$c -h" 0 "$c" -h
done

# ---------------------------------------------------------------------------------------------
# plan: human output
# ---------------------------------------------------------------------------------------------
expect_rc "plan default" 0 plan "$SOLDIER" --scenario default
out_re "plan numbered step 1" '^ +1\. get_ammo +1$'
out_re "plan numbered step 4" '^ +4\. shoot +1$'
out_has "plan total" "total cost 4"
out_has "plan found" "plan found, 4 actions:"
out_re "plan statistics" '^expanded [0-9]+, generated [0-9]+, duplicates [0-9]+, nodes [0-9]+, time [0-9.]+ us$'
out_has "plan search line" "search: astar, heuristic default"

expect_rc "plan door_stuck" 0 plan "$SOLDIER" --scenario door_stuck
out_re "door_stuck kicks" '^ +[0-9]\. kick_door +3$'
out_has "door_stuck total" "total cost 6"
out_has "door_stuck given" "given: door_stuck"

expect_rc "plan --goal" 0 plan "$SOLDIER" --goal kill_enemy
out_has "plan --goal total" "total cost 4"
expect_rc "plan --goal unknown" 2 plan "$SOLDIER" --goal kill_enmy
err_has "plan --goal unknown suggestion" "did you mean 'kill_enemy'?"
expect_rc "plan --scenario unknown" 2 plan "$SOLDIER" --scenario door_stick
err_has "plan --scenario unknown named" "no scenario 'door_stick'"
err_has "plan --scenario suggestion" "did you mean 'door_stuck'?"

# ---------------------------------------------------------------------------------------------
# plan --json: exact fields
# ---------------------------------------------------------------------------------------------
check_json_scenario() {
  expect_rc "json $1 exit" 0 plan "$SOLDIER" --scenario "$1" --json
  json "json $1" "d['status'] == 'found' and d['partial'] is False and d['cost'] == $2 and d['plan'] == $3 and d['expanded'] >= 1 and d['generated'] >= d['expanded'] - 1"
}
check_json_scenario default 4 "['get_ammo', 'load_magazine', 'open_door', 'shoot']"
check_json_scenario door_stuck 6 "['get_ammo', 'load_magazine', 'kick_door', 'shoot']"
check_json_scenario door_stuck_kick_failed 8 "['get_ammo', 'load_magazine', 'jump_window', 'shoot']"
check_json_scenario armory_empty 7 "['open_door', 'punch']"
check_json_scenario loaded_in_b 1 "['shoot']"

# --want and --given are parsed as on `want` and `given` lines; --opt=value works too.
expect_rc "want+given" 0 plan "$SOLDIER" --want target_dead --given "door_stuck, kick_failed" --json
json "want+given window" "d['cost'] == 8 and 'jump_window' in d['plan']"
expect_rc "opt=value" 0 plan "$SOLDIER" --want=target_dead --given=armory_empty --json
json "opt=value punch" "d['cost'] == 7 and d['plan'] == ['open_door', 'punch']"
expect_rc "given after scenario" 0 plan "$SOLDIER" --scenario door_stuck --given kick_failed --json
json "given after scenario" "d['cost'] == 8"
expect_rc "repeated --given" 0 plan "$SOLDIER" --goal kill_enemy --given door_stuck --given kick_failed --json
json "repeated --given" "d['cost'] == 8"
expect_rc "contradictory want" 1 plan "$SOLDIER" --want "target_dead, !target_dead" --json
json "contradictory want" "d['status'] == 'no_plan' and d['plan'] == []"
expect_rc "want empty goal already met" 0 plan "$SOLDIER" --want target_dead --given target_dead --json
json "empty plan" "d['status'] == 'found' and d['plan'] == [] and d['cost'] == 0"

# Alma's kitchen: 5, and 9 when the cash machine is broken.
expect_rc "alma" 0 plan "$ALMA" --goal eat --json
json "alma 5" "d['cost'] == 5 and d['plan'] == ['withdraw_money', 'order_pizza']"
expect_rc "alma atm" 0 plan "$ALMA" --goal eat --given atm_broken --json
json "alma 9" "d['cost'] == 9 and d['plan'] == ['find_recipe', 'bake_cake']"

# No plan: exit 1, status no_plan, an empty plan.
expect_rc "no plan" 1 plan "$ALMA" --want money --given atm_broken --json
json "no plan json" "d['status'] == 'no_plan' and d['partial'] is False and d['plan'] == []"
expect_rc "no plan human" 1 plan "$ALMA" --want money --given atm_broken
out_has "no plan human" "no plan"

# A plan longer than the first buffer (retry on GOAP_BUFFER_TOO_SMALL).
expect_rc "long plan" 0 plan "$DIR/long.goap" --scenario twelve_steps --json
json "long plan" "d['cost'] == 12 and d['plan'] == ['step'] * 12"
expect_rc "long plan human" 0 plan "$DIR/long.goap" --scenario twelve_steps
out_re "long plan step 12" '^ *12\. step +1$'

# ---------------------------------------------------------------------------------------------
# Every search and heuristic
# ---------------------------------------------------------------------------------------------
searches="astar backward greedy wastar wastar:1 wastar:1.5 wastar:3"
heuristics="default zero goal-count goal-count-adm hmax hadd"
for s in $searches; do
  for h in $heuristics; do
    expect_rc "default $s/$h" 0 plan "$SOLDIER" --scenario default --search "$s" --heuristic "$h" --json
    case "$s/$h" in
    greedy/hmax | greedy/hadd | astar/* | backward/* | wastar*)
      json "default $s/$h cost 4" "d['status'] == 'found' and d['cost'] == 4 and len(d['plan']) == 4" ;;
    *)
      # Greedy best-first ignores costs: with a heuristic that is the same in every state
      # short of the goal (default, zero, goal-count, goal-count-adm) any plan may come first.
      json "default $s/$h some plan" "d['status'] == 'found' and d['cost'] >= 4" ;;
    esac
  done
done
# The optimal configurations (A* and backward A* with an admissible heuristic) find the
# cheapest plan in every scenario.
for s in astar backward; do
  for h in default zero goal-count-adm hmax; do
    for sc in "door_stuck 6" "door_stuck_kick_failed 8" "armory_empty 7" "loaded_in_b 1"; do
      set -- $sc
      expect_rc "$1 $s/$h" 0 plan "$SOLDIER" --scenario "$1" --search "$s" --heuristic "$h" --json
      json "$1 $s/$h cost $2" "d['status'] == 'found' and d['cost'] == $2"
    done
    expect_rc "alma atm $s/$h" 0 plan "$ALMA" --scenario atm_broken --search "$s" --heuristic "$h" --json
    json "alma atm $s/$h cost 9" "d['cost'] == 9"
  done
done
expect_rc "human wastar line" 0 plan "$SOLDIER" --goal kill_enemy --search wastar:2.5 --heuristic hadd
out_has "human wastar line" "search: wastar:2.5, heuristic hadd"

# Bad search options.
expect_rc "unknown search" 2 plan "$SOLDIER" --goal kill_enemy --search dfs
err_has "unknown search named" "unknown search 'dfs'"
expect_rc "weight below 1" 2 plan "$SOLDIER" --goal kill_enemy --search wastar:0.5
err_has "weight below 1" "wastar:0.5"
expect_rc "weight garbage" 2 plan "$SOLDIER" --goal kill_enemy --search wastar:x
expect_rc "weight on astar" 2 plan "$SOLDIER" --goal kill_enemy --search astar:2
expect_rc "unknown heuristic" 2 plan "$SOLDIER" --goal kill_enemy --heuristic manhattan
err_has "unknown heuristic named" "unknown heuristic 'manhattan'"

# Preferred operators and lazy evaluation (greedy / wastar; --preferred with hff).
expect_rc "preferred lazy" 0 plan "$EX/village.goap" --scenario festival --search greedy --heuristic hff --preferred --lazy
out_has "preferred lazy line" "search: greedy, heuristic hff, preferred operators, lazy"
expect_rc "preferred lazy test" 0 test "$SOLDIER" --search wastar --heuristic hff --preferred --lazy
expect_rc "preferred on astar" 2 plan "$SOLDIER" --goal kill_enemy --heuristic hff --preferred
err_has "preferred on astar named" "--preferred needs --search greedy or wastar"
expect_rc "preferred with hadd" 2 plan "$SOLDIER" --goal kill_enemy --search greedy --heuristic hadd --preferred
err_has "preferred with hadd named" "--preferred needs --heuristic hff"
expect_rc "lazy on backward trace" 2 trace "$SOLDIER" --goal kill_enemy --search backward --lazy
err_has "lazy on backward named" "--lazy needs a forward search"
# Lazy A* (optimal): the village's expected costs hold with --lazy
expect_rc "lazy astar test" 0 test "$EX/village.goap" --heuristic lmcut --lazy
out_has "lazy astar all pass" "6 passed, 0 failed"

# ---------------------------------------------------------------------------------------------
# Budgets
# ---------------------------------------------------------------------------------------------
expect_rc "max-nodes 1" 1 plan "$SOLDIER" --scenario default --max-nodes 1 --json
json "max-nodes 1 json" "d['status'] == 'node_limit' and d['partial'] is True and d['cost'] < 4"
expect_rc "max-nodes 1 human" 1 plan "$SOLDIER" --scenario default --max-nodes 1
out_has "max-nodes human says partial" "partial plan"
out_has "max-nodes human status" "search stopped"
expect_rc "max-nodes 3" 1 plan "$SOLDIER" --scenario default --max-nodes 3 --json
json "max-nodes 3: a prefix" "d['status'] == 'node_limit' and d['partial'] is True and d['plan'] == ['get_ammo'] and d['cost'] == 1"
expect_rc "max-nodes 3 human" 1 plan "$SOLDIER" --scenario default --max-nodes 3
out_has "partial prefix explained" "(from the start; it does not reach the goal yet)"
out_re "partial prefix step" '^ +1\. get_ammo +1$'
out_has "partial cost" "partial cost 1"
# A partial plan longer than the first buffer is still returned in full.
expect_rc "long partial" 1 plan "$DIR/slow.goap" --scenario far --heuristic zero --max-nodes 100 --json
json "long partial" "d['status'] == 'node_limit' and d['partial'] and len(d['plan']) > 8 and d['plan'] == ['inc'] * len(d['plan']) and d['cost'] == len(d['plan'])"
# A million states cannot be searched in 1 ms.
expect_rc "max-ms 1" 1 plan "$DIR/slow.goap" --scenario far --heuristic zero --max-ms 1 --json
json "max-ms 1 time_limit" "d['status'] == 'time_limit' and d['partial'] is True and d['cost'] == len(d['plan']) and d['cost'] < 1000000"
expect_rc "max-ms 1 human" 1 plan "$DIR/slow.goap" --scenario far --heuristic zero --max-ms 1
out_has "max-ms human status" "search stopped: time limit"
expect_rc "max-nodes large" 0 plan "$SOLDIER" --scenario default --max-nodes 100000 --json
json "max-nodes large" "d['cost'] == 4"
expect_rc "max-ms generous" 0 plan "$SOLDIER" --scenario default --max-ms 10000 --json
json "max-ms generous" "d['status'] == 'found'"
expect_rc "max-nodes negative" 2 plan "$SOLDIER" --goal kill_enemy --max-nodes -1
expect_rc "max-nodes garbage" 2 plan "$SOLDIER" --goal kill_enemy --max-nodes 12x
expect_rc "max-nodes overflow" 2 plan "$SOLDIER" --goal kill_enemy --max-nodes 99999999999
expect_rc "max-ms negative" 2 plan "$SOLDIER" --goal kill_enemy --max-ms -5
expect_rc "max-ms nan" 2 plan "$SOLDIER" --goal kill_enemy --max-ms nan

# ---------------------------------------------------------------------------------------------
# plan: usage and load errors
# ---------------------------------------------------------------------------------------------
expect_rc "plan no target" 2 plan "$SOLDIER"
err_has "plan no target" "--scenario S, --goal G, --want CONDS or --task T"
expect_rc "plan two targets" 2 plan "$SOLDIER" --goal kill_enemy --want target_dead
expect_rc "plan no file" 2 plan --goal kill_enemy
err_has "plan no file" "missing FILE"
expect_rc "plan two files" 2 plan "$SOLDIER" "$ALMA" --goal eat
expect_rc "plan unknown option" 2 plan "$SOLDIER" --goal kill_enemy --jsn
err_has "unknown option named" "unknown option '--jsn'"
err_has "unknown option suggestion" "did you mean '--json'?"
expect_rc "plan missing value" 2 plan "$SOLDIER" --scenario
err_has "plan missing value" "'--scenario' needs a value"
expect_rc "plan missing file on disk" 2 plan "$DIR/does-not-exist.goap" --goal g --json
err_has "missing file named" "does-not-exist.goap"
out_empty "missing file: nothing on stdout"
expect_rc "bad --want" 2 plan "$SOLDIER" --want "target_dead, laoded"
err_re "bad --want diag" '^--want:1:[0-9]+: error: '
err_has "bad --want names it" "laoded"
expect_rc "bad --given" 2 plan "$SOLDIER" --goal kill_enemy --given "door_stuck = 7"
err_re "bad --given diag" '^--given:1:[0-9]+: error: '

# A broken file: file:line:col: error, the source line, a caret under the column.
expect_rc "broken plan" 2 plan "$DIR/broken.goap" --want loaded --json
out_empty "broken: nothing on stdout"
err_re "broken position" 'broken\.goap:6:7: error: .*has_amo'
err_has "broken did you mean" "has_ammo"
if python3 - "$TMP/err" <<'EOF'
import re, sys
lines = open(sys.argv[1]).read().split("\n")
i = next(k for k, l in enumerate(lines) if re.search(r"broken\.goap:6:7: error:", l))
src, caret = lines[i + 1], lines[i + 2]
assert "pre has_amo" in src, src
assert caret.strip() == "^", caret
# The caret sits under the offending name (column 7 of the file's line).
assert caret.index("^") == src.index("has_amo"), (src, caret)
EOF
then ok; else bad "broken: caret under column 7"; fi

# ---------------------------------------------------------------------------------------------
# test
# ---------------------------------------------------------------------------------------------
expect_rc "test soldier" 0 test "$SOLDIER"
out_has "test soldier PASS line" "PASS $SOLDIER:default (cost 4, plan get_ammo load_magazine open_door shoot)"
out_has "test soldier PASS armory" "PASS $SOLDIER:armory_empty (cost 7, plan open_door punch)"
out_re "test soldier summary" '^9 passed, 0 failed$'
expect_rc "test both examples" 0 test "$SOLDIER" "$ALMA"
out_re "test both summary" '^13 passed, 0 failed$'
out_has "test alma atm" "PASS $ALMA:atm_broken (cost 9, plan find_recipe bake_cake)"
out_has "test alma empty plan" "PASS $ALMA:already_full (cost 0, plan (empty))"

expect_rc "test failing" 1 test "$DIR/failing.goap"
out_has "test failing PASS" "PASS $DIR/failing.goap:right (cost 5, plan withdraw_money order_pizza)"
out_has "test failing FAIL" "FAIL $DIR/failing.goap:16: scenario wrong_cost: expected cost 4, got 5 (plan withdraw_money order_pizza)"
out_re "test failing summary" '^1 passed, 1 failed$'

expect_rc "test wrong" 1 test "$DIR/wrong.goap"
out_has "wrong plan" "FAIL $DIR/wrong.goap:13: scenario wrong_plan: expected plan order_pizza, got withdraw_money order_pizza (cost 5)"
out_has "expected no plan" "FAIL $DIR/wrong.goap:16: scenario found_but_no_plan_expected: expected no plan, got cost 5"
out_has "expected a plan" "FAIL $DIR/wrong.goap:19: scenario nothing_expected_no_plan: expected a plan, got no plan"
out_re "test wrong summary" '^0 passed, 3 failed$'

expect_rc "test passing" 0 test "$DIR/passing.goap"
out_has "no expectation passes with a plan" "PASS $DIR/passing.goap:any_plan (cost 5, plan withdraw_money order_pizza)"
out_has "expect no plan passes" "PASS $DIR/passing.goap:cannot_fly (no plan)"
out_re "test passing summary" '^3 passed, 0 failed$'

expect_rc "test under another config" 0 test --search backward --heuristic hmax "$ALMA"
out_re "test config summary" '^4 passed, 0 failed$'
expect_rc "test under a limit" 1 test --max-nodes 1 "$ALMA"
out_has "test under a limit says why" "search stopped"
expect_rc "test bad search" 2 test --search sideways "$ALMA"
expect_rc "test unknown option" 2 test --fast "$ALMA"
err_has "test unknown option named" "'--fast'"
expect_rc "test no files" 2 test
expect_rc "test broken file" 2 test "$DIR/broken.goap" "$ALMA"
err_re "test broken diag" 'broken\.goap:6:7: error:'
out_re "test broken: others still run" '^4 passed, 0 failed$'
expect_rc "test failing + broken" 2 test "$DIR/failing.goap" "$DIR/broken.goap"

# ---------------------------------------------------------------------------------------------
# check
# ---------------------------------------------------------------------------------------------
expect_rc "check examples" 0 check "$SOLDIER" "$ALMA"
out_re "check examples summary" '^2 files checked: 0 errors, 0 warnings$'
expect_rc "check warnings" 0 check "$DIR/warnings.goap"
err_re "warning unused var" 'warnings\.goap:5:5: warning: .*unused'
err_re "warning unreachable action" 'warnings\.goap:7:8: warning: .*open_door'
err_re "warning unreachable action 2" 'warnings\.goap:10:8: warning: .*take_treasure'
err_re "warning unreachable goal" 'warnings\.goap:13:6: warning: .*get_treasure'
out_re "check warnings summary" '^1 file checked: 0 errors, 4 warnings$'
expect_rc "check --strict" 1 check --strict "$DIR/warnings.goap"
expect_rc "check --strict clean" 0 check --strict "$SOLDIER"
expect_rc "check broken" 1 check "$DIR/broken.goap"
err_re "check broken diag" 'broken\.goap:6:7: error:'
out_re "check broken summary" '^1 file checked: 1 error, 0 warnings$'
expect_rc "check missing file" 1 check "$DIR/nope.goap"
expect_rc "check unknown option" 2 check --pedantic "$SOLDIER"
expect_rc "check no files" 2 check

# ---------------------------------------------------------------------------------------------
# "-" reads the file from standard input, named <stdin> in messages
# ---------------------------------------------------------------------------------------------
run_stdin "$ALMA" test -
if [ "$rc" = 0 ]; then ok; else bad "test - exit status $rc"; fi
out_has "test - names <stdin>" "PASS <stdin>:hungry (cost 5, plan withdraw_money order_pizza)"
run_stdin "$DIR/broken.goap" check -
if [ "$rc" = 1 ]; then ok; else bad "check - exit status $rc"; fi
err_re "check - diag" '^<stdin>:6:7: error: '
run_stdin "$ALMA" plan - --goal eat --given atm_broken --json
if [ "$rc" = 0 ]; then ok; else bad "plan - exit status $rc"; fi
json "plan - json" "d['cost'] == 9"

# ---------------------------------------------------------------------------------------------
# demo
# ---------------------------------------------------------------------------------------------
expect_rc "demo" 0 demo
out_has "demo default" "get_ammo (1) -> load_magazine (1) -> open_door (1) -> shoot (1) = 4"
out_has "demo door_stuck" "kick_door (3) -> shoot (1) = 6"
out_has "demo window" "jump_window (5) -> shoot (1) = 8"
out_has "demo punch" "open_door (1) -> punch (6) = 7"
out_has "demo one shot" "shoot (1) = 1"
out_has "demo memory changes the plan" "door_stuck changed the plan: kick_door instead of open_door"
out_lacks "demo no mismatch" "!!"
# The demo runs with no file on disk: from an empty directory.
(cd "$TMP" && "$GOAP" demo >/dev/null 2>&1)
if [ $? -eq 0 ]; then ok; else bad "demo from another directory"; fi
expect_rc "demo extra argument" 2 demo "$SOLDIER"

# ---------------------------------------------------------------------------------------------
# simulate
# ---------------------------------------------------------------------------------------------
expect_rc "simulate all" 0 simulate "$SOLDIER"
out_has "simulate door fails" "3.20    open_door FAILED"
out_has "simulate memory" "memory: door_stuck = true"
out_has "simulate replan" "replan: the action failed"
out_has "simulate kick plan" "plan for kill_enemy (cost 4): kick_door, shoot"
out_has "simulate world" "world: armory_out = true"
out_has "simulate end" "end (nothing left to do): 4 plans, 3 replans, 3 actions failed"
expect_rc "simulate json" 0 simulate "$SOLDIER" --json
cp "$TMP/out" "$TMP/sim.jsonl"
if "$PY" - "$TMP/sim.jsonl" <<'EOF'; then ok; else bad "simulate --json: the plans, costs and replans of the door scene"; fi
import json, sys
runs, cur = [], []
for line in open(sys.argv[1]):
    d = json.loads(line)
    assert isinstance(d["t"], (int, float)) and isinstance(d["event"], str), d
    if d["event"] == "plan":
        cur.append((d["cost"], d["plan"]))
    if d["event"] == "end":
        runs.append((d["simulation"], d["replans"], d["failed"], cur))
        cur = []
full = ["get_ammo", "load_magazine", "open_door", "shoot"]
want = [("nothing_blocked", 0, 0, [(4, full)]),
        ("door_held", 2, 0, [(4, full), (4, ["kick_door", "shoot"]), (6, ["jump_window", "shoot"])]),
        ("armory_empty", 1, 0, [(4, full), (7, ["open_door", "punch"])]),
        ("both", 3, 0, [(4, full), (7, ["open_door", "punch"]), (9, ["kick_door", "punch"]),
                        (11, ["jump_window", "punch"])])]
assert runs == want, runs
EOF
printf 'var x: bool\naction a\n  eff x\ngoal g\n  want x\nsimulation s\n  expect replans 5\n' >"$TMP/sim_fail.goap"
expect_rc "simulate failed expectation" 1 simulate "$TMP/sim_fail.goap"
out_has "simulate failed expectation says why" "FAIL: $TMP/sim_fail.goap:7:18: expected 5 replans, got 0"
expect_rc "test runs simulations" 1 test "$TMP/sim_fail.goap"
out_has "test simulation failure" "simulation s: expected 5 replans, got 0"
sed 's/expect replans 5/expect replans 1/' "$TMP/sim_fail.goap" >"$TMP/sim_fail1.goap"
expect_rc "simulate failed expectation, one replan" 1 simulate "$TMP/sim_fail1.goap"
out_has "simulate failed expectation, one replan: singular" "expected 1 replan, got 0"
expect_rc "simulate unknown simulation" 2 simulate "$SOLDIER" nope
err_has "simulate unknown simulation message" "has no simulation 'nope'"
expect_rc "simulate misspelt simulation" 2 simulate "$SOLDIER" door_hled
err_has "simulate misspelt simulation suggestion" "$SOLDIER has no simulation 'door_hled' (did you mean 'door_held'?)"
err_has "simulate misspelt simulation list" "simulations in $SOLDIER: nothing_blocked door_held armory_empty both"
expect_rc "trace misspelt scenario" 2 trace "$SOLDIER" --scenario door_stick
err_has "trace misspelt scenario suggestion" "goap trace: $SOLDIER has no scenario 'door_stick' (did you mean 'door_stuck'?)"
expect_rc "why misspelt goal" 2 why "$SOLDIER" --goal kill_enmy
err_has "why misspelt goal suggestion" "goap why: $SOLDIER has no goal 'kill_enmy' (did you mean 'kill_enemy'?)"
err_has "why misspelt goal list" "goals in $SOLDIER: kill_enemy"

# Counts agree with their nouns: one action, one replan; several actions, replans, nodes.
expect_rc "simulate one replan" 0 simulate "$SOLDIER" armory_empty
out_re "simulate one replan: singular" ' end \(nothing left to do\): 2 plans, 1 replan, 1 action failed$'
expect_rc "simulate two replans" 0 simulate "$SOLDIER" door_held
out_re "simulate two replans: plural" ' end \(nothing left to do\): 3 plans, 2 replans, 2 actions failed$'
expect_rc "trace one action" 0 trace "$SOLDIER" --scenario loaded_in_b
out_re "trace one action: singular" ': scenario loaded_in_b: plan found, cost 1, 1 action$'
out_re "trace one action: node counts" '^trace: [0-9]+ nodes?, [0-9]+ expanded, [0-9]+ generated, [0-9]+ duplicates?, [0-9]+ events$'
expect_rc "trace four actions" 0 trace "$SOLDIER" --scenario default
out_re "trace four actions: plural" ': scenario default: plan found, cost 4, 4 actions$'
expect_rc "simulate no simulations" 2 simulate "$ALMA"
err_has "simulate no simulations message" "has no 'simulation' block"
expect_rc "simulate bad step" 2 simulate "$SOLDIER" --step 0
expect_rc "simulate bad until" 2 simulate "$SOLDIER" --until=abc
expect_rc "simulate unknown option" 2 simulate "$SOLDIER" --jsn
expect_rc "simulate missing file" 2 simulate
# an HTN agent (agent troll: htn be_troll): failure memory, the MTR rule, a watch replacement
expect_rc "simulate htn troll" 0 simulate "$EX/trunk_thumper.goap"
out_has "simulate htn plan" "troll         plan for be_troll (cost 6): find_tree, uproot_tree, go_to_enemy, trunk_slam"
out_has "simulate htn failure memory" "memory: tree_stuck = true"
out_has "simulate htn other method" "3.20  troll         plan for be_troll (cost 5): go_to_enemy, punch"
out_has "simulate htn kept, then failed" "6.20  troll           go_to_enemy FAILED"
out_has "simulate htn watch replaces patrol" "9.00  troll         replan: a watched variable changed"
out_has "simulate htn done" "task be_troll done"
out_has "simulate htn end" "end (nothing left to do): 5 plans, 4 replans, 2 actions failed"
expect_rc "simulate htn html" 0 simulate "$EX/trunk_thumper.goap" --html "$TMP/troll.html"
# simulate --html: one self-contained page, every plan with its search trace
expect_rc "simulate html" 0 simulate "$SOLDIER" door_held --html "$TMP/sim.html"
out_has "simulate html says where" "wrote $TMP/sim.html"
expect_rc "simulate html json" 0 simulate "$SOLDIER" door_held --json
cp "$TMP/out" "$TMP/dh.jsonl"
if "$PY" - "$TMP/sim.html" "$TMP/dh.jsonl" <<'EOF'; then ok; else bad "simulate --html: the page holds every event, every plan with its search trace"; fi
import json, re, sys
page = open(sys.argv[1]).read()
assert not re.search(r'(src|href)\s*=\s*["\']?\s*https?:', page, re.I), "a network src/href"
assert "<link" not in page and not re.search(r"<script[^>]+src=", page)
data = json.loads(page.split("const DATA = ", 1)[1].split(";\nconst VIEWER = ", 1)[0].replace("<\\/", "</"))
lines = [json.loads(l) for l in open(sys.argv[2])]
(sim,) = data["sims"]
assert sim["name"] == "door_held"
assert [e["event"] for e in sim["events"]] == [e["event"] for e in lines if e["event"] != "end"]
plans = [e for e in sim["events"] if e["event"] == "plan"]
want = [e for e in lines if e["event"] == "plan"]
assert [(p["cost"], p["plan"]) for p in plans] == [(p["cost"], p["plan"]) for p in want]
assert len(plans) == 3, plans
for p in plans:
    t = data["traces"][p["trace"]]
    assert t["format"] == "goap-trace-1" and t["status"] == "found", t["status"]
    assert t["cost"] == p["cost"], (t["cost"], p["cost"])
    assert [t["actions"][a]["name"] for a in t["plan"]] == p["plan"]
    assert len(t["plan_nodes"]) == len(p["plan"]) + 1 and t["nodes"]
assert sum(e["event"] == "failure" for e in sim["events"]) == 2
viewer = json.loads(page.split("const VIEWER = ", 1)[1].split(";\n(function", 1)[0])
assert "const TRACE = /*GOAP_TRACE_JSON*/null" in viewer
assert not re.search(r'(src|href)\s*=\s*["\']?\s*https?:', viewer, re.I), "a network src/href in the viewer"
EOF
expect_rc "simulate html squad" 0 simulate "$EX/squad.goap" --html "$TMP/squad.html"
if "$PY" - "$TMP/squad.html" <<'EOF'; then ok; else bad "simulate --html: a squad's events name their member"; fi
import json, sys
page = open(sys.argv[1]).read()
data = json.loads(page.split("const DATA = ", 1)[1].split(";\nconst VIEWER = ", 1)[0].replace("<\\/", "</"))
plans = [e for s in data["sims"] for e in s["events"] if e["event"] == "plan"]
assert plans and all(e.get("agent") for e in plans), plans[:2]
assert all("trace" in e or "trace_note" in e for e in plans)
assert any("trace" in e for e in plans)
EOF
expect_rc "simulate html unwritable" 2 simulate "$SOLDIER" door_held --html "$TMP/no/such/dir.html"
err_has "simulate html unwritable message" "cannot write"
expect_rc "simulate short run" 1 simulate "$SOLDIER" nothing_blocked --until 2
out_has "simulate short run ends on time" "2.00  end (time is up)"
out_has "simulate short run fails its expectation" "FAIL: $SOLDIER:127:16: expected final memory 'target_dead', but the value is false"
expect_rc "demo live checks" 0 demo
out_has "demo live door" "door_held          plans 4 -> 4 -> 6            replans 2"
out_has "demo live both" "both               plans 4 -> 7 -> 9 -> 11      replans 3"

# the squad: who flanks per role set, through --json
SQUAD="$(dirname "$SOLDIER")/squad.goap"
expect_rc "simulate squad" 0 simulate "$SQUAD" --json
cp "$TMP/out" "$TMP/squad.jsonl"
if "$PY" - "$TMP/squad.jsonl" <<'EOF'; then ok; else bad "simulate squad --json: the flank per role set"; fi
import json, sys
flankers, denied, first_plans, tokens = {}, {}, {}, {}
sim = []
for line in open(sys.argv[1]):
    d = json.loads(line)
    if d["event"] == "end":
        name = d["simulation"]
        flankers[name] = [e["agent"] for e in sim if e["event"] == "start" and e["action"] == "flank_to_cover"]
        denied[name] = [e["agent"] for e in sim if e["event"] == "reservation_denied"]
        tokens[name] = [e["value"] for e in sim if e["event"] == "memory" and e["var"] == "suppressive_fire_tokens"]
        first_plans[name] = [(e["agent"], e["plan"]) for e in sim if e["event"] == "plan" and e["goal"] == "kill_player"]
        assert d["failed"] == 0, d
        sim = []
    else:
        sim.append(d)
assert flankers == {"flank": ["shotgunner"], "assault_flanks": ["rifleman1"]}, flankers
assert denied == {"flank": [], "assault_flanks": ["shotgunner"]}, denied
assert tokens["flank"] == [1, 0] and tokens["assault_flanks"] == [1, 0], tokens
smoke = ["throw_smoke", "flank_to_cover", "close_range_fire"]
assert ("shotgunner", smoke) in first_plans["flank"], first_plans
assert ("rifleman1", smoke) in first_plans["assault_flanks"], first_plans
assert ("shotgunner", ["fire_from_cover"]) in first_plans["assault_flanks"], first_plans
EOF
expect_rc "demo squad" 0 demo squad
out_has "demo squad flank" "flank            shotgunner   flanked; 0 refused the flank slot"
out_has "demo squad assault" "assault_flanks   rifleman1    flanked; 1 refused the flank slot"
out_has "demo squad medic" "medic         plan for save_member (cost 2): rescue"
out_has "demo squad map: the shotgunner on the south flank cover" "     #................s....#  #..............-+F++++#"
out_has "demo squad map: rifleman1 on the north flank cover" "     #................1....#  #..............-+F++++#"
expect_rc "demo bad argument" 2 demo platoon

check_json_queue
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
