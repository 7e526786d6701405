// SPDX-License-Identifier: GPL-2.0
///
/// Remove the error-path labels that 11-register-security.cocci left
/// without a goto: security_add_hooks() cannot fail, so the cleanup that
/// only its error path jumped to is dead.  In a file that calls
/// security_add_hooks(), a label no goto of the file names goes; when the
/// code before it cannot fall through (return/goto) its single cleanup
/// statement goes too.  A longer dead cleanup block is reported as todo.
///
// Confidence: Moderate
// Copyright: (C) 2026 lsmconv contributors.
// Options: --smpl-spacing
// Keywords: security_add_hooks, label, error path
//

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
import re
import sys

MODE = "patch"
NONE = "__lsmconv_no_match__"
_TEXT = {}


def file_lines(path):
    if path not in _TEXT:
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                _TEXT[path] = f.read().split("\n")
        except OSError:
            _TEXT[path] = []
    return _TEXT[path]


def emit(kind, pos, detail):
    if MODE == "patch":
        print("LSMCONV\t%s\t%s\t%s\t%s" % (kind, pos.file, pos.line, detail))
        sys.stdout.flush()
    elif MODE == "report" and kind == "todo":
        coccilib.report.print_report(pos, "TODO: " + detail)
    elif MODE == "org" and kind == "todo":
        coccilib.org.print_todo(pos, detail)


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

@initialize:python depends on report@
@@
MODE = "report"

@initialize:python depends on org@
@@
MODE = "org"

@initialize:python depends on context@
@@
MODE = "context"

@r@
identifier L;
statement S;
position p;
@@

L@p:
S

@script:python k@
L << r.L;
p << r.p;
drop;
unlabel;
@@

drop, unlabel = NONE, NONE
lines = file_lines(p[0].file)
text = "\n".join(lines)
i = int(p[0].line) - 1
if ("security_add_hooks" in text
        and not re.search(r"\bgoto\s+%s\s*;" % re.escape(L), text)
        and i < len(lines) and re.match(r"\s*%s\s*:\s*$" % re.escape(L), lines[i])):
    if re.match(r"(return\b.*|goto\s+\w+\s*);$", prev_line(lines, i)):
        j = i + 1
        after = next_line(lines, j + 1) if j < len(lines) and lines[j].rstrip().endswith(";") else -1
        if after >= 0 and after < len(lines) and (
                re.match(r"\s*\w+\s*:\s*$", lines[after]) or lines[after].strip() == "}"):
            emit("reg", p[0], "label %s and its cleanup removed: only the "
                 "register_security() error path went there" % L)
            drop = L
        else:
            emit("todo", p[0], "label %s: only the removed register_security() "
                 "error path went there; remove it and its dead cleanup by hand" % L)
    else:
        emit("reg", p[0], "label %s removed: no goto goes there any more" % L)
        unlabel = L
coccinelle.drop = cocci.make_ident(drop)
coccinelle.unlabel = cocci.make_ident(unlabel)

@depends on patch@
identifier k.drop;
statement S;
@@

-drop:
-S

@depends on patch@
identifier k.unlabel;
statement S;
@@

-unlabel:
 S
