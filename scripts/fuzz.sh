#!/usr/bin/env bash
# Builds the libFuzzer targets with clang and runs each for a bounded time (default 60 s).
# Usage: scripts/fuzz.sh [SECONDS]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
secs="${1:-60}"
GOAP_NEED_CLANG=1 "$root/scripts/install-deps.sh"
build="$root/build-fuzz"
CC=clang CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DGOAP_BUILD_FUZZ=ON -DGOAP_BUILD_TESTS=OFF -DGOAP_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" -j2
for target in "$build"/fuzz/fuzz_*; do
  [ -x "$target" ] || continue
  name=$(basename "$target")
  corpus="$build/corpus-$name"
  mkdir -p "$corpus"
  seeds="$root/fuzz/corpus"
  echo "fuzz: $name for ${secs}s"
  dict=()
  [ -f "$root/fuzz/goap.dict" ] && dict=(-dict="$root/fuzz/goap.dict")
  # targets with seeds and a dictionary of their own: fuzz/corpus_X, fuzz/X.dict (fuzz_X)
  [ -d "$root/fuzz/corpus_${name#fuzz_}" ] && seeds="$root/fuzz/corpus_${name#fuzz_}"
  [ -f "$root/fuzz/${name#fuzz_}.dict" ] && dict=(-dict="$root/fuzz/${name#fuzz_}.dict")
  "$target" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
    -print_final_stats=1 "${dict[@]}" "$corpus" "$seeds" 2>&1 | tail -n 6
done
