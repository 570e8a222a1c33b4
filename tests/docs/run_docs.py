#!/usr/bin/env python3
"""Runs the commands shown in the documentation and compares their output with the text shown.

usage: run_docs.py --goap PATH/TO/goap --root REPO [FILE.md ...]
       (default files: README.md and docs/*.md of REPO)

The convention (docs/cli.md, "Examples in these documents"):

* A fenced block marked ```console holds commands and their output. A line starting with `$ `
  is a command (a line ending with `\\` continues on the next one); the lines after it, up to
  the next command or the end of the block, are its exact output: stdout and stderr as a
  terminal shows them (the command runs on a pseudo-terminal, so the two interleave as they
  would on screen).
* In the output, a line that is only `...` stands for any number of lines (none included), and
  `...` inside a line for any text. Timings are not compared: `time 7.7 us`, `1.4 ms`,
  `"time_us": 8.426` match any number there.
* Commands run with bash from a scratch directory that looks like the repository root (every
  top-level entry is a symbolic link to it), so files a command writes (`-o grid.plan`,
  `--html door.html`) land in the scratch directory and later commands of the same document
  can read them. `goap` is the tool under test (on PATH) and so is `build/goap`.
  The exit status is not compared, but a command killed by a signal or running longer than
  60 seconds fails.
* ```sh blocks hold commands that are not run for their output (installing, building, long
  benchmarks). Each of their lines that runs `goap` or `build/goap` is still run (10 seconds
  at most, then stopped) and must not be a usage error: a bad option or subcommand in a doc
  fails the test.
* A plain ``` block must not contain `$ ` command lines: mark it ```console (or ```sh).

Prints one line per failure with the document's file and line, a diff of the shown and the
real output, and a summary "N commands, M failed"; exits 1 when anything failed.
"""
import argparse
import difflib
import glob
import os
import pty
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time

FENCE = re.compile(r"^( *)(`{3,})([A-Za-z0-9_+-]*)\s*$")
TIMINGS = [
    (re.compile(r"\b[0-9]+(\.[0-9]+)? (us|ms)\b"), r"<T> \2"),
    (re.compile(r'"(time_us|search_ms|ground_ms)": [0-9.eE+-]+'), r'"\1": <T>'),
]
CONSOLE_TIMEOUT = 60.0
SH_TIMEOUT = 10.0


