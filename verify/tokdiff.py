#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""tokdiff.py - compare two trees ignoring all whitespace, line breaks too.

usage: tokdiff.py A B PATH...

For each PATH (a file or a directory, relative to A and B), every file is
reduced to its text without any whitespace and cut into units after each
';', '{', '}' and '*/'; the units of A and B are compared with difflib.
So a call whose arguments are wrapped differently is equal, a changed
token is not.  Prints a unified diff of the differing units (file by
file) and, as the last line, "N unit(s) differ in M file(s)".  Exit 0
when nothing differs, 1 otherwise.

tokens() is the same notion cut into C tokens (comments kept as tokens of
their own), for verify/v21cmp.py.
"""
import difflib
import os
import re
import sys

WS = re.compile(r"\s+")
CUT = re.compile(r"(?<=[;{}])|(?<=\*/)")
# One C token: a comment, a string or character literal, a number, a word,
# a multi-character operator, any other character; a backslash-newline is
# whitespace.
TOKEN = re.compile(r"""
    (?P<cont>\\\n)
  | (?P<comment>/\*.*?\*/|//[^\n]*)
  | "(?:\\.|[^"\\\n])*"
  | '(?:\\.|[^'\\\n])*'
  | \.?\d(?:[eEpP][-+]|[\w.])*
  | \w+
  | ->|\+\+|--|<<=|>>=|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&^|]=|\#\#|\.\.\.
  | \S
""", re.S | re.X)


def tokens(text):
    """The C tokens of TEXT as (token, offset) pairs, whitespace ignored as
    in units(): a comment is one token with all its whitespace removed (so
    "only comments differ" can be told), a string literal keeps its own."""
    for m in TOKEN.finditer(text):
        if m.group("cont"):
            continue
        t = m.group()
        yield (WS.sub("", t) if m.group("comment") else t), m.start()


def units(path):
    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            text = f.read()
    except FileNotFoundError:
        return []
    return [u for u in CUT.split(WS.sub("", text)) if u]


def files_under(root, rel):
    top = os.path.join(root, rel)
    if os.path.isfile(top):
        return {rel}
    found = set()
    for d, _, names in os.walk(top):
        for n in names:
            found.add(os.path.relpath(os.path.join(d, n), root))
    return found


def main(argv):
    if len(argv) < 4:
        sys.stderr.write(__doc__)
        return 2
    a, b, paths = argv[1], argv[2], argv[3:]
    rels = set()
    for p in paths:
        rels |= files_under(a, p) | files_under(b, p)
    total = nfiles = 0
    for rel in sorted(rels):
        ua, ub = units(os.path.join(a, rel)), units(os.path.join(b, rel))
        if ua == ub:
            continue
        n = 0
        for line in difflib.unified_diff(ua, ub, "a/" + rel, "b/" + rel, n=1, lineterm=""):
            print(line)
            if line[:1] in "+-" and not line.startswith(("+++", "---")):
                n += 1
        total += n
        nfiles += 1
    print("%d unit(s) differ in %d file(s)" % (total, nfiles))
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
