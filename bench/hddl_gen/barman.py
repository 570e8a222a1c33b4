#!/usr/bin/env python3
"""Barman-BDI (IPC 2020 total-order HTN track): N cocktails, N + 2 ingredients (one
dispenser each) and N + 2 shots, one shaker, two hands, levels level1..level3 with the
track's (next level1 level1) (next level2 level2); each cocktail mixes two distinct random
ingredients; one (AchieveContainsShotCocktail shotK cocktailJ) task per cocktail with
distinct random shots, no :goal -- the shape of the track's pfile01..05 (p-C-I-S).

Solvable by construction: every task decomposes with MakeAndPourCocktail; the shaker is
cleaned (CleanFullShaker) and refilled for each cocktail, its level stays level1 through
(next level1 level1), any shot can carry an ingredient and be cleaned again, and both hands
are free between tasks, so no task depends on the state the earlier ones leave.

usage: barman.py N [SEED]   -- prints the problem on stdout; deterministic per (N, SEED).
"""
import random
import sys


def problem(n, seed):
    rng = random.Random(seed * 7919 + n)
    m = n + 2
    shots = [f"shot{i}" for i in range(1, m + 1)]
    ingr = [f"ingredient{i}" for i in range(1, m + 1)]
    disp = [f"dispenser{i}" for i in range(1, m + 1)]
    cocktails = [f"cocktail{i}" for i in range(1, n + 1)]
    targets = rng.sample(shots, n)
    facts = ["(ontable shaker1)"] + [f"(ontable {s})" for s in shots]
    facts += ["(clean shaker1)"] + [f"(clean {s})" for s in shots]
    facts += ["(empty shaker1)"] + [f"(empty {s})" for s in shots]
    facts += [f"(dispenses {d} {i})" for d, i in zip(disp, ingr)]
    facts += ["(handEmpty left)", "(handEmpty right)", "(shakerEmptyLevel shaker1 level1)",
              "(shakerLevel shaker1 level1)", "(next level1 level1)", "(next level2 level2)"]
    for c in cocktails:
        a, b = rng.sample(ingr, 2)
        facts += [f"(cocktailPart1 {c} {a})", f"(cocktailPart2 {c} {b})"]
    lines = [f"; barman: {n} cocktails, {m} ingredients, {m} shots, seed {seed}",
             f"(define (problem p-{n}-{m}-{m})", "(:domain barman_htn)", "(:objects",
             "\tleft right - hand", "\tshaker1 - shaker", "\t" + " ".join(shots) + " - shot",
             "\t" + " ".join(ingr) + " - ingredient", "\t" + " ".join(disp) + " - dispenser",
             "\t" + " ".join(cocktails) + " - cocktail", "\tlevel1 level2 level3 - level", ")",
             "(:htn", "\t:parameters ()", "\t:ordered-subtasks (and"]
    lines += [f"\t\t(AchieveContainsShotCocktail {s} {c})" for s, c in zip(targets, cocktails)]
    lines += ["\t)", ")", "(:init"] + ["\t" + f for f in facts] + [")", ")"]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sys.stdout.write(problem(int(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 1))
