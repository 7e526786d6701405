extern struct security_operations *security_ops;
static struct security_operations *secondary_ops;

static struct security_hook_list dyn_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(ptrace_traceme, dyn_ptrace_traceme),
};

static struct security_operations saved_ops;

static int dyn_ptrace_traceme(struct task_struct *parent)
{
	return secondary_ops->ptrace_traceme(parent);
}

static int __init dyn_init(void)
{
	secondary_ops = security_ops;
	dyn_ops.ptrace_traceme = dyn_other_traceme;
	saved_ops = dyn_ops;
	if (mod_reg_security("dyn", &dyn_ops))
		return -EINVAL;
	return 0;
}

static void dyn_exit(void)
{
	security_delete_hooks(dyn_hooks, ARRAY_SIZE(dyn_hooks));
}
