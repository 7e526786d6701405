// SPDX-License-Identifier: GPL-2.0
///
/// Remove Yama's ad hoc stacking from the security.c wrappers.  Before the
/// hook lists, with CONFIG_SECURITY_YAMA_STACKED, a wrapper called Yama by
/// hand before the major module:
///
///     #ifdef CONFIG_SECURITY_YAMA_STACKED
///             rc = yama_ptrace_access_check(child, mode);
///             if (rc)
///                     return rc;
///     #endif
///             return security_ops->ptrace_access_check(child, mode);
///
/// In the target Yama registers its own hook list, so the hand-made call
/// goes: in a function that dispatches hook H (call_int_hook(H, ..),
/// call_void_hook(H, ..) or a security_ops->H(..) left by 30-hook-calls),
/// `yama_H(..);`, or `rc = yama_H(..); if (..) return rc;`, inside
/// `#ifdef CONFIG_SECURITY_YAMA_STACKED`, is removed, with the declaration
/// of rc when nothing else uses it.  SmPL cannot remove the preprocessor
/// lines; 51-yama-ifdef.cocci removes the `#ifdef`/`#endif` pair left
/// empty.  A yama_H() call outside such a block, or of another shape, is
/// left and reported as todo.
///
/// The module side: a function registered (LSM_HOOK_INIT) in a hook list
/// that is guarded by `#ifndef CONFIG_SECURITY_YAMA_STACKED` and defined
/// without `static` was global only for that stacking (4.0's Yama): it
/// becomes static again, reported as special.  When a legacy header (the
/// .h files of LSMCONV_LEGACY_DEFS) declares it outside
/// `#ifdef CONFIG_SECURITY_YAMA_STACKED` it may have other users: left
/// global, todo.  Prototypes in headers are not touched.
/// 51-yama-ifdef.cocci removes the guards.
///
// Confidence: High
// Copyright: (C) 2026 lsmconv contributors.
// Options:
// Keywords: CONFIG_SECURITY_YAMA_STACKED, yama, call_int_hook
//

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
import os
import re
import sys

MODE = "patch"


def emit(kind, pos, detail):
    if MODE == "patch":
        print("LSMCONV\t%s\t%s\t%s\t%s" % (kind, pos.file, pos.line, detail))
        sys.stdout.flush()
    elif MODE == "report" and kind == "todo":
        coccilib.report.print_report(pos, "TODO: " + detail)
    elif MODE == "org" and kind == "todo":
        coccilib.org.print_todo(pos, detail)


def key(pos):
    return (pos.file, pos.line, pos.column)


_TEXT = {}


def file_lines(path):
    if path not in _TEXT:
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                _TEXT[path] = f.read().split("\n")
        except OSError:
            _TEXT[path] = []
    return _TEXT[path]


def in_yama_ifdef(pos):
    """Is the line of pos directly inside #ifdef CONFIG_SECURITY_YAMA_STACKED?"""
    lines = file_lines(pos.file)
    depth = 0
    for i in range(int(pos.line) - 2, -1, -1):
        s = lines[i].strip()
        if re.match(r"#\s*endif\b", s):
            depth += 1
        elif re.match(r"#\s*if", s):
            if depth == 0:
                return re.match(r"#\s*ifdef\s+CONFIG_SECURITY_YAMA_STACKED\b", s) is not None
            depth -= 1
        elif re.match(r"#\s*(else|elif)\b", s) and depth == 0:
            return False
    return False


def under_yama_ifndef(pos):
    """Is the line of pos inside (at any depth, not in an #else branch)
    #ifndef CONFIG_SECURITY_YAMA_STACKED?"""
    lines = file_lines(pos.file)
    depth = 0
    in_else = set()
    for i in range(int(pos.line) - 2, -1, -1):
        s = lines[i].strip()
        if re.match(r"#\s*endif\b", s):
            depth += 1
        elif re.match(r"#\s*(else|elif)\b", s):
            if depth == 0:
                in_else.add(depth)
        elif re.match(r"#\s*if", s):
            if depth == 0:
                if (0 not in in_else and
                        re.match(r"#\s*(ifndef\s+CONFIG_SECURITY_YAMA_STACKED\b|"
                                 r"if\s+!\s*defined\s*\(?\s*CONFIG_SECURITY_YAMA_STACKED\b)", s)):
                    return True
                in_else.discard(0)
            else:
                depth -= 1
    return False


def _stacked_protos():
    """Names declared in the legacy headers (the .h files of
    LSMCONV_LEGACY_DEFS, i.e. security.h in tree mode) outside
    #ifdef CONFIG_SECURITY_YAMA_STACKED: (all declared names, those declared
    elsewhere)."""
    every, other = set(), set()
    for path in [p for p in os.environ.get("LSMCONV_LEGACY_DEFS", "").split(":")
                 if p.endswith(".h")]:
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
    lines = file_lines(pos.file)
    i = int(pos.line) - 1
    head = lines[i][:int(pos.column)] if i < len(lines) else ""
    if not head.strip() and i > 0:
        head = lines[i - 1] + " " + head
    return re.search(r"\bstatic\b", head) is not None


