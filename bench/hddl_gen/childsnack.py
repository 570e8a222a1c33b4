#!/usr/bin/env python3
"""Childsnack (IPC 2020 total-order HTN track): N children at 3 tables, 40% allergic to
gluten, N bread and content portions (as many gluten-free as allergic children), 3 trays,
ceil(1.3 N) sandwiches to make; one serve task per child (the track's pNN.hddl shape).

usage: childsnack.py N [SEED]   -- prints the problem on stdout; deterministic per (N, SEED).
"""
import random
import sys


def problem(n, seed):
    rng = random.Random(seed * 7919 + n)
    kids = [f"child{i}" for i in range(1, n + 1)]
    breads = [f"bread{i}" for i in range(1, n + 1)]
    contents = [f"content{i}" for i in range(1, n + 1)]
    trays = ["tray1", "tray2", "tray3"]
    tables = ["table1", "table2", "table3"]
    sandw = [f"sandw{i}" for i in range(1, (13 * n + 9) // 10 + 1)]
    nallergic = (4 * n) // 10
    allergic = set(rng.sample(kids, nallergic))
    facts = [f"(at {t} kitchen)" for t in trays]
    facts += [f"(at_kitchen_bread {b})" for b in breads]
    facts += [f"(at_kitchen_content {c})" for c in contents]
    facts += [f"(no_gluten_bread {b})" for b in rng.sample(breads, nallergic)]
    facts += [f"(no_gluten_content {c})" for c in rng.sample(contents, nallergic)]
    facts += [f"({'allergic_gluten' if k in allergic else 'not_allergic_gluten'} {k})" for k in kids]
    facts += [f"(waiting {k} {rng.choice(tables)})" for k in kids]
    facts += [f"(notexist {s})" for s in sandw]
    lines = [f"; child-snack task with {n} children and 0.4 gluten factor, seed {seed}",
             "(define (problem prob-snack)", "(:domain child-snack)", "(:objects",
             " ".join(kids) + " - child", " ".join(breads) + " - bread-portion",
             " ".join(contents) + " - content-portion", " ".join(trays) + " - tray",
             " ".join(tables) + " - place", " ".join(sandw) + " - sandwich", ")",
             "(:htn :parameters () :ordered-subtasks (and"]
    lines += [f"(task{i + 1} (serve {k}))" for i, k in enumerate(kids)]
    lines += ["))", "(:init"] + facts + [")", "(:goal (and"]
    lines += [f"(served {k})" for k in kids] + ["))", ")"]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sys.stdout.write(problem(int(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 1))
