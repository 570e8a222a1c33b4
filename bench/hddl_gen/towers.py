#!/usr/bin/env python3
"""Towers (IPC 2020 total-order HTN track): shift a tower of N rings from t1 to t3.

usage: towers.py N [SEED]   -- prints the problem (the track's pfile_NN.hddl shape) on stdout.
The problem is fully determined by N (the seed is accepted for a uniform interface).
"""
import sys


def problem(n):
    rings = [f"r{i}" for i in range(1, n + 1)]
    towers = ["t1", "t2", "t3"]
    out = [f"(define\n (problem tower_problem_{n})\n\n (:domain towers)\n"]
    out.append(f" (:objects {' '.join(towers)} - TOWER {' '.join(rings)} - RING)")
    out.append(" (:htn\n  :ordered-tasks (and\n    (task0 (shiftTower t1 t2 t3))\n  )\n )")
    init = []
    for r in rings:
        init += [f"(smallerThan {r} {t})" for t in towers]
    for i in range(n):
        init += [f"(smallerThan {rings[i]} {rings[j]})" for j in range(i + 1, n)]
    init += [f"(on {rings[i]} {rings[i + 1]})" for i in range(n - 1)] + [f"(on {rings[-1]} t1)"]
    init += ["(towerTop r1 t1)", "(towerTop t2 t2)", "(towerTop t3 t3)"]
    goal = [f"(on {rings[i]} {rings[i + 1]})" for i in range(n - 1)] + [f"(on {rings[-1]} t3)"]
    init += ["(goal_" + g[1:] for g in goal]
    out.append("(:init\n  " + "\n  ".join(init) + ")\n")
    out.append(" (:goal (and\n  " + "\n  ".join(goal) + ")))")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sys.stdout.write(problem(int(sys.argv[1])))
