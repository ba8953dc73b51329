#!/usr/bin/env python3
"""Checks that what a comment or document says is in a file is there: the
builtin, function or definition it names, and the section it cites.
tests/tools/check_paths.py checks that the file exists; this checks inside
it. CTest runs it as `docs/names` (and `docs/names-selftest` runs
tests/tools/test_check_names.py, which shows that a wrong citation fails).

    python3 tests/tools/check_names.py [-v] [REPO]   (REPO: default, this checkout)

-v also prints each citation checked and found, as FILE:LINE: ok ...

Read: the comments of C++ (.cpp .h .def .inc), Arc (.arc) and JavaScript (.mjs),
runs of consecutive comment lines joined, so that a citation may wrap;
every line of Python, shell, CMake, the Makefile and Markdown, paragraphs
joined. The same files as check_paths.py, and not itself nor the self-test.

Names. The forms the tree uses to say where a name lives:
    (FILE, NAME)        (compiler/compile.cpp, emit_catch)
    (FILE NAME)         (gc/heap.h AllocBuffer), NAME written as code only
    NAME (FILE)         `%tokens` (vm/builtins/string.cpp)
    NAME in FILE        `fixnum_add` in `vm/value.h`; also "NAME of", "NAME is in",
                        "lives in", "is defined in"; a list of names
                        ("`a`, `b` and `c` live in FILE") checks each
    FILE (NAME)         `gc/gen.cpp` (`kGrowth`), NAME backticked
    (FILE: NAME, ...)   each backticked NAME of the list
    a trailing comment on a `register_AREA_builtins` declaration (the
    areas of vm/builtins.h): each item that is the name of an Arc builtin
    or definition must be a builtin that area's file registers.
A NAME is checked when it is written as code: in backticks, or with `_`,
`::`, `()` or an inner capital (C++), or an Arc name (a builtin or a
definition of stdlib/ or apps/) with a character no English word has
(`-`, `%`, `*`, `?`, `!`, ...); in (FILE, NAME) any single word after the
comma is. A name in prose ("the reader (compiler/reader.h)") is not.
What "is there" means, by the kind of name and file:
  - an Arc name in an .arc file: a definition of it there, `(def NAME`,
    `(mac NAME`, `(defop NAME`, `(newsop NAME`, ..., or at the top level
    `(assign NAME` or `(= NAME`;
  - an Arc name in a .cpp file: a builtin that file's table registers,
    `{"NAME", fn, min, max, ...}` (vm/builtins.h);
  - a C++ name: the identifier occurs in the file; a qualified one
    (VM::unwind) occurs so in a .cpp, and each part in a header;
  - a backticked word that is neither: either of the above.
FILE is a path from the repository's top or, bare, the file of that name
at the top, beside the citing file, or the only one in the repository.

Sections. The forms:
    FILE, "Title"  or  FILE "Title"  or  FILE's "Title"
    the section "Title" below (or above), within one file
docs/LANGUAGE.md and docs/ARCHITECTURE.md are check_paths.py's. In another
Markdown file, "Title" must be a heading's title (## 4.2 Title). In a
source file it must begin a section heading (`; --- Title ---`, `// ----
Title ----`, `// ==== Title ====`, `# ---- Title ----`) or the first line
of a block of comment lines ("# Layering: ...", "# The library image
(...)"). A quotation that starts in lower case after `FILE, ` is a phrase:
it must occur in the file's comments, spacing aside.

Prints FILE:LINE: what was not found, and exits 1 if anything was not.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_paths  # noqa: E402  (its list of files and comment reader)

VERBOSE = "-v" in sys.argv[1:]
ARGS = [a for a in sys.argv[1:] if a != "-v"]
ROOT = os.path.abspath(ARGS[0] if ARGS else os.path.join(os.path.dirname(__file__), "..", ".."))
check_paths.ROOT = ROOT
SKIP = (os.path.join("tests", "tools", "check_names.py"),
        os.path.join("tests", "tools", "test_check_names.py"))
MARKERS = check_paths.COMMENT_MARKERS

_text = {}


def read(rel):
    """A repository file's text, or None if there is no such file."""
    if rel not in _text:
        path = os.path.join(ROOT, rel)
        _text[rel] = (open(path, encoding="utf-8", errors="replace").read()
                      if os.path.isfile(path) else None)
    return _text[rel]


