# SPDX-License-Identifier: GPL-2.0
"""Text pass of 60-calling-macros.cocci: a legacy framework file (one that
defines register_security() or security_init()) whose functions use
call_int_hook()/call_void_hook() but that defines neither macro gets the
target's definitions, copied from the target's security/security.c (its
"Hook list operation macros" comment and the two #defines, never typed
here), before the first function that uses them.  The macros walk
security_hook_heads, which the rest of the framework must provide: that
is reported as a todo.  SmPL cannot add preprocessor definitions at a
chosen place, so this is Python.

    python3 -m lsmconv.calling_macros [--target TREE] [--check] FILE...

rewrites each FILE in place and prints its findings (lsmconv.emit's
line); --check changes nothing and prints `FILE:LINE: ...` instead.  TREE
defaults to the current directory.
"""
import os
import re
import sys

from lsmconv import cscan, emit, source
from lsmconv.fsio import read_text

set_mode = emit.set_mode

USE = re.compile(r"\bcall_(int|void)_hook\s*\(")
DEFINED = re.compile(r"^\s*#\s*define\s+call_(int|void)_hook\b", re.M)
FRAMEWORK = ("register_security", "security_init")


def macro_block(tree):
    """The calling macros of security.c in the target, with their comment."""
    path = os.path.join(tree, "security", "security.c")
    source.record(path)         # read as it is (its bytes go into the output)
    text = read_text(path) or ""
    lines = text.split("\n")
    start = end = None
    for i, l in enumerate(lines):
        if re.match(r"#define\s+call_(void|int)_hook\b", l):
            if start is None:
                start = i
            end = cscan.logical_line(lines, i)[1]
    if start is None:
        return None
    # the comment right above the first definition, if any
    k = start - 1
    while k >= 0 and not lines[k].strip():
        k -= 1
    if k >= 0 and lines[k].strip() == "*/":
        while k >= 0 and not lines[k].lstrip().startswith("/*"):
            k -= 1
        if k >= 0:
            start = k
    return "\n".join(lines[start:end + 1]) + "\n"


def functions(text):
    """[(line of the name, name, body)] of the function definitions
    (lsmconv.cscan.functions), the body with comments and strings blanked."""
    code = cscan.code_text(text)
    return [(f.line, f.name, code[f.open:f.close + 1]) for f in cscan.functions(text)]


def plan(text):
    """(line, function) before which the macros go, or None."""
    if DEFINED.search(text):
        return None
    fns = functions(text)
    if not any(name in FRAMEWORK for _l, name, _b in fns):
        return None
    for line, name, body in fns:
        if USE.search(body):
            return line, name
    return None


def insert(text, line, block):
    lines = text.split("\n")
    at = line - 1
    # keep a comment block that sits right above the function with it
    while at > 0 and lines[at - 1].strip() and not lines[at - 1].rstrip().endswith((";", "}")):
        at -= 1
    # and go above a section comment separated by blank lines, as seed 003
    # put the macros above "/* Security operations */"
    k = at - 1
    while k >= 0 and not lines[k].strip():
        k -= 1
    if k >= 0 and lines[k].rstrip().endswith("*/"):
        while k >= 0 and not lines[k].lstrip().startswith("/*"):
            k -= 1
        if k > 0 and not lines[k - 1].strip():
            at = k
    return "\n".join(lines[:at]) + ("\n" if at else "") + block + "\n" + "\n".join(lines[at:])


def findings(path, line, fn, tree, block):
    if block is None:
        return [("todo", line, "call_int_hook()/call_void_hook() are used but not defined, "
                 "and security/security.c of the target could not be read: copy the "
                 "calling macros by hand")]
    return [("special", line, "calling macros call_void_hook()/call_int_hook() copied "
             "from %s/security/security.c before %s()" % (tree, fn)),
            ("todo", line, "the calling macros walk security_hook_heads: the file needs "
             "the target framework (struct security_hook_heads, security_add_hooks(), "
             "LSM init) in place of security_ops and register_security(): port it by hand")]


def run(paths, tree, check=False, out=sys.stdout):
    tree = os.path.normpath(tree)
    block = macro_block(tree)
    for path in paths:
        text = read_text(path)
        if text is None:
            sys.stderr.write("calling_macros: cannot read %s\n" % path)
            return 2
        where = plan(text)
        if where is None:
            continue
        line, fn = where
        if block is not None and not check:
            with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
                f.write(insert(text, line, block))
        for kind, ln, msg in findings(path, line, fn, tree, block):
            out.write(("%s:%s: %s" % (path, ln, msg) if check else
                       emit.line(kind, path, ln, msg)) + "\n")
        out.flush()
    return 0


_DONE = set()


def rule_pass(path, tree):
    """60-calling-macros.cocci's script rule: the pass on one file,
    reported in the rule's mode (lsmconv.emit.text_pass); the file is not
    written."""
    if path in _DONE:
        return
    _DONE.add(path)
    text = read_text(path)
    where = plan(text) if text is not None else None
    if where is None:
        return
    tree = os.path.normpath(tree)
    block = macro_block(tree)
    new = insert(text, where[0], block) if block is not None else text
    emit.text_pass(path, text, new, findings(path, where[0], where[1], tree, block))


def main(argv):
    return emit.text_pass_main(argv, run, __doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
