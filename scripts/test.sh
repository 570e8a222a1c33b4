#!/usr/bin/env bash
# Builds libgoap, the CLI, the examples and the tests (Release, gcc or the system cc), and runs
# every test through CTest. Then names each skipped test with the reason it gave (CTest's own
# summary says only "Skipped"; scripts/ctest_skips.py reads CTest's JUnit report).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
build="${GOAP_BUILD_DIR:-$root/build}"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release ${GOAP_CMAKE_ARGS:-}
cmake --build "$build" -j2
junit="$build/Testing/ctest-junit.xml"
rm -f "$junit"
rc=0
ctest --test-dir "$build" --output-on-failure -j2 --output-junit "$junit" ${GOAP_CTEST_ARGS:-} ||
  rc=$?
if [ -f "$junit" ]; then
  skips=$(python3 "$root/scripts/ctest_skips.py" "$junit" || true)
  if [ -n "$skips" ]; then
    echo
    echo "Skipped tests and why:"
    sed 's/^/  /' <<<"$skips"
  fi
fi
exit "$rc"
