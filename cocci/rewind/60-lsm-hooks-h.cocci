// SPDX-License-Identifier: GPL-2.0
/// Rewind include/linux/lsm_hooks.h: no hook lists before 4.2.  The
/// declarations that only the lists need go (the types and LSM_HOOK_INIT
/// are removed by cpp_rewind.py, which can edit macros and X-macro
/// bodies); the 5.x blob and DEFINE_LSM infrastructure stays.
// Confidence: High
// Options: --no-includes

virtual patch

@depends on patch@
symbol security_hook_heads;
@@
- extern struct security_hook_heads security_hook_heads;

@depends on patch@
@@
- extern void security_add_hooks(...);

@depends on patch@
identifier f = security_delete_hooks;
@@
- f(...) { ... }
