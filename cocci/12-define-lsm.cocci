// SPDX-License-Identifier: GPL-2.0
///
/// Replace `security_initcall(fn);` by the LSM descriptor the framework
/// walks at boot: `DEFINE_LSM(<lsm>) = { .name = "<lsm>", .init = fn, };`.
/// The name is the one fn hands to security_add_hooks() (so this runs
/// after 11-register-security.cocci).  Where the file already has a
/// DEFINE_LSM() whose .init is fn, the initcall just goes.  Everything
/// else (no security_add_hooks() in fn, another DEFINE_LSM, two names given
/// to security_add_hooks() in fn: two LSMs under #ifdef or if/else) is todo.
/// A target without DEFINE_LSM() (before 5.1; lsmconv.form reads its
/// lsm_hooks.h) keeps the initcall: nothing changes.
///
/// Parameters: -D lsmconv=<lsmconv's cocci/>, -D target=<kernel tree>
/// (default: the current directory; lsmconv.form reads its lsm_hooks.h).
///
// Confidence: High
// Copyright: (C) 2026 lsmconv contributors.
// Options: --smpl-spacing
// Keywords: security_initcall, DEFINE_LSM
//

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
LSMCONV = TARGET = None

@initialize:python@
d << virtual.lsmconv;
@@
LSMCONV = d

@initialize:python@
t << virtual.target;
@@
TARGET = t

@initialize:python@
@@
import sys
sys.path[:0] = [LSMCONV] if LSMCONV else []
try:
    from lsmconv import rule
except ImportError:
    sys.exit("lsmconv: give -D lsmconv=DIR, the directory of the lsmconv package")
rule.setup(TARGET, None)
from lsmconv.define_lsm import *

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
// What the file has already.

@dl@
declarer name DEFINE_LSM;
identifier l;
position p;
@@

 DEFINE_LSM@p(l) = {...};

@script:python@
p << dl.p;
@@

HAVE.add(p[0].file)

@dli@
declarer name DEFINE_LSM;
identifier l, fn;
position p;
@@

 DEFINE_LSM@p(l) = {..., .init = fn, ...};

@script:python@
p << dli.p;
fn << dli.fn;
@@

INITS.add((p[0].file, fn))

// ---------------------------------------------------------------------
// The initcalls.

@ic@
declarer name security_initcall;
identifier fn;
position p;
@@

 security_initcall@p(fn);

@add@
identifier ic.fn;
expression h, n, s;
@@

 fn(...)
 {
 <+...
 security_add_hooks(h, n, s);
 ...+>
 }

// every name fn registers: two (e.g. in #ifdef or if/else branches) are
// two LSMs, which one DEFINE_LSM() cannot describe
@script:python@
fn << ic.fn;
p << ic.p;
s << add.s;
@@

NAMES.setdefault((p[0].file, fn), set()).add(s)

@script:python mk@
fn << ic.fn;
p << ic.p;
s << add.s = "";
rm;
mkfn;
l;
nstr;
@@

rm, mkfn, l, nstr = initcall(fn, s, p[0])
coccinelle.rm = cocci.make_ident(rm)
coccinelle.mkfn = cocci.make_ident(mkfn)
coccinelle.l = cocci.make_ident(l)
coccinelle.nstr = cocci.make_expr(nstr)

// ---------------------------------------------------------------------
// Transformations.

@depends on patch@
declarer name security_initcall;
identifier mk.rm;
@@

- security_initcall(rm);

@depends on patch@
declarer name security_initcall, DEFINE_LSM;
identifier mk.mkfn;
identifier mk.l;
expression mk.nstr;
@@

- security_initcall(mkfn);
+ DEFINE_LSM(l) = {
+ 	.name = nstr,
+ 	.init = mkfn,
+ };

@depends on context@
declarer name security_initcall;
identifier fn;
@@

* security_initcall(fn);
