#!/usr/bin/env bash
# tests/pddl/cli.sh -- `goap pddl` and `goap validate` on the project's own PDDL files.
#
# usage: bash tests/pddl/cli.sh <path-to-goap> <tests/pddl directory>
#
# Asserts exit codes, the IPC plan format and cost line, -o files, --json fields, validation
# verdicts (valid plan, wrong step, wrong goal, unknown action) and load errors with positions.
# Prints "N passed, M failed"; exits 1 on any failure.
set -u
GOAP=${1:?usage: cli.sh <goap> <tests/pddl dir>}
DIR=$(cd "${2:?usage: cli.sh <goap> <tests/pddl dir>}" && pwd)
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
out_has() { if grep -qF -- "$2" "$TMP/out"; then ok; else bad "$1: stdout lacks '$2'"; fi; }
err_has() { if grep -qF -- "$2" "$TMP/err"; then ok; else bad "$1: stderr lacks '$2'"; fi; }
out_line_count() {
  local n
  n=$(grep -c '^(' "$TMP/out")
  if [ "$n" = "$2" ]; then ok; else bad "$1: $n plan lines, expected $2"; fi
}

# --- goap pddl ------------------------------------------------------------------------------
expect_rc "gripper plans" 0 pddl "$DIR/gripper.pddl" "$DIR/gripper-2.pddl"
out_line_count "gripper plan length" 5
out_has "gripper cost line" "; cost = 5 (unit cost)"
out_has "IPC action form" "(move rooma roomb)"
err_has "grounding stats" "12 variables, 20 actions"
err_has "search stats" "(optimal)"
expect_rc "gripper plans without the portfolio" 0 pddl "$DIR/gripper.pddl" "$DIR/gripper-2.pddl" --portfolio off
err_has "the default heuristic is LM-cut, lazy" "heuristic lmcut, lazy (optimal)"
expect_rc "--eager plans" 0 pddl "$DIR/gripper.pddl" "$DIR/gripper-2.pddl" --eager --portfolio off
err_has "--eager is not lazy" "heuristic lmcut (optimal)"
out_has "same cost with --eager" "; cost = 5 (unit cost)"
expect_rc "a chosen heuristic replaces LM-cut" 0 pddl "$DIR/gripper.pddl" "$DIR/gripper-2.pddl" --heuristic zero --max-ms=5000
err_has "--heuristic zero is used" "heuristic zero"
out_has "same cost with --heuristic zero" "; cost = 5 (unit cost)"
expect_rc "bad --max-nodes" 2 pddl "$DIR/gripper.pddl" "$DIR/gripper-2.pddl" --max-nodes x

expect_rc "grid plans with costs" 0 pddl "$DIR/grid.pddl" "$DIR/grid-1.pddl" -o "$TMP/grid.plan"
out_has "grid cost line" "; cost = 19 (general cost)"
if cmp -s "$TMP/out" "$TMP/grid.plan"; then ok; else bad "-o writes the printed plan"; fi

expect_rc "json" 0 pddl --json "$DIR/blocks.pddl" "$DIR/blocks-sussman.pddl"
if python3 - "$TMP/out" <<'EOF'
import json, sys
d = json.loads(open(sys.argv[1]).read())
assert d["status"] == "found" and d["cost"] == 6 and d["unit_cost"] is True, d
assert d["optimal"] is True and len(d["plan"]) == 6 and d["plan"][0] == "(unstack c a)", d
assert d["atoms"] == 19 and d["actions"] == 24 and d["static_atoms"] == 0, d
EOF
then ok; else bad "json fields"; fi

expect_rc "node budget" 1 pddl "$DIR/gripper.pddl" "$DIR/gripper-3.pddl" --max-nodes 3
out_has "node budget message" "; no plan: node limit reached"

expect_rc "missing problem" 2 pddl "$DIR/gripper.pddl"
err_has "usage text" "DOMAIN and PROBLEM files expected"
expect_rc "unknown option" 2 pddl "$DIR/gripper.pddl" "$DIR/gripper-2.pddl" --serch astar
err_has "option suggestion" "--search"

