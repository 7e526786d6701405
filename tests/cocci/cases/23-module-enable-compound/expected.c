static int __init apparmor_init(void)
{
	int error;

	if (!apparmor_enabled) {
		aa_info_message("AppArmor disabled by boot time parameter");
		apparmor_enabled = 0;
		return 0;
	}

	error = aa_alloc_root_ns();
	if (error) {
		AA_ERROR("Unable to allocate default profile namespace\n");
		goto alloc_out;
	}

	security_add_hooks(apparmor_hooks, ARRAY_SIZE(apparmor_hooks),
			   "apparmor");

	return error;

alloc_out:
	apparmor_enabled = 0;
	return error;
}

static int __init other_init(void)
{
	if (other_disabled)
		return 0;
	return 0;
}
