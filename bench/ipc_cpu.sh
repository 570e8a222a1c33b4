#!/usr/bin/env bash
# bench/ipc_cpu.sh -- CPU time (user seconds) and search statistics of `goap pddl` on chosen
# IPC instances, for one or more builds side by side (issue 18: on a shared machine the wall
# time of a run depends on the other users' load, its CPU time much less).
#
# usage: bench/ipc_cpu.sh MS GOAP [GOAP...] -- DOMAIN/INSTANCE [DOMAIN/INSTANCE...]
#   MS        the time budget of each run in milliseconds (wall clock, `--max-ms`)
#   GOAP      a `goap` binary (e.g. build/goap and a build of an older commit)
#   instances are named by their folder and file under the benchmarks, without `.pddl`
#   (blocks/probBLOCKS-10-0). The benchmarks are read from ../shared/benchmarks/pddl or
#   $GOAP_PDDL_BENCH. Each line: instance, binary, the `--stats` line, user s, peak KB, load.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bench="${GOAP_PDDL_BENCH:-$root/../shared/benchmarks/pddl}"
[ $# -ge 4 ] || { sed -n 2,12p "$0"; exit 2; }
ms=$1; shift
goaps=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do goaps+=("$1"); shift; done
[ $# -gt 0 ] && shift
if [ ! -d "$bench" ]; then echo "skipped: $bench not found"; exit 0; fi
ulimit -v 6000000
for x in "$@"; do
  d=$(dirname "$x")
  for g in "${goaps[@]}"; do
    out=$(/usr/bin/time -f "%U user s, %M KB" "$g" pddl "$bench/$d/domain.pddl" "$bench/$x.pddl" \
            --max-ms "$ms" 2>&1 >/dev/null | grep -E '^; search|user s' | tr '\n' ' ')
    echo "$x $g: $out load $(cut -d' ' -f1 /proc/loadavg)"
  done
done