PROTOS, OTHER_PROTOS = _stacked_protos()
REGGUARD = {}     # function -> hook, registered in a list under #ifndef ..STACKED
NONSTATIC = {}    # function -> position of its non-static definition
STATIC = set()    # functions to make static again

DISPATCH = set()  # (file, function, hook)
SHAPE = {}        # yama call position -> "stmt" | "assign"
ACT = set()       # yama call positions to remove
CLEAN = set()     # (function, variable) whose declaration may now be unused

@initialize:python depends on report@
@@
MODE = "report"

@initialize:python depends on org@
@@
MODE = "org"

@disp@
identifier H;
expression list es;
symbol security_ops;
position p;
@@

(
 call_int_hook(H@p, es)
|
 call_void_hook(H@p, es)
|
 security_ops->H@p(es)
)

@script:python@
h << disp.H;
p << disp.p;
@@

DISPATCH.add((p[0].file, p[0].current_element, h))

@ys@
identifier y =~ "^yama_";
expression list es;
position p;
@@

 y@p(es);

@script:python@
p << ys.p;
@@

SHAPE[key(p[0])] = "stmt"

@ya@
identifier y =~ "^yama_";
identifier rc;
expression list es;
expression E;
position p;
@@

 rc = y@p(es);
 if (E) return rc;

@script:python@
p << ya.p;
rc << ya.rc;
@@

SHAPE[key(p[0])] = ("assign", rc)

@yc@
identifier y =~ "^yama_";
expression list es;
position p;
@@

 y@p(es)

@script:python@
y << yc.y;
p << yc.p;
@@

pos = p[0]
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
            CLEAN.add((pos.current_element, shape[1]))
        emit("special", pos, "%s() in %s: Yama ad hoc stacking removed "
             "(CONFIG_SECURITY_YAMA_STACKED): Yama registers its own %s hook "
             "in the target" % (y, pos.current_element, h))

// ---------------------------------------------------------------------
// The module side: functions registered in a hook list that is guarded
// by #ifndef CONFIG_SECURITY_YAMA_STACKED and defined without `static`
// were global only for security.c's ad hoc stacking: static again.

@hk@
identifier H, fn;
position p;
@@

 LSM_HOOK_INIT(H, fn@p)

@script:python@
h << hk.H;
fn << hk.fn;
p << hk.p;
@@

if under_yama_ifndef(p[0]):
    REGGUARD[fn] = h

@gdef@
identifier fn;
type T;
position p;
@@

 T fn@p(...) {...}

@script:python@
fn << gdef.fn;
p << gdef.p;
@@

if fn in REGGUARD and not is_static(p[0]):
    h = REGGUARD[fn]
    if fn in OTHER_PROTOS:
        emit("todo", p[0], "%s() (Yama's %s hook) is declared in a header outside "
             "#ifdef CONFIG_SECURITY_YAMA_STACKED: it may have users besides "
             "security.c's ad hoc stacking; left global, make it static by hand "
             "if not" % (fn, h))
    else:
        STATIC.add(fn)
        emit("special", p[0], "%s() made static again: registered for %s in the "
             "hook list, it was global only for security.c's ad hoc stacking "
             "(CONFIG_SECURITY_YAMA_STACKED)%s" % (fn, h,
             "; its prototype in the legacy header stays" if fn in PROTOS else ""))

@initialize:python@
@@


def yama_act(p):
    return key(p[0]) in ACT

@depends on patch@
identifier y;
expression list es;
position p : script:python() { yama_act(p) };
@@

- y@p(es);

@depends on patch@
identifier y, rc;
expression list es;
expression E;
position p : script:python() { yama_act(p) };
@@

- rc = y@p(es);
- if (E) return rc;

@depends on patch@
identifier fn : script:python() { fn in STATIC };
type T;
@@

+ static
  T fn(...) {...}

// A declaration the removal left unused.  The declaration usually sits in
// the #ifdef block, which is a separate path for Coccinelle, so the
// removal is an `exists` match guarded by an explicit search for uses.
@initialize:python@
@@
USED = set()

@yuse depends on patch@
identifier u : script:python() { u in [c[1] for c in CLEAN] };
position pu;
@@

 u@pu

@script:python@
pu << yuse.pu;
@@

# (a constrained identifier cannot be passed to a script: read its name)
ln = file_lines(pu[0].file)[int(pu[0].line) - 1]
m = re.match(r"\w+", ln[int(pu[0].column):])
if m and (pu[0].current_element, m.group(0)) in CLEAN:
    USED.add((pu[0].current_element, m.group(0)))

@depends on patch exists@
identifier fn : script:python() { fn in [c[0] for c in CLEAN - USED] };
identifier rc : script:python() { rc in [c[1] for c in CLEAN - USED] };
type T;
@@

 fn(...) {
 ... when any
- T rc;
 ... when any
 }

@depends on context@
identifier y =~ "^yama_";
expression list es;
@@

* y(es);
