#!/usr/bin/env python3
"""Factories-simple (IPC 2020 total-order HTN track): N factories factory_1..factory_N on a
line of locations location_0 - location_1 - ... - location_N - last_location, one truck at
location_0 where factory_0 (built, no demands) produces resource_0. factory_i produces
resource_i and demands resource_0 (i = 1) or resource_f_i_(i-1), made by a chain of fuses:
resource_f_i_0 fuses two random resources below i, resource_f_i_j fuses resource_f_i_(j-1)
and one more random resource below i. last_factory demands resource_N; one task
(construct_factory last_factory last_location) -- the shape of the track's pfile01..05
(N = 1..4).

Solvable by construction: build factory_i at location_i (free) for i = 1..N in order of
need; every resource below i is then producible (resource_0 without demands, resource_k by
factory_k from its fuse chain over resources below k), the truck reaches every location
along the line, and last_location stays free for last_factory. Plans grow about
exponentially in N (each resource is produced again wherever it is needed).

usage: factories.py N [SEED]   -- prints the problem on stdout; deterministic per (N, SEED).
"""
import random
import sys


def problem(n, seed):
    rng = random.Random(seed * 7919 + n)
    objs = ["last_factory - factory", "factory_0 - factory", "location_0 - location",
            "resource_0 - resource"]
    facts = ["(truck-at location_0)", "(factory-at factory_0 location_0)",
             "(factory-constructed factory_0)", "(factory-without-demands factory_0)",
             "(produces factory_0 resource_0)", f"(demands last_factory resource_{n})",
             "(location-free last_location)"]
    for i in range(1, n + 1):
        objs += [f"factory_{i} - factory", f"location_{i} - location", f"resource_{i} - resource"]
        objs += [f"resource_f_{i}_{j} - resource" for j in range(i)]
        facts += [f"(connected location_{i} location_{i - 1})",
                  f"(connected location_{i - 1} location_{i})",
                  f"(produces factory_{i} resource_{i})", f"(location-free location_{i})"]
        if i == 1:
            facts += ["(demands factory_1 resource_0)",
                      "(fuses resource_f_1_0 resource_0 resource_0)"]
            continue
        facts.append(f"(demands factory_{i} resource_f_{i}_{i - 1})")
        a, b = rng.randrange(i), rng.randrange(i)
        facts.append(f"(fuses resource_f_{i}_0 resource_{a} resource_{b})")
        for j in range(1, i):
            facts.append(f"(fuses resource_f_{i}_{j} resource_f_{i}_{j - 1} "
                         f"resource_{rng.randrange(i)})")
    facts += [f"(connected location_{n} last_location)",
              f"(connected last_location location_{n})"]
    objs.append("last_location - location")
    lines = [f"; factories-simple: {n} factories, seed {seed}", "(define",
             "    (problem generated)", "    (:domain factories)", "    (:objects"]
    lines += ["        " + o for o in objs] + ["    )", "    (:htn", "        :parameters ()",
              "        :subtasks (construct_factory last_factory last_location)", "    )",
              "    (:init"] + ["        " + f for f in facts] + ["    )", ")"]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sys.stdout.write(problem(int(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 1))
