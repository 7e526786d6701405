// SPDX-License-Identifier: GPL-2.0
///
/// Remove the capability calls that a legacy module made at the top of its
/// own hooks.  A legacy module replaced the capability defaults, so e.g.
/// its capable hook began with `rc = cap_capable(...); if (rc) return rc;`.
/// In the target, capability registers its own hook list first
/// (LSM_ORDER_FIRST, always enabled) and the dispatch in security.c stops
/// after capability's answer under a condition that depends on the hook, so
/// the chain is redundant when it stops under the same one.  Removed, in a
/// function registered for hook H (LSM_HOOK_INIT(H, fn) or `.H = fn` in a
/// security_operations initializer), when every one of these holds:
///  - cap_H is what the target's capability module registers for H
///    (LSM_HOOK_INIT(H, cap_H) in security/commoncap.c);
///  - it is passed the hook's own parameters, unchanged and in order;
///  - it is the first statement (declarations, with initializers or not,
///    may precede it): `rc = cap_H(..); if (STOP) return rc;` or
///    `T rc = cap_H(..); if (STOP) return rc;`, where STOP is the condition
///    under which the target's security_H() stops after capability's
///    answer, derived from the target's security.c by lsmconv.dispatch
///    (the code the rewind builds its chains with): `rc` (or `rc != 0`)
///    for call_int_hook hooks, `rc <= 0`
///    when every module must return > 0 (vm_enough_memory), `rc != <the
///    hook's default>` when the first non-default answer wins
///    (inode_getsecurity, task_prctl); or a body that is only
///    `return cap_H(..);` of a call_int_hook hook (which becomes
///    `return 0;`).
/// A declaration of rc left unused is removed too; when the code after the
/// chain reads rc, rc starts at the value that passed the check (0, or V
/// for `rc != V`; with no such value the chain is kept).  Every other call of a
/// capability hook function (one the target declares or registers,
/// cap_<hook of the target>, or cap_<H> for the H the function is
/// registered for; not helpers like cap_raised()) in a registered hook
/// stays and is reported (capchain, with the reason; convert.sh lists the
/// kept ones); it is a todo when it names a function the target lacks, or
/// passes other arguments than the hook got (capability now also runs with
/// the original ones, so the result may differ from the legacy code).
///
/// Parameters: -D lsmconv=<lsmconv's cocci/> (lsmconv.capchain decides),
/// -D target=<kernel tree> (default: the current directory; its
/// lsm_hook_defs.h, security/commoncap.c, security/security.c and
/// include/linux/security.h are read).
///
// Confidence: High
// Copyright: (C) 2026 lsmconv contributors.
// Options:
// Keywords: cap_capable, capability, security_hook_list, LSM_HOOK_INIT
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
from lsmconv.capchain import *

@initialize:python depends on report@
@@
set_mode("report")

@initialize:python depends on org@
@@
set_mode("org")

@initialize:python depends on context@
@@
set_mode("context")


// ---------------------------------------------------------------------
// Which function is registered for which hook.

@li@
identifier H, fn;
position p;
@@

 LSM_HOOK_INIT(H, fn@p)

@script:python@
h << li.H;
fn << li.fn;
p << li.p;
@@

registered(fn, h, p[0])

@oi@
identifier o, H, fn;
position p;
@@

 struct security_operations o = { ..., .H = fn@p, ...};

@script:python@
h << oi.H;
fn << oi.fn;
p << oi.p;
@@

registered(fn, h, p[0])

@fp depends on li || oi@
identifier fn;
parameter list ps;
position pf;
@@

 fn@pf(ps) {...}

@script:python@
fn << fp.fn;
ps << fp.ps;
pf << fp.pf;
@@

PARAMS[(pf[0].file, fn)] = param_names(ps)
FLINE[(pf[0].file, fn)] = pf[0].line

// ---------------------------------------------------------------------
// Shapes of the cap_*() calls.

@sa depends on li || oi@
identifier cf =~ "^cap_";
identifier rc;
expression list es;
expression C;
position p;
@@

 rc = cf@p(es);
 if (C) return rc;

@script:python@
p << sa.p;
rc << sa.rc;
c << sa.C;
@@

SHAPE[key(p[0])] = "assign"
RC[key(p[0])] = rc
COND[key(p[0])] = str(c)

@sb depends on li || oi@
identifier cf =~ "^cap_";
identifier rc;
type T;
expression list es;
expression C;
position p;
@@

 T rc = cf@p(es);
 if (C) return rc;

@script:python@
p << sb.p;
rc << sb.rc;
c << sb.C;
@@

SHAPE[key(p[0])] = "decl"
RC[key(p[0])] = rc
COND[key(p[0])] = str(c)

@sr depends on li || oi@
identifier cf =~ "^cap_";
expression list es;
position p;
@@

 return cf@p(es);

@script:python@
p << sr.p;
@@

SHAPE[key(p[0])] = "return"

@cc depends on li || oi@
identifier cf =~ "^cap_";
expression list es;
position p;
@@

 cf@p(es)

@script:python@
cf << cc.cf;
es << cc.es;
p << cc.p;
@@

decide(cf, es, p[0])

// ---------------------------------------------------------------------
// Transformations.

@depends on patch && sa@
identifier cf, rc;
expression list es;
expression C;
position p : script:python() { cap_act(p, "assign") or cap_act(p, "assign-init") };
@@

- rc = cf@p(es);
- if (C) return rc;

// (only the initializer goes, so the blank line after the declaration stays)
@depends on patch && sb@
identifier cf, rc;
type T;
expression list es;
expression C;
position p : script:python() { cap_act(p, "decl") };
@@

  T rc
- = cf@p(es)
  ;
- if (C) return rc;

@depends on patch && sb@
identifier cf, rc;
type T;
expression list es;
expression C;
position p : script:python() { cap_act(p, "decl-init") };
fresh identifier v = script:python(p) { decl_init(p) };
@@

  T rc
- = cf@p(es)
+ = v
  ;
- if (C) return rc;

// A variable the code after the removed chain reads starts at the value
// the chain's check let through (`int rc;` -> `int rc = 0;`).
@depends on patch && sa@
identifier fn : script:python() { fn in inits(1) };
identifier rc : script:python() { rc in inits(2) };
fresh identifier v = script:python(fn, rc) { init_of(fn, rc) };
type T;
constant K;
@@

 fn(...) {
 ... when any
(
- T rc;
+ T rc = v;
|
- T rc = K;
+ T rc = v;
|
- T rc = -K;
+ T rc = v;
)
 ... when any
 }

@depends on patch && sr@
identifier cf;
expression list es;
position p : script:python() { cap_act(p, "return") };
@@

- return cf@p(es);
+ return 0;

// A declaration the removal left unused (in this file: the function was
// re-parsed after the removal, so no position of the match names it).
@depends on patch && (sa || sb)@
identifier fn : script:python() { fn in clean(1) };
identifier rc : script:python() { rc in clean(2) };
type T;
@@

 fn(...) {
 ... when any
- T rc;
 ... when != rc
 }

@depends on context@
identifier cf =~ "^cap_";
expression list es;
@@

* cf(es)
