#!/usr/bin/env python3
"""Checks that a comment stays beside what it describes and carries no
measurement. CTest runs it as `docs/comments` (and `docs/comments-selftest`
runs tests/tools/test_check_comments.py, which shows that each kind of
problem fails it). tests/tools/check_paths.py and check_names.py check what
a comment names; this checks where a comment stands and what figures it
holds.

    python3 tests/tools/check_comments.py [REPO]   (REPO: default, this checkout)

Read: the comment lines of C++ (.cpp .h .def .inc) and Arc (.arc), the same
files as check_paths.py; for figures also the `#` comments of the Makefile,
CMake, Python and shell files. Not bench/, whose comments describe the
figures its benchmarks print and the targets they check.

1. Two comments glued. Within a run of comment lines, a line that ends a
   sentence well short of the fill column (under SHORT columns), followed
   at once by a comment line that opens a new sentence, is where one
   comment ended and another began: the tree writes an empty comment line
   between the paragraphs of one comment, so this is a comment left behind
   above another when what it described moved or went (gc/heap.h's comment
   of Visitor stood above MarkStack's so; issue 37). Fix: move the comment
   to what it describes, delete it, or, if it is one comment, an empty
   comment line between its paragraphs.
2. A run of comment lines that starts at two columns: the lines at one of
   them belong to other code (vm/interp.cpp's comment of op_LOADL_JUMPF,
   indented as the handlers before it, stood above op_ATOMIC's so).
3. A measurement: a time beside a word of cost or speed ("0.1 s of work",
   "took 3 ms", "takes a quarter of a second"), a ratio of speed ("20 times
   slower", "12% faster"), a share ("12% of the samples"), or a count of
   instructions or cycles. Figures go stale with the next change; they go
   in the commit message, or in docs/ARCHITECTURE.md's "Measurements
   behind the code" if the code's shape rests on them, and the comment
   says why without them. A limit or a constant ("not waited for past
   10 s", "64 KiB pages") is no measurement, and is not matched.

EXCEPTIONS lists, by file and a piece of the line, what is reported but
right, with the reason. Prints FILE:LINE: what for each problem and exits 1
if there is any.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_paths  # noqa: E402  (its list of files and comment reader)

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                       os.path.join(os.path.dirname(__file__), "..", ".."))
check_paths.ROOT = ROOT

SHORT = 60
MARKERS = {".cpp": "//", ".h": "//", ".def": "//", ".inc": "//", ".arc": ";"}
HASH_FILES = (".py", ".sh", ".cmake", "CMakeLists.txt", "Makefile")

# (file, a piece of the reported line): why it stays.
EXCEPTIONS = {}

# ---- 1 and 2: where comments stand -------------------------------------------

COMMENT_LINE = {"//": re.compile(r"^(\s*)//(?!/)\s?(.*)$"),
                ";": re.compile(r"^(\s*);+\s?(.*)$")}


def layout_problems(lines, marker):
    """(line, what) for each glued pair and each change of column in a run of
    comment lines."""
    problems = []
    regex = COMMENT_LINE[marker]
    for i in range(len(lines) - 1):
        a, b = regex.match(lines[i]), regex.match(lines[i + 1])
        if not a or not b:
            continue
        if len(a.group(1)) != len(b.group(1)):
            problems.append((i + 2, "a comment line at column %d below one at column %d: "
                             "they describe different code" %
                             (len(b.group(1)) + 1, len(a.group(1)) + 1)))
            continue
        ta, tb = a.group(2), b.group(2)
        if (len(lines[i].rstrip()) < SHORT and re.search(r"[.!?][)\"']?$", ta)
                and re.match(r"[A-Z]", tb) and not re.match(r"[-=]{3}", ta + tb)
                and not ta.startswith(" ") and not tb.startswith(" ")):
            problems.append((i + 1, "a comment ends here and another begins below it: "
                             "an empty comment line between paragraphs, or this one "
                             "moved to what it describes"))
    return problems


# ---- 3: measurements --------------------------------------------------------

NUM = r"\d[\d,]*(?:\.\d+)?"
WORDNUM = r"(?:" + NUM + r"|one|two|three|four|five|six|seven|eight|nine|ten|twenty|a hundred)"
TIME = (r"(?:\b" + NUM + r"\s?(?:ns|µs|us|ms|s)\b|\b" + WORDNUM +
        r"\s+(?:seconds?|milliseconds?|microseconds?|nanoseconds?|minutes?)\b)")
COST = (r"\b(?:takes?|took|taking|costs?|spent|spends?|of work|faster|slower|median|"
        r"per (?:call|request|iteration|page)|a (?:call|request|page|run))\b")
FIGURES = [
    ("a time", re.compile(TIME + r"[^.;,]*?" + COST + r"|" + COST + r"[^.;,]*?" + TIME)),
    ("a time", re.compile(r"\b(?:takes?|took|costs?)\s+(?:a (?:third|quarter|half|tenth)|half)"
                          r" of a (?:second|millisecond)")),
    ("a ratio", re.compile(r"\b" + WORDNUM + r"\s?(?:%|x|times)\s+(?:faster|slower|fewer|more|"
                           r"less|as fast|as slow)\b")),
    ("a share", re.compile(r"\b" + NUM + r"\s?%\s+of\s+(?:the\s+|its\s+|a\s+|an\s+)?(?:samples|"
                           r"instructions|time|run|startup|start|CPU|pause|requests)\b")),
    ("a count of instructions", re.compile(r"\b" + NUM + r"\s?[MKG]?\s+(?:machine\s+)?"
                                           r"(?:instructions|cycles)\b")),
]


def figure_problems(comments):
    """(line, what) for each measurement in comments, a list of (line, text)."""
    problems = []
    for line, text in comments:
        for what, regex in FIGURES:
            m = regex.search(text)
            if m:
                problems.append((line, "%s in a comment (%s): to the commit message or "
                                 "docs/ARCHITECTURE.md, \"Measurements behind the code\"" %
                                 (what, m.group(0))))
                break
    return problems


# ---- the files --------------------------------------------------------------

def marker_of(rel):
    ext = os.path.splitext(rel)[1]
    if ext in MARKERS:
        return MARKERS[ext]
    if rel.endswith(HASH_FILES) or rel == os.path.join(".ci", "run"):
        return "#"
    return None


def check_file(rel):
    marker = marker_of(rel)
    if marker is None or rel.split(os.sep)[0] == "bench":
        return []
    lines = open(os.path.join(ROOT, rel), encoding="utf-8", errors="replace").read().split("\n")
    problems = layout_problems(lines, marker) if marker in COMMENT_LINE else []
    comments = [(i + 1, check_paths.comment_of(line, marker)) for i, line in enumerate(lines)]
    problems += figure_problems([(i, c) for i, c in comments if c])
    return [(line, what) for line, what in problems
            if not any(f == rel and piece in lines[line - 1] for f, piece in EXCEPTIONS)]


SKIP = (os.path.join("tests", "tools", "check_comments.py"),
        os.path.join("tests", "tools", "test_check_comments.py"))


def main():
    bad = 0
    for rel in check_paths.source_files():
        if rel in SKIP:
            continue  # their examples
        for line, what in check_file(rel):
            print("%s:%d: %s" % (rel, line, what))
            bad += 1
    if bad:
        print("check_comments: %d comment(s) glued, misplaced or holding a figure" % bad)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
