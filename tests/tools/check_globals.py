#!/usr/bin/env python3
"""Checks that the VM is passed, not reached through process-wide state
(docs/ARCHITECTURE.md, "The rooms": the VM is the context): the C++ of the rooms
(vm/, io/, measure/, compiler/, repl/) calls VM::current() or has_vm()
only where ALLOWED says why, and declares a thread_local only where
THREAD_LOCAL says why. CTest runs it as `code/globals`.

    python3 tests/tools/check_globals.py [REPO]   (REPO: default, this checkout)

What is looked at: the code of the rooms' .cpp, .h and .inc files, with
comments, strings and characters left out, so that a comment may name
what it does not call.

Prints FILE:LINE: NAME for each use found elsewhere and exits 1 if there
is any.
"""
import os
import re
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                       os.path.join(os.path.dirname(__file__), "..", ".."))
ROOMS = ["vm", "io", "measure", "compiler", "repl"]
EXTS = (".cpp", ".h", ".inc")

# file: why it may reach the running VM without being given it.
# (None: the last, the fiber kind's trace_outside hook, is given its VM as
# gc::KindInfo's outside_context, and VM::current() and has_vm() are gone;
# a use of either would not build, and this keeps them from coming back.)
ALLOWED = {}
# file: why it keeps a thread_local.
THREAD_LOCAL = {
    "vm/context.cpp": "the sanitizers' fiber bookkeeping (ASan and TSan builds), per OS thread",
    "io/http.cpp": "the Date header's text, cached for the second it names",
}

CURRENT = re.compile(r"\bVM::current\s*\(|\bhas_vm\s*\(")
THREAD = re.compile(r"\bthread_local\b")


def code_of(text):
    """text with comments, string and character literals blanked (newlines kept)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'R"([^(]*)\(', text[i:])
            end = text.find(")" + (m.group(1) if m else "") + '"', i)
            j = n if end < 0 else end + len(m.group(1) if m else "") + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif c in "\"'" and not (c == "'" and i > 0 and text[i - 1].isalnum()):
            # A digit separator (1'000) is not a character literal.
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(" ")
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def uses(text, pattern):
    """(line, name) of each match of pattern in text's code."""
    code = code_of(text)
    return [(code.count("\n", 0, m.start()) + 1, m.group(0).rstrip("( "))
            for m in pattern.finditer(code)]


def self_test():
    """The scanner finds a call and passes over a comment or a string: a
    broken scanner fails here rather than letting every file pass."""
    assert uses("VM& vm = VM::current();\n", CURRENT) == [(1, "VM::current")]
    assert uses("x;\nif (has_vm ()) f();\n", CURRENT) == [(2, "has_vm")]
    assert uses("// VM::current()\n/* has_vm() */ s = \"VM::current()\";\n", CURRENT) == []
    assert uses("static thread_local int n;\n", THREAD) == [(1, "thread_local")]


def main():
    self_test()
    bad = 0
    for room in ROOMS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, room)):
            dirnames.sort()
            for f in sorted(filenames):
                if not f.endswith(EXTS):
                    continue
                path = os.path.join(dirpath, f)
                rel = os.path.relpath(path, ROOT)
                text = open(path, encoding="utf-8", errors="replace").read()
                for pattern, allowed in ((CURRENT, ALLOWED), (THREAD, THREAD_LOCAL)):
                    if rel in allowed:
                        continue
                    for line, name in uses(text, pattern):
                        print(f"{rel}:{line}: {name}")
                        bad += 1
    if bad:
        print(f"{bad} use(s) of process-wide VM state outside the files allowed "
              "(tests/tools/check_globals.py): pass the VM instead", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
