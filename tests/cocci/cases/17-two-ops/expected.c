static struct security_hook_list alpha_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(inode_mkdir, alpha_inode_mkdir),
};

static struct security_hook_list beta_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(inode_mkdir, beta_inode_mkdir),
	LSM_HOOK_INIT(inode_rmdir, beta_inode_rmdir),
};

static int __init alpha_init(void)
{
	security_add_hooks(alpha_hooks, ARRAY_SIZE(alpha_hooks), "alpha");
	return 0;
}

static int __init beta_init(void)
{
	security_add_hooks(beta_hooks, ARRAY_SIZE(beta_hooks), "beta");
	return 0;
}

DEFINE_LSM(alpha) = {
	.name = "alpha",
	.init = alpha_init,
};
DEFINE_LSM(beta) = {
	.name = "beta",
	.init = beta_init,
};
