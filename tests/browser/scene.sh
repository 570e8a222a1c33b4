#!/usr/bin/env bash
# The live scene (scene.test.js) or the bench page (bench.test.js) in headless Chromium, on the
# site tests/browser/web_site.sh built.
# usage: scene.sh scene SITE_DIR OUT_DIR
#        scene.sh bench SITE_DIR GOAP_BENCH_WEB VILLAGE.goap
# Exits 77 (CTest: skipped) with the reason when Node.js, Chromium, playwright-core or the
# built site (emscripten missing) is not there.
set -u
here=$(cd "$(dirname "$0")" && pwd)
skip() { echo "SKIPPED: $1; run scripts/install-deps.sh"; exit 77; }
command -v node >/dev/null 2>&1 || skip "node (Node.js) is not installed"
chrome="${GOAP_CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}"
[ -n "$chrome" ] || skip "chromium is not installed"
[ -d "$here/node_modules/playwright-core" ] || skip "playwright-core is not installed in tests/browser/node_modules"
[ -f "$2/scene.html" ] && [ -f "$2/goap-module.js" ] ||
  skip "the site was not built in $2 (browser_web_site: is emcc installed?)"
case "$1" in
  scene) GOAP_CHROMIUM="$chrome" exec node "$here/scene.test.js" "$2" "$3" ;;
  bench) GOAP_CHROMIUM="$chrome" exec node "$here/bench.test.js" "$2" "$3" "$4" ;;
  *) echo "usage: scene.sh scene|bench ..."; exit 2 ;;
esac
