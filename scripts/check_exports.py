#!/usr/bin/env python3
"""Checks that the built libraries define no external symbol outside the library's prefixes.

    python3 scripts/check_exports.py NM LIBRARY...

Runs `NM -g --defined-only` on each library (static or shared) and fails, naming the library
and the symbol, for every defined external symbol that does not start with `goap_` (the public
API) or `goap__` (internals, hidden): the rule of docs/internals.md, "Internal names". A C
library shares one namespace with its users, so a stray `htn_` or `px_` function there can
collide with a user's. A leading underscore (the Mach-O spelling) is ignored.
It prints "exports: N passed, M failed" (one check per library). Standard library only.
"""
import re
import subprocess
import sys

ALLOWED = re.compile(r"^_?goap_")


def symbols(nm, lib):
    out = subprocess.run([nm, "-g", "--defined-only", lib], check=True, capture_output=True,
                         text=True).stdout
    for line in out.splitlines():
        parts = line.split()
        # "ADDRESS TYPE NAME" (archive member headers "x.o:" and blank lines have fewer)
        if len(parts) >= 3:
            yield parts[2]


def main(argv):
    if len(argv) < 2:
        sys.exit("usage: check_exports.py NM LIBRARY...")
    nm, libs = argv[0], argv[1:]
    passed, failed = 0, 0
    for lib in libs:
        stray = sorted({s for s in symbols(nm, lib) if not ALLOWED.match(s)})
        for s in stray:
            print("%s: exports %s (not goap_ or goap__: make it static or goap__<module>_)"
                  % (lib, s))
        if stray:
            failed += 1
        else:
            passed += 1
    print("exports: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
