#!/usr/bin/env bash
# tests/cli/replay.sh -- `goap simulate --record` and `goap replay`: the replayed timeline is
# byte-identical to the recorded run (text and JSON, one agent and a squad); a changed cost
# shows the first divergence (exact lines, exit 1); bad logs and usage give clear errors.
#
# usage: bash tests/cli/replay.sh <path-to-goap> <tests/cli directory>
# Prints "N passed, M failed"; exits 1 on any failure.
set -u
GOAP=${1:?usage}
DIR=$(cd "${2:?usage}" && pwd)
EX=$(cd "$DIR/../../examples" && pwd)
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
same() { if cmp -s "$2" "$3"; then ok; else bad "$1: $2 and $3 differ"; diff "$2" "$3" | head >&2; fi; }
err_is() { if [ "$(cat "$TMP/err")" = "$2" ]; then ok; else bad "$1: stderr is not '$2'"; fi; }

# one agent and a squad (blackboard, reservations, orders): text and JSON
for case in "soldier.goap both" "soldier.goap door_held" "squad.goap flank" "squad.goap assault_flanks"; do
  set -- $case
  run simulate "$EX/$1" "$2" --record "$TMP/$2.log"
  expect_rc "record $2" 0
  grep -v '^recorded ' "$TMP/out" >"$TMP/live.txt"
  tail -n 1 "$TMP/out" | grep -q "^recorded $TMP/$2.log ([0-9]* bytes)$" && ok || bad "record line $2"
  run simulate "$EX/$1" "$2"
  same "record changes nothing $2" "$TMP/out" "$TMP/live.txt"
  run replay "$EX/$1" "$TMP/$2.log"
  expect_rc "replay $2" 0
  same "replay $2" "$TMP/out" "$TMP/live.txt"
  run simulate "$EX/$1" "$2" --json
  cp "$TMP/out" "$TMP/live.json"
  run replay "$EX/$1" "$TMP/$2.log" --json
  expect_rc "replay json $2" 0
  same "replay json $2" "$TMP/out" "$TMP/live.json"
done

# a balance change: kick_door costs 7 instead of 3
sed '/^action kick_door/,/^$/s/^  cost 3$/  cost 7/' "$EX/soldier.goap" >"$TMP/changed.goap"
grep -q "^  cost 7$" "$TMP/changed.goap" && ok || bad "sed changed the cost"
run replay "$TMP/changed.goap" "$TMP/both.log"
expect_rc "diverged" 1
cat >"$TMP/want" <<TXT
note: $TMP/changed.goap changed since the recording (costs, conditions, effects or priorities)
simulation both
  0.00  world: door_held = true
  0.00  world: armory_out = true
  0.00  plan for kill_enemy (cost 4): get_ammo, load_magazine, open_door, shoot
  0.00    get_ammo ...
  1.00    get_ammo FAILED
  1.00      memory: armory_empty = true
  1.00  replan: the action failed
  1.10  plan for kill_enemy (cost 7): open_door, punch
  1.10    open_door ...
  2.10    open_door FAILED
  2.10      memory: door_stuck = true
  2.10  replan: the action failed
replay diverged at frame 22 (t = 2.2), agent 0:
  expected: plan for kill_enemy (cost 9): kick_door, punch
  got:      plan for kill_enemy (cost 11): jump_window, punch
TXT
same "divergence text" "$TMP/out" "$TMP/want"
run replay "$TMP/changed.goap" "$TMP/both.log" --json
expect_rc "diverged json" 1
[ "$(tail -n 1 "$TMP/out")" = '{"t": 2.2, "event": "divergence", "frame": 22, "agent_index": 0, "domain_changed": true, "expected": "plan for kill_enemy (cost 9): kick_door, punch", "got": "plan for kill_enemy (cost 11): jump_window, punch"}' ] && ok || bad "divergence json"
# a squad member is named
sed "/^action move_to_cover/,/^\$/s/^  cost 1$/  cost 2/" "$EX/squad.goap" >"$TMP/squad2.goap"
run replay "$TMP/squad2.goap" "$TMP/flank.log"
expect_rc "squad diverged" 1
cat >"$TMP/want" <<'TXT'
replay diverged at frame 0 (t = 0), agent 0 (gunner):
  expected: plan for suppress (cost 1.8): move_to_cover, provide_suppression
  got:      plan for suppress (cost 2.8): move_to_cover, provide_suppression
TXT
tail -n 3 "$TMP/out" >"$TMP/got"
same "squad divergence names the member" "$TMP/got" "$TMP/want"

# bad logs, other domains, usage
head -c 40 "$TMP/both.log" >"$TMP/short.log"
run replay "$EX/soldier.goap" "$TMP/short.log"
expect_rc "truncated" 2
err_is "truncated" "goap replay: $TMP/short.log: replay log: truncated (a chunk ends past the end of the data) (at byte 34)"
printf 'hello' >"$TMP/text.log"
run replay "$EX/soldier.goap" "$TMP/text.log"
expect_rc "not a log" 2
err_is "not a log" "goap replay: $TMP/text.log: replay log: not a libgoap replay log (bad magic) (at byte 0)"
run replay "$EX/squad.goap" "$TMP/both.log"
expect_rc "other domain" 2
err_is "other domain" "goap replay: $TMP/both.log: replay log: recorded over another domain (its variables, actions or goals differ) (at byte 8)"
run replay "$EX/soldier.goap" "$TMP/missing.log"
expect_rc "missing" 2
err_is "missing" "goap replay: cannot read $TMP/missing.log"
run replay "$EX/soldier.goap"
expect_rc "no log" 2
grep -q "missing LOG" "$TMP/err" && ok || bad "missing LOG message"
run simulate "$EX/soldier.goap" --record "$TMP/all.log"
expect_rc "record all" 2
err_is "record all" "goap simulate: --record needs one simulation ($EX/soldier.goap has 4; name one)"
run simulate "$EX/soldier.goap" both --record "$TMP/no/such/dir.log"
expect_rc "record unwritable" 2

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
