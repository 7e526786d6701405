# SPDX-License-Identifier: GPL-2.0
"""The special-dispatch table (cocci/lib/special.tsv) and the
IRC decision: which initial return code call_int_hook(HOOK, IRC, ...) gets
for a converted legacy call.  Read by rule 30 (calls), the forward's
textual conversion and the seed checks; nothing else parses special.tsv.

    load(path=None)                       -> {hook: Special}
    derive(tree, hooks)                   -> {hook: Special} of a legacy tree
    for_tree(tree, hooks)                 -> load() for a stacked tree,
                                             derive() for a legacy one
    default_irc(hook)                     -> the hook's default, 0 for void
    irc_for_call(hook, irc, args, sigs)   -> (irc, None) | (None, why)
    irc_of(hook, hooks, table, args, sigs)-> (irc, why)
"""
import os
import re
from collections import namedtuple

from lsmconv import cscan, defaults, dispatch

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


def derive(tree, hooks):
    """The special table of a legacy tree stacked in its own version,
    derived from its own defaults (lsmconv.defaults) instead of typed: the
    stacked framework must give what security_fixup_ops() gave a hook no
    module supplies, and stack the modules the way the tree stacks them
    by hand.  Rows (hooks of `hooks` only):

      loop    the tree stacks the hook by hand until an answer other than
              VALUE (lsmconv.defaults.stops): the framework walks the list
              itself (forward.py switch generates the wrapper)
      irc     the default stub returns `C ? A : B`; or capability's own
              function is the default but capability does not register it
              (a module of the tree supplies the hook without calling it):
              the IRC is that call, made only when no module supplies the
              hook
      secid0  the stub sets `*LAST = V` (LAST its last parameter) first:
              the wrapper does too; extra is V
      review  any other stub body
    """
    d = defaults.stubs(tree)
    reg = defaults.registers(tree, d)
    stop = defaults.stops(tree, d)
    table = {}
    for h, x in d.items():
        if h not in hooks:
            continue
        names = [n for _t, n in hooks[h].params]
        if h in stop:
            table[h] = Special("loop", "-", "-", "the tree stacks it by hand until an answer "
                               "other than %s (`if (rc != %s) return rc;`): the framework walks "
                               "the list itself and the first other answer wins"
                               % (stop[h], stop[h]))
        elif x.kind == "cond":
            table[h] = Special("irc", x.value, "-", "the legacy default %s() returns `%s`"
                               % (x.fn, x.value))
        elif x.kind == "reset" and len(x.resets) == 1 and names and \
                x.resets[0][0] == names[-1]:
            table[h] = Special("secid0", x.value or "-", x.resets[0][1],
                               "the legacy default %s() sets *%s = %s" % (x.fn, names[-1],
                                                                         x.resets[0][1]))
        elif x.kind == "cap" and h not in reg:
            table[h] = Special("irc", "%s(%s)" % (x.fn, ", ".join(names)), "-",
                               "a module of the tree supplies the hook without calling %s(), "
                               "which the legacy framework called only when no module supplied "
                               "it: so does the stacked one (the IRC is evaluated only for an "
                               "empty list)" % x.fn)
        elif x.kind in ("reset", "other"):
            table[h] = Special("review", x.value or "0", "-", "the legacy default %s() does "
                               "more than return a value: check the stacked wrapper" % x.fn)
    return table


def for_tree(tree, hooks):
    """The special table for target TREE: special.tsv when TREE is a
    stacked tree (the table describes its security.c), else derive()."""
    if os.path.isfile(os.path.join(tree, "include/linux/lsm_hook_defs.h")):
        return load()
    return derive(tree, hooks)


def default_irc(hook):
    """IRC when the table says nothing: the hook's default (0 for void)."""
    d = hook.default
    return "0" if d in ("0", "LSM_RET_VOID") else d


def _param_name(decl):
    return cscan.param(decl)[1] or None


def _split(text):
    return cscan.split_args(str(text)) if str(text).strip() else []


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
        if i >= len(lparams) or cscan.param_type(lparams[i]) != cscan.param_type(params[i]):
            return None, "the legacy parameter %d is `%s`, the target has `%s`" % (
                i + 1, lparams[i] if i < len(lparams) else "missing", params[i])
    subst = {}
    for i in used:
        a = _tidy(args[i])
        subst[names[i]] = a if re.match(r"^[A-Za-z_]\w*$", a) else "(%s)" % a
    # one pass: an argument that names another parameter is not replaced again
    pat = re.compile(r"\b(%s)\b" % "|".join(re.escape(n) for n in subst))
    return pat.sub(lambda m: subst[m.group(1)], irc), None


def _tidy(code):
    """An argument as spatch prints it (`f ( a , b )`) in kernel spacing."""
    code = re.sub(r"\s*([(\[])\s*", r"\1", str(code).strip())
    code = re.sub(r"\s*([)\]])", r"\1", code)
    return re.sub(r"\s*,\s*", ", ", code)


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
