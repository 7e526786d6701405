static struct security_hook_list half_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(task_kill, half_task_kill),
};

static int __init half_init(void)
{
	security_add_hooks(half_hooks, ARRAY_SIZE(half_hooks), "half");
	return 0;
}

DEFINE_LSM(half) = {
	.name = "half",
	.flags = LSM_FLAG_LEGACY_MAJOR,
	.init = half_init,
};
