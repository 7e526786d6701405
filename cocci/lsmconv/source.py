# SPDX-License-Identifier: GPL-2.0
"""Reading C source the way the rules need it: cached file text and lines,
the preprocessor conditionals around each line, comments stripped with line
numbers kept (strip_comments: lsmconv.cscan's)."""
import re

from lsmconv import cscan

_TEXT = {}
_LINES = {}
_FRAMES = {}


def text(path, missing=""):
    """The file's text (cached; errors replaced); missing when unreadable."""
    if path not in _TEXT:
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
