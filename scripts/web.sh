#!/usr/bin/env bash
# Builds libgoap for the browser (WebAssembly, emscripten) and the static site into
# build-web/site/: the playground (index.html), the JS API (goap.js), the wasm module embedded
# in goap-module.js (works from file:// and any static server, no network at run time) and
# the example domains. Prints the file to open. See docs/web.md.
# usage: scripts/web.sh [OUT_DIR]   (default: build-web in the repository)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out="${1:-$root/build-web}"
mkdir -p "$out" && out=$(cd "$out" && pwd)
site="$out/site"
# Debian's emcc needs its node modules (acorn, ...) on NODE_PATH.
export NODE_PATH="${NODE_PATH:+$NODE_PATH:}/usr/share/nodejs"
if ! command -v emcc >/dev/null 2>&1 || ! command -v python3 >/dev/null 2>&1; then
  "$root/scripts/install-deps.sh" || true
fi
if ! command -v emcc >/dev/null 2>&1; then
  echo "web.sh: emcc (emscripten) is not installed and scripts/install-deps.sh could not install it" >&2
  exit 3
fi
# emcc builds its system libraries into its cache on first use: Debian's is under /usr/share,
# writable by root only; otherwise use one of our own.
if [ -z "${EM_CACHE:-}" ] && [ ! -w /usr/share/emscripten/cache ]; then export EM_CACHE="$out/emcache"; fi
mkdir -p "$out/gen" "$out/obj" "$site/examples"

# The files the native build embeds at configure time (CMakeLists.txt), embedded the same way.
python3 "$root/web/embed.py" "$out/gen/embedded.c" \
  goap_cli_trace_viewer_html="$root/tools/goap/trace_viewer.html" \
  goap_cli_soldier_goap="$root/examples/soldier.goap" \
  goap_cli_squad_goap="$root/examples/squad.goap"

srcs=()
for d in base core format sim runtime htn tactics pddl hddl; do srcs+=("$root"/src/$d/*.c); done
srcs+=("$root"/tools/goap/*.c "$root"/web/src/*.c "$out/gen/embedded.c")

cflags=(-std=c11 -O2 -DNDEBUG -DGOAP_CLI_NO_ARENA -Dmain=goap_cli_main
  "-DGOAP_EXAMPLES_DIR=\"/examples\"" -I"$root/include" -I"$root/src" -I"$root/tools/goap"
  -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion -Wstrict-prototypes
  -Wmissing-prototypes -Wundef -Wcast-qual -Wwrite-strings -Werror)
# Compile each file once (only when it changed), then link.
objs=()
for s in "${srcs[@]}"; do
  rel=${s#"$root"/}; rel=${rel#"$out"/}
  o="$out/obj/${rel//\//_}.o"
  objs+=("$o")
  if [ ! -f "$o" ] || [ "$s" -nt "$o" ] || [ "$0" -nt "$o" ] || [ -n "$(find "$root/include" "$root/src" "$root/tools/goap" -name '*.h' -newer "$o" -print -quit)" ]; then
    extra=()
    # the tool's main() is compiled as goap_cli_main (web/src/web_cli.c declares it)
    [ "$s" = "$root/tools/goap/main.c" ] && extra=(-Wno-missing-prototypes)
    emcc "${cflags[@]}" "${extra[@]}" -c "$s" -o "$o"
  fi
done
link=(-O2 -sMODULARIZE=1 -sEXPORT_NAME=createGoapModule -sALLOW_MEMORY_GROWTH=1
  -sEXIT_RUNTIME=0 -sENVIRONMENT=web,worker,node -sFORCE_FILESYSTEM=1
  "-sEXPORTED_RUNTIME_METHODS=['ccall','cwrap','UTF8ToString','stringToUTF8','lengthBytesUTF8','FS']"
  "-sEXPORTED_FUNCTIONS=['_malloc','_free']")
# The site's module: the wasm embedded (base64) in the JS, so file:// works.
emcc "${objs[@]}" "${link[@]}" -sSINGLE_FILE=1 -o "$site/goap-module.js"
# The same module with a separate .wasm, only to report its size.
emcc "${objs[@]}" "${link[@]}" -o "$out/size/goap-module.js" 2>/dev/null ||
  { mkdir -p "$out/size"; emcc "${objs[@]}" "${link[@]}" -o "$out/size/goap-module.js"; }

cp -R "$root"/web/site/. "$site"/
cp "$root"/examples/*.goap "$site/examples/"
# What the pages need as scripts, since file:// forbids fetching files and workers from disk:
# the module's code as a string (goap.js starts its Web Worker from it), the examples and the
# trace viewer (tools/goap/trace_viewer.html, the very page `goap trace --html` writes).
python3 "$root/web/js_strings.py" "$site/goap-module-src.js" GOAP_MODULE_SOURCE "$site/goap-module.js"
python3 "$root/web/js_strings.py" "$site/trace-viewer.js" GOAP_TRACE_VIEWER_HTML "$root/tools/goap/trace_viewer.html"
python3 "$root/web/js_strings.py" "$site/examples.js" GOAP_EXAMPLES "$root"/examples/*.goap
wasm="$out/size/goap-module.wasm"
echo "web.sh: goap-module.wasm $(wc -c <"$wasm") bytes, $(gzip -9c "$wasm" | wc -c) gzipped"
echo "web.sh: open file://$site/index.html"
