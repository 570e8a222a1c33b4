#!/usr/bin/env python3
"""Prints each test CTest skipped, with the reason the test gave (scripts/test.sh runs it).

usage: ctest_skips.py JUNIT.xml   (written by `ctest --output-junit JUNIT.xml`)

CTest's own summary says only "(Skipped)": a test that exits with its SKIP_RETURN_CODE (77)
prints why ("skipped: no HDDL benchmarks at ...") to its output, which CTest keeps in its logs.
This prints "NAME: skipped: REASON" for each, REASON being the test's output line that starts
with "skipped:" (any case; the prefix is dropped), else its last non-empty line, else
"(no message)". Prints nothing when no test was skipped; exits 0 unless
the file cannot be read.
"""
import sys
import xml.etree.ElementTree as ET


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().split("\n")[2], file=sys.stderr)
        return 2
    try:
        root = ET.parse(sys.argv[1]).getroot()
    except (OSError, ET.ParseError) as e:
        print(f"ctest_skips: cannot read {sys.argv[1]}: {e}", file=sys.stderr)
        return 2
    for case in root.iter("testcase"):
        if case.find("skipped") is None:
            continue
        out = case.findtext("system-out") or ""
        lines = [l.strip() for l in out.splitlines() if l.strip()]
        said = [l for l in lines if l.lower().startswith("skipped:")]
        reason = said[0][len("skipped:"):].strip() if said else lines[-1] if lines else ""
        print(f"{case.get('name')}: skipped: {reason or '(no message)'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
