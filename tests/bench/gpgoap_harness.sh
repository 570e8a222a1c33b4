#!/usr/bin/env bash
# bench/peers/gpgoap_harness.c's counting mode (--case NAME --reps N), which
# bench/side_by_side.sh runs under perf stat or callgrind: exactly the named case, one JSON line
# each, no timings; a bad option fails. GPGOAP is not shipped: skips (77) unless GOAP_GPGOAP_DIR
# names a directory with GPGOAP's goap.c, goap.h, astar.c and astar.h.
#   gpgoap_harness.sh SOURCE_DIR GPGOAP_DIR
set -u
src=$1 gp=${2:-}
if [ -z "$gp" ] || [ ! -f "$gp/goap.c" ] || [ ! -f "$gp/astar.c" ]; then
  echo "skipped: no GPGOAP sources (configure with -DGOAP_GPGOAP_DIR=DIR)"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -std=c99 -O2 -DNDEBUG -I"$gp" "$src/bench/peers/gpgoap_harness.c" "$gp/goap.c" "$gp/astar.c" \
   -o "$tmp/h" || { echo "FAIL: the harness does not build"; exit 1; }
fail=0
expect() { # want, command...
  local want=$1; shift
  local got
  got=$("$@" 2>&1)
  if [ "$got" != "$want" ]; then
    printf 'FAIL: %s\n  want: %s\n  got:  %s\n' "$*" "$want" "$got"
    fail=1
  fi
}
expect '{"case": "alt_gpgoap_soldier", "cost": 25, "rounds": 3, "requests": 8}' \
  "$tmp/h" --case alt_gpgoap_soldier --reps 3
expect '{"case": "chain_8_0", "cost": 8, "rounds": 2, "requests": 1}' \
  "$tmp/h" --case =chain_8_0 --reps 2
expect '{"case": "gpgoap_soldier", "cost": 4, "rounds": 1, "requests": 1}
{"case": "alt_gpgoap_soldier", "cost": 25, "rounds": 1, "requests": 8}
{"case": "chain_8_0", "cost": 8, "rounds": 1, "requests": 1}
{"case": "alt_chain_8", "cost": 64, "rounds": 1, "requests": 8}
{"case": "chain_60_0", "cost": 60, "rounds": 1, "requests": 1}
{"case": "alt_chain_60", "cost": 480, "rounds": 1, "requests": 8}' "$tmp/h" --reps 1
expect '' "$tmp/h" --case no_such_case --reps 1
# timing mode for one case: one line, with the median
n=$("$tmp/h" --case gpgoap_soldier | grep -c '"ns_per_plan"')
[ "$n" = 1 ] || { echo "FAIL: --case without --reps printed $n timed lines"; fail=1; }
"$tmp/h" --reps 0 >/dev/null 2>&1 && { echo "FAIL: --reps 0 accepted"; fail=1; }
"$tmp/h" --bogus >/dev/null 2>&1 && { echo "FAIL: --bogus accepted"; fail=1; }
[ $fail = 0 ] && echo "gpgoap_harness: ok"
exit $fail
