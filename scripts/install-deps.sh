#!/usr/bin/env bash
# Installs what building and testing libgoap needs, from Debian's packages, when missing.
# Safe to run again: it installs nothing when everything is present.
set -euo pipefail

need=()
command -v cmake >/dev/null 2>&1 || need+=(cmake)
command -v ninja >/dev/null 2>&1 || need+=(ninja-build)
command -v cc >/dev/null 2>&1 || need+=(gcc)
command -v c++ >/dev/null 2>&1 || need+=(g++)
command -v python3 >/dev/null 2>&1 || need+=(python3)
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
# The bindings' tests: Lua 5.4 (interpreter and headers) and Mono (C# compiler and runtime).
command -v lua5.4 >/dev/null 2>&1 || need+=(lua5.4)
[ -e /usr/include/lua5.4/lua.h ] || need+=(liblua5.4-dev)
command -v mcs >/dev/null 2>&1 || need+=(mono-mcs)
command -v mono >/dev/null 2>&1 || need+=(mono-runtime)
# The C# layout test's i386 half: a C compiler that builds 32-bit programs (x86_64 hosts).
if [ "$(uname -m)" = x86_64 ] && command -v cc >/dev/null 2>&1 &&
   ! echo 'int main(void) { return 0; }' | cc -m32 -x c - -o /dev/null >/dev/null 2>&1; then
  need+=(gcc-multilib)
fi
if [ "${GOAP_NEED_CLANG:-0}" = 1 ]; then
  command -v clang >/dev/null 2>&1 || need+=(clang)
  # libFuzzer and the sanitizer runtimes
  ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 ||
    need+=(libclang-rt-dev)
fi

if [ ${#need[@]} -gt 0 ]; then
  echo "install-deps: installing ${need[*]}"
  sudo=""
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo=sudo; else
      echo "install-deps: need root (or sudo) to install: ${need[*]}" >&2
      exit 1
    fi
  fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq "${need[@]}"
fi

# The real-browser tests (tests/browser): Chromium, Node.js, npm and emscripten from Debian,
# playwright-core from npm into tests/browser/node_modules. Optional: when they cannot be
# installed (no root, no network) this says so and the tests skip; nothing else depends on them.
if [ "${GOAP_NO_BROWSER:-0}" != 1 ]; then
  root=$(cd "$(dirname "$0")/.." && pwd)
  bneed=()
  command -v chromium >/dev/null 2>&1 || bneed+=(chromium)
  command -v node >/dev/null 2>&1 || bneed+=(nodejs)
  command -v npm >/dev/null 2>&1 || bneed+=(npm)
  # emscripten builds the browser playground (scripts/web.sh, CTest browser_playground)
  command -v emcc >/dev/null 2>&1 || bneed+=(emscripten)
  if [ ${#bneed[@]} -gt 0 ]; then
    bsudo=""
    if [ "$(id -u)" != 0 ] && command -v sudo >/dev/null 2>&1; then bsudo=sudo; fi
    if [ "$(id -u)" = 0 ] || [ -n "$bsudo" ]; then
      echo "install-deps: installing ${bneed[*]} (for the browser test)"
      { $bsudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $bsudo apt-get install -y -qq "${bneed[@]}"; } ||
        echo "install-deps: could not install ${bneed[*]}: the browser test will be skipped" >&2
    else
      echo "install-deps: ${bneed[*]} missing and no root: the browser test will be skipped" >&2
    fi
  fi
  if command -v npm >/dev/null 2>&1 && [ ! -d "$root/tests/browser/node_modules/playwright-core" ]; then
    echo "install-deps: npm install playwright-core into tests/browser/node_modules"
    (cd "$root/tests/browser" && npm install --no-audit --no-fund --silent) ||
      echo "install-deps: could not install playwright-core: the browser test will be skipped" >&2
  fi
fi
