#!/usr/bin/env python3
"""The self-test of tests/tools/check_comments.py (CTest:
`docs/comments-selftest`).

Writes a small tree whose comments stand where they belong and hold no
measurement (but limits and constants, which are not one), checks that the
checker passes it; then, one at a time, puts back a fault of each kind,
among them the two drifts issue 37 found on reading (gc/heap.h's comment of
Visitor glued above MarkStack's; vm/interp.cpp's comment of op_LOADL_JUMPF,
at the column of the code before it, above op_ATOMIC's), and checks that
the checker fails, naming the file and the line.

    python3 tests/tools/test_check_comments.py

Exits 1, saying which case went wrong, if any did.
"""
import os
import subprocess
import sys
import tempfile

CHECKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "check_comments.py")

TREE = {
    "gc/heap.h": (
        "// The mark phase's explicit stack (Heap::mark_from_roots). A push never\n"
        "// throws.\n"
        "//\n"
        "// So running out of memory in a collection costs time, never the heap.\n"
        "class MarkStack {};\n"
        "\n"
        "// Visits every reference slot of an object or root set. A moving collector\n"
        "// may rewrite *slot.\n"
        "class Visitor {};\n"),
    "vm/interp.cpp": (
        "void run() {\n"
        "      LOCAL_UPDATE(SUBIL_POPL, SUBIL, fixnum_sub)\n"
        "    // (atomic-invoke (fn () body)) with the body inline after it.\n"
        "    op_ATOMIC:\n"
        "      TEST_RESULT(false);\n"
        "    // (if a ...) on a local: LOADL a; JUMPF, the JUMPF taken here. It stands\n"
        "    // for no primitive, so its general case is never dispatched to.\n"
        "    op_LOADL_JUMPF:\n"
        "  int x;  // a trailing comment\n"
        "         // that goes on below it, at its own column\n"
        "}\n"),
    "vm/thread.cpp": (
        "// The sleep's slack is set to 1 us, so a 100 us sleep is not rounded up;\n"
        "// a child is not waited for past 10 s. Small objects live in 64 KiB\n"
        "// pages. Pinning the registers saves instructions on every loop.\n"
        "int slack;\n"),
    "stdlib/app.arc": (
        "; Saves table h in file, its folder made if need be.\n"
        ";\n"
        "; Atomic, so that two threads saving at once do not share the .tmp file.\n"
        "(def save-table (h file) (writefile h file))\n"),
}

# (file, text replaced, replacement, what the checker must report, as
# "FILE:LINE: ..." or the start of it).
WRONG = [
    # gc/heap.h as it was: Visitor's comment left above MarkStack's.
    ("gc/heap.h",
     "// The mark phase's",
     "// Visits every reference slot of an object or root set. A moving collector\n"
     "// may rewrite *slot.\n// The mark phase's",
     "gc/heap.h:2: a comment ends here and another begins below it"),
    # Two paragraphs of one comment with no empty comment line between.
    ("stdlib/app.arc", "need be.\n;\n; Atomic", "need be.\n; Atomic",
     "stdlib/app.arc:1: a comment ends here and another begins below it"),
    # vm/interp.cpp as it was: LOADL_JUMPF's comment above op_ATOMIC.
    ("vm/interp.cpp",
     "    // (atomic-invoke",
     "      // (if a ...) on a local: LOADL a; JUMPF, the JUMPF taken here. It stands\n"
     "      // for no primitive, so its general case is never dispatched to.\n"
     "    // (atomic-invoke",
     "vm/interp.cpp:5: a comment line at column 5 below one at column 7"),
    # Measurements.
    ("vm/thread.cpp", "saves instructions on every loop",
     "saves 14% of the instructions on every loop",
     "vm/thread.cpp:3: a share in a comment (14% of the instructions)"),
    ("vm/thread.cpp", "saves instructions on every loop",
     "gives 14% fewer instructions on every loop",
     "vm/thread.cpp:3: a ratio in a comment (14% fewer)"),
    ("vm/thread.cpp", "saves instructions on every loop",
     "made the loop six times slower",
     "vm/thread.cpp:3: a ratio in a comment (six times slower)"),
    ("vm/thread.cpp", "saves instructions on every loop",
     "saves 178 instructions a call",
     "vm/thread.cpp:3: a count of instructions in a comment (178 instructions)"),
    ("vm/thread.cpp", "is not waited for past 10 s",
     "is not waited for past 10 s, and a start takes 3.2 ms",
     "vm/thread.cpp:2: a time in a comment (takes 3.2 ms)"),
    ("stdlib/app.arc", "(def save-table",
     "; One hash (each takes a quarter of a second).\n(def save-table",
     "stdlib/app.arc:4: a time in a comment (takes a quarter of a second)"),
    ("stdlib/app.arc", "(def save-table",
     "; Argon2id: 0.1 s of work a call.\n(def save-table",
     "stdlib/app.arc:4: a time in a comment (0.1 s of work)"),
]


def write_tree(root, tree):
    for rel, text in tree.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)


def run(tree):
    with tempfile.TemporaryDirectory() as root:
        write_tree(root, tree)
        p = subprocess.run([sys.executable, CHECKER, root], capture_output=True, text=True)
        return p.returncode, p.stdout + p.stderr


def main():
    failures = []
    code, out = run(TREE)
    if code != 0:
        failures.append("the right tree failed:\n" + out)
    for rel, old, new, expected in WRONG:
        assert TREE[rel].count(old) == 1, (rel, old)
        tree = dict(TREE)
        tree[rel] = TREE[rel].replace(old, new)
        code, out = run(tree)
        if code != 1 or not any(line.startswith(expected) for line in out.splitlines()):
            failures.append("%r -> %r: expected exit 1 and %r, got %d:\n%s" %
                            (old, new, expected, code, out))
    for f in failures:
        print(f)
    print("test_check_comments: %d of %d cases failed" % (len(failures), len(WRONG) + 1))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
