// SPDX-License-Identifier: GPL-2.0
///
/// Find every use of the legacy LSM API (the single `struct
/// security_operations` vector, before Linux 4.2) that is still in the
/// code: any object of that type (variable, pointer, parameter, cast,
/// extern, sizeof), calls and assignments through any such object (not
/// only `security_ops`: `original_ops.f()`, `p->f()`, `extra_ops->f()`),
/// register_security(), unregister_security(), mod_reg_security(),
/// mod_unreg_security(), reset_security_ops(), security_fixup_ops(),
/// secondary_ops, and security_initcall() when the target tree has no
/// such macro.  Nothing is changed: each finding is one line for a human.
///
/// lsmconv's port mode (`convert.sh port`) runs it after the conversion;
/// it is also a standalone checker:
///     spatch -D report --sp-file legacy-sweep.cocci [-D target=TREE] FILE
/// prints `FILE:LINE:COL-COL: legacy LSM API: ...` per finding.  In patch
/// mode (-D patch) it prints lsmconv's `LSMCONV<TAB>todo<TAB>file<TAB>line
/// <TAB>detail` lines instead.
///
/// Not seen by spatch, hence done by lsmconv.port as a text scan: macro
/// bodies (`#define SWAP(f) orig_ops.f = my_##f`), `#include` of
/// capability.c, and code spatch cannot parse.
///
// Confidence: High
// Copyright: (C) 2026 lsmconv contributors.
// Options: --include-headers
// Keywords: security_operations, security_ops, register_security
//

virtual patch
virtual context
virtual org
virtual report

// Run without -D target (make coccicheck) the tree is the current
// directory.  An initialize that binds virtual.target does not run when it
// is not given: it only sets TARGET, before the one that uses it.
@initialize:python@
@@
TARGET = None

@initialize:python@
target << virtual.target;
@@
TARGET = target

@initialize:python@
@@
import os
import re
import sys

MODE = "patch"
SEEN = set()
TREE = TARGET if TARGET else os.getcwd()


def _initcall_in_target():
    for rel in ("include/linux/init.h", "include/linux/lsm_hooks.h",
                "include/linux/security.h"):
        try:
            with open(os.path.join(TREE, rel), encoding="utf-8", errors="replace") as f:
                if re.search(r"#\s*define\s+security_initcall\b", f.read()):
                    return True
        except OSError:
            pass
    return False


INITCALL_OK = _initcall_in_target()


def emit(pos, detail):
    k = (pos.file, pos.line)
    if k in SEEN:
        return
    SEEN.add(k)
    if MODE == "patch":
        print("LSMCONV\ttodo\t%s\t%s\tlegacy LSM API: %s" % (pos.file, pos.line, detail))
        sys.stdout.flush()
    elif MODE == "report":
        coccilib.report.print_report(pos, "legacy LSM API: " + detail)
    elif MODE == "org":
        coccilib.org.print_todo(pos, "legacy LSM API: " + detail)

@initialize:python depends on report@
@@
MODE = "report"

@initialize:python depends on org@
@@
MODE = "org"

@initialize:python depends on context@
@@
MODE = "context"

// Calls and assignments through an ops object first: their message is the
// more precise one for the line.
@through@
struct security_operations s;
struct security_operations *sp;
identifier f;
expression list es;
expression e;
position p;
@@

(
 s.f@p(es)
|
 sp->f@p(es)
|
 s.f@p = e
|
 sp->f@p = e
)

@script:python@
f << through.f;
p << through.p;
@@

emit(p[0], "call or assignment through a struct security_operations (.%s): "
     "there is no ops object any more; call the function directly, or let "
     "the framework call the hook (stacked modules all run)" % f)

// An object whose type spatch knows (a local `const struct file_operations
// *f_ops`, a global of a vendor type) is not such a vector: a known
// security_operations is `through`'s, any other type is no legacy API.
@known@
type T;
idexpression T k;
idexpression T *kp;
identifier f;
expression list es;
expression e;
position p;
@@

(
 k.f@p(es)
|
 kp->f@p(es)
|
 k.f@p = e
|
 kp->f@p = e
)

// The same through an object whose declaration spatch cannot see (a vendor
// header that is not part of the input): an identifier named like an ops
// vector, whose type is not known.
@named@
identifier o =~ "(^|_)ops$";
identifier f;
expression list es;
expression e;
position p != known.p;
@@

(
 o.f@p(es)
|
 o->f@p(es)
|
 o.f@p = e
|
 o->f@p = e
)

@script:python@
o << named.o;
f << named.f;
p << named.p;
@@

emit(p[0], "call or assignment through %s (.%s), an ops vector: there is no "
     "ops object any more; call the function directly, or let the framework "
     "call the hook" % (o, f))

@fn@
identifier f = {register_security, unregister_security, mod_reg_security,
                mod_unreg_security, reset_security_ops, security_fixup_ops};
position p;
@@

 f@p

@script:python@
f << fn.f;
p << fn.p;
@@

emit(p[0], "%s(): gone with the ops vector; hooks are registered once at boot "
     "with security_add_hooks() from a DEFINE_LSM init" % f)

@sec@
symbol secondary_ops;
position p;
@@

 secondary_ops@p

@script:python@
p << sec.p;
@@

emit(p[0], "secondary_ops chaining: every stacked module's hook is called by "
     "the framework; drop the chaining")

@ini@
declarer name security_initcall;
position p;
@@

 security_initcall@p(...);

@script:python@
p << ini.p;
@@

if not INITCALL_OK:
    emit(p[0], "security_initcall(): the target has no such macro; use "
         "DEFINE_LSM(name) = { .name = ..., .init = fn }")

@ty@
position p;
@@

 struct security_operations@p

@script:python@
p << ty.p;
@@

emit(p[0], "struct security_operations object: the type is gone; hooks are a "
     "static struct security_hook_list array of LSM_HOOK_INIT() entries")

@depends on context@
struct security_operations s;
struct security_operations *sp;
identifier f;
@@

(
* s.f
|
* sp->f
)
