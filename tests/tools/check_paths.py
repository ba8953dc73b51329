#!/usr/bin/env python3
"""Checks that every repository path a comment or document names exists,
and that every citation of docs/LANGUAGE.md or docs/ARCHITECTURE.md names a
section, item or invariant that those files have. CTest runs it as
`docs/paths`.

    python3 tests/tools/check_paths.py [REPO]      (REPO: default, this checkout)

Files read: C++ sources and headers (.cpp .h .def .inc), Arc (.arc), Python
(.py), shell scripts (.sh, .ci/run), CMake (CMakeLists.txt, .cmake), the
Makefile, JavaScript tests (.mjs), tsan.supp and every .md; not build
directories (build*), .git or node_modules.

What counts as a path:
  - a token starting with one of the repository's top folders (vm/,
    tests/arc/, docs/LANGUAGE.md, ...): it must exist; `*` and `{a,b}`
    are expanded and must match something; a trailing `/` names a folder.
    The top folders are the list TOP, and a top folder that holds a file
    read here but is not in TOP is itself a problem (its paths would go
    unchecked);
  - a bare file name with a source extension (object.cpp, fiber.h,
    srv.arc): some file of that name must exist in the repository.
A token inside a URL, after another path component (build/arcana,
${CMAKE_SOURCE_DIR}/stdlib/x.arc), or in an #include <...> line is not one.
Paths that a program makes at run time, or that name files of other
projects, are listed in EXCEPTIONS with the reason.

Prints FILE:LINE: missing-path (or bad-citation) for each problem and
exits 1 if there is any.
"""
import glob
import os
import re
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                       os.path.join(os.path.dirname(__file__), "..", ".."))

# The top folders: a path is a token that starts with one of them. A folder
# added at the top must be added here, or the paths into it go unchecked:
# top_folder_problems fails while a top folder holding a file read here is
# missing from the list (or the list names a folder that is gone).
TOP = ["apps", "bench", "cmake", "compiler", "docs", "examples", "gc", "io", "measure", "repl",
       "stdlib", "tests", "tools", "vm", ".ci"]
EXTS = ("cpp", "h", "def", "inc", "arc", "py", "sh", "md", "mjs", "cmake")

# Tokens that look like repository paths but are not files of this one.
EXCEPTIONS = {
    # Made at run time: npm installs it (make e2e), from tests/e2e/package-lock.json.
    "tests/e2e/node_modules": "installed by `make e2e`",
    "tests/e2e/node_modules/": "installed by `make e2e`",
    "tests/e2e/node_modules/playwright-core": "installed by `make e2e`",
    "tests/e2e/node_modules/.e2e-installed": "written by `make e2e`",
    # The files of Arc 3.1's distribution, which Arcana's files are named after.
    "arc.arc": "Arc 3.1's core library (stdlib/core.arc and stdlib/lib.arc here)",
    "libs.arc": "Arc 3.1's list of libraries",
    "blog.arc": "Arc 3.1's example blog, not shipped (docs/LANGUAGE.md 6.8)",
    "brackets.arc": "Anarki's lib/brackets.arc",
    # Written at run time into a server's temporary directory.
    "run.arc": "the script tools/news31_walk.py has Arcana run pg's news.arc with",
    # Usage lines that stand for any file.
    "file.arc": "README.md's usage line: any script",
    "t.arc": "the file name tests/unit/test_reader.cpp gives the texts it reads",
    # Not a file: the name of the CTest test this script is.
    "docs/paths": "the CTest test that runs this script",
    "docs/names": "the CTest test that runs tests/tools/check_names.py",
    "docs/names-selftest": "the CTest test that runs tests/tools/test_check_names.py",
    "docs/comments": "the CTest test that runs tests/tools/check_comments.py",
    "docs/comments-selftest": "the CTest test that runs tests/tools/test_check_comments.py",
}

# Words that stand for any name in a path: tests/web/test_NAME.py,
# arc/logs/srv-DATE.
PLACEHOLDERS = re.compile(r"(?<![A-Za-z])(NAME|FILE|DATE|ID|USER)(?![A-Za-z])")

# Where a name is the file of another project, not ours.
FOREIGN_PREFIX = re.compile(r"(Arc 3\.1's|Anarki's|Ruby's|Lua's|Wren's|Luau's|Racket's)\s+$")


