static struct security_operations selinux_ops = {
	.name =				"selinux",
	.capable =			selinux_capable,
};

static __init int selinux_init(void)
{
	if (!security_module_enable(&selinux_ops)) {
		selinux_enabled = 0;
		return 0;
	}

	if (!selinux_enabled) {
		printk(KERN_INFO "SELinux:  Disabled at boot.\n");
		return 0;
	}

	printk(KERN_INFO "SELinux:  Initializing.\n");

	if (register_security(&selinux_ops))
		panic("SELinux: Unable to register with kernel.\n");

	return 0;
}

static int __init smack_init(void)
{
	int rc;

	if (!security_module_enable(&smack_ops))
		return 0;

	rc = register_security(&smack_ops);
	if (rc != 0) {
		printk(KERN_ERR "Smack: unable to register\n");
		return rc;
	}

	smack_enabled = 1;
	return 0;
}

static int __init keep_init(void)
{
	int rc;

	rc = register_security(&keep_ops);
	if (rc < 0)
		return rc;

	rc = keep_setup();
	return rc;
}
