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
    """Comments out, newlines inside block comments kept (line numbers stay)."""
    t = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), t, flags=re.S)
    return re.sub(r"//[^\n]*", "", t)
