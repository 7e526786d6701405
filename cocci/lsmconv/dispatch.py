# SPDX-License-Identifier: GPL-2.0
"""How the target's security.c dispatches a hook: the one vocabulary.

Three things used to name dispatch separately; they are defined here:

CLASSES  the classes of special.tsv: what rule 30 does with a legacy
         `security_ops->HOOK(args)` call whose target wrapper is not the
         plain call_int_hook()/call_void_hook() (see special.tsv).
KINDS    dispatch_kind(): how the stacked security.c walks a hook, and
         stop(): the condition under which it stops after capability's
         answer (the rewind's cap chains and rule 40 use it).
SHAPES   the wrapper shapes the rewind's 20-security-c.cocci reduces to
         one vector; each of its rules is named after one of them.
"""
import re

CLASSES = {
    "irc": "converted with another initial return code",
    "capfall": "converted, then capability's function when it returns the IRC",
    "secid0": "converted, with `*secid = 0;` before the call",
    "review": "converted with the IRC; a human checks an API change",
    "loop": "left: the target walks the hook list itself",
}

KINDS = {
    "void": "call_void_hook(): every module runs",
    "zero": "call_int_hook(): stop at the first non-zero return",
    "positive": "every module must return > 0 (vm_enough_memory)",
    "default": "stop at the first return other than the hook's default",
}

# 20-security-c.cocci rule name -> (dispatch kind or None, what it reduces)
SHAPES = {
    "call_int": ("zero", "call_int_hook(F, IRC, args)"),
    "call_void": ("void", "call_void_hook(F, args)"),
    "call_void0": ("void", "call_void_hook(F)"),
    "first_nondefault": ("default", "loop: first answer other than the default wins"),
    "all_agree": ("positive", "loop: every module must agree"),
    "first_only": (None, "loop: only the first module is asked"),
    "one_call": (None, "loop without break over one vector"),
    "not_mine": (None, "loop: \"not mine\" answers let the next module try"),
    "any_accepts": (None, "loop: accept if one module accepts"),
    "by_name": (None, "loop: the hook picked by the LSM's name"),
    "other_loop": (None, "any other loop: its body runs once"),
    "other_call": (None, "any other hp->hook.F(args)"),
}


def dispatch_kind(sec_c, hook):
    """How the stacked security.c (its text sec_c) walks HOOK: a key of
    KINDS.  Raises LookupError when no wrapper calls the hook."""
    if re.search(r"call_void_hook\(\s*%s\s*[,)]" % hook, sec_c):
        return "void"
    if re.search(r"call_int_hook\(\s*%s\s*," % hook, sec_c):
        return "zero"
    m = re.search(r"\b(h?)list_for_each_entry\(\s*\w+\s*,\s*&security_hook_heads\.%s\s*,"
                  r".*?\n\t\}\n" % hook, sec_c, re.S)
    if not m:
        raise LookupError("security.c: no wrapper calls hook %s" % hook)
    loop = m.group(0)
    if re.search(r"<=\s*0", loop):
        return "positive"
    if "LSM_RET_DEFAULT(%s)" % hook in loop:
        return "default"
    # the 4.2 lists (list_head, no LSM_RET_DEFAULT): `thisrc != VALUE`
    if not m.group(1) and re.search(r"\w+\s*!=\s*-?[A-Z_0-9]+\s*\)", loop):
        return "default"
    return "zero"


def stop(kind, rc, default):
    """The condition on capability's answer rc under which dispatch of a
    hook of that kind stops (None for void)."""
    return {"zero": rc, "positive": "%s <= 0" % rc,
            "default": "%s != %s" % (rc, default)}.get(kind)
