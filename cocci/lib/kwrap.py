# SPDX-License-Identifier: GPL-2.0
"""Kernel-style wrapping of a call the converter writes on one line.

wrap(col, text): text is a call as it will be printed from visual column
col (tabs = 8), e.g. `LSM_HOOK_INIT(hook, fn),` or
`security_add_hooks(h, ARRAY_SIZE(h), "x");`.  While a line is longer than
80 columns it is broken after the last top-level ", " that keeps it within
80 columns, and the continuation is aligned under the character after the
opening parenthesis (tabs, then spaces), as the kernel's own code does.
A line that has no such break stays long.  Returns the text with the
breaks ("\n" + indentation) in it.
"""

WIDTH = 80


def _indent(col):
    return "\t" * (col // 8) + " " * (col % 8)


def _vis(col, s):
    """Visual column after printing s from col."""
    for ch in s:
        col = (col // 8 + 1) * 8 if ch == "\t" else col + 1
    return col


def wrap(col, text, width=WIDTH):
    paren = text.find("(")
    if paren < 0 or _vis(col, text) <= width:
        return text
    cont = _vis(col, text[:paren + 1])
    out, start, rest, top = [], col, text, 1
    while _vis(start, rest) > width:
        depth, best, quote = 0, None, None
        for i, ch in enumerate(rest):
            if quote:
                if ch == "\\":
                    continue
                if ch == quote and rest[i - 1] != "\\":
                    quote = None
                continue
            if ch in "\"'":
                quote = ch
            elif ch in "([{":
                depth += 1
            elif ch in ")]}":
                depth -= 1
            elif (ch == "," and rest[i + 1:i + 2] == " " and depth == top and
                  _vis(start, rest[:i + 1]) <= width):
                best = i
        if best is None:
            break
        out.append(rest[:best + 1])
        rest = rest[best + 2:]
        start, top = cont, 0
    out.append(rest)
    return ("\n" + _indent(cont)).join(out)
