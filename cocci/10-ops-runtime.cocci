// SPDX-License-Identifier: GPL-2.0
///
/// Find code that changes or copies a `struct security_operations` at run
/// time: field assignments (`ops.f = fn`, `ops->f = fn`), whole-struct
/// copies and memcpy()s, `secondary_ops` chaining (2.6-era SELinux),
/// security_fixup_ops(), mod_reg_security(),
/// mod_unreg_security(), unregister_security() and extern declarations
/// of ops structs.  A hook list is registered once at boot and is
/// read-only after init, so none of this has a mechanical translation:
/// every hit is reported for a human (todo); nothing is changed.
/// (reset_security_ops() is 11-register-security.cocci's.)
///
/// Runs first, while the ops structs still have their legacy type (the
/// field and copy matches use it).
///
// Confidence: Moderate
// Copyright: (C) 2026 lsmconv contributors.
// Options:
// Keywords: security_operations, secondary_ops, security_fixup_ops
//

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
LSMCONV = None

@initialize:python@
d << virtual.lsmconv;
@@
LSMCONV = d

@initialize:python@
@@
import sys
sys.path[:0] = [LSMCONV] if LSMCONV else []
try:
    from lsmconv.emit import emit_once as emit, set_mode
except ImportError:
    sys.exit("lsmconv: give -D lsmconv=DIR, the directory of the lsmconv package")

@initialize:python depends on report@
@@
set_mode("report")

@initialize:python depends on org@
@@
set_mode("org")

@initialize:python depends on context@
@@
set_mode("context")

@fld@
struct security_operations s;
struct security_operations *sp;
identifier f;
expression e;
position p;
@@

(
 s.f@p = e
|
 sp->f@p = e
)

@script:python@
f << fld.f;
e << fld.e;
p << fld.p;
@@

emit("todo", p[0], "run-time assignment of ops field .%s = %s: hook lists "
     "are read-only after init; restructure by hand" % (f, e))

@cp@
struct security_operations s;
struct security_operations *sp;
expression e, n;
position p;
@@

(
 s =@p e
|
 *sp =@p e
|
 e =@p s
|
 memcpy@p(&s, e, n)
|
 memcpy@p(sp, e, n)
|
 memcpy@p(e, &s, n)
|
 memcpy@p(e, sp, n)
)

@script:python@
p << cp.p;
@@

emit("todo", p[0], "copy of a struct security_operations at run time: no "
     "hook-list equivalent; restructure by hand")

@fn@
identifier f = {security_fixup_ops, mod_reg_security,
                mod_unreg_security, unregister_security};
expression list es;
position p;
@@

 f@p(es)

@script:python@
f << fn.f;
p << fn.p;
@@

emit("todo", p[0], "%s(): no hook-list equivalent (hooks are registered "
     "once at boot); remove or restructure by hand" % f)

@sec@
symbol secondary_ops;
position p;
@@

 secondary_ops@p

@script:python@
p << sec.p;
@@

emit("todo", p[0], "secondary_ops chaining: stacked hooks are called by the "
     "framework now; drop the chaining by hand")

@ext@
identifier o;
position p;
@@

 extern struct security_operations o@p;

@script:python@
o << ext.o;
p << ext.p;
@@

emit("todo", p[0], "extern struct security_operations %s: the ops struct "
     "becomes a static hook list; remove the declaration and its users" % o)

@depends on context@
struct security_operations s;
struct security_operations *sp;
identifier f;
expression e;
@@

(
* s.f = e
|
* sp->f = e
)
