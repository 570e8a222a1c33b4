#!/usr/bin/env python3
"""Checks the module dependency graph drawn in docs/internals.md against the build and the code.

    python3 scripts/check_deps.py [ROOT]

docs/internals.md holds, under "## Dependency graph", a table with one row per module:

    | module | library | links | public headers |
    | `src/htn/` | `goap_htn` | `goap` | `htn.h` |

`links` are the libraries the module's library links directly (`base` for the base layer's
objects; `-` for none); a header name there (`goap.h`) means the module uses that header's
types and macros only and links nothing for it. This script fails, naming each difference, when
  * a directory of src/ (or tools/goap/) has no row, or a row names no existing directory;
  * CMakeLists.txt builds a module's sources into another library than the row says, or links
    (target_link_libraries; goap_use_base() for `base`) other goap libraries than `links`;
  * a file of a module includes a header of a library (a public goap/*.h header, or an internal
    header of another src/ directory) that is neither its own library nor one its library
    reaches through its links -- or a public header includes one its library cannot reach;
  * a library links another that none of its files includes (a link the code does not use);
  * README.md's layout table does not name every module's directory.
It prints "deps: N passed, M failed". Only the Python standard library is used.
"""
import os
import re
import sys

ROOT = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else \
    os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INCLUDE_RE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.M)
failures = []
passed = 0


def check(ok, message):
    global passed
    if ok:
        passed += 1
    else:
        failures.append(message)


def read(rel):
    with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
        return f.read()


def words(cell):
    return [w.strip("`") for w in cell.replace(",", " ").split() if w.strip("`") not in ("", "-")]


# ---- the documented graph ------------------------------------------------------------------
def doc_graph():
    text = read("docs/internals.md")
    m = re.search(r"^## Dependency graph\n(.*?)(?=^## )", text, re.M | re.S)
    if not m:
        sys.exit("check_deps: docs/internals.md has no '## Dependency graph' section")
    rows = {}
    for line in m.group(1).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 4 or not cells[0].startswith("`"):
            continue
        mod = cells[0].strip("`").rstrip("/")
        rows[mod] = {"library": cells[1].strip("`"), "links": set(words(cells[2])),
                     "headers": set(words(cells[3]))}
    return rows


# ---- the build -----------------------------------------------------------------------------
def cmake_graph():
    text = re.sub(r"#[^\n]*", "", read("CMakeLists.txt"))
    globs, lib_dirs, links = {}, {}, {}
    for m in re.finditer(r"file\(GLOB\s+(\w+)\s+(?:CONFIGURE_DEPENDS\s+)?([^)]*)\)", text):
        globs[m.group(1)] = set(re.findall(r"/((?:src|tools)/[\w]+(?:/[\w]+)?)/\*\.c", m.group(2)))
    for m in re.finditer(r"add_(?:library|executable)\((\w+)\s+([^)]*)\)", text):
        name, args = m.group(1), m.group(2)
        dirs = set()
        for var in re.findall(r"\$\{(\w+)\}", args):
            dirs |= globs.get(var, set())
        dirs |= {os.path.dirname(p) for p in re.findall(r"((?:src|tools)/[\w/]+\.c)", args)}
        if name == "goap_base":
            dirs = {"src/base"}
        if dirs:
            lib_dirs[name] = dirs
            links.setdefault(name, set())
    for m in re.finditer(r"target_link_libraries\((\w+)\s+([^)]*)\)", text):
        if m.group(1) in links:
            links[m.group(1)] |= {w for w in m.group(2).split() if re.match(r"^goap(_\w+)?$", w)}
    for m in re.finditer(r"goap_use_base\((\w+)\)", text):
        if m.group(1) in links:
            links[m.group(1)].add("base")
    return lib_dirs, links


# ---- the code ------------------------------------------------------------------------------
def files_of(mod):
    d = os.path.join(ROOT, mod)
    return sorted(os.path.join(mod, f) for f in os.listdir(d) if f.endswith((".c", ".h")))


