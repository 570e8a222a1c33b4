#!/usr/bin/env bash
# Installs libgoap into temporary prefixes and builds outside projects against them:
#  * the build tree given (static libraries, and the goap_shared bundle);
#  * a second build of the sources with -DBUILD_SHARED_LIBS=ON (shared libraries with a
#    SOVERSION; their exported symbols checked against the headers).
# Each prefix is used twice, with find_package(goap) and with pkg-config, to build the core
# example (examples/c/soldier.c) and the agent example (examples/c/door_agent.c: the file
# format and the runtime), which are then run. Prints "N passed, M failed".
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

# consumers PREFIX LABEL: the two examples through find_package and through pkg-config.
consumers() {
  local prefix=$1 label=$2 dir="$tmp/consumer-$2"
  mkdir -p "$dir"
  cat >"$dir/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.20)
project(consumer C)
find_package(goap 0.2 REQUIRED)
add_executable(soldier "$src/examples/c/soldier.c")
target_link_libraries(soldier PRIVATE goap::goap)
add_executable(door_agent "$src/examples/c/door_agent.c")
target_link_libraries(door_agent PRIVATE goap::goap_file goap::goap_runtime)
CMAKE
  if cmake -S "$dir" -B "$dir/build" -DCMAKE_PREFIX_PATH="$prefix" >"$tmp/c.log" 2>&1 &&
     cmake --build "$dir/build" >>"$tmp/c.log" 2>&1 &&
     "$dir/build/soldier" >>"$tmp/c.log" 2>&1 &&
     "$dir/build/door_agent" "$src/examples/soldier.goap" >>"$tmp/c.log" 2>&1 &&
     grep -q "^ok: 3 plans" "$tmp/c.log"; then ok; else
    bad "$label: find_package consumers"; cat "$tmp/c.log" >&2; fi
  if [ "$label" = shared ]; then
    # linked against the shared libraries, found through the install's RPATH or the path
    # (ldd's output is read whole first: `ldd | grep -q` can fail under pipefail when grep
    # stops reading early and ldd gets SIGPIPE)
    local deps
    deps=$(LD_LIBRARY_PATH="$prefix/lib" ldd "$dir/build/door_agent" 2>&1 || true)
    if grep -q "libgoap_file.so.0.2" <<<"$deps"
    then ok; else bad "$label: door_agent is not linked with libgoap_file.so.0.2"; fi
  fi
  if command -v pkg-config >/dev/null 2>&1; then
    # exactly the line of docs/api.md, `cc my_game.c $(pkg-config --cflags --libs goap)`:
    # nothing added by hand (a static install must list -lm itself)
    local -x PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
    if cc "$src/examples/c/soldier.c" $(pkg-config --cflags --libs goap) -o "$dir/pc-soldier" \
         >"$tmp/pc.log" 2>&1 &&
       cc "$src/examples/c/door_agent.c" $(pkg-config --cflags --libs goap) -o "$dir/pc-agent" \
         >>"$tmp/pc.log" 2>&1 &&
       LD_LIBRARY_PATH="$prefix/lib" "$dir/pc-soldier" >>"$tmp/pc.log" 2>&1 &&
       LD_LIBRARY_PATH="$prefix/lib" "$dir/pc-agent" "$src/examples/soldier.goap" \
         >>"$tmp/pc.log" 2>&1; then ok; else
      bad "$label: pkg-config consumers"; cat "$tmp/pc.log" >&2; fi
  else
    bad "pkg-config is not installed"
  fi
}

# 1. The build tree as configured (static libraries by default).
if cmake --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log" 2>&1; then ok; else
  bad "cmake --install"; cat "$tmp/install.log" >&2; fi
for f in include/goap/goap.h include/goap/agent.h include/goap/file.h lib/pkgconfig/goap.pc \
         lib/cmake/goap/goapConfig.cmake lib/cmake/goap/goapTargets.cmake bin/goap; do
  [ -e "$tmp/prefix/$f" ] && ok || bad "missing $f"
done
for h in "$src"/include/goap/*.h; do   # every public header, whatever modules exist
  [ -e "$tmp/prefix/include/goap/$(basename "$h")" ] && ok || bad "header $(basename "$h") not installed"
done
ls "$tmp/prefix/lib/"libgoap_shared.so.0.2 >/dev/null 2>&1 && ok || bad "the goap_shared bundle is not installed"
consumers "$tmp/prefix" static

# 2. Shared libraries.
if cmake -S "$src" -B "$tmp/shared-build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
     -DBUILD_SHARED_LIBS=ON -DGOAP_BUILD_TESTS=OFF -DGOAP_BUILD_BENCH=OFF \
     -DGOAP_BUILD_BUNDLE=OFF >"$tmp/shared.log" 2>&1 &&
   cmake --build "$tmp/shared-build" -j2 >>"$tmp/shared.log" 2>&1 &&
   cmake --install "$tmp/shared-build" --prefix "$tmp/shared" >>"$tmp/shared.log" 2>&1; then ok
else bad "shared build and install"; tail -30 "$tmp/shared.log" >&2; fi
libs=()
for l in "$tmp"/shared/lib/libgoap*.so; do
  [ -e "$l" ] || continue
  base=$(basename "$l")
  libs+=("$l")
  # the SONAME carries the SOVERSION (major.minor before 1.0), and both links exist:
  # libX.so -> libX.so.0.2 -> libX.so.0.2.0
  soname=$(objdump -p "$l" | awk '/SONAME/ {print $2}')
  [ "$soname" = "$base.0.2" ] && [ -L "$l" ] && [ -e "$tmp/shared/lib/$soname" ] && ok ||
    bad "$base: SONAME '$soname', expected $base.0.2 with its links"
done
[ ${#libs[@]} -ge 3 ] && ok || bad "expected at least libgoap, libgoap_runtime, libgoap_file (got ${#libs[@]})"
ls "$tmp"/shared/lib/libgoap*.a >/dev/null 2>&1 && bad "static libraries in a shared install" || ok
if python3 "$src/tests/symbols/check.py" "$src/include/goap" "${libs[@]}" >"$tmp/sym.log" 2>&1
then ok; else bad "exported symbols of the shared libraries"; cat "$tmp/sym.log" >&2; fi
consumers "$tmp/shared" shared

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
