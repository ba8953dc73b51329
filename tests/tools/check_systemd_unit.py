#!/usr/bin/env python3
"""Checks apps/news/deploy/arcana-news.service with `systemd-analyze
verify`: its syntax, its keys, and that its ExecStart names an executable.
CTest runs it as `deploy/systemd`; it is skipped (exit status 77) where
systemd-analyze is missing.

    python3 tests/tools/check_systemd_unit.py ARCANA [REPO]

The unit names the install paths (/opt/arcana); the copy checked names
this checkout and ARCANA instead, since verify wants the command to
exist. An unknown key is only a warning for systemd, so any line of its
output about the unit fails the check too.
"""
import os
import shutil
import subprocess
import sys
import tempfile

SKIP = 77


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: %s ARCANA [REPO]" % sys.argv[0])
    arcana = os.path.abspath(sys.argv[1])
    root = os.path.abspath(sys.argv[2] if len(sys.argv) > 2 else
                           os.path.join(os.path.dirname(__file__), "..", ".."))
    tool = shutil.which("systemd-analyze")
    if not tool:
        print("systemd-analyze not found: skipped")
        return SKIP
    name = "arcana-news.service"
    with open(os.path.join(root, "apps", "news", "deploy", name)) as f:
        text = f.read()
    text = text.replace("/opt/arcana/build/arcana", arcana).replace("/opt/arcana", root)
    with tempfile.TemporaryDirectory(prefix="arcana-unit-") as d:
        path = os.path.join(d, name)
        with open(path, "w") as f:
            f.write(text)
        p = subprocess.run([tool, "verify", path], capture_output=True, text=True, timeout=60)
    out = (p.stdout + p.stderr).strip()
    about = [line for line in out.splitlines() if name in line]
    if p.returncode != 0 or about:
        print("systemd-analyze verify %s: exit status %d\n%s" % (name, p.returncode, out))
        return 1
    print("%s: verified" % name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
