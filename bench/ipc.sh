#!/usr/bin/env bash
# bench/ipc.sh -- the full comparison on the IPC benchmarks in ../shared/benchmarks/pddl.
#
# usage: bench/ipc.sh [BUILD_DIR] [SECONDS] [OUT.md] [--listed-only]
#   BUILD_DIR  a Release build (default: build); SECONDS per instance (default 60);
#   OUT.md     where the Markdown table goes (default: BUILD_DIR/ipc.md).
# The benchmarks are read from ../shared/benchmarks/pddl, or from $GOAP_PDDL_BENCH.
# Plans every instance with `goap pddl` (its default optimal configuration) within the limit,
# checks costs against optimal.csv and validates every plan (tests/pddl/ipc.py does the work),
# then writes solved per domain vs Fast Downward's count, time per instance, and our total
# time on the tiny instances vs FD's whole-run time (fd_total_s). The planner's memory is
# capped with ulimit -v (6 GB) so that one hard instance cannot take the machine.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
secs=${2:-60}
out=${3:-$build/ipc.md}
extra=${4:-}
bench="${GOAP_PDDL_BENCH:-$root/../shared/benchmarks/pddl}"
if [ ! -f "$bench/optimal.csv" ]; then
  echo "skipped: $bench/optimal.csv not found"
  exit 0
fi
ulimit -v 6000000
python3 "$root/tests/pddl/ipc.py" "$build/goap" "$bench" --ms "$((secs * 1000))" --table "$out" $extra
echo "table written to $out"
