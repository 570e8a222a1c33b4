#!/usr/bin/env bash
# Checks scripts/amalgamate.py on small made-up trees: names two files declare are renamed
# for one file's section and the result compiles; a clash between two internal headers and
# conflicting feature-test macros make it fail, naming the files; a module that includes
# <pthread.h> is compiled unless GOAP_NO_THREADS is defined; a new public header is picked up.
# Prints "N passed, M failed". Usage: selftest.sh SOURCE_DIR
set -uo pipefail
src=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
cc=$(command -v cc || command -v gcc || command -v clang)

tree() { # a minimal library: core with a static helper, and a public header
  rm -rf "$tmp/t" && mkdir -p "$tmp/t/scripts" "$tmp/t/include/goap" "$tmp/t/src/core" "$tmp/t/src/extra"
  cp "$src/scripts/amalgamate.py" "$tmp/t/scripts/"
  printf '#ifndef GOAP_GOAP_H\n#define GOAP_GOAP_H\n#define GOAP_VERSION_STRING "9.9.9"\nint goap_a(void);\n#endif\n' >"$tmp/t/include/goap/goap.h"
  printf '#ifndef GOAP_EXTRA_H\n#define GOAP_EXTRA_H\n#include "goap.h"\nint goap_b(void);\n#endif\n' >"$tmp/t/include/goap/extra.h"
  printf '#include "goap/goap.h"\n#define HELPER 1\nenum { MODE_IDLE };\nstatic int helper(void) { return HELPER + MODE_IDLE; }\nint goap_a(void) { return helper(); }\n' >"$tmp/t/src/core/a.c"
}

# 1. clashing statics, enum constants and macros between .c files: renamed, compiles, runs
tree
printf '#include "goap/extra.h"\n#define HELPER 2\nenum { MODE_IDLE = 5 };\nstatic int helper(void) { return HELPER + MODE_IDLE; }\nint goap_b(void) { return helper(); }\n' >"$tmp/t/src/extra/b.c"
if python3 "$tmp/t/scripts/amalgamate.py" "$tmp/out" >"$tmp/log" 2>&1 &&
   grep -q "renamed to helper__extra_b" "$tmp/log" && grep -q "extra.h" "$tmp/out/goap.h" &&
   [ "$(grep -n 'GOAP_EXTRA_H' "$tmp/out/goap.h" | head -1 | cut -d: -f1)" -gt \
     "$(grep -n 'GOAP_GOAP_H' "$tmp/out/goap.h" | head -1 | cut -d: -f1)" ]; then ok
else bad "renaming clashing statics"; cat "$tmp/log" >&2; fi
printf '#include "goap.h"\n#include <stdio.h>\nint main(void) { printf("%%d %%d\\n", goap_a(), goap_b()); return 0; }\n' >"$tmp/out/main.c"
if (cd "$tmp/out" && $cc -std=c11 -Wall -Wextra -Werror main.c goap.c -o main && [ "$(./main)" = "1 7" ])
then ok; else bad "renamed amalgamation does not compile or run as the separate files"; fi

# 2. two internal headers declaring one name: an error naming both
tree
printf 'static int shared_name;\n' >"$tmp/t/src/core/a.h"
printf 'static int shared_name;\n' >"$tmp/t/src/extra/b.h"
printf '#include "a.h"\nint goap_x(void);\nint goap_x(void) { return shared_name; }\n' >>"$tmp/t/src/core/a.c"
printf '#include "b.h"\nint goap_b(void) { return shared_name; }\n' >"$tmp/t/src/extra/b.c"
if python3 "$tmp/t/scripts/amalgamate.py" "$tmp/out2" >"$tmp/log" 2>&1; then
  bad "a clash between two internal headers was not detected"
else
  grep -q "src/core/a.h" "$tmp/log" && grep -q "src/extra/b.h" "$tmp/log" && ok ||
    { bad "the error does not name both headers"; cat "$tmp/log" >&2; }
fi

# 3. conflicting feature-test macros: an error
tree
sed -i '1i #define _POSIX_C_SOURCE 200809L' "$tmp/t/src/core/a.c"
printf '#define _POSIX_C_SOURCE 199309L\n#include "goap/extra.h"\nint goap_b(void) { return 0; }\n' >"$tmp/t/src/extra/b.c"
if python3 "$tmp/t/scripts/amalgamate.py" "$tmp/out3" >"$tmp/log" 2>&1; then
  bad "conflicting _POSIX_C_SOURCE values were not detected"
else grep -q "_POSIX_C_SOURCE" "$tmp/log" && ok || { bad "unclear error"; cat "$tmp/log" >&2; }; fi

# 4. a threaded module: behind GOAP_NO_THREADS, compiles both ways
tree
printf '#define _POSIX_C_SOURCE 200809L\n#include <pthread.h>\n#include "goap/extra.h"\nint goap_b(void) { pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER; return pthread_mutex_lock(&m) + pthread_mutex_unlock(&m); }\n' >"$tmp/t/src/extra/b.c"
if python3 "$tmp/t/scripts/amalgamate.py" "$tmp/out4" >"$tmp/log" 2>&1 &&
   grep -q "#ifndef GOAP_NO_THREADS" "$tmp/out4/goap.c" &&
   (cd "$tmp/out4" && $cc -std=c11 -Wall -Wextra -Werror -c goap.c -o a.o -pthread &&
    $cc -std=c11 -Wall -Wextra -Werror -DGOAP_NO_THREADS -c goap.c -o b.o) >>"$tmp/log" 2>&1 &&
   nm "$tmp/out4/a.o" | grep -q " T goap_b" && ! nm "$tmp/out4/b.o" | grep -q " T goap_b"; then ok
else bad "threaded module"; cat "$tmp/log" >&2; fi

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
