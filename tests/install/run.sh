#!/usr/bin/env bash
# Installs the build tree into a temporary prefix, then builds the C API example as an outside
# project twice: with find_package(goap) and with pkg-config. Prints "N passed, M failed".
# Usage: run.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
build=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }

if cmake --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log" 2>&1; then ok; else
  bad "cmake --install"; cat "$tmp/install.log" >&2; fi
for f in include/goap/goap.h include/goap/file.h lib/pkgconfig/goap.pc \
         lib/cmake/goap/goapConfig.cmake bin/goap; do
  [ -e "$tmp/prefix/$f" ] && ok || bad "missing $f"
done

mkdir -p "$tmp/consumer"
cat >"$tmp/consumer/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.20)
project(consumer C)
find_package(goap 0.1 REQUIRED)
add_executable(consumer "$src/examples/c/soldier.c")
target_link_libraries(consumer PRIVATE goap::goap)
CMAKE
if cmake -S "$tmp/consumer" -B "$tmp/consumer/build" -DCMAKE_PREFIX_PATH="$tmp/prefix" \
     >"$tmp/c.log" 2>&1 && cmake --build "$tmp/consumer/build" >>"$tmp/c.log" 2>&1 &&
   "$tmp/consumer/build/consumer" >>"$tmp/c.log" 2>&1; then ok; else
  bad "find_package consumer"; cat "$tmp/c.log" >&2; fi

if command -v pkg-config >/dev/null 2>&1; then
  flags=$(PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig" pkg-config --cflags --libs goap)
  if cc -std=c11 "$src/examples/c/soldier.c" $flags -lm -o "$tmp/pc" >"$tmp/pc.log" 2>&1 &&
     "$tmp/pc" >>"$tmp/pc.log" 2>&1; then ok; else
    bad "pkg-config consumer"; cat "$tmp/pc.log" >&2; fi
else
  bad "pkg-config is not installed"
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
