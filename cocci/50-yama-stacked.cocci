// SPDX-License-Identifier: GPL-2.0
///
/// Remove the ad hoc stacking of a module that security.c calls by hand
/// under a Kconfig option: 4.0's Yama, with CONFIG_SECURITY_YAMA_STACKED.
/// Before the hook lists, a wrapper called that module before the major:
///
///     #ifdef CONFIG_SECURITY_YAMA_STACKED
///             rc = yama_ptrace_access_check(child, mode);
///             if (rc)
///                     return rc;
///     #endif
///             return security_ops->ptrace_access_check(child, mode);
///
/// In the target the module registers its own hook list, so the
/// hand-made call goes: in a function that dispatches hook H
/// (call_int_hook(H, ..), call_void_hook(H, ..) or a security_ops->H(..)
/// left by 30-hook-calls), `M_H(..);`, or `rc = M_H(..); if (..) return
/// rc;`, where M is a module of the target (a directory of its security/)
/// and the call sits directly inside `#ifdef CONFIG_OPTION`, is removed,
/// with the declaration of rc when nothing else uses it.  The module and
/// the option are read from the code, never typed.  SmPL cannot remove
/// the preprocessor lines; 51-yama-ifdef.cocci removes the `#ifdef`/`#endif`
/// pair left empty.  An M_H() call outside such a block, or of another
/// shape, is left and reported as todo.
///
/// The module side: a function registered (LSM_HOOK_INIT) in a hook list
/// that is guarded by `#ifndef CONFIG_OPTION` and defined without `static`
/// was global only for that stacking (4.0's Yama): it becomes static
/// again, reported as special.  When a legacy header (the .h files of -D
/// legacy=F1:F2) declares it outside `#ifdef CONFIG_OPTION` it may have
/// other users: left global, todo.  Prototypes in headers are not touched.
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
LSMCONV = TARGET = LEGACY = None

@initialize:python@
d << virtual.lsmconv;
@@
LSMCONV = d

@initialize:python@
t << virtual.target;
@@
TARGET = t

@initialize:python@
l << virtual.legacy;
@@
LEGACY = l

@initialize:python@
@@
import sys
sys.path[:0] = [LSMCONV] if LSMCONV else []
try:
    from lsmconv import rule
except ImportError:
    sys.exit("lsmconv: give -D lsmconv=DIR, the directory of the lsmconv package")
rule.setup(TARGET, LEGACY)
from lsmconv.yama import *

@initialize:python depends on report@
@@
set_mode("report")

@initialize:python depends on org@
@@
set_mode("org")

@initialize:python depends on context@
@@
set_mode("context")

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

@ys depends on disp@
identifier y : script:python() { stacked_name(y) };
expression list es;
position p;
@@

 y@p(es);

@script:python@
p << ys.p;
@@

SHAPE[key(p[0])] = "stmt"

@ya depends on disp@
identifier y : script:python() { stacked_name(y) };
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

@yc depends on disp@
identifier y : script:python() { stacked_name(y) };
expression list es;
position p;
@@

 y@p(es)

@script:python@
y << yc.y;
p << yc.p;
@@

yama_call(y, p[0])

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

guarded(fn, h, p[0])

@gdef depends on hk@
identifier fn : script:python() { guarded_here(fn) };
type T;
position p;
@@

 T fn@p(...) {...}

@script:python@
fn << gdef.fn;
p << gdef.p;
@@

definition(fn, p[0])

@depends on patch && ys@
identifier y;
expression list es;
position p : script:python() { yama_act(p) };
@@

- y@p(es);

@depends on patch && ya@
identifier y, rc;
expression list es;
expression E;
position p : script:python() { yama_act(p) };
@@

- rc = y@p(es);
- if (E) return rc;

@depends on patch && gdef@
identifier fn : script:python() { static_again(fn) };
type T;
@@

+ static
  T fn(...) {...}

// A declaration the removal left unused.  The declaration usually sits in
// the #ifdef block, which is a separate path for Coccinelle, so the
// removal is an `exists` match guarded by an explicit search for uses.
@yuse depends on patch && ya@
identifier u : script:python() { u in clean(2) };
position pu;
@@

 u@pu

@script:python@
pu << yuse.pu;
@@

used(pu[0])

@depends on patch && ya exists@
identifier fn : script:python() { fn in unused(1) };
identifier rc : script:python() { rc in unused(2) };
type T;
@@

 fn(...) {
 ... when any
- T rc;
 ... when any
 }

@depends on context@
identifier y : script:python() { stacked_name(y) };
expression list es;
@@

* y(es)
