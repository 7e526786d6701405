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

wrap_call(head, args, tail, indent): the lines of a generated call or
declaration (the rewind's and the forward's), broken between arguments.
"""
from lsmconv.hooks import split_args

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


def wrap_call(head, args, tail, indent):
    """Kernel style for generated declarations and calls: one line if
    `indent head(args)tail` fits in 80 columns, else continuation lines
    aligned after the opening parenthesis.  Returns the lines."""
    line = "%s%s(%s)%s" % (indent, head, args, tail)
    if len(line.expandtabs(8)) <= 80:
        return [line]
    parts = [a.strip() for a in split_args(args)]
    lines, cur = [], "%s%s(" % (indent, head)
    col = len(cur.expandtabs(8))
    pad = "\t" * (col // 8) + " " * (col % 8)
    first = True
    for i, p in enumerate(parts):
        piece = p + (", " if i < len(parts) - 1 else ")" + tail)
        if not first and len((cur + piece.rstrip()).expandtabs(8)) > 80:
            lines.append(cur.rstrip())
            cur = pad
        cur += piece
        first = False
    lines.append(cur)
    return lines
