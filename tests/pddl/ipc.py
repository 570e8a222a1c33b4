#!/usr/bin/env python3
"""tests/pddl/ipc.py -- the external check on the IPC benchmarks in ../shared/benchmarks/pddl.

usage: ipc.py GOAP BENCH_DIR [--ms MS] [--table FILE] [--only DOMAIN[,DOMAIN...]] [--listed-only]
              [--arg OPTION]...

For every instance listed in BENCH_DIR/optimal.csv: plans with `goap pddl` in its default
(optimal) configuration within a per-instance time limit (--ms, or the environment variable
GOAP_IPC_MS, default 500), checks that every plan found has exactly the listed optimal cost
(when one is listed), and validates every plan with `goap validate` (which must agree on the
cost). Prints solved/total per domain and a final 'N passed, M failed' line (one check per
instance). Exits 77 (a CTest skip) when BENCH_DIR is absent, 1 when a check fails.

--table FILE writes a Markdown table: per domain the instances solved by us and by Fast
Downward (listed costs), our time on each solved instance, and on the instances Fast Downward
finishes in under 1 s our total time vs its fd_total_s. --listed-only skips the instances
Fast Downward did not solve (no listed cost); they count as unsolved. --arg passes one more
option to every `goap pddl` run (e.g. --arg --no-stubborn).
"""
import csv
import json
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
    goap, bench = args[0], args[1]
    ms = float(os.environ.get("GOAP_IPC_MS", "500"))
    table = None
    only = None
    listed_only = False
    extra = []
    i = 2
    while i < len(args):
        if args[i] == "--ms":
            ms = float(args[i + 1])
            i += 2
        elif args[i] == "--table":
            table = args[i + 1]
            i += 2
        elif args[i] == "--arg":
            extra.append(args[i + 1])
            i += 2
        elif args[i] == "--listed-only":
            listed_only = True
            i += 1
        elif args[i] == "--only":
            only = set(args[i + 1].split(","))
            i += 2
        else:
            print("unknown argument", args[i])
            return 2
    csv_path = os.path.join(bench, "optimal.csv")
    if not os.path.isfile(csv_path):
        print("skipped: %s not found (the shared benchmarks are absent)" % csv_path)
        return 77
    rows = list(csv.DictReader(open(csv_path)))
    if only:
        rows = [r for r in rows if r["domain"] in only]
    passed = failed = 0
    per_domain = {}
    order = []
    results = []
    tmp = tempfile.mkdtemp(prefix="goap_ipc_")
    for r in rows:
        dom = r["domain"]
        if dom not in per_domain:
            per_domain[dom] = {"total": 0, "solved": 0, "fd": 0, "fd60": 0, "wrong": 0}
            order.append(dom)
        st = per_domain[dom]
        st["total"] += 1
        want = r["optimal_cost"].strip()
        if r["fd_total_s"].strip():
            st["fd60"] += 1
        if want:
            st["fd"] += 1
        elif listed_only:
            continue
        dfile = os.path.join(bench, dom, r["domain_file"])
        pfile = os.path.join(bench, dom, r["problem_file"])
        plan = os.path.join(tmp, "plan.txt")
        if os.path.exists(plan):
            os.remove(plan)
        cmd = [goap, "pddl", dfile, pfile, "--max-ms", str(ms), "-o", plan, "--json"] + extra
        t0 = time.monotonic()
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=ms / 1000.0 * 3 + 60)
        except subprocess.TimeoutExpired:
            print("FAIL %s %s: the run did not stop within its limit" % (dom, r["instance"]))
            failed += 1
            continue
        wall = time.monotonic() - t0
        name = "%s %s" % (dom, r["instance"])
        try:
            d = json.loads(p.stdout)
        except ValueError:
            print("FAIL %s: exit %d, no JSON: %s" % (name, p.returncode, p.stderr.strip()[:300]))
            failed += 1
            continue
        if d["status"] != "found":
            results.append((dom, r["instance"], None, wall, d, want, r))
            passed += 1  # not solved within the limit: allowed
            continue
        ok = True
        cost = d["cost"]
        if want and int(round(cost)) != int(want):
            print("FAIL %s: cost %s, the optimal cost is %s" % (name, cost, want))
            st["wrong"] += 1
            ok = False
        v = subprocess.run([goap, "validate", "--json", dfile, pfile, plan], capture_output=True,
                           text=True)
        try:
            vd = json.loads(v.stdout)
        except ValueError:
            vd = {"valid": False, "message": v.stderr.strip()[:300], "cost": None}
        if not vd["valid"] or v.returncode != 0:
            print("FAIL %s: the plan does not validate: %s" % (name, vd.get("message")))
            ok = False
        elif vd["cost"] != cost:
            print("FAIL %s: validate says cost %s, the planner %s" % (name, vd["cost"], cost))
            ok = False
        if ok:
            st["solved"] += 1
            passed += 1
        else:
            failed += 1
        results.append((dom, r["instance"], cost, wall, d, want, r))
    tot = sum(s["total"] for s in per_domain.values())
    sol = sum(s["solved"] for s in per_domain.values())
    fd = sum(s["fd"] for s in per_domain.values())
    print("%-26s %7s %6s %6s" % ("domain", "solved", "FD", "total"))
    for dom in order:
        s = per_domain[dom]
        print("%-26s %7d %6d %6d" % (dom, s["solved"], s["fd"], s["total"]))
    print("%-26s %7d %6d %6d   (limit %g ms per instance)" % ("all", sol, fd, tot, ms))
    if table:
        write_table(table, order, per_domain, results, ms)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


def write_table(path, order, per_domain, results, ms):
    out = []
    out.append("| domain | solved (goap) | FD solved in 60 s | listed optimal costs | instances |")
    out.append("|---|---:|---:|---:|---:|")
    for dom in order:
        s = per_domain[dom]
        out.append("| %s | %d | %d | %d | %d |" % (dom, s["solved"], s["fd60"], s["fd"], s["total"]))
    sol = sum(per_domain[d]["solved"] for d in order)
    fd60 = sum(per_domain[d]["fd60"] for d in order)
    fd = sum(per_domain[d]["fd"] for d in order)
    tot = sum(per_domain[d]["total"] for d in order)
    out.append("| **all** | **%d** | **%d** | %d | %d |" % (sol, fd60, fd, tot))
    out.append("")
    out.append("Per instance (time limit %g s; times are whole `goap pddl` runs, wall clock):" % (ms / 1000))
    out.append("")
    out.append("| domain | instance | optimal (FD) | goap cost | goap s | ground ms | expanded | FD total s |")
    out.append("|---|---|---:|---:|---:|---:|---:|---:|")
    tiny_us = tiny_fd = 0.0
    tiny_n = 0
    for dom, inst, cost, wall, d, want, r in results:
        fdt = r["fd_total_s"].strip()
        out.append("| %s | %s | %s | %s | %.3f | %.1f | %s | %s |" % (
            dom, inst, want or "-", "-" if cost is None else int(round(cost)), wall,
            d.get("ground_ms", 0.0), d.get("expanded", "-"), fdt or "-"))
        if cost is not None and fdt and float(fdt) < 1.0:
            tiny_n += 1
            tiny_us += wall
            tiny_fd += float(fdt)
    out.append("")
    out.append("Tiny instances (FD's whole run under 1 s, solved by both): %d; goap total %.2f s "
               "(mean %.1f ms), FD total %.2f s (mean %.1f ms)." % (
                   tiny_n, tiny_us, 1000 * tiny_us / max(tiny_n, 1), tiny_fd,
                   1000 * tiny_fd / max(tiny_n, 1)))
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    sys.exit(main())
