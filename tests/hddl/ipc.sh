#!/usr/bin/env bash
# tests/hddl/ipc.sh -- `goap hddl` on the shared IPC HTN benchmarks (../shared/benchmarks/hddl):
# every problem of every domain must be solved within the time limit (GOAP_HDDL_MS, default
# 20000 ms) and give a plan in the IPC HTN form. Exits 77 (skipped) when the set is absent.
#
# usage: bash tests/hddl/ipc.sh <path-to-goap> <benchmarks/hddl directory>
set -u
GOAP=${1:?usage: ipc.sh <goap> <benchmarks/hddl dir>}
DIR=${2:?usage: ipc.sh <goap> <benchmarks/hddl dir>}
if [ ! -d "$DIR" ]; then
  echo "skipped: $DIR is absent"
  exit 77
fi
MS=${GOAP_HDDL_MS:-20000}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
passed=0
failed=0
for dom in "$DIR"/*/domain.hddl; do
  [ -f "$dom" ] || continue
  d=$(dirname "$dom")
  for prob in "$d"/*.hddl; do
    [ "$prob" = "$dom" ] && continue
    name="$(basename "$d")/$(basename "$prob")"
    "$GOAP" hddl "$dom" "$prob" --time-limit "$MS" -o "$TMP/plan" >"$TMP/out" 2>"$TMP/err"
    rc=$?
    if [ "$rc" = 0 ] && [ "$(head -n1 "$TMP/plan")" = "==>" ] && [ "$(tail -n1 "$TMP/plan")" = "<==" ] &&
      grep -q '^root' "$TMP/plan"; then
      passed=$((passed + 1))
    else
      failed=$((failed + 1))
      echo "FAIL: $name (exit $rc)"
      sed -n '1,5s/^/  | /p' "$TMP/out" "$TMP/err"
    fi
  done
done
echo "$passed solved, $failed failed"
[ "$passed" -gt 0 ] && [ "$failed" = 0 ]
