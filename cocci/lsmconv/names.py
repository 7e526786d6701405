# SPDX-License-Identifier: GPL-2.0
"""The LSM's name and identifier, from its legacy ops struct.

    lsm_name(ops, name) -> the `.name` string, else ops less _security_ops/_ops
    lsm_ident(lsm)      -> a C identifier (non-word characters -> `_`)

and the keys of the rules' state: key(pos), unit(pos), here(pairs, i).
"""
import os
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


# A temporary file spatch names a position in when the element holding it
# was re-parsed after a transformation (the rest is the input's base name).
SMALL_OUTPUT = re.compile(r"^cocci_small_output-\d+-[0-9a-z]+-(.+)$")


def processing():
    """The files spatch is processing now (cocci.files()); [] outside spatch.
    A rule's state is kept per file (file, name), never by a bare name:
    one spatch process may convert many files (convert.sh --jobs)."""
    import __main__
    cocci = getattr(__main__, "cocci", None)
    return list(cocci.files()) if cocci is not None else []


def unit(pos):
    """The input file of a position: pos.file, or for a position in an
    element spatch re-parsed (SMALL_OUTPUT) the file being processed."""
    m = SMALL_OUTPUT.match(os.path.basename(pos.file))
    if not m:
        return pos.file
    files = processing()
    same = [f for f in files if os.path.basename(f) == m.group(1)]
    return (same or files or [pos.file])[0]


def here(pairs, i):
    """Element i of the tuples in pairs whose file (element 0) is being
    processed: what an identifier constraint may match in this file."""
    files = set(processing())
    return {t[i] for t in pairs if t[0] in files}
