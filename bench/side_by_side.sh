#!/usr/bin/env bash
# bench/side_by_side.sh -- the figures of bench/README.md and the README, in one run anyone can
# repeat: goap_bench's game-like and alternating cases, RUNS times each, with the median and
# spread of the runs' medians, the conditions (load average, CPU MHz, compiler), instructions
# per plan (perf stat when the CPU counters work, else callgrind) and, when GPGOAP_DIR names a
# GPGOAP checkout, GPGOAP on the same cases through bench/peers/gpgoap_harness.c, with its
# instructions per plan counted the same way (the harness's --case/--reps counting mode) and
# the two ratios side by side: time (GPGOAP us / libgoap us) and instructions (GPGOAP's / libgoap's).
#
#   bench/side_by_side.sh                       # build/ must hold a Release build
#   RUNS=9 BUILD=build-rel bench/side_by_side.sh
#   GPGOAP_DIR=$HOME/src/GPGOAP bench/side_by_side.sh
#   INSTR=0 bench/side_by_side.sh               # no instruction counts
#   TIMED=1 bench/side_by_side.sh               # libgoap requests read the clock (--timed)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
RUNS=${RUNS:-5}
INSTR=${INSTR:-1}
TIMED=${TIMED:-0}
BENCH="$BUILD/bench/goap_bench"
CASES=(gpgoap_soldier alt_gpgoap_soldier chain_8_0 alt_chain_8 chain_60_0 alt_chain_60
       npc_40 npc_40_cbconst npc_40_callbacks npc_40_agents_1000)