_files = None


def files():
    global _files
    if _files is None:
        _files = list(check_paths.source_files())
    return _files


def blocks(rel):
    """The prose of a file as (text, [(offset, line)]): each run of
    consecutive comment lines (or, in a file without a comment marker,
    of non-blank lines) joined with spaces."""
    marker = MARKERS.get(os.path.splitext(rel)[1])
    out, text, offs = [], "", []
    for i, line in enumerate(read(rel).split("\n")):
        part = check_paths.comment_of(line, marker) if marker else line
        if marker:
            part = part[len(marker):].lstrip(marker[0])
        part = part.strip()
        if not part:
            if text:
                out.append((text, offs))
            text, offs = "", []
            continue
        offs.append((len(text), i + 1))
        text += part + " "
    if text:
        out.append((text, offs))
    return out


def line_at(offs, pos):
    return [line for off, line in offs if off <= pos][-1]


# ---- what files define -----------------------------------------------------

# A definition: (def NAME, (mac NAME, (defop NAME, (newsop NAME, ...
# anywhere; a global assigned, (= NAME or (assign NAME, at the top level.
ARC_DEF = re.compile(r"\((?:def[\w-]*|mac|newsop|adop|edop)\s+([^\s()]+)|"
                     r"^\((?:assign|=)\s+([^\s()]+)", re.M)
BUILTIN = re.compile(r'\{\s*"([^"\s]+)",\s*\w+,\s*-?\d+,\s*-?\d+')


def arc_defs(rel):
    return set(a or b for a, b in ARC_DEF.findall(read(rel)))


def builtins(rel):
    return set(BUILTIN.findall(read(rel)))


_arc_names = None


def arc_names():
    """Every builtin the C++ registers and every Arc definition of stdlib/
    and apps/."""
    global _arc_names
    if _arc_names is None:
        _arc_names = set()
        for rel in files():
            if rel.endswith(".cpp"):
                _arc_names |= builtins(rel)
            elif rel.endswith(".arc") and rel.startswith(("stdlib", "apps")):
                _arc_names |= arc_defs(rel)
    return _arc_names


def resolve(tok, citing):
    """The file a citation names: the path from the top; a bare name at the
    top, beside the citing file, or the only file of that name."""
    if read(tok) is not None:
        return tok
    near = os.path.normpath(os.path.join(os.path.dirname(citing), tok))
    if read(near) is not None:
        return near
    same = [f for f in files() if os.path.basename(f) == os.path.basename(tok)]
    return same[0] if len(same) == 1 else None


def kind_of(name, code):
    """"cpp", "arc", "either" (a backticked word), or None: prose, not
    checked. code: the name was written as code (backticks)."""
    if name.startswith("-") or re.fullmatch(r"[\d.,%x+-]+", name):
        return None
    if "/" in name and name not in arc_names():
        return None  # a path
    if re.search(r"\.(arc|cpp|h|def|md|py)$", name):
        return None  # a file, not a name
    if name.endswith("()") or "::" in name or ("_" in name and "-" not in name):
        return "cpp"
    if re.search(r"[a-z][A-Z]", name):
        return "cpp"
    if name in arc_names() and (code or re.search(r"[-%*?!<>=+]", name)):
        return "arc"
    return "either" if code else None


def ident(name, text):
    return re.search(r"(?<![\w%-])" + re.escape(name) + r"(?![\w%-])", text) is not None