def main():
    rows = doc_graph()
    lib_dirs, cm_links = cmake_graph()
    lib_of_dir = {d: lib for lib, ds in lib_dirs.items() for d in ds}
    lib_of_row = {mod: r["library"] for mod, r in rows.items()}

    # every directory has a row and every row a directory
    dirs = sorted("src/" + d for d in os.listdir(os.path.join(ROOT, "src"))
                  if os.path.isdir(os.path.join(ROOT, "src", d))) + ["tools/goap"]
    for d in dirs:
        check(d in rows, "docs/internals.md: no row for %s/" % d)
    for mod in rows:
        check(os.path.isdir(os.path.join(ROOT, mod)), "docs/internals.md: %s/ does not exist" % mod)

    # the rows agree with CMake
    def lib_name(lib):
        return "base" if lib == "goap_base" else lib
    for mod, r in sorted(rows.items()):
        built = lib_name(lib_of_dir.get(mod, "?"))
        check(built == r["library"] or (r["library"] == "base" and built == "base"),
              "%s/: docs say library %s, CMakeLists.txt builds it into %s" % (mod, r["library"], built))
        want = {w for w in r["links"] if not w.endswith(".h")}
        have = cm_links.get(lib_of_dir.get(mod, ""), set())
        check(want == have, "%s (%s/): docs say it links {%s}, CMakeLists.txt links {%s}" % (
            r["library"], mod, " ".join(sorted(want)), " ".join(sorted(have))))

    # reachability over the documented links (a library reaches itself)
    libs = {r["library"]: r["links"] for r in rows.values()}

    def reach(lib):
        seen, todo = set(), [lib]
        while todo:
            x = todo.pop()
            if x in seen:
                continue
            seen.add(x)
            todo += list(libs.get(x, ()))
        return seen

    header_lib = {h: r["library"] for r in rows.values() for h in r["headers"]}
    for h in sorted(os.listdir(os.path.join(ROOT, "include", "goap"))):
        if h.endswith(".h"):
            check(h in header_lib, "docs/internals.md: no row owns include/goap/%s" % h)

    used = {lib: set() for lib in libs}

    def target_lib(path, inc):
        """The library owning an included header, or None (system / same directory)."""
        base = os.path.basename(inc)
        if inc.startswith("goap/") or (path.startswith("include/") and "/" not in inc):
            return header_lib.get(base)
        for cand in (os.path.normpath(os.path.join(os.path.dirname(path), inc)),
                     os.path.normpath(os.path.join("src", inc))):
            d = os.path.dirname(cand)
            if os.path.isfile(os.path.join(ROOT, cand)) and d in lib_of_row:
                return lib_of_row[d]
        return None

    def check_includes(path, lib):
        for inc in INCLUDE_RE.findall(read(path)):
            t = target_lib(path, inc)
            if t is None or t == lib:
                continue
            if t == header_lib.get(os.path.basename(inc)) and os.path.basename(inc) in libs.get(lib, ()):
                continue  # a header named in `links`: its types and macros only, no symbol
            used[lib].add(t)
            check(t in reach(lib), "%s includes %s (%s), which %s does not link" % (
                path, inc, t, lib))

    for mod, r in sorted(rows.items()):
        if os.path.isdir(os.path.join(ROOT, mod)):
            for f in files_of(mod):
                check_includes(f, r["library"])
    for h in sorted(header_lib):
        p = os.path.join("include", "goap", h)
        if os.path.isfile(os.path.join(ROOT, p)):
            check_includes(p, header_lib[h])

    # every link is used by some include (the base layer: by its header, base/base.h)
    for lib, deps in sorted(libs.items()):
        for d in sorted(x for x in deps if not x.endswith(".h")):
            check(d in used[lib],
                  "%s links %s, but none of its files includes a header of %s" % (lib, d, d))

    # README's layout table names every module's directory
    readme = read("README.md")
    for d in dirs:
        check(("`%s/`" % d) in readme or ("`%s/" % d) in readme,
              "README.md: the layout table does not name %s/" % d)

    for f in failures:
        print("check_deps: " + f)
    print("deps: %d passed, %d failed" % (passed, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
