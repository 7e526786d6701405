# SPDX-License-Identifier: GPL-2.0
"""The parameters of a semantic-patch run, given the kernel's way:

    spatch -D lsmconv=DIR -D target=TREE [-D legacy=F1:F2] ...
    make coccicheck COCCI=RULE M=DIR SPFLAGS="-D lsmconv=DIR ..."

DIR holds this package; TREE is the target kernel tree (default: the
current directory, where coccicheck runs spatch); legacy names the files
holding a legacy struct security_operations definition.  Each rule's
initialize binds the values it gets (`x << virtual.target;`) and calls
setup(); a value that is not given leaves its rule unbound (None).
"""
import os
import sys

from lsmconv import hooks as hookmod, legacy as legmod

TARGET = None
LEGACY = []
_HOOKS = None


def die(msg):
    sys.stderr.write("lsmconv: %s\n" % msg)
    sys.exit(2)


def setup(target, legacy):
    global TARGET, LEGACY
    TARGET = os.path.abspath(target or os.getcwd())
    LEGACY = legmod.paths(legacy)


def target(rel=""):
    return os.path.join(TARGET, rel) if rel else TARGET


def legacy_files():
    """The files holding the legacy struct security_operations: -D legacy,
    else, for a legacy target (a tree stacked in its own version), the
    target's own header that defines it."""
    if LEGACY:
        return LEGACY
    src = hookmod.source_of(TARGET)
    return [src] if src and not src.endswith("lsm_hook_defs.h") else []


def hooks():
    """{name: Hook} of the target (lsmconv.hooks: its lsm_hook_defs.h, or
    for a legacy tree stacked in its own version, its struct
    security_operations)."""
    global _HOOKS
    if _HOOKS is None:
        if hookmod.source_of(TARGET) is None:
            die("%s: no include/linux/lsm_hook_defs.h and no struct security_operations: "
                "run in the target kernel tree or give -D target=TREE" % TARGET)
        _HOOKS = hookmod.load(TARGET)
    return _HOOKS
