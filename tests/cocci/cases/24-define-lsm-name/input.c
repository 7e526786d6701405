#include <linux/security.h>

static struct security_operations lockfs_ops = {
	.name = "lock-fs",
	.sb_mount = lockfs_sb_mount,
};

static __init int lockfs_init(void)
{
	register_security(&lockfs_ops);
	pr_info("lock-fs: ready\n");
	return 0;
}

security_initcall(lockfs_init);
