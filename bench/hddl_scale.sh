#!/usr/bin/env bash
# bench/hddl_scale.sh -- how `goap hddl` scales on generated problems larger than the first
# five per domain in ../shared/benchmarks/hddl (issue 19). Not a CTest: it reports numbers.
#
# usage: bench/hddl_scale.sh [BUILD_DIR] [SECONDS] [DOMAIN...]
#   BUILD_DIR  a Release build (default: build); SECONDS per problem (default 10);
#   DOMAIN     generator names in bench/hddl_gen (default: all of them).
# The domain files are read from ../shared/benchmarks/hddl, or from $GOAP_HDDL_BENCH_DIR.
# Each generator (bench/hddl_gen/NAME.py, stdlib Python, deterministic per size and seed)
# makes problems of geometrically growing sizes; each is planned with `goap hddl` within
# SECONDS of CPU time (ulimit -t, so that the load of a shared machine does not decide; wall
# time at most 20 x SECONDS), memory capped at 6 GB (ulimit -v), and every plan is checked with
# `goap verify-htn`. A domain stops growing at its first unsolved size. Printed per domain and
# size: solved, CPU seconds (user), decomposition steps, plan length, peak memory (MB). A plan
# larger than verify-htn reads (64 MB of text) is reported "yes (unchecked ...)". Exit status
# 1 when a plan does not verify. Needs /usr/bin/time (GNU time).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
secs=${2:-10}
shift $(( $# > 2 ? 2 : $# ))
bench="${GOAP_HDDL_BENCH_DIR:-$root/../shared/benchmarks/hddl}"
if [ ! -d "$bench" ]; then
  echo "skipped: $bench not found"
  exit 0
fi
gen="$root/bench/hddl_gen"
# generator, track domain directory, sizes
table="towers Towers 8 10 12 14 16 18 20
blocksworld Blocksworld-GTOHP 10 20 40 80 160 320
childsnack Childsnack 10 20 40 80 160 320 640 1280
transport Transport 5 10 20 40 80
satellite Satellite-GTOHP 5 10 20 40 80 160
logistics Logistics-Learned-ECAI-16 2 4 8 16 32 64
elevator Elevator-Learned-ECAI-16 5 10 20 40 80 160
hiking Hiking 4 8 16 32 64 128 256
factories Factories-simple 2 3 4 5 6 7 8
barman Barman-BDI 4 8 16 32 64 128 256"
want=" $* "
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ulimit -v 6000000
status=0
printf '| domain | size | solved | CPU s | steps | plan length | peak MB |\n|---|---:|---|---:|---:|---:|---:|\n'
while read -r name dir sizes; do
  [ $# -gt 0 ] && [[ "$want" != *" $name "* ]] && continue
  [ -f "$gen/$name.py" ] || continue
  for n in $sizes; do
    p="$tmp/$name-$n.hddl"
    python3 "$gen/$name.py" "$n" 1 > "$p"
    rm -f "$tmp/plan"
    (ulimit -t "$secs"
     exec /usr/bin/time -f "%U %M" -o "$tmp/time" "$build/goap" hddl "$bench/$dir/domain.hddl" "$p" \
       --stats --time-limit "$((secs * 20000))" -o "$tmp/plan" > /dev/null 2> "$tmp/err")
    rc=$?
    read -r cpu kb < <(grep -E '^[0-9.]+ [0-9]+$' "$tmp/time" | tail -n 1)
    steps=$(sed -n 's/.* \([0-9]*\) decomposition steps.*/\1/p' "$tmp/err")
    if [ $rc -eq 0 ]; then
      if "$build/goap" verify-htn "$bench/$dir/domain.hddl" "$p" "$tmp/plan" > "$tmp/ver" 2>&1; then
        solved=yes
      elif grep -q 'bytes, more than the' "$tmp/ver"; then
        solved="yes (unchecked: $(($(wc -c < "$tmp/plan") >> 20)) MB plan)" # verify-htn's size limit
      else
        solved="INVALID"
        status=1
      fi
      len=$(grep -c '^[0-9]* [^ ]*' < <(sed -n '/==>/,/^root/p' "$tmp/plan" | grep -v '^root\|==>'))
    else
      solved=no
      len=-
      steps=${steps:--}
    fi
    printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$dir" "$n" "$solved" "$cpu" "${steps:--}" "$len" "$((kb / 1024))"
    [[ "$solved" == yes* ]] || break
  done
done <<< "$table"
exit $status
