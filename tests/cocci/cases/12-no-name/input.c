/*
 * No .name entry: the LSM is named after the ops variable.
 */
static struct security_operations tomoyo_security_ops = {
	.cred_prepare         = tomoyo_cred_prepare,
	.bprm_check_security  = tomoyo_bprm_check_security,
	.file_fcntl           = tomoyo_file_fcntl,
};

static int __init tomoyo_init(void)
{
	if (!security_module_enable(&tomoyo_security_ops))
		return 0;
	/* register ourselves with the security framework */
	if (register_security(&tomoyo_security_ops))
		panic("Failure registering TOMOYO Linux");
	printk(KERN_INFO "TOMOYO Linux initialized\n");
	return 0;
}

security_initcall(tomoyo_init);
