// SPDX-License-Identifier: GPL-2.0
/* regp: the classic if (register_security()) panic() shape. */
#include <linux/security.h>
#include <linux/lsm_hooks.h>

static int regp_sb_umount(struct vfsmount *mnt, int flags)
{
	return 0;
}

static struct security_hook_list regp_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(sb_umount, regp_sb_umount),
};

static int __init regp_init(void)
{
	printk(KERN_INFO "regp: initializing\n");
	security_add_hooks(regp_hooks, ARRAY_SIZE(regp_hooks), "regp");
	return 0;
}
DEFINE_LSM(regp) = {
	.name = "regp",
	.init = regp_init,
};
