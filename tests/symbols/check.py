#!/usr/bin/env python3
"""Compares the symbols shared libraries export with the public API.

    check.py INCLUDE_DIR LIB.so [LIB.so ...]

The public API is every function declared with GOAP_API in INCLUDE_DIR/*.h (all of them, so
new headers count without editing this file). The exports are the defined dynamic symbols of
the libraries given (`nm -D --defined-only`), taken together. Fails when a library exports
anything that is not declared GOAP_API (an internal symbol leaking: goap__*, a static made
global...), when a GOAP_API function is exported by none of them, or when two of the
libraries export the same symbol. Prints "N passed, M failed".
"""
import os
import re
import subprocess
import sys

# Symbols the toolchain itself puts in every shared object.
TOOLCHAIN = {"_init", "_fini", "_edata", "_end", "__bss_start", "_DYNAMIC",
             "_GLOBAL_OFFSET_TABLE_", "__data_start", "__dso_handle"}


def declared(include_dir):
    api = {}
    for name in sorted(os.listdir(include_dir)):
        if not name.endswith(".h"):
            continue
        text = open(os.path.join(include_dir, name), encoding="utf-8").read()
        text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
        text = re.sub(r"^\s*#.*$", " ", text, flags=re.M)
        for m in re.finditer(r"\bGOAP_API\b([^;{]*?)\b([A-Za-z_]\w*)\s*\(", text):
            api[m.group(2)] = name
    return api


def exported(lib):
    out = subprocess.run(["nm", "-D", "--defined-only", lib], check=True,
                         capture_output=True, text=True).stdout
    syms = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[1] not in ("U", "w", "v"):
            syms.add(parts[2].split("@")[0])
    return syms - TOOLCHAIN


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    api = declared(argv[1])
    passed = failed = 0
    if len(api) < 10:
        print("FAIL: only %d GOAP_API declarations found in %s" % (len(api), argv[1]))
        return 1
    owner = {}
    for lib in argv[2:]:
        for s in exported(lib):
            if s in owner:
                print("FAIL: %s is exported by both %s and %s" % (s, owner[s], lib))
                failed += 1
            owner[s] = lib
    leaked = sorted(set(owner) - set(api))
    missing = sorted(set(api) - set(owner))
    for s in leaked:
        print("FAIL: %s exports %s, which no public header declares with GOAP_API" %
              (os.path.basename(owner[s]), s))
    for s in missing:
        print("FAIL: %s (declared in %s) is exported by none of %s" %
              (s, api[s], " ".join(os.path.basename(x) for x in argv[2:])))
    failed += len(leaked) + len(missing)
    passed += len(api) - len(missing)
    print("%d public functions in %d headers; exports of %s checked" %
          (len(api), len(set(api.values())), ", ".join(os.path.basename(x) for x in argv[2:])))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
