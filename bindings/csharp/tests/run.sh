#!/usr/bin/env bash
# Compiles the C# binding and its tests with Mono's mcs and runs them with mono; also compiles
# the binding with GOAP_INTERNAL (the "__Internal" library name of static players) and runs
# LibName.cs, which checks that every DllImport names it.
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
src=("$dir/Goap.cs" "$dir/GoapRuntime.cs")
mcs -unsafe -warnaserror -define:GOAP_INTERNAL -out:"$tmp/libname.exe" "${src[@]}" "$dir/tests/LibName.cs"
mono "$tmp/libname.exe" __Internal
mcs -unsafe -warnaserror -out:"$tmp/tests.exe" "${src[@]}" "$dir/tests/LibName.cs" "$dir/tests/Tests.cs" "$dir/tests/RuntimeTests.cs" \
  -main:Tests
# Sanitizer build: GOAP_SANITIZER_PRELOAD is the ASan runtime goap_shared needs (see
# bindings/CMakeLists.txt), preloaded here for the test program only, not for mcs.
LD_PRELOAD="${GOAP_SANITIZER_PRELOAD:-${LD_PRELOAD:-}}" \
  LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" mono --debug "$tmp/tests.exe"
