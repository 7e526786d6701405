# SPDX-License-Identifier: GPL-2.0
"""The legacy defaults of a pre-stacking tree, read from the tree itself.

Before the hook lists, security_fixup_ops() (security/capability.c) filled
every hook a module left NULL with `cap_<hook>`: a stub of capability.c or
a real capability function of commoncap.c.  That is the behaviour of a hook
no module supplies, so it is what the stacked framework must give when a
hook's list is empty; v21 derived its initial return codes from these
stubs.  This module reads them and classifies each one:

    const   the stub is `return VALUE;`          IRC VALUE
    void    an empty void stub (or `return;`)    nothing to do
    reset   `*P = V; ... [return VALUE;]`         the assignments run before
            (P a parameter)                       the hooks, IRC VALUE
    cond    `if (C) return A; return B;`          IRC `C ? A : B`
    cap     no stub: capability's own function   registered by capability
            (commoncap.c) is installed            first, or called when no
                                                  module supplies the hook
    other   any other stub body                  left for a human

    stubs(tree)          -> {hook: Default}, in security_fixup_ops() order
    registers(tree, d)   -> {hook: cap function} of the `cap` defaults that
                            capability registers in the stacked tree: those
                            every module of the tree that supplies the hook
                            calls itself (or installs as its own entry), so
                            that the list walk gives the legacy answer; the
                            others are called only when no module supplies
                            the hook (their IRC is the call)
    stops(tree, hooks)   -> {hook: VALUE} for the hooks whose hand-made
                            stacking in the tree (a module calling cap_<hook>
                            first, security.c calling a module before the
                            vector) goes on only while the answer is VALUE
                            (`if (rc != VALUE) return rc;`), VALUE not 0:
                            the first answer other than VALUE wins

Nothing here names a hook: names come from security_fixup_ops() and the
tree's struct security_operations (lsmconv.hooks).  A tree without
security/capability.c (a stacked tree) gives {} everywhere.

    python3 -m lsmconv.defaults TREE   prints hook<TAB>kind<TAB>value<TAB>fn
"""
import os
import re
import sys
from collections import namedtuple

from lsmconv import cscan, source

Default = namedtuple("Default", "hook fn kind value resets")

CAP_C = "security/capability.c"
SEC_C = "security/security.c"

def _code(path):
    return cscan.strip_comments(source.text(path))


def functions(text):
    """{name: (return type, parameter text, body)} of the top-level
    function definitions in text (lsmconv.cscan; comments stripped)."""
    out = {}
    for f in cscan.functions(text):
        out.setdefault(f.name, (f.ret, f.params, text[f.open + 1:f.close]))
    return out


def _params(text):
    names = []
    for p in text.split(","):
        m = re.search(r"(\w+)\s*(\[[^\]]*\])?\s*$", p.strip())
        if m and p.strip() != "void":
            names.append(m.group(1))
    return names


def classify(params, body):
    """(kind, value, resets) of a stub body (comments stripped)."""
    b = " ".join(body.split())
    if b in ("", "return;"):
        return "void", None, ()
    m = re.fullmatch(r"return ([^;]+);", b)
    if m:
        return "const", m.group(1).strip(), ()
    m = re.fullmatch(r"if \((.+)\) return ([^;]+); return ([^;]+);", b)
    if m:
        return "cond", "%s ? %s : %s" % tuple(s.strip() for s in m.groups()), ()
    resets, rest = [], b
    while True:
        m = re.match(r"\*\s*(\w+) = ([^;]+); ?", rest)
        if not m or m.group(1) not in params:
            break
        resets.append((m.group(1), m.group(2).strip()))
        rest = rest[m.end():]
    if resets:
        if rest == "":
            return "reset", None, tuple(resets)
        m = re.fullmatch(r"return ([^;]+);", rest)
        if m:
            return "reset", m.group(1).strip(), tuple(resets)
    return "other", b, ()


def _fixup(text):
    """[(hook, fn)] that security_fixup_ops() fills: its macro is either
    `M(ops, function)` installing `PREFIX##function` (4.0's
    set_to_cap_if_null) or `M(ops, function, dflt)` installing dflt."""
    for d in re.finditer(r"#\s*define\s+(\w+)\s*\(\s*(\w+)\s*,\s*(\w+)\s*(?:,\s*(\w+)\s*)?\)"
                         r"((?:[^\n]*\\\n)*[^\n]*)", text):
        macro, ops, field, dflt, body = d.groups()
        if not re.search(r"\b%s\s*->\s*%s\s*=" % (ops, field), body):
            continue
        if dflt:
            return re.findall(r"\b%s\s*\(\s*\w+\s*,\s*(\w+)\s*,\s*(\w+)\s*\)\s*;"
                              % re.escape(macro), text)
        pm = re.search(r"(\w*)##\s*%s\b" % re.escape(field), body)
        if pm:
            return [(h, pm.group(1) + h) for h in re.findall(
                r"\b%s\s*\(\s*\w+\s*,\s*(\w+)\s*\)\s*;" % re.escape(macro), text)]
    return []


