#!/usr/bin/env python3
"""Elevator-Learned (IPC 2020 total-order HTN track, Miconic): N passengers, N + 2 floors
(ABOVE as the full order F0 < F1 < ...), random origin and destination per passenger, the
lift at a random floor; one ACHIEVE-SERVED task per passenger in a random order (the
track's sNN-K.hddl shape).

usage: elevator.py N [SEED]   -- prints the problem on stdout; deterministic per (N, SEED).
"""
import random
import sys


def problem(n, seed):
    rng = random.Random(seed * 7919 + n)
    floors = [f"F{i}" for i in range(n + 2)]
    pas = [f"P{i}" for i in range(n)]
    lines = ["(define (problem p)", "(:domain elevator)", "(:objects"]
    lines += [f"\t{p} - PASSENGER" for p in pas] + [f"\t{f} - FLOOR" for f in floors]
    order = list(range(n))
    rng.shuffle(order)
    lines += [")", "(:htn", "\t:ordered-subtasks (and"]
    lines += [f"\t(task{i} (ACHIEVE-SERVED {pas[p]}))" for i, p in enumerate(order)]
    lines += ["\t)", ")", "(:init"]
    lines += [f"\t(ABOVE {floors[i]} {floors[j]})" for i in range(len(floors))
              for j in range(i + 1, len(floors))]
    for p in pas:
        o, d = rng.sample(floors, 2)
        lines += [f"\t(ORIGIN {p} {o})", f"\t(DESTIN {p} {d})"]
    lines += [f"\t(LIFT-AT {rng.choice(floors)})", ")", ")"]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sys.stdout.write(problem(int(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 1))
