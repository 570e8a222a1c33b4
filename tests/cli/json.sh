#!/usr/bin/env bash
# tests/cli/json.sh -- `goap check --json` (the diagnostics as one JSON object) and `goap test
# --json` (one JSON line per result): the browser playground's contract (docs/cli.md, web.md),
# checked field by field against the text modes.
# usage: bash tests/cli/json.sh <path-to-goap> <tests directory>
set -u
GOAP=${1:?usage}
DIR=$(cd "${2:?usage}" && pwd)
EX=$(cd "$DIR/../examples" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
passed=0 failed=0
ok() { if eval "$2"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $1"; fi; }
# field FILE EXPR: a value of the JSON on FILE's first line, by a Python expression over j
field() { python3 -c "import json,sys; j=json.loads(open(sys.argv[1]).readline()); print($2)" "$1"; }

# A typo in an action name: one error at the line and column of the text mode, its hint.
sed 's/^action kick_door/action kick_dor/' "$EX/soldier.goap" >"$TMP/typo.goap"
"$GOAP" check --json "$TMP/typo.goap" >"$TMP/out" 2>"$TMP/err"
ok "typo: exit 1" "[ $? = 1 ]"
ok "typo: nothing on stderr" "[ ! -s '$TMP/err' ]"
ok "typo: one line of JSON" "[ \$(wc -l <'$TMP/out') = 1 ]"
ok "typo: totals" "[ \"\$(field '$TMP/out' 'j[\"errors\"], j[\"warnings\"], j[\"files\"][0][\"ok\"]')\" = '1 0 False' ]"
ok "typo: the diagnostic" "[ \"\$(field '$TMP/out' '\"|\".join(str(v) for v in j[\"files\"][0][\"diagnostics\"][0].values())')\" = \"error|$TMP/typo.goap|101|38|unknown action 'kick_door'; did you mean 'kick_dor'?|did you mean 'kick_dor'?|  expect plan get_ammo load_magazine kick_door shoot\" ]"
"$GOAP" check "$TMP/typo.goap" >/dev/null 2>"$TMP/text"
ok "typo: the text mode agrees" "grep -q '^$TMP/typo.goap:101:38: error: unknown action' '$TMP/text'"

# Warnings, the domain's outline; --strict makes warnings fail.
"$GOAP" check --json "$DIR/cli/warnings.goap" "$EX/soldier.goap" >"$TMP/out" 2>"$TMP/err"
ok "warnings: exit 0" "[ $? = 0 ]"
ok "warnings: totals" "[ \"\$(field '$TMP/out' 'j[\"errors\"], j[\"warnings\"], len(j[\"files\"])')\" = '0 4 2' ]"
ok "warnings: positions" "[ \"\$(field '$TMP/out' '\" \".join(\"%d:%d\" % (d[\"line\"], d[\"col\"]) for d in j[\"files\"][0][\"diagnostics\"])')\" = '5:5 7:8 10:8 13:6' ]"
ok "warnings: severity" "[ \"\$(field '$TMP/out' 'set(d[\"severity\"] for d in j[\"files\"][0][\"diagnostics\"])')\" = \"{'warning'}\" ]"
ok "soldier: outline" "[ \"\$(field '$TMP/out' '*[j[\"files\"][1][k] for k in (\"domain\", \"variables\", \"actions\", \"goals\")], j[\"files\"][1][\"scenarios\"][1], len(j[\"files\"][1][\"simulations\"])')\" = \"soldier 9 7 ['kill_enemy'] door_stuck 4\" ]"
"$GOAP" check --json --strict "$DIR/cli/warnings.goap" >"$TMP/out" 2>&1
ok "--strict: exit 1" "[ $? = 1 ]"

# A scenario whose goal cannot be reached: the warning of the text mode, as JSON.
"$GOAP" check --json "$DIR/trace/why.goap" >"$TMP/out" 2>"$TMP/err"
ok "scenario warning: exit 0" "[ $? = 0 ]"
ok "scenario warning: in the diagnostics" "[ \"\$(field '$TMP/out' '[(d[\"line\"], d[\"message\"][:50]) for d in j[\"files\"][0][\"diagnostics\"] if d[\"message\"].startswith(\"scenario\")][0]')\" = \"(50, \\\"scenario locked: goal condition 'in_vault' cannot \\\")\" ]"
ok "scenario warning: counted" "[ \"\$(field '$TMP/out' 'j[\"warnings\"] == len(j[\"files\"][0][\"diagnostics\"])')\" = True ]"

# A missing file and an empty file.
"$GOAP" check --json "$TMP/nosuch.goap" >"$TMP/out" 2>"$TMP/err"
ok "missing file: exit 1" "[ $? = 1 ]"
ok "missing file: message" "[ \"\$(field '$TMP/out' 'j[\"files\"][0][\"diagnostics\"][0][\"message\"]')\" = 'cannot open file for reading' ]"
: >"$TMP/empty.goap"
"$GOAP" check --json "$TMP/empty.goap" >"$TMP/out" 2>"$TMP/err"
ok "empty file: exit 0" "[ $? = 0 ]"
ok "empty file: an empty domain" "[ \"\$(field '$TMP/out' '*[j[\"files\"][0][k] for k in (\"ok\", \"variables\", \"actions\", \"scenarios\", \"diagnostics\")]')\" = 'True 0 0 [] []' ]"

# goap test --json: one object per PASS/FAIL line of the text mode, with its detail, then totals.
"$GOAP" test --json "$DIR/cli/failing.goap" >"$TMP/out" 2>"$TMP/err"
ok "test --json failing: exit 1" "[ $? = 1 ]"
ok "test --json failing: three lines" "[ \$(wc -l <'$TMP/out') = 3 ]"
ok "test --json failing: the failure" "[ \"\$(sed -n 2p '$TMP/out')\" = '{\"file\": \"$DIR/cli/failing.goap\", \"kind\": \"scenario\", \"name\": \"wrong_cost\", \"line\": 16, \"pass\": false, \"detail\": \"expected cost 4, got 5 (plan withdraw_money order_pizza)\"}' ]"
ok "test --json failing: totals" "[ \"\$(sed -n 3p '$TMP/out')\" = '{\"passed\": 1, \"failed\": 1}' ]"
"$GOAP" test "$DIR/cli/failing.goap" >"$TMP/text"
ok "test --json failing: the text mode's lines" "[ \"\$(python3 -c 'import json,sys
for l in open(sys.argv[1]).readlines()[:-1]:
    j = json.loads(l)
    print((\"PASS %s:%s %s\" if j[\"pass\"] else \"FAIL %s:%s: scenario %s: %s\") % ((j[\"file\"], j[\"name\"], j[\"detail\"]) if j[\"pass\"] else (j[\"file\"], j[\"line\"], j[\"name\"], j[\"detail\"])))' '$TMP/out')\" = \"\$(head -2 '$TMP/text')\" ]"
"$GOAP" test --json "$EX/soldier.goap" "$EX/trunk_thumper.goap" >"$TMP/out" 2>"$TMP/err"
ok "test --json examples: exit 0" "[ $? = 0 ]"
ok "test --json: door_stuck" "grep -qx '{\"file\": \"$EX/soldier.goap\", \"kind\": \"scenario\", \"name\": \"door_stuck\", \"line\": 97, \"pass\": true, \"detail\": \"(cost 6, plan get_ammo load_magazine kick_door shoot)\"}' '$TMP/out'"
ok "test --json: a simulation" "grep -qx '{\"file\": \"$EX/soldier.goap\", \"kind\": \"simulation\", \"name\": \"both\", \"line\": 0, \"pass\": true, \"detail\": \"(simulation, 3 replans)\"}' '$TMP/out'"
ok "test --json: an HTN scenario" "grep -qx '{\"file\": \"$EX/trunk_thumper.goap\", \"kind\": \"scenario\", \"name\": \"with_trunk\", \"line\": 101, \"pass\": true, \"detail\": \"(task be_troll, cost 3, plan go_to_enemy trunk_slam)\"}' '$TMP/out'"
"$GOAP" test "$EX/soldier.goap" "$EX/trunk_thumper.goap" >"$TMP/text"
ok "test --json: as many results as the text mode" "[ \$(grep -c '\"pass\"' '$TMP/out') = \$(grep -c '^PASS' '$TMP/text') ]"
ok "test --json: the totals" "[ \"\$(tail -1 '$TMP/out')\" = \"{\\\"passed\\\": \$(grep -c '^PASS' '$TMP/text'), \\\"failed\\\": 0}\" ]"

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
