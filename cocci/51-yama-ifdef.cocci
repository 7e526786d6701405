// SPDX-License-Identifier: GPL-2.0
///
/// Companion of 50-yama-stacked.cocci: remove the `#ifdef CONFIG_OPTION` /
/// `#endif` pairs that the removal of a module's hand-made stacking left
/// with nothing (or only blank lines) between them (any option: an empty
/// pair is dead code), and the `#ifndef CONFIG_OPTION` / `#endif` guards
/// around a module's hook list or registration (4.0's Yama under
/// CONFIG_SECURITY_YAMA_STACKED; the content stays, an empty block goes)
/// when the target's Kconfig has no such option.  A blank line that a
/// removed empty block leaves right after an opening brace or after
/// another blank line goes too.  Blocks with `#else`/`#elif` are not
/// touched.  Each removed pair is reported as `special`.  No option or
/// module is named here.
///
/// SmPL cannot match preprocessor directives, so the change is a text pass
/// in Python, lsmconv.yama_ifdef.  The driver runs it as a step of its own
/// (the `Text pass:` line below: `python3 -m lsmconv.yama_ifdef --target
/// TREE FILE...` rewrites the files).  Run as a rule (coccicheck), for each
/// C file spatch visits, the script rule prints the change as a unified
/// diff (patch, context) or the findings (report, org); it never writes a
/// file.  Parameters: -D lsmconv=<lsmconv's cocci/>, -D target=<kernel
/// tree> (default: the current directory) for the Kconfig check.
///
// Text pass: lsmconv.yama_ifdef
// Confidence: High
// Copyright: (C) 2026 lsmconv contributors.
// Options:
// Keywords: CONFIG_SECURITY_YAMA_STACKED, yama, preprocessor
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
from lsmconv.yama_ifdef import *

@initialize:python depends on report@
@@
set_mode("report")

@initialize:python depends on org@
@@
set_mode("org")

@initialize:python depends on context@
@@
set_mode("context")

@fns@
identifier fn;
position p;
@@

 fn@p(...) {...}

@script:python@
p << fns.p;
@@

rule_pass(p[0].file, rule.TARGET)
