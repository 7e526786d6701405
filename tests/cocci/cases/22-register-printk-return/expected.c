static struct security_hook_list selinux_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(capable, selinux_capable),
};

static __init int selinux_init(void)
{
	if (!selinux_enabled) {
		printk(KERN_INFO "SELinux:  Disabled at boot.\n");
		return 0;
	}

	printk(KERN_INFO "SELinux:  Initializing.\n");

	security_add_hooks(selinux_hooks, ARRAY_SIZE(selinux_hooks), "selinux");

	return 0;
}

static int __init smack_init(void)
{
	security_add_hooks(smack_hooks, ARRAY_SIZE(smack_hooks), "smack");

	smack_enabled = 1;
	return 0;
}

static int __init keep_init(void)
{
	int rc;

	security_add_hooks(keep_hooks, ARRAY_SIZE(keep_hooks), "keep");

	rc = keep_setup();
	return rc;
}
