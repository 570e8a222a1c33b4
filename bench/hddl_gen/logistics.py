#!/usr/bin/env python3
"""Logistics-Learned (IPC 2020 total-order HTN track): N cities, each with one position, one
airport and one truck, N // 2 + 1 airplanes at random airports, 3 packages per city at its
position; ACHIEVE-AT tasks for a random subset of N + 2 packages to random positions or
airports, in a random order (the track's probLOGISTICS-C-K.hddl shape).

usage: logistics.py N [SEED]   -- prints the problem on stdout; deterministic per (N, SEED).
"""
import random
import sys


def problem(n, seed):
    rng = random.Random(seed * 7919 + n)
    cities = list(range(1, n + 1))
    planes = [f"APN{i}" for i in range(1, n // 2 + 2)]
    pk = [f"OBJ{c}{k}" for c in cities for k in range(1, 4)]
    objs = [f"TRU{c} - TRUCK" for c in cities] + [f"{a} - AIRPLANE" for a in planes]
    objs += [f"{p} - PACKAGE" for p in pk] + [f"APT{c} - AIRPORT" for c in cities]
    objs += [f"POS{c} - LOCATION" for c in cities] + [f"CIT{c} - CITY" for c in cities]
    init = [f"(AT {a} APT{rng.choice(cities)})" for a in planes]
    for c in cities:
        init += [f"(AT TRU{c} POS{c})"] + [f"(AT OBJ{c}{k} POS{c})" for k in range(1, 4)]
    for c in cities:
        init += [f"(IN-CITY POS{c} CIT{c})", f"(IN-CITY APT{c} CIT{c})"]
    goals = [(p, f"{rng.choice(['POS', 'APT'])}{rng.choice(cities)}")
             for p in rng.sample(pk, min(len(pk), n + 2))]
    lines = ["(define (problem p)", "(:domain logistics)", "(:objects"] + ["\t" + o for o in objs]
    lines += [")", "(:htn", "\t:ordered-subtasks (and"]
    lines += [f"\t(task{i} (ACHIEVE-AT {p} {d}))" for i, (p, d) in enumerate(goals)]
    lines += ["\t)", ")", "(:init"] + ["\t" + f for f in init] + [")", ")"]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sys.stdout.write(problem(int(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 1))
