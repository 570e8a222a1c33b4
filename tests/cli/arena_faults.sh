#!/bin/sh
# CTest cli_arena_faults: with its huge-page arena (tools/goap/hugepage_alloc.h), a short `goap pddl`
# run takes few page faults: about 44 on the project's grid task, against about 80 with
# malloc (4 KB pages). Skips (77) where the kernel has no transparent huge pages.
# usage: arena_faults.sh GOAP_BENCH_RUNS GOAP TESTS_PDDL_DIR
runner=$1 goap=$2 dir=$3
thp=/sys/kernel/mm/transparent_hugepage/enabled
if [ ! -r "$thp" ] || grep -q '\[never\]' "$thp"; then
  echo "skipped: no transparent huge pages"
  exit 77
fi
out=$("$runner" 5 "$goap" pddl "$dir/grid.pddl" "$dir/grid-1.pddl") || exit 1
set -- $out
if [ "$3" != 0 ]; then
  echo "goap pddl failed: $out"
  exit 1
fi
echo "page faults per run (median of 5): $4 (at most 60 expected; malloc takes about 80)"
[ "$4" -le 60 ]
