// SPDX-License-Identifier: GPL-2.0
///
/// Replace `security_initcall(fn);` by the LSM descriptor the framework
/// walks at boot: `DEFINE_LSM(<lsm>) = { .name = "<lsm>", .init = fn, };`.
/// The name is the one fn hands to security_add_hooks() (so this runs
/// after 11-register-security.cocci).  Where the file already has a
/// DEFINE_LSM() whose .init is fn, the initcall just goes.  Everything
/// else (no security_add_hooks() in fn, another DEFINE_LSM) is todo.
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
import re
import sys

MODE = "patch"
HAVE = set()
INITS = set()


def lsm_ident(lsm):
    ident = re.sub(r"\W", "_", lsm)
    return ident if re.match(r"[A-Za-z_]", ident) else "_" + ident


def emit(kind, pos, detail):
    if MODE == "patch":
        print("LSMCONV\t%s\t%s\t%s\t%s" % (kind, pos.file, pos.line, detail))
        sys.stdout.flush()
    elif MODE == "report" and kind == "todo":
        coccilib.report.print_report(pos, "TODO: " + detail)
    elif MODE == "org" and kind == "todo":
        coccilib.org.print_todo(pos, detail)

@initialize:python depends on report@
@@
MODE = "report"

@initialize:python depends on org@
@@
MODE = "org"

@initialize:python depends on context@
@@
MODE = "context"

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

@script:python mk@
fn << ic.fn;
p << ic.p;
s << add.s = "";
rm;
mkfn;
l;
nstr;
@@

# A script rule that drops a match drops it for every later rule, so both
# outcomes are bound: the transformation that does not apply gets a name
# that matches no initcall.
NONE = "__lsmconv_no_such_function__"
rm, mkfn, l, nstr = NONE, NONE, NONE, '""'
if (p[0].file, fn) in INITS:
    emit("reg", p[0], "security_initcall(%s) removed: DEFINE_LSM() already "
         "has .init = %s" % (fn, fn))
    rm = fn
elif p[0].file in HAVE:
    emit("todo", p[0], "security_initcall(%s) in a file that already has a "
         "DEFINE_LSM() without .init = %s: merge by hand" % (fn, fn))
elif not (s.startswith('"') and s.endswith('"')):
    emit("todo", p[0], "security_initcall(%s): %s does not call "
         "security_add_hooks() with a literal name; write DEFINE_LSM() by hand"
         % (fn, fn))
else:
    emit("reg", p[0], "security_initcall(%s) -> DEFINE_LSM(%s)"
         % (fn, lsm_ident(s[1:-1])))
    mkfn, l, nstr = fn, lsm_ident(s[1:-1]), s
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
