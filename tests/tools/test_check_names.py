#!/usr/bin/env python3
"""The self-test of tests/tools/check_names.py (CTest: `docs/names-selftest`).

Writes a small tree whose comments cite names and sections in each form
the checker reads, all of them right, and checks that the checker passes
it; then, one at a time, makes one citation wrong and checks that the
checker fails, naming the file, the line and what it did not find.

    python3 tests/tools/test_check_names.py

Exits 1, saying which case went wrong, if any did.
"""
import os
import subprocess
import sys
import tempfile

CHECKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "check_names.py")

# The tree's files have the names of real ones, so that check_paths.py,
# which reads this file too, finds every path it names; vm/vm.h is the one
# that cites the others.
TREE = {
    "vm/builtins.h": (
        "void register_number_builtins(VM& vm);   // arithmetic, rand\n"
        "void register_control_builtins(VM& vm);  // err, ccc\n"),
    "vm/builtins/number.cpp": (
        "const BuiltinDef kDefs[] = {\n"
        '    {"+", bi_add, 0, -1, "sum"},\n'
        '    {"rand", rand_, 0, 1, "a random number"},\n'
        "};\n"
        "void register_number_builtins(VM& vm) { define_builtins(vm, kDefs); }\n"),
    "vm/builtins/control.cpp": (
        "const BuiltinDef kDefs[] = {\n"
        '    {"err", bi_err, 1, -1, "raise an error"},\n'
        '    {"ccc", bi_ccc, 1, 1, "call f with the current continuation"},\n'
        "};\n"
        "void register_control_builtins(VM& vm) { define_builtins(vm, kDefs); }\n"),
    "vm/vm.cpp": (
        "// ---- Safe points ----\n"
        "void VM::unwind() {}\n"),
    "gc/heap.h": (
        "// Visits every reference slot of an object or root set.\n"
        "class Visitor {};\n"),
    "stdlib/prelude.arc": (
        "; --- Errors: on-err and its helpers ---\n"
        "; the handler runs after the unwinding\n"
        "(assign on-err (fn (h f) (%catch (f) h)))\n"
        "(def protect (during after) (dynamic-wind nil during after))\n"
        "(= depth* 0 handlers* nil)\n"
        "; The helpers above (Errors, above).\n"),
    "README.md": (
        "# A tree\n\n## Limits\n\nNone; `make test` runs the tests.\n\n"
        "One file per area in `vm/builtins/`: number (rand), control (err, ccc).\n"),
    "Makefile": "all:\n\ttrue\ntest: all\n\ttrue\n",
    "vm/vm.h": (
        "// Unwinding (vm/vm.cpp, VM::unwind) and `ccc` (vm/builtins/control.cpp);\n"
        "// `on-err` and `protect` live in stdlib/prelude.arc, `rand` in\n"
        "// vm/builtins/number.cpp, and the `Visitor` of gc/heap.h.\n"
        "// (stdlib/prelude.arc: `on-err`, `protect`)\n"
        "// See vm/vm.cpp, \"Safe points\", stdlib/prelude.arc \"Errors\",\n"
        "// README.md's \"Limits\" and stdlib/prelude.arc, \"the handler runs\".\n"
        "// stdlib/prelude.arc's handlers* and vm/builtins/number.cpp's `rand`;\n"
        "// vm/vm.{h,cpp} (`unwind`, `cite`), vm/builtins/control.cpp (the\n"
        "// area: `err` and `ccc`); see stdlib/prelude.arc: `protect`.\n"
        "int cite;\n"),
}