[ -x "$BENCH" ] || { echo "side_by_side: $BENCH not built (cmake --build $BUILD --target goap_bench)" >&2; exit 2; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

echo "== conditions"
echo "date:      $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "machine:   $(uname -m), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ //')"
mhz() { awk -F: '/cpu MHz/ {printf "%s%.0f", s, $2; s=" "}' /proc/cpuinfo 2>/dev/null; }
echo "cpu MHz:   $(mhz || true) (before)"
echo "load avg:  $(cut -d' ' -f1-3 /proc/loadavg) (before)"
echo "requests:  $([ "$TIMED" = 1 ] && echo 'GOAP_REQUEST_TIMED (two clock reads each)' || echo 'default (no time budget: no clock reads)')"
echo "compiler:  $(grep -m1 '^CMAKE_C_COMPILER:' "$BUILD/CMakeCache.txt" 2>/dev/null | cut -d= -f2) $(grep -m1 '^CMAKE_BUILD_TYPE:' "$BUILD/CMakeCache.txt" 2>/dev/null | cut -d= -f2)"

args=()
for c in "${CASES[@]}"; do args+=(--case "=$c"); done
mode=()
[ "$TIMED" = 1 ] && mode=(--timed)
args+=(${mode[@]+"${mode[@]}"})
if [ -n "${GPGOAP_DIR:-}" ]; then
  # which GPGOAP: its sources differ between commits (astar.c's heuristic in particular), so
  # the run names them by content (and by git commit when GPGOAP_DIR is a git checkout)
  echo "gpgoap:    $GPGOAP_DIR, sha256 $(cd "$GPGOAP_DIR" && for f in astar.c astar.h goap.c goap.h; do printf '%s:%s ' "$f" "$(sha256sum "$f" | cut -c1-12)"; done)"
  if git -C "$GPGOAP_DIR" rev-parse HEAD >/dev/null 2>&1; then echo "gpgoap:    commit $(git -C "$GPGOAP_DIR" rev-parse HEAD)"; fi
  cc -std=c99 -O3 -DNDEBUG -I"$GPGOAP_DIR" bench/peers/gpgoap_harness.c "$GPGOAP_DIR/goap.c" \
     "$GPGOAP_DIR/astar.c" -o "$TMP/gpgoap_harness"
  echo "gpgoap:    built with cc -std=c99 -O3 -DNDEBUG ($(cc --version | head -1))"
fi
GP_CASES=(gpgoap_soldier alt_gpgoap_soldier chain_8_0 alt_chain_8 chain_60_0 alt_chain_60)
# the two sides alternate run by run, so that both see the machine's speed levels alike
for r in $(seq 1 "$RUNS"); do
  "$BENCH" --json "${args[@]}" >> "$TMP/libgoap.jsonl"
  if [ -n "${GPGOAP_DIR:-}" ]; then "$TMP/gpgoap_harness" | grep '^{' >> "$TMP/gpgoap.jsonl"; fi
done
echo "load avg:  $(cut -d' ' -f1-3 /proc/loadavg) (after)"
echo "cpu MHz:   $(mhz || true) (after)"

# instructions per plan: the difference between 1200 and 200 timed rounds, per plan
instr_tool=none
if [ "$INSTR" = 1 ]; then
  if perf stat -x, -e instructions true 2>&1 | grep -q '^[0-9]'; then
    instr_tool=perf
  elif command -v valgrind >/dev/null; then
    instr_tool=callgrind
  fi
fi
count_cmd() { # command... -> instructions of the whole run
  if [ "$instr_tool" = perf ]; then
    perf stat -x, -e instructions "$@" 2>&1 >/dev/null | awk -F, '/instructions/ {print $1}'
  else
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null | awk '/Collected/ {print $NF}'
  fi
}
count() { # case reps -> instructions of goap_bench's whole run
  count_cmd "$BENCH" --json ${mode[@]+"${mode[@]}"} --case "=$1" --reps "$2"
}
# GPGOAP: the harness's counting mode, one warm-up round then exactly N rounds, each round
# between two clock reads as in goap_bench --reps (so the per-round overhead is alike)
count_gp() { count_cmd "$TMP/gpgoap_harness" --case "$1" --reps "$2"; }
: > "$TMP/instr.txt"
: > "$TMP/instr_gp.txt"
if [ "$instr_tool" != none ]; then
  for c in "${CASES[@]}"; do
    lo=20; hi=120
    case "$c" in npc_40_agents_*) lo=1; hi=2 ;; npc_*) lo=2; hi=12 ;; esac
    a=$(count "$c" $lo); b=$(count "$c" $hi)
    echo "$c $a $b $lo $hi" >> "$TMP/instr.txt"
  done
  if [ -n "${GPGOAP_DIR:-}" ]; then
    for c in "${GP_CASES[@]}"; do
      lo=20; hi=120
      case "$c" in *chain_60*) lo=2; hi=12 ;; esac
      a=$(count_gp "$c" $lo); b=$(count_gp "$c" $hi)
      echo "$c $a $b $lo $hi" >> "$TMP/instr_gp.txt"
    done
  fi
fi

python3 - "$TMP" "$instr_tool" <<'EOF'
import json, os, statistics, sys
tmp, tool = sys.argv[1], sys.argv[2]
def load(name):
    runs = {}
    p = os.path.join(tmp, name)
    if os.path.exists(p):
        for line in open(p):
            d = json.loads(line)
            if "ns_per_plan" not in d:  # npc_40_agents_1000's second line: the hit rates
                runs[d["case"]][-1].update(d)
                continue
            runs.setdefault(d["case"], []).append(d)
    return runs
lib, gp = load("libgoap.jsonl"), load("gpgoap.jsonl")
def per_plan(name, runs):  # instructions per plan: difference of two run lengths, per plan
    out = {}
    for line in open(os.path.join(tmp, name)):
        f = line.split()
        if len(f) == 5:
            c, a, b, lo, hi = f
            out[c] = (int(b) - int(a)) / ((int(hi) - int(lo)) * (runs[c][0]["requests"] if c in runs else 1))
    return out
