// SPDX-License-Identifier: GPL-2.0
///
/// Replace the legacy registration of a security module by the hook-list
/// one: `register_security(&ops)` with its error path (`if (...) panic()`,
/// `rc = ...; if (rc) { printk(); return rc; }`, `return ...;`) becomes
/// `security_add_hooks(<lsm>_hooks, ARRAY_SIZE(<lsm>_hooks), "<lsm>");`
/// (without "<lsm>" where the target's security_add_hooks() takes two
/// parameters, 4.2-4.10; lsmconv.form reads the target's lsm_hooks.h),
/// which cannot fail, so the dead error handling goes, and so does a
/// status variable left unused.  `security_module_enable(&ops)` checks go:
/// the LSM framework (`lsm=`, `security=`) decides before the init
/// function is called; where the target still has
/// `security_module_enable(const char *)` (4.2-5.0), the check stays and
/// passes the name: `security_module_enable("<lsm>")`.  `reset_security_ops();` (a module disabling
/// itself at run time) becomes `security_delete_hooks(<lsm>_hooks,
/// ARRAY_SIZE(<lsm>_hooks));` when the file defines exactly one ops
/// struct or hook list.  <lsm> is named as by 20-hook-list.cocci: the
/// `.name` string of the ops initializer, else the ops variable name less
/// an `_security_ops` or `_ops` suffix.  Any other use of the three
/// functions is reported as todo.
///
/// Runs before 20-hook-list.cocci, which removes the `.name` entry.
///
/// Parameters: -D lsmconv=<lsmconv's cocci/>, -D target=<kernel tree>
/// (default: the current directory; lsmconv.form reads its lsm_hooks.h).
///
// Confidence: High
// Copyright: (C) 2026 lsmconv contributors.
// Options: --smpl-spacing
// Keywords: register_security, security_module_enable, security_add_hooks
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
from lsmconv.register import *

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
// Names of the ops structures defined in this file.

@nm@
identifier o;
expression N;
position p;
@@

 struct security_operations o@p = {..., .name = N, ...};

@script:python@
o << nm.o;
N << nm.N;
p << nm.p;
@@

NAMES[(p[0].file, o)] = lsm_name(o, N)

@pnm@
identifier o;
expression N;
position p;
@@

 struct security_operations o@p = {N, ...};

@script:python@
o << pnm.o;
N << pnm.N;
p << pnm.p;
@@

if N.startswith('"'):
    NAMES[(p[0].file, o)] = lsm_name(o, N)

// ---------------------------------------------------------------------
// register_security(): the shapes that can be converted.

@reg@
identifier o;
identifier ret;
position p;
statement S;
@@

(
 if (register_security@p(&o)) S
|
 if (register_security@p(&o) < 0) S
|
 if (register_security@p(&o) != 0) S
|
 ret = register_security@p(&o);
 if (ret) S
|
 ret = register_security@p(&o);
 if (ret < 0) S
|
 ret = register_security@p(&o);
 if (ret != 0) S
|
 return register_security@p(&o);
|
 register_security@p(&o);
)

@script:python regs@
o << reg.o;
p << reg.p;
c;
@@

lsm, hooks = names_for(p[0], o)
HANDLED.add(key(p[0]))
emit("reg", p[0], "register_security(&%s) -> %s" % (o, add_hooks_call(hooks, lsm)))
# the whole call as one identifier, so that it is printed wrapped as given
coccinelle.c = cocci.make_ident(call_stmt(p[0], add_hooks_call(hooks, lsm)))

@allreg@
expression list es;
position p;
@@

 register_security@p(es)

@script:python@
es << allreg.es;
p << allreg.p;
@@

if key(p[0]) not in HANDLED:
    emit("todo", p[0], "register_security(%s) in a shape lsmconv does not "
         "convert: use security_add_hooks() by hand" % tidy(es))

// ---------------------------------------------------------------------
// security_module_enable(): the checks that can go.

@en@
identifier o;
expression E;
position p;
statement S;
@@

(
 if (!security_module_enable@p(&o)) S
|
 if (E || !security_module_enable@p(&o)) S
|
 if (!security_module_enable@p(&o) || E) S
)

@script:python en2@
o << en.o;
p << en.p;
o2;
@@

if keeps_enable():
    coccinelle.o2 = cocci.make_ident(NONE)
else:
    HANDLED.add(key(p[0]))
    emit("reg", p[0], "security_module_enable(&%s) check removed: the LSM "
         "framework enables the module (for an exclusive major, give DEFINE_LSM "
         ".flags = LSM_FLAG_LEGACY_MAJOR | LSM_FLAG_EXCLUSIVE and .enabled)" % o)
    coccinelle.o2 = cocci.make_ident(o)

