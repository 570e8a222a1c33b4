#!/usr/bin/env bash
# tests/hddl/verify/cli.sh -- `goap verify-htn`: exact output lines and exit statuses.
# usage: cli.sh GOAP DIR (DIR: this folder, with courier.hddl, courier-1.hddl and plans; the
# lamps plans are checked against ../lamps.hddl)
set -u
goap=$1
dir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
# expect NAME EXIT STDOUT-LINE ARGS...: runs goap ARGS, compares the exit status and stdout
expect() {
  local name=$1 want_rc=$2 want_out=$3
  shift 3
  local out rc
  out=$("$goap" "$@" 2> "$tmp/err")
  rc=$?
  if [ "$rc" -eq "$want_rc" ] && [ "$out" = "$want_out" ]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL $name: exit $rc (want $want_rc)"
    echo "  got:  $out"
    echo "  want: $want_out"
    sed 's/^/  stderr: /' "$tmp/err"
  fi
}
# stderr_has NAME TEXT: the last command's stderr contains TEXT
stderr_has() {
  if grep -qF -- "$2" "$tmp/err"; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL $1: stderr lacks '$2':"
    sed 's/^/  /' "$tmp/err"
  fi
}
cd "$dir" || exit 1
D=courier.hddl
P=courier-1.hddl
expect valid 0 "valid: 4 primitive steps, 6 decompositions" verify-htn $D $P valid.plan
expect inapplicable 1 "invalid: inapplicable.plan:2:1: step 1 (primitive 0) (move c b): precondition (at c) does not hold" \
  verify-htn $D $P inapplicable.plan
expect json 1 '{"valid": false, "primitives": 4, "decompositions": 6, "line": 2, "col": 1, "message": "step 1 (primitive 0) (move c b): precondition (at c) does not hold"}' \
  verify-htn --json $D $P inapplicable.plan
expect malformed 2 "" verify-htn $D $P malformed.plan
stderr_has malformed "malformed.plan:6:9: error: expected an id (a non-negative number) on the root line, found 'x'"
stderr_has malformed-caret "        ^"
expect missing-plan 2 "" verify-htn $D $P no-such.plan
stderr_has missing-plan "no-such.plan: error: cannot read the file"
expect missing-domain 2 "" verify-htn no-such.hddl $P valid.plan
expect not-htn 2 "" verify-htn ../../pddl/gripper.pddl ../../pddl/gripper-2.pddl valid.plan
expect usage 2 "" verify-htn $D $P
stderr_has usage "DOMAIN, PROBLEM and PLAN files expected"
expect option 2 "" verify-htn --jsn $D $P valid.plan
stderr_has option "--json"
expect help 0 "$("$goap" help verify-htn)" verify-htn --help
# forall (../lamps.hddl): a valid plan, then one broken instance each of an action's, a
# method's and the goal's forall
L=../lamps.hddl
expect lamps-valid 0 "valid: 5 primitive steps, 6 decompositions" verify-htn $L ../lamps-1.hddl lamps-valid.plan
expect lamps-action 1 "invalid: lamps-action-forall.plan:5:1: step 4 (primitive 3) (lock r1): precondition (not (on l3)) does not hold" \
  verify-htn $L ../lamps-1.hddl lamps-action-forall.plan
expect lamps-method 1 "invalid: lamps-method-forall.plan:9:1: decomposition 6 (peek r1): precondition (not (on l1)) of method 'm-peek-dark' does not hold before step 1 (primitive 0)" \
  verify-htn $L ../lamps-1.hddl lamps-method-forall.plan
expect lamps-goal 1 "invalid: lamps-goal-forall.plan:12:1: the goal (locked r2) does not hold after the 4 steps" \
  verify-htn $L ../lamps-2.hddl lamps-goal-forall.plan
# the planner's own plan for the same task verifies
if "$goap" hddl $D $P -o "$tmp/own.plan" > /dev/null 2>&1; then
  expect planner 0 "valid: 4 primitive steps, 6 decompositions" verify-htn $D $P "$tmp/own.plan"
else
  fail=$((fail + 1))
  echo "FAIL planner: goap hddl found no plan"
fi
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