def source_files():
    for dirpath, dirnames, filenames in os.walk(ROOT):
        dirnames[:] = sorted(d for d in dirnames
                             if not d.startswith("build") and d not in (".git", "node_modules"))
        rel_dir = os.path.relpath(dirpath, ROOT)
        for f in sorted(filenames):
            rel = os.path.normpath(os.path.join(rel_dir, f))
            if (f.endswith(tuple("." + e for e in EXTS + ("supp",)))
                    or f in ("CMakeLists.txt", "Makefile") or rel == os.path.join(".ci", "run")):
                yield rel


def all_basenames():
    names = set()
    for dirpath, dirnames, filenames in os.walk(ROOT):
        dirnames[:] = [d for d in dirnames if d not in (".git", "node_modules")
                       and not d.startswith("build")]
        names.update(filenames)
        names.update(dirnames)
    return names


def expand_braces(tok):
    m = re.search(r"\{([^{}]*)\}", tok)
    if not m:
        return [tok]
    out = []
    for alt in m.group(1).split(","):
        out += expand_braces(tok[:m.start()] + alt + tok[m.end():])
    return out


def exists(tok):
    tok = PLACEHOLDERS.sub("*", tok)
    for t in expand_braces(tok):
        pattern = os.path.join(ROOT, t)
        if any(c in t for c in "*?["):
            if not glob.glob(pattern):
                return False
        elif not os.path.exists(pattern) and not glob.glob(pattern + ".*"):
            return False  # (vm/print: the module vm/print.h and vm/print.cpp)
    return True


# A path: a top folder, then path characters. Not after a character that
# would make it the tail of something longer (another path, a URL, a
# variable, an identifier).
PATH_RE = re.compile(r"(?<![\w.$/{}~@%:<-])((?:" + "|".join(re.escape(t) for t in TOP) +
                     r")/[\w.*?{},/+-]*)")
BARE_RE = re.compile(r"(?<![\w./$~@%-])([\w+-]+(?:\.[\w+-]+)*\.(?:" + "|".join(EXTS) +
                     r"))(?![\w/])")
ROOT_FILES_RE = re.compile(r"(?<![\w./-])(README\.md|CMakeLists\.txt|Makefile)(?![\w/])")


def clean(tok):
    # Prose punctuation after a path: "see vm/vm.h." or "(tests/arc/),".
    while tok and tok[-1] in ".,;:)'\"`":
        tok = tok[:-1]
    while tok.endswith("}") and tok.count("{") < tok.count("}"):
        tok = tok[:-1]
    if tok.count("{") > tok.count("}"):  # a brace opened in prose, not an expansion
        tok = tok[:tok.index("{")]
    return tok


_headings = {}


def headings(md_path):
    """The section numbers, section titles and numbered items of a document
    (None if it does not exist); read once."""
    if md_path not in _headings:
        path = os.path.join(ROOT, md_path)
        _headings[md_path] = read_headings(path) if os.path.exists(path) else None
    return _headings[md_path]


def read_headings(path):
    """Section numbers ("3.7"), section titles, and the numbered items of
    each top section, as (section, number): ("7", "11") for LANGUAGE.md's
    item #11, ("Invariants", "3") for ARCHITECTURE.md's invariant 3."""
    numbers, titles = set(), set()
    items = set()
    top = ""
    for line in open(path, encoding="utf-8"):
        m = re.match(r"(#{2,3}) (?:(\d+(?:\.\d+)?)\.? )?(.*)", line)
        if m:
            if m.group(2):
                numbers.add(m.group(2))
            titles.add(m.group(3).strip())
            if m.group(1) == "##":
                top = m.group(2) or m.group(3).strip()
            continue
        m = re.match(r"(\d+)\. ", line)
        if m:
            items.add((top, m.group(1)))
    return numbers, titles, items


