static struct security_operations half_ops = {
	.name = "half",
	.task_kill = half_task_kill,
};

static int __init half_init(void)
{
	if (register_security(&half_ops))
		panic("half: cannot register\n");
	return 0;
}

security_initcall(half_init);

DEFINE_LSM(half) = {
	.name = "half",
	.flags = LSM_FLAG_LEGACY_MAJOR,
	.init = half_init,
};
