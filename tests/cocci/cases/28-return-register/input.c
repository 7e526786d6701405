static struct security_operations tiny_ops = {
	.name = "tiny",
	.syslog = tiny_syslog,
};

static int __init tiny_init(void)
{
	if (!security_module_enable(&tiny_ops))
		return 0;
	pr_info("tiny: loaded\n");
	return register_security(&tiny_ops);
}

security_initcall(tiny_init);
