#!/usr/bin/env python3
"""tests/hddl/ipc_hddl.py -- `goap hddl` on the shared IPC HTN benchmarks, every plan verified.

usage: ipc_hddl.py GOAP BENCH_DIR [--ms MS] [--min-solved N] [--table FILE]

--min-solved N fails the run when fewer than N problems (or all, if fewer exist) are solved.

For every problem BENCH_DIR/<Domain>/*.hddl (but the domain files): plans with `goap hddl` within
a per-problem time limit (--ms, or the environment variable GOAP_HDDL_MS, default 5000), and
verifies every plan found with `goap verify-htn` (independent of the planner). A problem is
solved when the planner finds a plan and the verifier says it is valid. Fails (exit 1) on an
invalid plan, on a crash or load error (exit status other than 0 and 1) of either tool, and
when the benchmarks hold no problem. Prints solved/total per domain with the time per solved
problem, and a final 'solved S of T' and 'N passed, M failed' (one check per problem: not
invalid). Exits 77 (a CTest skip) when BENCH_DIR is absent.

A problem P.hddl is planned with the domain P-domain.hddl beside it when there is one (the
IPC's per-problem domains: Entertainment, Monroe), else with the folder's domain.hddl; a
problem with neither is a failure, never skipped.

--table FILE writes a Markdown table (domain, solved/total, total time and plan length of
the solved problems, and per problem: time in s / plan length, '-' unsolved) for docs.
"""
import re
import os
import subprocess
import sys
import tempfile
import time


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        print(__doc__)
        return 2
    goap, bench = args[0], os.environ.get("GOAP_HDDL_BENCH_DIR", args[1])
    ms = float(os.environ.get("GOAP_HDDL_MS", "5000"))
    table = None
    min_solved = None
    i = 2
    while i < len(args):
        if args[i] == "--ms" and i + 1 < len(args):
            ms = float(args[i + 1])
            i += 2
        elif args[i] == "--min-solved" and i + 1 < len(args):
            min_solved = int(args[i + 1])
            i += 2
        elif args[i] == "--table" and i + 1 < len(args):
            table = args[i + 1]
            i += 2
        else:
            print("ipc_hddl.py: unknown argument " + args[i])
            return 2
    if not os.path.isdir(bench):
        print("skipped: no HDDL benchmarks at " + bench)
        return 77
    passed = failed = solved = total = 0
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for dom in sorted(os.listdir(bench)):
            ddir = os.path.join(bench, dom)
            if not os.path.isdir(ddir):
                continue
            shared = os.path.join(ddir, "domain.hddl")
            probs = sorted(p for p in os.listdir(ddir)
                           if p.endswith(".hddl") and p != "domain.hddl" and not p.endswith("-domain.hddl"))
            if not probs:
                continue
            dsolved = 0
            dtime = 0.0
            dlen = 0
            times = []
            for p in probs:
                total += 1
                pfile = os.path.join(ddir, p)
                dfile = os.path.join(ddir, p[:-len(".hddl")] + "-domain.hddl")
                if not os.path.isfile(dfile):
                    dfile = shared
                if not os.path.isfile(dfile):
                    failed += 1
                    times.append("error")
                    print("FAIL %s/%s: no domain (neither %s-domain.hddl nor domain.hddl)" % (dom, p, p[:-5]))
                    continue
                plan = os.path.join(tmp, "plan")
                if os.path.exists(plan):
                    os.remove(plan)
                t0 = time.monotonic()
                try:
                    r = subprocess.run([goap, "hddl", dfile, pfile, "--time-limit", "%g" % ms, "-o", plan],
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                       universal_newlines=True, timeout=ms / 1000.0 + 60)
                    rc = r.returncode
                    err = r.stderr.strip()
                except subprocess.TimeoutExpired:
                    rc, err = -1, "did not stop within its time limit + 60 s"
                dt = time.monotonic() - t0
                what = "%s/%s" % (dom, p)
                if rc == 1:
                    passed += 1
                    times.append("-")
                    continue
                if rc != 0:
                    failed += 1
                    times.append("error")
                    print("FAIL %s: goap hddl exit %d: %s" % (what, rc, err.splitlines()[-1] if err else ""))
                    continue
                v = subprocess.run([goap, "verify-htn", dfile, pfile, plan], stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, universal_newlines=True)
                out = (v.stdout + v.stderr).strip()
                if v.returncode == 0 and out.startswith("valid:"):
                    passed += 1
                    solved += 1
                    dsolved += 1
                    m = re.match(r"valid: (\d+) primitive", out)
                    length = int(m.group(1)) if m else 0
                    dtime += dt
                    dlen += length
                    times.append("%.2f/%d" % (dt, length) if table else "%.2f" % dt)
                else:
                    failed += 1
                    times.append("INVALID")
                    print("FAIL %s: the plan does not verify (exit %d): %s" % (what, v.returncode, out))
            print("%s: solved %d of %d (s: %s)" % (dom, dsolved, len(probs), " ".join(times)))
            rows.append((dom, dsolved, len(probs), dtime, dlen, times))
    if total == 0:
        print("FAIL: no HDDL problems under " + bench)
        failed += 1
    print("solved %d of %d (limit %g ms per problem)" % (solved, total, ms))
    if min_solved is not None and solved < min(min_solved, total):
        print("FAIL: solved %d, expected at least %d" % (solved, min(min_solved, total)))
        failed += 1
    print("%d passed, %d failed" % (passed, failed))
    if table:
        with open(table, "w") as f:
            f.write("| domain | solved | time of the solved (s) | plan length of the solved |"
                    " per problem: s/length (- unsolved) |\n|---|---|---|---|---|\n")
            tt = tl = 0
            for dom, s, n, dt, dl, times in rows:
                tt += dt
                tl += dl
                f.write("| %s | %d/%d | %.2f | %d | %s |\n" % (dom, s, n, dt, dl, " ".join(times)))
            f.write("| **total** | **%d/%d** | %.2f | %d | |\n" % (solved, total, tt, tl))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
