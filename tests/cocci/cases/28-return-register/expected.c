static struct security_hook_list tiny_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(syslog, tiny_syslog),
};

static int __init tiny_init(void)
{
	pr_info("tiny: loaded\n");
	security_add_hooks(tiny_hooks, ARRAY_SIZE(tiny_hooks), "tiny");
	return 0;
}

DEFINE_LSM(tiny) = {
	.name = "tiny",
	.init = tiny_init,
};
