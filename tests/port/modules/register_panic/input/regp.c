// SPDX-License-Identifier: GPL-2.0
/* regp: the classic if (register_security()) panic() shape. */
#include <linux/security.h>

static int regp_sb_umount(struct vfsmount *mnt, int flags)
{
	return 0;
}

static struct security_operations regp_ops = {
	.name = "regp",
	.sb_umount = regp_sb_umount,
};

static int __init regp_init(void)
{
	if (!security_module_enable(&regp_ops))
		return 0;
	printk(KERN_INFO "regp: initializing\n");
	if (register_security(&regp_ops))
		panic("regp: Unable to register with kernel\n");
	return 0;
}
security_initcall(regp_init);
