// SPDX-License-Identifier: GPL-2.0
/// Rewind security/security.c to one security_operations vector: every
/// wrapper calls security_ops->hook(...); the loops over hook lists are
/// reduced to what a single vector means; register_security() replaces
/// security_add_hooks().
// Confidence: High
// Options: --no-includes

virtual patch

// call_int_hook(HOOK, IRC, args) -> security_ops->HOOK(args).  The default
// stubs in capability.c return what IRC meant: "no module has a say".
@call_int depends on patch@
identifier F;
expression IRC;
expression list es;
symbol security_ops;
@@
- call_int_hook(F, IRC, es)
+security_ops->F(es)

@call_void depends on patch@
identifier F;
expression list es;
symbol security_ops;
@@
- call_void_hook(F, es);
+security_ops->F(es);

@call_void0 depends on patch@
identifier F;
symbol security_ops;
@@
- call_void_hook(F);
+security_ops->F();

// The module's name, where the stacked code looked at which LSM a hook
// belongs to (getprocattr/setprocattr).
@lsm_name depends on patch@
struct security_hook_list *hp;
symbol security_ops;
@@
- hp->lsm
+security_ops->name

// First module whose answer is not the default wins: with one vector, its
// answer is the answer.
@first_nondefault depends on patch@
identifier hp, F, rc, l;
expression list es;
expression E;
symbol security_hook_heads, security_ops;
iterator name hlist_for_each_entry;
@@
- hlist_for_each_entry(hp, &security_hook_heads.F, l) {
-	rc = hp->hook.F(es);
-	if (rc != E)
-		return rc;
- }
- return E;
+return security_ops->F(es);

// Only the first module is asked.
@first_only depends on patch@
identifier hp, F, rc, l;
expression list es;
symbol security_hook_heads;
iterator name hlist_for_each_entry;
@@
  hlist_for_each_entry(hp, &security_hook_heads.F, l) {
	rc = hp->hook.F(es);
-	break;
  }

// (A loop without break over one vector is one call.)
@one_call depends on patch@
identifier hp, F, rc, l;
expression list es;
symbol security_hook_heads, security_ops;
iterator name hlist_for_each_entry;
@@
- hlist_for_each_entry(hp, &security_hook_heads.F, l) {
-	rc = hp->hook.F(es);
- }
+rc = security_ops->F(es);

// "Not mine" answers let the next module try (task_prctl): one module,
// one answer.
@not_mine depends on patch@
identifier hp, F, rc, t, l;
expression list es;
expression E;
symbol security_hook_heads, security_ops;
iterator name hlist_for_each_entry;
@@
- hlist_for_each_entry(hp, &security_hook_heads.F, l) {
-	t = hp->hook.F(es);
-	if (t != E) {
-		rc = t;
-		if (t != 0)
-			break;
-	}
- }
- return rc;
+return security_ops->F(es);

// Accept if one module accepts, stop at a real error (fs_context_parse_param).
@any_accepts depends on patch@
identifier hp, F, rc, t, l;
expression list es;
expression E;
symbol security_hook_heads, security_ops;
iterator name hlist_for_each_entry;
@@
- hlist_for_each_entry(hp, &security_hook_heads.F, l) {
-	t = hp->hook.F(es);
-	if (t == 0)
-		rc = 0;
-	else if (t != E)
-		return t;
- }
- return rc;
+return security_ops->F(es);

// Pick the module by name (getprocattr/setprocattr).
@by_name depends on patch@
identifier hp, F, l;
expression list es;
expression C, E;
symbol security_hook_heads, security_ops;
iterator name hlist_for_each_entry;
@@
- hlist_for_each_entry(hp, &security_hook_heads.F, l) {
-	if (C)
-		continue;
-	return hp->hook.F(es);
- }
+if (C)
+	return E;
+return security_ops->F(es);
- return E;

