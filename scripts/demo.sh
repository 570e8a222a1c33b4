#!/usr/bin/env bash
# Builds the `goap` command and runs its embedded demo (the soldier and the door).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh" >&2
build="${GOAP_BUILD_DIR:-$root/build}"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j2 --target goap_cli >/dev/null
exec "$build/goap" demo "$@"
