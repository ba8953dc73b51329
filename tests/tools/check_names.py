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
    FILE's NAME         stdlib/srv.arc's opstats*
    FILE: NAME          `gc/gen.cpp`: `gen`
    FILE (NAMES ...)    `gc/gen.cpp` (`kGrowth`), `compiler/builtins.{h,cpp}`
                        (`eval`, `read`, ... and prose): the backticked names
                        that open the parenthesis, after a label if any
                        (`io/sqlite.cpp` (SQLite databases: `sql-open`, ...))
    (FILE: NAME, ...)   each backticked NAME of the list
A FILE written x.{h,cpp} is either file. A NAME is checked when it is
written as code: in backticks, or with `_`, `::`, `()` or an inner capital
(C++), or an Arc name shaped as no English word is (%x, x*, x?, x!), or a
builtin or definition of stdlib/ or apps/ with a `-`, `<`, `=` or `+` in it;
in (FILE, NAME) any single word after the comma is. A name in prose ("the
reader (compiler/reader.h)") is not.
What "is there" means, by the kind of name and file:
  - an Arc name in an .arc file: a definition of it there, `(def NAME`,
    `(mac NAME`, `(defop NAME`, `(newsop NAME`, ..., or a name an
    `(= a x b y ...)` or `(assign NAME ...)` sets, anywhere in the file;
  - an Arc name in a .cpp file: a builtin that file's table registers,
    `{"NAME", fn, min, max, ...}` (vm/builtins.h); in a header, its .cpp's;
  - a C++ name: the identifier occurs in the file's code, not only in a
    comment; a qualified one (VM::unwind) occurs so in a .cpp, or its class
    is declared there and holds the member; in a header, each part occurs;
  - a backticked word that is neither: either of the above, or a string
    literal of the code ("marksweep").
FILE is a path from the repository's top or, bare, the file of that name
at the top, beside the citing file, or the only one in the repository.

Areas. Where a comment says which area registers a builtin:
  - a trailing comment on a `register_AREA_builtins` declaration
    (vm/builtins.h, io/io.h): each item that is an Arc name (a builtin or
    definition anywhere, or shaped as one: %x, x*, x-y), after a label
    ("SQLite: sql-open"), must be a builtin the function's file registers;
  - a list of a folder of areas, "`vm/builtins/`: list, ..., system
    (quit, memory, clocks)": each area a file of the folder, and each Arc
    name in its parenthesis registered there.

Sections. The forms:
    FILE, "Title"  or  FILE "Title"  or  FILE's "Title"
    the section "Title" below (or above), (Title, below), (see Title, above)
docs/LANGUAGE.md and docs/ARCHITECTURE.md are check_paths.py's. In another
Markdown file, "Title" must be a heading's title (## 4.2 Title). In a
source file it must begin a section heading (`; --- Title ---`, `// ----
Title ----`, `// ==== Title ====`, `# ---- Title ----`) or the first line
of a block of comment lines ("# Layering: ...", "# The library image
(...)"). A quotation that starts in lower case after `FILE, ` is a phrase:
it must occur in the file's comments, spacing aside. A section said to be
below or above is in the same file, on that side of the citation (a
one-word one may be a C++ type declared there: (Label, above)).

Make targets. Each `make TARGET` written as code is a target of the
Makefile.

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


_code = {}
CPP_EXTS = (".cpp", ".h", ".def", ".inc")


def code(rel):
    """A C++ file's text without its // comments (string literals kept: a
    collector's name, "marksweep", is there as one)."""
    if rel not in _code:
        _code[rel] = "\n".join(line[:len(line) - len(check_paths.comment_of(line, "//"))]
                               for line in read(rel).split("\n"))
    return _code[rel]


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

# A definition: (def NAME, (mac NAME, (defop NAME, (newsop NAME, ...;
# a name assigned, (= a x b y ...) or (assign NAME ...): see arc_defs.
ARC_DEF = re.compile(r"\((?:def[\w-]*|mac|newsop|adop|edop)\s+([^\s()]+)")
BUILTIN = re.compile(r'\{\s*"([^"\s]+)",\s*\w+,\s*-?\d+,\s*-?\d+')


ARC_ATOM = re.compile(r'"(?:[^"\\]|\\.)*"|#\\\S[^\s()]*|;[^\n]*|[()]|[^\s()";]+')


def assigned(text, start):
    """The names the (= a x b y ...) at start assigns: every other element,
    from the first."""
    names, depth, n = [], 0, 0
    for m in ARC_ATOM.finditer(text, start):
        tok = m.group(0)
        if tok.startswith(";"):
            continue
        if tok == "(":
            if depth == 1:
                n += 1
            depth += 1
        elif tok == ")":
            depth -= 1
            if depth == 0:
                break
        elif depth == 1:
            if n >= 1 and n % 2 == 1:
                names.append(tok)
            n += 1
    return names


def arc_defs(rel):
    """What an .arc file defines: (def NAME ...) and the like, and each name
    an (= a x b y ...) or (assign ...) assigns, at the top level or in a
    function (news-reset sets maxid*, which no top-level form does)."""
    text = read(rel)
    names = set(ARC_DEF.findall(text))
    for m in re.finditer(r"\((?:assign|=)\s", text):
        names.update(assigned(text, m.start()))
    return names


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


# Arc names no English word looks like: %internal, global*, pred?, set!.
ARC_MARKED = re.compile(r"%[a-z][\w%*?!/-]*|[a-z][\w%/-]*[*?!]")


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
    if ARC_MARKED.fullmatch(name):
        return "arc"  # an Arc name by its shape, though nothing defines it
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
    if path.endswith(CPP_EXTS):
        text = code(path)  # a C++ name is in the code, not only in a comment
    parts = name.split("::")
    if len(parts) > 1 and path.endswith(".cpp") and name not in text:
        # A member defined in its class's body: the class declared here.
        if not re.search(r"\b(?:class|struct)\s+" + re.escape(parts[-2]) + r"\b", text):
            return False
    if all(ident(p, text) for p in parts):
        return True
    return kind == "either" and name in builtins(path)


# ---- names ------------------------------------------------------------------

FILE = r"`?((?:[\w.-]+/)*[\w.-]+\.(?:arc|cpp|h|def|inc))`?"
# A file or several: vm/thread.{h,cpp}.
FILES = r"`?((?:[\w.-]+/)*[\w.-]+\.(?:arc|cpp|h|def|inc|\{\w+(?:,\w+)+\}))`?"
NAME = r"(`[^`\s]+`|[%\w:*<>=?!+~-]+(?:\(\))?)"
NAMES = r"((?:`[^`\s]+`|[%\w:*<>=?!+~-]+(?:\(\))?)(?:(?:,? and |, )`[^`\s]+`)*)"
CODE_LIST = r"(`[^`\s]+`(?:(?:,? and |, )`[^`\s]+`)*)"
PAREN_FILE_NAME = re.compile(r"\(" + FILE + r"(,?) " + NAME + r"(?=[),;])")
NAME_PAREN_FILE = re.compile(NAME + r" \(" + FILE + r"(?=[),])")
NAME_IN_FILE = re.compile(NAMES + r",? (?:(?:is|are|lives?|stays?|is defined|are defined) )?(?:in|of) " +
                          FILE)
FILE_COLON_LIST = re.compile(r"\(" + FILE + r": ([^)]*)\)")
# FILE (`a`, `b` and more) or FILE (a label: `a`, `b`): the names that open
# the parenthesis, before any prose.
FILE_PAREN_LIST = re.compile(FILES + r",? \((?:[A-Za-z][\w ]*: )?" + CODE_LIST +
                             r"(?=[,;)]| and | \.\.\.)")
POSSESSIVE = re.compile(FILE + r"'s " + NAME)
FILE_COLON = re.compile(r"(?<!\()" + FILE + r": " + NAME)
REGISTER = re.compile(r"void (register_\w+_builtins)\(VM& vm\);\s*//\s*(.*)")
PROSE = {"and", "or", "the", "a", "an", "as", "which", "where", "its", "in", "with", "for",
         "see", "after", "before", "from", "does", "do", "is", "are", "there", "here", "below"}


def split_names(text):
    return [raw.strip() for raw in re.split(r",? and |, ", text)]


def name_citations(text):
    """(position, name, written as code, file) for each citation of a name;
    the file may be several ({h,cpp})."""
    for m in PAREN_FILE_NAME.finditer(text):
        raw = m.group(3)
        code = raw.startswith("`") or (m.group(2) == "," and raw.lower() not in PROSE)
        yield m.start(), raw.strip("`"), code, m.group(1)
    for m in NAME_PAREN_FILE.finditer(text):
        yield m.start(), m.group(1).strip("`"), m.group(1).startswith("`"), m.group(2)
    for m in NAME_IN_FILE.finditer(text):
        for raw in split_names(m.group(1)):
            yield m.start(), raw.strip("`"), raw.startswith("`"), m.group(2)
    for m in FILE_PAREN_LIST.finditer(text):
        for raw in split_names(m.group(2)):
            yield m.start(), raw.strip("`"), True, m.group(1)
    for m in FILE_COLON_LIST.finditer(text):
        for raw in split_names(m.group(2)):
            if re.fullmatch(r"`[^`\s]+`", raw):
                yield m.start(), raw.strip("`"), True, m.group(1)
    for regex in (POSSESSIVE, FILE_COLON):
        for m in regex.finditer(text):
            yield m.start(), m.group(2).strip("`"), m.group(2).startswith("`"), m.group(1)


def name_problems(rel):
    problems = []
    for text, offs in blocks(rel):
        seen = set()
        for pos, name, code, tok in name_citations(text):
            kind = kind_of(name, code)
            paths = [resolve(t, rel) for t in check_paths.expand_braces(tok)]
            if kind is None or None in paths or (name, tok) in seen:
                continue
            seen.add((name, tok))
            path = " or ".join(paths)
            found = any(has_name(p, name, kind) for p in paths)
            if VERBOSE and found:
                print("%s:%d: ok %s %s in %s" % (rel, line_at(offs, pos), kind, name, path))
            if not found:
                what = {"arc": "Arc name", "cpp": "C++ name", "either": "name"}[kind]
                problems.append((line_at(offs, pos), "%s %s not in %s" % (what, name, path)))
    return problems


def area_items(items):
    """The builtins a list of an area's contents names: each item that is
    one Arc name (a builtin or definition anywhere, or shaped like one:
    %x, x*, x?, x-y), after any label ("SQLite: sql-open")."""
    out = []
    for item in re.split(r",? and |, ", items):
        item = re.sub(r"^[A-Za-z][\w ]*: ", "", item.strip()).strip("`")
        if item in arc_names() or ARC_MARKED.fullmatch(item) or \
                re.fullmatch(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)+", item):
            out.append(item)
    return out


AREA_DIR = re.compile(r"`?((?:[\w-]+/)+)`?: ((?:[^.()]|\([^()]*\))+)")


def area_problems(rel):
    """The area comments of register_*_builtins declarations, and a list of
    a folder's areas ("`vm/builtins/`: list, ..., system (quit, clocks)")."""
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
        for item in area_items(m.group(2)):
            if item not in builtins(defining[0]):
                problems.append((i + 1, "builtin %s not registered in %s" % (item, defining[0])))
    for block, offs in blocks(rel):
        for m in AREA_DIR.finditer(block):
            folder = m.group(1)
            areas = [f for f in files()
                     if os.path.dirname(f) + "/" == folder and f.endswith(".cpp")]
            if not areas or not all(re.search(r"void register_\w+_builtins\(", read(f))
                                    for f in areas):
                continue  # not a folder of areas, each file one
            line = line_at(offs, m.start())
            for item in re.split(r",? and |, (?![^()]*\))", m.group(2)):
                am = re.fullmatch(r"\s*([a-z]\w*)(?: \(([^()]*)\))?\s*", item)
                if not am:
                    continue
                cpp = folder + am.group(1) + ".cpp"
                if cpp not in areas:
                    problems.append((line, "area %s: no %s" % (am.group(1), cpp)))
                    continue
                for name in area_items(am.group(2) or ""):
                    if name not in builtins(cpp):
                        problems.append((line, "builtin %s not registered in %s" % (name, cpp)))
    return problems


# ---- sections ---------------------------------------------------------------

SECTION = re.compile(r"`?((?:[\w.-]+/)*(?:[\w.-]+\.(?:arc|cpp|h|def|md|py|txt|sh)|Makefile))`?"
                     r"(,|'s)? \"([^\"]+)\"")
HERE = re.compile(r"the section \"([^\"]+)\" (below|above)")
# (Sessions, below), (see The store, below): a section of the same file, or
# a name declared there, on that side of the citation.
HERE_PAREN = re.compile(r"\((?:see )?([A-Z][\w' -]{1,40}?), (below|above)\)")
RULE = re.compile(r"(?m)^\s*(?:;+|//|#)\s*(?:-{3,}|={3,})\s*(.+?)\s*(?:-{3,}|={3,})?\s*$")
MD_HEADING = re.compile(r"(?m)^#+ (?:\d+(?:\.\d+)*\.? )?(.+?)\s*$")
COMMENT_LINE = re.compile(r"\s*(?:;+|//|#)\s?(.*)")


def headings(path):
    """A file's section titles, and the first lines of its comment blocks,
    each as (line, text)."""
    lines = read(path).split("\n")
    if path.endswith(".md"):
        return [(i + 1, m.group(1).strip("`")) for i, line in enumerate(lines)
                for m in [MD_HEADING.match(line)] if m], []
    rules, firsts, before = [], [], False
    for i, line in enumerate(lines):
        m = RULE.match(line)
        if m:
            rules.append((i + 1, m.group(1)))
        m = COMMENT_LINE.match(line)
        if m and not before:
            firsts.append((i + 1, m.group(1)))
        before = bool(m)
    return rules, firsts


def begins(title, line, after):
    """line starts with title, then ends or goes on with one of after."""
    return line.startswith(title) and (line == title or line[len(title):].startswith(after))


def section_lines(path, title):
    """The lines of path where a section called title starts."""
    rules, firsts = headings(path)
    if path.endswith(".md"):
        return [i for i, h in rules if h == title]
    return ([i for i, r in rules if begins(title, r, (" ", ":", ",", "("))] +
            [i for i, f in firsts if begins(title, f, (":", " ("))])


def has_section(path, title):
    return bool(section_lines(path, title))


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
        for regex in (HERE, HERE_PAREN):
            for m in regex.finditer(text):
                title, side = m.groups()
                line = line_at(offs, m.start())
                ok = any((i > line) == (side == "below") for i in here_lines(rel, title))
                if VERBOSE and ok:
                    print('%s:%d: ok section "%s" %s' % (rel, line, title, side))
                if not ok:
                    problems.append((line, 'section "%s" not %s in %s' % (title, side, rel)))
    return problems


def here_lines(rel, title):
    """Where the section title starts in rel; for a one-word title, also
    each line that declares it as a C++ name (enum class Label)."""
    found = section_lines(rel, title)
    if re.fullmatch(r"[A-Z]\w*", title):
        decl = re.compile(r"\b(?:class|struct|enum(?: class)?|using)\s+" + title + r"\b")
        found += [i + 1 for i, line in enumerate(read(rel).split("\n")) if decl.search(line)]
    return found


# ---- make targets -----------------------------------------------------------

MAKE = re.compile(r"`make ([a-z][\w-]*)")
TARGET = re.compile(r"(?m)^([a-z][\w-]*)\s*:(?!=)")


def make_problems(rel):
    """Each `make TARGET` a comment or document names is a target of the
    Makefile."""
    problems = []
    targets = set(TARGET.findall(read("Makefile") or ""))
    for text, offs in blocks(rel):
        for m in MAKE.finditer(text):
            if m.group(1) not in targets:
                problems.append((line_at(offs, m.start()),
                                 "make target %s not in Makefile" % m.group(1)))
    return problems


def main():
    bad = 0
    for rel in files():
        if rel in SKIP:
            continue
        for line, what in sorted(set(name_problems(rel) + area_problems(rel) +
                                     section_problems(rel) + make_problems(rel))):
            print("%s:%d: %s" % (rel, line, what))
            bad += 1
    if bad:
        print("check_names: %d name(s) or section(s) not where a comment says" % bad)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
