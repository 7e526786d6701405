// SPDX-License-Identifier: GPL-2.0
///
/// Turn the legacy calls through the one security_operations vector,
/// `security_ops->HOOK(args)`, into the calling macros of the target's
/// security/security.c: `call_int_hook(HOOK, IRC, args)` for int hooks and
/// `call_void_hook(HOOK, args)` for void hooks, in every position (return,
/// assignment, initializer, condition, statement).  Return types and IRC
/// come from the target's lsm_hook_defs.h (IRC = the hook's default when it
/// is not 0, else 0).  Hooks whose target wrapper is not a plain call
/// chain are handled by the one special-dispatch table,
/// cocci/lib/special.tsv (see the comments there): converted when that is
/// mechanical (other IRC, capability fallback, `*secid = 0`; neither is
/// added when the statement before is already that `*secid = 0;` or the
/// next one already `if (E == IRC) E = FALLBACK(..);`), else left
/// and reported for a human.  Also left and reported: hooks the target does
/// not have, and void hooks used as a value.  A converted call whose
/// argument count differs from the target hook's is reported as todo.
/// Calls through a `security_ops` that a function or file declares with
/// another type than `struct security_operations *` are not touched.
///
/// Parameters: -D lsmconv=<lsmconv's cocci/> (the package: lsmconv.calls
/// decides, cocci/lib/special.tsv is the table), -D target=<kernel tree>
/// (default: the current directory), -D legacy=<files defining the legacy
/// struct security_operations> (for the IRCs that name a parameter).
///
// Confidence: High
// Copyright: (C) 2026 lsmconv contributors.
// Options:
// Keywords: security_ops, call_int_hook, call_void_hook
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
from lsmconv.calls import *

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
// Analysis.

// Declarations of something named security_ops: the legacy global, or a
// local/parameter/global of another type that shadows it.
@decl@
type T;
symbol security_ops;
position p;
@@

(
 T security_ops@p;
|
 T security_ops@p = ...;
)

@script:python@
t << decl.T;
p << decl.p;
@@

fn = p[0].current_element
scope = None if fn == "security_ops" else fn
DECLS[(p[0].file, scope)] = norm_type(t)

@parm@
type T;
identifier fn;
symbol security_ops;
position p;
@@

 fn(..., T security_ops@p, ...) {...}

@script:python@
t << parm.T;
fn << parm.fn;
p << parm.p;
@@

DECLS[(p[0].file, fn)] = norm_type(t)

@stm@
symbol security_ops;
identifier f;
expression list es;
position p;
@@

 security_ops->f@p(es);

@script:python@
p << stm.p;
@@

SHAPE[key(p[0])] = "stmt"

@ret@
symbol security_ops;
identifier f;
expression list es;
position p;
@@

 return security_ops->f@p(es);

@script:python@
p << ret.p;
@@

SHAPE[key(p[0])] = "return"

@asg@
symbol security_ops;
identifier f;
expression list es;
expression E;
position p;
@@

 E = security_ops->f@p(es);

@script:python@
p << asg.p;
@@

SHAPE[key(p[0])] = "assign"

// What the target's wrapper adds around the call that is already there:
// `*secid = 0;` right before it, the capability fallback right after it.
@pre0@
symbol security_ops;
identifier f, s;
expression list es;
position p;
@@

 *s = 0;
(
 security_ops->f@p(es, s);
|
 return security_ops->f@p(es, s);
)

@script:python@
s << pre0.s;
p << pre0.p;
@@

HAVE0[key(p[0])] = s

@fbnext@
symbol security_ops;
identifier f, cf;
expression list es, es2;
expression E, I;
position p;
@@

 E = security_ops->f@p(es);
 if (E == I) E = cf(es2);

@script:python@
i << fbnext.I;
cf << fbnext.cf;
p << fbnext.p;
@@

HAVEFB[key(p[0])] = (re.sub(r"\s+", "", str(i)), cf)

@call@
symbol security_ops;
identifier f;
expression list es;
position p;
@@

 security_ops->f@p(es)

@script:python@
f << call.f;
es << call.es;
p << call.p;
@@

decide(f, es, p[0])

// ---------------------------------------------------------------------
// Transformations: statement shapes first, then any expression.  The
// whole call is rewritten, so Coccinelle wraps and aligns the arguments
// in kernel style.  Each picks its calls by position (the action decided
// above) and takes the IRC and the fallback from the decision at that
// position, so one environment serves every call of a file.

@depends on patch@
symbol security_ops;
identifier f;
position p : script:python() { act_is(p, "void-secid0") };
expression list es;
identifier s;
fresh identifier v = script:python(p) { reset_at(p) };
@@

- security_ops->f@p(es, s);
+ *s = v;
+ call_void_hook(f, es, s);

@depends on patch@
symbol security_ops;
identifier f;
position p : script:python() { act_is(p, "void") };
expression list es;
@@

(
- security_ops->f@p();
+ call_void_hook(f);
|
- security_ops->f@p(es);
+ call_void_hook(f, es);
)

@depends on patch@
symbol security_ops;
identifier hf;
position p : script:python() { act_is(p, "int-secid0") };
expression list es;
identifier s;
fresh identifier irc = script:python(p) { irc_at(p) };
fresh identifier v = script:python(p) { reset_at(p) };
@@

(
- security_ops->hf@p(es, s);
+ *s = v;
+ call_int_hook(hf, irc, es, s);
|
- return security_ops->hf@p(es, s);
+ *s = v;
+ return call_int_hook(hf, irc, es, s);
)

@depends on patch@
symbol security_ops;
identifier hf;
position p : script:python() { act_is(p, "capfall") };
expression list es;
expression E;
fresh identifier irc = script:python(p) { irc_at(p) };
fresh identifier cap = script:python(p) { fallback_at(p) };
@@

- E = security_ops->hf@p(es);
+ E = call_int_hook(hf, irc, es);
+ if (E == irc)
+ 	E = cap(es);

@depends on patch@
symbol security_ops;
identifier hf;
position p : script:python() { act_is(p, "int") };
expression list es;
fresh identifier irc = script:python(p) { irc_at(p) };
@@

(
- security_ops->hf@p()
+ call_int_hook(hf, irc)
|
- security_ops->hf@p(es)
+ call_int_hook(hf, irc, es)
)

// ---------------------------------------------------------------------
// context mode: show every legacy call.

@depends on context@
symbol security_ops;
identifier hf;
expression list es;
@@

* security_ops->hf(es)
