# SPDX-License-Identifier: GPL-2.0
"""Rule 13 (13-unused-labels.cocci): labels only the removed
register_security() error path jumped to."""
import re

from lsmconv import emit as _emit, source

emit, set_mode = _emit.emit, _emit.set_mode
__all__ = ["emit", "set_mode", "label"]

NONE = "__lsmconv_no_match__"


def prev_line(lines, i):
    """The last non-blank line before index i."""
    i -= 1
    while i >= 0 and not lines[i].strip():
        i -= 1
    return lines[i].strip() if i >= 0 else ""


def next_line(lines, i):
    """Index of the first non-blank line from index i on."""
    while i < len(lines) and not lines[i].strip():
        i += 1
    return i


def label(L, pos):
    """Label L at pos: (drop, unlabel): the label to remove with its
    statement, the label to remove alone (NONE: neither)."""
    drop, unlabel = NONE, NONE
    lines = source.lines(pos.file)
    text = "\n".join(lines)
    i = int(pos.line) - 1
    if ("security_add_hooks" in text
            and not re.search(r"\bgoto\s+%s\s*;" % re.escape(L), text)
            and i < len(lines) and re.match(r"\s*%s\s*:\s*$" % re.escape(L), lines[i])):
        if re.match(r"(return\b.*|goto\s+\w+\s*);$", prev_line(lines, i)):
            j = i + 1
            after = next_line(lines, j + 1) if j < len(lines) and lines[j].rstrip().endswith(";") else -1
            if after >= 0 and after < len(lines) and (
                    re.match(r"\s*\w+\s*:\s*$", lines[after]) or lines[after].strip() == "}"):
                emit("reg", pos, "label %s and its cleanup removed: only the "
                     "register_security() error path went there" % L)
                drop = L
            else:
                emit("todo", pos, "label %s: only the removed register_security() "
                     "error path went there; remove it and its dead cleanup by hand" % L)
        else:
            emit("reg", pos, "label %s removed: no goto goes there any more" % L)
            unlabel = L
    return drop, unlabel
