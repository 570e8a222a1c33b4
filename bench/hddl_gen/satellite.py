#!/usr/bin/env python3
"""Satellite-GTOHP (IPC 2020 total-order HTN track): max(1, N // 3) satellites with 1..3
instruments each, 3 modes, N stars and N phenomena as directions; N do_mission tasks
(observe a direction in a mode some instrument supports), then one do_turning task per
satellite that has a pointing goal (the track's pNN.hddl shape).

usage: satellite.py N [SEED]   -- prints the problem on stdout; deterministic per (N, SEED).
"""
import random
import sys


def problem(n, seed):
    rng = random.Random(seed * 7919 + n)
    modes = ["image1", "infrared0", "spectrograph2"]
    stars = [f"Star{i}" for i in range(n)]
    dirs = stars + [f"Phenomenon{i}" for i in range(n, 2 * n)]
    sats, objs, facts = [], [], []
    supported = set()
    k = 0
    for s in range(max(1, n // 3)):
        sat = f"satellite{s}"
        sats.append(sat)
        objs.append(f"{sat} - satellite")
        for _ in range(rng.randint(1, 3)):
            ins = f"instrument{k}"
            k += 1
            objs.append(f"{ins} - instrument")
            for m in rng.sample(modes, rng.randint(1, 3)):
                facts.append(f"(supports {ins} {m})")
                supported.add(m)
            facts.append(f"(calibration_target {ins} {rng.choice(stars)})")
            facts.append(f"(on_board {ins} {sat})")
        facts += [f"(power_avail {sat})", f"(pointing {sat} {rng.choice(dirs)})"]
    objs += [f"{m} - mode" for m in modes] + [f"{d} - direction" for d in dirs]
    goals = sorted({(d, rng.choice(sorted(supported))) for d in rng.sample(dirs[1:], n)},
                   key=lambda g: dirs.index(g[0]))
    tasks = [f"(do_mission {d} {m})" for d, m in goals]
    points = [(s, rng.choice(dirs)) for s in sats if rng.random() < 0.5]
    tasks += [f"(do_turning {s} {d})" for s, d in points]
    lines = ["(define (problem strips-sat-x-1)", "(:domain satellite)", "(:objects"] + objs
    lines += [")", "(:htn :parameters () :ordered-subtasks (and"]
    lines += [f"(task{i + 1} {t})" for i, t in enumerate(tasks)] + ["))", "(:init"] + facts
    lines += [")", "(:goal (and"] + [f"(pointing {s} {d})" for s, d in points]
    lines += [f"(have_image {d} {m})" for d, m in goals] + ["))", ")"]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sys.stdout.write(problem(int(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 1))
