// SPDX-License-Identifier: GPL-2.0
///
/// Turn a legacy `struct security_operations` initializer into the hook
/// list of the target tree: `static struct security_hook_list
/// <lsm>_hooks[] __lsm_ro_after_init = { LSM_HOOK_INIT(hook, fn), ... };`
/// (the attribute only where the target defines it: lsmconv.form).
/// Order, comments, blank lines and preprocessor blocks are kept; the
/// `.name` entry goes (security_add_hooks() carries the name).  <lsm> is
/// the `.name` string, else the ops variable name less an `_security_ops`
/// or `_ops` suffix.  Entries whose field is not a hook of the target tree
/// (vendor or renamed hooks) are left as they are and reported as todo.
/// Positional entries are converted with the member order of the legacy
/// `struct security_operations` when its definition is available (in the
/// file itself or in a file named by -D legacy=F1:F2), entries written
/// with an entry macro (`#define HOOK(x) .x = foo_##x`) or a macro field
/// name (`#define F hook`, `.F = fn`) are expanded; anything else is todo.
///
/// Parameters: -D lsmconv=<lsmconv's cocci/> (lsmconv.hook_list decides),
/// -D target=<kernel tree> (default: the current directory), -D legacy=...
/// Run the registration rules (cocci/1*-*.cocci) first: they read the
/// legacy struct for the LSM name.
///
// Confidence: High
// Copyright: (C) 2026 lsmconv contributors.
// Options: --smpl-spacing --noif0-passing
// Keywords: security_operations, security_hook_list, LSM_HOOK_INIT
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
from lsmconv.hook_list import *

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
// Analysis: every rule that looks at the legacy initializer runs before
// the first transformation.

@ops@
identifier o;
position p;
@@

 struct security_operations o@p = {...};

@nm@
identifier ops.o;
expression N;
@@

 struct security_operations o = {..., .name = N, ...};

@pnm@
identifier ops.o;
expression N;
@@

 struct security_operations o = {N, ...};

@script:python pnchk@
n << pnm.N;
n2;
@@

coccinelle.n2 = cocci.make_expr(n if n.startswith('"') else NONE)

@script:python lsmn@
o << ops.o;
n1 << nm.N = "";
n2 << pnm.N = "";
h;
@@

coccinelle.h = cocci.make_ident(hooks_name(o, n1, n2))

@ent@
identifier ops.o, f;
expression e;
position pe;
@@

 struct security_operations o = { ..., .f = e@pe, ...};

@script:python chk@
o << ops.o;
f << ent.f;
e << ent.e;
pe << ent.pe;
@@

entry(o, f, e, pe[0])

@pos@
identifier ops.o;
initializer list[n] before;
expression e;
position pp;
@@

 struct security_operations o = { before, e@pp, ... };

@script:python pchk@
o << ops.o;
n << pos.n;
before << pos.before;
e << pos.e;
pp << pos.pp;
e2;
x;
@@

e2, x = positional(o, n, before, e, pp[0])
coccinelle.e2 = cocci.make_expr(e2)
coccinelle.x = cocci.make_ident(x)

@script:python pnull@
o << ops.o;
d;
@@

coccinelle.d = cocci.make_ident(o if o in NULLS else NONE)

@script:python depends on !patch@
o << ops.o;
p << ops.p;
@@

emit("todo", p[0], "%s: struct security_operations initializer to turn into "
     "a security_hook_list" % o)

// ---------------------------------------------------------------------
// Transformations.

@depends on patch@
identifier ops.o;
position pos.pp;
expression pchk.e2;
identifier pchk.x;
@@

 struct security_operations o = { ...,
- e2@pp
+ x
 , ...};

@depends on patch@
identifier pnull.d;
@@

 struct security_operations d = { ...,
- NULL,
 ...};

@depends on patch@
identifier ops.o, f;
expression e;
position pe : script:python(o, f, e) { converts(o, f, e) };
fresh identifier g = script:python(o, f, e) { conv_at(o, f, e) };
@@

 struct security_operations o = { ...,
- .f = e@pe,
+ g,
 ...};

@depends on patch@
identifier ops.o, f;
expression e;
position pe : script:python(o, f, e) { drops(o, f, e) };
@@

 struct security_operations o = { ...,
- .f = e@pe,
 ...};

@depends on patch@
identifier ops.o;
expression nm.N;
@@

 struct security_operations o = { ...,
- .name = N,
 ...};

@depends on patch@
identifier ops.o;
expression pnchk.n2;
@@

 struct security_operations o = {
- n2,
 ...};

// The array gets the target's attribute (lsmconv.form): oa is the ops
// struct when it has one, ob when it has none (the other is NONE).
@script:python attr@
o << ops.o;
oa;
ob;
@@

coccinelle.oa = cocci.make_ident(o if list_attribute() else NONE)
coccinelle.ob = cocci.make_ident(NONE if list_attribute() else o)

@depends on patch@
identifier attr.oa;
identifier lsmn.h;
attribute name __lsm_ro_after_init;
@@

(
- static const struct security_operations oa
+ static struct security_hook_list h[] __lsm_ro_after_init
  = {...};
|
- static struct security_operations oa
+ static struct security_hook_list h[] __lsm_ro_after_init
  = {...};
|
- const struct security_operations oa
+ static struct security_hook_list h[] __lsm_ro_after_init
  = {...};
|
- struct security_operations oa
+ static struct security_hook_list h[] __lsm_ro_after_init
  = {...};
)

@depends on patch@
identifier attr.ob;
identifier lsmn.h;
@@

(
- static const struct security_operations ob
+ static struct security_hook_list h[]
  = {...};
|
- static struct security_operations ob
+ static struct security_hook_list h[]
  = {...};
|
- const struct security_operations ob
+ static struct security_hook_list h[]
  = {...};
|
- struct security_operations ob
+ static struct security_hook_list h[]
  = {...};
)

@hasinc@
@@

 #include <linux/lsm_hooks.h>

@depends on patch && ops && !hasinc@
@@

 #include <linux/security.h>
+#include <linux/lsm_hooks.h>

@depends on context@
identifier ops.o;
@@

* struct security_operations o = {...};
