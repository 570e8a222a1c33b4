#!/usr/bin/env bash
# tests/hddl/ref_plans.sh -- `goap verify-htn` on the shared HDDL reference plans.
#
# usage: ref_plans.sh GOAP BENCH_DIR     (BENCH_DIR: the environment's GOAP_HDDL_BENCH_DIR wins)
#
# Every BENCH_DIR/<Domain>/plans/<problem>.<how>.plan must verify VALID against
# <Domain>/domain.hddl and <Domain>/<problem>.hddl (exit 0, "valid: ..."). Each plan is also
# corrupted in two ways that must be rejected (exit 1, "invalid: ..."): its first two primitive
# lines swapped, and its first primitive line removed. Prints one line per domain and a final
# 'N passed, M failed'. Exits 77 (a CTest skip) when BENCH_DIR is absent.
set -u
goap=$1
bench=${GOAP_HDDL_BENCH_DIR:-$2}
if [ ! -d "$bench" ]; then
  echo "skipped: no HDDL benchmarks at $bench"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
nplans=0
for dom in "$bench"/*/; do
  dom=${dom%/}
  [ -d "$dom/plans" ] || continue
  name=$(basename "$dom")
  dv=0
  dn=0
  for plan in "$dom"/plans/*.plan; do
    [ -e "$plan" ] || continue
    base=$(basename "$plan")
    prob="$dom/${base%%.*}.hddl"
    nplans=$((nplans + 1))
    dn=$((dn + 1))
    out=$("$goap" verify-htn "$dom/domain.hddl" "$prob" "$plan" 2>&1)
    rc=$?
    if [ $rc -eq 0 ] && [ "${out#valid: }" != "$out" ]; then
      pass=$((pass + 1))
      dv=$((dv + 1))
    else
      fail=$((fail + 1))
      echo "FAIL $name/$base: expected valid, exit $rc: $out"
    fi
    # the primitive lines: after '==>', 'ID name ...' without '->'
    prims=$(awk 'f && /^[ \t]*[0-9]+[ \t]+[^ \t]/ && !/->/ {print NR} /^[ \t]*==>/ {f=1} /^[ \t]*root/ {f=0}' "$plan")
    first=$(echo "$prims" | sed -n 1p)
    second=$(echo "$prims" | sed -n 2p)
    [ -n "$first" ] || continue
    corrupt=()
    if [ -n "$second" ]; then
      awk -v a="$first" -v b="$second" 'NR == FNR { l[FNR] = $0; next }
        FNR == a { print l[b]; next } FNR == b { print l[a]; next } { print }' \
        "$plan" "$plan" > "$tmp/swap.plan"
      corrupt+=("swap")
    fi
    awk -v a="$first" 'NR != a' "$plan" > "$tmp/drop.plan"
    corrupt+=("drop")
    for c in "${corrupt[@]}"; do
      out=$("$goap" verify-htn "$dom/domain.hddl" "$prob" "$tmp/$c.plan" 2>&1)
      rc=$?
      if [ $rc -eq 1 ] && [ "${out#invalid: }" != "$out" ]; then
        pass=$((pass + 1))
      else
        fail=$((fail + 1))
        echo "FAIL $name/$base ($c): expected invalid, exit $rc: $out"
      fi
    done
  done
  echo "$name: $dv of $dn reference plans valid"
done
if [ $nplans -eq 0 ]; then
  echo "FAIL: no reference plans under $bench"
  fail=$((fail + 1))
fi
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