def has_name(path, name, kind):
    text = read(path)
    name = name[:-2] if name.endswith("()") else name
    if path.endswith(".arc"):
        return name in arc_defs(path) if kind in ("arc", "either") else ident(name, text)
    if kind == "arc":
        if path.endswith(".h"):  # a module's header: its .cpp registers it
            cpp = path[:-2] + ".cpp"
            return read(cpp) is not None and name in builtins(cpp)
        return name in builtins(path)
    parts = name.split("::")
    if len(parts) > 1 and path.endswith(".cpp"):
        return name in text
    if all(ident(p, text) for p in parts):
        return True
    return kind == "either" and name in builtins(path)


# ---- names ------------------------------------------------------------------

FILE = r"`?((?:[\w.-]+/)*[\w.-]+\.(?:arc|cpp|h|def))`?"
NAME = r"(`[^`\s]+`|[%\w:*<>=?!+~-]+(?:\(\))?)"
NAMES = r"((?:`[^`\s]+`|[%\w:*<>=?!+~-]+(?:\(\))?)(?:(?:,? and |, )`[^`\s]+`)*)"
PAREN_FILE_NAME = re.compile(r"\(" + FILE + r"(,?) " + NAME + r"(?=[),;])")
NAME_PAREN_FILE = re.compile(NAME + r" \(" + FILE + r"(?=[),])")
NAME_IN_FILE = re.compile(NAMES + r",? (?:(?:is|are|lives?|stays?|is defined|are defined) )?(?:in|of) " +
                          FILE)
FILE_COLON_LIST = re.compile(r"\(" + FILE + r": ([^)]*)\)")
FILE_PAREN_NAME = re.compile(FILE + r" \((`[^`\s]+`)\)")
REGISTER = re.compile(r"void (register_\w+_builtins)\(VM& vm\);\s*//\s*(.*)")
PROSE = {"and", "or", "the", "a", "an", "as", "which", "where", "its", "in", "with", "for",
         "see", "after", "before", "from", "does", "do", "is", "are", "there", "here", "below"}


def name_citations(text):
    """(name, written as code, file, form) for each citation of a name."""
    for m in PAREN_FILE_NAME.finditer(text):
        raw = m.group(3)
        code = raw.startswith("`") or (m.group(2) == "," and raw.lower() not in PROSE)
        yield m.start(), raw.strip("`"), code, m.group(1)
    for m in NAME_PAREN_FILE.finditer(text):
        yield m.start(), m.group(1).strip("`"), m.group(1).startswith("`"), m.group(2)
    for m in NAME_IN_FILE.finditer(text):
        for raw in re.split(r",? and |, ", m.group(1)):
            yield m.start(), raw.strip("`"), raw.startswith("`"), m.group(2)
    for m in FILE_PAREN_NAME.finditer(text):
        yield m.start(), m.group(2).strip("`"), True, m.group(1)
    for m in FILE_COLON_LIST.finditer(text):
        for raw in re.split(r",? and |, ", m.group(2)):
            raw = raw.strip()
            if re.fullmatch(r"`[^`\s]+`", raw):
                yield m.start(), raw.strip("`"), True, m.group(1)


def name_problems(rel):
    problems = []
    for text, offs in blocks(rel):
        seen = set()
        for pos, name, code, tok in name_citations(text):
            kind = kind_of(name, code)
            path = resolve(tok, rel)
            if kind is None or path is None or (name, path) in seen:
                continue
            seen.add((name, path))
            if VERBOSE and has_name(path, name, kind):
                print("%s:%d: ok %s %s in %s" % (rel, line_at(offs, pos), kind, name, path))
            if not has_name(path, name, kind):
                what = {"arc": "Arc name", "cpp": "C++ name", "either": "name"}[kind]
                problems.append((line_at(offs, pos), "%s %s not in %s" % (what, name, path)))
    return problems