printf '(define (domain bad)\n  (:predicates (p))\n  (:action a :parameters ()\n   :effect (when (p) (p))))\n' >"$TMP/bad.pddl"
expect_rc "unsupported construct" 2 pddl "$TMP/bad.pddl" "$DIR/gripper-2.pddl"
err_has "error position" "bad.pddl:4:12: error: unsupported construct 'when' (conditional effect)"
err_has "error caret" "           ^"
expect_rc "unreadable file" 2 pddl "$TMP/nonexistent.pddl" "$DIR/gripper-2.pddl"
err_has "io error" "cannot open the file"

# --- goap validate --------------------------------------------------------------------------
run pddl "$DIR/gripper.pddl" "$DIR/gripper-3.pddl" -o "$TMP/g3.plan"
expect_rc "valid plan" 0 validate "$DIR/gripper.pddl" "$DIR/gripper-3.pddl" "$TMP/g3.plan"
out_has "valid verdict" "plan valid, cost 9 (9 steps)"

printf '(pick ball1 rooma left)\n(move rooma roomb)\n(pick ball2 roomb right)\n' >"$TMP/wrong.plan"
expect_rc "wrong step" 1 validate "$DIR/gripper.pddl" "$DIR/gripper-2.pddl" "$TMP/wrong.plan"
out_has "wrong step verdict" "wrong.plan:3:1: step 3 (pick ball2 roomb right): precondition (at ball2 roomb) does not hold"

printf '(pick ball1 rooma left)\n(move rooma roomb)\n(drop ball1 roomb left)\n' >"$TMP/goal.plan"
expect_rc "wrong goal" 1 validate "$DIR/gripper.pddl" "$DIR/gripper-2.pddl" "$TMP/goal.plan"
out_has "goal verdict" "plan invalid: the goal (at ball2 roomb) does not hold after the 3 steps"

printf '(fly rooma roomb)\n' >"$TMP/unknown.plan"
expect_rc "unknown action" 1 validate "$DIR/gripper.pddl" "$DIR/gripper-2.pddl" "$TMP/unknown.plan"
out_has "unknown verdict" "unknown action 'fly'"

expect_rc "validate json" 1 validate --json "$DIR/gripper.pddl" "$DIR/gripper-2.pddl" "$TMP/wrong.plan"
if python3 - "$TMP/out" <<'EOF'
import json, sys
d = json.loads(open(sys.argv[1]).read())
assert d["valid"] is False and d["bad_step"] == 3 and d["steps"] == 3 and d["line"] == 3, d
assert d["cost"] == 2 and "precondition (at ball2 roomb)" in d["message"], d
EOF
then ok; else bad "validate json fields"; fi

printf '(pick ball1 rooma left\n' >"$TMP/broken.plan"
expect_rc "malformed plan" 2 validate "$DIR/gripper.pddl" "$DIR/gripper-2.pddl" "$TMP/broken.plan"
err_has "malformed plan position" "broken.plan:1:1: error: this step's '(' is not closed on its line"
expect_rc "bad domain for validate" 2 validate "$TMP/bad.pddl" "$DIR/gripper-2.pddl" "$TMP/g3.plan"
expect_rc "validate usage" 2 validate "$DIR/gripper.pddl" "$DIR/gripper-2.pddl"

# the grid plan validates with the same cost (action costs from static functions)
expect_rc "grid plan validates" 0 validate "$DIR/grid.pddl" "$DIR/grid-1.pddl" "$TMP/grid.plan"
out_has "grid validated cost" "plan valid, cost 19"

