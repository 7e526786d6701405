# SPDX-License-Identifier: GPL-2.0
"""report.md, rendered from the items (lsmconv.items) and nothing else.

    render(items, mode, target) -> the Markdown text

Layout (docs/converter.md): a header (mode, target, counts), one table row
per file (entries, call sites, cap chains, special, registration, todo),
`## Left for a human` (every todo, file:line: what to do), the files spatch
could not parse, then the registration changes, the special-table uses and
the capability chains that were kept.
"""
from . import items as I

PARSE_LEGACY = "parse error in code that uses the legacy LSM API"
PARSE_OTHER = "parse error (no legacy LSM API in the unparsed code)"


def _line(item):
    return "- %s:%s: %s" % (item.file, item.line, item.message)


def render(items, mode, target):
    files = [i for i in items if i.kind == "file"]
    found = I.findings(items)
    parse = sorted((i for i in items if i.kind == "parse"), key=I.sort_key)
    rows = {}
    for f in files:
        rows.setdefault(f.file, {})
    for i in found:
        c = rows.setdefault(i.file, {})
        c[i.kind] = c.get(i.kind, 0) + 1
    changed = sum(1 for f in files if f.message == "changed")
    todos = I.todos(found)

    out = ["# lsmconv report\n",
           "- mode: %s" % mode,
           "- target: %s" % target,
           "- files: %d processed, %d changed" % (len(rows), changed),
           "- files spatch could not parse: %d" % len(parse),
           "- left for a human: %d\n" % len(todos),
           "| file | entries | call sites | cap chains | special | registration | todo |",
           "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for name in sorted(rows):
        c = rows[name]
        out.append("| %s | %s |" % (name, " | ".join(str(c.get(k, 0)) for k in I.COLUMNS)))
    out.append("")
    out.append("## Left for a human\n")
    if not todos:
        out.append("Nothing.")
    out.extend(_line(i) for i in todos)
    out.append("")
    if parse:
        out.append("## Files spatch could not parse\n")
        out.extend(_line(i) for i in parse)
        out.append("")
    for title, kind in (("Registration", "reg"), ("Special-table uses", "special"),
                        ("Cap chains kept", "capchain")):
        sel = sorted((i for i in found if i.kind == kind), key=I.sort_key)
        if kind == "capchain":
            # the rule's detail says "...: kept: <reason>" (removed chains
            # are only counted)
            sel = [i for i in sel if ": kept" in i.message]
        if sel:
            out.append("## %s\n" % title)
            out.extend(_line(i) for i in sel)
            out.append("")
    return "\n".join(out)
