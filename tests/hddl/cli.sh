#!/usr/bin/env bash
# tests/hddl/cli.sh -- `goap hddl` on the project's own HDDL files.
#
# usage: bash tests/hddl/cli.sh <path-to-goap> <tests/hddl directory>
#
# Asserts exit codes, the IPC HTN plan format (==>, primitives, root, decomposition lines,
# <==), -o files, --stats, budgets, and load errors with file:line:col, the line and a caret.
# Prints "N passed, M failed"; exits 1 on any failure.
set -u
GOAP=${1:?usage: cli.sh <goap> <tests/hddl dir>}
DIR=$(cd "${2:?usage: cli.sh <goap> <tests/hddl dir>}" && pwd)
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
  echo "FAIL: $1"
  echo "  command: $last (exit $rc)"
  sed -n '1,15s/^/  stdout| /p' "$TMP/out"
  sed -n '1,15s/^/  stderr| /p' "$TMP/err"
}
expect_rc() {
  local name=$1 want=$2
  shift 2
  run "$@"
  if [ "$rc" = "$want" ]; then ok; else bad "$name: exit status $rc, expected $want"; fi
}
out_has() { if grep -qxF -- "$2" "$TMP/out"; then ok; else bad "$1: stdout lacks the line '$2'"; fi; }
err_has() { if grep -qF -- "$2" "$TMP/err"; then ok; else bad "$1: stderr lacks '$2'"; fi; }
out_empty() { if [ ! -s "$TMP/out" ]; then ok; else bad "$1: stdout is not empty"; fi; }

# --- plans ------------------------------------------------------------------------------------
expect_rc "transport plans" 0 hddl "$DIR/transport.hddl" "$DIR/transport-1.hddl"
out_has "starts with ==>" "==>"
out_has "first primitive" "0 drive lorry a b"
out_has "root line" "root 10 11"
out_has "decomposition line" "10 deliver p1 d -> m_deliver 12 1 13 4"
out_has "empty method line" "14 get_to lorry a -> m_get_here"
out_has "ends with <==" "<=="
if [ "$(head -n1 "$TMP/out")" = "==>" ] && [ "$(tail -n1 "$TMP/out")" = "<==" ]; then ok; else bad "==> first, <== last"; fi
n=$(grep -cE '^[0-9]+ [a-z_]+( [a-z0-9_]+)*$' "$TMP/out")
if [ "$n" = 10 ]; then ok; else bad "10 primitive lines, found $n"; fi

expect_rc "-o writes the file" 0 hddl "$DIR/blocks.hddl" "$DIR/blocks-1.hddl" -o "$TMP/b.plan" --stats
out_empty "-o: nothing on stdout"
if grep -qxF "root 6 7" "$TMP/b.plan" && grep -qxF "0 unstack a c" "$TMP/b.plan"; then ok; else bad "-o file content"; fi
err_has "--stats line" "; tiny-blocks tiny-blocks-1: ok, 6 steps in the plan"
err_has "--stats rounds" "2 rounds, depth bound 2"

expect_rc "backtracking" 0 hddl "$DIR/keys.hddl" "$DIR/keys-1.hddl"
out_has "the second key" "0 grab blue"

# --- forall, and no fixed limit on parameters or subtasks -----------------------------------
expect_rc "forall: action, method" 0 hddl "$DIR/lamps.hddl" "$DIR/lamps-1.hddl"
out_has "method forall: lit first" "0 note-lit r1"
out_has "action forall: both lamps off" "2 switch-off l3"
out_has "method forall: dark last" "8 peek r1 -> m-peek-dark 3"
expect_rc "forall: the goal" 1 hddl "$DIR/lamps.hddl" "$DIR/lamps-2.hddl"
out_has "forall goal: no plan" "; no plan: no decomposition of the task network is executable and reaches the :goal"
expect_rc "forall: empty type" 0 hddl "$DIR/lamps.hddl" "$DIR/lamps-3.hddl"
out_has "forall: vacuous" "0 note-dark r1"
sed 's/(forall (?l - lamp) (not (on ?l))))$/(forall ?l (not (on ?l))))/' "$DIR/lamps.hddl" >"$TMP/badforall.hddl"
expect_rc "forall: malformed" 2 hddl "$TMP/badforall.hddl" "$DIR/lamps-1.hddl"
err_has "forall: message" "badforall.hddl:13:42: error: 'forall' takes a variable list and a formula: '(forall (?x - type) ...)'"
expect_rc "70 method parameters" 0 hddl "$DIR/wide.hddl" "$DIR/wide-1.hddl" -o "$TMP/wide.plan"
if [ "$("$GOAP" verify-htn "$DIR/wide.hddl" "$DIR/wide-1.hddl" "$TMP/wide.plan")" = "valid: 70 primitive steps, 1 decomposition" ]; then ok; else bad "70 parameters: the plan verifies"; fi
expect_rc "1100 subtasks" 0 hddl "$DIR/wide.hddl" "$DIR/long-1.hddl" -o "$TMP/long.plan"
if [ "$("$GOAP" verify-htn "$DIR/wide.hddl" "$DIR/long-1.hddl" "$TMP/long.plan")" = "valid: 1100 primitive steps, 0 decompositions" ]; then ok; else bad "1100 subtasks: the plan verifies"; fi

