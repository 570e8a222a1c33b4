#!/usr/bin/env python3
"""Blocksworld-GTOHP (IPC 2020 total-order HTN track): N blocks in random towers, to be
restacked into other random towers, one do_put_on task per goal `on`, bottom-up per tower
(the track's pNN.hddl shape).

usage: blocksworld.py N [SEED]   -- prints the problem on stdout; deterministic per (N, SEED).
"""
import random
import sys


def towers(rng, blocks):
    """A random partition of the blocks into towers (lists, bottom first)."""
    order = blocks[:]
    rng.shuffle(order)
    out = []
    for b in order:
        if not out or rng.random() < 0.3:
            out.append([b])
        else:
            rng.choice(out).append(b)
    return out


def problem(n, seed):
    rng = random.Random(seed * 7919 + n)
    blocks = [f"b{i}" for i in range(1, n + 1)]
    init, goal = towers(rng, blocks), towers(rng, blocks)
    tasks, goals = [], []
    for t in goal:
        for lo, hi in zip(t, t[1:]):
            tasks.append(f"(do_put_on {hi} {lo})")
            goals.append(f"(on {hi} {lo})")
    facts = ["(handempty)"]
    for t in init:
        facts.append(f"(ontable {t[0]})")
        facts += [f"(on {hi} {lo})" for lo, hi in zip(t, t[1:])]
        facts.append(f"(clear {t[-1]})")
    lines = [f"(define (problem BW-rand-{n})", "(:domain BLOCKS)",
             f"(:objects {' '.join(blocks)} - block)",
             "(:htn :parameters () :ordered-subtasks (and"]
    lines += [f"(task{i + 1} {t})" for i, t in enumerate(tasks)]
    lines += ["))", "(:init"] + facts + [")", "(:goal (and"] + goals + ["))", ")"]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sys.stdout.write(problem(int(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 1))