# symmetries (orbit search): on by default for forward searches, --no-symmetry turns them
# off; both plans validate at the same optimal cost
expect_rc "gripper-3 with symmetry" 0 pddl "$DIR/gripper.pddl" "$DIR/gripper-3.pddl" -o "$TMP/sym.plan"
err_has "symmetry statistics" "; symmetry: 1 class (3 members)"
out_has "gripper-3 optimal cost with symmetry" "; cost = 9 (unit cost)"
expect_rc "gripper-3 plan with symmetry validates" 0 validate "$DIR/gripper.pddl" "$DIR/gripper-3.pddl" "$TMP/sym.plan"
out_has "validated cost with symmetry" "plan valid, cost 9"
expect_rc "gripper-3 --no-symmetry" 0 pddl "$DIR/gripper.pddl" "$DIR/gripper-3.pddl" --no-symmetry -o "$TMP/nosym.plan"
err_has "--no-symmetry statistics" "; symmetry: off (--no-symmetry)"
out_has "gripper-3 optimal cost without symmetry" "; cost = 9 (unit cost)"
expect_rc "gripper-3 plan without symmetry validates" 0 validate "$DIR/gripper.pddl" "$DIR/gripper-3.pddl" "$TMP/nosym.plan"
out_has "validated cost without symmetry" "plan valid, cost 9"
expect_rc "backward search ignores symmetry" 0 pddl "$DIR/gripper.pddl" "$DIR/gripper-2.pddl" --search backward --heuristic zero
err_has "backward statistics" "; symmetry: off (backward search)"
expect_rc "symmetry json" 0 pddl --json "$DIR/gripper.pddl" "$DIR/gripper-3.pddl"
if python3 - "$TMP/out" <<'EOF'
import json, sys
d = json.loads(open(sys.argv[1]).read())
assert d["symmetry_classes"] == 1 and d["symmetry_members"] == 3 and d["cost"] == 9, d
assert d["symmetry_generators"] == 0, d  # the grippers: a class dropped, no generator
EOF
then ok; else bad "symmetry json fields"; fi
expect_rc "no symmetry json" 0 pddl --json --no-symmetry "$DIR/gripper.pddl" "$DIR/gripper-3.pddl"
if python3 - "$TMP/out" <<'EOF'
import json, sys
d = json.loads(open(sys.argv[1]).read())
assert d["symmetry_classes"] == 0 and d["symmetry_members"] == 0 and d["cost"] == 9, d
assert d["symmetry_generators"] == 0, d
EOF
then ok; else bad "--no-symmetry json fields"; fi

# strong stubborn sets: on by default, --no-stubborn turns them off; blind A* tries every
# order of the lamps without them, one lamp at a time with them; same optimal cost
expect_rc "lamps blind" 0 pddl --json --no-symmetry --heuristic zero "$DIR/lamps.pddl" "$DIR/lamps-6.pddl"
cp "$TMP/out" "$TMP/por.json"
expect_rc "lamps blind --no-stubborn" 0 pddl --json --no-symmetry --no-stubborn --heuristic zero "$DIR/lamps.pddl" "$DIR/lamps-6.pddl"
if python3 - "$TMP/por.json" "$TMP/out" <<'EOF'
import json, sys
a = json.loads(open(sys.argv[1]).read())
b = json.loads(open(sys.argv[2]).read())
assert a["cost"] == 16 and b["cost"] == 16, (a, b)
assert a["expanded"] * 10 < b["expanded"] and a["generated"] * 10 < b["generated"], (a, b)
EOF
then ok; else bad "stubborn sets prune lamps at the same cost"; fi

# the portfolio (tools/goap/portfolio.h): A* + LM-cut beside blind A*, the winner decided by
# counted work, so threads, serial interleaving and a slowed-down runner give the same answer
pf_json() { # NAME ENV... -- runs gripper-3 with --json under the given environment
  local name=$1
  shift
  last="env $* goap pddl --json gripper-3"
  env "$@" "$GOAP" pddl --json "$DIR/gripper.pddl" "$DIR/gripper-3.pddl" >"$TMP/out" 2>"$TMP/err"
  rc=$?
  if [ "$rc" = 0 ]; then ok; else bad "$name: exit status $rc"; fi
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["portfolio_winner"], d["portfolio_work"], d["cost"], d["search"], "|".join(d["plan"]))' "$TMP/out" >"$TMP/$name.sig"
}
pf_json pf_default
pf_json pf_threads GOAP_PORTFOLIO_WARMUP=0
pf_json pf_blind_slow GOAP_PORTFOLIO_WARMUP=0 GOAP_PORTFOLIO_DELAY_US=blind:3000
pf_json pf_lm_slow GOAP_PORTFOLIO_WARMUP=0 GOAP_PORTFOLIO_DELAY_US=lmcut:3000
if grep -q "^blind 73 9 astar, heuristic zero (pick" "$TMP/pf_default.sig" &&
   cmp -s "$TMP/pf_default.sig" "$TMP/pf_threads.sig" && cmp -s "$TMP/pf_default.sig" "$TMP/pf_blind_slow.sig" &&
   cmp -s "$TMP/pf_default.sig" "$TMP/pf_lm_slow.sig"