# --- no plan and budgets ----------------------------------------------------------------------
expect_rc "Sussman: no plan" 1 hddl "$DIR/blocks.hddl" "$DIR/blocks-2.hddl"
out_has "no plan line" "; no plan: no decomposition of the task network is executable and reaches the :goal"
expect_rc "step budget" 1 hddl "$DIR/transport.hddl" "$DIR/transport-2.hddl" --max-steps 1000
out_has "step budget line" "; no plan: node limit reached"
expect_rc "depth bound" 1 hddl "$DIR/transport.hddl" "$DIR/transport-2.hddl" --max-depth=5 --stats
err_has "depth bound status" "too_large"
expect_rc "time limit" 1 hddl "$DIR/transport.hddl" "$DIR/transport-2.hddl" --time-limit 1
out_has "time limit line" "; no plan: time limit reached"

# --- --search: the best-first progression search alone, and the depth-first ones alone --------
expect_rc "best-first alone" 0 hddl "$DIR/transport.hddl" "$DIR/transport-1.hddl" --search bfs --stats -o "$TMP/bfs.plan"
err_has "found by best-first" ", found by best-first, "
err_has "best-first nodes" "0 rounds, depth bound 0, "
if [ "$("$GOAP" verify-htn "$DIR/transport.hddl" "$DIR/transport-1.hddl" "$TMP/bfs.plan")" = "valid: 10 primitive steps, 12 decompositions" ]; then ok; else bad "best-first plan verifies"; fi
expect_rc "depth-first alone" 0 hddl "$DIR/transport.hddl" "$DIR/transport-1.hddl" --search=dfs --stats
err_has "found by depth-first" " 0 best-first nodes, found by depth-first, "
expect_rc "best-first: no plan" 1 hddl "$DIR/blocks.hddl" "$DIR/blocks-2.hddl" --search bfs
out_has "best-first: no plan line" "; no plan: no decomposition of the task network is executable and reaches the :goal"
expect_rc "best-first node cap" 1 hddl "$DIR/transport.hddl" "$DIR/transport-2.hddl" --search bfs --heuristic tdg --max-nodes 5
out_has "node cap line" "; no plan: memory limit reached (the best-first search's node cap, --max-nodes)"
expect_rc "bad --search" 2 hddl "$DIR/transport.hddl" "$DIR/transport-1.hddl" --search best
err_has "bad --search message" "--search needs auto, dfs or bfs, not 'best'"

# --- --heuristic: each one reaches a plan that verifies, alone in the best-first search --------
for h in auto tdg rc; do
  for p in transport:transport-1 blocks:blocks-1 keys:keys-1 lamps:lamps-1 wide:wide-1; do
    d=${p%%:*} f=${p##*:}
    expect_rc "--heuristic $h $f" 0 hddl "$DIR/$d.hddl" "$DIR/$f.hddl" --search bfs --heuristic "$h" --stats -o "$TMP/h.plan"
    v=$("$GOAP" verify-htn "$DIR/$d.hddl" "$DIR/$f.hddl" "$TMP/h.plan")
    case "$v" in valid:*) ok ;; *) bad "--heuristic $h $f: the plan does not verify: $v" ;; esac
  done