# One wrong citation each: (file, text replaced, replacement, what the
# checker must report, as "FILE:LINE: ...").
WRONG = [
    ("vm/vm.h", "`ccc` (vm/builtins/control.cpp)", "`rand` (vm/builtins/control.cpp)",
     "vm/vm.h:1: Arc name rand not in vm/builtins/control.cpp"),
    ("vm/vm.h", "(vm/vm.cpp, VM::unwind)", "(vm/vm.cpp, VM::rewind)",
     "vm/vm.h:1: C++ name VM::rewind not in vm/vm.cpp"),
    ("vm/vm.h", "`on-err` and `protect` live in", "`on-err` and `protects` live in",
     "vm/vm.h:2: name protects not in stdlib/prelude.arc"),
    ("vm/vm.h", "`rand` in\n// vm/builtins/number.cpp", "`on-err` in\n// vm/builtins/number.cpp",
     "vm/vm.h:2: Arc name on-err not in vm/builtins/number.cpp"),
    ("vm/vm.h", "the `Visitor` of", "the `MarkStack` of",
     "vm/vm.h:3: C++ name MarkStack not in gc/heap.h"),
    ("vm/vm.h", "(stdlib/prelude.arc: `on-err`, `protect`)",
     "(stdlib/prelude.arc: `on-err`, `ccc`)",
     "vm/vm.h:4: Arc name ccc not in stdlib/prelude.arc"),
    ("vm/builtins.h", "// err, ccc", "// err, ccc, rand",
     "vm/builtins.h:2: builtin rand not registered in vm/builtins/control.cpp"),
    ("vm/builtins.h", "// err, ccc", "// err, on-err, ccc",
     "vm/builtins.h:2: builtin on-err not registered in vm/builtins/control.cpp"),
    ("vm/vm.h", '"Safe points"', '"Interrupts"',
     'vm/vm.h:5: section "Interrupts" not in vm/vm.cpp'),
    ("vm/vm.h", 'stdlib/prelude.arc "Errors"', 'stdlib/prelude.arc "Warnings"',
     'vm/vm.h:5: section "Warnings" not in stdlib/prelude.arc'),
    ("vm/vm.h", "README.md's \"Limits\"", "README.md's \"Limit\"",
     'vm/vm.h:6: section "Limit" not in README.md'),
    ("vm/vm.h", '"the handler runs"', '"the handler ran"',
     'vm/vm.h:6: phrase "the handler ran" not in stdlib/prelude.arc'),
    # FILE's NAME; a global of (= a x b y), or one shaped like a global.
    ("vm/vm.h", "prelude.arc's handlers*", "prelude.arc's handler*",
     "vm/vm.h:7: Arc name handler* not in stdlib/prelude.arc"),
    ("vm/vm.h", "number.cpp's `rand`", "number.cpp's `err`",
     "vm/vm.h:7: Arc name err not in vm/builtins/number.cpp"),
    # FILE (`a`, `b`), over a {h,cpp} pair; FILE (a label: `a` and `b`).
    ("vm/vm.h", "(`unwind`, `cite`)", "(`unwind`, `rewind`)",
     "vm/vm.h:8: name rewind not in vm/vm.h or vm/vm.cpp"),
    ("vm/vm.h", "area: `err` and `ccc`", "area: `err` and `rand`",
     "vm/vm.h:8: Arc name rand not in vm/builtins/control.cpp"),
    # FILE: NAME.
    ("vm/vm.h", "stdlib/prelude.arc: `protect`.", "stdlib/prelude.arc: `protected`.",
     "vm/vm.h:9: name protected not in stdlib/prelude.arc"),
    # (Title, above): there, and on that side.
    ("stdlib/prelude.arc", "(Errors, above)", "(Errors, below)",
     'stdlib/prelude.arc:6: section "Errors" not below in stdlib/prelude.arc'),
    # `make TARGET`.
    ("README.md", "`make test`", "`make tests`",
     "README.md:5: make target tests not in Makefile"),
    # An area's list: an undefined builtin-shaped item; a folder's areas.
    ("vm/builtins.h", "// err, ccc", "// err, ccc, call-cc-now",
     "vm/builtins.h:2: builtin call-cc-now not registered in vm/builtins/control.cpp"),
    ("README.md", "number (rand)", "number (rand, ccc)",
     "README.md:7: builtin ccc not registered in vm/builtins/number.cpp"),
    ("README.md", "control (err, ccc)", "contrl (err, ccc)",
     "README.md:7: area contrl: no " + os.path.join("vm", "builtins", "contrl") + ".cpp"),
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
        if code != 1 or expected not in out.splitlines():
            failures.append("%s -> %s: expected exit 1 and %r, got %d:\n%s" %
                            (old, new, expected, code, out))
    for f in failures:
        print(f)
    print("test_check_names: %d of %d cases failed" % (len(failures), len(WRONG) + 1))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
