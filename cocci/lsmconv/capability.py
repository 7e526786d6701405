# SPDX-License-Identifier: GPL-2.0
"""What the target's capability module already does, read from the tree.

    hooks(tree)        -> {hook: cap_function} of security/commoncap.c's
                          `capability_hooks[]` (the hooks commoncap registers
                          itself, so a module registering the same function
                          makes it run twice)
    defined(tree, fn)  -> True when the target declares or defines fn
                          (include/linux/security.h, security/commoncap.c);
                          a cap_* it does not know is a legacy default stub
                          of security/capability.c (removed in 4.2)

Nothing here is typed by hand: a tree without capability_hooks[] gives {}.

    python3 -m lsmconv.capability TREE   prints "hook<TAB>function" lines
"""
import os
import re
import sys

from lsmconv import source

_CACHE = {}


def parse(text):
    """{hook: fn} from the text of a commoncap.c."""
    m = re.search(r"\bcapability_hooks\s*\[\s*\][^=;]*=\s*\{(.*?)\n\s*\}\s*;", text, re.S)
    if not m:
        return {}
    out = {}
    for hook, fn in re.findall(r"LSM_HOOK_INIT\s*\(\s*(\w+)\s*,\s*(\w+)\s*\)", m.group(1)):
        out[hook] = fn
    return out


def hooks(tree):
    key = ("hooks", os.path.abspath(tree))
    if key not in _CACHE:
        _CACHE[key] = parse(source.text(os.path.join(tree, "security/commoncap.c")))
    return _CACHE[key]


def _sources(tree):
    key = ("src", os.path.abspath(tree))
    if key not in _CACHE:
        _CACHE[key] = "\n".join(source.text(os.path.join(tree, p)) for p in (
            "include/linux/security.h", "security/commoncap.c"))
    return _CACHE[key]


def defined(tree, fn):
    """True when the target declares or defines function fn."""
    return re.search(r"\b%s\s*\(" % re.escape(fn), _sources(tree)) is not None


def prototype(tree, fn):
    """The target's declaration of fn in include/linux/security.h
    ("int cap_x(...)" on one line, whitespace collapsed), or None."""
    text = source.text(os.path.join(tree, "include/linux/security.h"))
    m = re.search(r"(?:^|\n)\s*(?:extern\s+)?([A-Za-z_][\w \t\*]*?\b%s\s*\([^;{]*\))\s*;"
                  % re.escape(fn), text)
    if not m:
        return None
    return re.sub(r"\s+", " ", m.group(1)).strip()


def main():
    if len(sys.argv) != 2:
        sys.stderr.write("usage: python3 -m lsmconv.capability TREE\n")
        sys.exit(2)
    h = hooks(sys.argv[1])
    if not h:
        sys.stderr.write("capability: no capability_hooks[] in %s/security/commoncap.c\n"
                         % sys.argv[1])
        sys.exit(1)
    for k, v in h.items():
        print("%s\t%s" % (k, v))


if __name__ == "__main__":
    main()