def citation_problems(text):
    """The bad citations in text (a line and the start of the next)."""
    problems = []
    lang = headings("docs/LANGUAGE.md")
    arch = headings("docs/ARCHITECTURE.md")
    if lang:
        numbers, titles, items = lang
        for m in re.finditer(r"docs/LANGUAGE\.md,?((?:\s*(?:sections?|and|items?\s+|,)?\s*"
                             r"(?:\d+(?:\.\d+)?(?:-\d+(?:\.\d+)?)?|#\d+))+)", text):
            refs = re.sub(r"items?\s+(\d+)", r"#\1", m.group(1))
            for ref in re.findall(r"#\d+|\d+(?:\.\d+)?", refs):
                if ref.startswith("#"):
                    if ("7", ref[1:]) not in items:
                        problems.append("docs/LANGUAGE.md %s (no such item in section 7)" % ref)
                elif ref not in numbers:
                    problems.append("docs/LANGUAGE.md %s (no such section)" % ref)
    if arch:
        numbers, titles, items = arch
        for m in re.finditer(r"docs/ARCHITECTURE\.md,?\s+invariants?\s+(\d+)(?:\s+and\s+(\d+))?",
                             text):
            for n in m.groups():
                if n and ("Invariants", n) not in items:
                    problems.append("docs/ARCHITECTURE.md invariant %s (no such invariant)" % n)
        for m in re.finditer(r"docs/ARCHITECTURE\.md,?\s+\"([^\"]+)\"", text):
            if m.group(1) not in titles:
                problems.append('docs/ARCHITECTURE.md "%s" (no such section)' % m.group(1))
    return problems


def comment_of(line, marker):
    """The part of a line of code after its comment marker, outside strings."""
    quoted = False
    i = 0
    while i < len(line):
        c = line[i]
        if c == "\\" and quoted:
            i += 2
            continue
        if c == '"':
            quoted = not quoted
        elif not quoted and line.startswith(marker, i):
            return line[i:]
        i += 1
    return ""


# Bare file names in code are often names a test makes at run time ("t.arc"),
# so in these files only their comments are read for them.
COMMENT_MARKERS = {".cpp": "//", ".h": "//", ".def": "//", ".inc": "//", ".mjs": "//", ".arc": ";"}


def check_file(rel, basenames):
    problems = []
    lines = open(os.path.join(ROOT, rel), encoding="utf-8", errors="replace").read().split("\n")
    for i, line in enumerate(lines):
        if re.match(r"\s*#\s*include\s*<", line):
            continue
        scrubbed = re.sub(r"[a-z][a-z0-9+.-]*://\S+", " ", line)  # URLs
        seen = set()
        for m in PATH_RE.finditer(scrubbed):
            tok = clean(m.group(1))
            if not tok or tok in seen or tok in EXCEPTIONS:
                continue
            seen.add(tok)
            if not exists(tok):
                problems.append((i + 1, tok))
        marker = COMMENT_MARKERS.get(os.path.splitext(rel)[1])
        prose = comment_of(scrubbed, marker) if marker else scrubbed
        for regex in (BARE_RE, ROOT_FILES_RE):
            for m in regex.finditer(prose):
                tok = clean(m.group(1))
                if (tok in seen or tok in EXCEPTIONS or PLACEHOLDERS.search(tok)
                        or FOREIGN_PREFIX.search(prose[:m.start()])):
                    continue
                seen.add(tok)
                if tok not in basenames:
                    problems.append((i + 1, tok))
        nxt = lines[i + 1].strip().lstrip("/;#*\"' ") if i + 1 < len(lines) else ""
        if "docs/" not in line:
            continue
        for p in citation_problems(line + " " + nxt):
            # A citation wrapped onto the next line is read from this one.
            if p not in seen:
                seen.add(p)
                problems.append((i + 1, p))
    return problems


def top_folder_problems(files):
    """The top folders that hold a file this script reads but are not in TOP,
    and the folders of TOP that do not exist."""
    held = set(f.split(os.sep)[0] for f in files if os.sep in f)
    return (["%s/: a top folder TOP does not list" % d for d in sorted(held - set(TOP))] +
            ["%s/: in TOP, but not a folder" % d for d in TOP
             if not os.path.isdir(os.path.join(ROOT, d))])


def main():
    basenames = all_basenames()
    bad = 0
    files = list(source_files())
    for problem in top_folder_problems(files):
        print("tests/tools/check_paths.py: %s" % problem)
        bad += 1
    for rel in files:
        if rel == os.path.join("tests", "tools", "check_paths.py"):
            continue  # its own examples and exceptions
        for line, tok in check_file(rel, basenames):
            print("%s:%d: %s" % (rel, line, tok))
            bad += 1
    if bad:
        print("check_paths: %d missing path(s) or bad citation(s)" % bad)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
