#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The target's LSM hooks, read from include/linux/lsm_hook_defs.h.

lsm_hook_defs.h (5.7+) is an X-macro list, one `LSM_HOOK(RET, DEFAULT, NAME,
args...)` per hook.  This module is the single reader of that file: every
rule, step and test gets hook names, return types, defaults, guards and
parameter lists from here.

    parse(path)      -> [(name, ret, default, guard, args)]  (args: one string)
    load(tree)       -> {name: Hook}  (Hook.params: [(type, name)])
    split_args(text) -> top-level comma split of a macro argument list

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

Hook = namedtuple("Hook", "name ret default guard args params")


def die(msg):
    sys.stderr.write("hookdb: %s\n" % msg)
    sys.exit(2)


def split_args(text):
    """Split a macro argument list (or any C list) at top-level commas:
    commas inside (), [] or {} do not split."""
    out, depth, cur = [], 0, []
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    out.append("".join(cur).strip())
    return out


def parse(path):
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
    except OSError as e:
        die("%s: %s" % (path, e.strerror))
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
        m = re.match(r"#\s*(ifdef|ifndef|if|elif|else|endif)\b\s*(.*)", s)
        if m:
            kw, cond = m.group(1), re.sub(r"/\*.*?\*/", "", m.group(2)).strip()
            if kw == "ifdef":
                stack.append("defined(%s)" % cond)
            elif kw == "ifndef":
                stack.append("!defined(%s)" % cond)
            elif kw == "if":
                stack.append(cond)
            elif kw in ("elif", "else"):
                if not stack:
                    die("%s:%d: #%s without #if" % (path, lineno, kw))
                prev = stack.pop()
                stack.append("!(%s)%s" % (prev, " && (%s)" % cond if kw == "elif" else ""))
            else:
                if not stack:
                    die("%s:%d: #endif without #if" % (path, lineno))
                stack.pop()
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


def param(decl):
    """'const struct cred *cred' -> ('const struct cred *', 'cred')."""
    decl = re.sub(r"\s+", " ", decl.strip())
    m = re.match(r"(.*?[\s*])([A-Za-z_][A-Za-z_0-9]*)((?:\[[^]]*\])*)$", decl)
    if not m or not m.group(1).strip():
        return (decl, "")
    typ = m.group(1).strip()
    if m.group(3):
        typ += " " + m.group(3)
    return (typ, m.group(2))


def defs_path(tree):
    if os.path.isdir(tree):
        return os.path.join(tree, "include/linux/lsm_hook_defs.h")
    return tree


def load(tree):
    """{name: Hook} of a kernel tree (or of an lsm_hook_defs.h path)."""
    out = {}
    for name, ret, default, guard, args in parse(defs_path(tree)):
        params = [param(a) for a in split_args(args)] if args.strip() != "void" else []
        out[name] = Hook(name, ret, default, guard, args, params)
    return out


def main():
    if len(sys.argv) != 2:
        die("usage: python3 -m lsmconv.hooks TREE|lsm_hook_defs.h")
    for h in parse(defs_path(sys.argv[1])):
        print("\t".join(h))


if __name__ == "__main__":
    main()
