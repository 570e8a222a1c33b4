#!/usr/bin/env python3
"""Transport (IPC 2020 total-order HTN track): N packages on a random connected road network
of about N locations (roads both ways), max(1, N // 4) trucks of capacity 2..4; one deliver
task per package, in a random order (the track's pfileNN.hddl shape).

usage: transport.py N [SEED]   -- prints the problem on stdout; deterministic per (N, SEED).
"""
import random
import sys


def problem(n, seed):
    rng = random.Random(seed * 7919 + n)
    nloc, ntruck, ncap = max(3, n), max(1, n // 4), 4
    locs = [f"city_loc_{i}" for i in range(nloc)]
    pk = [f"package_{i}" for i in range(n)]
    trucks = [f"truck_{i}" for i in range(ntruck)]
    caps = [f"capacity_{i}" for i in range(ncap + 1)]
    roads = set()
    for i in range(1, nloc):  # a random spanning tree, then a few more roads
        j = rng.randrange(i)
        roads |= {(i, j), (j, i)}
    for _ in range(nloc // 2):
        i, j = rng.randrange(nloc), rng.randrange(nloc)
        if i != j:
            roads |= {(i, j), (j, i)}
    objs = [f"{p} - package" for p in pk] + [f"{c} - capacity_number" for c in caps]
    objs += [f"{l} - location" for l in locs] + [f"{t} - vehicle" for t in trucks]
    order = list(range(n))
    rng.shuffle(order)
    lines = ["(define", f"\t(problem transport-{n}-{seed})", "\t(:domain  domain_htn)", "\t(:objects"]
    lines += ["\t\t" + o for o in objs] + ["\t)", "\t(:htn", "\t\t:parameters ()", "\t\t:ordered-subtasks (and"]
    lines += [f"\t\t (task{i} (deliver {pk[p]} {rng.choice(locs)}))" for i, p in enumerate(order)]
    lines += ["\t\t)", "\t)", "\t(:init"]
    lines += [f"\t\t(capacity_predecessor {caps[i]} {caps[i + 1]})" for i in range(ncap)]
    lines += [f"\t\t(road {locs[i]} {locs[j]})" for i, j in sorted(roads)]
    lines += [f"\t\t(at {p} {rng.choice(locs)})" for p in pk]
    lines += [f"\t\t(at {t} {rng.choice(locs)})" for t in trucks]
    lines += [f"\t\t(capacity {t} {caps[rng.randrange(2, ncap + 1)]})" for t in trucks]
    lines += ["\t)", ")"]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sys.stdout.write(problem(int(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 1))
