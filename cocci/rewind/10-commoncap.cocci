// SPDX-License-Identifier: GPL-2.0
/// Rewind capability (the LSM_ORDER_FIRST module, security/commoncap.c)
/// from a registered LSM to what it was before 4.2: a library of cap_*
/// functions that security/capability.c installs as defaults and that the
/// major modules call themselves.  Its hook array, init function and
/// DEFINE_LSM entry go.
// Confidence: High
// Options: --no-includes

virtual patch

@arr depends on patch@
identifier H;
attribute name __lsm_ro_after_init;
@@
- struct security_hook_list H[] __lsm_ro_after_init = { ... };

@init depends on arr@
identifier arr.H, fn;
expression N;
@@
- fn(...) {
-  ...
-  security_add_hooks(H, ARRAY_SIZE(H), N);
-  ...
- }

@lsm depends on init@
identifier init.fn, x;
declarer name DEFINE_LSM;
@@
- DEFINE_LSM(x) = { ..., .init = fn, ... };
