# SPDX-License-Identifier: GPL-2.0
"""Reading C source the way the rules need it: cached file text and lines,
comments stripped with line numbers kept."""
import re

_TEXT = {}


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
    return text(path).split("\n")


def strip_comments(t):
    """Comments blanked out: the same length, newlines kept, so offsets and
    line numbers stay and a comment still separates tokens.  (port_c's
    strip_comments also blanks string and character literals.)"""
    return re.sub(r"/\*.*?\*/|//[^\n]*",
                  lambda m: re.sub(r"[^\n]", " ", m.group(0)), t, flags=re.S)
