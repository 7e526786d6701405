#include <linux/security.h>
#include <linux/lsm_hooks.h>

static struct security_hook_list lock_fs_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(sb_mount, lockfs_sb_mount),
};

static __init int lockfs_init(void)
{
	security_add_hooks(lock_fs_hooks, ARRAY_SIZE(lock_fs_hooks), "lock-fs");
	pr_info("lock-fs: ready\n");
	return 0;
}

DEFINE_LSM(lock_fs) = {
	.name = "lock-fs",
	.init = lockfs_init,
};
