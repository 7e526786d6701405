static struct security_hook_list odd_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(task_free, odd_task_free),
};

static int __init odd_init(void)
{
	int enabled = security_module_enable(&odd_ops);

	BUG_ON(register_security(&odd_ops) < 0);
	return enabled;
}

security_initcall(odd_init);
