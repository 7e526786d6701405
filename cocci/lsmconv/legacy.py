# SPDX-License-Identifier: GPL-2.0
"""The legacy `struct security_operations` (the single vector before 4.2),
read from the files that define it (`-D legacy=F1:F2`, convert.sh passes
the inputs holding `struct security_operations {`).

    paths(value)          -> the files of a -D legacy value ("" / None: none)
    members(text)         -> member names in order (None: no definition)
    members_of(paths)     -> members of the first file that defines it
    sigs(paths)           -> {member: parameter list text} of its hooks
    sigs_of_text(text)    -> the same, of one text
"""
import re

from lsmconv import source

START = re.compile(r"\bstruct\s+security_operations\s*\{")


def paths(value):
    return [p for p in (value or "").split(":") if p]


def members(text):
    """Member names of the definition in text (comments already stripped;
    preprocessor lines are skipped, so #ifdef'ed members count)."""
    m = START.search(text)
    if not m:
        return None
    body, depth, i = [], 1, m.end()
    while i < len(text) and depth:
        c = text[i]
        depth += (c == "{") - (c == "}")
        body.append(c)
        i += 1
    body = "".join(body[:-1])
    body = "\n".join(l for l in body.split("\n")
                     if not l.strip().startswith("#"))
    names = []
    for decl in body.split(";"):
        decl = " ".join(decl.split())
        if not decl:
            continue
        fp = re.search(r"\(\s*\*\s*(\w+)\s*\)\s*\(", decl)
        if fp:
            names.append(fp.group(1))
            continue
        plain = re.search(r"(\w+)\s*(\[[^\]]*\])*$", decl)
        if plain:
            names.append(plain.group(1))
    return names


def members_of(files):
    for path in files:
        names = members(source.strip_comments(source.text(path)))
        if names:
            return names
    return None


def sigs_of_text(text, out=None):
    """{hook: parameter list} of the function-pointer members of the first
    definition in text (added to out, existing entries win)."""
    out = {} if out is None else out
    m = START.search(text)
    if m:
        for mm in re.finditer(r"\(\s*\*\s*(\w+)\s*\)\s*\(([^;]*)\)\s*;", text[m.end():]):
            out.setdefault(mm.group(1), mm.group(2))
    return out


def sigs(files):
    """sigs_of_text over the files (first definition wins)."""
    out = {}
    for path in files:
        sigs_of_text(source.text(path), out)
    return out
