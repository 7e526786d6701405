# SPDX-License-Identifier: GPL-2.0
"""Rule 11 (11-register-security.cocci): register_security(),
security_module_enable() and reset_security_ops() -> the hook-list API.
The rule's script rules record here what they match and report through
emit."""
from lsmconv import emit as _emit, form, rule, source
from lsmconv.kwrap import wrap
from lsmconv.names import key, lsm_ident, lsm_name, tidy

emit, set_mode = _emit.emit, _emit.set_mode
__all__ = ["emit", "set_mode", "key", "tidy", "lsm_name", "call_stmt", "names_for",
           "add_hooks_call", "keeps_enable", "NONE", "NAMES", "HANDLED", "ARRAYS", "DELETE"]

# binds a metavariable that matches no code: switches a transformation off
NONE = "__lsmconv_no_match__"

NAMES = {}
HANDLED = set()
ARRAYS = {}   # file -> {("ops", legacy ops struct) | ("list", hook list array)}
DELETE = set()


def stmt_col(pos):
    """Visual column (tabs = 8) of the statement on the line of pos: its
    indentation."""
    lines = source.text(pos.file, None)
    if lines is None:
        return 8
    lines = lines.split("\n")
    try:
        line = lines[int(pos.line) - 1]
    except IndexError:
        return 8
    return len(line[:len(line) - len(line.lstrip())].expandtabs(8))


def call_stmt(pos, text):
    """`text;` as a statement at the indentation of pos, wrapped like the
    kernel when longer than 80 columns; without the `;` (SmPL adds it)."""
    return wrap(stmt_col(pos), text + ";")[:-1]


def add_hooks_call(array, lsm):
    """The target's security_add_hooks() call for ARRAY (lsmconv.form)."""
    return form.add_hooks_call(rule.target(), array, lsm)


def keeps_enable():
    """True when the target keeps security_module_enable(const char *)."""
    return form.module_enable(rule.target())


def names_for(pos, ops):
    lsm = NAMES.get((pos.file, ops)) or lsm_name(ops, "")
    return lsm, lsm_ident(lsm) + "_hooks"