then ok; else bad "blind search wins gripper-3 by work, whatever the timing: $(cat "$TMP"/pf_*.sig)"; fi
# weights that favour LM-cut (test hook): LM-cut wins, in threads and serially, slowed or not
pf_json pf_lm GOAP_PORTFOLIO_WEIGHTS=1:24 GOAP_PORTFOLIO_WARMUP=0
pf_json pf_lm_blind_fast GOAP_PORTFOLIO_WEIGHTS=1:24 GOAP_PORTFOLIO_WARMUP=0 GOAP_PORTFOLIO_DELAY_US=lmcut:3000
if grep -q "^lmcut 402 9 astar, heuristic lmcut, lazy (pick" "$TMP/pf_lm.sig" &&
   cmp -s "$TMP/pf_lm.sig" "$TMP/pf_lm_blind_fast.sig"
then ok; else bad "LM-cut wins gripper-3 with weights 1:24, whatever the timing: $(cat "$TMP"/pf_lm*.sig)"; fi
expect_rc "--portfolio serial" 0 pddl "$DIR/gripper.pddl" "$DIR/gripper-3.pddl" --portfolio serial
err_has "--portfolio serial line" "; portfolio serial: blind won at 73 work units (22 expanded, cpu "
err_has "--portfolio serial: the winner's search" "; search astar, heuristic zero (optimal): expanded 22"
# the portfolio's blind search runs without stubborn sets (they prune lamps-6 to 11 expansions
# for blind A* alone; the portfolio's blind search expands 26, as --no-stubborn does)
expect_rc "--portfolio serial on lamps" 0 pddl "$DIR/lamps.pddl" "$DIR/lamps-6.pddl" --portfolio serial
err_has "portfolio blind search without stubborn sets" "; portfolio serial: blind won at 107 work units (26 expanded, cpu "
expect_rc "blind alone with stubborn sets" 0 pddl "$DIR/lamps.pddl" "$DIR/lamps-6.pddl" --heuristic zero
err_has "blind alone with stubborn sets expands 11" "; search astar, heuristic zero (optimal): expanded 11, generated 12,"
expect_rc "--portfolio off" 0 pddl "$DIR/gripper.pddl" "$DIR/gripper-3.pddl" --portfolio off --json
out_has "--portfolio off runs LM-cut alone" '"search": "astar, heuristic lmcut, lazy"'
out_has "--portfolio off json" '"portfolio": "off", "portfolio_winner": "off", "portfolio_work": 0}'
expect_rc "--portfolio bad value" 2 pddl "$DIR/gripper.pddl" "$DIR/gripper-3.pddl" --portfolio fast
err_has "--portfolio bad value message" "--portfolio: 'threads', 'serial' or 'off' expected, not 'fast'"
expect_rc "--portfolio with --heuristic" 2 pddl "$DIR/gripper.pddl" "$DIR/gripper-3.pddl" --portfolio threads --heuristic hmax
err_has "--portfolio with --heuristic message" "--portfolio runs the default search: not with --search or --heuristic"
expect_rc "--heuristic alone turns the portfolio off" 0 pddl "$DIR/gripper.pddl" "$DIR/gripper-3.pddl" --heuristic lmcut --json
out_has "--heuristic alone: no portfolio" '"portfolio": "off"'
# a time limit: the portfolio stops every runner (blocks-sussman solves at once either way)
expect_rc "portfolio with --max-ms" 0 pddl "$DIR/blocks.pddl" "$DIR/blocks-sussman.pddl" --max-ms 5000
out_has "portfolio with --max-ms: plan" "; cost = 6 (unit cost)"

expect_rc "help" 0 help pddl
out_has "help text" "usage: goap pddl DOMAIN PROBLEM"
out_has "help lists --no-stubborn" "--no-stubborn"

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