instr, instr_gp = per_plan("instr.txt", lib), per_plan("instr_gp.txt", gp)
def us(v): return "%.3f" % (v / 1e3) if v < 1e6 else "%.0f" % (v / 1e3)
print("\n== libgoap (goap_bench, astar/default): median of %d runs' medians [fastest run .. slowest run], us per plan" % len(next(iter(lib.values()))))
print("%-18s %8s %24s %14s %9s %7s %8s %s" % ("case", "req/rnd", "us/plan [spread]", "instr/plan", "expanded", "cost", "optimal", "callbacks/plan"))
for c, r in lib.items():
    t = [x["ns_per_plan"] for x in r]
    med = statistics.median(t)
    ins = "%.0f" % instr[c] if c in instr else "-"
    print("%-18s %8d %10s [%s .. %s] %14s %9d %7g %8s %.1f" % (c, r[0]["requests"], us(med), us(min(t)), us(max(t)), ins,
          r[0]["expanded"], r[0]["cost"], "yes" if all(x["optimal"] for x in r) else "NO", r[0].get("callbacks_per_plan", 0)))
print("(expanded and cost: sums over one round of the case's requests; npc_40_agents_1000: per agent, over a frame of 1,000)")
if "npc_40_agents_1000" in lib:
    r = lib["npc_40_agents_1000"]
    print("npc_40_agents_1000: plan cache hit rate %.1f%% (first frame), %.1f%% (second frame)"
          % (100 * r[0].get("cache_hit_rate_first_frame", 0), 100 * r[0].get("cache_hit_rate_second_frame", 0)))
if "npc_40" in instr and "npc_40_cbconst" in instr and lib["npc_40_cbconst"][0]["callbacks_per_plan"] > 0:
    cb = lib["npc_40_cbconst"][0]["callbacks_per_plan"]
    print("callback overhead: %.0f instructions per plan for %.1f callbacks = %.0f instructions per callback "
          "(npc_40_cbconst - npc_40: same plans and expansions; includes asking them per request and checking that the selection stands)"
          % (instr["npc_40_cbconst"] - instr["npc_40"], cb, (instr["npc_40_cbconst"] - instr["npc_40"]) / cb))
print("instructions: %s" % {"perf": "perf stat -e instructions", "callgrind": "valgrind --tool=callgrind (difference of two run lengths)", "none": "not measured"}[tool])
if gp:
    print("\n== GPGOAP (GPGOAP_DIR=%s), same cases, same run" % os.environ.get("GPGOAP_DIR", ""))
    print("%-18s %24s %12s %7s %17s %17s" % ("case", "us/plan [spread]", "instr/plan", "cost", "time ratio", "instr ratio"))
    for c, r in gp.items():
        t = [x["ns_per_plan"] for x in r]
        med = statistics.median(t)
        ratio = med / statistics.median([x["ns_per_plan"] for x in lib[c]]) if c in lib else float("nan")
        ins = "%.0f" % instr_gp[c] if c in instr_gp else "-"
        iratio = "%.1fx" % (instr_gp[c] / instr[c]) if c in instr_gp and c in instr else "-"
        print("%-18s %10s [%s .. %s] %12s %7d %16.1fx %17s" % (c, us(med), us(min(t)), us(max(t)), ins, r[0]["cost"], ratio, iratio))
    print("(time ratio: GPGOAP's median us / libgoap's; instr ratio: GPGOAP's instructions per plan / libgoap's, "
          "both counted by %s; above 1x, libgoap is faster)" % {"perf": "perf stat", "callgrind": "callgrind", "none": "-"}[tool])
else:
    print("\n== GPGOAP: not run (set GPGOAP_DIR to a GPGOAP checkout). Figures quoted from issue 18's")
    print("   side-by-side run on the same machine, NOT measured here: soldier 1.2 us, chain_60_0 67 us.")
    for c, g in (("alt_gpgoap_soldier", 1200.0), ("alt_chain_60", 67000.0)):
        if c in lib:
            print("   %-18s libgoap %s us -> %.1fx against the quoted figure" % (c, us(statistics.median([x["ns_per_plan"] for x in lib[c]])),
                  g / statistics.median([x["ns_per_plan"] for x in lib[c]])))
EOF