// The target keeps the check by name (4.2-5.0): `&ops` becomes "<lsm>".
@enn@
identifier o;
position p;
@@

 security_module_enable@p(&o)

@script:python enname@
o << enn.o;
p << enn.p;
o2;
s;
@@

if keeps_enable():
    lsm = names_for(p[0], o)[0]
    HANDLED.add(key(p[0]))
    emit("reg", p[0], "security_module_enable(&%s) -> security_module_enable(\"%s\"): "
         "the target's check takes the LSM's name" % (o, lsm))
    coccinelle.o2 = cocci.make_ident(o)
    coccinelle.s = cocci.make_ident('"%s"' % lsm)
else:
    coccinelle.o2 = cocci.make_ident(NONE)
    coccinelle.s = cocci.make_ident(NONE)

@allen@
expression list es;
position p;
@@

 security_module_enable@p(es)

@script:python@
es << allen.es;
p << allen.p;
@@

if key(p[0]) not in HANDLED:
    emit("todo", p[0], "security_module_enable(%s) in a shape lsmconv does not "
         "remove: the LSM framework now decides (DEFINE_LSM .enabled)" % tidy(es))

// ---------------------------------------------------------------------
// reset_security_ops(): the hook list of the file is deleted instead
// (security_delete_hooks(), the run-time disable of the target), when the
// file has exactly one: one legacy ops initializer (its array is named as
// above) or one security_hook_list array, not both.

@ops@
identifier o;
position p;
@@

 struct security_operations o@p = {...};

@script:python@
o << ops.o;
p << ops.p;
@@

ARRAYS.setdefault(p[0].file, set()).add(("ops", o))

@hl@
identifier a;
position p;
@@

 struct security_hook_list a@p[] = {...};

@script:python@
a << hl.a;
p << hl.p;
@@

ARRAYS.setdefault(p[0].file, set()).add(("list", a))

@rs@
position p;
@@

 reset_security_ops@p();

@script:python rss@
p << rs.p;
h;
@@

arrays = sorted(ARRAYS.get(p[0].file, ()))
if len(arrays) == 1:
    kind, name = arrays[0]
    hooks = names_for(p[0], name)[1] if kind == "ops" else name
    HANDLED.add(key(p[0]))
    DELETE.add(key(p[0]))
    emit("reg", p[0], "reset_security_ops() -> security_delete_hooks(%s, "
         "ARRAY_SIZE(%s)): the run-time disable deletes the file's hook list"
         % (hooks, hooks))
    coccinelle.h = cocci.make_ident(call_stmt(
        p[0], "security_delete_hooks(%s, ARRAY_SIZE(%s))" % (hooks, hooks)))
else:
    coccinelle.h = cocci.make_ident("lsmconv_no_hook_list")

@allrs@
expression list es;
position p;
@@

 reset_security_ops@p(es)

@script:python@
p << allrs.p;
@@

if key(p[0]) not in HANDLED:
    n = len(ARRAYS.get(p[0].file, ()))
    emit("todo", p[0], "reset_security_ops(): no hook-list equivalent for this "
         "use (%s); remove or restructure by hand (security_delete_hooks() of "
         "the module's hook list, if it may be disabled at run time)"
         % ("not a statement `reset_security_ops();`" if n == 1 else
            "the file defines %d hook lists, not exactly one" % n))

// ---------------------------------------------------------------------
// Transformations.

@depends on patch@
position rs.p : script:python() { key(p[0]) in DELETE };
identifier rss.h;
@@

- reset_security_ops@p();
+ h;

@depends on patch@
identifier reg.o;
identifier regs.c;
statement S;
@@

(
- if (register_security(&o)) S
+ c;
|
- if (register_security(&o) < 0) S
+ c;
|
- if (register_security(&o) != 0) S
+ c;
|
- return register_security(&o);
+ c;
+ return 0;
|
- register_security(&o);
+ c;
)

@retv depends on patch@
identifier reg.o;
identifier regs.c;
identifier ret;
statement S;
@@

(
- ret = register_security(&o);
- if (ret) S
+ c;
|
- ret = register_security(&o);
- if (ret < 0) S
+ c;
|
- ret = register_security(&o);
- if (ret != 0) S
+ c;
)

@depends on patch@
identifier retv.ret;
identifier fn;
type T;
@@

 fn(...)
 {
 ... when any
- T ret;
 ... when != ret
 }

@depends on patch@
identifier en2.o2;
expression E;
statement S;
@@

(
- if (!security_module_enable(&o2)) S
|
 if (E
-    || !security_module_enable(&o2)
    ) S
|
 if (
-    !security_module_enable(&o2) ||
     E) S
)

@depends on patch@
identifier enname.o2;
identifier enname.s;
@@

 security_module_enable(
- &o2
+ s
 )

@depends on context@
expression list es;
@@

(
* register_security(es)
|
* security_module_enable(es)
)
