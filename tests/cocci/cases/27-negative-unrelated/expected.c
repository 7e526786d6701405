/*
 * Nothing here is a security_operations initializer: lsmconv must not
 * touch it.
 */
static struct file_system_type securityfs_type = {
	.owner =	THIS_MODULE,
	.name =		"securityfs",
	.mount =	securityfs_mount,
	.kill_sb =	kill_litter_super,
};

static const struct file_operations foo_fops = {
	.open = foo_file_open,
	.read = seq_read,
};

static struct security_hook_list already_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(file_open, already_file_open),
};

static int __init already_init(void)
{
	security_add_hooks(already_hooks, ARRAY_SIZE(already_hooks), "already");
	return register_filesystem(&securityfs_type);
}

DEFINE_LSM(already) = {
	.name = "already",
	.init = already_init,
};
