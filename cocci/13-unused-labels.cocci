// SPDX-License-Identifier: GPL-2.0
///
/// Remove the error-path labels that 11-register-security.cocci left
/// without a goto: security_add_hooks() cannot fail, so the cleanup that
/// only its error path jumped to is dead.  In a file that calls
/// security_add_hooks(), a label no goto of the file names goes; when the
/// code before it cannot fall through (return/goto) its single cleanup
/// statement goes too.  A longer dead cleanup block is reported as todo.
///
// Confidence: Moderate
// Copyright: (C) 2026 lsmconv contributors.
// Options: --smpl-spacing
// Keywords: security_add_hooks, label, error path
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
    from lsmconv import rule
except ImportError:
    sys.exit("lsmconv: give -D lsmconv=DIR, the directory of the lsmconv package")
from lsmconv.labels import *

@initialize:python depends on report@
@@
set_mode("report")

@initialize:python depends on org@
@@
set_mode("org")

@initialize:python depends on context@
@@
set_mode("context")


// label() looks only at files that register their hooks (the removed
// register_security() became security_add_hooks()).
@sah@
expression list es;
@@

 security_add_hooks(es)

@r depends on sah@
identifier L;
statement S;
position p;
@@

L@p:
S

@script:python k@
L << r.L;
p << r.p;
drop;
unlabel;
@@

drop, unlabel = label(L, p[0])
coccinelle.drop = cocci.make_ident(drop)
coccinelle.unlabel = cocci.make_ident(unlabel)

@depends on patch@
identifier k.drop;
statement S;
@@

-drop:
-S

@depends on patch@
identifier k.unlabel;
statement S;
@@

-unlabel:
 S

@depends on context@
identifier k.drop;
statement S;
@@

*drop:
 S

@depends on context@
identifier k.unlabel;
statement S;
@@

*unlabel:
 S
