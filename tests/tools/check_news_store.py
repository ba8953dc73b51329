#!/usr/bin/env python3
"""Checks that the news site touches its files through apps/news/store.arc
(and its second backend, apps/news/store-sqlite.arc) alone: no other file of apps/news/ calls a function that reads, writes,
lists, moves or removes files, names a path of the data directory, or
uses the store's internals (%store-...). CTest runs it as `news/store`.

    python3 tests/tools/check_news_store.py [REPO]   (REPO: default, this checkout)

What is looked at: the code of apps/news/*.arc but store.arc, with its
comments, strings and characters left out. `dir` counts only called
(`(dir ...`), since it is also a common name for a variable (a vote's
direction; `(dir)` is a parameter list). Not counted, on purpose:
  - todisk (stdlib/lib.arc): it writes a disk table or var through the
    saver store.arc registers for it (store-open), Arc 3.1's way of
    saving them;
  - load, which reads the site's code, not its data;
  - serving static files (%http-file, srv.arc's), and srvlog's logs: the
    web library's.
ALLOWED lists the uses that remain, each with its reason.

Prints FILE:LINE: NAME for each use found and exits 1 if there is any.
"""
import glob
import os
import re
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                       os.path.join(os.path.dirname(__file__), "..", ".."))
NEWS = os.path.join(ROOT, "apps", "news")
STORE = "store.arc"
# The store's backends beside it: each one's file is the store's too
# (store.arc's header), so it may touch files and use %store- names.
BACKENDS = {"store-sqlite.arc"}

# Functions and macros of the standard library and the builtins that touch
# files, and the variables that hold the data directory's paths.
FILE_NAMES = {
    "writefile", "%writefile-with", "save-table", "load-table", "load-tables",
    "safe-load-table", "temload", "temloadall", "readfile", "readfile1", "filechars",
    "file-exists", "dir-exists", "rmfile", "mvfile", "%durable-mvfile", "%chmod",
    "ensure-dir", "infile", "outfile", "w/infile", "w/outfile", "w/appendfile",
    "diskvar", "disktable", "fromdisk", "savers*", "durable-writes*", "system",
    "pipe-from",
    "arcdir*", "newsdir*", "storydir*", "profdir*", "votedir*", "topfile*",
    "adminfile*", "hpwfile*", "cookfile*", "sessfile*", "oidfile*",
}
CALLED_ONLY = {"dir"}

# (file, name): why that file may use it.
ALLOWED = {
    ("news.arc", "file-exists"):
        "news-this-script looks for model.arc beside the script: the site's code, not its data",
}

DELIMS = set(" \t\r\n()[]'`,\"")


def code_tokens(text):
    """(line, token, called) of the code: comments, strings and
    characters left out; called when the token follows an open paren and
    something follows it."""
    out = []
    i, n, line = 0, len(text), 1
    after_paren = False
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif c in " \t\r":
            i += 1
        elif c == ";":
            while i < n and text[i] != "\n":
                i += 1
        elif c == '"':
            i += 1
            while i < n and text[i] != '"':
                if text[i] == "\\":
                    i += 1
                elif text[i] == "\n":
                    line += 1
                i += 1
            i += 1
            after_paren = False
        elif c == "#" and text.startswith("#\\", i):
            i += 3  # the character, then whatever letters name it
            while i < n and text[i] not in DELIMS:
                i += 1
            after_paren = False
        elif c in "([":
            after_paren = True
            i += 1
        elif c in ")]'`,":
            after_paren = False
            i += 1
        else:
            j = i
            while j < n and text[j] not in DELIMS:
                j += 1
            k = j
            while k < n and text[k] in " \t":
                k += 1
            # "(dir)" is a parameter list: a call of dir has an argument
            out.append((line, text[i:j], after_paren and not text.startswith(")", k)))
            after_paren = False
            i = j
    return out


def main():
    problems = []
    files = sorted(glob.glob(os.path.join(NEWS, "*.arc")))
    if not any(os.path.basename(f) == STORE for f in files):
        print("%s: missing" % os.path.join(NEWS, STORE))
        return 1
    for path in files:
        name = os.path.basename(path)
        if name == STORE or name in BACKENDS:
            continue
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for line, tok, called in code_tokens(text):
            # ssyntax: a:b and a!b name a and b
            for part in re.split(r"[:!.]", tok) if tok not in FILE_NAMES else [tok]:
                bad = (part in FILE_NAMES or part.startswith("%store-")
                       or (part in CALLED_ONLY and called and part == tok))
                if bad and (name, part) not in ALLOWED:
                    problems.append("%s:%d: %s" % (os.path.relpath(path, ROOT), line, part))
    for p in problems:
        print(p)
    if problems:
        print("apps/news/: files are store.arc's business (see its opening comment)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
