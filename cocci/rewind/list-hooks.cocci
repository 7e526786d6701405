// SPDX-License-Identifier: GPL-2.0
/// List the entries of every security_hook_list array, one line each:
/// "FILE<TAB>ARRAY<TAB>HOOK<TAB>FUNCTION".  The rewind driver reads
/// capability's and Yama's hook lists with it, from the tree itself.
// Confidence: High
// Options: --no-includes

virtual report

@r depends on report@
identifier H, h, f;
attribute name __lsm_ro_after_init;
position p;
@@
struct security_hook_list H[] __lsm_ro_after_init = { ..., LSM_HOOK_INIT@p(h, f), ... };

@script:python depends on report@
H << r.H;
h << r.h;
f << r.f;
p << r.p;
@@
print("%s\t%s\t%s\t%s\t%s" % (p[0].file, p[0].line, H, h, f))
