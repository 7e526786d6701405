# SPDX-License-Identifier: GPL-2.0
"""Rule 50 (50-yama-stacked.cocci): the ad hoc stacking of a module that
security.c calls by hand under a Kconfig option (4.0's Yama under
CONFIG_SECURITY_YAMA_STACKED), in security.c and in the module.  Which
module and which option are read from the code, not typed: a call
PREFIX_HOOK() in the wrapper that dispatches HOOK, where PREFIX is a module
of the target (a directory of its security/), directly inside
`#ifdef CONFIG_OPTION`.  The rule's script rules record what they match
here and call yama_call() and definition()."""
import os
import re

from lsmconv import rule, source
from lsmconv import emit as _emit
from lsmconv.names import here, key, unit

emit, set_mode = _emit.emit, _emit.set_mode
__all__ = ["emit", "set_mode", "key", "stacked_name", "guarded", "yama_call",
           "definition", "guarded_here", "static_again", "yama_act", "used", "clean", "unused", "REGGUARD",
           "DISPATCH", "SHAPE", "CLEAN", "USED", "STATIC"]

_PROTOS = {}
_PREFIXES = []


def module_prefixes():
    """The modules of the target: the directories of its security/."""
    if not _PREFIXES:
        top = rule.target("security")
        _PREFIXES.extend(sorted((d for d in os.listdir(top)
                                 if os.path.isdir(os.path.join(top, d))),
                                key=len, reverse=True) if os.path.isdir(top) else [])
    return _PREFIXES


def split_name(y):
    """(module, hook) when y is MODULE_HOOK for a module of the target and
    a hook of the target, else None."""
    for p in module_prefixes():
        if y.startswith(p + "_") and y[len(p) + 1:] in rule.hooks():
            return p, y[len(p) + 1:]
    return None


def stacked_name(y):
    """SmPL constraint: is y a module's hook function (split_name)?"""
    return split_name(str(y)) is not None


def module_of(option):
    """The module an option stacks, for messages: CONFIG_SECURITY_X_STACKED
    -> X; else the module."""
    m = re.match(r"CONFIG_SECURITY_(\w+?)_STACKED$", option or "")
    return m.group(1).capitalize() if m else "the module"


def protos(option):
    """(declared, declared outside #ifdef OPTION) of the legacy headers."""
    if option not in _PROTOS:
        _PROTOS[option] = _stacked_protos(option)
    return _PROTOS[option]


def stacking_ifdef(pos):
    """The option of the `#ifdef CONFIG_OPTION` the line of pos is directly
    inside (its first branch), else None."""
    st = source.frames(pos.file, pos.line)
    m = re.match(r"#\s*ifdef\s+(CONFIG_\w+)\b", st[-1][0]) if st and not st[-1][1] else None
    return m.group(1) if m else None


def stacking_ifndef(pos):
    """The option of an `#ifndef CONFIG_OPTION` (or `#if !defined(...)`)
    the line of pos is inside (at any depth, not in an #else branch)."""
    for d, in_else in source.frames(pos.file, pos.line):
        m = re.match(r"#\s*(?:ifndef\s+|if\s+!\s*defined\s*\(?\s*)(CONFIG_\w+)\b", d)
        if m and not in_else:
            return m.group(1)
    return None


def _stacked_protos(option):
    """Names declared in the legacy headers (the .h files of
    -D legacy, i.e. security.h in tree mode) outside #ifdef OPTION: (all
    declared names, those declared elsewhere)."""
    every, other = set(), set()
    for path in [p for p in rule.LEGACY if p.endswith(".h")]:
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                lines = f.read().split("\n")
        except OSError:
            continue
        stack = []
        for l in lines:
            s = l.strip()
            if re.match(r"#\s*if", s):
                stack.append(bool(re.match(r"#\s*ifdef\s+%s\b" % option, s)))
            elif re.match(r"#\s*(else|elif)\b", s) and stack:
                stack[-1] = False
            elif re.match(r"#\s*endif\b", s) and stack:
                stack.pop()
            for m in re.finditer(r"\b(\w+)\s*\(", l):
                every.add(m.group(1))
                if not any(stack):
                    other.add(m.group(1))
    return every, other


