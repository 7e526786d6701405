// SPDX-License-Identifier: GPL-2.0
///
/// Framework piece of the series (seed 003, "Introduce security hook
/// calling Macros"): a file whose functions now use call_int_hook() /
/// call_void_hook() (the legacy security/security.c after
/// 30-hook-calls.cocci) but defines neither macro gets the target's
/// definitions, copied from the target's own security/security.c (its
/// "Hook list operation macros" comment and the two #defines, never typed
/// here), just before the first function that uses them.  Only the legacy
/// framework file is touched: one that defines register_security() or
/// security_init().  The macros walk security_hook_heads, which the rest of the
/// framework (hook heads, security_add_hooks(), LSM init) must provide:
/// that is reported as a todo, since the legacy registration code in the
/// file has no mechanical translation.
///
/// SmPL cannot add preprocessor definitions at a chosen place, so the
/// change is a text pass in Python, lsmconv.calling_macros.  The driver
/// runs it as a step of its own (the `Text pass:` line below: `python3 -m
/// lsmconv.calling_macros --target TREE FILE...` rewrites the files).  Run
/// as a rule (coccicheck), the script rule prints the change as a unified
/// diff (patch, context) or the findings (report, org) for each file that
/// defines register_security() or security_init(); it never writes a file.
/// Parameters: -D lsmconv=<lsmconv's cocci/>, -D target=<kernel tree>
/// (default: the current directory).
///
// Text pass: lsmconv.calling_macros
// Confidence: Moderate
// Copyright: (C) 2026 lsmconv contributors.
// Options:
// Keywords: call_int_hook, call_void_hook, security_hook_heads
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
from lsmconv.calling_macros import *

@initialize:python depends on report@
@@
set_mode("report")

@initialize:python depends on org@
@@
set_mode("org")

@initialize:python depends on context@
@@
set_mode("context")

@sec@
identifier fn = {register_security, security_init};
position p;
@@

 fn@p(...) {...}

@script:python@
p << sec.p;
@@

rule_pass(p[0].file, rule.TARGET)
