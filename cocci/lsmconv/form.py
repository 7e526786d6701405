# SPDX-License-Identifier: GPL-2.0
"""The target's registration API: how a module registers its hook list,
read from the target's include/linux/lsm_hooks.h (never from a version
number).  The rules ask here how the converted code must look:

    add_hooks_params(tree) -> parameter count of security_add_hooks() (2 in
                              4.2-4.10, 3 later), or None when it has none
    add_hooks_call(tree, array, lsm)
                           -> `security_add_hooks(ARRAY, ARRAY_SIZE(ARRAY)[, "lsm"])`
    module_enable(tree)    -> True when the target keeps
                              security_module_enable(const char *) (4.2-5.0:
                              the module checks it was chosen, by name);
                              False: the framework decides (the check goes)
    define_lsm(tree)       -> True when the target has DEFINE_LSM() (5.1 on)
    initcall(tree)         -> True when the target defines
                              security_initcall() (before 5.1; in init.h,
                              lsm_hooks.h or security.h)
    list_attribute(tree)   -> the attribute of a hook list array:
                              `__lsm_ro_after_init` where the target defines
                              it or its own hook lists are read-only after
                              init, else ""

In the distro tree (6.1) that is the three-argument call, no
security_module_enable(), DEFINE_LSM() and __lsm_ro_after_init; in a
legacy tree stacked in its own version it is whatever the series' heads
step wrote there (v21: two arguments, the check by name, no DEFINE_LSM).

    python3 -m lsmconv.form TREE   prints the form
"""
import glob
import os
import re
import sys

from lsmconv import source
from lsmconv.hooks import split_args

HOOKS_H = "include/linux/lsm_hooks.h"


def _code(tree):
    return source.strip_comments(source.text(os.path.join(tree, HOOKS_H)))


def add_hooks_params(tree):
    m = re.search(r"\bvoid\s+security_add_hooks\s*\(([^)]*)\)", _code(tree))
    return len(split_args(m.group(1))) if m else None


def add_hooks_call(tree, array, lsm):
    if add_hooks_params(tree) == 2:
        return "security_add_hooks(%s, ARRAY_SIZE(%s))" % (array, array)
    return "security_add_hooks(%s, ARRAY_SIZE(%s), \"%s\")" % (array, array, lsm)


def module_enable(tree):
    return re.search(r"\bsecurity_module_enable\s*\(\s*const\s+char\s*\*", _code(tree)) is not None


def define_lsm(tree):
    return re.search(r"#\s*define\s+DEFINE_LSM\s*\(", _code(tree)) is not None


def initcall(tree):
    return any(re.search(r"#\s*define\s+security_initcall\b", source.text(os.path.join(tree, rel)))
               for rel in ("include/linux/init.h", HOOKS_H, "include/linux/security.h"))


def list_attribute(tree):
    """`__lsm_ro_after_init` where the target defines it or its own hook
    lists are read-only after init (6.12 spells it `__ro_after_init`: make
    port's registration step, lsmconv.lsmid, renames it there), else ""."""
    if re.search(r"#\s*define\s+__lsm_ro_after_init\b", _code(tree)):
        return "__lsm_ro_after_init"
    top = os.path.join(tree, "security")
    for d in sorted(os.listdir(top)) if os.path.isdir(top) else []:
        for f in sorted(glob.glob(os.path.join(top, d, "*.c"))):
            if re.search(r"\bstruct\s+security_hook_list\s+\w+\s*\[\s*\]\s*__\w*ro_after_init\b",
                         source.text(f)):
                return "__lsm_ro_after_init"
    return ""


def main():
    if len(sys.argv) != 2:
        sys.stderr.write("usage: python3 -m lsmconv.form TREE\n")
        return 2
    t = sys.argv[1]
    print("security_add_hooks parameters: %s" % add_hooks_params(t))
    print("security_module_enable by name: %s" % module_enable(t))
    print("DEFINE_LSM: %s" % define_lsm(t))
    print("hook list attribute: %s" % (list_attribute(t) or "-"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