def blocks(path):
    """Yields (language, first line number of the content, content lines) of each fence."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, ticks, lang = len(m.group(1)), m.group(2), m.group(3)
        start = i + 1
        body = []
        i += 1
        while i < len(lines):
            c = FENCE.match(lines[i])
            if c and not c.group(3) and len(c.group(2)) >= len(ticks):
                break
            line = lines[i]
            body.append(line[indent:] if line[:indent].strip() == "" else line.lstrip())
            i += 1
        i += 1
        yield lang, start + 1, body


def console_items(path, first, body, errors):
    """Splits a console block into (line number, command, expected output lines)."""
    items = []
    k = 0
    while k < len(body):
        line = body[k]
        if not line.startswith("$ "):
            if line.strip():
                errors.append(f"{path}:{first + k}: a ```console block must start with a "
                              f"'$ ' command line, found: {line}")
            k += 1
            continue
        lineno = first + k
        cmd = line[2:]
        while cmd.endswith("\\") and k + 1 < len(body):
            k += 1
            cmd = cmd[:-1] + "\n" + body[k]
        k += 1
        out = []
        while k < len(body) and not body[k].startswith("$ "):
            out.append(body[k])
            k += 1
        items.append((lineno, cmd, out))
    return items


def run(cmd, cwd, env, timeout):
    """Runs cmd with bash on a pseudo-terminal: (exit status, output, timed out)."""
    try:
        master, slave = pty.openpty()
    except OSError:  # no pseudo-terminals here: one pipe for both (stderr may come first)
        try:
            p = subprocess.run(["bash", "-c", cmd], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               timeout=timeout)
            return p.returncode, p.stdout.decode("utf-8", "replace"), False
        except subprocess.TimeoutExpired:
            return -9, "", True
    proc = subprocess.Popen(["bash", "-c", cmd], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                            stdout=slave, stderr=slave, start_new_session=True)
    os.close(slave)
    chunks = []
    deadline = time.monotonic() + timeout
    timed_out = False
    while True:
        left = deadline - time.monotonic()
        ready = select.select([master], [], [], max(left, 0))[0] if left > 0 else []
        if not ready:
            timed_out = True
            os.killpg(proc.pid, signal.SIGKILL)
            break
        try:
            data = os.read(master, 65536)
        except OSError:  # EIO: every writer closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    rc = proc.wait()
    text = b"".join(chunks).decode("utf-8", "replace").replace("\r\n", "\n").replace("\r", "")
    return rc, text, timed_out


def normalize(lines):
    out = []
    for line in lines:
        line = line.rstrip()
        for pattern, repl in TIMINGS:
            line = pattern.sub(repl, line)
        out.append(line)
    while out and not out[-1]:
        out.pop()
    return out


def line_matches(want, got):
    if "..." not in want:
        return want == got
    parts = [re.escape(p) for p in want.split("...")]
    return re.fullmatch(".*".join(parts), got, re.S) is not None


def matches(want, got):
    """want (with `...` wildcards) against got, both lists of lines."""
    memo = {}

    def m(i, j):
        key = (i, j)
        if key in memo:
            return memo[key]
        if i == len(want):
            r = j == len(got)
        elif want[i] == "...":
            r = m(i + 1, j) or (j < len(got) and m(i, j + 1))
        else:
            r = j < len(got) and line_matches(want[i], got[j]) and m(i + 1, j + 1)
        memo[key] = r
        return r

    sys.setrecursionlimit(max(10000, 4 * (len(want) + len(got)) + 100))
    return m(0, 0)


def scratch_dir(root, build):
    """A directory whose entries link to the repository's, with `build` the tool's build."""
    d = tempfile.mkdtemp(prefix="goap-docs-")
    for name in os.listdir(root):
        if name == ".git" or name.startswith("build"):
            continue
        os.symlink(os.path.join(root, name), os.path.join(d, name))
    os.symlink(build, os.path.join(d, "build"))
    return d


GOAP_LINE = re.compile(r"^(\$ )?(build/)?goap(\s|$)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--goap", required=True)
    ap.add_argument("--root", required=True)
    ap.add_argument("--expect-fail", default=None, metavar="LINES",
                    help="the runner's own test: pass when exactly these lines (comma-separated "
                         "numbers, one document) fail")
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    root = os.path.abspath(a.root)
    goap = os.path.abspath(a.goap)
    files = a.files or ([os.path.join(root, "README.md")] +
                        sorted(glob.glob(os.path.join(root, "docs", "*.md"))))
    bindir = tempfile.mkdtemp(prefix="goap-docs-bin-")
    os.symlink(goap, os.path.join(bindir, "goap"))
    env = dict(os.environ)
    env["PATH"] = bindir + os.pathsep + env.get("PATH", "")
    env["LC_ALL"] = "C"
    env.pop("GOAP_LIBRARY", None)

    errors = []  # "file:line: ..." messages
    commands = 0
    parse_checks = 0
    try:
        for path in files:
            shown = os.path.relpath(path, root) if path.startswith(root) else path
            work = scratch_dir(root, os.path.dirname(goap))
            try:
                for lang, first, body in blocks(path):
                    if lang == "console":
                        for lineno, cmd, want in console_items(shown, first, body, errors):
                            commands += 1
                            rc, text, timed_out = run(cmd, work, env, CONSOLE_TIMEOUT)
                            got = normalize(text.split("\n"))
                            expected = normalize(want)
                            where = f"{shown}:{lineno}: $ {cmd}"
                            if timed_out:
                                errors.append(f"{where}\n  did not finish in {CONSOLE_TIMEOUT:g} s")
                            elif rc < 0 or rc >= 128:
                                errors.append(f"{where}\n  killed (exit status {rc})")
                            elif not matches(expected, got):
                                diff = difflib.unified_diff(expected, got, "shown in the doc",
                                                            "the tool's output", lineterm="")
                                errors.append(f"{where}\n  the output differs from the doc:\n" +
                                              "\n".join("    " + d for d in diff))
                    elif lang == "sh":
                        for k, line in enumerate(body):
                            if not GOAP_LINE.match(line):
                                continue
                            parse_checks += 1
                            cmd = line[2:] if line.startswith("$ ") else line
                            rc, text, _ = run(cmd, work, env, SH_TIMEOUT)
                            if rc == 2 and "Try 'goap" in text:
                                errors.append(f"{shown}:{first + k}: $ {cmd}\n  a usage error:\n" +
                                              "\n".join("    " + t for t in text.split("\n")[:6]))
                    elif lang == "":
                        for k, line in enumerate(body):
                            if line.startswith("$ "):
                                errors.append(f"{shown}:{first + k}: a command example in a plain "
                                              "``` block: mark the block ```console (its output "
                                              "is then checked) or ```sh")
                                break
            finally:
                shutil.rmtree(work, ignore_errors=True)
    finally:
        shutil.rmtree(bindir, ignore_errors=True)

    for e in errors:
        print("FAIL " + e)
    if a.expect_fail is not None:
        want = sorted(int(x) for x in a.expect_fail.split(",") if x)
        got = sorted(int(re.match(r"[^:]*:(\d+):", e).group(1)) for e in errors)
        ok = want == got
        print(f"expected failures at lines {want}, got {got}: {'as expected' if ok else 'WRONG'}")
        return 0 if ok else 1
    print(f"{len(files)} documents, {commands} commands compared, {parse_checks} sh lines "
          f"checked for usage errors, {len(errors)} failed")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
