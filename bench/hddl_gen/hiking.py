#!/usr/bin/env python3
"""Hiking (IPC 2020 total-order HTN track, from GTOHP): N hops along a line of places
place0 .. placeN, C = 3 + N // 16 couples (a guy and a girl each), one tent per couple (up or
down at random), C + 1 cars, everyone and everything at place0; one task
(everyone_go_hiking placeN) and the goal (walked coupleK placeN) for every couple -- the
shape of the track's p01..p05 (3 couples, 4 cars, 2..6 hops).

Solvable by construction: prepare_trip at place0 puts a tent down (m10, or m9 when one is
down) and needs no car moved (m11: two cars at place0); trip_to2 is split hop by hop (m2) and
each hop (m3) drives the tent ahead with two cars, walks every couple on (m5 per couple, all
stand at the hop's start with walked set), and brings both cars on.

usage: hiking.py N [SEED]   -- prints the problem on stdout; deterministic per (N, SEED).
"""
import random
import sys


def problem(n, seed):
    rng = random.Random(seed * 7919 + n)
    ncpl = 3 + n // 16
    places = [f"place{i}" for i in range(n + 1)]
    cars = [f"car{i}" for i in range(ncpl + 1)]
    tents = [f"tent{i}" for i in range(ncpl)]
    couples = [f"couple{i}" for i in range(ncpl)]
    people = []
    for i in range(ncpl):
        people += [f"guy{i}", f"girl{i}"]
    facts = []
    for i in range(ncpl):
        facts += [f"(partners couple{i} guy{i} girl{i})", f"(at_person guy{i} place0)",
                  f"(at_person girl{i} place0)", f"(walked couple{i} place0)",
                  f"(at_tent tent{i} place0)", f"({rng.choice(['up', 'down'])} tent{i})"]
    facts += [f"(at_car {c} place0)" for c in cars]
    facts += [f"(next place{i} place{i + 1})" for i in range(n)]
    lines = [f"; hiking: {ncpl} couples, {n} hops, seed {seed}",
             f"(define (problem hiking-{ncpl}-{n + 1})", "(:domain hiking)", "(:objects",
             " ".join(cars) + " - car", " ".join(tents) + " - tent",
             " ".join(couples) + " - couple", " ".join(places) + " - place",
             " ".join(people) + " - person", ")",
             "(:htn :parameters () :ordered-subtasks (and",
             f"(task1 (everyone_go_hiking place{n}))", "))", "(:init"] + facts + [")"]
    lines += ["(:goal (and"] + [f"(walked {c} place{n})" for c in couples] + ["))", ")"]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sys.stdout.write(problem(int(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 1))
