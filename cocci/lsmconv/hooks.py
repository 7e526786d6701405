#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The hook model: every hook of a kernel tree, from one of two sources.

- A stacked tree (5.7+): include/linux/lsm_hook_defs.h, an X-macro list,
  one `LSM_HOOK(RET, DEFAULT, NAME, args...)` per hook.
- A legacy (pre-4.2) tree: its own `struct security_operations` (in
  include/linux/lsm_hooks.h once the series has split it out, else in
  include/linux/security.h), one function-pointer member per hook, in
  order, with the `#ifdef` groups it sits in; the default is what
  security_fixup_ops() installs for a hook no module supplies
  (lsmconv.defaults): the constant a capability.c stub returns, else 0
  (LSM_RET_VOID for void hooks), or VALUE for a hook the tree stacks by
  hand until the answer is not VALUE (`if (rc != VALUE) return rc;`).

This module is the single reader of both: every rule, step and test gets
hook names, return types, defaults, guards and parameter lists from here.

    parse(path)        -> [(name, ret, default, guard, args)]  (args: one string)
    parse_legacy(path) -> the same, of a struct security_operations
    source(tree)       -> the file load() reads the hooks from
    load(tree)         -> {name: Hook}  (Hook.params: [(type, name)])
    split_args(text)   -> top-level comma split of a macro argument list
                          (lsmconv.cscan's, as param())

guard is the enclosing preprocessor condition ("-" when none; nested
conditions are joined with " && ").

As a command it prints one tab-separated line per hook
(name, return type, default, guard, args):

    python3 -m lsmconv.hooks TREE|lsm_hook_defs.h
"""
import os
import re
import sys
from collections import namedtuple

from lsmconv import defaults, source
from lsmconv.cscan import param, split_args  # noqa: F401 (the model's API)

Hook = namedtuple("Hook", "name ret default guard args params")


def die(msg):
    sys.stderr.write("hookdb: %s\n" % msg)
    sys.exit(2)


def parse(path):
    text = source.text(path, None)
    if text is None:
        die("%s: cannot read" % path)
    lines = text.split("\n")
    stack, hooks, i = [], [], 0
    in_comment = False
    while i < len(lines):
        line = lines[i]
        lineno = i + 1
        i += 1
        if in_comment:
            if "*/" in line:
                in_comment = False
            continue
        s = line.strip()
        if s.startswith("/*") and "*/" not in s:
            in_comment = True
            continue
        kw = directive(stack, s)
        if kw and kw.startswith("!"):
            die("%s:%d: #%s without #if" % (path, lineno, kw[1:]))
        if kw:
            continue
        if not s.startswith("LSM_HOOK("):
            continue
        text = s
        while text.count("(") > text.count(")"):
            if i >= len(lines):
                die("%s:%d: unterminated LSM_HOOK" % (path, lineno))
            text += " " + lines[i].strip()
            i += 1
        inner = text[len("LSM_HOOK("):text.rindex(")")]
        parts = split_args(inner)
        if len(parts) < 4:
            die("%s:%d: LSM_HOOK with fewer than 4 arguments" % (path, lineno))
        ret, default, name = parts[0], parts[1], parts[2]
        args = ", ".join(re.sub(r"\s+", " ", a) for a in parts[3:])
        guard = " && ".join(stack) if stack else "-"
        hooks.append((name, ret, default, guard, args))
    if stack:
        die("%s: unterminated #if block" % path)
    if not hooks:
        die("%s: no LSM_HOOK entries: not a 5.7+ lsm_hook_defs.h" % path)
    return hooks


def directive(stack, s):
    """Apply the preprocessor conditional on line s (stripped) to stack, the
    conditions around it (`defined(X)`, `!defined(X)`, an #if's expression;
    #else/#elif negate the one above).  Returns its keyword, None when s is
    no conditional, or "!KEYWORD" for an #else/#elif/#endif without #if
    (the stack is then left as it is)."""
    m = re.match(r"#\s*(ifdef|ifndef|if|elif|else|endif)\b\s*(.*)", s)
    if not m:
        return None
    kw, cond = m.group(1), re.sub(r"/\*.*?\*/", "", m.group(2)).strip()
    if kw == "ifdef":
        stack.append("defined(%s)" % cond)
    elif kw == "ifndef":
        stack.append("!defined(%s)" % cond)
    elif kw == "if":
        stack.append(cond)
    elif not stack:
        return "!" + kw
    elif kw in ("elif", "else"):
        prev = stack.pop()
        stack.append("!(%s)%s" % (prev, " && (%s)" % cond if kw == "elif" else ""))
    else:
        stack.pop()
    return kw


def _guards(lines):
    """Yield (line index, guard stack) of each line that is not a
    preprocessor conditional, after the conditionals before it."""
    stack = []
    for i, line in enumerate(lines):
        if not directive(stack, line.strip()):
            yield i, stack


LEGACY_STRUCT = re.compile(r"\bstruct\s+security_operations\s*\{")


def parse_legacy(path, defaults=None):
    """[(name, ret, default, guard, args)] of the function-pointer members
    of the struct security_operations defined in path (None: no
    definition there).  defaults: {hook: default} (others: 0, or
    LSM_RET_VOID for void hooks)."""
    text = source.strip_comments(source.text(path))
    m = LEGACY_STRUCT.search(text)
    if not m:
        return None
    depth, i = 1, m.end()
    while i < len(text) and depth:
        depth += (text[i] == "{") - (text[i] == "}")
        i += 1
    body = text[m.end():i - 1].split("\n")
    hooks, decl, guard = [], "", "-"
    for n, stack in _guards(body):
        if not decl.strip():
            guard = " && ".join(stack) if stack else "-"
        decl += " " + body[n]
        if ";" not in decl:
            continue
        for d in decl.split(";")[:-1]:
            d = " ".join(d.split())
            fp = re.match(r"(.+?)\(\s*\*\s*(\w+)\s*\)\s*\((.*)\)$", d)
            if not fp:
                continue
            ret, name = " ".join(fp.group(1).split()), fp.group(2)
            args = ", ".join(re.sub(r"\s+", " ", a) for a in split_args(fp.group(3)))
            default = (defaults or {}).get(name) or ("LSM_RET_VOID" if ret == "void" else "0")
            hooks.append((name, ret, default, guard, args))
        decl = decl.split(";")[-1].strip()
    return hooks


def legacy_defaults(tree):
    """{hook: default} of a legacy tree (see the module docstring)."""
    d = defaults.stubs(tree)
    out = {h: x.value for h, x in d.items() if x.kind in ("const", "reset") and x.value}
    out.update(defaults.stops(tree, d))
    return out


LEGACY_HEADERS = ("include/linux/lsm_hooks.h", "include/linux/security.h")


def source_of(tree):
    """The file load() reads TREE's hooks from: lsm_hook_defs.h, else the
    header that defines struct security_operations; None when neither."""
    if not os.path.isdir(tree):
        return tree
    p = os.path.join(tree, "include/linux/lsm_hook_defs.h")
    if os.path.isfile(p):
        return p
    for rel in LEGACY_HEADERS:
        p = os.path.join(tree, rel)
        if LEGACY_STRUCT.search(source.strip_comments(source.text(p))):
            return p
    return None


def defs_path(tree):
    if os.path.isdir(tree):
        return os.path.join(tree, "include/linux/lsm_hook_defs.h")
    return tree


def entries(tree):
    """[(name, ret, default, guard, args)] of a tree (or of an
    lsm_hook_defs.h path): from its lsm_hook_defs.h, else from its legacy
    struct security_operations."""
    path = source_of(tree)
    if path is None:
        die("%s: neither include/linux/lsm_hook_defs.h nor a struct security_operations "
            "in %s: not a kernel tree with LSM hooks" % (tree, " or ".join(LEGACY_HEADERS)))
    if path.endswith("lsm_hook_defs.h") or not os.path.isdir(tree):
        return parse(path)
    return parse_legacy(path, legacy_defaults(tree))


def load(tree):
    """{name: Hook} of a kernel tree (or of an lsm_hook_defs.h path)."""
    out = {}
    for name, ret, default, guard, args in entries(tree):
        params = [param(a) for a in split_args(args)] if args.strip() != "void" else []
        out[name] = Hook(name, ret, default, guard, args, params)
    return out


def main():
    if len(sys.argv) != 2:
        die("usage: python3 -m lsmconv.hooks TREE|lsm_hook_defs.h")
    for h in entries(sys.argv[1]):
        print("\t".join(h))


if __name__ == "__main__":
    main()