def area_problems(rel):
    """The area comments of register_*_builtins declarations."""
    problems = []
    text = read(rel)
    for i, line in enumerate(text.split("\n")):
        m = REGISTER.search(line)
        if not m:
            continue
        defining = [f for f in files() if f.endswith(".cpp") and
                    re.search(r"void " + m.group(1) + r"\(VM& vm\) \{", read(f))]
        if len(defining) != 1:
            problems.append((i + 1, "%s defined in %d files" % (m.group(1), len(defining))))
            continue
        for item in m.group(2).split(","):
            item = item.strip()
            if item in arc_names() and item not in builtins(defining[0]):
                problems.append((i + 1, "builtin %s not registered in %s" % (item, defining[0])))
    return problems


# ---- sections ---------------------------------------------------------------

SECTION = re.compile(r"`?((?:[\w.-]+/)*(?:[\w.-]+\.(?:arc|cpp|h|def|md|py|txt|sh)|Makefile))`?"
                     r"(,|'s)? \"([^\"]+)\"")
HERE = re.compile(r"the section \"([^\"]+)\" (?:below|above)")
RULE = re.compile(r"(?m)^\s*(?:;+|//|#)\s*(?:-{3,}|={3,})\s*(.+?)\s*(?:-{3,}|={3,})?\s*$")
MD_HEADING = re.compile(r"(?m)^#+ (?:\d+(?:\.\d+)*\.? )?(.+?)\s*$")
COMMENT_LINE = re.compile(r"\s*(?:;+|//|#)\s?(.*)")


def headings(path):
    """A file's section titles, and the first lines of its comment blocks."""
    text = read(path)
    if path.endswith(".md"):
        return [h.strip("`") for h in MD_HEADING.findall(text)], []
    firsts, before = [], False
    for line in text.split("\n"):
        m = COMMENT_LINE.match(line)
        if m and not before:
            firsts.append(m.group(1))
        before = bool(m)
    return RULE.findall(text), firsts


def begins(title, line, after):
    """line starts with title, then ends or goes on with one of after."""
    return line.startswith(title) and (line == title or line[len(title):].startswith(after))


def has_section(path, title):
    rules, firsts = headings(path)
    if path.endswith(".md"):
        return title in rules
    return (any(begins(title, r, (" ", ":", ",", "(")) for r in rules) or
            any(begins(title, f, (":", " (")) for f in firsts))


def has_phrase(path, phrase):
    prose = " ".join(t for t, _ in blocks(path))
    return re.sub(r"\s+", " ", phrase) in re.sub(r"\s+", " ", prose)


def section_problems(rel):
    problems = []
    for text, offs in blocks(rel):
        for m in SECTION.finditer(text):
            tok, sep, title = m.groups()
            if tok in ("docs/LANGUAGE.md", "docs/ARCHITECTURE.md"):
                continue
            if not sep and not title[0].isupper():
                continue  # a command line's argument, not a citation
            path = resolve(tok, rel)
            if path is None:
                continue  # check_paths.py reports it
            if title[0].isupper():
                ok, what = has_section(path, title), "section"
            else:
                ok, what = has_phrase(path, title), "phrase"
            if VERBOSE and ok:
                print('%s:%d: ok %s "%s" in %s' % (rel, line_at(offs, m.start()), what, title, path))
            if not ok:
                problems.append((line_at(offs, m.start()),
                                 '%s "%s" not in %s' % (what, title, path)))
        for m in HERE.finditer(text):
            if not has_section(rel, m.group(1)):
                problems.append((line_at(offs, m.start()),
                                 'section "%s" not in %s' % (m.group(1), rel)))
    return problems


def main():
    bad = 0
    for rel in files():
        if rel in SKIP:
            continue
        for line, what in sorted(set(name_problems(rel) + area_problems(rel) +
                                     section_problems(rel))):
            print("%s:%d: %s" % (rel, line, what))
            bad += 1
    if bad:
        print("check_names: %d name(s) or section(s) not where a comment says" % bad)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