done
expect_rc "--heuristic rc stats" 0 hddl "$DIR/transport.hddl" "$DIR/transport-1.hddl" --search bfs --heuristic=rc --stats
err_has "rc named in the stats" ", found by best-first, heuristic rc (h "
expect_rc "--heuristic tdg stats" 0 hddl "$DIR/transport.hddl" "$DIR/transport-1.hddl" --search bfs --heuristic tdg --stats
err_has "tdg named in the stats" ", found by best-first, heuristic tdg (h "
err_has "tdg grounds no RC operators" " 0 RC operators), "
# transport-2 has no plan and an infinite decomposition space: the TDG bound never ends, RC
# sees at once that no decomposition, even ignoring deletes, brings p1 back from e
expect_rc "rc proves no plan" 1 hddl "$DIR/transport.hddl" "$DIR/transport-2.hddl" --search bfs --heuristic rc --stats
out_has "rc: no plan line" "; no plan: no decomposition of the task network is executable and reaches the :goal"
err_has "rc: one node, a dead end" " 1 best-first node, found by none, heuristic rc (h dead end, "
expect_rc "tdg does not" 1 hddl "$DIR/transport.hddl" "$DIR/transport-2.hddl" --search bfs --heuristic tdg --max-nodes 100000
out_has "tdg: node cap line" "; no plan: memory limit reached (the best-first search's node cap, --max-nodes)"
# auto takes RC only when its grounding has at most 2^16 operators (hddl_bfs.c HB_RC_AUTO_OPS):
# 96 places, all joined by roads, and 4 trucks ground 74,116 (drives and get_to's methods)
{
  printf '(define (problem tiny-transport-wide) (:domain tiny-transport)\n  (:objects'
  for i in $(seq 1 96); do printf ' l%d' "$i"; done
  printf ' - place t1 t2 t3 t4 - truck p1 - parcel)\n  (:htn :ordered-subtasks (deliver p1 l2))\n'
  printf '  (:init (at p1 l1) (at t1 l1) (at t2 l1) (at t3 l1) (at t4 l1)'
  for i in $(seq 1 96); do for j in $(seq 1 96); do [ "$i" != "$j" ] && printf ' (road l%d l%d)' "$i" "$j"; done; done
  printf '))\n'
} > "$TMP/wide-transport.hddl"
expect_rc "rc: a large grounding" 0 hddl "$DIR/transport.hddl" "$TMP/wide-transport.hddl" --search bfs --heuristic rc --stats
err_has "rc: 74,116 operators" ", heuristic rc (h 5, 74116 RC operators), "
expect_rc "auto: tdg past 2^16 operators" 0 hddl "$DIR/transport.hddl" "$TMP/wide-transport.hddl" --search bfs --stats
err_has "auto: tdg named" ", heuristic tdg (h "
expect_rc "bad --heuristic" 2 hddl "$DIR/transport.hddl" "$DIR/transport-1.hddl" --heuristic ff
err_has "bad --heuristic message" "--heuristic needs auto, tdg or rc, not 'ff'"

# --- usage and load errors --------------------------------------------------------------------
expect_rc "no arguments" 2 hddl
err_has "usage message" "DOMAIN and PROBLEM files expected"
expect_rc "bad --max-steps" 2 hddl "$DIR/transport.hddl" "$DIR/transport-1.hddl" --max-steps x
err_has "bad --max-steps message" "--max-steps needs a positive integer, not 'x'"
expect_rc "unknown option" 2 hddl "$DIR/transport.hddl" "$DIR/transport-1.hddl" --max-step 3
err_has "unknown option suggestion" "--max-steps"
expect_rc "help" 0 hddl --help
if grep -qF "usage: goap hddl DOMAIN PROBLEM" "$TMP/out"; then ok; else bad "help text"; fi
expect_rc "missing file" 2 hddl "$TMP/none.hddl" "$DIR/transport-1.hddl"
err_has "missing file message" "cannot open the file"

sed 's/(s1 (load ?t ?c ?from))/(s1 (lod ?t ?c ?from))/' "$DIR/transport.hddl" >"$TMP/bad.hddl"
expect_rc "unknown subtask" 2 hddl "$TMP/bad.hddl" "$DIR/transport-1.hddl"
err_has "position and message" "bad.hddl:16:69: error: unknown task or action 'lod' in a subtask (did you mean 'load'?)"
err_has "source line" "(s1 (lod ?t ?c ?from))"
if grep -qE '^ +\^$' "$TMP/err"; then ok; else bad "caret line"; fi

expect_rc "pddl refuses HDDL" 2 pddl "$DIR/transport.hddl" "$DIR/transport-1.hddl"
err_has "pddl names the construct" "transport.hddl:9:3: error: HTN construct ':task' (HDDL): load with goap hddl"

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
