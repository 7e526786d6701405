# SPDX-License-Identifier: GPL-2.0
"""The LSM's name and identifier, from its legacy ops struct.

    lsm_name(ops, name) -> the `.name` string, else ops less _security_ops/_ops
    lsm_ident(lsm)      -> a C identifier (non-word characters -> `_`)
"""
import re


def lsm_name(ops, name):
    if name and name.startswith('"') and name.endswith('"'):
        return name[1:-1]
    for suffix in ("_security_ops", "_ops"):
        if ops.endswith(suffix) and len(ops) > len(suffix):
            return ops[:-len(suffix)]
    return ops


def lsm_ident(lsm):
    ident = re.sub(r"\W", "_", lsm)
    return ident if re.match(r"[A-Za-z_]", ident) else "_" + ident


def tidy(code):
    """spatch prints `& x`, `f ( a )`: close the gaps for messages."""
    code = re.sub(r"([&*!(\[])\s+", r"\1", str(code))
    return re.sub(r"\s+([)\],])", r"\1", code)


def key(pos):
    """A position as a dictionary key."""
    return (pos.file, pos.line, pos.column)
