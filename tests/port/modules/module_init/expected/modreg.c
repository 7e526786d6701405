// SPDX-License-Identifier: GPL-2.0
/* modreg: registers its hooks from module_init(). */
#include <linux/module.h>
#include <linux/security.h>
#include <linux/lsm_hooks.h>

static int modreg_inode_unlink(struct inode *dir, struct dentry *dentry)
{
	return 0;
}

static struct security_hook_list modreg_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(inode_unlink, modreg_inode_unlink),
};

static int __init modreg_init(void)
{
	security_add_hooks(modreg_hooks, ARRAY_SIZE(modreg_hooks), "modreg");
	return 0;
}

/* lsmconv port: was module_init(modreg_init): built in now */
DEFINE_LSM(modreg) = {
	.name = "modreg",
	.init = modreg_init,
};
MODULE_LICENSE("GPL");
