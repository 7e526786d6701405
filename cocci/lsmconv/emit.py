# SPDX-License-Identifier: GPL-2.0
"""How a rule reports what it decided, in the mode spatch runs it in.

patch    one line on stdout per finding, the driver's protocol:
         LSMCONV<TAB>kind<TAB>file<TAB>line<TAB>detail
report   coccilib.report.print_report (file:line:col: kind: detail), as
         `make coccicheck MODE=report` shows it
org      coccilib.org.print_todo
context  nothing besides spatch's own `*` lines

A rule sets the mode from its `virtual` (set_mode) and calls emit(kind,
pos, detail) with a position of a matched metavariable (p[0]).
"""
import difflib
import os
import sys
from collections import namedtuple

MODE = "patch"


def set_mode(mode):
    global MODE
    MODE = mode


def line(kind, path, lineno, detail):
    return "LSMCONV\t%s\t%s\t%s\t%s" % (kind, path, lineno, detail)


def emit(kind, pos, detail):
    if MODE == "patch":
        print(line(kind, pos.file, pos.line, detail))
        sys.stdout.flush()
    elif MODE == "report":
        import coccilib.report
        coccilib.report.print_report(pos, "%s: %s" % ("TODO" if kind == "todo" else kind, detail))
    elif MODE == "org":
        import coccilib.org
        coccilib.org.print_todo(pos, "%s: %s" % (kind, detail))


_SEEN = set()


def emit_once(kind, pos, detail):
    """emit, unless the same detail was already given for that line."""
    k = (pos.file, pos.line, detail)
    if k not in _SEEN:
        _SEEN.add(k)
        emit(kind, pos, detail)


# A place in a file for a finding of a text pass (no spatch position).
Where = namedtuple("Where", "file line column column_end line_end current_element")


def text_pass(path, old, new, found):
    """Report a text pass (a change SmPL cannot express) run from a rule on
    one file: found is [(kind, line, detail)].  patch and context print
    the change as a unified diff (the file itself is not written), report
    and org one finding per line."""
    if MODE in ("patch", "context") and new != old:
        rel = path[2:] if path.startswith("./") else path
        diff = difflib.unified_diff(old.splitlines(True), new.splitlines(True),
                                    "a/" + rel.lstrip("/"), "b/" + rel.lstrip("/"))
        for l in diff:
            sys.stdout.write(l if l.endswith("\n") else l + "\n\\ No newline at end of file\n")
    for kind, ln, detail in found:
        emit(kind, Where(path, ln, 0, 0, ln, ""), detail)


def text_pass_main(argv, run, doc):
    """The command line of a text pass module (`python3 -m lsmconv.NAME
    [--target TREE] [--check] FILE...`): run(paths, tree, check)."""
    tree, check, paths = os.getcwd(), False, []
    argv = list(argv)
    while argv:
        a = argv.pop(0)
        if a == "--target" and argv:
            tree = argv.pop(0)
        elif a == "--check":
            check = True
        elif a.startswith("-"):
            sys.stderr.write(doc)
            return 2
        else:
            paths.append(a)
    return run(paths, tree, check)

