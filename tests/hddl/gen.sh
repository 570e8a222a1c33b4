#!/usr/bin/env bash
# Generated HDDL problems (bench/hddl_gen/*.py, issue 19) at small sizes: every generator is
# deterministic per (size, seed) and its seeds differ (checked at its smallest size), and `goap hddl` solves every problem it
# makes, each plan accepted by `goap verify-htn`; Towers with N rings takes exactly 2^N - 1
# moves. The domain files come from the shared IPC benchmarks: skipped (77) when absent.
# Usage: gen.sh GOAP GEN_DIR BENCH_DIR
set -uo pipefail
goap=$1
gen=$2
bench=$3
if [ ! -d "$bench/Towers" ]; then
  echo "skipped: no HDDL benchmarks at $bench"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
# generator, track domain directory, sizes
while read -r name dir sizes; do
  first=1
  for n in $sizes; do
    p="$tmp/$name-$n.hddl"
    python3 "$gen/$name.py" "$n" 1 > "$p" || { bad "$name $n: the generator failed"; continue; }
    if [ $first = 1 ]; then # the smallest size: same seed, same text; another seed, another
      python3 "$gen/$name.py" "$n" 1 | cmp -s - "$p" || bad "$name $n: not deterministic"
      if [ "$name" != towers ] && python3 "$gen/$name.py" "$n" 2 | cmp -s - "$p"; then
        bad "$name $n: seeds 1 and 2 give the same problem"
      fi
      first=0
    fi
    if ! "$goap" hddl "$bench/$dir/domain.hddl" "$p" --time-limit 20000 -o "$tmp/plan" > "$tmp/out" 2>&1; then
      bad "$name $n: no plan: $(tail -n 1 "$tmp/out")"
      continue
    fi
    if ! "$goap" verify-htn "$bench/$dir/domain.hddl" "$p" "$tmp/plan" > "$tmp/ver" 2>&1; then
      bad "$name $n: the plan does not verify: $(tail -n 1 "$tmp/ver")"
      continue
    fi
    if [ "$name" = towers ]; then
      want="valid: $(((1 << n) - 1)) primitive steps,"
      grep -q "^$want" "$tmp/ver" || bad "towers $n: '$(cat "$tmp/ver")', want '$want ...'"
    fi
    pass=$((pass + 1))
  done
done <<'EOF_TABLE'
towers Towers 3 6 9
blocksworld Blocksworld-GTOHP 8 16
childsnack Childsnack 6 12
transport Transport 4 8
satellite Satellite-GTOHP 4 8
elevator Elevator-Learned-ECAI-16 4 16
logistics Logistics-Learned-ECAI-16 2 4
hiking Hiking 4 8
factories Factories-simple 3 5
barman Barman-BDI 3 6
EOF_TABLE
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