def is_static(pos):
    """Does the definition whose name is at pos say `static` (on its line
    or the line before, for a return type on a line of its own)?"""
    lines = source.lines(pos.file)
    i = int(pos.line) - 1
    head = lines[i][:int(pos.column)] if i < len(lines) else ""
    if not head.strip() and i > 0:
        head = lines[i - 1] + " " + head
    return re.search(r"\bstatic\b", head) is not None


# Per file, never by a bare name: one spatch process may convert several
# files that use the same function name (convert.sh --jobs).
REGGUARD = {}     # (file, function) -> (hook, option): registered in a list under #ifndef OPTION
STATIC = set()    # (file, function): to make static again

DISPATCH = set()  # (file, function, hook)
SHAPE = {}        # yama call position -> "stmt" | "assign"
ACT = set()       # yama call positions to remove
CLEAN = set()     # (file, function, variable) whose declaration may now be unused
USED = set()      # (file, function, variable) of CLEAN still used


def guarded(fn, hook, pos):
    """LSM_HOOK_INIT(hook, fn) at pos: note it when under #ifndef OPTION."""
    option = stacking_ifndef(pos)
    if option:
        REGGUARD[(pos.file, fn)] = (hook, option)


def guarded_here(fn):
    """Is fn registered under #ifndef OPTION in the file being processed?"""
    return fn in here(REGGUARD, 1)


def static_again(fn):
    """Is fn to be made static again in the file being processed?"""
    return fn in here(STATIC, 1)


def clean(i):
    """The functions (i=1) or variables (i=2) of CLEAN in the file being
    processed."""
    return here(CLEAN, i)


def unused(i):
    """The functions (i=1) or variables (i=2) of CLEAN less USED in the file
    being processed."""
    return here(CLEAN - USED, i)


def yama_act(p):
    return key(p[0]) in ACT


def yama_call(y, pos):
    """A MODULE_HOOK() call at pos: remove it (ACT) or report why not."""
    prefix, h = split_name(y)
    who = prefix.capitalize()
    if (pos.file, pos.current_element, h) in DISPATCH:
        shape = SHAPE.get(key(pos))
        option = stacking_ifdef(pos)
        if shape is None:
            emit("todo", pos, "%s() in %s: %s registers its own hooks in the "
                 "target; this call has a shape the rule does not know: remove by "
                 "hand" % (y, pos.current_element, who))
        elif option is None:
            emit("todo", pos, "%s() in %s is not inside the #ifdef of a stacking "
                 "option: %s registers its own hooks in the target, remove the call "
                 "by hand" % (y, pos.current_element, who))
        else:
            ACT.add(key(pos))
            if shape != "stmt":
                CLEAN.add((pos.file, pos.current_element, shape[1]))
            emit("special", pos, "%s() in %s: %s ad hoc stacking removed "
                 "(%s): %s registers its own %s hook in the target"
                 % (y, pos.current_element, who, option, who, h))


def definition(fn, pos):
    """The definition of fn at pos: static again (STATIC) or report why not."""
    if (pos.file, fn) in REGGUARD and not is_static(pos):
        h, option = REGGUARD[(pos.file, fn)]
        if fn in protos(option)[1]:
            emit("todo", pos, "%s() (%s's %s hook) is declared in a header outside "
                 "#ifdef %s: it may have users besides security.c's ad hoc "
                 "stacking; left global, make it static by hand if not"
                 % (fn, module_of(option), h, option))
        else:
            STATIC.add((pos.file, fn))
            emit("special", pos, "%s() made static again: registered for %s in the "
                 "hook list, it was global only for security.c's ad hoc stacking "
                 "(%s)%s" % (fn, h, option,
                              "; its prototype in the legacy header stays"
                              if fn in protos(option)[0] else ""))


def used(pos):
    """A use of an identifier at pos that CLEAN may declare."""
    # (a constrained identifier cannot be passed to a script: read its name;
    # pos may be in an element spatch re-parsed: unit() is its input file)
    ln = source.lines(pos.file)[int(pos.line) - 1]
    m = re.match(r"\w+", ln[int(pos.column):])
    u = (unit(pos), pos.current_element, m.group(0) if m else None)
    if u in CLEAN:
        USED.add(u)
