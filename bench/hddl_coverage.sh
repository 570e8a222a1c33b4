#!/usr/bin/env bash
# bench/hddl_coverage.sh -- `goap hddl` coverage on the IPC 2020 total-order HTN problems in
# ../shared/benchmarks/hddl (issue 19, item 3). Not a CTest: it reports numbers.
#
# usage: bench/hddl_coverage.sh [BUILD_DIR] [SECONDS] [OUT.md]
#   BUILD_DIR  a Release build (default: build); SECONDS per problem (default 10);
#   OUT.md     where the Markdown table goes (default: BUILD_DIR/hddl_coverage.md).
# The benchmarks are read from ../shared/benchmarks/hddl, or from $GOAP_HDDL_BENCH_DIR.
# Plans every problem (per-problem domain files P-domain.hddl included) with `goap hddl`
# within the limit and checks every plan with `goap verify-htn` (tests/hddl/ipc_hddl.py does
# the work), then writes per domain: solved/total, the total time and plan length of the
# solved problems, and each problem's time and plan length. The planner's memory is capped
# with ulimit -v (6 GB) so that one hard problem cannot take the machine. Exit status: that
# of ipc_hddl.py (1 when a plan does not verify or a problem fails to load).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
secs=${2:-10}
out=${3:-$build/hddl_coverage.md}
bench="${GOAP_HDDL_BENCH_DIR:-$root/../shared/benchmarks/hddl}"
if [ ! -d "$bench" ]; then
  echo "skipped: $bench not found"
  exit 0
fi
ulimit -v 6000000
status=0
python3 "$root/tests/hddl/ipc_hddl.py" "$build/goap" "$bench" --ms "$((secs * 1000))" --table "$out" || status=$?
echo "table written to $out"
exit $status
