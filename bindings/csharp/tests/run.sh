#!/usr/bin/env bash
# Compiles the C# binding and its tests with Mono's mcs and runs them with mono.
# Usage: run.sh BINDING_DIR LIBRARY_DIR  (LIBRARY_DIR holds libgoap_shared.so)
set -euo pipefail
dir=$1
libdir=$2
if ! command -v mcs >/dev/null 2>&1 || ! command -v mono >/dev/null 2>&1; then
  echo "csharp: skipped: mono-mcs and mono-runtime are not installed (scripts/install-deps.sh)"
  exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mcs -warnaserror -out:"$tmp/tests.exe" "$dir/Goap.cs" "$dir/tests/Tests.cs"
LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" mono --debug "$tmp/tests.exe"