// Every module must agree (vm_enough_memory): the one module decides.
@all_agree depends on patch@
identifier hp, F, rc, l;
expression list es;
expression C;
statement S;
symbol security_hook_heads, security_ops;
iterator name hlist_for_each_entry;
@@
- hlist_for_each_entry(hp, &security_hook_heads.F, l) {
-	rc = hp->hook.F(es);
+rc = security_ops->F(es);
	if (C) {
		S
-		break;
	}
- }

// Anything else: the loop body runs once, for the one vector.
@other_loop depends on patch@
identifier hp, F, l;
statement S;
symbol security_hook_heads;
iterator name hlist_for_each_entry;
@@
- hlist_for_each_entry(hp, &security_hook_heads.F, l)
+do
  S
+while (0);

@other_call depends on patch@
identifier hp, F;
expression list es;
symbol security_ops;
@@
- hp->hook.F(es)
+security_ops->F(es)

// The single vector: starts at the defaults, replaced once by a module.
@heads depends on patch@
symbol security_hook_heads;
attribute name __lsm_ro_after_init;
@@
- struct security_hook_heads security_hook_heads __lsm_ro_after_init;
+static struct security_operations default_security_ops = {
+	.name	= "default",
+};
+
+static struct security_operations *security_ops = &default_security_ops;

@add_hooks depends on patch@
identifier f = security_add_hooks;
attribute name __init, __initdata;
@@
+static inline int __init verify(struct security_operations *ops)
+{
+	/* verify the security_operations structure exists */
+	if (!ops)
+		return -EINVAL;
+	security_fixup_ops(ops);
+	return 0;
+}
+
+/* Save user chosen LSM */
+static char chosen_lsm[SECURITY_NAME_MAX + 1] __initdata;
+
+/**
+ * security_module_enable - Load given security module on boot ?
+ * @ops: a pointer to the struct security_operations that is to be checked.
+ *
+ * Each LSM must pass this method before registering its own operations
+ * to avoid security registration races. This method may also be used
+ * to check if your LSM is currently loaded during kernel initialization.
+ *
+ * Returns:
+ *
+ * true if:
+ *
+ * - The passed LSM is the one chosen by user at boot time (security=),
+ * - or no LSM was chosen and this is the first one to ask, in the
+ *   order of CONFIG_LSM.
+ *
+ * Otherwise, return false.
+ */
+int __init security_module_enable(struct security_operations *ops)
+{
+	if (!chosen_lsm[0])
+		strscpy(chosen_lsm, chosen_major_lsm ? chosen_major_lsm : ops->name,
+			sizeof(chosen_lsm));
+	return !strcmp(ops->name, chosen_lsm);
+}
+
+/**
+ * register_security - registers a security framework with the kernel
+ * @ops: a pointer to the struct security_options that is to be registered
+ *
+ * This function allows a security module to register itself with the
+ * kernel security subsystem.  Some rudimentary checking is done on the @ops
+ * value passed to this function. You'll need to check first if your LSM
+ * is allowed to register its @ops by calling security_module_enable(@ops).
+ *
+ * If there is already a security module registered with the kernel,
+ * an error will be returned.  Otherwise %0 is returned on success.
+ */
+int __init register_security(struct security_operations *ops)
+{
+	if (verify(ops)) {
+		pr_debug("%s could not verify security_operations structure.\n",
+			 __func__);
+		return -EINVAL;
+	}
+	if (security_ops != &default_security_ops)
+		return -EAGAIN;
+	security_ops = ops;
+	if (slab_is_available()) {
+		if (lsm_append(ops->name, &lsm_names) < 0)
+			panic("%s - Cannot get early memory.\n", __func__);
+	}
+	return 0;
+}
+
+#ifdef CONFIG_SECURITY_SELINUX_DISABLE
+void reset_security_ops(void)
+{
+	security_ops = &default_security_ops;
+}
+#endif
+
  f(...) { ... }

@del_add_hooks depends on patch@
identifier f = security_add_hooks;
@@
- f(...) { ... }

// The defaults are in place before any hook can be called.
@early depends on patch@
attribute name __init;
@@
  int __init early_security_init(void)
  {
  ...
+security_fixup_ops(&default_security_ops);
  for (...; ...; ...) { ... }
  ...
  }
