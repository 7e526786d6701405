# SPDX-License-Identifier: GPL-2.0
"""Rule 50 (50-yama-stacked.cocci): Yama's ad hoc stacking
(CONFIG_SECURITY_YAMA_STACKED) in security.c and the module.  The rule's
script rules record what they match here and call yama_call() and
definition()."""
import re

from lsmconv import rule, source
from lsmconv import emit as _emit
from lsmconv.names import here, key, unit

emit, set_mode = _emit.emit, _emit.set_mode
__all__ = ["emit", "set_mode", "key", "under_yama_ifndef", "guarded", "yama_call",
           "definition", "guarded_here", "static_again", "yama_act", "used", "clean", "unused", "REGGUARD",
           "DISPATCH", "SHAPE", "CLEAN", "USED", "STATIC"]

_PROTOS = []


def protos():
    """(declared, declared outside #ifdef ..STACKED) of the legacy headers."""
    if not _PROTOS:
        _PROTOS.extend(_stacked_protos())
    return _PROTOS


def in_yama_ifdef(pos):
    """Is the line of pos directly inside #ifdef CONFIG_SECURITY_YAMA_STACKED
    (its first branch)?"""
    st = source.frames(pos.file, pos.line)
    return bool(st) and not st[-1][1] and re.match(
        r"#\s*ifdef\s+CONFIG_SECURITY_YAMA_STACKED\b", st[-1][0]) is not None


def under_yama_ifndef(pos):
    """Is the line of pos inside (at any depth, not in an #else branch)
    #ifndef CONFIG_SECURITY_YAMA_STACKED?"""
    return any(not in_else and re.match(
        r"#\s*(ifndef\s+CONFIG_SECURITY_YAMA_STACKED\b|"
        r"if\s+!\s*defined\s*\(?\s*CONFIG_SECURITY_YAMA_STACKED\b)", d)
        for d, in_else in source.frames(pos.file, pos.line))


def _stacked_protos():
    """Names declared in the legacy headers (the .h files of
    -D legacy, i.e. security.h in tree mode) outside
    #ifdef CONFIG_SECURITY_YAMA_STACKED: (all declared names, those declared
    elsewhere)."""
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
                stack.append(bool(re.match(r"#\s*ifdef\s+CONFIG_SECURITY_YAMA_STACKED\b", s)))
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
REGGUARD = {}     # (file, function) -> hook, registered in a list under #ifndef ..STACKED
STATIC = set()    # (file, function): to make static again

DISPATCH = set()  # (file, function, hook)
SHAPE = {}        # yama call position -> "stmt" | "assign"
ACT = set()       # yama call positions to remove
CLEAN = set()     # (file, function, variable) whose declaration may now be unused
USED = set()      # (file, function, variable) of CLEAN still used


def guarded(fn, hook, pos):
    """LSM_HOOK_INIT(hook, fn) at pos: note it when under #ifndef ..STACKED."""
    if under_yama_ifndef(pos):
        REGGUARD[(pos.file, fn)] = hook


def guarded_here(fn):
    """Is fn registered under #ifndef ..STACKED in the file being processed?"""
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
    """A yama_H() call at pos: remove it (ACT) or report why not."""
    h = y[len("yama_"):]
    if (pos.file, pos.current_element, h) in DISPATCH:
        shape = SHAPE.get(key(pos))
        if shape is None:
            emit("todo", pos, "%s() in %s: Yama registers its own hooks in the "
                 "target; this call has a shape the rule does not know: remove by "
                 "hand" % (y, pos.current_element))
        elif not in_yama_ifdef(pos):
            emit("todo", pos, "%s() in %s is not inside #ifdef "
                 "CONFIG_SECURITY_YAMA_STACKED: Yama registers its own hooks in "
                 "the target, remove the call by hand" % (y, pos.current_element))
        else:
            ACT.add(key(pos))
            if shape != "stmt":
                CLEAN.add((pos.file, pos.current_element, shape[1]))
            emit("special", pos, "%s() in %s: Yama ad hoc stacking removed "
                 "(CONFIG_SECURITY_YAMA_STACKED): Yama registers its own %s hook "
                 "in the target" % (y, pos.current_element, h))


def definition(fn, pos):
    """The definition of fn at pos: static again (STATIC) or report why not."""
    if (pos.file, fn) in REGGUARD and not is_static(pos):
        h = REGGUARD[(pos.file, fn)]
        if fn in protos()[1]:
            emit("todo", pos, "%s() (Yama's %s hook) is declared in a header outside "
                 "#ifdef CONFIG_SECURITY_YAMA_STACKED: it may have users besides "
                 "security.c's ad hoc stacking; left global, make it static by hand "
                 "if not" % (fn, h))
        else:
            STATIC.add((pos.file, fn))
            emit("special", pos, "%s() made static again: registered for %s in the "
                 "hook list, it was global only for security.c's ad hoc stacking "
                 "(CONFIG_SECURITY_YAMA_STACKED)%s" % (fn, h,
                 "; its prototype in the legacy header stays" if fn in protos()[0] else ""))


def used(pos):
    """A use of an identifier at pos that CLEAN may declare."""
    # (a constrained identifier cannot be passed to a script: read its name;
    # pos may be in an element spatch re-parsed: unit() is its input file)
    ln = source.lines(pos.file)[int(pos.line) - 1]
    m = re.match(r"\w+", ln[int(pos.column):])
    u = (unit(pos), pos.current_element, m.group(0) if m else None)
    if u in CLEAN:
        USED.add(u)
