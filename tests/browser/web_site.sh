#!/usr/bin/env bash
# Builds the browser site (scripts/web.sh) into OUT_DIR for the browser tests of the live scene
# and the bench page (CTest fixture goap_web_site; scene.sh runs on what it builds).
# usage: web_site.sh OUT_DIR
# Exits 77 (CTest: skipped) with the reason when emscripten is missing.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
if ! command -v emcc >/dev/null 2>&1; then
  echo "SKIPPED: emcc (emscripten) is not installed, so the site cannot be built; run scripts/install-deps.sh"
  exit 77
fi
"$root/scripts/web.sh" "$1"
