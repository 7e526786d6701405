static struct security_operations odd_ops = {
	.name = "odd",
	.task_free = odd_task_free,
};

static int __init odd_init(void)
{
	int enabled = security_module_enable(&odd_ops);

	BUG_ON(register_security(&odd_ops) < 0);
	return enabled;
}

security_initcall(odd_init);
