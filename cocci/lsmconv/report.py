# SPDX-License-Identifier: GPL-2.0
"""The Markdown reports, rendered from the items (lsmconv.items) and nothing
else; the one place that writes a report's sections.  No consumer reads the
Markdown back: each reads the items.

    render(items, mode, target) -> convert.sh file|tree's report.md
    render_port(meta, items)    -> convert.sh port's report
    todo_section(items, which)  -> the "Left for a human" section of
                                   report `which` (convert, port, series)

convert.sh's layout (docs/converter.md): a header (mode, target, counts), one
table row per file (entries, call sites, cap chains, special, registration,
todo), the todo section (every todo, file:line: what to do), the files
spatch could not parse, then the registration changes, the special-table
uses and the capability chains that were kept.

The port's (docs/porting.md): a header (meta: [(key, value)]), the todo
section, "Changed by the port"; items in the order given (the port's file
order, then line).

As a command, for scripts (series.sh):

    python3 -m lsmconv.report section WHICH ITEMS.jsonl...
        the todo section of report WHICH: its heading, a blank line, one
        `- file:line: text` line per todo in the order of the files, or
        the report's "nothing" line
"""
import sys

from . import exits
from . import items as I

# The todo section's heading (written here only), and per report: what
# follows it on the heading line, the line when nothing is left.
TODO_HEADING = "## Left for a human"
TODO_SECTIONS = {
    "convert": ("", "Nothing."),
    "port": ("", "Nothing: no legacy LSM API is left."),
    "series": (" in the final tree", "Nothing."),
}

PARSE_LEGACY = "parse error in code that uses the legacy LSM API"
PARSE_OTHER = "parse error (no legacy LSM API in the unparsed code)"


def _line(item):
    return "- %s:%s: %s" % (item.file, item.line, I.text(item))


def todo_section(todos, which):
    """The lines of report `which`'s todo section, the todos in the order
    given."""
    rest, nothing = TODO_SECTIONS[which]
    out = [TODO_HEADING + rest, ""]
    if not todos:
        out.append(nothing)
    out.extend(_line(i) for i in todos)
    return out


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
    out.extend(todo_section(todos, "convert"))
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


def render_port(meta, items):
    """convert.sh port's report: meta [(key, value)] for the header, the
    items in report order (todos and changes)."""
    todos = [i for i in items if I.state_of(i) == "todo"]
    changes = [i for i in items if I.state_of(i) != "todo"]
    out = ["# lsmconv port report", ""]
    out.extend("- %s: %s" % kv for kv in meta)
    out.append("- changes by the port: %d" % len(changes))
    out.append("- left for a human: %d" % len(todos))
    out.append("")
    out.extend(todo_section(todos, "port"))
    out.append("")
    if changes:
        out.append("## Changed by the port")
        out.append("")
        out.extend(_line(i) for i in changes)
        out.append("")
    return "\n".join(out) + "\n"


def actions(items):
    """`- STATE: file:line: message`, one line per item in the order given
    (a forward step's changes, imports and todos in the series report)."""
    return ["- %s: %s:%s: %s" % (I.state_of(i), i.file, i.line, I.text(i)) for i in items]


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) < 3 or argv[0] != "section" or argv[1] not in tuple(TODO_SECTIONS) + ("actions",):
        sys.stderr.write("usage: python3 -m lsmconv.report section convert|port|series|actions "
                         "ITEMS.jsonl...\n")
        return exits.USAGE
    try:
        items = [i for p in argv[2:] for i in I.load(p)]
    except (OSError, ValueError) as e:
        sys.stderr.write("lsmconv.report: %s\n" % e)
        return exits.USAGE
    if argv[1] == "actions":
        lines = actions(items)
    else:
        lines = todo_section([i for i in items if I.state_of(i) == "todo"], argv[1])
    text = "".join(l + "\n" for l in lines)
    sys.stdout.buffer.write(text.encode("utf-8", "surrogateescape"))
    return exits.DONE


if __name__ == "__main__":
    sys.exit(main())
