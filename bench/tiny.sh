#!/usr/bin/env bash
# bench/tiny.sh -- whole `goap pddl` runs on the tiny IPC instances (issue 4: "under 10 ms").
#
# usage: bench/tiny.sh [BUILD_DIR] [RUNS] [--instr]
#   BUILD_DIR  a Release build (default: build); RUNS per instance (default 11; the median is
#   reported); --instr also counts instructions per whole run with valgrind's callgrind
#   (stable on a loaded machine, unlike wall time; needs valgrind, slow).
# The tiny instances are those of ../shared/benchmarks/pddl/optimal.csv (or $GOAP_PDDL_BENCH)
# with a listed optimum that Fast Downward finishes in at most 0.55 s, its translator included,
# minus barman (not solved by either within that time): 49 instances. Every run's cost is
# checked against the listed optimum. Prints a per-instance table, the median wall time, the
# count under 10 ms, the load average and the start-up floor (/bin/true and `goap --version`
# through the same harness) at start and end. Wall times are taken by goap_bench_runs (bench/
# runs.c: fork, exec, wait from a small C parent) when BUILD_DIR has it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
runs=${2:-11}
instr=${3:-}
bench="${GOAP_PDDL_BENCH:-$root/../shared/benchmarks/pddl}"
if [ ! -f "$bench/optimal.csv" ]; then
  echo "skipped: $bench/optimal.csv not found"
  exit 0
fi
exec python3 - "$build/goap" "$bench" "$runs" "$instr" <<'PY'
import csv, os, re, statistics, subprocess, sys, time
goap, bench, runs, instr = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4] == "--instr"
rows = [r for r in csv.DictReader(open(os.path.join(bench, "optimal.csv")))
        if r["optimal_cost"].strip() and r["fd_total_s"].strip()
        and float(r["fd_total_s"]) <= 0.55 and not r["domain"].startswith("barman")]
print("load average at start: %s" % open("/proc/loadavg").read().split()[0])

# Wall times come from goap_bench_runs (a small C parent: fork, exec, wait) when the build has
# it; a Python parent adds 2-3 ms of its own to every run.
runner = os.path.join(os.path.dirname(goap), "bench", "goap_bench_runs")
if not os.access(runner, os.X_OK):
    runner = None
print("timed by: %s" % (runner or "python subprocess (no goap_bench_runs in the build)"))

def timed(cmd, n):
    """(median ms, min ms, median minor page faults or None) of n whole runs of cmd"""
    if runner:
        out = subprocess.run([runner, str(n)] + cmd, stdout=subprocess.PIPE).stdout.decode().split()
        return float(out[0]), float(out[1]), int(out[3])
    ts = []
    for _ in range(n):
        t0 = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        ts.append(time.perf_counter() - t0)
    return 1000 * statistics.median(ts), 1000 * min(ts), None

def floor(cmd):
    return timed([os.path.realpath(cmd[0]) if os.path.sep in cmd[0] else "/bin/" + cmd[0]] + cmd[1:],
                 max(runs, 11) * 3)[0]
# what any process costs through the same harness (fork, exec, dynamic loading, exit)
print("start-up floor (median): /bin/true %.1f ms, goap --version %.1f ms" % (
    floor(["true"]), floor([goap, "--version"])))
print("| domain | instance | cost | median ms | min ms | page faults |%s" % (
    " instructions |" if instr else ""))
print("|---|---|---:|---:|---:|---:|%s" % ("---:|" if instr else ""))
meds, ins, flts, bad = [], [], [], 0
for r in rows:
    d = os.path.join(bench, r["domain"], r["domain_file"])
    p = os.path.join(bench, r["domain"], r["problem_file"])
    out = subprocess.run([goap, "pddl", d, p], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL).stdout.decode()
    med, mn, flt = timed([goap, "pddl", d, p], runs)
    m = re.search(r"; cost = (\d+)", out)
    cost = m.group(1) if m else "-"
    if cost != r["optimal_cost"].strip():
        bad += 1
        cost += " (want %s)" % r["optimal_cost"].strip()
    meds.append(med)
    if flt is not None:
        flts.append(flt)
    extra = ""
    if instr:
        cg = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                             goap, "pddl", d, p], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE).stderr.decode()
        n = int(re.search(r"refs:\s+([\d,]+)", cg).group(1).replace(",", ""))
        ins.append(n)
        extra = " %.2f M |" % (n / 1e6)
    print("| %s | %s | %s | %.1f | %.1f | %s |%s" % (r["domain"], r["instance"], cost, med, mn,
                                                    "-" if flt is None else flt, extra),
          flush=True)
print()
print("instances: %d, wrong cost: %d" % (len(rows), bad))
print("median of per-instance medians: %.1f ms; under 10 ms: %d of %d; worst %.1f ms" % (
    statistics.median(meds), sum(1 for x in meds if x < 10), len(meds), max(meds)))
if flts:
    print("page faults per run: median %d, most %d" % (statistics.median(flts), max(flts)))
if instr:
    print("instructions: median %.2f M, total %.0f M, under 10 M: %d" % (
        statistics.median(ins) / 1e6, sum(ins) / 1e6, sum(1 for x in ins if x < 10e6)))
print("start-up floor at end (median): /bin/true %.1f ms, goap --version %.1f ms" % (
    floor(["true"]), floor([goap, "--version"])))
print("load average at end: %s" % open("/proc/loadavg").read().split()[0])
sys.exit(1 if bad else 0)
PY
