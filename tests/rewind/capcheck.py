#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Static check of a rewound baseline: every module hook that capability also
implements must call cap_<hook>() itself (a module replaces capability's
defaults).  Reads the hooks from the baseline's struct security_operations
initializers and capability's list from the stacked tree's capability_hooks.

usage: capcheck.py STACKED_TREE BASELINE_TREE
Prints one line per hook function checked and exits 1 if any misses its call.
"""
import re
import subprocess
import sys


def capability_hooks(tree):
    text = open("%s/security/commoncap.c" % tree, encoding="utf-8").read()
    m = re.search(r"struct security_hook_list \w+\[\][^=]*=\s*\{(.*?)\n\};", text, re.S)
    if not m:
        sys.exit("capcheck: %s/security/commoncap.c: no hook array" % tree)
    return dict(re.findall(r"LSM_HOOK_INIT\(\s*(\w+)\s*,\s*(\w+)\s*\)", m.group(1)))


def body(text, fn):
    m = re.search(r"^[^\n;]*\b%s\([^;{]*\)\s*\{" % re.escape(fn), text, re.M)
    if not m:
        return None
    i, depth = m.end(), 1
    while depth:
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        i += 1
    return text[m.end():i]


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: capcheck.py STACKED_TREE BASELINE_TREE")
    stacked, base = sys.argv[1:]
    caps = capability_hooks(stacked)
    files = subprocess.run(["grep", "-rl", "--include=*.c", "struct security_operations [a-z_]*_ops = {",
                            "%s/security" % base], capture_output=True, text=True).stdout.split()
    bad = checked = 0
    for f in sorted(files):
        text = open(f, encoding="utf-8").read()
        for ops in re.finditer(r"struct security_operations \w+ = \{(.*?)\n\};", text, re.S):
            for hook, fn in re.findall(r"\.(\w+)\s*=\s*(\w+)\s*,", ops.group(1)):
                if hook not in caps or fn in caps.values():
                    continue
                b = body(text, fn)
                checked += 1
                rel = f[len(base) + 1:]
                if b is None:
                    print("not found: %s: %s (hook %s)" % (rel, fn, hook))
                    bad += 1
                elif not re.search(r"\b%s\(" % caps[hook], b):
                    print("MISSING:   %s: %s does not call %s()" % (rel, fn, caps[hook]))
                    bad += 1
                else:
                    print("ok:        %s: %s calls %s()" % (rel, fn, caps[hook]))
    print("%d hook functions checked, %d without their cap_* call" % (checked, bad))
    sys.exit(1 if bad or not checked else 0)


if __name__ == "__main__":
    main()
