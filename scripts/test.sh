#!/usr/bin/env bash
# Builds libgoap, the CLI, the examples and the tests (Release, gcc or the system cc), and runs
# every test through CTest.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
build="${GOAP_BUILD_DIR:-$root/build}"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release ${GOAP_CMAKE_ARGS:-}
cmake --build "$build" -j2
ctest --test-dir "$build" --output-on-failure -j2 ${GOAP_CTEST_ARGS:-}
