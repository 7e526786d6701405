// SPDX-License-Identifier: GPL-2.0
///
/// Framework piece of the series (seed 003, "Introduce security hook
/// calling Macros"): a file whose functions now use call_int_hook() /
/// call_void_hook() (the legacy security/security.c after
/// 30-hook-calls.cocci) but defines neither macro gets the target's
/// definitions, copied from the target's own security/security.c (its
/// "Hook list operation macros" comment and the two #defines, never typed
/// here), just before the first function that uses them.  Only the legacy
/// framework file is touched: one that defines register_security() or
/// security_init().  The macros walk security_hook_heads, which the rest of the
/// framework (hook heads, security_add_hooks(), LSM init) must provide:
/// that is reported as a todo, since the legacy registration code in the
/// file has no mechanical translation.
///
/// SmPL cannot add preprocessor definitions at a chosen place, so this is
/// a text pass written in Python, as in 51-yama-ifdef.cocci: the rule file
/// makes no SmPL change, so spatch does not rewrite the file afterwards.
///
/// Needs the target tree: LSMCONV_TARGET=<tree> (convert.sh exports it),
/// else build/linux-source-6.1 next to the rule files.
///
// Confidence: Moderate
// Copyright: (C) 2026 lsmconv contributors.
// Options:
// Keywords: call_int_hook, call_void_hook, security_hook_heads
//

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
import os
import re
import sys

MODE = "patch"


def _cmdline(pid):
    try:
        raw = open("/proc/%s/cmdline" % pid, "rb").read()
    except OSError:
        return []
    return raw.decode("utf-8", "replace").split("\0")


def _sp_dir():
    argv = _cmdline("self")
    for i, a in enumerate(argv):
        if a == "--sp-file" and i + 1 < len(argv):
            return os.path.dirname(os.path.abspath(argv[i + 1]))
        if a.endswith(".cocci") and not a.startswith("-"):
            return os.path.dirname(os.path.abspath(a))
    return None


def _read(path):
    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            return f.read()
    except OSError:
        return None


def _find_tree():
    """LSMCONV_TARGET (exported by convert.sh), else build/linux-source-6.1
    next to the rule files."""
    cands = []
    if os.environ.get("LSMCONV_TARGET"):
        cands.append(os.environ["LSMCONV_TARGET"])
    d = _sp_dir()
    if d:
        cands.append(os.path.join(d, "..", "build", "linux-source-6.1"))
    for t in cands:
        if os.path.isfile(os.path.join(t, "security", "security.c")):
            return t
    return None


def _macro_block(tree):
    """The calling macros of security.c in the target, with their comment."""
    text = _read(os.path.join(tree, "security", "security.c")) or ""
    lines = text.split("\n")
    start = end = None
    for i, l in enumerate(lines):
        if re.match(r"#define\s+call_(void|int)_hook\b", l):
            if start is None:
                start = i
            j = i
            while j < len(lines) and lines[j].endswith(chr(92)):
                j += 1
            end = j
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


TREE = _find_tree()
TREE = os.path.normpath(TREE) if TREE else None
BLOCK = _macro_block(TREE) if TREE else None
FIRST = {}   # file -> (line, function) of the first function using a macro
DONE = set() # files handled


def emit(kind, path, line, detail):
    if MODE == "patch":
        print("LSMCONV\t%s\t%s\t%s\t%s" % (kind, path, line, detail))
        sys.stdout.flush()
    else:
        print("%s:%s: %s" % (path, line, detail))


def insert(path):
    if path in DONE or path not in FIRST:
        return
    DONE.add(path)
    line, fn = FIRST[path]
    text = _read(path)
    if text is None or re.search(r"^\s*#\s*define\s+call_(int|void)_hook\b", text, re.M):
        return
    if BLOCK is None:
        emit("todo", path, line, "call_int_hook()/call_void_hook() are used "
             "but not defined, and security/security.c of the target could not "
             "be read: copy the calling macros by hand")
        return
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
    if MODE == "patch":
        new = "\n".join(lines[:at]) + ("\n" if at else "") + BLOCK + "\n" + "\n".join(lines[at:])
        with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(new)
    emit("special", path, line, "calling macros call_void_hook()/call_int_hook() "
         "copied from %s/security/security.c before %s()" % (TREE, fn))
    emit("todo", path, line, "the calling macros walk security_hook_heads: "
         "the file needs the target framework (struct security_hook_heads, "
         "security_add_hooks(), LSM init) in place of security_ops and "
         "register_security(): port it by hand")

@initialize:python depends on !patch@
@@
MODE = "other"

@use@
identifier fn;
expression list es;
position p;
@@

 fn@p(...) {
 <+...
(
 call_int_hook(es)
|
 call_void_hook(es)
)
 ...+>
 }

@script:python@
p << use.p;
fn << use.fn;
@@

f, ln = p[0].file, int(p[0].line)
if f not in FIRST or ln < FIRST[f][0]:
    FIRST[f] = (ln, fn)

@sec@
identifier fn = {register_security, security_init};
position p;
@@

 fn@p(...) {...}

// (done here and not in a finalize rule: with spatch --jobs N, a finalize
// rule does not see the state of the processes that handled the files)
@script:python@
p << sec.p;
@@

insert(p[0].file)
