# SPDX-License-Identifier: GPL-2.0
"""The special-dispatch table (cocci/lib/special.tsv) and the
IRC decision: which initial return code call_int_hook(HOOK, IRC, ...) gets
for a converted legacy call.  Read by rule 30 (calls), the forward's
textual conversion and the seed checks; nothing else parses special.tsv.

    load(path=None)                       -> {hook: Special}
    default_irc(hook)                     -> the hook's default, 0 for void
    irc_for_call(hook, irc, args, sigs)   -> (irc, None) | (None, why)
    irc_of(hook, hooks, table, args, sigs)-> (irc, why)
"""
import os
import re
from collections import namedtuple

from lsmconv import dispatch, hooks as hookmod

Special = namedtuple("Special", "cls irc extra why")
PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib", "special.tsv")


class TableError(Exception):
    pass


def load(path=None):
    """{hook: Special(cls, irc, extra, why)}; raises TableError on a bad line."""
    path = path or PATH
    table = {}
    try:
        f = open(path, encoding="utf-8")
    except OSError as e:
        raise TableError("%s: %s" % (path, e.strerror))
    with f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.startswith("#"):
                continue
            parts = line.rstrip("\n").split("\t")
            if len(parts) != 5 or parts[1] not in dispatch.CLASSES:
                raise TableError("%s:%d: bad special-table line" % (path, n))
            table[parts[0]] = Special(*parts[1:])
    return table


def default_irc(hook):
    """IRC when the table says nothing: the hook's default (0 for void)."""
    d = hook.default
    return "0" if d in ("0", "LSM_RET_VOID") else d


def norm_type(t):
    return re.sub(r"\s+", " ", re.sub(r"\s*\*\s*", " *", str(t))).strip()


def _param_name(decl):
    m = re.search(r"([A-Za-z_]\w*)\s*(\[[^\]]*\])?\s*$", decl)
    return m.group(1) if m else None


def _param_type(decl):
    n = _param_name(decl)
    t = decl[: decl.rfind(n)] if n else decl
    return norm_type(t)


def _split(text):
    return [p for p in hookmod.split_args(str(text))] if str(text).strip() else []


def irc_for_call(hook, irc, args, legacy_sigs):
    """The IRC of special.tsv may name the parameters of the target hook
    (a Hook of lsmconv.hooks): each is replaced by the call's argument at
    that position, only when the legacy struct security_operations
    (legacy_sigs: {hook: parameter list text} of lsmconv.legacy) gives that
    parameter the target's type.  Returns (irc, None) or (None, reason)."""
    params = _split(hook.args)
    names = [_param_name(d) for d in params]
    used = [i for i, n in enumerate(names) if n and re.search(r"\b%s\b" % re.escape(n), irc)]
    if not used:
        return irc, None
    args = _split(args)
    if len(args) != len(params):
        return None, "the call does not pass the %d arguments of the target hook" % len(params)
    legacy = legacy_sigs.get(hook.name)
    if legacy is None:
        return None, ("no legacy struct security_operations definition to check the type of %s"
                      % ", ".join(names[i] for i in used))
    lparams = _split(legacy)
    for i in used:
        if i >= len(lparams) or _param_type(lparams[i]) != _param_type(params[i]):
            return None, "the legacy parameter %d is `%s`, the target has `%s`" % (
                i + 1, lparams[i] if i < len(lparams) else "missing", params[i])
    out = irc
    for i in used:
        a = args[i]
        if not re.match(r"^[A-Za-z_]\w*$", a):
            a = "(%s)" % a
        out = re.sub(r"\b%s\b" % re.escape(names[i]), lambda m, a=a: a, out)
    return out, None


def irc_of(hook, table, args, legacy_sigs):
    """(irc, why) for a legacy call of hook (a Hook) with argument text args:
    the table's IRC (parameters replaced), else the hook's default; why is
    None, or the reason the table's IRC could not be used (the call then
    gets the default and is a todo)."""
    sp = table.get(hook.name)
    irc = sp.irc if sp and sp.irc != "-" else default_irc(hook)
    if sp and sp.cls == "irc":
        got, why = irc_for_call(hook, irc, args, legacy_sigs)
        return (got, None) if why is None else (default_irc(hook), why)
    return irc, None
