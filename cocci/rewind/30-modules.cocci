// SPDX-License-Identifier: GPL-2.0
/// Rewind a security module from a security_hook_list array registered with
/// security_add_hooks() to a struct security_operations with .name,
/// registered with register_security() after a security_module_enable()
/// check, as every module did before 4.2.
///   static struct security_hook_list foo_hooks[] = { LSM_HOOK_INIT(h, f), };
///   security_add_hooks(foo_hooks, ARRAY_SIZE(foo_hooks), "foo");
/// becomes
///   static struct security_operations foo_ops = { .name = "foo", .h = f, };
///   if (!security_module_enable(&foo_ops)) return 0;   (top of the init)
///   if (register_security(&foo_ops)) panic(...);
/// SELinux's runtime disable (security_delete_hooks) becomes
/// reset_security_ops(), as in 4.0.
// Confidence: High
// Options: --no-includes

virtual patch

@a0 depends on patch@
identifier H;
attribute name __lsm_ro_after_init;
@@
struct security_hook_list H[] __lsm_ro_after_init = { ... };

@script:python a0n depends on patch@
H << a0.H;
O;
@@
coccinelle.O = cocci.make_ident((H[:-len("_hooks")] if H.endswith("_hooks") else H) + "_ops")

// The registration gives the module's name.
@reg depends on patch@
identifier a0.H, a0n.O, fn;
expression N;
@@
fn(...) {
  <+...
- security_add_hooks(H, ARRAY_SIZE(H), N);
+ if (register_security(&O))
+	panic("%s: kernel registration failed.\n", N);
  ...+>
}

@arr depends on patch@
identifier a0.H, a0n.O;
attribute name __lsm_ro_after_init;
@@
- struct security_hook_list H[] __lsm_ro_after_init
+ struct security_operations O
  = { ... };

@ent depends on arr@
identifier a0n.O, h, f;
@@
struct security_operations O = { ...,
- LSM_HOOK_INIT(h, f)
+ .h = f
  , ...};

@nm depends on arr@
identifier a0n.O;
expression reg.N;
@@
struct security_operations O = {
+ .name = N,
  ...};

// Only the chosen module registers: the check goes after the init
// function's declarations.
@chk1 depends on reg@
identifier reg.fn, a0n.O;
declaration d;
statement S;
@@
fn(...) {
  ... when != S
      when any
  d
+
+ if (!security_module_enable(&O))
+	return 0;
  S
  ...
}

@chk2 depends on reg && !chk1@
identifier reg.fn, a0n.O;
@@
fn(...) {
+ if (!security_module_enable(&O))
+	return 0;
+
  ...
}

@del depends on patch@
identifier a0.H;
@@
- security_delete_hooks(H, ARRAY_SIZE(H));
+ reset_security_ops();

// A module that is not chosen marks itself disabled (4.0: selinux_enabled
// = 0), so its other initcalls (securityfs, netfilter, ...) stay away.
@lsm depends on patch@
identifier x, fn, V;
declarer name DEFINE_LSM;
@@
DEFINE_LSM(x) = { ..., .enabled = &V, ..., .init = fn, ... };

@off depends on lsm@
identifier lsm.fn, lsm.V, O;
@@
fn(...) {
  <...
  if (!security_module_enable(&O))
-	return 0;
+	{
+		V = 0;
+		return 0;
+	}
  ...>
}
