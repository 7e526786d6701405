# SPDX-License-Identifier: GPL-2.0
"""Reading C source the way the rules need it: cached file text and lines,
the preprocessor conditionals around each line, comments stripped with line
numbers kept (strip_comments: lsmconv.cscan's).

Every file read here is recorded (record()): with LSMCONV_READS=FILE in the
environment, each process appends the absolute path of every file it reads
(or looks for: a missing file that appears later matters too) to FILE, once
a path.  The rules' helpers read the target tree only through text() (or
call record() for a file they open themselves), so the record of a
conversion is every target file it depended on: lsmconv.port keys its cache
by it (reads_of(), digest()).
"""
import hashlib
import os
import re

from lsmconv import cscan

READS = "LSMCONV_READS"

_TEXT = {}
_LINES = {}
_FRAMES = {}
_RECORDED = set()


def record(path):
    """Note that path was read: appended to $LSMCONV_READS, once."""
    log = os.environ.get(READS)
    if not log:
        return
    p = os.path.abspath(path)
    if p in _RECORDED:
        return
    _RECORDED.add(p)
    try:
        with open(log, "a", encoding="utf-8", errors="surrogateescape") as f:
            f.write(p + "\n")
    except OSError:
        pass


def reads_of(log, tree):
    """The paths relative to tree of the files under tree a record names
    (sorted, each once)."""
    top = os.path.realpath(tree)
    out = set()
    try:
        with open(log, encoding="utf-8", errors="surrogateescape") as f:
            names = f.read().split("\n")
    except OSError:
        return []
    for p in names:
        if not p:
            continue
        r = os.path.realpath(p)
        if r.startswith(top + os.sep):
            out.add(os.path.relpath(r, top))
    return sorted(out)


def digest(path):
    """sha256 of a file's bytes, "-" when it cannot be read."""
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return "-"


def text(path, missing=""):
    """The file's text (cached; errors replaced); missing when unreadable."""
    if path not in _TEXT:
        record(path)
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                _TEXT[path] = f.read()
        except OSError:
            _TEXT[path] = None
    t = _TEXT[path]
    return missing if t is None else t


def lines(path):
    """The file's lines (cached: callers must not change the list)."""
    if path not in _LINES:
        _LINES[path] = text(path).split("\n")
    return _LINES[path]


def frames(path, line):
    """The conditionals enclosing 1-based line `line` (the directives on
    the lines before it), outermost first: ((directive, in_else), ...) with
    the stripped `#if...` line and whether an #else/#elif of it came
    before.  One pass per file, cached."""
    if path not in _FRAMES:
        states, st = [], ()
        for ln in lines(path):
            states.append(st)
            d = ln.strip()
            if re.match(r"#\s*endif\b", d):
                st = st[:-1]
            elif re.match(r"#\s*if", d):
                st = st + ((d, False),)
            elif re.match(r"#\s*(else|elif)\b", d) and st:
                st = st[:-1] + ((st[-1][0], True),)
        _FRAMES[path] = states
    states = _FRAMES[path]
    i = int(line) - 1
    return states[i] if 0 <= i < len(states) else ()


# Comments blanked out (lsmconv.cscan, the one C scanner): the same length,
# newlines kept.  Kept here for the rules' helpers and forward.py.
strip_comments = cscan.strip_comments
