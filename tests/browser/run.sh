#!/usr/bin/env bash
# The trace viewer in a real browser: headless Chromium (Debian's `chromium`) driven by
# playwright-core from tests/browser/node_modules (scripts/install-deps.sh installs both).
# usage: run.sh GOAP_CLI SOLDIER.goap OUT_DIR
# Exits 77 (CTest: skipped) with a message when Node.js, Chromium or playwright-core is missing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
if ! command -v node >/dev/null 2>&1; then
  echo "SKIPPED: node (Node.js) is not installed; run scripts/install-deps.sh"; exit 77
fi
chrome="${GOAP_CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}"
if [ -z "$chrome" ]; then
  echo "SKIPPED: chromium is not installed; run scripts/install-deps.sh"; exit 77
fi
if [ ! -d "$here/node_modules/playwright-core" ]; then
  echo "SKIPPED: playwright-core is not installed in tests/browser/node_modules; run scripts/install-deps.sh"
  exit 77
fi
mkdir -p "$3"
GOAP_CHROMIUM="$chrome" node "$here/trace_viewer.test.js" "$1" "$2" "$here/big.goap" "$3"
rc=$?
# `goap simulate --html`: the timeline page and its search trees
GOAP_CHROMIUM="$chrome" node "$here/simulate_html.test.js" "$1" "$2" "$3" || rc=1
exit $rc
