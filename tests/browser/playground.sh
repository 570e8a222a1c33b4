#!/usr/bin/env bash
# The browser playground in a real browser (tests/browser/playground.test.js): builds the site
# with scripts/web.sh into OUT_DIR/web, then drives it with headless Chromium.
# usage: playground.sh GOAP_CLI OUT_DIR
# Exits 77 (CTest: skipped) with the reason when emscripten, Node.js, Chromium or
# playwright-core is missing (scripts/install-deps.sh installs them where it can).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
skip() { echo "SKIPPED: $1; run scripts/install-deps.sh"; exit 77; }
command -v emcc >/dev/null 2>&1 || skip "emcc (emscripten) is not installed, so the site cannot be built"
command -v node >/dev/null 2>&1 || skip "node (Node.js) is not installed"
chrome="${GOAP_CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}"
[ -n "$chrome" ] || skip "chromium is not installed"
[ -d "$here/node_modules/playwright-core" ] || skip "playwright-core is not installed in tests/browser/node_modules"
mkdir -p "$2"
"$root/scripts/web.sh" "$2/web" || { echo "FAIL: scripts/web.sh could not build the site"; exit 1; }
GOAP_CHROMIUM="$chrome" node "$here/playground.test.js" "$1" "$2/web/site" "$root/examples" "$here/big.goap" "$2"