def stubs(tree):
    """{hook: Default} of the tree's security_fixup_ops(), in its order."""
    path = os.path.join(tree, CAP_C)
    text = _code(path)
    if not text:
        return {}
    fns = functions(text)
    out = {}
    for hook, fn in _fixup(text):
        if fn in fns:
            _ret, params, body = fns[fn]
            kind, value, resets = classify(_params(params), body)
        else:
            kind, value, resets = "cap", None, ()
        out[hook] = Default(hook, fn, kind, value, resets)
    return out


def _module_files(tree):
    """Every .c file under security/ but the framework's own."""
    top = os.path.join(tree, "security")
    for d, _dirs, files in os.walk(top):
        for f in sorted(files):
            rel = os.path.relpath(os.path.join(d, f), tree)
            if f.endswith(".c") and rel not in (CAP_C, SEC_C):
                yield rel


def _initializers(text):
    """[(hook, value)] of the designated entries of every struct
    security_operations initializer in text."""
    out = []
    for m in re.finditer(r"\bstruct\s+security_operations\s+\w+\s*=\s*\{(.*?)\n\}\s*;", text, re.S):
        out += re.findall(r"\.\s*(\w+)\s*=\s*(\w+)", m.group(1))
    return out


def registers(tree, defaults):
    """{hook: fn} of the `cap` defaults capability registers in the stacked
    tree (see the module docstring)."""
    supplied = {}
    bodies = {}
    for rel in _module_files(tree):
        text = _code(os.path.join(tree, rel))
        for hook, fn in _initializers(text):
            supplied.setdefault(hook, []).append((os.path.dirname(rel), fn))
        for name, (_r, _p, body) in functions(text).items():
            bodies.setdefault((os.path.dirname(rel), name), body)
    out = {}
    for hook, d in defaults.items():
        if d.kind != "cap":
            continue
        ok = True
        for mod, fn in supplied.get(hook, []):
            body = bodies.get((mod, fn))
            if fn != d.fn and not (body and re.search(r"\b%s\s*\(" % re.escape(d.fn), body)):
                ok = False
        if ok:
            out[hook] = d.fn
    return out


_STOP = re.compile(r"(\w+)\s*=\s*(\w+)\s*\([^;]*\)\s*;\s*if\s*\(\s*\1\s*!=\s*(-?\w+)\s*\)\s*"
                   r"return\s+\1\s*;")


def stops(tree, hooks):
    """{hook: VALUE} (see the module docstring)."""
    out = {}
    sec = _code(os.path.join(tree, SEC_C))
    for name, (_r, _p, body) in functions(sec).items():
        for m in _STOP.finditer(body):
            hook = name[len("security_"):] if name.startswith("security_") else None
            if hook in hooks and m.group(2).endswith("_" + hook) and m.group(3) != "0":
                out[hook] = m.group(3)
    for rel in _module_files(tree):
        for m in _STOP.finditer(_code(os.path.join(tree, rel))):
            callee = m.group(2)
            if callee.startswith("cap_") and callee[4:] in hooks and m.group(3) != "0":
                out[callee[4:]] = m.group(3)
    return out


def main():
    if len(sys.argv) != 2:
        sys.stderr.write("usage: python3 -m lsmconv.defaults TREE\n")
        return 2
    d = stubs(sys.argv[1])
    if not d:
        sys.stderr.write("defaults: no security_fixup_ops() in %s\n" % os.path.join(sys.argv[1], CAP_C))
        return 1
    reg = registers(sys.argv[1], d)
    for h, x in d.items():
        value = x.value if x.value is not None else "-"
        if x.resets:
            value = "; ".join("*%s = %s" % r for r in x.resets) + " | " + value
        kind = x.kind + ("/registered" if h in reg else "/fallback" if x.kind == "cap" else "")
        print("%s\t%s\t%s\t%s" % (h, kind, value, x.fn))
    return 0


if __name__ == "__main__":
    sys.exit(main())
